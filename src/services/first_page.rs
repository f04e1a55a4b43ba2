//! The study's welcome page built as DOM nodes, before the app's code is in (`crate::first`
//! decides when): the same markup as the app's own welcome page (`pages::Welcome` with
//! `StartActions` and the "Loading…" of a session still on its way), which replaces it.
//! `tests/e2e/first-page.spec.ts` compares the two for every example study.

use std::cell::RefCell;

use juror_core::front::cover::Cover;
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::Closure;
use web_sys::{Document, Element};

thread_local! {
    /// The `<main>` this module put on the page, until the app replaces it.
    static PAGE: RefCell<Option<Element>> = const { RefCell::new(None) };
}

/// What the welcome page shows: the cover, this annotator's number of trials, and the study's
/// duration and sending notice as the app words them.
pub struct Shown<'a> {
    pub cover: &'a Cover,
    pub trials: usize,
    pub minutes: Option<String>,
    pub sending: Option<String>,
}

/// Puts the welcome page on the page; `on_start` runs when Start is pressed. The page's title
/// becomes the study's, as the app's welcome page sets it.
pub fn show(shown: &Shown, on_start: impl FnOnce() + 'static) {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    document.set_title(&format!("{} — Juror", shown.cover.title));
    let Some((main, start)) = welcome(&Builder(&document), shown) else {
        return;
    };
    let on_click = Closure::once_into_js(on_start);
    let _ = start.add_event_listener_with_callback("click", on_click.unchecked_ref());
    if let Some(body) = document.body() {
        let _ = body.append_child(&main);
    }
    PAGE.set(Some(main));
}

/// The page's `<main>` and its Start button.
fn welcome(b: &Builder, shown: &Shown) -> Option<(Element, Element)> {
    let cover = shown.cover;
    let main = b.el("main", &[("id", "main")])?;
    let attrs = [("class", "welcome"), ("aria-labelledby", "study-title")];
    let section = b.child(&main, "section", &attrs)?;
    b.text(
        &b.child(&section, "h1", &[("id", "study-title")])?,
        &cover.title,
    );
    if let Some(description) = &cover.description {
        let div = b.child(&section, "div", &[("class", "markdown")])?;
        super::dom::fill_rich(&div, &crate::components::rich::tree(description));
    }
    let facts = b.child(&section, "dl", &[("class", "facts")])?;
    let trials = shown.trials.to_string();
    let minutes = shown.minutes.as_deref();
    let rows = [
        Some(("Pages to judge", trials.as_str())),
        minutes.map(|m| ("Estimated time", m)),
    ];
    for (term, value) in rows.into_iter().flatten() {
        let row = b.child(&facts, "div", &[])?;
        b.text(&b.child(&row, "dt", &[])?, term);
        b.text(&b.child(&row, "dd", &[])?, value);
    }
    let reassure = b.child(&section, "p", &[("class", "reassure")])?;
    b.text(&reassure, REASSURE);
    if cover.consent {
        b.text(&reassure, CONSENT);
    }
    if let Some(text) = &shown.sending {
        b.text(
            &b.child(&section, "p", &[("class", "reassure sending")])?,
            text,
        );
    }
    let actions = b.child(&section, "div", &[("class", "actions")])?;
    let attrs = [("type", "button"), ("id", "start"), ("class", "primary")];
    let start = b.child(&actions, "button", &attrs)?;
    b.text(&start, "Start");
    let restore = b.child(
        &section,
        "details",
        &[("class", "restore"), ("id", "restore")],
    )?;
    b.text(
        &b.child(&restore, "summary", &[])?,
        "Continue from a downloaded ratings file",
    );
    b.text(&b.child(&restore, "p", &[])?, RESTORE);
    loading(b, &restore);
    if let Some(contact) = &cover.contact {
        let p = b.child(&section, "p", &[("class", "contact")])?;
        b.text(&p, "Questions? ");
        match juror_core::base::url::split_email(contact) {
            Some((before, address, after)) => {
                b.text(&p, before);
                let href = format!("mailto:{address}");
                b.text(&b.child(&p, "a", &[("href", &href)])?, address);
                b.text(&p, after);
            }
            None => b.text(&p, contact),
        }
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
        let Some(document) = web_sys::window().and_then(|w| w.document()) else {
            return;
        };
        let b = Builder(&document);
        let Some(main) = b.el("main", &[("id", "main")]) else {
            return;
        };
        failed(&b, &main);
        if let Some(body) = document.body() {
            let _ = body.append_child(&main);
        }
        PAGE.set(Some(main));
    }
}

/// Takes the page off, for the app to put its own in its place.
pub fn remove() {
    if let Some(main) = PAGE.take() {
        main.remove();
    }
}

const REASSURE: &str = "Your answers are saved in this browser as you go, and the outputs you judge are shown without the names of the systems that wrote them.";
const CONSENT: &str = " You will be asked for your consent before anything is recorded.";
const FAILED: &str = "Check that you are online, then reload the page. Answers already given are kept in this browser.";
const RESTORE: &str = "If you started on another device or browser, open the ratings file you downloaded there to continue where you stopped.";

/// Empties the page's `<main>` and builds into it; false if this module has no page up.
fn replace_with(build: impl FnOnce(&Builder, &Element)) -> bool {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else {
        return false;
    };
    PAGE.with_borrow(|page| {
        let Some(main) = page else {
            return false;
        };
        main.set_text_content(None);
        build(&Builder(&document), main);
        true
    })
}

fn loading(b: &Builder, parent: &Element) {
    if let Some(p) = b.child(parent, "p", &[("class", "loading"), ("role", "status")]) {
        b.text(&p, "Loading…");
    }
}

fn failed(b: &Builder, parent: &Element) -> Option<()> {
    let attrs = [("class", "load-failed"), ("role", "alert")];
    let section = b.child(parent, "section", &attrs)?;
    b.text(
        &b.child(&section, "h1", &[])?,
        "This page could not be loaded",
    );
    b.text(&b.child(&section, "p", &[])?, FAILED);
    let reload = b.child(
        &section,
        "button",
        &[("type", "button"), ("class", "primary")],
    )?;
    b.text(&reload, "Reload");
    let on_click = Closure::<dyn Fn()>::new(super::offline::reload);
    let _ = reload.add_event_listener_with_callback("click", on_click.as_ref().unchecked_ref());
    on_click.forget();
    Some(())
}

/// Elements and text nodes of one document.
struct Builder<'a>(&'a Document);

impl Builder<'_> {
    fn el(&self, tag: &str, attrs: &[(&str, &str)]) -> Option<Element> {
        let element = self.0.create_element(tag).ok()?;
        for (name, value) in attrs {
            element.set_attribute(name, value).ok()?;
        }
        Some(element)
    }

    fn child(&self, parent: &Element, tag: &str, attrs: &[(&str, &str)]) -> Option<Element> {
        let element = self.el(tag, attrs)?;
        parent.append_child(&element).ok()?;
        Some(element)
    }

    fn text(&self, parent: &Element, text: &str) {
        let _ = parent.append_child(&self.0.create_text_node(text));
    }
}
