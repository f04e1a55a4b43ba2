//! Student's t distribution: survival and distribution functions, density and quantile from the
//! incomplete beta function, and the noncentral t's distribution function (the power of the t
//! test and the interval of d_z).

use std::f64::consts::PI;

use super::find_root;
use super::gamma_beta::{beta_inc, beta_inc_parts, ln_gamma};
use super::normal::{normal_cdf, normal_quantile};
use crate::stats::math::Portable;

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
