//! An output whose errors are marked: its text as plain text with the marked errors
//! highlighted, a severity picker for what is selected (by mouse, by keyboard with a caret of
//! its own, or by tapping a first and a last word), the list of the errors with a way to remove
//! each, "No errors", and an error of the whole output when the task allows one. Offsets are the
//! core's: code points of the output's text ([`juror_core::session::span_text`]).

use juror_core::plan::view::SpansView;
use juror_core::session::span_text::{
    next_word, pieces, previous_word, slice, trim, utf16_to_char, word_at,
};
use juror_core::session::{ErrorSpan, Msg, Target, with_label};
use juror_core::study::Severity;
use leptos::prelude::*;

use super::survey::{NeededNote, described_by, invalid, needed};
use super::trial::given;
use crate::services::dom;
use crate::session::use_session;

/// What the picker would mark.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Pending {
    /// The text from `.0` to `.1` (code points).
    Text(usize, usize),
    /// An error of the whole output.
    Whole,
}

/// A severity as the page names it.
fn title(severity: Severity) -> &'static str {
    match severity {
        Severity::Minor => "Minor",
        Severity::Major => "Major",
        Severity::Critical => "Critical",
    }
}

/// How an error reads in the list and to a screen reader: "Major error: “the whale swam”".
fn describe(span: &ErrorSpan, text: &str) -> String {
    match span.range() {
        Some((s, e)) => format!("“{}”", slice(text, s as usize, e as usize)),
        None => "the whole output".to_owned(),
    }
}

/// The errors of the output at `position` of trial `index`.
#[component]
pub fn SpansQuestion(
    index: usize,
    position: usize,
    /// The output's label ("Summary A").
    label: String,
    /// The output's text as the study holds it.
    text: String,
    spans: SpansView,
) -> impl IntoView {
    let handle = use_session();
    let dom_id = Target::Spans { position }.dom_id();
    let text_id = dom_id.clone();
    let question_id = format!("{dom_id}-question");
    let reason = needed(&dom_id);
    let length = text.chars().count();
    let text = StoredValue::new(text);
    let severities = StoredValue::new(spans.severities.clone());
    let categories = StoredValue::new(spans.categories.clone());
    let marked = Memo::new(move |_| {
        given(handle, index, |t| {
            t.outputs
                .get(position)
                .map(|o| o.spans.clone())
                .unwrap_or_default()
        })
    });
    let no_errors = Memo::new(move |_| {
        given(handle, index, |t| {
            t.outputs.get(position).is_some_and(|o| o.no_errors)
        })
    });
    // The keyboard's caret and the end its selection is anchored at; what the picker would
    // mark; the first word tapped; the category chosen; the status line.
    let caret = RwSignal::new(0usize);
    let anchor = RwSignal::new(None::<usize>);
    let pending = RwSignal::new(None::<Pending>);
    let tapped = RwSignal::new(None::<(usize, usize)>);
    let category = RwSignal::new(String::new());
    let status = RwSignal::new(String::new());
    let dragged = StoredValue::new(false);

    // The marked span that `pending` would overlap, if any (the same text is no overlap: it
    // changes that error's severity).
    let blocked = move || {
        let Some(Pending::Text(s, e)) = pending.get() else {
            return None;
        };
        let span = ErrorSpan {
            start: Some(s as u32),
            end: Some(e as u32),
            severity: Severity::Minor,
            category: None,
        };
        marked.with(|m| {
            m.iter()
                .find(|x| x.key() != span.key() && x.overlaps(&span))
                .cloned()
        })
    };
    let select = move |range: Option<(usize, usize)>| {
        let range = range.and_then(|(s, e)| text.with_value(|t| trim(t, s, e)));
        pending.set(range.map(|(s, e)| Pending::Text(s, e)));
        if let Some((s, e)) = range {
            let words = text.with_value(|t| slice(t, s, e));
            status.set(format!("Selected “{words}”: choose its severity."));
        }
    };
    let text_id2 = text_id.clone();
    let choose = Callback::new(move |severity: Severity| {
        let Some(p) = pending.get_untracked() else {
            status.set("Select the error's text first.".to_owned());
            return;
        };
        let chosen = category.get_untracked();
        let category = if categories.with_value(Vec::is_empty) {
            None
        } else if chosen.is_empty() {
            status.set("Choose the error's category first.".to_owned());
            dom::focus(format!("{}-category", text_id2));
            return;
        } else {
            Some(chosen)
        };
        let (start, end) = match p {
            Pending::Text(s, e) => (Some(s as u32), Some(e as u32)),
            Pending::Whole => (None, None),
        };
        let span = ErrorSpan {
            start,
            end,
            severity,
            category,
        };
        let what = text.with_value(|t| describe(&span, t));
        handle.dispatch(Msg::MarkSpan {
            position,
            span: span.clone(),
        });
        let done = marked.with_untracked(|m| m.contains(&span));
        status.set(if done {
            format!("Marked: {} error, {what}.", severity.name())
        } else {
            "Not marked: it overlaps an error already marked.".to_owned()
        });
        pending.set(None);
        anchor.set(None);
        tapped.set(None);
        dom::focus(text_id2.clone());
    });
    let cancel = move || {
        pending.set(None);
        anchor.set(None);
        tapped.set(None);
        status.set(String::new());
    };

    // The text, cut into pieces: each a word (or a space, or a mark's edge), in its error's
    // highlight when marked, in the selection's when selected; the caret before its piece.
    let rendered = move || {
        let spans = marked.get();
        let marks: Vec<(usize, usize)> = spans
            .iter()
            .filter_map(ErrorSpan::range)
            .map(|(s, e)| (s as usize, e as usize))
            .collect();
        let ranged: Vec<&ErrorSpan> = spans.iter().filter(|s| s.range().is_some()).collect();
        let selected = match pending.get() {
            Some(Pending::Text(s, e)) => Some((s, e)),
            _ => None,
        };
        let at = caret.get();
        let mut cuts = vec![at];
        cuts.extend(selected.iter().flat_map(|&(s, e)| [s, e]));
        let all = text.with_value(|t| pieces(t, &marks, &cuts));
        // Consecutive pieces of one error go in one highlight.
        let mut groups: Vec<(Option<usize>, Vec<juror_core::session::span_text::Piece>)> =
            Vec::new();
        for p in all {
            match groups.last_mut() {
                Some((m, list)) if *m == p.mark && p.mark.is_some() => list.push(p),
                _ => groups.push((p.mark, vec![p])),
            }
        }
        let piece_view = move |p: juror_core::session::span_text::Piece| {
            let chosen = selected.is_some_and(|(s, e)| s <= p.start && p.end <= e);
            view! {
                {(p.start == at).then(|| view! { <span class="caret" aria-hidden="true"></span> })}
                <span data-at=p.start class:selected=chosen>{p.text}</span>
            }
            .into_any()
        };
        let end_caret =
            (at == length).then(|| view! { <span class="caret" aria-hidden="true"></span> });
        view! {
            {groups
                .into_iter()
                .map(|(mark, list)| {
                    let inner = list.into_iter().map(piece_view).collect_view();
                    match mark.and_then(|m| ranged.get(m)) {
                        Some(span) => {
                            let name = span.severity.name();
                            let tag = match &span.category {
                                Some(c) => format!("{name} · {c}"),
                                None => name.to_owned(),
                            };
                            view! { <mark class=format!("error {name}") data-label=tag>{inner}</mark> }
                                .into_any()
                        }
                        None => inner.into_any(),
                    }
                })
                .collect_view()}
            {end_caret}
        }
        .into_any()
    };

    let on_key = move |ev: leptos::ev::KeyboardEvent| {
        let key = ev.key();
        let by_word = ev.ctrl_key() || ev.alt_key() || ev.meta_key();
        let at = caret.get_untracked();
        let moved = match key.as_str() {
            "ArrowRight" if by_word => Some(text.with_value(|t| next_word(t, at))),
            "ArrowLeft" if by_word => Some(text.with_value(|t| previous_word(t, at))),
            "ArrowRight" => Some((at + 1).min(length)),
            "ArrowLeft" => Some(at.saturating_sub(1)),
            "Home" => Some(0),
            "End" => Some(length),
            _ => None,
        };
        if let Some(to) = moved {
            ev.prevent_default();
            let from = if ev.shift_key() {
                Some(anchor.get_untracked().unwrap_or(at))
            } else {
                None
            };
            anchor.set(from);
            caret.set(to);
            tapped.set(None);
            match from {
                Some(from) => select(Some((from, to))),
                None => {
                    pending.set(None);
                    let next = text.with_value(|t| slice(t, to, to + 1));
                    status.set(match next.trim() {
                        "" => String::new(),
                        c => format!("At “{c}”"),
                    });
                }
            }
            return;
        }
        match key.as_str() {
            "Enter" | "m" | "M" => {
                ev.prevent_default();
                ev.stop_propagation();
                if pending.get_untracked().is_some() {
                    dom::focus(picker_id_for(position));
                } else {
                    status.set(
                        "Select the error first: hold Shift with the arrow keys (Ctrl or Alt for whole words)."
                            .to_owned(),
                    );
                }
            }
            d if d.len() == 1 && d.as_bytes()[0].is_ascii_digit() => {
                ev.prevent_default();
                let n = usize::from(d.as_bytes()[0] - b'0');
                if let Some(s) = n
                    .checked_sub(1)
                    .and_then(|i| severities.with_value(|v| v.get(i).copied()))
                {
                    choose.run(s);
                }
            }
            "Escape" => cancel(),
            _ => {}
        }
    };
    let text_id3 = text_id.clone();
    // A drag of the mouse selects text: the selection, snapped to whole characters and trimmed.
    let on_mouseup = move |_| {
        if let Some((a, b)) = dom::selection_in(&text_id3) {
            let a = a.at + utf16_to_char(&a.text, a.utf16);
            let b = b.at + utf16_to_char(&b.text, b.utf16);
            dom::clear_selection();
            dragged.set_value(true);
            tapped.set(None);
            anchor.set(None);
            caret.set(a.max(b));
            select(Some((a.min(b), a.max(b))));
        }
    };
    // A tap (or a click) on a word: the first word, then the last.
    let on_click = move |ev: leptos::ev::MouseEvent| {
        if dragged.get_value() {
            dragged.set_value(false);
            return;
        }
        let Some(at) = dom::piece_at(&ev) else { return };
        let Some(word) = text.with_value(|t| word_at(t, at)) else {
            return;
        };
        anchor.set(None);
        caret.set(word.1);
        match tapped.get_untracked() {
            Some(first) => {
                tapped.set(None);
                select(Some((first.0.min(word.0), first.1.max(word.1))));
            }
            None => {
                tapped.set(Some(word));
                select(Some(word));
                let words = text.with_value(|t| slice(t, word.0, word.1));
                status.set(format!(
                    "Selected “{words}”: tap another word to extend the error to it, or choose its severity."
                ));
            }
        }
    };

    let picker = move || {
        let p = pending.get()?;
        let what = match p {
            Pending::Text(s, e) => format!("Selected: “{}”", text.with_value(|t| slice(t, s, e))),
            Pending::Whole => "An error of the whole output (something missing)".to_owned(),
        };
        let body = match blocked() {
            Some(other) => {
                let other = text.with_value(|t| describe(&other, t));
                view! {
                    <p class="hint">{format!("This overlaps the error {other} already marked: remove that one first, or select other text.")}</p>
                }
                .into_any()
            }
            None => {
                let select_id = format!("q-spans-{position}-category");
                let category_control = categories.with_value(|c| !c.is_empty()).then(|| {
                    view! {
                        <label class="category">
                            "Category "
                            <select
                                id=select_id
                                prop:value=move || category.get()
                                on:change=move |ev| category.set(event_target_value(&ev))
                            >
                                <option value="">"Choose…"</option>
                                {category_options(&categories.get_value())}
                            </select>
                        </label>
                    }
                });
                let buttons = severities
                    .get_value()
                    .into_iter()
                    .enumerate()
                    .map(|(i, s)| {
                        let key = (i + 1).to_string();
                        let shown_key = key.clone();
                        view! {
                            <button type="button" class=format!("severity {}", s.name()) aria-keyshortcuts=key.clone() on:click=move |_| choose.run(s)>
                                {title(s)}
                                <kbd aria-hidden="true">{shown_key}</kbd>
                            </button>
                        }
                    })
                    .collect_view();
                view! {
                    {category_control}
                    <div class="severities">{buttons}</div>
                }
                .into_any()
            }
        };
        let on_picker_key = move |ev: leptos::ev::KeyboardEvent| {
            let key = ev.key();
            if key == "Escape" {
                cancel();
                dom::focus(format!("q-spans-{position}"));
            } else if key.len() == 1 && key.as_bytes()[0].is_ascii_digit() {
                ev.prevent_default();
                let n = usize::from(key.as_bytes()[0] - b'0');
                if let Some(s) = n
                    .checked_sub(1)
                    .and_then(|i| severities.with_value(|v| v.get(i).copied()))
                {
                    choose.run(s);
                }
            }
        };
        Some(view! {
            <div class="span-picker" id=picker_id_for(position) role="group" aria-label="Mark the selected error" data-own-keys="" on:keydown=on_picker_key>
                <p class="picked">{what}</p>
                {body}
                <button type="button" class="link" on:click=move |_| cancel()>"Cancel"</button>
            </div>
        }
        .into_any())
    };

    let list_name = format!("Errors marked in {label}");
    let list = move || {
        let spans = marked.get();
        (!spans.is_empty()).then(|| {
            let items = spans
                .into_iter()
                .map(|span| {
                    let what = text.with_value(|t| describe(&span, t));
                    let sev = title(span.severity);
                    let key = span.key();
                    let remove = format!("Remove {} error {what}", span.severity.name());
                    let said = format!("{} error {what}", span.severity.name());
                    view! {
                        <li>
                            <span class=format!("tag {}", span.severity.name())>{sev}</span>
                            {format!(" error: {what}")}
                            {span.category.clone().map(|c| view! { <span class="category">{format!(" · {c}")}</span> })}
                            " "
                            <button
                                type="button"
                                class="link small"
                                aria-label=remove
                                on:click=move |_| {
                                    handle.dispatch(Msg::RemoveSpan { position, key: key.clone() });
                                    status.set(format!("Removed: {said}."));
                                }
                            >
                                "Remove"
                            </button>
                        </li>
                    }
                    .into_any()
                })
                .collect_view();
            view! { <ul class="span-list" aria-label=list_name.clone()>{items}</ul> }.into_any()
        })
    };

    let name = format!("{label} text; use the arrow keys, with Shift, to select an error");
    let whole = spans.whole_output.then(|| {
        view! {
            <button type="button" class="secondary small" on:click=move |_| {
                anchor.set(None);
                tapped.set(None);
                pending.set(Some(Pending::Whole));
                dom::focus(picker_id_for(position));
            }>
                "Mark an error of the whole output"
            </button>
        }
    });
    let no_errors_name = with_label("No errors", &label);
    view! {
        <div class="question spans">
            <p class="question-text" id=question_id.clone()>{spans.question.clone()}</p>
            <NeededNote dom_id=dom_id.clone() reason />
            <div
                id=text_id.clone()
                class="span-text"
                tabindex="0"
                role="textbox"
                aria-readonly="true"
                aria-multiline="true"
                aria-label=name
                aria-invalid=invalid(reason)
                aria-describedby=described_by(&dom_id, Some(question_id), reason)
                data-own-keys=""
                on:keydown=on_key
                on:mousedown=move |_| dragged.set_value(false)
                on:mouseup=on_mouseup
                on:click=on_click
            >
                {rendered}
            </div>
            <p class="span-status" role="status">{move || status.get()}</p>
            {picker}
            {list}
            <div class="span-actions">
                {whole}
                <label class="no-errors">
                    <input
                        type="checkbox"
                        aria-label=no_errors_name
                        prop:checked=move || no_errors.get() && marked.with(Vec::is_empty)
                        prop:disabled=move || !marked.with(Vec::is_empty)
                        on:change=move |ev| handle.dispatch(Msg::NoErrors { position, on: event_target_checked(&ev) })
                    />
                    "No errors"
                </label>
            </div>
        </div>
    }
}

fn picker_id_for(position: usize) -> String {
    format!("q-spans-{position}-picker")
}

/// The categories as options; a two-level category ("Accuracy/Mistranslation") under its
/// first level's group.
fn category_options(categories: &[String]) -> impl IntoView + use<> {
    let mut groups: Vec<(Option<String>, Vec<String>)> = Vec::new();
    for c in categories {
        let top = c.split_once('/').map(|(t, _)| t.to_owned());
        match groups.last_mut() {
            Some((t, list)) if top.is_some() && *t == top => list.push(c.clone()),
            _ => groups.push((top, vec![c.clone()])),
        }
    }
    groups
        .into_iter()
        .map(|(top, list)| {
            let options = list
                .into_iter()
                .map(|c| {
                    let shown = c.split_once('/').map_or(c.clone(), |(_, s)| s.to_owned());
                    view! { <option value=c>{shown}</option> }
                })
                .collect_view();
            match top {
                Some(top) => view! { <optgroup label=top>{options}</optgroup> }.into_any(),
                None => options.into_any(),
            }
        })
        .collect_view()
}
