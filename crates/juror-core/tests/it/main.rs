//! The integration tests of juror-core, in one binary: one link step instead of one per
//! subject. Each module is one subject (`paired`, `plan`, …); `support` holds what they
//! share. Fixtures, golden files and reference values stay in `tests/fixtures/`,
//! `tests/golden/` and `tests/reference/`.
//!
//! Run one subject with a filter, e.g. `cargo test -p juror-core --test it paired::`; rewrite
//! the committed snapshots with `JUROR_BLESS=1 cargo test -p juror-core --test it` and read the
//! diff; fuzz longer with
//! `JUROR_FUZZ_CASES=20000 cargo test --release -p juror-core --test it fuzz::`.
// clippy.toml lets `#[test]` functions unwrap; their helpers here may too, for the same reason.
#![expect(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "a test stops where it failed, in a helper as in the test"
)]

mod support;

mod agreement;
mod analysis;
mod answers;
mod betting_cs;
mod bt_sandwich;
mod cannot_judge;
mod choices;
mod compiled;
mod crossed;
mod davidson;
mod divergence;
mod fuzz;
mod graded;
mod judge_verdicts;
mod judges;
mod layers;
mod mace;
mod mixed;
mod nominal;
mod ordinal;
mod paired;
mod payments;
mod plan;
mod power_preference;
mod preference;
mod raters;
mod ratings;
mod rounds;
mod spans;
mod standardise;
mod validation;
