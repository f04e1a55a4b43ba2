//! The session's messages: what the page sends the reducer ([`Msg`]) and what the reducer asks
//! of the shell in return ([`Cmd`]).

use super::{ErrorSpan, Overlay, Progress, Reply, Session, Survey, Target};

/// What the shell must do after an update.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Cmd {
    /// Persist the progress now.
    Save,
    /// Persist the progress soon: text being typed, one message per keystroke. The shell may
    /// wait a moment (so that a long session is not rewritten on every key), but
    /// must save before any other save, and when the page is hidden or closed.
    SaveSoon,
    /// Move focus to the element with this id.
    Focus(String),
    /// Scroll to the top (a new page or trial).
    ScrollTop,
}

/// A message from the page.
#[derive(Debug, Clone, PartialEq)]
pub enum Msg {
    /// Leave the welcome page.
    Start,
    /// Answer the consent form.
    Consent(bool),
    /// Leave the instructions.
    FinishInstructions,
    /// Back to the instructions from the intake survey or the first trial.
    BackToInstructions,
    /// Give (or clear, with `None`) the reply at a target: a score or "Cannot judge" on a
    /// dimension, a survey's or an output's question, the flag, "No errors", the preference,
    /// its explanation, the notes. Refused when the target is not asked on the current page or
    /// the reply does not fit it. `None` clears what was given, but for a dimension, where it
    /// takes back "Cannot judge" only (a score is replaced, never cleared). With `advance`
    /// (keyboard answers), focus moves to the next unanswered target.
    Answer {
        /// Where.
        target: Target,
        /// What.
        reply: Option<Reply>,
        /// Move focus on.
        advance: bool,
    },
    /// Leave a survey.
    SubmitSurvey(Survey),
    /// Mark an error in the output at a position, or change the severity or category of the
    /// error marked over the same text. Refused when it overlaps another span or does not fit
    /// the task ([`ErrorSpan::check`]).
    MarkSpan {
        /// Position.
        position: usize,
        /// The error.
        span: ErrorSpan,
    },
    /// Remove a marked error, by its key ([`ErrorSpan::key`]).
    RemoveSpan {
        /// Position.
        position: usize,
        /// The span's key.
        key: String,
    },
    /// Next trial (refused while required answers are missing).
    Next,
    /// Previous trial.
    Previous,
    /// Jump to a trial (from the list).
    GoTo(usize),
    /// Open or close an overlay.
    Overlay(Overlay),
    /// The tab became visible or hidden.
    Visibility(bool),
    /// Another tab saved these answers ([`open::absorb`]): they are merged into this tab's,
    /// answer by answer ([`store::merge`]). Nothing is saved: the shell saves when
    /// [`open::absorb`] says this tab has answers the stored copy lacks.
    ///
    /// [`open::absorb`]: super::open::absorb
    /// [`store::merge`]: super::store::merge
    Absorb(Box<Progress>),
    /// Continue from a ratings file: the session [`open::restore`] made of it (checked against
    /// the study's plan) replaces this one, and is saved.
    ///
    /// [`open::restore`]: super::open::restore
    Restore(Box<Session>),
    /// On the finish page, the ratings file was saved (downloaded, copied, shared) or sent to
    /// the study's service: recorded with the answers, so that the debriefing, the completion
    /// code and the rest that wait for it are there again when the annotator comes back.
    FileSaved,
}

impl Msg {
    /// Gives `reply` at `target` (not from the keyboard).
    pub fn answer(target: Target, reply: Reply) -> Msg {
        Msg::Answer {
            target,
            reply: Some(reply),
            advance: false,
        }
    }

    /// Clears what was given at `target`.
    pub fn clear(target: Target) -> Msg {
        Msg::Answer {
            target,
            reply: None,
            advance: false,
        }
    }
}
