//! A nonasymptotic confidence sequence for a share (a mean of values in [0, 1]) by betting:
//! valid after any number of values, from the first on, for any distribution on [0, 1].
//!
//! # Formula
//! Against each candidate mean m, two bettors start with capital 1 and stake a predictable
//! fraction λ of it on the next value being above m (K⁺) or below it (K⁻):
//! K⁺ₜ(m) = Πᵢ≤ₜ (1 + λ⁺ᵢ(m)(xᵢ − m)), K⁻ₜ(m) = Πᵢ≤ₜ (1 − λ⁻ᵢ(m)(xᵢ − m)),
//! and the hedged capital is Kₜ(m) = max(θK⁺ₜ(m), (1 − θ)K⁻ₜ(m)) with θ = ½. When the values
//! have conditional mean m, K⁺ and K⁻ are nonnegative martingales, so Kₜ(m) ever reaches 1/α
//! with probability at most α (Ville's inequality), and
//! Cₜ = {m : Kₛ(m) < 1/α for every s ≤ t} (the running intersection)
//! covers the true mean at every t at once with probability at least 1 − α (Waudby-Smith and
//! Ramdas 2024, "Estimating means of bounded random variables by betting", JRSS-B 86(1),
//! Theorem 3, the hedged capital process).
//!
//! # Bets
//! The predictable plug-in of the paper: with μ̂ₜ = (½ + Σᵢ≤ₜ xᵢ)/(t + 1) and
//! σ̂²ₜ = (¼ + Σᵢ≤ₜ (xᵢ − μ̂ᵢ)²)/(t + 1) (σ̂²₀ = ¼),
//! λ̇ₜ = √(2 ln(2/α) / (σ̂²ₜ₋₁ · t · ln(1 + t))),
//! truncated per side as λ⁺ₜ(m) = min(λ̇ₜ, c/m) and λ⁻ₜ(m) = min(λ̇ₜ, c/(1 − m)) with c = ½, so
//! every factor is at least 1 − c = ½ and the capital never reaches 0. λ̇ₜ uses the values before
//! t only, which is all the guarantee needs; the constant inside (ln(2/α) here, ln(1/α) in the
//! `hedged_cs` of the authors' package `confseq`) only moves where the sequence is tightest.
//!
//! # Grid
//! Kₜ(m) is computed for m on the grid 0, 1/1000, …, 1 (1,001 points, as `confseq`'s
//! `betting_cs` with `breaks=1000`), each m dropped at the first t where it reaches 1/α. The
//! interval is [lowest surviving m − 1/1000, highest surviving m + 1/1000] cut to [0, 1]: one grid
//! step wider on each side, so that it contains the exact set between the grid points. (The
//! set is an interval: every factor of K⁺ is nonincreasing in m and every factor of K⁻
//! nondecreasing, so Kₜ(m) falls then rises in m.) The work is at most 1,001 × n products, and
//! far fewer as the set narrows. When no grid point survives (the
//! values are inconsistent with every fixed mean, which happens with probability at most α for
//! values with one mean, and readily when the share drifts), the result is
//! [`SequenceError::Contradicted`].
//!
//! Tested against an independent numpy implementation of the same process (capital by
//! `cumprod` on the whole grid, then the interval at every t and the running intersection of
//! those intervals, as `confseq` forms it), on seeded shares with ties, Bernoulli values,
//! continuous Beta values and a few values: `crates/juror-core/tests/it/betting_cs.rs` reads
//! `crates/juror-core/tests/reference/betting_cs/reference.json`, written by `make_reference.py`
//! beside it. Tolerance 1e-12 (the same grid points); measured: equal. And by simulation in this
//! module's tests: the share of paths whose sequence ever misses the true mean over 1..500 values
//! stays below α.

use super::{SequenceError, SequenceInterval};
use crate::stats::math::Portable;

/// The number of steps of the grid of candidate means: m = 0, 1/GRID, …, 1.
pub const GRID: usize = 1000;

/// c: each bettor stakes at most c/m (or c/(1 − m)), so every factor is at least 1 − c.
pub const TRUNCATION: f64 = 0.5;

/// Capital as value · RESCALE^−debt, so that a long losing streak does not underflow.
#[derive(Debug, Clone, Copy)]
struct Capital {
    value: f64,
    debt: u32,
}

const RESCALE: f64 = 1e100;

impl Capital {
    fn bet(&mut self, factor: f64) {
        self.value *= factor;
        if self.value < 1.0 / RESCALE {
            self.value *= RESCALE;
            self.debt += 1;
        } else if self.debt > 0 && self.value > RESCALE {
            self.value /= RESCALE;
            self.debt -= 1;
        }
    }

    /// Whether the capital is at least `threshold` (> 1): never while in debt, where it is
    /// below 1.
    fn reached(&self, threshold: f64) -> bool {
        self.debt == 0 && self.value >= threshold
    }
}

/// A candidate mean still in the sequence, with its two bettors' capital.
struct Candidate {
    m: f64,
    up: Capital,
    down: Capital,
}

/// λ̇ₜ for t = 1..n: the predictable plug-in bets (module doc).
fn plug_in_bets(xs: &[f64], alpha: f64) -> Vec<f64> {
    let log_term = 2.0 * (2.0 / alpha).ln_p();
    let mut sum = 0.0;
    let mut squares = 0.0;
    let mut variance = 0.25;
    xs.iter()
        .enumerate()
        .map(|(i, &x)| {
            let t = (i + 1) as f64;
            let bet = (log_term / (variance * t * t.ln_1p_p())).sqrt();
            sum += x;
            let mean = (0.5 + sum) / (t + 1.0);
            squares += (x - mean) * (x - mean);
            variance = (0.25 + squares) / (t + 1.0);
            bet
        })
        .collect()
}

/// The betting confidence sequence (1 − α) for the mean of `xs`, values in [0, 1] (a share:
/// wins 1, losses 0, ties ½), at t = `xs.len()`: the running intersection over every prefix,
/// on the grid of the module doc. Valid whatever the number of values and however often it is
/// looked at; `mean` is the plain mean of `xs`.
///
/// # Errors
/// No values, a value not finite or outside [0, 1], α outside (0, 1), or no candidate mean left
/// ([`SequenceError::Contradicted`]).
pub fn share_sequence(xs: &[f64], alpha: f64) -> Result<SequenceInterval, SequenceError> {
    if !(alpha > 0.0 && alpha < 1.0) {
        return Err(SequenceError::BadSetting);
    }
    if xs.is_empty() {
        return Err(SequenceError::NoValues);
    }
    for (index, &value) in xs.iter().enumerate() {
        if !value.is_finite() {
            return Err(SequenceError::NotFinite);
        }
        if !(0.0..=1.0).contains(&value) {
            return Err(SequenceError::OutOfRange { index, value });
        }
    }
    // θK⁺ ≥ 1/α with θ = ½, and likewise for K⁻.
    let threshold = 2.0 / alpha;
    let start = Capital {
        value: 1.0,
        debt: 0,
    };
    let mut alive: Vec<Candidate> = (0..=GRID)
        .map(|i| Candidate {
            m: i as f64 / GRID as f64,
            up: start,
            down: start,
        })
        .collect();
    for (t, (&x, bet)) in xs.iter().zip(plug_in_bets(xs, alpha)).enumerate() {
        alive.retain_mut(|c| {
            let d = x - c.m;
            // c/0 is +∞: at m = 0 (m = 1) the upward (downward) bettor cannot lose.
            c.up.bet(1.0 + bet.min(TRUNCATION / c.m) * d);
            c.down.bet(1.0 - bet.min(TRUNCATION / (1.0 - c.m)) * d);
            !(c.up.reached(threshold) || c.down.reached(threshold))
        });
        if alive.is_empty() {
            return Err(SequenceError::Contradicted { after: t + 1 });
        }
    }
    let step = 1.0 / GRID as f64;
    let (first, last) = match (alive.first(), alive.last()) {
        (Some(a), Some(b)) => (a.m, b.m),
        _ => return Err(SequenceError::Contradicted { after: xs.len() }),
    };
    Ok(SequenceInterval {
        n: xs.len(),
        mean: xs.iter().sum::<f64>() / xs.len() as f64,
        low: (first - step).max(0.0),
        high: (last + step).min(1.0),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// xorshift64*, uniform on (0, 1).
    fn uniform(state: &mut u64) -> f64 {
        *state ^= *state >> 12;
        *state ^= *state << 25;
        *state ^= *state >> 27;
        ((state.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 11) as f64 + 0.5) / (1u64 << 53) as f64
    }

    /// A share: 1 with probability `win`, ½ with probability `tie`, else 0.
    fn share(state: &mut u64, win: f64, tie: f64) -> f64 {
        let u = uniform(state);
        if u < win {
            1.0
        } else if u < win + tie {
            0.5
        } else {
            0.0
        }
    }

    #[test]
    fn intervals_are_nested_shrink_and_stay_in_the_unit_interval() {
        let mut state = 7u64;
        let xs: Vec<f64> = (0..1000).map(|_| share(&mut state, 0.5, 0.2)).collect();
        let mut previous = (0.0, 1.0);
        for n in [1, 5, 20, 100, 300, 1000] {
            let s = share_sequence(&xs[..n], 0.05).unwrap();
            assert!(0.0 <= s.low && s.low <= s.mean && s.mean <= s.high && s.high <= 1.0);
            assert!(s.low >= previous.0 && s.high <= previous.1, "n {n}: {s:?}");
            assert!(s.high - s.low < previous.1 - previous.0 || n == 1, "n {n}");
            previous = (s.low, s.high);
        }
        // At 1,000 values (SD 0.44) the fixed-n 95% interval is 0.054 wide; the sequence,
        // valid at every n at once, about twice that (0.11).
        assert!(previous.1 - previous.0 < 0.15, "{previous:?}");
    }

    #[test]
    fn simple_sequences_contain_their_mean() {
        let alternating: Vec<f64> = (0..200).map(|i| f64::from(i % 2)).collect();
        let s = share_sequence(&alternating, 0.05).unwrap();
        assert!(s.low < 0.5 && 0.5 < s.high, "{s:?}");
        let halves = vec![0.5; 200];
        let s = share_sequence(&halves, 0.05).unwrap();
        assert!(s.low < 0.5 && 0.5 < s.high && s.high - s.low < 0.2, "{s:?}");
        let wins = vec![1.0; 50];
        let s = share_sequence(&wins, 0.05).unwrap();
        assert_eq!(s.high, 1.0);
        assert!(s.low > 0.5, "{s:?}");
        let one = share_sequence(&[0.0], 0.05).unwrap();
        assert_eq!((one.low, one.high), (0.0, 1.0));
    }

    #[test]
    fn bad_input_is_an_error() {
        assert_eq!(
            share_sequence(&[0.5, 1.5], 0.05),
            Err(SequenceError::OutOfRange {
                index: 1,
                value: 1.5
            })
        );
        assert!(matches!(
            share_sequence(&[-0.1], 0.05),
            Err(SequenceError::OutOfRange { index: 0, .. })
        ));
        assert_eq!(
            share_sequence(&[f64::NAN], 0.05),
            Err(SequenceError::NotFinite)
        );
        assert_eq!(share_sequence(&[], 0.05), Err(SequenceError::NoValues));
        assert_eq!(share_sequence(&[0.5], 0.0), Err(SequenceError::BadSetting));
        assert_eq!(share_sequence(&[0.5], 1.0), Err(SequenceError::BadSetting));
        // A share that drifts from 1 to 0 is inconsistent with any fixed mean.
        let mut drift = vec![1.0; 300];
        drift.extend(vec![0.0; 300]);
        let err = share_sequence(&drift, 0.05).unwrap_err();
        assert!(
            matches!(err, SequenceError::Contradicted { after } if after > 300),
            "{err:?}"
        );
        assert!(err.to_string().contains("drift"), "{err}");
    }

    /// Long losing streaks rescale the capital instead of underflowing.
    #[test]
    fn long_sequences_keep_their_capital() {
        let mut c = Capital {
            value: 1.0,
            debt: 0,
        };
        for _ in 0..5000 {
            c.bet(0.5);
        }
        assert!(c.debt > 0 && c.value > 0.0 && !c.reached(20.0));
        for _ in 0..5000 {
            c.bet(2.0);
        }
        // Back to 1: still written as 1e100 in debt; one more doubling repays it.
        assert!(!c.reached(1.5));
        c.bet(2.0);
        assert_eq!(c.debt, 0);
        assert!((c.value - 2.0).abs() < 1e-9, "{}", c.value);
        assert!(c.reached(1.5));
    }

    #[test]
    fn paths_that_ever_miss_the_mean_are_at_most_alpha() {
        // Shares with ties (mean 0.55) and lopsided ones (mean 0.9); 1,000 paths of 500 values
        // each. The interval at 500 is the running intersection, so it misses the mean iff the
        // sequence ever did. Measured: 0.039 and 0.022 (2,000 paths: 0.035 and 0.023; the
        // numpy reference's process on its own 2,000 paths: 0.035 and 0.023).
        for (win, tie) in [(0.45, 0.2), (0.85, 0.1)] {
            let truth = win + 0.5 * tie;
            let mut state = 0x9E37_79B9_7F4A_7C15u64 ^ (win * 100.0) as u64;
            let paths = 1000;
            let mut missed = 0;
            for _ in 0..paths {
                let xs: Vec<f64> = (0..500).map(|_| share(&mut state, win, tie)).collect();
                let ever = match share_sequence(&xs, 0.05) {
                    Ok(s) => s.low > truth || s.high < truth,
                    Err(SequenceError::Contradicted { .. }) => true,
                    Err(e) => panic!("{e}"),
                };
                missed += usize::from(ever);
            }
            let rate = missed as f64 / paths as f64;
            // α plus three Monte Carlo standard errors.
            let bound = 0.05 + 3.0 * (0.05f64 * 0.95 / paths as f64).sqrt();
            assert!(rate <= bound, "mean {truth}: {rate}");
        }
    }
}
