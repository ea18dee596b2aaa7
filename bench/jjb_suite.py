# SPDX-License-Identifier: Apache-2.0
"""java-json-benchmark's own harness (issue: Java data binding): simdbridge added to that project's
JMH benchmarks beside fastjson2, run as its `run` script runs them, to check the databind suite's
verdicts in the peers' own harness.

The harness is that project's code, at a pinned commit: its Users model (private fields,
accessors), its data generator, its fastjson2 configurations ("fastjson" and
"fastjson_features", its own reader and writer providers), its JMH settings (one library per
fork; the full run: its defaults, 2 forks, 5 warmup iterations of 10 s and 10 of 3 s measured;
the quick run: 1 fork, 3 and 5) and its JVM options (-Xms2g -Xmx2g). Nothing of it is kept in
this repository: the sources come from JJB_SRC (a checkout or an extracted archive), else from
GitHub's archive of the pinned commit, cached under build/jjb/. Where neither is at hand, the
suite says so and measures nothing.

What is added to a copy of its sources (prepare()): a SIMDBRIDGE library, with a read
(`Json.read(bytes, type)`) and a write (`Json.write(pojo, out)` into its ByteArrayOutputStream),
written as its fastjson methods are; the gate (bench/jjb/JjbGate.java). It is built with Maven
(bench/jjb/pom.xml), because its Gradle wrapper's distribution cannot be fetched here.

The gate comes first: every library must read objects equal to the payload's and write JSON that
Jackson reads back equal, or nothing is measured. The harness's `run` draws one SEED per
invocation, shared by every fork and library of it, and reads one payload (its default,
--number 1): a run measures one payload's shape. At 1 KB that is one or two users, and the
shapes differ a lot from seed to seed (SEED 1: no tags and 7 friends; 2: 14 tags and 4 friends;
3: 36 tags and no friends), and so do the ratios. So the suite runs the fixed seeds 1, 2 and 3
at 1 KB, and at 100 KB (about 45 users, where the shapes average out) the first of them in the
quick run and all three in the full one, and reports each.

Writes results/jjb.json (with a targets list), results/jjb.md and results/jjb.png. A ratio's
interval (95%) comes from the two libraries' measured iterations (Student's t, the relative
half-widths combined in quadrature); the forks of one library run minutes apart from the
other's, so the machine's drift is in it only as far as it moves within a fork.
"""
import os
import re
import shutil
import subprocess
import tarfile
import urllib.request

import jvm_suite
import report

PINNED = "6023efb6c8d2b17b7fea78c286add5fb14b7303f"
ARCHIVE = "https://codeload.github.com/fabienrenaud/java-json-benchmark/tar.gz/" + PINNED
SEEDS = ["1", "2", "3"]
SIZES = [1, 100]
# The harness's method names: its --libs fastjson selects both fastjson2 configurations.
LIBRARIES = ["fastjson", "fastjson_features", "simdbridge"]
PEERS = ["fastjson", "fastjson_features"]
QUICK = ["-f", "1", "-wi", "3", "-i", "5"]
FULL = []  # the harness's defaults
# The harness's `run` script: its JVM options.
HARNESS_JVM = ["-server", "-Xms2g", "-Xmx2g", "--add-opens=java.base/java.time=ALL-UNNAMED",
               "--add-modules=jdk.incubator.vector"]
PACKAGE = os.path.join("src", "main", "java", "com", "github", "fabienrenaud", "jjb")
TITLE = "# java-json-benchmark's own harness, simdbridge added\n"


def target_ratio(mode, kb):
    """The issue's targets: reads 1.2x fastjson2 at 1 KB and 1.5x at 100 KB, writes 1.2x at both."""
    return 1.5 if mode == "deser" and kb >= 100 else 1.2


def sources(root):
    """The harness's source tree: JJB_SRC, else the pinned archive (downloaded once). None if neither."""
    given = os.environ.get("JJB_SRC")
    if given:
        if not os.path.isdir(os.path.join(given, PACKAGE)):
            raise SystemExit("JJB_SRC=%s holds no %s" % (given, PACKAGE))
        return given
    cache = os.path.join(root, "build", "jjb", "java-json-benchmark-" + PINNED)
    if os.path.isdir(os.path.join(cache, PACKAGE)):
        return cache
    archive = cache + ".tar.gz"
    try:
        request = urllib.request.Request(ARCHIVE, headers={"User-Agent": "simdbridge-bench"})
        with urllib.request.urlopen(request, timeout=60) as response, open(archive + ".part", "wb") as f:
            shutil.copyfileobj(response, f)
        os.replace(archive + ".part", archive)
    except OSError as e:
        report.progress("jjb: java-json-benchmark's sources are not at hand (JJB_SRC unset; %s: %s)" % (ARCHIVE, e))
        return None
    with tarfile.open(archive) as tar:
        # The archive's one folder is java-json-benchmark-<commit>: the cache's name.
        tar.extractall(os.path.dirname(cache), **({"filter": "data"} if hasattr(tarfile, "data_filter") else {}))
    return cache


def edit(path, pattern, replacement):
    """Replaces pattern (a regex) in path; the harness is pinned, so a pattern that does not match is
    an error, not something to skip."""
    with open(path) as f:
        text = f.read()
    text, n = re.subn(pattern, replacement, text, flags=re.S)
    if n != 1:
        raise SystemExit("jjb: %s: expected one match of %r, found %d" % (path, pattern, n))
    with open(path, "w") as f:
        f.write(text)


def method(name, body):
    return "    @Benchmark\n    @Override\n    public Object %s() throws Exception {\n%s    }\n" % (name, body)


def prepare(src, work, root):
    """A copy of the harness's sources with simdbridge added, djomo removed (Maven Central does not
    serve it) and the gate."""
    shutil.rmtree(os.path.join(work, "src"), ignore_errors=True)
    shutil.copytree(os.path.join(src, "src", "main"), os.path.join(work, "src", "main"))
    jjb = os.path.join(work, PACKAGE)
    edit(os.path.join(jjb, "support", "Library.java"), r"\bDJOMO;", "SIMDBRIDGE;")
    # Users only: the Clients payload is not a target. djomo leaves both lists.
    support = os.path.join(jjb, "support", "BenchSupport.java")
    edit(support, r"new Libapi\(Library\.DJOMO, Api\.DATABIND\)(\s*\),\s*CLIENTS)",
         r"new Libapi(Library.SIMDBRIDGE, Api.DATABIND)\1")
    edit(support, r",\s*new Libapi\(Library\.DJOMO, Api\.DATABIND\)(\s*\);)", r"\1")
    edit(os.path.join(jjb, "provider", "JsonProvider.java"), r"\n    com\.bigcloud\.djomo\.Json djomo\(\);\n", "\n")
    for provider in ("UsersJsonProvider.java", "ClientsJsonProvider.java"):
        path = os.path.join(jjb, "provider", provider)
        edit(path, r"\n    private final com\.bigcloud\.djomo\.Json djomo = new com\.bigcloud\.djomo\.Json\(\);\n", "\n")
        edit(path, r"\n    @Override\n    public com\.bigcloud\.djomo\.Json djomo\(\) \{\n        return djomo;\n    \}\n", "\n")
    edit(os.path.join(jjb, "JsonBench.java"), r"public Object djomo\(\) throws Exception \{",
         "public Object simdbridge() throws Exception {")
    edit(os.path.join(jjb, "databind", "Deserialization.java"),
         r"    @Benchmark\n    @Override\n    public Object djomo\(\).*?\n    \}\n",
         method("simdbridge", "        return io.simdbridge.json.Json.read(JSON_SOURCE().nextByteArray(), "
                              "JSON_SOURCE().pojoType());\n"))
    edit(os.path.join(jjb, "databind", "Serialization.java"),
         r"    @Benchmark\n    @Override\n    public Object djomo\(\).*?\n    \}\n",
         method("simdbridge", "        ByteArrayOutputStream baos = JsonUtils.byteArrayOutputStream();\n"
                              "        io.simdbridge.json.Json.write(JSON_SOURCE().nextPojo(), baos);\n"
                              "        return baos;\n"))
    gate = os.path.join(work, "src", "main", "java", "io", "simdbridge", "bench", "jjb")
    os.makedirs(gate, exist_ok=True)
    shutil.copy(os.path.join(root, "bench", "jjb", "JjbGate.java"), gate)


def harness(java, classpath, run_dir, args, label, seed):
    """Runs the harness's command line; returns {method: [measured iteration scores, ops/s]}."""
    cmd = [java, *HARNESS_JVM, "-cp", classpath, "com.github.fabienrenaud.jjb.Cli", *args]
    status, scores = jvm_suite.follow_jmh(cmd, "jjb " + label, cwd=run_dir, env=dict(os.environ, SEED=seed))
    if status or not any(scores.values()):
        raise SystemExit("jjb: the harness failed (%s)" % label)
    return scores


def run(root, data, results, full):
    src = sources(root)
    if src is None:
        # Every file of the suite is rewritten, so that no figure from an earlier run stays beside it.
        why = ("java-json-benchmark's sources are not at hand: set JJB_SRC to a checkout of "
               "fabienrenaud/java-json-benchmark at " + PINNED)
        report.write_json(os.path.join(results, "jjb.json"), {"skipped": why, "targets": []})
        with open(os.path.join(results, "jjb.md"), "w") as f:
            f.write("%s\nNot run: %s.\n" % (TITLE, why))
        if os.path.exists(os.path.join(results, "jjb.png")):
            os.remove(os.path.join(results, "jjb.png"))
        return 0
    work = os.path.join(root, "build", "jjb", "work")
    run_dir = os.path.join(work, "run")
    os.makedirs(run_dir, exist_ok=True)
    report.progress("jjb: java-json-benchmark from %s, simdbridge added, built with Maven" % src)
    prepare(src, work, root)
    pom = os.path.join(root, "bench", "jjb", "pom.xml")
    cp_file = os.path.join(work, "classpath.txt")
    subprocess.run(["mvn", "-B", "-q", "-Dstyle.color=never", "-f", pom, "-Djjb.dir=" + work, "compile",
                    "dependency:build-classpath", "-Dmdep.outputFile=" + cp_file], check=True)
    with open(cp_file) as f:
        classpath = os.path.join(work, "target", "classes") + os.pathsep + f.read().strip()
    java = jvm_suite.java()

    runs = [(kb, seed) for kb in SIZES for seed in (SEEDS if kb < 100 or full else SEEDS[:1])]
    for kb, seed in runs:
        gate = subprocess.run([java, *HARNESS_JVM, "-cp", classpath, "io.simdbridge.bench.jjb.JjbGate", str(kb),
                               *LIBRARIES], cwd=run_dir, env=dict(os.environ, SEED=seed))
        if gate.returncode:
            return gate.returncode

    settings = FULL if full else QUICK
    out = {"harness": "java-json-benchmark " + PINNED, "source": src, "seeds": SEEDS,
           "settings": settings or ["(the harness's defaults: -f 2 -wi 5 -i 10 -m 3)"], "jvm": HARNESS_JVM,
           "ops_per_s": {}, "targets": []}
    for kb, seed in runs:
        for mode in ("deser", "ser"):
            label = "%s %d KB, seed %s" % ("reads" if mode == "deser" else "writes", kb, seed)
            scores = harness(java, classpath, run_dir, settings + [mode, "--libs", "fastjson,simdbridge",
                                                                    "--apis", "databind", "--size", str(kb)],
                             label, seed)
            stats = {lib: report.mean_ci(scores[lib], 0.95) for lib in LIBRARIES}
            out["ops_per_s"][label] = {lib: {"mean": m, "ci95": h, "iterations": scores[lib]}
                                       for lib, (m, h) in stats.items()}
            for peer in PEERS:
                report.add_target(out, "%s: simdbridge / %s (java-json-benchmark's harness)" % (label, peer),
                                  report.quotient(*stats["simdbridge"], *stats[peer]), target_ratio(mode, kb))
    out["method"] = ("java-json-benchmark at %s, its JMH benchmarks and command line, one payload per run, seeds %s; "
                     "simdbridge added as its fastjson methods are written; a ratio of the means of the measured "
                     "iterations, 95%% interval" % (PINNED, ", ".join(out["seeds"])))
    report.publish(results, "jjb", out, write_markdown, chart)
    return 0


def write_markdown(path, out):
    rows = [[label] + ["%.0f ± %.0f" % (v[lib]["mean"], v[lib]["ci95"]) for lib in LIBRARIES]
            for label, v in out["ops_per_s"].items()]
    lines = [TITLE,
             "Harness: %s, seeds %s; JMH settings `%s`; JVM `%s`.\n" % (
                 out["harness"], ", ".join(out["seeds"]), " ".join(out["settings"]), " ".join(out["jvm"])),
             "## Targets\n",
             report.markdown_table(["what", "ratio (95%)", "target", ""],
                                   [[t["what"], "%.2fx ± %.2f" % (t["ratio"], t["ci95"]), "%.1fx" % t["target"],
                                     report.emphasized(t["verdict"])] for t in out["targets"]]),
             "\n## Throughput (ops/s, mean of the measured iterations, 95%)\n",
             report.markdown_table(["payload"] + LIBRARIES, rows),
             "\nMethod: %s.\n" % out["method"]]
    with open(path, "w") as f:
        f.write("\n".join(lines))


def chart(path, out):
    labels = list(out["ops_per_s"])
    series = {lib: [out["ops_per_s"][l][lib]["mean"] / out["ops_per_s"][l]["fastjson"]["mean"] for l in labels]
              for lib in LIBRARIES}
    report.bar_chart(path, "java-json-benchmark's harness: throughput relative to fastjson2 (higher is better)",
                     labels, series, "x fastjson2")
