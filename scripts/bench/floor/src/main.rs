//! The floor of the load benchmark (`scripts/bench/load`): the least a Leptos 0.8 page can be,
//! built with Juror's release profile, so that Juror's load times can be given as a multiple of
//! it measured in the same run. A heading and a Start button, like Juror's welcome page; Start
//! shows "Trial 1".

use leptos::prelude::*;

#[component]
fn Floor() -> impl IntoView {
    let started = RwSignal::new(false);
    view! {
        <main>
            <Show
                when=move || started.get()
                fallback=move || {
                    view! {
                        <h1>"Welcome"</h1>
                        <button type="button" on:click=move |_| started.set(true)>
                            "Start"
                        </button>
                    }
                }
            >
                <h1>"Trial 1"</h1>
            </Show>
        </main>
    }
}

fn main() {
    console_error_panic_hook::set_once();
    leptos::mount::mount_to_body(Floor);
}
