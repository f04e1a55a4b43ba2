//! The root component: decides what the page shows from where the study comes from, whether it
//! could be loaded and validated, and who the annotator is.

use std::sync::Arc;

use juror_core::compiled;
use juror_core::cover::Cover;
use juror_core::open::{Opened, open};
use juror_core::plan::{Annotator, ID_PARAMETERS, mturk_preview, platform_visit};
use juror_core::study::Problems;
use juror_core::study::{Problem, Study};
use leptos::prelude::*;
use leptos::task::spawn_local;

use crate::analyse::Analyse;
use crate::pages::later::{self, Loaded, SessionStart, session};
use crate::pages::{BrokenLink, Contact, NoStudy, NoStudyPage, Welcome};
use crate::services::{location, ratings_reader, study_source};
use crate::session::{RatingsReader, Source, read_ratings_here};

/// Where the page is in loading a study.
#[derive(Clone, Debug)]
pub enum Load {
    /// Fetching or reading `source`, for less than [`LOADING_SHOWN_AFTER_MS`]: the page stays
    /// blank (a study in by then opens with no page in between).
    Awaiting(String),
    /// Fetching or reading `source`, for longer: "Loading the study…".
    Loading(String),
    /// No study to play: none named, or it could not be had or opened.
    NoStudy(NoStudy),
    /// A study whose welcome page can be shown, the address its media are relative to, and its
    /// text (read whole by the session, and for reading a ratings file against it).
    Ready(Front, String, Arc<str>),
    /// A study as written (not compiled), which the annotator's page does not play: one named
    /// by the address opens on the researcher's page, which plays it with every check; one
    /// opened from the computer is sent there.
    AsWritten { source: String, from_file: bool },
}

/// A study as its first page needs it: its cover (the welcome page, the link's annotator), the
/// SHA-256 that names its saved answers and ratings files, and the study itself when the reader
/// read it whole (the researcher's page); else the session reads it ([`read_study`]) while the
/// annotator reads the welcome page.
#[derive(Clone, Debug)]
pub struct Front {
    pub cover: Arc<Cover>,
    pub sha256: String,
    pub study: Option<Arc<Study>>,
}

/// How long the page stays blank, once the app has started, for a study still on its way
/// before it says "Loading the study…" ([`Load::Awaiting`]). On a slowed phone, rendering and
/// laying out that page holds the main thread 150–200 ms, while a study that arrives meanwhile
/// waits to be taken (docs/decisions.md, "No loading page for a study that is nearly in").
pub const LOADING_SHOWN_AFTER_MS: i32 = 500;

/// How a page reads a study's text into what its first page needs: [`read_compiled`] (the
/// annotator's page) or [`open_any`] (the researcher's).
pub type Opener = fn(&str) -> Result<Front, Problems>;

/// The annotator's reader: compiled studies only, their cover only ([`compiled::read_cover`]),
/// each problem with its place and code (the code's full text is the researcher's:
/// `juror validate`). The session reads the rest ([`read_study`]).
///
/// # Errors
/// The compiled study's problems.
pub fn read_compiled(text: &str) -> Result<Front, Problems> {
    let covered = compiled::read_cover(text).map_err(|p| p.short())?;
    Ok(Front {
        cover: Arc::new(covered.cover),
        sha256: covered.sha256,
        study: None,
    })
}

/// [`read_compiled`] ahead of the checks: the envelope and its cover
/// ([`compiled::peek_cover`]: no checksum, a member given twice refused, the study skipped unread), for the welcome page
/// the annotator's page shows before its app is in (`first.rs`), which reads the same text with
/// [`read_compiled`] before the app opens it.
///
/// # Errors
/// The compiled study's problems up to its cover.
pub fn peek_compiled(text: &str) -> Result<Front, Problems> {
    let covered = compiled::peek_cover(text).map_err(|p| p.short())?;
    Ok(Front {
        cover: Arc::new(covered.cover),
        sha256: covered.sha256,
        study: None,
    })
}

/// The whole of a compiled study whose cover [`read_compiled`] read: what the session plays.
///
/// # Errors
/// The compiled study's problems (its structure, its cover not the study's), as
/// [`read_compiled`] gives them.
pub fn read_study(text: &str) -> Result<Study, Problems> {
    compiled::read(text).map(|c| c.study).map_err(|p| p.short())
}

/// The researcher's reader: a compiled study read whole, each problem explained in full; a
/// study as written opened with every check and message, its Markdown rendered as compiling
/// would.
///
/// # Errors
/// Every problem found.
pub fn open_any(text: &str) -> Result<Front, Problems> {
    let Opened { study, sha256 } = if compiled::is_compiled(text) {
        compiled::read(text)
            .map(compiled::Compiled::opened)
            .map_err(|p| p.explained())?
    } else {
        let mut opened = open(text)?;
        compiled::render_texts(&mut opened.study, juror_core::markdown::to_rich);
        opened
    };
    Ok(Front {
        cover: Arc::new(Cover::of(&study)),
        sha256,
        study: Some(Arc::new(study)),
    })
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
                Ok(front) => Load::Ready(front, media_base(&source), text.into()),
                Err(problems) => Load::NoStudy(NoStudy::Invalid {
                    source,
                    problems: problems.0,
                    text: text.into(),
                }),
            },
        }
    }

    /// The study's text, where it was had and is compiled.
    pub fn text(&self) -> Option<&Arc<str>> {
        match self {
            Load::Ready(_, _, text) | Load::NoStudy(NoStudy::Invalid { text, .. }) => Some(text),
            _ => None,
        }
    }

    /// Whether the page is still waiting for `source` (and not for another study opened since):
    /// only then may its "Loading the study…" page be shown.
    pub fn awaits(&self, source: &str) -> bool {
        matches!(self, Load::Awaiting(awaited) if awaited == source)
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
pub(crate) fn annotator_from_address(cover: &Cover) -> Option<Result<Annotator, Problem>> {
    let slot = location::query_param("slot");
    let id = ID_PARAMETERS
        .iter()
        .find_map(|name| location::query_param(name));
    if slot.is_none() && id.is_none() {
        return None;
    }
    Some(
        cover
            .annotator(slot.as_deref(), id.as_deref())
            .map(|annotator| Annotator {
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
        // Read already, for the welcome page shown before the app was in (first.rs).
        Some(url) if let Some(load) = crate::first::take(&url) => load,
        // Usually in before the wasm: opened at once, with no "Loading…" page in between.
        Some(url) => match study_source::early_text(&url) {
            Some(text) => Load::from_text(url, text, opener, compiled_only, false),
            None => Load::Awaiting(url),
        },
        None => Load::NoStudy(NoStudy::Choose),
    };
    let load = RwSignal::new(initial.clone());
    // A study still awaited after a moment: say so (and only then: any other change would
    // render the page again).
    let say_loading_later = move |source: String| {
        crate::services::dom::after(LOADING_SHOWN_AFTER_MS, move || {
            // (a timer left from a file replaced by another within the moment does nothing)
            if load.with_untracked(|load| load.awaits(&source)) {
                load.set(Load::Loading(source));
            }
        });
    };
    if let Load::Awaiting(url) = initial {
        say_loading_later(url.clone());
        spawn_local(async move {
            let text = study_source::fetch_text(&url).await;
            load.set(Load::from_text(url, text, opener, compiled_only, false));
        });
    }
    let open_file = Callback::new(move |file: web_sys::File| {
        let name = file.name();
        load.set(Load::Awaiting(name.clone()));
        say_loading_later(name.clone());
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
                Load::Awaiting(_) => ().into_any(),
                Load::Loading(source) => view! {
                    <section class="loading" aria-busy="true">
                        <h1>"Loading the study…"</h1>
                        <p>{source}</p>
                    </section>
                }
                .into_any(),
                Load::NoStudy(why) => view! { <NoStudyPage why on_file=open_file /> }.into_any(),
                Load::Ready(front, base, text) => {
                    let source = Source { text, reader: ratings };
                    view! { <Ready front base source /> }.into_any()
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

/// A study whose welcome page can be shown: find out who the annotator is, then run their
/// session.
#[component]
fn Ready(front: Front, base: String, source: Source) -> impl IntoView {
    let cover = front.cover.clone();
    let chosen: RwSignal<Option<Result<Annotator, Problem>>> =
        RwSignal::new(annotator_from_address(&cover));
    let cover_for_code = cover.clone();
    let on_code = Callback::new(move |code: String| {
        let result = cover_for_code.annotator(None, Some(&code));
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
            <Welcome cover=cover.clone()>
                <p class="hint" role="status">
                    "This is a preview. Accept the task on Mechanical Turk to start; nothing is recorded until then."
                </p>
            </Welcome>
        }
        .into_any(),
        None => view! {
            <BrokenLink />
            <Welcome cover=cover.clone() on_code />
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
                {cover.contact.clone().map(|text| view! { <p class="contact">"Contact: " <Contact text /></p> })}
            </section>
        }
        .into_any(),
        Some(Ok(annotator)) => {
            let preview = location::has_param("preview");
            // While the welcome page is read: once it is on screen, so that compiling the
            // session's code does not hold the first paint back.
            if loaded.get_untracked() == Loaded::Loading && !fetching.get_value() {
                fetching.set_value(true);
                crate::services::dom::after_paint(move || {
                    later::fetch_code(loaded, later::load());
                });
            }
            let begin = SessionStart {
                cover: cover.clone(),
                study: front.study.clone(),
                sha256: front.sha256.clone(),
                base: base.clone(),
                annotator,
                preview,
                source: source.clone(),
                write: crate::first::writer(),
                started: RwSignal::new(crate::first::started()),
            };
            view! { {move || session(loaded, begin.clone())} }.into_any()
        }
    }
    }
}

#[cfg(test)]
mod tests {
    use super::{Load, NoStudy, open_any, read_compiled, read_study};
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
        assert!(matches!(ok, Load::Ready(ref front, _, _) if front.sha256.len() == 64));
    }

    #[test]
    fn only_the_study_still_awaited_gets_a_loading_page() {
        let waiting = Load::Awaiting("b.json".into());
        assert!(waiting.awaits("b.json"));
        assert!(!waiting.awaits("a.json"));
        assert!(!Load::Loading("b.json".into()).awaits("b.json"));
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
        let Load::Ready(front, _, read) = load(&text, false) else {
            panic!("a compiled study plays");
        };
        // The same welcome page, study and saved answers as the study as written: the cover
        // first, the study read whole by the session.
        let written = open_any(MINIMAL).unwrap();
        assert_eq!(front.sha256, written.sha256);
        assert_eq!(front.cover, written.cover);
        assert!(
            front.study.is_none(),
            "the annotator's page reads the cover only"
        );
        assert_eq!(
            Some(read_study(&read).unwrap()),
            written.study.as_deref().cloned()
        );
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
