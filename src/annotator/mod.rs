//! The annotator's pages: one component per page the study shows, from the welcome page to the
//! end, and the pages for a study that cannot be played.

mod done;
mod flow;
mod instructions;
mod no_study;
mod open;
mod preview;
mod problems;
mod saved;
mod survey;
mod trial;
pub mod welcome;

pub use done::Debrief;
pub use flow::{StudyFlow, start};
pub use no_study::{NoStudy, no_study_page};
pub use open::{BrokenLink, FilePicker, OpenStudy};
pub use preview::{PreviewBanner, PreviewNames};
pub use problems::StudyProblems;
pub use saved::{KeptCount, SavedAnswers};
pub use welcome::{Contact, StartActions, Welcome};
