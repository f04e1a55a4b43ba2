//! A trial: the prompt, the blinded outputs, the questions about each, the preference, notes,
//! and the way on. Everything shown comes from the core's `TrialView`, which has no system ids.

use juror_core::plan::view::{OutputView, TrialView};
use juror_core::session::{
    Answer, Msg, Overlay, Reply, Target, TrialStatus, current_view, progress, trial_statuses,
    with_label,
};
use juror_core::study::{Dimension, MediaKind, Requirement};
use leptos::prelude::*;

use super::preview::PreviewSystem;
use super::survey::{MissingList, missing_count};
use crate::components::rich::RichText;
use crate::controls::{
    NeededNote, PointCaption, PreferenceControl, QuestionControl, SliderScale, SpansQuestion,
    described_by, given, invalid, needed, radio,
};
use crate::session::{SessionHandle, use_session};

/// The trial on screen, with its header and navigation.
#[component]
pub fn TrialPage() -> impl IntoView {
    let handle = use_session();
    let current = Memo::new(move |_| handle.with(|s| s.current()));
    view! {
        <TrialHeader />
        // Keyed by the trial: each trial gets fresh elements (Leptos would otherwise update the
        // previous trial's elements in place, keeping focus on a control of the last trial).
        <For each=move || [current.get()] key=|index| *index let(index)>
            {
                let study = handle.study.get_value();
                handle.with_untracked(|s| current_view(&study, s))
                    .map(|view| view! { <TrialBody index view /> })
            }
        </For>
    }
}

/// Progress ("Trial 3 of 75"), time left, and the rubric, list and shortcut buttons; after a
/// refused Next, how many answers are missing (the header stays on screen, where the list under
/// the trial may not be). On a phone it is one row: "3/75", a thin bar, short button labels
/// (each button keeps its full accessible name).
#[component]
fn TrialHeader() -> impl IntoView {
    let handle = use_session();
    let has_rubric = !handle.study.get_value().rubric().is_empty();
    let p = Memo::new(move |_| handle.with(progress));
    // The ratings file so far: it restores on another device or browser.
    let backup = move |_| handle.backup();
    let text = move || {
        let p = p.get();
        let left = match p.minutes_left {
            Some(0) => " · almost done".to_owned(),
            Some(1) => " · about 1 minute left".to_owned(),
            Some(m) if m < 90 => format!(" · about {m} minutes left"),
            Some(m) => format!(" · about {} h {} min left", m / 60, m % 60),
            None => String::new(),
        };
        format!("Trial {} of {} · {} done{left}", p.current, p.total, p.done)
    };
    let short = move || {
        let p = p.get();
        format!("{}/{}", p.current, p.total)
    };
    let missing = Memo::new(move |_| handle.with(|s| s.missing().len()));
    // A button's label in full, and the short one a phone shows (hidden from screen readers,
    // which read the full label).
    let label = |full: &'static str, brief: &'static str| {
        view! {
            <span class="full">{full}</span>
            <span class="brief" aria-hidden="true">{brief}</span>
        }
    };
    view! {
        <header class="trial-header">
            <div class="progress-line">
                <p class="progress-text" aria-live="polite">
                    <span class="full">{text}</span>
                    <span class="brief" aria-hidden="true">{short}</span>
                </p>
                <div class="tools">
                    {has_rubric.then(|| view! {
                        <button type="button" class="secondary small" aria-keyshortcuts="R" on:click=move |_| handle.dispatch(Msg::Overlay(Overlay::Rubric))>
                            {label("Rubric", "Rubric")}
                        </button>
                    })}
                    <button type="button" class="secondary small" aria-keyshortcuts="L" on:click=move |_| handle.dispatch(Msg::Overlay(Overlay::TrialList))>
                        {label("All trials", "Trials")}
                    </button>
                    <button type="button" class="secondary small" aria-keyshortcuts="?" on:click=move |_| handle.dispatch(Msg::Overlay(Overlay::Shortcuts))>
                        {label("Shortcuts", "?")}
                    </button>
                    <button type="button" class="secondary small" on:click=backup>
                        {label("Save a backup", "Backup")}
                    </button>
                </div>
            </div>
            <div
                class="progress-bar"
                role="progressbar"
                aria-label="Trials done"
                aria-valuemin="0"
                aria-valuemax=move || p.get().total
                aria-valuenow=move || p.get().done
            >
                <div
                    class="progress-fill"
                    style:width=move || {
                        let p = p.get();
                        format!("{}%", (p.done * 100).checked_div(p.total).unwrap_or(100))
                    }
                ></div>
            </div>
            {move || {
                let n = missing.get();
                (n > 0).then(|| view! {
                    <p class="missing-note">{format!("{}: each is marked “Answer needed”.", missing_count(n))}</p>
                })
            }}
        </header>
    }
}

#[component]
fn TrialBody(index: usize, view: TrialView) -> impl IntoView {
    let handle = use_session();
    let study = handle.study.get_value();
    let task = study
        .design()
        .tasks
        .iter()
        .find(|t| t.id == view.task_id)
        .cloned();
    let first_of_task = handle.with_untracked(|s| s.task_changed(index));
    let task_intro = task.as_ref().and_then(|t| {
        let title = t.title.clone();
        let md = t.instructions.clone();
        // The task's own time estimate, with its heading.
        let time = t
            .estimated_minutes
            .map(|m| format!(" · about {}", super::welcome::format_minutes(m)));
        (title.is_some() || md.is_some() || time.is_some()).then(|| {
            view! {
                <details class="task-intro" open=first_of_task>
                    <summary>
                        {title.unwrap_or_else(|| "About this part".to_owned())}
                        {time}
                    </summary>
                    {md.map(|md| view! { <RichText text=md /> })}
                </details>
            }
        })
    });
    let several = view.outputs.len() > 1;
    let outputs = view
        .outputs
        .iter()
        .enumerate()
        .map(|(position, output)| {
            view! { <OutputCard index position output=output.clone() view=view.clone() /> }
        })
        .collect_view();
    let media = view.media.clone().map(|mut m| {
        m.src = handle.media_src(&m.src);
        m
    });
    let media = media.map(|m| view! { <MediaFigure kind=m.kind src=m.src alt=m.alt /> });
    let preference = view
        .preference
        .clone()
        .map(|p| view! { <PreferenceControl index preference=p /> });
    let notes = (view.notes != Requirement::Off).then(|| {
        let required = view.notes == Requirement::Required;
        let reason = needed("q-notes");
        view! {
            <div class="question text notes">
                <label for="q-notes" class="legend">
                    "Notes"
                    {(!required).then(|| view! { <span class="optional">" (optional)"</span> })}
                </label>
                <NeededNote dom_id="q-notes".to_owned() reason />
                <textarea
                    id="q-notes"
                    rows="3"
                    aria-invalid=invalid(reason)
                    aria-describedby=described_by("q-notes", None, reason)
                    prop:value=move || given(handle, index, |t| t.notes.clone())
                    on:input=move |ev| handle.dispatch(Msg::answer(Target::Notes, Reply::Text(event_target_value(&ev))))
                ></textarea>
            </div>
        }
    });
    let has_previous = index > 0 || !study.intake().is_empty();
    view! {
        <section class="trial" aria-labelledby="trial-heading">
            <h1 id="trial-heading" class="visually-hidden" tabindex="-1">{format!("Trial {}", view.number)}</h1>
            {task_intro}
            <div class="prompt">
                <h2>"Prompt"</h2>
                <RichText text=view.prompt.clone() />
                {view.context.clone().map(|text| view! {
                    <details class="context" open>
                        <summary>"Context"</summary>
                        <RichText text />
                    </details>
                })}
                {media}
            </div>
            <div class="outputs" class:several=several>{outputs}</div>
            {preference}
            {notes}
            <MissingList />
            <nav class="trial-nav" aria-label="Trials">
                <button
                    type="button"
                    class="secondary"
                    disabled=!has_previous
                    aria-keyshortcuts="Shift+Enter"
                    on:click=move |_| handle.dispatch(Msg::Previous)
                >
                    "Previous"
                </button>
                <button type="button" class="primary" aria-keyshortcuts="Enter" on:click=move |_| handle.dispatch(Msg::Next)>
                    "Next"
                </button>
            </nav>
        </section>
    }
}

/// One output under its label, with its ratings, questions and flag.
#[component]
fn OutputCard(index: usize, position: usize, output: OutputView, view: TrialView) -> impl IntoView {
    let handle = use_session();
    let study = handle.study.get_value();
    let label = output.label.clone();
    let heading = output.heading.clone();
    // The researcher's preview names the system; an annotator's page never does.
    let preview_system = handle.preview.then(|| {
        handle.with_untracked(|s| {
            juror_core::plan::view::preview_system(&study, s.plan(), index, position)
                .unwrap_or_default()
                .to_owned()
        })
    });
    let dimensions = view
        .dimensions
        .iter()
        .filter_map(|d| study.dimension(d).cloned())
        .map(|d| scale_question(handle, index, position, d, &label))
        .collect_view();
    let labels = handle.with_untracked(|s| s.system_labels(&study));
    let questions = view
        .output_questions
        .iter()
        .filter_map(|q| study.rubric().output_questions.iter().find(|x| &x.id == q).cloned())
        .map(|q| {
            let id = q.id.clone();
            let id2 = q.id.clone();
            let dom_id = Target::OutputQuestion { position, question: q.id.clone() }.dom_id();
            let name = with_label(&q.prompt, &label);
            let value = Signal::derive(move || {
                given(handle, index, |t| t.outputs.get(position).and_then(|o| o.answers.get(&id).cloned()))
            });
            let on_change = Callback::new(move |answer: Option<Answer>| {
                handle.dispatch(Msg::Answer { target: Target::OutputQuestion { position, question: id2.clone() }, reply: answer.map(Reply::Answer), advance: false })
            });
            view! { <QuestionControl question=q dom_id name value on_change labels=labels.clone() /> }
        })
        .collect_view();
    let flag_rule = view.flag_rule.clone();
    let flag = view.flag.clone().map(|flag_label| {
        let aria = with_label(&flag_label, &label);
        let rule_id = format!("flag-rule-{index}-{position}");
        let described = flag_rule.as_ref().map(|_| rule_id.clone());
        view! {
            <label class="flag">
                <input
                    type="checkbox"
                    aria-label=aria
                    aria-describedby=described
                    prop:checked=move || given(handle, index, |t| t.outputs.get(position).is_some_and(|o| o.flagged))
                    on:change=move |ev| handle.dispatch(Msg::Answer { target: Target::Flag { position }, reply: event_target_checked(&ev).then_some(Reply::Ticked), advance: false })
                />
                {flag_label}
            </label>
            {flag_rule.map(|rule| view! { <p class="hint flag-rule" id=rule_id>{rule}</p> })}
        }
    });
    view! {
        <article class="output" aria-label=heading.clone()>
            <h2 class="output-label">{heading.clone()}</h2>
            {preview_system.map(|system| view! { <p class="preview-system">"System: " <PreviewSystem system /></p> })}
            {match (output.text.clone(), view.spans.clone()) {
                (Some(text), Some(spans)) => view! { <SpansQuestion index position label=label.clone() text spans /> }.into_any(),
                // Plain text (the task's `plain_text`): as written, whitespace kept.
                (Some(text), None) => view! { <div class="output-text plain-text">{text}</div> }.into_any(),
                _ => view! { <RichText text=output.body.clone().unwrap_or_else(|| "".into()) class="output-text" /> }.into_any(),
            }}
            <div class="output-questions">{dimensions} {questions} {flag}</div>
        </article>
    }
}

/// One dimension's question on an output card: its slider, or its labelled points (each with its
/// description) and, where the dimension allows it, "Cannot judge".
fn scale_question(
    handle: SessionHandle,
    index: usize,
    position: usize,
    d: Dimension,
    label: &str,
) -> AnyView {
    if d.scale.slider() {
        return view! { <SliderScale index position dimension=d label=label.to_owned() /> }
            .into_any();
    }
    let target = Target::Rating {
        position,
        dimension: d.id.clone(),
    };
    let dom_id = target.dom_id();
    let name = with_label(&d.label, label);
    let dim = d.id.clone();
    let dim2 = d.id.clone();
    let group = dom_id.clone();
    let reason = needed(&dom_id);
    let skip = d.allow_skip.then(|| {
        let (dim, dim2) = (d.id.clone(), d.id.clone());
        radio(
            group.clone(),
            "option skip",
            Signal::derive(move || {
                given(handle, index, |t| {
                    t.outputs
                        .get(position)
                        .is_some_and(|o| o.cannot_judge.contains(&dim))
                })
            }),
            Callback::new(move |()| {
                handle.dispatch(Msg::answer(
                    Target::Rating {
                        position,
                        dimension: dim2.clone(),
                    },
                    Reply::CannotJudge,
                ))
            }),
            "Cannot judge".to_owned(),
        )
    });
    view! {
        <fieldset
            class="question scale"
            id=dom_id.clone()
            role="radiogroup"
            aria-label=name
            aria-invalid=invalid(reason)
            aria-describedby=described_by(&dom_id, None, reason)
            data-rate=d.id.clone()
            data-position=position
        >
            <legend>
                <strong>{d.label.clone()}</strong>
                {(!d.required).then(|| view! { <span class="optional">" (optional)"</span> })}
                <span class="question-text">{d.question.clone()}</span>
            </legend>
            <NeededNote dom_id=dom_id.clone() reason />
            // Each point's description follows it; the stylesheet shows the hovered,
            // else focused, else chosen point's on its own line under the points (in
            // the flow: it never covers another control).
            <div class="points">
                {d.scale
                    .points
                    .iter()
                    .map(|p| {
                        let v = p.value;
                        let dim = dim.clone();
                        let dim2 = dim2.clone();
                        let desc_id = format!("{group}-d{v}");
                        let described_by = p.description.as_ref().map(|_| desc_id.clone());
                        let desc = p.description.clone().map(|text| view! { <span class="desc" id=desc_id>{text}</span> });
                        view! {
                            <label class="point">
                                <input
                                    type="radio"
                                    name=group.clone()
                                    value=v
                                    aria-describedby=described_by
                                    prop:checked=move || given(handle, index, |t| {
                                        t.outputs.get(position).is_some_and(|o| o.ratings.get(&dim) == Some(&v))
                                    })
                                    on:change=move |_| handle.dispatch(Msg::answer(Target::Rating { position, dimension: dim2.clone() }, Reply::Score(v)))
                                />
                                <PointCaption value=v label=p.label.clone() />
                            </label>
                            {desc}
                        }
                    })
                    .collect_view()}
                {skip}
            </div>
        </fieldset>
    }
    .into_any()
}

/// Every trial with its status; a click reopens it.
#[component]
pub fn TrialList() -> impl IntoView {
    let handle = use_session();
    let rows = move || {
        handle.with(|s| {
            trial_statuses(s)
                .enumerate()
                .map(|(i, t)| {
                    let status = match t {
                        TrialStatus::Done => "done",
                        TrialStatus::Started => "started",
                        TrialStatus::ToDo => "to do",
                    };
                    let here = i == s.current();
                    view! {
                        <li class:here=here>
                            <button
                                type="button"
                                class="link"
                                aria-current=here.then_some("step")
                                on:click=move |_| handle.dispatch(Msg::GoTo(i))
                            >
                                {format!("Trial {}", i + 1)}
                            </button>
                            <span class=format!("status {}", status.replace(' ', "-"))>{status}</span>
                        </li>
                    }
                })
                .collect_view()
        })
    };
    view! { <ol class="trial-list">{rows}</ol> }
}

/// An image, or a video with its text alternative as caption (an item's, or a worked example's).
#[component]
pub fn MediaFigure(kind: MediaKind, src: String, alt: String) -> impl IntoView {
    match kind {
        MediaKind::Image => view! {
            <figure class="media"><img src=src alt=alt loading="eager" /></figure>
        }
        .into_any(),
        MediaKind::Video => view! {
            <figure class="media">
                <video src=src controls preload="metadata" aria-label=alt.clone()></video>
                <figcaption>{alt}</figcaption>
            </figure>
        }
        .into_any(),
    }
}
