//! `stats::ordinal` (the cumulative logit model) against statsmodels' `OrderedModel`.
//!
//! Every expected value comes from `tests/reference/ordinal/reference.json`, written by
//! `make_reference.py` beside it (library versions in its `versions` object). Two sets per case:
//! - `expected`: OrderedModel with the analytic score and Hessian in place of its numerical
//!   ones, through statsmodels' own optimizers and covariance code. Parameters, cut points,
//!   log-likelihood and both kinds of standard errors agree within 1e-6 relative
//!   (`tol::ITERATIVE`; measured: 1.3e-13 at most); `fits_match_statsmodels` prints the
//!   measured differences.
//! - `numdiff`: plain OrderedModel, whose numerical derivatives put its standard errors up to
//!   4e-6 (relative) off the exact ones: compared within 1e-5.
//!
//! A relative difference is |got − want| / max(|want|, 1e-3).

use std::time::Instant;

use juror_core::stats::ordinal::{self, Covariance, OrdinalData, OrdinalFit, SystemRating};
use serde_json::Value;

use crate::support::{f, reference, tol, u};

fn numbers(v: &Value) -> Vec<f64> {
    v.as_array()
        .unwrap_or_else(|| panic!("not an array: {v}"))
        .iter()
        .map(|x| x.as_f64().expect("a number"))
        .collect()
}

fn data(case: &Value) -> OrdinalData {
    let systems: Vec<&str> = case["systems"]
        .as_array()
        .expect("systems")
        .iter()
        .map(|s| s.as_str().expect("a system"))
        .collect();
    let ratings: Vec<SystemRating<'_>> = case["rows"]
        .as_array()
        .expect("rows")
        .iter()
        .map(|r| SystemRating {
            system: r[0].as_str().expect("system"),
            score: r[1].as_i64().expect("score"),
            annotator: r[2].as_str().expect("annotator"),
        })
        .collect();
    OrdinalData::by_system(&systems, &ratings).expect("the data")
}

/// Records the largest relative difference per quantity and fails above the tolerance.
#[derive(Default)]
struct Diffs(Vec<(String, f64)>);

impl Diffs {
    fn check(&mut self, quantity: &str, at: &str, got: &[f64], want: &[f64], tol: f64) {
        assert_eq!(got.len(), want.len(), "{quantity} ({at}): length");
        for (i, (&g, &w)) in got.iter().zip(want).enumerate() {
            let d = (g - w).abs() / w.abs().max(1e-3);
            assert!(
                d <= tol,
                "{quantity} ({at}, {i}): got {g:e}, want {w:e} (relative difference {d:e})"
            );
            match self.0.iter_mut().find(|(k, _)| k == quantity) {
                Some((_, m)) => *m = m.max(d),
                None => self.0.push((quantity.to_string(), d)),
            }
        }
    }

    fn print(&self, title: &str) {
        println!("{title}");
        for (quantity, d) in &self.0 {
            println!("  {quantity:<22} {d:.1e}");
        }
    }
}

fn ses(fit: &OrdinalFit, kind: Covariance) -> (Vec<f64>, Vec<f64>) {
    let params = fit.estimates(kind).expect("estimates");
    let cuts = fit.cut_points(kind).expect("cut points");
    (
        params.iter().map(|e| e.se).collect(),
        cuts.iter().map(|e| e.se).collect(),
    )
}

fn compare(diffs: &mut Diffs, name: &str, fit: &OrdinalFit, e: &Value, tol: f64) {
    let names: Vec<&str> = e["names"]
        .as_array()
        .expect("names")
        .iter()
        .map(|n| n.as_str().expect("a name"))
        .collect();
    assert_eq!(fit.names, names, "{name}: names");
    diffs.check("params", name, &fit.params, &numbers(&e["params"]), tol);
    diffs.check(
        "cut points",
        name,
        &fit.cut_points,
        &numbers(&e["cut_points"]),
        tol,
    );
    diffs.check("llf", name, &[fit.log_likelihood], &[f(e, "llf")], tol);
    let (bse, cut_se) = ses(fit, Covariance::Model);
    diffs.check("bse", name, &bse, &numbers(&e["bse"]), tol);
    diffs.check(
        "cut point se",
        name,
        &cut_se,
        &numbers(&e["cut_points_se"]),
        tol,
    );
    let (bse, cut_se) = ses(fit, Covariance::Cluster);
    diffs.check("bse cluster", name, &bse, &numbers(&e["bse_cluster"]), tol);
    let want = numbers(&e["cut_points_se_cluster"]);
    diffs.check("cut point se cluster", name, &cut_se, &want, tol);
}

#[test]
fn reference_was_made_with_recorded_versions() {
    let r = reference("ordinal");
    for lib in ["python", "numpy", "pandas", "scipy", "statsmodels"] {
        assert!(
            r["versions"][lib].as_str().is_some_and(|v| !v.is_empty()),
            "{lib} version missing"
        );
    }
}

#[test]
fn fits_match_statsmodels() {
    let r = reference("ordinal");
    let cases = r["cases"].as_array().expect("cases");
    assert_eq!(cases.len(), 3, "number of cases");
    let (mut exact, mut numdiff) = (Diffs::default(), Diffs::default());
    for case in cases {
        let name = case["name"].as_str().expect("name");
        let d = data(case);
        let e = &case["expected"];
        assert_eq!(d.n_obs() as u64, u(e, "nobs"), "{name}: nobs");
        assert_eq!(
            d.clusters().len() as u64,
            u(e, "n_groups"),
            "{name}: groups"
        );
        let fit = ordinal::fit(&d).unwrap_or_else(|err| panic!("{name}: {err}"));
        assert!(fit.converged, "{name}: converged");
        assert!(
            fit.max_abs_score < 1e-8,
            "{name}: score {}",
            fit.max_abs_score
        );
        compare(&mut exact, name, &fit, e, tol::ITERATIVE);
        compare(&mut numdiff, name, &fit, &case["numdiff"], 1e-5);
    }
    exact.print("largest relative differences from OrderedModel (exact derivatives)");
    numdiff.print("largest relative differences from OrderedModel (numerical derivatives)");
}

#[test]
fn the_unused_score_is_no_category() {
    let r = reference("ordinal");
    let case = &r["cases"][1];
    let d = data(case);
    assert_eq!(d.categories(), ["1", "3", "4", "5", "6", "7"]);
}

#[test]
fn odds_ratios_against_the_reference_are_the_exponentiated_coefficients() {
    let r = reference("ordinal");
    let case = &r["cases"][0];
    let fit = ordinal::fit(&data(case)).expect("a fit");
    for kind in [Covariance::Model, Covariance::Cluster] {
        let coefs = fit.coefficients(kind).expect("coefficients");
        let ors = fit.odds_ratios(kind).expect("odds ratios");
        // 4 systems: 6 pairs, the first 3 against the reference.
        assert_eq!(ors.len(), 6);
        for (or, c) in ors.iter().zip(&coefs) {
            assert_eq!(or.b, "base");
            assert_eq!(c.name, format!("system[T.{}]", or.a));
            assert!((or.log_odds_ratio - c.estimate).abs() < 1e-15);
            assert!((or.se - c.se).abs() < 1e-15);
            assert!((or.p_value - c.p_value).abs() < 1e-15);
            assert!(or.interval.low < or.odds_ratio && or.odds_ratio < or.interval.high);
        }
        // large (true effect 1.1) against tuned (0.6): rated higher, OR > 1.
        let lt = ors
            .iter()
            .find(|o| o.a == "large" && o.b == "tuned")
            .expect("large vs tuned");
        assert!(lt.odds_ratio > 1.0, "{lt:?}");
        let v = fit.covariance_of(kind).expect("covariance");
        let k = fit.params.len();
        let var = v[k + 1] + v[0] - 2.0 * v[k]; // columns 1 (large) and 0 (tuned)
        assert!((lt.se - var.sqrt()).abs() < 1e-14);
    }
}

/// 480,000 ratings (8 systems × 5 categories × 300 annotators × 200 items), timed in release:
/// `cargo test --release -p juror-core --test it ordinal::timing -- --ignored --nocapture`.
#[test]
#[ignore = "a timing, run by hand in release"]
fn timing_480k_ratings() {
    let systems: Vec<String> = (0..8).map(|s| format!("s{s}")).collect();
    let annotators: Vec<String> = (0..300).map(|a| format!("a{a:03}")).collect();
    let refs: Vec<&str> = systems.iter().map(String::as_str).collect();
    let mut ratings = Vec::with_capacity(480_000);
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
    for (a, annotator) in annotators.iter().enumerate() {
        for _item in 0..200 {
            for (s, system) in refs.iter().enumerate() {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                let noise = (state >> 11) as f64 / (1u64 << 53) as f64;
                let latent = 0.2 * s as f64 + 0.01 * (a % 7) as f64 + 2.0 * noise;
                let score = (latent.floor() as i64).clamp(0, 2) + i64::from(noise > 0.9) * 2;
                ratings.push(SystemRating {
                    system,
                    score,
                    annotator,
                });
            }
        }
    }
    let t0 = Instant::now();
    let d = OrdinalData::by_system(&refs, &ratings).expect("data");
    let t1 = Instant::now();
    let fit = ordinal::fit(&d).expect("a fit");
    let t2 = Instant::now();
    println!(
        "{} ratings, {} cells: build {:?}, fit {:?} ({} iterations, converged {})",
        d.n_obs(),
        d.n_cells(),
        t1 - t0,
        t2 - t1,
        fit.iterations,
        fit.converged
    );
}
