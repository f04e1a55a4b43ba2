//! The tables of the answers: output questions per system, flags, the flag's rule broken,
//! intake and exit surveys.

use super::super::fmt::{fixed, p_value, percent, percent_ci};
use super::{Doc, Table, Text, numbers, text};
use crate::analysis::answers::{AnswersReport, QuestionSummary};

pub(super) fn answers(doc: &mut Doc, a: &AnswersReport) {
    questions(doc, "Output questions", &a.output_questions);
    if !a.flags.is_empty() {
        doc.section(2, "Flags");
        let mut table = Table::new(
            "Outputs flagged per system",
            vec![
                text("System"),
                numbers("Flagged"),
                numbers("Shown"),
                numbers("Share"),
                text("Wilson 95%"),
            ],
        );
        for f in &a.flags {
            table.rows.push(vec![
                Text::input(&f.system),
                f.count.to_string().into(),
                f.of.to_string().into(),
                percent(f.share).into(),
                percent_ci(f.wilson).into(),
            ]);
        }
        doc.table(table);
    }
    if !a.flag_rule_violations.is_empty() {
        doc.paragraph(format!(
            "{} rating(s) of flagged outputs break the flag's rule:",
            a.flag_rule_violations.len()
        ));
        let mut table = Table::new(
            "Ratings of flagged outputs that break the flag's rule",
            vec![
                text("Annotator"),
                text("Item"),
                text("System"),
                text("Dimension"),
                numbers("Score"),
                numbers("Required"),
            ],
        );
        for v in &a.flag_rule_violations {
            table.rows.push(vec![
                Text::input(&v.annotator),
                Text::input(&v.item),
                Text::input(&v.system),
                Text::input(&v.dimension),
                v.score.to_string().into(),
                v.required.to_string().into(),
            ]);
        }
        doc.table(table);
    }
    questions(doc, "Intake survey", &a.intake);
    questions(doc, "Exit survey", &a.exit);
    if a.notes + a.explanations > 0 {
        doc.paragraph(format!(
            "{} note(s) and {} reason(s) for preferences were written; they are in the answers CSV.",
            a.notes, a.explanations
        ));
    }
}

/// The written answers to one survey question the Markdown shows (the JSON has all).
const WRITTEN_SHOWN: usize = 50;

/// A section of questions, each with its options, numbers, paired test and ranking.
fn questions(doc: &mut Doc, title: &str, list: &[QuestionSummary]) {
    if list.is_empty() {
        return;
    }
    doc.section(2, title);
    for q in list {
        doc.section(
            3,
            // The question as asked, its id after it (UX walkthrough 2026-12-01, finding 21).
            Text::input(match &q.prompt {
                Some(prompt) => format!("{prompt} ({})", q.question),
                None => q.question.clone(),
            })
            .and(if q.cannot_judge > 0 {
                format!(
                    " ({}, {} answer(s), {} \"Cannot judge\" in no share or mean)",
                    q.kind, q.answers, q.cannot_judge
                )
            } else {
                format!(" ({}, {} answer(s))", q.kind, q.answers)
            }),
        );
        question(doc, q);
    }
}

fn question(doc: &mut Doc, q: &QuestionSummary) {
    // A survey's answers have no system: no System column then.
    let per_system = q.options.iter().any(|o| o.system.is_some())
        || q.numbers.iter().any(|n| n.system.is_some());
    let with_system = |columns: Vec<_>| {
        let mut all = if per_system {
            vec![text("System")]
        } else {
            Vec::new()
        };
        all.extend(columns);
        all
    };
    let system = |s: &Option<String>| s.as_deref().map(Text::input);
    if !q.options.is_empty() {
        let mut table = Table::new(
            format!("Answers to {}", q.question),
            with_system(vec![
                text("Option"),
                numbers("Count"),
                numbers("Of"),
                numbers("Share"),
                text("Wilson 95%"),
            ]),
        );
        for o in &q.options {
            let mut row: Vec<Text> = system(&o.system).into_iter().collect();
            row.extend([
                Text::input(&o.option),
                o.count.to_string().into(),
                o.of.to_string().into(),
                percent(o.share).into(),
                percent_ci(o.wilson).into(),
            ]);
            table.rows.push(row);
        }
        doc.table(table);
    }
    if !q.numbers.is_empty() {
        let mut table = Table::new(
            format!("Answers to {}", q.question),
            with_system(vec![
                numbers("n"),
                numbers("Mean"),
                numbers("SD"),
                numbers("Median"),
            ]),
        );
        for n in &q.numbers {
            let mut row: Vec<Text> = system(&n.system).into_iter().collect();
            row.extend([
                n.n.to_string().into(),
                format!("{:.2}", n.mean).into(),
                fixed(n.sd, 2).into(),
                n.median.to_string().into(),
            ]);
            table.rows.push(row);
        }
        doc.table(table);
    }
    if let Some(t) = &q.paired_test {
        doc.paragraph(Text::plain("Share of \"").and_input(&t.option).and(format!(
            "\" across systems, paired on {} (annotator, item) cell(s): {} {}, p {}.{}",
            t.blocks,
            if t.test == "mcnemar" {
                "exact McNemar, smaller discordant count"
            } else {
                "Cochran's Q"
            },
            fixed(t.statistic, 2),
            p_value(t.p_value),
            t.note.as_ref().map_or(String::new(), |n| format!(" {n}."))
        )));
    }
    if let Some(r) = &q.ranking {
        let mut table = Table::new(
            format!("Rankings in {}", q.question),
            vec![text("System"), numbers("Rankings"), numbers("Mean rank")],
        );
        for s in &r.systems {
            table.rows.push(vec![
                Text::input(&s.system),
                s.n.to_string().into(),
                format!("{:.2}", s.mean_rank).into(),
            ]);
        }
        doc.table(table);
        if let Some(f) = r.friedman {
            doc.paragraph(format!(
                "Friedman χ² = {:.2} (df {}), p {:.3}; Kendall's W = {:.3}.",
                f.statistic, f.df, f.p_value, f.kendall_w
            ));
        }
    }
    if !q.written.is_empty() {
        let mut table = Table::new(
            format!("Written answers to {}", q.question),
            vec![text("Annotator"), text("Answer")],
        );
        for w in q.written.iter().take(WRITTEN_SHOWN) {
            table
                .rows
                .push(vec![Text::input(&w.annotator), Text::input(&w.text)]);
        }
        doc.table(table);
        if q.written.len() > WRITTEN_SHOWN {
            doc.paragraph(format!(
                "The first {WRITTEN_SHOWN} of {} are shown; all are in the JSON report and the answers CSV.",
                q.written.len()
            ));
        }
    } else if q.kind == "text" {
        doc.paragraph("The texts are in the answers CSV.");
    }
}
