//! The researcher's reading of a study: the annotator's, and its `analysis` section read into
//! the pre-registered plan and checked.
//!
//! The study's own reader ([`crate::study::parse_study`], which the annotator's page calls
//! through [`crate::front::open::open`]) keeps the `analysis` section as written, a JSON value, and
//! never reads it: an annotator plays a study whatever its plan says, and the page carries no
//! reader of the plan. Every researcher's path reads a study here instead (`juror validate`,
//! `analyze`, `power`, `publish`, `seal`, `prepare`, and the Analyse page through
//! [`super::run`]), and gets every problem of the plan, placed (`analysis.tests[0]`), among the
//! rest of the file's in the file's order. This is the only place the plan is read from a
//! study: the floors keep `study`, `open`, `plan` and `session` from reaching it.

use serde::Deserialize;
use serde_json::Value;

use crate::base::problem::{Problem, Problems};
use crate::front::open::Opened;
use crate::study::analysis_plan::{AnalysisPlan, RawAnalysis};
use crate::study::raw::RawStudy;
use crate::study::{PlanReader, Study, read_placed};

/// The reader of the `analysis` section that the researcher's paths pass to the study's.
pub const READER: PlanReader = PlanReader { shape, read };

/// Reads and validates a study file, its analysis plan included.
///
/// # Errors
/// Every problem found, each with where it is and what to do.
pub fn parse_study(text: &str) -> Result<Study, Problems> {
    crate::study::parse_study_with(text, Some(&READER))
}

/// Validates a study built in memory, its analysis plan included.
///
/// # Errors
/// Every rule broken, each with its JSON path and a fix.
pub fn validate(raw: &RawStudy) -> Result<Study, Problems> {
    crate::study::validate_with(raw, Some(&READER))
}

/// The front door ([`crate::front::open::open`]) with the analysis plan read; a compiled study
/// (`juror publish`'s, or `juror compile`'s) read as the annotator's page reads it, with its
/// source's SHA-256 (the one its ratings files carry) and no plan (compiling leaves it out).
///
/// # Errors
/// As [`crate::front::open::open`], the plan's problems included; a compiled study's problems each
/// with its code explained in full.
pub fn open(text: &str) -> Result<Opened, Problems> {
    if crate::front::compiled::is_compiled(text) {
        return crate::front::compiled::read(text)
            .map(crate::front::compiled::Compiled::opened)
            .map_err(|p| p.explained());
    }
    crate::front::open::open_with(text, Some(&READER))
}

/// The section in the place it has in a study file, so that a mistake is placed as serde
/// places it in the whole file.
#[derive(Deserialize)]
struct Section {
    analysis: RawAnalysis,
}

fn section(value: &Value) -> Result<RawAnalysis, Problem> {
    let document = serde_json::json!({ "analysis": value });
    read_placed::<Section>(&document, "").map(|s| s.analysis)
}

fn shape(value: &Value) -> Option<Problem> {
    section(value).err()
}

/// The plan of `raw`'s `analysis` section (`value`), checked against its intake questions,
/// systems and dimensions (with `mqm` when a task marks error spans).
fn read(value: &Value, raw: &RawStudy) -> Result<AnalysisPlan, Vec<Problem>> {
    let plan = section(value).map_err(|p| vec![p])?;
    let mut problems = Vec::new();
    if let Some(q) = plan.by_intake.as_ref() {
        let intake: Vec<&str> = raw.surveys.intake.iter().map(|x| x.id.as_str()).collect();
        if !intake.contains(&q.as_str()) {
            problems.push(Problem {
                at: "analysis.by_intake".to_owned(),
                message: format!("no intake question \"{q}\""),
                fix: if intake.is_empty() {
                    "the study has no intake survey: remove by_intake or add the question"
                        .to_owned()
                } else {
                    format!("use one of: {}", intake.join(", "))
                },
            });
        }
    }
    if let Some(c) = plan.confirmatory.as_ref() {
        let items = raw.items.iter().map(|i| (i.group.as_deref(), &i.groups));
        problems.extend(
            c.item_problems(items)
                .into_iter()
                .map(|(at, message, fix)| Problem {
                    at: format!("analysis.{at}"),
                    message,
                    fix,
                }),
        );
    }
    let mut dims: Vec<String> = raw.rubric.dimensions.iter().map(|d| d.id.clone()).collect();
    // A study that asks for error spans has their MQM scores as a dimension to compare.
    if raw.design.tasks.iter().any(|t| t.spans.is_some()) && !dims.iter().any(|d| d == "mqm") {
        dims.push("mqm".to_owned());
    }
    match AnalysisPlan::from_raw(&plan, &raw.systems, &dims) {
        Ok(plan) if problems.is_empty() => Ok(plan),
        Ok(_) => Err(problems),
        Err(found) => {
            problems.extend(found.into_iter().map(|(at, message, fix)| Problem {
                at: format!("analysis.{at}"),
                message,
                fix,
            }));
            Err(problems)
        }
    }
}
