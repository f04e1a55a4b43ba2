//! The root component: decides what the page shows from where the study comes from and whether
//! it could be loaded and validated.

use std::sync::Arc;

use juror_core::study::{Problem, Study, parse_study};
use leptos::prelude::*;
use leptos::task::spawn_local;

use crate::pages::{OpenStudy, StudyProblems, Welcome};
use crate::services::{location, study_source};

/// Where the page is in loading a study.
#[derive(Clone, Debug)]
pub enum Load {
    /// No study named in the address: offer to open one.
    Choose,
    /// Fetching or reading `source`.
    Loading(String),
    /// The file could not be had at all.
    Unreachable { source: String, message: String },
    /// The file was read but is not a valid study.
    Invalid {
        source: String,
        problems: Vec<Problem>,
    },
    /// A valid study.
    Ready(Arc<Study>),
}

impl Load {
    /// The state after reading `source`: the text, or why it could not be read.
    pub fn from_text(source: String, text: Result<String, String>) -> Load {
        match text {
            Err(message) => Load::Unreachable { source, message },
            Ok(text) => match parse_study(&text) {
                Ok(study) => Load::Ready(Arc::new(study)),
                Err(problems) => Load::Invalid {
                    source,
                    problems: problems.0,
                },
            },
        }
    }
}

/// The whole app.
#[component]
pub fn App() -> impl IntoView {
    let initial = match location::query_param("study") {
        Some(url) => Load::Loading(url),
        None => Load::Choose,
    };
    let load = RwSignal::new(initial.clone());
    if let Load::Loading(url) = initial {
        spawn_local(async move {
            let text = study_source::fetch_text(&url).await;
            load.set(Load::from_text(url, text));
        });
    }
    let open_file = Callback::new(move |file: web_sys::File| {
        let name = file.name();
        load.set(Load::Loading(name.clone()));
        spawn_local(async move {
            let text = study_source::read_file(file).await;
            load.set(Load::from_text(name, text));
        });
    });

    view! {
        <main id="main">
            {move || match load.get() {
                Load::Choose => view! { <OpenStudy on_file=open_file /> }.into_any(),
                Load::Loading(source) => view! {
                    <section class="loading" aria-busy="true">
                        <h1>"Loading the study…"</h1>
                        <p>{source}</p>
                    </section>
                }
                .into_any(),
                Load::Unreachable { source, message } => view! {
                    <StudyProblems source lead=message problems=Vec::new() on_file=open_file />
                }
                .into_any(),
                Load::Invalid { source, problems } => view! {
                    <StudyProblems
                        source
                        lead="The study file has problems, so it cannot be opened.".to_owned()
                        problems
                        on_file=open_file
                    />
                }
                .into_any(),
                Load::Ready(study) => view! { <Welcome study /> }.into_any(),
            }}
        </main>
    }
}

#[cfg(test)]
mod tests {
    use super::Load;

    #[test]
    fn text_becomes_ready_invalid_or_unreachable() {
        let bad = Load::from_text("a.json".into(), Ok("{".into()));
        assert!(matches!(bad, Load::Invalid { ref problems, .. } if problems.len() == 1));
        let gone = Load::from_text("a.json".into(), Err("404".into()));
        assert!(matches!(gone, Load::Unreachable { .. }));
        let text = include_str!("../crates/juror-core/tests/fixtures/valid/minimal.json");
        let ok = Load::from_text("a.json".into(), Ok(text.into()));
        assert!(matches!(ok, Load::Ready(_)));
    }
}
