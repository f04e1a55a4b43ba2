//! Output divergence across annotators (`analysis.divergence`, `--divergence`): how different
//! each system's outputs for the same prompt are from one annotator to another, from the
//! study's texts alone (no rating enters it), and whether one system diverges more than another.
//!
//! - The documents: every output of every item of the study (each system's, personal or not,
//!   duplicates counted), as written (Markdown source); the TF-IDF vocabulary and idf are
//!   fitted on all of them ([`crate::stats::divergence`], scikit-learn's defaults).
//! - "The same prompt": personal items (`for`) whose prompts are equal once leading and
//!   trailing white space is trimmed, in the same round (items without a round together). A
//!   prompt in two rounds is two prompts: personalisation that grows over rounds is not taken
//!   for divergence between annotators ([`shared_prompts`]).
//! - A pair: two such items whose `for` lists name no annotator in common (a slot number and an
//!   annotator id are different annotators; ids compared as the page keeps them). For each
//!   system, the pair's distance is the cosine distance between the system's outputs of the
//!   two items.
//! - Per system: each prompt's mean over its pairs, then the mean over prompts with its 95% t
//!   interval over prompts (none with one prompt); the prompts and pairs it rests on.
//! - Between systems ([`comparisons`]): the plan's comparisons (every pair, the anchor against
//!   each other system, or the pairs listed) and the pairs of its divergence hypotheses
//!   (`"kind": "divergence"`), each paired over the prompts both systems have: the per-prompt
//!   differences A − B tested as the ratings' comparisons are (the plan's tests, Wilcoxon
//!   signed-rank and paired t, with the hypothesis's alternative, else the plan's; effect
//!   sizes), and the p-values of the plan's first test corrected among these comparisons (a
//!   family of their own) with the plan's correction.

use std::collections::{BTreeMap, HashMap};

use serde::Serialize;

use super::{Options, PairComparison, Testing, compare};
use crate::analysis::data::Ci;
use crate::analysis::overrides::{AnalysisPlan, Correction, Hypothesis};
use crate::publish::SealKey;
use crate::stats::divergence::{Tfidf, Vector, cosine_distance, mean_of_groups};
use crate::stats::paired;
use crate::study::{Item, Study, shared_prompts};

/// One system's output divergence across annotators.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct DivergenceReport {
    pub system: String,
    /// The mean over prompts of each prompt's mean cosine distance over its pairs of items.
    pub mean: f64,
    /// The 95% t interval of `mean` over prompts (null with one prompt).
    pub ci95: Option<Ci>,
    /// Prompts with at least one pair of items for different annotators.
    pub prompts: usize,
    /// Pairs of items in all.
    pub pairs: usize,
}

/// Each system's divergence, and its divergence per prompt (by prompt, for the comparisons).
pub struct Divergences {
    /// In the study's order of systems.
    pub reports: Vec<DivergenceReport>,
    /// Each system's (by its name in the report) mean distance per prompt, the prompts keyed
    /// in the order of [`shared_prompts`].
    pub per_prompt: BTreeMap<String, BTreeMap<String, f64>>,
}

/// Each system's divergence, in the study's order of systems (a published study's, read with
/// its key: in byte order of their ids); why there is none when the study cannot give it (a
/// study published by `juror publish`, whose outputs are under tokens of each item's own,
/// without its key; or no prompt shared by personal items for different annotators).
pub fn divergence(study: &Study, key: Option<&SealKey>) -> Result<Divergences, &'static str> {
    // A published study's outputs are under each item's own tokens: the key says whose.
    let published = match (study.design().plans.is_some(), key) {
        (false, _) => None,
        (true, Some(key)) => Some(key),
        (true, None) => {
            return Err(
                "the study given is published (its outputs are under each item's own \
                 tokens): give its key too (--key) to compute output divergence",
            );
        }
    };
    let systems: Vec<String> = match published {
        Some(key) => {
            let mut ids: Vec<String> = key.systems.values().cloned().collect();
            ids.sort();
            ids.dedup();
            ids
        }
        None => study.systems().to_vec(),
    };
    let text_of = |item: &Item, system: &str| -> Option<String> {
        let output = match published {
            Some(key) => item
                .outputs
                .iter()
                .find(|(token, _)| key.systems.get(*token).is_some_and(|s| s == system))
                .map(|(_, o)| o),
            None => item.outputs.get(system),
        };
        output.map(|o| o.plain().into_owned())
    };
    let prompts = shared_prompts(study.items());
    if prompts.is_empty() {
        return Err(
            "no prompt has personal items (`for`) for two different annotators, so \
                    there is no output divergence to compute; give such items the same prompt",
        );
    }
    let corpus = study
        .items()
        .iter()
        .flat_map(|i| i.outputs.values().map(|o| o.plain()))
        .collect::<Vec<_>>();
    let tfidf = Tfidf::fit(corpus.iter().map(|o| o.as_ref()));
    let mut out = Divergences {
        reports: Vec::new(),
        per_prompt: BTreeMap::new(),
    };
    for system in &systems {
        // Each output's vector once: an item is in as many pairs as its prompt has annotators.
        let mut vectors: HashMap<String, Vector> = HashMap::new();
        let mut vector = |item: &Item| -> Vector {
            vectors
                .entry(item.id.clone())
                .or_insert_with(|| tfidf.vector(&text_of(item, system).unwrap_or_default()))
                .clone()
        };
        let groups: Vec<Vec<f64>> = prompts
            .iter()
            .map(|pairs| {
                pairs
                    .iter()
                    .map(|(a, b)| cosine_distance(&vector(a), &vector(b)))
                    .collect()
            })
            .collect();
        if let Some(g) = mean_of_groups(&groups) {
            let name = match published {
                Some(_) => system.clone(),
                None => key
                    .and_then(|k| k.systems.get(system))
                    .unwrap_or(system)
                    .clone(),
            };
            let per_prompt = groups
                .iter()
                .enumerate()
                .filter(|(_, g)| !g.is_empty())
                .map(|(i, g)| (format!("{i:06}"), g.iter().sum::<f64>() / g.len() as f64))
                .collect();
            out.per_prompt.insert(name.clone(), per_prompt);
            out.reports.push(DivergenceReport {
                system: name,
                mean: g.mean,
                ci95: g.ci95.map(Ci::from),
                prompts: g.groups,
                pairs: g.values,
            });
        }
    }
    Ok(out)
}

/// The comparisons of the systems' divergences: the plan's pairs (among the systems with a
/// divergence, in byte order) and then its divergence hypotheses' pairs not among them, each
/// oriented and tested as its hypothesis says (else with the plan's alternative), paired over
/// the prompts both systems have, with the plan's tests and effect sizes (no non-inferiority
/// margin); `p_holm`, `p_bonferroni` and `p_adjusted` (the plan's correction) over these
/// comparisons alone.
pub fn comparisons(
    per_prompt: &BTreeMap<String, BTreeMap<String, f64>>,
    plan: &AnalysisPlan,
    options: &Options,
) -> Vec<PairComparison> {
    let names: Vec<&str> = per_prompt.keys().map(String::as_str).collect();
    let mut pairs = plan.pairs(&names);
    for h in plan.divergence_hypotheses() {
        let Some(b) = &h.b else { continue };
        let known = names.contains(&h.a.as_str()) && names.contains(&b.as_str());
        let listed = pairs
            .iter()
            .any(|(x, y)| (x == &h.a && y == b) || (x == b && y == &h.a));
        if known && !listed {
            pairs.push((h.a.clone(), b.clone()));
        }
    }
    // A margin is about ratings; the comparisons of divergences have none.
    let plan = AnalysisPlan {
        margin: None,
        ..plan.clone()
    };
    let mut out: Vec<PairComparison> = pairs
        .into_iter()
        .map(|(a, b)| {
            let found = |x: &str, y: &str| {
                plan.divergence_hypotheses()
                    .find(|h| h.a == x && h.b.as_deref() == Some(y))
            };
            let (a, b, planned) = match (found(&a, &b), found(&b, &a)) {
                (Some(h), _) => (a, b, Some(h)),
                (None, Some(h)) => (b, a, Some(h)),
                (None, None) => (a, b, None),
            };
            let hypothesis = planned.map(|h| Hypothesis {
                name: h.name.clone(),
                dimension: None,
                a: a.clone(),
                b: b.clone(),
                alternative: h.alternative,
                margin: None,
            });
            let mut c = compare(
                &a,
                &b,
                &per_prompt[&a],
                &per_prompt[&b],
                Testing {
                    plan: &plan,
                    options,
                },
                hypothesis.as_ref(),
                false,
            );
            if c.n == 0 {
                c.notes = vec!["no prompt has a divergence of both systems".to_owned()];
            }
            c
        })
        .collect();
    correct(&mut out, plan.correction);
    out
}

/// Holm and Bonferroni over the comparisons with a p-value; `p_adjusted` as `correction` says.
fn correct(list: &mut [PairComparison], correction: Correction) {
    let ps: Vec<f64> = list.iter().filter_map(|c| c.p_value).collect();
    let (Ok(holm), Ok(bonferroni)) = (paired::holm(&ps), paired::bonferroni(&ps)) else {
        return;
    };
    let tested = list.iter_mut().filter(|c| c.p_value.is_some());
    for (c, (h, b)) in tested.zip(holm.into_iter().zip(bonferroni)) {
        c.p_holm = Some(h);
        c.p_bonferroni = Some(b);
        c.p_adjusted = match correction {
            Correction::Holm => Some(h),
            Correction::Bonferroni => Some(b),
            Correction::None => c.p_value,
        };
    }
}
