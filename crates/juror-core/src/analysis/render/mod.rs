//! Writing a report out. [`tables`] turns it into sections of paragraphs and tables, every
//! number formatted by [`fmt`]; [`markdown`] writes those for a paper, with the methods
//! paragraph of [`methods`]; [`csv`] writes the tidy tables and the adjudication sheet. The
//! JSON is the report's own serialisation ([`crate::analysis::Report::to_json`]).

pub mod csv;
pub mod fmt;
pub mod markdown;
pub mod methods;
pub mod tables;
pub mod wide;
