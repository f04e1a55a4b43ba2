//! A small reader of JSON text for what the annotator's page reads before its welcome page: a
//! compiled study's envelope (its members, each value as its exact text) and its cover (whole
//! numbers only). Everything else is read by serde_json's parser, which then stays out of the
//! page's first download (about 11 KB gzip: its number parsing, its errors and its readers
//! generic over the input; docs/decisions.md, "No serde_json parser before the welcome page").
//!
//! Strict JSON (RFC 8259), as serde_json reads it: no trailing commas, comments or leading
//! zeros; a string's control characters escaped; `\u` escapes paired where they must be;
//! nesting at most 128 deep. Never panics, whatever the text. [`value`] gives serde_json's own
//! [`Value`], so that the readers over it (`json`'s helpers) are the same for both.

use std::fmt;

use super::{Map, Value};

/// What is wrong with a JSON text, and where (a byte offset, shown as line and column).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    what: &'static str,
    line: usize,
    column: usize,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} at line {} column {}",
            self.what, self.line, self.column
        )
    }
}

/// The members of the object `text` is, in order: each key, and its value's exact text (as
/// serde_json's `RawValue` gives it). Each value is checked as JSON but not built.
///
/// # Errors
/// The first thing in `text` that is not JSON, or not one object.
pub fn members(text: &str) -> Result<Vec<(String, &str)>, Error> {
    let mut out = Vec::new();
    walk(text, &mut |key, raw| {
        out.push((key, raw));
        true
    })?;
    Ok(out)
}

/// The exact text of the value of the first member named `name` of the object `text`, read
/// only as far as that member (what follows it is not checked); `None` if the object, read
/// whole, has none. (A compiled study's envelope, where a member given twice is refused, is read
/// whole: [`members`].)
///
/// # Errors
/// The first thing up to that member that is not JSON, or not an object.
pub fn member<'a>(text: &'a str, name: &str) -> Result<Option<&'a str>, Error> {
    let mut found = None;
    walk(text, &mut |key, raw| {
        if key == name {
            found = Some(raw);
        }
        found.is_none()
    })?;
    Ok(found)
}

/// Reads the object `text` is member by member, giving `each` every key and its value's exact
/// text, until `each` says to stop (false): then the rest is not read. (`dyn`: one copy of it
/// in the annotator's first download, whoever calls it.)
fn walk<'a>(text: &'a str, each: &mut dyn FnMut(String, &'a str) -> bool) -> Result<(), Error> {
    let mut r = Reader::new(text);
    r.space();
    r.expect(b'{')?;
    r.space();
    if !r.eat(b'}') {
        loop {
            r.space();
            let key = r.string()?;
            r.space();
            r.expect(b':')?;
            r.space();
            let start = r.at;
            r.skip(0)?;
            if !each(key, &text[start..r.at]) {
                return Ok(());
            }
            r.space();
            if r.eat(b'}') {
                break;
            }
            r.expect(b',')?;
        }
    }
    r.end()
}

/// `text` as a [`Value`]. Numbers must be whole (a cover's are): a fraction or an exponent is
/// an error, as is a whole number outside `i64` and `u64`.
///
/// # Errors
/// The first thing in `text` that is not JSON, or a number that is not whole.
pub fn value(text: &str) -> Result<Value, Error> {
    let mut r = Reader::new(text);
    r.space();
    let v = r.value(0)?;
    r.end()?;
    Ok(v)
}

/// As deep as arrays and objects may nest (serde_json's limit).
const DEPTH: usize = 128;

struct Reader<'a> {
    text: &'a str,
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn new(text: &'a str) -> Self {
        Reader {
            text,
            bytes: text.as_bytes(),
            at: 0,
        }
    }

    fn error(&self, what: &'static str) -> Error {
        let before = &self.bytes[..self.at.min(self.bytes.len())];
        let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
        // 1-based, at the offending byte (counted in bytes, as serde_json counts).
        let column = before.iter().rev().take_while(|&&b| b != b'\n').count() + 1;
        Error { what, line, column }
    }

    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.at).copied()
    }

    fn eat(&mut self, b: u8) -> bool {
        let here = self.peek() == Some(b);
        if here {
            self.at += 1;
        }
        here
    }

    fn expect(&mut self, b: u8) -> Result<(), Error> {
        if self.eat(b) {
            Ok(())
        } else if self.peek().is_none() {
            Err(self.error("EOF while parsing"))
        } else {
            Err(self.error(match b {
                b':' => "expected `:`",
                b',' => "expected `,` or the end of the list",
                b'{' => "expected an object",
                _ => "expected a string",
            }))
        }
    }

    fn space(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\n' | b'\r' | b'\t')) {
            self.at += 1;
        }
    }

    /// Nothing but white space left.
    fn end(&mut self) -> Result<(), Error> {
        self.space();
        match self.peek() {
            None => Ok(()),
            Some(_) => Err(self.error("trailing characters")),
        }
    }

    fn literal(&mut self, word: &'static [u8]) -> Result<(), Error> {
        if self.bytes[self.at..].starts_with(word) {
            self.at += word.len();
            Ok(())
        } else {
            Err(self.error("expected value"))
        }
    }

    /// Checks the value here and moves past it, building nothing.
    fn skip(&mut self, depth: usize) -> Result<(), Error> {
        self.any(depth, false).map(drop)
    }

    fn value(&mut self, depth: usize) -> Result<Value, Error> {
        self.any(depth, true)
    }

    /// The value here, built with `build` (else `Null`, once checked).
    fn any(&mut self, depth: usize, build: bool) -> Result<Value, Error> {
        match self.peek() {
            Some(b'{' | b'[') => self.nested(depth, build),
            Some(b'"') => self.text_of(build).map(Value::String),
            _ => self.scalar(build),
        }
    }

    /// The object or array here.
    fn nested(&mut self, depth: usize, build: bool) -> Result<Value, Error> {
        if depth >= DEPTH {
            return Err(self.error("recursion limit exceeded"));
        }
        let object = self.peek() == Some(b'{');
        let close = if object { b'}' } else { b']' };
        self.at += 1;
        let (mut map, mut list) = (Map::new(), Vec::new());
        self.space();
        if !self.eat(close) {
            loop {
                self.space();
                let key = if object {
                    let key = self.text_of(build)?;
                    self.space();
                    self.expect(b':')?;
                    self.space();
                    Some(key)
                } else {
                    None
                };
                let v = self.any(depth + 1, build)?;
                match key {
                    _ if !build => {}
                    Some(key) => {
                        map.insert(key, v);
                    }
                    None => list.push(v),
                }
                self.space();
                if self.eat(close) {
                    break;
                }
                self.expect(b',')?;
            }
        }
        Ok(if object {
            Value::Object(map)
        } else {
            Value::Array(list)
        })
    }

    /// A string here, unescaped.
    fn string(&mut self) -> Result<String, Error> {
        self.text_of(true)
    }

    /// A string here, unescaped with `build` (else empty, once checked).
    fn text_of(&mut self, build: bool) -> Result<String, Error> {
        if self.peek() != Some(b'"') {
            return Err(self.error(if self.peek().is_none() {
                "EOF while parsing"
            } else {
                "expected a string"
            }));
        }
        self.at += 1;
        let mut out = String::new();
        let mut from = self.at;
        loop {
            match self.peek() {
                None => return Err(self.error("EOF while parsing a string")),
                Some(b'"') => {
                    if build {
                        out.push_str(&self.text[from..self.at]);
                    }
                    self.at += 1;
                    return Ok(out);
                }
                Some(b'\\') => {
                    if build {
                        out.push_str(&self.text[from..self.at]);
                    }
                    self.at += 1;
                    let c = self.escape()?;
                    if build {
                        out.push(c);
                    }
                    from = self.at;
                }
                Some(b) if b < 0x20 => {
                    return Err(self.error("control character found while parsing a string"));
                }
                Some(_) => self.at += 1,
            }
        }
    }

    /// The character of the escape after a backslash.
    fn escape(&mut self) -> Result<char, Error> {
        let Some(b) = self.peek() else {
            return Err(self.error("EOF while parsing a string"));
        };
        self.at += 1;
        let c = match b {
            b'"' => '"',
            b'\\' => '\\',
            b'/' => '/',
            b'b' => '\u{8}',
            b'f' => '\u{c}',
            b'n' => '\n',
            b'r' => '\r',
            b't' => '\t',
            b'u' => {
                let first = self.hex4()?;
                let code = if (0xD800..0xDC00).contains(&first) {
                    if !(self.eat(b'\\') && self.eat(b'u')) {
                        return Err(self.error("unexpected end of hex escape"));
                    }
                    let second = self.hex4()?;
                    if !(0xDC00..0xE000).contains(&second) {
                        return Err(self.error("lone leading surrogate in hex escape"));
                    }
                    0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)
                } else {
                    first
                };
                char::from_u32(code)
                    .ok_or_else(|| self.error("lone leading surrogate in hex escape"))?
            }
            _ => return Err(self.error("invalid escape")),
        };
        Ok(c)
    }

    fn hex4(&mut self) -> Result<u32, Error> {
        let mut n = 0;
        for _ in 0..4 {
            let digit = self
                .peek()
                .and_then(|b| char::from(b).to_digit(16))
                .ok_or_else(|| self.error("invalid escape"))?;
            n = n * 16 + digit;
            self.at += 1;
        }
        Ok(n)
    }

    /// A number, `true`, `false` or `null` here; a number built only with `build`.
    fn scalar(&mut self, build: bool) -> Result<Value, Error> {
        match self.peek() {
            Some(b't') => self.literal(b"true").map(|()| Value::Bool(true)),
            Some(b'f') => self.literal(b"false").map(|()| Value::Bool(false)),
            Some(b'n') => self.literal(b"null").map(|()| Value::Null),
            Some(b'-' | b'0'..=b'9') => self.number(build),
            None => Err(self.error("EOF while parsing a value")),
            Some(_) => Err(self.error("expected value")),
        }
    }

    fn digits(&mut self) -> usize {
        let start = self.at;
        while matches!(self.peek(), Some(b'0'..=b'9')) {
            self.at += 1;
        }
        self.at - start
    }

    fn number(&mut self, build: bool) -> Result<Value, Error> {
        let start = self.at;
        let negative = self.eat(b'-');
        let first = self.at;
        let whole = self.digits();
        if whole == 0 {
            return Err(self.error("invalid number"));
        }
        if whole > 1 && self.bytes[first] == b'0' {
            return Err(self.error("invalid number"));
        }
        let mut fraction = false;
        if self.eat(b'.') {
            if self.digits() == 0 {
                return Err(self.error("invalid number"));
            }
            fraction = true;
        }
        if self.eat(b'e') || self.eat(b'E') {
            let _ = self.eat(b'+') || self.eat(b'-');
            if self.digits() == 0 {
                return Err(self.error("invalid number"));
            }
            fraction = true;
        }
        if !build {
            return Ok(Value::Null);
        }
        let text = &self.text[start..self.at];
        // serde_json reads `-0` as the float -0.0.
        if fraction || (negative && text[1..].bytes().all(|b| b == b'0')) {
            self.at = start;
            return Err(self.error("a number that is not whole"));
        }
        let n = if negative {
            text.parse::<i64>().ok().map(Value::from)
        } else {
            text.parse::<u64>().ok().map(Value::from)
        };
        n.ok_or_else(|| {
            self.at = start;
            self.error("number out of range")
        })
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;
    use serde_json::json;

    use super::*;

    #[test]
    fn reads_what_serde_json_reads() {
        for text in [
            r#"{"a":[1,-2,{"b":null}],"c":"d\"e\\f\/\b\f\n\r\t\u00e9\ud83d\ude00","g":true,"h":false}"#,
            " [ ] ",
            "{}",
            "\"\"",
            "0",
            "-1",
            "18446744073709551615",
            "-9223372036854775808",
            "\t{\n\"x\" : [ [ ] , { } ]\r\n}\n",
        ] {
            let want: Value = serde_json::from_str(text).unwrap();
            assert_eq!(value(text), Ok(want), "{text}");
        }
    }

    #[test]
    fn refuses_what_serde_json_refuses() {
        for text in [
            "",
            " ",
            "{",
            "[1,]",
            "{\"a\":1,}",
            "[01]",
            "[1.]",
            "[.5]",
            "[-]",
            "[1e]",
            "\"\\x\"",
            "\"\\ud800\"",
            "\"\\udc00x\"",
            "\"a\nb\"",
            "[1] 2",
            "{1:2}",
            "{\"a\" 1}",
            "tru",
            "nul",
            "[\"\\u12\"]",
            "//",
            "NaN",
            "[1 2]",
        ] {
            assert!(serde_json::from_str::<Value>(text).is_err(), "{text:?}");
            assert!(value(text).is_err(), "{text:?}");
            assert!(members(&format!("{{\"k\":{text}}}")).is_err(), "{text:?}");
        }
    }

    #[test]
    fn numbers_that_are_not_whole_are_refused_by_value_only() {
        for text in [
            "1.5",
            "1e3",
            "-2E-1",
            "-0",
            "18446744073709551616",
            "-9223372036854775809",
        ] {
            assert!(value(text).is_err(), "{text}");
            assert_eq!(members(&format!("{{\"k\":{text}}}")).unwrap()[0].1, text);
        }
    }

    #[test]
    fn members_are_the_exact_text_of_each_value() {
        let text = " {\"format\" : \"x\",\"cover\":{ \"a\" : [1, 2] } ,\"study\":\n[true]\n} \n";
        let got = members(text).unwrap();
        assert_eq!(
            got,
            vec![
                ("format".to_owned(), "\"x\""),
                ("cover".to_owned(), "{ \"a\" : [1, 2] }"),
                ("study".to_owned(), "[true]"),
            ]
        );
        // As serde_json's raw values give them.
        #[derive(serde::Deserialize)]
        struct Raw<'a> {
            #[serde(borrow)]
            cover: &'a serde_json::value::RawValue,
        }
        let raw: Raw = serde_json::from_str(text).unwrap();
        assert_eq!(raw.cover.get(), got[1].1);
        assert!(members("[1]").is_err());
        assert!(members("{} x").is_err());
    }

    #[test]
    fn a_member_is_found_without_reading_what_follows() {
        let text = "{\"format\": \"juror.compiled/3\", \"study\": [1, 2";
        assert_eq!(member(text, "format"), Ok(Some("\"juror.compiled/3\"")));
        assert!(member(text, "study").is_err());
        assert!(member(text, "other").is_err());
        assert_eq!(member("{\"a\":1,\"a\":2}", "a"), Ok(Some("1")));
        assert_eq!(member("{\"a\":1}", "b"), Ok(None));
        assert!(member("{\"a\":1} x", "b").is_err());
        assert!(member("[1]", "a").is_err());
    }

    #[test]
    fn nesting_is_bounded() {
        let deep = |n: usize| format!("{}{}", "[".repeat(n), "]".repeat(n));
        assert!(value(&deep(128)).is_ok());
        assert!(value(&deep(129)).is_err());
        assert!(value(&deep(100_000)).is_err());
        assert!(members(&format!("{{\"k\":{}}}", deep(100_000))).is_err());
    }

    #[test]
    fn an_error_says_where() {
        let e = value("{\n  \"a\": tru\n}").unwrap_err();
        // `t` is the eighth character of the second line.
        assert_eq!(e.to_string(), "expected value at line 2 column 8");
    }

    fn json_value() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            any::<i64>().prop_map(Value::from),
            any::<u64>().prop_map(Value::from),
            ".*".prop_map(Value::String),
        ];
        leaf.prop_recursive(4, 32, 6, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
                prop::collection::vec(("\\PC*", inner), 0..6)
                    .prop_map(|kv| Value::Object(kv.into_iter().collect())),
            ]
        })
    }

    proptest! {
        /// Whatever serde_json writes (compact or pretty), read back the same.
        #[test]
        fn reads_back_what_serde_json_writes(v in json_value()) {
            let compact = serde_json::to_string(&v).unwrap();
            prop_assert_eq!(value(&compact), Ok(v.clone()));
            let pretty = serde_json::to_string_pretty(&v).unwrap();
            prop_assert_eq!(value(&pretty), Ok(v.clone()));
            let outer = serde_json::to_string(&json!({ "k": v, "z": 1 })).unwrap();
            let members = members(&outer).unwrap();
            prop_assert_eq!(members[0].1, compact.as_str());
        }

        /// Any text: never a panic, and an error exactly when serde_json (whole numbers) errs.
        #[test]
        fn any_text_reads_as_serde_json_reads_it(text in "[ \\[\\]{}:,\"\\\\a-z0-9.eE+-]{0,24}") {
            let ours = value(&text);
            let theirs = serde_json::from_str::<Value>(&text);
            let whole = theirs.as_ref().ok().is_none_or(|v| !has_fraction(v));
            if whole {
                prop_assert_eq!(ours.ok(), theirs.ok());
            } else {
                prop_assert!(ours.is_err());
            }
        }
    }

    fn has_fraction(v: &Value) -> bool {
        match v {
            Value::Number(n) => n.is_f64(),
            Value::Array(a) => a.iter().any(has_fraction),
            Value::Object(o) => o.values().any(has_fraction),
            _ => false,
        }
    }
}
