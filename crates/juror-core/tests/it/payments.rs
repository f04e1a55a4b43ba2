//! `juror payments` and the ratings files it pays on: completeness is the page's rule (every
//! trial finished), not what a file says of itself, and an attention check left undone fails.
//! The files are a real ratings file (`trajectories-slot1.json`, nine trials, one check item shown in three)
//! edited and given a correct checksum again, as anyone can.

use juror_core::analysis::payments::payments;
use juror_core::analysis::{Context, Input};
use juror_core::base::digest::sha256_hex;
use juror_core::session::ratings::parse;
use serde_json::Value;

use crate::support::fixture;

/// The fixture with `edit` applied and its checksum made right again (the checksum detects
/// accidents, not forgery: the page's own rule is what must hold).
fn forged(edit: impl FnOnce(&mut Value)) -> String {
    let mut value: Value =
        serde_json::from_str(&fixture("analysis/trajectories-slot1.json")).unwrap();
    edit(&mut value);
    let object = value.as_object_mut().unwrap();
    object.remove("sha256");
    let sum = sha256_hex(&serde_json::to_string(&value).unwrap());
    value["sha256"] = Value::from(sum);
    serde_json::to_string_pretty(&value).unwrap()
}

fn trials(value: &mut Value) -> &mut Vec<Value> {
    value["trials"].as_array_mut().unwrap()
}

fn context() -> Context<'static> {
    Context {
        study: None,
        key: None,
        reveal_ids: true,
    }
}

#[test]
fn the_resealed_fixture_reads_so_the_edits_below_are_what_is_refused() {
    assert!(parse(&forged(|_| {})).is_ok());
}

#[test]
fn a_file_that_says_complete_with_no_trial_finished_is_refused_where_it_is_read() {
    let text = forged(|v| {
        for t in trials(v) {
            t["done"] = Value::Bool(false);
        }
    });
    let e = parse(&text).unwrap_err();
    assert_eq!(e.at, "trials[0].done");
    assert!(e.message.contains("says it is complete"), "{}", e.message);
    // Payments list it as a problem, never as a complete participant with nothing to look at.
    let list = payments(&[Input::new("pay-forged.json", text)], &context());
    assert!(list.rows.is_empty(), "{:?}", list.rows);
    assert_eq!(list.problems.len(), 1);
}

#[test]
fn an_attention_check_left_undone_fails_and_is_noted() {
    let text = forged(|v| {
        v["complete"] = Value::Bool(false);
        v["phase"] = Value::from("trials");
        for t in trials(v) {
            if t["check"] == Value::Bool(true) {
                t["done"] = Value::Bool(false);
            }
        }
    });
    let list = payments(&[Input::new("pay-skipcheck.json", text)], &context());
    assert!(list.problems.is_empty(), "{:?}", list.problems);
    let row = &list.rows[0];
    assert!(!row.complete);
    // The check item is shown in three trials (one per output), all left undone.
    assert_eq!((row.trials_done, row.trials), (6, 9));
    assert_eq!((row.checks, row.checks_passed), (1, 0));
    let notes = row.notes.join("; ");
    assert!(
        notes.contains("not complete (6 of 9 trials finished)"),
        "{notes}"
    );
    assert!(
        notes.contains("1 of 1 attention check(s) failed (1 not done)"),
        "{notes}"
    );
    // The table a researcher reads shows the trials finished.
    assert!(list.to_table().contains("6/9"), "{}", list.to_table());
}

/// UX walkthrough 2026-12-01, finding 20: a complete file whose active time is under a third
/// of the study's `estimated_minutes` (20 for this study) is noted before paying; one read at
/// a believable pace is not.
#[test]
fn a_completion_far_faster_than_the_estimate_is_noted() {
    let text = crate::support::example("reasoning-trajectories");
    let study = juror_core::analysis::plan_reader::parse_study(&text).unwrap();
    let hash = sha256_hex(&text);
    let context = Context {
        study: Some((&study, &hash)),
        ..context()
    };
    // The fixture's nine trials took 63 s in all.
    let fast = payments(&[Input::new("pay-fast.json", forged(|_| {}))], &context);
    assert!(fast.problems.is_empty(), "{:?}", fast.problems);
    let notes = fast.rows[0].notes.join("; ");
    assert!(
        notes.contains(
            "active on the trials for 1.1 min, under a third of the study's estimate of 20 min"
        ),
        "{notes}"
    );
    // A minute a trial: 9 minutes, over a third of 20.
    let paced = forged(|v| {
        for t in trials(v) {
            t["active_ms"] = Value::from(60_000);
        }
    });
    let paced = payments(&[Input::new("pay-paced.json", paced)], &context);
    assert!(paced.problems.is_empty(), "{:?}", paced.problems);
    assert!(
        !paced.rows[0].notes.iter().any(|n| n.contains("estimate")),
        "{:?}",
        paced.rows[0].notes
    );
}

/// With rater models asked, each participant's row carries their estimated accuracy and
/// competence: the report's fits, weighted by the participant's answers, for the participant
/// the row names (the ids revealed, as on the list).
#[test]
fn each_participant_gets_the_rater_quality_the_report_estimates() {
    use juror_core::analysis::read;
    use juror_core::analysis::report::raters::{estimate_for_payments, per_annotator, report};
    use juror_core::study::analysis_plan::{AnalysisPlan, RaterModel, RaterModels};

    let inputs: Vec<Input> = [
        "financial-slot1.json",
        "financial-slot2.json",
        "financial-slot3.json",
    ]
    .iter()
    .map(|f| crate::support::input(f))
    .collect();
    let mut list = payments(&inputs, &context());
    assert!(list.rows.iter().all(|r| r.accuracy.is_none()));
    assert!(
        !list.to_table().contains("accuracy"),
        "no column when not asked"
    );
    let raters = RaterModels::of(&[RaterModel::DawidSkene]);
    estimate_for_payments(&mut list, &inputs, &context(), raters);
    let data = read(&inputs, &context());
    let mut dimensions: Vec<String> = data
        .ratings
        .iter()
        .map(|r| r.dimension.to_string())
        .collect();
    dimensions.sort();
    dimensions.dedup();
    let plan = AnalysisPlan {
        raters,
        ..AnalysisPlan::default()
    };
    let fits = report(&data, &plan, &dimensions, None);
    assert!(!fits.is_empty());
    let want = per_annotator(&fits);
    assert_eq!(list.rows.len(), 3);
    for row in &list.rows {
        let q = want
            .get(&row.participant)
            .expect("a participant of the fits");
        assert_eq!(row.accuracy, q.accuracy);
        assert!(row.accuracy.is_some_and(|a| (0.0..=1.0).contains(&a)));
        assert_eq!(row.competence, None, "MACE only when asked");
    }
    assert!(list.to_table().lines().next().unwrap().contains("accuracy"));
    let csv = list.to_csv();
    assert!(
        csv.lines()
            .next()
            .unwrap()
            .contains(",accuracy,competence,notes")
    );
}
