//! The analysis report, `juror.report/1`: per dimension, the systems' summaries, agreement,
//! paired comparisons and cells to adjudicate; and the pairwise preferences.
//!
//! Every number is one call of a function of [`crate::stats`] on data laid out as
//! `docs/analysis.md` says; this module only arranges the data and the results. Undefined
//! statistics are `null` in the JSON (never NaN), with a `note` saying why where it helps.

mod agreement;
mod breakdown;
mod compare;
mod divergence;
pub mod graded;
mod hypotheses;
pub mod models;
mod preferences;
pub mod raters;
mod scope;
mod standardise;
mod thresholds;
mod types;

pub use agreement::{rating_matrix, unit};
pub use divergence::DivergenceReport;
pub use graded::CannotJudgeCount;
pub use hypotheses::HypothesisTest;
pub use preferences::{
    Leaderboard, LeaderboardRow, TieReport, comparisons, preference_code, preference_matrix,
    preference_unit,
};
pub use scope::{ScopeReport, SecondaryReport};
pub use standardise::z_scores;
pub use thresholds::ThresholdReport;
pub use types::*;

use std::collections::{BTreeMap, HashMap, HashSet};

use crate::analysis::adjudication::Adjudication;
use crate::analysis::data::{Data, LEVEL, Problem, RatingRow};
use crate::analysis::diagnostics::diagnostics;
use crate::analysis::overrides::{AnalysisPlan, Standardise, Unit};
use crate::analysis::rounds::rounds;
use crate::base::fast_hash::FastHash;
use crate::stats::describe::{mean, sd as sample_sd};
use crate::stats::paired::{bootstrap_mean, describe};
use crate::study::Study;
use agreement::rating_agreement;
use breakdown::{group_reports, intake_reports};
use compare::{Testing, adjust, compare, planned_comparisons};
use preferences::preference_report;

/// The report on `data`. Problems of `data` come first in `problems`, then the adjudication
/// file's (cells that are not in the data).
pub fn report(
    data: &Data,
    study: Option<&Study>,
    adjudication: Option<&Adjudication>,
    options: &Options,
) -> Report {
    report_with_key(data, study, None, adjudication, options)
}

/// The plan the report follows, and where it came from: the options' (chosen at analysis
/// time), the study's `analysis` section, the key's (a study published by `juror publish`
/// keeps its plan there, since it names systems), else the default.
pub fn resolve_plan(
    options: &Options,
    study: Option<&Study>,
    key: Option<&crate::publish::SealKey>,
) -> (AnalysisPlan, &'static str, Option<String>) {
    if let Some(plan) = &options.plan {
        return (plan.clone(), "options", None);
    }
    if let Some(plan) = study.and_then(Study::analysis) {
        return (plan.clone(), "study", None);
    }
    if let Some(raw) = key.and_then(|k| k.analysis.as_ref()) {
        let mut systems: Vec<String> = key
            .map(|k| k.systems.values().cloned().collect())
            .unwrap_or_default();
        systems.sort();
        systems.dedup();
        let dimensions: Vec<String> = study
            .map(|s| s.rubric().dimensions.iter().map(|d| d.id.clone()).collect())
            .unwrap_or_default();
        return match AnalysisPlan::from_raw(raw, &systems, &dimensions) {
            Ok(plan) => (plan, "key", None),
            Err(problems) => (
                AnalysisPlan::default(),
                "default",
                Some(format!(
                    "the key's analysis plan cannot be followed ({}); the default plan is used",
                    problems
                        .iter()
                        .map(|(at, message, _)| format!("analysis.{at}: {message}"))
                        .collect::<Vec<_>>()
                        .join("; ")
                )),
            ),
        };
    }
    (AnalysisPlan::default(), "default", None)
}

/// [`report()`] with the key of a published study, whose analysis plan it may hold.
pub fn report_with_key(
    data: &Data,
    study: Option<&Study>,
    key: Option<&crate::publish::SealKey>,
    adjudication: Option<&Adjudication>,
    options: &Options,
) -> Report {
    let mut problems = data.problems.clone();
    let (plan, plan_source, plan_problem) = resolve_plan(options, study, key);
    if let Some(message) = plan_problem {
        problems.push(Problem::new("key", None, message));
    }
    // With a confirmatory scope, everything computed from judgements of items is on the items
    // in scope; the answers and the diagnostics keep every item.
    let all = data;
    let scoping = scope::Scoping::new(&plan, study, &mut problems);
    let in_scope = scoping.as_ref().map(|s| s.in_scope(all));
    let data = in_scope.as_ref().unwrap_or(all);
    let mut dimensions: Vec<DimensionReport> = dimension_order(all, study)
        .into_iter()
        .map(|d| rated_dimension(&d, data, study, adjudication, options, &plan))
        .collect();
    let names: Vec<String> = dimensions.iter().map(|d| d.dimension.clone()).collect();
    let weights = plan.mqm_weights.unwrap_or_default();
    let mut spans = super::spans::report(&data.spans, &weights);
    if let Some(spans) = &mut spans {
        if names.iter().any(|d| d == super::spans::MQM) {
            problems.push(Problem::new(
                "spans",
                None,
                "a dimension of the ratings is named \"mqm\": the MQM scores of the error spans \
                 are not compared as a dimension (rename the dimension to compare them)",
            ));
        } else {
            let mqm = mqm_dimension(data, &weights, study, options, &plan);
            for s in &mut spans.systems {
                s.mqm = mqm.systems.iter().find(|x| x.system == s.system).map(|x| {
                    super::spans::MqmSummary {
                        mean: x.mean,
                        ci95: x.ci95,
                        n: x.n,
                    }
                });
            }
            dimensions.push(mqm);
        }
    }
    let mut planned = hypotheses::hypotheses(data, &plan, &names);
    adjust(&mut dimensions, &mut planned, &plan);
    let scope = scoping.map(|s| {
        let context = scope::Context {
            study,
            adjudication,
            options,
            plan: &plan,
        };
        s.report(all, &mut dimensions, &names, context)
    });

    let summary =
        adjudication.map(|adj| adjudication_summary(adj, all, &dimensions, &mut problems));
    if let Some(study) = study {
        for d in &mut dimensions {
            for f in &mut d.flags {
                f.context = cell_context(study, key, &f.item, &f.system);
            }
        }
    }

    let criteria = thresholds::thresholds(data, &plan);
    let order: Vec<String> = dimensions.iter().map(|d| d.dimension.clone()).collect();
    let raters = raters::report(all, &plan, &order, study);
    let preferred = study.map(Study::systems).unwrap_or_default();
    let asked = options.reference.as_deref();
    let crossed = models::crossed_report(all, &plan, &order, preferred, asked);
    let ordinal = models::ordinal_report(all, &plan, &order, preferred, asked);
    let preferences = preference_report(&data.preferences, options, &plan);
    let (divergence, divergence_comparisons) =
        divergence_of(study, key, (&plan, options), &mut problems);
    Report {
        diagnostics: diagnostics(all, &names),
        format: REPORT_FORMAT_V1,
        settings: Settings {
            flag_sd: options.flag_sd,
            seed: options.seed,
            resamples: options.resamples,
            reference: options.reference.clone(),
            level: LEVEL,
            study: study.map(|s| s.id().to_owned()),
            adjudication: summary.as_ref().map(|a| a.file.clone()),
            exclude_unadjudicated: options
                .exclude_unadjudicated
                .unwrap_or(plan.exclude_unadjudicated),
            ratings: all.ratings.len(),
            preferences: all.preferences.len(),
            plan,
            plan_source,
            platform_ids: data.platform_ids,
        },
        inputs: all.files.clone(),
        problems,
        dimensions,
        preferences,
        graded: graded::graded_report(&data.preferences),
        cannot_judge: graded::cannot_judge_counts(&data.skips),
        choices: super::choices::report(&data.choices, options.seed, options.resamples),
        spans,
        answers: super::answers::report(&all.answers, &all.ratings, study),
        adjudication: summary,
        judges: Vec::new(),
        thresholds: criteria,
        divergence,
        divergence_comparisons,
        raters,
        crossed,
        ordinal,
        hypotheses: planned,
        scope,
    }
}

/// The report on one dimension `d` of the ratings: its label from the study, and the plan's
/// breakdowns by item group and by intake answer.
fn rated_dimension(
    d: &str,
    data: &Data,
    study: Option<&Study>,
    adjudication: Option<&Adjudication>,
    options: &Options,
    plan: &AnalysisPlan,
) -> DimensionReport {
    let scale = study.and_then(|s| s.dimension(d)).map(|dim| {
        dim.scale
            .points
            .iter()
            .map(|p| f64::from(p.value))
            .collect::<Vec<f64>>()
    });
    let rows: Vec<&RatingRow> = data.ratings.iter().filter(|r| r.dimension == d).collect();
    let preferred = study.map(Study::systems).unwrap_or_default();
    let mut report = dimension_report(
        d,
        scale.clone(),
        Rows::of(&rows, plan),
        adjudication,
        preferred,
        options,
        plan,
    );
    report.label = study
        .and_then(|s| s.dimension(d))
        .map(|dim| dim.label.clone());
    if plan.by_group
        && let Some(study) = study
    {
        report.groups = group_reports(d, scale.as_deref(), &rows, study, options, plan);
    }
    if let Some(question) = &plan.by_intake {
        report.intake_groups = intake_reports(
            d,
            scale.as_deref(),
            &rows,
            &data.answers,
            question,
            options,
            plan,
        );
    }
    report
}

/// The error spans' MQM scores as a dimension of the report (with `weights`), no cell flagged.
fn mqm_dimension(
    data: &Data,
    weights: &crate::study::analysis_plan::MqmWeights,
    study: Option<&Study>,
    options: &Options,
    plan: &AnalysisPlan,
) -> DimensionReport {
    let rows = super::spans::mqm_rows(&data.spans, weights);
    let refs: Vec<&RatingRow> = rows.iter().collect();
    let preferred = study.map(Study::systems).unwrap_or_default();
    // An MQM score is not a rating to adjudicate, so none is set aside.
    let mqm_options = Options {
        exclude_unadjudicated: Some(false),
        ..options.clone()
    };
    let mut mqm = dimension_report(
        super::spans::MQM,
        None,
        Rows::of(&refs, plan),
        None,
        preferred,
        &mqm_options,
        plan,
    );
    mqm.label = Some("MQM score (weighted errors; lower is better)".to_owned());
    // An MQM score is not a rating to adjudicate.
    mqm.flags.clear();
    mqm
}

/// What the adjudication file did; its cells that are in no ratings are added to `problems`.
fn adjudication_summary(
    adj: &Adjudication,
    data: &Data,
    dimensions: &[DimensionReport],
    problems: &mut Vec<Problem>,
) -> AdjudicationSummary {
    let mut applied = 0;
    let mut not_flagged = 0;
    for (cell, entry) in adj.cells() {
        let (dimension, item, system) = cell;
        let found = data
            .ratings
            .iter()
            .any(|r| r.dimension == *dimension && r.item == *item && r.system == *system);
        if !found {
            problems.push(Problem::new(
                adj.file(),
                Some(entry.at.clone()),
                format!(
                    "no ratings of item \"{item}\", system \"{system}\" on \"{dimension}\" in \
                     the inputs; check the ids (the score is not used)"
                ),
            ));
            continue;
        }
        applied += 1;
        let flagged = dimensions.iter().any(|d| {
            d.dimension == *dimension
                && d.flags
                    .iter()
                    .any(|f| f.item == *item && f.system == *system)
        });
        if !flagged {
            not_flagged += 1;
        }
    }
    problems.extend(adj.problems().iter().cloned());
    AdjudicationSummary {
        file: adj.file().to_owned(),
        cells: adj.cells().len(),
        applied,
        not_flagged,
        unfilled: adj.unfilled(),
        unresolved: adj.unresolved().len(),
    }
}

/// What the study shows of `item`, with the output of `system` (a published study's outputs
/// are under tokens: the key names their systems); `None` when the study has no such item.
fn cell_context(
    study: &Study,
    key: Option<&crate::publish::SealKey>,
    item: &str,
    system: &str,
) -> Option<CellContext> {
    let found = study.items().iter().find(|i| i.id == item)?;
    let output = found.outputs.get(system).or_else(|| {
        let key = key?;
        found
            .outputs
            .iter()
            .find(|(token, _)| key.systems.get(*token).is_some_and(|s| s == system))
            .map(|(_, text)| text)
    });
    Some(CellContext {
        prompt: found.prompt.plain().into_owned(),
        context: found.context.as_ref().map(|c| c.plain().into_owned()),
        media: found.media.clone(),
        output: output.map(|o| o.plain().into_owned()),
    })
}

/// The systems' output divergence and its comparisons when the plan asks for it; a problem
/// saying why when it cannot be computed (no study, a published one, no prompt shared by
/// annotators).
fn divergence_of(
    study: Option<&Study>,
    key: Option<&crate::publish::SealKey>,
    (plan, options): (&AnalysisPlan, &Options),
    problems: &mut Vec<Problem>,
) -> (Vec<DivergenceReport>, Vec<PairComparison>) {
    if !plan.wants_divergence() {
        return (Vec::new(), Vec::new());
    }
    let Some(study) = study else {
        problems.push(Problem::new(
            "divergence",
            None,
            "output divergence is computed from the study's texts: give the study (--study)",
        ));
        return (Vec::new(), Vec::new());
    };
    match divergence::divergence(study, key) {
        Ok(d) => {
            let compared = divergence::comparisons(&d.per_prompt, plan, options);
            (d.reports, compared)
        }
        Err(why) => {
            problems.push(Problem::new("divergence", None, why));
            (Vec::new(), Vec::new())
        }
    }
}

/// The study's order for its dimensions, then the others in order of first appearance.
fn dimension_order(data: &Data, study: Option<&Study>) -> Vec<String> {
    let mut seen: Vec<String> = Vec::new();
    for r in &data.ratings {
        if !seen.iter().any(|d| *d == r.dimension) {
            seen.push(r.dimension.to_string());
        }
    }
    let Some(study) = study else { return seen };
    let mut out: Vec<String> = study
        .rubric()
        .dimensions
        .iter()
        .map(|d| d.id.clone())
        .filter(|d| seen.contains(d))
        .collect();
    for d in seen {
        if !out.contains(&d) {
            out.push(d);
        }
    }
    out
}

/// The ratings of one cell (item, system), in the order read.
type Cells<'a> = BTreeMap<(&'a str, &'a str), Vec<&'a RatingRow>>;

/// Each system's item means on one dimension, items in byte order: the adjudicated score of a
/// cell when there is one, else the mean of its ratings. Public so that tests and the
/// documentation can say exactly what the comparisons are computed on.
pub fn item_means(
    rows: &[&RatingRow],
    adjudication: Option<&Adjudication>,
) -> BTreeMap<String, BTreeMap<String, f64>> {
    let cells: Cells = group_cells(rows);
    let mut out: BTreeMap<String, BTreeMap<String, f64>> = BTreeMap::new();
    for ((item, system), ratings) in &cells {
        let dimension = &ratings[0].dimension;
        let value = adjudication
            .and_then(|a| a.score(dimension, item, system))
            .unwrap_or_else(|| mean(&ratings.iter().map(|r| r.score).collect::<Vec<_>>()));
        out.entry((*system).to_owned())
            .or_default()
            .insert((*item).to_owned(), value);
    }
    out
}

/// The rows by cell (item, system), rows in the order read: grouped in a hash map, sorted once.
fn group_cells<'a>(rows: &[&'a RatingRow]) -> Cells<'a> {
    let mut by: HashMap<(&'a str, &'a str), Vec<&'a RatingRow>, FastHash> = HashMap::default();
    for r in rows {
        by.entry((r.item.as_str(), r.system.as_str()))
            .or_default()
            .push(r);
    }
    by.into_iter().collect()
}

/// One dimension's rows, and with the plan's `standardise`, their z-scores and the annotators
/// left out of them.
struct Rows<'a> {
    raw: &'a [&'a RatingRow],
    z: Option<(Vec<RatingRow>, Vec<LeftOut>)>,
}

impl<'a> Rows<'a> {
    fn of(raw: &'a [&'a RatingRow], plan: &AnalysisPlan) -> Rows<'a> {
        let z = (plan.standardise == Standardise::Annotator).then(|| z_scores(raw));
        Rows { raw, z }
    }
}

fn dimension_report(
    dimension: &str,
    scale: Option<Vec<f64>>,
    rows: Rows<'_>,
    adjudication: Option<&Adjudication>,
    preferred: &[String],
    options: &Options,
    plan: &AnalysisPlan,
) -> DimensionReport {
    let Rows { raw: rows, z } = rows;
    let cells: Cells = group_cells(rows);

    // Flags, on the raw ratings, at the threshold scaled to this scale's range; only on the
    // dimensions the plan flags (its key criteria).
    let flag_above = flag_above(options.flag_sd, scale.as_deref());
    let flags = if plan.flags(dimension) {
        flags(dimension, &cells, adjudication, flag_above)
    } else {
        Vec::new()
    };

    // With `exclude_unadjudicated`, the flagged cells still without a score are set aside
    // from everything below but agreement (on `raw`).
    let raw = rows;
    let pending: HashSet<(&str, &str)> = flags
        .iter()
        .filter(|f| {
            let aside = options.exclude_unadjudicated;
            aside.unwrap_or(plan.exclude_unadjudicated) && f.adjudicated.is_none()
        })
        .map(|f| (f.item.as_str(), f.system.as_str()))
        .collect();
    let kept: Vec<&RatingRow> = raw
        .iter()
        .copied()
        .filter(|r| !pending.contains(&(r.item.as_str(), r.system.as_str())))
        .collect();
    let rows: &[&RatingRow] = &kept;
    let cells: Cells = group_cells(rows);
    let z = z.map(|(z, left_out)| {
        let z: Vec<RatingRow> = z
            .into_iter()
            .filter(|r| !pending.contains(&(r.item.as_str(), r.system.as_str())))
            .collect();
        (z, left_out)
    });

    // Systems, on the item means (adjudicated where there is a score).
    let means = item_means(rows, adjudication);
    let systems = system_summaries(
        dimension,
        &means,
        &cells,
        adjudication,
        scale.as_deref(),
        options,
    );

    // Comparisons, as the plan says, on its unit: items (the means above) or annotators; on
    // the z-scores when the plan standardises.
    let z_refs: Option<Vec<&RatingRow>> = z.as_ref().map(|(z, _)| z.iter().collect());
    let unit_means = match &z_refs {
        Some(z) => unit_means(plan, z, &item_means(z, None)),
        None => unit_means(plan, rows, &means),
    };
    let comparisons = planned_comparisons(
        plan,
        options,
        dimension,
        &unit_means,
        !plan.is_primary(dimension),
    );

    // Contrasts: per unit, the mean over each group (units that have every system of both).
    let contrasts = contrasts(plan, options, dimension, &unit_means);

    let set_aside = pending.len();
    let annotators = {
        raw.iter()
            .map(|r| r.annotator.as_str())
            .collect::<std::collections::HashSet<_>>()
            .len()
    };
    DimensionReport {
        dimension: dimension.to_owned(),
        label: None,
        agreement: rating_agreement(raw, scale.as_deref()),
        scale,
        flag_above,
        ratings: raw.len(),
        items: {
            raw.iter()
                .map(|r| r.item.as_str())
                .collect::<std::collections::HashSet<_>>()
                .len()
        },
        annotators,
        rounds: rounds(
            rows,
            &systems.iter().map(|s| s.system.clone()).collect::<Vec<_>>(),
            preferred,
            options.reference.as_deref(),
        ),
        systems,
        comparisons,
        contrasts,
        groups: Vec::new(),
        intake_groups: Vec::new(),
        flags,
        set_aside,
        standardised: z.map(|(z, left_out)| standardise::standardised(rows, &z, left_out)),
    }
}

/// The range of scale [`Options::flag_sd`] is stated for: a 1–5 scale's.
pub const FLAG_SD_RANGE: f64 = 4.0;

/// The sample SD above which a cell of a dimension on `scale` is flagged: `flag_sd` as stated
/// for a 1–5 scale, times the scale's range over 4 (so 37.5 on a 0–100 scale for 1.5: two
/// ratings 53 points apart, as 2.1 points are on 1–5); `flag_sd` itself without a scale or on
/// a scale of one point.
pub fn flag_above(flag_sd: f64, scale: Option<&[f64]>) -> f64 {
    let range = scale_range(scale);
    if range.is_finite() && range > 0.0 {
        flag_sd * range / FLAG_SD_RANGE
    } else {
        flag_sd
    }
}

/// The distance from a scale's lowest point to its highest (0 without a scale).
pub fn scale_range(scale: Option<&[f64]>) -> f64 {
    scale.map_or(0.0, |points| {
        let low = points.iter().copied().fold(f64::INFINITY, f64::min);
        let high = points.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        high - low
    })
}

/// The cells (item, system) of one dimension whose ratings have a sample SD above
/// `flag_above`, with their adjudicated score and experts.
fn flags(
    dimension: &str,
    cells: &Cells<'_>,
    adjudication: Option<&Adjudication>,
    flag_above: f64,
) -> Vec<Flag> {
    let adjudicated =
        |item: &str, system: &str| adjudication.and_then(|a| a.score(dimension, item, system));
    let mut flags = Vec::new();
    for ((item, system), ratings) in cells {
        if ratings.len() < 2 {
            continue;
        }
        let scores: Vec<f64> = ratings.iter().map(|r| r.score).collect();
        let sd = sample_sd(&scores);
        if sd > flag_above {
            flags.push(Flag {
                item: (*item).to_owned(),
                system: (*system).to_owned(),
                n: scores.len(),
                mean: mean(&scores),
                sd,
                ratings: ratings
                    .iter()
                    .map(|r| AnnotatorScore {
                        annotator: r.annotator.to_string(),
                        score: r.score,
                    })
                    .collect(),
                adjudicated: adjudicated(item, system),
                experts: adjudication.map_or_else(Vec::new, |a| {
                    let experts = a.experts(dimension, item, system);
                    match experts {
                        [one] if one.expert.is_empty() => Vec::new(),
                        _ => experts.to_vec(),
                    }
                }),
                context: None,
            });
        }
    }
    flags
}

/// Each system's summary on its item means `means` (adjudicated where there is a score), with
/// the scores used: a cell's adjudicated score, else its ratings.
fn system_summaries(
    dimension: &str,
    means: &BTreeMap<String, BTreeMap<String, f64>>,
    cells: &Cells<'_>,
    adjudication: Option<&Adjudication>,
    scale: Option<&[f64]>,
    options: &Options,
) -> Vec<SystemSummary> {
    let adjudicated =
        |item: &str, system: &str| adjudication.and_then(|a| a.score(dimension, item, system));
    means
        .iter()
        .map(|(system, by_item)| {
            let values: Vec<f64> = by_item.values().copied().collect();
            let mut used: Vec<f64> = Vec::new();
            let mut replaced = 0;
            for ((item, s), ratings) in cells {
                if s != system {
                    continue;
                }
                match adjudicated(item, s) {
                    Some(score) => {
                        replaced += 1;
                        used.push(score);
                    }
                    None => used.extend(ratings.iter().map(|r| r.score)),
                }
            }
            system_summary(system, &values, &used, replaced, scale, options)
        })
        .collect()
}

/// The plan's contrasts on `dimension`: per unit, the mean over each group of systems (units
/// that have every system of both), compared as a pair.
fn contrasts(
    plan: &AnalysisPlan,
    options: &Options,
    dimension: &str,
    unit_means: &BTreeMap<String, BTreeMap<String, f64>>,
) -> Vec<PairComparison> {
    plan.contrasts
        .iter()
        .filter(|c| c.dimension.as_deref().is_none_or(|d| d == dimension))
        .map(|c| {
            let group_means = |group: &[String]| -> BTreeMap<String, f64> {
                let Some(first) = group.first().and_then(|s| unit_means.get(s)) else {
                    return BTreeMap::new();
                };
                first
                    .keys()
                    .filter_map(|unit| {
                        let values: Option<Vec<f64>> = group
                            .iter()
                            .map(|s| unit_means.get(s).and_then(|m| m.get(unit)).copied())
                            .collect();
                        values.map(|v| (unit.clone(), mean(&v)))
                    })
                    .collect()
            };
            let hypothesis = super::overrides::Hypothesis {
                name: Some(c.name.clone()),
                dimension: c.dimension.clone(),
                a: c.a.join("+"),
                b: c.b.join("+"),
                alternative: c.alternative,
                margin: None,
            };
            compare(
                &hypothesis.a,
                &hypothesis.b,
                &group_means(&c.a),
                &group_means(&c.b),
                Testing { plan, options },
                Some(&hypothesis),
                !plan.is_primary(dimension),
            )
        })
        .collect()
}

/// Each system's means on the plan's unit: the item means given, or per annotator.
fn unit_means(
    plan: &AnalysisPlan,
    rows: &[&RatingRow],
    item_means: &BTreeMap<String, BTreeMap<String, f64>>,
) -> BTreeMap<String, BTreeMap<String, f64>> {
    match plan.unit {
        Unit::Item => item_means.clone(),
        Unit::Annotator => annotator_means(rows),
    }
}

fn system_summary(
    system: &str,
    item_means: &[f64],
    used: &[f64],
    adjudicated: usize,
    scale: Option<&[f64]>,
    options: &Options,
) -> SystemSummary {
    let mut counts: Vec<ScoreCount> = scale
        .unwrap_or_default()
        .iter()
        .map(|&score| ScoreCount { score, count: 0 })
        .collect();
    for &s in used {
        match counts.iter_mut().find(|c| c.score == s) {
            Some(c) => c.count += 1,
            None => counts.push(ScoreCount { score: s, count: 1 }),
        }
    }
    counts.sort_by(|x, y| x.score.total_cmp(&y.score));
    let described = describe(item_means).ok();
    let bootstrap = bootstrap_of(item_means, options);
    SystemSummary {
        system: system.to_owned(),
        n: item_means.len(),
        n_ratings: used.len(),
        mean: described.map_or_else(|| mean(item_means), |d| d.mean),
        sd: described.map(|d| d.sd),
        median: described.map_or_else(|| mean(item_means), |d| d.median),
        ci95: described.map(|d| d.ci95.into()),
        bootstrap,
        distribution: counts,
        adjudicated,
    }
}

/// Each system's mean per annotator on one dimension (over every item the annotator rated),
/// annotators in byte order: the unit of a plan with `"unit": "annotator"`. Adjudicated scores
/// replace cells, not an annotator's ratings, so they are not used here.
pub fn annotator_means(rows: &[&RatingRow]) -> BTreeMap<String, BTreeMap<String, f64>> {
    let mut sums: BTreeMap<&str, BTreeMap<&str, (f64, usize)>> = BTreeMap::new();
    for r in rows {
        let cell = sums
            .entry(r.system.as_str())
            .or_default()
            .entry(r.annotator.as_str())
            .or_insert((0.0, 0));
        cell.0 += r.score;
        cell.1 += 1;
    }
    sums.into_iter()
        .map(|(system, by)| {
            let means = by
                .into_iter()
                .map(|(annotator, (sum, n))| (annotator.to_owned(), sum / n as f64))
                .collect();
            (system.to_owned(), means)
        })
        .collect()
}

/// The 95% percentile bootstrap interval of the mean of `xs`, with the report's resamples and
/// seed; `None` where there is nothing to resample.
fn bootstrap_of(xs: &[f64], options: &Options) -> Option<Bootstrap> {
    bootstrap_mean(xs, LEVEL, options.resamples, options.seed)
        .ok()
        .map(|b| Bootstrap {
            low: b.interval.low,
            high: b.interval.high,
            level: b.level,
            resamples: b.resamples,
            seed: options.seed,
        })
}

#[cfg(test)]
mod context_tests {
    use crate::publish::SealKey;

    fn fixture(name: &str) -> String {
        let path = format!(
            "{}/tests/fixtures/analysis/{name}",
            env!("CARGO_MANIFEST_DIR")
        );
        std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
    }

    /// A sealed study names its outputs by token: the key finds the output of the flagged
    /// cell's system, which the adjudication sheet and form show.
    #[test]
    fn a_sealed_studys_output_is_found_through_its_key() {
        let study = crate::front::open::open(&fixture("pandalm-sealed-study.json"))
            .unwrap()
            .study;
        let key: SealKey = serde_json::from_str(&fixture("pandalm-key.json")).unwrap();
        let item = &study.items()[0];
        let (token, text) = item.outputs.iter().next().unwrap();
        let system = &key.systems[token];
        let c = super::cell_context(&study, Some(&key), &item.id, system).unwrap();
        assert_eq!(c.output.as_deref(), Some(&*text.plain()));
        assert_eq!(c.prompt, item.prompt.plain());
        let without_key = super::cell_context(&study, None, &item.id, system).unwrap();
        assert_eq!(without_key.output, None, "the study names tokens only");
        assert!(super::cell_context(&study, Some(&key), "no-such-item", system).is_none());
    }
}
