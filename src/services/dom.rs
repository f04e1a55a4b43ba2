//! Focus, scrolling and page-wide listeners.

use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::Closure;

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
                    .query_selector("input, textarea, button")
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

/// Calls `f(visible)` whenever the page is shown or hidden, for the page's life.
pub fn on_visibility_change(f: impl Fn(bool) + 'static) {
    let Some(doc) = document() else { return };
    let closure = Closure::<dyn Fn()>::new(move || f(visible()));
    let _ =
        doc.add_event_listener_with_callback("visibilitychange", closure.as_ref().unchecked_ref());
    closure.forget();
}

/// Calls `f` when the page is being left (closed, reloaded, navigated away, or put in the
/// back-forward cache), for the page's life: the last moment to save.
pub fn on_page_hide(f: impl Fn() + 'static) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let closure = Closure::<dyn Fn()>::new(f);
    let _ = window.add_event_listener_with_callback("pagehide", closure.as_ref().unchecked_ref());
    closure.forget();
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

/// Calls `f` on every key press on the page, for the page's life.
pub fn on_keydown(f: impl Fn(web_sys::KeyboardEvent) + 'static) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let closure = Closure::<dyn Fn(web_sys::KeyboardEvent)>::new(f);
    let _ = window.add_event_listener_with_callback("keydown", closure.as_ref().unchecked_ref());
    closure.forget();
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
