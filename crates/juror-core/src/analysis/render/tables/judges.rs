//! The tables of automatic judges against the human ratings: the alternative annotator test,
//! agreement, corrected estimates and biases, one section per judge.

use super::super::fmt::{ci, num, p_value, percent};
use super::{Block, Doc, Figure, Table, Text, numbers, text};
use crate::analysis::judges::{
    AltTestReport, Corrected, Correlation, JudgeBias, JudgePreferences, JudgeReport, JudgeScores,
};

/// One section per judge.
pub(super) fn judges(doc: &mut Doc, judges: &[JudgeReport]) {
    for j in judges {
        judge(doc, j);
    }
}

/// The row name of a view: its dimension, "all dimensions" pooled.
fn view(s: &JudgeScores) -> Text {
    match &s.dimension {
        Some(d) => Text::input(d),
        None => Text::plain("all dimensions (pooled)"),
    }
}

fn judge(doc: &mut Doc, j: &JudgeReport) {
    doc.section(2, Text::plain("Judge ").and_input(&j.judge));
    let runs = if j.runs > 1 {
        format!(" in up to {} runs (the first run is compared)", j.runs)
    } else {
        String::new()
    };
    doc.paragraph(format!(
        "{} verdict(s){runs}, read apart from the human ratings: they are in none of the \
         sections above.",
        j.verdicts
    ));
    let views: Vec<&JudgeScores> = j.dimensions.iter().chain(&j.pooled).collect();
    if views.is_empty() && j.preferences.is_none() {
        doc.paragraph(
            "Nothing to compare: no output or pair was judged by both the judge and the humans \
             (check that the judge's item and system ids are the study's).",
        );
        return;
    }
    alt_tests(doc, &views, j.preferences.as_ref());
    agreement(doc, &views, j.preferences.as_ref());
    corrected(doc, j);
    bias(doc, &j.bias);
    if j.dimensions.iter().any(|d| !d.points.is_empty()) {
        doc.figure(Figure::Judge(j.judge.clone()));
    }
}

fn alt_row(name: Text, a: &AltTestReport) -> Vec<Text> {
    vec![
        name,
        a.instances.to_string().into(),
        a.humans.len().to_string().into(),
        a.skipped.len().to_string().into(),
        num(a.winning_rate, 2).into(),
        num(a.advantage_probability, 3).into(),
        match a.passes {
            Some(true) => "yes",
            Some(false) => "no",
            None => "–",
        }
        .into(),
    ]
}

fn alt_tests(doc: &mut Doc, views: &[&JudgeScores], preferences: Option<&JudgePreferences>) {
    doc.section(3, "Alternative annotator test");
    let epsilon = views
        .first()
        .map(|v| &v.alt_test)
        .or(preferences.map(|p| &p.alt_test));
    if let Some(a) = epsilon {
        doc.paragraph(format!(
            "Each human is left out in turn; on each instance the judge and the left-out human \
             are aligned with the remaining humans (−RMSE for scores, accuracy for preferences). \
             The judge wins against a human when a one-sided t-test finds the human ahead by less \
             than ε = {} (Benjamini–Yekutieli, q = {}); it passes with a winning rate of at least \
             0.5. Advantage probability: how often the judge is aligned at least as well.",
            num(Some(a.epsilon), 2),
            num(Some(a.q), 2)
        ));
    }
    let mut table = Table::new(
        "Alternative annotator test",
        vec![
            text("Dimension"),
            numbers("Instances"),
            numbers("Humans tested"),
            numbers("Skipped"),
            numbers("Winning rate"),
            numbers("Advantage probability"),
            text("Passes"),
        ],
    );
    for v in views {
        table.rows.push(alt_row(view(v), &v.alt_test));
    }
    if let Some(p) = preferences {
        table
            .rows
            .push(alt_row(Text::plain("preferences"), &p.alt_test));
    }
    doc.table(table);
    let mut humans = Table::new(
        "The judge against each human",
        vec![
            text("Dimension"),
            text("Human"),
            numbers("Instances"),
            numbers("Judge ahead"),
            numbers("Human ahead"),
            numbers("t"),
            numbers("p"),
            numbers("p (BY)"),
            text("Judge wins"),
        ],
    );
    let tests = views
        .iter()
        .map(|v| (view(v), &v.alt_test))
        .chain(preferences.map(|p| (Text::plain("preferences"), &p.alt_test)));
    let mut skipped: Vec<Text> = Vec::new();
    for (name, a) in tests {
        for h in &a.humans {
            humans.rows.push(vec![
                name.clone(),
                Text::input(&h.annotator),
                h.instances.to_string().into(),
                num(Some(h.judge_advantage), 3).into(),
                num(Some(h.human_advantage), 3).into(),
                num(h.t, 2).into(),
                p_value(Some(h.p)).into(),
                p_value(Some(h.p_adjusted)).into(),
                if h.judge_wins { "yes" } else { "no" }.into(),
            ]);
        }
        for s in &a.skipped {
            skipped.push(
                name.clone()
                    .and(": ")
                    .and_input(&s.annotator)
                    .and(format!(" ({} instance(s))", s.instances)),
            );
        }
    }
    if !humans.rows.is_empty() {
        doc.table(humans);
    }
    if !skipped.is_empty() {
        doc.paragraph("Humans not tested (fewer instances than the minimum):");
        doc.push(Block::List(skipped));
    }
}

fn correlation(c: Option<Correlation>) -> String {
    match c {
        Some(c) => format!(
            "{} (p {}, n {})",
            num(Some(c.value), 3),
            p_value(Some(c.p_value)),
            c.n
        ),
        None => "–".to_owned(),
    }
}

fn agreement(doc: &mut Doc, views: &[&JudgeScores], preferences: Option<&JudgePreferences>) {
    doc.section(3, "Agreement with the humans");
    if !views.is_empty() {
        let mut table = Table::new(
            "Agreement of the judge's scores with the humans'",
            vec![
                text("Dimension"),
                numbers("Outputs"),
                text("Spearman ρ (outputs)"),
                text("Kendall τ-b (systems)"),
                numbers("α humans"),
                numbers("α with the judge"),
            ],
        );
        for v in views {
            table.rows.push(vec![
                view(v),
                v.points.len().to_string().into(),
                correlation(v.spearman).into(),
                correlation(v.kendall_tau).into(),
                num(v.alpha_humans, 3).into(),
                num(v.alpha_with_judge, 3).into(),
            ]);
        }
        doc.table(table);
    }
    if let Some(p) = preferences {
        doc.paragraph(format!(
            "Preferences, {} pair(s) judged by both: accuracy against the humans' majority {} on \
             the {} decisive case(s), {} on all {} with a majority; Cohen's κ {}.",
            p.instances,
            percent(p.accuracy_decisive),
            p.decisive,
            percent(p.accuracy_all),
            p.with_majority,
            num(p.cohen_kappa, 3)
        ));
    }
}

fn corrected_cells(c: Option<&Corrected>) -> Vec<Text> {
    match c {
        Some(c) => vec![
            num(Some(c.estimate), 3).into(),
            ci(Some(c.ci), 3).into(),
            ci(Some(c.human_only_ci), 3).into(),
            num(Some(c.lambda), 2).into(),
            num(Some(c.effective_gain), 2).into(),
            format!("{} / {}", c.labelled, c.unlabelled).into(),
        ],
        None => vec!["–".into(); 6],
    }
}

fn corrected(doc: &mut Doc, j: &JudgeReport) {
    let columns = |first: &str, human: &str, judge: &str| {
        vec![
            text(first),
            text("System"),
            numbers(human),
            numbers(judge),
            numbers("Corrected"),
            text("95% CI"),
            text("Humans only 95% CI"),
            numbers("λ"),
            numbers("Gain"),
            text("Humans / judge only"),
        ]
    };
    let mut table = Table::new(
        "Corrected estimates",
        columns("Dimension", "Humans' mean", "Judge's mean"),
    );
    for d in &j.dimensions {
        for s in &d.systems {
            let mut row = vec![
                view(d),
                Text::input(&s.system),
                num(s.human_mean, 3).into(),
                num(s.judge_mean, 3).into(),
            ];
            row.extend(corrected_cells(s.corrected.as_ref()));
            table.rows.push(row);
        }
    }
    if let Some(p) = &j.preferences {
        for s in &p.systems {
            let mut row = vec![
                Text::plain("win rate"),
                Text::input(&s.system),
                num(s.human, 3).into(),
                num(s.judge, 3).into(),
            ];
            row.extend(corrected_cells(s.corrected.as_ref()));
            table.rows.push(row);
        }
    }
    if table.rows.is_empty() {
        return;
    }
    doc.section(3, "Corrected estimates");
    doc.paragraph(
        "Prediction-powered inference (PPI++): each system's mean score (and win rate) from the \
         outputs the humans rated, corrected with the judge's verdicts on every output; beside the \
         humans-only interval. Gain: how many times the human sample the corrected estimate is \
         worth. Without outputs the judge alone rated there is nothing to correct with (–).",
    );
    doc.table(table);
}

fn bias(doc: &mut Doc, b: &JudgeBias) {
    doc.section(3, "Biases");
    let mut lines: Vec<Text> = Vec::new();
    if b.both_orders > 0 {
        lines.push(Text::plain(format!(
            "Order: {} of the {} verdict(s) given in both orders changed with the order (flip \
             rate {}).",
            b.flip_rate
                .map_or(0, |r| (r * b.both_orders as f64).round() as usize),
            b.both_orders,
            percent(b.flip_rate)
        )));
    }
    if b.ordered_verdicts > 0 || b.human_first_position_rate.is_some() {
        lines.push(Text::plain(format!(
            "Position: {} of the judge's decisive verdicts chose the output shown first ({} \
             verdicts); the humans' {}.",
            percent(b.first_position_rate),
            b.ordered_verdicts,
            percent(b.human_first_position_rate)
        )));
    }
    if b.length_preference.is_some() || b.human_length_preference.is_some() {
        lines.push(Text::plain(format!(
            "Length and preference (Spearman ρ of the length difference with the verdict): the \
             judge {}; the humans {}.",
            correlation(b.length_preference),
            correlation(b.human_length_preference)
        )));
    }
    if b.length_score.is_some() || b.human_length_score.is_some() {
        lines.push(Text::plain(format!(
            "Length and score (Spearman ρ of an output's length with its score): the judge {}; \
             the humans {}.",
            correlation(b.length_score),
            correlation(b.human_length_score)
        )));
    }
    if b.repeated > 0 {
        lines.push(Text::plain(format!(
            "Repeats: every run agreed on {} of the {} verdict(s) given more than once.",
            percent(b.repeat_agreement),
            b.repeated
        )));
    }
    if lines.is_empty() {
        lines.push(Text::plain(
            "Nothing to measure: no verdict in both orders, no order known, no texts (give the \
             study) and no repeated runs.",
        ));
    }
    doc.push(Block::List(lines));
}
