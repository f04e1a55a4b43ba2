//! Markdown to HTML for prompts, outputs, instructions and descriptions.
//!
//! Outputs of AI systems are untrusted text: raw HTML in them is shown as text, never
//! interpreted, and `javascript:`-style links are neutralised. Everything else is CommonMark
//! with tables and strikethrough. Headings are moved down a level or more, so that the page's
//! own `<h1>` stays the only one (a study's `# Title` becomes an `<h2>`).

use crate::rich::{is_remote, is_safe_link};
use pulldown_cmark::{CowStr, Event, HeadingLevel, Options, Parser, Tag, TagEnd, html};

/// Renders Markdown to HTML that is safe to insert into the page, headings one level down.
pub fn to_html(markdown: &str) -> String {
    to_html_below(markdown, 1)
}

/// Like [`to_html`], with headings `shift` levels down (at most `<h6>`): for text shown under
/// a page's `<h2>`, shift by 2.
pub fn to_html_below(markdown: &str, shift: usize) -> String {
    let lower = |level: HeadingLevel| {
        let n = (level as usize + shift).min(6);
        HeadingLevel::try_from(n).unwrap_or(HeadingLevel::H6)
    };
    let options = Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH;
    // Images from another site would make the page request them: they become links instead
    // (the stack remembers which image ends must close a link).
    let mut images_as_links: Vec<bool> = Vec::new();
    let events = Parser::new_ext(markdown, options).map(|event| match event {
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
            dest_url: safe_url(dest_url),
            title,
            id,
        }),
        Event::Start(Tag::Image {
            link_type,
            dest_url,
            title,
            id,
        }) => {
            let remote = is_remote(&dest_url);
            images_as_links.push(remote);
            if remote {
                Event::Start(Tag::Link {
                    link_type,
                    dest_url: safe_url(dest_url),
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
        Event::End(TagEnd::Image) => {
            if images_as_links.pop().unwrap_or(false) {
                Event::End(TagEnd::Link)
            } else {
                Event::End(TagEnd::Image)
            }
        }
        other => other,
    });
    let mut out = String::with_capacity(markdown.len() * 3 / 2);
    html::push_html(&mut out, events);
    // Every `<a` here was written by the renderer (text is escaped): links open in a new tab,
    // so the study stays open, and give the other site neither the opener nor the referrer.
    out.replace(
        "<a href=",
        "<a target=\"_blank\" rel=\"noopener noreferrer\" href=",
    )
}

fn safe_url(url: CowStr<'_>) -> CowStr<'_> {
    if !is_safe_link(&url) {
        CowStr::Borrowed("#")
    } else {
        url
    }
}

#[cfg(test)]
mod tests {
    use super::to_html;

    #[test]
    fn renders_commonmark_with_tables() {
        let html = to_html("# Title\n\n**bold**\n\n| a | b |\n|---|---|\n| 1 | 2 |\n");
        assert!(html.contains("<h2>Title</h2>"), "{html}");
        assert!(html.contains("<strong>bold</strong>"));
        assert!(html.contains("<table>"));
    }

    #[test]
    fn links_open_apart_and_remote_images_become_links() {
        let html = to_html(
            "[a](https://example.org) ![chart](https://cdn.example.org/x.png) ![local](media/x.png)",
        );
        assert!(html.contains("<a target=\"_blank\" rel=\"noopener noreferrer\" href=\"https://example.org\">a</a>"), "{html}");
        assert!(!html.contains("<img src=\"https://"), "{html}");
        assert!(
            html.contains("href=\"https://cdn.example.org/x.png\">chart</a>"),
            "{html}"
        );
        assert!(
            html.contains("<img src=\"media/x.png\" alt=\"local\""),
            "{html}"
        );
        assert!(!to_html("![x](//cdn.example.org/y.png)").contains("<img"));
        // Another host in any spelling the URL parser accepts: never an image.
        for src in [
            "//evil.example:8080/p.png",
            "//evil.example/p.png?a:b",
            "/\\\\evil.example/p.png",
            "<\t//evil.example/p.png>",
        ] {
            let html = to_html(&format!("![x]({src})"));
            assert!(!html.contains("<img"), "{src}: {html}");
        }
        // A lone backslash is percent-encoded by the renderer: a path on this site.
        assert!(
            to_html("![x](\\\\evil.example/p.png)").contains("<img src=\"%5Cevil.example/p.png\"")
        );
        // Paths on this site stay images, colons and all.
        assert!(to_html("![x](media/a:b.png)").contains("<img"));
    }

    #[test]
    fn headings_move_down_and_stop_at_six() {
        let html = super::to_html_below("# a\n\n#### b\n\n###### c\n", 2);
        assert!(
            html.contains("<h3>a</h3>")
                && html.contains("<h6>b</h6>")
                && html.contains("<h6>c</h6>"),
            "{html}"
        );
    }

    #[test]
    fn raw_html_is_shown_as_text() {
        let html = to_html("hello <script>alert(1)</script> <img src=x onerror=alert(1)>");
        assert!(!html.contains("<script"), "{html}");
        assert!(!html.contains("<img"), "{html}");
        assert!(html.contains("&lt;script&gt;"), "{html}");
    }

    #[test]
    fn dangerous_link_schemes_are_neutralised() {
        for src in [
            "[x](javascript:alert(1))",
            "[x]( JavaScript:alert(1))",
            "[x](data:text/html,hi)",
            "[x](vbscript:x)",
        ] {
            let html = to_html(src);
            assert!(html.contains("href=\"#\""), "{src} -> {html}");
        }
        assert!(to_html("[x](https://example.org/a:b)").contains("https://example.org/a:b"));
        assert!(to_html("[x](docs/a.md)").contains("docs/a.md"));
    }
}
