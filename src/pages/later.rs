//! The pages after the welcome page (consent, instructions, surveys, trials, the end), the
//! overlays and the welcome page's restoring from a file, behind one call, [`page`], that the annotator's release build puts in a wasm of its
//! own: the welcome page arrives without them, and they load while the annotator reads it.
//!
//! The split is made by `scripts/post_build.py` from the `split` feature's build
//! (`#[wasm_split]` marks the call; without the feature, as in the Analyse page's preview and
//! the tests, the call is an ordinary one). [`load`] fetches the pages' wasm; once it is in, [`later`] renders
//! them at once, as if they had never been apart.

use std::future::Future;
use std::pin::pin;
use std::task::{Context, Poll, Waker};

use juror_core::session::{Overlay, Survey};
use leptos::prelude::*;
use leptos::wasm_split::SplitLoaderError;

use super::done::Finished;
use super::flow::{Consent, Restore, Shortcuts};
use super::instructions::{Instructions, RubricTable};
use super::survey::SurveyPage;
use super::trial::{TrialList, TrialPage};

/// A page (or an overlay's body) of the later part of the session.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Later {
    Consent,
    Instructions,
    Survey(Survey),
    Trials,
    Done,
    Overlay(Overlay),
    /// The welcome page's "Continue from a downloaded ratings file".
    Restore,
}

/// Whether the later pages' code is in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Loaded {
    Loading,
    Ready,
    /// It could not be fetched (offline before the page had ever been loaded whole).
    Failed,
}

/// Whether the later pages are in when the session's pages are first shown: only a split
/// build has anything to wait for.
pub fn at_start() -> Loaded {
    if cfg!(feature = "split") {
        Loaded::Loading
    } else {
        Loaded::Ready
    }
}

/// Fetches the later pages' wasm (nothing to do in a build that is not split).
pub async fn load() -> Result<(), SplitLoaderError> {
    load_pages().await
}

/// The page, once its code is in; until then, a note that it is loading (or could not be).
pub fn later(loaded: RwSignal<Loaded>, page: Later) -> AnyView {
    match loaded.get() {
        Loaded::Ready => match now(pages(page)) {
            Some(Ok(view)) => view,
            _ => loading(),
        },
        Loaded::Loading => loading(),
        Loaded::Failed => view! {
            <section class="load-failed" role="alert">
                <h1>"This page could not be loaded"</h1>
                <p>
                    "Your answers are saved in this browser. Check that you are online, then reload the page to continue."
                </p>
                <button type="button" class="primary" on:click=|_| crate::services::offline::reload()>
                    "Reload"
                </button>
            </section>
        }
        .into_any(),
    }
}

fn loading() -> AnyView {
    view! { <p class="loading" role="status">"Loading…"</p> }.into_any()
}

/// The future's value if it is ready at its first poll: the split call, once its code is in,
/// awaits nothing.
fn now<T>(future: impl Future<Output = T>) -> Option<T> {
    let mut future = pin!(future);
    match future
        .as_mut()
        .poll(&mut Context::from_waker(Waker::noop()))
    {
        Poll::Ready(value) => Some(value),
        Poll::Pending => None,
    }
}

fn render(page: Later) -> AnyView {
    match page {
        Later::Consent => view! { <Consent /> }.into_any(),
        Later::Instructions => view! { <Instructions /> }.into_any(),
        Later::Survey(survey) => view! { <SurveyPage survey /> }.into_any(),
        Later::Trials => view! { <TrialPage /> }.into_any(),
        Later::Done => view! { <Finished /> }.into_any(),
        Later::Overlay(Overlay::Rubric) => view! { <RubricTable /> }.into_any(),
        Later::Overlay(Overlay::Shortcuts) => view! { <Shortcuts /> }.into_any(),
        Later::Overlay(Overlay::TrialList) => view! { <TrialList /> }.into_any(),
        Later::Overlay(Overlay::None) => ().into_any(),
        Later::Restore => view! { <Restore /> }.into_any(),
    }
}

#[cfg(feature = "split")]
#[allow(improper_ctypes_definitions, improper_ctypes)]
#[leptos::wasm_split::wasm_split(
    juror_later,
    wasm_split_path = ::leptos::wasm_split,
    fallible,
    preload(load_pages)
)]
fn pages(page: Later) -> Result<AnyView, SplitLoaderError> {
    Ok(render(page))
}

#[cfg(not(feature = "split"))]
async fn pages(page: Later) -> Result<AnyView, SplitLoaderError> {
    Ok(render(page))
}

#[cfg(not(feature = "split"))]
async fn load_pages() -> Result<(), SplitLoaderError> {
    Ok(())
}
