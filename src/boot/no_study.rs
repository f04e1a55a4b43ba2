//! The pages for no study (`crate::annotator::no_study_page`), behind one call that the
//! annotator's release build puts in a wasm of its own, fetched only when one is shown (as the
//! session is: `src/boot/later.rs`). Until it is in the page says it is loading; if it cannot be
//! fetched, that it could not be loaded, with Reload.

use leptos::prelude::*;
use leptos::wasm_split::SplitLoaderError;

use super::later::{Loaded, at_start, fetch_code, load_failed, loading, now};
use crate::annotator::{NoStudy, no_study_page};

/// The page for `why`, once its code is in; `on_file` opens a study chosen from the computer.
#[component]
pub fn NoStudyPage(why: NoStudy, on_file: Callback<web_sys::File>) -> impl IntoView {
    let loaded = RwSignal::new(at_start());
    if loaded.get_untracked() == Loaded::Loading {
        fetch_code(loaded, load_pages());
    }
    move || match loaded.get() {
        Loaded::Ready => match now(page(why.clone(), on_file)) {
            Some(Ok(view)) => view,
            _ => loading(),
        },
        Loaded::Loading => loading(),
        Loaded::Failed => load_failed(),
    }
}

#[cfg(feature = "split")]
#[allow(improper_ctypes_definitions, improper_ctypes)]
#[leptos::wasm_split::wasm_split(
    juror_problems,
    wasm_split_path = ::leptos::wasm_split,
    fallible,
    preload(load_pages)
)]
fn page(why: NoStudy, on_file: Callback<web_sys::File>) -> Result<AnyView, SplitLoaderError> {
    Ok(no_study_page(why, on_file))
}

#[cfg(not(feature = "split"))]
async fn page(why: NoStudy, on_file: Callback<web_sys::File>) -> Result<AnyView, SplitLoaderError> {
    Ok(no_study_page(why, on_file))
}

#[cfg(not(feature = "split"))]
async fn load_pages() -> Result<(), SplitLoaderError> {
    Ok(())
}
