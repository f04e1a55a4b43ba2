//! The report's ratings-over-rounds section against scipy and statsmodels.
//!
//! The data are the three sets of `tests/reference/mixed/reference.json` (the HARE study's design:
//! annotators rating four systems over rounds), given to the analysis as a tidy CSV with the
//! optional `round` column, exactly as a researcher would. Expected values:
//! - per system slope, intercept, r, slope SE, p, Spearman's rho and p: `scipy.stats.linregress`
//!   and `spearmanr`, from `tests/reference/rounds/reference.json` (`make_reference.py` beside
//!   it; scipy 1.17.1); tolerance 1e-9 relative (closed forms);
//! - the mixed model `rating ~ system + round + system:round + (1 | annotator)` by REML:
//!   statsmodels 0.15.0 MixedLM (OLS at the boundary), from the mixed reference; tolerance 1e-6
//!   relative (an iterative fit), with the model-based standard errors.

use juror_core::analysis::markdown;
use juror_core::analysis::report::{Options, Report, report};
use juror_core::analysis::rounds::Rounds;
use juror_core::analysis::{Context, Input, read};
use serde_json::Value;

use crate::support::{f, reference};

/// |got − want| / max(|want|, floor) ≤ tol.
fn check(what: &str, got: Option<f64>, want: f64, floor: f64, tol: f64) {
    let got = got.unwrap_or_else(|| panic!("{what}: null, want {want}"));
    let rel = (got - want).abs() / want.abs().max(floor);
    assert!(rel <= tol, "{what}: {got} != {want} (relative {rel:e})");
}

/// The systems renamed so that their byte order is the stored order (the reference system
/// first): the report takes the first system in byte order as the reference without a study.
fn renamed(index: usize, system: &str) -> String {
    format!("s{}-{system}", index + 1)
}

/// One case of the mixed reference as a tidy CSV with a `round` column, and its report.
fn rounds_of(case: &Value) -> Rounds {
    let mut r = report_of(case);
    assert_eq!(r.dimensions.len(), 1);
    r.dimensions.remove(0).rounds.expect("a rounds section")
}

fn report_of(case: &Value) -> Report {
    report_with(case, None)
}

fn report_with(case: &Value, reference: Option<&str>) -> Report {
    let systems: Vec<&str> = case["systems"]
        .as_array()
        .expect("systems")
        .iter()
        .map(|s| s.as_str().expect("a system"))
        .collect();
    let mut csv = String::from("item_id,system_id,annotator_id,dimension,score,round\n");
    for row in case["rows"].as_array().expect("rows") {
        let system = row[1].as_str().expect("system");
        let index = systems.iter().position(|s| *s == system).expect("listed");
        let round = row[2].as_f64().expect("round");
        csv.push_str(&format!(
            "round-{round},{},{},quality,{},{round}\n",
            renamed(index, system),
            row[0].as_str().expect("annotator"),
            row[3].as_f64().expect("rating"),
        ));
    }
    let data = read(&[Input::new("rounds.csv", csv)], &Context::default());
    assert!(data.problems.is_empty(), "{:?}", data.problems);
    let options = Options {
        resamples: 10,
        reference: reference.map(str::to_owned),
        ..Options::default()
    };
    report(&data, None, None, &options)
}

#[test]
fn slopes_match_scipy() {
    let mixed = reference("mixed");
    let scipy = reference("rounds");
    for (case, want) in mixed["cases"]
        .as_array()
        .expect("cases")
        .iter()
        .zip(scipy["cases"].as_array().expect("cases"))
    {
        let name = case["name"].as_str().expect("name");
        assert_eq!(want["name"], case["name"]);
        let rounds = rounds_of(case);
        assert_eq!(
            rounds.ratings,
            case["rows"].as_array().expect("rows").len(),
            "{name}"
        );
        let systems = case["systems"].as_array().expect("systems");
        assert_eq!(rounds.trends.len(), systems.len(), "{name}");
        for (index, system) in systems.iter().enumerate() {
            let system = system.as_str().expect("a system");
            let got = rounds
                .trends
                .iter()
                .find(|t| t.system == renamed(index, system))
                .unwrap_or_else(|| panic!("{name}: no trend of {system}"));
            let w = &want["systems"][system];
            assert_eq!(got.n as f64, f(w, "n"), "{name} {system}");
            let at = |q: &str| format!("{name}, {system}, {q}");
            check(&at("slope"), got.slope, f(w, "slope"), 1e-3, 1e-9);
            check(
                &at("intercept"),
                got.intercept,
                f(w, "intercept"),
                1.0,
                1e-9,
            );
            check(&at("r"), got.r, f(w, "r"), 1e-3, 1e-9);
            check(&at("slope SE"), got.slope_se, f(w, "slope_se"), 0.0, 1e-9);
            check(&at("p"), got.p_value, f(w, "p_value"), 0.0, 1e-9);
            check(
                &at("rho"),
                got.spearman_rho,
                f(w, "spearman_rho"),
                1e-3,
                1e-9,
            );
            check(&at("rho p"), got.spearman_p, f(w, "spearman_p"), 0.0, 1e-9);
            // The per-round means, by hand.
            let rows = case["rows"].as_array().expect("rows");
            for m in &got.means {
                let ys: Vec<f64> = rows
                    .iter()
                    .filter(|r| r[1] == system && r[2].as_f64() == Some(m.round))
                    .map(|r| r[3].as_f64().expect("rating"))
                    .collect();
                assert_eq!(m.n, ys.len(), "{}", at("round n"));
                check(
                    &at("round mean"),
                    Some(m.mean),
                    ys.iter().sum::<f64>() / ys.len() as f64,
                    1.0,
                    1e-12,
                );
            }
            assert_eq!(got.means.iter().map(|m| m.n).sum::<usize>(), got.n);
        }
    }
}

#[test]
fn mixed_model_matches_statsmodels() {
    let mixed = reference("mixed");
    for case in mixed["cases"].as_array().expect("cases") {
        let name = case["name"].as_str().expect("name");
        let want = &case["expected"];
        let systems: Vec<&str> = case["systems"]
            .as_array()
            .expect("systems")
            .iter()
            .map(|s| s.as_str().expect("a system"))
            .collect();
        let model = rounds_of(case)
            .mixed_model
            .unwrap_or_else(|| panic!("{name}: no mixed model"));
        assert_eq!(model.reference, renamed(0, systems[0]), "{name}");
        assert_eq!(
            model.formula,
            "rating ~ system + round + system:round + (1 | annotator)"
        );
        assert!(model.converged, "{name}");
        assert_eq!(model.boundary, want["boundary"].as_bool().expect("bool"));
        assert_eq!(model.n_obs as f64, f(want, "n_obs"), "{name}");
        assert_eq!(model.n_groups as f64, f(want, "n_groups"), "{name}");
        if model.boundary {
            assert_eq!(model.annotator_variance, 0.0, "{name}");
        } else {
            check(
                &format!("{name}: annotator variance"),
                Some(model.annotator_variance),
                f(want, "group_variance"),
                0.0,
                1e-6,
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
        for (what, got, key) in checks {
            check(
                &format!("{name}: {what}"),
                Some(got),
                f(want, key),
                0.0,
                1e-6,
            );
        }
        let expected = want["fixed_effects"].as_array().expect("fixed effects");
        assert_eq!(model.fixed_effects.len(), expected.len(), "{name}");
        for fe in &model.fixed_effects {
            // Back to the stored names: `system[T.s2-hare]` is statsmodels' `system[T.hare]`.
            let mut stored = fe.name.clone();
            for (index, system) in systems.iter().enumerate() {
                stored = stored.replace(&renamed(index, system), system);
            }
            let w = expected
                .iter()
                .find(|w| w["name"] == stored.as_str())
                .unwrap_or_else(|| panic!("{name}: {stored} is not a stored column"));
            let at = |q: &str| format!("{name}, {stored}, {q}");
            check(
                &at("estimate"),
                Some(fe.estimate),
                f(w, "estimate"),
                fe.se,
                1e-6,
            );
            check(&at("se"), Some(fe.se), f(w, "se_model"), 0.0, 1e-6);
            check(&at("z"), Some(fe.z), f(w, "z_model"), 1.0, 1e-6);
            check(&at("p"), Some(fe.p_value), f(w, "p_model"), 0.0, 1e-6);
        }
    }
}

/// A dimension rated in one round has no rounds section; a system rated in one round has no
/// slope but says why; a missing annotator column cannot happen (it is required), but a model
/// that cannot be fitted is a note, not a panic.
#[test]
fn too_little_data_is_said_not_computed() {
    let one_round = "item_id,system_id,annotator_id,dimension,score,round\n\
                     a,x,p,q,3,1\n\
                     b,x,p,q,4,1\n\
                     c,y,p,q,2,1\n";
    let data = read(&[Input::new("one.csv", one_round)], &Context::default());
    let r = report(&data, None, None, &Options::default());
    assert!(r.dimensions[0].rounds.is_none());

    // Two rounds, but y rated only in round 1 and x the same score every time; one annotator.
    let text = "item_id,system_id,annotator_id,dimension,score,round\n\
                a,x,p,q,3,1\n\
                b,x,p,q,3,2\n\
                c,x,p,q,3,3\n\
                a,y,p,q,2,1\n\
                b,y,p,q,4,1\n";
    let data = read(&[Input::new("two.csv", text)], &Context::default());
    assert!(data.problems.is_empty(), "{:?}", data.problems);
    let r = report(&data, None, None, &Options::default());
    let rounds = r.dimensions[0].rounds.as_ref().expect("two rounds");
    assert_eq!(rounds.rounds, [1.0, 2.0, 3.0]);
    let x = &rounds.trends[0];
    assert_eq!(
        (x.system.as_str(), x.slope, x.p_value),
        ("x", Some(0.0), None)
    );
    assert_eq!(
        x.notes,
        ["every rating is the same: slope 0, nothing to test"]
    );
    let y = &rounds.trends[1];
    assert_eq!((y.system.as_str(), y.slope), ("y", None));
    assert_eq!(y.notes, ["every rating is from one round: no slope"]);
    assert!(rounds.mixed_model.is_none());
    assert_eq!(rounds.notes.len(), 1, "{:?}", rounds.notes);
    assert!(rounds.notes[0].starts_with("mixed model not fitted: "));
    let json = serde_json::to_string(&r).expect("JSON");
    assert!(!json.contains("NaN"));
}

#[test]
fn bad_round_and_position_cells_are_named() {
    let text = "item_id,system_id,annotator_id,dimension,score,round,position\n\
                a,x,p,q,3,one,1\n\
                b,x,p,q,3,2,0\n\
                c,x,p,q,3,,\n";
    let data = read(&[Input::new("r.csv", text)], &Context::default());
    let problems: Vec<String> = data.problems.iter().map(|p| p.to_string()).collect();
    assert_eq!(
        problems,
        [
            "r.csv: line 2: round \"one\" is not a number; leave it empty or give one",
            "r.csv: line 3: position \"0\" is not a whole number from 1 (the place the output was \
             shown); leave it empty or give one",
        ]
    );
    assert_eq!(data.ratings.len(), 1);
    assert_eq!(
        (data.ratings[0].round, data.ratings[0].position),
        (None, None)
    );
}

/// The Markdown has the slopes and the model, and the methods paragraph says how they were made.
#[test]
fn the_markdown_shows_the_rounds() {
    let mixed = reference("mixed");
    let case = &mixed["cases"][0];
    let md = markdown::render(&report_of(case));
    assert!(md.contains("### Over rounds\n\n800 rating(s) with a round, rounds 1 to 10."));
    assert!(md.contains("| s2-hare | 200 | "));
    assert!(md.contains(
        "Linear mixed model `rating ~ system + round + system:round + (1 | annotator)` by REML, \
         reference system s1-rag: 800 rating(s), 20 annotator(s)"
    ));
    // Names from the inputs are escaped (`[` would start a link); rendered, it reads
    // `system[T.s2-hare]:round`.
    assert!(md.contains("| system\\[T.s2-hare\\]:round | "), "{md}");
    assert!(md.contains("fitted by REML"));
    assert!(md.contains("as scipy's linregress and spearmanr"));
}

/// `--reference` changes the coding, not the model: the same likelihood and variances, and the
/// difference at round 0 between two systems read from either side. A reference without
/// ratings is said, and the default is used.
#[test]
fn the_reference_asked_for_recodes_the_same_model() {
    let mixed = reference("mixed");
    let case = &mixed["cases"][0];
    let model = |r: Option<&str>| {
        let mut report = report_with(case, r);
        let rounds = report.dimensions.remove(0).rounds.expect("rounds");
        (
            rounds.mixed_model.expect("a model"),
            rounds.notes,
            report.settings,
        )
    };
    let (default, notes, _) = model(None);
    assert!(notes.is_empty());
    assert_eq!(default.reference, "s1-rag");
    let (vanilla, notes, settings) = model(Some("s3-vanilla"));
    assert!(notes.is_empty());
    assert_eq!(vanilla.reference, "s3-vanilla");
    assert_eq!(settings.reference.as_deref(), Some("s3-vanilla"));
    let same = |what: &str, a: f64, b: f64| {
        check(what, Some(a), b, 0.0, 1e-6);
    };
    same(
        "log-likelihood",
        vanilla.log_likelihood,
        default.log_likelihood,
    );
    same(
        "annotator variance",
        vanilla.annotator_variance,
        default.annotator_variance,
    );
    same(
        "residual variance",
        vanilla.residual_variance,
        default.residual_variance,
    );
    let fe = |m: &juror_core::analysis::rounds::MixedModel, name: &str| {
        m.fixed_effects
            .iter()
            .find(|f| f.name == name)
            .unwrap_or_else(|| panic!("no {name}"))
            .clone()
    };
    let a = fe(&default, "system[T.s3-vanilla]");
    let b = fe(&vanilla, "system[T.s1-rag]");
    same("rag − vanilla at round 0", -b.estimate, a.estimate);
    same("its SE", b.se, a.se);

    let (fallback, notes, _) = model(Some("nobody"));
    assert_eq!(fallback.reference, "s1-rag");
    assert_eq!(
        notes,
        [
            "the reference system \"nobody\" has no ratings with a round here; the reference is \
          \"s1-rag\""
        ]
    );
}
