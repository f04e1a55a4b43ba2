//! Inter-annotator agreement for one rating dimension: Fleiss' kappa, Krippendorff's alpha,
//! Cohen's kappa (unweighted, linear, quadratic) and percent agreement.
//!
//! The types that matter:
//! - [`Ratings`], one dimension's ratings as a units × raters matrix with missing cells, built
//!   from (unit, rater, value) triples by [`Ratings::from_triples`] and optionally tied to a
//!   full scale by [`Ratings::with_scale`];
//! - [`fleiss_kappa`], [`krippendorff_alpha`] (with a [`Metric`]), [`cohen_kappa`] (with
//!   [`Weights`]), [`pairwise`] (every pair of raters, as [`PairAgreement`]) and
//!   [`percent_agreement`].
//!
//! Conventions shared by every statistic here:
//! - A *unit* is whatever was rated once by each rater: an item, or an item × system cell (join
//!   the two ids with a separator neither contains).
//! - Categories are the rating values compared exactly: the scale given to
//!   [`Ratings::with_scale`], else the distinct values seen, in increasing order.
//! - An undefined statistic is `None`, never NaN and never a panic: fewer than two raters on
//!   every unit, no unit two raters share, or a single category in use (chance agreement is then
//!   perfect and every kappa is 0/0).
//!
//! Every function is tested at 1e-9 against statsmodels, krippendorff and scikit-learn on
//! published worked examples (Fleiss 1971, Krippendorff 2011, Wikipedia's examples), seeded
//! random matrices and real data (SummEval experts, PandaLM annotators); the script and the
//! library versions are in `crates/juror-core/tests/reference/agreement/`.

use std::cmp::Ordering;
use std::collections::{HashMap, HashSet};
use std::hash::Hash;

use crate::base::fast_hash::FastHash;
use std::fmt;

/// One dimension's ratings: units × raters, each cell a value or missing.
///
/// Units and raters keep the order in which they first appear in the triples, so everything
/// computed from a `Ratings` (in particular the order of [`pairwise`]) is deterministic.
/// Every value is finite, every (unit, rater) cell holds at most one value, and with a scale
/// every value is on it.
#[derive(Debug, Clone, PartialEq)]
pub struct Ratings {
    units: Vec<String>,
    raters: Vec<String>,
    /// Distinct, finite, increasing.
    categories: Vec<f64>,
    /// Units × raters, row by row: the index of the value in `categories`.
    cells: Vec<Option<usize>>,
}

/// Why triples or a scale could not become [`Ratings`]. Each says where and what to do.
#[derive(Debug, Clone, PartialEq)]
pub enum RatingsError {
    /// A rating is NaN or infinite.
    NotFinite {
        /// Position of the triple in the input, from 0.
        index: usize,
        unit: String,
        rater: String,
        value: f64,
    },
    /// The same rater rated the same unit twice.
    Duplicate {
        /// Position of the second triple in the input, from 0.
        index: usize,
        unit: String,
        rater: String,
        first: f64,
        second: f64,
    },
    /// The scale has a NaN or infinite value, or the same value twice.
    BadScale { value: f64 },
    /// A rating is not a value of the scale.
    OffScale {
        unit: String,
        rater: String,
        value: f64,
        scale: Vec<f64>,
    },
}

impl fmt::Display for RatingsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RatingsError::NotFinite {
                index,
                unit,
                rater,
                value,
            } => write!(
                f,
                "rating {index} (unit {unit:?}, rater {rater:?}): {value} is not a number; \
                 leave the rating out instead"
            ),
            RatingsError::Duplicate {
                index,
                unit,
                rater,
                first,
                second,
            } => write!(
                f,
                "rating {index} (unit {unit:?}, rater {rater:?}): this rater already rated this \
                 unit ({first}, now {second}); keep one rating per unit and rater"
            ),
            RatingsError::BadScale { value } => write!(
                f,
                "scale: {value} is not a finite value or appears twice; list each value of the \
                 scale once"
            ),
            RatingsError::OffScale {
                unit,
                rater,
                value,
                scale,
            } => write!(
                f,
                "unit {unit:?}, rater {rater:?}: {value} is not on the scale {scale:?}; fix the \
                 rating or add the value to the scale"
            ),
        }
    }
}

impl std::error::Error for RatingsError {}

/// Exact comparison of finite values, with -0.0 already folded into 0.0.
fn compare(a: &f64, b: &f64) -> Ordering {
    a.total_cmp(b)
}

/// The index of `id` in `ids` (order of first appearance), adding it if new.
fn index_of<K: Hash + Eq + Clone>(
    index: &mut HashMap<K, usize, FastHash>,
    ids: &mut Vec<K>,
    id: K,
) -> usize {
    if let Some(&i) = index.get(&id) {
        return i;
    }
    let i = ids.len();
    ids.push(id.clone());
    index.insert(id, i);
    i
}

impl Ratings {
    /// Builds the matrix from (unit, rater, value) triples, in any order. A cell no triple
    /// names is missing.
    ///
    /// # Errors
    ///
    /// [`RatingsError::NotFinite`] for a NaN or infinite value, [`RatingsError::Duplicate`] for a
    /// second rating of the same unit by the same rater (even an equal one: it usually means
    /// two dimensions or two studies were mixed up). The first problem met is reported.
    pub fn from_triples<I, U, R>(triples: I) -> Result<Ratings, RatingsError>
    where
        I: IntoIterator<Item = (U, R, f64)>,
        U: Into<String>,
        R: Into<String>,
    {
        Ratings::from_keyed(
            triples.into_iter().map(|(u, r, v)| (u.into(), r.into(), v)),
            String::clone,
            String::clone,
        )
    }

    /// [`Ratings::from_triples`] with units and raters given as any keys (numbers, say), named
    /// once each by `unit_name` and `rater_name`: what a caller with many ratings uses, so that
    /// no text is made per rating.
    ///
    /// # Errors
    /// As [`Ratings::from_triples`].
    pub fn from_keyed<I, U, R>(
        triples: I,
        unit_name: impl Fn(&U) -> String,
        rater_name: impl Fn(&R) -> String,
    ) -> Result<Ratings, RatingsError>
    where
        I: IntoIterator<Item = (U, R, f64)>,
        U: Hash + Eq + Clone,
        R: Hash + Eq + Clone,
    {
        let mut units: Vec<U> = Vec::new();
        let mut raters: Vec<R> = Vec::new();
        let mut unit_index: HashMap<U, usize, FastHash> = HashMap::default();
        let mut rater_index: HashMap<R, usize, FastHash> = HashMap::default();
        // (unit, rater, value) by index, in input order, up to the first value that is not
        // finite (`not_finite`): duplicates before it are reported first, as they come first.
        let mut entries: Vec<(usize, usize, f64)> = Vec::new();
        let mut not_finite = None;
        for (index, (unit, rater, value)) in triples.into_iter().enumerate() {
            if !value.is_finite() {
                not_finite = Some(RatingsError::NotFinite {
                    index,
                    unit: unit_name(&unit),
                    rater: rater_name(&rater),
                    value,
                });
                break;
            }
            let u = index_of(&mut unit_index, &mut units, unit);
            let r = index_of(&mut rater_index, &mut raters, rater);
            // Adding 0.0 turns -0.0 into 0.0, so the two are one category.
            entries.push((u, r, value + 0.0));
        }
        // The matrix of values, NaN where missing (every value is finite); filled in input
        // order, so the first cell met twice is the first duplicate.
        let width = raters.len();
        let mut values = vec![f64::NAN; units.len() * width];
        let mut distinct: HashSet<u64, FastHash> = HashSet::default();
        for (index, &(u, r, value)) in entries.iter().enumerate() {
            let cell = &mut values[u * width + r];
            if !cell.is_nan() {
                return Err(RatingsError::Duplicate {
                    index,
                    unit: unit_name(&units[u]),
                    rater: rater_name(&raters[r]),
                    first: *cell,
                    second: value,
                });
            }
            *cell = value;
            distinct.insert(value.to_bits());
        }
        if let Some(error) = not_finite {
            return Err(error);
        }
        let mut categories: Vec<f64> = distinct.iter().map(|&bits| f64::from_bits(bits)).collect();
        categories.sort_by(compare);
        let cells = values
            .iter()
            .map(|value| {
                if value.is_nan() {
                    None
                } else {
                    categories.binary_search_by(|c| compare(c, value)).ok()
                }
            })
            .collect();
        Ok(Ratings {
            units: units.iter().map(unit_name).collect(),
            raters: raters.iter().map(rater_name).collect(),
            categories,
            cells,
        })
    }

    /// Ties the ratings to a full scale (for example 1 to 5 even if nobody used 1): the
    /// categories become the scale's values, in increasing order, whether used or not. This
    /// changes weighted Cohen's kappa when an unused value lies between used ones, since its
    /// weights count steps on the scale; Fleiss' kappa and Krippendorff's alpha do not depend
    /// on unused values.
    ///
    /// # Errors
    ///
    /// [`RatingsError::BadScale`] for a NaN, infinite or repeated scale value,
    /// [`RatingsError::OffScale`] for the first rating (in unit, then rater order) that is not
    /// on the scale.
    pub fn with_scale(self, scale: &[f64]) -> Result<Ratings, RatingsError> {
        let mut categories: Vec<f64> = scale.iter().map(|v| v + 0.0).collect();
        categories.sort_by(compare);
        for pair in categories.windows(2) {
            if pair[0] == pair[1] {
                return Err(RatingsError::BadScale { value: pair[0] });
            }
        }
        if let Some(&value) = categories.iter().find(|v| !v.is_finite()) {
            return Err(RatingsError::BadScale { value });
        }
        let mut cells = Vec::with_capacity(self.cells.len());
        for (i, cell) in self.cells.iter().enumerate() {
            let Some(old) = *cell else {
                cells.push(None);
                continue;
            };
            let value = self.categories[old];
            match categories.binary_search_by(|c| compare(c, &value)) {
                Ok(new) => cells.push(Some(new)),
                Err(_) => {
                    return Err(RatingsError::OffScale {
                        unit: self.units[i / self.raters.len()].clone(),
                        rater: self.raters[i % self.raters.len()].clone(),
                        value,
                        scale: categories,
                    });
                }
            }
        }
        Ok(Ratings {
            categories,
            cells,
            ..self
        })
    }

    /// Unit ids, in order of first appearance.
    pub fn units(&self) -> &[String] {
        &self.units
    }

    /// Rater ids, in order of first appearance.
    pub fn raters(&self) -> &[String] {
        &self.raters
    }

    /// The categories: the scale if one was given, else the distinct values rated, increasing.
    pub fn categories(&self) -> &[f64] {
        &self.categories
    }

    /// The value rater `rater` gave unit `unit` (both indices), or `None` if missing or out of
    /// range.
    pub fn get(&self, unit: usize, rater: usize) -> Option<f64> {
        if unit >= self.units.len() || rater >= self.raters.len() {
            return None;
        }
        self.cells[unit * self.raters.len() + rater].map(|c| self.categories[c])
    }

    /// The number of ratings given (cells that are not missing).
    pub fn len(&self) -> usize {
        self.cells.iter().filter(|c| c.is_some()).count()
    }

    /// Whether no rating was given.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn row(&self, unit: usize) -> &[Option<usize>] {
        let width = self.raters.len();
        &self.cells[unit * width..(unit + 1) * width]
    }

    /// How many ratings unit `unit` received in each category.
    fn counts(&self, unit: usize, out: &mut [usize]) {
        out.fill(0);
        for c in self.row(unit).iter().flatten() {
            out[*c] += 1;
        }
    }

    fn rater_position(&self, id: &str) -> Option<usize> {
        self.raters.iter().position(|r| r == id)
    }
}

/// Fleiss' kappa: agreement among any number of raters on nominal categories, corrected for
/// the agreement expected from the pooled category proportions.
///
/// # Formula
///
/// Over the units with at least two ratings, with n_ij the number of ratings of unit i in
/// category j and n_i = Σ_j n_ij:
///
/// P_i = Σ_j n_ij (n_ij − 1) / (n_i (n_i − 1)),  P̄ = mean_i P_i,
/// p_j = Σ_i n_ij / Σ_i n_i,  P̄_e = Σ_j p_j²,  κ = (P̄ − P̄_e) / (1 − P̄_e).
///
/// # Conventions
///
/// Fleiss (1971) assumes every unit has the same number of ratings n. With missing ratings the
/// numbers differ, and this uses the common generalisation above: each unit's P_i uses its own
/// n_i, units count equally in P̄, and p_j pools all ratings. With a constant n it is exactly
/// the classic formula. Units with fewer than two ratings are dropped (they hold no pair).
/// Categories are compared as values; one nobody used adds nothing to P̄ or P̄_e, so the scale
/// does not matter here. Rater identity is ignored: only the counts per unit matter.
///
/// `None` when no unit has two ratings or fewer than two categories are used (P̄_e = 1).
///
/// # Reference
///
/// Fleiss (1971), "Measuring nominal scale agreement among many raters", Psychological
/// Bulletin 76(5): Table 1's data gives 0.430. Tested against statsmodels
/// `stats.inter_rater.fleiss_kappa` where n is constant, and against the generalised formula
/// spelt out in numpy where it is not (statsmodels refuses unequal n).
pub fn fleiss_kappa(ratings: &Ratings) -> Option<f64> {
    let k = ratings.categories.len();
    let mut counts = vec![0; k];
    let mut totals = vec![0usize; k];
    let (mut sum_p, mut kept) = (0.0, 0usize);
    for unit in 0..ratings.units.len() {
        ratings.counts(unit, &mut counts);
        let n: usize = counts.iter().sum();
        if n < 2 {
            continue;
        }
        let agreeing: usize = counts.iter().map(|&c| c * c.saturating_sub(1)).sum();
        sum_p += agreeing as f64 / (n * (n - 1)) as f64;
        kept += 1;
        for (t, c) in totals.iter_mut().zip(&counts) {
            *t += c;
        }
    }
    if kept == 0 || totals.iter().filter(|&&t| t > 0).count() < 2 {
        return None;
    }
    let all: usize = totals.iter().sum();
    let p_bar = sum_p / kept as f64;
    let p_e: f64 = totals
        .iter()
        .map(|&t| {
            let p = t as f64 / all as f64;
            p * p
        })
        .sum();
    Some((p_bar - p_e) / (1.0 - p_e))
}

/// Percent agreement over all raters: the share of agreeing rater pairs within a unit, averaged
/// over units.
///
/// # Formula
///
/// P̄ = mean_i Σ_j n_ij (n_ij − 1) / (n_i (n_i − 1)) over the units with n_i ≥ 2 ratings: Fleiss'
/// P̄ (see [`fleiss_kappa`]). With two raters it is the share of units they agree on.
///
/// # Conventions
///
/// Units with fewer than two ratings are dropped; every kept unit counts equally, whatever its
/// number of raters. Not corrected for chance: with a single category in use it is 1. `None`
/// when no unit has two ratings. For the simple exact-agreement rate of each pair of raters,
/// see [`PairAgreement::agreement`].
///
/// # Reference
///
/// Tested against the same sum spelt out in numpy (`make_reference.py`).
pub fn percent_agreement(ratings: &Ratings) -> Option<f64> {
    let mut counts = vec![0; ratings.categories.len()];
    let (mut sum, mut kept) = (0.0, 0usize);
    for unit in 0..ratings.units.len() {
        ratings.counts(unit, &mut counts);
        let n: usize = counts.iter().sum();
        if n >= 2 {
            let agreeing: usize = counts.iter().map(|&c| c * c.saturating_sub(1)).sum();
            sum += agreeing as f64 / (n * (n - 1)) as f64;
            kept += 1;
        }
    }
    (kept > 0).then(|| sum / kept as f64)
}

/// The level of measurement of the ratings, which sets Krippendorff's distance δ²(c, k)
/// between two values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Metric {
    /// δ² = 0 if c = k, else 1: categories with no order.
    Nominal,
    /// δ² = (Σ_{g=c..k} n_g − (n_c + n_k)/2)², with n_g the number of pairable values in
    /// category g and the sum over the categories from c to k in increasing order: ranks only.
    Ordinal,
    /// δ² = (c − k)²: differences of values are meaningful.
    Interval,
}

/// Krippendorff's alpha, for any number of raters, missing ratings, and nominal, ordinal or
/// interval data.
///
/// # Formula
///
/// Coincidence-matrix form (Krippendorff 2011). For each unit u with m_u ≥ 2 ratings and
/// n_uc of them in category c, the coincidences are
///
/// o_ck = Σ_u n_uc (n_uk − [c = k]) / (m_u − 1),  n_c = Σ_k o_ck,  n = Σ_c n_c,
///
/// and with δ² from the [`Metric`],
///
/// α = 1 − D_o / D_e = 1 − (n − 1) Σ_c Σ_k o_ck δ²_ck / Σ_c Σ_k n_c n_k δ²_ck.
///
/// # Conventions
///
/// Units with fewer than two ratings are not pairable and are dropped, as in the paper. The
/// ordinal distance uses the marginal counts n_c of the coincidence matrix (pairable values
/// only), and categories in increasing order of value; a category nobody used has n_c = 0 and
/// changes nothing. Rater identity is ignored.
///
/// `None` when no unit has two ratings or the expected disagreement D_e is 0 (a single value
/// among the pairable ones).
///
/// # Reference
///
/// Krippendorff (2011), "Computing Krippendorff's Alpha-Reliability", section C (4 observers ×
/// 12 units with missing values): nominal 0.743, ordinal 0.815, interval 0.849. Tested against
/// the `krippendorff` Python package's `alpha` with the scale as `value_domain`.
pub fn krippendorff_alpha(ratings: &Ratings, metric: Metric) -> Option<f64> {
    let k = ratings.categories.len();
    let mut o = vec![0.0; k * k];
    let mut counts = vec![0; k];
    let mut pairable = false;
    for unit in 0..ratings.units.len() {
        ratings.counts(unit, &mut counts);
        let m: usize = counts.iter().sum();
        if m < 2 {
            continue;
        }
        pairable = true;
        let used: Vec<usize> = (0..k).filter(|&c| counts[c] > 0).collect();
        for &c in &used {
            for &d in &used {
                let pairs = counts[c] * (counts[d] - usize::from(c == d));
                o[c * k + d] += pairs as f64 / (m - 1) as f64;
            }
        }
    }
    if !pairable {
        return None;
    }
    let n_c: Vec<f64> = (0..k).map(|c| o[c * k..(c + 1) * k].iter().sum()).collect();
    let n: f64 = n_c.iter().sum();
    let delta = distances(&ratings.categories, &n_c, metric);
    let (mut observed, mut expected) = (0.0, 0.0);
    for c in 0..k {
        for d in 0..k {
            observed += o[c * k + d] * delta[c * k + d];
            expected += n_c[c] * n_c[d] * delta[c * k + d];
        }
    }
    (expected > 0.0).then(|| 1.0 - (n - 1.0) * observed / expected)
}

/// δ²(c, k) for every pair of categories, row by row.
fn distances(values: &[f64], n_c: &[f64], metric: Metric) -> Vec<f64> {
    let k = values.len();
    // below[g] = n_0 + ... + n_{g-1}, so Σ_{g=c..d} n_g = below[d + 1] − below[c].
    let mut below = vec![0.0; k + 1];
    for g in 0..k {
        below[g + 1] = below[g] + n_c[g];
    }
    let mut delta = vec![0.0; k * k];
    for c in 0..k {
        for d in 0..k {
            delta[c * k + d] = match metric {
                Metric::Nominal => f64::from(u8::from(c != d)),
                Metric::Ordinal => {
                    let (lo, hi) = (c.min(d), c.max(d));
                    let between = below[hi + 1] - below[lo] - (n_c[lo] + n_c[hi]) / 2.0;
                    between * between
                }
                Metric::Interval => {
                    let gap = values[c] - values[d];
                    gap * gap
                }
            };
        }
    }
    delta
}

/// Disagreement weights for Cohen's kappa, by the positions i and j of the two values on the
/// scale ([`Ratings::categories`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Weights {
    /// w_ij = 0 if i = j, else 1: Cohen's (1960) kappa.
    Unweighted,
    /// w_ij = |i − j|.
    Linear,
    /// w_ij = (i − j)².
    Quadratic,
}

/// Cohen's kappa between two raters, over the units both rated.
///
/// # Formula
///
/// With the k × k table O_ij of units rater a put in category i and rater b in category j,
/// n = Σ O_ij, row sums r_i, column sums c_j, E_ij = r_i c_j / n and weights w from
/// [`Weights`]:
///
/// κ = 1 − Σ_ij w_ij O_ij / Σ_ij w_ij E_ij.
///
/// Unweighted, this is (p_o − p_e) / (1 − p_e).
///
/// # Conventions
///
/// The categories are the full scale when one was given ([`Ratings::with_scale`]), else the
/// values seen across all raters. Weights count steps between positions on that list, not
/// differences of values, as scikit-learn does: on 1..5 the two agree; on an uneven scale
/// (say 0, 1, 10) they do not. Symmetric in the two raters.
///
/// `None` when either rater is unknown, they share no unit, or Σ w_ij E_ij = 0 (both raters
/// used one and the same category, so agreement by chance is certain).
///
/// # Reference
///
/// Tested against scikit-learn's `cohen_kappa_score(y1, y2, labels=scale, weights=None |
/// "linear" | "quadratic")`. On PandaLM's human labels (0 tie, 1 a, 2 b) it gives 0.85, 0.88
/// and 0.86 for its three annotator pairs, as PandaLM's README reports.
pub fn cohen_kappa(
    ratings: &Ratings,
    rater_a: &str,
    rater_b: &str,
    weights: Weights,
) -> Option<f64> {
    let a = ratings.rater_position(rater_a)?;
    let b = ratings.rater_position(rater_b)?;
    let table = Table::new(ratings, a, b);
    table.kappa(weights)
}

/// Agreement between one pair of raters, over the units both rated.
#[derive(Debug, Clone, PartialEq)]
pub struct PairAgreement {
    pub rater_a: String,
    pub rater_b: String,
    /// Units both raters rated.
    pub units: usize,
    /// Share of those units on which the two gave the same value; `None` if `units` is 0.
    pub agreement: Option<f64>,
    /// [`cohen_kappa`] with [`Weights::Unweighted`].
    pub unweighted: Option<f64>,
    /// [`cohen_kappa`] with [`Weights::Linear`].
    pub linear: Option<f64>,
    /// [`cohen_kappa`] with [`Weights::Quadratic`].
    pub quadratic: Option<f64>,
}

/// Agreement for every pair of raters: each pair once, `rater_a` before `rater_b` in the order
/// of [`Ratings::raters`], pairs sharing no unit included with `units` 0 and every value `None`.
///
/// # Conventions
///
/// As [`cohen_kappa`]; `agreement` is the simple exact-agreement rate, not corrected for
/// chance. Tested against scikit-learn (kappas) and numpy (agreement).
pub fn pairwise(ratings: &Ratings) -> Vec<PairAgreement> {
    let r = ratings.raters.len();
    let mut out = Vec::with_capacity(r * r.saturating_sub(1) / 2);
    for a in 0..r {
        for b in a + 1..r {
            let table = Table::new(ratings, a, b);
            out.push(PairAgreement {
                rater_a: ratings.raters[a].clone(),
                rater_b: ratings.raters[b].clone(),
                units: table.n,
                agreement: table.agreement(),
                unweighted: table.kappa(Weights::Unweighted),
                linear: table.kappa(Weights::Linear),
                quadratic: table.kappa(Weights::Quadratic),
            });
        }
    }
    out
}

/// The contingency table of two raters over the units both rated.
struct Table {
    k: usize,
    n: usize,
    /// k × k, row by row: rater a's category, then rater b's.
    cells: Vec<usize>,
}

impl Table {
    fn new(ratings: &Ratings, a: usize, b: usize) -> Table {
        let k = ratings.categories.len();
        let mut cells = vec![0; k * k];
        let mut n = 0;
        for unit in 0..ratings.units.len() {
            let row = ratings.row(unit);
            if let (Some(i), Some(j)) = (row[a], row[b]) {
                cells[i * k + j] += 1;
                n += 1;
            }
        }
        Table { k, n, cells }
    }

    fn agreement(&self) -> Option<f64> {
        let same: usize = (0..self.k).map(|i| self.cells[i * self.k + i]).sum();
        (self.n > 0).then(|| same as f64 / self.n as f64)
    }

    fn kappa(&self, weights: Weights) -> Option<f64> {
        if self.n == 0 {
            return None;
        }
        let k = self.k;
        let rows: Vec<usize> = (0..k)
            .map(|i| self.cells[i * k..(i + 1) * k].iter().sum())
            .collect();
        let cols: Vec<usize> = (0..k)
            .map(|j| (0..k).map(|i| self.cells[i * k + j]).sum())
            .collect();
        let n = self.n as f64;
        let (mut observed, mut expected) = (0.0, 0.0);
        for (i, row) in rows.iter().enumerate() {
            for (j, col) in cols.iter().enumerate() {
                let steps = i.abs_diff(j) as f64;
                let w = match weights {
                    Weights::Unweighted => f64::from(u8::from(i != j)),
                    Weights::Linear => steps,
                    Weights::Quadratic => steps * steps,
                };
                observed += w * self.cells[i * k + j] as f64;
                expected += w * (row * col) as f64 / n;
            }
        }
        (expected > 0.0).then(|| 1.0 - observed / expected)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ratings(rows: &[&[Option<f64>]]) -> Ratings {
        let triples = rows.iter().enumerate().flat_map(|(u, row)| {
            row.iter()
                .enumerate()
                .filter_map(move |(r, v)| v.map(|v| (format!("u{u}"), format!("r{r}"), v)))
        });
        Ratings::from_triples(triples).unwrap()
    }

    #[test]
    fn builds_the_matrix_in_order_of_first_appearance() {
        let r = Ratings::from_triples([("x", "bob", 2.0), ("y", "ann", -0.0), ("x", "ann", 1.0)])
            .unwrap();
        assert_eq!(r.units(), ["x", "y"]);
        assert_eq!(r.raters(), ["bob", "ann"]);
        assert_eq!(r.categories(), [0.0, 1.0, 2.0]);
        assert!(r.categories()[0].is_sign_positive());
        assert_eq!(r.get(0, 1), Some(1.0));
        assert_eq!(r.get(1, 0), None);
        assert_eq!(r.get(5, 0), None);
        assert_eq!(r.len(), 3);
    }

    #[test]
    fn errors_say_where_and_what_to_do() {
        let twice = Ratings::from_triples([("x", "ann", 1.0), ("x", "ann", 2.0)]).unwrap_err();
        assert_eq!(
            twice.to_string(),
            "rating 1 (unit \"x\", rater \"ann\"): this rater already rated this unit (1, now 2); \
             keep one rating per unit and rater"
        );
        let nan = Ratings::from_triples([("x", "ann", f64::NAN)]).unwrap_err();
        assert!(matches!(nan, RatingsError::NotFinite { index: 0, .. }));
        // The first problem in input order is the one reported.
        let twice_then_nan =
            Ratings::from_triples([("x", "ann", 1.0), ("x", "ann", 2.0), ("y", "ann", f64::NAN)])
                .unwrap_err();
        assert!(matches!(
            twice_then_nan,
            RatingsError::Duplicate { index: 1, .. }
        ));
        let nan_then_twice =
            Ratings::from_triples([("x", "ann", 1.0), ("y", "ann", f64::NAN), ("x", "ann", 2.0)])
                .unwrap_err();
        assert!(matches!(
            nan_then_twice,
            RatingsError::NotFinite { index: 1, .. }
        ));
        let off = Ratings::from_triples([("x", "ann", 6.0)])
            .unwrap()
            .with_scale(&[1.0, 2.0, 3.0, 4.0, 5.0])
            .unwrap_err();
        assert_eq!(
            off.to_string(),
            "unit \"x\", rater \"ann\": 6 is not on the scale [1.0, 2.0, 3.0, 4.0, 5.0]; fix the \
             rating or add the value to the scale"
        );
        let bad = Ratings::from_triples([("x", "ann", 1.0)])
            .unwrap()
            .with_scale(&[1.0, 2.0, 1.0]);
        assert_eq!(bad, Err(RatingsError::BadScale { value: 1.0 }));
    }

    #[test]
    fn a_scale_adds_unused_categories_and_keeps_the_values() {
        let r = ratings(&[&[Some(2.0), Some(4.0)]])
            .with_scale(&[5.0, 4.0, 3.0, 2.0, 1.0])
            .unwrap();
        assert_eq!(r.categories(), [1.0, 2.0, 3.0, 4.0, 5.0]);
        assert_eq!((r.get(0, 0), r.get(0, 1)), (Some(2.0), Some(4.0)));
    }

    #[test]
    fn cohen_by_hand() {
        // a: 1 1 2 2, b: 1 2 2 2. p_o = 3/4; p_e = (2·1 + 2·3)/16 = 1/2; κ = 1/2.
        let r = ratings(&[
            &[Some(1.0), Some(1.0)],
            &[Some(1.0), Some(2.0)],
            &[Some(2.0), Some(2.0)],
            &[Some(2.0), Some(2.0)],
        ]);
        let k = cohen_kappa(&r, "r0", "r1", Weights::Unweighted).unwrap();
        assert!((k - 0.5).abs() < 1e-12);
        // With two categories every weighting is the same.
        let q = cohen_kappa(&r, "r0", "r1", Weights::Quadratic).unwrap();
        assert!((q - 0.5).abs() < 1e-12);
        assert_eq!(cohen_kappa(&r, "r0", "nobody", Weights::Linear), None);
    }

    #[test]
    fn fleiss_with_unequal_raters_uses_each_units_own_n() {
        // Unit 0: 3 ratings 1,1,2 → P = 2/6; unit 1: 2 ratings 2,2 → P = 1; unit 2: one rating,
        // dropped. P̄ = 2/3; p = (2/5, 3/5), P̄_e = 13/25; κ = (2/3 − 13/25)/(12/25) = 11/36.
        let r = ratings(&[
            &[Some(1.0), Some(1.0), Some(2.0)],
            &[Some(2.0), None, Some(2.0)],
            &[None, Some(1.0), None],
        ]);
        let k = fleiss_kappa(&r).unwrap();
        assert!((k - 11.0 / 36.0).abs() < 1e-12, "{k}");
        let p = percent_agreement(&r).unwrap();
        assert!((p - 2.0 / 3.0).abs() < 1e-12, "{p}");
    }

    #[test]
    fn degenerate_cases_are_none() {
        let one_category = ratings(&[&[Some(3.0), Some(3.0)], &[Some(3.0), Some(3.0)]])
            .with_scale(&[1.0, 2.0, 3.0, 4.0, 5.0])
            .unwrap();
        assert_eq!(fleiss_kappa(&one_category), None);
        for metric in [Metric::Nominal, Metric::Ordinal, Metric::Interval] {
            assert_eq!(krippendorff_alpha(&one_category, metric), None);
        }
        for w in [Weights::Unweighted, Weights::Linear, Weights::Quadratic] {
            assert_eq!(cohen_kappa(&one_category, "r0", "r1", w), None);
        }
        assert_eq!(percent_agreement(&one_category), Some(1.0));

        let one_rater = ratings(&[&[Some(1.0)], &[Some(2.0)]]);
        assert_eq!(fleiss_kappa(&one_rater), None);
        assert_eq!(krippendorff_alpha(&one_rater, Metric::Nominal), None);
        assert_eq!(percent_agreement(&one_rater), None);
        assert!(pairwise(&one_rater).is_empty());

        // Two raters who never rated the same unit.
        let apart = ratings(&[&[Some(1.0), None], &[None, Some(2.0)]]);
        assert_eq!(cohen_kappa(&apart, "r0", "r1", Weights::Unweighted), None);
        assert_eq!(
            pairwise(&apart),
            [PairAgreement {
                rater_a: "r0".into(),
                rater_b: "r1".into(),
                units: 0,
                agreement: None,
                unweighted: None,
                linear: None,
                quadratic: None,
            }]
        );
        assert_eq!(fleiss_kappa(&apart), None);
        assert_eq!(krippendorff_alpha(&apart, Metric::Interval), None);

        let empty = Ratings::from_triples(Vec::<(String, String, f64)>::new()).unwrap();
        assert!(empty.is_empty());
        assert_eq!(fleiss_kappa(&empty), None);
        assert_eq!(krippendorff_alpha(&empty, Metric::Ordinal), None);
    }
}
