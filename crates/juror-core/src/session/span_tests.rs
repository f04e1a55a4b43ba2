//! Error spans in the session: marking, refusing overlaps and what the task does not offer,
//! "No errors", the missing answer, the ratings file and the merge of two tabs, span by span.

use super::ratings::{export, parse, restore};
use super::tests::{example, into_trials};
use super::*;
use crate::study::{Severity, Study};

fn span(start: u32, end: u32, severity: Severity) -> ErrorSpan {
    ErrorSpan {
        start: Some(start),
        end: Some(end),
        severity,
        category: None,
    }
}

fn whole(severity: Severity) -> ErrorSpan {
    ErrorSpan {
        start: None,
        end: None,
        severity,
        category: None,
    }
}

fn mark(study: &Study, s: &mut Session, span: ErrorSpan, now: f64) -> Vec<Cmd> {
    update(study, s, Msg::MarkSpan { position: 0, span }, now)
}

fn spans_of(s: &Session) -> Vec<ErrorSpan> {
    s.progress.trials[s.progress.current].outputs[0]
        .spans
        .clone()
}

fn text_length(study: &Study, s: &Session) -> u32 {
    let trial = &s.plan.trials[s.progress.current];
    u32::try_from(
        crate::plan::view::shown_text(study, trial, 0)
            .chars()
            .count(),
    )
    .unwrap()
}

#[test]
fn spans_are_marked_in_text_order_and_an_overlap_is_refused() {
    let (study, mut s) = into_trials("summeval-esa");
    assert!(mark(&study, &mut s, span(10, 15, Severity::Major), 1.0).contains(&Cmd::Save));
    mark(&study, &mut s, span(0, 4, Severity::Minor), 2.0);
    assert_eq!(
        spans_of(&s),
        vec![span(0, 4, Severity::Minor), span(10, 15, Severity::Major)]
    );
    // Overlapping either end, or inside: refused, nothing changes, nothing to save.
    for bad in [
        span(3, 6, Severity::Major),
        span(12, 13, Severity::Minor),
        span(0, 20, Severity::Minor),
    ] {
        assert!(mark(&study, &mut s, bad, 3.0).is_empty());
    }
    assert_eq!(spans_of(&s).len(), 2);
    // The same text again changes its severity.
    mark(&study, &mut s, span(10, 15, Severity::Minor), 4.0);
    assert_eq!(spans_of(&s)[1], span(10, 15, Severity::Minor));
    // Touching spans do not overlap.
    mark(&study, &mut s, span(4, 10, Severity::Major), 5.0);
    assert_eq!(spans_of(&s).len(), 3);
    // Removed by key.
    update(
        &study,
        &mut s,
        Msg::RemoveSpan {
            position: 0,
            key: "4-10".into(),
        },
        6.0,
    );
    assert_eq!(spans_of(&s).len(), 2);
}

#[test]
fn what_the_task_does_not_offer_is_refused() {
    let (study, mut s) = into_trials("summeval-esa");
    let n = text_length(&study, &s);
    let critical = span(0, 2, Severity::Critical);
    let past_the_end = span(n - 1, n + 1, Severity::Minor);
    let empty = span(3, 3, Severity::Minor);
    let backwards = span(5, 3, Severity::Minor);
    let half = ErrorSpan {
        end: None,
        ..span(1, 2, Severity::Minor)
    };
    let category = ErrorSpan {
        category: Some("Fluency".into()),
        ..span(1, 2, Severity::Minor)
    };
    for bad in [critical, past_the_end, empty, backwards, half, category] {
        assert!(mark(&study, &mut s, bad.clone(), 1.0).is_empty(), "{bad:?}");
    }
    assert!(spans_of(&s).is_empty());
    // The last character, and an error of the whole output (the task allows omissions).
    mark(&study, &mut s, span(n - 1, n, Severity::Minor), 2.0);
    mark(&study, &mut s, whole(Severity::Major), 3.0);
    assert_eq!(
        spans_of(&s),
        vec![span(n - 1, n, Severity::Minor), whole(Severity::Major)]
    );
}

#[test]
fn the_errors_are_missing_until_marked_or_no_errors_is_ticked() {
    let (study, mut s) = into_trials("summeval-esa");
    update(
        &study,
        &mut s,
        Msg::answer(
            Target::Rating {
                position: 0,
                dimension: "esa".into(),
            },
            Reply::Score(70),
        ),
        1.0,
    );
    update(&study, &mut s, Msg::Next, 2.0);
    assert_eq!(s.progress.current, 0, "refused");
    assert_eq!(s.missing.len(), 1);
    assert_eq!(s.missing[0].target, Target::Spans { position: 0 });
    assert_eq!(s.missing[0].reason, "mark the errors, or tick “No errors”");
    update(
        &study,
        &mut s,
        Msg::answer(Target::Spans { position: 0 }, Reply::Ticked),
        3.0,
    );
    assert!(s.missing.is_empty());
    // A span marked takes "No errors" back; "No errors" cannot be ticked over a span.
    mark(&study, &mut s, span(0, 3, Severity::Minor), 4.0);
    assert!(!s.progress.trials[0].outputs[0].no_errors);
    assert!(
        update(
            &study,
            &mut s,
            Msg::answer(Target::Spans { position: 0 }, Reply::Ticked),
            5.0
        )
        .is_empty()
    );
    assert!(!s.progress.trials[0].outputs[0].no_errors);
    update(&study, &mut s, Msg::Next, 6.0);
    assert_eq!(s.progress.current, 1);
}

#[test]
fn spans_travel_in_the_ratings_file_in_code_points_and_restore() {
    let (study, hash) = example("summeval-esa");
    let (_, mut s) = into_trials("summeval-esa");
    let n = text_length(&study, &s);
    mark(&study, &mut s, span(0, 3, Severity::Minor), 1.0);
    mark(&study, &mut s, span(n - 2, n, Severity::Major), 2.0);
    mark(&study, &mut s, whole(Severity::Major), 3.0);
    let file = export(&study, &hash, &s, "test", 4.0);
    let out = &file.trials[0].outputs[0];
    assert_eq!(out.spans.len(), 3);
    assert_eq!(out.length, Some(n), "the output's length in code points");
    let text = file.to_json();
    assert!(text.contains(r#""severity": "major""#), "{text}");
    let back = parse(&text).unwrap();
    assert_eq!(back, file);
    let progress = restore(&study, &hash, &back).unwrap();
    assert_eq!(progress.trials[0].outputs[0].spans, spans_of(&s));
}

#[test]
fn a_stored_span_that_does_not_fit_the_output_is_refused() {
    let (study, mut s) = into_trials("summeval-esa");
    let n = text_length(&study, &s);
    let mut bad = s.progress.clone();
    bad.trials[0].outputs[0].spans = vec![span(n, n + 5, Severity::Minor)];
    assert!(
        fits(&study, &s.plan, &bad)
            .unwrap_err()
            .contains("error span")
    );
    let mut overlapping = s.progress.clone();
    overlapping.trials[0].outputs[0].spans =
        vec![span(0, 5, Severity::Minor), span(4, 8, Severity::Minor)];
    assert!(fits(&study, &s.plan, &overlapping).is_err());
    // A span where the task asks for none.
    let (other, other_session) = into_trials("summeval");
    let mut stray = other_session.progress.clone();
    stray.trials[0].outputs[0].spans = vec![span(0, 1, Severity::Minor)];
    assert!(fits(&other, &other_session.plan, &stray).is_err());
    mark(&study, &mut s, span(0, 5, Severity::Minor), 1.0);
    assert_eq!(fits(&study, &s.plan, &s.progress), Ok(()));
}

#[test]
fn two_tabs_merge_span_by_span_and_never_keep_an_overlap() {
    let (study, base) = into_trials("summeval-esa");
    let (mut a, mut b) = (base.clone(), base.clone());
    mark(&study, &mut a, span(0, 5, Severity::Minor), 100.0);
    mark(&study, &mut b, span(20, 25, Severity::Major), 101.0);
    // Overlapping marks made without seeing each other: the later one stays, in both tabs.
    mark(&study, &mut a, span(40, 50, Severity::Minor), 102.0);
    mark(&study, &mut b, span(45, 55, Severity::Major), 103.0);
    for merged in [
        store::merge(&a.progress, &b.progress),
        store::merge(&b.progress, &a.progress),
    ] {
        assert_eq!(
            merged.trials[0].outputs[0].spans,
            vec![
                span(0, 5, Severity::Minor),
                span(20, 25, Severity::Major),
                span(45, 55, Severity::Major)
            ]
        );
    }
    // A span removed in one tab stays removed after the merge.
    let mut c = Session {
        progress: store::merge(&a.progress, &b.progress),
        ..a.clone()
    };
    update(
        &study,
        &mut c,
        Msg::RemoveSpan {
            position: 0,
            key: "0-5".into(),
        },
        200.0,
    );
    let merged = store::merge(&c.progress, &b.progress);
    assert!(
        merged.trials[0].outputs[0]
            .spans
            .iter()
            .all(|s| s.key() != "0-5")
    );
}

#[test]
fn the_trial_view_gives_the_plain_text_and_the_spans_asked() {
    let (study, s) = into_trials("summeval-esa");
    let view = current_view(&study, &s).unwrap();
    let spans = view.spans.unwrap();
    assert_eq!(spans.severities, vec![Severity::Minor, Severity::Major]);
    assert!(spans.whole_output);
    let text = crate::plan::view::shown_text(&study, &s.plan.trials[0], 0);
    assert_eq!(view.outputs[0].text.as_deref(), Some(text));
    assert!(view.outputs[0].body.is_none(), "no Markdown is rendered");
    // Without spans, Markdown as before.
    let (plain, t) = into_trials("summeval");
    let view = current_view(&plain, &t).unwrap();
    assert!(view.spans.is_none() && view.outputs[0].text.is_none());
}

/// `plain_text` without spans: the text as it is, no Markdown, and nothing to mark.
#[test]
fn a_plain_text_task_gives_the_text_without_spans() {
    let (study, _) = example("summeval");
    let mut raw: crate::study::RawStudy = serde_json::from_str(
        &std::fs::read_to_string(format!(
            "{}/../../assets/studies/summeval.json",
            env!("CARGO_MANIFEST_DIR")
        ))
        .unwrap(),
    )
    .unwrap();
    raw.design.tasks[0].plain_text = true;
    let plain = crate::study::validate(&raw).unwrap();
    let s = Session::new(&plain, crate::plan::Annotator::slot(1));
    let trial = &s.plan.trials[0];
    let view = crate::plan::view::TrialView::new(&plain, &s.plan, 0, trial);
    assert!(view.spans.is_none());
    assert!(view.outputs[0].body.is_none());
    assert_eq!(
        view.outputs[0].text.as_deref(),
        Some(crate::plan::view::shown_text(&study, trial, 0))
    );
}
