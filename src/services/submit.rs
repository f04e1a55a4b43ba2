//! Sending the finished ratings file to the service the study names, and the outbox
//! that keeps it while the browser is offline. The site's policy (`connect-src`, from the build's
//! `JUROR_SUBMIT_ORIGINS`) is what lets the request leave the site's origin at all.

use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::Closure;
use wasm_bindgen_futures::JsFuture;

use super::storage;

/// POSTs `body` (JSON) to `url`.
///
/// # Errors
/// A sentence: offline, refused by the site's policy, or the service's answer.
pub async fn post(url: &str, body: &str) -> Result<(), String> {
    let window = web_sys::window().ok_or("no window")?;
    let init = web_sys::RequestInit::new();
    init.set_method("POST");
    init.set_body(&wasm_bindgen::JsValue::from_str(body));
    let headers = js_sys::Object::new();
    let _ = js_sys::Reflect::set(&headers, &"Content-Type".into(), &"application/json".into());
    init.set_headers(&headers);
    let request = web_sys::Request::new_with_str_and_init(url, &init)
        .map_err(|_| "The study's address for sending files is not valid.".to_owned())?;
    let response = JsFuture::from(window.fetch_with_request(&request))
        .await
        .map_err(|_| {
            "It could not be sent: you may be offline. It will be sent when you are back online \
             (keep this page open), or download it below and send it yourself."
                .to_owned()
        })?;
    let response: web_sys::Response = response
        .dyn_into()
        .map_err(|_| "The service gave no answer.".to_owned())?;
    if response.ok() {
        Ok(())
    } else {
        Err(format!(
            "The researcher's service refused it (HTTP {}). Download it below and send it yourself.",
            response.status()
        ))
    }
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

/// Calls `f` each time the browser comes back online, for the page's life.
pub fn on_online(f: impl Fn() + 'static) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let closure = Closure::<dyn Fn()>::new(f);
    let _ = window.add_event_listener_with_callback("online", closure.as_ref().unchecked_ref());
    closure.forget();
}
