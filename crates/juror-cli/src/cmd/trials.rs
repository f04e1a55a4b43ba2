//! `juror trials`: the blinded trials of a study as JSON Lines, exactly as people see them,
//! for an automatic judge to be run on with any tool; its verdicts are read back by trial id
//! and label (`juror analyze --judges`).

use std::path::PathBuf;
use std::process::ExitCode;

use juror_core::plan::trials::{all_slots, judge_trials, to_jsonl};

use crate::files::{load, write_atomically};

/// Write the trials of one slot (or of every slot) as a judge is to be given them: one JSON
/// object per line, blinded as people see them (the prompt, the outputs in the order shown
/// under their labels, the dimensions and their scales, the preference asked), with the trial
/// id a verdict names. Attention checks are left out. See docs/judges.md.
#[derive(clap::Args)]
pub struct Args {
    /// The study file.
    file: PathBuf,
    /// The annotator slot whose trials to write, from 1 (default 1).
    #[arg(long, conflicts_with = "all")]
    slot: Option<u32>,
    /// Every slot of the study (one counterbalancing period when it has no fixed number), each
    /// judgement once (a trial another slot already showed is left out).
    #[arg(long)]
    all: bool,
    /// Also write each trial of two outputs with the outputs the other way round
    /// (`3-12-swapped`), for the judge's position bias.
    #[arg(long)]
    both_orders: bool,
    /// The format: JSON Lines (the only one).
    #[arg(long, value_enum, default_value_t = Format::Jsonl)]
    format: Format,
    /// Write to this file instead of standard output.
    #[arg(long)]
    out: Option<PathBuf>,
}

/// What `juror trials` writes.
#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Format {
    Jsonl,
}

/// Exits 2 for an unreadable study, a slot the study does not have, or an output that cannot be
/// written; 1 for an invalid study; else 0.
pub fn run(args: Args) -> ExitCode {
    let file = args.file.as_path();
    let study = match load(file) {
        Ok(study) => study,
        Err(code) => return code,
    };
    let slots = if args.all {
        all_slots(&study)
    } else {
        let slot = args.slot.unwrap_or(1);
        let bound = juror_core::plan::slots(&study);
        if slot == 0 || bound.is_some_and(|n| slot > n) {
            errln!(
                "--slot {slot}: the study's slots run from 1{}; give one of them",
                bound.map(|n| format!(" to {n}")).unwrap_or_default()
            );
            return ExitCode::from(2);
        }
        vec![slot]
    };
    let Format::Jsonl = args.format;
    let text = to_jsonl(&judge_trials(&study, &slots, args.both_orders));
    match &args.out {
        Some(path) => {
            if let Err(code) = write_atomically(path, &text) {
                return code;
            }
        }
        None => out!("{text}"),
    }
    ExitCode::SUCCESS
}
