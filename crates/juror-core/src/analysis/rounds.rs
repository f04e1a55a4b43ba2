//! Ratings over rounds (does a system get better or worse from round to round?): per system,
//! the least-squares slope of the ratings on the round with its p-value and Spearman's rho; and
//! the linear mixed model `rating ~ system + round + system:round + (1 | annotator)` fitted by
//! REML.
//!
//! Both are computed on the raw ratings that have a round (the study's `items[].round`, or a
//! CSV's `round` column), one point per rating; adjudicated scores are not used here (they
//! replace cell means, and these models are about individual ratings).

use std::collections::BTreeSet;

use serde::Serialize;

use super::data::{Ci, LEVEL, RatingRow};
use crate::stats::mixed::{self, MixedData, MixedError, MixedFit, RoundRating};
use crate::stats::special;
use crate::stats::trend::trend;

/// Ratings over rounds on one dimension; `null` in the report when fewer than two rounds
/// were rated.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct Rounds {
    /// The rounds seen, in order.
    pub rounds: Vec<f64>,
    /// Ratings with a round (the rest are left out of this section).
    pub ratings: usize,
    /// One trend per system, systems in the report's order.
    pub trends: Vec<SystemTrend>,
    /// The mixed model; `null` when it cannot be fitted (see `notes`).
    pub mixed_model: Option<MixedModel>,
    /// Why something is `null`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
}

/// One system's ratings against the round.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct SystemTrend {
    pub system: String,
    /// Ratings (points of the fit).
    pub n: usize,
    /// Least-squares slope per round (as `scipy.stats.linregress`); `null` with fewer than 3
    /// ratings or a single round.
    pub slope: Option<f64>,
    pub intercept: Option<f64>,
    pub slope_se: Option<f64>,
    /// The slope's 95% t interval: slope ± t₀.₉₇₅(n − 2) · SE.
    pub slope_ci95: Option<Ci>,
    /// Two-sided p of slope = 0 (t test, n − 2 degrees of freedom).
    pub p_value: Option<f64>,
    /// Pearson's r.
    pub r: Option<f64>,
    /// Spearman's rho (as `scipy.stats.spearmanr`); `null` when the ratings are constant.
    pub spearman_rho: Option<f64>,
    pub spearman_p: Option<f64>,
    /// The mean rating in each round the system was rated in, rounds in order (for a chart).
    pub means: Vec<RoundMean>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
}

/// A system's ratings in one round.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, schemars::JsonSchema)]
pub struct RoundMean {
    pub round: f64,
    pub n: usize,
    pub mean: f64,
}

/// The fitted mixed model.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct MixedModel {
    /// `rating ~ system + round + system:round + (1 | annotator)`.
    pub formula: String,
    /// The reference system of the treatment coding: `--reference` when given (and rated), else
    /// the study's first system that was rated, else the first in byte order.
    pub reference: String,
    /// `REML`.
    pub method: &'static str,
    pub n_obs: usize,
    /// Annotators.
    pub n_groups: usize,
    /// Named as patsy names them: `Intercept`, `system[T.x]`, `round`, `system[T.x]:round`.
    pub fixed_effects: Vec<FixedEffect>,
    /// Variance of the annotators' random intercepts.
    pub annotator_variance: f64,
    /// Residual variance.
    pub residual_variance: f64,
    /// The restricted log-likelihood at the estimate.
    pub log_likelihood: f64,
    pub converged: bool,
    /// The annotator variance is at its bound, 0 (the fit is then ordinary least squares).
    pub boundary: bool,
    /// How the fixed effects' intervals are made: Wald, estimate ± z₀.₉₇₅ · SE with the normal
    /// quantile (the z tests' reference distribution; no degrees of freedom).
    pub intervals: &'static str,
    /// The joint Wald test that every `system[T.x]:round` term is 0 (the systems' slopes over
    /// rounds are all equal); `null` with a single system.
    pub interaction_test: Option<JointTest>,
}

/// A joint Wald chi-square test of several fixed effects being 0 together.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct JointTest {
    /// The terms tested.
    pub terms: Vec<String>,
    pub chi2: f64,
    pub df: usize,
    pub p_value: f64,
}

/// One fixed effect with its model-based standard error and Wald z test.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct FixedEffect {
    pub name: String,
    pub estimate: f64,
    pub se: f64,
    pub z: f64,
    pub p_value: f64,
    /// The 95% Wald interval, estimate ± 1.959964 · SE.
    pub ci95: Ci,
}

/// The rounds section of one dimension from its raw rating rows; `systems` in report order,
/// `preferred` the study's systems (their order picks the reference), `asked` the reference
/// asked for, which wins when it has ratings with a round. `None` when fewer than two distinct
/// rounds were rated.
pub fn rounds(
    rows: &[&RatingRow],
    systems: &[String],
    preferred: &[String],
    asked: Option<&str>,
) -> Option<Rounds> {
    let with_round: Vec<(&RatingRow, f64)> = rows
        .iter()
        .filter_map(|r| r.round.map(|round| (*r, round)))
        .collect();
    let distinct: BTreeSet<u64> = with_round.iter().map(|(_, r)| r.to_bits()).collect();
    if distinct.len() < 2 {
        return None;
    }
    let mut seen: Vec<f64> = distinct.iter().map(|b| f64::from_bits(*b)).collect();
    seen.sort_by(f64::total_cmp);

    let mut trends = Vec::new();
    for system in systems {
        let (x, y): (Vec<f64>, Vec<f64>) = with_round
            .iter()
            .filter(|(r, _)| r.system == *system)
            .map(|(r, round)| (*round, r.score))
            .unzip();
        if x.is_empty() {
            continue;
        }
        trends.push(system_trend(system, &x, &y));
    }

    let mut notes = Vec::new();
    let rated: Vec<&String> = systems
        .iter()
        .filter(|s| with_round.iter().any(|(r, _)| r.system == **s))
        .collect();
    let fallback = preferred
        .iter()
        .find(|s| rated.contains(s))
        .or_else(|| rated.iter().copied().min())
        .cloned();
    let reference = match asked {
        Some(asked) if rated.iter().any(|s| *s == asked) => Some(asked.to_owned()),
        Some(asked) => {
            notes.push(format!(
                "the reference system \"{asked}\" has no ratings with a round here; the \
                 reference is \"{}\"",
                fallback.as_deref().unwrap_or("none")
            ));
            fallback
        }
        None => fallback,
    };
    let mixed_model = reference.and_then(|reference| {
        let mut order: Vec<&str> = vec![reference.as_str()];
        order.extend(rated.iter().map(|s| s.as_str()).filter(|s| *s != reference));
        match mixed_fit(rows, &order) {
            Ok(fit) => Some(MixedModel {
                formula: "rating ~ system + round + system:round + (1 | annotator)".to_owned(),
                reference: reference.clone(),
                method: "REML",
                n_obs: fit.n_obs,
                n_groups: fit.n_groups,
                fixed_effects: fit
                    .fixed_effects
                    .iter()
                    .map(|f| FixedEffect {
                        name: f.name.clone(),
                        estimate: f.estimate,
                        se: f.se,
                        z: f.z,
                        p_value: f.p_value,
                        ci95: wald_ci(f.estimate, f.se),
                    })
                    .collect(),
                annotator_variance: fit.group_variance,
                residual_variance: fit.residual_variance,
                log_likelihood: fit.log_likelihood,
                converged: fit.converged,
                boundary: fit.boundary,
                intervals: "Wald: estimate ± 1.959964 · SE (normal quantile)",
                interaction_test: interaction_test(&fit),
            }),
            Err(e) => {
                notes.push(format!("mixed model not fitted: {e}"));
                None
            }
        }
    });

    Some(Rounds {
        rounds: seen,
        ratings: with_round.len(),
        trends,
        mixed_model,
        notes,
    })
}

/// The mixed model `rating ~ system + round + system:round + (1 | annotator)` on the ratings
/// of `rows` that have a round, systems in `order` (the first is the reference; every system
/// must have such a rating, and only these systems' ratings are used).
pub fn mixed_fit(rows: &[&RatingRow], order: &[&str]) -> Result<MixedFit, MixedError> {
    let ratings: Vec<RoundRating<'_>> = rows
        .iter()
        .filter(|r| order.contains(&r.system.as_str()))
        .filter_map(|r| {
            r.round.map(|round| RoundRating {
                annotator: &r.annotator,
                system: &r.system,
                round,
                rating: r.score,
            })
        })
        .collect();
    MixedData::system_by_round(order, &ratings).and_then(|d| mixed::reml(&d))
}

/// The 95% Wald interval estimate ± z₀.₉₇₅ · SE.
pub fn wald_ci(estimate: f64, se: f64) -> Ci {
    let z = special::normal_quantile(0.5 + LEVEL / 2.0);
    Ci {
        low: estimate - z * se,
        high: estimate + z * se,
    }
}

/// The joint Wald test of every `system[T.x]:round` term of `fit`.
fn interaction_test(fit: &MixedFit) -> Option<JointTest> {
    let (columns, terms): (Vec<usize>, Vec<String>) = fit
        .fixed_effects
        .iter()
        .enumerate()
        .filter(|(_, f)| f.name.starts_with("system[") && f.name.ends_with(":round"))
        .map(|(i, f)| (i, f.name.clone()))
        .unzip();
    let w = fit.wald(&columns).ok()?;
    Some(JointTest {
        terms,
        chi2: w.chi2,
        df: w.df,
        p_value: w.p_value,
    })
}

fn round_means(x: &[f64], y: &[f64]) -> Vec<RoundMean> {
    let mut by: Vec<(f64, f64)> = x.iter().copied().zip(y.iter().copied()).collect();
    by.sort_by(|a, b| a.0.total_cmp(&b.0));
    let mut out: Vec<RoundMean> = Vec::new();
    let mut sums: Vec<f64> = Vec::new();
    for (round, rating) in by {
        match out.last_mut() {
            Some(last) if last.round == round => {
                last.n += 1;
                *sums.last_mut().unwrap_or(&mut 0.0) += rating;
            }
            _ => {
                out.push(RoundMean {
                    round,
                    n: 1,
                    mean: 0.0,
                });
                sums.push(rating);
            }
        }
    }
    for (m, sum) in out.iter_mut().zip(sums) {
        m.mean = sum / m.n as f64;
    }
    out
}

fn system_trend(system: &str, x: &[f64], y: &[f64]) -> SystemTrend {
    let mut out = SystemTrend {
        system: system.to_owned(),
        n: x.len(),
        slope: None,
        intercept: None,
        slope_se: None,
        slope_ci95: None,
        p_value: None,
        r: None,
        spearman_rho: None,
        spearman_p: None,
        means: round_means(x, y),
        notes: Vec::new(),
    };
    if x.iter().all(|v| *v == x[0]) {
        out.notes
            .push("every rating is from one round: no slope".to_owned());
        return out;
    }
    if y.iter().all(|v| *v == y[0]) {
        out.slope = Some(0.0);
        out.intercept = Some(y[0]);
        out.notes
            .push("every rating is the same: slope 0, nothing to test".to_owned());
        return out;
    }
    match trend(x, y) {
        Ok(t) => {
            let finite = |v: f64| v.is_finite().then_some(v);
            out.slope = finite(t.fit.slope);
            out.intercept = finite(t.fit.intercept);
            out.slope_se = finite(t.fit.slope_se);
            out.p_value = finite(t.fit.p_value);
            let (low, high) = t.fit.slope_ci(LEVEL);
            out.slope_ci95 = (low.is_finite() && high.is_finite()).then_some(Ci { low, high });
            out.r = finite(t.fit.r);
            match t.spearman {
                Some(s) => {
                    out.spearman_rho = finite(s.rho);
                    out.spearman_p = finite(s.p_value);
                }
                None => out
                    .notes
                    .push("the ratings are all the same: no rank correlation".to_owned()),
            }
        }
        Err(e) => out.notes.push(format!("no trend: {e}")),
    }
    out
}
