//! Choices among several outputs, as they were made: "which of these is best?" (best of N) and
//! rankings of all the outputs shown.
//!
//! A best-of-N choice is one judgement, not N − 1 pairwise wins: per system, the share of the
//! choices it won among those that offered it (Wilson interval), the chi-square goodness of fit
//! against equal shares (and the exact multinomial test while it can be enumerated) when every
//! choice offered the same systems, and agreement on the chosen system (Fleiss' κ,
//! Krippendorff's α nominal, percent agreement; units = items). A ranking gives each system its
//! rank (1 = best): per system the mean rank with its 95% t interval, and over the rankings
//! of every system the Friedman test with Kendall's W. The pairwise wins derived from choices
//! and rankings stay in the report's `preferences`, marked as derived
//! (`preferences.derived_from_choices`): a secondary view.

use std::collections::BTreeMap;

use serde::Serialize;

pub use super::data::{ChoiceRow, Chosen};
use super::data::{Ci, share_of};
use crate::stats::agreement::{
    Metric, Ratings, fleiss_kappa, krippendorff_alpha, percent_agreement,
};
use crate::stats::nominal::{chi_square_equal, friedman, multinomial_exact_equal};
use crate::stats::paired::describe;

/// The choices and rankings of a report.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct ChoiceReport {
    /// Best-of-N choices (three or more outputs shown).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub best: Option<BestReport>,
    /// Rankings of the outputs shown.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ranks: Option<RankReport>,
    /// Best–worst scaling.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub best_worst: Option<BestWorstReport>,
}

/// Best–worst scaling: per system its counts, counting score and maxdiff utility.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct BestWorstReport {
    /// Judgements (one best and one worst each).
    pub judgements: usize,
    /// Items judged, the units the bootstrap resamples.
    pub items: usize,
    /// Per system, in byte order.
    pub systems: Vec<BestWorstSystem>,
    /// The maxdiff fit's log-likelihood; `null` when the likelihood has no maximum (see
    /// `notes`).
    pub maxdiff_log_likelihood: Option<f64>,
    /// Split-half reliability of the counting scores (random halves of the judgements).
    pub split_half: Option<SplitHalfReport>,
    /// Position bias: per position of a tuple, how often the output there was chosen best and
    /// worst.
    pub positions: Vec<BestWorstPosition>,
    pub notes: Vec<String>,
}

/// One system's best–worst results.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct BestWorstSystem {
    pub system: String,
    pub shown: u64,
    pub best: u64,
    pub worst: u64,
    /// (best − worst) / shown.
    pub counting_score: Option<f64>,
    /// 95% percentile bootstrap interval of the counting score, resampling items.
    pub counting_ci: Option<Ci>,
    /// The maxdiff utility, centred on mean 0.
    pub utility: Option<f64>,
    /// Its standard error (observed information).
    pub utility_se: Option<f64>,
    /// utility ± 1.96 se.
    pub utility_ci: Option<Ci>,
}

/// Split-half reliability.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, schemars::JsonSchema)]
pub struct SplitHalfReport {
    pub splits: usize,
    /// The mean Spearman correlation of the halves' counting scores.
    pub mean_rho: f64,
    /// 2ρ / (1 + ρ).
    pub spearman_brown: f64,
}

/// Choices by position in best–worst tuples.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct BestWorstPosition {
    /// From 1.
    pub position: usize,
    /// Judgements whose tuple had this position.
    pub judgements: u64,
    pub best: u64,
    pub worst: u64,
    pub best_share: Option<f64>,
    pub worst_share: Option<f64>,
}

/// Random halves per split-half estimate.
pub const SPLITS: usize = 100;

/// The best–worst report of `rows` (best–worst rows only).
pub fn best_worst_report(rows: &[&ChoiceRow], seed: u64, resamples: usize) -> BestWorstReport {
    use crate::stats::best_worst::{Tuple, bootstrap_scores, counts, maxdiff, split_half};
    let mut systems: Vec<&str> = rows
        .iter()
        .flat_map(|r| r.shown.iter().map(String::as_str))
        .collect();
    systems.sort_unstable();
    systems.dedup();
    let mut items: Vec<&str> = rows.iter().map(|r| r.item.as_str()).collect();
    items.sort_unstable();
    items.dedup();
    let index = |s: &str| systems.binary_search(&s).unwrap_or(0);
    let mut positions: Vec<BestWorstPosition> = Vec::new();
    let tuples: Vec<Tuple> = rows
        .iter()
        .filter_map(|r| match &r.kind {
            Chosen::BestWorst { best, worst } => {
                for (p, s) in r.shown.iter().enumerate() {
                    if positions.len() <= p {
                        positions.push(BestWorstPosition {
                            position: p + 1,
                            judgements: 0,
                            best: 0,
                            worst: 0,
                            best_share: None,
                            worst_share: None,
                        });
                    }
                    let at = &mut positions[p];
                    at.judgements += 1;
                    at.best += u64::from(s == best);
                    at.worst += u64::from(s == worst);
                }
                Some(Tuple {
                    item: items.binary_search(&r.item.as_str()).unwrap_or(0),
                    shown: r.shown.iter().map(|s| index(s)).collect(),
                    best: index(best),
                    worst: index(worst),
                })
            }
            _ => None,
        })
        .collect();
    for p in &mut positions {
        p.best_share = share_of(p.best, p.judgements).0;
        p.worst_share = share_of(p.worst, p.judgements).0;
    }
    let m = systems.len();
    let c = counts(m, &tuples);
    let ci = bootstrap_scores(m, &tuples, super::data::LEVEL, resamples, seed);
    let mut notes = Vec::new();
    let fit = match maxdiff(m, &tuples) {
        Ok(f) => Some(f),
        Err(_) => {
            notes.push(
                "no maxdiff utilities: the likelihood has no maximum (a system always chosen \
                 best or always worst, or too few judgements); the counting scores stand"
                    .to_owned(),
            );
            None
        }
    };
    let z = crate::stats::special::normal_quantile(1.0 - (1.0 - super::data::LEVEL) / 2.0);
    BestWorstReport {
        judgements: tuples.len(),
        items: items.len(),
        systems: systems
            .iter()
            .enumerate()
            .map(|(i, s)| {
                let u = fit.as_ref().map(|f| (f.utilities[i], f.se[i]));
                BestWorstSystem {
                    system: (*s).to_owned(),
                    shown: c[i].shown,
                    best: c[i].best,
                    worst: c[i].worst,
                    counting_score: c[i].score(),
                    counting_ci: ci[i].map(|(low, high)| Ci { low, high }),
                    utility: u.map(|u| u.0),
                    utility_se: u.map(|u| u.1),
                    utility_ci: u.map(|(u, se)| Ci {
                        low: u - z * se,
                        high: u + z * se,
                    }),
                }
            })
            .collect(),
        maxdiff_log_likelihood: fit.as_ref().map(|f| f.log_likelihood),
        split_half: split_half(m, &tuples, SPLITS, seed).map(|s| SplitHalfReport {
            splits: s.splits,
            mean_rho: s.mean_rho,
            spearman_brown: s.spearman_brown,
        }),
        positions,
        notes,
    }
}

/// Best-of-N choices.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct BestReport {
    /// Choices made: one per trial.
    pub choices: usize,
    /// Per system, in byte order.
    pub systems: Vec<ChoiceShare>,
    /// Pearson's chi-square against equal shares; `null` when the choices offered different
    /// sets of systems (see `notes`).
    pub chi_square: Option<ChiSquareResult>,
    /// The exact multinomial test against equal shares, while it can be enumerated (200 choices
    /// and 6 systems at most).
    pub exact_p: Option<f64>,
    /// Agreement on the chosen system, units = items chosen on by two or more annotators.
    pub agreement: ChoiceAgreement,
    pub notes: Vec<String>,
}

/// One system's share of the choices that offered it.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct ChoiceShare {
    pub system: String,
    /// Choices that showed it.
    pub offered: u64,
    /// Choices it won.
    pub chosen: u64,
    /// chosen / offered.
    pub share: Option<f64>,
    /// The 95% Wilson interval of the share.
    pub wilson: Option<Ci>,
}

/// A chi-square test.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, schemars::JsonSchema)]
pub struct ChiSquareResult {
    pub statistic: f64,
    pub df: usize,
    pub p_value: f64,
}

/// Agreement on a nominal answer (the chosen system).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, schemars::JsonSchema)]
pub struct ChoiceAgreement {
    /// Units answered by at least two annotators.
    pub units: usize,
    pub annotators: usize,
    pub fleiss_kappa: Option<f64>,
    pub krippendorff_alpha_nominal: Option<f64>,
    pub percent_agreement: Option<f64>,
}

/// Rankings.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct RankReport {
    pub rankings: usize,
    /// Per system, in byte order: its ranks (1 = best) over the rankings that showed it.
    pub systems: Vec<MeanRank>,
    /// Over the rankings of every system (complete blocks): Friedman with Kendall's W.
    pub friedman: Option<FriedmanResult>,
    pub notes: Vec<String>,
}

/// A system's mean rank.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct MeanRank {
    pub system: String,
    pub n: usize,
    pub mean_rank: f64,
    /// The 95% t interval of the mean rank.
    pub ci95: Option<Ci>,
}

/// The Friedman test over complete rankings.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, schemars::JsonSchema)]
pub struct FriedmanResult {
    /// Rankings of every system.
    pub blocks: usize,
    pub statistic: f64,
    pub df: usize,
    pub p_value: f64,
    /// Kendall's W, from the tie-corrected statistic: W = χ²_F / (n (k − 1)).
    pub kendall_w: f64,
}

/// The choices' report; `None` without best-of-N choices, rankings or best–worst judgements.
/// `seed` and `resamples` are the report's, for the best–worst bootstrap and split halves.
pub fn report(rows: &[ChoiceRow], seed: u64, resamples: usize) -> Option<ChoiceReport> {
    let best_worst: Vec<&ChoiceRow> = rows
        .iter()
        .filter(|r| matches!(r.kind, Chosen::BestWorst { .. }))
        .collect();
    let best: Vec<&ChoiceRow> = rows
        .iter()
        .filter(|r| matches!(r.kind, Chosen::Best(_)))
        .collect();
    let ranks: Vec<&ChoiceRow> = rows
        .iter()
        .filter(|r| matches!(r.kind, Chosen::Rank(_)))
        .collect();
    if best.is_empty() && ranks.is_empty() && best_worst.is_empty() {
        return None;
    }
    Some(ChoiceReport {
        best_worst: (!best_worst.is_empty())
            .then(|| best_worst_report(&best_worst, seed, resamples)),
        best: (!best.is_empty()).then(|| best_report(&best)),
        ranks: (!ranks.is_empty()).then(|| rank_report(&ranks)),
    })
}

fn best_report(rows: &[&ChoiceRow]) -> BestReport {
    let mut offered: BTreeMap<&str, u64> = BTreeMap::new();
    let mut chosen: BTreeMap<&str, u64> = BTreeMap::new();
    for r in rows {
        for s in &r.shown {
            *offered.entry(s).or_default() += 1;
        }
        if let Chosen::Best(s) = &r.kind {
            *chosen.entry(s).or_default() += 1;
        }
    }
    let systems: Vec<ChoiceShare> = offered
        .iter()
        .map(|(&system, &n)| {
            let k = chosen.get(system).copied().unwrap_or(0);
            let (share, wilson) = share_of(k, n);
            ChoiceShare {
                system: system.to_owned(),
                offered: n,
                chosen: k,
                share,
                wilson,
            }
        })
        .collect();
    let mut notes = Vec::new();
    let same_offer = {
        let mut sets = rows.iter().map(|r| {
            let mut s: Vec<&str> = r.shown.iter().map(String::as_str).collect();
            s.sort_unstable();
            s
        });
        let first = sets.next().unwrap_or_default();
        sets.all(|s| s == first) && first.len() == systems.len()
    };
    let counts: Vec<u64> = systems.iter().map(|s| s.chosen).collect();
    let (chi_square, exact_p) = if same_offer {
        (
            chi_square_equal(&counts).ok().map(|c| ChiSquareResult {
                statistic: c.statistic,
                df: c.df,
                p_value: c.p_value,
            }),
            multinomial_exact_equal(&counts).ok(),
        )
    } else {
        notes.push(
            "the choices offered different sets of systems, so the shares are not tested against equal shares"
                .to_owned(),
        );
        (None, None)
    };
    // Agreement on the chosen system, the categories being the systems' places in byte order.
    let index: BTreeMap<&str, usize> = offered.keys().enumerate().map(|(i, s)| (*s, i)).collect();
    let mut triples: Vec<(String, String, f64)> = Vec::new();
    let mut seen: BTreeMap<(&str, &str), ()> = BTreeMap::new();
    for r in rows {
        if let Chosen::Best(s) = &r.kind
            && seen.insert((&r.item, &r.annotator), ()).is_none()
        {
            let i = index.get(s.as_str()).copied().unwrap_or(0);
            triples.push((r.item.clone(), r.annotator.clone(), i as f64));
        }
    }
    let agreement = match Ratings::from_triples(triples) {
        Ok(ratings) => ChoiceAgreement {
            units: super::data::pairable_units(&ratings),
            annotators: ratings.raters().len(),
            fleiss_kappa: fleiss_kappa(&ratings),
            krippendorff_alpha_nominal: krippendorff_alpha(&ratings, Metric::Nominal),
            percent_agreement: percent_agreement(&ratings),
        },
        Err(_) => ChoiceAgreement {
            units: 0,
            annotators: 0,
            fleiss_kappa: None,
            krippendorff_alpha_nominal: None,
            percent_agreement: None,
        },
    };
    BestReport {
        choices: rows.len(),
        systems,
        chi_square,
        exact_p,
        agreement,
        notes,
    }
}

pub(crate) fn rank_report(rows: &[&ChoiceRow]) -> RankReport {
    let mut ranks: BTreeMap<&str, Vec<f64>> = BTreeMap::new();
    for r in rows {
        if let Chosen::Rank(order) = &r.kind {
            for (i, s) in order.iter().enumerate() {
                ranks.entry(s).or_default().push((i + 1) as f64);
            }
        }
    }
    let systems: Vec<MeanRank> = ranks
        .iter()
        .map(|(&system, rs)| {
            let d = describe(rs).ok();
            MeanRank {
                system: system.to_owned(),
                n: rs.len(),
                mean_rank: rs.iter().sum::<f64>() / rs.len() as f64,
                ci95: d.map(|d| d.ci95.into()),
            }
        })
        .collect();
    let names: Vec<&str> = ranks.keys().copied().collect();
    let mut notes = Vec::new();
    let blocks: Vec<Vec<f64>> = rows
        .iter()
        .filter_map(|r| match &r.kind {
            Chosen::Rank(order) if order.len() == names.len() => names
                .iter()
                .map(|n| order.iter().position(|s| s == n).map(|p| (p + 1) as f64))
                .collect(),
            _ => None,
        })
        .collect();
    if blocks.len() < rows.len() {
        notes.push(format!(
            "{} ranking(s) did not rank every system and are left out of the Friedman test",
            rows.len() - blocks.len()
        ));
    }
    let friedman = match friedman(&blocks) {
        Ok(f) => Some(FriedmanResult {
            blocks: blocks.len(),
            statistic: f.statistic,
            df: f.df,
            p_value: f.p_value,
            kendall_w: f.kendall_w,
        }),
        Err(e) => {
            notes.push(format!("Friedman test: {e}"));
            None
        }
    };
    RankReport {
        rankings: rows.len(),
        systems,
        friedman,
        notes,
    }
}
