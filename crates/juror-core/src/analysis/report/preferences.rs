//! The pairwise preferences of a report: per pair of systems the wins, losses and ties with
//! their intervals and binomial test, Bradley–Terry strengths with bootstrap intervals, the
//! leaderboard (arena-scale ratings with sandwich intervals and rank intervals), and agreement
//! on preferences (units: an item and a pair of systems).

use std::collections::{BTreeSet, HashMap};

use serde::Serialize;

use super::types::*;
use crate::analysis::data::{Ci, LEVEL, PreferenceRow, ordered, pairable_units};
use crate::stats::agreement::{
    Metric, Ratings, fleiss_kappa, krippendorff_alpha, pairwise, percent_agreement,
};
use crate::stats::describe::Interval;
use crate::stats::preference::davidson::davidson;
use crate::stats::preference::sandwich::{Rating, SandwichOptions, bradley_terry_sandwich};
use crate::stats::preference::{
    BradleyTerryOptions, Comparison, Outcome, Tally, bradley_terry, bradley_terry_bootstrap,
};
use crate::stats::sequential::share_sequence;
use crate::study::analysis_plan::{AnalysisPlan, Ties};

/// Bradley–Terry ratings as LMArena's leaderboard gives them (arena-rank's scale: 400 points a
/// factor of 10 in odds, mean 1000), with sandwich 95% intervals, the same clustered by
/// annotator, and confidence sets for ranks; ties as halves, or by Davidson's model.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct Leaderboard {
    /// Systems by rating, highest first.
    pub systems: Vec<LeaderboardRow>,
    /// Annotators the clustered intervals group the judgements by (0: no clustered interval,
    /// fewer than [`MIN_CLUSTERS`] annotators).
    pub annotators: usize,
    pub converged: bool,
    /// How the ratings count a tie: `halves`, or `davidson` (Davidson's model).
    pub ties: Ties,
    /// Davidson's tie parameter, when the ratings are Davidson's.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tie_parameter: Option<TieReport>,
    /// Why Davidson's model was asked for but the ties are counted as halves.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// Davidson's tie parameter ν with its sandwich 95% interval, and how often two systems of
/// equal rating tie, ν/(2 + ν).
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct TieReport {
    pub nu: f64,
    pub se: f64,
    pub ci95: Ci,
    pub tie_probability: f64,
    pub tie_probability_ci95: Ci,
}

/// One system on the leaderboard.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct LeaderboardRow {
    pub system: String,
    pub rating: f64,
    /// Sandwich (HC0) standard error and 95% interval, as arena-rank computes them.
    pub se: f64,
    pub ci95: Ci,
    /// The same with the judgements clustered by annotator (CR0).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ci95_clustered: Option<Ci>,
    /// 1 + the systems whose lower bound is above this one's upper bound (Chatbot Arena's).
    pub rank: usize,
    /// The confidence set for this system's rank, from Bonferroni-simultaneous intervals of
    /// every difference (sandwich covariance): [best, worst].
    pub rank_interval: [usize; 2],
}

/// The fewest annotators for the clustered interval: with fewer clusters CR0 is too narrow
/// (Cameron and Miller 2015, "A practitioner's guide to cluster-robust inference").
pub const MIN_CLUSTERS: usize = 10;

/// One fit of the leaderboard: its ratings, the clustered ratings, whether it converged, and
/// Davidson's tie parameter.
type Fitted = (Vec<Rating>, Option<Vec<Rating>>, bool, Option<TieReport>);

/// The leaderboard of `rows`, or `None` when the ratings do not exist (a system that never won
/// or never lost, comparisons in parts) or there are fewer than two systems. Davidson's model,
/// when it has no fit (no tie, only ties), gives way to ties as halves, with a note saying why.
fn leaderboard(
    systems: &[String],
    comparisons: &[Comparison],
    rows: &[PreferenceRow],
    ties: Ties,
) -> Option<Leaderboard> {
    let options = SandwichOptions::default();
    let annotators: Vec<String> = rows.iter().map(|r| r.annotator.to_string()).collect();
    let distinct = annotators.iter().collect::<BTreeSet<_>>().len();
    let clusters = (distinct >= MIN_CLUSTERS).then_some(annotators.as_slice());
    let halves = || -> Option<Fitted> {
        let fit = bradley_terry_sandwich(systems, comparisons, None, &options).ok()?;
        let clustered = clusters
            .and_then(|c| bradley_terry_sandwich(systems, comparisons, Some(c), &options).ok());
        Some((
            fit.ratings,
            clustered.map(|c| c.ratings),
            fit.converged,
            None,
        ))
    };
    let (fitted, used, note) = match ties {
        Ties::Halves => (halves()?, Ties::Halves, None),
        Ties::Davidson => match davidson(systems, comparisons, None, &options) {
            Ok(fit) => {
                let clustered =
                    clusters.and_then(|c| davidson(systems, comparisons, Some(c), &options).ok());
                let t = &fit.ties;
                let tie = TieReport {
                    nu: t.nu,
                    se: t.se,
                    ci95: Ci {
                        low: t.lower,
                        high: t.upper,
                    },
                    tie_probability: t.tie_probability,
                    tie_probability_ci95: Ci {
                        low: t.tie_lower,
                        high: t.tie_upper,
                    },
                };
                let fitted = (
                    fit.ratings,
                    clustered.map(|c| c.ratings),
                    fit.converged,
                    Some(tie),
                );
                (fitted, Ties::Davidson, None)
            }
            Err(e) => (
                halves()?,
                Ties::Halves,
                Some(format!(
                    "Davidson's model has no fit here ({e}); ties are counted as halves"
                )),
            ),
        },
    };
    let (ratings, clustered, converged, tie_parameter) = fitted;
    let mut out: Vec<LeaderboardRow> = ratings
        .iter()
        .map(|r| LeaderboardRow {
            system: r.system.clone(),
            rating: r.rating,
            se: r.se,
            ci95: Ci {
                low: r.lower,
                high: r.upper,
            },
            ci95_clustered: clustered
                .as_ref()
                .and_then(|c| c.iter().find(|x| x.system == r.system))
                .map(|c| Ci {
                    low: c.lower,
                    high: c.upper,
                }),
            rank: r.leaderboard_rank,
            rank_interval: [r.rank_lower, r.rank_upper],
        })
        .collect();
    out.sort_by(|a, b| b.rating.total_cmp(&a.rating).then(a.system.cmp(&b.system)));
    Some(Leaderboard {
        systems: out,
        annotators: if clustered.is_some() { distinct } else { 0 },
        converged,
        ties: used,
        tie_parameter,
        note,
    })
}

/// The code of a preference label from the point of view of the pair in byte order (x, y):
/// 0 tie, 1 x preferred, 2 y preferred (PandaLM's coding).
pub fn preference_code(row: &PreferenceRow) -> f64 {
    let (x, _) = ordered(&row.system_a, &row.system_b);
    let x_shown_first = row.system_a == x;
    match (row.outcome, x_shown_first) {
        (Outcome::Tie, _) => 0.0,
        (Outcome::A, true) | (Outcome::B, false) => 1.0,
        (Outcome::B, true) | (Outcome::A, false) => 2.0,
    }
}

/// The agreement unit of a judgement: the item and the pair of systems in byte order.
pub fn preference_unit(row: &PreferenceRow) -> String {
    let (x, y) = ordered(&row.system_a, &row.system_b);
    format!("{}{UNIT_SEPARATOR}{x}{UNIT_SEPARATOR}{y}", row.item)
}

/// The agreement matrix of the preference labels: units (item, pair), raters annotators, in
/// order of first appearance, on the scale {0, 1, 2} of [`preference_code`].
pub fn preference_matrix(rows: &[PreferenceRow]) -> Option<Ratings> {
    let triples = rows
        .iter()
        .map(|r| (preference_unit(r), r.annotator.clone(), preference_code(r)));
    Ratings::from_triples(triples)
        .and_then(|r| r.with_scale(&[0.0, 1.0, 2.0]))
        .ok()
}

/// Whether the comparisons join every system to every other, directly or through others
/// (the graph of pairs compared, whoever won, is in one piece). Systems in two pieces were never
/// compared, even indirectly: their Bradley–Terry strengths are not comparable, so the report
/// gives them no bootstrap interval. Such a bootstrap would also be pathologically slow: with a
/// piece's system that never lost, no resample converges and each runs to the iteration cap
/// (2000 resamples × 100,000 iterations; ratings of a published study read without the key
/// give one piece per item, and took a minute).
fn in_one_piece(systems: &[String], pairs: &[PreferencePair]) -> bool {
    let index = |name: &str| systems.iter().position(|s| s == name);
    let mut parent: Vec<usize> = (0..systems.len()).collect();
    fn root(parent: &mut [usize], mut i: usize) -> usize {
        while parent[i] != i {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        i
    }
    for pair in pairs {
        if let (Some(a), Some(b)) = (index(&pair.system_a), index(&pair.system_b)) {
            let (ra, rb) = (root(&mut parent, a), root(&mut parent, b));
            parent[ra] = rb;
        }
    }
    let roots = (0..systems.len())
        .filter(|&i| root(&mut parent, i) == i)
        .count();
    roots <= 1
}

/// The judgements as the statistics take them, in the order read.
pub fn comparisons(rows: &[PreferenceRow]) -> Vec<Comparison> {
    rows.iter()
        .map(|r| Comparison::new(r.system_a.clone(), r.system_b.clone(), r.outcome))
        .collect()
}

/// The anytime-valid 95% confidence sequence of `a`'s win rate against `b` (ties left out, as
/// in the win rate), the judgements in the order read.
fn win_sequence(comparisons: &[Comparison], a: &str, b: &str) -> Option<Ci> {
    let wins: Vec<f64> = comparisons
        .iter()
        .filter_map(|c| {
            let a_first = c.a == a && c.b == b;
            let b_first = c.a == b && c.b == a;
            if !(a_first || b_first) {
                return None;
            }
            match (c.outcome, a_first) {
                (Outcome::Tie, _) => None,
                (Outcome::A, true) | (Outcome::B, false) => Some(1.0),
                _ => Some(0.0),
            }
        })
        .collect();
    share_sequence(&wins, 1.0 - LEVEL).ok().map(|s| Ci {
        low: s.low,
        high: s.high,
    })
}

pub(super) fn preference_report(
    rows: &[PreferenceRow],
    options: &Options,
    plan: &AnalysisPlan,
) -> Option<PreferenceReport> {
    if rows.is_empty() {
        return None;
    }
    let comparisons = comparisons(rows);
    let tally = Tally::from_comparisons(&comparisons).ok()?;
    let systems = tally.systems().to_vec();
    let mut pairs = Vec::new();
    for (i, a) in systems.iter().enumerate() {
        for b in &systems[i + 1..] {
            let Some(record) = tally.record(a, b) else {
                continue;
            };
            if record.wins + record.losses + record.ties == 0 {
                continue;
            }
            let rate = record.win_rate(LEVEL).ok();
            pairs.push(PreferencePair {
                system_a: a.clone(),
                system_b: b.clone(),
                wins: record.wins,
                losses: record.losses,
                ties: record.ties,
                win_rate: rate.map(|r| r.rate),
                wilson: rate.map(|r| r.wilson.into()),
                clopper_pearson: rate.map(|r| r.clopper_pearson.into()),
                p_value: rate.map(|r| r.p_value),
                anytime_ci95: plan
                    .sequential
                    .and_then(|_| win_sequence(&comparisons, a, b)),
            });
        }
    }
    let bt_options = BradleyTerryOptions::default();
    let whole = in_one_piece(&systems, &pairs);
    let bradley_terry = bradley_terry(&tally, &bt_options).ok().map(|fit| {
        // Without strong connection the strengths have no maximum (a system that never lost
        // heads for 1 as the iterations go on): the full fit's values are where the iteration
        // cap stopped, and a bootstrap of them would measure the cap, not the data (and run
        // every resample to it). Such a ranking gets no interval, as one in pieces gets none.
        let intervals: HashMap<String, (Option<Interval>, usize)> =
            if whole && fit.strongly_connected && plan.bt_intervals.bootstrap() {
                bradley_terry_bootstrap(
                    &comparisons,
                    &bt_options,
                    LEVEL,
                    options.resamples,
                    options.seed,
                )
                .map(|v| {
                    v.into_iter()
                        .map(|s| (s.system, (s.interval, s.resamples_used)))
                        .collect()
                })
                .unwrap_or_default()
            } else {
                HashMap::new()
            };
        BradleyTerryReport {
            scores: fit
                .systems
                .iter()
                .zip(&fit.strengths)
                .map(|(s, &score)| {
                    let (ci, used) = intervals.get(s).copied().unwrap_or((None, 0));
                    (
                        s.clone(),
                        BradleyTerryScore {
                            score,
                            ci: ci.map(Ci::from),
                            resamples_used: used,
                        },
                    )
                })
                .collect(),
            iterations: fit.iterations,
            converged: fit.converged,
            strongly_connected: fit.strongly_connected,
            never_won: fit.never_won,
            never_lost: fit.never_lost,
            level: LEVEL,
            resamples: options.resamples,
            seed: options.seed,
        }
    });
    let agreement = match preference_matrix(rows) {
        Some(ratings) => PreferenceAgreement {
            units: pairable_units(&ratings),
            annotators: ratings.raters().len(),
            fleiss_kappa: fleiss_kappa(&ratings),
            krippendorff_alpha: NominalAlpha {
                nominal: krippendorff_alpha(&ratings, Metric::Nominal),
            },
            cohen_kappa: pairwise(&ratings)
                .into_iter()
                .filter(|p| p.units > 0)
                .map(|p| CohenPreferencePair {
                    annotator_a: p.rater_a,
                    annotator_b: p.rater_b,
                    units: p.units,
                    agreement: p.agreement,
                    unweighted: p.unweighted,
                })
                .collect(),
            percent_agreement: percent_agreement(&ratings),
        },
        None => PreferenceAgreement {
            units: 0,
            annotators: 0,
            fleiss_kappa: None,
            krippendorff_alpha: NominalAlpha { nominal: None },
            cohen_kappa: Vec::new(),
            percent_agreement: None,
        },
    };
    let leaderboard = plan
        .bt_intervals
        .sandwich()
        .then(|| leaderboard(&systems, &comparisons, rows, plan.ties))
        .flatten();
    Some(PreferenceReport {
        judgements: rows.len(),
        derived_from_choices: rows.iter().filter(|r| r.derived).count(),
        systems,
        leaderboard,
        pairs,
        bradley_terry,
        agreement,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pair(a: &str, b: &str) -> PreferencePair {
        PreferencePair {
            system_a: a.to_owned(),
            system_b: b.to_owned(),
            wins: 1,
            losses: 0,
            ties: 0,
            win_rate: None,
            wilson: None,
            clopper_pearson: None,
            p_value: None,
            anytime_ci95: None,
        }
    }

    #[test]
    fn systems_joined_only_through_others_are_in_one_piece_and_two_parts_are_not() {
        let systems: Vec<String> = ["a", "b", "c", "d"].map(String::from).to_vec();
        let chain = [pair("a", "b"), pair("c", "b"), pair("d", "c")];
        assert!(in_one_piece(&systems, &chain));
        let apart = [pair("a", "b"), pair("c", "d")];
        assert!(!in_one_piece(&systems, &apart));
    }
}
