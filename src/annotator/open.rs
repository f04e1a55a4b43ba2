//! The page shown when no study is named in the address: open one from a file or an address.

use juror_core::plan;
use leptos::ev::{DragEvent, Event};
use leptos::prelude::*;
use wasm_bindgen::JsCast;

use crate::services::location;

/// A labelled file input that hands the chosen file to `on_file`.
#[component]
pub fn FilePicker(
    on_file: Callback<web_sys::File>,
    label: &'static str,
    /// Drawn as a secondary button (an action that is not the page's main one).
    #[prop(optional)]
    secondary: bool,
) -> impl IntoView {
    let on_change = move |ev: Event| {
        let input = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok());
        if let Some(file) = input.and_then(|i| i.files()).and_then(|files| files.get(0)) {
            on_file.run(file);
        }
    };
    view! {
        <label class="file-picker">
            <span class="button" class:secondary=secondary>{label}</span>
            <input type="file" accept=".json,application/json" on:change=on_change />
        </label>
    }
}

/// "The link has a parameter Juror does not know: sutdy (did you mean study?). …", when the
/// page's address has one (`plan::unknown_parameters`): shown where a link did not get the
/// annotator to their study (no study named, or no annotator).
#[component]
pub fn BrokenLink() -> impl IntoView {
    let names = location::param_names();
    let unknown = plan::unknown_parameters(names.iter().map(String::as_str));
    plan::broken_link(&unknown).map(|text| {
        view! {
            <p class="error broken-link" role="alert">
                <strong>"This link looks broken. "</strong>
                {text}
            </p>
        }
    })
}

/// Choose a study: a file picker, a drop zone and an address form.
#[component]
pub fn OpenStudy(on_file: Callback<web_sys::File>) -> impl IntoView {
    let dragging = RwSignal::new(false);
    let on_drop = move |ev: DragEvent| {
        ev.prevent_default();
        dragging.set(false);
        let file = ev
            .data_transfer()
            .and_then(|dt| dt.files())
            .and_then(|files| files.get(0));
        if let Some(file) = file {
            on_file.run(file);
        }
    };
    view! {
        <section
            class="open-study"
            class:dragging=move || dragging.get()
            on:dragover=move |ev: DragEvent| {
                ev.prevent_default();
                dragging.set(true);
            }
            on:dragleave=move |_| dragging.set(false)
            on:drop=on_drop
        >
            <h1>"Juror"</h1>
            <BrokenLink />
            <p class="lead">
                "Blinded human evaluation of AI outputs. Open a study to begin: the link you were "
                "sent usually does this for you."
            </p>
            <div class="drop-zone">
                <p>"Drop a study file here, or"</p>
                <FilePicker on_file label="Choose a study file" />
            </div>
            <form method="get" class="open-by-address">
                <label for="study-address">"Or open a study by its address"</label>
                <div class="row">
                    <input
                        id="study-address"
                        name="study"
                        type="text"
                        placeholder="studies/my-study.json"
                        required
                    />
                    <button type="submit">"Open"</button>
                </div>
            </form>
            <p class="analyse-link">
                "Researchers: " <a href="analyse.html">"Analyse ratings files"</a>
            </p>
            <p class="privacy">
                "Opening a study uploads nothing. Your answers are saved in this browser; a study that sends them to its researcher says so before you start."
            </p>
            <super::KeptCount />
        </section>
    }
}
