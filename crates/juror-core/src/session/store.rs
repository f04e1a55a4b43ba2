//! The envelope in which the browser keeps a session's progress: one per study (by the SHA-256
//! of the study file) and annotator, versioned so that an app update can migrate it.
//!
//! The envelope holds answers and timings, never the study itself.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::Progress;

/// The envelope's current schema version.
pub const SCHEMA_VERSION: u32 = 1;

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
    // Version 1 is the first: migrations from older versions go here, one step at a time.
    serde_json::from_value(value).map_err(|e| Unreadable::Corrupt(e.to_string()))
}

/// The text to store.
pub fn write(envelope: &Envelope) -> String {
    serde_json::to_string(envelope).unwrap_or_default()
}
