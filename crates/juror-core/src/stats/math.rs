//! `exp`, `ln` and `ln_1p` from the `libm` crate, everywhere.
//!
//! Rust's standard library takes these from the system's C library natively (glibc), and from
//! its own port of musl's libm (the `libm` crate's code) on `wasm32-unknown-unknown`, which has
//! no C library. The two differ in the last bit for some arguments, so the same report came
//! out with p-values an ulp apart in the Analyse page and from `juror analyze`. Calling `libm`
//! on every target makes them bit-identical (`tests/e2e/analyse.spec.ts` compares the two
//! reports exactly). musl's functions are correctly rounded in nearly all cases (error below
//! 1 ulp), as glibc's are; the reference tests' tolerances are far above that.

/// The portable versions, as methods so that formulas keep their shape.
pub trait Portable {
    /// eˣ.
    fn exp_p(self) -> f64;
    /// The natural logarithm.
    fn ln_p(self) -> f64;
    /// ln(1 + x), accurate near 0.
    fn ln_1p_p(self) -> f64;
    /// selfʸ.
    fn pow_p(self, y: f64) -> f64;
    /// eˣ − 1, accurate near 0.
    fn exp_m1_p(self) -> f64;
}

impl Portable for f64 {
    fn exp_p(self) -> f64 {
        libm::exp(self)
    }
    fn ln_p(self) -> f64 {
        libm::log(self)
    }
    fn ln_1p_p(self) -> f64 {
        libm::log1p(self)
    }
    fn pow_p(self, y: f64) -> f64 {
        libm::pow(self, y)
    }
    fn exp_m1_p(self) -> f64 {
        libm::expm1(self)
    }
}

#[cfg(test)]
#[expect(
    clippy::disallowed_methods,
    reason = "compared with the platform's on purpose"
)]
mod tests {
    use super::Portable;

    #[test]
    fn agrees_with_std_to_an_ulp() {
        for &x in &[1e-300, 1e-10, 0.3, 1.0, 2.5, 10.0, 700.0] {
            let close = |a: f64, b: f64| (a - b).abs() <= 2.0 * f64::EPSILON * a.abs().max(b.abs());
            assert!(close(x.ln_p(), x.ln()), "ln {x}");
            assert!(close(x.ln_1p_p(), x.ln_1p()), "ln_1p {x}");
            assert!(close((-x).exp_p(), (-x).exp()), "exp -{x}");
        }
        assert_eq!(0.0f64.exp_p(), 1.0);
        assert_eq!(1.0f64.ln_p(), 0.0);
    }
}
