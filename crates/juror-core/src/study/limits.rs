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

/// The counts the caps bound, from a study as written ([`check`]) or from a compiled study's
/// model ([`check_model`]): both are held to the same caps, placed alike.
struct Sizes {
    /// A published study (it has plans) lists every item's own tokens as its systems: there
    /// the cap is on the outputs of an item.
    published: bool,
    systems: usize,
    /// The first item with more outputs than [`MAX_SYSTEMS`], and how many it has.
    outputs: Option<(usize, usize)>,
    items: usize,
    tasks: usize,
    checks: usize,
    /// Slots, and annotators per item.
    assignment: Option<(u32, u32)>,
    /// How many slots an item goes to per annotator it asks for ([`spread_factor`]).
    factor: u64,
    /// A published study's plans: how many, and the first longer than
    /// [`MAX_TRIALS_PER_ANNOTATOR`] with its length.
    plans: Option<(usize, Option<(usize, usize)>)>,
    /// Each task's listed pairs (`pairs.list`; 0 without).
    listed: Vec<usize>,
}

/// What one task gives an annotator: the items it shows, the trials each item makes, and
/// whether it spreads an anchor's pairs over annotators.
struct TaskSize {
    items: u64,
    per_item: u64,
    spreads: bool,
}

/// One annotator's tasks, the attention checks every annotator gets, and personal items:
/// what [`trials`] counts an annotator's trials from.
type Tasks = (Vec<TaskSize>, u64, u64);

/// The first of `lens` over `cap`: its index and length.
fn first_over(lens: impl Iterator<Item = usize>, cap: usize) -> Option<(usize, usize)> {
    lens.enumerate().find(|&(_, n)| n > cap)
}

/// Every count of `raw` over its cap, each as one problem; empty when the study is within
/// bounds. Linear in the size of the file (item filters are counted with a set).
pub fn check(raw: &RawStudy) -> Vec<Problem> {
    let d = &raw.design;
    let sizes = Sizes {
        published: d.plans.is_some(),
        systems: raw.systems.len(),
        outputs: first_over(raw.items.iter().map(|i| i.outputs.len()), MAX_SYSTEMS),
        items: raw.items.len(),
        tasks: d.tasks.len(),
        checks: d.attention_checks.len(),
        assignment: d
            .assignment
            .as_ref()
            .map(|a| (a.slots, a.annotators_per_item)),
        factor: spread_factor(raw),
        plans: d.plans.as_ref().map(|p| {
            let lens = p.iter().map(Vec::len);
            (p.len(), first_over(lens, MAX_TRIALS_PER_ANNOTATOR as usize))
        }),
        listed: d
            .tasks
            .iter()
            .map(|t| {
                t.pairs
                    .as_ref()
                    .and_then(|p| p.list.as_ref())
                    .map_or(0, Vec::len)
            })
            .collect(),
    };
    over(&sizes, &|| raw_tasks(raw))
}

/// [`check`] on a compiled study's model, which `compiled::read` reads without the validator:
/// the same caps, at the same places (under `study`).
pub fn check_model(study: &super::Study) -> Vec<Problem> {
    use super::{PairSet, Presentation};
    let d = &study.design;
    let n = study.systems.len() as u64;
    // `PairSet::count`, in 64 bits whatever the system count.
    let pairs = |p: &PairSet| match p {
        PairSet::All => n.saturating_mul(n.saturating_sub(1)) / 2,
        PairSet::Anchor(_) => n.saturating_sub(1),
        PairSet::List(list) => list.len() as u64,
    };
    let spread = d.tasks.iter().filter(|t| t.spread).map(|t| pairs(&t.pairs));
    let sizes = Sizes {
        published: d.plans.is_some(),
        systems: study.systems.len(),
        outputs: first_over(study.items.iter().map(|i| i.outputs.len()), MAX_SYSTEMS),
        items: study.items.len(),
        tasks: d.tasks.len(),
        checks: d.attention_checks.len(),
        assignment: d.assignment.map(|a| (a.slots, a.annotators_per_item)),
        factor: spread.max().map_or(1, |f| f.max(1)),
        plans: d.plans.as_ref().map(|p| {
            let lens = p.iter().map(Vec::len);
            (p.len(), first_over(lens, MAX_TRIALS_PER_ANNOTATOR as usize))
        }),
        listed: (d.tasks.iter())
            .map(|t| match &t.pairs {
                PairSet::List(list) => list.len(),
                _ => 0,
            })
            .collect(),
    };
    over(&sizes, &|| {
        // Every check (a check on no item is refused after this, with its place).
        let checks = d.attention_checks.len() as u64;
        let personal = study.items.iter();
        let personal = personal.filter(|i| !(i.for_slots.is_empty() && i.for_ids.is_empty()));
        let tasks = d.tasks.iter().map(|t| TaskSize {
            items: t.items.len() as u64,
            per_item: match t.presentation {
                Presentation::Single => n,
                Presentation::SideBySide => 1,
                Presentation::Pairs => pairs(&t.pairs),
            },
            spreads: t.spread,
        });
        (tasks.collect(), checks, personal.count() as u64)
    })
}

/// Every count of `s` over its cap, each as one problem; then, when none is, the pairs listed
/// and (without plans) the trials of one annotator, from `tasks` (`dyn`: one copy of this for
/// both callers).
fn over(s: &Sizes, tasks: &dyn Fn() -> Tasks) -> Vec<Problem> {
    let mut out = Vec::new();
    let (systems, items) = (s.systems, s.items);
    if !s.published && systems > MAX_SYSTEMS {
        out.push(problem(
            "systems",
            format!("{systems} systems, more than Juror compares in one study ({MAX_SYSTEMS})"),
            "compare at most 64 systems; for more, split them over several studies that share a baseline",
        ));
    }
    if s.published {
        if let Some((i, outputs)) = s.outputs {
            out.push(problem(
                &format!("items[{i}].outputs"),
                format!("{outputs} outputs, more than Juror compares in one study ({MAX_SYSTEMS})"),
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
    if s.tasks > MAX_TASKS {
        out.push(problem(
            "design.tasks",
            format!("{} tasks, more than {MAX_TASKS}", s.tasks),
            "merge tasks that present and ask the same, or split the study",
        ));
    }
    if s.checks > MAX_ATTENTION_CHECKS {
        out.push(problem(
            "design.attention_checks",
            format!(
                "{} attention checks, more than {MAX_ATTENTION_CHECKS}",
                s.checks
            ),
            "keep a few checks: every annotator gets every check item",
        ));
    }
    if let Some((slots, per_item)) = s.assignment {
        if slots > MAX_SLOTS {
            out.push(problem(
                "design.assignment.slots",
                format!("{slots} slots, more than Juror plans ({MAX_SLOTS})"),
                "use at most 2000 slots: links by annotator id (?annotator=ID, Prolific's ids) share the slots, so more annotators than slots can take part",
            ));
        } else {
            let per_item = u64::from(per_item)
                .saturating_mul(s.factor)
                .min(u64::from(slots));
            let steps = (items as u64)
                .saturating_mul(per_item)
                .saturating_mul(u64::from(slots));
            if steps > MAX_ASSIGNMENT_STEPS && items <= MAX_ITEMS {
                out.push(problem(
                    "design.assignment",
                    format!(
                        "{items} items × {per_item} annotators per item × {slots} slots is {steps} steps of assignment, more than Juror takes ({MAX_ASSIGNMENT_STEPS}): the page would freeze when it opens the study"
                    ),
                    "use fewer slots (links by annotator id share them), fewer annotators per item, or fewer items per study",
                ));
            }
        }
    }
    if let Some((plans, longest)) = s.plans {
        if plans > MAX_SLOTS as usize {
            out.push(problem(
                "design.plans",
                format!("{plans} plans, more than Juror plans ({MAX_SLOTS})"),
                "publish the original study again with juror publish, with at most 2000 slots",
            ));
        }
        if let Some((p, trials)) = longest {
            out.push(problem(
                &format!("design.plans[{p}]"),
                format!("{trials} trials in one plan, more than {MAX_TRIALS_PER_ANNOTATOR}"),
                "publish the original study again with juror publish",
            ));
        }
    }
    if !out.is_empty() {
        return out;
    }
    pair_lists(s, &mut out);
    if out.is_empty() && !s.published {
        trials(s, tasks(), &mut out);
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
fn pair_lists(s: &Sizes, out: &mut Vec<Problem>) {
    let n = s.systems;
    let distinct = n * n.saturating_sub(1) / 2;
    for (i, &listed) in s.listed.iter().enumerate() {
        if listed > MAX_PAIRS_LISTED {
            out.push(problem(
                &format!("design.tasks[{i}].pairs.list"),
                format!("{listed} pairs, but {n} systems make only {distinct} different pairs"),
                "list each pair once (each is shown in both orders anyway), or remove \"list\" to compare every pair",
            ));
        }
    }
}

/// What each task of `raw` gives an annotator, its attention checks on items of the study,
/// and its personal items ([`Tasks`]).
fn raw_tasks(raw: &RawStudy) -> Tasks {
    let d = &raw.design;
    let n = raw.systems.len() as u64;
    let ids = crate::base::order::set(raw.items.iter().map(|i| i.id.as_str()));
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
    let tasks = d.tasks.iter().map(|t| {
        let items = match &t.items {
            None => raw.items.len() as u64,
            Some(filter) => {
                let ids = crate::base::order::set(filter.ids.iter().map(String::as_str));
                let groups = crate::base::order::set(filter.groups.iter().map(String::as_str));
                raw.items
                    .iter()
                    .filter(|it| {
                        ids.contains(it.id.as_str())
                            || it.group.as_deref().is_some_and(|g| groups.contains(g))
                    })
                    .count() as u64
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
        TaskSize {
            items,
            per_item,
            spreads,
        }
    });
    (tasks.collect(), checks, personal)
}

/// The trials of one annotator, at most: per task, its items (those an assignment may give one
/// slot, with every check and personal item) times the trials an item makes.
fn trials(s: &Sizes, (tasks, checks, personal): Tasks, out: &mut Vec<Problem>) {
    let mut total: u64 = 0;
    for t in tasks {
        let per_slot = match s.assignment {
            None => t.items,
            Some((slots, per_item)) => {
                let asked = t
                    .items
                    .saturating_mul(u64::from(per_item).saturating_mul(s.factor));
                let share = asked.div_ceil(u64::from(slots.max(1)));
                t.items.min(share.saturating_add(checks + personal))
            }
        };
        let trials = if t.spreads {
            // One pair of each assigned item; every pair of the checks.
            per_slot.saturating_add(checks.saturating_mul(t.per_item))
        } else {
            per_slot.saturating_mul(t.per_item)
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
