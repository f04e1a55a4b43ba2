//! The tables of one rating dimension: the systems, agreement, comparisons and contrasts, the
//! breakdowns by item group and by intake answer, ratings over rounds, and the cells to
//! adjudicate.

use super::super::fmt::{DASH, ci, num, number, p_value};
use super::{Block, Column, Doc, Figure, PAIRS_SHOWN, Table, Text, more_pairs, numbers, text};
use crate::analysis::data::Ci;
use crate::analysis::overrides::{AnalysisPlan, Correction, Unit};
use crate::analysis::report::{
    Agreement, DimensionReport, PairComparison, Standardised, SystemSummary,
};
use crate::analysis::rounds::{FixedEffect, Rounds};

/// The dimension's heading: its label, then its id as the data name it ([`DimensionReport::title`]).
pub(super) fn heading(d: &DimensionReport) -> Text {
    match &d.label {
        Some(label) if !label.eq_ignore_ascii_case(&d.dimension) => Text::input(label)
            .and(" (")
            .and_input(&d.dimension)
            .and(")"),
        Some(label) => Text::input(label),
        None => Text::input(&d.dimension),
    }
}

/// Flags shown; all of them are in the JSON and the adjudication sheet.
const FLAGS_SHOWN: usize = 20;

pub(super) fn dimension(doc: &mut Doc, d: &DimensionReport, flag_sd: f64, plan: &AnalysisPlan) {
    doc.section(2, heading(d));
    doc.paragraph(format!(
        "{} rating(s) of {} item(s) by {} annotator(s){}.",
        d.ratings,
        d.items,
        d.annotators,
        match &d.scale {
            Some(s) if !s.is_empty() =>
                format!(", scale {} to {}", number(s[0]), number(s[s.len() - 1])),
            _ => String::new(),
        }
    ));
    let name = &d.title();
    doc.section(3, "Systems");
    doc.table(systems(format!("Systems on {name}"), &d.systems));
    doc.figure(Figure::Dimension(d.dimension.clone()));
    if let Some(z) = &d.standardised {
        standardised(doc, name, z);
    }
    agreement(doc, name, &d.agreement);
    let paired = match plan.unit {
        Unit::Item => "items",
        Unit::Annotator => "annotators",
    };
    let correction = match plan.correction {
        Correction::Holm => "Holm",
        Correction::Bonferroni => "Bonferroni",
        Correction::None => "none",
    };
    let on = |what: &str| {
        Some(format!(
            "{what} on {name}, paired on {paired} (p adjusted: {correction})"
        ))
    };
    comparisons(
        doc,
        "Comparisons".into(),
        on("Comparisons"),
        &d.comparisons,
        plan,
    );
    comparisons(doc, "Contrasts".into(), on("Contrasts"), &d.contrasts, plan);
    for g in &d.groups {
        let heading = match &g.grouping {
            Some(grouping) => Text::plain("Items with ")
                .and_input(grouping)
                .and(" ")
                .and_input(&g.group),
            None => Text::plain("Item group ").and_input(&g.group),
        };
        doc.section(
            3,
            heading.and(format!(
                " ({} item(s); a breakdown, p-values not corrected)",
                g.items
            )),
        );
        doc.section(4, "Systems");
        doc.table(systems(
            format!("Systems on {name} in group {}", g.label()),
            &g.systems,
        ));
        let title = Text::plain("Comparisons within ").and_input(g.label());
        let caption = format!("Comparisons on {name} within {}", g.label());
        comparisons(doc, title, Some(caption), &g.comparisons, plan);
    }
    for g in &d.intake_groups {
        let question = plan.by_intake.as_deref().unwrap_or("the intake question");
        doc.section(
            3,
            Text::plain("Annotators who answered \"")
                .and_input(&g.group)
                .and("\" to ")
                .and_input(question)
                .and(format!(
                    " ({} item(s); a breakdown, p-values not corrected)",
                    g.items
                )),
        );
        doc.section(4, "Systems");
        doc.table(systems(
            format!("Systems on {name} among those who answered {}", g.group),
            &g.systems,
        ));
        let title = Text::plain("Comparisons among those who answered ").and_input(&g.group);
        let caption = format!("Comparisons on {name} among those who answered {}", g.group);
        comparisons(doc, title, Some(caption), &g.comparisons, plan);
    }
    if let Some(r) = &d.rounds {
        rounds(doc, name, r, Some(Figure::Rounds(d.dimension.clone())));
    }
    if !d.flags.is_empty() {
        flags(doc, d, flag_sd);
    }
}

/// The systems' summaries over item means.
pub(super) fn systems(caption: String, systems: &[SystemSummary]) -> Table {
    let mut table = Table::new(
        caption,
        vec![
            text("System"),
            numbers("Items"),
            numbers("Ratings"),
            text("Mean ± SD"),
            numbers("Median"),
            text("95% CI (t)"),
            text("95% CI (bootstrap)"),
        ],
    );
    for s in systems {
        let mut system = Text::input(&s.system);
        if s.adjudicated > 0 {
            system = system.and(format!(" ({} adjudicated)", s.adjudicated));
        }
        let bootstrap = s.bootstrap.map(|b| Ci {
            low: b.low,
            high: b.high,
        });
        table.rows.push(vec![
            system,
            s.n.to_string().into(),
            s.n_ratings.to_string().into(),
            format!("{:.2} ± {}", s.mean, num(s.sd, 2)).into(),
            format!("{:.2}", s.median).into(),
            ci(s.ci95, 2).into(),
            ci(bootstrap, 2).into(),
        ]);
    }
    table
}

/// Each system's mean z-score beside its raw mean, and the annotators left out.
fn standardised(doc: &mut Doc, name: &str, z: &Standardised) {
    doc.section(3, "Standardised per annotator");
    doc.paragraph(format!(
        "Each annotator's scores as z-scores (minus their mean, over their sample SD), averaged \
         per item, then per system; {} annotator(s) standardised. The comparisons are tested on \
         the z-scores.",
        z.annotators
    ));
    let mut table = Table::new(
        format!("Standardised scores on {name}"),
        vec![
            text("System"),
            numbers("Items"),
            numbers("Ratings"),
            numbers("Raw mean"),
            text("Mean z ± SD"),
            text("95% CI of z (t)"),
        ],
    );
    for s in &z.systems {
        table.rows.push(vec![
            Text::input(&s.system),
            s.n.to_string().into(),
            s.n_ratings.to_string().into(),
            format!("{:.2}", s.raw_mean).into(),
            format!("{:.3} ± {}", s.mean_z, num(s.sd_z, 3)).into(),
            ci(s.ci95_z, 3).into(),
        ]);
    }
    doc.table(table);
    if !z.left_out.is_empty() {
        doc.paragraph("Left out of the z-scores and the tests:");
        doc.push(Block::List(
            z.left_out
                .iter()
                .map(|l| {
                    Text::input(&l.annotator)
                        .and(format!(" ({} rating(s)): {}", l.ratings, l.reason))
                })
                .collect(),
        ));
    }
}

fn agreement(doc: &mut Doc, name: &str, a: &Agreement) {
    doc.section(3, "Agreement");
    doc.paragraph(format!(
        "On the raw ratings; {} (item, system) cell(s) rated by two or more of {} annotator(s).",
        a.units, a.annotators
    ));
    let mut table = Table::new(
        format!("Agreement on {name}"),
        vec![text("Statistic"), numbers("Value")],
    );
    for (statistic, value) in [
        ("Fleiss' κ", a.fleiss_kappa),
        ("Krippendorff's α (nominal)", a.krippendorff_alpha.nominal),
        ("Krippendorff's α (ordinal)", a.krippendorff_alpha.ordinal),
        ("Krippendorff's α (interval)", a.krippendorff_alpha.interval),
        ("Percent agreement", a.percent_agreement),
    ] {
        table
            .rows
            .push(vec![statistic.into(), num(value, 3).into()]);
    }
    doc.table(table);
    if !a.cohen_kappa.is_empty() {
        let mut table = Table::new(
            format!("Cohen's κ per pair of annotators on {name}"),
            vec![
                text("Annotators"),
                numbers("Units"),
                numbers("Agreement"),
                numbers("Cohen's κ"),
                numbers("κ (linear)"),
                numbers("κ (quadratic)"),
            ],
        );
        for p in a.cohen_kappa.iter().take(PAIRS_SHOWN) {
            table.rows.push(vec![
                Text::input(&p.annotator_a)
                    .and(" / ")
                    .and_input(&p.annotator_b),
                p.units.to_string().into(),
                num(p.agreement, 3).into(),
                num(p.unweighted, 3).into(),
                num(p.linear, 3).into(),
                num(p.quadratic, 3).into(),
            ]);
        }
        doc.table(table);
        more_pairs(doc, a.cohen_kappa.len());
    }
}

/// A table of paired comparisons (or of contrasts of groups), with their notes, under the
/// heading `title`; its caption (a page's name for it) is `caption`, else the title.
pub(super) fn comparisons(
    doc: &mut Doc,
    title: Text,
    caption: Option<String>,
    list: &[PairComparison],
    plan: &AnalysisPlan,
) {
    if list.is_empty() {
        return;
    }
    let exploratory = list.iter().any(|c| c.exploratory);
    let caption = caption.unwrap_or_else(|| title.as_string());
    doc.section(
        3,
        if exploratory {
            title.and(" (exploratory)")
        } else {
            title
        },
    );
    let unit = match plan.unit {
        Unit::Item => "Items",
        Unit::Annotator => "Annotators",
    };
    let adjusted = adjusted_header(plan.correction);
    let mut table = Table::new(
        caption,
        comparison_columns([unit, "Mean A", "Mean B"], adjusted)
            .into_iter()
            .chain([
                text("d_z 95% CI"),
                numbers("g_z"),
                numbers("r (rank-biserial)"),
            ])
            .collect(),
    );
    for c in list {
        let mut row = comparison_cells(c, 2);
        row.extend([
            ci(c.d_z_ci95, 2).into(),
            num(c.g_z, 2).into(),
            num(c.rank_biserial, 2).into(),
        ]);
        table.rows.push(row);
    }
    doc.table(table);
    let mut notes: Vec<Text> = list
        .iter()
        .filter_map(|c| {
            let ni = c.non_inferiority?;
            Some(
                Text::input(&c.system_a)
                    .and(" vs ")
                    .and_input(&c.system_b)
                    .and(format!(
                        ": non-inferiority with margin {}: p (t) {}, p (W) {}",
                        ni.margin,
                        p_value(ni.p_t),
                        p_value(ni.p_wilcoxon)
                    )),
            )
        })
        .collect();
    notes.extend(list.iter().filter_map(|c| {
        let s = c.anytime_ci95?;
        Some(
            Text::input(&c.system_a)
                .and(" vs ")
                .and_input(&c.system_b)
                .and(format!(
                    ": anytime-valid 95% confidence sequence of A − B {}",
                    ci(Some(s), 2)
                )),
        )
    }));
    notes.extend(list.iter().filter(|c| !c.notes.is_empty()).map(|c| {
        Text::input(&c.system_a)
            .and(" vs ")
            .and_input(&c.system_b)
            .and(": ")
            .and_input(c.notes.join("; "))
    }));
    doc.push(if notes.is_empty() {
        Block::Gap
    } else {
        Block::TightList(notes)
    });
}

/// Ratings over rounds, after the `figure` of them if any.
pub(super) fn rounds(doc: &mut Doc, name: &str, r: &Rounds, figure: Option<Figure>) {
    doc.section(3, "Over rounds");
    doc.paragraph(format!(
        "{} rating(s) with a round, rounds {} to {}.",
        r.ratings,
        number(r.rounds[0]),
        number(r.rounds[r.rounds.len() - 1])
    ));
    if let Some(f) = figure {
        doc.figure(f);
    }
    let mut table = Table::new(
        format!("Slope of {name} per round"),
        vec![
            text("System"),
            numbers("Ratings"),
            numbers("Slope per round"),
            numbers("SE"),
            numbers("95% CI (t)"),
            numbers("p"),
            numbers("Spearman's ρ"),
            numbers("p (ρ)"),
        ],
    );
    for t in &r.trends {
        table.rows.push(vec![
            Text::input(&t.system),
            t.n.to_string().into(),
            num(t.slope, 3).into(),
            num(t.slope_se, 3).into(),
            ci(t.slope_ci95, 3).into(),
            p_value(t.p_value).into(),
            num(t.spearman_rho, 3).into(),
            p_value(t.spearman_p).into(),
        ]);
    }
    doc.table(table);
    if let Some(m) = &r.mixed_model {
        doc.paragraph(
            Text::plain(format!(
                "Linear mixed model `{}` by REML, reference system ",
                m.formula
            ))
            .and_input(&m.reference)
            .and(format!(
                ": {} rating(s), {} annotator(s); annotator variance {:.4}, residual variance \
                 {:.4}{}.",
                m.n_obs,
                m.n_groups,
                m.annotator_variance,
                m.residual_variance,
                if m.boundary {
                    " (at the boundary: the fit is ordinary least squares)"
                } else {
                    ""
                }
            )),
        );
        let table = fixed_effects_table(
            format!("Fixed effects of the mixed model on {name}"),
            &m.fixed_effects,
        );
        doc.table(table);
        doc.paragraph(format!("Intervals: {}.", m.intervals));
        if let Some(j) = &m.interaction_test {
            doc.paragraph(
                Text::plain("Joint Wald test that every system × round term is 0 (")
                    .and_input(j.terms.join(", "))
                    .and(format!(
                        "): χ² = {:.3}, df = {}, p = {}.",
                        j.chi2,
                        j.df,
                        p_value(Some(j.p_value))
                    )),
            );
        }
    }
    if !r.notes.is_empty() {
        doc.push(Block::List(r.notes.iter().map(Text::input).collect()));
    }
}

/// A mixed model's fixed effects: estimate, SE, Wald interval, z and p.
pub(super) fn fixed_effects_table(caption: String, effects: &[FixedEffect]) -> Table {
    let mut table = Table::new(
        caption,
        vec![
            text("Term"),
            numbers("Estimate"),
            numbers("SE"),
            numbers("95% CI (Wald)"),
            numbers("z"),
            numbers("p"),
        ],
    );
    for f in effects {
        table.rows.push(vec![
            Text::input(&f.name),
            format!("{:.4}", f.estimate).into(),
            format!("{:.4}", f.se).into(),
            ci(Some(f.ci95), 4).into(),
            format!("{:.2}", f.z).into(),
            p_value(Some(f.p_value)).into(),
        ]);
    }
    table
}

fn flags(doc: &mut Doc, d: &DimensionReport, flag_sd: f64) {
    doc.section(3, "Cells to adjudicate");
    let range = crate::analysis::report::scale_range(d.scale.as_deref());
    let scaled = if (d.flag_above - flag_sd).abs() > 1e-12 {
        format!(
            " ({flag_sd} on a 1–5 scale, times this scale's range of {} over 4)",
            number(range)
        )
    } else {
        String::new()
    };
    doc.paragraph(format!(
        "{} cell(s) whose ratings have a sample SD above {}{scaled}{}.",
        d.flags.len(),
        number(d.flag_above),
        if d.flags.len() > FLAGS_SHOWN {
            format!(
                "; the first {FLAGS_SHOWN} are shown (all are in the JSON report and the adjudication sheet)"
            )
        } else {
            String::new()
        }
    ));
    if d.set_aside > 0 {
        doc.paragraph(format!(
            "{} of them, without an adjudicated score, set aside from the systems, the \
             comparisons and the slopes until an expert scores them (agreement keeps them).",
            d.set_aside
        ));
    }
    let unresolved = d
        .flags
        .iter()
        .filter(|f| f.adjudicated.is_none() && f.experts.len() > 1)
        .count();
    if unresolved > 0 {
        doc.paragraph(format!(
            "{unresolved} cell(s) whose experts disagree have no resolved score: not adjudicated."
        ));
    }
    let experts = d.flags.iter().any(|f| !f.experts.is_empty());
    let mut columns = vec![text("Item"), text("System"), text("Ratings"), numbers("SD")];
    if experts {
        columns.push(text("Experts"));
    }
    columns.push(numbers("Adjudicated"));
    let mut table = Table::new(format!("Cells of {} to adjudicate", d.title()), columns);
    for f in d.flags.iter().take(FLAGS_SHOWN) {
        let ratings: Vec<String> = f
            .ratings
            .iter()
            .map(|r| format!("{} ({})", number(r.score), r.annotator))
            .collect();
        let mut row = vec![
            Text::input(&f.item),
            Text::input(&f.system),
            Text::input(ratings.join(", ")),
            format!("{:.2}", f.sd).into(),
        ];
        if experts {
            row.push(Text::input(
                crate::analysis::adjudication::experts_in_words(&f.experts),
            ));
        }
        row.push(
            f.adjudicated
                .map(number)
                .unwrap_or_else(|| DASH.into())
                .into(),
        );
        table.rows.push(row);
    }
    doc.table(table);
}

/// The header of the corrected p-value's column.
pub(super) fn adjusted_header(correction: Correction) -> &'static str {
    match correction {
        Correction::Holm => "p (Holm)",
        Correction::Bonferroni => "p (Bonferroni)",
        Correction::None => "p (unadjusted)",
    }
}

/// The columns of [`comparison_cells`]: `n`, `a` and `b` name the unit counted and the two
/// means compared.
pub(super) fn comparison_columns([n, a, b]: [&str; 3], adjusted: &str) -> Vec<Column> {
    vec![
        text("A"),
        text("B"),
        text("Hypothesis"),
        numbers(n),
        numbers(a),
        numbers(b),
        numbers("A − B"),
        text("95% CI"),
        numbers("t (df)"),
        numbers("p (t)"),
        numbers("W"),
        numbers("p (W)"),
        numbers(adjusted),
        numbers("d_z"),
    ]
}

/// The cells every table of paired comparisons starts with, means to `digits` places: A, B,
/// the hypothesis (its name and relation), n, the means and their difference with its interval,
/// the t-test, the Wilcoxon test, the corrected p and d_z.
pub(super) fn comparison_cells(c: &PairComparison, digits: usize) -> Vec<Text> {
    let relation = format!("A {} B", c.alternative.relation());
    let hypothesis = match &c.hypothesis {
        Some(name) => Text::input(name).and(format!(" ({relation})")),
        None => Text::plain(relation),
    };
    vec![
        Text::input(&c.system_a),
        Text::input(&c.system_b),
        hypothesis,
        c.n.to_string().into(),
        num(c.mean_a, digits).into(),
        num(c.mean_b, digits).into(),
        num(c.mean_diff, digits).into(),
        ci(c.mean_diff_ci95, digits).into(),
        c.t_test
            .map_or(DASH.to_owned(), |t| format!("{:.2} ({})", t.t + 0.0, t.df))
            .into(),
        p_value(c.t_test.map(|t| t.p_value)).into(),
        num(c.wilcoxon.map(|w| w.statistic), 1).into(),
        p_value(c.wilcoxon.map(|w| w.p_value)).into(),
        p_value(c.p_adjusted).into(),
        num(c.d_z, 2).into(),
    ]
}
