//! The plan's hypotheses about slopes over rounds and about preferences (`analysis.hypotheses`
//! with `kind` `"slope"` or `"preference"`), each tested as the plan says (one-sided when it
//! says so) and corrected with the plan's comparisons (see `adjust` in the parent module):
//!
//! - a slope with a B: A's slope over rounds minus B's, the contrast −`system[T.B]:round` of
//!   the mixed model `rating ~ system + round + system:round + (1 | annotator)` fitted with A
//!   as the reference on every system rated with a round, its Wald z test and 95% Wald
//!   interval (the method × round interaction);
//! - a slope without a B: A's own least-squares slope of the ratings on the round (as
//!   `scipy.stats.linregress`), its t test on n − 2 degrees of freedom and 95% t interval;
//! - a preference: one vote per unit of the plan (a participant with `unit: "annotator"`, an
//!   item with `unit: "item"`): the unit prefers A when A won more of its decisions of the
//!   pair than B, B when fewer, neither when as many (left out, as ties are); A's share of the
//!   votes with its Wilson interval and the exact binomial test of ½. Judgements of one
//!   participant are not independent, so they are not pooled as if they were.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::analysis::data::{Ci, Data, LEVEL, RatingRow};
use crate::analysis::overrides::{Alternative, AnalysisPlan, Unit};
use crate::analysis::rounds::{mixed_fit, wald_ci};
use crate::stats::preference::{Outcome, binomial_test, binomial_test_one_sided, wilson};
use crate::stats::special;
use crate::stats::trend::linregress;
use crate::study::analysis_plan::{HypothesisKind, PlannedTest};

/// One planned test of a slope or a preference.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct HypothesisTest {
    pub name: Option<String>,
    pub kind: HypothesisKind,
    /// The dimension of a slope; `null` for a preference.
    pub dimension: Option<String>,
    pub a: String,
    /// `null`: A's own slope against 0.
    pub b: Option<String>,
    /// About A − B (or A's slope): `greater` is one-sided, A above.
    pub alternative: Alternative,
    /// How it was tested, in words.
    pub method: String,
    /// A's slope minus B's, A's slope, or A's share of the units' votes against B.
    pub estimate: Option<f64>,
    /// 95% two-sided interval of the estimate (Wald, t or Wilson, as `method` says).
    pub ci95: Option<Ci>,
    /// z (a slope difference) or t (a slope); `null` for a preference.
    pub statistic: Option<f64>,
    /// Degrees of freedom of a t statistic.
    pub df: Option<f64>,
    /// Ratings (a slope) or units with a vote (a preference).
    pub n: usize,
    /// A preference: units preferring A, units preferring B, units even.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub votes: Option<[u64; 3]>,
    /// A preference: the decisions behind the votes, won by A, won by B, tied.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub decisions: Option<[u64; 3]>,
    /// The p-value for `alternative`.
    pub p_value: Option<f64>,
    pub p_holm: Option<f64>,
    pub p_bonferroni: Option<f64>,
    /// The p-value after the plan's correction, in the plan's family; the p-value itself when
    /// the hypothesis is not `corrected`.
    pub p_adjusted: Option<f64>,
    /// In the plan's corrected family (else its own question, uncorrected).
    pub corrected: bool,
    /// On an exploratory (not primary) dimension.
    pub exploratory: bool,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
}

/// Each planned test of slopes and preferences of `plan`, in order (those about divergence are
/// tested with it); a slope with no dimension gives one per dimension in
/// `dimensions` (the report's order).
pub fn hypotheses(data: &Data, plan: &AnalysisPlan, dimensions: &[String]) -> Vec<HypothesisTest> {
    let mut out = tested(data, plan, dimensions);
    for t in out.iter_mut().filter(|t| !t.corrected) {
        t.p_adjusted = t.p_value;
    }
    out
}

fn tested(data: &Data, plan: &AnalysisPlan, dimensions: &[String]) -> Vec<HypothesisTest> {
    let mut out = Vec::new();
    for t in &plan.planned {
        match t.kind {
            HypothesisKind::Preference => out.push(preference(data, plan.unit, t)),
            // Tested with the divergence, on the prompts (the parent's `divergence`).
            HypothesisKind::Divergence => {}
            HypothesisKind::Slope | HypothesisKind::Difference => {
                let dims: Vec<&String> = match &t.dimension {
                    Some(d) => vec![d],
                    None => dimensions.iter().collect(),
                };
                for d in dims {
                    let rows: Vec<&RatingRow> = data
                        .ratings
                        .iter()
                        .filter(|r| r.dimension.as_str() == d && r.round.is_some())
                        .collect();
                    let mut row = slope(&rows, t);
                    row.dimension = Some(d.clone());
                    row.exploratory = !plan.is_primary(d);
                    out.push(row);
                }
            }
        }
    }
    out
}

fn empty(t: &PlannedTest, method: &str) -> HypothesisTest {
    HypothesisTest {
        name: t.name.clone(),
        kind: t.kind,
        dimension: t.dimension.clone(),
        a: t.a.clone(),
        b: t.b.clone(),
        alternative: t.alternative,
        method: method.to_owned(),
        estimate: None,
        ci95: None,
        statistic: None,
        df: None,
        n: 0,
        votes: None,
        decisions: None,
        p_value: None,
        p_holm: None,
        p_bonferroni: None,
        p_adjusted: None,
        corrected: t.corrected,
        exploratory: false,
        notes: Vec::new(),
    }
}

/// The p-value of a statistic whose null distribution has survival function `sf`.
fn p_for(alternative: Alternative, stat: f64, sf: impl Fn(f64) -> f64) -> f64 {
    match alternative {
        Alternative::Greater => sf(stat),
        Alternative::Less => sf(-stat),
        Alternative::TwoSided => (2.0 * sf(stat.abs())).min(1.0),
    }
}

fn slope(rows: &[&RatingRow], t: &PlannedTest) -> HypothesisTest {
    match &t.b {
        None => own_slope(rows, t),
        Some(b) => slope_difference(rows, t, b),
    }
}

fn own_slope(rows: &[&RatingRow], t: &PlannedTest) -> HypothesisTest {
    let mut out = empty(
        t,
        "least-squares slope of A's ratings on the round; t test on n − 2 df, 95% t interval",
    );
    let (x, y): (Vec<f64>, Vec<f64>) = rows
        .iter()
        .filter(|r| r.system.as_str() == t.a)
        .filter_map(|r| r.round.map(|round| (round, r.score)))
        .unzip();
    out.n = x.len();
    match linregress(&x, &y) {
        Ok(fit) => {
            let df = fit.n as f64 - 2.0;
            let (low, high) = fit.slope_ci(LEVEL);
            out.estimate = Some(fit.slope);
            out.ci95 = Some(Ci { low, high });
            out.df = Some(df);
            if fit.slope_se > 0.0 {
                let stat = fit.slope / fit.slope_se;
                out.statistic = Some(stat);
                out.p_value = Some(p_for(t.alternative, stat, |v| special::t_sf(v, df)));
            } else {
                out.notes
                    .push("the ratings lie on a line: no standard error".to_owned());
            }
        }
        Err(e) => out.notes.push(format!("no slope: {e}")),
    }
    out
}

fn slope_difference(rows: &[&RatingRow], t: &PlannedTest, b: &str) -> HypothesisTest {
    let mut out = empty(
        t,
        "A's slope minus B's in the mixed model rating ~ system + round + system:round + \
         (1 | annotator) (REML, A the reference): Wald z test, 95% Wald interval",
    );
    let mut order: Vec<&str> = vec![t.a.as_str()];
    for r in rows {
        if !order.contains(&r.system.as_str()) {
            order.push(r.system.as_str());
        }
    }
    out.n = rows.len();
    let Some(column) = order.iter().position(|s| *s == b) else {
        out.notes.push(format!("no rating of \"{b}\" with a round"));
        return out;
    };
    if !rows.iter().any(|r| r.system.as_str() == t.a) {
        out.notes
            .push(format!("no rating of \"{}\" with a round", t.a));
        return out;
    }
    let fit = match mixed_fit(rows, &order) {
        Ok(fit) => fit,
        Err(e) => {
            out.notes.push(format!("mixed model not fitted: {e}"));
            return out;
        }
    };
    let name = format!("system[T.{}]:round", order[column]);
    let weights: Vec<f64> = fit
        .fixed_effects
        .iter()
        .map(|f| if f.name == name { -1.0 } else { 0.0 })
        .collect();
    match fit.contrast(&weights) {
        Ok(c) => {
            out.estimate = Some(c.estimate);
            out.ci95 = Some(wald_ci(c.estimate, c.se));
            out.statistic = Some(c.z);
            out.p_value = Some(p_for(t.alternative, c.z, special::normal_sf));
        }
        Err(e) => out.notes.push(format!("no contrast: {e}")),
    }
    out
}

fn preference(data: &Data, unit: Unit, t: &PlannedTest) -> HypothesisTest {
    let unit_name = match unit {
        Unit::Annotator => "participant",
        Unit::Item => "item",
    };
    let mut out = empty(
        t,
        &format!(
            "one vote per {unit_name} (the system that won more of its decisions of the pair; \
             even: no vote); A's share of the votes, 95% Wilson interval, exact binomial test \
             of 1/2"
        ),
    );
    let Some(b) = t.b.as_deref() else {
        return out;
    };
    // Per unit: decisions won by A, won by B, tied.
    let mut by: BTreeMap<&str, [u64; 3]> = BTreeMap::new();
    let mut decisions = [0u64; 3];
    for r in &data.preferences {
        let a_is_first = r.system_a.as_str() == t.a && r.system_b.as_str() == b;
        let a_is_second = r.system_b.as_str() == t.a && r.system_a.as_str() == b;
        if !(a_is_first || a_is_second) {
            continue;
        }
        let slot = match (r.outcome, a_is_first) {
            (Outcome::Tie, _) => 2,
            (Outcome::A, true) | (Outcome::B, false) => 0,
            _ => 1,
        };
        let key = match unit {
            Unit::Annotator => r.annotator.as_str(),
            Unit::Item => r.item.as_str(),
        };
        by.entry(key).or_default()[slot] += 1;
        decisions[slot] += 1;
    }
    let mut votes = [0u64; 3];
    for [won, lost, _] in by.values() {
        votes[match won.cmp(lost) {
            std::cmp::Ordering::Greater => 0,
            std::cmp::Ordering::Less => 1,
            std::cmp::Ordering::Equal => 2,
        }] += 1;
    }
    out.votes = Some(votes);
    out.decisions = Some(decisions);
    let n = votes[0] + votes[1];
    out.n = n as usize;
    if n == 0 {
        out.notes.push(format!(
            "no {unit_name} preferred either system: nothing to test"
        ));
        return out;
    }
    out.estimate = Some(votes[0] as f64 / n as f64);
    out.ci95 = wilson(votes[0], n, LEVEL).ok().map(Ci::from);
    out.p_value = match t.alternative {
        Alternative::Greater => binomial_test_one_sided(votes[0], n, true).ok(),
        Alternative::Less => binomial_test_one_sided(votes[0], n, false).ok(),
        Alternative::TwoSided => binomial_test(votes[0], n, 0.5).ok(),
    };
    out
}
