//! `juror validate`: the one-line summary of a valid study, or every problem of an invalid one,
//! and the warnings a researcher needs before serving it (a submit origin the site's build
//! must allow, systems named in the open, a consent text that does not say answers are sent);
//! with `--published`, whether it is what `juror publish` writes. A compiled study
//! (`juror compile`) is read as the annotator's page reads it, each problem with its code and
//! the code's full explanation.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use juror_core::publish::NotPublished;
use juror_core::study::raw::RawStudy;
use juror_core::study::warnings::{BACKUP_WORDS, SENDING_WORDS, Warning};

use crate::files::{open_study, read};

/// Check a study file and list every problem with its JSON path and a fix; or check a compiled
/// study (juror.compiled/3) as the annotator's page reads it, each problem with its code and
/// what the code means.
#[derive(clap::Args)]
pub struct Args {
    /// The study file (juror.study/1 JSON).
    file: PathBuf,
    /// Also require the study to be in the form `juror publish` writes (plans computed, every
    /// system a token, each item's outputs under tokens of their own, no attention checks and
    /// no analysis section): exit 1 otherwise. For checking what a site is about to serve.
    #[arg(long)]
    published: bool,
    /// Also print the annotator-hours of the whole study for this many annotators, from the
    /// study's estimated_minutes.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..))]
    annotators: Option<u32>,
    /// With --annotators: the hourly rate paid (any currency), to print the cost too.
    #[arg(long, requires = "annotators")]
    rate: Option<f64>,
}

/// Exits 2 for an unreadable file, 1 for an invalid one (or an unpublished one with
/// `--published`), else 0.
pub fn run(args: Args) -> ExitCode {
    let file = args.file.as_path();
    let text = match read(file) {
        Ok(text) => text,
        Err(code) => return code,
    };
    if juror_core::front::compiled::is_compiled(&text) {
        return compiled(file, &text, args.published);
    }
    let study = match open_study(file, &text) {
        Ok(opened) => opened.study,
        Err(code) => return code,
    };
    if args.published && !published(file, &text) {
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
        "{}: valid {} study \"{}\": {} items, {systems}, {} dimension(s), {} task(s), {}",
        file.display(),
        juror_core::study::STUDY_FORMAT_V1,
        study.id(),
        study.items().len(),
        study.rubric().dimensions.len(),
        study.design().tasks.len(),
        trials_summary(&juror_core::plan::trials_per_slot(&study)),
    );
    if let Some(n) = args.annotators {
        match args.rate {
            Some(r) if !(r.is_finite() && r >= 0.0) => {
                errln!("--rate {r}: give the hourly rate as a number of 0 or more, such as 12.50");
                return ExitCode::from(2);
            }
            _ => {}
        }
        match study.budget(n, args.rate) {
            Some(b) => outln!("{}", budget_text(&b)),
            None => errln!(
                "warning: {}: no time estimate, so no hours or cost for {n} annotators; add \
                 \"estimated_minutes\" at the top level (docs/study-format.md)",
                file.display()
            ),
        }
    }
    warn_about_submit_origin(file, &study);
    for warning in juror_core::study::warnings::warnings(&study) {
        errln!("warning: {}: {}", file.display(), warning_text(&warning));
    }
    if !juror_core::publish::is_sealed(study.systems()) {
        errln!(
            "warning: {}: the study names its systems ({}); an annotator who opens the study \
             file reads them next to their outputs. Publish it sealed: juror publish {} --site \
             SITE --keys private/keys, SITE your built site (dist) or, in a clone that builds \
             it, assets (docs/hosting.md, \"Hosting a study\").",
            file.display(),
            study.systems().join(", "),
            file.display()
        );
    }
    ExitCode::SUCCESS
}

/// A compiled study read with the annotator's page's reader: its one-line summary, or each
/// problem with its place, its code and the code's full explanation (exit 1). With
/// `published`, it must also be what compiling a study `juror publish` wrote gives: the same
/// checks as on a study as written (plans, sealed systems, no attention checks, no token shared
/// by two items).
fn compiled(file: &Path, text: &str, published: bool) -> ExitCode {
    use juror_core::front::compiled::{FORMAT, explain, read};
    let compiled = match read(text) {
        Ok(compiled) => compiled,
        Err(problems) => {
            for p in &problems.0 {
                outln!("{}: {}: {} [{}]", file.display(), p.at, p.detail, p.code);
                outln!("  {}", explain(p.code));
            }
            errln!(
                "{}: {} problem(s); the compiled study is not valid",
                file.display(),
                problems.0.len()
            );
            return ExitCode::FAILURE;
        }
    };
    let study = &compiled.study;
    if published {
        let found = juror_core::publish::compiled_not_published(study);
        for why in &found {
            outln!(
                "{}: not published: {}",
                file.display(),
                not_published_text(why)
            );
        }
        if !found.is_empty() {
            outln!(
                "{}: a site must serve only what `juror publish ORIGINAL --site DIR --keys DIR` \
                 writes from the original study, compiled as it is (docs/hosting.md, \"Hosting \
                 a study\")",
                file.display()
            );
            return ExitCode::FAILURE;
        }
    }
    outln!(
        "{}: valid {FORMAT} study \"{}\": {} items, {} systems, {} task(s); compiled from the \
         study file whose SHA-256 is {}",
        file.display(),
        study.id(),
        study.items().len(),
        study.system_count(),
        study.design().tasks.len(),
        compiled.sha256
    );
    ExitCode::SUCCESS
}

/// The whole study's time (and cost) in one line.
pub fn budget_text(b: &juror_core::study::Budget) -> String {
    let cost = b.cost.map_or(String::new(), |c| {
        format!("; at the rate given, {c:.2} in all")
    });
    format!(
        "Budget: {} annotators × {} minutes = {:.1} annotator-hours{cost} (the study's \
         estimate; a pilot's median time per trial, in juror analyze's diagnostics, checks it)",
        b.annotators, b.minutes, b.hours
    )
}

/// Whether the study's `text` is what `juror publish` writes; if not, says why on stdout.
fn published(file: &Path, text: &str) -> bool {
    // The text opened as a study, so it reads as one.
    let raw = match serde_json::from_str::<RawStudy>(text) {
        Ok(raw) => raw,
        Err(e) => {
            outln!("{}: not published: {e}", file.display());
            return false;
        }
    };
    let found = juror_core::publish::not_published(&raw);
    for why in &found {
        outln!(
            "{}: not published: {}",
            file.display(),
            not_published_text(why)
        );
    }
    if !found.is_empty() {
        outln!(
            "{}: a site must serve only what `juror publish ORIGINAL --site DIR --keys DIR` \
             writes from the original study (docs/hosting.md, \"Hosting a study\")",
            file.display()
        );
    }
    found.is_empty()
}

/// Why a study is not one `juror publish` wrote, and what it would give away.
fn not_published_text(why: &NotPublished) -> String {
    match why {
        NotPublished::NoPlans => "no design.plans: annotators would read the study as written \
             (its systems, its attention checks)"
            .to_owned(),
        NotPublished::NamedSystems(ids) => format!(
            "systems {} are named, not sealed tokens: an annotator who opens the file reads \
             them next to their outputs",
            ids.join(", ")
        ),
        NotPublished::AttentionChecks => "design.attention_checks is served with their \
             accepted answers; they belong in the key"
            .to_owned(),
        NotPublished::Analysis => "the analysis section is served (it names systems); it \
             belongs in the key"
            .to_owned(),
        NotPublished::Metadata => "the metadata section is served (it may name systems); it \
             belongs in the key"
            .to_owned(),
        NotPublished::SharedToken {
            token,
            first,
            second,
        } => format!(
            "items[{first}] and items[{second}] share the output token {token}: one system \
             could be followed from item to item"
        ),
    }
}

/// A warning about a valid study, with what to do.
fn warning_text(warning: &Warning) -> String {
    let words = SENDING_WORDS.join("/");
    match warning {
        Warning::SendingUnsaid { host, backups } => format!(
            "the study sends {what} to {host}, and nothing in its consent text says so (no \
             word starting with {words}, no \"sent\", no \"{host}\"); say it there, for \
             example \"Your answers are sent to the researchers ({host}) when you finish{also}.\" \
             (docs/study-format.md, \"consent\")",
            what = if *backups {
                "each participant's answers, every 10 trials and at the end,"
            } else {
                "each finished ratings file"
            },
            also = if *backups {
                ", and a backup of your answers so far every 10 trials, even if you stop"
            } else {
                ""
            },
        ),
        Warning::RatedInPairs {
            task,
            times,
            trials,
        } => rated_in_pairs_text(task, *times, *trials),
        Warning::BackupsUnsaid { host } => format!(
            "with submit.backups the answers so far go to {host} every 10 trials, even from \
             someone who stops part way, and the consent text does not say so (no word \
             starting with {}); add, for example, \"A backup of your answers so far is sent \
             every 10 trials, even if you stop.\", or remove backups (docs/study-format.md, \
             \"consent\")",
            BACKUP_WORDS.join("/")
        ),
        Warning::NoTimeEstimate => "the study says nowhere how long it takes, so its welcome \
             page shows no time (consent and payment usually need one); add \
             \"estimated_minutes\": 15 at the top level, your own measure of one annotator's \
             time (docs/study-format.md, \"estimated_minutes\")"
            .to_owned(),
        Warning::DivergenceWithoutSharedPrompts => "the analysis plan asks for the output \
             divergence across annotators (analysis.divergence, or a hypothesis of kind \
             \"divergence\"), and no prompt is shared by personal items (\"for\") \
             of different annotators, so the report will have none; give the items of one \
             prompt the same prompt text (and round), one item per annotator \
             (docs/analysis.md, \"Output divergence\")"
            .to_owned(),
        Warning::SlopeWithoutRounds { hypotheses } => format!(
            "analysis.hypotheses: {} {} about slopes over rounds, and no item has a \"round\", \
             so the report will have no slope to test unless the ratings bring their own rounds \
             (a CSV's round column); give each item its \"round\" (1, 2, ...), or remove the \
             slope hypotheses (docs/analysis.md, \"Slopes, preferences and the interaction, as \
             pre-registered\")",
            hypotheses.join(", "),
            if hypotheses.len() == 1 { "is" } else { "are" }
        ),
    }
}

/// What [`Warning::RatedInPairs`] says, here and in `juror plan`.
pub fn rated_in_pairs_text(task: &str, times: usize, trials: usize) -> String {
    format!(
        "task \"{task}\" shows outputs in pairs and rates each output shown, so an annotator \
         rates the same output in every pair it is in: up to {times} times per item ({trials} \
         trials per annotator who rates every item). To rate each output once, rate with \
         \"presentation\": \"single\" (or \"side_by_side\") and compare pairs for the \
         preference only, for example two tasks, the second with \"presentation\": \"pairs\" \
         and \"dimensions\": [] (README, \"Writing a study\")"
    )
}

/// The site's policy lets the page reach only the origins named when it was built
/// (`JUROR_SUBMIT_ORIGINS`): a study that submits elsewhere gets a warning.
fn warn_about_submit_origin(file: &Path, study: &juror_core::study::Study) {
    let Some(submit) = study.submit() else {
        return;
    };
    let origin = juror_core::base::url::origin(&submit.url).unwrap_or_default();
    let allowed = std::env::var("JUROR_SUBMIT_ORIGINS").unwrap_or_default();
    if !allowed.split_whitespace().any(|o| o == origin) {
        errln!(
            "warning: {}: the study sends ratings files to {origin}, which the site's build must \
             allow: build with JUROR_SUBMIT_ORIGINS=\"{origin}\" (docs/hosting.md, \"Sending files \
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
