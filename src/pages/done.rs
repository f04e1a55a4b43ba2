//! The end: the ratings file, by download, clipboard, share sheet or e-mail.

use juror_core::session::{Msg, Overlay};
use leptos::prelude::*;

use crate::services::download;
use crate::session::use_session;

/// The first e-mail address in `text`, if any.
fn email_in(text: &str) -> Option<String> {
    text.split(|c: char| c.is_whitespace() || matches!(c, '<' | '>' | '(' | ')' | ',' | ';'))
        .find(|w| {
            let mut parts = w.split('@');
            matches!((parts.next(), parts.next(), parts.next()), (Some(a), Some(b), None) if !a.is_empty() && b.contains('.'))
        })
        .map(|w| w.trim_end_matches('.').to_owned())
}

/// The finish page.
#[component]
pub fn Finished() -> impl IntoView {
    let handle = use_session();
    let study = handle.study.get_value();
    let status = RwSignal::new(None::<String>);
    let json = move |_| {
        let file = handle.ratings();
        let name = file.file_name("json");
        match download::download(&name, "application/json", &file.to_json()) {
            Ok(()) => status.set(Some(format!("Downloaded {name}."))),
            Err(e) => status.set(Some(e)),
        }
    };
    let csv = move |_| {
        let file = handle.ratings();
        let name = file.file_name("csv");
        match download::download(&name, "text/csv", &file.to_csv()) {
            Ok(()) => status.set(Some(format!("Downloaded {name}."))),
            Err(e) => status.set(Some(e)),
        }
    };
    let copy = move |_| {
        let text = handle.ratings().to_json();
        leptos::task::spawn_local(async move {
            match download::copy(&text).await {
                Ok(()) => status.set(Some(
                    "Copied. Paste it into an e-mail to the researcher.".to_owned(),
                )),
                Err(e) => status.set(Some(e)),
            }
        });
    };
    let title = study.title().to_owned();
    let share = move |_| {
        let file = handle.ratings();
        let title = title.clone();
        leptos::task::spawn_local(async move {
            let name = file.file_name("json");
            if let Err(e) =
                download::share(&name, "application/json", &file.to_json(), &title).await
            {
                status.set(Some(e));
            }
        });
    };
    let mail = study.contact().and_then(email_in).map(|address| {
        let subject = format!("Ratings for {}", study.title());
        let body =
            "Hello,\n\nPlease find my ratings file attached (downloaded from the study page).\n";
        let href = format!(
            "mailto:{address}?subject={}&body={}",
            js_sys::encode_uri_component(&subject),
            js_sys::encode_uri_component(body)
        );
        view! {
            <p>
                "Then send it to " <a href=href>{address.clone()}</a>
                ": download the file first, and attach it to the e-mail."
            </p>
        }
    });
    view! {
        <section class="finished" aria-labelledby="finished-heading">
            <h1 id="finished-heading">"Thank you — you have finished"</h1>
            <p>
                "Download your ratings file and send it to the researcher. Your answers also stay "
                "saved in this browser, so you can come back to this page."
            </p>
            <div class="actions">
                <button type="button" class="primary" on:click=json>"Download ratings (JSON)"</button>
                <button type="button" class="secondary" on:click=csv>"Download ratings (CSV)"</button>
                <button type="button" class="secondary" on:click=copy>"Copy ratings to the clipboard"</button>
                {download::can_share().then(|| view! {
                    <button type="button" class="secondary" on:click=share.clone()>"Share ratings file"</button>
                })}
            </div>
            {mail}
            <p role="status" aria-live="polite" class="status">{move || status.get().unwrap_or_default()}</p>
            <p>
                <button type="button" class="link" on:click=move |_| handle.dispatch(Msg::Overlay(Overlay::TrialList))>
                    "Review or change an answer"
                </button>
            </p>
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::email_in;

    #[test]
    fn finds_the_address_in_a_contact_line() {
        assert_eq!(
            email_in("Dr Ada Lovelace <ada@example.org>").as_deref(),
            Some("ada@example.org")
        );
        assert_eq!(
            email_in("write to team@lab.ac.uk.").as_deref(),
            Some("team@lab.ac.uk")
        );
        assert_eq!(email_in("no address here"), None);
    }
}
