//! The one front door for a study's text: read it, validate it, check that every slot has
//! something to rate (which needs the planner, so it cannot live in `study`), and hash it (the
//! SHA-256 names the study's saved answers and is written into every ratings file). The page,
//! the analysis and the command line all open a study here, so they accept the same files.

use crate::base::digest::sha256_hex;
use crate::base::problem::Problems;
use crate::plan::check_slots;
use crate::study::raw::RawStudy;
use crate::study::{PlanReader, Study, parse_study_with, validate_with};

/// A study opened from its text.
#[derive(Debug, Clone)]
pub struct Opened {
    /// The validated study.
    pub study: Study,
    /// The SHA-256 of the text, lowercase hex.
    pub sha256: String,
}

/// Reads, validates and checks a study file's text.
///
/// # Errors
/// Every problem [`crate::study::parse_study`] finds; or, for a study otherwise valid, the slots that would
/// have nothing to rate ([`check_slots`]).
pub fn open(text: &str) -> Result<Opened, Problems> {
    open_with(text, None)
}

/// [`open`], with the study's `analysis` section read by `plan` when given (the researcher's
/// code: `analysis::plan_reader::open`); without, the section is kept as written and not read, as the
/// annotator's page needs.
///
/// # Errors
/// As [`open`], the plan's problems included.
pub fn open_with(text: &str, plan: Option<&PlanReader>) -> Result<Opened, Problems> {
    let study = parse_study_with(text, plan)?;
    check_slots(&study).map_err(|p| Problems(vec![p]))?;
    Ok(Opened {
        study,
        sha256: sha256_hex(text),
    })
}

/// Validates and checks a study built in memory (prepared, sealed or published), as
/// [`open_with`] does a text.
///
/// # Errors
/// As [`open`].
pub fn open_raw(raw: &RawStudy, plan: Option<&PlanReader>) -> Result<Study, Problems> {
    let study = validate_with(raw, plan)?;
    check_slots(&study).map_err(|p| Problems(vec![p]))?;
    Ok(study)
}
