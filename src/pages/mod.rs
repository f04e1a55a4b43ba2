//! One component per page the app can show.

mod open;
mod problems;
mod welcome;

pub use open::{FilePicker, OpenStudy};
pub use problems::StudyProblems;
pub use welcome::Welcome;
