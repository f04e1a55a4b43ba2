//! `juror`: the researcher's command line, on the same core as the web app. Each subcommand is
//! a module of [`cmd`] with its flags (a `clap::Args` struct, whose doc comment is the
//! subcommand's help) and its `run`, which returns the exit code; [`files`] reads and writes
//! for all of them, and [`terminal`] is the only way text reaches the terminal.

/// `print!` and `println!` through [`terminal::out`], `eprintln!` through [`terminal::err`]:
/// on a terminal, control characters from input files are shown escaped.
macro_rules! out {
    ($($arg:tt)*) => { $crate::terminal::out(&format!($($arg)*)) };
}
macro_rules! outln {
    () => { $crate::terminal::out("\n") };
    ($($arg:tt)*) => { $crate::terminal::out(&(format!($($arg)*) + "\n")) };
}
macro_rules! errln {
    () => { $crate::terminal::err("\n") };
    ($($arg:tt)*) => { $crate::terminal::err(&(format!($($arg)*) + "\n")) };
}

mod analysis_plan;
mod cmd;
mod files;
mod terminal;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(
    name = "juror",
    version,
    about = "Blinded human evaluation of AI outputs: prepare, check, plan, publish and analyse studies"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// The subcommands, in the order `juror --help` lists them; each one's help is the doc comment
/// of its `Args`.
#[derive(Subcommand)]
// Parsed once per run: the size of the largest variant (`analyze`'s flags) costs nothing.
#[allow(clippy::large_enum_variant)]
enum Command {
    Validate(cmd::validate::Args),
    Schema(cmd::schema::Args),
    Links(cmd::links::Args),
    Recover(cmd::recover::Args),
    ValidateRatings(cmd::validate_ratings::Args),
    Prepare(cmd::prepare::Args),
    Seal(cmd::seal::Args),
    Publish(cmd::publish::Args),
    Compile(cmd::compile::Args),
    Analyze(cmd::analyze::Args),
    Payments(cmd::payments::Args),
    Power(cmd::power::Args),
    Plan(cmd::plan::Args),
    Trials(cmd::trials::Args),
    Sheet(cmd::sheet::Args),
    ReadSheet(cmd::read_sheet::Args),
}

fn main() -> ExitCode {
    match Cli::parse().command {
        Command::Validate(args) => cmd::validate::run(args),
        Command::Schema(args) => cmd::schema::run(args),
        Command::Links(args) => cmd::links::run(args),
        Command::Recover(args) => cmd::recover::run(args),
        Command::ValidateRatings(args) => cmd::validate_ratings::run(args),
        Command::Prepare(args) => cmd::prepare::run(args),
        Command::Seal(args) => cmd::seal::run(args),
        Command::Publish(args) => cmd::publish::run(args),
        Command::Compile(args) => cmd::compile::run(args),
        Command::Analyze(args) => cmd::analyze::run(args),
        Command::Payments(args) => cmd::payments::run(args),
        Command::Power(args) => cmd::power::run(args),
        Command::Plan(args) => cmd::plan::run(args),
        Command::Trials(args) => cmd::trials::run(args),
        Command::Sheet(args) => cmd::sheet::run(args),
        Command::ReadSheet(args) => cmd::read_sheet::run(args),
    }
}
