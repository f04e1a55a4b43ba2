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

pub use super::data::{ChoiceKind, ChoiceRow};
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

/// The choices' report; `None` without best-of-N choices or rankings.
pub fn report(rows: &[ChoiceRow]) -> Option<ChoiceReport> {
    let best: Vec<&ChoiceRow> = rows
        .iter()
        .filter(|r| matches!(r.kind, ChoiceKind::Best(_)))
        .collect();
    let ranks: Vec<&ChoiceRow> = rows
        .iter()
        .filter(|r| matches!(r.kind, ChoiceKind::Rank(_)))
        .collect();
    if best.is_empty() && ranks.is_empty() {
        return None;
    }
    Some(ChoiceReport {
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
        if let ChoiceKind::Best(s) = &r.kind {
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
        if let ChoiceKind::Best(s) = &r.kind
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
        if let ChoiceKind::Rank(order) = &r.kind {
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
            ChoiceKind::Rank(order) if order.len() == names.len() => names
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
