//! The `juror` binary end to end, one module per subcommand or concern, in one test binary (one
//! link step); `support` holds what they share.
// clippy.toml lets `#[test]` functions unwrap; their helpers here may too, for the same reason.
#![expect(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "a test stops where it failed, in a helper as in the test"
)]

mod support;

mod analyze;
mod analyze_published;
mod cli;
mod cli_docs;
mod compile;
mod crowd;
mod links;
mod paths;
mod power;
mod prepare_seal;
mod publish;
mod recover;
mod repository;
mod schemas;
mod sheets;
mod shell_layers;
mod tidy;
mod trials;
mod validate_ratings;
