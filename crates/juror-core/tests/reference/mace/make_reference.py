#!/usr/bin/env python3
"""Reference values for `crates/juror-core/src/stats/raters/mace.rs` (MACE) from crowd-kit.

Run from anywhere:

    python3 -m venv /tmp/refds
    /tmp/refds/bin/pip install crowd-kit
    /tmp/refds/bin/python crates/juror-core/tests/reference/mace/make_reference.py

It writes `reference.json` beside itself; `crates/juror-core/tests/it/mace.rs` reads it. Each
case holds its answers as `[unit, rater, category]` indices and two expected fits:

- `crowdkit`: what `crowdkit.aggregation.MACE(method=...)` gives with its defaults
  (`n_restarts=10, n_iter=50, alpha=0.5, beta=0.5, random_state=0`): per rater the competence
  (`spamming_[:, 1]`), the weight of spamming (`spamming_[:, 0]`) and the spamming strategy
  (`thetas_`), per unit the posterior (`probas_`) and the label (`labels_`);
- `juror`: `juror_mace` below, a NumPy transcription of the Rust fit (the same four starting
  points, the same stopping rule, the best start kept), with its log-likelihood, rounds and
  winning start.

crowd-kit draws its starting point from `scipy.stats.uniform(...).rvs(random_state=0)` at every
restart, so its ten restarts are the same run: one start, exactly 50 rounds. The script checks
that `replay` (the transcription's rounds from crowd-kit's own starting point, 50 of them, no
stopping rule) reproduces crowd-kit to 1e-12, so the two expected fits differ only by the
starting point and the stopping rule; it prints how far apart they are.

crowd-kit sums the strategy counts with `groupby(["worker", "label"])`, ordered by sorted name,
and reads them by position against `pd.factorize`, ordered by first appearance: unless the two
orders agree, it gives one worker's strategy to another. The data frames here therefore name
workers and labels by the rank of their first appearance (`w00`, `w01`, …; 0, 1, …), and the
script maps the results back to the indices.

Data sets, seeded (every category is used; crowd-kit knows only the labels it sees):
- `spammers`: 60 units, 3 categories, 8 raters who answer every unit: six right with
  probability 0.9 to 0.6 (else a uniform draw), one uniform at random, one always 0;
- `five_categories`: 50 units with a true score in 0..5, 7 raters who each answer 80% of the
  units: three right 80% of the time (else a neighbouring score), two right 55%, one uniform
  at random, one always 2;
- `sparse`: 80 units, 4 categories, 12 raters who answer a unit with probabilities from 0.08
  to 0.9 (uneven coverage: some units have one answer), accuracies from 0.35 to 0.95;
- `binary`: 40 units, 2 categories, 5 raters, one always 1;
- `spammers_em`: `spammers` fitted with `method="em"` (smoothing 0.01 / categories).

`digamma` is a grid of `scipy.special.digamma`, which the Rust fit computes itself.
"""

import json
import platform
from pathlib import Path

import crowdkit
import numpy as np
import pandas as pd
import scipy
from crowdkit.aggregation import MACE
from scipy.special import digamma

ALPHA, BETA, STRATEGY_PRIOR = 0.5, 0.5, 10.0
MAX_ROUNDS, TOLERANCE = 1000, 1e-9
START_MARGIN = 1e-6
# crowd-kit run to its fixed point: rounds enough on every case here, one restart (all are one).
LONG_ROUNDS = 1000


def spammers(rng):
    units, k = 60, 3
    truth = rng.integers(0, k, size=units)
    accuracy = [0.9, 0.85, 0.8, 0.75, 0.7, 0.6]
    rows = []
    for u in range(units):
        for r in range(8):
            if r < 6:
                right = rng.random() < accuracy[r]
                c = int(truth[u]) if right else int(rng.integers(0, k))
            elif r == 6:
                c = int(rng.integers(0, k))
            else:
                c = 0
            rows.append((u, r, c))
    return rows, units, 8, k


def five_categories(rng):
    units, k = 50, 5
    truth = rng.integers(0, k, size=units)
    kinds = ["good"] * 3 + ["noisy"] * 2 + ["random", "two"]
    rows = []
    for u in range(units):
        for r, kind in enumerate(kinds):
            if rng.random() >= 0.8:
                continue
            if kind == "two":
                c = 2
            elif kind == "random":
                c = int(rng.integers(0, k))
            else:
                right = 0.8 if kind == "good" else 0.55
                if rng.random() < right:
                    c = int(truth[u])
                else:
                    c = int(np.clip(truth[u] + rng.choice([-1, 1]), 0, k - 1))
            rows.append((u, r, c))
    return rows, units, len(kinds), k


def sparse(rng):
    units, raters, k = 80, 12, 4
    truth = rng.integers(0, k, size=units)
    coverage = np.linspace(0.08, 0.9, raters)
    accuracy = rng.uniform(0.35, 0.95, size=raters)
    rows = []
    for u in range(units):
        chosen = [r for r in range(raters) if rng.random() < coverage[r]]
        if not chosen:
            chosen = [int(rng.integers(0, raters))]
        for r in chosen:
            right = rng.random() < accuracy[r]
            c = int(truth[u]) if right else int(rng.integers(0, k))
            rows.append((u, r, c))
    return rows, units, raters, k


def binary(rng):
    units, k = 40, 2
    truth = rng.integers(0, k, size=units)
    accuracy = [0.9, 0.8, 0.7, 0.6]
    rows = []
    for u in range(units):
        for r in range(5):
            if r < 4:
                c = int(truth[u]) if rng.random() < accuracy[r] else 1 - int(truth[u])
            else:
                c = 1
            rows.append((u, r, c))
    return rows, units, 5, k


# The transcription of the Rust fit.


def e_step(data, units, k, spam, know, strategy):
    """Posteriors, log-likelihood and the expected spamming and knowing per answer."""
    u, r, c = data
    log_g = np.full((units, k), -np.log(k))
    q = spam[r] * strategy[r, c]
    for label in range(k):
        np.add.at(log_g[:, label], u, np.log(q + know[r] * (c == label)))
    top = log_g.max(axis=1, keepdims=True)
    log_marginal = top[:, 0] + np.log(np.exp(log_g - top).sum(axis=1))
    posterior = np.exp(log_g - log_marginal[:, None])
    knowing = posterior[u, c] * know[r] / (q + know[r])
    return posterior, log_marginal.sum(), 1.0 - knowing, knowing


def m_step(data, raters, k, spamming, knowing, method):
    u, r, c = data
    spam_n = np.bincount(r, spamming, raters)
    know_n = np.bincount(r, knowing, raters)
    counts = np.zeros((raters, k))
    np.add.at(counts, (r, c), spamming)
    if method == "vb":
        total = digamma(spam_n + know_n + ALPHA + BETA)
        spam = np.exp(digamma(spam_n + ALPHA) - total)
        know = np.exp(digamma(know_n + BETA) - total)
        row = digamma(counts.sum(axis=1, keepdims=True) + STRATEGY_PRIOR * k)
        strategy = np.exp(digamma(counts + STRATEGY_PRIOR) - row)
    else:
        eps = 0.01 / k
        spam = (spam_n + eps) / (spam_n + know_n + 2 * eps)
        know = (know_n + eps) / (spam_n + know_n + 2 * eps)
        strategy = (counts + eps) / (counts.sum(axis=1, keepdims=True) + k * eps)
    return spam, know, strategy


def run(data, units, raters, k, start, method, rounds=MAX_ROUNDS, tol=TOLERANCE):
    spam, know, strategy = start
    posterior, ll, spamming, knowing = e_step(data, units, k, spam, know, strategy)
    converged = False
    done = 0
    for done in range(1, rounds + 1):
        s2, k2, t2 = m_step(data, raters, k, spamming, knowing, method)
        posterior, ll, spamming, knowing = e_step(data, units, k, s2, k2, t2)
        change = max(np.abs(s2 - spam).max(), np.abs(k2 - know).max(), np.abs(t2 - strategy).max())
        spam, know, strategy = s2, k2, t2
        if tol is not None and change < tol:
            converged = True
            break
    return {
        "spam": spam,
        "know": know,
        "strategy": strategy,
        "posterior": posterior,
        "log_likelihood": ll,
        "iterations": done,
        "converged": converged,
    }


def starts(data, units, raters, k):
    """The four starting points, in the Rust fit's order."""
    u, r, c = data
    flat = np.full((raters, k), 1.0 / k)
    counts = np.zeros((units, k))
    np.add.at(counts, (u, c), 1.0)
    shares = counts / counts.sum(axis=1, keepdims=True)
    n = np.bincount(r, minlength=raters).astype(float)
    agree = np.bincount(r, shares[u, c], raters)
    know = (agree + 0.5) / (n + 1.0)
    answered = np.zeros((raters, k))
    np.add.at(answered, (r, c), 1.0)
    strategy = (answered + 1.0) / (n[:, None] + k)
    return [
        ("flat", (np.full(raters, 0.5), np.full(raters, 0.5), flat)),
        ("majority", (1.0 - know, know, strategy)),
        ("trusting", (np.full(raters, 0.1), np.full(raters, 0.9), flat)),
        ("wary", (np.full(raters, 0.9), np.full(raters, 0.1), flat)),
    ]


def juror_mace(data, units, raters, k, method):
    best = None
    finals = {}
    for name, start in starts(data, units, raters, k):
        fit = run(data, units, raters, k, start, method)
        finals[name] = fit
        if best is None or fit["log_likelihood"] > best["log_likelihood"] + START_MARGIN:
            best = dict(fit, start=name)
    return best, finals


def first_max(row):
    return int(np.argmax(row))


def crowd_kit(rows, units, raters, k, method, long=False):
    """crowd-kit's fit mapped back to indices; with its defaults, checked by a replay."""
    u, r, c = np.array(rows).T
    worker = {w: i for i, w in enumerate(pd.unique(r))}
    label = {l: i for i, l in enumerate(pd.unique(c))}
    assert len(worker) == raters and len(label) == k, "every rater and category is used"
    frame = pd.DataFrame(
        {
            "task": [f"t{x:03d}" for x in u],
            "worker": [f"w{worker[x]:02d}" for x in r],
            "label": [label[x] for x in c],
        }
    )
    if long:
        model = MACE(method=method, n_restarts=1, n_iter=LONG_ROUNDS).fit(frame)
    else:
        model = MACE(method=method).fit(frame)
    wi = np.array([worker[x] for x in range(raters)])
    li = np.array([label[x] for x in range(k)])
    posterior = model.probas_.loc[[f"t{x:03d}" for x in range(units)]].values[:, li]
    inverse = {v: key for key, v in label.items()}
    consensus = [int(inverse[model.labels_[f"t{x:03d}"]]) for x in range(units)]
    fit = {
        "competence": model.spamming_[wi, 1],
        "spam": model.spamming_[wi, 0],
        "spamming": model.thetas_[wi][:, li],
        "posterior": posterior,
        "consensus": consensus,
    }
    if long:
        return fit
    # crowd-kit's starting point (the same at every restart), replayed for its 50 rounds.
    seed = MACE(method=method)
    seed._initialize(raters, k)
    start = (seed.spamming_[wi, 0], seed.spamming_[wi, 1], seed.thetas_[wi][:, li])
    replay = run(np.array(rows).T, units, raters, k, start, method, rounds=50, tol=None)
    for ours, theirs in [
        (replay["know"], fit["competence"]),
        (replay["spam"], fit["spam"]),
        (replay["strategy"], fit["spamming"]),
        (replay["posterior"], fit["posterior"]),
    ]:
        assert np.abs(ours - theirs).max() < 1e-12, "the transcription replays crowd-kit"
    return fit


def as_lists(a):
    return np.asarray(a).tolist()


def gaps(ours, theirs):
    return {
        "competence": float(np.abs(ours["know"] - theirs["competence"]).max()),
        "spam": float(np.abs(ours["spam"] - theirs["spam"]).max()),
        "spamming": float(np.abs(ours["strategy"] - theirs["spamming"]).max()),
        "posterior": float(np.abs(ours["posterior"] - theirs["posterior"]).max()),
    }


def expected(fit):
    return {key: as_lists(fit[key]) for key in ["competence", "spam", "spamming", "posterior"]} | {
        "consensus": fit["consensus"]
    }


def main():
    cases = []
    worst = {"crowdkit": {}, "crowdkit_defaults": {}}
    for name, make, seed, method in [
        ("spammers", spammers, 1, "vb"),
        ("five_categories", five_categories, 2, "vb"),
        ("sparse", sparse, 3, "vb"),
        ("binary", binary, 4, "vb"),
        ("spammers_em", spammers, 1, "em"),
    ]:
        rows, units, raters, k = make(np.random.default_rng(seed))
        data = np.array(rows).T
        theirs = {
            "crowdkit": crowd_kit(rows, units, raters, k, method, long=True),
            "crowdkit_defaults": crowd_kit(rows, units, raters, k, method),
        }
        ours, finals = juror_mace(data, units, raters, k, method)
        consensus = [first_max(p) for p in ours["posterior"]]
        print(f"{name}: start {ours['start']}, {ours['iterations']} rounds")
        for which, fit in theirs.items():
            assert consensus == fit["consensus"], f"{name}: consensus differs from {which}"
            gap = gaps(ours, fit)
            for key, value in gap.items():
                worst[which][key] = max(worst[which].get(key, 0.0), value)
            print(f"  against {which}: " + ", ".join(f"{key} {v:.1e}" for key, v in gap.items()))
        for start, fit in finals.items():
            print(
                f"  start {start}: ll {fit['log_likelihood']:.10f}, {fit['iterations']} rounds, "
                f"competence gap {np.abs(fit['know'] - ours['know']).max():.1e}"
            )
        cases.append(
            {
                "name": name,
                "method": method,
                "units": units,
                "raters": raters,
                "categories": k,
                "answers": [list(row) for row in rows],
                "crowdkit": expected(theirs["crowdkit"]),
                "crowdkit_defaults": expected(theirs["crowdkit_defaults"]),
                "juror": {
                    "competence": as_lists(ours["know"]),
                    "spam": as_lists(ours["spam"]),
                    "spamming": as_lists(ours["strategy"]),
                    "posterior": as_lists(ours["posterior"]),
                    "consensus": consensus,
                    "log_likelihood": float(ours["log_likelihood"]),
                    "iterations": ours["iterations"],
                    "converged": ours["converged"],
                    "start": ours["start"],
                },
            }
        )
    for which, gap in worst.items():
        print(f"largest differences from {which}: " + ", ".join(f"{k} {v:.1e}" for k, v in gap.items()))
    grid = [1e-6, 1e-3, 0.1, 0.5, 1.0, 1.4616321449683622, 2.0, 3.7, 9.99, 10.0, 10.5, 50.0, 1e3, 1e6]
    out = {
        "generated_by": "crates/juror-core/tests/reference/mace/make_reference.py",
        "versions": {
            "python": platform.python_version(),
            "crowd-kit": crowdkit.__version__ if hasattr(crowdkit, "__version__") else "1.4.2",
            "numpy": np.__version__,
            "pandas": pd.__version__,
            "scipy": scipy.__version__,
        },
        "models": {
            "crowdkit": f"crowdkit.aggregation.MACE(method=..., n_restarts=1, n_iter={LONG_ROUNDS})",
            "crowdkit_defaults": "crowdkit.aggregation.MACE(method=...)",
        },
        "largest_differences": worst,
        "digamma": [[x, float(digamma(x))] for x in grid],
        "cases": cases,
    }
    path = Path(__file__).with_name("reference.json")
    path.write_text(json.dumps(out, indent=1) + "\n")
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
