//! The inter-annotator agreement of one dimension's raw ratings: the agreement matrix of units
//! (item, system) and annotators, and the coefficients computed on it.

use super::types::*;
use crate::analysis::data::{Ids, RatingRow, pairable_units};
use crate::stats::agreement::{
    Metric, Ratings, fleiss_kappa, krippendorff_alpha, pairwise, percent_agreement,
};

/// The agreement unit of a rating: its item and system.
pub fn unit(item: &str, system: &str) -> String {
    format!("{item}{UNIT_SEPARATOR}{system}")
}

/// The agreement matrix of one dimension's raw ratings: units (item, system) and raters
/// (annotators) in order of first appearance, tied to the scale when there is one.
pub fn rating_matrix(rows: &[&RatingRow], scale: Option<&[f64]>) -> Option<Ratings> {
    // Units and raters by number; named once each.
    let mut ids = Ids::default();
    let triples: Vec<((u32, u32), u32, f64)> = rows
        .iter()
        .map(|r| {
            (
                (ids.id(&r.item), ids.id(&r.system)),
                ids.id(&r.annotator),
                r.score,
            )
        })
        .collect();
    let ratings = Ratings::from_keyed(
        triples,
        |&(item, system)| unit(ids.text(item), ids.text(system)),
        |&annotator| ids.text(annotator).to_owned(),
    )
    .ok()?;
    match scale {
        Some(s) => ratings.with_scale(s).ok(),
        None => Some(ratings),
    }
}

pub(super) fn rating_agreement(rows: &[&RatingRow], scale: Option<&[f64]>) -> Agreement {
    let Some(ratings) = rating_matrix(rows, scale) else {
        return Agreement {
            units: 0,
            annotators: 0,
            fleiss_kappa: None,
            krippendorff_alpha: Alphas {
                nominal: None,
                ordinal: None,
                interval: None,
            },
            cohen_kappa: Vec::new(),
            percent_agreement: None,
        };
    };
    Agreement {
        units: pairable_units(&ratings),
        annotators: ratings.raters().len(),
        fleiss_kappa: fleiss_kappa(&ratings),
        krippendorff_alpha: Alphas {
            nominal: krippendorff_alpha(&ratings, Metric::Nominal),
            ordinal: krippendorff_alpha(&ratings, Metric::Ordinal),
            interval: krippendorff_alpha(&ratings, Metric::Interval),
        },
        cohen_kappa: pairwise(&ratings)
            .into_iter()
            .filter(|p| p.units > 0)
            .map(|p| CohenPair {
                annotator_a: p.rater_a,
                annotator_b: p.rater_b,
                units: p.units,
                agreement: p.agreement,
                unweighted: p.unweighted,
                linear: p.linear,
                quadratic: p.quadratic,
            })
            .collect(),
        percent_agreement: percent_agreement(&ratings),
    }
}
