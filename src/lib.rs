//! The web shell of Juror: Leptos components that render the core's model and hand user
//! actions back to it. `services` is the only module that touches browser APIs.

pub mod analyse;
mod app;
pub mod components;
pub mod first;
pub mod pages;
pub mod services;
pub mod session;

pub use app::{AnalyseApp, App};
