//! When the annotator's code loads, and what it holds meanwhile.
//!
//! The release build (the `split` feature) cuts the annotator's page into wasm modules fetched
//! in turn (docs/loading.md): the first shows the study's welcome page as DOM nodes
//! ([`first`], [`first_page`]); the app (`src/main.rs`) and the session ([`later`]) follow once
//! it is painted; the pages for no study ([`no_study`]) only when one is shown. [`study`] reads
//! the study's text for all of them. What these steps share lives in one [`State`], the shell's
//! only thread-local.

mod first;
mod first_page;
pub mod later;
mod no_study;
pub mod ratings_reader;
mod study;

use std::cell::RefCell;

use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::Closure;

pub use first::{check, has_saved, load_failed, mount_app, paint, started, take, writer};
pub use no_study::NoStudyPage;
pub use study::{
    Front, LOADING_SHOWN_AFTER_MS, Load, Opener, annotator_from_address, media_base, open_any,
    peek_compiled, read_compiled, read_study,
};

thread_local! {
    static STATE: RefCell<State> = const {
        RefCell::new(State {
            first: first::First::NONE,
            page: None,
            pressed: false,
            watching: false,
        })
    };
}

/// What the loading steps share, for the page's life.
pub struct State {
    /// What the first module read and was told ([`first`]).
    first: first::First,
    /// The `<main>` the first module put on the page, until the app replaces it ([`first_page`]).
    page: Option<web_sys::Element>,
    /// Whether a pointer or a key is down on the page ([`watch_presses`]).
    pressed: bool,
    /// Whether [`watch_presses`] has been called.
    watching: bool,
}

/// Runs `f` on the [`State`] (never from inside another call of it).
fn with<R>(f: impl FnOnce(&mut State) -> R) -> R {
    STATE.with_borrow_mut(f)
}

/// Notes, for the page's life, whether a pointer or a key is down ([`pressed`]) (from the
/// first call on: later ones do nothing).
pub fn watch_presses() {
    if with(|s| std::mem::replace(&mut s.watching, true)) {
        return;
    }
    let Some(window) = web_sys::window() else {
        return;
    };
    let press = Closure::<dyn Fn()>::new(|| with(|s| s.pressed = true));
    let release = Closure::<dyn Fn()>::new(|| with(|s| s.pressed = false));
    for (name, listener) in [
        ("pointerdown", &press),
        ("keydown", &press),
        ("pointerup", &release),
        ("pointercancel", &release),
        ("keyup", &release),
    ] {
        let _ = window.add_event_listener_with_callback(name, listener.as_ref().unchecked_ref());
    }
    // Listeners for the page's life, installed once: nothing ever removes them (keeping them
    // in the state instead costs the first download the code that would drop them).
    press.forget();
    release.forget();
}

/// Whether a pointer or a key is down on the page now: a change that would replace what the
/// annotator is pressing waits until it is up (a button swapped for its twin between the press
/// and the release loses the click: the two land on different elements).
pub fn pressed() -> bool {
    with(|s| s.pressed)
}
