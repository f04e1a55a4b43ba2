//! Per-annotator standardisation (the plan's `standardise: "annotator"`, `juror analyze
//! --standardise annotator`): raters use a slider differently (one keeps to 60–90, another uses
//! 0–100), so each annotator's scores on a dimension become z-scores before they are averaged,
//! as WMT's direct assessment does.
//!
//! # Formula
//! For annotator `a` on one dimension, over all their `n_a` scores `x`:
//! `z = (x − mean_a) / sd_a`, `sd_a` the sample SD (ddof = 1). The z-scores of a cell (item,
//! system) are averaged into an item mean, and the item means into the system's mean, as the
//! raw scores are. An annotator with a single score, or whose scores are all equal (SD 0), has
//! no z-scores: their ratings are left out of the standardised means and the tests, and listed
//! with the reason (`left_out`). Adjudicated scores replace raw cells only: z-scores are those
//! of the ratings.
//!
//! # Reference
//! `tests/reference/standardise/make_reference.py` (numpy `std(ddof=1)`, scipy's paired tests).

use std::collections::{BTreeMap, HashMap};

use crate::analysis::data::RatingRow;
use crate::base::fast_hash::FastHash;
use crate::stats::describe::{mean, sd as sample_sd};
use crate::stats::paired::describe;

use super::item_means;
use super::types::{Ci, LeftOut, Standardised, StandardisedSystem};

/// The z-scores of `rows` (one dimension's), in the order of the rows, and the annotators left
/// out (in order of first appearance) with why.
pub fn z_scores(rows: &[&RatingRow]) -> (Vec<RatingRow>, Vec<LeftOut>) {
    let mut order: Vec<&str> = Vec::new();
    let mut scores: HashMap<&str, Vec<f64>, FastHash> = HashMap::default();
    for r in rows {
        let list = scores.entry(r.annotator.as_str()).or_default();
        if list.is_empty() {
            order.push(r.annotator.as_str());
        }
        list.push(r.score);
    }
    let mut moments: HashMap<&str, (f64, f64), FastHash> = HashMap::default();
    let mut left_out = Vec::new();
    for annotator in order {
        let xs = &scores[annotator];
        let reason = if xs.len() < 2 {
            Some("one score: no spread to standardise by".to_owned())
        } else {
            let s = sample_sd(xs);
            if s > 0.0 && s.is_finite() {
                moments.insert(annotator, (mean(xs), s));
                None
            } else {
                Some(format!(
                    "every score the same ({}): SD 0, no spread to standardise by",
                    xs[0]
                ))
            }
        };
        if let Some(reason) = reason {
            left_out.push(LeftOut {
                annotator: annotator.to_owned(),
                ratings: xs.len(),
                reason,
            });
        }
    }
    let z = rows
        .iter()
        .filter_map(|r| {
            let (m, s) = moments.get(r.annotator.as_str())?;
            let mut row = (*r).clone();
            row.score = (r.score - m) / s;
            Some(row)
        })
        .collect();
    (z, left_out)
}

/// The standardised block of one dimension: per system, the mean z-score over its item means
/// beside the raw mean over the same ratings (those of the annotators standardised).
pub fn standardised(rows: &[&RatingRow], z: &[RatingRow], left_out: Vec<LeftOut>) -> Standardised {
    let kept: Vec<&RatingRow> = rows
        .iter()
        .copied()
        .filter(|r| !left_out.iter().any(|l| l.annotator == r.annotator.as_str()))
        .collect();
    let z_refs: Vec<&RatingRow> = z.iter().collect();
    let raw = item_means(&kept, None);
    let zs = item_means(&z_refs, None);
    let mut ratings: BTreeMap<&str, usize> = BTreeMap::new();
    for r in z {
        *ratings.entry(r.system.as_str()).or_default() += 1;
    }
    let systems = zs
        .iter()
        .map(|(system, by_item)| {
            let values: Vec<f64> = by_item.values().copied().collect();
            let raw_values: Vec<f64> = raw
                .get(system)
                .map(|m| m.values().copied().collect())
                .unwrap_or_default();
            let described = describe(&values).ok();
            StandardisedSystem {
                system: system.clone(),
                n: values.len(),
                n_ratings: ratings.get(system.as_str()).copied().unwrap_or(0),
                raw_mean: mean(&raw_values),
                mean_z: mean(&values),
                sd_z: described.map(|d| d.sd),
                ci95_z: described.map(|d| Ci {
                    low: d.ci95.low,
                    high: d.ci95.high,
                }),
            }
        })
        .collect();
    let annotators = {
        let mut seen: Vec<&str> = z.iter().map(|r| r.annotator.as_str()).collect();
        seen.sort_unstable();
        seen.dedup();
        seen.len()
    };
    Standardised {
        by: "annotator",
        annotators,
        left_out,
        systems,
    }
}
