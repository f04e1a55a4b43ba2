//! Everything that touches the browser: the page's address, fetching and reading files.
//! Components call these functions; nothing else in `src/` uses `web_sys` directly.

pub mod location;
pub mod study_source;
