# SPDX-License-Identifier: Apache-2.0
"""The simdbridge command-line tool, run as a user runs it.

    python3 test_cli.py BINARY DATA_DIR REFERENCE_CORPUS
"""
import os
import re
import subprocess
import sys
import tempfile
import unittest

BINARY, DATA, REFERENCE = sys.argv[1:4]

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "core", "tests", "reference"))
from checksum_reference import spec_vectors  # noqa: E402  (docs/checksum.md's vectors)

SPEC_VECTORS, SPEC_STREAM = spec_vectors()


def run(*args, stdin=None):
    return subprocess.run([BINARY, *args], input=stdin, capture_output=True, timeout=120)


def peak_kb_piping(args, chunk, total):
    """Pipes `chunk` repeated to `total` bytes into the tool, its output dropped: its peak memory
    (read while it still reads), exit status and standard error."""
    # (Under AddressSanitizer, with no quarantine: what the tool frees is not counted as held.)
    env = dict(os.environ, ASAN_OPTIONS=os.environ.get("ASAN_OPTIONS", "") + ":quarantine_size_mb=0")
    p = subprocess.Popen([BINARY, *args], stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                         env=env)
    for _ in range(total // len(chunk)):
        p.stdin.write(chunk)
    with open("/proc/%d/status" % p.pid) as status:
        peak_kb = int(re.search(r"VmHWM:\s+(\d+) kB", status.read()).group(1))
    _, err = p.communicate(timeout=60)  # (closes its standard input)
    return peak_kb, p.returncode, err


def pipe_without_end(args, head, fill):
    """Pipes `head`, then `fill` bytes until the tool stops reading (or 256 MB): its exit status,
    output, standard error and the fill bytes sent."""
    p = subprocess.Popen([BINARY, *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    sent = 0
    try:
        p.stdin.write(head)
        while sent < 256 << 20:
            p.stdin.write(fill * (1 << 16))
            sent += 1 << 16
    except BrokenPipeError:
        p.stdin = None  # (communicate would flush it)
    out, err = p.communicate(timeout=60)
    return p.returncode, out, err.decode(), sent


class Checksum(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()

    def tearDown(self):
        self.dir.cleanup()

    def write(self, name, data):
        path = os.path.join(self.dir.name, name)
        with open(path, "wb") as f:
            f.write(data if isinstance(data, bytes) else data.encode())
        return path

    def test_spec_vectors_one_line_per_file_like_sha256sum(self):
        paths = {self.write("v%d.json" % i, text): expected
                 for i, (text, expected) in enumerate(SPEC_VECTORS)}
        r = run("checksum", *paths)
        self.assertEqual(r.returncode, 0, r.stderr)
        lines = r.stdout.decode().splitlines()
        self.assertEqual(lines, ["%s  %s" % (expected, p) for p, expected in paths.items()])

    def test_standard_input_and_the_stream_vector(self):
        r = run("checksum", "--ndjson", "-", stdin=SPEC_STREAM[0].encode())
        self.assertEqual(r.stdout.decode(), "%s  -\n" % SPEC_STREAM[1])
        r = run("checksum", "-", stdin=b'{"a":1}')
        self.assertEqual(r.stdout.decode(), "bec57e3c220bbec4  -\n")

    def test_every_corpus_file_matches_the_reference(self):
        with open(REFERENCE) as f:
            expected = [line.split("  ", 1) for line in f.read().splitlines()]
        documents = [(h, os.path.join(DATA, p)) for h, p in expected if not p.endswith(".ndjson")]
        streams = [(h, os.path.join(DATA, p)) for h, p in expected if p.endswith(".ndjson")]
        for group, options in ((documents, []), (streams, ["--ndjson"])):
            r = run("checksum", *options, *[p for _, p in group])
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertEqual(r.stdout.decode().splitlines(), ["%s  %s" % (h, p) for h, p in group])

    def test_streams_are_read_a_block_at_a_time(self):
        # checksum and validate --ndjson read the whole input into memory first: a file took its
        # size in memory, and a pipe of zeros (or anything with no line end) was read without end.
        line = b'{"id": 12345, "tags": ["a", "b"], "text": "' + b"x" * 64 + b'"}\n'
        for command in ("validate", "checksum"):
            peak_kb, status, err = peak_kb_piping([command, "--ndjson", "-"], line * 4096, 96 << 20)
            self.assertEqual(status, 0, err)
            self.assertLess(peak_kb, 32 << 10, command)  # of 96 MB sent
        # With no line end: white space alone, and documents sharing one line. Blocks read as
        # they are doubled each time, so that 256 MB took 133 MB.
        for unit in (b" ", b'{"a":1} '):
            chunk = unit * ((1 << 20) // len(unit))
            peak_kb, status, err = peak_kb_piping(["validate", "--ndjson", "-"], chunk, 96 << 20)
            self.assertEqual(status, 0, err)
            self.assertLess(peak_kb, 32 << 10, unit)
        # With threads, blocks of 2 MB (two steps) and their tapes, whatever the line's length
        # (about 128 MB for tiny documents; it was 1.2 GB for 256 MB).
        peak_kb, status, err = peak_kb_piping(["validate", "--ndjson", "--threads", "2", "-"], chunk, 96 << 20)
        self.assertEqual(status, 0, err)
        self.assertLess(peak_kb, 192 << 10)
        whole = self.write("s.ndjson", line * 20000 + b"[1]\n" + b"7 " * 5000)
        expected = run("checksum", "--ndjson", whole).stdout
        self.assertEqual(run("checksum", "--ndjson", "--threads", "2", whole).stdout, expected)
        self.assertEqual(run("checksum", "--ndjson", "-", stdin=open(whole, "rb").read()).stdout,
                         expected.replace(whole.encode(), b"-"))
        status, _, err, sent = pipe_without_end(["validate", "--ndjson", "-"], b"[1]\n[2] ", b"\0")
        self.assertEqual((status, err), (1, "-: error: expected a value at byte 8\n"))
        self.assertLess(sent, 64 << 20)

    def test_an_invalid_file_is_reported_and_the_next_one_still_read(self):
        bad = self.write("bad.json", '{"a":1 "b":2}')
        good = self.write("good.json", "[]")
        missing = os.path.join(self.dir.name, "missing.json")
        r = run("checksum", bad, missing, good)
        self.assertEqual(r.returncode, 1)
        self.assertEqual(r.stdout.decode(), "ed128a87f3f843e2  %s\n" % good)
        errors = r.stderr.decode().splitlines()
        self.assertEqual(errors[0], "%s: error: expected ',' or '}' after an object member at byte 7" % bad)
        self.assertTrue(errors[1].startswith("%s: error: " % missing), errors[1])

    def test_validate(self):
        good = self.write("good.json", "[1,2]")
        bad = self.write("bad.json", "[1,2,]")
        r = run("validate", good, bad)
        self.assertEqual(r.returncode, 1)
        self.assertEqual(r.stdout.decode(), "%s: OK\n" % good)
        self.assertEqual(r.stderr.decode(), "%s: error: expected a value at byte 5\n" % bad)
        r = run("validate", "--ndjson", "-", stdin=b"{}\n{\n")
        self.assertEqual(r.stderr.decode(), "-: error: unexpected end of input: the JSON text is truncated at byte 5\n")

    def test_max_depth(self):
        deep = self.write("deep.json", "[[[1]]]")
        self.assertEqual(run("checksum", "--max-depth", "3", deep).returncode, 0)
        r = run("checksum", "--max-depth", "2", deep)
        self.assertEqual(r.returncode, 1)
        self.assertIn("at byte 2", r.stderr.decode())

    def test_limits_each_by_its_name_in_either_form(self):
        deep = self.write("deep.json", "[[[1]]]")
        self.assertEqual(run("checksum", "--max-depth=3", deep).returncode, 0)
        r = run("validate", "--max-depth=2", deep)
        self.assertEqual((r.returncode, r.stderr.decode()),
                         (1, "%s: error: arrays and objects nest deeper than the depth limit at byte 2\n" % deep))
        big = self.write("big.json", "[" + "9" * 1001 + "]")
        r = run("validate", big)
        self.assertEqual(r.stderr.decode(), "%s: error: a number past 64 bits or the double range is longer "
                         "than the limit (max_number_length) at byte 1\n" % big)
        self.assertEqual(run("validate", "--max-number-length", "0", big).returncode, 0)
        self.assertEqual(run("validate", "--max-number-length=1001", big).returncode, 0)
        stream = self.write("s.ndjson", "[1]\n[1,2,3]\n")
        r = run("checksum", "--ndjson", "--max-document-length", "5", stream)
        self.assertEqual(r.stderr.decode(), "%s: error: the input is longer than the limit "
                         "(max_document_length) at byte 9\n" % stream)
        self.assertEqual(run("checksum", "--ndjson", "--max-document-length=7", stream).returncode, 0)
        words = self.write("w.json", '["abc", "abcd"]')
        r = run("validate", "--max-string-length", "3", words)
        self.assertEqual(r.stderr.decode(), "%s: error: a string is longer than the limit "
                         "(max_string_length) at byte 8\n" % words)
        self.assertEqual(run("validate", "--max-string-length=4", words).returncode, 0)
        for bad in (["--max-depth=x"], ["--max-depth", "-1"], ["--max-number-length=1e3"], ["--max-document-length"]):
            r = run("validate", *bad, deep)
            self.assertEqual(r.returncode, 2, bad)
            self.assertIn("takes a number", r.stderr.decode())

    def test_a_document_limit_stops_reading_at_the_limit(self):
        # A pipe that never ended was read whole into memory before the limit was looked at.
        p = subprocess.Popen([BINARY, "validate", "--max-document-length", "20", "-"], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        sent = 0
        try:
            while sent < 64 << 20:
                p.stdin.write(b"[" + b"1," * 32767 + b"1" if sent == 0 else b"1," * 32768)
                sent += 1 << 16
            p.stdin.close()
        except BrokenPipeError:
            pass
        out, err = p.communicate(timeout=60)
        self.assertEqual((p.returncode, err.decode()),
                         (1, "-: error: the input is longer than the limit (max_document_length) at byte 20\n"))
        self.assertLess(sent, 64 << 20)
        # From a file, for every command that reads one document a file; a document of the limit's length reads.
        longer = self.write("l.json", "[" + "1," * 12 + "1]")
        for command in ("checksum", "validate", "to-msgpack"):
            r = run(command, "--max-document-length=20", longer)
            self.assertEqual((r.returncode, r.stdout, r.stderr.decode()),
                             (1, b"", "%s: error: the input is longer than the limit (max_document_length) at byte 20\n"
                              % longer), command)
        exact = self.write("e.json", "[" + "1," * 8 + "11]")
        self.assertEqual(run("validate", "--max-document-length=20", exact).stdout.decode(), "%s: OK\n" % exact)
        self.assertEqual(run("checksum", "--max-document-length=20", exact).stdout, run("checksum", exact).stdout)

    def test_a_write_error_on_standard_output_is_an_error(self):
        # `checksum f.json > /dev/full` exited 0: its output was lost without a word.
        if not os.path.exists("/dev/full"):
            self.skipTest("no /dev/full")
        ok = self.write("ok.json", "[1]")
        lines = self.write("lines.ndjson", "[1]\n" * 100000)  # (more than a buffer of output)
        packed = self.write("packed.msgpack", "\x01" * 100000)
        for args in (["checksum", ok], ["validate", ok], ["version"], ["help"], ["to-msgpack", "--ndjson", ok],
                     ["to-msgpack", "--ndjson", lines], ["from-msgpack", "--stream", packed]):
            with open("/dev/full", "wb") as full:
                r = subprocess.run([BINARY, *args], stdout=full, stderr=subprocess.PIPE, timeout=60)
            self.assertEqual(r.returncode, 1, args)
            self.assertEqual(r.stderr.decode().count("error writing standard output"), 1, r.stderr)

    def test_arrow_schema(self):
        path = self.write("e.ndjson", '{"a": 1, "b": [1.5], "c": {"d": "x"}, "n": null}\n{"a": 2.5, "e": true}\n')
        r = run("arrow-schema", path)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(r.stdout.decode(), "a: double\nb: list<double>\nc: struct<d: string>\nn: null\ne: bool\n")
        bad = self.write("bad.ndjson", '{"a": 1}\n{"a": "x"}\n')
        r = run("arrow-schema", bad)
        self.assertEqual(r.returncode, 1)
        self.assertEqual(r.stderr.decode(), "%s: error: record 2, field /a: a value of type string where earlier "
                         "records had int64 at byte 15\n" % bad)
        gh = os.path.join(DATA, "ndjson", "gharchive-2015-01-01-0.ndjson")
        r = run("arrow-schema", gh)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("actor: struct<", r.stdout.decode())
        # Each file or pipe was read whole first; it is read a block at a time: the same schema
        # from a pipe, in bounded memory, and a pipe of bytes with no line end refused.
        with open(gh, "rb") as f:
            data = f.read()
        self.assertEqual(run("arrow-schema", "-", stdin=data).stdout, r.stdout)
        chunk = b"".join(data.splitlines(keepends=True)[:200])
        peak_kb, status, err = peak_kb_piping(["arrow-schema", "-"], chunk, 96 << 20)
        self.assertEqual(status, 0, err)
        self.assertLess(peak_kb, 48 << 10)  # of 96 MB sent
        status, _, err, sent = pipe_without_end(["arrow-schema", "-"], b'{"a": 1}\n{"a"', b"x")
        self.assertEqual((status, err), (1, "-: error: record 2: expected ':' after an object key at byte 13\n"))
        self.assertLess(sent, 64 << 20)

    def test_msgpack_both_ways(self):
        path = self.write("a.json", '{"a": [1, 2.5, "x", true, null], "b": {"c": -1}}')
        r = run("to-msgpack", path)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(r.stdout.hex(), "82a16195" "01" "cb4004000000000000" "a178c3c0" "a16281a163ff")
        back = run("from-msgpack", "-", stdin=r.stdout)
        self.assertEqual(back.stdout, b'{"a":[1,2.5,"x",true,null],"b":{"c":-1}}\n')
        gh = os.path.join(DATA, "ndjson", "gharchive-2015-01-01-0.ndjson")
        one = run("to-msgpack", "--ndjson", gh)
        two = run("to-msgpack", "--ndjson", "--threads", "2", gh)
        self.assertEqual(one.returncode, 0, one.stderr)
        self.assertEqual(one.stdout, two.stdout)
        lines = run("from-msgpack", "--stream", "--threads=2", "-", stdin=one.stdout)
        self.assertEqual(lines.returncode, 0, lines.stderr)
        with open(gh, "rb") as f:
            self.assertEqual(lines.stdout.count(b"\n"), sum(1 for line in f if line.strip()))
        bad = run("from-msgpack", "-", stdin=b"\x92\x01")
        self.assertEqual(bad.returncode, 1)
        self.assertEqual(bad.stdout, b"")
        self.assertEqual(bad.stderr.decode(), "-: error: the MessagePack ends inside a value at byte 0\n")
        bad = run("to-msgpack", "--ndjson", "-", stdin=b'{"a":1}\n{"a":}\n')
        self.assertEqual(bad.stderr.decode(), "-: error: document 2: expected a value at byte 13\n")
        self.assertEqual(bad.stdout.hex(), "81a16101")  # the documents before the error
        self.assertEqual(run("to-msgpack", "--threads", "0", path).returncode, 2)

    def test_to_msgpack_reads_a_stream_a_step_at_a_time(self):
        # to-msgpack --ndjson read the whole input first: a pipe took its size in memory, and one
        # of zeros (no line end) was read until memory ran out.
        line = b'{"id": 12345, "tags": ["a", "b"], "text": "' + b"x" * 64 + b'"}\n'
        peak_kb, status, err = peak_kb_piping(["to-msgpack", "--ndjson", "-"], line * 4096, 96 << 20)
        self.assertEqual(status, 0, err)
        self.assertLess(peak_kb, 32 << 10)  # of 96 MB sent
        for head, fill, message in ((b'[1]\n[2]\n', b"\0", "document 3: the input looks like UTF-16 or UTF-32,"
                                     " not UTF-8 at byte 8"),
                                    (b"[1]\n[2, ", b"x", "document 2: expected a value at byte 8")):
            status, out, err, sent = pipe_without_end(["to-msgpack", "--ndjson", "-"], head, fill)
            self.assertEqual((status, err), (1, "-: error: %s\n" % message))
            self.assertEqual(out.hex(), "9101" + ("9102" if head.endswith(b"]\n") else ""))
            self.assertLess(sent, 64 << 20)

    def test_from_msgpack_reads_a_stream_a_step_at_a_time(self):
        # from-msgpack --stream read the whole input first: a pipe of zeros (a zero is a whole
        # MessagePack value) was read until memory ran out, and nothing was written.
        peak_kb, status, err = peak_kb_piping(["from-msgpack", "--stream", "-"], bytes(1 << 20), 96 << 20)
        self.assertEqual(status, 0, err)
        self.assertLess(peak_kb, 32 << 10)  # of 96 MB sent
        bad = run("from-msgpack", "--stream", "-", stdin=b"\x01\x92\x02\xa1x\xc1")
        self.assertEqual((bad.returncode, bad.stdout), (1, b'1\n[2,"x"]\n'))  # the values before the error
        self.assertEqual(bad.stderr.decode(), "-: error: document 3: %s at byte 5\n"
                         % "a byte that starts no MessagePack value")
        # A value whose array claims more items than ever come was read on without end; under
        # --max-document-length no more of it is held than the limit.
        status, out, err, sent = pipe_without_end(["from-msgpack", "--stream", "--max-document-length", "1000", "-"],
                                                  b"\x01\xdd\xff\xff\xff\xff", b"\0")
        self.assertEqual((status, out), (1, b"1\n"))
        self.assertEqual(err, "-: error: document 2: the input is longer than the limit (max_document_length)"
                         " at byte 1001\n")
        self.assertLess(sent, 64 << 20)
        whole = run("from-msgpack", "--max-document-length", "3", "-", stdin=b"\x93\x01\x02\x03")
        self.assertEqual(whole.stderr.decode(), "-: error: the input is longer than the limit (max_document_length)"
                         " at byte 3\n")

    def test_usage_errors_exit_2(self):
        self.assertEqual(run().returncode, 2)
        self.assertEqual(run("checksum").returncode, 2)
        self.assertEqual(run("checksum", "--bogus", "x").returncode, 2)
        self.assertEqual(run("frobnicate").returncode, 2)
        self.assertEqual(run("checksum", "--max-depth", "0", "x").returncode, 2)
        self.assertEqual(run("version").returncode, 0)

    def test_every_jsontestsuite_file_without_a_crash(self):
        directory = os.path.join(DATA, "jsonchecker", "minefield")
        paths = sorted(os.path.join(directory, n) for n in os.listdir(directory) if n.endswith(".json"))
        for options in ([], ["--ndjson"]):
            r = run("checksum", *options, *paths)
            self.assertIn(r.returncode, (0, 1))  # never a signal
            out = r.stdout.decode("utf-8", "replace").splitlines()
            err = r.stderr.decode("utf-8", "replace").splitlines()
            self.assertEqual(len(out) + len(err), len(paths))
            for line in err:
                self.assertRegex(line, r"^.*: error: .* at byte \d+$")
            if not options:
                rejected = {line.split(": error: ")[0] for line in err}
                for p in paths:
                    name = os.path.basename(p)
                    if name.startswith("y_"):
                        self.assertNotIn(p, rejected)
                    if name.startswith("n_"):
                        self.assertIn(p, rejected)


if __name__ == "__main__":
    unittest.main(argv=[sys.argv[0]], verbosity=1)
