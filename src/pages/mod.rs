//! The researcher's page.

mod analyse;

pub use analyse::{Analyse, JudgesView};
