//! Graded pairwise preferences ("how much better", `a3` … `tie` … `b3`) and the "Cannot judge"
//! answers of a report.
//!
//! Per pair of systems in byte order (`system_a` < `system_b`): every graded judgement is
//! turned to the pair's order (a grade towards `system_b` is positive), averaged per item over
//! its annotators, and the item means give the mean grade, its 95% t interval (over items) and
//! the Wilcoxon signed-rank test of the item means against 0 (the crate's [`wilcoxon`]: zeros
//! dropped, scipy's default method). The share of each grade is over judgements. The same
//! judgements, collapsed to a/b/tie, are in the preference section's win rates and
//! Bradley–Terry.

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;

use crate::analysis::data::{Ci, PreferenceRow, SkipRow, ordered, share_of};
use crate::session::grade_name;
use crate::stats::paired::{describe, wilcoxon};
use crate::stats::preference::Outcome;

/// The graded preferences: one section per pair with graded judgements, and the position
/// diagnostic.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
#[schemars(rename = "GradedReport")]
pub struct Report {
    /// The largest grade of the scale seen (3 for a 7-point scale).
    pub max_grade: u32,
    pub pairs: Vec<GradedPair>,
    /// The mean grade towards the output shown first (positive: the first, the left, was
    /// preferred), over the judgements whose order is known; `null` without any.
    pub towards_first: Option<GradedPosition>,
}

/// The graded judgements of one pair, `system_a` against `system_b` in byte order.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct GradedPair {
    pub system_a: String,
    pub system_b: String,
    /// Graded judgements (a `tie` counts as 0).
    pub judgements: usize,
    /// Items with at least one graded judgement.
    pub items: usize,
    /// The mean over items of the item's mean grade; positive favours `system_b`.
    pub mean_grade: f64,
    /// 95% t interval of the mean over the item means; `null` with fewer than 2 items.
    pub ci: Option<Ci>,
    /// Wilcoxon signed-rank test of the item means against 0 (two-sided; items whose mean is
    /// 0 dropped); `null` when every item mean is 0.
    pub wilcoxon_p: Option<f64>,
    /// min(W+, W−).
    pub wilcoxon_statistic: Option<f64>,
    /// Item means of 0, dropped by the test.
    pub zero_items: usize,
    /// Every grade of the scale, from `a{max}` to `b{max}`, with its share of the judgements.
    pub shares: Vec<GradeShare>,
}

/// How often one grade was given.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct GradeShare {
    /// `a3` … `tie` … `b3`, from the pair's order.
    pub grade: String,
    pub count: u64,
    pub share: Option<f64>,
    /// 95% Wilson interval of the share.
    pub ci: Option<Ci>,
}

/// The mean grade towards the output shown first.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct GradedPosition {
    pub judgements: usize,
    pub mean: f64,
    /// 95% t interval over judgements; `null` with fewer than 2.
    pub ci: Option<Ci>,
}

/// How many "Cannot judge" answers one question got about one system's outputs.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct CannotJudgeCount {
    /// `preference`, or the dimension's or question's id.
    pub question: String,
    pub system: String,
    pub count: usize,
}

/// The grade of a row from `system_a`'s side (negative favours `system_a`): its grade, or 0 for
/// a plain `tie`; `None` for a plain `a` or `b`, and for a derived row.
fn row_grade(row: &PreferenceRow) -> Option<i32> {
    match (row.derived, row.grade, row.outcome) {
        (true, _, _) => None,
        (false, Some(g), _) => Some(g),
        (false, None, Outcome::Tie) => Some(0),
        (false, None, _) => None,
    }
}

/// The pair of a row in byte order.
fn pair_of(row: &PreferenceRow) -> (String, String) {
    let (x, y) = ordered(&row.system_a, &row.system_b);
    (x.to_owned(), y.to_owned())
}

/// The graded section; `None` when no row has a grade. A pair is graded when one of its rows
/// has a grade; its plain ties then count as 0, its plain `a` and `b` rows are left out.
pub fn graded_report(rows: &[PreferenceRow]) -> Option<Report> {
    let graded_pairs: BTreeSet<(String, String)> = rows
        .iter()
        .filter(|r| !r.derived && r.grade.is_some())
        .map(pair_of)
        .collect();
    if graded_pairs.is_empty() {
        return None;
    }
    // Each graded judgement: its pair, item, and grade from the pair's byte order.
    let judgements: Vec<(&PreferenceRow, (String, String), i32)> = rows
        .iter()
        .filter_map(|r| {
            let pair = pair_of(r);
            let grade = row_grade(r).filter(|_| graded_pairs.contains(&pair))?;
            let canonical = if r.system_a == pair.0 { grade } else { -grade };
            Some((r, pair, canonical))
        })
        .collect();
    let max_grade = judgements
        .iter()
        .map(|(_, _, g)| g.unsigned_abs())
        .max()
        .unwrap_or(1)
        .max(1);
    let mut by_pair: BTreeMap<(String, String), BTreeMap<String, Vec<f64>>> = BTreeMap::new();
    let mut counts: BTreeMap<(String, String), BTreeMap<i32, u64>> = BTreeMap::new();
    for (r, pair, grade) in &judgements {
        by_pair
            .entry(pair.clone())
            .or_default()
            .entry(r.item.to_string())
            .or_default()
            .push(f64::from(*grade));
        *counts
            .entry(pair.clone())
            .or_default()
            .entry(*grade)
            .or_default() += 1;
    }
    let pairs = by_pair
        .into_iter()
        .map(|((a, b), items)| {
            let counts = counts.remove(&(a.clone(), b.clone())).unwrap_or_default();
            pair_section(a, b, &items, &counts, max_grade)
        })
        .collect();
    // Towards the output shown first: a grade from system_a's side is towards it when negative.
    let towards: Vec<f64> = judgements
        .iter()
        .filter_map(|(r, pair, canonical)| {
            let own = if r.system_a == pair.0 {
                *canonical
            } else {
                -canonical
            };
            r.a_first
                .map(|a_first| f64::from(if a_first { -own } else { own }))
        })
        .collect();
    Some(Report {
        max_grade,
        pairs,
        towards_first: towards_first(&towards),
    })
}

fn pair_section(
    system_a: String,
    system_b: String,
    items: &BTreeMap<String, Vec<f64>>,
    counts: &BTreeMap<i32, u64>,
    max_grade: u32,
) -> GradedPair {
    let means: Vec<f64> = items
        .values()
        .map(|g| g.iter().sum::<f64>() / g.len() as f64)
        .collect();
    let judgements: u64 = counts.values().sum();
    let mean_grade = means.iter().sum::<f64>() / means.len().max(1) as f64;
    let test = wilcoxon(&means).ok();
    let k = max_grade as i32;
    let shares = (-k..=k)
        .map(|g| {
            let count = counts.get(&g).copied().unwrap_or(0);
            let (share, ci) = share_of(count, judgements);
            GradeShare {
                grade: grade_name(g),
                count,
                share,
                ci,
            }
        })
        .collect();
    GradedPair {
        system_a,
        system_b,
        judgements: judgements as usize,
        items: means.len(),
        mean_grade,
        ci: describe(&means).ok().map(|d| d.ci95.into()),
        wilcoxon_p: test.as_ref().map(|t| t.p_value),
        wilcoxon_statistic: test.as_ref().map(|t| t.statistic),
        zero_items: means.iter().filter(|m| **m == 0.0).count(),
        shares,
    }
}

/// The mean grade towards the output shown first, over graded judgements whose order is known.
fn towards_first(grades: &[f64]) -> Option<GradedPosition> {
    if grades.is_empty() {
        return None;
    }
    Some(GradedPosition {
        judgements: grades.len(),
        mean: grades.iter().sum::<f64>() / grades.len() as f64,
        ci: describe(grades).ok().map(|d| d.ci95.into()),
    })
}

/// The "Cannot judge" answers per question and system, in that order.
pub fn cannot_judge_counts(skips: &[SkipRow]) -> Vec<CannotJudgeCount> {
    let mut counts: BTreeMap<(String, String), usize> = BTreeMap::new();
    for s in skips {
        for system in &s.systems {
            *counts
                .entry((s.question.to_string(), system.to_string()))
                .or_default() += 1;
        }
    }
    counts
        .into_iter()
        .map(|((question, system), count)| CannotJudgeCount {
            question,
            system,
            count,
        })
        .collect()
}
