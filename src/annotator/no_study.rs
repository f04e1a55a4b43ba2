//! The pages shown when there is no study to play: none named in the address (choose one), one
//! that could not be had, one with problems (with the answers this browser keeps for it), one
//! written but not compiled (the researcher's page opens it). An annotator with a working link
//! never sees them: the release build fetches their code only when one is shown
//! (`src/boot/no_study.rs`).

use std::sync::Arc;

use juror_core::session::store;
use juror_core::study::Problem;
use leptos::prelude::*;

use super::{OpenStudy, StudyProblems};

/// Why there is no study to play.
#[derive(Clone, Debug)]
pub enum NoStudy {
    /// None named in the address: offer to open one.
    Choose,
    /// The file could not be had at all.
    Unreachable { source: String, message: String },
    /// The file was read but is not a valid study: its problems, and its text (the page
    /// offers the saved answers of the study ids it names, `store::failed_study_ids`, and gives
    /// the contact line it names, if any: read here, with this page's code).
    Invalid {
        source: String,
        problems: Vec<Problem>,
        text: Arc<str>,
    },
    /// A study as written (not compiled) opened from the computer, which the annotator's page
    /// does not play (one named by the address goes to the researcher's page at once: `app.rs`).
    AsWritten { source: String },
}

/// The page for `why` (the release build fetches this code only when one is shown:
/// `src/boot/no_study.rs`).
pub fn no_study_page(why: NoStudy, on_file: Callback<web_sys::File>) -> AnyView {
    match why {
        NoStudy::Choose => view! { <OpenStudy on_file /> }.into_any(),
        NoStudy::Unreachable { source, message } => {
            let ids = store::failed_study_ids(&source, None);
            view! {
                <StudyProblems source lead=message problems=Vec::new() on_file ids contact=None />
            }
            .into_any()
        }
        NoStudy::Invalid {
            source,
            problems,
            text,
        } => {
            let ids = store::failed_study_ids(&source, Some(&text));
            let contact = store::failed_study_contact(&text);
            view! {
                <StudyProblems
                    source
                    lead="The study file has problems, so it cannot be opened.".to_owned()
                    problems
                    on_file
                    ids
                    contact
                />
            }
            .into_any()
        }
        NoStudy::AsWritten { source } => view! { <AsWritten source /> }.into_any(),
    }
}

/// A study as written opened from the computer, on the annotator's page: where to open it (the
/// researcher's page checks it and plays it as an annotator would, with every check).
#[component]
fn AsWritten(source: String) -> impl IntoView {
    view! {
        <section class="study-problems" role="status">
            <h1>"This study opens on the researcher's page"</h1>
            <p class="source">"Study: " <code>{source}</code></p>
            <p>
                "This file is a study as written, not compiled for annotators. The researcher's "
                "page checks it and plays it as an annotator would; a study for annotators is "
                "compiled first ("<code>"juror compile"</code>" or "<code>"juror publish"</code>")."
            </p>
            <p>
                "There, choose the file again: "
                <a href="analyse.html?open">"Open it on the researcher's page"</a>
            </p>
            <p class="hint">
                "If you were sent this file to take part in a study, ask the researcher for the "
                "study's link instead."
            </p>
        </section>
    }
}
