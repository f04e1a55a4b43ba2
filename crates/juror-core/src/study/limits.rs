//! The largest study Juror plans: caps on every count that drives the planner's memory or
//! time, checked on the file as written before anything else, so that a study asking for too
//! much is refused at once, with one message per count over its cap (never a cascade of the
//! problems that count would cause, and never after minutes of planning).
//!
//! Every other part of Juror may rely on these bounds: with them, the assignment's table of
//! slot pairs has at most `MAX_SLOTS²` entries, the greedy assignment takes at most
//! [`MAX_ASSIGNMENT_STEPS`] steps, and one annotator's plan at most
//! [`MAX_TRIALS_PER_ANNOTATOR`] trials, on any machine (none of these sizes can overflow a
//! 32-bit `usize`, as in the browser).

use super::raw::{RawAttentionCheck, RawPresentation, RawStudy};
use super::validate::Problem;

/// Most systems a study compares. Pairs and Williams squares grow with the square of this
/// count (64 systems make 2,016 pairs).
pub const MAX_SYSTEMS: usize = 64;
/// Most items in a study.
pub const MAX_ITEMS: usize = 100_000;
/// Most tasks in a study.
pub const MAX_TASKS: usize = 100;
/// Most attention checks in a study (every one goes to every annotator).
pub const MAX_ATTENTION_CHECKS: usize = 1_000;
/// Most annotator slots (`design.assignment.slots`, or a published study's plans). The
/// assignment keeps a table of how many items each pair of slots shares, `slots²` counts.
/// Links by annotator id share the slots, so a study can have more annotators than slots.
pub const MAX_SLOTS: u32 = 2_000;
/// Most steps of the greedy assignment: items × annotators per item × slots.
pub const MAX_ASSIGNMENT_STEPS: u64 = 20_000_000;
/// Most trials one annotator's plan can have.
pub const MAX_TRIALS_PER_ANNOTATOR: u64 = 20_000;

fn problem(at: &str, message: String, fix: &str) -> Problem {
    Problem {
        at: at.to_owned(),
        message,
        fix: fix.to_owned(),
    }
}

/// Every count of `raw` over its cap, each as one problem; empty when the study is within
/// bounds. Linear in the size of the file (item filters are counted with a set).
pub fn check(raw: &RawStudy) -> Vec<Problem> {
    let mut out = Vec::new();
    let d = &raw.design;
    let systems = raw.systems.len();
    let items = raw.items.len();
    // A published study lists every item's own tokens as its systems: there the cap is on the
    // outputs of an item.
    let published = d.plans.is_some();
    if !published && systems > MAX_SYSTEMS {
        out.push(problem(
            "systems",
            format!("{systems} systems, more than Juror compares in one study ({MAX_SYSTEMS})"),
            "compare at most 64 systems; for more, split them over several studies that share a baseline",
        ));
    }
    if published {
        if let Some((i, it)) = raw
            .items
            .iter()
            .enumerate()
            .find(|(_, it)| it.outputs.len() > MAX_SYSTEMS)
        {
            out.push(problem(
                &format!("items[{i}].outputs"),
                format!(
                    "{} outputs, more than Juror compares in one study ({MAX_SYSTEMS})",
                    it.outputs.len()
                ),
                "publish the original study again with juror publish",
            ));
        }
        if systems > MAX_ITEMS * MAX_SYSTEMS {
            out.push(problem(
                "systems",
                format!("{systems} output tokens, more than {MAX_ITEMS} items of {MAX_SYSTEMS} systems have"),
                "publish the original study again with juror publish",
            ));
        }
    }
    if items > MAX_ITEMS {
        out.push(problem(
            "items",
            format!("{items} items, more than Juror plans in one study ({MAX_ITEMS})"),
            "split the items over several studies, or sample the items to rate",
        ));
    }
    if d.tasks.len() > MAX_TASKS {
        out.push(problem(
            "design.tasks",
            format!("{} tasks, more than {MAX_TASKS}", d.tasks.len()),
            "merge tasks that present and ask the same, or split the study",
        ));
    }
    if d.attention_checks.len() > MAX_ATTENTION_CHECKS {
        out.push(problem(
            "design.attention_checks",
            format!(
                "{} attention checks, more than {MAX_ATTENTION_CHECKS}",
                d.attention_checks.len()
            ),
            "keep a few checks: every annotator gets every check item",
        ));
    }
    let factor = spread_factor(raw);
    if let Some(a) = &d.assignment {
        if a.slots > MAX_SLOTS {
            out.push(problem(
                "design.assignment.slots",
                format!("{} slots, more than Juror plans ({MAX_SLOTS})", a.slots),
                "use at most 2000 slots: links by annotator id (?annotator=ID, Prolific's ids) share the slots, so more annotators than slots can take part",
            ));
        } else {
            let per_item = u64::from(a.annotators_per_item)
                .saturating_mul(factor)
                .min(u64::from(a.slots));
            let steps = (items as u64)
                .saturating_mul(per_item)
                .saturating_mul(u64::from(a.slots));
            if steps > MAX_ASSIGNMENT_STEPS && items <= MAX_ITEMS {
                out.push(problem(
                    "design.assignment",
                    format!(
                        "{items} items × {per_item} annotators per item × {} slots is {steps} steps of assignment, more than Juror takes ({MAX_ASSIGNMENT_STEPS}): the page would freeze when it opens the study",
                        a.slots
                    ),
                    "use fewer slots (links by annotator id share them), fewer annotators per item, or fewer items per study",
                ));
            }
        }
    }
    if let Some(plans) = &d.plans {
        if plans.len() > MAX_SLOTS as usize {
            out.push(problem(
                "design.plans",
                format!("{} plans, more than Juror plans ({MAX_SLOTS})", plans.len()),
                "publish the original study again with juror publish, with at most 2000 slots",
            ));
        }
        if let Some((s, p)) = plans
            .iter()
            .enumerate()
            .find(|(_, p)| p.len() as u64 > MAX_TRIALS_PER_ANNOTATOR)
        {
            out.push(problem(
                &format!("design.plans[{s}]"),
                format!(
                    "{} trials in one plan, more than {MAX_TRIALS_PER_ANNOTATOR}",
                    p.len()
                ),
                "publish the original study again with juror publish",
            ));
        }
    }
    if !out.is_empty() {
        return out;
    }
    pair_lists(raw, &mut out);
    if out.is_empty() && d.plans.is_none() {
        trials(raw, &mut out);
    }
    out
}

/// How many slots an item goes to per annotator it asks for: with a task that spreads an
/// anchor's pairs over annotators, one per pair (systems − 1), else 1.
fn spread_factor(raw: &RawStudy) -> u64 {
    let spreads = raw.design.tasks.iter().any(|t| {
        t.pairs
            .as_ref()
            .is_some_and(|p| p.spread && p.anchor.is_some())
    });
    if spreads {
        (raw.systems.len() as u64).saturating_sub(1).max(1)
    } else {
        1
    }
}

/// Most pairs in a `pairs.list`: the pairs of [`MAX_SYSTEMS`] systems. A longer list repeats
/// pairs, and each repeat would be one more problem.
pub const MAX_PAIRS_LISTED: usize = MAX_SYSTEMS * (MAX_SYSTEMS - 1) / 2;

/// `pairs.list`: at most [`MAX_PAIRS_LISTED`] pairs (a shorter list's repeats are reported one
/// by one, with their places).
fn pair_lists(raw: &RawStudy, out: &mut Vec<Problem>) {
    let n = raw.systems.len();
    let distinct = n * n.saturating_sub(1) / 2;
    for (i, t) in raw.design.tasks.iter().enumerate() {
        let listed = t
            .pairs
            .as_ref()
            .and_then(|p| p.list.as_ref())
            .map_or(0, Vec::len);
        if listed > MAX_PAIRS_LISTED {
            out.push(problem(
                &format!("design.tasks[{i}].pairs.list"),
                format!("{listed} pairs, but {n} systems make only {distinct} different pairs"),
                "list each pair once (each is shown in both orders anyway), or remove \"list\" to compare every pair",
            ));
        }
    }
}

/// The trials of one annotator, at most: per task, its items (those an assignment may give one
/// slot, with every check and personal item) times the trials an item makes.
fn trials(raw: &RawStudy, out: &mut Vec<Problem>) {
    let d = &raw.design;
    let factor = spread_factor(raw);
    let n = raw.systems.len() as u64;
    let ids = crate::order::set(raw.items.iter().map(|i| i.id.as_str()));
    let checks =
        d.attention_checks
            .iter()
            .filter(|c| match c {
                RawAttentionCheck::Rating { item, .. }
                | RawAttentionCheck::Preference { item, .. } => ids.contains(item.as_str()),
            })
            .count() as u64;
    let personal = raw
        .items
        .iter()
        .filter(|i| !i.for_annotators.is_empty())
        .count() as u64;
    let mut total: u64 = 0;
    for t in &d.tasks {
        let in_task = match &t.items {
            None => raw.items.len() as u64,
            Some(filter) => {
                let ids = crate::order::set(filter.ids.iter().map(String::as_str));
                let groups = crate::order::set(filter.groups.iter().map(String::as_str));
                raw.items
                    .iter()
                    .filter(|it| {
                        ids.contains(it.id.as_str())
                            || it.group.as_deref().is_some_and(|g| groups.contains(g))
                    })
                    .count() as u64
            }
        };
        let per_slot = match &d.assignment {
            None => in_task,
            Some(a) => {
                let share = (in_task * u64::from(a.annotators_per_item) * factor)
                    .div_ceil(u64::from(a.slots.max(1)));
                in_task.min(share + checks + personal)
            }
        };
        let per_item = match t.presentation {
            RawPresentation::Single => n,
            RawPresentation::SideBySide => 1,
            RawPresentation::Pairs => match &t.pairs {
                Some(p) if p.list.is_some() => p.list.as_ref().map_or(0, Vec::len) as u64,
                Some(_) => n.saturating_sub(1),
                None => n * n.saturating_sub(1) / 2,
            },
        };
        let spreads = t
            .pairs
            .as_ref()
            .is_some_and(|p| p.spread && p.anchor.is_some());
        let trials = if spreads {
            // One pair of each assigned item; every pair of the checks.
            per_slot.saturating_add(checks.saturating_mul(per_item))
        } else {
            per_slot.saturating_mul(per_item)
        };
        total = total.saturating_add(trials);
    }
    if total > MAX_TRIALS_PER_ANNOTATOR {
        out.push(problem(
            "design.tasks",
            format!(
                "an annotator would have up to {total} trials, more than Juror plans ({MAX_TRIALS_PER_ANNOTATOR})"
            ),
            "give each annotator a share of the items (design.assignment), compare fewer pairs (pairs.anchor or pairs.list), or split the study",
        ));
    }
}
