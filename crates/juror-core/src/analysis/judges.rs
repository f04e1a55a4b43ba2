//! Judges beside people: automatic judges' verdicts (an LLM rating the same outputs), read apart
//! from the human ratings and compared with them, never mixed into the human statistics.
//!
//! Per judge, per dimension and pooled over dimensions, and for its pairwise verdicts:
//! - the **alternative annotator test** ([`crate::stats::judges::alt_test`]): an instance is an
//!   output (item, system) on one dimension, (item, system, dimension) pooled, or (item, pair)
//!   for preferences; scores are aligned by −RMSE, preferences by accuracy;
//! - **agreement**: Spearman's ρ of the judge's score with the humans' mean over outputs,
//!   Kendall's τ-b of the judge's and the humans' system means, Krippendorff's α (interval) of
//!   the humans alone and with the judge; for preferences, accuracy against the humans' strict
//!   majority on decisive cases and on all, and Cohen's κ;
//! - **bias**: for verdicts given in both orders, the flip rate; the share of decisive verdicts
//!   for the output shown first (beside the humans'); with the study's texts, Spearman's ρ of the
//!   verdict with the outputs' length (beside the humans'); with repeated runs, how often the
//!   runs agree;
//! - **corrected estimates**: each system's mean score and win rate by prediction-powered
//!   inference from the outputs the humans rated and the judge's verdicts on all of them.
//!
//! Conventions: a judge's verdict is its first run's (`run` 1, or no run); a pairwise verdict
//! given in both orders counts as the outcome both orders agree on, else a tie; human
//! preferences are the pairwise judgements as made (not those derived from choices or
//! rankings). `docs/judges.md` gives the formulas and references.

use std::collections::{BTreeMap, BTreeSet};

use super::data::{Ci, Data, LEVEL, PreferenceRow, RatingRow, ordered};
use crate::stats::agreement::{Metric, Ratings, Weights, cohen_kappa, krippendorff_alpha};
use crate::stats::judges::{
    Alignment, AltTest, AltTestOptions, Instance, Ppi, alt_test, kendall_tau_b, ppi_mean,
};
use crate::stats::preference::Outcome;
use crate::stats::trend::spearman;
use crate::study::Study;
pub use crate::study::analysis_plan::JudgeSettings;

mod types;

pub use types::{
    AltTestReport, Corrected, Correlation, HumanComparison, JudgeBias, JudgeOptions,
    JudgePreferences, JudgeReport, JudgeScores, ScorePoint, SkippedHuman, SystemScores,
    SystemWinRate,
};

/// The judges' sections, one per judge in `judges` (in order of first appearance), compared with
/// the human ratings in `humans`.
pub fn report(
    humans: &Data,
    judges: &Data,
    study: Option<&Study>,
    options: &JudgeOptions,
) -> Vec<JudgeReport> {
    let people = People::new(humans);
    judge_ids(judges)
        .into_iter()
        .map(|judge| one_judge(&people, judges, &judge, study, options))
        .collect()
}

/// The judges' ids in order of first appearance.
fn judge_ids(judges: &Data) -> Vec<String> {
    let mut seen: Vec<String> = Vec::new();
    let ids = judges
        .ratings
        .iter()
        .map(|r| &r.annotator)
        .chain(judges.preferences.iter().map(|p| &p.annotator));
    for id in ids {
        if !seen.iter().any(|s| s.as_str() == id.as_str()) {
            seen.push(id.to_string());
        }
    }
    seen
}

/// A row's run (1 without one).
fn run_of_rating(r: &RatingRow) -> u32 {
    r.run.unwrap_or(1)
}

/// A row's run (1 without one).
fn run_of_preference(p: &PreferenceRow) -> u32 {
    p.run.unwrap_or(1)
}

/// A pairwise outcome in the pair's byte order: 0 the first system wins, 1 the second, 2 tie.
fn code(p: &PreferenceRow) -> (String, String, f64) {
    let (x, y) = ordered(&p.system_a, &p.system_b);
    let flipped = x != p.system_a.as_str();
    let c = match (p.outcome, flipped) {
        (Outcome::Tie, _) => 2.0,
        (Outcome::A, false) | (Outcome::B, true) => 0.0,
        (Outcome::A, true) | (Outcome::B, false) => 1.0,
    };
    (x.to_owned(), y.to_owned(), c)
}

/// The system shown first, when known.
fn shown_first(p: &PreferenceRow) -> Option<&str> {
    p.a_first.map(|a| {
        if a {
            p.system_a.as_str()
        } else {
            p.system_b.as_str()
        }
    })
}

type Cell = (String, String, String);
type PairKey = (String, String, String);
/// Per system: values on instances with humans (the humans', the judge's) and the judge's alone.
type Split<'a> = BTreeMap<&'a str, (Vec<f64>, Vec<f64>, Vec<f64>)>;
/// Per (item, pair, run): the verdict given with each system first.
type Orders = BTreeMap<(String, String, String, u32), Vec<(String, f64)>>;

/// The humans' ratings and preferences, indexed.
struct People {
    /// Annotator ids in byte order; an index into it names a human.
    ids: Vec<String>,
    /// (dimension, item, system) → (human, score), first rating of each human.
    scores: BTreeMap<Cell, Vec<(usize, f64)>>,
    /// (item, x, y) with x < y → (human, code), pairwise judgements as made.
    preferences: BTreeMap<PairKey, Vec<(usize, f64)>>,
    /// Decisive human verdicts with known order, and how many chose the first shown.
    first: (usize, usize),
    /// Every human rating (dimension, item, system, score) and verdict (item, x, y, code).
    all_scores: Vec<(String, String, f64)>,
    all_preferences: Vec<(String, String, String, f64)>,
    /// Dimensions in order of first appearance.
    dimensions: Vec<String>,
}

impl People {
    fn new(humans: &Data) -> People {
        let ids: BTreeSet<&str> = humans
            .ratings
            .iter()
            .map(|r| r.annotator.as_str())
            .chain(humans.preferences.iter().map(|p| p.annotator.as_str()))
            .collect();
        let ids: Vec<String> = ids.into_iter().map(str::to_owned).collect();
        let index = |a: &str| ids.binary_search_by(|x| x.as_str().cmp(a)).ok();
        let mut scores: BTreeMap<Cell, Vec<(usize, f64)>> = BTreeMap::new();
        let mut dimensions: Vec<String> = Vec::new();
        let mut all_scores = Vec::new();
        for r in &humans.ratings {
            let Some(h) = index(&r.annotator) else {
                continue;
            };
            if !dimensions
                .iter()
                .any(|d| d.as_str() == r.dimension.as_str())
            {
                dimensions.push(r.dimension.to_string());
            }
            let key = (
                r.dimension.to_string(),
                r.item.to_string(),
                r.system.to_string(),
            );
            let cell = scores.entry(key).or_default();
            if !cell.iter().any(|(x, _)| *x == h) {
                cell.push((h, r.score));
            }
            all_scores.push((r.item.to_string(), r.system.to_string(), r.score));
        }
        let mut preferences: BTreeMap<PairKey, Vec<(usize, f64)>> = BTreeMap::new();
        let mut all_preferences = Vec::new();
        let mut first = (0, 0);
        for p in humans.preferences.iter().filter(|p| !p.derived) {
            let Some(h) = index(&p.annotator) else {
                continue;
            };
            let (x, y, c) = code(p);
            let cell = preferences
                .entry((p.item.to_string(), x.clone(), y.clone()))
                .or_default();
            if !cell.iter().any(|(o, _)| *o == h) {
                cell.push((h, c));
            }
            all_preferences.push((p.item.to_string(), x, y, c));
            if let (Some(f), Some(w)) = (shown_first(p), winner(p)) {
                first.0 += 1;
                first.1 += usize::from(f == w);
            }
        }
        People {
            ids,
            scores,
            preferences,
            first,
            all_scores,
            all_preferences,
            dimensions,
        }
    }
}

/// The system a decisive verdict chose.
fn winner(p: &PreferenceRow) -> Option<&str> {
    match p.outcome {
        Outcome::A => Some(p.system_a.as_str()),
        Outcome::B => Some(p.system_b.as_str()),
        Outcome::Tie => None,
    }
}

fn one_judge(
    people: &People,
    judges: &Data,
    judge: &str,
    study: Option<&Study>,
    options: &JudgeOptions,
) -> JudgeReport {
    let ratings: Vec<&RatingRow> = judges
        .ratings
        .iter()
        .filter(|r| r.annotator.as_str() == judge)
        .collect();
    let verdicts: Vec<&PreferenceRow> = judges
        .preferences
        .iter()
        .filter(|p| p.annotator.as_str() == judge && !p.derived)
        .collect();
    let runs = ratings
        .iter()
        .map(|r| run_of_rating(r))
        .chain(verdicts.iter().map(|p| run_of_preference(p)))
        .max()
        .unwrap_or(1);
    // The first run's score of each output.
    let mut scores: BTreeMap<Cell, (u32, f64)> = BTreeMap::new();
    for r in &ratings {
        let key = (
            r.dimension.to_string(),
            r.item.to_string(),
            r.system.to_string(),
        );
        let run = run_of_rating(r);
        match scores.get(&key) {
            Some((best, _)) if *best <= run => {}
            _ => {
                scores.insert(key, (run, r.score));
            }
        }
    }
    let scores: BTreeMap<Cell, f64> = scores.into_iter().map(|(k, (_, v))| (k, v)).collect();
    let dimensions = dimension_order(people, &scores, study);
    let per_dimension: Vec<JudgeScores> = dimensions
        .iter()
        .map(|d| score_section(people, &scores, Some(d), options))
        .collect();
    let pooled = (per_dimension.len() > 1).then(|| score_section(people, &scores, None, options));
    let consolidated = consolidate(&verdicts);
    let preferences = preference_section(people, &consolidated, options);
    let bias = bias(people, &ratings, &verdicts, &consolidated, &scores, study);
    JudgeReport {
        judge: judge.to_owned(),
        verdicts: ratings.len() + verdicts.len(),
        runs,
        dimensions: per_dimension,
        pooled,
        preferences,
        bias,
    }
}

/// The dimensions both the judge and the humans scored: the study's order, then the humans'
/// order of first appearance.
fn dimension_order(
    people: &People,
    scores: &BTreeMap<Cell, f64>,
    study: Option<&Study>,
) -> Vec<String> {
    let judged: BTreeSet<&str> = scores.keys().map(|(d, _, _)| d.as_str()).collect();
    let mut order: Vec<String> = study
        .map(|s| s.rubric().dimensions.iter().map(|d| d.id.clone()).collect())
        .unwrap_or_default();
    for d in &people.dimensions {
        if !order.contains(d) {
            order.push(d.clone());
        }
    }
    order.retain(|d| judged.contains(d.as_str()) && people.dimensions.contains(d));
    order
}

fn mean(values: &[f64]) -> Option<f64> {
    (!values.is_empty()).then(|| values.iter().sum::<f64>() / values.len() as f64)
}

fn correlation(x: &[f64], y: &[f64]) -> Option<Correlation> {
    spearman(x, y).ok().flatten().map(|s| Correlation {
        value: s.rho,
        p_value: s.p_value,
        n: s.n,
    })
}

/// The judge's scores on `dimension` (all dimensions when `None`) against the humans'.
fn score_section(
    people: &People,
    scores: &BTreeMap<Cell, f64>,
    dimension: Option<&str>,
    options: &JudgeOptions,
) -> JudgeScores {
    let mine = |d: &str| dimension.is_none_or(|want| want == d);
    let mut instances = Vec::new();
    let mut points = Vec::new();
    for ((d, item, system), &judge) in scores.iter().filter(|((d, _, _), _)| mine(d)) {
        let humans = people
            .scores
            .get(&(d.clone(), item.clone(), system.clone()))
            .cloned()
            .unwrap_or_default();
        if !humans.is_empty() {
            let values: Vec<f64> = humans.iter().map(|(_, v)| *v).collect();
            points.push(ScorePoint {
                item: item.clone(),
                system: system.clone(),
                dimension: dimension.is_none().then(|| d.clone()),
                judge,
                human_mean: mean(&values).unwrap_or(f64::NAN),
                humans: values.len(),
            });
        }
        instances.push(Instance { humans, judge });
    }
    let alt = alt_report(people, &instances, Alignment::NegativeRmse, options);
    let judge_values: Vec<f64> = points.iter().map(|p| p.judge).collect();
    let human_values: Vec<f64> = points.iter().map(|p| p.human_mean).collect();
    let spearman = correlation(&judge_values, &human_values);
    // System means over the outputs both scored.
    let mut by_system: BTreeMap<&str, (Vec<f64>, Vec<f64>)> = BTreeMap::new();
    for p in &points {
        let e = by_system.entry(p.system.as_str()).or_default();
        e.0.push(p.judge);
        e.1.push(p.human_mean);
    }
    let (js, hs): (Vec<f64>, Vec<f64>) = by_system
        .values()
        .filter_map(|(j, h)| Some((mean(j)?, mean(h)?)))
        .unzip();
    let kendall_tau = kendall_tau_b(&js, &hs).map(|k| Correlation {
        value: k.tau,
        p_value: k.p_value,
        n: js.len(),
    });
    let (alpha_humans, alpha_with_judge) = alphas(people, scores, dimension);
    let systems = match dimension {
        Some(d) => system_scores(people, scores, d),
        None => Vec::new(),
    };
    JudgeScores {
        dimension: dimension.map(str::to_owned),
        alt_test: alt,
        spearman,
        kendall_tau,
        alpha_humans,
        alpha_with_judge,
        systems,
        points,
    }
}

/// Krippendorff's α (interval) of the humans over the outputs the judge scored, without and with
/// the judge.
fn alphas(
    people: &People,
    scores: &BTreeMap<Cell, f64>,
    dimension: Option<&str>,
) -> (Option<f64>, Option<f64>) {
    let mut triples: Vec<(String, String, f64)> = Vec::new();
    let mut with_judge: Vec<(String, String, f64)> = Vec::new();
    for ((d, item, system), &judge) in scores {
        if dimension.is_some_and(|want| want != d) {
            continue;
        }
        let unit = format!("{d}\u{1f}{item}\u{1f}{system}");
        let Some(humans) = people
            .scores
            .get(&(d.clone(), item.clone(), system.clone()))
        else {
            continue;
        };
        for &(h, v) in humans {
            triples.push((unit.clone(), people.ids[h].clone(), v));
        }
        // The judge's id cannot clash with a human's: it gets a name no id has.
        with_judge.push((unit, "\u{1f}judge".to_owned(), judge));
    }
    with_judge.extend(triples.iter().cloned());
    let alpha = |t: Vec<(String, String, f64)>| {
        Ratings::from_triples(t)
            .ok()
            .and_then(|r| krippendorff_alpha(&r, Metric::Interval))
    };
    (alpha(triples), alpha(with_judge))
}

fn corrected(p: Ppi) -> Corrected {
    Corrected {
        estimate: p.estimate,
        ci: Ci {
            low: p.ci.0,
            high: p.ci.1,
        },
        lambda: p.lambda,
        human_only: p.human_only,
        human_only_ci: Ci {
            low: p.human_only_ci.0,
            high: p.human_only_ci.1,
        },
        effective_gain: p.effective_gain,
        labelled: p.n,
        unlabelled: p.n_unlabeled,
    }
}

/// Per system on `dimension`: the humans' and the judge's means and the corrected estimate.
fn system_scores(
    people: &People,
    scores: &BTreeMap<Cell, f64>,
    dimension: &str,
) -> Vec<SystemScores> {
    let mut by_system: Split<'_> = BTreeMap::new();
    for ((d, item, system), &judge) in scores.iter().filter(|((d, _, _), _)| d == dimension) {
        let e = by_system.entry(system.as_str()).or_default();
        match people
            .scores
            .get(&(d.clone(), item.clone(), system.clone()))
        {
            Some(humans) if !humans.is_empty() => {
                let values: Vec<f64> = humans.iter().map(|(_, v)| *v).collect();
                e.0.push(mean(&values).unwrap_or(f64::NAN));
                e.1.push(judge);
            }
            _ => e.2.push(judge),
        }
    }
    by_system
        .into_iter()
        .map(|(system, (y, f, unlabelled))| {
            let all: Vec<f64> = f.iter().chain(&unlabelled).copied().collect();
            SystemScores {
                system: system.to_owned(),
                human_mean: mean(&y),
                judge_mean: mean(&all),
                corrected: ppi_mean(&y, &f, &unlabelled, LEVEL).map(corrected),
            }
        })
        .collect()
}

/// The alternative annotator test, named.
fn alt_report(
    people: &People,
    instances: &[Instance],
    alignment: Alignment,
    options: &JudgeOptions,
) -> AltTestReport {
    let test: AltTest = alt_test(
        instances,
        alignment,
        &AltTestOptions {
            epsilon: options.epsilon,
            q: options.q,
            min_humans: options.min_humans,
            min_instances: options.min_instances,
        },
    );
    let name = |h: usize| people.ids.get(h).cloned().unwrap_or_default();
    AltTestReport {
        alignment: match alignment {
            Alignment::NegativeRmse => "negative_rmse",
            Alignment::Accuracy => "accuracy",
        },
        epsilon: options.epsilon,
        q: options.q,
        instances: instances
            .iter()
            .filter(|i| i.humans.len() >= options.min_humans)
            .count(),
        winning_rate: test.winning_rate,
        advantage_probability: test.advantage_probability,
        passes: test.winning_rate.map(|w| w >= 0.5),
        humans: test
            .tested
            .iter()
            .map(|h| HumanComparison {
                annotator: name(h.human),
                instances: h.instances,
                judge_advantage: h.judge_advantage,
                human_advantage: h.human_advantage,
                t: h.t.is_finite().then_some(h.t),
                p: h.p,
                p_adjusted: h.p_adjusted,
                judge_wins: h.rejected,
            })
            .collect(),
        skipped: test
            .skipped
            .iter()
            .map(|&(h, n)| SkippedHuman {
                annotator: name(h),
                instances: n,
            })
            .collect(),
    }
}

/// The judge's first-run verdict of each (item, pair), in the pair's byte order: given in both
/// orders, the outcome both agree on, else a tie.
fn consolidate(verdicts: &[&PreferenceRow]) -> BTreeMap<PairKey, f64> {
    let first_run = verdicts
        .iter()
        .map(|p| run_of_preference(p))
        .min()
        .unwrap_or(1);
    let mut by_pair: BTreeMap<PairKey, Vec<(Option<String>, f64)>> = BTreeMap::new();
    for p in verdicts
        .iter()
        .filter(|p| run_of_preference(p) == first_run)
    {
        let (x, y, c) = code(p);
        let entry = by_pair.entry((p.item.to_string(), x, y)).or_default();
        let order = shown_first(p).map(str::to_owned);
        // One verdict per order: the first read.
        if !entry.iter().any(|(o, _)| *o == order) {
            entry.push((order, c));
        }
    }
    by_pair
        .into_iter()
        .map(|(key, given)| {
            let c = given[0].1;
            let agreed = given.iter().all(|(_, o)| *o == c);
            (key, if agreed { c } else { 2.0 })
        })
        .collect()
}

/// The humans' strict majority of `codes` (`None` when two outcomes tie for most).
fn majority(codes: &[(usize, f64)]) -> Option<f64> {
    let mut counts = [0usize; 3];
    for &(_, c) in codes {
        counts[c as usize] += 1;
    }
    let most = *counts.iter().max()?;
    let winners: Vec<usize> = (0..3).filter(|&k| counts[k] == most).collect();
    (winners.len() == 1 && most > 0).then(|| winners[0] as f64)
}

fn preference_section(
    people: &People,
    verdicts: &BTreeMap<PairKey, f64>,
    options: &JudgeOptions,
) -> Option<JudgePreferences> {
    if verdicts.is_empty() || people.preferences.is_empty() {
        return None;
    }
    let mut instances = Vec::new();
    let (mut decisive, mut decisive_right) = (0usize, 0usize);
    let (mut with_majority, mut all_right) = (0usize, 0usize);
    let mut kappa: Vec<(String, String, f64)> = Vec::new();
    // Per system: (human win shares, judge wins) on instances with humans, judge-only wins.
    let mut wins: Split<'_> = BTreeMap::new();
    let share = |c: f64, first: bool| match (c as u8, first) {
        (2, _) => 0.5,
        (0, true) | (1, false) => 1.0,
        _ => 0.0,
    };
    for (key, &judge) in verdicts {
        let humans = people.preferences.get(key).cloned().unwrap_or_default();
        let (_, x, y) = key;
        if humans.is_empty() {
            wins.entry(x.as_str())
                .or_default()
                .2
                .push(share(judge, true));
            wins.entry(y.as_str())
                .or_default()
                .2
                .push(share(judge, false));
            continue;
        }
        for (system, first) in [(x.as_str(), true), (y.as_str(), false)] {
            let shares: Vec<f64> = humans.iter().map(|&(_, c)| share(c, first)).collect();
            let e = wins.entry(system).or_default();
            e.0.push(mean(&shares).unwrap_or(f64::NAN));
            e.1.push(share(judge, first));
        }
        if let Some(m) = majority(&humans) {
            with_majority += 1;
            all_right += usize::from(m == judge);
            let unit = format!("{}\u{1f}{x}\u{1f}{y}", key.0);
            kappa.push((unit.clone(), "judge".to_owned(), judge));
            kappa.push((unit, "majority".to_owned(), m));
            if m != 2.0 && judge != 2.0 {
                decisive += 1;
                decisive_right += usize::from(m == judge);
            }
        }
        instances.push(Instance { humans, judge });
    }
    let rate = |k: usize, n: usize| (n > 0).then(|| k as f64 / n as f64);
    let cohen = Ratings::from_triples(kappa)
        .ok()
        .and_then(|r| cohen_kappa(&r, "judge", "majority", Weights::Unweighted));
    Some(JudgePreferences {
        instances: instances.len(),
        alt_test: alt_report(people, &instances, Alignment::Accuracy, options),
        accuracy_decisive: rate(decisive_right, decisive),
        decisive,
        accuracy_all: rate(all_right, with_majority),
        with_majority,
        cohen_kappa: cohen,
        systems: wins
            .into_iter()
            .map(|(system, (y, f, unlabelled))| {
                let all: Vec<f64> = f.iter().chain(&unlabelled).copied().collect();
                SystemWinRate {
                    system: system.to_owned(),
                    human: mean(&y),
                    judge: mean(&all),
                    corrected: ppi_mean(&y, &f, &unlabelled, LEVEL).map(corrected),
                }
            })
            .collect(),
    })
}

/// The length in characters of `system`'s output for `item`, when the study gives it.
fn length(study: Option<&Study>, item: &str, system: &str) -> Option<f64> {
    let item = study?.items().iter().find(|i| i.id == item)?;
    Some(item.outputs.get(system)?.plain().chars().count() as f64)
}

fn bias(
    people: &People,
    ratings: &[&RatingRow],
    verdicts: &[&PreferenceRow],
    consolidated: &BTreeMap<PairKey, f64>,
    scores: &BTreeMap<Cell, f64>,
    study: Option<&Study>,
) -> JudgeBias {
    // Both orders, per (item, pair, run).
    let mut orders: Orders = BTreeMap::new();
    let (mut ordered_verdicts, mut for_first) = (0usize, 0usize);
    for p in verdicts {
        let (x, y, c) = code(p);
        if let Some(f) = shown_first(p) {
            let entry = orders
                .entry((p.item.to_string(), x, y, run_of_preference(p)))
                .or_default();
            if !entry.iter().any(|(o, _)| o == f) {
                entry.push((f.to_owned(), c));
            }
            if let Some(w) = winner(p) {
                ordered_verdicts += 1;
                for_first += usize::from(w == f);
            }
        }
    }
    let both: Vec<&Vec<(String, f64)>> = orders.values().filter(|v| v.len() == 2).collect();
    let flips = both.iter().filter(|v| v[0].1 != v[1].1).count();
    let rate = |k: usize, n: usize| (n > 0).then(|| k as f64 / n as f64);
    // Length against the verdict (pairs) and the score (outputs).
    let difference =
        |item: &str, x: &str, y: &str| Some(length(study, item, x)? - length(study, item, y)?);
    let direction = |c: f64| match c as u8 {
        0 => 1.0,
        1 => -1.0,
        _ => 0.0,
    };
    let paired = |rows: &mut dyn Iterator<Item = (&str, &str, &str, f64)>| {
        let (d, v): (Vec<f64>, Vec<f64>) = rows
            .filter_map(|(item, x, y, c)| Some((difference(item, x, y)?, direction(c))))
            .unzip();
        correlation(&d, &v)
    };
    let length_preference = paired(
        &mut consolidated
            .iter()
            .map(|((i, x, y), &c)| (i.as_str(), x.as_str(), y.as_str(), c)),
    );
    let human_length_preference = paired(
        &mut people
            .all_preferences
            .iter()
            .map(|(i, x, y, c)| (i.as_str(), x.as_str(), y.as_str(), *c)),
    );
    let scored = |rows: &mut dyn Iterator<Item = (&str, &str, f64)>| {
        let (l, s): (Vec<f64>, Vec<f64>) = rows
            .filter_map(|(item, system, score)| Some((length(study, item, system)?, score)))
            .unzip();
        correlation(&l, &s)
    };
    let length_score = scored(
        &mut scores
            .iter()
            .map(|((_, i, s), &v)| (i.as_str(), s.as_str(), v)),
    );
    let human_length_score = scored(
        &mut people
            .all_scores
            .iter()
            .map(|(i, s, v)| (i.as_str(), s.as_str(), *v)),
    );
    // Runs: a verdict given in two or more runs agrees when every run gave the same.
    let mut runs: BTreeMap<String, Vec<f64>> = BTreeMap::new();
    for r in ratings {
        let key = format!("s\u{1f}{}\u{1f}{}\u{1f}{}", r.dimension, r.item, r.system);
        runs.entry(key).or_default().push(r.score);
    }
    for p in verdicts {
        let (x, y, c) = code(p);
        let order = shown_first(p).unwrap_or("");
        let key = format!("p\u{1f}{}\u{1f}{x}\u{1f}{y}\u{1f}{order}", p.item);
        runs.entry(key).or_default().push(c);
    }
    let repeated: Vec<&Vec<f64>> = runs.values().filter(|v| v.len() > 1).collect();
    let agreeing = repeated
        .iter()
        .filter(|v| v.iter().all(|x| *x == v[0]))
        .count();
    JudgeBias {
        both_orders: both.len(),
        flip_rate: rate(flips, both.len()),
        ordered_verdicts,
        first_position_rate: rate(for_first, ordered_verdicts),
        human_first_position_rate: rate(people.first.1, people.first.0),
        length_preference,
        human_length_preference,
        length_score,
        human_length_score,
        repeated: repeated.len(),
        repeat_agreement: rate(agreeing, repeated.len()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::{Context, Input, read};

    fn data(csv: &str) -> Data {
        let context = Context {
            study: None,
            key: None,
            reveal_ids: false,
        };
        let data = read(&[Input::new("t.csv", csv)], &context);
        assert!(data.problems.is_empty(), "{:?}", data.problems);
        data
    }

    /// Three humans and a judge score four items of two systems; the judge and the humans also
    /// compare the systems, the judge in both orders on two items.
    fn fixture() -> (Data, Data) {
        let mut humans = String::from("item_id,system_id,annotator_id,dimension,score\n");
        let human_scores = [
            ("i1", "s1", [4, 5, 4]),
            ("i1", "s2", [2, 2, 3]),
            ("i2", "s1", [3, 3, 4]),
            ("i2", "s2", [1, 2, 1]),
            ("i3", "s1", [5, 4, 5]),
            ("i3", "s2", [3, 3, 2]),
        ];
        for (item, system, scores) in human_scores {
            for (h, s) in scores.iter().enumerate() {
                humans.push_str(&format!("{item},{system},h{},q,{s}\n", h + 1));
            }
        }
        let mut judge = String::from("item_id,system_id,annotator_id,dimension,score\n");
        for (item, system, s) in [
            ("i1", "s1", 5),
            ("i1", "s2", 2),
            ("i2", "s1", 4),
            ("i2", "s2", 2),
            ("i3", "s1", 4),
            ("i3", "s2", 3),
            // Only the judge: what the corrected estimate uses.
            ("i4", "s1", 4),
            ("i4", "s2", 1),
        ] {
            judge.push_str(&format!("{item},{system},gpt,q,{s}\n"));
        }
        let mut h = data(&humans);
        let mut j = data(&judge);
        let prefs = "item_id,system_a,system_b,annotator_id,preference,shown_first\n\
                     i1,s1,s2,h1,a,a\ni1,s1,s2,h2,a,b\ni1,s1,s2,h3,b,a\n\
                     i2,s1,s2,h1,tie,a\ni2,s1,s2,h2,a,a\ni2,s1,s2,h3,a,b\n\
                     i3,s1,s2,h1,b,a\ni3,s1,s2,h2,b,b\ni3,s1,s2,h3,tie,a\n";
        h.preferences = data(prefs).preferences;
        // The judge: i1 both orders agree (s1); i2 both orders disagree (a tie); i3 one order.
        // Read one by one: the reader takes a second verdict on a pair for a duplicate.
        let judged = [
            "i1,s1,s2,gpt,a,a",
            "i1,s2,s1,gpt,b,a",
            "i2,s1,s2,gpt,a,a",
            "i2,s2,s1,gpt,a,a",
            "i3,s2,s1,gpt,a,b",
        ];
        j.preferences = judged
            .iter()
            .flat_map(|row| {
                data(&format!(
                    "item_id,system_a,system_b,annotator_id,preference,shown_first\n{row}\n"
                ))
                .preferences
            })
            .collect();
        (h, j)
    }

    #[test]
    fn the_judge_is_compared_on_what_both_judged() {
        let (h, j) = fixture();
        let reports = report(&h, &j, None, &JudgeOptions::DEFAULT);
        assert_eq!(reports.len(), 1);
        let r = &reports[0];
        assert_eq!(r.judge, "gpt");
        assert_eq!(r.verdicts, 8 + 5);
        assert_eq!(r.dimensions.len(), 1);
        assert!(r.pooled.is_none());
        let q = &r.dimensions[0];
        // Six outputs both scored; i4 is the judge's alone.
        assert_eq!(q.points.len(), 6);
        assert_eq!(q.points[0].human_mean, 13.0 / 3.0);
        let judge: Vec<f64> = q.points.iter().map(|p| p.judge).collect();
        let humans: Vec<f64> = q.points.iter().map(|p| p.human_mean).collect();
        let rho = spearman(&judge, &humans).unwrap().unwrap();
        assert_eq!(q.spearman.unwrap().value, rho.rho);
        // α over the six outputs: the humans' three ratings each, then with the judge's.
        let mut triples = Vec::new();
        for p in &q.points {
            let cell = h
                .ratings
                .iter()
                .filter(|r| r.item.as_str() == p.item && r.system.as_str() == p.system);
            for r in cell {
                triples.push((
                    format!("{}{}", p.item, p.system),
                    r.annotator.to_string(),
                    r.score,
                ));
            }
        }
        let alone = krippendorff_alpha(
            &Ratings::from_triples(triples.clone()).unwrap(),
            Metric::Interval,
        );
        assert_eq!(q.alpha_humans, alone);
        for p in &q.points {
            triples.push((
                format!("{}{}", p.item, p.system),
                "judge".to_owned(),
                p.judge,
            ));
        }
        let with = krippendorff_alpha(&Ratings::from_triples(triples).unwrap(), Metric::Interval);
        assert_eq!(q.alpha_with_judge, with);
        // Per system: the humans' mean over their outputs, the judge's over all of its own.
        let s1 = &q.systems[0];
        assert_eq!(s1.system, "s1");
        assert_eq!(
            s1.human_mean,
            Some((13.0 / 3.0 + 10.0 / 3.0 + 14.0 / 3.0) / 3.0)
        );
        assert_eq!(s1.judge_mean, Some((5.0 + 4.0 + 4.0 + 4.0) / 4.0));
    }

    #[test]
    fn pairwise_verdicts_in_both_orders_count_where_they_agree() {
        let (h, j) = fixture();
        let r = &report(&h, &j, None, &JudgeOptions::DEFAULT)[0];
        let p = r.preferences.as_ref().unwrap();
        assert_eq!(p.instances, 3);
        // Humans' majorities: i1 s1 (2 of 3), i2 s1 (2 of 3), i3 s2 (2 of 3). The judge: i1 s1,
        // i2 a tie (its orders disagree), i3 s2.
        assert_eq!(p.with_majority, 3);
        assert_eq!(p.accuracy_all, Some(2.0 / 3.0));
        assert_eq!(p.decisive, 2);
        assert_eq!(p.accuracy_decisive, Some(1.0));
        // Win rates: s1's human shares on i1, i2, i3 are 2/3, (0.5 + 1 + 1)/3, (0 + 0 + 0.5)/3.
        let s1 = &p.systems[0];
        assert_eq!(s1.human, Some((2.0 / 3.0 + 2.5 / 3.0 + 0.5 / 3.0) / 3.0));
        assert_eq!(s1.judge, Some((1.0 + 0.5 + 0.0) / 3.0));
        assert_eq!(s1.corrected, None, "nothing the judge alone compared");
        let b = &r.bias;
        assert_eq!(b.both_orders, 2);
        assert_eq!(b.flip_rate, Some(0.5));
        // The judge's decisive verdicts with an order: all five; for the first shown: i1 (s1
        // first, a), i1 (s2 first, b = s1: second), i2 (s1 first, a), i2 (s2 first, a), i3 (s1
        // first, a = s2: second).
        assert_eq!(b.ordered_verdicts, 5);
        assert_eq!(b.first_position_rate, Some(3.0 / 5.0));
        // The humans' decisive verdicts: 7, of which first shown: i1 h1 (a, a), i2 h2 (a, a),
        // i3 h2 (b, b): 3.
        assert_eq!(b.human_first_position_rate, Some(3.0 / 7.0));
        assert_eq!(b.length_score, None, "no texts without the study");
        assert_eq!(b.repeated, 0);
    }

    /// The report's test is the statistic's on the instances as the study defines them: one per
    /// output the judge scored, with each human's score of it (humans by id in byte order).
    #[test]
    fn the_alternative_annotator_test_is_run_on_the_outputs() {
        let (h, j) = fixture();
        let options = JudgeOptions {
            min_instances: 2,
            ..JudgeOptions::DEFAULT
        };
        let r = &report(&h, &j, None, &options)[0];
        let human = |item: &str, system: &str| -> Vec<(usize, f64)> {
            (0..3)
                .filter_map(|k| {
                    let row = h.ratings.iter().find(|r| {
                        r.item.as_str() == item
                            && r.system.as_str() == system
                            && r.annotator.as_str() == format!("h{}", k + 1)
                    })?;
                    Some((k, row.score))
                })
                .collect()
        };
        let judged = [
            ("i1", "s1", 5.0),
            ("i1", "s2", 2.0),
            ("i2", "s1", 4.0),
            ("i2", "s2", 2.0),
            ("i3", "s1", 4.0),
            ("i3", "s2", 3.0),
            ("i4", "s1", 4.0),
            ("i4", "s2", 1.0),
        ];
        let instances: Vec<Instance> = judged
            .iter()
            .map(|&(item, system, judge)| Instance {
                humans: human(item, system),
                judge,
            })
            .collect();
        let want = alt_test(
            &instances,
            Alignment::NegativeRmse,
            &AltTestOptions {
                min_instances: 2,
                ..AltTestOptions::DEFAULT
            },
        );
        let got = &r.dimensions[0].alt_test;
        assert_eq!(got.instances, 6);
        assert_eq!(got.humans.len(), 3);
        assert_eq!(got.winning_rate, want.winning_rate);
        assert_eq!(got.advantage_probability, want.advantage_probability);
        for (g, w) in got.humans.iter().zip(&want.tested) {
            assert_eq!(g.annotator, format!("h{}", w.human + 1));
            assert_eq!(
                (g.instances, g.p, g.judge_wins),
                (w.instances, w.p, w.rejected)
            );
        }
        // The preferences' test: accuracy on the three pairs, every human tested.
        let p = &r.preferences.as_ref().unwrap().alt_test;
        assert_eq!(p.alignment, "accuracy");
        assert_eq!(p.instances, 3);
    }

    #[test]
    fn a_judge_with_nothing_in_common_gets_an_empty_section() {
        let (h, _) = fixture();
        let j = data("item_id,system_id,annotator_id,dimension,score\nz9,s1,gpt,q,3\n");
        let r = &report(&h, &j, None, &JudgeOptions::DEFAULT)[0];
        assert_eq!(r.dimensions.len(), 1);
        assert!(r.dimensions[0].points.is_empty());
        assert_eq!(r.dimensions[0].spearman, None);
        assert!(r.preferences.is_none());
        assert!(report(&h, &Data::default(), None, &JudgeOptions::DEFAULT).is_empty());
    }
}
