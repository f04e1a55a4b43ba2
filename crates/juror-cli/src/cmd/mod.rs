//! One module per subcommand of `juror`: its flags as a `clap::Args` struct named `Args`, whose
//! doc comment is the subcommand's help, and `run(args) -> ExitCode`. The exit codes follow
//! one convention, which each `run` spells out: 0 done, 1 the input has problems (listed), 2 a
//! usage error or a file that cannot be read or written.

pub mod analyze;
pub mod compile;
pub mod links;
pub mod payments;
pub mod plan;
pub mod power;
pub mod prepare;
pub mod publish;
pub mod read_sheet;
pub mod recover;
pub mod schema;
pub mod seal;
pub mod sheet;
pub mod trials;
pub mod validate;
pub mod validate_ratings;
