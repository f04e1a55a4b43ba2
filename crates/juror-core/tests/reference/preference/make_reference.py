#!/usr/bin/env python3
"""Reference values for `crates/juror-core/src/stats/preference.rs`.

Run from anywhere:

    python3 -m venv /tmp/refenv2
    /tmp/refenv2/bin/pip install numpy scipy statsmodels pandas
    /tmp/refenv2/bin/python crates/juror-core/tests/reference/preference/make_reference.py

It writes `reference.json` beside itself: inputs, expected outputs and library versions;
`crates/juror-core/tests/it/preference.rs` reads it.

- Win rates: `scipy.stats.binomtest` and `statsmodels.stats.proportion.proportion_confint`
  (methods "wilson" and "beta").
- Bradley-Terry: there is no standard library function, so `bradley_terry` below is a plain
  implementation of Hunter's (2004) MM iteration with ties as half a win, the same iteration
  the Rust code documents.
- Real data: LLMFAO crowd votes (Ustalov, github.com/dustalov/llmfao @ 9e224e9,
  crowd-comparisons.csv; CC BY 4.0), read from the repository's data/ folder (set
  JUROR_DATASETS to read them from elsewhere) and stored in the JSON as (system index, system index, outcome).
- LLMFAO's published scores: the output of its leaderboard notebook (leaderboard.ipynb at
  commit ca19c2a, "Improve reproducibility", 2024-08-16), made with evalica 0.1.2's
  `bradley_terry` (ties as half a win, stopping when the L2 norm of a step is below 1e-6,
  at most 100 iterations, starting from all ones). They are copied below, and the script checks
  that the same early-stopping iteration reproduces them to their 6 printed decimals.
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
from scipy import stats
from statsmodels.stats.proportion import proportion_confint

HERE = Path(__file__).resolve().parent
# The Python copy of Juror's random stream lives with the paired reference.
sys.path.insert(0, str(HERE.parent / "paired"))
from juror_stream import Stream  # noqa: E402

# The repository's `data/` folder (data/README.md: sources, licences); JUROR_DATASETS overrides it.
DATASETS = Path(
    os.environ.get("JUROR_DATASETS", Path(__file__).resolve().parents[5] / "data")
)
RNG = np.random.default_rng(7_2004)
OUTCOMES = {"a": "A", "b": "B", "tie": "Tie"}

# LLMFAO leaderboard.ipynb @ ca19c2a, "Human Judgements" table (score column), verbatim.
PUBLISHED_LLMFAO = {
    "GPT 4": 0.041215, "Platypus-2 Instruct (70B)": 0.029233, "command": 0.028852,
    "ReMM SLERP L2 13B": 0.027150, "LLaMA-2-Chat (70B)": 0.026384, "Claude v1": 0.026259,
    "GPT 3.5 Turbo": 0.025871, "Jurassic 2 Mid": 0.025849, "Jurassic 2 Ultra": 0.025310,
    "command-nightly": 0.025225, "Mythalion 13B": 0.024030, "GPT 3.5 Turbo (16k)": 0.023981,
    "Falcon Instruct (40B)": 0.023752, "GPT-NeoXT-Chat-Base (20B)": 0.023268,
    "Chronos Hermes (13B)": 0.023229, "Claude v2": 0.022926, "Claude Instant v1": 0.022809,
    "MPT-Chat (7B)": 0.022213, "LLaMA-2-Chat (7B)": 0.021364, "LLaMA 2 SFT v10 (70B)": 0.020693,
    "Claude v1.2": 0.019842, "Guanaco (65B)": 0.018083, "Pythia-Chat-Base (7B)": 0.017827,
    "MythoMax-L2 (13B)": 0.017503, "PaLM 2 Bison (Code Chat)": 0.017395,
    "LLaMA-2-Chat (13B)": 0.017348, "Guanaco (13B)": 0.017318, "Alpaca (7B)": 0.016575,
    "Luminous Supreme Control": 0.016541, "Guanaco (33B)": 0.016505,
    "Vicuna v1.5 (13B)": 0.016458, "Jurassic 2 Light": 0.015635,
    "Luminous Base Control": 0.015556, "Qwen-Chat (7B)": 0.015487, "MPT-Chat (30B)": 0.015332,
    "Vicuna v1.3 (13B)": 0.015278, "RedPajama-INCITE Chat (7B)": 0.014452,
    "Falcon Instruct (7B)": 0.013655, "command-light": 0.013632,
    "Luminous Extended Control": 0.013155, "Vicuna v1.3 (7B)": 0.011941,
    "Weaver 12k": 0.011844, "PaLM 2 Bison": 0.011222, "Luminous Base": 0.010406,
    "RedPajama-INCITE Chat (3B)": 0.010148, "Code Llama Instruct (34B)": 0.010096,
    "Code Llama Instruct (13B)": 0.009999, "Airoboros L2 70B": 0.009754,
    "Dolly v2 (12B)": 0.009161, "StarCoderChat Alpha (16B)": 0.008508,
    "Open-Assistant Pythia SFT-4 (12B)": 0.008371, "Luminous Extended": 0.008072,
    "Luminous Supreme": 0.007237, "Code Llama Instruct (7B)": 0.007230,
    "Open-Assistant StableLM SFT-7 (7B)": 0.006986, "Koala (13B)": 0.006894,
    "Dolly v2 (7B)": 0.006343, "Vicuna-FastChat-T5 (3B)": 0.006304, "Dolly v2 (3B)": 0.006294,
}


# --------------------------------------------------------------------------------------------
# Bradley-Terry, plainly
# --------------------------------------------------------------------------------------------

def win_matrix(m, comparisons, pseudo_count=0.0):
    """w[i, j] = wins of i over j + half the ties of i and j + pseudo_count (i != j)."""
    w = np.zeros((m, m))
    for a, b, outcome in comparisons:
        if outcome == "A":
            w[a, b] += 1.0
        elif outcome == "B":
            w[b, a] += 1.0
        else:
            w[a, b] += 0.5
            w[b, a] += 0.5
    w += pseudo_count * (1.0 - np.eye(m))
    return w


def bradley_terry(w, tolerance=1e-12, max_iterations=100_000):
    """Hunter's MM: p_i <- W_i / sum_j N_ij / (p_i + p_j), all at once, then p /= sum(p);
    stop when no p_i moves more than `tolerance`."""
    m = len(w)
    n = w + w.T
    won = w.sum(axis=1)
    p = np.full(m, 1.0 / m)
    for iteration in range(1, max_iterations + 1):
        with np.errstate(divide="ignore", invalid="ignore"):
            ratio = np.where(n > 0, n / (p[:, None] + p[None, :]), 0.0)
        denom = ratio.sum(axis=1)
        new = np.where(denom > 0, won / np.where(denom > 0, denom, 1.0), 0.0)
        new /= new.sum()
        change = np.abs(new - p).max()
        p = new
        if change <= tolerance:
            return p, iteration, True
    return p, max_iterations, False


def evalica_0_1_2(w, tolerance=1e-6, limit=100):
    """evalica 0.1.2's bradley_terry loop (its `bradley_terry.rs`), for the published scores."""
    m = len(w)
    n = w + w.T
    won = w.sum(axis=1)
    p = np.ones(m)
    for iteration in range(1, limit + 1):
        with np.errstate(divide="ignore", invalid="ignore"):
            ratio = np.where(n > 0, n / (p[:, None] + p[None, :]), 0.0)
        new = won / ratio.sum(axis=1)
        new /= new.sum()
        converged = np.sqrt(((new - p) ** 2).sum()) < tolerance
        p = new
        if converged:
            return p, iteration
    return p, limit


def strongly_connected(w):
    m = len(w)

    def reach(adj):
        seen = {0}
        stack = [0]
        while stack:
            a = stack.pop()
            for b in range(m):
                if adj[a, b] > 0 and b not in seen:
                    seen.add(b)
                    stack.append(b)
        return len(seen) == m

    return reach(w) and reach(w.T)


def bt_case(name, systems, comparisons, pseudo_count=0.0, source=None):
    m = len(systems)
    raw = win_matrix(m, comparisons)
    w = win_matrix(m, comparisons, pseudo_count)
    p, iterations, converged = bradley_terry(w)
    off = ~np.eye(m, dtype=bool)
    return {
        "name": name,
        "source": source,
        "systems": systems,
        "comparisons": [[a, b, o] for a, b, o in comparisons],
        "pseudo_count": pseudo_count,
        "strengths": [float(x) for x in p],
        "iterations": iterations,
        "converged": converged,
        "never_won": [s for i, s in enumerate(systems) if raw[i][off[i]].sum() == 0],
        "never_lost": [s for i, s in enumerate(systems) if raw[:, i][off[:, i]].sum() == 0],
        "strongly_connected": strongly_connected(w),
    }


def bt_bootstrap(systems, comparisons, level, resamples, seed, pseudo_count=0.0):
    m = len(systems)
    n = len(comparisons)
    samples = [[] for _ in range(m)]
    for r in range(resamples):
        s = Stream(seed, "bootstrap", r, 1)
        drawn = [comparisons[s.below(n)] for _ in range(n)]
        present = sorted({a for a, _, _ in drawn} | {b for _, b, _ in drawn})
        local = {g: k for k, g in enumerate(present)}
        w = win_matrix(len(present), [(local[a], local[b], o) for a, b, o in drawn],
                       pseudo_count)
        p, _, _ = bradley_terry(w)
        for g, k in local.items():
            samples[g].append(p[k])
    alpha = 1.0 - level
    out = []
    for i in range(m):
        low, high = np.quantile(samples[i], [alpha / 2, 1 - alpha / 2])
        out.append({"system": systems[i], "low": float(low), "high": float(high),
                    "resamples_used": len(samples[i])})
    return {"level": level, "resamples": resamples, "seed": seed,
            "pseudo_count": pseudo_count, "intervals": out}


# --------------------------------------------------------------------------------------------
# Data
# --------------------------------------------------------------------------------------------

def llmfao():
    df = pd.read_csv(DATASETS / "llmfao" / "llmfao_crowd_votes_long.csv")
    systems = sorted(set(df["system_a"]) | set(df["system_b"]))
    index = {s: i for i, s in enumerate(systems)}
    comparisons = [(index[a], index[b], OUTCOMES[p])
                   for a, b, p in zip(df["system_a"], df["system_b"], df["preference"])]
    return systems, comparisons


def synthetic(m, n, seed_strengths, tie_rate):
    systems = [f"sys-{chr(ord('a') + i)}" for i in range(m)]
    strengths = np.exp(RNG.normal(0, seed_strengths, m))
    comparisons = []
    for _ in range(n):
        a, b = RNG.choice(m, 2, replace=False)
        if RNG.random() < tie_rate:
            comparisons.append((int(a), int(b), "Tie"))
        elif RNG.random() < strengths[a] / (strengths[a] + strengths[b]):
            comparisons.append((int(a), int(b), "A"))
        else:
            comparisons.append((int(a), int(b), "B"))
    return systems, comparisons


def tally(systems, comparisons):
    """Every ordered pair that met: wins of a over b, losses, ties."""
    rows = {}
    for a, b, o in comparisons:
        for x, y, sign in ((a, b, 1), (b, a, -1)):
            r = rows.setdefault((x, y), [0, 0, 0])
            if o == "Tie":
                r[2] += 1
            elif (o == "A") == (sign == 1):
                r[0] += 1
            else:
                r[1] += 1
    return [{"a": systems[x], "b": systems[y], "wins": r[0], "losses": r[1], "ties": r[2]}
            for (x, y), r in sorted(rows.items(), key=lambda kv: (systems[kv[0][0]],
                                                                   systems[kv[0][1]]))]


# --------------------------------------------------------------------------------------------
# Win rates
# --------------------------------------------------------------------------------------------

def win_rate(wins, losses, ties, level=0.95, source=None):
    n = wins + losses
    alpha = 1.0 - level
    wl, wh = proportion_confint(wins, n, alpha=alpha, method="wilson")
    cl, ch = proportion_confint(wins, n, alpha=alpha, method="beta")
    test = stats.binomtest(wins, n)
    # scipy's own intervals agree with statsmodels'; checked here, not stored.
    exact = test.proportion_ci(confidence_level=level, method="exact")
    assert abs(exact.low - cl) < 1e-12 and abs(exact.high - ch) < 1e-12, (wins, n)
    return {"wins": wins, "losses": losses, "ties": ties, "level": level, "source": source,
            "rate": wins / n, "wilson_low": float(wl), "wilson_high": float(wh),
            "clopper_pearson_low": float(cl), "clopper_pearson_high": float(ch),
            "pvalue": float(test.pvalue)}


def binomial_tests():
    cases = [(3, 10, 0.3), (0, 25, 0.3), (17, 40, 0.3), (30, 100, 0.3), (1, 3, 0.7),
             (95, 100, 0.9), (12, 200, 0.1), (0, 1, 0.5), (7, 7, 0.5), (682, 1301, 0.5),
             (10, 21, 0.5), (5, 9, 0.25)]
    return [{"k": k, "n": n, "p": p, "pvalue": float(stats.binomtest(k, n, p).pvalue)}
            for k, n, p in cases]


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
    systems, comparisons = llmfao()

    win_rates = [win_rate(*c) for c in [
        (7, 3, 2), (0, 12, 1), (12, 0, 0), (1, 0, 5), (0, 1, 0), (50, 50, 10), (51, 49, 0),
        (18, 2, 4), (412, 380, 97), (1003, 997, 0), (3, 27, 0), (140, 60, 11)]]
    # Real pairs: the five LLMFAO pairs with the most decisive votes, from a's side.
    llmfao_tally = tally(systems, comparisons)
    busiest = sorted((t for t in llmfao_tally if t["a"] < t["b"]),
                     key=lambda t: (-(t["wins"] + t["losses"]), t["a"], t["b"]))[:5]
    for t in busiest:
        win_rates.append(win_rate(t["wins"], t["losses"], t["ties"],
                                  source=f"LLMFAO: {t['a']} vs {t['b']}"))

    small_systems, small = synthetic(6, 300, 0.8, 0.2)
    bt = [
        bt_case("two_systems_closed_form", ["x", "y"],
                [(0, 1, "A"), (0, 1, "A"), (1, 0, "B"), (0, 1, "B"), (1, 0, "Tie"),
                 (0, 1, "Tie")]),
        bt_case("synthetic_6_systems_ties", small_systems, small),
        bt_case("synthetic_6_systems_pseudo_0.5", small_systems, small, pseudo_count=0.5),
        # "d" loses every comparison: with no pseudo-count its strength is exactly 0.
        bt_case("never_won", ["a", "b", "c", "d"],
                [(0, 1, "A"), (1, 2, "A"), (2, 0, "A"), (0, 1, "B"), (1, 2, "Tie"),
                 (3, 0, "B"), (1, 3, "A"), (2, 3, "A"), (3, 2, "B")]),
        bt_case("never_won_pseudo_0.5", ["a", "b", "c", "d"],
                [(0, 1, "A"), (1, 2, "A"), (2, 0, "A"), (0, 1, "B"), (1, 2, "Tie"),
                 (3, 0, "B"), (1, 3, "A"), (2, 3, "A"), (3, 2, "B")], pseudo_count=0.5),
        bt_case("llmfao_crowd", systems, comparisons,
                source="LLMFAO crowd votes (dustalov/llmfao @ 9e224e9, CC BY 4.0)"),
    ]

    # LLMFAO's published scores.
    w = win_matrix(len(systems), comparisons)
    early, early_iterations = evalica_0_1_2(w)
    assert set(PUBLISHED_LLMFAO) == set(systems)
    published = np.array([PUBLISHED_LLMFAO[s] for s in systems])
    converged = np.array(bt[-1]["strengths"])
    evalica_gap = float(np.abs(early - published).max())
    assert evalica_gap <= 5e-7 + 1e-12, evalica_gap  # reproduced to the printed decimals
    published_check = {
        "source": "github.com/dustalov/llmfao leaderboard.ipynb @ ca19c2a (evalica 0.1.2)",
        "scores": PUBLISHED_LLMFAO,
        "evalica_iterations": early_iterations,
        "max_abs_difference_evalica_loop_vs_published": evalica_gap,
        "max_abs_difference_converged_vs_published": float(np.abs(converged - published).max()),
    }

    reference = {
        "about": "Reference values for juror-core stats::preference; written by "
                 "make_reference.py",
        "versions": {
            "python": platform.python_version(),
            "numpy": np.__version__,
            "scipy": scipy.__version__,
            "statsmodels": statsmodels.__version__,
            "pandas": pd.__version__,
        },
        "tally": {"systems": small_systems,
                  "comparisons": [[a, b, o] for a, b, o in small],
                  "pairs": tally(small_systems, small)},
        "llmfao_tally_busiest": busiest,
        "win_rates": win_rates,
        "binomial_tests": binomial_tests(),
        "bradley_terry": bt,
        "llmfao_published": published_check,
        "bootstrap": [
            dict(bt_bootstrap(small_systems, small, 0.95, 300, 11), data="tally"),
            dict(bt_bootstrap(small_systems, small, 0.9, 100, 12, pseudo_count=0.5),
                 data="tally"),
            dict(bt_bootstrap(systems, comparisons, 0.95, 100, 2024), data="llmfao_crowd"),
        ],
    }
    path = HERE / "reference.json"
    path.write_text(to_json(reference) + "\n")
    print(f"wrote {path}")
    print("published check:", {k: v for k, v in published_check.items() if k != "scores"})


if __name__ == "__main__":
    main()
