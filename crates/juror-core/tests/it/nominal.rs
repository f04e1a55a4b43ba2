//! `stats::nominal` (and the chi-square distribution in `stats::special`) against scipy
//! and statsmodels.
//!
//! Every expected value comes from `tests/reference/nominal/reference.json`, written by
//! `make_reference.py` beside it (library versions in its `versions` object). Tolerances:
//! - statistics and p-values: 1e-9, read as |got − want| ≤ 1e-9 · max(1, |want|), i.e.
//!   absolute for p-values and relative for large statistics;
//! - `special::gamma_q` and `special::chi2_sf` against `scipy.special.gammaincc` and
//!   `scipy.stats.chi2.sf`: by relative error, down to the smallest values (see
//!   `SPECIAL_RELATIVE`).
//!
//! Each section's number of cases is asserted, so a reference file that lost its cases cannot
//! pass silently.

use juror_core::stats::nominal::{self, NominalError};
use juror_core::stats::special;
use serde_json::Value;

use crate::support::{check, f, reference, tol, u};

/// Largest relative difference allowed between `special::gamma_q` / `chi2_sf` and scipy. The
/// measured worst case is printed by `chi_square_distribution_matches_scipy` (run with
/// `--nocapture`): 5.7e-14, at chi2_sf(1000, 20). The error grows with the size of the
/// prefactor's exponent a ln x − x − ln Γ(a), about 700 at the far end of the grid.
const SPECIAL_RELATIVE: f64 = 2e-13;

fn name(v: &Value) -> &str {
    v["name"].as_str().unwrap_or("?")
}

fn cases<'a>(r: &'a Value, key: &str, expected: usize) -> &'a Vec<Value> {
    let cases = r[key]
        .as_array()
        .unwrap_or_else(|| panic!("{key} is not an array"));
    assert_eq!(cases.len(), expected, "number of {key} cases");
    cases
}

fn counts(v: &Value) -> Vec<u64> {
    v.as_array()
        .unwrap_or_else(|| panic!("not an array: {v}"))
        .iter()
        .map(|x| x.as_u64().expect("a count"))
        .collect()
}

fn rows(v: &Value) -> Vec<Vec<f64>> {
    v.as_array()
        .unwrap_or_else(|| panic!("not an array: {v}"))
        .iter()
        .map(|row| {
            row.as_array()
                .expect("a row")
                .iter()
                .map(|x| x.as_f64().expect("a number"))
                .collect()
        })
        .collect()
}

#[test]
fn reference_was_made_with_recorded_versions() {
    let r = reference("nominal");
    for lib in ["python", "numpy", "scipy", "statsmodels"] {
        assert!(
            r["versions"][lib].as_str().is_some_and(|v| !v.is_empty()),
            "{lib} version missing"
        );
    }
}

#[test]
fn chi_square_distribution_matches_scipy() {
    let r = reference("nominal");
    let relative = |got: f64, want: f64| {
        if got == want {
            0.0
        } else {
            (got - want).abs() / want.abs().max(1e-300)
        }
    };
    let mut worst = (0.0_f64, String::new());
    for c in cases(&r["special"], "gamma_q", 228) {
        let (a, x, want) = (f(c, "a"), f(c, "x"), f(c, "value"));
        let got = special::gamma_q(a, x);
        let err = relative(got, want);
        assert!(
            err <= SPECIAL_RELATIVE,
            "gamma_q({a}, {x}): got {got:e}, scipy {want:e}, relative error {err:e}"
        );
        if err > worst.0 {
            worst = (err, format!("gamma_q({a}, {x})"));
        }
    }
    for c in cases(&r["special"], "chi2_sf", 192) {
        let (df, x, want) = (f(c, "df"), f(c, "x"), f(c, "value"));
        let got = special::chi2_sf(x, df);
        let err = relative(got, want);
        assert!(
            err <= SPECIAL_RELATIVE,
            "chi2_sf({x}, {df}): got {got:e}, scipy {want:e}, relative error {err:e}"
        );
        if err > worst.0 {
            worst = (err, format!("chi2_sf({x}, {df})"));
        }
    }
    println!(
        "largest relative difference from scipy: {:e} at {}",
        worst.0, worst.1
    );
}

#[test]
fn chi_square_distribution_edges() {
    assert_eq!(special::gamma_q(2.0, 0.0), 1.0);
    assert_eq!(special::gamma_q(2.0, f64::INFINITY), 0.0);
    assert!(special::gamma_q(0.0, 1.0).is_nan());
    assert!(special::gamma_q(-1.0, 1.0).is_nan());
    assert!(special::gamma_q(1.0, -1.0).is_nan());
    assert!(special::gamma_q(f64::NAN, 1.0).is_nan());
    assert_eq!(special::chi2_sf(0.0, 3.0), 1.0);
    assert_eq!(special::chi2_sf(-2.0, 3.0), 1.0);
    assert!(special::chi2_sf(1.0, 0.0).is_nan());
    // Q(1, x) = e^{−x}, chi2_sf(x, 2) = e^{−x/2}, on both sides of the switch at x = a + 1.
    for x in [0.25, 1.9, 2.0, 2.1, 7.0, 60.0] {
        let want = libm::exp(-x);
        let got = special::gamma_q(1.0, x);
        assert!(
            (got - want).abs() <= 1e-13 * want,
            "Q(1, {x}) = {got:e}, want {want:e}"
        );
        let got = special::chi2_sf(2.0 * x, 2.0);
        assert!(
            (got - want).abs() <= 1e-13 * want,
            "chi2_sf({}, 2) = {got:e}",
            2.0 * x
        );
    }
}

#[test]
fn chi_square_matches_scipy() {
    let r = reference("nominal");
    for c in cases(&r, "chi_square", 25) {
        let what = name(c);
        let got = nominal::chi_square_equal(&counts(&c["counts"]))
            .unwrap_or_else(|e| panic!("{what}: {e}"));
        check(
            &format!("{what} statistic"),
            got.statistic,
            f(c, "statistic"),
            tol::CLOSED_FORM,
        );
        check(
            &format!("{what} p"),
            got.p_value,
            f(c, "p_value"),
            tol::CLOSED_FORM,
        );
        assert_eq!(got.df as u64, u(c, "df"), "{what} df");
        let observed = counts(&c["counts"]);
        let n: u64 = observed.iter().sum();
        check(
            &format!("{what} expected"),
            got.expected,
            n as f64 / observed.len() as f64,
            tol::CLOSED_FORM,
        );
    }
}

#[test]
fn exact_multinomial_matches_binomtest_and_enumeration() {
    let r = reference("nominal");
    let all = cases(&r, "multinomial", 22);
    let mut binomtest = 0;
    let mut smallest = 1.0_f64;
    for c in all {
        let what = name(c);
        let want = f(c, "p_value");
        let got = nominal::multinomial_exact_equal(&counts(&c["counts"]))
            .unwrap_or_else(|e| panic!("{what}: {e}"));
        check(&format!("{what} p"), got, want, tol::CLOSED_FORM);
        // Small p-values must be right relatively too, not merely below 1e-9.
        assert!(
            (got - want).abs() <= 1e-9 * want,
            "{what}: got {got:e}, want {want:e}"
        );
        if c["method"] == "binomtest" {
            binomtest += 1;
            check(
                &format!("{what} enumerated"),
                got,
                f(c, "enumerated"),
                tol::CLOSED_FORM,
            );
        }
        smallest = smallest.min(want);
    }
    assert_eq!(binomtest, 5, "cases with k = 2 against binomtest");
    assert!(smallest < 1e-20, "the cases reach far into the tail");
    // Equally probable outcomes that are different multisets both count: same p-value.
    let a = nominal::multinomial_exact_equal(&[6, 1, 1]).unwrap();
    let b = nominal::multinomial_exact_equal(&[5, 3, 0]).unwrap();
    assert_eq!(a, b);
}

#[test]
fn friedman_matches_scipy() {
    let r = reference("nominal");
    for c in cases(&r, "friedman", 14) {
        let what = name(c);
        let got = nominal::friedman(&rows(&c["rows"])).unwrap_or_else(|e| panic!("{what}: {e}"));
        check(
            &format!("{what} statistic"),
            got.statistic,
            f(c, "statistic"),
            tol::CLOSED_FORM,
        );
        check(
            &format!("{what} p"),
            got.p_value,
            f(c, "p_value"),
            tol::CLOSED_FORM,
        );
        assert_eq!(got.df as u64, u(c, "df"), "{what} df");
        check(
            &format!("{what} W"),
            got.kendall_w,
            f(c, "kendall_w"),
            tol::CLOSED_FORM,
        );
        check(
            &format!("{what} uncorrected W"),
            got.kendall_w_uncorrected,
            f(c, "kendall_w_uncorrected"),
            tol::CLOSED_FORM,
        );
        let want_ranks = &c["mean_ranks"].as_array().expect("mean ranks");
        assert_eq!(got.mean_ranks.len(), want_ranks.len(), "{what} columns");
        for (j, (g, w)) in got.mean_ranks.iter().zip(want_ranks.iter()).enumerate() {
            check(
                &format!("{what} mean rank {j}"),
                *g,
                w.as_f64().expect("a number"),
                tol::CLOSED_FORM,
            );
        }
        assert_eq!(got.n, c["rows"].as_array().expect("rows").len());
        check(
            &format!("{what} tie correction"),
            got.tie_correction * got.kendall_w,
            got.kendall_w_uncorrected,
            tol::CLOSED_FORM,
        );
        assert!(got.tie_correction > 0.0 && got.tie_correction <= 1.0);
    }
}

#[test]
fn friedman_of_scores_and_of_their_ranks_agree() {
    let scores = vec![
        vec![3.5, 1.0, 2.0, 2.0],
        vec![0.1, 0.3, 0.2, 0.9],
        vec![5.0, 4.0, 4.0, 1.0],
    ];
    let ranks = vec![
        vec![4.0, 1.0, 2.5, 2.5],
        vec![1.0, 3.0, 2.0, 4.0],
        vec![4.0, 2.5, 2.5, 1.0],
    ];
    assert_eq!(
        nominal::friedman(&scores).unwrap(),
        nominal::friedman(&ranks).unwrap()
    );
}

#[test]
fn mcnemar_matches_statsmodels() {
    let r = reference("nominal");
    for c in cases(&r, "mcnemar", 20) {
        let (b, c_) = (u(c, "b"), u(c, "c"));
        let want = f(c, "p_value");
        let got = nominal::mcnemar_exact(b, c_).unwrap_or_else(|e| panic!("({b}, {c_}): {e}"));
        check(&format!("mcnemar({b}, {c_})"), got, want, tol::CLOSED_FORM);
        assert!(
            (got - want).abs() <= 1e-9 * want,
            "mcnemar({b}, {c_}): got {got:e}, want {want:e}"
        );
        assert_eq!(got, nominal::mcnemar_exact(c_, b).unwrap(), "symmetric");
    }
}

#[test]
fn cochrans_q_matches_statsmodels() {
    let r = reference("nominal");
    for c in cases(&r, "cochran", 9) {
        let what = name(c);
        let table: Vec<Vec<bool>> = rows(&c["table"])
            .iter()
            .map(|row| row.iter().map(|&x| x == 1.0).collect())
            .collect();
        let got = nominal::cochrans_q(&table).unwrap_or_else(|e| panic!("{what}: {e}"));
        check(
            &format!("{what} statistic"),
            got.statistic,
            f(c, "statistic"),
            tol::CLOSED_FORM,
        );
        check(
            &format!("{what} p"),
            got.p_value,
            f(c, "p_value"),
            tol::CLOSED_FORM,
        );
        assert_eq!(got.df as u64, u(c, "df"), "{what} df");
        assert_eq!(got.n, table.len());
        let column_sums: Vec<u64> = (0..table[0].len())
            .map(|j| table.iter().filter(|row| row[j]).count() as u64)
            .collect();
        assert_eq!(got.successes, column_sums, "{what} successes");
    }
}

/// For two columns, Cochran's Q is McNemar's chi-square without continuity correction.
#[test]
fn cochrans_q_with_two_columns_is_mcnemars_chi_square() {
    let (b, c) = (9u64, 3u64);
    let mut table = vec![vec![true, false]; b as usize];
    table.extend(vec![vec![false, true]; c as usize]);
    table.extend(vec![vec![true, true]; 5]);
    table.extend(vec![vec![false, false]; 4]);
    let q = nominal::cochrans_q(&table).unwrap();
    let want = ((b as f64 - c as f64) * (b as f64 - c as f64)) / (b + c) as f64;
    assert_eq!(q.statistic, want);
    assert_eq!(q.successes, vec![b + 5, c + 5]);
}

fn message(e: NominalError) -> String {
    e.to_string()
}

#[test]
fn errors_say_what_to_do() {
    use NominalError::*;

    // Chi-square and the exact test: categories and counts.
    for counts in [&[][..], &[5][..]] {
        let e = nominal::chi_square_equal(counts).unwrap_err();
        assert!(matches!(e, TooFewCategories { needed: 2, .. }), "{e:?}");
        let e = nominal::multinomial_exact_equal(counts).unwrap_err();
        assert!(matches!(e, TooFewCategories { needed: 2, .. }), "{e:?}");
    }
    assert_eq!(
        nominal::chi_square_equal(&[0, 0, 0]).unwrap_err(),
        NoObservations
    );
    assert_eq!(
        nominal::multinomial_exact_equal(&[0, 0]).unwrap_err(),
        NoObservations
    );
    let e = nominal::multinomial_exact_equal(&[150, 51]).unwrap_err();
    assert_eq!(
        e,
        TooLargeForExact {
            total: 201,
            categories: 2
        }
    );
    assert!(message(e).contains("chi_square_equal"));
    assert!(nominal::multinomial_exact_equal(&[150, 50]).is_ok());
    assert!(matches!(
        nominal::multinomial_exact_equal(&[1; 7]).unwrap_err(),
        TooLargeForExact { categories: 7, .. }
    ));
    // Counts whose total overflows u64 are refused, not wrapped.
    assert!(matches!(
        nominal::multinomial_exact_equal(&[u64::MAX, 1]).unwrap_err(),
        TooLargeForExact {
            total: u64::MAX,
            ..
        }
    ));
    assert!(nominal::chi_square_equal(&[u64::MAX, u64::MAX]).is_ok());

    // Friedman.
    let e = nominal::friedman(&[]).unwrap_err();
    assert!(matches!(e, NoRows { .. }), "{e:?}");
    assert!(message(e).contains("at least one block"));
    let e = nominal::friedman(&[vec![1.0, 2.0, 3.0], vec![1.0, 2.0]]).unwrap_err();
    assert_eq!(
        e,
        RaggedRows {
            what: "Friedman test",
            row: 1,
            expected: 3,
            got: 2
        }
    );
    assert!(message(e).contains("drop incomplete blocks"));
    let e = nominal::friedman(&[vec![1.0, 2.0], vec![2.0, 1.0]]).unwrap_err();
    assert!(
        matches!(
            e,
            TooFewCategories {
                needed: 3,
                got: 2,
                ..
            }
        ),
        "{e:?}"
    );
    let e = nominal::friedman(&[vec![1.0], vec![2.0]]).unwrap_err();
    assert!(matches!(e, TooFewCategories { got: 1, .. }), "{e:?}");
    let e = nominal::friedman(&[vec![1.0, 2.0, 3.0], vec![1.0, f64::NAN, 3.0]]).unwrap_err();
    assert!(
        matches!(e, NotFinite { row: 1, column: 1, value, .. } if value.is_nan()),
        "{e:?}"
    );
    assert!(message(e).starts_with("ranks_or_scores[1][1] is NaN; remove or fix"));
    let e = nominal::friedman(&[vec![2.0, 2.0, 2.0], vec![5.0, 5.0, 5.0]]).unwrap_err();
    assert_eq!(e, AllRowsTied { rows: 2 });
    assert!(message(e).contains("undefined"));
    // One row not tied is enough.
    assert!(nominal::friedman(&[vec![2.0, 2.0, 2.0], vec![5.0, 5.0, 4.0]]).is_ok());

    // McNemar.
    let e = nominal::mcnemar_exact(0, 0).unwrap_err();
    assert_eq!(e, NoDiscordantPairs);
    assert!(message(e).contains("nothing to test"));
    assert_eq!(nominal::mcnemar_exact(7, 7).unwrap(), 1.0);
    assert!(nominal::mcnemar_exact(u64::MAX, 0).unwrap() < 1e-300);

    // Cochran's Q.
    assert!(matches!(
        nominal::cochrans_q(&[]).unwrap_err(),
        NoRows { .. }
    ));
    assert!(matches!(
        nominal::cochrans_q(&[vec![true, false], vec![true]]).unwrap_err(),
        RaggedRows { row: 1, .. }
    ));
    assert!(matches!(
        nominal::cochrans_q(&[vec![true], vec![false]]).unwrap_err(),
        TooFewCategories {
            needed: 2,
            got: 1,
            ..
        }
    ));
    let e = nominal::cochrans_q(&[vec![true, true, true], vec![false, false, false]]).unwrap_err();
    assert_eq!(e, NoVariationWithinRows { rows: 2 });
    assert!(message(e).contains("undefined"));
}

#[test]
fn every_error_message_says_what_to_do() {
    let advice = [
        (
            NominalError::TooFewCategories {
                what: "chi-square test",
                needed: 2,
                got: 1,
            },
            "chi-square test: needs at least 2 categories, got 1",
        ),
        (NominalError::NoObservations, "collect some judgements"),
        (
            NominalError::TooLargeForExact {
                total: 300,
                categories: 3,
            },
            "(got 300 over 3); use the chi-square test",
        ),
        (
            NominalError::NoRows { what: "x" },
            "give at least one block",
        ),
        (
            NominalError::RaggedRows {
                what: "x",
                row: 2,
                expected: 3,
                got: 4,
            },
            "row 2 has 4 values but row 0 has 3",
        ),
        (
            NominalError::NotFinite {
                what: "x",
                row: 0,
                column: 1,
                value: f64::INFINITY,
            },
            "x[0][1] is inf; remove or fix the value",
        ),
        (
            NominalError::AllRowsTied { rows: 3 },
            "statistic is undefined",
        ),
        (NominalError::NoDiscordantPairs, "b = c = 0"),
        (
            NominalError::NoVariationWithinRows { rows: 3 },
            "all true or all false",
        ),
    ];
    for (e, phrase) in advice {
        let m = e.to_string();
        assert!(m.contains(phrase), "{m:?} should say {phrase:?}");
    }
}
