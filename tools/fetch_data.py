# SPDX-License-Identifier: Apache-2.0
"""Fetches the benchmark and test corpus from its public sources into a data directory.

    python3 tools/fetch_data.py DATA_DIR            fetch what is missing, verify everything
    python3 tools/fetch_data.py --verify DATA_DIR   verify only; exit 1 if a file is missing or
                                                    differs (make bench runs this first)

Every source is pinned to a commit, and every file with a published sha256 is checked against
it; a file that is present and correct is never fetched again. The files are never committed.
"""
import gzip
import hashlib
import io
import json
import os
import sys
import tempfile
import urllib.request

SIMDJSON_DATA = "https://raw.githubusercontent.com/simdjson/simdjson-data/4197c425e857f0ec38e89822fdd0bd9ea21f4daf"
SIMDJSON_DATA_TREE = ("https://api.github.com/repos/simdjson/simdjson-data/git/trees/"
                      "4197c425e857f0ec38e89822fdd0bd9ea21f4daf?recursive=1")

JSON_EXAMPLES = {
    "apache_builds.json": "f8e3422ac7d3c3550674afcb37e979e4e9bbeccffdb66933423495d55b6f5c74",
    "canada.json": "f83b3b354030d5dd58740c68ac4fecef64cb730a0d12a90362a7f23077f50d78",
    "citm_catalog.json": "a73e7a883f6ea8de113dff59702975e60119b4b58d451d518a929f31c92e2059",
    "github_events.json": "c9eebb2cf2d46649059e9d48700919bacb3e8e0fb58452065a1a9de7778fd22e",
    "google_maps_api_compact_response.json": "7a7bc19562edb7f7fda4daabd9648600b8b2158f6294bac657680933ca8b8834",
    "google_maps_api_response.json": "5d65343aa0ac05be6c1f4ed1d0147ed5bf3f1529fda54fca0e3e752fa418cbbd",
    "gsoc-2018.json": "72f1ef4898d88049da856c2ab8f4ec3e2c968ce209b2bbfd16cef842eb2e185f",
    "instruments.json": "f3069235d4e2695d36c0c7735a435a7abb279fc4d64bbcf4ed9f888b8da1fdb9",
    "marine_ik.json": "61590a397542ae274ccd8a47ba9f64e7c9216a223a5e7e702dea5b2375411d62",
    "mesh.json": "45bc8bf429340a874a7af8ea7056d60497402f80f55dba1e6ecc4ca8f1e46aff",
    "mesh.pretty.json": "b08b8b1881b131f82f8a6b8f8b0226235488154d7363cc8302153e724776ae8e",
    "numbers.json": "82e9ddfe00963110ed8a0704e7df4d1ad1af9c0f336d1b24431ebc63cf430a2b",
    "random.json": "61a3544f2bc987b7378c66a9025b1f23eb5456d4f0443595c06d6fc20f3b0a68",
    "repeat.json": "d43b56b4c1ed2712cae6db4bd0572e97d340c1511721028d8ba530508c5f9ce5",
    "tree-pretty.json": "2ad825c7b90213ea4c0793565ae747b8c9ece26e44d51d9702bfc0e5869f454e",
    "twitter.json": "30721e496a8d73cfc50658923c34eb2c0fbe15ee6835005e43ee624d8dedf200",
    "twitter_api_compact_response.json": "30db7da125b47694fe51af75ccc4e30f6daeabcecb04f40fb191350a948b47a6",
    "twitter_api_response.json": "6a3e429f558a6a8517b94b4e84830ff2901176c1c5724db98e72248eedcc6ea5",
    "twitter_timeline.json": "ed697fa6a99dfd15f48244a209aab8f42e992489256f76a8c4f73102ecd52dcc",
    "twitterescaped.json": "2a288b5af4691c55b6f40fa534225b3e08b8d8b7f7ca4ed29bc5c7c81566ed4a",
    "update-center.json": "e7b6a037bfdb5abdf122fa3445ddfacea78522a23df31c4799884c4ebf4c01fa",
}

# (path in the data directory, sha256, [(url, transform), ...]): the first source that gives
# the right bytes wins.
FILES = [("jsonexamples/" + name, digest, [(SIMDJSON_DATA + "/jsonexamples/" + name, None)])
         for name, digest in JSON_EXAMPLES.items()] + [
    ("jsonexamples/vpic_makes.json",
     "bdb05fb1855d377f2caebfaa8b88c2afffbb9854c4420d489451c04b39294e5f",
     [("https://raw.githubusercontent.com/dcuesta1/Auto-Cars-Makes-And-Models/"
       "6b7f2aa6e51d479d0c23c52cd729e49425ca7a49/allMakes.json", None)]),
    ("ndjson/amazon_cellphones.ndjson",
     "c1518fdaaed45e590c480ed707aa1adaaba8b84b10747f956bd431c708bd590e",
     [(SIMDJSON_DATA + "/jsonexamples/amazon_cellphones.ndjson", None)]),
    ("ndjson/gharchive-2015-01-01-0.ndjson",
     "c867135cff9d4efb547933520890697232a834f6d68673965de16f7e8b32669d",
     [("https://raw.githubusercontent.com/npatta01/spark_metis_investigation/"
       "ba018e2aa064f592e45d06062e7bbef1dc71dbfc/2015-01-01-0.json.gz", "gunzip"),
      ("https://data.gharchive.org/2015-01-01-0.json.gz", "gunzip")]),
    ("vehicles/vehicles.csv.zip",
     "78f7272110b26796ee9c3a5c862256f0b1324c3c48c19777535fb1e50436e04c",
     [("https://raw.githubusercontent.com/Willturk10/IS-477-main-project-repository/"
       "dc6ab0e4793d33e9343ed54bc1a26ab8d68b4d1f/vehicles.csv.zip", None)]),
]


def sha256_of(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def download(url):
    request = urllib.request.Request(url, headers={"User-Agent": "simdbridge-fetch-data"})
    with urllib.request.urlopen(request, timeout=120) as response:
        return response.read()


def write_atomically(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=os.path.dirname(path))
    with os.fdopen(fd, "wb") as f:
        f.write(data)
    os.replace(tmp, path)


def fetch_file(root, relative, digest, sources):
    path = os.path.join(root, relative)
    if os.path.exists(path) and sha256_of(path) == digest:
        return "present"
    for url, transform in sources:
        try:
            data = download(url)
            if transform == "gunzip":
                data = gzip.GzipFile(fileobj=io.BytesIO(data)).read()
        except Exception as e:  # try the next source
            print("  %s: %s" % (url, e), file=sys.stderr)
            continue
        if hashlib.sha256(data).hexdigest() != digest:
            print("  %s: wrong sha256" % url, file=sys.stderr)
            continue
        write_atomically(path, data)
        return "fetched"
    raise SystemExit("fetch_data: no source gave %s with sha256 %s" % (relative, digest))


def fetch_jsonchecker(root):
    """JSON_checker and JSONTestSuite's minefield, listed from the pinned commit's tree."""
    marker = os.path.join(root, "jsonchecker", "minefield", "LICENSE")
    if os.path.exists(marker):
        return "present"
    tree = json.loads(download(SIMDJSON_DATA_TREE))
    paths = [e["path"] for e in tree["tree"]
             if e["type"] == "blob" and e["path"].startswith("jsonchecker/")]
    for p in paths:
        write_atomically(os.path.join(root, p), download(SIMDJSON_DATA + "/" + p))
    return "fetched %d files" % len(paths)


def main(argv):
    verify_only = "--verify" in argv
    args = [a for a in argv if a != "--verify"]
    if len(args) != 1:
        sys.stderr.write(__doc__)
        return 2
    root = args[0]
    if verify_only:
        bad = []
        for relative, digest, _ in FILES:
            path = os.path.join(root, relative)
            if not os.path.exists(path):
                bad.append(relative + " (missing)")
            elif sha256_of(path) != digest:
                bad.append(relative + " (sha256 differs)")
        if not os.path.isdir(os.path.join(root, "jsonchecker", "minefield")):
            bad.append("jsonchecker/minefield (missing)")
        if bad:
            print("corpus under %s is not the pinned one:\n  %s\nrun: make data" % (root, "\n  ".join(bad)),
                  file=sys.stderr)
            return 1
        print("corpus verified: %d files match their sha256 (%s)" % (len(FILES), root))
        return 0
    for relative, digest, sources in FILES:
        print("%-45s %s" % (relative, fetch_file(root, relative, digest, sources)))
    print("%-45s %s" % ("jsonchecker/", fetch_jsonchecker(root)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
