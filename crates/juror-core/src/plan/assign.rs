//! Which items each annotator slot rates.
//!
//! With `design.assignment { slots: n, annotators_per_item: k }`, the non-check items are taken
//! in a seeded random order and each is given to `k` slots chosen greedily: the least-loaded
//! slots first (which keeps loads within one of each other: a slot is only chosen at load
//! `L + 1` once every slot has reached `L + 1`), then, among equally loaded slots, the one that
//! has shared the fewest items with the slots already chosen for this item (so that every pair
//! of slots shares items as evenly as possible, for pairwise agreement), then at random.
//! Attention-check items go to every slot. Without an assignment, every slot gets every item.
//!
//! When a task spreads an anchor's pairs over annotators (`pairs.spread`), each item goes to
//! `annotators_per_item × pairs` slots instead, and the `j`-th slot chosen for it compares pair
//! `j / annotators_per_item` ([`Assignment::pair_of`]).
//!
//! Validation bounds the work (`study::limits`): at most `MAX_SLOTS` slots, so the table of
//! shared items has at most `MAX_SLOTS²` counts, and items × slots per item × slots steps.

use crate::base::rng::Stream;
use crate::study::Study;

/// The items of every slot.
#[derive(Debug, Clone)]
pub struct Assignment {
    /// `Some(items of slot s at index s - 1)`, sorted; `None` when every slot rates every item.
    per_slot: Option<Vec<Vec<usize>>>,
    /// Every item but the personal ones.
    all: Vec<usize>,
    /// Personal items (`items[].for`) with their slots and annotator ids: never assigned, given
    /// to those annotators only.
    personal: Vec<(usize, Vec<u32>, Vec<String>)>,
    /// When a task spreads its pairs over annotators: for each slot, its assigned items, each
    /// with the pair the slot compares on it, sorted by item.
    pairs: Option<Vec<Vec<(usize, usize)>>>,
}

/// How many pairs of an item go to different annotators: the pairs of a task that spreads them
/// (the anchor against each other system), else 1.
pub fn spread_factor(study: &Study) -> usize {
    let n = study.systems().len();
    let tasks = study.design().tasks.iter().filter(|t| t.spread);
    tasks
        .map(|t| t.trials_per_item(n))
        .max()
        .unwrap_or(1)
        .max(1)
}

/// Which of the study's items are attention checks.
pub fn check_items(study: &Study) -> CheckItems {
    let checked = crate::base::order::set(study.design().attention_checks.iter().map(|c| c.item()));
    CheckItems(
        study
            .items()
            .iter()
            .map(|item| checked.contains(item.id.as_str()))
            .collect(),
    )
}

/// The study's attention-check items: whether each item (by index) is one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckItems(Vec<bool>);

impl CheckItems {
    /// Whether item `i` is an attention check.
    pub fn contains(&self, i: &usize) -> bool {
        self.0.get(*i).copied().unwrap_or(false)
    }

    /// The indices of the attention-check items, in order.
    pub fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.0.len()).filter(|&i| self.0[i])
    }
}

/// How many items each pair of slots shares: `n²` counts in one block, zeroed lazily by the
/// allocator, so that pages never written (as with one annotator per item) cost nothing. At
/// most `MAX_SLOTS²` counts (validation), each at most the number of items.
struct Shared {
    n: usize,
    counts: Vec<i32>,
}

impl Shared {
    fn new(n: usize) -> Shared {
        Shared {
            n,
            counts: vec![0; n * n],
        }
    }
    fn get(&self, a: usize, b: usize) -> i32 {
        self.counts[a * self.n + b]
    }
    /// Sets the count of the pair, both ways.
    fn set(&mut self, a: usize, b: usize, value: i32) {
        self.counts[a * self.n + b] = value;
        self.counts[b * self.n + a] = value;
    }
    fn row(&self, a: usize) -> &[i32] {
        &self.counts[a * self.n..(a + 1) * self.n]
    }
}

/// Local search after the greedy pass: swaps one slot of an item with one slot of another item
/// (which keeps every load and every item's number of raters) when that lowers the sum of
/// squared overlaps between slots (or keeps it equal), i.e. makes pairs of slots share items more evenly. A fixed
/// number of seeded attempts, so the result stays a pure function of the study.
fn even_out(raters: &mut [Vec<usize>], shared: &mut Shared, stream: &mut Stream) {
    let m = raters.len();
    if m < 2 {
        return;
    }
    let attempts = (m * 20).min(200_000);
    let mut changes: Vec<(usize, usize, bool)> = Vec::new();
    // Applies `delta` to the overlap of a and b, returning the change in the sum of squares.
    fn bump(shared: &mut Shared, a: usize, b: usize, up: bool) -> i64 {
        let x = i64::from(shared.get(a, b));
        let y = if up { x + 1 } else { x - 1 };
        // Within i32: a count never exceeds the number of items (validation caps them).
        shared.set(a, b, y as i32);
        y * y - x * x
    }
    for _ in 0..attempts {
        let i = stream.below(m);
        let j = stream.below(m);
        if i == j {
            continue;
        }
        let si = stream.below(raters[i].len());
        let sj = stream.below(raters[j].len());
        let (s, t) = (raters[i][si], raters[j][sj]);
        if s == t || raters[i].contains(&t) || raters[j].contains(&s) {
            continue;
        }
        // Move: item i goes from slot s to slot t; item j from t to s.
        changes.clear();
        for &c in &raters[i] {
            if c != s {
                changes.push((s, c, false));
                changes.push((t, c, true));
            }
        }
        for &c in &raters[j] {
            if c != t {
                changes.push((t, c, false));
                changes.push((s, c, true));
            }
        }
        let delta: i64 = changes
            .iter()
            .map(|&(a, b, up)| bump(shared, a, b, up))
            .sum();
        // Sideways moves (delta 0) are taken too: they walk plateaus to better states.
        if delta <= 0 {
            raters[i][si] = t;
            raters[j][sj] = s;
        } else {
            for &(a, b, up) in changes.iter().rev() {
                bump(shared, a, b, !up);
            }
        }
    }
}

impl Assignment {
    /// Computes the assignment of `study` (a pure function of the study).
    pub fn new(study: &Study) -> Assignment {
        let items = study.items();
        let personal: Vec<(usize, Vec<u32>, Vec<String>)> = items
            .iter()
            .enumerate()
            .filter(|(_, it)| it.is_personal())
            .map(|(i, it)| (i, it.for_slots.clone(), it.for_ids.clone()))
            .collect();
        let all: Vec<usize> = (0..items.len())
            .filter(|&i| !items[i].is_personal())
            .collect();
        let Some(a) = study.design().assignment else {
            return Assignment {
                per_slot: None,
                all,
                personal,
                pairs: None,
            };
        };
        let n = a.slots as usize;
        // With a task that spreads its pairs, an item goes to `annotators_per_item` slots per
        // pair: the `j`-th slot chosen compares pair `j / annotators_per_item` on it.
        let factor = spread_factor(study);
        let per_pair = (a.annotators_per_item as usize).max(1);
        let k = (per_pair * factor).min(n);
        let checks = check_items(study);
        let mut order: Vec<usize> = all
            .iter()
            .copied()
            .filter(|i| !checks.contains(i))
            .collect();
        let mut stream = Stream::new(study.seed(), "assignment", 0, 0);
        stream.shuffle(&mut order);

        let mut load = vec![0usize; n];
        let mut shared = Shared::new(n);
        let mut raters: Vec<Vec<usize>> = Vec::with_capacity(order.len());
        let mut ties: Vec<usize> = Vec::with_capacity(n);
        // For the item being placed: whether each slot is chosen, and its overlap with the
        // slots chosen so far (kept as a running sum, so that each choice scans the slots once).
        let mut taken = vec![false; n];
        let mut overlap = vec![0i64; n];
        for _ in &order {
            let mut chosen: Vec<usize> = Vec::with_capacity(k);
            overlap.fill(0);
            for _ in 0..k {
                let mut best = (usize::MAX, i64::MAX);
                ties.clear();
                for s in 0..n {
                    if taken[s] {
                        continue;
                    }
                    let key = (load[s], overlap[s]);
                    if key < best {
                        best = key;
                        ties.clear();
                    }
                    if key == best {
                        ties.push(s);
                    }
                }
                let s = ties[stream.below(ties.len())];
                for &c in &chosen {
                    shared.set(s, c, shared.get(s, c) + 1);
                }
                for (o, &x) in overlap.iter_mut().zip(shared.row(s)) {
                    *o += i64::from(x);
                }
                chosen.push(s);
                taken[s] = true;
                load[s] += 1;
            }
            for &c in &chosen {
                taken[c] = false;
            }
            raters.push(chosen);
        }
        even_out(&mut raters, &mut shared, &mut stream);

        let mut per_slot: Vec<Vec<usize>> = vec![checks.iter().collect(); n];
        for (&item, slots) in order.iter().zip(&raters) {
            for &s in slots {
                per_slot[s].push(item);
            }
        }
        for items in &mut per_slot {
            crate::base::order::sort(items);
        }
        let pairs = (factor > 1).then(|| {
            let mut pairs: Vec<Vec<(usize, usize)>> = vec![Vec::new(); n];
            for (&item, slots) in order.iter().zip(&raters) {
                for (j, &s) in slots.iter().enumerate() {
                    pairs[s].push((item, j / per_pair));
                }
            }
            for list in &mut pairs {
                crate::base::order::sort(list);
            }
            pairs
        });
        Assignment {
            per_slot: Some(per_slot),
            all,
            personal,
            pairs,
        }
    }

    /// The items of `slot` (from 1), sorted. A slot past the study's last wraps around.
    pub fn items(&self, slot: u32) -> Vec<usize> {
        self.items_for(slot, None)
    }

    /// The items of the annotator in `slot` with `id`: the slot's assigned items and the
    /// personal items for that slot or id, sorted.
    pub fn items_for(&self, slot: u32, id: Option<&str>) -> Vec<usize> {
        let mut items = match &self.per_slot {
            None => self.all.clone(),
            Some(per_slot) if per_slot.is_empty() => Vec::new(),
            Some(per_slot) => per_slot[(slot.max(1) as usize - 1) % per_slot.len()].clone(),
        };
        let before = items.len();
        items.extend(
            self.personal
                .iter()
                .filter(|(_, slots, ids)| {
                    slots.contains(&slot.max(1))
                        || id.is_some_and(|id| {
                            ids.iter().any(|x| crate::study::participant_code(x) == id)
                        })
                })
                .map(|(i, _, _)| *i),
        );
        if items.len() > before {
            crate::base::order::sort(&mut items);
        }
        items
    }

    /// `sum of count(s)` over the slots before `slot`, in slot order: how far a rotation that
    /// continues from slot to slot has gone when `slot` starts.
    pub fn trials_before(&self, slot: u32, count: impl Fn(u32) -> usize) -> u128 {
        let before = slot.max(1) - 1;
        match &self.per_slot {
            None => u128::from(before) * count(1) as u128,
            Some(_) => (1..=before).map(|s| count(s) as u128).sum(),
        }
    }

    /// In a study with a task that spreads its pairs over annotators: the pair (its index in
    /// the task's pairs) that `slot` compares on an assigned `item`; `None` for an item the
    /// slot does not have from the assignment (an attention check), or in another study.
    pub fn pair_of(&self, slot: u32, item: usize) -> Option<usize> {
        let pairs = self.pairs.as_ref().filter(|p| !p.is_empty())?;
        let list = &pairs[(slot.max(1) as usize - 1) % pairs.len()];
        let at = list.binary_search_by_key(&item, |&(i, _)| i).ok()?;
        Some(list[at].1)
    }

    /// The number of slots, when fixed.
    pub fn slots(&self) -> Option<usize> {
        self.per_slot.as_ref().map(Vec::len)
    }
}
