//! What an annotator is asked, where, and what they can reply: a [`Target`] on the page (a
//! dimension of an output, a question, the preference, the notes…) and the [`Reply`] given at
//! it. The session takes every answer as one message, a reply at a target; what fits each is
//! decided here and in the answer types beside it ([`Answer`], [`Preference`]).
//!
//! Invariant: nothing here knows of plans or sessions; a target names positions and ids only,
//! never a system.

mod answer;
pub mod cell;
mod preference;
pub mod question;
mod scale;

/// The value a tidy file writes for "Cannot judge", in a score or preference column.
pub const CANNOT_JUDGE: &str = "cannot_judge";

pub use answer::Answer;
#[cfg(test)]
pub use preference::strategy as preference_strategy;
pub use preference::{
    CHOICE_SEPARATOR, Chosen, PairOutcome, Picked, Preference, PreferenceRecord, RawPreferenceKind,
    RecordRow, grade_name, parse_grade, read as read_preference,
};
pub(in crate::study) use preference::{read_asked, task_preference};
pub use question::{QuestionKind, RankOptions, RawQuestionKind};

/// What is given at a target ([`Target`]); `None` in a message clears it.
#[derive(Debug, Clone, PartialEq)]
pub enum Reply {
    /// A point of a dimension's scale.
    Score(i32),
    /// "Cannot judge" a dimension that offers it.
    CannotJudge,
    /// A question's answer (a survey's or an output's).
    Answer(Answer),
    /// A box ticked: the flag, or "No errors".
    Ticked,
    /// The preference.
    Preference(Preference),
    /// Typed text: the preference's explanation, the notes.
    Text(String),
}

impl Reply {
    /// Whether the reply is typed (text or a number: a message per keystroke, saved soon
    /// rather than at once).
    pub fn typed(&self) -> bool {
        matches!(
            self,
            Reply::Text(_) | Reply::Answer(Answer::Text(_) | Answer::Number(_))
        )
    }
}

/// A question on screen that can be answered, focused, or missing.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum Target {
    /// A dimension of the output at a position.
    Rating {
        /// Position.
        position: usize,
        /// Dimension id.
        dimension: String,
    },
    /// A per-output question.
    OutputQuestion {
        /// Position.
        position: usize,
        /// Question id.
        question: String,
    },
    /// The flag of the output at a position.
    Flag {
        /// Position.
        position: usize,
    },
    /// The errors of the output at a position (a span marked, or "No errors").
    Spans {
        /// Position.
        position: usize,
    },
    /// The preference.
    Preference,
    /// The preference's explanation.
    Explanation,
    /// The notes.
    Notes,
    /// A survey question.
    Survey {
        /// Question id.
        question: String,
    },
}

impl Target {
    /// The id of the element to focus for this target (stable, free of system ids).
    pub fn dom_id(&self) -> String {
        let clean = |s: &str| -> String {
            s.chars()
                .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
                .collect()
        };
        match self {
            Target::Rating {
                position,
                dimension,
            } => format!("q-rate-{position}-{}", clean(dimension)),
            Target::OutputQuestion { position, question } => {
                format!("q-out-{position}-{}", clean(question))
            }
            Target::Flag { position } => format!("q-flag-{position}"),
            Target::Spans { position } => format!("q-spans-{position}"),
            Target::Preference => "q-preference".to_owned(),
            Target::Explanation => "q-explanation".to_owned(),
            Target::Notes => "q-notes".to_owned(),
            Target::Survey { question } => format!("q-survey-{}", clean(question)),
        }
    }
}
