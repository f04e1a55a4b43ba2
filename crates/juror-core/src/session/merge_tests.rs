//! Two tabs of one annotator, any interleaving of edits, saves and `storage` events, clocks
//! right or wrong: the merge never undoes an edit with an older copy, and the tabs agree.
//! The model mirrors the shell (`src/session/saving.rs`): a save first takes in the stored
//! copy, then writes the union; hearing a `storage` event takes the stored copy in.

use std::collections::BTreeSet;

use proptest::prelude::*;

use super::*;
use crate::plan::Annotator;
use crate::study::{QuestionKind, Study, parse_study};

fn example(name: &str) -> Study {
    let path = format!(
        "{}/../../assets/studies/{name}.json",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(path).unwrap();
    parse_study(&text).unwrap()
}

/// A session of slot 1 driven to `phase` (the intake survey or the trials).
fn session_at(study: &Study, phase: Phase) -> Session {
    let mut s = Session::new(study, Annotator::slot(1));
    let mut steps = 0;
    while s.progress.phase != phase && steps < 10 {
        steps += 1;
        let msg = match s.progress.phase {
            Phase::Welcome => Msg::Start,
            Phase::Consent => Msg::Consent(true),
            Phase::Instructions => Msg::FinishInstructions,
            other => panic!("cannot reach {phase:?} from {other:?}"),
        };
        update(study, &mut s, msg, 1.0);
    }
    assert_eq!(s.progress.phase, phase);
    s
}

/// What one edit does: which answer (an index into the test's list of answers) and which of a
/// few values (0 clears it where it can be cleared).
#[derive(Debug, Clone, Copy)]
enum Op {
    Edit {
        tab: usize,
        field: usize,
        value: usize,
    },
    Save {
        tab: usize,
    },
    Hear {
        tab: usize,
    },
    /// The tab's clock jumps (back by up to an hour, or forward): only in the wrong-clock runs.
    Jump {
        tab: usize,
        by: i64,
    },
}

fn ops(wrong_clocks: bool) -> impl Strategy<Value = Vec<(Op, u64)>> {
    let edit = (0..2usize, 0..6usize, 0..4usize).prop_map(|(tab, field, value)| Op::Edit {
        tab,
        field,
        value,
    });
    let save = (0..2usize).prop_map(|tab| Op::Save { tab });
    let hear = (0..2usize).prop_map(|tab| Op::Hear { tab });
    let jump = (0..2usize, -3_600_000i64..60_000).prop_map(|(tab, by)| Op::Jump { tab, by });
    let op = if wrong_clocks {
        prop_oneof![4 => edit, 2 => save, 2 => hear, 1 => jump].boxed()
    } else {
        prop_oneof![4 => edit, 2 => save, 2 => hear].boxed()
    };
    // Milliseconds that pass before each step: at least 1 with right clocks (so stamps are the
    // wall clock and the latest edit is well defined), 0 allowed with wrong ones (two tabs in
    // the same millisecond).
    let gap = if wrong_clocks { 0..3u64 } else { 1..3u64 };
    proptest::collection::vec((op, gap), 1..60)
}

struct Edit {
    field: usize,
    value: String,
    at: u64,
    /// The edits the tab had seen when it made this one.
    seen: BTreeSet<usize>,
}

struct Tab {
    session: Session,
    /// The edits this tab has seen (its own and those taken in).
    seen: BTreeSet<usize>,
    /// How far this tab's clock is off (ms).
    skew: i64,
}

/// Runs `ops` on two tabs, then lets them settle, and checks every answer.
fn run(
    study: &Study,
    start: &Session,
    ops: &[(Op, u64)],
    edit: &dyn Fn(&Study, &mut Session, usize, usize, f64),
    read: &dyn Fn(&Progress, usize) -> String,
    fields: usize,
    wrong_clocks: bool,
) -> Result<(), TestCaseError> {
    let mut tabs = [start, start].map(|s| Tab {
        session: s.clone(),
        seen: BTreeSet::new(),
        skew: 0,
    });
    let mut stored: Option<(Progress, BTreeSet<usize>)> = None;
    let mut edits: Vec<Edit> = Vec::new();
    let mut now: u64 = 1_000_000;
    let save = |tab: &mut Tab, stored: &mut Option<(Progress, BTreeSet<usize>)>| {
        if let Some((p, seen)) = stored.as_ref() {
            tab.session.progress = store::merge(&tab.session.progress, p);
            tab.seen.extend(seen.iter().copied());
        }
        *stored = Some((tab.session.progress.clone(), tab.seen.clone()));
    };
    let hear = |tab: &mut Tab, stored: &Option<(Progress, BTreeSet<usize>)>| {
        if let Some((p, seen)) = stored {
            tab.session.progress = store::merge(&tab.session.progress, p);
            tab.seen.extend(seen.iter().copied());
        }
    };
    for &(op, gap) in ops {
        now += gap;
        match op {
            Op::Edit { tab, field, value } => {
                let field = field % fields;
                let t = &mut tabs[tab];
                let wall = now as i64 + t.skew;
                edit(study, &mut t.session, field, value, wall as f64);
                edits.push(Edit {
                    field,
                    value: read(&t.session.progress, field),
                    at: now,
                    seen: t.seen.clone(),
                });
                t.seen.insert(edits.len() - 1);
                save(t, &mut stored);
            }
            Op::Save { tab } => save(&mut tabs[tab], &mut stored),
            Op::Hear { tab } => hear(&mut tabs[tab], &stored),
            Op::Jump { tab, by } => tabs[tab].skew += by,
        }
    }
    // Both tabs save and hear once more: they must then agree.
    let [a, b] = &mut tabs;
    save(a, &mut stored);
    save(b, &mut stored);
    hear(a, &stored);
    let (pa, pb) = (&a.session.progress, &b.session.progress);
    prop_assert_eq!(&pa.trials, &pb.trials, "the tabs disagree on the trials");
    prop_assert_eq!(&pa.intake, &pb.intake, "the tabs disagree on the intake");
    prop_assert_eq!(&pa.stamps, &pb.stamps);
    for field in 0..fields {
        let of_field: Vec<(usize, &Edit)> = edits
            .iter()
            .enumerate()
            .filter(|(_, e)| e.field == field)
            .collect();
        if of_field.is_empty() {
            continue;
        }
        // The edits no later edit of the same answer was made after seeing.
        let latest: Vec<&Edit> = of_field
            .iter()
            .filter(|(i, _)| !of_field.iter().any(|(_, e)| e.seen.contains(i)))
            .map(|(_, e)| *e)
            .collect();
        let got = read(pa, field);
        prop_assert!(
            latest.iter().any(|e| e.value == got),
            "answer {field} is {got:?}, which no latest edit gave ({:?})",
            latest.iter().map(|e| &e.value).collect::<Vec<_>>()
        );
        if !wrong_clocks {
            // Right clocks: the last edit in time wins.
            let last = of_field.iter().map(|(_, e)| e).max_by_key(|e| e.at);
            prop_assert_eq!(Some(&got), last.map(|e| &e.value));
        }
    }
    Ok(())
}

/// The first trial's answers the test edits: a score for each (output, dimension) of the first
/// two outputs and dimensions, then the notes and the explanation.
fn trial_answers(study: &Study, s: &Session) -> Vec<(usize, String)> {
    let trial = &s.plan.trials[0];
    let task = &study.design().tasks[trial.task];
    let mut out = Vec::new();
    for position in 0..trial.shown.len().min(2) {
        for d in task.dimensions.iter().take(2) {
            out.push((position, d.clone()));
        }
    }
    out
}

fn run_trials(ops: &[(Op, u64)], wrong_clocks: bool) -> Result<(), TestCaseError> {
    let study = example("work-intake");
    let start = session_at(&study, Phase::Trials);
    let scores = trial_answers(&study, &start);
    let n = scores.len();
    prop_assume!(n > 0);
    let edit = |study: &Study, s: &mut Session, field: usize, value: usize, now: f64| {
        let msg = match field {
            f if f == n => Msg::answer(
                Target::Notes,
                Reply::Text(["", "short", "a longer note", "x"][value].into()),
            ),
            f if f > n => Msg::answer(
                Target::Explanation,
                Reply::Text(["", "because", "it is clearer", "y"][value].into()),
            ),
            f => {
                let (position, dimension) = scores[f].clone();
                let scale = &study.dimension(&dimension).unwrap().scale;
                let value = (scale.min() + i32::try_from(value).unwrap()).min(scale.max());
                Msg::answer(
                    Target::Rating {
                        position,
                        dimension,
                    },
                    Reply::Score(value),
                )
            }
        };
        update(study, s, msg, now);
    };
    let read = |p: &Progress, field: usize| {
        let t = &p.trials[0];
        match field {
            f if f == n => t.notes.clone(),
            f if f > n => t.explanation.clone(),
            f => {
                let (position, dimension) = &scores[f];
                format!("{:?}", t.outputs[*position].ratings.get(dimension))
            }
        }
    };
    run(&study, &start, ops, &edit, &read, n + 2, wrong_clocks)
}

/// Every intake question of `hare-personalization` (a choice, a number, a scale and several
/// choices), answered or cleared (value 0).
fn run_survey(ops: &[(Op, u64)], wrong_clocks: bool) -> Result<(), TestCaseError> {
    let study = example("hare-personalization");
    let start = session_at(&study, Phase::Intake);
    let questions = study.intake().to_vec();
    let n = questions.len();
    let edit = |study: &Study, s: &mut Session, field: usize, value: usize, now: f64| {
        let q = &questions[field];
        let answer = (value > 0).then(|| match &q.kind {
            QuestionKind::SingleChoice(o) => Answer::Choice(o[value % o.len()].clone()),
            QuestionKind::MultipleChoice { options, .. } => {
                Answer::Choices(vec![options[value % options.len()].clone()])
            }
            QuestionKind::Likert(scale) => {
                Answer::Scale((scale.min() + i32::try_from(value).unwrap()).min(scale.max()))
            }
            _ => Answer::Number(f64::from(u32::try_from(value).unwrap())),
        });
        let msg = Msg::Answer {
            target: Target::Survey {
                question: q.id.clone(),
            },
            reply: answer.map(Reply::Answer),
            advance: false,
        };
        update(study, s, msg, now);
    };
    let read = |p: &Progress, field: usize| format!("{:?}", p.intake.get(&questions[field].id));
    run(&study, &start, ops, &edit, &read, n, wrong_clocks)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn trial_answers_end_with_their_latest_edit(ops in ops(false)) {
        run_trials(&ops, false)?;
    }

    #[test]
    fn trial_answers_survive_wrong_clocks_and_tabs_in_the_same_millisecond(ops in ops(true)) {
        run_trials(&ops, true)?;
    }

    #[test]
    fn survey_answers_end_with_their_latest_edit(ops in ops(false)) {
        run_survey(&ops, false)?;
    }

    #[test]
    fn survey_answers_survive_wrong_clocks_and_tabs_in_the_same_millisecond(ops in ops(true)) {
        run_survey(&ops, true)?;
    }
}

/// Tab B changes an intake answer after tab A saved another one; B's save
/// takes A's copy in first, which must not put B's old answer back.
#[test]
fn a_survey_answer_changed_in_one_tab_is_not_reverted_by_the_others_copy() {
    let study = example("hare-personalization");
    let start = session_at(&study, Phase::Intake);
    let (mut a, mut b) = (start.clone(), start);
    let answer = |s: &mut Session, q: &str, answer: Answer, now: f64| {
        let msg = Msg::answer(Target::Survey { question: q.into() }, Reply::Answer(answer));
        update(&study, s, msg, now);
    };
    let role = |i: usize| match &study.intake()[0].kind {
        QuestionKind::SingleChoice(o) => Answer::Choice(o[i].clone()),
        other => panic!("role is {other:?}"),
    };
    answer(&mut a, "role", role(0), 100.0);
    b.progress = store::merge(&b.progress, &a.progress);
    answer(&mut a, "experience_years", Answer::Number(4.0), 200.0);
    let stored = a.progress.clone();
    answer(&mut b, "role", role(1), 300.0);
    // B's save: the stored copy (A's) first, then B's write.
    let saved = store::merge(&b.progress, &stored);
    assert_eq!(saved.intake.get("role"), Some(&role(1)));
    assert_eq!(
        saved.intake.get("experience_years"),
        Some(&Answer::Number(4.0))
    );
    // And A, hearing of it, takes B's answer.
    assert_eq!(
        store::merge(&a.progress, &saved).intake.get("role"),
        Some(&role(1))
    );
}

/// Tab B was frozen while tab A changed a score; B wakes and types a note
/// on the same trial. A's score must survive B's save, and a wall clock set back in B changes
/// nothing.
#[test]
fn a_stale_tab_typing_a_note_does_not_revert_a_score_changed_elsewhere() {
    let study = example("work-intake");
    let start = session_at(&study, Phase::Trials);
    let dimension = study.design().tasks[start.plan.trials[0].task].dimensions[0].clone();
    let rate = |s: &mut Session, value: i32, now: f64| {
        let msg = Msg::answer(
            Target::Rating {
                position: 0,
                dimension: dimension.clone(),
            },
            Reply::Score(value),
        );
        update(&study, s, msg, now);
    };
    let (mut a, mut b) = (start.clone(), start);
    rate(&mut a, 3, 1_000.0);
    b.progress = store::merge(&b.progress, &a.progress);
    // B freezes; A changes its mind.
    rate(&mut a, 5, 2_000.0);
    // B wakes with its clock an hour behind and types a note, without having heard of A.
    update(
        &study,
        &mut b,
        Msg::answer(Target::Notes, Reply::Text("unclear".into())),
        2_000.0 - 3_600_000.0,
    );
    let saved = store::merge(&b.progress, &a.progress);
    let t = &saved.trials[0];
    assert_eq!(t.outputs[0].ratings.get(&dimension), Some(&5));
    assert_eq!(t.notes, "unclear");
    assert_eq!(store::merge(&a.progress, &saved).trials, saved.trials);
}

/// Two visits of one Prolific participant (the same id and slot) that came with different
/// session parameters still merge, and to the same record whichever tab merges.
#[test]
fn visits_with_different_platform_parameters_merge_the_same_either_way() {
    let study = example("financial-analysis");
    let visit = |session: &str| crate::plan::PlatformVisit {
        name: "prolific".into(),
        session_id: Some(session.to_owned()),
        ..Default::default()
    };
    let mut a = session_at(&study, Phase::Trials).progress;
    a.annotator.id = Some("5f0c9a".into());
    let mut b = a.clone();
    a.annotator.platform = Some(visit("one"));
    b.annotator.platform = Some(visit("two"));
    let ab = store::merge(&a, &b);
    assert_eq!(ab, store::merge(&b, &a));
    assert_eq!(ab.annotator.platform, Some(visit("two")));
    let mut other = b.clone();
    other.annotator.id = Some("someone-else".into());
    assert_eq!(
        store::merge(&a, &other),
        a,
        "another person's copy is not merged"
    );
}
