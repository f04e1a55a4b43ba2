//! The session, behind one call, [`session`], that the annotator's release build puts in a wasm
//! of its own: opening the saved answers, the plan, the reducer, saving, every page from the
//! welcome page's Start on (consent, instructions, surveys, trials, the end), the overlays and
//! restoring from a file, and reading the compiled study itself. The first download carries
//! only what shows the study's welcome page (the compiled study's cover and [`Waiting`]); the
//! session loads while the annotator reads it.
//!
//! The split is made by `scripts/post_build.py` from the `split` feature's build
//! (`#[wasm_split]` marks the call; without the feature, as in the Analyse page's preview and
//! the tests, the call is an ordinary one). [`load`] fetches the session's wasm; once it is in,
//! [`session`] renders it at once, as if it had never been apart.

use std::future::Future;
use std::pin::pin;
use std::sync::Arc;
use std::task::{Context, Poll, Waker};

use juror_core::front::cover::Cover;
use juror_core::plan::Annotator;
use juror_core::session::Phase;
use juror_core::study::{Problems, Study};
use leptos::prelude::*;
use leptos::wasm_split::SplitLoaderError;

use super::study::read_study;
use crate::annotator::{
    Contact, PreviewBanner, PreviewNames, StartActions, StudyFlow, Welcome, start,
};
use crate::session::{SessionHandle, Source, StoreWriter, media_src};

/// Whether the session's code is in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Loaded {
    Loading,
    Ready,
    /// It could not be fetched (offline before the page had ever been loaded whole).
    Failed,
}

/// Whether the session's code is in when the study is first shown: only a split build has
/// anything to wait for.
pub fn at_start() -> Loaded {
    if cfg!(feature = "split") {
        Loaded::Loading
    } else {
        Loaded::Ready
    }
}

/// Fetches the session's wasm (nothing to do in a build that is not split).
pub async fn load() -> Result<(), SplitLoaderError> {
    load_session().await
}

/// Fetches a split's code (`load`: [`load`], or the pages for no study's), then says in
/// `loaded` whether it is in, once nothing is pressed: the session's welcome page replaces the
/// study's, and a Start pressed on one and released on the other would be no click at all.
pub fn fetch_code(
    loaded: RwSignal<Loaded>,
    load: impl Future<Output = Result<(), SplitLoaderError>> + 'static,
) {
    leptos::task::spawn_local(async move {
        let state = match load.await {
            Ok(()) => Loaded::Ready,
            Err(_) => Loaded::Failed,
        };
        settle(loaded, state, 40);
    });
}

/// Sets `loaded` once nothing is pressed on the page, checking every 50 ms `tries` times at
/// most (a press held longer, or one whose release the page never sees, does not hold it back).
fn settle(loaded: RwSignal<Loaded>, state: Loaded, tries: u8) {
    if tries == 0 || !super::pressed() {
        loaded.set(state);
    } else {
        crate::services::dom::after(50, move || settle(loaded, state, tries - 1));
    }
}

/// What a session starts from: the study as the page read it and who the annotator is.
#[derive(Clone)]
pub struct SessionStart {
    /// What the welcome page shows.
    pub cover: Arc<Cover>,
    /// The study, when the page read it whole (the researcher's page); else the session reads
    /// it from `source`'s text (`boot::read_study`).
    pub study: Option<Arc<Study>>,
    /// SHA-256 of the study's text.
    pub sha256: String,
    /// The folder the study's media are relative to.
    pub base: String,
    pub annotator: Annotator,
    /// The researcher's preview (`&preview`): nothing read from or written to storage.
    pub preview: bool,
    /// The study's text and the page's reader of ratings files.
    pub source: Source,
    /// How a save's text is written (`session::write_store`: see [`StoreWriter`]).
    pub write: StoreWriter,
    /// Start was pressed on the welcome page before the session's code was in: the session
    /// starts as it opens.
    pub started: RwSignal<bool>,
}

/// The session, once its code is in. Until then, the study's welcome page; once Start is
/// pressed (or for an annotator with saved answers, who may be past the welcome page), a note
/// that the page is loading, or that it could not be loaded.
pub fn session(loaded: RwSignal<Loaded>, begin: SessionStart) -> AnyView {
    let state = loaded.get();
    if state == Loaded::Ready {
        return match now(open(begin)) {
            Some(Ok(view)) => view,
            _ => loading(),
        };
    }
    if !begin.started.get() && !has_saved(&begin) {
        return view! { <Waiting begin /> }.into_any();
    }
    match state {
        Loaded::Failed => load_failed(),
        _ => loading(),
    }
}

/// The page's code could not be fetched (offline before the page had ever been loaded whole):
/// what to do, and Reload.
pub fn load_failed() -> AnyView {
    view! {
        <section class="load-failed" role="alert">
            <h1>"This page could not be loaded"</h1>
            <p>
                "Check that you are online, then reload the page. Answers already given are kept in this browser."
            </p>
            <button type="button" class="primary" on:click=|_| crate::services::offline::reload()>
                "Reload"
            </button>
        </section>
    }
    .into_any()
}

/// Whether this browser holds a session of this annotator (read as text only: what to make of
/// it is the session's).
fn has_saved(begin: &SessionStart) -> bool {
    !begin.preview && super::has_saved(&begin.sha256, &begin.annotator)
}

/// The welcome page as the study shows it before the session is in: the same page, its Start
/// remembered until the session can begin.
#[component]
fn Waiting(begin: SessionStart) -> impl IntoView {
    let trials = begin.cover.trials_for(&begin.annotator);
    let started = begin.started;
    crate::services::dom::set_title(&format!("{} — Juror", begin.cover.title));
    view! {
        <Welcome cover=begin.cover trials>
            <StartActions on_start=Callback::new(move |()| started.set(true))>
                {loading()}
            </StartActions>
        </Welcome>
    }
}

/// "Loading…", while a page's code is on its way.
pub fn loading() -> AnyView {
    view! { <p class="loading" role="status">{crate::services::welcome_page::LOADING}</p> }
        .into_any()
}

/// The future's value if it is ready at its first poll: the split call, once its code is in,
/// awaits nothing.
pub fn now<T>(future: impl Future<Output = T>) -> Option<T> {
    let mut future = pin!(future);
    match future
        .as_mut()
        .poll(&mut Context::from_waker(Waker::noop()))
    {
        Poll::Ready(value) => Some(value),
        Poll::Pending => None,
    }
}

/// Opens the session (resumes it, or starts it when Start was pressed while it loaded) and
/// renders its pages.
fn render(begin: SessionStart) -> AnyView {
    // The session's welcome page replaces the study's (still on the page while this runs): a
    // keyboard user's focus on Start, or an open "Continue from a downloaded ratings file",
    // stays where it was.
    let carried = crate::services::dom::carry();
    let study = match begin.study {
        Some(study) => study,
        None => match read_study(&begin.source.text) {
            Ok(study) => Arc::new(study),
            Err(problems) => return unplayable(&problems, &begin.cover),
        },
    };
    let (preview, started) = (begin.preview, begin.started);
    // The study and its media, for reloading offline even after this first visit.
    if let (false, Some(url)) = (preview, crate::services::location::query_param("study")) {
        let media = study.items().iter().filter_map(|i| i.media.as_ref());
        let mut urls = vec![url];
        urls.extend(media.map(|m| media_src(&begin.base, &m.src)));
        crate::services::offline::keep_for_offline(urls);
    }
    let handle = SessionHandle::start(
        study.clone(),
        begin.sha256,
        begin.base,
        begin.annotator,
        preview,
        begin.source,
        begin.write,
    );
    provide_context(handle);
    if started.get_untracked() && handle.with_untracked(|s| s.phase() == Phase::Welcome) {
        start(handle);
    }
    crate::services::dom::carry_over(carried);
    if preview {
        let names = PreviewNames::default();
        provide_context(names);
        return view! {
            <PreviewBanner study names />
            <StudyFlow />
        }
        .into_any();
    }
    view! { <StudyFlow /> }.into_any()
}

/// A compiled study whose cover read but whose whole does not (a study edited by hand with its
/// checksum made right, or a compiler's mistake): its problems, each with its place and code,
/// before anything can be answered.
fn unplayable(problems: &Problems, cover: &Cover) -> AnyView {
    let rows = problems
        .0
        .iter()
        .map(|p| {
            view! {
                <li>
                    <code>{p.at.clone()}</code>
                    ": "
                    {p.message.clone()}
                    <br />
                    {format!("Fix: {}.", p.fix)}
                </li>
            }
        })
        .collect_view();
    let contact = cover.contact.clone();
    view! {
        <section class="study-problems" role="alert">
            <h1>"This study cannot be opened"</h1>
            <p>"The study file has problems, so nothing can be answered yet:"</p>
            <ul>{rows}</ul>
            {contact.map(|text| view! { <p class="contact">"Contact: " <Contact text /></p> })}
        </section>
    }
    .into_any()
}

#[cfg(feature = "split")]
#[allow(improper_ctypes_definitions, improper_ctypes)]
#[leptos::wasm_split::wasm_split(
    juror_later,
    wasm_split_path = ::leptos::wasm_split,
    fallible,
    preload(load_session)
)]
fn open(begin: SessionStart) -> Result<AnyView, SplitLoaderError> {
    Ok(render(begin))
}

#[cfg(not(feature = "split"))]
async fn open(begin: SessionStart) -> Result<AnyView, SplitLoaderError> {
    Ok(render(begin))
}

#[cfg(not(feature = "split"))]
async fn load_session() -> Result<(), SplitLoaderError> {
    Ok(())
}
