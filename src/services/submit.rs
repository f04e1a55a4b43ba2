//! Sending the finished ratings file to the service the study names (the request only: what to
//! send and what its outcome means are the core's, `session::submit`), and the outbox that keeps
//! it while the browser is offline. The site's policy (`connect-src`, from the build's
//! `JUROR_SUBMIT_ORIGINS`) is what lets the request leave the site's origin at all.

use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

use juror_core::session::submit;

use super::storage;

/// POSTs `request` to its address, following a redirect only where the site's policy
/// (`connect-src`) and CORS allow the address it leads to, and giving up after
/// [`submit::TIMEOUT_MS`]. What became of it is the core's to judge ([`submit::outcome`]: a
/// redirect counts only with a receipt for the file in the final answer's body).
///
/// # Errors
/// Why it did not arrive, or why it is not known to have.
pub async fn post(request: &submit::Request) -> Result<(), submit::Failure> {
    submit::outcome(attempt(request).await, &request.receipt)
}

async fn attempt(request: &submit::Request) -> submit::Attempt {
    use js_sys::Reflect;
    use wasm_bindgen::JsValue;
    let online = || web_sys::window().is_none_or(|w| w.navigator().on_line());
    let rejected = || submit::Attempt::Rejected { online: online() };
    let Some(window) = web_sys::window() else {
        return rejected();
    };
    let init = web_sys::RequestInit::new();
    init.set_method("POST");
    init.set_body(&JsValue::from_str(&request.body));
    let headers = js_sys::Object::new();
    let _ = Reflect::set(
        &headers,
        &"Content-Type".into(),
        &request.content_type.into(),
    );
    init.set_headers(&headers);
    // `AbortSignal.timeout`, where the browser has it (every current one).
    let timeout = Reflect::get(&window, &"AbortSignal".into())
        .and_then(|signal| {
            let f: js_sys::Function = Reflect::get(&signal, &"timeout".into())?.dyn_into()?;
            f.call1(&signal, &JsValue::from(submit::TIMEOUT_MS))
        })
        .ok()
        .filter(|s| s.is_object());
    if let Some(signal) = &timeout {
        let _ = Reflect::set(&init, &"signal".into(), signal);
    }
    let Ok(fetch) = web_sys::Request::new_with_str_and_init(&request.url, &init) else {
        return rejected();
    };
    let timed_out = |e: &JsValue| {
        Reflect::get(e, &"name".into())
            .ok()
            .and_then(|n| n.as_string())
            .as_deref()
            == Some("TimeoutError")
    };
    let response = match JsFuture::from(window.fetch_with_request(&fetch)).await {
        Ok(response) => response,
        Err(e) if timed_out(&e) => return submit::Attempt::TimedOut,
        Err(_) => return rejected(),
    };
    let Ok(response) = response.dyn_into::<web_sys::Response>() else {
        return rejected();
    };
    let kind = Reflect::get(&response, &"type".into())
        .ok()
        .and_then(|t| t.as_string());
    if kind.as_deref() == Some("opaqueredirect") {
        return submit::Attempt::Redirected;
    }
    let status = response.status();
    if !response.redirected() {
        return submit::Attempt::Answered(status);
    }
    // Reached through a redirect: the body must hold the receipt.
    let body = match response.text() {
        Ok(promise) => match JsFuture::from(promise).await {
            Ok(text) => text.as_string().unwrap_or_default(),
            Err(e) if timed_out(&e) => return submit::Attempt::TimedOut,
            Err(_) => String::new(),
        },
        Err(_) => String::new(),
    };
    submit::Attempt::Forwarded { status, body }
}

/// Records what was last sent under `key`: a finished file's answers digest, or the number
/// of trials a backup held.
pub fn record_sent(key: &str, value: &str) {
    let _ = storage::write(key, value);
}

/// The checksum of the last file sent, if any.
pub fn last_sent(key: &str) -> Option<String> {
    storage::read(key).ok().flatten()
}

/// Calls `f` each time the browser comes back online, while the component that calls this is
/// mounted: the listener is removed when its owner is cleaned up (the finish page left for a
/// trial), so it never reads that page's disposed state.
pub fn on_online(f: impl Fn() + 'static) {
    super::dom::while_mounted("online", move |_| f());
}

/// Calls `f` once the site's policy blocks a form from being sent (`securitypolicyviolation` for
/// `form-action`, which bubbles from the form to the window), while the calling component is
/// mounted: MTurk's "Submit the task" on a build without MTurk's hosts.
pub fn on_form_blocked(f: impl Fn() + 'static) {
    super::dom::while_mounted("securitypolicyviolation", move |ev| {
        let directive = js_sys::Reflect::get(&ev, &"effectiveDirective".into())
            .ok()
            .and_then(|d| d.as_string())
            .unwrap_or_default();
        if directive.starts_with("form-action") {
            f();
        }
    });
}
