//! The figure of the report's "Error spans" section on the Analyse page (its tables come from
//! the core's table model): when the study is loaded so the outputs' texts are known, each
//! output's text once per annotator with their spans over it, the outputs of lowest pairwise F1
//! first, so that a researcher can read where annotators disagree.
//!
//! A span shows its severity by a pattern (dotted, solid or double underline; hatching for
//! major and critical, bold for critical; `style/main.css`, `.who-minor` …) and a label in words
//! after its text, never by colour alone.

use std::collections::BTreeMap;

use juror_core::analysis::SpanRow;
use juror_core::analysis::render::fmt::num;
use juror_core::analysis::run::Analysis;
use juror_core::analysis::spans::{OutputAgreement, SpansReport, pieces};
use juror_core::base::visible;
use juror_core::study::Severity;
use leptos::prelude::*;

/// Outputs shown with their texts (all are in the JSON report).
const OUTPUTS_SHOWN: usize = 20;

/// The class of a span of a severity (`style/main.css`): a pattern (dotted, solid or double
/// underline; hatching for major and critical, bold for critical), the same in every colour
/// scheme.
fn class(severity: Severity) -> &'static str {
    match severity {
        Severity::Minor => "who-minor",
        Severity::Major => "who-major",
        Severity::Critical => "who-critical",
    }
}

/// The label after a span: its severity, and its category when it has one.
fn label(severity: Severity, category: Option<&str>) -> String {
    match category {
        Some(c) => format!("[{}: {}]", severity.name(), visible::escape(c)),
        None => format!("[{}]", severity.name()),
    }
}

/// The outputs' texts with every annotator's spans (with the study), or a hint to load it.
pub fn span_texts(spans: &SpansReport, analysis: &Analysis) -> AnyView {
    let rows = &analysis.data.spans;
    match &analysis.study {
        None => view! {
            <p class="hint">
                "Give the study (step 1) to read each output's text with every annotator's spans \
                 over it."
            </p>
        }
        .into_any(),
        Some(_) => {
            let shown: Vec<OutputAgreement> = spans
                .outputs_by_f1
                .iter()
                .take(OUTPUTS_SHOWN)
                .cloned()
                .collect();
            let views = shown
                .into_iter()
                .enumerate()
                .filter_map(|(k, o)| output_view(k, &o, rows, analysis))
                .collect::<Vec<_>>();
            if views.is_empty() {
                view! {
                    <p class="hint">
                        "No output was marked by two or more annotators, or the study given does \
                         not hold their texts (a published study needs its key too)."
                    </p>
                }
                .into_any()
            } else {
                view! {
                    <h4 id="span-disagreements-heading">"Who marked what"</h4>
                    <p class="hint">
                        "Each output's text once per annotator, with the spans they marked: \
                         minor dotted and unshaded, major underlined and hatched, critical \
                         double-underlined, hatched and bold, each followed by its \
                         severity in brackets. The outputs where annotators agree least \
                         (lowest pairwise F1) come first."
                    </p>
                    {views}
                }
                .into_any()
            }
        }
    }
}

/// One output: its heading (item, system, F1), and a line per annotator who saw it.
fn output_view(
    k: usize,
    o: &OutputAgreement,
    rows: &[SpanRow],
    analysis: &Analysis,
) -> Option<AnyView> {
    // A published study's outputs are under tokens: the key says which is this system's.
    let text = analysis.output_text(&o.item, &o.system)?.clone();
    let mut by: BTreeMap<&str, Vec<&SpanRow>> = BTreeMap::new();
    for r in rows
        .iter()
        .filter(|r| r.item.as_str() == o.item && r.system.as_str() == o.system)
    {
        by.entry(r.annotator.as_str()).or_default().push(r);
    }
    let (id, labelled_by) = (format!("span-output-{k}"), format!("span-output-{k}"));
    let heading = format!(
        "Item {}, system {}: F1 {} ({} pair(s))",
        visible::escape(&o.item),
        visible::escape(&o.system),
        num(o.f1, 2),
        o.pairs
    );
    let lines = by
        .into_iter()
        .map(|(annotator, marks)| line(annotator, &text.plain(), &marks))
        .collect_view();
    Some(
        view! {
            <section class="span-output" aria-labelledby=labelled_by>
                <h5 id=id>{heading}</h5>
                <ul>{lines}</ul>
            </section>
        }
        .into_any(),
    )
}

/// One annotator's line: who, the text with their spans, then their errors of the whole
/// output, or "no errors".
fn line(annotator: &str, text: &str, marks: &[&SpanRow]) -> AnyView {
    let pieces = pieces(text, marks)
        .into_iter()
        .map(|p| match p.mark {
            None => view! { <span>{visible::escape(&p.text).into_owned()}</span> }.into_any(),
            Some((severity, category)) => view! {
                <mark class=class(severity)>
                    {visible::escape(&p.text).into_owned()}
                    <small>{format!(" {}", label(severity, category.as_deref()))}</small>
                </mark>
            }
            .into_any(),
        })
        .collect_view();
    let whole: Vec<String> = marks
        .iter()
        .filter(|r| r.range().is_none())
        .filter_map(|r| Some(label(r.severity?, r.category.as_deref())))
        .collect();
    let errors = marks.iter().filter(|r| r.severity.is_some()).count();
    let after = if errors == 0 {
        "No errors.".to_owned()
    } else if whole.is_empty() {
        format!("{errors} error(s).")
    } else {
        format!(
            "{errors} error(s); of the whole output: {}.",
            whole.join(", ")
        )
    };
    view! {
        <li>
            <strong>{format!("{}: ", visible::escape(annotator))}</strong>
            <span>{pieces}</span>
            " "
            <em>{after}</em>
        </li>
    }
    .into_any()
}
