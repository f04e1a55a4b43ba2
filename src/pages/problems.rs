//! A study that could not be opened: every problem, with where and what to do.

use juror_core::study::Problem;
use leptos::prelude::*;

use super::{FilePicker, SavedAnswers};

/// The list of problems, or the one reason the file could not be had.
#[component]
pub fn StudyProblems(
    source: String,
    lead: String,
    problems: Vec<Problem>,
    on_file: Callback<web_sys::File>,
    /// The study ids whose saved answers are offered (`store::failed_study_ids`).
    ids: Vec<String>,
) -> impl IntoView {
    let count = problems.len();
    let heading = match count {
        0 => "This study could not be opened".to_owned(),
        1 => "This study has 1 problem".to_owned(),
        n => format!("This study has {n} problems"),
    };
    view! {
        <section class="study-problems" role="alert" aria-labelledby="problems-heading">
            <h1 id="problems-heading">{heading}</h1>
            <p class="source">"Study: " <code>{source}</code></p>
            <p>{lead}</p>
            <Show when=move || { count > 0 }>
                <ol class="problems" aria-label="Problems">
                    {problems
                        .iter()
                        .map(|p| {
                            view! {
                                <li>
                                    <code class="at">{p.at.clone()}</code>
                                    ": "
                                    <span class="message">{p.message.clone()}</span>
                                    <span class="fix">{format!("Fix: {}", p.fix)}</span>
                                </li>
                            }
                        })
                        .collect_view()}
                </ol>
            </Show>
            <p class="help">
                "If you were sent this link, tell the researcher who sent it. Answers you have already given to this study stay saved in this browser, and are listed below to download. "
                "If you wrote the study, fix the problems and reload this page; "
                <code>"juror validate"</code>
                " lists the same problems."
            </p>
            <p>
                <a href="./">"Open another study"</a>
                " or "
                <FilePicker on_file label="Choose a study file" />
            </p>
            <SavedAnswers ids />
        </section>
    }
}
