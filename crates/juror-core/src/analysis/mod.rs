//! The analysis report: inputs → tidy tables → `juror.report/1`.
//!
//! The code runs in stages, each importing only the ones before it:
//! - [`data`]: [`Input`], the tidy rows ([`RatingRow`], [`PreferenceRow`], choices, answers,
//!   trials) with their [`Source`], [`Problem`], [`Data`], and the small pieces every later
//!   stage shares (intervals, shares, how a number is written);
//! - [`read`]: ratings files (`juror.ratings/1`) and tidy CSVs into [`Data`]: each
//!   annotator's latest complete ratings file (earlier ones, backups, superseded), the systems
//!   and dimensions capped, then duplicates out;
//! - the topics, each computing its part of the report from rows: [`choices`], [`answers`],
//!   [`diagnostics`], [`rounds`], [`adjudication`] (an expert's scores for disputed cells),
//!   [`judges`] (automatic judges' verdicts against the human ratings), [`spans`] (error spans:
//!   errors per system, the MQM score, span agreement);
//! - [`report()`] ([`Report`], with its [`Options`]): per dimension the systems' summaries,
//!   agreement, paired comparisons and flagged cells, and the pairwise preferences;
//! - [`render`]: [`markdown::render`], the tidy CSV ([`to_csv`]) and
//!   [`Report::adjudication_sheet`]; [`Report::to_json`] is the report's own;
//! - [`run`]: the one entry point `juror analyze` and the Analyse page share; [`slot`]: which
//!   file goes where (a study and key swapped, said where they are given).
//!
//! Beside them: [`overrides`] (the analysis plan and its overrides), [`plan_reader`] (a study read
//! with its plan: the researcher's paths read studies there), [`power`] (`juror power`),
//! [`payments`] (`juror payments`: the evidence to check before paying participants),
//! [`name`] (shared names).
//!
//! Every statistic is one call of [`crate::stats`]; the conventions (what a unit is, how
//! preferences are read from ratings files, what adjudication replaces) are in
//! `docs/analysis.md`.
//!
//! Invariants: nothing here reads files or a clock (the caller passes texts in); the same inputs
//! in the same order and the same options give the same report, byte for byte.

pub mod adjudication;
pub mod answers;
pub mod choices;
pub mod data;
pub mod diagnostics;
pub mod judges;
pub mod name;
pub mod overrides;
pub mod payments;
pub mod plan_reader;
pub mod power;
pub mod read;
pub mod render;
pub mod report;
pub mod rounds;
pub mod run;
pub mod sizing;
pub mod slot;
pub mod spans;

pub use adjudication::Adjudication;
pub use data::{
    Data, FileSummary, Input, InputKind, PreferenceRow, Problem, RatingRow, Source, SpanRow,
    TrialRow,
};
pub use read::{Context, read};
pub use render::csv::to_csv;
pub use render::markdown;
pub use report::{Options, REPORT_FORMAT_V1, Report, report};

use crate::study::Study;

/// Reads the inputs and the adjudication file and computes the report: [`read`] then
/// [`report()`]. The report's `problems` hold every problem, of the inputs and of the
/// adjudication file.
pub fn analyze(
    inputs: &[Input<'_>],
    context: &Context,
    adjudication: Option<&Input<'_>>,
    options: &Options,
) -> (Data, Report) {
    let data = read(inputs, context);
    let report = report_of(&data, context, adjudication, options);
    (data, report)
}

/// The report of data already read: [`analyze`]'s second half, which [`run::run`] times apart.
pub fn report_of(
    data: &Data,
    context: &Context,
    adjudication: Option<&Input<'_>>,
    options: &Options,
) -> Report {
    let study: Option<&Study> = context.study.map(|(s, _)| s);
    let scales = study.map(scales).unwrap_or_default();
    let adjudication = adjudication.map(|input| Adjudication::read(input, &scales));
    report::report_with_key(data, study, context.key, adjudication.as_ref(), options)
}

/// The points of each of the study's dimensions' scales, which an adjudicated score must be one
/// of.
fn scales(study: &Study) -> adjudication::Scales {
    let dimensions = study.rubric().dimensions.iter();
    dimensions
        .map(|d| {
            let points = d.scale.points.iter().map(|p| f64::from(p.value));
            (d.id.clone(), points.collect())
        })
        .collect()
}

/// The JSON Schema of `juror.report/1`, generated from [`Report`], as committed at
/// `assets/schema/report.v1.json`. It describes what the writer writes (schemars' serialize
/// contract): a field omitted when empty is optional, not required.
pub fn schema() -> String {
    let mut schema = schemars::generate::SchemaSettings::draft2020_12()
        .for_serialize()
        .into_generator()
        .into_root_schema_for::<Report>();
    schema.insert(
        "$id".to_owned(),
        serde_json::Value::String("https://juror.invalid/schema/report.v1.json".to_owned()),
    );
    let mut text = serde_json::to_string_pretty(&schema).unwrap_or_default();
    text.push('\n');
    text
}
