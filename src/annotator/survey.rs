//! Survey pages (each question a `controls::QuestionControl`), and the list of what is
//! missing.

use juror_core::session::{Answer, Missing, Msg, Reply, Survey, Target};
use juror_core::study::Question;
use leptos::prelude::*;

use crate::controls::QuestionControl;
use crate::session::use_session;

/// The intake or exit survey.
#[component]
pub fn SurveyPage(survey: Survey) -> impl IntoView {
    let handle = use_session();
    let study = handle.study.get_value();
    let exit = survey == Survey::Exit;
    let questions: Vec<Question> = match survey {
        Survey::Intake => study.intake(),
        Survey::Exit => study.exit(),
    }
    .to_vec();
    let labels = handle.with_untracked(|s| s.system_labels(&study));
    let heading = match survey {
        Survey::Intake => "Before you start",
        Survey::Exit => "Last questions",
    };
    // The survey's own time estimate, when the study gives one.
    let minutes = match survey {
        Survey::Intake => study.intake_minutes(),
        Survey::Exit => study.exit_minutes(),
    }
    .map(
        |m| view! { <p class="hint">{format!("About {}.", super::welcome::format_minutes(m))}</p> },
    );
    view! {
        <section class="survey" aria-labelledby="survey-heading">
            <h1 id="survey-heading">{heading}</h1>
            {minutes}
            {exit
                .then(|| view! {
                    <p>"You have finished every trial. A few questions about the study as a whole:"</p>
                })}
            <MissingList />
            {questions
                .into_iter()
                .map(|q| {
                    let id = q.id.clone();
                    let id2 = id.clone();
                    let value = Signal::derive(move || {
                        handle.with(|s| s.survey_answer(survey, &id).cloned())
                    });
                    let on_change = Callback::new(move |answer: Option<Answer>| {
                        handle.dispatch(Msg::Answer { target: Target::Survey { question: id2.clone() }, reply: answer.map(Reply::Answer), advance: false })
                    });
                    let dom_id = Target::Survey { question: q.id.clone() }.dom_id();
                    let name = q.prompt.clone();
                    view! {
                        <QuestionControl question=q dom_id name value on_change labels=labels.clone() />
                    }
                })
                .collect_view()}
            // The step forward first: Tab from the last answer reaches it before the way back.
            <div class="actions">
                <button
                    type="button"
                    class="primary"
                    on:click=move |_| handle.dispatch(Msg::SubmitSurvey(survey))
                >
                    {if exit { "Finish" } else { "Continue" }}
                </button>
                {exit
                    .then(|| view! {
                        <button type="button" class="secondary" on:click=move |_| handle.dispatch(Msg::Previous)>
                            "Back to the trials"
                        </button>
                    })}
            </div>
        </section>
    }
}

/// The required answers still missing after a refused step, each a link to its question.
#[component]
pub fn MissingList() -> impl IntoView {
    let handle = use_session();
    let missing = Memo::new(move |_| handle.with(|s| s.missing().to_vec()));
    move || {
        let list: Vec<Missing> = missing.get();
        (!list.is_empty()).then(|| {
            view! {
                <div class="missing" role="alert" aria-labelledby="missing-heading">
                    <h2 id="missing-heading">{missing_count(list.len())}</h2>
                    <ul>
                        {list
                            .into_iter()
                            .map(|m| {
                                let id = m.target.dom_id();
                                view! {
                                    <li>
                                        <a
                                            href=format!("#{id}")
                                            on:click=move |ev| {
                                                ev.prevent_default();
                                                crate::services::dom::focus(id.clone());
                                            }
                                        >
                                            {m.label}
                                        </a>
                                        {format!(": {}", m.reason)}
                                    </li>
                                }
                            })
                            .collect_view()}
                    </ul>
                </div>
            }
        })
    }
}

/// "1 answer is missing", "3 answers are missing".
pub fn missing_count(n: usize) -> String {
    if n == 1 {
        "1 answer is missing".to_owned()
    } else {
        format!("{n} answers are missing")
    }
}
