# SPDX-License-Identifier: Apache-2.0
"""The Arrow suite (issue: NDJSON to Arrow): simdbridge's loads_arrow / load_arrow_file and
dumpb_arrow against pyarrow.json.read_json, polars.read_ndjson / write_ndjson and DuckDB's
read_json / COPY ... TO, side by side, on one thread and on two.

Files: the corpus's GH Archive hour (18 MB of events) and a flat file of 9 scalar fields that
bench/make_flat_ndjson.py writes from a fixed seed (100 MB, 400 MB with FULL=1; cached under
build/). Cases: read with the full schema, with a 6-field projection, and inferring the schema;
write the flat table back as NDJSON.

The gate comes first: on every file, the tables that simdbridge, pyarrow and polars read with
the schema (and DuckDB's) are compared cell by cell, and the run stops on a difference. Peers
whose inference fails on a file (pyarrow and polars on the GH Archive hour) are reported as
failing there, not timed.

Timing: each configuration of threads runs in a process of its own (polars fixes its pool at
import), the engines taking turns within a round, their order rotating; ROUNDS rounds; GB/s of
NDJSON read or written, 95% intervals (Student's t over rounds); a ratio is computed per round
and averaged. simdbridge's scaling (2 threads / 1 thread) is measured side by side in the
two-thread process, where simdbridge on one thread ("simdbridge-1-thread") takes its turn in
each round of the flat file with its schema: across the two processes, the machine's drift from
one to the next gave intervals as wide as the ratio. Peak memory: simdbridge reading the flat
file with its schema in a new process, the growth of its peak resident size against the Arrow
data plus the input.

Writes results/arrow.json (with a targets list), results/arrow.md and results/arrow.png.
"""
import json
import os
import subprocess
import sys
import time

import report

# The quick run's flat file is 100 MB (200 MB took 120 s more of its 25 minutes): a hundred of
# the reader's 1 MB blocks, enough for two threads.
QUICK = dict(rounds=3, flat_mb=100)
FULL = dict(rounds=7, flat_mb=400)
THREADS = (1, 2)
# The case on which simdbridge's two threads are timed beside its one.
SCALING_CASE = "flat, schema"

FLAT_FIELDS = [("id", "int64"), ("user_id", "int64"), ("score", "float64"), ("ratio", "float64"), ("active", "bool"),
               ("flag", "bool"), ("name", "string"), ("city", "string"), ("ts", "timestamp[us]")]
FLAT_PROJECTION = ["id", "score", "active", "name", "city", "ts"]


def pa_schema(pa, names=None):
    types = {"int64": pa.int64(), "float64": pa.float64(), "bool": pa.bool_(), "string": pa.string(),
             "timestamp[us]": pa.timestamp("us")}
    return pa.schema([(n, types[t]) for n, t in FLAT_FIELDS if names is None or n in names])


def gh_schema(pa):
    return pa.schema([("id", pa.string()), ("type", pa.string()),
                      ("actor", pa.struct([("id", pa.int64()), ("login", pa.string())])),
                      ("repo", pa.struct([("id", pa.int64()), ("name", pa.string())])),
                      ("public", pa.bool_()), ("created_at", pa.string())])


def polars_schema(pl, schema):
    """The polars schema for a pyarrow one."""
    return pl.from_arrow(schema.empty_table()).schema


def duckdb_columns(schema):
    import pyarrow as pa

    def sql(t):
        if pa.types.is_struct(t):
            return "STRUCT(%s)" % ", ".join('"%s" %s' % (f.name, sql(f.type)) for f in t)
        return {pa.int64(): "BIGINT", pa.float64(): "DOUBLE", pa.bool_(): "BOOLEAN", pa.string(): "VARCHAR",
                pa.timestamp("us"): "TIMESTAMP"}[t]
    return "{%s}" % ", ".join("'%s': '%s'" % (f.name, sql(f.type)) for f in schema)


# --- one process: one thread count ---------------------------------------------------------------

def readers(threads, pa, pajson, pl, duckdb, simdbridge):
    """name -> (path, schema or None) -> a pyarrow Table (for the gate) or anything (timed)."""
    con = duckdb.connect()
    con.execute("SET threads TO %d" % threads)
    pa.set_cpu_count(threads)
    pa.set_io_thread_count(threads)

    def pyarrow_read(path, schema):
        parse = pajson.ParseOptions(explicit_schema=schema, unexpected_field_behavior="ignore" if schema else "infer")
        return pajson.read_json(path, read_options=pajson.ReadOptions(use_threads=threads > 1), parse_options=parse)

    def polars_read(path, schema):
        frame = pl.read_ndjson(path, schema=polars_schema(pl, schema) if schema is not None else None)
        return frame

    def duckdb_read(path, schema):
        if schema is None:
            return con.sql("SELECT * FROM read_ndjson_auto('%s')" % path).to_arrow_table()
        return con.sql("SELECT * FROM read_ndjson('%s', columns=%s)" % (path, duckdb_columns(schema))).to_arrow_table()

    def simdbridge_read(path, schema):
        return pa.table(simdbridge.load_arrow_file(path, schema, threads=threads))

    engines = {"simdbridge": simdbridge_read, "pyarrow": pyarrow_read, "polars": polars_read, "duckdb": duckdb_read}
    if threads > 1:  # (timed on SCALING_CASE only)
        engines["simdbridge-1-thread"] = lambda path, schema: pa.table(
            simdbridge.load_arrow_file(path, schema, threads=1))
    return engines


def writers(threads, pl, duckdb, simdbridge, scratch):
    con = duckdb.connect()
    con.execute("SET threads TO %d" % threads)

    def polars_write(table):
        pl.from_arrow(table).write_ndjson(os.path.join(scratch, "polars.ndjson"))

    def duckdb_write(table):
        con.register("t", table)
        con.execute("COPY t TO '%s' (FORMAT JSON)" % os.path.join(scratch, "duckdb.ndjson"))

    def simdbridge_write(table):
        # To a path, as the peers write: the output goes to the file as it is made.
        simdbridge.dump_arrow(table, os.path.join(scratch, "simdbridge.ndjson"), threads=threads)

    return {"simdbridge": simdbridge_write, "polars": polars_write, "duckdb": duckdb_write}


def as_table(pa, value, schema):
    """A reader's result as a pyarrow Table of `schema` (polars and DuckDB choose their own types)."""
    if hasattr(value, "read_all"):  # a RecordBatchReader
        value = value.read_all()
    elif not isinstance(value, pa.Table):  # a polars DataFrame
        value = value.to_arrow()
    value = value.combine_chunks()
    if schema is not None:
        value = value.select(schema.names).cast(schema)
    return value


def gate(files, engines, pa):
    """Every engine's table equals simdbridge's, cell by cell, for every file read with a schema."""
    for name, (path, schema) in files.items():
        ours = as_table(pa, engines["simdbridge"](path, schema), schema)
        for engine, read in engines.items():
            if engine == "simdbridge":
                continue
            theirs = as_table(pa, read(path, schema), schema)
            if not theirs.equals(ours):
                for column in ours.column_names:
                    if not theirs.column(column).equals(ours.column(column)):
                        raise SystemExit("gate: %s differs from simdbridge on %s, column %s" % (engine, name, column))
                raise SystemExit("gate: %s differs from simdbridge on %s" % (engine, name))
        report.progress("arrow: gate: %s: %d rows equal in %s" % (name, ours.num_rows, ", ".join(engines)))


def measure(threads, config):
    import duckdb
    import polars as pl
    import pyarrow as pa
    import pyarrow.json as pajson

    import simdbridge
    rounds = config["rounds"]
    flat, gh = config["flat"], config["gh"]
    engines = readers(threads, pa, pajson, pl, duckdb, simdbridge)
    cases = {
        "flat, schema": (flat, pa_schema(pa)),
        "flat, 6-field projection": (flat, pa_schema(pa, FLAT_PROJECTION)),
        "flat, inferred": (flat, None),
        "gharchive, 6-field projection": (gh, gh_schema(pa)),
        "gharchive, inferred": (gh, None),
    }
    if threads == 1:
        gate({"flat": (flat, pa_schema(pa)), "gharchive": (gh, gh_schema(pa))}, engines, pa)
    times = {case: {} for case in cases}
    failed = {case: {} for case in cases}
    timed = {case: [e for e in engines if e != "simdbridge-1-thread" or case == SCALING_CASE] for case in cases}
    for case, (path, schema) in cases.items():  # which engines can read it at all
        for engine in timed[case]:
            read = engines[engine]
            try:
                read(path, schema)
            except Exception as e:  # a peer's inference that fails on the file is reported, not timed
                failed[case][engine] = ("%s: %s" % (type(e).__name__, e)).splitlines()[0][:200]
    table = pa.table(simdbridge.load_arrow_file(flat, pa_schema(pa)))
    scratch = config["scratch"]
    write = writers(threads, pl, duckdb, simdbridge, scratch)
    write_times = {}
    for r in range(rounds):
        for case, (path, schema) in cases.items():
            names = [e for e in timed[case] if e not in failed[case]]
            names = names[r % len(names):] + names[:r % len(names)]
            for engine in names:
                start = time.perf_counter()
                engines[engine](path, schema)
                times[case].setdefault(engine, []).append(time.perf_counter() - start)
        names = list(write)
        for engine in names[r % len(names):] + names[:r % len(names)]:
            start = time.perf_counter()
            write[engine](table)
            write_times.setdefault(engine, []).append(time.perf_counter() - start)
        report.progress("arrow: %d thread(s): round %d/%d" % (threads, r + 1, rounds))
    written = os.path.getsize(os.path.join(scratch, "simdbridge.ndjson"))
    return {"threads": threads, "sizes": {case: os.path.getsize(p) for case, (p, _) in cases.items()},
            "read_seconds": times, "failed": failed, "write_seconds": write_times, "written_bytes": written,
            "rows": table.num_rows}


def jvm_run(root, flat, threads, rounds, scratch):
    """ArrowNdjson (Arrow Java, over FFM) on the flat file, in its own JVM after the Python
    engines: read with the schema, written back. Its output must be the bytes Python's
    dump_arrow wrote from the same file (a gate), or the suite stops."""
    jar = os.path.join(root, "jvm", "jmh", "target", "benchmarks.jar")
    out = os.path.join(scratch, "simdbridge-jvm.ndjson")
    java = os.path.join(os.environ.get("JAVA_HOME", "/usr/lib/jvm/temurin-25-jdk-amd64"), "bin", "java")
    proc = subprocess.run([java, "--enable-native-access=ALL-UNNAMED", "--add-opens=java.base/java.nio=ALL-UNNAMED",
                           "--sun-misc-unsafe-memory-access=allow", "-cp", jar,
                           "io.simdbridge.bench.arrow.ArrowThroughput", flat, str(threads), str(rounds), out],
                          stdout=subprocess.PIPE, text=True, check=True)
    result = json.loads(proc.stdout.strip().splitlines()[-1])
    with open(out, "rb") as a, open(os.path.join(scratch, "simdbridge.ndjson"), "rb") as b:
        while True:
            x, y = a.read(1 << 20), b.read(1 << 20)
            if x != y:
                raise SystemExit("gate: the JVM's NDJSON differs from Python's dump_arrow of the same file")
            if not x:
                break
    report.progress("arrow: gate: jvm, %d thread(s): %d rows, the same %d bytes written as Python's"
                    % (threads, result["rows"], result["written_bytes"]))
    return result


def peak_memory(flat):
    """simdbridge reading the flat file with its schema, in a new process: the growth of the peak
    resident size, the Arrow data's size and the input's."""
    # VmHWM, this process's own peak: getrusage's ru_maxrss keeps the peak of the process that
    # forked it across exec (a large parent made the growth read as 0).
    code = ("import sys, pyarrow as pa, simdbridge\n"
            "sys.path.insert(0, %r)\nimport arrow_suite\n"
            "def peak():\n"
            "    for line in open('/proc/self/status'):\n"
            "        if line.startswith('VmHWM:'):\n"
            "            return int(line.split()[1]) * 1024\n"
            "schema = arrow_suite.pa_schema(pa)\n"
            "before = peak()\n"
            "t = pa.table(simdbridge.load_arrow_file(%r, schema, threads=1))\n"
            "print(peak() - before, t.nbytes)\n" % (os.path.dirname(os.path.abspath(__file__)), flat))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    grown, arrow_bytes = map(int, out.stdout.split())
    return {"peak_growth": grown, "arrow_bytes": arrow_bytes, "input_bytes": os.path.getsize(flat)}


# --- the suite -----------------------------------------------------------------------------------

def ratio_per_round(theirs, ours):
    return report.mean_ci([t / o for t, o in zip(theirs, ours)])


def run(root, data, results, full):
    settings = FULL if full else QUICK
    cache = os.path.join(root, "build", "bench-data")
    os.makedirs(cache, exist_ok=True)
    flat = os.path.join(cache, "flat-%dmb.ndjson" % settings["flat_mb"])
    if not os.path.exists(flat):
        report.progress("arrow: writing %s (fixed seed)" % flat)
        subprocess.run([sys.executable, os.path.join(root, "bench", "make_flat_ndjson.py"), flat + ".tmp",
                        str(settings["flat_mb"])], check=True)
        os.replace(flat + ".tmp", flat)
    gh = os.path.join(data, "ndjson", "gharchive-2015-01-01-0.ndjson")
    config = dict(rounds=settings["rounds"], flat=flat, gh=gh, scratch=cache)
    runs = {}
    for threads in THREADS:
        report.progress("arrow: %d thread(s), %d rounds" % (threads, settings["rounds"]))
        env = dict(os.environ, POLARS_MAX_THREADS=str(threads), RAYON_NUM_THREADS=str(threads))
        proc = subprocess.run([sys.executable, os.path.abspath(__file__), "measure", str(threads), json.dumps(config)],
                              env=env, stdout=subprocess.PIPE, text=True)
        if proc.returncode:
            return proc.returncode
        runs[threads] = json.loads(proc.stdout.strip().splitlines()[-1])
        jvm = jvm_run(root, flat, threads, settings["rounds"], cache)
        runs[threads]["read_seconds"]["flat, schema"]["simdbridge-jvm"] = jvm["read_seconds"]
        runs[threads]["write_seconds"]["simdbridge-jvm"] = jvm["write_seconds"]
    memory = peak_memory(flat)
    report.publish(results, "arrow", summarize(runs, memory, settings), write_markdown, chart)
    return 0


def summarize(runs, memory, settings):
    out = {"settings": settings, "memory": memory, "runs": runs, "gbps": {}, "targets": []}
    for threads, run in runs.items():
        for case, per_engine in run["read_seconds"].items():
            size = run["sizes"][case]
            out["gbps"]["%s, %d thread(s)" % (case, threads)] = {
                e: report.mean_ci([size / t / 1e9 for t in ts]) for e, ts in per_engine.items()}
        out["gbps"]["flat, write, %d thread(s)" % threads] = {
            e: report.mean_ci([run["written_bytes"] / t / 1e9 for t in ts]) for e, ts in run["write_seconds"].items()}
    one, two = runs[1], runs[2]

    def target(what, ratio_ci, goal, at_most=False):
        report.add_target(out, what, ratio_ci, goal, at_most)

    def read_ratio(run, case, peer):
        seconds = run["read_seconds"][case]
        if peer not in seconds:
            return float("nan"), float("nan")
        return ratio_per_round(seconds[peer], seconds["simdbridge"])

    target("read flat with schema, 1 thread: simdbridge / pyarrow", read_ratio(one, "flat, schema", "pyarrow"), 4.5)
    target("read flat with schema, 1 thread: simdbridge / polars", read_ratio(one, "flat, schema", "polars"), 3.0)
    target("read GH Archive, projection, 1 thread: simdbridge / pyarrow",
           read_ratio(one, "gharchive, 6-field projection", "pyarrow"), 4.0)
    target("read GH Archive, projection, 1 thread: simdbridge / polars",
           read_ratio(one, "gharchive, 6-field projection", "polars"), 4.0)
    side_by_side = two["read_seconds"][SCALING_CASE]
    target("read flat with schema: simdbridge 2 threads / 1 thread",
           ratio_per_round(side_by_side["simdbridge-1-thread"], side_by_side["simdbridge"]), 1.8)
    target("inference's cost: read flat inferred / with schema (time)",
           ratio_per_round(one["read_seconds"]["flat, inferred"]["simdbridge"], one["read_seconds"]["flat, schema"]["simdbridge"]),
           1.15, at_most=True)
    target("write flat, 1 thread: simdbridge / polars", ratio_per_round(one["write_seconds"]["polars"], one["write_seconds"]["simdbridge"]), 2.5)
    target("write flat, 1 thread: simdbridge / DuckDB", ratio_per_round(one["write_seconds"]["duckdb"], one["write_seconds"]["simdbridge"]), 3.5)
    m = memory
    target("peak memory reading / (Arrow data + input)", (m["peak_growth"] / (m["arrow_bytes"] + m["input_bytes"]), float("nan")),
           2.0, at_most=True)
    return out


def write_markdown(path, out):
    lines = ["# Arrow: NDJSON to Arrow and back\n",
             "Settings: %d rounds, flat file %d MB; 95%% intervals over rounds. Ratios are simdbridge's speed over the "
             "peer's (for costs: simdbridge's time over its own reference).\n" % (out["settings"]["rounds"], out["settings"]["flat_mb"]),
             "## Targets\n",
             report.markdown_table(["what", "measured", "target", ""],
                                   [[t["what"], "%.2fx ± %.2f" % (t["ratio"], t["ci95"]),
                                     ("≤ %.2f" if "cost" in t["what"] or "memory" in t["what"] else "≥ %.2fx") % t["target"],
                                     report.emphasized(t["verdict"])] for t in out["targets"]]),
             "## GB/s\n",
             "simdbridge-jvm: ArrowNdjson from Java (Arrow Java 19, FFM), the flat file read with its schema "
             "(every batch imported) and written back to a file, in its own JVM after the Python engines "
             "(not interleaved with them); its output is checked to be Python's bytes.\n"]
    engines = ["simdbridge", "simdbridge-1-thread", "simdbridge-jvm", "pyarrow", "polars", "duckdb"]
    rows = []
    for case, per in out["gbps"].items():
        rows.append([case] + ["%.3f ± %.3f" % tuple(per[e]) if e in per else "—" for e in engines])
    lines.append(report.markdown_table(["case"] + engines, rows))
    failures = {}
    for threads, run in out["runs"].items():
        for case, per in run["failed"].items():
            for engine, why in per.items():
                failures.setdefault("%s: %s" % (engine, case), why)
    if failures:
        lines.append("\n## Not timed: the peer failed\n")
        lines.append(report.markdown_table(["engine: case", "error"], [[k, v] for k, v in failures.items()]))
    m = out["memory"]
    lines.append("\nPeak memory reading the flat file with its schema: %.0f MB growth, for %.0f MB of Arrow data and "
                 "%.0f MB of input.\n" % (m["peak_growth"] / 1e6, m["arrow_bytes"] / 1e6, m["input_bytes"] / 1e6))
    with open(path, "w") as f:
        f.write("\n".join(lines))


def chart(path, out):
    engines = ["simdbridge", "simdbridge-jvm", "pyarrow", "polars", "duckdb"]
    categories = list(out["gbps"])
    series = {e: [out["gbps"][c][e][0] if e in out["gbps"][c] else 0 for c in categories] for e in engines}
    errors = {e: [out["gbps"][c][e][1] if e in out["gbps"][c] else 0 for c in categories] for e in engines}
    report.bar_chart(path, "NDJSON to Arrow and back (GB/s)", categories, series, "GB/s", errors)


if __name__ == "__main__" and len(sys.argv) > 1 and sys.argv[1] == "measure":
    # Progress goes to standard error; the measurements, last, to standard output.
    measurements = sys.stdout
    sys.stdout = sys.stderr
    measurements.write(json.dumps(measure(int(sys.argv[2]), json.loads(sys.argv[3]))) + "\n")
