//! Juror's core: every rule of the product, with no web dependency.
//!
//! The types that matter:
//! - [`study::RawStudy`], the study file as written (`juror.study/1`), and [`study::Study`],
//!   the validated model built from it by [`study::parse_study`] (to be played: its `analysis`
//!   section kept as written) or [`analysis::plan_reader::parse_study`] (the researcher's, with
//!   the pre-registered plan read and checked);
//! - [`study::Problem`], one thing wrong with a study file, with where and what to do;
//! - [`markdown::to_rich`], the one Markdown renderer, into [`rich`]'s whitelisted tree, safe for
//!   untrusted outputs;
//! - [`plan::plan`], the counterbalanced, blinded plan of one annotator;
//! - [`session::update`] and [`session::Session`], the annotator's session reducer, and
//!   [`session::ratings::RatingsFile`], the file it produces;
//! - [`analysis`], from ratings files to the report, on the statistics in [`stats`].
//!
//! The modules stand on floors: a module imports only from its own floor and the floors below
//! it (held by `tests/it/layers.rs`, which names the imports allowed between modules of one floor).
//!
//! Invariants: nothing here touches the web or the file system; every function is
//! deterministic.

// Floor 1, the base: imports nothing of Juror.
pub mod csv;
pub mod digest;
pub mod fast_hash;
pub mod json;
pub mod json_path;
pub mod markdown;
pub mod number;
pub mod order;
pub mod pseudonym;
pub mod rich;
pub mod rng;
pub mod url;
pub mod visible;

// Floor 2: the study file, its format and its validated model.
pub mod study;

// Floor 3: plans of a study, and what needs them to accept a study: the front door for a
// study's text, the compiled study (written from what the front door opened) and its cover
// (what the welcome page needs), and building a study from model outputs.
pub mod compiled;
pub mod cover;
pub mod open;
pub mod plan;
pub mod prepare;

// Floor 4: the annotator's session, the statistics, and publishing (sealing a study and
// computing its plans).
pub mod publish;
pub mod session;
pub mod stats;

// Floor 5: the analysis report.
pub mod analysis;
