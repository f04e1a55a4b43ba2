#!/usr/bin/env python3
"""Reference values for `crates/juror-core/src/stats/nominal.rs` (tests on categories and
ranks) and for the chi-square distribution behind them (`special::gamma_q`, `special::chi2_sf`
in `stats/special/chi2.rs`), from scipy and statsmodels.

Run from anywhere:

    python3 -m venv /tmp/refenv
    /tmp/refenv/bin/pip install numpy scipy statsmodels
    /tmp/refenv/bin/python crates/juror-core/tests/reference/nominal/make_reference.py

It writes `reference.json` beside itself: every input, every expected output and the library
versions. `crates/juror-core/tests/it/nominal.rs` reads it and checks the number of cases in
each section, so a case added here must be counted there.

- chi_square: `scipy.stats.chisquare(counts)` (equal expected shares);
- multinomial: the exact multinomial test against equal shares. For k = 2 it is
  `scipy.stats.binomtest(x, n, 0.5).pvalue`; for k > 2 every outcome is enumerated and its
  probability taken from `scipy.stats.multinomial.pmf`, and the p-value is the sum (math.fsum)
  of the probabilities no greater than the observed one times 1 + 1e-7 (binomtest's and R's
  EMT's tolerance). The k = 2 cases are also enumerated, as a check of the enumeration;
- friedman: `scipy.stats.friedmanchisquare(*columns)`; Kendall's W = statistic / (n (k - 1));
  mean ranks, S and the uncorrected W = 12 S / (n^2 (k^3 - k)) from `scipy.stats.rankdata`
  within rows;
- mcnemar: `statsmodels.stats.contingency_tables.mcnemar([[a, b], [c, d]], exact=True)`;
- cochran: `statsmodels.stats.contingency_tables.cochrans_q(x)`;
- special: `scipy.special.gammaincc(a, x)` and `scipy.stats.chi2.sf(x, df)` on a grid.
"""

import itertools
import json
import math
import platform
from pathlib import Path

import numpy as np
import scipy
import statsmodels
from scipy import special, stats
from statsmodels.stats.contingency_tables import cochrans_q, mcnemar

HERE = Path(__file__).resolve().parent
RNG = np.random.default_rng(20250317)
TOLERANCE = 1 + 1e-7


def ints(xs):
    return [int(x) for x in xs]


# --------------------------------------------------------------------------------------------
# Special functions
# --------------------------------------------------------------------------------------------

def special_cases():
    a_grid = [0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 4.5, 7.0, 12.5, 25.0, 50.0, 100.0]
    x_grid = [1e-6, 0.01, 0.3, 1.0, 1.4, 2.0, 3.0, 5.0, 8.0, 13.0, 20.0, 30.0, 50.0, 80.0,
              120.0, 200.0, 400.0, 700.0]
    gamma = []
    for a in a_grid:
        for x in x_grid:
            value = float(special.gammaincc(a, x))
            if value > 0.0:  # underflow is left out: nothing to compare relatively
                gamma.append({"a": a, "x": x, "value": value})
    # Around the switch from the series to the continued fraction (x = a + 1).
    for a in [0.5, 2.0, 9.5, 40.0]:
        for x in [a + 1 - 1e-9, a + 1, a + 1 + 1e-9]:
            gamma.append({"a": a, "x": x, "value": float(special.gammaincc(a, x))})
    chi2 = []
    for df in [1, 2, 3, 4, 5, 6, 8, 11, 15, 20, 30, 50]:
        for x in [0.0, 1e-8, 0.05, 0.5, 1.0, 2.5, 3.841458820694124, 6.0, 9.5, 15.0, 25.0,
                  40.0, 75.0, 150.0, 400.0, 1000.0]:
            value = float(stats.chi2.sf(x, df))
            if value > 0.0:
                chi2.append({"df": df, "x": x, "value": value})
    return {"gamma_q": gamma, "chi2_sf": chi2}


# --------------------------------------------------------------------------------------------
# Goodness of fit to equal shares
# --------------------------------------------------------------------------------------------

def count_samples():
    """Named count vectors: hand-written edge cases, then seeded ones."""
    samples = [
        ("two_balanced", [10, 10]),
        ("two_one_empty", [0, 7]),
        ("three_small", [1, 0, 2]),
        ("three_equal", [4, 4, 4]),
        ("three_off_by_one", [4, 3, 3]),
        ("three_zeros", [0, 0, 9]),
        # (6, 1, 1) and (5, 3, 0) are equally likely: 6!·1!·1! = 5!·3!·0!.
        ("equal_probability_a", [6, 1, 1]),
        ("equal_probability_b", [5, 3, 0]),
        ("four_skewed", [12, 3, 2, 1]),
        ("six_sparse", [3, 0, 1, 0, 0, 1]),
        ("large", [1000, 1100, 950, 1020]),
    ]
    for i, (k, n) in enumerate([(2, 15), (2, 63), (2, 200), (3, 30), (3, 90), (3, 200),
                                (4, 20), (4, 60), (5, 18), (5, 35), (6, 12), (6, 22)]):
        shares = RNG.dirichlet(np.full(k, 4.0))
        samples.append((f"seeded_{i}_k{k}_n{n}", ints(RNG.multinomial(n, shares))))
    for i, k in enumerate([7, 10]):
        samples.append((f"seeded_wide_{i}_k{k}", ints(RNG.integers(0, 40, size=k))))
    return samples


def chi_square_cases(samples):
    cases = []
    for name, counts in samples:
        res = stats.chisquare(counts)
        cases.append({
            "name": name,
            "counts": counts,
            "statistic": float(res.statistic),
            "df": len(counts) - 1,
            "p_value": float(res.pvalue),
        })
    return cases


def compositions(n, k):
    """Every k-tuple of non-negative integers summing to n (stars and bars)."""
    for bars in itertools.combinations(range(n + k - 1), k - 1):
        prev = -1
        parts = []
        for b in bars:
            parts.append(b - prev - 1)
            prev = b
        parts.append(n + k - 1 - prev - 1)
        yield parts


def multinomial_by_enumeration(counts):
    n, k = sum(counts), len(counts)
    shares = [1.0 / k] * k
    outcomes = np.array(list(compositions(n, k)))
    pmf = stats.multinomial.pmf(outcomes, n, shares)
    observed = stats.multinomial.pmf(counts, n, shares)
    return min(1.0, math.fsum(pmf[pmf <= observed * TOLERANCE])), len(outcomes)


def multinomial_cases(samples):
    cases = []
    for name, counts in samples:
        n, k = sum(counts), len(counts)
        if n > 200 or k > 6:
            continue
        enumerated, outcomes = multinomial_by_enumeration(counts)
        case = {"name": name, "counts": counts, "outcomes": outcomes}
        if k == 2:
            p = float(stats.binomtest(counts[0], n, 0.5).pvalue)
            assert abs(p - enumerated) <= 1e-12, (name, p, enumerated)
            case.update(p_value=p, method="binomtest", enumerated=enumerated)
        else:
            case.update(p_value=enumerated, method="enumeration")
        cases.append(case)
    return cases


# --------------------------------------------------------------------------------------------
# Friedman
# --------------------------------------------------------------------------------------------

def friedman_samples():
    samples = [
        # Ties inside rows, and one row tied throughout.
        ("ties_in_rows", [[1, 2, 2, 4], [3, 3, 1, 2], [2, 2, 2, 2], [4, 1, 3, 3], [1, 1, 2, 5]]),
        # Column 0 is the same in every row.
        ("constant_column", [[3, 1, 4], [3, 5, 2], [3, 2, 5], [3, 4, 1], [3, 3, 3], [3, 1, 5]]),
        # Rankings given directly (1 = best), no ties.
        ("rankings", [[1, 2, 3, 4], [2, 1, 3, 4], [1, 3, 2, 4], [1, 2, 4, 3], [2, 1, 4, 3],
                      [1, 2, 3, 4], [3, 1, 2, 4]]),
        # Perfect agreement: W = 1.
        ("perfect_agreement", [[1, 2, 3], [1, 2, 3], [1, 2, 3], [1, 2, 3]]),
        # One block.
        ("one_row", [[0.5, 2.5, 1.5, 1.5]]),
        # Likert scores, heavily tied.
        ("likert_ties", [[5, 5, 4], [4, 5, 5], [3, 3, 3], [5, 4, 4], [2, 3, 3], [4, 4, 5]]),
    ]
    for i, (n, k) in enumerate([(5, 3), (12, 4), (30, 5), (8, 7), (40, 3)]):
        # 1-5 ratings, systems a little apart.
        shift = RNG.normal(0.0, 0.4, size=k)
        scores = np.clip(np.round(RNG.normal(3.0 + shift, 1.1, size=(n, k))), 1, 5)
        samples.append((f"likert_{i}_n{n}_k{k}", scores.tolist()))
    for i, (n, k) in enumerate([(6, 3), (15, 4), (25, 6)]):
        shift = np.linspace(0.0, 0.8, k)
        scores = np.round(RNG.normal(shift, 1.0, size=(n, k)), 3)
        samples.append((f"continuous_{i}_n{n}_k{k}", scores.tolist()))
    return samples


def friedman_cases():
    cases = []
    for name, rows in friedman_samples():
        data = np.asarray(rows, dtype=float)
        n, k = data.shape
        res = stats.friedmanchisquare(*[data[:, j] for j in range(k)])
        ranks = stats.rankdata(data, axis=1)
        sums = ranks.sum(axis=0)
        s = float(np.sum((sums - n * (k + 1) / 2.0) ** 2))
        cases.append({
            "name": name,
            "rows": data.tolist(),
            "statistic": float(res.statistic),
            "df": k - 1,
            "p_value": float(res.pvalue),
            "mean_ranks": [float(x) for x in sums / n],
            "kendall_w": float(res.statistic) / (n * (k - 1)),
            "kendall_w_uncorrected": 12.0 * s / (n * n * (k ** 3 - k)),
        })
    return cases


# --------------------------------------------------------------------------------------------
# McNemar and Cochran's Q
# --------------------------------------------------------------------------------------------

def mcnemar_cases():
    pairs = [(0, 1), (1, 0), (0, 5), (5, 0), (3, 3), (1, 2), (2, 7), (10, 25), (40, 41),
             (13, 2), (100, 130), (0, 30), (500, 560), (1, 60), (2000, 2150)]
    pairs += [tuple(ints(RNG.integers(0, 80, size=2))) for _ in range(5)]
    cases = []
    for b, c in pairs:
        a, d = ints(RNG.integers(0, 100, size=2))
        res = mcnemar([[a, b], [c, d]], exact=True)
        cases.append({"table": [[a, b], [c, d]], "b": b, "c": c, "p_value": float(res.pvalue)})
    return cases


def cochran_samples():
    samples = [
        # k = 2: McNemar's chi-square without continuity correction.
        ("two_columns", [[1, 0], [1, 0], [0, 1], [1, 1], [0, 0], [1, 0], [1, 0], [0, 1]]),
        # A column true throughout, and rows all true or all false among the others.
        ("all_true_column", [[1, 0, 1], [1, 1, 1], [1, 0, 0], [0, 0, 0], [1, 0, 1], [1, 1, 0],
                             [1, 0, 0]]),
        # Equal column totals: Q = 0, p = 1.
        ("balanced", [[1, 0, 0], [0, 1, 0], [0, 0, 1], [1, 1, 0], [0, 1, 1], [1, 0, 1]]),
        ("one_informative_row", [[1, 1, 1, 1], [0, 0, 0, 0], [1, 0, 0, 0]]),
    ]
    for i, (n, probs) in enumerate([(10, [0.3, 0.5, 0.7]), (25, [0.6, 0.6, 0.4, 0.8]),
                                    (40, [0.5, 0.55]), (60, [0.2, 0.35, 0.3, 0.5, 0.4]),
                                    (15, [0.9, 0.7, 0.8, 0.6, 0.75, 0.85])]):
        table = (RNG.random((n, len(probs))) < np.asarray(probs)).astype(int)
        samples.append((f"seeded_{i}_n{n}_k{len(probs)}", table.tolist()))
    return samples


def cochran_cases():
    cases = []
    for name, table in cochran_samples():
        res = cochrans_q(np.asarray(table))
        cases.append({
            "name": name,
            "table": table,
            "statistic": float(res.statistic),
            "df": int(res.df),
            "p_value": float(res.pvalue),
        })
    return cases


def main():
    samples = count_samples()
    out = {
        "versions": {
            "python": platform.python_version(),
            "numpy": np.__version__,
            "scipy": scipy.__version__,
            "statsmodels": statsmodels.__version__,
        },
        "special": special_cases(),
        "chi_square": chi_square_cases(samples),
        "multinomial": multinomial_cases(samples),
        "friedman": friedman_cases(),
        "mcnemar": mcnemar_cases(),
        "cochran": cochran_cases(),
    }
    (HERE / "reference.json").write_text(json.dumps(out, indent=1) + "\n")
    for key, value in out.items():
        if isinstance(value, list):
            print(f"{key}: {len(value)} cases")
    for key, value in out["special"].items():
        print(f"special.{key}: {len(value)} cases")


if __name__ == "__main__":
    main()
