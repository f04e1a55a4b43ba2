//! `stats::preference::sandwich` (Bradley–Terry ratings with sandwich intervals) against
//! arena-rank and numpy.
//!
//! Every expected value comes from `tests/reference/bt_sandwich/reference.json`, written by
//! `make_reference.py` beside it (arena-rank's `BradleyTerry` with its defaults, library
//! versions in its `versions` object). Ratings, bounds and SEs agree within 1e-6 (relative to
//! max(1, |value|)) with arena-rank run to convergence and with numpy (the clustered sandwich
//! included), and within 2e-3 points with arena-rank's default stopping rule; rank intervals
//! and leaderboard ranks are equal.

use juror_core::stats::preference::sandwich::{
    SandwichFit, SandwichOptions, bradley_terry_sandwich,
};
use juror_core::stats::preference::{Comparison, Outcome};
use serde_json::Value;

use crate::support::{check, reference, tol};

/// arena-rank's default stopping rule leaves its L-BFGS up to this far (in rating points) from
/// the maximum-likelihood estimate: the bound of the requirement.
const ARENA_DEFAULT_BOUND: f64 = 2e-3;

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
    let r = reference("bt_sandwich");
    assert_eq!(r["level"].as_f64(), Some(0.95));
    let cases = r["cases"].as_array().expect("cases");
    assert_eq!(cases.len(), 3, "number of cases");
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
            let systems = c["expected"]["competitors"]
                .as_array()
                .expect("competitors")
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

fn fit(case: &Case, clustered: bool) -> SandwichFit {
    let clusters = if clustered {
        case.clusters.as_deref()
    } else {
        None
    };
    let fit = bradley_terry_sandwich(
        &case.systems,
        &case.comparisons,
        clusters,
        &SandwichOptions::default(),
    )
    .unwrap_or_else(|e| panic!("{}: {e}", case.name));
    assert!(fit.converged, "{}: not converged", case.name);
    fit
}

/// The largest |got − want| over the three arrays, after checking each value.
fn compare_arena(case: &Case, fit: &SandwichFit, key: &str, tol: f64, relative: bool) -> f64 {
    let want = &case.expected[key];
    let mut worst: f64 = 0.0;
    for (field, got) in [
        (
            "ratings",
            fit.ratings.iter().map(|r| r.rating).collect::<Vec<_>>(),
        ),
        (
            "rating_lower",
            fit.ratings.iter().map(|r| r.lower).collect(),
        ),
        (
            "rating_upper",
            fit.ratings.iter().map(|r| r.upper).collect(),
        ),
        (
            "variances",
            fit.ratings.iter().map(|r| r.se * r.se).collect(),
        ),
    ] {
        for (i, (g, w)) in got.iter().zip(floats(&want[field])).enumerate() {
            let what = format!("{} {key} {field}[{i}]", case.name);
            if relative {
                check(&what, *g, w, tol);
            } else {
                assert!((g - w).abs() <= tol, "{what}: got {g}, want {w}");
            }
            if field != "variances" {
                worst = worst.max((g - w).abs());
            }
        }
    }
    worst
}

#[test]
fn ratings_and_intervals_match_arena_rank() {
    let mut worst = [0.0f64; 2];
    for case in cases() {
        let fit = fit(&case, false);
        worst[0] = worst[0].max(compare_arena(
            &case,
            &fit,
            "arena_tight",
            tol::ITERATIVE,
            true,
        ));
        worst[1] = worst[1].max(compare_arena(
            &case,
            &fit,
            "arena_default",
            ARENA_DEFAULT_BOUND,
            false,
        ));
    }
    eprintln!(
        "max |difference| in points: arena-rank converged {:e}, default {:e}",
        worst[0], worst[1]
    );
}

/// The numpy block: ratings, SEs, bounds, covariance, rank sets.
fn compare_numpy(name: &str, fit: &SandwichFit, want: &Value) -> f64 {
    let mut worst: f64 = 0.0;
    let mut cmp = |what: String, g: f64, w: f64| {
        check(&what, g, w, tol::ITERATIVE);
        worst = worst.max((g - w).abs() / w.abs().max(1.0));
    };
    for (field, got) in [
        ("se", fit.ratings.iter().map(|r| r.se).collect::<Vec<_>>()),
        ("lower", fit.ratings.iter().map(|r| r.lower).collect()),
        ("upper", fit.ratings.iter().map(|r| r.upper).collect()),
    ] {
        for (i, (g, w)) in got.iter().zip(floats(&want[field])).enumerate() {
            cmp(format!("{name} numpy {field}[{i}]"), *g, w);
        }
    }
    let k = fit.ratings.len();
    for (i, row) in want["covariance"]
        .as_array()
        .expect("rows")
        .iter()
        .enumerate()
    {
        for (j, w) in floats(row).into_iter().enumerate() {
            cmp(
                format!("{name} covariance[{i}][{j}]"),
                fit.covariance[i * k + j],
                w,
            );
        }
    }
    let ranks = &want["ranks"];
    check(
        &format!("{name} rank z"),
        fit.rank_z,
        ranks["z"].as_f64().expect("z"),
        tol::CLOSED_FORM,
    );
    let lower: Vec<usize> = fit.ratings.iter().map(|r| r.rank_lower).collect();
    let upper: Vec<usize> = fit.ratings.iter().map(|r| r.rank_upper).collect();
    assert_eq!(lower, counts(&ranks["lower"]), "{name} rank lower");
    assert_eq!(upper, counts(&ranks["upper"]), "{name} rank upper");
    worst
}

#[test]
fn sandwich_and_ranks_match_numpy() {
    let mut worst: f64 = 0.0;
    for case in cases() {
        let fit = fit(&case, false);
        let want = &case.expected["numpy"];
        for (i, (r, w)) in fit.ratings.iter().zip(floats(&want["ratings"])).enumerate() {
            check(
                &format!("{} numpy ratings[{i}]", case.name),
                r.rating,
                w,
                tol::ITERATIVE,
            );
        }
        worst = worst.max(compare_numpy(&case.name, &fit, want));
        let board: Vec<usize> = fit.ratings.iter().map(|r| r.leaderboard_rank).collect();
        assert_eq!(
            board,
            counts(&want["leaderboard_rank"]),
            "{} leaderboard",
            case.name
        );
        if case.clusters.is_some() {
            let cl = fit_clustered(&case);
            let want_cl = &want["clustered"];
            assert_eq!(
                cl.clusters,
                want_cl["clusters"].as_u64().map(|c| c as usize)
            );
            worst = worst.max(compare_numpy(
                &format!("{} clustered", case.name),
                &cl,
                want_cl,
            ));
        }
    }
    eprintln!("max relative difference from numpy: {worst:e}");
}

fn fit_clustered(case: &Case) -> SandwichFit {
    let fit = fit(case, true);
    assert!(fit.clusters.is_some(), "{}: clustered", case.name);
    fit
}
