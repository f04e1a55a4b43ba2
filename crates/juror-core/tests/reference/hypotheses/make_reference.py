#!/usr/bin/env python3
"""Reference values for the intervals and tests of the HARE study's pre-registered analysis:
the per-system slopes' 95% t intervals and one-sided p-values (linear regression), the mixed
model's 95% Wald intervals of its fixed effects, the joint Wald test of its system x round
terms, the one-sided z test of one system's slope above another's, and one-sided binomial
tests.

Run from the repository root (numpy, scipy, pandas and statsmodels installed):

    python3 crates/juror-core/tests/reference/hypotheses/make_reference.py

It reads the `balanced` data set of `../mixed/reference.json` (20 annotators x 4 systems x 10
rounds, reference system first) and writes `reference.json` beside itself, with the library
versions; `crates/juror-core/tests/it/mixed.rs` reads it. The mixed model is fitted as in
`../mixed/make_reference.py` (REML, bfgs, gtol 1e-10, start 0.5).
"""
import json
import pathlib

import numpy as np
import pandas as pd
import scipy
import scipy.stats as st
import statsmodels
import statsmodels.formula.api as smf

here = pathlib.Path(__file__).resolve().parent
mixed = json.loads((here.parent / "mixed" / "reference.json").read_text())
case = next(c for c in mixed["cases"] if c["name"] == "balanced")
systems = case["systems"]
data = pd.DataFrame(case["rows"], columns=["annotator", "system", "round", "rating"])

slopes = {}
for s in systems:
    d = data[data.system == s]
    fit = st.linregress(d["round"], d["rating"])
    df = len(d) - 2
    half = st.t.ppf(0.975, df) * fit.stderr
    slopes[s] = {
        "slope": fit.slope,
        "ci95": [fit.slope - half, fit.slope + half],
        "p_greater": st.linregress(d["round"], d["rating"], alternative="greater").pvalue,
        "p_less": st.linregress(d["round"], d["rating"], alternative="less").pvalue,
    }

ref = systems[0]
model = smf.mixedlm(
    f"rating ~ C(system, Treatment('{ref}')) * round", data, groups=data["annotator"]
)
fit = model.fit(reml=True, method="bfgs", gtol=1e-10, start_params=np.array([0.5]))
assert fit.converged
names = list(fit.fe_params.index)
ci = fit.conf_int(alpha=0.05).loc[names]
interactions = [i for i, n in enumerate(names) if ":round" in n]
R = np.zeros((len(interactions), len(fit.params)))
for row, i in enumerate(interactions):
    R[row, i] = 1.0
wald = fit.wald_test(R, scalar=True)
# The first other system's slope minus the reference's is its interaction term; the
# reference's slope above it is minus that, tested one-sided.
term = interactions[0]
est = -fit.fe_params.iloc[term]
se = fit.bse_fe.iloc[term]
z = est / se

out = {
    "description": "see make_reference.py",
    "versions": {
        "numpy": np.__version__,
        "scipy": scipy.__version__,
        "pandas": pd.__version__,
        "statsmodels": statsmodels.__version__,
    },
    "systems": systems,
    "slopes": slopes,
    "mixed": {
        "ci95": {
            n.replace(f"C(system, Treatment('{ref}'))", "system"): [float(a), float(b)]
            for n, (a, b) in zip(names, ci.values)
        },
        "wald_chi2": float(np.squeeze(wald.statistic)),
        "wald_df": int(wald.df_denom) if False else len(interactions),
        "wald_p": float(wald.pvalue),
        "contrast_term": names[term].replace(f"C(system, Treatment('{ref}'))", "system"),
        "contrast_estimate": float(est),
        "contrast_se": float(se),
        "contrast_p_greater": float(st.norm.sf(z)),
    },
    "binomial": [
        {"k": k, "n": n,
         "greater": st.binomtest(k, n, 0.5, alternative="greater").pvalue,
         "less": st.binomtest(k, n, 0.5, alternative="less").pvalue}
        for k, n in [(7, 10), (15, 20), (3, 12), (0, 5), (5, 5)]
    ],
}
(here / "reference.json").write_text(json.dumps(out, indent=1) + "\n")
