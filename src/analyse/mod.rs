//! The researcher's analysis page (`analyse.html`): ratings files and tidy CSVs in, the
//! `juror.report/1` report out, computed by the core's `analyze` exactly as `juror analyze` does
//! (same defaults), so the page and the command line give the same numbers. The report is shown
//! as the core's table model lays it out for the Markdown (`sections`), every section of it,
//! with the page's figures and tools where they belong. Nothing leaves the browser.

mod adjudicate;
mod analysis_plan_choices;
mod charts;
mod judges;
mod rounds;
mod sections;
mod spans;

use std::sync::Arc;

use juror_core::analysis::overrides::Overrides;
use juror_core::analysis::render::fmt;
use juror_core::analysis::render::tables::{self, Figure, Table, Text};
use juror_core::analysis::run::{Analysis, FileText, Request, plan_context};
use juror_core::analysis::slot::{Slot, misplaced};
use juror_core::analysis::{self, Options};
use leptos::prelude::*;

use crate::components::{DropZone, OptionalFile};
use crate::services::{dom, download};
use adjudicate::{AdjudicationForm, Entries};
use analysis_plan_choices::AnalysisPlanChoices;
use charts::{LikertBars, MeansChart, PreferenceMatrix, StrengthChart};
use judges::JudgesChooser;
pub use judges::JudgesView;
use sections::{ModelTable, after_last, regions, words};

/// What the page can show for the files chosen so far.
#[derive(Debug, Clone)]
pub enum Outcome {
    /// No ratings file or CSV yet.
    Empty,
    /// The study, the key or the adjudication file cannot be used: nothing is analysed (as
    /// `juror analyze` exits 2). Each entry is a sentence.
    Blocked(Vec<String>),
    /// The core's analysis: the report, the merged tidy data (written as CSV only when asked
    /// for: for 480,000 ratings that takes a third of a second), the scale labels.
    Done(Arc<Analysis>),
}

/// Two analyses are the same when they are one computation (an analysis is never compared
/// field by field: a new one is a new computation).
impl PartialEq for Outcome {
    fn eq(&self, other: &Outcome) -> bool {
        match (self, other) {
            (Outcome::Empty, Outcome::Empty) => true,
            (Outcome::Blocked(a), Outcome::Blocked(b)) => a == b,
            (Outcome::Done(a), Outcome::Done(b)) => Arc::ptr_eq(a, b),
            _ => false,
        }
    }
}

/// Runs the analysis as `juror analyze` does, through the core's one entry point
/// ([`analysis::run::run`]): the study, the key, the adjudication file, then every input in
/// order, and the judges' verdicts apart from them (`--judges`), with `juror analyze`'s default
/// options but the page's switches in `options` (`reveal_ids`: platform participants' ids as
/// given, else pseudonymised, `--reveal-ids`; `exclude_unadjudicated`,
/// `--exclude-unadjudicated`) and the plan `overrides` chosen on the page.
pub fn run(
    inputs: &[FileText],
    judges: &[FileText],
    study: Option<&FileText>,
    key: Option<&FileText>,
    adjudication: Option<&FileText>,
    overrides: &Overrides,
    options: Options,
) -> Outcome {
    if inputs.is_empty() {
        return Outcome::Empty;
    }
    let request = Request {
        inputs: inputs.to_vec(),
        judges: judges.to_vec(),
        study: study.cloned(),
        key: key.cloned(),
        adjudication: adjudication.cloned(),
        intake: Vec::new(),
        options,
        overrides: overrides.clone(),
        clock: None,
    };
    match analysis::run::run(&request) {
        Ok(a) => Outcome::Done(Arc::new(a)),
        Err(blocked) => Outcome::Blocked(blocked),
    }
}

/// The defaults the page analyses with, in words: those of `juror analyze` without flags.
fn defaults_in_words() -> String {
    let o = Options::default();
    format!(
        "flag SD {}, seed {}, {} bootstrap resamples",
        o.flag_sd, o.seed, o.resamples
    )
}

/// The study and its key, first: ratings of a published study need both, and the report is
/// computed again whenever either is given or removed.
#[component]
fn StudyAndKey(
    study: RwSignal<Option<FileText>>,
    key: RwSignal<Option<FileText>>,
) -> impl IntoView {
    view! {
        <h2 id="study-key-heading">"1. The study and its key"</h2>
        <p class="hint">
            "Ratings of a study published with "
            <code>"juror publish"</code>
            " name each output by a token: give the published study and the key "
            <code>"juror publish"</code>
            " wrote, or nothing can be analysed. Without them, ratings of an unpublished study are \
             still analysed. Give them before or after the ratings files: the report follows."
        </p>
        <OptionalFile
            label="Choose the study file"
            hint="The study the annotators rated (the published copy): ratings files are checked against it, and its scales are used."
            accept=".json,application/json"
            file=study
            kind=Slot::Study
        />
        <OptionalFile
            label="Choose the key"
            hint="The key written by juror publish (or juror seal): system tokens become system ids."
            accept=".json,application/json"
            file=key
            kind=Slot::Key
        />
    }
}

/// The adjudication file, optional, and the switch that sets aside the flagged cells not yet
/// adjudicated (`--exclude-unadjudicated`).
#[component]
fn AdjudicationFile(
    adjudication: RwSignal<Option<FileText>>,
    exclude_unadjudicated: RwSignal<bool>,
) -> impl IntoView {
    view! {
        <h2>"4. Adjudication (optional)"</h2>
        <OptionalFile
            label="Choose an adjudication CSV"
            hint="item_id,system_id,dimension,score and optionally expert: each cell's resolved score replaces its ratings (several experts: the score they all gave, or the row whose expert is resolved)."
            accept=".csv,text/csv"
            file=adjudication
            kind=Slot::Adjudication
        />
        <Switch
            class="exclude-unadjudicated"
            label=" Set aside flagged cells not yet adjudicated"
            on=exclude_unadjudicated
        >
            " From the systems' summaries, the comparisons and the slopes, as "
            <code>"juror analyze --exclude-unadjudicated"</code>
            " does (agreement keeps every rating); checked at first when the study's plan pre-registers it ("
            <code>"exclude_unadjudicated"</code>
            "); the methods paragraph says so."
        </Switch>
    }
}

/// A labelled check box bound to `on`, with its hint after it.
#[component]
fn Switch(
    class: &'static str,
    label: &'static str,
    on: RwSignal<bool>,
    children: Children,
) -> impl IntoView {
    view! {
        <p class=class>
            <label>
                <input
                    type="checkbox"
                    prop:checked=move || on.get()
                    on:change=move |ev| on.set(event_target_checked(&ev))
                />
                {label}
            </label>
            <span class="hint">{children()}</span>
        </p>
    }
}

/// The ratings files and CSVs chosen, and a way to remove them all.
#[component]
fn ChosenFiles(inputs: RwSignal<Vec<FileText>>) -> impl IntoView {
    view! {
        <Show when=move || inputs.with(|list| !list.is_empty())>
            <h3 id="files-heading">"Files chosen"</h3>
            <ol class="chosen-files" aria-labelledby="files-heading">
                {move || {
                    inputs
                        .get()
                        .into_iter()
                        .map(|f| view! { <li><code>{f.name}</code></li> })
                        .collect_view()
                }}
            </ol>
            <button type="button" class="secondary small" on:click=move |_| inputs.set(Vec::new())>
                "Remove all files"
            </button>
        </Show>
    }
}

/// The files given as ratings that are not ratings (the study, the key), and why each not.
fn ratings_only(picked: Vec<FileText>) -> (Vec<FileText>, Vec<String>) {
    let mut refused = Vec::new();
    let kept = picked
        .into_iter()
        .filter(|f| {
            let why = f
                .text
                .as_deref()
                .ok()
                .and_then(|t| misplaced(Slot::Ratings, t));
            why.map(|why| refused.push(format!("{}: {why}.", f.name)))
                .is_none()
        })
        .collect();
    (kept, refused)
}

/// The files dropped with the ratings and not added, each with where it belongs.
#[component]
fn NotAdded(not_added: RwSignal<Vec<String>>) -> impl IntoView {
    move || {
        let refused = not_added.get();
        (!refused.is_empty()).then(|| {
            view! {
                <div class="error" role="alert">
                    <p>"Not added to the ratings files:"</p>
                    <ul>{refused.into_iter().map(|r| view! { <li>{r}</li> }).collect_view()}</ul>
                </div>
            }
        })
    }
}

/// Beside the files chosen, what became of them: analysing, the report ready (further down the
/// page, past the choices), or why nothing can be analysed yet; each with a link there.
#[component]
fn ReportStatus(computing: RwSignal<Option<usize>>, outcome: RwSignal<Outcome>) -> impl IntoView {
    view! {
        <p class="hint report-status" role="status">
            {move || match (computing.get(), outcome.get()) {
                (Some(n), _) => format!("Analysing {n} file(s)…").into_any(),
                (None, Outcome::Done(_)) => view! {
                    "The report is ready. " <a href="#report">"Go to the report"</a>
                }
                .into_any(),
                (None, Outcome::Blocked(reasons)) => view! {
                    {format!("Nothing can be analysed yet ({} reason(s)). ", reasons.len())}
                    <a href="#blocked">"See why"</a>
                }
                .into_any(),
                (None, Outcome::Empty) => ().into_any(),
            }}
        </p>
    }
}

/// The choice to show platform participants' ids, when some file came from a platform.
#[component]
fn PlatformIds(outcome: RwSignal<Outcome>, reveal_ids: RwSignal<bool>) -> impl IntoView {
    move || {
        let ids = outcome.with(|o| match o {
            Outcome::Done(a) => a.report.settings.platform_ids,
            _ => None,
        })?;
        Some(view! {
            <Switch
                class="platform-ids"
                label=" Show participants' platform ids (for payment)"
                on=reveal_ids
            >
                " Platform ids are " {ids} "."
            </Switch>
        })
    }
}

/// The analysis page.
#[component]
pub fn Analyse() -> impl IntoView {
    let inputs: RwSignal<Vec<FileText>> = RwSignal::new(Vec::new());
    let study: RwSignal<Option<FileText>> = RwSignal::new(None);
    let key: RwSignal<Option<FileText>> = RwSignal::new(None);
    let adjudication: RwSignal<Option<FileText>> = RwSignal::new(None);
    // Judges' verdicts: apart from the ratings files, never in the human statistics.
    let judges: RwSignal<Vec<FileText>> = RwSignal::new(Vec::new());
    let download_error: RwSignal<Option<String>> = RwSignal::new(None);
    // The expert's scores live here, above the report, so that recomputing the report (a file
    // added, an adjudication applied) never loses them.
    let entries: RwSignal<Entries> = RwSignal::new(Entries::new());
    // The items' image and video files the researcher chose for the adjudication form.
    provide_context(adjudicate::MediaFiles(RwSignal::new(Vec::new())));
    // The plan's overrides chosen here (none: the study's plan).
    let overrides: RwSignal<Overrides> = RwSignal::new(Overrides::default());
    // Platform participants' ids: pseudonymised unless the researcher asks to see them.
    let reveal_ids = RwSignal::new(false);
    // Flagged cells without a resolved score: kept unless the researcher sets them aside, or
    // the study's plan pre-registers it (`analysis.exclude_unadjudicated`), which the switch
    // starts from again for each study.
    let exclude_unadjudicated = RwSignal::new(false);
    let context = Memo::new(move |_| plan_context(study.get().as_ref(), key.get().as_ref()));
    Effect::new(move |_| {
        exclude_unadjudicated.set(context.with(|c| c.base.exclude_unadjudicated));
    });

    // The report, computed once per change of the files, the plan or the ids' choice (the
    // bootstrap is the costly part), after the page has painted "Analysing…": a change while
    // one waits supersedes it, so only the latest files are analysed.
    let outcome: RwSignal<Outcome> = RwSignal::new(Outcome::Empty);
    let computing: RwSignal<Option<usize>> = RwSignal::new(None);
    let generation = StoredValue::new(0_u64);
    Effect::new(move |_| {
        let files = inputs.get();
        let judge_files = judges.get();
        let (study, key, adjudication) = (study.get(), key.get(), adjudication.get());
        let (overrides, reveal_ids) = (overrides.get(), reveal_ids.get());
        let exclude_unadjudicated = exclude_unadjudicated.get();
        let ticket = generation.get_value() + 1;
        generation.set_value(ticket);
        if files.is_empty() {
            computing.set(None);
            outcome.set(Outcome::Empty);
            return;
        }
        computing.set(Some(files.len() + judge_files.len()));
        dom::after_paint(move || {
            if generation.get_value() != ticket {
                return;
            }
            let result = run(
                &files,
                &judge_files,
                study.as_ref(),
                key.as_ref(),
                adjudication.as_ref(),
                &overrides,
                Options {
                    reveal_ids,
                    exclude_unadjudicated: Some(exclude_unadjudicated),
                    ..Options::default()
                },
            );
            computing.set(None);
            outcome.set(result);
        });
    });
    // The systems an anchor or pair may name: the study's or key's, else the report's.
    let systems = Signal::derive(move || {
        let known = context.with(|c| c.systems.clone());
        if !known.is_empty() {
            return known;
        }
        outcome.with(|o| match o {
            Outcome::Done(a) => {
                let mut all: Vec<String> = a
                    .report
                    .dimensions
                    .iter()
                    .flat_map(|d| d.systems.iter().map(|s| s.system.clone()))
                    .collect();
                all.sort();
                all.dedup();
                all
            }
            _ => Vec::new(),
        })
    });
    // Files dropped with the ratings that belong elsewhere (the study, the key), said at once.
    let not_added: RwSignal<Vec<String>> = RwSignal::new(Vec::new());
    let add = Callback::new(move |picked: Vec<FileText>| {
        let (kept, refused) = ratings_only(picked);
        not_added.set(refused);
        inputs.update(|list| list.extend(kept));
    });

    view! {
        <section class="analyse" aria-labelledby="analyse-heading">
            <h1 id="analyse-heading">"Analyse ratings"</h1>
            <p class="lead">
                "Ratings files and tidy CSVs in, the report out: the same numbers as "
                <code>"juror analyze"</code>
                {format!(" ({}). Everything stays in this browser.", defaults_in_words())}
            </p>
            <StudyAndKey study key />
            <h2>"2. Ratings files"</h2>
            <DropZone
                text="Drop ratings files (.json) and tidy CSVs here, or"
                label="Choose ratings files or CSVs"
                accept=".json,.csv,application/json,text/csv"
                on_files=add
            />
            <ChosenFiles inputs />
            <NotAdded not_added />
            <ReportStatus computing outcome />
            <JudgesChooser judges />
            <AdjudicationFile adjudication exclude_unadjudicated />
            <Show when=move || inputs.with(|list| !list.is_empty())>
                <AnalysisPlanChoices context systems overrides />
            </Show>
            <PlatformIds outcome reveal_ids />
            {move || match outcome.get() {
                Outcome::Empty => view! {
                    <p class="hint">"Choose at least one ratings file or CSV to see the report."</p>
                }
                .into_any(),
                Outcome::Blocked(reasons) => view! {
                    <section class="study-problems" id="blocked" role="alert">
                        <h2>"Nothing can be analysed yet"</h2>
                        <ul class="problems">
                            {reasons.into_iter().map(|r| view! { <li>{r}</li> }).collect_view()}
                        </ul>
                    </section>
                }
                .into_any(),
                Outcome::Done(analysis) => view! {
                    <ReportView analysis download_error entries adjudication judges />
                }
                .into_any(),
            }}
        </section>
    }
}

/// The downloads and the whole report: every section of the Markdown report, from the core's
/// table model, with the page's figures where the model places them, the files read after the
/// summary, and the adjudication form after the dimensions.
#[component]
fn ReportView(
    analysis: Arc<Analysis>,
    download_error: RwSignal<Option<String>>,
    entries: RwSignal<Entries>,
    adjudication: RwSignal<Option<FileText>>,
    /// The judges' files chosen (their sections come from the report).
    judges: RwSignal<Vec<FileText>>,
) -> impl IntoView {
    let report = &analysis.report;
    let judge_files = judges.with_untracked(Vec::len);
    let stem = file_stem(report);
    let offer = offer_to(download_error);
    let has_flags = report.dimensions.iter().any(|d| !d.flags.is_empty());
    // The adjudication file of the form: downloaded, or applied under the same name, so that the
    // report applied here equals the one from that file dropped in again.
    let adjudicated_name = format!("{stem}-adjudicated.csv");
    let download_adjudication = {
        let name = adjudicated_name.clone();
        Callback::new(move |text: String| offer(name.clone(), "text/csv", text))
    };
    let apply_adjudication = Callback::new(move |text: String| {
        adjudication.set(Some(FileText::new(adjudicated_name.clone(), text)));
    });
    let adjudication_summary = report.adjudication.as_ref().map(|a| {
        format!(
            "Adjudication {}: {} of {} score(s) applied; {} cell(s) left empty{}.",
            a.file,
            a.applied,
            a.cells,
            a.unfilled,
            if a.not_flagged > 0 {
                format!(
                    "; {} score(s) for cells that are not flagged",
                    a.not_flagged
                )
            } else {
                String::new()
            }
        )
    });
    // The report's title and summary, then the rest: the dimensions, and after them the others.
    let mut all = tables::tables(report);
    let rest = all.split_off(1.min(all.len()));
    let title = all.first().map(|s| words(&s.heading)).unwrap_or_default();
    let mut dimensions = rest;
    let others = dimensions.split_off(after_last(&dimensions, |f| {
        matches!(f, Figure::Dimension(_))
    }));
    let draw = |f: &Figure| figure(&analysis, f);
    let no_judges = (report.judges.is_empty() && judge_files > 0).then(|| {
        view! {
            <p class="hint">
                "No judge's verdicts were read from the judges' files: the problems say why."
            </p>
        }
    });
    view! {
        <section class="report" id="report" aria-label=title>
            {regions(all, 1, &draw)}
            {adjudication_summary.map(|s| view! { <p class="adjudication-summary">{s}</p> })}
            <ReportDownloads analysis=analysis.clone() download_error />
            {move || download_error.get().map(|e| view! { <p class="error" role="alert">{e}</p> })}
            <ModelTable table=inputs_table(&analysis) />
            {report.problems.is_empty().then(|| view! {
                <p class="no-problems">"No problems in the files."</p>
            })}
            {regions(dimensions, 1, &draw)}
            {has_flags.then(|| view! {
                <AdjudicationForm
                    report=analysis.report.clone()
                    labels=analysis.labels.clone()
                    entries
                    download=download_adjudication
                    apply=apply_adjudication
                />
            })}
            {regions(others, 1, &draw)}
            {no_judges}
        </section>
    }
}

/// A figure of the report where the table model places it: a dimension's charts (and its
/// flagged cells in words), its means per round, the preferences' matrix and strengths, a
/// judge's plots, the outputs' texts with their error spans.
fn figure(analysis: &Analysis, f: &Figure) -> Option<AnyView> {
    let report = &analysis.report;
    let dimension = |id: &str| report.dimensions.iter().find(|d| d.dimension == id);
    match f {
        Figure::Dimension(id) => {
            let d = dimension(id)?;
            let name = d.dimension.clone();
            let labels = analysis.labels.get(&name).cloned().unwrap_or_default();
            let flagged = match d.flags.len() {
                0 => format!("No cell of {name} is flagged."),
                1 => format!(
                    "1 cell of {name} is flagged (its annotators disagree): adjudicate it below."
                ),
                n => format!(
                    "{n} cells of {name} are flagged (their annotators disagree): adjudicate them \
                     below."
                ),
            };
            let set_aside = (d.set_aside > 0).then(|| {
                format!(
                    " {} flagged cell(s) not yet adjudicated are set aside from the systems and \
                     the comparisons.",
                    d.set_aside
                )
            });
            Some(
                view! {
                    <MeansChart name=name.clone() scale=d.scale.clone() systems=d.systems.clone() />
                    <LikertBars name scale=d.scale.clone() labels systems=d.systems.clone() />
                    <p class="flagged">{flagged}{set_aside}</p>
                }
                .into_any(),
            )
        }
        Figure::Rounds(id) => {
            let d = dimension(id)?;
            let rounds = d.rounds.clone()?;
            Some(
                view! { <rounds::RoundsChart name=d.dimension.clone() scale=d.scale.clone() rounds /> }
                    .into_any(),
            )
        }
        Figure::Preferences => {
            let p = report.preferences.clone()?;
            let strengths = p.bradley_terry.is_some().then(|| {
                let p = p.clone();
                view! { <StrengthChart preferences=p /> }
            });
            Some(
                view! {
                    <PreferenceMatrix preferences=p />
                    {strengths}
                }
                .into_any(),
            )
        }
        Figure::Judge(id) => {
            let j = report.judges.iter().find(|j| &j.judge == id)?;
            let scales = report
                .dimensions
                .iter()
                .map(|d| (d.dimension.clone(), d.scale.clone()))
                .collect();
            judges::judge_plots(j, &scales)
        }
        Figure::Spans => {
            let s = report.spans.as_ref()?;
            let texts = spans::span_texts(s, analysis);
            Some(view! { <div class="spans-view">{texts}</div> }.into_any())
        }
    }
}

/// What was read from each file, as a table of the model (the Markdown report has none: its
/// inputs are in the JSON).
fn inputs_table(analysis: &Analysis) -> Table {
    let report = &analysis.report;
    let column = |name: &str, numeric: bool| tables::Column {
        name: name.to_owned(),
        numeric,
    };
    Table {
        caption: "What was read from each file".to_owned(),
        columns: vec![
            column("File", false),
            column("Read as", false),
            column("Annotator", false),
            column("Ratings", true),
            column("Preferences", true),
            column("Problems", true),
        ],
        rows: report
            .inputs
            .iter()
            .map(|f| {
                let kind = serde_json::to_value(f.kind)
                    .ok()
                    .and_then(|v| v.as_str().map(|s| s.replace('_', " ")))
                    .unwrap_or_default();
                vec![
                    // As chosen, where the report names it by a participant's pseudonym.
                    Text::input(match analysis.given_name(&f.file) {
                        Some(given) => format!("{} (chosen as {given})", f.file),
                        None => f.file.clone(),
                    }),
                    Text::plain(kind),
                    Text::input(f.annotator.clone().unwrap_or_default()),
                    Text::plain(f.ratings.to_string()),
                    Text::plain(f.preferences.to_string()),
                    Text::plain(f.problems.to_string()),
                ]
            })
            .collect(),
    }
}

/// Offers a file for download under its name, the browser's refusal shown in `error`.
fn offer_to(error: RwSignal<Option<String>>) -> impl Fn(String, &'static str, String) + Copy {
    move |name, mime, text| error.set(download::download(&name, mime, &text).err())
}

/// The start of a downloaded file's name: `juror-<study id>`, or `juror`.
fn file_stem(report: &analysis::Report) -> String {
    report
        .settings
        .study
        .as_ref()
        .map_or_else(|| "juror".to_owned(), |id| format!("juror-{id}"))
}

/// The report's downloads: JSON, Markdown, the merged data, the answers and the adjudication
/// sheet (the last two where there is something in them).
#[component]
fn ReportDownloads(
    analysis: Arc<Analysis>,
    download_error: RwSignal<Option<String>>,
) -> impl IntoView {
    let stem = file_stem(&analysis.report);
    let offer = offer_to(download_error);
    let json = {
        let (a, stem) = (analysis.clone(), stem.clone());
        move |_| {
            offer(
                format!("{stem}-report.json"),
                "application/json",
                a.report.to_json(),
            )
        }
    };
    let markdown = {
        let (a, stem) = (analysis.clone(), stem.clone());
        move |_| {
            let text = analysis::markdown::render(&a.report);
            offer(format!("{stem}-report.md"), "text/markdown", text);
        }
    };
    let csv = {
        let (a, stem) = (analysis.clone(), stem.clone());
        move |_| {
            offer(
                format!("{stem}-data.csv"),
                "text/csv",
                analysis::to_csv(&a.data),
            )
        }
    };
    let has_answers = !analysis.data.answers.is_empty();
    let answers_csv = {
        let (a, stem) = (analysis.clone(), stem.clone());
        move |_| {
            offer(
                format!("{stem}-answers.csv"),
                "text/csv",
                analysis::answers::to_csv(&a.data.answers),
            )
        }
    };
    let has_flags = analysis
        .report
        .dimensions
        .iter()
        .any(|d| !d.flags.is_empty());
    let sheet = {
        let (a, stem) = (analysis.clone(), stem.clone());
        move |_| {
            let text = a.report.adjudication_sheet();
            offer(format!("{stem}-adjudication.csv"), "text/csv", text);
        }
    };
    view! {
        <div class="actions">
            <button type="button" on:click=json>"Download report (JSON)"</button>
            <button type="button" on:click=markdown>"Download report (Markdown)"</button>
            <button type="button" on:click=csv>"Download merged data (CSV)"</button>
            <Show when=move || has_answers>
                <button type="button" on:click=answers_csv.clone()>"Download answers (CSV)"</button>
            </Show>
            <Show when=move || has_flags>
                <button type="button" on:click=sheet.clone()>"Download adjudication sheet"</button>
            </Show>
        </div>
    }
}

/// A number as the charts write it: the core's format to three decimals (charts.rs imports
/// it by this name).
fn num(x: Option<f64>) -> String {
    fmt::num(x, 3)
}

#[cfg(test)]
mod tests {
    use super::{FileText, Outcome, Overrides, run};

    fn fixture(name: &str) -> FileText {
        let path = format!(
            "{}/crates/juror-core/tests/fixtures/analysis/{name}",
            env!("CARGO_MANIFEST_DIR")
        );
        FileText {
            name: name.to_owned(),
            text: std::fs::read_to_string(path).map_err(|e| e.to_string()),
        }
    }

    #[test]
    fn nothing_chosen_is_empty_and_a_bad_key_blocks() {
        assert_eq!(
            run(
                &[],
                &[],
                None,
                None,
                None,
                &Overrides::default(),
                Default::default()
            ),
            Outcome::Empty
        );
        let key = FileText::new("key.json", "{}");
        let inputs = [fixture("financial-slot1.json")];
        assert!(
            matches!(run(&inputs, &[], None, Some(&key), None, &Overrides::default(), Default::default()), Outcome::Blocked(r) if r.len() == 1)
        );
    }

    #[test]
    fn unreadable_files_come_first_in_the_problems() {
        let inputs = [
            FileText {
                name: "gone.json".to_owned(),
                text: Err("no".to_owned()),
            },
            fixture("financial-slot1.json"),
        ];
        let Outcome::Done(a) = run(
            &inputs,
            &[],
            None,
            None,
            None,
            &Overrides::default(),
            Default::default(),
        ) else {
            panic!("expected a report");
        };
        assert_eq!(a.report.problems[0].file, "gone.json");
        assert_eq!(a.report.settings.resamples, 2000);
    }
}
