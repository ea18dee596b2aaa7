# SPDX-License-Identifier: Apache-2.0
"""What the suites share: progress lines, JSON and markdown output, charts."""
import json
import math
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


# Student's t quantiles for two-sided intervals, by degrees of freedom (the last row: df > 120).
_T = {
    0.95: {1: 12.71, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306, 9: 2.262,
           10: 2.228, 11: 2.201, 12: 2.179, 13: 2.160, 14: 2.145, 15: 2.131, 16: 2.120, 17: 2.110,
           18: 2.101, 19: 2.093, 20: 2.086, 22: 2.074, 24: 2.064, 26: 2.056, 28: 2.048, 30: 2.042,
           40: 2.021, 60: 2.000, 120: 1.980, 121: 1.960},
    0.999: {1: 636.62, 2: 31.60, 3: 12.92, 4: 8.61, 5: 6.87, 6: 5.96, 7: 5.41, 8: 5.04, 9: 4.78,
            10: 4.59, 11: 4.44, 12: 4.32, 13: 4.22, 14: 4.14, 15: 4.07, 16: 4.01, 17: 3.97, 18: 3.92,
            19: 3.88, 20: 3.85, 22: 3.79, 24: 3.75, 26: 3.71, 28: 3.67, 30: 3.65, 40: 3.55, 60: 3.46,
            120: 3.37, 121: 3.29},
}


def t_quantile(df, level):
    """Student's t for a two-sided interval at `level` (0.95 or 0.999); conservative between rows."""
    if df <= 0:
        return float("nan")
    table = _T[level]
    return table[max(k for k in table if k <= min(df, 121))]


def mean_ci(values, level=0.95):
    """(mean, half-width of its `level` confidence interval); NaN width for one value."""
    n = len(values)
    m = sum(values) / n
    if n < 2:
        return m, float("nan")
    sd = math.sqrt(sum((v - m) ** 2 for v in values) / (n - 1))
    return m, t_quantile(n - 1, level) * sd / math.sqrt(n)


def quotient(a, a_half_width, b, b_half_width):
    """a / b with a half-width from the two's, their relative half-widths combined in quadrature."""
    r = a / b
    if not a or not b:
        return r, float("nan")
    return r, r * math.sqrt((a_half_width / a) ** 2 + (b_half_width / b) ** 2)


def judge(ratio, half_width, target, strictly=False):
    """A target's judgement from a ratio and its interval: {"met": the point estimate reaches the
    target (passes it, strictly), "verdict": "met" or "not met", with ", within noise" added where
    the interval straddles the target}. A quick run's intervals are wide: its verdicts say so."""
    if half_width != half_width:  # NaN: no interval
        return judge_between(ratio, ratio, ratio, target, strictly)
    return judge_between(ratio, ratio - half_width, ratio + half_width, target, strictly)


def judge_between(estimate, low, high, target, strictly=False):
    """judge() for an interval [low, high] around the estimate that need not be symmetric."""
    met = estimate > target if strictly else estimate >= target
    verdict = "met" if met else "not met"
    if low < target <= high:
        verdict += ", within noise"
    return {"met": met, "verdict": verdict}


def emphasized(verdict):
    """A verdict for a markdown table: bold where a target is not met."""
    return "**%s**" % verdict if verdict.startswith("not") else verdict


def geomean(values):
    return math.exp(sum(math.log(v) for v in values) / len(values))


def add_target(out, what, ratio_ci, goal, at_most=False):
    """Appends a target to out["targets"] (what, ratio, ci95, target, met, verdict). With
    at_most, the ratio is a cost: met where it is at most the goal."""
    r, ci = ratio_ci
    verdict = judge_between(-r, -r - ci, -r + ci, -goal) if at_most else judge(r, ci, goal)
    out["targets"].append(dict(what=what, ratio=r, ci95=ci, target=goal, **verdict))


def publish(results, name, out, write_markdown, chart):
    """Writes results/NAME.json, .md (write_markdown(path, out)) and .png (chart(path, out)), and
    prints each target."""
    write_json(os.path.join(results, name + ".json"), out)
    write_markdown(os.path.join(results, name + ".md"), out)
    chart(os.path.join(results, name + ".png"), out)
    for t in out["targets"]:
        progress("%s: %s: %.2fx ± %.2f (target %s) %s" % (name, t["what"], t["ratio"], t["ci95"], t["target"],
                                                          t["verdict"]))
