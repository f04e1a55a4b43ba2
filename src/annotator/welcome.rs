//! The first page of a valid study: what it is and how long it takes, and the study's contact
//! line as every page shows it.
//!
//! The page is built as DOM nodes by one builder, `services::welcome_page`: the annotator's
//! first wasm module shows it with no Leptos view code (`src/boot/first_page.rs`), and the app's
//! [`Welcome`] and [`StartActions`] mount the same builder's nodes (as
//! `components::rich::rich_text` mounts a text), so that the app's page, which replaces the first
//! module's, is the same page.

use std::sync::Arc;

use juror_core::front::cover::Cover;
use leptos::prelude::*;
use web_sys::Element;

use crate::services::dom;
use crate::services::welcome_page::{self as page, Builder, START, Shown};

/// Title, description, and the facts an annotator wants before starting (`page::head`). With
/// `on_code`, the link named no annotator: a form asks for the participant code. `children` are
/// the actions (start, continue, restore).
#[component]
pub fn Welcome(
    cover: Arc<Cover>,
    #[prop(optional)] on_code: Option<Callback<String>>,
    /// This annotator's number of trials, once known (else the study's count for everyone).
    #[prop(optional)]
    trials: Option<usize>,
    #[prop(optional)] children: Option<Children>,
) -> impl IntoView {
    let trials = trials.unwrap_or(cover.trials);
    let contact = cover.contact.clone();
    let shown = shown(cover, trials);
    view! {
        <section class="welcome" aria-labelledby="study-title" use:welcome_head=shown>
            {on_code.map(|on_code| view! { <ParticipantCode on_code /> })}
            {children.map(|c| c())}
            {contact.map(|text| view! { <p class="contact" use:welcome_contact=text></p> })}
        </section>
    }
}

/// The welcome page's actions: Start (`page::start_button`), and continuing from a downloaded
/// ratings file (`page::restore_intro`; its form is `children`).
#[component]
pub fn StartActions(on_start: Callback<()>, children: Children) -> impl IntoView {
    view! {
        <div
            class="actions"
            use:start_button_in
            on:click=move |ev| {
                if dom::target_id(&ev).as_deref() == Some(START) {
                    on_start.run(());
                }
            }
        ></div>
        // The ids carry the focus and the open state over when the session's welcome page
        // replaces the study's (`src/boot/later.rs`).
        <details class="restore" id="restore" use:restore_intro_in>
            {children()}
        </details>
    }
}

/// What the welcome page shows for `cover` and an annotator with `trials` trials, worded as the
/// page words it.
pub fn shown(cover: Arc<Cover>, trials: usize) -> Shown {
    let minutes = cover.estimated_minutes.map(format_minutes);
    let sending = cover
        .submit_host
        .as_deref()
        .map(|host| juror_core::session::submit::notice_for(host, cover.submit_backups));
    Shown {
        cover,
        trials,
        minutes,
        sending,
    }
}

// Each directive runs as its element is built (before the element's children are put in), and
// again when the same view is rendered anew in place (the session's welcome page whose code
// could not be fetched, say): the same page, whose head is then left as it is.

fn welcome_head(section: Element, shown: Shown) {
    if let (Some(b), None) = (Builder::new(), dom::find_in(&section, "#study-title")) {
        page::head(&b, &section, &shown);
    }
}

fn welcome_contact(p: Element, text: String) {
    if let Some(b) = Builder::new() {
        page::contact_line(&b, &p, &text);
    }
}

fn start_button_in(actions: Element) {
    if let (Some(b), None) = (Builder::new(), dom::find_in(&actions, "button")) {
        page::start_button(&b, &actions);
    }
}

fn restore_intro_in(details: Element) {
    if let (Some(b), None) = (Builder::new(), dom::find_in(&details, "summary")) {
        page::restore_intro(&b, &details);
    }
}

/// The study's contact line, its e-mail address (if it has one) a `mailto:` link, with `subject`
/// and `body` filled in when given: every page that shows the contact shows it this way.
#[component]
pub fn Contact(
    text: String,
    #[prop(optional)] subject: Option<String>,
    #[prop(optional)] body: Option<String>,
) -> impl IntoView {
    let Some((before, address, after)) = juror_core::base::url::split_email(&text) else {
        return view! { {text.clone()} }.into_any();
    };
    let query: Vec<String> = [("subject", subject), ("body", body)]
        .into_iter()
        .filter_map(|(name, value)| {
            value.map(|v| format!("{name}={}", js_sys::encode_uri_component(&v)))
        })
        .collect();
    let href = match query.is_empty() {
        true => format!("mailto:{address}"),
        false => format!("mailto:{address}?{}", query.join("&")),
    };
    view! { {before.to_owned()} <a href=href>{address.to_owned()}</a> {after.to_owned()} }
        .into_any()
}

/// Asks for the participant code when the link did not carry one.
#[component]
fn ParticipantCode(on_code: Callback<String>) -> impl IntoView {
    let code = RwSignal::new(String::new());
    view! {
        <form
            class="participant-code"
            on:submit=move |ev| {
                ev.prevent_default();
                let c = code.get_untracked();
                if !c.trim().is_empty() {
                    on_code.run(c.trim().to_owned());
                }
            }
        >
            <label for="participant-code">"Your participant code"</label>
            <p class="hint">
                "The link you were sent usually includes it. If not, enter the code the researcher gave you; "
                "use the same code every time so that your answers are found again."
            </p>
            <div class="row">
                <input
                    id="participant-code"
                    type="text"
                    autocomplete="off"
                    required
                    prop:value=move || code.get()
                    on:input=move |ev| code.set(event_target_value(&ev))
                />
                <button type="submit">"Continue"</button>
            </div>
        </form>
    }
}

/// "45 minutes", "1 hour", "2 hours 30 minutes".
pub fn format_minutes(minutes: u32) -> String {
    let (h, m) = (minutes / 60, minutes % 60);
    let plural = |n: u32, unit: &str| format!("{n} {unit}{}", if n == 1 { "" } else { "s" });
    match (h, m) {
        (0, m) => plural(m, "minute"),
        (h, 0) => plural(h, "hour"),
        (h, m) => format!("{} {}", plural(h, "hour"), plural(m, "minute")),
    }
}

#[cfg(test)]
mod tests {
    use super::format_minutes;

    #[test]
    fn minutes_read_naturally() {
        assert_eq!(format_minutes(1), "1 minute");
        assert_eq!(format_minutes(45), "45 minutes");
        assert_eq!(format_minutes(60), "1 hour");
        assert_eq!(format_minutes(150), "2 hours 30 minutes");
    }
}
