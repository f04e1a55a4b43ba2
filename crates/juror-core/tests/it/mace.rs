//! `stats::raters::mace` (MACE) against crowd-kit and a NumPy transcription of the fit.
//!
//! Every expected value comes from `tests/reference/mace/reference.json`, written by
//! `make_reference.py` beside it (library versions in its `versions` object). Each case has
//! three expected fits:
//! - `juror`: the NumPy transcription (the same starts and stopping rule): competences,
//!   weights, strategies and posteriors within 1e-9, the log-likelihood within 1e-9 relative,
//!   and the same consensus, rounds and start;
//! - `crowdkit`: `MACE(n_restarts=1, n_iter=1000)`, crowd-kit run to its fixed point: within
//!   1e-6 (the policy's tolerance for iterative fits) and the same consensus;
//! - `crowdkit_defaults`: `MACE()`, whose 50 rounds stop short of the fixed point: the same
//!   consensus, and parameters and posteriors within 1e-4, except on `binary`, where crowd-kit
//!   is still 3.7e-3 away in competence and 1.3e-2 in posteriors after 50 rounds (5e-3 and
//!   2e-2 there).
//!
//! The grid of `scipy.special.digamma` checks `stats::special::digamma` within 1e-9.

use juror_core::stats::raters::Answer;
use juror_core::stats::raters::mace::{Mace, MaceMethod, MaceOptions, MaceStart, mace};
use juror_core::stats::special::digamma;
use serde_json::Value;

use crate::support::{check, reference, tol, u};

fn numbers(v: &Value) -> Vec<f64> {
    v.as_array()
        .unwrap_or_else(|| panic!("not an array: {v}"))
        .iter()
        .map(|x| x.as_f64().expect("a number"))
        .collect()
}

fn rows(v: &Value) -> Vec<Vec<f64>> {
    v.as_array().expect("rows").iter().map(numbers).collect()
}

fn labels(v: &Value) -> Vec<usize> {
    v.as_array()
        .expect("labels")
        .iter()
        .map(|x| x.as_u64().expect("a label") as usize)
        .collect()
}

/// A case's fit with the method it names.
fn fit(case: &Value) -> Mace {
    let answers: Vec<Answer> = case["answers"]
        .as_array()
        .expect("answers")
        .iter()
        .map(|a| Answer {
            unit: a[0].as_u64().expect("unit") as usize,
            rater: a[1].as_u64().expect("rater") as usize,
            category: a[2].as_u64().expect("category") as usize,
        })
        .collect();
    let method = match case["method"].as_str().expect("method") {
        "vb" => MaceMethod::VariationalBayes,
        "em" => MaceMethod::ExpectationMaximization,
        other => panic!("unknown method {other}"),
    };
    let options = MaceOptions {
        method,
        ..MaceOptions::default()
    };
    let (n, r, k) = (u(case, "units"), u(case, "raters"), u(case, "categories"));
    mace(&answers, n as usize, r as usize, k as usize, &options)
        .unwrap_or_else(|e| panic!("{}: {e}", case["name"]))
}

/// Competences, weights and strategies within `tol` (absolute: probabilities), posteriors
/// within `posterior_tol`, and the same consensus; prints the largest differences.
fn agrees(what: &str, fit: &Mace, want: &Value, tol: f64, posterior_tol: f64) {
    let largest = std::cell::Cell::new([0.0_f64; 2]);
    let within = |name: &str, got: &[f64], want: &[f64], tol: f64| {
        assert_eq!(got.len(), want.len(), "{what}: {name}");
        let slot = usize::from(name.starts_with("posterior"));
        for (i, (&g, &w)) in got.iter().zip(want).enumerate() {
            let gap = (g - w).abs();
            assert!(
                gap <= tol,
                "{what}: {name} {i}: got {g}, want {w} (difference {gap:e} > {tol:e})"
            );
            let mut seen = largest.get();
            seen[slot] = seen[slot].max(gap);
            largest.set(seen);
        }
    };
    within(
        "competence",
        &fit.competence,
        &numbers(&want["competence"]),
        tol,
    );
    within("spam", &fit.spam, &numbers(&want["spam"]), tol);
    for (w, (got, row)) in fit.spamming.iter().zip(rows(&want["spamming"])).enumerate() {
        within(&format!("strategy of rater {w}"), got, &row, tol);
    }
    for (t, (got, row)) in fit
        .posterior
        .iter()
        .zip(rows(&want["posterior"]))
        .enumerate()
    {
        within(&format!("posterior of unit {t}"), got, &row, posterior_tol);
    }
    assert_eq!(
        fit.consensus,
        labels(&want["consensus"]),
        "{what}: consensus"
    );
    let [parameters, posteriors] = largest.get();
    println!("{what}: parameters {parameters:.1e}, posteriors {posteriors:.1e}");
}

fn cases() -> Vec<Value> {
    let r = reference("mace");
    let cases = r["cases"].as_array().expect("cases").clone();
    assert_eq!(cases.len(), 5, "number of cases");
    cases
}

#[test]
fn reference_was_made_with_recorded_versions() {
    let r = reference("mace");
    for lib in ["python", "crowd-kit", "numpy", "pandas", "scipy"] {
        assert!(
            r["versions"][lib].as_str().is_some_and(|v| !v.is_empty()),
            "{lib} version missing"
        );
    }
}

#[test]
fn mace_matches_the_numpy_transcription() {
    for case in cases() {
        let name = case["name"].as_str().expect("name");
        let fit = fit(&case);
        let want = &case["juror"];
        agrees(name, &fit, want, tol::CLOSED_FORM, tol::CLOSED_FORM);
        check(
            &format!("{name}: log-likelihood"),
            fit.log_likelihood,
            want["log_likelihood"].as_f64().expect("log_likelihood"),
            tol::CLOSED_FORM,
        );
        assert_eq!(
            fit.iterations as u64,
            u(want, "iterations"),
            "{name}: rounds"
        );
        assert_eq!(
            fit.converged,
            want["converged"].as_bool().expect("converged"),
            "{name}: converged"
        );
        let start = match want["start"].as_str().expect("start") {
            "flat" => MaceStart::Flat,
            "majority" => MaceStart::Majority,
            "trusting" => MaceStart::Trusting,
            "wary" => MaceStart::Wary,
            other => panic!("unknown start {other}"),
        };
        assert_eq!(fit.start, start, "{name}: start");
    }
}

#[test]
fn mace_matches_crowd_kit_at_its_fixed_point() {
    for case in cases() {
        let name = case["name"].as_str().expect("name");
        let what = format!("{name} against crowd-kit (1000 rounds)");
        agrees(
            &what,
            &fit(&case),
            &case["crowdkit"],
            tol::ITERATIVE,
            tol::ITERATIVE,
        );
    }
}

#[test]
fn mace_matches_crowd_kit_with_its_defaults() {
    for case in cases() {
        let name = case["name"].as_str().expect("name");
        let (tol, posterior_tol) = if name == "binary" {
            (5e-3, 2e-2)
        } else {
            (1e-4, 1e-4)
        };
        let what = format!("{name} against crowd-kit (its defaults)");
        agrees(
            &what,
            &fit(&case),
            &case["crowdkit_defaults"],
            tol,
            posterior_tol,
        );
    }
}

#[test]
fn the_spammers_get_the_lowest_competence() {
    let case = cases()
        .into_iter()
        .find(|c| c["name"] == "spammers")
        .expect("the case");
    let fit = fit(&case);
    // Raters 0–5 are right 90% to 60% of the time; 6 answers at random and 7 always says 0.
    let worst_skilled = fit.competence[..6]
        .iter()
        .copied()
        .fold(f64::INFINITY, f64::min);
    for spammer in 6..8 {
        assert!(
            fit.competence[spammer] < 0.1 && fit.competence[spammer] < worst_skilled,
            "rater {spammer}: {} against {worst_skilled}",
            fit.competence[spammer]
        );
    }
}

#[test]
fn digamma_matches_scipy() {
    let r = reference("mace");
    let mut largest = 0.0_f64;
    for point in r["digamma"].as_array().expect("digamma") {
        let (x, want) = (
            point[0].as_f64().expect("x"),
            point[1].as_f64().expect("psi"),
        );
        check(&format!("digamma({x})"), digamma(x), want, tol::CLOSED_FORM);
        largest = largest.max((digamma(x) - want).abs() / want.abs().max(1.0));
    }
    println!("digamma against scipy: {largest:.1e}");
}
