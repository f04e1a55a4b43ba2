//! Backups of the answers, beyond the browser's storage: the ratings file handed to the
//! annotator (with reminders when the browser has not promised to keep its storage, and after
//! days away), and the backups a study's service asks for (`submit.backups`). What is due is
//! the core's decision (`session::durability`, `session::submit`); this runs the downloads,
//! the questions to the browser and the POSTs.

use juror_core::session::{durability, submit};
use leptos::prelude::*;

use super::SessionHandle;
use crate::services::submit as submit_service;
use crate::services::{download, offline};

/// What the page knows about backups and the browser's promises.
#[derive(Clone, Copy)]
pub struct Backups {
    /// Whether the browser agreed to keep storage under pressure (`None`: not asked or unknown).
    pub persisted: RwSignal<Option<bool>>,
    /// The browser's storage quota for the site, in bytes, once known.
    pub quota: RwSignal<Option<f64>>,
    /// Trials done when the annotator last saved a backup (or when this page opened).
    pub backed_up_at: RwSignal<usize>,
    /// Days since the answers were last saved, when the annotator comes back after a while.
    pub away_days: RwSignal<Option<u32>>,
    /// Whether a backup is on its way to the study's service.
    sending: StoredValue<bool>,
}

impl Backups {
    /// `done` trials done as the page opens, `away_days` since the last save.
    pub fn new(done: usize, away_days: Option<u32>) -> Backups {
        Backups {
            persisted: RwSignal::new(None),
            quota: RwSignal::new(None),
            backed_up_at: RwSignal::new(done),
            away_days: RwSignal::new(away_days),
            sending: StoredValue::new(false),
        }
    }
}

impl SessionHandle {
    /// Sends the backup the core finds due ([`submit::backup_to_send`]). One that could not go
    /// is tried again at the next save; the count of the last one sent is kept in storage, so
    /// that a reload does not send it again.
    pub(super) fn send_backup_if_due(&self) {
        let sending = self.backups.sending;
        if self.preview || sending.get_value() {
            return;
        }
        let done = self.session.with_untracked(|s| s.done());
        let key = format!("{}/backup", self.outbox_key());
        let study = self.study.get_value();
        let last_sent = || submit_service::last_sent(&key);
        let Some(request) = submit::backup_to_send(&study, done, last_sent, || self.ratings())
        else {
            return;
        };
        sending.set_value(true);
        leptos::task::spawn_local(async move {
            if submit_service::post(&request).await.is_ok() {
                submit_service::record_sent(&key, &done.to_string());
            }
            sending.try_update_value(|s| *s = false);
        });
    }

    /// How safe the saved answers are in this browser (reactive).
    pub fn risk(&self) -> durability::Risk {
        durability::risk(durability::Storage {
            persisted: self.backups.persisted.get(),
            quota: self.backups.quota.get(),
        })
    }

    /// Trials done so far (reactive).
    pub fn done(&self) -> usize {
        self.session.with(|s| s.done())
    }

    /// Asks the browser what it promises about storage (without asking for more).
    pub fn check_storage(&self) {
        let backups = self.backups;
        leptos::task::spawn_local(async move {
            if backups.persisted.get_untracked().is_none() {
                backups.persisted.set(offline::persisted().await);
            }
            backups.quota.set(offline::quota().await);
        });
    }

    /// Hands the annotator the ratings file so far (the share sheet in a home-screen app), and
    /// remembers when, for the next reminder.
    pub fn backup(&self) {
        let handle = *self;
        let file = self.ratings();
        let done = self.session.with_untracked(|s| s.done());
        leptos::task::spawn_local(async move {
            let name = file.file_name("json");
            let json = file.to_json();
            match download::save_file(&name, "application/json", &json, "Juror backup").await {
                Ok(()) => {
                    handle.backups.backed_up_at.set(done);
                    handle.backups.away_days.set(None);
                }
                Err(e) => handle.storage_problem.set(Some(e)),
            }
        });
    }
}
