//! Writing to the terminal. Messages quote what input files contain (ids, names, a file's own
//! error text), and a forged file could put terminal escape sequences there: erase the lines
//! above (a warning about that very file), move the cursor, or write the clipboard (OSC 52);
//! or Unicode's bidirectional controls, which make an id read backwards or look like another.
//! On a terminal, every control character but line feed and tab, and every bidirectional
//! control, is shown escaped instead (`\u{1b}`, `\u{202e}`: [`juror_core::base::visible`]); output
//! redirected to a file or a pipe is written byte for byte, since it is data (a CSV's quoted
//! fields may hold any character).

use std::borrow::Cow;
use std::io::{IsTerminal, Write};

/// `text` as a terminal shows it: every control character (C0, DEL, C1) but line feed and tab,
/// and every bidirectional control, escaped.
pub fn escape_controls(text: &str) -> Cow<'_, str> {
    juror_core::base::visible::escape(text)
}

fn write(mut to: impl Write + IsTerminal, text: &str) {
    let text = if to.is_terminal() {
        escape_controls(text)
    } else {
        Cow::Borrowed(text)
    };
    // A closed pipe (`juror ... | head`) is not an error worth a panic.
    let _ = to.write_all(text.as_bytes());
}

/// Writes to standard output (see the module docs).
pub fn out(text: &str) {
    write(std::io::stdout().lock(), text);
}

/// Writes to standard error (see the module docs).
pub fn err(text: &str) {
    write(std::io::stderr().lock(), text);
}

#[cfg(test)]
mod tests {
    use super::escape_controls;

    #[test]
    fn escape_sequences_are_shown_not_run() {
        assert_eq!(
            escape_controls("plain text\nnext\tcol"),
            "plain text\nnext\tcol"
        );
        // Erase the line, carriage return, cursor up: a forged `format` field hiding a warning.
        assert_eq!(
            escape_controls("\u{1b}[2K\r\u{1b}[1Aok"),
            "\\u{1b}[2K\\u{d}\\u{1b}[1Aok"
        );
        // OSC 52 (clipboard) ended by BEL; DEL; a C1 CSI.
        assert_eq!(
            escape_controls("a\u{1b}]52;c;eA==\u{7}b\u{7f}\u{9b}"),
            "a\\u{1b}]52;c;eA==\\u{7}b\\u{7f}\\u{9b}"
        );
        assert_eq!(escape_controls("café ✓"), "café ✓");
        // A right-to-left override makes `ann-7\u{202e}lmth.exe` read as "ann-7exe.html"; an
        // isolate and a mark hide inside an id.
        assert_eq!(
            escape_controls("ann-7\u{202e}lmth.exe \u{2067}p1\u{2069}\u{200f}"),
            "ann-7\\u{202e}lmth.exe \\u{2067}p1\\u{2069}\\u{200f}"
        );
    }
}
