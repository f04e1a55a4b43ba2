//! The items: ids, outputs for the study's systems, groups, media, and whom a personal item
//! is for.

use std::collections::BTreeSet;

use super::media::media;
use super::{Checker, known};
use crate::study::model::*;
use crate::study::raw::*;

impl Checker {
    /// `items`: at least one, each id once, an output for every system and none for another.
    /// Returns the items with their ids and groups.
    pub(super) fn items<'a>(
        &mut self,
        raw: &'a RawStudy,
        systems: &BTreeSet<&str>,
    ) -> (Vec<Item>, BTreeSet<&'a str>, BTreeSet<&'a str>) {
        if raw.items.is_empty() {
            self.error(
                "items",
                "the study has no items",
                "add at least one item with a prompt and one output per system",
            );
        }
        let item_ids = self.unique(
            "item",
            raw.items
                .iter()
                .enumerate()
                .map(|(i, it)| (format!("items[{i}].id"), it.id.as_str())),
        );
        let groups: BTreeSet<&str> =
            crate::base::order::set(raw.items.iter().filter_map(|it| it.group.as_deref()));
        let items: Vec<Item> = raw
            .items
            .iter()
            .enumerate()
            .map(|(i, it)| {
                let at = format!("items[{i}]");
                self.not_blank(&format!("{at}.prompt"), "prompt", &it.prompt);
                // A published study's items each have their own tokens (checked with the plans).
                for s in raw.systems.iter().filter(|_| raw.design.plans.is_none()) {
                    if !it.outputs.contains_key(s) {
                        self.error(
                            format!("{at}.outputs"),
                            format!("no output for system \"{s}\""),
                            format!("add \"{s}\": \"...\" to the item's outputs"),
                        );
                    }
                }
                for s in it.outputs.keys() {
                    if !systems.contains(s.as_str()) {
                        self.error(
                            format!("{at}.outputs.{s}"),
                            format!("output for unknown system \"{s}\""),
                            format!("add \"{s}\" to \"systems\" or correct the key; {}", known("system", systems)),
                        );
                    }
                }
                let media = it.media.as_ref().map(|m| media(self, &at, m));
                for (name, value) in &it.groups {
                    if name == crate::study::model::GROUP || name.trim().is_empty() {
                        self.error(
                            format!("{at}.groups"),
                            format!("a grouping may not be named \"{name}\""),
                            "name it by what it groups (\"task_type\", \"repository\"), or give a single group as \"group\"",
                        );
                    } else if value.trim().is_empty() {
                        self.error(
                            format!("{at}.groups.{name}"),
                            "the group is empty",
                            "give the item's group in this grouping, or remove the entry",
                        );
                    }
                }
                Item {
                    id: it.id.clone(),
                    group: it.group.clone(),
                    groups: it.groups.clone(),
                    round: it.round,
                    prompt: Text::Source(it.prompt.clone()),
                    context: it.context.clone().map(Text::Source),
                    media,
                    outputs: it
                        .outputs
                        .iter()
                        .map(|(k, v)| (k.clone(), Text::from(v.as_str())))
                        .collect(),
                    for_slots: it
                        .for_annotators
                        .iter()
                        .enumerate()
                        .filter_map(|(j, a)| match a {
                            RawAnnotatorRef::Slot(0) => {
                                self.error(
                                    format!("{at}.for[{j}]"),
                                    "slot 0 does not exist",
                                    "slots count from 1, as in a link's ?slot=N",
                                );
                                None
                            }
                            RawAnnotatorRef::Slot(s) => Some(*s),
                            RawAnnotatorRef::Id(_) => None,
                        })
                        .collect(),
                    for_ids: it
                        .for_annotators
                        .iter()
                        .enumerate()
                        .filter_map(|(j, a)| match a {
                            RawAnnotatorRef::Id(id) if id.trim().is_empty() => {
                                self.error(
                                    format!("{at}.for[{j}]"),
                                    "the annotator id is empty",
                                    "give the id used in the annotator's link (?annotator=ID), or a slot number",
                                );
                                None
                            }
                            RawAnnotatorRef::Id(id) => Some(id.clone()),
                            RawAnnotatorRef::Slot(_) => None,
                        })
                        .collect(),
                }
            })
            .collect();
        (items, item_ids, groups)
    }
}
