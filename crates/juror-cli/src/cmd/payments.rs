//! `juror payments`: the evidence to check before paying participants, one row per participant
//! whose ratings file arrived (file complete, attention checks passed, time on task, the
//! platform's session, the slot the link gave), through the core's `analysis::payments`.

use std::path::PathBuf;
use std::process::ExitCode;

use juror_core::analysis::payments::payments;
use juror_core::analysis::report::raters::estimate_for_payments;
use juror_core::analysis::run::parse_key;
use juror_core::analysis::{Context, Input};
use juror_core::study::analysis_plan::RaterModels;

use crate::files::{load_opened, read, write_atomically};

/// List each participant whose ratings file arrived, with what to check before paying them:
/// whether the file is complete, the attention checks passed (the key says which items are
/// checks and what they accept), the active time on task, the platform's session id
/// (Prolific's SESSION_ID, MTurk's assignmentId) and the slot the link gave. The completion
/// code is public (it is in the published study): this list, not the code, is the evidence;
/// check it before the platform approves submissions automatically. Each participant's latest
/// complete file counts; their backups are counted beside it. Exit 1 when a file could not be
/// used (listed on stderr), 2 when the study or key cannot be used.
#[derive(clap::Args)]
pub struct Args {
    /// The study file as published (the ratings files are checked against it).
    study: PathBuf,
    /// The ratings files that arrived (juror.ratings/1), backups included.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// The key written by `juror publish` (or `juror seal`): which items are attention checks
    /// and what they accept, and the system tokens.
    #[arg(long)]
    key: Option<PathBuf>,
    /// table: aligned columns for the terminal; csv: one row per participant, every column.
    #[arg(long, value_enum, default_value_t = Format::Table)]
    format: Format,
    /// Write to this file instead of standard output.
    #[arg(long)]
    out: Option<PathBuf>,
    /// Also estimate each participant's rater quality on every nominal answer, as `juror
    /// analyze --raters` does (dawid-skene: accuracy; mace: competence; comma-separated).
    /// Default: the study's analysis.raters. A low value is a reason to look, not proof.
    #[arg(long, value_enum, value_delimiter = ',', value_name = "MODEL")]
    raters: Vec<super::analyze::RaterFlag>,
}

/// What `juror payments` writes.
#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Format {
    Table,
    Csv,
}

/// Exits 2 when the study or the key cannot be used or the output cannot be written (nothing
/// is listed), 1 when some ratings file could not be used (the list covers the rest), else 0.
pub fn run(args: Args) -> ExitCode {
    let Ok(opened) = load_opened(&args.study) else {
        return ExitCode::from(2);
    };
    let key = match &args.key {
        None => None,
        Some(path) => {
            let Ok(text) = read(path) else {
                return ExitCode::from(2);
            };
            match parse_key(&path.display().to_string(), &text) {
                Ok(key) => Some(key),
                Err(reason) => {
                    errln!("{reason}");
                    return ExitCode::from(2);
                }
            }
        }
    };
    let mut inputs = Vec::new();
    let mut unreadable = 0usize;
    for file in &args.files {
        match read(file) {
            Ok(text) => inputs.push(Input::new(file.display().to_string(), text)),
            Err(_) => unreadable += 1,
        }
    }
    let context = Context {
        study: Some((&opened.study, opened.sha256.as_str())),
        key: key.as_ref(),
        reveal_ids: true,
    };
    let mut list = payments(&inputs, &context);
    let raters = if args.raters.is_empty() {
        opened
            .study
            .analysis()
            .map(|p| p.raters)
            .unwrap_or_default()
    } else {
        RaterModels::of(&args.raters.iter().map(|r| r.model()).collect::<Vec<_>>())
    };
    estimate_for_payments(&mut list, &inputs, &context, raters);
    let text = match args.format {
        Format::Table => list.to_table(),
        Format::Csv => list.to_csv(),
    };
    match &args.out {
        Some(path) => {
            if let Err(code) = write_atomically(path, &text) {
                return code;
            }
        }
        None => out!("{text}"),
    }
    for p in &list.problems {
        errln!("{p}");
    }
    let noted = list.rows.iter().filter(|r| !r.notes.is_empty()).count();
    errln!(
        "{} participant(s), {noted} with something to look at before paying",
        list.rows.len()
    );
    if list.problems.is_empty() && unreadable == 0 {
        ExitCode::SUCCESS
    } else {
        errln!(
            "{} file(s) could not be used; the list covers the rest",
            list.problems.len() + unreadable
        );
        ExitCode::FAILURE
    }
}
