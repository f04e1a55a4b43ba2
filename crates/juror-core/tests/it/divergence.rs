//! Output divergence across annotators: the words, the idf, the pairs' cosine distances and
//! the report's `divergence` section against `tests/reference/divergence/reference.json`
//! (scikit-learn's `TfidfVectorizer` and `cosine_distances`, scipy's t interval, written by
//! `make_reference.py` beside it from `study.json`); tolerance 1e-9 (`tol::CLOSED_FORM`),
//! counts exactly.

use juror_core::analysis::plan::AnalysisPlan;
use juror_core::analysis::plan_reader::parse_study;
use juror_core::analysis::{Context, Input, Options, analyze};
use juror_core::stats::divergence::{Tfidf, cosine_distance, words};
use juror_core::study::Study;

use crate::support::{check, close, f, read, reference, tol, u};

const TOL: f64 = tol::CLOSED_FORM;

fn fixture(name: &str) -> String {
    read(
        &std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/reference/divergence")
            .join(name),
    )
}

fn study() -> Study {
    parse_study(&fixture("study.json")).expect("the fixture study is valid")
}

fn fitted(study: &Study) -> Tfidf {
    Tfidf::fit(
        study
            .items()
            .iter()
            .flat_map(|i| i.outputs.values().map(String::as_str)),
    )
}

/// The words of Latin, Greek (a final sigma), Cyrillic, CJK and accented texts are
/// scikit-learn's; those of Devanagari and circled letters are not (the documented difference).
#[test]
fn words_are_those_of_the_default_analyzer() {
    let want = reference("divergence");
    for (text, tokens) in want["analyzer"].as_object().unwrap() {
        let tokens: Vec<&str> = tokens
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t.as_str().unwrap())
            .collect();
        assert_eq!(words(text), tokens, "{text}");
    }
    for (text, tokens) in want["differs"].as_object().unwrap() {
        let tokens: Vec<&str> = tokens
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t.as_str().unwrap())
            .collect();
        assert_ne!(words(text), tokens, "{text}: the documented difference");
    }
}

#[test]
fn the_idf_and_the_pairs_distances_match_scikit_learn() {
    let want = reference("divergence");
    let study = study();
    let tfidf = fitted(&study);
    let idf = want["idf"].as_object().unwrap();
    assert_eq!(tfidf.terms(), idf.len());
    assert_eq!(u(&want, "terms") as usize, idf.len());
    for (term, value) in idf {
        check(
            &format!("idf {term}"),
            tfidf.idf(term).unwrap_or(f64::NAN),
            value.as_f64().unwrap(),
            TOL,
        );
    }
    for system in study.systems() {
        let pairs = want["systems"][system]["pair_distances"]
            .as_object()
            .unwrap();
        for (pair, distance) in pairs {
            let (a, b) = pair.split_once('|').unwrap();
            let text = |id: &str| study.item(id).unwrap().outputs[system].clone();
            let got = cosine_distance(&tfidf.vector(&text(a)), &tfidf.vector(&text(b)));
            check(
                &format!("{system} {pair}"),
                got,
                distance.as_f64().unwrap(),
                TOL,
            );
        }
    }
}

/// The study's plan asks for divergence; each system's mean over prompts, its t interval and
/// what it rests on are the reference's. Without the plan's word there is no section.
#[test]
fn the_report_gives_each_systems_divergence() {
    let want = reference("divergence");
    let study = study();
    let context = Context {
        study: Some((&study, "")),
        key: None,
        reveal_ids: false,
    };
    let ratings = fixture("ratings.csv");
    let inputs = [Input::new("ratings.csv", ratings.as_str())];
    let (_, report) = analyze(&inputs, &context, None, &Options::default());
    assert!(
        report.problems.iter().all(|p| p.file != "divergence"),
        "{:?}",
        report.problems
    );
    let systems = want["systems"].as_object().unwrap();
    assert_eq!(report.divergence.len(), systems.len());
    for d in &report.divergence {
        let w = &want["systems"][&d.system];
        check(&format!("{} mean", d.system), d.mean, f(w, "mean"), TOL);
        close(
            &format!("{} ci low", d.system),
            d.ci95.map(|c| c.low),
            w["ci95"][0].as_f64(),
            TOL,
        );
        close(
            &format!("{} ci high", d.system),
            d.ci95.map(|c| c.high),
            w["ci95"][1].as_f64(),
            TOL,
        );
        assert_eq!(d.prompts as u64, u(w, "prompts"), "{}", d.system);
        assert_eq!(d.pairs as u64, u(w, "pairs"), "{}", d.system);
    }
    let markdown = juror_core::analysis::markdown::render(&report);
    assert!(markdown.contains("## Output divergence across annotators"));
    assert!(
        markdown.contains("TF-IDF vocabulary"),
        "the methods say how"
    );

    let options = Options {
        plan: Some(AnalysisPlan::default()),
        ..Options::default()
    };
    let (_, report) = analyze(&inputs, &context, None, &options);
    assert!(report.divergence.is_empty(), "not asked for, not computed");
}

/// Asked for where it cannot be computed (no personal items share a prompt), the report says
/// why among its problems instead of leaving the section out silently.
#[test]
fn divergence_without_shared_prompts_is_a_problem_not_a_silence() {
    let text = fixture("study.json").replace("\"for\": [\"p2\"]", "\"for\": [\"p1\"]");
    let text = text.replace("\"for\": [\"P3\"]", "\"for\": [\"p1\"]");
    let text = text.replace("\"for\": [2]", "\"for\": [\"p1\"]");
    let text = text.replace("\"for\": [\"p3\"]", "\"for\": [\"p1\"]");
    let study = parse_study(&text).expect("still valid");
    let context = Context {
        study: Some((&study, "")),
        key: None,
        reveal_ids: false,
    };
    let (_, report) = analyze(
        &[Input::new("ratings.csv", fixture("ratings.csv"))],
        &context,
        None,
        &Options::default(),
    );
    assert!(report.divergence.is_empty());
    assert!(
        report
            .problems
            .iter()
            .any(|p| p.file == "divergence" && p.message.contains("no prompt")),
        "{:?}",
        report.problems
    );
}
