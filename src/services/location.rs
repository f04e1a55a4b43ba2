//! The page's address.

/// The page address's query as it was when read ([`query`]), parsed once for the several
/// parameters a page looks up (the first page looks up a dozen).
pub struct Query(Option<web_sys::UrlSearchParams>);

/// The page address's query as it is now.
pub fn query() -> Query {
    let search = web_sys::window().and_then(|w| w.location().search().ok());
    Query(search.and_then(|s| web_sys::UrlSearchParams::new_with_str(&s).ok()))
}

impl Query {
    /// The value of the parameter `name`, if present and not empty.
    pub fn get(&self, name: &str) -> Option<String> {
        self.0.as_ref()?.get(name).filter(|v| !v.trim().is_empty())
    }

    /// Whether the parameter `name` is there, even without a value (`?analyse`).
    pub fn has(&self, name: &str) -> bool {
        self.0.as_ref().is_some_and(|params| params.has(name))
    }
}

/// The value of the query parameter `name` in the page's address, if present and not empty.
pub fn query_param(name: &str) -> Option<String> {
    query().get(name)
}

/// Whether the page's address has the query parameter `name`, even without a value
/// (`?analyse`).
pub fn has_param(name: &str) -> bool {
    query().has(name)
}

/// The names of the page address's query parameters, in order (`?sutdy=a&slot=1` gives `sutdy`,
/// `slot`).
pub fn param_names() -> Vec<String> {
    let Some(search) = web_sys::window().and_then(|w| w.location().search().ok()) else {
        return Vec::new();
    };
    search
        .trim_start_matches('?')
        .split('&')
        .filter_map(|pair| pair.split('=').next())
        .filter(|name| !name.is_empty())
        .map(|name| {
            js_sys::decode_uri_component(&name.replace('+', " "))
                .map_or_else(|_| name.to_owned(), String::from)
        })
        .collect()
}

/// The page address's query and fragment as written (`?study=a.json&slot=1#x`), for sending the
/// same parameters to another page.
pub fn search_and_hash() -> String {
    let Some(location) = web_sys::window().map(|w| w.location()) else {
        return String::new();
    };
    let search = location.search().unwrap_or_default();
    let hash = location.hash().unwrap_or_default();
    format!("{search}{hash}")
}

/// Goes to `url` (relative to the page) without leaving the current address in the history.
pub fn replace(url: &str) {
    if let Some(window) = web_sys::window() {
        let _ = window.location().replace(url);
    }
}

/// Replaces the page's `slot` and `annotator` parameters (without reloading), so that a reload
/// finds the same annotator's saved answers.
pub fn set_annotator(slot: u32, id: Option<&str>) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let location = window.location();
    let (Ok(search), Ok(path)) = (location.search(), location.pathname()) else {
        return;
    };
    let Ok(params) = web_sys::UrlSearchParams::new_with_str(&search) else {
        return;
    };
    params.set("slot", &slot.to_string());
    match id {
        Some(id) => params.set("annotator", id),
        None => params.delete("annotator"),
    }
    let url = format!("{path}?{}", String::from(params.to_string()));
    if let Ok(history) = window.history() {
        let _ = history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url));
    }
}
