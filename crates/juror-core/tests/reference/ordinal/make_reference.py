#!/usr/bin/env python3
"""Reference values for `crates/juror-core/src/stats/ordinal.rs` (the cumulative logit model).

Run from anywhere:

    python3 -m venv /tmp/refds
    /tmp/refds/bin/pip install numpy pandas scipy statsmodels
    /tmp/refds/bin/python crates/juror-core/tests/reference/ordinal/make_reference.py

It writes `reference.json` beside itself: the data (system, score, annotator triples, systems
in the order of the Rust builder, reference first), the expected fits and the library
versions; `crates/juror-core/tests/it/ordinal.rs` reads it.

The model is `score ~ system` as a proportional odds model,

    statsmodels.miscmodels.ordinal_model.OrderedModel(score, exog, distr="logit")

with exog the treatment dummies of the system against the first system, named as patsy names
them (`system[T.<name>]`), and the scores as integers, so that OrderedModel takes the distinct
values used as its categories and names the thresholds `<low>/<high>`. Its parameters are
[beta..., c_0, ln(c_1 - c_0), ...] with P(score <= j | x) = F(c_j - x'beta), F logistic.

Data sets, seeded:
- `balanced`: 4 systems x 20 annotators x 30 items, 5-point Likert, a latent logistic score with
  system effects, annotator effects (SD 0.7) and item effects (SD 0.5);
- `unbalanced`: 3 systems, 15 annotators who rate different numbers of items and not every
  system (missing combinations), a 7-point scale whose score 2 is never used (so the 6 used
  values are the categories, thresholds `1/3`, `3/4`, ...) and whose extreme scores are rare;
- `binary`: 3 systems, 12 annotators x 25 items, scores 0/1 (the model is then logistic
  regression, with the sign of the intercept reversed: c_0 = -intercept).

How statsmodels was made to converge: OrderedModel's default (`method="nm"`, 500 iterations)
stops far from the maximum. Every fit here runs `method="bfgs"` from statsmodels' own start
(beta = 0, cut points from the cumulative marginal proportions) with `gtol=1e-10,
maxiter=10000`, then `method="newton"` from that point with `tol=1e-8`. The script requires
`mle_retvals["converged"]` of the last fit and an analytic score below 1e-6 in absolute value
at the estimates (`max_abs_score`; it is below 1e-12 for `expected`).

Two sets of expected values per case:
- `numdiff`: plain OrderedModel. statsmodels takes the score, the per-observation scores
  (`approx_fprime`, centered) and the Hessian (`approx_hess`) of GenericLikelihoodModel by
  numerical differences, whose error reaches 4e-6 relative in the standard errors here (the
  newton polish cannot go below `tol=1e-8`: the numerical score is noisy at 1e-10).
- `expected`: the same OrderedModel with the analytic score and Hessian (`ExactOrderedModel`
  below: `score_obs`, `score` and `hessian` overridden, nothing else), so that statsmodels' own
  optimizers and covariance code run on exact derivatives. `numdiff_vs_exact` records the
  largest relative difference of each quantity between the two.

Standard errors: `bse` from the inverse of the negative Hessian; `bse_cluster` from
`fit(cov_type="cluster", cov_kwds={"groups": annotator codes})`, i.e.
`sandwich_covariance.cov_cluster` with `use_correction=True`:
H^-1 (sum_g s_g s_g') H^-1 * G/(G-1) * (N-1)/(N-k), G annotators, N ratings, k all parameters
(coefficients and thresholds).

Cut points are `model.transform_threshold_params(params)[1:-1]`, their standard errors by the
delta method, J Cov J' with J the Jacobian of the cut points in the threshold parameters, for
both covariances.
"""

import json
import re
import platform
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import scipy
import statsmodels
from scipy.special import expit
from statsmodels.miscmodels.ordinal_model import OrderedModel

HERE = Path(__file__).resolve().parent


def latent_score(rng, mean, cuts):
    """The category (from 0) of a logistic latent score with the given mean and cut points."""
    z = mean + rng.logistic()
    return int(np.searchsorted(cuts, z))


def balanced():
    rng = np.random.default_rng(11)
    systems = ["base", "tuned", "large", "small"]
    effect = {"base": 0.0, "tuned": 0.6, "large": 1.1, "small": -0.4}
    cuts = [-2.0, -0.7, 0.5, 1.8]
    annotator = rng.normal(0.0, 0.7, 20)
    item = rng.normal(0.0, 0.5, 30)
    rows = []
    for a in range(20):
        for i in range(30):
            for s in systems:
                k = latent_score(rng, effect[s] + annotator[a] + item[i], cuts)
                rows.append((s, k + 1, f"a{a:02d}"))
    return systems, rows


def unbalanced():
    rng = np.random.default_rng(12)
    systems = ["gpt", "llama", "mistral"]
    effect = {"gpt": 0.0, "llama": -0.8, "mistral": 0.5}
    cuts = [-3.5, -1.6, -0.6, 0.4, 1.5, 3.6]
    rows = []
    for a in range(15):
        u = rng.normal(0.0, 0.8)
        rated = [s for s in systems if rng.random() < 0.75] or ["gpt"]
        for _ in range(int(rng.integers(3, 25))):
            for s in rated:
                score = latent_score(rng, effect[s] + u, cuts) + 1
                # Score 2 is never used: the categories are the 6 values used.
                rows.append((s, 3 if score == 2 else score, f"r{a:02d}"))
    return systems, rows


def binary():
    rng = np.random.default_rng(13)
    systems = ["control", "treated", "ablated"]
    effect = {"control": 0.0, "treated": 0.9, "ablated": -0.3}
    annotator = rng.normal(0.0, 0.6, 12)
    rows = []
    for a in range(12):
        for _ in range(25):
            for s in systems:
                rows.append((s, latent_score(rng, effect[s] + annotator[a], [0.2]), f"j{a:02d}"))
    return systems, rows


def design(systems, rows):
    data = pd.DataFrame(rows, columns=["system", "score", "annotator"])
    exog = pd.DataFrame(
        {f"system[T.{s}]": (data.system == s).astype(float) for s in systems[1:]}
    )
    groups = np.unique(data.annotator, return_inverse=True)[1]
    return data, exog, groups


def fit(model, **kwds):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        first = model.fit(method="bfgs", gtol=1e-10, maxiter=10_000, disp=False, **kwds)
        res = model.fit(
            start_params=first.params.values, method="newton", tol=1e-8, maxiter=100,
            disp=False, **kwds
        )
    assert res.mle_retvals["converged"], res.mle_retvals
    return res


def cut_jacobian(params, k):
    """d c / d (threshold params): c_j = a_0 + sum_{1 <= m <= j} exp(a_m)."""
    a = params[-(k - 1):]
    jac = np.zeros((k - 1, k - 1))
    for j in range(k - 1):
        jac[j, 0] = 1.0
        for m in range(1, j + 1):
            jac[j, m] = np.exp(a[m])
    return jac


def derivatives(model, params):
    """Per-observation scores and the Hessian, by the chain rule through the bounds (u, l)."""
    x = np.asarray(model.exog)
    y = np.asarray(model.endog).astype(int)
    k = model.k_levels
    p = x.shape[1]
    thresh = model.transform_threshold_params(params)
    eta = x @ params[:p]
    upp, low = thresh[y + 1] - eta, thresh[y] - eta
    fu = np.where(np.isfinite(upp), expit(upp), 1.0)
    fl = np.where(np.isfinite(low), expit(low), 0.0)
    prob = fu - fl
    du = np.where(np.isfinite(upp), fu * (1 - fu), 0.0)
    dl = np.where(np.isfinite(low), fl * (1 - fl), 0.0)
    # second derivatives of F: f' = f (1 - 2F)
    ddu = du * (1 - 2 * fu)
    ddl = dl * (1 - 2 * fl)
    jac = cut_jacobian(params, k)
    q = p + k - 1
    grad_u = np.zeros((len(y), q))  # d upp / d theta
    grad_l = np.zeros((len(y), q))
    grad_u[:, :p] = -x
    grad_l[:, :p] = -x
    top, bottom = y < k - 1, y > 0
    grad_u[top, p:] = jac[y[top]]
    grad_l[bottom, p:] = jac[y[bottom] - 1]
    lu, ll = du / prob, -dl / prob
    scores = lu[:, None] * grad_u + ll[:, None] * grad_l
    luu = ddu / prob - lu**2
    lll = -ddl / prob - ll**2
    lul = -lu * ll
    hess = (
        (grad_u * luu[:, None]).T @ grad_u
        + (grad_l * lll[:, None]).T @ grad_l
        + (grad_u * lul[:, None]).T @ grad_l
        + (grad_l * lul[:, None]).T @ grad_u
    )
    # second derivatives of the cut points: d2 c_j / d a_m^2 = exp(a_m) for 1 <= m <= j
    a = params[p:]
    for j, w, rows in ((y, lu, top), (y - 1, ll, bottom)):
        for m in range(1, k - 1):
            hess[p + m, p + m] += np.exp(a[m]) * w[rows & (j >= m)].sum()
    return scores, hess


class ExactOrderedModel(OrderedModel):
    """OrderedModel with the analytic score and Hessian in place of numerical differences;
    everything else (likelihood, optimizers, covariance code) is statsmodels'."""

    def score_obs(self, params, **kwds):
        return derivatives(self, np.asarray(params))[0]

    def score(self, params):
        return self.score_obs(params).sum(0)

    def hessian(self, params):
        return derivatives(self, np.asarray(params))[1]


def summary(model, res, res_cluster, groups):
    params = res.params.to_numpy()
    k = model.k_levels
    p = len(params) - (k - 1)
    jac = cut_jacobian(params, k)

    def cut_se(cov):
        block = np.asarray(cov)[p:, p:]
        return np.sqrt(np.diag(jac @ block @ jac.T)).tolist()

    return {
        "names": list(res.params.index),
        "params": params.tolist(),
        "bse": res.bse.to_numpy().tolist(),
        "bse_cluster": res_cluster.bse.to_numpy().tolist(),
        "cut_points": model.transform_threshold_params(params)[1:-1].tolist(),
        "cut_points_se": cut_se(res.cov_params()),
        "cut_points_se_cluster": cut_se(res_cluster.cov_params()),
        "llf": float(res.llf),
        "nobs": int(res.nobs),
        "n_groups": int(groups.max() + 1),
        "k_levels": int(k),
        "levels": [int(v) for v in model.labels],
        "max_abs_score": float(np.abs(derivatives(model, params)[0].sum(0)).max()),
    }


def case(name, description, make):
    systems, rows = make()
    data, exog, groups = design(systems, rows)
    out = {"name": name, "description": description, "systems": systems,
           "rows": [list(r) for r in rows]}
    for key, cls in (("expected", ExactOrderedModel), ("numdiff", OrderedModel)):
        model = cls(data.score.to_numpy(), exog, distr="logit")
        res = fit(model)
        res_cluster = fit(model, cov_type="cluster", cov_kwds={"groups": groups})
        assert np.allclose(res.params, res_cluster.params, rtol=1e-9, atol=1e-12)
        out[key] = summary(model, res, res_cluster, groups)
        assert out[key]["max_abs_score"] < 1e-6, out[key]["max_abs_score"]
    rel = lambda a, b: float(np.max(np.abs(np.subtract(a, b)) / np.abs(b)))
    out["numdiff_vs_exact"] = {
        q: rel(out["numdiff"][q], out["expected"][q])
        for q in ("params", "bse", "bse_cluster", "cut_points_se", "cut_points_se_cluster")
    }
    return out


def main():
    cases = [
        case("balanced", "4 systems x 20 annotators x 30 items, Likert 1-5", balanced),
        case("unbalanced", "3 systems, 15 annotators, uneven, 7-point scale, 2 unused", unbalanced),
        case("binary", "3 systems x 12 annotators x 25 items, scores 0/1", binary),
    ]
    out = {
        "generated_by": "crates/juror-core/tests/reference/ordinal/make_reference.py",
        "versions": {
            "python": platform.python_version(),
            "numpy": np.__version__,
            "pandas": pd.__version__,
            "scipy": scipy.__version__,
            "statsmodels": statsmodels.__version__,
        },
        "model": "OrderedModel(score, system dummies, distr='logit'), bfgs then newton",
        "cluster_correction": "G/(G-1) * (N-1)/(N-k), sandwich_covariance.cov_cluster",
        "cases": cases,
    }
    path = HERE / "reference.json"
    text = json.dumps(out, indent=1)
    # One line per data row: [system, score, annotator].
    text = re.sub(r'\[\n\s+("[^"]*"),\n\s+(-?\d+),\n\s+("[^"]*")\n\s+\]', r"[\1, \2, \3]", text)
    path.write_text(text + "\n")
    for c in cases:
        print(c["name"], c["expected"]["levels"], c["expected"]["max_abs_score"], c["numdiff_vs_exact"])
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
