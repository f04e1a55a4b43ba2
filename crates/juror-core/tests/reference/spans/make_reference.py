#!/usr/bin/env python3
"""Reference values for the error spans of the analysis (`crates/juror-core/src/stats/spans.rs`
and `crates/juror-core/src/analysis/spans.rs`): the MQM score per system, errors by severity
and category, character-level F1 between annotators and Krippendorff's alpha over characters.

Run from anywhere:

    python3 -m venv /tmp/spansenv
    /tmp/spansenv/bin/pip install numpy scipy krippendorff
    /tmp/spansenv/bin/python crates/juror-core/tests/reference/spans/make_reference.py

It reads `spans.csv` beside itself (a tidy table of error spans: columns item_id, system_id,
annotator_id, start, end, severity, category, length; made up, seeded, with overlapping and
disjoint spans, errors of the whole output, outputs without errors and an output seen by one
annotator) and writes `reference.json` with every expected value and the library versions.
`crates/juror-core/tests/it/spans.rs` reads both; the Rust tests need no Python.

The definitions, written out here independently of the Rust code:
- MQM of an output by an annotator = sum of the weights of its errors (minor 1, major 5,
  critical 25; errors of the whole output included; 0 for "no errors"); per (item, system) the
  mean over annotators; per system the mean over items, its sample SD and 95% t interval
  (scipy.stats.t.ppf(0.975, n - 1)).
- Character-level F1 of two annotators on an output = 2|A and B| / (|A| + |B|), A and B the
  characters inside any span (any severity; whole-output errors cover none), averaged over every
  (output, pair of annotators who saw it) where |A| + |B| > 0.
- Alpha: `krippendorff.alpha` with level_of_measurement="nominal", one unit per character of
  every output, each annotator who saw the output labelling it 0 (none), 1 (minor), 2 (major) or
  3 (critical), NaN for annotators who did not see it.
"""

import csv
from importlib import metadata
import itertools
import json
import math
import platform
from collections import defaultdict
from pathlib import Path

import krippendorff
import numpy as np
import scipy
from scipy import stats

HERE = Path(__file__).resolve().parent
WEIGHTS = {"minor": 1.0, "major": 5.0, "critical": 25.0}
LABEL = {"minor": 1, "major": 2, "critical": 3}


def read():
    rows = list(csv.DictReader(open(HERE / "spans.csv", newline="")))
    outputs = defaultdict(lambda: defaultdict(list))
    lengths = {}
    for r in rows:
        key = (r["item_id"], r["system_id"])
        outputs[key][r["annotator_id"]].append(r)
        lengths[key] = int(r["length"])
    return rows, outputs, lengths


def mqm(outputs):
    per_item = defaultdict(dict)
    for (item, system), by in outputs.items():
        scores = [
            sum(WEIGHTS[r["severity"]] for r in marks if r["severity"])
            for marks in by.values()
        ]
        per_item[system][item] = float(np.mean(scores))
    out = {}
    for system, items in sorted(per_item.items()):
        x = np.array([items[i] for i in sorted(items)])
        n = len(x)
        mean = float(np.mean(x))
        sd = float(np.std(x, ddof=1)) if n > 1 else None
        half = float(stats.t.ppf(0.975, n - 1) * sd / math.sqrt(n)) if n > 1 else None
        out[system] = {
            "mean": mean,
            "sd": sd,
            "ci95": [mean - half, mean + half] if half is not None else None,
            "n": n,
            "item_means": {i: items[i] for i in sorted(items)},
        }
    return out


def counts(outputs):
    out = {}
    for system in sorted({s for _, s in outputs}):
        annotations = 0
        errors = whole = no_errors = 0
        severities = defaultdict(int)
        categories = defaultdict(int)
        for (item, s), by in outputs.items():
            if s != system:
                continue
            for marks in by.values():
                annotations += 1
                errs = [r for r in marks if r["severity"]]
                if not errs:
                    no_errors += 1
                for r in errs:
                    errors += 1
                    whole += r["start"] == ""
                    severities[r["severity"]] += 1
                    if r["category"]:
                        categories[r["category"]] += 1
        out[system] = {
            "annotations": annotations,
            "errors": errors,
            "whole_output": whole,
            "no_errors": no_errors,
            "severities": {k: [v, v / annotations] for k, v in severities.items()},
            "categories": {k: [v, v / annotations] for k, v in categories.items()},
        }
    return out


def labels(marks, length):
    lab = np.zeros(length, dtype=int)
    for r in marks:
        if r["start"] == "" or not r["severity"]:
            continue
        s, e = int(r["start"]), min(int(r["end"]), length)
        lab[s:e] = np.maximum(lab[s:e], LABEL[r["severity"]])
    return lab


def f1(outputs, lengths):
    values = []
    per_output = {}
    for key in sorted(outputs):
        by = outputs[key]
        labs = [labels(by[a], lengths[key]) for a in sorted(by)]
        mine = []
        for x, y in itertools.combinations(labs, 2):
            a, b = x > 0, y > 0
            if a.sum() + b.sum() == 0:
                continue
            mine.append(2 * np.logical_and(a, b).sum() / (a.sum() + b.sum()))
        values += mine
        if len(by) >= 2:
            per_output["/".join(key)] = [float(np.mean(mine)), len(mine)] if mine else None
    outputs_counted = sum(1 for v in per_output.values() if v)
    return {
        "value": float(np.mean(values)),
        "pairs": len(values),
        "outputs": outputs_counted,
        "per_output": per_output,
    }


def alpha(outputs, lengths):
    annotators = sorted({a for by in outputs.values() for a in by})
    columns = []
    characters = 0
    counted = 0
    for key in sorted(outputs):
        by = outputs[key]
        n = lengths[key]
        if len(by) >= 2:
            characters += n
            counted += 1
        block = np.full((len(annotators), n), np.nan)
        for i, a in enumerate(annotators):
            if a in by:
                block[i] = labels(by[a], n)
        columns.append(block)
    data = np.concatenate(columns, axis=1)
    value = krippendorff.alpha(
        reliability_data=data, level_of_measurement="nominal", value_domain=[0, 1, 2, 3]
    )
    return {"value": float(value), "characters": characters, "outputs": counted}


def main():
    rows, outputs, lengths = read()
    reference = {
        "versions": {
            "python": platform.python_version(),
            "numpy": np.__version__,
            "scipy": scipy.__version__,
            "krippendorff": metadata.version("krippendorff"),
        },
        "weights": WEIGHTS,
        "rows": len(rows),
        "outputs": len(outputs),
        "annotations": sum(len(by) for by in outputs.values()),
        "mqm": mqm(outputs),
        "systems": counts(outputs),
        "f1": f1(outputs, lengths),
        "alpha": alpha(outputs, lengths),
    }
    with open(HERE / "reference.json", "w") as f:
        json.dump(reference, f, indent=1, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main()
