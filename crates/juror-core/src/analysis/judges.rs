//! Judges beside people: automatic judges' verdicts (an LLM rating the same outputs), read apart
//! from the human ratings and compared with them, never mixed into the human statistics.
//!
//! Per judge, per dimension and pooled over dimensions: the alternative annotator test, the
//! judge's agreement with the humans, its biases and the estimates corrected with the humans'
//! subset. `docs/judges.md` gives the formulas and conventions.

use serde::Serialize;

use super::data::Data;
use crate::study::Study;

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

/// One judge's section of the report.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct JudgeReport {
    /// The judge's id (its verdicts' `annotator_id`).
    pub judge: String,
}

/// The judges' sections, one per judge in `judges` (in order of first appearance), compared with
/// the human ratings in `humans`.
pub fn report(
    humans: &Data,
    judges: &Data,
    study: Option<&Study>,
    options: &JudgeOptions,
) -> Vec<JudgeReport> {
    let _ = (humans, judges, study, options);
    Vec::new()
}
