//! Sealing and publishing: blinding that survives "view source".
//!
//! The study file is public (it is served next to the app), so the system ids in it are visible
//! to anyone who opens it. [`seal`] replaces every system id with an opaque token derived from a
//! secret that is then thrown away, and returns the [`SealKey`] (token → system id) for the
//! researcher to keep. The analysis unblinds ratings with the key.
//!
//! [`publish`] goes further, for what `juror publish` serves: tokens of their own for each
//! item's outputs, the plans computed beforehand, and the attention checks (with their answers)
//! kept in the key only. It needs the plan of every slot, so this module sits above both the
//! study and the plan. [`check`](fn@check) holds the rules `juror publish` applies before it
//! writes anything (a study already sealed, text naming a system, a fail code that can never
//! apply, media outside the study's folder, how many slots), on what the caller read, and
//! [`not_published`] what a site must not serve: nothing here touches the file system.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::plan::{Annotator, Planner};
use crate::study::analysis_plan::RawAnalysis;
use crate::study::raw::{RawAnnotatorRef, RawAttentionCheck, RawPlannedTrial, RawShown, RawStudy};
use crate::study::{Study, participant_code, personal_key};

mod check;
pub mod prepare;

pub use check::{
    Candidate, Media, NotPublished, Problem, SITE_FOLDER, Severity, SlotsProblem, check,
    compiled_not_published, default_slots, inside_folder, key_file_name, media, media_files,
    not_published, site_path, slots,
};

/// The `format` of key files.
pub const KEY_FORMAT_V1: &str = "juror.key/1";

/// The researcher's key to a sealed study.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SealKey {
    /// Always `"juror.key/1"`.
    pub format: String,
    /// The sealed study's id.
    pub study: String,
    /// Token → original system id.
    pub systems: BTreeMap<String, String>,
    /// The attention checks of a study written by [`publish`], as the original study wrote
    /// them (system ids, accepted answers): the published study leaves them out.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub attention_checks: Vec<RawAttentionCheck>,
    /// The analysis plan of a study written by [`publish`] (it names systems, so the published
    /// study leaves it out).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub analysis: Option<RawAnalysis>,
    /// The secret that platform participants' pseudonyms are keyed with
    /// ([`crate::base::pseudonym`]); keys written before it have none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ids_secret: Option<String>,
    /// The study's `metadata` (free-form notes that may name systems: the sealed or published
    /// study leaves it out).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<BTreeMap<String, serde_json::Value>>,
}

impl SealKey {
    /// The accepted answers of the attention check on `item`, when the key keeps them.
    pub fn attention_check(&self, item: &str) -> Option<&RawAttentionCheck> {
        self.attention_checks.iter().find(|c| match c {
            RawAttentionCheck::Rating { item: i, .. }
            | RawAttentionCheck::Preference { item: i, .. } => i == item,
        })
    }
}

/// The systems' names by token, for the researcher's preview of a published study: read from
/// the key `text` (`juror.key/1`, as `juror publish` writes it) of `study`, which must hold every
/// token the study has. The page reads it in memory only: the key is never stored or sent.
///
/// # Errors
/// A sentence: the file is not a key, is the key of another study, or of another publication of
/// this one (its tokens differ).
pub fn preview_names(text: &str, study: &Study) -> Result<BTreeMap<String, String>, String> {
    use serde_json::Value;
    let not_a_key = || format!("this file is not a key written by juror publish ({KEY_FORMAT_V1})");
    let value: Value = serde_json::from_str(text).map_err(|_| not_a_key())?;
    if value.get("format").and_then(Value::as_str) != Some(KEY_FORMAT_V1) {
        return Err(not_a_key());
    }
    let id = value
        .get("study")
        .and_then(Value::as_str)
        .unwrap_or_default();
    if id != study.id() {
        return Err(format!(
            "this is the key of the study \"{id}\", not of \"{}\"",
            study.id()
        ));
    }
    let names: BTreeMap<String, String> = crate::base::order::map(
        value
            .get("systems")
            .and_then(Value::as_object)
            .into_iter()
            .flatten()
            .filter_map(|(token, name)| Some((token.clone(), name.as_str()?.to_owned()))),
    );
    let missing = study
        .systems()
        .iter()
        .filter(|t| !names.contains_key(*t))
        .count();
    if missing > 0 {
        return Err(format!(
            "this key is of another publication of the study: {missing} of the {} output tokens \
             served are not in it; choose the key written when this copy was published",
            study.systems().len()
        ));
    }
    Ok(names)
}

/// Replaces every system id in `raw` with a token `s-` + 12 hex digits of
/// `SHA-256("juror/seal/v1" ‖ secret ‖ id)`. The sealed study lists its systems in token order,
/// so the order of the original list does not leak either.
///
/// `secret` must come from a real source of randomness and be discarded after: anyone who has it
/// can recompute the tokens of guessed ids.
pub fn seal(raw: &RawStudy, secret: &[u8; 32]) -> (RawStudy, SealKey) {
    let token = |id: &str| {
        let mut h = Sha256::new();
        h.update(b"juror/seal/v1\0");
        h.update(secret);
        h.update(id.as_bytes());
        let digest = h.finalize();
        let hex: String = digest[..6].iter().map(|b| format!("{b:02x}")).collect();
        format!("s-{hex}")
    };
    let map: BTreeMap<String, String> = raw.systems.iter().map(|s| (s.clone(), token(s))).collect();
    let rename = |id: &str| map.get(id).cloned().unwrap_or_else(|| id.to_owned());

    let mut sealed = raw.clone();
    sealed.systems = raw.systems.iter().map(|s| rename(s)).collect();
    sealed.systems.sort();
    for item in &mut sealed.items {
        item.outputs = std::mem::take(&mut item.outputs)
            .into_iter()
            .map(|(k, v)| (rename(&k), v))
            .collect();
    }
    for task in &mut sealed.design.tasks {
        if let Some(pairs) = &mut task.pairs {
            if let Some(anchor) = &mut pairs.anchor {
                *anchor = rename(anchor);
            }
            for pair in pairs.list.iter_mut().flatten() {
                for system in pair.iter_mut() {
                    *system = rename(system);
                }
            }
        }
    }
    for check in &mut sealed.design.attention_checks {
        match check {
            RawAttentionCheck::Rating { system, .. } => *system = rename(system),
            RawAttentionCheck::Preference { accept, .. } => {
                for s in accept.iter_mut().flatten() {
                    *s = rename(s);
                }
            }
        }
    }
    let key = SealKey {
        format: KEY_FORMAT_V1.to_owned(),
        study: raw.id.clone(),
        systems: map.into_iter().map(|(id, t)| (t, id)).collect(),
        attention_checks: Vec::new(),
        // The plan names systems: it goes with the key, which the analysis reads it from.
        analysis: key_plan(sealed.analysis.take()),
        ids_secret: Some(crate::base::pseudonym::ids_secret(secret)),
        metadata: sealed.metadata.take(),
    };
    (sealed, key)
}

/// What `juror publish` serves, blind by construction: every slot's plan computed now from
/// the original `study` (`slots` of them), and each item's outputs under tokens of their own
/// (`s-` + 12 hex digits of `SHA-256("juror/publish/v1" ‖ secret ‖ item ‖ system)`), so that
/// nothing served or downloaded links the outputs of one system across items. The published
/// study has no assignment, pairs or attention check (the plans carry their effect); the key
/// maps every token back and keeps the attention checks, answers and all, as the original
/// wrote them. Each of `annotators` (ids as items' `for` names them) gets a plan of their own
/// in `design.personal_plans`, with their personal items: the n-th does slot n's shared items.
/// Plans and items' `for` name them by [`personal_key`], never by id.
///
/// `study` must be `raw` validated; `secret` must come from a real source of randomness and be
/// discarded after.
pub fn publish(
    raw: &RawStudy,
    study: &Study,
    secret: &[u8; 32],
    slots: u32,
    annotators: &[String],
) -> (RawStudy, SealKey) {
    let token = |item: &str, system: &str| {
        let mut h = Sha256::new();
        h.update(b"juror/publish/v1\0");
        h.update(secret);
        h.update(item.as_bytes());
        h.update(b"\0");
        h.update(system.as_bytes());
        let digest = h.finalize();
        let hex: String = digest[..6].iter().map(|b| format!("{b:02x}")).collect();
        format!("s-{hex}")
    };
    let mut published = raw.clone();
    let mut systems = BTreeMap::new();
    for item in &mut published.items {
        item.outputs = std::mem::take(&mut item.outputs)
            .into_iter()
            .map(|(system, output)| {
                let t = token(&item.id, &system);
                systems.insert(t.clone(), system);
                (t, output)
            })
            .collect();
    }
    published.systems = systems.keys().cloned().collect();
    // Participants are named by key, never by their id: the published study is public.
    for item in &mut published.items {
        for who in &mut item.for_annotators {
            if let RawAnnotatorRef::Id(id) = who {
                *id = personal_key(&raw.id, &participant_code(id));
            }
        }
    }
    published.design.assignment = None;
    published.design.attention_checks = Vec::new();
    published.analysis = None;
    published.metadata = None;
    for task in &mut published.design.tasks {
        task.pairs = None;
    }
    // One planner for every slot: the assignment of items to slots is computed once.
    let planner = Planner::new(study);
    let stored = |annotator: &Annotator| -> Vec<RawPlannedTrial> {
        planner
            .plan(annotator)
            .trials
            .iter()
            .map(|trial| {
                let item = &study.items()[trial.item].id;
                RawPlannedTrial {
                    task: study.design().tasks[trial.task].id.clone(),
                    item: item.clone(),
                    shown: trial
                        .shown
                        .iter()
                        .map(|s| RawShown {
                            output: token(item, &study.systems()[s.system]),
                            label: s.label.clone(),
                        })
                        .collect(),
                }
            })
            .collect()
    };
    let plans = (1..=slots.max(1))
        .map(|slot| stored(&Annotator::slot(slot)))
        .collect();
    // The n-th listed annotator does slot n's shared items and their own.
    let personal: BTreeMap<String, Vec<RawPlannedTrial>> = annotators
        .iter()
        .zip(1u32..)
        .filter(|(id, _)| has_personal_items(raw, id))
        .map(|(id, slot)| {
            let code = participant_code(id);
            let annotator = Annotator {
                slot,
                id: Some(code.clone()),
                platform: None,
            };
            (personal_key(&raw.id, &code), stored(&annotator))
        })
        .collect();
    published.design.personal_plans = (!personal.is_empty()).then_some(personal);
    published.design.plans = Some(plans);
    let key = SealKey {
        format: KEY_FORMAT_V1.to_owned(),
        study: raw.id.clone(),
        systems,
        attention_checks: raw.design.attention_checks.clone(),
        analysis: key_plan(raw.analysis.clone()),
        ids_secret: Some(crate::base::pseudonym::ids_secret(secret)),
        metadata: raw.metadata.clone(),
    };
    (published, key)
}

/// The study's `analysis` section as the key keeps it. The study was validated with its plan
/// (`analysis::plan_reader::validate`, as `juror seal` and `juror publish` open it), so the
/// section reads.
fn key_plan(section: Option<serde_json::Value>) -> Option<RawAnalysis> {
    section.and_then(|v| serde_json::from_value(v).ok())
}

/// Whether an item of `raw` is `for` the annotator id `id` (compared as
/// [`participant_code`] keeps ids).
pub fn has_personal_items(raw: &RawStudy, id: &str) -> bool {
    let code = participant_code(id);
    raw.items.iter().any(|item| {
        item.for_annotators
            .iter()
            .any(|a| matches!(a, RawAnnotatorRef::Id(x) if participant_code(x) == code))
    })
}

/// Whether every system id is a token [`seal`] makes (`s-` and 12 lowercase hex digits): the
/// study names no system.
pub fn is_sealed(systems: &[String]) -> bool {
    systems.iter().all(|id| {
        id.strip_prefix("s-").is_some_and(|hex| {
            hex.len() == 12
                && hex
                    .bytes()
                    .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
        })
    })
}

/// Places in the id and free text of `raw` (instructions, prompts, outputs, ...) where a system id
/// appears as a whole word, ignoring case: sealing cannot hide those, the researcher must
/// reword them. Returns `(JSON path, system id)` pairs.
pub fn mentions<'a>(raw: &'a RawStudy) -> Vec<(String, String)> {
    let mut texts: Vec<(String, &'a str)> = Vec::new();
    let mut push = |path: String, text: Option<&'a str>| {
        if let Some(t) = text {
            texts.push((path, t));
        }
    };
    push("id".into(), Some(&raw.id));
    push("title".into(), Some(&raw.title));
    push("description".into(), raw.description.as_deref());
    push("instructions".into(), raw.instructions.as_deref());
    // The debrief is shown after the ratings are saved, but it is in the study file every
    // annotator is served from the start: it must not name the systems either.
    push("debrief".into(), raw.debrief.as_deref());
    for (i, task) in raw.design.tasks.iter().enumerate() {
        push(format!("design.tasks[{i}].title"), task.title.as_deref());
        push(
            format!("design.tasks[{i}].instructions"),
            task.instructions.as_deref(),
        );
    }
    for (i, item) in raw.items.iter().enumerate() {
        push(format!("items[{i}].prompt"), Some(&item.prompt));
        push(format!("items[{i}].context"), item.context.as_deref());
        for (system, output) in &item.outputs {
            push(format!("items[{i}].outputs.{system}"), Some(output));
        }
    }
    let mut found = Vec::new();
    for (path, text) in texts {
        let lower = text.to_lowercase();
        for id in &raw.systems {
            if contains_word(&lower, &id.to_lowercase()) {
                found.push((path.clone(), id.clone()));
            }
        }
    }
    found
}

fn contains_word(haystack: &str, needle: &str) -> bool {
    if needle.is_empty() {
        return false;
    }
    // `-` and `.` separate words here: "hare-personalization" mentions "hare".
    let is_word = |c: char| c.is_alphanumeric() || c == '_';
    haystack.match_indices(needle).any(|(i, _)| {
        let before = haystack[..i].chars().next_back();
        let after = haystack[i + needle.len()..].chars().next();
        !before.is_some_and(is_word) && !after.is_some_and(is_word)
    })
}

#[cfg(test)]
mod tests {
    use super::contains_word;

    #[test]
    fn sealed_means_every_id_is_a_token() {
        let ids = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert!(super::is_sealed(&ids(&[
            "s-0123456789ab",
            "s-ffffffffffff"
        ])));
        assert!(!super::is_sealed(&ids(&["s-0123456789ab", "gpt-4"])));
        assert!(!super::is_sealed(&ids(&["s-0123456789AB"])));
        assert!(!super::is_sealed(&ids(&["s-0123456789a"])));
        assert!(!super::is_sealed(&ids(&["t-0123456789ab"])));
    }

    /// The debrief is served with the study: a system named there is found like anywhere else,
    /// and the example `hare-personalization.json` describes its methods without naming them.
    #[test]
    fn a_debrief_naming_a_system_is_found() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../assets/studies/hare-personalization.json"
        );
        let text = std::fs::read_to_string(path).unwrap_or_default();
        let mut raw: super::RawStudy =
            serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}"));
        let in_debrief = |raw: &super::RawStudy| {
            super::mentions(raw)
                .into_iter()
                .filter(|(at, _)| at == "debrief")
                .map(|(_, system)| system)
                .collect::<Vec<_>>()
        };
        assert!(raw.debrief.is_some());
        assert_eq!(in_debrief(&raw), Vec::<String>::new());
        raw.debrief = Some("You compared **HARE** with three baselines.".into());
        assert_eq!(in_debrief(&raw), ["hare"]);
    }

    /// The researcher's metadata (which may name systems and checkpoints) goes to the key,
    /// never to the sealed or published study; a study served with it is not what publish
    /// writes.
    #[test]
    fn metadata_moves_to_the_key() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../assets/studies/pandalm.json"
        );
        let text = std::fs::read_to_string(path).unwrap_or_default();
        let mut raw: super::RawStudy =
            serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}"));
        let notes: std::collections::BTreeMap<String, serde_json::Value> = serde_json::from_str(
            r#"{"systems": {"llama-7b": {"checkpoint": "ckpt-1200"}}, "collected": "2026-11"}"#,
        )
        .unwrap_or_default();
        raw.metadata = Some(notes.clone());
        let study = crate::study::validate(&raw).unwrap_or_else(|p| panic!("{p}"));
        let (published, key) = super::publish(&raw, &study, &[3; 32], 2, &[]);
        assert_eq!(published.metadata, None);
        assert_eq!(key.metadata, Some(notes.clone()));
        let (sealed, key) = super::seal(&raw, &[3; 32]);
        assert_eq!(sealed.metadata, None);
        assert_eq!(key.metadata, Some(notes));
        assert!(super::not_published(&raw).contains(&super::NotPublished::Metadata));
    }

    #[test]
    fn whole_words_only() {
        assert!(contains_word("the rag system", "rag"));
        assert!(contains_word("rag.", "rag"));
        assert!(!contains_word("fragment", "rag"));
        assert!(contains_word("hare-personalization", "hare"));
        assert!(!contains_word("rag_2", "rag"));
        assert!(!contains_word("anything", ""));
    }

    /// The preview of a published study names the systems from its own key only: another
    /// study's key, another publication's (other tokens) and a file that is not a key are
    /// refused with a sentence.
    #[test]
    fn the_preview_names_systems_from_the_studys_own_key() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../assets/studies/pandalm.json"
        );
        let text = std::fs::read_to_string(path).unwrap_or_default();
        let raw: super::RawStudy = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}"));
        let study = crate::study::validate(&raw).unwrap_or_else(|p| panic!("{p}"));
        let published = |secret: u8| {
            let (out, key) = super::publish(&raw, &study, &[secret; 32], 2, &[]);
            let served = crate::study::validate(&out).unwrap_or_else(|p| panic!("{p}"));
            (served, serde_json::to_string(&key).unwrap_or_default())
        };
        let (served, key) = published(1);
        let names = super::preview_names(&key, &served).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(names.len(), served.systems().len());
        for token in served.systems() {
            assert!(study.systems().contains(&names[token]), "{token}");
        }
        let (_, other_key) = published(2);
        let why = super::preview_names(&other_key, &served).unwrap_err();
        assert!(why.contains("another publication"), "{why}");
        let why = super::preview_names(&key.replace("\"pandalm", "\"other"), &served).unwrap_err();
        assert!(why.contains("the key of the study"), "{why}");
        let why = super::preview_names(&text, &served).unwrap_err();
        assert!(why.contains("not a key"), "{why}");
    }
}
