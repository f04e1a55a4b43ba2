//! Rich text: one of the study's texts shown as the core's whitelisted tree, built into DOM nodes
//! by `services::dom` (never through an HTML string).

use juror_core::markdown;
use juror_core::rich::{Node, Text};
use leptos::prelude::*;

use crate::services::dom;

/// The tree to show for `text`. A compiled study's tree is shown as it is: it was checked when
/// the study was read (`rich`'s reader refuses any element, attribute or address off its
/// lists). Markdown as written is rendered here, its headings `shift` levels down, for now: the
/// annotator's page will receive only compiled text, and the researcher's page renders what it
/// previews.
pub fn tree(text: &Text, shift: usize) -> std::borrow::Cow<'_, [Node]> {
    match text {
        Text::Source(source) => markdown::to_rich(source, shift).into(),
        Text::Rich(nodes) => nodes.as_slice().into(),
    }
}

/// A directive, `use:rich_text=(text, shift)`, that fills its element with `text`'s tree (for
/// an element other than [`RichText`]'s `div`, such as a list item).
pub fn rich_text(element: web_sys::Element, (text, shift): (Text, usize)) {
    dom::fill_rich(&element, &tree(&text, shift));
}

/// A study's text (Markdown as written, or a compiled tree) in a `<div class="markdown">`, its
/// headings `shift` levels down (1: `#` is an `<h2>`, under the page's `<h1>`).
#[component]
pub fn RichText(
    #[prop(into)] text: Text,
    #[prop(default = 1)] shift: usize,
    /// Classes besides `markdown`.
    #[prop(optional)]
    class: &'static str,
) -> impl IntoView {
    let class = if class.is_empty() {
        "markdown".to_owned()
    } else {
        format!("markdown {class}")
    };
    view! { <div class=class use:rich_text=(text, shift)></div> }
}
