//! Pairwise preferences: tallies, win rates with intervals and tests, and Bradley–Terry
//! strengths.
//!
//! The types and functions that matter:
//! - [`Comparison`], one judgement "a vs b: a won, b won or tie", and [`Tally`], the wins,
//!   losses and ties of every ordered pair of systems ([`PairCount`]);
//! - [`win_rate`] (a [`WinRate`]): the share of decisive comparisons won, with the Wilson and
//!   Clopper–Pearson intervals ([`wilson`], [`clopper_pearson`]) and the exact binomial test
//!   ([`binomial_test`]);
//! - [`bradley_terry`] (a [`BradleyTerry`]) and [`bradley_terry_bootstrap`]: strengths by
//!   Hunter's MM algorithm and their seeded bootstrap intervals.
//!
//! Conventions: systems are ordered by name (byte order), so every output is deterministic
//! whatever the order of the input. A win rate excludes ties; Bradley–Terry counts a tie as
//! half a win for each side. The distribution functions come from
//! [`super::special`].
//!
//! Tested against scipy and statsmodels at 1e-9 and against a plain Python MM implementation at
//! 1e-6, on seeded data and LLMFAO's crowd votes: `crates/juror-core/tests/it/preference.rs` reads
//! `crates/juror-core/tests/reference/preference/reference.json`, written by
//! `make_reference.py` beside it.

use std::fmt;

use super::describe::{Interval, quantile_sorted};
use super::math::Portable;
use super::special;
use crate::base::rng::Stream;

pub mod davidson;
pub mod sandwich;

/// Who won one comparison of system `a` with system `b`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    A,
    B,
    Tie,
}

/// One judgement between two systems.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Comparison {
    pub a: String,
    pub b: String,
    pub outcome: Outcome,
}

impl Comparison {
    pub fn new(a: impl Into<String>, b: impl Into<String>, outcome: Outcome) -> Comparison {
        Comparison {
            a: a.into(),
            b: b.into(),
            outcome,
        }
    }
}

/// Why a preference statistic could not be computed. Each says where and what to do.
#[derive(Debug, Clone, PartialEq)]
pub enum PreferenceError {
    /// A comparison of a system with itself.
    SelfComparison {
        /// Position in the input, from 0.
        index: usize,
        system: String,
    },
    /// Nothing to fit.
    NoComparisons,
    /// A win rate with no decisive comparison: every one was a tie.
    OnlyTies { ties: u64 },
    /// More successes than trials.
    TooManyWins { wins: u64, n: u64 },
    /// A confidence level outside (0, 1).
    BadLevel { level: f64 },
    /// A null proportion outside [0, 1].
    BadProportion { p: f64 },
    /// A negative or non-finite pseudo-count, or a tolerance that is not positive.
    BadOption { name: &'static str, value: f64 },
    /// A bootstrap with no resamples.
    NoResamples,
}

impl fmt::Display for PreferenceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PreferenceError::SelfComparison { index, system } => write!(
                f,
                "comparisons[{index}]: system \"{system}\" is compared with itself; \
                 remove the comparison or fix one of its systems"
            ),
            PreferenceError::NoComparisons => {
                write!(f, "no comparisons: collect some judgements first")
            }
            PreferenceError::OnlyTies { ties } => write!(
                f,
                "all {ties} comparisons are ties: a win rate excludes ties, so there is \
                 nothing to estimate"
            ),
            PreferenceError::TooManyWins { wins, n } => {
                write!(f, "{wins} wins out of {n} comparisons is impossible")
            }
            PreferenceError::BadLevel { level } => {
                write!(
                    f,
                    "confidence level {level} is not in (0, 1); use e.g. 0.95"
                )
            }
            PreferenceError::BadProportion { p } => {
                write!(
                    f,
                    "null proportion {p} is not in [0, 1]; use 0.5 for no preference"
                )
            }
            PreferenceError::BadOption { name, value } => {
                write!(
                    f,
                    "{name} = {value} is not allowed; see BradleyTerryOptions"
                )
            }
            PreferenceError::NoResamples => write!(f, "a bootstrap needs at least one resample"),
        }
    }
}

impl std::error::Error for PreferenceError {}

fn check_level(level: f64) -> Result<(), PreferenceError> {
    if level > 0.0 && level < 1.0 {
        Ok(())
    } else {
        Err(PreferenceError::BadLevel { level })
    }
}

// ---------------------------------------------------------------------------------------------
// Tallies
// ---------------------------------------------------------------------------------------------

/// The record of system `a` against system `b`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PairCount {
    pub a: String,
    pub b: String,
    /// Comparisons `a` won against `b`, in whichever position either was shown.
    pub wins: u64,
    /// Comparisons `b` won against `a`.
    pub losses: u64,
    pub ties: u64,
}

/// Wins and ties between every pair of systems.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tally {
    /// Sorted by name.
    systems: Vec<String>,
    /// `wins[i * n + j]`: comparisons system i won against system j.
    wins: Vec<u64>,
    /// `ties[i * n + j]` = `ties[j * n + i]`.
    ties: Vec<u64>,
}

impl Tally {
    /// Counts every comparison. A pair's record does not depend on which system was shown
    /// as `a`: "x vs y, x won" and "y vs x, y lost" count the same.
    ///
    /// # Errors
    /// A comparison of a system with itself.
    pub fn from_comparisons(comparisons: &[Comparison]) -> Result<Tally, PreferenceError> {
        let mut systems: Vec<String> = Vec::new();
        for (index, c) in comparisons.iter().enumerate() {
            if c.a == c.b {
                return Err(PreferenceError::SelfComparison {
                    index,
                    system: c.a.clone(),
                });
            }
            systems.push(c.a.clone());
            systems.push(c.b.clone());
        }
        systems.sort();
        systems.dedup();
        let indexed = index_comparisons(&systems, comparisons);
        let (wins, ties) = count(systems.len(), indexed.iter());
        Ok(Tally {
            systems,
            wins,
            ties,
        })
    }

    /// The systems, sorted by name.
    pub fn systems(&self) -> &[String] {
        &self.systems
    }

    fn index(&self, system: &str) -> Option<usize> {
        self.systems
            .binary_search_by(|s| s.as_str().cmp(system))
            .ok()
    }

    /// The record of `a` against `b`, if both appear in the comparisons (all counts may be 0
    /// when they never met).
    pub fn record(&self, a: &str, b: &str) -> Option<PairCount> {
        let (i, j) = (self.index(a)?, self.index(b)?);
        (i != j).then(|| self.pair(i, j))
    }

    fn pair(&self, i: usize, j: usize) -> PairCount {
        let n = self.systems.len();
        PairCount {
            a: self.systems[i].clone(),
            b: self.systems[j].clone(),
            wins: self.wins[i * n + j],
            losses: self.wins[j * n + i],
            ties: self.ties[i * n + j],
        }
    }

    /// Every ordered pair (a, b) of systems that met at least once, by a then b: each meeting
    /// appears twice, once from each side.
    pub fn pairs(&self) -> Vec<PairCount> {
        let n = self.systems.len();
        let mut out = Vec::new();
        for i in 0..n {
            for j in 0..n {
                let met = self.wins[i * n + j] + self.wins[j * n + i] + self.ties[i * n + j];
                if i != j && met > 0 {
                    out.push(self.pair(i, j));
                }
            }
        }
        out
    }
}

/// Comparisons as (index of a, index of b, outcome) into sorted `systems`.
fn index_comparisons(
    systems: &[String],
    comparisons: &[Comparison],
) -> Vec<(usize, usize, Outcome)> {
    let find = |s: &str| {
        systems
            .binary_search_by(|x| x.as_str().cmp(s))
            .unwrap_or_default()
    };
    comparisons
        .iter()
        .map(|c| (find(&c.a), find(&c.b), c.outcome))
        .collect()
}

fn count<'a>(
    n: usize,
    comparisons: impl Iterator<Item = &'a (usize, usize, Outcome)>,
) -> (Vec<u64>, Vec<u64>) {
    let mut wins = vec![0; n * n];
    let mut ties = vec![0; n * n];
    for &(a, b, outcome) in comparisons {
        match outcome {
            Outcome::A => wins[a * n + b] += 1,
            Outcome::B => wins[b * n + a] += 1,
            Outcome::Tie => {
                ties[a * n + b] += 1;
                ties[b * n + a] += 1;
            }
        }
    }
    (wins, ties)
}

// ---------------------------------------------------------------------------------------------
// Win rates
// ---------------------------------------------------------------------------------------------

/// A win rate over the decisive comparisons, with its intervals and test.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct WinRate {
    pub wins: u64,
    pub losses: u64,
    /// Reported, but excluded from everything below.
    pub ties: u64,
    /// wins / (wins + losses).
    pub rate: f64,
    pub wilson: Interval,
    pub clopper_pearson: Interval,
    /// Exact two-sided binomial test of rate = ½.
    pub p_value: f64,
    pub level: f64,
}

/// The win rate of a system against another, ties excluded.
///
/// # Formula
/// n = wins + losses (ties are dropped: a tie is evidence of neither preference, and the
/// binomial model behind both intervals and the test has two outcomes); rate = wins / n;
/// intervals from [`wilson`] and [`clopper_pearson`] at `level`; p from
/// [`binomial_test`]`(wins, n, 0.5)`.
///
/// # Errors
/// No decisive comparison (only ties), or a level outside (0, 1).
///
/// # Reference
/// `scipy.stats.binomtest(wins, n)`, `statsmodels.stats.proportion.proportion_confint(wins, n,
/// method="wilson" | "beta")`.
pub fn win_rate(wins: u64, losses: u64, ties: u64, level: f64) -> Result<WinRate, PreferenceError> {
    check_level(level)?;
    let n = wins + losses;
    if n == 0 {
        return Err(PreferenceError::OnlyTies { ties });
    }
    Ok(WinRate {
        wins,
        losses,
        ties,
        rate: wins as f64 / n as f64,
        wilson: wilson(wins, n, level)?,
        clopper_pearson: clopper_pearson(wins, n, level)?,
        p_value: binomial_test(wins, n, 0.5)?,
        level,
    })
}

impl PairCount {
    /// [`win_rate`] of `a` against `b`.
    pub fn win_rate(&self, level: f64) -> Result<WinRate, PreferenceError> {
        win_rate(self.wins, self.losses, self.ties, level)
    }
}

fn check_counts(k: u64, n: u64) -> Result<(), PreferenceError> {
    if n == 0 {
        return Err(PreferenceError::OnlyTies { ties: 0 });
    }
    if k > n {
        return Err(PreferenceError::TooManyWins { wins: k, n });
    }
    Ok(())
}

/// The Wilson score interval of a proportion k / n.
///
/// # Formula
/// With z = Φ⁻¹(1 − α/2), α = 1 − `level`, p̂ = k/n:
/// centre = (p̂ + z²/(2n)) / (1 + z²/n), half-width = z √(p̂(1 − p̂)/n + z²/(4n²)) / (1 + z²/n),
/// clipped to [0, 1].
///
/// # Errors
/// n = 0, k > n, or a level outside (0, 1).
///
/// # Reference
/// `statsmodels.stats.proportion.proportion_confint(k, n, alpha, method="wilson")`.
pub fn wilson(k: u64, n: u64, level: f64) -> Result<Interval, PreferenceError> {
    check_level(level)?;
    check_counts(k, n)?;
    let alpha = 1.0 - level;
    let z = -special::normal_quantile(alpha / 2.0);
    let nf = n as f64;
    let p = k as f64 / nf;
    let z2 = z * z;
    let denom = 1.0 + z2 / nf;
    let centre = (p + z2 / (2.0 * nf)) / denom;
    let half = z * (p * (1.0 - p) / nf + z2 / (4.0 * nf * nf)).sqrt() / denom;
    Ok(Interval {
        low: (centre - half).clamp(0.0, 1.0),
        high: (centre + half).clamp(0.0, 1.0),
    })
}

/// The Clopper–Pearson ("exact") interval of a proportion k / n.
///
/// # Formula
/// low = B⁻¹(α/2; k, n − k + 1) (0 when k = 0), high = B⁻¹(1 − α/2; k + 1, n − k) (1 when
/// k = n), with B⁻¹ the Beta quantile ([`special::beta_inc_inv`]) and α = 1 − `level`.
///
/// # Errors
/// n = 0, k > n, or a level outside (0, 1).
///
/// # Reference
/// `statsmodels.stats.proportion.proportion_confint(k, n, alpha, method="beta")`.
pub fn clopper_pearson(k: u64, n: u64, level: f64) -> Result<Interval, PreferenceError> {
    check_level(level)?;
    check_counts(k, n)?;
    let half_alpha = (1.0 - level) / 2.0;
    let (kf, nf) = (k as f64, n as f64);
    let low = if k == 0 {
        0.0
    } else {
        special::beta_inc_inv(kf, nf - kf + 1.0, half_alpha)
    };
    // The upper bound solves 1 − I_x(k + 1, n − k) = α/2, i.e. I_{1−x}(n − k, k + 1) = α/2.
    let high = if k == n {
        1.0
    } else {
        1.0 - special::beta_inc_inv(nf - kf, kf + 1.0, half_alpha)
    };
    Ok(Interval { low, high })
}

/// ln P(X = k) for X ~ Binomial(n, p), 0 < p < 1.
pub(crate) fn ln_binomial_pmf(k: u64, n: u64, p: f64) -> f64 {
    let (kf, nf) = (k as f64, n as f64);
    let ln_choose = special::ln_gamma(nf + 1.0)
        - special::ln_gamma(kf + 1.0)
        - special::ln_gamma(nf - kf + 1.0);
    let mut ln = ln_choose;
    if k > 0 {
        ln += kf * p.ln_p();
    }
    if k < n {
        ln += (nf - kf) * (-p).ln_1p_p();
    }
    ln
}

/// Exact one-sided binomial test of k successes in n trials against proportion ½:
/// P(X ≥ k) when `greater` (the proportion is above ½), else P(X ≤ k), X ~ Binomial(n, ½).
///
/// # Errors
/// n = 0 or k > n.
///
/// # Reference
/// `scipy.stats.binomtest(k, n, 0.5, alternative="greater" | "less").pvalue`.
pub fn binomial_test_one_sided(k: u64, n: u64, greater: bool) -> Result<f64, PreferenceError> {
    check_counts(k, n)?;
    let range = if greater { k..=n } else { 0..=k };
    let total: f64 = range.map(|i| ln_binomial_pmf(i, n, 0.5).exp_p()).sum();
    Ok(total.min(1.0))
}

/// Exact two-sided binomial test of k successes in n trials against proportion `p`.
///
/// # Formula
/// p-value = Σ P(X = i) over every i with P(X = i) ≤ P(X = k) · (1 + 10⁻⁷), X ~ Binomial(n, p):
/// the "minimum likelihood" two-sided test; the relative tolerance keeps outcomes whose
/// probability equals P(X = k) in exact arithmetic but not in floating point (the mirror
/// image of k when p = ½). It is 1 when k = np, and capped at 1.
///
/// The probabilities come from [`special::ln_gamma`], accurate to about 10⁻¹⁵ · ln n relative.
///
/// # Errors
/// n = 0, k > n, or p outside [0, 1].
///
/// # Reference
/// `scipy.stats.binomtest(k, n, p).pvalue` (same definition and tolerance).
pub fn binomial_test(k: u64, n: u64, p: f64) -> Result<f64, PreferenceError> {
    check_counts(k, n)?;
    if !(0.0..=1.0).contains(&p) {
        return Err(PreferenceError::BadProportion { p });
    }
    if p == 0.0 || p == 1.0 {
        // Every outcome but one is impossible.
        let certain = if p == 0.0 { 0 } else { n };
        return Ok(if k == certain { 1.0 } else { 0.0 });
    }
    let (kf, nf) = (k as f64, n as f64);
    if kf == p * nf {
        return Ok(1.0);
    }
    let observed = ln_binomial_pmf(k, n, p).exp_p();
    let bound = observed * (1.0 + 1e-7);
    let mut total = 0.0;
    for i in 0..=n {
        let pmf = ln_binomial_pmf(i, n, p).exp_p();
        if pmf <= bound {
            total += pmf;
        }
    }
    Ok(total.min(1.0))
}

// ---------------------------------------------------------------------------------------------
// Bradley–Terry
// ---------------------------------------------------------------------------------------------

/// How [`bradley_terry`] fits.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BradleyTerryOptions {
    /// Virtual wins added for every system over every other system (so each pair gains 2 ×
    /// `pseudo_count` virtual comparisons, split evenly). Default 0: the data alone. A small
    /// value (e.g. 0.5) shrinks strengths toward equality and makes the fit exist even when a
    /// system never won or never lost.
    pub pseudo_count: f64,
    /// Stop when no strength (normalised to sum to 1) changes by more than this in one
    /// iteration. Default 1e-12.
    pub tolerance: f64,
    /// Give up after this many iterations (then `converged` is false). Default 100 000.
    pub max_iterations: usize,
}

impl Default for BradleyTerryOptions {
    fn default() -> Self {
        BradleyTerryOptions {
            pseudo_count: 0.0,
            tolerance: 1e-12,
            max_iterations: 100_000,
        }
    }
}

/// Bradley–Terry strengths.
#[derive(Debug, Clone, PartialEq)]
pub struct BradleyTerry {
    /// Sorted by name, as in the [`Tally`].
    pub systems: Vec<String>,
    /// Strengths πᵢ, summing to 1: P(i beats j) = πᵢ / (πᵢ + πⱼ).
    pub strengths: Vec<f64>,
    pub iterations: usize,
    pub converged: bool,
    /// Systems with no win and no tie (before any pseudo-count). With `pseudo_count` 0 their
    /// strength is exactly 0: the maximum-likelihood estimate does not exist for them (it
    /// tends to 0 relative to everyone they met).
    pub never_won: Vec<String>,
    /// Systems with no loss and no tie (before any pseudo-count): with `pseudo_count` 0 their
    /// strength is not finite; the iterations drift toward it and may stop unconverged.
    pub never_lost: Vec<String>,
    /// Whether every system beat (or tied), directly or through a chain, every other one,
    /// counting the pseudo-count. Without this the maximum-likelihood estimate does not
    /// exist (Ford 1957; Hunter 2004, Assumption 1) and strengths drift toward 0 or 1.
    pub strongly_connected: bool,
}

impl BradleyTerry {
    /// The strength of `system`, if it was compared.
    pub fn strength(&self, system: &str) -> Option<f64> {
        let i = self
            .systems
            .binary_search_by(|s| s.as_str().cmp(system))
            .ok()?;
        Some(self.strengths[i])
    }
}

fn check_options(options: &BradleyTerryOptions) -> Result<(), PreferenceError> {
    if !(options.pseudo_count.is_finite() && options.pseudo_count >= 0.0) {
        return Err(PreferenceError::BadOption {
            name: "pseudo_count",
            value: options.pseudo_count,
        });
    }
    if !(options.tolerance.is_finite() && options.tolerance > 0.0) {
        return Err(PreferenceError::BadOption {
            name: "tolerance",
            value: options.tolerance,
        });
    }
    Ok(())
}

/// Bradley–Terry strengths by Hunter's (2004) MM algorithm.
///
/// # Formula
/// With wᵢⱼ = (wins of i over j) + ½ (ties of i and j) + c (c = `pseudo_count`, for every
/// i ≠ j), Wᵢ = Σⱼ wᵢⱼ and Nᵢⱼ = wᵢⱼ + wⱼᵢ, start from πᵢ = 1/m and repeat
/// πᵢ ← Wᵢ / Σⱼ≠ᵢ Nᵢⱼ / (πᵢ + πⱼ) for all i at once, then divide by Σπ, until no πᵢ moves more
/// than `tolerance`. Each step increases the likelihood Πᵢⱼ (πᵢ/(πᵢ+πⱼ))^wᵢⱼ (Hunter 2004,
/// eq. 3; the iteration itself is Zermelo's 1929). Counting a tie as half a win to each side
/// is the convention of LLMFAO's published scores (evalica's default `tie_weight` 0.5).
///
/// A step smaller than the tolerance does not bound the distance to the fixed point when the
/// iteration converges slowly; at the default 1e-12 it is below 1e-9 on the data tested.
///
/// # Systems that never win or never lose
/// Nothing is added silently: the default `pseudo_count` is 0 and the fit uses the data alone.
/// A system with no win and no tie then gets strength exactly 0 (after the first step, and it
/// stays there: its likelihood is highest at 0), and is listed in
/// [`BradleyTerry::never_won`]; a system with no loss and no tie has no finite strength, is
/// listed in [`BradleyTerry::never_lost`], and the iteration drifts (it may stop at
/// `max_iterations` with `converged` false). More generally, the estimate exists only when
/// [`BradleyTerry::strongly_connected`] holds. The common fix is a small `pseudo_count`
/// (0.5 is a usual choice), which shrinks every strength toward equality; report it with the
/// results.
///
/// # Errors
/// No comparisons, or a negative or non-finite pseudo-count or non-positive tolerance.
///
/// # Reference
/// A plain Python implementation of the same iteration in the reference script (there is no
/// standard library function), at 1e-6; LLMFAO's published scores (evalica 0.1.2).
pub fn bradley_terry(
    tally: &Tally,
    options: &BradleyTerryOptions,
) -> Result<BradleyTerry, PreferenceError> {
    check_options(options)?;
    let m = tally.systems.len();
    if m == 0 {
        return Err(PreferenceError::NoComparisons);
    }
    let present = vec![true; m];
    let fit = fit(m, &tally.wins, &tally.ties, &present, options);
    let names = |flags: &[bool]| -> Vec<String> {
        flags
            .iter()
            .zip(&tally.systems)
            .filter(|(f, _)| **f)
            .map(|(_, s)| s.clone())
            .collect()
    };
    Ok(BradleyTerry {
        systems: tally.systems.clone(),
        strengths: fit.strengths,
        iterations: fit.iterations,
        converged: fit.converged,
        never_won: names(&fit.never_won),
        never_lost: names(&fit.never_lost),
        strongly_connected: fit.strongly_connected,
    })
}

struct Fit {
    /// NaN for systems not present.
    strengths: Vec<f64>,
    iterations: usize,
    converged: bool,
    never_won: Vec<bool>,
    never_lost: Vec<bool>,
    strongly_connected: bool,
}

/// The MM iteration over the systems flagged `present` (the others get NaN).
fn fit(
    m: usize,
    wins: &[u64],
    ties: &[u64],
    present: &[bool],
    options: &BradleyTerryOptions,
) -> Fit {
    let idx: Vec<usize> = (0..m).filter(|&i| present[i]).collect();
    let k = idx.len();
    let c = options.pseudo_count;
    // w[a][b] over the present systems, in the order of `idx`.
    let raw = |a: usize, b: usize| {
        let (i, j) = (idx[a], idx[b]);
        wins[i * m + j] as f64 + 0.5 * ties[i * m + j] as f64
    };
    let mut w = vec![0.0; k * k];
    for a in 0..k {
        for b in 0..k {
            if a != b {
                w[a * k + b] = raw(a, b) + c;
            }
        }
    }
    let total_won: Vec<f64> = (0..k).map(|a| (0..k).map(|b| w[a * k + b]).sum()).collect();
    let never_won_local: Vec<bool> = (0..k)
        .map(|a| (0..k).all(|b| a == b || raw(a, b) == 0.0))
        .collect();
    let never_lost_local: Vec<bool> = (0..k)
        .map(|a| (0..k).all(|b| a == b || raw(b, a) == 0.0))
        .collect();
    let mut pairs = Vec::new();
    for a in 0..k {
        for b in (a + 1)..k {
            let n = w[a * k + b] + w[b * k + a];
            if n > 0.0 {
                pairs.push((a, b, n));
            }
        }
    }
    let strongly_connected = strongly_connected(k, &w);

    let mut p = vec![1.0 / k as f64; k];
    let mut iterations = 0;
    let mut converged = false;
    let mut denom = vec![0.0; k];
    // One buffer for the next strengths, swapped with `p` (no allocation per iteration).
    let mut next = vec![0.0; k];
    while iterations < options.max_iterations {
        iterations += 1;
        denom.iter_mut().for_each(|d| *d = 0.0);
        for &(a, b, n) in &pairs {
            let s = n / (p[a] + p[b]);
            denom[a] += s;
            denom[b] += s;
        }
        for (a, x) in next.iter_mut().enumerate() {
            *x = if denom[a] > 0.0 {
                total_won[a] / denom[a]
            } else {
                0.0
            };
        }
        let sum: f64 = next.iter().sum();
        next.iter_mut().for_each(|x| *x /= sum);
        let change = next
            .iter()
            .zip(&p)
            .map(|(x, y)| (x - y).abs())
            .fold(0.0, f64::max);
        std::mem::swap(&mut p, &mut next);
        if change <= options.tolerance {
            converged = true;
            break;
        }
    }

    let mut strengths = vec![f64::NAN; m];
    let mut never_won = vec![false; m];
    let mut never_lost = vec![false; m];
    for (a, &i) in idx.iter().enumerate() {
        strengths[i] = p[a];
        never_won[i] = never_won_local[a];
        never_lost[i] = never_lost_local[a];
    }
    Fit {
        strengths,
        iterations,
        converged,
        never_won,
        never_lost,
        strongly_connected,
    }
}

/// Whether the digraph a → b (w[a][b] > 0) is strongly connected: everyone reaches system 0
/// and system 0 reaches everyone.
fn strongly_connected(k: usize, w: &[f64]) -> bool {
    let reach = |forward: bool| {
        let mut seen = vec![false; k];
        let mut stack = vec![0];
        seen[0] = true;
        while let Some(a) = stack.pop() {
            for b in 0..k {
                let edge = if forward { w[a * k + b] } else { w[b * k + a] };
                if edge > 0.0 && !seen[b] {
                    seen[b] = true;
                    stack.push(b);
                }
            }
        }
        seen.into_iter().all(|s| s)
    };
    k == 0 || (reach(true) && reach(false))
}

/// A bootstrap interval of one system's Bradley–Terry strength.
#[derive(Debug, Clone, PartialEq)]
pub struct StrengthInterval {
    pub system: String,
    /// The strength fitted on all comparisons.
    pub strength: f64,
    /// `None` only if the system appeared in no resample.
    pub interval: Option<Interval>,
    /// Resamples in which the system appeared (its interval uses only those).
    pub resamples_used: usize,
}

/// Percentile bootstrap intervals of Bradley–Terry strengths, resampling comparisons,
/// reproducible from `seed`.
///
/// # Formula
/// For each resample r in 0..`resamples`, the stream `Stream::new(seed, "bootstrap", r, 1)`
/// ([`crate::base::rng`]) draws N indices into `comparisons` in order with `below(N)`;
/// [`bradley_terry`] (with `options`) is fitted on those comparisons. A system's interval is the
/// α/2 and 1 − α/2 quantiles (α = 1 − `level`, linear interpolation between order
/// statistics as numpy's default) of its strengths over the resamples in which it appears.
///
/// A system missing from a resample has no strength there, and the others are normalised
/// among themselves; with a realistic amount of data this does not happen, and
/// `resamples_used` tells when it did.
///
/// # Errors
/// No comparisons, a self-comparison, no resamples, a level outside (0, 1), or bad options.
///
/// # Reference
/// The reference script draws the same resamples with its Python copy of the stream and fits
/// them with its plain MM implementation, at 1e-6.
pub fn bradley_terry_bootstrap(
    comparisons: &[Comparison],
    options: &BradleyTerryOptions,
    level: f64,
    resamples: usize,
    seed: u64,
) -> Result<Vec<StrengthInterval>, PreferenceError> {
    check_level(level)?;
    check_options(options)?;
    if resamples == 0 {
        return Err(PreferenceError::NoResamples);
    }
    let tally = Tally::from_comparisons(comparisons)?;
    let full = bradley_terry(&tally, options)?;
    let m = tally.systems.len();
    let indexed = index_comparisons(&tally.systems, comparisons);
    let n = indexed.len();
    let mut samples: Vec<Vec<f64>> = vec![Vec::with_capacity(resamples); m];
    for r in 0..resamples {
        let mut stream = Stream::new(seed, "bootstrap", r as u64, 1);
        let drawn: Vec<&(usize, usize, Outcome)> =
            (0..n).map(|_| &indexed[stream.below(n)]).collect();
        let mut present = vec![false; m];
        for &&(a, b, _) in &drawn {
            present[a] = true;
            present[b] = true;
        }
        let (wins, ties) = count(m, drawn.into_iter());
        let fit = fit(m, &wins, &ties, &present, options);
        for (i, s) in fit.strengths.into_iter().enumerate() {
            if present[i] {
                samples[i].push(s);
            }
        }
    }
    let alpha = 1.0 - level;
    Ok(tally
        .systems
        .iter()
        .enumerate()
        .map(|(i, system)| {
            let v = &mut samples[i];
            v.sort_by(f64::total_cmp);
            let interval = (!v.is_empty()).then(|| Interval {
                low: quantile_sorted(v, alpha / 2.0),
                high: quantile_sorted(v, 1.0 - alpha / 2.0),
            });
            StrengthInterval {
                system: system.clone(),
                strength: full.strengths[i],
                interval,
                resamples_used: v.len(),
            }
        })
        .collect())
}
