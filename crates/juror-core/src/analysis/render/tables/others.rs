//! The tables of best-of-N choices and rankings, pairwise preferences (with Bradley–Terry), and
//! the diagnostics.

use super::super::fmt::{DASH, ci, num, number, p_value};
use super::{Doc, Figure, PAIRS_SHOWN, Table, Text, more_pairs, numbers, text};
use crate::analysis::choices::ChoiceReport;
use crate::analysis::diagnostics::{Diagnostics, RepeatSummary};
use crate::analysis::overrides::Correction;
use crate::analysis::report::{
    BradleyTerryReport, DimensionReport, DivergenceReport, HypothesisTest, Leaderboard,
    PairComparison, PreferenceReport, ThresholdReport,
};
use crate::study::analysis_plan::HypothesisKind;

/// Best-of-N choices and rankings, as made.
pub(super) fn choices(doc: &mut Doc, c: &ChoiceReport) {
    if let Some(b) = &c.best {
        doc.section(2, "Best-of-N choices");
        doc.paragraph(format!("{} choice(s), one per trial.", b.choices));
        let mut table = Table::new(
            "Best-of-N choices per system",
            vec![
                text("System"),
                numbers("Offered"),
                numbers("Chosen"),
                numbers("Share"),
                text("Wilson 95%"),
            ],
        );
        for s in &b.systems {
            table.rows.push(vec![
                Text::input(&s.system),
                s.offered.to_string().into(),
                s.chosen.to_string().into(),
                num(s.share, 3).into(),
                ci(s.wilson, 3).into(),
            ]);
        }
        doc.table(table);
        if let Some(t) = b.chi_square {
            doc.paragraph(format!(
                "Against equal shares: χ² = {:.2} (df {}), p {}{}.",
                t.statistic,
                t.df,
                p_value(Some(t.p_value)),
                b.exact_p.map_or(String::new(), |p| format!(
                    "; exact multinomial p {}",
                    p_value(Some(p))
                ))
            ));
        }
        let a = &b.agreement;
        doc.paragraph(format!(
            "Agreement on the chosen system over {} item(s) chosen on by two or more of {} annotator(s): \
             Fleiss' κ {}, Krippendorff's α (nominal) {}, percent agreement {}.",
            a.units,
            a.annotators,
            num(a.fleiss_kappa, 3),
            num(a.krippendorff_alpha_nominal, 3),
            num(a.percent_agreement, 3)
        ));
        for note in &b.notes {
            doc.paragraph(Text::plain("- ").and_input(note));
        }
    }
    if let Some(b) = &c.best_worst {
        best_worst(doc, b);
    }
    if let Some(r) = &c.ranks {
        doc.section(2, "Rankings");
        doc.paragraph(format!("{} ranking(s); rank 1 is the best.", r.rankings));
        let mut table = Table::new(
            "Mean rank per system",
            vec![
                text("System"),
                numbers("Rankings"),
                numbers("Mean rank"),
                text("95% CI (t)"),
            ],
        );
        for s in &r.systems {
            table.rows.push(vec![
                Text::input(&s.system),
                s.n.to_string().into(),
                num(Some(s.mean_rank), 2).into(),
                ci(s.ci95, 2).into(),
            ]);
        }
        doc.table(table);
        if let Some(f) = r.friedman {
            doc.paragraph(format!(
                "Friedman test over {} complete ranking(s): χ² = {:.2} (df {}), p {}; Kendall's W = {:.3}.",
                f.blocks,
                f.statistic,
                f.df,
                p_value(Some(f.p_value)),
                f.kendall_w
            ));
        }
        for note in &r.notes {
            doc.paragraph(Text::plain("- ").and_input(note));
        }
    }
}

fn best_worst(doc: &mut Doc, b: &crate::analysis::choices::BestWorstReport) {
    doc.section(2, "Best–worst scaling");
    doc.paragraph(format!(
        "{} judgement(s) on {} item(s), each a best and a worst of the outputs shown.",
        b.judgements, b.items
    ));
    let mut table = Table::new(
        "Best–worst scores per system",
        vec![
            text("System"),
            numbers("Shown"),
            numbers("Best"),
            numbers("Worst"),
            numbers("Counting score"),
            text("Bootstrap 95%"),
            numbers("Maxdiff utility"),
            text("Wald 95%"),
        ],
    );
    for s in &b.systems {
        table.rows.push(vec![
            Text::input(&s.system),
            s.shown.to_string().into(),
            s.best.to_string().into(),
            s.worst.to_string().into(),
            num(s.counting_score, 3).into(),
            ci(s.counting_ci, 3).into(),
            num(s.utility, 3).into(),
            ci(s.utility_ci, 3).into(),
        ]);
    }
    doc.table(table);
    if let Some(h) = b.split_half {
        doc.paragraph(format!(
            "Split-half reliability of the counting scores over {} random halves of the judgements: \
             mean Spearman ρ {:.3}, Spearman–Brown {:.3}.",
            h.splits, h.mean_rho, h.spearman_brown
        ));
    }
    let mut table = Table::new(
        "Best–worst choices by position",
        vec![
            numbers("Position"),
            numbers("Judgements"),
            numbers("Best share"),
            numbers("Worst share"),
        ],
    );
    for p in &b.positions {
        table.rows.push(vec![
            p.position.to_string().into(),
            p.judgements.to_string().into(),
            num(p.best_share, 3).into(),
            num(p.worst_share, 3).into(),
        ]);
    }
    doc.table(table);
    for note in &b.notes {
        doc.paragraph(Text::plain("- ").and_input(note));
    }
}

pub(super) fn preferences(doc: &mut Doc, p: &PreferenceReport) {
    let derived = if p.derived_from_choices > 0 {
        format!(
            " {} of them derived from best-of-N choices and rankings (each choice a win over every \
             other output shown, each ranking every pair): a secondary view of the choices above.",
            p.derived_from_choices
        )
    } else {
        String::new()
    };
    doc.section(2, "Preferences");
    doc.paragraph(format!(
        "{} pairwise judgement(s) between {} system(s).{derived}",
        p.judgements,
        p.systems.len()
    ));
    doc.section(3, "Pairs");
    let mut table = Table::new(
        "Each pair of systems: wins of the first, with Wilson interval and binomial test",
        vec![
            text("A"),
            text("B"),
            numbers("A wins"),
            numbers("B wins"),
            numbers("Ties"),
            numbers("Win rate of A"),
            text("Wilson 95%"),
            text("Clopper–Pearson 95%"),
            numbers("p"),
        ],
    );
    for r in &p.pairs {
        table.rows.push(vec![
            Text::input(&r.system_a),
            Text::input(&r.system_b),
            r.wins.to_string().into(),
            r.losses.to_string().into(),
            r.ties.to_string().into(),
            num(r.win_rate, 3).into(),
            ci(r.wilson, 3).into(),
            ci(r.clopper_pearson, 3).into(),
            p_value(r.p_value).into(),
        ]);
    }
    doc.table(table);
    for r in &p.pairs {
        if let Some(s) = r.anytime_ci95 {
            doc.paragraph(
                Text::plain("- ")
                    .and_input(&r.system_a)
                    .and(" vs ")
                    .and_input(&r.system_b)
                    .and(format!(
                        ": anytime-valid 95% confidence sequence of the win rate of A {}",
                        ci(Some(s), 3)
                    )),
            );
        }
    }
    doc.figure(Figure::Preferences);
    if let Some(bt) = &p.bradley_terry {
        bradley_terry(doc, bt);
    }
    if let Some(l) = &p.leaderboard {
        leaderboard(doc, l);
    }
    let a = &p.agreement;
    doc.section(3, "Agreement on preferences");
    doc.paragraph(format!(
        "{} (item, pair) unit(s) judged by two or more of {} annotator(s).",
        a.units, a.annotators
    ));
    let mut table = Table::new(
        "Agreement on preferences",
        vec![text("Statistic"), numbers("Value")],
    );
    for (name, value) in [
        ("Fleiss' κ", a.fleiss_kappa),
        ("Krippendorff's α (nominal)", a.krippendorff_alpha.nominal),
        ("Percent agreement", a.percent_agreement),
    ] {
        table.rows.push(vec![name.into(), num(value, 3).into()]);
    }
    doc.table(table);
    if !a.cohen_kappa.is_empty() {
        let mut table = Table::new(
            "Cohen's κ on preferences per pair of annotators",
            vec![
                text("Annotators"),
                numbers("Units"),
                numbers("Agreement"),
                numbers("Cohen's κ"),
            ],
        );
        for c in a.cohen_kappa.iter().take(PAIRS_SHOWN) {
            table.rows.push(vec![
                Text::input(&c.annotator_a)
                    .and(" / ")
                    .and_input(&c.annotator_b),
                c.units.to_string().into(),
                num(c.agreement, 3).into(),
                num(c.unweighted, 3).into(),
            ]);
        }
        doc.table(table);
        more_pairs(doc, a.cohen_kappa.len());
    }
}

fn bradley_terry(doc: &mut Doc, bt: &BradleyTerryReport) {
    doc.section(3, "Bradley–Terry");
    let mut notes = Vec::new();
    if !bt.converged {
        notes.push(format!(
            "the fit did not converge in {} iterations",
            bt.iterations
        ));
    }
    if !bt.strongly_connected {
        notes.push(
            "the comparisons are not strongly connected, so the maximum-likelihood strengths do \
             not exist (these are where the iterations stopped) and have no interval; read them \
             with care"
                .to_owned(),
        );
    }
    if !bt.never_won.is_empty() {
        notes.push(format!("never won: {}", bt.never_won.join(", ")));
    }
    if !bt.never_lost.is_empty() {
        notes.push(format!("never lost: {}", bt.never_lost.join(", ")));
    }
    if !notes.is_empty() {
        doc.paragraph(Text::plain("Note: ").and_input(notes.join("; ")).and("."));
    }
    let mut table = Table::new(
        format!(
            "Bradley–Terry ranking (strengths sum to 1; {} bootstrap resamples)",
            bt.resamples
        ),
        vec![
            numbers("Rank"),
            text("System"),
            numbers("Strength"),
            text("95% CI (bootstrap)"),
        ],
    );
    let mut scores: Vec<(&String, _)> = bt.scores.iter().collect();
    scores.sort_by(|a, b| b.1.score.total_cmp(&a.1.score).then(a.0.cmp(b.0)));
    for (rank, (system, s)) in scores.iter().enumerate() {
        table.rows.push(vec![
            (rank + 1).to_string().into(),
            Text::input(*system),
            format!("{:.4}", s.score).into(),
            ci(s.ci, 4).into(),
        ]);
    }
    doc.table(table);
}

fn leaderboard(doc: &mut Doc, l: &Leaderboard) {
    doc.section(3, "Leaderboard");
    let model = match &l.tie_parameter {
        Some(_) => "Davidson's extension of Bradley–Terry (a tie an outcome of its own)",
        None => "The Bradley–Terry ratings (a tie half a win to each side)",
    };
    doc.paragraph(format!(
        "{model} on LMArena's scale (400 points a factor of 10 in the odds of winning, mean \
         1000), with sandwich 95% intervals as arena-rank computes them{}. The rank is Chatbot \
         Arena's (1 + the systems surely above); the rank interval holds for every system at \
         once (Bonferroni over every pair of systems).",
        if l.annotators > 0 {
            format!(
                " and the same clustered by annotator ({} annotators)",
                l.annotators
            )
        } else {
            String::new()
        }
    ));
    if let Some(t) = &l.tie_parameter {
        doc.paragraph(format!(
            "Tie parameter ν = {} (95% CI {}): two systems of equal rating tie with probability \
             {} (95% CI {}), systems further apart less often.",
            num(Some(t.nu), 3),
            ci(Some(t.ci95), 3),
            num(Some(t.tie_probability), 3),
            ci(Some(t.tie_probability_ci95), 3)
        ));
    }
    if let Some(note) = &l.note {
        doc.paragraph(Text::input(format!("{note}.")));
    }
    let mut head = vec![
        numbers("Rank"),
        text("System"),
        numbers("Rating"),
        text("95% CI (sandwich)"),
    ];
    if l.annotators > 0 {
        head.push(text("95% CI (by annotator)"));
    }
    head.push(text("Rank interval"));
    let mut table = Table::new(
        "Leaderboard with sandwich intervals and rank intervals",
        head,
    );
    for r in &l.systems {
        let mut row = vec![
            r.rank.to_string().into(),
            Text::input(&r.system),
            format!("{:.1}", r.rating).into(),
            ci(Some(r.ci95), 1).into(),
        ];
        if l.annotators > 0 {
            row.push(ci(r.ci95_clustered, 1).into());
        }
        row.push(format!("{}–{}", r.rank_interval[0], r.rank_interval[1]).into());
        table.rows.push(row);
    }
    doc.table(table);
}

pub(super) fn diagnostics(doc: &mut Doc, d: &Diagnostics, dimensions: &[DimensionReport]) {
    if d.position_scores.is_empty() && d.preference_position.is_none() && d.annotators.is_empty() {
        return;
    }
    doc.section(2, "Diagnostics");
    doc.paragraph("Shown for the reader to judge; nothing here was excluded from the analysis.");
    if !d.position_scores.is_empty() {
        doc.section(3, "Mean score by position shown");
        let mut table = Table::new(
            "Mean raw score by the position shown",
            vec![
                text("Dimension"),
                numbers("Position"),
                numbers("Ratings"),
                numbers("Mean"),
                numbers("SD"),
            ],
        );
        for p in &d.position_scores {
            for m in &p.positions {
                let named = dimensions.iter().find(|x| x.dimension == p.dimension);
                table.rows.push(vec![
                    named.map_or_else(|| Text::input(&p.dimension), super::dimension::heading),
                    m.position.to_string().into(),
                    m.n.to_string().into(),
                    format!("{:.2}", m.mean).into(),
                    num(m.sd, 2).into(),
                ]);
            }
        }
        doc.table(table);
    }
    if let Some(p) = &d.preference_position {
        doc.section(3, "Preference by position");
        doc.paragraph(format!(
            "Of {} judgement(s) whose order is known, the output shown first won {}, the second \
             {}, with {} tie(s): first-shown win rate {} {} (binomial p {}).",
            p.judgements,
            p.first_wins,
            p.second_wins,
            p.ties,
            num(p.first_win_rate, 3),
            ci(p.wilson, 3),
            p_value(p.p_value)
        ));
    }
    if d.repeats.repeats > 0 {
        repeats(doc, &d.repeats);
    }
    if !d.annotators.is_empty() {
        annotators(doc, d);
    }
}

/// How many ratings were repeats, and how consistent the annotators were on them.
fn repeats(doc: &mut Doc, r: &RepeatSummary) {
    let share = |n: usize| format!("{n} ({:.0}%)", 100.0 * n as f64 / r.repeats as f64);
    doc.section(3, "Repeated ratings");
    doc.paragraph(format!(
        "{} of the {} rating(s) given were repeats: an output shown again in a later trial (the \
         design shows it in several pairs) and rated again on the same dimension by the same \
         annotator. The first rating of each is the one analysed (given before the repetition \
         could anchor it); the repeats are not, and against it they were {} identical and {} \
         within one scale point.",
        r.repeats,
        r.ratings_given,
        share(r.same),
        share(r.within_one)
    ));
}

fn annotators(doc: &mut Doc, d: &Diagnostics) {
    doc.section(3, "Annotators");
    let mut table = Table::new(
        "Annotators: time, straight-lining, attention checks and repeats",
        vec![
            text("Annotator"),
            numbers("Ratings"),
            numbers("Judgements"),
            numbers("Trials"),
            numbers("Median s / trial"),
            numbers("Minutes"),
            text("Attention checks passed"),
            text("Repeats unchanged (within one point)"),
            text("Warnings"),
        ],
    );
    for a in &d.annotators {
        let c = &a.attention_checks;
        let checks = if c.trials == 0 {
            DASH.to_owned()
        } else if c.passed + c.failed == 0 {
            format!("{} not evaluated", c.trials)
        } else {
            format!("{} of {}", c.passed, c.passed + c.failed)
        };
        let repeats = if a.repeats.ratings == 0 {
            DASH.to_owned()
        } else {
            format!(
                "{} of {} ({} within one)",
                a.repeats.same, a.repeats.ratings, a.repeats.within_one
            )
        };
        table.rows.push(vec![
            Text::input(&a.annotator),
            a.ratings.to_string().into(),
            a.preferences.to_string().into(),
            a.trials.to_string().into(),
            num(a.median_seconds_per_trial, 1).into(),
            num(a.active_minutes, 1).into(),
            checks.into(),
            repeats.into(),
            Text::input(a.warnings.join("; ")),
        ]);
    }
    doc.table(table);
    if d.annotators
        .iter()
        .all(|a| a.median_seconds_per_trial.is_none())
    {
        return;
    }
    let speed = &d.speed;
    let against = speed.median_annotator_seconds.map_or(String::new(), |m| {
        format!(
            ", or under a third of the median annotator's {} s",
            number((m * 10.0).round() / 10.0)
        )
    });
    doc.paragraph(format!(
        "Speed is warned about for a median active time per trial under {} s (too fast to have \
         read the outputs){against}.",
        number(speed.floor_seconds)
    ));
}

/// The participant-level success criteria.
pub(super) fn thresholds(doc: &mut Doc, thresholds: &[ThresholdReport]) {
    doc.section(2, "Success criteria over participants");
    thresholds_table(doc, thresholds);
}

/// The table of success criteria, with what it holds.
pub(super) fn thresholds_table(doc: &mut Doc, thresholds: &[ThresholdReport]) {
    doc.paragraph(
        "Each participant's mean score of the system on the dimension, then over participants: \
         the mean with its 95% t interval, and one-sided tests that it is above the value (not \
         corrected: each criterion is its own question).",
    );
    let mut table = Table::new(
        "Success criteria over participants",
        vec![
            text("Dimension"),
            text("System"),
            numbers("At least"),
            numbers("Participants"),
            numbers("Mean"),
            text("95% CI (t)"),
            numbers("t"),
            numbers("p (t)"),
            numbers("p (Wilcoxon)"),
        ],
    );
    for t in thresholds {
        table.rows.push(vec![
            Text::input(&t.dimension),
            Text::input(&t.system),
            number(t.at_least).into(),
            t.participants.to_string().into(),
            num(t.mean, 2).into(),
            ci(t.ci95, 2).into(),
            num(t.t, 2).into(),
            p_value(t.p_t).into(),
            p_value(t.p_wilcoxon).into(),
        ]);
    }
    doc.table(table);
}

/// Each system's output divergence across annotators, and the comparisons of the divergences.
pub(super) fn divergence(
    doc: &mut Doc,
    divergence: &[DivergenceReport],
    comparisons: &[PairComparison],
    correction: Correction,
) {
    doc.section(2, "Output divergence across annotators");
    doc.paragraph(
        "For personal items that share a prompt, the cosine distance between the TF-IDF vectors \
         of a system's outputs for two different annotators (0: the same words in the same \
         proportions, 1: no word in common): each prompt's mean over its pairs, then the mean \
         over prompts with its 95% t interval.",
    );
    let mut table = Table::new(
        "Output divergence across annotators",
        vec![
            text("System"),
            numbers("Mean distance"),
            text("95% CI (t)"),
            numbers("Prompts"),
            numbers("Pairs"),
        ],
    );
    for d in divergence {
        table.rows.push(vec![
            Text::input(&d.system),
            num(Some(d.mean), 3).into(),
            ci(d.ci95, 3).into(),
            d.prompts.to_string().into(),
            d.pairs.to_string().into(),
        ]);
    }
    doc.table(table);
    divergence_comparisons(doc, comparisons, correction);
}

/// Whether one system's outputs diverge more than another's: the per-prompt differences,
/// tested as the plan says, with their notes.
fn divergence_comparisons(doc: &mut Doc, list: &[PairComparison], correction: Correction) {
    if list.is_empty() {
        return;
    }
    doc.section(3, "Comparisons of divergence");
    doc.paragraph(
        "Per prompt both systems have, A's divergence minus B's; the plan's paired tests for \
         the hypothesis's alternative (else the plan's), corrected among these comparisons.",
    );
    let adjusted = super::dimension::adjusted_header(correction);
    let mut table = Table::new(
        "Comparisons of output divergence",
        super::dimension::comparison_columns(["Prompts", "Divergence A", "Divergence B"], adjusted)
            .into_iter()
            .chain([numbers("r (rank-biserial)")])
            .collect(),
    );
    for c in list {
        let mut row = super::dimension::comparison_cells(c, 3);
        row.push(num(c.rank_biserial, 2).into());
        table.rows.push(row);
    }
    doc.table(table);
    let notes: Vec<Text> = list
        .iter()
        .filter(|c| !c.notes.is_empty())
        .map(|c| {
            Text::input(&c.system_a)
                .and(" vs ")
                .and_input(&c.system_b)
                .and(": ")
                .and_input(c.notes.join("; "))
        })
        .collect();
    if !notes.is_empty() {
        doc.push(super::Block::List(notes));
    }
}

/// The plan's hypotheses about slopes over rounds and preferences.
pub(super) fn hypotheses(doc: &mut Doc, tests: &[HypothesisTest]) {
    doc.section(2, "Planned tests of slopes and preferences");
    hypotheses_table(doc, "corrected with the plan's comparisons", tests);
}

/// The table of planned tests, introduced by how they are `corrected`.
pub(super) fn hypotheses_table(doc: &mut Doc, corrected: &str, tests: &[HypothesisTest]) {
    doc.paragraph(format!(
        "Each as the plan states it (its alternative; one-sided when it says so), {corrected}. \
         A slope against another system is the difference of the \
         two systems' slopes in the mixed model (Wald z, 95% Wald interval); a slope alone is \
         the least-squares slope (t on n − 2 df, 95% t interval); a preference is A's share of \
         the units' votes (one per unit of the plan; units with as many wins as losses have no \
         vote) with its 95% Wilson interval and the exact binomial test of 1/2."
    ));
    let mut table = Table::new(
        "Planned tests of slopes and preferences",
        vec![
            text("Hypothesis"),
            text("Kind"),
            text("Dimension"),
            text("A"),
            text("B"),
            text("H1"),
            numbers("Estimate"),
            text("95% CI"),
            numbers("z or t"),
            numbers("n"),
            numbers("p"),
            numbers("p (corrected)"),
        ],
    );
    for t in tests {
        let (kind, estimate) = match t.kind {
            HypothesisKind::Preference => ("preference (A's share)", num(t.estimate, 3)),
            _ if t.b.is_some() => ("slope A − slope B", num(t.estimate, 4)),
            _ => ("slope", num(t.estimate, 4)),
        };
        let relation = t.alternative.relation();
        let h1 = match (&t.b, t.kind) {
            (_, HypothesisKind::Preference) => format!("share {relation} 1/2"),
            (None, _) => format!("slope {relation} 0"),
            (Some(_), _) => format!("A {relation} B"),
        };
        table.rows.push(vec![
            Text::input(t.name.as_deref().unwrap_or(DASH)),
            kind.into(),
            Text::input(t.dimension.as_deref().unwrap_or(DASH)),
            Text::input(&t.a),
            Text::input(t.b.as_deref().unwrap_or(DASH)),
            h1.into(),
            estimate.into(),
            ci(t.ci95, 3).into(),
            num(t.statistic, 2).into(),
            t.n.to_string().into(),
            p_value(t.p_value).into(),
            p_value(t.p_adjusted).into(),
        ]);
    }
    doc.table(table);
    let notes: Vec<Text> = tests
        .iter()
        .filter(|t| !t.notes.is_empty())
        .map(|t| {
            Text::input(t.name.as_deref().unwrap_or(DASH))
                .and(": ")
                .and_input(t.notes.join("; "))
        })
        .collect();
    if !notes.is_empty() {
        doc.push(super::Block::List(notes));
    }
}
