//! A stored session read back from what its `Serialize` writes: the envelope the page keeps in
//! the browser's storage ([`envelope`], `store::read`), by hand over [`crate::base::json`] rather than
//! derived, for the size of the annotator's wasm (that module says why).
//!
//! The answers' types that ratings files carry too ([`Answer`], [`ErrorSpan`], [`Phase`],
//! [`PlatformVisit`]) have one reader each, here: their `Deserialize` (what the ratings file's
//! derived reader calls) reads a value and hands it to the same function. Fields written only
//! when they hold something are read as their default when absent, as serde's `default` reads
//! them; a `deny_unknown_fields` type refuses a field it does not know here too.

use serde::{Deserialize, Deserializer};

use super::answers::{Answer, ErrorSpan, OutputAnswers, TrialAnswers};
use super::store::Envelope;
use super::{Phase, Progress};
use crate::base::json::{
    Blank, Read, Value, boolean, count, fields, index, integer, list, map, number, string,
    unknown_variant, variant, whole, word,
};
use crate::plan::{Annotator, PlatformVisit};
use crate::study::from_json::severity;

/// A stored envelope of the current schema version (older ones are migrated to it first).
///
/// # Errors
/// The first thing found wrong, placed from the envelope down (`progress.trials[3].done`).
pub fn envelope(value: &Value) -> Read<Envelope> {
    let mut f = fields(value)?;
    let envelope = Envelope {
        schema_version: f.take("schema_version", count),
        study_id: f.take("study_id", string),
        study_sha256: f.take("study_sha256", string),
        saved_at: f.take("saved_at", number),
        revision: f.take("revision", whole),
        app_version: f.take("app_version", string),
        progress: f.take("progress", progress),
        plan: f.maybe("plan", string),
    };
    f.done(envelope)
}

/// A session's progress.
///
/// # Errors
/// The first thing found wrong, placed from the progress down.
pub fn progress(value: &Value) -> Read<Progress> {
    let mut f = fields(value)?;
    let progress = Progress {
        annotator: f.take("annotator", annotator),
        phase: f.take("phase", phase),
        current: f.take("current", index),
        consent_at: f.maybe("consent_at", number),
        intake: f.maybe("intake", answers).unwrap_or_default(),
        exit: f.maybe("exit", answers).unwrap_or_default(),
        trials: f.take("trials", |v| list(v, trial_answers)),
        started_at: f.maybe("started_at", number),
        finished_at: f.maybe("finished_at", number),
        clock: f.maybe("clock", whole).unwrap_or_default(),
        stamps: f.maybe("stamps", stamps).unwrap_or_default(),
        file_saved: f.maybe("file_saved", whole),
    };
    f.done(progress)
}

fn answers(value: &Value) -> Read<std::collections::BTreeMap<String, Answer>> {
    map(value, answer)
}

fn stamps(value: &Value) -> Read<std::collections::BTreeMap<String, u64>> {
    map(value, whole)
}

/// Who: a slot, an id, the platform's visit.
///
/// # Errors
/// The first field missing or wrong.
pub fn annotator(value: &Value) -> Read<Annotator> {
    let mut f = fields(value)?;
    let annotator = Annotator {
        slot: f.take("slot", count),
        id: f.maybe("id", string),
        platform: f.maybe("platform", platform_visit),
    };
    f.done(annotator)
}

/// The platform's visit, by the parameter names the platforms use.
///
/// # Errors
/// The first field missing or wrong, or a field it does not know.
pub fn platform_visit(value: &Value) -> Read<PlatformVisit> {
    let mut f = fields(value)?;
    let visit = PlatformVisit {
        name: f.take("name", string),
        study_id: f.maybe("STUDY_ID", string),
        session_id: f.maybe("SESSION_ID", string),
        assignment_id: f.maybe("assignmentId", string),
        hit_id: f.maybe("hitId", string),
    };
    f.done_exactly(
        visit,
        &["name", "STUDY_ID", "SESSION_ID", "assignmentId", "hitId"],
    )
}

/// Where the annotator is, by its word (`trials`).
///
/// # Errors
/// Anything but one of the words.
pub fn phase(value: &Value) -> Read<Phase> {
    word(
        value,
        &[
            ("welcome", Phase::Welcome),
            ("consent", Phase::Consent),
            ("declined", Phase::Declined),
            ("instructions", Phase::Instructions),
            ("intake", Phase::Intake),
            ("trials", Phase::Trials),
            ("exit", Phase::Exit),
            ("done", Phase::Done),
            ("screened", Phase::Screened),
        ],
    )
}

/// A trial's answers.
///
/// # Errors
/// The first thing found wrong, placed from the trial down.
pub fn trial_answers(value: &Value) -> Read<TrialAnswers> {
    let mut f = fields(value)?;
    let trial = TrialAnswers {
        outputs: f
            .maybe("outputs", |v| list(v, output_answers))
            .unwrap_or_default(),
        preference: f.maybe("preference", preference),
        explanation: f.maybe("explanation", string).unwrap_or_default(),
        notes: f.maybe("notes", string).unwrap_or_default(),
        active_ms: f.maybe("active_ms", whole).unwrap_or_default(),
        first_shown: f.maybe("first_shown", number),
        last_changed: f.maybe("last_changed", number),
        done: f.maybe("done", boolean).unwrap_or_default(),
        stamps: f.maybe("stamps", stamps).unwrap_or_default(),
    };
    f.done(trial)
}

/// An output's answers.
///
/// # Errors
/// The first thing found wrong, placed from the output down.
pub fn output_answers(value: &Value) -> Read<OutputAnswers> {
    let mut f = fields(value)?;
    let output = OutputAnswers {
        ratings: f.maybe("ratings", |v| map(v, integer)).unwrap_or_default(),
        cannot_judge: f
            .maybe("cannot_judge", |v| list(v, string))
            .unwrap_or_default(),
        answers: f.maybe("answers", answers).unwrap_or_default(),
        flagged: f.maybe("flagged", boolean).unwrap_or_default(),
        spans: f
            .maybe("spans", |v| list(v, error_span))
            .unwrap_or_default(),
        no_errors: f.maybe("no_errors", boolean).unwrap_or_default(),
    };
    f.done(output)
}

pub use crate::study::ask::read_preference as preference;

/// An answer: `{"scale": 4}`, `{"choice": "Yes"}`, …, or `"cannot_judge"`.
///
/// # Errors
/// An unknown kind, or content of the wrong type.
pub fn answer(value: &Value) -> Read<Answer> {
    let (name, content) = variant(value)?;
    let answer = match name {
        "scale" => integer(content).map(Answer::Scale),
        "choice" => string(content).map(Answer::Choice),
        "choices" => list(content, string).map(Answer::Choices),
        "text" => string(content).map(Answer::Text),
        "number" => number(content).map(Answer::Number),
        "rank" => list(content, string).map(Answer::Rank),
        "cannot_judge" if content.is_null() => Ok(Answer::CannotJudge),
        _ => {
            return Err(unknown_variant(
                name,
                &[
                    "scale",
                    "choice",
                    "choices",
                    "text",
                    "number",
                    "rank",
                    "cannot_judge",
                ],
            ));
        }
    };
    answer.map_err(|e| e.in_key(name))
}

/// An error span: its offsets (none for the whole output), severity and category.
///
/// # Errors
/// The first field missing or wrong, or a field it does not know.
pub fn error_span(value: &Value) -> Read<ErrorSpan> {
    let mut f = fields(value)?;
    let span = ErrorSpan {
        start: f.maybe("start", count),
        end: f.maybe("end", count),
        severity: f.take("severity", severity),
        category: f.maybe("category", string),
    };
    f.done_exactly(span, &["start", "end", "severity", "category"])
}

/// The `Deserialize` of a type read by one of the functions above: the value first, then the
/// function (ratings files are read as values anyway).
macro_rules! deserialize_with {
    ($($ty:ty => $read:path,)*) => {
        $(impl<'de> Deserialize<'de> for $ty {
            fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<$ty, D::Error> {
                let value = Value::deserialize(deserializer)?;
                $read(&value).map_err(serde::de::Error::custom)
            }
        })*
    };
}

deserialize_with! {
    Answer => answer,
    ErrorSpan => error_span,
    Phase => phase,
    PlatformVisit => platform_visit,
}

// Placeholders for fields that could not be read (`json::Blank`): never seen, since the value
// they stand in is refused.
impl Blank for Phase {
    fn blank() -> Phase {
        Phase::Welcome
    }
}

impl Blank for Progress {
    fn blank() -> Progress {
        Progress {
            annotator: Annotator::default(),
            phase: Phase::Welcome,
            current: 0,
            consent_at: None,
            intake: Default::default(),
            exit: Default::default(),
            trials: Vec::new(),
            started_at: None,
            finished_at: None,
            clock: 0,
            stamps: Default::default(),
            file_saved: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use proptest::prelude::*;
    use serde_json::json;

    use super::*;
    use crate::study::Severity;

    fn answer_strategy() -> impl Strategy<Value = Answer> {
        let words = prop::collection::vec("[a-z ]{0,6}", 0..3);
        prop_oneof![
            any::<i32>().prop_map(Answer::Scale),
            "[a-zé\"\\\\ ]{0,8}".prop_map(Answer::Choice),
            words.clone().prop_map(Answer::Choices),
            ".{0,12}".prop_map(Answer::Text),
            (-1e12f64..1e12).prop_map(Answer::Number),
            words.prop_map(Answer::Rank),
            Just(Answer::CannotJudge),
        ]
    }

    fn span_strategy() -> impl Strategy<Value = ErrorSpan> {
        let severity = prop_oneof![
            Just(Severity::Minor),
            Just(Severity::Major),
            Just(Severity::Critical)
        ];
        (
            prop::option::of((0u32..50, 0u32..50)),
            severity,
            prop::option::of("[A-Za-z]{1,8}"),
        )
            .prop_map(|(range, severity, category)| ErrorSpan {
                start: range.map(|r| r.0),
                end: range.map(|r| r.1),
                severity,
                category,
            })
    }

    fn output_strategy() -> impl Strategy<Value = OutputAnswers> {
        (
            prop::collection::btree_map("[a-z]{1,4}", -5i32..6, 0..3),
            prop::collection::vec("[a-z]{1,4}", 0..2),
            prop::collection::btree_map("[a-z]{1,4}", answer_strategy(), 0..3),
            any::<bool>(),
            prop::collection::vec(span_strategy(), 0..3),
            any::<bool>(),
        )
            .prop_map(
                |(ratings, cannot_judge, answers, flagged, spans, no_errors)| OutputAnswers {
                    ratings,
                    cannot_judge,
                    answers,
                    flagged,
                    spans,
                    no_errors,
                },
            )
    }

    fn trial_strategy() -> impl Strategy<Value = TrialAnswers> {
        (
            prop::collection::vec(output_strategy(), 0..3),
            prop::option::of(crate::study::ask::preference_strategy()),
            ".{0,8}",
            ".{0,8}",
            any::<u64>(),
            prop::option::of(0f64..2e12),
            any::<bool>(),
            prop::collection::btree_map("[a-z/]{1,8}", any::<u64>(), 0..3),
        )
            .prop_map(
                |(outputs, preference, explanation, notes, active_ms, shown, done, stamps)| {
                    TrialAnswers {
                        outputs,
                        preference,
                        explanation,
                        notes,
                        active_ms,
                        first_shown: shown,
                        last_changed: shown.map(|s| s + 1.5),
                        done,
                        stamps,
                    }
                },
            )
    }

    proptest! {
        /// Whatever a session holds, its stored text reads back as it was.
        #[test]
        fn every_stored_trial_reads_back_as_written(trials in prop::collection::vec(trial_strategy(), 0..4)) {
            let mut progress = Progress::blank();
            progress.trials = trials;
            progress.intake = BTreeMap::from([("age".to_owned(), Answer::Scale(3))]);
            let written = serde_json::to_value(&progress).unwrap();
            prop_assert_eq!(super::progress(&written).unwrap(), progress);
        }
    }

    #[test]
    fn every_phase_and_annotator_reads_back_as_written() {
        for phase in [
            Phase::Welcome,
            Phase::Consent,
            Phase::Declined,
            Phase::Instructions,
            Phase::Intake,
            Phase::Trials,
            Phase::Exit,
            Phase::Done,
            Phase::Screened,
        ] {
            // A new phase fails to compile here until it is listed above.
            match phase {
                Phase::Welcome
                | Phase::Consent
                | Phase::Declined
                | Phase::Instructions
                | Phase::Intake
                | Phase::Trials
                | Phase::Exit
                | Phase::Done
                | Phase::Screened => {}
            }
            assert_eq!(
                super::phase(&serde_json::to_value(phase).unwrap()),
                Ok(phase)
            );
        }
        let annotator = Annotator {
            slot: 4,
            id: Some("p-1".to_owned()),
            platform: Some(PlatformVisit {
                name: "prolific".to_owned(),
                study_id: Some("S".to_owned()),
                session_id: Some("X".to_owned()),
                assignment_id: Some("A".to_owned()),
                hit_id: Some("H".to_owned()),
            }),
        };
        let written = serde_json::to_value(&annotator).unwrap();
        assert_eq!(written["platform"]["STUDY_ID"], "S");
        assert_eq!(super::annotator(&written), Ok(annotator));
    }

    #[test]
    fn what_a_type_does_not_know_is_refused_where_serde_refused_it() {
        let span = json!({"severity": "major", "colour": "red"});
        assert_eq!(
            error_span(&span).unwrap_err().to_string(),
            "unknown field `colour`"
        );
        let visit = json!({"name": "prolific", "study_id": "S"});
        assert!(platform_visit(&visit).is_err());
        // Elsewhere unknown fields are skipped, as the derived readers skipped them.
        let trial = json!({"outputs": [{}], "later": 1});
        assert_eq!(trial_answers(&trial).unwrap().outputs.len(), 1);
        let wrong = answer(&json!({"scale": "4"})).unwrap_err();
        assert_eq!(
            wrong.to_string(),
            "scale: expected a whole number, found a string"
        );
        let wrong = answer(&json!({"stars": 4})).unwrap_err();
        assert!(
            wrong.what().starts_with("\"stars\" is not one of scale"),
            "{wrong}"
        );
        let wrong = progress(
            &json!({"annotator": {"slot": 1}, "phase": "trials", "current": 0,
            "trials": [{"outputs": [{"spans": [{"severity": "huge"}]}]}]}),
        )
        .unwrap_err();
        assert_eq!(
            wrong.place("progress"),
            "progress.trials[0].outputs[0].spans[0].severity"
        );
    }

    #[test]
    fn ratings_files_read_the_shared_types_through_the_same_readers() {
        let answer: Answer = serde_json::from_str(r#"{"choices":["a","b"]}"#).unwrap();
        assert_eq!(
            answer,
            Answer::Choices(vec!["a".to_owned(), "b".to_owned()])
        );
        let answer: Answer = serde_json::from_str(r#""cannot_judge""#).unwrap();
        assert_eq!(answer, Answer::CannotJudge);
        let e = serde_json::from_str::<ErrorSpan>(r#"{"severity":"major","x":1}"#).unwrap_err();
        assert!(e.to_string().contains("unknown field `x`"), "{e}");
        let phase: Phase = serde_json::from_str(r#""screened""#).unwrap();
        assert_eq!(phase, Phase::Screened);
    }
}
