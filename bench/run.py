# SPDX-License-Identifier: Apache-2.0
"""make bench: verifies the corpus, runs the equivalence gate, then the benchmark suites, and
writes results/ (JSON, markdown tables, PNG charts).

    python3 bench/run.py [--full] [--only SUITE ...]

Quick settings by default (the whole run in under 25 minutes on 2 cores); --full for the
settings of a publishable run. Nothing is measured if the corpus is not the pinned one or if
any engine's checksum differs from the others' (the fairness contract).
"""
import argparse
import json
import os
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "bench"))

import core_suite  # noqa: E402
import databind_suite  # noqa: E402
import jvm_suite  # noqa: E402
import python_suite  # noqa: E402
import arrow_suite  # noqa: E402
import msgpack_suite  # noqa: E402
import spark_suite  # noqa: E402
import jjb_suite  # noqa: E402
import report  # noqa: E402

SUITES = {
    "core": core_suite.run,
    "jvm": jvm_suite.run,
    "databind": databind_suite.run,
    "python": python_suite.run,
    "arrow": arrow_suite.run,
    "msgpack": msgpack_suite.run,
    "spark": spark_suite.run,
    "jjb": jjb_suite.run,
}
# java-json-benchmark's own harness takes about 19 minutes at its quick settings: in the full run, or
# asked for with --only jjb.
QUICK_SUITES = [name for name in SUITES if name != "jjb"]
# The quick run's budget on 2 cores, the build included: make builds everything before run.py,
# about 5 minutes on a fresh clone, and the suites get the rest.
QUICK_BUDGET_S = 25 * 60
BUILD_S = 5 * 60


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--full", action="store_true", help="full settings (slower, tighter intervals)")
    parser.add_argument("--only", nargs="*", choices=sorted(SUITES), help="run these suites only")
    args = parser.parse_args()
    data = os.environ.get("SIMDBRIDGE_DATA", os.path.join(ROOT, "..", "shared", "data"))
    results = os.path.join(ROOT, "results")
    os.makedirs(results, exist_ok=True)

    started = time.time()
    report.progress("verifying the corpus under %s" % data)
    if subprocess.run([sys.executable, os.path.join(ROOT, "tools", "fetch_data.py"), "--verify", data]).returncode:
        return 1
    seconds = {}
    for name in (args.only or (list(SUITES) if args.full else QUICK_SUITES)):
        report.progress("suite %s (%s settings)" % (name, "full" if args.full else "quick"))
        suite_started = time.time()
        status = SUITES[name](root=ROOT, data=data, results=results, full=args.full)
        seconds[name] = round(time.time() - suite_started, 1)
        if status:
            report.progress("suite %s failed: nothing more is measured" % name)
            return status
    total = time.time() - started
    # The time each suite took, so that a run over its budget shows where the time went.
    report.write_json(os.path.join(results, "run.json"), {
        "settings": "full" if args.full else "quick", "seconds": seconds,
        "total_seconds": round(total, 1)})
    report.progress("done in %.0f s (%s); results in %s" % (
        total, ", ".join("%s %.0f s" % kv for kv in seconds.items()), results))
    if not args.full and not args.only and total > QUICK_BUDGET_S - BUILD_S:
        report.progress("over budget: the suites took %.0f s, where the quick run's %d minutes leave them %d s "
                        "after a fresh clone's build (results/run.json: each suite's time)" % (
                            total, QUICK_BUDGET_S // 60, QUICK_BUDGET_S - BUILD_S))
    return 0


if __name__ == "__main__":
    sys.exit(main())
