//! `juror prepare`: a study built from a JSON Lines file of model outputs and a template study
//! (its text, systems, rubric and design), with a reproducible sample of items.

use std::path::PathBuf;
use std::process::ExitCode;

use juror_core::publish::prepare::{Options, build, read_items};
use juror_core::study::raw::RawStudy;

use crate::files::{pretty, read, report, write_atomically};

/// Build a study from a JSON Lines file of outputs and a template study (rubric, design).
#[derive(clap::Args)]
pub struct Args {
    /// The template study: its text, systems, rubric and design are kept, its items replaced.
    #[arg(long)]
    template: PathBuf,
    /// The outputs, one JSON object per line: an item ({"id", "prompt", "outputs": {...}})
    /// or one output ({"item_id", "system_id", TEXT_FIELD, ...}).
    #[arg(long)]
    outputs: PathBuf,
    /// How many items to sample.
    #[arg(long)]
    n: usize,
    /// Sampling seed (default: the template's seed).
    #[arg(long)]
    seed: Option<u64>,
    /// Sample each item group in proportion to its size: `--stratify` alone stratifies by the
    /// items' `group`; `--stratify task_type,repository` by named groupings of `groups` (every
    /// combination is a stratum).
    #[arg(long, value_name = "GROUPINGS", num_args = 0..=1, default_missing_value = "group", value_delimiter = ',')]
    stratify: Vec<String>,
    /// With --stratify: the same number of items from every stratum (25/25/25 for --n 75 over
    /// three), not in proportion to their sizes; a stratum too small gives all it has.
    #[arg(long, requires = "stratify")]
    equal: bool,
    /// One-output-per-line files: the field with the output text.
    #[arg(long, default_value = "output")]
    text_field: String,
    /// One-output-per-line files: a field to show as the item's context.
    #[arg(long)]
    context_field: Option<String>,
    /// The prompt of every item whose line has no "prompt".
    #[arg(long)]
    prompt: Option<String>,
    /// One-output-per-line files: the field naming the participant an output was generated
    /// for; each (item, participant) becomes a personal item for that participant only.
    #[arg(long)]
    participant_field: Option<String>,
    /// Where to write the study.
    #[arg(long)]
    out: PathBuf,
}

/// Exits 2 when a file cannot be read or written, 1 when the template or the outputs have
/// problems (nothing is written), else 0.
pub fn run(args: Args) -> ExitCode {
    let template_path = args.template.as_path();
    let outputs = args.outputs.as_path();
    let out = args.out.as_path();
    let template: RawStudy = match read(template_path).and_then(|t| {
        serde_json::from_str(&t).map_err(|e| {
            errln!("{}: not a study template: {e}", template_path.display());
            ExitCode::FAILURE
        })
    }) {
        Ok(t) => t,
        Err(code) => return code,
    };
    let options = Options {
        n: args.n,
        seed: args.seed.unwrap_or(template.seed),
        stratify: args.stratify,
        equal: args.equal,
        text_field: args.text_field,
        context_field: args.context_field,
        prompt: args.prompt,
        participant_field: args.participant_field,
    };
    let jsonl = match read(outputs) {
        Ok(t) => t,
        Err(code) => return code,
    };
    let items = match read_items(&jsonl, &options) {
        Ok(items) => items,
        Err(problems) => return report(outputs, &problems),
    };
    match build(
        &template,
        items,
        &options,
        Some(&juror_core::analysis::plan_reader::READER),
    ) {
        Ok((study, summary)) => {
            if let Err(code) = write_atomically(out, &pretty(&study)) {
                return code;
            }
            outln!(
                "{}: {} items sampled (seed {}{}; recorded in metadata.sampling) from {} eligible \
                 of {} read, {} systems",
                out.display(),
                summary.sampled,
                options.seed,
                if options.stratify.is_empty() {
                    String::new()
                } else {
                    format!(
                        ", stratified by {}{}",
                        options.stratify.join(" and "),
                        if options.equal { ", equal strata" } else { "" }
                    )
                },
                summary.eligible,
                summary.read,
                study.systems.len()
            );
            ExitCode::SUCCESS
        }
        Err(problems) => report(template_path, &problems),
    }
}
