//! The ratings file, `juror.ratings/1`: what an annotator sends back, and also their backup.
//!
//! # Checksum
//! `sha256` is the SHA-256 (lowercase hex) of the file's JSON with the `sha256` member removed,
//! written compactly with object keys sorted and no insignificant whitespace (what
//! `serde_json::to_string` of a `serde_json::Value` gives; in Python,
//! `json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False)` for files whose
//! numbers are integers). Any edit or truncation changes it.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::answers::{
    Answer, CANNOT_JUDGE, ErrorSpan, OutputAnswers, Preference, TrialAnswers, grade_name,
};
use super::time::{iso8601, parse_iso8601};
use super::{Phase, Progress, Session};
use crate::base::digest::sha256_hex;
use crate::base::number::Num;
use crate::plan::view::shown_text;
use crate::plan::{Annotator, Format, Plan, Planner, PlatformVisit, Trial};
use crate::study::Study;
pub use crate::study::ask::{Picked, PreferenceRecord};

/// The `format` of ratings files.
pub const RATINGS_FORMAT_V1: &str = "juror.ratings/1";

/// A whole ratings file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(
    title = "Juror ratings",
    description = "A Juror ratings file, format juror.ratings/1."
)]
pub struct RatingsFile {
    /// Always `"juror.ratings/1"`.
    pub format: String,
    /// The Juror version that wrote the file.
    pub app_version: String,
    /// The study rated.
    pub study: StudyRef,
    /// Who rated.
    pub annotator: AnnotatorRef,
    /// The plan's inputs.
    pub plan: PlanRef,
    /// Where the annotator was when the file was written.
    pub phase: Phase,
    /// Whether every trial and survey was finished.
    pub complete: bool,
    /// Written by the researcher's own run-through (`&preview`), never by an annotator: the
    /// analysis refuses such a file. Absent (false) in every annotator's file.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub preview: bool,
    /// Index of the trial shown when the file was written (for restoring).
    pub current_trial: usize,
    /// When consent was given (RFC 3339), if the study asks for it.
    pub consent_given_at: Option<String>,
    /// When the annotator started.
    pub started_at: Option<String>,
    /// When the annotator finished.
    pub finished_at: Option<String>,
    /// When this file was written.
    pub exported_at: String,
    /// Intake survey answers by question id.
    pub intake: BTreeMap<String, Answer>,
    /// Exit survey answers by question id.
    pub exit: BTreeMap<String, Answer>,
    /// One record per trial of the plan, in plan order.
    pub trials: Vec<TrialRecord>,
    /// SHA-256 of the rest of the file (see the module documentation).
    pub sha256: String,
}

/// The study a file belongs to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StudyRef {
    /// The study's id.
    pub id: String,
    /// SHA-256 (hex) of the study file as loaded.
    pub sha256: String,
}

/// The annotator.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AnnotatorRef {
    /// The slot, from 1.
    pub slot: u32,
    /// The id from the link, if any.
    pub id: Option<String>,
    /// The recruitment platform the link came from (Prolific, MTurk, SONA) and its other
    /// parameters (`STUDY_ID`, `SESSION_ID`; `assignmentId`, `hitId`), for payment. Absent
    /// for a link without a platform's id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub platform: Option<PlatformVisit>,
}

/// What the plan was computed from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PlanRef {
    /// The plan algorithm's version.
    pub version: String,
    /// The study's seed.
    pub seed: u64,
}

/// One trial.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TrialRecord {
    /// 1-based trial number.
    pub trial: usize,
    /// Task id.
    pub task: String,
    /// Item id.
    pub item: String,
    /// Whether the item is an attention check.
    pub check: bool,
    /// Whether the annotator finished the trial.
    pub done: bool,
    /// The outputs shown, in position order, with their answers.
    pub outputs: Vec<OutputRecord>,
    /// The preference, if any.
    pub preference: Option<PreferenceRecord>,
    /// The reason for the preference.
    pub explanation: String,
    /// Notes.
    pub notes: String,
    /// Active time on the trial, milliseconds.
    pub active_ms: u64,
    /// When first shown.
    pub first_shown: Option<String>,
    /// When last changed.
    pub last_changed: Option<String>,
}

/// One shown output.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct OutputRecord {
    /// 1-based position on screen.
    pub position: usize,
    /// The blinded label shown.
    pub label: String,
    /// The system (or sealed token) that wrote it.
    pub system: String,
    /// Scores by dimension id.
    pub ratings: BTreeMap<String, i32>,
    /// The dimensions answered "Cannot judge" (a dimension with `allow_skip`): no score, and
    /// never missing. Absent when there are none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cannot_judge: Vec<String>,
    /// Answers by per-output question id (`"cannot_judge"` for "Cannot judge").
    pub answers: BTreeMap<String, Answer>,
    /// Whether the annotator flagged it.
    pub flagged: bool,
    /// The errors marked in it (offsets in Unicode code points of the output's text), when
    /// the task asks for error spans.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub spans: Vec<ErrorSpan>,
    /// Whether the annotator said it has no errors (and marked none).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub no_errors: bool,
    /// The output's length in Unicode code points, when the task asks for error spans: what
    /// the analysis's span agreement counts characters over.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub length: Option<u32>,
}

/// The label of `grade` on the graded preference of `trial`'s task, as shown.
fn grade_label(study: &Study, trial: &Trial, grade: i32) -> String {
    let grades = study.design().tasks[trial.task]
        .preference
        .as_ref()
        .map_or(&[][..], |p| &p.grades[..]);
    let middle = grades.len() / 2;
    middle
        .checked_add_signed(grade as isize)
        .and_then(|i| grades.get(i))
        .cloned()
        .unwrap_or_else(|| grade_name(grade))
}

/// How the CSV copy of a ratings file ([`RatingsFile::to_csv`]) starts.
const CSV_HEADER_START: &str = "study_id,annotator_slot,";

/// Why the CSV copy of a ratings file is not read as one, and what to give instead.
pub const CSV_COPY: &str = "this is the CSV copy of a ratings file (question, value columns), \
    which carries no checksum and is not read as one; give the ratings file itself (.json: \
    \"Download ratings (JSON)\" on the annotator's finish page, or their backup)";

/// Version of the plan algorithm written into files.
pub const PLAN_VERSION: &str = "juror.plan/1";

/// The ratings file of a session.
pub fn export(
    study: &Study,
    study_sha256: &str,
    session: &Session,
    app_version: &str,
    now: f64,
) -> RatingsFile {
    let systems = study.systems();
    let p = &session.progress;
    let trials = session
        .plan
        .trials
        .iter()
        .zip(&p.trials)
        .enumerate()
        .map(|(i, (trial, given))| {
            let shown = |pos: usize| &trial.shown[pos.min(trial.shown.len() - 1)];
            TrialRecord {
                trial: i + 1,
                task: study.design().tasks[trial.task].id.clone(),
                item: study.items()[trial.item].id.clone(),
                check: trial.check,
                done: given.done,
                outputs: trial
                    .shown
                    .iter()
                    .zip(&given.outputs)
                    .enumerate()
                    .map(|(pos, (s, a))| OutputRecord {
                        position: pos + 1,
                        label: s.label.clone(),
                        system: systems[s.system].clone(),
                        ratings: a.ratings.clone(),
                        cannot_judge: a
                            .cannot_judge
                            .iter()
                            .filter(|d| !a.ratings.contains_key(*d))
                            .cloned()
                            .collect(),
                        answers: a.answers.clone(),
                        flagged: a.flagged,
                        spans: a.spans.clone(),
                        no_errors: a.no_errors && a.spans.is_empty(),
                        length: study.design().tasks[trial.task].spans.as_ref().map(|_| {
                            let n = shown_text(study, trial, pos).chars().count();
                            u32::try_from(n).unwrap_or(u32::MAX)
                        }),
                    })
                    .collect(),
                preference: given.preference.as_ref().map(|pref| {
                    PreferenceRecord::of(
                        pref,
                        |p| (shown(p).label.clone(), systems[shown(p).system].clone()),
                        |grade| grade_label(study, trial, grade),
                    )
                }),
                explanation: given.explanation.clone(),
                notes: given.notes.clone(),
                active_ms: given.active_ms,
                first_shown: given.first_shown.map(iso8601),
                last_changed: given.last_changed.map(iso8601),
            }
        })
        .collect();
    let mut file = RatingsFile {
        format: RATINGS_FORMAT_V1.to_owned(),
        app_version: app_version.to_owned(),
        study: StudyRef {
            id: study.id().to_owned(),
            sha256: study_sha256.to_owned(),
        },
        annotator: AnnotatorRef {
            slot: p.annotator.slot,
            id: p.annotator.id.clone(),
            platform: p.annotator.platform.clone(),
        },
        plan: PlanRef {
            version: PLAN_VERSION.to_owned(),
            seed: study.seed(),
        },
        phase: p.phase,
        complete: p.phase == Phase::Done,
        preview: false,
        current_trial: p.current,
        consent_given_at: p.consent_at.map(iso8601),
        started_at: p.started_at.map(iso8601),
        finished_at: p.finished_at.map(iso8601),
        exported_at: iso8601(now),
        intake: p.intake.clone(),
        exit: p.exit.clone(),
        trials,
        sha256: String::new(),
    };
    file.sha256 = checksum_of(&file);
    file
}

fn checksum_of(file: &RatingsFile) -> String {
    // Through the file's own text, not `serde_json::to_value`: the same `Value` (numbers are
    // written to round-trip), without a second serializer of every ratings type in the
    // annotator's wasm (its size budget, `scripts/check-size`).
    let mut value: Value = serde_json::from_str(&file.to_json()).unwrap_or(Value::Null);
    checksum_value(&mut value)
}

/// The checksum of a file's JSON: removes `sha256` and hashes the compact, key-sorted rest.
fn checksum_value(value: &mut Value) -> String {
    if let Some(o) = value.as_object_mut() {
        o.remove("sha256");
    }
    sha256_hex(&serde_json::to_string(value).unwrap_or_default())
}

/// A name as the app writes it into a file name: characters other than ASCII letters, digits,
/// `-` and `_` as `-`.
pub fn file_name_part(s: &str) -> String {
    s.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '-'
            }
        })
        .collect()
}

impl RatingsFile {
    /// The same file marked as written by the researcher's preview (`"preview": true`), with
    /// its checksum made over the mark.
    pub fn into_preview(mut self) -> RatingsFile {
        self.preview = true;
        self.sha256 = checksum_of(&self);
        self
    }

    /// The file as pretty JSON with a final newline.
    pub fn to_json(&self) -> String {
        let mut text = serde_json::to_string_pretty(self).unwrap_or_default();
        text.push('\n');
        text
    }

    /// A file name such as `juror-finance-slot3-2026-11-22.json`.
    pub fn file_name(&self, extension: &str) -> String {
        let who = match &self.annotator.id {
            Some(id) => id.clone(),
            None => format!("slot{}", self.annotator.slot),
        };
        let safe = file_name_part;
        let day = self.exported_at.get(..10).unwrap_or("undated");
        format!(
            "juror-{}-{}-{day}.{extension}",
            safe(&self.study.id),
            safe(&who)
        )
    }

    /// Tidy CSV: one row per answer.
    pub fn to_csv(&self) -> String {
        let out = format!(
            "{CSV_HEADER_START}annotator_id,trial,task,item_id,check,system_id,position,label,question,value\n",
        );
        let who_id = self.annotator.id.clone().unwrap_or_default();
        let mut csv = Csv {
            file: self,
            who_id,
            out,
        };
        for t in &self.trials {
            csv.outputs(t);
            csv.preference(t);
            if !t.explanation.is_empty() {
                csv.row(
                    t,
                    "",
                    String::new(),
                    "",
                    "explanation",
                    t.explanation.clone(),
                );
            }
            if !t.notes.is_empty() {
                csv.row(t, "", String::new(), "", "notes", t.notes.clone());
            }
        }
        csv.out
    }
}

/// The tidy CSV being written ([`RatingsFile::to_csv`]), row by row.
struct Csv<'a> {
    /// The ratings file.
    file: &'a RatingsFile,
    /// The annotator's id, or nothing.
    who_id: String,
    /// The CSV so far.
    out: String,
}

impl Csv<'_> {
    /// Writes one row: an answer given in trial `t`.
    fn row(
        &mut self,
        t: &TrialRecord,
        system: &str,
        position: String,
        label: &str,
        question: &str,
        value: String,
    ) {
        let fields = [
            self.file.study.id.clone(),
            self.file.annotator.slot.to_string(),
            self.who_id.clone(),
            t.trial.to_string(),
            t.task.clone(),
            t.item.clone(),
            t.check.to_string(),
            system.to_owned(),
            position,
            label.to_owned(),
            question.to_owned(),
            value,
        ];
        let line: Vec<String> = fields.iter().map(|f| crate::base::csv::field(f)).collect();
        self.out.push_str(&line.join(","));
        self.out.push('\n');
    }

    /// The rows of trial `t`'s outputs: scores, "Cannot judge", answers and flags.
    fn outputs(&mut self, t: &TrialRecord) {
        for o in &t.outputs {
            for (dim, v) in &o.ratings {
                self.row(
                    t,
                    &o.system,
                    o.position.to_string(),
                    &o.label,
                    dim,
                    v.to_string(),
                );
            }
            for dim in &o.cannot_judge {
                self.row(
                    t,
                    &o.system,
                    o.position.to_string(),
                    &o.label,
                    dim,
                    CANNOT_JUDGE.into(),
                );
            }
            for (q, a) in &o.answers {
                self.row(
                    t,
                    &o.system,
                    o.position.to_string(),
                    &o.label,
                    q,
                    answer_text(a),
                );
            }
            if o.flagged {
                self.row(
                    t,
                    &o.system,
                    o.position.to_string(),
                    &o.label,
                    "flagged",
                    "true".into(),
                );
            }
        }
    }

    /// The rows of trial `t`'s preference.
    fn preference(&mut self, t: &TrialRecord) {
        for row in t.preference.iter().flat_map(PreferenceRecord::rows) {
            self.row(
                t,
                row.system,
                row.position,
                row.label,
                row.column,
                row.value,
            );
        }
    }
}

fn answer_text(a: &Answer) -> String {
    match a {
        Answer::Scale(v) => v.to_string(),
        Answer::Choice(c) | Answer::Text(c) => c.clone(),
        Answer::Choices(cs) | Answer::Rank(cs) => cs.join("; "),
        Answer::Number(x) => Num(*x).to_string(),
        Answer::CannotJudge => CANNOT_JUDGE.to_owned(),
    }
}

/// Why a ratings file was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImportError {
    /// Where (a JSON path, a line and column, or "sha256").
    pub at: String,
    /// What is wrong and what to do.
    pub message: String,
}

impl std::fmt::Display for ImportError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.at, self.message)
    }
}

/// The largest ratings file read: a 10,000-trial session with long notes is a few MB, so a file
/// past this is not one, and is refused before any work (bounded time and memory).
pub const MAX_RATINGS_BYTES: usize = 64 * 1024 * 1024;

/// Reads and checks a ratings file: JSON, format, shape and checksum.
///
/// # Errors
/// The first problem, with where it is.
pub fn parse(text: &str) -> Result<RatingsFile, ImportError> {
    if text.len() > MAX_RATINGS_BYTES {
        return Err(ImportError {
            at: "(whole file)".into(),
            message: format!(
                "the file is {} MB, more than a ratings file can be ({} MB); check that it is the \
                 file the annotator downloaded",
                text.len() / (1024 * 1024),
                MAX_RATINGS_BYTES / (1024 * 1024)
            ),
        });
    }
    if text
        .trim_start_matches('\u{feff}')
        .starts_with(CSV_HEADER_START)
    {
        return Err(ImportError {
            at: "line 1".into(),
            message: CSV_COPY.to_owned(),
        });
    }
    let mut value: Value = serde_json::from_str(text).map_err(|e| ImportError {
        at: format!("line {}, column {}", e.line(), e.column()),
        message: format!("not valid JSON ({e}); the file may be cut short or edited"),
    })?;
    match value.get("format").and_then(Value::as_str) {
        Some(RATINGS_FORMAT_V1) => {}
        Some(other) => {
            return Err(ImportError {
                at: "format".into(),
                message: format!(
                    "\"{other}\" is not a ratings format this Juror reads ({RATINGS_FORMAT_V1})"
                ),
            });
        }
        None => {
            return Err(ImportError {
                at: "format".into(),
                message: "not a Juror ratings file (no \"format\": \"juror.ratings/1\")".into(),
            });
        }
    }
    let stated = value
        .get("sha256")
        .and_then(Value::as_str)
        .map(str::to_owned);
    let file: RatingsFile = crate::base::json_path::read(&value).map_err(|e| ImportError {
        at: e.path,
        message: e.message,
    })?;
    let actual = checksum_value(&mut value);
    if stated.as_deref() != Some(actual.as_str()) {
        return Err(ImportError {
            at: "sha256".into(),
            message: "the checksum does not match: the file was changed or damaged after it was written. Ask the annotator for the file as downloaded".into(),
        });
    }
    // The page marks a file complete only once every trial is finished (the session leaves the
    // trials only then): a file that says otherwise was edited, and would be paid or analysed
    // as complete.
    if file.complete
        && let Some(t) = file.trials.iter().position(|t| !t.done)
    {
        return Err(ImportError {
            at: format!("trials[{t}].done"),
            message: format!(
                "the file says it is complete, but trial {} of {} is not finished (and {} in all): \
                 the page never writes such a file, so it was edited. Ask the annotator for the \
                 file as downloaded",
                t + 1,
                file.trials.len(),
                file.trials.iter().filter(|t| !t.done).count()
            ),
        });
    }
    Ok(file)
}

/// Progress restored from a ratings file, for `study` (whose text hashes to `study_sha256`).
///
/// # Errors
/// When the file belongs to another study or another version of it, or does not fit the plan.
pub fn restore(
    study: &Study,
    study_sha256: &str,
    file: &RatingsFile,
) -> Result<Progress, ImportError> {
    restore_on_plan(study, study_sha256, file).map(|(progress, _)| progress)
}

/// Progress restored from a ratings file, with the plan it follows: of the plans the annotator
/// has in each plan format, the newest whose trials show the file's items and systems in the
/// file's order (a file saved under an older format continues on its plan).
///
/// # Errors
/// As [`restore`]; a file that fits no format's plan is checked against the current one.
pub fn restore_on_plan(
    study: &Study,
    study_sha256: &str,
    file: &RatingsFile,
) -> Result<(Progress, Plan), ImportError> {
    let slot = check_study(study, study_sha256, file)?;
    let annotator = Annotator {
        slot,
        id: file.annotator.id.clone(),
        platform: file.annotator.platform.clone(),
    };
    let systems = study.systems();
    let shows = |record: &TrialRecord, trial: &Trial| {
        record.item == study.items()[trial.item].id
            && record.outputs.len() == trial.shown.len()
            && record
                .outputs
                .iter()
                .zip(&trial.shown)
                .all(|(o, s)| o.system == systems[s.system])
    };
    let planner = Planner::new(study);
    let mut plans = Format::ALL.map(|format| planner.plan_as(&annotator, format));
    let follows = plans
        .iter()
        .position(|p| {
            p.trials.len() == file.trials.len()
                && file.trials.iter().zip(&p.trials).all(|(r, t)| shows(r, t))
        })
        .unwrap_or(0);
    let plan = std::mem::take(&mut plans[follows].trials);
    let plan = Plan {
        annotator: annotator.clone(),
        trials: plan,
    };
    if plan.trials.len() != file.trials.len() {
        return Err(ImportError {
            at: "trials".into(),
            message: format!(
                "{} trials, but the plan for this annotator has {}",
                file.trials.len(),
                plan.trials.len()
            ),
        });
    }
    let mut trials = Vec::with_capacity(file.trials.len());
    for (i, (record, trial)) in file.trials.iter().zip(&plan.trials).enumerate() {
        if !shows(record, trial) {
            return Err(ImportError {
                at: format!("trials[{i}]"),
                message: "does not match the plan of this study for this annotator".into(),
            });
        }
        let preference = restore_preference(systems, i, record, trial)?;
        trials.push(TrialAnswers {
            outputs: record
                .outputs
                .iter()
                .map(|o| OutputAnswers {
                    ratings: o.ratings.clone(),
                    cannot_judge: o.cannot_judge.clone(),
                    answers: o.answers.clone(),
                    flagged: o.flagged,
                    spans: o.spans.clone(),
                    no_errors: o.no_errors,
                })
                .collect(),
            preference,
            explanation: record.explanation.clone(),
            notes: record.notes.clone(),
            active_ms: record.active_ms,
            first_shown: record.first_shown.as_deref().and_then(parse_iso8601),
            last_changed: record.last_changed.as_deref().and_then(parse_iso8601),
            done: record.done,
            stamps: BTreeMap::new(),
        });
    }
    let progress = Progress {
        annotator,
        phase: match file.phase {
            Phase::Welcome | Phase::Consent | Phase::Declined => Phase::Instructions,
            other => other,
        },
        current: file.current_trial.min(trials.len().saturating_sub(1)),
        consent_at: file.consent_given_at.as_deref().and_then(parse_iso8601),
        intake: file.intake.clone(),
        exit: file.exit.clone(),
        trials,
        started_at: file.started_at.as_deref().and_then(parse_iso8601),
        finished_at: file.finished_at.as_deref().and_then(parse_iso8601),
        clock: 0,
        stamps: BTreeMap::new(),
        // Saved elsewhere: in this browser, the finish page asks for it again.
        file_saved: None,
    };
    Ok((progress, plan))
}

/// Checks that `file` is for `study`, in the version whose text hashes to `study_sha256`, and for
/// one of its slots; returns the slot.
fn check_study(study: &Study, study_sha256: &str, file: &RatingsFile) -> Result<u32, ImportError> {
    if file.study.id != study.id() {
        return Err(ImportError {
            at: "study.id".into(),
            message: format!(
                "this file is for the study \"{}\", not \"{}\"",
                file.study.id,
                study.id()
            ),
        });
    }
    if file.study.sha256 != study_sha256 {
        return Err(ImportError {
            at: "study.sha256".into(),
            message:
                "this file was made with a different version of the study file; ask the researcher"
                    .into(),
        });
    }
    // Checked before any planning: a forged slot of 4 billion would otherwise cost minutes.
    let slot = file.annotator.slot;
    let out_of_range = slot == 0 || crate::plan::slots(study).is_some_and(|n| slot > n);
    if out_of_range {
        return Err(ImportError {
            at: "annotator.slot".into(),
            message: match crate::plan::slots(study) {
                Some(n) => format!("slot {slot}, but the study has slots 1 to {n}"),
                None => format!("slot {slot}: slots start at 1"),
            },
        });
    }
    Ok(slot)
}

/// The preference of the file's trial `i` (`record`), on the positions of the plan's `trial`.
fn restore_preference(
    systems: &[String],
    i: usize,
    record: &TrialRecord,
    trial: &Trial,
) -> Result<Option<Preference>, ImportError> {
    let position_of = |system: &str| trial.shown.iter().position(|s| systems[s.system] == system);
    let bad = |what: &str| ImportError {
        at: format!("trials[{i}].preference"),
        message: format!("{what}; the file does not fit this study"),
    };
    record
        .preference
        .as_ref()
        .map(|p| p.on_trial(trial.shown.len(), position_of))
        .transpose()
        .map_err(bad)
}

/// The JSON Schema of `juror.ratings/1`, as committed at `assets/schema/ratings.v1.json`.
pub fn schema() -> String {
    let mut schema = schemars::schema_for!(RatingsFile);
    schema.insert(
        "$id".to_owned(),
        Value::String("https://juror.invalid/schema/ratings.v1.json".to_owned()),
    );
    let mut text = serde_json::to_string_pretty(&schema).unwrap_or_default();
    text.push('\n');
    text
}
