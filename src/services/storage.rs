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
pub fn quarantine(key: &str, text: &str, now: f64) -> Option<String> {
    let storage = raw().ok()?;
    let aside = format!("juror-quarantine/{now}/{key}");
    storage.set_item(&aside, text).ok()?;
    let _ = storage.remove_item(key);
    Some(aside)
}

fn raw() -> Result<web_sys::Storage, String> {
    // `LocalStorage::raw()` panics when storage is unavailable; ask the window directly first.
    let window = web_sys::window().ok_or("no window")?;
    match window.local_storage() {
        Ok(Some(_)) => Ok(LocalStorage::raw()),
        _ => Err("This browser does not allow Juror to save answers (private mode or disabled storage). Your answers are kept only while this tab is open: download a backup before closing it.".to_owned()),
    }
}
