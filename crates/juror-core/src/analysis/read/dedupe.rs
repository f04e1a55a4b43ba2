//! Duplicates across everything read: a second rating of the same (item, system, annotator,
//! dimension), or a second judgement of the same (item, pair, annotator) in either order, is
//! left out and named; a rating repeated within one ratings file (or one JSON Lines file, whose
//! verdicts on the trials of a design that rates outputs in pairs repeat them as a person's
//! do) goes to [`Data::repeats`].
//!
//! Repeats a rater numbered (`run` 1, 2, ...: a judge asked the same thing again) are kept
//! apart: only the same run twice is a duplicate. For judges' verdicts
//! ([`super::read_judges`]), a judgement of a pair shown the other way round (its `shown_first`
//! differs) is kept apart too: verdicts in both orders are what the position bias is measured
//! on. For people it is a duplicate, whatever the order.

use std::collections::{BTreeMap, HashMap};

use super::bump_problems;
use crate::analysis::data::{Data, Ids, InputKind, Name, PreferenceRow, Problem, number};
use crate::base::fast_hash::FastHash;

/// For each key, the index of the first earlier key equal to it, or `None` for a first
/// occurrence. `sizes` bounds each part of the keys (ids from [`Ids`]): when their product is
/// small next to the number of keys (ratings cover most item × system × annotator × dimension
/// cells), a flat table replaces the hash map, with no hashing and far fewer cache misses.
fn first_occurrences(keys: &[[u32; 4]], sizes: [usize; 4]) -> Vec<Option<u32>> {
    const NONE: u32 = u32::MAX;
    let cells = sizes
        .iter()
        .try_fold(1usize, |n, &s| n.checked_mul(s.max(1)));
    match cells {
        Some(cells) if cells <= (4 * keys.len()).max(1 << 16) => {
            let [_, s1, s2, s3] = sizes.map(|s| s.max(1));
            let mut first = vec![NONE; cells];
            keys.iter()
                .enumerate()
                .map(|(i, k)| {
                    let cell = ((k[0] as usize * s1 + k[1] as usize) * s2 + k[2] as usize) * s3
                        + k[3] as usize;
                    match first[cell] {
                        NONE => {
                            first[cell] = i as u32;
                            None
                        }
                        f => Some(f),
                    }
                })
                .collect()
        }
        _ => {
            let mut seen: HashMap<[u32; 4], u32, FastHash> =
                HashMap::with_capacity_and_hasher(keys.len(), FastHash);
            keys.iter()
                .enumerate()
                .map(|(i, k)| match seen.entry(*k) {
                    std::collections::hash_map::Entry::Occupied(e) => Some(*e.get()),
                    std::collections::hash_map::Entry::Vacant(e) => {
                        e.insert(i as u32);
                        None
                    }
                })
                .collect()
        }
    }
}

pub(crate) fn drop_duplicates(data: &mut Data, orders_apart: bool) {
    // Ratings and preferences kept, by input.
    let mut kept_in: Vec<(usize, usize)> = vec![(0, 0); data.files.len()];
    let mut count = |input: usize, rating: bool| {
        if let Some(e) = kept_in.get_mut(input) {
            if rating { e.0 += 1 } else { e.1 += 1 }
        }
    };

    let mut repeated: BTreeMap<usize, usize> = BTreeMap::new();
    // A first pass on the ids' numbers finds each row's first occurrence without cloning.
    let firsts = {
        let mut ids: [Ids; 4] = Default::default();
        // Runs (0 for none) share the dimension's part of the key.
        let runs = data.ratings.iter().filter_map(|r| r.run).max().unwrap_or(0) as usize + 1;
        let keys: Vec<[u32; 4]> = data
            .ratings
            .iter()
            .map(|row| {
                let dimension = ids[3].id(&row.dimension) as usize;
                let run = row.run.unwrap_or(0) as usize;
                [
                    ids[0].id(&row.item),
                    ids[1].id(&row.system),
                    ids[2].id(&row.annotator),
                    u32::try_from(dimension * runs + run).unwrap_or(u32::MAX),
                ]
            })
            .collect();
        let sizes = ids.map(|i| i.len());
        first_occurrences(
            &keys,
            [sizes[0], sizes[1], sizes[2], sizes[3].saturating_mul(runs)],
        )
    };
    // Every first occurrence is kept, where it is; a later one is a repeat or a duplicate.
    let mut keep = vec![true; data.ratings.len()];
    for (i, first) in firsts.iter().enumerate() {
        let input = data.ratings[i].source.input;
        let Some(first) = first.map(|f| f as usize) else {
            count(input, true);
            continue;
        };
        keep[i] = false;
        let (kept, row) = (&data.ratings[first], &data.ratings[i]);
        if kept.source.input == input
            && matches!(
                data.files[input].kind,
                InputKind::RatingsFile | InputKind::JsonLines
            )
        {
            // The same output rated again in another trial of the same session (an output
            // shown in several pairs), or in a later line of a judge's verdicts on those
            // trials: by design, not a mistake.
            repeated.entry(input).and_modify(|n| *n += 1).or_insert(1);
            data.repeats.push(row.clone());
            continue;
        }
        data.problems.push(Problem::new(
            &row.source.file,
            Some(row.source.at.to_string()),
            format!(
                "annotator \"{}\" already rated item \"{}\", system \"{}\" on \"{}\"{} ({} at \
                 {}: {}); this duplicate ({}) is left out",
                row.annotator,
                row.item,
                row.system,
                row.dimension,
                in_run(row.run),
                number(kept.score),
                kept.source.file,
                kept.source.at,
                number(row.score)
            ),
        ));
        bump_problems(&mut data.files, input);
    }
    let mut kept = keep.into_iter();
    data.ratings.retain(|_| kept.next().unwrap_or(true));

    type Key = (Name, Name, Name, Name, Option<u32>, Option<Name>);
    let mut seen: HashMap<Key, usize, FastHash> = HashMap::default();
    let mut preferences = Vec::with_capacity(data.preferences.len());
    for row in std::mem::take(&mut data.preferences) {
        let (x, y) = if row.system_a <= row.system_b {
            (&row.system_a, &row.system_b)
        } else {
            (&row.system_b, &row.system_a)
        };
        let first_shown = row
            .a_first
            .filter(|_| orders_apart)
            .map(|a| if a { &row.system_a } else { &row.system_b }.clone());
        let key = (
            row.item.clone(),
            x.clone(),
            y.clone(),
            row.annotator.clone(),
            row.run,
            first_shown,
        );
        if let Some(&first) = seen.get(&key) {
            let kept: &PreferenceRow = &preferences[first];
            data.problems.push(Problem::new(
                &row.source.file,
                Some(row.source.at.to_string()),
                format!(
                    "annotator \"{}\" already judged \"{}\" against \"{}\" on item \"{}\"{} \
                     (at {}: {}); this duplicate is left out",
                    row.annotator,
                    x,
                    y,
                    row.item,
                    in_run(row.run),
                    kept.source.file,
                    kept.source.at
                ),
            ));
            bump_problems(&mut data.files, row.source.input);
            continue;
        }
        seen.insert(key, preferences.len());
        count(row.source.input, false);
        preferences.push(row);
    }
    data.preferences = preferences;
    let spans_in = drop_duplicate_spans(data);

    for (input, summary) in data.files.iter_mut().enumerate() {
        summary.spans = spans_in.get(&input).copied().unwrap_or_default();
        summary.repeated_ratings = repeated.get(&input).copied().unwrap_or_default();
        let (r, p) = kept_in.get(input).copied().unwrap_or_default();
        summary.ratings = r;
        summary.preferences = p;
    }
}

/// The error spans of one output by one annotator come from one input: an output marked again
/// in another input (the same annotator's file given twice, a CSV beside the ratings file) is a
/// duplicate, left out with one problem per input. Returns the span rows kept per input.
fn drop_duplicate_spans(data: &mut Data) -> HashMap<usize, usize> {
    let mut owner: HashMap<(Name, Name, Name), usize> = HashMap::new();
    let mut named: std::collections::HashSet<(Name, Name, Name, usize)> = Default::default();
    let mut kept_in: HashMap<usize, usize> = HashMap::new();
    let rows = std::mem::take(&mut data.spans);
    let mut spans = Vec::with_capacity(rows.len());
    for row in rows {
        let key = (row.item.clone(), row.system.clone(), row.annotator.clone());
        let first = *owner.entry(key.clone()).or_insert(row.source.input);
        if first != row.source.input {
            let (item, system, annotator) = key;
            if named.insert((item, system, annotator, row.source.input)) {
                let file = data
                    .files
                    .get(first)
                    .map(|f| f.file.clone())
                    .unwrap_or_default();
                data.problems.push(Problem::new(
                    &row.source.file,
                    Some(row.source.at.to_string()),
                    format!(
                        "annotator \"{}\" already marked the errors of system \"{}\" on item \
                         \"{}\" in {file}; these marks are left out as duplicates",
                        row.annotator, row.system, row.item
                    ),
                ));
                bump_problems(&mut data.files, row.source.input);
            }
            continue;
        }
        *kept_in.entry(row.source.input).or_default() += 1;
        spans.push(row);
    }
    data.spans = spans;
    kept_in
}

/// `, run N` for a numbered repeat, else nothing.
fn in_run(run: Option<u32>) -> String {
    run.map(|r| format!(", run {r}")).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The first earlier index of each key, the slow way.
    fn brute_force(keys: &[[u32; 4]]) -> Vec<Option<u32>> {
        (0..keys.len())
            .map(|i| (0..i).find(|&j| keys[j] == keys[i]).map(|j| j as u32))
            .collect()
    }

    #[test]
    fn first_occurrences_by_table_and_by_hash_agree_with_a_search() {
        // A seeded walk over a small key space: many repeats, every part used.
        let mut state = 7u64;
        let keys: Vec<[u32; 4]> = (0..600)
            .map(|_| {
                state = state
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1);
                let r = state >> 33;
                [
                    (r % 5) as u32,
                    (r / 5 % 3) as u32,
                    (r / 15 % 4) as u32,
                    (r / 60 % 2) as u32,
                ]
            })
            .collect();
        let want = brute_force(&keys);
        assert!(want.iter().any(Option::is_some) && want.iter().any(Option::is_none));
        // 5 × 3 × 4 × 2 cells: the flat table.
        assert_eq!(first_occurrences(&keys, [5, 3, 4, 2]), want);
        // Bounds whose product overflows: the hash map.
        assert_eq!(first_occurrences(&keys, [usize::MAX; 4]), want);
        assert!(first_occurrences(&[], [0; 4]).is_empty());
    }
}
