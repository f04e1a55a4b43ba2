//! A question's answer ([`Answer`]), survey or per output, and whether it fits its question.
//! Persisted (in the storage envelope and in ratings files): change it only with a format
//! version and a migration.

use schemars::JsonSchema;
use serde::Serialize;

use crate::study::Question;

/// An answer to a survey or per-output question.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Answer {
    /// A point of a Likert scale.
    Scale(i32),
    /// One option.
    Choice(String),
    /// Several options.
    Choices(Vec<String>),
    /// Free text.
    Text(String),
    /// A number.
    Number(f64),
    /// Options (or system labels) in order, best first.
    Rank(Vec<String>),
    /// "Cannot judge" (a question with `allow_skip`): an answer of its own, never a point or
    /// an option. Written `"cannot_judge"`.
    CannotJudge,
}

impl Answer {
    /// Whether the answer counts as given for `question` (empty text or choices do not), and
    /// fits it. Returns why not.
    pub fn check(&self, question: &Question, labels: &[String]) -> Result<(), String> {
        match self {
            Answer::CannotJudge if question.allow_skip => Ok(()),
            _ => question.kind.accepts(self, labels),
        }
    }
}
