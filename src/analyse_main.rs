//! The researcher's Analyse page (`analyse.html`): its own wasm, built by the same `trunk build`
//! (a second `rel="rust"` link in index.html), so the annotator's app carries none of it.

fn main() {
    console_error_panic_hook::set_once();
    leptos::mount::mount_to_body(juror::AnalyseApp);
}
