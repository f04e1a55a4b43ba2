//! Output divergence across annotators: the words, the idf, the pairs' cosine distances and
//! the report's `divergence` section against `tests/reference/divergence/reference.json`
//! (scikit-learn's `TfidfVectorizer` and `cosine_distances`, scipy's t interval, written by
//! `make_reference.py` beside it from `study.json`); tolerance 1e-9 (`tol::CLOSED_FORM`),
//! counts exactly.

use juror_core::analysis::overrides::{AnalysisPlan, Comparisons};
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
            .flat_map(|i| i.outputs.values().filter_map(|o| o.source())),
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
            let text = |id: &str| study.item(id).unwrap().outputs[system].plain().into_owned();
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

/// The report's comparisons of two studies' divergences, in the reference's order: the pairs,
/// their orientation, alternative and hypothesis, the per-prompt differences' mean, t interval,
/// Wilcoxon and t tests, effect sizes and the corrected p-values are scipy's.
fn check_comparisons(file: &str, report: &juror_core::analysis::report::Report) {
    let want = reference("divergence");
    let want = want["comparisons"][file].as_array().unwrap();
    let got = &report.divergence_comparisons;
    let pairs =
        |c: &juror_core::analysis::report::PairComparison| (c.system_a.clone(), c.system_b.clone());
    let wanted: Vec<(String, String)> = want
        .iter()
        .map(|w| {
            (
                w["a"].as_str().unwrap().into(),
                w["b"].as_str().unwrap().into(),
            )
        })
        .collect();
    assert_eq!(got.iter().map(pairs).collect::<Vec<_>>(), wanted, "{file}");
    for (c, w) in got.iter().zip(want) {
        let at = format!("{file} {} vs {}", c.system_a, c.system_b);
        assert_eq!(c.hypothesis.as_deref(), w["hypothesis"].as_str(), "{at}");
        assert_eq!(
            serde_json::to_value(c.alternative).unwrap(),
            w["alternative"],
            "{at}"
        );
        assert_eq!(c.n as u64, u(w, "n"), "{at}");
        assert!(c.notes.is_empty(), "{at}: {:?}", c.notes);
        for (name, got, key) in [
            ("mean A", c.mean_a, "mean_a"),
            ("mean B", c.mean_b, "mean_b"),
            ("mean difference", c.mean_diff, "mean_diff"),
            ("t", c.t_test.map(|t| t.t), "t"),
            ("df", c.t_test.map(|t| t.df), "df"),
            ("p (t)", c.t_test.map(|t| t.p_value), "p_t"),
            ("W+", c.wilcoxon.map(|w| w.w_plus), "w_plus"),
            ("W-", c.wilcoxon.map(|w| w.w_minus), "w_minus"),
            ("p (W)", c.wilcoxon.map(|w| w.p_value), "p_wilcoxon"),
            ("p", c.p_value, "p_value"),
            ("p Holm", c.p_holm, "p_holm"),
            ("p Bonferroni", c.p_bonferroni, "p_bonferroni"),
            ("p adjusted", c.p_adjusted, "p_adjusted"),
            ("d_z", c.d_z, "d_z"),
            ("g_z", c.g_z, "g_z"),
            ("rank-biserial", c.rank_biserial, "rank_biserial"),
        ] {
            close(&format!("{at} {name}"), got, Some(f(w, key)), TOL);
        }
        // A tiny p-value, relative to its size.
        let (pt, wt) = (c.t_test.unwrap().p_value, f(w, "p_t"));
        check(&format!("{at} p (t) relative"), pt / wt, 1.0, 1e-7);
        close(
            &format!("{at} ci low"),
            c.mean_diff_ci95.map(|c| c.low),
            w["ci95"][0].as_f64(),
            TOL,
        );
        close(
            &format!("{at} ci high"),
            c.mean_diff_ci95.map(|c| c.high),
            w["ci95"][1].as_f64(),
            TOL,
        );
    }
}

fn report_of(
    study: &Study,
    ratings: &str,
    options: &Options,
) -> juror_core::analysis::report::Report {
    let context = Context {
        study: Some((study, "")),
        key: None,
        reveal_ids: false,
    };
    let inputs = [Input::new("ratings.csv", ratings)];
    analyze(&inputs, &context, None, options).1
}

/// Whether one system's outputs diverge more than another's, as the plan asks: every pair of
/// the first study (two-sided, Holm, 4 prompts); the anchor against each other system and the
/// pairs of two divergence hypotheses (one-sided, Bonferroni, 9 prompts) in the second, whose
/// plan asks for the divergence through its hypotheses alone.
#[test]
fn the_comparisons_of_divergence_match_scipy() {
    let study = study();
    let report = report_of(&study, &fixture("ratings.csv"), &Options::default());
    check_comparisons("study.json", &report);

    let other = parse_study(&fixture("comparisons-study.json")).expect("valid");
    assert!(
        !other.analysis().unwrap().divergence,
        "asked by hypotheses alone"
    );
    let report = report_of(
        &other,
        &fixture("comparisons-ratings.csv"),
        &Options::default(),
    );
    let want = reference("divergence");
    for d in &report.divergence {
        let w = &want["comparisons_study"][&d.system];
        check(&format!("{} mean", d.system), d.mean, f(w, "mean"), TOL);
        assert_eq!(d.prompts as u64, u(w, "prompts"));
        assert_eq!(d.pairs as u64, u(w, "pairs"));
    }
    check_comparisons("comparisons-study.json", &report);
    let markdown = juror_core::analysis::markdown::render(&report);
    assert!(
        markdown.contains("### Comparisons of divergence"),
        "{markdown}"
    );
    assert!(markdown.contains("| hare | rag | Divergence above RAG (A > B) | 9 |"));
    assert!(
        markdown.contains("Bonferroni correction over these 3 comparison(s)"),
        "the methods say how"
    );
}

/// A hypothesis named the other way round turns the plan's pair round; a margin set at
/// analysis time is about ratings and leaves the divergences alone; pairs listed in the plan
/// are the comparisons.
#[test]
fn a_divergence_hypothesis_orients_its_pair_and_a_margin_stays_with_the_ratings() {
    let text = fixture("study.json").replace(
        "\"analysis\": {\"divergence\": true},",
        "\"analysis\": {\"hypotheses\": [{\"kind\": \"divergence\", \"a\": \"vanilla\", \
         \"b\": \"hare\", \"alternative\": \"less\", \"name\": \"Hx\"}]},",
    );
    let turned_study = parse_study(&text).expect("valid");
    let plan = turned_study.analysis().unwrap().clone();
    let options = Options {
        plan: Some(AnalysisPlan {
            margin: Some(0.5),
            ..plan
        }),
        ..Options::default()
    };
    let report = report_of(&turned_study, &fixture("ratings.csv"), &options);
    let pairs: Vec<(&str, &str, Option<&str>)> = report
        .divergence_comparisons
        .iter()
        .map(|c| {
            (
                c.system_a.as_str(),
                c.system_b.as_str(),
                c.hypothesis.as_deref(),
            )
        })
        .collect();
    assert_eq!(
        pairs,
        [
            ("hare", "rag", None),
            ("vanilla", "hare", Some("Hx")),
            ("rag", "vanilla", None)
        ]
    );
    let turned = &report.divergence_comparisons[1];
    assert_eq!(
        turned.alternative,
        juror_core::analysis::overrides::Alternative::Less
    );
    let w = &reference("divergence")["comparisons"]["study.json"][1];
    close(
        "turned round",
        turned.mean_diff,
        Some(-f(w, "mean_diff")),
        TOL,
    );
    assert!(
        report
            .divergence_comparisons
            .iter()
            .all(|c| c.non_inferiority.is_none())
    );

    let options = Options {
        plan: Some(AnalysisPlan {
            comparisons: Comparisons::Pairs(vec![("rag".into(), "hare".into())]),
            divergence: true,
            ..AnalysisPlan::default()
        }),
        ..Options::default()
    };
    let report = report_of(&study(), &fixture("ratings.csv"), &options);
    let only: Vec<(&str, &str)> = report
        .divergence_comparisons
        .iter()
        .map(|c| (c.system_a.as_str(), c.system_b.as_str()))
        .collect();
    assert_eq!(only, [("rag", "hare")], "the pairs listed, as listed");
}

/// A divergence hypothesis is checked where it is written: no dimension, no margin, no
/// `corrected`, a B.
#[test]
fn divergence_hypotheses_are_checked_each_at_its_place() {
    // A two-system study whose plan holds the hypothesis, read by the researcher's reader.
    let read = |hypothesis: &str| {
        parse_study(&format!(
            r#"{{"format": "juror.study/1", "id": "s", "title": "t", "seed": 1,
            "systems": ["hare", "rag"],
            "rubric": {{"dimensions": [{{"id": "quality", "label": "Q", "question": "?",
              "scale": {{"min": 1, "max": 2, "points": [{{"value": 1, "label": "No"}},
              {{"value": 2, "label": "Yes"}}]}}}}]}},
            "design": {{"tasks": [{{"id": "r", "presentation": "single"}}]}},
            "analysis": {{"hypotheses": [{hypothesis}]}},
            "items": [{{"id": "a", "prompt": "?", "outputs": {{"hare": "1", "rag": "2"}}}}]}}"#
        ))
    };
    let problems = |hypothesis: &str| -> Vec<(String, String)> {
        match read(hypothesis) {
            Ok(_) => Vec::new(),
            Err(p) => p
                .iter()
                .map(|p| {
                    let at = p.at.strip_prefix("analysis.").unwrap_or(&p.at).to_owned();
                    (at, p.message.clone())
                })
                .collect(),
        }
    };
    let ok = r#"{"kind": "divergence", "a": "hare", "b": "rag", "alternative": "greater"}"#;
    assert_eq!(problems(ok), []);
    let study = read(ok).unwrap();
    let plan = study.analysis().unwrap();
    assert!(plan.wants_divergence() && !plan.divergence);
    assert!(plan.planned.iter().all(|t| !t.corrected));
    assert!(!AnalysisPlan::default().wants_divergence());
    for (hypothesis, at, what) in [
        (
            r#"{"kind": "divergence", "a": "hare", "b": "rag", "dimension": "quality"}"#,
            "hypotheses[0].dimension",
            "a divergence hypothesis has no dimension",
        ),
        (
            r#"{"kind": "divergence", "a": "hare", "b": "rag", "corrected": true}"#,
            "hypotheses[0].corrected",
            "on a comparison",
        ),
        (
            r#"{"kind": "divergence", "a": "hare", "b": "rag", "margin": 0.1}"#,
            "hypotheses[0].margin",
            "divergence",
        ),
        (
            r#"{"kind": "divergence", "a": "hare"}"#,
            "hypotheses[0].b",
            "no system B",
        ),
        (
            r#"{"kind": "divergence", "a": "hare", "b": "gpt2"}"#,
            "hypotheses[0].b[0]",
            "unknown system",
        ),
    ] {
        let found = problems(hypothesis);
        assert!(
            found.iter().any(|(a, w)| a == at && w.contains(what)),
            "{hypothesis}: {found:?}"
        );
    }
}

/// With one shared prompt a comparison has its difference and a Wilcoxon p of 1, and its notes
/// say why there is no t-test and no effect size, instead of a silent gap.
#[test]
fn one_shared_prompt_gives_comparisons_whose_notes_say_what_is_missing() {
    let text = fixture("study.json")
        .replace("\"for\": [\"p2\"]", "\"for\": [\"p1\"]")
        .replace("\"for\": [\"p3\"]", "\"for\": [\"p1\"]")
        .replace("\"for\": [2]", "\"for\": [\"p1\"]");
    let study = parse_study(&text).expect("still valid");
    let report = report_of(&study, &fixture("ratings.csv"), &Options::default());
    assert!(report.divergence.iter().all(|d| d.prompts == 1));
    assert_eq!(report.divergence_comparisons.len(), 3);
    for c in &report.divergence_comparisons {
        assert_eq!(c.n, 1);
        assert!(c.mean_diff.is_some() && c.t_test.is_none() && c.d_z.is_none());
        assert_eq!(c.wilcoxon.map(|w| w.p_value), Some(1.0));
        let notes = c.notes.join("; ");
        assert!(
            notes.contains("t-test") && notes.contains("effect sizes"),
            "{notes}"
        );
    }
}

/// Seed audit 2026-12-01 (001, C16): the personal-items workflow must publish its study, and
/// divergence refused a published study. Read with its key, the published study gives each
/// system the divergence the original gives.
#[test]
fn a_published_study_with_its_key_gives_the_originals_divergence() {
    let text = fixture("study.json");
    let original = study();
    let raw: juror_core::study::RawStudy = serde_json::from_str(&text).unwrap();
    let annotators: Vec<String> = ["p1", "p2", "p3"].map(str::to_owned).to_vec();
    let (sealed, key) = juror_core::publish::publish(&raw, &original, &[9; 32], 3, &annotators);
    let published = juror_core::analysis::plan_reader::validate(&sealed).unwrap();
    assert!(published.design().plans.is_some());
    let ratings = fixture("ratings.csv");
    let inputs = [Input::new("ratings.csv", ratings.as_str())];
    let of = |study: &Study, key| {
        let context = Context {
            study: Some((study, "")),
            key,
            reveal_ids: false,
        };
        analyze(&inputs, &context, None, &Options::default()).1
    };
    let want = of(&original, None);
    assert!(!want.divergence.is_empty());
    let without_key = of(&published, None);
    assert!(without_key.divergence.is_empty());
    let got = of(&published, Some(&key));
    let problems: Vec<&str> = got
        .problems
        .iter()
        .filter(|p| p.file == "divergence")
        .map(|p| p.message.as_str())
        .collect();
    assert!(problems.is_empty(), "{problems:?}");
    assert_eq!(got.divergence.len(), want.divergence.len());
    for w in &want.divergence {
        let g = got
            .divergence
            .iter()
            .find(|d| d.system == w.system)
            .unwrap();
        check(&format!("{} mean", w.system), g.mean, w.mean, TOL);
        assert_eq!((g.prompts, g.pairs), (w.prompts, w.pairs), "{}", w.system);
    }
}
