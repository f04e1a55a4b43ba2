//! Statistics for the analysis of ratings: agreement, paired comparisons, preferences, tests on
//! categories and ranks.
//!
//! Every statistic documents its formula, its conventions (ties, zeros, ddof, weights) and the
//! reference it is tested against, with the tolerance (1e-9 for closed forms, 1e-6 for
//! iterative fits). Reference values are committed beside their scripts in
//! `crates/juror-core/tests/reference/`, with the library versions that produced them.

pub mod agreement;
pub mod math;
pub mod mixed;
pub mod nominal;
pub mod paired;
pub mod power;
pub mod preference;
