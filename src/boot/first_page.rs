//! The study's welcome page as DOM nodes, before the app's code is in (`first` decides when),
//! built by the welcome page's one builder (`services::welcome_page`), which the app's page,
//! replacing this one, mounts too; and the "Loading…" of a Start pressed before the session's
//! code is in, or the page for code that could not be fetched.

use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::Closure;
use web_sys::Element;

use super::with;
use crate::services::welcome_page::{self as welcome, Builder, Shown, failed, loading};

/// Puts the welcome page on the page; `on_start` runs when Start is pressed. The page's title
/// becomes the study's, as the app's welcome page sets it.
pub fn show(shown: &Shown, on_start: impl FnOnce() + 'static) {
    let Some(b) = Builder::new() else {
        return;
    };
    b.0.set_title(&format!("{} — Juror", shown.cover.title));
    let Some((main, start)) = page(&b, shown) else {
        return;
    };
    let on_click = Closure::once_into_js(on_start);
    let _ = start.add_event_listener_with_callback("click", on_click.unchecked_ref());
    if let Some(body) = b.0.body() {
        let _ = body.append_child(&main);
    }
    with(|s| s.page = Some(main));
}

/// The page's `<main>` and its Start button.
fn page(b: &Builder, shown: &Shown) -> Option<(Element, Element)> {
    let main = b.el("main", &[("id", "main")])?;
    let attrs = [("class", "welcome"), ("aria-labelledby", "study-title")];
    let section = b.child(&main, "section", &attrs)?;
    welcome::head(b, &section, shown)?;
    let start = welcome::start_button(b, &b.child(&section, "div", &[("class", "actions")])?)?;
    let attrs = [("class", "restore"), ("id", "restore")];
    let restore = b.child(&section, "details", &attrs)?;
    welcome::restore_intro(b, &restore)?;
    loading(b, &restore);
    if let Some(contact) = &shown.cover.contact {
        welcome::contact_line(
            b,
            &b.child(&section, "p", &[("class", "contact")])?,
            contact,
        )?;
    }
    Some((main, start))
}

/// Replaces the page with "Loading…", as the app does when Start is pressed before the session's
/// code is in.
pub fn show_loading() {
    replace_with(loading);
}

/// Replaces the page (or fills an empty one) with the app's own page for code that could not be
/// fetched: what to do, and Reload.
pub fn show_failed() {
    let built = replace_with(|b, main| {
        failed(b, main);
    });
    if !built {
        let Some(b) = Builder::new() else {
            return;
        };
        let Some(main) = b.el("main", &[("id", "main")]) else {
            return;
        };
        failed(&b, &main);
        if let Some(body) = b.0.body() {
            let _ = body.append_child(&main);
        }
        with(|s| s.page = Some(main));
    }
}

/// Takes the page off, for the app to put its own in its place.
pub fn remove() {
    if let Some(main) = with(|s| s.page.take()) {
        main.remove();
    }
}

/// Empties the page's `<main>` and builds into it; false if this module has no page up.
fn replace_with(build: impl FnOnce(&Builder, &Element)) -> bool {
    let (Some(b), Some(main)) = (Builder::new(), with(|s| s.page.clone())) else {
        return false;
    };
    main.set_text_content(None);
    build(&b, &main);
    true
}
