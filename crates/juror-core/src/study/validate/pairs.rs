//! A task's pairs: which systems a pairs task compares, and whether it spreads an item's pairs
//! over annotators.

use std::collections::{BTreeMap, BTreeSet};

use super::{Checker, known};
use crate::study::model::*;
use crate::study::raw::*;

/// A task's presentation: enough systems to compare, and `pairs` only with pairs.
pub(super) fn task_pairs(
    c: &mut Checker,
    at: &str,
    t: &RawTask,
    raw: &RawStudy,
    systems: &BTreeSet<&str>,
) -> PairSet {
    let n_systems = raw.systems.len();
    let compares = t.presentation != RawPresentation::Single || t.preference.is_some();
    if compares && n_systems < 2 {
        c.error(
            format!("{at}.presentation"),
            format!("a comparison needs at least two systems, the study has {n_systems}"),
            "add a system or present outputs \"single\" without a preference",
        );
    }
    match (&t.pairs, t.presentation) {
        (Some(p), RawPresentation::Pairs) => pair_set(c, &format!("{at}.pairs"), p, raw, systems),
        (Some(_), _) => {
            c.error(
                format!("{at}.pairs"),
                "\"pairs\" is only used with \"presentation\": \"pairs\"",
                "remove it or present pairs",
            );
            PairSet::All
        }
        (None, _) => PairSet::All,
    }
}

/// `pairs.spread`: an anchor to spread, an assignment with enough slots for every pair of an
/// item to go to annotators of its own, and no personal items (which are outside the
/// assignment). Returns whether the task spreads its pairs.
pub(super) fn spread(
    c: &mut Checker,
    at: &str,
    t: &RawTask,
    raw: &RawStudy,
    pairs: &PairSet,
) -> bool {
    if !t.pairs.as_ref().is_some_and(|p| p.spread) {
        return false;
    }
    let here = format!("{at}.pairs.spread");
    let PairSet::Anchor(_) = pairs else {
        if t.pairs.as_ref().is_some_and(|p| p.anchor.is_some()) {
            return false; // an unknown anchor, already reported
        }
        c.error(
            here,
            "only an anchor's pairs can be spread over annotators",
            "give \"anchor\": SYSTEM with \"spread\": true, or remove \"spread\"",
        );
        return false;
    };
    let others = raw.systems.len().saturating_sub(1);
    match &raw.design.assignment {
        None => c.error(
            here.clone(),
            "spreading an item's pairs over annotators needs an assignment of items to slots",
            format!(
                "add design.assignment with \"slots\" at least annotators_per_item × {others} (the anchor's pairs per item), or remove \"spread\""
            ),
        ),
        Some(a) => {
            let needed = u64::from(a.annotators_per_item) * others as u64;
            if needed > u64::from(a.slots) {
                c.error(
                    here.clone(),
                    format!(
                        "each item's {others} pairs need {} annotators each, {needed} slots in all, but the study has {}",
                        a.annotators_per_item, a.slots
                    ),
                    format!(
                        "raise design.assignment.slots to {needed} or more, or lower annotators_per_item"
                    ),
                );
            }
        }
    }
    if let Some(i) = raw
        .items
        .iter()
        .position(|it| !it.for_annotators.is_empty())
    {
        c.error(
            here,
            format!(
                "item \"{}\" is personal (items[{i}].for): personal items are outside the assignment, so their pairs cannot be spread",
                raw.items[i].id
            ),
            "remove \"spread\", or make the items shared",
        );
    }
    true
}

/// A task's `pairs`: exactly one of `anchor` and `list`; every system named exists; no pair
/// pairs a system with itself; no pair is listed twice, in either order.
fn pair_set(
    c: &mut Checker,
    at: &str,
    p: &RawPairs,
    raw: &RawStudy,
    systems: &BTreeSet<&str>,
) -> PairSet {
    let index = |id: &str| raw.systems.iter().position(|s| s == id);
    match (&p.anchor, &p.list) {
        (Some(_), Some(_)) => {
            c.error(
                at,
                "both \"anchor\" and \"list\" are given",
                "keep one: \"anchor\" compares one system with each of the others, \"list\" compares the pairs named",
            );
            PairSet::All
        }
        (None, None) => {
            c.error(
                at,
                "neither \"anchor\" nor \"list\" is given",
                "give \"anchor\": SYSTEM or \"list\": [[A, B], ...], or remove \"pairs\" to compare every pair",
            );
            PairSet::All
        }
        (Some(anchor), None) => match index(anchor) {
            Some(a) => PairSet::Anchor(a),
            None => {
                c.error(
                    format!("{at}.anchor"),
                    format!("unknown system \"{anchor}\""),
                    known("system", systems),
                );
                PairSet::All
            }
        },
        (None, Some(list)) => {
            if list.is_empty() {
                c.error(
                    format!("{at}.list"),
                    "the list has no pair",
                    "list at least one pair [A, B] of system ids, or remove \"pairs\" to compare every pair",
                );
            }
            let mut pairs: Vec<(usize, usize)> = Vec::with_capacity(list.len());
            let mut first_at: BTreeMap<(usize, usize), usize> = BTreeMap::new();
            for (j, [a, b]) in list.iter().enumerate() {
                let here = format!("{at}.list[{j}]");
                let unknown: Vec<&str> = [a, b]
                    .into_iter()
                    .filter(|id| index(id).is_none())
                    .map(String::as_str)
                    .collect();
                if !unknown.is_empty() {
                    let names: Vec<String> = unknown.iter().map(|id| format!("\"{id}\"")).collect();
                    c.error(
                        here,
                        format!("unknown system {}", names.join(" and ")),
                        known("system", systems),
                    );
                    continue;
                }
                let (Some(x), Some(y)) = (index(a), index(b)) else {
                    continue;
                };
                if x == y {
                    c.error(
                        here,
                        format!("\"{a}\" is paired with itself"),
                        "name two different systems",
                    );
                    continue;
                }
                if let Some(k) = first_at.get(&(x.min(y), x.max(y))) {
                    c.error(
                        here,
                        format!(
                            "the pair of \"{a}\" and \"{b}\" is already listed at {at}.list[{k}]"
                        ),
                        "list each pair once: each is shown in both orders anyway",
                    );
                    continue;
                }
                first_at.insert((x.min(y), x.max(y)), j);
                pairs.push((x, y));
            }
            PairSet::List(pairs)
        }
    }
}
