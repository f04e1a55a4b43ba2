//! The flags of `juror analyze` and `juror power` that override the study's analysis plan
//! (what is compared, by which test, with which correction), read as the study file's
//! `analysis` section spells each word, so that a flag and the file never disagree.

use juror_core::analysis::overrides::{Comparisons, Overrides};
use juror_core::study::analysis_plan::RawAlternative;

/// `juror analyze`'s flags that override the analysis plan (the study's, else the default),
/// making the report exploratory; each word as the study file's `analysis` section spells it.
#[derive(clap::Args)]
#[command(next_help_heading = "Plan overrides (exploratory)")]
pub struct AnalysisPlanFlags {
    /// The unit: item or annotator.
    #[arg(long)]
    unit: Option<String>,
    /// annotator: per-annotator z-scores beside the raw means, and the tests on them; or none.
    #[arg(long)]
    standardise: Option<String>,
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
    /// Also give each comparison's anytime-valid 95% confidence sequence (valid however often
    /// the files are analysed as they arrive), tuned to this planned number of units: 60.
    #[arg(long, value_name = "UNITS", value_parser = clap::value_parser!(u32).range(1..))]
    sequential: Option<u32>,
    /// Also report each dimension per item group.
    #[arg(long)]
    by_group: bool,
    /// Also report each dimension per answer to this intake question: role.
    #[arg(long)]
    by_intake: Option<String>,
}

impl AnalysisPlanFlags {
    /// The overrides, each word read as the study file's `analysis` section spells it.
    pub fn parse(&self) -> Result<Overrides, String> {
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
            let pairs = juror_core::analysis::overrides::parse_pairs(p)
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
            standardise: self
                .standardise
                .as_deref()
                .map(|z| word("standardise", z, "annotator, none"))
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
            sequential: self.sequential,
            by_group: self.by_group.then_some(true),
            by_intake: self.by_intake.clone(),
            thresholds: Vec::new(),
            divergence: None,
            raters: None,
            models: None,
            bt_intervals: None,
            ties: None,
        })
    }
}
