#!/usr/bin/env python3
"""Reference values for per-annotator standardisation (`analysis/report/standardise.rs`).

Run from anywhere:

    python3 -m venv /tmp/refenv
    /tmp/refenv/bin/pip install numpy scipy
    /tmp/refenv/bin/python crates/juror-core/tests/reference/standardise/make_reference.py

It writes, beside itself, `sliders.csv`: a tidy table of 0-100 slider scores (dimension
`quality`) of 3 systems on 10 items by 6 annotators who use the scale differently (one keeps to
60-90, one spreads over 0-100, ...), plus one annotator with a single score and one whose scores
are all the same; and `reference.json`, with the library versions:

- per annotator, mean and sample SD (numpy `std(ddof=1)`); the two who cannot be standardised
  (one score; SD 0) are left out;
- per rating, z = (score - annotator mean) / annotator SD;
- per system, the raw mean and the z mean: item means (mean over annotators of the item's
  scores), then the mean over items; the raw mean over the same ratings as the z-scores;
- per pair of systems (A before B in byte order), on the z item means of the items both have:
  the mean difference A - B, `scipy.stats.ttest_rel` (t, p) and `scipy.stats.wilcoxon`
  (statistic, p; method "auto": exact for these 10 differences without ties or zeros).
"""

import csv
import json
import pathlib
import platform

import numpy
import scipy
from scipy import stats

here = pathlib.Path(__file__).resolve().parent
rng = numpy.random.default_rng(20261126)

systems = ["sys-a", "sys-b", "sys-c"]
quality = {"sys-a": 0.70, "sys-b": 0.55, "sys-c": 0.45}
items = [f"item-{i:02d}" for i in range(1, 11)]
# (annotator, centre of their range, half-width): how each uses the 0-100 slider.
raters = [
    ("ann-1", 75, 15),
    ("ann-2", 50, 50),
    ("ann-3", 40, 30),
    ("ann-4", 65, 25),
    ("ann-5", 55, 40),
    ("ann-6", 80, 10),
]

rows = []
for item_index, item in enumerate(items):
    difficulty = rng.normal(0, 0.12)
    for a_index, (annotator, centre, half) in enumerate(raters):
        # Each item is rated by four of the six annotators.
        if (item_index + a_index) % 3 == 2:
            continue
        for system in systems:
            latent = quality[system] + difficulty + rng.normal(0, 0.1)
            score = int(round(centre + half * (2 * latent - 1)))
            rows.append([item, system, annotator, "quality", max(0, min(100, score))])
# One score only, and every score the same: neither can be standardised.
rows.append(["item-01", "sys-a", "ann-once", "quality", 90])
for system in systems:
    rows.append(["item-02", system, "ann-flat", "quality", 50])

with open(here / "sliders.csv", "w", newline="") as f:
    w = csv.writer(f, lineterminator="\n")
    w.writerow(["item_id", "system_id", "annotator_id", "dimension", "score"])
    w.writerows(rows)

by_annotator = {}
for item, system, annotator, _, score in rows:
    by_annotator.setdefault(annotator, []).append(float(score))
moments = {}
left_out = []
for annotator, xs in by_annotator.items():
    xs = numpy.array(xs)
    if len(xs) < 2 or numpy.std(xs, ddof=1) == 0:
        left_out.append(annotator)
        continue
    moments[annotator] = (float(numpy.mean(xs)), float(numpy.std(xs, ddof=1)))


def item_means(values):
    """{system: {item: mean}} from (item, system, value) triples."""
    cells = {}
    for item, system, v in values:
        cells.setdefault(system, {}).setdefault(item, []).append(v)
    return {s: {i: float(numpy.mean(v)) for i, v in by.items()} for s, by in cells.items()}


kept = [r for r in rows if r[2] in moments]
raw = item_means([(r[0], r[1], float(r[4])) for r in kept])
z = item_means(
    [(r[0], r[1], (float(r[4]) - moments[r[2]][0]) / moments[r[2]][1]) for r in kept]
)

out_systems = {}
for s in systems:
    zs = numpy.array([z[s][i] for i in sorted(z[s])])
    out_systems[s] = {
        "n": len(zs),
        "raw_mean": float(numpy.mean([raw[s][i] for i in sorted(raw[s])])),
        "mean_z": float(numpy.mean(zs)),
        "sd_z": float(numpy.std(zs, ddof=1)),
    }

pairs = []
for ai, a in enumerate(systems):
    for b in systems[ai + 1 :]:
        common = sorted(set(z[a]) & set(z[b]))
        x = numpy.array([z[a][i] for i in common])
        y = numpy.array([z[b][i] for i in common])
        t = stats.ttest_rel(x, y)
        w = stats.wilcoxon(x, y)
        pairs.append(
            {
                "a": a,
                "b": b,
                "n": len(common),
                "mean_a": float(numpy.mean(x)),
                "mean_b": float(numpy.mean(y)),
                "mean_diff": float(numpy.mean(x - y)),
                "t": float(t.statistic),
                "t_p": float(t.pvalue),
                "wilcoxon_statistic": float(w.statistic),
                "wilcoxon_p": float(w.pvalue),
            }
        )

reference = {
    "generated_by": "make_reference.py",
    "python": platform.python_version(),
    "numpy": numpy.__version__,
    "scipy": scipy.__version__,
    "csv": "sliders.csv",
    "dimension": "quality",
    "annotators": {a: {"mean": m, "sd": s} for a, (m, s) in moments.items()},
    "left_out": left_out,
    "systems": out_systems,
    "pairs": pairs,
}
(here / "reference.json").write_text(json.dumps(reference, indent=2) + "\n")
print(json.dumps(out_systems, indent=2))
