#!/usr/bin/env python3
"""Reference values for `crates/juror-core/src/stats/paired.rs`, `describe.rs`, `trend.rs` and
`special/`, from scipy, statsmodels and numpy.

Run from anywhere:

    python3 -m venv /tmp/refenv2
    /tmp/refenv2/bin/pip install numpy scipy statsmodels pandas
    /tmp/refenv2/bin/python crates/juror-core/tests/reference/paired/make_reference.py

It writes `reference.json` beside itself: every input, every expected output and the library
versions. `crates/juror-core/tests/it/paired.rs` reads it. Real data: SummEval expert ratings
(Fabbri et al., TACL 2021; MIT licence) from the repository's data/ folder (see its README.md);
set JUROR_DATASETS to read them from elsewhere. The per-item means used are stored in the JSON, so
the Rust tests need no dataset.
"""

import json
import os
import platform
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import scipy
import statsmodels
from scipy import special, stats
from statsmodels.stats.multitest import multipletests

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from juror_stream import Stream  # noqa: E402

# The repository's `data/` folder (data/README.md: sources, licences); JUROR_DATASETS overrides it.
DATASETS = Path(
    os.environ.get("JUROR_DATASETS", Path(__file__).resolve().parents[5] / "data")
)
RNG = np.random.default_rng(20240611)


def floats(xs):
    return [float(x) for x in xs]


def nan_to_none(x):
    x = float(x)
    return None if np.isnan(x) else x


# --------------------------------------------------------------------------------------------
# Special functions, against scipy.special
# --------------------------------------------------------------------------------------------

def special_cases():
    gamma_x = [1e-8, 1e-3, 0.1, 0.5, 1.0, 1.5, 2.0, 2.5, 3.3, 7.5, 9.99, 10.0, 12.5, 50.0,
               171.5, 1000.0, 12345.6, 1e6]
    erfc_x = [-6.0, -2.0, -1.0, -0.3, 0.0, 1e-10, 0.1, 0.5, 1.0, 1.2, 1.2247, 1.2248, 1.5, 2.0,
              3.0, 4.0, 5.0, 6.0, 8.0, 10.0, 15.0, 20.0, 26.0]
    ndtr_z = [-38.0, -20.0, -10.0, -8.0, -5.0, -3.0, -1.959963984540054, -1.0, -0.1, 0.0, 0.3,
              1.0, 1.96, 3.0, 6.0, 9.0]
    ndtri_p = [1e-300, 1e-100, 1e-20, 1e-8, 1e-4, 0.001, 0.025, 0.05, 0.1, 0.3, 0.5, 0.7,
               0.9, 0.95, 0.975, 0.999, 1 - 1e-10]
    t_grid = [(1.0, t) for t in (-30.0, -3.0, -1.0, 0.0, 0.5, 2.0, 12.7, 1000.0)]
    t_grid += [(df, t) for df in (2.0, 3.0, 4.5, 9.0, 29.0, 98.0, 1000.0, 1e6)
               for t in (-8.0, -2.1, -0.7, 0.05, 1.0, 1.96, 2.5, 4.0, 12.0)]
    tq_grid = [(df, p) for df in (1.0, 2.0, 3.0, 4.0, 9.0, 14.0, 29.0, 99.0, 1000.0)
               for p in (1e-6, 0.005, 0.025, 0.05, 0.3, 0.5, 0.8, 0.975, 0.995)]
    beta_grid = [(a, b, x) for a in (0.5, 1.0, 2.5, 7.0, 40.0, 300.0)
                 for b in (0.5, 1.0, 3.0, 15.0, 120.0)
                 for x in (1e-6, 0.01, 0.2, 0.5, 0.8, 0.97, 0.999999)]
    betainv_grid = [(a, b, p) for a in (0.5, 1.0, 3.0, 20.0, 250.0)
                    for b in (0.5, 2.0, 9.0, 80.0)
                    for p in (1e-8, 0.025, 0.3, 0.5, 0.975, 1 - 1e-8)]
    return {
        "ln_gamma": [{"x": x, "value": float(special.gammaln(x))} for x in gamma_x],
        "erfc": [{"x": x, "value": float(special.erfc(x))} for x in erfc_x],
        "normal_cdf": [{"z": z, "value": float(special.ndtr(z))} for z in ndtr_z],
        "normal_sf": [{"z": z, "value": float(stats.norm.sf(z))} for z in ndtr_z],
        "normal_quantile": [{"p": p, "value": float(special.ndtri(p))} for p in ndtri_p],
        "t_cdf": [{"df": df, "t": t, "value": float(special.stdtr(df, t))} for df, t in t_grid],
        "t_sf": [{"df": df, "t": t, "value": float(stats.t.sf(t, df))} for df, t in t_grid],
        "t_quantile": [{"df": df, "p": p, "value": float(special.stdtrit(df, p))}
                       for df, p in tq_grid],
        "beta_inc": [{"a": a, "b": b, "x": x, "value": float(special.betainc(a, b, x))}
                     for a, b, x in beta_grid],
        "beta_inc_inv": [{"a": a, "b": b, "p": p, "value": float(special.betaincinv(a, b, p))}
                         for a, b, p in betainv_grid],
    }


# --------------------------------------------------------------------------------------------
# Samples
# --------------------------------------------------------------------------------------------

def summeval_means(dimension, systems, items=None):
    """Per-item means over the three experts, for each system, on items sorted by id."""
    df = pd.read_csv(DATASETS / "summeval" / "summeval_expert_long.csv")
    df = df[(df["dimension"] == dimension) & (df["system_id"].isin(systems))]
    # Mean of three integer scores: the integer sum, divided once (exactly what numpy's mean of
    # three small integers gives).
    sums = df.groupby(["item_id", "system_id"])["score"].sum().unstack("system_id")
    counts = df.groupby(["item_id", "system_id"])["score"].count().unstack("system_id")
    assert (counts == 3).all().all()
    means = (sums / 3.0).sort_index()
    if items is not None:
        means = means.iloc[:items]
    return [floats(means[s]) for s in systems], list(means.index)


def samples():
    """Named samples of paired differences (or x, y pairs) used by several statistics."""
    out = []

    # scipy.stats.wilcoxon documentation: Wilcoxon (1945) via Fisher, cross- minus
    # self-fertilized corn heights; documented (statistic, pvalue) = (24.0, 0.041259765625),
    # asymptotic pvalue 0.04088813291185591.
    out.append({"name": "scipy_doc_corn",
                "d": [6, 8, 14, 16, 23, 24, 28, 29, 41, -48, 49, 56, 60, -67, 75],
                "documented": {"statistic": 24.0, "pvalue": 0.041259765625,
                               "asymptotic_pvalue": 0.04088813291185591}})
    # Same documentation: differences computed from x and y are not exactly tied in floating
    # point (0.825 - 0.775 != 0.55 - 0.5).
    out.append({"name": "scipy_doc_xy",
                "x": [0.5, 0.825, 0.375, 0.5], "y": [0.525, 0.775, 0.325, 0.55]})

    def continuous(name, n, shift):
        out.append({"name": name, "d": floats(np.round(RNG.normal(shift, 1.0, n), 6))})

    continuous("normal_n10_exact", 10, 0.4)
    continuous("normal_n30_exact", 30, 0.3)
    continuous("normal_n50_exact", 50, 0.2)
    continuous("normal_n51_asymptotic", 51, 0.2)
    continuous("normal_n300_asymptotic", 300, 0.1)

    def likert_diffs(name, n, p_up):
        # Differences of two 1..5 ratings: many ties and zeros.
        a = RNG.integers(1, 6, n)
        b = np.clip(a - RNG.choice([-1, 0, 1, 2], n, p=[0.2, 0.35, p_up, 0.45 - p_up]), 1, 5)
        out.append({"name": name, "d": floats(a - b)})

    likert_diffs("likert_n8_zeros_ties", 8, 0.3)
    likert_diffs("likert_n12_zeros_ties", 12, 0.3)
    likert_diffs("likert_n40_zeros_ties", 40, 0.25)
    likert_diffs("likert_n200_zeros_ties", 200, 0.25)
    # Ties but no zeros, at and around scipy's permutation threshold (n <= 13).
    out.append({"name": "ties_no_zeros_n13", "d": [1.0, -2.0, 3.0, 3.0, 4.0, 5.0, -5.0, 6.0,
                                                    7.0, 8.0, 8.0, 9.0, 10.0]})
    out.append({"name": "ties_no_zeros_n14", "d": [1.0, -2.0, 3.0, 3.0, 4.0, 5.0, -5.0, 6.0,
                                                    7.0, 8.0, 8.0, 9.0, 10.0, 11.0]})
    # Zeros but no ties.
    out.append({"name": "zeros_no_ties_n12", "d": [0.0, 0.0, 1.5, -0.5, 2.25, 3.0, -4.0, 5.5,
                                                    6.0, 7.25, 8.0, -9.5]})
    d = floats(np.round(RNG.normal(0.3, 1.0, 25), 6))
    d[3] = 0.0
    d[17] = 0.0
    out.append({"name": "zeros_no_ties_n25", "d": d})
    # Every difference on one side: the smallest possible p.
    out.append({"name": "all_positive_n9", "d": [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0]})
    # Ties at n = 18: exact permutation distribution asked for explicitly.
    out.append({"name": "ties_n18_forced_exact",
                "d": floats(RNG.integers(-3, 5, 18)), "forced_exact_permutation": True})

    # SummEval expert ratings, per-item means over three experts, system x minus system y.
    for dim, (sx, sy), items in [("coherence", ("M22", "M23"), None),
                                 ("coherence", ("M17", "M12"), None),
                                 ("relevance", ("M13", "M15"), None),
                                 ("coherence", ("M17", "M12"), 40),
                                 ("coherence", ("M17", "M12"), 12),
                                 ("fluency", ("M8", "M14"), 13)]:
        (x, y), ids = summeval_means(dim, [sx, sy], items)
        out.append({"name": f"summeval_{dim}_{sx}_vs_{sy}_n{len(x)}", "x": x, "y": y,
                    "source": "SummEval expert ratings (Fabbri et al. 2021, MIT), "
                              "mean of 3 experts per item; items sorted by id",
                    "first_item": ids[0]})
    return out


def diffs_of(sample):
    if "d" in sample:
        return np.asarray(sample["d"], dtype=float)
    return np.asarray(sample["x"], dtype=float) - np.asarray(sample["y"], dtype=float)


# --------------------------------------------------------------------------------------------
# Statistics
# --------------------------------------------------------------------------------------------

def describe(d):
    n = len(d)
    mean = float(np.mean(d))
    sd = float(np.std(d, ddof=1))
    low, high = stats.t.interval(0.95, n - 1, loc=mean, scale=sd / np.sqrt(n))
    return {"n": n, "mean": mean, "sd": sd, "median": float(np.median(d)),
            "ci95_low": float(low), "ci95_high": float(high)}


def bootstrap(d, level, resamples, seed):
    n = len(d)
    means = []
    for r in range(resamples):
        s = Stream(seed, "bootstrap", r, 0)
        idx = [s.below(n) for _ in range(n)]
        means.append(np.mean(d[idx]))
    alpha = 1.0 - level
    low, high = np.quantile(means, [alpha / 2, 1 - alpha / 2])
    return {"level": level, "resamples": resamples, "seed": seed, "mean": float(np.mean(d)),
            "low": float(low), "high": float(high)}


def scipy_auto_distribution(d):
    """Which null distribution scipy.stats.wilcoxon(method="auto") uses (scipy >= 1.13)."""
    n_all = len(d)
    nz = d[d != 0]
    ties = len(np.unique(np.abs(nz))) < len(nz)
    zeros = n_all - len(nz)
    if n_all > 50:
        return "normal"
    if not ties and zeros == 0:
        return "exact"
    if n_all <= 13:
        return "permutation"
    return "normal"


def wilcoxon(d, sample):
    nz = d[d != 0]
    ranks = stats.rankdata(np.abs(nz))
    res = stats.wilcoxon(d)
    asym = stats.wilcoxon(d, method="asymptotic")
    out = {
        "statistic": float(res.statistic),
        "pvalue": float(res.pvalue),
        "w_plus": float(ranks[nz > 0].sum()),
        "w_minus": float(ranks[nz < 0].sum()),
        "n": int(len(nz)),
        "zeros": int(len(d) - len(nz)),
        "ties": bool(len(np.unique(np.abs(nz))) < len(nz)),
        "distribution": scipy_auto_distribution(d),
        "asymptotic_pvalue": float(asym.pvalue),
        # scipy reports -|z| for a two-sided test.
        "asymptotic_z_abs": float(abs(asym.zstatistic)),
    }
    if out["zeros"] == 0 and not out["ties"]:
        out["exact_pvalue"] = float(stats.wilcoxon(d, method="exact").pvalue)
    if sample.get("forced_exact_permutation"):
        # The exact sign-flip distribution, enumerated: 2**18 patterns < n_resamples.
        perm = stats.permutation_test(
            (d,), lambda x, axis: _w_plus(x, axis), permutation_type="samples",
            n_resamples=np.inf, alternative="two-sided", vectorized=True)
        out["exact_permutation_pvalue"] = float(perm.pvalue)
    return out


def _w_plus(x, axis):
    x = np.moveaxis(np.asarray(x, dtype=float), axis, -1)
    r = stats.rankdata(np.where(x == 0, np.nan, np.abs(x)), axis=-1, nan_policy="omit")
    return np.nansum(np.where(x > 0, r, 0.0), axis=-1)


def effect(d):
    n = len(d)
    sd = float(np.std(d, ddof=1))
    if n < 3 or sd == 0.0:
        return None
    nz = d[d != 0]
    ranks = stats.rankdata(np.abs(nz))
    wp, wm = ranks[nz > 0].sum(), ranks[nz < 0].sum()
    d_z = float(np.mean(d)) / sd
    j = 1 - 3 / (4 * (n - 1) - 1)
    return {"mean_diff": float(np.mean(d)), "sd_diff": sd, "d_z": d_z, "j": j, "g_z": j * d_z,
            "rank_biserial": None if len(nz) == 0 else float((wp - wm) / (wp + wm))}


def trend_cases():
    cases = []
    rounds = np.repeat(np.arange(1, 21), 3).astype(float)
    drift = np.clip(np.round(3 + 0.05 * rounds + RNG.normal(0, 0.9, len(rounds))), 1, 5)
    cases.append(("likert_drift_20_rounds_3_raters", rounds, drift))
    flat = RNG.integers(1, 6, len(rounds)).astype(float)
    cases.append(("likert_flat_20_rounds", rounds, flat))
    x = np.arange(1.0, 31.0)
    cases.append(("continuous_decline_n30", x, floats(np.round(5 - 0.08 * x
                                                                + RNG.normal(0, 1, 30), 4))))
    cases.append(("perfect_increase_n6", np.arange(1.0, 7.0), 2.0 * np.arange(1.0, 7.0) + 1))
    cases.append(("small_n3", np.array([1.0, 2.0, 3.0]), np.array([4.0, 3.0, 3.5])))
    cases.append(("tied_rounds_n12", np.array([1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4], float),
                  np.array([3, 4, 3, 3, 4, 4, 4, 5, 4, 5, 4, 5], float)))
    out = []
    for name, x, y in cases:
        x = np.asarray(x, dtype=float)
        y = np.asarray(y, dtype=float)
        lr = stats.linregress(x, y)
        sp = stats.spearmanr(x, y)
        out.append({"name": name, "x": floats(x), "y": floats(y),
                    "slope": float(lr.slope), "intercept": float(lr.intercept),
                    "r": float(lr.rvalue), "slope_se": float(lr.stderr),
                    "pvalue": float(lr.pvalue),
                    "spearman_rho": nan_to_none(sp.statistic),
                    "spearman_pvalue": nan_to_none(sp.pvalue)})
    return out


def adjust_cases(wilcoxon_ps):
    lists = [
        ("wilcoxon_pvalues_of_this_file", wilcoxon_ps),
        ("textbook_5", [0.01, 0.04, 0.03, 0.005, 0.2]),
        ("ties_and_ones", [0.02, 0.02, 0.5, 1.0, 0.02, 0.0, 0.3]),
        ("capped", [0.3, 0.6, 0.9, 0.45]),
        ("single", [0.04]),
        ("uniform_random_20", floats(RNG.uniform(0, 0.2, 20))),
    ]
    out = []
    for name, ps in lists:
        ps = floats(ps)
        out.append({"name": name, "p": ps,
                    "holm": floats(multipletests(ps, method="holm")[1]),
                    "bonferroni": floats(multipletests(ps, method="bonferroni")[1])})
    return out


def to_json(value, indent=0):
    """JSON with one line per object member, but flat lists (and lists of flat lists) on one
    line, so that the file stays small and readable."""
    pad = " " * indent
    if isinstance(value, dict):
        if not value:
            return "{}"
        items = [f'{pad} {json.dumps(k)}: {to_json(v, indent + 1)}' for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + pad + "}"
    if isinstance(value, list) and any(isinstance(v, dict) for v in value):
        items = [pad + " " + to_json(v, indent + 1) for v in value]
        return "[\n" + ",\n".join(items) + "\n" + pad + "]"
    return json.dumps(value, separators=(",", ":"), allow_nan=False)


def main():
    results = []
    for sample in samples():
        d = diffs_of(sample)
        entry = dict(sample)
        entry["describe"] = describe(d)
        entry["wilcoxon"] = wilcoxon(d, sample)
        entry["effect"] = effect(d)
        entry["bootstrap"] = bootstrap(d, 0.95, 1000, 7) if len(d) <= 120 else None
        results.append(entry)
    doc = next(r for r in results if r["name"] == "scipy_doc_corn")
    assert doc["wilcoxon"]["statistic"] == doc["documented"]["statistic"]
    assert doc["wilcoxon"]["pvalue"] == doc["documented"]["pvalue"]
    assert doc["wilcoxon"]["asymptotic_pvalue"] == doc["documented"]["asymptotic_pvalue"]

    reference = {
        "about": "Reference values for juror-core stats::paired; written by make_reference.py",
        "versions": {
            "python": platform.python_version(),
            "numpy": np.__version__,
            "scipy": scipy.__version__,
            "statsmodels": statsmodels.__version__,
            "pandas": pd.__version__,
        },
        "special": special_cases(),
        "samples": results,
        "adjust": adjust_cases([r["wilcoxon"]["pvalue"] for r in results]),
        "trend": trend_cases(),
    }
    path = HERE / "reference.json"
    path.write_text(to_json(reference) + "\n")
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
