//! The annotator's page's reader of ratings files (`juror-ratings`): its own wasm, which the
//! page loads only when an annotator continues from a downloaded ratings file
//! (`boot::ratings_reader`), so that the ratings file's reader is not in the page's first
//! download. It reads the compiled study as the page did and hands the session back as the
//! text of a stored envelope (`session::open::restore_stored`).

use wasm_bindgen::prelude::wasm_bindgen;

/// The session to continue from `ratings` for the compiled study `study`, as a stored
/// envelope's text; or, thrown, why the file cannot be used.
///
/// # Errors
/// The sentence the annotator is shown.
#[wasm_bindgen]
pub fn restore(study: &str, ratings: &str, now: f64) -> Result<String, String> {
    let compiled = juror_core::front::compiled::read(study).map_err(|p| p.short().to_string())?;
    juror_core::session::open::restore_stored(
        &compiled.study,
        &compiled.sha256,
        ratings,
        now,
        env!("CARGO_PKG_VERSION"),
    )
}

fn main() {}
