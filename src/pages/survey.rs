//! Survey pages and the control for any question (also used for per-output questions).

use juror_core::number::Num;
use juror_core::session::{Answer, Missing, Msg, Reply, Survey, Target};
use juror_core::study::{Question, QuestionKind, RankOptions, ScalePoint};
use leptos::prelude::*;

use crate::services::dom;
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
                    let dom_id = juror_core::session::Target::Survey { question: q.id.clone() }.dom_id();
                    let name = q.prompt.clone();
                    view! {
                        <QuestionControl question=q dom_id name value on_change labels=labels.clone() />
                    }
                })
                .collect_view()}
            <div class="actions">
                {exit
                    .then(|| view! {
                        <button type="button" class="secondary" on:click=move |_| handle.dispatch(Msg::Previous)>
                            "Back to the trials"
                        </button>
                    })}
                <button
                    type="button"
                    class="primary"
                    on:click=move |_| handle.dispatch(Msg::SubmitSurvey(survey))
                >
                    {if exit { "Finish" } else { "Continue" }}
                </button>
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

/// Why the question `dom_id` still needs an answer after the last refused step ("choose a
/// score"), else `None` (reactive). Such a question is marked: `aria-invalid`, an outline, and a
/// note that describes it ([`NeededNote`]), so that the marker is where focus lands on a phone.
pub fn needed(dom_id: &str) -> Memo<Option<String>> {
    let handle = use_session();
    let dom_id = dom_id.to_owned();
    Memo::new(move |_| {
        handle.with(|s| {
            s.missing()
                .iter()
                .find(|m| m.target.dom_id() == dom_id)
                .map(|m| m.reason.clone())
        })
    })
}

/// The `aria-invalid` of a question marked by [`needed`].
pub fn invalid(reason: Memo<Option<String>>) -> impl Fn() -> Option<&'static str> + Copy {
    move || reason.with(Option::is_some).then_some("true")
}

/// The `aria-describedby` of a question: its own description (`other`), then its
/// [`NeededNote`] while it is marked.
pub fn described_by(
    dom_id: &str,
    other: Option<String>,
    reason: Memo<Option<String>>,
) -> impl Fn() -> Option<String> + use<> {
    let note = format!("{dom_id}-needed");
    move || match (other.clone(), reason.with(Option::is_some)) {
        (Some(o), true) => Some(format!("{o} {note}")),
        (None, true) => Some(note.clone()),
        (o, false) => o,
    }
}

/// The note on a question [`needed`] after a refused step: "Answer needed: choose a score".
#[component]
pub fn NeededNote(dom_id: String, reason: Memo<Option<String>>) -> impl IntoView {
    let id = format!("{dom_id}-needed");
    move || {
        reason.get().map(|r| {
            view! { <p class="needed" id=id.clone()>{format!("Answer needed: {r}")}</p> }
        })
    }
}

/// What a scale point shows next to its radio button: its number, then its label when it has
/// one (a point a `labels: "anchors"` scale leaves out is its number alone).
#[component]
pub fn PointCaption(value: i32, label: Option<String>) -> impl IntoView {
    view! {
        <span class="value">{value}</span>
        {label.map(|label| view! { <span class="label">{label}</span> })}
    }
}

/// One radio button with its label, in the radio group `group`: `checked` says whether it is
/// the answer, `choose` gives it. The one radio of the page's choices: a preference's outputs, a
/// tie, a grade, a single choice's options and every "Cannot judge" (a scale's points, which show
/// a number, a label and a description, have their own).
// Not generic, so that its view is compiled once (the annotator's wasm has a size budget).
pub fn radio(
    group: String,
    class: &'static str,
    checked: Signal<bool>,
    choose: Callback<()>,
    label: String,
) -> AnyView {
    view! {
        <label class=class>
            <input type="radio" name=group prop:checked=checked on:change=move |_| choose.run(()) />
            {label}
        </label>
    }
    .into_any()
}

/// The "Cannot judge" checkbox beside a multiple choice's options or a slider: ticking it gives
/// "Cannot judge", unticking takes it back. `name` is its accessible name when the visible
/// "Cannot judge" needs the question's name beside it.
pub fn skip_box(name: Option<String>, checked: Signal<bool>, toggle: Callback<bool>) -> AnyView {
    view! {
        <label class="option skip">
            <input
                type="checkbox"
                aria-label=name
                prop:checked=checked
                on:change=move |ev| toggle.run(event_target_checked(&ev))
            />
            "Cannot judge"
        </label>
    }
    .into_any()
}

/// The "Cannot judge" of a question with `allow_skip`, after its points or options: a radio in
/// the question's group (a multiple choice's: a checkbox beside the options, unticking clears).
fn skip_option(
    group: String,
    multiple: bool,
    value: Signal<Option<Answer>>,
    on_change: Callback<Option<Answer>>,
) -> AnyView {
    let checked = Signal::derive(move || value.get() == Some(Answer::CannotJudge));
    if multiple {
        let toggle =
            Callback::new(move |on: bool| on_change.run(on.then_some(Answer::CannotJudge)));
        skip_box(None, checked, toggle)
    } else {
        let choose = Callback::new(move |()| on_change.run(Some(Answer::CannotJudge)));
        radio(
            group,
            "option skip",
            checked,
            choose,
            "Cannot judge".to_owned(),
        )
    }
}

/// One question, whatever its kind. `name` is its accessible name (e.g. "Useful? — Output B").
#[component]
pub fn QuestionControl(
    question: Question,
    dom_id: String,
    name: String,
    value: Signal<Option<Answer>>,
    on_change: Callback<Option<Answer>>,
    labels: Vec<String>,
) -> impl IntoView {
    let Question {
        prompt,
        help,
        required,
        kind,
        allow_skip,
        ..
    } = question;
    let skip = move |group: &str, multiple: bool| {
        allow_skip.then(|| skip_option(group.to_owned(), multiple, value, on_change))
    };
    let help_id = format!("{dom_id}-help");
    let reason = needed(&dom_id);
    let invalid = invalid(reason);
    let described = described_by(&dom_id, help.as_ref().map(|_| help_id.clone()), reason);
    let legend = view! {
        {legend(prompt.clone(), required, help, help_id)}
        <NeededNote dom_id=dom_id.clone() reason />
    };
    let label = move |dom_id: &str| {
        view! {
            {field_label(dom_id.to_owned(), prompt, required)}
            <NeededNote dom_id=dom_id.to_owned() reason />
        }
    };
    match kind {
        QuestionKind::Likert(scale) => {
            let group = dom_id.clone();
            view! {
                <fieldset class="question scale" id=dom_id role="radiogroup" aria-label=name aria-describedby=described aria-invalid=invalid>
                    {legend}
                    {scale_points(scale.points, group.clone(), value, on_change, skip(&group, false))}
                </fieldset>
            }
            .into_any()
        }
        QuestionKind::SingleChoice(options) => {
            let group = dom_id.clone();
            let skip = skip(&group, false);
            view! {
                <fieldset class="question choice" id=dom_id role="radiogroup" aria-label=name aria-describedby=described aria-invalid=invalid>
                    {legend}
                    {choice_options(options, group, value, on_change)}
                    {skip}
                </fieldset>
            }
            .into_any()
        }
        QuestionKind::MultipleChoice { options, .. } => view! {
            <fieldset class="question choices" id=dom_id role="group" aria-label=name aria-describedby=described aria-invalid=invalid>
                {legend}
                {choices_options(options, value, on_change)}
                {skip(&dom_id, true)}
            </fieldset>
        }
        .into_any(),
        QuestionKind::ShortText { max_length } => {
            let label = label(&dom_id);
            text_question((false, max_length), dom_id, name, label, value, on_change, reason)
                .into_any()
        }
        QuestionKind::LongText { max_length } => {
            let label = label(&dom_id);
            text_question((true, max_length), dom_id, name, label, value, on_change, reason)
                .into_any()
        }
        QuestionKind::Number { min, max, integer } => {
            let label = label(&dom_id);
            number_question((min, max, integer), dom_id, label, value, on_change, reason)
                .into_any()
        }
        QuestionKind::Rank(options) => {
            let initial = match options {
                RankOptions::Fixed(o) => o,
                RankOptions::Systems => labels,
            };
            view! {
                <fieldset class="question rank" id=dom_id role="group" aria-label=name aria-describedby=described aria-invalid=invalid>
                    {legend}
                    <RankList initial value on_change />
                </fieldset>
            }
            .into_any()
        }
    }
}

/// A fieldset's legend: the prompt, "(optional)" unless required, and the help under it.
fn legend(prompt: String, required: bool, help: Option<String>, help_id: String) -> impl IntoView {
    view! {
        <legend>
            {prompt}
            {(!required).then(|| view! { <span class="optional">" (optional)"</span> })}
        </legend>
        {help.map(|h| view! { <p class="hint" id=help_id>{h}</p> })}
    }
}

/// The label of a text or number field: the prompt, "(optional)" unless required.
fn field_label(dom_id: String, prompt: String, required: bool) -> impl IntoView {
    view! {
        <label for=dom_id class="legend">
            {prompt}
            {(!required).then(|| view! { <span class="optional">" (optional)"</span> })}
        </label>
    }
}

/// A Likert question's points, one radio button each.
fn scale_points(
    points: Vec<ScalePoint>,
    group: String,
    value: Signal<Option<Answer>>,
    on_change: Callback<Option<Answer>>,
    skip: Option<AnyView>,
) -> impl IntoView {
    view! {
        <div class="points">
            {points
                .into_iter()
                .map(|p| {
                    let v = p.value;
                    let checked = move || value.get() == Some(Answer::Scale(v));
                    view! {
                        <label class="point" title=p.description.clone().unwrap_or_default()>
                            <input
                                type="radio"
                                name=group.clone()
                                value=v
                                prop:checked=checked
                                on:change=move |_| on_change.run(Some(Answer::Scale(v)))
                            />
                            <PointCaption value=v label=p.label.clone() />
                        </label>
                    }
                })
                .collect_view()}
            {skip}
        </div>
    }
}

/// A single choice's options, one radio button each.
fn choice_options(
    options: Vec<String>,
    group: String,
    value: Signal<Option<Answer>>,
    on_change: Callback<Option<Answer>>,
) -> impl IntoView {
    options
        .into_iter()
        .map(|o| {
            let o2 = o.clone();
            let o3 = o.clone();
            radio(
                group.clone(),
                "option",
                Signal::derive(move || value.get() == Some(Answer::Choice(o2.clone()))),
                Callback::new(move |()| on_change.run(Some(Answer::Choice(o3.clone())))),
                o,
            )
        })
        .collect_view()
}

/// A multiple choice's options, one checkbox each; none ticked clears the answer.
fn choices_options(
    options: Vec<String>,
    value: Signal<Option<Answer>>,
    on_change: Callback<Option<Answer>>,
) -> impl IntoView {
    options
        .into_iter()
        .map(|o| {
            let o2 = o.clone();
            let o3 = o.clone();
            let ticked = move || match value.get() {
                Some(Answer::Choices(cs)) => cs.contains(&o2),
                _ => false,
            };
            view! {
                <label class="option">
                    <input
                        type="checkbox"
                        prop:checked=ticked
                        on:change=move |ev| {
                            let on = event_target_checked(&ev);
                            let mut cs = match value.get_untracked() {
                                Some(Answer::Choices(cs)) => cs,
                                _ => Vec::new(),
                            };
                            cs.retain(|c| c != &o3);
                            if on {
                                cs.push(o3.clone());
                            }
                            on_change.run((!cs.is_empty()).then_some(Answer::Choices(cs)));
                        }
                    />
                    {o}
                </label>
            }
        })
        .collect_view()
}

/// A short (one line) or long text question; an emptied field clears the answer.
fn text_question(
    (long, max_length): (bool, Option<u32>),
    dom_id: String,
    name: String,
    label: impl IntoView,
    value: Signal<Option<Answer>>,
    on_change: Callback<Option<Answer>>,
    reason: Memo<Option<String>>,
) -> impl IntoView {
    let text = move || match value.get() {
        Some(Answer::Text(t)) => t,
        _ => String::new(),
    };
    let input = move |ev| {
        let t = event_target_value(&ev);
        on_change.run((!t.is_empty()).then_some(Answer::Text(t)));
    };
    let max = max_length.map(|m| m.to_string());
    let invalid = invalid(reason);
    let described = described_by(&dom_id, None, reason);
    let control = if long {
        view! { <textarea id=dom_id.clone() aria-label=name.clone() rows="4" maxlength=max.clone() aria-invalid=invalid aria-describedby=described prop:value=text on:input=input></textarea> }.into_any()
    } else {
        view! { <input type="text" id=dom_id.clone() aria-label=name.clone() maxlength=max.clone() aria-invalid=invalid aria-describedby=described prop:value=text on:input=input /> }.into_any()
    };
    view! {
        <div class="question text">
            {label}
            {control}
        </div>
    }
}

/// A number question; a field that does not hold a number clears the answer.
fn number_question(
    (min, max, integer): (Option<f64>, Option<f64>, bool),
    dom_id: String,
    label: impl IntoView,
    value: Signal<Option<Answer>>,
    on_change: Callback<Option<Answer>>,
    reason: Memo<Option<String>>,
) -> impl IntoView {
    let text = move || match value.get() {
        Some(Answer::Number(x)) => Num(x).to_string(),
        _ => String::new(),
    };
    let described = described_by(&dom_id, None, reason);
    view! {
        <div class="question number">
            {label}
            <input
                type="number"
                aria-invalid=invalid(reason)
                aria-describedby=described
                id=dom_id
                inputmode=if integer { "numeric" } else { "decimal" }
                min=min.map(|m| Num(m).to_string())
                max=max.map(|m| Num(m).to_string())
                step=if integer { "1" } else { "any" }
                prop:value=text
                on:input=move |ev| on_change.run(dom::input_number(&ev).map(Answer::Number))
            />
        </div>
    }
}

/// A list to put in order with buttons (keyboard and touch friendly).
#[component]
fn RankList(
    initial: Vec<String>,
    value: Signal<Option<Answer>>,
    on_change: Callback<Option<Answer>>,
) -> impl IntoView {
    let order = move || match value.get() {
        Some(Answer::Rank(o)) => o,
        _ => initial.clone(),
    };
    let order = Memo::new(move |_| order());
    let moved = move |from: usize, to: usize| {
        let mut o = order.get_untracked();
        if to < o.len() {
            o.swap(from, to);
            on_change.run(Some(Answer::Rank(o)));
        }
    };
    view! {
        <ol class="rank-list">
            {move || {
                let o = order.get();
                let n = o.len();
                o.into_iter()
                    .enumerate()
                    .map(|(i, item)| view! {
                        <li>
                            <span class="rank-item">{item.clone()}</span>
                            <button
                                type="button"
                                class="small"
                                aria-label=format!("Move {item} up")
                                disabled=i == 0
                                on:click=move |_| moved(i, i.wrapping_sub(1))
                            >
                                "↑"
                            </button>
                            <button
                                type="button"
                                class="small"
                                aria-label=format!("Move {item} down")
                                disabled=i + 1 == n
                                on:click=move |_| moved(i, i + 1)
                            >
                                "↓"
                            </button>
                        </li>
                    })
                    .collect_view()
            }}
        </ol>
        <button
            type="button"
            class="secondary small"
            on:click=move |_| on_change.run(Some(Answer::Rank(order.get_untracked())))
        >
            "This order is right"
        </button>
    }
}
