//! `juror validate-ratings`: whether ratings files can be used (format, shape, checksum) and,
//! with the study, whether they belong to it; one line per file.

use std::path::PathBuf;
use std::process::ExitCode;

use juror_core::session::ratings::{ImportError, PreferenceRecord, RatingsFile};

use crate::files::{load_opened, read};

/// Check ratings files (juror.ratings/1): format, shape and checksum, and with --study that
/// they belong to that study file. One line per file; exit 1 if any is refused.
#[derive(clap::Args)]
pub struct Args {
    /// The ratings files, as the annotators downloaded them.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// The study file they were made with: also check each file's study id, the study
    /// file's SHA-256, and that the trials fit the annotator's plan.
    #[arg(long)]
    study: Option<PathBuf>,
}

/// One line per file, `FILE: ok: ...` or `FILE: AT: PROBLEM`. Exits 2 when the study cannot be
/// read or is invalid (checking nothing) or a ratings file cannot be read (after checking the
/// others), else 1 when any file is refused.
pub fn run(args: Args) -> ExitCode {
    use juror_core::analysis::read::studies::{belongs, mixed};
    use juror_core::session::ratings::parse;

    let study = match &args.study {
        None => None,
        Some(path) => match load_opened(path) {
            Ok(opened) => Some((opened.study, opened.sha256)),
            // Nothing was checked: exit 1 is kept for refused ratings files.
            Err(_) => return ExitCode::from(2),
        },
    };
    let (mut refused, mut unreadable) = (0usize, 0usize);
    let checked: Vec<Option<Result<RatingsFile, ImportError>>> = args
        .files
        .iter()
        .map(|file| {
            let text = read(file).ok()?;
            Some(
                parse(&text)
                    .and_then(|ratings| preference_positions(&ratings).map(|()| ratings))
                    .and_then(|ratings| match &study {
                        Some((study, hash)) => belongs(study, hash, &ratings).map(|_| ratings),
                        None => Ok(ratings),
                    }),
            )
        })
        .collect();
    // Without the study, files of more than one study are refused, as the analysis refuses them.
    let ids: Vec<Option<&str>> = checked
        .iter()
        .map(|c| match c {
            Some(Ok(r)) if study.is_none() => Some(r.study.id.as_str()),
            _ => None,
        })
        .collect();
    let mixed = mixed(&ids);
    for ((file, checked), mixed) in args.files.iter().zip(checked.iter()).zip(mixed) {
        let checked = match (checked, mixed) {
            (None, _) => {
                unreadable += 1;
                continue;
            }
            (Some(_), Some(message)) => Err(ImportError {
                at: "study.id".into(),
                message,
            }),
            (Some(c), None) => c.clone(),
        };
        match checked {
            Ok(r) => {
                let who = match &r.annotator.id {
                    Some(id) => format!("annotator slot {} (id {id:?})", r.annotator.slot),
                    None => format!("annotator slot {}", r.annotator.slot),
                };
                outln!(
                    "{}: ok: study {:?}, {who}, {} trials ({} done), {}",
                    file.display(),
                    r.study.id,
                    r.trials.len(),
                    r.trials.iter().filter(|t| t.done).count(),
                    if r.complete { "complete" } else { "incomplete" },
                );
            }
            Err(e) => {
                refused += 1;
                outln!("{}: {e}", file.display());
            }
        }
    }
    if refused + unreadable > 0 {
        errln!(
            "{} of {} ratings file(s) refused{}",
            refused + unreadable,
            args.files.len(),
            if unreadable > 0 { " or unreadable" } else { "" }
        );
    }
    if unreadable > 0 {
        ExitCode::from(2)
    } else if refused > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

/// Every `best` or `choice` preference names one of its trial's outputs. `parse` accepts any
/// position and `restore` (only with --study) checks it against the plan: this check refuses a
/// position outside the trial with or without a study, with the same message.
fn preference_positions(ratings: &RatingsFile) -> Result<(), ImportError> {
    for (i, t) in ratings.trials.iter().enumerate() {
        if let Some(
            PreferenceRecord::Best { position, .. } | PreferenceRecord::Choice { position, .. },
        ) = &t.preference
            && !(1..=t.outputs.len()).contains(position)
        {
            return Err(ImportError {
                at: format!("trials[{i}].preference.position"),
                message: format!(
                    "{position} is not the position of one of the trial's {} output(s)",
                    t.outputs.len()
                ),
            });
        }
    }
    Ok(())
}
