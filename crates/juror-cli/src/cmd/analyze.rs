//! `juror analyze`: ratings files and tidy CSVs in, the report (JSON, Markdown) or the merged
//! tidy data out, through the same `analysis::run` as the Analyse page.

use std::path::PathBuf;
use std::process::ExitCode;

use juror_core::analysis::judges::JudgeSettings;
use juror_core::analysis::{self, run::Request};
use juror_core::study::analysis_plan::{AnalysisModel, BtIntervals, RaterModel, Ties};

use crate::analysis_plan::AnalysisPlanFlags;
use crate::files::{file_text, write_atomically};

/// Analyse ratings: per dimension, each system's mean with intervals, inter-annotator
/// agreement, paired comparisons as the study's analysis plan says (every pair of systems by
/// default; the plan override flags below make the report exploratory), cells to adjudicate, and with
/// rounds the slopes and a mixed model; the pairwise preferences (win rates, Bradley-Terry,
/// agreement); diagnostics (position bias, time per trial, straight-lining, attention
/// checks). Exit 1 when some input had problems (listed on stderr; the report covers the
/// rest). See docs/analysis.md.
#[derive(clap::Args)]
pub struct Args {
    /// Ratings files (juror.ratings/1) and tidy CSV tables (Likert:
    /// item_id,system_id,annotator_id,dimension,score, optional round and position;
    /// pairwise: item_id,system_a,system_b,annotator_id,preference, optional shown_first).
    #[arg(required = true)]
    inputs: Vec<PathBuf>,
    /// The study file the ratings files belong to: each is checked against it (as
    /// validate-ratings --study does); its scales, item rounds, attention checks and system
    /// order (the first is the mixed model's reference) are used.
    #[arg(long)]
    study: Option<PathBuf>,
    /// The key written by `juror publish` (or `juror seal`): system tokens in ratings files become system ids.
    #[arg(long)]
    key: Option<PathBuf>,
    /// An adjudication CSV (item_id,system_id,dimension,score, optionally expert): each cell's
    /// resolved score (its one expert's, the score several experts all gave, or the row whose
    /// expert is `resolved`) replaces the ratings of its cell in the system summaries and
    /// comparisons, never in agreement.
    #[arg(long)]
    adjudication: Option<PathBuf>,
    /// Ratings files of an earlier phase (another study, e.g. an intake-only study that chose
    /// each participant's topics): their intake answers are joined to these annotators by
    /// annotator id, for --by-intake and the answers table. Their ratings are not used.
    #[arg(long, num_args = 1.., value_name = "FILES")]
    intake: Vec<PathBuf>,
    /// Also write the flagged cells to this file as an adjudication CSV with the score (and
    /// the expert's name) to fill in, beside the ratings and, with --study, the item's prompt,
    /// context, media and the system's output.
    #[arg(long)]
    adjudication_sheet: Option<PathBuf>,
    /// Set aside the flagged cells that have no adjudicated score yet from the system
    /// summaries, comparisons and slopes (agreement keeps every raw rating); the methods
    /// paragraph says so.
    #[arg(long)]
    exclude_unadjudicated: bool,
    /// Flag a cell (item, system, dimension) whose ratings have a sample SD above this on a 1-5
    /// scale; on a scale of another range, above this times its range over 4 (37.5 on 0-100).
    #[arg(long, default_value_t = 1.5)]
    flag_sd: f64,
    /// Seed of the bootstrap intervals.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Bootstrap resamples.
    #[arg(long, default_value_t = 2000)]
    resamples: usize,
    /// The mixed model's reference system (treatment coding) for ratings over rounds;
    /// default: the study's first system, else the first in byte order.
    #[arg(long)]
    reference: Option<String>,
    /// Show the ids of participants from Prolific, MTurk or SONA as the ratings files hold
    /// them (for payment), instead of pseudonyms (keyed with the key's secret; see
    /// docs/analysis.md#platform-ids).
    #[arg(long)]
    reveal_ids: bool,
    /// json: the report (juror.report/1); md: Markdown tables and a methods paragraph; csv:
    /// the merged tidy data (ratings, preferences, choices); answers: every other answer
    /// (output questions, flags, notes, surveys) as a tidy CSV; wide: one row per annotator and
    /// item, a column per dimension and output (by letter when seen together), preferred, notes.
    #[arg(long, value_enum, default_value_t = Format::Json)]
    format: Format,
    /// Write to this file instead of standard output.
    #[arg(long)]
    out: Option<PathBuf>,
    /// Print on stderr how long reading the inputs, the statistics and writing took.
    #[arg(long)]
    timings: bool,
    #[command(flatten)]
    plan: AnalysisPlanFlags,
    /// A participant-level success criterion, DIMENSION:SYSTEM:VALUE (repeatable), besides the
    /// study's analysis.thresholds: over participants, the mean of each one's mean score with
    /// its 95% t interval and one-sided tests that it is above VALUE.
    #[arg(long, value_name = "DIM:SYSTEM:VALUE")]
    threshold: Vec<String>,
    /// Also report each system's output divergence across annotators (as the study's
    /// analysis.divergence): for personal items that share a prompt, the mean cosine distance
    /// between the TF-IDF vectors of the system's outputs for different annotators. Needs the
    /// unpublished --study.
    #[arg(long)]
    divergence: bool,
    /// Models of rater quality to fit on every nominal answer (each rating dimension of up to
    /// 11 points, each single-choice or Likert output question, the flag, a pair's choice),
    /// instead of the study's analysis.raters: dawid-skene gives each annotator's confusion
    /// matrix and accuracy and each unit's consensus; mace each annotator's competence
    /// (comma-separated).
    #[arg(long, value_enum, value_delimiter = ',', value_name = "MODEL")]
    raters: Vec<RaterFlag>,
    /// Models of each rating dimension to fit beside the paired tests, instead of the study's
    /// analysis.models: crossed (score ~ system + (1 | annotator) + (1 | item) by REML;
    /// crossed-ml by maximum likelihood) and ordinal (proportional odds, with odds ratios
    /// between systems) (comma-separated).
    #[arg(long, value_enum, value_delimiter = ',', value_name = "MODEL")]
    models: Vec<ModelFlag>,
    /// The intervals of the preferences' Bradley–Terry ratings, instead of the study's
    /// analysis.bt_intervals: sandwich (the leaderboard, as arena-rank computes it), bootstrap
    /// (the strengths' percentile intervals) or both.
    #[arg(long, value_name = "KIND", value_parser = ["sandwich", "bootstrap", "both"])]
    bt_intervals: Option<String>,
    /// How the leaderboard counts a tie, instead of the study's analysis.ties: halves (half a
    /// win to each side) or davidson (Davidson's model, with a fitted tie parameter).
    #[arg(long, value_name = "MODEL", value_parser = ["halves", "davidson"])]
    ties: Option<String>,
    /// Automatic judges' verdicts (tidy CSVs, ratings files, or JSON Lines: rows with the
    /// CSVs' fields, or verdicts on the trials of `juror trials`, which need --study), each
    /// judge named by its annotator_id; optional run and confidence. Read apart from the
    /// inputs and never mixed into the human statistics. See docs/judges.md.
    #[arg(long, num_args = 1..)]
    judges: Vec<PathBuf>,
    /// The alternative annotator test's allowance epsilon, from 0 up to 1: 0.2 for expert
    /// annotators, 0.15 skilled, 0.1 crowd workers.
    /// Default: the study's analysis.judges.epsilon, else 0.2.
    #[arg(long)]
    epsilon: Option<f64>,
    /// The fewest humans an instance needs for the alternative annotator test (2 or more).
    /// Default: the study's analysis.judges.min_humans, else 2.
    #[arg(long)]
    min_humans: Option<usize>,
    /// The fewest instances a human needs to be tested against a judge (else skipped).
    /// Default: the study's analysis.judges.min_instances, else 30.
    #[arg(long)]
    min_instances: Option<usize>,
    /// The false discovery rate of the Benjamini-Yekutieli procedure over the humans.
    /// Default: the study's analysis.judges.fdr, else 0.05.
    #[arg(long)]
    fdr: Option<f64>,
}

/// A model of rater quality (`--raters`).
#[derive(Clone, Copy, PartialEq, Eq, Debug, clap::ValueEnum)]
pub(crate) enum RaterFlag {
    /// Dawid–Skene confusion matrices, fitted by EM.
    DawidSkene,
    /// MACE competence, by variational Bayes.
    Mace,
}

impl RaterFlag {
    /// The plan's model this flag names.
    pub(crate) fn model(self) -> RaterModel {
        match self {
            RaterFlag::DawidSkene => RaterModel::DawidSkene,
            RaterFlag::Mace => RaterModel::Mace,
        }
    }
}

/// A model of each dimension (`--models`).
#[derive(Clone, Copy, PartialEq, Eq, Debug, clap::ValueEnum)]
enum ModelFlag {
    /// Crossed random intercepts for annotators and items, REML.
    Crossed,
    /// The same, by maximum likelihood.
    CrossedMl,
    /// Proportional odds (cumulative logit).
    Ordinal,
}

/// What `juror analyze` writes.
#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Format {
    Json,
    Md,
    Csv,
    /// Every other answer (output questions, flags, notes, surveys) as a tidy CSV.
    Answers,
    /// One row per annotator and item: a column per dimension and output, preferred, notes.
    Wide,
}

/// `DIMENSION:SYSTEM:VALUE` (the value after the last colon, so a system id may hold one).
fn parse_threshold(text: &str) -> Option<juror_core::study::analysis_plan::Threshold> {
    let (rest, value) = text.rsplit_once(':')?;
    let (dimension, system) = rest.split_once(':')?;
    let at_least: f64 = value.trim().parse().ok().filter(|v: &f64| v.is_finite())?;
    (!dimension.is_empty() && !system.is_empty()).then(|| {
        juror_core::study::analysis_plan::Threshold {
            dimension: dimension.to_owned(),
            system: system.to_owned(),
            at_least,
        }
    })
}

/// Seconds since the first call: `juror analyze --timings`'s clock.
fn seconds() -> f64 {
    static START: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();
    START
        .get_or_init(std::time::Instant::now)
        .elapsed()
        .as_secs_f64()
}

/// Exits 2 when the study, the key or the adjudication file cannot be used or the output
/// cannot be written (nothing is analysed or written), 1 when some input had problems (the
/// report covers the rest), else 0.
/// The plan's overrides the flags give; a usage error's message.
fn overrides(args: &Args) -> Result<analysis::overrides::Overrides, String> {
    let mut overrides = args.plan.parse()?;
    if args.divergence {
        overrides.divergence = Some(true);
    }
    if !args.raters.is_empty() {
        overrides.raters = Some(args.raters.iter().map(|r| r.model()).collect());
    }
    overrides.bt_intervals = args
        .bt_intervals
        .as_deref()
        .and_then(BtIntervals::from_word);
    overrides.ties = args.ties.as_deref().and_then(Ties::from_word);
    if !args.models.is_empty() {
        overrides.models = Some(
            args.models
                .iter()
                .map(|m| match m {
                    ModelFlag::Crossed => AnalysisModel::Crossed,
                    ModelFlag::CrossedMl => AnalysisModel::CrossedMl,
                    ModelFlag::Ordinal => AnalysisModel::Ordinal,
                })
                .collect(),
        );
    }
    for text in &args.threshold {
        let t = parse_threshold(text).ok_or_else(|| {
            format!(
                "--threshold {text}: give DIMENSION:SYSTEM:VALUE, such as quality:ours:4 (the \
                 participants' mean of ours on quality is at least 4)"
            )
        })?;
        overrides.thresholds.push(t);
    }
    Ok(overrides)
}

pub fn run(args: Args) -> ExitCode {
    let start = seconds();
    let overrides = match overrides(&args) {
        Ok(o) => o,
        Err(message) => {
            errln!("{message}");
            return ExitCode::from(2);
        }
    };
    let request = Request {
        inputs: args
            .inputs
            .iter()
            .map(PathBuf::as_path)
            .map(file_text)
            .collect(),
        judges: args
            .judges
            .iter()
            .map(PathBuf::as_path)
            .map(file_text)
            .collect(),
        study: args.study.as_deref().map(file_text),
        key: args.key.as_deref().map(file_text),
        adjudication: args.adjudication.as_deref().map(file_text),
        intake: args
            .intake
            .iter()
            .map(PathBuf::as_path)
            .map(file_text)
            .collect(),
        options: analysis::Options {
            flag_sd: args.flag_sd,
            seed: args.seed,
            resamples: args.resamples,
            reference: args.reference.clone(),
            plan: None,
            reveal_ids: args.reveal_ids,
            exclude_unadjudicated: args.exclude_unadjudicated.then_some(true),
            judges: JudgeSettings {
                epsilon: args.epsilon,
                fdr: args.fdr,
                min_humans: args.min_humans,
                min_instances: args.min_instances,
            },
        },
        overrides,
        clock: args.timings.then_some(seconds as fn() -> f64),
    };
    let loaded = seconds();
    let done = match analysis::run::run(&request) {
        Ok(a) => a,
        Err(blocked) => {
            for reason in blocked {
                errln!("{reason}");
            }
            errln!("nothing was analysed");
            return ExitCode::from(2);
        }
    };
    let analysed = seconds();
    let mut timings = done.timings.clone();
    let (report, data) = (&done.report, &done.data);

    if let Some(path) = &args.adjudication_sheet
        && let Err(code) = write_atomically(path, &report.adjudication_sheet())
    {
        return code;
    }
    let text = match args.format {
        Format::Json => report.to_json(),
        Format::Md => analysis::markdown::render(report),
        Format::Csv => analysis::to_csv(data),
        Format::Answers => analysis::answers::to_csv(&data.answers),
        Format::Wide => {
            let order: Vec<String> = report
                .dimensions
                .iter()
                .map(|d| d.dimension.clone())
                .collect();
            analysis::render::wide::to_wide_csv(data, &order)
        }
    };
    match &args.out {
        Some(path) => {
            if let Err(code) = write_atomically(path, &text) {
                return code;
            }
        }
        None => out!("{text}"),
    }
    if args.timings {
        timings.insert(0, ("files", loaded - start));
        timings.push(("written", seconds() - analysed));
        let laps: Vec<String> = timings
            .iter()
            .map(|(p, s)| format!("{p} {s:.3} s"))
            .collect();
        errln!("timings: {}", laps.join(", "));
    }
    let superseded = report
        .inputs
        .iter()
        .filter(|f| f.kind == analysis::InputKind::SupersededBackup)
        .count();
    if superseded > 0 {
        errln!(
            "{superseded} earlier ratings file(s) (backups) superseded by their annotator's \
             latest complete file, and not read (listed in the report's inputs)"
        );
    }
    // The file as given, where the report names it by its participant's pseudonym.
    for p in &report.problems {
        match done.given_name(&p.file) {
            Some(given) => errln!("{p} (the file given as {given})"),
            None => errln!("{p}"),
        }
    }
    if report.problems.is_empty() {
        ExitCode::SUCCESS
    } else {
        errln!(
            "{} problem(s) in the inputs; the report covers the rest",
            report.problems.len()
        );
        ExitCode::FAILURE
    }
}
