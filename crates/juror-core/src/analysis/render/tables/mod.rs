//! One table model for the whole report: [`tables`] turns a [`Report`] into [`Section`]s of
//! paragraphs, lists and [`Table`]s, with every number formatted by [`super::fmt`]. The
//! Markdown writer ([`super::markdown`]) only lays them out; the Analyse page renders the same
//! sections, and draws a [`Figure`] where the model places one.
//!
//! Text keeps apart what Juror writes ([`Span::Plain`]) from what came from the inputs
//! ([`Span::Input`]: ids, names, notes), which a writer makes inert (Markdown escapes it).

mod answers;
mod dimension;
mod graded;
mod judges;
mod models;
mod others;
mod raters;
mod secondary;
mod spans;

pub(super) use graded::method as graded_method;
pub(super) use models::{crossed_method, ordinal_method};
pub(super) use raters::method as raters_method;

use crate::analysis::report::Report;

/// A piece of text: Juror's own words and numbers, or text from the inputs.
#[derive(Debug, Clone, PartialEq)]
pub enum Span {
    Plain(String),
    Input(String),
}

/// Text made of spans.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Text(pub Vec<Span>);

impl Text {
    /// Juror's own text.
    pub fn plain(s: impl Into<String>) -> Text {
        Text(vec![Span::Plain(s.into())])
    }

    /// Text from the inputs.
    pub fn input(s: impl Into<String>) -> Text {
        Text(vec![Span::Input(s.into())])
    }

    /// This text followed by Juror's `s`.
    pub fn and(mut self, s: impl Into<String>) -> Text {
        self.0.push(Span::Plain(s.into()));
        self
    }

    /// This text followed by `s` from the inputs.
    pub fn and_input(mut self, s: impl Into<String>) -> Text {
        self.0.push(Span::Input(s.into()));
        self
    }

    /// The text as it reads.
    pub fn as_string(&self) -> String {
        self.0
            .iter()
            .map(|s| match s {
                Span::Plain(t) | Span::Input(t) => t.as_str(),
            })
            .collect()
    }
}

impl From<String> for Text {
    fn from(s: String) -> Text {
        Text::plain(s)
    }
}

impl From<&str> for Text {
    fn from(s: &str) -> Text {
        Text::plain(s)
    }
}

/// A column: its name, and whether it holds numbers (aligned right).
#[derive(Debug, Clone, PartialEq)]
pub struct Column {
    pub name: String,
    pub numeric: bool,
}

/// A column of text.
pub(super) fn text(name: &str) -> Column {
    Column {
        name: name.to_owned(),
        numeric: false,
    }
}

/// A column of numbers.
pub(super) fn numbers(name: &str) -> Column {
    Column {
        name: name.to_owned(),
        numeric: true,
    }
}

/// A table: what it shows (a caption for a page; the Markdown has the section's heading), its
/// columns and its rows of cells.
#[derive(Debug, Clone, PartialEq)]
pub struct Table {
    pub caption: String,
    pub columns: Vec<Column>,
    pub rows: Vec<Vec<Text>>,
}

impl Table {
    pub(super) fn new(caption: impl Into<String>, columns: Vec<Column>) -> Table {
        Table {
            caption: caption.into(),
            columns,
            rows: Vec::new(),
        }
    }
}

/// What a section holds, in order.
#[derive(Debug, Clone, PartialEq)]
pub enum Block {
    Paragraph(Text),
    Table(Table),
    /// A list followed by a blank line.
    List(Vec<Text>),
    /// A list that runs on into what follows.
    TightList(Vec<Text>),
    /// A blank line.
    Gap,
    /// A figure a page draws here from the report; the Markdown has none.
    Figure(Figure),
}

/// A figure of the report, drawn by a page where the model places it (the Markdown writer
/// skips it): which one it is, the page finds its numbers in the report.
#[derive(Debug, Clone, PartialEq)]
pub enum Figure {
    /// A dimension's means with their intervals and its distribution of ratings, by its id.
    Dimension(String),
    /// A dimension's means per round, by its id.
    Rounds(String),
    /// The preferences' Bradley–Terry strengths and matrix.
    Preferences,
    /// A judge's scores against the humans' mean, by its id.
    Judge(String),
    /// Each output's text with every annotator's error spans over it.
    Spans,
}

/// A heading (level 1 to 4; 0: none) and what follows it up to the next heading.
#[derive(Debug, Clone, PartialEq)]
pub struct Section {
    pub level: u8,
    pub heading: Text,
    pub blocks: Vec<Block>,
}

/// Sections as they are written, one after another.
#[derive(Debug, Default)]
pub(super) struct Doc(Vec<Section>);

impl Doc {
    /// Starts a section.
    pub(super) fn section(&mut self, level: u8, heading: impl Into<Text>) {
        self.0.push(Section {
            level,
            heading: heading.into(),
            blocks: Vec::new(),
        });
    }

    /// Adds a block to the current section (to one without a heading, level 0, before the
    /// first).
    pub(super) fn push(&mut self, block: Block) {
        if self.0.is_empty() {
            self.section(0, Text::default());
        }
        if let Some(s) = self.0.last_mut() {
            s.blocks.push(block);
        }
    }

    pub(super) fn paragraph(&mut self, text: impl Into<Text>) {
        self.push(Block::Paragraph(text.into()));
    }

    pub(super) fn table(&mut self, table: Table) {
        self.push(Block::Table(table));
    }

    pub(super) fn figure(&mut self, figure: Figure) {
        self.push(Block::Figure(figure));
    }
}

/// The judges' sections alone.
pub fn judge_tables(judges: &[crate::analysis::judges::JudgeReport]) -> Vec<Section> {
    let mut doc = Doc::default();
    judges::judges(&mut doc, judges);
    doc.0
}

/// The plan's success criteria over participants alone, as the Markdown writes them; none
/// without criteria.
pub fn thresholds_tables(report: &Report) -> Vec<Section> {
    let mut doc = Doc::default();
    if !report.thresholds.is_empty() {
        others::thresholds(&mut doc, &report.thresholds);
    }
    doc.0
}

/// The plan's tests of slopes and preferences alone, as the Markdown writes them; none without
/// planned tests.
pub fn hypotheses_tables(report: &Report) -> Vec<Section> {
    let mut doc = Doc::default();
    if !report.hypotheses.is_empty() {
        others::hypotheses(&mut doc, &report.hypotheses);
    }
    doc.0
}

/// The confirmatory scope in a sentence or two: which items the confirmatory analysis is on,
/// which values are reported apart as secondary analyses, and the items in neither (the report's
/// summary says it; the Analyse page shows it near the top).
pub fn scope_summary(scope: &crate::analysis::report::ScopeReport) -> Text {
    let mut text = Text::plain(format!(
        "The confirmatory analysis is on the {} item(s) with ",
        scope.items
    ))
    .and_input(&scope.grouping)
    .and(" ")
    .and_input(&scope.group)
    .and(format!(" ({} rating(s))", scope.ratings));
    text = if scope.secondary.is_empty() {
        text.and(".")
    } else {
        let mut t = text.and("; the items of the other value(s) (");
        for (i, s) in scope.secondary.iter().enumerate() {
            if i > 0 {
                t = t.and(", ");
            }
            t = t.and_input(&s.group);
        }
        t.and(") are reported apart, each as a secondary analysis (exploratory, not corrected).")
    };
    if scope.ungrouped > 0 {
        text = text
            .and(format!(" {} item(s) without a value of ", scope.ungrouped))
            .and_input(&scope.grouping)
            .and(" are in neither.");
    }
    text
}

/// The secondary analyses alone, one list of sections per other value of the scope's grouping,
/// each opening with its "Secondary analysis: items with …" heading; empty without a scope.
pub fn secondary_tables(report: &Report) -> Vec<Vec<Section>> {
    let Some(scope) = &report.scope else {
        return Vec::new();
    };
    scope
        .secondary
        .iter()
        .map(|s| {
            let mut doc = Doc::default();
            secondary::one(&mut doc, scope, s, &report.settings.plan);
            doc.0
        })
        .collect()
}

/// The answers' sections alone.
pub fn answer_tables(a: &crate::analysis::answers::AnswersReport) -> Vec<Section> {
    let mut doc = Doc::default();
    answers::answers(&mut doc, a);
    doc.0
}

/// The report as sections: the summary, each dimension, choices, preferences, answers,
/// diagnostics, the judges, methods, and the problems with the inputs.
pub fn tables(report: &Report) -> Vec<Section> {
    let mut doc = Doc::default();
    doc.section(1, "Analysis report");
    doc.paragraph(summary(report));
    let s = &report.settings;
    for d in &report.dimensions {
        dimension::dimension(&mut doc, d, s.flag_sd, &s.plan);
    }
    if let Some(sp) = &report.spans {
        spans::spans(&mut doc, sp);
        doc.figure(Figure::Spans);
    }
    if let Some(c) = &report.choices {
        others::choices(&mut doc, c);
    }
    if let Some(p) = &report.preferences {
        others::preferences(&mut doc, p);
    }
    if let Some(g) = &report.graded {
        graded::graded(&mut doc, g);
    }
    if !report.cannot_judge.is_empty() {
        graded::cannot_judge(&mut doc, &report.cannot_judge);
    }
    if let Some(a) = &report.answers {
        answers::answers(&mut doc, a);
    }
    others::diagnostics(&mut doc, &report.diagnostics, &report.dimensions);
    doc.0.extend(thresholds_tables(report));
    if !report.divergence.is_empty() {
        others::divergence(
            &mut doc,
            &report.divergence,
            &report.divergence_comparisons,
            s.plan.correction,
        );
    }
    if !report.raters.is_empty() {
        raters::raters(&mut doc, &report.raters);
    }
    if !report.crossed.is_empty() {
        models::crossed(&mut doc, &report.crossed);
    }
    if !report.ordinal.is_empty() {
        models::ordinal(&mut doc, &report.ordinal);
    }
    doc.0.extend(hypotheses_tables(report));
    if let Some(scope) = &report.scope {
        secondary::secondary(&mut doc, scope, &s.plan);
    }
    judges::judges(&mut doc, &report.judges);
    doc.section(2, "Methods");
    doc.paragraph(super::methods::methods(report));
    if !report.problems.is_empty() {
        doc.section(2, "Problems with the inputs");
        let problems = report.problems.iter().map(|p| Text::input(p.to_string()));
        doc.push(Block::List(problems.collect()));
    }
    doc.0
}

/// The report's first sentence: what was read, and whether anything had problems.
fn summary(report: &Report) -> Text {
    let s = &report.settings;
    let mut text = Text::plain(format!(
        "{} input file(s); {} rating(s) on {} dimension(s); {} preference judgement(s).",
        report.inputs.len(),
        s.ratings,
        report.dimensions.len(),
        s.preferences,
    ));
    if let Some(id) = &s.study {
        text = text
            .and(" Checked against the study `")
            .and_input(id)
            .and("`.");
    }
    if let Some(scope) = &report.scope {
        text.0.push(Span::Plain(" ".to_owned()));
        text.0.extend(scope_summary(scope).0);
    }
    let superseded = report
        .inputs
        .iter()
        .filter(|f| f.kind == crate::analysis::data::InputKind::SupersededBackup)
        .count();
    if superseded > 0 {
        text = text.and(format!(
            " {superseded} of them superseded: earlier files (backups) of an annotator whose \
             latest complete file was read instead."
        ));
    }
    if !report.problems.is_empty() {
        text = text.and(format!(
            " **{} problem(s) with the inputs**, listed at the end; the rest was analysed.",
            report.problems.len()
        ));
    }
    text
}

/// Pairs of annotators shown (crowds have thousands); all are in the JSON.
pub(super) const PAIRS_SHOWN: usize = 15;

/// Says that only the first pairs are shown, when there are more.
pub(super) fn more_pairs(doc: &mut Doc, total: usize) {
    if total > PAIRS_SHOWN {
        doc.paragraph(format!(
            "The first {PAIRS_SHOWN} of {total} pairs of annotators sharing a unit are shown; all \
             are in the JSON report."
        ));
    }
}
