#!/usr/bin/env python3
"""Reference values for `crates/juror-core/src/stats/mixed.rs`.

Run from anywhere:

    python3 -m venv /tmp/refenv3
    /tmp/refenv3/bin/pip install numpy pandas statsmodels scipy
    /tmp/refenv3/bin/python crates/juror-core/tests/reference/mixed/make_reference.py

It writes `reference.json` beside itself: the data, the expected fits and the library versions;
`crates/juror-core/tests/it/mixed.rs` reads it.

The model is the HARE study's primary analysis, `rating ~ system + round + system:round +
(1 | annotator)`, fitted by REML with

    statsmodels.formula.api.mixedlm("rating ~ C(system, Treatment('<ref>')) * round", data,
                                    groups=data["annotator"]).fit(reml=True, ...)

on three seeded data sets:

- `balanced`: 20 annotators x 4 systems x 10 rounds, Likert ratings 1-5 (a latent normal
  rounded and clipped), annotator intercepts with SD 0.6, one system ("hare") with a slope of
  0.08 per round;
- `unbalanced`: 25 annotators who rate different numbers of rounds and a random subset of the
  systems in each (group sizes 1 to 34), continuous ratings on a 0-100 scale;
- `boundary`: no annotator effect at all (true group variance 0), 12 annotators x 4 systems x
  6 rounds with 10% of the ratings dropped, chosen so that the REML estimate of the group
  variance is 0 (the restricted likelihood decreases from theta = 0).

How statsmodels was made to converge (statsmodels 0.15.0, scipy 1.17.1). What it does without
help is recorded in the JSON (`statsmodels.without_help` per case, and
`statsmodels_without_help_balanced_seed_1`):

- `fit(reml=True)` with its default optimizer list (bfgs, lbfgs, cg) stops early: on
  `balanced` its group variance is off by 2e-4 relative, on `unbalanced` by 1e-4, too loose
  for a 1e-6 comparison. On the same design with seed 1 it fails outright: all three optimizers
  stop without converging at a group variance of 0.20 (|grad| = 11), while the maximum is at
  0.12.
- `method="lbfgs"` from the default start can be worse: its first step has unit length and
  can land exactly on cov_re = 0, where `loglike` returns +inf, and the fit then reports
  `converged=True` with llf = inf and a group variance of 0 (on `unbalanced` and on seed 1).
  Both come from the default start (cov_re = 1 in units of the residual variance).
- So every fit here starts at a square-root parameter of 0.5 (cov_re = 0.25 in those units)
  and runs `method="bfgs", gtol=1e-10`; the script requires `converged` and a profile score
  below 1e-6 in absolute value (statsmodels' own `score`), and then compares statsmodels with
  an independent dense numpy REML (below): their largest relative difference is stored as
  `statsmodels_vs_dense` in each case.
- On `boundary` statsmodels cannot converge: its parameter is the square root of the
  variance, whose score vanishes at 0, and `loglike` at exactly 0 returns +inf. It stops at a
  group variance of about 1e-10 with `converged=False`. The REML estimate there is theta = 0,
  where the fit is ordinary least squares; the expected values are therefore
  `statsmodels.api.OLS` (coefficients, standard errors, scale = RSS / (N - p)) and
  MixedLM's `loglike` at 0, extrapolated linearly from cov_re = 1e-8 and 2e-8 (below 1e-10
  statsmodels treats cov_re as singular and drops its inverse, which silently fits a free
  intercept per group). The non-converged MixedLM fit gives the statsmodels-convention
  standard errors (see below), which only it computes.

Two conventions for the standard errors of the fixed effects, both stored:

- `se_model`: sqrt(diag(sigma2_e (X' H^-1 X)^-1)) with H = I + theta Z Z' at the REML
  estimates: the usual model-based (GLS) standard errors of nlme, lme4 and SAS PROC MIXED.
  Computed here with numpy from statsmodels' variance estimates.
- `se_statsmodels`: statsmodels' `bse_fe`, from the inverse of the observed Hessian of the
  scale-profiled restricted log-likelihood in (beta, theta) jointly. The beta-theta cross
  derivatives vanish when every group has the same design (as in `balanced`), so the two
  conventions agree there to rounding; on `unbalanced` they differ by up to 6.5e-5 relative,
  on `boundary` by 3e-3.

z = estimate / se and p = 2 (1 - Phi(|z|)) for both (statsmodels' `tvalues` and `pvalues`).
Each case also stores `slope`, the hare slope over rounds `round + system[T.hare]:round` with
both standard errors (statsmodels' `t_test`, which uses the normal distribution for MixedLM),
and `profile`: statsmodels' own profiled restricted log-likelihood, its derivative in theta
and beta-hat at fixed theta = 0.01, 0.1, 0.5, 2 (no optimizer involved, so these compare at
1e-9).

The dense reference (`dense_reml`) does not use Sherman-Morrison: it inverts every group's
covariance matrix I + theta 11' with `numpy.linalg` and maximises the profiled restricted
log-likelihood (statsmodels' formula, constants included) over log theta with
`scipy.optimize.minimize_scalar(method="bounded")`, then compares with theta = 0.
"""

import json
import math
import platform
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import scipy
import statsmodels
import statsmodels.api as sm
import statsmodels.formula.api as smf
from scipy import optimize, stats

HERE = Path(__file__).resolve().parent
SYSTEMS = ["rag", "hare", "vanilla", "random"]  # reference first, as the Rust builder takes them
BASE = {"rag": 0.0, "hare": 0.2, "vanilla": -0.5, "random": -1.2}
SLOPE = {"rag": 0.0, "hare": 0.08, "vanilla": 0.0, "random": 0.0}


def balanced(seed=1_001):
    rng = np.random.default_rng(seed)
    rows = []
    intercepts = rng.normal(0.0, 0.6, 20)
    for a in range(20):
        for s in SYSTEMS:
            for r in range(1, 11):
                latent = 3.0 + intercepts[a] + BASE[s] + SLOPE[s] * r + rng.normal(0.0, 0.8)
                rows.append((f"p{a:02d}", s, r, float(np.clip(np.rint(latent), 1, 5))))
    return rows


def unbalanced():
    rng = np.random.default_rng(2_001)
    rows = []
    for a in range(25):
        u = rng.normal(0.0, 8.0)
        rounds = int(rng.integers(1, 11))
        for r in range(1, rounds + 1):
            for s in SYSTEMS:
                if rng.random() < 0.7:
                    y = 60.0 + u + 10.0 * BASE[s] + 10.0 * SLOPE[s] * r + rng.normal(0.0, 12.0)
                    rows.append((f"p{a:02d}", s, r, round(float(y), 3)))
    # One annotator who rated once: a group of size 1.
    rows.append(("p25", "hare", 3, 71.5))
    return rows


def boundary():
    rng = np.random.default_rng(3_002)
    rows = []
    for a in range(12):
        for s in SYSTEMS:
            for r in range(1, 7):
                y = 3.0 + BASE[s] + SLOPE[s] * r + rng.normal(0.0, 1.0)
                if rng.random() >= 0.1:
                    rows.append((f"p{a:02d}", s, r, round(float(y), 4)))
    return rows


def frame(rows):
    return pd.DataFrame(rows, columns=["annotator", "system", "round", "rating"])


def model(data):
    return smf.mixedlm(
        f"rating ~ C(system, Treatment('{SYSTEMS[0]}')) * round", data, groups=data["annotator"]
    )


def rust_name(name):
    """statsmodels' `C(system, Treatment('rag'))[T.hare]:round` -> `system[T.hare]:round`."""
    return name.replace(f"C(system, Treatment('{SYSTEMS[0]}'))", "system")


def groups_of(m):
    return [
        (np.asarray(m.exog_li[i]), np.asarray(m.endog_li[i])) for i in range(len(m.group_labels))
    ]


def restricted_loglike(groups, theta):
    """Profiled REML log-likelihood (statsmodels' constants), beta-hat, scale and X'H^-1 X."""
    n = sum(len(y) for _, y in groups)
    p = groups[0][0].shape[1]
    xtx = np.zeros((p, p))
    xty = np.zeros(p)
    logdet_h = 0.0
    inverses = []
    for x, y in groups:
        h = np.eye(len(y)) + theta * np.ones((len(y), len(y)))
        hi = np.linalg.inv(h)
        inverses.append(hi)
        logdet_h += np.linalg.slogdet(h)[1]
        xtx += x.T @ hi @ x
        xty += x.T @ hi @ y
    beta = np.linalg.solve(xtx, xty)
    qf = sum((y - x @ beta) @ hi @ (y - x @ beta) for (x, y), hi in zip(groups, inverses))
    fac = n - p
    ll = (
        -0.5 * logdet_h
        - 0.5 * np.linalg.slogdet(xtx)[1]
        - 0.5 * fac * math.log(qf)
        - 0.5 * fac * math.log(2 * math.pi)
        + 0.5 * fac * math.log(fac)
        - 0.5 * fac
    )
    return ll, beta, qf / fac, xtx


def dense_reml(groups):
    res = optimize.minimize_scalar(
        lambda psi: -restricted_loglike(groups, math.exp(psi))[0],
        bounds=(math.log(1e-10), math.log(1e4)),
        method="bounded",
        options={"xatol": 1e-10, "maxiter": 500},
    )
    theta = math.exp(res.x)
    if restricted_loglike(groups, 0.0)[0] >= restricted_loglike(groups, theta)[0]:
        theta = 0.0
    ll, beta, scale, xtx = restricted_loglike(groups, theta)
    return {
        "theta": theta,
        "llf": ll,
        "fe_params": beta,
        "scale": scale,
        "group_var": theta * scale,
        "se_model": np.sqrt(np.diag(scale * np.linalg.inv(xtx))),
    }


def fit_statsmodels(m):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        fit = m.fit(reml=True, method="bfgs", gtol=1e-10, start_params=np.array([0.5]))
    sqrt_theta = math.sqrt(fit.params_object.cov_re[0, 0])
    score = float(m.score(np.array([sqrt_theta]), profile_fe=True)[0])
    return fit, score, sorted({str(w.message) for w in caught})


def default_fits(m):
    """What statsmodels gives without help: its default optimizers, and lbfgs, from its
    default start. Recorded, not used."""
    out = {}
    for label, kwargs in [("default", {}), ("lbfgs", {"method": "lbfgs"})]:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            fit = m.fit(reml=True, **kwargs)
        out[label] = {
            "converged": bool(fit.converged),
            "group_variance": float(fit.cov_re.iloc[0, 0]),
            "llf": float(fit.llf) if np.isfinite(fit.llf) else str(fit.llf),
        }
    return out


def normal_p(z):
    return 2.0 * stats.norm.sf(np.abs(z))


def fixed_effects(names, estimates, se_model, se_statsmodels):
    out = []
    for i, name in enumerate(names):
        z_m = estimates[i] / se_model[i]
        z_s = estimates[i] / se_statsmodels[i]
        out.append(
            {
                "name": rust_name(name),
                "estimate": float(estimates[i]),
                "se_model": float(se_model[i]),
                "z_model": float(z_m),
                "p_model": float(normal_p(z_m)),
                "se_statsmodels": float(se_statsmodels[i]),
                "z_statsmodels": float(z_s),
                "p_statsmodels": float(normal_p(z_s)),
            }
        )
    return out


PROFILE_THETAS = [0.01, 0.1, 0.5, 2.0]
SLOPE_OF = "hare"


def profile(m):
    """statsmodels' profiled restricted log-likelihood, its derivative in theta and beta-hat at
    a few theta; its parameter is sqrt(theta), so d/dtheta = (d/dsqrt) / (2 sqrt(theta))."""
    m.reml, m.cov_pen, m.fe_pen, m._freepat, m._cov_sing = True, None, None, None, 0
    out = []
    for theta in PROFILE_THETAS:
        root = np.array([math.sqrt(theta)])
        fe, _ = m.get_fe_params(np.array([[theta]]), np.zeros(0))
        out.append(
            {
                "theta": theta,
                "log_likelihood": float(m.loglike(root, profile_fe=True)),
                "score": float(m.score(root, profile_fe=True)[0]) / (2 * math.sqrt(theta)),
                "fixed": [float(v) for v in fe],
            }
        )
    return out


def slope_contrast(names, estimates, fit, cov_model):
    """The slope of SLOPE_OF over rounds, round + system[T.hare]:round: statsmodels' t_test
    (its covariance) and the model-based covariance."""
    w = np.zeros(len(names))
    w[names.index("round")] = 1.0
    w[names.index(f"C(system, Treatment('{SYSTEMS[0]}'))[T.{SLOPE_OF}]:round")] = 1.0
    test = fit.t_test(w[None, :])
    estimate = float(w @ estimates)
    se_model = float(math.sqrt(w @ cov_model @ w))
    return {
        "weights": [float(v) for v in w],
        "estimate": estimate,
        "se_model": se_model,
        "p_model": float(normal_p(estimate / se_model)),
        "se_statsmodels": float(np.squeeze(test.sd)),
        "p_statsmodels": float(np.squeeze(test.pvalue)),
        "statsmodels_estimate": float(np.squeeze(test.effect)),
    }


def max_rel(a, b):
    a, b = np.atleast_1d(np.asarray(a, float)), np.atleast_1d(np.asarray(b, float))
    return float(np.max(np.abs(a - b) / np.maximum(np.abs(b), 1e-300)))


def interior_case(name, description, rows):
    data = frame(rows)
    m = model(data)
    fit, score, messages = fit_statsmodels(m)
    assert fit.converged, (name, messages)
    assert abs(score) < 1e-6, (name, score)
    groups = groups_of(m)
    theta = fit.cov_re.iloc[0, 0] / fit.scale
    _, _, _, xtx = restricted_loglike(groups, theta)
    cov_model = fit.scale * np.linalg.inv(xtx)
    se_model = np.sqrt(np.diag(cov_model))
    # statsmodels' own z and p must be the normal ones computed here.
    assert max_rel(fit.tvalues.values[: len(se_model)], fit.fe_params / fit.bse_fe) < 1e-12
    assert max_rel(fit.pvalues.values[: len(se_model)], normal_p(fit.fe_params / fit.bse_fe)) < 1e-9
    dense = dense_reml(groups)
    comparison = {
        "fe_params": max_rel(fit.fe_params.values, dense["fe_params"]),
        "se_model": max_rel(se_model, dense["se_model"]),
        "group_var": max_rel(fit.cov_re.iloc[0, 0], dense["group_var"]),
        "scale": max_rel(fit.scale, dense["scale"]),
        "llf": max_rel(fit.llf, dense["llf"]),
    }
    return {
        "name": name,
        "description": description,
        "systems": SYSTEMS,
        "rows": [list(r) for r in rows],
        "expected": {
            "fixed_effects": fixed_effects(
                m.exog_names, fit.fe_params.values, se_model, fit.bse_fe.values
            ),
            "group_variance": float(fit.cov_re.iloc[0, 0]),
            "residual_variance": float(fit.scale),
            "log_likelihood": float(fit.llf),
            "n_obs": int(m.n_totobs),
            "n_groups": int(m.n_groups),
            "boundary": False,
            "slope": slope_contrast(m.exog_names, fit.fe_params.values, fit, cov_model),
        },
        "profile": profile(m),
        "statsmodels": {
            "converged": bool(fit.converged),
            "profile_score": score,
            "warnings": messages,
            "without_help": default_fits(model(data)),
        },
        "statsmodels_vs_dense": comparison,
    }


def boundary_case(rows):
    data = frame(rows)
    m = model(data)
    groups = groups_of(m)
    dense = dense_reml(groups)
    assert dense["theta"] == 0.0, dense["theta"]
    # The restricted likelihood decreases from theta = 0: 0 is the maximum, not a local one
    # at the edge of a search.
    lls = [restricted_loglike(groups, t)[0] for t in (0.0, 1e-6, 1e-4, 1e-2, 1.0)]
    assert all(a > b for a, b in zip(lls, lls[1:])), lls
    ols = sm.OLS(m.endog, m.exog).fit()
    # MixedLM's restricted log-likelihood at theta = 0, extrapolated linearly from theta = 1e-8
    # and 2e-8 (its parameter is the square root of theta). At theta below 1e-10 statsmodels
    # takes the random-effects covariance as singular and drops its inverse, which fits a free
    # intercept per group instead.
    m.reml, m.cov_pen, m.fe_pen, m._freepat, m._cov_sing = True, None, None, None, 0
    ll1, ll2 = (float(m.loglike(np.array([math.sqrt(t)]), profile_fe=True)) for t in (1e-8, 2e-8))
    llf = 2.0 * ll1 - ll2
    fit, score, messages = fit_statsmodels(m)
    comparison = {
        "fe_params": max_rel(ols.params, dense["fe_params"]),
        "se_model": max_rel(ols.bse, dense["se_model"]),
        "scale": max_rel(ols.scale, dense["scale"]),
        "llf": max_rel(llf, dense["llf"]),
        "mixedlm_fe_params_vs_ols": max_rel(fit.fe_params.values, ols.params),
        "mixedlm_scale_vs_ols": max_rel(fit.scale, ols.scale),
    }
    return {
        "name": "boundary",
        "description": "true group variance 0; the REML estimate is 0, so the fit is OLS",
        "systems": SYSTEMS,
        "rows": [list(r) for r in rows],
        "expected": {
            "fixed_effects": fixed_effects(m.exog_names, ols.params, ols.bse, fit.bse_fe.values),
            "group_variance": 0.0,
            "residual_variance": float(ols.scale),
            "log_likelihood": llf,
            "n_obs": int(m.n_totobs),
            "n_groups": int(m.n_groups),
            "boundary": True,
            "slope": slope_contrast(m.exog_names, ols.params, fit, ols.cov_params()),
        },
        "profile": profile(m),
        "statsmodels": {
            "converged": bool(fit.converged),
            "profile_score": score,
            "group_variance": float(fit.cov_re.iloc[0, 0]),
            "warnings": messages,
        },
        "statsmodels_vs_dense": comparison,
    }


def main():
    cases = [
        interior_case(
            "balanced",
            "20 annotators x 4 systems x 10 rounds, Likert 1-5, annotator SD 0.6, hare slope 0.08",
            balanced(),
        ),
        interior_case(
            "unbalanced",
            "25 annotators, uneven rounds and systems, one group of size 1, 0-100 scale",
            unbalanced(),
        ),
        boundary_case(boundary()),
    ]
    out = {
        "description": "REML fits of rating ~ system * round + (1 | annotator); see "
        "make_reference.py",
        "versions": {
            "python": platform.python_version(),
            "numpy": np.__version__,
            "pandas": pd.__version__,
            "statsmodels": statsmodels.__version__,
            "scipy": scipy.__version__,
        },
        "cases": cases,
        # The same design as `balanced` with seed 1: statsmodels' defaults fail here.
        "statsmodels_without_help_balanced_seed_1": default_fits(model(frame(balanced(1)))),
    }
    path = HERE / "reference.json"
    path.write_text(json.dumps(out, indent=1) + "\n")
    for case in cases:
        print(case["name"], case["expected"]["n_obs"], case["expected"]["n_groups"],
              case["statsmodels"]["converged"], case["statsmodels"]["profile_score"])
        print("   statsmodels vs dense:", case["statsmodels_vs_dense"])
        print("   statsmodels without help:", case["statsmodels"].get("without_help"))
        gv, rv = case["expected"]["group_variance"], case["expected"]["residual_variance"]
        print("   group var", gv, "residual var", rv, "llf", case["expected"]["log_likelihood"])
        se = [(f["se_model"], f["se_statsmodels"]) for f in case["expected"]["fixed_effects"]]
        print("   se model vs statsmodels:", max(abs(a / b - 1) for a, b in se))
    print("statsmodels without help, balanced(seed=1):",
          out["statsmodels_without_help_balanced_seed_1"])
    print("wrote", path)


if __name__ == "__main__":
    main()
