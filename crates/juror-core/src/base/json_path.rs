//! Where in a JSON document a typed read failed, as a path (`items[3].outputs`), without a second,
//! path-tracking copy of every deserializer.
//!
//! The value is written compactly (one line) and read from that text; serde_json's error then
//! carries the column where reading stopped, and [`path_at`] walks the same text to the value
//! (or object key) there. A path-tracking wrapper such as `serde_path_to_error` would double the
//! deserializers of every study and ratings type in the WebAssembly (docs/decisions.md, "A read
//! error's path from the compact text").

use serde::de::DeserializeOwned;
use serde_json::Value;

/// A typed read of `value` that failed: where (a path; `.` for the document itself) and what.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReadError {
    /// `items[3].outputs`, or `.` for the whole value.
    pub path: String,
    /// serde's message, without its position.
    pub message: String,
}

/// Reads `value` as a `T`, or says where and why not.
///
/// # Errors
/// The first field that does not fit, with its path.
pub fn read<T: DeserializeOwned>(value: &Value) -> Result<T, ReadError> {
    let text = serde_json::to_string(value).unwrap_or_default();
    serde_json::from_str(&text).map_err(|e| {
        let full = e.to_string();
        let message = full
            .rfind(" at line ")
            .map_or(full.as_str(), |i| &full[..i])
            .to_owned();
        // Compact JSON is one line: the column is the number of bytes read. A wrong object or
        // list is reported before its first byte (on the `:`, `,` or `[` before it): step onto it.
        let mut at = e.column().saturating_sub(1);
        let bytes = text.as_bytes();
        if matches!(bytes.get(at), Some(b':' | b',' | b'['))
            && matches!(bytes.get(at + 1), Some(b'{' | b'['))
        {
            at += 1;
        }
        let path = path_at(&text, at);
        ReadError { path, message }
    })
}

/// The path of the innermost value of compact JSON `text` that holds byte `at`, or of the object
/// member whose key holds it; `.` for the document itself.
pub fn path_at(text: &str, at: usize) -> String {
    let mut walker = Walker {
        bytes: text.as_bytes(),
        text,
        pos: 0,
        at,
        best: String::new(),
    };
    walker.value(&mut String::new());
    if walker.best.is_empty() {
        ".".to_owned()
    } else {
        walker.best
    }
}

struct Walker<'a> {
    bytes: &'a [u8],
    text: &'a str,
    pos: usize,
    at: usize,
    /// The deepest path found so far whose span holds `at`.
    best: String,
}

impl Walker<'_> {
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    fn skip_ws(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\n' | b'\r' | b'\t')) {
            self.pos += 1;
        }
    }

    /// Walks one value; `path` is its path. Records it when its span holds `at`.
    fn value(&mut self, path: &mut String) {
        self.skip_ws();
        let start = self.pos;
        match self.peek() {
            Some(b'{') => self.object(path),
            Some(b'[') => self.array(path),
            Some(b'"') => self.string(),
            Some(_) => {
                while let Some(b) = self.peek() {
                    if matches!(b, b',' | b'}' | b']' | b' ' | b'\n' | b'\r' | b'\t') {
                        break;
                    }
                    self.pos += 1;
                }
            }
            None => {}
        }
        // The innermost holder wins: children are recorded before their parent returns, so a
        // parent only records itself when no child did.
        if (start..self.pos.max(start + 1)).contains(&self.at) && !self.best.starts_with(&*path) {
            self.best.clone_from(path);
        }
    }

    fn object(&mut self, path: &mut String) {
        self.pos += 1;
        loop {
            self.skip_ws();
            match self.peek() {
                Some(b'}') => {
                    self.pos += 1;
                    return;
                }
                Some(b',') => self.pos += 1,
                Some(b'"') => {
                    let key_start = self.pos;
                    self.string();
                    let key: String =
                        serde_json::from_str(&self.text[key_start..self.pos]).unwrap_or_default();
                    let len = path.len();
                    if !path.is_empty() {
                        path.push('.');
                    }
                    path.push_str(&key);
                    if (key_start..self.pos).contains(&self.at) {
                        self.best.clone_from(path);
                    }
                    self.skip_ws();
                    if self.peek() == Some(b':') {
                        self.pos += 1;
                    }
                    self.value(path);
                    path.truncate(len);
                }
                _ => return,
            }
        }
    }

    fn array(&mut self, path: &mut String) {
        self.pos += 1;
        let mut index = 0usize;
        loop {
            self.skip_ws();
            match self.peek() {
                Some(b']') => {
                    self.pos += 1;
                    return;
                }
                Some(b',') => self.pos += 1,
                Some(_) => {
                    let len = path.len();
                    path.push('[');
                    path.push_str(&index.to_string());
                    path.push(']');
                    self.value(path);
                    path.truncate(len);
                    index += 1;
                }
                None => return,
            }
        }
    }

    fn string(&mut self) {
        self.pos += 1;
        while let Some(b) = self.peek() {
            self.pos += 1;
            match b {
                b'\\' => self.pos += 1,
                b'"' => return,
                _ => {}
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    #[derive(Debug, Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Doc {
        items: Vec<Item>,
        seed: u64,
    }

    #[derive(Debug, Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Item {
        id: String,
        outputs: std::collections::BTreeMap<String, String>,
    }

    fn error(json: serde_json::Value) -> ReadError {
        read::<Doc>(&json).unwrap_err()
    }

    #[test]
    fn each_kind_of_mistake_is_placed_at_its_value() {
        let ok = serde_json::json!({"id": "a", "outputs": {"s": "x"}});
        let e = error(serde_json::json!({"items": [ok, {"id": 7, "outputs": {}}], "seed": 1}));
        assert_eq!(e.path, "items[1].id");
        assert!(e.message.starts_with("invalid type: integer `7`"), "{e:?}");
        let e = error(serde_json::json!({"items": [ok, {"id": "b"}], "seed": 1}));
        assert_eq!(e.path, "items[1]");
        assert_eq!(e.message, "missing field `outputs`");
        let e = error(serde_json::json!({"items": [{"id": "a", "outputs": {"s": 1}}], "seed": 1}));
        assert_eq!(e.path, "items[0].outputs.s");
        let e = error(serde_json::json!({"items": [], "seed": -1}));
        assert_eq!(e.path, "seed");
        // An object or a list where a string belongs is placed at it, not at its parent.
        let e = error(serde_json::json!({"items": [{"id": {"a": 1}, "outputs": {}}], "seed": 1}));
        assert_eq!(e.path, "items[0].id");
        let e = error(serde_json::json!({"items": [ok, {"id": ["a"], "outputs": {}}], "seed": 1}));
        assert_eq!(e.path, "items[1].id");
        let e = error(serde_json::json!({"items": [[["a"]]], "seed": 1}));
        assert_eq!(e.path, "items[0][0]");
        let e = error(serde_json::json!({"seed": [1], "items": []}));
        assert_eq!(e.path, "seed");
        let e = error(serde_json::json!({"items": [], "seed": 1, "extra": true}));
        assert_eq!(e.path, "extra");
        assert!(e.message.starts_with("unknown field `extra`"), "{e:?}");
        let e = error(serde_json::json!("x"));
        assert_eq!(e.path, ".");
        // A sequence is read as the struct's fields in order: the first one is wrong.
        let e = error(serde_json::json!([1]));
        assert_eq!(e.path, "[0]");
    }

    #[test]
    fn keys_with_escapes_and_strings_with_brackets_do_not_confuse_it() {
        let e = error(serde_json::json!({
            "items": [{"id": "a\"],[{", "outputs": {"s\\\"x": 2}}], "seed": 1
        }));
        assert_eq!(e.path, "items[0].outputs.s\\\"x");
    }
}
