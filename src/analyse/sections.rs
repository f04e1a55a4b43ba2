//! The core's table model on the page: [`Section`]s of paragraphs, lists and [`Table`]s, as
//! `juror_core::analysis::render::tables` builds them for the Markdown report, laid out as
//! headings, paragraphs, lists and `<table>`s with their captions, each section of the top level
//! a region named by its heading, and each [`Figure`] drawn where the model places it. The page
//! and the Markdown thus show the very same sections and numbers (one table model); this
//! renderer decides nothing.
//!
//! Every span, Juror's words or text from the inputs (ids, names), becomes a text node, never
//! markup; the characters that act instead of showing (controls, bidirectional controls) are
//! written as escapes, as the Markdown writer does.

use juror_core::analysis::render::tables::{Block, Column, Figure, Section, Span, Table, Text};
use juror_core::base::visible;
use leptos::prelude::*;

/// The text as it reads on the page: every span's characters, those that act escaped.
pub fn words(text: &Text) -> String {
    text.0
        .iter()
        .map(|s| match s {
            Span::Plain(t) | Span::Input(t) => visible::escape(t),
        })
        .collect()
}

/// The HTML heading level of a section of `level` (1 to 4; 0: no heading) shown `below`
/// levels under the model's: from `h2` (the page has its own `h1`) to `h6`.
pub fn heading_level(level: u8, below: u8) -> Option<u8> {
    (level > 0).then(|| level.saturating_add(below).clamp(2, 6))
}

/// The class of a cell or a column's header: numbers are aligned right.
fn align(column: Option<&Column>) -> &'static str {
    match column {
        Some(c) if c.numeric => "num",
        _ => "",
    }
}

#[component]
fn Heading(level: u8, text: String) -> impl IntoView {
    match level {
        2 => view! { <h2>{text}</h2> }.into_any(),
        3 => view! { <h3>{text}</h3> }.into_any(),
        4 => view! { <h4>{text}</h4> }.into_any(),
        5 => view! { <h5>{text}</h5> }.into_any(),
        _ => view! { <h6>{text}</h6> }.into_any(),
    }
}

/// A table of the model: its caption, its columns' names, and its rows, the first cell of each
/// its row's header; numeric columns aligned right.
#[component]
pub fn ModelTable(table: Table) -> impl IntoView {
    let Table {
        caption,
        columns,
        rows,
    } = table;
    let head = columns
        .iter()
        .map(|c| view! { <th scope="col" class=align(Some(c))>{c.name.clone()}</th> })
        .collect_view();
    let body = rows
        .into_iter()
        .map(|row| {
            let cells = row
                .iter()
                .enumerate()
                .map(|(i, cell)| {
                    let (class, text) = (align(columns.get(i)), words(cell));
                    if i == 0 {
                        view! { <th scope="row" class=class>{text}</th> }.into_any()
                    } else {
                        view! { <td class=class>{text}</td> }.into_any()
                    }
                })
                .collect_view();
            view! { <tr>{cells}</tr> }
        })
        .collect_view();
    // A table wider than the page scrolls sideways (`.data-table`): focusable, so that the
    // keyboard can scroll it too; its caption names it.
    view! {
        <table class="data-table" tabindex="0">
            <caption>{caption}</caption>
            <thead>
                <tr>{head}</tr>
            </thead>
            <tbody>{body}</tbody>
        </table>
    }
}

/// Draws a figure of the model on the page, or nothing.
pub type Draw<'a> = &'a dyn Fn(&Figure) -> Option<AnyView>;

/// A block of a section.
fn block(b: Block, draw: Draw) -> AnyView {
    let list = |items: Vec<Text>| {
        let items = items
            .iter()
            .map(|t| view! { <li>{words(t)}</li> })
            .collect_view();
        view! { <ul>{items}</ul> }.into_any()
    };
    match b {
        Block::Paragraph(t) => view! { <p>{words(&t)}</p> }.into_any(),
        Block::Table(table) => view! { <ModelTable table /> }.into_any(),
        Block::List(items) | Block::TightList(items) => list(items),
        Block::Gap => ().into_any(),
        Block::Figure(f) => draw(&f).into_any(),
    }
}

/// One section: its heading `below` levels under the model's (see [`heading_level`]), then its
/// blocks.
fn section(s: Section, below: u8, draw: Draw) -> AnyView {
    let heading = heading_level(s.level, below)
        .map(|level| view! { <Heading level text=words(&s.heading) /> });
    let blocks = s.blocks.into_iter().map(|b| block(b, draw)).collect_view();
    view! {
        {heading}
        {blocks}
    }
    .into_any()
}

/// Sections of the table model, one after another: each of the report's top level (a heading
/// of level 2: a dimension, "Preferences", a judge, "Methods") opens a region named by its
/// heading that holds it and the sections under it; the model's figures drawn by `draw`.
pub fn regions(sections: Vec<Section>, below: u8, draw: Draw) -> AnyView {
    let mut out: Vec<AnyView> = Vec::new();
    let mut group: Vec<Section> = Vec::new();
    let flush = |group: &mut Vec<Section>, out: &mut Vec<AnyView>| {
        if group.is_empty() {
            return;
        }
        let name = words(&group[0].heading);
        let inner = group
            .drain(..)
            .map(|s| section(s, below, draw))
            .collect_view();
        out.push(
            view! { <section class="report-section" aria-label=name>{inner}</section> }.into_any(),
        );
    };
    for s in sections {
        match s.level {
            0 | 1 => {
                flush(&mut group, &mut out);
                out.push(section(s, below, draw));
            }
            2 => {
                flush(&mut group, &mut out);
                group.push(s);
            }
            _ if group.is_empty() => out.push(section(s, below, draw)),
            _ => group.push(s),
        }
    }
    flush(&mut group, &mut out);
    out.into_iter().collect_view().into_any()
}

/// Where the regions of `sections` (see [`regions`]) after the last that holds a figure `is`
/// start: `sections.len()` when it is the last, 0 when none holds one.
pub fn after_last(sections: &[Section], is: impl Fn(&Figure) -> bool) -> usize {
    let holds = |s: &Section| {
        s.blocks
            .iter()
            .any(|b| matches!(b, Block::Figure(f) if is(f)))
    };
    let Some(last) = sections.iter().rposition(holds) else {
        return 0;
    };
    sections[last + 1..]
        .iter()
        .position(|s| s.level <= 2)
        .map_or(sections.len(), |k| last + 1 + k)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_from_the_inputs_reads_as_itself_with_acting_characters_escaped() {
        let text = Text::plain("Judge ")
            .and_input("<b>gpt</b>\u{202e}x")
            .and(": ρ 0.812");
        assert_eq!(words(&text), "Judge <b>gpt</b>\\u{202e}x: ρ 0.812");
        assert_eq!(words(&Text::default()), "");
    }

    #[test]
    fn headings_sit_under_the_page_heading() {
        assert_eq!(heading_level(0, 1), None);
        assert_eq!(heading_level(1, 0), Some(2));
        assert_eq!(heading_level(2, 1), Some(3));
        assert_eq!(heading_level(3, 1), Some(4));
        assert_eq!(heading_level(4, 5), Some(6));
    }

    fn titled(level: u8, heading: &str, blocks: Vec<Block>) -> Section {
        Section {
            level,
            heading: Text::plain(heading),
            blocks,
        }
    }

    #[test]
    fn what_follows_a_figure_starts_at_the_next_region() {
        let figure = || vec![Block::Figure(Figure::Dimension("q".to_owned()))];
        let list = vec![
            titled(1, "Analysis report", Vec::new()),
            titled(2, "q", Vec::new()),
            titled(3, "Systems", figure()),
            titled(3, "Agreement", Vec::new()),
            titled(2, "Diagnostics", Vec::new()),
        ];
        let dimension = |f: &Figure| matches!(f, Figure::Dimension(_));
        assert_eq!(after_last(&list, dimension), 4);
        assert_eq!(after_last(&list[..4], dimension), 4);
        assert_eq!(after_last(&list, |f| matches!(f, Figure::Spans)), 0);
    }

    #[test]
    fn numeric_columns_are_aligned_right() {
        let number = Column {
            name: "n".to_owned(),
            numeric: true,
        };
        let word = Column {
            name: "System".to_owned(),
            numeric: false,
        };
        assert_eq!(align(Some(&number)), "num");
        assert_eq!(align(Some(&word)), "");
        assert_eq!(align(None), "");
    }
}
