//! Counterbalanced, blinded trial plans: which annotator sees which items, in what order, with
//! which system in which position under which label.
//!
//! [`plan`] is a pure function of the [`Study`] and the [`Annotator`]'s slot: the same study
//! and slot give the same plan on every machine and in every release that makes the same plan
//! [`Format`] (the random streams are specified in [`rng`], and golden plans freeze each format).
//! New plans are made in [`Format::CURRENT`]; progress saved under an older format continues on
//! the plan it started ([`following`]).
//!
//! # How a plan is made, per task
//! 1. **Assignment** ([`assign`]): without `design.assignment` every slot gets every item; with
//!    it, each non-check item goes to exactly `annotators_per_item` slots, loads differ by at
//!    most one, and slot pairs share items as evenly as a greedy choice allows. Attention-check
//!    items go to every slot.
//! 2. **Trials**: `single` makes one trial per (item, system); `side_by_side` one per item;
//!    `pairs` one per (item, pair), over all pairs, the anchor against each other system, or
//!    the pairs listed; when the anchor's pairs are spread over annotators, one per item, the
//!    pair the assignment gives the slot (attention checks keep every pair).
//! 3. **Order**: `fixed` keeps file order; `shuffled` shuffles the task's trials per slot, then
//!    (format v2) keeps trials of one item apart whenever the numbers allow;
//!    `system_blocks` runs one block per system, the block order being row `slot - 1` (modulo
//!    the design's rows) of a Williams design (balanced for first-order carry-over), whose
//!    symbols stand for systems one way per period of slots in format v2 (one way for every
//!    slot in v1), items in a block by round then file order. Except in blocks, attention-check
//!    trials are then moved to evenly spread positions.
//! 4. **Positions**: `side_by_side` takes the rows of a Latin square (the first `n` rows of the
//!    Williams design) in turn, continuing across slots in slot order, shuffled within each run
//!    of `n` trials, so that within a slot and across the whole study every system is at every
//!    position as often as possible (counts differ by at most one). In format v2 each whole run
//!    maps the square's symbols to systems its own way, so that the orders of
//!    the systems an annotator sees are not a fixed few: 6 slots of a 4-system study see all
//!    24. `pairs` shows each pair in both orders equally often; the odd
//!    trial left over in each pair is oriented by an Euler orientation (so each system's left
//!    and right counts differ by at most one) that flips from one odd-count slot to the next;
//!    with spread pairs, by an Euler orientation of the slots and pairs of the whole study.
//! 5. **Labels**: `per_trial` labels follow positions (the first output shown is "A");
//!    `per_annotator` gives each system one letter for the whole plan, rotated across slots so
//!    that each system gets each letter equally often.

pub mod assign;
pub mod balance;
pub mod link;
pub mod squares;
pub mod trials;
pub mod tuples;
pub mod view;

use serde::Serialize;

use crate::base::rng::Stream;
pub use crate::study::published::{Shown, Trial};
use crate::study::{
    Item, LabelScheme, Order, Presentation, Problem, Study, Task, participant_code, personal_key,
};
pub use link::{
    Annotator, ID_PARAMETERS, LINK_PARAMETERS, Platform, PlatformVisit, UnknownParameter,
    broken_link, mturk_preview, mturk_submit_url, platform_links, platform_visit, resolve,
    resolve_annotator, slot_links, unknown_parameters,
};

/// A version of the planner. Plans of the same study and slot are the same in every release of
/// Juror that makes the same format; a new format is only ever added, so that progress saved
/// under an older one can be continued on the plan it follows ([`following`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// One symbol mapping of the position square and of the block design per task for every
    /// slot; a shuffled task's trials in the shuffle's order (golden plans in
    /// `tests/golden/plans/v1/`).
    V1,
    /// Each slot's position square and each period of slots' block design have their own symbol
    /// mapping; a shuffled task never puts two trials of one item back to back when the numbers
    /// allow it.
    V2,
    /// As V2, and a best–worst task's items map the tuple design's symbols to systems for the
    /// least spread of the pairs' counts first (`plan::tuples`): with V2's rule a few designs
    /// left two systems sharing 3 more tuples than two others.
    V3,
}

impl Format {
    /// The format new plans are made in.
    pub const CURRENT: Format = Format::V3;
    /// Every format, newest first.
    pub const ALL: [Format; 3] = [Format::V3, Format::V2, Format::V1];
}

/// An annotator's whole plan.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Plan {
    /// Who it is for.
    pub annotator: Annotator,
    /// The trials, in the order they are done.
    pub trials: Vec<Trial>,
}

impl Plan {
    /// A short digest of the trials (items, tasks, systems and their places, checks): stored with
    /// saved progress, so that answers are never attached to other items or systems if an update
    /// of the app ever planned the same study differently.
    pub fn fingerprint(&self) -> String {
        use std::fmt::Write;
        // Written out by hand, not through serde: the annotator's wasm needs no serializer for
        // plans (the size budget).
        let mut text = String::new();
        for t in &self.trials {
            let _ = write!(text, "{},{},{}", t.task, t.item, u8::from(t.check));
            for s in &t.shown {
                let _ = write!(text, ":{}:{}", s.system, s.label);
            }
            text.push(';');
        }
        crate::base::digest::sha256_hex(&text)[..16].to_owned()
    }
}

/// The number of slots after which the counterbalancing repeats when the study does not fix a
/// number of slots: the rows of the Williams design for the study's systems (a multiple of the
/// number of systems and of 2).
pub fn period(study: &Study) -> u32 {
    let rows = squares::williams(study.systems().len()).len().max(2);
    u32::try_from(rows).unwrap_or(u32::MAX)
}

/// The slots the study has: `design.assignment.slots`, a published study's plans, or `None`
/// when unbounded.
pub fn slots(study: &Study) -> Option<u32> {
    match &study.design().plans {
        Some(plans) => Some(u32::try_from(plans.len()).unwrap_or(u32::MAX)),
        None => study.design().assignment.map(|a| a.slots),
    }
}

#[cfg(debug_assertions)]
thread_local! {
    static PLANS_MADE: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// How many plans this thread has made with [`Planner::plan`] (or [`plan`]): tests use it to
/// prove that a check comes before any planning. Counted in debug builds only (the tests'); a
/// release build, such as the annotator's page, always says 0.
pub fn plans_made() -> u64 {
    #[cfg(debug_assertions)]
    {
        PLANS_MADE.with(std::cell::Cell::get)
    }
    #[cfg(not(debug_assertions))]
    {
        0
    }
}

/// The planner of one study: its assignment, computed once, and the plan of any annotator.
/// For many slots at once (the balance report, publishing), one planner saves computing the
/// assignment again for every slot.
pub struct Planner<'a> {
    study: &'a Study,
    assignment: assign::Assignment,
}

impl<'a> Planner<'a> {
    /// The planner of `study` (a pure function of the study).
    pub fn new(study: &'a Study) -> Planner<'a> {
        Planner {
            study,
            assignment: assign::Assignment::new(study),
        }
    }

    /// The plan for one annotator. Pure: the same study and slot always give the same plan. A
    /// published study carries its plans (computed from the original study by [`plan`]
    /// itself).
    pub fn plan(&self, annotator: &Annotator) -> Plan {
        self.plan_as(annotator, Format::CURRENT)
    }

    /// The plan for one annotator in the given format (a published study's plans are the same in
    /// every format).
    pub fn plan_as(&self, annotator: &Annotator, format: Format) -> Plan {
        #[cfg(debug_assertions)]
        PLANS_MADE.with(|n| n.set(n.get() + 1));
        let study = self.study;
        if study.design().plans.is_some() {
            return Plan {
                annotator: annotator.clone(),
                trials: published(study, annotator).cloned().unwrap_or_default(),
            };
        }
        let assignment = &self.assignment;
        let slot = annotator.slot.max(1);
        let mine = assignment.items_for(slot, annotator.id.as_deref());
        let mut trials = Vec::new();
        for (t, task) in study.design().tasks.iter().enumerate() {
            let at = At { t, slot, format };
            trials.extend(task_trials(study, assignment, at, task, &mine));
        }
        Plan {
            annotator: annotator.clone(),
            trials,
        }
    }
}

/// The trials a published study carries for `annotator` (their personal plan, else their
/// slot's), or `None` when the study carries no plans (or none for them).
pub fn published<'s>(study: &'s Study, annotator: &Annotator) -> Option<&'s Vec<Trial>> {
    let plans = study.design().plans.as_ref()?;
    // An annotator with personal items does the plan published for their id: under its key
    // (`personal_key`), or under the id itself in a study published before keys.
    let personal = annotator.id.as_deref().and_then(|id| {
        let code = participant_code(id);
        let plans = &study.design().personal_plans;
        plans
            .get(&personal_key(study.id(), &code))
            .or_else(|| plans.get(&code))
    });
    let slot = annotator.slot.max(1) as usize;
    personal.or_else(|| plans.get((slot - 1) % plans.len().max(1)))
}

/// The plan for one annotator: [`Planner::plan`] of a planner made for this one plan.
pub fn plan(study: &Study, annotator: &Annotator) -> Plan {
    Planner::new(study).plan(annotator)
}

/// The plan in one of the [`Format`]s whose [`Plan::fingerprint`] is `fingerprint`, newest format
/// first: the plan that progress saved with that fingerprint follows (an update of Juror that
/// plans differently continues a session on the plan it started, and begins new ones on the
/// current format). `None` when no format makes it.
pub fn following(study: &Study, annotator: &Annotator, fingerprint: &str) -> Option<Plan> {
    let planner = Planner::new(study);
    Format::ALL
        .into_iter()
        .map(|format| planner.plan_as(annotator, format))
        .find(|plan| plan.fingerprint() == fingerprint)
}

/// How many trials a slot whose items are `mine` (sorted) has in `task`: each item makes
/// [`Task::trials_per_item`] trials, except in a task that spreads its pairs over annotators,
/// where an assigned item makes one (its attention-check items still make them all).
fn task_trial_count(study: &Study, task: &Task, mine: &[usize]) -> usize {
    let n = study.systems().len();
    let items = task_items(task, mine);
    if !task.spread {
        return items.len() * task.trials_per_item(n);
    }
    let checks = assign::check_items(study);
    items
        .iter()
        .map(|i| {
            if checks.contains(i) {
                task.trials_per_item(n)
            } else {
                1
            }
        })
        .sum()
}

/// How many trials each slot's plan has, slot 1 first. A study that fixes no slots gives one
/// number, the same for every annotator ([`Study::trials_per_annotator`]); with an
/// `assignment`, each slot does only its own items, so the counts can differ by slot.
pub fn trials_per_slot(study: &Study) -> Vec<usize> {
    if let Some(plans) = &study.design().plans {
        return plans.iter().map(Vec::len).collect();
    }
    let assignment = assign::Assignment::new(study);
    let slots = assignment.slots().unwrap_or(1);
    (1..=slots)
        .map(|slot| {
            let mine = assignment.items(u32::try_from(slot).unwrap_or(u32::MAX));
            study
                .design()
                .tasks
                .iter()
                .map(|task| task_trial_count(study, task, &mine))
                .sum()
        })
        .collect()
}

/// Whether every slot has something to rate. With personal items and an assignment, personal
/// items go only to their annotators, so a slot can end up with none: then the one problem,
/// at `design.assignment`, naming the empty slots. Part of opening a study
/// ([`crate::front::open`]), because it needs the planner.
pub fn check_slots(study: &Study) -> Result<(), Problem> {
    let personal = study.items().iter().any(Item::is_personal);
    if !personal || study.design().assignment.is_none() || study.design().plans.is_some() {
        return Ok(());
    }
    let empty: Vec<String> = trials_per_slot(study)
        .iter()
        .enumerate()
        .filter(|(_, n)| **n == 0)
        .map(|(s, _)| (s + 1).to_string())
        .collect();
    if empty.is_empty() {
        return Ok(());
    }
    Err(Problem {
        at: "design.assignment".to_owned(),
        message: format!("slot(s) {} would have nothing to rate", empty.join(", ")),
        fix: "give those slots personal items (items[].for) or lower design.assignment.slots"
            .to_owned(),
    })
}

/// A trial before positions and labels: the item and the systems to show, unordered.
struct Unit {
    item: usize,
    systems: Vec<usize>,
    check: bool,
}

fn pairs_of(study: &Study, task: &Task) -> Vec<(usize, usize)> {
    task.pairs.pairs(study.systems().len())
}

/// The units of `task` for a slot doing `items`. In a task that spreads its pairs, an assigned
/// item gives only the pair `spread` says the slot compares on it (attention-check items give
/// every pair).
fn units_for(
    study: &Study,
    task: &Task,
    items: &[usize],
    spread: Option<(&assign::Assignment, u32)>,
    tuples: &[Vec<Vec<usize>>],
) -> Vec<Unit> {
    let n = study.systems().len();
    let checks = assign::check_items(study);
    let pairs = pairs_of(study, task);
    let mut units = Vec::new();
    for &item in items {
        let check = checks.contains(&item);
        match task.presentation {
            Presentation::Single => {
                units.extend((0..n).map(|s| Unit {
                    item,
                    systems: vec![s],
                    check,
                }));
            }
            Presentation::SideBySide if !tuples.is_empty() => {
                // A best–worst task's tuples of this item (`tuples` is by the task's items).
                let j = task.items.binary_search(&item).unwrap_or(0);
                units.extend(tuples.get(j).into_iter().flatten().map(|systems| Unit {
                    item,
                    systems: systems.clone(),
                    check,
                }));
            }
            Presentation::SideBySide => units.push(Unit {
                item,
                systems: (0..n).collect(),
                check,
            }),
            Presentation::Pairs => {
                let only = match spread {
                    Some((assignment, slot)) if !check => assignment.pair_of(slot, item),
                    _ => None,
                };
                units.extend(
                    pairs
                        .iter()
                        .enumerate()
                        .filter(|(k, _)| only.is_none_or(|only| only == *k))
                        .map(|(_, &(a, b))| Unit {
                            item,
                            systems: vec![a, b],
                            check,
                        }),
                );
            }
        }
    }
    units
}

/// The items of `task` that `slot` does, in file order.
fn task_items(task: &Task, mine: &[usize]) -> Vec<usize> {
    // Both are sorted: walk the slot's items (fewer than the task's under an assignment).
    mine.iter()
        .copied()
        .filter(|i| task.items.binary_search(i).is_ok())
        .collect()
}

/// Which task of which slot is being planned, in which format.
#[derive(Clone, Copy)]
struct At {
    t: usize,
    slot: u32,
    format: Format,
}

fn task_trials(
    study: &Study,
    assignment: &assign::Assignment,
    at: At,
    task: &Task,
    mine: &[usize],
) -> Vec<Trial> {
    let At { t, slot, format } = at;
    let seed = study.seed();
    let n = study.systems().len();
    let items = task_items(task, mine);
    let spread = task.spread.then_some((assignment, slot));
    let tuples = match task.tuple_size(n) {
        Some(k) => tuples::design(seed, t, n, k, task.items.len(), format == Format::V3),
        None => Vec::new(),
    };
    let bws = !tuples.is_empty();
    let units = units_for(study, task, &items, spread, &tuples);

    // Order.
    let mut units = order_units(study, at, task, units);
    if task.order != Order::SystemBlocks {
        spread_checks(&mut units);
    }

    // Positions.
    let mut trials: Vec<Trial> = match task.presentation {
        // A tuple's places are permuted one way per slot and item: each system of the item is
        // at each position once in the slot ([`tuples`]).
        Presentation::SideBySide if bws => units
            .into_iter()
            .map(|u| {
                let key = ((t as u64) << 32) | u.item as u64;
                let places = Stream::new(seed, "tuple positions", u64::from(slot), key)
                    .permutation(u.systems.len());
                Trial {
                    task: t,
                    item: u.item,
                    shown: places
                        .iter()
                        .map(|&p| Shown {
                            system: u.systems[p],
                            label: String::new(),
                        })
                        .collect(),
                    check: u.check,
                }
            })
            .collect(),
        Presentation::Single => units
            .into_iter()
            .map(|u| Trial {
                task: t,
                item: u.item,
                shown: vec![Shown {
                    system: u.systems[0],
                    label: String::new(),
                }],
                check: u.check,
            })
            .collect(),
        Presentation::SideBySide => side_by_side(study, assignment, at, task, units),
        Presentation::Pairs => orient_pairs(study, assignment, t, task, slot, units),
    };

    // Labels.
    label_trials(study, slot, &mut trials);
    trials
}

/// A task's units in the order its trials are given: as in the file, shuffled (and, after
/// format v1, no item's trials back to back), or in blocks of systems by the slot's row of a
/// Williams design.
fn order_units(study: &Study, at: At, task: &Task, mut units: Vec<Unit>) -> Vec<Unit> {
    let At { t, slot, format } = at;
    let seed = study.seed();
    let n = study.systems().len();
    match task.order {
        Order::Fixed => {}
        Order::Shuffled => {
            Stream::new(seed, "order", u64::from(slot), t as u64).shuffle(&mut units);
            if format != Format::V1 {
                units = apart(units);
            }
        }
        Order::SystemBlocks => {
            let rows = squares::williams(n);
            let period = (slot as usize - 1) / rows.len();
            let symbols = match format {
                Format::V1 => Stream::new(seed, "blocks", t as u64, 0).permutation(n),
                Format::V2 | Format::V3 => SymbolMaps::new(seed, "block maps", t, n).get(period),
            };
            let row = &rows[(slot as usize - 1) % rows.len()];
            let block_of = |system: usize| {
                row.iter()
                    .position(|&symbol| symbols[symbol] == system)
                    .unwrap_or(0)
            };
            let round = |item: usize| study.items()[item].round.unwrap_or(0);
            // Stable: file order breaks ties within a round.
            crate::base::order::sort_by_key(&mut units, |u| {
                (block_of(u.systems[0]), round(u.item))
            });
        }
    }
    units
}

/// The trials of a side-by-side task (not best–worst): each unit's systems in the order of a
/// row of the position square, the rows balanced within the slot and over the study.
fn side_by_side(
    study: &Study,
    assignment: &assign::Assignment,
    at: At,
    task: &Task,
    units: Vec<Unit>,
) -> Vec<Trial> {
    let At { t, slot, format } = at;
    let seed = study.seed();
    let n = study.systems().len();
    let square = squares::position_square(n);
    // The rows a slot uses continue the cycle of the slots before it, and their order is
    // shuffled within each run of `n` trials, so that no annotator can predict the next
    // trial's order from the earlier ones.
    let offset = assignment.trials_before(slot, |s| {
        task_items(task, &assignment.items(s)).len() * task.trials_per_item(n)
    }) % n as u128;
    let mut rows: Vec<usize> = (0..units.len())
        .map(|k| (offset as usize + k) % n)
        .collect();
    let mut stream = Stream::new(seed, "positions", u64::from(slot), t as u64);
    for run in rows.chunks_mut(n) {
        stream.shuffle(run);
    }
    // Format v1 maps the symbols to systems one way for every trial. Format v2 maps
    // each whole run of `n` trials its own way (the slot's runs walk through the
    // classes of mappings from a place of their own, so that every order of the
    // systems occurs), and only a last, shorter run the task's one way: every run is
    // balanced on its own, and the short runs of all slots continue one cycle, so each
    // system is at each position equally often (within one) in every slot and over the
    // study.
    let global = Stream::new(seed, "symbols", t as u64, 0).permutation(n);
    let maps = SymbolMaps::new(seed, "position maps", t, n);
    let whole_runs = units.len() / n.max(1);
    let symbols_of = |k: usize| match format {
        Format::V2 | Format::V3 if k / n < whole_runs => maps.get(slot as usize - 1 + k / n),
        _ => global.clone(),
    };
    units
        .into_iter()
        .zip(rows)
        .enumerate()
        .map(|(k, (u, r))| {
            let row = &square[r];
            let symbols = symbols_of(k);
            Trial {
                task: t,
                item: u.item,
                shown: row
                    .iter()
                    .map(|&symbol| Shown {
                        system: symbols[symbol],
                        label: String::new(),
                    })
                    .collect(),
                check: u.check,
            }
        })
        .collect()
}

/// Labels the systems shown in each trial: by position, or by the slot's letters.
fn label_trials(study: &Study, slot: u32, trials: &mut [Trial]) {
    let letters = annotator_letters(study, slot);
    for trial in trials.iter_mut() {
        let task = &study.design().tasks[trial.task];
        for (p, shown) in trial.shown.iter_mut().enumerate() {
            shown.label = match task.labels {
                LabelScheme::PerTrial => task.label(p),
                LabelScheme::PerAnnotator => task.label(letters[shown.system]),
            };
        }
    }
}

/// The largest number of systems for which [`symbol_map`] walks through every class of mappings
/// in turn: (n − 1)! = 5,040 classes for 8.
const ENUMERATED_UP_TO: usize = 8;

/// The symbol mappings of task `t` (format v2), for squares whose rows are the cyclic shifts of
/// one row (the position square, and each half of a Williams design): `map[symbol]` is the
/// system the symbol stands for.
///
/// Two mappings σ and τ give the same set of rows exactly when τ⁻¹σ is a cyclic shift, so the
/// mappings fall into (n − 1)! classes of n, each giving its own n orders of the systems, and
/// all of them together every order once. For up to [`ENUMERATED_UP_TO`] systems the classes are
/// taken in a seeded random order, one per index, so that (n − 1)! consecutive indices give
/// every order of the systems (6 for 4 systems); beyond that each index draws its class at
/// random. Each class is represented by the mapping that fixes symbol 0, then relabelled by one
/// seeded permutation of the task (so that no system is special). Streams, under `purpose`: the
/// relabelling `(t, 0)`, the order of the classes `(t, 1)`, a drawn class `(t, 2 + index)`.
struct SymbolMaps {
    seed: u64,
    purpose: &'static str,
    t: usize,
    relabel: Vec<usize>,
    /// The classes' ranks in the order they are taken (empty beyond [`ENUMERATED_UP_TO`]).
    order: Vec<usize>,
}

impl SymbolMaps {
    fn new(seed: u64, purpose: &'static str, t: usize, n: usize) -> SymbolMaps {
        let relabel = Stream::new(seed, purpose, t as u64, 0).permutation(n);
        let order = if (2..=ENUMERATED_UP_TO).contains(&n) {
            let classes: usize = (1..n).product();
            Stream::new(seed, purpose, t as u64, 1).permutation(classes)
        } else {
            Vec::new()
        };
        SymbolMaps {
            seed,
            purpose,
            t,
            relabel,
            order,
        }
    }

    /// The `index`-th mapping.
    fn get(&self, index: usize) -> Vec<usize> {
        let n = self.relabel.len();
        if n < 2 {
            return self.relabel.clone();
        }
        // The class: a permutation of 1..n (symbol 0 stays).
        let rest = if self.order.is_empty() {
            Stream::new(self.seed, self.purpose, self.t as u64, 2 + index as u64).permutation(n - 1)
        } else {
            unrank(self.order[index % self.order.len()], n - 1)
        };
        std::iter::once(0)
            .chain(rest.into_iter().map(|r| r + 1))
            .map(|c| self.relabel[c])
            .collect()
    }
}

/// The permutation of `0..m` with lexicographic rank `rank` (< m!), by the factorial number
/// system.
fn unrank(mut rank: usize, m: usize) -> Vec<usize> {
    let mut pool: Vec<usize> = (0..m).collect();
    let mut out = Vec::with_capacity(m);
    for k in (0..m).rev() {
        let block: usize = (1..=k).product();
        out.push(pool.remove(rank / block));
        rank %= block;
    }
    out
}

/// Reorders a shuffled task's trials (format v2) so that no two trials of one item come back to
/// back, whenever the numbers allow it, keeping the shuffle's order otherwise: each position
/// takes the first remaining trial of another item than the one before, unless that would leave
/// the rest impossible to keep apart (an item with more than half the remaining trials), in
/// which case the first trial that keeps it possible. When the numbers do not allow it (one item
/// holds more than half of the trials), the most frequent other item comes next, which keeps
/// repeats to the fewest. Attention checks are set after the rest, for [`spread_checks`] to
/// place.
fn apart(units: Vec<Unit>) -> Vec<Unit> {
    let (checks, rest): (Vec<Unit>, Vec<Unit>) = units.into_iter().partition(|u| u.check);
    let items = rest.iter().map(|u| u.item + 1).max().unwrap_or(0);
    let mut left = vec![0usize; items];
    for u in &rest {
        left[u.item] += 1;
    }
    // How many items have each count of remaining trials, and the largest count: counts only
    // fall by one, so the largest is found by stepping down.
    let most = left.iter().copied().max().unwrap_or(0);
    let mut with_count = vec![0usize; most + 1];
    for &c in left.iter().filter(|&&c| c > 0) {
        with_count[c] += 1;
    }
    let mut top = most;
    let mut rest: std::collections::VecDeque<Unit> = rest.into();
    let mut out = Vec::with_capacity(rest.len() + checks.len());
    let mut prev: Option<usize> = None;
    while !rest.is_empty() {
        while top > 0 && with_count[top] == 0 {
            top -= 1;
        }
        let second = if with_count[top] >= 2 {
            top
        } else {
            (1..top).rev().find(|&c| with_count[c] > 0).unwrap_or(0)
        };
        // After taking one trial of `y`, `r` remain, starting after `y`: they can be kept apart
        // when no other item has more than ⌈r/2⌉ of them, and `y` itself no more than ⌊r/2⌋.
        let r = rest.len() - 1;
        let fits = |y: usize| {
            let other = if left[y] == top && with_count[top] == 1 {
                second
            } else {
                top
            };
            other <= r.div_ceil(2) && left[y] - 1 <= r / 2
        };
        let differs = |u: &Unit| Some(u.item) != prev;
        let pick = rest
            .iter()
            .position(|u| differs(u) && fits(u.item))
            .or_else(|| {
                let most = rest
                    .iter()
                    .filter(|u| differs(u))
                    .map(|u| left[u.item])
                    .max()?;
                rest.iter().position(|u| differs(u) && left[u.item] == most)
            })
            .unwrap_or(0);
        if let Some(u) = rest.remove(pick) {
            with_count[left[u.item]] -= 1;
            left[u.item] -= 1;
            if left[u.item] > 0 {
                with_count[left[u.item]] += 1;
            }
            prev = Some(u.item);
            out.push(u);
        }
    }
    out.extend(checks);
    out
}

/// For `per_annotator` labels: the letter index of each system for `slot`. A study-wide random
/// permutation, rotated by the slot, so that across `n` slots each system has each letter once.
pub fn annotator_letters(study: &Study, slot: u32) -> Vec<usize> {
    let n = study.systems().len();
    let base = Stream::new(study.seed(), "labels", 0, 0).permutation(n);
    base.iter()
        .map(|&b| (b + slot as usize - 1) % n.max(1))
        .collect()
}

/// Moves attention-check trials to evenly spread positions: with `c` checks among `T` trials,
/// the `i`-th check goes to position `floor((2i + 1) T / 2c)`; other trials keep their order.
fn spread_checks(units: &mut Vec<Unit>) {
    let total = units.len();
    let (checks, others): (Vec<Unit>, Vec<Unit>) =
        std::mem::take(units).into_iter().partition(|u| u.check);
    let c = checks.len();
    if c == 0 {
        *units = others;
        return;
    }
    let targets: Vec<usize> = (0..c).map(|i| (2 * i + 1) * total / (2 * c)).collect();
    let mut checks = checks.into_iter();
    let mut others = others.into_iter();
    let mut next_target = 0;
    for position in 0..total {
        let take_check = next_target < c && targets[next_target] == position;
        let unit = if take_check {
            next_target += 1;
            checks.next()
        } else {
            others.next()
        };
        if let Some(u) = unit {
            units.push(u);
        }
    }
    units.extend(checks);
    units.extend(others);
}

fn orient_pairs(
    study: &Study,
    assignment: &assign::Assignment,
    t: usize,
    task: &Task,
    slot: u32,
    units: Vec<Unit>,
) -> Vec<Trial> {
    let n = study.systems().len();
    let pairs = pairs_of(study, task);
    // How the leftover trial of a pair shown an odd number of times is oriented (`true`: the
    // pair's first system first).
    let odd_first: Vec<bool> = if task.spread {
        spread_leftovers(study, assignment, task, slot)
    } else {
        let orientation = squares::balanced_orientation(n, &pairs);
        // Slots whose per-pair count is odd alternate the leftover orientation.
        let odd_before =
            assignment.trials_before(slot, |s| task_items(task, &assignment.items(s)).len() % 2);
        let flip = odd_before % 2 == 1;
        orientation.iter().map(|&o| o != flip).collect()
    };

    // The units of each pair, in plan order.
    // The pair of each ordered couple of systems, by `a * n + b` (the last of a repeated pair).
    let mut index: Vec<Option<usize>> = vec![None; n * n];
    for (k, &(a, b)) in pairs.iter().enumerate() {
        if let Some(slot) = index.get_mut(a * n + b) {
            *slot = Some(k);
        }
    }
    let mut members: Vec<Vec<usize>> = vec![Vec::new(); pairs.len()];
    for (i, u) in units.iter().enumerate() {
        if let Some(&Some(k)) = index.get(u.systems[0] * n + u.systems[1]) {
            members[k].push(i);
        }
    }

    let mut stream = Stream::new(study.seed(), "pairs", u64::from(slot), t as u64);
    let mut trials: Vec<Option<Trial>> = units.iter().map(|_| None).collect();
    for (k, &(a, b)) in pairs.iter().enumerate() {
        let members = &members[k];
        let c = members.len();
        // `true`: a is shown first.
        let mut firsts: Vec<bool> = (0..c).map(|i| i < c / 2).collect();
        if c % 2 == 1 {
            firsts[c - 1] = odd_first[k];
        }
        stream.shuffle(&mut firsts);
        for (&i, &a_first) in members.iter().zip(&firsts) {
            let order = if a_first { [a, b] } else { [b, a] };
            trials[i] = Some(Trial {
                task: t,
                item: units[i].item,
                shown: order
                    .iter()
                    .map(|&system| Shown {
                        system,
                        label: String::new(),
                    })
                    .collect(),
                check: units[i].check,
            });
        }
    }
    trials.into_iter().flatten().collect()
}

/// For a task that spreads its pairs over annotators: the orientation of each pair's leftover
/// trial in `slot` (`true`: the anchor first), for the pairs `slot` shows an odd number of
/// times.
///
/// Slots and pairs form a bipartite graph with an edge where a slot shows a pair an odd number
/// of times; two extra vertices join the slots, and the pairs, of odd degree (and each other
/// when both counts are odd), so that every degree is even. An Euler orientation then balances
/// every vertex exactly: within each slot the anchor is first as often as second (within one),
/// each other system too over the study, and, through the extra vertex of the slots, the anchor
/// over the study (within one).
fn spread_leftovers(
    study: &Study,
    assignment: &assign::Assignment,
    task: &Task,
    slot: u32,
) -> Vec<bool> {
    let n_pairs = pairs_of(study, task).len();
    let slots = assignment.slots().unwrap_or(1).max(1);
    let checks = assign::check_items(study);
    let mut edges: Vec<(usize, usize)> = Vec::new();
    let mut slot_degree = vec![0usize; slots];
    let mut pair_degree = vec![0usize; n_pairs];
    for (s, degree) in slot_degree.iter_mut().enumerate() {
        let s32 = u32::try_from(s + 1).unwrap_or(u32::MAX);
        let mut counts = vec![0usize; n_pairs];
        for item in task_items(task, &assignment.items(s32)) {
            match assignment
                .pair_of(s32, item)
                .filter(|_| !checks.contains(&item))
            {
                Some(k) if k < n_pairs => counts[k] += 1,
                Some(_) => {}
                None => counts.iter_mut().for_each(|c| *c += 1),
            }
        }
        for (k, &c) in counts.iter().enumerate() {
            if c % 2 == 1 {
                edges.push((s, slots + k));
                *degree += 1;
                pair_degree[k] += 1;
            }
        }
    }
    let real = edges.len();
    let (slot_hub, pair_hub) = (slots + n_pairs, slots + n_pairs + 1);
    let odd_slots: Vec<usize> = (0..slots).filter(|&s| slot_degree[s] % 2 == 1).collect();
    for &s in &odd_slots {
        edges.push((slot_hub, s));
    }
    for k in (0..n_pairs).filter(|&k| pair_degree[k] % 2 == 1) {
        edges.push((pair_hub, slots + k));
    }
    if odd_slots.len() % 2 == 1 {
        edges.push((slot_hub, pair_hub));
    }
    let forward = squares::balanced_orientation(slots + n_pairs + 2, &edges);
    let mine = (slot.max(1) as usize - 1) % slots;
    let mut out = vec![false; n_pairs];
    for (e, &(s, v)) in edges[..real].iter().enumerate() {
        if s == mine {
            out[v - slots] = forward[e];
        }
    }
    out
}

impl Plan {
    /// The plan as a text table (researcher-side: it names the systems), for `juror plan` and
    /// the golden files.
    pub fn table(&self, study: &Study) -> String {
        use std::fmt::Write as _;
        let mut out = String::new();
        let who = match &self.annotator.id {
            Some(id) => format!("slot {} (annotator \"{id}\")", self.annotator.slot),
            None => format!("slot {}", self.annotator.slot),
        };
        let _ = writeln!(
            out,
            "Plan of \"{}\" for {who}: {} trials",
            study.id(),
            self.trials.len()
        );
        let _ = writeln!(
            out,
            "{:>5}  {:<10} {:<24} shown (label = system)",
            "trial", "task", "item"
        );
        for (i, t) in self.trials.iter().enumerate() {
            let task = &study.design().tasks[t.task].id;
            let item = &study.items()[t.item].id;
            let shown: Vec<String> = t
                .shown
                .iter()
                .map(|s| {
                    let system = &study.systems()[s.system];
                    if s.label.is_empty() {
                        system.clone()
                    } else {
                        format!("{} = {system}", s.label)
                    }
                })
                .collect();
            let check = if t.check { "  [check]" } else { "" };
            let _ = writeln!(
                out,
                "{:>5}  {task:<10} {item:<24} {}{check}",
                i + 1,
                shown.join(" | ")
            );
        }
        out
    }
}
