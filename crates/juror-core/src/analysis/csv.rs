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
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut records = Vec::new();
    let mut chars = text.chars().peekable();
    let (mut line, mut column) = (1usize, 0usize);
    let mut fields: Vec<String> = Vec::new();
    let mut field = String::new();
    // Whether the current field was quoted (and is closed): then only a comma or a line break
    // may follow, which the quoted branch checks.
    let mut quoted = false;
    let mut record_line = 1;
    // Whether anything (a character, a comma, an empty quoted field) was read in this record.
    let mut started = false;

    while let Some(c) = chars.next() {
        column += 1;
        match c {
            '"' if field.is_empty() && !quoted => {
                let (open_line, open_column) = (line, column);
                started = true;
                quoted = true;
                loop {
                    match chars.next() {
                        None => {
                            return Err(CsvError {
                                line: open_line,
                                column: open_column,
                                message: "this quoted field never closes: a `\"` is missing \
                                          (write a quote inside a quoted field as `\"\"`)"
                                    .into(),
                            });
                        }
                        Some('"') => {
                            column += 1;
                            if chars.peek() == Some(&'"') {
                                chars.next();
                                column += 1;
                                field.push('"');
                            } else {
                                break;
                            }
                        }
                        Some('\n') => {
                            line += 1;
                            column = 0;
                            field.push('\n');
                        }
                        Some(other) => {
                            column += 1;
                            field.push(other);
                        }
                    }
                }
                // After the closing quote: a comma, a line break or the end.
                let mut ahead = chars.clone();
                let next = ahead.next();
                let ok = match next {
                    None | Some(',') | Some('\n') => true,
                    Some('\r') => matches!(ahead.next(), None | Some('\n')),
                    Some(_) => false,
                };
                if !ok {
                    return Err(after_quote(line, column + 1));
                }
            }
            ',' => {
                started = true;
                quoted = false;
                fields.push(std::mem::take(&mut field));
            }
            '\r' if chars.peek() == Some(&'\n') => {}
            '\n' => {
                if started {
                    fields.push(std::mem::take(&mut field));
                    records.push(Record {
                        line: record_line,
                        fields: std::mem::take(&mut fields),
                    });
                }
                started = false;
                quoted = false;
                line += 1;
                column = 0;
                record_line = line;
            }
            other => {
                started = true;
                field.push(other);
            }
        }
    }
    if started {
        fields.push(field);
        records.push(Record {
            line: record_line,
            fields,
        });
    }
    Ok(records)
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

/// One field as RFC 4180 writes it, with spreadsheet formulas defused (see the module docs).
pub fn field(s: &str) -> String {
    let s = if s.starts_with(FORMULA_STARTS) && s.parse::<f64>().is_err() {
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
    use super::*;

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
        // A leading tab or carriage return is defused too (review L3).
        assert_eq!(field("\t=1+1"), "'\t=1+1");
        assert_eq!(field("\r=1+1"), "\"'\r=1+1\"");
    }
}
