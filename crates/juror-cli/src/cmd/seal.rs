//! `juror seal`: a study whose system ids are opaque tokens, and the key that maps them back,
//! written to separate files. `juror publish` does this and more for what a site serves.

use std::path::PathBuf;
use std::process::ExitCode;

use crate::files::{load_raw, pretty, report, write_atomically};

/// Replace every system id with an opaque token; write the key (token -> id) separately.
#[derive(clap::Args)]
pub struct Args {
    /// The study to seal.
    file: PathBuf,
    /// Where to write the sealed study (publish this one).
    #[arg(long)]
    out: PathBuf,
    /// Where to write the key (keep it private: it unblinds the ratings).
    #[arg(long)]
    key: PathBuf,
    /// Overwrite an existing key file.
    #[arg(long)]
    force: bool,
}

/// Exits 2 for an existing key (without --force), no randomness or an I/O error, 1 for an
/// invalid study, else 0.
pub fn run(args: Args) -> ExitCode {
    let (file, out, key_path) = (args.file.as_path(), args.out.as_path(), args.key.as_path());
    let raw = match load_raw(file) {
        Ok(raw) => raw,
        Err(code) => return code,
    };
    if key_path.exists() && !args.force {
        errln!(
            "{}: a key is already there; overwriting it would lose the way to unblind the study it belongs to. Choose another path or pass --force.",
            key_path.display()
        );
        return ExitCode::from(2);
    }
    let mut secret = [0u8; 32];
    if let Err(e) = getrandom::fill(&mut secret) {
        errln!("no source of randomness: {e}");
        return ExitCode::from(2);
    }
    let (sealed, key) = juror_core::publish::seal(&raw, &secret);
    if let Err(problems) = juror_core::analysis::plan_reader::validate(&sealed) {
        return report(file, &problems);
    }
    for (path, system) in juror_core::publish::mentions(&raw) {
        errln!(
            "warning: {path} mentions system \"{system}\" in its text; sealing cannot hide that, reword it"
        );
    }
    if let Err(code) = write_atomically(key_path, &pretty(&key)) {
        return code;
    }
    if let Err(code) = write_atomically(out, &pretty(&sealed)) {
        return code;
    }
    outln!(
        "{}: sealed ({} systems); key written to {} (keep it private)",
        out.display(),
        key.systems.len(),
        key_path.display()
    );
    ExitCode::SUCCESS
}
