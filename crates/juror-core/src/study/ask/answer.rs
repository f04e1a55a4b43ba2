//! A question's answer ([`Answer`]), survey or per output, and whether it fits its question.
//! Persisted (in the storage envelope and in ratings files): change it only with a format
//! version and a migration.

use schemars::JsonSchema;
use serde::Serialize;

use crate::base::number::Num;
use crate::study::{Question, QuestionKind, RankOptions};

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
        match (&question.kind, self) {
            (_, Answer::CannotJudge) if question.allow_skip => Ok(()),
            (QuestionKind::Likert(scale), Answer::Scale(v)) if scale.contains(*v) => Ok(()),
            (QuestionKind::SingleChoice(options), Answer::Choice(c)) if options.contains(c) => {
                Ok(())
            }
            (
                QuestionKind::MultipleChoice {
                    options,
                    min_selected,
                    max_selected,
                },
                Answer::Choices(cs),
            ) => {
                let n = u32::try_from(cs.len()).unwrap_or(u32::MAX);
                if cs.iter().any(|c| !options.contains(c)) {
                    Err("an unknown option is ticked".to_owned())
                } else if n < *min_selected || n > *max_selected {
                    if min_selected == max_selected {
                        Err(format!("choose exactly {min_selected}"))
                    } else {
                        Err(format!("choose between {min_selected} and {max_selected}"))
                    }
                } else {
                    Ok(())
                }
            }
            (
                QuestionKind::ShortText { max_length } | QuestionKind::LongText { max_length },
                Answer::Text(t),
            ) => {
                if t.trim().is_empty() {
                    Err("write an answer".to_owned())
                } else if max_length.is_some_and(|m| t.chars().count() > m as usize) {
                    Err(format!(
                        "use at most {} characters",
                        max_length.unwrap_or(0)
                    ))
                } else {
                    Ok(())
                }
            }
            (QuestionKind::Number { min, max, integer }, Answer::Number(x)) => {
                if !x.is_finite() {
                    Err("enter a number".to_owned())
                } else if *integer && x.fract() != 0.0 {
                    Err("enter a whole number".to_owned())
                } else if min.is_some_and(|m| *x < m) || max.is_some_and(|m| *x > m) {
                    Err(match (min, max) {
                        (Some(a), Some(b)) => {
                            format!("enter a number from {} to {}", Num(*a), Num(*b))
                        }
                        (Some(a), None) => format!("enter {} or more", Num(*a)),
                        (None, Some(b)) => format!("enter {} or less", Num(*b)),
                        (None, None) => "enter a number".to_owned(),
                    })
                } else {
                    Ok(())
                }
            }
            (QuestionKind::Rank(options), Answer::Rank(order)) => {
                let want: Vec<String> = match options {
                    RankOptions::Fixed(o) => o.clone(),
                    RankOptions::Systems => labels.to_vec(),
                };
                let mut got = order.clone();
                crate::base::order::sort(&mut got);
                let mut all = want.clone();
                crate::base::order::sort(&mut all);
                if got == all {
                    Ok(())
                } else {
                    Err("put every option in order".to_owned())
                }
            }
            _ => Err("answer the question".to_owned()),
        }
    }
}
