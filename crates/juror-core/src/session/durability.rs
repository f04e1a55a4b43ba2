//! How safe answers are in this browser, and when to ask for a backup.
//!
//! A browser can accept every save and still lose them: a private window deletes its storage
//! when it closes, Safari deletes a site's storage after seven days of use without a visit,
//! cleaners and "clear on exit" settings wipe it. What can be detected is detected here, from
//! what the browser says ([`Storage`]), and the annotator is told plainly and asked for a backup
//! at sensible moments. All of it is advice: the answers are saved either way.

/// What the browser says about its storage for this site.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Storage {
    /// `navigator.storage.persisted()`: `Some(true)` when the browser promised to keep it.
    pub persisted: Option<bool>,
    /// `navigator.storage.estimate().quota`, in bytes.
    pub quota: Option<f64>,
}

/// How much the saved answers can be trusted to last.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Risk {
    /// Not known yet, or the browser promised to keep them.
    Kept,
    /// Saved, but the browser may clear them (no promise): back up now and then.
    MayBeCleared,
    /// Probably a private window: everything goes when it is closed.
    PrivateWindow,
}

/// A quota below this suggests a private window: Chrome's incognito mode and Safari's and
/// Firefox's private windows give a site tens of megabytes, an ordinary profile gigabytes. A
/// heuristic, said as one ("this looks like a private window").
pub const PRIVATE_QUOTA: f64 = 120.0 * 1024.0 * 1024.0;

/// Trials between two reminders to save a backup, when the answers may be cleared.
pub const ASK_FOR_BACKUP_EVERY: usize = 20;

/// Days away after which the annotator is reminded of Safari's seven days.
pub const AWAY_DAYS: f64 = 3.0;

/// The risk the browser's answers suggest.
pub fn risk(storage: Storage) -> Risk {
    match storage {
        Storage { quota: Some(q), .. } if q > 0.0 && q < PRIVATE_QUOTA => Risk::PrivateWindow,
        Storage {
            persisted: Some(false),
            ..
        } => Risk::MayBeCleared,
        _ => Risk::Kept,
    }
}

/// Whether to remind the annotator to save a backup: when the answers may be lost, every
/// [`ASK_FOR_BACKUP_EVERY`] trials done since the last backup (or since this page opened).
pub fn backup_due(risk: Risk, done: usize, done_at_last_backup: usize) -> bool {
    risk != Risk::Kept && done >= done_at_last_backup + ASK_FOR_BACKUP_EVERY
}

/// Whole days since the answers were last saved, when at least [`AWAY_DAYS`]: the page then says
/// that some browsers (Safari) delete a site's saved answers after seven days without a visit.
pub fn days_away(last_saved: f64, now: f64) -> Option<u32> {
    let days = (now - last_saved) / 86_400_000.0;
    (days.is_finite() && days >= AWAY_DAYS).then(|| days.floor().min(f64::from(u32::MAX)) as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_small_quota_looks_private_and_no_promise_may_be_cleared() {
        let mb = 1024.0 * 1024.0;
        let s = |persisted, quota| Storage { persisted, quota };
        assert_eq!(risk(s(None, None)), Risk::Kept);
        assert_eq!(risk(s(Some(true), Some(10_000.0 * mb))), Risk::Kept);
        assert_eq!(
            risk(s(Some(false), Some(10_000.0 * mb))),
            Risk::MayBeCleared
        );
        assert_eq!(risk(s(Some(true), Some(100.0 * mb))), Risk::PrivateWindow);
        assert_eq!(risk(s(None, Some(0.0))), Risk::Kept, "no quota reported");
    }

    #[test]
    fn backups_are_asked_for_every_twenty_trials_only_when_answers_may_go() {
        assert!(!backup_due(Risk::Kept, 100, 0));
        assert!(!backup_due(Risk::MayBeCleared, 19, 0));
        assert!(backup_due(Risk::MayBeCleared, 20, 0));
        assert!(!backup_due(Risk::PrivateWindow, 39, 20));
        assert!(backup_due(Risk::PrivateWindow, 40, 20));
    }

    #[test]
    fn three_days_away_is_said_in_whole_days() {
        let day = 86_400_000.0;
        assert_eq!(days_away(0.0, 2.9 * day), None);
        assert_eq!(days_away(0.0, 3.0 * day), Some(3));
        assert_eq!(days_away(0.0, 6.5 * day), Some(6));
        assert_eq!(days_away(5.0 * day, 0.0), None, "a clock set back");
        assert_eq!(days_away(f64::NAN, 0.0), None);
    }
}
