//! Payment evidence (`juror payments`): one row per participant whose ratings file arrived,
//! with what a researcher checks before paying. The completion code is in the published study
//! for anyone to read, and a ratings file can be sent by anyone who clicks through the page, so
//! "a code was entered" and "a file arrived" prove nothing; this list is the evidence: whether
//! the file is complete, the attention checks passed (the key says which items are checks and
//! what they accept), the active time on task, the platform's session, and the slot the link
//! gave (a participant may edit `slot=` to take a shorter plan).
//!
//! Files are read as the analysis reads them ([`super::read`]): each annotator's latest
//! complete file counts, the others (backups) are counted beside it; a file that cannot be
//! used is a problem.

use std::collections::BTreeMap;

use serde::Serialize;

use super::data::number;
use super::data::{Input, Problem};
use super::read::ratings_file::{Opened, check_passed, is_check, platform_id};
use super::read::{Context, backups, base_name, open_all};
use crate::base::csv;
use crate::study::Study;

/// One participant.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Payment {
    /// The participant's id as the platform gave it (Juror keeps ids in lower case; MTurk's
    /// worker ids, upper case on MTurk, are written upper case again), else `slot<N>`.
    pub participant: String,
    /// `prolific`, `mturk` or `sona`, when the link came from a platform.
    pub platform: Option<String>,
    /// The platform's study: Prolific's `STUDY_ID`, MTurk's `hitId`.
    pub platform_study: Option<String>,
    /// The platform's session: Prolific's `SESSION_ID`, MTurk's `assignmentId`.
    pub session: Option<String>,
    /// The slot, as the link gave it.
    pub slot: u32,
    /// Every trial and survey finished: the file says so and every trial is finished.
    pub complete: bool,
    pub trials_done: usize,
    pub trials: usize,
    /// Attention-check items of the file's plan (a check not finished counts as failed), and
    /// of those the ones whose answers were accepted and the ones that could not be evaluated
    /// (no accepted answers in the study or the key).
    pub checks: usize,
    pub checks_passed: usize,
    pub checks_not_evaluated: usize,
    /// Active time (the page visible) over every trial, in minutes.
    pub active_minutes: f64,
    /// The file the row is read from (its base name).
    pub file: String,
    /// The participant's files given, the one read and its superseded backups.
    pub files: usize,
    /// The participant's estimated rater quality over every nominal answer, when asked
    /// (`report::raters::estimate_for_payments`): Dawid–Skene's accuracy and MACE's competence, each
    /// the mean over the answers fitted weighted by the participant's answers.
    pub accuracy: Option<f64>,
    pub competence: Option<f64>,
    /// What deserves a look before paying, in words (empty when nothing does).
    pub notes: Vec<String>,
}

/// The payment list: one row per participant, by participant, and the files that could not be
/// used.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Payments {
    pub rows: Vec<Payment>,
    pub problems: Vec<Problem>,
}

/// The columns of [`Payments::to_csv`].
const COLUMNS: [&str; 17] = [
    "participant",
    "platform",
    "platform_study",
    "session",
    "slot",
    "complete",
    "trials_done",
    "trials",
    "checks_passed",
    "checks",
    "checks_not_evaluated",
    "active_minutes",
    "file",
    "files",
    "accuracy",
    "competence",
    "notes",
];

/// The payment list of `inputs` (ratings files; anything else is a problem), checked against
/// the context's study and key. Ids are never pseudonymised here: this list is for paying.
pub fn payments(inputs: &[Input<'_>], context: &Context) -> Payments {
    let context = Context {
        reveal_ids: true,
        ..*context
    };
    let inputs: Vec<Input<'_>> = inputs
        .iter()
        .map(|i| Input::new(base_name(&i.name), i.text.as_ref()))
        .collect();
    let opened = open_all(&inputs, &context);
    let mut out = Payments::default();
    let files: Vec<Option<&Opened<'_>>> = opened
        .iter()
        .zip(&inputs)
        .map(|(o, input)| match o {
            Some(Ok(f)) => Some(f),
            Some(Err(problem)) => {
                out.problems.push(problem.clone());
                None
            }
            None => {
                out.problems.push(Problem::new(
                    &input.name,
                    None,
                    "not a ratings file (juror.ratings/1); payments are checked on the ratings \
                     files the participants sent",
                ));
                None
            }
        })
        .collect();
    let superseded =
        backups::superseded_by(&files.iter().map(|f| f.map(|f| &f.file)).collect::<Vec<_>>());
    let mut count = vec![1usize; files.len()];
    for by in superseded.iter().flatten() {
        count[*by] += 1;
    }
    for (index, opened) in files.iter().enumerate() {
        if let (Some(opened), None) = (opened, superseded[index]) {
            out.rows.push(row(opened, count[index], &context));
        }
    }
    out.rows.sort_by(|a, b| {
        (&a.participant, &a.platform, &a.file).cmp(&(&b.participant, &b.platform, &b.file))
    });
    note_odd_slots(&mut out.rows);
    out
}

/// The row of one participant's file.
fn row(opened: &Opened<'_>, files: usize, context: &Context) -> Payment {
    let file = &opened.file;
    let visit = file.annotator.platform.as_ref();
    let platform = visit.map(|v| v.name.clone());
    let participant = match (&file.annotator.id, platform.as_deref()) {
        (Some(id), Some(platform)) if !id.is_empty() => platform_id(id, platform),
        (Some(id), None) if !id.is_empty() => id.clone(),
        _ => format!("slot{}", file.annotator.slot),
    };
    let study = context.study.map(|(s, _)| s);
    // Per check item of the plan (an item may be shown in several trials, one per output, and
    // the check is of one of them): passed when every trial that could be scored passed; a
    // check trial not finished fails its item, so that leaving a check undone never hides it.
    let mut items: BTreeMap<&str, Option<bool>> = BTreeMap::new();
    let mut not_done: BTreeMap<&str, ()> = BTreeMap::new();
    for trial in file.trials.iter() {
        if !is_check(trial, context.key) {
            continue;
        }
        let scored = if trial.done {
            study.and_then(|s| check_passed(s, context.key, trial, &opened.rename))
        } else {
            not_done.insert(trial.item.as_str(), ());
            Some(false)
        };
        let item = items.entry(trial.item.as_str()).or_default();
        *item = match (*item, scored) {
            (Some(a), Some(b)) => Some(a && b),
            (a, b) => a.or(b),
        };
    }
    let checks = items.len();
    let passed = items.values().filter(|p| **p == Some(true)).count();
    let unknown = items.values().filter(|p| p.is_none()).count();
    let trials_done = file.trials.iter().filter(|t| t.done).count();
    let active_ms: u64 = file.trials.iter().map(|t| t.active_ms).sum();
    // Complete as the page's rule has it (every trial finished), whatever the file says.
    let complete = file.complete && trials_done == file.trials.len();
    let mut notes = Vec::new();
    if !complete {
        notes.push(format!(
            "not complete ({trials_done} of {} trials finished)",
            file.trials.len()
        ));
    }
    let failed = checks - passed - unknown;
    if failed > 0 {
        let undone = if not_done.is_empty() {
            String::new()
        } else {
            format!(" ({} not done)", not_done.len())
        };
        notes.push(format!(
            "{failed} of {checks} attention check(s) failed{undone}"
        ));
    }
    if unknown > 0 {
        notes.push(format!(
            "{unknown} attention check(s) not evaluated: give the key written by `juror publish`"
        ));
    }
    let active_minutes = (active_ms as f64 / 6_000.0).round() / 10.0;
    if let Some(note) = faster_than_estimate(complete, active_ms, study) {
        notes.push(note);
    }
    Payment {
        participant,
        platform,
        platform_study: visit.and_then(|v| v.study_id.clone().or_else(|| v.hit_id.clone())),
        session: visit.and_then(|v| v.session_id.clone().or_else(|| v.assignment_id.clone())),
        slot: file.annotator.slot,
        complete,
        trials_done,
        trials: file.trials.len(),
        checks,
        checks_passed: passed,
        checks_not_evaluated: unknown,
        active_minutes,
        file: opened.name.clone(),
        files,
        accuracy: None,
        competence: None,
        notes,
    }
}

/// The note of a complete file whose active time on the trials is under
/// [`FAST_SHARE`](super::diagnostics::FAST_SHARE) of the study's `estimated_minutes`: read
/// that fast, the outputs were hardly read (the estimate also covers the instructions and the
/// surveys, so a third of it is a low bar).
fn faster_than_estimate(complete: bool, active_ms: u64, study: Option<&Study>) -> Option<String> {
    let estimate = f64::from(study?.estimated_minutes()?);
    let minutes = active_ms as f64 / 60_000.0;
    (complete && estimate > 0.0 && minutes < super::diagnostics::FAST_SHARE * estimate).then(|| {
        format!(
            "active on the trials for {} min, under a third of the study's estimate of {} \
             min: look at the answers before paying",
            number((minutes * 10.0).round() / 10.0),
            number(estimate)
        )
    })
}

/// Each platform study (one link, so one slot, per platform study) should have one slot: a
/// row whose slot differs from the slot most rows of its platform study have is noted (the
/// participant may have edited the link).
fn note_odd_slots(rows: &mut [Payment]) {
    let mut slots: BTreeMap<&str, BTreeMap<u32, usize>> = BTreeMap::new();
    for r in rows.iter() {
        if let Some(s) = &r.platform_study {
            *slots.entry(s).or_default().entry(r.slot).or_default() += 1;
        }
    }
    let usual: BTreeMap<String, (u32, usize)> = slots
        .into_iter()
        .filter_map(|(study, counts)| {
            let (&slot, &n) = counts
                .iter()
                .max_by_key(|(s, n)| (**n, std::cmp::Reverse(**s)))?;
            let total: usize = counts.values().sum();
            // A slot is usual only when most of the study's files have it.
            (2 * n > total && n < total).then(|| (study.to_owned(), (slot, n)))
        })
        .collect();
    for r in rows.iter_mut() {
        if let Some((slot, n)) = r.platform_study.as_ref().and_then(|s| usual.get(s))
            && r.slot != *slot
        {
            r.notes.push(format!(
                "slot {} from the link whereas {n} other file(s) of this platform study have \
                 slot {slot}: check the link was not edited",
                r.slot
            ));
        }
    }
}

impl Payments {
    /// The list as a CSV, one row per participant ([`COLUMNS`]).
    pub fn to_csv(&self) -> String {
        let mut out = csv::line(&COLUMNS);
        for r in &self.rows {
            out.push_str(&csv::line(&[
                r.participant.clone(),
                r.platform.clone().unwrap_or_default(),
                r.platform_study.clone().unwrap_or_default(),
                r.session.clone().unwrap_or_default(),
                r.slot.to_string(),
                r.complete.to_string(),
                r.trials_done.to_string(),
                r.trials.to_string(),
                r.checks_passed.to_string(),
                r.checks.to_string(),
                r.checks_not_evaluated.to_string(),
                format!("{:.1}", r.active_minutes),
                r.file.clone(),
                r.files.to_string(),
                r.accuracy.map(|a| format!("{a:.3}")).unwrap_or_default(),
                r.competence.map(|c| format!("{c:.3}")).unwrap_or_default(),
                r.notes.join("; "),
            ]));
        }
        out
    }

    /// The list as a table for the terminal: columns padded to their widest cell, the notes
    /// last.
    pub fn to_table(&self) -> String {
        let accuracy = self.rows.iter().any(|r| r.accuracy.is_some());
        let competence = self.rows.iter().any(|r| r.competence.is_some());
        let mut head = vec![
            "participant",
            "session",
            "complete",
            "trials",
            "checks",
            "minutes",
            "slot",
            "files",
        ];
        if accuracy {
            head.push("accuracy");
        }
        if competence {
            head.push("competence");
        }
        head.push("notes");
        let estimate = |x: Option<f64>| x.map_or_else(|| "-".to_owned(), |x| format!("{x:.3}"));
        let mut cells: Vec<Vec<String>> = vec![head.iter().map(|h| (*h).to_owned()).collect()];
        for r in &self.rows {
            let mut row = vec![
                r.participant.clone(),
                r.session.clone().unwrap_or_else(|| "-".to_owned()),
                if r.complete { "yes" } else { "no" }.to_owned(),
                format!("{}/{}", r.trials_done, r.trials),
                if r.checks == 0 {
                    "-".to_owned()
                } else {
                    format!("{}/{}", r.checks_passed, r.checks)
                },
                format!("{:.1}", r.active_minutes),
                r.slot.to_string(),
                r.files.to_string(),
            ];
            if accuracy {
                row.push(estimate(r.accuracy));
            }
            if competence {
                row.push(estimate(r.competence));
            }
            row.push(r.notes.join("; "));
            cells.push(row);
        }
        let widths: Vec<usize> = (0..head.len())
            .map(|c| {
                cells
                    .iter()
                    .map(|r| r[c].chars().count())
                    .max()
                    .unwrap_or(0)
            })
            .collect();
        let mut out = String::new();
        for r in &cells {
            let line: Vec<String> = r
                .iter()
                .zip(&widths)
                .map(|(cell, w)| format!("{cell:<w$}"))
                .collect();
            out.push_str(line.join("  ").trim_end());
            out.push('\n');
        }
        out
    }
}
