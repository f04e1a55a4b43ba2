//! The study file, the whole of its format: the text as written ([`raw`]), the validated model
//! ([`model`]), validation ([`validate`](mod@validate)) with the caps on its counts ([`limits`]), the pre-registered analysis plan of its
//! `analysis` section ([`analysis_plan`]: its types; the study's own reader keeps the section as
//! written, and the analysis reads it, see [`PlanReader`]), the plans a published study carries
//! ([`published`]), the published JSON Schema ([`schema`]) and the [`warnings`] about a valid
//! study. Nothing here knows how plans are made or how a study is analysed: those floors stand
//! on this one.

pub mod analysis_plan;
pub mod ask;
pub mod from_json;
pub mod limits;
pub mod model;
pub mod published;
pub mod raw;
mod shapes;
pub mod validate;
pub mod warnings;

pub use model::*;
pub use raw::{RawStudy, STUDY_FORMAT_V1};
pub use validate::{
    PlanReader, Problem, Problems, parse_study, parse_study_with, read_placed, validate,
    validate_with,
};

/// The JSON Schema of `juror.study/1`, generated from [`RawStudy`], pretty-printed with a
/// trailing newline: exactly the text committed at `assets/schema/study.v1.json`.
pub fn schema() -> String {
    let mut schema = schemars::schema_for!(RawStudy);
    schema.insert(
        "$id".to_owned(),
        serde_json::Value::String("https://juror.invalid/schema/study.v1.json".to_owned()),
    );
    let mut text = serde_json::to_string_pretty(&schema).unwrap_or_default();
    text.push('\n');
    text
}
