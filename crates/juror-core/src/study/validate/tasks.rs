//! A task of the design: what it asks (dimensions, output questions, error spans), the items it
//! selects, and its flag; its pairs and its preference are checked in [`pairs`](super::pairs)
//! and [`preference`](super::preference).

use std::collections::BTreeSet;

use super::pairs::{spread, task_pairs};
use super::{Checker, Known, known};
use crate::study::ask::task_preference;
use crate::study::model::*;
use crate::study::raw::*;

pub(super) fn task(
    c: &mut Checker,
    at: &str,
    t: &RawTask,
    raw: &RawStudy,
    ids: &Known<'_>,
) -> Task {
    let pairs = task_pairs(c, at, t, raw, &ids.systems);
    let (dimensions, output_questions) = task_questions(c, at, t, raw, ids);
    let preference = task_preference(c, at, t, raw.systems.len());
    if t.order == RawOrder::SystemBlocks && t.presentation != RawPresentation::Single {
        c.error(
            format!("{at}.order"),
            "blocks by system need one output per trial",
            "set \"presentation\": \"single\" or choose another order",
        );
    }
    let items = task_items(c, at, t, raw, ids);
    flag_implies(c, at, t, raw, &dimensions);
    let spans = t
        .spans
        .as_ref()
        .map(|s| task_spans(c, &format!("{at}.spans"), s));

    if dimensions.is_empty()
        && output_questions.is_empty()
        && preference.is_none()
        && spans.is_none()
        && t.notes == RawRequirement::Off
    {
        c.error(
            at.to_owned(),
            "the task asks nothing",
            "rate dimensions, ask output questions, mark error spans, ask a preference or ask for notes",
        );
    }

    if t.estimated_minutes == Some(0) {
        c.error(
            format!("{at}.estimated_minutes"),
            "a task that takes 0 minutes",
            "give the minutes an annotator needs for the task, or remove \"estimated_minutes\"",
        );
    }

    let spread = spread(c, at, t, raw, &pairs);
    let label_format = t.label_format.as_ref().unwrap_or(&raw.design.label_format);
    if t.label_format.is_some() && !label_format.contains("{}") {
        c.error(
            format!("{at}.label_format"),
            format!("\"{label_format}\" has no {{}} for the letter"),
            "write it like \"Option {}\"",
        );
    }
    Task {
        id: t.id.clone(),
        title: t.title.clone(),
        instructions: t.instructions.clone().map(Text::Source),
        presentation: t.presentation,
        pairs,
        spread,
        dimensions,
        output_questions,
        preference,
        notes: t.notes,
        flag: t.flag.as_ref().map(|f| f.label.clone()),
        flag_implies: t
            .flag
            .as_ref()
            .and_then(|f| f.implies.as_ref())
            .map(|i| i.all_dimensions),
        order: t.order,
        labels: t.labels.unwrap_or(raw.design.labels),
        label_format: label_format.clone(),
        items,
        estimated_minutes: t.estimated_minutes,
        plain_text: t.plain_text || spans.is_some(),
        spans,
    }
}

/// A task's error spans: at least one severity, none twice; categories named, none twice, a
/// two-level category as `Parent/Child` with both parts given.
fn task_spans(c: &mut Checker, at: &str, s: &RawSpans) -> Spans {
    if s.severities.is_empty() {
        c.error(
            format!("{at}.severities"),
            "no severity to choose",
            "list at least one of \"minor\", \"major\" and \"critical\", or remove \"severities\" for minor and major",
        );
    }
    for (j, severity) in s.severities.iter().enumerate() {
        if s.severities[..j].contains(severity) {
            c.error(
                format!("{at}.severities[{j}]"),
                format!("\"{}\" is listed twice", severity.name()),
                "list each severity once",
            );
        }
    }
    for (j, category) in s.categories.iter().enumerate() {
        let here = format!("{at}.categories[{j}]");
        if category.split('/').any(|part| part.trim().is_empty()) || category.split('/').count() > 2
        {
            c.error(
                here,
                format!("\"{category}\" is not a category"),
                "name a category like \"Fluency\", or a category and its kind like \"Accuracy/Mistranslation\"",
            );
        } else if s.categories[..j].contains(category) {
            c.error(
                here,
                format!("\"{category}\" is listed twice"),
                "list each category once",
            );
        }
    }
    Spans {
        severities: s.severities.clone(),
        categories: s.categories.clone(),
        whole_output: s.whole_output,
        question: s.question.clone().unwrap_or_else(|| {
            "Mark each error: select its text, then choose how severe it is.".to_owned()
        }),
    }
}

/// The dimensions and output questions a task asks (all of the rubric's when it names none),
/// each one the rubric has.
fn task_questions(
    c: &mut Checker,
    at: &str,
    t: &RawTask,
    raw: &RawStudy,
    ids: &Known<'_>,
) -> (Vec<String>, Vec<String>) {
    let (dims, questions) = (&ids.dimensions, &ids.questions);
    let dimensions: Vec<String> = match &t.dimensions {
        None => raw.rubric.dimensions.iter().map(|d| d.id.clone()).collect(),
        Some(list) => {
            for (j, id) in list.iter().enumerate() {
                if !dims.contains(id.as_str()) {
                    c.error(
                        format!("{at}.dimensions[{j}]"),
                        format!("unknown dimension \"{id}\""),
                        known("dimension", dims),
                    );
                }
            }
            list.clone()
        }
    };
    let output_questions: Vec<String> = match &t.output_questions {
        None => raw
            .rubric
            .output_questions
            .iter()
            .map(|q| q.id.clone())
            .collect(),
        Some(list) => {
            for (j, id) in list.iter().enumerate() {
                if !questions.contains(id.as_str()) {
                    c.error(
                        format!("{at}.output_questions[{j}]"),
                        format!("unknown output question \"{id}\""),
                        known("output question", questions),
                    );
                }
            }
            list.clone()
        }
    };
    (dimensions, output_questions)
}

/// The items a task's filter selects (all items without one): known ids and groups, and at
/// least one item.
fn task_items(
    c: &mut Checker,
    at: &str,
    t: &RawTask,
    raw: &RawStudy,
    ids: &Known<'_>,
) -> Vec<usize> {
    let (item_ids, groups) = (&ids.items, &ids.groups);
    match &t.items {
        None => (0..raw.items.len()).collect(),
        Some(filter) => {
            for (j, id) in filter.ids.iter().enumerate() {
                if !item_ids.contains(id.as_str()) {
                    c.error(
                        format!("{at}.items.ids[{j}]"),
                        format!("unknown item \"{id}\""),
                        "name an item of the study",
                    );
                }
            }
            for (j, g) in filter.groups.iter().enumerate() {
                if !groups.contains(g.as_str()) {
                    c.error(
                        format!("{at}.items.groups[{j}]"),
                        format!("no item is in group \"{g}\""),
                        known("group", groups),
                    );
                }
            }
            let wanted: BTreeSet<&str> =
                crate::base::order::set(filter.ids.iter().map(String::as_str));
            let wanted_groups: BTreeSet<&str> =
                crate::base::order::set(filter.groups.iter().map(String::as_str));
            let chosen: Vec<usize> = raw
                .items
                .iter()
                .enumerate()
                .filter(|(_, it)| {
                    wanted.contains(it.id.as_str())
                        || it
                            .group
                            .as_deref()
                            .is_some_and(|g| wanted_groups.contains(g))
                })
                .map(|(k, _)| k)
                .collect();
            if chosen.is_empty() && !raw.items.is_empty() {
                c.error(
                    format!("{at}.items"),
                    "the filter selects no item",
                    "list item ids or groups, or remove \"items\" to use all",
                );
            }
            chosen
        }
    }
}

/// A flag that implies scores: the task rates dimensions, and the score is on each one's scale.
fn flag_implies(c: &mut Checker, at: &str, t: &RawTask, raw: &RawStudy, dimensions: &[String]) {
    if let Some(implies) = t.flag.as_ref().and_then(|f| f.implies.as_ref()) {
        let v = implies.all_dimensions;
        if dimensions.is_empty() {
            c.error(
                format!("{at}.flag.implies"),
                "the task rates no dimension, so the flag cannot imply scores",
                "remove \"implies\" or rate dimensions in this task",
            );
        }
        for id in dimensions {
            let scale = raw
                .rubric
                .dimensions
                .iter()
                .find(|d| &d.id == id)
                .map(|d| (d.scale.min, d.scale.max));
            if let Some((min, max)) = scale
                && !(min..=max).contains(&v)
            {
                c.error(
                    format!("{at}.flag.implies.all_dimensions"),
                    format!("{v} is not on the scale of \"{id}\" ({min} to {max})"),
                    format!("give a score from {min} to {max}"),
                );
            }
        }
    }
}
