//! The `juror` binary end to end, one module per subcommand or concern, in one test binary (one
//! link step); `support` holds what they share.

mod support;

mod analyze;
mod cli;
mod crowd;
mod links;
mod power;
mod prepare_seal;
mod publish;
mod recover;
mod repository;
mod schemas;
mod validate_ratings;
