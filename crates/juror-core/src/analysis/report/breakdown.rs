//! The report's breakdowns of a dimension: per item group of the study and per answer to an
//! intake question, each with its systems and uncorrected comparisons on the raw ratings.

use std::collections::HashMap;

use super::compare::planned_comparisons;
use super::types::*;
use super::{item_means, system_summary, unit_means};
use crate::analysis::answers::{AnswerRow, Phase};
use crate::analysis::data::RatingRow;
use crate::analysis::overrides::AnalysisPlan;
use crate::study::Study;

/// The dimension per item group of the study, for each grouping the items have (their `group`,
/// then each named grouping of `groups`; groups in order of first appearance among the items):
/// systems and comparisons on the group's items, as the plan compares, uncorrected, on the raw
/// ratings (adjudication settles cells of the whole report, not of a breakdown).
pub(super) fn group_reports(
    dimension: &str,
    scale: Option<&[f64]>,
    rows: &[&RatingRow],
    study: &Study,
    options: &Options,
    plan: &AnalysisPlan,
) -> Vec<GroupReport> {
    let item_of: HashMap<&str, &crate::study::Item> =
        study.items().iter().map(|i| (i.id.as_str(), i)).collect();
    let by = Breakdown {
        dimension,
        scale,
        rows,
        options,
        plan,
    };
    study
        .groupings()
        .into_iter()
        .flat_map(|grouping| {
            let mut groups: Vec<&str> = Vec::new();
            for g in study.items().iter().filter_map(|i| i.grouping(grouping)) {
                if !groups.contains(&g) {
                    groups.push(g);
                }
            }
            let named = (grouping != crate::study::GROUP).then(|| grouping.to_owned());
            by.groups(&groups, |r| {
                item_of
                    .get(r.item.as_str())
                    .and_then(|i| i.grouping(grouping))
            })
            .into_iter()
            .map(move |g| GroupReport {
                grouping: named.clone(),
                ..g
            })
        })
        .collect()
}

/// The dimension per answer to the intake question `question`: each group is the annotators
/// who gave that answer (`answers` as read from the ratings files; a multiple choice puts an
/// annotator in every group they chose), in order of first appearance.
pub(super) fn intake_reports(
    dimension: &str,
    scale: Option<&[f64]>,
    rows: &[&RatingRow],
    answers: &[AnswerRow],
    question: &str,
    options: &Options,
    plan: &AnalysisPlan,
) -> Vec<GroupReport> {
    let mut groups: Vec<&str> = Vec::new();
    let mut of: HashMap<&str, Vec<&str>> = HashMap::new();
    for a in answers
        .iter()
        .filter(|a| a.phase == Phase::Intake && a.question == question)
    {
        if !groups.contains(&a.value.as_str()) {
            groups.push(&a.value);
        }
        of.entry(a.annotator.as_str()).or_default().push(&a.value);
    }
    let by = Breakdown {
        dimension,
        scale,
        rows,
        options,
        plan,
    };
    groups
        .iter()
        .flat_map(|&g| {
            by.groups(&[g], |r| {
                of.get(r.annotator.as_str())
                    .and_then(|v| v.iter().find(|x| **x == g).copied())
            })
        })
        .collect()
}

/// What a breakdown of one dimension is computed from.
struct Breakdown<'a> {
    dimension: &'a str,
    scale: Option<&'a [f64]>,
    rows: &'a [&'a RatingRow],
    options: &'a Options,
    plan: &'a AnalysisPlan,
}

impl Breakdown<'_> {
    /// One report per group of `groups` (those with ratings), the rows of a group being those
    /// `group_of` puts in it.
    fn groups<'g>(
        &self,
        groups: &[&'g str],
        group_of: impl Fn(&RatingRow) -> Option<&'g str>,
    ) -> Vec<GroupReport> {
        let Breakdown {
            dimension,
            scale,
            rows,
            options,
            plan,
        } = *self;
        groups
            .iter()
            .copied()
            .filter_map(|group| {
                let mine: Vec<&RatingRow> = rows
                    .iter()
                    .copied()
                    .filter(|r| group_of(r) == Some(group))
                    .collect();
                if mine.is_empty() {
                    return None;
                }
                // The raw ratings: adjudication settles cells of the whole report.
                let means = item_means(&mine, None);
                let systems = means
                    .iter()
                    .map(|(system, by_item)| {
                        let values: Vec<f64> = by_item.values().copied().collect();
                        let used: Vec<f64> = mine
                            .iter()
                            .filter(|r| r.system == *system)
                            .map(|r| r.score)
                            .collect();
                        system_summary(system, &values, &used, 0, scale, options)
                    })
                    .collect();
                let comparisons = planned_comparisons(
                    plan,
                    options,
                    dimension,
                    &unit_means(plan, &mine, &means),
                    true,
                );
                let items = mine
                    .iter()
                    .map(|r| r.item.as_str())
                    .collect::<std::collections::HashSet<_>>()
                    .len();
                Some(GroupReport {
                    grouping: None,
                    group: group.to_owned(),
                    items,
                    systems,
                    comparisons,
                })
            })
            .collect()
    }
}
