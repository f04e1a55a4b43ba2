//! Output divergence across annotators (`analysis.divergence`, `--divergence`): how different
//! each system's outputs for the same prompt are from one annotator to another, from the
//! study's texts alone (no rating enters it).
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

use std::collections::HashMap;

use serde::Serialize;

use crate::analysis::data::Ci;
use crate::publish::SealKey;
use crate::stats::divergence::{Tfidf, Vector, cosine_distance, mean_of_groups};
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

/// Each system's divergence, in the study's order of systems; why there is none when the study
/// cannot give it (a study published by `juror publish`, whose outputs are under tokens of
/// each item's own, or no prompt shared by personal items for different annotators).
pub fn divergence(
    study: &Study,
    key: Option<&SealKey>,
) -> Result<Vec<DivergenceReport>, &'static str> {
    if study.design().plans.is_some() {
        return Err(
            "the study given is published (its outputs are under each item's own \
                    tokens): give the original study with --study to compute output divergence",
        );
    }
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
        .flat_map(|i| i.outputs.values().map(String::as_str));
    let tfidf = Tfidf::fit(corpus);
    let mut reports = Vec::new();
    for system in study.systems() {
        // Each output's vector once: an item is in as many pairs as its prompt has annotators.
        let mut vectors: HashMap<String, Vector> = HashMap::new();
        let mut vector = |item: &Item| -> Vector {
            vectors
                .entry(item.id.clone())
                .or_insert_with(|| {
                    tfidf.vector(item.outputs.get(system).map_or("", String::as_str))
                })
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
            let name = key
                .and_then(|k| k.systems.get(system))
                .unwrap_or(system)
                .clone();
            reports.push(DivergenceReport {
                system: name,
                mean: g.mean,
                ci95: g.ci95.map(Ci::from),
                prompts: g.groups,
                pairs: g.values,
            });
        }
    }
    Ok(reports)
}
