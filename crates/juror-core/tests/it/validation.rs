//! Study validation against fixtures: every broken fixture is rejected with the right path, and
//! its full report matches the committed `.expected` snapshot (regenerate with
//! `JUROR_BLESS=1 cargo test -p juror-core --test it validation::`, then read the diff).

use std::path::{Path, PathBuf};

use juror_core::analysis::plan_reader::parse_study;
use juror_core::base::problem::NOT_YET_CHECKED;
use juror_core::study::{Problems, warnings};

use crate::support;

fn fixtures() -> PathBuf {
    support::fixtures("")
}

fn problems(name: &str) -> Problems {
    let path = fixtures().join("invalid").join(format!("{name}.json"));
    let text = std::fs::read_to_string(&path).unwrap();
    match parse_study(&text) {
        Ok(_) => panic!("{name}: accepted, but it is broken"),
        Err(p) => p,
    }
}

/// One row per error kind the study format must catch: the fixture, where the problem must be
/// reported, and a piece of the message.
const CASES: &[(&str, &str, &str)] = &[
    ("syntax-error", "line 6, column 3", "expected `,` or `}`"),
    ("not-an-object", "(top level)", "must be a JSON object"),
    (
        "unknown-format",
        "format",
        "unknown format version \"juror.study/2\"",
    ),
    ("unknown-field", "sytems", "unknown field \"sytems\""),
    (
        "bad-analysis-plan",
        "analysis.hypotheses[0].b[0]",
        "unknown system \"baseline\"",
    ),
    ("empty-items", "items", "no items"),
    ("blank-debrief", "debrief", "the debrief is empty"),
    (
        "flag-implies-off-scale",
        "design.tasks[0].flag.implies.all_dimensions",
        "0 is not on the scale of \"helpful\" (1 to 3)",
    ),
    (
        "duplicate-item-ids",
        "items[1].id",
        "duplicate item id \"q1\", first used at items[0].id",
    ),
    (
        "missing-output",
        "items[1].outputs",
        "no output for system \"ours\"",
    ),
    (
        "remote-media",
        "items[0].media.src",
        "\"https://example.org/figure.png\" is loaded from another site",
    ),
    (
        "unknown-system-output",
        "items[0].outputs.rag",
        "unknown system \"rag\"",
    ),
    (
        "unknown-dimension-in-example",
        "rubric.examples[0].scores.fluency",
        "unknown dimension \"fluency\"",
    ),
    (
        "unknown-dimension-in-check",
        "design.attention_checks[0].dimension",
        "unknown dimension \"fluency\"",
    ),
    (
        "scale-min-not-below-max",
        "rubric.dimensions[0].scale.min",
        "min (3) is not below its max (3)",
    ),
    (
        "missing-point-label",
        "rubric.dimensions[0].scale.points",
        "no label for point 2",
    ),
    (
        "anchors-scale-without-its-max",
        "rubric.dimensions[0].scale.points",
        "no label for the end point 5",
    ),
    (
        "one-system-comparison",
        "design.tasks[0].presentation",
        "at least two systems",
    ),
    (
        "pairs-anchor-and-list",
        "design.tasks[0].pairs",
        "both \"anchor\" and \"list\" are given",
    ),
    (
        "pairs-anchor-and-list",
        "design.tasks[1].pairs",
        "neither \"anchor\" nor \"list\" is given",
    ),
    (
        "pairs-list-bad",
        "design.tasks[0].pairs.list[1]",
        "unknown system \"gpt\"",
    ),
    (
        "pairs-list-bad",
        "design.tasks[0].pairs.list[2]",
        "\"rag\" is paired with itself",
    ),
    (
        "pairs-list-bad",
        "design.tasks[0].pairs.list[3]",
        "the pair of \"ours\" and \"base\" is already listed at design.tasks[0].pairs.list[0]",
    ),
    (
        "pairs-list-bad",
        "design.tasks[1].pairs.list",
        "the list has no pair",
    ),
    (
        "pairs-list-omits-checked-system",
        "design.attention_checks[0].system",
        "no task shows system \"rag\" with item \"q1\"",
    ),
    (
        "annotators-exceed-slots",
        "design.assignment.annotators_per_item",
        "3 annotators per item but only 2 slots",
    ),
    (
        "wrong-types-in-two-items",
        "items[0].outputs.ours",
        "found the number 42",
    ),
    (
        "wrong-types-in-two-items",
        "items[1]",
        "missing field \"prompt\"",
    ),
    ("many-problems", "items[1].id", "duplicate item id"),
    (
        "many-problems",
        "items[0].outputs",
        "no output for system \"base\"",
    ),
    (
        "many-problems",
        "rubric.dimensions[0].scale.points[0].label",
        "empty label",
    ),
    (
        "many-problems",
        "design.tasks[0].pairs.anchor",
        "unknown system \"gpt\"",
    ),
    (
        "many-problems",
        "design.tasks[0].preference.type",
        "\"rank\" preference cannot be asked with \"pairs\"",
    ),
];

#[test]
fn each_error_kind_is_reported_at_its_path() {
    for (name, at, message) in CASES {
        let found = problems(name);
        assert!(
            found
                .iter()
                .any(|p| p.at == *at && p.message.contains(message)),
            "{name}: expected `{at}: ...{message}...`, got:\n{found}"
        );
        assert!(
            found.iter().all(|p| !p.fix.is_empty()),
            "{name}: every problem needs a fix:\n{found}"
        );
    }
}

#[test]
fn every_invalid_fixture_is_covered_and_matches_its_snapshot() {
    let bless = support::bless();
    let dir = fixtures().join("invalid");
    let mut names = Vec::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "json") {
            names.push(path.file_stem().unwrap().to_string_lossy().into_owned());
        }
    }
    names.sort();
    assert!(names.len() >= 15, "fixtures missing: {names:?}");
    for name in &names {
        assert!(
            CASES.iter().any(|(n, _, _)| n == name),
            "{name}.json has no row in CASES"
        );
        let report = format!("{}\n", problems(name));
        let expected_path = dir.join(format!("{name}.expected"));
        if bless {
            std::fs::write(&expected_path, &report).unwrap();
        }
        let expected = std::fs::read_to_string(&expected_path).unwrap_or_else(|_| {
            panic!(
                "{} missing; run with JUROR_BLESS=1",
                expected_path.display()
            )
        });
        assert_eq!(report, expected, "{name}: report changed");
    }
}

#[test]
fn many_problems_are_reported_at_once() {
    assert!(problems("many-problems").found() >= 5);
    let two = problems("wrong-types-in-two-items");
    assert_eq!(two.found(), 2);
    // UX walkthrough 2026-12-01, finding 3: problems of the file's form say that the other
    // checks wait on them, so the next run's new problems are no surprise; a study of the right
    // form has its every problem at once and no such note.
    assert!(two.checks_follow());
    assert_eq!(two.0.last().unwrap().at, NOT_YET_CHECKED);
    let text = std::fs::read_to_string(fixtures().join("valid/minimal.json")).unwrap();
    let mut v: serde_json::Value = serde_json::from_str(&text).unwrap();
    v["items"][1]["id"] = v["items"][0]["id"].clone();
    let logic = parse_study(&v.to_string()).unwrap_err();
    assert!(logic.found() >= 1 && !logic.checks_follow(), "{logic}");
}

#[test]
fn the_minimal_valid_fixture_is_accepted() {
    let text = std::fs::read_to_string(fixtures().join("valid/minimal.json")).unwrap();
    let study = parse_study(&text).unwrap_or_else(|p| panic!("{p}"));
    assert_eq!(study.items().len(), 2);
    assert_eq!(study.trials_per_annotator(), 2);
    assert_eq!(study.design().tasks[0].label(1), "Output B");
}

/// With `labels: "anchors"` the points left out are in the model, unlabelled: the HARE study's
/// dimensions label 1, 3 and 5 as its protocol does, and 2 and 4 are numbers only. Without
/// it, every point must be listed.
#[test]
fn an_anchors_scale_keeps_every_point_and_labels_the_ones_given() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../assets/studies/hare-personalization.json");
    let text = std::fs::read_to_string(&path).unwrap();
    let study = parse_study(&text).unwrap_or_else(|p| panic!("{p}"));
    assert_eq!(study.rubric().dimensions.len(), 4);
    for d in &study.rubric().dimensions {
        let points: Vec<(i32, bool, bool)> = d
            .scale
            .points
            .iter()
            .map(|p| (p.value, p.label.is_some(), p.description.is_some()))
            .collect();
        assert_eq!(
            points,
            [
                (1, true, true),
                (2, false, false),
                (3, true, true),
                (4, false, false),
                (5, true, true)
            ],
            "{}",
            d.id
        );
        assert!((1..=5).all(|v| d.scale.contains(v)));
    }
    // The same scale without "labels": "anchors" is missing points 2 and 4.
    let mut raw: serde_json::Value = serde_json::from_str(&text).unwrap();
    raw["rubric"]["dimensions"][0]["scale"]
        .as_object_mut()
        .unwrap()
        .remove("labels");
    let problems = parse_study(&raw.to_string()).unwrap_err();
    assert!(
        problems
            .iter()
            .any(|p| p.at == "rubric.dimensions[0].scale.points"
                && p.message == "no label for point 2, 4"),
        "{problems}"
    );
}

/// The HARE example debriefs its participants: the text is in the model, as written.
#[test]
fn the_debrief_is_kept_as_written() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../assets/studies/hare-personalization.json");
    let text = std::fs::read_to_string(&path).unwrap();
    let raw: serde_json::Value = serde_json::from_str(&text).unwrap();
    let study = parse_study(&text).unwrap_or_else(|p| panic!("{p}"));
    let debrief = study.debrief().and_then(|d| d.source()).unwrap_or_default();
    assert_eq!(Some(debrief), raw["debrief"].as_str());
    // It describes the methods without naming them: the study file is served to everyone.
    assert!(debrief.contains("the personalised method this study evaluates"));
    for system in study.systems() {
        assert!(
            !debrief.to_lowercase().contains(&system.to_lowercase()),
            "{system}"
        );
    }
    let minimal = std::fs::read_to_string(fixtures().join("valid/minimal.json")).unwrap();
    assert_eq!(parse_study(&minimal).unwrap().debrief(), None);
}

#[test]
fn every_example_study_is_valid() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets/studies");
    let mut n = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "json") {
            let text = std::fs::read_to_string(&path).unwrap();
            if let Err(p) = parse_study(&text) {
                panic!("{}:\n{p}", path.display());
            }
            n += 1;
        }
    }
    assert!(n >= 6, "expected at least six example studies, found {n}");
}

#[test]
fn committed_schema_matches_the_types() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets/schema/study.v1.json");
    let generated = juror_core::study::schema();
    if support::bless() {
        std::fs::write(&path, &generated).unwrap();
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == generated,
        "assets/schema/study.v1.json is out of date with crates/juror-core/src/study/raw.rs; \
         regenerate it with `cargo run -p juror-cli -- schema > assets/schema/study.v1.json`"
    );
}

#[test]
fn no_input_panics() {
    // A handful of hostile inputs: each must give problems, never a panic.
    for text in [
        "",
        "null",
        "{}",
        "[]",
        "\"x\"",
        "{\"format\": 1}",
        "{\"format\": \"juror.study/1\"}",
        "{\"format\": \"juror.study/1\", \"items\": [1, null, {}]}",
        "{\"format\": \"juror.study/1\", \"rubric\": {\"output_questions\": [{\"type\": \"rank\", \"zzz\": 1}]}}",
        "\u{feff}{}",
        "{\"a\": \"\\ud800\"}",
    ] {
        assert!(parse_study(text).is_err(), "{text:?} accepted");
    }
}

/// A worked example can carry an image, checked like an item's: on the site, with a text
/// alternative.
#[test]
fn a_worked_examples_media_is_checked_like_an_items() {
    let text = std::fs::read_to_string(fixtures().join("valid/minimal.json")).unwrap();
    let mut raw: serde_json::Value = serde_json::from_str(&text).unwrap();
    raw["rubric"]["examples"][0]["media"] =
        serde_json::json!({ "type": "image", "src": "media/chart.png", "alt": "A bar chart" });
    let study = parse_study(&raw.to_string()).unwrap_or_else(|p| panic!("{p}"));
    let media = study.rubric().examples[0]
        .media
        .as_ref()
        .map(|m| m.src.as_str());
    assert_eq!(media, Some("media/chart.png"));
    raw["rubric"]["examples"][0]["media"] =
        serde_json::json!({ "type": "image", "src": "https://example.org/a.png", "alt": " " });
    let problems = parse_study(&raw.to_string())
        .err()
        .map(|p| p.to_string())
        .unwrap_or_default();
    assert!(
        problems
            .contains("rubric.examples[0].media.src: \"https://example.org/a.png\" is loaded from"),
        "{problems}"
    );
    assert!(
        problems.contains("rubric.examples[0].media.alt: the media has no text alternative"),
        "{problems}"
    );
}

/// `analysis.by_intake` must name an intake question.
#[test]
fn a_breakdown_by_an_unknown_intake_question_is_refused() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../assets/studies/hare-personalization.json");
    let text = std::fs::read_to_string(&path).unwrap();
    let mut raw: serde_json::Value = serde_json::from_str(&text).unwrap();
    raw["analysis"]["by_intake"] = serde_json::json!("role");
    let study = parse_study(&raw.to_string()).unwrap_or_else(|p| panic!("{p}"));
    assert_eq!(
        study.analysis().and_then(|a| a.by_intake.as_deref()),
        Some("role")
    );
    raw["analysis"]["by_intake"] = serde_json::json!("age");
    let problems = parse_study(&raw.to_string())
        .err()
        .map(|p| p.to_string())
        .unwrap_or_default();
    assert!(
        problems.contains("analysis.by_intake: no intake question \"age\" (use one of: role,"),
        "{problems}"
    );
}

/// `completion`: a code or an address back, https only, `{code}` only with a code, and
/// a failing code only beside a passing one.
#[test]
fn a_completion_section_is_checked() {
    let text = std::fs::read_to_string(fixtures().join("valid/minimal.json")).unwrap();
    let with = |completion: serde_json::Value| {
        let mut v: serde_json::Value = serde_json::from_str(&text).unwrap();
        v["completion"] = completion;
        match parse_study(&v.to_string()) {
            Ok(_) => Vec::new(),
            Err(p) => p
                .iter()
                .filter(|p| p.at != NOT_YET_CHECKED)
                .map(|p| (p.at.clone(), p.message.clone()))
                .collect(),
        }
    };
    assert_eq!(
        with(
            serde_json::json!({"code": "C1", "redirect": "https://app.prolific.com/submissions/complete?cc={code}"})
        ),
        Vec::new()
    );
    let at = |c| with(c).into_iter().map(|(at, _)| at).collect::<Vec<_>>();
    assert_eq!(at(serde_json::json!({})), ["completion"]);
    assert_eq!(at(serde_json::json!({"code": " "})), ["completion.code"]);
    assert_eq!(
        at(serde_json::json!({"fail_code": "F"})),
        ["completion", "completion.fail_code"]
    );
    assert_eq!(
        at(serde_json::json!({"redirect": "http://x.org/?cc={code}"})),
        ["completion.redirect", "completion.redirect"]
    );
    assert_eq!(
        at(serde_json::json!({"code": "C", "extra": 1})),
        ["completion.extra"]
    );
}

/// Time budgets: a task's `estimated_minutes` is summed into the study's estimate when
/// the study gives none of its own; 0 minutes is refused.
#[test]
fn task_time_estimates_add_up_to_the_studys() {
    let text = std::fs::read_to_string(fixtures().join("valid/minimal.json")).unwrap();
    let study = |f: &dyn Fn(&mut serde_json::Value)| {
        let mut v: serde_json::Value = serde_json::from_str(&text).unwrap();
        f(&mut v);
        parse_study(&v.to_string())
    };
    let one_task = |m: serde_json::Value| {
        move |v: &mut serde_json::Value| {
            v.as_object_mut().unwrap().remove("estimated_minutes");
            v["design"]["tasks"][0]["estimated_minutes"] = m.clone();
        }
    };
    let s = study(&one_task(serde_json::json!(25))).unwrap();
    assert_eq!(s.estimated_minutes(), Some(25));
    assert_eq!(s.design().tasks[0].estimated_minutes, Some(25));
    // The study's own estimate wins.
    let s = study(&|v| {
        v["estimated_minutes"] = serde_json::json!(40);
        v["design"]["tasks"][0]["estimated_minutes"] = serde_json::json!(25);
    })
    .unwrap();
    assert_eq!(s.estimated_minutes(), Some(40));
    let e = study(&one_task(serde_json::json!(0))).unwrap_err();
    assert_eq!(
        e.iter().map(|p| p.at.as_str()).collect::<Vec<_>>(),
        ["design.tasks[0].estimated_minutes"]
    );
}

/// `submit`: an https address (or a local test server), a known format, and DataPipe's
/// experiment id.
#[test]
fn a_submission_endpoint_is_checked() {
    let text = std::fs::read_to_string(fixtures().join("valid/minimal.json")).unwrap();
    let at = |submit: serde_json::Value| {
        let mut v: serde_json::Value = serde_json::from_str(&text).unwrap();
        v["submit"] = submit;
        match parse_study(&v.to_string()) {
            Ok(_) => Vec::new(),
            Err(p) => p.iter().map(|p| p.at.clone()).collect::<Vec<_>>(),
        }
    };
    assert!(at(serde_json::json!({"url": "https://script.google.com/macros/s/X/exec"})).is_empty());
    assert!(at(serde_json::json!({"url": "https://pipe.jspsych.org/api/data/", "format": "datapipe", "experiment_id": "A1"})).is_empty());
    assert_eq!(
        at(serde_json::json!({"url": "http://example.org/in"})),
        ["submit.url"]
    );
    assert_eq!(
        at(serde_json::json!({"url": "https://pipe.jspsych.org/api/data/", "format": "datapipe"})),
        ["submit.experiment_id"]
    );
    assert_eq!(
        at(serde_json::json!({"url": "https://x.org", "format": "xml"})),
        ["submit.format"]
    );
}

/// The counts that drive planning are capped, checked first: a study over a cap gets one
/// problem per count over it, placed and with a fix, and none of the problems the count would
/// otherwise cause. A study at the caps opens (and plans).
#[test]
fn counts_over_their_caps_are_refused_at_once_with_one_message() {
    use serde_json::{Value, json};
    let text = support::example("reasoning-trajectories");
    let base: Value = serde_json::from_str(&text).unwrap();
    let refused = |f: &dyn Fn(&mut Value)| -> Vec<(String, String)> {
        let mut v = base.clone();
        f(&mut v);
        match parse_study(&v.to_string()) {
            Ok(_) => Vec::new(),
            Err(p) => {
                for x in p.iter() {
                    assert!(!x.fix.trim().is_empty(), "{x}");
                }
                p.iter()
                    .map(|x| (x.at.clone(), x.message.clone()))
                    .collect()
            }
        }
    };
    let one = |f: &dyn Fn(&mut Value), at: &str, message: &str| {
        let got = refused(f);
        assert_eq!(got.len(), 1, "{got:?}");
        assert_eq!(got[0].0, at);
        assert!(got[0].1.contains(message), "{:?}", got[0]);
    };
    let item = |i: usize, systems: &[String]| {
        let outputs: serde_json::Map<String, Value> =
            systems.iter().map(|s| (s.clone(), json!("o"))).collect();
        json!({"id": format!("i{i}"), "prompt": "p", "outputs": outputs})
    };

    // 200,000 slots: the slots alone, although 200,000 annotators per item would be fine then.
    one(
        &|v| v["design"]["assignment"] = json!({"slots": 200_000, "annotators_per_item": 200_000}),
        "design.assignment.slots",
        "200000 slots, more than Juror plans (2000)",
    );
    // 5,000 systems: not 5,000 missing outputs per item.
    one(
        &|v| v["systems"] = json!((0..5000).map(|s| format!("s{s}")).collect::<Vec<_>>()),
        "systems",
        "5000 systems, more than Juror compares in one study (64)",
    );
    // More items than the cap.
    let systems: Vec<String> = base["systems"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap().to_owned())
        .collect();
    one(
        &|v| {
            v["design"]["attention_checks"] = json!([]);
            v["items"] = Value::Array((0..100_001).map(|i| item(i, &systems)).collect());
        },
        "items",
        "100001 items, more than Juror plans in one study (100000)",
    );
    // An assignment whose greedy choice would take too long: 60 × 1000 × 2000 steps.
    one(
        &|v| {
            v["design"]["attention_checks"] = json!([]);
            v["items"] = Value::Array((0..60).map(|i| item(i, &systems)).collect());
            v["design"]["assignment"] = json!({"slots": 2000, "annotators_per_item": 1000});
        },
        "design.assignment",
        "60 items × 1000 annotators per item × 2000 slots is 120000000 steps",
    );
    // A pairs list longer than the pairs there are: one problem, not one per repeat.
    one(
        &|v| {
            let pair = json!([systems[0], systems[1]]);
            v["design"]["tasks"][0]["pairs"] = json!({"list": vec![pair; 5000]});
        },
        "design.tasks[0].pairs.list",
        "5000 pairs, but 4 systems make only 6 different pairs",
    );
    // 64 systems in every pair (2,016 pairs an item), 10 items each: 20,160 trials.
    let many: Vec<String> = (0..64).map(|s| format!("s{s}")).collect();
    one(
        &|v| {
            v["systems"] = json!(many);
            v["design"]["attention_checks"] = json!([]);
            v["design"]["assignment"] = Value::Null;
            v["design"]["tasks"][0]["pairs"] = Value::Null;
            v["items"] = Value::Array((0..10).map(|i| item(i, &many)).collect());
        },
        "design.tasks",
        "an annotator would have up to 20160 trials, more than Juror plans (20000)",
    );
    // Two counts over their caps: two problems, and nothing else.
    let got = refused(&|v| {
        v["systems"] = json!((0..65).map(|s| format!("s{s}")).collect::<Vec<_>>());
        v["design"]["assignment"] = json!({"slots": 2001, "annotators_per_item": 1});
    });
    let at: Vec<&str> = got.iter().map(|(at, _)| at.as_str()).collect();
    assert_eq!(at, ["systems", "design.assignment.slots"]);

    // At the caps: 2,000 slots, 1 annotator per item, opens and plans its last slot.
    let mut v = base.clone();
    v["design"]["assignment"] = json!({"slots": 2000, "annotators_per_item": 1});
    let opened = juror_core::front::open::open(&v.to_string()).unwrap_or_else(|p| panic!("{p}"));
    let last = juror_core::plan::Annotator::slot(2000);
    let plan = juror_core::plan::plan(&opened.study, &last);
    assert!(
        !plan.trials.is_empty(),
        "the attention checks go to every slot"
    );
}

/// `pairs.spread` is checked: an anchor to spread, an assignment, enough slots, no personal
/// items.
#[test]
fn spreading_an_anchors_pairs_needs_an_assignment_with_enough_slots() {
    use serde_json::{Value, json};
    let text = support::example("reasoning-trajectories");
    let base: Value = serde_json::from_str(&text).unwrap();
    let problems = |f: &dyn Fn(&mut Value)| -> Vec<(String, String)> {
        let mut v = base.clone();
        f(&mut v);
        match parse_study(&v.to_string()) {
            Ok(_) => Vec::new(),
            Err(p) => p
                .iter()
                .map(|x| (x.at.clone(), x.message.clone()))
                .collect(),
        }
    };
    let at = "design.tasks[0].pairs.spread".to_owned();
    // 4 systems, 3 annotators per pair: 9 slots, as the study has.
    let spread = |v: &mut Value| {
        v["design"]["tasks"][0]["pairs"] = json!({"anchor": "rft-base", "spread": true});
    };
    assert_eq!(problems(&spread), []);
    assert_eq!(
        problems(&|v| {
            spread(v);
            v["design"]["assignment"]["slots"] = json!(8);
        }),
        [(
            at.clone(),
            "each item's 3 pairs need 3 annotators each, 9 slots in all, but the study has 8"
                .to_owned()
        )]
    );
    let missing = problems(&|v| {
        spread(v);
        v["design"]["assignment"] = Value::Null;
    });
    assert_eq!(missing.len(), 1, "{missing:?}");
    assert_eq!(missing[0].0, at);
    assert!(missing[0].1.contains("needs an assignment"));
    let listed = problems(&|v| {
        let list = v["design"]["tasks"][0]["pairs"]["list"].clone();
        v["design"]["tasks"][0]["pairs"] = json!({"list": list, "spread": true});
    });
    assert_eq!(
        listed,
        [(
            at.clone(),
            "only an anchor's pairs can be spread over annotators".to_owned()
        )]
    );
    let personal = problems(&|v| {
        spread(v);
        v["items"][1]["for"] = json!([2]);
    });
    assert_eq!(personal.len(), 1, "{personal:?}");
    assert!(personal[0].1.contains("is personal"));
}

/// A published study lists every item's own tokens as its systems, so it may list far more
/// than 64: its cap is on an item's outputs.
#[test]
fn a_published_study_may_list_more_tokens_than_a_study_has_systems() {
    use serde_json::{Value, json};
    let text = support::example("financial-analysis");
    let mut v: Value = serde_json::from_str(&text).unwrap();
    let first = v["items"][0].clone();
    let items: Vec<Value> = (0..40)
        .map(|i| {
            let mut it = first.clone();
            it["id"] = json!(format!("i{i}"));
            it
        })
        .collect();
    v["items"] = Value::Array(items);
    v["design"]["attention_checks"] = json!([]);
    let raw: juror_core::study::RawStudy = serde_json::from_value(v.clone()).unwrap();
    let study = parse_study(&v.to_string()).unwrap_or_else(|p| panic!("{p}"));
    let (published, _key) = juror_core::publish::publish(&raw, &study, &[7; 32], 2, &[]);
    let back =
        parse_study(&serde_json::to_string(&published).unwrap()).unwrap_or_else(|p| panic!("{p}"));
    assert_eq!(back.systems().len(), 80);
    assert_eq!(back.system_count(), 2);
}

/// Survey time estimates count in the study's length when it gives none of its own; a survey
/// of 0 minutes, or timed without questions, is refused where it is written.
#[test]
fn survey_minutes_add_to_the_estimate_and_are_checked() {
    use serde_json::{Value, json};
    let text = support::example("hare-personalization");
    let mut v: Value = serde_json::from_str(&text).unwrap();
    v.as_object_mut().unwrap().remove("estimated_minutes");
    v["design"]["tasks"][0]["estimated_minutes"] = json!(20);
    assert!(
        v["surveys"]["intake"]
            .as_array()
            .is_some_and(|q| !q.is_empty())
    );
    v["surveys"]["exit"] =
        json!([{"id": "left", "prompt": "Anything else?", "type": "long_text", "required": false}]);
    let tasks = 20;
    v["surveys"]["intake_minutes"] = json!(4);
    v["surveys"]["exit_minutes"] = json!(3);
    let study = parse_study(&v.to_string()).unwrap_or_else(|p| panic!("{p}"));
    assert_eq!(study.estimated_minutes(), Some(tasks + 7));
    assert_eq!(
        (study.intake_minutes(), study.exit_minutes()),
        (Some(4), Some(3))
    );

    v["surveys"]["intake_minutes"] = json!(0);
    v["surveys"]["exit"] = json!([]);
    let problems = parse_study(&v.to_string()).unwrap_err();
    let at: Vec<&str> = problems.iter().map(|x| x.at.as_str()).collect();
    assert_eq!(
        at,
        ["surveys.intake_minutes", "surveys.exit_minutes"],
        "{problems}"
    );
}

/// A task may label its outputs its own way (the personalisation study's comparison round, per trial, beside
/// rounds whose letters stay): its format must have a `{}`, and must differ from the steady
/// letters' format, which a ranking of systems by label needs somewhere.
#[test]
fn a_tasks_own_labels_are_checked() {
    use serde_json::{Value, json};
    let text = support::example("hare-personalization");
    let mut v: Value = serde_json::from_str(&text).unwrap();
    let at = |v: &Value| -> Vec<String> {
        match parse_study(&v.to_string()) {
            Ok(_) => Vec::new(),
            Err(p) => p
                .iter()
                .map(|x| format!("{}: {}", x.at, x.message))
                .collect(),
        }
    };
    assert_eq!(at(&v), Vec::<String>::new());
    // The design's letters per trial, the rounds' per annotator: the exit ranking still works.
    v["design"]["labels"] = json!("per_trial");
    v["design"]["label_format"] = json!("Option {}");
    v["design"]["tasks"][0]["labels"] = json!("per_annotator");
    v["design"]["tasks"][0]["label_format"] = json!("System {}");
    v["design"]["tasks"][1]
        .as_object_mut()
        .unwrap()
        .remove("labels");
    v["design"]["tasks"][1]
        .as_object_mut()
        .unwrap()
        .remove("label_format");
    assert_eq!(at(&v), Vec::<String>::new());
    let study = parse_study(&v.to_string()).unwrap();
    assert_eq!(study.design().system_label(0), "System A");

    v["design"]["tasks"][1]["label_format"] = json!("System {}");
    assert_eq!(
        at(&v),
        [
            "design.tasks[1].label_format: \"System {}\" names a position here and a system in \
          task \"rounds\", whose letters stay the same"
        ]
    );
    v["design"]["tasks"][1]["label_format"] = json!("Option");
    assert_eq!(
        at(&v),
        ["design.tasks[1].label_format: \"Option\" has no {} for the letter"]
    );
    // No task keeps its letters: the exit survey cannot rank the systems by label.
    v["design"]["tasks"][1]["label_format"] = json!("Option {}");
    v["design"]["tasks"][0]["labels"] = json!("per_trial");
    v["design"]["tasks"][0]["label_format"] = json!("Skill {}");
    let problems = at(&v);
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(
        problems[0].contains("labels that stay the same"),
        "{problems:?}"
    );
}

/// A published study's personal plans are checked like the slots' plans, each for an id an
/// item is `for`, and only beside the slots' plans.
#[test]
fn personal_plans_are_checked_against_the_items_for_their_ids() {
    use serde_json::{Value, json};
    let text = support::example("kitchen-qa");
    let mut v: Value = serde_json::from_str(&text).unwrap();
    let mut own = v["items"][0].clone();
    own["id"] = json!("own");
    own["for"] = json!(["P07"]);
    v["items"].as_array_mut().unwrap().push(own);
    let raw: juror_core::study::RawStudy = serde_json::from_value(v.clone()).unwrap();
    let study = parse_study(&v.to_string()).unwrap_or_else(|p| panic!("{p}"));
    let (published, _) = juror_core::publish::publish(&raw, &study, &[7; 32], 2, &["p07".into()]);
    let mut p: Value = serde_json::to_value(&published).unwrap();
    // The published study, public to anyone with its address, names the annotator by key only.
    let key = juror_core::study::personal_key("kitchen-qa", "p07");
    assert!(key.starts_with("h-") && key.len() == 66, "{key}");
    assert!(p["design"]["personal_plans"][&key].is_array());
    assert_eq!(
        p["items"].as_array().unwrap().last().unwrap()["for"],
        json!([key])
    );
    assert!(
        !p.to_string().to_lowercase().contains("p07"),
        "the id is served"
    );
    assert_ne!(
        juror_core::study::personal_key("another-study", "p07"),
        key,
        "keys of one participant in two studies are unrelated"
    );
    let again = parse_study(&p.to_string()).unwrap_or_else(|e| panic!("{e}"));
    // The link's id, in any case or spacing, finds its plan; the cover agrees.
    let who = |id: &str| juror_core::plan::Annotator {
        slot: 1,
        id: Some(juror_core::study::participant_code(id)),
        platform: None,
    };
    let mine = juror_core::plan::published(&again, &who(" P07")).unwrap();
    assert!(mine.iter().any(|t| again.items()[t.item].id == "own"));
    let cover = juror_core::front::cover::Cover::of(&again);
    assert_eq!(cover.trials_for(&who("p07")), mine.len());
    assert_ne!(cover.trials_for(&who("p08")), mine.len());
    // A study published before keys (plans under the id itself) still plays.
    let mut old = p.clone();
    let plan = old["design"]["personal_plans"][&key].take();
    old["design"]["personal_plans"] = json!({ "p07": plan });
    old["items"].as_array_mut().unwrap().last_mut().unwrap()["for"] = json!(["p07"]);
    let old = parse_study(&old.to_string()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        juror_core::plan::published(&old, &who("p07")).map(Vec::len),
        Some(mine.len())
    );

    let plan = p["design"]["personal_plans"][&key].clone();
    p["design"]["personal_plans"]["q11"] = plan.clone();
    p["design"]["personal_plans"][&key][0]["item"] = json!("nowhere");
    let problems = parse_study(&p.to_string()).unwrap_err();
    let at: Vec<&str> = problems.iter().map(|x| x.at.as_str()).collect();
    assert_eq!(
        at,
        [
            format!("design.personal_plans.{key}[0]").as_str(),
            "design.personal_plans.q11"
        ],
        "{problems}"
    );
    p["design"]["plans"] = Value::Null;
    let problems = parse_study(&p.to_string()).unwrap_err();
    assert!(
        problems
            .iter()
            .any(|x| x.at == "design.personal_plans"
                && x.message.contains("without the slots' plans")),
        "{problems}"
    );
}

/// Every value of every example study, one at a time, replaced by values of the wrong kind
/// (text for a number, an object for text, a list for an object, ...): each message says what
/// was expected in the file's own words, never the name of a Rust type.
#[test]
fn wrong_kinds_of_value_are_said_without_rust_type_names() {
    use serde_json::{Value, json};
    fn leaves(v: &Value, here: &str, out: &mut Vec<String>) {
        out.push(here.to_owned());
        match v {
            Value::Object(m) => {
                for (k, x) in m {
                    leaves(x, &format!("{here}/{k}"), out);
                }
            }
            Value::Array(a) => {
                for (i, x) in a.iter().take(1).enumerate() {
                    leaves(x, &format!("{here}/{i}"), out);
                }
            }
            _ => {}
        }
    }
    let leak = names_a_rust_type;
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets/studies");
    let mut checked = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "json") {
            continue;
        }
        let mut study: Value = serde_json::from_str(&support::read(&path)).unwrap();
        // Two items show every kind of value an item has, and keep the run short.
        if let Some(items) = study["items"].as_array_mut() {
            items.truncate(2);
        }
        let mut pointers = Vec::new();
        leaves(&study, "", &mut pointers);
        for pointer in pointers.iter().filter(|p| !p.is_empty() && *p != "/format") {
            let wrong: Vec<Value> = match study.pointer(pointer).unwrap() {
                Value::Bool(_) => vec![json!("x")],
                Value::Number(_) => vec![json!("7"), json!(-1), json!(1.5), json!(true)],
                Value::String(_) => vec![json!(5), json!({"a": 1}), json!(["a"])],
                Value::Array(_) => vec![json!("x"), json!({"a": 1})],
                Value::Object(_) => vec![json!("x"), json!(["a"]), json!(7)],
                Value::Null => vec![],
            };
            for w in wrong {
                let mut doc = study.clone();
                *doc.pointer_mut(pointer).unwrap() = w.clone();
                let Err(problems) = parse_study(&doc.to_string()) else {
                    continue;
                };
                for p in problems.iter() {
                    let text = p.to_string();
                    assert!(!leak(&text), "{}: {pointer} = {w}: {text}", path.display());
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 1000, "only {checked} messages checked");
}

/// Whether a message names a Rust type (`RawConsent`, `struct`, `u64`, `Vec<`) or a word of
/// serde's own (`sequence`, `a map`, `variant identifier`).
fn names_a_rust_type(text: &str) -> bool {
    let words = [
        "Raw",
        "struct ",
        "enum ",
        "Option<",
        "Vec<",
        "BTreeMap",
        "String",
        "OneOrMany",
        "sequence",
        "a map",
        "variant identifier",
        "expected value",
        "floating point",
        "integer `",
        "docs/study-format.md gives",
    ];
    let types = [
        "u8", "u16", "u32", "u64", "usize", "i8", "i16", "i32", "i64", "isize", "f32", "f64",
    ];
    words.iter().any(|w| text.contains(w))
        || text
            .split(|c: char| !c.is_ascii_alphanumeric())
            .any(|w| types.contains(&w))
}

/// A mistake's message is placed at the value itself, not at the object holding it.
#[test]
fn wrong_values_are_placed_at_themselves() {
    let base = std::fs::read_to_string(fixtures().join("valid/minimal.json")).unwrap();
    let base: serde_json::Value = serde_json::from_str(&base).unwrap();
    let cases: &[(&str, serde_json::Value, &str, &str)] = &[
        (
            "/debrief",
            serde_json::json!({"text": "x"}),
            "debrief",
            "expected text in quotes",
        ),
        (
            "/instructions",
            serde_json::json!(["x"]),
            "instructions",
            "found a list",
        ),
        (
            "/items/0/prompt",
            serde_json::json!(["x"]),
            "items[0].prompt",
            "found a list",
        ),
        (
            "/seed",
            serde_json::json!("2024"),
            "seed",
            "a whole number ≥ 0, like 2024",
        ),
        (
            "/consent",
            serde_json::json!("I agree"),
            "consent",
            "fields: text",
        ),
        (
            "/rubric",
            serde_json::json!(["x"]),
            "rubric",
            "expected an object like",
        ),
        (
            "/surveys",
            serde_json::json!({"intake": [{"id": "q", "prompt": "?", "type": "choice"}]}),
            "surveys.intake[0].type",
            "unknown value \"choice\"",
        ),
        (
            "/surveys",
            serde_json::json!({"intake": [{"id": "q", "prompt": "?", "type": 5}]}),
            "surveys.intake[0].type",
            "found the number 5",
        ),
        (
            "/surveys",
            serde_json::json!({"intake": [{"id": "q", "prompt": "?", "type": "single_choice", "options": "a, b"}]}),
            "surveys.intake[0].options",
            "expected a list",
        ),
    ];
    for (pointer, value, at, says) in cases {
        let mut doc = base.clone();
        match doc.pointer_mut(pointer) {
            Some(slot) => *slot = value.clone(),
            None => {
                let key = pointer.trim_start_matches('/');
                doc[key] = value.clone();
            }
        }
        let problems = parse_study(&doc.to_string()).expect_err(pointer);
        let first = problems.iter().next().unwrap();
        assert_eq!(first.at, *at, "{pointer}: {problems}");
        assert!(first.message.contains(says), "{pointer}: {problems}");
    }
}

/// The minimal study with its dimension's scale replaced by `scale`.
fn with_scale(scale: serde_json::Value) -> Result<juror_core::study::Study, Problems> {
    let text = std::fs::read_to_string(fixtures().join("valid/minimal.json")).unwrap();
    let mut raw: serde_json::Value = serde_json::from_str(&text).unwrap();
    raw["rubric"]["dimensions"][0]["scale"] = scale;
    raw["rubric"].as_object_mut().unwrap().remove("examples");
    parse_study(&raw.to_string())
}

/// `type: "slider"`: a step that divides the range, its two ends labelled and a middle label
/// if wanted; its points are its steps, and only they are on the scale.
#[test]
fn a_slider_scale_has_its_steps_and_labelled_ends() {
    use serde_json::json;
    let ends = |mid: Option<i32>| {
        let mut points = vec![
            json!({"value": 0, "label": "Nonsense"}),
            json!({"value": 100, "label": "Perfect"}),
        ];
        if let Some(v) = mid {
            points.push(json!({"value": v, "label": "Most meaning kept"}));
        }
        points
    };
    let study = with_scale(
        json!({"type": "slider", "min": 0, "max": 100, "step": 5, "points": ends(Some(50))}),
    )
    .unwrap_or_else(|p| panic!("{p}"));
    let scale = &study.rubric().dimensions[0].scale;
    assert!(scale.slider());
    assert_eq!(scale.points.len(), 21);
    assert_eq!(scale.step, 5);
    assert!(scale.contains(55) && !scale.contains(52) && !scale.contains(105));
    let labelled: Vec<i32> = scale
        .points
        .iter()
        .filter(|p| p.label.is_some())
        .map(|p| p.value)
        .collect();
    assert_eq!(labelled, [0, 50, 100]);
    // The default step is 1: 101 points.
    let study =
        with_scale(json!({"type": "slider", "min": 0, "max": 100, "points": ends(None)})).unwrap();
    assert_eq!(study.rubric().dimensions[0].scale.points.len(), 101);

    let refused = |scale: serde_json::Value, at: &str, message: &str| {
        let problems = with_scale(scale).unwrap_err();
        assert!(
            problems
                .iter()
                .any(|p| p.at == format!("rubric.dimensions[0].scale{at}")
                    && p.message.contains(message)
                    && !p.fix.is_empty()),
            "{at}: {message}: got\n{problems}"
        );
    };
    refused(
        json!({"type": "slider", "min": 0, "max": 100, "step": 7, "points": ends(None)}),
        ".step",
        "the step 7 does not divide the range 0..100 (100)",
    );
    refused(
        json!({"type": "slider", "min": 0, "max": 100, "step": 0, "points": ends(None)}),
        ".step",
        "the step 0 is not a whole number of at least 1",
    );
    refused(
        json!({"min": 0, "max": 10, "step": 2, "labels": "anchors", "points": [{"value": 0, "label": "a"}, {"value": 10, "label": "b"}]}),
        ".step",
        "a step is for a slider",
    );
    refused(
        json!({"type": "slider", "min": 0, "max": 100, "step": 10, "points": ends(Some(55))}),
        ".points[2].value",
        "55 is not a step of the slider (0 and every 10 after it)",
    );
    refused(
        json!({"type": "slider", "min": 0, "max": 100, "points": [{"value": 0, "label": "Nonsense"}]}),
        ".points",
        "no label for the slider's end 100",
    );
    refused(
        json!({"type": "slider", "min": 0, "max": 1000, "points": [{"value": 0, "label": "a"}, {"value": 1000, "label": "b"}]}),
        ".max",
        "the scale has 1001 points",
    );
    refused(
        json!({"type": "dial", "min": 0, "max": 100, "points": ends(None)}),
        ".type",
        "",
    );
}

/// A slider is for the rubric's dimensions: a survey question's scale is refused as one.
#[test]
fn a_question_cannot_be_a_slider() {
    let text = std::fs::read_to_string(fixtures().join("valid/minimal.json")).unwrap();
    let mut raw: serde_json::Value = serde_json::from_str(&text).unwrap();
    raw["rubric"]["output_questions"] = serde_json::json!([{
        "id": "fluent", "prompt": "How fluent?", "type": "likert",
        "scale": {"type": "slider", "min": 0, "max": 100, "points": [{"value": 0, "label": "a"}, {"value": 100, "label": "b"}]}
    }]);
    let problems = parse_study(&raw.to_string()).unwrap_err();
    assert!(
        problems
            .iter()
            .any(|p| p.at == "rubric.output_questions[0].scale.type"
                && p.message == "a slider is for the rubric's dimensions, not a question"),
        "{problems}"
    );
}

/// The plan's `standardise` takes "annotator" or "none"; another word is placed and explained.
#[test]
fn the_plans_standardise_is_checked() {
    let text = std::fs::read_to_string(fixtures().join("valid/minimal.json")).unwrap();
    let mut raw: serde_json::Value = serde_json::from_str(&text).unwrap();
    raw["analysis"] = serde_json::json!({"standardise": "annotator"});
    let study = parse_study(&raw.to_string()).unwrap_or_else(|p| panic!("{p}"));
    assert_eq!(
        study.analysis().map(|p| p.standardise),
        Some(juror_core::study::analysis_plan::Standardise::Annotator)
    );
    raw["analysis"] = serde_json::json!({"standardise": "rater"});
    let problems = parse_study(&raw.to_string()).unwrap_err();
    assert!(
        problems.iter().any(|p| p.at == "analysis.standardise"
            && p.message == "unknown standardisation \"rater\""
            && p.fix.contains("\"annotator\"")),
        "{problems}"
    );
}

/// The plan's hypotheses about slopes and preferences (`kind`, `corrected`, a one-sided
/// `alternative`): the HARE example's plan is accepted as written, and each mistake gets its
/// own message at its own place, with the fix.
#[test]
fn slope_and_preference_hypotheses_are_checked_each_at_its_place() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../assets/studies/hare-personalization.json");
    let text = std::fs::read_to_string(&path).unwrap();
    let hare: serde_json::Value = serde_json::from_str(&text).unwrap();
    let study = parse_study(&text).unwrap_or_else(|p| panic!("{p}"));
    let plan = study.analysis().unwrap();
    assert_eq!(plan.planned.len(), 7, "{:?}", plan.planned);
    assert!(plan.planned.iter().all(|t| !t.corrected));
    let problems = |hypothesis: serde_json::Value| {
        let mut v = hare.clone();
        v["analysis"]["hypotheses"] = serde_json::json!([hypothesis]);
        match parse_study(&v.to_string()) {
            Ok(_) => Vec::new(),
            Err(p) => p
                .iter()
                .map(|p| (p.at.clone(), p.message.clone(), p.fix.clone()))
                .collect(),
        }
    };
    use serde_json::json;
    // Accepted: a slope alone (against 0), one-sided and corrected with the comparisons.
    assert_eq!(
        problems(json!({"kind": "slope", "a": "hare", "alternative": "less", "corrected": true})),
        Vec::new()
    );
    for (hypothesis, at, message, fix) in [
        (
            json!({"kind": "trend", "a": "hare", "b": "rag"}),
            "analysis.hypotheses[0].kind",
            "unknown value \"trend\", expected one of \"difference\", \"slope\", \"preference\", \"divergence\"",
            "use one of the values listed",
        ),
        (
            json!({"kind": "slope", "a": "hare", "alternative": "larger"}),
            "analysis.hypotheses[0].alternative",
            "unknown value \"larger\", expected one of \"two-sided\", \"greater\", \"less\"",
            "use one of the values listed",
        ),
        (
            json!({"kind": "preference", "a": "hare"}),
            "analysis.hypotheses[0].b",
            "no system B",
            "only a \"slope\" hypothesis may leave b out",
        ),
        (
            json!({"kind": "slope", "a": "hare", "b": "rag", "margin": 0.5}),
            "analysis.hypotheses[0].margin",
            "a margin on a \"slope\" hypothesis",
            "remove the margin",
        ),
        (
            json!({"kind": "preference", "a": "hare", "b": "rag", "margin": 0.5}),
            "analysis.hypotheses[0].margin",
            "a margin on a \"preference\" hypothesis",
            "a non-inferiority margin is for differences of ratings",
        ),
        (
            json!({"a": "hare", "b": "rag", "corrected": false}),
            "analysis.hypotheses[0].corrected",
            "\"corrected\" on a comparison",
            "only a \"slope\" or \"preference\" hypothesis may stand apart",
        ),
        (
            json!({"kind": "preference", "a": "hare", "b": "rag", "dimension": "quality"}),
            "analysis.hypotheses[0].dimension",
            "a preference hypothesis has no dimension",
            "preferences are the pairs tasks' choices",
        ),
        (
            json!({"kind": "slope", "a": "hare", "b": ["rag", "gpt9"]}),
            "analysis.hypotheses[0].b[1]",
            "unknown system \"gpt9\"",
            "use one of: hare, rag, gpt2, random",
        ),
        (
            json!({"kind": "slope", "a": "hare", "dimension": "fluency"}),
            "analysis.hypotheses[0].dimension",
            "unknown dimension \"fluency\"",
            "use one of: quality, relevance, personalization, novelty",
        ),
        (
            json!({"kind": "slope", "a": "hare", "b": "hare"}),
            "analysis.hypotheses[0].b",
            "\"hare\" is compared with itself",
            "name another system as b",
        ),
        (
            json!({"kind": "preference", "a": "hare", "b": "rag", "corrected": "yes"}),
            "analysis.hypotheses[0].corrected",
            "expected true or false (without quotes), found the text \"yes\"",
            "write the value in the shape expected",
        ),
    ] {
        let got = problems(hypothesis.clone());
        assert_eq!(got.len(), 1, "{hypothesis}: {got:?}");
        let (got_at, got_message, got_fix) = &got[0];
        assert_eq!(got_at, at, "{hypothesis}");
        assert_eq!(got_message, message, "{hypothesis}");
        assert!(got_fix.contains(fix), "{hypothesis}: {got_fix}");
    }
}

/// The plan's confirmatory scope (`analysis.confirmatory`): the two-domains example's is
/// accepted and checked into (grouping, value); a grouping no item has, a value no item has,
/// none or two groupings, a blank value and an unknown field each get one message at their
/// place, with the fix.
#[test]
fn the_confirmatory_scope_is_checked_against_the_items() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets/studies/two-domains.json");
    let text = std::fs::read_to_string(&path).unwrap();
    let example: serde_json::Value = serde_json::from_str(&text).unwrap();
    let study = parse_study(&text).unwrap_or_else(|p| panic!("{p}"));
    let scope = study
        .analysis()
        .and_then(|p| p.confirmatory.clone())
        .unwrap();
    assert_eq!(
        (scope.grouping.as_str(), scope.group.as_str()),
        ("domain", "claude-skills")
    );
    let problems = |confirmatory: serde_json::Value| {
        let mut v = example.clone();
        v["analysis"]["confirmatory"] = confirmatory;
        match parse_study(&v.to_string()) {
            Ok(_) => Vec::new(),
            Err(p) => p
                .iter()
                .map(|p| (p.at.clone(), p.message.clone(), p.fix.clone()))
                .collect(),
        }
    };
    use serde_json::json;
    for (confirmatory, at, message, fix) in [
        (
            json!({"groups": {"topic": "skills"}}),
            "analysis.confirmatory.groups.topic",
            "no item has the grouping \"topic\"",
            "use a grouping the items have (domain)",
        ),
        (
            json!({"groups": {"domain": "skills"}}),
            "analysis.confirmatory.groups.domain",
            "no item has domain \"skills\"",
            "use one of: claude-skills, study-plans",
        ),
        (
            json!({"group": "claude-skills"}),
            "analysis.confirmatory.group",
            "no item has a `group`",
            "use a grouping the items have (domain)",
        ),
        (
            json!({}),
            "analysis.confirmatory",
            "no grouping named",
            "name one value of one grouping",
        ),
        (
            json!({"group": "a", "groups": {"domain": "claude-skills"}}),
            "analysis.confirmatory",
            "more than one grouping named",
            "\"groups\": {\"domain\": \"skills\"}",
        ),
        (
            json!({"groups": {"domain": " "}}),
            "analysis.confirmatory.groups.domain",
            "a blank value",
            "give the value whose items are confirmatory",
        ),
        (
            json!({"domain": "claude-skills"}),
            "analysis.confirmatory.domain",
            "unknown field \"domain\", expected \"group\" or \"groups\"",
            "",
        ),
    ] {
        let got = problems(confirmatory.clone());
        assert_eq!(got.len(), 1, "{confirmatory}: {got:?}");
        let (got_at, got_message, got_fix) = &got[0];
        assert_eq!(got_at, at, "{confirmatory}");
        assert_eq!(got_message, message, "{confirmatory}");
        assert!(got_fix.contains(fix), "{confirmatory}: {got_fix}");
    }
}

/// `juror validate` warns about a plan that asks for output divergence when no prompt is shared by
/// personal items of different annotators (here both items are p1's), not when one is.
#[test]
fn divergence_without_a_shared_prompt_is_warned_about() {
    let study = |second: &str| {
        let text = format!(
            r#"{{"format": "juror.study/1", "id": "s", "title": "t", "seed": 1,
            "estimated_minutes": 5, "systems": ["x", "y"],
            "rubric": {{"dimensions": [{{"id": "d", "label": "D", "question": "?",
              "scale": {{"min": 1, "max": 2, "points": [{{"value": 1, "label": "No"}},
              {{"value": 2, "label": "Yes"}}]}}}}]}},
            "design": {{"tasks": [{{"id": "r", "presentation": "single"}}]}},
            "analysis": {{"divergence": true}},
            "items": [{{"id": "a", "prompt": "?", "for": ["p1"], "outputs": {{"x": "1", "y": "2"}}}},
                      {{"id": "b", "prompt": " ? ", "for": [{second}], "outputs": {{"x": "1", "y": "2"}}}}]}}"#
        );
        parse_study(&text).unwrap_or_else(|p| panic!("{p}"))
    };
    assert_eq!(
        warnings::warnings(&study(r#""P1""#)),
        [warnings::Warning::DivergenceWithoutSharedPrompts]
    );
    assert_eq!(warnings::warnings(&study(r#""p2""#)), []);
    assert_eq!(
        warnings::warnings(&study("3")),
        [],
        "a slot is another annotator"
    );
}

/// `juror validate` warns about a slope hypothesis in a study whose items have no round (by its name,
/// else its system), once per hypothesis; with a round on an item, it is not.
#[test]
fn slope_hypotheses_without_rounds_are_warned_about() {
    let study = |round: &str| {
        let text = format!(
            r#"{{"format": "juror.study/1", "id": "s", "title": "t", "seed": 1,
            "estimated_minutes": 5, "systems": ["x", "y", "z"],
            "rubric": {{"dimensions": [{{"id": "d", "label": "D", "question": "?",
              "scale": {{"min": 1, "max": 2, "points": [{{"value": 1, "label": "No"}},
              {{"value": 2, "label": "Yes"}}]}}}}]}},
            "design": {{"tasks": [{{"id": "r", "presentation": "single"}}]}},
            "analysis": {{"hypotheses": [
              {{"name": "H3", "kind": "slope", "a": "x", "b": ["y", "z"]}},
              {{"kind": "slope", "a": "y"}},
              {{"kind": "preference", "a": "x", "b": "y"}}]}},
            "items": [{{"id": "a", "prompt": "?", {round} "outputs": {{"x": "1", "y": "2", "z": "3"}}}}]}}"#
        );
        parse_study(&text).unwrap_or_else(|p| panic!("{p}"))
    };
    assert_eq!(
        warnings::warnings(&study("")),
        [warnings::Warning::SlopeWithoutRounds {
            hypotheses: vec!["H3".into(), "the slope of \"y\"".into()]
        }]
    );
    assert_eq!(warnings::warnings(&study(r#""round": 1,"#)), []);
}

/// The annotator's page plays a study whatever its `analysis` section says (its reader keeps the
/// section as written and never reads it), while the researcher's reader reports the plan's
/// mistakes, of meaning and of shape, at their places, first among the file's other problems as
/// serde meets them.
#[test]
fn a_wrong_plan_is_played_and_the_researchers_reader_places_it() {
    let text = std::fs::read_to_string(fixtures().join("invalid/bad-analysis-plan.json")).unwrap();
    let played = juror_core::front::open::open(&text).unwrap_or_else(|p| panic!("{p}"));
    assert!(played.study.analysis().is_none());
    let problems = juror_core::analysis::plan_reader::open(&text)
        .err()
        .unwrap_or_else(|| {
            panic!("the researcher's reader accepted a wrong plan");
        });
    assert_eq!(
        problems.0[0].at, "analysis.hypotheses[0].b[0]",
        "{problems}"
    );

    let minimal = std::fs::read_to_string(fixtures().join("valid/minimal.json")).unwrap();
    let mut raw: serde_json::Value = serde_json::from_str(&minimal).unwrap();
    for (section, at, message) in [
        (
            serde_json::json!("yes"),
            "analysis",
            "expected an object like",
        ),
        (
            serde_json::json!({"tests": "t"}),
            "analysis.tests",
            "expected a list in square brackets",
        ),
        (
            serde_json::json!({"tset": ["t"]}),
            "analysis.tset",
            "unknown field \"tset\"",
        ),
    ] {
        raw["analysis"] = section.clone();
        let text = raw.to_string();
        assert!(juror_core::study::parse_study(&text).is_ok(), "{section}");
        let problems = parse_study(&text).unwrap_err();
        assert_eq!(problems.0[0].at, at, "{section}: {problems}");
        assert!(
            problems.0[0].message.starts_with(message),
            "{section}: {problems}"
        );
        // With another mistake in the file, the plan's comes first, and the other is said too.
        raw["items"][0]["outputs"] = serde_json::json!([]);
        let problems = parse_study(&raw.to_string()).unwrap_err();
        assert_eq!(problems.0[0].at, at, "{section}: {problems}");
        assert!(
            problems.iter().any(|p| p.at == "items[0].outputs"),
            "{section}: {problems}"
        );
        raw = serde_json::from_str(&minimal).unwrap();
    }
}

/// Seed audit 2026-12-01 (003): the published reasoning-trajectories study warned that an
/// output is rated "up to 27 times per item", counting the pairs of all its tokens; its plans
/// show each output at most as often as the original's pairs do.
#[test]
fn a_published_study_counts_repeated_ratings_from_its_plans() {
    use juror_core::study::warnings::Warning;
    let text = crate::support::example("reasoning-trajectories");
    let raw: juror_core::study::RawStudy = serde_json::from_str(&text).unwrap();
    let original = parse_study(&text).unwrap();
    let times_of = |study: &juror_core::study::Study| -> Vec<usize> {
        warnings::warnings(study)
            .into_iter()
            .filter_map(|w| match w {
                Warning::RatedInPairs { times, .. } => Some(times),
                _ => None,
            })
            .collect()
    };
    let before = times_of(&original);
    assert!(
        !before.is_empty() && before.iter().all(|t| *t > 1),
        "{before:?}"
    );
    let (sealed, _) = juror_core::publish::publish(&raw, &original, &[3; 32], 12, &[]);
    let published = juror_core::analysis::plan_reader::validate(&sealed).unwrap();
    let after = times_of(&published);
    assert_eq!(after.len(), before.len());
    assert!(
        after.iter().zip(&before).all(|(a, b)| a <= b),
        "published {after:?}, original {before:?}"
    );
}
