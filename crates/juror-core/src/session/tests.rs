//! The reducer's journeys, natively: every phase transition and every refusal.

use std::collections::BTreeMap;

use super::ratings::{export, parse, restore};
use super::view::survey_questions;
use super::*;
use crate::base::digest::sha256_hex;
use crate::plan::{Annotator, Format};
use crate::study::{
    PreferenceKind, Question, QuestionKind, RankOptions, Requirement, Study, parse_study,
};

pub(super) fn example(name: &str) -> (Study, String) {
    let path = format!(
        "{}/../../assets/studies/{name}.json",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(path).unwrap();
    (parse_study(&text).unwrap(), sha256_hex(&text))
}

/// The trials as a ratings file gives them back: the merge's stamps are for storage only.
fn without_stamps(trials: &[TrialAnswers]) -> Vec<TrialAnswers> {
    trials
        .iter()
        .map(|t| TrialAnswers {
            stamps: BTreeMap::new(),
            ..t.clone()
        })
        .collect()
}

pub(super) fn slot(n: u32) -> Annotator {
    Annotator::slot(n)
}

/// A valid answer to any question.
fn answer_for(q: &Question, labels: &[String]) -> Answer {
    match &q.kind {
        QuestionKind::Likert(scale) => Answer::Scale(scale.max()),
        QuestionKind::SingleChoice(o) => Answer::Choice(o[0].clone()),
        QuestionKind::MultipleChoice {
            options,
            min_selected,
            ..
        } => Answer::Choices(
            options
                .iter()
                .take((*min_selected).max(1) as usize)
                .cloned()
                .collect(),
        ),
        QuestionKind::ShortText { .. } | QuestionKind::LongText { .. } => {
            Answer::Text("fine".into())
        }
        QuestionKind::Number { min, .. } => Answer::Number(min.unwrap_or(3.0)),
        QuestionKind::Rank(RankOptions::Fixed(o)) => Answer::Rank(o.clone()),
        QuestionKind::Rank(RankOptions::Systems) => Answer::Rank(labels.to_vec()),
    }
}

/// Answers every question of the current trial (first scale point, first option, ...).
pub(super) fn answer_trial(study: &Study, s: &mut Session, now: f64) {
    let index = s.progress.current;
    let trial = s.plan.trials[index].clone();
    let task = study.design().tasks[trial.task].clone();
    for position in 0..trial.shown.len() {
        if task.spans.is_some() {
            update(
                study,
                s,
                Msg::answer(Target::Spans { position }, Reply::Ticked),
                now,
            );
        }
        for d in &task.dimensions {
            let value = study.dimension(d).unwrap().scale.min();
            update(
                study,
                s,
                Msg::answer(
                    Target::Rating {
                        position,
                        dimension: d.clone(),
                    },
                    Reply::Score(value),
                ),
                now,
            );
        }
        for q in &task.output_questions {
            let question = study
                .rubric()
                .output_questions
                .iter()
                .find(|x| &x.id == q)
                .unwrap();
            let a = answer_for(question, &s.system_labels(study));
            update(
                study,
                s,
                Msg::answer(
                    Target::OutputQuestion {
                        position,
                        question: q.clone(),
                    },
                    Reply::Answer(a),
                ),
                now,
            );
        }
    }
    if let Some(p) = &task.preference {
        let pref = match p.kind {
            PreferenceKind::Best => Preference::Best { position: 0 },
            PreferenceKind::Choice => Preference::Choice { position: 1 },
            PreferenceKind::Rank => Preference::Rank {
                order: (0..trial.shown.len()).rev().collect(),
            },
            PreferenceKind::Graded => Preference::Graded { grade: 1 },
            PreferenceKind::BestWorst => Preference::BestWorst {
                best: Some(0),
                worst: Some(1),
            },
        };
        update(
            study,
            s,
            Msg::answer(Target::Preference, Reply::Preference(pref)),
            now,
        );
        if p.explanation == Requirement::Required {
            update(
                study,
                s,
                Msg::answer(Target::Explanation, Reply::Text("because".into())),
                now,
            );
        }
    }
    if task.notes == Requirement::Required {
        update(
            study,
            s,
            Msg::answer(Target::Notes, Reply::Text("noted".into())),
            now,
        );
    }
}

pub(super) fn answer_survey(study: &Study, s: &mut Session, survey: Survey, now: f64) {
    let labels = s.system_labels(study);
    for q in survey_questions(study, survey).to_vec() {
        let answer = Some(answer_for(&q, &labels));
        update(
            study,
            s,
            Msg::Answer {
                target: Target::Survey {
                    question: q.id.clone(),
                },
                reply: answer.map(Reply::Answer),
                advance: false,
            },
            now,
        );
    }
}

/// Drives a session from the welcome page to the end, answering everything.
fn complete(study: &Study, s: &mut Session) -> f64 {
    let mut now = 1_795_300_000_000.0;
    let mut steps = 0;
    while s.progress.phase != Phase::Done {
        steps += 1;
        assert!(steps < 100_000, "stuck in {:?}", s.progress.phase);
        now += 1500.0;
        match s.progress.phase {
            Phase::Welcome => drop(update(study, s, Msg::Start, now)),
            Phase::Consent => drop(update(study, s, Msg::Consent(true), now)),
            Phase::Instructions => drop(update(study, s, Msg::FinishInstructions, now)),
            Phase::Intake => {
                answer_survey(study, s, Survey::Intake, now);
                update(study, s, Msg::SubmitSurvey(Survey::Intake), now);
            }
            Phase::Trials => {
                answer_trial(study, s, now);
                now += 4000.0;
                let cmds = update(study, s, Msg::Next, now);
                assert!(s.missing.is_empty(), "{:?}", s.missing);
                assert!(cmds.contains(&Cmd::Save));
            }
            Phase::Exit => {
                answer_survey(study, s, Survey::Exit, now);
                update(study, s, Msg::SubmitSurvey(Survey::Exit), now);
            }
            Phase::Declined | Phase::Done | Phase::Screened => unreachable!(),
        }
    }
    now
}

#[test]
fn every_example_study_can_be_completed_and_exported() {
    for name in [
        "work-intake",
        "hare-personalization",
        "reasoning-trajectories",
        "financial-analysis",
        "summeval",
        "summeval-esa",
        "summeval-best-worst",
        "pandalm",
    ] {
        let (study, hash) = example(name);
        let mut s = Session::new(&study, slot(2));
        let now = complete(&study, &mut s);
        assert!(s.progress.trials.iter().all(|t| t.done), "{name}");
        assert!(s.progress.finished_at.is_some());
        let file = export(&study, &hash, &s, "test", now);
        assert!(file.complete);
        let text = file.to_json();
        let back = parse(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(back, file);
        // The file restores to the same progress.
        let progress = restore(&study, &hash, &back).unwrap();
        assert_eq!(
            progress.trials,
            without_stamps(&s.progress.trials),
            "{name}"
        );
        assert_eq!(progress.intake, s.progress.intake);
        assert_eq!(progress.exit, s.progress.exit);
        assert_eq!(progress.phase, Phase::Done);
        // The CSV has a header and one row per answer at least.
        let csv = file.to_csv();
        assert!(csv.lines().count() > s.plan.trials.len(), "{name}");
    }
}

#[test]
fn consent_declined_records_nothing() {
    let (study, _) = example("hare-personalization");
    let mut s = Session::new(&study, slot(1));
    assert!(!update(&study, &mut s, Msg::Start, 1.0).contains(&Cmd::Save));
    assert_eq!(s.progress.phase, Phase::Consent);
    let cmds = update(&study, &mut s, Msg::Consent(false), 2.0);
    assert_eq!(s.progress.phase, Phase::Declined);
    assert!(
        !cmds.contains(&Cmd::Save),
        "a declined consent must not be stored"
    );
    assert_eq!(s.progress.started_at, None);
    // Nothing moves a declined session on.
    for msg in [
        Msg::Start,
        Msg::FinishInstructions,
        Msg::Next,
        Msg::Consent(true),
    ] {
        update(&study, &mut s, msg, 3.0);
        assert_eq!(s.progress.phase, Phase::Declined);
    }
}

#[test]
fn consent_given_goes_to_instructions_then_intake() {
    let (study, _) = example("hare-personalization");
    let mut s = Session::new(&study, slot(1));
    update(&study, &mut s, Msg::Start, 1.0);
    assert!(update(&study, &mut s, Msg::Consent(true), 2.0).contains(&Cmd::Save));
    assert_eq!(
        (s.progress.phase, s.progress.consent_at),
        (Phase::Instructions, Some(2.0))
    );
    update(&study, &mut s, Msg::FinishInstructions, 3.0);
    assert_eq!(s.progress.phase, Phase::Intake);
    update(&study, &mut s, Msg::BackToInstructions, 3.5);
    assert_eq!(s.progress.phase, Phase::Instructions);
}

#[test]
fn a_study_without_consent_or_intake_goes_straight_through() {
    let (study, _) = example("financial-analysis");
    let mut s = Session::new(&study, slot(1));
    update(&study, &mut s, Msg::Start, 1.0);
    assert_eq!(s.progress.phase, Phase::Instructions);
    update(&study, &mut s, Msg::FinishInstructions, 2.0);
    assert_eq!(s.progress.phase, Phase::Trials);
    assert_eq!(s.progress.trials[0].first_shown, Some(2.0));
}

#[test]
fn the_intake_survey_refuses_missing_and_bad_answers() {
    let (study, _) = example("hare-personalization");
    let mut s = Session::new(&study, slot(1));
    for m in [Msg::Start, Msg::Consent(true), Msg::FinishInstructions] {
        update(&study, &mut s, m, 1.0);
    }
    let cmds = update(&study, &mut s, Msg::SubmitSurvey(Survey::Intake), 2.0);
    assert_eq!(s.progress.phase, Phase::Intake);
    let required = study.intake().iter().filter(|q| q.required).count();
    assert_eq!(s.missing.len(), required);
    assert!(matches!(&cmds[..], [Cmd::Focus(id)] if id.starts_with("q-survey-")));
    // Topics: exactly three must be ticked.
    let topics = study
        .intake()
        .iter()
        .find(|q| matches!(q.kind, QuestionKind::MultipleChoice { .. }))
        .unwrap();
    let QuestionKind::MultipleChoice {
        options,
        min_selected,
        ..
    } = &topics.kind
    else {
        unreachable!()
    };
    answer_survey(&study, &mut s, Survey::Intake, 3.0);
    let one = Some(Answer::Choices(vec![options[0].clone()]));
    update(
        &study,
        &mut s,
        Msg::Answer {
            target: Target::Survey {
                question: topics.id.clone(),
            },
            reply: one.map(Reply::Answer),
            advance: false,
        },
        4.0,
    );
    update(&study, &mut s, Msg::SubmitSurvey(Survey::Intake), 5.0);
    assert_eq!(s.progress.phase, Phase::Intake);
    assert_eq!(s.missing.len(), 1);
    assert_eq!(
        s.missing[0].reason,
        format!("choose exactly {min_selected}")
    );
    answer_survey(&study, &mut s, Survey::Intake, 6.0);
    update(&study, &mut s, Msg::SubmitSurvey(Survey::Intake), 7.0);
    assert_eq!(s.progress.phase, Phase::Trials);
}

pub(super) fn into_trials(name: &str) -> (Study, Session) {
    let (study, _) = example(name);
    let mut s = Session::new(&study, slot(1));
    let mut now = 1.0;
    while s.progress.phase != Phase::Trials {
        now += 1.0;
        match s.progress.phase {
            Phase::Welcome => drop(update(&study, &mut s, Msg::Start, now)),
            Phase::Consent => drop(update(&study, &mut s, Msg::Consent(true), now)),
            Phase::Instructions => drop(update(&study, &mut s, Msg::FinishInstructions, now)),
            Phase::Intake => {
                answer_survey(&study, &mut s, Survey::Intake, now);
                update(&study, &mut s, Msg::SubmitSurvey(Survey::Intake), now);
            }
            _ => unreachable!(),
        }
    }
    (study, s)
}

#[test]
fn next_is_refused_until_required_answers_are_given_and_says_which() {
    let (study, mut s) = into_trials("work-intake");
    let cmds = update(&study, &mut s, Msg::Next, 10.0);
    assert_eq!(s.progress.current, 0);
    // Three dimensions for each of four outputs, and the preference; notes are optional.
    assert_eq!(s.missing.len(), 13);
    assert_eq!(s.missing[0].label, "Relevance — System A");
    assert_eq!(cmds, vec![Cmd::Focus("q-rate-0-relevance".into())]);
    assert!(s.missing.iter().any(|m| m.target == Target::Preference));
    // Answering clears the answered entries from the list as they come.
    update(
        &study,
        &mut s,
        Msg::answer(
            Target::Rating {
                position: 0,
                dimension: "relevance".into(),
            },
            Reply::Score(4),
        ),
        11.0,
    );
    assert_eq!(s.missing.len(), 12);
    answer_trial(&study, &mut s, 12.0);
    update(&study, &mut s, Msg::Next, 13.0);
    assert!(s.missing.is_empty());
    assert_eq!(s.progress.current, 1);
    assert!(s.progress.trials[0].done);
}

/// A slider (`type: "slider"`) untouched holds no score: Next is refused with the reason the
/// missing-answer list shows; a score between its steps is not taken, one on a step is.
#[test]
fn an_untouched_slider_is_unanswered_and_says_so() {
    let (study, mut s) = into_trials("summeval-da");
    update(&study, &mut s, Msg::Next, 10.0);
    assert_eq!(s.progress.current, 0);
    assert_eq!(s.missing.len(), 1);
    assert_eq!(s.missing[0].reason, "move the slider to give a score");
    let rate = |value| {
        Msg::answer(
            Target::Rating {
                position: 0,
                dimension: "quality".into(),
            },
            Reply::Score(value),
        )
    };
    update(&study, &mut s, rate(101), 11.0);
    assert_eq!(s.missing.len(), 1);
    update(&study, &mut s, rate(73), 12.0);
    assert!(s.missing.is_empty());
    update(&study, &mut s, Msg::Next, 13.0);
    assert_eq!(s.progress.current, 1);
    assert_eq!(s.progress.trials[0].outputs[0].ratings["quality"], 73);
}

#[test]
fn answers_out_of_range_or_for_the_wrong_kind_are_ignored() {
    let (study, mut s) = into_trials("pandalm");
    let before = s.clone();
    // No dimension in this study; a rank or best is not a pair choice.
    update(
        &study,
        &mut s,
        Msg::answer(
            Target::Rating {
                position: 0,
                dimension: "quality".into(),
            },
            Reply::Score(3),
        ),
        5.0,
    );
    update(
        &study,
        &mut s,
        Msg::answer(
            Target::Preference,
            Reply::Preference(Preference::Best { position: 0 }),
        ),
        5.0,
    );
    update(
        &study,
        &mut s,
        Msg::answer(
            Target::Preference,
            Reply::Preference(Preference::Choice { position: 7 }),
        ),
        5.0,
    );
    update(
        &study,
        &mut s,
        Msg::answer(Target::Flag { position: 9 }, Reply::Ticked),
        5.0,
    );
    assert_eq!(s.progress, before.progress);
    // A tie is allowed here.
    update(
        &study,
        &mut s,
        Msg::answer(Target::Preference, Reply::Preference(Preference::Tie)),
        6.0,
    );
    assert_eq!(s.progress.trials[0].preference, Some(Preference::Tie));

    let (study, mut s) = into_trials("financial-analysis");
    update(
        &study,
        &mut s,
        Msg::answer(
            Target::Rating {
                position: 0,
                dimension: "quality".into(),
            },
            Reply::Score(9),
        ),
        5.0,
    );
    assert!(s.progress.trials[0].outputs[0].ratings.is_empty());
    update(
        &study,
        &mut s,
        Msg::answer(Target::Preference, Reply::Preference(Preference::Tie)),
        5.0,
    );
    assert_eq!(
        s.progress.trials[0].preference, None,
        "no preference in this study"
    );
}

/// One message carries every answer, so its reply can be of the wrong kind for its target: a
/// score for the notes, text for a dimension, a preference for the flag. Each is refused, with
/// nothing saved.
#[test]
fn a_reply_of_the_wrong_kind_for_its_target_is_refused() {
    let (study, mut s) = into_trials("financial-analysis");
    let before = s.clone();
    let dimension = study.design().tasks[0].dimensions[0].clone();
    let wrong = [
        (Target::Notes, Reply::Score(3)),
        (Target::Explanation, Reply::Ticked),
        (
            Target::Rating {
                position: 0,
                dimension: dimension.clone(),
            },
            Reply::Text("5".into()),
        ),
        (
            Target::Flag { position: 0 },
            Reply::Preference(Preference::Tie),
        ),
        (Target::Spans { position: 0 }, Reply::Score(1)),
        (
            Target::Survey {
                question: "age".into(),
            },
            Reply::Text("in the trials".into()),
        ),
    ];
    for (target, reply) in wrong {
        let cmds = update(
            &study,
            &mut s,
            Msg::answer(target.clone(), reply.clone()),
            5.0,
        );
        assert!(cmds.is_empty(), "{reply:?} at {target:?} was taken");
    }
    assert_eq!(s.progress, before.progress);
    // The right kind at the same target is taken, and saved.
    let cmds = update(
        &study,
        &mut s,
        Msg::answer(Target::Notes, Reply::Text("ok".into())),
        6.0,
    );
    assert_eq!(cmds, vec![Cmd::SaveSoon]);
    assert_eq!(s.progress.trials[0].notes, "ok");
}

/// work-intake.json's error-message flag implies a 1 on every dimension: ticking it sets them (and the
/// trial says so by the box); unticking leaves them; a later rating may change one (the report
/// lists it as breaking the rule).
#[test]
fn a_flag_that_implies_scores_sets_them() {
    let (study, mut s) = into_trials("work-intake");
    let task = &study.design().tasks[s.plan.trials[0].task];
    assert_eq!(task.flag_implies, Some(1));
    let view = crate::plan::view::TrialView::new(&study, &s.plan, 0, &s.plan.trials[0]);
    assert_eq!(
        view.flag_rule.as_deref(),
        Some("Ticking it sets every score of this output to 1.")
    );
    update(
        &study,
        &mut s,
        Msg::answer(Target::Flag { position: 1 }, Reply::Ticked),
        5.0,
    );
    let output = &s.progress.trials[0].outputs[1];
    assert!(output.flagged);
    assert_eq!(output.ratings.len(), task.dimensions.len());
    assert!(output.ratings.values().all(|&v| v == 1));
    assert!(
        s.progress.trials[0].outputs[0].ratings.is_empty(),
        "only that output"
    );
    update(
        &study,
        &mut s,
        Msg::clear(Target::Flag { position: 1 }),
        6.0,
    );
    let output = &s.progress.trials[0].outputs[1];
    assert!(!output.flagged && output.ratings.values().all(|&v| v == 1));
}

#[test]
fn messages_of_another_phase_change_nothing() {
    let (study, _) = example("work-intake");
    let mut s = Session::new(&study, slot(1));
    let before = s.clone();
    for msg in [
        Msg::Next,
        Msg::Previous,
        Msg::GoTo(3),
        Msg::Consent(true),
        Msg::FinishInstructions,
        Msg::SubmitSurvey(Survey::Exit),
        Msg::answer(
            Target::Rating {
                position: 0,
                dimension: "relevance".into(),
            },
            Reply::Score(3),
        ),
        Msg::answer(Target::Notes, Reply::Text("x".into())),
    ] {
        assert!(update(&study, &mut s, msg, 1.0).is_empty());
    }
    assert_eq!(s, before);
}

#[test]
fn previous_goto_and_revising_return_to_the_first_trial_left() {
    let (study, mut s) = into_trials("financial-analysis");
    for t in 0..5 {
        answer_trial(&study, &mut s, 10.0 + t as f64);
        update(&study, &mut s, Msg::Next, 11.0 + t as f64);
    }
    assert_eq!(s.progress.current, 5);
    update(&study, &mut s, Msg::Previous, 20.0);
    assert_eq!(s.progress.current, 4);
    update(&study, &mut s, Msg::GoTo(1), 21.0);
    assert_eq!(s.progress.current, 1);
    update(
        &study,
        &mut s,
        Msg::answer(
            Target::Rating {
                position: 0,
                dimension: "quality".into(),
            },
            Reply::Score(5),
        ),
        22.0,
    );
    update(&study, &mut s, Msg::Next, 23.0);
    assert_eq!(s.progress.current, 5, "back to the first trial not done");
    assert_eq!(s.progress.trials[1].outputs[0].ratings["quality"], 5);
    update(&study, &mut s, Msg::GoTo(999), 24.0);
    assert_eq!(s.progress.current, 5);
}

#[test]
fn previous_from_the_first_trial_returns_to_the_intake_survey() {
    let (study, mut s) = into_trials("hare-personalization");
    update(&study, &mut s, Msg::Previous, 50.0);
    assert_eq!(s.progress.phase, Phase::Intake);
}

#[test]
fn active_time_pauses_while_the_tab_is_hidden() {
    let (study, mut s) = into_trials("financial-analysis");
    let start = s.shown_since.unwrap();
    update(&study, &mut s, Msg::Visibility(false), start + 10_000.0);
    update(&study, &mut s, Msg::Visibility(true), start + 70_000.0);
    answer_trial(&study, &mut s, start + 75_000.0);
    update(&study, &mut s, Msg::Next, start + 80_000.0);
    // 10 s before hiding, 10 s after: the minute away does not count.
    assert_eq!(s.progress.trials[0].active_ms, 20_000);
    assert_eq!(s.progress.trials[0].last_changed, Some(start + 75_000.0));
    let p = progress(&s);
    assert_eq!((p.done, p.current, p.total), (1, 2, 50));
    // 49 trials left at a median of 20 s: 16.3 minutes, shown as 17.
    assert_eq!(p.minutes_left, Some(17));
}

#[test]
fn keyboard_answers_move_focus_to_the_next_unanswered_question() {
    let (study, mut s) = into_trials("work-intake");
    let cmds = update(
        &study,
        &mut s,
        Msg::Answer {
            target: Target::Rating {
                position: 0,
                dimension: "relevance".into(),
            },
            reply: Some(Reply::Score(5)),
            advance: true,
        },
        5.0,
    );
    assert!(
        cmds.contains(&Cmd::Focus("q-rate-0-completeness".into())),
        "{cmds:?}"
    );
    update(
        &study,
        &mut s,
        Msg::answer(
            Target::Rating {
                position: 1,
                dimension: "relevance".into(),
            },
            Reply::Score(5),
        ),
        5.0,
    );
    let cmds = update(
        &study,
        &mut s,
        Msg::Answer {
            target: Target::Rating {
                position: 0,
                dimension: "coherence".into(),
            },
            reply: Some(Reply::Score(5)),
            advance: true,
        },
        5.0,
    );
    // The next unanswered after output 1's coherence skips output 2's answered relevance.
    assert!(
        cmds.contains(&Cmd::Focus("q-rate-1-completeness".into())),
        "{cmds:?}"
    );
}

#[test]
fn the_exit_survey_ranks_systems_by_their_labels() {
    let (study, mut s) = into_trials("hare-personalization");
    while s.progress.phase == Phase::Trials {
        answer_trial(&study, &mut s, 100.0);
        update(&study, &mut s, Msg::Next, 101.0);
    }
    assert_eq!(s.progress.phase, Phase::Exit);
    let rank = study
        .exit()
        .iter()
        .find(|q| matches!(q.kind, QuestionKind::Rank(RankOptions::Systems)))
        .unwrap();
    answer_survey(&study, &mut s, Survey::Exit, 102.0);
    let partial = Some(Answer::Rank(vec!["System A".into()]));
    update(
        &study,
        &mut s,
        Msg::Answer {
            target: Target::Survey {
                question: rank.id.clone(),
            },
            reply: partial.map(Reply::Answer),
            advance: false,
        },
        103.0,
    );
    update(&study, &mut s, Msg::SubmitSurvey(Survey::Exit), 104.0);
    assert_eq!(s.progress.phase, Phase::Exit);
    assert_eq!(s.missing[0].reason, "put every option in order");
    assert_eq!(
        s.system_labels(&study),
        ["System A", "System B", "System C", "System D"]
    );
    answer_survey(&study, &mut s, Survey::Exit, 105.0);
    update(&study, &mut s, Msg::SubmitSurvey(Survey::Exit), 106.0);
    assert_eq!(s.progress.phase, Phase::Done);
    // From the end, the trial list can still reopen a trial to revise it.
    update(&study, &mut s, Msg::GoTo(3), 107.0);
    assert_eq!((s.progress.phase, s.progress.current), (Phase::Trials, 3));
}

#[test]
fn a_file_too_large_to_be_ratings_is_refused_before_any_work() {
    let huge = " ".repeat(super::ratings::MAX_RATINGS_BYTES + 1);
    let e = parse(&huge).unwrap_err();
    assert_eq!(e.at, "(whole file)");
    assert!(e.message.contains("more than a ratings file can be"), "{e}");
}

#[test]
fn a_changed_ratings_file_is_refused() {
    let (study, hash) = example("financial-analysis");
    let mut s = Session::new(&study, slot(1));
    let now = complete(&study, &mut s);
    let text = export(&study, &hash, &s, "test", now).to_json();
    let edited = text.replacen("\"quality\": 1", "\"quality\": 5", 1);
    assert_ne!(edited, text);
    assert_eq!(parse(&edited).unwrap_err().at, "sha256");
    let cut = &text[..text.len() / 2];
    assert!(parse(cut).unwrap_err().at.starts_with("line "));
    // Another study, or another version of it, is refused on restore.
    let file = parse(&text).unwrap();
    assert_eq!(
        restore(&study, "0000", &file).unwrap_err().at,
        "study.sha256"
    );
    let (other, other_hash) = example("summeval");
    assert_eq!(
        restore(&other, &other_hash, &file).unwrap_err().at,
        "study.id"
    );
}

#[test]
fn a_half_done_session_restores_on_the_same_trial() {
    let (study, hash) = example("work-intake");
    let (_, mut s) = into_trials("work-intake");
    for _ in 0..3 {
        answer_trial(&study, &mut s, 10.0);
        update(&study, &mut s, Msg::Next, 11.0);
    }
    update(
        &study,
        &mut s,
        Msg::answer(Target::Notes, Reply::Text("half way".into())),
        12.0,
    );
    let file = parse(&export(&study, &hash, &s, "test", 13.0).to_json()).unwrap();
    assert!(!file.complete);
    let progress = restore(&study, &hash, &file).unwrap();
    let resumed = Session::resume(&study, progress, 14.0).unwrap();
    assert_eq!(resumed.progress.current, 3);
    assert_eq!(resumed.progress.phase, Phase::Trials);
    assert_eq!(resumed.progress.trials[3].notes, "half way");
    assert_eq!(
        resumed.progress.trials[..3],
        without_stamps(&s.progress.trials[..3])
    );
}

#[test]
fn the_storage_envelope_round_trips_and_refuses_the_future() {
    let (study, hash) = example("pandalm");
    let (_, s) = into_trials("pandalm");
    let envelope = store::Envelope {
        schema_version: store::SCHEMA_VERSION,
        study_id: study.id().to_owned(),
        study_sha256: hash.clone(),
        saved_at: 5.0,
        revision: 7,
        app_version: "test".to_owned(),
        progress: s.progress.clone(),
        plan: Some(s.plan.fingerprint()),
    };
    let text = store::write(&envelope).unwrap();
    assert_eq!(store::read(&text).unwrap(), envelope);
    assert!(store::resume(&study, envelope.clone(), 6.0).is_ok());
    // Saved under a plan no format makes (another study's planner, with the same numbers of
    // trials and outputs): refused, so that no answer moves to another item or system. A copy
    // saved before fingerprints continues on the plan of format v1, the only one then.
    let other = store::Envelope {
        plan: Some("0123456789abcdef".to_owned()),
        ..envelope.clone()
    };
    let why = store::resume(&study, other, 6.0).err().unwrap();
    assert!(why.contains("another plan"), "{why}");
    let older = store::Envelope {
        plan: None,
        ..envelope.clone()
    };
    let v1 = crate::plan::Planner::new(&study).plan_as(&s.progress.annotator, Format::V1);
    assert_eq!(store::resume(&study, older, 6.0).unwrap().plan, v1);
    let future = text.replacen("\"schema_version\":2", "\"schema_version\":9", 1);
    assert_eq!(
        store::read(&future).unwrap_err(),
        store::Unreadable::Future(9)
    );
    assert!(matches!(
        store::read("{not json"),
        Err(store::Unreadable::Corrupt(_))
    ));
    assert_eq!(store::key(&hash, 3, None), format!("juror/v1/{hash}/3"));
    // Progress that does not fit the plan is refused, not half-used.
    let mut wrong = s.progress.clone();
    wrong.trials.pop();
    assert!(Session::resume(&study, wrong, 1.0).is_err());
    // So is a preference naming an output the trial does not show, or a ranking
    // that repeats one; a fitting preference is kept.
    for (preference, fits) in [
        (Preference::Choice { position: 2 }, false),
        (Preference::Best { position: 9 }, false),
        (Preference::Rank { order: vec![0, 5] }, false),
        (Preference::Rank { order: vec![1, 1] }, false),
        (Preference::Choice { position: 1 }, true),
        (Preference::Tie, true),
    ] {
        let mut planted = s.progress.clone();
        planted.trials[0].preference = Some(preference.clone());
        let resumed = Session::resume(&study, planted, 1.0);
        assert_eq!(resumed.is_ok(), fits, "{preference:?}");
        if let Err(e) = resumed {
            assert_eq!(
                e,
                "trial 1's saved preference names an output the trial does not show"
            );
        }
    }
}

#[test]
fn csv_fields_are_quoted_and_formulas_defused() {
    let (study, hash) = example("work-intake");
    let (_, mut s) = into_trials("work-intake");
    answer_trial(&study, &mut s, 1.0);
    update(
        &study,
        &mut s,
        Msg::answer(
            Target::Notes,
            Reply::Text("=HYPERLINK(\"x\"), and \"quotes\"".into()),
        ),
        2.0,
    );
    let csv = export(&study, &hash, &s, "test", 3.0).to_csv();
    assert!(
        csv.contains("\"'=HYPERLINK(\"\"x\"\"), and \"\"quotes\"\"\""),
        "{csv}"
    );
}

#[test]
fn numbers_that_json_cannot_hold_are_refused() {
    let (study, _) = example("hare-personalization");
    let mut s = Session::new(&study, slot(1));
    for m in [Msg::Start, Msg::Consent(true), Msg::FinishInstructions] {
        update(&study, &mut s, m, 1.0);
    }
    let number = study
        .intake()
        .iter()
        .find(|q| matches!(q.kind, QuestionKind::Number { .. }))
        .unwrap();
    let cmds = update(
        &study,
        &mut s,
        Msg::answer(
            Target::Survey {
                question: number.id.clone(),
            },
            Reply::Answer(Answer::Number(f64::NAN)),
        ),
        2.0,
    );
    assert!(cmds.is_empty());
    assert!(s.progress.intake.is_empty());
}

#[test]
fn a_preference_position_outside_the_trial_is_refused_on_restore() {
    let (study, hash) = example("pandalm");
    let mut s = Session::new(&study, slot(1));
    let now = complete(&study, &mut s);
    let mut file = export(&study, &hash, &s, "test", now);
    file.trials[0].preference = Some(ratings::PreferenceRecord::Choice {
        position: 0,
        label: "x".into(),
        system: "y".into(),
    });
    assert_eq!(
        restore(&study, &hash, &file).unwrap_err().at,
        "trials[0].preference"
    );
    file.trials[0].preference = Some(ratings::PreferenceRecord::Choice {
        position: 3,
        label: "x".into(),
        system: "y".into(),
    });
    assert!(restore(&study, &hash, &file).is_err());
}

#[test]
fn stored_scores_off_the_task_or_its_scale_are_refused_on_resume() {
    let (study, s) = into_trials("work-intake");
    let dimension = study.design().tasks[s.plan.trials[0].task].dimensions[0].clone();
    let with = |key: &str, value: i32| {
        let mut p = s.progress.clone();
        p.trials[0].outputs[0].ratings.insert(key.to_owned(), value);
        Session::resume(&study, p, 5.0)
    };
    assert!(with(&dimension, 3).is_ok());
    for (key, value) in [(dimension.as_str(), 99), ("no-such-dimension", 3)] {
        let why = with(key, value).err().unwrap();
        assert!(why.contains("trial 1 holds a score"), "{why}");
    }
    let mut p = s.progress.clone();
    p.trials[0].outputs[0]
        .answers
        .insert("no-such-question".into(), Answer::Text("x".into()));
    assert!(Session::resume(&study, p, 5.0).is_err());
}

#[test]
fn the_view_follows_the_phase() {
    let (study, mut s) = into_trials("work-intake");
    let v = view(&study, &s);
    assert_eq!(v.phase, Phase::Trials);
    assert_eq!(v.trial.as_ref().map(|t| t.number), Some(1));
    assert_eq!(v.progress.total, 9);
    update(&study, &mut s, Msg::Next, 5.0);
    assert_eq!(view(&study, &s).missing.len(), 13);
    update(&study, &mut s, Msg::BackToInstructions, 6.0);
    assert_eq!(view(&study, &s).trial, None);
    assert_eq!(view(&study, &s).answers, None);
}

#[test]
fn the_view_carries_what_the_trial_page_shows() {
    let (study, mut s) = into_trials("work-intake");
    update(
        &study,
        &mut s,
        Msg::answer(Target::Notes, Reply::Text("a note".into())),
        2.0,
    );
    update(
        &study,
        &mut s,
        Msg::answer(
            Target::Rating {
                position: 1,
                dimension: "relevance".into(),
            },
            Reply::Score(4),
        ),
        3.0,
    );
    let v = view(&study, &s);
    let answers = v.answers.unwrap();
    assert_eq!((answers.index, answers.task_changed), (0, true));
    assert_eq!(answers.notes, "a note");
    assert_eq!(answers.outputs[1].ratings.get("relevance"), Some(&4));
    assert_eq!(answers.outputs.len(), s.plan.trials[0].shown.len());
    assert_eq!(v.trials[0], TrialStatus::Started);
    assert_eq!(v.trials[1], TrialStatus::ToDo);
    answer_trial(&study, &mut s, 4.0);
    update(&study, &mut s, Msg::Next, 5.0);
    let v = view(&study, &s);
    assert_eq!(v.trials[0], TrialStatus::Done);
    assert_eq!(v.progress.done, 1);
    let same_task = s.plan.trials[1].task == s.plan.trials[0].task;
    assert_eq!(v.answers.unwrap().task_changed, !same_task);
}

#[test]
fn a_version_1_envelope_is_migrated() {
    let (study, hash) = example("pandalm");
    let (_, mut s) = into_trials("pandalm");
    update(
        &study,
        &mut s,
        Msg::answer(Target::Preference, Reply::Preference(Preference::Tie)),
        9.0,
    );
    // What Juror 0.1 (schema 1) wrote: no revision, no app version.
    let v1 = serde_json::json!({
        "schema_version": 1,
        "study_id": study.id(),
        "study_sha256": hash,
        "saved_at": 10.0,
        "progress": serde_json::to_value(&s.progress).unwrap(),
    });
    let envelope = store::read(&v1.to_string()).unwrap();
    assert_eq!(envelope.schema_version, 2);
    assert_eq!(envelope.revision, 0);
    assert_eq!(envelope.progress, s.progress);
}

#[test]
fn two_tabs_merge_without_losing_an_answer() {
    let (study, _) = example("financial-analysis");
    let (_, base) = into_trials("financial-analysis");
    let (mut a, mut b) = (base.clone(), base.clone());
    // Tab A answers trial 1 and goes on; tab B, not yet told, answers trial 3 through the list.
    answer_trial(&study, &mut a, 100.0);
    update(&study, &mut a, Msg::Next, 101.0);
    update(&study, &mut b, Msg::GoTo(2), 102.0);
    answer_trial(&study, &mut b, 103.0);
    let merged = store::merge(&a.progress, &b.progress);
    assert!(merged.trials[0].done, "tab A's finished trial 1 is kept");
    assert_eq!(
        merged.trials[2], b.progress.trials[2],
        "tab B's trial 3 is kept"
    );
    assert_eq!(
        merged.current, a.progress.current,
        "the trial on screen stays this tab's"
    );
    // Merging is the same whichever tab does it, answer for answer.
    let other_way = store::merge(&b.progress, &a.progress);
    assert_eq!(other_way.trials, merged.trials);
}

#[test]
fn two_tabs_answering_one_trial_at_the_same_moment_keep_both_answers() {
    let (study, _) = example("work-intake");
    let (_, base) = into_trials("work-intake");
    let (mut a, mut b) = (base.clone(), base.clone());
    update(
        &study,
        &mut a,
        Msg::answer(
            Target::Rating {
                position: 0,
                dimension: "relevance".into(),
            },
            Reply::Score(4),
        ),
        100.0,
    );
    update(
        &study,
        &mut b,
        Msg::answer(
            Target::Rating {
                position: 1,
                dimension: "coherence".into(),
            },
            Reply::Score(2),
        ),
        100.0,
    );
    update(
        &study,
        &mut b,
        Msg::answer(Target::Notes, Reply::Text("from tab B".into())),
        101.0,
    );
    for merged in [
        store::merge(&a.progress, &b.progress),
        store::merge(&b.progress, &a.progress),
    ] {
        let t = &merged.trials[0];
        assert_eq!(t.outputs[0].ratings.get("relevance"), Some(&4));
        assert_eq!(t.outputs[1].ratings.get("coherence"), Some(&2));
        assert_eq!(t.notes, "from tab B");
        assert_eq!(t.last_changed, Some(101.0));
    }
    // Where both answered the same question, the later answer wins.
    update(
        &study,
        &mut a,
        Msg::answer(
            Target::Rating {
                position: 1,
                dimension: "coherence".into(),
            },
            Reply::Score(5),
        ),
        102.0,
    );
    let merged = store::merge(&b.progress, &a.progress);
    assert_eq!(
        merged.trials[0].outputs[1].ratings.get("coherence"),
        Some(&5)
    );
    // Merging is idempotent: what is merged again changes nothing.
    assert_eq!(store::merge(&merged, &merged), merged);
}

/// Saving the finished file is recorded with the answers: it holds after a reload (the stored
/// envelope) and in another tab's merge, only on the finish page, and no longer once an answer
/// changes (the file saved lacks it), until the file is saved again.
#[test]
fn a_saved_file_is_remembered_until_an_answer_changes() {
    let (study, hash) = example("financial-analysis");
    let mut s = Session::new(&study, slot(1));
    assert!(
        update(&study, &mut s, Msg::FileSaved, 1.0).is_empty(),
        "not before the end"
    );
    let now = complete(&study, &mut s);
    assert!(!s.file_saved());
    assert_eq!(update(&study, &mut s, Msg::FileSaved, now), [Cmd::Save]);
    assert!(s.file_saved());
    assert!(
        update(&study, &mut s, Msg::FileSaved, now).is_empty(),
        "once is enough"
    );

    // A reload: the stored copy says so.
    let envelope = store::Envelope {
        schema_version: store::SCHEMA_VERSION,
        study_id: study.id().to_owned(),
        study_sha256: hash,
        saved_at: now,
        revision: 1,
        app_version: "test".to_owned(),
        progress: s.progress.clone(),
        plan: Some(s.plan.fingerprint()),
    };
    let text = store::write(&envelope).unwrap();
    let back = store::resume(&study, store::read(&text).unwrap(), now + 1.0).unwrap();
    assert!(back.file_saved());
    // A copy saved before the field existed reads as not saved.
    let older = text.replace(&format!(",\"file_saved\":{}", s.progress.clock), "");
    assert_ne!(older, text);
    assert!(
        !store::resume(&study, store::read(&older).unwrap(), now)
            .unwrap()
            .file_saved()
    );

    // Another tab that has not saved takes the saving in, either way round.
    let mut fresh = s.progress.clone();
    fresh.file_saved = None;
    assert_eq!(
        store::merge(&fresh, &s.progress).file_saved,
        s.progress.file_saved
    );
    assert_eq!(
        store::merge(&s.progress, &fresh).file_saved,
        s.progress.file_saved
    );

    // Back to a trial to change an answer: the file saved no longer holds every answer.
    update(&study, &mut s, Msg::GoTo(0), now + 2.0);
    update(
        &study,
        &mut s,
        Msg::answer(Target::Notes, Reply::Text("changed my mind".into())),
        now + 3.0,
    );
    while s.phase() != Phase::Done {
        let step = if s.phase() == Phase::Exit {
            Msg::SubmitSurvey(Survey::Exit)
        } else {
            Msg::Next
        };
        update(&study, &mut s, step, now + 4.0);
    }
    assert!(!s.file_saved(), "the change is not in the saved file");
    update(&study, &mut s, Msg::FileSaved, now + 5.0);
    assert!(s.file_saved());
}

/// A session begun under plan format v1 (before an update of Juror changed the planner) is
/// continued on its own plan, from storage and from its ratings file, with every answer on the
/// trial it was given in; a new session gets the current format's plan.
#[test]
fn a_session_saved_under_an_older_plan_format_continues_on_its_plan() {
    for name in ["kitchen-qa", "work-intake", "summeval"] {
        let (study, hash) = example(name);
        let who = slot(2);
        let planner = crate::plan::Planner::new(&study);
        let v1 = planner.plan_as(&who, Format::V1);
        assert_ne!(v1, planner.plan(&who), "{name}: the formats plan alike");
        let mut s = Session::on(v1.clone());
        let now = complete(&study, &mut s);
        let envelope = store::Envelope {
            schema_version: store::SCHEMA_VERSION,
            study_id: study.id().to_owned(),
            study_sha256: hash.clone(),
            saved_at: now,
            revision: 3,
            app_version: "before the update".to_owned(),
            progress: s.progress.clone(),
            plan: Some(v1.fingerprint()),
        };
        let resumed = store::resume(&study, envelope, now + 1.0).unwrap();
        assert_eq!(resumed.plan, v1, "{name}");
        assert_eq!(resumed.progress.trials, s.progress.trials, "{name}");
        // Its ratings file names items and systems trial by trial: restored on the v1 plan.
        let file = export(&study, &hash, &s, "test", now);
        let restored = open::restore(&study, &hash, &file.to_json(), now + 2.0).unwrap();
        assert_eq!(restored.plan, v1, "{name}");
        assert_eq!(
            without_stamps(&restored.progress.trials),
            without_stamps(&s.progress.trials),
            "{name}"
        );
        assert_eq!(Session::new(&study, who).plan, planner.plan(&slot(2)));
    }
}

/// An intake answer that `screen_out` lists ends the study before the trials: the screened
/// phase, kept on reload, with the platform's screened-out code; any other answer goes on.
#[test]
fn an_intake_answer_that_screens_out_ends_the_study_with_the_screened_code() {
    use serde_json::{Value, json};
    let text = std::fs::read_to_string(format!(
        "{}/../../assets/studies/kitchen-qa.json",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    let mut v: Value = serde_json::from_str(&text).unwrap();
    v["surveys"]["intake"] = json!([{
        "id": "llm",
        "prompt": "Are you familiar with large language models?",
        "type": "single_choice",
        "options": ["yes", "no"],
        "screen_out": ["no"]
    }]);
    v["completion"] = json!({"code": "DONE1", "screened_code": "SCRN2",
        "redirect": "https://app.prolific.com/submissions/complete?cc={code}"});
    let text = v.to_string();
    let study = parse_study(&text).unwrap_or_else(|p| panic!("{p}"));
    let hash = sha256_hex(&text);
    let mut s = Session::new(&study, slot(1));
    for msg in [Msg::Start, Msg::Consent(true), Msg::FinishInstructions] {
        update(&study, &mut s, msg, 1.0);
    }
    assert_eq!(s.progress.phase, Phase::Intake);
    let answer = |s: &mut Session, a: &str| {
        update(
            &study,
            s,
            Msg::answer(
                Target::Survey {
                    question: "llm".into(),
                },
                Reply::Answer(Answer::Choice(a.into())),
            ),
            2.0,
        )
    };
    let mut passes = s.clone();
    answer(&mut passes, "yes");
    update(&study, &mut passes, Msg::SubmitSurvey(Survey::Intake), 3.0);
    assert_eq!(passes.progress.phase, Phase::Trials);

    answer(&mut s, "no");
    let cmds = update(&study, &mut s, Msg::SubmitSurvey(Survey::Intake), 3.0);
    assert_eq!(s.progress.phase, Phase::Screened);
    assert!(cmds.contains(&Cmd::Save));
    // Nothing moves it on: no trial, no going back.
    for msg in [Msg::Next, Msg::Previous, Msg::GoTo(0)] {
        update(&study, &mut s, msg, 4.0);
        assert_eq!(s.progress.phase, Phase::Screened);
    }
    let file = export(&study, &hash, &s, "test", 5.0);
    assert!(!file.complete);
    let end = completion::completion(&study, &file).unwrap();
    assert_eq!(end.code.as_deref(), Some("SCRN2"));
    assert_eq!(
        end.link.as_deref(),
        Some("https://app.prolific.com/submissions/complete?cc=SCRN2")
    );
    // Reloaded from storage, still screened out.
    let back = parse(&file.to_json()).unwrap();
    assert_eq!(back.phase, Phase::Screened);
}

/// `screen_out` only on intake choices, with values among their options, never all of them.
#[test]
fn screen_out_is_checked_where_it_is_written() {
    use serde_json::{Value, json};
    let text = std::fs::read_to_string(format!(
        "{}/../../assets/studies/kitchen-qa.json",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    let mut v: Value = serde_json::from_str(&text).unwrap();
    v["surveys"]["intake"] = json!([
        {"id": "a", "prompt": "A?", "type": "single_choice", "options": ["yes", "no"], "screen_out": ["maybe"]},
        {"id": "b", "prompt": "B?", "type": "single_choice", "options": ["yes", "no"], "screen_out": ["yes", "no"]},
        {"id": "c", "prompt": "C?", "type": "short_text", "screen_out": ["x"]}
    ]);
    v["surveys"]["exit"] = json!([
        {"id": "d", "prompt": "D?", "type": "single_choice", "options": ["yes", "no"], "screen_out": ["no"]}
    ]);
    let problems = parse_study(&v.to_string()).unwrap_err();
    let at: Vec<&str> = problems.iter().map(|p| p.at.as_str()).collect();
    assert_eq!(
        at,
        [
            "surveys.intake[0].screen_out[0]",
            "surveys.intake[1].screen_out",
            "surveys.intake[2].screen_out",
            "surveys.exit[0].screen_out"
        ],
        "{problems}"
    );
}

/// A best–worst trial: the missing-answer list says which end is missing, the letter chooses
/// the best and Shift with the letter the worst, best and worst never the same output, and the
/// ratings file records both by system.
#[test]
fn a_best_worst_trial_asks_for_both_ends_and_never_one_output_as_both() {
    use crate::session::keys::{Key, to_msg};
    let (study, mut s) = into_trials("summeval-best-worst");
    assert_eq!(s.plan.trials[0].shown.len(), 4);
    let key = |k: &'static str, shift: bool| Key {
        key: k,
        shift,
        modified: false,
        typing: false,
        on_control: false,
    };
    update(&study, &mut s, Msg::Next, 10.0);
    assert_eq!(s.progress.current, 0);
    let reasons: Vec<&str> = s.missing.iter().map(|m| m.reason.as_str()).collect();
    assert!(
        reasons.contains(&"choose the best and the worst output"),
        "{reasons:?}"
    );
    let msg = to_msg(&study, &s, key("b", false), None).unwrap();
    update(&study, &mut s, msg, 11.0);
    update(&study, &mut s, Msg::Next, 12.0);
    assert_eq!(s.progress.current, 0);
    assert_eq!(s.missing[0].reason, "choose the worst output");
    // Shift+B makes B the worst: the best moves off it.
    let msg = to_msg(&study, &s, key("B", true), None).unwrap();
    update(&study, &mut s, msg, 13.0);
    assert_eq!(
        s.progress.trials[0].preference,
        Some(Preference::BestWorst {
            best: None,
            worst: Some(1)
        })
    );
    // The same output as both is refused.
    update(
        &study,
        &mut s,
        Msg::answer(
            Target::Preference,
            Reply::Preference(Preference::BestWorst {
                best: Some(1),
                worst: Some(1),
            }),
        ),
        14.0,
    );
    assert_eq!(
        s.progress.trials[0].preference,
        Some(Preference::BestWorst {
            best: None,
            worst: Some(1)
        })
    );
    let msg = to_msg(&study, &s, key("a", false), None).unwrap();
    update(&study, &mut s, msg, 15.0);
    update(&study, &mut s, Msg::Next, 16.0);
    assert_eq!(s.progress.current, 1);
    let file = export(&study, "hash", &s, "test", 17.0);
    let shown = &s.plan.trials[0].shown;
    match &file.trials[0].preference {
        Some(ratings::PreferenceRecord::BestWorst {
            best: Some(b),
            worst: Some(w),
        }) => {
            assert_eq!((b.position, w.position), (1, 2));
            assert_eq!(b.system, study.systems()[shown[0].system]);
            assert_eq!(w.system, study.systems()[shown[1].system]);
        }
        other => panic!("{other:?}"),
    }
}
