//! Unit tests of the ordinal model: derivatives, invariances and the errors.

use super::likelihood::Model;
use super::*;

/// Ratings of three systems by six annotators, scores 1..4 (the generator never gives 5).
fn ratings() -> Vec<(&'static str, i64, &'static str)> {
    let systems = ["a", "b", "c"];
    let annotators = ["p", "q", "r", "s", "t", "u"];
    let mut state: u64 = 12_345;
    let mut out = Vec::new();
    for (i, annotator) in annotators.iter().enumerate() {
        for _ in 0..15 {
            for (j, system) in systems.iter().enumerate() {
                state = state
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1_442_695_040_888_963_407);
                let noise = (state >> 33) % 5;
                let score = ((noise + j as u64 + (i % 2) as u64) / 2 + 1).min(5);
                out.push((*system, score as i64, *annotator));
            }
        }
    }
    out
}

fn build(rows: &[(&'static str, i64, &'static str)]) -> Result<OrdinalData, OrdinalError> {
    let ratings: Vec<SystemRating<'_>> = rows
        .iter()
        .map(|&(system, score, annotator)| SystemRating {
            system,
            score,
            annotator,
        })
        .collect();
    OrdinalData::by_system(&["a", "b", "c"], &ratings)
}

#[test]
fn the_score_and_hessian_are_the_derivatives_of_the_likelihood() {
    let data = build(&ratings()).unwrap();
    let model = Model::new(&data);
    let k = model.k();
    let theta: Vec<f64> = (0..k).map(|i| 0.3 - 0.17 * i as f64).collect();
    let at = model.evaluate(&theta);
    assert!((at.ll - model.log_likelihood(&theta)).abs() < 1e-12);
    let h = 1e-5;
    for i in 0..k {
        let shifted = |d: f64| {
            let mut t = theta.clone();
            t[i] += d;
            t
        };
        let numeric =
            (model.log_likelihood(&shifted(h)) - model.log_likelihood(&shifted(-h))) / (2.0 * h);
        assert!((at.score[i] - numeric).abs() < 1e-6, "score {i}");
        let (up, down) = (model.evaluate(&shifted(h)), model.evaluate(&shifted(-h)));
        for j in 0..k {
            let numeric = (up.score[j] - down.score[j]) / (2.0 * h);
            let exact = at.hessian[i * k + j];
            assert!((exact - numeric).abs() < 1e-5, "hessian {i} {j}");
        }
    }
}

#[test]
fn permuting_the_ratings_does_not_change_the_fit() {
    let rows = ratings();
    let fit1 = fit(&build(&rows).unwrap()).unwrap();
    let mut shuffled = rows.clone();
    shuffled.reverse();
    shuffled.rotate_left(37);
    let fit2 = fit(&build(&shuffled).unwrap()).unwrap();
    assert!(fit1.converged && fit2.converged);
    let close = |a: &[f64], b: &[f64]| {
        a.iter()
            .zip(b)
            .all(|(x, y)| (x - y).abs() <= 1e-12 * x.abs().max(1.0))
    };
    assert!(close(&fit1.params, &fit2.params));
    assert!(close(&fit1.covariance, &fit2.covariance));
    let (c1, c2) = (
        fit1.cluster_covariance.unwrap(),
        fit2.cluster_covariance.unwrap(),
    );
    assert!(close(&c1, &c2));
    assert!((fit1.log_likelihood - fit2.log_likelihood).abs() < 1e-9);
}

#[test]
fn pushing_rows_by_hand_gives_the_builders_fit() {
    let rows = ratings();
    let by_system = fit(&build(&rows).unwrap()).unwrap();
    let columns = vec!["system[T.b]".to_string(), "system[T.c]".to_string()];
    let categories = (1..=4).map(|s| s.to_string()).collect();
    let mut data = OrdinalData::new(columns, categories).unwrap();
    for (system, score, annotator) in &rows {
        let row = [f64::from(*system == "b"), f64::from(*system == "c")];
        data.push(annotator, &row, (*score - 1) as usize).unwrap();
    }
    let by_hand = fit(&data).unwrap();
    assert_eq!(by_hand.names, by_system.names);
    for (a, b) in by_hand.params.iter().zip(&by_system.params) {
        assert!((a - b).abs() < 1e-12);
    }
}

#[test]
fn one_annotator_has_no_clustered_standard_errors() {
    let rows: Vec<_> = ratings().into_iter().map(|(s, y, _)| (s, y, "p")).collect();
    let f = fit(&build(&rows).unwrap()).unwrap();
    assert!(f.estimates(Covariance::Model).is_ok());
    assert_eq!(
        f.odds_ratios(Covariance::Cluster),
        Err(OrdinalError::TooFewClusters { clusters: 1 })
    );
}

#[test]
fn a_system_rated_only_at_an_end_of_the_scale_is_named() {
    let mut rows = ratings();
    for r in rows.iter_mut().filter(|r| r.0 == "c") {
        r.1 = 5;
    }
    assert_eq!(
        build(&rows),
        Err(OrdinalError::ExtremeSystem {
            system: "c".to_string(),
            category: "5".to_string(),
            top: true,
        })
    );
}

#[test]
fn separated_ratings_are_refused_not_fitted() {
    // a only 1–2, b and c only 3–5: no estimate exists.
    let rows: Vec<_> = ratings()
        .into_iter()
        .map(|(s, y, w)| match s {
            "a" => (s, 1 + y % 2, w),
            _ => (s, 3 + y % 3, w),
        })
        .collect();
    let err = fit(&build(&rows).unwrap()).unwrap_err();
    assert!(matches!(err, OrdinalError::Separation { .. }), "{err:?}");
    assert!(err.to_string().contains("does not exist"), "{err}");
}

#[test]
fn unusable_data_are_refused() {
    let one = |score| vec![("a", score, "p"), ("b", score, "p"), ("c", score, "q")];
    assert_eq!(
        build(&one(3)),
        Err(OrdinalError::TooFewCategories { used: 1 })
    );
    assert_eq!(
        OrdinalData::by_system(&[], &[]),
        Err(OrdinalError::NoSystems)
    );
    let r = SystemRating {
        system: "x",
        score: 1,
        annotator: "p",
    };
    assert_eq!(
        OrdinalData::by_system(&["a", "a"], &[r]),
        Err(OrdinalError::DuplicateSystem {
            system: "a".to_string()
        })
    );
    assert_eq!(
        OrdinalData::by_system(&["a"], &[r]),
        Err(OrdinalError::UnknownSystem {
            index: 0,
            system: "x".to_string()
        })
    );
    let rows: Vec<_> = ratings().into_iter().filter(|r| r.0 != "b").collect();
    assert_eq!(
        build(&rows),
        Err(OrdinalError::Unrated {
            system: "b".to_string()
        })
    );
    let names = |n: &[&str]| n.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    assert_eq!(
        OrdinalData::new(names(&["x"]), names(&["only"])),
        Err(OrdinalError::TooFewCategories { used: 1 })
    );
    let mut d = OrdinalData::new(names(&["x"]), names(&["lo", "mid", "hi"])).unwrap();
    assert!(matches!(
        d.push("p", &[f64::NAN], 0),
        Err(OrdinalError::NotFinite { index: 0, .. })
    ));
    assert!(matches!(
        d.push("p", &[1.0, 2.0], 0),
        Err(OrdinalError::RowLength { .. })
    ));
    assert!(matches!(
        d.push("p", &[1.0], 3),
        Err(OrdinalError::CategoryOutOfRange { .. })
    ));
    assert_eq!(d.n_obs(), 0, "nothing added");
    for i in 0..20 {
        d.push("p", &[f64::from(i % 3)], 2 * (i % 2) as usize)
            .unwrap();
    }
    assert_eq!(
        fit(&d),
        Err(OrdinalError::EmptyCategory {
            category: "mid".to_string()
        })
    );
}

#[test]
fn collinear_or_constant_columns_are_refused() {
    let names = |n: &[&str]| n.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let mut twice = OrdinalData::new(names(&["x", "2x"]), names(&["0", "1"])).unwrap();
    let mut constant = OrdinalData::new(names(&["x", "one"]), names(&["0", "1"])).unwrap();
    for i in 0..30 {
        let x = f64::from(i % 4);
        twice.push("p", &[x, 2.0 * x], i as usize % 2).unwrap();
        constant.push("p", &[x, 1.0], i as usize % 2).unwrap();
    }
    assert_eq!(
        fit(&twice),
        Err(OrdinalError::Collinear {
            column: "2x".to_string()
        })
    );
    assert_eq!(fit(&constant), Err(OrdinalError::ContainsConstant));
    let few = OrdinalData::new(names(&["x"]), names(&["0", "1"])).unwrap();
    assert!(matches!(fit(&few), Err(OrdinalError::EmptyCategory { .. })));
    let mut tiny = OrdinalData::new(names(&["x"]), names(&["0", "1"])).unwrap();
    tiny.push("p", &[0.0], 0).unwrap();
    tiny.push("p", &[1.0], 1).unwrap();
    assert_eq!(
        fit(&tiny),
        Err(OrdinalError::TooFewObservations {
            n: 2,
            parameters: 2
        })
    );
}

#[test]
fn identical_ratings_are_stored_once() {
    let data = build(&ratings()).unwrap();
    assert_eq!(data.n_obs(), 270);
    assert!(data.n_cells() <= 3 * 4 * 6);
    assert_eq!(data.columns(), ["system[T.b]", "system[T.c]"]);
}
