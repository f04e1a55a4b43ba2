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

use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap};
use std::fmt;

use serde::Serialize;

use super::choices::{ChoiceKind, ChoiceRow};
use crate::csv;
use crate::fast_hash::FastHash;
use crate::pseudonym;
use crate::session::ratings::{self, OutputRecord, PreferenceRecord, RatingsFile, TrialRecord};
use crate::stats::preference::Outcome;

pub use super::name::{Ids, Name, Names};
use crate::publish::SealKey;
use crate::study::{AttentionCheck, Study};

/// One input: a name (the file's path, as the user gave it) and its text, borrowed from the
/// caller where it can be (a large table is not copied to be read).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Input<'a> {
    pub name: String,
    pub text: Cow<'a, str>,
}

impl<'a> Input<'a> {
    pub fn new(name: impl Into<String>, text: impl Into<Cow<'a, str>>) -> Input<'a> {
        Input {
            name: name.into(),
            text: text.into(),
        }
    }
}

/// Where a row came from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Source {
    /// The input's name.
    pub file: Name,
    /// `line N` in a CSV (the line its record starts on), or a JSON path in a ratings file
    /// (`trials[3].outputs[0].ratings.quality`).
    pub at: At,
    /// The position of the input in the list given to [`read`], from 0 (two inputs may have the
    /// same name).
    #[serde(skip)]
    pub input: usize,
}

/// A place in an input: a CSV's line, or a JSON path in a ratings file. Written (and
/// serialised) as `line 12` or `trials[3].outputs[0].ratings.quality`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum At {
    /// The line (from 1) a CSV record starts on.
    Line(usize),
    /// A JSON path (boxed: a row's place is 16 bytes, not 24).
    Path(Box<str>),
}

impl fmt::Display for At {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            At::Line(n) => write!(f, "line {n}"),
            At::Path(p) => f.write_str(p),
        }
    }
}

impl From<String> for At {
    fn from(path: String) -> At {
        At::Path(path.into_boxed_str())
    }
}

impl Serialize for At {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

super::name::string_schema!(At);

/// One rating: one annotator's score of one system's output for one item, on one dimension.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct RatingRow {
    pub source: Source,
    pub item: Name,
    pub system: Name,
    pub annotator: Name,
    pub dimension: Name,
    pub score: f64,
    /// The item's round: the study's `items[].round`, or a CSV's optional `round` column.
    pub round: Option<f64>,
    /// Where the output was shown, from 1, in a trial that showed two or more outputs (a
    /// ratings file records it; a CSV may give it in an optional `position` column).
    pub position: Option<u32>,
}

/// One pairwise judgement: `system_a` against `system_b` on `item`, by `annotator`.
#[derive(Debug, Clone, PartialEq)]
pub struct PreferenceRow {
    pub source: Source,
    pub item: Name,
    pub system_a: Name,
    pub system_b: Name,
    pub annotator: Name,
    pub outcome: Outcome,
    /// Which system was shown first, when known: `Some(true)` when `system_a` was (always, in
    /// a ratings file), `Some(false)` when `system_b` was; a CSV may say so in an optional
    /// `shown_first` column (`a` or `b`).
    pub a_first: Option<bool>,
    /// Derived from a best-of-N choice (three or more outputs shown) or a ranking, whose
    /// report is [`super::choices`]'s.
    pub derived: bool,
}

/// One finished trial of a ratings file, for the diagnostics: who, what, how long, and, for
/// an attention-check item, whether the answer was accepted.
#[derive(Debug, Clone, PartialEq)]
pub struct TrialRow {
    pub file: String,
    pub annotator: String,
    pub item: String,
    pub task: String,
    /// The item is an attention check.
    pub check: bool,
    /// `Some(passed)` for an attention check evaluated against the study's `accept` list;
    /// `None` for an ordinary trial, or without the study.
    pub passed: Option<bool>,
    /// Active time on the trial (the tab visible), in milliseconds.
    pub active_ms: u64,
    /// Outputs shown.
    pub outputs: usize,
}

/// The text of an outcome in tables: `a`, `b` or `tie`.
pub fn outcome_name(outcome: Outcome) -> &'static str {
    match outcome {
        Outcome::A => "a",
        Outcome::B => "b",
        Outcome::Tie => "tie",
    }
}

/// One thing wrong with an input: the file, where in it, and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Problem {
    pub file: String,
    /// A line (`line 12`, `line 3, column 7`) or a JSON path; `None` for the file as a whole.
    pub at: Option<String>,
    pub message: String,
}

impl Problem {
    pub fn new(file: &str, at: Option<String>, message: impl Into<String>) -> Problem {
        Problem {
            file: file.to_owned(),
            at,
            message: message.into(),
        }
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.at {
            Some(at) => write!(f, "{}: {at}: {}", self.file, self.message),
            None => write!(f, "{}: {}", self.file, self.message),
        }
    }
}

/// What kind of input a file was read as.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum InputKind {
    /// A `juror.ratings/1` file.
    RatingsFile,
    /// A tidy CSV of Likert ratings.
    LikertCsv,
    /// A tidy CSV of pairwise preferences.
    PairwiseCsv,
    /// A tidy CSV with both (as `juror analyze --format csv` writes).
    TidyCsv,
    /// Nothing could be read from it.
    Unread,
}

/// What was taken from one input.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct FileSummary {
    pub file: String,
    pub kind: InputKind,
    /// Rating rows kept (after duplicates are dropped).
    pub ratings: usize,
    /// Preference rows kept (after duplicates are dropped).
    pub preferences: usize,
    /// Problems found in this file.
    pub problems: usize,
    /// Ratings files: the annotator id used (`annotator.id`, else `slot<N>`; a platform's
    /// participant under a pseudonym unless the ids are revealed).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub annotator: Option<String>,
    /// Ratings files: the recruitment platform the annotator came from (`prolific`, `mturk`,
    /// `sona`), if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub platform: Option<String>,
    /// Ratings files: trials left out because they were not finished (`done: false`).
    #[serde(skip_serializing_if = "is_zero")]
    pub unfinished_trials: usize,
    /// Ratings files: trials left out because their item is an attention check.
    #[serde(skip_serializing_if = "is_zero")]
    pub check_trials: usize,
    /// Ratings files: ratings of an output the annotator had already rated in an earlier trial
    /// (an output shown in several pairs); the first rating is used, the repeats feed the
    /// diagnostics' consistency check.
    #[serde(skip_serializing_if = "is_zero")]
    pub repeated_ratings: usize,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// Everything read: the two tidy tables, a summary per input, and the problems.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Data {
    pub ratings: Vec<RatingRow>,
    pub preferences: Vec<PreferenceRow>,
    /// Best-of-N choices (three or more outputs) and rankings, as made.
    pub choices: Vec<super::choices::ChoiceRow>,
    /// Every other answer of the ratings files: output questions, flags, notes and reasons,
    /// surveys (`answers.csv`).
    pub answers: Vec<super::answers::AnswerRow>,
    /// The finished trials of the ratings files, attention checks included (CSV inputs have
    /// none).
    pub trials: Vec<TrialRow>,
    /// Later ratings of a cell (item, system, dimension) an annotator had already rated in an
    /// earlier trial of the same ratings file; `ratings` holds the first. Used only by the
    /// diagnostics (position, consistency).
    pub repeats: Vec<RatingRow>,
    pub files: Vec<FileSummary>,
    pub problems: Vec<Problem>,
    /// How platform participants' ids are shown ([`crate::pseudonym::KEYED`], `UNKEYED` or
    /// `SHOWN`), when a ratings file came from a platform.
    pub platform_ids: Option<&'static str>,
}

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
            read_ratings_file(input, index, context, &mut names, &mut data, &mut summary);
        } else {
            read_csv(input, index, &mut names, &mut data, &mut summary);
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
    drop_duplicates(&mut data);
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

// ---------------------------------------------------------------------------------------------
// Ratings files
// ---------------------------------------------------------------------------------------------

fn read_ratings_file(
    input: &Input<'_>,
    index: usize,
    context: &Context,
    names: &mut Names,
    data: &mut Data,
    summary: &mut FileSummary,
) {
    let name = input.name.as_str();
    let problem = |at: Option<String>, message: String| Problem::new(name, at, message);
    let file = match ratings::parse(&input.text) {
        Ok(file) => file,
        Err(e) => {
            data.problems.push(problem(Some(e.at), e.message));
            return;
        }
    };
    if let Some((study, hash)) = context.study
        && let Err(e) = ratings::restore(study, hash, &file)
    {
        data.problems.push(problem(
            Some(e.at),
            format!("{}; the file is left out", e.message),
        ));
        return;
    }
    let rename = match resolver(&file, context.key) {
        Ok(rename) => rename,
        Err((at, message)) => {
            data.problems.push(problem(Some(at), message));
            return;
        }
    };
    summary.kind = InputKind::RatingsFile;
    let mut annotator = match &file.annotator.id {
        Some(id) if !id.is_empty() => id.clone(),
        _ => format!("slot{}", file.annotator.slot),
    };
    let mut name = name.to_owned();
    if let Some(platform) = &file.annotator.platform {
        summary.platform = Some(platform.name.clone());
        let secret = context.key.and_then(|k| k.ids_secret.as_deref());
        data.platform_ids = Some(match (context.reveal_ids, secret) {
            (true, _) => pseudonym::SHOWN,
            (false, Some(_)) => pseudonym::KEYED,
            (false, None) => pseudonym::UNKEYED,
        });
        if !context.reveal_ids
            && let Some(id) = &file.annotator.id
        {
            let alias = pseudonym::pseudonym(secret.unwrap_or(""), &platform.name, id);
            name = pseudonym::scrub_file_name(&name, id, &alias);
            annotator = alias;
        }
    }
    summary.file.clone_from(&name);
    summary.annotator = Some(annotator.clone());
    let problem = |at: Option<String>, message: String| Problem::new(&name, at, message);
    let file_name = names.get(&name);
    let annotator_name = names.get(&annotator);
    let source = |at: String| Source {
        file: file_name.clone(),
        at: At::Path(at.into_boxed_str()),
        input: index,
    };
    let study = context.study.map(|(s, _)| s);
    let is_check = |trial: &TrialRecord| {
        trial.check
            || context
                .key
                .is_some_and(|k| k.attention_check(&trial.item).is_some())
    };
    data.answers.extend(super::answers::rows_of_file(
        &file,
        &annotator,
        &|s: &str| rename(s),
        &|at: String| source(at),
        &|t: usize| file.trials.get(t).is_none_or(|x| !x.done || is_check(x)),
    ));
    for (t, trial) in file.trials.iter().enumerate() {
        if !trial.done {
            summary.unfinished_trials += 1;
            continue;
        }
        // A published study does not say which items are checks; its key does.
        let check = trial.check
            || context
                .key
                .is_some_and(|k| k.attention_check(&trial.item).is_some());
        data.trials.push(TrialRow {
            file: name.to_owned(),
            annotator: annotator.clone(),
            item: trial.item.clone(),
            task: trial.task.clone(),
            check,
            passed: study
                .filter(|_| check)
                .and_then(|s| check_passed(s, context.key, trial, &rename)),
            active_ms: trial.active_ms,
            outputs: trial.outputs.len(),
        });
        if check {
            summary.check_trials += 1;
            continue;
        }
        let system = |o: &OutputRecord| rename(&o.system);
        let shown = trial.outputs.len();
        for (o, output) in trial.outputs.iter().enumerate() {
            for (dimension, &score) in &output.ratings {
                data.ratings.push(RatingRow {
                    source: source(format!("trials[{t}].outputs[{o}].ratings.{dimension}")),
                    item: names.get(&trial.item),
                    system: names.get(&system(output)),
                    annotator: annotator_name.clone(),
                    dimension: names.get(dimension),
                    score: f64::from(score),
                    round: None,
                    position: (shown >= 2).then(|| u32::try_from(o + 1).unwrap_or(u32::MAX)),
                });
            }
        }
        let at = format!("trials[{t}].preference");
        let judgements = match preference_pairs(trial.preference.as_ref(), &trial.outputs) {
            Ok(j) => j,
            Err(message) => {
                data.problems.push(problem(Some(at), message));
                continue;
            }
        };
        let shown_systems = || trial.outputs.iter().map(system).collect::<Vec<_>>();
        let choice = match &trial.preference {
            Some(PreferenceRecord::Best { system: best, .. }) if shown >= 3 => {
                Some(ChoiceKind::Best(rename(best)))
            }
            Some(PreferenceRecord::Rank { systems, .. }) => Some(ChoiceKind::Rank(
                systems.iter().map(|s| rename(s)).collect(),
            )),
            _ => None,
        };
        let derived = choice.is_some();
        if let Some(kind) = choice {
            data.choices.push(ChoiceRow {
                source: source(at.clone()),
                item: trial.item.clone(),
                annotator: annotator.clone(),
                shown: shown_systems(),
                kind,
            });
        }
        for (a, b, outcome) in judgements {
            data.preferences.push(PreferenceRow {
                source: source(at.clone()),
                item: names.get(&trial.item),
                system_a: names.get(&system(&trial.outputs[a])),
                system_b: names.get(&system(&trial.outputs[b])),
                annotator: annotator_name.clone(),
                outcome,
                a_first: Some(true),
                derived,
            });
        }
    }
}

/// Whether an attention-check trial's answer is one the study accepts: the rating of the
/// checked system on the checked dimension, or the preferred system (the best, the chosen, or
/// the first of a ranking; a tie is not a choice). `None` when there is no check for the item,
/// or the check is a rating of a system this trial did not show (another trial of the item
/// shows it), or the study leaves its answers to a key that was not given.
///
/// A check of the study names systems as the file does (both sealed, or both not); a check of
/// the key (a study written by `juror publish` serves none) names the original systems, which
/// the file's tokens are renamed to.
fn check_passed(
    study: &Study,
    key: Option<&SealKey>,
    trial: &TrialRecord,
    rename: &Rename<'_>,
) -> Option<bool> {
    let own = |name: &str| name.to_owned();
    let (check, names): (AttentionCheck, &dyn Fn(&str) -> String) = match (
        study
            .design()
            .attention_checks
            .iter()
            .find(|c| c.item() == trial.item),
        key.and_then(|k| k.attention_check(&trial.item)),
    ) {
        (Some(c), _) if c.has_answers() => (c.clone(), &own),
        (_, Some(kept)) => (AttentionCheck::from(kept), rename),
        _ => return None,
    };
    match check {
        AttentionCheck::Rating {
            system,
            dimension,
            accept,
            ..
        } => {
            let accept = accept?;
            let output = trial.outputs.iter().find(|o| names(&o.system) == system)?;
            Some(
                output
                    .ratings
                    .get(&dimension)
                    .is_some_and(|score| accept.contains(score)),
            )
        }
        AttentionCheck::Preference { accept, .. } => {
            let accept = accept?;
            let chosen = match trial.preference.as_ref() {
                Some(
                    PreferenceRecord::Best { system, .. } | PreferenceRecord::Choice { system, .. },
                ) => Some(names(system)),
                Some(PreferenceRecord::Rank { systems, .. }) => systems.first().map(|s| names(s)),
                Some(PreferenceRecord::Tie) | None => None,
            };
            Some(chosen.is_some_and(|c| accept.contains(&c)))
        }
    }
}

type Rename<'k> = Box<dyn Fn(&str) -> String + 'k>;

/// The map from the file's system names to system ids: the key's, after checking that every
/// system of the file is one of its tokens, else the identity.
fn resolver<'k>(
    file: &RatingsFile,
    key: Option<&'k SealKey>,
) -> Result<Rename<'k>, (String, String)> {
    let Some(key) = key else {
        return Ok(Box::new(str::to_owned));
    };
    if key.study != file.study.id {
        return Err((
            "study.id".into(),
            format!(
                "this file is for the study \"{}\", but the key is for \"{}\"; give the key \
                 written by `juror seal` for this study; the file is left out",
                file.study.id, key.study
            ),
        ));
    }
    for (t, trial) in file.trials.iter().enumerate() {
        for (o, output) in trial.outputs.iter().enumerate() {
            if !key.systems.contains_key(&output.system) {
                return Err((
                    format!("trials[{t}].outputs[{o}].system"),
                    format!(
                        "\"{}\" is not a token of the key (its tokens: {}); the file and the \
                         key do not belong together; the file is left out",
                        output.system,
                        list(key.systems.keys())
                    ),
                ));
            }
        }
    }
    Ok(Box::new(move |token: &str| {
        key.systems
            .get(token)
            .cloned()
            .unwrap_or_else(|| token.to_owned())
    }))
}

fn list<'a>(names: impl Iterator<Item = &'a String>) -> String {
    let names: Vec<String> = names.map(|n| format!("\"{n}\"")).collect();
    names.join(", ")
}

/// The pairwise judgements of a trial's preference, as (position of a, position of b,
/// outcome) with positions from 0 and a shown before b:
/// - `choice` of a pair: the chosen output against the other;
/// - `tie`: every pair of outputs shown (with a pair, the pair), tied;
/// - `best`: the best output against each other output shown, which it beats; the others are
///   not compared among themselves;
/// - `rank`: every pair of outputs, the one ranked higher winning.
fn preference_pairs(
    preference: Option<&PreferenceRecord>,
    outputs: &[OutputRecord],
) -> Result<Vec<(usize, usize, Outcome)>, String> {
    let n = outputs.len();
    let winner_at = |position: usize, system: &str| -> Result<usize, String> {
        let index = position.checked_sub(1).filter(|&i| i < n).ok_or_else(|| {
            format!("position {position} is not one of the trial's {n} output(s)")
        })?;
        if outputs[index].system != system {
            return Err(format!(
                "position {position} shows \"{}\", not \"{system}\" as the preference says",
                outputs[index].system
            ));
        }
        Ok(index)
    };
    let beats = |w: usize, other: usize| {
        if w < other {
            (w, other, Outcome::A)
        } else {
            (other, w, Outcome::B)
        }
    };
    let pairs = match preference {
        None => Vec::new(),
        Some(PreferenceRecord::Choice {
            position, system, ..
        }) => {
            let w = winner_at(*position, system)?;
            if n != 2 {
                return Err(format!(
                    "a choice needs a pair of outputs, this trial shows {n}"
                ));
            }
            vec![beats(w, 1 - w)]
        }
        Some(PreferenceRecord::Best {
            position, system, ..
        }) => {
            let w = winner_at(*position, system)?;
            (0..n).filter(|&o| o != w).map(|o| beats(w, o)).collect()
        }
        Some(PreferenceRecord::Tie) => {
            let mut out = Vec::new();
            for a in 0..n {
                for b in a + 1..n {
                    out.push((a, b, Outcome::Tie));
                }
            }
            out
        }
        Some(PreferenceRecord::Rank { systems, .. }) => {
            let rank: Vec<usize> = outputs
                .iter()
                .map(|o| {
                    systems.iter().position(|s| *s == o.system).ok_or_else(|| {
                        format!(
                            "the ranking does not list \"{}\", which was shown",
                            o.system
                        )
                    })
                })
                .collect::<Result<_, _>>()?;
            let mut out = Vec::new();
            for a in 0..n {
                for b in a + 1..n {
                    let outcome = if rank[a] < rank[b] {
                        Outcome::A
                    } else {
                        Outcome::B
                    };
                    out.push((a, b, outcome));
                }
            }
            out
        }
    };
    if let Some(&(a, b, _)) = pairs
        .iter()
        .find(|(a, b, _)| outputs[*a].system == outputs[*b].system)
    {
        return Err(format!(
            "outputs {} and {} are both \"{}\": a system cannot be compared with itself",
            a + 1,
            b + 1,
            outputs[a].system
        ));
    }
    Ok(pairs)
}

// ---------------------------------------------------------------------------------------------
// Tidy CSV
// ---------------------------------------------------------------------------------------------

const LIKERT: [&str; 5] = ["item_id", "system_id", "annotator_id", "dimension", "score"];
const PAIRWISE: [&str; 5] = [
    "item_id",
    "system_a",
    "system_b",
    "annotator_id",
    "preference",
];

/// The columns of the tidy tables that rows are read from, in [`COLUMNS`]' order.
#[derive(Debug, Clone, Copy)]
enum Col {
    Item,
    System,
    Annotator,
    Dimension,
    Score,
    Round,
    Position,
    SystemA,
    SystemB,
    Preference,
    ShownFirst,
    Derived,
    Choice,
    Shown,
    Chosen,
}

const COLUMNS: [&str; 15] = [
    "item_id",
    "system_id",
    "annotator_id",
    "dimension",
    "score",
    "round",
    "position",
    "system_a",
    "system_b",
    "preference",
    "shown_first",
    "derived",
    "choice",
    "shown",
    "chosen",
];

impl Col {
    fn name(self) -> &'static str {
        COLUMNS[self as usize]
    }
}

/// The columns of a header: name → index (first occurrence; names compared after trimming).
fn columns<'h>(header: &[Cow<'h, str>]) -> HashMap<&'h str, usize> {
    let mut map = HashMap::new();
    for (i, name) in header.iter().enumerate() {
        let name: &'h str = match name {
            Cow::Borrowed(b) => b.trim(),
            // A quoted header name with a doubled quote is never one of ours.
            Cow::Owned(_) => continue,
        };
        map.entry(name).or_insert(i);
    }
    map
}

/// One record of a tidy table, read by column.
struct Row<'r, 't> {
    fields: &'r [Cow<'t, str>],
    /// Where each of [`COLUMNS`] is in the record, if the header has it.
    at: &'r [Option<usize>; COLUMNS.len()],
}

impl Row<'_, '_> {
    /// The field, trimmed and without a spreadsheet's formula guard; empty when the table has
    /// no such column.
    fn get(&self, column: Col) -> &str {
        self.at[column as usize].map_or("", |i| csv::undefuse(trim(&self.fields[i])))
    }

    fn required(&self, column: Col) -> Result<&str, String> {
        let value = self.get(column);
        if value.is_empty() {
            Err(format!("{} is empty", column.name()))
        } else {
            Ok(value)
        }
    }
}

/// `text` without surrounding whitespace; a field that starts and ends with a printable ASCII
/// character (nearly every one) is returned as it is, without a scan for Unicode spaces.
fn trim(text: &str) -> &str {
    match text.as_bytes() {
        [first, .., last] if first.is_ascii_graphic() && last.is_ascii_graphic() => text,
        [only] if only.is_ascii_graphic() => text,
        _ => text.trim(),
    }
}

/// The shared names of a table's fields, remembering each column's last few: a table sorted by
/// item, or grouped by annotator, repeats them row after row (a dimension cycles through a few
/// values), and a repeat then costs a comparison or two, not a lookup.
struct ColumnNames<'n> {
    names: &'n mut Names,
    recent: [Recent; COLUMNS.len()],
}

/// A column's last [`RECENT`] names, which one the next new name replaces, and the last one
/// used: the search starts there, so that a repeated name (an item's rows) and the next of a
/// cycle (the dimensions of an output, in order) are found first.
#[derive(Default)]
struct Recent {
    names: Vec<Name>,
    next: usize,
    hit: usize,
}

const RECENT: usize = 8;

impl ColumnNames<'_> {
    fn get(&mut self, column: Col, text: &str) -> Name {
        let recent = &mut self.recent[column as usize];
        let n = recent.names.len();
        for k in 0..n {
            let i = recent.hit + k;
            let i = if i >= n { i - n } else { i };
            if recent.names[i].as_str() == text {
                recent.hit = i;
                return recent.names[i].clone();
            }
        }
        let name = self.names.get(text);
        if n < RECENT {
            recent.hit = n;
            recent.names.push(name.clone());
        } else {
            recent.hit = recent.next;
            recent.names[recent.next] = name.clone();
            recent.next = (recent.next + 1) % RECENT;
        }
        name
    }
}

/// What a table's header says it holds.
struct Header {
    likert: bool,
    pairwise: bool,
    width: usize,
    at: [Option<usize>; COLUMNS.len()],
}

fn read_csv(
    input: &Input<'_>,
    index: usize,
    names: &mut Names,
    data: &mut Data,
    summary: &mut FileSummary,
) {
    let name = input.name.as_str();
    let file = names.get(name);
    // A problem with the text as CSV drops the whole file: what was read before it is taken
    // back out.
    let before = (
        data.ratings.len(),
        data.preferences.len(),
        data.choices.len(),
        data.problems.len(),
    );
    let mut header: Option<Header> = None;
    let mut unreadable: Option<Problem> = None;
    let mut names = ColumnNames {
        names,
        recent: Default::default(),
    };
    let read = csv::for_each_record(&input.text, |line, fields| {
        if unreadable.is_some() {
            return;
        }
        let Some(h) = &header else {
            match read_header(fields) {
                Ok(h) => header = Some(h),
                Err(message) => {
                    unreadable = Some(Problem::new(name, Some(format!("line {line}")), message));
                }
            }
            return;
        };
        if fields.len() != h.width {
            data.problems.push(Problem::new(
                name,
                Some(format!("line {line}")),
                format!(
                    "{} field(s), but the header has {}; quote fields that hold commas",
                    fields.len(),
                    h.width
                ),
            ));
            return;
        }
        let row = Row { fields, at: &h.at };
        let source = Source {
            file: file.clone(),
            at: At::Line(line),
            input: index,
        };
        let is_rating = h.likert && (!h.pairwise || !row.get(Col::Dimension).is_empty());
        let result = if !row.get(Col::Choice).is_empty() {
            choice_row(&row, source).map(|r| data.choices.push(r))
        } else if is_rating {
            likert_row(&row, &mut names, source).map(|r| data.ratings.push(r))
        } else {
            pairwise_row(&row, &mut names, source).map(|r| data.preferences.push(r))
        };
        if let Err(message) = result {
            data.problems
                .push(Problem::new(name, Some(format!("line {line}")), message));
        }
    });
    if let Err(e) = read {
        data.ratings.truncate(before.0);
        data.preferences.truncate(before.1);
        data.choices.truncate(before.2);
        data.problems.truncate(before.3);
        data.problems.push(Problem::new(
            name,
            Some(format!("line {}, column {}", e.line, e.column)),
            format!("{}; nothing is read from this file", e.message),
        ));
        return;
    }
    if let Some(problem) = unreadable {
        data.problems.push(problem);
        return;
    }
    summary.kind = match header {
        None => {
            data.problems.push(Problem::new(
                name,
                None,
                "the file is empty: expected a ratings file or a CSV with a header",
            ));
            return;
        }
        Some(Header {
            likert: true,
            pairwise: true,
            ..
        }) => InputKind::TidyCsv,
        Some(Header { likert: true, .. }) => InputKind::LikertCsv,
        Some(_) => InputKind::PairwiseCsv,
    };
}

/// The header of a tidy table, or why it is not one.
fn read_header(fields: &[Cow<'_, str>]) -> Result<Header, String> {
    let cols = columns(fields);
    let has = |set: &[&str]| set.iter().all(|c| cols.contains_key(c));
    let (likert, pairwise) = (has(&LIKERT), has(&PAIRWISE));
    if !likert && !pairwise {
        return Err(
            if cols.contains_key("question") && cols.contains_key("value") {
                "this is the CSV export of a ratings file (question, value); give the ratings file \
             itself (.json), which carries the checksum"
                    .to_owned()
            } else {
                format!(
                    "the header is neither a Likert table ({}) nor a pairwise table ({}); missing: {}",
                    LIKERT.join(","),
                    PAIRWISE.join(","),
                    nearest_missing(&cols)
                )
            },
        );
    }
    let mut at = [None; COLUMNS.len()];
    for (slot, column) in at.iter_mut().zip(COLUMNS) {
        *slot = cols.get(column).copied();
    }
    Ok(Header {
        likert,
        pairwise,
        width: fields.len(),
        at,
    })
}

/// The columns of the table the header is closest to that it lacks.
fn nearest_missing(cols: &HashMap<&str, usize>) -> String {
    let missing = |set: &[&'static str]| -> Vec<&'static str> {
        set.iter()
            .copied()
            .filter(|c| !cols.contains_key(c))
            .collect()
    };
    let (l, p) = (missing(&LIKERT), missing(&PAIRWISE));
    let closest = if l.len() <= p.len() { l } else { p };
    closest.join(", ")
}

/// A Likert row: item, system, annotator, dimension and score.
fn likert_row(row: &Row, names: &mut ColumnNames, source: Source) -> Result<RatingRow, String> {
    let item = row.required(Col::Item)?;
    let system = row.required(Col::System)?;
    let annotator = row.required(Col::Annotator)?;
    let dimension = row.required(Col::Dimension)?;
    let score = score(row.get(Col::Score))?;
    Ok(RatingRow {
        source,
        item: names.get(Col::Item, item),
        system: names.get(Col::System, system),
        annotator: names.get(Col::Annotator, annotator),
        dimension: names.get(Col::Dimension, dimension),
        score,
        round: optional_number(row.get(Col::Round), Col::Round.name())?,
        position: optional_position(row.get(Col::Position))?,
    })
}

/// An optional number column: empty is `None`.
fn optional_number(text: &str, column: &str) -> Result<Option<f64>, String> {
    if text.is_empty() {
        return Ok(None);
    }
    match text.parse::<f64>() {
        Ok(v) if v.is_finite() => Ok(Some(v + 0.0)),
        _ => Err(format!(
            "{column} \"{text}\" is not a number; leave it empty or give one"
        )),
    }
}

/// An optional `position` column: empty, or a whole number from 1.
fn optional_position(text: &str) -> Result<Option<u32>, String> {
    if text.is_empty() {
        return Ok(None);
    }
    match text.parse::<u32>() {
        Ok(p) if p >= 1 => Ok(Some(p)),
        _ => Err(format!(
            "position \"{text}\" is not a whole number from 1 (the place the output was shown); \
             leave it empty or give one"
        )),
    }
}

/// A score: a finite number.
pub(crate) fn score(text: &str) -> Result<f64, String> {
    if text.is_empty() {
        return Err("score is empty".into());
    }
    match text.parse::<f64>() {
        Ok(v) if v.is_finite() => Ok(v + 0.0),
        _ => Err(format!("score \"{text}\" is not a number")),
    }
}

/// A pairwise row: item, the two systems, annotator and preference.
fn pairwise_row(
    row: &Row,
    names: &mut ColumnNames,
    source: Source,
) -> Result<PreferenceRow, String> {
    let item = row.required(Col::Item)?;
    let system_a = row.required(Col::SystemA)?;
    let system_b = row.required(Col::SystemB)?;
    let annotator = row.required(Col::Annotator)?;
    if system_a == system_b {
        return Err(format!(
            "system_a and system_b are both \"{system_a}\": a system cannot be compared with \
             itself"
        ));
    }
    let outcome = match row.get(Col::Preference).to_ascii_lowercase().as_str() {
        "a" => Outcome::A,
        "b" => Outcome::B,
        "tie" => Outcome::Tie,
        other => {
            return Err(format!("preference \"{other}\" is not a, b or tie"));
        }
    };
    let a_first = match row.get(Col::ShownFirst).to_ascii_lowercase().as_str() {
        "" => None,
        "a" => Some(true),
        "b" => Some(false),
        other => {
            return Err(format!(
                "shown_first \"{other}\" is not a or b (the system shown first); leave it \
                 empty when unknown"
            ));
        }
    };
    Ok(PreferenceRow {
        source,
        item: names.get(Col::Item, item),
        system_a: names.get(Col::SystemA, system_a),
        system_b: names.get(Col::SystemB, system_b),
        annotator: names.get(Col::Annotator, annotator),
        outcome,
        a_first,
        derived: !row.get(Col::Derived).is_empty(),
    })
}

// ---------------------------------------------------------------------------------------------
// Duplicates
// ---------------------------------------------------------------------------------------------

/// For each key, the index of the first earlier key equal to it, or `None` for a first
/// occurrence. `sizes` bounds each part of the keys (ids from [`Ids`]): when their product is
/// small next to the number of keys (ratings cover most item × system × annotator × dimension
/// cells), a flat table replaces the hash map, with no hashing and far fewer cache misses.
fn first_occurrences(keys: &[[u32; 4]], sizes: [usize; 4]) -> Vec<Option<u32>> {
    const NONE: u32 = u32::MAX;
    let cells = sizes
        .iter()
        .try_fold(1usize, |n, &s| n.checked_mul(s.max(1)));
    match cells {
        Some(cells) if cells <= (4 * keys.len()).max(1 << 16) => {
            let [_, s1, s2, s3] = sizes.map(|s| s.max(1));
            let mut first = vec![NONE; cells];
            keys.iter()
                .enumerate()
                .map(|(i, k)| {
                    let cell = ((k[0] as usize * s1 + k[1] as usize) * s2 + k[2] as usize) * s3
                        + k[3] as usize;
                    match first[cell] {
                        NONE => {
                            first[cell] = i as u32;
                            None
                        }
                        f => Some(f),
                    }
                })
                .collect()
        }
        _ => {
            let mut seen: HashMap<[u32; 4], u32, FastHash> =
                HashMap::with_capacity_and_hasher(keys.len(), FastHash);
            keys.iter()
                .enumerate()
                .map(|(i, k)| match seen.entry(*k) {
                    std::collections::hash_map::Entry::Occupied(e) => Some(*e.get()),
                    std::collections::hash_map::Entry::Vacant(e) => {
                        e.insert(i as u32);
                        None
                    }
                })
                .collect()
        }
    }
}

fn drop_duplicates(data: &mut Data) {
    // Ratings and preferences kept, by input.
    let mut kept_in: Vec<(usize, usize)> = vec![(0, 0); data.files.len()];
    let mut count = |input: usize, rating: bool| {
        if let Some(e) = kept_in.get_mut(input) {
            if rating { e.0 += 1 } else { e.1 += 1 }
        }
    };

    let mut repeated: BTreeMap<usize, usize> = BTreeMap::new();
    // A first pass on the ids' numbers finds each row's first occurrence without cloning.
    let firsts = {
        let mut ids: [Ids; 4] = Default::default();
        let keys: Vec<[u32; 4]> = data
            .ratings
            .iter()
            .map(|row| {
                [
                    ids[0].id(&row.item),
                    ids[1].id(&row.system),
                    ids[2].id(&row.annotator),
                    ids[3].id(&row.dimension),
                ]
            })
            .collect();
        first_occurrences(&keys, ids.map(|i| i.len()))
    };
    // Every first occurrence is kept, where it is; a later one is a repeat or a duplicate.
    let mut keep = vec![true; data.ratings.len()];
    for (i, first) in firsts.iter().enumerate() {
        let input = data.ratings[i].source.input;
        let Some(first) = first.map(|f| f as usize) else {
            count(input, true);
            continue;
        };
        keep[i] = false;
        let (kept, row) = (&data.ratings[first], &data.ratings[i]);
        if kept.source.input == input && data.files[input].kind == InputKind::RatingsFile {
            // The same output rated again in another trial of the same session (an output
            // shown in several pairs): by design, not a mistake.
            repeated.entry(input).and_modify(|n| *n += 1).or_insert(1);
            data.repeats.push(row.clone());
            continue;
        }
        data.problems.push(Problem::new(
            &row.source.file,
            Some(row.source.at.to_string()),
            format!(
                "annotator \"{}\" already rated item \"{}\", system \"{}\" on \"{}\" ({} at \
                 {}: {}); this duplicate ({}) is left out",
                row.annotator,
                row.item,
                row.system,
                row.dimension,
                number(kept.score),
                kept.source.file,
                kept.source.at,
                number(row.score)
            ),
        ));
        bump_problems(&mut data.files, input);
    }
    let mut kept = keep.into_iter();
    data.ratings.retain(|_| kept.next().unwrap_or(true));

    let mut seen: HashMap<(Name, Name, Name, Name), usize, FastHash> = HashMap::default();
    let mut preferences = Vec::with_capacity(data.preferences.len());
    for row in std::mem::take(&mut data.preferences) {
        let (x, y) = if row.system_a <= row.system_b {
            (&row.system_a, &row.system_b)
        } else {
            (&row.system_b, &row.system_a)
        };
        let key = (
            row.item.clone(),
            x.clone(),
            y.clone(),
            row.annotator.clone(),
        );
        if let Some(&first) = seen.get(&key) {
            let kept: &PreferenceRow = &preferences[first];
            data.problems.push(Problem::new(
                &row.source.file,
                Some(row.source.at.to_string()),
                format!(
                    "annotator \"{}\" already judged \"{}\" against \"{}\" on item \"{}\" (at \
                     {}: {}); this duplicate is left out",
                    row.annotator, x, y, row.item, kept.source.file, kept.source.at
                ),
            ));
            bump_problems(&mut data.files, row.source.input);
            continue;
        }
        seen.insert(key, preferences.len());
        count(row.source.input, false);
        preferences.push(row);
    }
    data.preferences = preferences;

    for (input, summary) in data.files.iter_mut().enumerate() {
        summary.repeated_ratings = repeated.get(&input).copied().unwrap_or_default();
        let (r, p) = kept_in.get(input).copied().unwrap_or_default();
        summary.ratings = r;
        summary.preferences = p;
    }
}

fn bump_problems(files: &mut [FileSummary], input: usize) {
    if let Some(s) = files.get_mut(input) {
        s.problems += 1;
    }
}

/// The two names in byte order.
pub(crate) fn ordered<'a>(a: &'a str, b: &'a str) -> (&'a str, &'a str) {
    if a <= b { (a, b) } else { (b, a) }
}

/// A number as people write it: `4`, not `4.0`; `3.5`.
pub(crate) fn number(x: f64) -> String {
    if x.fract() == 0.0 && x.abs() < 1e15 {
        format!("{}", x as i64)
    } else {
        format!("{x}")
    }
}

// ---------------------------------------------------------------------------------------------
// Writing the tidy tables
// ---------------------------------------------------------------------------------------------

/// The tidy tables as one CSV that `read` reads back: the Likert columns when there are only
/// ratings, the pairwise columns when there are only preferences, both when there are both;
/// `round`, `position` and `shown_first` when some row has one; then `source_file` and
/// `source_at`, the provenance of each row.
pub fn to_csv(data: &Data) -> String {
    let (r, p) = (!data.ratings.is_empty(), !data.preferences.is_empty());
    let mut header: Vec<&str> = match (r, p) {
        (false, true) => PAIRWISE.to_vec(),
        (true, true) => [&LIKERT[..], &["system_a", "system_b", "preference"]].concat(),
        _ => LIKERT.to_vec(),
    };
    if data.ratings.iter().any(|r| r.round.is_some()) {
        header.push("round");
    }
    if data.ratings.iter().any(|r| r.position.is_some()) {
        header.push("position");
    }
    if data.preferences.iter().any(|r| r.a_first.is_some()) {
        header.push("shown_first");
    }
    if data.preferences.iter().any(|r| r.derived) {
        header.push("derived");
    }
    if !data.choices.is_empty() {
        header.extend(["choice", "shown", "chosen"]);
    }
    header.extend(["source_file", "source_at"]);
    let mut out = csv::line(&header);
    let index = |name: &str| header.iter().position(|h| *h == name);
    for row in &data.ratings {
        let mut fields = vec![String::new(); header.len()];
        for (name, value) in [
            ("item_id", row.item.to_string()),
            ("system_id", row.system.to_string()),
            ("annotator_id", row.annotator.to_string()),
            ("dimension", row.dimension.to_string()),
            ("score", number(row.score)),
            ("round", row.round.map(number).unwrap_or_default()),
            (
                "position",
                row.position.map(|p| p.to_string()).unwrap_or_default(),
            ),
            ("source_file", row.source.file.to_string()),
            ("source_at", row.source.at.to_string()),
        ] {
            if let Some(i) = index(name) {
                fields[i] = value;
            }
        }
        out.push_str(&csv::line(&fields));
    }
    for row in &data.preferences {
        let mut fields = vec![String::new(); header.len()];
        for (name, value) in [
            ("item_id", row.item.to_string()),
            ("system_a", row.system_a.to_string()),
            ("system_b", row.system_b.to_string()),
            ("annotator_id", row.annotator.to_string()),
            ("preference", outcome_name(row.outcome).to_owned()),
            (
                "shown_first",
                match row.a_first {
                    Some(true) => "a".to_owned(),
                    Some(false) => "b".to_owned(),
                    None => String::new(),
                },
            ),
            (
                "derived",
                if row.derived { "choice" } else { "" }.to_owned(),
            ),
            ("source_file", row.source.file.to_string()),
            ("source_at", row.source.at.to_string()),
        ] {
            if let Some(i) = index(name) {
                fields[i] = value;
            }
        }
        out.push_str(&csv::line(&fields));
    }
    for row in &data.choices {
        let mut fields = vec![String::new(); header.len()];
        let (kind, chosen) = match &row.kind {
            ChoiceKind::Best(s) => ("best", s.clone()),
            ChoiceKind::Rank(order) => ("rank", order.join(CHOICE_SEPARATOR)),
        };
        for (name, value) in [
            ("item_id", row.item.to_string()),
            ("annotator_id", row.annotator.to_string()),
            ("choice", kind.to_owned()),
            ("shown", row.shown.join(CHOICE_SEPARATOR)),
            ("chosen", chosen),
            ("source_file", row.source.file.to_string()),
            ("source_at", row.source.at.to_string()),
        ] {
            if let Some(i) = index(name) {
                fields[i] = value;
            }
        }
        out.push_str(&csv::line(&fields));
    }
    out
}

/// Between the systems of a choice row's `shown` and of a ranking's `chosen`.
const CHOICE_SEPARATOR: &str = "|";

/// A choice row of the tidy CSV: `choice` (best or rank), `shown` (the systems shown, in order,
/// separated by `|`) and `chosen` (the best system, or the ranking best first).
fn choice_row(row: &Row, source: Source) -> Result<ChoiceRow, String> {
    let item = row.required(Col::Item)?.to_owned();
    let annotator = row.required(Col::Annotator)?.to_owned();
    let split = |text: &str| -> Vec<String> {
        text.split(CHOICE_SEPARATOR)
            .map(|s| s.trim().to_owned())
            .filter(|s| !s.is_empty())
            .collect()
    };
    let shown = split(row.required(Col::Shown)?);
    let chosen = row.required(Col::Chosen)?.to_owned();
    let kind = match row.get(Col::Choice) {
        "best" if shown.contains(&chosen) => ChoiceKind::Best(chosen),
        "best" => {
            return Err(format!(
                "chosen \"{chosen}\" is not one of the systems shown ({})",
                shown.join(", ")
            ));
        }
        "rank" => {
            let order = split(&chosen);
            let mut a = order.clone();
            let mut b = shown.clone();
            a.sort();
            b.sort();
            if a != b {
                return Err(format!(
                    "the ranking {} does not rank exactly the systems shown ({})",
                    order.join(", "),
                    shown.join(", ")
                ));
            }
            ChoiceKind::Rank(order)
        }
        other => return Err(format!("choice \"{other}\" is not best or rank")),
    };
    Ok(ChoiceRow {
        source,
        item,
        annotator,
        shown,
        kind,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The first earlier index of each key, the slow way.
    fn brute_force(keys: &[[u32; 4]]) -> Vec<Option<u32>> {
        (0..keys.len())
            .map(|i| (0..i).find(|&j| keys[j] == keys[i]).map(|j| j as u32))
            .collect()
    }

    #[test]
    fn first_occurrences_by_table_and_by_hash_agree_with_a_search() {
        // A seeded walk over a small key space: many repeats, every part used.
        let mut state = 7u64;
        let keys: Vec<[u32; 4]> = (0..600)
            .map(|_| {
                state = state
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1);
                let r = state >> 33;
                [
                    (r % 5) as u32,
                    (r / 5 % 3) as u32,
                    (r / 15 % 4) as u32,
                    (r / 60 % 2) as u32,
                ]
            })
            .collect();
        let want = brute_force(&keys);
        assert!(want.iter().any(Option::is_some) && want.iter().any(Option::is_none));
        // 5 × 3 × 4 × 2 cells: the flat table.
        assert_eq!(first_occurrences(&keys, [5, 3, 4, 2]), want);
        // Bounds whose product overflows: the hash map.
        assert_eq!(first_occurrences(&keys, [usize::MAX; 4]), want);
        assert!(first_occurrences(&[], [0; 4]).is_empty());
    }

    #[test]
    fn a_field_is_trimmed_of_any_whitespace_and_left_alone_without() {
        for (field, want) in [
            ("item-1", "item-1"),
            ("x", "x"),
            (" x", "x"),
            ("x\t", "x"),
            ("\u{a0}x\u{2003}", "x"),
            ("", ""),
            ("  ", ""),
        ] {
            assert_eq!(trim(field), want, "{field:?}");
        }
    }

    #[test]
    fn a_column_cycling_through_more_names_than_it_remembers_still_shares_them() {
        let mut names = Names::default();
        let mut column = ColumnNames {
            names: &mut names,
            recent: Default::default(),
        };
        let texts: Vec<String> = (0..RECENT + 3).map(|i| format!("d{i}")).collect();
        let mut seen: Vec<Name> = Vec::new();
        for round in 0..3 {
            for text in &texts {
                let name = column.get(Col::Dimension, text);
                assert_eq!(name, text.as_str());
                if round == 0 {
                    seen.push(name);
                } else if let Some(first) = seen.iter().find(|n| n.as_str() == text) {
                    assert!(
                        std::ptr::eq(first.as_ptr(), name.as_ptr()),
                        "one copy of {text}"
                    );
                }
            }
        }
    }
}
