//! `juror read-sheet`: a filled rating sheet (`juror sheet`) checked against the annotator's
//! plan and the study's scales, then written as the ratings file the page would export.

use std::path::PathBuf;
use std::process::ExitCode;

use juror_core::plan::plan;
use juror_core::session::sheet::{ReadOptions, ratings};

use super::sheet::Who;
use crate::files::{load_opened, read, write_atomically};

/// Read a filled rating sheet back into a checksummed ratings file (`juror.ratings/1`, as the
/// page exports it, for `juror analyze`). Every row is checked against the annotator's plan
/// (trial numbers, tasks, items, letters) and every value against its scale or question; all
/// problems are listed by row and column, and then nothing is written. See docs/sheets.md.
#[derive(clap::Args)]
pub struct Args {
    /// The filled sheet (CSV).
    sheet: PathBuf,
    /// The study file the sheet was written from.
    #[arg(long)]
    study: PathBuf,
    #[command(flatten)]
    who: Who,
    /// Keep a trial whose required answers are partly blank, not done (else a blank required
    /// answer is a problem).
    #[arg(long)]
    partial: bool,
    /// Write the ratings file here instead of standard output.
    #[arg(short, long)]
    out: Option<PathBuf>,
}

/// The most problems printed; the count says how many more.
const SHOWN: usize = 50;

/// Exits 2 when a file cannot be read or written, the study is invalid, or the slot or
/// annotator names no slot; 1 when the sheet has problems (listed, nothing written); else 0.
pub fn run(args: Args) -> ExitCode {
    let opened = match load_opened(&args.study) {
        Ok(opened) => opened,
        Err(_) => return ExitCode::from(2),
    };
    let study = &opened.study;
    let who = match args.who.resolve(study) {
        Ok(who) => who,
        Err(code) => return code,
    };
    let text = match read(&args.sheet) {
        Ok(text) => text,
        Err(code) => return code,
    };
    let plan = plan(study, &who);
    let options = ReadOptions {
        partial: args.partial,
    };
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0.0, |d| d.as_millis() as f64);
    let version = env!("CARGO_PKG_VERSION");
    let file = match ratings(study, &opened.sha256, &plan, &text, options, version, now) {
        Ok(file) => file,
        Err(problems) => {
            let sheet = args.sheet.display();
            for p in problems.iter().take(SHOWN) {
                outln!("{sheet}: {p}");
            }
            if problems.len() > SHOWN {
                outln!("{sheet}: ... and {} more", problems.len() - SHOWN);
            }
            errln!("{} problem(s); nothing was written", problems.len());
            return ExitCode::FAILURE;
        }
    };
    let json = file.to_json();
    match &args.out {
        Some(path) => {
            if let Err(code) = write_atomically(path, &json) {
                return code;
            }
        }
        None => out!("{json}"),
    }
    let done = file.trials.iter().filter(|t| t.done).count();
    errln!(
        "{} trials, {done} done{}",
        file.trials.len(),
        if file.complete {
            ""
        } else {
            " (read as partial: the others have blank required answers)"
        }
    );
    ExitCode::SUCCESS
}
