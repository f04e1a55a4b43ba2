#!/usr/bin/env python3
"""Reference values for graded pairwise preferences in the analysis
(`crates/juror-core/src/analysis/report/graded.rs`): per pair the mean grade over item means,
its 95% t interval, the Wilcoxon signed-rank test of the item means, the share of each grade,
the mean grade towards the output shown first, and the "Cannot judge" counts.

Run from anywhere (numpy and scipy; the versions used are written into the output):

    python3 crates/juror-core/tests/reference/graded/make_reference.py

It writes `graded.csv` beside itself (a tidy pairwise table, made up and seeded: a 7-point
scale written `a3` ... `tie` ... `b3` from the row's `system_a`, the two systems of a pair in
either column order, `shown_first` on most rows, plain `tie` rows, and `cannot_judge` rows) and
`reference.json` with every expected value. `crates/juror-core/tests/it/graded.rs` reads both;
the Rust tests need no Python.

The definitions, written out here independently of the Rust code:
- A row's grade g from its `system_a` (negative favours system_a; `tie` is 0) is turned to the
  pair's byte order (x < y): g if system_a is x, else -g (positive favours y).
- Per pair: each item's mean grade over its rows; the mean of the item means; the 95% t
  interval mean +- t(0.975, n-1) * sd(ddof=1) / sqrt(n) over the n item means;
  `scipy.stats.wilcoxon(item_means)` with every default (zero_method="wilcox",
  correction=False, method="auto"): its p-value and statistic.
- The share of each grade: count / judgements of the pair.
- Towards the first shown: over rows with `shown_first`, -g if a was shown first, else g (g
  from the row's system_a); their mean and t interval.
- `cannot_judge` rows enter none of these; they are counted per system (each of the pair's).
"""

import csv
import json
import os
import random

import numpy as np
import scipy
from scipy import stats

HERE = os.path.dirname(os.path.abspath(__file__))
NAMES = ["a3", "a2", "a1", "tie", "b1", "b2", "b3"]


def name(g):
    return NAMES[g + 3]


def make_rows():
    rng = random.Random(29)
    rows = []
    # (x, y, items, annotators, lean): lean shifts the grades towards y.
    for x, y, items, annotators, lean in [
        ("alpha", "beta", 12, 3, 1),
        ("beta", "gamma", 20, 2, 0),
    ]:
        for i in range(1, items + 1):
            for a in range(1, annotators + 1):
                item, annotator = f"{x}-{y}-i{i:02d}", f"ann{a}"
                swap = rng.random() < 0.5
                sa, sb = (y, x) if swap else (x, y)
                first = rng.choice(["a", "b", ""])
                u = rng.random()
                if u < 0.07:
                    rows.append([item, sa, sb, annotator, "cannot_judge", first])
                    continue
                g = max(-3, min(3, rng.randint(-3, 3) + rng.choice([0, lean])))
                own = -g if swap else g
                text = name(own)
                if own == 0 and rng.random() < 0.5:
                    text = "tie"
                rows.append([item, sa, sb, annotator, text, first])
    return rows


def main():
    rows = make_rows()
    with open(os.path.join(HERE, "graded.csv"), "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["item_id", "system_a", "system_b", "annotator_id", "preference",
                    "shown_first"])
        w.writerows(rows)
    pairs = {}
    towards = []
    cannot = {}
    for item, sa, sb, annotator, text, first in rows:
        if text == "cannot_judge":
            for s in (sa, sb):
                cannot[s] = cannot.get(s, 0) + 1
            continue
        own = NAMES.index(text) - 3
        x, y = sorted([sa, sb])
        g = own if sa == x else -own
        pairs.setdefault((x, y), []).append((item, g))
        if first:
            towards.append(-own if first == "a" else own)
    out = {"versions": {"numpy": np.__version__, "scipy": scipy.__version__}, "pairs": {}}

    def t_interval(values):
        v = np.asarray(values, dtype=float)
        n = len(v)
        m = float(np.mean(v))
        half = float(stats.t.ppf(0.975, n - 1) * np.std(v, ddof=1) / np.sqrt(n))
        return m, [m - half, m + half]

    for (x, y), judgements in sorted(pairs.items()):
        items = {}
        for item, g in judgements:
            items.setdefault(item, []).append(g)
        means = [float(np.mean(items[k])) for k in sorted(items)]
        mean, ci = t_interval(means)
        test = stats.wilcoxon(means)
        counts = {name(g): sum(1 for _, h in judgements if h == g) for g in range(-3, 4)}
        out["pairs"][f"{x}|{y}"] = {
            "judgements": len(judgements),
            "items": len(means),
            "mean_grade": mean,
            "ci": ci,
            "wilcoxon_p": float(test.pvalue),
            "wilcoxon_statistic": float(test.statistic),
            "zero_items": sum(1 for m in means if m == 0),
            "counts": counts,
            "shares": {k: c / len(judgements) for k, c in counts.items()},
        }
    mean, ci = t_interval(towards)
    out["towards_first"] = {"judgements": len(towards), "mean": mean, "ci": ci}
    out["cannot_judge"] = cannot
    with open(os.path.join(HERE, "reference.json"), "w") as f:
        json.dump(out, f, indent=1, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main()
