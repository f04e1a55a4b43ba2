//! `juror`: the researcher's command line, on the same core as the web app.

mod terminal;

/// `print!` and `println!` through [`terminal::out`], `eprintln!` through [`terminal::err`]:
/// on a terminal, control characters from input files are shown escaped (review L5).
macro_rules! out {
    ($($arg:tt)*) => { terminal::out(&format!($($arg)*)) };
}
macro_rules! outln {
    () => { terminal::out("\n") };
    ($($arg:tt)*) => { terminal::out(&(format!($($arg)*) + "\n")) };
}
macro_rules! errln {
    () => { terminal::err("\n") };
    ($($arg:tt)*) => { terminal::err(&(format!($($arg)*) + "\n")) };
}

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use juror_core::prepare::{Options, build, read_items};
use juror_core::study::raw::RawStudy;
use juror_core::study::{Problems, Study};

#[derive(Parser)]
#[command(
    name = "juror",
    version,
    about = "Blinded human evaluation of AI outputs: validate studies"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
// Parsed once per run: the size of the largest variant (`analyze`'s flags) costs nothing.
#[allow(clippy::large_enum_variant)]
enum Command {
    /// Check a study file and list every problem with its JSON path and a fix.
    Validate {
        /// The study file (juror.study/1 JSON).
        file: PathBuf,
        /// Also require the study to be in the form `juror publish` writes (plans computed,
        /// no system named): exit 1 otherwise. For checking what a site is about to serve.
        #[arg(long)]
        published: bool,
    },
    /// Print the JSON Schema of the study format (juror.study/1), or of ratings files or reports.
    Schema {
        /// Print the schema of ratings files (juror.ratings/1) instead.
        #[arg(long, conflicts_with = "report")]
        ratings: bool,
        /// Print the schema of analysis reports (juror.report/1) instead.
        #[arg(long)]
        report: bool,
    },
    /// One link per annotator slot of a study, as CSV (study_id,slot,url): what a platform's
    /// study list or a mail merge needs. With --platform, each link carries that platform's
    /// placeholders for the participant's id, so that the platform fills them in.
    Links {
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
    },
    /// Turn answers saved in an annotator's browser (the file the problems page's "Answers
    /// saved in this browser" downloads) into a ratings file (juror.ratings/1).
    Recover {
        /// The saved answers, as downloaded.
        saved: PathBuf,
        /// The study file the answers were saved for (the same bytes).
        #[arg(long)]
        study: PathBuf,
        /// Where to write the ratings file (default: standard output).
        #[arg(long, short)]
        out: Option<PathBuf>,
    },
    /// Check ratings files (juror.ratings/1): format, shape and checksum, and with --study that
    /// they belong to that study file. One line per file; exit 1 if any is refused.
    ValidateRatings {
        /// The ratings files, as the annotators downloaded them.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// The study file they were made with: also check each file's study id, the study
        /// file's SHA-256, and that the trials fit the annotator's plan.
        #[arg(long)]
        study: Option<PathBuf>,
    },
    /// Build a study from a JSON Lines file of outputs and a template study (rubric, design).
    Prepare {
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
        /// Sample each item group in proportion to its size.
        #[arg(long)]
        stratify: bool,
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
    },
    /// Replace every system id with an opaque token; write the key (token -> id) separately.
    Seal {
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
    },
    /// Publish studies for annotators, blinded: each study is sealed (system ids become tokens,
    /// attention-check answers move to the key) and written with its media under
    /// SITE/studies/; the keys go only to KEYS. With --base-url, one link per annotator slot is
    /// printed and written to KEYS/links.csv. Refuses a study whose text names a system, and
    /// never overwrites a key.
    Publish {
        /// The original studies (keep them private, with the keys).
        #[arg(required = true)]
        studies: Vec<PathBuf>,
        /// The site folder: sealed studies and media go to SITE/studies/ (`assets` in this
        /// repository, which Trunk publishes as `studies/`).
        #[arg(long)]
        site: PathBuf,
        /// The private folder for the keys (one STUDY.key.json per study) and links.csv.
        #[arg(long)]
        keys: PathBuf,
        /// The address the site is served at, such as https://you.github.io/juror/.
        #[arg(long)]
        base_url: Option<String>,
        /// With --base-url: the links carry this platform's placeholders for the participant's
        /// id (prolific, mturk or sona), as `juror links --platform` writes them.
        #[arg(long, requires = "base_url")]
        platform: Option<String>,
        /// Publish even where a study's text names a system (sealing cannot hide that).
        #[arg(long)]
        allow_named: bool,
        /// How many slots' plans to publish for a study without an `assignment` (default: the
        /// smallest whole number of counterbalancing periods, the rows of its Williams design,
        /// that is 12 or more); a study with one publishes its own slots.
        #[arg(long)]
        slots: Option<u32>,
    },
    /// Analyse ratings: per dimension, each system's mean with intervals, inter-annotator
    /// agreement, paired comparisons as the study's analysis plan says (every pair of systems by
    /// default; the plan override flags below make the report exploratory), cells to adjudicate, and with
    /// rounds the slopes and a mixed model; the pairwise preferences (win rates, Bradley-Terry,
    /// agreement); diagnostics (position bias, time per trial, straight-lining, attention
    /// checks). Exit 1 when some input had problems (listed on stderr; the report covers the
    /// rest). See docs/analysis.md.
    Analyze {
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
        /// The key written by `juror seal`: system tokens in ratings files become system ids.
        #[arg(long)]
        key: Option<PathBuf>,
        /// An adjudication CSV (item_id,system_id,dimension,score): each score replaces the
        /// ratings of its cell in the system summaries and comparisons, never in agreement.
        #[arg(long)]
        adjudication: Option<PathBuf>,
        /// Also write the flagged cells to this file as an adjudication CSV with the score to
        /// fill in.
        #[arg(long)]
        adjudication_sheet: Option<PathBuf>,
        /// Flag a cell (item, system, dimension) whose ratings have a sample SD above this.
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
        /// (output questions, flags, notes, surveys) as a tidy CSV.
        #[arg(long, value_enum, default_value_t = AnalyzeFormat::Json)]
        format: AnalyzeFormat,
        /// Write to this file instead of standard output.
        #[arg(long)]
        out: Option<PathBuf>,
        /// Print on stderr how long reading the inputs, the statistics and writing took.
        #[arg(long)]
        timings: bool,
        #[command(flatten)]
        plan: PlanFlags,
    },
    /// The power of the study's analysis plan for a grid of participant and item counts, from
    /// a pilot's ratings files or an assumed effect size (d_z): the paired t-test in closed form
    /// and, with the Wilcoxon test, by simulation. See docs/analysis.md#power.
    Power {
        /// The study file; its analysis plan (or the key's) says what is compared and how.
        #[arg(long)]
        study: PathBuf,
        /// A pilot's ratings files and tidy CSVs, to estimate each comparison's effect and
        /// variances; or give --effect.
        #[arg(required_unless_present = "effect")]
        pilot: Vec<PathBuf>,
        /// An assumed d_z (the units' mean difference over its SD) for every comparison, such as
        /// 0.45, instead of a pilot.
        #[arg(long, conflicts_with = "pilot", allow_negative_numbers = true)]
        effect: Option<f64>,
        /// The key written by `juror seal`, for a pilot of a sealed study.
        #[arg(long)]
        key: Option<PathBuf>,
        /// Participant counts: 5,10,20.
        #[arg(long, default_value = "5,10,20,30,40,60")]
        participants: String,
        /// Item counts (default: the study's).
        #[arg(long)]
        items: Option<String>,
        /// The family-wise level.
        #[arg(long, default_value_t = 0.05)]
        alpha: f64,
        /// Simulated studies per grid cell.
        #[arg(long, default_value_t = 1000)]
        simulations: usize,
        /// Seed of the simulations.
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// md: Markdown tables; json: juror.power/1.
        #[arg(long, value_enum, default_value_t = PowerFormat::Md)]
        format: PowerFormat,
        #[command(flatten)]
        plan: PlanFlags,
    },
    /// Print one annotator's counterbalanced plan, or check the balance over all slots.
    Plan {
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
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Validate { file, published } => validate(&file, published),
        Command::Plan {
            file,
            slot,
            annotator,
            check,
        } => plan(&file, slot.as_deref(), annotator.as_deref(), check),
        Command::Prepare {
            template,
            outputs,
            n,
            seed,
            stratify,
            text_field,
            context_field,
            prompt,
            participant_field,
            out,
        } => prepare(&template, &outputs, &out, |template_seed| Options {
            n,
            seed: seed.unwrap_or(template_seed),
            stratify,
            text_field,
            context_field,
            prompt,
            participant_field,
        }),
        Command::Seal {
            file,
            out,
            key,
            force,
        } => seal(&file, &out, &key, force),
        Command::Publish {
            studies,
            site,
            keys,
            base_url,
            platform,
            allow_named,
            slots,
        } => match parse_platform(platform.as_deref()) {
            Ok(platform) => publish(
                &studies,
                &site,
                &keys,
                base_url.as_deref().map(|base| (base, platform)),
                allow_named,
                slots,
            ),
            Err(code) => code,
        },
        Command::Power {
            study,
            pilot,
            effect,
            key,
            participants,
            items,
            alpha,
            simulations,
            seed,
            format,
            plan,
        } => power(&PowerArgs {
            study,
            pilot,
            effect,
            key,
            participants,
            items,
            alpha,
            simulations,
            seed,
            format,
            overrides: plan,
        }),
        Command::Schema { ratings, report } => {
            if ratings {
                out!("{}", juror_core::session::ratings::schema());
            } else if report {
                out!("{}", juror_core::analysis::schema());
            } else {
                out!("{}", juror_core::study::schema());
            }
            ExitCode::SUCCESS
        }
        Command::ValidateRatings { files, study } => validate_ratings(&files, study.as_deref()),
        Command::Recover { saved, study, out } => recover(&saved, &study, out.as_deref()),
        Command::Links {
            study,
            base_url,
            platform,
            path,
            out,
        } => links(
            &study,
            &base_url,
            platform.as_deref(),
            path.as_deref(),
            out.as_deref(),
        ),
        Command::Analyze {
            inputs,
            study,
            key,
            adjudication,
            adjudication_sheet,
            flag_sd,
            seed,
            resamples,
            reference,
            reveal_ids,
            plan,
            format,
            out,
            timings,
        } => analyze(&AnalyzeArgs {
            overrides: plan,
            inputs,
            study,
            key,
            adjudication,
            adjudication_sheet,
            options: juror_core::analysis::Options {
                flag_sd,
                seed,
                resamples,
                reference,
                plan: None,
                reveal_ids,
            },
            format,
            out,
            timings,
        }),
    }
}

/// What `juror power` writes.
#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum PowerFormat {
    Json,
    Md,
}

/// What `juror analyze` writes.
#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum AnalyzeFormat {
    Json,
    Md,
    Csv,
    /// Every other answer (output questions, flags, notes, surveys) as a tidy CSV.
    Answers,
}

/// `juror analyze`'s flags that override the analysis plan (the study's, else the default),
/// making the report exploratory; each word as the study file's `analysis` section spells it.
#[derive(clap::Args)]
#[command(next_help_heading = "Plan overrides (exploratory)")]
struct PlanFlags {
    /// The unit: item or annotator.
    #[arg(long)]
    unit: Option<String>,
    /// Compare this system with each other one.
    #[arg(long, conflicts_with_all = ["pairs", "all_pairs"])]
    anchor: Option<String>,
    /// Compare these pairs: A:B,C:D.
    #[arg(long, conflicts_with = "all_pairs")]
    pairs: Option<String>,
    /// Compare every pair of systems.
    #[arg(long)]
    all_pairs: bool,
    /// two-sided, greater or less (about A − B).
    #[arg(long)]
    alternative: Option<String>,
    /// wilcoxon, t, or both (the first is corrected): wilcoxon,t.
    #[arg(long)]
    tests: Option<String>,
    /// holm, bonferroni or none.
    #[arg(long)]
    correction: Option<String>,
    /// plan or dimension.
    #[arg(long)]
    family: Option<String>,
    /// The primary dimensions: quality,relevance.
    #[arg(long)]
    primary: Option<String>,
    /// A non-inferiority margin on the rating scale for every comparison: 0.5.
    #[arg(long, allow_negative_numbers = true)]
    margin: Option<f64>,
    /// Also report each dimension per item group.
    #[arg(long)]
    by_group: bool,
    /// Also report each dimension per answer to this intake question: role.
    #[arg(long)]
    by_intake: Option<String>,
}

impl PlanFlags {
    /// The overrides, each word read as the study file's `analysis` section spells it.
    fn parse(&self) -> Result<juror_core::analysis::plan::Overrides, String> {
        use juror_core::analysis::plan::{Comparisons, Overrides};
        use juror_core::study::analysis_plan::RawAlternative;
        fn word<T: serde::de::DeserializeOwned>(
            flag: &str,
            text: &str,
            choices: &str,
        ) -> Result<T, String> {
            serde_json::from_value(serde_json::Value::String(text.trim().to_owned()))
                .map_err(|_| format!("--{flag} {text}: give one of {choices}"))
        }
        fn list(text: &str) -> Vec<String> {
            text.split(',')
                .map(|s| s.trim().to_owned())
                .filter(|s| !s.is_empty())
                .collect()
        }
        let comparisons = if self.all_pairs {
            Some(Comparisons::All)
        } else if let Some(a) = &self.anchor {
            Some(Comparisons::Anchor(a.clone()))
        } else if let Some(p) = &self.pairs {
            let pairs = juror_core::analysis::plan::parse_pairs(p)
                .map_err(|message| format!("--pairs {p}: {message}"))?;
            Some(Comparisons::Pairs(pairs))
        } else {
            None
        };
        Ok(Overrides {
            unit: self
                .unit
                .as_deref()
                .map(|u| word("unit", u, "item, annotator"))
                .transpose()?,
            comparisons,
            alternative: self
                .alternative
                .as_deref()
                .map(|a| word::<RawAlternative>("alternative", a, "two-sided, greater, less"))
                .transpose()?
                .map(Into::into),
            tests: self
                .tests
                .as_deref()
                .map(|t| {
                    list(t)
                        .iter()
                        .map(|x| word("tests", x, "wilcoxon, t"))
                        .collect()
                })
                .transpose()?,
            correction: self
                .correction
                .as_deref()
                .map(|c| word("correction", c, "holm, bonferroni, none"))
                .transpose()?,
            family: self
                .family
                .as_deref()
                .map(|f| word("family", f, "plan, dimension"))
                .transpose()?,
            primary: self.primary.as_deref().map(list),
            margin: self.margin,
            by_group: self.by_group.then_some(true),
            by_intake: self.by_intake.clone(),
        })
    }
}

struct AnalyzeArgs {
    overrides: PlanFlags,
    inputs: Vec<PathBuf>,
    study: Option<PathBuf>,
    key: Option<PathBuf>,
    adjudication: Option<PathBuf>,
    adjudication_sheet: Option<PathBuf>,
    options: juror_core::analysis::Options,
    format: AnalyzeFormat,
    out: Option<PathBuf>,
    timings: bool,
}

/// Seconds since the first call: `juror analyze --timings`'s clock.
fn seconds() -> f64 {
    static START: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();
    START
        .get_or_init(std::time::Instant::now)
        .elapsed()
        .as_secs_f64()
}

/// `juror analyze`: exits 2 when the study, the key or the adjudication file cannot be used or
/// the output cannot be written (nothing is analysed or written), 1 when some input had
/// problems (the report covers the rest), else 0.
fn analyze(args: &AnalyzeArgs) -> ExitCode {
    use juror_core::analysis::{
        self,
        run::{FileText, Request},
    };
    let start = seconds();
    let file = |path: &PathBuf| FileText {
        name: path.display().to_string(),
        text: std::fs::read_to_string(path).map_err(|e| e.to_string()),
    };
    let overrides = match args.overrides.parse() {
        Ok(o) => o,
        Err(message) => {
            errln!("{message}");
            return ExitCode::from(2);
        }
    };
    let request = Request {
        inputs: args.inputs.iter().map(file).collect(),
        study: args.study.as_ref().map(file),
        key: args.key.as_ref().map(file),
        adjudication: args.adjudication.as_ref().map(file),
        options: args.options.clone(),
        overrides,
        clock: args.timings.then_some(seconds as fn() -> f64),
    };
    let loaded = seconds();
    let (report, data, mut timings) = match analysis::run::run(&request) {
        Ok(a) => (a.report, a.data, a.timings),
        Err(blocked) => {
            for reason in blocked {
                errln!("{reason}");
            }
            errln!("nothing was analysed");
            return ExitCode::from(2);
        }
    };
    let analysed = seconds();

    if let Some(path) = &args.adjudication_sheet
        && let Err(code) = write_atomically(path, &report.adjudication_sheet())
    {
        return code;
    }
    let text = match args.format {
        AnalyzeFormat::Json => report.to_json(),
        AnalyzeFormat::Md => analysis::markdown::render(&report),
        AnalyzeFormat::Csv => analysis::to_csv(&data),
        AnalyzeFormat::Answers => analysis::answers::to_csv(&data.answers),
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
    for p in &report.problems {
        errln!("{p}");
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

struct PowerArgs {
    study: PathBuf,
    pilot: Vec<PathBuf>,
    effect: Option<f64>,
    key: Option<PathBuf>,
    participants: String,
    items: Option<String>,
    alpha: f64,
    simulations: usize,
    seed: u64,
    format: PowerFormat,
    overrides: PlanFlags,
}

/// `juror power`: exits 2 on a usage error or a study, key or pilot that cannot be used, else 0.
fn power(args: &PowerArgs) -> ExitCode {
    use juror_core::analysis::power::{PowerOptions, power};
    use juror_core::analysis::run::{FileText, Request, run};
    let counts = |flag: &str, text: &str| -> Result<Vec<usize>, String> {
        let counts: Result<Vec<usize>, _> = text
            .split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(str::parse::<usize>)
            .collect();
        match counts {
            Ok(c) if !c.is_empty() && c.iter().all(|&n| n >= 2) => Ok(c),
            _ => Err(format!(
                "--{flag} {text}: give whole numbers of 2 or more, separated by commas: 5,10,20"
            )),
        }
    };
    let checked = (|| {
        let participants = counts("participants", &args.participants)?;
        let items = match &args.items {
            Some(text) => counts("items", text)?,
            None => Vec::new(),
        };
        if !(args.alpha > 0.0 && args.alpha < 1.0) {
            return Err(format!(
                "--alpha {}: give a level between 0 and 1, such as 0.05",
                args.alpha
            ));
        }
        if args.simulations == 0 {
            return Err("--simulations 0: give at least 1; 1000 is usual".to_owned());
        }
        if args.effect.is_some_and(|e| !e.is_finite()) {
            return Err("--effect: give a number, such as 0.45".to_owned());
        }
        Ok((participants, items, args.overrides.parse()?))
    })();
    let (participants, items, overrides) = match checked {
        Ok(c) => c,
        Err(message) => {
            errln!("{message}");
            return ExitCode::from(2);
        }
    };
    let file = |path: &PathBuf| FileText {
        name: path.display().to_string(),
        text: std::fs::read_to_string(path).map_err(|e| e.to_string()),
    };
    let request = Request {
        inputs: args.pilot.iter().map(file).collect(),
        study: Some(file(&args.study)),
        key: args.key.as_ref().map(file),
        overrides,
        ..Request::default()
    };
    let analysis = match run(&request) {
        Ok(a) => a,
        Err(blocked) => {
            for reason in blocked {
                errln!("{reason}");
            }
            return ExitCode::from(2);
        }
    };
    if !analysis.report.problems.is_empty() {
        for p in &analysis.report.problems {
            errln!("{p}");
        }
        errln!("the pilot's files have problems: fix them, or leave those files out");
        return ExitCode::from(2);
    }
    let Some(study) = &analysis.study else {
        errln!("{}: no study", args.study.display());
        return ExitCode::from(2);
    };
    let options = PowerOptions {
        alpha: args.alpha,
        participants,
        items,
        simulations: args.simulations,
        seed: args.seed,
        effect: args.effect,
    };
    let pilot = (!args.pilot.is_empty()).then_some(&analysis.data);
    let report = power(study, &analysis.report.settings.plan, pilot, &options);
    out!(
        "{}",
        match args.format {
            PowerFormat::Json => report.to_json(),
            PowerFormat::Md => report.to_markdown(),
        }
    );
    ExitCode::SUCCESS
}

/// Reads and validates a study, or says why not (exit 2 for an unreadable file, 1 for an
/// invalid one).
fn load(file: &Path) -> Result<Study, ExitCode> {
    let text = read(file)?;
    study_of(file, &text)
}

/// Validates a study's text, or prints its problems (exit 1).
fn study_of(file: &Path, text: &str) -> Result<Study, ExitCode> {
    juror_core::open::open(text)
        .map(|opened| opened.study)
        .map_err(|problems| {
            for p in problems.iter() {
                outln!("{p}");
            }
            errln!(
                "{}: {} problem(s); the study is not valid",
                file.display(),
                problems.len()
            );
            ExitCode::FAILURE
        })
}

fn plan(file: &Path, slot: Option<&str>, annotator: Option<&str>, check: bool) -> ExitCode {
    let study = match load(file) {
        Ok(study) => study,
        Err(code) => return code,
    };
    if check && study.design().plans.is_some() {
        errln!(
            "{}: a published study carries its plans, counterbalanced on the original study: \
             check that one (juror plan ORIGINAL --check)",
            file.display()
        );
        return ExitCode::from(2);
    }
    if check {
        let report = juror_core::plan::balance::check(&study);
        out!("{}", report.render(&study));
        return if report.violations.is_empty() {
            ExitCode::SUCCESS
        } else {
            ExitCode::FAILURE
        };
    }
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

fn validate(file: &Path, published: bool) -> ExitCode {
    let study = match load(file) {
        Ok(study) => study,
        Err(code) => return code,
    };
    if published && study.design().plans.is_none() {
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
    if let Some(submit) = study.submit() {
        // The site's policy lets the page reach only the origins named when it was built.
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
    if !juror_core::study::seal::is_sealed(study.systems()) {
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

/// `juror validate-ratings`: one line per file, `FILE: ok: ...` or `FILE: AT: PROBLEM`. Exits 2
/// when the study cannot be read or is invalid (checking nothing) or a ratings file cannot be
/// read (after checking the others), else 1 when any file is refused.
fn links(
    study_path: &Path,
    base_url: &str,
    platform: Option<&str>,
    site_path: Option<&str>,
    out: Option<&Path>,
) -> ExitCode {
    use juror_core::plan::platform_links;

    let platform = match parse_platform(platform) {
        Ok(p) => p,
        Err(code) => return code,
    };
    let Ok(study) = load(study_path) else {
        return ExitCode::from(2);
    };
    let default_path = format!(
        "studies/{}",
        study_path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default()
    );
    let site_path = site_path.unwrap_or(&default_path);
    let mut csv = juror_core::csv::line(&["study_id", "slot", "url"]);
    for (slot, url) in platform_links(&study, base_url, site_path, platform) {
        csv.push_str(&juror_core::csv::line(&[
            study.id().to_owned(),
            slot.to_string(),
            url,
        ]));
    }
    match out {
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

fn recover(saved: &Path, study_path: &Path, out: Option<&Path>) -> ExitCode {
    use juror_core::digest::sha256_hex;
    use juror_core::session::store;

    let Ok((study, study_text)) =
        read(study_path).and_then(|text| Ok((study_of(study_path, &text)?, text)))
    else {
        return ExitCode::from(2);
    };
    let Ok(text) = read(saved) else {
        return ExitCode::from(2);
    };
    let file = match store::recover(
        &study,
        &sha256_hex(&study_text),
        &text,
        env!("CARGO_PKG_VERSION"),
    ) {
        Ok(file) => file,
        Err(why) => {
            errln!("{}: {why}", saved.display());
            return ExitCode::FAILURE;
        }
    };
    let json = file.to_json();
    match out {
        Some(path) => {
            if let Err(e) = std::fs::write(path, &json) {
                errln!("{}: cannot write: {e}", path.display());
                return ExitCode::from(2);
            }
            errln!(
                "wrote {} ({} trials, {} done)",
                path.display(),
                file.trials.len(),
                file.trials.iter().filter(|t| t.done).count()
            );
        }
        None => out!("{json}"),
    }
    ExitCode::SUCCESS
}

fn validate_ratings(files: &[PathBuf], study_path: Option<&Path>) -> ExitCode {
    use juror_core::digest::sha256_hex;
    use juror_core::session::ratings::{parse, restore};

    let study = match study_path {
        None => None,
        Some(path) => match read(path).and_then(|text| Ok((study_of(path, &text)?, text))) {
            Ok((study, text)) => Some((study, sha256_hex(&text))),
            // Nothing was checked: exit 1 is kept for refused ratings files.
            Err(_) => return ExitCode::from(2),
        },
    };
    let (mut refused, mut unreadable) = (0usize, 0usize);
    for file in files {
        let Ok(text) = read(file) else {
            unreadable += 1;
            continue;
        };
        let checked = parse(&text)
            .and_then(|ratings| preference_positions(&ratings).map(|()| ratings))
            .and_then(|ratings| match &study {
                Some((study, hash)) => restore(study, hash, &ratings).map(|_| ratings),
                None => Ok(ratings),
            });
        match checked {
            Ok(r) => {
                let who = match &r.annotator.id {
                    Some(id) => format!("annotator slot {} (id {id:?})", r.annotator.slot),
                    None => format!("annotator slot {}", r.annotator.slot),
                };
                outln!(
                    "{}: ok: study {:?}, {who}, {} trials ({} done), {}",
                    file.display(),
                    r.study.id,
                    r.trials.len(),
                    r.trials.iter().filter(|t| t.done).count(),
                    if r.complete { "complete" } else { "incomplete" },
                );
            }
            Err(e) => {
                refused += 1;
                outln!("{}: {e}", file.display());
            }
        }
    }
    if refused + unreadable > 0 {
        errln!(
            "{} of {} ratings file(s) refused{}",
            refused + unreadable,
            files.len(),
            if unreadable > 0 { " or unreadable" } else { "" }
        );
    }
    if unreadable > 0 {
        ExitCode::from(2)
    } else if refused > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

/// Every `best` or `choice` preference names one of its trial's outputs. `parse` accepts any
/// position and `restore` subtracts 1 from it unchecked (a panic on 0), so this is checked here
/// first.
fn preference_positions(
    ratings: &juror_core::session::ratings::RatingsFile,
) -> Result<(), juror_core::session::ratings::ImportError> {
    use juror_core::session::ratings::{ImportError, PreferenceRecord};

    for (i, t) in ratings.trials.iter().enumerate() {
        if let Some(
            PreferenceRecord::Best { position, .. } | PreferenceRecord::Choice { position, .. },
        ) = &t.preference
            && !(1..=t.outputs.len()).contains(position)
        {
            return Err(ImportError {
                at: format!("trials[{i}].preference.position"),
                message: format!(
                    "{position} is not the position of one of the trial's {} output(s)",
                    t.outputs.len()
                ),
            });
        }
    }
    Ok(())
}

fn read(file: &Path) -> Result<String, ExitCode> {
    std::fs::read_to_string(file).map_err(|e| {
        errln!("{}: cannot read the file: {e}", file.display());
        ExitCode::from(2)
    })
}

/// Reads a study file as its raw form, after checking it validates.
fn load_raw(file: &Path) -> Result<RawStudy, ExitCode> {
    let text = read(file)?;
    load(file)?;
    serde_json::from_str(&text).map_err(|e| {
        errln!("{}: {e}", file.display());
        ExitCode::FAILURE
    })
}

fn report(file: &Path, problems: &Problems) -> ExitCode {
    const SHOWN: usize = 20;
    for p in problems.iter().take(SHOWN) {
        outln!("{}: {p}", file.display());
    }
    if problems.len() > SHOWN {
        outln!(
            "{}: ... and {} more problems like these",
            file.display(),
            problems.len() - SHOWN
        );
    }
    errln!("{} problem(s); nothing was written", problems.len());
    ExitCode::FAILURE
}

/// Writes `text` to `path` whole or not at all: a temporary file next to it, then a rename.
fn write_atomically(path: &Path, text: &str) -> Result<(), ExitCode> {
    let tmp = path.with_extension("juror-tmp");
    std::fs::write(&tmp, text)
        .and_then(|()| std::fs::rename(&tmp, path))
        .map_err(|e| {
            let _ = std::fs::remove_file(&tmp);
            errln!("{}: cannot write: {e}", path.display());
            ExitCode::from(2)
        })
}

fn pretty(value: &impl serde::Serialize) -> String {
    let mut text = serde_json::to_string_pretty(value).unwrap_or_default();
    text.push('\n');
    text
}

fn prepare(
    template_path: &Path,
    outputs: &Path,
    out: &Path,
    options: impl FnOnce(u64) -> Options,
) -> ExitCode {
    let template: RawStudy = match read(template_path).and_then(|t| {
        serde_json::from_str(&t).map_err(|e| {
            errln!("{}: not a study template: {e}", template_path.display());
            ExitCode::FAILURE
        })
    }) {
        Ok(t) => t,
        Err(code) => return code,
    };
    let options = options(template.seed);
    let jsonl = match read(outputs) {
        Ok(t) => t,
        Err(code) => return code,
    };
    let items = match read_items(&jsonl, &options) {
        Ok(items) => items,
        Err(problems) => return report(outputs, &problems),
    };
    match build(&template, items, &options) {
        Ok((study, summary)) => {
            if let Err(code) = write_atomically(out, &pretty(&study)) {
                return code;
            }
            outln!(
                "{}: {} items sampled (seed {}{}) from {} eligible of {} read, {} systems",
                out.display(),
                summary.sampled,
                options.seed,
                if options.stratify {
                    ", stratified by group"
                } else {
                    ""
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

fn seal(file: &Path, out: &Path, key_path: &Path, force: bool) -> ExitCode {
    let raw = match load_raw(file) {
        Ok(raw) => raw,
        Err(code) => return code,
    };
    if key_path.exists() && !force {
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
    let (sealed, key) = juror_core::study::seal::seal(&raw, &secret);
    if let Err(problems) = juror_core::study::validate(&sealed) {
        return report(file, &problems);
    }
    for (path, system) in juror_core::study::seal::mentions(&raw) {
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

/// One study of `juror publish`, checked and sealed, before anything is written.
struct Publication {
    source: PathBuf,
    file_name: String,
    study: Study,
    sealed: RawStudy,
    key: juror_core::study::seal::SealKey,
    key_path: PathBuf,
    media: Vec<String>,
}

/// `--platform NAME`: a platform, or exit 2 with what to use.
fn parse_platform(name: Option<&str>) -> Result<Option<juror_core::plan::Platform>, ExitCode> {
    match name.map(|n| (n, juror_core::plan::Platform::parse(n))) {
        None => Ok(None),
        Some((_, Some(p))) => Ok(Some(p)),
        Some((name, None)) => {
            errln!("--platform {name:?}: use prolific, mturk or sona");
            Err(ExitCode::from(2))
        }
    }
}

/// `juror publish`: checks every study first (valid, no system named in its text unless
/// allowed, media present inside its folder, no key already there, no two with one file name)
/// and writes nothing unless all pass (exit 1, or 2 for an existing key or an I/O error). Then
/// for each study: the key, the sealed study, its media; and links.csv with --base-url (and the
/// platform's placeholders, if one is named).
fn publish(
    studies: &[PathBuf],
    site: &Path,
    keys: &Path,
    links_to: Option<(&str, Option<juror_core::plan::Platform>)>,
    allow_named: bool,
    slots: Option<u32>,
) -> ExitCode {
    use juror_core::study::seal;

    let mut publications: Vec<Publication> = Vec::new();
    let mut refused = false;
    for source in studies {
        let raw = match load_raw(source) {
            Ok(raw) => raw,
            Err(code) => return code,
        };
        let Ok(original) = juror_core::study::validate(&raw) else {
            return ExitCode::FAILURE;
        };
        if seal::is_sealed(&raw.systems) {
            errln!(
                "{}: already sealed (its systems are tokens); publish the original study, so \
                 that the key is written",
                source.display()
            );
            refused = true;
            continue;
        }
        for (path, system) in seal::mentions(&raw) {
            let what = if allow_named { "warning" } else { "refused" };
            errln!(
                "{what}: {}: {path} names system \"{system}\"; sealing cannot hide that: reword it{}",
                source.display(),
                if allow_named {
                    ""
                } else {
                    " (or pass --allow-named)"
                }
            );
            refused |= !allow_named;
        }
        let Some(file_name) = source.file_name().map(|n| n.to_string_lossy().into_owned()) else {
            errln!("{}: not a file name", source.display());
            return ExitCode::from(2);
        };
        if publications.iter().any(|p| p.file_name == file_name) {
            errln!(
                "{}: another study given is also named {file_name}; they would overwrite each other in {}",
                source.display(),
                site.join("studies").display()
            );
            refused = true;
        }
        let stem = file_name.trim_end_matches(".json");
        let key_path = keys.join(format!("{stem}.key.json"));
        if key_path.exists() {
            errln!(
                "{}: a key is already there; overwriting it would lose the way to unblind the \
                 ratings of the study published with it. Move it away, or publish under another \
                 file name.",
                key_path.display()
            );
            return ExitCode::from(2);
        }
        let mut media = Vec::new();
        let owners = raw
            .items
            .iter()
            .filter_map(|i| Some((format!("item \"{}\"", i.id), i.media.as_ref()?)))
            .chain(raw.rubric.examples.iter().enumerate().filter_map(|(k, e)| {
                Some((format!("worked example {}", k + 1), e.media.as_ref()?))
            }));
        for (owner, m) in owners {
            let inside = Path::new(&m.src)
                .components()
                .all(|c| matches!(c, std::path::Component::Normal(_)));
            let from = source.parent().unwrap_or(Path::new(".")).join(&m.src);
            if !inside {
                errln!(
                    "{}: {owner}: media \"{}\" is outside the study's folder; move it into \
                     the folder (for example media/) and give a path relative to the study",
                    source.display(),
                    m.src
                );
                refused = true;
            } else if !from.is_file() {
                errln!(
                    "{}: {owner}: media {} is missing",
                    source.display(),
                    from.display()
                );
                refused = true;
            } else if !media.contains(&m.src) {
                media.push(m.src.clone());
            }
        }
        let mut secret = [0u8; 32];
        if let Err(e) = getrandom::fill(&mut secret) {
            errln!("no source of randomness: {e}");
            return ExitCode::from(2);
        }
        let n = match (juror_core::plan::slots(&original), slots) {
            (Some(fixed), Some(asked)) if fixed != asked => {
                errln!(
                    "{}: --slots {asked}, but the study's assignment fixes {fixed} slots",
                    source.display()
                );
                return ExitCode::from(2);
            }
            (Some(fixed), _) => fixed,
            (None, Some(0)) => {
                errln!("--slots 0: give the number of annotator links to publish");
                return ExitCode::from(2);
            }
            (None, Some(asked)) => asked,
            // One counterbalancing period at least, and enough plans (12 or more, a whole
            // number of periods) that annotators met by id are spread over varied orders.
            (None, None) => {
                let period = juror_core::plan::period(&original);
                period * 12u32.div_ceil(period)
            }
        };
        let (sealed, key) = seal::publish(&raw, &original, &secret, n);
        let study = match juror_core::study::validate(&sealed) {
            Ok(study) => study,
            Err(problems) => return report(source, &problems),
        };
        publications.push(Publication {
            source: source.clone(),
            file_name,
            study,
            sealed,
            key,
            key_path,
            media,
        });
    }
    if refused {
        errln!("nothing was published");
        return ExitCode::FAILURE;
    }

    let studies_dir = site.join("studies");
    for dir in [keys, studies_dir.as_path()] {
        if let Err(e) = std::fs::create_dir_all(dir) {
            errln!("{}: cannot create the folder: {e}", dir.display());
            return ExitCode::from(2);
        }
    }
    let mut links = String::from("study,slot,url\n");
    for p in &publications {
        // The key first: a published study without its key could never be unblinded.
        if let Err(code) = write_atomically(&p.key_path, &pretty(&p.key)) {
            return code;
        }
        let out = studies_dir.join(&p.file_name);
        if let Err(code) = write_atomically(&out, &pretty(&p.sealed)) {
            return code;
        }
        for src in &p.media {
            let from = p.source.parent().unwrap_or(Path::new(".")).join(src);
            let to = studies_dir.join(src);
            let copied = to
                .parent()
                .map_or(Ok(()), std::fs::create_dir_all)
                .and_then(|()| std::fs::copy(&from, &to));
            if let Err(e) = copied {
                errln!("{}: cannot copy to {}: {e}", from.display(), to.display());
                return ExitCode::from(2);
            }
        }
        outln!(
            "{}: published as {} ({} slots' plans, {} systems under {} output tokens, {} media file(s)); key: {} (keep it private)",
            p.source.display(),
            out.display(),
            p.study.design().plans.as_ref().map_or(0, Vec::len),
            p.study.system_count(),
            p.key.systems.len(),
            p.media.len(),
            p.key_path.display()
        );
        if let Some((base, platform)) = links_to {
            let path = format!("studies/{}", p.file_name);
            for (slot, url) in juror_core::plan::platform_links(&p.study, base, &path, platform) {
                outln!("  slot {slot}: {url}");
                links.push_str(&juror_core::csv::line(&[
                    p.study.id().to_owned(),
                    slot.to_string(),
                    url,
                ]));
            }
        }
    }
    if links_to.is_some() {
        let path = keys.join("links.csv");
        if let Err(code) = write_atomically(&path, &links) {
            return code;
        }
        outln!("links written to {}", path.display());
    }
    ExitCode::SUCCESS
}
