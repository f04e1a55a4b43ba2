//! Best-of-N choices, best–worst scaling and rankings as the annotators made them (the report's
//! `choices`): shares
//! of first choices with Wilson intervals, the test against equal shares, agreement on the
//! chosen system; mean ranks with intervals, Friedman and Kendall's W. And every other answer
//! (the report's `answers`): output questions, flags, surveys.

use juror_core::analysis::answers::{AnswersReport, QuestionSummary};
use juror_core::analysis::choices::ChoiceReport;
use juror_core::analysis::render::fmt;
use leptos::prelude::*;

use crate::components::DataTable;

/// The choices' section of the report.
#[component]
pub fn ChoicesView(choices: ChoiceReport) -> impl IntoView {
    let best = choices.best.map(|b| {
        let rows: Vec<Vec<String>> = b
            .systems
            .iter()
            .map(|s| {
                vec![
                    s.system.clone(),
                    s.offered.to_string(),
                    s.chosen.to_string(),
                    fmt::num(s.share, 3),
                    fmt::ci(s.wilson, 3),
                ]
            })
            .collect();
        let test = b.chi_square.map(|t| {
            format!(
                "Against equal shares: chi-square {:.2} (df {}), p {}{}.",
                t.statistic,
                t.df,
                fmt::p_value(Some(t.p_value)),
                b.exact_p
                    .map_or(String::new(), |p| format!("; exact multinomial p {}", fmt::p_value(Some(p))))
            )
        });
        let a = b.agreement;
        let agreement = format!(
            "Agreement on the chosen system ({} items chosen on by two or more of {} annotators): Fleiss' kappa {}, Krippendorff's alpha (nominal) {}, percent agreement {}.",
            a.units,
            a.annotators,
            fmt::num(a.fleiss_kappa, 3),
            fmt::num(a.krippendorff_alpha_nominal, 3),
            fmt::num(a.percent_agreement, 3)
        );
        view! {
            <h3 id="best-heading">"Best-of-N choices"</h3>
            <DataTable
                caption=format!("Share of first choices per system ({} choices, one per trial)", b.choices)
                columns=&["System", "Offered", "Chosen", "Share", "95% CI (Wilson)"]
                rows
                header=1
            />
            {test.map(|t| view! { <p>{t}</p> })}
            <p>{agreement}</p>
            {b.notes.into_iter().map(|n| view! { <p class="hint">{n}</p> }).collect_view()}
        }
    });
    let ranks = choices.ranks.map(|r| {
        let rows: Vec<Vec<String>> = r
            .systems
            .iter()
            .map(|s| {
                vec![
                    s.system.clone(),
                    s.n.to_string(),
                    format!("{:.2}", s.mean_rank),
                    fmt::ci(s.ci95, 3),
                ]
            })
            .collect();
        let friedman = r.friedman.map(|f| {
            format!(
                "Friedman test over {} complete rankings: chi-square {:.2} (df {}), p {}; Kendall's W {:.3}.",
                f.blocks,
                f.statistic,
                f.df,
                fmt::p_value(Some(f.p_value)),
                f.kendall_w
            )
        });
        view! {
            <h3>"Rankings"</h3>
            <DataTable
                caption=format!("Mean rank per system, 1 the best ({} rankings)", r.rankings)
                columns=&["System", "Rankings", "Mean rank", "95% CI (t)"]
                rows
                header=1
            />
            {friedman.map(|f| view! { <p>{f}</p> })}
            {r.notes.into_iter().map(|n| view! { <p class="hint">{n}</p> }).collect_view()}
        }
    });
    let best_worst = choices.best_worst.map(|b| {
        let rows: Vec<Vec<String>> = b
            .systems
            .iter()
            .map(|s| {
                vec![
                    s.system.clone(),
                    s.shown.to_string(),
                    s.best.to_string(),
                    s.worst.to_string(),
                    fmt::num(s.counting_score, 3),
                    fmt::ci(s.counting_ci, 3),
                    fmt::num(s.utility, 3),
                    fmt::ci(s.utility_ci, 3),
                ]
            })
            .collect();
        let positions: Vec<Vec<String>> = b
            .positions
            .iter()
            .map(|p| {
                vec![
                    p.position.to_string(),
                    p.judgements.to_string(),
                    fmt::num(p.best_share, 3),
                    fmt::num(p.worst_share, 3),
                ]
            })
            .collect();
        let half = b.split_half.map(|h| {
            format!(
                "Split-half reliability of the counting scores over {} random halves of the judgements: mean Spearman rho {:.3}, Spearman-Brown {:.3}.",
                h.splits, h.mean_rho, h.spearman_brown
            )
        });
        view! {
            <h3>"Best–worst scaling"</h3>
            <DataTable
                caption=format!("Best–worst scores per system ({} judgements on {} items)", b.judgements, b.items)
                columns=&["System", "Shown", "Best", "Worst", "Counting score", "Bootstrap 95%", "Maxdiff utility", "Wald 95%"]
                rows
                header=1
            />
            {half.map(|h| view! { <p>{h}</p> })}
            <DataTable
                caption="Best–worst choices by position".to_owned()
                columns=&["Position", "Judgements", "Best share", "Worst share"]
                rows=positions
                header=1
            />
            {b.notes.into_iter().map(|n| view! { <p class="hint">{n}</p> }).collect_view()}
        }
    });
    view! {
        <section class="choices" aria-label="Choices and rankings">
            {best}
            {best_worst}
            {ranks}
        </section>
    }
}

/// Output questions, flags and surveys (the report's `answers`); the texts are in the answers
/// CSV.
#[component]
pub fn AnswersView(answers: AnswersReport) -> impl IntoView {
    let questions = move |title: &'static str, list: Vec<QuestionSummary>| {
        (!list.is_empty()).then(|| {
            view! {
                <h3>{title}</h3>
                {list
                    .into_iter()
                    .map(question_view)
                    .collect_view()}
            }
        })
    };
    let flags: Vec<Vec<String>> = answers
        .flags
        .iter()
        .map(|f| {
            vec![
                f.system.clone(),
                format!("{} of {}", f.count, f.of),
                fmt::percent(f.share),
                fmt::ci(f.wilson, 3),
            ]
        })
        .collect();
    let violations: Vec<Vec<String>> = answers
        .flag_rule_violations
        .iter()
        .map(|v| {
            vec![
                v.annotator.clone(),
                v.item.clone(),
                v.system.clone(),
                v.dimension.clone(),
                fmt::num(Some(v.score), 3),
                v.required.to_string(),
            ]
        })
        .collect();
    let texts = (answers.notes + answers.explanations > 0).then(|| {
        format!(
            "{} notes and {} reasons for preferences were written; download the answers CSV to read them.",
            answers.notes, answers.explanations
        )
    });
    view! {
        <section class="answers" aria-label="Other answers">
            {questions("Output questions", answers.output_questions)}
            {(!flags.is_empty()).then(|| view! {
                <h3>"Flags"</h3>
                <DataTable
                    caption="Flagged outputs per system".to_owned()
                    columns=&["System", "Flagged", "Share", "95% CI (Wilson)"]
                    rows=flags
                    header=1
                />
            })}
            {(!violations.is_empty()).then(|| view! {
                <DataTable
                    caption="Ratings of flagged outputs that break the flag's rule".to_owned()
                    columns=&["Annotator", "Item", "System", "Dimension", "Score", "Required"]
                    rows=violations
                />
            })}
            {questions("Intake survey", answers.intake)}
            {questions("Exit survey", answers.exit)}
            {texts.map(|t| view! { <p>{t}</p> })}
        </section>
    }
}

/// One question's summary: its options' shares, its numbers, its mean ranks, what was written,
/// "Cannot judge", and its tests.
fn question_view(q: QuestionSummary) -> impl IntoView {
    // A survey's answers have no system: no System column then.
    let per_system = q.options.iter().any(|o| o.system.is_some())
        || q.numbers.iter().any(|n| n.system.is_some());
    let system_cell = |s: &Option<String>| s.clone().into_iter();
    let options: Vec<Vec<String>> = q
        .options
        .iter()
        .map(|o| {
            system_cell(&o.system)
                .chain([
                    o.option.clone(),
                    format!("{} of {}", o.count, o.of),
                    fmt::percent(o.share),
                    fmt::ci(o.wilson, 3),
                ])
                .collect()
        })
        .collect();
    let numbers: Vec<Vec<String>> = q
        .numbers
        .iter()
        .map(|n| {
            system_cell(&n.system)
                .chain([
                    n.n.to_string(),
                    fmt::num(Some(n.mean), 3),
                    fmt::num(n.sd, 3),
                    fmt::num(Some(n.median), 3),
                ])
                .collect()
        })
        .collect();
    let ranks: Vec<Vec<String>> = q
        .ranking
        .iter()
        .flat_map(|r| r.systems.iter())
        .map(|s| {
            vec![
                s.system.clone(),
                s.n.to_string(),
                format!("{:.2}", s.mean_rank),
            ]
        })
        .collect();
    let test = q.paired_test.as_ref().map(|t| {
        format!(
            "Share of \"{}\" across systems, paired on {} cells: {} {}, p {}.{}",
            t.option,
            t.blocks,
            if t.test == "mcnemar" {
                "exact McNemar"
            } else {
                "Cochran's Q"
            },
            fmt::num(t.statistic, 3),
            fmt::p_value(t.p_value),
            t.note.as_ref().map_or(String::new(), |n| format!(" {n}."))
        )
    });
    let friedman = q.ranking.as_ref().and_then(|r| r.friedman).map(|f| {
        format!(
            "Friedman chi-square {:.2} (df {}), p {}; Kendall's W {:.3}.",
            f.statistic,
            f.df,
            fmt::p_value(Some(f.p_value)),
            f.kendall_w
        )
    });
    let name = q.question.clone();
    view! {
        {(!options.is_empty()).then(|| view! {
            <DataTable
                caption=format!("{name}: answers per option")
                columns=if per_system {
                    &["System", "Option", "Count", "Share", "95% CI (Wilson)"]
                } else {
                    &["Option", "Count", "Share", "95% CI (Wilson)"]
                }
                rows=options
            />
        })}
        {(!numbers.is_empty()).then(|| view! {
            <DataTable
                caption=format!("{}: numbers", q.question)
                columns=if per_system {
                    &["System", "n", "Mean", "SD", "Median"]
                } else {
                    &["n", "Mean", "SD", "Median"]
                }
                rows=numbers
            />
        })}
        {(!ranks.is_empty()).then(|| view! {
            <DataTable
                caption=format!("{}: mean rank per system, 1 the best", q.question)
                columns=&["System", "Rankings", "Mean rank"]
                rows=ranks
                header=1
            />
        })}
        {(q.kind == "text").then(|| view! {
            <p>{format!("{}: {} written answers (in the answers CSV).", q.question, q.answers)}</p>
        })}
        {(q.cannot_judge > 0).then(|| view! {
            <p>{format!("{}: {} “Cannot judge” (in no share or mean).", q.question, q.cannot_judge)}</p>
        })}
        {test.map(|t| view! { <p>{t}</p> })}
        {friedman.map(|f| view! { <p>{f}</p> })}
    }
}
