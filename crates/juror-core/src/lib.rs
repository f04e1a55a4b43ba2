//! Juror's core: every rule of the product, with no web dependency.
//!
//! The types that matter:
//! - [`study::RawStudy`], the study file as written (`juror.study/1`), and [`study::Study`],
//!   the validated model built from it by [`study::parse_study`];
//! - [`study::Problem`], one thing wrong with a study file, with where and what to do;
//! - [`markdown::to_html`], the one Markdown renderer, safe for untrusted outputs.
//!
//! Invariants: nothing here touches the web or the file system; every function is
//! deterministic.

pub mod markdown;
pub mod plan;
pub mod session;
pub mod stats;
pub mod study;
