//! Paired comparisons of two systems rated on the same items, and trends over rounds.
//!
//! The functions that matter:
//! - [`describe`]: n, mean, SD (ddof = 1), median and a 95% t interval of one sample;
//! - [`bootstrap_mean`]: a seeded percentile bootstrap interval of the mean over items;
//! - [`wilcoxon`] (and [`wilcoxon_with`], [`wilcoxon_paired`]): the signed-rank test with
//!   scipy's conventions, returning a [`Wilcoxon`];
//! - [`holm`] and [`bonferroni`]: adjusted p-values over a family of tests;
//! - [`paired_effect`]: d_z, Hedges' g_z and the matched-pairs rank-biserial correlation;
//! - [`linregress`], [`spearman`] and [`trend`]: the slope of ratings over rounds;
//! - [`special`]: the distribution functions all of the above (and
//!   [`super::preference`]) are built on, written here so that the core has no numerical
//!   dependency.
//!
//! Conventions: a *difference* is `x[i] - y[i]` (system x minus system y on item i); every
//! input must be finite; an input that cannot give the statistic is a [`PairedError`] saying
//! what to do, never NaN and never a panic. A sub-statistic that is undefined for valid input
//! (Spearman's rho of a constant series, the rank-biserial correlation when every difference
//! is zero) is `None`.
//!
//! Every function is tested against scipy and statsmodels (versions in the reference file) at
//! 1e-9, on scipy's documented Wilcoxon example, seeded random data and SummEval's expert
//! ratings: `crates/juror-core/tests/paired.rs` reads
//! `crates/juror-core/tests/reference/paired/reference.json`, written by `make_reference.py`
//! beside it.

use std::fmt;

use crate::rng::Stream;

/// A two-sided interval `[low, high]`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Interval {
    pub low: f64,
    pub high: f64,
}

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

fn check_len(what: &'static str, xs: &[f64], needed: usize) -> Result<(), PairedError> {
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

fn mean(xs: &[f64]) -> f64 {
    xs.iter().sum::<f64>() / xs.len() as f64
}

/// Sample standard deviation with ddof = 1 (two passes: mean, then squared deviations).
fn sd(xs: &[f64]) -> f64 {
    let m = mean(xs);
    let ss: f64 = xs.iter().map(|x| (x - m) * (x - m)).sum();
    (ss / (xs.len() - 1) as f64).sqrt()
}

fn median(xs: &[f64]) -> f64 {
    let mut v = xs.to_vec();
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

/// Average ranks (1-based; tied values share the mean of their ranks), as
/// `scipy.stats.rankdata(method="average")`, and the sizes of the groups of ties.
pub(crate) fn average_ranks(xs: &[f64]) -> (Vec<f64>, Vec<usize>) {
    let mut order: Vec<usize> = (0..xs.len()).collect();
    order.sort_by(|&i, &j| xs[i].total_cmp(&xs[j]));
    let mut ranks = vec![0.0; xs.len()];
    let mut groups = Vec::new();
    let mut start = 0;
    while start < order.len() {
        let mut end = start + 1;
        while end < order.len() && xs[order[end]] == xs[order[start]] {
            end += 1;
        }
        // Ranks start..end (0-based) → mean of (start+1)..=end.
        let rank = (start + 1 + end) as f64 / 2.0;
        for &i in &order[start..end] {
            ranks[i] = rank;
        }
        groups.push(end - start);
        start = end;
    }
    (ranks, groups)
}

/// Linear interpolation between order statistics (numpy's default `method="linear"`,
/// Hyndman & Fan type 7): the quantile `q` of sorted `v` is at position `q (n - 1)`.
pub(crate) fn quantile_sorted(v: &[f64], q: f64) -> f64 {
    let h = q * (v.len() - 1) as f64;
    let lo = h.floor() as usize;
    let hi = (lo + 1).min(v.len() - 1);
    v[lo] + (h - lo as f64) * (v[hi] - v[lo])
}

// ---------------------------------------------------------------------------------------------
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
/// `Stream::new(seed, "bootstrap", r, 0)` ([`crate::rng`]) draws n indices in order with
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
/// `scipy.optimize.brentq` on `scipy.stats.nct.cdf` (`tests/reference/paired/make_dz_ci.py`).
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

// ---------------------------------------------------------------------------------------------
// Trends over rounds
// ---------------------------------------------------------------------------------------------

/// Ordinary least-squares fit of y on x.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LinearFit {
    pub n: usize,
    pub slope: f64,
    pub intercept: f64,
    /// Pearson's r.
    pub r: f64,
    /// Standard error of the slope.
    pub slope_se: f64,
    /// Two-sided p-value of the t test of slope = 0, df = n − 2.
    pub p_value: f64,
}

/// Ordinary least-squares slope of `y` on `x` with its standard error and p-value.
///
/// # Formula
/// With Sxx = mean((x − x̄)²), Sxy = mean((x − x̄)(y − ȳ)), Syy = mean((y − ȳ)²):
/// slope = Sxy / Sxx, intercept = ȳ − slope · x̄, r = Sxy / √(Sxx Syy) clipped to [−1, 1],
/// SE = √((1 − r²) Syy / Sxx / (n − 2)),
/// t = r √((n − 2) / ((1 − r + 10⁻²⁰)(1 + r + 10⁻²⁰))) and p = 2 P(T > |t|), T ~ t(n − 2).
///
/// # Errors
/// Fewer than 3 points (scipy reports SE 0 for two points; there is no SE), lengths differ,
/// a value that is not finite, x constant, or y constant (scipy returns r, SE and p as NaN;
/// the slope is then 0 with nothing to test).
///
/// # Reference
/// `scipy.stats.linregress(x, y)` (same formulas, including the 10⁻²⁰ guard).
pub fn linregress(x: &[f64], y: &[f64]) -> Result<LinearFit, PairedError> {
    const TINY: f64 = 1.0e-20;
    if x.len() != y.len() {
        return Err(PairedError::LengthMismatch {
            x: x.len(),
            y: y.len(),
        });
    }
    check_len("x", x, 3)?;
    check_len("y", y, 3)?;
    let n = x.len();
    let nf = n as f64;
    let (xm, ym) = (mean(x), mean(y));
    let sxx = x.iter().map(|a| (a - xm) * (a - xm)).sum::<f64>() / nf;
    let syy = y.iter().map(|b| (b - ym) * (b - ym)).sum::<f64>() / nf;
    let sxy = x
        .iter()
        .zip(y)
        .map(|(a, b)| (a - xm) * (b - ym))
        .sum::<f64>()
        / nf;
    if sxx == 0.0 {
        return Err(PairedError::NoSpread { what: "x" });
    }
    if syy == 0.0 {
        return Err(PairedError::NoSpread { what: "y" });
    }
    let r = (sxy / (sxx * syy).sqrt()).clamp(-1.0, 1.0);
    let slope = sxy / sxx;
    let df = nf - 2.0;
    let t = r * (df / ((1.0 - r + TINY) * (1.0 + r + TINY))).sqrt();
    Ok(LinearFit {
        n,
        slope,
        intercept: ym - slope * xm,
        r,
        slope_se: ((1.0 - r * r) * syy / sxx / df).sqrt(),
        p_value: 2.0 * special::t_sf(t.abs(), df),
    })
}

/// Spearman's rank correlation.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Spearman {
    pub n: usize,
    pub rho: f64,
    /// Two-sided p-value from the t approximation.
    pub p_value: f64,
}

/// Spearman's rho with its two-sided p-value; `None` when x or y is constant.
///
/// # Formula
/// rho = Pearson's r of the average ranks (ties share the mean rank);
/// t = rho √((n − 2) / ((1 + rho)(1 − rho))) and p = 2 P(T > |t|), T ~ t(n − 2) (p = 0 when
/// |rho| = 1).
///
/// # Errors
/// Fewer than 3 points, lengths differ, or a value that is not finite.
///
/// # Reference
/// `scipy.stats.spearmanr(x, y)`.
pub fn spearman(x: &[f64], y: &[f64]) -> Result<Option<Spearman>, PairedError> {
    if x.len() != y.len() {
        return Err(PairedError::LengthMismatch {
            x: x.len(),
            y: y.len(),
        });
    }
    check_len("x", x, 3)?;
    check_len("y", y, 3)?;
    let (rx, _) = average_ranks(x);
    let (ry, _) = average_ranks(y);
    let n = x.len();
    let (mx, my) = (mean(&rx), mean(&ry));
    let sxx: f64 = rx.iter().map(|a| (a - mx) * (a - mx)).sum();
    let syy: f64 = ry.iter().map(|b| (b - my) * (b - my)).sum();
    if sxx == 0.0 || syy == 0.0 {
        return Ok(None);
    }
    let sxy: f64 = rx.iter().zip(&ry).map(|(a, b)| (a - mx) * (b - my)).sum();
    let rho = (sxy / (sxx * syy).sqrt()).clamp(-1.0, 1.0);
    let df = (n - 2) as f64;
    let p_value = if rho.abs() == 1.0 {
        0.0
    } else {
        let t = rho * (df / ((rho + 1.0) * (1.0 - rho))).sqrt();
        2.0 * special::t_sf(t.abs(), df)
    };
    Ok(Some(Spearman { n, rho, p_value }))
}

/// The trend of ratings over rounds: the OLS fit and Spearman's rho.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Trend {
    pub fit: LinearFit,
    /// `None` when the ratings are constant.
    pub spearman: Option<Spearman>,
}

/// [`linregress`] and [`spearman`] of `ratings` on `rounds` (e.g. the trial's position in the
/// session), to see whether raters drift, tire or learn.
///
/// # Errors
/// As [`linregress`].
pub fn trend(rounds: &[f64], ratings: &[f64]) -> Result<Trend, PairedError> {
    Ok(Trend {
        fit: linregress(rounds, ratings)?,
        spearman: spearman(rounds, ratings)?,
    })
}

// ---------------------------------------------------------------------------------------------
// Special functions
// ---------------------------------------------------------------------------------------------

pub mod special {
    //! The special functions behind Juror's statistics, written out so that the core needs no
    //! numerical library.
    //!
    //! # Algorithms and accuracy
    //! - [`ln_gamma`]: Stirling's series with Bernoulli terms up to B₁₆ at z ≥ 10, reached by
    //!   the recurrence Γ(x + 1) = x Γ(x); the truncation error is below 2·10⁻¹⁸, so the error
    //!   is a few ulps of the result's magnitude (absolute ≲ 4·10⁻¹⁵ for x < 10, relative
    //!   ≲ 10⁻¹⁵ above). [`ln_beta`] takes ln Γ(a) − ln Γ(a + b) from the same series when the
    //!   larger argument is ≥ 10, so it does not subtract two large logarithms.
    //! - [`erfc`]: for x² < 1.5 the everywhere-positive series erf x = (2/√π) e^{−x²}
    //!   Σ 2ⁿx²ⁿ⁺¹/(1·3···(2n+1)) (Abramowitz & Stegun 7.1.6) and erfc = 1 − erf (erfc ≥ 0.08
    //!   there, so no cancellation); for x² ≥ 1.5 the continued fraction of Γ(½, x²)/Γ(½)
    //!   (A&S 6.5.31; Numerical Recipes §6.2 `gcf`) by the modified Lentz method, with e^{−x²}
    //!   split as e^{−hi}e^{−lo} (x² = hi + lo exactly, by a fused multiply-add). Relative error
    //!   ≲ 3·10⁻¹⁵. [`normal_cdf`] and [`normal_sf`] pass z/√2, whose rounding adds a relative
    //!   error of about z²·ε (1.3·10⁻¹⁴ at z = −20), as scipy's `ndtr` does.
    //! - [`beta_inc`]: the continued fraction for I_x(a, b) (Numerical Recipes §6.4 `betacf`,
    //!   modified Lentz, stopping when a step changes the value by less than one ulp), applied
    //!   to I_x(a, b) or 1 − I₁₋ₓ(b, a), whichever converges fast (x < (a+1)/(a+b+2)); the
    //!   prefactor xᵃ(1−x)ᵇ/(a B(a, b)) from [`ln_beta`]. Relative error ≲ 10⁻¹³ for moderate
    //!   parameters, but up to about ε·max(a, b) when x is within ~1/max(a, b) of 1 on the
    //!   direct side, where the fraction's terms cancel: the t distribution with huge df
    //!   ([`t_sf`] with df = 10⁶ is off by 6·10⁻¹¹ relative; with df ≤ 10³, by ≲ 10⁻¹³).
    //! - [`gamma_q`] (and [`chi2_sf`], Q(df/2, x/2)): the regularized upper incomplete gamma
    //!   function by the series for P below x = a + 1 and the continued fraction for Q above
    //!   (Numerical Recipes §6.2 `gser`/`gcf`, `gammq`), with the prefactor
    //!   exp(a ln x − x − ln Γ(a)); relative error ≲ 10⁻¹³ on the grid tested (a ≤ 100,
    //!   x ≤ 1000; 5.7·10⁻¹⁴ at worst), limited by the prefactor's exponent when it is large.
    //!   `tests/nominal.rs` compares them with `scipy.special.gammaincc` and
    //!   `scipy.stats.chi2.sf`.
    //! - Quantiles ([`normal_quantile`], [`t_quantile`], [`beta_inc_inv`]) invert the
    //!   distribution functions by Newton's method safeguarded by bisection, on the tail below
    //!   ½ (the upper half by symmetry or I_x(a, b) = 1 − I₁₋ₓ(b, a), with 1 − p exact), to the
    //!   last ulp the distribution function resolves.
    //!
    //! `tests/paired.rs` compares every function here with `scipy.special` (`gammaln`, `erfc`,
    //! `ndtr`, `ndtri`, `stdtr`, `stdtrit`, `betainc`, `betaincinv`) on a grid and prints the
    //! largest relative differences: ≤ 1.4·10⁻¹⁴ everywhere except the huge-df t case above.
    use std::f64::consts::{FRAC_1_SQRT_2, PI};

    use crate::stats::math::Portable;

    /// ln √(2π).
    const LN_SQRT_2PI: f64 = 0.918_938_533_204_672_8;
    /// 2 / √π.
    const TWO_OVER_SQRT_PI: f64 = std::f64::consts::FRAC_2_SQRT_PI;
    /// Lentz's guard against division by zero.
    const TINY: f64 = 1.0e-300;
    const MAX_TERMS: usize = 100_000;

    /// ln Γ(x) for x > 0 (NaN otherwise).
    pub fn ln_gamma(x: f64) -> f64 {
        if x.is_nan() || x <= 0.0 {
            return f64::NAN;
        }
        if x.is_infinite() {
            return f64::INFINITY;
        }
        let mut z = x;
        let mut product = 1.0;
        while z < STIRLING_FROM {
            product *= z;
            z += 1.0;
        }
        (z - 0.5) * z.ln_p() - z + LN_SQRT_2PI + stirling_tail(z) - product.ln_p()
    }

    /// Where Stirling's series is used directly.
    const STIRLING_FROM: f64 = 10.0;

    /// δ(z) = ln Γ(z) − ((z − ½) ln z − z + ln √(2π)) = Σₖ B₂ₖ / (2k(2k−1) z²ᵏ⁻¹), k = 1..8, for
    /// z ≥ 10 (the first omitted term is below 2·10⁻¹⁸).
    fn stirling_tail(z: f64) -> f64 {
        const SERIES: [f64; 8] = [
            1.0 / 12.0,
            -1.0 / 360.0,
            1.0 / 1260.0,
            -1.0 / 1680.0,
            1.0 / 1188.0,
            -691.0 / 360_360.0,
            1.0 / 156.0,
            -3617.0 / 122_400.0,
        ];
        let inv = 1.0 / z;
        let inv2 = inv * inv;
        let mut tail = 0.0;
        for c in SERIES.iter().rev() {
            tail = tail * inv2 + c;
        }
        tail * inv
    }

    /// ln B(a, b) = ln Γ(a) + ln Γ(b) − ln Γ(a + b).
    ///
    /// When the larger argument is at least 10, ln Γ(a) − ln Γ(a + b) is taken from Stirling's
    /// series as −(a − ½) ln(1 + b/a) − b ln(a + b) + b + δ(a) − δ(a + b), which avoids
    /// subtracting two large, nearly equal logarithms (at a = 5·10⁵, b = ½ the plain difference
    /// would lose 9 digits).
    pub fn ln_beta(a: f64, b: f64) -> f64 {
        let (small, large) = if a < b { (a, b) } else { (b, a) };
        if large < STIRLING_FROM {
            return ln_gamma(a) + ln_gamma(b) - ln_gamma(a + b);
        }
        let sum = large + small;
        let ratio = -(large - 0.5) * (small / large).ln_1p_p() - small * sum.ln_p()
            + small
            + stirling_tail(large)
            - stirling_tail(sum);
        ln_gamma(small) + ratio
    }

    /// e^{−x²}, with x² split into its rounded value and the rounding error.
    fn exp_minus_square(x: f64) -> f64 {
        let hi = x * x;
        let lo = x.mul_add(x, -hi);
        (-hi).exp_p() * (-lo).exp_p()
    }

    /// The complementary error function erfc(x) = 1 − erf(x).
    pub fn erfc(x: f64) -> f64 {
        if x.is_nan() {
            return f64::NAN;
        }
        if x < 0.0 {
            return 2.0 - erfc(-x);
        }
        let x2 = x * x;
        if x2 < 1.5 {
            return 1.0 - erf_series(x);
        }
        if x > 27.3 {
            return 0.0; // below the smallest subnormal
        }
        // Γ(½, X)/Γ(½) with X = x²: (x e^{−X} / √π) · 1/(X + ½ − (1·½)/(X + 5/2 − (2·3/2)/…)).
        x * exp_minus_square(x) / PI.sqrt() * gamma_fraction(0.5, x2)
    }

    /// erf(x) for x² < 1.5 by A&S 7.1.6 (all terms positive).
    fn erf_series(x: f64) -> f64 {
        let x2 = x * x;
        let mut term = x;
        let mut sum = x;
        let mut n = 0.0;
        loop {
            n += 1.0;
            term *= 2.0 * x2 / (2.0 * n + 1.0);
            sum += term;
            if term <= sum * f64::EPSILON * 0.5 {
                break;
            }
        }
        TWO_OVER_SQRT_PI * exp_minus_square(x) * sum
    }

    /// The standard normal density.
    pub fn normal_pdf(z: f64) -> f64 {
        (-0.5 * z * z).exp_p() / (2.0 * PI).sqrt()
    }

    /// Φ(z), the standard normal distribution function: erfc(−z/√2) / 2.
    pub fn normal_cdf(z: f64) -> f64 {
        0.5 * erfc(-z * FRAC_1_SQRT_2)
    }

    /// 1 − Φ(z), computed without cancellation: erfc(z/√2) / 2.
    pub fn normal_sf(z: f64) -> f64 {
        0.5 * erfc(z * FRAC_1_SQRT_2)
    }

    /// Φ⁻¹(p) for p in (0, 1); ±∞ at 0 and 1, NaN outside.
    pub fn normal_quantile(p: f64) -> f64 {
        if p.is_nan() || !(0.0..=1.0).contains(&p) {
            return f64::NAN;
        }
        if p == 0.0 {
            return f64::NEG_INFINITY;
        }
        if p == 1.0 {
            return f64::INFINITY;
        }
        if p > 0.5 {
            // 1 − p is exact for p in [½, 1] (Sterbenz), so this loses nothing.
            return -normal_quantile(1.0 - p);
        }
        // Lower half: solve Φ(z) = p for z ≤ 0, starting from the tail asymptote.
        let start = -(-2.0 * p.ln_p()).sqrt().max(0.1) + 0.5;
        let mut lo = -40.0;
        while normal_cdf(lo) > p {
            lo *= 2.0;
        }
        find_root(
            |z| normal_cdf(z) - p,
            normal_pdf,
            lo,
            0.0,
            start.clamp(lo, 0.0),
        )
    }

    /// Regularized incomplete beta function I_x(a, b), for a, b > 0 and x in [0, 1].
    pub fn beta_inc(a: f64, b: f64, x: f64) -> f64 {
        if !(0.0..=1.0).contains(&x) {
            return f64::NAN;
        }
        let y = 1.0 - x;
        beta_inc_parts(a, b, x, y, x.ln_p(), (-x).ln_1p_p())
    }

    /// I_x(a, b) given x, y = 1 − x and their logarithms, for callers who know them more
    /// precisely than `1.0 - x` and `x.ln_p()` would (the t distribution: x = 1/(1 + r) with
    /// ln x = −ln(1 + r), where a·ln x with a = df/2 would otherwise amplify x's rounding).
    fn beta_inc_parts(a: f64, b: f64, x: f64, y: f64, ln_x: f64, ln_y: f64) -> f64 {
        if a.is_nan() || b.is_nan() || x.is_nan() || a <= 0.0 || b <= 0.0 {
            return f64::NAN;
        }
        if x <= 0.0 {
            return 0.0;
        }
        if y <= 0.0 {
            return 1.0;
        }
        let ln_front = a * ln_x + b * ln_y - ln_beta(a, b);
        if x < (a + 1.0) / (a + b + 2.0) {
            ln_front.exp_p() * beta_cf(a, b, x) / a
        } else {
            1.0 - ln_front.exp_p() * beta_cf(b, a, y) / b
        }
    }

    /// The continued fraction of I_x(a, b) (Numerical Recipes §6.4), modified Lentz.
    fn beta_cf(a: f64, b: f64, x: f64) -> f64 {
        let qab = a + b;
        let qap = a + 1.0;
        let qam = a - 1.0;
        let mut c = 1.0;
        let mut d = 1.0 - qab * x / qap;
        if d.abs() < TINY {
            d = TINY;
        }
        d = 1.0 / d;
        let mut h = d;
        for m in 1..MAX_TERMS {
            let m = m as f64;
            let m2 = 2.0 * m;
            let aa = m * (b - m) * x / ((qam + m2) * (a + m2));
            d = 1.0 + aa * d;
            if d.abs() < TINY {
                d = TINY;
            }
            c = 1.0 + aa / c;
            if c.abs() < TINY {
                c = TINY;
            }
            d = 1.0 / d;
            h *= d * c;
            let aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2));
            d = 1.0 + aa * d;
            if d.abs() < TINY {
                d = TINY;
            }
            c = 1.0 + aa / c;
            if c.abs() < TINY {
                c = TINY;
            }
            d = 1.0 / d;
            let step = d * c;
            h *= step;
            if (step - 1.0).abs() <= f64::EPSILON {
                break;
            }
        }
        h
    }

    /// Q(a, x) = Γ(a, x) / Γ(a), the regularized upper incomplete gamma function, for a > 0
    /// and x ≥ 0 (1 at x = 0, 0 at x = ∞; NaN for a ≤ 0, an infinite a, x < 0 or NaN).
    ///
    /// Numerical Recipes §6.2 (`gammq`): with the prefactor e^{−x} xᵃ / Γ(a) taken as
    /// exp(a ln x − x − ln Γ(a)), below x = a + 1 the series
    /// P(a, x) = e^{−x} xᵃ / Γ(a + 1) · Σₙ xⁿ / ((a + 1)···(a + n)) (all terms positive, stopped
    /// when a term is below half an ulp of the sum) and Q = 1 − P; from x = a + 1 on, the
    /// continued fraction Q(a, x) = e^{−x} xᵃ / Γ(a) · 1/(x + 1 − a − 1·(1 − a)/(x + 3 − a − …))
    /// by the modified Lentz method (stopped when a step changes the value by less than one
    /// ulp). Q is therefore computed directly, with full relative precision, in the upper tail
    /// (the p-values that matter); where it comes from 1 − P and a ≥ ½ (every chi-square) it
    /// is at least Q(½, 3/2) = 0.083, so the subtraction costs at most a digit. For a < ½, Q
    /// can be small below x = a + 1 (it tends to 0 with a) and 1 − P then loses about
    /// log₁₀(1/Q) digits.
    pub fn gamma_q(a: f64, x: f64) -> f64 {
        if a.is_nan() || x.is_nan() || a <= 0.0 || a.is_infinite() || x < 0.0 {
            return f64::NAN;
        }
        if x == 0.0 {
            return 1.0;
        }
        if x.is_infinite() {
            return 0.0;
        }
        let ln_front = a * x.ln_p() - x - ln_gamma(a);
        if x < a + 1.0 {
            1.0 - gamma_p_series(a, x, ln_front)
        } else {
            gamma_q_fraction(a, x, ln_front)
        }
    }

    /// P(a, x) by its series (Numerical Recipes `gser`), for 0 < x < a + 1;
    /// `ln_front` = a ln x − x − ln Γ(a).
    fn gamma_p_series(a: f64, x: f64, ln_front: f64) -> f64 {
        let mut ap = a;
        let mut term = 1.0 / a;
        let mut sum = term;
        for _ in 0..MAX_TERMS {
            ap += 1.0;
            term *= x / ap;
            sum += term;
            if term <= sum * f64::EPSILON * 0.5 {
                break;
            }
        }
        sum * ln_front.exp_p()
    }

    /// The continued fraction of Γ(a, x) without its front factor: 1/(x + 1 − a − 1·(1 − a)/(x +
    /// 3 − a − …)), by the modified Lentz method (Numerical Recipes `gcf`), to a step within ε of
    /// 1. Shared by [`erfc`] (a = ½, x = X²) and the upper incomplete gamma.
    fn gamma_fraction(a: f64, x: f64) -> f64 {
        let mut b = x + 1.0 - a;
        let mut c = 1.0 / TINY;
        let mut d = 1.0 / b;
        let mut h = d;
        for i in 1..MAX_TERMS {
            let an = -(i as f64) * (i as f64 - a);
            b += 2.0;
            d = an * d + b;
            if d.abs() < TINY {
                d = TINY;
            }
            c = b + an / c;
            if c.abs() < TINY {
                c = TINY;
            }
            d = 1.0 / d;
            let step = d * c;
            h *= step;
            if (step - 1.0).abs() <= f64::EPSILON {
                break;
            }
        }
        h
    }

    /// Q(a, x) by its continued fraction (Numerical Recipes `gcf`), modified Lentz, for
    /// x ≥ a + 1; `ln_front` = a ln x − x − ln Γ(a).
    fn gamma_q_fraction(a: f64, x: f64, ln_front: f64) -> f64 {
        ln_front.exp_p() * gamma_fraction(a, x)
    }

    /// P(X > x) for the chi-square distribution with `df` > 0 degrees of freedom:
    /// Q(df/2, x/2) ([`gamma_q`]); 1 for x ≤ 0, NaN for df ≤ 0 or a NaN argument.
    pub fn chi2_sf(x: f64, df: f64) -> f64 {
        if x.is_nan() || df.is_nan() || df <= 0.0 {
            return f64::NAN;
        }
        if x <= 0.0 {
            return 1.0;
        }
        gamma_q(0.5 * df, 0.5 * x)
    }

    /// The density of Beta(a, b) at x.
    fn beta_pdf(a: f64, b: f64, x: f64) -> f64 {
        if x <= 0.0 || x >= 1.0 {
            return 0.0;
        }
        ((a - 1.0) * x.ln_p() + (b - 1.0) * (-x).ln_1p_p() - ln_beta(a, b)).exp_p()
    }

    /// The x in [0, 1] with I_x(a, b) = p: the p-quantile of Beta(a, b).
    pub fn beta_inc_inv(a: f64, b: f64, p: f64) -> f64 {
        if a.is_nan() || b.is_nan() || a <= 0.0 || b <= 0.0 || !(0.0..=1.0).contains(&p) {
            return f64::NAN;
        }
        if p == 0.0 {
            return 0.0;
        }
        if p == 1.0 {
            return 1.0;
        }
        if p > 0.5 {
            // I_x(a, b) = p  ⇔  I_{1−x}(b, a) = 1 − p, which is exact (Sterbenz) and small, so
            // the root is found where the distribution function has full relative precision.
            return 1.0 - beta_inc_inv(b, a, 1.0 - p);
        }
        find_root(
            |x| beta_inc(a, b, x) - p,
            |x| beta_pdf(a, b, x),
            0.0,
            1.0,
            a / (a + b),
        )
    }

    /// P(T > t) for Student's t with `df` > 0 degrees of freedom:
    /// ½ I_{df/(df+t²)}(df/2, ½) for t ≥ 0.
    pub fn t_sf(t: f64, df: f64) -> f64 {
        if t.is_nan() || df.is_nan() || df <= 0.0 {
            return f64::NAN;
        }
        if t.is_infinite() {
            return if t > 0.0 { 0.0 } else { 1.0 };
        }
        let r = t * t / df;
        let tail = if r.is_infinite() {
            0.0
        } else {
            // x = df/(df + t²) = 1/(1 + r), y = 1 − x = r/(1 + r).
            let ln_x = -r.ln_1p_p();
            let (x, y) = (1.0 / (1.0 + r), r / (1.0 + r));
            0.5 * beta_inc_parts(0.5 * df, 0.5, x, y, ln_x, r.ln_p() + ln_x)
        };
        if t > 0.0 { tail } else { 1.0 - tail }
    }

    /// P(T ≤ t) for Student's t with `df` degrees of freedom.
    pub fn t_cdf(t: f64, df: f64) -> f64 {
        t_sf(-t, df)
    }

    /// The density of Student's t.
    pub fn t_pdf(t: f64, df: f64) -> f64 {
        (ln_gamma(0.5 * (df + 1.0))
            - ln_gamma(0.5 * df)
            - 0.5 * (df * PI).ln_p()
            - 0.5 * (df + 1.0) * (t * t / df).ln_1p_p())
        .exp_p()
    }

    /// The p-quantile of Student's t with `df` degrees of freedom.
    pub fn t_quantile(p: f64, df: f64) -> f64 {
        if p.is_nan() || df.is_nan() || df <= 0.0 || !(0.0..=1.0).contains(&p) {
            return f64::NAN;
        }
        if p == 0.0 {
            return f64::NEG_INFINITY;
        }
        if p == 1.0 {
            return f64::INFINITY;
        }
        if p > 0.5 {
            return -t_quantile(1.0 - p, df);
        }
        if p == 0.5 {
            return 0.0;
        }
        let mut lo = -1.0;
        while t_cdf(lo, df) > p {
            lo *= 2.0;
            if lo.is_infinite() {
                return f64::NEG_INFINITY;
            }
        }
        let start = normal_quantile(p).clamp(lo, 0.0);
        find_root(|t| t_cdf(t, df) - p, |t| t_pdf(t, df), lo, 0.0, start)
    }

    /// P(T ≤ t) for the noncentral t with `df` > 0 degrees of freedom and noncentrality `ncp`.
    ///
    /// Guenther's (1978) twin series as in Lenth's AS 243 (1989) and R's `pnt`: Poisson-weighted
    /// incomplete beta terms, stopped when the bound on the remaining terms is below 10⁻¹²
    /// (at most 1000 terms), plus Φ(−δ); for a negative t, 1 − P(T ≤ −t; −δ). For df > 4·10⁵
    /// or δ² > 1416 (the series' weights underflow) the normal approximation of Abramowitz and
    /// Stegun 26.7.10. Checked against `scipy.stats.nct.cdf` (Boost).
    pub fn nct_cdf(t: f64, df: f64, ncp: f64) -> f64 {
        const ERRMAX: f64 = 1.0e-12;
        const ITRMAX: usize = 1000;
        if t.is_nan() || df.is_nan() || ncp.is_nan() || df <= 0.0 {
            return f64::NAN;
        }
        if t.is_infinite() {
            return if t > 0.0 { 1.0 } else { 0.0 };
        }
        let (tt, del, negdel) = if t >= 0.0 {
            (t, ncp, false)
        } else {
            (-t, -ncp, true)
        };
        let flip = |p: f64| {
            let p = p.clamp(0.0, 1.0);
            if negdel { 1.0 - p } else { p }
        };
        if df > 4.0e5 || del * del > 2.0 * std::f64::consts::LN_2 * 1021.0 {
            let s = 1.0 / (4.0 * df);
            let z = (tt * (1.0 - s) - del) / (1.0 + tt * tt * 2.0 * s).sqrt();
            return flip(normal_cdf(z));
        }
        let x = tt * tt / (tt * tt + df);
        let mut tnc = 0.0;
        if x > 0.0 {
            let lambda = del * del;
            let mut p = 0.5 * (-0.5 * lambda).exp_p();
            if p == 0.0 {
                return flip(0.0);
            }
            let mut q = (2.0 / PI).sqrt() * p * del;
            let mut s = 0.5 - p;
            if s < 1.0e-7 {
                s = -0.5 * (-0.5 * lambda).exp_m1_p();
            }
            let mut a = 0.5;
            let b = 0.5 * df;
            let rxb = (df / (tt * tt + df)).pow_p(b);
            let albeta = 0.5 * PI.ln_p() + ln_gamma(b) - ln_gamma(0.5 + b);
            let mut xodd = beta_inc(a, b, x);
            let mut godd = 2.0 * rxb * (a * x.ln_p() - albeta).exp_p();
            let bx = b * x;
            let mut xeven = if bx < f64::EPSILON { bx } else { 1.0 - rxb };
            let mut geven = bx * rxb;
            tnc = p * xodd + q * xeven;
            for it in 1..=ITRMAX {
                a += 1.0;
                xodd -= godd;
                xeven -= geven;
                godd *= x * (a + b - 1.0) / a;
                geven *= x * (a + b - 0.5) / (a + 0.5);
                p *= lambda / (2 * it) as f64;
                q *= lambda / (2 * it + 1) as f64;
                tnc += p * xodd + q * xeven;
                s -= p;
                if s < -1.0e-10 || (s <= 0.0 && it > 1) {
                    break;
                }
                if (2.0 * s * (xodd - godd)).abs() < ERRMAX {
                    break;
                }
            }
        }
        tnc += normal_cdf(-del);
        flip(tnc.min(1.0))
    }

    /// A root of the increasing function `f` in [`lo`, `hi`] (f(lo) ≤ 0 ≤ f(hi)), by Newton
    /// steps from `x` with its derivative `slope`, falling back to bisection whenever a step
    /// leaves the bracket; stops when a step is within two ulps or the bracket cannot shrink.
    fn find_root(
        f: impl Fn(f64) -> f64,
        slope: impl Fn(f64) -> f64,
        mut lo: f64,
        mut hi: f64,
        mut x: f64,
    ) -> f64 {
        for _ in 0..2000 {
            let fx = f(x);
            if fx == 0.0 {
                return x;
            }
            if fx < 0.0 {
                lo = x;
            } else {
                hi = x;
            }
            let mut next = x - fx / slope(x);
            if !(next > lo && next < hi) {
                next = lo + 0.5 * (hi - lo);
                if next <= lo || next >= hi {
                    return x;
                }
            }
            if (next - x).abs() <= 2.0 * f64::EPSILON * next.abs() {
                return next;
            }
            x = next;
        }
        x
    }
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
