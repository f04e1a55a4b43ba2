//! A study that could not be opened: every problem, with where and what to do.

use juror_core::base::problem::NOT_YET_CHECKED;
use juror_core::study::Problem;
use leptos::prelude::*;

use super::{Contact, FilePicker, SavedAnswers};

/// The list of problems, or the one reason the file could not be had. What the annotator should
/// do comes first (check the link, or tell the researcher, by the study's contact when the file
/// names one), then the answers this browser keeps for the study, if any, then what a researcher
/// can do (their study file is not something an annotator has).
#[component]
pub fn StudyProblems(
    source: String,
    lead: String,
    problems: Vec<Problem>,
    on_file: Callback<web_sys::File>,
    /// The study ids whose saved answers are offered (`store::failed_study_ids`).
    ids: Vec<String>,
    /// The contact line the file names, when it could be read.
    contact: Option<String>,
) -> impl IntoView {
    // The note that more checks follow is listed, not counted.
    let count = problems.iter().filter(|p| p.at != NOT_YET_CHECKED).count();
    let heading = match count {
        0 => "This study could not be opened".to_owned(),
        1 => "This study has 1 problem".to_owned(),
        n => format!("This study has {n} problems"),
    };
    // No problems listed: the file was not had at all (a wrong address, no connection).
    let unreachable = problems.is_empty();
    let annotator = if unreachable {
        "If you were sent this link, check that you opened all of it (copy it again from the message it came in). If it still does not open, ask the researcher who sent it for a working link."
    } else {
        "If you were sent this link, tell the researcher who sent it: the study file itself needs fixing."
    };
    let researcher = if unreachable {
        "Researchers: the study file must be on the site at this address (a published study goes in studies/ beside index.html). "
    } else {
        "Researchers: fix the problems and reload this page (juror validate lists the same problems), "
    };
    view! {
        <section class="study-problems" role="alert" aria-labelledby="problems-heading">
            <h1 id="problems-heading">{heading}</h1>
            <p class="source">"Study: " <code>{source}</code></p>
            <p>{lead}</p>
            <Show when=move || { !unreachable }>
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
            <p class="help">{annotator}</p>
            {contact.map(|text| view! { <p class="contact">"Contact: " <Contact text /></p> })}
            <SavedAnswers ids />
            <p class="hint for-researchers">
                {researcher}
                "or "
                <a href="./">"open another study"</a>
                " or "
                <FilePicker on_file label="Choose a study file" secondary=true />
            </p>
        </section>
    }
}
