//! The researcher's preview (`&preview`): the banner saying so, and the system of each output.
//! A published study serves sealed tokens, not names: the banner then offers to choose the
//! study's key (written by `juror publish`), read in the page and kept in memory only (never
//! stored or sent), and the outputs show their systems' names beside the tokens. Annotators
//! have no key, so `&preview` shows them nothing a published study does not already serve.

use std::collections::BTreeMap;
use std::sync::Arc;

use juror_core::study::Study;
use leptos::prelude::*;

use super::FilePicker;
use crate::services::study_source;

/// The systems' names by token, from the key chosen in the preview (empty until then).
#[derive(Clone, Copy)]
pub struct PreviewNames(RwSignal<BTreeMap<String, String>>);

impl Default for PreviewNames {
    /// No names yet.
    fn default() -> PreviewNames {
        PreviewNames(RwSignal::new(BTreeMap::new()))
    }
}

/// The preview's banner; for a published study, with the way to name its systems.
#[component]
pub fn PreviewBanner(study: Arc<Study>, names: PreviewNames) -> impl IntoView {
    if !juror_core::publish::is_sealed(study.systems()) {
        return view! {
            <p class="preview-banner" role="status">
                <strong>"Preview."</strong>
                " Each output shows the system that wrote it, and nothing you answer is saved. Annotators' links have no "
                <code>"&preview"</code>
                "."
            </p>
        }
        .into_any();
    }
    let status = RwSignal::new(None::<String>);
    // The key's name as juror publish wrote it: the study file's name, not the study's id.
    let served = crate::services::location::query_param("study");
    let file_name = served
        .as_deref()
        .and_then(|path| path.rsplit('/').next())
        .filter(|name| !name.is_empty())
        .map_or_else(|| format!("{}.json", study.id()), str::to_owned);
    let key_file = juror_core::publish::key_file_name(&file_name);
    let on_file = Callback::new(move |file: web_sys::File| {
        let study = study.clone();
        leptos::task::spawn_local(async move {
            let read = study_source::read_file(file).await;
            match read.and_then(|text| juror_core::publish::preview_names(&text, &study)) {
                Ok(found) => {
                    status.set(Some(format!(
                        "The outputs now show their systems' names ({} tokens named).",
                        found.len()
                    )));
                    names.0.set(found);
                }
                Err(e) => status.set(Some(format!("This key cannot be used: {e}."))),
            }
        });
    });
    view! {
        <div class="preview-banner" role="status">
            <p>
                <strong>"Preview of a published study."</strong>
                {move || if names.0.with(BTreeMap::is_empty) {
                    view! {
                        " Each output shows its sealed token, not its system's name: choose the study's key ("
                        <code>{key_file.clone()}</code>
                        " in the keys folder juror publish wrote) to see the names."
                    }
                    .into_any()
                } else {
                    " Each output shows its system's name, from the key, beside its token.".into_any()
                }}
                " The key is read in this page only, never saved or sent. Nothing you answer is saved. Annotators' links have no "
                <code>"&preview"</code>
                "."
            </p>
            <FilePicker on_file label="Choose the key file" secondary=true />
            <p role="status">{move || status.get()}</p>
        </div>
    }
    .into_any()
}

/// The system of an output in the preview: as the study names it, with the name from the key
/// beside a published study's token once the key is chosen.
#[component]
pub fn PreviewSystem(system: String) -> impl IntoView {
    let names = use_context::<PreviewNames>();
    move || {
        let name = names.and_then(|n| n.0.with(|m| m.get(&system).cloned()));
        match name {
            Some(name) => view! {
                <code>{name}</code>
                " (token "
                <code>{system.clone()}</code>
                ")"
            }
            .into_any(),
            None => view! { <code>{system.clone()}</code> }.into_any(),
        }
    }
}
