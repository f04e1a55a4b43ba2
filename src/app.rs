//! The root component: decides what the page shows from where the study comes from, whether it
//! could be loaded and validated, and who the annotator is.

use std::sync::Arc;

use juror_core::compiled;
use juror_core::open::{Opened, open};
use juror_core::plan::{
    Annotator, ID_PARAMETERS, mturk_preview, platform_visit, resolve_annotator,
};
use juror_core::session::store;
use juror_core::study::Problems;
use juror_core::study::{Problem, Study};
use leptos::prelude::*;
use leptos::task::spawn_local;

use crate::pages::later::{self, Loaded, SessionStart, session};
use crate::pages::{Analyse, BrokenLink, Contact, NoStudy, NoStudyPage, Welcome};
use crate::services::{location, ratings_reader, study_source};
use crate::session::{RatingsReader, Source, media_src, read_ratings_here, write_store};

/// Where the page is in loading a study.
#[derive(Clone, Debug)]
pub enum Load {
    /// Fetching or reading `source`.
    Loading(String),
    /// No study to play: none named, or it could not be had or opened.
    NoStudy(NoStudy),
    /// A valid study, with the SHA-256 of its text, the address its media are relative to, and
    /// its text (for reading a ratings file against it).
    Ready(Arc<Study>, String, String, Arc<str>),
    /// A study as written (not compiled), which the annotator's page does not play: one named
    /// by the address opens on the researcher's page, which plays it with every check; one
    /// opened from the computer is sent there.
    AsWritten { source: String, from_file: bool },
}

/// How a page reads a study's text into a study it can play, with the SHA-256 that names its
/// saved answers and ratings files: [`read_compiled`] (the annotator's page) or [`open_any`]
/// (the researcher's).
pub type Opener = fn(&str) -> Result<Opened, Problems>;

/// The annotator's reader: compiled studies only ([`compiled::read`]), each problem with its
/// place and code (the code's full text is the researcher's: `juror validate`).
///
/// # Errors
/// The compiled study's problems.
pub fn read_compiled(text: &str) -> Result<Opened, Problems> {
    compiled::read(text)
        .map(compiled::Compiled::opened)
        .map_err(|p| p.short())
}

/// The researcher's reader: a compiled study as the annotator's page reads it, each problem
/// explained in full; a study as written opened with every check and message, its Markdown
/// rendered as compiling would.
///
/// # Errors
/// Every problem found.
pub fn open_any(text: &str) -> Result<Opened, Problems> {
    if compiled::is_compiled(text) {
        return compiled::read(text)
            .map(compiled::Compiled::opened)
            .map_err(|p| p.explained());
    }
    let mut opened = open(text)?;
    compiled::render_texts(&mut opened.study, juror_core::markdown::to_rich);
    Ok(opened)
}

impl Load {
    /// The state after reading `source` with `opener`: the text, or why it could not be read.
    /// With `compiled_only` (the annotator's page), a text that is not a compiled study is
    /// [`Load::AsWritten`].
    pub fn from_text(
        source: String,
        text: Result<String, String>,
        opener: Opener,
        compiled_only: bool,
        from_file: bool,
    ) -> Load {
        match text {
            Err(message) => Load::NoStudy(NoStudy::Unreachable { source, message }),
            Ok(text) if compiled_only && !compiled::is_compiled(&text) => {
                Load::AsWritten { source, from_file }
            }
            Ok(text) => match opener(&text) {
                Ok(Opened { study, sha256 }) => {
                    let base = media_base(&source);
                    Load::Ready(Arc::new(study), sha256, base, text.into())
                }
                Err(problems) => Load::NoStudy(NoStudy::Invalid {
                    ids: store::failed_study_ids(&source, Some(&text)),
                    contact: store::failed_study_contact(&text),
                    source,
                    problems: problems.0,
                }),
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
    // Before anything can be pressed: the session's code waits for a press to end (later.rs).
    crate::services::dom::watch_presses();
    let initial = match location::query_param("study") {
        // Usually in before the wasm: opened at once, with no "Loading…" page in between.
        Some(url) => match study_source::early_text(&url) {
            Some(text) => Load::from_text(url, text, opener, compiled_only, false),
            None => Load::Loading(url),
        },
        None => Load::NoStudy(NoStudy::Choose),
    };
    let load = RwSignal::new(initial.clone());
    if let Load::Loading(url) = initial {
        spawn_local(async move {
            let text = study_source::fetch_text(&url).await;
            load.set(Load::from_text(url, text, opener, compiled_only, false));
        });
    }
    let open_file = Callback::new(move |file: web_sys::File| {
        let name = file.name();
        load.set(Load::Loading(name.clone()));
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
                Load::Loading(source) => view! {
                    <section class="loading" aria-busy="true">
                        <h1>"Loading the study…"</h1>
                        <p>{source}</p>
                    </section>
                }
                .into_any(),
                Load::NoStudy(why) => view! { <NoStudyPage why on_file=open_file /> }.into_any(),
                Load::Ready(study, sha256, base, text) => {
                    let source = Source { text, reader: ratings };
                    view! { <Ready study sha256 base source /> }.into_any()
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

/// A valid study: find out who the annotator is, then run their session.
#[component]
fn Ready(study: Arc<Study>, sha256: String, base: String, source: Source) -> impl IntoView {
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
    // The session's code (pages/later.rs), fetched once the annotator is known.
    let loaded = RwSignal::new(later::at_start());
    let fetching = StoredValue::new(false);
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
            // The study and its media, for reloading offline even after this first visit.
            if let (false, Some(url)) = (preview, location::query_param("study")) {
                let media = study.items().iter().filter_map(|i| i.media.as_ref());
                let mut urls = vec![url];
                urls.extend(media.map(|m| media_src(&base, &m.src)));
                crate::services::offline::keep_for_offline(urls);
            }
            // While the welcome page is read: once it is on screen, so that compiling the
            // session's code does not hold the first paint back.
            if loaded.get_untracked() == Loaded::Loading && !fetching.get_value() {
                fetching.set_value(true);
                crate::services::dom::after_paint(move || {
                    later::fetch_code(loaded, later::load());
                });
            }
            let begin = SessionStart {
                study: study.clone(),
                sha256: sha256.clone(),
                base: base.clone(),
                annotator,
                preview,
                source: source.clone(),
                write: write_store,
                started: RwSignal::new(false),
            };
            view! { {move || session(loaded, begin.clone())} }.into_any()
        }
    }
    }
}

#[cfg(test)]
mod tests {
    use super::{Load, NoStudy, open_any, read_compiled};
    use juror_core::open::open;
    use juror_core::{compiled, markdown};

    const MINIMAL: &str = include_str!("../crates/juror-core/tests/fixtures/valid/minimal.json");

    #[test]
    fn text_becomes_ready_invalid_or_unreachable() {
        let bad = Load::from_text("a.json".into(), Ok("{".into()), open_any, false, false);
        assert!(
            matches!(bad, Load::NoStudy(NoStudy::Invalid { ref problems, .. }) if problems.len() == 1)
        );
        let gone = Load::from_text("a.json".into(), Err("404".into()), open_any, false, false);
        assert!(matches!(gone, Load::NoStudy(NoStudy::Unreachable { .. })));
        let ok = Load::from_text("a.json".into(), Ok(MINIMAL.into()), open_any, false, false);
        assert!(matches!(ok, Load::Ready(_, ref hash, _, _) if hash.len() == 64));
    }

    #[test]
    fn the_annotators_page_plays_compiled_studies_and_sends_others_on() {
        let text = compiled::compile(&open(MINIMAL).unwrap(), markdown::to_rich);
        let load = |text: &str, from_file| {
            Load::from_text(
                "s.json".into(),
                Ok(text.into()),
                read_compiled,
                true,
                from_file,
            )
        };
        let Load::Ready(study, hash, _, _) = load(&text, false) else {
            panic!("a compiled study plays");
        };
        // The same study and the same saved answers as the study as written.
        let written = open_any(MINIMAL).unwrap();
        assert_eq!(hash, written.sha256);
        assert_eq!(*study, written.study);
        assert!(matches!(
            load(MINIMAL, false),
            Load::AsWritten {
                from_file: false,
                ..
            }
        ));
        assert!(matches!(
            load(MINIMAL, true),
            Load::AsWritten {
                from_file: true,
                ..
            }
        ));
        assert!(matches!(load("not json", false), Load::AsWritten { .. }));
        // A damaged compiled study: placed and coded, on either page.
        let damaged = text.replacen("\"items\"", "\"itemz\"", 1);
        let Load::NoStudy(NoStudy::Invalid { problems, .. }) = load(&damaged, false) else {
            panic!("a damaged compiled study is refused");
        };
        assert!(
            problems[0].message.contains("[compiled.checksum]"),
            "{problems:?}"
        );
        let full = open_any(&damaged).unwrap_err();
        assert!(full.0[0].fix.contains("never edited by hand"), "{full:?}");
    }

    #[test]
    fn media_resolve_against_the_study_folder() {
        use super::media_base;
        assert_eq!(media_base("studies/finance.json"), "studies/");
        assert_eq!(media_base("https://x.org/a/b.json"), "https://x.org/a/");
        assert_eq!(media_base("my-study.json"), "");
    }
}
