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
    /// Saved answers that could not be set aside (storage full), or another tab's that this tab
    /// cannot take in, would be overwritten by the next save: nothing is saved until the
    /// annotator has downloaded them.
    hold: RwSignal<bool>,
    /// The other tab's copy held on (`Absorb::Unfit`), until it is downloaded.
    unfit: StoredValue<String>,
    /// That copy once downloaded: this tab may save over it.
    let_go: StoredValue<String>,
    /// The digest of the answers this tab last saved its union in reply to.
    replied_to: StoredValue<String>,
    /// When this tab opened the session: a removal of its answers at or after this time (in
    /// this tab or another, `store::removed_since`) stops its saves for good.
    opened_at: f64,
    /// The answers were removed ("Remove my answers from this browser"): nothing more is saved.
    pub(super) removed: RwSignal<bool>,
}

impl Saving {
    pub(super) fn new(opened: &Opened, opened_at: f64) -> Saving {
        Saving {
            opened_at,
            removed: RwSignal::new(false),
            revision: StoredValue::new(opened.revision),
            plan_fingerprint: StoredValue::new(opened.session.plan.fingerprint()),
            pending_save: StoredValue::new(None),
            last_written: StoredValue::new(opened.loaded.clone()),
            hold: RwSignal::new(opened.hold),
            unfit: StoredValue::new(String::new()),
            let_go: StoredValue::new(String::new()),
            replied_to: StoredValue::new(String::new()),
        }
    }
}

impl SessionHandle {
    /// Joins answers saved by another tab into this one's ([`open::absorb`]). Returns, when this
    /// tab has answers the stored copy lacks (then it must save the union), the digest of the
    /// stored copy's answers, to remember as replied to. A copy that cannot be taken in is
    /// never merged nor saved over: the notice offers it, and saves wait for its download.
    pub(super) fn take_in(&self, text: &str) -> Option<String> {
        let study = self.study.get_value();
        let sha = self.study_sha256.get_value();
        let absorb = self.session.with_untracked(|session| {
            let plan = self.saving.plan_fingerprint.get_value();
            let written = self.saving.last_written.get_value();
            let let_go = self.saving.let_go.get_value();
            let replied_to = self.saving.replied_to.get_value();
            let tab = open::Tab {
                session,
                plan: &plan,
                revision: self.saving.revision.get_value(),
                last_written: &written,
                let_go: &let_go,
                replied_to: &replied_to,
            };
            open::absorb(&study, &sha, tab, text)
        });
        match absorb {
            Absorb::Ignore => None,
            Absorb::Unfit(notice) => {
                if self.saving.unfit.with_value(|held| held != text) {
                    self.saving.unfit.set_value(text.to_owned());
                    self.saving.hold.set(true);
                    self.notice.set(Some(notice));
                }
                None
            }
            Absorb::Take {
                revision,
                merge,
                save,
                answers,
            } => {
                self.saving.revision.set_value(revision);
                if let Some(theirs) = merge {
                    self.dispatch(Msg::Absorb(theirs));
                }
                save.then_some(answers)
            }
        }
    }

    /// Another tab saved `text` under this session's key: take it in, and save the union if
    /// this tab has answers it lacks.
    pub(super) fn heard(&self, text: &str) {
        if let Some(answers) = self.take_in(text) {
            self.saving.replied_to.set_value(answers);
            self.save(clock::now());
        }
    }

    /// Whether saves wait for a download (the hold); says so in the storage banner.
    fn held(&self) -> bool {
        let held = self.saving.hold.get_untracked();
        if held {
            self.storage_problem.set(Some(
                "Your new answers are kept in this tab only until you download your earlier saved answers (see above): saving now would overwrite them.".to_owned(),
            ));
        }
        held
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
        if self.held() {
            return;
        }
        let key = self.key();
        if self.was_removed(&key) {
            return;
        }
        if let Ok(Some(stored)) = storage::read(&key) {
            self.take_in(&stored);
            // Another tab's copy that cannot be taken in is not saved over.
            if self.held() {
                return;
            }
        }
        let revision = self.saving.revision.get_value() + 1;
        let text = self.session.with_untracked(|s| {
            (self.write)(&Envelope {
                schema_version: store::SCHEMA_VERSION,
                study_id: self.study.with_value(|study| study.id().to_owned()),
                study_sha256: self.study_sha256.get_value(),
                saved_at: now,
                revision,
                app_version: APP_VERSION.to_owned(),
                progress: &s.progress,
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

    /// Whether this session's answers were removed from the browser since this tab opened it
    /// (here or in another tab: `store::removed_since`); then nothing more is saved, so that no
    /// tab writes them back, and the banner says so.
    fn was_removed(&self, key: &str) -> bool {
        if !self.saving.removed.get_untracked() {
            let record = storage::read(&store::removed_key(key)).ok().flatten();
            if !store::removed_since(record.as_deref(), self.saving.opened_at) {
                return false;
            }
            self.removed();
        }
        true
    }

    /// The answers were removed from this browser, by this tab or another: stop saving, and say
    /// so.
    pub(super) fn removed(&self) {
        self.cancel_pending_save();
        if !self.saving.removed.get_untracked() {
            self.saving.removed.set(true);
            self.storage_problem.set(Some(
                "Your answers to this study were removed from this browser (\u{201c}Remove my answers\u{201d}), so this tab no longer saves them. If that was not meant, download your ratings file before closing this tab.".to_owned(),
            ));
        }
    }

    /// The earlier answers (or another tab's copy held on) were downloaded: saving may go on
    /// (and saves the session now, over that copy).
    pub fn release_hold(&self) {
        if self.saving.hold.get_untracked() {
            let downloaded = self.saving.unfit.get_value();
            self.saving.let_go.set_value(downloaded);
            self.saving.hold.set(false);
            self.storage_problem.set(None);
            self.save(clock::now());
        }
    }
}
