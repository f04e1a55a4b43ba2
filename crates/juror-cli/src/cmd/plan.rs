//! `juror plan`: the trials one annotator slot is given, in order and blinded, or the balance
//! report over every slot of a study.

use std::path::PathBuf;
use std::process::ExitCode;

use crate::files::load;

/// Print one annotator's counterbalanced plan, or check the balance over all slots.
#[derive(clap::Args)]
pub struct Args {
    /// The study file.
    file: PathBuf,
    /// The annotator slot, from 1 (as in a link's ?slot=N).
    #[arg(long, conflicts_with = "check")]
    slot: Option<String>,
    /// An annotator id (as in ?annotator=ID), mapped to a slot by a stable hash.
    #[arg(long, conflicts_with = "check")]
    annotator: Option<String>,
    /// Print the balance report over all slots; exit 1 if a bound is violated.
    #[arg(long)]
    check: bool,
}

/// Exits 2 for an unreadable study, a published one with --check, or a slot or annotator that
/// names no slot; 1 for an invalid study or a violated bound; else 0.
pub fn run(args: Args) -> ExitCode {
    let file = args.file.as_path();
    let study = match load(file) {
        Ok(study) => study,
        Err(code) => return code,
    };
    if args.check && study.design().plans.is_some() {
        errln!(
            "{}: a published study carries its plans, counterbalanced on the original study: \
             check that one (juror plan ORIGINAL --check)",
            file.display()
        );
        return ExitCode::from(2);
    }
    for warning in juror_core::study::warnings::warnings(&study) {
        if let juror_core::study::warnings::Warning::RatedInPairs {
            task,
            times,
            trials,
        } = &warning
        {
            errln!(
                "warning: {}: {}",
                file.display(),
                super::validate::rated_in_pairs_text(task, *times, *trials)
            );
        }
    }
    if args.check {
        let report = juror_core::plan::balance::check(&study);
        out!("{}", report.render(&study));
        let slots =
            juror_core::plan::slots(&study).unwrap_or_else(|| juror_core::plan::period(&study));
        let repeats: Vec<usize> = (1..=slots)
            .map(|slot| {
                let plan = juror_core::plan::plan(&study, &juror_core::plan::Annotator::slot(slot));
                juror_core::plan::balance::back_to_back(&plan)
            })
            .collect();
        let total: usize = repeats.iter().sum();
        outln!(
            "\nBack-to-back trials of one item: {total} over {slots} slots (most in one slot: {})",
            repeats.iter().max().copied().unwrap_or(0)
        );
        return if report.violations.is_empty() {
            ExitCode::SUCCESS
        } else {
            ExitCode::FAILURE
        };
    }
    let (slot, annotator) = (args.slot.as_deref(), args.annotator.as_deref());
    let slot = if slot.is_none() && annotator.is_none() {
        Some("1")
    } else {
        slot
    };
    match juror_core::plan::resolve_annotator(&study, slot, annotator) {
        Ok(who) => {
            out!("{}", juror_core::plan::plan(&study, &who).table(&study));
            ExitCode::SUCCESS
        }
        Err(p) => {
            errln!("{p}");
            ExitCode::from(2)
        }
    }
}
