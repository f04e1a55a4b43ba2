//! Getting a study file's text: from a URL relative to the page, or from a file the annotator
//! picked or dropped. Errors are sentences for the page, never panics.

use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

/// Fetches `url` (relative to the page) as text: the request `index.html`'s first script
/// started for it while the wasm was still downloading, if any (taken once: loading the same
/// address again fetches it anew).
///
/// # Errors
/// A sentence saying what failed and what to check.
pub async fn fetch_text(url: &str) -> Result<String, String> {
    let window = web_sys::window().ok_or("no window: Juror must run in a browser page")?;
    if let Some(early) = early_for(url) {
        let read = js_sys::Reflect::get(&early, &JsValue::from_str("read"))
            .ok()
            .and_then(|p| p.dyn_into::<js_sys::Promise>().ok());
        if let Some(read) = read {
            forget_early();
            let got = JsFuture::from(read).await.unwrap_or(JsValue::UNDEFINED);
            return answered(url, &got);
        }
    }
    let response = JsFuture::from(window.fetch_with_str(url))
        .await
        .map_err(|_| unreachable(url))?;
    let response: web_sys::Response = response
        .dyn_into()
        .map_err(|_| "the browser returned something that is not a response".to_owned())?;
    let text = match response.text() {
        Ok(promise) => JsFuture::from(promise)
            .await
            .ok()
            .and_then(|t| t.as_string()),
        Err(_) => None,
    };
    let status = response.status();
    status_and_text(url, response.ok(), status, &response.status_text(), text)
}

/// The study's text if `index.html`'s first script has already fetched and read it (the usual
/// case: the study is smaller than the wasm), so that the page can open it without a
/// "Loading…" page in between; `None` while it is on its way (then [`fetch_text`] waits).
pub fn early_text(url: &str) -> Option<Result<String, String>> {
    let early = early_for(url)?;
    let done = js_sys::Reflect::get(&early, &JsValue::from_str("done")).ok()?;
    if done.is_undefined() {
        return None;
    }
    forget_early();
    Some(answered(url, &done))
}

/// Waits until `index.html`'s first script has read the study at `url` (or failed to), for
/// `ms` at most, without taking it: at once if it has, or if it started no request for `url`.
pub async fn early_arrived(url: &str, ms: i32) {
    let Some(early) = early_for(url) else {
        return;
    };
    let read = js_sys::Reflect::get(&early, &JsValue::from_str("read")).ok();
    let Some(read) = read.and_then(|p| p.dyn_into::<js_sys::Promise>().ok()) else {
        return;
    };
    let timeout = js_sys::Promise::new(&mut |resolve, _| {
        if let Some(window) = web_sys::window() {
            let _ = window.set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, ms);
        }
    });
    let _ = JsFuture::from(js_sys::Promise::race(&js_sys::Array::of2(&read, &timeout))).await;
}

/// `window.jurorStudy`, if it was started for `url`.
fn early_for(url: &str) -> Option<JsValue> {
    let window = web_sys::window()?;
    let early = js_sys::Reflect::get(&window, &JsValue::from_str("jurorStudy")).ok()?;
    let started_for = js_sys::Reflect::get(&early, &JsValue::from_str("url")).ok()?;
    (started_for.as_string().as_deref() == Some(url)).then_some(early)
}

/// Deletes `window.jurorStudy`: its request is taken.
fn forget_early() {
    if let Some(window) = web_sys::window() {
        let target: &js_sys::Object = window.as_ref();
        let _ = js_sys::Reflect::delete_property(target, &JsValue::from_str("jurorStudy"));
    }
}

/// What the early request came to (`{ok, status, statusText, text}`, or `{failed}` if the
/// address could not be reached), as [`fetch_text`] says it.
fn answered(url: &str, got: &JsValue) -> Result<String, String> {
    let field = |name: &str| js_sys::Reflect::get(got, &JsValue::from_str(name)).ok();
    let Some(ok) = field("ok").and_then(|v| v.as_bool()) else {
        return Err(unreachable(url));
    };
    let status = field("status").and_then(|v| v.as_f64()).unwrap_or(0.0);
    let status_text = field("statusText")
        .and_then(|v| v.as_string())
        .unwrap_or_default();
    let text = field("text").and_then(|v| v.as_string());
    // A status is a whole number from 100 to 599.
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    status_and_text(url, ok, status as u16, &status_text, text)
}

fn unreachable(url: &str) -> String {
    format!("Could not reach \"{url}\". Check your connection and that the address is right.")
}

/// The text of a response, or the sentence saying why there is none.
fn status_and_text(
    url: &str,
    ok: bool,
    status: u16,
    status_text: &str,
    text: Option<String>,
) -> Result<String, String> {
    if !ok {
        let hint = if status == 404 {
            "No file is at that address: check the study= part of the link."
        } else {
            "The server refused the file."
        };
        return Err(format!(
            "Could not load \"{url}\": the server answered {status} {status_text}. {hint}"
        ));
    }
    text.ok_or_else(|| format!("Could not read \"{url}\" as text."))
}

/// Reads a picked or dropped file as text.
///
/// # Errors
/// A sentence saying the file could not be read.
pub async fn read_file(file: web_sys::File) -> Result<String, String> {
    let name = file.name();
    let text = JsFuture::from(file.text())
        .await
        .map_err(|_| format!("Could not read \"{name}\". Is it a text file?"))?;
    text.as_string()
        .ok_or_else(|| format!("\"{name}\" is not a text file."))
}

/// The files of a picked or dropped list, in its order, held apart from the list (which a
/// picker empties when it is cleared).
pub fn files_of(list: Option<web_sys::FileList>) -> Vec<web_sys::File> {
    list.map_or_else(Vec::new, |list| {
        (0..list.length()).filter_map(|i| list.get(i)).collect()
    })
}

/// Reads every file, in its order: each file's name with its text, or the sentence saying why
/// it could not be read.
pub async fn read_files(files: Vec<web_sys::File>) -> Vec<(String, Result<String, String>)> {
    let mut out = Vec::new();
    for file in files {
        let name = file.name();
        out.push((name, read_file(file).await));
    }
    out
}

/// The files of a file input's change event as (name, object address) pairs, for the page to
/// show (an image's or video's `src`); the input is then cleared. The addresses point at the
/// files in this browser: nothing is uploaded or fetched.
pub fn object_urls(ev: &web_sys::Event) -> Vec<(String, String)> {
    use wasm_bindgen::JsCast;
    let Some(input) = ev
        .target()
        .and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok())
    else {
        return Vec::new();
    };
    let files = files_of(input.files());
    input.set_value("");
    files
        .into_iter()
        .filter_map(|file| {
            let url = web_sys::Url::create_object_url_with_blob(&file).ok()?;
            Some((file.name(), url))
        })
        .collect()
}
