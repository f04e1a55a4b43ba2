//! Judges beside people on the Analyse page: the chooser of the judges' verdicts files (kept
//! apart from the ratings files: they go to `Request.judges`, never to the inputs), and the
//! figure of a judge's section of the report (the core's table model places it): a plot per
//! dimension of the judge's score against the humans' mean.

use std::collections::BTreeMap;

use juror_core::analysis::judges::JudgeReport;
use juror_core::analysis::render::tables::{Figure, judge_tables};
use juror_core::analysis::run::FileText;
use leptos::prelude::*;

use super::charts::JudgeScatter;
use super::sections::regions;
use crate::components::DropZone;

/// The judges' step: a drop zone and picker of its own, the files chosen, each removable.
#[component]
pub fn JudgesChooser(judges: RwSignal<Vec<FileText>>) -> impl IntoView {
    let add = Callback::new(move |picked: Vec<FileText>| {
        judges.update(|list| list.extend(picked));
    });
    let chosen = move || {
        let files = judges.get();
        if files.is_empty() {
            return view! {
                <p class="hint">
                    "No judge's verdicts chosen. A judge file holds an automatic judge's verdicts \
                     (an LLM's scores or preferences) on the outputs the people rated, in the \
                     formats the ratings are read in (a tidy CSV, a ratings file, or JSON Lines), \
                     the judge named by its annotator_id. Run the judge on the blinded trials "
                    <code>"juror trials"</code>
                    " writes, and give its verdicts here; "
                    <code>"docs/judges.md"</code>
                    " in Juror's repository gives the formats and the statistics."
                </p>
            }
            .into_any();
        }
        let items = files
            .into_iter()
            .enumerate()
            .map(|(i, f)| {
                let name = f.name;
                let remove = move |_| {
                    judges.update(|list| {
                        if i < list.len() {
                            list.remove(i);
                        }
                    });
                };
                view! {
                    <li>
                        <code>{name.clone()}</code>
                        " "
                        <button
                            type="button"
                            class="small link"
                            aria-label=format!("Remove {name}")
                            on:click=remove
                        >
                            "Remove"
                        </button>
                    </li>
                }
            })
            .collect_view();
        view! {
            <h3 id="judge-files-heading">"Judges' files chosen"</h3>
            <ol class="chosen-files" aria-labelledby="judge-files-heading">{items}</ol>
            <button type="button" class="secondary small" on:click=move |_| judges.set(Vec::new())>
                "Remove all judges' files"
            </button>
        }
        .into_any()
    };
    view! {
        <h2 id="judges-heading">"3. Judges' verdicts (optional)"</h2>
        <p class="hint">
            "An automatic judge is compared with the people, in a section of its own per judge. \
             Its verdicts never enter the human statistics: the means, tests and agreement above \
             are the people's alone, with or without a judge."
        </p>
        <DropZone
            text="Drop judges' verdicts (.csv, .jsonl, .json) here, or"
            label="Choose judges' verdicts"
            accept=".csv,.jsonl,.ndjson,.json,text/csv,application/json"
            on_files=add
        />
        {chosen}
    }
}

/// The judges' sections of the report alone, one region per judge, as the whole report shows
/// them: the tables the Markdown report writes, then a plot per dimension of the judge's score
/// against the humans' mean. `scales` are the dimensions' scales (from the study) by
/// dimension.
#[component]
pub fn JudgesView(
    judges: Vec<JudgeReport>,
    scales: BTreeMap<String, Option<Vec<f64>>>,
) -> impl IntoView {
    let sections = judge_tables(&judges);
    regions(sections, 1, &|f| match f {
        Figure::Judge(id) => judges
            .iter()
            .find(|j| &j.judge == id)
            .and_then(|j| judge_plots(j, &scales)),
        _ => None,
    })
}

/// A judge's plots, one per dimension with outputs both scored: the judge's score against the
/// humans' mean; none without.
pub fn judge_plots(
    j: &JudgeReport,
    scales: &BTreeMap<String, Option<Vec<f64>>>,
) -> Option<AnyView> {
    let plots = j
        .dimensions
        .iter()
        .filter(|d| !d.points.is_empty())
        .map(|d| {
            let dimension = d.dimension.clone().unwrap_or_default();
            let scale = scales.get(&dimension).cloned().flatten();
            view! {
                <JudgeScatter
                    judge=j.judge.clone()
                    dimension
                    scale
                    points=d.points.clone()
                    spearman=d.spearman
                />
            }
        })
        .collect::<Vec<_>>();
    (!plots.is_empty()).then(|| {
        view! {
            <h4>"Scores against the humans' mean"</h4>
            {plots}
        }
        .into_any()
    })
}
