//! Questions, of the intake and exit surveys and the rubric's output questions: prompts, options,
//! ranges, screen-outs and "Cannot judge".

use std::collections::{BTreeMap, BTreeSet};

use super::Checker;
use crate::study::ask::question::CHOICE_TYPES;
use crate::study::model::*;
use crate::study::raw::*;

impl Checker {
    /// `surveys`: the intake and exit questions, no id used in both. Returns both lists.
    pub(super) fn surveys(&mut self, raw: &RawStudy) -> (Vec<Question>, Vec<Question>) {
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
        let labels = raw.design.steadiest_labels();
        let intake = self.questions("surveys.intake", &raw.surveys.intake, labels);
        let exit = self.questions("surveys.exit", &raw.surveys.exit, labels);
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

    pub(in crate::study) fn options(&mut self, at: &str, options: &[String], fewest: usize) {
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
        let kind = self.question_kind(at, &q.kind, labels);
        self.screen_out(at, q, &kind);
        let skippable = kind.skippable();
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
        let options = match kind.choice_options() {
            Some(o) => o,
            None => {
                self.error(
                    here,
                    "only a choice can screen participants out",
                    format!("ask {CHOICE_TYPES}, or remove \"screen_out\""),
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
