//! The balance report over all of a study's slots: what `juror plan --check` prints, and what
//! the property tests assert.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use super::{Annotator, Plan, Planner, Trial, assign, slots, squares};
use crate::study::{LabelScheme, Order, PairSet, Presentation, Study, Task};

/// Counts over all checked slots, and every bound that does not hold.
#[derive(Debug, Clone)]
pub struct Report {
    /// The slots checked: all of the study's, or one counterbalancing period when unbounded.
    pub slots: u32,
    /// Per task: `counts[system][position]` summed over the slots.
    pub positions: Vec<TaskPositions>,
    /// Items per slot.
    pub items_per_slot: Vec<usize>,
    /// `overlap[a][b]`: items slots `a + 1` and `b + 1` share.
    pub overlap: Vec<Vec<usize>>,
    /// Per item: how many slots rate it.
    pub raters_per_item: Vec<usize>,
    /// Every bound that does not hold, as a sentence.
    pub violations: Vec<String>,
    /// The annotator ids planned besides the slots (those personal items name).
    pub named: Vec<String>,
    /// Per task with an anchor whose pairs are not spread over annotators (`pairs.spread`):
    /// the task's id and how many of the checked slots see the anchor's output recur within an
    /// item (in every pair of it), which picks the anchor out. Not a violated bound: a property
    /// of the design, reported so that the researcher can choose `spread`.
    pub anchor_recurs: Vec<(String, usize)>,
    /// Per best–worst task that shows tuples: how evenly systems and pairs share them.
    pub tuples: Vec<TupleBalance>,
}

/// The balance of a best–worst task's tuples, over the distinct tuples of the checked slots
/// (an item's tuples are the same for everyone who rates it).
#[derive(Debug, Clone)]
pub struct TupleBalance {
    pub task: String,
    pub tuple_size: usize,
    /// Per system: the tuples it is in.
    pub appearances: Vec<usize>,
    /// The fewest and the most tuples two systems share.
    pub pairs: (usize, usize),
}

/// The most that two pairs' shares of the tuples may differ, for up to
/// [`super::tuples::CLIMBED_UP_TO`] systems.
pub const PAIR_SPREAD: usize = 2;

fn tuple_bounds(study: &Study, plans: &[Plan], violations: &mut Vec<String>) -> Vec<TupleBalance> {
    let n = study.systems().len();
    let mut out = Vec::new();
    for (ti, task) in study.design().tasks.iter().enumerate() {
        let Some(k) = task.tuple_size(n) else {
            continue;
        };
        let mut seen: BTreeSet<(usize, Vec<usize>)> = BTreeSet::new();
        for t in plans
            .iter()
            .flat_map(|p| &p.trials)
            .filter(|t| t.task == ti)
        {
            let mut s: Vec<usize> = t.shown.iter().map(|s| s.system).collect();
            s.sort_unstable();
            seen.insert((t.item, s));
        }
        let tuples: Vec<Vec<usize>> = seen.into_iter().map(|(_, s)| s).collect();
        let mut appearances = vec![0usize; n];
        for s in tuples.iter().flatten() {
            appearances[*s] += 1;
        }
        let c = super::tuples::co_occurrence(n, &tuples);
        let shares: Vec<usize> = (0..n)
            .flat_map(|a| (a + 1..n).map(move |b| (a, b)))
            .map(|(a, b)| c[a * n + b])
            .collect();
        let pairs = (
            shares.iter().copied().min().unwrap_or(0),
            shares.iter().copied().max().unwrap_or(0),
        );
        if spread(appearances.iter().copied()) > 1 {
            violations.push(format!(
                "task \"{}\": systems are in {appearances:?} tuples, not equally many",
                task.id
            ));
        }
        if n <= super::tuples::CLIMBED_UP_TO && pairs.1 - pairs.0 > PAIR_SPREAD {
            violations.push(format!(
                "task \"{}\": two systems share {} to {} tuples, more uneven than {PAIR_SPREAD} apart",
                task.id, pairs.0, pairs.1
            ));
        }
        out.push(TupleBalance {
            task: task.id.clone(),
            tuple_size: k,
            appearances,
            pairs,
        });
    }
    out
}

/// Position counts of one task.
#[derive(Debug, Clone)]
pub struct TaskPositions {
    /// Task id.
    pub task: String,
    /// `counts[system][position]` over all checked slots.
    pub counts: Vec<Vec<usize>>,
    /// How many different orders of the systems the checked slots' trials show.
    pub orders: usize,
}

fn spread(values: impl IntoIterator<Item = usize>) -> usize {
    let v: Vec<usize> = values.into_iter().collect();
    match (v.iter().max(), v.iter().min()) {
        (Some(max), Some(min)) => max - min,
        _ => 0,
    }
}

/// The number of positions trials of a task have.
fn positions_of(study: &Study, task: &Task) -> usize {
    if let Some(k) = task.tuple_size(study.systems().len()) {
        return k;
    }
    match task.presentation {
        Presentation::Single => 1,
        Presentation::Pairs => 2,
        Presentation::SideBySide => study.systems().len(),
    }
}

/// Checks every bound over the study's slots (or one period when the study does not fix them).
///
/// Personal items (`items[].for`) are checked too: an annotator id they name is planned as it
/// would be from a link with `?annotator=ID` (its slot derived from the id), and each personal
/// item must reach exactly the slots and ids it is for.
pub fn check(study: &Study) -> Report {
    let n_slots = slots(study).unwrap_or_else(|| super::period(study));
    let planner = Planner::new(study);
    let mut plans: Vec<Plan> = (1..=n_slots)
        .map(|slot| planner.plan(&Annotator::slot(slot)))
        .collect();
    let mut ids: Vec<&str> = study
        .items()
        .iter()
        .flat_map(|it| it.for_ids.iter().map(String::as_str))
        .collect();
    ids.sort_unstable();
    ids.dedup();
    for id in ids {
        if let Ok(who) = super::resolve_annotator(study, None, Some(id)) {
            plans.push(planner.plan(&who));
        }
    }
    check_plans(study, &plans)
}

/// How many trials of `plan` come right after a trial of the same item in the same task (two
/// pairs of one item, or two outputs of one item rated one at a time, back to back). Shuffled
/// tasks avoid it whenever the numbers allow (plan format v2); `juror plan --check` reports the
/// number.
pub fn back_to_back(plan: &Plan) -> usize {
    plan.trials
        .windows(2)
        .filter(|w| w[0].item == w[1].item && w[0].task == w[1].task)
        .count()
}

/// Checks the bounds over the given plans: one per slot, slots 1, 2, ... in order, then
/// optionally the plans of annotators named by id (`annotator.id`), who are checked for their
/// own trials and personal items but do not count as slots.
pub fn check_plans(study: &Study, plans: &[Plan]) -> Report {
    let named = plans.iter().filter(|p| p.annotator.id.is_some()).count();
    let (plans, named_plans) = plans.split_at(plans.len() - named);
    let n = study.systems().len();
    let assignment = assign::Assignment::new(study);
    let checks = assign::check_items(study);
    let mut violations = Vec::new();

    let mut positions: Vec<TaskPositions> = study
        .design()
        .tasks
        .iter()
        .map(|t| TaskPositions {
            task: t.id.clone(),
            counts: vec![vec![0; positions_of(study, t)]; n],
            orders: 0,
        })
        .collect();
    let mut orders: Vec<BTreeSet<Vec<usize>>> = vec![BTreeSet::new(); positions.len()];
    for trial in plans.iter().flat_map(|p| &p.trials) {
        orders[trial.task].insert(trial.shown.iter().map(|s| s.system).collect());
    }
    for (tp, seen) in positions.iter_mut().zip(&orders) {
        tp.orders = seen.len();
    }
    let mut recurring = vec![0usize; study.design().tasks.len()];
    for plan in plans.iter().chain(named_plans) {
        slot_bounds(
            study,
            &assignment,
            &checks,
            plan,
            &mut positions,
            &mut violations,
        );
        if plan.annotator.id.is_none() {
            anchor_bounds(study, &checks, plan, &mut recurring, &mut violations);
        }
    }
    let anchor_recurs = study
        .design()
        .tasks
        .iter()
        .zip(&recurring)
        .filter(|(t, _)| matches!(t.pairs, PairSet::Anchor(_)) && !t.spread)
        .filter(|(t, _)| t.presentation == Presentation::Pairs)
        .map(|(t, &r)| (t.id.clone(), r))
        .collect();
    position_bounds(study, &positions, &mut violations);
    let tuples = tuple_bounds(study, plans, &mut violations);
    block_order_bounds(study, plans, &mut violations);
    let (slot_items, raters_per_item, items_per_slot) =
        assignment_bounds(study, plans, named_plans, &checks, &mut violations);
    let m = slot_items.len();
    let mut overlap = vec![vec![0usize; m]; m];
    for a in 0..m {
        for b in 0..m {
            overlap[a][b] = slot_items[a]
                .iter()
                .filter(|i| slot_items[b].binary_search(i).is_ok())
                .count();
        }
    }

    Report {
        slots: u32::try_from(plans.len()).unwrap_or(u32::MAX),
        positions,
        items_per_slot,
        overlap,
        raters_per_item,
        violations,
        named: named_plans
            .iter()
            .filter_map(|p| p.annotator.id.clone())
            .collect(),
        anchor_recurs,
        tuples,
    }
}

/// Anchor pairs within one slot's plan: counts, per task with an anchor, whether the slot sees
/// two pairs of one item (the anchor's output recurring); in a task that spreads its pairs, that
/// is a violation for any item but an attention check.
fn anchor_bounds(
    study: &Study,
    checks: &assign::CheckItems,
    plan: &Plan,
    recurring: &mut [usize],
    violations: &mut Vec<String>,
) {
    for (ti, task) in study.design().tasks.iter().enumerate() {
        if task.presentation != Presentation::Pairs || !matches!(task.pairs, PairSet::Anchor(_)) {
            continue;
        }
        let mut seen: BTreeMap<usize, usize> = BTreeMap::new();
        for t in plan
            .trials
            .iter()
            .filter(|t| t.task == ti && !checks.contains(&t.item))
        {
            *seen.entry(t.item).or_default() += 1;
        }
        let twice: Vec<usize> = seen
            .iter()
            .filter(|(_, c)| **c > 1)
            .map(|(i, _)| *i)
            .collect();
        if twice.is_empty() {
            continue;
        }
        recurring[ti] += 1;
        if task.spread {
            violations.push(format!(
                "slot {}, task \"{}\": item \"{}\" is shown in {} pairs, so its anchor recurs",
                plan.annotator.slot,
                task.id,
                study.items()[twice[0]].id,
                seen[&twice[0]]
            ));
        }
    }
}

/// The bounds within one slot's plan, task by task: every unit once, checks marked, positions
/// even within the slot (added to `positions`, the counts over slots, for a slot's own plan),
/// labels as the scheme says, one block per system.
fn slot_bounds(
    study: &Study,
    assignment: &assign::Assignment,
    checks: &assign::CheckItems,
    plan: &Plan,
    positions: &mut [TaskPositions],
    violations: &mut Vec<String>,
) {
    let n = study.systems().len();
    let slot = plan.annotator.slot;
    let mine = assignment.items_for(slot, plan.annotator.id.as_deref());
    let who = match &plan.annotator.id {
        Some(id) => format!("annotator \"{id}\" (slot {slot})"),
        None => format!("slot {slot}"),
    };
    for (ti, task) in study.design().tasks.iter().enumerate() {
        let trials: Vec<_> = plan.trials.iter().filter(|t| t.task == ti).collect();
        // Completeness: every (item, systems shown) unit exactly once.
        let expected = super::task_trial_count(study, task, &mine);
        if trials.len() != expected {
            violations.push(format!(
                "{who}, task \"{}\": {} trials, expected {expected}",
                task.id,
                trials.len()
            ));
        }
        let mut units: Vec<(usize, Vec<usize>)> = trials
            .iter()
            .map(|t| {
                let mut s: Vec<usize> = t.shown.iter().map(|s| s.system).collect();
                s.sort_unstable();
                (t.item, s)
            })
            .collect();
        units.sort();
        let before = units.len();
        units.dedup();
        if units.len() != before {
            violations.push(format!(
                "{who}, task \"{}\": an output or pair is shown twice",
                task.id
            ));
        }
        for t in &trials {
            if t.check != checks.contains(&t.item) {
                violations.push(format!(
                    "{who}, task \"{}\": trial of item {} is wrongly marked as a check",
                    task.id, t.item
                ));
            }
        }

        // Positions within the slot.
        let width = positions_of(study, task);
        let mut mine_counts = vec![vec![0usize; width]; n];
        for t in &trials {
            for (p, s) in t.shown.iter().enumerate() {
                mine_counts[s.system][p] += 1;
                if plan.annotator.id.is_none() {
                    positions[ti].counts[s.system][p] += 1;
                }
            }
        }
        if width > 1 {
            for (s, row) in mine_counts.iter().enumerate() {
                if spread(row.iter().copied()) > 1 {
                    violations.push(format!(
                        "{who}, task \"{}\": system \"{}\" is at positions {row:?} times",
                        task.id,
                        study.systems()[s]
                    ));
                }
            }
        }

        label_bounds(study, task, &who, &trials, violations);
        if task.order == Order::SystemBlocks {
            block_bounds(study, &who, task, &trials, violations);
        }
    }
}

/// Labels within one slot's trials of a task: by position (`per_trial`), or one per system
/// (`per_annotator`).
fn label_bounds(
    study: &Study,
    task: &Task,
    who: &str,
    trials: &[&Trial],
    violations: &mut Vec<String>,
) {
    match task.labels {
        LabelScheme::PerTrial => {
            for t in trials {
                for (p, s) in t.shown.iter().enumerate() {
                    if s.label != task.label(p) {
                        violations.push(format!("{who}: label \"{}\" at position {p}", s.label));
                    }
                }
            }
        }
        LabelScheme::PerAnnotator => {
            let mut label_of: BTreeMap<usize, &str> = BTreeMap::new();
            for t in trials {
                for s in &t.shown {
                    let first = label_of.entry(s.system).or_insert(&s.label);
                    if *first != s.label {
                        violations.push(format!(
                            "{who}: system \"{}\" has two labels",
                            study.systems()[s.system]
                        ));
                    }
                }
            }
        }
    }
}

/// Blocks within one slot's trials of a `system_blocks` task: each system in one block.
fn block_bounds(
    study: &Study,
    who: &str,
    task: &Task,
    trials: &[&Trial],
    violations: &mut Vec<String>,
) {
    if task.order == Order::SystemBlocks {
        let mut blocks: Vec<usize> = Vec::new();
        for t in trials {
            let s = t.shown[0].system;
            if blocks.last() != Some(&s) {
                if blocks.contains(&s) {
                    violations.push(format!(
                        "{who}, task \"{}\": system \"{}\" is split over two blocks",
                        task.id,
                        study.systems()[s]
                    ));
                }
                blocks.push(s);
            }
        }
    }
}

/// Positions across slots: each system at each position as often as any other (within one),
/// over the slots' own plans.
fn position_bounds(study: &Study, positions: &[TaskPositions], violations: &mut Vec<String>) {
    let tasks = &study.design().tasks;
    for (ti, task) in tasks.iter().enumerate() {
        if positions_of(study, task) > 1 {
            for (s, row) in positions[ti].counts.iter().enumerate() {
                if spread(row.iter().copied()) > 1 {
                    violations.push(format!(
                        "all slots, task \"{}\": system \"{}\" is at positions {row:?} times",
                        task.id,
                        study.systems()[s]
                    ));
                }
            }
        }
    }
}

/// Block orders across slots: Williams' carry-over balance over whole periods, when every
/// slot does every block (with an assignment, a slot may have no item of the task).
fn block_order_bounds(study: &Study, plans: &[Plan], violations: &mut Vec<String>) {
    let n = study.systems().len();
    let tasks = &study.design().tasks;
    for (ti, task) in tasks.iter().enumerate() {
        let rows = squares::williams(n).len();
        if task.order != Order::SystemBlocks || n < 2 || !plans.len().is_multiple_of(rows) {
            continue;
        }
        let block_orders: Vec<Vec<usize>> = plans
            .iter()
            .map(|plan| {
                let mut blocks: Vec<usize> = Vec::new();
                for t in plan.trials.iter().filter(|t| t.task == ti) {
                    if blocks.last() != Some(&t.shown[0].system) {
                        blocks.push(t.shown[0].system);
                    }
                }
                blocks
            })
            .collect();
        if block_orders.iter().any(|b| b.len() != n) {
            continue;
        }
        let mut adjacent = vec![vec![0usize; n]; n];
        for blocks in &block_orders {
            for w in blocks.windows(2) {
                adjacent[w[0]][w[1]] += 1;
            }
        }
        let off_diagonal = (0..n).flat_map(|a| {
            let row = &adjacent[a];
            (0..n).filter(move |&b| b != a).map(move |b| row[b])
        });
        if spread(off_diagonal) > 0 {
            violations.push(format!(
                "task \"{}\": block orders are not carry-over balanced: {adjacent:?}",
                task.id
            ));
        }
    }
}

/// Assignment: shared items over the slots; personal items to exactly their annotators.
/// Returns each slot's items, the raters of each item and the number of items per slot.
fn assignment_bounds(
    study: &Study,
    plans: &[Plan],
    named_plans: &[Plan],
    checks: &assign::CheckItems,
    violations: &mut Vec<String>,
) -> (Vec<Vec<usize>>, Vec<usize>, Vec<usize>) {
    let tasks = &study.design().tasks;
    let items_of = |p: &Plan| -> Vec<usize> {
        let mut items: Vec<usize> = p.trials.iter().map(|t| t.item).collect();
        items.sort_unstable();
        items.dedup();
        items
    };
    let slot_items: Vec<Vec<usize>> = plans.iter().map(items_of).collect();
    let mut raters_per_item = vec![0usize; study.items().len()];
    for items in &slot_items {
        for &i in items {
            raters_per_item[i] += 1;
        }
    }
    let checked_slots = u32::try_from(plans.len()).unwrap_or(u32::MAX);
    for named in named_plans {
        let id = named.annotator.id.as_deref();
        for i in items_of(named) {
            let item = &study.items()[i];
            if item.for_ids.iter().any(|x| Some(x.as_str()) == id) {
                raters_per_item[i] += 1;
            }
        }
    }
    for plan in plans.iter().chain(named_plans) {
        let (slot, id) = (plan.annotator.slot, plan.annotator.id.as_deref());
        for i in items_of(plan) {
            let item = &study.items()[i];
            if item.is_personal() && !item.is_for(slot, id) {
                violations.push(format!(
                    "personal item \"{}\" is in the plan of slot {slot}{}, which it is not for",
                    item.id,
                    id.map(|id| format!(" (annotator \"{id}\")"))
                        .unwrap_or_default()
                ));
            }
        }
    }
    for (i, item) in study.items().iter().enumerate() {
        if !item.is_personal() || !tasks.iter().any(|t| t.items.contains(&i)) {
            continue;
        }
        let want = item
            .for_slots
            .iter()
            .filter(|&&s| s <= checked_slots)
            .count()
            + item.for_ids.len();
        if raters_per_item[i] != want {
            violations.push(format!(
                "personal item \"{}\" reaches {} of its {want} annotator(s)",
                item.id, raters_per_item[i]
            ));
        }
    }
    let items_per_slot: Vec<usize> = slot_items.iter().map(Vec::len).collect();
    let shared = |i: &usize| !checks.contains(i) && !study.items()[*i].is_personal();
    if let Some(a) = study.design().assignment {
        for (i, &r) in raters_per_item.iter().enumerate() {
            if study.items()[i].is_personal() {
                continue;
            }
            let want = if checks.contains(&i) {
                a.slots as usize
            } else {
                a.annotators_per_item as usize * assign::spread_factor(study)
            };
            let in_some_task = tasks.iter().any(|t| t.items.contains(&i));
            if in_some_task && r != want {
                violations.push(format!(
                    "item \"{}\" is rated by {r} slots, expected {want}",
                    study.items()[i].id
                ));
            }
        }
        // Loads of the shared items: personal items are as many as the study gives each one.
        let loads: Vec<usize> = slot_items
            .iter()
            .map(|items| items.iter().filter(|i| shared(i)).count())
            .collect();
        if spread(loads.iter().copied()) > 1 {
            violations.push(format!(
                "slot loads (shared items) differ by more than one: {loads:?}"
            ));
        }
    }
    (slot_items, raters_per_item, items_per_slot)
}

impl Report {
    /// The smallest and largest number of items two different slots share.
    pub fn overlap_range(&self) -> Option<(usize, usize)> {
        let m = self.overlap.len();
        let pairs = (0..m).flat_map(|a| (a + 1..m).map(move |b| (a, b)));
        let values: Vec<usize> = pairs.map(|(a, b)| self.overlap[a][b]).collect();
        Some((*values.iter().min()?, *values.iter().max()?))
    }

    /// The report as text, for `juror plan --check`.
    pub fn render(&self, study: &Study) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "Balance of \"{}\" over {} slot(s){}",
            study.id(),
            self.slots,
            if study.design().assignment.is_none() {
                " (one counterbalancing period; every slot rates every item)"
            } else {
                ""
            }
        );
        for tp in &self.positions {
            let width = tp.counts.first().map_or(0, Vec::len);
            let _ = writeln!(
                out,
                "\nTask \"{}\": times each system is at each position",
                tp.task
            );
            let header: Vec<String> = (1..=width).map(|p| format!("{p:>6}")).collect();
            let _ = writeln!(out, "  {:<20}{}", "system", header.join(""));
            for (s, row) in tp.counts.iter().enumerate() {
                let cells: Vec<String> = row.iter().map(|c| format!("{c:>6}")).collect();
                let _ = writeln!(out, "  {:<20}{}", study.systems()[s], cells.join(""));
            }
            if width > 2 {
                let possible = (1..=width as u128)
                    .try_fold(1u128, u128::checked_mul)
                    .map_or_else(|| format!("{width}!"), |n| n.to_string());
                let _ = writeln!(
                    out,
                    "  Orders of the systems shown: {} of the {possible} orders",
                    tp.orders
                );
            }
        }
        let loads = &self.items_per_slot;
        let _ = writeln!(
            out,
            "\nItems per slot: min {}, max {}",
            loads.iter().min().unwrap_or(&0),
            loads.iter().max().unwrap_or(&0)
        );
        let rated: Vec<usize> = self.raters_per_item.clone();
        let _ = writeln!(
            out,
            "Slots per item: min {}, max {}",
            rated.iter().min().unwrap_or(&0),
            rated.iter().max().unwrap_or(&0)
        );
        if let Some((lo, hi)) = self.overlap_range() {
            let _ = writeln!(out, "Items shared by two slots: min {lo}, max {hi}");
        }
        let personal = study.items().iter().filter(|it| it.is_personal()).count();
        if personal > 0 {
            let _ = writeln!(
                out,
                "Personal items: {personal}, each checked against the slots and ids it is for{}",
                if self.named.is_empty() {
                    String::new()
                } else {
                    format!(" (annotator ids planned: {})", self.named.join(", "))
                }
            );
        }
        for (task, slots) in self.anchor_recurs.iter().filter(|(_, n)| *n > 0) {
            let _ = writeln!(
                out,
                "Task \"{task}\": the anchor recurs within an item for {slots} annotator(s): identifiable (its output is in every pair of the item; \"spread\": true in pairs gives each annotator one pair of an item)"
            );
        }
        for tb in &self.tuples {
            let _ = writeln!(
                out,
                "\nTask \"{}\": best–worst tuples of {}; tuples each system is in",
                tb.task, tb.tuple_size
            );
            for (s, c) in tb.appearances.iter().enumerate() {
                let _ = writeln!(out, "  {:<20}{c:>6}", study.systems()[s]);
            }
            let _ = writeln!(
                out,
                "  Tuples two systems share: min {}, max {}",
                tb.pairs.0, tb.pairs.1
            );
        }
        if self.violations.is_empty() {
            let _ = writeln!(out, "\nAll bounds hold.");
        } else {
            let _ = writeln!(out, "\n{} bound(s) violated:", self.violations.len());
            for v in &self.violations {
                let _ = writeln!(out, "  - {v}");
            }
        }
        out
    }
}
