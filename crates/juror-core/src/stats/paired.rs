//! Paired comparisons of two systems rated on the same items.
//!
//! The functions that matter:
//! - [`describe`]: n, mean, SD (ddof = 1), median and a 95% t interval of one sample;
//! - [`bootstrap_mean`]: a seeded percentile bootstrap interval of the mean over items;
//! - [`wilcoxon`] (and [`wilcoxon_with`], [`wilcoxon_paired`]): the signed-rank test with
//!   scipy's conventions, returning a [`Wilcoxon`];
//! - [`holm`] and [`bonferroni`]: adjusted p-values over a family of tests;
//! - [`paired_effect`]: d_z, Hedges' g_z and the matched-pairs rank-biserial correlation;
//! - [`t_test`] and [`d_z_interval`]: the paired t-test and the interval of d_z.
//!
//! The distribution functions come from [`super::special`], the mean, SD, median and ranks from
//! [`super::describe`]; the trends over rounds, which share [`PairedError`], are in
//! [`super::trend`].
//!
//! Conventions: a *difference* is `x[i] - y[i]` (system x minus system y on item i); every
//! input must be finite; an input that cannot give the statistic is a [`PairedError`] saying
//! what to do, never NaN and never a panic. A sub-statistic that is undefined for valid input
//! (the rank-biserial correlation when every difference is zero) is `None`.
//!
//! Every function is tested against scipy and statsmodels (versions in the reference file) at
//! 1e-9, on scipy's documented Wilcoxon example, seeded random data and SummEval's expert
//! ratings: `crates/juror-core/tests/it/paired.rs` reads
//! `crates/juror-core/tests/reference/paired/reference.json`, written by `make_reference.py`
//! beside it.

use std::fmt;

use super::describe::{Interval, average_ranks, mean, median, quantile_sorted, sd};
use super::special;
use crate::base::rng::Stream;

/// Why a paired statistic could not be computed. Each says where and what to do.
#[derive(Debug, Clone, PartialEq)]
pub enum PairedError {
    /// Fewer values than the statistic needs.
    TooFew {
        what: &'static str,
        needed: usize,
        got: usize,
    },
    /// A value is NaN or infinite.
    NotFinite {
        what: &'static str,
        /// Position in the input, from 0.
        index: usize,
        value: f64,
    },
    /// Two samples that must be paired have different lengths.
    LengthMismatch { x: usize, y: usize },
    /// Every value is the same, so the statistic divides by zero.
    NoSpread { what: &'static str },
    /// Every paired difference is zero: the signed-rank test has nothing to rank.
    AllZero { n: usize },
    /// A p-value to adjust is outside [0, 1].
    BadProbability { index: usize, value: f64 },
    /// A confidence level outside (0, 1).
    BadLevel { level: f64 },
    /// A bootstrap with no resamples.
    NoResamples,
}

impl fmt::Display for PairedError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PairedError::TooFew { what, needed, got } => write!(
                f,
                "{what}: needs at least {needed} values, got {got}; collect more items"
            ),
            PairedError::NotFinite { what, index, value } => write!(
                f,
                "{what}[{index}] is {value}; remove or fix the value (every input must be finite)"
            ),
            PairedError::LengthMismatch { x, y } => write!(
                f,
                "paired samples differ in length ({x} and {y}); pair every item's two ratings"
            ),
            PairedError::NoSpread { what } => write!(
                f,
                "{what}: every value is the same, so the statistic is undefined"
            ),
            PairedError::AllZero { n } => write!(
                f,
                "all {n} differences are zero: the two systems were rated the same on every item, \
                 there is nothing to test"
            ),
            PairedError::BadProbability { index, value } => write!(
                f,
                "p-values[{index}] is {value}; a p-value must be in [0, 1]"
            ),
            PairedError::BadLevel { level } => write!(
                f,
                "confidence level {level} is not in (0, 1); use e.g. 0.95"
            ),
            PairedError::NoResamples => write!(f, "a bootstrap needs at least one resample"),
        }
    }
}

impl std::error::Error for PairedError {}

fn check_finite(what: &'static str, xs: &[f64]) -> Result<(), PairedError> {
    match xs.iter().position(|x| !x.is_finite()) {
        Some(index) => Err(PairedError::NotFinite {
            what,
            index,
            value: xs[index],
        }),
        None => Ok(()),
    }
}

pub(crate) fn check_len(what: &'static str, xs: &[f64], needed: usize) -> Result<(), PairedError> {
    if xs.len() < needed {
        return Err(PairedError::TooFew {
            what,
            needed,
            got: xs.len(),
        });
    }
    check_finite(what, xs)
}

fn check_level(level: f64) -> Result<(), PairedError> {
    if level > 0.0 && level < 1.0 {
        Ok(())
    } else {
        Err(PairedError::BadLevel { level })
    }
}

// Descriptives and intervals of the mean
// ---------------------------------------------------------------------------------------------

/// Descriptive statistics of one sample.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Descriptives {
    pub n: usize,
    pub mean: f64,
    /// Sample standard deviation, ddof = 1.
    pub sd: f64,
    pub median: f64,
    /// The 95% t interval of the mean.
    pub ci95: Interval,
}

/// n, mean, SD, median and the 95% t-based confidence interval of the mean.
///
/// # Formula
/// mean = Σx / n; SD = √(Σ(x − mean)² / (n − 1)); median = the middle value, or the mean of
/// the two middle values when n is even; CI = mean ± t₀.₉₇₅,ₙ₋₁ · SD / √n, with the t quantile
/// from [`special::t_quantile`].
///
/// # Errors
/// Fewer than 2 values (no SD), or a value that is not finite.
///
/// # Reference
/// numpy `mean`, `std(ddof=1)`, `median`; `scipy.stats.t.interval(0.95, n - 1, mean, sem)`.
pub fn describe(xs: &[f64]) -> Result<Descriptives, PairedError> {
    check_len("sample", xs, 2)?;
    let n = xs.len();
    let m = mean(xs);
    let s = sd(xs);
    let half = special::t_quantile(0.975, (n - 1) as f64) * s / (n as f64).sqrt();
    Ok(Descriptives {
        n,
        mean: m,
        sd: s,
        median: median(xs),
        ci95: Interval {
            low: m - half,
            high: m + half,
        },
    })
}

/// A bootstrap interval of the mean.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BootstrapInterval {
    /// The mean of the sample itself.
    pub mean: f64,
    pub interval: Interval,
    pub level: f64,
    pub resamples: usize,
}

/// Percentile bootstrap confidence interval of the mean over items, reproducible from `seed`.
///
/// # Formula
/// For each resample r in 0..`resamples`, the stream
/// `Stream::new(seed, "bootstrap", r, 0)` ([`crate::base::rng`]) draws n indices in order with
/// `below(n)`; the resample's mean is the sum of the drawn values, in draw order, divided by n.
/// With α = 1 − `level`, the interval is the α/2 and 1 − α/2 quantiles of the sorted resample
/// means, by linear interpolation between order statistics (numpy's default quantile).
///
/// The percentile interval is the simplest bootstrap interval; it is not bias-corrected (BCa)
/// and under-covers for small n and skewed data. Use 2000 or more resamples.
///
/// The draws depend only on the seed, n and the number of resamples, so the last ones made are
/// kept (per thread, up to 4 million indices) for the next call with the same three: a report
/// bootstraps every system of every dimension over the same items. The results are exactly
/// those of drawing afresh.
///
/// # Errors
/// An empty sample, a value that is not finite, no resamples, or a level outside (0, 1).
///
/// # Reference
/// The reference script re-implements the stream in Python (`juror_stream.py`) and takes
/// `numpy.quantile` of `numpy.mean` over the same resamples.
pub fn bootstrap_mean(
    xs: &[f64],
    level: f64,
    resamples: usize,
    seed: u64,
) -> Result<BootstrapInterval, PairedError> {
    check_len("sample", xs, 1)?;
    check_level(level)?;
    if resamples == 0 {
        return Err(PairedError::NoResamples);
    }
    let mut means = resample_means(xs, resamples, seed);
    means.sort_by(f64::total_cmp);
    let alpha = 1.0 - level;
    Ok(BootstrapInterval {
        mean: mean(xs),
        interval: Interval {
            low: quantile_sorted(&means, alpha / 2.0),
            high: quantile_sorted(&means, 1.0 - alpha / 2.0),
        },
        level,
        resamples,
    })
}

/// The bootstrap's draws for one (seed, n, resamples): `resamples` rows of n indices, row r the
/// first n draws of `below(n)` from `Stream::new(seed, "bootstrap", r, 0)`.
struct Draws {
    seed: u64,
    n: usize,
    resamples: usize,
    indices: Vec<u32>,
}

/// Draws kept for reuse up to this many indices (16 MB): 2000 resamples of 2000 items.
const KEPT_DRAWS: usize = 4_000_000;

std::thread_local! {
    /// The last draws made, reused by the next call with the same seed, n and resamples.
    static LAST_DRAWS: std::cell::RefCell<Option<Draws>> = const { std::cell::RefCell::new(None) };
}

/// The mean of each resample of `xs`, in resample order, each the sum of the drawn values in
/// draw order divided by n (the specification of [`bootstrap_mean`]).
///
/// A report bootstraps every system on every dimension with the same seed over the same number
/// of items, and so draws the very same indices again and again; drawing them (ChaCha20) is
/// most of the bootstrap's time. The indices of the last call are therefore kept (per thread,
/// when there are at most [`KEPT_DRAWS`] of them) and reused when the seed, n and the number of
/// resamples are the same. The indices, the order of the sums and so every result are exactly
/// those of drawing afresh.
fn resample_means(xs: &[f64], resamples: usize, seed: u64) -> Vec<f64> {
    let n = xs.len();
    let mean_of = |indices: &[u32]| {
        let sum: f64 = indices.iter().map(|&i| xs[i as usize]).sum();
        sum / n as f64
    };
    let draw = |r: usize, out: &mut Vec<u32>| {
        let mut stream = Stream::new(seed, "bootstrap", r as u64, 0);
        // n fits in u32 here (checked by the caller), so every index does.
        out.extend((0..n).map(|_| stream.below(n) as u32));
    };
    if n > u32::MAX as usize || n.saturating_mul(resamples) > KEPT_DRAWS {
        let mut row = Vec::with_capacity(n);
        return (0..resamples)
            .map(|r| {
                row.clear();
                draw(r, &mut row);
                mean_of(&row)
            })
            .collect();
    }
    LAST_DRAWS.with(|cell| {
        let mut last = cell.borrow_mut();
        let reusable = last
            .as_ref()
            .is_some_and(|d| d.seed == seed && d.n == n && d.resamples == resamples);
        if !reusable {
            let mut indices = Vec::with_capacity(n * resamples);
            for r in 0..resamples {
                draw(r, &mut indices);
            }
            *last = Some(Draws {
                seed,
                n,
                resamples,
                indices,
            });
        }
        let draws = last.as_ref().map_or(&[][..], |d| &d.indices[..]);
        draws.chunks_exact(n).map(mean_of).collect()
    })
}

// ---------------------------------------------------------------------------------------------
// Wilcoxon signed-rank test
// ---------------------------------------------------------------------------------------------

/// How the caller wants the signed-rank p-value computed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WilcoxonMethod {
    /// scipy's `method="auto"` (see [`wilcoxon`]).
    Auto,
    /// The exact null distribution of W+ given the observed ranks: the classical exact
    /// distribution without ties or zeros, else the exact sign-flip (permutation)
    /// distribution of the tied ranks. Any n, at a cost of O(n³) time and O(n²) memory (a
    /// few milliseconds at n = 200); up to 53 non-zero differences every probability is an
    /// exact dyadic fraction, above that it is accurate to rounding.
    Exact,
    /// The normal approximation with tie correction and no continuity correction.
    Normal,
}

/// Which null distribution gave the p-value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WilcoxonDistribution {
    /// Exact distribution of W+ over 2ⁿ sign patterns of ranks 1..n (no ties, no zeros).
    Exact,
    /// Exact distribution of W+ over the 2ⁿ sign patterns of the observed (tied) ranks,
    /// as scipy's `PermutationMethod` computes it when n ≤ 13.
    Permutation,
    /// Normal approximation.
    Normal,
}

/// The alternative hypothesis of a paired test, about the differences a − b (scipy's
/// `alternative`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Alternative {
    /// The differences are not centred on the null value.
    #[default]
    TwoSided,
    /// They are centred above it (a > b).
    Greater,
    /// They are centred below it (a < b).
    Less,
}

impl Alternative {
    /// The relation of A to B it asserts: `≠`, `>` or `<`.
    pub fn relation(self) -> &'static str {
        match self {
            Alternative::TwoSided => "≠",
            Alternative::Greater => ">",
            Alternative::Less => "<",
        }
    }
}

/// Result of a Wilcoxon signed-rank test.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Wilcoxon {
    /// min(W+, W−), as scipy reports for a two-sided test.
    pub statistic: f64,
    /// Sum of the ranks of |d| over positive differences.
    pub w_plus: f64,
    /// Sum of the ranks of |d| over negative differences.
    pub w_minus: f64,
    /// Two-sided p-value.
    pub p_value: f64,
    /// Differences used: the non-zero ones.
    pub n: usize,
    /// Zero differences dropped.
    pub zeros: usize,
    /// Whether some non-zero |d| are tied.
    pub ties: bool,
    pub distribution: WilcoxonDistribution,
    /// (W+ − n(n+1)/4) / σ, for the normal approximation only (signed; scipy reports −|z|).
    pub z: Option<f64>,
}

/// Wilcoxon signed-rank test of paired differences, with scipy's default conventions.
///
/// Same as [`wilcoxon_with`]`(diffs, WilcoxonMethod::Auto)`.
pub fn wilcoxon(diffs: &[f64]) -> Result<Wilcoxon, PairedError> {
    wilcoxon_with(diffs, WilcoxonMethod::Auto)
}

/// [`wilcoxon`] of the differences `x[i] - y[i]`.
pub fn wilcoxon_paired(x: &[f64], y: &[f64]) -> Result<Wilcoxon, PairedError> {
    wilcoxon(&differences(x, y)?)
}

/// The paired differences `x[i] - y[i]`.
///
/// # Errors
/// Lengths differ, or a value is not finite.
pub fn differences(x: &[f64], y: &[f64]) -> Result<Vec<f64>, PairedError> {
    if x.len() != y.len() {
        return Err(PairedError::LengthMismatch {
            x: x.len(),
            y: y.len(),
        });
    }
    check_finite("x", x)?;
    check_finite("y", y)?;
    Ok(x.iter().zip(y).map(|(a, b)| a - b).collect())
}

/// Wilcoxon signed-rank test of paired differences, two-sided.
///
/// # Formula
/// Zeros are dropped (`zero_method="wilcox"`); the m remaining |d| get average ranks; W+ and W−
/// are the rank sums of the positive and negative differences; the statistic is min(W+, W−).
/// - Exact: p = min(1, 2 · min(P(W+ ≤ w), P(W+ ≥ w))) under the null where each rank's sign
///   is + or − with probability ½ independently (computed by dynamic programming over doubled
///   ranks, which are integers even with ties).
/// - Normal: z = (W+ − m(m+1)/4) / σ with σ² = (m(m+1)(2m+1) − Σ(t³ − t)/2) / 24 over groups
///   of t tied |d|; p = 2 · (1 − Φ(|z|)). No continuity correction (scipy's default
///   `correction=False`).
///
/// # Conventions
/// `WilcoxonMethod::Auto` follows `scipy.stats.wilcoxon(d)` of scipy 1.15 and later (scipy
/// PR 21567; the reference was made with the version recorded in the reference file). With N
/// the number of differences *including zeros*:
/// - N > 50: normal approximation;
/// - N ≤ 50, no zeros, no ties: exact distribution;
/// - N ≤ 13 with ties or zeros: the exact permutation distribution of the tied ranks (scipy
///   runs `permutation_test`, which enumerates all 2ᴺ sign flips because 2¹³ is below its
///   9999 resamples, so its p-value is deterministic and equal to this one);
/// - 13 < N ≤ 50 with ties or zeros: normal approximation (the exact table assumes untied
///   integer ranks, so scipy switches, and so do we).
///
/// Ties and zeros at small N are where versions differ: scipy 1.9–1.14 switched to the normal
/// approximation (with a warning) at every N ≤ 50; ask for `WilcoxonMethod::Normal` to get
/// that p-value. The permutation p-value is the better one: at N ≤ 13 the normal
/// approximation can be off by a factor of two (N = 8 in the reference: 0.625 exact, 0.317
/// normal).
///
/// # Errors
/// An empty input, a value that is not finite, or every difference zero.
///
/// # Reference
/// `scipy.stats.wilcoxon(d)` (all defaults), `method="asymptotic"` and `method="exact"`, and
/// `permutation_test` with every sign flip, including the example of scipy's documentation
/// (Darwin's cross- and self-fertilized corn from Wilcoxon 1945, n = 15: W = 24,
/// p = 0.041259765625 exact, 0.04088813291185591 normal).
pub fn wilcoxon_with(diffs: &[f64], method: WilcoxonMethod) -> Result<Wilcoxon, PairedError> {
    check_len("differences", diffs, 1)?;
    let nonzero: Vec<f64> = diffs.iter().copied().filter(|d| *d != 0.0).collect();
    let m = nonzero.len();
    if m == 0 {
        return Err(PairedError::AllZero { n: diffs.len() });
    }
    let zeros = diffs.len() - m;
    let abs: Vec<f64> = nonzero.iter().map(|d| d.abs()).collect();
    let (ranks, groups) = average_ranks(&abs);
    let ties = groups.iter().any(|&t| t > 1);
    // From 0.0: a sum of no floats is -0.0.
    let w_plus: f64 = nonzero
        .iter()
        .zip(&ranks)
        .filter(|(d, _)| **d > 0.0)
        .map(|(_, r)| r)
        .fold(0.0, |sum, r| sum + r);
    let w_minus: f64 = nonzero
        .iter()
        .zip(&ranks)
        .filter(|(d, _)| **d < 0.0)
        .map(|(_, r)| r)
        .fold(0.0, |sum, r| sum + r);

    let distribution = match method {
        WilcoxonMethod::Normal => WilcoxonDistribution::Normal,
        WilcoxonMethod::Exact if ties || zeros > 0 => WilcoxonDistribution::Permutation,
        WilcoxonMethod::Exact => WilcoxonDistribution::Exact,
        WilcoxonMethod::Auto => {
            let n_all = diffs.len();
            if n_all > 50 {
                WilcoxonDistribution::Normal
            } else if !ties && zeros == 0 {
                WilcoxonDistribution::Exact
            } else if n_all <= 13 {
                WilcoxonDistribution::Permutation
            } else {
                WilcoxonDistribution::Normal
            }
        }
    };

    let (p_value, z) = match distribution {
        WilcoxonDistribution::Normal => {
            let mf = m as f64;
            let tie_sum: f64 = groups
                .iter()
                .map(|&t| {
                    let t = t as f64;
                    t * t * t - t
                })
                .sum();
            let sigma = ((mf * (mf + 1.0) * (2.0 * mf + 1.0) - tie_sum / 2.0) / 24.0).sqrt();
            let z = (w_plus - mf * (mf + 1.0) * 0.25) / sigma;
            (2.0 * special::normal_sf(z.abs()), Some(z))
        }
        WilcoxonDistribution::Exact | WilcoxonDistribution::Permutation => {
            (signed_rank_exact_p(&ranks, w_plus), None)
        }
    };

    Ok(Wilcoxon {
        statistic: w_plus.min(w_minus),
        w_plus,
        w_minus,
        p_value,
        n: m,
        zeros,
        ties,
        distribution,
        z,
    })
}

/// The p-value of the signed-rank test of `diffs` for `alternative`, with the same null
/// distribution as [`wilcoxon_with`] (which gives the two-sided one).
///
/// # Conventions
/// scipy's: for `Greater`, p = P(W+ ≥ w+) (exact or permutation) or 1 − Φ(z) (normal); for
/// `Less`, p = P(W+ ≤ w+) or Φ(z); z as in [`wilcoxon_with`], without continuity correction.
///
/// # Errors
/// As [`wilcoxon_with`].
///
/// # Reference
/// `scipy.stats.wilcoxon(d, alternative=...)` with `method="auto"`, `"exact"` and
/// `"asymptotic"` (`tests/reference/paired/alternatives.json`).
pub fn wilcoxon_p(
    diffs: &[f64],
    method: WilcoxonMethod,
    alternative: Alternative,
) -> Result<f64, PairedError> {
    let w = wilcoxon_with(diffs, method)?;
    if alternative == Alternative::TwoSided {
        return Ok(w.p_value);
    }
    let greater = alternative == Alternative::Greater;
    Ok(match (w.distribution, w.z) {
        (WilcoxonDistribution::Normal, Some(z)) => {
            if greater {
                special::normal_sf(z)
            } else {
                special::normal_cdf(z)
            }
        }
        _ => {
            let nonzero: Vec<f64> = diffs
                .iter()
                .filter(|d| **d != 0.0)
                .map(|d| d.abs())
                .collect();
            let (ranks, _) = average_ranks(&nonzero);
            let (le, ge) = signed_rank_tails(&ranks, w.w_plus);
            if greater { ge } else { le }
        }
    })
}

/// Result of a paired (one-sample) t-test.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TTest {
    /// t = (mean − μ₀) / (sd / √n).
    pub t: f64,
    /// Degrees of freedom, n − 1.
    pub df: f64,
    /// The p-value for the alternative asked.
    pub p_value: f64,
    /// The mean difference.
    pub mean: f64,
    /// Its standard error, sd / √n.
    pub se: f64,
    /// The two-sided 95% t interval of the mean difference.
    pub ci95: (f64, f64),
}

/// The paired t-test of differences `diffs` against the mean `mu0` (0 for "no difference"; the
/// negative margin for a non-inferiority test with `Alternative::Greater`).
///
/// # Formula
/// t = (d̄ − μ₀) / (s / √n) with s the sample SD (n − 1), df = n − 1; p = 2·P(T ≥ |t|),
/// P(T ≥ t) or P(T ≤ t) for the two-sided, greater and less alternatives; the interval is
/// d̄ ± t₀.₉₇₅,df · s / √n whatever the alternative.
///
/// # Errors
/// Fewer than two differences, a value that is not finite, or no spread (every difference the
/// same: t is undefined).
///
/// # Reference
/// `scipy.stats.ttest_1samp(d, popmean=mu0, alternative=...)` (equal to `ttest_rel(a, b)` on
/// d = a − b) and `scipy.stats.t.interval(0.95, n - 1, loc=d̄, scale=s/√n)`
/// (`tests/reference/paired/alternatives.json`).
pub fn t_test(diffs: &[f64], mu0: f64, alternative: Alternative) -> Result<TTest, PairedError> {
    check_len("differences", diffs, 2)?;
    check_finite("differences", diffs)?;
    let d = describe(diffs)?;
    let sd = d.sd;
    if sd.partial_cmp(&0.0) != Some(std::cmp::Ordering::Greater) {
        return Err(PairedError::NoSpread {
            what: "differences",
        });
    }
    let n = diffs.len() as f64;
    let se = sd / n.sqrt();
    let df = n - 1.0;
    let t = (d.mean - mu0) / se;
    let p_value = match alternative {
        Alternative::TwoSided => (2.0 * special::t_sf(t.abs(), df)).min(1.0),
        Alternative::Greater => special::t_sf(t, df),
        Alternative::Less => special::t_cdf(t, df),
    };
    let q = special::t_quantile(0.975, df);
    Ok(TTest {
        t,
        df,
        p_value,
        mean: d.mean,
        se,
        ci95: (d.mean - q * se, d.mean + q * se),
    })
}

/// P(W+ ≤ w) and P(W+ ≥ w) under random signs of `ranks` (each a multiple of ½).
fn signed_rank_tails(ranks: &[f64], w_plus: f64) -> (f64, f64) {
    // Doubled ranks are integers; pmf[s] = P(2·W+ = s), built one rank at a time by halving,
    // which keeps every value an exact dyadic fraction while the counts fit 53 bits.
    let doubled: Vec<usize> = ranks.iter().map(|r| (2.0 * r).round() as usize).collect();
    let total: usize = doubled.iter().sum();
    let mut pmf = vec![0.0; total + 1];
    pmf[0] = 1.0;
    let mut reach = 0;
    for &k in &doubled {
        reach += k;
        for s in (0..=reach).rev() {
            let with = if s >= k { pmf[s - k] } else { 0.0 };
            pmf[s] = 0.5 * (pmf[s] + with);
        }
    }
    let observed = (2.0 * w_plus).round() as usize;
    let le: f64 = pmf[..=observed].iter().sum();
    let ge: f64 = pmf[observed..].iter().sum();
    (le, ge)
}

/// Two-sided p-value of W+ = `w_plus` under random signs of `ranks` (each a multiple of ½).
fn signed_rank_exact_p(ranks: &[f64], w_plus: f64) -> f64 {
    let (le, ge) = signed_rank_tails(ranks, w_plus);
    (2.0 * le.min(ge)).min(1.0)
}

// ---------------------------------------------------------------------------------------------
// Multiple comparisons
// ---------------------------------------------------------------------------------------------

fn check_probabilities(ps: &[f64]) -> Result<(), PairedError> {
    match ps.iter().position(|p| !(0.0..=1.0).contains(p)) {
        Some(index) => Err(PairedError::BadProbability {
            index,
            value: ps[index],
        }),
        None => Ok(()),
    }
}

/// Bonferroni-adjusted p-values, in the input's order.
///
/// # Formula
/// p̃ᵢ = min(1, m · pᵢ) over m p-values.
///
/// # Errors
/// A p-value outside [0, 1] (or NaN).
///
/// # Reference
/// `statsmodels.stats.multitest.multipletests(p, method="bonferroni")[1]`.
pub fn bonferroni(ps: &[f64]) -> Result<Vec<f64>, PairedError> {
    check_probabilities(ps)?;
    let m = ps.len() as f64;
    Ok(ps.iter().map(|p| (p * m).min(1.0)).collect())
}

/// Holm (step-down Bonferroni) adjusted p-values, in the input's order.
///
/// # Formula
/// With p₍₁₎ ≤ … ≤ p₍ₘ₎ sorted, p̃₍ᵢ₎ = min(1, maxⱼ≤ᵢ (m − j + 1) p₍ⱼ₎): monotone in the sorted
/// order, capped at 1. Tied p-values get the same adjusted value whatever their order.
///
/// # Errors
/// A p-value outside [0, 1] (or NaN).
///
/// # Reference
/// `statsmodels.stats.multitest.multipletests(p, method="holm")[1]`.
pub fn holm(ps: &[f64]) -> Result<Vec<f64>, PairedError> {
    check_probabilities(ps)?;
    let m = ps.len();
    let mut order: Vec<usize> = (0..m).collect();
    order.sort_by(|&i, &j| ps[i].total_cmp(&ps[j]));
    let mut adjusted = vec![0.0; m];
    let mut running = 0.0_f64;
    for (rank, &i) in order.iter().enumerate() {
        running = running.max(ps[i] * (m - rank) as f64);
        adjusted[i] = running.min(1.0);
    }
    Ok(adjusted)
}

// ---------------------------------------------------------------------------------------------
// Effect sizes
// ---------------------------------------------------------------------------------------------

/// Effect sizes of paired differences.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PairedEffect {
    /// Number of differences (zeros included).
    pub n: usize,
    pub mean_diff: f64,
    /// SD of the differences, ddof = 1.
    pub sd_diff: f64,
    /// Cohen's d_z = mean / SD of the differences.
    pub d_z: f64,
    /// The small-sample correction J = 1 − 3 / (4(n − 1) − 1).
    pub j: f64,
    /// Hedges' g_z = J · d_z.
    pub g_z: f64,
    /// Matched-pairs rank-biserial correlation (W+ − W−) / (W+ + W−), zeros dropped; `None`
    /// when every difference is zero.
    pub rank_biserial: Option<f64>,
}

/// d_z, Hedges' g_z and the matched-pairs rank-biserial correlation of paired differences.
///
/// # Formula
/// - d_z = mean(d) / SD(d), SD with ddof = 1, over all n differences (zeros included).
/// - g_z = J · d_z with J = 1 − 3 / (4·df − 1) and df = n − 1, the degrees of freedom of the
///   SD of the differences: Hedges' (1981) approximation to the exact correction
///   Γ(df/2) / (√(df/2) Γ((df − 1)/2)), within 0.3% of it from n = 5 on. At n = 10,
///   J = 1 − 3/35.
/// - r = (W+ − W−) / (W+ + W−) with W± the signed-rank sums of [`wilcoxon`] (zeros dropped,
///   average ranks for ties); Kerby (2014), "simple difference formula". Positive when x tends
///   to be rated above y.
///
/// # Errors
/// Fewer than 3 differences (J is 0 at n = 2), a value that is not finite, or no spread
/// (every difference equal).
///
/// # Reference
/// The reference script computes the same formulas with numpy and `scipy.stats.rankdata`.
pub fn paired_effect(diffs: &[f64]) -> Result<PairedEffect, PairedError> {
    check_len("differences", diffs, 3)?;
    let n = diffs.len();
    let m = mean(diffs);
    let s = sd(diffs);
    if s == 0.0 {
        return Err(PairedError::NoSpread {
            what: "differences",
        });
    }
    let d_z = m / s;
    let df = (n - 1) as f64;
    let j = 1.0 - 3.0 / (4.0 * df - 1.0);
    let rank_biserial = wilcoxon(diffs)
        .ok()
        .map(|w| (w.w_plus - w.w_minus) / (w.w_plus + w.w_minus));
    Ok(PairedEffect {
        n,
        mean_diff: m,
        sd_diff: s,
        d_z,
        j,
        g_z: j * d_z,
        rank_biserial,
    })
}

/// The 95% confidence interval of d_z, from the noncentral t.
///
/// # Formula
/// With t = mean(d) / (SD(d) / √n) and df = n − 1, the interval of the noncentrality δ is
/// [δ_L, δ_U] with P(T ≤ t; df, δ_L) = 0.975 and P(T ≤ t; df, δ_U) = 0.025 (the
/// distribution function falls as δ grows), and d_z's is [δ_L / √n, δ_U / √n]: Steiger and
/// Fouladi (1997), as in MBESS's `ci.sm` and Cumming's ESCI. Each bound is found by bisection
/// on a bracket grown from t, to 10⁻¹² in δ.
///
/// # Errors
/// As [`paired_effect`]: fewer than 3 differences, a value that is not finite, or no spread.
///
/// # Reference
/// `scipy.optimize.brentq` on `scipy.stats.nct.cdf`
/// (`tests/reference/paired/make_plan_reference.py`).
pub fn d_z_interval(diffs: &[f64]) -> Result<(f64, f64), PairedError> {
    let e = paired_effect(diffs)?;
    let n = e.n as f64;
    let df = n - 1.0;
    let t = e.d_z * n.sqrt();
    let bound = |p: f64| {
        let g = |ncp: f64| special::nct_cdf(t, df, ncp) - p;
        let (mut lo, mut hi, mut step) = (t, t, 1.0);
        while g(lo) < 0.0 && step < 1e6 {
            lo -= step;
            step *= 2.0;
        }
        step = 1.0;
        while g(hi) > 0.0 && step < 1e6 {
            hi += step;
            step *= 2.0;
        }
        for _ in 0..200 {
            let mid = 0.5 * (lo + hi);
            if hi - lo <= 1e-12 * mid.abs().max(1.0) {
                break;
            }
            if g(mid) > 0.0 {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        0.5 * (lo + hi) / n.sqrt()
    };
    Ok((bound(0.975), bound(0.025)))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Reusing the last draws gives exactly what drawing afresh gives: each interval is
    /// computed once on a new thread (nothing kept yet) and again after other bootstraps with
    /// the same and with different seeds, sizes and numbers of resamples.
    #[test]
    fn reused_draws_give_the_same_intervals() {
        let a: Vec<f64> = (0..40).map(|i| f64::from(i * 7 % 13) / 3.0).collect();
        let b: Vec<f64> = (0..40).map(|i| f64::from(i * i % 11) - 2.5).collect();
        let c: Vec<f64> = (0..25).map(|i| f64::from(i % 5)).collect();
        let fresh = |xs: Vec<f64>, resamples: usize, seed: u64| {
            std::thread::spawn(move || bootstrap_mean(&xs, 0.95, resamples, seed).unwrap())
                .join()
                .unwrap()
        };
        let sequence = [
            (a.clone(), 500, 0),
            (b.clone(), 500, 0),
            (c.clone(), 500, 0),
            (b.clone(), 500, 0),
            (b.clone(), 499, 0),
            (a.clone(), 500, 1),
            (a.clone(), 500, 0),
        ];
        for (xs, resamples, seed) in sequence {
            let here = bootstrap_mean(&xs, 0.95, resamples, seed).unwrap();
            assert_eq!(here, fresh(xs, resamples, seed));
        }
    }
}
