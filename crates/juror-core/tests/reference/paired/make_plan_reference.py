#!/usr/bin/env python3
"""Reference values for the analysis plan's statistics beyond the tests themselves:

- the noncentral t distribution function (`special::nct_cdf`), from `scipy.stats.nct.cdf`;
- the 95% interval of d_z (`paired::d_z_interval`): `scipy.optimize.brentq` on `nct.cdf`
  (Steiger and Fouladi 1997);
- the non-inferiority tests of the report (H0: a - b <= -margin): the paired t-test from
  statsmodels' `ttost_paired` (its lower one-sided test is the non-inferiority test) and the
  signed-rank test from `scipy.stats.wilcoxon(d + margin, alternative="greater")`;
- the closed-form power of the paired t-test (`power::t_power`, and what `juror power`'s
  simulation is checked against), from statsmodels' `TTestPower().power`.

Run from anywhere:

    python3 -m venv /tmp/refenv
    /tmp/refenv/bin/pip install numpy scipy statsmodels
    /tmp/refenv/bin/python crates/juror-core/tests/reference/paired/make_plan_reference.py

It writes `plan_reference.json` beside itself: every input, every expected output and the
library versions. `crates/juror-core/tests/it/paired.rs` (`plan_statistics_match_scipy_and_statsmodels`)
reads it.
"""

import json
import platform
from pathlib import Path

import numpy as np
import scipy
import statsmodels
from scipy import optimize, stats
from statsmodels.stats.power import TTestPower
from statsmodels.stats.weightstats import ttost_paired

HERE = Path(__file__).resolve().parent
RNG = np.random.default_rng(20261124)


def samples():
    return {
        # Ten participants' mean differences on a 1-5 scale (the HARE study's unit and size).
        "participants_10": [0.4, 0.9, -0.2, 0.6, 1.1, 0.3, 0.0, 0.8, 0.5, -0.1],
        # A small effect in a larger study.
        "items_40": [float(x) for x in np.round(RNG.normal(0.2, 0.8, size=40), 3)],
        # A negative effect.
        "negative_12": [float(x) for x in np.round(RNG.normal(-0.6, 0.5, size=12), 3)],
        # Few units, a large effect.
        "large_5": [1.0, 1.5, 0.5, 2.0, 1.25],
        # Likert-like ties and zeros.
        "ties_16": [1.0, 0.0, 0.5, 1.0, -0.5, 1.5, 0.5, 1.0, 0.0, 2.0, 0.5, 0.5, -1.0, 1.0, 0.0, 0.5],
    }


def nct_cases():
    cases = []
    for df in [2.0, 4.0, 9.0, 29.0, 120.0]:
        for ncp in [-3.0, -0.5, 0.0, 0.7, 2.5, 8.0]:
            for t in [-4.0, -1.0, 0.0, 0.5, 2.0, 6.0]:
                cdf = float(stats.nct.cdf(t, df, ncp))
                if np.isfinite(cdf):  # scipy gives NaN far in some tails: those are left out
                    cases.append({"t": t, "df": df, "ncp": ncp, "cdf": cdf})
    return cases


def dz_interval(d):
    d = np.asarray(d)
    n = len(d)
    t = float(np.mean(d) / (np.std(d, ddof=1) / np.sqrt(n)))
    df = n - 1

    def bound(p):
        f = lambda nc: stats.nct.cdf(t, df, nc) - p
        # The distribution function falls as nc grows; grow a bracket from t (scipy's nct
        # gives NaN far in the tails, so the bracket stays as narrow as it can).
        lo, hi, step = t, t, 0.5
        while f(lo) < 0:
            lo -= step
            step *= 2
        step = 0.5
        while f(hi) > 0:
            hi += step
            step *= 2
        return optimize.brentq(f, lo, hi, xtol=1e-13) / np.sqrt(n)

    return [float(bound(0.975)), float(bound(0.025))]


def ni_cases(data):
    cases = []
    for name, d in data.items():
        d = np.asarray(d)
        for margin in [0.25, 0.5]:
            zeros = np.zeros_like(d)
            _, (t1, p1, df1), _ = ttost_paired(d, zeros, -margin, 1e9)
            w = stats.wilcoxon(d + margin, alternative="greater")
            cases.append({
                "sample": name,
                "margin": margin,
                "t": float(t1),
                "df": float(df1),
                "p_t": float(p1),
                "p_wilcoxon": float(w.pvalue),
            })
    return cases


def power_cases():
    cases = []
    power = TTestPower()
    for d in [0.2, 0.45, 0.8]:
        for n in [5, 10, 20, 41, 80]:
            for alpha in [0.05, 0.05 / 12]:
                for alt in ["two-sided", "larger"]:
                    cases.append({
                        "effect": d,
                        "n": n,
                        "alpha": alpha,
                        "alternative": "two-sided" if alt == "two-sided" else "greater",
                        "power": float(power.power(effect_size=d, nobs=n, alpha=alpha, alternative=alt)),
                    })
    return cases


def main():
    data = samples()
    out = {
        "versions": {
            "python": platform.python_version(),
            "numpy": np.__version__,
            "scipy": scipy.__version__,
            "statsmodels": statsmodels.__version__,
        },
        "samples": data,
        "nct_cdf": nct_cases(),
        "d_z_ci95": {name: dz_interval(d) for name, d in data.items()},
        "non_inferiority": ni_cases(data),
        "t_power": power_cases(),
    }
    (HERE / "plan_reference.json").write_text(json.dumps(out, indent=1) + "\n")


if __name__ == "__main__":
    main()
