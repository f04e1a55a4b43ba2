//! Juror's core: every rule of the product, with no web dependency.
//!
//! The types that matter:
//! - [`study::RawStudy`], the study file as written (`juror.study/1`), and [`study::Study`],
//!   the validated model built from it by [`study::parse_study`] (to be played: its `analysis`
//!   section kept as written) or [`analysis::plan_reader::parse_study`] (the researcher's, with
//!   the pre-registered plan read and checked);
//! - [`base::problem::Problem`], one thing wrong with a file the researcher wrote (a study, a
//!   compiled study, model outputs), with where and what to do;
//! - [`base::markdown::to_rich`], the one Markdown renderer, into [`base::rich`]'s whitelisted
//!   tree, safe for untrusted outputs;
//! - [`plan::plan`], the counterbalanced, blinded plan of one annotator;
//! - [`front::open::open`], the one front door for a study's text, and [`front::compiled`], the
//!   study as the annotator's page plays it;
//! - [`session::update`] and [`session::Session`], the annotator's session reducer, and
//!   [`session::ratings::RatingsFile`], the file it produces;
//! - [`analysis`], from ratings files to the report, on the statistics in [`stats`].
//!
//! The modules stand on floors: a module imports only from its own floor and the floors below
//! it (held by `tests/it/layers.rs`, which names the imports allowed between modules of one
//! floor, and the order of the modules inside `base`):
//! 1. [`base`]: text formats, hashing, chance, sorting, placed problems;
//! 2. [`study`]: the study file, its format and its validated model;
//! 3. [`plan`] and [`front`] (the front door);
//! 4. [`session`], [`stats`] and [`publish`];
//! 5. [`analysis`].
//!
//! Invariants: nothing here touches the web or the file system; every function is
//! deterministic.

// Floor 1, the base: imports nothing of Juror.
pub mod base;

// Floor 2: the study file, its format and its validated model.
pub mod study;

// Floor 3: plans of a study, and the front door, which needs them to accept a study: the
// study's text opened, the compiled study (written from what the front door opened) and its
// cover (what the welcome page needs).
pub mod front;
pub mod plan;

// Floor 4: the annotator's session, the statistics, and publishing (sealing a study, computing
// its plans, and building a study from model outputs).
pub mod publish;
pub mod session;
pub mod stats;

// Floor 5: the analysis report.
pub mod analysis;
