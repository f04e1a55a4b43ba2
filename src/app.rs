//! The root component: decides what the page shows from where the study comes from, whether it
//! could be loaded and validated, and who the annotator is.

use juror_core::plan::{Annotator, mturk_preview};
use juror_core::study::Problem;
use leptos::prelude::*;
use leptos::task::spawn_local;

use crate::analyse::Analyse;
use crate::annotator::{BrokenLink, Contact, NoStudy, Welcome};
use crate::boot::later::{self, Loaded, SessionStart, session};
use crate::boot::ratings_reader;
use crate::boot::{
    Front, LOADING_SHOWN_AFTER_MS, Load, NoStudyPage, Opener, annotator_from_address, open_any,
    read_compiled,
};
use crate::services::{location, study_source};
use crate::session::{RatingsReader, Source, read_ratings_here};

/// The researcher's page (`analyse.html`, its own wasm): the analysis; or, with `?study=`, the
/// study played as an annotator plays it (`&slot=1&preview` shows each output's system), by the
/// researcher's own reader, which keeps every check and message.
#[component]
pub fn AnalyseApp() -> impl IntoView {
    if location::query_param("study").is_some() || location::has_param("open") {
        return view! { <Player opener=open_any compiled_only=false ratings=read_ratings_here /> }
            .into_any();
    }
    view! {
        <main id="main">
            <Analyse />
        </main>
    }
    .into_any()
}

/// The annotator's app (`index.html`).
#[component]
pub fn App() -> impl IntoView {
    // Old links to the researcher's page (`index.html?analyse`) go to its own page.
    if location::has_param("analyse") {
        location::replace("analyse.html");
        return view! {
            <main id="main">
                <p>
                    "The Analyse page has moved: " <a href="analyse.html">"open analyse.html"</a>
                </p>
            </main>
        }
        .into_any();
    }
    view! { <Player opener=read_compiled compiled_only=true ratings=ratings_reader::read_apart /> }
        .into_any()
}

/// A study named by the address (`?study=`) or opened from the computer, read by `opener`, then
/// played: the pages of loading, of a study that cannot be opened, and of the session. With
/// `compiled_only`, a study as written goes to the researcher's page.
#[component]
fn Player(
    opener: Opener,
    compiled_only: bool,
    /// How the page reads a ratings file to continue from.
    ratings: RatingsReader,
) -> impl IntoView {
    // Before anything can be pressed: the session's code waits for a press to end (`src/boot/later.rs`).
    crate::boot::watch_presses();
    let initial = match location::query_param("study") {
        // Read already, for the welcome page shown before the app was in (`src/boot/first.rs`).
        Some(url) if let Some(load) = crate::boot::take(&url) => load,
        // Usually in before the wasm: opened at once, with no "Loading…" page in between.
        Some(url) => match study_source::early_text(&url) {
            Some(text) => Load::from_text(url, text, opener, compiled_only, false),
            None => Load::Awaiting(url),
        },
        None => Load::NoStudy(NoStudy::Choose),
    };
    let load = RwSignal::new(initial.clone());
    // A study still awaited after a moment: say so (and only then: any other change would
    // render the page again).
    let say_loading_later = move |source: String| {
        crate::services::dom::after(LOADING_SHOWN_AFTER_MS, move || {
            // (a timer left from a file replaced by another within the moment does nothing)
            if load.with_untracked(|load| load.awaits(&source)) {
                load.set(Load::Loading(source));
            }
        });
    };
    if let Load::Awaiting(url) = initial {
        say_loading_later(url.clone());
        spawn_local(async move {
            let text = study_source::fetch_text(&url).await;
            load.set(Load::from_text(url, text, opener, compiled_only, false));
        });
    }
    let open_file = Callback::new(move |file: web_sys::File| {
        let name = file.name();
        load.set(Load::Awaiting(name.clone()));
        say_loading_later(name.clone());
        spawn_local(async move {
            let text = study_source::read_file(file).await;
            load.set(Load::from_text(name, text, opener, compiled_only, true));
        });
    });

    let update_ready = RwSignal::new(false);
    crate::services::offline::register(move || update_ready.set(true));

    view! {
        <Show when=move || update_ready.get()>
            <div class="banner update" role="status">
                <p>"A new version of Juror is available. Reloading keeps every answer."</p>
                <button type="button" on:click=|_| crate::services::offline::apply_update()>
                    "Reload"
                </button>
            </div>
        </Show>
        <main id="main">
            {move || match load.get() {
                Load::Awaiting(_) => ().into_any(),
                Load::Loading(source) => view! {
                    <section class="loading" aria-busy="true">
                        <h1>"Loading the study…"</h1>
                        <p>{source}</p>
                    </section>
                }
                .into_any(),
                Load::NoStudy(why) => view! { <NoStudyPage why on_file=open_file /> }.into_any(),
                Load::Ready(front, base, text) => {
                    let source = Source { text, reader: ratings };
                    view! { <Ready front base source /> }.into_any()
                }
                // Named by the address: on to the researcher's page at once (the page is
                // leaving; nothing more to fetch). Opened from the computer: where to open it.
                Load::AsWritten { source, from_file: true } => {
                    view! { <NoStudyPage why=NoStudy::AsWritten { source } on_file=open_file /> }.into_any()
                }
                Load::AsWritten { from_file: false, .. } => {
                    location::replace(&format!("analyse.html{}", location::search_and_hash()));
                    later::loading()
                }
            }}
        </main>
    }
}

/// A study whose welcome page can be shown: find out who the annotator is, then run their
/// session.
#[component]
fn Ready(front: Front, base: String, source: Source) -> impl IntoView {
    let cover = front.cover.clone();
    let chosen: RwSignal<Option<Result<Annotator, Problem>>> =
        RwSignal::new(annotator_from_address(&cover));
    let cover_for_code = cover.clone();
    let on_code = Callback::new(move |code: String| {
        let result = cover_for_code.annotator(None, Some(&code));
        if let Ok(a) = &result {
            location::set_annotator(a.slot, a.id.as_deref());
        }
        chosen.set(Some(result));
    });
    // The session's code (`src/boot/later.rs`), fetched once the annotator is known.
    let loaded = RwSignal::new(later::at_start());
    let fetching = StoredValue::new(false);
    // MTurk shows the task before the worker accepts it: the welcome page only.
    let mturk_preview = mturk_preview(location::query_param("assignmentId").as_deref());
    move || {
        match chosen.get() {
        _ if mturk_preview => view! {
            <Welcome cover=cover.clone()>
                <p class="hint" role="status">
                    "This is a preview. Accept the task on Mechanical Turk to start; nothing is recorded until then."
                </p>
            </Welcome>
        }
        .into_any(),
        None => view! {
            <BrokenLink />
            <Welcome cover=cover.clone() on_code />
        }
        .into_any(),
        Some(Err(problem)) => view! {
            <section class="study-problems" role="alert">
                <h1>"This link does not name a valid annotator"</h1>
                <p>
                    <code>{problem.at.clone()}</code>
                    ": "
                    {problem.message.clone()}
                </p>
                <p>{format!("Fix: {}.", problem.fix)}</p>
                <p>"Ask the researcher who sent you the link for a working one."</p>
                {cover.contact.clone().map(|text| view! { <p class="contact">"Contact: " <Contact text /></p> })}
            </section>
        }
        .into_any(),
        Some(Ok(annotator)) => {
            let preview = location::has_param("preview");
            // While the welcome page is read: once it is on screen, so that compiling the
            // session's code does not hold the first paint back.
            if loaded.get_untracked() == Loaded::Loading && !fetching.get_value() {
                fetching.set_value(true);
                crate::services::dom::after_paint(move || {
                    later::fetch_code(loaded, later::load());
                });
            }
            let begin = SessionStart {
                cover: cover.clone(),
                study: front.study.clone(),
                sha256: front.sha256.clone(),
                base: base.clone(),
                annotator,
                preview,
                source: source.clone(),
                write: crate::boot::writer(),
                started: RwSignal::new(crate::boot::started()),
            };
            view! { {move || session(loaded, begin.clone())} }.into_any()
        }
    }
    }
}
