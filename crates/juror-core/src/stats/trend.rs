//! Trends of ratings over rounds: the least-squares slope with its t test, and Spearman's rank
//! correlation, to see whether raters drift, tire or learn during a session.
//!
//! Conventions as in [`super::paired`]: every input must be finite, and an input that cannot give
//! the statistic is a [`PairedError`] saying what to do, never NaN and never a panic. Spearman's
//! rho of a constant series is `None`.
//!
//! Tested against `scipy.stats.linregress` and `scipy.stats.spearmanr` at 1e-9:
//! `crates/juror-core/tests/it/paired.rs` reads
//! `crates/juror-core/tests/reference/paired/reference.json`, written by `make_reference.py`
//! beside it.

use super::describe::{average_ranks, mean};
use super::paired::{PairedError, check_len};
use super::special;

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

impl LinearFit {
    /// The `level` t interval of the slope: slope ± t₍₁₊level₎/₂(n − 2) · SE (as
    /// `statsmodels` OLS `conf_int` of the slope, and scipy's `t.interval`).
    pub fn slope_ci(&self, level: f64) -> (f64, f64) {
        let df = self.n as f64 - 2.0;
        let half = special::t_quantile(0.5 + level / 2.0, df) * self.slope_se;
        (self.slope - half, self.slope + half)
    }

    /// The one-sided p-value of slope = 0 against `greater` (slope > 0) or less: the t test
    /// t = slope / SE on n − 2 degrees of freedom (as `linregress(x, y, alternative=...)`).
    pub fn one_sided_p(&self, greater: bool) -> f64 {
        let df = self.n as f64 - 2.0;
        if self.slope_se == 0.0 {
            let up = self.slope > 0.0;
            return if up == greater { 0.0 } else { 1.0 };
        }
        let t = self.slope / self.slope_se;
        if greater {
            special::t_sf(t, df)
        } else {
            special::t_sf(-t, df)
        }
    }
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
