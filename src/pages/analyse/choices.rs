//! Best-of-N choices and rankings as the annotators made them (the report's `choices`): shares
//! of first choices with Wilson intervals, the test against equal shares, agreement on the
//! chosen system; mean ranks with intervals, Friedman and Kendall's W.

use juror_core::analysis::choices::ChoiceReport;
use leptos::prelude::*;

use super::{DataTable, interval_text, num, pval};

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
                    num(s.share),
                    interval_text(s.wilson),
                ]
            })
            .collect();
        let test = b.chi_square.map(|t| {
            format!(
                "Against equal shares: chi-square {:.2} (df {}), p {}{}.",
                t.statistic,
                t.df,
                pval(Some(t.p_value)),
                b.exact_p
                    .map_or(String::new(), |p| format!("; exact multinomial p {}", pval(Some(p))))
            )
        });
        let a = b.agreement;
        let agreement = format!(
            "Agreement on the chosen system ({} items chosen on by two or more of {} annotators): Fleiss' kappa {}, Krippendorff's alpha (nominal) {}, percent agreement {}.",
            a.units,
            a.annotators,
            num(a.fleiss_kappa),
            num(a.krippendorff_alpha_nominal),
            num(a.percent_agreement)
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
                    interval_text(s.ci95),
                ]
            })
            .collect();
        let friedman = r.friedman.map(|f| {
            format!(
                "Friedman test over {} complete rankings: chi-square {:.2} (df {}), p {}; Kendall's W {:.3}.",
                f.blocks,
                f.statistic,
                f.df,
                pval(Some(f.p_value)),
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
    view! {
        <section class="choices" aria-label="Choices and rankings">
            {best}
            {ranks}
        </section>
    }
}
