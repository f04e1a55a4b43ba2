//! The report as paper-ready Markdown: the sections of [`super::tables`] written out, headings,
//! paragraphs, lists and pipe tables, with text from the inputs made inert, and no control or
//! bidirectional character written raw (`crate::base::visible`).

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
                Block::Figure(_) => {}
            }
        }
    }
    out
}

/// A pipe table, numbers aligned right, and a blank line.
fn table(out: &mut String, t: &Table) {
    let names: Vec<String> = t
        .columns
        .iter()
        .map(|c| crate::base::visible::escape(&c.name).into_owned())
        .collect();
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
            Span::Plain(t) => crate::base::visible::escape(t).into_owned(),
            Span::Input(t) => cell(t),
        })
        .collect()
}

/// Text from the inputs (ids, names, notes, messages) made inert in Markdown: it renders as the
/// same text, but cannot become a link, an image, emphasis, a heading or HTML (an annotator id
/// `<img src=…>` or `![x](https://…)` would fetch a tracker in a Markdown viewer).
/// Pipes are escaped and line breaks become spaces, so it also fits in a table cell. Control
/// characters and bidirectional controls ([`crate::base::visible::acts`]), which would reorder or
/// hide what a reader sees, render as their escape (`\u{202e}`).
pub(crate) fn cell(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            '\n' | '\r' => out.push(' '),
            c if crate::base::visible::acts(c) => {
                // `\\u{202e}` in Markdown renders as `\u{202e}`.
                out.push('\\');
                out.extend(c.escape_unicode());
            }
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

    /// Control and bidirectional characters from the inputs are shown as escapes: an id that
    /// would read backwards, a terminal escape, a tab that would shift a table.
    #[test]
    fn input_controls_and_bidi_controls_are_shown_escaped() {
        assert_eq!(cell("ann-7\u{202e}lmth.exe"), "ann-7\\\\u{202e}lmth.exe");
        assert_eq!(
            cell("\u{1b}[2K\u{2066}x\u{2069}\u{200e}\u{61c}\t"),
            "\\\\u{1b}\\[2K\\\\u{2066}x\\\\u{2069}\\\\u{200e}\\\\u{61c}\t"
        );
        assert_eq!(cell("שלום café"), "שלום café");
    }

    /// Juror's own text that carries input (a formula naming a dimension, a heading naming a
    /// system) is shown with its controls escaped too, its Markdown kept.
    #[test]
    fn plain_text_keeps_its_markdown_but_not_its_controls() {
        use super::super::tables::{Block, Section, Text};
        let sections = [Section {
            level: 2,
            heading: Text::plain("Dimension **q\u{202e}x**"),
            blocks: vec![Block::Paragraph(
                Text::plain("Model `score ~ system\u{1b}[2K`, reference ").and_input("a\u{2067}b"),
            )],
        }];
        assert_eq!(
            super::write(&sections),
            "## Dimension **q\\u{202e}x**\n\nModel `score ~ system\\u{1b}[2K`, reference \
             a\\\\u{2067}b\n\n"
        );
    }
}
