//! The secondary analyses of a plan with a confirmatory scope: per other value of the
//! grouping, each dimension's systems, comparisons and ratings over rounds, then the planned
//! tests and the success criteria, all on that value's items and said to be exploratory and
//! not corrected.

use super::dimension::{comparisons, heading, rounds, systems};
use super::others::{hypotheses_table, thresholds_table};
use super::{Doc, Text};
use crate::analysis::overrides::AnalysisPlan;
use crate::analysis::report::{ScopeReport, SecondaryReport};

/// Every secondary analysis of `scope`.
pub(super) fn secondary(doc: &mut Doc, scope: &ScopeReport, plan: &AnalysisPlan) {
    for s in &scope.secondary {
        one(doc, scope, s, plan);
    }
}

/// "domain study-plans", "group routing".
fn value(scope: &ScopeReport, group: &str) -> Text {
    Text::input(&scope.grouping).and(" ").and_input(group)
}

pub(super) fn one(doc: &mut Doc, scope: &ScopeReport, s: &SecondaryReport, plan: &AnalysisPlan) {
    let on = value(scope, &s.group);
    doc.section(
        2,
        Text::plain("Secondary analysis: items with ")
            .and_input(&scope.grouping)
            .and(" ")
            .and_input(&s.group),
    );
    doc.paragraph(
        Text::plain(format!(
            "{} item(s), {} rating(s). Exploratory: the plan's comparisons, hypotheses and \
             criteria on these items alone, outside the confirmatory analysis (items with ",
            s.items, s.ratings
        ))
        .and_input(&scope.grouping)
        .and(" ")
        .and_input(&scope.group)
        .and(") and not in its corrected family: p-values are not adjusted."),
    );
    for d in &s.dimensions {
        let name = format!("{} ({} {})", d.title(), scope.grouping, s.group);
        doc.section(3, heading(d).and(", secondary: ").and_input(on.as_string()));
        doc.table(systems(format!("Systems on {name}"), &d.systems));
        let of = |what: &str| {
            Text::plain(format!("{what} on "))
                .and_input(d.title())
                .and(", ")
                .and_input(on.as_string())
        };
        comparisons(doc, of("Comparisons"), None, &d.comparisons, plan);
        comparisons(doc, of("Contrasts"), None, &d.contrasts, plan);
        if let Some(r) = &d.rounds {
            rounds(doc, &name, r, None);
        }
    }
    if !s.hypotheses.is_empty() {
        doc.section(
            3,
            Text::plain("Planned tests of slopes and preferences, secondary: ")
                .and_input(on.as_string()),
        );
        hypotheses_table(doc, "not corrected (a secondary analysis)", &s.hypotheses);
    }
    if !s.thresholds.is_empty() {
        doc.section(
            3,
            Text::plain("Success criteria over participants, secondary: ")
                .and_input(on.as_string()),
        );
        thresholds_table(doc, &s.thresholds);
    }
}
