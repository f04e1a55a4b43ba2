#!/usr/bin/env python3
"""Reference values for `crates/juror-core/src/stats/judges.rs`: the alternative annotator test,
Benjamini–Yekutieli, Kendall's tau-b and prediction-powered inference (PPI++).

Run from anywhere:

    python3 -m venv /tmp/judgesenv
    /tmp/judgesenv/bin/pip install numpy scipy statsmodels ppi-python
    /tmp/judgesenv/bin/python crates/juror-core/tests/reference/judges/make_reference.py

It writes `reference.json` beside itself: every input, every expected output and the library
versions. `crates/juror-core/tests/it/judges.rs` reads it; the Rust tests need no Python and no
dataset.

Where the values come from:
- the alternative annotator test (Calderon, Reichart & Dror, ACL 2025) is written out below
  with numpy and `scipy.stats.ttest_1samp(d, epsilon, alternative="less")`, following the
  conventions of the authors' reference code (nitaytech/AltTest, `alt_test_example.ipynb`: an
  instance is kept when at least `min_humans` humans labelled it, the left-out human included;
  W indicators with >=; humans with fewer than `min_instances` instances skipped); its
  Benjamini–Yekutieli step is statsmodels' `multipletests(method="fdr_by")`, checked here
  against the step-up rule the reference code applies;
- Kendall's tau-b and Spearman's rho are `scipy.stats.kendalltau` and `scipy.stats.spearmanr`;
- PPI++ is ppi_py's `ppi_mean_pointestimate` and `ppi_mean_ci` with `lam=None` (power tuning,
  lambda clipped to [0, 1]), beside ppi_py's `classical_mean_ci` (a z interval with the
  population SD, ddof = 0) for the human-only interval.

Real data: SummEval expert ratings (Fabbri et al., TACL 2021; MIT licence) from the repository's
data/ folder (see its README.md; JUROR_DATASETS reads them from elsewhere). The judge's verdicts
on them are made up here, seeded: the experts' mean plus Gaussian noise of a different size per
dimension, rounded and clipped to the 1-5 scale. They are not any real model's verdicts.
"""

import csv
from importlib import metadata
import json
import math
import os
import platform
from pathlib import Path

import numpy as np
import scipy
import statsmodels
from ppi_py import classical_mean_ci, ppi_mean_ci, ppi_mean_pointestimate
from scipy import stats
from statsmodels.stats.multitest import multipletests

HERE = Path(__file__).resolve().parent
DATASETS = Path(
    os.environ.get("JUROR_DATASETS", Path(__file__).resolve().parents[5] / "data")
)
RNG = np.random.default_rng(20261126)


def num(x):
    """A float for JSON: infinities as the strings "inf" and "-inf" (JSON has no infinity)."""
    x = float(x)
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    if math.isnan(x):
        raise ValueError("NaN in a reference value")
    return x


# --------------------------------------------------------------------------------------------
# The alternative annotator test, written from the paper's definitions
# --------------------------------------------------------------------------------------------

def alignment_score(alignment, x, others):
    others = np.asarray(others, dtype=float)
    if alignment == "neg_rmse":
        return -float(np.sqrt(np.mean((x - others) ** 2)))
    return float(np.mean(x == others))


def by_step_up(p, q):
    """Benjamini–Yekutieli as a step-up rule: reject the k smallest p-values, k the largest rank
    with p_(k) <= k / (m H_m) q. The reference code's rule, to check statsmodels' decisions."""
    m = len(p)
    if m == 0:
        return []
    order = np.argsort(p, kind="stable")
    harmonic = float(np.sum(1.0 / np.arange(1, m + 1)))
    largest = -1
    for rank, i in enumerate(order):
        if p[i] <= (rank + 1) / m * (q / harmonic):
            largest = rank
    rejected = [False] * m
    for i in order[: largest + 1]:
        rejected[int(i)] = True
    return rejected


def alt_test(instances, alignment, epsilon, q, min_humans, min_instances):
    """instances: list of {"humans": [[h, label], ...], "judge": label}."""
    kept = [inst for inst in instances if len(inst["humans"]) >= min_humans]
    humans = sorted({h for inst in instances for h, _ in inst["humans"]})
    tested, skipped = [], []
    for h in humans:
        w_judge, w_human = [], []
        for inst in kept:
            labels = dict((int(k), float(v)) for k, v in inst["humans"])
            if h not in labels:
                continue
            others = [v for k, v in inst["humans"] if int(k) != h]
            s_human = alignment_score(alignment, labels[h], others)
            s_judge = alignment_score(alignment, float(inst["judge"]), others)
            w_judge.append(1.0 if s_judge >= s_human else 0.0)
            w_human.append(1.0 if s_human >= s_judge else 0.0)
        n = len(w_judge)
        if n < max(min_instances, 2):
            skipped.append([h, n])
            continue
        d = np.asarray(w_human) - np.asarray(w_judge)
        with np.errstate(divide="ignore", invalid="ignore"):
            r = stats.ttest_1samp(d, epsilon, alternative="less")
        t, p = float(r.statistic), float(r.pvalue)
        if math.isnan(p):
            # Every d equals epsilon: scipy's t is 0/0. Juror reports t = 0 and p = 1 (never
            # rejected, as the reference code never rejects scipy's NaN).
            assert np.all(d == epsilon)
            t, p = 0.0, 1.0
        tested.append({
            "human": h,
            "instances": n,
            "judge_advantage": float(np.mean(w_judge)),
            "human_advantage": float(np.mean(w_human)),
            "t": t,
            "p": p,
            "all_equal": bool(np.all(d == d[0])),
        })
    ps = [t["p"] for t in tested]
    if tested:
        rejected, adjusted, _, _ = multipletests(ps, alpha=q, method="fdr_by")
        assert list(map(bool, rejected)) == by_step_up(ps, q), "statsmodels against step-up"
        for t, r, a in zip(tested, rejected, adjusted):
            t["p_adjusted"] = float(a)
            t["rejected"] = bool(r)
    for t in tested:
        t["t"] = num(t["t"])
    return {
        "tested": tested,
        "skipped": skipped,
        "winning_rate": float(np.mean([t["rejected"] for t in tested])) if tested else None,
        "advantage_probability": (
            float(np.mean([t["judge_advantage"] for t in tested])) if tested else None
        ),
    }


def alt_case(name, instances, alignment, epsilon=0.2, q=0.05, min_humans=2, min_instances=30,
             store_instances=True, **extra):
    case = {
        "name": name,
        "alignment": alignment,
        "options": {"epsilon": epsilon, "q": q, "min_humans": min_humans,
                    "min_instances": min_instances},
        "expected": alt_test(instances, alignment, epsilon, q, min_humans, min_instances),
    }
    if store_instances:
        case["instances"] = instances
    case.update(extra)
    return case


# --------------------------------------------------------------------------------------------
# SummEval: expert ratings and a made-up judge
# --------------------------------------------------------------------------------------------

DIMENSIONS = ["coherence", "consistency", "fluency", "relevance"]
# The judge's noise per dimension (SD before rounding): from close to the experts to far.
NOISE = {"coherence": 0.5, "consistency": 0.8, "fluency": 1.1, "relevance": 0.7}
# A lenient judge: its verdicts lean up by this much before rounding.
LENIENCY = 0.3


def summeval():
    path = DATASETS / "summeval" / "summeval_expert_long.csv"
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    items, systems, experts = [], [], []
    scores = {}
    for r in rows:
        for value, seen in ((r["item_id"], items), (r["system_id"], systems),
                            (r["annotator_id"], experts)):
            if value not in seen:
                seen.append(value)
        key = (r["dimension"], r["item_id"], r["system_id"])
        scores.setdefault(key, {})[r["annotator_id"]] = float(r["score"])
    experts.sort()
    table = []
    for d, dim in enumerate(DIMENSIONS):
        for i, item in enumerate(items):
            for s, system in enumerate(systems):
                labels = [scores[(dim, item, system)][e] for e in experts]
                judge = float(np.clip(np.rint(np.mean(labels) + LENIENCY + RNG.normal(0, NOISE[dim])), 1, 5))
                table.append([d, i, s] + labels + [judge])
    return {"experts": experts, "dimensions": DIMENSIONS, "items": len(items),
            "systems": systems, "columns": ["dimension", "item", "system"] + experts + ["judge"],
            "rows": table}


def summeval_instances(table, dimension=None):
    n_experts = len(table["experts"])
    out = []
    for row in table["rows"]:
        if dimension is not None and row[0] != dimension:
            continue
        labels = row[3:3 + n_experts]
        out.append({"humans": [[h, v] for h, v in enumerate(labels)], "judge": row[-1]})
    return out


def summeval_cases(table):
    cases = []
    for d, dim in enumerate(DIMENSIONS):
        for epsilon in (0.2, 0.1):
            cases.append(alt_case(f"summeval_{dim}_eps{epsilon}",
                                  summeval_instances(table, d), "neg_rmse", epsilon=epsilon,
                                  store_instances=False, summeval_dimension=d))
    cases.append(alt_case("summeval_pooled", summeval_instances(table), "neg_rmse",
                          store_instances=False, summeval_dimension=None))
    return cases


def summeval_agreement(table):
    """Item-level Spearman of the judge with the experts' mean, and system-level Kendall tau-b
    of the judge's and the experts' system means, per dimension."""
    n_experts = len(table["experts"])
    out = []
    for d, dim in enumerate(DIMENSIONS):
        rows = [r for r in table["rows"] if r[0] == d]
        human_mean = [float(np.mean(r[3:3 + n_experts])) for r in rows]
        judge = [r[-1] for r in rows]
        rho = stats.spearmanr(judge, human_mean)
        systems = sorted({r[2] for r in rows})
        hs = [float(np.mean([m for r, m in zip(rows, human_mean) if r[2] == s])) for s in systems]
        js = [float(np.mean([r[-1] for r in rows if r[2] == s])) for s in systems]
        tau = stats.kendalltau(js, hs)
        out.append({"dimension": d, "spearman": float(rho.statistic),
                    "spearman_p": float(rho.pvalue), "judge_system_means": js,
                    "human_system_means": hs, "kendall_tau": float(tau.statistic),
                    "kendall_p": float(tau.pvalue)})
    return out


# --------------------------------------------------------------------------------------------
# Synthetic alt-test cases
# --------------------------------------------------------------------------------------------

def pairwise_case():
    """Preferences coded 0 tie, 1 a, 2 b; six humans labelling random subsets of 80 (item, pair)
    instances; one human labels only 12 (skipped); a few instances have a single human (left
    out by min_humans)."""
    instances = []
    for i in range(80):
        truth = int(RNG.choice([0, 1, 2], p=[0.2, 0.45, 0.35]))
        k = int(RNG.choice([1, 2, 3, 4], p=[0.08, 0.3, 0.4, 0.22]))
        pool = [0, 1, 2, 3, 4] + ([5] if i < 12 else [])
        humans = sorted(int(h) for h in RNG.choice(pool, size=min(k, len(pool)), replace=False))
        if i < 12 and 5 not in humans:
            humans = sorted(humans + [5])
        labels = []
        for h in humans:
            noise = 0.15 + 0.07 * h
            label = truth if RNG.random() > noise else int(RNG.integers(0, 3))
            labels.append([h, float(label)])
        judge = truth if RNG.random() > 0.3 else int(RNG.integers(0, 3))
        instances.append({"humans": labels, "judge": float(judge)})
    return [
        alt_case("pairwise_accuracy", instances, "accuracy", epsilon=0.2),
        alt_case("pairwise_accuracy_three_humans", instances, "accuracy", epsilon=0.15,
                 q=0.1, min_humans=3, min_instances=20),
    ]


def rmse_ties_case():
    """Scores where the judge and the left-out human are often equally far from the others:
    both W indicators are 1 and d = 0."""
    instances = []
    for i in range(40):
        base = float(RNG.integers(2, 5))
        if i % 3 == 0:
            # one other human at base; left-out humans and the judge at base - 1 and base + 1
            instances.append({"humans": [[0, base - 1], [1, base]], "judge": base + 1})
        elif i % 3 == 1:
            instances.append({"humans": [[0, base], [1, base], [2, base + 1]],
                              "judge": base + 1})
        else:
            labels = [[h, float(np.clip(base + RNG.integers(-1, 2), 1, 5))] for h in range(3)]
            instances.append({"humans": labels,
                              "judge": float(np.clip(base + RNG.integers(-1, 2), 1, 5))})
    return alt_case("rmse_ties", instances, "neg_rmse", epsilon=0.2, min_instances=10)


def degenerate_cases():
    """Every d the same: the t-test has no spread."""
    judge_better = [{"humans": [[0, 3.0], [1, 3.0], [2, 1.0]], "judge": 3.0} for _ in range(8)]
    # Human 2 loses everywhere (d = -1 for it); humans 0 and 1 tie or lose.
    all_ties = [{"humans": [[0, 2.0], [1, 4.0]], "judge": 3.0} for _ in range(6)]
    # Each human is 2 from the other, the judge 1: the judge wins everywhere (d = -1).
    judge_worse = [{"humans": [[0, 1.0], [1, 1.0]], "judge": 5.0} for _ in range(6)]
    # The judge loses everywhere (d = +1).
    return [
        alt_case("all_d_equal_judge_wins", judge_better, "neg_rmse", min_instances=5),
        alt_case("all_d_equal_ties_eps0", [
            {"humans": [[0, 2.0], [1, 2.0]], "judge": 2.0} for _ in range(6)
        ], "accuracy", epsilon=0.0, min_instances=5),
        alt_case("all_d_equal_judge_closer", all_ties, "neg_rmse", min_instances=5),
        alt_case("all_d_equal_judge_loses", judge_worse, "neg_rmse", min_instances=5),
        alt_case("nobody_tested", judge_worse, "neg_rmse"),
    ]


# --------------------------------------------------------------------------------------------
# Benjamini–Yekutieli, Kendall, PPI
# --------------------------------------------------------------------------------------------

def by_cases():
    vectors = [
        [0.01, 0.02, 0.03, 0.04, 0.05],
        [0.04, 0.001, 0.3, 0.001, 0.02, 0.9, 0.0],
        [0.5],
        [0.0, 1.0, 1.0, 0.2],
        [float(x) for x in RNG.uniform(0, 0.1, size=12)],
        [0.012, 0.012, 0.012, 0.5, 0.7],
    ]
    out = []
    for p in vectors:
        rejected, adjusted, _, _ = multipletests(p, alpha=0.05, method="fdr_by")
        assert list(map(bool, rejected)) == by_step_up(p, 0.05)
        out.append({"p": p, "adjusted": [float(a) for a in adjusted],
                    "rejected_at_05": [bool(r) for r in rejected]})
    return out


def kendall_cases():
    samples = {
        "small_untied": ([1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0],
                         [2.0, 1.0, 4.0, 3.0, 7.0, 5.0, 6.0]),
        "four_half": ([1.0, 2.0, 3.0, 4.0], [2.0, 4.0, 3.0, 1.0]),
        # tau = 0 exactly: 4c = n(n - 1), scipy's two-sided p is 1.
        "four_zero": ([1.0, 2.0, 3.0, 4.0], [1.0, 4.0, 3.0, 2.0]),
        "two": ([1.0, 2.0], [5.0, 3.0]),
        "untied_33": (list(RNG.permutation(33).astype(float)),
                      list(RNG.permutation(33).astype(float))),
        "untied_40": ([float(x) for x in RNG.normal(size=40)],
                      [float(x) for x in RNG.normal(size=40)]),
        "perfect_50": ([float(i) for i in range(50)], [float(2 * i + 1) for i in range(50)]),
        "one_swap_60": ([float(i) for i in range(60)],
                        [float(i) for i in [1, 0] + list(range(2, 60))]),
        "ties_likert": ([float(x) for x in RNG.integers(1, 6, size=25)],
                        [float(x) for x in RNG.integers(1, 6, size=25)]),
        "ties_one_side": ([1.0, 2.0, 2.0, 3.0, 4.0, 5.0, 5.0, 6.0],
                          [1.5, 2.5, 2.0, 3.5, 3.0, 6.0, 5.5, 7.0]),
        "ties_three": ([1.0, 1.0, 2.0], [1.0, 2.0, 3.0]),
        "constant_x": ([3.0, 3.0, 3.0, 3.0], [1.0, 2.0, 3.0, 4.0]),
        "single": ([1.0], [2.0]),
    }
    out = []
    for name, (x, y) in samples.items():
        r = stats.kendalltau(x, y)
        tau, p = float(r.statistic), float(r.pvalue)
        defined = not (math.isnan(tau) or math.isnan(p))
        out.append({"name": name, "x": [float(v) for v in x], "y": [float(v) for v in y],
                    "tau": tau if defined else None, "p_value": p if defined else None})
    return out


def ppi_one(name, y, f, f_unlabeled, level=0.95):
    y, f, fu = (np.asarray(v, dtype=float) for v in (y, f, f_unlabeled))
    alpha = 1 - level
    estimate = float(np.asarray(ppi_mean_pointestimate(y, f, fu, lam=None)).reshape(-1)[0])
    low, high = (float(np.asarray(v).reshape(-1)[0]) for v in ppi_mean_ci(y, f, fu, alpha=alpha))
    # lambda as ppi_py tunes it (the same arithmetic as inside ppi_mean_pointestimate).
    n, big_n = len(y), len(fu)
    first = fu.mean() + (y - f).mean()
    g, gh, ghu = y - first, f - first, fu - first
    gc, ghc = g - g.mean(), gh - gh.mean()
    cov = (1 / n) * (2 * np.sum(gc * ghc))
    var = np.cov(np.concatenate([gh, ghu]))
    lam = float(np.clip(cov / (2 * (1 + n / big_n) * var), 0, 1))
    assert abs(estimate - (np.mean(lam * fu) + np.mean(y - lam * f))) < 1e-12
    h_low, h_high = (float(np.asarray(v).reshape(-1)[0]) for v in classical_mean_ci(y, alpha=alpha))
    gain = ((h_high - h_low) / (high - low)) ** 2
    return {"name": name, "y": [float(v) for v in y], "f": [float(v) for v in f],
            "f_unlabeled": [float(v) for v in fu], "level": level, "estimate": estimate,
            "ci": [low, high], "lambda": lam, "human_only": float(y.mean()),
            "human_only_ci": [h_low, h_high], "effective_gain": float(gain)}


def ppi_cases(table):
    out = []
    # Scores: a judge correlated with the truth.
    truth = RNG.normal(3.0, 0.8, size=560)
    y = truth[:60] + RNG.normal(0, 0.4, size=60)
    judge = 0.3 + 0.9 * truth + RNG.normal(0, 0.35, size=560)
    out.append(ppi_one("scores_correlated", y, judge[:60], judge[60:]))
    # Win rates: binary human labels, a judge right 80% of the time, a 90% level.
    wins = (RNG.random(440) < 0.62).astype(float)
    jw = np.where(RNG.random(440) < 0.8, wins, 1 - wins)
    out.append(ppi_one("wins_binary", wins[:40], jw[:40], jw[40:], level=0.9))
    # An uninformative judge: lambda clipped at 0, the human-only estimate.
    y2 = RNG.normal(0.0, 1.0, size=30)
    out.append(ppi_one("judge_uninformative", y2, -y2 + RNG.normal(0, 0.1, size=30),
                       RNG.normal(0, 1, size=200)))
    # SummEval coherence, system M8 or the first system: 20 items with the experts' mean, the
    # judge on all 100.
    n_experts = len(table["experts"])
    rows = [r for r in table["rows"] if r[0] == 0 and r[2] == 0]
    hm = [float(np.mean(r[3:3 + n_experts])) for r in rows]
    jd = [r[-1] for r in rows]
    out.append(ppi_one("summeval_coherence_first_system", hm[:20], jd[:20], jd[20:]))
    return out


def main():
    table = summeval()
    reference = {
        "versions": {
            "python": platform.python_version(),
            "numpy": np.__version__,
            "scipy": scipy.__version__,
            "statsmodels": statsmodels.__version__,
            "ppi_python": metadata.version("ppi-python"),
        },
        "summeval": table,
        "alt_test": summeval_cases(table) + pairwise_case() + [rmse_ties_case()]
        + degenerate_cases(),
        "summeval_agreement": summeval_agreement(table),
        "benjamini_yekutieli": by_cases(),
        "kendall": kendall_cases(),
        "ppi": ppi_cases(table),
    }
    # One top-level key a line (the SummEval rows one a line), compact inside.
    def dumps(v):
        return json.dumps(v, separators=(",", ":"), allow_nan=False)

    lines = []
    for key, value in reference.items():
        if key == "summeval":
            rows = ",\n".join(dumps(r) for r in value["rows"])
            head = dumps({k: v for k, v in value.items() if k != "rows"})[:-1]
            lines.append(f'"{key}":{head},"rows":[\n{rows}]}}')
        elif isinstance(value, list):
            lines.append(f'"{key}":[\n' + ",\n".join(dumps(v) for v in value) + "]")
        else:
            lines.append(f'"{key}":{dumps(value)}')
    with open(HERE / "reference.json", "w") as f:
        f.write("{\n" + ",\n".join(lines) + "\n}\n")
    for case in reference["alt_test"]:
        e = case["expected"]
        print(case["name"], "tested", len(e["tested"]), "skipped", e["skipped"],
              "omega", e["winning_rate"], "rho", e["advantage_probability"])


if __name__ == "__main__":
    main()
