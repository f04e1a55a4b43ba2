//! Sizing preference studies and judge-plus-humans studies before paying annotators.
//!
//! - [`binomial_power`] and [`binomial_sample_size`]: the exact power of the two-sided exact
//!   binomial test of a share against ½ ([`crate::stats::preference::binomial_test`], the test
//!   the report runs on each pair's wins), and the number of decisive judgements it needs;
//!   [`binomial_power_with_ties`] when a share of the judgements are ties;
//! - [`simulate_design`]: the power of every pairwise comparison of a K-system design by
//!   simulation, with Bradley–Terry fitted to each simulated study;
//! - [`ppi_sample_size`] (and [`ppi_half_width`]): how many human labels a prediction-powered
//!   estimate of a mean or share needs, beside an automatic judge's labels, for a target
//!   interval half-width; [`PpiPilot`] holds the pilot's variances.
//!
//! # The exact binomial test's power
//! With X ~ Binomial(n, ½) under the null, the test rejects at level α when its p-value
//! ([`binomial_test`], scipy's `binomtest` "minimum likelihood" two-sided p-value) is ≤ α. At
//! p₀ = ½ the p-value of k < n/2 is 2 P(X ≤ k), increasing in k and symmetric (k and n − k
//! get the same value), so the rejection region is {k ≤ c} ∪ {k ≥ n − c} with c the largest
//! k < n/2 whose p-value is ≤ α (no region when even k = 0 is not rejected: n ≤ 5 at α =
//! 0.05). The power at a true share p is
//! P_p(X ≤ c) + P_p(X ≥ n − c) = I₁₋ₚ(n − c, c + 1) + Iₚ(n − c, c + 1)
//! ([`special::beta_inc`]). At p = ½ it is the test's size, at most α (the test is
//! conservative: 0.0328 at n = 50, α = 0.05).
//!
//! [`binomial_power`] finds c by bisection with [`binomial_test`] itself. The searches over n
//! ([`binomial_sample_size`], [`binomial_power_with_ties`], [`simulate_design`]'s exact
//! column) move c along n (c never falls as n grows and rises by at most one) and decide each
//! candidate by 2 I_½(n − k, k + 1), falling back to [`binomial_test`] when that is within
//! 10⁻⁸ (relative) of α: the two agree to about 10⁻¹³, so the region is the one the test
//! gives, at O(1) per n instead of O(n). A unit test checks both routes give the same c for
//! every n ≤ 400 at α = 0.05, 0.01 and 0.2, and that the region is exactly the k the test
//! rejects for every n ≤ 120.
//!
//! # The saw-tooth
//! Because X is discrete, c moves up in steps, and the power is not monotone in n: it rises
//! while c stays (the region's share of a growing distribution grows) and drops when c steps
//! up too late for the extra trial (at p = 0.7, α = 0.05: 0.810 at n = 49, 0.782 at n = 50).
//! [`binomial_sample_size`] returns both the smallest n whose power reaches the target and the
//! smallest n from which every n' up to the horizon does; plan on the second (for 80% power at
//! p = 0.7: first 49, stable 54; at p = 0.6: first 199, stable 210).
//!
//! # Pairwise power of a design
//! K systems with strengths πᵢ; a judgement of i against j is a tie with probability t, else
//! i wins with probability πᵢ/(πᵢ + πⱼ). Each simulated study draws every pair's judgements,
//! tests each pair by [`binomial_test`] on its own decisive judgements (ties dropped), as the
//! report's pairwise table does, and fits Bradley–Terry ([`bradley_terry`], default options)
//! to all judgements. The power is the share of studies whose test rejected, with its Wilson
//! 95% interval over the studies ([`wilson`]); the Monte Carlo standard error is
//! √(p(1 − p)/simulations), 0.009 at p = 0.8 with 2000 simulations.
//!
//! # Prediction-powered inference (Angelopoulos et al. 2023; PPI++, Angelopoulos, Duchi &
//! Zrnic 2023)
//! With n human labels Y and the judge's labels f on those items, and the judge's labels f̃ on
//! N other items, the PPI++ estimate of E[Y] is mean(λ f̃) + mean(Y − λ f), of variance
//! V(n, λ) = λ² σ²_f / N + (σ²_y − 2λ σ_yf + λ² σ²_f) / n, its interval ± z √V with
//! z = Φ⁻¹(1 − α/2), as [`crate::stats::judges::ppi_mean`] computes it. Plain PPI is λ = 1:
//! V = σ²_f/N + σ²_r/n with σ²_r = Var(Y − f) the rectifier's variance, so the half-width w
//! needs n = σ²_r / ((w/z)² − σ²_f/N), and no n reaches w ≤ z σ_f/√N. PPI++ takes the λ in
//! [0, 1] that minimises V, λ* = σ_yf / (σ²_f (1 + n/N)) clipped (the λ `ppi_mean` estimates),
//! so V(n) = (σ²_y − σ²_yf / (σ²_f (1 + n/N))) / n where λ* is inside, and n solves
//! (w/z)² n² + ((w/z)² N − σ²_y) n − (σ²_y − σ²_yf/σ²_f) N = 0; it never needs more humans than
//! the human-only interval, n = σ²_y (z/w)², as λ = 0 is allowed. A share is the mean of 0/1
//! labels ([`PpiPilot::binary`]).
//!
//! # References and tolerances
//! `crates/juror-core/tests/reference/power_preference/make_reference.py` (scipy, numpy)
//! writes `reference.json` beside itself: the rejection regions by `scipy.stats.binomtest`
//! over every k, the powers as sums of `scipy.stats.binom.pmf` over them, the saw-tooth
//! searches, and the sample sizes of PPI, PPI++ (solved by `scipy.optimize.brentq` on V(n) with
//! λ* clipped, not by the closed form) and the human-only interval.
//! `crates/juror-core/tests/it/power_preference.rs` checks them at 1e-12 (absolute below 1,
//! relative above): the regions, sample sizes and whole human counts are equal, the powers
//! agree to 1.2e-13 at worst (n up to 1000), the real-valued PPI sizes to 3.5e-16 relative.
//! The simulations are checked against the exact powers within their Wilson intervals (2000
//! studies), and 1000 simulated studies of `ppi_mean` at the computed n (141 humans, 1000
//! judge-only items, ρ = 0.8, w = 0.12; 320 humans alone) cover at 0.940 with a mean
//! half-width of 0.1195 against 0.1198 computed.

use std::fmt;

use crate::base::rng::Stream;
use crate::stats::describe::Interval;
use crate::stats::math::Portable;
use crate::stats::preference::{
    BradleyTerryOptions, Comparison, Outcome, Tally, binomial_test, bradley_terry, ln_binomial_pmf,
    wilson,
};
use crate::stats::special;

/// The largest horizon [`binomial_sample_size`] scans.
pub const MAX_HORIZON: u64 = 1_000_000;

/// Why a sizing could not be computed. Each message says what is wrong and what to do.
#[derive(Debug, Clone, PartialEq)]
pub enum SizingError {
    /// A test level outside (0, 1).
    BadAlpha { alpha: f64 },
    /// An interval's confidence level outside (0, 1).
    BadLevel { level: f64 },
    /// A true share outside [0, 1].
    BadShare { share: f64 },
    /// A target power outside (0, 1).
    BadTarget { target: f64 },
    /// No judgement to test.
    NoJudgements,
    /// A share of exactly ½: the test rejects at most at rate α, whatever n.
    NoEffect { alpha: f64, target: f64 },
    /// The target power is not reached at any n up to the horizon.
    NotReached {
        target: f64,
        horizon: u64,
        best_n: u64,
        best_power: f64,
    },
    /// The target is reached but the power dips below it again at the horizon.
    NotStable {
        target: f64,
        horizon: u64,
        first: u64,
    },
    /// A horizon of 0 or above [`MAX_HORIZON`].
    BadHorizon { horizon: u64 },
    /// Fewer than two systems.
    TooFewSystems { systems: usize },
    /// A strength that is not finite and positive.
    BadStrength { index: usize, value: f64 },
    /// A tie rate outside [0, 1).
    BadTies { ties: f64 },
    /// No simulation asked.
    NoSimulations,
    /// A design that leaves some pair with no judgement.
    EmptyPair { pairs: usize, total: usize },
    /// A variance (or covariance) that cannot be one.
    BadVariance { name: &'static str, value: f64 },
    /// A half-width that is not finite and positive.
    BadHalfWidth { half_width: f64 },
    /// No judge-only item.
    NoUnlabelled,
    /// Plain PPI cannot reach the half-width with any number of humans: the judge-only items'
    /// own noise already exceeds it.
    JudgeFloor {
        half_width: f64,
        floor: f64,
        unlabelled_needed: u64,
    },
}

impl fmt::Display for SizingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SizingError::BadAlpha { alpha } => {
                write!(f, "level alpha = {alpha} is not in (0, 1); use e.g. 0.05")
            }
            SizingError::BadLevel { level } => {
                write!(
                    f,
                    "confidence level {level} is not in (0, 1); use e.g. 0.95"
                )
            }
            SizingError::BadShare { share } => write!(
                f,
                "true share {share} is not in [0, 1]; give the share of decisive judgements \
                 the first system wins"
            ),
            SizingError::BadTarget { target } => {
                write!(f, "target power {target} is not in (0, 1); use e.g. 0.8")
            }
            SizingError::NoJudgements => write!(f, "no judgements: a design needs at least one"),
            SizingError::NoEffect { alpha, target } => write!(
                f,
                "a true share of 1/2 is no preference: the test rejects at rate {alpha} at \
                 most, never with power {target}; size for the smallest preference worth \
                 detecting (e.g. 0.6)"
            ),
            SizingError::NotReached {
                target,
                horizon,
                best_n,
                best_power,
            } => write!(
                f,
                "power {target} is not reached with up to {horizon} decisive judgements (best \
                 {best_power:.4} at n = {best_n}); raise the horizon, or size for a larger \
                 preference or a lower power"
            ),
            SizingError::NotStable {
                target,
                horizon,
                first,
            } => write!(
                f,
                "power {target} is first reached at n = {first} but dips below it again at the \
                 horizon {horizon}; raise the horizon"
            ),
            SizingError::BadHorizon { horizon } => write!(
                f,
                "horizon {horizon} is not in 1..={MAX_HORIZON}; scan a smaller range"
            ),
            SizingError::TooFewSystems { systems } => write!(
                f,
                "{systems} system(s): a preference design compares at least two"
            ),
            SizingError::BadStrength { index, value } => write!(
                f,
                "strengths[{index}] = {value} is not a positive number; give Bradley–Terry \
                 strengths (any positive scale) or win probabilities' odds"
            ),
            SizingError::BadTies { ties } => write!(
                f,
                "tie rate {ties} is not in [0, 1); give the share of judgements expected to be \
                 ties (0 when ties are not allowed)"
            ),
            SizingError::NoSimulations => write!(f, "a simulation needs at least one study"),
            SizingError::EmptyPair { pairs, total } => write!(
                f,
                "{total} judgements spread over {pairs} pairs leave some pair with none; give \
                 at least one judgement per pair"
            ),
            SizingError::BadVariance { name, value } => write!(
                f,
                "{name} = {value} is not possible (variances must be finite and non-negative, \
                 the covariance at most √(σ²_y σ²_f) in size); estimate them from a pilot"
            ),
            SizingError::BadHalfWidth { half_width } => write!(
                f,
                "half-width {half_width} is not a positive number; give the interval's \
                 half-width on the label's scale"
            ),
            SizingError::NoUnlabelled => write!(
                f,
                "no judge-only items: prediction-powered inference needs the judge's labels on \
                 items humans did not label"
            ),
            SizingError::JudgeFloor {
                half_width,
                floor,
                unlabelled_needed,
            } => write!(
                f,
                "half-width {half_width} is out of reach of plain PPI: with these judge-only \
                 items it is at least {floor:.4} however many humans label; judge more than \
                 {unlabelled_needed} items, use the power-tuned estimate, or accept a wider \
                 interval"
            ),
        }
    }
}

impl std::error::Error for SizingError {}

fn check_alpha(alpha: f64) -> Result<(), SizingError> {
    if alpha > 0.0 && alpha < 1.0 {
        Ok(())
    } else {
        Err(SizingError::BadAlpha { alpha })
    }
}

fn check_share(share: f64) -> Result<(), SizingError> {
    if (0.0..=1.0).contains(&share) {
        Ok(())
    } else {
        Err(SizingError::BadShare { share })
    }
}

// ---------------------------------------------------------------------------------------------
// The exact binomial test
// ---------------------------------------------------------------------------------------------

/// The rejection region of the two-sided exact binomial test of n decisive judgements against
/// ½ at level α: c such that the test rejects exactly when k ≤ c or k ≥ n − c; `None` when it
/// never rejects.
///
/// # Formula
/// The largest k ≤ (n − 1)/2 with [`binomial_test`]`(k, n, ½)` ≤ α, by bisection (the p-value
/// increases with k below n/2).
///
/// # Errors
/// n = 0 or α outside (0, 1).
///
/// # Reference
/// `[k for k in range(n + 1) if scipy.stats.binomtest(k, n).pvalue <= alpha]`.
pub fn critical_count(n: u64, alpha: f64) -> Result<Option<u64>, SizingError> {
    check_alpha(alpha)?;
    if n == 0 {
        return Err(SizingError::NoJudgements);
    }
    let rejects = |k: u64| binomial_test(k, n, 0.5).is_ok_and(|p| p <= alpha);
    if !rejects(0) {
        return Ok(None);
    }
    // rejects(lo) holds, rejects(hi + 1) does not (k = (n − 1)/2 + 1 ≥ n/2 has p-value 1).
    let (mut lo, mut hi) = (0u64, (n - 1) / 2);
    while lo < hi {
        let mid = lo + (hi - lo).div_ceil(2);
        if rejects(mid) {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    Ok(Some(lo))
}

/// Whether the test of n judgements rejects at k < n/2: 2 I_½(n − k, k + 1), or
/// [`binomial_test`] when that is within 10⁻⁸ of α (see the module's doc).
fn rejects_fast(k: u64, n: u64, alpha: f64) -> bool {
    let (kf, nf) = (k as f64, n as f64);
    let approx = 2.0 * special::beta_inc(nf - kf, kf + 1.0, 0.5);
    if (approx - alpha).abs() > 1e-8 * alpha {
        approx <= alpha
    } else {
        binomial_test(k, n, 0.5).is_ok_and(|p| p <= alpha)
    }
}

/// The critical counts c(1), c(2), … of [`critical_count`], walked along n.
struct Criticals {
    alpha: f64,
    n: u64,
    /// c(n) + 1, 0 for no region.
    next: u64,
}

impl Criticals {
    fn new(alpha: f64) -> Criticals {
        Criticals {
            alpha,
            n: 0,
            next: 0,
        }
    }

    /// c(n + 1), moving to n + 1.
    fn step(&mut self) -> Option<u64> {
        self.n += 1;
        let n = self.n;
        let max = (n - 1) / 2;
        // c(n + 1) ∈ {c(n), c(n) + 1}; check the step up, and (against rounding) the stay.
        while self.next <= max && rejects_fast(self.next, n, self.alpha) {
            self.next += 1;
        }
        while self.next > 0 && !rejects_fast(self.next - 1, n, self.alpha) {
            self.next -= 1;
        }
        self.next.checked_sub(1)
    }
}

/// P_p(X ≤ c) + P_p(X ≥ n − c), X ~ Binomial(n, p); 0 without a region.
fn region_power(n: u64, critical: Option<u64>, p: f64) -> f64 {
    let Some(c) = critical else {
        return 0.0;
    };
    if p == 0.0 || p == 1.0 {
        return 1.0;
    }
    let (a, b) = ((n - c) as f64, c as f64 + 1.0);
    special::beta_inc(a, b, 1.0 - p) + special::beta_inc(a, b, p)
}

/// The power of the two-sided exact binomial test of n decisive judgements against ½ at level
/// α when the true share is `share`.
///
/// # Formula
/// P(X ≤ c) + P(X ≥ n − c) for X ~ Binomial(n, share) and c from [`critical_count`], each tail
/// by [`special::beta_inc`]; 0 when the test cannot reject (n ≤ 5 at α = 0.05).
///
/// # Errors
/// n = 0, α outside (0, 1) or a share outside [0, 1].
///
/// # Reference
/// The sum of `scipy.stats.binom.pmf(k, n, share)` over the region of [`critical_count`].
pub fn binomial_power(n: u64, share: f64, alpha: f64) -> Result<f64, SizingError> {
    check_share(share)?;
    let c = critical_count(n, alpha)?;
    Ok(region_power(n, c, share))
}

/// The number of decisive judgements the exact binomial test needs.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SampleSize {
    /// The smallest n whose power reaches the target.
    pub first: u64,
    /// Its power.
    pub first_power: f64,
    /// The smallest n from which every n' up to `horizon` reaches the target: the one to plan
    /// on.
    pub stable: u64,
    /// Its power.
    pub stable_power: f64,
    /// The lowest power over `stable..=horizon` (at least the target).
    pub stable_minimum: f64,
    /// The largest n scanned.
    pub horizon: u64,
}

/// The smallest numbers of decisive judgements for which the exact binomial test reaches
/// power `target` at a true share `share` (see the module's doc on the saw-tooth).
///
/// # Formula
/// The power of [`binomial_power`] at every n in 1..=`horizon`, the regions walked along n
/// (module doc). `first` is the smallest n with power ≥ target; `stable` is one more than the
/// largest n ≤ horizon with power < target. Beyond the horizon the power keeps its saw-tooth
/// but its dips shrink as it approaches 1, so a horizon a few times `first` is ample.
///
/// # Errors
/// α, share or target out of range, a share of ½, a horizon of 0 or above [`MAX_HORIZON`], or
/// no n up to the horizon (or not the horizon itself) reaching the target.
///
/// # Reference
/// The same scan over `scipy.stats.binomtest` regions and `scipy.stats.binom.pmf` sums in
/// the reference script.
pub fn binomial_sample_size(
    share: f64,
    alpha: f64,
    target: f64,
    horizon: u64,
) -> Result<SampleSize, SizingError> {
    check_share(share)?;
    check_alpha(alpha)?;
    if !(target > 0.0 && target < 1.0) {
        return Err(SizingError::BadTarget { target });
    }
    if share == 0.5 {
        return Err(SizingError::NoEffect { alpha, target });
    }
    if horizon == 0 || horizon > MAX_HORIZON {
        return Err(SizingError::BadHorizon { horizon });
    }
    let mut criticals = Criticals::new(alpha);
    let powers: Vec<f64> = (1..=horizon)
        .map(|n| region_power(n, criticals.step(), share))
        .collect();
    let power_at = |n: u64| powers[(n - 1) as usize];
    let Some(first) = (1..=horizon).find(|&n| power_at(n) >= target) else {
        let (best_n, best_power) = (1..=horizon)
            .map(|n| (n, power_at(n)))
            .fold((1, f64::NEG_INFINITY), |b, x| if x.1 > b.1 { x } else { b });
        return Err(SizingError::NotReached {
            target,
            horizon,
            best_n,
            best_power,
        });
    };
    let stable = match (1..=horizon).rev().find(|&n| power_at(n) < target) {
        None => 1,
        Some(n) if n == horizon => {
            return Err(SizingError::NotStable {
                target,
                horizon,
                first,
            });
        }
        Some(n) => n + 1,
    };
    let stable_minimum = (stable..=horizon)
        .map(power_at)
        .fold(f64::INFINITY, f64::min);
    Ok(SampleSize {
        first,
        first_power: power_at(first),
        stable,
        stable_power: power_at(stable),
        stable_minimum,
        horizon,
    })
}

/// The power of the exact binomial test when `judgements` are collected and each is a tie
/// with probability `ties` (ties dropped before the test, as the report does).
///
/// # Formula
/// Σₘ P(M = m) · power(m), M ~ Binomial(judgements, 1 − ties) the decisive judgements and
/// power(m) that of [`binomial_power`] (0 at m = 0).
///
/// # Errors
/// No judgements, α or share out of range, or a tie rate outside [0, 1).
pub fn binomial_power_with_ties(
    judgements: u64,
    share: f64,
    ties: f64,
    alpha: f64,
) -> Result<f64, SizingError> {
    check_share(share)?;
    check_alpha(alpha)?;
    if !(0.0..1.0).contains(&ties) {
        return Err(SizingError::BadTies { ties });
    }
    if judgements == 0 {
        return Err(SizingError::NoJudgements);
    }
    if ties == 0.0 {
        return binomial_power(judgements, share, alpha);
    }
    let mut criticals = Criticals::new(alpha);
    let mut total = 0.0;
    for m in 1..=judgements {
        let power = region_power(m, criticals.step(), share);
        total += ln_binomial_pmf(m, judgements, 1.0 - ties).exp_p() * power;
    }
    Ok(total.min(1.0))
}

// ---------------------------------------------------------------------------------------------
// Pairwise power of a Bradley–Terry design
// ---------------------------------------------------------------------------------------------

/// How many judgements each pair of systems gets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Allocation {
    /// The same number for every pair.
    PerPair(usize),
    /// A total spread as evenly as possible: every pair gets ⌊total / pairs⌋, and the first
    /// `total mod pairs` pairs (in the order (0, 1), (0, 2), …, (1, 2), …) one more.
    Total(usize),
}

/// A preference study to simulate.
#[derive(Debug, Clone, PartialEq)]
pub struct PreferenceDesign {
    /// Bradley–Terry strengths πᵢ of the K systems (any positive scale): system i beats j in a
    /// decisive judgement with probability πᵢ / (πᵢ + πⱼ).
    pub strengths: Vec<f64>,
    pub allocation: Allocation,
    /// The probability that a judgement is a tie, in [0, 1).
    pub ties: f64,
}

impl PreferenceDesign {
    /// The pairs (i, j), i < j, in order, with their judgements.
    fn pairs(&self) -> Result<Vec<(usize, usize, usize)>, SizingError> {
        let k = self.strengths.len();
        if k < 2 {
            return Err(SizingError::TooFewSystems { systems: k });
        }
        if let Some((index, &value)) = self
            .strengths
            .iter()
            .enumerate()
            .find(|(_, s)| !(s.is_finite() && **s > 0.0))
        {
            return Err(SizingError::BadStrength { index, value });
        }
        if !(0.0..1.0).contains(&self.ties) {
            return Err(SizingError::BadTies { ties: self.ties });
        }
        let count = k * (k - 1) / 2;
        let (base, extra) = match self.allocation {
            Allocation::PerPair(m) => (m, 0),
            Allocation::Total(t) => (t / count, t % count),
        };
        if base == 0 {
            let total = match self.allocation {
                Allocation::PerPair(m) => m * count,
                Allocation::Total(t) => t,
            };
            return Err(SizingError::EmptyPair {
                pairs: count,
                total,
            });
        }
        let mut out = Vec::with_capacity(count);
        for i in 0..k {
            for j in i + 1..k {
                let m = base + usize::from(out.len() < extra);
                out.push((i, j, m));
            }
        }
        Ok(out)
    }
}

/// The power of one pair's comparison.
#[derive(Debug, Clone, PartialEq)]
pub struct PairPower {
    /// Indices into the design's strengths, a < b.
    pub a: usize,
    pub b: usize,
    /// P(a beats b) in a decisive judgement.
    pub win_probability: f64,
    /// Judgements of the pair per study (ties included).
    pub judgements: usize,
    /// The share of studies in which the pair's binomial test rejected at α.
    pub power: f64,
    /// Its Wilson 95% interval over the studies (the Monte Carlo uncertainty).
    pub interval: Interval,
    /// The exact power of the same test ([`binomial_power_with_ties`]).
    pub exact: f64,
    /// The share of studies with a Bradley–Terry fit in which it ordered the pair as the true
    /// strengths do; `None` when the two are equally strong.
    pub ordered: Option<f64>,
}

/// [`simulate_design`]'s result.
#[derive(Debug, Clone, PartialEq)]
pub struct DesignPower {
    /// Every pair (a, b), a < b, in order.
    pub pairs: Vec<PairPower>,
    pub simulations: usize,
    /// Studies whose Bradley–Terry fit exists (strongly connected) and converged.
    pub fitted: usize,
}

/// The power of every pairwise comparison of `design` at level `alpha`, by simulating
/// `simulations` studies (see the module's doc for the model and the test).
///
/// # Formula
/// One draw u = [`Stream::unit`] per judgement from the stream
/// `Stream::new(seed, "power-preference", K, judgements per study)`, pairs in order and
/// judgements in order within a pair: a tie when u < t, a win of the first system when
/// u < t + (1 − t) πₐ/(πₐ + π_b), else a win of the second. Seeded and deterministic.
///
/// # Errors
/// Fewer than two systems, a strength that is not positive, a tie rate outside [0, 1), a pair
/// with no judgement, α outside (0, 1), or no simulations.
pub fn simulate_design(
    design: &PreferenceDesign,
    alpha: f64,
    simulations: usize,
    seed: u64,
) -> Result<DesignPower, SizingError> {
    check_alpha(alpha)?;
    if simulations == 0 {
        return Err(SizingError::NoSimulations);
    }
    let pairs = design.pairs()?;
    let k = design.strengths.len();
    let total: usize = pairs.iter().map(|p| p.2).sum();
    let width = k.to_string().len();
    let names: Vec<String> = (0..k).map(|i| format!("s{i:0width$}")).collect();
    let pi = &design.strengths;
    let win: Vec<f64> = pairs
        .iter()
        .map(|&(a, b, _)| pi[a] / (pi[a] + pi[b]))
        .collect();
    // The critical count of every possible number of decisive judgements, from 1.
    let most = pairs.iter().map(|p| p.2).max().unwrap_or(0);
    let mut criticals = Criticals::new(alpha);
    let regions: Vec<Option<u64>> = (1..=most).map(|_| criticals.step()).collect();
    let mut stream = Stream::new(seed, "power-preference", k as u64, total as u64);
    let (mut rejected, mut ordered) = (vec![0u64; pairs.len()], vec![0usize; pairs.len()]);
    let mut fitted = 0usize;
    let mut comparisons: Vec<Comparison> = Vec::with_capacity(total);
    for _ in 0..simulations {
        comparisons.clear();
        for (p, &(a, b, m)) in pairs.iter().enumerate() {
            let (mut wins, mut losses) = (0u64, 0u64);
            for _ in 0..m {
                let u = stream.unit();
                let outcome = if u < design.ties {
                    Outcome::Tie
                } else if u < design.ties + (1.0 - design.ties) * win[p] {
                    wins += 1;
                    Outcome::A
                } else {
                    losses += 1;
                    Outcome::B
                };
                comparisons.push(Comparison::new(names[a].clone(), names[b].clone(), outcome));
            }
            let decisive = wins + losses;
            if decisive > 0 {
                let c = regions[(decisive - 1) as usize];
                if c.is_some_and(|c| wins <= c || wins >= decisive - c) {
                    rejected[p] += 1;
                }
            }
        }
        let fit = Tally::from_comparisons(&comparisons)
            .and_then(|t| bradley_terry(&t, &BradleyTerryOptions::default()));
        if let Some(fit) = fit.ok().filter(|f| f.strongly_connected && f.converged) {
            fitted += 1;
            for (p, &(a, b, _)) in pairs.iter().enumerate() {
                let (sa, sb) = (fit.strengths[a], fit.strengths[b]);
                if (sa > sb && pi[a] > pi[b]) || (sa < sb && pi[a] < pi[b]) {
                    ordered[p] += 1;
                }
            }
        }
    }
    let sims = simulations as f64;
    let mut out = Vec::with_capacity(pairs.len());
    for (p, &(a, b, m)) in pairs.iter().enumerate() {
        let interval = wilson(rejected[p], simulations as u64, 0.95).unwrap_or(Interval {
            low: f64::NAN,
            high: f64::NAN,
        });
        out.push(PairPower {
            a,
            b,
            win_probability: win[p],
            judgements: m,
            power: rejected[p] as f64 / sims,
            interval,
            exact: binomial_power_with_ties(m as u64, win[p], design.ties, alpha)?,
            ordered: (pi[a] != pi[b] && fitted > 0).then(|| ordered[p] as f64 / fitted as f64),
        });
    }
    Ok(DesignPower {
        pairs: out,
        simulations,
        fitted,
    })
}

// ---------------------------------------------------------------------------------------------
// Prediction-powered inference
// ---------------------------------------------------------------------------------------------

/// What a pilot says about the human labels Y and the judge's labels f (population moments,
/// ddof = 0, as `ppi_mean`'s interval uses them).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PpiPilot {
    /// σ²_y: the variance of a human label.
    pub var_human: f64,
    /// σ²_f: the variance of the judge's label.
    pub var_judge: f64,
    /// σ_yf: their covariance over the same items.
    pub covariance: f64,
}

impl PpiPilot {
    /// From the variance of the human label, the judge's, and the rectifier's Var(Y − f):
    /// σ_yf = (σ²_y + σ²_f − σ²_r) / 2.
    pub fn from_rectifier(var_human: f64, var_judge: f64, var_rectifier: f64) -> PpiPilot {
        PpiPilot {
            var_human,
            var_judge,
            covariance: (var_human + var_judge - var_rectifier) / 2.0,
        }
    }

    /// For a share (0/1 labels): the humans' share, the judge's share and the share of items
    /// both label 1: σ²_y = p_y(1 − p_y), σ²_f = p_f(1 − p_f), σ_yf = p_both − p_y p_f.
    pub fn binary(human: f64, judge: f64, both: f64) -> PpiPilot {
        PpiPilot {
            var_human: human * (1.0 - human),
            var_judge: judge * (1.0 - judge),
            covariance: both - human * judge,
        }
    }

    /// From a pilot's paired labels: population variances and covariance (ddof = 0). `None`
    /// with fewer than two pairs, lengths that differ, or a value that is not finite.
    pub fn estimate(y: &[f64], f: &[f64]) -> Option<PpiPilot> {
        if y.len() != f.len() || y.len() < 2 || y.iter().chain(f).any(|v| !v.is_finite()) {
            return None;
        }
        let n = y.len() as f64;
        let (my, mf) = (y.iter().sum::<f64>() / n, f.iter().sum::<f64>() / n);
        let moment = |g: &dyn Fn(f64, f64) -> f64| -> f64 {
            y.iter()
                .zip(f)
                .map(|(&a, &b)| g(a - my, b - mf))
                .sum::<f64>()
                / n
        };
        Some(PpiPilot {
            var_human: moment(&|a, _| a * a),
            var_judge: moment(&|_, b| b * b),
            covariance: moment(&|a, b| a * b),
        })
    }

    /// σ²_r = Var(Y − f) = σ²_y − 2σ_yf + σ²_f.
    pub fn var_rectifier(&self) -> f64 {
        self.var_human - 2.0 * self.covariance + self.var_judge
    }

    fn check(&self) -> Result<(), SizingError> {
        for (name, value) in [("var_human", self.var_human), ("var_judge", self.var_judge)] {
            if !(value.is_finite() && value >= 0.0) {
                return Err(SizingError::BadVariance { name, value });
            }
        }
        let c = self.covariance;
        // Allow rounding: a pilot's moments satisfy Cauchy–Schwarz only up to it.
        if !c.is_finite() || c * c > self.var_human * self.var_judge * (1.0 + 1e-12) {
            return Err(SizingError::BadVariance {
                name: "covariance",
                value: c,
            });
        }
        Ok(())
    }
}

/// Which prediction-powered estimate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tuning {
    /// Plain PPI: λ = 1.
    Plain,
    /// PPI++: λ chosen in [0, 1] to minimise the variance, as `ppi_mean` does.
    PowerTuned,
}

/// The human labels a prediction-powered interval needs.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PpiSize {
    /// The smallest whole number of human labels reaching the half-width.
    pub humans: u64,
    /// The real-valued solution of half-width(n) = target.
    pub exact: f64,
    /// λ at `exact` (1 for plain PPI).
    pub lambda: f64,
    /// The half-width at `humans`.
    pub half_width: f64,
    /// The human-only interval's need, σ²_y (z/w)², rounded up, and unrounded.
    pub humans_only: u64,
    pub humans_only_exact: f64,
}

fn z_of(level: f64) -> Result<f64, SizingError> {
    if level > 0.0 && level < 1.0 {
        Ok(special::normal_quantile(1.0 - (1.0 - level) / 2.0))
    } else {
        Err(SizingError::BadLevel { level })
    }
}

/// λ minimising V(n, λ) over [0, 1]: σ_yf / (σ²_f (1 + n/N)) clipped; 0 for a constant judge.
fn best_lambda(pilot: &PpiPilot, unlabelled: f64, humans: f64, tuning: Tuning) -> f64 {
    match tuning {
        Tuning::Plain => 1.0,
        Tuning::PowerTuned if pilot.var_judge > 0.0 => {
            (pilot.covariance / (pilot.var_judge * (1.0 + humans / unlabelled))).clamp(0.0, 1.0)
        }
        Tuning::PowerTuned => 0.0,
    }
}

/// V(n, λ) = λ² σ²_f / N + (σ²_y − 2λ σ_yf + λ² σ²_f) / n.
fn variance(pilot: &PpiPilot, unlabelled: f64, humans: f64, lambda: f64) -> f64 {
    let l2 = lambda * lambda;
    let rectifier =
        (pilot.var_human - 2.0 * lambda * pilot.covariance + l2 * pilot.var_judge).max(0.0);
    l2 * pilot.var_judge / unlabelled + rectifier / humans
}

/// The half-width z √V(n, λ) of a prediction-powered interval with `humans` human labels and
/// `unlabelled` judge-only items, and its λ (module doc).
///
/// # Errors
/// Impossible moments, no humans or no judge-only items, or a level outside (0, 1).
pub fn ppi_half_width(
    pilot: &PpiPilot,
    unlabelled: u64,
    humans: u64,
    level: f64,
    tuning: Tuning,
) -> Result<(f64, f64), SizingError> {
    pilot.check()?;
    let z = z_of(level)?;
    if unlabelled == 0 {
        return Err(SizingError::NoUnlabelled);
    }
    if humans == 0 {
        return Err(SizingError::NoJudgements);
    }
    let (big_n, n) = (unlabelled as f64, humans as f64);
    let lambda = best_lambda(pilot, big_n, n, tuning);
    Ok((z * variance(pilot, big_n, n, lambda).sqrt(), lambda))
}

/// The real n solving V(n) = a (a = (w/z)²) for the tuning, or the plain floor's error.
fn solve_humans(pilot: &PpiPilot, big_n: f64, a: f64, tuning: Tuning) -> Result<f64, (f64, f64)> {
    let (s, vf, c) = (pilot.var_human, pilot.var_judge, pilot.covariance);
    let plain = |floor: f64| -> Result<f64, (f64, f64)> {
        if a > floor {
            Ok(pilot.var_rectifier().max(0.0) / (a - floor))
        } else {
            Err((floor, vf))
        }
    };
    match tuning {
        Tuning::Plain => plain(vf / big_n),
        Tuning::PowerTuned if c <= 0.0 || vf == 0.0 => Ok(s / a),
        Tuning::PowerTuned => {
            // λ* = 1 while n ≤ N (σ_yf/σ²_f − 1): plain PPI there, if the root lies there.
            let boundary = big_n * (c / vf - 1.0);
            if boundary > 0.0
                && let Ok(x) = plain(vf / big_n)
                && x <= boundary
            {
                return Ok(x);
            }
            // a n² + (a N − σ²_y) n − (σ²_y − σ_yf²/σ²_f) N = 0, the positive root.
            let b = a * big_n - s;
            let q = ((s - c * c / vf) * big_n).max(0.0);
            let disc = (b * b + 4.0 * a * q).sqrt();
            // The cancellation-free form of (−b + disc) / (2a).
            Ok(if b > 0.0 {
                2.0 * q / (b + disc)
            } else {
                (disc - b) / (2.0 * a)
            })
        }
    }
}

/// How many human labels a prediction-powered interval of a mean (or share) needs for
/// half-width `half_width` at `level`, with `unlabelled` judge-only items (module doc).
///
/// # Formula
/// Plain PPI: n = σ²_r / ((w/z)² − σ²_f/N). PPI++: the root of V(n) = (w/z)² with λ* (module
/// doc), taking the plain root when λ* is clipped at 1 there and σ²_y (z/w)² when σ_yf ≤ 0.
/// `humans` is ⌈n⌉ (at least 1); the human-only need is σ²_y (z/w)².
///
/// # Errors
/// Impossible moments, no judge-only items, a half-width that is not positive, a level
/// outside (0, 1), or (plain PPI) a half-width below the floor z σ_f/√N that no number of
/// humans passes: then more than σ²_f (z/w)² judge-only items are needed, or the power-tuned
/// estimate, whose λ shrinks the judge's share of the noise.
///
/// # Reference
/// The reference script solves V(n) = (w/z)² by `scipy.optimize.brentq`, at 1e-12 relative.
pub fn ppi_sample_size(
    pilot: &PpiPilot,
    unlabelled: u64,
    half_width: f64,
    level: f64,
    tuning: Tuning,
) -> Result<PpiSize, SizingError> {
    pilot.check()?;
    let z = z_of(level)?;
    if unlabelled == 0 {
        return Err(SizingError::NoUnlabelled);
    }
    if !(half_width.is_finite() && half_width > 0.0) {
        return Err(SizingError::BadHalfWidth { half_width });
    }
    let big_n = unlabelled as f64;
    let a = (half_width / z) * (half_width / z);
    let exact = solve_humans(pilot, big_n, a, tuning).map_err(|(floor, vf)| {
        let needed = vf * (z / half_width) * (z / half_width);
        SizingError::JudgeFloor {
            half_width,
            floor: z * floor.sqrt(),
            unlabelled_needed: needed.floor() as u64,
        }
    })?;
    let mut humans = (exact.ceil() as u64).max(1);
    // Rounding in the root may leave ⌈n⌉ a hair short, or one above the smallest.
    let width = |n: u64| ppi_half_width(pilot, unlabelled, n, level, tuning).map(|w| w.0);
    while width(humans)? > half_width {
        humans += 1;
    }
    while humans > 1 && width(humans - 1)? <= half_width {
        humans -= 1;
    }
    let humans_only_exact = pilot.var_human / a;
    Ok(PpiSize {
        humans,
        exact,
        lambda: best_lambda(pilot, big_n, exact, tuning),
        half_width: width(humans)?,
        humans_only: (humans_only_exact.ceil() as u64).max(1),
        humans_only_exact,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_walked_regions_are_the_bisected_ones() {
        for alpha in [0.05, 0.01, 0.2] {
            let mut walk = Criticals::new(alpha);
            for n in 1..=400 {
                assert_eq!(Some(walk.step()), critical_count(n, alpha).ok(), "n {n}");
            }
        }
    }

    #[test]
    fn the_region_is_every_k_the_test_rejects() {
        for n in 1..=120u64 {
            let c = critical_count(n, 0.05).ok().flatten();
            for k in 0..=n {
                let rejected = binomial_test(k, n, 0.5).is_ok_and(|p| p <= 0.05);
                let inside = c.is_some_and(|c| k <= c || k >= n - c);
                assert_eq!(rejected, inside, "n {n} k {k}");
            }
        }
    }

    #[test]
    fn errors_say_what_to_do() {
        assert_eq!(
            binomial_sample_size(0.5, 0.05, 0.8, 100),
            Err(SizingError::NoEffect {
                alpha: 0.05,
                target: 0.8
            })
        );
        assert!(matches!(
            binomial_sample_size(0.55, 0.05, 0.8, 50),
            Err(SizingError::NotReached { .. })
        ));
        let pilot = PpiPilot::from_rectifier(1.0, 1.0, 0.2);
        let e = ppi_sample_size(&pilot, 100, 0.1, 0.95, Tuning::Plain);
        let Err(e @ SizingError::JudgeFloor { .. }) = e else {
            panic!("{e:?}")
        };
        assert!(e.to_string().contains("judge more than 384 items"), "{e}");
        assert!(ppi_sample_size(&pilot, 100, 0.1, 0.95, Tuning::PowerTuned).is_ok());
    }
}
