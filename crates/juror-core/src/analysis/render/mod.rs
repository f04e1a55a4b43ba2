//! Writing a report out: Markdown for a paper ([`markdown`]) and CSV (the tidy tables and the
//! adjudication sheet, [`csv`]). The JSON is the report's own serialisation
//! ([`crate::analysis::Report::to_json`]).

mod answers;
pub mod csv;
pub mod markdown;
