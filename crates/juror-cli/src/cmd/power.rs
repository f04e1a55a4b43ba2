//! `juror power`: the power of a study's analysis plan over a grid of participant and item
//! counts, from a pilot's ratings or an assumed effect size.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use juror_core::analysis::power::{InteractionOptions, PowerOptions, interaction_power, power};
use juror_core::analysis::run::{Request, run as analyse};

use crate::analysis_plan::AnalysisPlanFlags;
use crate::files::file_text;

/// The power of the study's analysis plan for a grid of participant and item counts, from
/// a pilot's ratings files or an assumed effect size (d_z): the paired t-test in closed form
/// and, with the Wilcoxon test, by simulation. Without a study: the power of a preference
/// share (--share), of every pair of a pairwise design (--strengths), or the human labels a
/// judge-assisted estimate needs (--ppi-shares). See docs/analysis.md#power.
#[derive(clap::Args)]
pub struct Args {
    /// The study file; its analysis plan (or the key's) says what is compared and how.
    #[arg(long, required_unless_present_any = ["share", "strengths", "ppi_shares"])]
    study: Option<PathBuf>,
    /// A pilot's ratings files and tidy CSVs, to estimate each comparison's effect and
    /// variances; or give --effect.
    #[arg(required_unless_present_any = ["effect", "interaction", "share", "strengths", "ppi_shares"])]
    pilot: Vec<PathBuf>,
    /// The power of the exact binomial test of a preference share against ½ if the true share
    /// preferring the first system is SHARE (such as 0.6), over --judgements counts, and the
    /// judgements --target power needs. No study needed.
    #[arg(long, conflicts_with_all = ["strengths", "ppi_shares"])]
    share: Option<f64>,
    /// With --share or --strengths: the share of judgements that are ties (default 0).
    #[arg(long, default_value_t = 0.0)]
    ties: f64,
    /// With --share: judgement counts, such as 50,100,200 (default 25 to 800).
    #[arg(long)]
    judgements: Option<String>,
    /// With --share: the power wanted.
    #[arg(long, default_value_t = 0.8)]
    target: f64,
    /// The simulated power of every pair of a pairwise design whose systems have these
    /// Bradley–Terry strengths (such as 1,1.5,2), with --per-pair judgements each.
    #[arg(long, requires = "per_pair", conflicts_with = "ppi_shares")]
    strengths: Option<String>,
    /// With --strengths: judgements per pair of systems.
    #[arg(long)]
    per_pair: Option<usize>,
    /// The human labels a prediction-powered (PPI++) estimate of a share needs: the pilot's
    /// share of humans saying yes, of the judge saying yes, and of both, such as 0.7,0.65,0.6;
    /// with --unlabelled and --half-width.
    #[arg(long, requires_all = ["unlabelled", "half_width"])]
    ppi_shares: Option<String>,
    /// With --ppi-shares: items the judge labels alone.
    #[arg(long)]
    unlabelled: Option<u64>,
    /// With --ppi-shares: the half-width of the 95% interval wanted, such as 0.03.
    #[arg(long)]
    half_width: Option<f64>,
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
    if args.share.is_some() || args.strengths.is_some() || args.ppi_shares.is_some() {
        return sizing(&args);
    }
    let Some(study_path) = args.study.clone() else {
        errln!("give --study (or --share, --strengths or --ppi-shares)");
        return ExitCode::from(2);
    };
    let (participants, items, overrides) = match checked(&args) {
        Ok(c) => c,
        Err(message) => {
            errln!("{message}");
            return ExitCode::from(2);
        }
    };
    if let Some(slope) = args.interaction {
        return interaction(&args, &study_path, slope, participants);
    }
    let request = Request {
        inputs: args
            .pilot
            .iter()
            .map(PathBuf::as_path)
            .map(file_text)
            .collect(),
        study: Some(file_text(&study_path)),
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
        errln!("{}: no study", study_path.display());
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
fn interaction(args: &Args, study_path: &Path, slope: f64, participants: Vec<usize>) -> ExitCode {
    let request = Request {
        study: Some(file_text(study_path)),
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
        errln!("{}: no study", study_path.display());
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
            errln!("{}: {message}", study_path.display());
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

/// `--share`, `--strengths` or `--ppi-shares`: a sizing without a study.
fn sizing(args: &Args) -> ExitCode {
    use juror_core::analysis::sizing;
    let numbers = |flag: &str, text: &str| -> Result<Vec<f64>, String> {
        text.split(',')
            .map(|s| s.trim().parse::<f64>())
            .collect::<Result<Vec<f64>, _>>()
            .map_err(|_| format!("--{flag} {text}: give numbers separated by commas"))
    };
    let result: Result<sizing::Sizing, String> = (|| {
        if let Some(share) = args.share {
            let judgements = match &args.judgements {
                Some(text) => counts("judgements", text)?
                    .into_iter()
                    .map(|n| n as u64)
                    .collect(),
                None => Vec::new(),
            };
            return sizing::share(share, args.ties, args.alpha, args.target, &judgements)
                .map_err(|e| e.to_string());
        }
        if let Some(text) = &args.strengths {
            let strengths = numbers("strengths", text)?;
            let per_pair = args.per_pair.unwrap_or_default();
            return sizing::design(
                &strengths,
                per_pair,
                args.ties,
                args.alpha,
                args.simulations,
                args.seed,
            )
            .map_err(|e| e.to_string());
        }
        let text = args.ppi_shares.as_deref().unwrap_or_default();
        let shares = numbers("ppi-shares", text)?;
        let [human, judge, both] = shares[..] else {
            return Err(format!(
                "--ppi-shares {text}: give three shares from the pilot: humans saying yes, the \
                 judge saying yes, both saying yes (such as 0.7,0.65,0.6)"
            ));
        };
        sizing::ppi(
            (human, judge, both),
            args.unlabelled.unwrap_or_default(),
            args.half_width.unwrap_or_default(),
        )
        .map_err(|e| e.to_string())
    })();
    match result {
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
            errln!("{message}");
            ExitCode::from(2)
        }
    }
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
