//! Models of each rating dimension beside the paired tests, when the plan asks for them
//! (`analysis.models`, `--models`): the linear mixed model with crossed random intercepts for
//! annotators and items of [`crate::stats::mixed::crossed`], and the proportional-odds model
//! of [`crate::stats::ordinal`] with standard errors clustered by annotator.
//!
//! Every model is fitted on the raw scores of every rating read (not on per-annotator means,
//! not standardised), with the reference system chosen as the rounds section chooses it: the
//! one asked for (`--reference`) when rated, else the study's first rated system, else the
//! first in byte order.

use std::collections::BTreeSet;

use serde::Serialize;

use crate::analysis::data::{Ci, Data, RatingRow};
use crate::analysis::rounds::{FixedEffect, wald_ci};
use crate::stats::mixed::{
    Criterion, CrossedData, CrossedOptions, CrossedRating, StandardErrors, crossed,
};
use crate::stats::ordinal::{self, Covariance, OrdinalData, SystemRating};
use crate::study::analysis_plan::{AnalysisModel, AnalysisPlan};

/// The most distinct scores a dimension may have for the ordinal model: a 0–10 scale, not a
/// slider.
pub const MAX_ORDINAL_CATEGORIES: usize = 11;

/// The crossed model of one dimension.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct CrossedModel {
    pub dimension: String,
    /// `score ~ system + (1 | annotator) + (1 | item)`, or with `system * round` when every
    /// rating has a round and there are two rounds or more.
    pub formula: String,
    /// The system the others are compared with.
    pub reference: String,
    /// `REML` or `ML`.
    pub method: &'static str,
    /// The estimates; absent when the model could not be fitted (see `note`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fit: Option<CrossedEstimates>,
    /// Why the model could not be fitted, when it could not.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// The estimates of a crossed fit.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct CrossedEstimates {
    pub n_obs: usize,
    pub n_annotators: usize,
    pub n_items: usize,
    /// Model-based (lme4's) standard errors, Wald z, normal p and 95% intervals.
    pub fixed_effects: Vec<FixedEffect>,
    pub annotator_variance: f64,
    pub item_variance: f64,
    pub residual_variance: f64,
    /// σ²_annotator / (σ²_annotator + σ²_item + σ²_residual).
    pub annotator_icc: f64,
    /// σ²_item / (σ²_annotator + σ²_item + σ²_residual).
    pub item_icc: f64,
    pub log_likelihood: f64,
    /// Whether the Newton search met its step tolerance.
    pub converged: bool,
}

/// The plan's crossed fits, one per dimension in `dimensions` order that has ratings;
/// `preferred` the study's systems (their order picks the reference), `asked` the reference
/// asked for.
pub fn crossed_report(
    data: &Data,
    plan: &AnalysisPlan,
    dimensions: &[String],
    preferred: &[String],
    asked: Option<&str>,
) -> Vec<CrossedModel> {
    let criterion = if plan.models.contains(AnalysisModel::CrossedMl) {
        Criterion::Ml
    } else if plan.models.contains(AnalysisModel::Crossed) {
        Criterion::Reml
    } else {
        return Vec::new();
    };
    dimensions
        .iter()
        .filter_map(|d| {
            let rows: Vec<&RatingRow> = data
                .ratings
                .iter()
                .filter(|r| r.dimension == d.as_str())
                .collect();
            let order = system_order(&rows, preferred, asked)?;
            Some(one(d, &rows, &order, criterion))
        })
        .collect()
}

/// The rated systems, the reference first, then the rest in byte order; `None` without
/// ratings.
pub(crate) fn system_order<'r>(
    rows: &[&'r RatingRow],
    preferred: &[String],
    asked: Option<&str>,
) -> Option<Vec<&'r str>> {
    let rated: BTreeSet<&str> = rows.iter().map(|r| r.system.as_str()).collect();
    let reference = asked
        .and_then(|a| rated.get(a).copied())
        .or_else(|| {
            preferred
                .iter()
                .find_map(|p| rated.get(p.as_str()).copied())
        })
        .or_else(|| rated.first().copied())?;
    let mut order = vec![reference];
    order.extend(rated.iter().copied().filter(|s| *s != reference));
    Some(order)
}

fn one(dimension: &str, rows: &[&RatingRow], order: &[&str], criterion: Criterion) -> CrossedModel {
    let rounds: BTreeSet<u64> = rows
        .iter()
        .filter_map(|r| r.round.map(f64::to_bits))
        .collect();
    let with_round = rounds.len() >= 2 && rows.iter().all(|r| r.round.is_some());
    let ratings: Vec<CrossedRating<'_>> = rows
        .iter()
        .map(|r| CrossedRating {
            annotator: r.annotator.as_str(),
            item: r.item.as_str(),
            system: r.system.as_str(),
            round: r.round.unwrap_or(0.0),
            rating: r.score,
        })
        .collect();
    let built = if with_round {
        CrossedData::system_by_round(order, &ratings)
    } else {
        CrossedData::by_system(order, &ratings)
    };
    let options = CrossedOptions {
        criterion,
        standard_errors: StandardErrors::Model,
    };
    let fitted = built.and_then(|data| crossed(&data, options));
    let (fit, note) = match fitted {
        Ok(f) => {
            let estimates = CrossedEstimates {
                n_obs: f.n_obs,
                n_annotators: f.n_annotators,
                n_items: f.n_items,
                fixed_effects: f
                    .fixed_effects
                    .iter()
                    .map(|e| FixedEffect {
                        name: e.name.clone(),
                        estimate: e.estimate,
                        se: e.se,
                        z: e.z,
                        p_value: e.p_value,
                        ci95: wald_ci(e.estimate, e.se),
                    })
                    .collect(),
                annotator_variance: f.annotator_variance,
                item_variance: f.item_variance,
                residual_variance: f.residual_variance,
                annotator_icc: f.annotator_icc(),
                item_icc: f.item_icc(),
                log_likelihood: f.log_likelihood,
                converged: f.converged,
            };
            (Some(estimates), None)
        }
        Err(e) => (None, Some(e.to_string())),
    };
    CrossedModel {
        dimension: dimension.to_owned(),
        formula: if with_round {
            "score ~ system * round + (1 | annotator) + (1 | item)"
        } else {
            "score ~ system + (1 | annotator) + (1 | item)"
        }
        .to_owned(),
        reference: order[0].to_owned(),
        method: match criterion {
            Criterion::Reml => "REML",
            Criterion::Ml => "ML",
        },
        fit,
        note,
    }
}

/// The proportional-odds model of one dimension.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct OrdinalModel {
    pub dimension: String,
    /// The system the others are compared with.
    pub reference: String,
    /// The estimates; absent when the model could not be fitted (see `note`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fit: Option<OrdinalEstimates>,
    /// Why the model could not be fitted, when it could not.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// The estimates of a proportional-odds fit, P(score ≤ c_j) = logistic(c_j − β_system).
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct OrdinalEstimates {
    pub n_obs: usize,
    pub n_annotators: usize,
    /// The scores used, ascending: the categories.
    pub categories: Vec<f64>,
    /// `cluster` (by annotator, statsmodels' `cov_type="cluster"`) or `model` (fewer than two
    /// annotators).
    pub standard_errors: &'static str,
    /// β per system against the reference (`system[T.x]`), on the log-odds scale.
    pub coefficients: Vec<OrdinalTerm>,
    /// The cut points c_j between consecutive scores (`1/2`, `2/3`, …).
    pub cut_points: Vec<OrdinalTerm>,
    /// Every pair of systems: the odds of a higher score for `a` over `b`.
    pub odds_ratios: Vec<OddsRatioRow>,
    pub log_likelihood: f64,
    pub converged: bool,
}

/// An estimate with its standard error (clustered, and model-based beside it).
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct OrdinalTerm {
    pub name: String,
    pub estimate: f64,
    pub se: f64,
    pub se_model: f64,
    pub z: f64,
    pub p_value: f64,
}

/// exp(β_a − β_b) with its 95% Wald interval and test.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct OddsRatioRow {
    pub a: String,
    pub b: String,
    pub odds_ratio: f64,
    pub ci95: Ci,
    pub z: f64,
    pub p_value: f64,
}

/// The plan's ordinal fits, one per dimension in `dimensions` order that has ratings.
pub fn ordinal_report(
    data: &Data,
    plan: &AnalysisPlan,
    dimensions: &[String],
    preferred: &[String],
    asked: Option<&str>,
) -> Vec<OrdinalModel> {
    if !plan.models.contains(AnalysisModel::Ordinal) {
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
            let order = system_order(&rows, preferred, asked)?;
            let (fit, note) = match ordinal_fit(&rows, &order) {
                Ok(f) => (Some(f), None),
                Err(e) => (None, Some(e)),
            };
            Some(OrdinalModel {
                dimension: d.clone(),
                reference: order[0].to_owned(),
                fit,
                note,
            })
        })
        .collect()
}

fn ordinal_fit(rows: &[&RatingRow], order: &[&str]) -> Result<OrdinalEstimates, String> {
    let mut categories: Vec<f64> = rows.iter().map(|r| r.score).collect();
    categories.sort_by(f64::total_cmp);
    categories.dedup();
    if categories.len() > MAX_ORDINAL_CATEGORIES || categories.iter().any(|c| c.fract() != 0.0) {
        return Err(format!(
            "{} distinct scores{}: the ordinal model is for scales of at most {} whole-number \
             points; read a slider with the crossed model",
            categories.len(),
            if categories.iter().any(|c| c.fract() != 0.0) {
                ", not all whole numbers"
            } else {
                ""
            },
            MAX_ORDINAL_CATEGORIES
        ));
    }
    let ratings: Vec<SystemRating<'_>> = rows
        .iter()
        .map(|r| SystemRating {
            system: r.system.as_str(),
            score: r.score as i64,
            annotator: r.annotator.as_str(),
        })
        .collect();
    let e = |e: ordinal::OrdinalError| e.to_string();
    let data = OrdinalData::by_system(order, &ratings).map_err(e)?;
    let fit = ordinal::fit(&data).map_err(e)?;
    let (kind, label) = if fit.cluster_covariance.is_some() {
        (Covariance::Cluster, "cluster")
    } else {
        (Covariance::Model, "model")
    };
    let terms = |chosen: Vec<ordinal::Estimate>, model: Vec<ordinal::Estimate>| {
        chosen
            .into_iter()
            .zip(model)
            .map(|(c, m)| OrdinalTerm {
                name: c.name,
                estimate: c.estimate,
                se: c.se,
                se_model: m.se,
                z: c.z,
                p_value: c.p_value,
            })
            .collect()
    };
    let coefficients = terms(
        fit.coefficients(kind).map_err(e)?,
        fit.coefficients(Covariance::Model).map_err(e)?,
    );
    let cut_points = terms(
        fit.cut_points(kind).map_err(e)?,
        fit.cut_points(Covariance::Model).map_err(e)?,
    );
    let odds_ratios = fit
        .odds_ratios(kind)
        .map_err(e)?
        .into_iter()
        .map(|o| OddsRatioRow {
            a: o.a,
            b: o.b,
            odds_ratio: o.odds_ratio,
            ci95: Ci {
                low: o.interval.low,
                high: o.interval.high,
            },
            z: o.z,
            p_value: o.p_value,
        })
        .collect();
    Ok(OrdinalEstimates {
        n_obs: fit.n_obs,
        n_annotators: fit.n_clusters,
        categories,
        standard_errors: label,
        coefficients,
        cut_points,
        odds_ratios,
        log_likelihood: fit.log_likelihood,
        converged: fit.converged,
    })
}
