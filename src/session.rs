//! The annotator's session in the page: the core's `Session` in a signal, and the effects the
//! core asks for. `dispatch` runs the core's `update` and carries out its commands (save, save
//! soon, focus, scroll); storage is read and written here, and what to make of it (resume, set
//! aside, hold, merge another tab's save, restore a file) is decided by the core's
//! `session::open`, whose results reach the session only as messages to the reducer: pages get
//! the session to read, never to write. `saving` runs the saves (at once, soon for typing, the
//! hold, another tab's save taken in first); `backups` the backups (downloads, reminders, the
//! study's service).

use std::sync::Arc;

use juror_core::plan::Annotator;
use juror_core::session::open::{self, Notice, Stored};
use juror_core::session::ratings::{self, RatingsFile};
use juror_core::session::store::{self, Envelope};
use juror_core::session::{Cmd, Msg, Progress, Session, submit, update};
use juror_core::study::Study;
use leptos::prelude::*;
use std::future::Future;
use std::pin::Pin;

use crate::services::{clock, dom, storage};

mod backups;
mod saving;

pub use backups::Backups;
use saving::Saving;

/// The app's version, written into ratings files.
pub const APP_VERSION: &str = env!("CARGO_PKG_VERSION");

/// Handle to the running session, provided as context to every page.
#[derive(Clone, Copy)]
pub struct SessionHandle {
    /// The study (never changes while the session runs).
    pub study: StoredValue<Arc<Study>>,
    /// SHA-256 of the study file as loaded.
    pub study_sha256: StoredValue<String>,
    /// The folder of the study's address, for its relative media paths.
    pub media_base: StoredValue<String>,
    /// The session: pages read it ([`SessionHandle::with`]), only `dispatch` writes it, through
    /// the core's `update`.
    session: RwSignal<Session>,
    /// A storage problem to show, if any.
    pub storage_problem: RwSignal<Option<String>>,
    /// Something to tell the annotator once (saved answers that could not be used).
    pub notice: RwSignal<Option<Notice>>,
    /// What this tab knows of its saves.
    saving: Saving,
    /// Backups and the browser's promises about storage.
    pub backups: Backups,
    /// The researcher's preview (`&preview`): each output shows its system, nothing is read
    /// from or written to storage.
    pub preview: bool,
    /// The study's text and the page's reader of ratings files.
    source: StoredValue<Source>,
    /// How a save's text is written ([`StoreWriter`]).
    write: StoreWriter,
}

/// How the page writes the text of a save: `store::write`, named by the page's first wasm
/// module (`main.rs` hands it to `boot::paint`, and the session gets it from
/// `boot::writer`), so that the writer is compiled into that module with the helpers it calls
/// hundreds of thousands of times per save of a large study. Named only inside a later module
/// (the app's or the session's), it would call each of them across the modules' boundary, an
/// indirect call the browser cannot inline, which makes answering in the 10,000-item study
/// slower by a fifth or more (docs/decisions.md, "The save's writer in the first module").
pub type StoreWriter = fn(&Envelope<&Progress>) -> Result<String, String>;

/// The page's [`StoreWriter`]: the core's `store::write`.
///
/// # Errors
/// As `store::write`'s.
pub fn write_store(envelope: &Envelope<&Progress>) -> Result<String, String> {
    store::write(envelope)
}

/// What a [`RatingsReader`] is given: the study as the page opened it (its text too, for a
/// reader in a wasm of its own) and the ratings file's text.
pub struct Restore {
    /// The study.
    pub study: Arc<Study>,
    /// The SHA-256 the study's saved answers and ratings files carry.
    pub study_sha256: String,
    /// The study's text, as the page read it.
    pub study_text: Arc<str>,
    /// The ratings file's text.
    pub ratings: String,
    /// Now, in milliseconds since the epoch.
    pub now: f64,
}

/// The answer of a [`RatingsReader`]: the session to continue as a stored envelope's text
/// (`open::restore_stored`), or why the file cannot be used.
pub type Restored = Pin<Box<dyn Future<Output = Result<String, String>>>>;

/// How a page reads a ratings file to continue from: the annotator's page loads the reader
/// only when asked (`boot::ratings_reader::read_apart`: the ratings file's reader is not
/// in its first download); the researcher's page has it at hand ([`read_ratings_here`]).
pub type RatingsReader = fn(Restore) -> Restored;

/// The researcher's page's [`RatingsReader`]: the core's, in this wasm.
pub fn read_ratings_here(r: Restore) -> Restored {
    Box::pin(async move {
        open::restore_stored(&r.study, &r.study_sha256, &r.ratings, r.now, APP_VERSION)
    })
}

/// Where the page's study came from, for reading a ratings file against it.
#[derive(Clone)]
pub struct Source {
    /// The study's text, as the page read it.
    pub text: Arc<str>,
    /// The page's reader of ratings files.
    pub reader: RatingsReader,
}

/// The address of a study's media file: as given when absolute, else relative to the study's
/// folder, `base`.
pub fn media_src(base: &str, src: &str) -> String {
    let absolute = src.starts_with('/') || src.contains("://") || src.starts_with("data:");
    if absolute {
        src.to_owned()
    } else {
        format!("{base}{src}")
    }
}

/// The session handle of the page.
pub fn use_session() -> SessionHandle {
    expect_context::<SessionHandle>()
}

impl SessionHandle {
    /// Starts or resumes the session of `annotator` for `study`; a `preview` starts afresh and
    /// records nothing.
    pub fn start(
        study: Arc<Study>,
        study_sha256: String,
        media_base: String,
        annotator: Annotator,
        preview: bool,
        source: Source,
        write: StoreWriter,
    ) -> SessionHandle {
        let now = clock::now();
        let key = store::key(&study_sha256, annotator.slot, annotator.id.as_deref());
        let stored = if preview {
            Stored::Nothing { earlier: None }
        } else {
            storage::stored(study.id(), &study_sha256, &annotator, &key)
        };
        let mut opened = open::open(
            &study,
            &study_sha256,
            annotator,
            stored,
            dom::visible(),
            now,
        );
        if let Some(text) = &opened.quarantine {
            let kept = storage::quarantine(&key, text, now).is_some();
            opened.set_aside(&study, kept);
        }
        let saving = Saving::new(&opened, now);
        let session = RwSignal::new(opened.session);
        let handle = SessionHandle {
            saving,
            study: StoredValue::new(study),
            study_sha256: StoredValue::new(study_sha256),
            media_base: StoredValue::new(media_base),
            session,
            storage_problem: RwSignal::new(opened.problem),
            notice: RwSignal::new(opened.notice),
            backups: Backups::new(opened.done, opened.away_days),
            preview,
            source: StoredValue::new(source),
            write,
        };
        // Another tab of the same study and annotator saved: take its answers in, and save the
        // union if this tab had answers that tab lacked; a copy that does not fit is held on,
        // never saved over. (A preview stays on its own.)
        if !preview {
            storage::on_change(move |changed_key, text| {
                let key = handle.key();
                if changed_key == key {
                    handle.heard(&text);
                } else if changed_key == store::removed_key(&key) {
                    // "Remove my answers" in another tab: this one must not write them back.
                    handle.removed();
                }
            });
        }
        handle
    }

    /// Reads the session (reactive).
    pub fn with<T>(&self, read: impl FnOnce(&Session) -> T) -> T {
        self.session.with(read)
    }

    /// Reads the session without subscribing to it.
    pub fn with_untracked<T>(&self, read: impl FnOnce(&Session) -> T) -> T {
        self.session.with_untracked(read)
    }

    /// Applies `msg` and carries out what the core asks.
    pub fn dispatch(&self, msg: Msg) {
        let now = clock::now();
        let study = self.study.get_value();
        let mut cmds = Vec::new();
        self.session.update(|s| cmds = update(&study, s, msg, now));
        for cmd in cmds {
            match cmd {
                Cmd::Save => {
                    self.cancel_pending_save();
                    self.save(now);
                }
                Cmd::SaveSoon => self.save_soon(),
                Cmd::Focus(id) => dom::focus(id),
                Cmd::ScrollTop => dom::scroll_top(),
            }
        }
    }

    /// The storage key of the record of this annotator's submission to the study's service.
    pub fn outbox_key(&self) -> String {
        self.session.with_untracked(|s| {
            let a = s.annotator();
            submit::outbox_key(&self.study_sha256.get_value(), a.slot, a.id.as_deref())
        })
    }

    /// The storage key of this session.
    fn key(&self) -> String {
        self.session.with_untracked(|s| {
            let a = s.annotator();
            store::key(&self.study_sha256.get_value(), a.slot, a.id.as_deref())
        })
    }

    /// The address of a study's media file ([`media_src`]).
    pub fn media_src(&self, src: &str) -> String {
        media_src(&self.media_base.get_value(), src)
    }

    /// The ratings file as of now.
    pub fn ratings(&self) -> RatingsFile {
        let study = self.study.get_value();
        let sha = self.study_sha256.get_value();
        let file = self
            .session
            .with_untracked(|s| ratings::export(&study, &sha, s, APP_VERSION, clock::now()));
        if self.preview {
            file.into_preview()
        } else {
            file
        }
    }

    /// Removes this annotator's answers to this study from the browser's storage (the session,
    /// what was sent from it, its set-aside copies: [`store::holds_answers_of`]), for a shared
    /// computer; a save still waiting is dropped. First records the removal
    /// ([`store::removed_key`]), which every tab of the session honours, so that no other tab
    /// writes the answers back. Returns how many entries went.
    ///
    /// # Errors
    /// When storage cannot be used.
    pub fn forget(&self) -> Result<usize, String> {
        self.cancel_pending_save();
        storage::write(
            &store::removed_key(&self.key()),
            &store::removal_record(clock::now()),
        )?;
        self.saving.removed.set(true);
        let study = self.study.get_value();
        let sha = self.study_sha256.get_value();
        self.session.with_untracked(|s| {
            let a = s.annotator();
            storage::remove_answers_of(study.id(), &sha, a.slot, a.id.as_deref())
        })
    }

    /// The session a ratings file holds, read by the page's reader ([`RatingsReader`]) and
    /// checked against the study ([`open::restored`]); nothing changes until
    /// [`SessionHandle::restore`]. Whose answers they are is `session.annotator()`.
    ///
    /// # Errors
    /// Why the file cannot be used.
    pub async fn read_ratings(&self, ratings: String) -> Result<Session, String> {
        let study = self.study.get_value();
        let Source { text, reader } = self.source.get_value();
        let stored = reader(Restore {
            study: study.clone(),
            study_sha256: self.study_sha256.get_value(),
            study_text: text,
            ratings,
            now: clock::now(),
        })
        .await?;
        open::restored(&study, &stored, clock::now())
    }

    /// Continues from the session a ratings file held ([`SessionHandle::read_ratings`]):
    /// [`Msg::Restore`], and saves.
    pub fn restore(&self, restored: Session) {
        let plan = restored.plan().fingerprint();
        self.saving.plan_fingerprint.set_value(plan);
        self.dispatch(Msg::Restore(Box::new(restored)));
    }
}
