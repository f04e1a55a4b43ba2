//! Judges' verdicts in, and the trials out: verdicts are read apart from the human ratings
//! (the human report is the same with and without them), in every format (CSV, JSON Lines rows,
//! verdicts on the trials of `juror trials`), with a placed problem for every bad value; and a
//! verdict read back by trial id and label names the item and systems the plan showed.

use juror_core::analysis::run::{FileText, Request, run};
use juror_core::analysis::{Options, Problem};
use juror_core::plan::trials::{all_slots, judge_trials, to_jsonl};
use juror_core::plan::{Annotator, plan};
use juror_core::publish as seal;
use juror_core::study::raw::RawStudy;
use juror_core::study::{Study, parse_study, validate};
use serde_json::{Value, json};

use crate::support::{example, fixture};

const EXAMPLES: [&str; 8] = [
    "financial-analysis",
    "hare-personalization",
    "kitchen-qa",
    "pandalm",
    "reasoning-trajectories",
    "summeval",
    "video-trajectories",
    "work-intake",
];

fn hare_request(judges: Vec<FileText>) -> Request {
    Request {
        inputs: vec![FileText::new(
            "hare-ratings.csv",
            fixture("analysis/hare-ratings.csv"),
        )],
        judges,
        study: Some(FileText::new(
            "hare-personalization.json",
            example("hare-personalization"),
        )),
        options: Options {
            resamples: 20,
            ..Options::default()
        },
        ..Request::default()
    }
}

fn analysed(request: &Request) -> juror_core::analysis::run::Analysis {
    run(request).unwrap_or_else(|b| panic!("{}", b.join("\n")))
}

/// The report's JSON without the judges' section and the judges' problems.
fn human_part(json: &str, judge_files: &[&str]) -> Value {
    let mut v: Value = serde_json::from_str(json).unwrap();
    let o = v.as_object_mut().unwrap();
    o.remove("judges");
    if let Some(Value::Array(problems)) = o.get_mut("problems") {
        problems.retain(|p| !judge_files.contains(&p["file"].as_str().unwrap_or("")));
    }
    v
}

/// A judge's verdicts on every rating of the humans' table, shifted by one point where it can
/// be: the same cells, other scores.
fn judge_csv() -> String {
    let humans = fixture("analysis/hare-ratings.csv");
    let mut out = String::from("item_id,system_id,annotator_id,dimension,score,run,confidence\n");
    let mut seen = std::collections::BTreeSet::new();
    for line in humans.lines().skip(1) {
        let f: Vec<&str> = line.split(',').collect();
        if seen.insert((f[0], f[1], f[3])) {
            let score: i32 = f[4].parse().unwrap();
            out.push_str(&format!(
                "{},{},judge-x,{},{},1,0.8\n",
                f[0],
                f[1],
                f[3],
                (score % 5) + 1
            ));
        }
    }
    out
}

#[test]
fn judges_never_enter_the_human_statistics() {
    let without = analysed(&hare_request(Vec::new()));
    let with = analysed(&hare_request(vec![
        FileText::new("judge.csv", judge_csv()),
        FileText::new(
            "judge.jsonl",
            "{\"item_id\":\"r01\",\"system_id\":\"hare\",\"annotator_id\":\"judge-y\",\"dimension\":\"quality\",\"score\":4}\n",
        ),
    ]));
    assert!(
        with.judges.ratings.len() > 100,
        "{}",
        with.judges.ratings.len()
    );
    assert!(
        with.report.problems.is_empty(),
        "{:#?}",
        with.report.problems
    );
    assert_eq!(with.data, without.data, "the human data");
    assert_eq!(
        human_part(&with.report.to_json(), &["judge.csv", "judge.jsonl"]),
        human_part(&without.report.to_json(), &[]),
        "the human part of the report"
    );
    assert_eq!(
        without.report.to_json(),
        analysed(&hare_request(Vec::new())).report.to_json()
    );
    assert!(!without.report.to_json().contains("judge"));
    // The judges' data hold their own rows, with their run and confidence.
    let row = &with.judges.ratings[0];
    assert_eq!(
        (row.annotator.as_str(), row.run, row.confidence),
        ("judge-x", Some(1), Some(0.8))
    );
}

#[test]
fn a_judge_named_like_a_human_and_an_unreadable_judge_file_are_problems() {
    let with = analysed(&hare_request(vec![
        FileText::new(
            "judge.csv",
            "item_id,system_id,annotator_id,dimension,score\nr01,hare,p01,quality,4\nr01,rag,p01,quality,4\n",
        ),
        FileText {
            name: "dir/gone.jsonl".into(),
            text: Err("no such file".into()),
        },
    ]));
    let problems: Vec<String> = with
        .report
        .problems
        .iter()
        .map(Problem::to_string)
        .collect();
    assert_eq!(problems.len(), 2, "{problems:#?}");
    assert!(
        problems
            .iter()
            .any(|p| p.starts_with("gone.jsonl: cannot read the file (no such file)")),
        "{problems:#?}"
    );
    assert!(
        problems.iter().any(|p| p
            .starts_with("judge.csv: line 2: the judge \"p01\" has the id of a human annotator")
            && p.contains("annotator_id of its own")),
        "{problems:#?}"
    );
    // Still kept apart.
    assert_eq!(with.judges.ratings.len(), 2);
}

#[test]
fn the_judge_options_are_checked() {
    let mut request = hare_request(Vec::new());
    request.options.judges.epsilon = Some(1.0);
    request.options.judges.fdr = Some(0.0);
    request.options.judges.min_humans = Some(1);
    request.options.judges.min_instances = Some(1);
    let blocked = run(&request).err().unwrap_or_default();
    for needle in [
        "--epsilon 1:",
        "--fdr 0:",
        "--min-humans 1:",
        "--min-instances 1:",
    ] {
        assert!(
            blocked.iter().any(|b| b.starts_with(needle)),
            "{needle} in {blocked:#?}"
        );
    }
    assert_eq!(blocked.len(), 4, "{blocked:#?}");
}

fn judges_of(study: Option<&str>, name: &str, text: &str) -> juror_core::analysis::run::Analysis {
    analysed(&Request {
        judges: vec![FileText::new(name, text)],
        study: study.map(|s| FileText::new(format!("{s}.json"), example(s))),
        ..Request::default()
    })
}

fn places(analysis: &juror_core::analysis::run::Analysis) -> Vec<String> {
    analysis
        .report
        .problems
        .iter()
        .map(Problem::to_string)
        .collect()
}

#[test]
fn every_bad_line_of_a_json_lines_file_is_a_placed_problem() {
    let lines = [
        // 1: good
        r#"{"item_id":"r01","system_id":"hare","annotator_id":"j","dimension":"quality","score":"4","run":2,"confidence":0.5}"#,
        r#"{"item_id":"r01","system_id":"hare","annotator_id":"j","dimension":"quality","score":4,"run":0}"#,
        r#"{"item_id":"r01","system_id":"hare","annotator_id":"j","dimension":"quality","score":4,"confidence":1.5}"#,
        r#"{"item_id":"r01","system_id":"hare","annotator_id":"j""#,
        r#"["not", "an", "object"]"#,
        r#"{"trial":"1-1","annotator_id":"j","scores":{"Z":{"quality":3}}}"#,
        r#"{"trial":"1-9999","annotator_id":"j","preference":"A"}"#,
        r#"{"trial":"one","annotator_id":"j","preference":"A"}"#,
        r#"{"model":"x"}"#,
        "",
        // 11: good, pairwise
        r#"{"item_id":"r01","system_a":"hare","system_b":"rag","annotator_id":"j","preference":"b","shown_first":"b"}"#,
        r#"{"item_id":"r01","system_a":"hare","system_b":"rag","annotator_id":"j","preference":"maybe"}"#,
        r#"{"trial":"1-1","annotator_id":"j","scores":{"B":{"nonsense":3}}}"#,
    ];
    let text = lines.join("\n");
    let analysis = judges_of(Some("hare-personalization"), "v.jsonl", &text);
    let problems = places(&analysis);
    let want = [
        ("line 2", "run \"0\" is not a whole number from 1"),
        ("line 3", "confidence \"1.5\" is not a number from 0 to 1"),
        ("line 4", "not a JSON object"),
        ("line 5", "not a JSON object"),
        ("line 6", "\"Z\" is not a label of trial \"1-1\""),
        ("line 7", "slot 1 has no trial 9999"),
        ("line 8", "trial \"one\" is not a trial id"),
        ("line 9", "neither a rating"),
        ("line 12", "preference \"maybe\" is not a, b or tie"),
        ("line 13", "does not rate \"nonsense\""),
    ];
    for (at, message) in want {
        assert!(
            problems
                .iter()
                .any(|p| p.starts_with(&format!("v.jsonl: {at}: ")) && p.contains(message)),
            "{at}: {message} in {problems:#?}"
        );
    }
    assert_eq!(problems.len(), want.len(), "{problems:#?}");
    assert_eq!(analysis.judges.ratings.len(), 1);
    let rating = &analysis.judges.ratings[0];
    assert_eq!(
        (rating.run, rating.confidence, rating.score),
        (Some(2), Some(0.5), 4.0)
    );
    assert_eq!(analysis.judges.preferences.len(), 1);
    assert_eq!(analysis.judges.preferences[0].a_first, Some(false));
    assert_eq!(
        analysis.judges.files[0].kind,
        juror_core::analysis::InputKind::JsonLines
    );
}

#[test]
fn a_verdict_on_a_trial_without_the_study_says_to_give_it() {
    let analysis = judges_of(
        None,
        "v.jsonl",
        r#"{"trial":"1-1","annotator_id":"j","preference":"A"}"#,
    );
    let problems = places(&analysis);
    assert_eq!(problems.len(), 1, "{problems:#?}");
    assert!(
        problems[0].starts_with("v.jsonl: line 1: ") && problems[0].contains("--study"),
        "{problems:#?}"
    );
}

#[test]
fn runs_are_kept_apart_and_a_judges_orders_too_but_not_a_humans() {
    let csv = "item_id,system_a,system_b,annotator_id,preference,shown_first,run\n\
               i1,x,y,j,a,a,1\n\
               i1,y,x,j,b,a,1\n\
               i1,x,y,j,a,a,2\n\
               i1,x,y,j,b,a,2\n";
    let judged = judges_of(None, "j.csv", csv);
    // Rows 1 and 2 are the two orders of run 1; row 4 repeats row 3 (run 2, same order).
    assert_eq!(judged.judges.preferences.len(), 3);
    let problems = places(&judged);
    assert_eq!(problems.len(), 1, "{problems:#?}");
    assert!(problems[0].starts_with("j.csv: line 5: ") && problems[0].contains(", run 2"));
    let human = analysed(&Request {
        inputs: vec![FileText::new("h.csv", csv)],
        ..Request::default()
    });
    // A person's judgement in the other order is a duplicate; runs are still kept apart.
    assert_eq!(human.data.preferences.len(), 2);
    let ratings = "item_id,system_id,annotator_id,dimension,score,run\n\
                   i1,x,j,q,1,1\ni1,x,j,q,2,2\ni1,x,j,q,3,\ni1,x,j,q,4,2\n";
    let judged = judges_of(None, "r.csv", ratings);
    assert_eq!(judged.judges.ratings.len(), 3);
    assert_eq!(places(&judged).len(), 1, "{:#?}", places(&judged));
}

/// A study's systems turned into tokens that appear nowhere else (as `juror seal` does).
fn sealed(name: &str) -> (Study, Vec<String>) {
    let raw: RawStudy = serde_json::from_str(&example(name)).unwrap();
    let (sealed, key) = seal::seal(&raw, &[7; 32]);
    (
        validate(&sealed).unwrap(),
        key.systems.keys().cloned().collect(),
    )
}

#[test]
fn no_system_id_reaches_the_trials_of_any_example() {
    for name in EXAMPLES {
        let (study, tokens) = sealed(name);
        let text = to_jsonl(&judge_trials(&study, &all_slots(&study), true));
        assert!(text.lines().count() > 0, "{name}");
        for token in &tokens {
            assert!(!text.contains(token.as_str()), "{name}: {token}");
        }
    }
}

/// Made-up verdicts on every trial (both orders) of every example: each output scored with its
/// system's index on every dimension of its trial where the scale has it, the first-shown
/// output preferred; read back, every row names the item and system the plan showed.
#[test]
fn verdicts_on_the_trials_read_back_to_the_systems_the_plan_showed() {
    for name in EXAMPLES {
        let text = example(name);
        let study = parse_study(&text).unwrap();
        let slots = all_slots(&study);
        let trials = judge_trials(&study, &slots, true);
        let mut verdicts = String::new();
        let mut expected_ratings = 0;
        let mut expected_preferences = Vec::new();
        for t in &trials {
            let view: Value = serde_json::to_value(t).unwrap();
            let mut scores = serde_json::Map::new();
            let plan = plan(&study, &Annotator::slot(t.slot));
            let trial = &plan.trials[t.number - 1];
            let mut shown: Vec<usize> = trial.shown.iter().map(|s| s.system).collect();
            if t.swapped {
                shown.reverse();
            }
            for (o, output) in t.outputs.iter().enumerate() {
                let mut by_dimension = serde_json::Map::new();
                for d in &t.dimensions {
                    // The system's index, where the scale has it: read back as its system.
                    let value = d.scale[shown[o] % d.scale.len()].value;
                    by_dimension.insert(d.id.clone(), json!(value));
                    expected_ratings += 1;
                }
                // The letter alone for the first output, the whole label for the others.
                let key = if o == 0 {
                    output.label.rsplit(' ').next().unwrap_or("").to_owned()
                } else {
                    output.label.clone()
                };
                scores.insert(key, Value::Object(by_dimension));
            }
            let mut verdict = json!({
                "trial": t.trial,
                "annotator_id": "judge",
                "scores": scores,
                // A run of its own for each slot and order: no verdict repeats another.
                "run": 2 * t.slot - u32::from(!t.swapped),
            });
            let pair = t.outputs.len() == 2
                && view["preference"]["kind"]
                    .as_str()
                    .is_some_and(|k| k != "rank");
            if pair {
                verdict["preference"] = json!(t.outputs[0].label);
                expected_preferences.push((t.item_id.clone(), shown[0], t.swapped));
            }
            verdicts.push_str(&verdict.to_string());
            verdicts.push('\n');
        }
        let analysis = judges_of(Some(name), "verdicts.jsonl", &verdicts);
        assert!(
            places(&analysis).is_empty(),
            "{name}: {:#?}",
            places(&analysis)
        );
        let systems = study.systems();
        for row in &analysis.judges.ratings {
            let index = systems
                .iter()
                .position(|s| *s == row.system.as_str())
                .unwrap();
            let scale = &study.dimension(&row.dimension).unwrap().scale.points;
            assert_eq!(
                row.score,
                f64::from(scale[index % scale.len()].value),
                "{name}: {row:?}"
            );
        }
        assert_eq!(
            analysis.judges.ratings.len() + analysis.judges.repeats.len(),
            expected_ratings,
            "{name}"
        );
        let mut prefs = analysis.judges.preferences.iter();
        assert_eq!(
            analysis.judges.preferences.len(),
            expected_preferences.len(),
            "{name}"
        );
        for (item, first, swapped) in expected_preferences {
            let row = prefs
                .next()
                .unwrap_or_else(|| panic!("{name}: a preference"));
            assert_eq!(row.item.as_str(), item, "{name}");
            assert_eq!(row.a_first, Some(!swapped), "{name}");
            let chosen = match row.outcome {
                juror_core::stats::preference::Outcome::A => &row.system_a,
                juror_core::stats::preference::Outcome::B => &row.system_b,
                juror_core::stats::preference::Outcome::Tie => panic!("{name}: a tie"),
            };
            assert_eq!(
                chosen.as_str(),
                systems[first],
                "{name}: the output shown first"
            );
        }
    }
}

/// The study's `analysis.judges` fixes ε (and the rest) before the data; a flag overrides it;
/// an out-of-range value is a placed problem of the study.
#[test]
fn the_study_sets_the_judge_options_and_a_flag_overrides_them() {
    let with_settings = |settings: &str| {
        example("hare-personalization").replacen(
            "\"analysis\": {",
            &format!("\"analysis\": {{\n    \"judges\": {settings},"),
            1,
        )
    };
    let epsilon_of = |request: &Request| {
        let analysis = analysed(request);
        let judge = &analysis.report.judges[0];
        let test = judge
            .dimensions
            .first()
            .map(|d| &d.alt_test)
            .or(judge.preferences.as_ref().map(|p| &p.alt_test))
            .expect("a test");
        (test.epsilon, test.q)
    };
    let mut request = hare_request(vec![FileText::new("judge.csv", judge_csv())]);
    assert_eq!(epsilon_of(&request), (0.2, 0.05));
    request.study = Some(FileText::new(
        "hare-personalization.json",
        with_settings(r#"{"epsilon": 0.1, "fdr": 0.1}"#),
    ));
    assert_eq!(epsilon_of(&request), (0.1, 0.1));
    request.options.judges.epsilon = Some(0.15);
    assert_eq!(epsilon_of(&request), (0.15, 0.1));
    request.study = Some(FileText::new(
        "hare-personalization.json",
        with_settings(r#"{"epsilon": 1.5}"#),
    ));
    let blocked = run(&request).err().unwrap_or_default();
    assert!(
        blocked
            .iter()
            .any(|b| b.contains("analysis.judges.epsilon") && b.contains("1.5 is out of range")),
        "{blocked:#?}"
    );
}
