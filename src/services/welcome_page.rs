//! The annotator's welcome page built as DOM nodes, the one builder of its markup: the first
//! wasm module shows it before the app's code is in (`src/boot/first_page.rs`), and the app's
//! welcome page mounts the same nodes (`src/annotator/welcome.rs`), so that the page the app puts
//! in place of the first module's is the same page. Also the first module's "Loading…" and the
//! page for code that could not be fetched.

use std::sync::Arc;

use juror_core::front::cover::Cover;
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::Closure;
use web_sys::{Document, Element};

/// What the welcome page shows: the cover, this annotator's number of trials, and the study's
/// duration and sending notice as the page words them (`annotator::welcome::shown`).
#[derive(Clone)]
pub struct Shown {
    pub cover: Arc<Cover>,
    pub trials: usize,
    pub minutes: Option<String>,
    pub sending: Option<String>,
}

/// The id of the welcome page's Start.
pub const START: &str = "start";

/// Builds the welcome page's head into `section` (its `<section class="welcome">`, empty): the
/// title, the description, the facts, what the annotator is told before starting, and where the
/// answers are sent.
pub fn head(b: &Builder, section: &Element, shown: &Shown) -> Option<()> {
    let cover = &shown.cover;
    b.text(
        &b.child(section, "h1", &[("id", "study-title")])?,
        &cover.title,
    );
    if let Some(description) = &cover.description {
        let div = b.child(section, "div", &[("class", "markdown")])?;
        super::dom::fill_rich(&div, &super::dom::tree(description));
    }
    let facts = b.child(section, "dl", &[("class", "facts")])?;
    let trials = shown.trials.to_string();
    let rows = [
        Some(("Pages to judge", trials.as_str())),
        shown.minutes.as_deref().map(|m| ("Estimated time", m)),
    ];
    for (term, value) in rows.into_iter().flatten() {
        let row = b.child(&facts, "div", &[])?;
        b.text(&b.child(&row, "dt", &[])?, term);
        b.text(&b.child(&row, "dd", &[])?, value);
    }
    let reassure = b.child(section, "p", &[("class", "reassure")])?;
    b.text(&reassure, REASSURE);
    if cover.consent {
        b.text(&reassure, CONSENT);
    }
    if let Some(notice) = &shown.sending {
        b.text(
            &b.child(section, "p", &[("class", "reassure sending")])?,
            notice,
        );
    }
    Some(())
}

/// Builds Start into `actions` (a `<div class="actions">`); returns it.
pub fn start_button(b: &Builder, actions: &Element) -> Option<Element> {
    let attrs = [("type", "button"), ("id", START), ("class", "primary")];
    let start = b.child(actions, "button", &attrs)?;
    b.text(&start, "Start");
    Some(start)
}

/// Builds what "Continue from a downloaded ratings file" says into `details` (its
/// `<details class="restore" id="restore">`), before its form.
pub fn restore_intro(b: &Builder, details: &Element) -> Option<()> {
    b.text(
        &b.child(details, "summary", &[])?,
        "Continue from a downloaded ratings file",
    );
    b.text(&b.child(details, "p", &[])?, RESTORE);
    Some(())
}

/// Fills `p` (a `<p class="contact">`) with the study's contact line: "Questions? " and the
/// contact, its e-mail address a `mailto:` link (as `annotator::Contact` shows it).
pub fn contact_line(b: &Builder, p: &Element, contact: &str) -> Option<()> {
    p.set_text_content(None);
    b.text(p, "Questions? ");
    match juror_core::base::url::split_email(contact) {
        Some((before, address, after)) => {
            b.text(p, before);
            let href = format!("mailto:{address}");
            b.text(&b.child(p, "a", &[("href", &href)])?, address);
            b.text(p, after);
        }
        None => b.text(p, contact),
    }
    Some(())
}

const REASSURE: &str = "Your answers are saved in this browser as you go, and the outputs you judge are shown without the names of the systems that wrote them.";
const CONSENT: &str = " You will be asked for your consent before anything is recorded.";
const FAILED: &str = "Check that you are online, then reload the page. Answers already given are kept in this browser.";
const RESTORE: &str = "If you started on another device or browser, open the ratings file you downloaded there to continue where you stopped.";

/// Elements and text nodes of the page's document.
pub struct Builder(pub Document);

impl Builder {
    /// The page's document's builder, if there is a page.
    pub fn new() -> Option<Builder> {
        web_sys::window()?.document().map(Builder)
    }

    /// An element with `attrs`, not yet on the page.
    pub fn el(&self, tag: &str, attrs: &[(&str, &str)]) -> Option<Element> {
        let element = self.0.create_element(tag).ok()?;
        for (name, value) in attrs {
            element.set_attribute(name, value).ok()?;
        }
        Some(element)
    }

    /// An element with `attrs`, appended to `parent`.
    pub fn child(&self, parent: &Element, tag: &str, attrs: &[(&str, &str)]) -> Option<Element> {
        let element = self.el(tag, attrs)?;
        parent.append_child(&element).ok()?;
        Some(element)
    }

    /// A text node appended to `parent`.
    pub fn text(&self, parent: &Element, text: &str) {
        let _ = parent.append_child(&self.0.create_text_node(text));
    }
}

/// "Loading…" and why it may take a while, into `parent`: the same words as the app's
/// (`boot::later::loading`).
pub fn loading(b: &Builder, parent: &Element) {
    if let Some(p) = b.child(parent, "p", &[("class", "loading"), ("role", "status")]) {
        b.text(&p, LOADING);
    }
}

/// What the page says while its code is on its way (a first visit on a slow connection takes
/// seconds; later visits come from the browser's cache).
pub const LOADING: &str = "Loading the study’s pages… On a slow connection this takes a few seconds, once: after that the study works offline.";

/// The page for code that could not be fetched (what to do, and Reload), into `parent`.
pub fn failed(b: &Builder, parent: &Element) -> Option<()> {
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
    // Reload leaves the page: the listener lives as long as the page.
    let on_click = Closure::<dyn Fn()>::new(super::offline::reload);
    let _ = reload.add_event_listener_with_callback("click", on_click.as_ref().unchecked_ref());
    on_click.forget();
    Some(())
}
