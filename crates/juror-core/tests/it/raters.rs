//! `stats::raters` (Dawid–Skene) against crowd-kit.
//!
//! Every expected value comes from `tests/reference/raters/reference.json`, written by
//! `make_reference.py` beside it (crowd-kit's `DawidSkene(n_iter=100, tol=1e-5)`, library
//! versions in its `versions` object). Posteriors, priors and confusion entries agree within
//! 1e-6 (absolute: they are probabilities); consensus labels and the number of EM rounds are
//! equal.

use std::collections::BTreeMap;

use juror_core::stats::raters::{Answer, RatersError, dawid_skene};
use serde_json::Value;

use crate::support::reference;

const TOLERANCE: f64 = 1e-6;

/// A case's answers as indices: units and raters in sorted order of their names, categories
/// ascending (the reference's `labels`).
struct Case {
    name: String,
    units: Vec<String>,
    raters: Vec<String>,
    labels: Vec<i64>,
    answers: Vec<Answer>,
    expected: Value,
}

fn cases() -> Vec<Case> {
    let r = reference("raters");
    let cases = r["cases"].as_array().expect("cases");
    assert_eq!(cases.len(), 4, "number of cases");
    cases
        .iter()
        .map(|c| {
            let rows: Vec<(String, String, i64)> = c["rows"]
                .as_array()
                .expect("rows")
                .iter()
                .map(|row| {
                    (
                        row[0].as_str().expect("task").to_owned(),
                        row[1].as_str().expect("worker").to_owned(),
                        row[2].as_i64().expect("label"),
                    )
                })
                .collect();
            let index = |names: Vec<String>| -> BTreeMap<String, usize> {
                names.into_iter().enumerate().map(|(i, n)| (n, i)).collect()
            };
            let mut units: Vec<String> = rows.iter().map(|r| r.0.clone()).collect();
            units.sort();
            units.dedup();
            let mut raters: Vec<String> = rows.iter().map(|r| r.1.clone()).collect();
            raters.sort();
            raters.dedup();
            let labels: Vec<i64> = c["expected"]["labels"]
                .as_array()
                .expect("labels")
                .iter()
                .map(|l| l.as_i64().expect("a label"))
                .collect();
            let (u, w) = (index(units.clone()), index(raters.clone()));
            let answers = rows
                .iter()
                .map(|(t, r, l)| Answer {
                    unit: u[t],
                    rater: w[r],
                    category: labels.iter().position(|x| x == l).expect("a known label"),
                })
                .collect();
            Case {
                name: c["name"].as_str().expect("name").to_owned(),
                units,
                raters,
                labels,
                answers,
                expected: c["expected"].clone(),
            }
        })
        .collect()
}

fn close(what: &str, got: f64, want: f64) {
    assert!(
        (got - want).abs() <= TOLERANCE,
        "{what}: got {got}, want {want}"
    );
}

fn numbers(v: &Value) -> Vec<f64> {
    v.as_array()
        .unwrap_or_else(|| panic!("not an array: {v}"))
        .iter()
        .map(|x| x.as_f64().expect("a number"))
        .collect()
}

#[test]
fn reference_was_made_with_recorded_versions() {
    let r = reference("raters");
    for lib in ["python", "crowd-kit", "numpy", "pandas"] {
        assert!(
            r["versions"][lib].as_str().is_some_and(|v| !v.is_empty()),
            "{lib} version missing"
        );
    }
}

#[test]
fn dawid_skene_matches_crowd_kit() {
    for case in cases() {
        let k = case.labels.len();
        let fit = dawid_skene(&case.answers, case.units.len(), case.raters.len(), k)
            .unwrap_or_else(|e| panic!("{}: {e}", case.name));
        let e = &case.expected;
        let at = |what: &str| format!("{}: {what}", case.name);
        assert_eq!(
            fit.rounds,
            e["iterations"].as_u64().expect("iterations") as usize,
            "{}",
            at("rounds")
        );
        assert!(fit.converged, "{}", at("converged"));
        for (c, (&got, want)) in fit.prior.iter().zip(numbers(&e["prior"])).enumerate() {
            close(&at(&format!("prior {c}")), got, want);
        }
        for (u, name) in case.units.iter().enumerate() {
            let task = &e["tasks"][name];
            let label = task["label"].as_i64().expect("label");
            assert_eq!(case.labels[fit.consensus[u]], label, "{}", at(name));
            for (c, (&got, want)) in fit.posterior[u]
                .iter()
                .zip(numbers(&task["posterior"]))
                .enumerate()
            {
                close(&at(&format!("{name} posterior {c}")), got, want);
            }
        }
        for (w, name) in case.raters.iter().enumerate() {
            let rows = e["errors"][name].as_object().expect("a worker's errors");
            for (k_at, row) in fit.confusion[w].iter().enumerate() {
                let observed = case.labels[k_at].to_string();
                match (row, rows.get(&observed)) {
                    (Some(row), Some(want)) => {
                        for (c, &got) in row.iter().enumerate() {
                            let true_label = case.labels[c].to_string();
                            let want = want[&true_label].as_f64().expect("an entry");
                            close(&at(&format!("{name} {observed}|{true_label}")), got, want);
                        }
                    }
                    (None, None) => {}
                    (got, want) => panic!("{}: {got:?} against {want:?}", at(name)),
                }
            }
            // The accuracy from the reference's matrices and prior.
            let prior = numbers(&e["prior"]);
            let want: f64 = (0..k)
                .filter_map(|c| {
                    let label = case.labels[c].to_string();
                    Some(prior[c] * rows.get(&label)?[&label].as_f64()?)
                })
                .sum();
            close(&at(&format!("{name} accuracy")), fit.accuracy[w], want);
        }
    }
}

#[test]
fn the_spammers_rank_below_the_skilled_raters() {
    let case = cases()
        .into_iter()
        .find(|c| c.name == "skilled_and_spammers")
        .expect("the case");
    let fit = dawid_skene(&case.answers, case.units.len(), case.raters.len(), 5).expect("a fit");
    // w0–w2 are right 80% of the time; w5, w6 answer at random and w7 always says 3.
    let worst_skilled = (0..3)
        .map(|w| fit.accuracy[w])
        .fold(f64::INFINITY, f64::min);
    for spammer in 5..8 {
        assert!(
            fit.accuracy[spammer] < worst_skilled,
            "w{spammer}: {} against {worst_skilled}",
            fit.accuracy[spammer]
        );
    }
}

#[test]
fn unusable_answers_are_refused() {
    let a = |unit, rater, category| Answer {
        unit,
        rater,
        category,
    };
    assert_eq!(dawid_skene(&[], 1, 1, 2), Err(RatersError::Empty));
    assert_eq!(
        dawid_skene(&[a(0, 0, 2)], 1, 1, 2),
        Err(RatersError::OutOfRange)
    );
    assert_eq!(
        dawid_skene(&[a(0, 0, 1)], 2, 1, 2),
        Err(RatersError::Unanswered(1))
    );
}
