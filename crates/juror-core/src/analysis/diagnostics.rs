//! Diagnostics: what a reviewer asks about the annotators and the presentation before trusting
//! the results. Position bias (mean score by the place an output was shown; how often the
//! output shown first wins), per annotator the time per trial, straight-lining (the same score
//! everywhere) and attention checks. Everything is shown; nothing is excluded: dropping an
//! annotator is the researcher's decision, to be reported in the paper.

use std::collections::{BTreeMap, HashMap};

use crate::base::fast_hash::FastHash;

use serde::Serialize;

use super::data::{Ci, Data, InputKind, LEVEL, RatingRow, TrialRow, number};
use crate::stats::describe;
use crate::stats::preference::{Outcome, win_rate};

/// An annotator whose median time per trial is under this share of the median annotator's
/// is warned about.
pub const FAST_SHARE: f64 = 1.0 / 3.0;

/// An annotator whose median active time per trial is under this many seconds is warned about,
/// whatever the others took: no one reads an output and answers a trial's questions in less
/// (two outputs, a rating each, and a key to go on take five presses in the keyboard flow,
/// about a second and a half for the hands alone). The relative rule ([`FAST_SHARE`]) cannot
/// see a whole crowd that clicks through.
pub const FAST_FLOOR_SECONDS: f64 = 2.0;

/// Straight-lining is warned about from this many ratings of one dimension up.
pub const STRAIGHT_MIN: usize = 5;

/// The diagnostics of the report.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct Diagnostics {
    /// Per dimension, the mean raw score by the position the output was shown in (trials that
    /// showed two or more outputs, repeated ratings included; empty when no rating records a
    /// position).
    pub position_scores: Vec<PositionScores>,
    /// How often the output shown first won; `null` when no judgement records the order.
    pub preference_position: Option<PreferencePosition>,
    /// One entry per annotator, in byte order.
    pub annotators: Vec<AnnotatorDiagnostics>,
    /// The rules an annotator's speed is warned by, with the median annotator's figure.
    pub speed: Speed,
    /// Ratings of an output its annotator had already rated in an earlier trial, over every
    /// annotator.
    pub repeats: RepeatSummary,
}

/// The speed rules: an annotator whose median active seconds per trial is under
/// `floor_seconds`, or under `share_of_median` of the median annotator's (with two annotators
/// or more), is warned about.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, schemars::JsonSchema)]
pub struct Speed {
    pub floor_seconds: f64,
    pub share_of_median: f64,
    /// The median over annotators of their median seconds per trial; `null` with fewer than
    /// two timed annotators.
    pub median_annotator_seconds: Option<f64>,
}

/// The repeated ratings of every annotator: an output shown again (a design that shows each
/// output in several pairs) and rated again on the same dimension. The first rating is the one
/// analysed (given before a repetition could anchor it); the repeats are only compared with it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, schemars::JsonSchema)]
pub struct RepeatSummary {
    /// Ratings given in finished trials of ratings files, repeats included.
    pub ratings_given: usize,
    /// Of those, repeats (not analysed).
    pub repeats: usize,
    /// Repeats equal to their first rating.
    pub same: usize,
    /// Repeats at most one scale point from their first rating (the equal ones included).
    pub within_one: usize,
}

/// One dimension's mean score by position.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct PositionScores {
    pub dimension: String,
    pub positions: Vec<PositionMean>,
}

/// The raw ratings given to outputs shown at one position.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct PositionMean {
    /// From 1.
    pub position: u32,
    pub n: usize,
    pub mean: f64,
    /// Sample SD (n − 1); `null` with one rating.
    pub sd: Option<f64>,
}

/// The first-shown output against the second, over judgements whose order is known.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct PreferencePosition {
    pub judgements: u64,
    /// The output shown first was preferred.
    pub first_wins: u64,
    /// The output shown second was preferred.
    pub second_wins: u64,
    pub ties: u64,
    /// first_wins / (first_wins + second_wins); ½ means no position bias. `null` when every
    /// judgement was a tie.
    pub first_win_rate: Option<f64>,
    pub wilson: Option<Ci>,
    /// Exact two-sided binomial test of rate ½ (ties excluded).
    pub p_value: Option<f64>,
}

/// One annotator.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct AnnotatorDiagnostics {
    pub annotator: String,
    /// Ratings kept (all dimensions).
    pub ratings: usize,
    /// Preference judgements kept.
    pub preferences: usize,
    /// Finished trials in ratings files, attention checks included (0 for CSV inputs).
    pub trials: usize,
    /// Active time over those trials, in minutes; `null` without trials.
    pub active_minutes: Option<f64>,
    /// Median active seconds per trial; `null` without trials.
    pub median_seconds_per_trial: Option<f64>,
    /// Per dimension, how varied the annotator's scores are.
    pub straight_lining: Vec<StraightLining>,
    pub attention_checks: AttentionChecks,
    /// Outputs rated again in a later trial (shown in several pairs), against the first rating.
    pub repeats: RepeatConsistency,
    /// What deserves a look, in words (empty when nothing does).
    pub warnings: Vec<String>,
}

/// One annotator's scores on one dimension.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct StraightLining {
    pub dimension: String,
    pub n: usize,
    /// Distinct scores given.
    pub distinct: usize,
    /// The most common score (the lowest of those equally common).
    pub most_common: f64,
    /// Its share of the annotator's ratings on this dimension.
    pub share: f64,
}

/// How consistently one annotator rated an output shown again.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, schemars::JsonSchema)]
pub struct RepeatConsistency {
    /// Repeated ratings.
    pub ratings: usize,
    /// Of those, equal to the annotator's first rating of the same output and dimension.
    pub same: usize,
    /// Of those, at most one scale point from the first rating (the equal ones included).
    pub within_one: usize,
    /// Mean |repeat − first|; `null` without repeats.
    pub mean_absolute_difference: Option<f64>,
}

/// One annotator's attention checks.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, schemars::JsonSchema)]
pub struct AttentionChecks {
    /// Finished attention-check trials.
    pub trials: usize,
    pub passed: usize,
    pub failed: usize,
    /// Without the study, or for a trial that did not show the checked output.
    pub not_evaluated: usize,
}

/// The diagnostics of `data` (raw ratings: adjudication plays no part here).
pub fn diagnostics(data: &Data, dimensions: &[String]) -> Diagnostics {
    let (annotators, speed) = annotators(data, dimensions);
    let repeats = annotators
        .iter()
        .fold(RepeatSummary::default(), |mut sum, a| {
            sum.repeats += a.repeats.ratings;
            sum.same += a.repeats.same;
            sum.within_one += a.repeats.within_one;
            sum
        });
    let from_files = data
        .ratings
        .iter()
        .filter(|r| {
            data.files
                .get(r.source.input)
                .is_some_and(|f| f.kind == InputKind::RatingsFile)
        })
        .count();
    Diagnostics {
        position_scores: position_scores(data, dimensions),
        preference_position: preference_position(data),
        annotators,
        speed,
        repeats: RepeatSummary {
            ratings_given: from_files + repeats.repeats,
            ..repeats
        },
    }
}

/// The mean and, with two values or more, the sample SD (n − 1).
fn mean_sd(xs: &[f64]) -> (f64, Option<f64>) {
    (describe::mean(xs), (xs.len() > 1).then(|| describe::sd(xs)))
}

fn position_scores(data: &Data, dimensions: &[String]) -> Vec<PositionScores> {
    let mut out = Vec::new();
    for dimension in dimensions {
        let mut by: BTreeMap<u32, Vec<f64>> = BTreeMap::new();
        let all = data.ratings.iter().chain(&data.repeats);
        for r in all.filter(|r| r.dimension == *dimension) {
            if let Some(p) = r.position {
                by.entry(p).or_default().push(r.score);
            }
        }
        if by.is_empty() {
            continue;
        }
        out.push(PositionScores {
            dimension: dimension.clone(),
            positions: by
                .into_iter()
                .map(|(position, scores)| {
                    let (mean, sd) = mean_sd(&scores);
                    PositionMean {
                        position,
                        n: scores.len(),
                        mean,
                        sd,
                    }
                })
                .collect(),
        });
    }
    out
}

fn preference_position(data: &Data) -> Option<PreferencePosition> {
    let (mut first, mut second, mut ties) = (0u64, 0u64, 0u64);
    for row in &data.preferences {
        let Some(a_first) = row.a_first else { continue };
        match (row.outcome, a_first) {
            (Outcome::Tie, _) => ties += 1,
            (Outcome::A, true) | (Outcome::B, false) => first += 1,
            (Outcome::A, false) | (Outcome::B, true) => second += 1,
        }
    }
    let judgements = first + second + ties;
    if judgements == 0 {
        return None;
    }
    let rate = win_rate(first, second, ties, LEVEL).ok();
    Some(PreferencePosition {
        judgements,
        first_wins: first,
        second_wins: second,
        ties,
        first_win_rate: rate.map(|r| r.rate),
        wilson: rate.map(|r| r.wilson.into()),
        p_value: rate.map(|r| r.p_value),
    })
}

/// Median of a non-empty list.
fn median(xs: &mut [f64]) -> f64 {
    xs.sort_by(f64::total_cmp);
    let n = xs.len();
    if n % 2 == 1 {
        xs[n / 2]
    } else {
        (xs[n / 2 - 1] + xs[n / 2]) / 2.0
    }
}

/// One annotator's rows, gathered in one pass over each table.
#[derive(Default)]
struct Rows<'a> {
    ratings: Vec<&'a RatingRow>,
    repeats: Vec<&'a RatingRow>,
    preferences: usize,
    trials: Vec<&'a TrialRow>,
}

fn annotators<'a>(data: &'a Data, dimensions: &[String]) -> (Vec<AnnotatorDiagnostics>, Speed) {
    // Each annotator's rows, found by a hash of the name (a few dozen annotators, hundreds of
    // thousands of rows), then in name order.
    let mut index: HashMap<&'a str, usize, FastHash> = HashMap::default();
    let mut by: Vec<(&'a str, Rows<'a>)> = Vec::new();
    let mut rows = |name: &'a str| -> usize {
        *index.entry(name).or_insert_with(|| {
            by.push((name, Rows::default()));
            by.len() - 1
        })
    };
    let mut at: Vec<usize> = Vec::with_capacity(data.ratings.len());
    at.extend(data.ratings.iter().map(|r| rows(&r.annotator)));
    let repeats: Vec<usize> = data.repeats.iter().map(|r| rows(&r.annotator)).collect();
    let preferences: Vec<usize> = data
        .preferences
        .iter()
        .map(|p| rows(&p.annotator))
        .collect();
    let trials: Vec<usize> = data.trials.iter().map(|t| rows(&t.annotator)).collect();
    for (r, i) in data.ratings.iter().zip(at) {
        by[i].1.ratings.push(r);
    }
    for (r, i) in data.repeats.iter().zip(repeats) {
        by[i].1.repeats.push(r);
    }
    for i in preferences {
        by[i].1.preferences += 1;
    }
    for (t, i) in data.trials.iter().zip(trials) {
        by[i].1.trials.push(t);
    }
    by.sort_unstable_by(|a, b| a.0.cmp(b.0));

    let mut out: Vec<AnnotatorDiagnostics> = by
        .iter()
        .map(|(name, rows)| annotator(name, rows, dimensions))
        .collect();

    // Speed: under the floor, whatever the others took; and against the median annotator (of
    // those with timed trials). One warning says both.
    let mut medians: Vec<f64> = out
        .iter()
        .filter_map(|a| a.median_seconds_per_trial)
        .collect();
    let typical = (medians.len() >= 2).then(|| median(&mut medians));
    for a in &mut out {
        let Some(m) = a.median_seconds_per_trial else {
            continue;
        };
        let mut why = Vec::new();
        if m < FAST_FLOOR_SECONDS {
            why.push(format!(
                "under the floor of {} s: too fast to have read the outputs",
                number(FAST_FLOOR_SECONDS)
            ));
        }
        if let Some(typical) = typical
            && m < FAST_SHARE * typical
        {
            why.push(format!(
                "under a third of the median annotator's {} s",
                round1(typical)
            ));
        }
        if !why.is_empty() {
            a.warnings.push(format!(
                "median {} s per trial, {}",
                round1(m),
                why.join("; and ")
            ));
        }
    }
    let speed = Speed {
        floor_seconds: FAST_FLOOR_SECONDS,
        share_of_median: FAST_SHARE,
        median_annotator_seconds: typical,
    };
    (out, speed)
}

fn round1(x: f64) -> String {
    number((x * 10.0).round() / 10.0)
}

fn annotator(name: &str, rows: &Rows, dimensions: &[String]) -> AnnotatorDiagnostics {
    let (ratings, preferences, trials) = (&rows.ratings, rows.preferences, &rows.trials);
    let mut warnings = Vec::new();

    let mut seconds: Vec<f64> = trials.iter().map(|t| t.active_ms as f64 / 1000.0).collect();
    let active_minutes = (!seconds.is_empty()).then(|| seconds.iter().sum::<f64>() / 60.0);
    let median_seconds_per_trial = (!seconds.is_empty()).then(|| median(&mut seconds));

    let mut straight_lining = Vec::new();
    for dimension in dimensions {
        let scores: Vec<f64> = ratings
            .iter()
            .filter(|r| r.dimension == *dimension)
            .map(|r| r.score)
            .collect();
        if scores.is_empty() {
            continue;
        }
        let mut counts: BTreeMap<u64, usize> = BTreeMap::new();
        for s in &scores {
            *counts.entry(ordered_bits(*s)).or_default() += 1;
        }
        // The lowest of the most common scores: counts are in score order, and `max_by_key`
        // keeps the last maximum, so walk them in reverse.
        let (bits, count) = counts
            .iter()
            .rev()
            .max_by_key(|(_, c)| **c)
            .map(|(b, c)| (*b, *c))
            .unwrap_or((0, 0));
        let most_common = from_ordered_bits(bits);
        let entry = StraightLining {
            dimension: dimension.clone(),
            n: scores.len(),
            distinct: counts.len(),
            most_common,
            share: count as f64 / scores.len() as f64,
        };
        straight_lining.push(entry);
    }
    let straight: Vec<String> = straight_lining
        .iter()
        .filter(|s| s.distinct == 1 && s.n >= STRAIGHT_MIN)
        .map(|s| {
            format!(
                "\"{}\" ({}, {} ratings)",
                s.dimension,
                number(s.most_common),
                s.n
            )
        })
        .collect();
    if !straight.is_empty() {
        warnings.push(format!(
            "gave one score to every rating of {}",
            and_list(&straight)
        ));
    }

    let checks: Vec<_> = trials.iter().filter(|t| t.check).collect();
    let attention_checks = AttentionChecks {
        trials: checks.len(),
        passed: checks.iter().filter(|t| t.passed == Some(true)).count(),
        failed: checks.iter().filter(|t| t.passed == Some(false)).count(),
        not_evaluated: checks.iter().filter(|t| t.passed.is_none()).count(),
    };
    if attention_checks.failed > 0 {
        let evaluated = attention_checks.passed + attention_checks.failed;
        warnings.push(format!(
            "failed {} of {evaluated} attention check{}",
            attention_checks.failed,
            if evaluated == 1 { "" } else { "s" }
        ));
    }

    let repeats = repeat_consistency(ratings, &rows.repeats);
    if repeats.ratings > 0 && repeats.same * 2 < repeats.ratings {
        warnings.push(format!(
            "changed the score of an output seen again in {} of {} repeated ratings",
            repeats.ratings - repeats.same,
            repeats.ratings
        ));
    }

    AnnotatorDiagnostics {
        repeats,
        annotator: name.to_owned(),
        ratings: ratings.len(),
        preferences,
        trials: trials.len(),
        active_minutes,
        median_seconds_per_trial,
        straight_lining,
        attention_checks,
        warnings,
    }
}

/// `a`, `a and b`, `a, b and c`.
fn and_list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

fn repeat_consistency(ratings: &[&RatingRow], repeats: &[&RatingRow]) -> RepeatConsistency {
    if repeats.is_empty() {
        return RepeatConsistency {
            ratings: 0,
            same: 0,
            within_one: 0,
            mean_absolute_difference: None,
        };
    }
    let firsts: HashMap<(&str, &str, &str), f64, FastHash> = ratings
        .iter()
        .map(|r| {
            (
                (r.item.as_str(), r.system.as_str(), r.dimension.as_str()),
                r.score,
            )
        })
        .collect();
    let (mut ratings, mut same, mut within_one, mut total) = (0, 0, 0, 0.0);
    for r in repeats {
        let Some(first) = firsts.get(&(r.item.as_str(), r.system.as_str(), r.dimension.as_str()))
        else {
            continue;
        };
        ratings += 1;
        same += usize::from(*first == r.score);
        // Scale points are whole numbers one apart.
        within_one += usize::from((r.score - first).abs() <= 1.0);
        total += (r.score - first).abs();
    }
    RepeatConsistency {
        ratings,
        same,
        within_one,
        mean_absolute_difference: (ratings > 0).then(|| total / ratings as f64),
    }
}

/// A key that orders finite floats as numbers (scores are finite).
fn ordered_bits(x: f64) -> u64 {
    let bits = x.to_bits();
    if bits >> 63 == 1 {
        !bits
    } else {
        bits | (1 << 63)
    }
}

fn from_ordered_bits(key: u64) -> f64 {
    if key >> 63 == 1 {
        f64::from_bits(key & !(1 << 63))
    } else {
        f64::from_bits(!key)
    }
}
