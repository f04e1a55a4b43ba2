//! `juror power`: the power of a study's analysis plan over a grid of participant and item
//! counts, from a pilot's ratings or an assumed effect size.

use std::path::PathBuf;
use std::process::ExitCode;

use juror_core::analysis::power::{InteractionOptions, PowerOptions, interaction_power, power};
use juror_core::analysis::run::{Request, run as analyse};

use crate::analysis_plan::AnalysisPlanFlags;
use crate::files::file_text;

/// The power of the study's analysis plan for a grid of participant and item counts, from
/// a pilot's ratings files or an assumed effect size (d_z): the paired t-test in closed form
/// and, with the Wilcoxon test, by simulation. See docs/analysis.md#power.
#[derive(clap::Args)]
pub struct Args {
    /// The study file; its analysis plan (or the key's) says what is compared and how.
    #[arg(long)]
    study: PathBuf,
    /// A pilot's ratings files and tidy CSVs, to estimate each comparison's effect and
    /// variances; or give --effect.
    #[arg(required_unless_present_any = ["effect", "interaction"])]
    pilot: Vec<PathBuf>,
    /// Simulate the power of the method × round interaction instead: the study's first
    /// system's slope per round above the others' (such as 0.1); see also --rounds,
    /// --sd-participant and --sd-residual.
    #[arg(long, conflicts_with_all = ["pilot", "effect"], allow_negative_numbers = true)]
    interaction: Option<f64>,
    /// With --interaction: rounds per system (default: the study's distinct item rounds).
    #[arg(long)]
    rounds: Option<usize>,
    /// With --interaction: SD of the participants' own levels (random intercepts); default 0.5.
    #[arg(long, allow_negative_numbers = true)]
    sd_participant: Option<f64>,
    /// With --interaction: SD of a rating around its expectation; default 1.
    #[arg(long, allow_negative_numbers = true)]
    sd_residual: Option<f64>,
    /// An assumed d_z (the units' mean difference over its SD) for every comparison, such as
    /// 0.45, instead of a pilot.
    #[arg(long, conflicts_with = "pilot", allow_negative_numbers = true)]
    effect: Option<f64>,
    /// The key written by `juror publish` (or `juror seal`), for a pilot of a sealed study.
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
    #[arg(long, value_enum, default_value_t = Format::Md)]
    format: Format,
    #[command(flatten)]
    plan: AnalysisPlanFlags,
}

/// The simulated participants' SD of their own levels, unless --sd-participant says.
const SD_PARTICIPANT: f64 = 0.5;
/// The simulated ratings' SD around their expectation, unless --sd-residual says.
const SD_RESIDUAL: f64 = 1.0;

/// What `juror power` writes.
#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Format {
    Json,
    Md,
}

/// Exits 2 on a usage error or a study, key or pilot that cannot be used, else 0.
pub fn run(args: Args) -> ExitCode {
    let (participants, items, overrides) = match checked(&args) {
        Ok(c) => c,
        Err(message) => {
            errln!("{message}");
            return ExitCode::from(2);
        }
    };
    if let Some(slope) = args.interaction {
        return interaction(&args, slope, participants);
    }
    let request = Request {
        inputs: args
            .pilot
            .iter()
            .map(PathBuf::as_path)
            .map(file_text)
            .collect(),
        study: Some(file_text(&args.study)),
        key: args.key.as_deref().map(file_text),
        overrides,
        ..Request::default()
    };
    let analysis = match analyse(&request) {
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
            Format::Json => report.to_json(),
            Format::Md => report.to_markdown(),
        }
    );
    ExitCode::SUCCESS
}

/// `juror power --interaction SLOPE`: the simulated power of the method × round interaction.
fn interaction(args: &Args, slope: f64, participants: Vec<usize>) -> ExitCode {
    let request = Request {
        study: Some(file_text(&args.study)),
        key: args.key.as_deref().map(file_text),
        ..Request::default()
    };
    let study = match analyse(&request) {
        Ok(a) => a.study,
        Err(blocked) => {
            for reason in blocked {
                errln!("{reason}");
            }
            return ExitCode::from(2);
        }
    };
    let Some(study) = study else {
        errln!("{}: no study", args.study.display());
        return ExitCode::from(2);
    };
    let options = PowerOptions {
        alpha: args.alpha,
        participants,
        items: Vec::new(),
        simulations: args.simulations,
        seed: args.seed,
        effect: None,
    };
    let design = InteractionOptions {
        slope_difference: slope,
        rounds: args.rounds,
        sd_participant: args.sd_participant.unwrap_or(SD_PARTICIPANT),
        sd_residual: args.sd_residual.unwrap_or(SD_RESIDUAL),
    };
    match interaction_power(&study, &options, &design) {
        Ok(report) => {
            out!(
                "{}",
                match args.format {
                    Format::Json => report.to_json(),
                    Format::Md => report.to_markdown(),
                }
            );
            ExitCode::SUCCESS
        }
        Err(message) => {
            errln!("{}: {message}", args.study.display());
            ExitCode::from(2)
        }
    }
}

/// The participant counts, the item counts and the plan overrides, or the usage error to print.
fn checked(
    args: &Args,
) -> Result<
    (
        Vec<usize>,
        Vec<usize>,
        juror_core::analysis::overrides::Overrides,
    ),
    String,
> {
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
    if args.interaction.is_some_and(|e| !e.is_finite()) {
        return Err("--interaction: give a slope difference per round, such as 0.1".to_owned());
    }
    // These shape the simulated design of --interaction only: given without it, they would be
    // silently ignored.
    if args.interaction.is_none() {
        let given = [
            ("rounds", args.rounds.is_some()),
            ("sd-participant", args.sd_participant.is_some()),
            ("sd-residual", args.sd_residual.is_some()),
        ];
        if let Some((flag, _)) = given.iter().find(|(_, g)| *g) {
            return Err(format!(
                "--{flag}: only with --interaction SLOPE (the simulated design of the method × \
                 round interaction); leave it out, or add --interaction 0.1"
            ));
        }
    }
    if args.rounds.is_some_and(|r| r < 2) {
        return Err("--rounds: give 2 or more rounds".to_owned());
    }
    let sd_residual = args.sd_residual.unwrap_or(SD_RESIDUAL);
    for (flag, sd) in [
        (
            "sd-participant",
            args.sd_participant.unwrap_or(SD_PARTICIPANT),
        ),
        ("sd-residual", sd_residual),
    ] {
        if !(sd.is_finite() && sd >= 0.0) {
            return Err(format!(
                "--{flag} {sd}: give a standard deviation of 0 or more, such as 0.5"
            ));
        }
    }
    if sd_residual == 0.0 {
        return Err(
            "--sd-residual 0: ratings need some noise to fit a model; give, say, 1".to_owned(),
        );
    }
    if args.effect.is_some_and(|e| !e.is_finite()) {
        return Err("--effect: give a number, such as 0.45".to_owned());
    }
    Ok((participants, items, args.plan.parse()?))
}

/// `--FLAG 5,10,20`: whole numbers of 2 or more.
fn counts(flag: &str, text: &str) -> Result<Vec<usize>, String> {
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
}
