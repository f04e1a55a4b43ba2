//! The judges' sections of the report as serialised (`juror.report/1`'s `judges`), and the
//! options they are computed with.

use serde::Serialize;

use super::JudgeSettings;
use crate::analysis::data::Ci;

/// How judges are compared with the humans.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct JudgeOptions {
    /// The alternative annotator test's allowance ε: how much more often a human may win than
    /// the judge for the judge still to stand in for them. Default 0.2.
    pub epsilon: f64,
    /// The false discovery rate of the Benjamini–Yekutieli procedure over the humans. Default
    /// 0.05.
    pub q: f64,
    /// The fewest humans an instance needs to be used. Default 2.
    pub min_humans: usize,
    /// The fewest instances a human needs to be tested; humans with fewer are listed as
    /// skipped. Default 30.
    pub min_instances: usize,
}

impl JudgeOptions {
    /// The defaults: ε 0.2, q 0.05, 2 humans per instance, 30 instances per human.
    pub const DEFAULT: JudgeOptions = JudgeOptions {
        epsilon: 0.2,
        q: 0.05,
        min_humans: 2,
        min_instances: 30,
    };
}

impl Default for JudgeOptions {
    fn default() -> Self {
        JudgeOptions::DEFAULT
    }
}

impl JudgeOptions {
    /// The options the settings give: each absent one its default.
    pub fn from_settings(settings: JudgeSettings) -> JudgeOptions {
        let d = JudgeOptions::DEFAULT;
        JudgeOptions {
            epsilon: settings.epsilon.unwrap_or(d.epsilon),
            q: settings.fdr.unwrap_or(d.q),
            min_humans: settings.min_humans.unwrap_or(d.min_humans),
            min_instances: settings.min_instances.unwrap_or(d.min_instances),
        }
    }
}

/// One judge's section of the report.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct JudgeReport {
    /// The judge's id (its verdicts' `annotator_id`).
    pub judge: String,
    /// Its verdicts read: scores and pairwise verdicts, every run.
    pub verdicts: usize,
    /// The most runs of one verdict (1 without repeats).
    pub runs: u32,
    /// Per dimension the judge and the humans both scored, in the report's order.
    pub dimensions: Vec<JudgeScores>,
    /// Over all those dimensions at once (instances are (item, system, dimension)); `null` with
    /// fewer than two dimensions.
    pub pooled: Option<JudgeScores>,
    /// Its pairwise verdicts against the humans'; `null` when either has none.
    pub preferences: Option<JudgePreferences>,
    pub bias: JudgeBias,
}

/// The alternative annotator test of one judge on one set of instances.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct AltTestReport {
    /// `negative_rmse` (scores) or `accuracy` (preferences).
    pub alignment: &'static str,
    pub epsilon: f64,
    pub q: f64,
    /// Instances with the judge's verdict and at least `min_humans` humans.
    pub instances: usize,
    /// The share of the tested humans the judge beats (H0 rejected after Benjamini–Yekutieli);
    /// `null` when no human could be tested.
    pub winning_rate: Option<f64>,
    /// The mean over the tested humans of the share of their instances on which the judge is
    /// aligned with the others at least as well as the human.
    pub advantage_probability: Option<f64>,
    /// `winning_rate` ≥ 0.5: the judge can stand in for the humans.
    pub passes: Option<bool>,
    pub humans: Vec<HumanComparison>,
    /// Humans with fewer than `min_instances` instances: not tested.
    pub skipped: Vec<SkippedHuman>,
}

/// The judge against one left-out human.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct HumanComparison {
    pub annotator: String,
    pub instances: usize,
    /// Share of instances where the judge aligns with the other humans at least as well.
    pub judge_advantage: f64,
    /// Share of instances where the human aligns with the others at least as well.
    pub human_advantage: f64,
    /// One-sided one-sample t-test of (human − judge) indicators against ε; `null` when every
    /// indicator difference is the same (t is ±∞: p is then 0 below ε, 1 otherwise).
    pub t: Option<f64>,
    pub p: f64,
    /// Benjamini–Yekutieli adjusted over the tested humans.
    pub p_adjusted: f64,
    /// H0 rejected at q: the judge is at least as good as this human, within ε.
    pub judge_wins: bool,
}

/// A human not tested, and why: too few instances.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct SkippedHuman {
    pub annotator: String,
    pub instances: usize,
}

/// A rank correlation with its two-sided p-value.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, schemars::JsonSchema)]
pub struct Correlation {
    pub value: f64,
    pub p_value: f64,
    pub n: usize,
}

/// The judge's scores on one dimension (or pooled) against the humans'.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct JudgeScores {
    /// The dimension; `null` for the pooled view.
    pub dimension: Option<String>,
    pub alt_test: AltTestReport,
    /// Spearman's ρ of the judge's score with the humans' mean, over the outputs both scored.
    pub spearman: Option<Correlation>,
    /// Kendall's τ-b of the judge's and the humans' system means over those outputs.
    pub kendall_tau: Option<Correlation>,
    /// Krippendorff's α (interval) of the humans alone, over the outputs the judge scored.
    pub alpha_humans: Option<f64>,
    /// The same with the judge as one more rater.
    pub alpha_with_judge: Option<f64>,
    /// Per system: means and the corrected estimate (per dimension only).
    pub systems: Vec<SystemScores>,
    /// Each output both scored: the judge's score and the humans' mean (for a plot).
    pub points: Vec<ScorePoint>,
}

/// One system's scores on one dimension.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct SystemScores {
    pub system: String,
    /// The mean over outputs of the humans' mean score.
    pub human_mean: Option<f64>,
    /// The judge's mean score over every output it scored.
    pub judge_mean: Option<f64>,
    /// Prediction-powered estimate of the humans' mean; `null` without outputs the judge alone
    /// scored.
    pub corrected: Option<Corrected>,
}

/// A prediction-powered estimate (PPI++) beside the humans-only one.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct Corrected {
    pub estimate: f64,
    pub ci: Ci,
    /// The power-tuning weight (0: the humans alone; 1: plain PPI).
    pub lambda: f64,
    pub human_only: f64,
    pub human_only_ci: Ci,
    /// (humans-only width / corrected width)²: how many times the human sample it is worth.
    pub effective_gain: f64,
    /// Instances with human labels.
    pub labelled: usize,
    /// Instances with the judge's verdict only.
    pub unlabelled: usize,
}

/// One output both scored.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct ScorePoint {
    pub item: String,
    pub system: String,
    /// The dimension (in the pooled view's points only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dimension: Option<String>,
    pub judge: f64,
    pub human_mean: f64,
    pub humans: usize,
}

/// The judge's pairwise verdicts against the humans'.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct JudgePreferences {
    /// Instances (item, pair) with the judge's verdict and at least one human's.
    pub instances: usize,
    pub alt_test: AltTestReport,
    /// Accuracy against the humans' strict majority where both are decisive (not a tie).
    pub accuracy_decisive: Option<f64>,
    pub decisive: usize,
    /// Accuracy against the humans' strict majority, ties included.
    pub accuracy_all: Option<f64>,
    /// Instances with a strict human majority.
    pub with_majority: usize,
    /// Cohen's κ of the judge and the humans' strict majority (a, b, tie).
    pub cohen_kappa: Option<f64>,
    /// Per system: win rates (a tie counts ½) and the corrected estimate.
    pub systems: Vec<SystemWinRate>,
}

/// One system's win rate among the pairs it is in.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct SystemWinRate {
    pub system: String,
    pub human: Option<f64>,
    pub judge: Option<f64>,
    pub corrected: Option<Corrected>,
}

/// The judge's biases.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct JudgeBias {
    /// Pairwise verdicts (item, pair, run) given in both orders.
    pub both_orders: usize,
    /// Share of those whose outcome changed with the order.
    pub flip_rate: Option<f64>,
    /// Decisive verdicts whose order is known.
    pub ordered_verdicts: usize,
    /// Share of them for the output shown first.
    pub first_position_rate: Option<f64>,
    /// The same for the humans' decisive verdicts.
    pub human_first_position_rate: Option<f64>,
    /// Spearman's ρ of the length difference in characters (first − second of the pair, in
    /// byte order of the systems) with the verdict (+1 first wins, 0 tie, −1 second wins):
    /// the judge's; `null` without the study's texts.
    pub length_preference: Option<Correlation>,
    /// The same over the humans' verdicts.
    pub human_length_preference: Option<Correlation>,
    /// Spearman's ρ of an output's length in characters with its score, over the judge's scores.
    pub length_score: Option<Correlation>,
    /// The same over the humans' scores.
    pub human_length_score: Option<Correlation>,
    /// Verdicts given in two or more runs.
    pub repeated: usize,
    /// Share of them on which every run agrees.
    pub repeat_agreement: Option<f64>,
}
