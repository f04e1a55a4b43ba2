//! The annotator's page (`index.html`): the study's welcome page as soon as it can be shown
//! (`juror::boot`), then the app. In the release build (the `split` feature) the app is a
//! wasm of its own, fetched once that page is up together with the session's (the pages from
//! Start on): the first download carries only the welcome page.

fn main() {
    console_error_panic_hook::set_once();
    wasm_bindgen_futures::spawn_local(async {
        let welcome = juror::boot::paint(juror::session::write_store).await;
        #[cfg(feature = "split")]
        if welcome {
            // The welcome page on screen first. Then the app's code is fetched, and the
            // session's beside it (after it, on the link), wanted as soon as Start is pressed:
            // a browser that goes offline once the welcome page is up still has both; the
            // study is checked while they download.
            juror::services::dom::after_paint(|| {
                // Presses are watched from the first frame of the page on (`boot::mount_app`
                // waits for one to end before replacing the page), not sooner: installing the
                // listeners costs the welcome page a few milliseconds on a slow phone.
                juror::boot::watch_presses();
                wasm_bindgen_futures::spawn_local(load_app());
                wasm_bindgen_futures::spawn_local(async {
                    let _ = juror::boot::later::load().await;
                });
                wasm_bindgen_futures::spawn_local(async { juror::boot::check() });
            });
        } else {
            load_app().await;
        }
        #[cfg(not(feature = "split"))]
        {
            let _ = welcome;
            juror::boot::mount_app(40, juror::App);
        }
    });
}

/// Fetches the app's code and mounts it; says so on the page if it cannot be fetched.
#[cfg(feature = "split")]
async fn load_app() {
    if app().await.is_err() {
        juror::boot::load_failed();
    }
}

/// The app, in a wasm of its own (`scripts/post_build.py` makes `NAME_app.wasm`).
#[cfg(feature = "split")]
#[allow(improper_ctypes_definitions, improper_ctypes)]
#[leptos::wasm_split::wasm_split(juror_app, wasm_split_path = ::leptos::wasm_split, fallible)]
fn app() -> Result<(), leptos::wasm_split::SplitLoaderError> {
    juror::boot::mount_app(40, juror::App);
    Ok(())
}
