//! `stats::power::preference` (sizing preference and judge-plus-humans studies) against scipy.
//!
//! Every expected value comes from `tests/reference/power_preference/reference.json`, written
//! by `make_reference.py` beside it (library versions in its `versions` object): rejection
//! regions and sample sizes are equal, powers and PPI sizes agree within 1e-12. The
//! simulations are checked against the exact powers within their Monte Carlo intervals.

use juror_core::base::rng::Stream;
use juror_core::stats::judges::ppi_mean;
use juror_core::stats::math::Portable;
use juror_core::stats::power::preference::{
    Allocation, PpiPilot, PreferenceDesign, SizingError, Tuning, binomial_power,
    binomial_power_with_ties, binomial_sample_size, critical_count, ppi_half_width,
    ppi_sample_size, simulate_design,
};
use serde_json::Value;

use crate::support::{check, f, reference, u};

const TOLERANCE: f64 = 1e-12;

#[test]
fn regions_and_powers_match_scipy() {
    let r = reference("power_preference");
    let mut worst = 0.0f64;
    for case in r["regions"].as_array().unwrap() {
        let (n, alpha) = (u(case, "n"), f(case, "alpha"));
        let c = critical_count(n, alpha).unwrap();
        assert_eq!(c, case["critical"].as_u64(), "n {n} alpha {alpha}");
        for (p, want) in case["powers"].as_object().unwrap() {
            let got = binomial_power(n, p.parse().unwrap(), alpha).unwrap();
            let want = want.as_f64().unwrap();
            worst = worst.max((got - want).abs());
            check(
                &format!("power n {n} p {p} alpha {alpha}"),
                got,
                want,
                TOLERANCE,
            );
        }
    }
    eprintln!("binomial power: worst difference {worst:e}");
}

#[test]
fn the_saw_tooth_scan_matches_scipy() {
    let r = reference("power_preference");
    for case in r["sample_sizes"].as_array().unwrap() {
        let s = binomial_sample_size(
            f(case, "p"),
            f(case, "alpha"),
            f(case, "target"),
            u(case, "horizon"),
        )
        .unwrap();
        assert_eq!(s.first, u(case, "first"), "{s:?}");
        assert_eq!(s.stable, u(case, "stable"), "{s:?}");
        check(
            "first power",
            s.first_power,
            f(case, "first_power"),
            TOLERANCE,
        );
        check(
            "stable power",
            s.stable_power,
            f(case, "stable_power"),
            TOLERANCE,
        );
        check(
            "minimum",
            s.stable_minimum,
            f(case, "stable_minimum"),
            TOLERANCE,
        );
        for (i, want) in case["powers"].as_array().unwrap().iter().enumerate() {
            let got = binomial_power(i as u64 + 1, f(case, "p"), f(case, "alpha")).unwrap();
            check("scan power", got, want.as_f64().unwrap(), TOLERANCE);
        }
    }
}

#[test]
fn ppi_sizes_match_scipy() {
    let r = reference("power_preference");
    let mut worst = 0.0f64;
    for case in r["ppi"].as_array().unwrap() {
        let name = case["name"].as_str().unwrap();
        let pilot = PpiPilot {
            var_human: f(case, "var_y"),
            var_judge: f(case, "var_f"),
            covariance: f(case, "cov"),
        };
        let (big_n, w, level) = (
            u(case, "unlabelled"),
            f(case, "half_width"),
            f(case, "level"),
        );
        for (key, tuning) in [("plain", Tuning::Plain), ("tuned", Tuning::PowerTuned)] {
            let got = ppi_sample_size(&pilot, big_n, w, level, tuning);
            let want: &Value = &case[key];
            if want.is_null() {
                assert!(
                    matches!(got, Err(SizingError::JudgeFloor { .. })),
                    "{name} {key}: {got:?}"
                );
                continue;
            }
            let got = got.unwrap();
            let what = format!("{name} {key}");
            assert_eq!(got.humans, u(want, "humans"), "{what}: {got:?}");
            let exact = f(want, "exact");
            worst = worst.max((got.exact - exact).abs() / exact);
            check(&format!("{what} exact"), got.exact, exact, TOLERANCE);
            check(
                &format!("{what} lambda"),
                got.lambda,
                f(want, "lambda"),
                TOLERANCE,
            );
            check(
                &format!("{what} width"),
                got.half_width,
                f(want, "half_width"),
                TOLERANCE,
            );
            check(
                &format!("{what} humans only"),
                got.humans_only_exact,
                f(case, "humans_only_exact"),
                TOLERANCE,
            );
        }
    }
    eprintln!("PPI sizes: worst relative difference {worst:e}");
}

#[test]
fn equal_strengths_reject_at_the_size_and_two_systems_match_the_exact_power() {
    let design = PreferenceDesign {
        strengths: vec![1.0, 1.0, 1.5],
        allocation: Allocation::PerPair(40),
        ties: 0.0,
    };
    let r = simulate_design(&design, 0.05, 2000, 7).unwrap();
    assert_eq!(
        r,
        simulate_design(&design, 0.05, 2000, 7).unwrap(),
        "seeded"
    );
    for pair in &r.pairs {
        assert!(
            pair.interval.low <= pair.exact && pair.exact <= pair.interval.high,
            "{pair:?}"
        );
    }
    let null = &r.pairs[0];
    // The exact test is conservative: its size at n = 40 is below α.
    assert!(null.exact <= 0.05 && null.ordered.is_none(), "{null:?}");
    for (ties, allocation) in [(0.0, Allocation::PerPair(60)), (0.2, Allocation::Total(75))] {
        let two = PreferenceDesign {
            strengths: vec![0.65, 0.35],
            allocation,
            ties,
        };
        let r = simulate_design(&two, 0.05, 2000, 1).unwrap();
        let pair = &r.pairs[0];
        let exact = binomial_power_with_ties(pair.judgements as u64, 0.65, ties, 0.05).unwrap();
        assert_eq!(pair.exact, exact);
        if ties == 0.0 {
            assert_eq!(exact, binomial_power(60, 0.65, 0.05).unwrap());
        }
        assert!(
            pair.interval.low <= exact && exact <= pair.interval.high,
            "{pair:?}"
        );
        assert!(pair.ordered.is_some_and(|o| o > 0.9), "{pair:?}");
    }
}

#[test]
fn a_design_without_a_judgement_for_some_pair_is_refused() {
    let design = PreferenceDesign {
        strengths: vec![1.0, 2.0, 3.0, 4.0],
        allocation: Allocation::Total(5),
        ties: 0.0,
    };
    let e = simulate_design(&design, 0.05, 10, 1).unwrap_err();
    assert_eq!(e, SizingError::EmptyPair { pairs: 6, total: 5 });
    assert!(e.to_string().contains("at least one judgement per pair"));
}

/// Two independent standard normal draws (Box–Muller).
fn normals(stream: &mut Stream) -> (f64, f64) {
    let (u1, u2) = (stream.unit(), stream.unit());
    let r = (-2.0 * u1.ln_p()).sqrt();
    let t = 2.0 * std::f64::consts::PI * u2;
    (r * libm::cos(t), r * libm::sin(t))
}

#[test]
fn ppi_mean_at_the_computed_n_covers_with_the_target_width() {
    // Y ~ N(3, 1.2), f = judge with Var(f) = 1, corr 0.8; N = 1000 judge-only items.
    let (var_y, var_f, rho) = (1.2f64, 1.0f64, 0.8f64);
    let pilot = PpiPilot {
        var_human: var_y,
        var_judge: var_f,
        covariance: rho * (var_y * var_f).sqrt(),
    };
    let (big_n, w) = (1000usize, 0.12);
    let size = ppi_sample_size(&pilot, big_n as u64, w, 0.95, Tuning::PowerTuned).unwrap();
    let n = size.humans as usize;
    assert!((n as u64) < size.humans_only, "{size:?}");
    let (width, _) =
        ppi_half_width(&pilot, big_n as u64, n as u64, 0.95, Tuning::PowerTuned).unwrap();
    assert!(width <= w);
    let mut stream = Stream::new(1, "ppi-sizing-test", n as u64, big_n as u64);
    let draw = |stream: &mut Stream| {
        let (a, b) = normals(stream);
        let fv = 3.0 + var_f.sqrt() * a;
        let y = 3.0 + var_y.sqrt() * (rho * a + (1.0 - rho * rho).sqrt() * b);
        (y, fv)
    };
    let sims = 1000;
    let (mut covered, mut widths) = (0usize, Vec::with_capacity(sims));
    for _ in 0..sims {
        let (y, fl): (Vec<f64>, Vec<f64>) = (0..n).map(|_| draw(&mut stream)).unzip();
        let fu: Vec<f64> = (0..big_n).map(|_| draw(&mut stream).1).collect();
        let p = ppi_mean(&y, &fl, &fu, 0.95).unwrap();
        covered += usize::from(p.ci.0 <= 3.0 && 3.0 <= p.ci.1);
        widths.push((p.ci.1 - p.ci.0) / 2.0);
    }
    let coverage = covered as f64 / sims as f64;
    // 4 Monte Carlo SEs of a 0.95 coverage over 1000 studies: 0.028.
    assert!((coverage - 0.95).abs() < 0.028, "coverage {coverage}");
    let mean = widths.iter().sum::<f64>() / sims as f64;
    let sd = (widths.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / sims as f64).sqrt();
    // The mean half-width is the computed one within 4 Monte Carlo SEs plus the small-sample
    // bias of the SDs and of the estimated λ (1% of w).
    let slack = 4.0 * sd / (sims as f64).sqrt() + 0.01 * w;
    assert!(
        (mean - width).abs() < slack,
        "mean {mean} vs {width} ± {slack}"
    );
    eprintln!("PPI simulation: n {n}, coverage {coverage}, mean half-width {mean} vs {width}");
}
