//! Error spans (ESA, MQM): per system the errors marked by severity and category, the MQM
//! score, and how far annotators agree on where the errors are.
//!
//! The rows are [`SpanRow`]s: per output and annotator who saw it, one row per error, or one
//! row for "no errors". From them:
//! - the **MQM score** of an output by one annotator is Σ weight(severity) over its errors
//!   (errors of the whole output included; weights minor 1, major 5, critical 25 unless the
//!   plan's `mqm_weights` says otherwise), 0 for "no errors". [`mqm_rows`] writes these as
//!   ratings of a derived dimension `mqm`, which the report summarises and compares like any
//!   dimension: per item and system the mean over annotators, per system the mean over items
//!   with its 95% t interval, and the plan's paired comparisons on the item means (lower is
//!   better);
//! - errors by severity and by category per system: counts, and per annotated output (count ÷
//!   (outputs × annotators who saw them));
//! - **span agreement** ([`crate::stats::spans`]): character-level F1 between annotators,
//!   averaged over pairs and outputs where either marked something, and Krippendorff's nominal
//!   α over characters labelled none, minor, major or critical, pooled over the study.

use std::collections::BTreeMap;

use serde::Serialize;

use super::data::{Name, RatingRow, SpanRow};
use crate::stats::spans::{self, Annotated};
use crate::study::Severity;
use crate::study::analysis_plan::MqmWeights;

/// The name of the derived dimension of MQM scores.
pub const MQM: &str = "mqm";

/// The error spans of a report.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct SpansReport {
    /// The weight of each severity in the MQM score.
    pub weights: Weights,
    /// Outputs (item, system) with marks.
    pub outputs: usize,
    /// Outputs × annotators who saw them (each with its errors, or "no errors").
    pub annotations: usize,
    pub annotators: usize,
    /// Per system, in byte order.
    pub systems: Vec<SpanSystem>,
    /// Character-level F1 between annotators.
    pub f1: F1Report,
    /// Krippendorff's nominal alpha over characters.
    pub alpha: AlphaReport,
    /// Outputs seen by two or more annotators with their mean pairwise F1, lowest first (outputs
    /// where no pair counts, `f1` null, last): where to read the disagreements.
    pub outputs_by_f1: Vec<OutputAgreement>,
}

/// The MQM weights used.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, schemars::JsonSchema)]
pub struct Weights {
    pub minor: f64,
    pub major: f64,
    pub critical: f64,
}

/// One system's errors.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct SpanSystem {
    pub system: String,
    /// Its MQM score over items (the `mqm` dimension's summary); lower is better.
    pub mqm: Option<MqmSummary>,
    /// Its outputs × the annotators who saw them.
    pub annotations: usize,
    /// Errors marked, spans of text and errors of the whole output.
    pub errors: usize,
    /// Of them, errors of the whole output.
    pub whole_output: usize,
    /// Annotations that found no errors.
    pub no_errors: usize,
    /// Errors per severity (each severity used in the data), least severe first.
    pub severities: Vec<Count>,
    /// Errors per category, in byte order (absent when no error has a category).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub categories: Vec<Count>,
}

/// A system's MQM score: the mean over items of the mean over annotators of each output's
/// weighted error count.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, schemars::JsonSchema)]
pub struct MqmSummary {
    pub mean: f64,
    /// The 95% t interval of the mean over items; `null` with one item.
    pub ci95: Option<super::data::Ci>,
    /// Items.
    pub n: usize,
}

/// How many errors of one kind, and per annotated output.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct Count {
    /// The severity or the category.
    pub name: String,
    pub count: usize,
    /// count ÷ the system's annotations.
    pub per_output: f64,
}

/// Character-level F1.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, schemars::JsonSchema)]
pub struct F1Report {
    /// Mean over (output, pair of annotators) where either marked a character; `null` when none.
    pub value: Option<f64>,
    /// Pairs averaged.
    pub pairs: usize,
    /// Outputs they are of.
    pub outputs: usize,
}

/// Krippendorff's nominal alpha over characters.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, schemars::JsonSchema)]
pub struct AlphaReport {
    /// `null` when no character has two annotators or every label is the same.
    pub value: Option<f64>,
    /// Characters (units) labelled by two or more annotators.
    pub characters: usize,
    /// Outputs they are of.
    pub outputs: usize,
}

/// One output's agreement.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct OutputAgreement {
    pub item: String,
    pub system: String,
    /// Annotators who saw it.
    pub annotators: usize,
    /// Mean F1 of its pairs where either marked a character.
    pub f1: Option<f64>,
    pub pairs: usize,
}

/// The rows of one output by one annotator.
type Annotations<'a> = BTreeMap<(&'a str, &'a str), BTreeMap<&'a str, Vec<&'a SpanRow>>>;

fn annotations(rows: &[SpanRow]) -> Annotations<'_> {
    let mut out: Annotations = BTreeMap::new();
    for r in rows {
        out.entry((r.item.as_str(), r.system.as_str()))
            .or_default()
            .entry(r.annotator.as_str())
            .or_default()
            .push(r);
    }
    out
}

/// The MQM score of each output by each annotator, as ratings of the dimension [`MQM`] (one
/// per item, system and annotator; its place is the output's first row).
pub fn mqm_rows(rows: &[SpanRow], weights: &MqmWeights) -> Vec<RatingRow> {
    let mut out = Vec::new();
    let dimension = Name::from(MQM);
    for by in annotations(rows).values() {
        for marks in by.values() {
            let first = marks[0];
            let score = spans::mqm(
                marks
                    .iter()
                    .filter_map(|r| r.severity)
                    .map(|s| weights.weight(s)),
            );
            out.push(RatingRow {
                source: first.source.clone(),
                item: first.item.clone(),
                system: first.system.clone(),
                annotator: first.annotator.clone(),
                dimension: dimension.clone(),
                score,
                round: None,
                position: None,
                run: None,
                confidence: None,
            });
        }
    }
    out
}

/// The severity's label in the agreement over characters.
fn label(severity: Severity) -> u8 {
    match severity {
        Severity::Minor => 1,
        Severity::Major => 2,
        Severity::Critical => 3,
    }
}

/// The outputs as [`Annotated`] for the agreement statistics, with their (item, system), in
/// byte order; an output's length is its first row's.
pub fn annotated(rows: &[SpanRow]) -> Vec<((String, String), Annotated)> {
    annotations(rows)
        .into_iter()
        .map(|((item, system), by)| {
            let length = by.values().next().map_or(0, |m| m[0].length);
            let marks = by
                .values()
                .map(|m| {
                    m.iter()
                        .filter_map(|r| Some((r.start?, r.end?, label(r.severity?))))
                        .collect()
                })
                .collect();
            (
                (item.to_owned(), system.to_owned()),
                Annotated { length, marks },
            )
        })
        .collect()
}

/// The spans section, without the MQM summaries (the report fills them from the `mqm`
/// dimension); `None` without span rows.
pub fn report(rows: &[SpanRow], weights: &MqmWeights) -> Option<SpansReport> {
    if rows.is_empty() {
        return None;
    }
    let by_output = annotations(rows);
    let mut systems: BTreeMap<&str, SpanSystem> = BTreeMap::new();
    type Kinds<'a> = (BTreeMap<Severity, usize>, BTreeMap<&'a str, usize>);
    let mut kinds: BTreeMap<&str, Kinds> = BTreeMap::new();
    let mut annotators: Vec<&str> = Vec::new();
    let mut total = 0;
    for ((_, system), by) in &by_output {
        let s = systems.entry(system).or_insert_with(|| SpanSystem {
            system: (*system).to_owned(),
            mqm: None,
            annotations: 0,
            errors: 0,
            whole_output: 0,
            no_errors: 0,
            severities: Vec::new(),
            categories: Vec::new(),
        });
        let (severities, categories) = kinds.entry(system).or_default();
        for (annotator, marks) in by {
            annotators.push(annotator);
            total += 1;
            s.annotations += 1;
            let errors: Vec<&&SpanRow> = marks.iter().filter(|r| r.severity.is_some()).collect();
            if errors.is_empty() {
                s.no_errors += 1;
            }
            for r in errors {
                s.errors += 1;
                s.whole_output += usize::from(r.range().is_none());
                if let Some(sev) = r.severity {
                    *severities.entry(sev).or_default() += 1;
                }
                if let Some(c) = &r.category {
                    *categories.entry(c).or_default() += 1;
                }
            }
        }
    }
    for (system, s) in &mut systems {
        if let Some((severities, categories)) = kinds.remove(system) {
            add_counts(
                &mut s.severities,
                severities.into_iter().map(|(k, n)| (k.name(), n)),
            );
            add_counts(&mut s.categories, categories);
        }
        let n = s.annotations as f64;
        for c in s.severities.iter_mut().chain(s.categories.iter_mut()) {
            c.per_output = c.count as f64 / n;
        }
    }
    annotators.sort_unstable();
    annotators.dedup();
    let outputs = annotated(rows);
    let list: Vec<Annotated> = outputs.iter().map(|(_, a)| a.clone()).collect();
    let f1 = spans::span_f1(&list);
    let alpha = spans::char_alpha(&list);
    let mut outputs_by_f1: Vec<OutputAgreement> = outputs
        .iter()
        .zip(&f1.per_output)
        .filter(|((_, a), _)| a.marks.len() >= 2)
        .map(|(((item, system), a), f)| OutputAgreement {
            item: item.clone(),
            system: system.clone(),
            annotators: a.marks.len(),
            f1: f.map(|(v, _)| v),
            pairs: f.map_or(0, |(_, k)| k),
        })
        .collect();
    outputs_by_f1.sort_by(|x, y| match (x.f1, y.f1) {
        (Some(a), Some(b)) => a.total_cmp(&b),
        (Some(_), None) => std::cmp::Ordering::Less,
        (None, Some(_)) => std::cmp::Ordering::Greater,
        (None, None) => std::cmp::Ordering::Equal,
    });
    Some(SpansReport {
        weights: Weights {
            minor: weights.weight(Severity::Minor),
            major: weights.weight(Severity::Major),
            critical: weights.weight(Severity::Critical),
        },
        outputs: by_output.len(),
        annotations: total,
        annotators: annotators.len(),
        systems: systems.into_values().collect(),
        f1: F1Report {
            value: f1.value,
            pairs: f1.pairs,
            outputs: f1.outputs,
        },
        alpha: AlphaReport {
            value: alpha.value,
            characters: alpha.characters,
            outputs: alpha.outputs,
        },
        outputs_by_f1,
    })
}

fn add_counts<'a>(into: &mut Vec<Count>, counts: impl IntoIterator<Item = (&'a str, usize)>) {
    for (name, count) in counts {
        into.push(Count {
            name: name.to_owned(),
            count,
            per_output: 0.0,
        });
    }
}

/// A piece of an output's text, as one annotator marked it: plain, or inside a span with its
/// severity and category.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Piece {
    pub text: String,
    /// The span covering the piece: its severity and category.
    pub mark: Option<(Severity, Option<String>)>,
}

/// An output's text cut at one annotator's spans (offsets in code points, clipped to the text;
/// spans in text order, an overlap's later part plain), for a page to show who marked what.
pub fn pieces(text: &str, marks: &[&SpanRow]) -> Vec<Piece> {
    let chars: Vec<char> = text.chars().collect();
    let n = chars.len();
    let mut spans: Vec<(usize, usize, Severity, Option<String>)> = marks
        .iter()
        .filter_map(|r| {
            let (s, e) = r.range()?;
            Some((s as usize, e as usize, r.severity?, r.category.clone()))
        })
        .collect();
    spans.sort_by_key(|s| (s.0, s.1));
    let mut out = Vec::new();
    let mut at = 0;
    let piece = |from: usize, to: usize| chars[from..to].iter().collect::<String>();
    for (start, end, severity, category) in spans {
        let (start, end) = (start.max(at).min(n), end.min(n));
        if start >= end {
            continue;
        }
        if start > at {
            out.push(Piece {
                text: piece(at, start),
                mark: None,
            });
        }
        out.push(Piece {
            text: piece(start, end),
            mark: Some((severity, category)),
        });
        at = end;
    }
    if at < n {
        out.push(Piece {
            text: piece(at, n),
            mark: None,
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::data::{At, Source};

    fn row(start: Option<u32>, end: Option<u32>, severity: Option<Severity>) -> SpanRow {
        SpanRow {
            source: Source {
                file: Name::from("f"),
                at: At::Line(2),
                input: 0,
            },
            item: Name::from("i"),
            system: Name::from("s"),
            annotator: Name::from("a"),
            start,
            end,
            severity,
            category: None,
            length: 9,
        }
    }

    #[test]
    fn the_text_is_cut_at_the_spans_in_code_points() {
        let text = "héllo wörld";
        let a = row(Some(1), Some(4), Some(Severity::Major));
        let b = row(Some(6), Some(20), Some(Severity::Minor));
        let whole = row(None, None, Some(Severity::Major));
        let got = pieces(text, &[&b, &whole, &a]);
        let texts: Vec<&str> = got.iter().map(|p| p.text.as_str()).collect();
        assert_eq!(texts, ["h", "éll", "o ", "wörld"]);
        assert_eq!(got[1].mark, Some((Severity::Major, None)));
        assert_eq!(got[2].mark, None);
        assert_eq!(
            pieces(text, &[&row(None, None, None)]),
            vec![Piece {
                text: text.to_owned(),
                mark: None
            }]
        );
    }
}
