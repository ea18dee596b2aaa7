# SPDX-License-Identifier: Apache-2.0
"""The core suite: the C++ checksum engine against simdjson used directly, through
build/bin/simdbridge_bench (bench/native, which checks every subject's checksum before timing
it). Writes
results/core.json, results/core.md and results/core.png."""
import json
import os
import subprocess

import report

# The checksum engine over the fastest full walk of the document in simdjson used directly.
TARGET = 0.95


def run(root, data, results, full):
    binary = os.path.join(root, "build", "bin", "simdbridge_bench")
    rounds, sample_ms = ("30", "50") if full else ("10", "20")
    env = dict(os.environ, SIMDBRIDGE_DATA=data)
    proc = subprocess.run([binary, "--json", "--rounds", rounds, "--sample-ms", sample_ms],
                          stdout=subprocess.PIPE, env=env)
    if proc.returncode:
        return proc.returncode
    result = json.loads(proc.stdout)
    ratio = result["ratio_engine_to_fastest_full_walk"]
    result["targets"] = []
    report.add_target(result, "checksum engine / fastest full simdjson walk (%s)" % result["fastest_full_walk"],
                      (ratio["mean"], ratio["ci95"]), TARGET)
    report.write_json(os.path.join(results, "core.json"), result)

    subjects = result["subjects"]
    rows = []
    for f in result["files"] + [dict(name="**aggregate**", bytes=result["aggregate"]["bytes"],
                                     mbps=result["aggregate"]["mbps"])]:
        rows.append([f["name"], f["bytes"]] +
                    ["%.0f ± %.0f" % (f["mbps"][s]["mean"], f["mbps"][s]["ci95"]) for s in subjects])
    text = ("# Core: checksum engine against simdjson used directly\n\n"
            "MB/s, mean ± 95%% CI over %d rounds. Machine: %s; %s; simdjson %s (%s kernel).\n\n"
            % (result["rounds"], result["machine"]["cpu"], result["machine"]["compiler"],
               result["machine"]["simdjson"], result["machine"]["simdjson_implementation"]) +
            report.markdown_table(["file", "bytes"] + subjects, rows) +
            "\nEngine / fastest full walk (%s): **%.3fx ± %.3f** (target %s: %s). Engine / DOM parse alone: "
            "%.3fx ± %.3f.\n\n"
            % (result["fastest_full_walk"], ratio["mean"], ratio["ci95"], TARGET, result["targets"][0]["verdict"],
               result["ratio_engine_to_parse_only"]["mean"], result["ratio_engine_to_parse_only"]["ci95"]) +
            "Method: %s.\n" % result["method"])
    with open(os.path.join(results, "core.md"), "w") as f:
        f.write(text)
    names = [f["name"] for f in result["files"]] + ["aggregate"]
    every = result["files"] + [result["aggregate"]]
    report.bar_chart(os.path.join(results, "core.png"), "Checksum throughput (MB/s)", names,
                     {s: [f["mbps"][s]["mean"] for f in every] for s in subjects}, "MB/s",
                     errors={s: [f["mbps"][s]["ci95"] for f in every] for s in subjects})
    t = result["targets"][0]
    report.progress("core: %s: %.3fx ± %.3f (target %s) %s" % (t["what"], t["ratio"], t["ci95"], t["target"],
                                                               t["verdict"]))
    return 0
