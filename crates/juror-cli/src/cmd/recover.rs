//! `juror recover`: the answers an annotator's browser kept (downloaded from the problems
//! page) turned back into the ratings file they would have downloaded.

use std::path::PathBuf;
use std::process::ExitCode;

use crate::files::{load_opened, read};

/// Turn answers saved in an annotator's browser (the file the problems page's "Answers
/// saved in this browser" downloads) into a ratings file (juror.ratings/1).
#[derive(clap::Args)]
pub struct Args {
    /// The saved answers, as downloaded.
    saved: PathBuf,
    /// The study file the answers were saved for (the same bytes).
    #[arg(long)]
    study: PathBuf,
    /// Where to write the ratings file (default: standard output).
    #[arg(long, short)]
    out: Option<PathBuf>,
}

/// Exits 2 when a file cannot be read or written or the study is invalid, 1 when the saved
/// answers do not fit the study, else 0.
pub fn run(args: Args) -> ExitCode {
    use juror_core::session::store;

    let Ok(opened) = load_opened(&args.study) else {
        return ExitCode::from(2);
    };
    let Ok(text) = read(&args.saved) else {
        return ExitCode::from(2);
    };
    let file = match store::recover(
        &opened.study,
        &opened.sha256,
        &text,
        env!("CARGO_PKG_VERSION"),
    ) {
        Ok(file) => file,
        Err(why) => {
            errln!("{}: {why}", args.saved.display());
            return ExitCode::FAILURE;
        }
    };
    let json = file.to_json();
    match &args.out {
        Some(path) => {
            if let Err(e) = std::fs::write(path, &json) {
                errln!("{}: cannot write: {e}", path.display());
                return ExitCode::from(2);
            }
            errln!(
                "wrote {} ({} trials, {} done)",
                path.display(),
                file.trials.len(),
                file.trials.iter().filter(|t| t.done).count()
            );
        }
        None => out!("{json}"),
    }
    ExitCode::SUCCESS
}
