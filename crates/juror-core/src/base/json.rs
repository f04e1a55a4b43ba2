//! Reading a type out of a parsed JSON value by hand, with the place of anything wrong.
//!
//! serde's derived readers are generic over the reader: each type's reader is compiled once
//! per JSON reader it meets, with the reader's parsing inlined into it, which makes a model of
//! many types the largest single part of a wasm that reads it. Here the text is parsed once
//! into a [`Value`] (serde_json's own, already in every page), and each type is read out of it
//! by a plain function (`fn(&Value) -> Read<T>`) built from the few helpers below: one copy of
//! each, whatever the type (docs/decisions.md, "Readers by hand").
//!
//! Strings are copied out of the tree, not moved: what is read is then allocated after the
//! whole tree, which is freed in one piece once read, so what is allocated later (a session's
//! 10,000 trials) lies together rather than in the gaps a moved string would leave in it
//! (with strings moved, answering a trial in a 10,000-item study takes 2 ms more). An error
//! carries its place, gathered on the way out ([`Wrong::place`]: `items[3].prompt`), and
//! what was expected there. Like serde's derived readers, unknown fields are ignored and a
//! missing or `null` optional field is `None`; every other field is required.

use std::collections::BTreeMap;
use std::fmt;

pub use serde_json::{Map, Value};

pub mod text;

/// What reading gives: the thing, or what is wrong and where.
pub type Read<T> = Result<T, Wrong>;

/// Something wrong in a value: where (from the value read down) and what.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Wrong {
    /// The path's steps, innermost first (they are added on the way out).
    steps: Vec<Step>,
    what: String,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Step {
    Key(String),
    Index(usize),
}

impl Wrong {
    /// Something wrong here: `what` says what was expected or found.
    pub fn new(what: impl Into<String>) -> Wrong {
        Wrong {
            steps: Vec::new(),
            what: what.into(),
        }
    }

    /// The same thing, one field further in.
    #[must_use]
    pub fn in_key(mut self, key: &str) -> Wrong {
        self.steps.push(Step::Key(key.to_owned()));
        self
    }

    /// The same thing, one element further in.
    #[must_use]
    pub fn in_index(mut self, index: usize) -> Wrong {
        self.steps.push(Step::Index(index));
        self
    }

    /// Where, under `root` (`study.items[3].prompt`; `root` alone when it is the value read).
    pub fn place(&self, root: &str) -> String {
        let mut out = root.to_owned();
        for step in self.steps.iter().rev() {
            match step {
                Step::Key(key) if is_plain(key) => {
                    if !out.is_empty() {
                        out.push('.');
                    }
                    out.push_str(key);
                }
                Step::Key(key) => {
                    out.push_str("[\"");
                    out.push_str(&key.replace('\\', "\\\\").replace('"', "\\\""));
                    out.push_str("\"]");
                }
                Step::Index(i) => {
                    out.push('[');
                    out.push_str(&i.to_string());
                    out.push(']');
                }
            }
        }
        out
    }

    /// What was expected or found.
    pub fn what(&self) -> &str {
        &self.what
    }
}

impl fmt::Display for Wrong {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let place = self.place("");
        if place.is_empty() {
            f.write_str(&self.what)
        } else {
            write!(f, "{place}: {}", self.what)
        }
    }
}

/// A key that a path can show after a dot.
fn is_plain(key: &str) -> bool {
    !key.is_empty()
        && key
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}

/// What a value is, for messages.
fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "true or false",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}

fn expected<T>(what: &str, value: &Value) -> Read<T> {
    Err(unexpected(what, value))
}

#[inline(never)]
fn unexpected(what: &str, value: &Value) -> Wrong {
    Wrong::new(format!("expected {what}, found {}", kind(value)))
}

/// An object's fields, taken out one by one.
///
/// A field that is missing or wrong is noted (the first one is kept) and stands in as a
/// [`Blank`], so that a reader builds its value in one go and [`Fields::done`] says whether it
/// stands: no early return between fields, whose every exit would drop the fields read so far
/// (one drop more per field, which made a type of twenty fields 20 KB of wasm).
#[derive(Debug)]
pub struct Fields<'v> {
    map: &'v Map<String, Value>,
    wrong: Option<Wrong>,
}

/// A placeholder for a field that could not be read (never seen: [`Fields::done`] refuses the
/// value it stands in).
pub trait Blank {
    /// The placeholder.
    fn blank() -> Self;
}

impl<T: Default> Blank for T {
    fn blank() -> T {
        T::default()
    }
}

/// The fields of an object.
///
/// # Errors
/// Anything but an object.
pub fn fields(value: &Value) -> Read<Fields<'_>> {
    match value {
        Value::Object(map) => Ok(Fields { map, wrong: None }),
        other => expected("an object", other),
    }
}

impl<'v> Fields<'v> {
    /// The field `key`, read by `read`; a blank if it is missing or wrong (noted).
    #[inline(never)]
    pub fn take<T: Blank>(&mut self, key: &str, read: fn(&Value) -> Read<T>) -> T {
        match self.field(key, true).map(read) {
            Some(Ok(value)) => value,
            Some(Err(wrong)) => {
                self.note(key, wrong);
                T::blank()
            }
            None => T::blank(),
        }
    }

    /// The field `key`, read by `read`; `None` when it is missing or `null`, or wrong (noted).
    #[inline(never)]
    pub fn maybe<T>(&mut self, key: &str, read: fn(&Value) -> Read<T>) -> Option<T> {
        match self.field(key, false).map(read) {
            Some(Ok(value)) => Some(value),
            Some(Err(wrong)) => {
                self.note(key, wrong);
                None
            }
            None => None,
        }
    }

    // The generic readers above are one per type read: what they share is kept out of them.

    /// The field's value; `None` when it is missing (noted if it is `required`) or, for an
    /// optional field, `null`.
    #[inline(never)]
    fn field(&mut self, key: &str, required: bool) -> Option<&'v Value> {
        match self.map.get(key) {
            Some(Value::Null) if !required => None,
            Some(value) => Some(value),
            None => {
                if required {
                    self.note(key, Wrong::new("missing"));
                }
                None
            }
        }
    }

    /// Notes the first field that could not be read.
    #[inline(never)]
    fn note(&mut self, key: &str, wrong: Wrong) {
        if self.wrong.is_none() {
            self.wrong = Some(wrong.in_key(key));
        }
    }

    /// `value`, built from these fields, if every one of them was read.
    ///
    /// # Errors
    /// The first field missing or wrong, placed under its name.
    pub fn done<T>(self, value: T) -> Read<T> {
        match self.wrong {
            None => Ok(value),
            Some(wrong) => Err(wrong),
        }
    }

    /// As [`Fields::done`], and the object has no field but those `known`: for types that
    /// refuse a field they do not know (serde's `deny_unknown_fields`).
    ///
    /// # Errors
    /// The first field missing or wrong, else the first field not known.
    pub fn done_exactly<T>(self, value: T, known: &[&str]) -> Read<T> {
        let unknown = self.map.keys().find(|k| !known.contains(&k.as_str()));
        match (self.wrong, unknown) {
            (Some(wrong), _) => Err(wrong),
            (None, Some(key)) => Err(Wrong::new(format!("unknown field `{key}`"))),
            (None, None) => Ok(value),
        }
    }
}

/// A string.
///
/// # Errors
/// Anything else.
pub fn string(value: &Value) -> Read<String> {
    match value {
        Value::String(s) => Ok(s.clone()),
        other => expected("a string", other),
    }
}

/// `true` or `false`.
///
/// # Errors
/// Anything else.
pub fn boolean(value: &Value) -> Read<bool> {
    match value {
        Value::Bool(b) => Ok(*b),
        other => expected("true or false", other),
    }
}

/// A whole number from 0 to `u64::MAX`.
///
/// # Errors
/// Anything else.
pub fn whole(value: &Value) -> Read<u64> {
    match value.as_u64() {
        Some(n) => Ok(n),
        None => expected("a whole number from 0", value),
    }
}

/// A whole number from 0 that fits a `u32`.
///
/// # Errors
/// Anything else.
pub fn count(value: &Value) -> Read<u32> {
    let n = whole(value)?;
    u32::try_from(n).map_err(|_| Wrong::new(format!("{n} is too large")))
}

/// An index (a whole number from 0).
///
/// # Errors
/// Anything else.
pub fn index(value: &Value) -> Read<usize> {
    let n = whole(value)?;
    usize::try_from(n).map_err(|_| Wrong::new(format!("{n} is too large")))
}

/// A whole number that fits an `i32`.
///
/// # Errors
/// Anything else.
pub fn integer(value: &Value) -> Read<i32> {
    match value.as_i64().and_then(|n| i32::try_from(n).ok()) {
        Some(n) => Ok(n),
        None => expected("a whole number", value),
    }
}

/// A number.
///
/// # Errors
/// Anything else.
pub fn number(value: &Value) -> Read<f64> {
    match value.as_f64() {
        Some(n) => Ok(n),
        None => expected("a number", value),
    }
}

/// A list, each element read by `read`.
///
/// # Errors
/// Anything but a list, or what `read` finds wrong in an element (placed at its index).
#[inline(never)]
pub fn list<T>(value: &Value, read: fn(&Value) -> Read<T>) -> Read<Vec<T>> {
    match value {
        Value::Array(values) => values
            .iter()
            .enumerate()
            .map(|(i, v)| read(v).map_err(|e| e.in_index(i)))
            .collect(),
        other => expected("a list", other),
    }
}

/// An object of named values, each read by `read`.
///
/// # Errors
/// Anything but an object, or what `read` finds wrong in a value (placed under its name).
#[inline(never)]
pub fn map<T>(value: &Value, read: fn(&Value) -> Read<T>) -> Read<BTreeMap<String, T>> {
    match value {
        Value::Object(values) => {
            // Inserted one by one: collecting into a map sorts first (a sort the page has no
            // other use for), and the names come in order already.
            let mut out = BTreeMap::new();
            for (k, v) in values {
                match read(v) {
                    Ok(t) => out.insert(k.clone(), t),
                    Err(e) => return Err(e.in_key(k)),
                };
            }
            Ok(out)
        }
        other => expected("an object", other),
    }
}

/// One of the words of `table`, as the thing it names.
///
/// # Errors
/// Anything but a string, or a word the table does not have.
#[inline(never)]
pub fn word<T: Copy>(value: &Value, table: &[(&str, T)]) -> Read<T> {
    let text = match value {
        Value::String(text) => text,
        other => return expected("a string", other),
    };
    match table.iter().find(|(w, _)| *w == text) {
        Some(&(_, t)) => Ok(t),
        None => {
            let words: Vec<&str> = table.iter().map(|(w, _)| *w).collect();
            Err(Wrong::new(format!(
                "\"{text}\" is not one of {}",
                words.join(", ")
            )))
        }
    }
}

/// An enum's variant as serde writes it: its name alone (`"All"`), or an object of one field,
/// the name and its content (`{"Anchor": 0}`; the content is `null` for a name alone).
///
/// # Errors
/// Anything else.
pub fn variant(value: &Value) -> Read<(&str, &Value)> {
    static NULL: Value = Value::Null;
    match value {
        Value::String(name) => Ok((name, &NULL)),
        Value::Object(map) if map.len() == 1 => match map.iter().next() {
            Some((name, content)) => Ok((name, content)),
            None => Err(Wrong::new("expected a variant")),
        },
        other => expected("a name, or an object of one field", other),
    }
}

/// The error for a variant name that is not one of `names`.
pub fn unknown_variant(name: &str, names: &[&str]) -> Wrong {
    Wrong::new(format!("\"{name}\" is not one of {}", names.join(", ")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn obj(value: &Value) -> Fields<'_> {
        fields(value).unwrap()
    }

    #[test]
    fn fields_are_taken_required_or_optional() {
        let v = json!({"a": "x", "b": null, "n": 3});
        let mut f = obj(&v);
        assert_eq!(f.take("a", string), "x");
        assert_eq!(f.maybe("b", string), None);
        assert_eq!(f.maybe("c", string), None);
        assert_eq!(f.maybe("n", count), Some(3));
        assert_eq!(f.done(()), Ok(()));
        let v = json!({"n": 3, "m": 4});
        let mut f = obj(&v);
        assert_eq!(f.take("z", string), "");
        assert_eq!(f.take("m", count), 4);
        assert_eq!(f.done(()).unwrap_err().to_string(), "z: missing");
        let v = json!({"n": 3});
        let mut f = obj(&v);
        assert_eq!(f.maybe("n", string), None);
        assert_eq!(f.take("z", string), "");
        let e = f.done(()).unwrap_err();
        assert_eq!(e.to_string(), "n: expected a string, found a number");
    }

    #[test]
    fn places_are_gathered_on_the_way_out() {
        fn inner(v: &Value) -> Read<Vec<u32>> {
            let mut f = fields(v)?;
            let xs = f.take("xs", |v| list(v, count));
            f.done(xs)
        }
        let v = json!({"items": [{"xs": [1]}, {"xs": [1, -2]}]});
        let mut f = obj(&v);
        f.take("items", |v| list(v, inner));
        let e = f.done(()).unwrap_err();
        assert_eq!(e.place("study"), "study.items[1].xs[1]");
        assert_eq!(e.what(), "expected a whole number from 0, found a number");
        let e = map(&json!({"a b": 1, "c": "x"}), count).unwrap_err();
        assert_eq!(e.place("outputs"), "outputs.c");
        let e = map(&json!({"a \"b\"": "x"}), count).unwrap_err();
        assert_eq!(e.place("outputs"), "outputs[\"a \\\"b\\\"\"]");
        assert_eq!(e.place(""), "[\"a \\\"b\\\"\"]");
    }

    #[test]
    fn numbers_are_held_to_their_range() {
        assert_eq!(whole(&json!(u64::MAX)), Ok(u64::MAX));
        assert!(whole(&json!(1.5)).is_err());
        assert!(whole(&json!(-1)).is_err());
        assert!(count(&json!(u64::from(u32::MAX) + 1)).is_err());
        assert_eq!(integer(&json!(-7)), Ok(-7));
        assert!(integer(&json!(i64::from(i32::MAX) + 1)).is_err());
        assert!(integer(&json!(2.0)).is_err());
        assert_eq!(number(&json!(2)), Ok(2.0));
        assert_eq!(number(&json!(-0.25)), Ok(-0.25));
        assert!(number(&json!("2")).is_err());
        assert_eq!(index(&json!(4)), Ok(4));
    }

    #[test]
    fn words_and_variants_read_as_serde_writes_them() {
        let table = [("single", 1), ("pairs", 2)];
        assert_eq!(word(&json!("pairs"), &table), Ok(2));
        let e = word(&json!("trios"), &table).unwrap_err();
        assert_eq!(e.what(), "\"trios\" is not one of single, pairs");
        assert_eq!(variant(&json!("All")), Ok(("All", &Value::Null)));
        assert_eq!(variant(&json!({"Anchor": 0})), Ok(("Anchor", &json!(0))));
        assert!(variant(&json!({"A": 0, "B": 1})).is_err());
        assert!(variant(&json!({})).is_err());
        assert!(variant(&json!([1])).is_err());
    }
}
