//! The front door, floor 3: what a study's text goes through to be played. [`open`] reads,
//! validates and hashes a study file and checks its slots with the planner; [`compiled`] writes
//! and reads the compiled study (the study as validated, its Markdown rendered) that the
//! annotator's page plays; [`cover`] is what its welcome page needs, carried beside it.

pub mod compiled;
pub mod cover;
pub mod open;
