# SPDX-License-Identifier: Apache-2.0
"""The data-binding suite (issue: Java data binding): simdbridge's Json against Jackson (plain
and Blackbird), fastjson2 (default and with features), dsl-json, avaje-jsonb, genson and
simdjson-java on the Users model, and against Jackson on the six scenarios; and the smallest heap
each library needs for the 1000 KB payload.

First the gate (DatabindGate): every library must read equal objects from every payload and
write what reads back equal, or nothing is measured. Then JMH (one library per fork): Users read
and write at 1, 10, 100 and 1000 KB on 1 thread, and at 1 and 100 KB on 2 threads (every size
with FULL=1); the six scenarios in microseconds per operation; Users read 1 KB with a virtual
thread per read. Then the targets side by side (PairedRatio, a JVM per comparison: simdbridge and
its peers taking turns in short slices, the median of the per-round ratios with a 95% interval): the
verdicts come from these, since a machine whose speed drifts moves whole JMH forks. Then the heap
probes, two at a time (they measure no time).

Writes results/databind.json, databind.md, databind.png, databind_equivalence.json and the raw
JMH JSON in results/jmh/databind-*.json.
"""
import concurrent.futures
import json
import os
import subprocess

import jvm_suite
import report

READERS = ["simdbridge", "jackson", "jackson-blackbird", "fastjson2", "fastjson2-features", "dsl-json", "avaje-jsonb",
           "genson", "simdjson-java"]
WRITERS = [r for r in READERS if r != "simdjson-java"]
SIZES = [1, 10, 100, 1000]
# Quick: about as long per benchmark as 2 x 500 ms warmup and 3 x 500 ms measured, which gave 99.9%
# intervals wider than the scores (Student's t for 2 degrees of freedom is 31.6; 8.6 for 4), so five
# shorter measured iterations, and a third warmup iteration. The targets are judged side by side
# (below), which a drifting machine moves less than it moves a fork.
QUICK = ["-f", "1", "-wi", "3", "-w", "300ms", "-i", "5", "-r", "250ms"]
FULL = ["-f", "3", "-wi", "5", "-w", "1s", "-i", "10", "-r", "1s"]
# Side by side (PairedRatio): slice in ms, warmup rounds, measured rounds; Users, then the scenarios.
# Each library warms up for 600 to 800 ms in the quick run (JMH's quick forks: 900 ms): with 200 ms,
# Jackson's dates read was still being compiled for half the rounds (21.8x, 95%: 7.7 to 31.7).
PAIRED_QUICK = {"users": ["100", "8", "20"], "scenario": ["50", "12", "16"]}
PAIRED_FULL = {"users": ["200", "10", "60"], "scenario": ["100", "10", "40"]}
SCENARIOS = ["simple", "nested", "dates", "list-of-100", "map-of-mixed", "escaped-string"]
HEAPS_MB = [8, 12, 16, 24, 32, 48, 64, 96, 128, 192, 256, 384, 512, 768, 1024, 2048]
TARGETS = [  # (operation, kb, threads, peer, ratio at least)
    ("read", 1, 1, "fastjson2-features", 1.2),
    ("read", 100, 1, "fastjson2-features", 1.2),
    ("write", 1, 1, "fastjson2", 1.0),
    ("write", 100, 1, "fastjson2", 1.0),
    ("write", 1, 1, "fastjson2-features", 1.0),
    ("write", 100, 1, "fastjson2-features", 1.0),
]


def run(root, data, results, full):
    jar = os.path.join(root, "jvm", "jmh", "target", "benchmarks.jar")
    jmh_dir = os.path.join(results, "jmh")
    os.makedirs(jmh_dir, exist_ok=True)
    java = jvm_suite.java()
    options = jvm_suite.JVM_OPTIONS

    report.progress("databind: the gate (every library's objects equal on every payload and scenario)")
    gate = subprocess.run([java, *options, "-cp", jar, "io.simdbridge.bench.databind.DatabindGate",
                           os.path.join(results, "databind_equivalence.json")])
    if gate.returncode:
        return gate.returncode

    settings = FULL if full else QUICK
    runs = {}
    two_thread_sizes = SIZES if full else [1, 100]
    for op, libraries in (("read", READERS), ("write", WRITERS)):
        for threads, sizes in ((1, SIZES), (2, two_thread_sizes)):
            name = "databind-%s-%dt" % (op, threads)
            runs[(op, threads)] = jvm_suite.run_jmh(
                jar, "DatabindBenchmark.%s$" % op, os.path.join(jmh_dir, name + ".json"),
                settings + ["-t", str(threads), "-p", "kb=" + ",".join(map(str, sizes)),
                            "-p", "library=" + ",".join(libraries)], "Users %s, %d thread%s" % (op, threads, "s" * (threads > 1)))
    scenarios = jvm_suite.run_jmh(jar, "ScenarioBenchmark", os.path.join(jmh_dir, "databind-scenarios.json"), settings,
                                  "six scenarios")
    virtual = jvm_suite.run_jmh(jar, "VirtualThreadBenchmark", os.path.join(jmh_dir, "databind-virtual.json"), settings,
                                "Users read 1 KB, a virtual thread per read")

    paired = side_by_side(java, jar, jmh_dir, PAIRED_FULL if full else PAIRED_QUICK)

    # The probes time nothing, so two run at once.
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        futures = {library: pool.submit(smallest_heap, java, jar, library) for library in READERS}
        heaps = {}
        for library in READERS:
            heaps[library] = futures[library].result()
            report.progress("databind: %s runs the 1000 KB payload in -Xmx%s" % (library, heaps[library]))

    out = summarize(runs, scenarios, virtual, paired, heaps, settings)
    report.write_json(os.path.join(results, "databind.json"), out)
    with open(os.path.join(results, "databind.md"), "w") as f:
        f.write(markdown(out))
    chart(out, os.path.join(results, "databind.png"))
    for t in out["targets"]:
        report.progress("databind: %s: %.2fx (95%%: %.2f to %.2f; JMH %.2fx ± %.2f) (target %.1fx) %s" % (
            t["what"], t["ratio"], t["ci95"][0], t["ci95"][1], t["jmh"]["ratio"], t["jmh"]["ci999"], t["target"],
            t["verdict"]))
    return 0


def side_by_side(java, jar, jmh_dir, settings):
    """Every target's comparison through PairedRatio, each in a JVM of its own (as JMH forks: run
    in one JVM after the other scenarios, Jackson's escaped-string write measured 4.1x slower than
    ours against JMH's 1.5x, its shared code profiled by all of them): {(what, op, subject, peer):
    its summary}."""
    users = {}
    for op, kb, threads, peer, _ in TARGETS:
        users.setdefault((op, kb), []).append(peer)
    specs = [("users", "users:%s:%d:%s" % (op, kb, ",".join(peers))) for (op, kb), peers in users.items()]
    specs += [("scenario", "scenario:%s:%s:jackson" % (op, s)) for s in SCENARIOS for op in ("read", "write")]
    report.progress("databind: side by side, %d comparisons (Users: %s rounds of %s ms slices; scenarios: %s of %s ms)"
                    % (len(specs), settings["users"][2], settings["users"][0], settings["scenario"][2],
                       settings["scenario"][0]))
    out = {}
    for what, spec in specs:
        path = os.path.join(jmh_dir, "databind-paired-%s.json" % "-".join(spec.split(":")[:3]))
        slice_ms, warmup, rounds = settings[what]
        proc = subprocess.Popen([java, *jvm_suite.JVM_OPTIONS, "-cp", jar, "io.simdbridge.bench.databind.PairedRatio",
                                 path, slice_ms, warmup, rounds, spec], stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, text=True)
        for line in proc.stdout:
            if not line.startswith("WARNING"):
                report.progress("databind: " + line.rstrip())
        if proc.wait():
            raise SystemExit("PairedRatio %s failed" % spec)
        with open(path) as f:
            doc = json.load(f)
        for c in doc["comparisons"]:
            for peer, summary in c["peers"].items():
                out[(c["what"], c["op"], c["subject"], peer)] = dict(summary, rounds=doc["rounds"],
                                                                     slice_ms=doc["slice_ms"])
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


def entries(results):
    """{(library, kb or scenario): (score, error)}."""
    out = {}
    for r in results:
        params = r.get("params", {})
        key = (params.get("library"), int(params["kb"]) if "kb" in params else params.get("scenario"),
               r["benchmark"].rsplit(".", 1)[-1])
        m = r["primaryMetric"]
        out[key] = (m["score"], m["scoreError"] if m["scoreError"] == m["scoreError"] else float("nan"), m["scoreUnit"])
    return out


def ratio(a, b, higher_is_better=True):
    """a over b (or b over a for times), with the 99.9% half-widths combined in relative terms."""
    (sa, ea, _), (sb, eb, _) = a, b
    return report.quotient(sa, ea, sb, eb) if higher_is_better else report.quotient(sb, eb, sa, ea)


def summarize(runs, scenarios, virtual, paired, heaps, settings):
    users = {}
    for (op, threads), results in runs.items():
        e = entries(results)
        for (library, kb, _), (score, error, unit) in e.items():
            users.setdefault(op, {}).setdefault("%dt" % threads, {}).setdefault(str(kb), {})[library] = {
                "ops_per_s": score, "ci999": error}
    ratios = {}
    for op, by_threads in users.items():
        for threads, by_kb in by_threads.items():
            for kb, libs in by_kb.items():
                ours = libs["simdbridge"]
                for lib, v in libs.items():
                    if lib == "simdbridge":
                        continue
                    r, ci = ratio((ours["ops_per_s"], ours["ci999"], ""), (v["ops_per_s"], v["ci999"], ""))
                    ratios.setdefault(op, {}).setdefault(threads, {}).setdefault(kb, {})[lib] = {"ratio": r, "ci999": ci}
    six = {}
    e = entries(scenarios)
    for (library, scenario, op), (score, error, unit) in e.items():
        six.setdefault(scenario, {}).setdefault(op, {})[library] = {"us_per_op": score, "ci999": error}
    for scenario, ops in six.items():
        for op, libs in ops.items():
            r, ci = ratio((libs["simdbridge"]["us_per_op"], libs["simdbridge"]["ci999"], ""),
                          (libs["jackson"]["us_per_op"], libs["jackson"]["ci999"], ""), higher_is_better=False)
            libs["speedup_over_jackson"] = {"ratio": r, "ci999": ci}
    targets = []
    for op, kb, threads, peer, target in TARGETS:
        r = ratios[op]["%dt" % threads][str(kb)][peer]
        targets.append(target_entry("Users %s %d KB, %d thread: simdbridge / %s" % (op, kb, threads, peer),
                                    r, paired[("users", op, "%d KB" % kb, peer)], target))
    for scenario, ops in six.items():
        for op in ("read", "write"):
            targets.append(target_entry("scenario %s %s: Jackson's time / simdbridge's" % (scenario, op),
                                        ops[op]["speedup_over_jackson"], paired[("scenario", op, scenario, "jackson")],
                                        1.0, strictly=True))
    per_thread = {}
    e = entries(virtual)
    for (library, kb, _), (score, error, unit) in e.items():
        per_thread[library] = {"reads_per_s": score, "ci999": error}
    for library, v in per_thread.items():
        if library != "simdbridge":
            r, ci = ratio((per_thread["simdbridge"]["reads_per_s"], per_thread["simdbridge"]["ci999"], ""),
                          (v["reads_per_s"], v["ci999"], ""))
            v["simdbridge_over"] = {"ratio": r, "ci999": ci}
    return {"settings": settings, "users": users, "ratios": ratios, "scenarios": six,
            "virtual_thread_per_read_1kb": per_thread, "smallest_heap_1000kb": heaps,
            "targets": targets,
            "method": "JMH throughput (ops/s) and average time (us/op), one library per fork, 99.9%% intervals; "
                      "ratios per JMH score with the relative half-widths combined; targets judged side by side "
                      "(PairedRatio: a JVM per comparison, turns of 50 to 200 ms, median of the per-round "
                      "ratios, 95%% interval from order statistics); the default heap for every JMH run; smallest "
                      "heap: the least -Xmx (of %s MB) at which 20 reads (and writes) of the 1000 KB payload "
                      "succeed" % HEAPS_MB}


def target_entry(what, jmh, side_by_side, target, strictly=False):
    """A target: JMH's ratio (forks one after the other) and the side-by-side median, which judges."""
    low, high = side_by_side["ci95"]
    return {"what": what, "ratio": side_by_side["median"], "ci95": [low, high], "target": target,
            "side_by_side": side_by_side, "jmh": {"ratio": jmh["ratio"], "ci999": jmh["ci999"]},
            **report.judge_between(side_by_side["median"], low, high, target, strictly)}


def markdown(out):
    lines = ["# Data binding: simdbridge's Json against the JVM's binders\n",
             "Settings: `%s`. Scores are JMH's, with 99.9%% intervals.\n" % " ".join(out["settings"]),
             "## Targets\n",
             "Judged side by side: simdbridge and the peer in one JVM, taking turns in short slices, the "
             "median of the per-round ratios with its 95%% interval (order statistics; `PairedRatio`; %s). "
             "JMH's ratio, from forks run one after the other, beside it with its 99.9%% interval.\n" % "; ".join(
                 "%s: %s rounds of %s ms slices" % (what, s["rounds"], s["slice_ms"])
                 for what, s in {t["what"].split(" ")[0]: t["side_by_side"] for t in out["targets"]}.items()),
             report.markdown_table(["what", "side by side", "JMH", "target", ""],
                                   [[t["what"], "%.2fx (%.2f to %.2f)" % (t["ratio"], t["ci95"][0], t["ci95"][1]),
                                     "%.2fx ± %.2f" % (t["jmh"]["ratio"], t["jmh"]["ci999"]), "%.1fx" % t["target"],
                                     report.emphasized(t["verdict"])] for t in out["targets"]])]
    for op in ("read", "write"):
        for threads, by_kb in sorted(out["users"].get(op, {}).items()):
            libs = list(next(iter(by_kb.values())).keys())
            rows = []
            for kb in sorted(by_kb, key=int):
                rows.append([kb + " KB"] + ["%.0f ± %.0f" % (by_kb[kb][l]["ops_per_s"], by_kb[kb][l]["ci999"])
                                            if l in by_kb[kb] else "" for l in libs])
            lines += ["\n## Users %s, %s (ops/s)\n" % (op, threads.replace("t", " thread(s)")),
                      report.markdown_table(["payload"] + libs, rows)]
    rows = []
    for scenario, ops in out["scenarios"].items():
        for op in ("read", "write"):
            libs = ops[op]
            rows.append([scenario, op, "%.3f ± %.3f" % (libs["simdbridge"]["us_per_op"], libs["simdbridge"]["ci999"]),
                         "%.3f ± %.3f" % (libs["jackson"]["us_per_op"], libs["jackson"]["ci999"]),
                         "%.2fx" % libs["speedup_over_jackson"]["ratio"]])
    virtual = out["virtual_thread_per_read_1kb"]
    vrows = [[library, "%.0f ± %.0f" % (v["reads_per_s"], v["ci999"]),
              "%.2fx ± %.2f" % (v["simdbridge_over"]["ratio"], v["simdbridge_over"]["ci999"]) if "simdbridge_over" in v else ""]
             for library, v in virtual.items()]
    lines += ["\n## The six scenarios (us/op)\n",
              report.markdown_table(["scenario", "", "simdbridge", "Jackson", "Jackson / simdbridge"], rows),
              "\n## Users read 1 KB, a virtual thread per read (reads/s, thread start and join included)\n",
              "As a server that runs each request on its own virtual thread reads: whatever a library keeps per "
              "thread is made again for every read. Not a target of the issue.\n",
              report.markdown_table(["library", "reads/s", "simdbridge / library"], vrows),
              "\n## Smallest heap for the 1000 KB payload\n",
              report.markdown_table(["library", "-Xmx"], [[k, v] for k, v in out["smallest_heap_1000kb"].items()]),
              "\nMethod: %s.\n" % out["method"]]
    return "\n".join(lines)


def chart(out, path):
    libs = READERS
    cats, series, errors = [], {l: [] for l in libs}, {l: [] for l in libs}
    for op in ("read", "write"):
        by_kb = out["users"][op]["1t"]
        for kb in sorted(by_kb, key=int):
            cats.append("%s %s KB" % (op, kb))
            base = by_kb[kb]["jackson"]["ops_per_s"]
            for l in libs:
                v = by_kb[kb].get(l)
                series[l].append(v["ops_per_s"] / base if v else 0)
                errors[l].append(v["ci999"] / base if v and v["ci999"] == v["ci999"] else 0)
    report.bar_chart(path, "Users data binding, 1 thread: throughput relative to Jackson (higher is better)", cats,
                     series, "x Jackson", errors=errors)
