//! The end: the ratings file, by download, clipboard, share sheet or e-mail.

use juror_core::base::rich::Text;
use juror_core::session::{Msg, Overlay, completion, submit};
use leptos::prelude::*;

use super::welcome::Contact;
use crate::components::rich::RichText;
use crate::services::submit as submit_service;
use crate::services::{download, location};
use crate::session::use_session;

/// The study's debriefing (Markdown, rendered as rich text), shown once `shown`
/// holds: until the annotator has saved their ratings file, a line says that it will appear.
#[component]
pub fn Debrief(#[prop(into)] text: Text, #[prop(into)] shown: Signal<bool>) -> impl IntoView {
    move || {
        if shown.get() {
            view! {
                <section class="debrief" aria-labelledby="debrief-heading">
                    <h2 id="debrief-heading">"About this study"</h2>
                    <RichText text=text.clone() />
                </section>
            }
            .into_any()
        } else {
            view! {
                <p class="hint debrief-pending">
                    "Once you have saved your ratings file, a note from the researchers about the study appears here."
                </p>
            }
            .into_any()
        }
    }
}

/// The finish page: the ratings file by download, clipboard, share sheet or e-mail, sent to the
/// study's service when it names one, then what the platform needs and the debriefing, once the
/// file is saved.
#[component]
pub fn Finished() -> impl IntoView {
    let handle = use_session();
    let study = handle.study.get_value();
    let status = RwSignal::new(None::<String>);
    // Whether the ratings file has been saved (downloaded, copied, shared or sent) with every
    // answer: recorded in the session, so that it holds when the annotator comes back. The
    // debriefing waits for it.
    let saved = Signal::derive(move || handle.with(|s| s.file_saved()));
    // A preview sends nothing, records nothing and submits nothing to MTurk.
    let preview = handle.preview;
    let submission = study.submit().map(|_| {
        if preview {
            view! {
                <p class="hint">
                    "Preview: this file is not sent to the study's service, and it is marked as a preview."
                </p>
            }
            .into_any()
        } else {
            submission().into_any()
        }
    });
    let mturk = (!preview).then(|| mturk_submit(saved));
    let forget = (!preview).then(|| remove_answers(saved));
    let completion = study
        .completion()
        .is_some()
        .then(|| completion_block(saved));
    let debrief = study
        .debrief()
        .map(|text| view! { <Debrief text=text.plain().into_owned() shown=saved /> });
    view! {
        <section class="finished" aria-labelledby="finished-heading">
            <h1 id="finished-heading">"Thank you — you have finished"</h1>
            <p>
                "Download your ratings file and send it to the researcher. Your answers also stay "
                "saved in this browser, so you can come back to this page."
            </p>
            {save_buttons(status)}
            {submission}
            {mturk}
            {contact_line()}
            <p role="status" aria-live="polite" class="status">{move || status.get().unwrap_or_default()}</p>
            {completion}
            <p>
                <button type="button" class="link" on:click=move |_| handle.dispatch(Msg::Overlay(Overlay::TrialList))>
                    "Review or change an answer"
                </button>
            </p>
            {debrief}
            {forget}
        </section>
    }
}

/// The ways to save the ratings file: download (JSON or CSV), the clipboard, the share sheet.
/// Each that works records that the file is saved ([`Msg::FileSaved`]) and says so in `status`.
fn save_buttons(status: RwSignal<Option<String>>) -> impl IntoView {
    let handle = use_session();
    let study = handle.study.get_value();
    let has_debrief = study.debrief().is_some();
    let done = move |message: String| {
        handle.dispatch(Msg::FileSaved);
        let more = if has_debrief {
            " The researchers' note about the study is below."
        } else {
            ""
        };
        status.set(Some(format!("{message}{more}")));
    };
    let json = move |_| {
        let file = handle.ratings();
        let name = file.file_name("json");
        match download::download(&name, "application/json", &file.to_json()) {
            Ok(()) => done(format!("Downloaded {name}.")),
            Err(e) => status.set(Some(e)),
        }
    };
    let csv = move |_| {
        let file = handle.ratings();
        let name = file.file_name("csv");
        match download::download(&name, "text/csv", &file.to_csv()) {
            Ok(()) => done(format!("Downloaded {name}.")),
            Err(e) => status.set(Some(e)),
        }
    };
    let copy = move |_| {
        let text = handle.ratings().to_json();
        leptos::task::spawn_local(async move {
            match download::copy(&text).await {
                Ok(()) => done("Copied. Paste it into an e-mail to the researcher.".to_owned()),
                Err(e) => status.set(Some(e)),
            }
        });
    };
    let title = study.title().to_owned();
    let share = move |_| {
        let file = handle.ratings();
        let title = title.clone();
        leptos::task::spawn_local(async move {
            let name = file.file_name("json");
            match download::share(&name, "application/json", &file.to_json(), &title).await {
                Ok(()) => done(format!("Shared {name}.")),
                Err(e) => status.set(Some(e)),
            }
        });
    };
    view! {
        <div class="actions">
            <button type="button" class="primary" on:click=json>"Download ratings (JSON)"</button>
            <button type="button" class="secondary" on:click=csv>"Download ratings (CSV)"</button>
            <button type="button" class="secondary" on:click=copy>"Copy ratings to the clipboard"</button>
            {download::can_share().then(|| view! {
                <button type="button" class="secondary" on:click=share.clone()>"Share ratings file"</button>
            })}
        </div>
    }
}

/// The study's own service for ratings files: sent on arrival here, kept and sent again when the
/// browser comes back online; the download stays available. What was sent is recorded (the
/// answers' digest) so that a return to this page does not send it twice.
fn submission() -> impl IntoView {
    let handle = use_session();
    let receipt = RwSignal::new(None::<String>);
    let problem = RwSignal::new(None::<String>);
    let sending = RwSignal::new(false);
    let send = move || {
        let file = handle.ratings();
        let study = handle.study.get_value();
        let Some(request) = submit::request(&study, &file) else {
            return;
        };
        let key = handle.outbox_key();
        let name = submit::final_name(&file);
        let digest = submit::answers_digest(file);
        if submit_service::last_sent(&key).as_deref() == Some(digest.as_str()) {
            receipt.set(Some("Sent to the researcher.".to_owned()));
            handle.dispatch(Msg::FileSaved);
            return;
        }
        if sending.get_untracked() {
            return;
        }
        sending.set(true);
        leptos::task::spawn_local(async move {
            match submit_service::post(&request).await {
                Ok(()) => {
                    submit_service::record_sent(&key, &digest);
                    receipt.set(Some(format!("Sent to the researcher ({name}).")));
                    problem.set(None);
                    handle.dispatch(Msg::FileSaved);
                }
                Err(e) => problem.set(Some(e.message())),
            }
            sending.set(false);
        });
    };
    send();
    submit_service::on_online(move || {
        if receipt.get_untracked().is_none() {
            send();
        }
    });
    view! {
        <section class="submission" aria-labelledby="submission-heading">
            <h2 id="submission-heading">"Sending your ratings to the researcher"</h2>
            <p role="status" class="receipt">
                {move || match (receipt.get(), problem.get(), sending.get()) {
                    (Some(r), _, _) => r,
                    (None, Some(p), false) => p,
                    _ => "Sending…".to_owned(),
                }}
            </p>
            <Show when=move || problem.get().is_some() && receipt.get().is_none() && !sending.get()>
                <button type="button" class="secondary" on:click=move |_| send()>"Send again"</button>
            </Show>
        </section>
    }
}

/// MTurk's external question: once the file is saved, the worker submits the assignment to MTurk
/// (`turkSubmitTo`, MTurk's own hosts only), with the checksum of their ratings file. Nothing
/// outside MTurk. When the site's policy blocks the form (a build without MTurk's hosts), the page
/// says so and gives what the requester needs instead.
fn mturk_submit(saved: Signal<bool>) -> impl IntoView {
    let handle = use_session();
    let assignment = location::query_param("assignmentId")
        .filter(|a| !juror_core::plan::mturk_preview(Some(a.as_str())));
    let blocked = RwSignal::new(None::<String>);
    assignment
        .zip(location::query_param("turkSubmitTo").and_then(|t| juror_core::plan::mturk_submit_url(&t)))
        .map(|(assignment, action)| {
            submit_service::on_form_blocked(move || {
                blocked.set(Some(handle.ratings().sha256));
            });
            move || {
                let assignment = assignment.clone();
                if let Some(sha) = blocked.get() {
                    return Some(view! {
                        <section class="mturk-blocked" role="alert" aria-labelledby="mturk-blocked-heading">
                            <h2 id="mturk-blocked-heading">"Mechanical Turk did not receive the task"</h2>
                            <p>
                                "This page is not allowed to send it to Mechanical Turk. Keep your ratings file, "
                                "and send the requester a message (from the HIT on Mechanical Turk, or by the "
                                "contact below) with your assignment id and the checksum of your ratings file:"
                            </p>
                            <dl class="facts">
                                <div><dt>"Assignment id"</dt><dd><code>{assignment}</code></dd></div>
                                <div><dt>"Ratings file checksum"</dt><dd><code class="checksum">{sha}</code></dd></div>
                            </dl>
                        </section>
                    }
                    .into_any());
                }
                saved.get().then(|| {
                    let sha = handle.ratings().sha256;
                    view! {
                        <form class="mturk" method="post" action=action.clone()>
                            <input type="hidden" name="assignmentId" value=assignment />
                            <input type="hidden" name="ratings_sha256" value=sha />
                            <button type="submit" class="primary">"Submit the task on Mechanical Turk"</button>
                        </form>
                    }
                    .into_any()
                })
            }
        })
}

/// "Remove my answers from this browser", once the file is saved or sent: for a shared computer
/// (a lab), after a confirmation; then says it is done.
fn remove_answers(saved: Signal<bool>) -> impl IntoView {
    let handle = use_session();
    let asking = RwSignal::new(false);
    let result = RwSignal::new(None::<Result<(), String>>);
    let remove = move |_| {
        asking.set(false);
        result.set(Some(handle.forget().map(|_| ())));
    };
    move || {
        if !saved.get() {
            return None;
        }
        Some(match result.get() {
            Some(Ok(())) => view! {
                <p role="status" class="status">
                    "Your answers have been removed from this browser. Close this window when you are done."
                </p>
            }
            .into_any(),
            other => view! {
                <section class="forget" aria-labelledby="forget-heading">
                    <h2 id="forget-heading">"On a shared computer"</h2>
                    {match other {
                        Some(Err(e)) => Some(view! { <p role="alert">{e}</p> }),
                        _ => None,
                    }}
                    <Show
                        when=move || asking.get()
                        fallback=move || view! {
                            <button type="button" class="secondary" on:click=move |_| asking.set(true)>
                                "Remove my answers from this browser"
                            </button>
                        }
                    >
                        <p>
                            "This removes your answers, and the record of sending them, from this browser. "
                            "Only do this once your ratings file is saved or sent: you cannot come back to them here."
                        </p>
                        <div class="actions">
                            <button type="button" class="primary" on:click=remove>"Yes, remove my answers"</button>
                            <button type="button" class="secondary" on:click=move |_| asking.set(false)>"Cancel"</button>
                        </div>
                    </Show>
                </section>
            }
            .into_any(),
        })
    }
}

/// The platform's completion code and the way back, once the file is saved.
fn completion_block(saved: Signal<bool>) -> impl IntoView {
    let handle = use_session();
    let study = handle.study.get_value();
    move || {
        if !saved.get() {
            return view! {
                <p class="hint completion-pending">
                    "Once you have saved your ratings file, your completion code appears here."
                </p>
            }
            .into_any();
        }
        let end = completion::completion(&study, &handle.ratings());
        let code = end.as_ref().and_then(|e| e.code.clone());
        let link = end.and_then(|e| e.link);
        view! {
            <section class="completion" aria-labelledby="completion-heading">
                <h2 id="completion-heading">"Your completion code"</h2>
                {code.map(|c| view! {
                    <p>
                        "Give this code to the study platform: "
                        <code class="completion-code">{c}</code>
                    </p>
                })}
                {link.map(|href| view! {
                    <p>
                        <a class="button primary" href=href rel="noreferrer">
                            "Return to the study platform"
                        </a>
                    </p>
                })}
            </section>
        }
        .into_any()
    }
}

/// The study's contact: when it holds an e-mail address, where to send the file, by a `mailto:`
/// link with the subject and a first line naming the file to attach; else the line as written.
fn contact_line() -> impl IntoView {
    let handle = use_session();
    let study = handle.study.get_value();
    study.contact().map(|contact| {
        let text = contact.to_owned();
        if juror_core::base::url::split_email(contact).is_none() {
            return view! { <p class="contact">"Questions? " <Contact text /></p> }.into_any();
        }
        let subject = format!("Ratings for {}", study.title());
        let name = handle.ratings().file_name("json");
        let body = format!(
            "Hello,\n\nPlease find my ratings file attached: {name} (downloaded from the study page).\n"
        );
        view! {
            <p class="contact">
                "Then send it to " <Contact text subject body />
                {format!(": download the file first, and attach it ({name}) to the e-mail.")}
            </p>
        }
        .into_any()
    })
}
