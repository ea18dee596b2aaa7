# SPDX-License-Identifier: Apache-2.0
"""The MessagePack suite (issue: JSON to MessagePack and back): simdbridge's direct conversions
against the object routes Python users take, side by side in one process.

- to_msgpack: the 22 files of jsonexamples, JSON to MessagePack: simdbridge.json_to_msgpack
  against ormsgpack.packb(orjson.loads(s)), msgpack.packb(orjson.loads(s)) and
  msgspec.msgpack.encode(msgspec.json.decode(s));
- from_msgpack: the same files' MessagePack back to JSON: simdbridge.msgpack_to_json against
  orjson.dumps(ormsgpack.unpackb(m)), orjson.dumps(msgpack.unpackb(m)) and
  msgspec.json.encode(msgspec.msgpack.decode(m));
- ndjson: the GH Archive file, a MessagePack value per line (peers: line by line), and the
  sequence of values back to NDJSON (peers: msgpack's Unpacker, orjson.dumps per value); and
  simdbridge on 2 threads against itself on 1;
- dumpb_many: the GH Archive file's objects written as NDJSON, against orjson.dumps per object
  joined (the same bytes, checked);
- loads_many: the GH Archive file's documents as Python objects, simdbridge on 1 and 2 threads
  and from the file's path, against orjson.loads per line and msgspec's decode_lines;
- map_many: a function (each event's type) over the same documents, against map() over
  loads_many and over orjson.loads per line.

Throughput is GB/s of JSON (the file's bytes) for every case. The gate comes first: every
engine's MessagePack must unpack to json.loads's values and every engine's JSON must carry the
same values (the checksum of docs/checksum.md), or nothing is timed. Timing and
intervals as the Python suite's (python_suite.measure and summarize).

Writes results/msgpack.json, results/msgpack.md and results/msgpack.png.
"""
import gc
import json
import os
import pathlib

import python_suite
import report

TARGETS = [  # (case, what, target ratio of simdbridge to the fastest peer of the case)
    ("to_msgpack", "JSON to MessagePack / the fastest object route (geometric mean, 22 files)", 4.0),
    ("from_msgpack", "MessagePack to JSON / the fastest object route (geometric mean, 22 files)", 3.0),
    ("ndjson_to_msgpack", "GH Archive NDJSON to MessagePack / the fastest object route", 4.0),
    ("msgpack_to_ndjson", "GH Archive MessagePack stream to NDJSON / the fastest object route", 3.0),
    ("dumpb_many", "dumpb_many (GH Archive's objects as NDJSON) / joined orjson.dumps", 1.3),
]
THREAD_TARGETS = [("ndjson_to_msgpack", "GH Archive NDJSON to MessagePack, 2 threads / 1 thread", 1.8),
                  ("msgpack_to_ndjson", "GH Archive MessagePack stream to NDJSON, 2 threads / 1 thread", 1.8),
                  ("loads_many", "GH Archive loads_many, 2 threads / 1 thread (faster: above 1)", 1.0)]


def modules():
    import msgpack
    import msgspec
    import orjson
    import ormsgpack

    import simdbridge
    return simdbridge, orjson, ormsgpack, msgpack, msgspec


def run(root, data, results, full):
    settings = python_suite.FULL if full else python_suite.QUICK
    simdbridge, orjson, ormsgpack, msgpack, msgspec = modules()
    examples = sorted(f for f in os.listdir(os.path.join(data, "jsonexamples")) if f.endswith(".json"))
    raw = {f: open(os.path.join(data, "jsonexamples", f), "rb").read() for f in examples}
    packed = {f: msgpack.packb(json.loads(raw[f])) for f in examples}
    gh_path = os.path.join(data, "ndjson", "gharchive-2015-01-01-0.ndjson")
    gh = open(gh_path, "rb").read()
    gh_packed = simdbridge.json_to_msgpack(gh, ndjson=True, threads=1)
    gh_objects = [json.loads(line) for line in gh.splitlines() if line.strip()]
    json_decoder, mp_encoder = msgspec.json.Decoder(), msgspec.msgpack.Encoder()
    mp_decoder, json_encoder = msgspec.msgpack.Decoder(), msgspec.json.Encoder()

    to_msgpack = {
        "simdbridge": simdbridge.json_to_msgpack,
        "ormsgpack+orjson": lambda s: ormsgpack.packb(orjson.loads(s)),
        "msgpack+orjson": lambda s: msgpack.packb(orjson.loads(s)),
        "msgspec": lambda s: mp_encoder.encode(json_decoder.decode(s)),
    }
    from_msgpack = {
        "simdbridge": simdbridge.msgpack_to_json,
        "orjson+ormsgpack": lambda m: orjson.dumps(ormsgpack.unpackb(m)),
        "orjson+msgpack": lambda m: orjson.dumps(msgpack.unpackb(m)),
        "msgspec": lambda m: json_encoder.encode(mp_decoder.decode(m)),
    }

    gh_file = pathlib.Path(gh_path)

    def event_type(event):
        return event["type"]

    def stream_lines(m):
        u = msgpack.Unpacker()
        u.feed(m)
        return b"".join(orjson.dumps(v, option=orjson.OPT_APPEND_NEWLINE) for v in u)

    cases = {
        "to_msgpack": [dict(name=f, input=raw[f], bytes=len(raw[f]), engines=to_msgpack) for f in examples],
        "from_msgpack": [dict(name=f, input=packed[f], bytes=len(raw[f]), engines=from_msgpack) for f in examples],
        "ndjson_to_msgpack": [dict(name="gharchive-2015-01-01-0.ndjson", input=gh, bytes=len(gh), engines={
            "simdbridge": lambda s: simdbridge.json_to_msgpack(s, ndjson=True, threads=1),
            "simdbridge-2-threads": lambda s: simdbridge.json_to_msgpack(s, ndjson=True, threads=2),
            "ormsgpack+orjson": lambda s: b"".join(ormsgpack.packb(orjson.loads(line)) for line in s.splitlines()
                                                   if line.strip()),
            "msgspec": lambda s: b"".join(mp_encoder.encode(v) for v in json_decoder.decode_lines(s)),
        })],
        "dumpb_many": [dict(name="gharchive-2015-01-01-0.ndjson", input=gh_objects, bytes=len(gh), engines={
            "simdbridge": simdbridge.dumpb_many,
            "orjson joined": lambda objects: b"".join([orjson.dumps(o, option=orjson.OPT_APPEND_NEWLINE)
                                                        for o in objects]),
        })],
        "loads_many": [dict(name="gharchive-2015-01-01-0.ndjson", input=gh, bytes=len(gh), engines={
            "simdbridge": lambda s: list(simdbridge.loads_many(s)),
            "simdbridge-2-threads": lambda s: list(simdbridge.loads_many(s, threads=2)),
            "simdbridge-from-path": lambda s: list(simdbridge.loads_many(gh_file)),
            "orjson per line": lambda s: [orjson.loads(line) for line in s.splitlines() if line.strip()],
            "msgspec": json_decoder.decode_lines,
        })],
        "map_many": [dict(name="gharchive-2015-01-01-0.ndjson", input=gh, bytes=len(gh), engines={
            "simdbridge": lambda s: list(simdbridge.map_many(event_type, s)),
            "map over loads_many": lambda s: list(map(event_type, simdbridge.loads_many(s))),
            "orjson per line": lambda s: [event_type(orjson.loads(line)) for line in s.splitlines() if line.strip()],
        })],
        "msgpack_to_ndjson": [dict(name="gharchive-2015-01-01-0.ndjson", input=gh_packed, bytes=len(gh), engines={
            "simdbridge": lambda m: simdbridge.msgpack_to_json(m, stream=True, threads=1),
            "simdbridge-2-threads": lambda m: simdbridge.msgpack_to_json(m, stream=True, threads=2),
            "orjson+msgpack": stream_lines,
        })],
    }

    report.progress("msgpack: the gate (every engine's MessagePack and JSON carry json.loads's values)")
    problems = gate(simdbridge, msgpack, cases, raw, gh)
    report.write_json(os.path.join(results, "msgpack_equivalence.json"), {"problems": problems})
    if problems:
        for p in problems:
            report.progress("msgpack: gate: " + p)
        return 1

    gc.collect()
    gc.freeze()
    out = {"settings": settings, "versions": versions(), "method": __doc__.split("Throughput is ", 1)[1]
           .split("\n\nWrites", 1)[0].replace("\n", " ")}
    for name, group in cases.items():
        for i, case in enumerate(group):
            report.progress("msgpack: %s %d/%d %s" % (name, i + 1, len(group), case["name"]))
            case["times"] = python_suite.measure(case, settings)
        out[name] = python_suite.summarize(group, "simdbridge")
    gc.unfreeze()
    out["targets"] = targets(out, cases)
    report.write_json(os.path.join(results, "msgpack.json"), out)
    write_markdown(os.path.join(results, "msgpack.md"), out)
    write_chart(os.path.join(results, "msgpack.png"), out)
    for t in out["targets"]:
        report.progress("msgpack: %s: %.2fx ± %.2f (target %.1fx) %s" % (t["what"], t["ratio"], t["ci95"], t["target"],
                                                                        t["verdict"]))
    return 0


def gate(simdbridge, msgpack, cases, raw, gh):
    """Every engine's output against json.loads's values, by the checksum; the disagreements."""
    problems = []

    def checksum_of_value(value):
        return simdbridge.checksum(json.dumps(value))

    want = {f: simdbridge.checksum(raw[f]) for f in raw}
    for case in cases["to_msgpack"]:
        for name, fn in case["engines"].items():
            got = checksum_of_value(msgpack.unpackb(fn(case["input"])))
            if got != want[case["name"]]:
                problems.append("to_msgpack %s / %s: its MessagePack holds other values" % (case["name"], name))
    for case in cases["from_msgpack"]:
        for name, fn in case["engines"].items():
            if simdbridge.checksum(fn(case["input"])) != want[case["name"]]:
                problems.append("from_msgpack %s / %s: its JSON holds other values" % (case["name"], name))
    stream_want = simdbridge.checksum(gh, stream=True)
    for case in cases["ndjson_to_msgpack"]:
        for name, fn in case["engines"].items():
            u = msgpack.Unpacker()
            u.feed(fn(case["input"]))
            text = b"\n".join(json.dumps(v).encode() for v in u)
            if simdbridge.checksum(text, stream=True) != stream_want:
                problems.append("ndjson_to_msgpack / %s: its MessagePack holds other values" % name)
    for case in cases["dumpb_many"]:
        outputs = {name: fn(case["input"]) for name, fn in case["engines"].items()}
        if len(set(outputs.values())) != 1:
            problems.append("dumpb_many: the engines wrote different bytes")
    for case in cases["msgpack_to_ndjson"]:
        for name, fn in case["engines"].items():
            if simdbridge.checksum(fn(case["input"]), stream=True) != stream_want:
                problems.append("msgpack_to_ndjson / %s: its NDJSON holds other values" % name)
    objects = [json.loads(line) for line in gh.splitlines() if line.strip()]
    for group in ("loads_many", "map_many"):
        want_objects = objects if group == "loads_many" else [o["type"] for o in objects]
        for case in cases[group]:
            for name, fn in case["engines"].items():
                if fn(case["input"]) != want_objects:
                    problems.append("%s / %s: other objects than json.loads per line" % (group, name))
    return problems


def versions():
    from importlib.metadata import version
    return {d: version(d) for d in ("simdbridge", "orjson", "ormsgpack", "msgpack", "msgspec")}


def fastest_peer(summary):
    peers = [n for n in summary["engines"] if not n.startswith("simdbridge")]
    return max(peers, key=lambda n: summary["geomean"][n]["mean"])


def targets(out, cases):
    rows = []
    for case, what, target in TARGETS:
        peer = fastest_peer(out[case])
        r = out[case]["ratio_of_simdbridge_to"][peer]
        rows.append(dict(what="%s (%s)" % (what, peer), ratio=r["mean"], ci95=r["ci95"], target=target,
                         **report.judge(r["mean"], r["ci95"], target)))
    for case, what, target in THREAD_TARGETS:
        times = cases[case][0]["times"]  # per round: one thread's time over two threads'
        mean, ci = report.mean_ci([one / two for one, two in zip(times["simdbridge"], times["simdbridge-2-threads"])])
        rows.append(dict(what=what, ratio=mean, ci95=ci, target=target, **report.judge(mean, ci, target)))
    return rows


def write_markdown(path, out):
    text = ["# MessagePack: simdbridge's direct conversions against the object routes\n",
            "One process; %d rounds of ~%.0f ms samples per engine; 95%% intervals. GB/s of JSON.\n"
            % (out["settings"]["rounds"], out["settings"]["sample"] * 1000),
            "Versions: " + ", ".join("%s %s" % kv for kv in out["versions"].items()) + ".\n",
            "## Targets\n",
            report.markdown_table(["what", "ratio", "target", ""],
                                  [[t["what"], "%.2fx ± %.2f" % (t["ratio"], t["ci95"]), "%.1fx" % t["target"],
                                    report.emphasized(t["verdict"])] for t in out["targets"]])]
    for case in ("to_msgpack", "from_msgpack", "ndjson_to_msgpack", "msgpack_to_ndjson", "dumpb_many", "loads_many",
                 "map_many"):
        s = out[case]
        rows = [[c["name"]] + ["%.3f ± %.3f" % (c["rate"][n]["mean"], c["rate"][n]["ci95"]) for n in s["engines"]]
                for c in s["cases"]]
        if len(s["cases"]) > 1:
            rows.append(["geometric mean"] + ["%.3f ± %.3f" % (s["geomean"][n]["mean"], s["geomean"][n]["ci95"])
                                              for n in s["engines"]])
        text += ["\n## %s (GB/s)\n" % case, report.markdown_table(["file"] + s["engines"], rows)]
    text.append("\nMethod: throughput is %s\n" % out["method"])
    with open(path, "w") as f:
        f.write("\n".join(text))


def write_chart(path, out):
    cats = ["to_msgpack", "from_msgpack", "ndjson_to_msgpack", "msgpack_to_ndjson"]
    names = ["simdbridge", "msgspec", "ormsgpack+orjson", "msgpack+orjson", "orjson+ormsgpack", "orjson+msgpack"]
    series = {n: [out[c]["geomean"].get(n, {"mean": 0})["mean"] for c in cats] for n in names
              if any(n in out[c]["geomean"] for c in cats)}
    report.bar_chart(path, "JSON <-> MessagePack, 1 thread: GB/s of JSON (higher is better)", cats, series, "GB/s")
