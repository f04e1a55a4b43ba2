//! Text from input files made visible: the characters that act on a terminal or a reader
//! instead of showing are written as escapes (`\u{1b}`, `\u{202e}`). Two kinds act:
//! control characters (C0, DEL, C1), which a terminal runs as commands (erase a line, move the
//! cursor, write the clipboard), and Unicode's bidirectional controls, which reorder what
//! follows them (an annotator id `\u{202e}evil` reads backwards, and can make an id or a
//! number look like another). The terminal ([`escape`]) and the Markdown report use these.

use std::borrow::Cow;

/// Whether `c` is a bidirectional control: the embeddings and overrides U+202A–U+202E, the
/// isolates U+2066–U+2069, and the marks U+200E, U+200F and U+061C.
pub fn is_bidi_control(c: char) -> bool {
    matches!(
        c,
        '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{200e}' | '\u{200f}' | '\u{061c}'
    )
}

/// Whether `c` acts rather than shows: a control character (C0, DEL, C1) other than line feed
/// and tab, or a bidirectional control.
pub fn acts(c: char) -> bool {
    (c.is_control() && c != '\n' && c != '\t') || is_bidi_control(c)
}

/// `text` with every character that [`acts`] written as its escape (`\u{1b}`), line feeds and
/// tabs kept.
pub fn escape(text: &str) -> Cow<'_, str> {
    if !text.chars().any(acts) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if acts(c) {
            out.extend(c.escape_unicode());
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::{acts, escape};

    #[test]
    fn controls_and_bidi_controls_are_escaped_and_the_rest_kept() {
        assert_eq!(escape("plain\ttext\nnext"), "plain\ttext\nnext");
        assert_eq!(escape("café ✓ שלום"), "café ✓ שלום");
        assert_eq!(escape("\u{1b}[2K\r"), "\\u{1b}[2K\\u{d}");
        // An id that reads backwards, an isolate, and the three marks.
        assert_eq!(
            escape("ann-\u{202e}1gnp.exe\u{2066}x\u{2069}\u{200e}\u{200f}\u{61c}"),
            "ann-\\u{202e}1gnp.exe\\u{2066}x\\u{2069}\\u{200e}\\u{200f}\\u{61c}"
        );
        for c in [
            '\u{202a}', '\u{202b}', '\u{202c}', '\u{202d}', '\u{2067}', '\u{2068}',
        ] {
            assert!(acts(c), "{c:?}");
        }
        // Neighbours of the ranges are ordinary characters.
        for c in [
            '\u{2029}', '\u{202f}', '\u{2065}', '\u{206a}', '\u{200d}', '\u{061b}',
        ] {
            assert!(!acts(c), "{c:?}");
        }
    }
}
