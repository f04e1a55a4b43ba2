//! The report as paper-ready Markdown: the sections of [`super::tables`] written out, headings,
//! paragraphs, lists and pipe tables, with text from the inputs made inert.

use std::fmt::Write as _;

use super::tables::{Block, Section, Span, Table, Text, answer_tables, tables};
use crate::analysis::answers::AnswersReport;
use crate::analysis::report::Report;

pub use super::methods::methods;

/// Renders the whole report.
pub fn render(report: &Report) -> String {
    write(&tables(report))
}

impl AnswersReport {
    /// The answers as Markdown sections.
    pub fn to_markdown(&self) -> String {
        write(&answer_tables(self))
    }
}

/// Sections as Markdown.
pub fn write(sections: &[Section]) -> String {
    let mut out = String::new();
    for s in sections {
        if s.level > 0 {
            let _ = writeln!(
                out,
                "{} {}\n",
                "#".repeat(usize::from(s.level)),
                inert(&s.heading)
            );
        }
        for block in &s.blocks {
            match block {
                Block::Paragraph(t) => {
                    let _ = writeln!(out, "{}\n", inert(t));
                }
                Block::Table(t) => table(&mut out, t),
                Block::List(items) => {
                    for item in items {
                        let _ = writeln!(out, "- {}", inert(item));
                    }
                    out.push('\n');
                }
                Block::TightList(items) => {
                    for item in items {
                        let _ = writeln!(out, "- {}", inert(item));
                    }
                }
                Block::Gap => out.push('\n'),
            }
        }
    }
    out
}

/// A pipe table, numbers aligned right, and a blank line.
fn table(out: &mut String, t: &Table) {
    let names: Vec<&str> = t.columns.iter().map(|c| c.name.as_str()).collect();
    let rules: Vec<&str> = t
        .columns
        .iter()
        .map(|c| if c.numeric { "---:" } else { "---" })
        .collect();
    let _ = writeln!(out, "| {} |\n|{}|", names.join(" | "), rules.join("|"));
    for row in &t.rows {
        let cells: Vec<String> = row.iter().map(inert).collect();
        let _ = writeln!(out, "| {} |", cells.join(" | "));
    }
    out.push('\n');
}

/// A text with every span from the inputs made inert ([`cell`]).
fn inert(text: &Text) -> String {
    text.0
        .iter()
        .map(|s| match s {
            Span::Plain(t) => t.clone(),
            Span::Input(t) => cell(t),
        })
        .collect()
}

/// Text from the inputs (ids, names, notes, messages) made inert in Markdown: it renders as the
/// same text, but cannot become a link, an image, emphasis, a heading or HTML (an annotator id
/// `<img src=…>` or `![x](https://…)` would fetch a tracker in a Markdown viewer).
/// Pipes are escaped and line breaks become spaces, so it also fits in a table cell.
pub(crate) fn cell(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            '\n' | '\r' => out.push(' '),
            '\\' | '`' | '*' | '_' | '[' | ']' | '(' | ')' | '!' | '#' | '|' => {
                out.push('\\');
                out.push(c);
            }
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod injection_tests {
    use super::cell;

    /// Text from a ratings file (an annotator id, a note) cannot become HTML, an
    /// image, a link or a table column in the Markdown report; it still reads the same.
    #[test]
    fn input_text_is_inert_markdown() {
        assert_eq!(
            cell("<img src=https://evil.example/p.png> ![x](https://evil.example/q.png)"),
            "&lt;img src=https://evil.example/p.png&gt; \\!\\[x\\]\\(https://evil.example/q.png\\)"
        );
        assert_eq!(cell("a|b\nc"), "a\\|b c");
        assert_eq!(
            cell("*bold* _it_ `code` # h \\ &"),
            "\\*bold\\* \\_it\\_ \\`code\\` \\# h \\\\ &amp;"
        );
        assert_eq!(cell("rft-base 4.5"), "rft-base 4.5");
    }
}
