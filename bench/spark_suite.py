# SPDX-License-Identifier: Apache-2.0
"""The Spark suite (issue: Spark data source): spark.read.format("simdbridge") against Spark's
own JSON source with the same schema, and Spark reading the same data from Parquet (the
ceiling), in local[2] with the default heap.

Data (generated once, cached under build/bench-data/spark/): the flat records of the Arrow suite
(bench/make_flat_ndjson.py, fixed seed) and GH Archive events (the corpus's hour repeated),
each DATA_MB megabytes (512 MB together in the quick run, 2 GB with FULL=1). The GH Archive
schema is the one Spark infers from the corpus's hour.

Queries, timed end to end from files to result: count(); a projection of three columns grouped
by one with two aggregates; a full read of every column into Spark's no-op sink. The gate comes
first (bench SparkBench): both JSON readers must give the same count, the same aggregate rows
and the same checksum over every column of every row, or nothing is measured. Then ROUNDS
rounds (after one to warm up), the three engines taking turns within each query; a ratio is
computed per round and averaged, with 95% intervals (Student's t).

Writes results/spark.json (with a targets list), results/spark.md and results/spark.png.
"""
import json
import os
import subprocess
import sys

import report

# The quick run reads 256 MB a data set: 512 MB took 100 s more of its 25 minutes, most of it in
# the queries themselves.
QUICK = dict(rounds=3, data_mb=256)
FULL = dict(rounds=7, data_mb=1024)

FLAT_SCHEMA = {"type": "struct", "fields": [
    {"name": n, "type": t, "nullable": True, "metadata": {}} for n, t in [
        ("id", "long"), ("user_id", "long"), ("score", "double"), ("ratio", "double"), ("active", "boolean"),
        ("flag", "boolean"), ("name", "string"), ("city", "string"), ("ts", "timestamp")]]}

# (data set, group column, two aggregated columns)
QUERIES = {"flat": ("city", "name", "score"), "gharchive": ("type", "actor.login", "repo.id")}


def java_command(root):
    spark = os.path.join(root, "jvm", "spark")
    with open(os.path.join(spark, "target", "classpath.txt")) as f:
        classpath = ":".join([os.path.join(spark, "target", "classes"), os.path.join(spark, "target", "test-classes"),
                              f.read().strip()])
    opens = ["java.lang", "java.lang.invoke", "java.lang.reflect", "java.io", "java.net", "java.nio", "java.util",
             "java.util.concurrent", "java.util.concurrent.atomic", "jdk.internal.ref", "sun.nio.ch", "sun.nio.cs",
             "sun.util.calendar"]
    java = os.path.join(os.environ.get("JAVA_HOME", "/usr/lib/jvm/temurin-25-jdk-amd64"), "bin", "java")
    return ([java, "--enable-native-access=ALL-UNNAMED", "--sun-misc-unsafe-memory-access=allow",
             "-Djdk.reflect.useDirectMethodHandle=false"]
            + ["--add-opens=java.base/%s=ALL-UNNAMED" % p for p in opens]
            + ["-cp", classpath, "io.simdbridge.spark.bench.SparkBench"])


def make_data(root, data, cache, megabytes):
    flat = os.path.join(cache, "flat-%dmb.ndjson" % megabytes)
    if not os.path.exists(flat):
        report.progress("spark: writing %s (fixed seed)" % flat)
        subprocess.run([sys.executable, os.path.join(root, "bench", "make_flat_ndjson.py"), flat + ".tmp",
                        str(megabytes)], check=True)
        os.replace(flat + ".tmp", flat)
    hour = os.path.join(data, "ndjson", "gharchive-2015-01-01-0.ndjson")
    gh = os.path.join(cache, "gharchive-%dmb.ndjson" % megabytes)
    if not os.path.exists(gh):
        report.progress("spark: writing %s (the corpus's hour, repeated)" % gh)
        with open(hour, "rb") as f:
            events = f.read()
        with open(gh + ".tmp", "wb") as out:
            written = 0
            while written < megabytes << 20:
                out.write(events)
                written += len(events)
        os.replace(gh + ".tmp", gh)
    return {"flat": flat, "gharchive": gh}, hour


def run(root, data, results, full):
    settings = FULL if full else QUICK
    cache = os.path.join(root, "build", "bench-data", "spark")
    os.makedirs(cache, exist_ok=True)
    files, hour = make_data(root, data, cache, settings["data_mb"])
    schema_file = os.path.join(cache, "flat-schema.json")
    with open(schema_file, "w") as f:
        json.dump(FLAT_SCHEMA, f)
    runs = {}
    for name, path in files.items():
        group, agg1, agg2 = QUERIES[name]
        out = os.path.join(cache, "%s-seconds.json" % name)
        schema = schema_file if name == "flat" else "infer:" + hour
        parquet = os.path.join(cache, "%s-%dmb.parquet" % (name, settings["data_mb"]))
        report.progress("spark: %s (%d MB), %d rounds" % (name, os.path.getsize(path) >> 20, settings["rounds"]))
        proc = subprocess.run(java_command(root) + [path, schema, parquet, str(settings["rounds"]), group, agg1, agg2,
                                                    out])
        if proc.returncode:
            return proc.returncode
        with open(out) as f:
            runs[name] = json.load(f)
        runs[name]["bytes"] = os.path.getsize(path)
    report.publish(results, "spark", summarize(runs, settings), write_markdown, chart)
    return 0


def per_round(theirs, ours):
    return report.mean_ci([t / o for t, o in zip(theirs, ours)])


def summarize(runs, settings):
    first = next(iter(runs.values()))
    out = {"settings": settings, "runs": runs, "seconds": {}, "targets": [],
           "environment": {k: first.get(k) for k in ("spark", "simdjson", "kernel")}}
    for name, r in runs.items():
        for query, engines in r["seconds"].items():
            out["seconds"]["%s, %s" % (name, query)] = {e: report.mean_ci(s) for e, s in engines.items()}

    def target(what, ratio_ci, goal, at_most=False):
        report.add_target(out, what, ratio_ci, goal, at_most)

    for name, r in runs.items():
        s = r["seconds"]
        target("%s, projection: simdbridge / Spark JSON" % name, per_round(s["projection"]["spark-json"],
                                                                           s["projection"]["simdbridge"]), 3.0)
        target("%s, full read: simdbridge / Spark JSON" % name, per_round(s["full read"]["spark-json"],
                                                                          s["full read"]["simdbridge"]), 2.0)
        target("%s, projection: simdbridge's time / Parquet's" % name,
               per_round(s["projection"]["simdbridge"], s["projection"]["parquet"]), 2.0, at_most=True)
        target("%s, count: simdbridge / Spark JSON" % name, per_round(s["count"]["spark-json"], s["count"]["simdbridge"]),
               1.0)
    return out


def write_markdown(path, out):
    engines = ["simdbridge", "spark-json", "parquet"]
    lines = ["# Spark: format(\"simdbridge\") against Spark's JSON source and Parquet\n",
             "Spark %s, local[2], default heap; simdjson %s (%s kernel); %d MB of NDJSON per data set; %d rounds "
             "after one warm-up; 95%% intervals over rounds. Ratios are per round: the peer's time over simdbridge's "
             "(for Parquet, simdbridge's time over Parquet's: a cost).\n"
             % (out["environment"]["spark"], out["environment"]["simdjson"], out["environment"]["kernel"],
                out["settings"]["data_mb"], out["settings"]["rounds"]),
             "## Targets\n",
             report.markdown_table(["what", "measured", "target", ""],
                                   [[t["what"], "%.2fx ± %.2f" % (t["ratio"], t["ci95"]),
                                     ("≤ %.2f" if "Parquet" in t["what"] else "≥ %.2fx") % t["target"],
                                     report.emphasized(t["verdict"])] for t in out["targets"]]),
             "## Seconds, end to end\n",
             report.markdown_table(["data set, query"] + engines,
                                   [[case] + ["%.2f ± %.2f" % tuple(per[e]) for e in engines]
                                    for case, per in out["seconds"].items()])]
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


def chart(path, out):
    engines = ["simdbridge", "spark-json", "parquet"]
    categories = list(out["seconds"])
    series = {e: [out["seconds"][c][e][0] for c in categories] for e in engines}
    errors = {e: [out["seconds"][c][e][1] for c in categories] for e in engines}
    report.bar_chart(path, "Spark queries over NDJSON (seconds, lower is better)", categories, series, "s", errors)
