//! `stats::mixed` against statsmodels' `MixedLM` (REML), `OLS` and a dense numpy REML.
//!
//! Every expected value comes from `tests/reference/mixed/reference.json`, written by
//! `make_reference.py` beside it (library versions in its `versions` object). Tolerances:
//! - fits (estimates, standard errors, z, p, variance components, log-likelihood): 1e-6
//!   relative, as for every iterative fit. statsmodels was run to a profile score below 1e-10
//!   (the script checks it) and Juror locates the root of the score to 1e-12, so the measured
//!   differences are far smaller; `fits_match_statsmodels` prints them.
//! - the profiled likelihood at fixed θ (no optimizer on either side): 1e-9.
//! - the boundary case: statsmodels cannot converge there (its parameter is √θ, whose score
//!   vanishes at 0) and stops at θ ≈ 1e-10; its standard errors in the statsmodels convention
//!   are compared at 1e-6 all the same, the expected point estimates are `OLS`'s.
//!
//! A relative difference is |got − want| / |want|, except for a fixed effect, whose floor is
//! its standard error: an estimate of 1e-4 ± 0.02 is compared on the scale of 0.02.

#![expect(
    clippy::disallowed_methods,
    reason = "test data is generated natively only: the platform's `ln` is fine here"
)]

use juror_core::base::rng::Stream;
use juror_core::stats::mixed::{
    self, MixedData, MixedError, MixedFit, RemlOptions, RoundRating, StandardErrors,
};
use serde_json::Value;

use crate::support::{f, reference, tol};

fn cases(r: &Value) -> &Vec<Value> {
    r["cases"].as_array().expect("cases")
}

/// Relative difference of `got` from `want`, on the scale max(|want|, floor).
fn rel(got: f64, want: f64, floor: f64) -> f64 {
    (got - want).abs() / want.abs().max(floor)
}

/// Records the largest relative difference per quantity and fails above the tolerance.
#[derive(Default)]
struct Diffs(Vec<(String, f64)>);

impl Diffs {
    /// `quantity` names the row of the summary, `at` says where in the failure message.
    fn check(&mut self, quantity: &str, at: &str, got: f64, want: f64, floor: f64, tol: f64) {
        let d = rel(got, want, floor);
        assert!(
            d <= tol,
            "{quantity} ({at}): got {got:e}, want {want:e} (relative difference {d:e} > {tol:e})"
        );
        match self.0.iter_mut().find(|(k, _)| k == quantity) {
            Some((_, m)) => *m = m.max(d),
            None => self.0.push((quantity.to_string(), d)),
        }
    }

    fn print(&self, title: &str) {
        println!("{title}");
        for (quantity, d) in &self.0 {
            println!("  {quantity:<26} {d:.1e}");
        }
    }
}

/// The case's data through [`MixedData::system_by_round`], systems in the stored order (reference first).
fn data(case: &Value) -> MixedData {
    let systems: Vec<&str> = case["systems"]
        .as_array()
        .expect("systems")
        .iter()
        .map(|s| s.as_str().expect("a system"))
        .collect();
    let rows = case["rows"].as_array().expect("rows");
    let ratings: Vec<RoundRating<'_>> = rows
        .iter()
        .map(|r| RoundRating {
            annotator: r[0].as_str().expect("annotator"),
            system: r[1].as_str().expect("system"),
            round: r[2].as_f64().expect("round"),
            rating: r[3].as_f64().expect("rating"),
        })
        .collect();
    MixedData::system_by_round(&systems, &ratings).expect("valid data")
}

fn fit(case: &Value, standard_errors: StandardErrors) -> MixedFit {
    mixed::reml_with(&data(case), RemlOptions { standard_errors }).expect("a fit")
}

#[test]
fn fits_match_statsmodels() {
    let r = reference("mixed");
    let mut diffs = Diffs::default();
    for case in cases(&r) {
        let name = case["name"].as_str().expect("name");
        let want = &case["expected"];
        let model = fit(case, StandardErrors::Model);
        let sm = fit(case, StandardErrors::Statsmodels);
        for got in [&model, &sm] {
            assert!(got.converged, "{name}: not converged");
            assert_eq!(got.boundary, want["boundary"].as_bool().expect("boundary"));
            assert_eq!(got.n_obs as f64, f(want, "n_obs"), "{name}");
            assert_eq!(got.n_groups as f64, f(want, "n_groups"), "{name}");
        }
        if model.boundary {
            assert_eq!(model.group_variance, 0.0, "{name}");
        } else {
            let want = f(want, "group_variance");
            diffs.check(
                "group variance",
                name,
                model.group_variance,
                want,
                0.0,
                tol::ITERATIVE,
            );
        }
        let checks = [
            (
                "residual variance",
                model.residual_variance,
                "residual_variance",
            ),
            ("log-likelihood", model.log_likelihood, "log_likelihood"),
        ];
        for (quantity, got, key) in checks {
            diffs.check(quantity, name, got, f(want, key), 0.0, tol::ITERATIVE);
        }

        let expected = want["fixed_effects"].as_array().expect("fixed effects");
        assert_eq!(model.fixed_effects.len(), expected.len(), "{name}");
        for w in expected {
            let column = w["name"].as_str().expect("name");
            let at = format!("{name}, {column}");
            let m = model
                .fixed(column)
                .unwrap_or_else(|| panic!("{name}: no column {column}"));
            let s = sm.fixed(column).expect("the same columns");
            assert_eq!(m.estimate, s.estimate, "{at}");
            let checks = [
                ("estimate", m.estimate, "estimate", m.se),
                ("se (model)", m.se, "se_model", 0.0),
                ("z (model)", m.z, "z_model", 1.0),
                ("p (model)", m.p_value, "p_model", 0.0),
                ("se (statsmodels)", s.se, "se_statsmodels", 0.0),
                ("z (statsmodels)", s.z, "z_statsmodels", 1.0),
                ("p (statsmodels)", s.p_value, "p_statsmodels", 0.0),
            ];
            for (quantity, got, key, floor) in checks {
                diffs.check(quantity, &at, got, f(w, key), floor, tol::ITERATIVE);
            }
        }

        // The stored weights follow statsmodels' (alphabetical) column order; ours follow the
        // given system order, so place them by name.
        let slope = &want["slope"];
        let mut weights = vec![0.0; expected.len()];
        for (w, e) in slope["weights"]
            .as_array()
            .expect("weights")
            .iter()
            .zip(expected)
        {
            let column = e["name"].as_str().expect("name");
            let j = model
                .fixed_effects
                .iter()
                .position(|fe| fe.name == column)
                .expect("column");
            weights[j] = w.as_f64().expect("a weight");
        }
        let cm = model.contrast(&weights).expect("contrast");
        let cs = sm.contrast(&weights).expect("contrast");
        assert_eq!(cm.estimate, cs.estimate);
        let checks = [
            ("slope estimate", cm.estimate, "estimate", cm.se),
            ("slope se (model)", cm.se, "se_model", 0.0),
            ("slope p (model)", cm.p_value, "p_model", 0.0),
            ("slope se (statsmodels)", cs.se, "se_statsmodels", 0.0),
            ("slope p (statsmodels)", cs.p_value, "p_statsmodels", 0.0),
        ];
        for (quantity, got, key, floor) in checks {
            diffs.check(quantity, name, got, f(slope, key), floor, tol::ITERATIVE);
        }
    }
    diffs.print("largest relative differences from statsmodels (OLS at the boundary):");
}

#[test]
fn profiled_likelihood_matches_statsmodels_at_fixed_theta() {
    let r = reference("mixed");
    let mut diffs = Diffs::default();
    for case in cases(&r) {
        let name = case["name"].as_str().expect("name");
        let d = data(case);
        let names: Vec<&str> = case["expected"]["fixed_effects"]
            .as_array()
            .expect("fixed effects")
            .iter()
            .map(|w| w["name"].as_str().expect("name"))
            .collect();
        for point in case["profile"].as_array().expect("profile") {
            let theta = f(point, "theta");
            let at = format!("{name}, theta {theta}");
            let got = mixed::profile(&d, theta).expect("profile");
            let want = f(point, "log_likelihood");
            diffs.check(
                "log-likelihood",
                &at,
                got.log_likelihood,
                want,
                0.0,
                tol::CLOSED_FORM,
            );
            let want = f(point, "score");
            diffs.check("score", &at, got.score, want, 1.0, tol::CLOSED_FORM);
            for (n, w) in names.iter().zip(point["fixed"].as_array().expect("fixed")) {
                let j = d.columns().iter().position(|c| c == n).expect("column");
                let want = w.as_f64().expect("a number");
                let at = format!("{at}, {n}");
                diffs.check("beta", &at, got.fixed[j], want, 1e-3, tol::CLOSED_FORM);
            }
        }
    }
    diffs.print("largest relative differences from statsmodels' loglike and score at fixed theta:");
}

#[test]
fn builder_names_columns_like_patsy() {
    let ratings = [
        RoundRating {
            annotator: "p1",
            system: "hare",
            round: 2.0,
            rating: 4.0,
        },
        RoundRating {
            annotator: "p1",
            system: "rag",
            round: 2.0,
            rating: 3.0,
        },
    ];
    let d = MixedData::system_by_round(&["rag", "hare"], &ratings).expect("data");
    assert_eq!(
        d.columns(),
        [
            "Intercept",
            "system[T.hare]",
            "round",
            "system[T.hare]:round"
        ]
    );
    assert_eq!(d.row(0), [1.0, 1.0, 2.0, 2.0]);
    assert_eq!(d.row(1), [1.0, 0.0, 2.0, 0.0]);
    assert_eq!((d.group(0), d.response(0)), ("p1", 4.0));
}

#[test]
fn builder_errors_say_where() {
    let rating = |system, round, rating| RoundRating {
        annotator: "p1",
        system,
        round,
        rating,
    };
    let ok = [rating("rag", 1.0, 3.0), rating("hare", 1.0, 4.0)];
    assert_eq!(
        MixedData::system_by_round(&[], &ok),
        Err(MixedError::NoSystems)
    );
    assert_eq!(
        MixedData::system_by_round(&["rag", "hare", "rag"], &ok),
        Err(MixedError::DuplicateSystem {
            system: "rag".into()
        })
    );
    assert_eq!(
        MixedData::system_by_round(&["rag"], &ok),
        Err(MixedError::UnknownSystem {
            index: 1,
            system: "hare".into()
        })
    );
    assert_eq!(
        MixedData::system_by_round(&["rag", "hare", "gpt2"], &ok),
        Err(MixedError::Unrated {
            system: "gpt2".into()
        })
    );
    let bad = [rating("rag", 1.0, 3.0), rating("hare", f64::NAN, 4.0)];
    let err = MixedData::system_by_round(&["rag", "hare"], &bad).unwrap_err();
    let MixedError::NotFinite { index, what, value } = &err else {
        panic!("{err:?}")
    };
    assert_eq!((*index, what.as_str()), (1, "round"));
    assert!(value.is_nan());
    assert_eq!(
        err.to_string(),
        "observation 1: round is NaN; remove or fix the value (every input must be finite)"
    );
}

#[test]
fn invalid_models_are_errors_not_nan() {
    let mut one_group = MixedData::new(vec!["Intercept".into()]);
    for y in [1.0, 2.0, 4.0] {
        one_group.push("p1", &[1.0], y).expect("push");
    }
    assert_eq!(
        mixed::reml(&one_group),
        Err(MixedError::TooFewGroups { groups: 1 })
    );

    let mut twice = MixedData::new(vec!["Intercept".into(), "x".into(), "2x".into()]);
    for (g, x, y) in [
        ("a", 1.0, 1.0),
        ("a", 2.0, 3.0),
        ("b", 3.0, 2.0),
        ("b", 5.0, 6.0),
    ] {
        twice.push(g, &[1.0, x, 2.0 * x], y).expect("push");
    }
    assert_eq!(
        mixed::reml(&twice),
        Err(MixedError::Collinear {
            column: "2x".into()
        })
    );

    let mut exact = MixedData::new(vec!["Intercept".into(), "x".into()]);
    for (g, x) in [("a", 1.0), ("a", 2.0), ("b", 3.0), ("b", 5.0)] {
        exact.push(g, &[1.0, x], 1.0 + 2.0 * x).expect("push");
    }
    assert_eq!(mixed::reml(&exact), Err(MixedError::NoResidualVariance));

    let mut few = MixedData::new(vec!["Intercept".into(), "x".into()]);
    few.push("a", &[1.0, 0.0], 1.0).expect("push");
    few.push("b", &[1.0, 1.0], 2.0).expect("push");
    assert_eq!(
        mixed::reml(&few),
        Err(MixedError::TooFewObservations { n: 2, p: 2 })
    );

    let mut d = MixedData::new(vec!["Intercept".into(), "x".into()]);
    assert_eq!(
        d.push("a", &[1.0], 1.0),
        Err(MixedError::RowLength {
            index: 0,
            expected: 2,
            got: 1
        })
    );
    assert!(matches!(
        d.push("a", &[1.0, f64::INFINITY], 1.0),
        Err(MixedError::NotFinite { index: 0, ref what, .. }) if what == "x"
    ));
    assert_eq!(d.n_obs(), 0, "a refused observation is not added");
}

/// Box–Muller normals from Juror's seeded stream.
fn normals(seed: u64, n: usize) -> Vec<f64> {
    let mut s = Stream::new(seed, "mixed-test", 0, 0);
    let mut uniform = || (s.below(1 << 30) as f64 + 0.5) / (1u64 << 30) as f64;
    (0..n)
        .map(|_| {
            let (u, v) = (uniform(), uniform());
            (-2.0 * u.ln()).sqrt() * (2.0 * std::f64::consts::PI * v).cos()
        })
        .collect()
}

/// 300 annotators × 4 systems × 40 rounds = 48,000 ratings, σ_u = 0.5, σ_e = 1.
fn large() -> Vec<(String, &'static str, f64, f64)> {
    let systems = ["rag", "hare", "vanilla", "random"];
    let intercepts = normals(1, 300);
    let noise = normals(2, 300 * 4 * 40);
    let mut rows = Vec::with_capacity(noise.len());
    for (a, u) in intercepts.iter().enumerate() {
        for (j, s) in systems.iter().enumerate() {
            for r in 1..=40 {
                let i = rows.len();
                let slope = if *s == "hare" { 0.02 } else { 0.0 };
                let y = 3.0 - 0.3 * j as f64 + slope * r as f64 + 0.5 * u + noise[i];
                rows.push((format!("p{a}"), *s, r as f64, y));
            }
        }
    }
    rows
}

fn fit_rows(rows: &[(String, &str, f64, f64)], shift: f64, scale: f64) -> MixedFit {
    let ratings: Vec<RoundRating<'_>> = rows
        .iter()
        .map(|(a, s, r, y)| RoundRating {
            annotator: a,
            system: s,
            round: *r,
            rating: shift + scale * y,
        })
        .collect();
    let d =
        MixedData::system_by_round(&["rag", "hare", "vanilla", "random"], &ratings).expect("data");
    mixed::reml(&d).expect("fit")
}

#[test]
fn tens_of_thousands_of_ratings_recover_the_truth() {
    let rows = large();
    let fit = fit_rows(&rows, 0.0, 1.0);
    assert!(fit.converged && !fit.boundary);
    assert_eq!((fit.n_obs, fit.n_groups), (48_000, 300));
    // Sampling error: SD(σ̂²_u) ≈ 0.25 · √(2/300) ≈ 0.02, SD(σ̂²_e) ≈ √(2/48000) ≈ 0.006.
    assert!(
        (fit.group_variance - 0.25).abs() < 0.1,
        "{}",
        fit.group_variance
    );
    assert!(
        (fit.residual_variance - 1.0).abs() < 0.03,
        "{}",
        fit.residual_variance
    );
    let slope = fit.fixed("system[T.hare]:round").expect("column");
    assert!((slope.estimate - 0.02).abs() < 4.0 * slope.se, "{slope:?}");
    assert!(slope.p_value < 1e-6, "{slope:?}");
    let null = fit.fixed("system[T.random]:round").expect("column");
    assert!(null.estimate.abs() < 4.0 * null.se, "{null:?}");
}

#[test]
fn location_and_scale_of_the_ratings_change_only_what_they_should() {
    // 1000 + 20y: the intercept moves, every variance scales by 400, z and p stay. The
    // per-group formulas have no cancellation, so this holds to near rounding even though the
    // ratings are far from 0.
    let rows: Vec<_> = large().into_iter().take(4_800).collect();
    let base = fit_rows(&rows, 0.0, 1.0);
    let moved = fit_rows(&rows, 1000.0, 20.0);
    let close = |a: f64, b: f64| (a - b).abs() <= 1e-8 * b.abs().max(1e-12);
    assert!(close(moved.variance_ratio, base.variance_ratio));
    assert!(close(moved.group_variance, 400.0 * base.group_variance));
    assert!(close(
        moved.residual_variance,
        400.0 * base.residual_variance
    ));
    for (m, b) in moved.fixed_effects.iter().zip(&base.fixed_effects).skip(1) {
        assert!(close(m.estimate, 20.0 * b.estimate), "{m:?} vs {b:?}");
        assert!(close(m.z, b.z), "{m:?} vs {b:?}");
    }
    let intercept = &moved.fixed_effects[0];
    assert!(close(
        intercept.estimate,
        1000.0 + 20.0 * base.fixed_effects[0].estimate
    ));
}

#[test]
fn order_of_observations_does_not_matter() {
    let rows: Vec<_> = large().into_iter().take(2_400).collect();
    let mut shuffled = rows.clone();
    Stream::new(9, "mixed-test-shuffle", 0, 0).shuffle(&mut shuffled);
    let (a, b) = (fit_rows(&rows, 0.0, 1.0), fit_rows(&shuffled, 0.0, 1.0));
    assert!((a.variance_ratio - b.variance_ratio).abs() <= 1e-10 * a.variance_ratio);
    for (x, y) in a.fixed_effects.iter().zip(&b.fixed_effects) {
        assert!(
            (x.estimate - y.estimate).abs() <= 1e-10 * x.se,
            "{x:?} vs {y:?}"
        );
        assert!((x.se - y.se).abs() <= 1e-10 * x.se, "{x:?} vs {y:?}");
    }
}

/// The intervals and tests of the pre-registered analysis against
/// `tests/reference/hypotheses/reference.json` (scipy `linregress`, statsmodels `MixedLM`
/// `conf_int` and `wald_test`, scipy `binomtest`; `make_reference.py` beside it): the
/// closed-form ones at 1e-9, those of the REML fit at the fit's 1e-6.
#[test]
fn intervals_and_one_sided_tests_match_the_references() {
    use juror_core::stats::preference::binomial_test_one_sided;
    use juror_core::stats::trend::linregress;
    let num = |v: &Value| v.as_f64().expect("a number");
    let r = reference("hypotheses");
    let m = reference("mixed");
    let case = &cases(&m)[0];
    assert_eq!(case["name"], "balanced");
    let rows = case["rows"].as_array().expect("rows");
    let close = |got: f64, want: f64, tol: f64, what: &str| {
        assert!(
            rel(got, want, 1e-3) <= tol,
            "{what}: got {got:e}, want {want:e}"
        );
    };
    for (system, want) in r["slopes"].as_object().expect("slopes") {
        let (x, y): (Vec<f64>, Vec<f64>) = rows
            .iter()
            .filter(|row| row[1] == system.as_str())
            .map(|row| (num(&row[2]), num(&row[3])))
            .unzip();
        let fit = linregress(&x, &y).expect("a fit");
        let (low, high) = fit.slope_ci(0.95);
        close(low, num(&want["ci95"][0]), 1e-9, "slope low");
        close(high, num(&want["ci95"][1]), 1e-9, "slope high");
        close(
            fit.one_sided_p(true),
            num(&want["p_greater"]),
            1e-9,
            "p greater",
        );
        close(fit.one_sided_p(false), num(&want["p_less"]), 1e-9, "p less");
    }
    let fit = fit(case, StandardErrors::Statsmodels);
    for fe in &fit.fixed_effects {
        let want = &r["mixed"]["ci95"][fe.name.as_str()];
        let ci = juror_core::analysis::rounds::wald_ci(fe.estimate, fe.se);
        close(ci.low, num(&want[0]), tol::ITERATIVE, &fe.name);
        close(ci.high, num(&want[1]), tol::ITERATIVE, &fe.name);
    }
    let k = case["systems"].as_array().expect("systems").len();
    let wald = fit
        .wald(&(k + 1..2 * k).collect::<Vec<_>>())
        .expect("a test");
    assert_eq!(wald.df, 3);
    close(
        wald.chi2,
        num(&r["mixed"]["wald_chi2"]),
        tol::ITERATIVE,
        "chi2",
    );
    close(
        wald.p_value,
        num(&r["mixed"]["wald_p"]),
        tol::ITERATIVE,
        "wald p",
    );
    let term = r["mixed"]["contrast_term"].as_str().expect("a term");
    let weights: Vec<f64> = fit
        .fixed_effects
        .iter()
        .map(|fe| if fe.name == term { -1.0 } else { 0.0 })
        .collect();
    let c = fit.contrast(&weights).expect("a contrast");
    close(
        c.estimate,
        num(&r["mixed"]["contrast_estimate"]),
        tol::ITERATIVE,
        "contrast",
    );
    close(
        juror_core::stats::special::normal_sf(c.z),
        num(&r["mixed"]["contrast_p_greater"]),
        tol::ITERATIVE,
        "contrast p",
    );
    for b in r["binomial"].as_array().expect("binomial") {
        let (k, n) = (num(&b["k"]) as u64, num(&b["n"]) as u64);
        let greater = binomial_test_one_sided(k, n, true).expect("a test");
        let less = binomial_test_one_sided(k, n, false).expect("a test");
        close(greater, num(&b["greater"]), 1e-9, "binomial greater");
        close(less, num(&b["less"]), 1e-9, "binomial less");
    }
}
