//! A slider (`type: "slider"`, or a scale of more than 11 points such as a 0–100 score): the
//! value chosen, the labelled points beneath at their places. Untouched, it is unanswered and
//! says so (its track grey); the arrows move it a step, Page Up/Down a tenth of the range (the
//! browser's own keys), Home and End to its ends; a drag or a tap gives the value let go at, a tap on the untouched thumb its value. A
//! dimension with `allow_skip` has a "Cannot judge" checkbox beside it: ticked, the slider holds
//! no score; a score given by the slider unticks it.

use juror_core::base::number::Num;
use juror_core::session::{Msg, Reply, Target, with_label};
use juror_core::study::Dimension;
use leptos::prelude::*;

use super::given;
use super::question::{NeededNote, described_by, invalid, needed, skip_box};
use crate::session::use_session;

/// The score of `dimension` for the output at `position` of trial `index`, as a slider.
#[component]
pub fn SliderScale(
    index: usize,
    position: usize,
    dimension: Dimension,
    label: String,
) -> impl IntoView {
    let handle = use_session();
    let dom_id = Target::Rating {
        position,
        dimension: dimension.id.clone(),
    }
    .dom_id();
    let reason = needed(&dom_id);
    let (min, max, step) = (
        dimension.scale.min(),
        dimension.scale.max(),
        dimension.scale.step.max(1),
    );
    // Untouched, the thumb rests on the step nearest the middle (and holds no score).
    let rest = min + (max - min) / step / 2 * step;
    let dim = dimension.id.clone();
    let value = Memo::new(move |_| {
        given(handle, index, |t| {
            t.outputs
                .get(position)
                .and_then(|o| o.ratings.get(&dim).copied())
        })
    });
    let dim = StoredValue::new(dimension.id.clone());
    // "Cannot judge" (a dimension with `allow_skip`): the slider then holds no score.
    let skipped = Memo::new(move |_| {
        given(handle, index, |t| {
            t.outputs
                .get(position)
                .is_some_and(|o| o.cannot_judge.contains(&dim.get_value()))
        })
    });
    let rate = move |v: i32| {
        handle.dispatch(Msg::answer(
            Target::Rating {
                position,
                dimension: dim.get_value(),
            },
            Reply::Score(v),
        ));
    };
    let touched = move |ev: &web_sys::Event| {
        if value.get_untracked().is_none()
            && let Ok(v) = event_target_value(ev).parse()
        {
            rate(v);
        }
    };
    // While dragged, the value shown follows the thumb; it is given when let go.
    let moving = RwSignal::new(None::<i32>);
    let shown = move || moving.get().or(value.get());
    let value_id = format!("{dom_id}-value");
    let points = StoredValue::new(dimension.scale.points.clone());
    // What a screen reader says of the value: the number, and a labelled point's label.
    let spoken = move || match shown() {
        None if skipped.get() => "Cannot judge".to_owned(),
        None => "not answered yet".to_owned(),
        Some(v) => points.with_value(|p| {
            match p
                .iter()
                .find(|p| p.value == v)
                .and_then(|p| p.label.clone())
            {
                Some(l) => format!("{v}, {l}"),
                None => v.to_string(),
            }
        }),
    };
    let span = f64::from((max - min).max(1));
    let anchors = dimension
        .scale
        .points
        .iter()
        .filter_map(|p| p.label.clone().map(|l| (p.value, l)))
        .map(|(v, l)| {
            let left = f64::from(v - min) * 100.0 / span;
            view! {
                <li style:left=format!("{}%", Num(left))>
                    <span class="value">{v}</span>
                    <span class="label">{l}</span>
                </li>
            }
        })
        .collect_view();
    let name = with_label(&dimension.label, &label);
    let skip = dimension.allow_skip.then(|| {
        let toggle = Callback::new(move |on: bool| {
            handle.dispatch(Msg::Answer {
                target: Target::Rating {
                    position,
                    dimension: dim.get_value(),
                },
                reply: on.then_some(Reply::CannotJudge),
                advance: false,
            })
        });
        skip_box(
            Some(format!("Cannot judge: {name}")),
            skipped.into(),
            toggle,
        )
    });
    view! {
        <fieldset class="question slider" data-rate=dimension.id.clone() data-position=position>
            <legend>
                <strong>{dimension.label.clone()}</strong>
                {(!dimension.required).then(|| view! { <span class="optional">" (optional)"</span> })}
                <span class="question-text">{dimension.question.clone()}</span>
            </legend>
            <NeededNote dom_id=dom_id.clone() reason />
            <div class="slider-row">
                <input
                    type="range"
                    id=dom_id.clone()
                    min=min
                    max=max
                    step=step
                    aria-label=name
                    aria-invalid=invalid(reason)
                    aria-describedby=described_by(&dom_id, Some(value_id.clone()), reason)
                    aria-valuetext=spoken
                    class:untouched=move || value.get().is_none()
                    prop:value=move || shown().unwrap_or(rest)
                    on:input=move |ev| moving.set(event_target_value(&ev).parse().ok())
                    on:change=move |ev| {
                        moving.set(None);
                        if let Ok(v) = event_target_value(&ev).parse() {
                            rate(v);
                        }
                    }
                    // A click or a tap on the untouched thumb gives the value it shows (the
                    // browser fires no change for a value it already holds, and a phone's tap
                    // may fire no click).
                    on:click=move |ev| touched(&ev)
                    on:pointerup=move |ev| touched(&ev)
                />
                <output id=value_id class="slider-value" class:unanswered=move || shown().is_none()>
                    {move || shown().map_or_else(spoken, |v| v.to_string())}
                </output>
            </div>
            <ul class="anchors" aria-hidden="true">{anchors}</ul>
            {skip}
        </fieldset>
    }
}
