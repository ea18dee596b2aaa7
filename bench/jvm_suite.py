# SPDX-License-Identifier: Apache-2.0
"""The JVM suites (issue: JVM bridge): the vehicle feed, the equivalence gate, then JMH suites
A to G (C, the allocation, counted in A's forks; E, the pipeline stages, with FULL=1 only), and
what is worked out of them.

Writes to results/: feed_manifest.json, equivalence.json, jmh/<suite>.json (JMH's raw JSON),
jvm_core_reference.json (the C++ core on the same files), environment.json, summary.json,
summary.md, jvm_throughput.png and jvm_latency.png.
"""
import hashlib
import json
import math
import os
import re
import subprocess
import sys

import report

# Quick settings run a representative subset of the datasets; FULL=1 runs all 25.
QUICK_DATASETS = ["twitter.json", "canada.json", "citm_catalog.json", "gsoc-2018.json",
                  "vehicles-batch-1", "gharchive-2015-01-01-0.ndjson"]
ENGINES = {  # JMH method -> engine name
    "checksum_jacksonTree": "jackson-tree", "checksum_jacksonStream": "jackson-stream",
    "checksum_fastjson2": "fastjson2", "checksum_simdjsonJava": "simdjson-java",
    "checksum_jniCopy": "simdjson-jni-copy", "checksum_jniCritical": "simdjson-jni-critical",
    "checksum_jniDirect": "simdjson-jni-direct", "checksum_ffmHeap": "simdjson-ffm-heap",
    "checksum_ffmDirect": "simdjson-ffm-direct",
}
JVM_OPTIONS = ["--enable-native-access=ALL-UNNAMED", "--add-modules", "jdk.incubator.vector",
               "--sun-misc-unsafe-memory-access=allow"]



def mean_ci(values):
    """Mean and half-width of its 99.9% interval (JMH's)."""
    return report.mean_ci(values, 0.999)


def java():
    home = os.environ.get("JAVA_HOME", "/usr/lib/jvm/temurin-25-jdk-amd64")
    return os.path.join(home, "bin", "java")


def follow_jmh(cmd, label, **popen_args):
    """Runs a JMH command line, printing one progress line per benchmark run and any error.

    Returns (exit status, {method: [measured iteration scores]}), the scores read from JMH's
    own output for command lines that cannot write a result file.
    """
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, **popen_args)
    scores, current, method = {}, "", None
    for line in proc.stdout:
        if line.startswith("# Benchmark:"):
            method = line.split(":", 1)[1].strip().rsplit(".", 1)[-1]
            current = method
            scores.setdefault(method, [])
        elif line.startswith("# Parameters:"):
            current += " " + line.split(":", 1)[1].strip()
        elif line.startswith("# Run progress:"):
            report.progress("JMH %s: %s (%s)" % (label, current, line.split(":", 1)[1].strip().split(",")[0]))
        elif line.startswith("Iteration") and method:
            # "Iteration   3: 1234.5 ops/s"; sample-time modes print "n = ..." here instead.
            try:
                scores[method].append(float(line.split(":", 1)[1].split()[0]))
            except (IndexError, ValueError):
                pass
        elif "Exception" in line or "ERROR" in line:
            print(line.rstrip())
    return proc.wait(), scores


def run_jmh(jar, pattern, out_json, args, label):
    """Runs JMH with a JSON result file and returns its contents."""
    cmd = [java(), *JVM_OPTIONS, "-jar", jar, pattern, "-rf", "json", "-rff", out_json, *args]
    if follow_jmh(cmd, label)[0]:
        raise SystemExit("JMH %s failed" % label)
    with open(out_json) as f:
        return json.load(f)


def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def dataset_file(name, data, feed_dir):
    if name.startswith("vehicles-batch"):
        return os.path.join(feed_dir, name + ".ndjson")
    if name.endswith(".ndjson"):
        return os.path.join(data, "ndjson", name)
    return os.path.join(data, "jsonexamples", name)


def write_feed_batches(feed, feed_dir, records=4096):
    with open(feed, "rb") as f:
        lines = f.read().split(b"\n")
    for i in (1, 2):
        with open(os.path.join(feed_dir, "vehicles-batch-%d.ndjson" % i), "wb") as out:
            out.write(b"\n".join(lines[(i - 1) * records:i * records]) + b"\n")


def by_method(results):
    """{(method, dataset or None, threads): entry}."""
    out = {}
    for r in results:
        method = r["benchmark"].rsplit(".", 1)[-1]
        out[(method, r.get("params", {}).get("dataset"), r["threads"], r.get("params", {}).get("source"))] = r
    return out


def raw(entry):
    return [x for fork in entry["primaryMetric"]["rawData"] for x in fork]


def throughput_section(results, sizes, datasets):
    """Suite A: MB/s per dataset and engine (99.9% CI), and each engine's aggregate."""
    table = by_method(results)
    per_dataset = {}
    aggregate = {}
    for method, engine in ENGINES.items():
        per_dataset[engine] = {}
        iterations = None
        for d in datasets:
            e = table[(method, d, 1, None)]
            score, error = e["primaryMetric"]["score"], e["primaryMetric"]["scoreError"]
            per_dataset[engine][d] = {"mbps": score * sizes[d] / 1e6,
                                      "ci999": (error * sizes[d] / 1e6) if error == error else None}
            seconds = [1.0 / x for x in raw(e)]
            iterations = seconds if iterations is None else [a + b for a, b in zip(iterations, seconds)]
        total = sum(sizes[d] for d in datasets)
        m, ci = mean_ci([total / t / 1e6 for t in iterations])
        aggregate[engine] = {"mbps": m, "ci999": ci, "bytes": total, "per_iteration_seconds": iterations}
    return per_dataset, aggregate


def ratio(aggregate, a, b):
    """Engine a over engine b, per aligned measurement iteration: (mean, half-width of its 99.9%
    CI)."""
    ta, tb = aggregate[a]["per_iteration_seconds"], aggregate[b]["per_iteration_seconds"]
    return mean_ci([y / x for x, y in zip(ta, tb)])


def run(root, data, results, full):
    jar = os.path.join(root, "jvm", "jmh", "target", "benchmarks.jar")
    feed_dir = os.path.join(root, "build", "feed")
    os.makedirs(feed_dir, exist_ok=True)
    jmh_dir = os.path.join(results, "jmh")
    os.makedirs(jmh_dir, exist_ok=True)
    feed = os.path.join(feed_dir, "vehicles.ndjson")
    os.environ["SIMDBRIDGE_DATA"] = data
    os.environ["SIMDBRIDGE_FEED"] = feed

    report.progress("vehicle feed: vehicles.csv.zip -> NDJSON")
    subprocess.run([java(), *JVM_OPTIONS, "-cp", jar, "io.simdbridge.bench.feed.VehicleFeed", data, feed,
                    os.path.join(results, "feed_manifest.json")], check=True)
    write_feed_batches(feed, feed_dir)

    report.progress("equivalence gate: every engine on every dataset, the pipelines on two batches")
    gate = subprocess.run([java(), *JVM_OPTIONS, "-cp", jar, "io.simdbridge.bench.gate.EquivalenceGate", results])
    if gate.returncode:
        report.progress("the equivalence gate failed: see results/equivalence.json; nothing is measured")
        return 3

    names = json.load(open(os.path.join(results, "equivalence.json")))["datasets"]
    all_datasets = [d["name"] for d in names]
    datasets = all_datasets if full else QUICK_DATASETS
    sizes = {d["name"]: d["bytes"] for d in names}
    settings = ["-f", "3", "-wi", "5", "-w", "1s", "-i", "10", "-r", "1s"] if full else []
    params = ["-p", "dataset=" + ",".join(datasets)]

    # A's forks also count the bytes each operation allocates (-prof gc reads the thread's
    # allocation counter between iterations, not per operation), which C reports for a document
    # and an NDJSON batch: a run of its own took 31 s of the quick budget.
    a = run_jmh(jar, "ThroughputBenchmark", os.path.join(jmh_dir, "A-throughput.json"),
                settings + params + ["-prof", "gc"], "A throughput (and C, allocation)")
    b = run_jmh(jar, "BoundaryBenchmark", os.path.join(jmh_dir, "B-boundary.json"), settings, "B boundary")
    alloc_sets = ["twitter.json", "gharchive-2015-01-01-0.ndjson"] + (["canada.json"] if full else [])
    c = [r for r in a if r["params"]["dataset"] in alloc_sets]
    # simdjson-java warms up for 4 s a run (its own @Warmup): the quick run gives it A's table
    # only, and leaves it out of D and F (FULL=1 runs it everywhere).
    others = [] if full else ["-e", "checksum_simdjsonJava"]
    d = run_jmh(jar, "ThroughputBenchmark", os.path.join(jmh_dir, "D-latency.json"),
                settings + ["-p", "dataset=vehicles-batch-1", "-bm", "sample", "-tu", "us"] + others, "D latency")
    # Stages are differences of variants, which need the full run's samples: with the quick run's
    # 8 x 400 ms they fell below noise but the parse (65 s of its budget for one column).
    e = run_jmh(jar, "PipelineBenchmark", os.path.join(jmh_dir, "E-pipeline.json"), settings,
                "E pipeline stages") if full else None
    scale_sets = ["twitter.json", "vehicles-batch-1"]
    # One thread is A's run of these datasets (the same benchmark, settings and thread count, so
    # it is not run twice: a minute of the quick budget); two threads run here.
    f1 = [r for r in a if r["params"]["dataset"] in scale_sets]
    f2 = run_jmh(jar, "ThroughputBenchmark", os.path.join(jmh_dir, "F-scaling-2.json"),
                 settings + ["-p", "dataset=" + ",".join(scale_sets), "-t", "2"] + others, "F scaling, 2 threads")
    g = run_jmh(jar, "AcquisitionBenchmark", os.path.join(jmh_dir, "G-acquisition.json"), settings, "G acquisition")

    report.progress("the C++ core on the same files, for the JNI ratio")
    files = [dataset_file(n, data, feed_dir) for n in datasets]
    core = subprocess.run([os.path.join(root, "build", "bin", "simdbridge_bench"), "--json",
                           "--rounds", "30" if full else "10", *files], stdout=subprocess.PIPE, check=True)
    core_result = json.loads(core.stdout)
    report.write_json(os.path.join(results, "jvm_core_reference.json"), core_result)

    summary = summarize(a, b, c, d, e, f1, f2, g, core_result, datasets, sizes, full)
    summary["environment"] = environment(root, data, feed_dir, all_datasets)
    report.write_json(os.path.join(results, "environment.json"), summary["environment"])
    report.write_json(os.path.join(results, "summary.json"), summary)
    with open(os.path.join(results, "summary.md"), "w") as out:
        out.write(render_markdown(summary))
    charts(summary, results)
    for t in summary["targets"]:
        report.progress("JVM: %s: %.3fx ± %.3f (target %s) %s" % (t["what"], t["ratio"], t["ci999"], t["target"],
                                                                   t["verdict"]))
    return 0


def summarize(a, b, c, d, e, f1, f2, g, core, datasets, sizes, full):
    per_dataset, aggregate = throughput_section(a, sizes, datasets)
    core_bytes = core["aggregate"]["bytes"]
    core_mbps = core["aggregate"]["mbps"]["simdbridge-checksum"]
    jni = aggregate["simdjson-jni-direct"]
    r_core, r_core_ci = report.quotient(jni["mbps"], jni["ci999"], core_mbps["mean"], core_mbps["ci95"])
    # The suite's targets as every suite writes them (what, ratio, interval, target, verdict);
    # JMH's intervals are 99.9%.
    targets = []
    for what, (r, ci), goal, note in [
            ("simdjson-jni-direct / the C++ core, corpus aggregate", (r_core, r_core_ci), 0.9,
             "JMH aggregate (99.9%% CI) over the C++ core's (95%% CI, simdbridge_bench) on the same %d files "
             "(%d bytes each side)" % (len(datasets), core_bytes)),
            ("simdjson-jni-direct / jackson-stream, corpus aggregate",
             ratio(aggregate, "simdjson-jni-direct", "jackson-stream"), 5.5, None),
            ("simdjson-ffm-heap / simdjson-jni-copy, corpus aggregate",
             ratio(aggregate, "simdjson-ffm-heap", "simdjson-jni-copy"), 1.0, None)]:
        targets.append(dict(what=what, ratio=r, ci999=ci, target=goal, **report.judge(r, ci, goal),
                            **({"note": note} if note else {})))

    boundary = {}
    for entry in b:
        method = entry["benchmark"].rsplit(".", 1)[-1]
        boundary[method] = {"ns": entry["primaryMetric"]["score"], "ci999": entry["primaryMetric"]["scoreError"]}
    crossings = {"pipeline_batchExtractJni": 1, "pipeline_batchExtractFfm": 1,
                 "pipeline_fieldByFieldJni": 4096 * 15, "pipeline_fieldByFieldFfm": 4096 * 15}
    empty = {"Jni": boundary["crossing_jniEmpty"]["ns"], "Ffm": boundary["crossing_ffmEmpty"]["ns"]}
    shares = {}
    for method, n in crossings.items():
        cost = n * empty["Jni" if method.endswith("Jni") else "Ffm"]
        shares[method] = {"crossings_per_batch": n, "pipeline_ms": boundary[method]["ns"] / 1e6,
                          "crossing_share": cost / boundary[method]["ns"]}

    allocation = {}
    for entry in c:
        method = entry["benchmark"].rsplit(".", 1)[-1]
        norm = entry["secondaryMetrics"].get("·gc.alloc.rate.norm") or entry["secondaryMetrics"].get("gc.alloc.rate.norm")
        allocation.setdefault(ENGINES[method], {})[entry["params"]["dataset"]] = {
            "bytes_per_op": norm["score"], "ci999": norm["scoreError"]}

    latency = {}
    for entry in d:
        method = entry["benchmark"].rsplit(".", 1)[-1]
        p = entry["primaryMetric"]["scorePercentiles"]
        latency[ENGINES[method]] = {"unit": entry["primaryMetric"]["scoreUnit"], "p50": p["50.0"], "p99": p["99.0"],
                                    "p99.9": p["99.9"], "max": p["100.0"]}

    stages = {}
    pipeline_times = {}
    for entry in e or []:
        method = entry["benchmark"].rsplit(".", 1)[-1]
        variant, pipeline = method.split("_", 1)
        pipeline_times.setdefault(pipeline, {})[variant] = (entry["primaryMetric"]["score"], entry["primaryMetric"]["scoreError"])
    for pipeline, v in pipeline_times.items():
        parse, pm, full_run = v["parse"], v["parseMap"], v["parseMapValidate"]
        def stage(x, y=None):
            if y is None:
                value, ci = x
            else:
                value, ci = y[0] - x[0], math.sqrt(x[1] ** 2 + y[1] ** 2)
            entry = {"us": value, "ci999": ci, "share": value / full_run[0]}
            if abs(value) < ci:
                entry = {"below_noise": True, "ci999": ci, "us": None, "share": None}
            return entry
        stages[pipeline] = {"total_us": full_run[0], "total_ci999": full_run[1],
                            "parse": stage(parse), "map": stage(parse, pm), "validate": stage(pm, full_run)}

    scaling = {}
    t1, t2 = by_method(f1), by_method(f2)
    for (method, dataset, _, _), entry in t1.items():
        two = t2.get((method, dataset, 2, None))
        if two is None:  # an engine the quick run leaves out of F
            continue
        scaling.setdefault(ENGINES[method], {})[dataset] = {
            "one_thread_mbps": entry["primaryMetric"]["score"] * sizes[dataset] / 1e6,
            "two_threads_mbps": two["primaryMetric"]["score"] * sizes[dataset] / 1e6,
            "speedup": two["primaryMetric"]["score"] / entry["primaryMetric"]["score"]}

    acquisition = {}
    for entry in g:
        method = entry["benchmark"].rsplit(".", 1)[-1]
        acquisition.setdefault(entry["params"]["source"], {})[method] = {
            "us": entry["primaryMetric"]["score"], "ci999": entry["primaryMetric"]["scoreError"]}

    return {
        "settings": "full: 3 forks, 5 x 1 s warmup, 10 x 1 s measurement" if full else
                    "quick: 1 fork, 2 x 300 ms warmup (simdjson-java 4 x 1 s, in A only), 6 x 200 ms measurement; datasets: " + ", ".join(datasets),
        "A_throughput": {"method": "JMH Throughput, ops/s x bytes = MB/s; CI is JMH's 99.9% interval; the aggregate is total bytes over total time per measurement iteration, mean and 99.9% CI over iterations",
                         "per_dataset": per_dataset,
                         "aggregate": {k: {x: y for x, y in v.items() if x != "per_iteration_seconds"} for k, v in aggregate.items()},
                         "cpp_core_same_files": {"mbps": core_mbps["mean"], "ci95": core_mbps["ci95"]}},
        "targets": targets,
        "B_boundary": {"method": "JMH AverageTime. Crossing share = crossings per 4,096-record batch x the empty crossing's cost / the pipeline's time",
                       "crossings_ns": {k: v for k, v in boundary.items() if k.startswith("crossing")},
                       "pipelines": shares},
        "C_allocation": {"method": "JMH -prof gc, gc.alloc.rate.norm: Java heap bytes allocated per checksum", "per_engine": allocation},
        "D_latency": {"method": "JMH SampleTime on a 4,096-record vehicle batch (vehicles-batch-1)", "per_engine": latency},
        "E_stages": {"method": "JMH AverageTime of three variants per pipeline on vehicles-batch-1: parse; parse+map; parse+map+validate. A stage is the difference of two variants, its CI the root of the sum of their squared 99.9% CIs; smaller than its CI, it is below noise and gets no value",
                     "pipelines": stages},
        "F_scaling": {"method": "JMH Throughput with 2 threads (-t 2), each thread its own parser, over the same engine's 1-thread score in A; 2 cores", "per_engine": scaling},
        "G_acquisition": {"method": "JMH AverageTime of acquiring twitter.json from a file or a loopback socket into each engine's form, plus the checksum", "per_source": acquisition},
    }


def environment(root, data, feed_dir, datasets):
    version = subprocess.run([java(), "-version"], stderr=subprocess.PIPE, text=True).stderr.strip().splitlines()
    gxx = subprocess.run(["g++", "--version"], stdout=subprocess.PIPE, text=True).stdout.splitlines()[0]
    cli = subprocess.run([os.path.join(root, "build", "bin", "simdbridge"), "version"], stdout=subprocess.PIPE, text=True).stdout.strip()
    m = re.search(r"simdjson ([^,]+), (\w+) kernel", cli)
    cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), "unknown")
    files = {}
    for name in datasets:
        path = dataset_file(name, data, feed_dir)
        files[name] = {"bytes": os.path.getsize(path), "sha256": sha256(path)}
    return {"jdk": version, "compiler": gxx, "cpu": cpu, "cores": os.cpu_count(),
            "simdjson": m.group(1) if m else cli, "simdjson_implementation": m.group(2) if m else "unknown",
            "simdbridge": cli, "datasets": files}


def render_markdown(s):
    a = s["A_throughput"]
    engines = list(a["aggregate"])
    out = ["# JVM suites\n", "Settings: %s.\n" % s["settings"]]
    out.append("## Targets\n")
    rows = [[t["what"], "%.3f ± %.3f" % (t["ratio"], t["ci999"]), t["target"], report.emphasized(t["verdict"])]
            for t in s["targets"]]
    out.append(report.markdown_table(["ratio", "measured", "target", ""], rows))
    out.append("\nC++ core on the same files: %.0f MB/s.\n" % a["cpp_core_same_files"]["mbps"])
    out.append("\n## A. Throughput (MB/s, 99.9%% CI)\n\n%s\n" % a["method"])
    datasets = list(next(iter(a["per_dataset"].values())))
    rows = []
    for d in datasets:
        rows.append([d] + ["%.0f ± %.0f" % (a["per_dataset"][e][d]["mbps"], a["per_dataset"][e][d]["ci999"] or 0) for e in engines])
    rows.append(["**aggregate**"] + ["%.0f ± %.0f" % (a["aggregate"][e]["mbps"], a["aggregate"][e]["ci999"]) for e in engines])
    out.append(report.markdown_table(["dataset"] + engines, rows))
    b = s["B_boundary"]
    out.append("\n## B. Boundary cost\n\n%s\n\n" % b["method"])
    out.append(report.markdown_table(["crossing", "ns"], [[k, "%.2f ± %.2f" % (v["ns"], v["ci999"])] for k, v in b["crossings_ns"].items()]))
    out.append("\n" + report.markdown_table(["pipeline (vehicles-batch-1)", "crossings/batch", "ms/batch", "crossing share"],
                                            [[k, v["crossings_per_batch"], "%.2f" % v["pipeline_ms"], "%.1f%%" % (100 * v["crossing_share"])] for k, v in b["pipelines"].items()]))
    c = s["C_allocation"]["per_engine"]
    out.append("\n## C. Java heap allocated per checksum (bytes/op)\n\n")
    sets = sorted({d for v in c.values() for d in v})
    out.append(report.markdown_table(["engine"] + sets, [[e] + ["%.0f" % c[e][d]["bytes_per_op"] for d in sets] for e in c]))
    dl = s["D_latency"]["per_engine"]
    out.append("\n## D. Per-batch latency, vehicles-batch-1 (%s)\n\n" % next(iter(dl.values()))["unit"])
    out.append(report.markdown_table(["engine", "p50", "p99", "p99.9"], [[e, "%.0f" % v["p50"], "%.0f" % v["p99"], "%.0f" % v["p99.9"]] for e, v in dl.items()]))
    st = s["E_stages"]["pipelines"]
    out.append("\n## E. Pipeline stages (µs per 4,096-record batch)\n\n%s\n\n" % s["E_stages"]["method"])
    def cell(x):
        return "below noise (± %.0f)" % x["ci999"] if x.get("below_noise") else "%.0f (%.0f%%)" % (x["us"], 100 * x["share"])
    if not st:
        out.append("Measured with FULL=1 only.\n")
    else:
        out.append(report.markdown_table(["pipeline", "total", "parse", "map", "validate"],
                                         [[p, "%.0f ± %.0f" % (v["total_us"], v["total_ci999"]), cell(v["parse"]),
                                           cell(v["map"]), cell(v["validate"])] for p, v in st.items()]))
    f = s["F_scaling"]["per_engine"]
    out.append("\n## F. Scaling on 1 and 2 threads (speedup)\n\n")
    sets = sorted({d for v in f.values() for d in v})
    out.append(report.markdown_table(["engine"] + sets, [[e] + ["%.2fx" % f[e][d]["speedup"] for d in sets] for e in f]))
    g = s["G_acquisition"]["per_source"]
    out.append("\n## G. Acquisition + checksum, twitter.json (µs)\n\n")
    methods = sorted({m for v in g.values() for m in v})
    out.append(report.markdown_table(["path"] + list(g), [[m] + ["%.0f ± %.0f" % (g[src][m]["us"], g[src][m]["ci999"]) for src in g] for m in methods]))
    return "".join(out)


def charts(s, results):
    a = s["A_throughput"]
    engines = list(a["aggregate"])
    datasets = list(next(iter(a["per_dataset"].values()))) + ["aggregate"]
    values = {e: [a["per_dataset"][e][d]["mbps"] for d in datasets[:-1]] + [a["aggregate"][e]["mbps"]] for e in engines}
    errors = {e: [a["per_dataset"][e][d]["ci999"] or 0 for d in datasets[:-1]] + [a["aggregate"][e]["ci999"]] for e in engines}
    report.bar_chart(os.path.join(results, "jvm_throughput.png"), "JVM: checksum throughput (MB/s, 99.9% CI)",
                     datasets, values, "MB/s (log)", errors=errors, log=True)
    dl = s["D_latency"]["per_engine"]
    report.bar_chart(os.path.join(results, "jvm_latency.png"), "JVM: per-batch latency, vehicles-batch-1",
                     ["p50", "p99", "p99.9"], {e: [v["p50"], v["p99"], v["p99.9"]] for e, v in dl.items()},
                     next(iter(dl.values()))["unit"] + " (log)", log=True)
