//! What to make of the answers a browser has saved: opening a session from them, taking in
//! another tab's save, restoring from a downloaded ratings file.
//!
//! Each is a function from what storage held (as text) to a value: the session to start, the
//! notice to show, the copy to set aside, whether saves must wait, the answers to merge. The
//! shell reads and writes storage, sets copies aside and hands the results to the reducer as
//! messages ([`super::Msg::Absorb`], [`super::Msg::Restore`]); nothing here touches storage, so
//! every case (damaged, newer, not fitting the plan, storage full, an earlier study file, a
//! second tab) is tested natively.

use super::store::{self, Unreadable};
use super::{Progress, Session, durability, ratings};
use crate::plan::Annotator;
use crate::study::Study;

/// What storage held under a session's key, as the shell read it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Stored {
    /// Storage cannot be used at all: the sentence to show.
    Unavailable(String),
    /// Nothing under the key; the text of the answers most recently saved by the same
    /// annotator for another version of the study file (same study id, other SHA-256), if any.
    Nothing {
        /// Those earlier answers.
        earlier: Option<String>,
    },
    /// The text under the key.
    Text(String),
}

/// What a notice is about.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NoticeKind {
    /// The saved answers cannot be read: why ("they are damaged", "they were saved by a newer
    /// version of Juror (format 3)").
    Unreadable(String),
    /// The saved answers do not fit the study's plan: why.
    DoesNotFit(String),
    /// Answers were saved for an earlier version of the study file; they are kept as they were.
    EarlierVersion,
    /// Another tab saved answers this tab cannot take in: why.
    OtherTab(String),
}

/// A file the annotator can download from a notice.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Download {
    /// The file's name.
    pub name: String,
    /// Its content.
    pub text: String,
}

/// Something to tell the annotator once, with a file to download when there is something to
/// keep.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Notice {
    /// What it is about.
    pub kind: NoticeKind,
    /// The sentence shown.
    pub text: String,
    /// The saved answers, to download.
    pub download: Option<Download>,
}

/// What the notice says about unreadable saved answers, depending on whether they could be
/// copied aside.
fn set_aside(kept: bool) -> &'static str {
    if kept {
        "They were set aside, not deleted: download them and send them to the researcher."
    } else {
        "They could not be set aside because this browser's storage is full: download them now. Juror will not overwrite them until you have."
    }
}

impl Notice {
    fn new(kind: NoticeKind, kept: bool, study: &Study, saved: &str) -> Notice {
        let text = match &kind {
            NoticeKind::Unreadable(why) => format!(
                "Your saved answers for this study could not be read ({why}). {} You start afresh.",
                set_aside(kept)
            ),
            NoticeKind::DoesNotFit(why) => format!(
                "Your saved answers do not fit this study ({why}). {} You start afresh.",
                set_aside(kept)
            ),
            NoticeKind::OtherTab(why) => format!(
                "Another tab saved answers for this study that this tab cannot take in ({why}): it may be running another version of Juror. This tab saves nothing over them until you have downloaded them. Then reload every tab of this study."
            ),
            NoticeKind::EarlierVersion => "The study file has changed since you started. Your earlier answers are kept as they were, apart from this new version: download them and send them to the researcher with your new ones.".to_owned(),
        };
        Notice {
            kind,
            text,
            download: Some(Download {
                name: format!("juror-saved-answers-{}.json", study.id()),
                text: saved.to_owned(),
            }),
        }
    }
}

/// A session opened from what storage held.
#[derive(Debug, Clone, PartialEq)]
pub struct Opened {
    /// The session: resumed, or fresh.
    pub session: Session,
    /// The revision of the stored envelope read (0 when none was usable).
    pub revision: u64,
    /// The stored text, when it was an envelope of this study file: a later storage event with
    /// the same text is this tab's own save.
    pub loaded: String,
    /// Whole days since the answers were last saved, when long enough to warn about
    /// ([`durability::days_away`]).
    pub away_days: Option<u32>,
    /// Trials done ([`super::ProgressView::done`]): the count at the last backup.
    pub done: usize,
    /// Storage cannot be used: the banner's sentence.
    pub problem: Option<String>,
    /// What to tell the annotator once.
    pub notice: Option<Notice>,
    /// The stored text the shell must set aside (damaged, from a newer Juror, or not fitting
    /// the plan), then report with [`Opened::set_aside`].
    pub quarantine: Option<String>,
    /// Saves must wait until the annotator has downloaded the saved answers: they could not be
    /// set aside, and the next save would overwrite them.
    pub hold: bool,
}

impl Opened {
    /// Whether the copy in [`Opened::quarantine`] could be set aside. When it could not (storage
    /// full), the notice says so and saves are held.
    pub fn set_aside(&mut self, study: &Study, kept: bool) {
        let (Some(text), Some(notice)) = (&self.quarantine, &mut self.notice) else {
            return;
        };
        if !kept {
            *notice = Notice::new(notice.kind.clone(), false, study, text);
            self.hold = true;
        }
    }
}

/// Opens the session of `annotator` for the study file with SHA-256 `study_sha256` from what
/// storage held under its key: resumed when the saved answers can be read and fit the study's
/// plan; otherwise fresh, with a notice and the saved text to set aside (never deleted). An
/// earlier version of the study file's answers are never mixed in: the notice offers them.
/// `visible` is whether the page is visible.
pub fn open(
    study: &Study,
    study_sha256: &str,
    annotator: Annotator,
    stored: Stored,
    visible: bool,
    now: f64,
) -> Opened {
    let mut opened = Opened {
        session: Session::new(study, annotator.clone()),
        revision: 0,
        loaded: String::new(),
        away_days: None,
        done: 0,
        problem: None,
        notice: None,
        quarantine: None,
        hold: false,
    };
    match stored {
        Stored::Unavailable(problem) => opened.problem = Some(problem),
        Stored::Nothing { earlier } => {
            opened.notice =
                earlier.map(|text| Notice::new(NoticeKind::EarlierVersion, true, study, &text));
        }
        Stored::Text(text) => match store::read(&text) {
            Ok(envelope) if envelope.study_sha256 == study_sha256 => {
                opened.revision = envelope.revision;
                opened.away_days = durability::days_away(envelope.saved_at, now);
                opened.loaded = text.clone();
                match store::resume(study, envelope, now) {
                    Ok(session) => opened.session = session,
                    Err(why) => {
                        opened.notice =
                            Some(Notice::new(NoticeKind::DoesNotFit(why), true, study, &text));
                        opened.quarantine = Some(text);
                    }
                }
            }
            Ok(_) => {}
            Err(reason) => {
                let why = match reason {
                    Unreadable::Corrupt(_) => "they are damaged".to_owned(),
                    Unreadable::Future(v) => {
                        format!("they were saved by a newer version of Juror (format {v})")
                    }
                };
                opened.notice = Some(Notice::new(NoticeKind::Unreadable(why), true, study, &text));
                opened.quarantine = Some(text);
            }
        },
    }
    opened.session.visible = visible;
    opened.done = opened.session.done();
    opened
}

/// What this tab knows when another tab's save arrives ([`absorb`]).
#[derive(Debug, Clone, Copy)]
pub struct Tab<'a> {
    /// This tab's session: its answers and its plan.
    pub session: &'a Session,
    /// The fingerprint of that plan, as this tab saves it.
    pub plan: &'a str,
    /// The revision of the stored envelope this tab last wrote or read.
    pub revision: u64,
    /// The text this tab last wrote.
    pub last_written: &'a str,
    /// A copy that could not be taken in and that the annotator has downloaded since: this tab
    /// may save over it.
    pub let_go: &'a str,
    /// [`Absorb::Take::answers`] of the copy this tab last saved its union in reply to.
    pub replied_to: &'a str,
}

/// What to do with another tab's save.
#[derive(Debug, Clone, PartialEq)]
pub enum Absorb {
    /// Nothing: this tab's own save, a copy the annotator downloaded and let go, or another
    /// study file's or person's.
    Ignore,
    /// The copy cannot be taken in: it is damaged, from a newer Juror, follows another plan, or
    /// does not fit this tab's plan (another version of Juror in another tab). Nothing of it is
    /// merged, and this tab saves nothing over it (the hold) until the annotator has downloaded
    /// it from the notice.
    Unfit(Notice),
    /// Take it in.
    Take {
        /// The revision to count on from (the larger of the two).
        revision: u64,
        /// The stored answers, when merging them changes this tab's: the shell dispatches
        /// [`super::Msg::Absorb`] with them.
        merge: Option<Box<Progress>>,
        /// This tab has answers the stored copy lacks: it must save the union. Never twice in
        /// reply to the same answers when the union is what this tab last wrote, so that two
        /// tabs that cannot agree (another version of Juror) never overwrite each other
        /// endlessly.
        save: bool,
        /// A digest of the stored copy's answers: the shell remembers it as
        /// [`Tab::replied_to`] when it saves in reply.
        answers: String,
    },
}

/// A digest of the answers of `progress` (trials and surveys): what the merge joins.
fn answers_digest(progress: &Progress) -> String {
    let answers = (&progress.trials, &progress.intake, &progress.exit);
    crate::base::digest::sha256_hex(&serde_json::to_string(&answers).unwrap_or_default())
}

/// Takes in `incoming`, the text another tab stored under this session's key, for the study
/// file with SHA-256 `study_sha256`.
///
/// Every copy that fits is taken in, whatever its revision: the merge goes answer by answer by
/// their stamps, so an older copy cannot undo an edit, and a copy written by a tab that started
/// after the key was cleared (revision 0) still gives its answers. A copy fits when it makes the
/// checks [`store::resume`] makes: the same plan's fingerprint, and answers that fit the plan
/// ([`super::fits`]).
pub fn absorb(study: &Study, study_sha256: &str, tab: Tab<'_>, incoming: &str) -> Absorb {
    // This tab's own last save: nothing new in it (and merging an older copy of our own
    // survey answers would undo the newest one).
    if tab.last_written == incoming || tab.let_go == incoming {
        return Absorb::Ignore;
    }
    let unfit = |why: String| {
        Absorb::Unfit(Notice::new(
            NoticeKind::OtherTab(why),
            true,
            study,
            incoming,
        ))
    };
    let envelope = match store::read(incoming) {
        Ok(envelope) => envelope,
        Err(Unreadable::Corrupt(_)) => return unfit("they are damaged".to_owned()),
        Err(Unreadable::Future(v)) => {
            return unfit(format!(
                "they were saved by a newer version of Juror (format {v})"
            ));
        }
    };
    let local = &tab.session.progress;
    if envelope.study_sha256 != study_sha256
        || !local.annotator.same_person(&envelope.progress.annotator)
    {
        return Absorb::Ignore;
    }
    if envelope.plan.as_deref().is_some_and(|p| p != tab.plan) {
        return unfit("they follow another plan of this study than this tab's".to_owned());
    }
    if let Err(why) = super::fits(study, &tab.session.plan, &envelope.progress) {
        return unfit(why);
    }
    let merged = store::merge(local, &envelope.progress);
    let theirs = envelope.progress;
    let lacks = merged.trials != theirs.trials
        || merged.intake != theirs.intake
        || merged.exit != theirs.exit;
    let answers = answers_digest(&theirs);
    let said_before = answers == tab.replied_to
        && store::read(tab.last_written)
            .is_ok_and(|written| answers_digest(&written.progress) == answers_digest(&merged));
    Absorb::Take {
        revision: tab.revision.max(envelope.revision),
        merge: (merged != *local).then(|| Box::new(theirs)),
        save: lacks && !said_before,
        answers,
    }
}

/// The session to continue from a downloaded ratings file, for the study file with SHA-256
/// `study_sha256` (the file may be another annotator's: the session is theirs). Every answer is
/// stamped as an edit made now: the restored answers win over older stored copies of the same
/// answers, and stored answers the file lacks are kept.
///
/// # Errors
/// Why the file cannot be used: not a ratings file, another study, or not fitting its plan.
pub fn restore(study: &Study, study_sha256: &str, text: &str, now: f64) -> Result<Session, String> {
    let file = ratings::parse(text).map_err(|e| e.to_string())?;
    let (mut progress, plan) =
        ratings::restore_on_plan(study, study_sha256, &file).map_err(|e| e.to_string())?;
    progress.stamp_all(now);
    Session::resume_on(study, plan, progress, now)
}

/// [`restore`] for a page that keeps the ratings file's reader out of its first download (the
/// annotator's page loads it only when asked): the session to continue as the text of a stored
/// envelope (revision 0, saved `now` by `app_version`), which [`restored`] reads back into the
/// session [`restore`] gives.
///
/// # Errors
/// As [`restore`].
pub fn restore_stored(
    study: &Study,
    study_sha256: &str,
    text: &str,
    now: f64,
    app_version: &str,
) -> Result<String, String> {
    let session = restore(study, study_sha256, text, now)?;
    store::write(&store::Envelope {
        schema_version: store::SCHEMA_VERSION,
        study_id: study.id().to_owned(),
        study_sha256: study_sha256.to_owned(),
        saved_at: now,
        revision: 0,
        app_version: app_version.to_owned(),
        plan: Some(session.plan.fingerprint()),
        progress: session.progress,
    })
}

/// The session [`restore_stored`] wrote, read back: whose answers they are
/// (`session.annotator()`) and where they stand.
///
/// # Errors
/// Why the text cannot be used (it was not written by [`restore_stored`] for this study).
pub fn restored(study: &Study, text: &str, now: f64) -> Result<Session, String> {
    let envelope =
        store::read(text).map_err(|_| "the restored answers could not be read".to_owned())?;
    store::resume(study, envelope, now)
}
