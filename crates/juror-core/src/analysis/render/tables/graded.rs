//! The tables of graded preferences and of the "Cannot judge" answers.

use super::super::fmt::{ci, num, p_value};
use super::{Doc, Table, Text, numbers, text};
use crate::analysis::report::CannotJudgeCount;
use crate::analysis::report::graded;

/// Per pair the mean grade over item means, its interval and Wilcoxon test; then the share of
/// each grade; then the grade towards the output shown first.
pub(super) fn graded(doc: &mut Doc, g: &graded::Report) {
    doc.section(2, "Graded preferences");
    doc.paragraph(format!(
        "How much better, on a scale from a{k} (A much better) through tie to b{k} (B much \
         better). The mean grade is over items (each item's mean over its annotators); \
         positive favours B. The interval is a 95% t interval over item means; p is the \
         Wilcoxon signed-rank test of the item means against 0. Collapsed to a, b and tie, the \
         same judgements are in the preferences' win rates and Bradley–Terry.",
        k = g.max_grade
    ));
    let mut table = Table::new(
        "Each pair of systems: the mean grade (positive favours B) with its interval and test",
        vec![
            text("A"),
            text("B"),
            numbers("Judgements"),
            numbers("Items"),
            numbers("Mean grade"),
            text("95% CI"),
            numbers("Wilcoxon p"),
        ],
    );
    for p in &g.pairs {
        table.rows.push(vec![
            Text::input(&p.system_a),
            Text::input(&p.system_b),
            p.judgements.to_string().into(),
            p.items.to_string().into(),
            num(Some(p.mean_grade), 3).into(),
            ci(p.ci, 3).into(),
            p_value(p.wilcoxon_p).into(),
        ]);
    }
    doc.table(table);
    let grades: Vec<String> = g
        .pairs
        .first()
        .map(|p| p.shares.iter().map(|s| s.grade.clone()).collect())
        .unwrap_or_default();
    let mut columns = vec![text("A"), text("B")];
    columns.extend(grades.iter().map(|g| numbers(g)));
    let mut shares = Table::new("Each pair of systems: the share of each grade", columns);
    for p in &g.pairs {
        let mut row: Vec<Text> = vec![Text::input(&p.system_a), Text::input(&p.system_b)];
        row.extend(p.shares.iter().map(|s| Text::from(num(s.share, 3))));
        shares.rows.push(row);
    }
    doc.table(shares);
    if let Some(t) = &g.towards_first {
        doc.paragraph(format!(
            "Position: the mean grade towards the output shown first is {} (95% CI {}, {} \
             judgement(s)); near 0, the side an output was shown on did not sway the grades.",
            num(Some(t.mean), 3),
            ci(t.ci, 3),
            t.judgements
        ));
    }
}

/// "Cannot judge" per question and system.
pub(super) fn cannot_judge(doc: &mut Doc, counts: &[CannotJudgeCount]) {
    doc.section(2, "Cannot judge");
    doc.paragraph(
        "Answers of \"Cannot judge\", per question and system: left out of every mean, test, \
         agreement and win rate, never counted as a midpoint or a tie.",
    );
    let mut table = Table::new(
        "\"Cannot judge\" answers per question and system",
        vec![text("Question"), text("System"), numbers("Cannot judge")],
    );
    for c in counts {
        table.rows.push(vec![
            Text::input(&c.question),
            Text::input(&c.system),
            c.count.to_string().into(),
        ]);
    }
    doc.table(table);
}

/// The methods paragraph of graded preferences.
pub(in crate::analysis::render) fn method() -> String {
    "Graded preferences (how much better, from aₖ through tie to bₖ) were turned to each \
     pair's byte order (positive favours the second system), averaged per item over its \
     annotators, and summarised per pair by the mean of the item means with a 95% t \
     interval over items and the two-sided Wilcoxon signed-rank test of the item means \
     against 0 (zero means dropped; exact, permutation or normal p as scipy's \
     wilcoxon chooses by default); the share of each grade is over judgements. The same \
     judgements, collapsed to a, b and tie, entered the win rates and Bradley–Terry."
        .to_owned()
}
