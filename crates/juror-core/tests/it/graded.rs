//! Graded pairwise preferences and "Cannot judge": the report's `graded` section against
//! `tests/reference/graded/reference.json` (numpy and scipy, written by `make_reference.py`
//! beside it with `graded.csv`; tolerance 1e-9), the tidy CSV both ways, the study's checks, the
//! session (keys, the reducer, the ratings file) and the analysis of what it exports.

use juror_core::analysis::report::Report;
use juror_core::analysis::{Context, Data, Input, Options, analyze, to_csv};
use juror_core::plan::Annotator;
use juror_core::session::keys::{Key, to_msg};
use juror_core::session::ratings::{PreferenceRecord, export};
use juror_core::session::{Msg, Phase, Preference, Reply, Session, Target, update};
use juror_core::study::{Study, parse_study};
use serde_json::Value;

use crate::support::{check, example, f, read as read_file, reference, tol, u};

const TOL: f64 = tol::CLOSED_FORM;

fn fixture_csv() -> String {
    read_file(
        &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/reference/graded/graded.csv"),
    )
}

fn report_of(inputs: &[Input<'_>], context: &Context) -> (Data, Report) {
    analyze(inputs, context, None, &Options::default())
}

fn check_ci(what: &str, got: Option<juror_core::analysis::report::Ci>, want: &Value) {
    let got = got.unwrap_or_else(|| panic!("{what}: no interval"));
    check(
        &format!("{what} low"),
        got.low,
        want[0].as_f64().unwrap(),
        TOL,
    );
    check(
        &format!("{what} high"),
        got.high,
        want[1].as_f64().unwrap(),
        TOL,
    );
}

#[test]
fn the_graded_section_matches_the_reference_script() {
    let want = reference("graded");
    let (data, report) = report_of(
        &[Input::new("graded.csv", fixture_csv())],
        &Context::default(),
    );
    assert!(report.problems.is_empty(), "{:?}", report.problems);
    let graded = report.graded.as_ref().expect("a graded section");
    assert_eq!(graded.max_grade, 3);
    let pairs = want["pairs"].as_object().unwrap();
    assert_eq!(graded.pairs.len(), pairs.len());
    for p in &graded.pairs {
        let what = format!("{}|{}", p.system_a, p.system_b);
        let w = &pairs[&what];
        assert_eq!(p.judgements as u64, u(w, "judgements"), "{what}");
        assert_eq!(p.items as u64, u(w, "items"), "{what}");
        assert_eq!(p.zero_items as u64, u(w, "zero_items"), "{what}");
        check(&what, p.mean_grade, f(w, "mean_grade"), TOL);
        check_ci(&what, p.ci, &w["ci"]);
        check(&what, p.wilcoxon_p.unwrap(), f(w, "wilcoxon_p"), TOL);
        check(
            &what,
            p.wilcoxon_statistic.unwrap(),
            f(w, "wilcoxon_statistic"),
            TOL,
        );
        let names: Vec<&str> = p.shares.iter().map(|s| s.grade.as_str()).collect();
        assert_eq!(names, ["a3", "a2", "a1", "tie", "b1", "b2", "b3"]);
        for s in &p.shares {
            assert_eq!(s.count, u(&w["counts"], &s.grade), "{what} {}", s.grade);
            check(&s.grade, s.share.unwrap(), f(&w["shares"], &s.grade), TOL);
        }
    }
    let t = graded
        .towards_first
        .as_ref()
        .expect("a position diagnostic");
    let w = &want["towards_first"];
    assert_eq!(t.judgements as u64, u(w, "judgements"));
    check("towards first", t.mean, f(w, "mean"), TOL);
    check_ci("towards first", t.ci, &w["ci"]);
    // "Cannot judge": counted per system, in no judgement.
    let skipped: u64 = want["cannot_judge"]
        .as_object()
        .unwrap()
        .values()
        .map(|v| v.as_u64().unwrap())
        .sum();
    assert_eq!(data.skips.len() as u64 * 2, skipped);
    for c in &report.cannot_judge {
        assert_eq!(c.question, "preference");
        assert_eq!(c.count as u64, u(&want["cannot_judge"], &c.system));
    }
    let judged: u64 = pairs.values().map(|w| u(w, "judgements")).sum();
    assert_eq!(data.preferences.len() as u64, judged);
    // Collapsed to a, b and tie, the same judgements give the win rates.
    let prefs = report.preferences.as_ref().expect("a preference section");
    for p in &prefs.pairs {
        let g = graded
            .pairs
            .iter()
            .find(|g| g.system_a == p.system_a && g.system_b == p.system_b)
            .unwrap();
        let count = |names: &[&str]| -> u64 {
            g.shares
                .iter()
                .filter(|s| names.contains(&s.grade.as_str()))
                .map(|s| s.count)
                .sum()
        };
        assert_eq!(p.wins, count(&["a1", "a2", "a3"]));
        assert_eq!(p.losses, count(&["b1", "b2", "b3"]));
        assert_eq!(p.ties, count(&["tie"]));
    }
    let markdown = juror_core::analysis::markdown::render(&report);
    assert!(markdown.contains("## Graded preferences"), "{markdown}");
    assert!(markdown.contains("## Cannot judge"));
    assert!(markdown.contains("Wilcoxon signed-rank test of the item means"));
}

#[test]
fn the_tidy_csv_writes_grades_and_cannot_judge_and_reads_them_back() {
    let (data, report) = report_of(
        &[Input::new("graded.csv", fixture_csv())],
        &Context::default(),
    );
    let csv = to_csv(&data);
    assert!(csv.contains(",cannot_judge,"), "{csv}");
    assert!(csv.contains(",b3,") || csv.contains(",a3,"));
    let (again, second) = report_of(&[Input::new("tidy.csv", csv)], &Context::default());
    assert!(second.problems.is_empty(), "{:?}", second.problems);
    assert_eq!(again.skips.len(), data.skips.len());
    assert_eq!(second.graded, report.graded);
    assert_eq!(second.cannot_judge, report.cannot_judge);
    // A grade off the names is placed and explained.
    let bad = "item_id,system_a,system_b,annotator_id,preference\ni1,x,y,p1,c2\n";
    let (_, r) = report_of(&[Input::new("bad.csv", bad)], &Context::default());
    assert_eq!(r.problems.len(), 1);
    let message = r.problems[0].to_string();
    assert!(message.contains("line 2"), "{message}");
    assert!(message.contains("a1–a9 or b1–b9"), "{message}");
    // A Likert row's score may be cannot_judge: counted, in no mean.
    let likert = "item_id,system_id,annotator_id,dimension,score\n\
                  i1,x,p1,quality,4\ni1,x,p2,quality,cannot_judge\ni1,y,p1,quality,2\n";
    let (d, r) = report_of(&[Input::new("likert.csv", likert)], &Context::default());
    assert!(r.problems.is_empty(), "{:?}", r.problems);
    assert_eq!(d.ratings.len(), 2);
    let x = r.dimensions[0]
        .systems
        .iter()
        .find(|s| s.system == "x")
        .unwrap();
    assert_eq!((x.n, x.mean), (1, 4.0));
    assert_eq!(r.cannot_judge.len(), 1);
    assert_eq!(
        (r.cannot_judge[0].question.as_str(), r.cannot_judge[0].count),
        ("quality", 1)
    );
    assert!(to_csv(&d).contains("i1,x,p2,quality,cannot_judge"));
}

/// The graded example with its preference changed by `change`.
fn graded_study(change: impl Fn(&mut Value)) -> Result<Study, juror_core::study::Problems> {
    let mut raw: Value = serde_json::from_str(&example("pandalm-graded")).unwrap();
    change(&mut raw["design"]["tasks"][0]["preference"]);
    parse_study(&raw.to_string())
}

#[test]
fn the_study_checks_a_graded_preference_and_places_its_problems() {
    let study = graded_study(|_| {}).unwrap();
    let p = study.design().tasks[0].preference.as_ref().unwrap();
    assert_eq!(p.grades.len(), 7);
    assert!(p.allow_skip);
    let defaults = graded_study(|p| {
        p.as_object_mut().unwrap().remove("labels");
        p.as_object_mut().unwrap().remove("points");
    })
    .unwrap();
    let grades = &defaults.design().tasks[0]
        .preference
        .as_ref()
        .unwrap()
        .grades;
    assert_eq!(grades[0], "A much better");
    assert_eq!(grades[3], "Same");
    assert_eq!(grades[6], "B much better");
    let at = "design.tasks[0].preference";
    for (change, place, piece) in [
        (
            serde_json::json!({"points": 6}),
            "points",
            "odd number of points from 3 to 9",
        ),
        (serde_json::json!({"points": 11}), "points", "not 11"),
        (
            serde_json::json!({"points": 5}),
            "labels",
            "7 labels for 5 points",
        ),
        (
            serde_json::json!({"type": "choice"}),
            "points",
            "only for a graded preference",
        ),
    ] {
        let problems = graded_study(|p| {
            for (k, v) in change.as_object().unwrap() {
                p[k] = v.clone();
            }
        })
        .unwrap_err();
        let found = problems
            .0
            .iter()
            .find(|pr| pr.at == format!("{at}.{place}"))
            .unwrap_or_else(|| panic!("{change}: nothing at {place}: {problems}"));
        assert!(found.message.contains(piece), "{}", found.message);
        assert!(!found.fix.is_empty());
    }
    let mut raw: Value = serde_json::from_str(&example("pandalm-graded")).unwrap();
    raw["design"]["tasks"][0]["presentation"] = "side_by_side".into();
    let problems = parse_study(&raw.to_string()).unwrap_err();
    assert!(
        problems
            .0
            .iter()
            .any(|p| p.at == format!("{at}.type") && p.message.contains("\"graded\"")),
        "{problems}"
    );
}

fn key(k: &str) -> Key<'_> {
    Key {
        key: k,
        shift: false,
        modified: false,
        typing: false,
        on_control: false,
    }
}

/// The graded example, its hash, and a session in its trials.
fn graded_session() -> (Study, String, Session) {
    let text = example("pandalm-graded");
    let study = parse_study(&text).unwrap();
    let hash = juror_core::base::digest::sha256_hex(&text);
    let mut s = Session::new(&study, Annotator::slot(1));
    let mut now = 1.0;
    while s.progress.phase != Phase::Trials {
        now += 1.0;
        let msg = match s.progress.phase {
            Phase::Welcome => Msg::Start,
            Phase::Consent => Msg::Consent(true),
            Phase::Instructions => Msg::FinishInstructions,
            other => panic!("the graded example has no {other:?} to pass"),
        };
        update(&study, &mut s, msg, now);
    }
    (study, hash, s)
}

#[test]
fn an_annotator_grades_by_keys_says_cannot_judge_and_the_file_and_analysis_carry_both() {
    let (study, hash, mut s) = graded_session();
    // Nothing answered: the missing answer says what to do.
    update(&study, &mut s, Msg::Next, 2.0);
    assert_eq!(s.progress.current, 0, "a graded preference is required");
    // Keys: 1 is A's strongest, 4 "Same", 7 B's strongest, 8 nothing, T "Same", 0 cannot judge.
    let at = |k: &str, s: &Session| to_msg(&study, s, key(k), None);
    let graded = |grade| {
        Some(Msg::answer(
            Target::Preference,
            Reply::Preference(Preference::Graded { grade }),
        ))
    };
    assert_eq!(at("1", &s), graded(-3));
    assert_eq!(at("4", &s), graded(0));
    assert_eq!(at("7", &s), graded(3));
    assert_eq!(at("8", &s), None);
    assert_eq!(at("t", &s), graded(0));
    assert_eq!(
        at("0", &s),
        Some(Msg::answer(
            Target::Preference,
            Reply::Preference(Preference::CannotJudge)
        ))
    );
    assert_eq!(at("a", &s), None, "a letter chooses no grade");
    // A grade off the scale is refused; one on it is kept.
    update(
        &study,
        &mut s,
        Msg::answer(
            Target::Preference,
            Reply::Preference(Preference::Graded { grade: 4 }),
        ),
        3.0,
    );
    assert_eq!(s.progress.trials[0].preference, None);
    let msg = at("2", &s).unwrap();
    update(&study, &mut s, msg, 3.5);
    assert_eq!(
        s.progress.trials[0].preference,
        Some(Preference::Graded { grade: -2 })
    );
    update(&study, &mut s, Msg::Next, 4.0);
    assert_eq!(s.progress.current, 1);
    // "Cannot judge" answers the required question.
    let msg = at("0", &s).unwrap();
    update(&study, &mut s, msg, 5.0);
    update(&study, &mut s, Msg::Next, 6.0);
    assert_eq!(s.progress.current, 2, "cannot judge is never missing");
    let file = export(&study, &hash, &s, "test", 7.0);
    assert_eq!(
        file.trials[0].preference,
        Some(PreferenceRecord::Graded {
            grade: -2,
            label: "Response A better".into()
        })
    );
    assert_eq!(
        file.trials[1].preference,
        Some(PreferenceRecord::CannotJudge)
    );
    let csv = file.to_csv();
    assert!(csv.contains(",a2"), "{csv}");
    assert!(csv.contains(",cannot_judge"), "{csv}");
    // The ratings file restores into a session with the same answers.
    let json = file.to_json();
    assert!(json.contains("\"graded\""), "{json}");
    assert!(json.contains("\"cannot_judge\""));
    // The analysis: one graded judgement, one "Cannot judge" per system.
    let context = Context {
        study: Some((&study, &hash)),
        ..Context::default()
    };
    let (data, report) = report_of(&[Input::new("juror-graded.json", json)], &context);
    assert!(report.problems.is_empty(), "{:?}", report.problems);
    assert_eq!(data.preferences.len(), 1);
    assert_eq!(data.preferences[0].grade, Some(-2));
    let graded = report.graded.as_ref().unwrap();
    assert_eq!(graded.pairs.len(), 1);
    assert_eq!(graded.pairs[0].judgements, 1);
    assert_eq!(graded.pairs[0].mean_grade.abs(), 2.0);
    assert_eq!(report.cannot_judge.len(), 2);
    assert!(report.cannot_judge.iter().all(|c| c.count == 1));
}
