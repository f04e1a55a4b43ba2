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

/// The fit the report gives `name`, checked against `dawid_skene` on the units, annotators
/// and categories built here by hand from `(unit, annotator, category)` triples.
fn check_fit_of(
    fits: &[juror_core::analysis::report::raters::RaterQuality],
    name: &str,
    triples: &[(String, String, usize)],
    categories: usize,
) {
    let fit = fits
        .iter()
        .find(|f| f.name == name)
        .unwrap_or_else(|| panic!("no fit of {name}"));
    let units: BTreeMap<&str, usize> = triples
        .iter()
        .map(|t| (t.0.as_str(), 0))
        .collect::<BTreeMap<_, _>>()
        .into_keys()
        .enumerate()
        .map(|(i, u)| (u, i))
        .collect();
    let raters: Vec<&str> = {
        let mut r: Vec<&str> = triples.iter().map(|t| t.1.as_str()).collect();
        r.sort_unstable();
        r.dedup();
        r
    };
    let answers: Vec<Answer> = triples
        .iter()
        .map(|(u, r, c)| Answer {
            unit: units[u.as_str()],
            rater: raters.iter().position(|x| x == r).unwrap(),
            category: *c,
        })
        .collect();
    // The categories no one gave are left out, the others keep their order.
    let mut given: Vec<usize> = answers.iter().map(|a| a.category).collect();
    given.sort_unstable();
    given.dedup();
    let answers: Vec<Answer> = answers
        .into_iter()
        .map(|a| Answer {
            category: given.iter().position(|&c| c == a.category).unwrap(),
            ..a
        })
        .collect();
    let categories = given.len().min(categories);
    let want = dawid_skene(&answers, units.len(), raters.len(), categories).unwrap();
    assert_eq!(fit.units, units.len(), "{name}: units");
    assert_eq!(fit.answers, triples.len(), "{name}: answers");
    assert_eq!(fit.categories.len(), categories, "{name}: categories");
    assert_eq!(fit.prior, want.prior, "{name}: prior");
    for (w, a) in fit.annotators.iter().enumerate() {
        assert_eq!(a.annotator, raters[w]);
        assert_eq!(
            a.accuracy,
            Some(want.accuracy[w]),
            "{name}: {}",
            a.annotator
        );
    }
    let changed = (0..units.len())
        .filter(|&u| want.consensus[u] != want.majority[u])
        .count();
    assert_eq!(fit.differs_from_majority, changed, "{name}: changes");
}

/// Beside the dimensions, every nominal answer gets its fit: a per-output question's options
/// (HARE's "useful"), and each pair's choice (PandaLM's), from the first system's side.
#[test]
fn every_nominal_answer_gets_a_fit() {
    use juror_core::analysis::report::raters::{Rated, report};
    use juror_core::analysis::{Context, Input, read};
    use juror_core::stats::preference::Outcome;
    use juror_core::study::analysis_plan::{AnalysisPlan, RaterModel, RaterModels};
    use juror_core::study::{QuestionKind, parse_study};

    let plan = AnalysisPlan {
        raters: RaterModels::of(&[RaterModel::DawidSkene]),
        ..AnalysisPlan::default()
    };
    let study_text = crate::support::read(
        &crate::support::root().join("assets/studies/hare-personalization.json"),
    );
    let study = parse_study(&study_text).unwrap();
    let hash = juror_core::base::digest::sha256_hex(&study_text);
    let inputs: Vec<Input> = ["hare-slot1.json", "hare-slot2.json", "hare-slot3.json"]
        .iter()
        .map(|f| crate::support::input(f))
        .collect();
    let context = Context {
        study: Some((&study, &hash)),
        key: None,
        reveal_ids: false,
    };
    let data = read(&inputs, &context);
    let fits = report(&data, &plan, &[], Some(&study));
    let useful = study
        .rubric()
        .output_questions
        .iter()
        .find(|q| q.id == "useful")
        .unwrap();
    let QuestionKind::SingleChoice(options) = &useful.kind else {
        panic!("useful is a single choice");
    };
    let triples: Vec<(String, String, usize)> = data
        .answers
        .iter()
        .filter(|r| r.question == "useful" && r.value != juror_core::session::CANNOT_JUDGE)
        .map(|r| {
            (
                format!(
                    "{}\u{1f}{}",
                    r.item.as_ref().unwrap(),
                    r.system.as_ref().unwrap()
                ),
                r.annotator.clone(),
                options.iter().position(|o| *o == r.value).unwrap(),
            )
        })
        .collect();
    assert!(triples.len() > 10, "HARE answers \"useful\"");
    let fit = fits.iter().find(|f| f.name == "useful").unwrap();
    assert_eq!(fit.answer, Rated::Question);
    let given: Vec<&String> = options
        .iter()
        .filter(|o| triples.iter().any(|t| options[t.2] == **o))
        .collect();
    assert_eq!(
        fit.categories.iter().collect::<Vec<_>>(),
        given,
        "the options given, as declared"
    );
    check_fit_of(&fits, "useful", &triples, options.len());

    // PandaLM: the choices of each pair, read from the first system's side in name order.
    let inputs: Vec<Input> = [
        "pandalm-slot1.json",
        "pandalm-slot2.json",
        "pandalm-slot3.json",
    ]
    .iter()
    .map(|f| crate::support::input(f))
    .collect();
    let data = read(&inputs, &Context::default());
    let fits = report(&data, &plan, &[], None);
    let triples: Vec<(String, String, usize)> = data
        .preferences
        .iter()
        .filter(|p| !p.derived)
        .map(|p| {
            let swap = p.system_a > p.system_b;
            let (x, y) = if swap {
                (&p.system_b, &p.system_a)
            } else {
                (&p.system_a, &p.system_b)
            };
            let category = match (p.outcome, swap) {
                (Outcome::Tie, _) => 1,
                (Outcome::A, false) | (Outcome::B, true) => 0,
                (Outcome::B, false) | (Outcome::A, true) => 2,
            };
            (
                format!("{}\u{1f}{x}\u{1f}{y}", p.item),
                p.annotator.to_string(),
                category,
            )
        })
        .collect();
    assert!(triples.len() > 10, "PandaLM has choices");
    let fit = fits.iter().find(|f| f.answer == Rated::Choice).unwrap();
    assert!(triples.iter().any(|t| t.2 == 1), "PandaLM has ties");
    assert_eq!(fit.categories, ["first", "tie", "second"]);
    check_fit_of(&fits, "preference", &triples, 3);
    for c in &fit.changes {
        assert!(c.system.contains(" vs "), "{}", c.system);
        for side in [&c.majority, &c.consensus] {
            assert!(side == "tie" || c.system.contains(side.as_str()), "{side}");
        }
    }
}
