//! Juror's core: every rule of the product, with no web dependency.
//!
//! The types that matter:
//! - [`study::RawStudy`], the study file as written (`juror.study/1`), and [`study::Study`],
//!   the validated model built from it by [`study::parse_study`];
//! - [`study::Problem`], one thing wrong with a study file, with where and what to do;
//! - [`markdown::to_html`], the one Markdown renderer, safe for untrusted outputs;
//! - [`plan::plan`], the counterbalanced, blinded plan of one annotator;
//! - [`session::update`] and [`session::Session`], the annotator's session reducer, and
//!   [`session::ratings::RatingsFile`], the file it produces;
//! - [`analysis`], from ratings files to the report, on the statistics in [`stats`].
//!
//! Invariants: nothing here touches the web or the file system; every function is
//! deterministic.

pub mod analysis;
pub mod fast_hash;
pub mod json_path;
pub mod markdown;
pub mod plan;
pub mod publish;
pub mod session;
pub mod stats;
pub mod study;
