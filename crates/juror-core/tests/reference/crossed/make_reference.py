#!/usr/bin/env python3
"""Reference values for `crates/juror-core/src/stats/mixed/crossed.rs`.

Run from anywhere:

    python3 -m venv /tmp/refenv3
    /tmp/refenv3/bin/pip install numpy pandas statsmodels scipy
    /tmp/refenv3/bin/python crates/juror-core/tests/reference/crossed/make_reference.py

It writes `reference.json` beside itself: the data, the expected fits and the library versions;
`crates/juror-core/tests/it/crossed.rs` reads it.

The model keeps items and raters apart: `score ~ system + (1 | annotator) + (1 | item)`, and
with rounds `score ~ system * round + (1 | annotator) + (1 | item)`, fitted by REML (and ML)
with statsmodels' variance components on one group that holds every rating:

    smf.mixedlm("score ~ C(system, Treatment('<ref>'))", data, groups=np.ones(N),
                re_formula="0", vc_formula={"annotator": "0 + C(annotator)",
                                            "item": "0 + C(item)"}).fit(reml=True, ...)

Cases (all seeded):

- `balanced`: 8 annotators x 16 items x 4 systems, every annotator rates every output, Likert
  1-5 (a latent normal rounded and clipped), annotator SD 0.5, item SD 0.7;
- `unbalanced`: 15 annotators, 30 items x 3 systems, each item rated by 2 to 4 annotators
  drawn at random, continuous 0-100 ratings (annotator SD 8, item SD 10, residual 12);
- `rounds`: 10 annotators, 3 systems over 4 rounds with 6 new items per round, every
  annotator rates every output, the method x round model (one system improves by 0.3 a round);
- `ml`: `unbalanced` fitted by maximum likelihood (`reml=False`);
- `boundary`: no annotator effect at all, chosen so that the REML estimate of the annotator
  variance is exactly 0. statsmodels cannot reach a variance of 0 (its parameter is a square
  root whose score vanishes there), so this case has only the dense reference.

How statsmodels was made to converge (versions in `versions`): from its default start its
default optimisers stop early on these data; every fit here runs `method="bfgs"` with
`gtol=1e-8` (1e-10 stops without converging on `unbalanced`) from the dense optimum's neighbourhood (`start_params` at the dense estimates
multiplied by 1.05), and the script requires `converged`. Its estimates are then compared with
the dense reference: the largest relative difference is stored as `statsmodels_vs_dense`.

The dense reference (`dense_fit`) builds H = I + theta_a Za Za' + theta_i Zi Zi' for all N
ratings with numpy, and maximises the scale-profiled restricted (or full) log-likelihood in
statsmodels' form, constants included, over s = sqrt(theta) with Nelder-Mead
(xatol 1e-7) polished by Newton steps on central differences; it compares the maximum with each variance
set to 0. Its standard errors are the model-based ones, sqrt(diag(sigma2_e (X' H^-1 X)^-1)),
as lme4 gives them; statsmodels' `bse_fe` (the inverse of the joint Hessian in beta and the
variance parameters) is stored beside them as `se_statsmodels`: the two agree when every
annotator and item has the same design (`balanced`, `rounds`) and differ slightly otherwise.
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
from scipy import linalg, optimize

GTOL = 1e-8
BOUNDARY_SEED = 4_005  # the first seed from 4_004 whose REML annotator variance is 0
HERE = Path(__file__).resolve().parent
SYSTEMS = ["base", "tuned", "large", "small"]
EFFECT = {"base": 0.0, "tuned": 0.4, "large": 0.2, "small": -0.5}


def balanced():
    rng = np.random.default_rng(4_001)
    a_eff = rng.normal(0, 0.5, 8)
    i_eff = rng.normal(0, 0.7, 16)
    rows = []
    for a in range(8):
        for i in range(16):
            for s in SYSTEMS:
                latent = 3.0 + a_eff[a] + i_eff[i] + EFFECT[s] + rng.normal(0, 0.8)
                rows.append((f"r{a:02d}", f"item{i:02d}", s, 1.0, float(np.clip(np.rint(latent), 1, 5))))
    return rows


def unbalanced():
    rng = np.random.default_rng(4_002)
    systems = SYSTEMS[:3]
    a_eff = rng.normal(0, 8.0, 15)
    i_eff = rng.normal(0, 10.0, 30)
    rows = []
    for i in range(30):
        raters = rng.choice(15, size=int(rng.integers(2, 5)), replace=False)
        for a in sorted(raters):
            for s in systems:
                if rng.random() < 0.9:
                    y = 60 + a_eff[a] + i_eff[i] + 25 * EFFECT[s] + rng.normal(0, 12.0)
                    rows.append((f"r{a:02d}", f"item{i:02d}", s, 1.0, round(float(y), 3)))
    return rows


def rounds():
    rng = np.random.default_rng(4_003)
    systems = SYSTEMS[:3]
    a_eff = rng.normal(0, 0.4, 10)
    rows = []
    for r in range(1, 5):
        i_eff = rng.normal(0, 0.6, 6)
        for i in range(6):
            for a in range(10):
                for s in systems:
                    slope = 0.3 if s == "tuned" else 0.0
                    y = 3 + a_eff[a] + i_eff[i] + EFFECT[s] + slope * r + rng.normal(0, 0.7)
                    rows.append((f"r{a:02d}", f"item{r}-{i}", s, float(r), round(float(y), 4)))
    return rows


def boundary(seed=BOUNDARY_SEED):
    rng = np.random.default_rng(seed)
    systems = SYSTEMS[:3]
    i_eff = rng.normal(0, 0.8, 12)
    rows = []
    for a in range(6):
        for i in range(12):
            for s in systems:
                y = 3 + i_eff[i] + EFFECT[s] + rng.normal(0, 1.0)
                rows.append((f"r{a:02d}", f"item{i:02d}", s, 1.0, round(float(y), 4)))
    return rows


def frame(rows):
    return pd.DataFrame(rows, columns=["annotator", "item", "system", "round", "score"])


def design(df, systems, with_round):
    """X with the columns as the Rust builder names them, reference system first."""
    cols = ["Intercept"] + [f"system[T.{s}]" for s in systems[1:]]
    x = [np.ones(len(df))] + [(df.system == s).astype(float).to_numpy() for s in systems[1:]]
    if with_round:
        cols.append("round")
        x.append(df["round"].to_numpy())
        for s in systems[1:]:
            cols.append(f"system[T.{s}]:round")
            x.append((df.system == s).astype(float).to_numpy() * df["round"].to_numpy())
    return cols, np.column_stack(x)


def indicators(labels):
    levels = sorted(set(labels))
    z = np.zeros((len(labels), len(levels)))
    for n, l in enumerate(labels):
        z[n, levels.index(l)] = 1.0
    return z


def loglike(x, y, za, zi, theta_a, theta_i, reml):
    n, p = x.shape
    h = np.eye(n) + theta_a * za @ za.T + theta_i * zi @ zi.T
    c = linalg.cho_factor(h)
    hx = linalg.cho_solve(c, x)
    xtx = x.T @ hx
    beta = np.linalg.solve(xtx, hx.T @ y)
    r = y - x @ beta
    qf = r @ linalg.cho_solve(c, r)
    fac = n - p if reml else n
    logdet_h = 2 * np.sum(np.log(np.diag(c[0])))
    ll = -0.5 * logdet_h - 0.5 * fac * (math.log(2 * math.pi * qf / fac) + 1)
    if reml:
        ll -= 0.5 * np.linalg.slogdet(xtx)[1]
    return ll, beta, qf / fac, xtx


def dense_fit(x, y, za, zi, reml):
    f = lambda s: -loglike(x, y, za, zi, s[0] ** 2, s[1] ** 2, reml)[0]
    best = None
    for start in [(0.5, 0.5), (1.5, 1.5)]:
        res = optimize.minimize(f, start, method="Nelder-Mead",
                                options={"xatol": 1e-7, "fatol": 1e-11, "maxiter": 2_000})
        if best is None or res.fun < best.fun:
            best = res
    s = np.abs(best.x)
    # Newton polish on central differences.
    for _ in range(20):
        h = 1e-5 * np.maximum(s, 1e-2)
        g = np.zeros(2)
        hess = np.zeros((2, 2))
        f0 = f(s)
        for k in range(2):
            e = np.zeros(2); e[k] = h[k]
            fp, fm = f(s + e), f(s - e)
            g[k] = (fp - fm) / (2 * h[k])
            hess[k, k] = (fp - 2 * f0 + fm) / h[k] ** 2
        e0, e1 = np.array([h[0], 0]), np.array([0, h[1]])
        hess[0, 1] = hess[1, 0] = (f(s + e0 + e1) - f(s + e0 - e1) - f(s - e0 + e1) + f(s - e0 - e1)) / (4 * h[0] * h[1])
        if np.all(np.linalg.eigvalsh(hess) > 0):
            step = np.linalg.solve(hess, g)
            if f(s - step) <= f0:
                s = np.abs(s - step)
    candidates = [(s[0] ** 2, s[1] ** 2)]
    for k in range(2):
        def one(t, k=k):
            th = [0.0, 0.0]; th[1 - k] = t[0] ** 2
            return -loglike(x, y, za, zi, th[0], th[1], reml)[0]
        r1 = optimize.minimize_scalar(lambda t: one([t]), bracket=(0.5 * s[1 - k] + 1e-3, s[1 - k] + 1e-2), tol=1e-12)
        th = [0.0, 0.0]; th[1 - k] = float(r1.x) ** 2
        candidates.append(tuple(th))
    theta = max(candidates, key=lambda t: loglike(x, y, za, zi, t[0], t[1], reml)[0])
    ll, beta, scale, xtx = loglike(x, y, za, zi, theta[0], theta[1], reml)
    cov = scale * np.linalg.inv(xtx)
    return {
        "theta_annotator": theta[0], "theta_item": theta[1], "log_likelihood": ll,
        "fixed": beta.tolist(), "se_model": np.sqrt(np.diag(cov)).tolist(),
        "annotator_variance": theta[0] * scale, "item_variance": theta[1] * scale,
        "residual_variance": scale,
    }


def statsmodels_fit(df, cols, x, dense, reml):
    df = df.copy()
    df["g"] = 1
    names = [f"x{j}" for j in range(len(cols))]
    exog = pd.DataFrame(x, columns=names)
    vc = {"annotator": "0 + C(annotator)", "item": "0 + C(item)"}
    model = sm.MixedLM.from_formula("score ~ 0 + " + " + ".join(names),
                                    data=pd.concat([df.reset_index(drop=True), exog], axis=1),
                                    groups="g", re_formula="0", vc_formula=vc)
    # vcomp in units of the scale, as statsmodels parametrises them: log-variances? No: its
    # packed parameters are the fixed effects then square roots of vcomp / scale.
    start = np.concatenate([dense["fixed"],
                            [math.sqrt(max(dense["theta_annotator"], 1e-4)) * 1.05,
                             math.sqrt(max(dense["theta_item"], 1e-4)) * 1.05]])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        fit = model.fit(reml=reml, method="bfgs", gtol=GTOL, maxiter=2000, start_params=start, full_output=True)
    if not fit.converged:
        print("NOT CONVERGED", fit.hist if hasattr(fit, "hist") else None, fit.vcomp, dense["annotator_variance"], dense["item_variance"])
        raise SystemExit(1)
    vcomp = dict(zip(model.exog_vc.names, fit.vcomp))
    return {
        "fixed": fit.fe_params.tolist(),
        "se_statsmodels": fit.bse_fe.tolist(),
        "annotator_variance": float(vcomp["annotator"]),
        "item_variance": float(vcomp["item"]),
        "residual_variance": float(fit.scale),
        "log_likelihood": float(fit.llf),
    }


def case(name, rows, systems, with_round, reml, with_statsmodels=True):
    df = frame(rows)
    cols, x = design(df, systems, with_round)
    y = df.score.to_numpy()
    za, zi = indicators(list(df.annotator)), indicators(list(df["item"]))
    dense = dense_fit(x, y, za, zi, reml)
    out = {"name": name, "reml": reml, "systems": systems, "with_round": with_round,
           "columns": cols, "rows": [list(r) for r in rows], "dense": dense}
    if with_statsmodels:
        sm_fit = statsmodels_fit(df, cols, x, dense, reml)
        out["statsmodels"] = sm_fit
        diffs = []
        for key in ["annotator_variance", "item_variance", "residual_variance", "log_likelihood"]:
            diffs.append(abs(sm_fit[key] - dense[key]) / max(1.0, abs(dense[key])))
        diffs += [abs(a - b) / max(1.0, abs(b)) for a, b in zip(sm_fit["fixed"], dense["fixed"])]
        out["statsmodels_vs_dense"] = max(diffs)
        out["se_statsmodels_vs_model"] = max(
            abs(a - b) / b for a, b in zip(sm_fit["se_statsmodels"], dense["se_model"]))
    return out


def main():
    cases = [
        case("balanced", balanced(), SYSTEMS, False, True),
        case("unbalanced", unbalanced(), SYSTEMS[:3], False, True),
        case("rounds", rounds(), SYSTEMS[:3], True, True),
        case("ml", unbalanced(), SYSTEMS[:3], False, False),
        case("boundary", boundary(), SYSTEMS[:3], False, True, with_statsmodels=False),
    ]
    for c in cases:
        print(c["name"], len(c["rows"]), "rows", {k: c["dense"][k] for k in
              ["annotator_variance", "item_variance", "residual_variance", "log_likelihood"]},
              "sm vs dense", c.get("statsmodels_vs_dense"), "se sm vs model", c.get("se_statsmodels_vs_model"))
    out = {
        "versions": {"python": platform.python_version(), "numpy": np.__version__,
                     "pandas": pd.__version__, "scipy": scipy.__version__,
                     "statsmodels": statsmodels.__version__},
        "cases": cases,
    }
    (HERE / "reference.json").write_text(json.dumps(out, indent=1) + "\n")


if __name__ == "__main__":
    main()
