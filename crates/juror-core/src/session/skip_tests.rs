//! "Cannot judge" on a dimension in storage: a session saved before it existed still opens, one
//! with it reads back as saved, a copy that holds it where the study does not offer it is
//! refused, and two tabs' copies keep the later of a score and a "Cannot judge".

use super::open::{Stored, open};
use super::tests::{example, into_trials, slot};
use super::*;
use crate::study::Study;

const NOW: f64 = 1_795_300_000_000.0;

fn envelope_text(study: &Study, sha: &str, s: &Session) -> String {
    store::write(&store::Envelope {
        schema_version: store::SCHEMA_VERSION,
        study_id: study.id().to_owned(),
        study_sha256: sha.to_owned(),
        saved_at: NOW - 1000.0,
        revision: 3,
        app_version: "test".to_owned(),
        progress: s.progress.clone(),
        plan: Some(s.plan.fingerprint()),
    })
    .unwrap()
}

/// The kitchen example's first trial that rates one output (Correctness offers "Cannot judge",
/// Clarity does not), on screen.
fn on_a_rating_trial() -> (Study, String, Session, usize) {
    let (study, sha) = example("kitchen-qa");
    let (_, mut s) = into_trials("kitchen-qa");
    let index = (0..s.plan.trials.len())
        .find(|&i| study.design().tasks[s.plan.trials[i].task].id == "rate")
        .unwrap();
    update(&study, &mut s, Msg::GoTo(index), 5.0);
    (study, sha, s, index)
}

fn cannot(dimension: &str) -> Msg {
    Msg::answer(
        Target::Rating {
            position: 0,
            dimension: dimension.to_owned(),
        },
        Reply::CannotJudge,
    )
}

fn score(dimension: &str, value: i32) -> Msg {
    Msg::answer(
        Target::Rating {
            position: 0,
            dimension: dimension.to_owned(),
        },
        Reply::Score(value),
    )
}

#[test]
fn a_session_saved_before_cannot_judge_existed_still_opens() {
    // An output's answers as stored before: no `cannot_judge` member.
    let old =
        super::from_json::output_answers(&serde_json::json!({"ratings": {"correct": 2}})).unwrap();
    assert!(old.cannot_judge.is_empty());
    assert_eq!(old.ratings.get("correct"), Some(&2));
    // Without a "Cannot judge", the stored text is as it was (no new member), and opens.
    let (study, sha, mut s, index) = on_a_rating_trial();
    update(&study, &mut s, score("correct", 2), 6.0);
    let text = envelope_text(&study, &sha, &s);
    assert!(!text.contains("cannot_judge"), "{text}");
    let opened = open(&study, &sha, slot(1), Stored::Text(text), true, NOW);
    assert_eq!(opened.notice, None);
    assert_eq!(opened.session.progress.trials, s.progress.trials);
    // With one, it reads back as saved.
    update(&study, &mut s, cannot("correct"), 7.0);
    let text = envelope_text(&study, &sha, &s);
    assert!(text.contains(r#""cannot_judge":["correct"]"#), "{text}");
    let opened = open(&study, &sha, slot(1), Stored::Text(text), true, NOW);
    assert_eq!(opened.notice, None);
    let output = &opened.session.progress.trials[index].outputs[0];
    assert!(output.cannot_judge.contains(&"correct".to_owned()) && output.ratings.is_empty());
}

#[test]
fn a_stored_cannot_judge_where_the_study_offers_none_does_not_fit() {
    let (study, _, mut s, index) = on_a_rating_trial();
    update(&study, &mut s, cannot("correct"), 6.0);
    assert_eq!(fits(&study, &s.plan, &s.progress), Ok(()));
    let mut wrong = s.progress.clone();
    wrong.trials[index].outputs[0]
        .cannot_judge
        .push("clarity".to_owned());
    assert!(fits(&study, &s.plan, &wrong).is_err());
    // Both a score and "Cannot judge" for one dimension: not a state the page makes.
    let mut both = s.progress.clone();
    both.trials[index].outputs[0]
        .ratings
        .insert("correct".to_owned(), 2);
    assert!(fits(&study, &s.plan, &both).is_err());
}

#[test]
fn two_tabs_keep_the_later_of_a_score_and_a_cannot_judge() {
    let (study, _, s, index) = on_a_rating_trial();
    let (mut early, mut late) = (s.clone(), s.clone());
    update(&study, &mut early, cannot("correct"), 10.0);
    update(&study, &mut late, score("correct", 3), 20.0);
    for (a, b) in [(&early, &late), (&late, &early)] {
        let merged = store::merge(&a.progress, &b.progress);
        let o = &merged.trials[index].outputs[0];
        assert_eq!(o.ratings.get("correct"), Some(&3));
        assert!(o.cannot_judge.is_empty());
    }
    let (mut early, mut late) = (s.clone(), s);
    update(&study, &mut early, score("correct", 3), 10.0);
    update(&study, &mut late, cannot("correct"), 20.0);
    for (a, b) in [(&early, &late), (&late, &early)] {
        let merged = store::merge(&a.progress, &b.progress);
        let o = &merged.trials[index].outputs[0];
        assert!(o.ratings.is_empty());
        assert!(o.cannot_judge.contains(&"correct".to_owned()));
    }
}
