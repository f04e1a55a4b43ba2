//! Sorting with one copy of the sort code.
//!
//! The standard library's sorts are generic: every element type and every comparison closure
//! gets its own copy of the sort (about 4 KB of wasm for a stable sort), and the annotator's page
//! sorted about fifteen different things. Everything the page sorts goes through
//! [`stable_order`] instead: a merge sort of positions under one `&dyn` comparison, compiled
//! once. The generic wrappers ([`sort`], [`sort_by`], [`sort_by_key`]) only put the elements
//! in the order it finds, which is the order of the standard library's stable `sort_by`
//! (equal elements keep their order; property-tested below). For types whose equal values
//! cannot be told apart (integers, strings, tuples of them), that is also the order of
//! `sort_unstable`.

use std::cmp::Ordering;
use std::collections::{BTreeMap, BTreeSet};

/// Runs of this many positions are sorted by insertion before merging.
const RUN: usize = 12;

/// The positions `0..n` in the stable order of `cmp` (which compares two positions): the first
/// is the position of the smallest thing, and equal things keep the order of their positions.
pub fn stable_order(n: usize, cmp: &dyn Fn(usize, usize) -> Ordering) -> Vec<usize> {
    let mut a: Vec<usize> = (0..n).collect();
    for start in (0..n).step_by(RUN) {
        let end = (start + RUN).min(n);
        for i in start + 1..end {
            let x = a[i];
            let mut j = i;
            while j > start && cmp(a[j - 1], x) == Ordering::Greater {
                a[j] = a[j - 1];
                j -= 1;
            }
            a[j] = x;
        }
    }
    if n <= RUN {
        return a;
    }
    let mut b = vec![0; n];
    let mut width = RUN;
    while width < n {
        for start in (0..n).step_by(2 * width) {
            let mid = (start + width).min(n);
            let end = (start + 2 * width).min(n);
            if mid == end || cmp(a[mid - 1], a[mid]) != Ordering::Greater {
                // Already in order (or nothing to merge with).
                b[start..end].copy_from_slice(&a[start..end]);
                continue;
            }
            let (mut i, mut j, mut k) = (start, mid, start);
            while i < mid && j < end {
                // The left run first on ties: stable.
                if cmp(a[j], a[i]) == Ordering::Less {
                    b[k] = a[j];
                    j += 1;
                } else {
                    b[k] = a[i];
                    i += 1;
                }
                k += 1;
            }
            b[k..k + (mid - i)].copy_from_slice(&a[i..mid]);
            k += mid - i;
            b[k..end].copy_from_slice(&a[j..end]);
        }
        std::mem::swap(&mut a, &mut b);
        width *= 2;
    }
    a
}

/// Sorts `v` stably by `cmp`: the order of `<[T]>::sort_by`.
pub fn sort_by<T>(v: &mut [T], cmp: impl Fn(&T, &T) -> Ordering) {
    if v.len() < 2 {
        return;
    }
    let order = stable_order(v.len(), &|a, b| cmp(&v[a], &v[b]));
    permute(v, order);
}

/// Sorts `v` stably: the order of `<[T]>::sort` (and of `sort_unstable` for values whose equal
/// values are alike).
pub fn sort<T: Ord>(v: &mut [T]) {
    sort_by(v, T::cmp);
}

/// Sorts `v` stably by `key` (called on each comparison): the order of `<[T]>::sort_by_key`.
pub fn sort_by_key<T, K: Ord>(v: &mut [T], key: impl Fn(&T) -> K) {
    sort_by(v, |a, b| key(a).cmp(&key(b)));
}

/// The set of `items`, built by insertion: `collect()` into a `BTreeSet` sorts its items first,
/// with one more copy of the standard sort for each element type.
pub fn set<T: Ord>(items: impl IntoIterator<Item = T>) -> BTreeSet<T> {
    let mut set = BTreeSet::new();
    set.extend(items);
    set
}

/// The map of `entries`, built by insertion (a later entry of a key replaces an earlier one, as
/// with `collect()`, which sorts its entries first with one more copy of the standard sort).
pub fn map<K: Ord, V>(entries: impl IntoIterator<Item = (K, V)>) -> BTreeMap<K, V> {
    let mut map = BTreeMap::new();
    map.extend(entries);
    map
}

/// Puts `v` in `order` (`v[k]` becomes the old `v[order[k]]`) by following its cycles.
fn permute<T>(v: &mut [T], mut order: Vec<usize>) {
    for i in 0..v.len() {
        if order[i] == i {
            continue;
        }
        let mut j = i;
        loop {
            let next = order[j];
            order[j] = j;
            if next == i {
                break;
            }
            v.swap(j, next);
            j = next;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn sort_by_is_the_standard_stable_sort(
            v in proptest::collection::vec((0u8..6, any::<u16>()), 0..300)
        ) {
            // Compared by the first field only: the second tells equal elements apart.
            let mut ours = v.clone();
            sort_by(&mut ours, |a, b| a.0.cmp(&b.0));
            let mut std = v.clone();
            std.sort_by_key(|a| a.0);
            prop_assert_eq!(ours, std);
        }

        #[test]
        fn sort_is_the_standard_sort(v in proptest::collection::vec(any::<i32>(), 0..300)) {
            let mut ours = v.clone();
            sort(&mut ours);
            let mut std = v;
            std.sort_unstable();
            prop_assert_eq!(ours, std);
        }

        #[test]
        fn sort_by_key_is_the_standard_one_on_runs(
            runs in proptest::collection::vec((0usize..40, any::<bool>()), 0..12)
        ) {
            // Long ascending and descending runs with ties, as plans and saved answers have.
            let v: Vec<(usize, usize)> = runs
                .iter()
                .enumerate()
                .flat_map(|(r, &(len, up))| {
                    (0..len).map(move |i| (if up { i / 3 } else { (len - i) / 3 }, r))
                })
                .collect();
            let mut ours = v.clone();
            sort_by_key(&mut ours, |x| std::cmp::Reverse(x.0));
            let mut std = v;
            std.sort_by_key(|x| std::cmp::Reverse(x.0));
            prop_assert_eq!(ours, std);
        }
    }

    #[test]
    fn strings_and_the_empty_and_single_cases() {
        let mut v: Vec<String> = ["b", "a", "c", "a"].map(str::to_owned).to_vec();
        sort(&mut v);
        assert_eq!(v, ["a", "a", "b", "c"]);
        let mut e: Vec<u8> = Vec::new();
        sort(&mut e);
        assert!(e.is_empty());
        let mut one = [7];
        sort(&mut one);
        assert_eq!(one, [7]);
        assert_eq!(stable_order(3, &|a, b| b.cmp(&a)), [2, 1, 0]);
    }

    #[test]
    fn sets_and_maps_by_insertion_are_the_collected_ones() {
        let pairs = [(3, 'a'), (1, 'b'), (3, 'c'), (2, 'd'), (1, 'e')];
        assert_eq!(map(pairs), pairs.into_iter().collect::<BTreeMap<_, _>>());
        assert_eq!(
            set(pairs.map(|p| p.0)),
            pairs.map(|p| p.0).into_iter().collect()
        );
    }
}
