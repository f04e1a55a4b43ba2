//! A small RFC 4180 reader and writer, enough for tidy tables of ratings.
//!
//! # Reading
//! Records end at a line break (CRLF or LF; a lone CR is kept as text), fields are separated by
//! commas, and a field that starts with `"` runs to the matching `"`, with `""` standing for one
//! quote; it may hold commas and line breaks. A byte-order mark at the start is skipped, and
//! blank lines (no characters at all) are skipped. Each record keeps the line it starts on, so
//! that a problem can say where it is even after a quoted field that spans lines.
//!
//! Lenient where spreadsheets are sloppy, strict where data would be lost: a `"` inside an
//! unquoted field is kept as text; text after a closing quote (other than a comma or the end of
//! the line) and a quoted field that never closes are errors with their line and column.
//!
//! # Writing
//! [`field`] quotes a field when it holds a comma, a quote or a line break, and puts a `'` before
//! a field that starts with `=`, `+`, `-`, `@`, a tab or a carriage return and is not a number, so that a spreadsheet
//! shows it instead of running it as a formula (as the ratings file's CSV export does). Readers
//! of tidy tables undo that prefix ([`undefuse`]), so a file written here reads back the same.

use std::borrow::Cow;
use std::fmt;

/// One record: its fields and the line (from 1) where it starts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Record {
    pub line: usize,
    pub fields: Vec<String>,
}

/// Why the text is not CSV, and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CsvError {
    /// Line, from 1.
    pub line: usize,
    /// Column in characters, from 1.
    pub column: usize,
    pub message: String,
}

impl fmt::Display for CsvError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "line {}, column {}: {}",
            self.line, self.column, self.message
        )
    }
}

impl std::error::Error for CsvError {}

/// Reads every record of `text`.
///
/// # Errors
/// The first quoted field that never closes or has text after its closing quote.
pub fn parse(text: &str) -> Result<Vec<Record>, CsvError> {
    let mut records = Vec::new();
    for_each_record(text, |line, fields| {
        records.push(Record {
            line,
            fields: fields.iter().map(|f| f.as_ref().to_owned()).collect(),
        });
    })?;
    Ok(records)
}

/// Calls `f` with each record of `text` in turn: the line it starts on and its fields, borrowed
/// from `text` (a field is copied only when it holds a doubled quote). Nothing is allocated per
/// record: this is how a large table is read ([`parse`] collects the same records).
///
/// # Errors
/// The first quoted field that never closes or has text after its closing quote; `f` has then
/// seen the records before it, which the caller should drop.
pub fn for_each_record<'a>(
    text: &'a str,
    mut f: impl FnMut(usize, &[Cow<'a, str>]),
) -> Result<(), CsvError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let bytes = text.as_bytes();
    let len = bytes.len();
    // Column numbers (in characters) are worked out only for an error, from the line's start.
    let column = |line_start: usize, at: usize| text[line_start..at].chars().count() + 1;
    let mut fields: Vec<Cow<'a, str>> = Vec::new();
    let (mut i, mut line, mut line_start) = (0usize, 1usize, 0usize);
    while i < len {
        // A blank line (no characters at all) is no record.
        if bytes[i] == b'\n' || (bytes[i] == b'\r' && bytes.get(i + 1) == Some(&b'\n')) {
            i += if bytes[i] == b'\n' { 1 } else { 2 };
            line += 1;
            line_start = i;
            continue;
        }
        let record_line = line;
        fields.clear();
        loop {
            if bytes.get(i) == Some(&b'"') {
                let (open, open_line, open_column) = (i, line, column(line_start, i));
                let mut owned: Option<String> = None;
                let mut piece = i + 1;
                let mut j = i + 1;
                loop {
                    match find2(&bytes[j..], b'"', b'\n') {
                        None => {
                            return Err(CsvError {
                                line: open_line,
                                column: open_column,
                                message: "this quoted field never closes: a `\"` is missing \
                                          (write a quote inside a quoted field as `\"\"`)"
                                    .into(),
                            });
                        }
                        Some(k) if bytes[j + k] == b'\n' => {
                            j += k + 1;
                            line += 1;
                            line_start = j;
                        }
                        Some(k) if bytes.get(j + k + 1) == Some(&b'"') => {
                            // A doubled quote: one quote of text.
                            owned
                                .get_or_insert_with(String::new)
                                .push_str(&text[piece..=j + k]);
                            j += k + 2;
                            piece = j;
                        }
                        Some(k) => {
                            j += k;
                            break;
                        }
                    }
                }
                fields.push(match owned {
                    Some(mut s) => {
                        s.push_str(&text[piece..j]);
                        Cow::Owned(s)
                    }
                    None => Cow::Borrowed(&text[open + 1..j]),
                });
                i = j + 1;
                // After the closing quote: a comma, a line break or the end.
                let ok = match bytes.get(i) {
                    None | Some(b',') | Some(b'\n') => true,
                    Some(b'\r') => matches!(bytes.get(i + 1), None | Some(b'\n')),
                    Some(_) => false,
                };
                if !ok {
                    return Err(after_quote(line, column(line_start, i)));
                }
            } else {
                let start = i;
                i += find2(&bytes[i..], b',', b'\n').unwrap_or(len - i);
                // A carriage return before the line feed ends the line; a lone one is text.
                let end = if bytes.get(i) == Some(&b'\n') && i > start && bytes[i - 1] == b'\r' {
                    i - 1
                } else {
                    i
                };
                fields.push(Cow::Borrowed(&text[start..end]));
            }
            match bytes.get(i) {
                Some(b',') => i += 1,
                Some(b'\r') => {
                    // Only after a closing quote, and before a line feed or the end.
                    i += 2;
                    line += 1;
                    line_start = i;
                    break;
                }
                Some(_) => {
                    i += 1;
                    line += 1;
                    line_start = i;
                    break;
                }
                None => break,
            }
        }
        f(record_line, &fields);
    }
    Ok(())
}

fn after_quote(line: usize, column: usize) -> CsvError {
    CsvError {
        line,
        column,
        message: "text after the closing quote of a field; quote the whole field, or write a \
                  quote inside it as `\"\"`"
            .into(),
    }
}

/// What a spreadsheet may read as the start of a formula (OWASP's list: `=`, `+`, `-`, `@`,
/// and a leading tab or carriage return, which some imports strip before looking).
const FORMULA_STARTS: [char; 6] = ['=', '+', '-', '@', '\t', '\r'];

/// Whether `s` is a number as `str::parse::<f64>` reads one (a sign; digits with at most one
/// point, at least one digit; an exponent `e` or `E` with a sign and digits; or `inf`,
/// `infinity`, `nan` in any case), decided without the float parser, whose tables would
/// otherwise be in the annotator's wasm for this one check.
fn is_number_text(s: &str) -> bool {
    let digits = |t: &str| t.bytes().all(|b| b.is_ascii_digit());
    let unsigned = s.strip_prefix(['+', '-']).unwrap_or(s);
    if ["inf", "infinity", "nan"]
        .iter()
        .any(|w| unsigned.eq_ignore_ascii_case(w))
    {
        return true;
    }
    let (mantissa, exponent) = match unsigned.split_once(['e', 'E']) {
        Some((m, e)) => (m, Some(e)),
        None => (unsigned, None),
    };
    let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let mantissa_ok =
        digits(whole) && digits(fraction) && !(whole.is_empty() && fraction.is_empty());
    let exponent_ok = exponent.is_none_or(|e| {
        let e = e.strip_prefix(['+', '-']).unwrap_or(e);
        !e.is_empty() && digits(e)
    });
    mantissa_ok && exponent_ok
}

/// One field as RFC 4180 writes it, with spreadsheet formulas defused (see the module docs).
pub fn field(s: &str) -> String {
    let s = if s.starts_with(FORMULA_STARTS) && !is_number_text(s) {
        format!("'{s}")
    } else {
        s.to_owned()
    };
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s
    }
}

/// One record: fields joined by commas, ended by a line feed.
pub fn line<S: AsRef<str>>(fields: &[S]) -> String {
    let mut out = fields
        .iter()
        .map(|f| field(f.as_ref()))
        .collect::<Vec<_>>()
        .join(",");
    out.push('\n');
    out
}

/// The first position of `a` or `b` in `hay`, eight bytes at a time: a word has a byte equal
/// to `a` where `word ^ a…a` has a zero byte, found with the classic "has zero byte" test (its
/// lowest flagged byte is always a true zero, and the lowest is the one wanted).
fn find2(hay: &[u8], a: u8, b: u8) -> Option<usize> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    let zero = |x: u64| x.wrapping_sub(ONES) & !x & HIGHS;
    let (aa, bb) = (ONES * u64::from(a), ONES * u64::from(b));
    let mut chunks = hay.chunks_exact(8);
    let mut at = 0;
    for chunk in &mut chunks {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        let word = u64::from_le_bytes(word);
        let found = zero(word ^ aa) | zero(word ^ bb);
        if found != 0 {
            return Some(at + (found.trailing_zeros() / 8) as usize);
        }
        at += 8;
    }
    chunks
        .remainder()
        .iter()
        .position(|&c| c == a || c == b)
        .map(|p| at + p)
}

/// Undoes [`field`]'s formula defusing: a `'` before `=`, `+`, `-`, `@`, a tab or a carriage
/// return is dropped.
pub fn undefuse(s: &str) -> &str {
    match s.strip_prefix('\'') {
        Some(rest) if rest.starts_with(FORMULA_STARTS) => rest,
        _ => s,
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn number_text_is_what_the_float_parser_reads() {
        for s in [
            "1", "-1", "+1", "1.", ".5", "-.5", "1e5", "1E-5", "1.5e+3", "inf", "-INF", "Infinity",
            "+nan", "NaN", "007", "0.0",
        ] {
            assert!(super::is_number_text(s), "{s}");
            assert!(s.parse::<f64>().is_ok(), "{s}");
        }
        for s in [
            "", ".", "-", "+", "e5", "1e", "1e+", "1.2.3", "--1", "1 ", " 1", "infinit", "1_0",
            "0x10", "=1", "1,5", "١",
        ] {
            assert!(!super::is_number_text(s), "{s}");
            assert!(s.parse::<f64>().is_err(), "{s}");
        }
    }

    proptest::proptest! {
        #[test]
        fn number_text_agrees_with_the_float_parser(
            s in "[+-]?[0-9.eE+-]{0,7}|[+-]?(inf|INF|Infinity|nan|NaN|infinit|nana)",
        ) {
            proptest::prop_assert_eq!(super::is_number_text(&s), s.parse::<f64>().is_ok());
        }
    }

    use super::*;

    #[test]
    fn find2_finds_what_a_byte_by_byte_search_finds() {
        let naive = |h: &[u8], a: u8, b: u8| h.iter().position(|&c| c == a || c == b);
        // Every length to 40, the delimiters at every place, high bytes (UTF-8) around them.
        let mut state = 1u64;
        for len in 0..40 {
            for _ in 0..200 {
                let hay: Vec<u8> = (0..len)
                    .map(|_| {
                        state = state
                            .wrapping_mul(6_364_136_223_846_793_005)
                            .wrapping_add(11);
                        match state >> 60 {
                            0 => b',',
                            1 => b'\n',
                            2 => 0x80 | (state >> 40) as u8,
                            3 => 0,
                            _ => b'a' + (state >> 50) as u8 % 26,
                        }
                    })
                    .collect();
                assert_eq!(
                    find2(&hay, b',', b'\n'),
                    naive(&hay, b',', b'\n'),
                    "{hay:?}"
                );
                assert_eq!(find2(&hay, b'"', 0x81), naive(&hay, b'"', 0x81), "{hay:?}");
            }
        }
    }

    fn fields(text: &str) -> Vec<(usize, Vec<&'static str>)> {
        parse(text)
            .unwrap()
            .into_iter()
            .map(|r| {
                (
                    r.line,
                    r.fields
                        .into_iter()
                        .map(|f| &*Box::leak(f.into_boxed_str()))
                        .collect(),
                )
            })
            .collect()
    }

    #[test]
    fn plain_quoted_embedded_commas_quotes_and_newlines() {
        let text = "a,b,c\r\n1,\"x, y\",\"say \"\"hi\"\"\"\n2,\"two\nlines\",\n\n3,,\"\"\n";
        assert_eq!(
            fields(text),
            [
                (1, vec!["a", "b", "c"]),
                (2, vec!["1", "x, y", "say \"hi\""]),
                (3, vec!["2", "two\nlines", ""]),
                (6, vec!["3", "", ""]),
            ]
        );
    }

    #[test]
    fn no_final_newline_bom_and_lone_quotes() {
        assert_eq!(
            fields("\u{feff}id,v\nx,5 \"in\"\ny,\"\""),
            [
                (1, vec!["id", "v"]),
                (2, vec!["x", "5 \"in\""]),
                (3, vec!["y", ""]),
            ]
        );
        assert_eq!(fields("\"\"\n"), [(1, vec![""])]);
        assert_eq!(fields(""), Vec::<(usize, Vec<&str>)>::new());
    }

    #[test]
    fn errors_say_where() {
        let open = parse("a,b\n1,\"never\nclosed\n").unwrap_err();
        assert_eq!((open.line, open.column), (2, 3));
        assert!(open.message.contains("never closes"), "{open}");
        let after = parse("a,b\n1,\"x\"y\n").unwrap_err();
        assert_eq!((after.line, after.column), (2, 6));
        assert_eq!(
            after.to_string(),
            "line 2, column 6: text after the closing quote of a field; quote the whole field, \
             or write a quote inside it as `\"\"`"
        );
    }

    #[test]
    fn written_fields_read_back() {
        let values = [
            "plain",
            "a,b",
            "q\"uote",
            "two\nlines",
            "=SUM(A1)",
            "-3",
            "",
            "@x",
            "\t=HYPERLINK(\"https://example.org\")",
            "\r=1+1",
        ];
        let text = line(&values);
        let back = parse(&text).unwrap();
        let read: Vec<&str> = back[0].fields.iter().map(|f| undefuse(f)).collect();
        assert_eq!(read, values);
        assert_eq!(field("=SUM(A1)"), "'=SUM(A1)");
        assert_eq!(field("-3"), "-3");
        // A leading tab or carriage return is defused too.
        assert_eq!(field("\t=1+1"), "'\t=1+1");
        assert_eq!(field("\r=1+1"), "\"'\r=1+1\"");
    }
}
