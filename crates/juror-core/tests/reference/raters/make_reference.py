#!/usr/bin/env python3
"""Reference values for `crates/juror-core/src/stats/raters.rs` (Dawid–Skene) from crowd-kit.

Run from anywhere:

    python3 -m venv /tmp/refds
    /tmp/refds/bin/pip install crowd-kit
    /tmp/refds/bin/python crates/juror-core/tests/reference/raters/make_reference.py

It writes `reference.json` beside itself: every data set (task, worker, label triples), what
`crowdkit.aggregation.DawidSkene(n_iter=100, tol=1e-5).fit(data)` gives (each task's label and
posterior, the prior, each worker's error matrix as `errors[worker][observed][true]`, the
iterations run), and the library versions. `crates/juror-core/tests/it/raters.rs` reads it.

Labels are integers (as scores are); crowd-kit orders them ascending, so its ties between
labels go to the smaller one.

Data sets, seeded:
- `skilled_and_spammers`: 40 tasks with a true label in 1..5, 8 workers who each label 25 tasks
  at random; three are accurate (80% right, else a neighbouring score), two are noisy (50%),
  two answer at random, one always says 3;
- `binary`: 60 tasks, true 0/1 with a prior of 0.3, 6 workers with sensitivities and
  specificities from 0.55 to 0.95, each labelling every task;
- `sparse`: 30 tasks with three labels each from a pool of 12 workers of mixed skill, labels
  1..4, two tasks with a single label;
- `unanimous`: 10 tasks, 3 workers who always agree (the majority vote is the answer, and the
  error matrices are the identity up to the clip).
"""

import json
import platform
from pathlib import Path

import crowdkit
import numpy as np
import pandas as pd
from crowdkit.aggregation import DawidSkene


def skilled_and_spammers(rng):
    truth = rng.integers(1, 6, size=40)
    kinds = ["good"] * 3 + ["noisy"] * 2 + ["random"] * 2 + ["three"]
    rows = []
    for w, kind in enumerate(kinds):
        for t in rng.choice(40, size=25, replace=False):
            true = int(truth[t])
            if kind == "three":
                label = 3
            elif kind == "random":
                label = int(rng.integers(1, 6))
            else:
                right = 0.8 if kind == "good" else 0.5
                if rng.random() < right:
                    label = true
                else:
                    label = int(np.clip(true + rng.choice([-1, 1]), 1, 5))
            rows.append((f"t{int(t):02d}", f"w{w}", label))
    return rows


def binary(rng):
    truth = (rng.random(60) < 0.3).astype(int)
    skills = [(0.95, 0.9), (0.9, 0.95), (0.8, 0.7), (0.7, 0.8), (0.6, 0.55), (0.55, 0.6)]
    rows = []
    for w, (sens, spec) in enumerate(skills):
        for t in range(60):
            if truth[t] == 1:
                label = 1 if rng.random() < sens else 0
            else:
                label = 0 if rng.random() < spec else 1
            rows.append((f"t{t:02d}", f"w{w}", int(label)))
    return rows


def sparse(rng):
    truth = rng.integers(1, 5, size=30)
    skill = rng.uniform(0.3, 0.95, size=12)
    rows = []
    for t in range(30):
        k = 1 if t in (7, 19) else 3
        for w in rng.choice(12, size=k, replace=False):
            label = int(truth[t]) if rng.random() < skill[w] else int(rng.integers(1, 5))
            rows.append((f"t{t:02d}", f"w{int(w):02d}", label))
    return rows


def unanimous(rng):
    truth = rng.integers(0, 3, size=10)
    return [(f"t{t}", f"w{w}", int(truth[t])) for t in range(10) for w in range(3)]


def fit(rows):
    data = pd.DataFrame(rows, columns=["task", "worker", "label"])
    ds = DawidSkene(n_iter=100, tol=1e-5).fit(data)
    labels = sorted(data.label.unique().tolist())
    probas = ds.probas_
    errors = {}
    for (worker, observed), row in ds.errors_.iterrows():
        errors.setdefault(worker, {})[str(int(observed))] = {
            str(int(c)): float(row[c]) for c in labels
        }
    return {
        "labels": labels,
        "tasks": {
            t: {
                "label": int(ds.labels_[t]),
                "posterior": [float(probas.loc[t, c]) for c in labels],
            }
            for t in probas.index
        },
        "prior": [float(ds.priors_[c]) for c in labels],
        "errors": errors,
        "iterations": len(ds.loss_history_),
        "loss": ds.loss_history_[-1],
    }


def main():
    cases = []
    for name, make, seed in [
        ("skilled_and_spammers", skilled_and_spammers, 1),
        ("binary", binary, 2),
        ("sparse", sparse, 3),
        ("unanimous", unanimous, 4),
    ]:
        rows = make(np.random.default_rng(seed))
        cases.append({"name": name, "rows": [list(r) for r in rows], "expected": fit(rows)})
    out = {
        "generated_by": "crates/juror-core/tests/reference/raters/make_reference.py",
        "versions": {
            "python": platform.python_version(),
            "crowd-kit": crowdkit.__version__ if hasattr(crowdkit, "__version__") else "1.4.2",
            "numpy": np.__version__,
            "pandas": pd.__version__,
        },
        "model": "crowdkit.aggregation.DawidSkene(n_iter=100, tol=1e-5)",
        "cases": cases,
    }
    path = Path(__file__).with_name("reference.json")
    path.write_text(json.dumps(out, indent=1) + "\n")
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
