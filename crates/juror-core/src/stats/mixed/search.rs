//! The one-dimensional searches of the REML fit in θ: Brent's root finder on the restricted
//! score and golden-section search on the restricted likelihood.

use super::{MAX_ITERATIONS, MixedError};

/// A root of `f` between `a` and `b` (f(a) > 0 > f(b)) by Brent's method (Brent 1973,
/// "Algorithms for Minimization without Derivatives", ch. 4: bisection, secant and inverse
/// quadratic interpolation), to an absolute width `tol` plus 2ε|x|. Returns the root and
/// whether it met the tolerance within [`MAX_ITERATIONS`] steps.
pub(super) fn brent_root(
    mut f: impl FnMut(f64) -> Result<f64, MixedError>,
    (mut a, mut fa): (f64, f64),
    (mut b, mut fb): (f64, f64),
    tol: f64,
) -> Result<(f64, bool), MixedError> {
    let (mut c, mut fc) = (b, fb);
    let mut d = b - a;
    let mut e = d;
    for _ in 0..MAX_ITERATIONS {
        if (fb > 0.0) == (fc > 0.0) {
            c = a;
            fc = fa;
            d = b - a;
            e = d;
        }
        if fc.abs() < fb.abs() {
            (a, b, c) = (b, c, b);
            (fa, fb, fc) = (fb, fc, fb);
        }
        let tol1 = 2.0 * f64::EPSILON * b.abs() + 0.5 * tol;
        let xm = 0.5 * (c - b);
        if xm.abs() <= tol1 || fb == 0.0 {
            return Ok((b, true));
        }
        if e.abs() >= tol1 && fa.abs() > fb.abs() {
            // Interpolate: secant when only two points differ, else inverse quadratic.
            let s = fb / fa;
            let (mut pp, mut qq) = if a == c {
                (2.0 * xm * s, 1.0 - s)
            } else {
                let q0 = fa / fc;
                let r = fb / fc;
                (
                    s * (2.0 * xm * q0 * (q0 - r) - (b - a) * (r - 1.0)),
                    (q0 - 1.0) * (r - 1.0) * (s - 1.0),
                )
            };
            if pp > 0.0 {
                qq = -qq;
            }
            pp = pp.abs();
            let min1 = 3.0 * xm * qq - (tol1 * qq).abs();
            let min2 = (e * qq).abs();
            if 2.0 * pp < min1.min(min2) {
                e = d;
                d = pp / qq;
            } else {
                d = xm;
                e = d;
            }
        } else {
            d = xm;
            e = d;
        }
        a = b;
        fa = fb;
        b += if d.abs() > tol1 { d } else { tol1.copysign(xm) };
        fb = f(b)?;
    }
    Ok((b, false))
}

/// The maximum of `f` on [`lo`, `hi`] by golden-section search, to a width `tol`: the fallback
/// for a bracket where the score does not go from positive to negative.
pub(super) fn golden_max(
    mut f: impl FnMut(f64) -> Result<f64, MixedError>,
    mut lo: f64,
    mut hi: f64,
    tol: f64,
) -> Result<(f64, bool), MixedError> {
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    let mut x1 = hi - ratio * (hi - lo);
    let mut x2 = lo + ratio * (hi - lo);
    let (mut f1, mut f2) = (f(x1)?, f(x2)?);
    for _ in 0..MAX_ITERATIONS {
        if hi - lo <= tol {
            return Ok((0.5 * (lo + hi), true));
        }
        if f1 >= f2 {
            hi = x2;
            x2 = x1;
            f2 = f1;
            x1 = hi - ratio * (hi - lo);
            f1 = f(x1)?;
        } else {
            lo = x1;
            x1 = x2;
            f1 = f2;
            x2 = lo + ratio * (hi - lo);
            f2 = f(x2)?;
        }
    }
    Ok((0.5 * (lo + hi), false))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn brent_finds_a_root() {
        let (x, ok) = brent_root(|x| Ok(2.0 - x * x), (0.0, 2.0), (2.0, -2.0), 1e-15).unwrap();
        assert!(ok);
        assert!((x - 2f64.sqrt()).abs() < 1e-14, "{x}");
        let (x, ok) = golden_max(|x| Ok(-(x - 0.3) * (x - 0.3)), 0.0, 1.0, 1e-10).unwrap();
        assert!(ok);
        assert!((x - 0.3).abs() < 1e-9, "{x}");
    }
}
