//! Adjudicating in the page: the report's flagged cells as a form, an expert's scores written as
//! the adjudication file `juror analyze --adjudication` reads (the columns of
//! `Report::adjudication_sheet`, with the scores filled in), and applied to the report by reading
//! that very text with the core's `Adjudication::read`, so the page and the command line share
//! one path.
//!
//! The scores entered live in a signal of the whole page, keyed by cell, so no re-render of the
//! report (a new file, an applied adjudication) loses them.

use std::collections::BTreeMap;

use juror_core::analysis::Report;
use juror_core::analysis::adjudication::{Cell, experts_in_words, parse_score};
use juror_core::analysis::render::fmt;
use juror_core::analysis::report::{CellContext, Flag};
use leptos::prelude::*;

use super::charts::plain;

/// The scores typed or chosen in the page, by (dimension, item, system), as entered. A cell
/// that is absent shows the report's adjudicated score (from an adjudication file), if any.
pub type Entries = BTreeMap<Cell, String>;

/// The key of a flagged cell.
pub fn cell(dimension: &str, flag: &Flag) -> Cell {
    (dimension.to_owned(), flag.item.clone(), flag.system.clone())
}

/// What the form shows for a cell: what was entered, else the report's adjudicated score.
pub fn shown(entries: &Entries, cell: &Cell, adjudicated: Option<f64>) -> String {
    entries
        .get(cell)
        .cloned()
        .unwrap_or_else(|| adjudicated.map(plain).unwrap_or_default())
}

/// One problem of the form: which cell and what.
#[derive(Debug, Clone, PartialEq)]
pub struct Invalid {
    pub cell: Cell,
    pub message: String,
}

/// The adjudication file of the report's flagged cells with the scores of the form: the columns
/// `item_id,system_id,dimension,score` that `Adjudication::read` needs, then `n,mean,sd,ratings`
/// as `Report::adjudication_sheet` writes them (ignored when read). A cell without a score has
/// an empty score: not yet adjudicated.
///
/// # Errors
/// Every score that is not a number (or not on the dimension's scale).
pub fn file_text(report: &Report, entries: &Entries) -> Result<String, Vec<Invalid>> {
    let mut scores: BTreeMap<Cell, Option<f64>> = BTreeMap::new();
    let mut invalid = Vec::new();
    for d in &report.dimensions {
        for f in &d.flags {
            let key = cell(&d.dimension, f);
            match parse_score(&shown(entries, &key, f.adjudicated), d.scale.as_deref()) {
                Ok(score) => {
                    scores.insert(key, score);
                }
                Err(message) => invalid.push(Invalid { cell: key, message }),
            }
        }
    }
    if !invalid.is_empty() {
        return Err(invalid);
    }
    Ok(report.adjudication_file(|dimension, f| scores.get(&cell(dimension, f)).copied().flatten()))
}

/// Flagged cells with a score in the form, and all flagged cells.
pub fn progress(report: &Report, entries: &Entries) -> (usize, usize) {
    let mut filled = 0;
    let mut total = 0;
    for d in &report.dimensions {
        for f in &d.flags {
            total += 1;
            let text = shown(entries, &cell(&d.dimension, f), f.adjudicated);
            if !text.trim().is_empty() {
                filled += 1;
            }
        }
    }
    (filled, total)
}

/// Whether the report was computed with the scores of the form: every flagged cell's
/// adjudicated score (from the adjudication file the report used) is the one entered.
pub fn in_report(report: &Report, entries: &Entries) -> bool {
    report.dimensions.iter().all(|d| {
        d.flags.iter().all(|f| {
            let text = shown(entries, &cell(&d.dimension, f), f.adjudicated);
            parse_score(&text, d.scale.as_deref()) == Ok(f.adjudicated)
        })
    })
}

/// The accessible name of a cell's score control.
fn control_name(cell: &Cell) -> String {
    format!(
        "Score for item {}, system {}, dimension {}",
        cell.1, cell.2, cell.0
    )
}

/// The flagged cells of every dimension as a form, with the buttons that write the adjudication
/// file and apply it to the report. `download` and `apply` get the file's text.
#[component]
pub fn AdjudicationForm(
    report: Report,
    /// The study's labels of each dimension's scale points, if a study was given.
    labels: BTreeMap<String, Vec<(f64, String)>>,
    entries: RwSignal<Entries>,
    download: Callback<String>,
    apply: Callback<String>,
) -> impl IntoView {
    let report = StoredValue::new(report);
    let invalid: RwSignal<Vec<Invalid>> = RwSignal::new(Vec::new());
    // Runs `then` on the file's text, or lists what stops it from being written.
    let with_file = move |then: Callback<String>| match report
        .with_value(|r| entries.with(|e| file_text(r, e)))
    {
        Ok(text) => {
            invalid.set(Vec::new());
            then.run(text);
        }
        Err(problems) => invalid.set(problems),
    };
    let status = move || {
        let (filled, total) = report.with_value(|r| entries.with(|e| progress(r, e)));
        let current = report.with_value(|r| entries.with(|e| in_report(r, e)));
        let state = match current {
            true if filled > 0 => "The report below uses these scores.",
            true => "",
            false => "The report below does not use these scores yet: apply them to update it.",
        };
        format!("{filled} of {total} flagged cells have a score. {state}")
    };
    let tables = report.with_value(|r| {
        r.dimensions
            .iter()
            .filter(|d| !d.flags.is_empty())
            .map(|d| {
                let dimension = d.dimension.clone();
                let scale = d.scale.clone();
                let labels = labels.get(&d.dimension).cloned().unwrap_or_default();
                let rows = d.flags.clone();
                view! {
                    <table class="data-table adjudication-table">
                        <caption>{format!("Flagged cells on {dimension}")}</caption>
                        <thead>
                            <tr>
                                <th scope="col">"Item"</th>
                                <th scope="col">"System"</th>
                                <th scope="col">"Ratings"</th>
                                <th scope="col">"Experts"</th>
                                <th scope="col">"Adjudicated score"</th>
                                <th scope="col">"Mean"</th>
                                <th scope="col">"SD"</th>
                                <th scope="col">"In the report"</th>
                                <th scope="col">"What was rated"</th>
                            </tr>
                        </thead>
                        <tbody>
                            <For
                                each=move || rows.clone()
                                key=|f| (f.item.clone(), f.system.clone())
                                let(flag)
                            >
                                <CellRow
                                    dimension=dimension.clone()
                                    flag
                                    scale=scale.clone()
                                    labels=labels.clone()
                                    entries
                                    invalid
                                />
                            </For>
                        </tbody>
                    </table>
                }
            })
            .collect_view()
    });
    // Without the study, the form cannot show what was rated: say how to see it.
    let no_study = report.with_value(|r| {
        r.dimensions
            .iter()
            .flat_map(|d| &d.flags)
            .any(|f| f.context.is_none())
    });
    // An item with an image or video file of its own (a path): offer to choose the files.
    let has_files = report.with_value(|r| {
        r.dimensions
            .iter()
            .flat_map(|d| &d.flags)
            .filter_map(|f| f.context.as_ref()?.media.as_ref())
            .any(|m| is_file(&m.src))
    });
    view! {
        <section class="adjudication" id="adjudicate" aria-labelledby="adjudicate-heading">
            <h3 id="adjudicate-heading">"Adjudicate the flagged cells"</h3>
            <p>
                "Give a score for each cell the annotators disagree on. It replaces the cell's ratings in the systems' summaries and the comparisons, never in agreement. Leave a cell empty to keep its ratings. Download the adjudication file to keep the scores (reading it back gives the same report, here or with "
                <code>"juror analyze --adjudication"</code>
                "), or apply them to the report below. With several experts (the "
                <code>"expert"</code>
                " column of the file), each expert's score is listed and the score here is the cell's resolved score: the one they all gave, else the one entered here (written as the row whose expert is "
                <code>"resolved"</code>
                "); experts who disagree leave the cell not adjudicated until it is resolved."
            </p>
            {no_study.then(|| view! {
                <p class="hint">
                    "Give the study (step 1) to see each item's prompt, media and the output rated, here and in the adjudication sheet."
                </p>
            })}
            {has_files.then(|| view! { <MediaPicker /> })}
            {tables}
            <p class="adjudication-status" role="status">{status}</p>
            {move || {
                let problems = invalid.get();
                (!problems.is_empty())
                    .then(|| {
                        view! {
                            <div class="missing" role="alert">
                                <p>"These scores cannot be used; correct them first:"</p>
                                <ul>
                                    {problems
                                        .into_iter()
                                        .map(|p| view! { <li>{format!("{}: {}", control_name(&p.cell), p.message)}</li> })
                                        .collect_view()}
                                </ul>
                            </div>
                        }
                    })
            }}
            <div class="actions">
                <button type="button" on:click=move |_| with_file(download)>
                    "Download adjudication file"
                </button>
                <button type="button" class="secondary" on:click=move |_| with_file(apply)>
                    "Apply adjudication to the report"
                </button>
            </div>
        </section>
    }
}

/// One flagged cell: what the annotators said and the expert's score.
#[component]
fn CellRow(
    dimension: String,
    flag: Flag,
    scale: Option<Vec<f64>>,
    labels: Vec<(f64, String)>,
    entries: RwSignal<Entries>,
    invalid: RwSignal<Vec<Invalid>>,
) -> impl IntoView {
    let key = cell(&dimension, &flag);
    let name = control_name(&key);
    let adjudicated = flag.adjudicated;
    let experts = if flag.experts.is_empty() {
        fmt::DASH.to_owned()
    } else {
        experts_in_words(&flag.experts)
    };
    let rated = flag
        .context
        .clone()
        .map(|c| view! { <ItemShown context=c system=flag.system.clone() /> }.into_any());
    let ratings: Vec<String> = flag
        .ratings
        .iter()
        .map(|r| format!("{}: {}", r.annotator, plain(r.score)))
        .collect();
    let value = {
        let key = key.clone();
        move || entries.with(|e| shown(e, &key, adjudicated))
    };
    let set = {
        let key = key.clone();
        move |text: String| {
            entries.update(|e| {
                e.insert(key.clone(), text);
            });
            // A corrected score clears its problem.
            if invalid.with(|p| p.iter().any(|p| p.cell == key)) {
                invalid.update(|p| p.retain(|p| p.cell != key));
            }
        }
    };
    let control = match scale {
        Some(points) if !points.is_empty() => {
            // The scale's points, and an adjudicated score off the scale (read from a file) so
            // that it is shown as it is rather than silently dropped.
            let mut options: Vec<f64> = points.clone();
            if let Some(a) = adjudicated.filter(|a| !points.contains(a)) {
                options.push(a);
                options.sort_by(f64::total_cmp);
            }
            let value = value.clone();
            let none_selected = {
                let value = value.clone();
                move || value().trim().is_empty()
            };
            view! {
                <select aria-label=name.clone() on:change=move |ev| set(event_target_value(&ev))>
                    <option value="" prop:selected=none_selected>"Not adjudicated"</option>
                    {options
                        .into_iter()
                        .map(|v| {
                            let text = plain(v);
                            let label = labels
                                .iter()
                                .find(|(p, _)| *p == v)
                                .map_or_else(|| text.clone(), |(_, l)| format!("{text} — {l}"));
                            let value = value.clone();
                            let this = text.clone();
                            view! {
                                <option value=text prop:selected=move || value().trim() == this>
                                    {label}
                                </option>
                            }
                        })
                        .collect_view()}
                </select>
            }
            .into_any()
        }
        _ => {
            let error_id = format!(
                "score-error-{}",
                juror_core::base::digest::sha256_hex(&name)
                    .get(..12)
                    .unwrap_or_default()
            );
            let error = {
                let value = value.clone();
                move || parse_score(&value(), None).err()
            };
            let has_error = {
                let error = error.clone();
                move || error().is_some().then_some("true")
            };
            view! {
                <input
                    type="text"
                    inputmode="decimal"
                    autocomplete="off"
                    aria-label=name.clone()
                    aria-invalid=has_error
                    aria-describedby=error_id.clone()
                    prop:value=value
                    on:input=move |ev| set(event_target_value(&ev))
                />
                <span class="error" id=error_id>{error}</span>
            }
            .into_any()
        }
    };
    view! {
        <tr>
            <th scope="row">{flag.item.clone()}</th>
            <td>{flag.system.clone()}</td>
            <td>{ratings.join(", ")}</td>
            <td>{experts}</td>
            <td class="score-cell">{control}</td>
            <td>{fmt::num(Some(flag.mean), 3)}</td>
            <td>{fmt::num(Some(flag.sd), 3)}</td>
            <td>{adjudicated.map(plain).unwrap_or_else(|| fmt::DASH.to_owned())}</td>
            <td>{rated.unwrap_or_else(|| view! { <ItemHidden /> }.into_any())}</td>
        </tr>
    }
}

/// A cell without the study: nothing to show.
#[component]
fn ItemHidden() -> impl IntoView {
    fmt::DASH
}

/// The image and video files the researcher chose for the form (name, object address), so that
/// an item's media shows itself: a path in a study is relative to the study file, which this page
/// cannot reach, and a web address is never fetched (nothing leaves the page's origin). Provided
/// by the Analyse page, above the report, so that recomputing it keeps them.
#[derive(Clone, Copy)]
pub struct MediaFiles(pub RwSignal<Vec<(String, String)>>);

/// Whether an item's media address is a file beside the study (a path), not a web address.
fn is_file(src: &str) -> bool {
    !src.contains("://") && !src.starts_with("data:")
}

/// The object address of the file chosen for `src`, a path relative to the study file: the file
/// whose name is the path's last part (`media/chart-3.png` → `chart-3.png`). None for a web
/// address or when no such file was chosen.
pub fn media_file<'a>(src: &str, files: &'a [(String, String)]) -> Option<&'a str> {
    if !is_file(src) {
        return None;
    }
    let name = src.rsplit('/').next().unwrap_or(src);
    files
        .iter()
        .find(|(file, _)| file == name)
        .map(|(_, url)| url.as_str())
}

/// An item's image or video: shown from the file the researcher chose for it ([`MediaFiles`]),
/// else its kind, text alternative and address (a link when it is a web address).
fn media_view(m: &juror_core::study::Media) -> AnyView {
    let kind = match m.kind {
        juror_core::study::MediaKind::Image => "Image",
        juror_core::study::MediaKind::Video => "Video",
    };
    let chosen = use_context::<MediaFiles>()
        .and_then(|MediaFiles(files)| files.with(|f| media_file(&m.src, f).map(str::to_owned)));
    let alt = m.alt.clone();
    if let Some(url) = chosen {
        return match m.kind {
            juror_core::study::MediaKind::Image => {
                view! { <figure class="media"><img src=url alt=alt /></figure> }.into_any()
            }
            juror_core::study::MediaKind::Video => view! {
                <figure class="media">
                    <video src=url controls preload="metadata" aria-label=alt.clone()></video>
                    <figcaption>{alt}</figcaption>
                </figure>
            }
            .into_any(),
        };
    }
    let src = m.src.clone();
    let address = if src.starts_with("https://") || src.starts_with("http://") {
        let href = src.clone();
        view! { <a href=href target="_blank" rel="noopener noreferrer">{src}</a> }.into_any()
    } else {
        view! { <code>{src}</code> " (relative to the study file: choose it above to see it)" }
            .into_any()
    };
    view! { <p>{format!("{kind}: {alt} ")} {address}</p> }.into_any()
}

/// The picker of the items' image and video files, when a flagged cell's item has a file of its
/// own: they are shown in the form, and stay in this browser.
#[component]
fn MediaPicker() -> impl IntoView {
    let Some(MediaFiles(files)) = use_context::<MediaFiles>() else {
        return ().into_any();
    };
    let on_change = move |ev: leptos::ev::Event| {
        let picked = crate::services::study_source::object_urls(&ev);
        if !picked.is_empty() {
            files.update(|list| {
                list.retain(|(name, _)| !picked.iter().any(|(n, _)| n == name));
                list.extend(picked);
            });
        }
    };
    view! {
        <p class="hint">
            <label class="file-picker">
                <span class="button secondary">"Choose the items' images and videos"</span>
                <input type="file" accept="image/*,video/*" multiple=true on:change=on_change />
            </label>
            {move || {
                let n = files.with(Vec::len);
                if n == 0 {
                    " Items name image or video files beside the study: choose them to see them with each cell. They stay in this browser.".to_owned()
                } else {
                    format!(" {n} file(s) chosen: each item shows the one of its file's name.")
                }
            }}
        </p>
    }
    .into_any()
}

/// What the annotators rated, behind a button: the item's prompt, its context and media, and
/// the system's output, as plain text (the researcher's page: the system is known here).
#[component]
fn ItemShown(context: CellContext, system: String) -> impl IntoView {
    let open = RwSignal::new(false);
    let CellContext {
        prompt,
        context,
        media,
        output,
    } = context;
    let body = move || {
        open.get().then(|| {
            view! {
                <div class="adjudication-item">
                    <p><strong>"Prompt"</strong></p>
                    <div class="output-text plain-text">{prompt.clone()}</div>
                    {context.clone().map(|c| view! {
                        <p><strong>"Context"</strong></p>
                        <div class="output-text plain-text">{c}</div>
                    })}
                    {media.as_ref().map(media_view)}
                    <p><strong>{format!("Output of {system}")}</strong></p>
                    <div class="output-text plain-text">
                        {output.clone().unwrap_or_else(|| "The study does not hold this output.".to_owned())}
                    </div>
                </div>
            }
        })
    };
    view! {
        <button
            type="button"
            class="secondary small"
            aria-expanded=move || if open.get() { "true" } else { "false" }
            on:click=move |_| open.update(|o| *o = !*o)
        >
            "Prompt and output"
        </button>
        {body}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analyse::{Outcome, run};
    use juror_core::analysis::run::FileText;

    fn report() -> Report {
        let file = |name: &str| {
            let path = format!(
                "{}/crates/juror-core/tests/fixtures/analysis/{name}",
                env!("CARGO_MANIFEST_DIR")
            );
            FileText {
                name: name.to_owned(),
                text: std::fs::read_to_string(path).map_err(|e| e.to_string()),
            }
        };
        let study = FileText {
            name: "financial-analysis.json".to_owned(),
            text: std::fs::read_to_string(format!(
                "{}/assets/studies/financial-analysis.json",
                env!("CARGO_MANIFEST_DIR")
            ))
            .map_err(|e| e.to_string()),
        };
        let inputs = [
            file("financial-slot1.json"),
            file("financial-slot2.json"),
            file("financial-slot3.json"),
        ];
        let Outcome::Done(a) = run(
            &inputs,
            &[],
            Some(&study),
            None,
            None,
            &Default::default(),
            Default::default(),
        ) else {
            panic!("expected a report");
        };
        a.report.clone()
    }

    #[test]
    fn a_chosen_file_is_found_by_the_last_part_of_an_items_path() {
        let files = [
            ("chart-3.png".to_owned(), "blob:a".to_owned()),
            ("clip.mp4".to_owned(), "blob:b".to_owned()),
        ];
        assert_eq!(media_file("media/chart-3.png", &files), Some("blob:a"));
        assert_eq!(media_file("clip.mp4", &files), Some("blob:b"));
        assert_eq!(media_file("media/chart-4.png", &files), None);
        // A web address is shown as a link, never matched to a file (nor fetched).
        assert_eq!(media_file("https://example.org/chart-3.png", &files), None);
        assert_eq!(media_file("data:image/png;base64,AAAA", &files), None);
    }

    #[test]
    fn an_empty_form_writes_the_command_lines_sheet() {
        let r = report();
        assert!(r.dimensions[0].flags.len() >= 2);
        assert_eq!(file_text(&r, &Entries::new()), Ok(r.adjudication_sheet()));
        assert_eq!(progress(&r, &Entries::new()).0, 0);
    }

    #[test]
    fn entered_scores_are_written_and_read_back_by_the_core() {
        let r = report();
        let d = &r.dimensions[0];
        let first = cell(&d.dimension, &d.flags[0]);
        let second = cell(&d.dimension, &d.flags[1]);
        let entries = Entries::from([(first.clone(), "4".to_owned()), (second, " ".to_owned())]);
        let text = file_text(&r, &entries).unwrap();
        assert_eq!(progress(&r, &entries), (1, d.flags.len()));
        let adjudication = juror_core::analysis::Adjudication::read(
            &juror_core::analysis::Input::new("a.csv", text),
            &Default::default(),
        );
        assert!(adjudication.problems().is_empty());
        assert_eq!(adjudication.score(&first.0, &first.1, &first.2), Some(4.0));
        assert_eq!(adjudication.cells().len(), 1);
        assert_eq!(adjudication.unfilled(), d.flags.len() - 1);
    }

    #[test]
    fn scores_off_the_scale_or_not_numbers_are_refused() {
        let scale = [1.0, 2.0, 3.0];
        assert_eq!(parse_score("", Some(&scale)), Ok(None));
        assert_eq!(parse_score(" 2 ", Some(&scale)), Ok(Some(2.0)));
        assert!(
            parse_score("2.5", Some(&scale))
                .unwrap_err()
                .contains("1, 2, 3")
        );
        assert_eq!(parse_score("2.5", None), Ok(Some(2.5)));
        assert!(parse_score("high", None).is_err());
        assert!(parse_score("NaN", None).is_err());
        let r = report();
        let d = &r.dimensions[0];
        let key = cell(&d.dimension, &d.flags[0]);
        let entries = Entries::from([(key.clone(), "9".to_owned())]);
        let problems = file_text(&r, &entries).unwrap_err();
        assert_eq!(problems.len(), 1);
        assert_eq!(problems[0].cell, key);
    }

    /// With the study, each flagged cell carries the item's prompt and the system's output,
    /// which the form shows and the sheet writes.
    #[test]
    fn with_the_study_each_flagged_cell_carries_what_was_rated() {
        let r = report();
        let f = &r.dimensions[0].flags[0];
        let c = f.context.as_ref().unwrap();
        assert!(c.prompt.contains(&f.item.to_uppercase()), "{}", c.prompt);
        assert!(c.output.as_deref().is_some_and(|o| !o.is_empty()));
        let first = c
            .output
            .as_deref()
            .and_then(|o| o.lines().next())
            .unwrap_or_default();
        assert!(!first.is_empty() && r.adjudication_sheet().contains(first));
    }

    #[test]
    fn what_is_entered_wins_over_the_file_and_an_emptied_cell_is_empty() {
        let key: Cell = ("q".into(), "i".into(), "s".into());
        let mut entries = Entries::new();
        assert_eq!(shown(&entries, &key, Some(3.0)), "3");
        entries.insert(key.clone(), String::new());
        assert_eq!(shown(&entries, &key, Some(3.0)), "");
        entries.insert(key.clone(), "5".into());
        assert_eq!(shown(&entries, &key, Some(3.0)), "5");
    }
}
