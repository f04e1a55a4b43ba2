//! The researcher's analysis page (`analyse.html`): ratings files and tidy CSVs in, the
//! `juror.report/1` report out, computed by the core's `analyze` exactly as `juror analyze` does
//! (same defaults), so the page and the command line give the same numbers. Nothing leaves the
//! browser.

mod adjudicate;
mod analysis_plan_choices;
mod charts;
mod choices;
mod details;
mod judges;
mod sections;
mod spans;

use std::sync::Arc;

use juror_core::analysis::overrides::Overrides;
use juror_core::analysis::overrides::{AnalysisPlan, Correction, Unit};
use juror_core::analysis::render::fmt;
use juror_core::analysis::report::{
    Agreement, DimensionReport, PairComparison, PreferenceReport, SystemSummary,
};
use juror_core::analysis::run::{Analysis, FileText, Request, plan_context};
use juror_core::analysis::{self, Options, Problem, Report};
use leptos::prelude::*;

use crate::components::{DataTable, DropZone, OptionalFile};
use crate::services::{dom, download};
use adjudicate::{AdjudicationForm, Entries};
use analysis_plan_choices::AnalysisPlanChoices;
use charts::{LikertBars, MeansChart, PreferenceMatrix, StrengthChart};
use choices::{AnswersView, ChoicesView};
use details::{DiagnosticsView, RoundsView};
use judges::JudgesChooser;
pub use judges::JudgesView;

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
        />
        <OptionalFile
            label="Choose the key"
            hint="The key written by juror publish (or juror seal): system tokens become system ids."
            accept=".json,application/json"
            file=key
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
    let add = Callback::new(move |picked: Vec<FileText>| {
        inputs.update(|list| list.extend(picked));
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
            <JudgesChooser judges />
            <AdjudicationFile adjudication exclude_unadjudicated />
            <Show when=move || inputs.with(|list| !list.is_empty())>
                <AnalysisPlanChoices context systems overrides />
            </Show>
            <PlatformIds outcome reveal_ids />
            <p class="hint" role="status">
                {move || computing.get().map(|n| format!("Analysing {n} file(s)…"))}
            </p>
            {move || match outcome.get() {
                Outcome::Empty => view! {
                    <p class="hint">"Choose at least one ratings file or CSV to see the report."</p>
                }
                .into_any(),
                Outcome::Blocked(reasons) => view! {
                    <section class="study-problems" role="alert">
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

/// The downloads and the whole report.
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
    let scales = report
        .dimensions
        .iter()
        .map(|d| (d.dimension.clone(), d.scale.clone()))
        .collect();
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
    let settings = &report.settings;
    let summary = format!(
        "{} ratings and {} preference judgements from {} file(s){}.",
        settings.ratings,
        settings.preferences,
        report.inputs.len(),
        settings
            .study
            .as_ref()
            .map(|s| format!(", checked against study {s}"))
            .unwrap_or_default()
    );
    view! {
        <section class="report" aria-labelledby="report-heading">
            <h2 id="report-heading">"Report"</h2>
            <p>{summary}</p>
            {report.scope.as_ref().map(|scope| {
                let text = sections::words(&analysis::render::tables::scope_summary(scope));
                view! { <p class="scope">{text}</p> }
            })}
            {adjudication_summary.map(|s| view! { <p class="adjudication-summary">{s}</p> })}
            <ReportDownloads analysis=analysis.clone() download_error />
            {move || download_error.get().map(|e| view! { <p class="error" role="alert">{e}</p> })}
            <InputsTable report=report.clone() />
            <ProblemsTable problems=report.problems.clone() />
            {report
                .dimensions
                .iter()
                .enumerate()
                .map(|(i, d)| {
                    let labels = analysis.labels.get(&d.dimension).cloned().unwrap_or_default();
                    let plan = report.settings.plan.clone();
                    let source = report.settings.plan_source;
                    view! { <DimensionView index=i dimension=d.clone() labels plan source /> }
                })
                .collect_view()}
            {has_flags.then(|| view! {
                <AdjudicationForm
                    report=analysis.report.clone()
                    labels=analysis.labels.clone()
                    entries
                    download=download_adjudication
                    apply=apply_adjudication
                />
            })}
            {report.spans.clone().map(|s| view! {
                <spans::SpansView
                    spans=s
                    rows=analysis.data.spans.clone()
                    study=analysis.study.clone()
                />
            })}
            {report.choices.clone().map(|c| view! { <ChoicesView choices=c /> })}
            {report.preferences.clone().map(|p| view! { <PreferencesView preferences=p /> })}
            {(report.graded.is_some() || !report.cannot_judge.is_empty()).then(|| {
                let sections = juror_core::analysis::render::tables::graded_tables(report);
                view! {
                    <section class="graded-view" aria-label="Graded preferences and cannot judge">
                        <sections::Sections sections below=0 />
                    </section>
                }
            })}
            {report.answers.clone().map(|a| view! { <AnswersView answers=a /> })}
            <DiagnosticsView diagnostics=report.diagnostics.clone() />
            <sections::Sections sections=analysis::render::tables::thresholds_tables(report) below=0 />
            {(!report.divergence.is_empty()).then(|| {
                let sections = analysis::render::tables::divergence_tables(report);
                view! { <sections::Sections sections below=0 /> }
            })}
            <sections::Sections sections=analysis::render::tables::hypotheses_tables(report) below=0 />
            <sections::Secondary analyses=analysis::render::tables::secondary_tables(report) />
            <JudgesView judges=report.judges.clone() scales files=judge_files />
            <section class="methods" aria-labelledby="methods-heading">
                <h3 id="methods-heading">"Methods"</h3>
                <p>{analysis::markdown::methods(report)}</p>
            </section>
        </section>
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

/// Where the plan the comparisons follow comes from, in words.
fn plan_origin(source: &str) -> &'static str {
    match source {
        "study" => "as the study pre-registers",
        "key" => "as pre-registered, kept in the key",
        "options" => "a plan chosen at analysis time: exploratory",
        _ => "the default plan",
    }
}

/// A number as the charts write it: the core's format to three decimals (charts.rs imports
/// it by this name).
fn num(x: Option<f64>) -> String {
    fmt::num(x, 3)
}

#[component]
fn InputsTable(report: Report) -> impl IntoView {
    view! {
        <table class="data-table">
            <caption>"What was read from each file"</caption>
            <thead>
                <tr>
                    <th scope="col">"File"</th>
                    <th scope="col">"Read as"</th>
                    <th scope="col">"Annotator"</th>
                    <th scope="col">"Ratings"</th>
                    <th scope="col">"Preferences"</th>
                    <th scope="col">"Problems"</th>
                </tr>
            </thead>
            <tbody>
                {report
                    .inputs
                    .into_iter()
                    .map(|f| {
                        let kind = serde_json::to_value(f.kind)
                            .ok()
                            .and_then(|v| v.as_str().map(|s| s.replace('_', " ")))
                            .unwrap_or_default();
                        view! {
                            <tr>
                                <th scope="row"><code>{f.file}</code></th>
                                <td>{kind}</td>
                                <td>{f.annotator.unwrap_or_default()}</td>
                                <td>{f.ratings}</td>
                                <td>{f.preferences}</td>
                                <td>{f.problems}</td>
                            </tr>
                        }
                    })
                    .collect_view()}
            </tbody>
        </table>
    }
}

#[component]
fn ProblemsTable(problems: Vec<Problem>) -> impl IntoView {
    let count = problems.len();
    if count == 0 {
        return view! { <p class="no-problems">"No problems in the files."</p> }.into_any();
    }
    view! {
        <section aria-labelledby="problems-heading">
            <h3 id="problems-heading">
                {if count == 1 { "1 problem".to_owned() } else { format!("{count} problems") }}
            </h3>
            <p>"The report covers everything else."</p>
            <table class="data-table problems-table">
                <caption>"Problems per file"</caption>
                <thead>
                    <tr>
                        <th scope="col">"File"</th>
                        <th scope="col">"Where"</th>
                        <th scope="col">"What"</th>
                    </tr>
                </thead>
                <tbody>
                    {problems
                        .into_iter()
                        .map(|p| {
                            view! {
                                <tr>
                                    <td><code>{p.file}</code></td>
                                    <td><code>{p.at.unwrap_or_else(|| "whole file".to_owned())}</code></td>
                                    <td>{p.message}</td>
                                </tr>
                            }
                        })
                        .collect_view()}
                </tbody>
            </table>
        </section>
    }
    .into_any()
}
/// A row per system: n, mean, SD and 95% interval over item means.
fn system_rows(list: &[SystemSummary]) -> Vec<Vec<String>> {
    list.iter()
        .map(|s| {
            vec![
                s.system.clone(),
                s.n.to_string(),
                fmt::num(Some(s.mean), 3),
                fmt::num(s.sd, 3),
                fmt::ci(s.ci95, 3),
            ]
        })
        .collect()
}

/// The agreement statistics of a dimension, a row each.
fn agreement_rows(a: &Agreement) -> Vec<Vec<String>> {
    vec![
        vec!["Fleiss' kappa".to_owned(), fmt::num(a.fleiss_kappa, 3)],
        vec![
            "Krippendorff's alpha (nominal)".to_owned(),
            fmt::num(a.krippendorff_alpha.nominal, 3),
        ],
        vec![
            "Krippendorff's alpha (ordinal)".to_owned(),
            fmt::num(a.krippendorff_alpha.ordinal, 3),
        ],
        vec![
            "Krippendorff's alpha (interval)".to_owned(),
            fmt::num(a.krippendorff_alpha.interval, 3),
        ],
        vec![
            "Percent agreement".to_owned(),
            fmt::num(a.percent_agreement, 3),
        ],
    ]
}

/// Cohen's kappa of each pair of annotators.
fn cohen_rows(a: &Agreement) -> Vec<Vec<String>> {
    a.cohen_kappa
        .iter()
        .map(|c| {
            vec![
                format!("{} – {}", c.annotator_a, c.annotator_b),
                c.units.to_string(),
                fmt::num(c.agreement, 3),
                fmt::num(c.unweighted, 3),
                fmt::num(c.linear, 3),
                fmt::num(c.quadratic, 3),
            ]
        })
        .collect()
}

/// A row per comparison: systems, hypothesis, n, difference with its interval, p-values and d_z.
fn comparison_rows(list: &[PairComparison]) -> Vec<Vec<String>> {
    list.iter()
        .map(|c| {
            let relation = c.alternative.relation();
            vec![
                format!("{} vs {}", c.system_a, c.system_b),
                format!(
                    "{}A {relation} B{}{}",
                    c.hypothesis
                        .as_ref()
                        .map_or(String::new(), |h| format!("{h}: ")),
                    if c.exploratory { " (exploratory)" } else { "" },
                    c.non_inferiority.map_or(String::new(), |ni| format!(
                        "; not worse by {}: p (t) {}, p (Wilcoxon) {}",
                        ni.margin,
                        fmt::p_value(ni.p_t),
                        fmt::p_value(ni.p_wilcoxon)
                    ))
                ),
                c.n.to_string(),
                fmt::num(c.mean_diff, 3),
                c.mean_diff_ci95.map_or(fmt::DASH.to_owned(), |ci| {
                    format!(
                        "{} to {}",
                        fmt::num(Some(ci.low), 3),
                        fmt::num(Some(ci.high), 3)
                    )
                }),
                fmt::p_value(c.t_test.map(|t| t.p_value)),
                fmt::p_value(c.wilcoxon.map(|w| w.p_value)),
                fmt::p_value(c.p_adjusted),
                match c.d_z_ci95 {
                    Some(ci) => format!(
                        "{} ({} to {})",
                        fmt::num(c.d_z, 3),
                        fmt::num(Some(ci.low), 3),
                        fmt::num(Some(ci.high), 3)
                    ),
                    None => fmt::num(c.d_z, 3),
                },
            ]
        })
        .collect()
}

/// Rows of a breakdown: a heading, its name in captions, the systems' and the comparisons'.
type Breakdown = (String, String, Vec<Vec<String>>, Vec<Vec<String>>);

/// The dimension per item group, then per answer to the intake `question`.
fn breakdowns(d: &DimensionReport, question: &str) -> Vec<Breakdown> {
    d.groups
        .iter()
        .map(|g| {
            (
                format!(
                    "Item group {} ({} items; a breakdown, p not corrected)",
                    g.label(),
                    g.items
                ),
                format!("group {}", g.label()),
                system_rows(&g.systems),
                comparison_rows(&g.comparisons),
            )
        })
        .chain(d.intake_groups.iter().map(|g| {
            (
                format!(
                    "Annotators who answered \"{}\" to {question} ({} items; a breakdown, p not corrected)",
                    g.group, g.items
                ),
                format!("answer \"{}\" to {question}", g.group),
                system_rows(&g.systems),
                comparison_rows(&g.comparisons),
            )
        }))
        .collect()
}

#[component]
fn DimensionView(
    index: usize,
    dimension: DimensionReport,
    labels: Vec<(f64, String)>,
    /// The analysis plan the comparisons follow, and where it came from.
    plan: AnalysisPlan,
    source: &'static str,
) -> impl IntoView {
    let d = dimension;
    let heading_id = format!("dimension-{index}");
    let labelled_by = heading_id.clone();
    let name = d.dimension.clone();
    // The study's label, with the id the data use.
    let title = format!("Dimension: {}", d.title());
    let a = d.agreement.clone();
    let facts = format!(
        "{} ratings of {} items by {} annotators.",
        d.ratings, d.items, d.annotators
    );
    let systems = system_rows(&d.systems);
    // Each system's mean z-score beside its raw mean, with the annotators left out.
    let standardised = d.standardised.as_ref().map(|z| {
        let rows: Vec<Vec<String>> = z
            .systems
            .iter()
            .map(|s| {
                vec![
                    s.system.clone(),
                    s.n.to_string(),
                    fmt::num(Some(s.raw_mean), 2),
                    fmt::num(Some(s.mean_z), 3),
                    fmt::num(s.sd_z, 3),
                    fmt::ci(s.ci95_z, 3),
                ]
            })
            .collect();
        let left_out: Vec<String> = z
            .left_out
            .iter()
            .map(|l| format!("{} ({} ratings): {}", l.annotator, l.ratings, l.reason))
            .collect();
        (rows, left_out)
    });
    let agreement = agreement_rows(&a);
    let cohen = cohen_rows(&a);
    let comparisons = comparison_rows(&d.comparisons);
    let contrasts = comparison_rows(&d.contrasts);
    let groups = breakdowns(&d, plan.by_intake.as_deref().unwrap_or_default());
    let unit = match plan.unit {
        Unit::Item => "items",
        Unit::Annotator => "annotators",
    };
    let correction = match plan.correction {
        Correction::Holm => "Holm",
        Correction::Bonferroni => "Bonferroni",
        Correction::None => "unadjusted",
    };
    let flagged = d.flags.len();
    let set_aside = d.set_aside;
    let rounds = d.rounds.clone();
    view! {
        <section class="dimension" aria-labelledby=labelled_by>
            <h3 id=heading_id>{title}</h3>
            <p>{facts}</p>
            <DataTable
                caption=format!("Systems on {name} (over item means)")
                columns=&["System", "n", "Mean", "SD", "95% CI"]
                rows=systems
            />
            {standardised.map(|(rows, left_out)| view! {
                <DataTable
                    caption=format!("Standardised per annotator on {name} (z-scores; the comparisons are tested on them)")
                    columns=&["System", "n", "Raw mean", "Mean z", "SD of z", "95% CI of z"]
                    rows
                />
                {(!left_out.is_empty()).then(|| view! {
                    <p>"Left out of the z-scores and the tests: " {left_out.join("; ")}</p>
                })}
            })}
            <MeansChart name=name.clone() scale=d.scale.clone() systems=d.systems.clone() />
            <LikertBars name=name.clone() scale=d.scale.clone() labels systems=d.systems.clone() />
            <DataTable
                caption=format!("Agreement on {name} ({} cells rated twice or more)", a.units)
                columns=&["Statistic", "Value"]
                rows=agreement
            />
            {(!cohen.is_empty()).then(|| view! {
                <DataTable
                    caption=format!("Cohen's kappa per pair of annotators on {name}")
                    columns=&["Annotators", "Units", "Agreement", "Unweighted", "Linear", "Quadratic"]
                    rows=cohen
                />
            })}
            {(!comparisons.is_empty()).then(|| view! {
                <DataTable
                    caption=format!("Paired comparisons on {name}, paired on {unit} ({}; p adjusted: {correction})", plan_origin(source))
                    columns=&["Systems", "Hypothesis", "n", "Mean difference", "95% CI", "p (t)", "p (Wilcoxon)", "p (adjusted)", "d_z (95% CI)"]
                    rows=comparisons
                />
            })}
            {groups
                .into_iter()
                .map(|(heading, group, systems, comparisons)| {
                    let name = name.clone();
                    view! {
                        <h4>{heading}</h4>
                        <DataTable
                            caption=format!("Systems on {name} in {group}")
                            columns=&["System", "n", "Mean", "SD", "95% CI"]
                            rows=systems
                        />
                        {(!comparisons.is_empty()).then(|| view! {
                            <DataTable
                                caption=format!("Paired comparisons on {name} in {group}")
                                columns=&["Systems", "Hypothesis", "n", "Mean difference", "95% CI", "p (t)", "p (Wilcoxon)", "p (adjusted)", "d_z (95% CI)"]
                                rows=comparisons
                            />
                        })}
                    }
                })
                .collect_view()}
            {(!contrasts.is_empty()).then(|| view! {
                <DataTable
                    caption=format!("Contrasts of groups of systems on {name}, paired on {unit} (each group's mean)")
                    columns=&["Groups", "Contrast", "n", "Mean difference", "95% CI", "p (t)", "p (Wilcoxon)", "p (adjusted)", "d_z (95% CI)"]
                    rows=contrasts
                />
            })}
            {rounds.map(|rounds| view! { <RoundsView name=name.clone() scale=d.scale.clone() rounds /> })}
            <p>
                {match flagged {
                    0 => format!("No cell of {name} is flagged."),
                    1 => format!("1 cell of {name} is flagged (its annotators disagree): adjudicate it below."),
                    n => format!("{n} cells of {name} are flagged (their annotators disagree): adjudicate them below."),
                }}
                {(set_aside > 0).then(|| format!(
                    " {set_aside} flagged cell(s) not yet adjudicated are set aside from the systems and the comparisons."
                ))}
            </p>
        </section>
    }
}
#[component]
fn PreferencesView(preferences: PreferenceReport) -> impl IntoView {
    let p = preferences;
    let chart = p.clone();
    let ranking = p.bradley_terry.as_ref().map(|bt| {
        let mut scores: Vec<_> = bt.scores.iter().map(|(s, v)| (s.clone(), *v)).collect();
        scores.sort_by(|a, b| b.1.score.total_cmp(&a.1.score));
        let note = if bt.strongly_connected {
            ""
        } else {
            " The comparison graph is not strongly connected: some strengths are not identified."
        };
        let rows: Vec<Vec<String>> = scores
            .into_iter()
            .enumerate()
            .map(|(i, (system, s))| {
                vec![(i + 1).to_string(), system, fmt::num(Some(s.score), 3), fmt::ci(s.ci, 3)]
            })
            .collect();
        view! {
            <DataTable
                caption=format!("Bradley–Terry ranking (strengths sum to 1; {} bootstrap resamples).{note}", bt.resamples)
                columns=&["Rank", "System", "Strength", "95% CI"]
                rows
                header=1
            />
            <StrengthChart preferences=chart.clone() />
        }
    });
    let pairs: Vec<Vec<String>> = p
        .pairs
        .iter()
        .map(|pair| {
            vec![
                format!("{} vs {}", pair.system_a, pair.system_b),
                pair.wins.to_string(),
                pair.losses.to_string(),
                pair.ties.to_string(),
                fmt::num(pair.win_rate, 3),
                fmt::ci(pair.wilson, 3),
                fmt::p_value(pair.p_value),
            ]
        })
        .collect();
    view! {
        <section class="preferences" aria-labelledby="preferences-heading">
            <h3 id="preferences-heading">"Pairwise preferences"</h3>
            <p>
                {format!("{} pairwise judgements.", p.judgements)}
                {(p.derived_from_choices > 0).then(|| format!(
                    " {} of them are derived from best-of-N choices and rankings (each choice a win over every other output shown): a secondary view of the choices above.",
                    p.derived_from_choices
                ))}
            </p>
            <DataTable
                caption="Each pair of systems: wins of the first, with Wilson interval and binomial test".to_owned()
                columns=&["Pair", "Wins", "Losses", "Ties", "Win rate", "95% CI (Wilson)", "p"]
                rows=pairs
            />
            <PreferenceMatrix preferences=p.clone() />
            {ranking}
        </section>
    }
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
