//! The annotator's page (`index.html`): the study's welcome page as soon as it can be shown
//! (`juror::first`), then the app. In the release build (the `split` feature) the app is a
//! wasm of its own, fetched once that page is up together with the session's (the pages from
//! Start on): the first download carries only the welcome page.

fn main() {
    console_error_panic_hook::set_once();
    juror::services::dom::watch_presses();
    wasm_bindgen_futures::spawn_local(async {
        let welcome = juror::first::paint(juror::session::write_store).await;
        #[cfg(feature = "split")]
        {
            // The session's code is wanted as soon as Start is pressed: fetched beside the
            // app's (after it, on the link), so that a browser that goes offline once the
            // welcome page is up still has both.
            if welcome {
                wasm_bindgen_futures::spawn_local(async {
                    let _ = juror::pages::later::load().await;
                });
            }
            if app().await.is_err() {
                juror::first::load_failed();
            }
        }
        #[cfg(not(feature = "split"))]
        {
            let _ = welcome;
            juror::first::mount_app(40);
        }
    });
}

/// The app, in a wasm of its own (`scripts/post_build.py` makes `NAME_app.wasm`).
#[cfg(feature = "split")]
#[allow(improper_ctypes_definitions, improper_ctypes)]
#[leptos::wasm_split::wasm_split(juror_app, wasm_split_path = ::leptos::wasm_split, fallible)]
fn app() -> Result<(), leptos::wasm_split::SplitLoaderError> {
    juror::first::mount_app(40);
    Ok(())
}
