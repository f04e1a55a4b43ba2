//! Tests on categories and ranks: choices among several systems, rankings of systems, and
//! yes/no judgements of several systems on the same items.
//!
//! The functions that matter:
//! - [`chi_square_equal`] (a [`ChiSquare`]) and [`multinomial_exact_equal`]: are the counts of
//!   choices (e.g. "which output is best?") spread evenly over the categories? The chi-square
//!   goodness of fit, and the exact multinomial test while the outcomes can be enumerated;
//! - [`friedman`] (a [`Friedman`]): do systems rank differently within blocks (annotators or
//!   items)? With the mean rank of every system and Kendall's W;
//! - [`mcnemar_exact`]: do two systems' yes/no judgements on the same items differ?
//! - [`cochrans_q`] (a [`CochranQ`]): the same for more than two systems.
//!
//! An interval for each system's share of the choices is the Wilson interval of its count
//! among the total, [`super::preference::wilson`].
//!
//! Conventions: an input that cannot give the statistic is a [`NominalError`] saying what to
//! do, never NaN and never a panic. p-values from the chi-square distribution use
//! [`special::chi2_sf`], the others [`special::beta_inc`] and [`special::ln_gamma`].
//!
//! Every function is tested against scipy and statsmodels (versions in the reference file) at
//! 1e-9, on seeded random data and hand-written edge cases: `crates/juror-core/tests/it/nominal.rs`
//! reads `crates/juror-core/tests/reference/nominal/reference.json`, written by
//! `make_reference.py` beside it.

use std::fmt;

use super::describe::average_ranks;
use super::math::Portable;
use super::special;

/// The largest total [`multinomial_exact_equal`] enumerates.
pub const EXACT_MAX_TOTAL: u64 = 200;
/// The most categories [`multinomial_exact_equal`] enumerates.
pub const EXACT_MAX_CATEGORIES: usize = 6;

/// The relative tolerance on "no more probable than the observed outcome" of the exact tests
/// (scipy's `binomtest`, R's `EMT`).
const RELATIVE_TOLERANCE: f64 = 1e-7;

/// Why a test on categories or ranks could not be computed. Each says what to do.
#[derive(Debug, Clone, PartialEq)]
pub enum NominalError {
    /// Fewer categories (or columns, or systems) than the test needs.
    TooFewCategories {
        what: &'static str,
        needed: usize,
        got: usize,
    },
    /// Every count is zero.
    NoObservations,
    /// The exact multinomial test would enumerate too many outcomes.
    TooLargeForExact { total: u64, categories: usize },
    /// A table with no rows.
    NoRows { what: &'static str },
    /// A row whose length differs from the first row's.
    RaggedRows {
        what: &'static str,
        /// Position of the row, from 0.
        row: usize,
        expected: usize,
        got: usize,
    },
    /// A value is NaN or infinite.
    NotFinite {
        what: &'static str,
        row: usize,
        column: usize,
        value: f64,
    },
    /// Friedman: every row is one complete tie, so the tie-corrected statistic is 0/0.
    AllRowsTied { rows: usize },
    /// McNemar: no discordant pair (b = c = 0).
    NoDiscordantPairs,
    /// Cochran's Q: every row is all true or all false, so Q is 0/0.
    NoVariationWithinRows { rows: usize },
}

impl fmt::Display for NominalError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NominalError::TooFewCategories { what, needed, got } => write!(
                f,
                "{what}: needs at least {needed} categories, got {got}; \
                 there is nothing to compare"
            ),
            NominalError::NoObservations => write!(
                f,
                "every count is zero: there is nothing to test; collect some judgements first"
            ),
            NominalError::TooLargeForExact { total, categories } => write!(
                f,
                "the exact multinomial test enumerates every outcome and is limited to a total \
                 of {EXACT_MAX_TOTAL} over at most {EXACT_MAX_CATEGORIES} categories \
                 (got {total} over {categories}); use the chi-square test (chi_square_equal), \
                 whose approximation is good at these sizes"
            ),
            NominalError::NoRows { what } => {
                write!(f, "{what}: no rows; give at least one block")
            }
            NominalError::RaggedRows {
                what,
                row,
                expected,
                got,
            } => write!(
                f,
                "{what}: row {row} has {got} values but row 0 has {expected}; every block must \
                 have a value for every system (drop incomplete blocks)"
            ),
            NominalError::NotFinite {
                what,
                row,
                column,
                value,
            } => write!(
                f,
                "{what}[{row}][{column}] is {value}; remove or fix the value (every input must \
                 be finite)"
            ),
            NominalError::AllRowsTied { rows } => write!(
                f,
                "Friedman test: in all {rows} rows every system has the same value, so the \
                 tie-corrected statistic is undefined (0/0); there is no ranking to test"
            ),
            NominalError::NoDiscordantPairs => write!(
                f,
                "McNemar test: no discordant pairs (b = c = 0): the two systems got the same \
                 judgement on every item, there is nothing to test"
            ),
            NominalError::NoVariationWithinRows { rows } => write!(
                f,
                "Cochran's Q: each of the {rows} rows is all true or all false, so Q is \
                 undefined (0/0); no block tells the treatments apart, there is nothing to test"
            ),
        }
    }
}

impl std::error::Error for NominalError {}

fn check_categories(what: &'static str, k: usize, needed: usize) -> Result<(), NominalError> {
    if k < needed {
        Err(NominalError::TooFewCategories {
            what,
            needed,
            got: k,
        })
    } else {
        Ok(())
    }
}

/// The number of columns of a rectangular table with at least one row.
fn check_rectangular<T>(what: &'static str, rows: &[Vec<T>]) -> Result<usize, NominalError> {
    let Some(first) = rows.first() else {
        return Err(NominalError::NoRows { what });
    };
    let k = first.len();
    match rows.iter().position(|r| r.len() != k) {
        Some(row) => Err(NominalError::RaggedRows {
            what,
            row,
            expected: k,
            got: rows[row].len(),
        }),
        None => Ok(k),
    }
}

/// Adds `x` to `sum` with Neumaier's compensation kept in `carry`.
fn add_compensated(sum: &mut f64, carry: &mut f64, x: f64) {
    let t = *sum + x;
    if sum.abs() >= x.abs() {
        *carry += (*sum - t) + x;
    } else {
        *carry += (x - t) + *sum;
    }
    *sum = t;
}

// ---------------------------------------------------------------------------------------------
// Goodness of fit to equal shares
// ---------------------------------------------------------------------------------------------

/// Pearson's chi-square test of goodness of fit.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ChiSquare {
    /// Σ (observed − expected)² / expected.
    pub statistic: f64,
    /// Degrees of freedom, k − 1.
    pub df: usize,
    /// P(χ²_df > statistic).
    pub p_value: f64,
    /// The expected count of every category, total / k. The chi-square approximation is
    /// usually trusted when it is at least 5; below that prefer [`multinomial_exact_equal`].
    pub expected: f64,
}

/// Pearson's chi-square goodness of fit of `counts` (one per category) against equal shares.
///
/// # Formula
/// With N = Σ counts over k categories and E = N / k: statistic = Σᵢ (countᵢ − E)² / E,
/// df = k − 1, p = Q((k − 1)/2, statistic/2) ([`special::chi2_sf`]). No continuity correction.
///
/// # Conventions
/// Categories with a zero count are categories: they count in k and in the sum (scipy's
/// convention; drop a category before the call if it was not on offer).
///
/// # Errors
/// Fewer than 2 categories, or every count zero.
///
/// # Reference
/// `scipy.stats.chisquare(counts)` (`statistic`, `pvalue`).
pub fn chi_square_equal(counts: &[u64]) -> Result<ChiSquare, NominalError> {
    check_categories("chi-square test", counts.len(), 2)?;
    let total: u128 = counts.iter().map(|&c| u128::from(c)).sum();
    if total == 0 {
        return Err(NominalError::NoObservations);
    }
    let k = counts.len();
    let expected = total as f64 / k as f64;
    let statistic: f64 = counts
        .iter()
        .map(|&c| {
            let d = c as f64 - expected;
            d * d / expected
        })
        .sum();
    Ok(ChiSquare {
        statistic,
        df: k - 1,
        p_value: special::chi2_sf(statistic, (k - 1) as f64),
        expected,
    })
}

/// The exact multinomial test of `counts` (one per category) against equal shares.
///
/// # Formula
/// Under the null every outcome y (k counts summing to the observed total N) has probability
/// P(y) = N! / (y₁! ··· y_k!) · k^(−N). The p-value is Σ P(y) over every outcome y with
/// P(y) ≤ P(observed) · (1 + 10⁻⁷): the "minimum likelihood" two-sided test. The relative
/// tolerance keeps outcomes whose probability equals the observed one in exact arithmetic but
/// not in floating point (for k = 3 and N = 8, (6, 1, 1) and (5, 3, 0) are equally likely:
/// 6!·1!·1! = 5!·3!·0!). The p-value is 1 when the counts differ by at most one (the observed
/// outcome is then among the most probable), and it is capped at 1.
///
/// # Computation
/// P(y) depends only on the multiset of the counts, so the outcomes are enumerated as sorted
/// k-tuples (partitions of N into at most k parts), each weighted by the number of its
/// distinct orderings k! / Πⱼ mⱼ! (mⱼ: how many counts share the j-th value); ln y! comes from
/// [`special::ln_gamma`], and the sum is compensated (Neumaier). Within the limits
/// (N ≤ [`EXACT_MAX_TOTAL`], k ≤ [`EXACT_MAX_CATEGORIES`]) that is at most 4.8 million
/// partitions (N = 200, k = 6), under a second even unoptimised.
///
/// # Errors
/// Fewer than 2 categories, every count zero, or a total above 200 or more than 6 categories
/// (use [`chi_square_equal`]).
///
/// # Reference
/// For k = 2, `scipy.stats.binomtest(x, n, 0.5).pvalue` (the same test); for k > 2, the
/// reference script enumerates every outcome with `scipy.stats.multinomial.pmf` and applies
/// the same rule (as R's `EMT::multinomial.test`).
pub fn multinomial_exact_equal(counts: &[u64]) -> Result<f64, NominalError> {
    check_categories("exact multinomial test", counts.len(), 2)?;
    let k = counts.len();
    let total: u128 = counts.iter().map(|&c| u128::from(c)).sum();
    if total == 0 {
        return Err(NominalError::NoObservations);
    }
    if total > u128::from(EXACT_MAX_TOTAL) || k > EXACT_MAX_CATEGORIES {
        return Err(NominalError::TooLargeForExact {
            total: u64::try_from(total).unwrap_or(u64::MAX),
            categories: k,
        });
    }
    // Both fit: total ≤ 200.
    let n = total as usize;
    let mut observed: Vec<usize> = counts.iter().map(|&c| c as usize).collect();
    observed.sort_unstable_by(|a, b| b.cmp(a));
    if observed[0] - observed[k - 1] <= 1 {
        return Ok(1.0);
    }
    let ln_factorial: Vec<f64> = (0..=n).map(|i| special::ln_gamma(i as f64 + 1.0)).collect();
    let ln_scale = ln_factorial[n] - n as f64 * (k as f64).ln_p();
    // Summed in descending order of the parts, for the observed outcome as for every
    // enumerated one, so that outcomes with the same multiset get the very same value.
    let ln_pmf = |parts: &[usize]| {
        let ln_denominator: f64 = parts.iter().map(|&y| ln_factorial[y]).sum();
        ln_scale - ln_denominator
    };
    let bound = ln_pmf(&observed).exp_p() * (1.0 + RELATIVE_TOLERANCE);
    let k_factorial: f64 = (1..=k).map(|i| i as f64).product();
    let (mut sum, mut carry) = (0.0, 0.0);
    let mut parts = Vec::with_capacity(k);
    for_each_partition(n, n, k, &mut parts, &mut |parts| {
        let pmf = ln_pmf(parts).exp_p();
        if pmf <= bound {
            add_compensated(&mut sum, &mut carry, orderings(parts, k_factorial) * pmf);
        }
    });
    Ok((sum + carry).min(1.0))
}

/// Calls `visit` with every non-increasing sequence of `slots` counts, each at most `largest`,
/// summing to `remaining`, appended to `parts`.
fn for_each_partition(
    remaining: usize,
    largest: usize,
    slots: usize,
    parts: &mut Vec<usize>,
    visit: &mut dyn FnMut(&[usize]),
) {
    if slots == 1 {
        // remaining ≤ largest: the callers below only leave what one part can hold.
        parts.push(remaining);
        visit(parts);
        parts.pop();
        return;
    }
    // The next part y must leave a remainder the other slots can hold with parts ≤ y:
    // remaining − y ≤ (slots − 1) y, i.e. y ≥ ⌈remaining / slots⌉.
    let smallest = remaining.div_ceil(slots);
    let mut y = remaining.min(largest);
    while y >= smallest {
        parts.push(y);
        for_each_partition(remaining - y, y, slots - 1, parts, visit);
        parts.pop();
        if y == 0 {
            break;
        }
        y -= 1;
    }
}

/// The number of distinct orderings of the sorted `parts`: k! / Πⱼ mⱼ! over runs of equal
/// values.
fn orderings(parts: &[usize], k_factorial: f64) -> f64 {
    let mut result = k_factorial;
    let mut run = 1.0;
    for w in parts.windows(2) {
        if w[0] == w[1] {
            run += 1.0;
            result /= run;
        } else {
            run = 1.0;
        }
    }
    result
}

// ---------------------------------------------------------------------------------------------
// Friedman
// ---------------------------------------------------------------------------------------------

/// The Friedman test of k systems ranked within n blocks, with Kendall's W.
#[derive(Debug, Clone, PartialEq)]
pub struct Friedman {
    /// The tie-corrected chi-square statistic (scipy's).
    pub statistic: f64,
    /// Degrees of freedom, k − 1.
    pub df: usize,
    /// P(χ²_df > statistic).
    pub p_value: f64,
    /// Blocks (rows).
    pub n: usize,
    /// The mean within-row rank of every column, in column order (1 = lowest value).
    pub mean_ranks: Vec<f64>,
    /// Kendall's W from the tie-corrected statistic: statistic / (n (k − 1)).
    pub kendall_w: f64,
    /// Kendall's W without the tie correction: 12 S / (n² (k³ − k)).
    pub kendall_w_uncorrected: f64,
    /// The tie correction C = 1 − Σ(t³ − t) / (n (k³ − k)) the uncorrected statistic was
    /// divided by (1 without ties).
    pub tie_correction: f64,
}

/// The Friedman test: do the k columns (systems) rank differently within the n rows (blocks:
/// annotators or items)?
///
/// # Formula
/// Each row is ranked on its own, 1 for the lowest value, tied values sharing the mean of
/// their ranks; Rⱼ is column j's rank sum and S = Σⱼ (Rⱼ − n(k + 1)/2)². With t the size of
/// each group of ties within a row (over all rows),
/// C = 1 − Σ(t³ − t) / (n (k³ − k)) and
/// statistic = 12 S / (n k (k + 1)) / C, df = k − 1, p = Q((k − 1)/2, statistic/2).
/// Kendall's W = statistic / (n (k − 1)); the uncorrected W = 12 S / (n² (k³ − k)) equals
/// C times it.
///
/// # Conventions
/// Rows may hold scores or ranks: ranks of ranks are the ranks, so both give the same result.
/// A higher mean rank is a higher value; if the input is ranks with 1 = best, a *lower* mean
/// rank is better. The statistic is scipy's tie-corrected one, and so [`Friedman::kendall_w`]
/// is the tie-corrected W (it can differ from the textbook W computed from S when rows have
/// ties; [`Friedman::kendall_w_uncorrected`] is that one). Rows with every value equal carry
/// no ranking information but count in n, as in scipy. scipy refuses fewer than 3 columns,
/// and so does this function: for two systems use the paired tests of
/// [`super::paired`].
///
/// # Errors
/// No rows, rows of different lengths, fewer than 3 columns, a value that is not finite, or
/// every row one complete tie (C = 0: the statistic is undefined).
///
/// # Reference
/// `scipy.stats.friedmanchisquare(*columns)` (`statistic`, `pvalue`); Kendall's W from its
/// statistic; mean ranks and S from `scipy.stats.rankdata` within rows.
pub fn friedman(ranks_or_scores: &[Vec<f64>]) -> Result<Friedman, NominalError> {
    const WHAT: &str = "Friedman test";
    let k = check_rectangular(WHAT, ranks_or_scores)?;
    check_categories(WHAT, k, 3)?;
    for (row, values) in ranks_or_scores.iter().enumerate() {
        if let Some(column) = values.iter().position(|v| !v.is_finite()) {
            return Err(NominalError::NotFinite {
                what: "ranks_or_scores",
                row,
                column,
                value: values[column],
            });
        }
    }
    let n = ranks_or_scores.len();
    let (nf, kf) = (n as f64, k as f64);
    let mut rank_sums = vec![0.0; k];
    let mut ties = 0.0;
    for values in ranks_or_scores {
        let (ranks, groups) = average_ranks(values);
        for (sum, r) in rank_sums.iter_mut().zip(&ranks) {
            *sum += r;
        }
        ties += groups
            .iter()
            .map(|&t| {
                let t = t as f64;
                t * t * t - t
            })
            .sum::<f64>();
    }
    let k3 = kf * kf * kf - kf;
    let tie_correction = 1.0 - ties / (nf * k3);
    if tie_correction <= 0.0 {
        return Err(NominalError::AllRowsTied { rows: n });
    }
    let centre = nf * (kf + 1.0) / 2.0;
    let s: f64 = rank_sums.iter().map(|r| (r - centre) * (r - centre)).sum();
    let statistic = 12.0 * s / (nf * kf * (kf + 1.0)) / tie_correction;
    Ok(Friedman {
        statistic,
        df: k - 1,
        p_value: special::chi2_sf(statistic, kf - 1.0),
        n,
        mean_ranks: rank_sums.iter().map(|r| r / nf).collect(),
        kendall_w: statistic / (nf * (kf - 1.0)),
        kendall_w_uncorrected: 12.0 * s / (nf * nf * k3),
        tie_correction,
    })
}

// ---------------------------------------------------------------------------------------------
// Yes/no judgements on the same items
// ---------------------------------------------------------------------------------------------

/// The exact McNemar test of two systems' yes/no judgements on the same items.
///
/// # Formula
/// Of the items, b were "yes" for the first system and "no" for the second, c the reverse
/// (the discordant pairs; the concordant ones do not enter). Under the null the discordant
/// pairs split as X ~ Binomial(b + c, ½), and
/// p = min(1, 2 · P(X ≤ min(b, c))), with P(X ≤ m) = I_{½}(b + c − m, m + 1)
/// ([`special::beta_inc`]); p = 1 when b = c.
///
/// # Errors
/// No discordant pairs (b = c = 0): statsmodels returns p = 1 there, but there is nothing to
/// test, as the signed-rank test of [`super::paired`] refuses all-zero differences.
///
/// # Reference
/// `statsmodels.stats.contingency_tables.mcnemar([[a, b], [c, d]], exact=True).pvalue`, for
/// any a and d.
pub fn mcnemar_exact(b: u64, c: u64) -> Result<f64, NominalError> {
    if b == 0 && c == 0 {
        return Err(NominalError::NoDiscordantPairs);
    }
    if b == c {
        return Ok(1.0);
    }
    let (m, n) = (b.min(c) as f64, b as f64 + c as f64);
    Ok((2.0 * special::beta_inc(n - m, m + 1.0, 0.5)).min(1.0))
}

/// Cochran's Q test.
#[derive(Debug, Clone, PartialEq)]
pub struct CochranQ {
    /// Q.
    pub statistic: f64,
    /// Degrees of freedom, k − 1.
    pub df: usize,
    /// P(χ²_df > Q).
    pub p_value: f64,
    /// Blocks (rows).
    pub n: usize,
    /// The number of `true` in every column, in column order.
    pub successes: Vec<u64>,
}

/// Cochran's Q test: do k treatments (columns: systems) get "true" equally often over the same
/// n blocks (rows: items or annotators)?
///
/// # Formula
/// With Cⱼ the number of `true` in column j, Rᵢ that in row i and T = Σ Cⱼ = Σ Rᵢ:
/// Q = (k − 1)(k Σⱼ Cⱼ² − T²) / (k T − Σᵢ Rᵢ²), df = k − 1, p = Q((k − 1)/2, Q/2).
/// Numerator and denominator are computed exactly in integers.
///
/// # Conventions
/// Rows that are all true or all false add nothing to either side of the fraction (as in
/// every implementation); they count in n. For k = 2, Q is McNemar's chi-square without
/// continuity correction, (b − c)² / (b + c).
///
/// # Errors
/// No rows, rows of different lengths, fewer than 2 columns, or every row all true or all
/// false (Q = 0/0).
///
/// # Reference
/// `statsmodels.stats.contingency_tables.cochrans_q(x)` (`statistic`, `pvalue`).
pub fn cochrans_q(table: &[Vec<bool>]) -> Result<CochranQ, NominalError> {
    const WHAT: &str = "Cochran's Q";
    let k = check_rectangular(WHAT, table)?;
    check_categories(WHAT, k, 2)?;
    let mut successes = vec![0u64; k];
    let mut total: u128 = 0;
    let mut row_squares: u128 = 0;
    for row in table {
        let mut r: u128 = 0;
        for (count, &yes) in successes.iter_mut().zip(row) {
            if yes {
                *count += 1;
                r += 1;
            }
        }
        total += r;
        row_squares += r * r;
    }
    let kk = k as u128;
    let denominator = kk * total - row_squares;
    if denominator == 0 {
        return Err(NominalError::NoVariationWithinRows { rows: table.len() });
    }
    let column_squares: u128 = successes
        .iter()
        .map(|&c| u128::from(c) * u128::from(c))
        .sum();
    // k Σ Cⱼ² ≥ T² by Cauchy–Schwarz, so the numerator is not negative.
    let numerator = (kk - 1) * (kk * column_squares - total * total);
    let statistic = numerator as f64 / denominator as f64;
    Ok(CochranQ {
        statistic,
        df: k - 1,
        p_value: special::chi2_sf(statistic, (k - 1) as f64),
        n: table.len(),
        successes,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every outcome is visited once: the weighted probabilities of all outcomes sum to 1, and
    /// the number of orderings sums to the number of compositions C(N + k − 1, k − 1).
    #[test]
    fn partitions_cover_every_outcome() {
        for (n, k) in [(0, 2), (1, 3), (7, 2), (10, 3), (13, 4), (9, 6), (20, 5)] {
            let k_factorial: f64 = (1..=k).map(|i| i as f64).product();
            let mut compositions = 0.0;
            let mut probability = 0.0;
            let ln_norm = special::ln_gamma(n as f64 + 1.0) - n as f64 * (k as f64).ln_p();
            let mut parts = Vec::new();
            for_each_partition(n, n, k, &mut parts, &mut |parts| {
                assert_eq!(parts.len(), k);
                assert_eq!(parts.iter().sum::<usize>(), n);
                assert!(parts.windows(2).all(|w| w[0] >= w[1]), "{parts:?}");
                let w = orderings(parts, k_factorial);
                compositions += w;
                let ln: f64 = parts
                    .iter()
                    .map(|&y| special::ln_gamma(y as f64 + 1.0))
                    .sum();
                probability += w * (ln_norm - ln).exp_p();
            });
            let want: f64 = (1..k).map(|i| (n + i) as f64 / i as f64).product();
            assert_eq!(compositions.round(), want.round(), "N = {n}, k = {k}");
            assert!((probability - 1.0).abs() < 1e-12, "N = {n}, k = {k}");
        }
    }

    /// The largest case allowed runs, is a probability, and does not depend on the order of
    /// the categories.
    #[test]
    fn exact_test_at_its_limits() {
        let p = multinomial_exact_equal(&[40, 30, 35, 25, 38, 32]).unwrap();
        assert!(p > 0.0 && p < 1.0, "{p}");
        let q = multinomial_exact_equal(&[25, 32, 35, 40, 30, 38]).unwrap();
        assert_eq!(p, q);
        assert!(matches!(
            multinomial_exact_equal(&[40, 30, 35, 25, 38, 33]),
            Err(NominalError::TooLargeForExact {
                total: 201,
                categories: 6
            })
        ));
        assert!(matches!(
            multinomial_exact_equal(&[1, 1, 1, 1, 1, 1, 1]),
            Err(NominalError::TooLargeForExact {
                total: 7,
                categories: 7
            })
        ));
    }
}
