//! The shape of `juror.report/1`: what the report holds, as the JSON writes it (its schema is
//! generated from these types), and the options it is computed with. Undefined statistics are
//! `null` (never NaN), with a `note` saying why where it helps.

use std::collections::BTreeMap;

use serde::Serialize;

pub use crate::analysis::adjudication::ExpertScore;
use crate::analysis::answers::AnswersReport;
use crate::analysis::choices::ChoiceReport;
pub use crate::analysis::data::Ci;
use crate::analysis::data::{FileSummary, Problem};
use crate::analysis::diagnostics::Diagnostics;
use crate::analysis::judges::{JudgeReport, JudgeSettings};
use crate::analysis::overrides::Alternative;
use crate::analysis::overrides::AnalysisPlan;
use crate::analysis::rounds::Rounds;
use crate::analysis::spans::SpansReport;
use crate::stats::paired::{Wilcoxon, WilcoxonDistribution};

/// The `format` of reports.
pub const REPORT_FORMAT_V1: &str = "juror.report/1";

/// Separates the item and the system in an agreement unit's name (neither id can hold it:
/// it is a control character).
pub const UNIT_SEPARATOR: char = '\u{1f}';

/// How the report is computed.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct Options {
    /// A cell (item, system, dimension) is flagged when the sample SD (n − 1) of its ratings is
    /// above this on a 1–5 scale; on a scale of another range, above this times its range over
    /// 4 (`report::flag_above`: 37.5 on 0–100). Default 1.5.
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
    /// files hold them; `false` (the default): under pseudonyms ([`crate::base::pseudonym`]).
    pub reveal_ids: bool,
    /// How automatic judges' verdicts are compared with the human ratings, as asked at analysis
    /// time (`--epsilon`, `--fdr`, `--min-humans`, `--min-instances`): each absent setting is
    /// the plan's (`analysis.judges`), else its default.
    pub judges: JudgeSettings,
    /// Set aside from the system summaries, the comparisons and every test on the ratings the
    /// flagged cells (sample SD above `flag_sd`) that have no adjudicated score yet, as a
    /// disagreement-resolution protocol asks; agreement stays on every raw rating. `None` (the
    /// default): as the plan says (`analysis.exclude_unadjudicated`, else not); `Some` as asked
    /// at analysis time (`--exclude-unadjudicated`, the Analyse page's switch).
    pub exclude_unadjudicated: Option<bool>,
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
            judges: JudgeSettings {
                epsilon: None,
                fdr: None,
                min_humans: None,
                min_instances: None,
            },
            exclude_unadjudicated: None,
        }
    }
}

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
    /// Graded preferences per pair: the mean grade over item means, its interval, the
    /// Wilcoxon test and the share of each grade (omitted when there are none).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub graded: Option<super::graded::Report>,
    /// "Cannot judge" answers per question and system; never in a mean, test, agreement or win
    /// rate (omitted when there are none).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub cannot_judge: Vec<super::CannotJudgeCount>,
    /// Best-of-N choices and rankings, as made (omitted when there are none).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub choices: Option<ChoiceReport>,
    /// Error spans: per system the errors marked and the MQM score, and span agreement
    /// (omitted when no output was marked).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub spans: Option<SpansReport>,
    /// Output questions, flags, notes and surveys (omitted when there are none).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub answers: Option<AnswersReport>,
    /// What the adjudication file did; `null` without one.
    pub adjudication: Option<AdjudicationSummary>,
    /// One section per automatic judge whose verdicts were given apart from the human ratings
    /// (omitted when there are none).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub judges: Vec<JudgeReport>,
    /// The plan's participant-level success criteria (omitted when it has none).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub thresholds: Vec<super::ThresholdReport>,
    /// Each system's output divergence across annotators, when the plan asks for it and the
    /// study has prompts shared by personal items of different annotators (omitted otherwise).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub divergence: Vec<super::DivergenceReport>,
    /// The comparisons of the systems' divergences, paired over prompts: the plan's
    /// comparisons and its divergence hypotheses, corrected among themselves (omitted without
    /// a divergence).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub divergence_comparisons: Vec<PairComparison>,
    /// Rater quality per dimension read as categories, when the plan asks for it (omitted
    /// otherwise).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub raters: Vec<super::raters::RaterQuality>,
    /// The crossed mixed model of each dimension, when the plan asks (`analysis.models`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub crossed: Vec<super::models::CrossedModel>,
    /// The proportional-odds model of each dimension, when the plan asks (`analysis.models`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub ordinal: Vec<super::models::OrdinalModel>,
    /// The plan's hypotheses about slopes over rounds and about preferences, tested and
    /// corrected with its comparisons (omitted when it has none).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub hypotheses: Vec<super::HypothesisTest>,
    /// With the plan's `confirmatory` scope: the grouping and value whose items everything
    /// above is computed on (but the answers and the diagnostics), and each other value of the
    /// grouping reported apart as a secondary analysis, exploratory and not corrected (omitted
    /// without a scope).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub scope: Option<super::ScopeReport>,
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
    /// Whether flagged cells without an adjudicated score were set aside
    /// (`--exclude-unadjudicated`, or the plan's `exclude_unadjudicated`).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub exclude_unadjudicated: bool,
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

/// One rating dimension.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct DimensionReport {
    pub dimension: String,
    /// The study's label of the dimension (`rubric.dimensions[].label`); absent without a
    /// study.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    /// The study's scale for it, or `null` (then the categories are the values seen).
    pub scale: Option<Vec<f64>>,
    /// The sample SD above which a cell is flagged: `settings.flag_sd` scaled to this scale's
    /// range (`flag_sd` × range / 4), or `flag_sd` without a scale.
    pub flag_above: f64,
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
    /// With `exclude_unadjudicated`: the flagged cells without an adjudicated score, set aside
    /// from the systems and comparisons (omitted when none).
    #[serde(skip_serializing_if = "is_zero")]
    pub set_aside: usize,
    /// Ratings over rounds (slopes and the mixed model), on the raw ratings that have a round;
    /// `null` when fewer than two rounds were rated.
    pub rounds: Option<Rounds>,
    /// With the plan's `standardise: "annotator"`: each system's mean z-score beside its raw
    /// mean; `comparisons` and `contrasts` are then tested on the z-scores.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub standardised: Option<Standardised>,
}

/// One dimension's scores standardised per annotator (z-scores, sample SD).
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct Standardised {
    /// Always `"annotator"`: each annotator's own mean and SD on the dimension.
    pub by: &'static str,
    /// Annotators whose scores were standardised.
    pub annotators: usize,
    /// Annotators left out (one score, or every score the same) and why.
    pub left_out: Vec<LeftOut>,
    pub systems: Vec<StandardisedSystem>,
}

/// An annotator whose scores cannot be standardised.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct LeftOut {
    pub annotator: String,
    /// Their ratings of the dimension, left out of the standardised means and the tests.
    pub ratings: usize,
    pub reason: String,
}

/// One system on a standardised dimension.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct StandardisedSystem {
    pub system: String,
    /// Items with a standardised score.
    pub n: usize,
    /// Ratings standardised.
    pub n_ratings: usize,
    /// Mean of the raw item means over the same ratings (the annotators standardised).
    pub raw_mean: f64,
    /// Mean of the item means of the z-scores.
    pub mean_z: f64,
    /// SD of the z item means (n − 1); `null` with one item.
    pub sd_z: Option<f64>,
    /// 95% t interval of `mean_z`; `null` with one item.
    pub ci95_z: Option<Ci>,
}

impl DimensionReport {
    /// How the report names the dimension: its label with its id (as the data name it), e.g.
    /// `Correctness (correct)`; its label alone when it is the id but for case
    /// (`Correctness`, `correctness`); its id alone without a study.
    pub fn title(&self) -> String {
        match &self.label {
            Some(label) if !label.eq_ignore_ascii_case(&self.dimension) => {
                format!("{label} ({})", self.dimension)
            }
            Some(label) => label.clone(),
            _ => self.dimension.clone(),
        }
    }
}

/// One item group of a dimension: its systems and comparisons on its items only, uncorrected.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct GroupReport {
    /// The named grouping (of the items' `groups`) the group belongs to; absent for the items'
    /// `group` and for intake answers.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub grouping: Option<String>,
    pub group: String,
    /// Items of the group with ratings on the dimension.
    pub items: usize,
    pub systems: Vec<SystemSummary>,
    /// As the plan compares, within the group; `p_holm`, `p_bonferroni` and `p_adjusted` are
    /// `null`: a breakdown is not corrected.
    pub comparisons: Vec<PairComparison>,
}

impl GroupReport {
    /// The group as the report names it: `routing`, or `task_type routing` in a named grouping.
    pub fn label(&self) -> String {
        match &self.grouping {
            Some(grouping) => format!("{grouping} {}", self.group),
            None => self.group.clone(),
        }
    }
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
    pub alternative: Alternative,
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
    /// Its anytime-valid 95% confidence sequence at the current number of units, when asked
    /// (`--sequential`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub anytime_ci95: Option<Ci>,
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
    /// The resolved score that replaces these ratings, if the adjudication file gives one
    /// (a `resolved` row, or its experts agree).
    pub adjudicated: Option<f64>,
    /// Each expert's score of the cell in the adjudication file, when it names experts or has
    /// several rows for the cell (omitted for a single unnamed score, the cell's `adjudicated`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub experts: Vec<ExpertScore>,
    /// The item as the study shows it (prompt, media, this system's output), for the
    /// adjudication sheet and the Analyse page's form; not in the JSON report.
    #[serde(skip)]
    pub context: Option<CellContext>,
}

/// What an expert needs to see of a flagged cell: the item's prompt, its context and media,
/// and the output of the cell's system, as the study gives them.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct CellContext {
    /// The prompt (Markdown).
    pub prompt: String,
    /// The item's extra context (Markdown).
    pub context: Option<String>,
    /// The item's image or video (its address is relative to the study file).
    pub media: Option<crate::study::Media>,
    /// The system's output; `None` when the study does not hold it.
    pub output: Option<String>,
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
    /// Ratings on the arena scale with sandwich intervals and rank intervals (omitted when the
    /// comparisons do not join every system both ways).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub leaderboard: Option<super::preferences::Leaderboard>,
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
    /// The win rate's anytime-valid 95% confidence sequence (a betting sequence, valid at
    /// every number of judgements), the judgements in the order read, when asked
    /// (`--sequential`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub anytime_ci95: Option<Ci>,
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
    /// Cells whose experts disagree and that have no `resolved` row: not adjudicated (omitted
    /// when none).
    #[serde(skip_serializing_if = "is_zero")]
    pub unresolved: usize,
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
