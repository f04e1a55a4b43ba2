//! The paired comparisons of the report: each pair of systems on its units, with the plan's
//! tests, effect sizes and non-inferiority tests; and the corrections over each family.

use std::collections::BTreeMap;

use super::types::*;
use super::{HypothesisTest, bootstrap_of};
use crate::analysis::data::{LEVEL, oriented};
use crate::analysis::overrides::{AnalysisPlan, Correction, Family, Hypothesis, Test, Unit};
use crate::stats::describe::mean;
use crate::stats::paired::{
    self, Alternative, PairedError, WilcoxonMethod, paired_effect, t_test, wilcoxon, wilcoxon_p,
};
use crate::stats::sequential::{ASYMPTOTIC, mean_sequence};

/// The plan's comparisons of the systems of `unit_means` on `dimension`, each oriented and
/// tested as its hypothesis (or the plan) says.
pub(super) fn planned_comparisons(
    plan: &AnalysisPlan,
    options: &Options,
    dimension: &str,
    unit_means: &BTreeMap<String, BTreeMap<String, f64>>,
    exploratory: bool,
) -> Vec<PairComparison> {
    let names: Vec<&str> = unit_means.keys().map(String::as_str).collect();
    plan.pairs(&names)
        .into_iter()
        .map(|(a, b)| {
            let (a, b) = oriented(plan, dimension, a, b);
            let hypothesis = plan.hypothesis(dimension, &a, &b);
            compare(
                &a,
                &b,
                &unit_means[&a],
                &unit_means[&b],
                Testing { plan, options },
                hypothesis,
                exploratory,
            )
        })
        .collect()
}

/// What a comparison is tested with: the plan, and the bootstrap's settings.
#[derive(Clone, Copy)]
pub(super) struct Testing<'a> {
    pub(super) plan: &'a AnalysisPlan,
    pub(super) options: &'a Options,
}

/// The comparison of `a` and `b` on their common units, with the plan's tests for the
/// hypothesis's alternative (else the plan's) and, with a margin, the non-inferiority tests.
pub(super) fn compare(
    a: &str,
    b: &str,
    means_a: &BTreeMap<String, f64>,
    means_b: &BTreeMap<String, f64>,
    testing: Testing<'_>,
    hypothesis: Option<&Hypothesis>,
    exploratory: bool,
) -> PairComparison {
    let Testing { plan, options } = testing;
    let alternative = hypothesis.map_or(plan.alternative, |h| h.alternative);
    let (mut x, mut y) = (Vec::new(), Vec::new());
    for (unit, va) in means_a {
        if let Some(vb) = means_b.get(unit) {
            x.push(*va);
            y.push(*vb);
        }
    }
    let mut notes = Vec::new();
    let mut out = PairComparison {
        system_a: a.to_owned(),
        system_b: b.to_owned(),
        hypothesis: hypothesis.and_then(|h| h.name.clone()),
        alternative,
        exploratory,
        n: x.len(),
        mean_a: None,
        mean_b: None,
        mean_diff: None,
        mean_diff_ci95: None,
        anytime_ci95: None,
        mean_diff_bootstrap: None,
        wilcoxon: None,
        t_test: None,
        non_inferiority: None,
        p_value: None,
        p_holm: None,
        p_bonferroni: None,
        p_adjusted: None,
        d_z: None,
        d_z_ci95: None,
        g_z: None,
        rank_biserial: None,
        notes: Vec::new(),
    };
    if x.is_empty() {
        out.notes.push(format!(
            "no {} has ratings of both systems",
            match plan.unit {
                Unit::Item => "item",
                Unit::Annotator => "annotator",
            }
        ));
        return out;
    }
    out.mean_a = Some(mean(&x));
    out.mean_b = Some(mean(&y));
    let diffs = match paired::differences(&x, &y) {
        Ok(d) => d,
        Err(e) => {
            out.notes.push(e.to_string());
            return out;
        }
    };
    out.mean_diff = Some(mean(&diffs));
    if let Some(planned) = plan.sequential {
        match mean_sequence(&diffs, 1.0 - LEVEL, planned as usize) {
            Ok(s) => {
                out.anytime_ci95 = Some(Ci {
                    low: s.low,
                    high: s.high,
                });
                if s.n < ASYMPTOTIC {
                    out.notes.push(format!(
                        "the confidence sequence is asymptotic: with {} units (under {ASYMPTOTIC}) \
                         skewed differences can make it too narrow",
                        s.n
                    ));
                }
            }
            Err(e) => out.notes.push(format!("no confidence sequence: {e}")),
        }
    }
    out.mean_diff_bootstrap = bootstrap_of(&diffs, options);
    for test in &plan.tests {
        match test {
            Test::Wilcoxon => match wilcoxon(&diffs) {
                Ok(w) => {
                    let mut result: WilcoxonResult = w.into();
                    match wilcoxon_p(&diffs, WilcoxonMethod::Auto, alternative.into()) {
                        Ok(p) => result.p_value = p,
                        Err(e) => notes.push(format!("Wilcoxon: {}", explain(&e))),
                    }
                    out.wilcoxon = Some(result);
                }
                Err(e) => notes.push(format!("Wilcoxon: {}", explain(&e))),
            },
            Test::T => match t_test(&diffs, 0.0, alternative.into()) {
                Ok(t) => {
                    out.t_test = Some(TTestResult {
                        t: t.t,
                        df: t.df,
                        p_value: t.p_value,
                    });
                    out.mean_diff_ci95 = Some(Ci {
                        low: t.ci95.0,
                        high: t.ci95.1,
                    });
                }
                Err(e) => notes.push(format!("t-test: {}", explain(&e))),
            },
        }
    }
    // The p-value that is corrected is the first test's: only when that test ran.
    if let Some(first) = plan.tests.first() {
        out.p_value = match first {
            Test::Wilcoxon => out.wilcoxon.map(|w| w.p_value),
            Test::T => out.t_test.map(|t| t.p_value),
        };
    }
    if let Some(margin) = hypothesis.and_then(|h| h.margin).or(plan.margin) {
        let shifted: Vec<f64> = diffs.iter().map(|d| d + margin).collect();
        out.non_inferiority = Some(NonInferiority {
            margin,
            p_t: t_test(&diffs, -margin, Alternative::Greater)
                .ok()
                .map(|t| t.p_value),
            p_wilcoxon: wilcoxon_p(&shifted, WilcoxonMethod::Auto, Alternative::Greater).ok(),
        });
    }
    match paired_effect(&diffs) {
        Ok(e) => {
            out.d_z = Some(e.d_z);
            out.d_z_ci95 = paired::d_z_interval(&diffs)
                .ok()
                .map(|(low, high)| Ci { low, high });
            out.g_z = Some(e.g_z);
            out.rank_biserial = e.rank_biserial;
        }
        Err(e) => notes.push(format!("effect sizes: {}", explain(&e))),
    }
    out.notes = notes;
    out
}

fn explain(e: &PairedError) -> String {
    e.to_string()
}

/// Where a tested comparison is: (dimension, 0 for `comparisons`, 1 for `contrasts`, index),
/// or (`usize::MAX`, 2, index) for a planned test of a slope or a preference.
type Place = (usize, usize, usize);

/// The family key of a planned test: its dimension's under `Family::Dimension` (preferences
/// together apart), the plan's under `Family::Plan`.
fn planned_key(
    t: &HypothesisTest,
    dimensions: &[DimensionReport],
    family: Family,
) -> (usize, bool) {
    match family {
        Family::Plan => (0, t.exploratory),
        Family::Dimension => (
            t.dimension
                .as_ref()
                .and_then(|d| dimensions.iter().position(|x| x.dimension == *d))
                .unwrap_or(usize::MAX),
            false,
        ),
    }
}

/// Holm and Bonferroni over each family of the plan: every comparison of the report's primary
/// dimensions (and apart, of its exploratory ones), or each dimension's own; `p_adjusted` is
/// the plan's correction. The plan's planned tests of slopes and preferences join the family.
pub(super) fn adjust(
    dimensions: &mut [DimensionReport],
    planned: &mut [HypothesisTest],
    plan: &AnalysisPlan,
) {
    // Every tested comparison, by family: (0 or the dimension, exploratory).
    let mut by: BTreeMap<(usize, bool), Vec<Place>> = BTreeMap::new();
    for (d, dim) in dimensions.iter().enumerate() {
        let lists = [&dim.comparisons, &dim.contrasts];
        for (l, list) in lists.into_iter().enumerate() {
            for (c, comparison) in list.iter().enumerate() {
                if comparison.p_value.is_none() {
                    continue;
                }
                let key = match plan.family {
                    Family::Plan => (0, comparison.exploratory),
                    Family::Dimension => (d, false),
                };
                by.entry(key).or_default().push((d, l, c));
            }
        }
    }
    for (i, t) in planned.iter().enumerate() {
        if t.p_value.is_some() && t.corrected {
            by.entry(planned_key(t, dimensions, plan.family))
                .or_default()
                .push((usize::MAX, 2, i));
        }
    }
    let p_of =
        |dimensions: &[DimensionReport], planned: &[HypothesisTest], (d, l, c): Place| match l {
            0 => dimensions[d].comparisons[c].p_value,
            1 => dimensions[d].contrasts[c].p_value,
            _ => planned[c].p_value,
        };
    for family in by.into_values() {
        let ps: Vec<f64> = family
            .iter()
            .filter_map(|&place| p_of(dimensions, planned, place))
            .collect();
        let (Ok(holm), Ok(bonferroni)) = (paired::holm(&ps), paired::bonferroni(&ps)) else {
            continue;
        };
        for (&(d, l, c), (h, b)) in family.iter().zip(holm.into_iter().zip(bonferroni)) {
            let (p_value, p_holm, p_bonferroni, p_adjusted) = match l {
                0 => {
                    let x = &mut dimensions[d].comparisons[c];
                    (
                        x.p_value,
                        &mut x.p_holm,
                        &mut x.p_bonferroni,
                        &mut x.p_adjusted,
                    )
                }
                1 => {
                    let x = &mut dimensions[d].contrasts[c];
                    (
                        x.p_value,
                        &mut x.p_holm,
                        &mut x.p_bonferroni,
                        &mut x.p_adjusted,
                    )
                }
                _ => {
                    let x = &mut planned[c];
                    (
                        x.p_value,
                        &mut x.p_holm,
                        &mut x.p_bonferroni,
                        &mut x.p_adjusted,
                    )
                }
            };
            *p_holm = Some(h);
            *p_bonferroni = Some(b);
            *p_adjusted = match plan.correction {
                Correction::Holm => Some(h),
                Correction::Bonferroni => Some(b),
                Correction::None => p_value,
            };
        }
    }
}
