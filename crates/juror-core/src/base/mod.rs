//! The base, floor 1: what every other floor uses and that knows nothing of studies (as
//! rust-analyzer's `stdx`). Nothing here imports from outside `base`; inside it, one module
//! imports another only in the order `tests/it/layers.rs` lists (`json` ← `rich` ← `markdown`).
//!
//! - text formats: [`csv`], [`json`] (hand-written readers, with the place of anything wrong),
//!   [`json_path`] (where a serde read failed), [`markdown`] into [`rich`] (the whitelisted
//!   tree the annotator's page draws), [`number`] (numbers as text), [`url`], [`visible`]
//!   (control characters made visible);
//! - hashing and chance: [`digest`] (SHA-256), [`fast_hash`], [`pseudonym`], [`rng`];
//! - [`order`] (sorting with one copy of the sort code);
//! - [`problem`]: [`Problem`](problem::Problem) and [`Problems`](problem::Problems), one thing
//!   wrong with a file the researcher wrote, placed, with what to do.

pub mod csv;
pub mod digest;
pub mod fast_hash;
pub mod json;
pub mod json_path;
pub mod markdown;
pub mod number;
pub mod order;
pub mod problem;
pub mod pseudonym;
pub mod rich;
pub mod rng;
pub mod url;
pub mod visible;
