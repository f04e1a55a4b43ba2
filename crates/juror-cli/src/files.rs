//! Reading and writing the researcher's files, and saying on the terminal why one cannot be used.
//! Every subcommand reads a study the same way (an unreadable file exits 2, an invalid one
//! exits 1 with its problems on stdout) and writes its outputs whole or not at all.

use std::path::Path;
use std::process::ExitCode;

use juror_core::analysis::plan_reader::open;
use juror_core::analysis::run::FileText;
use juror_core::base::problem::Problems;
use juror_core::front::open::Opened;
use juror_core::study::Study;
use juror_core::study::raw::RawStudy;

/// A file's text, or exit 2 with why it cannot be read.
pub fn read(file: &Path) -> Result<String, ExitCode> {
    std::fs::read_to_string(file).map_err(|e| {
        errln!("{}: cannot read the file: {e}", file.display());
        ExitCode::from(2)
    })
}

/// Reads and validates a study, or says why not (exit 2 for an unreadable file, 1 for an
/// invalid one).
pub fn load(file: &Path) -> Result<Study, ExitCode> {
    let text = read(file)?;
    open_study(file, &text).map(|opened| opened.study)
}

/// Reads and validates a study, with the SHA-256 of its text, or says why not (exit 2 for an
/// unreadable file, 1 for an invalid one).
pub fn load_opened(file: &Path) -> Result<Opened, ExitCode> {
    let text = read(file)?;
    open_study(file, &text)
}

/// Opens a study's text through the core's front door, its analysis plan read and checked
/// (`analysis::plan_reader`), or prints its problems (exit 1).
pub fn open_study(file: &Path, text: &str) -> Result<Opened, ExitCode> {
    open(text).map_err(|problems| {
        for p in problems.iter() {
            outln!("{p}");
        }
        errln!(
            "{}: {} problem(s); the study is not valid{}",
            file.display(),
            problems.found(),
            if problems.checks_follow() {
                " (its other checks run once these are fixed)"
            } else {
                ""
            }
        );
        ExitCode::FAILURE
    })
}

/// Reads a study file as its raw form, after checking it validates.
pub fn load_raw(file: &Path) -> Result<RawStudy, ExitCode> {
    let text = read(file)?;
    load(file)?;
    serde_json::from_str(&text).map_err(|e| {
        errln!("{}: {e}", file.display());
        ExitCode::FAILURE
    })
}

/// Prints the first 20 problems found in `file` and exits 1: nothing was written.
pub fn report(file: &Path, problems: &Problems) -> ExitCode {
    const SHOWN: usize = 20;
    for p in problems.iter().take(SHOWN) {
        outln!("{}: {p}", file.display());
    }
    if problems.len() > SHOWN {
        outln!(
            "{}: ... and {} more problems like these",
            file.display(),
            problems.len() - SHOWN
        );
    }
    errln!("{} problem(s); nothing was written", problems.len());
    ExitCode::FAILURE
}

/// Writes `text` to `path` whole or not at all: a temporary file next to it, then a rename.
pub fn write_atomically(path: &Path, text: &str) -> Result<(), ExitCode> {
    let tmp = path.with_extension("juror-tmp");
    std::fs::write(&tmp, text)
        .and_then(|()| std::fs::rename(&tmp, path))
        .map_err(|e| {
            let _ = std::fs::remove_file(&tmp);
            errln!("{}: cannot write: {e}", path.display());
            ExitCode::from(2)
        })
}

/// `value` as pretty JSON with a trailing newline: how studies and keys are written.
pub fn pretty(value: &impl serde::Serialize) -> String {
    let mut text = serde_json::to_string_pretty(value).unwrap_or_default();
    text.push('\n');
    text
}

/// A file's name as given and its text, or why it cannot be read: the analysis says which.
pub fn file_text(path: &Path) -> FileText {
    FileText {
        name: path.display().to_string(),
        text: std::fs::read_to_string(path).map_err(|e| e.to_string()),
    }
}
