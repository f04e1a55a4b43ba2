//! Rater quality, when the plan asks for it (`analysis.raters`, `--raters`): per rating
//! dimension of up to [`MAX_CATEGORIES`] points, its scores read as categories, the
//! Dawid–Skene fit of [`crate::stats::raters`] over the outputs (item, system) and the
//! annotators who rated them.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::analysis::data::{Data, RatingRow};
use crate::stats::raters::{Answer, dawid_skene};
use crate::study::analysis_plan::{AnalysisPlan, RaterModel};

/// The most distinct scores a dimension may have to be read as categories: a 0–10 scale, not
/// a slider (whose confusion matrices would be 101 × 101 and nearly empty).
pub const MAX_CATEGORIES: usize = 11;

/// How many outputs whose consensus differs from their majority vote are listed.
pub const CHANGES_LISTED: usize = 20;

/// The rater-quality fit on one dimension.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct RaterQuality {
    pub dimension: String,
    /// `dawid_skene`.
    pub model: RaterModel,
    /// The scores given, ascending: the categories.
    pub categories: Vec<f64>,
    /// Outputs (item, system) rated.
    pub outputs: usize,
    /// Ratings fitted.
    pub ratings: usize,
    /// Rounds of EM run, and whether the bound stopped rising before the cap.
    pub rounds: usize,
    pub converged: bool,
    /// The estimated share of each category among the outputs.
    pub prior: Vec<f64>,
    /// Per annotator, by name.
    pub annotators: Vec<AnnotatorQuality>,
    /// Outputs whose consensus score is not their majority vote's.
    pub differs_from_majority: usize,
    /// The first of them ([`CHANGES_LISTED`]), by item and system.
    pub changes: Vec<ConsensusChange>,
}

/// One annotator's estimated quality.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct AnnotatorQuality {
    pub annotator: String,
    pub ratings: usize,
    /// Σ_c π_c e[c][c]: the chance of giving the true score, the truth drawn from the prior.
    pub accuracy: f64,
    /// The share of the annotator's ratings equal to the output's consensus score.
    pub agrees_with_consensus: f64,
    /// `confusion[k][c]`: the probability of giving category k when the truth is c; `null`
    /// for a category the annotator never gave.
    pub confusion: Vec<Option<Vec<f64>>>,
}

/// An output whose consensus is not its majority vote.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct ConsensusChange {
    pub item: String,
    pub system: String,
    pub majority: f64,
    pub consensus: f64,
    /// The consensus score's posterior probability.
    pub posterior: f64,
}

/// The plan's rater-quality fits, one per dimension that can be read as categories, in
/// `dimensions` order; a dimension that cannot is left out (the methods say which do).
pub fn report(data: &Data, plan: &AnalysisPlan, dimensions: &[String]) -> Vec<RaterQuality> {
    if !plan.raters.contains(RaterModel::DawidSkene) {
        return Vec::new();
    }
    dimensions
        .iter()
        .filter_map(|d| {
            let rows: Vec<&RatingRow> = data
                .ratings
                .iter()
                .filter(|r| r.dimension == d.as_str())
                .collect();
            one(d, &rows)
        })
        .collect()
}

fn one(dimension: &str, rows: &[&RatingRow]) -> Option<RaterQuality> {
    let mut categories: Vec<f64> = rows.iter().map(|r| r.score).collect();
    categories.sort_by(f64::total_cmp);
    categories.dedup();
    if categories.len() < 2 || categories.len() > MAX_CATEGORIES {
        return None;
    }
    let mut outputs: BTreeMap<(&str, &str), usize> = BTreeMap::new();
    let mut annotators: BTreeMap<&str, usize> = BTreeMap::new();
    for r in rows {
        let n = outputs.len();
        outputs
            .entry((r.item.as_str(), r.system.as_str()))
            .or_insert(n);
        let n = annotators.len();
        annotators.entry(r.annotator.as_str()).or_insert(n);
    }
    // Indices in name order, so that the fit does not depend on the order read.
    for (i, v) in outputs.values_mut().enumerate() {
        *v = i;
    }
    for (i, v) in annotators.values_mut().enumerate() {
        *v = i;
    }
    let answers: Vec<Answer> = rows
        .iter()
        .map(|r| Answer {
            unit: outputs[&(r.item.as_str(), r.system.as_str())],
            rater: annotators[r.annotator.as_str()],
            category: categories
                .iter()
                .position(|&c| c == r.score)
                .unwrap_or_default(),
        })
        .collect();
    let fit = dawid_skene(&answers, outputs.len(), annotators.len(), categories.len()).ok()?;
    let per_rater = |w: usize| answers.iter().filter(move |a| a.rater == w);
    let annotators = annotators
        .keys()
        .enumerate()
        .map(|(w, name)| {
            let given = per_rater(w).count();
            let agree = per_rater(w)
                .filter(|a| fit.consensus[a.unit] == a.category)
                .count();
            AnnotatorQuality {
                annotator: (*name).to_owned(),
                ratings: given,
                accuracy: fit.accuracy[w],
                agrees_with_consensus: agree as f64 / given as f64,
                confusion: fit.confusion[w].clone(),
            }
        })
        .collect();
    let changed: Vec<ConsensusChange> = outputs
        .keys()
        .enumerate()
        .filter(|&(u, _)| fit.consensus[u] != fit.majority[u])
        .map(|(u, (item, system))| ConsensusChange {
            item: (*item).to_owned(),
            system: (*system).to_owned(),
            majority: categories[fit.majority[u]],
            consensus: categories[fit.consensus[u]],
            posterior: fit.posterior[u][fit.consensus[u]],
        })
        .collect();
    Some(RaterQuality {
        dimension: dimension.to_owned(),
        model: RaterModel::DawidSkene,
        outputs: outputs.len(),
        ratings: answers.len(),
        rounds: fit.rounds,
        converged: fit.converged,
        prior: fit.prior,
        annotators,
        differs_from_majority: changed.len(),
        changes: changed.into_iter().take(CHANGES_LISTED).collect(),
        categories,
    })
}
