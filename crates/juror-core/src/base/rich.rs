//! Rich text: a study's Markdown rendered once, on the researcher's side, into a small tree of
//! whitelisted elements that the annotator's page turns into DOM nodes, never into HTML
//! strings.
//!
//! A [`Node`] is text or an element of [`Tag`]'s short list, with attributes of [`Attr`]'s
//! short list. The tree is written compactly in JSON: text as a string, an element as an array
//! `[tag, {attributes}?, children…]`, so that `**Hi** [there](https://example.org)` is
//! `[["p", ["strong", "Hi"], " ", ["a", {"href": "https://example.org"}, "there"]]]`. Reading
//! a tree checks it again, whoever wrote it: an unknown element or attribute, a link to a
//! scheme other than `http:`, `https:` and `mailto:`, an image from another site, children in
//! an element that has none, or nesting deeper than [`MAX_DEPTH`] is refused, so that a
//! compiled study edited by hand cannot put script or a request to another site into the page.
//!
//! [`Text`] is what a study's Markdown fields hold: the source as written, or its tree.

use std::fmt;

use serde::Serialize;
use serde::ser::{SerializeMap, SerializeSeq, Serializer};

use crate::base::json::{Read, Value, Wrong};

/// How deeply elements may nest in a tree that is read (Markdown's own lists and quotes rarely
/// pass 10): deeper is refused rather than risking the page's stack.
pub const MAX_DEPTH: usize = 64;

/// Text, or an element with its attributes and children.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Node {
    /// Text, shown as it is (never parsed as markup).
    Text(String),
    /// An element.
    Element(Element),
}

/// An element of the whitelist.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Element {
    /// Which element.
    pub tag: Tag,
    /// Its attributes, each at most once, in the order of their names (as a compiled study's
    /// reader finds them: [`Element::set`] keeps that order).
    pub attrs: Vec<(Attr, String)>,
    /// Its children (none for [`Tag::is_void`] elements).
    pub children: Vec<Node>,
}

macro_rules! names {
    ($(#[$meta:meta])* $vis:vis enum $name:ident { $($variant:ident = $text:literal,)* }) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        $vis enum $name {
            $(#[doc = concat!("`", $text, "`")] $variant,)*
        }

        impl $name {
            /// Every one, in declaration order.
            pub const ALL: &'static [$name] = &[$($name::$variant,)*];

            /// Its name in HTML (and in a tree's JSON).
            pub fn name(self) -> &'static str {
                match self {
                    $($name::$variant => $text,)*
                }
            }

            /// The one with this name, if it is on the list.
            pub fn from_name(name: &str) -> Option<$name> {
                match name {
                    $($text => Some($name::$variant),)*
                    _ => None,
                }
            }
        }
    };
}

names! {
    /// The elements a tree may contain: what Markdown (with tables and strikethrough) makes,
    /// headings from `h2` (the page's own title is its only `h1`).
    pub enum Tag {
        P = "p",
        H2 = "h2",
        H3 = "h3",
        H4 = "h4",
        H5 = "h5",
        H6 = "h6",
        Em = "em",
        Strong = "strong",
        Del = "del",
        Code = "code",
        Pre = "pre",
        Blockquote = "blockquote",
        Ul = "ul",
        Ol = "ol",
        Li = "li",
        A = "a",
        Img = "img",
        Table = "table",
        Thead = "thead",
        Tbody = "tbody",
        Tr = "tr",
        Th = "th",
        Td = "td",
        Br = "br",
        Hr = "hr",
    }
}

names! {
    /// The attributes an element may carry.
    pub enum Attr {
        Href = "href",
        Src = "src",
        Alt = "alt",
        Title = "title",
        Start = "start",
        Align = "align",
    }
}

impl Tag {
    /// Whether the element has no children (`br`, `hr`, `img`).
    pub fn is_void(self) -> bool {
        matches!(self, Tag::Br | Tag::Hr | Tag::Img)
    }

    /// The attributes this element may carry.
    pub fn allows(self, attr: Attr) -> bool {
        match attr {
            Attr::Href => self == Tag::A,
            Attr::Src | Attr::Alt => self == Tag::Img,
            Attr::Title => matches!(self, Tag::A | Tag::Img),
            Attr::Start => self == Tag::Ol,
            Attr::Align => matches!(self, Tag::Th | Tag::Td),
        }
    }
}

/// Why a tree, or a value in it, is refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// An element that is not on [`Tag`]'s list.
    UnknownElement(String),
    /// An attribute that is not on [`Attr`]'s list, or not one this element may carry.
    UnknownAttribute(Tag, String),
    /// A link to a scheme other than `http:`, `https:` and `mailto:`.
    UnsafeLink(String),
    /// An image from another site (the page would request it).
    RemoteImage(String),
    /// An `align` other than `left`, `center` and `right`, or a `start` that is not a number.
    BadValue(Attr, String),
    /// Children inside `br`, `hr` or `img`.
    ChildrenInVoid(Tag),
    /// Elements nested deeper than [`MAX_DEPTH`].
    TooDeep,
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refusal::UnknownElement(name) => write!(f, "element `{name}` is not allowed"),
            Refusal::UnknownAttribute(tag, name) => {
                write!(f, "attribute `{name}` is not allowed on `{}`", tag.name())
            }
            Refusal::UnsafeLink(url) => write!(f, "link `{url}` goes to a scheme not allowed"),
            Refusal::RemoteImage(url) => write!(f, "image `{url}` is on another site"),
            Refusal::BadValue(attr, value) => {
                write!(f, "`{value}` is not a value of `{}`", attr.name())
            }
            Refusal::ChildrenInVoid(tag) => write!(f, "`{}` has children", tag.name()),
            Refusal::TooDeep => write!(f, "elements nest deeper than {MAX_DEPTH}"),
        }
    }
}

impl Element {
    /// An element without attributes.
    pub fn new(tag: Tag, children: Vec<Node>) -> Element {
        Element {
            tag,
            attrs: Vec::new(),
            children,
        }
    }

    /// The value of `attr`, if the element carries it.
    pub fn attr(&self, attr: Attr) -> Option<&str> {
        self.attrs
            .iter()
            .find(|(a, _)| *a == attr)
            .map(|(_, v)| v.as_str())
    }

    /// Adds (or replaces) an attribute after checking it: the value a page may safely set.
    ///
    /// # Errors
    /// The [`Refusal`] of an attribute this element may not carry or of an unsafe value.
    pub fn set(&mut self, attr: Attr, value: String) -> Result<(), Refusal> {
        check_attr(self.tag, attr, &value)?;
        let name = attr.name();
        match self.attrs.iter().position(|(a, _)| a.name() >= name) {
            Some(at) if self.attrs[at].0 == attr => self.attrs[at].1 = value,
            Some(at) => self.attrs.insert(at, (attr, value)),
            None => self.attrs.push((attr, value)),
        }
        Ok(())
    }
}

/// Checks one attribute's value on `tag`.
fn check_attr(tag: Tag, attr: Attr, value: &str) -> Result<(), Refusal> {
    if !tag.allows(attr) {
        return Err(Refusal::UnknownAttribute(tag, attr.name().to_owned()));
    }
    match attr {
        Attr::Href if !is_safe_link(value) => Err(Refusal::UnsafeLink(value.to_owned())),
        Attr::Src if is_remote(value) => Err(Refusal::RemoteImage(value.to_owned())),
        Attr::Align if !matches!(value, "left" | "center" | "right") => {
            Err(Refusal::BadValue(attr, value.to_owned()))
        }
        Attr::Start if value.is_empty() || !value.bytes().all(|b| b.is_ascii_digit()) => {
            Err(Refusal::BadValue(attr, value.to_owned()))
        }
        _ => Ok(()),
    }
}

/// A URL as a browser reads it, for deciding where it goes: trimmed of the control characters
/// and spaces the URL parser drops at either end (and of other white space), lower case,
/// without the ASCII tabs and line breaks the parser drops, and with `\` read as `/` (as it is
/// in http(s) URLs, so `/\host` is `//host`).
fn as_parsed(url: &str) -> String {
    url.trim_matches(|c: char| c <= ' ' || c.is_whitespace())
        .chars()
        .filter(|c| !matches!(c, '\t' | '\n' | '\r'))
        .map(|c| {
            if c == '\\' {
                '/'
            } else {
                c.to_ascii_lowercase()
            }
        })
        .collect()
}

/// Whether a URL names a scheme (`https:`, `javascript:`, ...) or another host (`//host`)
/// rather than a path on this site.
pub fn is_remote(url: &str) -> bool {
    let lower = as_parsed(url);
    // Another host, whatever follows (`//host:8080/x`, `//host/x?a:b`): checked first.
    if lower.starts_with("//") {
        return true;
    }
    let scheme_end = lower.find(':');
    let path_start = lower.find(['/', '?', '#']);
    match (scheme_end, path_start) {
        (Some(c), Some(p)) => c < p,
        (Some(_), None) => true,
        _ => false,
    }
}

/// Whether a link may be followed from the page: a path on this site, another host, or an
/// `http:`, `https:` or `mailto:` address (not `javascript:`, `data:`, ...).
pub fn is_safe_link(url: &str) -> bool {
    let lower = as_parsed(url);
    !is_remote(url)
        || ["http:", "https:", "mailto:", "//"]
            .iter()
            .any(|s| lower.starts_with(s))
}

/// Checks a tree read from elsewhere (what [`Node`]'s reader does for every element).
///
/// # Errors
/// The first [`Refusal`].
pub fn check(nodes: &[Node]) -> Result<(), Refusal> {
    fn walk(nodes: &[Node], depth: usize) -> Result<(), Refusal> {
        for node in nodes {
            if let Node::Element(e) = node {
                if depth >= MAX_DEPTH {
                    return Err(Refusal::TooDeep);
                }
                for (attr, value) in &e.attrs {
                    check_attr(e.tag, *attr, value)?;
                }
                if e.tag.is_void() && !e.children.is_empty() {
                    return Err(Refusal::ChildrenInVoid(e.tag));
                }
                walk(&e.children, depth + 1)?;
            }
        }
        Ok(())
    }
    walk(nodes, 0)
}

/// The text of a tree without its markup (an image's `alt` stands for it): what a screen
/// shows once the styling is gone, for counts and searches.
pub fn plain(nodes: &[Node]) -> String {
    fn walk(nodes: &[Node], out: &mut String) {
        for node in nodes {
            match node {
                Node::Text(t) => out.push_str(t),
                Node::Element(e) => {
                    if e.tag == Tag::Img {
                        out.push_str(e.attr(Attr::Alt).unwrap_or(""));
                    }
                    walk(&e.children, out);
                }
            }
        }
    }
    let mut out = String::new();
    walk(nodes, &mut out);
    out
}

/// One of a study's Markdown fields: the source as written (which the annotator's page shows
/// as plain text, as it does a task's outputs to be read as written), or the tree its
/// Markdown was rendered to by compiling the study.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Text {
    /// As written.
    Source(String),
    /// Rendered.
    Rich(Vec<Node>),
}

impl Text {
    /// The source, when this is not rendered.
    pub fn source(&self) -> Option<&str> {
        match self {
            Text::Source(s) => Some(s),
            Text::Rich(_) => None,
        }
    }

    /// The text as written, when the field holds it so: the source, or a tree of one text node
    /// (what a compiled study holds for outputs shown as plain text, whose characters span
    /// offsets count).
    pub fn verbatim(&self) -> Option<&str> {
        match self {
            Text::Source(s) => Some(s),
            Text::Rich(nodes) => match nodes.as_slice() {
                [Node::Text(s)] => Some(s),
                _ => None,
            },
        }
    }

    /// The text without markup: the source as written, or the tree's [`plain`] text.
    pub fn plain(&self) -> std::borrow::Cow<'_, str> {
        match self {
            Text::Source(s) => std::borrow::Cow::Borrowed(s),
            Text::Rich(nodes) => std::borrow::Cow::Owned(plain(nodes)),
        }
    }
}

impl From<String> for Text {
    fn from(source: String) -> Text {
        Text::Source(source)
    }
}

impl From<&str> for Text {
    fn from(source: &str) -> Text {
        Text::Source(source.to_owned())
    }
}

// ---- JSON: a node is a string or `[tag, {attrs}?, children…]` --------------------------------

impl Serialize for Node {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Node::Text(t) => serializer.serialize_str(t),
            Node::Element(e) => {
                let attrs = usize::from(!e.attrs.is_empty());
                let mut seq = serializer.serialize_seq(Some(1 + attrs + e.children.len()))?;
                seq.serialize_element(e.tag.name())?;
                if !e.attrs.is_empty() {
                    seq.serialize_element(&Attrs(&e.attrs))?;
                }
                for child in &e.children {
                    seq.serialize_element(child)?;
                }
                seq.end()
            }
        }
    }
}

struct Attrs<'a>(&'a [(Attr, String)]);

impl Serialize for Attrs<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (attr, value) in self.0 {
            map.serialize_entry(attr.name(), value)?;
        }
        map.end()
    }
}

impl Serialize for Text {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Text::Source(s) => serializer.serialize_str(s),
            Text::Rich(nodes) => nodes.serialize(serializer),
        }
    }
}

/// Reads a [`Text`] out of a parsed value (a compiled study's field): a string is the source
/// as written, a list a rendered tree, each element checked as it is read.
///
/// # Errors
/// What is not a text, or a tree with a [`Refusal`], placed within the value.
pub fn read_text(value: &Value) -> Read<Text> {
    match value {
        Value::String(s) => Ok(Text::Source(s.clone())),
        Value::Array(values) => read_nodes(values, 0).map(Text::Rich),
        _ => Err(Wrong::new("expected text, or a list of rendered nodes")),
    }
}

/// Reads the nodes of `values`, at `depth`.
fn read_nodes(values: &[Value], depth: usize) -> Read<Vec<Node>> {
    let mut nodes = Vec::with_capacity(values.len());
    for (i, value) in values.iter().enumerate() {
        nodes.push(read_node(value, depth).map_err(|e| e.in_index(i))?);
    }
    Ok(nodes)
}

/// Reads one node: text, or an element as `[tag, {attributes}?, children…]`.
fn read_node(value: &Value, depth: usize) -> Read<Node> {
    let values = match value {
        Value::String(s) => return Ok(Node::Text(s.clone())),
        Value::Array(values) => values,
        _ => {
            return Err(Wrong::new(
                "expected text, or an element as [tag, {attributes}, children...]",
            ));
        }
    };
    if depth >= MAX_DEPTH {
        return Err(Wrong::new(Refusal::TooDeep.to_string()));
    }
    let tag = match values.first() {
        Some(Value::String(name)) => Tag::from_name(name)
            .ok_or_else(|| Wrong::new(Refusal::UnknownElement(name.clone()).to_string()))?,
        _ => return Err(Wrong::new("an element needs its tag first")),
    };
    let mut element = Element::new(tag, Vec::new());
    for (i, value) in values.iter().enumerate().skip(1) {
        let at = |e: Wrong| e.in_index(i);
        match value {
            Value::Object(attrs) if i == 1 => {
                for (name, value) in attrs {
                    let Value::String(value) = value else {
                        return Err(at(Wrong::new("an attribute's value is text").in_key(name)));
                    };
                    let attr = Attr::from_name(name).ok_or_else(|| {
                        at(Wrong::new(
                            Refusal::UnknownAttribute(tag, name.clone()).to_string(),
                        ))
                    })?;
                    element
                        .set(attr, value.clone())
                        .map_err(|r| at(Wrong::new(r.to_string()).in_key(name)))?;
                }
            }
            Value::Object(_) => {
                return Err(at(Wrong::new(
                    "an element's attributes come right after its tag",
                )));
            }
            child => {
                if tag.is_void() {
                    return Err(at(Wrong::new(Refusal::ChildrenInVoid(tag).to_string())));
                }
                element
                    .children
                    .push(read_node(child, depth + 1).map_err(at)?);
            }
        }
    }
    Ok(Node::Element(element))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(t: &str) -> Node {
        Node::Text(t.to_owned())
    }

    /// Reads a text from JSON as a compiled study's reader does.
    fn read(json: &str) -> Result<Text, String> {
        let value: Value = serde_json::from_str(json).map_err(|e| e.to_string())?;
        read_text(&value).map_err(|e| e.to_string())
    }

    fn el(tag: Tag, children: Vec<Node>) -> Node {
        Node::Element(Element::new(tag, children))
    }

    fn link(href: &str, children: Vec<Node>) -> Node {
        let mut a = Element::new(Tag::A, children);
        a.attrs.push((Attr::Href, href.to_owned()));
        Node::Element(a)
    }

    #[test]
    fn a_tree_is_written_compactly_and_read_back() {
        let tree = Text::Rich(vec![el(
            Tag::P,
            vec![
                el(Tag::Strong, vec![text("Hi")]),
                text(" "),
                link("https://example.org", vec![text("there")]),
            ],
        )]);
        let json = serde_json::to_string(&tree).unwrap();
        assert_eq!(
            json,
            r#"[["p",["strong","Hi"]," ",["a",{"href":"https://example.org"},"there"]]]"#
        );
        assert_eq!(read(&json).unwrap(), tree);
        assert_eq!(tree.plain(), "Hi there");
        let source = read(r#""**Hi**""#).unwrap();
        assert_eq!(source, Text::Source("**Hi**".to_owned()));
        assert_eq!(serde_json::to_string(&source).unwrap(), r#""**Hi**""#);
    }

    #[test]
    fn every_element_and_attribute_name_round_trips() {
        for tag in Tag::ALL {
            assert_eq!(Tag::from_name(tag.name()), Some(*tag));
        }
        for attr in Attr::ALL {
            assert_eq!(Attr::from_name(attr.name()), Some(*attr));
        }
        assert_eq!(Tag::from_name("script"), None);
        assert_eq!(Tag::from_name("h1"), None);
        assert_eq!(Attr::from_name("onerror"), None);
        assert_eq!(Attr::from_name("style"), None);
    }

    #[test]
    fn what_could_run_script_or_reach_another_site_is_refused_on_reading() {
        for (json, why) in [
            (r#"[["script","alert(1)"]]"#, "element `script`"),
            (r#"[["iframe",{"src":"https://x"}]]"#, "element `iframe`"),
            (
                r#"[["p",{"onclick":"alert(1)"},"x"]]"#,
                "attribute `onclick`",
            ),
            (r#"[["p",{"style":"x"},"x"]]"#, "attribute `style`"),
            (
                r#"[["p",{"href":"https://x"},"x"]]"#,
                "attribute `href` is not allowed on `p`",
            ),
            (
                r#"[["a",{"href":"javascript:alert(1)"},"x"]]"#,
                "scheme not allowed",
            ),
            (
                r#"[["a",{"href":" JavaScript:alert(1)"},"x"]]"#,
                "scheme not allowed",
            ),
            (
                r#"[["a",{"href":"data:text/html,x"},"x"]]"#,
                "scheme not allowed",
            ),
            (
                r#"[["img",{"src":"https://evil.example/p.png"}]]"#,
                "another site",
            ),
            (
                r#"[["img",{"src":"//evil.example/p.png"}]]"#,
                "another site",
            ),
            (
                r#"[["img",{"src":"/\\evil.example/p.png"}]]"#,
                "another site",
            ),
            (r#"[["img",{"src":"a.png"},"child"]]"#, "has children"),
            (r#"[["br","child"]]"#, "has children"),
            (r#"[["td",{"align":"x;y"},"x"]]"#, "not a value of `align`"),
            (r#"[["ol",{"start":"1e9"}]]"#, "not a value of `start`"),
            (r#"[["p","x",{"title":"late"}]]"#, "right after its tag"),
            (r#"[[]]"#, "tag first"),
            (r#"[[1]]"#, "tag first"),
            (
                r#"[["a",{"href":1},"x"]]"#,
                "[0][1].href: an attribute's value is text",
            ),
            (
                r#"[["p",["em",["strong",{"onclick":"x"}]]]]"#,
                "[0][1][1][1]: attribute `onclick`",
            ),
            (r#"{"p":"x"}"#, "expected text"),
        ] {
            let err = read(json).unwrap_err();
            assert!(err.contains(why), "{json}: {err}");
        }
        let deep = format!("[{}\"x\"{}]", "[\"em\",".repeat(70), "]".repeat(70));
        let err = read(&deep).unwrap_err();
        assert!(err.contains("deeper than 64"), "{err}");
        let ok = format!("[{}\"x\"{}]", "[\"em\",".repeat(60), "]".repeat(60));
        assert!(read(&ok).is_ok());
    }

    #[test]
    fn safe_links_and_local_images_are_kept() {
        let json = r#"[["p",["a",{"href":"https://example.org/a:b","title":"t"},"x"],["a",{"href":"docs/a.md"},"y"],["a",{"href":"mailto:a@b.c"},"z"],["img",{"alt":"chart","src":"media/a:b.png"}]],["ol",{"start":"3"},["li","one"]],["table",["tr",["td",{"align":"center"},"1"]]]]"#;
        let tree = read(json).unwrap();
        assert_eq!(serde_json::to_string(&tree).unwrap(), json);
        let Text::Rich(nodes) = &tree else {
            panic!("a tree")
        };
        assert_eq!(check(nodes), Ok(()));
        assert_eq!(tree.plain(), "xyzchartone1");
    }

    #[test]
    fn check_finds_what_a_tree_built_in_code_should_not_hold() {
        let mut a = Element::new(Tag::A, vec![text("x")]);
        assert!(a.set(Attr::Href, "javascript:x".to_owned()).is_err());
        a.attrs.push((Attr::Href, "vbscript:x".to_owned()));
        assert_eq!(
            check(&[Node::Element(a)]),
            Err(Refusal::UnsafeLink("vbscript:x".to_owned()))
        );
        let hr = Element::new(Tag::Hr, vec![text("x")]);
        assert_eq!(
            check(&[Node::Element(hr)]),
            Err(Refusal::ChildrenInVoid(Tag::Hr))
        );
    }

    #[test]
    fn remote_is_any_scheme_or_host_in_any_spelling_the_url_parser_accepts() {
        for url in [
            "https://x",
            "//evil.example:8080/p.png",
            "//evil.example/p.png?a:b",
            "/\\evil.example/p.png",
            "\t//evil.example/p.png",
            "\u{1}//evil.example/p.png",
            "\u{1f}javascript:x",
            "JAVASCRIPT:x",
        ] {
            assert!(is_remote(url), "{url}");
        }
        for url in ["media/a:b.png", "a.png", "/x/y.png", "#top", "?q=a:b"] {
            assert!(!is_remote(url), "{url}");
        }
    }
}
