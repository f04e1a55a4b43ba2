//! The study's welcome page before the app's code is in.
//!
//! The annotator's release build puts the app itself (Leptos and every page) in a wasm of its
//! own (`main.rs`: `#[wasm_split]`), fetched once this module's welcome page is painted (at
//! once when it shows none), with the session's beside it. What the first download
//! carries is this: for the usual link (a compiled study whose text is in, the annotator named
//! by the address, no answers of theirs in this browser) the study's cover is read ahead (no
//! checksum: [`check`] reads the whole text as the app would, after the page is painted and
//! before the app may open it) and its welcome page built as DOM nodes
//! (`first_page`, with the annotator's welcome page's own builder); Start pressed there is remembered.
//! The app then mounts in its place ([`mount_app`]) with the same page, the same focus and open
//! `<details>`, and the study already read ([`take`]). Any other page (no study, one that
//! cannot be opened, a link without an annotator, answers to resume) is the app's alone, once
//! it is in.

use juror_core::plan::mturk_preview;
use juror_core::session::store;

use super::first_page;
use super::study::{
    LOADING_SHOWN_AFTER_MS, Load, annotator_from_address, peek_compiled, read_compiled,
};
use super::{pressed, with};
use crate::annotator::welcome;
use crate::services::{dom, location, storage, study_source};
use crate::session::{StoreWriter, write_store};

/// What this module read and was told, in [`super::State`].
pub(super) struct First {
    /// The study read before the app was in (its address and what it came to), for the app.
    read: Option<(String, Load)>,
    /// `read` came from its cover read ahead ([`peek_compiled`]) and is yet to be [`check`]ed.
    unchecked: bool,
    /// Start was pressed on this module's welcome page.
    started: bool,
    /// The save's writer, named here (see `session::StoreWriter`).
    writer: Option<StoreWriter>,
}

impl First {
    /// Nothing read, nothing told.
    pub(super) const NONE: First = First {
        read: None,
        unchecked: false,
        started: false,
        writer: None,
    };
}

/// Shows the study's welcome page once its text is in (`index.html` started fetching it), if
/// the page would be that welcome page; returns once that is decided, or after
/// [`LOADING_SHOWN_AFTER_MS`] for a study still on its way (the app then says it is loading).
/// The app is fetched only then, so that it does not share the network with the study.
/// Returns whether the welcome page was shown (the session's code is then wanted soon).
///
/// `writer` is the session's writer of saves, kept for [`writer`]: named here, it is compiled
/// into the first module with the helpers it calls (`session::StoreWriter`).
pub async fn paint(writer: StoreWriter) -> bool {
    with(|s| s.first.writer = Some(writer));
    let query = location::query();
    let Some(url) = query.get("study") else {
        return false;
    };
    let assignment = query.get("assignmentId");
    let others = query.has("analyse") || query.has("preview");
    if others || mturk_preview(assignment.as_deref()) {
        return false;
    }
    study_source::early_arrived(&url, LOADING_SHOWN_AFTER_MS).await;
    let Some(text) = study_source::early_text(&url) else {
        return false;
    };
    // The cover read ahead: the checksum and the rest of the study are read by [`check`],
    // once the page is on screen and before the app may open it.
    let load = Load::from_text(url.clone(), text, peek_compiled, true, false);
    let mut shown_page = false;
    // A study with personal plans is left to the app: finding a participant's plan hashes their
    // id (`Cover::trials_for`), code this module does not carry for the rare study that needs it.
    if let Load::Ready(front, ..) = &load
        && front.cover.personal.is_empty()
        && let Some(Ok(annotator)) = annotator_from_address(&front.cover)
        && !has_saved(&front.sha256, &annotator)
    {
        let trials = front.cover.shared_trials_for(&annotator);
        let shown = welcome::shown(front.cover.clone(), trials);
        first_page::show(&shown, start);
        shown_page = true;
    }
    with(|s| {
        s.first.read = Some((url, load));
        s.first.unchecked = true;
    });
    shown_page
}

/// Reads the study [`paint`] read ahead as the app reads it (`read_compiled`: the format, the
/// checksum over the cover and the study, the cover), once: a study that fails those checks
/// is then a study that cannot be opened, whatever its welcome page showed. [`take`] calls it
/// too, so that the app never opens a study that was not checked.
pub fn check() {
    with(|s| {
        let f = &mut s.first;
        if !std::mem::take(&mut f.unchecked) {
            return;
        }
        let Some((url, load)) = &mut f.read else {
            return;
        };
        if let Some(text) = load.text().map(|text| text.to_string()) {
            *load = Load::from_text(url.clone(), Ok(text), read_compiled, true, false);
        }
    });
}

/// Whether this browser holds answers of `annotator` for the study `sha256` (read as text
/// only: what to make of them is the session's).
pub fn has_saved(sha256: &str, annotator: &juror_core::plan::Annotator) -> bool {
    let key = store::key(sha256, annotator.slot, annotator.id.as_deref());
    matches!(storage::read(&key), Ok(Some(_)))
}

fn start() {
    with(|s| s.first.started = true);
    first_page::show_loading();
}

/// The study this module read for `url`, for the app to show (taken once).
pub fn take(url: &str) -> Option<Load> {
    check();
    with(|s| match s.first.read.take() {
        Some((read, load)) if read == url => Some(load),
        other => {
            s.first.read = other;
            None
        }
    })
}

/// The writer of saves [`paint`] was given; `session::write_store` where it was not called (the
/// researcher's page).
pub fn writer() -> StoreWriter {
    with(|s| s.first.writer).unwrap_or(write_store)
}

/// Whether Start was pressed on this module's welcome page.
pub fn started() -> bool {
    with(|s| s.first.started)
}

/// Mounts the app in place of this module's page, once no pointer or key is down (a Start
/// pressed on one page and released on the other would be no click at all), waiting 50 ms at
/// a time, `tries` times at most. `app` is the app's root (`crate::App`, named by `src/main.rs`).
pub fn mount_app<V: leptos::IntoView + 'static>(tries: u8, app: fn() -> V) {
    if tries > 0 && pressed() {
        dom::after(50, move || mount_app(tries - 1, app));
        return;
    }
    let carried = dom::carry();
    first_page::remove();
    leptos::mount::mount_to_body(app);
    dom::carry_over(carried);
}

/// The app's code could not be fetched (offline before the page was ever loaded whole): the
/// page says so and offers Reload.
pub fn load_failed() {
    first_page::show_failed();
}
