//! The ratings file's reader for the annotator's page, in a wasm of its own (`juror-ratings`,
//! `src/ratings_main.rs`) that the page loads only when an annotator continues from a
//! downloaded ratings file: annotators who never do so never download it (the service worker
//! keeps it for offline use once the page has loaded).
//!
//! The build names its files with a hash of their content and writes that name into
//! `index.html` (`<meta name="juror-ratings" content="juror-ratings-…">`,
//! `scripts/post_build.py`); `index.html`'s first script gives the page `window.jurorImport`,
//! a dynamic `import()` (which the page's policy allows for its own origin only).

use js_sys::{Function, Object, Promise, Reflect};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

use crate::session::{Restore, Restored};

/// What the annotator is told when the reader cannot be had (offline on a first visit, say).
const UNAVAILABLE: &str = "the page could not load its reader of ratings files; check your \
    connection and try again";

/// The annotator's page's `RatingsReader`: loads `juror-ratings` and asks it.
pub fn read_apart(r: Restore) -> Restored {
    Box::pin(async move {
        let module = load().await.ok_or_else(|| UNAVAILABLE.to_owned())?;
        let restore: Function = Reflect::get(&module, &JsValue::from_str("restore"))
            .ok()
            .and_then(|f| f.dyn_into().ok())
            .ok_or_else(|| UNAVAILABLE.to_owned())?;
        let answer = restore.call3(
            &JsValue::NULL,
            &JsValue::from_str(&r.study_text),
            &JsValue::from_str(&r.ratings),
            &JsValue::from_f64(r.now),
        );
        match answer {
            Ok(text) => text.as_string().ok_or_else(|| UNAVAILABLE.to_owned()),
            Err(why) => Err(why.as_string().unwrap_or_else(|| UNAVAILABLE.to_owned())),
        }
    })
}

/// The reader's module, loaded and started; `None` when it cannot be.
async fn load() -> Option<Object> {
    let window = web_sys::window()?;
    let document = window.document()?;
    let stem = document
        .query_selector("meta[name=juror-ratings]")
        .ok()??
        .get_attribute("content")?;
    let base = document.base_uri().ok()??;
    let url = |file: String| {
        web_sys::Url::new_with_base(&file, &base)
            .ok()
            .map(|u| u.href())
    };
    let (js, wasm) = (url(format!("{stem}.js"))?, url(format!("{stem}_bg.wasm"))?);
    let import: Function = Reflect::get(&window, &JsValue::from_str("jurorImport"))
        .ok()?
        .dyn_into()
        .ok()?;
    let promise: Promise = import
        .call1(&JsValue::NULL, &JsValue::from_str(&js))
        .ok()?
        .dyn_into()
        .ok()?;
    // A module namespace has no prototype, so it is not an `instanceof Object`: taken as is.
    let module: Object = JsFuture::from(promise).await.ok()?.unchecked_into();
    let init: Function = Reflect::get(&module, &JsValue::from_str("default"))
        .ok()?
        .dyn_into()
        .ok()?;
    let options = Object::new();
    Reflect::set(
        &options,
        &JsValue::from_str("module_or_path"),
        &JsValue::from_str(&wasm),
    )
    .ok()?;
    let started: Promise = init.call1(&JsValue::NULL, &options).ok()?.dyn_into().ok()?;
    JsFuture::from(started).await.ok()?;
    Some(module)
}
