//! [`Name`], the id of an item, a system, an annotator or a dimension in the tidy tables, and
//! [`Names`], which hands out one shared copy of each.
//!
//! A data set of 480,000 ratings names a few thousand things: reading it gives every row its
//! ids as shared copies (a reference count, no allocation), so that reading, grouping and
//! copying rows costs no string work. A `Name` behaves as the text it holds: it compares,
//! orders, hashes, prints and serialises as that text.

use std::borrow::Borrow;
use std::collections::{HashMap, HashSet};
use std::fmt;
use std::ops::Deref;
use std::sync::Arc;

use crate::base::fast_hash::FastHash;

/// An id, shared: cloning it is a reference count. One pointer wide (the text is boxed
/// behind the count), so that a row of four ids and its file's name stays small.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Name(Arc<Box<str>>);

impl Name {
    /// The text.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    fn new(text: Box<str>) -> Name {
        Name(Arc::new(text))
    }
}

impl Deref for Name {
    type Target = str;
    fn deref(&self) -> &str {
        &self.0
    }
}

impl Borrow<str> for Name {
    fn borrow(&self) -> &str {
        &self.0
    }
}

impl AsRef<str> for Name {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl From<&str> for Name {
    fn from(s: &str) -> Name {
        Name::new(s.into())
    }
}

impl From<String> for Name {
    fn from(s: String) -> Name {
        Name::new(s.into())
    }
}

impl From<&String> for Name {
    fn from(s: &String) -> Name {
        Name::new(s.as_str().into())
    }
}

impl From<Name> for String {
    fn from(n: Name) -> String {
        n.as_str().to_owned()
    }
}

impl From<&Name> for String {
    fn from(n: &Name) -> String {
        n.as_str().to_owned()
    }
}

impl PartialEq<str> for Name {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for Name {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl PartialEq<String> for Name {
    fn eq(&self, other: &String) -> bool {
        self.as_str() == other.as_str()
    }
}

impl PartialEq<Name> for String {
    fn eq(&self, other: &Name) -> bool {
        *self == other.as_str()
    }
}

impl PartialEq<Name> for &str {
    fn eq(&self, other: &Name) -> bool {
        *self == other.as_str()
    }
}

impl fmt::Display for Name {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Debug for Name {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl serde::Serialize for Name {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

/// A JSON Schema of a plain string, for a type that serialises as its text.
macro_rules! string_schema {
    ($t:ty) => {
        impl schemars::JsonSchema for $t {
            fn schema_name() -> std::borrow::Cow<'static, str> {
                "String".into()
            }
            fn inline_schema() -> bool {
                true
            }
            fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
                <String as schemars::JsonSchema>::json_schema(generator)
            }
        }
    };
}
pub(crate) use string_schema;

string_schema!(Name);

/// One shared [`Name`] per distinct text.
#[derive(Debug, Default)]
pub struct Names(HashSet<Name, FastHash>);

impl Names {
    /// The shared name of `text`, made on first use.
    pub fn get(&mut self, text: &str) -> Name {
        if let Some(name) = self.0.get(text) {
            return name.clone();
        }
        let name = Name::from(text);
        self.0.insert(name.clone());
        name
    }
}

/// Dense numbers for names, by text: two names with the same text get the same number, whether
/// or not they share a copy (rows made by [`Names`] do, and cost a pointer lookup; others are
/// looked up by text once per copy). Numbers count from 0 in order of first sight, so that
/// grouping and duplicate checks work on integers.
#[derive(Debug, Default)]
pub struct Ids<'a> {
    by_copy: HashMap<*const u8, u32, FastHash>,
    /// The last copy looked up, and its number: a column sorted or grouped repeats it.
    last: Option<(*const u8, u32)>,
    by_text: HashMap<&'a str, u32, FastHash>,
    texts: Vec<&'a str>,
}

impl<'a> Ids<'a> {
    /// The number of `name`.
    pub fn id(&mut self, name: &'a Name) -> u32 {
        let copy = name.0.as_ptr();
        match self.last {
            Some((last, id)) if last == copy => return id,
            _ => {}
        }
        if let Some(&id) = self.by_copy.get(&copy) {
            self.last = Some((copy, id));
            return id;
        }
        let next = u32::try_from(self.texts.len()).unwrap_or(u32::MAX);
        let id = *self.by_text.entry(name.as_str()).or_insert(next);
        if id == next {
            self.texts.push(name.as_str());
        }
        self.by_copy.insert(copy, id);
        self.last = Some((copy, id));
        id
    }

    /// The text of a number given out.
    pub fn text(&self, id: u32) -> &'a str {
        self.texts[id as usize]
    }

    /// How many distinct texts have numbers.
    pub fn len(&self) -> usize {
        self.texts.len()
    }

    /// Whether no number was given out.
    pub fn is_empty(&self) -> bool {
        self.texts.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_is_its_text_and_names_share_one_copy() {
        let mut names = Names::default();
        let a = names.get("item-1");
        let b = names.get("item-1");
        assert!(Arc::ptr_eq(&a.0, &b.0));
        assert_eq!(a, "item-1");
        assert_eq!(a.to_string(), "item-1");
        assert_eq!(format!("{a:?}"), "\"item-1\"");
        assert_eq!(serde_json::to_string(&a).unwrap(), "\"item-1\"");
        assert!(names.get("a") < names.get("b"));
        assert_eq!(Name::from("x"), Name::from(String::from("x")));
    }

    #[test]
    fn ids_go_by_text_whether_or_not_a_copy_is_shared() {
        let mut names = Names::default();
        let (a, a2, own, b) = (
            names.get("a"),
            names.get("a"),
            Name::from("a"),
            names.get("b"),
        );
        let mut ids = Ids::default();
        assert_eq!(ids.id(&a), 0);
        assert_eq!(ids.id(&b), 1);
        assert_eq!(ids.id(&a2), 0);
        assert_eq!(ids.id(&own), 0, "an unshared copy of the same text");
        assert_eq!((ids.text(1), ids.len()), ("b", 2));
    }
}
