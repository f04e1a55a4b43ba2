//! One component per page the app can show.

mod done;
mod flow;
mod instructions;
pub mod later;
mod no_study;
mod open;
mod preview;
mod problems;
mod saved;
mod slider;
mod spans;
mod survey;
mod trial;
mod welcome;

pub use done::Debrief;
pub use no_study::{NoStudy, NoStudyPage};
pub use open::{BrokenLink, FilePicker, OpenStudy};
pub use problems::StudyProblems;
pub use saved::{KeptCount, SavedAnswers};
pub use survey::PointCaption;
pub use welcome::{Contact, StartActions, Welcome, format_minutes};
