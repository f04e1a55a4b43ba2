//! The analysis plan as the report follows it: the study's pre-registered plan
//! ([`crate::study::analysis_plan`], re-exported here) with the changes asked for at analysis
//! time ([`Overrides`], `juror analyze --unit ...` and the Analyse page's choices), and the
//! plan's alternatives as the statistics take them.

use crate::stats::paired;
pub use crate::study::analysis_plan::{
    Alternative, AnalysisPlan, Comparisons, Contrast, Correction, Family, Hypothesis, PlanProblem,
    Standardise, Test, Unit,
};

impl From<Alternative> for paired::Alternative {
    fn from(a: Alternative) -> paired::Alternative {
        match a {
            Alternative::TwoSided => paired::Alternative::TwoSided,
            Alternative::Greater => paired::Alternative::Greater,
            Alternative::Less => paired::Alternative::Less,
        }
    }
}

/// Pairs written `A:B, C:D` (as `juror analyze --pairs` and the Analyse page take them).
pub fn parse_pairs(text: &str) -> Result<Vec<(String, String)>, String> {
    let mut pairs = Vec::new();
    for pair in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        match pair.split_once(':') {
            Some((a, b)) if !a.trim().is_empty() && !b.trim().is_empty() => {
                pairs.push((a.trim().to_owned(), b.trim().to_owned()));
            }
            _ => return Err(format!("\"{pair}\": write pairs as A:B,C:D")),
        }
    }
    if pairs.is_empty() {
        return Err("no pair: write pairs as A:B,C:D".to_owned());
    }
    Ok(pairs)
}

/// Changes to a plan asked for at analysis time (`juror analyze --unit ...`): each given field
/// replaces the plan's. A report that follows them is exploratory.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Overrides {
    pub unit: Option<Unit>,
    /// Per-annotator z-scores (`--standardise annotator`), or raw scores (`none`).
    pub standardise: Option<Standardise>,
    pub comparisons: Option<Comparisons>,
    pub alternative: Option<Alternative>,
    pub tests: Option<Vec<Test>>,
    pub correction: Option<Correction>,
    pub family: Option<Family>,
    pub primary: Option<Vec<String>>,
    /// A non-inferiority margin (on the rating scale) for every comparison.
    pub margin: Option<f64>,
    /// The planned number of units of the anytime-valid confidence sequences (`--sequential`).
    pub sequential: Option<u32>,
    pub by_group: Option<bool>,
    /// An intake question to break the report down by.
    pub by_intake: Option<String>,
    /// Participant-level success criteria, besides the plan's (`--threshold`).
    pub thresholds: Vec<crate::study::analysis_plan::Threshold>,
    /// Also report the systems' output divergence across annotators (`--divergence`).
    pub divergence: Option<bool>,
    /// Models of rater quality to fit, instead of the plan's (`--raters`).
    pub raters: Option<Vec<crate::study::analysis_plan::RaterModel>>,
    /// Models of each dimension to fit, instead of the plan's (`--models`).
    pub models: Option<Vec<crate::study::analysis_plan::AnalysisModel>>,
    /// The intervals of the Bradley–Terry ratings, instead of the plan's (`--bt-intervals`).
    pub bt_intervals: Option<crate::study::analysis_plan::BtIntervals>,
    /// How the leaderboard counts a tie, instead of the plan's (`--ties`).
    pub ties: Option<crate::study::analysis_plan::Ties>,
}

impl Overrides {
    /// Whether nothing is overridden.
    pub fn is_empty(&self) -> bool {
        *self == Overrides::default()
    }

    /// `plan` with these changes, checked against the `systems` and `dimensions` known (an empty
    /// list: not checked).
    pub fn apply(
        &self,
        plan: &AnalysisPlan,
        systems: &[String],
        dimensions: &[String],
    ) -> Result<AnalysisPlan, Vec<PlanProblem>> {
        let mut problems = Vec::new();
        let mut check = |what: &str, id: &str, known: &[String]| {
            if !known.is_empty() && !known.iter().any(|k| k == id) {
                problems.push((
                    what.to_owned(),
                    format!("unknown {what} \"{id}\""),
                    format!("use one of: {}", known.join(", ")),
                ));
            }
        };
        match &self.comparisons {
            Some(Comparisons::Anchor(a)) => check("system", a, systems),
            Some(Comparisons::Pairs(pairs)) => {
                for (a, b) in pairs {
                    check("system", a, systems);
                    check("system", b, systems);
                }
            }
            _ => {}
        }
        for d in self.primary.iter().flatten() {
            check("dimension", d, dimensions);
        }
        for t in &self.thresholds {
            check("dimension", &t.dimension, dimensions);
            check("system", &t.system, systems);
        }
        if self.margin.is_some_and(|m| !(m.is_finite() && m > 0.0)) {
            problems.push((
                "margin".to_owned(),
                format!("margin {:?} is not a positive number", self.margin.unwrap_or_default()),
                "give the largest difference on the rating scale that still counts as not worse, such as 0.5".to_owned(),
            ));
        }
        if self.tests.as_ref().is_some_and(Vec::is_empty) {
            problems.push((
                "tests".to_owned(),
                "no test".to_owned(),
                "give wilcoxon, t or both".to_owned(),
            ));
        }
        if !problems.is_empty() {
            return Err(problems);
        }
        let mut out = plan.clone();
        if let Some(u) = self.unit {
            out.unit = u;
        }
        if let Some(z) = self.standardise {
            out.standardise = z;
        }
        if let Some(c) = &self.comparisons {
            out.comparisons = c.clone();
        }
        if let Some(a) = self.alternative {
            out.alternative = a;
        }
        if let Some(t) = &self.tests {
            out.tests = t.clone();
        }
        if let Some(c) = self.correction {
            out.correction = c;
        }
        if let Some(f) = self.family {
            out.family = f;
        }
        if let Some(p) = &self.primary {
            out.primary = p.clone();
        }
        if let Some(n) = self.sequential {
            out.sequential = Some(n);
        }
        if let Some(m) = self.margin {
            out.margin = Some(m);
        }
        if let Some(b) = self.by_group {
            out.by_group = b;
        }
        if let Some(d) = self.divergence {
            out.divergence = d;
        }
        if let Some(r) = &self.raters {
            out.raters = crate::study::analysis_plan::RaterModels::of(r);
        }
        if let Some(m) = &self.models {
            out.models = crate::study::analysis_plan::AnalysisModels::of(m);
        }
        if let Some(b) = self.bt_intervals {
            out.bt_intervals = b;
        }
        if let Some(t) = self.ties {
            out.ties = t;
        }
        out.thresholds.extend(self.thresholds.iter().cloned());
        if let Some(q) = &self.by_intake {
            out.by_intake = Some(q.clone());
        }
        Ok(out)
    }
}
