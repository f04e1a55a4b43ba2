//! Saving the session in the browser's storage: at once when the core asks ([`Cmd::Save`]),
//! within [`TYPING_SAVE_MS`] for typing ([`Cmd::SaveSoon`]), and never over saved answers the
//! annotator has not downloaded yet (the hold). A save first takes in what another tab stored
//! since (`session::open::absorb`), so that neither tab's answers are lost; a failed write
//! leaves the stored copy as it was and raises the storage banner.

use juror_core::session::Msg;
use juror_core::session::open::{self, Absorb, Opened};
use juror_core::session::store::{self, Envelope};
use leptos::prelude::*;

use super::{APP_VERSION, SessionHandle};
use crate::services::{clock, dom, storage};

#[cfg(doc)]
use juror_core::session::Cmd;

/// How long typing waits before it is saved: one save per burst of keystrokes instead of one
/// per key, and never more than this much typing at risk from a crash (a closed or hidden page
/// saves at once).
const TYPING_SAVE_MS: i32 = 400;

/// What this tab knows of its saves.
#[derive(Clone, Copy)]
pub(super) struct Saving {
    /// The revision of the stored envelope this tab last wrote or read.
    revision: StoredValue<u64>,
    /// The plan's fingerprint, saved with the progress (computed once per plan).
    pub(super) plan_fingerprint: StoredValue<String>,
    /// The timer of a save that typing asked for ([`Cmd::SaveSoon`]), if one is waiting.
    pending_save: StoredValue<Option<i32>>,
    /// The text this tab last wrote: finding it in storage means no other tab wrote since.
    last_written: StoredValue<String>,
    /// Saved answers that could not be set aside (storage full) and would be overwritten by the
    /// next save: nothing is saved until the annotator has downloaded them.
    hold: RwSignal<bool>,
}

impl Saving {
    pub(super) fn new(opened: &Opened) -> Saving {
        Saving {
            revision: StoredValue::new(opened.revision),
            plan_fingerprint: StoredValue::new(opened.session.plan.fingerprint()),
            pending_save: StoredValue::new(None),
            last_written: StoredValue::new(opened.loaded.clone()),
            hold: RwSignal::new(opened.hold),
        }
    }
}

impl SessionHandle {
    /// Joins answers saved by another tab into this one's ([`open::absorb`]). Returns whether
    /// this tab has answers the stored copy lacks (then it must save the union).
    pub(super) fn take_in(&self, text: &str) -> bool {
        let absorb = self.session.with_untracked(|s| {
            self.saving.last_written.with_value(|written| {
                let sha = self.study_sha256.get_value();
                open::absorb(
                    &sha,
                    &s.progress,
                    self.saving.revision.get_value(),
                    written,
                    text,
                )
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
        self.saving.revision.set_value(revision);
        if let Some(theirs) = merge {
            self.dispatch(Msg::Absorb(theirs));
        }
        save
    }

    /// Saves within [`TYPING_SAVE_MS`], once for a burst of keystrokes.
    pub(super) fn save_soon(&self) {
        if self.saving.pending_save.get_value().is_some() {
            return;
        }
        let handle = *self;
        let timer = dom::after(TYPING_SAVE_MS, move || {
            handle.saving.pending_save.set_value(None);
            handle.save(clock::now());
        });
        match timer {
            Some(id) => self.saving.pending_save.set_value(Some(id)),
            // No timer to be had: save now rather than risk not at all.
            None => self.save(clock::now()),
        }
    }

    pub(super) fn cancel_pending_save(&self) {
        if let Some(id) = self.saving.pending_save.get_value() {
            dom::cancel_timer(id);
            self.saving.pending_save.set_value(None);
        }
    }

    /// Saves what typing left unsaved: when the page is hidden or left.
    pub fn flush(&self) {
        if self.saving.pending_save.get_value().is_some() {
            self.cancel_pending_save();
            self.save(clock::now());
        }
    }

    /// Writes the session to storage, after taking in a save of another tab not yet heard of
    /// (so that this tab's older copy does not overwrite it). A failed write leaves the stored
    /// copy as it was and raises the storage banner.
    pub(super) fn save(&self, now: f64) {
        if self.preview {
            return;
        }
        if self.saving.hold.get_untracked() {
            self.storage_problem.set(Some(
                "Your new answers are kept in this tab only until you download your earlier saved answers (see above): saving now would overwrite them.".to_owned(),
            ));
            return;
        }
        let key = self.key();
        if let Ok(Some(stored)) = storage::read(&key) {
            self.take_in(&stored);
        }
        let revision = self.saving.revision.get_value() + 1;
        let text = self.session.with_untracked(|s| {
            store::write(&Envelope {
                schema_version: store::SCHEMA_VERSION,
                study_id: self.study.with_value(|study| study.id().to_owned()),
                study_sha256: self.study_sha256.get_value(),
                saved_at: now,
                revision,
                app_version: APP_VERSION.to_owned(),
                progress: s.progress.clone(),
                plan: Some(self.saving.plan_fingerprint.get_value()),
            })
        });
        match text.and_then(|text| storage::write(&key, &text).map(|()| text)) {
            Ok(text) => {
                self.saving.revision.set_value(revision);
                self.saving.last_written.set_value(text);
                if self.storage_problem.with_untracked(Option::is_some) {
                    self.storage_problem.set(None);
                }
            }
            Err(problem) => self.storage_problem.set(Some(problem)),
        }
        self.send_backup_if_due();
    }

    /// The earlier answers were downloaded: saving may go on (and saves the session now).
    pub fn release_hold(&self) {
        if self.saving.hold.get_untracked() {
            self.saving.hold.set(false);
            self.storage_problem.set(None);
            self.save(clock::now());
        }
    }
}
