#!/usr/bin/env python3
"""The statistics of `juror analyze` (the `juror.report/1` report), computed independently with
the Python libraries, for the analysis benchmark (docs/benchmarks.md, "Analysis").

Reads a tidy Likert CSV (item_id,system_id,annotator_id,dimension,score), computes, per
dimension, exactly what docs/analysis.md says the report holds, and writes it as JSON in the
report's shape (same field names), with the library versions and its own timings:

- systems (over item means, items in byte order): n, n_ratings, mean, sd (ddof 1), median,
  95% t interval (scipy.stats.t.interval), distribution; a percentile bootstrap interval with
  numpy's generator (a different random stream from Juror's, so only comparable in size);
- agreement (units = (item, system) cells, raters = annotators): Fleiss' kappa
  (statsmodels.stats.inter_rater.fleiss_kappa on aggregate_raters), Krippendorff's alpha
  nominal / ordinal / interval (krippendorff.alpha, value_domain = the values seen), Cohen's
  kappa for every pair of annotators (sklearn.metrics.cohen_kappa_score, weights None / linear /
  quadratic, labels = the values seen), the pair's exact-agreement rate and the percent
  agreement (Fleiss's P-bar, numpy);
- comparisons (every pair of systems a < b, item means on common items, d = a - b):
  scipy.stats.wilcoxon(d) with its defaults (statistic, p-value), its z (method="asymptotic"),
  W+ and W- from scipy.stats.rankdata, d_z, g_z and the rank-biserial r; Holm and Bonferroni
  (statsmodels.stats.multitest.multipletests) over every comparison of every dimension;
- flags: cells with two or more ratings whose SD (ddof 1) is above --flag-sd.

Usage: analysis.py CSV --out FILE [--resamples 1000] [--seed 0] [--flag-sd 1.5]
Needs numpy, scipy, pandas, statsmodels, scikit-learn, krippendorff (versions in the output).
"""

import argparse
import importlib.metadata
import json
import math
import platform
import sys
import time

T0 = time.perf_counter()

import krippendorff  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import scipy.stats as st  # noqa: E402
from sklearn.metrics import cohen_kappa_score  # noqa: E402
from statsmodels.stats.inter_rater import aggregate_raters, fleiss_kappa  # noqa: E402
from statsmodels.stats.multitest import multipletests  # noqa: E402

LEVEL = 0.95
PACKAGES = ["numpy", "scipy", "pandas", "statsmodels", "scikit-learn", "krippendorff"]


def num(x):
    """A float for JSON: None for NaN or infinity (the report's null)."""
    if x is None:
        return None
    x = float(x)
    return x if math.isfinite(x) else None


def systems_section(sub, means, resamples, seed):
    out = []
    for system in sorted(means):
        x = means[system].to_numpy()
        n = len(x)
        scores = sub.loc[sub.system_id == system, "score"]
        counts = scores.value_counts().sort_index()
        entry = {
            "system": system,
            "n": n,
            "n_ratings": int(len(scores)),
            "mean": num(np.mean(x)),
            "sd": num(np.std(x, ddof=1)) if n > 1 else None,
            "median": num(np.median(x)),
            "ci95": None,
            "distribution": [{"score": float(s), "count": int(c)} for s, c in counts.items()],
        }
        if n > 1:
            low, high = st.t.interval(LEVEL, n - 1, loc=np.mean(x), scale=st.sem(x))
            entry["ci95"] = {"low": num(low), "high": num(high)}
        rng = np.random.default_rng(seed)
        boot = x[rng.integers(0, n, size=(resamples, n))].mean(axis=1)
        alpha = 1 - LEVEL
        entry["bootstrap"] = {
            "low": num(np.quantile(boot, alpha / 2)),
            "high": num(np.quantile(boot, 1 - alpha / 2)),
        }
        out.append(entry)
    return out


def agreement_section(sub, timings):
    # Units x raters, raters in order of first appearance (as Juror), NaN where missing.
    raters = list(pd.unique(sub.annotator_id))
    wide = sub.pivot_table(
        index=["item_id", "system_id"], columns="annotator_id", values="score", aggfunc="first"
    )[raters]
    matrix = wide.to_numpy(dtype=float)
    rated = (~np.isnan(matrix)).sum(axis=1)
    pairable = matrix[rated >= 2]
    categories = np.unique(matrix[~np.isnan(matrix)])

    # Fleiss (statsmodels needs the same number of ratings per unit: a complete design).
    fleiss = None
    if len(pairable) and np.all(~np.isnan(pairable)):
        table, _ = aggregate_raters(pairable.astype(int))
        fleiss = num(fleiss_kappa(table, method="fleiss"))
    # Percent agreement (Fleiss's P-bar), any number of ratings per unit.
    counts = np.stack([(pairable == c).sum(axis=1) for c in categories], axis=1)
    n_i = counts.sum(axis=1)
    p_i = (counts * (counts - 1)).sum(axis=1) / (n_i * (n_i - 1))

    alphas = {
        level: num(
            krippendorff.alpha(
                reliability_data=matrix.T, level_of_measurement=level, value_domain=categories
            )
        )
        for level in ["nominal", "ordinal", "interval"]
    }

    t_cohen = time.perf_counter()
    cohen = []
    for i, a in enumerate(raters):
        for b in raters[i + 1 :]:
            x, y = wide[a].to_numpy(), wide[b].to_numpy()
            both = ~np.isnan(x) & ~np.isnan(y)
            x, y = x[both], y[both]
            if not both.any():
                continue
            pair = {
                "annotator_a": a,
                "annotator_b": b,
                "units": int(both.sum()),
                "agreement": num(np.mean(x == y)),
            }
            for name, weights in [("unweighted", None), ("linear", "linear"), ("quadratic", "quadratic")]:
                pair[name] = num(cohen_kappa_score(x, y, labels=categories, weights=weights))
            cohen.append(pair)
    timings["agreement: cohen_kappa (scikit-learn)"] = (
        timings.get("agreement: cohen_kappa (scikit-learn)", 0.0) + time.perf_counter() - t_cohen
    )

    return {
        "units": int(len(pairable)),
        "annotators": len(raters),
        "fleiss_kappa": fleiss,
        "krippendorff_alpha": alphas,
        "cohen_kappa": cohen,
        "percent_agreement": num(p_i.mean()) if len(p_i) else None,
    }


def compare(a, b, xa, xb):
    common = xa.index.intersection(xb.index).sort_values()
    x, y = xa[common].to_numpy(), xb[common].to_numpy()
    d = x - y
    out = {
        "system_a": a,
        "system_b": b,
        "n": len(d),
        "mean_a": num(np.mean(x)),
        "mean_b": num(np.mean(y)),
        "mean_diff": num(np.mean(d)),
    }
    nonzero = d[d != 0]
    if len(nonzero) == 0:
        return out
    res = st.wilcoxon(d)  # scipy's defaults: zero_method="wilcox", correction=False, auto method
    ranks = st.rankdata(np.abs(nonzero))
    w_plus, w_minus = ranks[nonzero > 0].sum(), ranks[nonzero < 0].sum()
    _, group_sizes = np.unique(np.abs(nonzero), return_counts=True)
    # scipy's "auto" rule (1.15 and later): exact for N <= 50 without ties or zeros.
    normal = len(d) > 50 or (group_sizes > 1).any() or len(nonzero) < len(d)
    if normal and len(d) <= 13:
        method = "permutation"
    else:
        method = "normal" if normal else "exact"
    z = st.wilcoxon(d, method="asymptotic").zstatistic if method == "normal" else None
    # scipy's z is signed by the statistic min(W+, W-); Juror's by W+ - E(W+).
    if z is not None and w_plus > w_minus:
        z = -z
    out["wilcoxon"] = {
        "statistic": num(res.statistic),
        "w_plus": num(w_plus),
        "w_minus": num(w_minus),
        "n_nonzero": len(nonzero),
        "zeros": len(d) - len(nonzero),
        "ties": bool((group_sizes > 1).any()),
        "method": method,
        "z": num(z),
    }
    out["p_value"] = num(res.pvalue)
    sd = np.std(d, ddof=1)
    if len(d) >= 3 and sd > 0:
        out["d_z"] = num(np.mean(d) / sd)
        out["g_z"] = num((1 - 3 / (4 * (len(d) - 1) - 1)) * np.mean(d) / sd)
        out["rank_biserial"] = num((w_plus - w_minus) / (w_plus + w_minus))
    return out


def flags_section(sub, flag_sd):
    flags = []
    for (item, system), cell in sub.groupby(["item_id", "system_id"], sort=True):
        if len(cell) < 2:
            continue
        scores = cell.score.to_numpy()
        sd = np.std(scores, ddof=1)
        if sd > flag_sd:
            flags.append(
                {
                    "item": item,
                    "system": system,
                    "n": len(scores),
                    "mean": num(np.mean(scores)),
                    "sd": num(sd),
                    "ratings": [
                        {"annotator": a, "score": float(s)}
                        for a, s in zip(cell.annotator_id, cell.score)
                    ],
                }
            )
    return flags


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("csv")
    parser.add_argument("--out", required=True)
    parser.add_argument("--resamples", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--flag-sd", type=float, default=1.5)
    args = parser.parse_args()

    t_start = time.perf_counter()
    df = pd.read_csv(
        args.csv,
        dtype={"item_id": str, "system_id": str, "annotator_id": str, "dimension": str},
        keep_default_na=False,
    )
    df["score"] = df["score"].astype(float)
    t_read = time.perf_counter()

    timings = {}
    dimensions = []
    for dim in pd.unique(df.dimension):  # order of first appearance, as Juror without a study
        t = time.perf_counter()
        sub = df[df.dimension == dim]
        cell_means = sub.groupby(["system_id", "item_id"], sort=True).score.mean()
        means = {s: cell_means.loc[s] for s in cell_means.index.get_level_values(0).unique()}
        section = {
            "dimension": dim,
            "ratings": int(len(sub)),
            "items": int(sub.item_id.nunique()),
            "annotators": int(sub.annotator_id.nunique()),
        }
        t1 = time.perf_counter()
        section["systems"] = systems_section(sub, means, args.resamples, args.seed)
        t2 = time.perf_counter()
        section["agreement"] = agreement_section(sub, timings)
        t3 = time.perf_counter()
        names = sorted(means)
        section["comparisons"] = [
            compare(a, b, means[a], means[b]) for i, a in enumerate(names) for b in names[i + 1 :]
        ]
        t4 = time.perf_counter()
        section["flags"] = flags_section(sub, args.flag_sd)
        t5 = time.perf_counter()
        for key, dt in [
            ("item_means", t1 - t),
            ("systems", t2 - t1),
            ("agreement", t3 - t2),
            ("comparisons", t4 - t3),
            ("flags", t5 - t4),
        ]:
            timings[key] = timings.get(key, 0.0) + dt
        dimensions.append(section)

    # Holm and Bonferroni over every comparison with a p-value, all dimensions together.
    tested = [c for d in dimensions for c in d["comparisons"] if c.get("p_value") is not None]
    if tested:
        ps = [c["p_value"] for c in tested]
        holm = multipletests(ps, method="holm")[1]
        bonferroni = multipletests(ps, method="bonferroni")[1]
        for c, h, b in zip(tested, holm, bonferroni):
            c["p_holm"], c["p_bonferroni"] = num(h), num(b)
    t_end = time.perf_counter()

    result = {
        "format": "juror-bench.python-reference/1",
        "csv": args.csv,
        "settings": {"flag_sd": args.flag_sd, "seed": args.seed, "resamples": args.resamples,
                     "level": LEVEL, "ratings": int(len(df))},
        "versions": {"python": platform.python_version(),
                     **{p: importlib.metadata.version(p) for p in PACKAGES}},
        "timing": {
            "imports_s": t_start - T0,
            "read_s": t_read - t_start,
            "compute_s": t_end - t_read,
            "read_and_compute_s": t_end - t_start,
            "sections_s": timings,
        },
        "dimensions": dimensions,
    }
    with open(args.out, "w", encoding="utf-8") as f:
        json.dump(result, f, indent=1)
        f.write("\n")
    print(
        f"python: read {t_read - t_start:.2f} s, statistics {t_end - t_read:.2f} s "
        f"(imports {t_start - T0:.2f} s)",
        file=sys.stderr,
    )


if __name__ == "__main__":
    main()
