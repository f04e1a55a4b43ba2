//! Rich text: one of the study's texts shown as the core's whitelisted tree, built into DOM nodes
//! by `services::dom` (never through an HTML string).

use juror_core::base::rich::Text;
use leptos::prelude::*;

use crate::services::dom;

/// A directive, `use:rich_text=text`, that fills its element with `text`'s tree (for an element
/// other than [`RichText`]'s `div`, such as a list item).
pub fn rich_text(element: web_sys::Element, text: Text) {
    dom::fill_rich(&element, &dom::tree(&text));
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
