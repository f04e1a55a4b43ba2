//! In-browser component tests (wasm-bindgen-test in headless Chromium). Native `cargo test`
//! skips this file: it only builds for wasm32.
#![cfg(target_arch = "wasm32")]
#![expect(
    clippy::unwrap_used,
    reason = "wasm-bindgen tests are not `#[test]`s, which clippy.toml already lets unwrap"
)]

use std::sync::Arc;

use juror::annotator::{Debrief, StudyProblems, Welcome};
use juror::components::rich::RichText;
use juror::controls::PointCaption;
use juror_core::base::markdown;
use juror_core::base::rich::Text;
use juror_core::front::cover::Cover;
use juror_core::study::parse_study;
use leptos::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

const MINIMAL: &str = include_str!("../crates/juror-core/tests/fixtures/valid/minimal.json");
const BROKEN: &str = include_str!("../crates/juror-core/tests/fixtures/invalid/many-problems.json");
const HARE: &str = include_str!("../assets/studies/hare-personalization.json");

fn container() -> web_sys::HtmlElement {
    let document = web_sys::window().unwrap().document().unwrap();
    let div = document.create_element("div").unwrap();
    document.body().unwrap().append_child(&div).unwrap();
    div.unchecked_into()
}

/// A study as the pages get it: read, its Markdown rendered as compiling renders it (the pages
/// render no Markdown themselves).
fn rendered(text: &str) -> juror_core::study::Study {
    let mut study = parse_study(text).unwrap();
    juror_core::front::compiled::render_texts(&mut study, markdown::to_rich);
    study
}

#[wasm_bindgen_test]
async fn welcome_shows_title_counts_and_safe_markdown() {
    let mut raw: serde_json::Value = serde_json::from_str(MINIMAL).unwrap();
    raw["description"] = "A **bold** claim <script>window.pwned = 1</script>".into();
    raw["estimated_minutes"] = 90.into();
    // The welcome page is drawn from the study's cover, as a compiled study carries it.
    let cover = Arc::new(Cover::of(&rendered(&raw.to_string())));
    let root = container();
    let handle = leptos::mount::mount_to(root.clone(), move || view! { <Welcome cover /> });
    leptos::task::tick().await;

    let h1 = root.query_selector("h1").unwrap().unwrap();
    assert_eq!(h1.text_content().unwrap(), "Minimal study");
    let facts = root
        .query_selector(".facts")
        .unwrap()
        .unwrap()
        .text_content()
        .unwrap();
    // In the annotator's words: pages to judge, never "items" or "trials".
    assert!(facts.contains("Pages to judge2"), "{facts}");
    assert!(
        !facts.contains("Trials") && !facts.contains("Items"),
        "{facts}"
    );
    assert!(facts.contains("1 hour 30 minutes"), "{facts}");
    let md = root.query_selector(".markdown").unwrap().unwrap();
    assert!(md.query_selector("strong").unwrap().is_some());
    assert!(
        md.query_selector("script").unwrap().is_none(),
        "raw HTML must not be interpreted"
    );
    drop(handle);
}

#[wasm_bindgen_test]
async fn problems_are_listed_with_paths_and_fixes() {
    let problems = parse_study(BROKEN).unwrap_err().0;
    let n = problems.len();
    let root = container();
    let handle = leptos::mount::mount_to(root.clone(), move || {
        view! {
            <StudyProblems
                source="broken.json".to_owned()
                lead="The study file has problems.".to_owned()
                problems
                on_file=Callback::new(|_| {})
                ids=vec!["broken".to_owned()]
                contact=None
            />
        }
    });
    leptos::task::tick().await;

    let heading = root
        .query_selector("h1")
        .unwrap()
        .unwrap()
        .text_content()
        .unwrap();
    assert_eq!(heading, format!("This study has {n} problems"));
    let items = root.query_selector_all("ol.problems li").unwrap();
    assert_eq!(items.length() as usize, n);
    let text = root.text_content().unwrap();
    assert!(text.contains("items[0].outputs"), "{text}");
    assert!(text.contains("Fix: "), "{text}");
    assert!(root.query_selector("[role=alert]").unwrap().is_some());
    drop(handle);
}

/// The HARE study's scales label only 1, 3 and 5 (`labels: "anchors"`): points 2 and 4 show their
/// number alone, once, and the others their number and label.
#[wasm_bindgen_test]
async fn an_unlabelled_scale_point_shows_its_number_once() {
    let study = parse_study(HARE).unwrap();
    let points = study.dimension("quality").unwrap().scale.points.clone();
    let root = container();
    let handle = leptos::mount::mount_to(root.clone(), move || {
        points
            .into_iter()
            .map(|p| view! { <label class="point"><PointCaption value=p.value label=p.label /></label> })
            .collect_view()
    });
    leptos::task::tick().await;

    let labels = root.query_selector_all("label.point").unwrap();
    let texts: Vec<String> = (0..labels.length())
        .map(|i| labels.item(i).unwrap().text_content().unwrap())
        .collect();
    assert_eq!(
        texts,
        ["1Incoherent", "2", "3Generic", "4", "5Professional"]
    );
    assert_eq!(root.query_selector_all(".label").unwrap().length(), 3);
    drop(handle);
}

/// The debriefing waits until the ratings file is saved, then shows the HARE study's text as safe
/// Markdown.
#[wasm_bindgen_test]
async fn the_debrief_appears_once_the_ratings_are_saved() {
    let study = parse_study(HARE).unwrap();
    let written = format!(
        "{} <script>window.pwned = 1</script>",
        study.debrief().unwrap().plain()
    );
    let text = Text::Rich(markdown::to_rich(&written, 1));
    let saved = RwSignal::new(false);
    let root = container();
    let handle =
        leptos::mount::mount_to(root.clone(), move || view! { <Debrief text shown=saved /> });
    leptos::task::tick().await;

    assert!(root.query_selector(".debrief").unwrap().is_none());
    let pending = root.text_content().unwrap();
    assert!(
        pending.contains("Once you have saved your ratings file"),
        "{pending}"
    );
    assert!(!pending.contains("HARE"), "{pending}");

    saved.set(true);
    leptos::task::tick().await;
    let section = root.query_selector("section.debrief").unwrap().unwrap();
    assert_eq!(
        section
            .query_selector("h2")
            .unwrap()
            .unwrap()
            .text_content()
            .unwrap(),
        "About this study"
    );
    let md = section.query_selector(".markdown").unwrap().unwrap();
    assert!(
        md.text_content()
            .unwrap()
            .contains("the personalised method this study evaluates")
    );
    assert!(md.query_selector("strong").unwrap().is_some());
    assert!(
        md.query_selector("script").unwrap().is_none(),
        "raw HTML must not be interpreted"
    );
    assert!(root.query_selector(".debrief-pending").unwrap().is_none());
    drop(handle);
}

/// A judge's section of the Analyse page is the core's table model as HTML: every table with
/// its caption and cells, numbers aligned right, the judge's id (from a file) as text, never
/// markup; and a plot per dimension named by its numbers.
#[wasm_bindgen_test]
async fn a_judges_section_is_the_table_model_with_a_plot_per_dimension() {
    use juror::analyse::JudgesView;
    use juror_core::analysis::judges::{JudgeOptions, report};
    use juror_core::analysis::render::tables::{Block, judge_tables};
    use juror_core::analysis::run::{FileText, Request, run};
    use std::collections::BTreeMap;

    let judge_id = "<img src=x onerror=alert(1)>";
    let mut humans = String::from("item_id,system_id,annotator_id,dimension,score\n");
    let mut judge = humans.clone();
    for item in 1..=6 {
        for (s, system) in ["a", "b"].into_iter().enumerate() {
            for h in 1..=3 {
                let score = 1 + (item + s * 2 + h) % 5;
                humans.push_str(&format!("i{item},{system},h{h},q,{score}\n"));
            }
            let score = 1 + (item + s * 2 + 2) % 5;
            judge.push_str(&format!("i{item},{system},{judge_id},q,{score}\n"));
        }
    }
    let data = |csv: &str| {
        let request = Request {
            inputs: vec![FileText::new("x.csv", csv)],
            ..Request::default()
        };
        run(&request).unwrap().data
    };
    let options = JudgeOptions {
        min_instances: 2,
        ..JudgeOptions::DEFAULT
    };
    let judges = report(&data(&humans), &data(&judge), None, &options);
    assert_eq!(judges.len(), 1);
    let model: Vec<_> = judge_tables(&judges)
        .into_iter()
        .flat_map(|s| s.blocks)
        .filter_map(|b| match b {
            Block::Table(t) => Some(t),
            _ => None,
        })
        .collect();
    let scales = BTreeMap::from([("q".to_owned(), Some(vec![1.0, 2.0, 3.0, 4.0, 5.0]))]);
    let root = container();
    let shown = judges.clone();
    let handle = leptos::mount::mount_to(root.clone(), move || {
        view! { <JudgesView judges=shown scales /> }
    });
    leptos::task::tick().await;

    let section = root
        .query_selector("section.report-section")
        .unwrap()
        .unwrap();
    assert_eq!(
        section.get_attribute("aria-label").unwrap(),
        format!("Judge {judge_id}")
    );
    assert!(
        root.query_selector("img").unwrap().is_none(),
        "an id is never markup"
    );
    let heading = root.query_selector("h3").unwrap().unwrap();
    assert_eq!(heading.text_content().unwrap(), format!("Judge {judge_id}"));
    let tables = root.query_selector_all("table").unwrap();
    assert!(model.len() >= 3, "{model:#?}");
    assert_eq!(tables.length() as usize, model.len());
    let element = |list: &web_sys::NodeList, i: usize| -> web_sys::Element {
        list.get(i as u32).unwrap().unchecked_into()
    };
    for (k, t) in model.iter().enumerate() {
        let table = element(&tables, k);
        let caption = table.query_selector("caption").unwrap().unwrap();
        assert_eq!(caption.text_content().unwrap(), t.caption);
        let rows = table.query_selector_all("tr").unwrap();
        assert_eq!(rows.length() as usize, t.rows.len() + 1, "{}", t.caption);
        for (i, row) in t.rows.iter().enumerate() {
            let cells = element(&rows, i + 1).query_selector_all("th, td").unwrap();
            for (j, cell) in row.iter().enumerate() {
                let td = element(&cells, j);
                assert_eq!(
                    td.text_content().unwrap(),
                    cell.as_string(),
                    "{}",
                    t.caption
                );
                assert_eq!(
                    td.class_name() == "num",
                    t.columns[j].numeric,
                    "{}",
                    t.caption
                );
            }
        }
    }
    let plot = root.query_selector("svg[role=img]").unwrap().unwrap();
    let name = plot.get_attribute("aria-label").unwrap();
    let rho = judges[0].dimensions[0].spearman.unwrap().value;
    assert!(
        name.contains(&format!("12 outputs, Spearman's ρ {rho:.3}")),
        "{name}"
    );
    assert!(
        root.query_selector_all("svg[role=img] circle")
            .unwrap()
            .length()
            > 0
    );
    drop(handle);
}

/// Hostile Markdown becomes DOM nodes: raw HTML as text nodes (no script, no image with a
/// handler), links opening apart without opener or referrer, a `javascript:` link going nowhere,
/// an image from another site a link, a column's alignment a class; and a compiled study's tree
/// is built as it was read.
#[wasm_bindgen_test]
async fn rich_text_builds_dom_nodes_and_nothing_that_runs() {
    let markdown = "# Title\n\nhello <script>window.pwned = 1</script> <img src=x onerror=alert(1)>\n\n\
        [site](https://example.org) [bad](javascript:alert(1)) ![far](https://cdn.example.org/x.png) \
        ![near](media/x.png)\n\n| a | b |\n|:-:|--:|\n| 1 | 2 |\n";
    let compiled = juror_core::base::rich::read_text(
        &serde_json::from_str::<serde_json::Value>(r#"[["p",["em","x"],"<b>"]]"#).unwrap(),
    )
    .unwrap();
    let root = container();
    let handle = leptos::mount::mount_to(root.clone(), move || {
        view! {
            <RichText text=Text::Rich(markdown::to_rich(markdown, 2)) />
            <RichText text=Text::from("*as* <b>typed</b>") class="as-written" />
            <RichText text=compiled class="compiled" />
        }
    });
    leptos::task::tick().await;

    let md = root.query_selector(".markdown").unwrap().unwrap();
    assert_eq!(
        md.query_selector("h3")
            .unwrap()
            .unwrap()
            .text_content()
            .unwrap(),
        "Title"
    );
    assert!(md.query_selector("script").unwrap().is_none());
    assert!(md.query_selector("[onerror]").unwrap().is_none());
    let text = md.text_content().unwrap();
    assert!(text.contains("<script>window.pwned = 1</script>"), "{text}");
    assert!(text.contains("<img src=x onerror=alert(1)>"), "{text}");
    let links = md.query_selector_all("a").unwrap();
    assert_eq!(links.length(), 3);
    for i in 0..links.length() {
        let a: web_sys::Element = links.item(i).unwrap().unchecked_into();
        assert_eq!(a.get_attribute("target").as_deref(), Some("_blank"));
        assert_eq!(
            a.get_attribute("rel").as_deref(),
            Some("noopener noreferrer")
        );
    }
    let hrefs: Vec<String> = (0..links.length())
        .map(|i| {
            links
                .item(i)
                .unwrap()
                .unchecked_into::<web_sys::Element>()
                .get_attribute("href")
                .unwrap()
        })
        .collect();
    assert_eq!(
        hrefs,
        ["https://example.org", "#", "https://cdn.example.org/x.png"]
    );
    let images = md.query_selector_all("img").unwrap();
    assert_eq!(images.length(), 1);
    let img: web_sys::Element = images.item(0).unwrap().unchecked_into();
    assert_eq!(img.get_attribute("src").as_deref(), Some("media/x.png"));
    assert_eq!(img.get_attribute("alt").as_deref(), Some("near"));
    assert!(md.query_selector("th.align-center").unwrap().is_some());
    assert!(md.query_selector("td.align-right").unwrap().is_some());
    assert!(md.query_selector("[style]").unwrap().is_none());

    // A text left as written is shown as typed: no page renders Markdown itself.
    let written = root.query_selector(".as-written").unwrap().unwrap();
    assert_eq!(
        written.inner_html().replace("<!---->", ""),
        "*as* &lt;b&gt;typed&lt;/b&gt;"
    );

    // A compiled study's tree, as its reader gives it.
    let compiled = root.query_selector(".markdown.compiled").unwrap().unwrap();
    // (Leptos leaves an empty comment of its own after the nodes.)
    assert_eq!(
        compiled.inner_html().replace("<!---->", ""),
        "<p><em>x</em>&lt;b&gt;</p>"
    );
    assert!(
        js_sys::Reflect::get(&web_sys::window().unwrap(), &"pwned".into())
            .unwrap()
            .is_undefined()
    );
    drop(handle);
}
