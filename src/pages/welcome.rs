//! The first page of a valid study: what it is and how long it takes.

use std::sync::Arc;

use juror_core::markdown;
use juror_core::study::Study;
use leptos::prelude::*;

/// Title, description, and the facts an annotator wants before starting.
#[component]
pub fn Welcome(study: Arc<Study>) -> impl IntoView {
    let description = study.description().map(markdown::to_html);
    let items = study.items().len();
    let trials = study.trials_per_annotator();
    let minutes = study.estimated_minutes();
    let consent = study.consent().is_some();
    view! {
        <section class="welcome" aria-labelledby="study-title">
            <h1 id="study-title">{study.title().to_owned()}</h1>
            {description.map(|html| view! { <div class="markdown" inner_html=html></div> })}
            <dl class="facts">
                <div>
                    <dt>"Items"</dt>
                    <dd>{items}</dd>
                </div>
                <div>
                    <dt>"Trials"</dt>
                    <dd>{trials}</dd>
                </div>
                {minutes
                    .map(|m| {
                        view! {
                            <div>
                                <dt>"Estimated time"</dt>
                                <dd>{format_minutes(m)}</dd>
                            </div>
                        }
                    })}
            </dl>
            <p class="reassure">
                "Your answers are saved in this browser as you go, and the outputs you judge are "
                "shown without the names of the systems that wrote them."
                {consent.then_some(" You will be asked for your consent before anything is recorded.")}
            </p>
            {study.contact().map(|c| view! { <p class="contact">"Questions? " {c.to_owned()}</p> })}
        </section>
    }
}

/// "45 minutes", "1 hour", "2 hours 30 minutes".
pub fn format_minutes(minutes: u32) -> String {
    let (h, m) = (minutes / 60, minutes % 60);
    let plural = |n: u32, unit: &str| format!("{n} {unit}{}", if n == 1 { "" } else { "s" });
    match (h, m) {
        (0, m) => plural(m, "minute"),
        (h, 0) => plural(h, "hour"),
        (h, m) => format!("{} {}", plural(h, "hour"), plural(m, "minute")),
    }
}

#[cfg(test)]
mod tests {
    use super::format_minutes;

    #[test]
    fn minutes_read_naturally() {
        assert_eq!(format_minutes(1), "1 minute");
        assert_eq!(format_minutes(45), "45 minutes");
        assert_eq!(format_minutes(60), "1 hour");
        assert_eq!(format_minutes(150), "2 hours 30 minutes");
    }
}
