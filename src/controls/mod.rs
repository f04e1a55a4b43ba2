//! The controls an annotator answers with, each reading its answer from the session and
//! sending the change back to it: any question ([`QuestionControl`]), a slider, marked error
//! spans, and the preference between outputs.

mod preference;
mod question;
mod slider;
mod spans;

use juror_core::session::TrialAnswers;

use crate::session::SessionHandle;

pub use preference::PreferenceControl;
pub use question::{
    NeededNote, PointCaption, QuestionControl, described_by, invalid, needed, radio,
};
pub use slider::SliderScale;
pub use spans::SpansQuestion;

/// What `read` finds in what is given in trial `index` (reactive); the default past the plan.
pub fn given<T: Default>(
    handle: SessionHandle,
    index: usize,
    read: impl Fn(&TrialAnswers) -> T,
) -> T {
    handle.with(|s| s.answers(index).map(read).unwrap_or_default())
}
