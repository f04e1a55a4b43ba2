//! Handing files to the annotator: download, clipboard, the share sheet.

use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

/// Offers `text` as a file download named `name`.
///
/// # Errors
/// A sentence when the browser refused.
pub fn download(name: &str, mime: &str, text: &str) -> Result<(), String> {
    let fail = |_| "The browser refused the download.".to_owned();
    let window = web_sys::window().ok_or("no window")?;
    let document = window.document().ok_or("no document")?;
    let parts = js_sys::Array::of1(&wasm_bindgen::JsValue::from_str(text));
    let options = web_sys::BlobPropertyBag::new();
    options.set_type(mime);
    let blob = web_sys::Blob::new_with_str_sequence_and_options(&parts, &options).map_err(fail)?;
    let url = web_sys::Url::create_object_url_with_blob(&blob).map_err(fail)?;
    let anchor: web_sys::HtmlAnchorElement = document
        .create_element("a")
        .map_err(fail)?
        .dyn_into()
        .map_err(|_| "no link element".to_owned())?;
    anchor.set_href(&url);
    anchor.set_download(name);
    let _ = anchor.set_attribute("hidden", "");
    if let Some(body) = document.body() {
        let _ = body.append_child(&anchor);
        anchor.click();
        let _ = body.remove_child(&anchor);
    }
    // Revoke later: revoking at once can cancel the download in some browsers.
    let revoke = wasm_bindgen::prelude::Closure::once_into_js(move || {
        let _ = web_sys::Url::revoke_object_url(&url);
    });
    let _ = window
        .set_timeout_with_callback_and_timeout_and_arguments_0(revoke.unchecked_ref(), 60_000);
    Ok(())
}

/// Copies `text` to the clipboard.
///
/// # Errors
/// A sentence when the browser refused (no permission, or an insecure page).
pub async fn copy(text: &str) -> Result<(), String> {
    let clipboard = web_sys::window()
        .ok_or("no window")?
        .navigator()
        .clipboard();
    JsFuture::from(clipboard.write_text(text))
        .await
        .map(|_| ())
        .map_err(|_| "The browser did not allow copying. Use the download instead.".to_owned())
}

/// Whether the browser can share files (phones: attach to an e-mail).
pub fn can_share() -> bool {
    web_sys::window()
        .is_some_and(|w| js_sys::Reflect::has(&w.navigator(), &"share".into()).unwrap_or(false))
}

/// Opens the share sheet with the file.
///
/// # Errors
/// A sentence when sharing failed or was cancelled.
pub async fn share(name: &str, mime: &str, text: &str, title: &str) -> Result<(), String> {
    let window = web_sys::window().ok_or("no window")?;
    let parts = js_sys::Array::of1(&wasm_bindgen::JsValue::from_str(text));
    let options = web_sys::FilePropertyBag::new();
    options.set_type(mime);
    let file = web_sys::File::new_with_str_sequence_and_options(&parts, name, &options)
        .map_err(|_| "Could not prepare the file.".to_owned())?;
    let data = web_sys::ShareData::new();
    data.set_title(title);
    data.set_files(&js_sys::Array::of1(&file));
    JsFuture::from(window.navigator().share_with_data(&data))
        .await
        .map(|_| ())
        .map_err(|_| "Sharing was cancelled or is not possible here; use the download.".to_owned())
}

/// Whether the page runs as an app added to the home screen (iOS and others): there a blob
/// download is unreliable and the share sheet carries files instead.
pub fn standalone() -> bool {
    let Some(window) = web_sys::window() else {
        return false;
    };
    let ios = js_sys::Reflect::get(&window.navigator(), &"standalone".into())
        .ok()
        .and_then(|v| v.as_bool())
        .unwrap_or(false);
    let display = window
        .match_media("(display-mode: standalone)")
        .ok()
        .flatten()
        .is_some_and(|m| m.matches());
    ios || display
}

/// Hands the annotator a file: through the share sheet in a home-screen app that can share
/// files, else as a download (and as a download when sharing fails).
///
/// # Errors
/// A sentence when neither worked.
pub async fn save_file(name: &str, mime: &str, text: &str, title: &str) -> Result<(), String> {
    if standalone() && can_share() && share(name, mime, text, title).await.is_ok() {
        return Ok(());
    }
    download(name, mime, text)
}
