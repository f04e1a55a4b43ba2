//! The annotator's session in the page: the core's `Session` in a signal, and the effects the
//! core asks for. `dispatch` runs the core's `update` and carries out its commands (save, save
//! soon, focus, scroll); storage is read and written here, and what to make of it (resume, set
//! aside, hold, merge another tab's save, restore a file) is decided by the core's
//! `session::open`, whose results reach the session only as messages to the reducer.

use std::sync::Arc;

use juror_core::plan::Annotator;
use juror_core::session::open::{self, Absorb, Notice, Stored};
use juror_core::session::ratings::{self, RatingsFile};
use juror_core::session::store::{self, Envelope};
use juror_core::session::{Cmd, Msg, Session, durability, progress, submit, update};
use juror_core::study::Study;
use leptos::prelude::*;

use crate::services::submit as submit_service;
use crate::services::{clock, dom, download, offline, storage};

/// The app's version, written into ratings files.
pub const APP_VERSION: &str = env!("CARGO_PKG_VERSION");

/// How long typing waits before it is saved: one save per burst of keystrokes instead of one
/// per key, and never more than this much typing at risk from a crash (a closed or hidden page
/// saves at once).
const TYPING_SAVE_MS: i32 = 400;

/// Handle to the running session, provided as context to every page.
#[derive(Clone, Copy)]
pub struct SessionHandle {
    /// The study (never changes while the session runs).
    pub study: StoredValue<Arc<Study>>,
    /// SHA-256 of the study file as loaded.
    pub study_sha256: StoredValue<String>,
    /// The folder of the study's address, for its relative media paths.
    pub media_base: StoredValue<String>,
    /// The session: written only by `dispatch`, through the core's `update`.
    pub session: RwSignal<Session>,
    /// A storage problem to show, if any.
    pub storage_problem: RwSignal<Option<String>>,
    /// Something to tell the annotator once (saved answers that could not be used).
    pub notice: RwSignal<Option<Notice>>,
    /// The revision of the stored envelope this tab last wrote or read.
    revision: StoredValue<u64>,
    /// The plan's fingerprint, saved with the progress (computed once per plan).
    plan_fingerprint: StoredValue<String>,
    /// The timer of a save that typing asked for ([`Cmd::SaveSoon`]), if one is waiting.
    pending_save: StoredValue<Option<i32>>,
    /// The text this tab last wrote: finding it in storage means no other tab wrote since.
    last_written: StoredValue<String>,
    /// Whether the browser agreed to keep storage under pressure (`None`: not asked or unknown).
    pub persisted: RwSignal<Option<bool>>,
    /// The browser's storage quota for the site, in bytes, once known.
    pub quota: RwSignal<Option<f64>>,
    /// Trials done when the annotator last saved a backup (or when this page opened).
    pub backed_up_at: RwSignal<usize>,
    /// Days since the answers were last saved, when the annotator comes back after a while.
    pub away_days: RwSignal<Option<u32>>,
    /// Saved answers that could not be set aside (storage full) and would be overwritten by the
    /// next save: nothing is saved until the annotator has downloaded them.
    hold_saves: RwSignal<bool>,
    /// The researcher's preview (`&preview`): each output shows its system, nothing is read
    /// from or written to storage.
    pub preview: bool,
    /// Whether a backup is on its way to the study's service (`submit.backups`).
    backup_sending: StoredValue<bool>,
}

/// The session handle of the page.
pub fn use_session() -> SessionHandle {
    expect_context::<SessionHandle>()
}

/// What storage holds for this study file and annotator (nothing for a preview).
fn read_stored(study: &Study, sha256: &str, annotator: &Annotator, key: &str) -> Stored {
    match storage::read(key) {
        Ok(Some(text)) => Stored::Text(text),
        Ok(None) => Stored::Nothing {
            earlier: storage::find_other_versions(
                study.id(),
                sha256,
                annotator.slot,
                annotator.id.as_deref(),
            ),
        },
        Err(problem) => Stored::Unavailable(problem),
    }
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
    ) -> SessionHandle {
        let now = clock::now();
        let key = store::key(&study_sha256, annotator.slot, annotator.id.as_deref());
        let stored = if preview {
            Stored::Nothing { earlier: None }
        } else {
            read_stored(&study, &study_sha256, &annotator, &key)
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
        let handle = SessionHandle {
            plan_fingerprint: StoredValue::new(opened.session.plan.fingerprint()),
            study: StoredValue::new(study),
            study_sha256: StoredValue::new(study_sha256),
            media_base: StoredValue::new(media_base),
            session: RwSignal::new(opened.session),
            storage_problem: RwSignal::new(opened.problem),
            notice: RwSignal::new(opened.notice),
            revision: StoredValue::new(opened.revision),
            pending_save: StoredValue::new(None),
            last_written: StoredValue::new(opened.loaded),
            persisted: RwSignal::new(None),
            quota: RwSignal::new(None),
            backed_up_at: RwSignal::new(opened.done),
            away_days: RwSignal::new(opened.away_days),
            hold_saves: RwSignal::new(opened.hold),
            preview,
            backup_sending: StoredValue::new(false),
        };
        // Another tab of the same study and annotator saved: take its answers in, and save the
        // union if this tab had answers that tab lacked. (A preview stays on its own.)
        if !preview {
            storage::on_change(move |changed_key, text| {
                if changed_key == handle.key() && handle.take_in(&text) {
                    handle.save(clock::now());
                }
            });
        }
        handle
    }

    /// Joins answers saved by another tab into this one's ([`open::absorb`]). Returns whether
    /// this tab has answers the stored copy lacks (then it must save the union).
    fn take_in(&self, text: &str) -> bool {
        let absorb = self.session.with_untracked(|s| {
            self.last_written.with_value(|written| {
                let sha = self.study_sha256.get_value();
                open::absorb(&sha, &s.progress, self.revision.get_value(), written, text)
            })
        });
        let Absorb::Take {
            revision,
            merge,
            save,
        } = absorb
        else {
            return false;
        };
        self.revision.set_value(revision);
        if let Some(theirs) = merge {
            self.dispatch(Msg::Absorb(theirs));
        }
        save
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
                    self.cancel_pending();
                    self.save(now);
                }
                Cmd::SaveSoon => self.save_soon(),
                Cmd::Focus(id) => dom::focus(id),
                Cmd::ScrollTop => dom::scroll_top(),
            }
        }
    }

    /// Saves within [`TYPING_SAVE_MS`], once for a burst of keystrokes.
    fn save_soon(&self) {
        if self.pending_save.get_value().is_some() {
            return;
        }
        let handle = *self;
        let timer = dom::after(TYPING_SAVE_MS, move || {
            handle.pending_save.set_value(None);
            handle.save(clock::now());
        });
        match timer {
            Some(id) => self.pending_save.set_value(Some(id)),
            // No timer to be had: save now rather than risk not at all.
            None => self.save(clock::now()),
        }
    }

    fn cancel_pending(&self) {
        if let Some(id) = self.pending_save.get_value() {
            dom::cancel_timer(id);
            self.pending_save.set_value(None);
        }
    }

    /// Saves what typing left unsaved: when the page is hidden or left.
    pub fn flush(&self) {
        if self.pending_save.get_value().is_some() {
            self.cancel_pending();
            self.save(clock::now());
        }
    }

    /// The storage key of the record of this annotator's submission to the study's service.
    pub fn outbox_key(&self) -> String {
        self.session.with_untracked(|s| {
            let a = &s.progress.annotator;
            submit::outbox_key(&self.study_sha256.get_value(), a.slot, a.id.as_deref())
        })
    }

    fn key(&self) -> String {
        self.session.with_untracked(|s| {
            let a = &s.progress.annotator;
            store::key(&self.study_sha256.get_value(), a.slot, a.id.as_deref())
        })
    }

    /// Writes the session to storage, after taking in a save of another tab not yet heard of
    /// (so that this tab's older copy does not overwrite it). A failed write leaves the stored
    /// copy as it was and raises the storage banner.
    fn save(&self, now: f64) {
        if self.preview {
            return;
        }
        if self.hold_saves.get_untracked() {
            self.storage_problem.set(Some(
                "Your new answers are kept in this tab only until you download your earlier saved answers (see above): saving now would overwrite them.".to_owned(),
            ));
            return;
        }
        let key = self.key();
        if let Ok(Some(stored)) = storage::read(&key) {
            self.take_in(&stored);
        }
        let revision = self.revision.get_value() + 1;
        let text = self.session.with_untracked(|s| {
            store::write(&Envelope {
                schema_version: store::SCHEMA_VERSION,
                study_id: self.study.with_value(|study| study.id().to_owned()),
                study_sha256: self.study_sha256.get_value(),
                saved_at: now,
                revision,
                app_version: APP_VERSION.to_owned(),
                progress: s.progress.clone(),
                plan: Some(self.plan_fingerprint.get_value()),
            })
        });
        match text.and_then(|text| storage::write(&key, &text).map(|()| text)) {
            Ok(text) => {
                self.revision.set_value(revision);
                self.last_written.set_value(text);
                if self.storage_problem.with_untracked(Option::is_some) {
                    self.storage_problem.set(None);
                }
            }
            Err(problem) => self.storage_problem.set(Some(problem)),
        }
        self.send_backup_if_due();
    }

    /// Sends the backup the core finds due ([`submit::backup_to_send`]). One that could not go
    /// is tried again at the next save; the count of the last one sent is kept in storage, so
    /// that a reload does not send it again.
    fn send_backup_if_due(&self) {
        if self.preview || self.backup_sending.get_value() {
            return;
        }
        let done = self.session.with_untracked(|s| progress(s).done);
        let key = format!("{}/backup", self.outbox_key());
        let study = self.study.get_value();
        let last_sent = || submit_service::last_sent(&key);
        let Some(request) = submit::backup_to_send(&study, done, last_sent, || self.ratings())
        else {
            return;
        };
        self.backup_sending.set_value(true);
        let sending = self.backup_sending;
        leptos::task::spawn_local(async move {
            if submit_service::post(&request.url, &request.body)
                .await
                .is_ok()
            {
                submit_service::record_sent(&key, &done.to_string());
            }
            sending.try_update_value(|s| *s = false);
        });
    }

    /// How safe the saved answers are in this browser (reactive).
    pub fn risk(&self) -> durability::Risk {
        durability::risk(durability::Storage {
            persisted: self.persisted.get(),
            quota: self.quota.get(),
        })
    }

    /// Trials done so far (reactive).
    pub fn done(&self) -> usize {
        self.session.with(|s| progress(s).done)
    }

    /// Asks the browser what it promises about storage (without asking for more).
    pub fn check_storage(&self) {
        let handle = *self;
        leptos::task::spawn_local(async move {
            if handle.persisted.get_untracked().is_none() {
                handle.persisted.set(offline::persisted().await);
            }
            handle.quota.set(offline::quota().await);
        });
    }

    /// Hands the annotator the ratings file so far (the share sheet in a home-screen app), and
    /// remembers when, for the next reminder.
    pub fn backup(&self) {
        let handle = *self;
        let file = self.ratings();
        let done = self.session.with_untracked(|s| progress(s).done);
        leptos::task::spawn_local(async move {
            let name = file.file_name("json");
            let json = file.to_json();
            match download::save_file(&name, "application/json", &json, "Juror backup").await {
                Ok(()) => {
                    handle.backed_up_at.set(done);
                    handle.away_days.set(None);
                }
                Err(e) => handle.storage_problem.set(Some(e)),
            }
        });
    }

    /// The earlier answers were downloaded: saving may go on (and saves the session now).
    pub fn release_hold(&self) {
        if self.hold_saves.get_untracked() {
            self.hold_saves.set(false);
            self.storage_problem.set(None);
            self.save(clock::now());
        }
    }

    /// The address of a study's media file: as given when absolute, else relative to the study.
    pub fn media_src(&self, src: &str) -> String {
        let absolute = src.starts_with('/') || src.contains("://") || src.starts_with("data:");
        if absolute {
            src.to_owned()
        } else {
            format!("{}{src}", self.media_base.get_value())
        }
    }

    /// The ratings file as of now.
    pub fn ratings(&self) -> RatingsFile {
        let study = self.study.get_value();
        let sha = self.study_sha256.get_value();
        self.session
            .with_untracked(|s| ratings::export(&study, &sha, s, APP_VERSION, clock::now()))
    }

    /// Continues from a ratings file ([`open::restore`], then [`Msg::Restore`]), and saves.
    ///
    /// # Errors
    /// Why the file cannot be used.
    pub fn restore(&self, text: &str) -> Result<(), String> {
        let study = self.study.get_value();
        let sha = self.study_sha256.get_value();
        let restored = open::restore(&study, &sha, text, clock::now())?;
        self.plan_fingerprint.set_value(restored.plan);
        self.dispatch(Msg::Restore(Box::new(restored.progress)));
        Ok(())
    }
}
