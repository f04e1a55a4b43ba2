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
an output without a word of two characters, and an item for everyone) and
`comparisons-study.json` (nine prompts asked by two or three participants, a system that
personalises, a retrieval baseline that nearly repeats itself and a generic one, and a plan
with an anchor and two divergence hypotheses), and writes `reference.json` with every expected
value and the library versions. `crates/juror-core/tests/it/divergence.rs` reads them; the Rust
tests need no Python. The end-to-end test of the Analyse page and the command line's test read
`comparisons-study.json` with `comparisons-ratings.csv` (made-up ratings of its items).

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
- `comparisons` (per study file): the plan's pairs of systems, each a paired comparison of
  the per-prompt divergences. The pairs: with `comparisons` "all" (the default) every pair of
  the systems sorted by name, a before b; with an anchor, (anchor, s) for each other s sorted;
  with `pairs`, those. Then each divergence hypothesis's (a, b) that is not among them. A pair
  is turned round when a divergence hypothesis names it the other way (b, a) and not as (a, b);
  the alternative is that hypothesis's (its own, else the plan's `alternative`), else the
  plan's. With d the per-prompt differences A − B: `scipy.stats.wilcoxon(d, alternative=...)`
  (method "auto"), `scipy.stats.ttest_rel(A, B, alternative=...)`, the two-sided 95% t interval
  of the mean of d, d_z = mean / SD (n − 1), g_z = (1 − 3 / (4 (n − 1) − 1)) d_z, the
  rank-biserial (W+ − W−) / (W+ + W−) from `scipy.stats.rankdata` of |d| (zeros dropped).
  The p-value of the plan's first test is adjusted over the study's comparisons by Holm and
  Bonferroni (written out below), `p_adjusted` by the plan's `correction` (default Holm).
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


def holm(ps):
    m = len(ps)
    order = sorted(range(m), key=lambda i: ps[i])
    out = [0.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, ps[i] * (m - rank))
        out[i] = min(1.0, running)
    return out


def bonferroni(ps):
    return [min(1.0, p * len(ps)) for p in ps]


def divergence_hypotheses(plan):
    default = plan.get("alternative", "two-sided")
    out = []
    for h in plan.get("hypotheses", []):
        if h.get("kind") != "divergence":
            continue
        bs = h["b"] if isinstance(h["b"], list) else [h["b"]]
        for b in bs:
            out.append({"name": h.get("name"), "a": h["a"], "b": b,
                        "alternative": h.get("alternative", default)})
    return out


def compared_pairs(plan, names):
    names = sorted(names)
    comparisons = plan.get("comparisons", "all")
    if comparisons == "all":
        pairs = list(itertools.combinations(names, 2))
    elif "anchor" in comparisons:
        anchor = comparisons["anchor"]
        pairs = [(anchor, s) for s in names if s != anchor] if anchor in names else []
    else:
        pairs = [(a, b) for a, b in comparisons["pairs"] if a in names and b in names]
    for h in divergence_hypotheses(plan):
        known = h["a"] in names and h["b"] in names
        if known and {h["a"], h["b"]} not in [set(p) for p in pairs]:
            pairs.append((h["a"], h["b"]))
    return pairs


def comparisons(study, systems):
    """The comparisons of the per-prompt divergences of `systems` (name -> its entry)."""
    plan = study.get("analysis", {})
    hypotheses = divergence_hypotheses(plan)
    tests = plan.get("tests", ["wilcoxon", "t"])
    out = []
    for a, b in compared_pairs(plan, list(systems)):
        found = lambda x, y: next((h for h in hypotheses if h["a"] == x and h["b"] == y), None)
        h = found(a, b)
        if h is None and found(b, a) is not None:
            a, b, h = b, a, found(b, a)
        alternative = h["alternative"] if h else plan.get("alternative", "two-sided")
        xa = np.array(systems[a]["prompt_means"])
        xb = np.array(systems[b]["prompt_means"])
        d = xa - xb
        n = len(d)
        w = scipy.stats.wilcoxon(d, alternative=alternative)
        t = scipy.stats.ttest_rel(xa, xb, alternative=alternative)
        low, high = scipy.stats.t.interval(
            0.95, n - 1, loc=float(np.mean(d)), scale=scipy.stats.sem(d)
        )
        nonzero = d[d != 0]
        ranks = scipy.stats.rankdata(np.abs(nonzero))
        w_plus = float(np.sum(ranks[nonzero > 0]))
        w_minus = float(np.sum(ranks[nonzero < 0]))
        sd = float(np.std(d, ddof=1))
        d_z = float(np.mean(d)) / sd
        p = {"wilcoxon": float(w.pvalue), "t": float(t.pvalue)}[tests[0]]
        out.append({
            "a": a, "b": b, "hypothesis": h["name"] if h else None,
            "alternative": alternative, "n": n,
            "mean_a": float(np.mean(xa)), "mean_b": float(np.mean(xb)),
            "mean_diff": float(np.mean(d)), "ci95": [float(low), float(high)],
            "w_plus": w_plus, "w_minus": w_minus, "p_wilcoxon": float(w.pvalue),
            "t": float(t.statistic), "df": float(t.df), "p_t": float(t.pvalue),
            "p_value": p,
            "d_z": d_z, "g_z": (1 - 3 / (4 * (n - 1) - 1)) * d_z,
            "rank_biserial": (w_plus - w_minus) / (w_plus + w_minus),
        })
    ps = [c["p_value"] for c in out]
    correction = plan.get("correction", "holm")
    for c, h, b in zip(out, holm(ps), bonferroni(ps)):
        c["p_holm"], c["p_bonferroni"] = h, b
        c["p_adjusted"] = {"holm": h, "bonferroni": b, "none": c["p_value"]}[correction]
    return out


def divergences(study):
    """Each system's divergence (and the fitted vectorizer) for one study file."""
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
    return corpus, vectorizer, systems


def main():
    study = json.loads((HERE / "study.json").read_text(encoding="utf-8"))
    corpus, vectorizer, systems = divergences(study)
    other = json.loads((HERE / "comparisons-study.json").read_text(encoding="utf-8"))
    _, _, other_systems = divergences(other)

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
        "comparisons": {
            "study.json": comparisons(study, systems),
            "comparisons-study.json": comparisons(other, other_systems),
        },
        "comparisons_study": {
            name: {k: v[k] for k in ("mean", "ci95", "prompts", "pairs", "prompt_means")}
            for name, v in other_systems.items()
        },
        "analyzer": {t: analyze(t) for t in analyzer_texts},
        "differs": {t: analyze(t) for t in differs},
    }
    (HERE / "reference.json").write_text(
        json.dumps(reference, indent=1, ensure_ascii=False, sort_keys=True) + "\n",
        encoding="utf-8",
    )


if __name__ == "__main__":
    main()
