//! Inputs to the analysis → one tidy table of ratings and one of pairwise preferences.
//!
//! Three kinds of input, told apart by their content (not their file name):
//! - a ratings file, `juror.ratings/1` (text starting with `{`), read by
//!   [`crate::session::ratings::parse`];
//! - a Likert CSV whose header has `item_id,system_id,annotator_id,dimension,score`;
//! - a pairwise CSV whose header has `item_id,system_a,system_b,annotator_id,preference`
//!   (`a`, `b` or `tie`).
//!
//! Optional columns: `round` (a number: the item's round, for the trend and the mixed model)
//! and `position` (where the output was shown, from 1) in a Likert CSV; `shown_first` (`a` or
//! `b`) in a pairwise CSV. A CSV header may hold other columns, in any order; they are ignored.
//! A header with both sets of columns (what `juror analyze --format csv` writes when there are
//! both kinds of data) holds both: a row with a `dimension` is a rating, a row with a
//! `preference` is a preference.
//!
//! Every row keeps where it came from ([`Source`]: the file and a line or a JSON path). Every
//! problem names the file, the place and what is wrong ([`Problem`]); a file with a problem
//! loses only the rows in question (or, for a ratings file that cannot be trusted as a whole,
//! the file), and the other files are still read.
//!
//! The steps: [`ratings_file`] reads a `juror.ratings/1` file, [`tidy_csv`] a CSV, and then,
//! over everything read, a study drops ratings off its scales and fills rounds, and
//! [`dedupe`] drops duplicates.

pub mod dedupe;
pub mod ratings_file;
pub mod tidy_csv;

use std::collections::HashMap;

use super::data::{Data, FileSummary, Input, InputKind, Names, Problem, number};
use crate::publish::SealKey;
use crate::study::Study;

/// What ratings files are checked against and resolved with.
#[derive(Debug, Clone, Copy, Default)]
pub struct Context<'a> {
    /// The study file the ratings files must belong to, with the SHA-256 of its text (as
    /// `juror validate-ratings --study` checks).
    pub study: Option<(&'a Study, &'a str)>,
    /// The key of a sealed study: system tokens in ratings files become system ids.
    pub key: Option<&'a SealKey>,
    /// Show platform participants' ids as the platform gave them, not pseudonymised
    /// ([`crate::pseudonym`]).
    pub reveal_ids: bool,
}

/// Reads every input into one pair of tidy tables, then drops duplicates.
///
/// A duplicate is a second rating of the same (item, system, annotator, dimension), or a second
/// judgement of the same (item, pair of systems, annotator) in either order; the first one read
/// (in the order of `inputs`, then of rows) is kept and the duplicate is a problem that names
/// both places. The exception is a rating repeated within one ratings file: a design that shows
/// an output in several trials (all pairs, with ratings) asks for it again, so the first rating
/// is kept and the later ones go to [`Data::repeats`], without a problem.
pub fn read(inputs: &[Input<'_>], context: &Context) -> Data {
    let mut data = Data::default();
    let mut names = Names::default();
    for (index, input) in inputs.iter().enumerate() {
        let before = data.problems.len();
        let mut summary = FileSummary {
            file: input.name.clone(),
            kind: InputKind::Unread,
            ratings: 0,
            preferences: 0,
            problems: 0,
            annotator: None,
            platform: None,
            unfinished_trials: 0,
            check_trials: 0,
            repeated_ratings: 0,
        };
        if input.text.trim_start().starts_with('{') {
            ratings_file::read(input, index, context, &mut names, &mut data, &mut summary);
        } else {
            tidy_csv::read(input, index, &mut names, &mut data, &mut summary);
        }
        if let Some(annotator) = &summary.annotator
            && let Some(first) = data
                .files
                .iter()
                .find(|f| f.annotator.as_ref() == Some(annotator))
        {
            data.problems.push(Problem::new(
                &summary.file,
                Some("annotator".to_owned()),
                format!(
                    "annotator \"{annotator}\" also has the ratings file {}: the two are merged, \
                     and what both hold is left out here as duplicates; if one is a backup of \
                     the other, give only the final file",
                    first.file
                ),
            ));
        }
        summary.problems = data.problems.len() - before;
        data.files.push(summary);
    }
    if let Some((study, _)) = context.study {
        drop_off_scale(study, &mut data);
        fill_rounds(study, &mut data);
    }
    dedupe::drop_duplicates(&mut data);
    data
}

/// With a study, a rating without a round takes its item's `round`, if the item has one.
fn fill_rounds(study: &Study, data: &mut Data) {
    let rounds: HashMap<&str, f64> = study
        .items()
        .iter()
        .filter_map(|i| i.round.map(|r| (i.id.as_str(), f64::from(r))))
        .collect();
    if rounds.is_empty() {
        return;
    }
    for row in data.ratings.iter_mut().filter(|r| r.round.is_none()) {
        row.round = rounds.get(row.item.as_str()).copied();
    }
}

/// With a study, a rating on one of its dimensions must be a point of that dimension's scale.
fn drop_off_scale(study: &Study, data: &mut Data) {
    let mut problems = Vec::new();
    let mut inputs = Vec::new();
    data.ratings.retain(|row| {
        let Some(dimension) = study.dimension(&row.dimension) else {
            return true;
        };
        let on = dimension
            .scale
            .points
            .iter()
            .any(|p| f64::from(p.value) == row.score);
        if !on {
            inputs.push(row.source.input);
            problems.push(Problem::new(
                &row.source.file,
                Some(row.source.at.to_string()),
                format!(
                    "score {} is not on the scale of \"{}\" ({} to {}); the rating is left out",
                    number(row.score),
                    row.dimension,
                    dimension.scale.min(),
                    dimension.scale.max()
                ),
            ));
        }
        on
    });
    for (p, input) in problems.into_iter().zip(inputs) {
        bump_problems(&mut data.files, input);
        data.problems.push(p);
    }
}

pub(crate) fn bump_problems(files: &mut [FileSummary], input: usize) {
    if let Some(s) = files.get_mut(input) {
        s.problems += 1;
    }
}
