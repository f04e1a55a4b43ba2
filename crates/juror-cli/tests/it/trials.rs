//! `juror trials` and `juror analyze --judges` end to end: the trials of a slot, of every slot
//! and in both orders as JSON Lines; a slot the study does not have; a judge's verdicts on them
//! read back beside the human ratings, which they leave as they were; the judge options'
//! ranges.

use serde_json::Value;

use super::support::{fixture, juror, s, scratch, stderr, stdout};

fn study(name: &str) -> String {
    fixture(&format!("assets/studies/{name}.json"))
        .display()
        .to_string()
}

fn lines(text: &str) -> Vec<Value> {
    text.lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

#[test]
fn the_trials_of_a_slot_every_slot_and_both_orders() {
    let pandalm = study("pandalm");
    let one = juror().args(["trials", &pandalm]).output().unwrap();
    assert_eq!(one.status.code(), Some(0), "{}", stderr(&one));
    let first = lines(&stdout(&one));
    assert!(!first.is_empty());
    assert!(
        first
            .iter()
            .all(|t| t["slot"] == 1 && t["swapped"] == false)
    );
    assert_eq!(first[0]["trial"], "1-1");
    let outputs = first[0]["outputs"].as_array().unwrap();
    assert_eq!(outputs.len(), 2);
    assert!(outputs[0]["label"].is_string() && outputs[0]["text"].is_string());
    assert!(first[0]["preference"]["labels"].is_array(), "{}", first[0]);

    let both = juror()
        .args([
            "trials",
            &pandalm,
            "--slot",
            "2",
            "--both-orders",
            "--format",
            "jsonl",
        ])
        .output()
        .unwrap();
    let both = lines(&stdout(&both));
    assert_eq!(both.len(), 2 * first.len());
    assert_eq!(
        both[1]["trial"],
        format!("{}-swapped", both[0]["trial"].as_str().unwrap())
    );
    assert_eq!(both[1]["outputs"][0]["text"], both[0]["outputs"][1]["text"]);

    let dir = scratch("trials-all");
    let out = dir.join("all.jsonl");
    let all = juror()
        .args(["trials", &pandalm, "--all", "--out", s(&out)])
        .output()
        .unwrap();
    assert_eq!(all.status.code(), Some(0), "{}", stderr(&all));
    let all = lines(&std::fs::read_to_string(&out).unwrap());
    // Every slot of pandalm compares both systems on every item: each pair once.
    assert_eq!(all.len(), first.len());
    // With an assignment, slots rate different items: every slot's own, still each once.
    let all = juror()
        .args(["trials", &study("reasoning-trajectories"), "--all"])
        .output()
        .unwrap();
    let all = lines(&stdout(&all));
    let slots: std::collections::BTreeSet<u64> =
        all.iter().map(|t| t["slot"].as_u64().unwrap()).collect();
    assert!(slots.len() >= 2, "{slots:?}");
    let mut seen = std::collections::BTreeSet::new();
    for t in &all {
        let mut texts: Vec<String> = t["outputs"]
            .as_array()
            .unwrap()
            .iter()
            .map(|o| o["text"].as_str().unwrap().to_owned())
            .collect();
        texts.sort();
        let judgement = (t["task_id"].to_string(), t["item_id"].to_string(), texts);
        assert!(seen.insert(judgement), "{} twice", t["trial"]);
    }
}

#[test]
fn a_slot_the_study_does_not_have_is_refused() {
    // The trajectories study has 9 slots.
    let out = juror()
        .args(["trials", &study("reasoning-trajectories"), "--slot", "10"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("--slot 10: the study's slots run from 1 to 9"),
        "{}",
        stderr(&out)
    );
    assert!(stdout(&out).is_empty());
}

#[test]
fn a_judges_verdicts_on_the_trials_are_read_beside_the_human_ratings() {
    let hare = study("hare-personalization");
    let dir = scratch("trials-judges");
    let trials = juror()
        .args(["trials", &hare, "--both-orders"])
        .output()
        .unwrap();
    let mut verdicts = String::new();
    for t in lines(&stdout(&trials)) {
        let mut verdict = serde_json::json!({"trial": t["trial"], "annotator_id": "judge"});
        if t["preference"].is_object() {
            verdict["preference"] = t["outputs"][0]["label"].clone();
        }
        let mut scores = serde_json::Map::new();
        for output in t["outputs"].as_array().unwrap() {
            let by: serde_json::Map<String, Value> = t["dimensions"]
                .as_array()
                .unwrap()
                .iter()
                .map(|d| {
                    (
                        d["id"].as_str().unwrap().to_owned(),
                        d["scale"][0]["value"].clone(),
                    )
                })
                .collect();
            if !by.is_empty() {
                scores.insert(
                    output["label"].as_str().unwrap().to_owned(),
                    Value::Object(by),
                );
            }
        }
        if !scores.is_empty() {
            verdict["scores"] = Value::Object(scores);
        }
        verdicts.push_str(&verdict.to_string());
        verdicts.push('\n');
    }
    let judge = dir.join("judge.jsonl");
    std::fs::write(&judge, verdicts).unwrap();
    let humans = fixture("crates/juror-core/tests/fixtures/analysis/hare-ratings.csv");
    let analyze = |judges: bool| {
        let mut cmd = juror();
        cmd.args(["analyze", "--resamples", "20", "--study", &hare, s(&humans)]);
        if judges {
            cmd.args(["--judges", s(&judge), "--epsilon", "0.15"]);
        }
        cmd.output().unwrap()
    };
    let (without, with) = (analyze(false), analyze(true));
    assert_eq!(with.status.code(), Some(0), "{}", stderr(&with));
    let mut report: Value = serde_json::from_slice(&with.stdout).unwrap();
    report.as_object_mut().unwrap().remove("judges");
    let alone: Value = serde_json::from_slice(&without.stdout).unwrap();
    assert_eq!(report, alone, "the human report is the same with a judge");
    // Without the study, a verdict on a trial cannot be resolved: a placed problem, exit 1.
    let unresolved = juror()
        .args([
            "analyze",
            "--resamples",
            "20",
            s(&humans),
            "--judges",
            s(&judge),
        ])
        .output()
        .unwrap();
    assert_eq!(unresolved.status.code(), Some(1));
    assert!(
        stderr(&unresolved)
            .contains("judge.jsonl: line 1: a verdict on the trial \"1-1\" needs the study"),
        "{}",
        stderr(&unresolved)
    );
}

#[test]
fn judge_options_out_of_range_block_the_analysis() {
    let csv = fixture("crates/juror-core/tests/fixtures/analysis/hare-ratings.csv");
    let out = juror()
        .args([
            "analyze",
            s(&csv),
            "--epsilon",
            "1.2",
            "--min-humans",
            "1",
            "--fdr",
            "0",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    for needle in [
        "--epsilon 1.2: give a number from 0",
        "--min-humans 1:",
        "--fdr 0:",
        "nothing was analysed",
    ] {
        assert!(err.contains(needle), "{needle} in {err}");
    }
}
