#!/usr/bin/env python3
"""Reference values for the report's ratings-over-rounds section (`analysis/rounds.rs`).

Run from anywhere:

    python3 -m venv /tmp/refenv3
    /tmp/refenv3/bin/pip install numpy scipy
    /tmp/refenv3/bin/python crates/juror-core/tests/reference/rounds/make_reference.py

It reads the three data sets of `../mixed/reference.json` (annotator, system, round, rating)
and writes `reference.json` beside itself: per data set and system, what

    scipy.stats.linregress(round, rating)     (slope, intercept, rvalue, pvalue, stderr)
    scipy.stats.spearmanr(round, rating)      (statistic, pvalue)

give on that system's ratings, one point per rating, in the stored row order, with the library
versions. The mixed model's expected values are those of `../mixed/reference.json` (statsmodels
MixedLM by REML); `crates/juror-core/tests/it/analysis.rs` reads both.
"""

import json
import pathlib
import platform

import numpy
import scipy
from scipy import stats

here = pathlib.Path(__file__).resolve().parent
mixed = json.loads((here.parent / "mixed" / "reference.json").read_text())

cases = []
for case in mixed["cases"]:
    systems = {}
    for system in case["systems"]:
        rows = [r for r in case["rows"] if r[1] == system]
        x = numpy.array([float(r[2]) for r in rows])
        y = numpy.array([float(r[3]) for r in rows])
        fit = stats.linregress(x, y)
        rho = stats.spearmanr(x, y)
        systems[system] = {
            "n": len(rows),
            "slope": float(fit.slope),
            "intercept": float(fit.intercept),
            "r": float(fit.rvalue),
            "p_value": float(fit.pvalue),
            "slope_se": float(fit.stderr),
            "spearman_rho": float(rho.statistic),
            "spearman_p": float(rho.pvalue),
        }
    cases.append({"name": case["name"], "systems": systems})

out = {
    "description": "scipy.stats.linregress and spearmanr of rating on round, per system, on "
    "the data sets of ../mixed/reference.json",
    "versions": {
        "python": platform.python_version(),
        "numpy": numpy.__version__,
        "scipy": scipy.__version__,
    },
    "cases": cases,
}
(here / "reference.json").write_text(json.dumps(out, indent=1) + "\n")
print("wrote", here / "reference.json")
