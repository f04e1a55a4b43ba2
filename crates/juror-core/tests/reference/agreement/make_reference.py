#!/usr/bin/env python3
"""Reference values for Juror's agreement statistics (crates/juror-core/src/stats/agreement.rs).

Writes reference.json beside this script: for every case, the ratings matrix (units x raters,
null for a missing rating), the rating scale, and what the Python libraries compute on it:

- Fleiss' kappa: statsmodels.stats.inter_rater.fleiss_kappa when every kept unit (two or more
  ratings) has the same number of ratings; statsmodels refuses unequal numbers, so for those
  cases the value comes from the generalised formula written out below in numpy (P_i with each
  unit's own n_i) and the case says so in `fleiss_source`. The script checks that formula
  against statsmodels on every constant-n case before it trusts it.
- Krippendorff's alpha: krippendorff.alpha (nominal, ordinal, interval), with the scale as
  value_domain.
- Cohen's kappa for every pair of raters over the units both rated: sklearn.metrics.
  cohen_kappa_score with labels=the full scale and weights None, "linear", "quadratic".
- Percent agreement: the exact-agreement rate per pair and the pairwise agreement averaged over
  units (Fleiss's P-bar), written out in numpy (no library offers them under these names).

Undefined values (sklearn's nan, no pairable unit) are written as null.

Run: python3 -m venv /tmp/refenv
     /tmp/refenv/bin/pip install numpy scipy statsmodels scikit-learn krippendorff
     /tmp/refenv/bin/python make_reference.py
The data sets are read from the repository's data/ folder (override with JUROR_DATASETS).
"""

import csv
import importlib.metadata
import itertools
import json
import math
import os
import platform
from collections import defaultdict
from pathlib import Path

import krippendorff
import numpy as np
from sklearn.metrics import cohen_kappa_score
from statsmodels.stats.inter_rater import fleiss_kappa

HERE = Path(__file__).resolve().parent
# The repository's `data/` folder (data/README.md: sources, licences); JUROR_DATASETS overrides it.
DATASETS = Path(
    os.environ.get("JUROR_DATASETS", Path(__file__).resolve().parents[5] / "data")
)


# ---------------------------------------------------------------------------------------------
# Published examples
# ---------------------------------------------------------------------------------------------

# Fleiss (1971), Table 1: 30 patients, 6 psychiatrists each, 5 diagnoses (1 depression,
# 2 personality disorder, 3 schizophrenia, 4 neurosis, 5 other). The paper gives, per patient,
# how many psychiatrists chose each diagnosis; the rows below are that table spelt out as six
# ratings per patient (as in the R package irr's `diagnoses` and statsmodels' tests). The
# psychiatrists differed from patient to patient, so columns are not raters: only statistics
# that ignore rater identity (Fleiss, alpha) are computed.
FLEISS_1971 = [
    [4, 4, 4, 4, 4, 4], [2, 2, 2, 5, 5, 5], [2, 3, 3, 3, 3, 5], [5, 5, 5, 5, 5, 5],
    [2, 2, 2, 4, 4, 4], [1, 1, 3, 3, 3, 3], [3, 3, 3, 3, 5, 5], [1, 1, 3, 3, 3, 4],
    [1, 1, 4, 4, 4, 4], [5, 5, 5, 5, 5, 5], [1, 4, 4, 4, 4, 4], [1, 2, 4, 4, 4, 4],
    [2, 2, 2, 3, 3, 3], [1, 4, 4, 4, 4, 4], [2, 2, 4, 4, 4, 5], [3, 3, 3, 3, 3, 5],
    [1, 1, 1, 4, 5, 5], [1, 1, 1, 1, 1, 2], [2, 2, 4, 4, 4, 4], [1, 3, 3, 5, 5, 5],
    [5, 5, 5, 5, 5, 5], [2, 4, 4, 4, 4, 4], [2, 2, 4, 5, 5, 5], [1, 1, 4, 4, 4, 4],
    [1, 4, 4, 4, 4, 5], [2, 2, 2, 2, 2, 4], [1, 1, 1, 1, 5, 5], [2, 2, 4, 4, 4, 4],
    [1, 3, 3, 3, 3, 3], [5, 5, 5, 5, 5, 5],
]

# Wikipedia, "Fleiss' kappa", worked example: 10 subjects, 14 raters, 5 categories, given as
# counts per category (statsmodels' test table). Spelt out as ratings in category order.
WIKIPEDIA_FLEISS_COUNTS = [
    [0, 0, 0, 0, 14], [0, 2, 6, 4, 2], [0, 0, 3, 5, 6], [0, 3, 9, 2, 0], [2, 2, 8, 1, 1],
    [7, 7, 0, 0, 0], [3, 2, 6, 3, 0], [2, 5, 3, 2, 2], [6, 5, 2, 1, 0], [0, 2, 2, 3, 7],
]

# Krippendorff (2011), "Computing Krippendorff's Alpha-Reliability", section C: 4 observers
# (A-D) x 12 units, values 1-5, None where an observer did not code the unit.
KRIPPENDORFF_2011 = [  # rows are observers here, as in the paper
    [1, 2, 3, 3, 2, 1, 4, 1, 2, None, None, None],
    [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, None, 3],
    [None, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, None],
    [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, None],
]

# Wikipedia, "Krippendorff's alpha", computational example: 3 coders x 15 units (the example in
# the krippendorff package's docstring: nominal 0.691, interval 0.811).
WIKIPEDIA_KRIPPENDORFF = [
    [None, None, None, None, None, 3, 4, 1, 2, 1, 1, 3, 3, None, 3],
    [1, None, 2, 1, 3, 3, 4, 3, None, None, None, None, None, None, None],
    [None, None, 2, 1, 3, 4, 4, None, 2, 1, 1, 3, 3, None, 4],
]


def transpose(rows):
    return [list(col) for col in zip(*rows)]


def spelt_out(counts, categories):
    return [[c for c, k in zip(categories, row) for _ in range(k)] for row in counts]


# ---------------------------------------------------------------------------------------------
# Seeded random matrices
# ---------------------------------------------------------------------------------------------


def noisy_ratings(rng, units, raters, scale, noise, missing):
    """Each unit has a true position on the scale; each rater reports it plus rounded noise,
    clipped to the scale, and leaves it out with probability `missing`."""
    k = len(scale)
    truth = rng.integers(0, k, size=units)
    matrix = []
    for u in range(units):
        row = []
        for _ in range(raters):
            if rng.random() < missing:
                row.append(None)
            else:
                pos = int(np.clip(round(truth[u] + rng.normal(0.0, noise)), 0, k - 1))
                row.append(scale[pos])
        matrix.append(row)
    return matrix


def random_cases():
    cases = []
    rng = np.random.default_rng(20261121)
    cases.append(dict(
        name="random_complete_5pt",
        source="numpy default_rng(20261121): 50 units x 4 raters, scale 1-5, no missing rating",
        raters=[f"r{i + 1}" for i in range(4)],
        scale=[1, 2, 3, 4, 5],
        matrix=noisy_ratings(rng, 50, 4, [1, 2, 3, 4, 5], noise=0.9, missing=0.0),
        raters_meaningful=True,
    ))
    rng = np.random.default_rng(7)
    cases.append(dict(
        name="random_missing_7pt",
        source="numpy default_rng(7): 80 units x 6 raters, scale 1-7, 35% missing (some units "
               "have fewer than two ratings)",
        raters=[f"r{i + 1}" for i in range(6)],
        scale=[1, 2, 3, 4, 5, 6, 7],
        matrix=noisy_ratings(rng, 80, 6, [1, 2, 3, 4, 5, 6, 7], noise=1.2, missing=0.35),
        raters_meaningful=True,
    ))
    # Scale 1-5 where nobody uses 3: weighted Cohen's kappa over the full scale differs from one
    # over the values seen, because 2 and 4 are two steps apart, not one.
    rng = np.random.default_rng(3)
    matrix = noisy_ratings(rng, 40, 3, [1, 2, 4, 5], noise=0.7, missing=0.2)
    cases.append(dict(
        name="random_gap_5pt",
        source="numpy default_rng(3): 40 units x 3 raters, scale 1-5 but 3 never used, 20% "
               "missing",
        raters=["a", "b", "c"],
        scale=[1, 2, 3, 4, 5],
        matrix=matrix,
        raters_meaningful=True,
    ))
    # Unequally spaced values: interval alpha uses the values, weighted Cohen the positions.
    rng = np.random.default_rng(11)
    cases.append(dict(
        name="random_uneven_scale",
        source="numpy default_rng(11): 60 units x 5 raters, values -1, 0, 0.5, 2, 10% missing",
        raters=[f"coder{i + 1}" for i in range(5)],
        scale=[-1, 0, 0.5, 2],
        matrix=noisy_ratings(rng, 60, 5, [-1, 0, 0.5, 2], noise=0.8, missing=0.1),
        raters_meaningful=True,
    ))
    return cases


# ---------------------------------------------------------------------------------------------
# Real data
# ---------------------------------------------------------------------------------------------


def summeval_cases():
    """SummEval expert ratings: one case per dimension, units are (document, system) cells in
    the order of the file's first appearance, raters expert_1..3."""
    path = DATASETS / "summeval" / "summeval_expert_long.csv"
    by_dim = defaultdict(lambda: defaultdict(dict))
    order = defaultdict(list)
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            cell = (row["item_id"], row["system_id"])
            dim = row["dimension"]
            if cell not in by_dim[dim]:
                order[dim].append(cell)
            by_dim[dim][cell][row["annotator_id"]] = int(row["score"])
    raters = ["expert_1", "expert_2", "expert_3"]
    cases = []
    for dim in sorted(by_dim):
        cells = by_dim[dim]
        cases.append(dict(
            name=f"summeval_expert_{dim}",
            source=f"{path.name}, dimension {dim}: {len(cells)} (document, system) cells x 3 "
                   "experts, scale 1-5 (SummEval, Fabbri et al. 2021, MIT)",
            raters=raters,
            scale=[1, 2, 3, 4, 5],
            matrix=[[cells[c].get(r) for r in raters] for c in order[dim]],
            raters_meaningful=True,
        ))
    return cases


def pandalm_case():
    path = DATASETS / "pandalm" / "pandalm_pairwise_long.csv"
    labels = defaultdict(dict)
    order = []
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            if row["item_id"] not in labels:
                order.append(row["item_id"])
            labels[row["item_id"]][row["annotator_id"]] = int(row["label"])
    raters = ["annotator1", "annotator2", "annotator3"]
    return dict(
        name="pandalm_pairwise",
        source=f"{path.name}: {len(order)} response pairs x 3 annotators, labels 0 tie, 1 a, "
               "2 b (PandaLM testset-v1, Apache-2.0). The labels are nominal: ordinal, interval "
               "and weighted values are arithmetic checks only",
        raters=raters,
        scale=[0, 1, 2],
        matrix=[[labels[i].get(r) for r in raters] for i in order],
        raters_meaningful=True,
        published={"cohen_kappa_unweighted": {
            "annotator1/annotator2": 0.85, "annotator1/annotator3": 0.88,
            "annotator2/annotator3": 0.86,
            "source": "PandaLM README (WeOpenML/PandaLM), two decimals",
        }},
    )


# ---------------------------------------------------------------------------------------------
# Statistics
# ---------------------------------------------------------------------------------------------


def count_table(matrix, scale):
    """Units x categories counts, for units with at least two ratings."""
    table = []
    for row in matrix:
        seen = [v for v in row if v is not None]
        if len(seen) >= 2:
            table.append([sum(1 for v in seen if v == c) for c in scale])
    return np.array(table, dtype=float)


def fleiss_generalised(table):
    """Fleiss' kappa with P_i from each unit's own n_i and p_j from all ratings pooled."""
    n_i = table.sum(axis=1)
    p_i = ((table * table).sum(axis=1) - n_i) / (n_i * (n_i - 1))
    p_bar = p_i.mean()
    p_j = table.sum(axis=0) / table.sum()
    p_e = (p_j * p_j).sum()
    return float((p_bar - p_e) / (1 - p_e)), float(p_bar)


def fleiss(matrix, scale):
    table = count_table(matrix, scale)
    if len(table) == 0 or (table.sum(axis=0) > 0).sum() < 2:
        return None, None, None
    general, p_bar = fleiss_generalised(table)
    n_i = table.sum(axis=1)
    if (n_i == n_i[0]).all():
        library = float(fleiss_kappa(table, method="fleiss"))
        assert math.isclose(library, general, rel_tol=0, abs_tol=1e-12), (library, general)
        return library, "statsmodels.stats.inter_rater.fleiss_kappa", p_bar
    return general, "numpy: generalised formula (statsmodels needs a constant n)", p_bar


def alpha(matrix, scale, level):
    data = np.array([[np.nan if v is None else v for v in row] for row in matrix], dtype=float).T
    return float(krippendorff.alpha(reliability_data=data, value_domain=scale,
                                    level_of_measurement=level))


def pairs(matrix, raters, scale):
    out = []
    for a, b in itertools.combinations(range(len(raters)), 2):
        both = [(row[a], row[b]) for row in matrix if row[a] is not None and row[b] is not None]
        entry = {"a": raters[a], "b": raters[b], "units": len(both)}
        if both:
            y1 = [x for x, _ in both]
            y2 = [y for _, y in both]
            labels = scale
            if any(c != int(c) for c in scale):
                # sklearn calls non-integer floats "continuous" and refuses them; the same
                # values as strings, with the labels in scale order, give the same table.
                y1, y2, labels = ([str(v) for v in xs] for xs in (y1, y2, scale))
            entry["agreement"] = sum(1 for x, y in both if x == y) / len(both)
            for key, weights in (("unweighted", None), ("linear", "linear"),
                                 ("quadratic", "quadratic")):
                k = float(cohen_kappa_score(y1, y2, labels=labels, weights=weights))
                entry[key] = None if math.isnan(k) else k
        else:
            entry.update(agreement=None, unweighted=None, linear=None, quadratic=None)
        out.append(entry)
    return out


def compute(case):
    matrix, scale = case["matrix"], case["scale"]
    kappa, source, p_bar = fleiss(matrix, scale)
    case["fleiss_kappa"] = kappa
    case["fleiss_source"] = source
    case["percent_agreement"] = p_bar
    case["alpha"] = {level: alpha(matrix, scale, level)
                     for level in ("nominal", "ordinal", "interval")}
    if case["raters_meaningful"]:
        case["pairs"] = pairs(matrix, case["raters"], scale)
    return case


def main():
    cases = [
        dict(
            name="fleiss_1971_diagnoses",
            source="Fleiss (1971), Psychological Bulletin 76(5), Table 1: 30 patients x 6 "
                   "psychiatrists, 5 diagnoses; columns are not raters",
            raters=[f"slot{i + 1}" for i in range(6)],
            scale=[1, 2, 3, 4, 5],
            matrix=FLEISS_1971,
            raters_meaningful=False,
            published={"fleiss_kappa": 0.430, "source": "Fleiss (1971), three decimals"},
        ),
        dict(
            name="fleiss_wikipedia",
            source="Wikipedia, \"Fleiss' kappa\", worked example: 10 subjects x 14 raters, 5 "
                   "categories, given as counts; columns are not raters",
            raters=[f"slot{i + 1}" for i in range(14)],
            scale=[1, 2, 3, 4, 5],
            matrix=spelt_out(WIKIPEDIA_FLEISS_COUNTS, [1, 2, 3, 4, 5]),
            raters_meaningful=False,
            published={"fleiss_kappa": 0.210, "source": "Wikipedia, three decimals"},
        ),
        dict(
            name="krippendorff_2011",
            source="Krippendorff (2011), \"Computing Krippendorff's Alpha-Reliability\", "
                   "section C: 4 observers x 12 units with missing values",
            raters=["A", "B", "C", "D"],
            scale=[1, 2, 3, 4, 5],
            matrix=transpose(KRIPPENDORFF_2011),
            raters_meaningful=True,
            published={"alpha": {"nominal": 0.743, "ordinal": 0.815, "interval": 0.849},
                       "source": "Krippendorff (2011), three decimals"},
        ),
        dict(
            name="krippendorff_wikipedia",
            source="Wikipedia, \"Krippendorff's alpha\", computational example: 3 coders x 15 "
                   "units with missing values",
            raters=["A", "B", "C"],
            scale=[1, 2, 3, 4],
            matrix=transpose(WIKIPEDIA_KRIPPENDORFF),
            raters_meaningful=True,
            published={"alpha": {"nominal": 0.691, "interval": 0.811},
                       "source": "Wikipedia and the krippendorff package's docstring, three "
                                 "decimals"},
        ),
        *random_cases(),
        *summeval_cases(),
        pandalm_case(),
    ]
    versions = {"python": platform.python_version()}
    for dist, key in (("numpy", "numpy"), ("scipy", "scipy"), ("statsmodels", "statsmodels"),
                      ("scikit-learn", "sklearn"), ("krippendorff", "krippendorff")):
        versions[key] = importlib.metadata.version(dist)
    out = {
        "format": "juror.reference.agreement/1",
        "script": "make_reference.py",
        "versions": versions,
        "matrix": "units x raters, null where the rater did not rate the unit",
        "cases": [compute(c) for c in cases],
    }
    (HERE / "reference.json").write_text(dump(out) + "\n")


def dump(value, depth=0):
    """JSON with every list of scalars on one line (matrix rows, scales), the rest indented."""
    pad, inner = " " * depth, " " * (depth + 1)
    if isinstance(value, dict):
        items = [f"{inner}{json.dumps(k)}: {dump(v, depth + 1)}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + pad + "}"
    if isinstance(value, list) and any(isinstance(v, (dict, list)) for v in value):
        return "[\n" + ",\n".join(inner + dump(v, depth + 1) for v in value) + "\n" + pad + "]"
    return json.dumps(value, allow_nan=False)


if __name__ == "__main__":
    main()
