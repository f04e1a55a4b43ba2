//! `juror analyze` on the ratings files of a study published with `juror publish`: without the
//! key, refused at once with one sentence that says to give the key and the published study
//! (exit 2, no report); with them, the report names the systems.
//!
//! The study is a small one as a new researcher writes it (6 items, 3 systems, two scales, pairs
//! with a preference that allows a tie); three annotators complete it through the page's own
//! core (the session reducer and the export), as `crowd.rs` does.

use std::path::{Path, PathBuf};
use std::process::Output;

use juror_core::front::open::open;
use juror_core::plan::Annotator;
use juror_core::session::answers::Preference;
use juror_core::session::ratings::export;
use juror_core::session::{Msg, Phase, Reply, Session, Target, update};
use serde_json::{Value, json};

use super::support::{self, s, scratch, stderr};

fn juror(args: &[&str]) -> Output {
    support::juror().args(args).output().unwrap()
}

/// The points 1 to `top`, each labelled with its number.
fn points(top: i32) -> Value {
    (1..=top)
        .map(|value| json!({ "value": value, "label": value.to_string() }))
        .collect()
}

/// Six cooking questions, three systems, correctness (1–5) and clarity (1–3), in pairs.
fn kitchen() -> Value {
    let items: Vec<Value> = ["egg", "rice", "pasta", "chicken", "bread", "steak"]
        .iter()
        .map(|id| {
            json!({
                "id": id,
                "prompt": format!("How do I cook {id}?"),
                "outputs": {
                    "small-lm": format!("Cook the {id}."),
                    "big-lm": format!("Cook the {id} carefully, then rest it."),
                    "retrieval": format!("A recipe for {id} says: cook it well."),
                }
            })
        })
        .collect();
    json!({
        "format": "juror.study/1",
        "id": "kitchen-qa",
        "title": "Kitchen questions",
        "seed": 2024,
        "systems": ["small-lm", "big-lm", "retrieval"],
        "rubric": { "dimensions": [
            { "id": "correct", "label": "Correctness", "question": "Would it work?",
              "scale": { "min": 1, "max": 5, "points": points(5) } },
            { "id": "clarity", "label": "Clarity", "question": "Is it easy to follow?",
              "scale": { "min": 1, "max": 3, "points": points(3) } }
        ] },
        "design": { "tasks": [ {
            "id": "compare",
            "title": "Compare two answers",
            "presentation": "pairs",
            "preference": { "type": "choice", "question": "Which is better?", "allow_tie": true }
        } ] },
        "items": items
    })
}

/// Publishes the study into `dir` (`site/studies/kitchen.json`, `keys/kitchen.key.json`) and
/// writes the ratings files of slots 1 to `annotators`; returns the study, the key and the
/// files.
fn published_ratings(dir: &Path, annotators: u32) -> (PathBuf, PathBuf, Vec<String>) {
    let original = dir.join("kitchen.json");
    std::fs::write(&original, kitchen().to_string()).unwrap();
    let (site, keys) = (dir.join("site"), dir.join("keys"));
    let out = juror(&[
        "publish",
        s(&original),
        "--site",
        s(&site),
        "--keys",
        s(&keys),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let study_path = site.join("studies/kitchen.json");
    let text = std::fs::read_to_string(&study_path).unwrap();
    let opened = open(&text).unwrap();
    let study = &opened.study;
    let mut files = Vec::new();
    for slot in 1..=annotators {
        let mut session = Session::new(study, Annotator::slot(slot));
        let mut now = 1_795_302_000_000.0;
        let mut step = |session: &mut Session, msg: Msg| {
            now += 2_000.0;
            update(study, session, msg, now);
        };
        step(&mut session, Msg::Start);
        step(&mut session, Msg::FinishInstructions);
        for t in 0..session.plan.trials.len() {
            for position in 0..2 {
                for (dimension, top) in [("correct", 5), ("clarity", 3)] {
                    let value =
                        1 + i32::try_from((t * 3 + position + slot as usize) % top).unwrap();
                    let dimension = dimension.to_owned();
                    step(
                        &mut session,
                        Msg::answer(
                            Target::Rating {
                                position,
                                dimension,
                            },
                            Reply::Score(value),
                        ),
                    );
                }
            }
            let preference = match t % 3 {
                0 => Preference::Tie,
                k => Preference::Choice { position: k - 1 },
            };
            step(
                &mut session,
                Msg::answer(Target::Preference, Reply::Preference(preference)),
            );
            step(&mut session, Msg::Next);
        }
        assert_eq!(session.progress.phase, Phase::Done);
        let file = export(study, &opened.sha256, &session, "0.1.0", now);
        let path = dir.join(format!("juror-kitchen-qa-slot{slot}-2026-11-25.json"));
        std::fs::write(&path, file.to_json()).unwrap();
        files.push(path.display().to_string());
    }
    (study_path, keys.join("kitchen.key.json"), files)
}

#[test]
fn ratings_of_a_published_study_without_the_key_are_refused_in_one_sentence() {
    let dir = scratch("analyze-published");
    let (study, key, files) = published_ratings(&dir, 2);
    let files: Vec<&str> = files.iter().map(String::as_str).collect();
    let analyze = |head: &[&str]| {
        let mut args = vec!["analyze", "--resamples", "20"];
        args.extend(head);
        args.extend(&files);
        juror(&args)
    };

    // The files alone, then with the published study but no key: refused before any report.
    for head in [vec![], vec!["--study", s(&study)]] {
        let out = analyze(&head);
        assert_eq!(out.status.code(), Some(2), "{head:?}: {}", stderr(&out));
        assert!(out.stdout.is_empty(), "{head:?}: no report");
        let err = stderr(&out);
        let lines: Vec<&str> = err.lines().collect();
        assert_eq!(lines.len(), 2, "{err}");
        assert!(
            lines[0].starts_with(
                "juror-kitchen-qa-slot1-2026-11-25.json (and 1 other ratings file): these \
                 ratings are of the published study \"kitchen-qa\""
            ),
            "{err}"
        );
        for needle in ["`juror publish`", "--key", "--study", "Choose the key"] {
            assert!(lines[0].contains(needle), "{needle} in {err}");
        }
        assert_eq!(lines[1], "nothing was analysed");
    }

    // With the key and the published study: the systems by name.
    let out = analyze(&["--study", s(&study), "--key", s(&key)]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let mut systems: Vec<&str> = report["dimensions"][0]["systems"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["system"].as_str().unwrap())
        .collect();
    systems.sort_unstable();
    assert_eq!(systems, ["big-lm", "retrieval", "small-lm"]);
    assert_eq!(report["dimensions"][0]["items"], 6);
}
