#!/usr/bin/env python3
"""Reference values for `crates/juror-core/src/stats/preference/sandwich.rs` (Bradley–Terry
ratings with sandwich intervals) from arena-rank, LMArena's ranking package.

Run from anywhere:

    python3 -m venv /tmp/refds
    /tmp/refds/bin/pip install arena-rank==0.1.1 scipy
    /tmp/refds/bin/python crates/juror-core/tests/reference/bt_sandwich/make_reference.py

It writes `reference.json` beside itself: every data set (model_a, model_b, winner, cluster
rows), and for each
- `arena_default`: what `BradleyTerry(n).compute_ratings_and_cis(PairDataset.from_pandas(df),
  significance_level=0.05)` gives with every default (L-BFGS stopped by ftol = gtol = 1e-9):
  ratings, rating_lower, rating_upper, variances, in the order of `competitors`;
- `arena_tight`: the same with `ftol=0, gtol=1e-13, max_iter=20000`, so the fit is the
  maximum-likelihood estimate to rounding (the default stops up to ~3e-4 points short);
- `numpy`: an independent dense implementation of the same estimator (Newton's method on the
  log-likelihood, the same ridge 1e-5 · N on the Hessian's diagonal, HC0 sandwich), plus
  what arena-rank does not compute: the cluster-robust sandwich (scores summed within each
  cluster before the outer product, no small-sample factor), the rank intervals from
  Bonferroni-adjusted simultaneous intervals of all K(K−1)/2 differences (for the HC0 and,
  when clustered, the clustered covariance), and the leaderboard's rank (1 + the number of
  systems whose lower bound is above this one's upper bound).

Ties: arena-rank's default outcome map counts "tie" and "both_bad" as 0.5 (half a win each).

Data sets, seeded:
- `five_ties`: 5 systems, every pair met between 3 and 60 times (uneven), 20% ties;
- `arena_eight`: 8 systems, 3000 battles, pairs drawn with unequal frequencies, 15% "tie" and
  8% "both_bad";
- `clustered`: 6 systems, 40 annotators with their own taste (a random shift of every
  system's strength) who each judge 25 battles; the cluster is the annotator.
"""

import json
import math
import platform
from importlib.metadata import version
from pathlib import Path

import jax
import numpy as np
import pandas as pd
from scipy.stats import norm

from arena_rank.models.bradley_terry import BradleyTerry
from arena_rank.utils.data_utils import PairDataset

ALPHA = 400.0 / math.log(10.0)
OFFSET = 1000.0
RIDGE = 1e-5
LEVEL = 0.95


def outcome(rng, p_a, tie, both_bad=0.0):
    u = rng.random()
    if u < tie:
        return "tie"
    if u < tie + both_bad:
        return "both_bad"
    return "model_a" if rng.random() < p_a else "model_b"


def five_ties(rng):
    theta = np.array([0.8, 0.3, 0.0, -0.2, -0.9])
    rows = []
    for i in range(5):
        for j in range(i + 1, 5):
            for _ in range(int(rng.integers(3, 61))):
                a, b = (i, j) if rng.random() < 0.5 else (j, i)
                p = 1.0 / (1.0 + math.exp(-(theta[a] - theta[b])))
                rows.append((f"s{a}", f"s{b}", outcome(rng, p, 0.2), None))
    return rows


def arena_eight(rng):
    theta = rng.normal(0.0, 0.5, size=8)
    pop = rng.uniform(0.3, 1.0, size=8)
    names = [f"model-{k}" for k in "abcdefgh"]
    rows = []
    for _ in range(3000):
        a, b = rng.choice(8, size=2, replace=False, p=pop / pop.sum())
        p = 1.0 / (1.0 + math.exp(-(theta[a] - theta[b])))
        rows.append((names[a], names[b], outcome(rng, p, 0.15, 0.08), None))
    return rows


def clustered(rng):
    theta = np.array([0.6, 0.4, 0.1, 0.0, -0.3, -0.8])
    rows = []
    for c in range(40):
        taste = theta + rng.normal(0.0, 0.6, size=6)
        for _ in range(25):
            a, b = rng.choice(6, size=2, replace=False)
            p = 1.0 / (1.0 + math.exp(-(taste[a] - taste[b])))
            rows.append((f"sys{a}", f"sys{b}", outcome(rng, p, 0.1), f"ann{c:02d}"))
    return rows


def arena(df, **kw):
    dataset = PairDataset.from_pandas(df)
    model = BradleyTerry(n_competitors=len(dataset.competitors), **kw)
    r = model.compute_ratings_and_cis(dataset, significance_level=1.0 - LEVEL)
    return {
        "competitors": list(r["competitors"]),
        "ratings": [float(x) for x in r["ratings"]],
        "rating_lower": [float(x) for x in r["rating_lower"]],
        "rating_upper": [float(x) for x in r["rating_upper"]],
        "variances": [float(x) for x in r["variances"]],
    }


def rank_intervals(theta, cov, level):
    k = len(theta)
    m = k * (k - 1) // 2
    z = norm.ppf(1.0 - (1.0 - level) / (2.0 * m))
    above = np.zeros((k, k), dtype=bool)  # above[i, j]: i significantly above j
    for i in range(k):
        for j in range(k):
            if i != j:
                se = math.sqrt(cov[i, i] + cov[j, j] - 2.0 * cov[i, j])
                above[i, j] = theta[i] - theta[j] - z * se > 0.0
    lo = [1 + int(above[:, i].sum()) for i in range(k)]
    hi = [k - int(above[i, :].sum()) for i in range(k)]
    return {"z": float(z), "lower": lo, "upper": hi}


def sandwich(a_mat, scores):
    b = scores.T @ scores
    a_inv = np.linalg.inv(a_mat)
    return a_inv @ b @ a_inv


def numpy_fit(df, competitors):
    index = {c: k for k, c in enumerate(competitors)}
    k = len(competitors)
    ia = np.array([index[x] for x in df.model_a])
    ib = np.array([index[x] for x in df.model_b])
    y = df.winner.map({"model_a": 1.0, "model_b": 0.0}).fillna(0.5).to_numpy()
    n = len(y)
    x = np.zeros((n, k))
    x[np.arange(n), ia] = 1.0
    x[np.arange(n), ib] = -1.0
    theta = np.zeros(k)
    for it in range(100):
        p = 1.0 / (1.0 + np.exp(-(x @ theta)))
        g = x.T @ (y - p)
        h = (x * (p * (1 - p))[:, None]).T @ x
        step = np.linalg.solve(h + np.ones((k, k)), g)
        theta += step
        if np.max(np.abs(step)) < 1e-14:
            break
    theta -= theta.mean()
    p = 1.0 / (1.0 + np.exp(-(x @ theta)))
    h = (x * (p * (1 - p))[:, None]).T @ x + RIDGE * n * np.eye(k)
    scores = x * (y - p)[:, None]
    cov = sandwich(h, scores)
    z = norm.ppf(0.5 + LEVEL / 2.0)
    se = np.sqrt(np.diag(cov))
    out = {
        "newton_iterations": it + 1,
        "ratings": list(ALPHA * theta + OFFSET),
        "se": list(ALPHA * se),
        "lower": list(ALPHA * (theta - z * se) + OFFSET),
        "upper": list(ALPHA * (theta + z * se) + OFFSET),
        "covariance": (ALPHA**2 * cov).tolist(),
        "ranks": rank_intervals(theta, cov, LEVEL),
    }
    lower, upper = out["lower"], out["upper"]
    out["leaderboard_rank"] = [1 + int(sum(lower[j] > upper[i] for j in range(k))) for i in range(k)]
    if df.cluster.notna().any():
        groups = sorted(set(df.cluster))
        gi = {c: g for g, c in enumerate(groups)}
        summed = np.zeros((len(groups), k))
        np.add.at(summed, np.array([gi[c] for c in df.cluster]), scores)
        ccov = sandwich(h, summed)
        cse = np.sqrt(np.diag(ccov))
        out["clustered"] = {
            "clusters": len(groups),
            "se": list(ALPHA * cse),
            "lower": list(ALPHA * (theta - z * cse) + OFFSET),
            "upper": list(ALPHA * (theta + z * cse) + OFFSET),
            "covariance": (ALPHA**2 * ccov).tolist(),
            "ranks": rank_intervals(theta, ccov, LEVEL),
        }
    return out


def main():
    cases = []
    for name, make, seed in [
        ("five_ties", five_ties, 1),
        ("arena_eight", arena_eight, 2),
        ("clustered", clustered, 3),
    ]:
        rows = make(np.random.default_rng(seed))
        df = pd.DataFrame(rows, columns=["model_a", "model_b", "winner", "cluster"])
        default = arena(df)
        tight = arena(df, ftol=0.0, gtol=1e-13, max_iter=20000)
        cases.append(
            {
                "name": name,
                "rows": [list(r) for r in rows],
                "expected": {
                    "competitors": default["competitors"],
                    "arena_default": default,
                    "arena_tight": tight,
                    "numpy": numpy_fit(df, default["competitors"]),
                },
            }
        )
    out = {
        "generated_by": "crates/juror-core/tests/reference/bt_sandwich/make_reference.py",
        "versions": {
            "python": platform.python_version(),
            "arena-rank": version("arena-rank"),
            "jax": jax.__version__,
            "optax": version("optax"),
            "numpy": np.__version__,
            "pandas": pd.__version__,
            "scipy": version("scipy"),
        },
        "model": (
            "arena_rank BradleyTerry(n_competitors) defaults (scale 400, base 10, "
            "init_rating 1000, hessian_reg 1e-5) on PairDataset.from_pandas(df), "
            "compute_ratings_and_cis(significance_level=0.05, ci_method='sandwich')"
        ),
        "level": LEVEL,
        "cases": cases,
    }
    path = Path(__file__).with_name("reference.json")
    path.write_text(json.dumps(out, indent=1) + "\n")
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
