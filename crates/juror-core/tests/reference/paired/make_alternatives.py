#!/usr/bin/env python3
"""Reference values for the one-sided paired tests of `crates/juror-core/src/stats/paired.rs`
(`wilcoxon_p` with an alternative, `t_test` with a null mean and an alternative), from scipy.

Run from anywhere:

    python3 -m venv /tmp/refenv
    /tmp/refenv/bin/pip install numpy scipy
    /tmp/refenv/bin/python crates/juror-core/tests/reference/paired/make_alternatives.py

It writes `alternatives.json` beside itself: every input, every expected output and the library
versions. `crates/juror-core/tests/it/paired.rs` (`one_sided_tests_match_scipy`) reads it.
"""

import json
import platform
from pathlib import Path

import numpy as np
import scipy
from scipy import stats

HERE = Path(__file__).resolve().parent
RNG = np.random.default_rng(20261123)

# Darwin's corn (Wilcoxon 1945; scipy's wilcoxon documentation): cross minus self fertilised.
DARWIN = [6, 8, 14, 16, 23, 24, 28, 29, 41, -48, 49, 56, 60, -67, 75]


def samples():
    out = {
        "darwin": [float(x) for x in DARWIN],
        # Small, no ties: the exact distribution.
        "small_untied": [1.5, -0.25, 2.75, 0.5, 3.0, -1.25, 2.0, 4.5],
        # Likert-like differences of item means: ties and zeros, n <= 13 (permutation).
        "likert_small": [1.0, 0.0, 0.5, 1.0, -0.5, 1.5, 0.5, 1.0, 0.0, 2.0],
        # Ties and zeros, 13 < n <= 50 (normal approximation under method="auto").
        "likert_mid": [float(x) for x in RNG.integers(-2, 4, size=30) / 2.0],
        # n > 50: normal approximation.
        "normal_large": [float(x) for x in RNG.normal(0.3, 1.0, size=80)],
        # Negative shift, moderate n, no ties.
        "normal_negative": [float(x) for x in RNG.normal(-0.4, 1.0, size=20)],
    }
    return out


def wilcoxon_cases(data):
    cases = []
    for name, d in data.items():
        d = np.asarray(d)
        n_zero = int(np.sum(d == 0))
        untied = len(set(np.abs(d[d != 0]))) == int(np.sum(d != 0))
        for alternative in ["two-sided", "greater", "less"]:
            methods = ["auto", "asymptotic"]
            if n_zero == 0 and untied and len(d) <= 50:
                methods.append("exact")
            for method in methods:
                r = stats.wilcoxon(d, alternative=alternative, method=method)
                cases.append({
                    "sample": name,
                    "alternative": alternative,
                    "method": method,
                    "statistic": float(r.statistic),
                    "p_value": float(r.pvalue),
                })
    return cases


def t_cases(data):
    cases = []
    for name, d in data.items():
        d = np.asarray(d)
        n = len(d)
        mean = float(np.mean(d))
        se = float(np.std(d, ddof=1) / np.sqrt(n))
        low, high = stats.t.interval(0.95, n - 1, loc=mean, scale=se)
        for mu0 in [0.0, -0.5]:
            for alternative in ["two-sided", "greater", "less"]:
                r = stats.ttest_1samp(d, popmean=mu0, alternative=alternative)
                cases.append({
                    "sample": name,
                    "mu0": mu0,
                    "alternative": alternative,
                    "t": float(r.statistic),
                    "df": float(r.df),
                    "p_value": float(r.pvalue),
                    "mean": mean,
                    "se": se,
                    "ci95": [float(low), float(high)],
                })
    # ttest_rel(a, b) is ttest_1samp(a - b): checked once, on two columns.
    a = RNG.normal(3.4, 0.6, size=12)
    b = a - RNG.normal(0.2, 0.5, size=12)
    rel = stats.ttest_rel(a, b, alternative="greater")
    one = stats.ttest_1samp(a - b, 0.0, alternative="greater")
    assert abs(rel.pvalue - one.pvalue) < 1e-15 and abs(rel.statistic - one.statistic) < 1e-12
    return cases


def main():
    data = samples()
    out = {
        "versions": {
            "python": platform.python_version(),
            "numpy": np.__version__,
            "scipy": scipy.__version__,
        },
        "samples": data,
        "wilcoxon": wilcoxon_cases(data),
        "t_test": t_cases(data),
    }
    (HERE / "alternatives.json").write_text(json.dumps(out, indent=1) + "\n")


if __name__ == "__main__":
    main()
