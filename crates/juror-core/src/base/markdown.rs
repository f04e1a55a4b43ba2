//! Markdown to a [`rich`] tree for prompts, outputs, instructions and descriptions.
//!
//! Outputs of AI systems are untrusted text: raw HTML in them is shown as text, never
//! interpreted, and `javascript:`-style links are neutralised (their address becomes `#`).
//! Everything else is CommonMark with tables and strikethrough. Headings are moved down a level
//! or more, so that the page's own `<h1>` stays the only one (a study's `# Title` becomes an
//! `<h2>`); images from another site become links to them, so that showing a study requests
//! nothing from elsewhere. The tree holds only [`rich::Tag`]'s elements and [`rich::Attr`]'s
//! attributes, checked values and nothing deeper than [`rich::MAX_DEPTH`]: what
//! [`rich::check`] accepts. The page turns it into DOM nodes (text always as text), adding to
//! every link that it opens apart (`target="_blank"`, `rel="noopener noreferrer"`).

use crate::base::rich::{self, Attr, Element, MAX_DEPTH, Node, is_remote, is_safe_link};
use pulldown_cmark::{Alignment, Event, LinkType, Options, Parser, Tag, TagEnd};

/// Renders Markdown into a tree, headings `shift` levels down (`#` becomes `<h2>` with a shift
/// of 1; at most `<h6>`, and never `<h1>`): for text shown under a page's `<h2>`, shift by 2.
pub fn to_rich(markdown: &str, shift: usize) -> Vec<Node> {
    let options = Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH;
    let mut tree = Tree::default();
    for event in Parser::new_ext(markdown, options) {
        tree.event(event, shift);
    }
    tree.finish()
}

/// What an open frame becomes when it ends.
enum Open {
    /// An element.
    Element(Element),
    /// An image on this site: its children become its `alt`.
    Image { src: String, title: String },
    /// Nothing: its children go to the parent (raw HTML blocks, and elements past the depth
    /// limit).
    Through,
}

struct Frame {
    open: Open,
    children: Vec<Node>,
    /// Elements opened past the depth limit while this frame was the innermost, not yet
    /// closed: no frame of their own, their children come here (as a [`Open::Through`]'s would).
    skipped: usize,
}

/// The tree being built: a stack of open frames above the finished top level, with running
/// counts, so that deep nesting costs no walk of the stack.
#[derive(Default)]
struct Tree {
    top: Vec<Node>,
    stack: Vec<Frame>,
    /// Frames on the stack that are not [`Open::Through`]: the depth a new element would have.
    depth: usize,
    /// Frames on the stack that are [`Open::Image`].
    images: usize,
    /// The current table's column alignments, whether its head is open, and the next cell.
    alignments: Vec<Alignment>,
    in_head: bool,
    cell: usize,
}

fn element(tag: rich::Tag) -> Open {
    Open::Element(Element::new(tag, Vec::new()))
}

/// Adds a node, joining text to the text before it.
fn push(children: &mut Vec<Node>, node: Node) {
    if let (Node::Text(t), Some(Node::Text(last))) = (&node, children.last_mut()) {
        last.push_str(t);
        return;
    }
    if !matches!(&node, Node::Text(t) if t.is_empty()) {
        children.push(node);
    }
}

impl Tree {
    fn children(&mut self) -> &mut Vec<Node> {
        match self.stack.last_mut() {
            Some(frame) => &mut frame.children,
            None => &mut self.top,
        }
    }

    fn text(&mut self, text: &str) {
        push(self.children(), Node::Text(text.to_owned()));
    }

    /// Adds an element with no nested elements (`br`, `hr`, `img`, inline `code`), or, past
    /// the depth limit, its text.
    fn leaf(&mut self, e: Element) {
        let node = if self.depth < MAX_DEPTH {
            Node::Element(e)
        } else {
            Node::Text(leaf_text(&e))
        };
        push(self.children(), node);
    }

    fn open(&mut self, open: Open) {
        match (&open, self.stack.last_mut()) {
            // Past the depth limit an element is left out, its children kept.
            (Open::Element(_), Some(frame)) if self.depth >= MAX_DEPTH => {
                frame.skipped += 1;
                return;
            }
            (Open::Through, _) => {}
            (Open::Image { .. }, _) => {
                self.images += 1;
                self.depth += 1;
            }
            (Open::Element(_), _) => self.depth += 1,
        }
        self.stack.push(Frame {
            open,
            children: Vec::new(),
            skipped: 0,
        });
    }

    fn open_tag(&mut self, tag: rich::Tag) {
        self.open(element(tag));
    }

    fn close(&mut self) {
        if let Some(frame) = self.stack.last_mut()
            && frame.skipped > 0
        {
            frame.skipped -= 1;
            return;
        }
        let Some(Frame { open, children, .. }) = self.stack.pop() else {
            return;
        };
        match open {
            Open::Element(mut e) => {
                self.depth -= 1;
                e.children = children;
                push(self.children(), Node::Element(e));
            }
            Open::Image { src, title } => {
                self.depth -= 1;
                self.images -= 1;
                let mut img = Element::new(rich::Tag::Img, Vec::new());
                // In name order, as every element's attributes are (`rich::Element::attrs`).
                img.attrs.push((Attr::Alt, rich::plain(&children)));
                img.attrs.push((Attr::Src, src));
                if !title.is_empty() {
                    img.attrs.push((Attr::Title, title));
                }
                self.leaf(img);
            }
            Open::Through => {
                for child in children {
                    push(self.children(), child);
                }
            }
        }
    }

    fn event(&mut self, event: Event<'_>, shift: usize) {
        match event {
            Event::Start(tag) => self.start(tag, shift),
            Event::End(end) => self.end(end),
            Event::Text(t) | Event::Html(t) | Event::InlineHtml(t) => self.text(&t),
            Event::Code(t) => {
                let mut code = Vec::new();
                push(&mut code, Node::Text(t.into_string()));
                self.leaf(Element::new(rich::Tag::Code, code));
            }
            // In an image's `alt`, a line break is a space.
            Event::SoftBreak | Event::HardBreak if self.images > 0 => self.text(" "),
            Event::SoftBreak => self.text("\n"),
            Event::HardBreak => self.leaf(Element::new(rich::Tag::Br, Vec::new())),
            Event::Rule => self.leaf(Element::new(rich::Tag::Hr, Vec::new())),
            // Not enabled: footnotes, task lists, maths.
            _ => {}
        }
    }

    fn start(&mut self, tag: Tag<'_>, shift: usize) {
        use rich::Tag as T;
        match tag {
            Tag::Paragraph => self.open_tag(T::P),
            Tag::Heading { level, .. } => self.open_tag(heading(level as usize + shift)),
            Tag::BlockQuote(_) => self.open_tag(T::Blockquote),
            Tag::CodeBlock(_) => {
                // `pre > code`, the language (if any) dropped: the page highlights nothing.
                self.open_tag(T::Pre);
                self.open_tag(T::Code);
            }
            Tag::List(Some(start)) => {
                let mut ol = Element::new(T::Ol, Vec::new());
                if start != 1 {
                    ol.attrs.push((Attr::Start, start.to_string()));
                }
                self.open(Open::Element(ol));
            }
            Tag::List(None) => self.open_tag(T::Ul),
            Tag::Item => self.open_tag(T::Li),
            Tag::Table(alignments) => {
                self.alignments = alignments;
                self.open_tag(T::Table);
            }
            Tag::TableHead => {
                self.in_head = true;
                self.cell = 0;
                self.open_tag(T::Thead);
                self.open_tag(T::Tr);
            }
            Tag::TableRow => {
                self.cell = 0;
                self.open_tag(T::Tr);
            }
            Tag::TableCell => {
                let mut cell = Element::new(if self.in_head { T::Th } else { T::Td }, Vec::new());
                let align = match self.alignments.get(self.cell) {
                    Some(Alignment::Left) => Some("left"),
                    Some(Alignment::Center) => Some("center"),
                    Some(Alignment::Right) => Some("right"),
                    _ => None,
                };
                if let Some(align) = align {
                    cell.attrs.push((Attr::Align, align.to_owned()));
                }
                self.open(Open::Element(cell));
            }
            Tag::Emphasis => self.open_tag(T::Em),
            Tag::Strong => self.open_tag(T::Strong),
            Tag::Strikethrough => self.open_tag(T::Del),
            Tag::Link {
                link_type,
                dest_url,
                title,
                ..
            } => {
                let mut href = String::new();
                if link_type == LinkType::Email {
                    href.push_str("mailto:");
                }
                href.push_str(&dest_url);
                self.open(link(href, title.into_string()));
            }
            Tag::Image {
                dest_url, title, ..
            } => {
                // An image from another site would make the page request it: a link instead.
                if is_remote(&dest_url) {
                    self.open(link(dest_url.into_string(), title.into_string()));
                } else {
                    self.open(Open::Image {
                        src: dest_url.into_string(),
                        title: title.into_string(),
                    });
                }
            }
            // Raw HTML blocks: their text (shown as text) goes where they stand.
            _ => self.open(Open::Through),
        }
    }

    fn end(&mut self, end: TagEnd) {
        match end {
            TagEnd::CodeBlock => {
                self.close();
                self.close();
            }
            TagEnd::TableHead => {
                self.close();
                self.close();
                self.in_head = false;
                self.open_tag(rich::Tag::Tbody);
            }
            TagEnd::Table => {
                // The body opened when the head ended.
                self.close();
                self.close();
            }
            TagEnd::TableCell => {
                self.cell += 1;
                self.close();
            }
            _ => self.close(),
        }
    }

    fn finish(mut self) -> Vec<Node> {
        while !self.stack.is_empty() {
            self.close();
        }
        self.top
    }
}

/// The heading `level` levels down from the page's title: `h2` to `h6`.
fn heading(level: usize) -> rich::Tag {
    use rich::Tag as T;
    match level {
        0..=2 => T::H2,
        3 => T::H3,
        4 => T::H4,
        5 => T::H5,
        _ => T::H6,
    }
}

/// A link, its address `#` when following it could run script.
fn link(href: String, title: String) -> Open {
    let href = if is_safe_link(&href) {
        href
    } else {
        "#".to_owned()
    };
    let mut a = Element::new(rich::Tag::A, Vec::new());
    a.attrs.push((Attr::Href, href));
    if !title.is_empty() {
        a.attrs.push((Attr::Title, title));
    }
    Open::Element(a)
}

/// What stands for a leaf element past the depth limit: its text, or an image's `alt`.
fn leaf_text(e: &Element) -> String {
    match e.tag {
        rich::Tag::Img => e.attr(Attr::Alt).unwrap_or("").to_owned(),
        rich::Tag::Br => "\n".to_owned(),
        _ => rich::plain(&e.children),
    }
}

#[cfg(test)]
mod tests {
    use super::to_rich;
    use crate::base::rich::{self, Attr, Node, Tag};
    use proptest::prelude::*;

    /// The tree as HTML, the way the reference renderer writes it (attributes escaped alike, an
    /// alignment as the `style` it writes): for comparing the two.
    fn html(nodes: &[Node]) -> String {
        fn walk(nodes: &[Node], out: &mut String) {
            for node in nodes {
                match node {
                    Node::Text(t) => {
                        pulldown_cmark_escape::escape_html_body_text(&mut *out, t).unwrap()
                    }
                    Node::Element(e) => {
                        out.push('<');
                        out.push_str(e.tag.name());
                        // pulldown-cmark writes an image's `src` first; the tree keeps
                        // attributes in name order.
                        let mut attrs: Vec<&(Attr, String)> = e.attrs.iter().collect();
                        attrs.sort_by_key(|(attr, _)| *attr != Attr::Src);
                        for (attr, value) in attrs {
                            match attr {
                                Attr::Align => {
                                    out.push_str(&format!(" style=\"text-align: {value}\""))
                                }
                                Attr::Href | Attr::Src => {
                                    out.push_str(&format!(" {}=\"", attr.name()));
                                    pulldown_cmark_escape::escape_href(&mut *out, value).unwrap();
                                    out.push('"');
                                }
                                _ => {
                                    out.push_str(&format!(" {}=\"", attr.name()));
                                    pulldown_cmark_escape::escape_html(&mut *out, value).unwrap();
                                    out.push('"');
                                }
                            }
                        }
                        if e.tag.is_void() {
                            out.push_str(" />");
                        } else {
                            out.push('>');
                            walk(&e.children, out);
                            out.push_str(&format!("</{}>", e.tag.name()));
                        }
                    }
                }
            }
        }
        let mut out = String::new();
        walk(nodes, &mut out);
        out
    }

    /// The reference renderer: pulldown-cmark's HTML writer with the same rules, without what
    /// the page adds itself (links' `target` and `rel`) or drops (a code block's language
    /// class).
    fn reference(markdown: &str, shift: usize) -> String {
        use pulldown_cmark::{CowStr, Event, HeadingLevel, Options, Parser, Tag, TagEnd, html};
        let lower = |level: HeadingLevel| {
            let n = (level as usize + shift).clamp(2, 6);
            HeadingLevel::try_from(n).unwrap_or(HeadingLevel::H6)
        };
        let safe = |url: CowStr<'_>| -> String {
            if rich::is_safe_link(&url) {
                url.into_string()
            } else {
                "#".to_owned()
            }
        };
        let mut images_as_links: Vec<bool> = Vec::new();
        let events = Parser::new_ext(
            markdown,
            Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH,
        )
        .map(|event| match event {
            Event::Start(Tag::Heading {
                level,
                id,
                classes,
                attrs,
            }) => Event::Start(Tag::Heading {
                level: lower(level),
                id,
                classes,
                attrs,
            }),
            Event::End(TagEnd::Heading(level)) => Event::End(TagEnd::Heading(lower(level))),
            Event::Html(raw) | Event::InlineHtml(raw) => Event::Text(raw),
            Event::Start(Tag::Link {
                link_type,
                dest_url,
                title,
                id,
            }) => Event::Start(Tag::Link {
                link_type,
                dest_url: safe(dest_url).into(),
                title,
                id,
            }),
            Event::Start(Tag::Image {
                link_type,
                dest_url,
                title,
                id,
            }) => {
                let remote = rich::is_remote(&dest_url);
                images_as_links.push(remote);
                if remote {
                    Event::Start(Tag::Link {
                        link_type,
                        dest_url: safe(dest_url).into(),
                        title,
                        id,
                    })
                } else {
                    Event::Start(Tag::Image {
                        link_type,
                        dest_url,
                        title,
                        id,
                    })
                }
            }
            Event::End(TagEnd::Image) if images_as_links.pop().unwrap_or(false) => {
                Event::End(TagEnd::Link)
            }
            other => other,
        });
        let mut out = String::new();
        html::push_html(&mut out, events);
        // A code block's language class.
        while let Some(at) = out.find("<code class=\"language-") {
            let end = at + out[at..].find("\">").unwrap();
            out.replace_range(at + "<code".len()..end + 1, "");
        }
        out
    }

    /// HTML without the line breaks the writer puts around block elements (they show
    /// nothing): what both sides are compared on.
    fn normal(html: &str) -> String {
        const BLOCKS: [&str; 17] = [
            "p",
            "h2",
            "h3",
            "h4",
            "h5",
            "h6",
            "blockquote",
            "pre",
            "ul",
            "ol",
            "li",
            "table",
            "thead",
            "tbody",
            "tr",
            "hr",
            "br",
        ];
        let is_block_tag = |tag: &str| {
            let name = tag.trim_start_matches(['<', '/']);
            let name = name.split([' ', '>', '/']).next().unwrap_or("");
            BLOCKS.contains(&name)
        };
        // Split into tags and text, then drop line breaks at the edges of text beside a block
        // tag.
        let mut parts: Vec<String> = Vec::new();
        let mut rest = html;
        while let Some(at) = rest.find('<') {
            parts.push(rest[..at].to_owned());
            let end = at + rest[at..].find('>').unwrap() + 1;
            parts.push(rest[at..end].to_owned());
            rest = &rest[end..];
        }
        parts.push(rest.to_owned());
        for i in (0..parts.len()).step_by(2) {
            if i > 0 && is_block_tag(&parts[i - 1]) {
                parts[i] = parts[i].trim_start_matches('\n').to_owned();
            }
            if i + 1 < parts.len() && is_block_tag(&parts[i + 1]) {
                parts[i] = parts[i].trim_end_matches('\n').to_owned();
            }
        }
        parts.concat()
    }

    /// `to_rich` and the reference renderer agree on `markdown`.
    fn same(markdown: &str, shift: usize) {
        let tree = to_rich(markdown, shift);
        assert_eq!(rich::check(&tree), Ok(()), "{markdown:?}");
        assert_eq!(
            normal(&html(&tree)),
            normal(&reference(markdown, shift)),
            "{markdown:?}"
        );
    }

    fn strings(value: &serde_json::Value, out: &mut Vec<String>) {
        match value {
            serde_json::Value::String(s) => out.push(s.clone()),
            serde_json::Value::Array(a) => a.iter().for_each(|v| strings(v, out)),
            serde_json::Value::Object(o) => o.values().for_each(|v| strings(v, out)),
            _ => {}
        }
    }

    #[test]
    fn every_text_of_the_example_studies_renders_as_before() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets/studies");
        let mut texts = Vec::new();
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "json") {
                let value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
                strings(&value, &mut texts);
            }
        }
        assert!(texts.len() > 1000, "{}", texts.len());
        assert!(texts.iter().any(|t| t.contains("**")) && texts.iter().any(|t| t.contains("\n- ")));
        for text in &texts {
            same(text, 1);
            same(text, 2);
        }
    }

    #[test]
    fn the_cases_of_the_renderer_render_as_before() {
        for markdown in [
            "# Title\n\n**bold**\n\n| a | b |\n|---|---|\n| 1 | 2 |\n",
            "| l | c | r | n |\n|:--|:-:|--:|---|\n| 1 | 2 | 3 | 4 |\n",
            "| head only |\n|---|\n",
            "[a](https://example.org) ![chart](https://cdn.example.org/x.png) ![local](media/x.png)",
            "![x](//cdn.example.org/y.png) ![x](\\\\evil.example/p.png) ![x](media/a:b.png)",
            "![a *b* `c`\nd](a.png \"t\") [l](a.md \"title\") <a@b.c> <https://x.org>",
            "# a\n\n#### b\n\n###### c\n",
            "hello <script>alert(1)</script> <img src=x onerror=alert(1)>",
            "<div>\n<script>x</script>\n</div>\n\ntext",
            "[x](javascript:alert(1)) [x]( JavaScript:alert(1)) [x](data:text/html,hi) [x](vbscript:x)",
            "```rust\nfn main() {}\n```\n\n    indented\n\n`code` ~~gone~~ *em*",
            "3. three\n4. four\n\n1. one\n\n- a\n  - b\n\n> quote\n> > nested",
            "line  \nbreak\nsoft\n\n---\n\n&amp; &lt;b&gt; &copy; &#65;",
        ] {
            same(markdown, 1);
            same(markdown, 2);
        }
    }

    fn element(nodes: &[Node], tag: Tag) -> Option<&rich::Element> {
        nodes.iter().find_map(|n| match n {
            Node::Element(e) if e.tag == tag => Some(e),
            Node::Element(e) => element(&e.children, tag),
            Node::Text(_) => None,
        })
    }

    #[test]
    fn links_are_safe_and_remote_images_become_links() {
        let tree = to_rich(
            "[a](https://example.org) ![chart](https://cdn.example.org/x.png) ![local](media/x.png)",
            1,
        );
        let json = serde_json::to_string(&tree).unwrap();
        assert_eq!(
            json,
            r#"[["p",["a",{"href":"https://example.org"},"a"]," ",["a",{"href":"https://cdn.example.org/x.png"},"chart"]," ",["img",{"alt":"local","src":"media/x.png"}]]]"#
        );
        for src in [
            "//evil.example:8080/p.png",
            "//evil.example/p.png?a:b",
            "/\\\\evil.example/p.png",
            "<\t//evil.example/p.png>",
            "<\u{1}//evil.example/p.png>",
        ] {
            let tree = to_rich(&format!("![x]({src})"), 1);
            assert!(element(&tree, Tag::Img).is_none(), "{src}: {tree:?}");
        }
        for src in [
            "[x](javascript:alert(1))",
            "[x](<\u{1}javascript:alert(1)>)",
            "[x](data:text/html,hi)",
        ] {
            let tree = to_rich(src, 1);
            assert_eq!(
                element(&tree, Tag::A).unwrap().attr(Attr::Href),
                Some("#"),
                "{src}"
            );
        }
    }

    #[test]
    fn raw_html_is_text_and_headings_move_down() {
        let tree = to_rich(
            "<script>alert(1)</script>\n\n# a\n\n#### b\n\n###### c\n",
            2,
        );
        let json = serde_json::to_string(&tree).unwrap();
        assert_eq!(
            json,
            r#"["<script>alert(1)</script>\n",["h3","a"],["h6","b"],["h6","c"]]"#
        );
        assert_eq!(
            serde_json::to_string(&to_rich("# a", 0)).unwrap(),
            r#"[["h2","a"]]"#
        );
    }

    #[test]
    fn nesting_past_the_limit_keeps_the_text_in_a_tree_that_reads_back() {
        let deep = format!("{}*x* `y` ![z](z.png)  \nw", "> ".repeat(100));
        let tree = to_rich(&deep, 1);
        assert_eq!(rich::check(&tree), Ok(()));
        assert_eq!(rich::plain(&tree), "x y z\nw");
        let json = serde_json::to_string(&tree).unwrap();
        assert_eq!(
            rich::read_text(&serde_json::from_str::<serde_json::Value>(&json).unwrap()).unwrap(),
            rich::Text::Rich(tree)
        );
    }

    /// The elements of a tree, and its depth.
    fn size(nodes: &[Node]) -> (usize, usize) {
        let (mut count, mut depth) = (0, 0);
        for node in nodes {
            if let Node::Element(e) = node {
                let (c, d) = size(&e.children);
                count += 1 + c;
                depth = depth.max(1 + d);
            }
        }
        (count, depth)
    }

    /// A model's output stuck repeating a list marker or a quote nests tens of thousands deep:
    /// the builder never holds more open frames than the depth limit (past it, elements get no
    /// frame of their own), so that rendering stays linear, and the tree is that deep at most,
    /// its text kept.
    #[test]
    fn deep_nesting_keeps_the_builder_and_the_tree_within_the_depth_limit() {
        use pulldown_cmark::{Options, Parser};
        let lists = "1. ".repeat(40_000);
        let quotes = format!("{}deep ![an *image*\nof it](i.png)", "> ".repeat(20_000));
        for markdown in [lists.as_str(), &quotes] {
            let mut tree = super::Tree::default();
            let mut frames = 0;
            let options = Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH;
            for event in Parser::new_ext(markdown, options) {
                tree.event(event, 1);
                frames = frames.max(tree.stack.len());
            }
            assert!(frames <= rich::MAX_DEPTH + 1, "{frames} frames open");
            let nodes = tree.finish();
            assert_eq!(nodes, to_rich(markdown, 1));
            assert_eq!(rich::check(&nodes), Ok(()));
            let (elements, depth) = size(&nodes);
            assert!(depth <= rich::MAX_DEPTH, "{depth} deep");
            assert!(elements <= 2 * rich::MAX_DEPTH, "{elements} elements");
        }
        assert!(rich::plain(&to_rich(&quotes, 1)).starts_with("deep"));
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 500, failure_persistence: None, ..ProptestConfig::default() })]

        /// Markdown-ish text of every construct, raw HTML and entities included: the tree
        /// passes `check`, reads back from its JSON, and shows what the reference renderer
        /// shows.
        #[test]
        fn any_markdown_makes_a_safe_tree_that_renders_as_before(
            markdown in "([a-c0-9 *_`#>|:!~()\\[\\]<>&;./\\\\\n-]|javascript:|https://x/|\t|1\\. |- |\\| --- |```){0,40}"
        ) {
            same(&markdown, 1);
            let tree = to_rich(&markdown, 1);
            let json = serde_json::to_string(&tree).unwrap();
            prop_assert_eq!(rich::read_text(&serde_json::from_str::<serde_json::Value>(&json).unwrap()).unwrap(), rich::Text::Rich(tree));
        }
    }
}
