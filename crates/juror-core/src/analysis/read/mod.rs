//! Inputs to the analysis → one tidy table of ratings and one of pairwise preferences.
//!
//! Three kinds of input, told apart by their content (not their file name):
//! - a ratings file, `juror.ratings/1` (text starting with `{`), read by
//!   [`crate::session::ratings::parse`];
//! - a Likert CSV whose header has `item_id,system_id,annotator_id,dimension,score`;
//! - a pairwise CSV whose header has `item_id,system_a,system_b,annotator_id,preference`
//!   (`a`, `b` or `tie`);
//! - a table of error spans whose header has
//!   `item_id,system_id,annotator_id,start,end,severity,category,length`: one row per error
//!   marked (`start` and `end` in Unicode code points, end exclusive, both empty for an error of
//!   the whole output), or one row with `start`, `end` and `severity` empty for an output the
//!   annotator found without errors; `length` is the output's length in code points;
//! - JSON Lines (a `.jsonl` name, or a first line that is a whole JSON object), one verdict
//!   per line with the CSVs' column names as fields, or a verdict on a trial of `juror
//!   trials` ([`jsonl`]).
//!
//! Optional columns: `round` (a number: the item's round, for the trend and the mixed model)
//! and `position` (where the output was shown, from 1) in a Likert CSV; `shown_first` (`a` or
//! `b`) in a pairwise CSV; `run` (the repeat a verdict is of, from 1) and `confidence` (from 0
//! to 1) in both, which an automatic judge's verdicts may carry. A CSV header may hold other
//! columns, in any order; they are ignored. A header with two or more sets of columns (what `juror
//! analyze --format csv` writes when there are several kinds of data) holds them all: a row with
//! a `dimension` is a rating, a row with a `preference` is a preference, a row with neither in a
//! header with the span columns is an error span.
//!
//! Every row keeps where it came from ([`Source`]: the file and a line or a JSON path). Every
//! problem names the file, the place and what is wrong ([`Problem`]); a file with a problem
//! loses only the rows in question (or, for a ratings file that cannot be trusted as a whole,
//! the file), and the other files are still read.
//!
//! The steps: [`ratings_file`] reads a `juror.ratings/1` file, [`tidy_csv`] a CSV, and then,
//! over everything read, a study drops ratings off its scales and fills rounds, and
//! [`dedupe`] drops duplicates. Before any of that, [`published::needs_key`] refuses ratings
//! files of a published study given without its key (their systems are tokens, one per item).

pub mod backups;
pub mod caps;
pub mod dedupe;
pub mod jsonl;
pub mod published;
pub mod ratings_file;
pub mod studies;
pub mod tidy_csv;

use std::collections::HashMap;

use super::data::{Data, FileSummary, Input, InputKind, Names, Problem, number};
use crate::base::pseudonym;
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
    /// ([`crate::base::pseudonym`]).
    pub reveal_ids: bool,
}

/// Reads every input into one pair of tidy tables, then drops duplicates.
///
/// Inputs are named by their base name (a path's folders are left out), and a ratings file's
/// name by its participant's pseudonym where the report pseudonymises them ([`ratings_file`]).
/// Of one annotator's ratings files, only the latest complete one is read ([`backups`]); the
/// others are listed as superseded. An input that would name more systems or dimensions than
/// an analysis takes is left out ([`caps`]).
///
/// A duplicate is a second rating of the same (item, system, annotator, dimension), or a second
/// judgement of the same (item, pair of systems, annotator) in either order; the first one read
/// (in the order of `inputs`, then of rows) is kept and the duplicate is a problem that names
/// both places. The exception is a rating repeated within one ratings file: a design that shows
/// an output in several trials (all pairs, with ratings) asks for it again, so the first rating
/// is kept and the later ones go to [`Data::repeats`], without a problem.
pub fn read(inputs: &[Input<'_>], context: &Context) -> Data {
    read_as(inputs, context, false)
}

/// Reads automatic judges' verdicts as [`read`] reads people's ratings, into a [`Data`] of their
/// own, with one difference: a judgement of a pair shown the other way round is kept beside the
/// first, not dropped as a duplicate ([`dedupe`]).
pub fn read_judges(inputs: &[Input<'_>], context: &Context) -> Data {
    read_as(inputs, context, true)
}

fn read_as(inputs: &[Input<'_>], context: &Context, judges: bool) -> Data {
    let mut data = Data::default();
    let mut names = Names::default();
    let inputs: Vec<Input<'_>> = inputs
        .iter()
        .map(|i| Input::new(base_name(&i.name), i.text.as_ref()))
        .collect();
    let mut opened = open_all(&inputs, context);
    one_study(&mut opened, context);
    let files: Vec<_> = opened.iter().map(|o| o.as_ref()?.as_ref().ok()).collect();
    let superseded =
        backups::superseded_by(&files.iter().map(|o| o.map(|f| &f.file)).collect::<Vec<_>>());
    let shown: Vec<Option<String>> = files.iter().map(|o| o.map(|f| f.name.clone())).collect();
    let sessions: Vec<bool> = superseded
        .iter()
        .enumerate()
        .map(|(i, by)| match (by, files[i]) {
            (Some(w), Some(f)) => {
                files[*w].is_some_and(|w| backups::same_session(&f.file, &w.file))
            }
            _ => true,
        })
        .collect();
    drop(files);
    let mut caps = caps::Caps::new(context);
    for (index, input) in inputs.iter().enumerate() {
        let before = data.problems.len();
        let marks = caps::Marks::of(&data);
        let mut summary = FileSummary::new(input.name.clone());
        match opened[index].take() {
            None if jsonl::is_jsonl(input) => {
                jsonl::read(input, index, context, &mut names, &mut data, &mut summary);
            }
            None => tidy_csv::read(input, index, &mut names, &mut data, &mut summary),
            Some(Err(problem)) => {
                summary.file.clone_from(&problem.file);
                data.problems.push(problem);
            }
            Some(Ok(file)) => {
                summary.file.clone_from(&file.name);
                summary.annotator = Some(file.annotator.clone());
                if let Some(platform) = &file.file.annotator.platform {
                    summary.platform = Some(platform.name.clone());
                    data.platform_ids = Some(ids_shown(context));
                }
                match superseded[index] {
                    Some(by) => {
                        summary.kind = InputKind::SupersededBackup;
                        summary.superseded_by.clone_from(&shown[by]);
                        if !sessions[index] {
                            data.problems.push(Problem::new(
                                &summary.file,
                                Some("started_at".to_owned()),
                                format!(
                                    "annotator \"{}\" also has the ratings file {} of another \
                                     session (started at another time), which is read instead \
                                     (complete, or exported later); this one is left out; if \
                                     they are two people, give each a link of their own",
                                    file.annotator,
                                    shown[by].as_deref().unwrap_or_default()
                                ),
                            ));
                        }
                    }
                    None => {
                        ratings_file::read(
                            file,
                            index,
                            context,
                            &mut names,
                            &mut data,
                            &mut summary,
                        );
                    }
                }
            }
        }
        caps.admit(marks, &mut data, &mut summary);
        if summary.kind == InputKind::RatingsFile
            && let Some(annotator) = &summary.annotator
            && let Some(first) = data.files.iter().find(|f| {
                f.kind == InputKind::RatingsFile && f.annotator.as_ref() == Some(annotator)
            })
        {
            data.problems.push(Problem::new(
                &summary.file,
                Some("annotator".to_owned()),
                format!(
                    "the ratings file {} names the annotator \"{annotator}\" too, from another \
                     link (another platform, or an id that reads as a slot): the two files are \
                     read as one annotator's, and what both rated is left out here as duplicates; \
                     if they are two people, give each a link of their own",
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
        check_spans(study, &mut data);
    }
    dedupe::drop_duplicates(&mut data, judges);
    data
}

/// Without a study or a key to say which study is analysed, ratings files of more than one
/// study are all left out ([`studies::mixed`]): never merged.
fn one_study(opened: &mut [Option<Result<ratings_file::Opened<'_>, Problem>>], context: &Context) {
    if context.study.is_some() || context.key.is_some() {
        return;
    }
    let ids: Vec<Option<&str>> = opened
        .iter()
        .map(|o| match o {
            Some(Ok(f)) => Some(f.file.study.id.as_str()),
            _ => None,
        })
        .collect();
    let refused = studies::mixed(&ids);
    for (slot, message) in opened.iter_mut().zip(refused) {
        if let (Some(message), Some(Ok(f))) = (message, slot.as_ref()) {
            let problem = Problem::new(&f.name, Some("study.id".to_owned()), message);
            *slot = Some(Err(problem));
        }
    }
}

/// Whether an input is a ratings file (JSON) rather than a CSV or JSON Lines.
fn is_ratings_file(input: &Input<'_>) -> bool {
    input.text.trim_start().starts_with('{') && !jsonl::is_jsonl(input)
}

/// Every ratings file opened (`None` for a CSV), its platform participant pseudonymised with
/// the key's secret, else one drawn from the inputs.
pub(crate) fn open_all<'k>(
    inputs: &[Input<'_>],
    context: &Context<'k>,
) -> Vec<Option<Result<ratings_file::Opened<'k>, Problem>>> {
    let secret = secret(inputs, context);
    inputs
        .iter()
        .enumerate()
        .map(|(index, input)| {
            is_ratings_file(input).then(|| ratings_file::open(input, index, context, &secret))
        })
        .collect()
}

/// The secret of platform participants' pseudonyms: the key's; without one (and when a file
/// names a platform), a salt drawn from the ratings files' texts ([`pseudonym::salt`]), which
/// no one without the files can recompute; empty when the ids are revealed.
fn secret(inputs: &[Input<'_>], context: &Context) -> String {
    if context.reveal_ids {
        return String::new();
    }
    if let Some(secret) = context.key.and_then(|k| k.ids_secret.as_deref()) {
        return secret.to_owned();
    }
    let ratings: Vec<&str> = inputs
        .iter()
        .filter(|i| is_ratings_file(i))
        .map(|i| i.text.as_ref())
        .collect();
    if ratings.iter().any(|t| t.contains("\"platform\"")) {
        pseudonym::salt(&ratings)
    } else {
        String::new()
    }
}

/// How the report shows platform participants' ids.
fn ids_shown(context: &Context) -> &'static str {
    match (
        context.reveal_ids,
        context.key.and_then(|k| k.ids_secret.as_ref()),
    ) {
        (true, _) => pseudonym::SHOWN,
        (false, Some(_)) => pseudonym::KEYED,
        (false, None) => pseudonym::UNKEYED,
    }
}

/// A path's last part: the report names files, never where they were on a computer.
pub fn base_name(path: &str) -> String {
    path.rsplit(['/', '\\'])
        .find(|part| !part.is_empty())
        .unwrap_or(path)
        .to_owned()
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

/// With a study, an error span must fit the study: its output's length the text's length in
/// code points (when the study has the output), its severity one the study offers, its category
/// one of the study's (when it lists any). A row that does not fit is left out.
fn check_spans(study: &Study, data: &mut Data) {
    let tasks: Vec<&crate::study::Spans> = study
        .design()
        .tasks
        .iter()
        .filter_map(|t| t.spans.as_ref())
        .collect();
    if data.spans.is_empty() {
        return;
    }
    let mut severities: Vec<crate::study::Severity> = tasks
        .iter()
        .flat_map(|t| t.severities.iter().copied())
        .collect();
    severities.sort();
    severities.dedup();
    let categories: Vec<&str> = tasks
        .iter()
        .flat_map(|t| t.categories.iter().map(String::as_str))
        .collect();
    let lengths: HashMap<(&str, &str), usize> = study
        .items()
        .iter()
        .flat_map(|i| {
            i.outputs
                .iter()
                .map(move |(s, text)| ((i.id.as_str(), s.as_str()), text.plain().chars().count()))
        })
        .collect();
    let mut problems = Vec::new();
    data.spans.retain(|row| {
        let wrong = if tasks.is_empty() {
            Some("the study asks for no error spans; the row is left out".to_owned())
        } else if let Some(&n) = lengths.get(&(row.item.as_str(), row.system.as_str()))
            && n != row.length as usize
        {
            Some(format!(
                "length {} but the study's output of \"{}\" on item \"{}\" has {n} \
                 characters (Unicode code points); the row is left out",
                row.length, row.system, row.item
            ))
        } else if let Some(s) = row.severity
            && !severities.contains(&s)
        {
            Some(format!(
                "severity \"{}\" is not one the study offers ({}); the row is left out",
                s.name(),
                severities
                    .iter()
                    .map(|s| s.name())
                    .collect::<Vec<_>>()
                    .join(", ")
            ))
        } else if let Some(c) = &row.category
            && !categories.contains(&c.as_str())
        {
            Some(if categories.is_empty() {
                format!("category \"{c}\" but the study asks for none; the row is left out")
            } else {
                format!(
                    "category \"{c}\" is not one of the study's ({}); the row is left out",
                    categories.join(", ")
                )
            })
        } else {
            None
        };
        if let Some(message) = wrong {
            problems.push((
                row.source.input,
                Problem::new(&row.source.file, Some(row.source.at.to_string()), message),
            ));
            return false;
        }
        true
    });
    for (input, p) in problems {
        bump_problems(&mut data.files, input);
        data.problems.push(p);
    }
}

pub(crate) fn bump_problems(files: &mut [FileSummary], input: usize) {
    if let Some(s) = files.get_mut(input) {
        s.problems += 1;
    }
}
