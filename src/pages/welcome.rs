//! The first page of a valid study: what it is and how long it takes, and the study's contact
//! line as every page shows it.

use std::sync::Arc;

use juror_core::front::cover::Cover;
use leptos::prelude::*;

use crate::components::rich::RichText;

/// Title, description, and the facts an annotator wants before starting. With `on_code`, the
/// link named no annotator: a form asks for the participant code. `children` are the actions
/// (start, continue, restore).
#[component]
pub fn Welcome(
    cover: Arc<Cover>,
    #[prop(optional)] on_code: Option<Callback<String>>,
    /// This annotator's number of trials, once known (else the study's count for everyone).
    #[prop(optional)]
    trials: Option<usize>,
    #[prop(optional)] children: Option<Children>,
) -> impl IntoView {
    let description = cover.description.clone();
    let trials = trials.unwrap_or(cover.trials);
    let minutes = cover.estimated_minutes;
    let consent = cover.consent;
    let sending = cover
        .submit_host
        .as_deref()
        .map(|host| juror_core::session::submit::notice_for(host, cover.submit_backups));
    view! {
        <section class="welcome" aria-labelledby="study-title">
            <h1 id="study-title">{cover.title.clone()}</h1>
            {description.map(|text| view! { <RichText text /> })}
            <dl class="facts">
                <div>
                    <dt>"Pages to judge"</dt>
                    <dd>{trials}</dd>
                </div>
                {minutes
                    .map(|m| {
                        view! {
                            <div>
                                <dt>"Estimated time"</dt>
                                <dd>{format_minutes(m)}</dd>
                            </div>
                        }
                    })}
            </dl>
            <p class="reassure">
                "Your answers are saved in this browser as you go, and the outputs you judge are "
                "shown without the names of the systems that wrote them."
                {consent.then_some(" You will be asked for your consent before anything is recorded.")}
            </p>
            {sending.map(|text| view! { <p class="reassure sending">{text}</p> })}
            {on_code.map(|on_code| view! { <ParticipantCode on_code /> })}
            {children.map(|c| c())}
            {cover.contact.clone().map(|text| view! { <p class="contact">"Questions? " <Contact text /></p> })}
        </section>
    }
}

/// The welcome page's actions: Start, and continuing from a downloaded ratings file (its form
/// is `children`).
#[component]
pub fn StartActions(on_start: Callback<()>, children: Children) -> impl IntoView {
    view! {
        <div class="actions">
            <button type="button" id="start" class="primary" on:click=move |_| on_start.run(())>
                "Start"
            </button>
        </div>
        // The ids carry the focus and the open state over when the session's welcome page
        // replaces the study's (pages/later.rs).
        <details class="restore" id="restore">
            <summary>"Continue from a downloaded ratings file"</summary>
            <p>
                "If you started on another device or browser, open the ratings file you downloaded there to continue where you stopped."
            </p>
            {children()}
        </details>
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
