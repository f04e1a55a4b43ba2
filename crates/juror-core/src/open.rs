//! The one front door for a study's text: read it, validate it, check that every slot has
//! something to rate (which needs the planner, so it cannot live in `study`), and hash it (the
//! SHA-256 names the study's saved answers and is written into every ratings file). The page,
//! the analysis and the command line all open a study here, so they accept the same files.

use crate::digest::sha256_hex;
use crate::plan::check_slots;
use crate::study::raw::RawStudy;
use crate::study::{Problems, Study, parse_study, validate};

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
/// Every problem [`parse_study`] finds; or, for a study otherwise valid, the slots that would
/// have nothing to rate ([`check_slots`]).
pub fn open(text: &str) -> Result<Opened, Problems> {
    let study = parse_study(text)?;
    check_slots(&study).map_err(|p| Problems(vec![p]))?;
    Ok(Opened {
        study,
        sha256: sha256_hex(text),
    })
}

/// Validates and checks a study built in memory (prepared, sealed or published), as [`open`]
/// does a text.
///
/// # Errors
/// As [`open`].
pub fn open_raw(raw: &RawStudy) -> Result<Study, Problems> {
    let study = validate(raw)?;
    check_slots(&study).map_err(|p| Problems(vec![p]))?;
    Ok(study)
}
