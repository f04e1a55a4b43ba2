//! The web shell of Juror: Leptos components that render the core's model and hand user
//! actions back to it. Bottom up (each imports only from those before it:
//! `crates/juror-cli/tests/it/shell_layers.rs`): `services`, the browser's APIs; `components`;
//! `session`; `controls`; the pages (`annotator`, and the researcher's `analyse`); `boot`, when
//! code loads; `app`. `services`, and `boot` for the page it shows before the app, are the only
//! modules that call browser APIs.

pub mod analyse;
pub mod annotator;
mod app;
pub mod boot;
pub mod components;
pub mod controls;
pub mod services;
pub mod session;

pub use app::{AnalyseApp, App};
