//! `juror`: the researcher's command line, on the same core as the web app.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use juror_core::study::{Study, parse_study};

#[derive(Parser)]
#[command(
    name = "juror",
    version,
    about = "Blinded human evaluation of AI outputs: validate studies"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Check a study file and list every problem with its JSON path and a fix.
    Validate {
        /// The study file (juror.study/1 JSON).
        file: PathBuf,
    },
    /// Print the JSON Schema of the study format (juror.study/1).
    Schema,
    /// Print one annotator's counterbalanced plan, or check the balance over all slots.
    Plan {
        /// The study file.
        file: PathBuf,
        /// The annotator slot, from 1 (as in a link's ?slot=N).
        #[arg(long, conflicts_with = "check")]
        slot: Option<String>,
        /// An annotator id (as in ?annotator=ID), mapped to a slot by a stable hash.
        #[arg(long, conflicts_with = "check")]
        annotator: Option<String>,
        /// Print the balance report over all slots; exit 1 if a bound is violated.
        #[arg(long)]
        check: bool,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Validate { file } => validate(&file),
        Command::Plan {
            file,
            slot,
            annotator,
            check,
        } => plan(&file, slot.as_deref(), annotator.as_deref(), check),
        Command::Schema => {
            print!("{}", juror_core::study::schema());
            ExitCode::SUCCESS
        }
    }
}

/// Reads and validates a study, or says why not (exit 2 for an unreadable file, 1 for an
/// invalid one).
fn load(file: &Path) -> Result<Study, ExitCode> {
    let text = std::fs::read_to_string(file).map_err(|e| {
        eprintln!("{}: cannot read the file: {e}", file.display());
        ExitCode::from(2)
    })?;
    parse_study(&text).map_err(|problems| {
        for p in problems.iter() {
            println!("{p}");
        }
        eprintln!(
            "{}: {} problem(s); the study is not valid",
            file.display(),
            problems.len()
        );
        ExitCode::FAILURE
    })
}

fn plan(file: &Path, slot: Option<&str>, annotator: Option<&str>, check: bool) -> ExitCode {
    let study = match load(file) {
        Ok(study) => study,
        Err(code) => return code,
    };
    if check {
        let report = juror_core::plan::balance::check(&study);
        print!("{}", report.render(&study));
        return if report.violations.is_empty() {
            ExitCode::SUCCESS
        } else {
            ExitCode::FAILURE
        };
    }
    let slot = if slot.is_none() && annotator.is_none() {
        Some("1")
    } else {
        slot
    };
    match juror_core::plan::resolve_annotator(&study, slot, annotator) {
        Ok(who) => {
            print!("{}", juror_core::plan::plan(&study, &who).table(&study));
            ExitCode::SUCCESS
        }
        Err(p) => {
            eprintln!("{p}");
            ExitCode::from(2)
        }
    }
}

fn validate(file: &Path) -> ExitCode {
    let study = match load(file) {
        Ok(study) => study,
        Err(code) => return code,
    };
    {
        {
            println!(
                "{}: valid {} study \"{}\": {} items, {} systems, {} dimensions, {} task(s), {} trials per annotator",
                file.display(),
                juror_core::study::STUDY_FORMAT_V1,
                study.id(),
                study.items().len(),
                study.systems().len(),
                study.rubric().dimensions.len(),
                study.design().tasks.len(),
                study.trials_per_annotator(),
            );
            ExitCode::SUCCESS
        }
    }
}
