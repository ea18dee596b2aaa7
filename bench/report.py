# SPDX-License-Identifier: Apache-2.0
"""What the suites share: progress lines, JSON and markdown output, charts."""
import json
import os
import sys
import time

_START = time.time()


def progress(message):
    print("[bench %5.0fs] %s" % (time.time() - _START, message), flush=True)


def write_json(path, value):
    with open(path, "w") as f:
        json.dump(value, f, indent=2)
        f.write("\n")


def markdown_table(header, rows):
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    for row in rows:
        lines.append("| " + " | ".join(str(c) for c in row) + " |")
    return "\n".join(lines) + "\n"


def pyplot():
    """matplotlib with a file backend, or None (then the charts are skipped, with a warning)."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        return plt
    except ImportError:
        print("warning: matplotlib is missing: no PNG charts (make bench installs it in .venv)",
              file=sys.stderr)
        return None


def bar_chart(path, title, categories, series, unit, errors=None, log=False):
    """Grouped horizontal bars: series is {name: [value per category]}; errors likewise."""
    plt = pyplot()
    if plt is None:
        return
    n = len(series)
    height = 0.8 / max(n, 1)
    fig, ax = plt.subplots(figsize=(10, 0.45 * len(categories) * max(n, 2) / 2 + 1.5))
    for i, (name, values) in enumerate(series.items()):
        positions = [c + i * height for c in range(len(categories))]
        err = errors.get(name) if errors else None
        ax.barh(positions, values, height=height, xerr=err, label=name, capsize=2)
    ax.set_yticks([c + height * (n - 1) / 2 for c in range(len(categories))])
    ax.set_yticklabels(categories, fontsize=8)
    ax.invert_yaxis()
    ax.set_xlabel(unit)
    if log:
        ax.set_xscale("log")
    ax.set_title(title)
    ax.legend(fontsize=8, loc="lower right")
    ax.grid(axis="x", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
