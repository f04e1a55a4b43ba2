//! The time, in milliseconds since the Unix epoch.

/// Now.
pub fn now() -> f64 {
    js_sys::Date::now()
}
