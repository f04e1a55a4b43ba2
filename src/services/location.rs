//! The page's address.

/// The value of the query parameter `name` in the page's address, if present and not empty.
pub fn query_param(name: &str) -> Option<String> {
    let search = web_sys::window()?.location().search().ok()?;
    let params = web_sys::UrlSearchParams::new_with_str(&search).ok()?;
    params.get(name).filter(|v| !v.trim().is_empty())
}
