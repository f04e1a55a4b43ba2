//! The preference between a trial's outputs: best of them, a pair choice (with tie when
//! allowed), graded, best–worst or a full ranking, and the explanation asked for it.

use juror_core::session::{Answer, Msg, Preference, Reply, Target};
use juror_core::study::{PreferenceKind, Requirement};
use leptos::prelude::*;

use super::given;
use super::question::{NeededNote, QuestionControl, described_by, invalid, needed, radio};
use crate::session::use_session;

/// Best of the outputs, a pair choice (with tie when allowed), or a full ranking.
#[component]
pub fn PreferenceControl(
    index: usize,
    preference: juror_core::plan::view::PreferenceView,
) -> impl IntoView {
    let handle = use_session();
    let current = move || given(handle, index, |t| t.preference.clone());
    let explanation = (preference.explanation != Requirement::Off).then(|| {
        let required = preference.explanation == Requirement::Required;
        let reason = needed("q-explanation");
        view! {
            <div class="question text">
                <label for="q-explanation" class="legend">
                    "Why this choice?"
                    {(!required).then(|| view! { <span class="optional">" (optional)"</span> })}
                </label>
                <NeededNote dom_id="q-explanation".to_owned() reason />
                <textarea
                    id="q-explanation"
                    rows="2"
                    aria-invalid=invalid(reason)
                    aria-describedby=described_by("q-explanation", None, reason)
                    prop:value=move || given(handle, index, |t| t.explanation.clone())
                    on:input=move |ev| handle.dispatch(Msg::answer(Target::Explanation, Reply::Text(event_target_value(&ev))))
                ></textarea>
            </div>
        }
    });
    let control = match preference.kind {
        PreferenceKind::Best | PreferenceKind::Choice => {
            let choice = preference.kind == PreferenceKind::Choice;
            let make = move |position: usize| {
                if choice {
                    Preference::Choice { position }
                } else {
                    Preference::Best { position }
                }
            };
            let options = preference
                .labels
                .iter()
                .enumerate()
                .map(|(position, label)| {
                    prefer_radio(index, make(position), "option", label.clone())
                })
                .collect_view();
            let tie = preference.allow_tie.then(|| {
                prefer_radio(
                    index,
                    Preference::Tie,
                    "option",
                    "Tie (no preference)".to_owned(),
                )
            });
            let skip = preference.allow_skip.then(|| cannot_judge(index));
            let reason = needed("q-preference");
            view! {
                <fieldset
                    class="question choice"
                    id="q-preference"
                    role="radiogroup"
                    aria-label=preference.question.clone()
                    aria-invalid=invalid(reason)
                    aria-describedby=described_by("q-preference", None, reason)
                >
                    <legend><strong>{preference.question.clone()}</strong></legend>
                    <NeededNote dom_id="q-preference".to_owned() reason />
                    <div class="points">{options} {tie} {skip}</div>
                </fieldset>
            }
            .into_any()
        }
        PreferenceKind::Graded => {
            let half = i32::try_from(preference.grades.len() / 2).unwrap_or(0);
            let options = (-half..=half)
                .zip(preference.grades.iter())
                .map(|(grade, label)| {
                    prefer_radio(index, Preference::Graded { grade }, "option", label.clone())
                })
                .collect_view();
            let skip = preference.allow_skip.then(|| cannot_judge(index));
            let reason = needed("q-preference");
            view! {
                <fieldset
                    class="question choice graded"
                    id="q-preference"
                    role="radiogroup"
                    aria-label=preference.question.clone()
                    aria-invalid=invalid(reason)
                    aria-describedby=described_by("q-preference", None, reason)
                >
                    <legend><strong>{preference.question.clone()}</strong></legend>
                    <NeededNote dom_id="q-preference".to_owned() reason />
                    <div class="points">{options} {skip}</div>
                </fieldset>
            }
            .into_any()
        }
        PreferenceKind::BestWorst => best_worst(index, &preference),
        PreferenceKind::Rank => {
            let labels = preference.labels.clone();
            let labels2 = labels.clone();
            let value = Signal::derive(move || match current() {
                Some(Preference::Rank { order }) => Some(Answer::Rank(
                    order
                        .iter()
                        .filter_map(|&i| labels.get(i).cloned())
                        .collect(),
                )),
                _ => None,
            });
            let on_change = Callback::new(move |a: Option<Answer>| {
                handle.dispatch(match a {
                    Some(Answer::Rank(ls)) => Msg::answer(
                        Target::Preference,
                        Reply::Preference(Preference::Rank {
                            order: ls
                                .iter()
                                .filter_map(|l| labels2.iter().position(|x| x == l))
                                .collect(),
                        }),
                    ),
                    _ => Msg::clear(Target::Preference),
                });
            });
            let question = juror_core::study::Question {
                id: "preference".to_owned(),
                prompt: preference.question.clone(),
                help: Some("Best first. Use the arrows to move an output up or down.".to_owned()),
                required: true,
                kind: juror_core::study::QuestionKind::Rank(juror_core::study::RankOptions::Fixed(
                    preference.labels.clone(),
                )),
                screen_out: Vec::new(),
                allow_skip: false,
            };
            view! {
                <QuestionControl
                    question
                    dom_id="q-preference".to_owned()
                    name=preference.question.clone()
                    value
                    on_change
                    labels=Vec::new()
                />
            }
            .into_any()
        }
    };
    view! { <div class="preference">{control} {explanation}</div> }
}

/// A best–worst preference: two radio groups, the best and the worst.
fn best_worst(index: usize, preference: &juror_core::plan::view::PreferenceView) -> AnyView {
    let handle = use_session();
    let current = move || given(handle, index, |t| t.preference.clone());
    // Two radio groups, the best and the worst; choosing one end moves the other off
    // that output (`Preference::best_worst`).
    let labels = preference.labels.clone();
    let group = move |worst: bool| {
        let name = if worst { "worst" } else { "best" };
        let options = labels
            .iter()
            .enumerate()
            .map(|(position, label)| {
                let on = move || match current() {
                    Some(Preference::BestWorst { best, worst: w }) => {
                        (if worst { w } else { best }) == Some(position)
                    }
                    _ => false,
                };
                view! {
                    <label class="option">
                        <input
                            type="radio"
                            name=format!("preference-{name}")
                            prop:checked=on
                            on:change=move |_| {
                                let next = Preference::best_worst(
                                    current().as_ref(),
                                    position,
                                    worst,
                                );
                                handle.dispatch(Msg::answer(Target::Preference, Reply::Preference(next)))
                            }
                        />
                        {label.clone()}
                    </label>
                }
            })
            .collect_view();
        view! {
            <div class="points" role="radiogroup" aria-label=if worst { "Worst" } else { "Best" }>
                <strong>{if worst { "Worst: " } else { "Best: " }}</strong>
                {options}
            </div>
        }
    };
    let reason = needed("q-preference");
    view! {
        <fieldset
            class="question choice"
            id="q-preference"
            aria-invalid=invalid(reason)
            aria-describedby=described_by("q-preference", None, reason)
        >
            <legend><strong>{preference.question.clone()}</strong></legend>
            <NeededNote dom_id="q-preference".to_owned() reason />
            {group(false)}
            {group(true)}
        </fieldset>
    }
    .into_any()
}

/// One answer of a preference's radio group.
fn prefer_radio(
    index: usize,
    preference: Preference,
    class: &'static str,
    label: String,
) -> AnyView {
    let handle = use_session();
    let p = preference.clone();
    radio(
        "preference".to_owned(),
        class,
        Signal::derive(move || given(handle, index, |t| t.preference.clone()).as_ref() == Some(&p)),
        Callback::new(move |()| {
            handle.dispatch(Msg::answer(
                Target::Preference,
                Reply::Preference(preference.clone()),
            ))
        }),
        label,
    )
}

/// The "Cannot judge" answer of a preference.
fn cannot_judge(index: usize) -> impl IntoView {
    prefer_radio(
        index,
        Preference::CannotJudge,
        "option skip",
        "Cannot judge".to_owned(),
    )
}
