//! `stats::preference::davidson` (Davidson's model for ties, on the arena rating scale) against
//! an independent scipy/numpy fit of the same likelihood.
//!
//! Every expected value comes from `tests/reference/davidson/reference.json`, written by
//! `make_reference.py` beside it (library versions in its `versions` object). Ratings, ν,
//! standard errors, bounds and covariances agree within 1e-6 relative to max(1, |value|); rank
//! intervals and leaderboard ranks are equal.

use juror_core::stats::preference::davidson::{DavidsonFit, davidson};
use juror_core::stats::preference::sandwich::SandwichOptions;
use juror_core::stats::preference::{Comparison, Outcome};
use serde_json::Value;

use crate::support::{check, f, reference, tol};

fn floats(v: &Value) -> Vec<f64> {
    v.as_array()
        .expect("an array")
        .iter()
        .map(|x| x.as_f64().expect("a number"))
        .collect()
}

fn counts(v: &Value) -> Vec<usize> {
    v.as_array()
        .expect("an array")
        .iter()
        .map(|x| usize::try_from(x.as_u64().expect("a count")).expect("small"))
        .collect()
}

struct Case {
    name: String,
    systems: Vec<String>,
    comparisons: Vec<Comparison>,
    clusters: Option<Vec<String>>,
    expected: Value,
}

fn cases() -> Vec<Case> {
    let r = reference("davidson");
    assert_eq!(r["level"].as_f64(), Some(0.95));
    assert_eq!(
        r["ridge"].as_f64(),
        Some(SandwichOptions::default().hessian_ridge)
    );
    let cases = r["cases"].as_array().expect("cases");
    assert_eq!(cases.len(), 4, "number of cases");
    cases
        .iter()
        .map(|c| {
            let rows = c["rows"].as_array().expect("rows");
            let comparisons = rows
                .iter()
                .map(|row| {
                    let outcome = match row[2].as_str().expect("winner") {
                        "model_a" => Outcome::A,
                        "model_b" => Outcome::B,
                        _ => Outcome::Tie,
                    };
                    Comparison::new(
                        row[0].as_str().expect("model_a"),
                        row[1].as_str().expect("model_b"),
                        outcome,
                    )
                })
                .collect();
            let clusters: Option<Vec<String>> = rows
                .iter()
                .map(|row| row[3].as_str().map(str::to_owned))
                .collect();
            let systems = c["expected"]["systems"]
                .as_array()
                .expect("systems")
                .iter()
                .map(|s| s.as_str().expect("a name").to_owned())
                .collect();
            Case {
                name: c["name"].as_str().expect("name").to_owned(),
                systems,
                comparisons,
                clusters,
                expected: c["expected"].clone(),
            }
        })
        .collect()
}

fn fit(case: &Case, clustered: bool) -> DavidsonFit {
    let clusters = if clustered {
        case.clusters.as_deref()
    } else {
        None
    };
    let fit = davidson(
        &case.systems,
        &case.comparisons,
        clusters,
        &SandwichOptions::default(),
    )
    .unwrap_or_else(|e| panic!("{}: {e}", case.name));
    assert!(fit.converged, "{}: not converged", case.name);
    fit
}

/// The largest |got − want| / max(1, |want|) seen, by kind of value.
#[derive(Default)]
struct Worst {
    fit: f64,
    model: f64,
    sandwich: f64,
    covariance: f64,
}

fn cmp(worst: &mut f64, what: String, got: f64, want: f64) {
    check(&what, got, want, tol::ITERATIVE);
    *worst = worst.max((got - want).abs() / want.abs().max(1.0));
}

fn cmp_matrix(worst: &mut f64, what: &str, got: &[f64], want: &Value) {
    let k = want.as_array().expect("rows").len();
    for (i, row) in want.as_array().expect("rows").iter().enumerate() {
        for (j, w) in floats(row).into_iter().enumerate() {
            cmp(worst, format!("{what}[{i}][{j}]"), got[i * k + j], w);
        }
    }
}

/// The sandwich block (HC0 or clustered): SEs, bounds, covariance, ranks and ν's interval.
fn compare_sandwich(name: &str, fit: &DavidsonFit, want: &Value, worst: &mut Worst) {
    for (field, got) in [
        ("se", fit.ratings.iter().map(|r| r.se).collect::<Vec<_>>()),
        ("lower", fit.ratings.iter().map(|r| r.lower).collect()),
        ("upper", fit.ratings.iter().map(|r| r.upper).collect()),
    ] {
        for (i, (g, w)) in got.iter().zip(floats(&want[field])).enumerate() {
            cmp(&mut worst.sandwich, format!("{name} {field}[{i}]"), *g, w);
        }
    }
    for (field, got) in [
        ("nu_se", fit.ties.se),
        ("nu_lower", fit.ties.lower),
        ("nu_upper", fit.ties.upper),
        ("tie_lower", fit.ties.tie_lower),
        ("tie_upper", fit.ties.tie_upper),
    ] {
        cmp(
            &mut worst.sandwich,
            format!("{name} {field}"),
            got,
            f(want, field),
        );
    }
    cmp_matrix(
        &mut worst.covariance,
        &format!("{name} covariance"),
        &fit.covariance,
        &want["covariance"],
    );
    let ranks = &want["ranks"];
    check(
        &format!("{name} rank z"),
        fit.rank_z,
        f(ranks, "z"),
        tol::CLOSED_FORM,
    );
    let lower: Vec<usize> = fit.ratings.iter().map(|r| r.rank_lower).collect();
    let upper: Vec<usize> = fit.ratings.iter().map(|r| r.rank_upper).collect();
    assert_eq!(lower, counts(&ranks["lower"]), "{name} rank lower");
    assert_eq!(upper, counts(&ranks["upper"]), "{name} rank upper");
    let board: Vec<usize> = fit.ratings.iter().map(|r| r.leaderboard_rank).collect();
    assert_eq!(
        board,
        counts(&want["leaderboard_rank"]),
        "{name} leaderboard"
    );
}

#[test]
fn davidson_matches_scipy_and_numpy() {
    let mut worst = Worst::default();
    for case in cases() {
        let name = &case.name;
        let want = &case.expected;
        let fit = fit(&case, false);
        for (i, (r, w)) in fit.ratings.iter().zip(floats(&want["ratings"])).enumerate() {
            cmp(&mut worst.fit, format!("{name} ratings[{i}]"), r.rating, w);
        }
        cmp(
            &mut worst.fit,
            format!("{name} nu"),
            fit.ties.nu,
            f(want, "nu"),
        );
        cmp(
            &mut worst.fit,
            format!("{name} tie probability"),
            fit.ties.tie_probability,
            f(want, "tie_probability"),
        );
        cmp(
            &mut worst.fit,
            format!("{name} log-likelihood"),
            fit.log_likelihood,
            f(want, "log_likelihood"),
        );
        check(&format!("{name} z"), fit.z, f(want, "z"), tol::CLOSED_FORM);
        for (i, (g, w)) in fit
            .model_se
            .iter()
            .zip(floats(&want["model_se"]))
            .enumerate()
        {
            cmp(&mut worst.model, format!("{name} model se[{i}]"), *g, w);
        }
        cmp(
            &mut worst.model,
            format!("{name} nu model se"),
            fit.ties.model_se,
            f(want, "nu_model_se"),
        );
        cmp_matrix(
            &mut worst.covariance,
            &format!("{name} model covariance"),
            &fit.model_covariance,
            &want["model_covariance"],
        );
        compare_sandwich(name, &fit, &want["hc0"], &mut worst);
        if case.clusters.is_some() {
            let cl = fit_clustered(&case);
            let want_cl = &want["clustered"];
            assert_eq!(
                cl.clusters,
                want_cl["clusters"].as_u64().map(|c| c as usize)
            );
            compare_sandwich(&format!("{name} clustered"), &cl, want_cl, &mut worst);
        }
    }
    eprintln!(
        "max relative difference: ratings, nu and log-likelihood {:e}, model-based SEs {:e}, \
         sandwich SEs and bounds {:e}, covariances {:e}",
        worst.fit, worst.model, worst.sandwich, worst.covariance
    );
}

fn fit_clustered(case: &Case) -> DavidsonFit {
    let fit = fit(case, true);
    assert!(fit.clusters.is_some(), "{}: clustered", case.name);
    fit
}

/// With no tie at all the Davidson fit declines and says to fit Bradley–Terry.
#[test]
fn decisive_only_data_say_to_fit_bradley_terry() {
    let case = cases().into_iter().next().expect("a case");
    let decisive: Vec<Comparison> = case
        .comparisons
        .into_iter()
        .filter(|c| c.outcome != Outcome::Tie)
        .collect();
    let err =
        davidson(&case.systems, &decisive, None, &SandwichOptions::default()).expect_err("no ties");
    assert!(err.to_string().contains("Bradley–Terry"), "{err}");
}
