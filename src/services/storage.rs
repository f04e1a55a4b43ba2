//! The browser's localStorage, through gloo-storage. Every failure is a value, never a panic:
//! private windows, disabled storage and a full quota all happen to real annotators.

use gloo_storage::{LocalStorage, Storage};
use juror_core::plan::Annotator;
use juror_core::session::open::Stored;
use juror_core::session::store;

/// Reads the text stored under `key`.
///
/// # Errors
/// When storage cannot be used at all.
pub fn read(key: &str) -> Result<Option<String>, String> {
    let storage = raw()?;
    storage
        .get_item(key)
        .map_err(|_| "This browser does not let Juror read its saved answers.".to_owned())
}

/// What storage holds under `key`, the session key of `annotator` for the study file with
/// SHA-256 `sha256`: when nothing, the answers the annotator saved for another version of the
/// study file (`find_other_versions`), for the core's `session::open::open`.
pub fn stored(study_id: &str, sha256: &str, annotator: &Annotator, key: &str) -> Stored {
    match read(key) {
        Ok(Some(text)) => Stored::Text(text),
        Ok(None) => Stored::Nothing {
            earlier: find_other_versions(study_id, sha256, annotator.slot, annotator.id.as_deref()),
        },
        Err(problem) => Stored::Unavailable(problem),
    }
}

/// Stores `text` under `key`.
///
/// # Errors
/// A sentence for the annotator, e.g. when storage is full.
pub fn write(key: &str, text: &str) -> Result<(), String> {
    raw()?.set_item(key, text).map_err(|_| {
        "Your last answer could not be saved in this browser (storage is full or disabled). \
         Download a backup now so that nothing is lost."
            .to_owned()
    })
}

/// Copies the text under `key` to a quarantine key and removes it, returning the new key.
/// An identical copy already set aside is not made twice, and the oldest copies beyond
/// `store::QUARANTINE_LIMIT` make room (`store::quarantine_plan`). When the copy cannot be made
/// (storage full), the original stays where it is.
pub fn quarantine(key: &str, text: &str, now: f64) -> Option<String> {
    let storage = raw().ok()?;
    let existing: Vec<(String, String)> = entries(&storage)
        .filter(|(k, _)| k.starts_with(store::QUARANTINE_PREFIX))
        .collect();
    // `Date.now()` is whole milliseconds; `as` saturates anything else.
    let aside = store::quarantine_key(key, now as u64);
    match store::quarantine_plan(text, &existing) {
        None => {}
        Some(drop) => {
            for old in drop {
                let _ = storage.remove_item(&old);
            }
            storage.set_item(&aside, text).ok()?;
        }
    }
    let _ = storage.remove_item(key);
    Some(aside)
}

/// Every key and text in storage.
fn entries(storage: &web_sys::Storage) -> impl Iterator<Item = (String, String)> + '_ {
    (0..storage.length().unwrap_or(0)).filter_map(|i| {
        let key = storage.key(i).ok().flatten()?;
        let text = storage.get_item(&key).ok().flatten()?;
        Some((key, text))
    })
}

/// The sessions and set-aside copies of the study ids `ids` this browser keeps for the
/// annotator `who` the address names, newest first, with their texts, and how many others of
/// the study it keeps (`store::offered`): what the problems page offers to download when a study
/// cannot be opened. Never another participant's: a shared computer keeps theirs too.
pub fn saved_answers(ids: &[String], who: Option<&store::Claimant>) -> store::Offer {
    let Ok(storage) = raw() else {
        return store::Offer::default();
    };
    store::offered(entries(&storage).collect(), ids, who)
}

/// How many sets of answers Juror keeps in this browser (`store::kept_count`), all the open
/// page tells of them.
pub fn kept_count() -> usize {
    let Ok(storage) = raw() else {
        return 0;
    };
    let keys: Vec<String> = (0..storage.length().unwrap_or(0))
        .filter_map(|i| storage.key(i).ok().flatten())
        .collect();
    store::kept_count(keys.iter().map(String::as_str))
}

/// Removes `key` (a set-aside copy the annotator has downloaded).
pub fn remove(key: &str) {
    if let Ok(storage) = raw() {
        let _ = storage.remove_item(key);
    }
}

/// Saved answers of the same study id and annotator under another version (SHA-256) of the
/// study file, if any: the text of the most recently saved. Keys are compared part by part, so
/// that slot 5 with id "1" is not slot 1.
pub fn find_other_versions(
    study_id: &str,
    sha256: &str,
    slot: u32,
    id: Option<&str>,
) -> Option<String> {
    let storage = raw().ok()?;
    let mut best: Option<(f64, String)> = None;
    for (key, text) in entries(&storage) {
        let Some(k) = store::parse_key(&key) else {
            continue;
        };
        if k.study_sha256 == sha256 || k.slot != slot || k.id != id {
            continue;
        }
        if let Ok(envelope) = store::read(&text)
            && envelope.study_id == study_id
            && best.as_ref().is_none_or(|(t, _)| envelope.saved_at > *t)
        {
            best = Some((envelope.saved_at, text));
        }
    }
    best.map(|(_, text)| text)
}

/// Calls `f(key, new text)` whenever another tab of this site changes storage.
pub fn on_change(f: impl Fn(String, String) + 'static) {
    use wasm_bindgen::JsCast;
    let Some(window) = web_sys::window() else {
        return;
    };
    let closure = wasm_bindgen::prelude::Closure::<dyn Fn(web_sys::StorageEvent)>::new(
        move |ev: web_sys::StorageEvent| {
            if let (Some(key), Some(text)) = (ev.key(), ev.new_value()) {
                f(key, text);
            }
        },
    );
    let _ = window.add_event_listener_with_callback("storage", closure.as_ref().unchecked_ref());
    closure.forget();
}

fn raw() -> Result<web_sys::Storage, String> {
    // `LocalStorage::raw()` panics when storage is unavailable; ask the window directly first.
    let window = web_sys::window().ok_or("no window")?;
    match window.local_storage() {
        Ok(Some(_)) => Ok(LocalStorage::raw()),
        _ => Err("This browser does not allow Juror to save answers (private mode or disabled storage). Your answers are kept only while this tab is open: download a backup before closing it.".to_owned()),
    }
}

/// Removes every entry holding the answers of annotator `slot`/`id` to the study `study_id`
/// (file SHA-256 `sha256`), as the core decides (`store::holds_answers_of`): "Remove my answers
/// from this browser" on a shared computer. Returns how many entries were removed.
///
/// # Errors
/// When storage cannot be used, or an entry is still there afterwards.
pub fn remove_answers_of(
    study_id: &str,
    sha256: &str,
    slot: u32,
    id: Option<&str>,
) -> Result<usize, String> {
    let storage = raw()?;
    let keys: Vec<String> = entries(&storage)
        .filter(|(k, t)| store::holds_answers_of(k, t, study_id, sha256, slot, id))
        .map(|(k, _)| k)
        .collect();
    for key in &keys {
        let _ = storage.remove_item(key);
    }
    if keys
        .iter()
        .any(|k| storage.get_item(k).ok().flatten().is_some())
    {
        return Err(
            "This browser did not let Juror remove all of your answers. Clear this \
                    site's data in the browser's settings instead."
                .to_owned(),
        );
    }
    Ok(keys.len())
}
