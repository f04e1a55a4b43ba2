//! Media of an item or a worked example: a path on the app's own site and a text alternative.

use super::Checker;
use crate::study::model::*;
use crate::study::raw::*;

/// An item's or worked example's media at `at`: a path on the site and a text alternative.
pub(super) fn media(c: &mut Checker, at: &str, m: &RawMedia) -> Media {
    c.not_blank(&format!("{at}.media.src"), "media src", &m.src);
    if let Some(scheme) = blocked_scheme(&m.src, m.kind) {
        c.error(
            format!("{at}.media.src"),
            format!(
                "\"{}\" is loaded from {scheme}: the app loads nothing from outside its own site (its Content-Security-Policy blocks it, so annotators would see a broken image)",
                m.src
            ),
            "put the file next to the study file and give its path relative to the study, such as \"media/figure.png\"",
        );
    }
    if m.alt.trim().is_empty() {
        c.error(
            format!("{at}.media.alt"),
            "the media has no text alternative",
            "describe the image or video in a sentence, for annotators who use a screen reader or whose download failed",
        );
    }
    Media {
        kind: m.kind,
        src: m.src.clone(),
        alt: m.alt.clone(),
    }
}

/// How a media `src` would be fetched from outside the app's own site, if it would: another
/// site (`https://…`, `//host/…`) or any other scheme; `None` for a relative path, and for a
/// `data:` image (the page allows those). The page's CSP allows images from `'self' data:
/// blob:` and videos from `'self' blob:`, and a path in the study file cannot be a `blob:`.
pub(super) fn blocked_scheme(src: &str, kind: RawMediaKind) -> Option<String> {
    // As the browser's URL parser reads it: ASCII tabs and line breaks dropped, and `\` is `/`
    // in http(s) URLs, so `/\host/x` and `/<TAB>/host/x` are `//host/x`.
    let parsed: String = src
        .trim()
        .chars()
        .filter(|c| !matches!(c, '\t' | '\n' | '\r'))
        .map(|c| if c == '\\' { '/' } else { c })
        .collect();
    if parsed.starts_with("//") {
        return Some("another site".to_owned());
    }
    let src = parsed.as_str();
    let (scheme, _) = src.split_once(':')?;
    let is_scheme = scheme
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic())
        && scheme
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'));
    if !is_scheme {
        return None;
    }
    match scheme.to_ascii_lowercase().as_str() {
        "data" if kind == RawMediaKind::Image => None,
        "http" | "https" => Some("another site".to_owned()),
        other => Some(format!("a \"{other}:\" address")),
    }
}
