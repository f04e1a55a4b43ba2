//! The browser's localStorage, through gloo-storage. Every failure is a value, never a panic:
//! private windows, disabled storage and a full quota all happen to real annotators.

use gloo_storage::{LocalStorage, Storage};

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
/// When that copy cannot be made (storage full), the original stays where it is.
pub fn quarantine(key: &str, text: &str, now: f64) -> Option<String> {
    let storage = raw().ok()?;
    let aside = format!("juror-quarantine/{now}/{key}");
    storage.set_item(&aside, text).ok()?;
    let _ = storage.remove_item(key);
    Some(aside)
}

/// Saved answers of the same study id and annotator under another version (SHA-256) of the
/// study file, if any: the text of the most recently saved.
pub fn find_other_versions(
    study_id: &str,
    sha256: &str,
    slot: u32,
    id: Option<&str>,
) -> Option<String> {
    let storage = raw().ok()?;
    let suffix = match id {
        Some(id) => format!("/{slot}/{id}"),
        None => format!("/{slot}"),
    };
    let mut best: Option<(f64, String)> = None;
    for i in 0..storage.length().unwrap_or(0) {
        let Some(key) = storage.key(i).ok().flatten() else {
            continue;
        };
        if !key.starts_with("juror/v1/") || !key.ends_with(&suffix) || key.contains(sha256) {
            continue;
        }
        let Some(text) = storage.get_item(&key).ok().flatten() else {
            continue;
        };
        if let Ok(envelope) = juror_core::session::store::read(&text)
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
