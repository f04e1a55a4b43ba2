//! `juror`: the researcher's command line, on the same core as the web app.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

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
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Validate { file } => validate(&file),
        Command::Schema => {
            print!("{}", juror_core::study::schema());
            ExitCode::SUCCESS
        }
    }
}

fn validate(file: &std::path::Path) -> ExitCode {
    let text = match std::fs::read_to_string(file) {
        Ok(text) => text,
        Err(e) => {
            eprintln!("{}: cannot read the file: {e}", file.display());
            return ExitCode::from(2);
        }
    };
    match juror_core::study::parse_study(&text) {
        Ok(study) => {
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
        Err(problems) => {
            for p in problems.iter() {
                println!("{p}");
            }
            eprintln!(
                "{}: {} problem(s); the study is not valid",
                file.display(),
                problems.len()
            );
            ExitCode::FAILURE
        }
    }
}
