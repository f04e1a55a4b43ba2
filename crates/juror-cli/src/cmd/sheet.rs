//! `juror sheet`: one annotator's trials as a blinded rating sheet (CSV) for someone who
//! cannot use the browser; `juror read-sheet` turns it back into a ratings file.

use std::path::PathBuf;
use std::process::ExitCode;

use juror_core::plan::{Annotator, plan, resolve_annotator};
use juror_core::study::Study;

use crate::files::{load, write_atomically};

/// Write one annotator's trials as a blinded rating sheet: CSV, one row per trial of their
/// plan (the same plan the page gives them), the prompt and each output's text under its
/// letter, then empty columns to fill (a score per dimension and letter, `preferred`,
/// `notes`, ...). No system is named. What to write in each column (every scale in full) is
/// printed on standard error. Read the filled sheet back with `juror read-sheet`. See
/// docs/sheets.md.
#[derive(clap::Args)]
pub struct Args {
    /// The study file (the published one, if the study is published).
    file: PathBuf,
    #[command(flatten)]
    who: Who,
    /// Write the sheet to this file instead of standard output.
    #[arg(short, long)]
    out: Option<PathBuf>,
}

/// Whose sheet: a slot or an annotator id, as in a link (one of the two is needed).
#[derive(clap::Args)]
#[group(required = true, multiple = false)]
pub struct Who {
    /// The annotator slot, from 1 (as in a link's ?slot=N).
    #[arg(long)]
    slot: Option<String>,
    /// An annotator id (as in ?annotator=ID): their slot by the same stable hash, and their
    /// personal items.
    #[arg(long)]
    annotator: Option<String>,
}

impl Who {
    /// The annotator, or exit 2 with why the slot or id names none.
    pub fn resolve(&self, study: &Study) -> Result<Annotator, ExitCode> {
        resolve_annotator(study, self.slot.as_deref(), self.annotator.as_deref()).map_err(|p| {
            errln!("{p}");
            ExitCode::from(2)
        })
    }

    /// The flag that names this annotator again, for a command to print.
    pub fn flag(&self) -> String {
        match (&self.slot, &self.annotator) {
            (Some(slot), _) => format!("--slot {slot}"),
            (None, Some(id)) => format!("--annotator {id}"),
            (None, None) => String::new(),
        }
    }
}

/// Exits 2 for an unreadable study, a slot or annotator that names no slot, or an output that
/// cannot be written; 1 for an invalid study; else 0.
pub fn run(args: Args) -> ExitCode {
    let study = match load(&args.file) {
        Ok(study) => study,
        Err(code) => return code,
    };
    let who = match args.who.resolve(&study) {
        Ok(who) => who,
        Err(code) => return code,
    };
    let plan = plan(&study, &who);
    let sheet = juror_core::session::sheet::write(&study, &plan);
    match &args.out {
        Some(path) => {
            if let Err(code) = write_atomically(path, &sheet) {
                return code;
            }
        }
        None => out!("{sheet}"),
    }
    errln!("{}", juror_core::session::sheet::legend(&study, &plan));
    errln!(
        "Read it back, filled in, with: juror read-sheet {} --study {} {}",
        args.out
            .as_ref()
            .map_or("SHEET".to_owned(), |p| p.display().to_string()),
        args.file.display(),
        args.who.flag()
    );
    ExitCode::SUCCESS
}
