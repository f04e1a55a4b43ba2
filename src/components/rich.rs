//! Rich text: one of the study's texts shown as the core's whitelisted tree, built into DOM nodes
//! by `services::dom` (never through an HTML string).

use juror_core::base::rich::{Node, Text};
use leptos::prelude::*;

use crate::services::dom;

/// The tree to show for `text`. A compiled study's tree is shown as it is: it was checked when
/// the study was read (`rich`'s reader refuses any element, attribute or address off its
/// lists). Neither page renders Markdown here: the annotator's page plays compiled studies
/// only, and the researcher's renders a study as written when it opens it
/// (`compiled::render_texts`); a text left as written shows as plain text, as typed.
pub fn tree(text: &Text) -> std::borrow::Cow<'_, [Node]> {
    match text {
        Text::Source(source) => vec![Node::Text(source.clone())].into(),
        Text::Rich(nodes) => nodes.as_slice().into(),
    }
}

/// A directive, `use:rich_text=text`, that fills its element with `text`'s tree (for an element
/// other than [`RichText`]'s `div`, such as a list item).
pub fn rich_text(element: web_sys::Element, text: Text) {
    dom::fill_rich(&element, &tree(&text));
}

/// A study's text (a rendered tree, its headings already moved under the page's: see
/// `compiled::compile`) in a `<div class="markdown">`.
#[component]
pub fn RichText(
    #[prop(into)] text: Text,
    /// Classes besides `markdown`.
    #[prop(optional)]
    class: &'static str,
) -> impl IntoView {
    let class = if class.is_empty() {
        "markdown".to_owned()
    } else {
        format!("markdown {class}")
    };
    view! { <div class=class use:rich_text=text></div> }
}
