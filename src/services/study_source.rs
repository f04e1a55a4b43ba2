//! Getting a study file's text: from a URL relative to the page, or from a file the annotator
//! picked or dropped. Errors are sentences for the page, never panics.

use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

/// Fetches `url` (relative to the page) as text.
///
/// # Errors
/// A sentence saying what failed and what to check.
pub async fn fetch_text(url: &str) -> Result<String, String> {
    let window = web_sys::window().ok_or("no window: Juror must run in a browser page")?;
    let request = early_request(&window, url).unwrap_or_else(|| window.fetch_with_str(url));
    let response = JsFuture::from(request).await.map_err(|_| {
        format!("Could not reach \"{url}\". Check your connection and that the address is right.")
    })?;
    let response: web_sys::Response = response
        .dyn_into()
        .map_err(|_| "the browser returned something that is not a response".to_owned())?;
    if !response.ok() {
        let status = response.status();
        let hint = if status == 404 {
            "No file is at that address: check the study= part of the link."
        } else {
            "The server refused the file."
        };
        return Err(format!(
            "Could not load \"{url}\": the server answered {status} {}. {hint}",
            response.status_text()
        ));
    }
    let promise = response
        .text()
        .map_err(|_| format!("Could not read \"{url}\" as text."))?;
    let text = JsFuture::from(promise)
        .await
        .map_err(|_| format!("Could not read \"{url}\" as text."))?;
    text.as_string()
        .ok_or_else(|| format!("\"{url}\" is not a text file."))
}

/// The request for `url` that `index.html`'s first script started while the wasm was still
/// downloading (`window.jurorStudy`), if it is for this address. Taken once: loading the same
/// address again fetches it anew.
fn early_request(window: &web_sys::Window, url: &str) -> Option<js_sys::Promise> {
    let key = JsValue::from_str("jurorStudy");
    let early = js_sys::Reflect::get(window, &key).ok()?;
    if early.is_undefined() || early.is_null() {
        return None;
    }
    let target: &js_sys::Object = window.as_ref();
    let _ = js_sys::Reflect::delete_property(target, &key);
    let started_for = js_sys::Reflect::get(&early, &JsValue::from_str("url")).ok()?;
    if started_for.as_string().as_deref() != Some(url) {
        return None;
    }
    js_sys::Reflect::get(&early, &JsValue::from_str("response"))
        .ok()?
        .dyn_into()
        .ok()
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
