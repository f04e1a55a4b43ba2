//! The root component: decides what the page shows from where the study comes from, whether it
//! could be loaded and validated, and who the annotator is.

use std::sync::Arc;

use juror_core::open::{Opened, open};
use juror_core::plan::{
    Annotator, ID_PARAMETERS, mturk_preview, platform_visit, resolve_annotator,
};
use juror_core::session::store;
use juror_core::study::Problems;
use juror_core::study::{Problem, Study};
use leptos::prelude::*;
use leptos::task::spawn_local;

use crate::pages::{
    Analyse, BrokenLink, Contact, OpenStudy, PreviewBanner, PreviewNames, StudyFlow, StudyProblems,
    Welcome,
};
use crate::services::{location, study_source};
use crate::session::SessionHandle;

/// Where the page is in loading a study.
#[derive(Clone, Debug)]
pub enum Load {
    /// No study named in the address: offer to open one.
    Choose,
    /// Fetching or reading `source`.
    Loading(String),
    /// The file could not be had at all.
    Unreachable { source: String, message: String },
    /// The file was read but is not a valid study; the study ids whose saved answers the page
    /// offers (`store::failed_study_ids`), and the contact line the file names, if any.
    Invalid {
        source: String,
        problems: Vec<Problem>,
        ids: Vec<String>,
        contact: Option<String>,
    },
    /// A valid study, with the SHA-256 of its text and the address its media are relative to.
    Ready(Arc<Study>, String, String),
}

/// How a page reads a study's text into a study it can play, with the SHA-256 that names its
/// saved answers and ratings files.
pub type Opener = fn(&str) -> Result<Opened, Problems>;

impl Load {
    /// The state after reading `source` with `opener`: the text, or why it could not be read.
    pub fn from_text(source: String, text: Result<String, String>, opener: Opener) -> Load {
        match text {
            Err(message) => Load::Unreachable { source, message },
            Ok(text) => match opener(&text) {
                Ok(Opened { study, sha256 }) => {
                    let base = media_base(&source);
                    Load::Ready(Arc::new(study), sha256, base)
                }
                Err(problems) => Load::Invalid {
                    ids: store::failed_study_ids(&source, Some(&text)),
                    contact: store::failed_study_contact(&text),
                    source,
                    problems: problems.0,
                },
            },
        }
    }
}

/// The folder of a study's address, to which its media paths are relative: `studies/` for
/// `studies/finance.json`; empty for a file opened from the computer (no folder to resolve
/// against: its media must then be absolute or relative to the page).
pub fn media_base(source: &str) -> String {
    let is_address = source.contains('/') || source.starts_with("http");
    match source.rfind('/') {
        Some(i) if is_address => source[..=i].to_owned(),
        _ => String::new(),
    }
}

/// The annotator named by the page's address: `slot`, and an id (`annotator`, Prolific's
/// `PROLIFIC_PID`, MTurk's `workerId` or SONA's `id`: `plan::ID_PARAMETERS`), with the
/// platform's other parameters (`plan::platform_visit`), which the ratings file records.
fn annotator_from_address(study: &Study) -> Option<Result<Annotator, Problem>> {
    let slot = location::query_param("slot");
    let id = ID_PARAMETERS
        .iter()
        .find_map(|name| location::query_param(name));
    if slot.is_none() && id.is_none() {
        return None;
    }
    Some(
        resolve_annotator(study, slot.as_deref(), id.as_deref()).map(|annotator| Annotator {
            platform: platform_visit(location::query_param),
            ..annotator
        }),
    )
}

/// The researcher's page (`analyse.html`, its own wasm): the analysis; or, with `?study=`, the
/// study played as an annotator plays it (`&slot=1&preview` shows each output's system), by the
/// researcher's own reader, which keeps every check and message.
#[component]
pub fn AnalyseApp() -> impl IntoView {
    if location::query_param("study").is_some() {
        return view! { <Player opener=open /> }.into_any();
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
    view! { <Player opener=open /> }.into_any()
}

/// A study named by the address (`?study=`) or opened from the computer, read by `opener`, then
/// played: the pages of loading, of a study that cannot be opened, and of the session.
#[component]
fn Player(opener: Opener) -> impl IntoView {
    let initial = match location::query_param("study") {
        Some(url) => Load::Loading(url),
        None => Load::Choose,
    };
    let load = RwSignal::new(initial.clone());
    if let Load::Loading(url) = initial {
        spawn_local(async move {
            let text = study_source::fetch_text(&url).await;
            load.set(Load::from_text(url, text, opener));
        });
    }
    let open_file = Callback::new(move |file: web_sys::File| {
        let name = file.name();
        load.set(Load::Loading(name.clone()));
        spawn_local(async move {
            let text = study_source::read_file(file).await;
            load.set(Load::from_text(name, text, opener));
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
                Load::Choose => view! { <OpenStudy on_file=open_file /> }.into_any(),
                Load::Loading(source) => view! {
                    <section class="loading" aria-busy="true">
                        <h1>"Loading the study…"</h1>
                        <p>{source}</p>
                    </section>
                }
                .into_any(),
                Load::Unreachable { source, message } => {
                    let ids = store::failed_study_ids(&source, None);
                    view! {
                        <StudyProblems source lead=message problems=Vec::new() on_file=open_file ids contact=None />
                    }
                    .into_any()
                }
                Load::Invalid { source, problems, ids, contact } => {
                    view! {
                        <StudyProblems
                            source
                            lead="The study file has problems, so it cannot be opened.".to_owned()
                            problems
                            on_file=open_file
                            ids
                            contact
                        />
                    }
                    .into_any()
                }
                Load::Ready(study, sha256, base) => view! { <Ready study sha256 base /> }.into_any(),
            }}
        </main>
    }
}

/// A valid study: find out who the annotator is, then run their session.
#[component]
fn Ready(study: Arc<Study>, sha256: String, base: String) -> impl IntoView {
    let chosen: RwSignal<Option<Result<Annotator, Problem>>> =
        RwSignal::new(annotator_from_address(&study));
    let study_for_code = study.clone();
    let on_code = Callback::new(move |code: String| {
        let result = resolve_annotator(&study_for_code, None, Some(&code));
        if let Ok(a) = &result {
            location::set_annotator(a.slot, a.id.as_deref());
        }
        chosen.set(Some(result));
    });
    // MTurk shows the task before the worker accepts it: the welcome page only.
    let mturk_preview = mturk_preview(location::query_param("assignmentId").as_deref());
    move || {
        match chosen.get() {
        _ if mturk_preview => view! {
            <Welcome study=study.clone()>
                <p class="hint" role="status">
                    "This is a preview. Accept the task on Mechanical Turk to start; nothing is recorded until then."
                </p>
            </Welcome>
        }
        .into_any(),
        None => view! {
            <BrokenLink />
            <Welcome study=study.clone() on_code />
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
                {study.contact().map(|c| view! { <p class="contact">"Contact: " <Contact text=c.to_owned() /></p> })}
            </section>
        }
        .into_any(),
        Some(Ok(annotator)) => {
            let preview = location::has_param("preview");
            let handle = SessionHandle::start(
                study.clone(),
                sha256.clone(),
                base.clone(),
                annotator,
                preview,
            );
            provide_context(handle);
            if preview {
                let names = PreviewNames::default();
                provide_context(names);
                return view! {
                    <PreviewBanner study=study.clone() names />
                    <StudyFlow />
                }
                .into_any();
            }
            // The study and its media, for reloading offline even after this first visit.
            if let Some(url) = location::query_param("study") {
                let media = study.items().iter().filter_map(|i| i.media.as_ref());
                let mut urls = vec![url];
                urls.extend(media.map(|m| handle.media_src(&m.src)));
                crate::services::offline::keep_for_offline(urls);
            }
            view! { <StudyFlow /> }.into_any()
        }
    }
    }
}

#[cfg(test)]
mod tests {
    use super::Load;
    use juror_core::open::open;

    #[test]
    fn text_becomes_ready_invalid_or_unreachable() {
        let bad = Load::from_text("a.json".into(), Ok("{".into()), open);
        assert!(matches!(bad, Load::Invalid { ref problems, .. } if problems.len() == 1));
        let gone = Load::from_text("a.json".into(), Err("404".into()), open);
        assert!(matches!(gone, Load::Unreachable { .. }));
        let text = include_str!("../crates/juror-core/tests/fixtures/valid/minimal.json");
        let ok = Load::from_text("a.json".into(), Ok(text.into()), open);
        assert!(matches!(ok, Load::Ready(_, ref hash, _) if hash.len() == 64));
    }

    #[test]
    fn media_resolve_against_the_study_folder() {
        use super::media_base;
        assert_eq!(media_base("studies/finance.json"), "studies/");
        assert_eq!(media_base("https://x.org/a/b.json"), "https://x.org/a/");
        assert_eq!(media_base("my-study.json"), "");
    }
}
