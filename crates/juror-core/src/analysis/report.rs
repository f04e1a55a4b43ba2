//! The analysis report, `juror.report/1`: per dimension, the systems' summaries, agreement,
//! paired comparisons and cells to adjudicate; and the pairwise preferences.
//!
//! Every number is one call of a function of [`crate::stats`] on data laid out as
//! `docs/analysis.md` says; this module only arranges the data and the results. Undefined
//! statistics are `null` in the JSON (never NaN), with a `note` saying why where it helps.

use std::collections::{BTreeMap, HashMap};

use serde::Serialize;

use super::adjudication::Adjudication;
use super::diagnostics::{Diagnostics, diagnostics};
use super::input::{Data, FileSummary, PreferenceRow, Problem, RatingRow, number, ordered};
use super::name::Ids;
use super::plan::{AnalysisPlan, Correction, Family, Test, Unit};
use super::rounds::{Rounds, rounds};
use crate::fast_hash::FastHash;
use crate::stats::agreement::{
    Metric, Ratings, fleiss_kappa, krippendorff_alpha, pairwise, percent_agreement,
};
use crate::stats::describe::Interval;
use crate::stats::paired::{
    self, PairedError, Wilcoxon, WilcoxonDistribution, bootstrap_mean, describe, paired_effect,
    wilcoxon,
};
use crate::stats::paired::{Alternative, WilcoxonMethod, t_test, wilcoxon_p};
use crate::stats::preference::{
    BradleyTerryOptions, Comparison, Outcome, Tally, bradley_terry, bradley_terry_bootstrap,
};
use crate::study::Study;

/// The `format` of reports.
pub const REPORT_FORMAT_V1: &str = "juror.report/1";

/// The confidence level of every interval in the report.
pub const LEVEL: f64 = 0.95;

/// Separates the item and the system in an agreement unit's name (neither id can hold it:
/// it is a control character).
pub const UNIT_SEPARATOR: char = '\u{1f}';

/// How the report is computed.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct Options {
    /// A cell (item, system, dimension) is flagged when the sample SD (n − 1) of its ratings is
    /// above this. Default 1.5.
    pub flag_sd: f64,
    /// The seed of every bootstrap. Default 0.
    pub seed: u64,
    /// Bootstrap resamples. Default 2000.
    pub resamples: usize,
    /// The reference system of the mixed model over rounds; `None` (the default): the study's
    /// first system that was rated, else the first in byte order.
    pub reference: Option<String>,
    /// The analysis plan, overriding the study's (exploratory); `None` (the default): the
    /// study's `analysis` section, else its key's, else [`AnalysisPlan::default`].
    pub plan: Option<AnalysisPlan>,
    /// Show platform participants' ids (a Prolific PID, an MTurk worker id) as the ratings
    /// files hold them; `false` (the default): under pseudonyms ([`crate::pseudonym`]).
    pub reveal_ids: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            flag_sd: 1.5,
            seed: 0,
            resamples: 2000,
            reference: None,
            plan: None,
            reveal_ids: false,
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The report's shape
// ---------------------------------------------------------------------------------------------

/// The whole report.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct Report {
    /// Always `"juror.report/1"`.
    pub format: &'static str,
    /// The options, the confidence level and what was given.
    pub settings: Settings,
    /// What was read from each input.
    pub inputs: Vec<FileSummary>,
    /// Every problem with the inputs (and the adjudication file), each with file and place.
    pub problems: Vec<Problem>,
    /// One section per rating dimension: study order with a study, else first appearance.
    pub dimensions: Vec<DimensionReport>,
    /// The pairwise preferences; `null` when there are none.
    pub preferences: Option<PreferenceReport>,
    /// Best-of-N choices and rankings, as made (omitted when there are none).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub choices: Option<super::choices::ChoiceReport>,
    /// Output questions, flags, notes and surveys (omitted when there are none).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub answers: Option<super::answers::AnswersReport>,
    /// What the adjudication file did; `null` without one.
    pub adjudication: Option<AdjudicationSummary>,
    /// Position bias, time per trial, straight-lining and attention checks, on the raw data;
    /// shown, never used to exclude anything.
    pub diagnostics: Diagnostics,
}

/// The settings the report was made with.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct Settings {
    pub flag_sd: f64,
    pub seed: u64,
    pub resamples: usize,
    /// The mixed model's reference system, when one was asked for (`--reference`).
    pub reference: Option<String>,
    pub level: f64,
    /// The study id, when the inputs were checked against a study.
    pub study: Option<String>,
    /// The adjudication file, if any.
    pub adjudication: Option<String>,
    /// Ratings kept, over all dimensions.
    pub ratings: usize,
    /// Preference judgements kept.
    pub preferences: usize,
    /// The analysis plan the comparisons follow.
    pub plan: AnalysisPlan,
    /// Where it came from: `study` (pre-registered in the study file), `key` (the study's,
    /// kept in the key by `juror publish`), `options` (chosen at analysis time: exploratory)
    /// or `default`.
    pub plan_source: &'static str,
    /// How the ids of participants from a recruitment platform are shown, when any ratings
    /// file came from one: pseudonymised with the key's secret, without one, or shown.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub platform_ids: Option<&'static str>,
}

/// A two-sided interval.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, schemars::JsonSchema)]
pub struct Ci {
    pub low: f64,
    pub high: f64,
}

/// `k` of `n` as a share and its 95% Wilson interval; both `None` when `n` is 0. Every share
/// of the report (choices, answers, flags) is this one.
pub(crate) fn share_of(k: u64, n: u64) -> (Option<f64>, Option<Ci>) {
    (
        (n > 0).then(|| k as f64 / n as f64),
        crate::stats::preference::wilson(k, n, LEVEL)
            .ok()
            .map(Ci::from),
    )
}

impl From<Interval> for Ci {
    fn from(i: Interval) -> Ci {
        Ci {
            low: i.low,
            high: i.high,
        }
    }
}

/// One rating dimension.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct DimensionReport {
    pub dimension: String,
    /// The study's scale for it, or `null` (then the categories are the values seen).
    pub scale: Option<Vec<f64>>,
    /// Ratings of this dimension, as given (before adjudication).
    pub ratings: usize,
    pub items: usize,
    pub annotators: usize,
    pub systems: Vec<SystemSummary>,
    pub agreement: Agreement,
    pub comparisons: Vec<PairComparison>,
    /// The plan's contrasts of groups of systems on this dimension: `system_a` and `system_b`
    /// are the groups joined by `+`, `hypothesis` the contrast's name.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub contrasts: Vec<PairComparison>,
    /// With the plan's `by_group`: the dimension per item group (the study's `items[].group`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub groups: Vec<GroupReport>,
    /// With the plan's `by_intake`: the dimension per answer to that intake question (`group`
    /// is the answer; `items` the items those annotators rated).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub intake_groups: Vec<GroupReport>,
    pub flags: Vec<Flag>,
    /// Ratings over rounds (slopes and the mixed model), on the raw ratings that have a round;
    /// `null` when fewer than two rounds were rated.
    pub rounds: Option<Rounds>,
}

/// One item group of a dimension: its systems and comparisons on its items only, uncorrected.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct GroupReport {
    pub group: String,
    /// Items of the group with ratings on the dimension.
    pub items: usize,
    pub systems: Vec<SystemSummary>,
    /// As the plan compares, within the group; `p_holm`, `p_bonferroni` and `p_adjusted` are
    /// `null`: a breakdown is not corrected.
    pub comparisons: Vec<PairComparison>,
}

/// One system on one dimension, over its item means (see `docs/analysis.md`).
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct SystemSummary {
    pub system: String,
    /// Items rated (the sample size of every statistic below but `distribution`).
    pub n: usize,
    /// Ratings used: an adjudicated cell counts as one, the expert's.
    pub n_ratings: usize,
    /// Mean of the item means.
    pub mean: f64,
    /// SD of the item means (n − 1); `null` with one item.
    pub sd: Option<f64>,
    /// Median of the item means.
    pub median: f64,
    /// 95% t interval of the mean of item means; `null` with one item.
    pub ci95: Option<Ci>,
    /// Seeded percentile bootstrap interval of the mean of item means.
    pub bootstrap: Option<Bootstrap>,
    /// Every score used and how often (with a scale, every point of it, zeros included).
    pub distribution: Vec<ScoreCount>,
    /// Cells whose ratings were replaced by an adjudicated score.
    pub adjudicated: usize,
}

/// A bootstrap interval.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, schemars::JsonSchema)]
pub struct Bootstrap {
    pub low: f64,
    pub high: f64,
    pub level: f64,
    pub resamples: usize,
    pub seed: u64,
}

/// How many ratings had a score.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, schemars::JsonSchema)]
pub struct ScoreCount {
    pub score: f64,
    pub count: usize,
}

/// Agreement on one dimension's raw ratings; units are (item, system) cells.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct Agreement {
    /// Cells rated by at least two annotators (the pairable ones).
    pub units: usize,
    pub annotators: usize,
    pub fleiss_kappa: Option<f64>,
    pub krippendorff_alpha: Alphas,
    pub cohen_kappa: Vec<CohenPair>,
    pub percent_agreement: Option<f64>,
}

/// Krippendorff's alpha at three levels of measurement.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, schemars::JsonSchema)]
pub struct Alphas {
    pub nominal: Option<f64>,
    pub ordinal: Option<f64>,
    pub interval: Option<f64>,
}

/// Cohen's kappa of one pair of annotators over the units both rated (pairs who share no unit
/// are left out of the report).
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct CohenPair {
    pub annotator_a: String,
    pub annotator_b: String,
    pub units: usize,
    /// Share of those units with the same value (not corrected for chance).
    pub agreement: Option<f64>,
    pub unweighted: Option<f64>,
    pub linear: Option<f64>,
    pub quadratic: Option<f64>,
}

/// Two systems on the units both have (items or annotators, as the plan says), on each
/// unit's mean.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct PairComparison {
    pub system_a: String,
    pub system_b: String,
    /// The hypothesis of the plan this comparison tests, by name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hypothesis: Option<String>,
    /// The alternative about a − b the p-values are for.
    pub alternative: super::plan::Alternative,
    /// Whether the dimension is exploratory (not among the plan's primary ones).
    pub exploratory: bool,
    /// Units both systems have.
    pub n: usize,
    pub mean_a: Option<f64>,
    pub mean_b: Option<f64>,
    /// Mean of the differences a − b.
    pub mean_diff: Option<f64>,
    /// Its two-sided 95% t interval.
    pub mean_diff_ci95: Option<Ci>,
    /// Its 95% percentile bootstrap interval (resampling units; the report's seed and
    /// resamples).
    pub mean_diff_bootstrap: Option<Bootstrap>,
    /// The Wilcoxon signed-rank test of the differences, when the plan asks for it.
    pub wilcoxon: Option<WilcoxonResult>,
    /// The paired t-test, when the plan asks for it.
    pub t_test: Option<TTestResult>,
    /// With a non-inferiority margin: the tests of a − b > −margin.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub non_inferiority: Option<NonInferiority>,
    /// The p-value of the plan's first test, for its alternative: what is corrected.
    pub p_value: Option<f64>,
    /// Holm-adjusted p over the plan's family (by default every comparison of the report).
    pub p_holm: Option<f64>,
    /// Bonferroni-adjusted p over the plan's family.
    pub p_bonferroni: Option<f64>,
    /// The p-value adjusted by the plan's correction (Holm, Bonferroni, or none).
    pub p_adjusted: Option<f64>,
    pub d_z: Option<f64>,
    /// The 95% interval of d_z from the noncentral t (Steiger and Fouladi 1997).
    pub d_z_ci95: Option<Ci>,
    pub g_z: Option<f64>,
    pub rank_biserial: Option<f64>,
    /// Why something is `null`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
}

/// The paired t-test's result.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, schemars::JsonSchema)]
pub struct TTestResult {
    pub t: f64,
    pub df: f64,
    /// For the comparison's alternative.
    pub p_value: f64,
}

/// Tests of non-inferiority: H0 a − b ≤ −margin against H1 a − b > −margin.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, schemars::JsonSchema)]
pub struct NonInferiority {
    pub margin: f64,
    /// The one-sided paired t-test of the differences against −margin.
    pub p_t: Option<f64>,
    /// The one-sided signed-rank test of the differences + margin.
    pub p_wilcoxon: Option<f64>,
}

/// The signed-rank test's details.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, schemars::JsonSchema)]
pub struct WilcoxonResult {
    /// min(W+, W−).
    pub statistic: f64,
    pub w_plus: f64,
    pub w_minus: f64,
    /// Non-zero differences ranked.
    pub n_nonzero: usize,
    pub zeros: usize,
    pub ties: bool,
    /// `exact`, `permutation` or `normal`.
    pub method: &'static str,
    pub z: Option<f64>,
    /// For the comparison's alternative.
    pub p_value: f64,
}

impl From<Wilcoxon> for WilcoxonResult {
    fn from(w: Wilcoxon) -> WilcoxonResult {
        WilcoxonResult {
            // + 0.0 turns a −0 (min of two zeros) into 0.
            statistic: w.statistic + 0.0,
            w_plus: w.w_plus,
            w_minus: w.w_minus,
            n_nonzero: w.n,
            zeros: w.zeros,
            ties: w.ties,
            method: match w.distribution {
                WilcoxonDistribution::Exact => "exact",
                WilcoxonDistribution::Permutation => "permutation",
                WilcoxonDistribution::Normal => "normal",
            },
            z: w.z,
            p_value: w.p_value,
        }
    }
}

/// A cell whose annotators disagree: sample SD above `flag_sd`.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct Flag {
    pub item: String,
    pub system: String,
    pub n: usize,
    pub mean: f64,
    pub sd: f64,
    pub ratings: Vec<AnnotatorScore>,
    /// The adjudicated score that replaces these ratings, if the adjudication file has one.
    pub adjudicated: Option<f64>,
}

/// One annotator's score.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct AnnotatorScore {
    pub annotator: String,
    pub score: f64,
}

/// The pairwise preferences.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct PreferenceReport {
    pub judgements: usize,
    /// Of the judgements, those derived from best-of-N choices and rankings (each choice a win
    /// over every other output shown; each ranking every pair): a secondary view of `choices`.
    #[serde(skip_serializing_if = "is_zero")]
    pub derived_from_choices: usize,
    /// Systems, in byte order.
    pub systems: Vec<String>,
    pub pairs: Vec<PreferencePair>,
    pub bradley_terry: Option<BradleyTerryReport>,
    pub agreement: PreferenceAgreement,
}

/// The record of `system_a` against `system_b` (byte order), in either position shown.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct PreferencePair {
    pub system_a: String,
    pub system_b: String,
    pub wins: u64,
    pub losses: u64,
    pub ties: u64,
    /// wins / (wins + losses); `null` when every judgement was a tie.
    pub win_rate: Option<f64>,
    pub wilson: Option<Ci>,
    pub clopper_pearson: Option<Ci>,
    /// Exact two-sided binomial test of win rate ½.
    pub p_value: Option<f64>,
}

/// Bradley–Terry strengths (summing to 1) with bootstrap intervals.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct BradleyTerryReport {
    pub scores: BTreeMap<String, BradleyTerryScore>,
    pub iterations: usize,
    pub converged: bool,
    pub strongly_connected: bool,
    pub never_won: Vec<String>,
    pub never_lost: Vec<String>,
    pub level: f64,
    pub resamples: usize,
    pub seed: u64,
}

/// One system's strength.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, schemars::JsonSchema)]
pub struct BradleyTerryScore {
    pub score: f64,
    pub ci: Option<Ci>,
    pub resamples_used: usize,
}

/// Agreement on preference labels; units are (item, pair of systems).
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct PreferenceAgreement {
    /// Units judged by at least two annotators.
    pub units: usize,
    pub annotators: usize,
    pub fleiss_kappa: Option<f64>,
    pub krippendorff_alpha: NominalAlpha,
    pub cohen_kappa: Vec<CohenPreferencePair>,
    pub percent_agreement: Option<f64>,
}

/// Krippendorff's alpha for nominal labels.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, schemars::JsonSchema)]
pub struct NominalAlpha {
    pub nominal: Option<f64>,
}

/// Unweighted Cohen's kappa of one pair of annotators on preference labels.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct CohenPreferencePair {
    pub annotator_a: String,
    pub annotator_b: String,
    pub units: usize,
    pub agreement: Option<f64>,
    pub unweighted: Option<f64>,
}

/// What the adjudication file did.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct AdjudicationSummary {
    pub file: String,
    /// Cells with a score in the file.
    pub cells: usize,
    /// Of those, cells found in the data and replaced.
    pub applied: usize,
    /// Of those applied, cells not flagged at this `flag_sd` (replaced all the same).
    pub not_flagged: usize,
    /// Rows with an empty score (not yet adjudicated), ignored.
    pub unfilled: usize,
}

// ---------------------------------------------------------------------------------------------
// Computing it
// ---------------------------------------------------------------------------------------------

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
    let mut dimensions: Vec<DimensionReport> = dimension_order(data, study)
        .into_iter()
        .map(|d| {
            let scale = study.and_then(|s| s.dimension(&d)).map(|dim| {
                dim.scale
                    .points
                    .iter()
                    .map(|p| f64::from(p.value))
                    .collect::<Vec<f64>>()
            });
            let rows: Vec<&RatingRow> = data.ratings.iter().filter(|r| r.dimension == d).collect();
            let preferred = study.map(Study::systems).unwrap_or_default();
            let mut report = dimension_report(
                &d,
                scale.clone(),
                &rows,
                adjudication,
                preferred,
                options,
                &plan,
            );
            if plan.by_group
                && let Some(study) = study
            {
                report.groups = group_reports(&d, scale.as_deref(), &rows, study, options, &plan);
            }
            if let Some(question) = &plan.by_intake {
                report.intake_groups = intake_reports(
                    &d,
                    scale.as_deref(),
                    &rows,
                    &data.answers,
                    question,
                    options,
                    &plan,
                );
            }
            report
        })
        .collect();
    adjust(&mut dimensions, &plan);

    let summary = adjudication.map(|adj| {
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
                        "no ratings of item \"{item}\", system \"{system}\" on \"{dimension}\" \
                         in the inputs; check the ids (the score is not used)"
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
        }
    });

    let names: Vec<String> = dimensions.iter().map(|d| d.dimension.clone()).collect();
    Report {
        diagnostics: diagnostics(data, &names),
        format: REPORT_FORMAT_V1,
        settings: Settings {
            flag_sd: options.flag_sd,
            seed: options.seed,
            resamples: options.resamples,
            reference: options.reference.clone(),
            level: LEVEL,
            study: study.map(|s| s.id().to_owned()),
            adjudication: summary.as_ref().map(|a| a.file.clone()),
            ratings: data.ratings.len(),
            preferences: data.preferences.len(),
            plan,
            plan_source,
            platform_ids: data.platform_ids,
        },
        inputs: data.files.clone(),
        problems,
        dimensions,
        preferences: preference_report(&data.preferences, options),
        choices: super::choices::report(&data.choices),
        answers: super::answers::report(&data.answers, &data.ratings, study),
        adjudication: summary,
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

fn mean(xs: &[f64]) -> f64 {
    xs.iter().sum::<f64>() / xs.len() as f64
}

/// Sample SD (n − 1), two passes, as [`crate::stats::paired::describe`].
fn sample_sd(xs: &[f64]) -> f64 {
    let m = mean(xs);
    let ss: f64 = xs.iter().map(|x| (x - m) * (x - m)).sum();
    (ss / (xs.len() - 1) as f64).sqrt()
}

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

fn dimension_report(
    dimension: &str,
    scale: Option<Vec<f64>>,
    rows: &[&RatingRow],
    adjudication: Option<&Adjudication>,
    preferred: &[String],
    options: &Options,
    plan: &AnalysisPlan,
) -> DimensionReport {
    let cells: Cells = group_cells(rows);
    let adjudicated =
        |item: &str, system: &str| adjudication.and_then(|a| a.score(dimension, item, system));

    // Flags, on the raw ratings.
    let mut flags = Vec::new();
    for ((item, system), ratings) in &cells {
        if ratings.len() < 2 {
            continue;
        }
        let scores: Vec<f64> = ratings.iter().map(|r| r.score).collect();
        let sd = sample_sd(&scores);
        if sd > options.flag_sd {
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
            });
        }
    }

    // Systems, on the item means (adjudicated where there is a score).
    let means = item_means(rows, adjudication);
    let systems: Vec<SystemSummary> = means
        .iter()
        .map(|(system, by_item)| {
            let values: Vec<f64> = by_item.values().copied().collect();
            let mut used: Vec<f64> = Vec::new();
            let mut replaced = 0;
            for ((item, s), ratings) in &cells {
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
            system_summary(system, &values, &used, replaced, scale.as_deref(), options)
        })
        .collect();

    // Comparisons, as the plan says, on its unit: items (the means above) or annotators.
    let unit_means = unit_means(plan, rows, &means);
    let comparisons = planned_comparisons(
        plan,
        options,
        dimension,
        &unit_means,
        !plan.is_primary(dimension),
    );

    // Contrasts: per unit, the mean over each group (units that have every system of both).
    let contrasts: Vec<PairComparison> = plan
        .contrasts
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
            let hypothesis = super::plan::Hypothesis {
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
        .collect();

    let annotators = {
        rows.iter()
            .map(|r| r.annotator.as_str())
            .collect::<std::collections::HashSet<_>>()
            .len()
    };
    DimensionReport {
        dimension: dimension.to_owned(),
        agreement: rating_agreement(rows, scale.as_deref()),
        scale,
        ratings: rows.len(),
        items: {
            rows.iter()
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
    }
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

/// The plan's comparisons of the systems of `unit_means` on `dimension`, each oriented and
/// tested as its hypothesis (or the plan) says.
fn planned_comparisons(
    plan: &AnalysisPlan,
    options: &Options,
    dimension: &str,
    unit_means: &BTreeMap<String, BTreeMap<String, f64>>,
    exploratory: bool,
) -> Vec<PairComparison> {
    let names: Vec<&str> = unit_means.keys().map(String::as_str).collect();
    plan.pairs(&names)
        .into_iter()
        .map(|(a, b)| {
            let (a, b) = oriented(plan, dimension, a, b);
            let hypothesis = plan.hypothesis(dimension, &a, &b);
            compare(
                &a,
                &b,
                &unit_means[&a],
                &unit_means[&b],
                Testing { plan, options },
                hypothesis,
                exploratory,
            )
        })
        .collect()
}

/// (a, b), or (b, a) when the plan has a hypothesis about b against a and none the other way.
pub(crate) fn oriented(
    plan: &AnalysisPlan,
    dimension: &str,
    a: String,
    b: String,
) -> (String, String) {
    match (
        plan.hypothesis(dimension, &a, &b),
        plan.hypothesis(dimension, &b, &a),
    ) {
        (None, Some(_)) => (b, a),
        _ => (a, b),
    }
}

/// The dimension per item group of the study (groups in order of first appearance among the
/// items): systems and comparisons on the group's items, as the plan compares, uncorrected, on
/// the raw ratings (adjudication settles cells of the whole report, not of a breakdown).
fn group_reports(
    dimension: &str,
    scale: Option<&[f64]>,
    rows: &[&RatingRow],
    study: &Study,
    options: &Options,
    plan: &AnalysisPlan,
) -> Vec<GroupReport> {
    let group_of: HashMap<&str, &str> = study
        .items()
        .iter()
        .filter_map(|i| Some((i.id.as_str(), i.group.as_deref()?)))
        .collect();
    let mut groups: Vec<&str> = Vec::new();
    for item in study.items() {
        if let Some(g) = item.group.as_deref()
            && !groups.contains(&g)
        {
            groups.push(g);
        }
    }
    let by = Breakdown {
        dimension,
        scale,
        rows,
        options,
        plan,
    };
    by.groups(&groups, |r| group_of.get(r.item.as_str()).copied())
}

/// The dimension per answer to the intake question `question`: each group is the annotators
/// who gave that answer (`answers` as read from the ratings files; a multiple choice puts an
/// annotator in every group they chose), in order of first appearance.
fn intake_reports(
    dimension: &str,
    scale: Option<&[f64]>,
    rows: &[&RatingRow],
    answers: &[super::answers::AnswerRow],
    question: &str,
    options: &Options,
    plan: &AnalysisPlan,
) -> Vec<GroupReport> {
    let mut groups: Vec<&str> = Vec::new();
    let mut of: HashMap<&str, Vec<&str>> = HashMap::new();
    for a in answers
        .iter()
        .filter(|a| a.phase == super::answers::Phase::Intake && a.question == question)
    {
        if !groups.contains(&a.value.as_str()) {
            groups.push(&a.value);
        }
        of.entry(a.annotator.as_str()).or_default().push(&a.value);
    }
    let by = Breakdown {
        dimension,
        scale,
        rows,
        options,
        plan,
    };
    groups
        .iter()
        .flat_map(|&g| {
            by.groups(&[g], |r| {
                of.get(r.annotator.as_str())
                    .and_then(|v| v.iter().find(|x| **x == g).copied())
            })
        })
        .collect()
}

/// What a breakdown of one dimension is computed from.
struct Breakdown<'a> {
    dimension: &'a str,
    scale: Option<&'a [f64]>,
    rows: &'a [&'a RatingRow],
    options: &'a Options,
    plan: &'a AnalysisPlan,
}

impl Breakdown<'_> {
    /// One report per group of `groups` (those with ratings), the rows of a group being those
    /// `group_of` puts in it.
    fn groups<'g>(
        &self,
        groups: &[&'g str],
        group_of: impl Fn(&RatingRow) -> Option<&'g str>,
    ) -> Vec<GroupReport> {
        let Breakdown {
            dimension,
            scale,
            rows,
            options,
            plan,
        } = *self;
        groups
            .iter()
            .copied()
            .filter_map(|group| {
                let mine: Vec<&RatingRow> = rows
                    .iter()
                    .copied()
                    .filter(|r| group_of(r) == Some(group))
                    .collect();
                if mine.is_empty() {
                    return None;
                }
                // The raw ratings: adjudication settles cells of the whole report.
                let means = item_means(&mine, None);
                let systems = means
                    .iter()
                    .map(|(system, by_item)| {
                        let values: Vec<f64> = by_item.values().copied().collect();
                        let used: Vec<f64> = mine
                            .iter()
                            .filter(|r| r.system == *system)
                            .map(|r| r.score)
                            .collect();
                        system_summary(system, &values, &used, 0, scale, options)
                    })
                    .collect();
                let comparisons = planned_comparisons(
                    plan,
                    options,
                    dimension,
                    &unit_means(plan, &mine, &means),
                    true,
                );
                let items = mine
                    .iter()
                    .map(|r| r.item.as_str())
                    .collect::<std::collections::HashSet<_>>()
                    .len();
                Some(GroupReport {
                    group: group.to_owned(),
                    items,
                    systems,
                    comparisons,
                })
            })
            .collect()
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

/// What a comparison is tested with: the plan, and the bootstrap's settings.
#[derive(Clone, Copy)]
struct Testing<'a> {
    plan: &'a AnalysisPlan,
    options: &'a Options,
}

/// The comparison of `a` and `b` on their common units, with the plan's tests for the
/// hypothesis's alternative (else the plan's) and, with a margin, the non-inferiority tests.
fn compare(
    a: &str,
    b: &str,
    means_a: &BTreeMap<String, f64>,
    means_b: &BTreeMap<String, f64>,
    testing: Testing<'_>,
    hypothesis: Option<&super::plan::Hypothesis>,
    exploratory: bool,
) -> PairComparison {
    let Testing { plan, options } = testing;
    let alternative = hypothesis.map_or(plan.alternative, |h| h.alternative);
    let (mut x, mut y) = (Vec::new(), Vec::new());
    for (unit, va) in means_a {
        if let Some(vb) = means_b.get(unit) {
            x.push(*va);
            y.push(*vb);
        }
    }
    let mut notes = Vec::new();
    let mut out = PairComparison {
        system_a: a.to_owned(),
        system_b: b.to_owned(),
        hypothesis: hypothesis.and_then(|h| h.name.clone()),
        alternative,
        exploratory,
        n: x.len(),
        mean_a: None,
        mean_b: None,
        mean_diff: None,
        mean_diff_ci95: None,
        mean_diff_bootstrap: None,
        wilcoxon: None,
        t_test: None,
        non_inferiority: None,
        p_value: None,
        p_holm: None,
        p_bonferroni: None,
        p_adjusted: None,
        d_z: None,
        d_z_ci95: None,
        g_z: None,
        rank_biserial: None,
        notes: Vec::new(),
    };
    if x.is_empty() {
        out.notes.push(format!(
            "no {} has ratings of both systems",
            match plan.unit {
                Unit::Item => "item",
                Unit::Annotator => "annotator",
            }
        ));
        return out;
    }
    out.mean_a = Some(mean(&x));
    out.mean_b = Some(mean(&y));
    let diffs = match paired::differences(&x, &y) {
        Ok(d) => d,
        Err(e) => {
            out.notes.push(e.to_string());
            return out;
        }
    };
    out.mean_diff = Some(mean(&diffs));
    out.mean_diff_bootstrap = bootstrap_of(&diffs, options);
    for test in &plan.tests {
        match test {
            Test::Wilcoxon => match wilcoxon(&diffs) {
                Ok(w) => {
                    let mut result: WilcoxonResult = w.into();
                    match wilcoxon_p(&diffs, WilcoxonMethod::Auto, alternative.into()) {
                        Ok(p) => result.p_value = p,
                        Err(e) => notes.push(format!("Wilcoxon: {}", explain(&e))),
                    }
                    out.wilcoxon = Some(result);
                }
                Err(e) => notes.push(format!("Wilcoxon: {}", explain(&e))),
            },
            Test::T => match t_test(&diffs, 0.0, alternative.into()) {
                Ok(t) => {
                    out.t_test = Some(TTestResult {
                        t: t.t,
                        df: t.df,
                        p_value: t.p_value,
                    });
                    out.mean_diff_ci95 = Some(Ci {
                        low: t.ci95.0,
                        high: t.ci95.1,
                    });
                }
                Err(e) => notes.push(format!("t-test: {}", explain(&e))),
            },
        }
    }
    // The p-value that is corrected is the first test's: only when that test ran.
    if let Some(first) = plan.tests.first() {
        out.p_value = match first {
            Test::Wilcoxon => out.wilcoxon.map(|w| w.p_value),
            Test::T => out.t_test.map(|t| t.p_value),
        };
    }
    if let Some(margin) = hypothesis.and_then(|h| h.margin).or(plan.margin) {
        let shifted: Vec<f64> = diffs.iter().map(|d| d + margin).collect();
        out.non_inferiority = Some(NonInferiority {
            margin,
            p_t: t_test(&diffs, -margin, Alternative::Greater)
                .ok()
                .map(|t| t.p_value),
            p_wilcoxon: wilcoxon_p(&shifted, WilcoxonMethod::Auto, Alternative::Greater).ok(),
        });
    }
    match paired_effect(&diffs) {
        Ok(e) => {
            out.d_z = Some(e.d_z);
            out.d_z_ci95 = paired::d_z_interval(&diffs)
                .ok()
                .map(|(low, high)| Ci { low, high });
            out.g_z = Some(e.g_z);
            out.rank_biserial = e.rank_biserial;
        }
        Err(e) => notes.push(format!("effect sizes: {}", explain(&e))),
    }
    out.notes = notes;
    out
}

fn explain(e: &PairedError) -> String {
    e.to_string()
}

/// Holm and Bonferroni over each family of the plan: every comparison of the report's primary
/// dimensions (and apart, of its exploratory ones), or each dimension's own; `p_adjusted` is
/// the plan's correction.
/// Where a tested comparison is: (dimension, 0 for `comparisons` or 1 for `contrasts`, index).
type Place = (usize, usize, usize);

fn adjust(dimensions: &mut [DimensionReport], plan: &AnalysisPlan) {
    // Every tested comparison, by family: (0 or the dimension, exploratory).
    let mut by: BTreeMap<(usize, bool), Vec<Place>> = BTreeMap::new();
    for (d, dim) in dimensions.iter().enumerate() {
        let lists = [&dim.comparisons, &dim.contrasts];
        for (l, list) in lists.into_iter().enumerate() {
            for (c, comparison) in list.iter().enumerate() {
                if comparison.p_value.is_none() {
                    continue;
                }
                let key = match plan.family {
                    Family::Plan => (0, comparison.exploratory),
                    Family::Dimension => (d, false),
                };
                by.entry(key).or_default().push((d, l, c));
            }
        }
    }
    fn at(dimensions: &mut [DimensionReport], (d, l, c): Place) -> &mut PairComparison {
        let dim = &mut dimensions[d];
        if l == 0 {
            &mut dim.comparisons[c]
        } else {
            &mut dim.contrasts[c]
        }
    }
    for family in by.into_values() {
        let ps: Vec<f64> = family
            .iter()
            .filter_map(|&place| at(dimensions, place).p_value)
            .collect();
        let (Ok(holm), Ok(bonferroni)) = (paired::holm(&ps), paired::bonferroni(&ps)) else {
            continue;
        };
        for (&place, (h, b)) in family.iter().zip(holm.into_iter().zip(bonferroni)) {
            let comparison = at(dimensions, place);
            comparison.p_holm = Some(h);
            comparison.p_bonferroni = Some(b);
            comparison.p_adjusted = match plan.correction {
                Correction::Holm => Some(h),
                Correction::Bonferroni => Some(b),
                Correction::None => comparison.p_value,
            };
        }
    }
}

/// The agreement unit of a rating: its item and system.
pub fn unit(item: &str, system: &str) -> String {
    format!("{item}{UNIT_SEPARATOR}{system}")
}

/// The agreement matrix of one dimension's raw ratings: units (item, system) and raters
/// (annotators) in order of first appearance, tied to the scale when there is one.
pub fn rating_matrix(rows: &[&RatingRow], scale: Option<&[f64]>) -> Option<Ratings> {
    // Units and raters by number; named once each.
    let mut ids = Ids::default();
    let triples: Vec<((u32, u32), u32, f64)> = rows
        .iter()
        .map(|r| {
            (
                (ids.id(&r.item), ids.id(&r.system)),
                ids.id(&r.annotator),
                r.score,
            )
        })
        .collect();
    let ratings = Ratings::from_keyed(
        triples,
        |&(item, system)| unit(ids.text(item), ids.text(system)),
        |&annotator| ids.text(annotator).to_owned(),
    )
    .ok()?;
    match scale {
        Some(s) => ratings.with_scale(s).ok(),
        None => Some(ratings),
    }
}

pub(crate) fn pairable_units(ratings: &Ratings) -> usize {
    (0..ratings.units().len())
        .filter(|&u| {
            (0..ratings.raters().len())
                .filter(|&r| ratings.get(u, r).is_some())
                .count()
                >= 2
        })
        .count()
}

fn rating_agreement(rows: &[&RatingRow], scale: Option<&[f64]>) -> Agreement {
    let Some(ratings) = rating_matrix(rows, scale) else {
        return Agreement {
            units: 0,
            annotators: 0,
            fleiss_kappa: None,
            krippendorff_alpha: Alphas {
                nominal: None,
                ordinal: None,
                interval: None,
            },
            cohen_kappa: Vec::new(),
            percent_agreement: None,
        };
    };
    Agreement {
        units: pairable_units(&ratings),
        annotators: ratings.raters().len(),
        fleiss_kappa: fleiss_kappa(&ratings),
        krippendorff_alpha: Alphas {
            nominal: krippendorff_alpha(&ratings, Metric::Nominal),
            ordinal: krippendorff_alpha(&ratings, Metric::Ordinal),
            interval: krippendorff_alpha(&ratings, Metric::Interval),
        },
        cohen_kappa: pairwise(&ratings)
            .into_iter()
            .filter(|p| p.units > 0)
            .map(|p| CohenPair {
                annotator_a: p.rater_a,
                annotator_b: p.rater_b,
                units: p.units,
                agreement: p.agreement,
                unweighted: p.unweighted,
                linear: p.linear,
                quadratic: p.quadratic,
            })
            .collect(),
        percent_agreement: percent_agreement(&ratings),
    }
}

// ---------------------------------------------------------------------------------------------
// Preferences
// ---------------------------------------------------------------------------------------------

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

/// The judgements as the statistics take them, in the order read.
pub fn comparisons(rows: &[PreferenceRow]) -> Vec<Comparison> {
    rows.iter()
        .map(|r| Comparison::new(r.system_a.clone(), r.system_b.clone(), r.outcome))
        .collect()
}

fn preference_report(rows: &[PreferenceRow], options: &Options) -> Option<PreferenceReport> {
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
            });
        }
    }
    let bt_options = BradleyTerryOptions::default();
    let bradley_terry = bradley_terry(&tally, &bt_options).ok().map(|fit| {
        let intervals: HashMap<String, (Option<Interval>, usize)> = bradley_terry_bootstrap(
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
        .unwrap_or_default();
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
    Some(PreferenceReport {
        judgements: rows.len(),
        derived_from_choices: rows.iter().filter(|r| r.derived).count(),
        systems,
        pairs,
        bradley_terry,
        agreement,
    })
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

impl Report {
    /// The report as pretty JSON with a final newline.
    /// Negative zero (an empty sum, a difference of equal means) is written as `0.0`.
    pub fn to_json(&self) -> String {
        let mut text =
            without_negative_zero(&serde_json::to_string_pretty(self).unwrap_or_default());
        text.push('\n');
        text
    }

    /// The flagged cells as an adjudication sheet: `item_id,system_id,dimension,score` with the
    /// score empty, to fill, followed by what the adjudicator needs (`n`, `mean`, `sd`,
    /// `ratings`), which the reader of adjudication files ignores. Cells already adjudicated
    /// keep their score.
    pub fn adjudication_sheet(&self) -> String {
        self.adjudication_file(|_, flag| flag.adjudicated)
    }

    /// The flagged cells as an adjudication file, in the sheet's columns, with `score(dimension,
    /// flag)` as each cell's score (`None`: left empty, not yet adjudicated). The Analyse page
    /// writes the scores entered in it this way.
    pub fn adjudication_file(&self, score: impl Fn(&str, &Flag) -> Option<f64>) -> String {
        let mut out = crate::csv::line(&[
            "item_id",
            "system_id",
            "dimension",
            "score",
            "n",
            "mean",
            "sd",
            "ratings",
        ]);
        for d in &self.dimensions {
            for f in &d.flags {
                let ratings: Vec<String> = f
                    .ratings
                    .iter()
                    .map(|r| format!("{}={}", r.annotator, number(r.score)))
                    .collect();
                out.push_str(&crate::csv::line(&[
                    f.item.clone(),
                    f.system.clone(),
                    d.dimension.clone(),
                    score(&d.dimension, f).map(number).unwrap_or_default(),
                    f.n.to_string(),
                    format!("{:.3}", f.mean),
                    format!("{:.3}", f.sd),
                    ratings.join("; "),
                ]));
            }
        }
        out
    }
}

/// `json` with every number token `-0.0` written `0.0`; strings are left as they are. (IEEE
/// arithmetic makes negative zero where a reader expects zero: Rust's sum of no floats is -0.0.)
fn without_negative_zero(json: &str) -> String {
    let bytes = json.as_bytes();
    let mut out = String::with_capacity(json.len());
    let (mut in_string, mut escaped) = (false, false);
    let mut start = 0;
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if in_string {
            match (escaped, b) {
                (true, _) => escaped = false,
                (false, b'\\') => escaped = true,
                (false, b'"') => in_string = false,
                _ => {}
            }
        } else if b == b'"' {
            in_string = true;
        } else if b == b'-'
            && bytes[i..].starts_with(b"-0.0")
            && !bytes
                .get(i + 4)
                .is_some_and(|c| c.is_ascii_digit() || matches!(c, b'e' | b'E' | b'.'))
            && !(i > 0 && (bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'.'))
        {
            out.push_str(&json[start..i]);
            start = i + 1;
        }
        i += 1;
    }
    out.push_str(&json[start..]);
    out
}

#[cfg(test)]
mod tests {
    use super::without_negative_zero;

    #[test]
    fn negative_zero_is_written_as_zero_and_nothing_else_changes() {
        let json = r#"{"w_plus": -0.0, "a": [-0.0, -0.05, -0.01e-3, 1e-0, -0.0], "s": "x -0.0 \" -0.0", "t": "\\", "u": -0.0}"#;
        assert_eq!(
            without_negative_zero(json),
            r#"{"w_plus": 0.0, "a": [0.0, -0.05, -0.01e-3, 1e-0, 0.0], "s": "x -0.0 \" -0.0", "t": "\\", "u": 0.0}"#
        );
        let pretty = serde_json::to_string_pretty(&serde_json::json!({ "d": [-0.0_f64] })).unwrap();
        assert!(
            pretty.contains("-0.0"),
            "serde_json writes the sign: {pretty}"
        );
        assert!(!without_negative_zero(&pretty).contains("-0.0"));
    }
}
