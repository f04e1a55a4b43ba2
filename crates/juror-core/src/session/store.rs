//! The envelope in which the browser keeps a session's progress: one per study (by the SHA-256
//! of the study file) and annotator, versioned so that an app update can migrate it.
//!
//! The envelope holds answers and timings, never the study itself.
//!
//! # Versions
//! - 1: `schema_version`, `study_id`, `study_sha256`, `saved_at`, `progress`.
//! - 2: adds `revision` (incremented by every save, so that two tabs can tell whose copy is
//!   newer) and `app_version`. Version 1 envelopes are migrated on read (revision 0).
//!   Optional fields of version 2: the envelope's `plan` (the fingerprint of the plan the
//!   progress follows; without it, plan format v1), and the progress's `clock` and `stamps`
//!   (per trial and for the surveys: when each answer was last given, [`super::stamps`]) and
//!   `file_saved` (the clock when the finished ratings file was saved or sent, so that the
//!   finish page's debriefing shows again on return). A copy without `clock` and `stamps`
//!   reads as stamp 0, which any later edit beats; an app that does not know a field ignores
//!   it.

use serde::Serialize;
use serde_json::Value;

use super::{Progress, stamps};

/// The envelope's current schema version.
pub const SCHEMA_VERSION: u32 = 2;

/// What is stored under [`key`]. The page writes an `Envelope<&Progress>`, which borrows the
/// session's progress rather than copying it for every save (a copy of a 10,000-trial session
/// is 10,000 allocations per answer); everything read is an `Envelope<Progress>`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Envelope<P = Progress> {
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
    pub progress: P,
    /// The fingerprint of the plan the progress follows ([`crate::plan::Plan::fingerprint`]);
    /// optional: a copy without it follows plan format v1 ([`resume`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub plan: Option<String>,
}

/// Continues the session saved in `envelope` on the plan it follows: the plan, in any plan
/// format this version of Juror makes, whose fingerprint the envelope records (the same items,
/// systems and places, so that no answer is ever attached to another item or system), or for a
/// copy saved before fingerprints were recorded, the plan of format v1 (the only one then). Its
/// progress must fit that plan, trial by trial.
///
/// # Errors
/// Why the saved progress cannot be used: the caller sets it aside and starts afresh.
pub fn resume(
    study: &crate::study::Study,
    envelope: Envelope,
    now: f64,
) -> Result<super::Session, String> {
    use crate::plan::{Format, Planner, following};
    let who = &envelope.progress.annotator;
    let plan = match &envelope.plan {
        Some(saved) => following(study, who, saved).ok_or_else(|| {
            "they follow another plan of this study than this version of Juror makes".to_owned()
        })?,
        None => Planner::new(study).plan_as(who, Format::V1),
    };
    super::Session::resume_on(study, plan, envelope.progress, now)
}

/// The storage key of a study and annotator: `juror/v1/<study sha256>/<slot>[/<id>]`.
pub fn key(study_sha256: &str, slot: u32, id: Option<&str>) -> String {
    match id {
        Some(id) => format!("juror/v1/{study_sha256}/{slot}/{id}"),
        None => format!("juror/v1/{study_sha256}/{slot}"),
    }
}

/// The parts of a session's storage key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Key<'a> {
    /// SHA-256 of the study file (64 hexadecimal digits).
    pub study_sha256: &'a str,
    /// The annotator's slot.
    pub slot: u32,
    /// The annotator's id, if the link gave one (it may contain `/`).
    pub id: Option<&'a str>,
}

/// Reads a key written by [`key`]; `None` for any other key. Comparing parsed keys, never
/// suffixes, keeps slot 5 with id "1" apart from slot 1.
pub fn parse_key(key: &str) -> Option<Key<'_>> {
    let rest = key.strip_prefix("juror/v1/")?;
    let (sha, rest) = rest.split_once('/')?;
    if sha.len() != 64 || !sha.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    let (slot, id) = match rest.split_once('/') {
        Some((slot, id)) => (slot, Some(id)),
        None => (rest, None),
    };
    if slot.is_empty() || !slot.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some(Key {
        study_sha256: sha,
        slot: slot.parse().ok()?,
        id,
    })
}

/// The prefix of the keys under which the page records what it sent to a study's service
/// (`juror-outbox/<session key>`, and `…/backup` for the backups).
pub const OUTBOX_PREFIX: &str = "juror-outbox/";

/// Whether the entry stored under `key` (with its `text`) holds answers of the annotator
/// `slot`/`id` to the study `study_id` whose file has SHA-256 `study_sha256`, as "Remove my
/// answers from this browser" removes them: the session itself, the record of what was sent
/// from it, its set-aside copies, and the sessions and set-aside copies of this annotator under
/// another version of the same study (its id read from the saved text). Keys are compared part
/// by part (slot 5 with id "1" is not slot 1), and nothing of another study or annotator is
/// ever chosen.
pub fn holds_answers_of(
    key: &str,
    text: &str,
    study_id: &str,
    study_sha256: &str,
    slot: u32,
    id: Option<&str>,
) -> bool {
    let me = |k: &Key<'_>| k.slot == slot && k.id == id;
    let same_study = |k: &Key<'_>| {
        k.study_sha256 == study_sha256 || read(text).is_ok_and(|e| e.study_id == study_id)
    };
    if let Some(rest) = key.strip_prefix(OUTBOX_PREFIX) {
        let own = self::key(study_sha256, slot, id);
        return rest == own || rest.strip_suffix("/backup") == Some(own.as_str());
    }
    let session_key = match key.strip_prefix(QUARANTINE_PREFIX) {
        Some(rest) => rest.split_once('/').map_or("", |(_, k)| k),
        None => key,
    };
    parse_key(session_key).is_some_and(|k| me(&k) && same_study(&k))
}

/// The prefix of the keys under which unreadable or unfit saved answers are set aside.
pub const QUARANTINE_PREFIX: &str = "juror-quarantine/";

/// How many set-aside copies are kept; the oldest go first beyond this, so that repeated
/// failures (say, an old and a new app taking turns) cannot fill the browser's storage.
pub const QUARANTINE_LIMIT: usize = 8;

/// The key under which `text`, stored under `key`, is set aside at `now` (milliseconds since
/// 1970, as `Date.now()` gives them).
pub fn quarantine_key(key: &str, now: u64) -> String {
    format!("{QUARANTINE_PREFIX}{now}/{key}")
}

/// What to do before setting `text` aside, given the set-aside copies already stored (key and
/// text): `None` when an identical copy is already kept (nothing to add), else the keys to remove
/// first (the oldest, beyond [`QUARANTINE_LIMIT`]).
pub fn quarantine_plan(text: &str, existing: &[(String, String)]) -> Option<Vec<String>> {
    if existing.iter().any(|(_, t)| t == text) {
        return None;
    }
    // Read as whole milliseconds: the page carries no float parser. Keys written when the time
    // was formatted as a float read the same, since `Date.now()` is always whole.
    let mut keys: Vec<(u64, &str)> = existing
        .iter()
        .map(|(k, _)| {
            let at = k
                .strip_prefix(QUARANTINE_PREFIX)
                .and_then(|r| r.split('/').next())
                .and_then(|t| t.parse().ok())
                .unwrap_or(0);
            (at, k.as_str())
        })
        .collect();
    crate::base::order::sort_by_key(&mut keys, |k| k.0);
    let excess = (keys.len() + 1).saturating_sub(QUARANTINE_LIMIT);
    Some(
        keys[..excess]
            .iter()
            .map(|(_, k)| (*k).to_owned())
            .collect(),
    )
}

/// One set of answers kept in this browser, as the problems and open pages list it.
#[derive(Debug, Clone, PartialEq)]
pub struct Saved {
    /// The storage key.
    pub key: String,
    /// The study's id, when the text can be read.
    pub study_id: Option<String>,
    /// Who: "slot 3" or "slot 3, P-17".
    pub annotator: String,
    /// When it was saved (ms since the Unix epoch), when known.
    pub saved_at: Option<f64>,
    /// How many trials have an answer.
    pub answered: usize,
    /// Set aside (damaged, from a newer app, or not fitting its study).
    pub set_aside: bool,
    /// The name to download it under.
    pub file_name: String,
}

/// Describes a stored entry for the list of saved answers; `None` for keys that are not
/// Juror's sessions or set-aside copies.
pub fn describe(key: &str, text: &str) -> Option<Saved> {
    let (session, set_aside) = session_key(key);
    let parsed = parse_key(session);
    if !set_aside && parsed.is_none() {
        return None;
    }
    let envelope = read(text).ok();
    let who = |slot: u32, id: Option<&str>| match id {
        Some(id) => format!("slot {slot}, {id}"),
        None => format!("slot {slot}"),
    };
    let annotator = match (&envelope, &parsed) {
        (Some(e), _) => who(
            e.progress.annotator.slot,
            e.progress.annotator.id.as_deref(),
        ),
        (None, Some(k)) => who(k.slot, k.id),
        (None, None) => "unknown annotator".to_owned(),
    };
    let study_id = envelope.as_ref().map(|e| e.study_id.clone());
    let safe = |s: &str| {
        s.chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                    c
                } else {
                    '-'
                }
            })
            .collect::<String>()
    };
    let file_name = format!(
        "juror-{}{}-{}.json",
        if set_aside { "set-aside-" } else { "saved-" },
        safe(study_id.as_deref().unwrap_or("answers")),
        safe(&annotator)
    );
    Some(Saved {
        key: key.to_owned(),
        study_id,
        annotator,
        saved_at: envelope.as_ref().map(|e| e.saved_at),
        answered: envelope.as_ref().map_or(0, |e| {
            e.progress
                .trials
                .iter()
                .filter(|t| {
                    t.preference.is_some()
                        || t.outputs.iter().any(|o| {
                            !o.ratings.is_empty()
                                || !o.cannot_judge.is_empty()
                                || !o.answers.is_empty()
                        })
                })
                .count()
        }),
        set_aside,
        file_name,
    })
}

/// The session key inside a stored key: the key itself, or the key a set-aside copy was taken
/// from; and whether it is a set-aside copy.
fn session_key(key: &str) -> (&str, bool) {
    match key.strip_prefix(QUARANTINE_PREFIX) {
        Some(rest) => (rest.split_once('/').map_or("", |(_, k)| k), true),
        None => (key, false),
    }
}

/// How many sets of answers (sessions and set-aside copies) this browser keeps, of the stored
/// keys `keys`: all the first page tells of them, so that the next person at a shared computer
/// sees no one's id or answers.
pub fn kept_count<'a>(keys: impl IntoIterator<Item = &'a str>) -> usize {
    keys.into_iter()
        .filter(|k| {
            let (session, set_aside) = session_key(k);
            set_aside || parse_key(session).is_some()
        })
        .count()
}

/// The study ids whose saved answers the page offers when it cannot open the study at
/// `source`: the stem of the address's file name (`studies/my-study.json?x` gives `my-study`,
/// for a study published under its id) and, when the file was read, the `id` its text names
/// (a study made invalid by an update still says whose it is).
pub fn failed_study_ids(source: &str, text: Option<&str>) -> Vec<String> {
    let path = source.split(['?', '#']).next().unwrap_or("");
    let name = path.rsplit(['/', '\\']).next().unwrap_or("");
    let stem = name
        .strip_suffix(".json")
        .or_else(|| name.strip_suffix(".JSON"))
        .unwrap_or(name);
    let mut ids = Vec::new();
    if !stem.is_empty() {
        ids.push(stem.to_owned());
    }
    let claimed = text
        .and_then(|t| serde_json::from_str::<Value>(t).ok())
        .and_then(|v| {
            study_field(&v, "id")
                .and_then(Value::as_str)
                .map(str::to_owned)
        });
    if let Some(id) = claimed.filter(|id| !id.is_empty() && !ids.contains(id)) {
        ids.push(id);
    }
    ids
}

/// The contact line (`contact`) that the text of a study the page could not open names, if it
/// reads as JSON: the problems page gives it, so that an annotator knows whom to tell.
pub fn failed_study_contact(text: &str) -> Option<String> {
    let value = serde_json::from_str::<Value>(text).ok()?;
    study_field(&value, "contact")?
        .as_str()
        .map(str::trim)
        .filter(|c| !c.is_empty())
        .map(str::to_owned)
}

/// A field of a study's text as JSON: the study file's own, or a compiled study's (under
/// `study`).
fn study_field<'a>(value: &'a Value, name: &str) -> Option<&'a Value> {
    value
        .get(name)
        .or_else(|| value.get("study").and_then(|s| s.get(name)))
}

/// Who the address of a page that could not open its study names: its `slot` and its id
/// (`annotator`, `PROLIFIC_PID`, …), as the link gave them. Only that annotator's saved answers
/// are offered there: a study's id is public, so an address naming a study says nothing of who
/// is at the computer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Claimant {
    /// The link's slot, when it is a whole number.
    pub slot: Option<u32>,
    /// The link's id, as [`participant_code`](crate::study::participant_code) keeps ids.
    pub id: Option<String>,
}

impl Claimant {
    /// The annotator a link's `slot` and id parameters name; `None` when it names neither (then
    /// only a count is shown).
    pub fn from_link(slot: Option<&str>, id: Option<&str>) -> Option<Claimant> {
        let id = id
            .map(crate::study::participant_code)
            .filter(|id| !id.is_empty());
        let slot = slot.and_then(|s| s.trim().parse::<u32>().ok());
        (slot.is_some() || id.is_some()).then_some(Claimant { slot, id })
    }

    /// Whether the session stored under `key` is this annotator's: the same id (and slot, when
    /// the link gives both), or for a link with a slot alone, that slot's session with no id.
    fn owns(&self, key: &Key<'_>) -> bool {
        let slot = self.slot.is_none_or(|s| s == key.slot);
        match &self.id {
            Some(id) => slot && key.id == Some(id.as_str()),
            None => slot && key.id.is_none(),
        }
    }
}

/// A set of saved answers, described, with its stored text.
pub type SavedText = (Saved, String);

/// What the page that could not open a study offers: the saved answers of the annotator its
/// address names, for download, and how many other sets of answers to the study are kept (told
/// as a count only).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Offer {
    /// The claimant's sessions and set-aside copies, newest first, with their texts.
    pub mine: Vec<SavedText>,
    /// The study's other sessions and set-aside copies kept in this browser.
    pub others: usize,
}

/// The saved answers the page that could not open a study offers for download, of every stored
/// key and text `entries`: only the study's (its id among `ids`, [`failed_study_ids`]), and of
/// those only the annotator's its address names (`who`, [`Claimant`]), newest first; the
/// study's others are counted. Another participant's answers are never listed: on a shared
/// computer the next person could otherwise read them by opening any address of the study. A
/// set-aside copy too damaged to say its study is the study's when its key names the study file
/// of one of them.
pub fn offered(entries: Vec<(String, String)>, ids: &[String], who: Option<&Claimant>) -> Offer {
    let described: Vec<(Saved, String)> = entries
        .into_iter()
        .filter_map(|(k, t)| Some((describe(&k, &t)?, t)))
        .collect();
    let file_of = |key: &str| parse_key(session_key(key).0).map(|k| k.study_sha256.to_owned());
    let files: Vec<String> = described
        .iter()
        .filter(|(s, _)| s.study_id.as_ref().is_some_and(|id| ids.contains(id)))
        .filter_map(|(s, _)| file_of(&s.key))
        .collect();
    let (mut mine, others): (Vec<SavedText>, Vec<SavedText>) = described
        .into_iter()
        .filter(|(s, _)| match &s.study_id {
            Some(id) => ids.contains(id),
            None => file_of(&s.key).is_some_and(|sha| files.contains(&sha)),
        })
        .partition(|(s, _)| {
            let key = parse_key(session_key(&s.key).0);
            who.zip(key).is_some_and(|(who, key)| who.owns(&key))
        });
    crate::base::order::sort_by(&mut mine, |a, b| {
        b.0.saved_at
            .unwrap_or(0.0)
            .total_cmp(&a.0.saved_at.unwrap_or(0.0))
    });
    Offer {
        mine,
        others: others.len(),
    }
}

/// The prefix of the keys that record "Remove my answers from this browser": `juror-removed/`
/// and the session's key, holding when (ms since the Unix epoch). Every tab that opened the
/// session before that time honours it ([`removed_since`]): it no longer saves, so a second tab
/// cannot write the answers back.
pub const REMOVED_PREFIX: &str = "juror-removed/";

/// The key recording that the answers under the session key `key` were removed.
pub fn removed_key(key: &str) -> String {
    format!("{REMOVED_PREFIX}{key}")
}

/// Whether a tab that opened its session at `opened_at` must stop saving it, given what is
/// stored under its [`removed_key`] (`record`, if anything): the answers were removed at or
/// after the tab opened them (in this tab or another). A tab opened afterwards starts afresh and
/// saves as usual. An unreadable record counts as a removal: saving nothing is the safe side of
/// a removal the participant asked for, and the tab offers a download instead.
pub fn removed_since(record: Option<&str>, opened_at: f64) -> bool {
    // Whole milliseconds, as [`removal_record`] writes them: the page carries no float parser.
    match record {
        None => false,
        Some(text) => text
            .trim()
            .parse::<u64>()
            .map_or(true, |at| at as f64 >= opened_at),
    }
}

/// What is stored under a [`removed_key`]: the time of the removal, `now` in whole
/// milliseconds since the Unix epoch (the page prints no floats).
pub fn removal_record(now: f64) -> String {
    // Saturating: a clock before 1970 or beyond u64 still writes a number.
    (now.max(0.0) as u64).to_string()
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
    let version = value.get("schema_version").and_then(Value::as_u64);
    let version = version.ok_or_else(|| Unreadable::Corrupt("no schema_version".to_owned()))?;
    let version = u32::try_from(version).unwrap_or(u32::MAX);
    if version > SCHEMA_VERSION {
        return Err(Unreadable::Future(version));
    }
    let value = if version < 2 {
        migrate_1_to_2(value)
    } else {
        value
    };
    super::from_json::envelope(&value).map_err(|e| Unreadable::Corrupt(e.to_string()))
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
/// no edit is undone by an older copy.
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
    if mine.trials.len() != theirs.trials.len() || !mine.annotator.same_person(&theirs.annotator) {
        return out;
    }
    // Two visits of one person may come with different platform parameters: keep one, the
    // same whichever tab merges (the larger), so that the merge stays commutative.
    out.annotator.platform = mine
        .annotator
        .platform
        .clone()
        .max(theirs.annotator.platform.clone());
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
    // The later save of the file: it holds every answer when no edit came after it.
    out.file_saved = mine.file_saved.max(theirs.file_saved);
    out
}

/// Turns saved answers downloaded from a browser (an envelope, as the problems page offers them)
/// back into a ratings file, given the study file they were saved for: `juror recover`.
///
/// # Errors
/// A sentence: the text is not saved answers, was saved for another version of the study file,
/// or does not fit the study's plan.
pub fn recover(
    study: &crate::study::Study,
    study_sha256: &str,
    text: &str,
    app_version: &str,
) -> Result<super::ratings::RatingsFile, String> {
    let envelope = read(text).map_err(|e| match e {
        Unreadable::Corrupt(why) => format!("these are not answers saved by Juror ({why})"),
        Unreadable::Future(v) => {
            format!("these answers were saved by a newer Juror (format {v}): update juror")
        }
    })?;
    if envelope.study_sha256 != study_sha256 {
        return Err(format!(
            "these answers were saved for another version of study {:?} (SHA-256 {}); give the \
             study file as it was when the annotator worked (for example from your repository's \
             history)",
            envelope.study_id, envelope.study_sha256
        ));
    }
    let saved_at = envelope.saved_at;
    let session = resume(study, envelope, saved_at)
        .map_err(|why| format!("these answers do not fit the study's plan: {why}"))?;
    // The file is as of the last save.
    Ok(super::ratings::export(
        study,
        study_sha256,
        &session,
        app_version,
        saved_at,
    ))
}

/// The text to store.
///
/// # Errors
/// When the envelope cannot be serialised, a sentence for the annotator: the shell then keeps
/// the stored copy as it is (an empty text would overwrite it) and shows the sentence.
pub fn write<P: std::borrow::Borrow<Progress> + Serialize>(
    envelope: &Envelope<P>,
) -> Result<String, String> {
    serde_json::to_string(envelope).map_err(|_| {
        "Your last answer could not be saved in this browser. Download a backup now so that \
         nothing is lost."
            .to_owned()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const SHA: &str = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";

    #[test]
    fn keys_read_back_exactly_and_slot_five_id_one_is_not_slot_one() {
        let k = key(SHA, 5, Some("1"));
        let parsed = parse_key(&k).unwrap();
        assert_eq!((parsed.slot, parsed.id), (5, Some("1")));
        assert_eq!(parse_key(&key(SHA, 1, None)).unwrap().id, None);
        // An id may hold a slash; it is all of the rest.
        assert_eq!(
            parse_key(&key(SHA, 2, Some("a/b"))).unwrap().id,
            Some("a/b")
        );
        for bad in [
            "juror/v1/abc/1",
            "juror/v1/",
            "other/v1/x/1",
            &format!("juror/v1/{SHA}/"),
            &format!("juror/v1/{SHA}/x"),
            &format!("juror/v1/{SHA}/99999999999"),
        ] {
            assert_eq!(parse_key(bad), None, "{bad}");
        }
    }

    #[test]
    fn the_quarantine_keeps_one_copy_of_a_text_and_at_most_its_limit() {
        let existing: Vec<(String, String)> = (0..QUARANTINE_LIMIT)
            .map(|i| {
                (
                    quarantine_key("juror/v1/x/1", 1000 + i as u64 * 10),
                    format!("t{i}"),
                )
            })
            .collect();
        assert_eq!(quarantine_plan("t3", &existing), None, "already kept");
        let drop = quarantine_plan("new", &existing).unwrap();
        assert_eq!(drop, vec![existing[0].0.clone()], "the oldest goes");
        assert_eq!(
            quarantine_plan("new", &existing[..2]).unwrap(),
            Vec::<String>::new()
        );
        // Times compare as numbers, not as text: 900 ms is older than 1000 ms.
        let mut older = existing.clone();
        older[QUARANTINE_LIMIT - 1].0 = quarantine_key("juror/v1/x/1", 900);
        let drop = quarantine_plan("new", &older).unwrap();
        assert_eq!(drop, vec![older[QUARANTINE_LIMIT - 1].0.clone()]);
    }

    #[test]
    fn a_borrowed_progress_is_written_as_the_owned_one_and_reads_back() {
        let progress = super::super::from_json::progress(&serde_json::json!({
            "annotator": {"slot": 2}, "phase": "trials", "current": 0,
            "trials": [{"outputs": [{"ratings": {"q": 4}}, {}]}, {"outputs": [{}, {}]}]
        }))
        .unwrap();
        fn envelope<P>(progress: P) -> Envelope<P> {
            Envelope {
                schema_version: SCHEMA_VERSION,
                study_id: "s".into(),
                study_sha256: SHA.into(),
                saved_at: 5.0,
                revision: 3,
                app_version: "test".into(),
                progress,
                plan: Some("fp".into()),
            }
        }
        let borrowed = write(&envelope(&progress)).unwrap();
        assert_eq!(borrowed, write(&envelope(progress.clone())).unwrap());
        assert_eq!(read(&borrowed).unwrap(), envelope(progress));
    }

    #[test]
    fn an_envelope_is_read_from_its_text_and_what_is_not_one_is_corrupt() {
        let corrupt = |text: &str, why: &str| {
            assert_eq!(
                read(text).unwrap_err(),
                Unreadable::Corrupt(why.to_owned()),
                "{text}"
            );
        };
        // JSON that is not an envelope, or has no version, says so.
        for text in [
            "[]",
            "[2]",
            "\"x\"",
            "3",
            "null",
            " {}",
            "{\"schema_version\":\"2\"}",
        ] {
            corrupt(text, "no schema_version");
        }
        // Text that is not JSON says where it breaks, object or not.
        for text in ["{not json", "[1,", "{\"schema_version\":2,}"] {
            let e = serde_json::from_str::<Value>(text).unwrap_err().to_string();
            corrupt(text, &e);
        }
        // An envelope of this version with a field missing names it.
        assert!(matches!(
            read("{\"schema_version\":2}"),
            Err(Unreadable::Corrupt(why)) if why.contains("study_id")
        ));
        assert_eq!(
            read("{\"schema_version\":3}").unwrap_err(),
            Unreadable::Future(3)
        );
    }

    #[test]
    fn saved_answers_are_described_for_the_list_and_other_keys_are_not() {
        let k = key(SHA, 3, Some("P 17"));
        let mut progress = super::super::from_json::progress(&serde_json::json!({
            "annotator": {"slot": 3, "id": "P 17"}, "phase": "trials", "current": 1,
            "trials": [{"outputs": [{"ratings": {"q": 4}}, {}]}, {"outputs": [{}, {}]}]
        }))
        .unwrap();
        progress.current = 1;
        let text = write(&Envelope {
            schema_version: SCHEMA_VERSION,
            study_id: "my study".into(),
            study_sha256: SHA.into(),
            saved_at: 5.0,
            revision: 1,
            app_version: "test".into(),
            progress,
            plan: None,
        })
        .unwrap();
        let saved = describe(&k, &text).unwrap();
        assert_eq!(saved.annotator, "slot 3, P 17");
        assert_eq!(saved.study_id.as_deref(), Some("my study"));
        assert_eq!((saved.answered, saved.set_aside), (1, false));
        assert_eq!(saved.file_name, "juror-saved-my-study-slot-3--P-17.json");
        // A damaged copy set aside is still listed, by what its key says.
        let aside = describe(&quarantine_key(&k, 9), "{not json").unwrap();
        assert!(aside.set_aside);
        assert_eq!(aside.annotator, "slot 3, P 17");
        assert_eq!(aside.file_name, "juror-set-aside-answers-slot-3--P-17.json");
        assert_eq!(describe("theme", "dark"), None);
        assert_eq!(describe("juror/v1/short/1", &text), None);
    }

    /// "Remove my answers from this browser": this annotator's session, its outbox records and
    /// set-aside copies, and their session of another version of the same study; never another
    /// annotator's (slot 5 with id "1" is not slot 1) or another study's.
    #[test]
    fn the_entries_removed_for_an_annotator_are_theirs_only() {
        let other_sha = "f".repeat(64);
        let envelope = |study_id: &str, sha: &str, slot: u32, id: &str| {
            let progress = super::super::from_json::progress(&serde_json::json!({
                "annotator": {"slot": slot, "id": id}, "phase": "done", "current": 0,
                "trials": [{"outputs": [{}]}]
            }))
            .unwrap();
            write(&Envelope {
                schema_version: SCHEMA_VERSION,
                study_id: study_id.into(),
                study_sha256: sha.into(),
                saved_at: 5.0,
                revision: 1,
                app_version: "test".into(),
                progress,
                plan: None,
            })
            .unwrap()
        };
        let mine = |k: &str, text: &str| holds_answers_of(k, text, "fin", SHA, 3, Some("p17"));
        let own = envelope("fin", SHA, 3, "p17");
        let own_key = key(SHA, 3, Some("p17"));
        assert!(mine(&own_key, &own));
        assert!(mine(&format!("{OUTBOX_PREFIX}{own_key}"), "digest"));
        assert!(mine(&format!("{OUTBOX_PREFIX}{own_key}/backup"), "20"));
        assert!(mine(&quarantine_key(&own_key, 9), "{damaged"));
        // Another version of the study file, same study id and annotator.
        let older = envelope("fin", &other_sha, 3, "p17");
        assert!(mine(&key(&other_sha, 3, Some("p17")), &older));
        assert!(mine(
            &quarantine_key(&key(&other_sha, 3, Some("p17")), 1),
            &older
        ));
        // Not theirs: other annotators, other studies, other keys.
        let other_study = envelope("other", &other_sha, 3, "p17");
        assert!(!mine(&key(&other_sha, 3, Some("p17")), &other_study));
        assert!(!mine(
            &quarantine_key(&key(&other_sha, 3, Some("p17")), 1),
            "{damaged"
        ));
        assert!(!mine(
            &key(SHA, 3, Some("p18")),
            &envelope("fin", SHA, 3, "p18")
        ));
        assert!(!mine(&key(SHA, 3, None), &envelope("fin", SHA, 3, "")));
        assert!(!holds_answers_of(
            &key(SHA, 5, Some("1")),
            &own,
            "fin",
            SHA,
            1,
            None
        ));
        assert!(!holds_answers_of(
            &key(SHA, 1, None),
            &own,
            "fin",
            SHA,
            5,
            Some("1")
        ));
        assert!(!mine(
            &format!("{OUTBOX_PREFIX}{}", key(SHA, 3, Some("p18"))),
            "digest"
        ));
        assert!(!mine(
            &format!("{OUTBOX_PREFIX}{}", key(&other_sha, 3, Some("p17"))),
            "d"
        ));
        assert!(!mine("theme", "dark"));
    }

    fn envelope_of(study_id: &str, sha: &str, slot: u32, id: &str, saved_at: f64) -> String {
        let progress = super::super::from_json::progress(&serde_json::json!({
            "annotator": {"slot": slot, "id": id}, "phase": "trials", "current": 0,
            "trials": [{"outputs": [{"ratings": {"q": 4}}, {}]}]
        }))
        .unwrap();
        write(&Envelope {
            schema_version: SCHEMA_VERSION,
            study_id: study_id.into(),
            study_sha256: sha.into(),
            saved_at,
            revision: 1,
            app_version: "test".into(),
            progress,
            plan: None,
        })
        .unwrap()
    }

    #[test]
    fn a_failed_study_address_names_its_stem_and_the_id_its_text_claims() {
        assert_eq!(
            failed_study_ids("studies/my-study.json?v=2#x", None),
            ["my-study"]
        );
        assert_eq!(failed_study_ids("my-study.JSON", None), ["my-study"]);
        assert_eq!(
            failed_study_ids("studies/x.json", Some(r#"{"id": "pilot-3", "items": 7}"#)),
            ["x", "pilot-3"]
        );
        assert_eq!(failed_study_ids("x.json", Some(r#"{"id": "x"}"#)), ["x"]);
        assert_eq!(
            failed_study_ids("studies/", Some("{oops")),
            Vec::<String>::new()
        );
        assert_eq!(
            failed_study_ids("a/", Some(r#"{"id": 3}"#)),
            Vec::<String>::new()
        );
        // A compiled study says whose it is under `study`, and whom to tell.
        let compiled =
            r#"{"format": "juror.compiled/3", "study": {"id": "pilot-3", "contact": " a@b.org "}}"#;
        assert_eq!(
            failed_study_ids("s/x.json", Some(compiled)),
            ["x", "pilot-3"]
        );
        assert_eq!(failed_study_contact(compiled).as_deref(), Some("a@b.org"));
        assert_eq!(failed_study_contact(r#"{"contact": ""}"#), None);
    }

    #[test]
    fn only_the_failed_studys_answers_are_offered_and_the_first_page_only_counts() {
        let other = "f".repeat(64);
        let mine = key(SHA, 3, Some("81234"));
        let theirs = key(&other, 1, Some("p2"));
        let damaged = quarantine_key(&mine, 7);
        let foreign_damage = quarantine_key(&theirs, 8);
        let entries = vec![
            (mine.clone(), envelope_of("pilot", SHA, 3, "81234", 5.0)),
            (
                theirs.clone(),
                envelope_of("unrelated", &other, 1, "p2", 9.0),
            ),
            (damaged.clone(), "{damaged".to_owned()),
            (foreign_damage.clone(), "{damaged too".to_owned()),
            ("theme".to_owned(), "dark".to_owned()),
        ];
        let keys: Vec<&str> = entries.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(
            kept_count(keys),
            4,
            "every session and set-aside copy, no other key"
        );
        let p81234 = Claimant::from_link(None, Some(" 81234 "));
        let listed = |ids: &[&str], who: Option<&Claimant>| {
            let ids: Vec<String> = ids.iter().map(|s| (*s).to_owned()).collect();
            let offer = offered(entries.clone(), &ids, who);
            let keys = offer
                .mine
                .into_iter()
                .map(|(s, _)| s.key)
                .collect::<Vec<_>>();
            (keys, offer.others)
        };
        let who = p81234.as_ref();
        // The study's session, and the damaged copy set aside from the same study file.
        assert_eq!(
            listed(&["pilot"], who),
            (vec![mine.clone(), damaged.clone()], 0)
        );
        assert_eq!(
            listed(&["x", "pilot"], who),
            (vec![mine.clone(), damaged.clone()], 0)
        );
        // An unrelated failing address lists nothing of either participant.
        assert_eq!(listed(&["x"], who), (vec![], 0));
        assert_eq!(listed(&[], who), (vec![], 0));
        // Another participant's answers to a study are counted, never listed.
        assert_eq!(listed(&["unrelated"], who), (vec![], 2));
        let p2 = Claimant::from_link(Some("1"), Some("P2"));
        assert_eq!(
            listed(&["unrelated"], p2.as_ref()),
            (vec![theirs, foreign_damage], 0)
        );
        // An address that names no one (the study's address alone, or a file chosen on the
        // first page): a count only.
        assert_eq!(Claimant::from_link(None, Some("  ")), None);
        assert_eq!(listed(&["pilot"], None), (vec![], 2));
        // The same id in another slot than the link's, or the slot alone: not theirs.
        let other_slot = Claimant::from_link(Some("4"), Some("81234"));
        assert_eq!(listed(&["pilot"], other_slot.as_ref()), (vec![], 2));
        let slot_only = Claimant::from_link(Some("3"), None);
        assert_eq!(listed(&["pilot"], slot_only.as_ref()), (vec![], 2));
        let slot_and_id = Claimant::from_link(Some("3"), Some("81234"));
        assert_eq!(listed(&["pilot"], slot_and_id.as_ref()).0.len(), 2);
    }

    #[test]
    fn a_removal_stops_every_tab_opened_before_it_and_none_opened_after() {
        assert_eq!(removed_key("juror/v1/x/1"), "juror-removed/juror/v1/x/1");
        assert_eq!(removal_record(1_795_300_000_123.0), "1795300000123");
        assert!(removed_since(Some(&removal_record(150.0)), 100.0));
        assert!(!removed_since(None, 100.0));
        assert!(
            removed_since(Some("150"), 100.0),
            "removed after the tab opened"
        );
        assert!(removed_since(Some("100"), 100.0), "in the same millisecond");
        assert!(
            !removed_since(Some("99"), 100.0),
            "a tab opened after the removal saves"
        );
        assert!(
            removed_since(Some("damaged"), 100.0),
            "unreadable: the safe side"
        );
        // A removal record is no session: the first page does not count it.
        assert_eq!(kept_count([removed_key(&key(SHA, 1, None)).as_str()]), 0);
    }
}
