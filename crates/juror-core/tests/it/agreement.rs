//! Agreement statistics against published worked examples and Python libraries, and their
//! properties.
//!
//! `tests/reference/agreement/reference.json` holds every case: the units × raters matrix, the
//! scale, and what statsmodels (Fleiss), krippendorff (alpha) and scikit-learn (Cohen) computed
//! on it, with the library versions. `make_reference.py` beside it writes it; rerun it after a
//! change of case and read the diff. Every value must match at [`tol::CLOSED_FORM`], and the published
//! figures (three decimals; PandaLM's two) must round to what the papers print.

use juror_core::stats::agreement::{
    Metric, Ratings, Weights, cohen_kappa, fleiss_kappa, krippendorff_alpha, pairwise,
    percent_agreement,
};
use proptest::prelude::*;
use serde::Deserialize;

use crate::support::{self, tol};

const REFERENCE: &str = include_str!("../reference/agreement/reference.json");

#[derive(Deserialize)]
struct Reference {
    versions: serde_json::Map<String, serde_json::Value>,
    cases: Vec<Case>,
}

#[derive(Deserialize)]
struct Case {
    name: String,
    raters: Vec<String>,
    scale: Vec<f64>,
    matrix: Vec<Vec<Option<f64>>>,
    fleiss_kappa: Option<f64>,
    percent_agreement: Option<f64>,
    alpha: Alphas,
    /// Absent where the columns are not raters (Fleiss's data, given as counts).
    pairs: Option<Vec<Pair>>,
}

#[derive(Deserialize)]
struct Alphas {
    nominal: Option<f64>,
    ordinal: Option<f64>,
    interval: Option<f64>,
}

#[derive(Deserialize)]
struct Pair {
    a: String,
    b: String,
    units: usize,
    agreement: Option<f64>,
    unweighted: Option<f64>,
    linear: Option<f64>,
    quadratic: Option<f64>,
}

fn reference() -> Reference {
    serde_json::from_str(REFERENCE).expect("reference.json parses")
}

fn case(name: &str) -> Case {
    reference()
        .cases
        .into_iter()
        .find(|c| c.name == name)
        .unwrap_or_else(|| panic!("reference.json has no case {name:?}"))
}

/// Units are the matrix rows, named by their index.
fn ratings_of(case: &Case) -> Ratings {
    let triples = case.matrix.iter().enumerate().flat_map(|(u, row)| {
        row.iter()
            .zip(&case.raters)
            .filter_map(move |(v, r)| v.map(|v| (u.to_string(), r.clone(), v)))
    });
    Ratings::from_triples(triples)
        .and_then(|r| r.with_scale(&case.scale))
        .unwrap_or_else(|e| panic!("{}: {e}", case.name))
}

fn close(what: &str, got: Option<f64>, want: Option<f64>) {
    support::close(what, got, want, tol::CLOSED_FORM);
}

/// Every statistic of one case against the libraries' values; returns how many it compared.
fn check(case: &Case) -> usize {
    let r = ratings_of(case);
    let name = &case.name;
    close(
        &format!("{name}: fleiss_kappa"),
        fleiss_kappa(&r),
        case.fleiss_kappa,
    );
    close(
        &format!("{name}: percent_agreement"),
        percent_agreement(&r),
        case.percent_agreement,
    );
    for (metric, want) in [
        (Metric::Nominal, case.alpha.nominal),
        (Metric::Ordinal, case.alpha.ordinal),
        (Metric::Interval, case.alpha.interval),
    ] {
        close(
            &format!("{name}: alpha {metric:?}"),
            krippendorff_alpha(&r, metric),
            want,
        );
    }
    let mut compared = 5;
    let Some(pairs) = &case.pairs else {
        return compared;
    };
    let got = pairwise(&r);
    assert_eq!(got.len(), pairs.len(), "{name}: number of pairs");
    for w in pairs {
        let pair = format!("{name}: {}/{}", w.a, w.b);
        // Raters come in order of first appearance, which need not be the reference's order.
        let g = got
            .iter()
            .find(|g| {
                (&g.rater_a, &g.rater_b) == (&w.a, &w.b) || (&g.rater_a, &g.rater_b) == (&w.b, &w.a)
            })
            .unwrap_or_else(|| panic!("{pair}: missing from pairwise()"));
        assert_eq!(g.units, w.units, "{pair}: units");
        close(&format!("{pair} agreement"), g.agreement, w.agreement);
        close(&format!("{pair} unweighted"), g.unweighted, w.unweighted);
        close(&format!("{pair} linear"), g.linear, w.linear);
        close(&format!("{pair} quadratic"), g.quadratic, w.quadratic);
        // The single-pair function agrees with the table of pairs.
        close(
            &format!("{pair} cohen_kappa"),
            cohen_kappa(&r, &w.a, &w.b, Weights::Quadratic),
            w.quadratic,
        );
        compared += 5;
    }
    compared
}

#[test]
fn every_reference_case_matches_the_libraries() {
    let reference = reference();
    for library in [
        "python",
        "numpy",
        "scipy",
        "statsmodels",
        "sklearn",
        "krippendorff",
    ] {
        assert!(
            reference.versions.contains_key(library),
            "reference.json names no {library} version"
        );
    }
    // Published examples, seeded random matrices, SummEval's four dimensions, PandaLM.
    assert!(reference.cases.len() >= 13, "reference.json lost cases");
    let compared: usize = reference.cases.iter().map(check).sum();
    assert!(compared > 100, "only {compared} values compared");
}

/// Rounds like the papers print: to `places` decimals.
fn rounds_to(got: Option<f64>, published: f64, places: i32) -> bool {
    let scale = f64::from(10_i32.pow(places.unsigned_abs()));
    got.is_some_and(|g| (g * scale).round() == (published * scale).round())
}

#[test]
fn fleiss_1971_diagnoses_give_0_430() {
    let r = ratings_of(&case("fleiss_1971_diagnoses"));
    assert_eq!((r.units().len(), r.raters().len()), (30, 6));
    let kappa = fleiss_kappa(&r);
    assert!(rounds_to(kappa, 0.430, 3), "{kappa:?}");
}

#[test]
fn wikipedia_fleiss_example_gives_0_210() {
    let r = ratings_of(&case("fleiss_wikipedia"));
    assert_eq!((r.units().len(), r.raters().len()), (10, 14));
    let kappa = fleiss_kappa(&r);
    assert!(rounds_to(kappa, 0.210, 3), "{kappa:?}");
}

#[test]
fn krippendorff_2011_gives_0_743_0_815_0_849() {
    let r = ratings_of(&case("krippendorff_2011"));
    assert_eq!((r.units().len(), r.raters().len()), (12, 4));
    for (metric, published) in [
        (Metric::Nominal, 0.743),
        (Metric::Ordinal, 0.815),
        (Metric::Interval, 0.849),
    ] {
        let alpha = krippendorff_alpha(&r, metric);
        assert!(rounds_to(alpha, published, 3), "{metric:?}: {alpha:?}");
    }
}

#[test]
fn wikipedia_krippendorff_example_gives_0_691_and_0_811() {
    let r = ratings_of(&case("krippendorff_wikipedia"));
    let nominal = krippendorff_alpha(&r, Metric::Nominal);
    let interval = krippendorff_alpha(&r, Metric::Interval);
    assert!(rounds_to(nominal, 0.691, 3), "{nominal:?}");
    assert!(rounds_to(interval, 0.811, 3), "{interval:?}");
}

/// PandaLM's README: Cohen's kappa 0.85, 0.88 and 0.86 between its three annotators.
#[test]
fn pandalm_annotators_give_the_published_kappas() {
    let r = ratings_of(&case("pandalm_pairwise"));
    assert_eq!(r.units().len(), 999);
    for (a, b, published) in [
        ("annotator1", "annotator2", 0.85),
        ("annotator1", "annotator3", 0.88),
        ("annotator2", "annotator3", 0.86),
    ] {
        let kappa = cohen_kappa(&r, a, b, Weights::Unweighted);
        assert!(rounds_to(kappa, published, 2), "{a}/{b}: {kappa:?}");
    }
}

/// The full scale matters for weighted kappa when an unused value lies between used ones.
#[test]
fn weighted_kappa_counts_steps_on_the_full_scale() {
    let c = case("random_gap_5pt");
    let full = ratings_of(&c);
    let seen = Ratings::from_triples(c.matrix.iter().enumerate().flat_map(|(u, row)| {
        row.iter()
            .zip(&c.raters)
            .filter_map(move |(v, r)| v.map(|v| (u.to_string(), r.clone(), v)))
    }))
    .unwrap();
    assert_eq!(seen.categories(), [1.0, 2.0, 4.0, 5.0]);
    let on = |r: &Ratings, w| cohen_kappa(r, "a", "b", w).unwrap();
    assert!((on(&full, Weights::Linear) - on(&seen, Weights::Linear)).abs() > 1e-3);
    // Unweighted kappa ignores the scale.
    close(
        "unweighted",
        Some(on(&full, Weights::Unweighted)),
        Some(on(&seen, Weights::Unweighted)),
    );
}

// ---------------------------------------------------------------------------------------------
// Properties
// ---------------------------------------------------------------------------------------------

/// A units × raters matrix of values 1..=5 with missing cells.
fn matrix() -> impl Strategy<Value = Vec<Vec<Option<u8>>>> {
    (2usize..=6).prop_flat_map(|raters| {
        prop::collection::vec(
            prop::collection::vec(prop::option::weighted(0.8, 1u8..=5), raters),
            1..=25,
        )
    })
}

/// Ratings with each value passed through `f`, raters in the order `order` (indices).
fn build(m: &[Vec<Option<u8>>], order: &[usize], f: impl Fn(u8) -> f64) -> Ratings {
    let mut triples = Vec::new();
    for (u, row) in m.iter().enumerate() {
        for &r in order {
            if let Some(v) = row[r] {
                triples.push((format!("u{u}"), format!("r{r}"), f(v)));
            }
        }
    }
    Ratings::from_triples(triples).unwrap()
}

fn identity(m: &[Vec<Option<u8>>]) -> Vec<usize> {
    (0..m[0].len()).collect()
}

fn same(a: Option<f64>, b: Option<f64>) -> bool {
    match (a, b) {
        (Some(a), Some(b)) => (a - b).abs() <= tol::CLOSED_FORM,
        (None, None) => true,
        _ => false,
    }
}

/// Everything that ignores rater identity and is nominal.
fn nominal(r: &Ratings) -> [Option<f64>; 3] {
    [
        fleiss_kappa(r),
        krippendorff_alpha(r, Metric::Nominal),
        percent_agreement(r),
    ]
}

/// Fleiss (1971) as printed, for a complete matrix with n ratings per unit.
fn classic_fleiss(m: &[Vec<Option<u8>>]) -> f64 {
    let n = m[0].len() as f64;
    let units = m.len() as f64;
    let mut p_bar = 0.0;
    let mut p_j = [0.0; 6];
    for row in m {
        let mut n_ij = [0.0; 6];
        for v in row.iter().flatten() {
            n_ij[usize::from(*v)] += 1.0;
        }
        p_bar += (n_ij.iter().map(|x| x * x).sum::<f64>() - n) / (n * (n - 1.0)) / units;
        for (p, x) in p_j.iter_mut().zip(n_ij) {
            *p += x / (units * n);
        }
    }
    let p_e: f64 = p_j.iter().map(|p| p * p).sum();
    (p_bar - p_e) / (1.0 - p_e)
}

proptest! {
    #[test]
    fn symmetric_in_raters(m in matrix(), seed in any::<u64>()) {
        let mut order = identity(&m);
        // A deterministic shuffle from the seed.
        let mut s = seed;
        for i in (1..order.len()).rev() {
            s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            order.swap(i, (s >> 33) as usize % (i + 1));
        }
        let (a, b) = (build(&m, &identity(&m), f64::from), build(&m, &order, f64::from));
        for (x, y) in nominal(&a).into_iter().zip(nominal(&b)) {
            prop_assert!(same(x, y), "{x:?} vs {y:?}");
        }
        for metric in [Metric::Ordinal, Metric::Interval] {
            prop_assert!(same(krippendorff_alpha(&a, metric), krippendorff_alpha(&b, metric)));
        }
        for p in pairwise(&a) {
            for w in [Weights::Unweighted, Weights::Linear, Weights::Quadratic] {
                let ab = cohen_kappa(&a, &p.rater_a, &p.rater_b, w);
                let ba = cohen_kappa(&a, &p.rater_b, &p.rater_a, w);
                prop_assert!(same(ab, ba), "{w:?}: {ab:?} vs {ba:?}");
            }
        }
    }

    #[test]
    fn perfect_agreement_gives_one(truth in prop::collection::vec(1u8..=5, 2..=20),
                                   raters in 2usize..=5,
                                   missing in prop::collection::vec(any::<bool>(), 100)) {
        prop_assume!(truth.iter().any(|&v| v != truth[0]));
        // Every rater gives the unit's true value, or nothing; the first two always rate.
        let m: Vec<Vec<Option<u8>>> = truth.iter().enumerate().map(|(u, &v)| {
            (0..raters).map(|r| (r < 2 || !missing[(u * raters + r) % 100]).then_some(v)).collect()
        }).collect();
        let r = build(&m, &identity(&m), f64::from);
        for value in nominal(&r) {
            prop_assert!(same(value, Some(1.0)), "{value:?}");
        }
        for metric in [Metric::Ordinal, Metric::Interval] {
            prop_assert!(same(krippendorff_alpha(&r, metric), Some(1.0)));
        }
        let p = &pairwise(&r)[0];
        for kappa in [p.unweighted, p.linear, p.quadratic, p.agreement] {
            prop_assert!(same(kappa, Some(1.0)), "{kappa:?}");
        }
    }

    #[test]
    fn nominal_statistics_ignore_the_labels(m in matrix(),
                                            labels in Just(vec![-3.5, 0.0, 7.0, 100.0, 2.25])
                                                .prop_shuffle()) {
        let a = build(&m, &identity(&m), f64::from);
        let b = build(&m, &identity(&m), |v| labels[usize::from(v) - 1]);
        for (x, y) in nominal(&a).into_iter().zip(nominal(&b)) {
            prop_assert!(same(x, y), "{x:?} vs {y:?}");
        }
        for (p, q) in pairwise(&a).iter().zip(pairwise(&b)) {
            prop_assert!(same(p.unweighted, q.unweighted));
            prop_assert!(same(p.agreement, q.agreement));
        }
    }

    #[test]
    fn ordinal_alpha_sees_only_order_and_interval_alpha_only_differences(m in matrix()) {
        let a = build(&m, &identity(&m), f64::from);
        let cubed = build(&m, &identity(&m), |v| f64::from(v) * f64::from(v) * f64::from(v));
        let affine = build(&m, &identity(&m), |v| 10.0 - 2.5 * f64::from(v));
        prop_assert!(same(krippendorff_alpha(&a, Metric::Ordinal),
                          krippendorff_alpha(&cubed, Metric::Ordinal)));
        prop_assert!(same(krippendorff_alpha(&a, Metric::Interval),
                          krippendorff_alpha(&affine, Metric::Interval)));
    }

    #[test]
    fn with_a_constant_number_of_raters_fleiss_is_the_classic_formula(
        m in (2usize..=6).prop_flat_map(|raters| prop::collection::vec(
            prop::collection::vec((1u8..=5).prop_map(Some), raters), 1..=25)))
    {
        let r = build(&m, &identity(&m), f64::from);
        match fleiss_kappa(&r) {
            Some(kappa) => prop_assert!((kappa - classic_fleiss(&m)).abs() <= tol::CLOSED_FORM),
            None => prop_assert!(r.categories().len() < 2),
        }
    }
}
