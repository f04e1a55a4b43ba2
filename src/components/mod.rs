//! Widgets the pages share: rich text (the study's Markdown, as the core's tree, built into DOM
//! nodes; in [`rich`]), and for the researcher's pages, picking files (a button, a drop zone, one
//! optional file with a way to remove it). They read files through
//! `services::study_source` and hand them on as the core's [`FileText`]; they take no decision.

pub mod rich;

use juror_core::analysis::run::FileText;
use juror_core::analysis::slot::{Slot, misplaced};
use leptos::ev::{DragEvent, Event};
use leptos::prelude::*;
use leptos::task::spawn_local;
use wasm_bindgen::JsCast;

use crate::services::study_source;

/// The files of a file list, read, as the core takes them.
async fn read(files: Vec<web_sys::File>) -> Vec<FileText> {
    let picked = study_source::read_files(files).await;
    picked
        .into_iter()
        .map(|(name, text)| FileText { name, text })
        .collect()
}

/// The files of a file input's change event; the input is then cleared, so that choosing the
/// same file again (after removing it) is a change too.
fn files_of_change(ev: &Event) -> Vec<web_sys::File> {
    let Some(input) = ev
        .target()
        .and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok())
    else {
        return Vec::new();
    };
    let files = study_source::files_of(input.files());
    input.set_value("");
    files
}

/// A labelled file input for one or many files; hands the files read to `on_files`.
#[component]
pub fn FilesPicker(
    label: &'static str,
    accept: &'static str,
    multiple: bool,
    on_files: Callback<Vec<FileText>>,
) -> impl IntoView {
    let on_change = move |ev: Event| {
        let files = files_of_change(&ev);
        spawn_local(async move {
            let picked = read(files).await;
            if !picked.is_empty() {
                on_files.run(picked);
            }
        });
    };
    view! {
        <label class="file-picker">
            <span class="button secondary">{label}</span>
            <input type="file" accept=accept multiple=multiple on:change=on_change />
        </label>
    }
}

/// A zone to drop files on, with a picker for those who do not drag; hands the files read to
/// `on_files`.
#[component]
pub fn DropZone(
    /// What to drop, shown in the zone.
    text: &'static str,
    label: &'static str,
    accept: &'static str,
    on_files: Callback<Vec<FileText>>,
) -> impl IntoView {
    let dragging = RwSignal::new(false);
    let on_drop = move |ev: DragEvent| {
        ev.prevent_default();
        dragging.set(false);
        let files = study_source::files_of(ev.data_transfer().and_then(|dt| dt.files()));
        spawn_local(async move {
            let picked = read(files).await;
            if !picked.is_empty() {
                on_files.run(picked);
            }
        });
    };
    view! {
        <div
            class="drop-zone"
            class:dragging=move || dragging.get()
            on:dragover=move |ev: DragEvent| {
                ev.prevent_default();
                dragging.set(true);
            }
            on:dragleave=move |_| dragging.set(false)
            on:drop=on_drop
        >
            <p>{text}</p>
            <FilesPicker label accept multiple=true on_files />
        </div>
    }
}

/// One optional file (a study, a key, an adjudication file): its picker, the file chosen, and a
/// way to remove it.
#[component]
pub fn OptionalFile(
    label: &'static str,
    hint: &'static str,
    accept: &'static str,
    file: RwSignal<Option<FileText>>,
    /// Where the file goes: a file of another kind (a key chosen as the study) is refused here,
    /// with where it belongs ([`juror_core::analysis::slot::misplaced`]). (Not `slot`: the
    /// view macro keeps that word for Leptos's slots.)
    kind: Slot,
) -> impl IntoView {
    let refused: RwSignal<Option<String>> = RwSignal::new(None);
    let on_files = Callback::new(move |picked: Vec<FileText>| {
        let Some(chosen) = picked.into_iter().next() else {
            return;
        };
        let why = chosen.text.as_deref().ok().and_then(|t| misplaced(kind, t));
        match why {
            Some(why) => refused.set(Some(format!("Not taken: {}: {why}.", chosen.name))),
            None => {
                refused.set(None);
                file.set(Some(chosen));
            }
        }
    });
    view! {
        <div class="optional-file">
            <FilesPicker label accept multiple=false on_files />
            <span class="hint">{hint}</span>
            {move || refused.get().map(|why| view! { <p class="error" role="alert">{why}</p> })}
            {move || {
                file.get()
                    .map(|FileText { name, .. }| {
                        view! {
                            <span class="chosen">
                                <code>{name.clone()}</code>
                                <button
                                    type="button"
                                    class="small link"
                                    aria-label=format!("Remove {name}")
                                    on:click=move |_| file.set(None)
                                >
                                    "Remove"
                                </button>
                            </span>
                        }
                    })
            }}
        </div>
    }
}
