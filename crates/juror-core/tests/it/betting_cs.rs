//! `stats::sequential::share_sequence` (the betting confidence sequence for a share) against an
//! independent numpy implementation of the hedged capital process.
//!
//! Every expected value comes from `tests/reference/betting_cs/reference.json`, written by
//! `make_reference.py` beside it (numpy's version in its `versions` object). The bounds are
//! grid points, so they agree to rounding (1e-12); the mean is a closed form.

use juror_core::stats::sequential::betting::GRID;
use juror_core::stats::sequential::share_sequence;

use crate::support::{check, f, reference, tol};

fn floats(v: &serde_json::Value) -> Vec<f64> {
    v.as_array()
        .expect("an array")
        .iter()
        .map(|x| x.as_f64().expect("a number"))
        .collect()
}

#[test]
fn share_sequence_matches_numpy() {
    let r = reference("betting_cs");
    assert_eq!(r["grid"].as_u64(), Some(GRID as u64));
    let cases = r["cases"].as_array().expect("cases");
    assert_eq!(cases.len(), 5, "number of cases");
    let mut worst: f64 = 0.0;
    for case in cases {
        let name = case["name"].as_str().expect("name");
        let alpha = f(case, "alpha");
        let xs = floats(&case["values"]);
        let times = case["times"].as_array().expect("times");
        let (mean, low, high) = (
            floats(&case["mean"]),
            floats(&case["low"]),
            floats(&case["high"]),
        );
        for (i, t) in times.iter().enumerate() {
            let t = usize::try_from(t.as_u64().expect("a time")).expect("small");
            let s = share_sequence(&xs[..t], alpha).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(s.n, t);
            check(
                &format!("{name} mean at {t}"),
                s.mean,
                mean[i],
                tol::CLOSED_FORM,
            );
            check(&format!("{name} low at {t}"), s.low, low[i], 1e-12);
            check(&format!("{name} high at {t}"), s.high, high[i], 1e-12);
            worst = worst
                .max((s.low - low[i]).abs())
                .max((s.high - high[i]).abs());
        }
    }
    eprintln!("max |difference| of the bounds: {worst:e}");
}
