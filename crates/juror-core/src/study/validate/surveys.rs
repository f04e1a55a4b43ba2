//! Questions, of the intake and exit surveys and the rubric's output questions: prompts, options,
//! ranges, screen-outs and "Cannot judge".

use std::collections::{BTreeMap, BTreeSet};

use super::Checker;
use crate::base::number::Num;
use crate::study::model::*;
use crate::study::raw::*;

impl Checker {
    /// `surveys`: the intake and exit questions, no id used in both. Returns both lists.
    pub(super) fn surveys(&mut self, raw: &RawStudy) -> (Vec<Question>, Vec<Question>) {
        let d = &raw.design;
        for (field, minutes, questions) in [
            ("intake", raw.surveys.intake_minutes, &raw.surveys.intake),
            ("exit", raw.surveys.exit_minutes, &raw.surveys.exit),
        ] {
            if minutes == Some(0) {
                self.error(
                    format!("surveys.{field}_minutes"),
                    "a survey that takes 0 minutes",
                    format!(
                        "give the minutes the {field} survey takes, or remove \"{field}_minutes\""
                    ),
                );
            } else if minutes.is_some() && questions.is_empty() {
                self.error(
                    format!("surveys.{field}_minutes"),
                    format!("a time for an {field} survey with no question"),
                    format!("add questions to surveys.{field}, or remove \"{field}_minutes\""),
                );
            }
        }
        let intake = self.questions("surveys.intake", &raw.surveys.intake, d.labels);
        let exit = self.questions("surveys.exit", &raw.surveys.exit, d.labels);
        let intake_ids: BTreeMap<&str, usize> = crate::base::order::map(
            raw.surveys
                .intake
                .iter()
                .enumerate()
                .map(|(i, q)| (q.id.as_str(), i)),
        );
        for (j, q) in raw.surveys.exit.iter().enumerate() {
            if let Some(i) = intake_ids.get(q.id.as_str()) {
                self.error(
                    format!("surveys.exit[{j}].id"),
                    format!("the id \"{}\" is also used at surveys.intake[{i}].id", q.id),
                    "give each survey question its own id: both end up in the same ratings file",
                );
            }
        }
        (intake, exit)
    }

    pub(super) fn questions(
        &mut self,
        at: &str,
        raw: &[RawQuestion],
        labels: LabelScheme,
    ) -> Vec<Question> {
        self.unique(
            "question",
            raw.iter()
                .enumerate()
                .map(|(i, q)| (format!("{at}[{i}].id"), q.id.as_str())),
        );
        raw.iter()
            .enumerate()
            .map(|(i, q)| self.question(&format!("{at}[{i}]"), q, labels))
            .collect()
    }

    fn options(&mut self, at: &str, options: &[String], fewest: usize) {
        if options.len() < fewest {
            self.error(
                at.to_owned(),
                format!("{} option(s) given", options.len()),
                format!("give at least {fewest}"),
            );
        }
        let mut seen = BTreeSet::new();
        for (i, o) in options.iter().enumerate() {
            if o.trim().is_empty() {
                self.error(
                    format!("{at}[{i}]"),
                    "the option is empty",
                    "write the option",
                );
            } else if !seen.insert(o.as_str()) {
                self.error(
                    format!("{at}[{i}]"),
                    format!("the option \"{o}\" is given twice"),
                    "keep one",
                );
            }
        }
    }

    fn question(&mut self, at: &str, q: &RawQuestion, labels: LabelScheme) -> Question {
        self.not_blank(&format!("{at}.prompt"), "question prompt", &q.prompt);
        let kind = match &q.kind {
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
                            "set design.labels to \"per_annotator\", or rank fixed options",
                        );
                    }
                    QuestionKind::Rank(RankOptions::Systems)
                } else {
                    self.options(&format!("{at}.options"), options, 2);
                    QuestionKind::Rank(RankOptions::Fixed(options.clone()))
                }
            }
        };
        self.screen_out(at, q, &kind);
        let skippable = matches!(
            kind,
            QuestionKind::Likert(_)
                | QuestionKind::SingleChoice(_)
                | QuestionKind::MultipleChoice { .. }
        );
        if q.allow_skip && !skippable {
            self.error(
                format!("{at}.allow_skip"),
                "\"Cannot judge\" is for scale and choice questions: a text, number or ranking \
                 question has no point to leave out",
                "remove \"allow_skip\", or make the question optional (\"required\": false)",
            );
        }
        Question {
            id: q.id.clone(),
            prompt: q.prompt.clone(),
            help: q.help.clone(),
            required: q.required,
            kind,
            screen_out: q.screen_out.clone(),
            allow_skip: q.allow_skip && skippable,
        }
    }

    /// `screen_out`: only on a choice of the intake survey, each value one of its options, and
    /// not all of them (nobody could take part).
    fn screen_out(&mut self, at: &str, q: &RawQuestion, kind: &QuestionKind) {
        if q.screen_out.is_empty() {
            return;
        }
        let here = format!("{at}.screen_out");
        if !at.starts_with("surveys.intake") {
            self.error(
                here,
                "only intake questions can screen participants out",
                "move the question to surveys.intake, or remove \"screen_out\"",
            );
            return;
        }
        let options = match kind {
            QuestionKind::SingleChoice(o) | QuestionKind::MultipleChoice { options: o, .. } => o,
            _ => {
                self.error(
                    here,
                    "only a choice can screen participants out",
                    "ask a single_choice or multiple_choice question, or remove \"screen_out\"",
                );
                return;
            }
        };
        for (j, value) in q.screen_out.iter().enumerate() {
            if !options.contains(value) {
                self.error(
                    format!("{here}[{j}]"),
                    format!("\"{value}\" is not one of the question's options"),
                    format!("use one of: {}", options.join(", ")),
                );
            }
        }
        if options.iter().all(|o| q.screen_out.contains(o)) {
            self.error(
                here,
                "every option screens participants out: nobody could take part",
                "keep at least one option that lets participants in",
            );
        }
    }
}
