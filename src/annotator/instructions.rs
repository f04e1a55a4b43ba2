//! The guidelines: instructions, the rubric with every scale point, worked examples.

use juror_core::session::{Msg, durability};
use leptos::prelude::*;

use super::trial::MediaFigure;
use crate::components::rich::{RichText, rich_text};
use crate::session::use_session;

/// The instructions page, before the first trial.
#[component]
pub fn Instructions() -> impl IntoView {
    let handle = use_session();
    let study = handle.study.get_value();
    let begin_label = if study.intake().is_empty() {
        "Begin"
    } else {
        "Continue"
    };
    let shortcuts_hint = if study.rubric().is_empty() {
        "Press ? for all keyboard shortcuts."
    } else {
        "You can see the rubric again at any time with the Rubric button or the R key; \
         press ? for all keyboard shortcuts."
    };
    view! {
        <section class="instructions" aria-labelledby="instructions-heading">
            <h1 id="instructions-heading">"Instructions"</h1>
            {study
                .instructions()
                .map(|md| view! { <RichText text=md.to_owned() /> })}
            // A study that asks only for preferences has no rubric to show.
            {(!study.rubric().is_empty()).then(|| view! {
                <h2>"Rubric"</h2>
                <RubricTable />
            })}
            {move || match (handle.backups.persisted.get(), handle.risk()) {
                // A private window is said by its own banner.
                (_, durability::Risk::PrivateWindow) => None,
                (Some(true), _) => Some(view! {
                    <p class="hint persisted">"This browser has agreed to keep your answers until you finish."</p>
                }.into_any()),
                (Some(false), _) => Some(view! {
                    <p class="hint persisted">
                        "This browser may clear saved answers if it runs short of space. They are saved as you go; "
                        "for a long study, use “Save a backup” now and then."
                    </p>
                }.into_any()),
                (None, _) => None,
            }}
            <p class="hint">{shortcuts_hint}</p>
            <div class="actions">
                <button
                    type="button"
                    class="primary"
                    on:click=move |_| handle.dispatch(Msg::FinishInstructions)
                >
                    {begin_label}
                </button>
            </div>
        </section>
    }
}

/// Every dimension with every point's label and description, what to look for, what to avoid,
/// and the worked examples.
#[component]
pub fn RubricTable() -> impl IntoView {
    let handle = use_session();
    let study = handle.study.get_value();
    let rubric = study.rubric().clone();
    let examples = rubric.examples.clone();
    view! {
        <div class="rubric">
            {rubric
                .dimensions
                .iter()
                .map(|d| {
                    let described = d.scale.described();
                    let rows = d
                        .scale
                        .rubric_points()
                        .map(|p| view! {
                            <tr>
                                <th scope="row">{p.value}</th>
                                <td>{p.label.clone().unwrap_or_default()}</td>
                                {described.then(|| view! {
                                    <td>{p.description.clone().unwrap_or_default()}</td>
                                })}
                            </tr>
                        })
                        .collect_view();
                    let range = d.scale.slider().then(|| format!(
                        " Any score from {} to {}; the rows are its anchors.",
                        d.scale.min(),
                        d.scale.max()
                    ));
                    view! {
                        <table class="scale-table">
                            <caption>
                                <strong>{d.label.clone()}</strong>
                                " — "
                                {d.question.clone()}
                                {range}
                            </caption>
                            <thead>
                                <tr>
                                    <th scope="col">"Score"</th>
                                    <th scope="col">"Label"</th>
                                    {described.then(|| view! { <th scope="col">"Meaning"</th> })}
                                </tr>
                            </thead>
                            <tbody>{rows}</tbody>
                        </table>
                    }
                })
                .collect_view()}
            {(!rubric.look_for.is_empty())
                .then(|| view! {
                    <h3>"Look for (rate higher)"</h3>
                    <ul>{rubric.look_for.iter().map(|x| view! { <li use:rich_text=x.clone()></li> }).collect_view()}</ul>
                })}
            {(!rubric.avoid.is_empty())
                .then(|| view! {
                    <h3>"Watch out for (rate lower)"</h3>
                    <ul>{rubric.avoid.iter().map(|x| view! { <li use:rich_text=x.clone()></li> }).collect_view()}</ul>
                })}
            {(!examples.is_empty())
                .then(|| {
                    view! {
                        <h3>"Worked examples"</h3>
                        {examples
                            .iter()
                            .enumerate()
                            .map(|(i, e)| {
                                // In the rubric's order, each score with its point's label.
                                let scores: Vec<String> = rubric
                                    .dimensions
                                    .iter()
                                    .filter_map(|d| {
                                        let v = *e.scores.get(&d.id)?;
                                        let point = d.scale.points.iter().find(|p| p.value == v);
                                        Some(match point.and_then(|p| p.label.as_deref()) {
                                            Some(label) => format!("{}: {v} ({label})", d.label),
                                            None => format!("{}: {v}", d.label),
                                        })
                                    })
                                    .collect();
                                let media = e.media.clone().map(|m| view! {
                                    <MediaFigure kind=m.kind src=handle.media_src(&m.src) alt=m.alt />
                                });
                                view! {
                                    <article class="example">
                                        <h4>{e.title.clone().unwrap_or_else(|| format!("Example {}", i + 1))}</h4>
                                        // Labelled as the trials label them.
                                        {e.prompt.clone().map(|p| view! {
                                            <div class="prompt">
                                                <h5>"Prompt"</h5>
                                                <RichText text=p />
                                            </div>
                                        })}
                                        {media}
                                        <div class="output">
                                            <h5>"Output"</h5>
                                            <RichText text=e.output.clone() />
                                        </div>
                                        <p class="scores"><strong>"Scores: "</strong>{scores.join(", ")}</p>
                                        <p class="why"><strong>"Why: "</strong>{e.why.clone()}</p>
                                    </article>
                                }
                            })
                            .collect_view()}
                    }
                })}
        </div>
    }
}
