#!/usr/bin/env python3
"""Reference values for the output divergence across annotators
(`crates/juror-core/src/stats/divergence.rs` and
`crates/juror-core/src/analysis/report/divergence.rs`).

Run from anywhere:

    python3 -m pip install --user scikit-learn scipy
    python3 crates/juror-core/tests/reference/divergence/make_reference.py

It reads `study.json` beside itself (a made-up study with personal items: prompts shared by
annotators given by id and by slot, prompts with leading and trailing white space, a prompt in
two rounds, an item for two annotators, outputs in French, German, Greek, Russian and Japanese,
an output without a word of two characters, and an item for everyone) and writes
`reference.json` with every expected value and the library versions.
`crates/juror-core/tests/it/divergence.rs` reads both; the Rust tests need no Python.

The definitions, written out here independently of the Rust code:
- Documents: every output of every item (personal or not, each system's), duplicates counted.
  `TfidfVectorizer()` with its defaults is fitted on them; each output's vector is
  `transform([text])`.
- A prompt: the personal items (with `for`) whose `prompt.strip()` and `round` are equal. An
  item's annotators: ("slot", n) for a number, ("id", id without white space, lower case) for a
  string. A pair: two items of a prompt whose annotator sets are disjoint.
- Per system and pair: `cosine_distances(vector_a, vector_b)`; per prompt the mean over its
  pairs; per system the mean over prompts (with at least one pair) and the 95% t interval
  `scipy.stats.t.interval(0.95, k - 1, loc=mean, scale=scipy.stats.sem(means))` over the k
  prompt means.
- `analyzer`: the words scikit-learn's default analyzer finds in a few texts (the Rust tests
  compare theirs); `differs`: texts whose words Python cuts differently from Rust's
  `char::is_alphanumeric` (documented in the module).
"""

from collections import defaultdict
from importlib import metadata
import itertools
import json
import platform
from pathlib import Path

import numpy as np
import scipy.stats
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.metrics.pairwise import cosine_distances

HERE = Path(__file__).resolve().parent


def who(item):
    out = set()
    for ref in item.get("for", []):
        if isinstance(ref, int):
            out.add(("slot", ref))
        else:
            out.add(("id", "".join(ref.split()).lower()))
    return out


def main():
    study = json.loads((HERE / "study.json").read_text(encoding="utf-8"))
    items = study["items"]
    corpus = [text for item in items for text in item["outputs"].values()]
    vectorizer = TfidfVectorizer().fit(corpus)

    prompts = defaultdict(list)
    for item in items:
        if item.get("for"):
            prompts[(item["prompt"].strip(), item.get("round"))].append(item)
    pairs_by_prompt = {}
    for key, group in prompts.items():
        pairs = [(a, b) for a, b in itertools.combinations(group, 2) if not (who(a) & who(b))]
        if pairs:
            pairs_by_prompt[key] = pairs

    systems = {}
    for system in study["systems"]:
        means = []
        per_pair = {}
        n_pairs = 0
        for key in sorted(pairs_by_prompt, key=lambda k: (k[0], k[1] is not None, k[1] or 0)):
            distances = []
            for a, b in pairs_by_prompt[key]:
                va = vectorizer.transform([a["outputs"][system]])
                vb = vectorizer.transform([b["outputs"][system]])
                d = float(cosine_distances(va, vb)[0, 0])
                distances.append(d)
                per_pair[f"{a['id']}|{b['id']}"] = d
            n_pairs += len(distances)
            means.append(float(np.mean(distances)))
        mean = float(np.mean(means))
        if len(means) > 1:
            low, high = scipy.stats.t.interval(
                0.95, len(means) - 1, loc=mean, scale=scipy.stats.sem(means)
            )
            ci = [float(low), float(high)]
        else:
            ci = None
        systems[system] = {
            "mean": mean,
            "ci95": ci,
            "prompts": len(means),
            "pairs": n_pairs,
            "prompt_means": means,
            "pair_distances": per_pair,
        }

    analyze = vectorizer.build_analyzer()
    analyzer_texts = [
        "A cat's 2 NEW_ideas, x2 and é-tude!",
        "Für Sie, die Espresso lieben: Café Grande an der Bahnhofstraße.",
        "Ελληνικός καφές, 日本の喫茶店, Кофе у вокзала; ΣΟΦΟΣ",
        "café_au_lait 2½ francs, İstanbul ǅemal",
        "cafe\u0301s",
    ]
    differs = ["हिन्दी भाषा", "Ⓐⓑ circled"]
    reference = {
        "versions": {
            "python": platform.python_version(),
            "scikit-learn": metadata.version("scikit-learn"),
            "numpy": metadata.version("numpy"),
            "scipy": metadata.version("scipy"),
        },
        "documents": len(corpus),
        "terms": len(vectorizer.vocabulary_),
        "idf": {t: float(vectorizer.idf_[i]) for t, i in sorted(vectorizer.vocabulary_.items())},
        "systems": systems,
        "analyzer": {t: analyze(t) for t in analyzer_texts},
        "differs": {t: analyze(t) for t in differs},
    }
    (HERE / "reference.json").write_text(
        json.dumps(reference, indent=1, ensure_ascii=False, sort_keys=True) + "\n",
        encoding="utf-8",
    )


if __name__ == "__main__":
    main()
