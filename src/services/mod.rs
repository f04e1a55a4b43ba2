//! Everything that touches the browser: the address, fetching and reading files, storage,
//! downloads, the clock, focus. Components call these functions; nothing else in `src/` uses
//! `web_sys` directly.

pub mod clock;
pub mod dom;
pub mod download;
pub mod location;
pub mod offline;
pub mod storage;
pub mod study_source;
pub mod submit;
pub mod welcome_page;
