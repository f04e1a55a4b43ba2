//! `stats::mixed::crossed` (crossed random intercepts for annotators and items) against
//! statsmodels' `MixedLM` with variance components and an independent dense numpy fit.
//!
//! Every expected value comes from `tests/reference/crossed/reference.json`, written by
//! `make_reference.py` beside it (library versions in its `versions` object). Against the
//! dense fit (model-based standard errors, REML or ML): within 1e-6 relative (`tol::ITERATIVE`,
//! both are iterative). Against statsmodels: fixed effects, variances, log-likelihood and
//! statsmodels' own standard errors ([`StandardErrors::Statsmodels`]) within 1e-4 relative to
//! each value (not to max(1, |value|)), the bound the statistics policy sets for statsmodels'
//! variance-component fits, which stop by its own gradient rule.

use juror_core::stats::mixed::{
    Criterion, CrossedData, CrossedFit, CrossedOptions, CrossedRating, StandardErrors, crossed,
};
use serde_json::Value;

use crate::support::{check, f, reference, tol};

const STATSMODELS: f64 = 1e-4;

fn data(case: &Value) -> CrossedData {
    let systems: Vec<&str> = case["systems"]
        .as_array()
        .expect("systems")
        .iter()
        .map(|s| s.as_str().expect("a system"))
        .collect();
    let ratings: Vec<CrossedRating<'_>> = case["rows"]
        .as_array()
        .expect("rows")
        .iter()
        .map(|r| CrossedRating {
            annotator: r[0].as_str().expect("annotator"),
            item: r[1].as_str().expect("item"),
            system: r[2].as_str().expect("system"),
            round: r[3].as_f64().expect("round"),
            rating: r[4].as_f64().expect("score"),
        })
        .collect();
    let built = if case["with_round"].as_bool().expect("with_round") {
        CrossedData::system_by_round(&systems, &ratings)
    } else {
        CrossedData::by_system(&systems, &ratings)
    };
    built.expect("valid data")
}

fn fit(case: &Value, standard_errors: StandardErrors) -> CrossedFit {
    let criterion = if case["reml"].as_bool().expect("reml") {
        Criterion::Reml
    } else {
        Criterion::Ml
    };
    let options = CrossedOptions {
        criterion,
        standard_errors,
    };
    crossed(&data(case), options).expect("a fit")
}

fn numbers(v: &Value, key: &str) -> Vec<f64> {
    v[key]
        .as_array()
        .unwrap_or_else(|| panic!("{key}"))
        .iter()
        .map(|x| x.as_f64().expect("a number"))
        .collect()
}

/// |got − want| ≤ tol · |want|.
fn relative(what: &str, got: f64, want: f64, tol: f64) {
    let d = (got - want).abs();
    assert!(
        d <= tol * want.abs(),
        "{what}: got {got:e}, want {want:e} (relative difference {:e} > {tol:e})",
        d / want.abs()
    );
}

#[test]
fn fits_match_the_dense_reference() {
    let r = reference("crossed");
    let cases = r["cases"].as_array().expect("cases");
    assert_eq!(cases.len(), 5, "number of cases");
    for case in cases {
        let name = case["name"].as_str().expect("name");
        let want = &case["dense"];
        let got = fit(case, StandardErrors::Model);
        assert!(got.converged, "{name}: not converged: {got:?}");
        let columns = case["columns"].as_array().expect("columns");
        for (e, column) in got.fixed_effects.iter().zip(columns) {
            assert_eq!(e.name, column.as_str().expect("a column"), "{name}");
        }
        for (j, (est, se)) in numbers(want, "fixed")
            .into_iter()
            .zip(numbers(want, "se_model"))
            .enumerate()
        {
            let e = &got.fixed_effects[j];
            check(
                &format!("{name} {} estimate", e.name),
                e.estimate,
                est,
                tol::ITERATIVE,
            );
            relative(&format!("{name} {} se", e.name), e.se, se, tol::ITERATIVE);
        }
        for (quantity, value, key) in [
            (
                "annotator variance",
                got.annotator_variance,
                "annotator_variance",
            ),
            ("item variance", got.item_variance, "item_variance"),
            (
                "residual variance",
                got.residual_variance,
                "residual_variance",
            ),
            ("log-likelihood", got.log_likelihood, "log_likelihood"),
        ] {
            check(
                &format!("{name} {quantity}"),
                value,
                f(want, key),
                tol::ITERATIVE,
            );
        }
        if name == "boundary" {
            assert_eq!(got.annotator_variance, 0.0, "the boundary is exactly 0");
        }
    }
}

#[test]
fn fits_match_statsmodels_variance_components() {
    let r = reference("crossed");
    let mut compared = 0;
    for case in r["cases"].as_array().expect("cases") {
        let Some(want) = case.get("statsmodels") else {
            continue;
        };
        compared += 1;
        let name = case["name"].as_str().expect("name");
        let got = fit(case, StandardErrors::Statsmodels);
        for (j, (est, se)) in numbers(want, "fixed")
            .into_iter()
            .zip(numbers(want, "se_statsmodels"))
            .enumerate()
        {
            let e = &got.fixed_effects[j];
            relative(
                &format!("{name} {} estimate", e.name),
                e.estimate,
                est,
                STATSMODELS,
            );
            relative(&format!("{name} {} se", e.name), e.se, se, STATSMODELS);
        }
        for (quantity, value, key) in [
            (
                "annotator variance",
                got.annotator_variance,
                "annotator_variance",
            ),
            ("item variance", got.item_variance, "item_variance"),
            (
                "residual variance",
                got.residual_variance,
                "residual_variance",
            ),
            ("log-likelihood", got.log_likelihood, "log_likelihood"),
        ] {
            relative(
                &format!("{name} {quantity}"),
                value,
                f(want, key),
                STATSMODELS,
            );
        }
    }
    assert_eq!(compared, 4, "cases with a statsmodels fit");
}

#[test]
fn the_intra_class_correlations_share_the_total_variance() {
    let r = reference("crossed");
    let case = &r["cases"][0];
    let got = fit(case, StandardErrors::Model);
    let total = got.annotator_variance + got.item_variance + got.residual_variance;
    check(
        "annotator ICC",
        got.annotator_icc(),
        got.annotator_variance / total,
        1e-15,
    );
    check("item ICC", got.item_icc(), got.item_variance / total, 1e-15);
    assert!(got.annotator_icc() > 0.0 && got.item_icc() > 0.0);
}
