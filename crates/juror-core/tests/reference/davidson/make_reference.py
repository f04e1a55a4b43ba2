#!/usr/bin/env python3
"""Reference values for `crates/juror-core/src/stats/preference/davidson.rs` (Davidson's 1970
extension of Bradley–Terry for ties, on arena-rank's rating scale, with model-based and
sandwich covariances).

No maintained Python package fits Davidson's model (arena-rank 0.1.1 counts ties as halves,
choix 0.4.1 has no ties), so this script is an independent implementation of the estimator:

- the likelihood is written directly from the model, P(i beats j) = πᵢ/(πᵢ + πⱼ + ν√(πᵢπⱼ)),
  P(tie) = ν√(πᵢπⱼ)/(same), πᵢ = exp θᵢ, over every comparison (not by pair), in sum-to-zero
  contrasts (θ_K = −θ₁ − … − θ_{K−1}) and κ = ln ν, and maximised by
  `scipy.optimize.minimize(method="BFGS")` with the analytic gradient (gtol 1e-12), started
  from 0, then polished by `scipy.optimize.root` on the score (the Rust fit starts κ
  elsewhere and uses Newton's method in the full parametrisation);
- the information is the expected outer product of the per-comparison scores, Σᵣ Σ_o P(o) sₒsₒᵀ
  over the three outcomes o (equal to −∇²ℓ, which the Rust code computes instead);
- the ridge 1e-5 · N (N comparisons) goes on the θ diagonal of the information in the full
  parametrisation, A = I + λN·E_θ, and the contrasts use A_c = JᵀAJ;
- the covariances are J A_c⁻¹ Jᵀ (model-based) and J A_c⁻¹ (Jᵀ B J) A_c⁻¹ Jᵀ (sandwich), with
  B = Σᵣ sᵣsᵣᵀ (HC0) or, clustered, the outer products of the cluster sums of the scores (CR0,
  no small-sample factor);
- ratings 400/ln 10 · θ + 1000, intervals rating ± z·SE, the rank sets from Bonferroni-adjusted
  simultaneous intervals of all K(K−1)/2 differences and the leaderboard rank (1 + the number of
  systems whose lower bound is above this one's upper bound), as for `bt_sandwich`;
- ν with the delta-method SE ν·SE(κ), the interval exp(κ ∓ z SE(κ)), and ν/(2+ν).

Run from anywhere:

    python3 -m venv /tmp/refds
    /tmp/refds/bin/pip install numpy scipy
    /tmp/refds/bin/python crates/juror-core/tests/reference/davidson/make_reference.py

Data sets, seeded, drawn from Davidson's model itself:
- `five_ties`: 5 systems, every pair met between 3 and 60 times (uneven), ν = 0.9;
- `arena_eight`: 8 systems, 2500 battles, pairs drawn with unequal frequencies, ν = 0.6;
- `clustered`: 6 systems, 40 annotators with their own taste (a random shift of every
  system's strength) and their own tie propensity, 25 battles each; the cluster is the
  annotator;
- `four_sparse`: 4 systems, only 4 of the 6 pairs met (uneven counts), ν = 2 (about half ties).
"""

import json
import math
import platform
from pathlib import Path

import numpy as np
import scipy
from scipy.optimize import minimize, root
from scipy.stats import norm

ALPHA = 400.0 / math.log(10.0)
OFFSET = 1000.0
RIDGE = 1e-5
LEVEL = 0.95


def draw(rng, theta_a, theta_b, nu):
    pa, pb = math.exp(theta_a), math.exp(theta_b)
    tie = nu * math.sqrt(pa * pb)
    u = rng.random() * (pa + pb + tie)
    if u < pa:
        return "model_a"
    if u < pa + pb:
        return "model_b"
    return "tie"


def five_ties(rng):
    theta = np.array([0.8, 0.3, 0.0, -0.2, -0.9])
    rows = []
    for i in range(5):
        for j in range(i + 1, 5):
            for _ in range(int(rng.integers(3, 61))):
                a, b = (i, j) if rng.random() < 0.5 else (j, i)
                rows.append((f"s{a}", f"s{b}", draw(rng, theta[a], theta[b], 0.9), None))
    return rows


def arena_eight(rng):
    theta = rng.normal(0.0, 0.5, size=8)
    pop = rng.uniform(0.3, 1.0, size=8)
    names = [f"model-{k}" for k in "abcdefgh"]
    rows = []
    for _ in range(2500):
        a, b = rng.choice(8, size=2, replace=False, p=pop / pop.sum())
        rows.append((names[a], names[b], draw(rng, theta[a], theta[b], 0.6), None))
    return rows


def clustered(rng):
    theta = np.array([0.6, 0.4, 0.1, 0.0, -0.3, -0.8])
    rows = []
    for c in range(40):
        taste = theta + rng.normal(0.0, 0.6, size=6)
        nu = math.exp(rng.normal(math.log(0.8), 0.5))
        for _ in range(25):
            a, b = rng.choice(6, size=2, replace=False)
            rows.append((f"sys{a}", f"sys{b}", draw(rng, taste[a], taste[b], nu), f"ann{c:02d}"))
    return rows


def four_sparse(rng):
    theta = np.array([0.5, 0.2, -0.1, -0.6])
    rows = []
    for (i, j), n in [((0, 1), 12), ((1, 2), 45), ((2, 3), 8), ((0, 2), 30)]:
        for _ in range(n):
            a, b = (i, j) if rng.random() < 0.5 else (j, i)
            rows.append((f"q{a}", f"q{b}", draw(rng, theta[a], theta[b], 2.0), None))
    return rows


class Data:
    """Comparisons as index arrays and outcome indicators."""

    def __init__(self, rows, systems):
        index = {s: k for k, s in enumerate(systems)}
        self.k = len(systems)
        self.a = np.array([index[r[0]] for r in rows])
        self.b = np.array([index[r[1]] for r in rows])
        self.win_a = np.array([r[2] == "model_a" for r in rows], dtype=float)
        self.win_b = np.array([r[2] == "model_b" for r in rows], dtype=float)
        self.tie = np.array([r[2] == "tie" for r in rows], dtype=float)
        self.n = len(rows)
        # J maps the contrasts (θ₁..θ_{K−1}, κ) to (θ₁..θ_K, κ).
        k = self.k
        self.jac = np.zeros((k + 1, k))
        self.jac[: k - 1, : k - 1] = np.eye(k - 1)
        self.jac[k - 1, : k - 1] = -1.0
        self.jac[k, k - 1] = 1.0

    def full(self, beta):
        return self.jac @ beta

    def probabilities(self, x):
        """P(a wins), P(b wins), P(tie) for every comparison, from the model as written."""
        k = self.k
        pi = np.exp(x[:k])
        nu = math.exp(x[k])
        pa, pb = pi[self.a], pi[self.b]
        tie = nu * np.sqrt(pa * pb)
        d = pa + pb + tie
        return pa / d, pb / d, tie / d

    def scores(self, x, win_a, win_b, tie):
        """Per-comparison gradient of ln P(outcome) in (θ, κ), for the given indicators."""
        k = self.k
        p_a, p_b, p_t = self.probabilities(x)
        # ∂ ln P/∂θ_a: ½(w_a − w_b) from the numerator (a tie gives ½ to each side) minus
        # ∂ ln D/∂θ_a = p_a + ½ p_t; likewise for b; ∂/∂κ: [tie] − p_t.
        s = np.zeros((self.n, k + 1))
        ga = win_a + 0.5 * tie - (p_a + 0.5 * p_t)
        gb = win_b + 0.5 * tie - (p_b + 0.5 * p_t)
        np.add.at(s, (np.arange(self.n), self.a), ga)
        np.add.at(s, (np.arange(self.n), self.b), gb)
        s[:, k] = tie - p_t
        return s

    def negll(self, beta):
        x = self.full(beta)
        p_a, p_b, p_t = self.probabilities(x)
        return -float(
            np.sum(self.win_a * np.log(p_a) + self.win_b * np.log(p_b) + self.tie * np.log(p_t))
        )

    def neggrad(self, beta):
        x = self.full(beta)
        s = self.scores(x, self.win_a, self.win_b, self.tie)
        return -(self.jac.T @ s.sum(axis=0))

    def information(self, x):
        """Σᵣ E[sᵣsᵣᵀ] over the three outcomes of each comparison."""
        p = self.probabilities(x)
        info = np.zeros((self.k + 1, self.k + 1))
        one, zero = np.ones(self.n), np.zeros(self.n)
        for prob, ind in zip(p, [(one, zero, zero), (zero, one, zero), (zero, zero, one)]):
            s = self.scores(x, *ind)
            info += (s * prob[:, None]).T @ s
        return info


def rank_intervals(theta, cov, level):
    k = len(theta)
    m = k * (k - 1) // 2
    z = norm.ppf(1.0 - (1.0 - level) / (2.0 * m))
    above = np.zeros((k, k), dtype=bool)
    for i in range(k):
        for j in range(k):
            if i != j:
                se = math.sqrt(cov[i, i] + cov[j, j] - 2.0 * cov[i, j])
                above[i, j] = theta[i] - theta[j] - z * se > 0.0
    lo = [1 + int(above[:, i].sum()) for i in range(k)]
    hi = [k - int(above[i, :].sum()) for i in range(k)]
    return {"z": float(z), "lower": lo, "upper": hi}


def summary(x, cov, k, z):
    """Ratings, SEs, bounds, covariance, ranks and ν's block from a (K+1)² covariance."""
    theta = x[:k]
    se = np.sqrt(np.diag(cov)[:k])
    lower = ALPHA * (theta - z * se) + OFFSET
    upper = ALPHA * (theta + z * se) + OFFSET
    kappa, se_kappa = x[k], math.sqrt(cov[k, k])
    nu = math.exp(kappa)
    nu_lo, nu_hi = math.exp(kappa - z * se_kappa), math.exp(kappa + z * se_kappa)
    return {
        "se": list(ALPHA * se),
        "lower": list(lower),
        "upper": list(upper),
        "covariance": (ALPHA**2 * cov[:k, :k]).tolist(),
        "ranks": rank_intervals(theta, cov[:k, :k], LEVEL),
        "leaderboard_rank": [1 + int(sum(lower[j] > upper[i] for j in range(k))) for i in range(k)],
        "nu_se": nu * se_kappa,
        "nu_lower": nu_lo,
        "nu_upper": nu_hi,
        "tie_lower": nu_lo / (2.0 + nu_lo),
        "tie_upper": nu_hi / (2.0 + nu_hi),
    }


def fit(rows, systems, clusters):
    data = Data(rows, systems)
    k = data.k
    res = minimize(
        data.negll,
        np.zeros(k),
        jac=data.neggrad,
        method="BFGS",
        options={"gtol": 1e-12, "maxiter": 10000},
    )
    # BFGS's line search cannot resolve ℓ below ~1e-16 · |ℓ|, so it may stop with a gradient
    # of ~1e-7 ("precision loss"); the maximum is the root of the score, which
    # `scipy.optimize.root` then finds to rounding with the information as its Jacobian.
    polish = root(
        data.neggrad,
        res.x,
        jac=lambda beta: data.jac.T @ data.information(data.full(beta)) @ data.jac,
        method="hybr",
        options={"xtol": 1e-15},
    )
    beta = polish.x
    x = data.full(beta)
    grad_norm = float(np.max(np.abs(data.neggrad(beta))))
    info = data.information(x)
    ridge = np.zeros((k + 1, k + 1))
    ridge[:k, :k] = RIDGE * data.n * np.eye(k)
    a_c = data.jac.T @ (info + ridge) @ data.jac
    a_inv = np.linalg.inv(a_c)
    model = data.jac @ a_inv @ data.jac.T
    s = data.scores(x, data.win_a, data.win_b, data.tie)
    z = norm.ppf(0.5 + LEVEL / 2.0)

    def sandwich(scores):
        b_c = data.jac.T @ (scores.T @ scores) @ data.jac
        return data.jac @ a_inv @ b_c @ a_inv @ data.jac.T

    cov = sandwich(s)
    nu = math.exp(x[k])
    out = {
        "systems": systems,
        "optimizer": {
            "method": "BFGS, then root (hybr) on the score",
            "bfgs_iterations": int(res.nit),
            "bfgs_max_abs_gradient": float(np.max(np.abs(data.neggrad(res.x)))),
            "max_abs_gradient": grad_norm,
        },
        "log_likelihood": -data.negll(beta),
        "ratings": list(ALPHA * x[:k] + OFFSET),
        "nu": nu,
        "tie_probability": nu / (2.0 + nu),
        "model_se": list(ALPHA * np.sqrt(np.diag(model)[:k])),
        "model_covariance": (ALPHA**2 * model[:k, :k]).tolist(),
        "nu_model_se": nu * math.sqrt(model[k, k]),
        "z": float(z),
        "hc0": summary(x, cov, k, z),
    }
    if clusters:
        labels = sorted(set(clusters))
        gi = {c: g for g, c in enumerate(labels)}
        summed = np.zeros((len(labels), k + 1))
        np.add.at(summed, np.array([gi[c] for c in clusters]), s)
        out["clustered"] = {"clusters": len(labels), **summary(x, sandwich(summed), k, z)}
    return out


def main():
    cases = []
    for name, make, seed in [
        ("five_ties", five_ties, 11),
        ("arena_eight", arena_eight, 12),
        ("clustered", clustered, 13),
        ("four_sparse", four_sparse, 14),
    ]:
        rows = make(np.random.default_rng(seed))
        systems = sorted({r[0] for r in rows} | {r[1] for r in rows})
        clusters = [r[3] for r in rows] if rows[0][3] is not None else None
        expected = fit(rows, systems, clusters)
        print(name, expected["optimizer"], "nu", expected["nu"])
        cases.append({"name": name, "rows": [list(r) for r in rows], "expected": expected})
    out = {
        "generated_by": "crates/juror-core/tests/reference/davidson/make_reference.py",
        "versions": {
            "python": platform.python_version(),
            "numpy": np.__version__,
            "scipy": scipy.__version__,
        },
        "model": (
            "Davidson (1970): P(i beats j) = pi_i/(pi_i + pi_j + nu sqrt(pi_i pi_j)), "
            "maximum likelihood by scipy.optimize.minimize(BFGS, analytic gradient) and root "
            "on the score, in sum-to-zero contrasts; information = expected outer product of the scores, "
            "ridge 1e-5 N on the theta part; sandwich HC0 and CR0"
        ),
        "level": LEVEL,
        "ridge": RIDGE,
        "cases": cases,
    }
    path = Path(__file__).with_name("reference.json")
    path.write_text(json.dumps(out, indent=1) + "\n")
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
