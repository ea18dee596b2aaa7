#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""make fuzz: runs each libFuzzer target for FUZZ_SECONDS (or FUZZ_RUNS executions), two at a
time, each from its working corpus (kept under the build directory between runs, seeded from
the checked-in seeds, every past finding and the data), and reports executions, coverage and
findings per target into results/fuzz.json and results/fuzz.md. A finding stops its target:
its input is written into the build directory and named in the report; make fuzz then fails.

    run_fuzzers.py BUILD_DIR DATA_DIR RESULTS_DIR
"""
import concurrent.futures
import datetime
import json
import os
import pathlib
import platform
import re
import shutil
import subprocess
import sys

HERE = pathlib.Path(__file__).resolve().parent
TARGETS = ["fuzz_document", "fuzz_stream", "fuzz_extract", "fuzz_writer", "fuzz_arrow", "fuzz_msgpack"]
MAX_LEN = 16384
# The stream target reads each input at three batch sizes down to 32 bytes (a simdjson batch,
# handed to a second thread, every 32 bytes): shorter inputs, more of them.
MAX_LEN_OF = {"fuzz_stream": 4096, "fuzz_arrow": 4096}


def seed(target, corpus, data):
    """Fills a new working corpus: checked-in seeds, findings, small data files."""
    corpus.mkdir(parents=True, exist_ok=True)
    if any(corpus.iterdir()):
        return
    kind = {"fuzz_document": "document", "fuzz_writer": "document", "fuzz_stream": "stream",
            "fuzz_extract": "extract", "fuzz_arrow": "arrow", "fuzz_msgpack": "msgpack"}[target]
    sources = [HERE / "seeds" / kind, HERE / "regressions" / target]
    if kind in ("document", "stream", "msgpack"):
        sources += [data / "jsonchecker"]
    for source in sources:
        for path in sorted(source.rglob("*")):
            if path.is_file() and path.stat().st_size <= MAX_LEN:
                shutil.copy(path, corpus / f"{source.name}-{path.name}")
    # The NDJSON corpus: its first lines, as streams and (with a column selector) as batches.
    for path in sorted((data / "ndjson").glob("*.ndjson")):
        with open(path, "rb") as f:
            head = f.read(MAX_LEN // 2)
        head = head[: head.rfind(b"\n") + 1]
        if kind == "stream":
            (corpus / f"ndjson-{path.name}").write_bytes(head)
        elif kind == "extract":
            for selector in range(0, 72, 9):
                (corpus / f"ndjson-{selector}-{path.name}").write_bytes(bytes([selector, 8, 40]) + head)
        elif kind == "arrow":
            for selector in range(5):
                (corpus / f"ndjson-{selector}-{path.name}").write_bytes(bytes([selector]) + head)


def run(target, build, data, seconds, runs):
    binary = build / "bin" / target
    work = build / "fuzz-work" / target
    corpus = work / "corpus"
    seed(target, corpus, data)
    artifacts = work / "findings"
    artifacts.mkdir(parents=True, exist_ok=True)
    args = [str(binary), str(corpus), f"-dict={HERE / 'json.dict'}", f"-max_len={MAX_LEN_OF.get(target, MAX_LEN)}",
            f"-artifact_prefix={artifacts}/", "-print_final_stats=1", "-timeout=20", "-rss_limit_mb=4096"]
    args += [f"-runs={runs}"] if runs else [f"-max_total_time={seconds}"]
    env = dict(os.environ, ASAN_OPTIONS="detect_leaks=1:abort_on_error=1", UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1")
    started = datetime.datetime.now()
    p = subprocess.run(args, capture_output=True, text=True, errors="replace", env=env)
    log = p.stderr
    (work / "last.log").write_text(log)
    stat = lambda name: int(m.group(1)) if (m := re.search(rf"stat::{name}:\s+(\d+)", log)) else 0
    cov = re.findall(r"cov: (\d+) ft: (\d+)", log)
    findings = [line.split("Test unit written to ")[1].strip() for line in log.splitlines() if "Test unit written to" in line]
    reason = [line for line in log.splitlines() if line.startswith("FINDING") or "ERROR: AddressSanitizer" in line
              or "runtime error:" in line or "ERROR: libFuzzer" in line]
    return {
        "target": target,
        "executions": stat("number_of_executed_units"),
        "seconds": round((datetime.datetime.now() - started).total_seconds(), 1),
        "executions_per_second": stat("average_exec_per_sec"),
        "coverage_edges": int(cov[-1][0]) if cov else 0,
        "features": int(cov[-1][1]) if cov else 0,
        "corpus_inputs": sum(1 for _ in corpus.iterdir()),
        "peak_rss_mb": stat("peak_rss_mb"),
        "findings": findings,
        "finding_reasons": reason[:5],
        "exit_code": p.returncode,
    }


def main():
    build, data, results = (pathlib.Path(a).resolve() for a in sys.argv[1:4])
    seconds = int(os.environ.get("FUZZ_SECONDS", "180"))
    runs = int(os.environ.get("FUZZ_RUNS", "0"))
    only = os.environ.get("FUZZ_TARGETS", "").split()
    targets = [t for t in TARGETS if not only or t in only]
    print(f"== fuzz: {len(targets)} targets, " + (f"{runs} executions each" if runs else f"{seconds} s each") + ", two at a time")
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        reports = list(pool.map(lambda t: run(t, build, data, seconds, runs), targets))
    # Executions accumulate across runs of make fuzz on this machine (the count is over its life).
    ledger_path = build / "fuzz-work" / "ledger.json"
    ledger = json.loads(ledger_path.read_text()) if ledger_path.exists() else {}
    for r in reports:
        ledger[r["target"]] = ledger.get(r["target"], 0) + r["executions"]
        r["executions_all_runs_here"] = ledger[r["target"]]
    ledger_path.write_text(json.dumps(ledger, indent=2))
    results.mkdir(parents=True, exist_ok=True)
    doc = {"date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
           "machine": platform.processor() or platform.machine(), "compiler": "clang-14, -fsanitize=fuzzer,address,undefined",
           "targets": reports}
    (results / "fuzz.json").write_text(json.dumps(doc, indent=2) + "\n")
    lines = ["| target | executions | exec/s | coverage (edges) | features | corpus | findings | all runs here |",
             "|---|---|---|---|---|---|---|---|"]
    for r in reports:
        lines.append(f"| {r['target']} | {r['executions']:,} | {r['executions_per_second']:,} | {r['coverage_edges']} | "
                     f"{r['features']} | {r['corpus_inputs']} | {len(r['findings'])} | {r['executions_all_runs_here']:,} |")
    (results / "fuzz.md").write_text("# make fuzz\n\n" + "\n".join(lines) + "\n")
    print("\n".join(lines))
    failed = [r for r in reports if r["findings"] or r["exit_code"] != 0]
    for r in failed:
        print(f"{r['target']}: exit {r['exit_code']}, findings {r['findings']}: {r['finding_reasons']}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
