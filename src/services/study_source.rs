//! Getting a study file's text: from a URL relative to the page, or from a file the annotator
//! picked or dropped. Errors are sentences for the page, never panics.

use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

/// Fetches `url` (relative to the page) as text.
///
/// # Errors
/// A sentence saying what failed and what to check.
pub async fn fetch_text(url: &str) -> Result<String, String> {
    let window = web_sys::window().ok_or("no window: Juror must run in a browser page")?;
    let response = JsFuture::from(window.fetch_with_str(url))
        .await
        .map_err(|_| {
            format!(
                "Could not reach \"{url}\". Check your connection and that the address is right."
            )
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
