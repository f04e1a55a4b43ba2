//! Numbers written as text the way `{}` writes an `f64` (`1`, `0.25`, `1500000`, `-0`, `NaN`,
//! `inf`; the shortest digits that read back as the same number, in plain decimal notation),
//! without `core`'s float printing: [`Num`] takes the shortest digits from `zmij`,
//! which `serde_json` already links to write numbers, and lays them out in plain decimal
//! notation. The annotator's page writes its numbers through it, so that the float printer's
//! code and tables (about 13 KB of gzip wasm) stay out of that page; the researcher's tools
//! may use `{}` directly.

use std::fmt;

/// An `f64` that displays as `{}` displays it (property-tested against it). The one
/// difference: when the 17th significant digit is an exact tie (`…087.625` with room for two
/// decimals), `zmij` rounds it to even and `{}` up; both texts read back as the same number.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Num(pub f64);

impl fmt::Display for Num {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let x = self.0;
        if x.is_nan() {
            return f.write_str("NaN");
        }
        if x.is_infinite() {
            return f.write_str(if x < 0.0 { "-inf" } else { "inf" });
        }
        let mut buffer = zmij::Buffer::new();
        let shortest = buffer.format_finite(x);
        let (negative, unsigned) = match shortest.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, shortest),
        };
        let (mantissa, exponent) = match unsigned.split_once(['e', 'E']) {
            Some((m, e)) => (m, e.parse::<i32>().unwrap_or(0)),
            None => (unsigned, 0),
        };
        let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
        // The digits, and how many of them stand before the decimal point.
        let all = format!("{whole}{fraction}");
        let significant = all.trim_start_matches('0');
        let point = len_i32(whole) + exponent - (len_i32(&all) - len_i32(significant));
        let digits = significant.trim_end_matches('0');
        if negative {
            f.write_str("-")?;
        }
        if digits.is_empty() {
            return f.write_str("0");
        }
        let n = len_i32(digits);
        if point <= 0 {
            f.write_str("0.")?;
            for _ in point..0 {
                f.write_str("0")?;
            }
            f.write_str(digits)
        } else if point >= n {
            f.write_str(digits)?;
            for _ in n..point {
                f.write_str("0")?;
            }
            Ok(())
        } else {
            let (before, after) = digits.split_at(usize::try_from(point).unwrap_or(0));
            write!(f, "{before}.{after}")
        }
    }
}

/// A short text's length as `i32` (the digits of one `f64` are at most a few dozen).
fn len_i32(s: &str) -> i32 {
    i32::try_from(s.len()).unwrap_or(i32::MAX)
}

#[cfg(test)]
mod tests {
    use super::Num;

    #[test]
    fn writes_as_display_does() {
        for x in [
            0.0,
            -0.0,
            1.0,
            -1.0,
            0.1,
            0.25,
            1.5e6,
            123_456.789,
            1e21,
            1e22,
            1e-7,
            1.5e-300,
            5e-324,
            f64::MAX,
            f64::MIN_POSITIVE,
            f64::NAN,
            f64::INFINITY,
            f64::NEG_INFINITY,
            100.0,
            0.3,
            2.0 / 3.0,
        ] {
            assert_eq!(Num(x).to_string(), format!("{x}"), "{x:e}");
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(20_000))]
        #[test]
        fn every_bit_pattern_writes_as_display_does(bits in proptest::prelude::any::<u64>()) {
            let x = f64::from_bits(bits);
            let (ours, display) = (Num(x).to_string(), format!("{x}"));
            if ours != display {
                // Only an exact tie in the 17th significant digit (about 3 in 10,000 random
                // bit patterns): the same length, the last digit one lower, and the same number
                // read back.
                proptest::prop_assert_eq!(ours.len(), display.len());
                proptest::prop_assert_eq!(&ours[..ours.len() - 1], &display[..display.len() - 1]);
                proptest::prop_assert_eq!(ours.parse::<f64>().ok(), Some(x));
            }
        }

        #[test]
        fn short_decimals_write_as_display_does(m in -1_000_000i64..1_000_000, e in -12i32..12) {
            let x: f64 = format!("{m}e{e}").parse().unwrap();
            proptest::prop_assert_eq!(Num(x).to_string(), format!("{x}"));
        }
    }
}
