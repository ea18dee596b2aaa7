#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Writes the Arrow suite's flat NDJSON file: records of 9 scalar fields (two ints, two doubles,
two bools, two short strings, an ISO 8601 timestamp), from a fixed seed, so that every run and
every machine reads the same bytes.

    make_flat_ndjson.py PATH MEGABYTES
"""
import random
import sys

NAMES = ["alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi", "ivan", "judy", "mallory", "niaj",
         "olivia", "peggy", "rupert", "sybil", "trent", "victor", "walter", "zoé"]
CITIES = ["Paris", "Tokyo", "Lagos", "Lima", "Oslo", "Pune", "Kyiv", "Quito", "Dakar", "Perth", "São Paulo", "Zürich"]


def main():
    path, megabytes = sys.argv[1], int(sys.argv[2])
    rng = random.Random(20261201)
    target = megabytes << 20
    written = 0
    with open(path, "w", encoding="utf-8", newline="\n") as out:
        block = []
        i = 0
        while written < target:
            r = rng.random()
            line = ('{"id":%d,"user_id":%d,"score":%r,"ratio":%r,"active":%s,"flag":%s,"name":"%s","city":"%s",'
                    '"ts":"2024-%02d-%02dT%02d:%02d:%02d.%06d"}\n'
                    % (i, rng.randrange(1_000_000_000), round(r * 1000, 3), rng.random(), "true" if r < 0.5 else "false",
                       "true" if i % 3 == 0 else "false", NAMES[i % 20], CITIES[rng.randrange(12)], 1 + i % 12,
                       1 + i % 28, i % 24, i % 60, (i * 7) % 60, (i * 7919) % 1_000_000))
            block.append(line)
            written += len(line.encode())
            i += 1
            if len(block) == 10000:
                out.write("".join(block))
                block.clear()
        out.write("".join(block))


if __name__ == "__main__":
    main()
