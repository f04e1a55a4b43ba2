//! `juror validate`: the one-line summary of a valid study, or every problem of an invalid one,
//! and the warnings a researcher needs before serving it (a submit origin the site's build
//! must allow, systems named in the open).

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use crate::files::load;

/// Check a study file and list every problem with its JSON path and a fix.
#[derive(clap::Args)]
pub struct Args {
    /// The study file (juror.study/1 JSON).
    file: PathBuf,
    /// Also require the study to be in the form `juror publish` writes (plans computed,
    /// no system named): exit 1 otherwise. For checking what a site is about to serve.
    #[arg(long)]
    published: bool,
}

/// Exits 2 for an unreadable file, 1 for an invalid one (or an unpublished one with
/// `--published`), else 0.
pub fn run(args: Args) -> ExitCode {
    let file = args.file.as_path();
    let study = match load(file) {
        Ok(study) => study,
        Err(code) => return code,
    };
    if args.published && study.design().plans.is_none() {
        outln!(
            "{}: not published: annotators would read the study as written (its systems, its \
             attention checks); serve what `juror publish {} --site DIR --keys DIR` writes",
            file.display(),
            file.display()
        );
        return ExitCode::FAILURE;
    }
    let systems = match study.design().plans {
        Some(_) => format!(
            "{} systems (published: each item's outputs under tokens of their own)",
            study.system_count()
        ),
        None => format!("{} systems", study.system_count()),
    };
    outln!(
        "{}: valid {} study \"{}\": {} items, {systems}, {} dimensions, {} task(s), {}",
        file.display(),
        juror_core::study::STUDY_FORMAT_V1,
        study.id(),
        study.items().len(),
        study.rubric().dimensions.len(),
        study.design().tasks.len(),
        trials_summary(&juror_core::plan::trials_per_slot(&study)),
    );
    warn_about_submit_origin(file, &study);
    if !juror_core::publish::is_sealed(study.systems()) {
        errln!(
            "warning: {}: the study names its systems ({}); an annotator who opens the study \
             file reads them next to their outputs. Publish it sealed: juror publish {} --site \
             assets --keys private/keys (README, \"Hosting a study\").",
            file.display(),
            study.systems().join(", "),
            file.display()
        );
    }
    ExitCode::SUCCESS
}

/// The site's policy lets the page reach only the origins named when it was built
/// (`JUROR_SUBMIT_ORIGINS`): a study that submits elsewhere gets a warning.
fn warn_about_submit_origin(file: &Path, study: &juror_core::study::Study) {
    let Some(submit) = study.submit() else {
        return;
    };
    let origin = juror_core::url::origin(&submit.url).unwrap_or_default();
    let allowed = std::env::var("JUROR_SUBMIT_ORIGINS").unwrap_or_default();
    if !allowed.split_whitespace().any(|o| o == origin) {
        errln!(
            "warning: {}: the study sends ratings files to {origin}, which the site's build must \
             allow: build with JUROR_SUBMIT_ORIGINS=\"{origin}\" (README, \"Sending files \
             to a service\"), or the browser refuses to send them.",
            file.display()
        );
    }
}

/// "186 trials per annotator", or with slots whose plans differ in length, "180 to 186 trials
/// per annotator (6 slots)": what `juror plan --slot N` gives for each slot.
fn trials_summary(counts: &[usize]) -> String {
    let (lo, hi) = (
        counts.iter().copied().min().unwrap_or(0),
        counts.iter().copied().max().unwrap_or(0),
    );
    let slots = match counts.len() {
        0 | 1 => String::new(),
        n => format!(" ({n} slots)"),
    };
    if lo == hi {
        format!("{lo} trials per annotator{slots}")
    } else {
        format!("{lo} to {hi} trials per annotator{slots}")
    }
}
