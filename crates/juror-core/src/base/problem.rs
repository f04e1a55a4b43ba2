//! Placed problems: what is wrong with a file the researcher wrote, where, and what to do.
//!
//! A placed-error type says where in an input something is wrong (a JSON path such as
//! `items[3].outputs`, a line and column, a row) beside what is wrong. [`Problem`] is the one
//! for a file the researcher wrote (a study file read by [`crate::study`], a prepared study's
//! outputs, a compiled study as the annotator's page reports it), with what to do about it; and
//! [`Problems`] is every problem found at once, for a study file and a compiled study alike
//! (whose reader keeps each problem's stable code: `front::compiled::Problem`), written one
//! per line by one [`Display`](fmt::Display).
//!
//! The others keep the shape their input needs, each placed its own way: the text formats'
//! first error ([`crate::base::csv::CsvError`], [`crate::base::json::Wrong`], the JSON text's
//! `base::json::text::Error`, [`crate::base::json_path::ReadError`]), a ratings file's or a
//! filled sheet's refusal (`session::ratings::ImportError`, `session::sheet::SheetError`),
//! and a problem of an analysis' input (`analysis::data::Problem`, which names its file and is
//! part of the report).

use std::fmt;

/// One thing wrong with a file the researcher wrote: where, what, and what to do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// Where: a JSON path (`items[3].outputs`), `line 4, column 7`, or `(top level)`.
    pub at: String,
    /// What is wrong.
    pub message: String,
    /// What to do about it.
    pub fix: String,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {} ({})", self.at, self.message, self.fix)
    }
}

/// Every problem found in a file, in document order as far as possible: [`Problem`]s, or the
/// coded problems of a compiled study.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problems<P = Problem>(pub Vec<P>);

impl<P> Problems<P> {
    /// The problems.
    pub fn iter(&self) -> impl Iterator<Item = &P> {
        self.0.iter()
    }
    /// How many.
    pub fn len(&self) -> usize {
        self.0.len()
    }
    /// True when there are none (never the case for an `Err`).
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// Where the note of [`Problems::checks_follow`] is placed: not a problem but the word that the
/// study's other checks wait on the problems listed.
pub const NOT_YET_CHECKED: &str = "(not yet checked)";

impl Problems<Problem> {
    /// The problems found, the note of [`NOT_YET_CHECKED`] apart.
    pub fn found(&self) -> usize {
        self.0.iter().filter(|p| p.at != NOT_YET_CHECKED).count()
    }
    /// Whether the study's other checks (ids, outputs, the design, the plan) wait on these
    /// problems of the file's form: fixing them can bring more.
    pub fn checks_follow(&self) -> bool {
        self.0.iter().any(|p| p.at == NOT_YET_CHECKED)
    }
}

/// One problem a line.
impl<P: fmt::Display> fmt::Display for Problems<P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, p) in self.0.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{p}")?;
        }
        Ok(())
    }
}

impl<P: fmt::Display + fmt::Debug> std::error::Error for Problems<P> {}
