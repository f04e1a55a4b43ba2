//! From text to a [`Study`], reporting every problem at once.
//!
//! Three passes, each reporting all it finds before giving up:
//! 1. syntax: `serde_json` gives the line and column of the first syntax error (the JSON cannot
//!    be read past it, so this pass reports one);
//! 2. shape: the document is deserialized into [`RawStudy`]; when that fails, each section and
//!    each item is tried on its own so that one bad item does not hide the next;
//! 3. meaning: [`validate`] checks every rule that types cannot say (unique ids, one output per
//!    system, known dimensions, labelled scale points, ...).
//!
//! Every [`Problem`] names where (a JSON path such as `items[3].outputs`, or a line and column)
//! and what to do about it.
//!
//! The meaning pass is one [`Checker`] method family per section of the file, each in a file of
//! its own: `header.rs` (with the systems), `rubric.rs` (with the scales), `items.rs` (with
//! their media, `media.rs`), `design.rs` (with its tasks, `tasks.rs`, and their `pairs.rs`; a
//! preference is checked in `study/ask/preference.rs`), `surveys.rs` (every question) and `analysis.rs`; the shape pass is in
//! `shape.rs`.

mod analysis;
mod design;
mod header;
mod items;
mod media;
mod pairs;
mod rubric;
mod shape;
mod surveys;
mod tasks;
#[cfg(test)]
mod tests;

use std::collections::{BTreeSet, HashMap};

use serde::de::DeserializeOwned;
use serde_json::Value;

use self::shape::{deserialize, question_key_problems, section_problems};
use super::analysis_plan::AnalysisPlan;
use super::model::*;
use super::raw::*;
use crate::base::problem::NOT_YET_CHECKED;

pub use crate::base::problem::{Problem, Problems};

/// What reads a study's `analysis` section into its plan. The study's own reader keeps the
/// section as written (a JSON value) and never reads it, so that the annotator's page, which
/// plays a study and has no use for its plan, carries no reader of it: the researcher's code
/// (`juror validate`, `juror analyze`, the Analyse page, `juror publish`) passes the analysis
/// floor's reader (`analysis::plan_reader::READER`) to [`parse_study_with`] and [`validate_with`],
/// which report the plan's problems where and in the order [`parse_study`] reports the rest.
#[derive(Debug, Clone, Copy)]
pub struct PlanReader {
    /// The section's first mistake of shape (a wrong type, an unknown field), placed as the
    /// rest of the file's are (`analysis.tests[0]`).
    pub shape: fn(&Value) -> Option<Problem>,
    /// The plan, checked against the study's systems, dimensions and intake questions; or
    /// every problem, each placed below `analysis`.
    pub read: fn(&Value, &RawStudy) -> Result<AnalysisPlan, Vec<Problem>>,
}

/// Reads and validates a study file to be played: everything but its `analysis` section, which
/// is kept as written and not read (see [`PlanReader`]; a study whose plan is wrong is still
/// played, and `juror validate` and the Analyse page say what is wrong with the plan).
///
/// # Errors
/// Every problem found, each with where it is and what to do.
pub fn parse_study(text: &str) -> Result<Study, Problems> {
    parse_study_with(text, None)
}

/// [`parse_study`], and the `analysis` section read into the study's plan by `plan`, when given.
///
/// # Errors
/// Every problem found, the plan's included, each with where it is and what to do.
pub fn parse_study_with(text: &str, plan: Option<&PlanReader>) -> Result<Study, Problems> {
    let value: Value = serde_json::from_str(text).map_err(|e| Problems(vec![syntax(&e)]))?;
    let Some(object) = value.as_object() else {
        return Err(one(
            "(top level)",
            "the study must be a JSON object",
            "start the file with { and give the fields described in docs/study-format.md",
        ));
    };
    match object.get("format") {
        Some(Value::String(f)) if f == STUDY_FORMAT_V1 => {}
        Some(Value::String(f)) => {
            return Err(one(
                "format",
                &format!("unknown format version \"{f}\""),
                &format!(
                    "this version of Juror reads \"{STUDY_FORMAT_V1}\" only; set \"format\": \"{STUDY_FORMAT_V1}\" or use the Juror that wrote this file"
                ),
            ));
        }
        Some(_) => {
            return Err(one(
                "format",
                "the format must be a string",
                &format!("set \"format\": \"{STUDY_FORMAT_V1}\""),
            ));
        }
        None => {
            return Err(one(
                "(top level)",
                "missing field \"format\"",
                &format!("add \"format\": \"{STUDY_FORMAT_V1}\" as the first field"),
            ));
        }
    }

    let mut problems = question_key_problems(&value);
    // The plan's mistake of shape, which serde would meet first (fields are read in the order
    // of their names, and `analysis` comes first but for `$schema`).
    let plan_shape = plan.and_then(|r| (r.shape)(object.get("analysis")?));
    match deserialize::<RawStudy>(&value, "") {
        Ok(raw) => {
            problems.extend(plan_shape);
            if !problems.is_empty() {
                return Err(Problems(problems));
            }
            validate_with(&raw, plan)
        }
        Err(first) => {
            let mut found = vec![plan_shape.unwrap_or(first)];
            found.extend(section_problems(object));
            // A question's `type` of the wrong kind is said at it, more precisely than serde can.
            found.retain(|p| !problems.iter().any(|q| q.at == format!("{}.type", p.at)));
            problems.extend(found);
            let mut seen = BTreeSet::new();
            problems.retain(|p| seen.insert((p.at.clone(), p.message.clone())));
            // Said, so that the next run's new problems do not look like a moving target.
            problems.push(Problem {
                at: NOT_YET_CHECKED.to_owned(),
                message: "the study's other checks (ids, outputs, the design, the analysis plan) \
                          run once the file's form is right"
                    .to_owned(),
                fix: "fix the problems above and check again: more may be found".to_owned(),
            });
            Err(Problems(problems))
        }
    }
}

fn one(at: &str, message: &str, fix: &str) -> Problems {
    Problems(vec![Problem {
        at: at.to_owned(),
        message: message.to_owned(),
        fix: fix.to_owned(),
    }])
}

fn syntax(e: &serde_json::Error) -> Problem {
    // serde_json's message ends with " at line L column C"; the position goes in `at`.
    let full = e.to_string();
    let message = full
        .rfind(" at line ")
        .map_or(full.as_str(), |i| &full[..i])
        .to_owned();
    let fix = if e.is_eof() {
        "the file ends too early: a closing } or ] or a closing quote is missing"
    } else {
        "fix the JSON syntax there; a missing comma or quote, or a trailing comma, is the usual cause"
    };
    Problem {
        at: format!("line {}, column {}", e.line(), e.column()),
        message: format!("JSON syntax error: {message}"),
        fix: fix.to_owned(),
    }
}

/// Reads `value` as a `T`, or gives its first mistake of shape placed below `prefix` and said
/// without Rust's type names, as every mistake of shape in a study file is.
///
/// # Errors
/// The first value that does not fit, with its place and a fix.
pub fn read_placed<T: DeserializeOwned>(value: &Value, prefix: &str) -> Result<T, Problem> {
    deserialize(value, prefix)
}

/// Collects problems with their paths.
#[derive(Default)]
pub(super) struct Checker {
    problems: Vec<Problem>,
}

impl Checker {
    pub(super) fn error(
        &mut self,
        at: impl Into<String>,
        message: impl Into<String>,
        fix: impl Into<String>,
    ) {
        self.problems.push(Problem {
            at: at.into(),
            message: message.into(),
            fix: fix.into(),
        });
    }

    fn id(&mut self, at: &str, what: &str, id: &str) {
        if id.trim().is_empty() {
            self.error(
                at,
                format!("the {what} id is empty"),
                "give it a short name such as \"relevance\"",
            );
        } else if id.trim() != id || id.chars().any(char::is_control) {
            self.error(
                at,
                format!(
                    "the {what} id \"{id}\" has leading or trailing spaces or control characters"
                ),
                "remove them",
            );
        } else if id.len() > 200 {
            self.error(
                at,
                format!("the {what} id is {} characters long", id.len()),
                "use at most 200 characters",
            );
        }
    }

    pub(super) fn not_blank(&mut self, at: &str, what: &str, text: &str) {
        if text.trim().is_empty() {
            self.error(at, format!("{what} is empty"), format!("write the {what}"));
        }
    }

    /// Reports duplicates among `ids` (each with its own path) and returns the set of ids.
    fn unique<'a>(
        &mut self,
        what: &str,
        ids: impl IntoIterator<Item = (String, &'a str)>,
    ) -> BTreeSet<&'a str> {
        let mut first: HashMap<&str, String> = HashMap::new();
        for (at, id) in ids {
            self.id(&at, what, id);
            if let Some(prev) = first.get(id) {
                self.error(
                    at,
                    format!("duplicate {what} id \"{id}\", first used at {prev}"),
                    "give each one its own id",
                );
            } else {
                first.insert(id, at);
            }
        }
        crate::base::order::set(first.into_keys())
    }
}

/// Checks the meaning of a [`RawStudy`] and builds the [`Study`]: first the caps on its counts
/// ([`super::limits`]; a study over one is refused with those problems alone), then one
/// [`Checker`] method per section of the file, in the file's order, so that problems are
/// reported in that order.
///
/// # Errors
/// Every rule broken, each with its JSON path and a fix.
pub fn validate(raw: &RawStudy) -> Result<Study, Problems> {
    validate_with(raw, None)
}

/// [`validate`], and the `analysis` section read into the study's plan by `plan`, when given
/// (its problems between the surveys' and the published plans', in the file's order).
///
/// # Errors
/// Every rule broken, the plan's included, each with its JSON path and a fix.
pub fn validate_with(raw: &RawStudy, plan: Option<&PlanReader>) -> Result<Study, Problems> {
    // First the counts that drive planning: a study over a cap gets that one message, at once.
    let over = super::limits::check(raw);
    if !over.is_empty() {
        return Err(Problems(over));
    }
    let mut c = Checker::default();
    c.header(raw);
    let systems = c.systems(raw);
    let (rubric, dims, question_ids) = c.rubric(raw);
    let (items, item_ids, groups) = c.items(raw, &systems);
    let known = Known {
        systems,
        dimensions: dims,
        questions: question_ids,
        items: item_ids,
        groups,
    };
    let mut design = c.design(raw, &known, &rubric.dimensions);
    let (intake, exit) = c.surveys(raw);
    let analysis = c.analysis(raw, plan);
    design.plans = raw
        .design
        .plans
        .as_ref()
        .map(|plans| super::published::published_plans(&mut c, raw, &design.tasks, plans));
    design.personal_plans = super::published::personal_plans(&mut c, raw, &design.tasks);

    if !c.problems.is_empty() {
        return Err(Problems(c.problems));
    }
    Ok(Study {
        id: raw.id.clone(),
        title: raw.title.clone(),
        description: raw.description.clone().map(Text::Source),
        instructions: raw.instructions.clone().map(Text::Source),
        consent: raw.consent.as_ref().map(|k| Consent {
            text: Text::Source(k.text.clone()),
            agree_label: k.agree_label.clone(),
            decline_label: k.decline_label.clone(),
        }),
        estimated_minutes: raw.estimated_minutes,
        contact: raw.contact.clone(),
        debrief: raw.debrief.clone().map(Text::Source),
        completion: raw.completion.clone(),
        submit: raw.submit.clone(),
        seed: raw.seed,
        systems: raw.systems.clone(),
        rubric,
        design,
        intake,
        exit,
        intake_minutes: raw.surveys.intake_minutes,
        exit_minutes: raw.surveys.exit_minutes,
        screened_message: Text::Source(
            raw.surveys
                .screened_message
                .clone()
                .unwrap_or_else(|| super::model::SCREENED_MESSAGE.to_owned()),
        ),
        items,
        analysis,
    })
}

/// The ids a study defines, for the checks that refer to them.
struct Known<'a> {
    systems: BTreeSet<&'a str>,
    dimensions: BTreeSet<&'a str>,
    /// The output questions' ids.
    questions: BTreeSet<&'a str>,
    items: BTreeSet<&'a str>,
    groups: BTreeSet<&'a str>,
}

fn known(what: &str, ids: &BTreeSet<&str>) -> String {
    if ids.is_empty() {
        return format!("the study defines no {what}");
    }
    let list: Vec<String> = ids.iter().take(12).map(|s| format!("\"{s}\"")).collect();
    let more = if ids.len() > 12 { ", ..." } else { "" };
    format!("known {what} ids: {}{more}", list.join(", "))
}
