//! The annotator's journey: one page per phase of the core's session, with the banners,
//! overlays and keyboard shortcuts that hold for all of them.

use std::sync::Arc;

use juror_core::front::cover::Cover;
use juror_core::session::{Msg, Overlay, Phase, Session, Survey, Target, durability, keys};
use leptos::prelude::*;

use super::done::Finished;
use super::instructions::{Instructions, RubricTable};
use super::survey::SurveyPage;
use super::trial::{TrialList, TrialPage};
use super::{FilePicker, StartActions, Welcome};
use crate::components::rich::RichText;
use crate::services::{dom, download};
use crate::session::{SessionHandle, use_session};

/// The session's pages.
#[component]
pub fn StudyFlow() -> impl IntoView {
    let handle = use_session();
    let phase = Memo::new(move |_| handle.with(|s| s.phase()));
    let title = handle.study.with_value(|s| s.title().to_owned());
    dom::set_title(&format!("{title} — Juror"));
    dom::on_visibility_change(move |visible| {
        if !visible {
            handle.flush();
        }
        handle.dispatch(Msg::Visibility(visible));
    });
    dom::on_page_hide(move || handle.flush());
    handle.check_storage();
    dom::on_keydown(move |ev| keyboard(handle, ev));
    view! {
        <Banners />
        {move || match phase.get() {
            Phase::Welcome => view! { <Start /> }.into_any(),
            Phase::Declined => view! {
                <section aria-labelledby="declined-heading">
                    <h1 id="declined-heading">"Thank you"</h1>
                    <p>
                        "You chose not to take part. Nothing was recorded, and you can close this page."
                    </p>
                </section>
            }
            .into_any(),
            Phase::Screened => view! { <Screened /> }.into_any(),
            Phase::Consent => view! { <Consent /> }.into_any(),
            Phase::Instructions => view! { <Instructions /> }.into_any(),
            Phase::Intake => view! { <SurveyPage survey=Survey::Intake /> }.into_any(),
            Phase::Trials => view! { <TrialPage /> }.into_any(),
            Phase::Exit => view! { <SurveyPage survey=Survey::Exit /> }.into_any(),
            Phase::Done => view! { <Finished /> }.into_any(),
        }}
        <Overlays />
    }
}

/// An intake answer ended the study: the study's message, and the platform's screened-out code
/// and way back at once (there is no ratings file to save first).
#[component]
fn Screened() -> impl IntoView {
    let handle = use_session();
    let study = handle.study.get_value();
    let message = study.screened_message().to_owned();
    let end = study
        .completion()
        .is_some()
        .then(|| juror_core::session::completion::completion(&study, &handle.ratings()))
        .flatten();
    let code = end.as_ref().and_then(|e| e.code.clone());
    let link = end.and_then(|e| e.link);
    view! {
        <section aria-labelledby="screened-heading">
            <h1 id="screened-heading">"Thank you"</h1>
            <RichText text=message />
            {code.map(|c| view! {
                <p>"Give this code to the study platform: " <code class="completion-code">{c}</code></p>
            })}
            {link.map(|href| view! {
                <p><a class="button primary" href=href rel="noreferrer">"Return to the study platform"</a></p>
            })}
        </section>
    }
}

/// Storage problems and one-off notices, above every page.
#[component]
fn Banners() -> impl IntoView {
    let handle = use_session();
    let backup = move |_| handle.backup();
    let risk = Memo::new(move |_| handle.risk());
    let due = Memo::new(move |_| {
        let in_trials = handle.with(|s| s.phase() == Phase::Trials);
        in_trials
            && durability::backup_due(risk.get(), handle.done(), handle.backups.backed_up_at.get())
    });
    view! {
        <Show when=move || risk.get() == durability::Risk::PrivateWindow>
            <div class="banner warning" role="status">
                <p>
                    "This looks like a private window: the browser deletes everything in it, your answers too, when the window is closed. "
                    "Save a backup before you close it, or open your link in an ordinary window."
                </p>
                <button type="button" on:click=backup>"Save a backup"</button>
            </div>
        </Show>
        <Show when=move || due.get()>
            <div class="banner" role="status">
                <p>
                    {move || format!(
                        "{} trials done since your last backup. This browser has not promised to keep your answers: save a backup now and then, so that nothing is lost if it clears them.",
                        handle.done().saturating_sub(handle.backups.backed_up_at.get()),
                    )}
                </p>
                <button type="button" on:click=backup>"Save a backup"</button>
                <button
                    type="button"
                    class="secondary"
                    on:click=move |_| handle.backups.backed_up_at.set(handle.done())
                >
                    "Later"
                </button>
            </div>
        </Show>
        {move || handle.backups.away_days.get().map(|days| view! {
            <div class="banner" role="status">
                <p>
                    {format!(
                        "Welcome back: your answers were last saved {days} days ago. Some browsers (Safari) delete what a site has saved after 7 days without a visit: save a backup before you pause again."
                    )}
                </p>
                <button type="button" on:click=backup>"Save a backup"</button>
                <button type="button" class="secondary" on:click=move |_| handle.backups.away_days.set(None)>
                    "Dismiss"
                </button>
            </div>
        })}
        <Show when=move || handle.storage_problem.with(Option::is_some)>
            <div class="banner warning" role="alert">
                <p>{move || handle.storage_problem.get().unwrap_or_default()}</p>
                <button type="button" on:click=backup>"Download a backup"</button>
            </div>
        </Show>
        {move || {
            handle
                .notice
                .get()
                .map(|notice| {
                    let file = notice.download.clone();
                    view! {
                        <div class="banner" role="status">
                            <p>{notice.text.clone()}</p>
                            {file
                                .map(|juror_core::session::open::Download { name, text }| {
                                    view! {
                                        <button
                                            type="button"
                                            on:click=move |_| {
                                                if download::download(&name, "application/json", &text).is_ok() {
                                                    handle.release_hold();
                                                }
                                            }
                                        >
                                            "Download the earlier answers"
                                        </button>
                                    }
                                })}
                            <button type="button" class="secondary" on:click=move |_| handle.notice.set(None)>
                                "Dismiss"
                            </button>
                        </div>
                    }
                })
        }}
    }
}

/// The welcome page inside a session: start, or continue, or restore from a file.
#[component]
fn Start() -> impl IntoView {
    let handle = use_session();
    let cover = Arc::new(Cover::of(&handle.study.get_value()));
    let trials = handle.with_untracked(|s| s.plan().trials.len());
    view! {
        <Welcome cover trials>
            <StartActions on_start=Callback::new(move |()| start(handle))>
                <Restore />
            </StartActions>
        </Welcome>
    }
}

/// The welcome page's Start: the session begins, and the browser is asked not to clear this
/// site's storage when it runs short.
pub fn start(handle: SessionHandle) {
    handle.dispatch(Msg::Start);
    leptos::task::spawn_local(async move {
        handle
            .backups
            .persisted
            .set(crate::services::offline::persist().await);
    });
}

/// Continuing from a downloaded ratings file: the file, whose answers they are, and the
/// session restored.
#[component]
fn Restore() -> impl IntoView {
    let handle = use_session();
    let restore_error = RwSignal::new(None::<String>);
    // A backup of another annotator, waiting for the annotator to say it is theirs.
    let other = RwSignal::new(None::<(Session, String)>);
    // Reading the file (the annotator's page first loads its reader of ratings files).
    let reading = RwSignal::new(false);
    let restore = move |session: Session| {
        restore_error.set(None);
        other.set(None);
        let (slot, id) = (session.annotator().slot, session.annotator().id.clone());
        handle.restore(session);
        crate::services::location::set_annotator(slot, id.as_deref());
    };
    let on_file = Callback::new(move |file: web_sys::File| {
        leptos::task::spawn_local(async move {
            reading.set(true);
            let read = match crate::services::study_source::read_file(file).await {
                Ok(text) => handle.read_ratings(text).await,
                Err(e) => Err(e),
            };
            reading.set(false);
            match read {
                Ok(session) => {
                    let mine = handle.with_untracked(|s| s.annotator().clone());
                    let theirs = session.annotator();
                    // Someone else's backup on a shared device: ask before switching.
                    if theirs.slot != mine.slot || theirs.id != mine.id {
                        let them = who(theirs.slot, theirs.id.as_deref());
                        other.set(Some((session, them)));
                    } else {
                        restore(session);
                    }
                }
                Err(e) => restore_error.set(Some(e)),
            }
        });
    });
    let me = handle.with_untracked(|s| who(s.annotator().slot, s.annotator().id.as_deref()));
    view! {
        <FilePicker on_file label="Restore from file" />
        {move || reading.get().then(|| view! { <p role="status">"Reading the file…"</p> })}
        {move || other.with(|o| o.as_ref().map(|(_, them)| them.clone())).map(|them| view! {
            <div class="confirm" role="group" aria-label="Whose answers are these?">
                <p>
                    {format!(
                        "This file holds the answers of {them}, not of {me} (this link). Continue as {them}? Only do this if these are your own answers."
                    )}
                </p>
                <button type="button" class="primary" on:click=move |_| {
                    if let Some((session, _)) = other.get_untracked() {
                        restore(session);
                    }
                }>
                    {format!("Continue as {them}")}
                </button>
                <button type="button" class="secondary" on:click=move |_| other.set(None)>
                    "Cancel"
                </button>
            </div>
        })}
        {move || {
            restore_error
                .get()
                .map(|e| view! { <p class="error" role="alert">{format!("This file cannot be used: {e}")}</p> })
        }}
    }
}

/// "slot 3" or "slot 3 (p-17)".
fn who(slot: u32, id: Option<&str>) -> String {
    match id {
        Some(id) => format!("slot {slot} ({id})"),
        None => format!("slot {slot}"),
    }
}

/// The consent form.
#[component]
fn Consent() -> impl IntoView {
    let handle = use_session();
    let study = handle.study.get_value();
    let Some(consent) = study.consent().cloned() else {
        return view! { <p>"No consent is needed."</p> }.into_any();
    };
    view! {
        <section class="consent" aria-labelledby="consent-heading">
            <h1 id="consent-heading">"Consent"</h1>
            <RichText text=consent.text.clone() />
            <div class="actions">
                <button
                    type="button"
                    class="primary"
                    on:click=move |_| handle.dispatch(Msg::Consent(true))
                >
                    {consent.agree_label.clone()}
                </button>
                <button type="button" class="secondary" on:click=move |_| handle.dispatch(Msg::Consent(false))>
                    {consent.decline_label.clone()}
                </button>
            </div>
        </section>
    }
    .into_any()
}

/// The rubric, the shortcut list and the trial list, over any page.
#[component]
fn Overlays() -> impl IntoView {
    let handle = use_session();
    let overlay = Memo::new(move |_| handle.with(|s| s.overlay()));
    let close = move |_| handle.dispatch(Msg::Overlay(Overlay::None));
    view! {
        {move || {
            let (title, body) = match overlay.get() {
                Overlay::None => return None,
                Overlay::Rubric => ("Rubric", view! { <RubricTable /> }.into_any()),
                Overlay::Shortcuts => ("Keyboard shortcuts", view! { <Shortcuts /> }.into_any()),
                Overlay::TrialList => ("All trials", view! { <TrialList /> }.into_any()),
            };
            Some(
                view! {
                    <div class="overlay-backdrop">
                        <div class="overlay" role="dialog" aria-modal="true" aria-label=title>
                            <div class="overlay-head">
                                <h2>{title}</h2>
                                <button type="button" class="secondary" on:click=close>
                                    "Close"
                                </button>
                            </div>
                            {body}
                        </div>
                    </div>
                },
            )
        }}
    }
}

#[component]
fn Shortcuts() -> impl IntoView {
    let has_rubric = !use_session().study.get_value().rubric().is_empty();
    let rows = [
        (
            "1 – 9",
            "Give that score to the focused question, then move to the next unanswered one",
        ),
        ("← → ↑ ↓", "Move between the points of a scale"),
        ("Tab", "Move to the next question or button"),
        ("A, B, C, …", "Choose that output as your preference"),
        (
            "Shift + A, B, …",
            "Best and worst: choose that output as the worst (the letter alone: the best)",
        ),
        (
            "T",
            "Choose “tie”, where a tie is allowed (on a graded scale: “Same”)",
        ),
        (
            "1 – 9 (no score left)",
            "Choose that point of a graded preference, 1 the first output's strongest",
        ),
        (
            "0",
            "Choose “Cannot judge”, where it is offered: for the focused (or next unanswered) score, then move on; with no score left, for the preference",
        ),
        ("Enter", "Next trial (when every required answer is given)"),
        ("Shift + Enter", "Previous trial"),
        (
            "Shift + ← →",
            "In an output's text where errors are marked: select characters (with Ctrl or Alt: words)",
        ),
        (
            "M or Enter, then 1 – 3",
            "Mark the selected text as an error of that severity (each severity shows its digit)",
        ),
        ("R", "Show the rubric"),
        ("L", "List all trials"),
        ("?", "Show these shortcuts"),
        ("Esc", "Close this window"),
    ];
    view! {
        <table class="shortcuts">
            <thead>
                <tr>
                    <th scope="col">"Key"</th>
                    <th scope="col">"What it does"</th>
                </tr>
            </thead>
            <tbody>
                {rows
                    .iter()
                    .filter(|(k, _)| has_rubric || *k != "R")
                    .map(|(k, what)| view! {
                        <tr>
                            <td><kbd>{*k}</kbd></td>
                            <td>{*what}</td>
                        </tr>
                    })
                    .collect_view()}
            </tbody>
        </table>
    }
}

/// Whether the event comes from a field where keys are text (not shortcuts).
fn typing(ev: &web_sys::KeyboardEvent) -> bool {
    use wasm_bindgen::JsCast;
    let Some(el) = ev
        .target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
    else {
        return false;
    };
    // A control that handles its own keys (an output's text where errors are marked, and its
    // severity picker): its digits and Enter are not shortcuts.
    if el.closest("[data-own-keys]").ok().flatten().is_some() {
        return true;
    }
    match el.tag_name().to_ascii_lowercase().as_str() {
        "textarea" | "select" => true,
        "input" => {
            let kind = el.get_attribute("type").unwrap_or_default();
            // A slider's keys are its arrows, Page Up/Down, Home and End: Enter goes on.
            !matches!(
                kind.as_str(),
                "radio" | "checkbox" | "button" | "submit" | "range"
            )
        }
        _ => false,
    }
}

/// The page-wide shortcuts: the event described as a key ([`keys::Key`]), mapped to a message
/// by the core ([`keys::to_msg`]).
fn keyboard(handle: SessionHandle, ev: web_sys::KeyboardEvent) {
    let name = ev.key();
    let key = keys::Key {
        key: &name,
        shift: ev.shift_key(),
        modified: ev.ctrl_key() || ev.meta_key() || ev.alt_key() || ev.default_prevented(),
        typing: typing(&ev),
        on_control: dom::active_element().is_some_and(|e| {
            matches!(
                e.tag_name().to_ascii_lowercase().as_str(),
                "button" | "a" | "summary"
            )
        }),
    };
    // The score whose control has focus, if any.
    let focused = dom::active_element()
        .and_then(|e| e.closest("[data-rate]").ok().flatten())
        .and_then(|e| {
            let position = e.get_attribute("data-position")?.parse().ok()?;
            let dimension = e.get_attribute("data-rate")?;
            Some(Target::Rating {
                position,
                dimension,
            })
        });
    let study = handle.study.get_value();
    let msg = handle.with_untracked(|s| keys::to_msg(&study, s, key, focused.as_ref()));
    if let Some(msg) = msg {
        handle.dispatch(msg);
        // Escape also leaves the browser's own handling (closing a dialog, leaving full screen).
        if name != "Escape" {
            ev.prevent_default();
        }
    }
}
