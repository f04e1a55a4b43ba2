//! The session's messages: what the page sends the reducer ([`Msg`]) and what the reducer asks
//! of the shell in return ([`Cmd`]).

use super::{Answer, ErrorSpan, Overlay, Preference, Progress, Session, Survey};

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
    /// Answer (or clear, with `None`) a survey question.
    SurveyAnswer {
        /// Which survey.
        survey: Survey,
        /// Question id.
        question: String,
        /// The answer.
        answer: Option<Answer>,
    },
    /// Leave a survey.
    SubmitSurvey(Survey),
    /// Rate an output on a dimension; with `advance`, focus moves to the next unanswered one.
    Rate {
        /// Position.
        position: usize,
        /// Dimension id.
        dimension: String,
        /// Score.
        value: i32,
        /// Move focus on (keyboard answers).
        advance: bool,
    },
    /// Answer "Cannot judge" on a dimension that offers it (`allow_skip`), or (`on` false)
    /// take it back, leaving the dimension unanswered; a score given later replaces it, as it
    /// replaces a score. With `advance`, focus moves on as after a score.
    CannotRate {
        /// Position.
        position: usize,
        /// Dimension id.
        dimension: String,
        /// "Cannot judge" (true), or taken back.
        on: bool,
        /// Move focus on (keyboard answers).
        advance: bool,
    },
    /// Answer a per-output question.
    OutputAnswer {
        /// Position.
        position: usize,
        /// Question id.
        question: String,
        /// Answer.
        answer: Option<Answer>,
    },
    /// Flag or unflag an output.
    Flag {
        /// Position.
        position: usize,
        /// Flagged.
        on: bool,
    },
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
    /// Say the output at a position has no errors, or take it back. Refused while errors are
    /// marked in it.
    NoErrors {
        /// Position.
        position: usize,
        /// No errors.
        on: bool,
    },
    /// Give or clear the preference.
    Prefer(Option<Preference>),
    /// The preference's explanation.
    Explain(String),
    /// Notes.
    Notes(String),
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
