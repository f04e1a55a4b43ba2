//! Focus, scrolling, page-wide listeners, and rich text built into DOM nodes.

use juror_core::base::rich;
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::Closure;

/// The number an `<input type="number">` holds as the browser read it (`valueAsNumber`): none
/// when it is empty or not a number. The page parses no number text of its own, which keeps the
/// float parser's tables out of the annotator's wasm.
pub fn input_number(ev: &web_sys::Event) -> Option<f64> {
    let input: web_sys::HtmlInputElement = ev.target()?.dyn_into().ok()?;
    Some(input.value_as_number()).filter(|v| v.is_finite())
}

fn document() -> Option<web_sys::Document> {
    web_sys::window()?.document()
}

/// Moves focus to the element with `id`; for a group of radio buttons or check boxes, to its
/// checked input or else its first one. At once when the element is on the page (so that fast
/// typing goes where the annotator sees the focus), else after the page has been updated.
pub fn focus(id: String) {
    if focus_now(&id) {
        return;
    }
    leptos::task::spawn_local(async move {
        leptos::task::tick().await;
        focus_now(&id);
    });
}

/// What a page rendered again in place of the same page (the welcome page, once the session is
/// in) must not lose: the id of the focused element and of each open `<details>`.
#[derive(Default)]
pub struct Carried {
    focused: Option<String>,
    open: Vec<String>,
}

/// The page's [`Carried`] state, before it is rendered again.
pub fn carry() -> Carried {
    let Some(document) = document() else {
        return Carried::default();
    };
    let focused = document
        .active_element()
        .map(|e| e.id())
        .filter(|id| !id.is_empty());
    let mut open = Vec::new();
    if let Ok(list) = document.query_selector_all("details[open][id]") {
        for i in 0..list.length() {
            if let Some(element) = list
                .item(i)
                .and_then(|n| n.dyn_into::<web_sys::Element>().ok())
            {
                open.push(element.id());
            }
        }
    }
    Carried { focused, open }
}

/// Gives the page rendered since [`carry`] the same focus and open `<details>`, once it is
/// mounted (before the next key press reaches the page).
pub fn carry_over(carried: Carried) {
    if carried.focused.is_none() && carried.open.is_empty() {
        return;
    }
    leptos::task::spawn_local(async move {
        leptos::task::tick().await;
        let Some(document) = document() else {
            return;
        };
        for id in &carried.open {
            if let Some(element) = document.get_element_by_id(id) {
                let _ = element.set_attribute("open", "");
            }
        }
        if let Some(id) = carried.focused {
            focus_now(&id);
        }
    });
}

fn focus_now(id: &str) -> bool {
    let Some(element) = document().and_then(|d| d.get_element_by_id(id)) else {
        return false;
    };
    {
        let inner = element
            .query_selector("input:checked")
            .ok()
            .flatten()
            .or_else(|| {
                element
                    .query_selector("input, select, textarea, button")
                    .ok()
                    .flatten()
            });
        let target = inner.unwrap_or(element);
        if let Ok(html) = target.dyn_into::<web_sys::HtmlElement>() {
            let _ = html.focus();
            let options = web_sys::ScrollIntoViewOptions::new();
            options.set_block(web_sys::ScrollLogicalPosition::Center);
            html.scroll_into_view_with_scroll_into_view_options(&options);
        }
    }
    true
}

/// Scrolls to the top of a new page and puts focus on its heading (where a screen reader
/// starts reading, and where the next Tab or digit key starts from).
pub fn scroll_top() {
    if let Some(w) = web_sys::window() {
        w.scroll_to_with_x_and_y(0.0, 0.0);
    }
    leptos::task::spawn_local(async {
        leptos::task::tick().await;
        let heading = document().and_then(|d| d.query_selector("main h1").ok().flatten());
        if let Some(h) = heading.and_then(|h| h.dyn_into::<web_sys::HtmlElement>().ok()) {
            if !h.has_attribute("tabindex") {
                let _ = h.set_attribute("tabindex", "-1");
            }
            let _ = h.focus_with_options(&{
                let o = web_sys::FocusOptions::new();
                o.set_prevent_scroll(true);
                o
            });
        }
    });
}

/// Whether the page is visible (not a background tab).
pub fn visible() -> bool {
    document().is_none_or(|d| d.visibility_state() == web_sys::VisibilityState::Visible)
}

/// Calls `f(visible)` whenever the page is shown or hidden, while the calling component is
/// mounted.
pub fn on_visibility_change(f: impl Fn(bool) + 'static) {
    // Fired at the document; it bubbles to the window.
    while_mounted("visibilitychange", move |_| f(visible()));
}

/// Calls `f` when the page is being left (closed, reloaded, navigated away, or put in the
/// back-forward cache), while the calling component is mounted: the last moment to save.
pub fn on_page_hide(f: impl Fn() + 'static) {
    while_mounted("pagehide", move |_| f());
}

/// A window listener for `event`, removed when the current reactive owner is cleaned up (the
/// component that asked for it leaves the page), so that it never reads disposed state.
pub fn while_mounted(event: &str, f: impl Fn(web_sys::Event) + 'static) {
    let handle = leptos::prelude::window_event_listener_untyped(event, f);
    leptos::prelude::on_cleanup(move || handle.remove());
}

/// Runs `f` once after `ms` milliseconds; returns the timer's id, for [`cancel_timer`].
pub fn after(ms: i32, f: impl FnOnce() + 'static) -> Option<i32> {
    let window = web_sys::window()?;
    let callback = Closure::once_into_js(f);
    window
        .set_timeout_with_callback_and_timeout_and_arguments_0(callback.unchecked_ref(), ms)
        .ok()
}

/// Runs `f` once after the browser has painted what the page shows now (an animation frame,
/// then a task), so that a status set before a long computation is on screen during it. A page
/// that gets no animation frame (hidden) runs it after 200 ms instead.
pub fn after_paint(f: impl FnOnce() + 'static) {
    let once = std::rc::Rc::new(std::cell::Cell::new(Some(f)));
    let from_frame = once.clone();
    let frame = Closure::once_into_js(move || {
        if let Some(f) = from_frame.take() {
            after(0, f);
        }
    });
    if let Some(window) = web_sys::window() {
        let _ = window.request_animation_frame(frame.unchecked_ref());
    }
    after(200, move || {
        if let Some(f) = once.take() {
            f();
        }
    });
}

/// Cancels a timer of [`after`].
pub fn cancel_timer(id: i32) {
    if let Some(window) = web_sys::window() {
        window.clear_timeout_with_handle(id);
    }
}

/// Calls `f` on every key press on the page, while the calling component is mounted.
pub fn on_keydown(f: impl Fn(web_sys::KeyboardEvent) + 'static) {
    while_mounted("keydown", move |ev| {
        if let Ok(ev) = ev.dyn_into() {
            f(ev);
        }
    });
}

/// The element with keyboard focus.
pub fn active_element() -> Option<web_sys::Element> {
    document()?.active_element()
}

/// Sets the page title.
pub fn set_title(title: &str) {
    if let Some(d) = document() {
        d.set_title(title);
    }
}

/// A point of the page's text selection inside a text rendered in pieces (elements with
/// `data-at`, the code point where the piece starts): the piece's start, its text, and the
/// offset into that text in UTF-16 units (the browser's), for the core to turn into code points.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TextPoint {
    /// The piece's `data-at`.
    pub at: usize,
    /// The piece's text.
    pub text: String,
    /// The offset into `text`, in UTF-16 units.
    pub utf16: usize,
}

/// The page's text selection inside the element with id `root`, as its two ends (in either
/// order), unless it is empty or does not reach into the element. An end outside the element
/// is put at the element's start or end.
pub fn selection_in(root: &str) -> Option<(TextPoint, TextPoint)> {
    let doc = document()?;
    let root = doc.get_element_by_id(root)?;
    let selection = web_sys::window()?.get_selection().ok()??;
    if selection.is_collapsed() {
        return None;
    }
    let a = point(
        &root,
        &selection.anchor_node()?,
        selection.anchor_offset() as usize,
    )?;
    let b = point(
        &root,
        &selection.focus_node()?,
        selection.focus_offset() as usize,
    )?;
    (a != b).then_some((a, b))
}

/// Clears the page's text selection.
pub fn clear_selection() {
    if let Some(Ok(Some(s))) = web_sys::window().map(|w| w.get_selection()) {
        let _ = s.remove_all_ranges();
    }
}

/// The first element inside `element` that matches `selector`.
pub fn find_in(element: &web_sys::Element, selector: &str) -> Option<web_sys::Element> {
    element.query_selector(selector).ok().flatten()
}

/// The id of the element an event happened on, if it has one.
pub fn target_id(ev: &web_sys::Event) -> Option<String> {
    let id = ev.target()?.dyn_into::<web_sys::Element>().ok()?.id();
    (!id.is_empty()).then_some(id)
}

/// The start (`data-at`) of the text piece an event happened on, if any.
pub fn piece_at(ev: &web_sys::Event) -> Option<usize> {
    ev.target()?
        .dyn_into::<web_sys::Element>()
        .ok()?
        .closest("[data-at]")
        .ok()??
        .get_attribute("data-at")?
        .parse()
        .ok()
}

fn piece(element: &web_sys::Element, last: bool) -> Option<TextPoint> {
    let found = if element.has_attribute("data-at") {
        Some(element.clone())
    } else if last {
        let all = element.query_selector_all("[data-at]").ok()?;
        all.item(all.length().checked_sub(1)?)?
            .dyn_into::<web_sys::Element>()
            .ok()
    } else {
        element.query_selector("[data-at]").ok()?
    }?;
    let at = found.get_attribute("data-at")?.parse().ok()?;
    let text = found.text_content().unwrap_or_default();
    let utf16 = if last { text.encode_utf16().count() } else { 0 };
    Some(TextPoint { at, text, utf16 })
}

fn point(root: &web_sys::Element, node: &web_sys::Node, offset: usize) -> Option<TextPoint> {
    use web_sys::Node;
    if !root.contains(Some(node)) {
        // Before the element: its start; after it: its end.
        let before = root.compare_document_position(node) & Node::DOCUMENT_POSITION_PRECEDING != 0;
        return piece(root, !before);
    }
    if node.node_type() == Node::TEXT_NODE {
        let parent = node.parent_element()?;
        let holder = parent.closest("[data-at]").ok()??;
        if !holder.is_same_node(Some(&parent)) {
            return piece(&holder, false);
        }
        let at = holder.get_attribute("data-at")?.parse().ok()?;
        let text = node.text_content().unwrap_or_default();
        return Some(TextPoint {
            at,
            text,
            utf16: offset,
        });
    }
    let element = node.clone().dyn_into::<web_sys::Element>().ok()?;
    let children = element.child_nodes();
    match children.item(offset as u32) {
        Some(child) => match child.clone().dyn_into::<web_sys::Element>() {
            Ok(e) => piece(&e, false).or_else(|| point(root, node, offset + 1)),
            Err(_) => point(root, &child, 0),
        },
        None => piece(&element, true),
    }
}

/// The tree to show for `text`. A compiled study's tree is shown as it is: it was checked when
/// the study was read (`rich`'s reader refuses any element, attribute or address off its
/// lists). Neither page renders Markdown here: the annotator's page plays compiled studies
/// only, and the researcher's renders a study as written when it opens it
/// (`compiled::render_texts`); a text left as written shows as plain text, as typed.
pub fn tree(text: &rich::Text) -> std::borrow::Cow<'_, [rich::Node]> {
    match text {
        rich::Text::Source(source) => vec![rich::Node::Text(source.clone())].into(),
        rich::Text::Rich(nodes) => nodes.as_slice().into(),
    }
}

/// Replaces what `parent` holds with a rich tree's nodes, built as DOM nodes: text always as
/// text nodes (never parsed as markup), elements and attributes only from the tree's
/// whitelists. Every link opens apart (`target="_blank"`) and gives the other site neither the
/// opener nor the referrer; a table cell's alignment becomes a class (`align-center`), since
/// the page's content security policy refuses inline styles.
pub fn fill_rich(parent: &web_sys::Element, nodes: &[rich::Node]) {
    parent.set_text_content(None);
    if let Some(document) = document() {
        append_rich(&document, parent, nodes);
    }
}

fn append_rich(document: &web_sys::Document, parent: &web_sys::Node, nodes: &[rich::Node]) {
    for node in nodes {
        let built: web_sys::Node = match node {
            rich::Node::Text(text) => document.create_text_node(text).into(),
            rich::Node::Element(e) => {
                let Ok(element) = document.create_element(e.tag.name()) else {
                    continue;
                };
                for (attr, value) in &e.attrs {
                    let _ = match (attr, value.as_str()) {
                        (rich::Attr::Align, "left") => element.set_attribute("class", "align-left"),
                        (rich::Attr::Align, "center") => {
                            element.set_attribute("class", "align-center")
                        }
                        (rich::Attr::Align, _) => element.set_attribute("class", "align-right"),
                        _ => element.set_attribute(attr.name(), value),
                    };
                }
                if e.tag == rich::Tag::A {
                    let _ = element.set_attribute("target", "_blank");
                    let _ = element.set_attribute("rel", "noopener noreferrer");
                }
                append_rich(document, &element, &e.children);
                element.into()
            }
        };
        let _ = parent.append_child(&built);
    }
}
