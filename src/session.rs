//! The annotator's session in the page: the core's `Session` in a signal, and `dispatch`, which
//! runs the core's `update` and carries out its commands (save, focus, scroll).

use std::sync::Arc;

use juror_core::plan::Annotator;
use juror_core::session::durability;
use juror_core::session::ratings::{self, RatingsFile};
use juror_core::session::store::{self, Envelope, Unreadable};
use juror_core::session::{Cmd, Msg, Progress, Session, submit, update};
use juror_core::study::Study;
use leptos::prelude::*;

use crate::services::submit as submit_service;
use crate::services::{clock, dom, download, offline, storage};

/// What the notice says about unreadable saved answers, depending on whether they could be
/// copied aside.
fn set_aside(kept: bool) -> &'static str {
    if kept {
        "They were set aside, not deleted: download them and send them to the researcher."
    } else {
        "They could not be set aside because this browser's storage is full: download them now. Juror will not overwrite them until you have."
    }
}

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
    /// The session.
    pub session: RwSignal<Session>,
    /// A storage problem to show, if any.
    pub storage_problem: RwSignal<Option<String>>,
    /// Something to tell the annotator once (e.g. saved progress could not be read), with a
    /// file they can download (name, text), if any.
    pub notice: RwSignal<Option<Notice>>,
    /// The revision of the stored envelope this tab last wrote or read.
    pub revision: StoredValue<u64>,
    /// The plan's fingerprint, saved with the progress (computed once).
    plan_fingerprint: StoredValue<String>,
    /// The timer of a save that typing asked for ([`Cmd::SaveSoon`]), if one is waiting.
    pending_save: StoredValue<Option<i32>>,
    /// The text this tab last wrote: finding it in storage means no other tab wrote since.
    pub last_written: StoredValue<String>,
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
    pub hold_saves: RwSignal<bool>,
    /// The researcher's preview (`&preview`): each output shows its system, nothing is read
    /// from or written to storage.
    pub preview: bool,
    /// Whether a backup is on its way to the study's service (`submit.backups`).
    backup_sending: StoredValue<bool>,
}

/// A message for the annotator, with a file to download when there is something to keep.
#[derive(Clone, Debug, PartialEq)]
pub struct Notice {
    /// The message.
    pub text: String,
    /// A file to offer: name and content.
    pub download: Option<(String, String)>,
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
    ) -> SessionHandle {
        let now = clock::now();
        let key = store::key(&study_sha256, annotator.slot, annotator.id.as_deref());
        let mut notice = None;
        let mut storage_problem = None;
        let mut revision = 0;
        let mut last_saved = None;
        let mut hold = false;
        let mut loaded = String::new();
        let raw_file = |text: &str| {
            Some((
                format!("juror-saved-answers-{}.json", study.id()),
                text.to_owned(),
            ))
        };
        let stored = if preview {
            Ok(None)
        } else {
            storage::read(&key)
        };
        let session = match stored {
            Ok(Some(text)) => match store::read(&text) {
                Ok(envelope) if envelope.study_sha256 == study_sha256 => {
                    revision = envelope.revision;
                    last_saved = Some(envelope.saved_at);
                    loaded = text.clone();
                    match store::resume(&study, envelope, now) {
                        Ok(session) => session,
                        Err(why) => {
                            let kept = storage::quarantine(&key, &text, now).is_some();
                            hold = !kept;
                            notice = Some(Notice {
                                text: format!(
                                    "Your saved answers do not fit this study ({why}). {} You start afresh.",
                                    set_aside(kept)
                                ),
                                download: raw_file(&text),
                            });
                            Session::new(&study, annotator)
                        }
                    }
                }
                Ok(_) => Session::new(&study, annotator),
                Err(reason) => {
                    let kept = storage::quarantine(&key, &text, now).is_some();
                    hold = !kept;
                    let why = match reason {
                        Unreadable::Corrupt(_) => "they are damaged".to_owned(),
                        Unreadable::Future(v) => {
                            format!("they were saved by a newer version of Juror (format {v})")
                        }
                    };
                    notice = Some(Notice {
                        text: format!(
                            "Your saved answers for this study could not be read ({why}). {} You start afresh.",
                            set_aside(kept)
                        ),
                        download: raw_file(&text),
                    });
                    Session::new(&study, annotator)
                }
            },
            Ok(None) => {
                // Answers for an earlier version of this study file? Never mix them in: say so.
                let earlier = storage::find_other_versions(
                    study.id(),
                    &study_sha256,
                    annotator.slot,
                    annotator.id.as_deref(),
                );
                if let Some(text) = earlier {
                    notice = Some(Notice {
                        text: "The study file has changed since you started. Your earlier answers are kept as they were, apart from this new version: download them and send them to the researcher with your new ones.".to_owned(),
                        download: raw_file(&text),
                    });
                }
                Session::new(&study, annotator)
            }
            Err(problem) => {
                storage_problem = Some(problem);
                Session::new(&study, annotator)
            }
        };
        let mut session = session;
        session.visible = dom::visible();
        let fingerprint = session.plan.fingerprint();
        let done = session.progress.trials.iter().filter(|t| t.done).count();
        let away = last_saved.and_then(|t| durability::days_away(t, now));
        let handle = SessionHandle {
            study: StoredValue::new(study),
            study_sha256: StoredValue::new(study_sha256),
            media_base: StoredValue::new(media_base),
            session: RwSignal::new(session),
            storage_problem: RwSignal::new(storage_problem),
            notice: RwSignal::new(notice),
            revision: StoredValue::new(revision),
            plan_fingerprint: StoredValue::new(fingerprint),
            pending_save: StoredValue::new(None),
            last_written: StoredValue::new(loaded),
            persisted: RwSignal::new(None),
            quota: RwSignal::new(None),
            backed_up_at: RwSignal::new(done),
            away_days: RwSignal::new(away),
            hold_saves: RwSignal::new(hold),
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

    /// Joins answers saved by another tab into this one's. Returns whether this tab has answers
    /// the stored copy lacks (then it must save the union).
    fn take_in(&self, text: &str) -> bool {
        // This tab's own last save: nothing new in it (and merging an older copy of our own
        // survey answers would undo the newest one).
        if self.last_written.with_value(|w| w == text) {
            return false;
        }
        let Ok(envelope) = store::read(text) else {
            return false;
        };
        if envelope.study_sha256 != self.study_sha256.get_value() {
            return false;
        }
        // Every copy is taken in, whatever its revision: the merge goes answer by answer by
        // their stamps, so an older copy cannot undo an edit, and a copy written by a tab that
        // started after the key was cleared (revision 0) still gives its answers (review M2).
        self.revision
            .update_value(|r| *r = (*r).max(envelope.revision));
        let (before, merged) = self.session.with_untracked(|s| {
            (
                s.progress.clone(),
                store::merge(&s.progress, &envelope.progress),
            )
        });
        if merged != before {
            self.session.update(|s| s.progress = merged.clone());
        }
        merged.trials != envelope.progress.trials
            || merged.intake != envelope.progress.intake
            || merged.exit != envelope.progress.exit
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

    /// Saves within [`TYPING_SAVE_MS`], once for a burst of keystrokes (review fault 14).
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

    /// The storage key of the record of this annotator's submission (issue 16).
    pub fn outbox_key(&self) -> String {
        self.session.with_untracked(|s| {
            let a = &s.progress.annotator;
            juror_core::session::submit::outbox_key(
                &self.study_sha256.get_value(),
                a.slot,
                a.id.as_deref(),
            )
        })
    }

    fn key(&self) -> String {
        self.session.with_untracked(|s| {
            let a = &s.progress.annotator;
            store::key(&self.study_sha256.get_value(), a.slot, a.id.as_deref())
        })
    }

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
        let study = self.study.get_value();
        let key = self.key();
        // A save from another tab not yet heard of: join it in first, so that it is not
        // overwritten by this tab's older copy.
        if let Ok(Some(stored)) = storage::read(&key) {
            self.take_in(&stored);
        }
        let revision = self.revision.get_value() + 1;
        let text = self.session.with_untracked(|s| {
            store::write(&Envelope {
                schema_version: store::SCHEMA_VERSION,
                study_id: study.id().to_owned(),
                study_sha256: self.study_sha256.get_value(),
                saved_at: now,
                revision,
                app_version: APP_VERSION.to_owned(),
                progress: s.progress.clone(),
                plan: Some(self.plan_fingerprint.get_value()),
            })
        });
        match storage::write(&key, &text) {
            Ok(()) => {
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

    /// With a study whose service asks for backups (`submit.backups`), sends the answers so far
    /// every `submit::BACKUP_EVERY` finished trials (the finish page sends the finished file).
    /// One that could not go is tried again at the next save; the count of the last one sent is
    /// kept in storage, so that a reload does not send it again.
    fn send_backup_if_due(&self) {
        let study = self.study.get_value();
        let asked = study.submit().is_some_and(|s| s.backups);
        if self.preview || !asked || self.backup_sending.get_value() {
            return;
        }
        let done = self
            .session
            .with_untracked(|s| s.progress.trials.iter().filter(|t| t.done).count());
        let key = format!("{}/backup", self.outbox_key());
        let last = submit_service::last_sent(&key)
            .and_then(|n| n.parse().ok())
            .unwrap_or(0);
        if !submit::backup_due(&study, done, last) {
            return;
        }
        let file = self.ratings();
        if file.complete {
            return;
        }
        let Some(request) = submit::backup_request(&study, &file, done) else {
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
        self.session
            .with(|s| s.progress.trials.iter().filter(|t| t.done).count())
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
        let done = self
            .session
            .with_untracked(|s| s.progress.trials.iter().filter(|t| t.done).count());
        leptos::task::spawn_local(async move {
            let name = file.file_name("json");
            match download::save_file(&name, "application/json", &file.to_json(), "Juror backup")
                .await
            {
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
        self.session.with_untracked(|s| {
            ratings::export(
                &study,
                &self.study_sha256.get_value(),
                s,
                APP_VERSION,
                clock::now(),
            )
        })
    }

    /// Replaces the session with progress restored from a ratings file, and saves it.
    ///
    /// # Errors
    /// Why the file cannot be used.
    pub fn restore(&self, text: &str) -> Result<(), String> {
        let study = self.study.get_value();
        let file = ratings::parse(text).map_err(|e| e.to_string())?;
        let mut progress: Progress =
            ratings::restore(&study, &self.study_sha256.get_value(), &file)
                .map_err(|e| e.to_string())?;
        let now = clock::now();
        // The restored answers are edits made now: they win over older stored copies of the
        // same answers, and stored answers the file lacks are kept.
        progress.stamp_all(now);
        let session = Session::resume(&study, progress, now)?;
        self.plan_fingerprint.set_value(session.plan.fingerprint());
        self.session.set(session);
        self.save(now);
        Ok(())
    }
}
