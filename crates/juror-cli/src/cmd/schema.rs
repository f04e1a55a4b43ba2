//! `juror schema`: the JSON Schemas of Juror's three file formats, generated from the core's
//! types, so that they are the same text as the committed `assets/schema/*.json`.

use std::process::ExitCode;

/// Print the JSON Schema of the study format (juror.study/1), or of ratings files or reports.
#[derive(clap::Args)]
pub struct Args {
    /// Print the schema of ratings files (juror.ratings/1) instead.
    #[arg(long, conflicts_with = "report")]
    ratings: bool,
    /// Print the schema of analysis reports (juror.report/1) instead.
    #[arg(long)]
    report: bool,
}

/// Always exits 0.
pub fn run(args: Args) -> ExitCode {
    if args.ratings {
        out!("{}", juror_core::session::ratings::schema());
    } else if args.report {
        out!("{}", juror_core::analysis::schema());
    } else {
        out!("{}", juror_core::study::schema());
    }
    ExitCode::SUCCESS
}
