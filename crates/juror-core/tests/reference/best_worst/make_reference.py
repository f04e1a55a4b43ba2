#!/usr/bin/env python3
"""Reference values for `crates/juror-core/src/stats/best_worst.rs` (best–worst scaling).

Run from the repository's root (numpy and scipy needed):

    python3 crates/juror-core/tests/reference/best_worst/make_reference.py

It writes, beside itself, `best_worst.csv` (a tidy CSV of simulated best–worst judgements in
the choice format: choice=best_worst, shown=s1|s2|s3|s4, chosen=BEST|WORST) and
`reference.json` (per system: shown, best and worst counts, the counting score
(best − worst) / shown, and the maxdiff utilities, centred on mean 0, with their standard
errors; the library versions). The CLI's `analyze` test
(`crates/juror-cli/tests/it/analyze.rs`) reads them.

- The judgements: 6 systems with utilities (1.0, 0.5, 0.2, 0.0, -0.4, -1.3), 30 items,
  3 annotators, each judging 3 random tuples of 4 systems per item; best and worst drawn from
  P(best = i, worst = j) ∝ exp(u_i − u_j), i ≠ j (numpy's default_rng(2026)).
- The maxdiff utilities: the negative log-likelihood minimised by
  `scipy.optimize.minimize(method="trust-exact", gtol=1e-10)` with the analytic gradient and
  Hessian over u_1 … u_5 (u_0 = 0), polished by `scipy.optimize.root` on the gradient until
  every component is below 1e-10 (checked), then centred; standard errors from the inverse of the
  Hessian at the optimum, carried to the centred utilities by C Σ Cᵀ.
"""

import csv
import itertools
import json
import os
import platform

import numpy as np
import scipy
from scipy.optimize import minimize, root

HERE = os.path.dirname(os.path.abspath(__file__))
SYSTEMS = ["sys-a", "sys-b", "sys-c", "sys-d", "sys-e", "sys-f"]
TRUE = np.array([1.0, 0.5, 0.2, 0.0, -0.4, -1.3])


def simulate():
    rng = np.random.default_rng(2026)
    rows = []
    for item in range(30):
        for annotator in range(3):
            for _ in range(3):
                shown = list(rng.permutation(6)[:4])
                pairs = [(i, j) for i in shown for j in shown if i != j]
                w = np.array([np.exp(TRUE[i] - TRUE[j]) for i, j in pairs])
                b, wst = pairs[rng.choice(len(pairs), p=w / w.sum())]
                rows.append((f"item-{item:02d}", f"ann-{annotator}", shown, int(b), int(wst)))
    return rows


def nll(free, rows):
    u = np.concatenate([[0.0], free])
    m = len(u)
    value, grad, hess = 0.0, np.zeros(m), np.zeros((m, m))
    for _, _, shown, b, w in rows:
        pairs = [(i, j) for i in shown for j in shown if i != j]
        logits = np.array([u[i] - u[j] for i, j in pairs])
        top = logits.max()
        z = np.exp(logits - top).sum()
        value -= u[b] - u[w] - top - np.log(z)
        p = np.exp(logits - top) / z
        x = np.zeros((len(pairs), m))
        for r, (i, j) in enumerate(pairs):
            x[r, i] += 1.0
            x[r, j] -= 1.0
        ex = p @ x
        grad -= (np.eye(m)[b] - np.eye(m)[w]) - ex
        hess += (x * p[:, None]).T @ x - np.outer(ex, ex)
    return value, grad[1:], hess[1:, 1:]


def main():
    rows = simulate()
    with open(os.path.join(HERE, "best_worst.csv"), "w", newline="") as f:
        out = csv.writer(f, lineterminator="\n")
        # The columns of Juror's tidy CSV (`juror analyze --format csv`), choice rows only.
        out.writerow(["item_id", "system_id", "annotator_id", "dimension", "score", "system_a",
                      "system_b", "preference", "position", "shown_first", "derived", "choice",
                      "shown", "chosen"])
        for item, annotator, shown, b, w in rows:
            out.writerow([item, "", annotator, "", "", "", "", "", "", "", "", "best_worst",
                          "|".join(SYSTEMS[s] for s in shown), f"{SYSTEMS[b]}|{SYSTEMS[w]}"])
    m = len(SYSTEMS)
    shown = np.zeros(m)
    best = np.zeros(m)
    worst = np.zeros(m)
    for _, _, s, b, w in rows:
        shown[s] += 1
        best[b] += 1
        worst[w] += 1
    fit = minimize(lambda f: nll(f, rows)[0], np.zeros(m - 1), jac=lambda f: nll(f, rows)[1],
                   hess=lambda f: nll(f, rows)[2], method="trust-exact",
                   options={"gtol": 1e-10})
    # trust-exact may stop with "bad approximation" once no step can improve in floating point;
    # the gradient check below is what counts.
    # the gradient's root from there (scipy.optimize.root, Powell's hybrid method with the
    # Hessian) polishes the optimum to a gradient below 1e-10.
    polished = root(lambda f: nll(f, rows)[1], fit.x, jac=lambda f: nll(f, rows)[2],
                    method="hybr", tol=1e-14)
    value, grad, hess = nll(polished.x, rows)
    fit = polished
    assert np.abs(grad).max() < 1e-10
    u = np.concatenate([[0.0], fit.x])
    sigma = np.zeros((m, m))
    sigma[1:, 1:] = np.linalg.inv(hess)
    c = np.eye(m) - np.ones((m, m)) / m
    se = np.sqrt(np.diag(c @ sigma @ c.T))
    reference = {
        "systems": SYSTEMS,
        "judgements": len(rows),
        "shown": shown.tolist(),
        "best": best.tolist(),
        "worst": worst.tolist(),
        "counting_score": ((best - worst) / shown).tolist(),
        "utility": (u - u.mean()).tolist(),
        "utility_se": se.tolist(),
        "log_likelihood": -value,
        "versions": {"python": platform.python_version(), "numpy": np.__version__,
                     "scipy": scipy.__version__},
    }
    with open(os.path.join(HERE, "reference.json"), "w") as f:
        json.dump(reference, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
