//! `juror links`: one link per annotator slot of a study, as CSV, optionally with a
//! recruitment platform's placeholders for the participant's id. Also the `--platform` word,
//! and the warnings about MTurk, which `juror publish` gives the same way.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use juror_core::plan::{Platform, platform_links};
use juror_core::study::Study;

use crate::files::{load, write_atomically};

/// One link per annotator slot of a study, as CSV (study_id,slot,url): what a platform's
/// study list or a mail merge needs. With --platform, each link carries that platform's
/// placeholders for the participant's id, so that the platform fills them in.
#[derive(clap::Args)]
pub struct Args {
    /// The study file (as published).
    study: PathBuf,
    /// The address the site is served at, such as https://you.github.io/juror/.
    #[arg(long)]
    base_url: String,
    /// prolific, mturk or sona.
    #[arg(long)]
    platform: Option<String>,
    /// The study's path on the site (default: studies/ and the study file's name).
    #[arg(long)]
    path: Option<String>,
    /// Where to write the CSV (default: standard output).
    #[arg(long, short)]
    out: Option<PathBuf>,
}

/// Exits 2 for an unknown platform, a study that cannot be used or an output that cannot be
/// written, else 0.
pub fn run(args: Args) -> ExitCode {
    let platform = match platform(args.platform.as_deref()) {
        Ok(p) => p,
        Err(code) => return code,
    };
    let Ok(study) = load(&args.study) else {
        return ExitCode::from(2);
    };
    warn_about_platform(&args.study, &study, platform);
    if !juror_core::publish::is_sealed(study.systems()) {
        errln!(
            "warning: {}: this is a study that names its systems (not a copy juror publish \
             wrote): these {} links open it as written. For a published study, give the copy \
             the site serves (SITE/studies/NAME, with the slots it was published with), or \
             take the links juror publish wrote (KEYS/links.csv).",
            args.study.display(),
            juror_core::plan::slots(&study).unwrap_or_else(|| juror_core::plan::period(&study))
        );
    }
    let default_path = juror_core::publish::site_path(
        &args
            .study
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default(),
    );
    let site_path = args.path.as_deref().unwrap_or(&default_path);
    let mut csv = juror_core::base::csv::line(&["study_id", "slot", "url"]);
    for (slot, url) in platform_links(&study, &args.base_url, site_path, platform) {
        csv.push_str(&juror_core::base::csv::line(&[
            study.id().to_owned(),
            slot.to_string(),
            url,
        ]));
    }
    match &args.out {
        Some(path) => {
            if let Err(code) = write_atomically(path, &csv) {
                return code;
            }
            errln!("links written to {}", path.display());
        }
        None => out!("{csv}"),
    }
    ExitCode::SUCCESS
}

/// `--platform NAME`: a platform, or exit 2 with what to use.
pub fn platform(name: Option<&str>) -> Result<Option<Platform>, ExitCode> {
    match name.map(|n| (n, Platform::parse(n))) {
        None => Ok(None),
        Some((_, Some(p))) => Ok(Some(p)),
        Some((name, None)) => {
            errln!("--platform {name:?}: use prolific, mturk or sona");
            Err(ExitCode::from(2))
        }
    }
}

/// MTurk's two hosts, which the finish page's form posts the assignment to.
const MTURK_ORIGINS: [&str; 2] = ["https://www.mturk.com", "https://workersandbox.mturk.com"];

/// What a study recruited on `platform` needs that the links cannot carry: Prolific a completion
/// code ([`Platform::missing`]). MTurk receives only
/// the assignment id and the ratings file's checksum: without `submit`, the ratings stay on
/// the workers' computers. And its form is posted only to origins the site's build allows
/// (`JUROR_SUBMIT_ORIGINS`, as `juror validate` reads it for `submit`).
pub fn warn_about_platform(file: &Path, study: &Study, platform: Option<Platform>) {
    if let Some(missing) = platform.and_then(|p| p.missing(study)) {
        errln!("warning: {}: {missing}.", file.display());
    }
    if platform != Some(Platform::Mturk) {
        return;
    }
    if study.submit().is_none() {
        errln!(
            "warning: {}: the study has no submit section: MTurk receives only each worker's \
             assignment id and the ratings file's checksum, so the ratings would stay on the \
             workers' computers and never reach you. Add \"submit\" with a service that \
             receives the files (docs/hosting.md, \"Sending files to a service\").",
            file.display()
        );
    }
    let allowed = std::env::var("JUROR_SUBMIT_ORIGINS").unwrap_or_default();
    let missing: Vec<&str> = MTURK_ORIGINS
        .into_iter()
        .filter(|o| !allowed.split_whitespace().any(|a| a == *o))
        .collect();
    if !missing.is_empty() {
        errln!(
            "warning: {}: build the site with JUROR_SUBMIT_ORIGINS including {} (with the \
             submit service's origin), or the browser blocks \"Submit the task on Mechanical \
             Turk\" and the HIT expires unpaid (docs/hosting.md, \"Recruiting on a platform\").",
            file.display(),
            missing.join(" and ")
        );
    }
}
