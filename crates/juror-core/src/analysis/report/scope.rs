//! A plan's confirmatory scope (`analysis.confirmatory`): the confirmatory analysis (the
//! dimensions, the error spans, choices and preferences, the hypotheses, the thresholds and the
//! corrected family) is on the items of one value of one grouping; each other value of the
//! grouping is reported apart as a secondary analysis on its own items: the same systems,
//! comparisons, ratings over rounds, hypotheses and thresholds, exploratory and never
//! corrected. The answers to questions and surveys and the diagnostics keep every item. The
//! cells of a secondary analysis to adjudicate join the dimension's own list, so one
//! adjudication sheet covers every item.

use std::collections::HashMap;

use serde::Serialize;

use super::{
    DimensionReport, HypothesisTest, Options, Rows, ThresholdReport, dimension_report, hypotheses,
    thresholds,
};
use crate::analysis::adjudication::Adjudication;
use crate::analysis::data::{Data, Problem, RatingRow};
use crate::analysis::overrides::AnalysisPlan;
use crate::study::Study;
use crate::study::analysis_plan::Scope;

/// The plan's confirmatory scope as applied.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct ScopeReport {
    /// The grouping: a name of the items' `groups`, or `group` for the items' `group`.
    pub grouping: String,
    /// The value whose items the confirmatory analysis is on.
    pub group: String,
    /// The study's items in scope.
    pub items: usize,
    /// Ratings in scope, over all dimensions.
    pub ratings: usize,
    /// The study's items with no value of the grouping: in neither the confirmatory nor a
    /// secondary analysis (the answers and the diagnostics keep them).
    pub ungrouped: usize,
    /// Each other value of the grouping, in order of first appearance among the items.
    pub secondary: Vec<SecondaryReport>,
}

/// One other value of the grouping: the plan's analysis on its items alone, exploratory.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct SecondaryReport {
    pub group: String,
    /// The study's items with this value.
    pub items: usize,
    /// Their ratings, over all dimensions.
    pub ratings: usize,
    /// Each dimension rated on these items: systems, agreement, the plan's comparisons and
    /// contrasts (all `exploratory`; `p_holm`, `p_bonferroni` and `p_adjusted` `null`: not in
    /// the corrected family) and the ratings over rounds. Their cells to adjudicate are listed
    /// with the confirmatory dimension's (`flags` is empty here).
    pub dimensions: Vec<DimensionReport>,
    /// The plan's slopes and preferences on these items, not corrected (`corrected` false,
    /// `p_adjusted` the p-value itself).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub hypotheses: Vec<HypothesisTest>,
    /// The plan's success criteria on these items.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub thresholds: Vec<ThresholdReport>,
}

/// The items of each value of the scope's grouping.
pub(super) struct Scoping<'a> {
    scope: &'a Scope,
    /// Each item's value of the grouping.
    of: HashMap<&'a str, &'a str>,
    /// The values, in order of first appearance among the items.
    values: Vec<&'a str>,
    ungrouped: usize,
}

/// What a secondary analysis is computed with, besides its data.
pub(super) struct Context<'a> {
    pub study: Option<&'a Study>,
    pub adjudication: Option<&'a Adjudication>,
    pub options: &'a Options,
    pub plan: &'a AnalysisPlan,
}

impl<'a> Scoping<'a> {
    /// The plan's scope over the study's items; `None` without a scope, or with a problem
    /// saying why every item is analysed together (no study to read the items' groups from,
    /// no item with the value).
    pub(super) fn new(
        plan: &'a AnalysisPlan,
        study: Option<&'a Study>,
        problems: &mut Vec<Problem>,
    ) -> Option<Scoping<'a>> {
        let scope = plan.confirmatory.as_ref()?;
        let wanted = format!("{} \"{}\"", scope.grouping, scope.group);
        let Some(study) = study else {
            problems.push(Problem::new(
                "analysis",
                Some("confirmatory".to_owned()),
                format!(
                    "the plan's confirmatory analysis is on the items with {wanted}, but the \
                     items' groups are in the study: give the study (--study); every item was \
                     analysed together"
                ),
            ));
            return None;
        };
        let mut of = HashMap::new();
        let mut values: Vec<&str> = Vec::new();
        let mut ungrouped = 0;
        for item in study.items() {
            match item.grouping(&scope.grouping) {
                Some(v) => {
                    of.insert(item.id.as_str(), v);
                    if !values.contains(&v) {
                        values.push(v);
                    }
                }
                None => ungrouped += 1,
            }
        }
        if !values.contains(&scope.group.as_str()) {
            problems.push(Problem::new(
                "analysis",
                Some("confirmatory".to_owned()),
                format!(
                    "no item of the study has {wanted}, the plan's confirmatory scope; every item \
                     was analysed together"
                ),
            ));
            return None;
        }
        Some(Scoping {
            scope,
            of,
            values,
            ungrouped,
        })
    }

    /// The judgements of the items in scope (all the answers and trials).
    pub(super) fn in_scope(&self, all: &Data) -> Data {
        self.data(all, &self.scope.group)
    }

    /// The judgements of the items whose value is `value`.
    fn data(&self, all: &Data, value: &str) -> Data {
        let keep = |item: &str| self.of.get(item) == Some(&value);
        Data {
            ratings: all
                .ratings
                .iter()
                .filter(|r| keep(r.item.as_str()))
                .cloned()
                .collect(),
            preferences: all
                .preferences
                .iter()
                .filter(|r| keep(r.item.as_str()))
                .cloned()
                .collect(),
            choices: all
                .choices
                .iter()
                .filter(|r| keep(&r.item))
                .cloned()
                .collect(),
            spans: all
                .spans
                .iter()
                .filter(|r| keep(r.item.as_str()))
                .cloned()
                .collect(),
            skips: all
                .skips
                .iter()
                .filter(|r| keep(r.item.as_str()))
                .cloned()
                .collect(),
            answers: all.answers.clone(),
            trials: Vec::new(),
            repeats: Vec::new(),
            files: Vec::new(),
            problems: Vec::new(),
            platform_ids: all.platform_ids,
        }
    }

    /// The scope's report: each other value's secondary analysis, whose cells to adjudicate
    /// join `dimensions`' lists (the confirmatory dimensions, named `names`).
    pub(super) fn report(
        self,
        all: &Data,
        dimensions: &mut [DimensionReport],
        names: &[String],
        context: Context<'_>,
    ) -> ScopeReport {
        let count = |value: &str| self.of.values().filter(|v| **v == value).count();
        let secondary: Vec<SecondaryReport> = self
            .values
            .iter()
            .filter(|v| **v != self.scope.group)
            .map(|&value| {
                let data = self.data(all, value);
                let mut report = secondary(&data, dimensions, names, &context);
                report.group = value.to_owned();
                report.items = count(value);
                report
            })
            .collect();
        for d in dimensions.iter_mut() {
            d.flags.sort_by(|x, y| {
                (x.item.as_str(), x.system.as_str()).cmp(&(y.item.as_str(), y.system.as_str()))
            });
        }
        ScopeReport {
            grouping: self.scope.grouping.clone(),
            group: self.scope.group.clone(),
            items: count(&self.scope.group),
            ratings: all
                .ratings
                .iter()
                .filter(|r| self.of.get(r.item.as_str()) == Some(&self.scope.group.as_str()))
                .count(),
            ungrouped: self.ungrouped,
            secondary,
        }
    }
}

/// The plan's analysis of `data` (one other value's items), exploratory and uncorrected; the
/// cells to adjudicate move to `dimensions`' lists.
fn secondary(
    data: &Data,
    dimensions: &mut [DimensionReport],
    names: &[String],
    context: &Context<'_>,
) -> SecondaryReport {
    let &Context {
        study,
        adjudication,
        options,
        plan,
    } = context;
    let mut out = Vec::new();
    for d in dimensions.iter_mut() {
        let rows: Vec<&RatingRow> = data
            .ratings
            .iter()
            .filter(|r| r.dimension == d.dimension)
            .collect();
        // The MQM scores are derived from the spans, not ratings; they stay confirmatory.
        if rows.is_empty() {
            continue;
        }
        let preferred = study.map(Study::systems).unwrap_or_default();
        let mut report = dimension_report(
            &d.dimension,
            d.scale.clone(),
            Rows::of(&rows, plan),
            adjudication,
            preferred,
            options,
            plan,
        );
        report.label = d.label.clone();
        for c in report
            .comparisons
            .iter_mut()
            .chain(report.contrasts.iter_mut())
        {
            c.exploratory = true;
        }
        d.flags.append(&mut report.flags);
        out.push(report);
    }
    let mut tests = hypotheses::hypotheses(data, plan, names);
    for t in &mut tests {
        t.corrected = false;
        t.exploratory = true;
        t.p_adjusted = t.p_value;
    }
    SecondaryReport {
        group: String::new(),
        items: 0,
        ratings: data.ratings.len(),
        dimensions: out,
        hypotheses: tests,
        thresholds: thresholds::thresholds(data, plan),
    }
}
