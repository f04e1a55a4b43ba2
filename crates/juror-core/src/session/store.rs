//! The envelope in which the browser keeps a session's progress: one per study (by the SHA-256
//! of the study file) and annotator, versioned so that an app update can migrate it.
//!
//! The envelope holds answers and timings, never the study itself.
//!
//! # Versions
//! - 1: `schema_version`, `study_id`, `study_sha256`, `saved_at`, `progress`.
//! - 2: adds `revision` (incremented by every save, so that two tabs can tell whose copy is
//!   newer) and `app_version`. Version 1 envelopes are migrated on read (revision 0).
//!   Since 2026-11-24 a version 2 progress may also carry `clock` and `stamps` (per trial and
//!   for the surveys: when each answer was last given, [`super::stamps`]). Both are optional: a
//!   copy without them (an older app's) reads as stamp 0, which any later edit beats, and an
//!   older app reading a copy with them ignores them.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::{Progress, stamps};

/// The envelope's current schema version.
pub const SCHEMA_VERSION: u32 = 2;

/// What is stored under [`key`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Envelope {
    /// Version of this envelope's shape.
    pub schema_version: u32,
    /// The study's id (for people looking at storage).
    pub study_id: String,
    /// SHA-256 of the study file the progress belongs to.
    pub study_sha256: String,
    /// When it was saved (ms since the Unix epoch).
    pub saved_at: f64,
    /// How many saves led to this one (across all tabs).
    pub revision: u64,
    /// The Juror version that saved it.
    pub app_version: String,
    /// The progress.
    pub progress: Progress,
}

/// The storage key of a study and annotator: `juror/v1/<study sha256>/<slot>[/<id>]`.
pub fn key(study_sha256: &str, slot: u32, id: Option<&str>) -> String {
    match id {
        Some(id) => format!("juror/v1/{study_sha256}/{slot}/{id}"),
        None => format!("juror/v1/{study_sha256}/{slot}"),
    }
}

/// Why a stored envelope cannot be used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Unreadable {
    /// Not JSON, or not an envelope.
    Corrupt(String),
    /// Written by a newer Juror.
    Future(u32),
}

/// Reads a stored envelope, migrating older schema versions.
///
/// # Errors
/// A corrupt or future envelope: the caller keeps the raw text aside and starts fresh.
pub fn read(text: &str) -> Result<Envelope, Unreadable> {
    let value: Value =
        serde_json::from_str(text).map_err(|e| Unreadable::Corrupt(e.to_string()))?;
    let version = value
        .get("schema_version")
        .and_then(Value::as_u64)
        .ok_or_else(|| Unreadable::Corrupt("no schema_version".to_owned()))?;
    let version = u32::try_from(version).unwrap_or(u32::MAX);
    if version > SCHEMA_VERSION {
        return Err(Unreadable::Future(version));
    }
    let mut value = value;
    if version < 2 {
        value = migrate_1_to_2(value);
    }
    serde_json::from_value(value).map_err(|e| Unreadable::Corrupt(e.to_string()))
}

fn migrate_1_to_2(mut value: Value) -> Value {
    if let Some(o) = value.as_object_mut() {
        o.insert("schema_version".into(), 2.into());
        o.insert("revision".into(), 0.into());
        o.insert("app_version".into(), "0.1.0 (schema 1)".into());
    }
    value
}

/// Combines what two tabs saved for the same annotator, so that neither loses an answer and
/// no edit is undone by an older copy (review M2).
///
/// Answer by answer (every score, per-output answer, flag, preference, explanation, note and
/// survey answer), the version with the later stamp is kept ([`super::stamps`]): an edit made
/// after seeing another always wins, whatever the wall clock says, so neither a tab that was
/// frozen nor one whose clock is wrong can bring back an answer that was changed since. A
/// cleared answer is an edit too. A trial is done if either copy finished it; first shown is the
/// earliest, active time and last change the latest. The phase and trial on screen stay
/// `mine`'s.
///
/// The merge is commutative, associative and idempotent on the answers, so every tab ends with
/// the same answers whatever order it hears of the others' saves in (property-tested in
/// `session::tests`).
pub fn merge(mine: &Progress, theirs: &Progress) -> Progress {
    let mut out = mine.clone();
    if mine.trials.len() != theirs.trials.len() || mine.annotator != theirs.annotator {
        return out;
    }
    for (ours, other) in out.trials.iter_mut().zip(&theirs.trials) {
        if ours.outputs.len() != other.outputs.len() {
            continue;
        }
        let mut merged = stamps::merge_answers(ours, other);
        merged.done = ours.done || other.done;
        merged.first_shown = match (ours.first_shown, other.first_shown) {
            (Some(x), Some(y)) => Some(x.min(y)),
            (x, y) => x.or(y),
        };
        merged.last_changed = match (ours.last_changed, other.last_changed) {
            (Some(x), Some(y)) => Some(x.max(y)),
            (x, y) => x.or(y),
        };
        merged.active_ms = ours.active_ms.max(other.active_ms);
        *ours = merged;
    }
    out.stamps.clear();
    out.intake = stamps::merge_survey(
        "intake",
        (&mine.intake, &mine.stamps),
        (&theirs.intake, &theirs.stamps),
        &mut out.stamps,
    );
    out.exit = stamps::merge_survey(
        "exit",
        (&mine.exit, &mine.stamps),
        (&theirs.exit, &theirs.stamps),
        &mut out.stamps,
    );
    out.clock = mine.clock.max(theirs.clock);
    out.consent_at = mine.consent_at.or(theirs.consent_at);
    out.started_at = match (mine.started_at, theirs.started_at) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    };
    out.finished_at = mine.finished_at.or(theirs.finished_at);
    out
}

/// The text to store.
pub fn write(envelope: &Envelope) -> String {
    serde_json::to_string(envelope).unwrap_or_default()
}
