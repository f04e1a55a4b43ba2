//! The annotator's session: one reducer owns it.
//!
//! `update(study, session, msg, now)` is the only way the session changes; it returns the
//! commands the shell must carry out (save, save soon, move focus, scroll). `view(study,
//! session)` gathers what the page renders in one value: the trial as the rater sees it, what is
//! given in it (`trial_state`), progress, every trial's status, what is missing. The pages read
//! the same through `current_view`, `progress`, `trial_statuses` and the `Session` accessors
//! (`phase`, `answers`, `missing`, ...), never its fields. Clocks and storage stay in the shell, but
//! the decisions about storage do not: `open` says what to make of stored answers (resume, set
//! aside, hold saves, take in another tab's save, restore a file) and its results reach the
//! session as messages ([`Msg::Absorb`], [`Msg::Restore`]); `keys` turns a key into its message.
//! Every message comes with `now` (milliseconds since the Unix epoch), so every journey can be
//! replayed natively.
//!
//! Phases run welcome → consent (when the study has one; declining ends it) → instructions →
//! intake survey (when there is one) → trials → exit survey (when there is one) → done.
//!
//! The session itself, where the annotator is and what they gave are in `model.rs`; the messages
//! and the shell's commands in `msg.rs`; the reducer in `update.rs`; what the page renders in
//! `view.rs`. Those modules are private: everything public is re-exported here.

pub mod answers;
pub mod completion;
pub mod durability;
pub mod from_json;
pub mod keys;
mod model;
mod msg;
pub mod open;
pub mod ratings;
pub mod sheet;
pub mod span_text;
pub mod stamps;
pub mod store;
pub mod submit;
pub mod time;
mod update;
mod view;

pub use crate::study::ask::{Answer, Preference, Reply, Target};
pub use answers::{
    CANNOT_JUDGE, ErrorSpan, OutputAnswers, TrialAnswers, grade_name, parse_grade, place_span,
};
pub use model::{Missing, Overlay, Phase, Progress, Session, Survey, fits};
pub use msg::{Cmd, Msg};
pub use update::{screened, update};
pub use view::{
    OutputState, ProgressView, SessionView, TrialState, TrialStatus, current_view, next_unanswered,
    progress, survey_missing, target_label, trial_missing, trial_state, trial_statuses,
    trial_targets, view, with_label,
};

#[cfg(test)]
mod merge_tests;
#[cfg(test)]
mod open_tests;
#[cfg(test)]
mod sheet_tests;
#[cfg(test)]
mod skip_tests;
#[cfg(test)]
mod span_tests;
#[cfg(test)]
mod tests;
