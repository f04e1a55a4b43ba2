//! The design: labels, the assignment of items to annotator slots, personal items, the tasks
//! (see [`tasks`](super::tasks)) and the attention checks.

use std::collections::{BTreeMap, BTreeSet};

use super::tasks::task;
use super::{Checker, Known, known};
use crate::study::model::*;
use crate::study::raw::*;

impl Checker {
    /// `design`: labels, the assignment, personal items, the tasks and the attention checks.
    /// The published plans are checked last ([`validate`](super::validate)); here they are `None`.
    pub(super) fn design(
        &mut self,
        raw: &RawStudy,
        known: &Known<'_>,
        dimensions: &[Dimension],
    ) -> Design {
        let d = &raw.design;
        if !d.label_format.contains("{}") {
            self.error(
                "design.label_format",
                format!("\"{}\" has no {{}} for the letter", d.label_format),
                "write it like \"System {}\"",
            );
        }
        let assignment = d.assignment.as_ref().map(|a| {
            if a.slots == 0 {
                self.error(
                    "design.assignment.slots",
                    "the study has 0 annotator slots",
                    "set slots to the number of annotators you will recruit",
                );
            }
            if a.annotators_per_item == 0 {
                self.error(
                    "design.assignment.annotators_per_item",
                    "no annotator would rate any item",
                    "set annotators_per_item to 1 or more",
                );
            } else if a.annotators_per_item > a.slots {
                self.error(
                    "design.assignment.annotators_per_item",
                    format!(
                        "{} annotators per item but only {} slots",
                        a.annotators_per_item, a.slots
                    ),
                    "raise slots or lower annotators_per_item",
                );
            }
            Assignment {
                slots: a.slots,
                annotators_per_item: a.annotators_per_item,
            }
        });
        self.personal_items(raw, assignment.as_ref());
        if d.tasks.is_empty() {
            self.error(
                "design.tasks",
                "the design has no tasks",
                "add a task, e.g. { \"id\": \"rate\", \"presentation\": \"single\" }",
            );
        }
        self.unique(
            "task",
            d.tasks
                .iter()
                .enumerate()
                .map(|(i, t)| (format!("design.tasks[{i}].id"), t.id.as_str())),
        );
        let tasks: Vec<Task> = d
            .tasks
            .iter()
            .enumerate()
            .map(|(i, t)| task(self, &format!("design.tasks[{i}]"), t, raw, known))
            .collect();
        self.label_schemes(&tasks);
        let attention_checks = self.attention_checks(raw, known, &tasks, dimensions);
        Design {
            assignment,
            attention_checks,
            plans: None,
            personal_plans: BTreeMap::new(),
            tasks,
        }
    }

    /// Tasks labelled differently (letters per trial in one, per annotator in another) read
    /// differently: "System A" must not name a position in one task and a system in the other.
    fn label_schemes(&mut self, tasks: &[Task]) {
        let per_annotator = |t: &&Task| t.labels == LabelScheme::PerAnnotator;
        let Some(fixed) = tasks.iter().find(per_annotator) else {
            return;
        };
        for (i, t) in tasks.iter().enumerate() {
            if t.labels == LabelScheme::PerTrial && t.label_format == fixed.label_format {
                self.error(
                    format!("design.tasks[{i}].label_format"),
                    format!(
                        "\"{}\" names a position here and a system in task \"{}\", whose letters stay the same",
                        t.label_format, fixed.id
                    ),
                    "give this task its own label_format, such as \"Option {}\"",
                );
            }
        }
    }

    /// Personal items: slots the study has; never an attention check (checks go to everyone).
    fn personal_items(&mut self, raw: &RawStudy, assignment: Option<&Assignment>) {
        let d = &raw.design;
        let checked: BTreeSet<&str> =
            crate::base::order::set(d.attention_checks.iter().map(|ch| match ch {
                RawAttentionCheck::Rating { item, .. }
                | RawAttentionCheck::Preference { item, .. } => item.as_str(),
            }));
        for (i, it) in raw.items.iter().enumerate() {
            for (j, a) in it.for_annotators.iter().enumerate() {
                if let (RawAnnotatorRef::Slot(s), Some(a)) = (a, assignment)
                    && *s > a.slots
                {
                    self.error(
                        format!("items[{i}].for[{j}]"),
                        format!("slot {s}, but the study has {} slots", a.slots),
                        format!(
                            "give a slot from 1 to {}, or raise design.assignment.slots",
                            a.slots
                        ),
                    );
                }
            }
            if !it.for_annotators.is_empty() && checked.contains(it.id.as_str()) {
                self.error(
                    format!("items[{i}].for"),
                    format!(
                        "item \"{}\" is an attention check, which every annotator gets",
                        it.id
                    ),
                    "remove \"for\" from the item, or use another item as the check",
                );
            }
        }
    }

    /// `design.attention_checks`: each names an item, a system and a dimension the study has,
    /// and answers the scale or the systems allow.
    fn attention_checks(
        &mut self,
        raw: &RawStudy,
        ids: &Known<'_>,
        tasks: &[Task],
        dimensions: &[Dimension],
    ) -> Vec<AttentionCheck> {
        let d = &raw.design;
        let (systems, dims, item_ids) = (&ids.systems, &ids.dimensions, &ids.items);
        let scale_of = |id: &str| dimensions.iter().find(|d| d.id == id).map(|d| &d.scale);
        let mut attention_checks = Vec::new();
        for (i, check) in d.attention_checks.iter().enumerate() {
            let at = format!("design.attention_checks[{i}]");
            match check {
                RawAttentionCheck::Rating {
                    item,
                    system,
                    dimension,
                    accept,
                } => {
                    if !item_ids.contains(item.as_str()) {
                        self.error(
                            format!("{at}.item"),
                            format!("unknown item \"{item}\""),
                            "name an item of the study",
                        );
                    }
                    if !systems.contains(system.as_str()) {
                        self.error(
                            format!("{at}.system"),
                            format!("unknown system \"{system}\""),
                            known("system", systems),
                        );
                    }
                    // A task's pairs list may leave the checked system out: then the check could
                    // never be answered.
                    if let Some(s) = raw.systems.iter().position(|x| x == system)
                        && let Some(k) = raw.items.iter().position(|x| &x.id == item)
                    {
                        let n = raw.systems.len();
                        let mut with_item = tasks
                            .iter()
                            .filter(|t| t.items.binary_search(&k).is_ok())
                            .peekable();
                        if with_item.peek().is_some() && !with_item.any(|t| t.shows(s, n)) {
                            self.error(
                                format!("{at}.system"),
                                format!(
                                    "no task shows system \"{system}\" with item \"{item}\": the pairs listed leave it out"
                                ),
                                format!(
                                    "add a pair with \"{system}\" to the pairs.list of a task that has the item, or check another system"
                                ),
                            );
                        }
                    }
                    match scale_of(dimension) {
                        None => self.error(
                            format!("{at}.dimension"),
                            format!("unknown dimension \"{dimension}\""),
                            known("dimension", dims),
                        ),
                        Some(scale) => {
                            for (j, v) in accept.iter().flatten().enumerate() {
                                if !scale.points.is_empty() && !scale.contains(*v) {
                                    self.error(
                                        format!("{at}.accept[{j}]"),
                                        format!("{v} is not a point of the scale"),
                                        format!(
                                            "use values from {} to {}",
                                            scale.min(),
                                            scale.max()
                                        ),
                                    );
                                }
                            }
                        }
                    }
                    if accept.as_ref().is_some_and(Vec::is_empty) {
                        self.error(
                            format!("{at}.accept"),
                            "no accepted answer",
                            "list the scores that pass the check",
                        );
                    }
                    attention_checks.push(AttentionCheck::from(check));
                }
                RawAttentionCheck::Preference { item, accept } => {
                    if !item_ids.contains(item.as_str()) {
                        self.error(
                            format!("{at}.item"),
                            format!("unknown item \"{item}\""),
                            "name an item of the study",
                        );
                    }
                    if accept.as_ref().is_some_and(Vec::is_empty) {
                        self.error(
                            format!("{at}.accept"),
                            "no accepted answer",
                            "list the system ids whose choice passes",
                        );
                    }
                    for (j, s) in accept.iter().flatten().enumerate() {
                        if !systems.contains(s.as_str()) {
                            self.error(
                                format!("{at}.accept[{j}]"),
                                format!("unknown system \"{s}\""),
                                known("system", systems),
                            );
                        }
                    }
                    if !d.tasks.iter().any(|t| t.preference.is_some()) {
                        self.error(
                            format!("{at}.kind"),
                            "a preference check, but no task asks for a preference",
                            "add a preference to a task or check a rating instead",
                        );
                    }
                    attention_checks.push(AttentionCheck::from(check));
                }
            }
        }
        attention_checks
    }
}
