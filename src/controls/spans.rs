//! An output whose errors are marked: its text as plain text with the marked errors
//! highlighted, a severity picker for what is selected (by mouse, by keyboard with a caret of
//! its own, or by tapping a first and a last word), the list of the errors with a way to remove
//! each, "No errors", and an error of the whole output when the task allows one. Offsets are the
//! core's: code points of the output's text ([`juror_core::session::span_text`]).

use juror_core::plan::view::SpansView;
use juror_core::session::span_text::{
    Piece, next_word, pieces, previous_word, slice, trim, utf16_to_char, word_at,
};
use juror_core::session::{ErrorSpan, Msg, Reply, Target, with_label};
use juror_core::study::Severity;
use leptos::prelude::*;

use super::given;
use super::question::{NeededNote, described_by, invalid, needed};
use crate::services::dom;
use crate::session::{SessionHandle, use_session};

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

/// What one output's marking holds: where, the text and what the task offers, the errors
/// marked (from the session), and the component's own state (all `Copy`, for the handlers).
#[derive(Clone, Copy)]
struct Marking {
    handle: SessionHandle,
    index: usize,
    position: usize,
    length: usize,
    text: StoredValue<String>,
    severities: StoredValue<Vec<Severity>>,
    categories: StoredValue<Vec<String>>,
    marked: Memo<Vec<ErrorSpan>>,
    /// The keyboard's caret (code points).
    caret: RwSignal<usize>,
    /// Where the keyboard's selection is anchored (Shift held).
    anchor: RwSignal<Option<usize>>,
    /// What the picker would mark.
    pending: RwSignal<Option<Pending>>,
    /// The first word tapped.
    tapped: RwSignal<Option<(usize, usize)>>,
    /// The category chosen in the picker.
    category: RwSignal<String>,
    /// The status line (read out politely).
    status: RwSignal<String>,
    /// A drag just selected text: the click that follows is no tap.
    dragged: StoredValue<bool>,
}

impl Marking {
    fn text_id(self) -> String {
        Target::Spans {
            position: self.position,
        }
        .dom_id()
    }

    /// Selects `range` (trimmed of whitespace; nothing when only whitespace is left).
    fn select(self, range: Option<(usize, usize)>) {
        let range = range.and_then(|(s, e)| self.text.with_value(|t| trim(t, s, e)));
        self.pending.set(range.map(|(s, e)| Pending::Text(s, e)));
        if let Some((s, e)) = range {
            let words = self.text.with_value(|t| slice(t, s, e));
            self.status
                .set(format!("Selected “{words}”: choose its severity."));
        }
    }

    fn cancel(self) {
        self.pending.set(None);
        self.anchor.set(None);
        self.tapped.set(None);
        self.status.set(String::new());
    }

    /// The marked error that the selection would overlap, if any (the same text is no
    /// overlap: marking it again changes that error's severity).
    fn blocked(self) -> Option<ErrorSpan> {
        let Some(Pending::Text(s, e)) = self.pending.get() else {
            return None;
        };
        let span = ErrorSpan {
            start: Some(s as u32),
            end: Some(e as u32),
            severity: Severity::Minor,
            category: None,
        };
        self.marked.with(|m| {
            m.iter()
                .find(|x| x.key() != span.key() && x.overlaps(&span))
                .cloned()
        })
    }

    /// Marks what is selected with `severity` (and the category chosen).
    fn choose(self, severity: Severity) {
        let handle = self.handle;
        let Some(p) = self.pending.get_untracked() else {
            self.status.set("Select the error's text first.".to_owned());
            return;
        };
        let chosen = self.category.get_untracked();
        let category = if self.categories.with_value(Vec::is_empty) {
            None
        } else if chosen.is_empty() {
            self.status
                .set("Choose the error's category first.".to_owned());
            dom::focus(format!("{}-category", self.text_id()));
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
        let what = self.text.with_value(|t| describe(&span, t));
        handle.dispatch(Msg::MarkSpan {
            position: self.position,
            span: span.clone(),
        });
        let done = self.marked.with_untracked(|m| m.contains(&span));
        self.status.set(if done {
            format!("Marked: {} error, {what}.", severity.name())
        } else {
            "Not marked: it overlaps an error already marked.".to_owned()
        });
        self.pending.set(None);
        self.anchor.set(None);
        self.tapped.set(None);
        dom::focus(self.text_id());
    }

    /// The severity the digit key `key` stands for, if any.
    fn digit(self, key: &str) -> Option<Severity> {
        let d = key.as_bytes();
        if d.len() != 1 || !d[0].is_ascii_digit() {
            return None;
        }
        usize::from(d[0] - b'0')
            .checked_sub(1)
            .and_then(|i| self.severities.with_value(|v| v.get(i).copied()))
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
    let question_id = format!("{dom_id}-question");
    let reason = needed(&dom_id);
    let m = Marking {
        handle,
        index,
        position,
        length: text.chars().count(),
        text: StoredValue::new(text),
        severities: StoredValue::new(spans.severities.clone()),
        categories: StoredValue::new(spans.categories.clone()),
        marked: Memo::new(move |_| {
            given(handle, index, |t| {
                t.outputs
                    .get(position)
                    .map(|o| o.spans.clone())
                    .unwrap_or_default()
            })
        }),
        caret: RwSignal::new(0),
        anchor: RwSignal::new(None),
        pending: RwSignal::new(None),
        tapped: RwSignal::new(None),
        category: RwSignal::new(String::new()),
        status: RwSignal::new(String::new()),
        dragged: StoredValue::new(false),
    };
    let no_errors = Memo::new(move |_| {
        given(handle, m.index, |t| {
            t.outputs.get(position).is_some_and(|o| o.no_errors)
        })
    });
    let name = format!("{label} text; use the arrow keys, with Shift, to select an error");
    let list_name = format!("Errors marked in {label}");
    let whole = spans.whole_output.then(|| {
        view! {
            <button type="button" class="secondary small" on:click=move |_| {
                m.anchor.set(None);
                m.tapped.set(None);
                m.pending.set(Some(Pending::Whole));
                dom::focus(picker_id_for(position));
            }>
                "Mark an error of the whole output"
            </button>
        }
    });
    let no_errors_name = with_label("No errors", &label);
    let empty = move || m.marked.with(Vec::is_empty);
    view! {
        <div class="question spans">
            <p class="question-text" id=question_id.clone()>{spans.question.clone()}</p>
            <NeededNote dom_id=dom_id.clone() reason />
            <div
                id=dom_id.clone()
                class="span-text"
                tabindex="0"
                role="textbox"
                aria-readonly="true"
                aria-multiline="true"
                aria-label=name
                aria-invalid=invalid(reason)
                aria-describedby=described_by(&dom_id, Some(question_id), reason)
                data-own-keys=""
                on:keydown=move |ev| on_key(m, &ev)
                on:mousedown=move |_| m.dragged.set_value(false)
                on:mouseup=move |_| on_mouseup(m)
                on:click=move |ev| on_click(m, &ev)
            >
                {move || rendered(m)}
            </div>
            <p class="span-status" role="status">{move || m.status.get()}</p>
            {move || picker(m)}
            {move || error_list(m, &list_name)}
            <div class="span-actions">
                {whole}
                <label class="no-errors">
                    <input
                        type="checkbox"
                        aria-label=no_errors_name
                        prop:checked=move || no_errors.get() && empty()
                        prop:disabled=move || !empty()
                        on:change=move |ev| handle.dispatch(Msg::Answer { target: Target::Spans { position }, reply: event_target_checked(&ev).then_some(Reply::Ticked), advance: false })
                    />
                    "No errors"
                </label>
            </div>
        </div>
    }
}

/// The text, cut into pieces: each a word (or a space, or a mark's edge), in its error's
/// highlight when marked, in the selection's when selected; the caret before its piece.
fn rendered(m: Marking) -> AnyView {
    let spans = m.marked.get();
    let marks: Vec<(usize, usize)> = spans
        .iter()
        .filter_map(ErrorSpan::range)
        .map(|(s, e)| (s as usize, e as usize))
        .collect();
    let ranged: Vec<&ErrorSpan> = spans.iter().filter(|s| s.range().is_some()).collect();
    let selected = match m.pending.get() {
        Some(Pending::Text(s, e)) => Some((s, e)),
        _ => None,
    };
    let at = m.caret.get();
    let mut cuts = vec![at];
    cuts.extend(selected.iter().flat_map(|&(s, e)| [s, e]));
    let all = m.text.with_value(|t| pieces(t, &marks, &cuts));
    // Consecutive pieces of one error go in one highlight.
    let mut groups: Vec<(Option<usize>, Vec<Piece>)> = Vec::new();
    for p in all {
        match groups.last_mut() {
            Some((mark, list)) if *mark == p.mark && p.mark.is_some() => list.push(p),
            _ => groups.push((p.mark, vec![p])),
        }
    }
    let piece_view = move |p: Piece| {
        let chosen = selected.is_some_and(|(s, e)| s <= p.start && p.end <= e);
        view! {
            {(p.start == at).then(|| view! { <span class="caret" aria-hidden="true"></span> })}
            <span data-at=p.start class:selected=chosen>{p.text}</span>
        }
        .into_any()
    };
    let end_caret =
        (at == m.length).then(|| view! { <span class="caret" aria-hidden="true"></span> });
    view! {
        {groups
            .into_iter()
            .map(|(mark, list)| {
                let inner = list.into_iter().map(piece_view).collect_view();
                match mark.and_then(|i| ranged.get(i)) {
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
}

/// A key in the output's text: arrows (with Shift to select, Ctrl or Alt by word), Home and
/// End move the caret; a digit marks the selection with that severity; Enter or M opens the
/// picker; Esc cancels.
fn on_key(m: Marking, ev: &leptos::ev::KeyboardEvent) {
    let key = ev.key();
    let by_word = ev.ctrl_key() || ev.alt_key() || ev.meta_key();
    let at = m.caret.get_untracked();
    let moved = match key.as_str() {
        "ArrowRight" if by_word => Some(m.text.with_value(|t| next_word(t, at))),
        "ArrowLeft" if by_word => Some(m.text.with_value(|t| previous_word(t, at))),
        "ArrowRight" => Some((at + 1).min(m.length)),
        "ArrowLeft" => Some(at.saturating_sub(1)),
        "Home" => Some(0),
        "End" => Some(m.length),
        _ => None,
    };
    if let Some(to) = moved {
        ev.prevent_default();
        let from = ev
            .shift_key()
            .then(|| m.anchor.get_untracked().unwrap_or(at));
        m.anchor.set(from);
        m.caret.set(to);
        m.tapped.set(None);
        match from {
            Some(from) => m.select(Some((from, to))),
            None => {
                m.pending.set(None);
                let next = m.text.with_value(|t| slice(t, to, to + 1));
                m.status.set(match next.trim() {
                    "" => String::new(),
                    c => format!("At “{c}”"),
                });
            }
        }
        return;
    }
    if let Some(severity) = m.digit(&key) {
        ev.prevent_default();
        m.choose(severity);
        return;
    }
    match key.as_str() {
        "Enter" | "m" | "M" => {
            ev.prevent_default();
            ev.stop_propagation();
            if m.pending.get_untracked().is_some() {
                dom::focus(picker_id_for(m.position));
            } else {
                m.status.set(
                    "Select the error first: hold Shift with the arrow keys (Ctrl or Alt for whole words)."
                        .to_owned(),
                );
            }
        }
        "Escape" => m.cancel(),
        _ => {}
    }
}

/// A drag of the mouse selects text: the selection, snapped to whole characters and trimmed.
fn on_mouseup(m: Marking) {
    if let Some((a, b)) = dom::selection_in(&m.text_id()) {
        let a = a.at + utf16_to_char(&a.text, a.utf16);
        let b = b.at + utf16_to_char(&b.text, b.utf16);
        dom::clear_selection();
        m.dragged.set_value(true);
        m.tapped.set(None);
        m.anchor.set(None);
        m.caret.set(a.max(b));
        m.select(Some((a.min(b), a.max(b))));
    }
}

/// A tap (or a click) on a word: the first word, then the last.
fn on_click(m: Marking, ev: &leptos::ev::MouseEvent) {
    if m.dragged.get_value() {
        m.dragged.set_value(false);
        return;
    }
    let Some(at) = dom::piece_at(ev) else { return };
    let Some(word) = m.text.with_value(|t| word_at(t, at)) else {
        return;
    };
    m.anchor.set(None);
    m.caret.set(word.1);
    match m.tapped.get_untracked() {
        Some(first) => {
            m.tapped.set(None);
            m.select(Some((first.0.min(word.0), first.1.max(word.1))));
        }
        None => {
            m.tapped.set(Some(word));
            m.select(Some(word));
            let words = m.text.with_value(|t| slice(t, word.0, word.1));
            m.status.set(format!(
                "Selected “{words}”: tap another word to extend the error to it, or choose its severity."
            ));
        }
    }
}

/// The severity picker under the text, while something is selected: the category (when the
/// task asks), a button per severity with its digit, Cancel; or why the selection cannot be
/// marked.
fn picker(m: Marking) -> Option<AnyView> {
    let p = m.pending.get()?;
    let position = m.position;
    let what = match p {
        Pending::Text(s, e) => format!("Selected: “{}”", m.text.with_value(|t| slice(t, s, e))),
        Pending::Whole => "An error of the whole output (something missing)".to_owned(),
    };
    let body = match m.blocked() {
        Some(other) => {
            let other = m.text.with_value(|t| describe(&other, t));
            view! {
                <p class="hint">{format!("This overlaps the error {other} already marked: remove that one first, or select other text.")}</p>
            }
            .into_any()
        }
        None => {
            let select_id = format!("q-spans-{position}-category");
            let category_control = m.categories.with_value(|c| !c.is_empty()).then(|| {
                view! {
                    <label class="category">
                        "Category "
                        <select
                            id=select_id
                            prop:value=move || m.category.get()
                            on:change=move |ev| m.category.set(event_target_value(&ev))
                        >
                            <option value="">"Choose…"</option>
                            {category_options(&m.categories.get_value())}
                        </select>
                    </label>
                }
            });
            let buttons = m
                .severities
                .get_value()
                .into_iter()
                .enumerate()
                .map(|(i, s)| {
                    let key = (i + 1).to_string();
                    let shown_key = key.clone();
                    view! {
                        <button type="button" class=format!("severity {}", s.name()) aria-keyshortcuts=key on:click=move |_| m.choose(s)>
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
            m.cancel();
            dom::focus(m.text_id());
        } else if let Some(severity) = m.digit(&key) {
            ev.prevent_default();
            m.choose(severity);
        }
    };
    Some(
        view! {
            <div class="span-picker" id=picker_id_for(position) role="group" aria-label="Mark the selected error" data-own-keys="" on:keydown=on_picker_key>
                <p class="picked">{what}</p>
                {body}
                <button type="button" class="link" on:click=move |_| m.cancel()>"Cancel"</button>
            </div>
        }
        .into_any(),
    )
}

/// The errors marked, each with its severity, text and category and a Remove button named
/// after it: what a screen reader reads of them.
fn error_list(m: Marking, name: &str) -> Option<AnyView> {
    let handle = m.handle;
    let spans = m.marked.get();
    if spans.is_empty() {
        return None;
    }
    let position = m.position;
    let items = spans
        .into_iter()
        .map(|span| {
            let what = m.text.with_value(|t| describe(&span, t));
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
                            m.status.set(format!("Removed: {said}."));
                        }
                    >
                        "Remove"
                    </button>
                </li>
            }
            .into_any()
        })
        .collect_view();
    Some(view! { <ul class="span-list" aria-label=name.to_owned()>{items}</ul> }.into_any())
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
