//! The shapes of a question (survey or per output): the study file's kinds
//! ([`RawQuestionKind`]), their checks, the validated [`QuestionKind`] and its compiled reader,
//! what answer each accepts, and the one cell codec the rating sheet and ratings CSV use.
//! A new question type is a variant here, its control on the page, and (if it needs
//! statistics of its own) its family in the analysis ([`QuestionKind::family`]).
//!
//! Invariant: nothing outside this file and the page's control names a question type.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::Answer;
use super::cell::{option_of, split_list};
use crate::base::json::{
    Read, Value, Wrong, boolean, count, fields, number, unknown_variant, variant,
};
use crate::base::number::Num;
use crate::study::from_json::{scale, strings};
use crate::study::model::{LabelScheme, Scale};
use crate::study::raw::RawScale;
use crate::study::validate::Checker;

/// The `type`s of question a study file can ask, with the fields each takes beyond the common
/// ones (the syntax pass names a field another type takes).
pub const TYPES: &[(&str, &[&str])] = &[
    ("likert", &["scale"]),
    ("single_choice", &["options"]),
    (
        "multiple_choice",
        &["options", "min_selected", "max_selected"],
    ),
    ("short_text", &["max_length"]),
    ("long_text", &["max_length"]),
    ("number", &["min", "max", "integer"]),
    ("rank", &["options", "systems"]),
];

/// A question as the study file writes it, for the messages that show one.
pub const EXAMPLE: &str =
    r#"{"id": "often", "prompt": "…", "type": "single_choice", "options": ["…", "…"]}"#;

/// What a question that screens participants out must be.
pub const CHOICE_TYPES: &str = "a single_choice or multiple_choice question";

/// The kinds of question.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum RawQuestionKind {
    /// A labelled integer scale.
    Likert {
        /// The scale.
        scale: RawScale,
    },
    /// Exactly one of the options.
    SingleChoice {
        /// The options, in the order shown.
        options: Vec<String>,
    },
    /// Any number of the options, optionally bounded.
    MultipleChoice {
        /// The options, in the order shown.
        options: Vec<String>,
        /// Fewest options to tick.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        min_selected: Option<u32>,
        /// Most options to tick.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        max_selected: Option<u32>,
    },
    /// One line of text.
    ShortText {
        /// Longest answer accepted, in characters.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        max_length: Option<u32>,
    },
    /// Free text over several lines.
    LongText {
        /// Longest answer accepted, in characters.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        max_length: Option<u32>,
    },
    /// A number, optionally bounded.
    Number {
        /// Smallest value accepted.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        min: Option<f64>,
        /// Largest value accepted.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        max: Option<f64>,
        /// Whether only whole numbers are accepted.
        #[serde(default)]
        integer: bool,
    },
    /// Put options in order, best first. With `systems: true` the options are the blinded
    /// system labels ("System A", ...), which needs `design.labels: "per_annotator"`.
    Rank {
        /// The options to order.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        options: Vec<String>,
        /// Rank the systems by their blinded labels instead of fixed options.
        #[serde(default)]
        systems: bool,
    },
}

/// Kinds of question.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub enum QuestionKind {
    /// A labelled scale.
    Likert(Scale),
    /// One option.
    SingleChoice(Vec<String>),
    /// Several options, with bounds on how many.
    MultipleChoice {
        /// The options.
        options: Vec<String>,
        /// Fewest.
        min_selected: u32,
        /// Most.
        max_selected: u32,
    },
    /// A line of text.
    ShortText {
        /// Longest answer.
        max_length: Option<u32>,
    },
    /// Several lines of text.
    LongText {
        /// Longest answer.
        max_length: Option<u32>,
    },
    /// A number.
    Number {
        /// Smallest.
        min: Option<f64>,
        /// Largest.
        max: Option<f64>,
        /// Whole numbers only.
        integer: bool,
    },
    /// An ordering of options, best first.
    Rank(RankOptions),
}

/// What a rank question orders.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub enum RankOptions {
    /// Fixed options.
    Fixed(Vec<String>),
    /// The systems, by their blinded labels.
    Systems,
}

impl QuestionKind {
    /// What the question takes, in words (the rating sheet's legend).
    pub fn words(&self) -> String {
        match self {
            QuestionKind::Likert(scale) => scale.words(),
            QuestionKind::SingleChoice(options) => format!("one of: {}", options.join(", ")),
            QuestionKind::MultipleChoice { options, .. } => {
                format!("some of: {}, separated by ;", options.join(", "))
            }
            QuestionKind::ShortText { .. } | QuestionKind::LongText { .. } => "text".to_owned(),
            QuestionKind::Number { .. } => "a number".to_owned(),
            QuestionKind::Rank(RankOptions::Fixed(options)) => {
                format!(
                    "all of {} in order, best first, separated by >",
                    options.join(", ")
                )
            }
            QuestionKind::Rank(RankOptions::Systems) => {
                "every letter in order, best first, like B > A > C".to_owned()
            }
        }
    }

    /// The answer written in a cell (the rating sheet's, or a ratings CSV's), not yet checked
    /// against the question ([`QuestionKind::accepts`]); `system` turns a letter or label of a
    /// ranking of systems into the label the answer records.
    pub fn parse_cell(
        &self,
        value: &str,
        system: impl Fn(&str) -> Result<String, String>,
    ) -> Result<Answer, String> {
        Ok(match self {
            QuestionKind::Likert(scale) => Answer::Scale(scale.parse_cell(value)?),
            QuestionKind::SingleChoice(options) => Answer::Choice(option_of(options, value)?),
            QuestionKind::MultipleChoice { options, .. } => Answer::Choices(
                split_list(value, false)
                    .map(|v| option_of(options, v))
                    .collect::<Result<_, _>>()?,
            ),
            QuestionKind::ShortText { .. } | QuestionKind::LongText { .. } => {
                Answer::Text(value.to_owned())
            }
            QuestionKind::Number { .. } => Answer::Number(
                value
                    .parse()
                    .map_err(|_| format!("\"{value}\" is not a number; write a number"))?,
            ),
            QuestionKind::Rank(RankOptions::Fixed(options)) => Answer::Rank(
                value
                    .split('>')
                    .map(str::trim)
                    .filter(|s| !s.is_empty())
                    .map(|v| option_of(options, v))
                    .collect::<Result<_, _>>()?,
            ),
            QuestionKind::Rank(RankOptions::Systems) => Answer::Rank(
                split_list(value, true)
                    .map(system)
                    .collect::<Result<_, _>>()?,
            ),
        })
    }

    /// Whether `answer` counts as given for a question of this kind (empty text or choices do
    /// not) and fits it; `labels` are the outputs' labels, for a ranking of systems. Returns
    /// why not. "Cannot judge" is the question's to allow ([`Answer::check`]).
    pub fn accepts(&self, answer: &Answer, labels: &[String]) -> Result<(), String> {
        let self_kind = self;
        match (self_kind, answer) {
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

    /// Whether "Cannot judge" can be offered: a scale or a choice, never text, a number or a
    /// ranking (they have no point to leave out).
    pub fn skippable(&self) -> bool {
        matches!(
            self,
            QuestionKind::Likert(_)
                | QuestionKind::SingleChoice(_)
                | QuestionKind::MultipleChoice { .. }
        )
    }

    /// A choice's options (`None` for any other kind).
    pub fn choice_options(&self) -> Option<&[String]> {
        match self {
            QuestionKind::SingleChoice(o) | QuestionKind::MultipleChoice { options: o, .. } => {
                Some(o)
            }
            _ => None,
        }
    }

    /// Whether several options can be chosen.
    pub fn multiple(&self) -> bool {
        matches!(self, QuestionKind::MultipleChoice { .. })
    }

    /// Whether the question ranks the systems by their labels.
    pub fn ranks_systems(&self) -> bool {
        matches!(self, QuestionKind::Rank(RankOptions::Systems))
    }

    /// The family of statistics its answers take in the report: `choice` (counts per option),
    /// `number` (scales and numbers: means), `text` (listed) or `rank` (mean ranks).
    pub fn family(&self) -> &'static str {
        match self {
            QuestionKind::SingleChoice(_) | QuestionKind::MultipleChoice { .. } => "choice",
            QuestionKind::Likert(_) | QuestionKind::Number { .. } => "number",
            QuestionKind::ShortText { .. } | QuestionKind::LongText { .. } => "text",
            QuestionKind::Rank(_) => "rank",
        }
    }
}

/// The placeholder for a kind that could not be read (never seen: the value is refused).
impl crate::base::json::Blank for QuestionKind {
    fn blank() -> QuestionKind {
        QuestionKind::SingleChoice(Vec::new())
    }
}

/// A question's kind in a compiled study (serde's externally tagged layout of [`QuestionKind`]).
pub(in crate::study) fn read(value: &Value) -> Read<QuestionKind> {
    let (name, content) = variant(value)?;
    let inner = |wrong: Wrong| wrong.in_key(name);
    let kind = match name {
        "Likert" => scale(content).map(QuestionKind::Likert),
        "SingleChoice" => strings(content).map(QuestionKind::SingleChoice),
        "MultipleChoice" => fields(content).and_then(|mut f| {
            let value = QuestionKind::MultipleChoice {
                options: f.take("options", strings),
                min_selected: f.take("min_selected", count),
                max_selected: f.take("max_selected", count),
            };
            f.done(value)
        }),
        "ShortText" => fields(content).and_then(|mut f| {
            let value = QuestionKind::ShortText {
                max_length: f.maybe("max_length", count),
            };
            f.done(value)
        }),
        "LongText" => fields(content).and_then(|mut f| {
            let value = QuestionKind::LongText {
                max_length: f.maybe("max_length", count),
            };
            f.done(value)
        }),
        "Number" => fields(content).and_then(|mut f| {
            let value = QuestionKind::Number {
                min: f.maybe("min", number),
                max: f.maybe("max", number),
                integer: f.take("integer", boolean),
            };
            f.done(value)
        }),
        "Rank" => rank_options(content).map(QuestionKind::Rank),
        _ => {
            return Err(unknown_variant(
                name,
                &[
                    "Likert",
                    "SingleChoice",
                    "MultipleChoice",
                    "ShortText",
                    "LongText",
                    "Number",
                    "Rank",
                ],
            ));
        }
    };
    kind.map_err(inner)
}

fn rank_options(value: &Value) -> Read<RankOptions> {
    let (name, content) = variant(value)?;
    match name {
        "Systems" => Ok(RankOptions::Systems),
        "Fixed" => strings(content)
            .map(RankOptions::Fixed)
            .map_err(|e| e.in_key("Fixed")),
        _ => Err(unknown_variant(name, &["Fixed", "Systems"])),
    }
}

impl Checker {
    /// A question's kind, checked at `at`: its options, bounds and scale; ranking systems
    /// only where labels stay the same for an annotator.
    pub(in crate::study) fn question_kind(
        &mut self,
        at: &str,
        raw: &RawQuestionKind,
        labels: LabelScheme,
    ) -> QuestionKind {
        match raw {
            RawQuestionKind::Likert { scale } => {
                if scale.is_slider() {
                    self.error(
                        format!("{at}.scale.type"),
                        "a slider is for the rubric's dimensions, not a question",
                        "remove \"type\": \"slider\" (a scale of up to 11 points), or use a number question",
                    );
                }
                QuestionKind::Likert(self.scale(&format!("{at}.scale"), scale))
            }
            RawQuestionKind::SingleChoice { options } => {
                self.options(&format!("{at}.options"), options, 2);
                QuestionKind::SingleChoice(options.clone())
            }
            RawQuestionKind::MultipleChoice {
                options,
                min_selected,
                max_selected,
            } => {
                self.options(&format!("{at}.options"), options, 2);
                let n = u32::try_from(options.len()).unwrap_or(u32::MAX);
                let lo = min_selected.unwrap_or(0);
                let hi = max_selected.unwrap_or(n);
                if hi > n {
                    self.error(
                        format!("{at}.max_selected"),
                        format!("max_selected is {hi} but there are {n} options"),
                        "lower max_selected or add options",
                    );
                }
                if lo > hi {
                    self.error(
                        format!("{at}.min_selected"),
                        format!("min_selected ({lo}) is above max_selected ({hi})"),
                        "make min_selected at most max_selected",
                    );
                }
                QuestionKind::MultipleChoice {
                    options: options.clone(),
                    min_selected: lo,
                    max_selected: hi.min(n),
                }
            }
            RawQuestionKind::ShortText { max_length } => QuestionKind::ShortText {
                max_length: *max_length,
            },
            RawQuestionKind::LongText { max_length } => QuestionKind::LongText {
                max_length: *max_length,
            },
            RawQuestionKind::Number { min, max, integer } => {
                if let (Some(lo), Some(hi)) = (min, max)
                    && lo > hi
                {
                    self.error(
                        format!("{at}.min"),
                        format!("min ({}) is above max ({})", Num(*lo), Num(*hi)),
                        "make min at most max",
                    );
                }
                QuestionKind::Number {
                    min: *min,
                    max: *max,
                    integer: *integer,
                }
            }
            RawQuestionKind::Rank { options, systems } => {
                if *systems {
                    if !options.is_empty() {
                        self.error(
                            format!("{at}.options"),
                            "a rank of systems takes no options",
                            "remove \"options\" or set \"systems\": false",
                        );
                    }
                    if labels != LabelScheme::PerAnnotator {
                        self.error(
                            format!("{at}.systems"),
                            "ranking systems by label needs labels that stay the same for an annotator",
                            "set design.labels (or a task's labels) to \"per_annotator\", or rank fixed options",
                        );
                    }
                    QuestionKind::Rank(RankOptions::Systems)
                } else {
                    self.options(&format!("{at}.options"), options, 2);
                    QuestionKind::Rank(RankOptions::Fixed(options.clone()))
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_reads_back_as_written() {
        // Names every variant: a new one fails to compile here until it is added.
        let scale = Scale {
            points: Vec::new(),
            kind: crate::study::ScaleKind::Likert,
            step: 1,
        };
        for kind in [
            QuestionKind::Likert(scale),
            QuestionKind::SingleChoice(vec!["a".to_owned()]),
            QuestionKind::MultipleChoice {
                options: vec!["a".to_owned(), "b".to_owned()],
                min_selected: 1,
                max_selected: 2,
            },
            QuestionKind::ShortText {
                max_length: Some(9),
            },
            QuestionKind::LongText { max_length: None },
            QuestionKind::Number {
                min: Some(-0.5),
                max: None,
                integer: true,
            },
            QuestionKind::Rank(RankOptions::Fixed(vec!["x".to_owned()])),
            QuestionKind::Rank(RankOptions::Systems),
        ] {
            let written = serde_json::to_value(&kind).unwrap();
            assert_eq!(read(&written).as_ref(), Ok(&kind), "{written}");
        }
    }
}
