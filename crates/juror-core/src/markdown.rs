//! Markdown to HTML for prompts, outputs, instructions and descriptions.
//!
//! Outputs of AI systems are untrusted text: raw HTML in them is shown as text, never
//! interpreted, and `javascript:`-style links are neutralised. Everything else is CommonMark
//! with tables and strikethrough.

use pulldown_cmark::{CowStr, Event, Options, Parser, Tag, html};

/// Renders Markdown to HTML that is safe to insert into the page.
pub fn to_html(markdown: &str) -> String {
    let options = Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH;
    let events = Parser::new_ext(markdown, options).map(|event| match event {
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
        }) => Event::Start(Tag::Image {
            link_type,
            dest_url: safe_url(dest_url),
            title,
            id,
        }),
        other => other,
    });
    let mut out = String::with_capacity(markdown.len() * 3 / 2);
    html::push_html(&mut out, events);
    out
}

fn safe_url(url: CowStr<'_>) -> CowStr<'_> {
    let lower = url.trim().to_ascii_lowercase();
    let scheme_end = lower.find(':');
    let path_start = lower.find(['/', '?', '#']);
    let has_scheme = match (scheme_end, path_start) {
        (Some(c), Some(p)) => c < p,
        (Some(_), None) => true,
        _ => false,
    };
    let allowed = ["http:", "https:", "mailto:"];
    if has_scheme && !allowed.iter().any(|s| lower.starts_with(s)) {
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
        assert!(html.contains("<h1>Title</h1>"));
        assert!(html.contains("<strong>bold</strong>"));
        assert!(html.contains("<table>"));
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
