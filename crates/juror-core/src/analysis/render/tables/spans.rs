//! The error spans: per system the MQM score and the errors by severity and category, and a
//! sentence on span agreement.

use super::super::fmt::{ci, num};
use super::{Doc, Table, Text, numbers, text};
use crate::analysis::spans::SpansReport;

/// Outputs of the lowest F1 listed (all are in the JSON).
const OUTPUTS_SHOWN: usize = 10;

/// The "Error spans" section.
pub(super) fn spans(doc: &mut Doc, s: &SpansReport) {
    doc.section(2, "Error spans");
    doc.paragraph(format!(
        "{} output(s) marked by {} annotator(s), {} annotation(s) (an output as one annotator \
         saw it, with its errors or \"no errors\"). MQM weights: minor {}, major {}, critical \
         {}; an output's MQM score is the sum of its errors' weights, averaged over annotators, \
         then over items. Lower is better.",
        s.outputs,
        s.annotators,
        s.annotations,
        num(Some(s.weights.minor), 2),
        num(Some(s.weights.major), 2),
        num(Some(s.weights.critical), 2),
    ));
    let mut severities: Vec<&str> = Vec::new();
    for sys in &s.systems {
        for c in &sys.severities {
            if !severities.contains(&c.name.as_str()) {
                severities.push(&c.name);
            }
        }
    }
    severities.sort_by_key(|n| crate::study::Severity::parse(n));
    let mut columns = vec![
        text("System"),
        numbers("Items"),
        numbers("MQM"),
        text("95% CI"),
        numbers("Annotations"),
        numbers("Errors"),
        numbers("Whole output"),
        numbers("No errors"),
    ];
    for sev in &severities {
        columns.push(numbers(&format!("{sev} (per output)")));
    }
    let mut table = Table::new("MQM score and errors per system", columns);
    for sys in &s.systems {
        let mut row: Vec<Text> = vec![
            Text::input(&sys.system),
            sys.mqm.map_or(0, |m| m.n).to_string().into(),
            num(sys.mqm.map(|m| m.mean), 2).into(),
            ci(sys.mqm.and_then(|m| m.ci95), 2).into(),
            sys.annotations.to_string().into(),
            sys.errors.to_string().into(),
            sys.whole_output.to_string().into(),
            sys.no_errors.to_string().into(),
        ];
        for sev in &severities {
            let c = sys.severities.iter().find(|c| c.name == *sev);
            row.push(
                format!(
                    "{} ({})",
                    c.map_or(0, |c| c.count),
                    num(Some(c.map_or(0.0, |c| c.per_output)), 2)
                )
                .into(),
            );
        }
        table.rows.push(row);
    }
    doc.table(table);
    if s.systems.iter().any(|sys| !sys.categories.is_empty()) {
        let mut table = Table::new(
            "Errors per category",
            vec![
                text("System"),
                text("Category"),
                numbers("Errors"),
                numbers("Per output"),
            ],
        );
        for sys in &s.systems {
            for c in &sys.categories {
                table.rows.push(vec![
                    Text::input(&sys.system),
                    Text::input(&c.name),
                    c.count.to_string().into(),
                    num(Some(c.per_output), 2).into(),
                ]);
            }
        }
        doc.table(table);
    }
    doc.paragraph(format!(
        "Span agreement: character-level F1 {} over {} pair(s) of annotators on {} output(s) \
         where either marked a span; Krippendorff's α (nominal, characters labelled none, minor, \
         major or critical) {} over {} character(s) of {} output(s) seen by two or more \
         annotators.",
        num(s.f1.value, 3),
        s.f1.pairs,
        s.f1.outputs,
        num(s.alpha.value, 3),
        s.alpha.characters,
        s.alpha.outputs,
    ));
    let low: Vec<_> = s
        .outputs_by_f1
        .iter()
        .filter(|o| o.f1.is_some())
        .take(OUTPUTS_SHOWN)
        .collect();
    if !low.is_empty() {
        let mut table = Table::new(
            "Outputs with the lowest span agreement",
            vec![
                text("Item"),
                text("System"),
                numbers("Annotators"),
                numbers("Pairs"),
                numbers("F1"),
            ],
        );
        for o in low {
            table.rows.push(vec![
                Text::input(&o.item),
                Text::input(&o.system),
                o.annotators.to_string().into(),
                o.pairs.to_string().into(),
                num(o.f1, 3).into(),
            ]);
        }
        doc.table(table);
    }
}
