//! The data every stage of the analysis shares: an input ([`Input`]), the tidy rows read from
//! inputs (ratings, pairwise preferences, choices, answers, trials), where each row came from
//! ([`Source`], [`At`]), what was wrong with an input ([`Problem`]), everything read
//! ([`Data`]), and the few small pieces the topics and the report both use (intervals and
//! shares, how numbers are written, which way a pair is oriented).
//!
//! This is the bottom of `analysis/`: it imports nothing of the other stages, so the readers
//! ([`super::read`]), the topics, the report and the renderers can all import it, one way.

use std::borrow::Cow;
use std::fmt;

use serde::Serialize;

pub use super::name::{Ids, Name, Names};
use super::overrides::AnalysisPlan;
use crate::stats::agreement::Ratings;
use crate::stats::describe::Interval;
use crate::stats::preference::Outcome;
use crate::study::Severity;
use crate::study::ask::PairOutcome;
pub use crate::study::ask::{CHOICE_SEPARATOR, Chosen};

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
    /// The repeat this rating is of, from 1, when the same rater (a judge) rated the same output
    /// more than once (an optional `run` column or field); repeats are kept apart, never
    /// duplicates of each other.
    #[serde(skip)]
    pub run: Option<u32>,
    /// How sure the rater (a judge) said it was, from 0 to 1 (an optional `confidence` column or
    /// field).
    #[serde(skip)]
    pub confidence: Option<f64>,
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
    /// The repeat this judgement is of, from 1 (see [`RatingRow::run`]).
    pub run: Option<u32>,
    /// How sure the rater (a judge) said it was, from 0 to 1.
    pub confidence: Option<f64>,
    /// A graded preference's grade, from `system_a`'s side: −k (`a3`) `system_a` much better,
    /// 0 the same, +k (`b3`) `system_b` much better; `None` for a plain choice (a `tie` of a
    /// tidy file is `None` too, and counts as 0 in a pair that has graded rows).
    pub grade: Option<i32>,
}

/// One "Cannot judge": an annotator who said they cannot answer a question about an item's
/// output (a dimension, a question) or pair (the preference). Kept apart from every score and
/// preference, so it enters no mean, test, agreement or win rate; the report counts it.
#[derive(Debug, Clone, PartialEq)]
pub struct SkipRow {
    pub source: Source,
    pub item: Name,
    pub annotator: Name,
    /// `preference`, or the dimension's or question's id.
    pub question: Name,
    /// The system of the output, or the pair's two systems (a, b).
    pub systems: Vec<Name>,
}

/// One error an annotator marked in an output, or the mark that they found none.
///
/// An output of a task that asks for error spans gives, for each annotator who saw it, one row
/// per error; or, when the annotator found no errors, one row with no `start`, `end` and
/// `severity`: "no errors" is a row, "not seen" is the absence of rows.
#[derive(Debug, Clone, PartialEq)]
pub struct SpanRow {
    pub source: Source,
    pub item: Name,
    pub system: Name,
    pub annotator: Name,
    /// The first character (Unicode code points of the output's text, from 0); `None` for an
    /// error of the whole output, and for "no errors".
    pub start: Option<u32>,
    /// One past the last character; `None` with `start`.
    pub end: Option<u32>,
    /// The error's severity; `None` for "no errors".
    pub severity: Option<Severity>,
    /// The error's category, when the study asks for one.
    pub category: Option<String>,
    /// The output's length in code points.
    pub length: u32,
}

impl SpanRow {
    /// The span of text, for an error of part of the output.
    pub fn range(&self) -> Option<(u32, u32)> {
        self.start.zip(self.end)
    }
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

/// The outcome a grade collapses to: a negative grade `a`, a positive `b`, 0 a tie.
pub fn outcome_of_grade(grade: i32) -> Outcome {
    outcome(PairOutcome::of_grade(grade))
}

/// A pair's outcome as the statistics take it (`a` the output shown first).
pub fn outcome(o: PairOutcome) -> Outcome {
    match o {
        PairOutcome::First => Outcome::A,
        PairOutcome::Second => Outcome::B,
        PairOutcome::Tie => Outcome::Tie,
    }
}

/// The preference column of a tidy row: the grade's name (`a2`) for a graded row, else the
/// outcome's.
pub fn preference_name(row: &PreferenceRow) -> String {
    match row.grade {
        Some(g) => crate::session::grade_name(g),
        None => outcome_name(row.outcome).to_owned(),
    }
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
    /// A tidy CSV with two or more kinds of rows (as `juror analyze --format csv` writes).
    TidyCsv,
    /// A tidy CSV of error spans.
    SpansCsv,
    /// JSON Lines of verdicts, one object per line (an automatic judge's).
    JsonLines,
    /// A ratings file of an annotator who has a later one (a backup sent during the session,
    /// or an earlier session): not read; `superseded_by` names the file read instead.
    SupersededBackup,
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
    /// Error-span rows kept (errors marked, and outputs found without errors).
    #[serde(skip_serializing_if = "is_zero")]
    pub spans: usize,
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
    /// A superseded ratings file: the annotator's file that was read instead (complete, and
    /// the latest exported).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub superseded_by: Option<String>,
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

impl FileSummary {
    /// The summary of an input before it is read: its name, nothing taken yet.
    pub fn new(file: String) -> FileSummary {
        FileSummary {
            file,
            kind: InputKind::Unread,
            ratings: 0,
            preferences: 0,
            spans: 0,
            problems: 0,
            annotator: None,
            platform: None,
            superseded_by: None,
            unfinished_trials: 0,
            check_trials: 0,
            repeated_ratings: 0,
        }
    }
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
    pub choices: Vec<ChoiceRow>,
    /// Every other answer of the ratings files: output questions, flags, notes and reasons,
    /// surveys (`answers.csv`).
    pub answers: Vec<AnswerRow>,
    /// The error spans marked in outputs, and the outputs marked as without errors.
    pub spans: Vec<SpanRow>,
    /// The "Cannot judge" answers.
    pub skips: Vec<SkipRow>,
    /// The finished trials of the ratings files, attention checks included (CSV inputs have
    /// none).
    pub trials: Vec<TrialRow>,
    /// Later ratings of a cell (item, system, dimension) an annotator had already rated in an
    /// earlier trial of the same ratings file; `ratings` holds the first. Used only by the
    /// diagnostics (position, consistency).
    pub repeats: Vec<RatingRow>,
    pub files: Vec<FileSummary>,
    pub problems: Vec<Problem>,
    /// How platform participants' ids are shown ([`crate::base::pseudonym::KEYED`], `UNKEYED` or
    /// `SHOWN`), when a ratings file came from a platform.
    pub platform_ids: Option<&'static str>,
}

/// One choice among three or more outputs, or one ranking, from a ratings file.
#[derive(Debug, Clone, PartialEq)]
pub struct ChoiceRow {
    pub source: Source,
    pub item: String,
    pub annotator: String,
    /// The systems shown, in the order shown.
    pub shown: Vec<String>,
    pub kind: Chosen,
}

/// Where an answer was given.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    Intake,
    /// About one output (a per-output question, or the flag).
    Output,
    /// About a trial (notes, the preference's reason).
    Trial,
    Exit,
}

impl Phase {
    pub fn name(self) -> &'static str {
        match self {
            Phase::Intake => "intake",
            Phase::Output => "output",
            Phase::Trial => "trial",
            Phase::Exit => "exit",
        }
    }
}

/// One answer (or one option of a multiple choice, or one place of a ranking).
#[derive(Debug, Clone, PartialEq)]
pub struct AnswerRow {
    pub source: Source,
    pub annotator: String,
    pub phase: Phase,
    /// The question's id; `flag`, `notes` and `explanation` for those.
    pub question: String,
    pub item: Option<String>,
    pub system: Option<String>,
    /// The option, the number, the text, or `1`/`0` for a flag; empty for a ranking of systems
    /// (the system is in `system`).
    pub value: String,
    /// The place in a ranking, from 1.
    pub rank: Option<usize>,
}

/// The confidence level of every interval in the report.
pub const LEVEL: f64 = 0.95;

/// A two-sided interval.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, schemars::JsonSchema)]
pub struct Ci {
    pub low: f64,
    pub high: f64,
}

/// `k` of `n` as a share and its 95% Wilson interval; both `None` when `n` is 0. Every share
/// of the report (choices, answers, flags) is this one.
pub(crate) fn share_of(k: u64, n: u64) -> (Option<f64>, Option<Ci>) {
    (
        (n > 0).then(|| k as f64 / n as f64),
        crate::stats::preference::wilson(k, n, LEVEL)
            .ok()
            .map(Ci::from),
    )
}

impl From<Interval> for Ci {
    fn from(i: Interval) -> Ci {
        Ci {
            low: i.low,
            high: i.high,
        }
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

/// A `shown_first` value: `a` or `b` (either case), or empty for unknown; `absent` says how an
/// unknown order is given in the input ("leave it out", "leave it empty").
pub(crate) fn shown_first(text: &str, absent: &str) -> Result<Option<bool>, String> {
    match text.to_ascii_lowercase().as_str() {
        "" => Ok(None),
        "a" => Ok(Some(true)),
        "b" => Ok(Some(false)),
        other => Err(format!(
            "shown_first \"{other}\" is not a or b (the system shown first); {absent} when \
             unknown"
        )),
    }
}

/// The two names in byte order.
pub(crate) fn ordered<'a>(a: &'a str, b: &'a str) -> (&'a str, &'a str) {
    if a <= b { (a, b) } else { (b, a) }
}

/// A number as people write it: `4`, not `4.0`; `3.5`.
pub fn number(x: f64) -> String {
    if x.fract() == 0.0 && x.abs() < 1e15 {
        format!("{}", x as i64)
    } else {
        format!("{x}")
    }
}

/// (a, b), or (b, a) when the plan has a hypothesis about b against a and none the other way.
pub(crate) fn oriented(
    plan: &AnalysisPlan,
    dimension: &str,
    a: String,
    b: String,
) -> (String, String) {
    match (
        plan.hypothesis(dimension, &a, &b),
        plan.hypothesis(dimension, &b, &a),
    ) {
        (None, Some(_)) => (b, a),
        _ => (a, b),
    }
}

pub(crate) fn pairable_units(ratings: &Ratings) -> usize {
    (0..ratings.units().len())
        .filter(|&u| {
            (0..ratings.raters().len())
                .filter(|&r| ratings.get(u, r).is_some())
                .count()
                >= 2
        })
        .count()
}
