# SPDX-License-Identifier: Apache-2.0
"""The data-binding suite (issue: Java data binding): simdbridge's Json against Jackson (plain
and Blackbird), fastjson2 (default, java-json-benchmark's configuration "fastjson2-features", and
FieldBased), dsl-json (compiled and reflection), avaje-jsonb and genson on the Users model as
beans (private fields, accessors), simdjson-java beside them on public fields; against Jackson
on the six scenarios; and the smallest heap each library needs for the 1000 KB payload.

Two payloads: this project's Users (three users a KB, long paragraphs) and the same JSON keys
shaped as java-json-benchmark generates its data ("jjb": short random strings, up to 49 small
Friend objects per user, full-precision coordinates), where the peers' own harness is measured.

First the gate (DatabindGate): every library must read equal objects from every payload in both
models and write what reads back equal, or nothing is measured. Then JMH (one library per fork):
reads (with -prof gc) and writes to a stream at 1 and 100 KB on 1 thread (FULL=1: every size,
writes to a byte array, 2 threads, the public-field model's reads, the six scenarios, Users read
1 KB with a virtual thread per read). Then the targets side by side (PairedRatio, JVMs of their
own per comparison: simdbridge and its peers taking turns in short slices, the median of the
per-round ratios pooled over the JVMs with a 95% interval), on 1 and 2 threads, with the native
parse timed alone beside each 1-thread read for the time per stage; writes to a stream (FULL=1:
to a byte array as well).
Then the heap probes, two at a time (they measure no time): simdbridge and fastjson2 (FULL=1:
every library).

Writes results/databind.json, databind.md, databind.png, databind_equivalence.json and the raw
JMH JSON in results/jmh/databind-*.json.
"""
import concurrent.futures
import json
import os
import subprocess

import jvm_suite
import report

# The bean model's libraries (simdjson-java reads records only: it is in the public-field run).
READERS = ["simdbridge", "jackson", "jackson-blackbird", "fastjson2", "fastjson2-features", "fastjson2-fieldbased",
           "dsl-json", "dsl-json-reflection", "avaje-jsonb", "genson"]
WRITERS = READERS
FIELD_READERS = ["simdbridge", "fastjson2", "fastjson2-features", "simdjson-java"]
# The quick run's JMH tables: simdbridge and the fastest peers of each kind (the full run, all).
QUICK_READERS = ["simdbridge", "jackson", "fastjson2", "fastjson2-features", "dsl-json", "avaje-jsonb"]
SIZES = [1, 10, 100, 1000]
QUICK_SIZES = [1, 100]
PAYLOADS = ["users", "jjb"]
# Quick: about as long per benchmark as 2 x 500 ms warmup and 3 x 500 ms measured, which gave 99.9%
# intervals wider than the scores (Student's t for 2 degrees of freedom is 31.6; 8.6 for 4), so five
# shorter measured iterations, and a third warmup iteration. The targets are judged side by side
# (below), which a drifting machine moves less than it moves a fork.
QUICK = ["-f", "1", "-wi", "3", "-w", "300ms", "-i", "5", "-r", "250ms"]
FULL = ["-f", "3", "-wi", "5", "-w", "1s", "-i", "10", "-r", "1s"]
# Side by side (PairedRatio): slice in ms, warmup rounds (n+m: at least n, then until the JIT is
# quiet and the rates steady, at most m more: in the quick run 20, which keeps a noisy machine's
# run within its time; a comparison records whether it got steady), measured rounds per JVM,
# JVMs; Users, then the scenarios. Each
# library warms up for 600 to 800 ms at least in the quick run (JMH's quick forks: 900 ms): with
# 200 ms, Jackson's dates read was still being compiled for half the rounds (21.8x, 95%: 7.7 to
# 31.7). The quick run's Users slices are 80 ms (eight rounds at least, 640 ms), which keeps the
# suite within its share of the 25 minutes; a 1 KB slice still holds tens of thousands of reads.
# Users run in two JVMs (three in the full run), their rounds pooled: one JVM can run a library
# at 0.7x of its speed in the others for its whole life (on two threads, fastjson2's reader in
# some JVMs, simdbridge's in others), which one JVM's interval cannot show.
PAIRED_QUICK = {"users": ("80", "8+20", "8", 2), "scenario": ("50", "12+20", "16", 1)}
PAIRED_FULL = {"users": ("200", "10+40", "20", 3), "scenario": ("100", "10+40", "40", 1)}
SCENARIOS = ["simple", "nested", "dates", "list-of-100", "map-of-mixed", "escaped-string"]
HEAPS_MB = [8, 12, 16, 24, 32, 48, 64, 96, 128, 192, 256, 384, 512, 768, 1024, 2048]
PEERS = ["fastjson2", "fastjson2-features"]
# The payloads of the targets, as PairedRatio names them: this project's Users at 1 and 100 KB, and
# the same sizes shaped as java-json-benchmark generates them (short random strings, up to 49
# small Friend objects per user, full-precision coordinates).
TARGET_PAYLOADS = ["1", "100", "jjb1", "jjb100"]
# (operation, threads): reads on 1 and 2 threads, writes to a byte array on 1, writes to an
# OutputStream (java-json-benchmark's way) on 1 and 2. The quick run judges the writes to a stream
# only: the byte-array writes' eight JVMs took 90 s of its budget, and both writes share the
# binding and the writer, which a stream's write measures with the harness's copy out.
TARGET_OPS = [("read", 1), ("read", 2), ("write", 1), ("write-stream", 1), ("write-stream", 2)]
QUICK_TARGET_OPS = [op for op in TARGET_OPS if op != ("write", 1)]
# The first stage of a read alone (PairedRatio's simdbridge-tape): each read comparison on one
# thread times it beside the whole read, for the time per stage.
TAPE = "simdbridge-tape"
# The same comparisons time the document's string values made into Strings alone (PairedRatio's
# jdk-strings): the part of a read every binder on the JDK's public API pays.
STRINGS = "jdk-strings"
# simdbridge on the same JSON through the public-field model: the bean path is judged against it.
FIELDS = "simdbridge-fields"


def target_ratio(op, payload):
    """The issue's targets on the bean model: reads 1.2x fastjson2 at 1 KB and 1.5x at 100 KB,
    writes 1.2x at both."""
    return 1.5 if op == "read" and payload.endswith("100") else 1.2


def describe(payload):
    return ("java-json-benchmark-shaped %s KB" % payload[3:]) if payload.startswith("jjb") else "Users %s KB" % payload


def run(root, data, results, full):
    jar = os.path.join(root, "jvm", "jmh", "target", "benchmarks.jar")
    jmh_dir = os.path.join(results, "jmh")
    os.makedirs(jmh_dir, exist_ok=True)
    java = jvm_suite.java()
    options = jvm_suite.JVM_OPTIONS

    report.progress("databind: the gate (every library's objects equal on every payload, model and scenario)")
    gate = subprocess.run([java, *options, "-cp", jar, "io.simdbridge.bench.databind.DatabindGate",
                           os.path.join(results, "databind_equivalence.json")])
    if gate.returncode:
        return gate.returncode

    settings = FULL if full else QUICK
    sizes = SIZES if full else QUICK_SIZES
    runs = {}
    # The bean model, both payloads: reads (with the allocation per read, -prof gc) and writes to
    # a stream on 1 thread; with FULL=1 also writes to a byte array, 2 threads, every size.
    plan = [("read", 1, ["-prof", "gc"]), ("writeStream", 1, [])]
    if full:
        plan += [("write", 1, []), ("read", 2, []), ("writeStream", 2, [])]
    for op, threads, extra in plan:
        name = "databind-beans-%s-%dt" % (op, threads)
        # The quick run's write table is Users only: the jjb writes are judged side by side below,
        # and reads keep both payloads for their allocation per read (-prof gc).
        payloads = PAYLOADS if full or op == "read" else ["users"]
        runs[("beans", op, threads)] = jvm_suite.run_jmh(
            jar, "DatabindBenchmark.%s$" % op, os.path.join(jmh_dir, name + ".json"),
            settings + extra + ["-t", str(threads), "-p", "kb=" + ",".join(map(str, sizes)), "-p", "model=beans",
                                "-p", "payload=" + ",".join(payloads),
                                "-p", "library=" + ",".join(READERS if full else QUICK_READERS)],
            "Users (beans) %s, %d thread%s" % (op, threads, "s" * (threads > 1)))
    # The public-field model beside it, with simdjson-java (records): the full run's. The quick run
    # judges the bean path against the field path side by side (FIELDS, below), and its table took
    # 26 s of the quick budget.
    if full:
        runs[("fields", "read", 1)] = jvm_suite.run_jmh(
            jar, "DatabindBenchmark.read$", os.path.join(jmh_dir, "databind-fields-read-1t.json"),
            settings + ["-t", "1", "-p", "kb=" + ",".join(map(str, sizes)), "-p", "model=fields",
                        "-p", "payload=users", "-p", "library=" + ",".join(FIELD_READERS)],
            "Users (public fields) read, 1 thread")
    # The six scenarios are judged side by side (below); the full run also gives their JMH table,
    # the quick run takes the table from the side-by-side medians (24 forks, a minute, saved).
    scenarios = jvm_suite.run_jmh(jar, "ScenarioBenchmark", os.path.join(jmh_dir, "databind-scenarios.json"), settings,
                                  "six scenarios") if full else None
    # Not a target: the full run's (13 s of the quick budget).
    virtual = jvm_suite.run_jmh(jar, "VirtualThreadBenchmark", os.path.join(jmh_dir, "databind-virtual.json"), settings,
                                "Users read 1 KB, a virtual thread per read") if full else []

    target_ops = TARGET_OPS if full else QUICK_TARGET_OPS
    paired = side_by_side(java, jar, jmh_dir, PAIRED_FULL if full else PAIRED_QUICK, target_ops)

    # The probes time nothing, so two run at once; the quick run probes simdbridge and the peers of
    # the targets (a JVM start per step of each search: the ten libraries took 70 s of the quick
    # budget, its tables' six 41 s).
    probed = READERS if full else ["simdbridge"] + PEERS
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        futures = {library: pool.submit(smallest_heap, java, jar, library) for library in probed}
        heaps = {}
        for library in probed:
            heaps[library] = futures[library].result()
            report.progress("databind: %s runs the 1000 KB payload in -Xmx%s" % (library, heaps[library]))

    out = summarize(runs, scenarios, virtual, paired, heaps, settings, target_ops)
    report.write_json(os.path.join(results, "databind.json"), out)
    with open(os.path.join(results, "databind.md"), "w") as f:
        f.write(markdown(out))
    chart(out, os.path.join(results, "databind.png"))
    for t in out["targets"]:
        report.progress("databind: %s: %.2fx (95%%: %.2f to %.2f) (target %.1fx) %s" % (
            t["what"], t["ratio"], t["ci95"][0], t["ci95"][1], t["target"], t["verdict"]))
    return 0


def side_by_side(java, jar, jmh_dir, settings, target_ops):
    """Every target's comparison through PairedRatio, each in JVMs of its own (as JMH forks: run
    in one JVM after the other scenarios, Jackson's escaped-string write measured 4.1x slower than
    ours against JMH's 1.5x, its shared code profiled by all of them): {(what, op, subject,
    threads): the comparison as PairedRatio wrote it}."""
    specs = []
    for payload in TARGET_PAYLOADS:
        for op, threads in target_ops:
            peers = PEERS + ([TAPE, STRINGS] if (op, threads) == ("read", 1) else []) + ([FIELDS] if threads == 1 else [])
            specs.append((("beans", op, payload, threads),
                          "beans:%s:%s:%s:%dt" % (op, payload, ",".join(peers), threads), "users"))
    for s in SCENARIOS:
        for op in ("read", "write"):
            specs.append((("scenario", op, s, 1), "scenario:%s:%s:jackson" % (op, s), "scenario"))
    report.progress("databind: side by side, %d comparisons (Users: %s rounds of %s ms slices in each of %d JVMs; "
                    "scenarios: %s of %s ms in %d)" % (len(specs), settings["users"][2], settings["users"][0],
                                                       settings["users"][3], settings["scenario"][2],
                                                       settings["scenario"][0], settings["scenario"][3]))

    def paired_ratio(*args):
        proc = subprocess.Popen([java, *jvm_suite.JVM_OPTIONS, "-cp", jar, "io.simdbridge.bench.databind.PairedRatio",
                                 *args], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        for line in proc.stdout:
            if not line.startswith("WARNING"):
                report.progress("databind: " + line.rstrip())
        if proc.wait():
            raise SystemExit("PairedRatio %s failed" % " ".join(args))

    out = {}
    for key, spec, what in specs:
        path = os.path.join(jmh_dir, "databind-paired-%s.json" % "-".join(str(k) for k in key))
        slice_ms, warmup, rounds, forks = settings[what]
        if forks == 1:  # nothing to pool: no JVM started to merge one file
            paired_ratio(path, slice_ms, warmup, rounds, spec)
        else:
            fork_paths = ["%s.fork%d.json" % (path[:-len(".json")], k + 1) for k in range(forks)]
            for fork_path in fork_paths:
                paired_ratio(fork_path, slice_ms, warmup, rounds, spec)
            paired_ratio("merge", path, *fork_paths)
        with open(path) as f:
            doc = json.load(f)
        (c,) = doc["comparisons"]
        out[key] = dict(c, rounds=doc["rounds"], slice_ms=doc["slice_ms"])
    return out


def smallest_heap(java, jar, library):
    """The smallest -Xmx of HEAPS_MB at which the library reads (and writes) 1000 KB 20 times."""
    def passes(mb):
        p = subprocess.run([java, "-Xmx%dm" % mb, *jvm_suite.JVM_OPTIONS, "-cp", jar,
                            "io.simdbridge.bench.databind.HeapProbe", library, "20"],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        return p.returncode == 0
    lo, hi = 0, len(HEAPS_MB) - 1
    if not passes(HEAPS_MB[hi]):
        return "more than %dm" % HEAPS_MB[hi]
    while lo < hi:
        mid = (lo + hi) // 2
        if passes(HEAPS_MB[mid]):
            hi = mid
        else:
            lo = mid + 1
    return "%dm" % HEAPS_MB[lo]


def users_entries(results):
    """{(model, payload, kb, library): {ops_per_s, ci999[, alloc_bytes_per_op, alloc_ci999]}}."""
    out = {}
    for r in results:
        p = r["params"]
        m = r["primaryMetric"]
        e = {"ops_per_s": m["score"], "ci999": m["scoreError"] if m["scoreError"] == m["scoreError"] else float("nan")}
        gc = r.get("secondaryMetrics", {}).get("gc.alloc.rate.norm")
        if gc:
            e["alloc_bytes_per_op"] = gc["score"]
            e["alloc_ci999"] = gc["scoreError"] if gc["scoreError"] == gc["scoreError"] else float("nan")
        out[(p["model"], p["payload"], int(p["kb"]), p["library"])] = e
    return out


def scenario_entries(results):
    """{(scenario, op, library): (us/op, error)}."""
    out = {}
    for r in results:
        p = r["params"]
        m = r["primaryMetric"]
        out[(p["scenario"], r["benchmark"].rsplit(".", 1)[-1], p["library"])] = (
            m["score"], m["scoreError"] if m["scoreError"] == m["scoreError"] else float("nan"))
    return out


def summarize(runs, scenarios, virtual, paired, heaps, settings, target_ops):
    # users[model/payload][op][threads][kb][library]
    users = {}
    for (model, op, threads), results in runs.items():
        for (m, payload, kb, library), e in users_entries(results).items():
            users.setdefault("%s/%s" % (m, payload), {}).setdefault(op, {}).setdefault("%dt" % threads, {}).setdefault(
                str(kb), {})[library] = e
    targets = []
    stages = {}
    for payload in TARGET_PAYLOADS:
        for op, threads in target_ops:
            c = paired[("beans", op, payload, threads)]
            for peer in PEERS:
                targets.append(target_entry("%s %s, %d thread%s: simdbridge / %s" % (
                    describe(payload), op, threads, "s" * (threads > 1), peer), c["peers"][peer], c,
                    target_ratio(op, payload)))
            if FIELDS in c["peers"]:
                targets.append(target_entry("%s %s: simdbridge's bean path / its field path" % (describe(payload), op),
                                            c["peers"][FIELDS], c, 1.0))
            if TAPE in c["ops_per_s"]:
                ops = c["ops_per_s"]
                tape, whole = 1e9 / ops[TAPE], 1e9 / ops["simdbridge"]
                stages[describe(payload)] = {
                    "native_parse_ns": tape, "binding_ns": whole - tape, "simdbridge_read_ns": whole,
                    "strings_alone_ns": 1e9 / ops[STRINGS],
                    **{"%s_read_ns" % peer: 1e9 / ops[peer] for peer in PEERS}}
    # Allocation per read (bean model, 1 thread, JMH -prof gc): the peer's bytes over ours, at least 1.
    reads = users_entries(runs[("beans", "read", 1)])
    for (model, payload, kb, library), e in sorted(reads.items()):
        if library not in PEERS or "alloc_bytes_per_op" not in e:
            continue
        ours = reads[(model, payload, kb, "simdbridge")]
        r, ci = report.quotient(e["alloc_bytes_per_op"], e["alloc_ci999"], ours["alloc_bytes_per_op"], ours["alloc_ci999"])
        targets.append({"what": "%s read, allocation: %s's bytes per read / simdbridge's (%.0f / %.0f B)" % (
            describe(("jjb" if payload == "jjb" else "") + str(kb)), library, e["alloc_bytes_per_op"],
            ours["alloc_bytes_per_op"]), "ratio": r, "ci95": [r - ci, r + ci], "target": 1.0,
            "jmh": {"ratio": r, "ci999": ci}, **report.judge(r, ci, 1.0)})
    six = {}
    if scenarios is not None:
        e = scenario_entries(scenarios)
        for (scenario, op, library), v in e.items():
            six.setdefault(scenario, {}).setdefault(op, {})[library] = {"us_per_op": v[0], "ci999": v[1]}
        for scenario, ops in six.items():
            for op, libs in ops.items():
                r, ci = report.quotient(libs["jackson"]["us_per_op"], libs["jackson"]["ci999"],
                                        libs["simdbridge"]["us_per_op"], libs["simdbridge"]["ci999"])
                libs["speedup_over_jackson"] = {"ratio": r, "ci999": ci}
    else:  # the quick run: each library's median throughput over the side-by-side slices
        for scenario in SCENARIOS:
            for op in ("read", "write"):
                c = paired[("scenario", op, scenario, 1)]
                libs = {library: {"us_per_op": 1e6 / ops, "ci999": None} for library, ops in c["ops_per_s"].items()}
                low, high = c["peers"]["jackson"]["ci95"]
                libs["speedup_over_jackson"] = {"ratio": c["peers"]["jackson"]["median"], "ci95": [low, high]}
                six.setdefault(scenario, {})[op] = libs
    for scenario, ops in six.items():
        for op in ("read", "write"):
            c = paired[("scenario", op, scenario, 1)]
            targets.append(target_entry("scenario %s %s: Jackson's time / simdbridge's" % (scenario, op),
                                        c["peers"]["jackson"], c, 1.0, strictly=True))
    per_thread = {}
    for r in virtual:
        m = r["primaryMetric"]
        per_thread[r["params"]["library"]] = {"reads_per_s": m["score"], "ci999": m["scoreError"]}
    for library, v in per_thread.items():
        if library != "simdbridge":
            r, ci = report.quotient(per_thread["simdbridge"]["reads_per_s"], per_thread["simdbridge"]["ci999"],
                                    v["reads_per_s"], v["ci999"])
            v["simdbridge_over"] = {"ratio": r, "ci999": ci}
    # Whether each JVM's warmup got steady (a merged comparison lists its JVMs', a single one has one),
    # and the JVMs whose warmup reached its most rounds before the JIT was quiet and the rates steady.
    steady = [("%s %s %s, %d thread%s" % (c["what"], c["op"], c["subject"], c["threads"], "s" * (c["threads"] > 1)), s)
              for c in paired.values() for s in (c["steady"] if isinstance(c["steady"], list) else [c["steady"]])]
    unsteady = sorted(what for what, s in steady if not s)
    return {"settings": settings, "users": users, "stages_ns_per_document": stages, "scenarios": six,
            "virtual_thread_per_read_1kb": per_thread, "smallest_heap_1000kb": heaps,
            "targets": targets, "unsteady_warmups": unsteady, "byte_array_writes": ("write", 1) in target_ops,
            "side_by_side_jvms": len(steady),
            "method": "targets judged side by side (PairedRatio: JVMs of their own per comparison, Users in "
                      "two (three with FULL=1), turns of 50 to 200 ms after a warmup that lasts until the JIT "
                      "is quiet and the rates steady (at most 20 rounds past those asked for in the quick "
                      "run, 40 with FULL=1), median of the per-round ratios pooled over the JVMs, 95%% "
                      "interval from order statistics; 2 threads: each "
                      "library's slice run by two threads at once), on the bean model (private fields, "
                      "accessors); stages: the native parse into the binding tape timed alone beside the whole "
                      "read, the binding being the difference, and the Strings alone beside them; allocation: "
                      "JMH -prof gc, bytes per read, 99.9%% intervals; tables: JMH throughput, one library per "
                      "fork, 99.9%% intervals; the default heap for every run; smallest heap: the least -Xmx "
                      "(of %s MB) at which 20 reads (and writes) of the 1000 KB payload succeed" % HEAPS_MB}


def target_entry(what, peer, comparison, target, strictly=False):
    """A target from a side-by-side comparison: the median of the per-round ratios, which judges."""
    low, high = peer["ci95"]
    return {"what": what, "ratio": peer["median"], "ci95": [low, high], "target": target,
            "side_by_side": dict({k: v for k, v in peer.items() if k != "ratios"}, rounds=comparison["rounds"],
                                 slice_ms=comparison["slice_ms"], ops_per_s=comparison["ops_per_s"]),
            **report.judge_between(peer["median"], low, high, target, strictly)}


def markdown(out):
    lines = ["# Data binding: simdbridge's Json against the JVM's binders\n",
             "Settings: `%s`. Tables: JMH scores with 99.9%% intervals.\n" % " ".join(out["settings"]),
             "## Targets\n",
             "On the bean model (private fields, getters and setters), judged side by side: simdbridge and "
             "the peer in one JVM, taking turns in short slices, the median of the per-round ratios with its "
             "95% interval (order statistics; `PairedRatio`), the Users comparisons run in several JVMs and "
             "their rounds pooled (each JVM's median after the interval). \"fastjson2-features\" is fastjson2 as "
             "java-json-benchmark configures it (its own reader and writer providers); writes to a stream "
             "go to a ByteArrayOutputStream kept per thread, as that harness writes"
             + ("" if out.get("byte_array_writes") else " (writes to a byte array: FULL=1 only)")
             + ". Allocation: JMH's `-prof gc`.\n",
             report.markdown_table(["what", "ratio", "target", ""],
                                   [[t["what"], "%.2fx (%.2f to %.2f%s)" % (
                                       t["ratio"], t["ci95"][0], t["ci95"][1],
                                       "; JVMs %s" % ", ".join("%.2f" % m for m in t["side_by_side"]["fork_medians"])
                                       if len(t.get("side_by_side", {}).get("fork_medians", [])) > 1 else ""),
                                     "%.1fx" % t["target"], report.emphasized(t["verdict"])] for t in out["targets"]]),
             "Warmups that reached their most rounds before the JIT was quiet and the rates steady: %d of %d "
             "JVMs%s.\n" % (len(out["unsteady_warmups"]), out["side_by_side_jvms"],
                            " (%s)" % "; ".join(out["unsteady_warmups"]) if out["unsteady_warmups"] else ""),
             "\n## A read's stages (ns per document, 1 thread, medians of the side-by-side slices)\n",
             "The native parse into the binding tape timed alone, beside the whole read; the binding (Strings "
             "and objects built in Java from the tape) is the difference. Strings alone: the document's string "
             "values made into Strings with the JDK's one-copy constructor and nothing else, which every binder "
             "on the JDK's public API pays (fastjson2 included): what is left of a read to win is the rest.\n",
             report.markdown_table(["payload", "native parse", "binding", "simdbridge read", "Strings alone"]
                                   + ["%s read" % p for p in PEERS],
                                   [[k, "%.0f" % v["native_parse_ns"], "%.0f" % v["binding_ns"],
                                     "%.0f" % v["simdbridge_read_ns"], "%.0f" % v["strings_alone_ns"]]
                                    + ["%.0f" % v["%s_read_ns" % p] for p in PEERS]
                                    for k, v in out["stages_ns_per_document"].items()])]
    for model_payload, ops in sorted(out["users"].items()):
        for op, by_threads in sorted(ops.items()):
            for threads, by_kb in sorted(by_threads.items()):
                libs = list(next(iter(by_kb.values())).keys())
                rows = []
                for kb in sorted(by_kb, key=int):
                    rows.append([kb + " KB"] + ["%.0f ± %.0f" % (by_kb[kb][l]["ops_per_s"], by_kb[kb][l]["ci999"])
                                                if l in by_kb[kb] else "" for l in libs])
                lines += ["\n## %s %s, %s (ops/s)\n" % (model_payload, op, threads.replace("t", " thread(s)")),
                          report.markdown_table(["payload"] + libs, rows)]
                if op == "read" and any("alloc_bytes_per_op" in v for v in next(iter(by_kb.values())).values()):
                    rows = [[kb + " KB"] + ["%.0f" % by_kb[kb][l]["alloc_bytes_per_op"] if "alloc_bytes_per_op" in
                                            by_kb[kb].get(l, {}) else "" for l in libs] for kb in sorted(by_kb, key=int)]
                    lines += ["\nBytes allocated per read (JMH -prof gc):\n", report.markdown_table(["payload"] + libs, rows)]
    def us(v):
        return "%.3f" % v["us_per_op"] if v["ci999"] is None else "%.3f ± %.3f" % (v["us_per_op"], v["ci999"])
    rows = []
    for scenario, ops in out["scenarios"].items():
        for op in ("read", "write"):
            libs = ops[op]
            rows.append([scenario, op, us(libs["simdbridge"]), us(libs["jackson"]),
                         "%.2fx" % libs["speedup_over_jackson"]["ratio"]])
    virtual = out["virtual_thread_per_read_1kb"]
    vrows = [[library, "%.0f ± %.0f" % (v["reads_per_s"], v["ci999"]),
              "%.2fx ± %.2f" % (v["simdbridge_over"]["ratio"], v["simdbridge_over"]["ci999"]) if "simdbridge_over" in v else ""]
             for library, v in virtual.items()]
    lines += ["\n## The six scenarios (us/op)\n",
              "JMH with 99.9% intervals in the full run; in the quick run, each library's median over the "
              "side-by-side slices, and the median of the per-round ratios.\n",
              report.markdown_table(["scenario", "", "simdbridge", "Jackson", "Jackson / simdbridge"], rows),
              "\n## Users read 1 KB, a virtual thread per read (reads/s, thread start and join included)\n",
              "As a server that runs each request on its own virtual thread reads: whatever a library keeps per "
              "thread is made again for every read. Not a target of the issue.\n",
              report.markdown_table(["library", "reads/s", "simdbridge / library"], vrows)
              if vrows else "Measured with FULL=1 only.\n",
              "\n## Smallest heap for the 1000 KB payload (bean model)\n",
              report.markdown_table(["library", "-Xmx"], [[k, v] for k, v in out["smallest_heap_1000kb"].items()]),
              "\nMethod: %s.\n" % out["method"]]
    return "\n".join(lines)


def chart(out, path):
    libs = [l for l in READERS if any(l in kb for op in out["users"].get("beans/users", {}).values()
                                      for t in op.values() for kb in t.values())]
    cats, series, errors = [], {l: [] for l in libs}, {l: [] for l in libs}
    for payload in PAYLOADS:
        for op in ("read", "writeStream"):
            by_kb = out["users"].get("beans/" + payload, {}).get(op, {}).get("1t", {})
            for kb in sorted(by_kb, key=int):
                cats.append("%s %s %s KB" % (payload, op, kb))
                base = by_kb[kb]["jackson"]["ops_per_s"]
                for l in libs:
                    v = by_kb[kb].get(l)
                    series[l].append(v["ops_per_s"] / base if v else 0)
                    errors[l].append(v["ci999"] / base if v and v["ci999"] == v["ci999"] else 0)
    report.bar_chart(path, "Users data binding (beans), 1 thread: throughput relative to Jackson (higher is better)",
                     cats, series, "x Jackson", errors=errors)
