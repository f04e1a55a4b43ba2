//! `stats::preference` against scipy, statsmodels and a plain Python Bradley–Terry.
//!
//! Every expected value comes from `tests/reference/preference/reference.json`, written by
//! `make_reference.py` beside it (library versions in its `versions` object). Tolerances:
//! - win rates, intervals and binomial p-values: 1e-9 (absolute: all are in [0, 1]);
//! - Bradley–Terry strengths and their bootstrap intervals: 1e-6, as for every iterative fit;
//!   both sides iterate to a 1e-12 step, so the measured differences are far smaller;
//! - LLMFAO's published scores: 5e-6, because they were printed to 6 decimals from an
//!   iteration stopped early (evalica 0.1.2: L2 step below 1e-6, 37 iterations); the reference
//!   script shows that stopping rule reproduces them to 5e-7 and the converged fit differs
//!   from them by at most 2.9e-6.

use juror_core::stats::preference::{
    self, BradleyTerryOptions, Comparison, Outcome, PreferenceError, Tally,
};
use serde_json::Value;

use crate::support::{check, f, reference, tol, u};

/// LLMFAO's printed scores (see the module's documentation).
const PUBLISHED_TOL: f64 = 5e-6;

fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .expect("an array")
        .iter()
        .map(|s| s.as_str().expect("a string").to_string())
        .collect()
}

/// Comparisons stored as [index of a, index of b, "A" | "B" | "Tie"].
fn comparisons(systems: &[String], rows: &Value) -> Vec<Comparison> {
    rows.as_array()
        .expect("comparisons")
        .iter()
        .map(|row| {
            let a = &systems[row[0].as_u64().expect("index") as usize];
            let b = &systems[row[1].as_u64().expect("index") as usize];
            let outcome = match row[2].as_str().expect("outcome") {
                "A" => Outcome::A,
                "B" => Outcome::B,
                "Tie" => Outcome::Tie,
                other => panic!("unknown outcome {other}"),
            };
            Comparison::new(a.as_str(), b.as_str(), outcome)
        })
        .collect()
}

#[test]
fn tally_counts_every_ordered_pair() {
    let r = reference("preference");
    let t = &r["tally"];
    let systems = strings(&t["systems"]);
    let tally = Tally::from_comparisons(&comparisons(&systems, &t["comparisons"])).expect("tally");
    assert_eq!(tally.systems(), systems.as_slice());
    let got = tally.pairs();
    let want = t["pairs"].as_array().expect("pairs");
    assert_eq!(got.len(), want.len());
    for (g, w) in got.iter().zip(want) {
        assert_eq!(g.a, w["a"].as_str().expect("a"));
        assert_eq!(g.b, w["b"].as_str().expect("b"));
        assert_eq!(
            (g.wins, g.losses, g.ties),
            (u(w, "wins"), u(w, "losses"), u(w, "ties")),
            "{} vs {}",
            g.a,
            g.b
        );
        // Each meeting is seen from both sides.
        let mirror = tally.record(&g.b, &g.a).expect("mirror");
        assert_eq!(
            (mirror.wins, mirror.losses, mirror.ties),
            (g.losses, g.wins, g.ties)
        );
    }
}

#[test]
fn tally_of_llmfao_matches_pandas() {
    let r = reference("preference");
    let bt = bradley_terry_case(&r, "llmfao_crowd");
    let systems = strings(&bt["systems"]);
    let tally = Tally::from_comparisons(&comparisons(&systems, &bt["comparisons"])).expect("tally");
    for w in r["llmfao_tally_busiest"].as_array().expect("busiest") {
        let (a, b) = (w["a"].as_str().expect("a"), w["b"].as_str().expect("b"));
        let g = tally.record(a, b).expect("pair");
        assert_eq!(
            (g.wins, g.losses, g.ties),
            (u(w, "wins"), u(w, "losses"), u(w, "ties")),
            "{a} vs {b}"
        );
    }
}

#[test]
fn tally_refuses_a_self_comparison() {
    let cs = [
        Comparison::new("x", "y", Outcome::A),
        Comparison::new("y", "y", Outcome::Tie),
    ];
    assert_eq!(
        Tally::from_comparisons(&cs),
        Err(PreferenceError::SelfComparison {
            index: 1,
            system: "y".into()
        })
    );
}

#[test]
fn win_rates_match_scipy_and_statsmodels() {
    for w in reference("preference")["win_rates"]
        .as_array()
        .expect("win rates")
    {
        let (wins, losses, ties) = (u(w, "wins"), u(w, "losses"), u(w, "ties"));
        let name = format!("{wins}-{losses}-{ties}");
        let got = preference::win_rate(wins, losses, ties, f(w, "level")).expect("win rate");
        check(
            &format!("{name} rate"),
            got.rate,
            f(w, "rate"),
            tol::CLOSED_FORM,
        );
        check(
            &format!("{name} wilson low"),
            got.wilson.low,
            f(w, "wilson_low"),
            tol::CLOSED_FORM,
        );
        check(
            &format!("{name} wilson high"),
            got.wilson.high,
            f(w, "wilson_high"),
            tol::CLOSED_FORM,
        );
        check(
            &format!("{name} clopper-pearson low"),
            got.clopper_pearson.low,
            f(w, "clopper_pearson_low"),
            tol::CLOSED_FORM,
        );
        check(
            &format!("{name} clopper-pearson high"),
            got.clopper_pearson.high,
            f(w, "clopper_pearson_high"),
            tol::CLOSED_FORM,
        );
        check(
            &format!("{name} p"),
            got.p_value,
            f(w, "pvalue"),
            tol::CLOSED_FORM,
        );
    }
}

#[test]
fn binomial_tests_match_scipy() {
    for c in reference("preference")["binomial_tests"]
        .as_array()
        .expect("tests")
    {
        let (k, n, p) = (u(c, "k"), u(c, "n"), f(c, "p"));
        let got = preference::binomial_test(k, n, p).expect("test");
        check(
            &format!("binomtest({k}, {n}, {p})"),
            got,
            f(c, "pvalue"),
            tol::CLOSED_FORM,
        );
    }
}

#[test]
fn win_rate_refuses_only_ties() {
    assert_eq!(
        preference::win_rate(0, 0, 4, 0.95),
        Err(PreferenceError::OnlyTies { ties: 4 })
    );
    assert!(matches!(
        preference::win_rate(1, 1, 0, 1.0),
        Err(PreferenceError::BadLevel { .. })
    ));
    assert!(matches!(
        preference::binomial_test(5, 4, 0.5),
        Err(PreferenceError::TooManyWins { wins: 5, n: 4 })
    ));
}

fn bradley_terry_case<'a>(r: &'a Value, name: &str) -> &'a Value {
    r["bradley_terry"]
        .as_array()
        .expect("cases")
        .iter()
        .find(|c| c["name"] == name)
        .unwrap_or_else(|| panic!("no case {name}"))
}

#[test]
fn bradley_terry_matches_the_python_mm() {
    for c in reference("preference")["bradley_terry"]
        .as_array()
        .expect("cases")
    {
        let name = c["name"].as_str().expect("name");
        let systems = strings(&c["systems"]);
        let tally =
            Tally::from_comparisons(&comparisons(&systems, &c["comparisons"])).expect("tally");
        let options = BradleyTerryOptions {
            pseudo_count: f(c, "pseudo_count"),
            ..BradleyTerryOptions::default()
        };
        let got = preference::bradley_terry(&tally, &options).expect("fit");
        assert_eq!(got.systems, systems, "{name}");
        assert!(got.converged, "{name} did not converge");
        assert_eq!(got.converged, c["converged"].as_bool().expect("converged"));
        assert_eq!(got.never_won, strings(&c["never_won"]), "{name} never won");
        assert_eq!(
            got.never_lost,
            strings(&c["never_lost"]),
            "{name} never lost"
        );
        assert_eq!(
            got.strongly_connected,
            c["strongly_connected"].as_bool().expect("connected"),
            "{name} strongly connected"
        );
        let want = c["strengths"].as_array().expect("strengths");
        let mut max = 0.0_f64;
        for ((s, g), w) in systems.iter().zip(&got.strengths).zip(want) {
            let w = w.as_f64().expect("strength");
            check(&format!("{name} {s}"), *g, w, tol::ITERATIVE);
            max = max.max((g - w).abs());
        }
        println!(
            "{name}: {} iterations (Python {}), largest difference {max:.1e}",
            got.iterations, c["iterations"]
        );
        assert!((got.strengths.iter().sum::<f64>() - 1.0).abs() < 1e-12);
    }
}

#[test]
fn bradley_terry_of_two_systems_is_the_share_of_wins() {
    // x beat y 3 times, lost once, tied twice: x has 3 + 2/2 = 4 of 6 wins.
    let cs = [
        Comparison::new("x", "y", Outcome::A),
        Comparison::new("y", "x", Outcome::B),
        Comparison::new("x", "y", Outcome::A),
        Comparison::new("x", "y", Outcome::B),
        Comparison::new("y", "x", Outcome::Tie),
        Comparison::new("x", "y", Outcome::Tie),
    ];
    let tally = Tally::from_comparisons(&cs).expect("tally");
    let bt = preference::bradley_terry(&tally, &BradleyTerryOptions::default()).expect("fit");
    check("x", bt.strength("x").expect("x"), 2.0 / 3.0, 1e-12);
    check("y", bt.strength("y").expect("y"), 1.0 / 3.0, 1e-12);
}

#[test]
fn a_system_that_never_won_is_reported_and_gets_zero() {
    let r = reference("preference");
    let c = bradley_terry_case(&r, "never_won");
    let systems = strings(&c["systems"]);
    let tally = Tally::from_comparisons(&comparisons(&systems, &c["comparisons"])).expect("tally");
    let bt = preference::bradley_terry(&tally, &BradleyTerryOptions::default()).expect("fit");
    assert_eq!(bt.never_won, vec!["d".to_string()]);
    assert!(!bt.strongly_connected);
    assert_eq!(bt.strength("d"), Some(0.0));
    // A pseudo-count gives it a small positive strength and a fit that exists.
    let shrunk = preference::bradley_terry(
        &tally,
        &BradleyTerryOptions {
            pseudo_count: 0.5,
            ..BradleyTerryOptions::default()
        },
    )
    .expect("fit");
    assert!(shrunk.strength("d").expect("d") > 0.0);
    assert!(shrunk.strongly_connected);
    assert_eq!(
        shrunk.never_won,
        vec!["d".to_string()],
        "reported from the data"
    );
}

#[test]
fn llmfao_matches_its_published_scores() {
    let r = reference("preference");
    let c = bradley_terry_case(&r, "llmfao_crowd");
    let systems = strings(&c["systems"]);
    let tally = Tally::from_comparisons(&comparisons(&systems, &c["comparisons"])).expect("tally");
    let bt = preference::bradley_terry(&tally, &BradleyTerryOptions::default()).expect("fit");
    let published = &r["llmfao_published"]["scores"];
    assert_eq!(published.as_object().expect("scores").len(), 59);
    for (s, g) in systems.iter().zip(&bt.strengths) {
        check(&format!("LLMFAO {s}"), *g, f(published, s), PUBLISHED_TOL);
    }
}

#[test]
fn bradley_terry_bootstrap_reproduces_the_python_stream() {
    let r = reference("preference");
    for b in r["bootstrap"].as_array().expect("bootstrap") {
        let data = b["data"].as_str().expect("data");
        let source = if data == "tally" {
            &r["tally"]
        } else {
            bradley_terry_case(&r, data)
        };
        let systems = strings(&source["systems"]);
        let cs = comparisons(&systems, &source["comparisons"]);
        let options = BradleyTerryOptions {
            pseudo_count: f(b, "pseudo_count"),
            ..BradleyTerryOptions::default()
        };
        let got = preference::bradley_terry_bootstrap(
            &cs,
            &options,
            f(b, "level"),
            u(b, "resamples") as usize,
            u(b, "seed"),
        )
        .expect("bootstrap");
        let want = b["intervals"].as_array().expect("intervals");
        assert_eq!(got.len(), want.len());
        for (g, w) in got.iter().zip(want) {
            let name = format!("{data} {}", g.system);
            assert_eq!(g.system, w["system"].as_str().expect("system"));
            assert_eq!(g.resamples_used as u64, u(w, "resamples_used"), "{name}");
            let interval = g.interval.expect("an interval");
            check(
                &format!("{name} low"),
                interval.low,
                f(w, "low"),
                tol::ITERATIVE,
            );
            check(
                &format!("{name} high"),
                interval.high,
                f(w, "high"),
                tol::ITERATIVE,
            );
        }
    }
}
