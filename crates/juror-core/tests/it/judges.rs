//! `stats::judges` against numpy, scipy, statsmodels and ppi_py.
//!
//! Every expected value comes from `tests/reference/judges/reference.json`, written by
//! `make_reference.py` beside it (library versions in its `versions` object): the alternative
//! annotator test written out with scipy's `ttest_1samp` as the reference code nitaytech/AltTest
//! runs it, statsmodels' Benjamini–Yekutieli, `scipy.stats.kendalltau` and `spearmanr`, and
//! ppi_py's PPI++ mean. Tolerance 1e-9 (`tol::CLOSED_FORM`), read as
//! |got − want| ≤ 1e-9 · max(1, |want|); counts, decisions and skipped humans exactly.

use juror_core::stats::judges::{
    self, Alignment, AltTestOptions, Instance, benjamini_yekutieli, by_rejected, kendall_tau_b,
    ppi_mean,
};
use juror_core::stats::trend;
use serde_json::Value;

use crate::support::{check, close, f, reference, tol, u};

const TOL: f64 = tol::CLOSED_FORM;

fn floats(v: &Value) -> Vec<f64> {
    v.as_array()
        .unwrap_or_else(|| panic!("not an array: {v}"))
        .iter()
        .map(|x| x.as_f64().expect("a number"))
        .collect()
}

/// A number that may be "inf" or "-inf" (JSON has no infinity).
fn number(v: &Value) -> f64 {
    match v.as_str() {
        Some("inf") => f64::INFINITY,
        Some("-inf") => f64::NEG_INFINITY,
        _ => v.as_f64().unwrap_or_else(|| panic!("not a number: {v}")),
    }
}

fn opt(v: &Value) -> Option<f64> {
    v.as_f64()
}

fn instance(v: &Value) -> Instance {
    let humans = v["humans"]
        .as_array()
        .expect("humans")
        .iter()
        .map(|pair| {
            let h = pair[0].as_u64().expect("a human index") as usize;
            (h, pair[1].as_f64().expect("a label"))
        })
        .collect();
    Instance {
        humans,
        judge: f(v, "judge"),
    }
}

/// The SummEval instances of one dimension (or all, pooled: an instance per (item, system,
/// dimension)) from the table stored once in the reference.
fn summeval_instances(table: &Value, dimension: Option<u64>) -> Vec<Instance> {
    let experts = table["experts"].as_array().expect("experts").len();
    table["rows"]
        .as_array()
        .expect("rows")
        .iter()
        .filter(|row| dimension.is_none_or(|d| row[0].as_u64() == Some(d)))
        .map(|row| {
            let row = floats(row);
            Instance {
                humans: (0..experts).map(|h| (h, row[3 + h])).collect(),
                judge: row[3 + experts],
            }
        })
        .collect()
}

fn case_instances(reference: &Value, case: &Value) -> Vec<Instance> {
    match case["instances"].as_array() {
        Some(list) => list.iter().map(instance).collect(),
        None => summeval_instances(&reference["summeval"], case["summeval_dimension"].as_u64()),
    }
}

#[test]
fn alternative_annotator_test_matches_the_reference() {
    let r = reference("judges");
    let cases = r["alt_test"].as_array().expect("alt_test cases");
    assert!(cases.len() >= 15, "every alt-test case is read");
    for case in cases {
        let name = case["name"].as_str().expect("a name");
        let o = &case["options"];
        let options = AltTestOptions {
            epsilon: f(o, "epsilon"),
            q: f(o, "q"),
            min_humans: u(o, "min_humans") as usize,
            min_instances: u(o, "min_instances") as usize,
        };
        let alignment = match case["alignment"].as_str() {
            Some("neg_rmse") => Alignment::NegativeRmse,
            Some("accuracy") => Alignment::Accuracy,
            other => panic!("{name}: alignment {other:?}"),
        };
        let instances = case_instances(&r, case);
        assert!(!instances.is_empty(), "{name}: no instances");
        let got = judges::alt_test(&instances, alignment, &options);
        let want = &case["expected"];
        assert!(got.ignored.is_empty(), "{name}: ignored {:?}", got.ignored);

        let skipped: Vec<(usize, usize)> = want["skipped"]
            .as_array()
            .expect("skipped")
            .iter()
            .map(|s| {
                (
                    s[0].as_u64().unwrap() as usize,
                    s[1].as_u64().unwrap() as usize,
                )
            })
            .collect();
        assert_eq!(got.skipped, skipped, "{name}: skipped humans");

        let tested = want["tested"].as_array().expect("tested");
        assert_eq!(got.tested.len(), tested.len(), "{name}: tested humans");
        for (g, w) in got.tested.iter().zip(tested) {
            let what = |field: &str| format!("{name}, human {}: {field}", g.human);
            assert_eq!(g.human as u64, u(w, "human"), "{}", what("index"));
            assert_eq!(
                g.instances as u64,
                u(w, "instances"),
                "{}",
                what("instances")
            );
            check(
                &what("judge advantage"),
                g.judge_advantage,
                f(w, "judge_advantage"),
                TOL,
            );
            check(
                &what("human advantage"),
                g.human_advantage,
                f(w, "human_advantage"),
                TOL,
            );
            let t = number(&w["t"]);
            if t.is_infinite() {
                assert_eq!(g.t, t, "{}", what("t"));
            } else {
                check(&what("t"), g.t, t, TOL);
            }
            check(&what("p"), g.p, f(w, "p"), TOL);
            check(&what("adjusted p"), g.p_adjusted, f(w, "p_adjusted"), TOL);
            assert_eq!(
                Some(g.rejected),
                w["rejected"].as_bool(),
                "{}",
                what("rejected")
            );
        }
        close(
            &format!("{name}: winning rate"),
            got.winning_rate,
            opt(&want["winning_rate"]),
            TOL,
        );
        close(
            &format!("{name}: advantage probability"),
            got.advantage_probability,
            opt(&want["advantage_probability"]),
            TOL,
        );
    }
}

/// The reference covers what the issue asks for: SummEval per dimension and pooled, a pairwise
/// case with a skipped human, ties in RMSE, every d equal, nobody tested.
#[test]
fn the_reference_covers_the_cases_asked_for() {
    let r = reference("judges");
    let cases = r["alt_test"].as_array().expect("alt_test cases");
    let named = |prefix: &str| {
        cases
            .iter()
            .filter(|c| c["name"].as_str().is_some_and(|n| n.starts_with(prefix)))
            .collect::<Vec<_>>()
    };
    assert_eq!(
        named("summeval_").len(),
        9,
        "four dimensions at two ε, and pooled"
    );
    let pooled = summeval_instances(&r["summeval"], None);
    assert_eq!(
        pooled.len(),
        4 * 100 * 12,
        "pooled over (item, system, dimension)"
    );
    assert!(
        named("pairwise")
            .iter()
            .all(|c| !c["expected"]["skipped"].as_array().unwrap().is_empty()),
        "a human skipped for too few instances"
    );
    // Ties in RMSE: some instance where the judge and a human are equally far from the others.
    let ties = named("rmse_ties");
    let instances = case_instances(&r, ties[0]);
    let tied = instances.iter().any(|i| {
        i.humans.iter().any(|&(h, x)| {
            let others: Vec<f64> = i.humans.iter().filter(|p| p.0 != h).map(|p| p.1).collect();
            x != i.judge
                && Alignment::NegativeRmse.score(x, &others)
                    == Alignment::NegativeRmse.score(i.judge, &others)
        })
    });
    assert!(
        tied,
        "an RMSE tie between the judge and a human with different labels"
    );
    assert!(named("all_d_equal").len() >= 3);
    // Some human rejected and some not, in one case.
    assert!(cases.iter().any(|c| {
        let t = c["expected"]["tested"].as_array().unwrap();
        t.iter().any(|h| h["rejected"] == true) && t.iter().any(|h| h["rejected"] == false)
    }));
}

#[test]
fn benjamini_yekutieli_matches_statsmodels() {
    let r = reference("judges");
    for case in r["benjamini_yekutieli"].as_array().expect("cases") {
        let p = floats(&case["p"]);
        let want = floats(&case["adjusted"]);
        let got = benjamini_yekutieli(&p);
        assert_eq!(got.len(), want.len());
        for (i, (g, w)) in got.iter().zip(&want).enumerate() {
            check(&format!("BY of {p:?}[{i}]"), *g, *w, TOL);
        }
        let rejected: Vec<bool> = case["rejected_at_05"]
            .as_array()
            .unwrap()
            .iter()
            .map(|b| b.as_bool().unwrap())
            .collect();
        assert_eq!(by_rejected(&p, 0.05), rejected, "BY decisions of {p:?}");
    }
}

#[test]
fn kendall_tau_b_matches_scipy() {
    let r = reference("judges");
    let mut seen = 0;
    for case in r["kendall"].as_array().expect("cases") {
        let name = case["name"].as_str().unwrap();
        let got = kendall_tau_b(&floats(&case["x"]), &floats(&case["y"]));
        close(
            &format!("{name}: tau"),
            got.map(|k| k.tau),
            opt(&case["tau"]),
            TOL,
        );
        close(
            &format!("{name}: p"),
            got.map(|k| k.p_value),
            opt(&case["p_value"]),
            TOL,
        );
        seen += 1;
    }
    assert!(seen >= 12);
}

#[test]
fn summeval_item_spearman_and_system_kendall_match_scipy() {
    let r = reference("judges");
    let table = &r["summeval"];
    for case in r["summeval_agreement"].as_array().expect("cases") {
        let d = u(case, "dimension");
        let instances = summeval_instances(table, Some(d));
        let human_mean: Vec<f64> = instances
            .iter()
            .map(|i| i.humans.iter().map(|h| h.1).sum::<f64>() / i.humans.len() as f64)
            .collect();
        let judge: Vec<f64> = instances.iter().map(|i| i.judge).collect();
        let s = trend::spearman(&judge, &human_mean)
            .expect("valid")
            .expect("defined");
        check(
            &format!("dimension {d}: spearman"),
            s.rho,
            f(case, "spearman"),
            TOL,
        );
        check(
            &format!("dimension {d}: spearman p"),
            s.p_value,
            f(case, "spearman_p"),
            TOL,
        );
        let k = kendall_tau_b(
            &floats(&case["judge_system_means"]),
            &floats(&case["human_system_means"]),
        )
        .expect("defined");
        check(
            &format!("dimension {d}: kendall"),
            k.tau,
            f(case, "kendall_tau"),
            TOL,
        );
        check(
            &format!("dimension {d}: kendall p"),
            k.p_value,
            f(case, "kendall_p"),
            TOL,
        );
    }
}

#[test]
fn ppi_mean_matches_ppi_py() {
    let r = reference("judges");
    for case in r["ppi"].as_array().expect("cases") {
        let name = case["name"].as_str().unwrap();
        let y = floats(&case["y"]);
        let fl = floats(&case["f"]);
        let fu = floats(&case["f_unlabeled"]);
        let got = ppi_mean(&y, &fl, &fu, f(case, "level")).expect("defined");
        let pair = |v: &Value| floats(v);
        let (ci, hci) = (pair(&case["ci"]), pair(&case["human_only_ci"]));
        check(
            &format!("{name}: estimate"),
            got.estimate,
            f(case, "estimate"),
            TOL,
        );
        check(
            &format!("{name}: lambda"),
            got.lambda,
            f(case, "lambda"),
            TOL,
        );
        check(&format!("{name}: ci low"), got.ci.0, ci[0], TOL);
        check(&format!("{name}: ci high"), got.ci.1, ci[1], TOL);
        check(
            &format!("{name}: human only"),
            got.human_only,
            f(case, "human_only"),
            TOL,
        );
        check(
            &format!("{name}: human low"),
            got.human_only_ci.0,
            hci[0],
            TOL,
        );
        check(
            &format!("{name}: human high"),
            got.human_only_ci.1,
            hci[1],
            TOL,
        );
        check(
            &format!("{name}: gain"),
            got.effective_gain,
            f(case, "effective_gain"),
            TOL,
        );
        assert_eq!(
            (got.n, got.n_unlabeled),
            (y.len(), fu.len()),
            "{name}: sizes"
        );
    }
}

/// The whole way, as `juror analyze HUMANS --judges JUDGE --epsilon E --format json` computes
/// it: the reference's SummEval table written as a tidy CSV of the experts' ratings and one of
/// the judge's, analysed by `analysis::run`, gives the reference's winning rate and advantage
/// probability per dimension and pooled, each expert's p-value, the item-level Spearman and the
/// system-level Kendall tau-b.
#[test]
fn the_report_gives_the_reference_values_on_summeval() {
    use juror_core::analysis::Options;
    use juror_core::analysis::judges::JudgeSettings;
    use juror_core::analysis::run::{FileText, Request, run};

    let reference = reference("judges");
    let table = &reference["summeval"];
    let name = |list: &str, v: &Value| {
        let k = v.as_u64().expect("an index") as usize;
        table[list][k]
            .as_str()
            .map_or_else(|| format!("item-{k}"), str::to_owned)
    };
    let mut humans = String::from("item_id,system_id,annotator_id,dimension,score\n");
    let mut judge = humans.clone();
    for row in table["rows"].as_array().expect("rows") {
        let dimension = name("dimensions", &row[0]);
        let item = format!("item-{}", row[1]);
        let system = name("systems", &row[2]);
        for (k, expert) in table["experts"]
            .as_array()
            .expect("experts")
            .iter()
            .enumerate()
        {
            let score = row[3 + k].as_f64().expect("a score");
            let expert = expert.as_str().expect("an id");
            humans.push_str(&format!("{item},{system},{expert},{dimension},{score}\n"));
        }
        let score = row[6].as_f64().expect("the judge's score");
        judge.push_str(&format!("{item},{system},llm-judge,{dimension},{score}\n"));
    }
    for epsilon in [0.2, 0.1] {
        let request = Request {
            inputs: vec![FileText::new("experts.csv", humans.clone())],
            judges: vec![FileText::new("judge.csv", judge.clone())],
            options: Options {
                resamples: 10,
                judges: JudgeSettings {
                    epsilon: Some(epsilon),
                    ..JudgeSettings::default()
                },
                ..Options::default()
            },
            ..Request::default()
        };
        let analysis = run(&request).unwrap_or_else(|e| panic!("{e:?}"));
        // The methods paragraph names the judges' test in plain sentences: no run of spaces
        // left from the source's line breaks.
        let methods = juror_core::analysis::render::methods::methods(&analysis.report);
        assert!(
            methods.contains("Automatic judges' verdicts (1)"),
            "{methods}"
        );
        assert!(
            !methods.contains("  "),
            "a run of spaces in the methods:\n{methods}"
        );
        let report = &analysis.report.judges[0];
        assert_eq!(report.judge, "llm-judge");
        let mut compared = 0;
        for case in reference["alt_test"].as_array().expect("cases") {
            let case_name = case["name"].as_str().expect("a name");
            if !case_name.starts_with("summeval_") || f(&case["options"], "epsilon") != epsilon {
                continue;
            }
            let view = match case["summeval_dimension"].as_u64() {
                Some(d) => {
                    let dimension = name("dimensions", &Value::from(d));
                    report
                        .dimensions
                        .iter()
                        .find(|v| v.dimension.as_deref() == Some(dimension.as_str()))
                        .unwrap_or_else(|| panic!("{case_name}: no section"))
                }
                None => report.pooled.as_ref().expect("the pooled view"),
            };
            let want = &case["expected"];
            let got = &view.alt_test;
            close(case_name, got.winning_rate, opt(&want["winning_rate"]), TOL);
            close(
                case_name,
                got.advantage_probability,
                opt(&want["advantage_probability"]),
                TOL,
            );
            let tested = want["tested"].as_array().expect("tested");
            assert_eq!(got.humans.len(), tested.len(), "{case_name}");
            for (g, w) in got.humans.iter().zip(tested) {
                check(case_name, g.p, number(&w["p"]), TOL);
                assert_eq!(g.judge_wins, w["rejected"].as_bool().expect("a decision"));
            }
            compared += 1;
        }
        // Four dimensions at each ε, and the pooled view at the default.
        assert_eq!(compared, if epsilon == 0.2 { 5 } else { 4 });
    }
    // Agreement, at the default ε.
    let request = Request {
        inputs: vec![FileText::new("experts.csv", humans)],
        judges: vec![FileText::new("judge.csv", judge)],
        options: Options {
            resamples: 10,
            ..Options::default()
        },
        ..Request::default()
    };
    let analysis = run(&request).unwrap_or_else(|e| panic!("{e:?}"));
    let report = &analysis.report.judges[0];
    for want in reference["summeval_agreement"]
        .as_array()
        .expect("agreement")
    {
        let dimension = name("dimensions", &want["dimension"]);
        let view = report
            .dimensions
            .iter()
            .find(|v| v.dimension.as_deref() == Some(dimension.as_str()))
            .expect("a section");
        let spearman = view.spearman.expect("Spearman");
        check(&dimension, spearman.value, f(want, "spearman"), TOL);
        let kendall = view.kendall_tau.expect("Kendall");
        check(&dimension, kendall.value, f(want, "kendall_tau"), TOL);
        check(&dimension, kendall.p_value, f(want, "kendall_p"), TOL);
    }
}
