//! Answers kept in this browser, listed for download when the study itself cannot be opened
//! (moved, invalid under a newer app, offline and evicted): answers are never trapped.
//! Only that study's are listed, and the first page only counts them: a shared computer keeps
//! other participants' answers too. Set-aside copies can be removed once downloaded.

use juror_core::plan::ID_PARAMETERS;
use juror_core::session::store::{Claimant, Offer, Saved};
use juror_core::session::time;
use leptos::prelude::*;

use crate::services::{download, location, storage};

/// The list of the answers saved for the study ids `ids` (`store::failed_study_ids`) by the
/// annotator the page's address names (`store::Claimant`), and a count of the study's others;
/// nothing when the browser keeps none.
#[component]
pub fn SavedAnswers(ids: Vec<String>) -> impl IntoView {
    let who = claimant();
    let entries = RwSignal::new(storage::saved_answers(&ids, who.as_ref()));
    let ids = StoredValue::new(ids);
    let who = StoredValue::new(who);
    move || {
        let offer = entries.get();
        let others = offer.others;
        (!offer.mine.is_empty() || others > 0).then(|| {
            let others_line = (others > 0).then(|| {
                let sessions = match others {
                    1 => "1 other set of answers".to_owned(),
                    n => format!("{n} other sets of answers"),
                };
                let lead = if offer.mine.is_empty() {
                    format!("{sessions} to this study are kept in this browser")
                } else {
                    format!("This browser also keeps {sessions} to this study")
                };
                view! {
                    <p class="kept-count">
                        {format!(
                            "{lead}. They are not shown here, so that no one else using this computer sees them: to download yours, open the link you were given for the study (with your participant code), and this page lists your answers."
                        )}
                    </p>
                }
            });
            let mine = (!offer.mine.is_empty()).then(|| {
                view! {
                    <p>
                        "The answers already given to this study are kept in this browser. Download them and send them to the researcher: they hold every answer given here, and the researcher can turn them into a ratings file with "
                        <code>"juror recover"</code> "."
                    </p>
                    <ul>
                        {offer
                            .mine
                            .into_iter()
                            .map(|(saved, text)| view! { <SavedEntry saved text entries ids who /> })
                            .collect_view()}
                    </ul>
                }
            });
            view! {
                <section class="saved-answers" aria-labelledby="saved-heading">
                    <h2 id="saved-heading">"Answers saved in this browser"</h2>
                    {mine}
                    {others_line}
                </section>
            }
        })
    }
}

/// The annotator the page's address names: its `slot` and id (`plan::ID_PARAMETERS`).
fn claimant() -> Option<Claimant> {
    let slot = location::query_param("slot");
    let id = ID_PARAMETERS
        .iter()
        .find_map(|name| location::query_param(name));
    Claimant::from_link(slot.as_deref(), id.as_deref())
}

#[component]
fn SavedEntry(
    saved: Saved,
    text: String,
    entries: RwSignal<Offer>,
    ids: StoredValue<Vec<String>>,
    who: StoredValue<Option<Claimant>>,
) -> impl IntoView {
    let downloaded = RwSignal::new(false);
    let status = RwSignal::new(None::<String>);
    let name = saved.file_name.clone();
    let what = format!(
        "{}{} — {}{}",
        saved
            .study_id
            .clone()
            .unwrap_or_else(|| "Unreadable answers".to_owned()),
        if saved.set_aside { " (set aside)" } else { "" },
        saved.annotator,
        saved
            .saved_at
            .map_or(String::new(), |t| format!(", saved {}", time::date(t))),
    );
    let count = match saved.answered {
        1 => "1 trial answered".to_owned(),
        n => format!("{n} trials answered"),
    };
    let label = format!("Download {what}");
    let key = saved.key.clone();
    let on_download = move |_| match download::download(&name, "application/json", &text) {
        Ok(()) => {
            downloaded.set(true);
            status.set(Some(format!("Downloaded {name}.")));
        }
        Err(e) => status.set(Some(e)),
    };
    let on_remove = move |_| {
        storage::remove(&key);
        entries.set(
            ids.with_value(|ids| who.with_value(|who| storage::saved_answers(ids, who.as_ref()))),
        );
    };
    view! {
        <li>
            <span class="what">{what}</span>
            " "
            <span class="count">{count}</span>
            <button type="button" aria-label=label on:click=on_download>
                "Download"
            </button>
            <Show when=move || saved.set_aside && downloaded.get()>
                <button type="button" class="secondary" on:click=on_remove.clone()>
                    "Remove from this browser"
                </button>
            </Show>
            <span role="status">{move || status.get()}</span>
        </li>
    }
}

/// How many sets of answers this browser keeps, and nothing else: whose they are is not shown
/// to whoever opens the first page next.
#[component]
pub fn KeptCount() -> impl IntoView {
    let count = storage::kept_count();
    (count > 0).then(|| {
        let sessions = match count {
            1 => "1 session".to_owned(),
            n => format!("{n} sessions"),
        };
        view! {
            <p class="kept-count">
                {format!(
                    "Answers of {sessions} are kept in this browser. They are not shown here, so that no one else using this computer sees them: open your study's link to continue. If it no longer opens, the page it shows offers that study's answers to download."
                )}
            </p>
        }
    })
}
