//! "Cannot judge" on a rubric dimension and on questions (`allow_skip`): the study's checks, the
//! session (the `0` key, the reducer, the missing-answer rule), the ratings file and its tidy
//! CSV, and the analysis, which counts each per question and system and leaves it out of every
//! mean (the means here computed by hand from the files' own scores).

use std::collections::BTreeMap;

use juror_core::analysis::report::Report;
use juror_core::analysis::{Context, Data, Input, Options, analyze, to_csv};
use juror_core::plan::Annotator;
use juror_core::session::keys::{Key, to_msg};
use juror_core::session::ratings::{RatingsFile, export};
use juror_core::session::{
    Answer, Msg, Phase, Preference, Reply, Session, Survey, Target, trial_missing, update,
};
use juror_core::study::{Study, parse_study};
use serde_json::{Value, json};

use crate::support::example;

fn key(k: &str) -> Key<'_> {
    Key {
        key: k,
        shift: false,
        modified: false,
        typing: false,
        on_control: false,
    }
}

/// The kitchen example (its Correctness dimension offers "Cannot judge"), changed by `change`.
fn kitchen(change: impl FnOnce(&mut Value)) -> Result<(Study, String), String> {
    let mut raw: Value = serde_json::from_str(&example("kitchen-qa")).unwrap();
    change(&mut raw);
    let text = raw.to_string();
    let study = parse_study(&text).map_err(|p| p.to_string())?;
    Ok((study, juror_core::base::digest::sha256_hex(&text)))
}

/// The kitchen example with a per-output question and the intake question offering "Cannot
/// judge".
fn kitchen_with_questions() -> (Study, String) {
    kitchen(|raw| {
        raw["rubric"]["output_questions"] = json!([{
            "id": "tried", "prompt": "Would you try it?", "type": "single_choice",
            "options": ["Yes", "No"], "allow_skip": true
        }]);
        raw["surveys"]["intake"][0]["allow_skip"] = json!(true);
    })
    .unwrap()
}

/// A session of `slot` on its first trial (the intake answered with `intake`).
fn into_trials(study: &Study, slot: u32, intake: Answer) -> Session {
    let mut s = Session::new(study, Annotator::slot(slot));
    let mut now = 1.0;
    while s.progress.phase != Phase::Trials {
        now += 1.0;
        let msg = match s.progress.phase {
            Phase::Welcome => Msg::Start,
            Phase::Consent => Msg::Consent(true),
            Phase::Instructions => Msg::FinishInstructions,
            Phase::Intake => {
                let answer = Msg::answer(
                    Target::Survey {
                        question: "cook_freq".into(),
                    },
                    Reply::Answer(intake.clone()),
                );
                update(study, &mut s, answer, now);
                Msg::SubmitSurvey(Survey::Intake)
            }
            other => panic!("the kitchen example has no {other:?} to pass"),
        };
        update(study, &mut s, msg, now);
    }
    s
}

fn task_of(study: &Study, s: &Session, index: usize) -> String {
    study.design().tasks[s.plan.trials[index].task].id.clone()
}

#[test]
fn the_study_offers_cannot_judge_on_dimensions_and_scale_or_choice_questions_only() {
    let (study, _) = kitchen(|_| {}).unwrap();
    assert!(study.dimension("correct").unwrap().allow_skip);
    assert!(!study.dimension("clarity").unwrap().allow_skip);
    let (study, _) = kitchen_with_questions();
    assert!(study.intake()[0].allow_skip);
    assert!(study.rubric().output_questions[0].allow_skip);
    // A text, number or ranking question has nothing to leave out: refused where it is set.
    for (kind, extra) in [
        ("short_text", json!({})),
        ("long_text", json!({})),
        ("number", json!({"min": 0})),
        ("rank", json!({"options": ["x", "y"]})),
    ] {
        let problems = kitchen(|raw| {
            let mut q = json!({"id": "why", "prompt": "Why?", "type": kind, "allow_skip": true});
            for (k, v) in extra.as_object().unwrap() {
                q[k] = v.clone();
            }
            raw["surveys"]["intake"].as_array_mut().unwrap().push(q);
        })
        .err()
        .unwrap_or_default();
        assert!(
            problems.contains(
                "surveys.intake[1].allow_skip: \"Cannot judge\" is for scale and choice questions"
            ),
            "{kind}: {problems}"
        );
    }
    // Not a boolean: said at its place.
    let problems = kitchen(|raw| raw["rubric"]["dimensions"][1]["allow_skip"] = json!("yes"))
        .err()
        .unwrap_or_default();
    assert!(
        problems.contains("rubric.dimensions[1].allow_skip"),
        "{problems}"
    );
}

#[test]
fn zero_says_cannot_judge_for_the_score_a_digit_would_answer_and_counts_as_answered() {
    let (study, _) = kitchen(|_| {}).unwrap();
    let mut s = into_trials(&study, 1, Answer::Choice("Weekly".into()));
    let rate = (0..s.plan.trials.len())
        .find(|&i| task_of(&study, &s, i) == "rate")
        .unwrap();
    update(&study, &mut s, Msg::GoTo(rate), 2.0);
    assert_eq!(s.progress.current, rate);
    let cannot = |dimension: &str, on: bool| Msg::Answer {
        target: Target::Rating {
            position: 0,
            dimension: dimension.into(),
        },
        reply: on.then_some(Reply::CannotJudge),
        advance: true,
    };
    // The first unanswered score is Correctness, which offers it.
    assert_eq!(
        to_msg(&study, &s, key("0"), None),
        Some(cannot("correct", true))
    );
    let msg = to_msg(&study, &s, key("0"), None).unwrap();
    update(&study, &mut s, msg, 3.0);
    let output = |s: &Session| s.progress.trials[rate].outputs[0].clone();
    assert!(output(&s).cannot_judge.contains(&"correct".to_owned()));
    assert!(output(&s).ratings.is_empty());
    // Answered: only Clarity is missing, and `0` on it (which does not offer it) does nothing.
    let missing: Vec<Target> = trial_missing(&study, &s, rate)
        .into_iter()
        .map(|m| m.target)
        .collect();
    assert_eq!(
        missing,
        vec![Target::Rating {
            position: 0,
            dimension: "clarity".into()
        }]
    );
    assert_eq!(to_msg(&study, &s, key("0"), None), None);
    let clarity = Target::Rating {
        position: 0,
        dimension: "clarity".into(),
    };
    assert_eq!(to_msg(&study, &s, key("0"), Some(&clarity)), None);
    // Refused by the reducer too.
    update(&study, &mut s, cannot("clarity", true), 4.0);
    assert!(!output(&s).cannot_judge.contains(&"clarity".to_owned()));
    // A score replaces it, and it replaces a score.
    let score = |value| {
        Msg::answer(
            Target::Rating {
                position: 0,
                dimension: "correct".into(),
            },
            Reply::Score(value),
        )
    };
    update(&study, &mut s, score(2), 5.0);
    assert_eq!(output(&s).ratings.get("correct"), Some(&2));
    assert!(output(&s).cannot_judge.is_empty());
    update(&study, &mut s, cannot("correct", true), 6.0);
    assert!(output(&s).ratings.is_empty());
    assert!(output(&s).cannot_judge.contains(&"correct".to_owned()));
    // Taken back (the slider's checkbox): unanswered again, and missing.
    update(&study, &mut s, cannot("correct", false), 7.0);
    assert!(!output(&s).rated("correct"));
    assert_eq!(trial_missing(&study, &s, rate).len(), 2);
    // "Cannot judge" and a score: the trial is done.
    update(&study, &mut s, cannot("correct", true), 8.0);
    let clarity_score = Msg::answer(
        Target::Rating {
            position: 0,
            dimension: "clarity".into(),
        },
        Reply::Score(3),
    );
    update(&study, &mut s, clarity_score, 9.0);
    update(&study, &mut s, Msg::Next, 10.0);
    assert!(
        s.progress.trials[rate].done,
        "cannot judge is never missing"
    );
}

/// Every trial answered: on a rating trial Correctness is "Cannot judge" when `skip(trial)`,
/// else scored by `score(trial)`; Clarity 3; a pair's preference the first output; the output
/// question, when there is one, "Cannot judge" on every second trial.
fn answer_all(
    study: &Study,
    s: &mut Session,
    skip: impl Fn(usize) -> bool,
    score: impl Fn(usize) -> i32,
) {
    let mut now = 100.0;
    while s.progress.phase == Phase::Trials {
        now += 1.0;
        let i = s.progress.current;
        let task = study.design().tasks[s.plan.trials[i].task].clone();
        for position in 0..s.plan.trials[i].shown.len() {
            for d in &task.dimensions {
                let msg = match d.as_str() {
                    "correct" if skip(i) => Msg::answer(
                        Target::Rating {
                            position,
                            dimension: d.clone(),
                        },
                        Reply::CannotJudge,
                    ),
                    "correct" => Msg::answer(
                        Target::Rating {
                            position,
                            dimension: d.clone(),
                        },
                        Reply::Score(score(i)),
                    ),
                    _ => Msg::answer(
                        Target::Rating {
                            position,
                            dimension: d.clone(),
                        },
                        Reply::Score(3),
                    ),
                };
                update(study, s, msg, now);
            }
            for q in &task.output_questions {
                let answer = if i.is_multiple_of(2) {
                    Answer::CannotJudge
                } else {
                    Answer::Choice("Yes".into())
                };
                let msg = Msg::answer(
                    Target::OutputQuestion {
                        position,
                        question: q.clone(),
                    },
                    Reply::Answer(answer),
                );
                update(study, s, msg, now);
            }
        }
        if task.preference.is_some() {
            update(
                study,
                s,
                Msg::answer(
                    Target::Preference,
                    Reply::Preference(Preference::Choice { position: 0 }),
                ),
                now,
            );
        }
        update(study, s, Msg::Next, now);
        assert!(
            s.progress.phase != Phase::Trials || s.progress.current != i,
            "trial {i} refused: {:?}",
            s.missing
        );
    }
    assert_eq!(s.progress.phase, Phase::Done);
}

fn report_of(inputs: &[Input<'_>], study: &Study, hash: &str) -> (Data, Report) {
    let context = Context {
        study: Some((study, hash)),
        ..Context::default()
    };
    analyze(inputs, &context, None, &Options::default())
}

/// Per system, the mean over items of the item's mean Correctness score, and the count of
/// "Cannot judge", from the files' own records.
fn by_hand(files: &[RatingsFile]) -> (BTreeMap<String, f64>, BTreeMap<String, usize>) {
    let mut scores: BTreeMap<String, BTreeMap<String, Vec<f64>>> = BTreeMap::new();
    let mut skips: BTreeMap<String, usize> = BTreeMap::new();
    for file in files {
        for t in file.trials.iter().filter(|t| t.done && !t.check) {
            for o in &t.outputs {
                if let Some(v) = o.ratings.get("correct") {
                    scores
                        .entry(o.system.clone())
                        .or_default()
                        .entry(t.item.clone())
                        .or_default()
                        .push(f64::from(*v));
                }
                if o.cannot_judge.contains(&"correct".to_owned()) {
                    *skips.entry(o.system.clone()).or_default() += 1;
                }
            }
        }
    }
    let mean = |xs: &[f64]| xs.iter().sum::<f64>() / xs.len() as f64;
    let means = scores
        .into_iter()
        .map(|(system, items)| {
            let item_means: Vec<f64> = items.values().map(|xs| mean(xs)).collect();
            (system, mean(&item_means))
        })
        .collect();
    (means, skips)
}

fn correct_means(report: &Report) -> BTreeMap<String, f64> {
    report
        .dimensions
        .iter()
        .find(|d| d.dimension == "correct")
        .unwrap()
        .systems
        .iter()
        .map(|s| (s.system.clone(), s.mean))
        .collect()
}

fn counts(report: &Report, question: &str) -> BTreeMap<String, usize> {
    report
        .cannot_judge
        .iter()
        .filter(|c| c.question == question)
        .map(|c| (c.system.clone(), c.count))
        .collect()
}

#[test]
fn a_dimensions_cannot_judge_is_in_the_file_counted_per_system_and_in_no_mean() {
    let (study, hash) = kitchen(|_| {}).unwrap();
    let mut files = Vec::new();
    for slot in 1..=3 {
        let mut s = into_trials(&study, slot, Answer::Choice("Weekly".into()));
        let offset = slot as usize;
        answer_all(
            &study,
            &mut s,
            |i| (i + offset).is_multiple_of(3),
            |i| 1 + ((i + offset) % 3) as i32,
        );
        files.push(export(&study, &hash, &s, "test", 1e12));
    }
    // The file: a list of the dimensions said "Cannot judge", never a score; the tidy CSV a row.
    let skipped = files[0]
        .trials
        .iter()
        .flat_map(|t| &t.outputs)
        .find(|o| o.cannot_judge.contains(&"correct".to_owned()))
        .expect("a skipped output");
    assert!(!skipped.ratings.contains_key("correct"));
    let json = files[0].to_json();
    assert!(json.contains("\"cannot_judge\": [\n"), "{json}");
    assert!(files[0].to_csv().contains(",correct,cannot_judge\n"));
    // Read back, the file restores the same answers.
    let parsed = juror_core::session::ratings::parse(&json).unwrap();
    assert_eq!(parsed, files[0]);
    let restored = juror_core::session::ratings::restore(&study, &hash, &parsed).unwrap();
    assert!(
        restored
            .trials
            .iter()
            .flat_map(|t| &t.outputs)
            .any(|o| o.cannot_judge.contains(&"correct".to_owned()))
    );
    // The analysis: every skip counted per system, no skip in a mean.
    let inputs: Vec<Input<'_>> = files
        .iter()
        .enumerate()
        .map(|(i, f)| Input::new(format!("juror-kitchen-{i}.json"), f.to_json()))
        .collect();
    let (data, report) = report_of(&inputs, &study, &hash);
    assert!(report.problems.is_empty(), "{:?}", report.problems);
    let (means, skips) = by_hand(&files);
    assert!(skips.values().sum::<usize>() > 0);
    assert_eq!(counts(&report, "correct"), skips);
    let got = correct_means(&report);
    assert_eq!(
        got.keys().collect::<Vec<_>>(),
        means.keys().collect::<Vec<_>>()
    );
    for (system, want) in &means {
        assert!(
            (got[system] - want).abs() < 1e-12,
            "{system}: {got:?} {means:?}"
        );
    }
    assert_eq!(
        data.ratings
            .iter()
            .filter(|r| &*r.dimension == "correct")
            .count(),
        files
            .iter()
            .flat_map(|f| &f.trials)
            .filter(|t| t.done && !t.check)
            .flat_map(|t| &t.outputs)
            .filter(|o| o.ratings.contains_key("correct"))
            .count()
    );
    // The tidy CSV both ways: the same counts and means.
    let csv = to_csv(&data);
    assert!(csv.contains(",correct,cannot_judge,"), "{csv}");
    let (again, report2) = report_of(&[Input::new("tidy.csv", csv)], &study, &hash);
    assert_eq!(again.skips.len(), data.skips.len());
    assert_eq!(report2.cannot_judge, report.cannot_judge);
    assert_eq!(correct_means(&report2), got);
    // The Markdown report says so.
    let md = juror_core::analysis::markdown::render(&report);
    assert!(md.contains("## Cannot judge"), "{md}");
}

#[test]
fn a_questions_cannot_judge_is_an_answer_of_its_own_counted_apart() {
    let (study, hash) = kitchen_with_questions();
    // Refused where the question does not offer it.
    let (plain, _) = kitchen(|_| {}).unwrap();
    let mut s = Session::new(&plain, Annotator::slot(1));
    update(&plain, &mut s, Msg::Start, 1.0);
    update(&plain, &mut s, Msg::Consent(true), 1.5);
    update(&plain, &mut s, Msg::FinishInstructions, 2.0);
    assert_eq!(s.progress.phase, Phase::Intake);
    let skip = Msg::answer(
        Target::Survey {
            question: "cook_freq".into(),
        },
        Reply::Answer(Answer::CannotJudge),
    );
    update(&plain, &mut s, skip.clone(), 3.0);
    assert_eq!(s.survey_answer(Survey::Intake, "cook_freq"), None);
    // Offered: an answer that lets the annotator go on.
    let mut files = Vec::new();
    for slot in 1..=2 {
        let intake = if slot == 1 {
            Answer::CannotJudge
        } else {
            Answer::Choice("Weekly".into())
        };
        let mut s = into_trials(&study, slot, intake);
        answer_all(&study, &mut s, |_| false, |_| 2);
        files.push(export(&study, &hash, &s, "test", 1e12));
    }
    assert_eq!(files[0].intake.get("cook_freq"), Some(&Answer::CannotJudge));
    let json = files[0].to_json();
    assert!(json.contains("\"cook_freq\": \"cannot_judge\""), "{json}");
    assert!(json.contains("\"tried\": \"cannot_judge\""), "{json}");
    let inputs: Vec<Input<'_>> = files
        .iter()
        .enumerate()
        .map(|(i, f)| Input::new(format!("juror-kitchen-{i}.json"), f.to_json()))
        .collect();
    let (_, report) = report_of(&inputs, &study, &hash);
    assert!(report.problems.is_empty(), "{:?}", report.problems);
    // The output question: counted per system; its options count the other answers only.
    let mut want: BTreeMap<String, usize> = BTreeMap::new();
    let mut yes: BTreeMap<String, u64> = BTreeMap::new();
    for t in files.iter().flat_map(|f| &f.trials).filter(|t| !t.check) {
        for o in &t.outputs {
            match o.answers.get("tried") {
                Some(Answer::CannotJudge) => *want.entry(o.system.clone()).or_default() += 1,
                Some(_) => *yes.entry(o.system.clone()).or_default() += 1,
                None => {}
            }
        }
    }
    assert_eq!(counts(&report, "tried"), want);
    let answers = report.answers.as_ref().unwrap();
    let tried = &answers.output_questions[0];
    assert_eq!(tried.cannot_judge, want.values().sum::<usize>());
    for o in tried.options.iter().filter(|o| o.option == "Yes") {
        let system = o.system.clone().unwrap();
        assert_eq!(o.count, yes[&system], "{system}");
    }
    assert!(tried.options.iter().all(|o| o.option != "cannot_judge"));
    // The survey question: one "Cannot judge", one "Weekly" of one answer.
    let cook = &answers.intake[0];
    assert_eq!((cook.answers, cook.cannot_judge), (1, 1));
    let weekly = cook.options.iter().find(|o| o.option == "Weekly").unwrap();
    assert_eq!((weekly.count, weekly.of), (1, 1));
}

#[test]
fn a_dimension_listed_twice_as_cannot_judge_is_counted_once() {
    let (study, hash) = kitchen(|_| {}).unwrap();
    let mut s = into_trials(&study, 1, Answer::Choice("Weekly".into()));
    answer_all(&study, &mut s, |i| i % 2 == 0, |i| 1 + (i % 3) as i32);
    let file = export(&study, &hash, &s, "test", 1e12);
    let (_, want) = by_hand(std::slice::from_ref(&file));
    assert!(want.values().sum::<usize>() > 0);
    let mut doubled = file.clone();
    for o in doubled.trials.iter_mut().flat_map(|t| &mut t.outputs) {
        let again = o.cannot_judge.clone();
        o.cannot_judge.extend(again);
    }
    // Sealed again as the format says: the SHA-256 of the compact, key-sorted JSON without it.
    let mut value: Value = serde_json::from_str(&doubled.to_json()).unwrap();
    value.as_object_mut().unwrap().remove("sha256");
    let sum = juror_core::base::digest::sha256_hex(&serde_json::to_string(&value).unwrap());
    value["sha256"] = Value::String(sum);
    let inputs = [Input::new(
        "juror-kitchen-doubled.json",
        serde_json::to_string_pretty(&value).unwrap(),
    )];
    let (_, report) = report_of(&inputs, &study, &hash);
    assert!(report.problems.is_empty(), "{:?}", report.problems);
    assert_eq!(counts(&report, "correct"), want);
}
