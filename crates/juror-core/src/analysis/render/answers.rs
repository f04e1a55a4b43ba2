//! The answers section of the Markdown report: output questions, flags, surveys.

use crate::analysis::answers::{AnswersReport, QuestionSummary};
use crate::analysis::data::Ci;

impl AnswersReport {
    /// The report as Markdown sections.
    pub fn to_markdown(&self) -> String {
        answers(self)
    }
}

/// The answers as Markdown sections.
pub(super) fn answers(a: &AnswersReport) -> String {
    use std::fmt::Write as _;
    let mut out = String::new();
    let pct = |x: Option<f64>| x.map_or("–".to_owned(), |x| format!("{:.1}%", 100.0 * x));
    let ci = |c: Option<Ci>| {
        c.map_or("–".to_owned(), |c| {
            format!("[{:.1}%, {:.1}%]", 100.0 * c.low, 100.0 * c.high)
        })
    };
    let cell = super::markdown::cell;
    let section = |out: &mut String, title: &str, list: &[QuestionSummary]| {
        if list.is_empty() {
            return;
        }
        let _ = writeln!(out, "## {title}\n");
        for q in list {
            let _ = writeln!(
                out,
                "### {} ({}, {} answer(s))\n",
                cell(&q.question),
                q.kind,
                q.answers
            );
            // A survey's answers have no system: no System column then.
            let per_system = q.options.iter().any(|o| o.system.is_some())
                || q.numbers.iter().any(|n| n.system.is_some());
            let system = |s: &Option<String>| {
                s.as_deref()
                    .map_or(String::new(), |s| format!("| {} ", cell(s)))
            };
            let (head, rule) = if per_system {
                ("| System ", "|---")
            } else {
                ("", "")
            };
            if !q.options.is_empty() {
                let _ = writeln!(
                    out,
                    "{head}| Option | Count | Of | Share | Wilson 95% |\n{rule}|---|---:|---:|---:|---|"
                );
                for o in &q.options {
                    let _ = writeln!(
                        out,
                        "{}| {} | {} | {} | {} | {} |",
                        system(&o.system),
                        cell(&o.option),
                        o.count,
                        o.of,
                        pct(o.share),
                        ci(o.wilson)
                    );
                }
                out.push('\n');
            }
            if !q.numbers.is_empty() {
                let _ = writeln!(
                    out,
                    "{head}| n | Mean | SD | Median |\n{rule}|---:|---:|---:|---:|"
                );
                for n in &q.numbers {
                    let _ = writeln!(
                        out,
                        "{}| {} | {:.2} | {} | {} |",
                        system(&n.system),
                        n.n,
                        n.mean,
                        n.sd.map_or("–".to_owned(), |s| format!("{s:.2}")),
                        n.median
                    );
                }
                out.push('\n');
            }
            if let Some(t) = &q.paired_test {
                let _ = writeln!(
                    out,
                    "Share of \"{}\" across systems, paired on {} (annotator, item) cell(s): {} {}, p {}.{}\n",
                    cell(&t.option),
                    t.blocks,
                    if t.test == "mcnemar" {
                        "exact McNemar, smaller discordant count"
                    } else {
                        "Cochran's Q"
                    },
                    t.statistic.map_or("–".to_owned(), |s| format!("{s:.2}")),
                    t.p_value.map_or("–".to_owned(), |p| if p < 0.001 {
                        "< 0.001".to_owned()
                    } else {
                        format!("{p:.3}")
                    }),
                    t.note.as_ref().map_or(String::new(), |n| format!(" {n}."))
                );
            }
            if let Some(r) = &q.ranking {
                out.push_str("| System | Rankings | Mean rank |\n|---|---:|---:|\n");
                for s in &r.systems {
                    let _ = writeln!(
                        out,
                        "| {} | {} | {:.2} |",
                        cell(&s.system),
                        s.n,
                        s.mean_rank
                    );
                }
                out.push('\n');
                if let Some(f) = r.friedman {
                    let _ = writeln!(
                        out,
                        "Friedman χ² = {:.2} (df {}), p {:.3}; Kendall's W = {:.3}.\n",
                        f.statistic, f.df, f.p_value, f.kendall_w
                    );
                }
            }
            if q.kind == "text" {
                out.push_str("The texts are in the answers CSV.\n\n");
            }
        }
    };
    section(&mut out, "Output questions", &a.output_questions);
    if !a.flags.is_empty() {
        out.push_str("## Flags\n\n| System | Flagged | Shown | Share | Wilson 95% |\n|---|---:|---:|---:|---|\n");
        for f in &a.flags {
            let _ = writeln!(
                out,
                "| {} | {} | {} | {} | {} |",
                cell(&f.system),
                f.count,
                f.of,
                pct(f.share),
                ci(f.wilson)
            );
        }
        out.push('\n');
    }
    if !a.flag_rule_violations.is_empty() {
        let _ = writeln!(
            out,
            "{} rating(s) of flagged outputs break the flag's rule:\n\n\
             | Annotator | Item | System | Dimension | Score | Required |\n|---|---|---|---|---:|---:|",
            a.flag_rule_violations.len()
        );
        for v in &a.flag_rule_violations {
            let _ = writeln!(
                out,
                "| {} | {} | {} | {} | {} | {} |",
                cell(&v.annotator),
                cell(&v.item),
                cell(&v.system),
                cell(&v.dimension),
                v.score,
                v.required
            );
        }
        out.push('\n');
    }
    section(&mut out, "Intake survey", &a.intake);
    section(&mut out, "Exit survey", &a.exit);
    if a.notes + a.explanations > 0 {
        let _ = writeln!(
            out,
            "{} note(s) and {} reason(s) for preferences were written; they are in the answers CSV.\n",
            a.notes, a.explanations
        );
    }
    out
}
