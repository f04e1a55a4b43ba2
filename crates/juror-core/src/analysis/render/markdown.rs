//! The report as paper-ready Markdown: tables, then a methods paragraph that states every
//! convention, then the problems with the inputs.

use std::fmt::Write as _;

use crate::analysis::choices::ChoiceReport;
use crate::analysis::data::{Ci, number};
use crate::analysis::diagnostics::Diagnostics;
use crate::analysis::plan::{AnalysisPlan, Comparisons, Correction, Family, Test, Unit};
use crate::analysis::pseudonym;
use crate::analysis::report::{
    Agreement, BradleyTerryReport, DimensionReport, PairComparison, PreferenceReport, Report,
    SystemSummary,
};
use crate::analysis::rounds::Rounds;
use crate::stats::paired::Alternative;

/// Flags shown in the Markdown; all of them are in the JSON and the adjudication sheet.
const FLAGS_SHOWN: usize = 20;

/// Pairs of annotators shown in the Markdown (crowds have thousands); all are in the JSON.
const PAIRS_SHOWN: usize = 15;

fn more_pairs(out: &mut String, total: usize) {
    if total > PAIRS_SHOWN {
        let _ = writeln!(
            out,
            "The first {PAIRS_SHOWN} of {total} pairs of annotators sharing a unit are shown; all \
             are in the JSON report.\n"
        );
    }
}

/// Renders the whole report.
pub fn render(report: &Report) -> String {
    let mut out = String::from("# Analysis report\n\n");
    let s = &report.settings;
    let _ = writeln!(
        out,
        "{} input file(s); {} rating(s) on {} dimension(s); {} preference judgement(s).{}{}\n",
        report.inputs.len(),
        s.ratings,
        report.dimensions.len(),
        s.preferences,
        match &s.study {
            Some(id) => format!(" Checked against the study `{}`.", cell(id)),
            None => String::new(),
        },
        if report.problems.is_empty() {
            String::new()
        } else {
            format!(
                " **{} problem(s) with the inputs**, listed at the end; the rest was analysed.",
                report.problems.len()
            )
        }
    );
    for d in &report.dimensions {
        dimension(&mut out, d, s.flag_sd, &s.plan);
    }
    if let Some(c) = &report.choices {
        choices(&mut out, c);
    }
    if let Some(p) = &report.preferences {
        preferences(&mut out, p);
    }
    if let Some(a) = &report.answers {
        out.push_str(&super::answers::answers(a));
    }
    diagnostics(&mut out, &report.diagnostics);
    out.push_str("## Methods\n\n");
    out.push_str(&methods(report));
    out.push_str("\n\n");
    if !report.problems.is_empty() {
        out.push_str("## Problems with the inputs\n\n");
        for p in &report.problems {
            let _ = writeln!(out, "- {}", cell(&p.to_string()));
        }
        out.push('\n');
    }
    out
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

fn num(x: Option<f64>, decimals: usize) -> String {
    match x {
        // `+ 0.0` turns negative zero into zero.
        Some(v) => format!("{:.decimals$}", v + 0.0),
        None => "–".to_owned(),
    }
}

fn p_value(p: Option<f64>) -> String {
    match p {
        Some(p) if p < 0.001 => "< 0.001".to_owned(),
        Some(p) => format!("{p:.3}"),
        None => "–".to_owned(),
    }
}

fn ci(c: Option<Ci>, decimals: usize) -> String {
    match c {
        Some(c) => format!("[{:.decimals$}, {:.decimals$}]", c.low + 0.0, c.high + 0.0),
        None => "–".to_owned(),
    }
}

fn dimension(out: &mut String, d: &DimensionReport, flag_sd: f64, plan: &AnalysisPlan) {
    let _ = writeln!(
        out,
        "## {}\n\n{} rating(s) of {} item(s) by {} annotator(s){}.\n",
        cell(&d.dimension),
        d.ratings,
        d.items,
        d.annotators,
        match &d.scale {
            Some(s) if !s.is_empty() =>
                format!(", scale {} to {}", number(s[0]), number(s[s.len() - 1])),
            _ => String::new(),
        }
    );
    systems(out, &d.systems);
    agreement(out, &d.agreement);
    comparisons(out, "Comparisons", &d.comparisons, plan);
    comparisons(out, "Contrasts", &d.contrasts, plan);
    for g in &d.groups {
        let _ = writeln!(
            out,
            "### Item group {} ({} item(s); a breakdown, p-values not corrected)\n",
            cell(&g.group),
            g.items
        );
        systems_titled(out, "#### Systems", &g.systems);
        comparisons(
            out,
            &format!("Comparisons within {}", cell(&g.group)),
            &g.comparisons,
            plan,
        );
    }
    for g in &d.intake_groups {
        let question = plan.by_intake.as_deref().unwrap_or("the intake question");
        let _ = writeln!(
            out,
            "### Annotators who answered \"{}\" to {} ({} item(s); a breakdown, p-values not corrected)\n",
            cell(&g.group),
            cell(question),
            g.items
        );
        systems_titled(out, "#### Systems", &g.systems);
        comparisons(
            out,
            &format!("Comparisons among those who answered {}", cell(&g.group)),
            &g.comparisons,
            plan,
        );
    }
    if let Some(r) = &d.rounds {
        rounds(out, r);
    }
    if !d.flags.is_empty() {
        let _ = writeln!(
            out,
            "### Cells to adjudicate\n\n{} cell(s) whose ratings have a sample SD above {flag_sd}{}.\n",
            d.flags.len(),
            if d.flags.len() > FLAGS_SHOWN {
                format!(
                    "; the first {FLAGS_SHOWN} are shown (all are in the JSON report and the adjudication sheet)"
                )
            } else {
                String::new()
            }
        );
        out.push_str("| Item | System | Ratings | SD | Adjudicated |\n|---|---|---|---:|---:|\n");
        for f in d.flags.iter().take(FLAGS_SHOWN) {
            let ratings: Vec<String> = f
                .ratings
                .iter()
                .map(|r| format!("{} ({})", number(r.score), r.annotator))
                .collect();
            let _ = writeln!(
                out,
                "| {} | {} | {} | {:.2} | {} |",
                cell(&f.item),
                cell(&f.system),
                cell(&ratings.join(", ")),
                f.sd,
                f.adjudicated.map(number).unwrap_or_else(|| "–".into())
            );
        }
        out.push('\n');
    }
}

fn rounds(out: &mut String, r: &Rounds) {
    let _ = writeln!(
        out,
        "### Over rounds\n\n{} rating(s) with a round, rounds {} to {}.\n",
        r.ratings,
        number(r.rounds[0]),
        number(r.rounds[r.rounds.len() - 1])
    );
    out.push_str(
        "| System | Ratings | Slope per round | SE | p | Spearman's ρ | p (ρ) |\n\
         |---|---:|---:|---:|---:|---:|---:|\n",
    );
    for t in &r.trends {
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} | {} | {} |",
            cell(&t.system),
            t.n,
            num(t.slope, 3),
            num(t.slope_se, 3),
            p_value(t.p_value),
            num(t.spearman_rho, 3),
            p_value(t.spearman_p),
        );
    }
    out.push('\n');
    if let Some(m) = &r.mixed_model {
        let _ = writeln!(
            out,
            "Linear mixed model `{}` by REML, reference system {}: {} rating(s), {} annotator(s); \
             annotator variance {:.4}, residual variance {:.4}{}.\n",
            m.formula,
            cell(&m.reference),
            m.n_obs,
            m.n_groups,
            m.annotator_variance,
            m.residual_variance,
            if m.boundary {
                " (at the boundary: the fit is ordinary least squares)"
            } else {
                ""
            }
        );
        out.push_str("| Term | Estimate | SE | z | p |\n|---|---:|---:|---:|---:|\n");
        for f in &m.fixed_effects {
            let _ = writeln!(
                out,
                "| {} | {:.4} | {:.4} | {:.2} | {} |",
                cell(&f.name),
                f.estimate,
                f.se,
                f.z,
                p_value(Some(f.p_value))
            );
        }
        out.push('\n');
    }
    for n in &r.notes {
        let _ = writeln!(out, "- {}", cell(n));
    }
    if !r.notes.is_empty() {
        out.push('\n');
    }
}

fn diagnostics(out: &mut String, d: &Diagnostics) {
    if d.position_scores.is_empty() && d.preference_position.is_none() && d.annotators.is_empty() {
        return;
    }
    out.push_str(
        "## Diagnostics\n\nShown for the reader to judge; nothing here was excluded from the \
         analysis.\n\n",
    );
    if !d.position_scores.is_empty() {
        out.push_str("### Mean score by position shown\n\n| Dimension | Position | Ratings | Mean | SD |\n|---|---:|---:|---:|---:|\n");
        for p in &d.position_scores {
            for m in &p.positions {
                let _ = writeln!(
                    out,
                    "| {} | {} | {} | {:.2} | {} |",
                    cell(&p.dimension),
                    m.position,
                    m.n,
                    m.mean,
                    num(m.sd, 2)
                );
            }
        }
        out.push('\n');
    }
    if let Some(p) = &d.preference_position {
        let _ = writeln!(
            out,
            "### Preference by position\n\nOf {} judgement(s) whose order is known, the output \
             shown first won {}, the second {}, with {} tie(s): first-shown win rate {} {} \
             (binomial p {}).\n",
            p.judgements,
            p.first_wins,
            p.second_wins,
            p.ties,
            num(p.first_win_rate, 3),
            ci(p.wilson, 3),
            p_value(p.p_value)
        );
    }
    if !d.annotators.is_empty() {
        out.push_str(
            "### Annotators\n\n| Annotator | Ratings | Judgements | Trials | Median s / trial | \
             Minutes | Attention checks passed | Repeats unchanged | Warnings |\n\
             |---|---:|---:|---:|---:|---:|---|---|---|\n",
        );
        for a in &d.annotators {
            let c = &a.attention_checks;
            let checks = if c.trials == 0 {
                "–".to_owned()
            } else if c.passed + c.failed == 0 {
                format!("{} not evaluated", c.trials)
            } else {
                format!("{} of {}", c.passed, c.passed + c.failed)
            };
            let repeats = if a.repeats.ratings == 0 {
                "–".to_owned()
            } else {
                format!("{} of {}", a.repeats.same, a.repeats.ratings)
            };
            let _ = writeln!(
                out,
                "| {} | {} | {} | {} | {} | {} | {} | {} | {} |",
                cell(&a.annotator),
                a.ratings,
                a.preferences,
                a.trials,
                num(a.median_seconds_per_trial, 1),
                num(a.active_minutes, 1),
                checks,
                repeats,
                cell(&a.warnings.join("; ")),
            );
        }
        out.push('\n');
    }
}

fn systems(out: &mut String, systems: &[SystemSummary]) {
    systems_titled(out, "### Systems", systems);
}

fn systems_titled(out: &mut String, title: &str, systems: &[SystemSummary]) {
    let _ = writeln!(out, "{title}\n");
    out.push_str(
        "| System | Items | Ratings | Mean ± SD | Median | 95% CI (t) | 95% CI (bootstrap) |\n\
         |---|---:|---:|---|---:|---|---|\n",
    );
    for s in systems {
        let _ = writeln!(
            out,
            "| {}{} | {} | {} | {:.2} ± {} | {:.2} | {} | {} |",
            cell(&s.system),
            if s.adjudicated > 0 {
                format!(" ({} adjudicated)", s.adjudicated)
            } else {
                String::new()
            },
            s.n,
            s.n_ratings,
            s.mean,
            num(s.sd, 2),
            s.median,
            ci(s.ci95, 2),
            ci(
                s.bootstrap.map(|b| Ci {
                    low: b.low,
                    high: b.high
                }),
                2
            ),
        );
    }
    out.push('\n');
}

fn agreement(out: &mut String, a: &Agreement) {
    let _ = writeln!(
        out,
        "### Agreement\n\nOn the raw ratings; {} (item, system) cell(s) rated by two or more of {} annotator(s).\n",
        a.units, a.annotators
    );
    out.push_str("| Statistic | Value |\n|---|---:|\n");
    for (name, value) in [
        ("Fleiss' κ", a.fleiss_kappa),
        ("Krippendorff's α (nominal)", a.krippendorff_alpha.nominal),
        ("Krippendorff's α (ordinal)", a.krippendorff_alpha.ordinal),
        ("Krippendorff's α (interval)", a.krippendorff_alpha.interval),
        ("Percent agreement", a.percent_agreement),
    ] {
        let _ = writeln!(out, "| {name} | {} |", num(value, 3));
    }
    out.push('\n');
    if !a.cohen_kappa.is_empty() {
        out.push_str(
            "| Annotators | Units | Agreement | Cohen's κ | κ (linear) | κ (quadratic) |\n\
             |---|---:|---:|---:|---:|---:|\n",
        );
        for p in a.cohen_kappa.iter().take(PAIRS_SHOWN) {
            let _ = writeln!(
                out,
                "| {} / {} | {} | {} | {} | {} | {} |",
                cell(&p.annotator_a),
                cell(&p.annotator_b),
                p.units,
                num(p.agreement, 3),
                num(p.unweighted, 3),
                num(p.linear, 3),
                num(p.quadratic, 3)
            );
        }
        out.push('\n');
        more_pairs(out, a.cohen_kappa.len());
    }
}

/// A table of paired comparisons (or of contrasts of groups), with their notes.
fn comparisons(out: &mut String, title: &str, list: &[PairComparison], plan: &AnalysisPlan) {
    if list.is_empty() {
        return;
    }
    let exploratory = list.iter().any(|c| c.exploratory);
    let _ = writeln!(
        out,
        "### {title}{}\n",
        if exploratory { " (exploratory)" } else { "" }
    );
    let unit = match plan.unit {
        Unit::Item => "Items",
        Unit::Annotator => "Annotators",
    };
    let adjusted = match plan.correction {
        Correction::Holm => "p (Holm)",
        Correction::Bonferroni => "p (Bonferroni)",
        Correction::None => "p (unadjusted)",
    };
    let _ = writeln!(
        out,
        "| A | B | Hypothesis | {unit} | Mean A | Mean B | A − B | 95% CI | t (df) | p (t) | W | p (W) | {adjusted} | d_z | d_z 95% CI | g_z | r (rank-biserial) |\n\
         |---|---|---|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|---|---:|---:|"
    );
    for c in list {
        let relation = format!("A {} B", c.alternative.relation());
        let hypothesis = match &c.hypothesis {
            Some(name) => format!("{} ({relation})", cell(name)),
            None => relation.to_owned(),
        };
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            cell(&c.system_a),
            cell(&c.system_b),
            hypothesis,
            c.n,
            num(c.mean_a, 2),
            num(c.mean_b, 2),
            num(c.mean_diff, 2),
            c.mean_diff_ci95.map_or("–".to_owned(), |ci| ci_text(ci, 2)),
            c.t_test
                .map_or("–".to_owned(), |t| format!("{:.2} ({})", t.t + 0.0, t.df)),
            p_value(c.t_test.map(|t| t.p_value)),
            num(c.wilcoxon.map(|w| w.statistic), 1),
            p_value(c.wilcoxon.map(|w| w.p_value)),
            p_value(c.p_adjusted),
            num(c.d_z, 2),
            c.d_z_ci95.map_or("–".to_owned(), |ci| ci_text(ci, 2)),
            num(c.g_z, 2),
            num(c.rank_biserial, 2)
        );
    }
    out.push('\n');
    let mut notes: Vec<String> = list
        .iter()
        .filter_map(|c| {
            let ni = c.non_inferiority?;
            Some(format!(
                "- {} vs {}: non-inferiority with margin {}: p (t) {}, p (W) {}",
                cell(&c.system_a),
                cell(&c.system_b),
                ni.margin,
                p_value(ni.p_t),
                p_value(ni.p_wilcoxon)
            ))
        })
        .collect();
    notes.extend(list.iter().filter(|c| !c.notes.is_empty()).map(|c| {
        format!(
            "- {} vs {}: {}",
            cell(&c.system_a),
            cell(&c.system_b),
            cell(&c.notes.join("; "))
        )
    }));
    if !notes.is_empty() {
        out.push_str(&notes.join("\n"));
    }
    out.push('\n');
}

fn ci_text(c: Ci, decimals: usize) -> String {
    format!("[{:.decimals$}, {:.decimals$}]", c.low + 0.0, c.high + 0.0)
}

/// The plan in words, for the methods paragraph.
fn plan_in_words(plan: &AnalysisPlan, source: &str, comparisons: usize) -> String {
    let unit = match plan.unit {
        Unit::Item => "the items both have, on each system's mean rating of an item",
        Unit::Annotator => {
            "the annotators who rated both, on each annotator's mean rating of a system over \
             the items they rated"
        }
    };
    let which = match &plan.comparisons {
        Comparisons::All => "Every pair of systems was".to_owned(),
        Comparisons::Anchor(anchor) => format!("{anchor} was compared with each other system and"),
        Comparisons::Pairs(pairs) => format!(
            "The pairs {} were",
            pairs
                .iter()
                .map(|(a, b)| format!("{a} – {b}"))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    };
    let tests: Vec<&str> = plan
        .tests
        .iter()
        .map(|t| match t {
            Test::Wilcoxon => "the Wilcoxon signed-rank test",
            Test::T => "the paired t-test",
        })
        .collect();
    let alternative = match plan.alternative {
        Alternative::TwoSided => "two-sided".to_owned(),
        one_sided => format!("one-sided (A {} B)", one_sided.relation()),
    };
    let hypotheses = if plan.hypotheses.is_empty() {
        String::new()
    } else {
        let parts: Vec<String> = plan
            .hypotheses
            .iter()
            .map(|h| {
                let dir = h.alternative.relation();
                let mut text = format!(
                    "{}{} {dir} {}{}",
                    h.name.as_ref().map_or(String::new(), |n| format!("{n}: ")),
                    h.a,
                    h.b,
                    h.dimension
                        .as_ref()
                        .map_or(String::new(), |d| format!(" on {d}"))
                );
                if let Some(m) = h.margin {
                    text.push_str(&format!(" (with a non-inferiority test of A − B > −{m})"));
                }
                text
            })
            .collect();
        format!(
            " The directional hypotheses tested one-sided: {}.",
            parts.join("; ")
        )
    };
    let hypotheses = match plan.margin {
        Some(m) => format!(
            "{hypotheses} Every other comparison was also tested for non-inferiority, A − B > −{m}."
        ),
        None => hypotheses,
    };
    let correction = match plan.correction {
        Correction::Holm => {
            "were adjusted by Holm's step-down method (Bonferroni's is also reported)"
        }
        Correction::Bonferroni => "were adjusted by Bonferroni's method (Holm's is also reported)",
        Correction::None => "were not adjusted (Holm's and Bonferroni's are reported)",
    };
    let family = match plan.family {
        Family::Plan => format!(
            "over the {comparisons} comparison(s) of the primary dimensions together{}",
            if plan.primary.is_empty() {
                " (every dimension)".to_owned()
            } else {
                format!(
                    " ({}; the others, exploratory, apart)",
                    plan.primary.join(", ")
                )
            }
        ),
        Family::Dimension => "within each dimension".to_owned(),
    };
    let source = match source {
        "study" => "pre-registered in the study file",
        "key" => "pre-registered in the study file (kept with the key of the published study)",
        "options" => "chosen at analysis time (exploratory)",
        _ => "Juror's default, no plan having been given",
    };
    format!(
        "The analysis plan was {source}. {which} compared on {unit}, by {} ({alternative} unless \
         a hypothesis says otherwise), with the mean difference's 95% t interval.{hypotheses} \
         The first test's p-values {correction}, {family}.",
        tests.join(" and ")
    )
}

/// Best-of-N choices and rankings, as made.
fn choices(out: &mut String, c: &ChoiceReport) {
    if let Some(b) = &c.best {
        let _ = writeln!(
            out,
            "## Best-of-N choices\n\n{} choice(s), one per trial.\n\n\
             | System | Offered | Chosen | Share | Wilson 95% |\n|---|---:|---:|---:|---|",
            b.choices
        );
        for s in &b.systems {
            let _ = writeln!(
                out,
                "| {} | {} | {} | {} | {} |",
                cell(&s.system),
                s.offered,
                s.chosen,
                num(s.share, 3),
                ci(s.wilson, 3)
            );
        }
        out.push('\n');
        if let Some(t) = b.chi_square {
            let _ = writeln!(
                out,
                "Against equal shares: χ² = {:.2} (df {}), p {}{}.\n",
                t.statistic,
                t.df,
                p_value(Some(t.p_value)),
                b.exact_p.map_or(String::new(), |p| format!(
                    "; exact multinomial p {}",
                    p_value(Some(p))
                ))
            );
        }
        let a = &b.agreement;
        let _ = writeln!(
            out,
            "Agreement on the chosen system over {} item(s) chosen on by two or more of {} annotator(s): \
             Fleiss' κ {}, Krippendorff's α (nominal) {}, percent agreement {}.\n",
            a.units,
            a.annotators,
            num(a.fleiss_kappa, 3),
            num(a.krippendorff_alpha_nominal, 3),
            num(a.percent_agreement, 3)
        );
        for note in &b.notes {
            let _ = writeln!(out, "- {}\n", cell(note));
        }
    }
    if let Some(r) = &c.ranks {
        let _ = writeln!(
            out,
            "## Rankings\n\n{} ranking(s); rank 1 is the best.\n\n\
             | System | Rankings | Mean rank | 95% CI (t) |\n|---|---:|---:|---|",
            r.rankings
        );
        for s in &r.systems {
            let _ = writeln!(
                out,
                "| {} | {} | {} | {} |",
                cell(&s.system),
                s.n,
                num(Some(s.mean_rank), 2),
                ci(s.ci95, 2)
            );
        }
        out.push('\n');
        if let Some(f) = r.friedman {
            let _ = writeln!(
                out,
                "Friedman test over {} complete ranking(s): χ² = {:.2} (df {}), p {}; Kendall's W = {:.3}.\n",
                f.blocks,
                f.statistic,
                f.df,
                p_value(Some(f.p_value)),
                f.kendall_w
            );
        }
        for note in &r.notes {
            let _ = writeln!(out, "- {}\n", cell(note));
        }
    }
}

fn preferences(out: &mut String, p: &PreferenceReport) {
    let derived = if p.derived_from_choices > 0 {
        format!(
            " {} of them derived from best-of-N choices and rankings (each choice a win over every \
             other output shown, each ranking every pair): a secondary view of the choices above.",
            p.derived_from_choices
        )
    } else {
        String::new()
    };
    let _ = writeln!(
        out,
        "## Preferences\n\n{} pairwise judgement(s) between {} system(s).{derived}\n\n### Pairs\n",
        p.judgements,
        p.systems.len()
    );
    out.push_str(
        "| A | B | A wins | B wins | Ties | Win rate of A | Wilson 95% | Clopper–Pearson 95% | p |\n\
         |---|---|---:|---:|---:|---:|---|---|---:|\n",
    );
    for r in &p.pairs {
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            cell(&r.system_a),
            cell(&r.system_b),
            r.wins,
            r.losses,
            r.ties,
            num(r.win_rate, 3),
            ci(r.wilson, 3),
            ci(r.clopper_pearson, 3),
            p_value(r.p_value)
        );
    }
    out.push('\n');
    if let Some(bt) = &p.bradley_terry {
        bradley_terry(out, bt);
    }
    let a = &p.agreement;
    let _ = writeln!(
        out,
        "### Agreement on preferences\n\n{} (item, pair) unit(s) judged by two or more of {} annotator(s).\n",
        a.units, a.annotators
    );
    out.push_str("| Statistic | Value |\n|---|---:|\n");
    for (name, value) in [
        ("Fleiss' κ", a.fleiss_kappa),
        ("Krippendorff's α (nominal)", a.krippendorff_alpha.nominal),
        ("Percent agreement", a.percent_agreement),
    ] {
        let _ = writeln!(out, "| {name} | {} |", num(value, 3));
    }
    out.push('\n');
    if !a.cohen_kappa.is_empty() {
        out.push_str("| Annotators | Units | Agreement | Cohen's κ |\n|---|---:|---:|---:|\n");
        for c in a.cohen_kappa.iter().take(PAIRS_SHOWN) {
            let _ = writeln!(
                out,
                "| {} / {} | {} | {} | {} |",
                cell(&c.annotator_a),
                cell(&c.annotator_b),
                c.units,
                num(c.agreement, 3),
                num(c.unweighted, 3)
            );
        }
        out.push('\n');
        more_pairs(out, a.cohen_kappa.len());
    }
}

fn bradley_terry(out: &mut String, bt: &BradleyTerryReport) {
    out.push_str("### Bradley–Terry\n\n");
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
             not exist; read them with care"
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
        let _ = writeln!(out, "Note: {}.\n", cell(&notes.join("; ")));
    }
    out.push_str("| Rank | System | Strength | 95% CI (bootstrap) |\n|---:|---|---:|---|\n");
    let mut scores: Vec<(&String, _)> = bt.scores.iter().collect();
    scores.sort_by(|a, b| b.1.score.total_cmp(&a.1.score).then(a.0.cmp(b.0)));
    for (rank, (system, s)) in scores.iter().enumerate() {
        let _ = writeln!(
            out,
            "| {} | {} | {:.4} | {} |",
            rank + 1,
            cell(system),
            s.score,
            ci(s.ci, 4)
        );
    }
    out.push('\n');
}

/// The methods paragraph: every convention the numbers above depend on.
pub fn methods(report: &Report) -> String {
    let s = &report.settings;
    let mut parts: Vec<String> = Vec::new();
    if !report.dimensions.is_empty() {
        let comparisons: usize = report
            .dimensions
            .iter()
            .map(|d| {
                d.comparisons
                    .iter()
                    .filter(|c| c.p_value.is_some() && !c.exploratory)
                    .count()
            })
            .sum();
        parts.push(format!(
            "Ratings were analysed separately for each dimension. For each system, the ratings of \
             an item were averaged over annotators{adj}, and the system's mean, SD (n − 1) and \
             median are those of these item means, with a 95% t interval and a 95% percentile \
             bootstrap interval ({resamples} resamples of items, seed {seed}); the distribution \
             counts the ratings used. Inter-annotator agreement was computed on the raw ratings \
             (never adjudicated), with units the (item, system) cells: Fleiss' κ (each unit with \
             its own number of ratings), Krippendorff's α (coincidence matrix, nominal, ordinal \
             and interval distances; Krippendorff 2011), Cohen's κ for every pair of annotators \
             over the cells both rated (unweighted, and with linear and quadratic weights \
             counting steps on the scale{scale}), and percent agreement (the share of agreeing \
             pairs of ratings within a unit, averaged over units). {plan} The Wilcoxon test \
             drops zero differences and gives ties average ranks (the exact null distribution up \
             to 50 differences without ties or zeros, the exact permutation distribution up to 13 \
             with them, otherwise the normal approximation with tie correction and no continuity \
             correction, as scipy 1.15); the effect sizes are d_z (mean difference over its SD) \
             with its 95% interval from the noncentral t (Steiger and Fouladi 1997), \
             Hedges' g_z = (1 − 3/(4(n − 1) − 1)) d_z and the matched-pairs rank-biserial \
             correlation (W+ − W−)/(W+ + W−). Cells whose ratings have a sample SD above \
             {flag_sd} were flagged for adjudication.",
            plan = plan_in_words(&s.plan, s.plan_source, comparisons),
            adj = if s.adjudication.is_some() {
                ", except that an adjudicated score replaced the ratings of its cell"
            } else {
                ""
            },
            resamples = s.resamples,
            seed = s.seed,
            scale = if report.dimensions.iter().all(|d| d.scale.is_some()) {
                " of the study"
            } else {
                " of the values used"
            },
            flag_sd = s.flag_sd,
        ));
    }
    if let Some(ids) = s.platform_ids {
        parts.push(format!(
            "Participants recruited on a platform (Prolific, MTurk, SONA) are identified by \
             their platform id {}.",
            if ids == pseudonym::SHOWN {
                "as the platform gave it"
            } else if ids == pseudonym::KEYED {
                "under a pseudonym (the first 12 hex digits of a SHA-256 keyed with a secret the \
                 study's key holds)"
            } else {
                "under a pseudonym (the first 12 hex digits of a SHA-256 of the id, without a \
                 secret)"
            }
        ));
    }
    if report.preferences.is_some() {
        parts.push(format!(
            "Pairwise preferences were counted per pair of systems in either position shown. \
             From Juror ratings files, a choice counts as a win of the chosen output over the \
             other, a best choice as a win of the best output over each other output shown, a \
             ranking as a win of each output over every output ranked below it, and a tie as a \
             tie. A win rate is wins / (wins + losses), ties excluded, with Wilson and \
             Clopper–Pearson 95% intervals and the exact two-sided binomial test of ½. \
             Bradley–Terry strengths were fitted by Hunter's (2004) MM algorithm with a tie \
             counting as half a win for each side and no pseudo-count, normalised to sum to 1, \
             with 95% percentile bootstrap intervals resampling judgements ({resamples} \
             resamples, seed {seed}). Agreement on preferences treats each (item, pair of \
             systems) as a unit and its label (tie, first system preferred, second preferred; \
             systems in byte order) as nominal: Fleiss' κ, Krippendorff's α and unweighted \
             Cohen's κ for every pair of annotators.",
            resamples = s.resamples,
            seed = s.seed,
        ));
    }
    if report.dimensions.iter().any(|d| d.rounds.is_some()) {
        parts.push(
            "Change over rounds was estimated on the raw ratings that have a round (one point per \
             rating): per system, the least-squares slope of the rating on the round with its \
             standard error and two-sided t test (n − 2 degrees of freedom), and Spearman's ρ \
             with its t-approximation p-value (as scipy's linregress and spearmanr); and a \
             linear mixed model, rating ~ system + round + system:round + (1 | annotator), with \
             treatment coding against the reference system named, fitted by REML (profiled \
             likelihood maximised over the variance ratio; model-based standard errors of the \
             fixed effects, Wald z tests), as statsmodels' MixedLM and R's lme4."
                .to_owned(),
        );
    }
    parts.push(
        "Only finished trials (done) of ratings files are used, attention-check items are left \
         out of the analysis (their results are listed per annotator), and a second rating of \
         the same (item, system, annotator, dimension), or a second judgement of the same (item, \
         pair, annotator), is left out and reported; the exception is an output an annotator \
         rated again in a later trial of the same session (shown in several pairs), whose first \
         rating is used and whose repeats are compared with it in the diagnostics. The \
         diagnostics (mean score by position shown, the first-shown output's win rate with its \
         Wilson interval and binomial test, active time per trial, straight-lining, attention \
         checks, consistency of repeated ratings) are reported for the reader to judge; no \
         annotator or rating was excluded on their basis."
            .to_owned(),
    );
    parts.join(" ")
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
