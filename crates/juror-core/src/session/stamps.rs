//! When each answer was last given or cleared, so that two tabs' copies merge answer by answer
//! and neither loses an edit.
//!
//! Every edit gets a *stamp* from a hybrid logical clock ([`Progress::tick`]): the larger of the
//! wall clock (ms) and one more than every stamp the progress has seen, its own or merged in from
//! another tab. So an edit made after seeing another one always has the larger stamp, whatever
//! the clocks say (a clock set back, a tab frozen for an hour); and edits made without seeing
//! each other (two tabs at once) are ordered by the wall clock, which is the same clock for two
//! tabs of one browser. The merge ([`super::store::merge`]) keeps, for each answer, the version
//! with the larger stamp; equal stamps with different values (two tabs in the same millisecond)
//! are settled by comparing the values, so every tab settles them the same way.
//!
//! A stamp with no value is a cleared answer, which beats an older value. A value with no stamp
//! (saved before stamps existed, or restored from a ratings file) has stamp 0.

use std::collections::BTreeMap;

use serde::Serialize;

use super::Progress;
use super::answers::{Answer, ErrorSpan, Preference, TrialAnswers, sort_spans};

/// One answer of a trial.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum Field {
    /// The score of the output at a position on a dimension.
    Rating(usize, String),
    /// The answer to a per-output question.
    Answer(usize, String),
    /// The flag of the output at a position.
    Flag(usize),
    /// An error span of the output at a position, by its key ([`ErrorSpan::key`]).
    Span(usize, String),
    /// "No errors" of the output at a position.
    NoErrors(usize),
    /// The preference.
    Preference,
    /// The reason for the preference.
    Explanation,
    /// The notes.
    Notes,
}

impl Field {
    /// The key of the field in [`TrialAnswers::stamps`].
    pub fn key(&self) -> String {
        match self {
            Field::Rating(p, d) => format!("r/{p}/{d}"),
            Field::Answer(p, q) => format!("a/{p}/{q}"),
            Field::Flag(p) => format!("f/{p}"),
            Field::Span(p, k) => format!("s/{p}/{k}"),
            Field::NoErrors(p) => format!("n/{p}"),
            Field::Preference => "preference".to_owned(),
            Field::Explanation => "explanation".to_owned(),
            Field::Notes => "notes".to_owned(),
        }
    }

    /// The field a key names, if any.
    pub fn parse(key: &str) -> Option<Field> {
        match key {
            "preference" => return Some(Field::Preference),
            "explanation" => return Some(Field::Explanation),
            "notes" => return Some(Field::Notes),
            _ => {}
        }
        let mut parts = key.splitn(3, '/');
        let kind = parts.next()?;
        let position = parts.next()?.parse().ok()?;
        match (kind, parts.next()) {
            ("r", Some(d)) => Some(Field::Rating(position, d.to_owned())),
            ("a", Some(q)) => Some(Field::Answer(position, q.to_owned())),
            ("f", None) => Some(Field::Flag(position)),
            ("s", Some(k)) => Some(Field::Span(position, k.to_owned())),
            ("n", None) => Some(Field::NoErrors(position)),
            _ => None,
        }
    }
}

/// The value of one field, to compare and copy.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
enum Value {
    Score(i32),
    /// A dimension's "Cannot judge".
    CannotJudge,
    Answer(Answer),
    Flag(bool),
    Span(ErrorSpan),
    Preference(Preference),
    Text(String),
}

fn get(t: &TrialAnswers, field: &Field) -> Option<Value> {
    match field {
        Field::Rating(p, d) => {
            let o = t.outputs.get(*p)?;
            match o.ratings.get(d) {
                Some(v) => Some(Value::Score(*v)),
                None => o.skipped(d).then_some(Value::CannotJudge),
            }
        }
        Field::Answer(p, q) => t
            .outputs
            .get(*p)?
            .answers
            .get(q)
            .cloned()
            .map(Value::Answer),
        Field::Flag(p) => t.outputs.get(*p)?.flagged.then_some(Value::Flag(true)),
        Field::Span(p, k) => t
            .outputs
            .get(*p)?
            .spans
            .iter()
            .find(|s| &s.key() == k)
            .cloned()
            .map(Value::Span),
        Field::NoErrors(p) => t.outputs.get(*p)?.no_errors.then_some(Value::Flag(true)),
        Field::Preference => t.preference.clone().map(Value::Preference),
        Field::Explanation => Some(&t.explanation)
            .filter(|s| !s.is_empty())
            .cloned()
            .map(Value::Text),
        Field::Notes => Some(&t.notes)
            .filter(|s| !s.is_empty())
            .cloned()
            .map(Value::Text),
    }
}

fn set(t: &mut TrialAnswers, field: &Field, value: Option<Value>) {
    match (field, value) {
        (Field::Rating(p, d), Some(Value::Score(v))) => {
            if let Some(o) = t.outputs.get_mut(*p) {
                o.rate(d, Some(v));
            }
        }
        (Field::Rating(p, d), Some(Value::CannotJudge)) => {
            if let Some(o) = t.outputs.get_mut(*p) {
                o.rate(d, None);
            }
        }
        (Field::Rating(p, d), _) => {
            if let Some(o) = t.outputs.get_mut(*p) {
                o.ratings.remove(d);
                o.cannot_judge.retain(|x| x != d);
            }
        }
        (Field::Answer(p, q), Some(Value::Answer(a))) => {
            if let Some(o) = t.outputs.get_mut(*p) {
                o.answers.insert(q.clone(), a);
            }
        }
        (Field::Answer(p, q), _) => {
            if let Some(o) = t.outputs.get_mut(*p) {
                o.answers.remove(q);
            }
        }
        (Field::Flag(p), v) => {
            if let Some(o) = t.outputs.get_mut(*p) {
                o.flagged = v == Some(Value::Flag(true));
            }
        }
        (Field::Span(p, k), v) => {
            if let Some(o) = t.outputs.get_mut(*p) {
                o.spans.retain(|s| &s.key() != k);
                if let Some(Value::Span(span)) = v {
                    o.spans.push(span);
                    sort_spans(&mut o.spans);
                }
            }
        }
        (Field::NoErrors(p), v) => {
            if let Some(o) = t.outputs.get_mut(*p) {
                o.no_errors = v == Some(Value::Flag(true));
            }
        }
        (Field::Preference, Some(Value::Preference(p))) => t.preference = Some(p),
        (Field::Preference, _) => t.preference = None,
        (Field::Explanation, Some(Value::Text(s))) => t.explanation = s,
        (Field::Explanation, _) => t.explanation.clear(),
        (Field::Notes, Some(Value::Text(s))) => t.notes = s,
        (Field::Notes, _) => t.notes.clear(),
    }
}

/// Every field the trials `ts` have a value or a stamp for, in order, each once.
fn all_fields(ts: &[&TrialAnswers]) -> Vec<Field> {
    let mut all = Vec::new();
    for t in ts {
        fields(t, &mut all);
    }
    crate::base::order::sort(&mut all);
    all.dedup();
    all
}

/// Every field a trial has a value or a stamp for (some more than once).
fn fields(t: &TrialAnswers, into: &mut Vec<Field>) {
    for (p, o) in t.outputs.iter().enumerate() {
        into.extend(o.ratings.keys().map(|d| Field::Rating(p, d.clone())));
        into.extend(o.cannot_judge.iter().map(|d| Field::Rating(p, d.clone())));
        into.extend(o.answers.keys().map(|q| Field::Answer(p, q.clone())));
        if o.flagged {
            into.push(Field::Flag(p));
        }
        into.extend(o.spans.iter().map(|s| Field::Span(p, s.key())));
        if o.no_errors {
            into.push(Field::NoErrors(p));
        }
    }
    for (f, present) in [
        (Field::Preference, t.preference.is_some()),
        (Field::Explanation, !t.explanation.is_empty()),
        (Field::Notes, !t.notes.is_empty()),
    ] {
        if present {
            into.push(f);
        }
    }
    into.extend(t.stamps.keys().filter_map(|k| Field::parse(k)));
}

/// Which of two versions of one answer is kept: the later stamp; on equal stamps, the larger
/// value as JSON (a cleared answer is the smallest), so that both tabs keep the same one.
fn later<T: Serialize>(a: (u64, Option<T>), b: (u64, Option<T>)) -> (u64, Option<T>) {
    match a.0.cmp(&b.0) {
        std::cmp::Ordering::Greater => a,
        std::cmp::Ordering::Less => b,
        std::cmp::Ordering::Equal => {
            let json = |v: &Option<T>| v.as_ref().and_then(|v| serde_json::to_string(v).ok());
            if json(&b.1) > json(&a.1) { b } else { a }
        }
    }
}

/// The answers of two copies of one trial, answer by answer (timings and `done` are the
/// caller's).
pub(super) fn merge_answers(ours: &TrialAnswers, other: &TrialAnswers) -> TrialAnswers {
    let mut out = ours.clone();
    for field in &all_fields(&[ours, other]) {
        let key = field.key();
        let stamp = |t: &TrialAnswers| t.stamps.get(&key).copied().unwrap_or(0);
        let (s, value) = later(
            (stamp(ours), get(ours, field)),
            (stamp(other), get(other, field)),
        );
        set(&mut out, field, value);
        if s > 0 {
            out.stamps.insert(key, s);
        }
    }
    for (p, o) in out.outputs.iter_mut().enumerate() {
        o.spans = without_overlaps(p, std::mem::take(&mut o.spans), &out.stamps);
    }
    out
}

/// Spans two tabs marked over the same text (each without seeing the other's): the later
/// stamped one is kept (on equal stamps, the larger as JSON, as for any answer), the other
/// dropped, so an output never holds two overlapping spans and every tab keeps the same one.
fn without_overlaps(
    position: usize,
    mut spans: Vec<ErrorSpan>,
    stamps: &BTreeMap<String, u64>,
) -> Vec<ErrorSpan> {
    if sorted_apart(&spans) {
        return spans;
    }
    let stamp = |s: &ErrorSpan| {
        stamps
            .get(&Field::Span(position, s.key()).key())
            .copied()
            .unwrap_or(0)
    };
    let json = |s: &ErrorSpan| serde_json::to_string(s).unwrap_or_default();
    crate::base::order::sort_by_key(&mut spans, |s| std::cmp::Reverse((stamp(s), json(s))));
    let mut kept: Vec<ErrorSpan> = Vec::with_capacity(spans.len());
    for s in spans {
        if !kept.iter().any(|k| k.overlaps(&s)) {
            kept.push(s);
        }
    }
    sort_spans(&mut kept);
    kept
}

/// Whether spans in text order are apart: each ends before the next starts.
fn sorted_apart(spans: &[ErrorSpan]) -> bool {
    let ranges: Vec<(u32, u32)> = spans.iter().filter_map(ErrorSpan::range).collect();
    ranges.windows(2).all(|w| w[0].1 <= w[1].0)
}

/// The survey answers of two copies, answer by answer, with their stamps (keyed
/// `<prefix>/<question>`) added to `out_stamps`.
pub(super) fn merge_survey(
    prefix: &str,
    ours: (&BTreeMap<String, Answer>, &BTreeMap<String, u64>),
    other: (&BTreeMap<String, Answer>, &BTreeMap<String, u64>),
    out_stamps: &mut BTreeMap<String, u64>,
) -> BTreeMap<String, Answer> {
    let stamped = |s: &BTreeMap<String, u64>| {
        s.keys()
            .filter_map(|k| k.strip_prefix(prefix)?.strip_prefix('/').map(str::to_owned))
            .collect::<Vec<_>>()
    };
    let mut questions: Vec<String> = ours.0.keys().cloned().collect();
    questions.extend(other.0.keys().cloned());
    questions.extend(stamped(ours.1));
    questions.extend(stamped(other.1));
    crate::base::order::sort(&mut questions);
    questions.dedup();
    let mut out = BTreeMap::new();
    for q in questions {
        let key = format!("{prefix}/{q}");
        let stamp = |s: &BTreeMap<String, u64>| s.get(&key).copied().unwrap_or(0);
        let (s, value) = later(
            (stamp(ours.1), ours.0.get(&q)),
            (stamp(other.1), other.0.get(&q)),
        );
        if let Some(v) = value {
            out.insert(q, v.clone());
        }
        if s > 0 {
            out_stamps.insert(key, s);
        }
    }
    out
}

impl Progress {
    /// The stamp of an edit made at `now` (ms since the Unix epoch): later than every stamp this
    /// progress has seen, and `now` when that is later still.
    pub fn tick(&mut self, now: f64) -> u64 {
        // `as` saturates: a clock before 1970 or not a number counts as 0.
        let wall = now as u64;
        self.clock = wall.max(self.clock.saturating_add(1));
        self.clock
    }

    /// Stamps every answer given as an edit made at `now`: for progress restored from a ratings
    /// file, which then wins over older copies of the same answers in storage and keeps the
    /// stored answers it lacks.
    pub fn stamp_all(&mut self, now: f64) {
        let stamp = self.tick(now);
        for t in &mut self.trials {
            for f in all_fields(&[t]) {
                t.stamps.insert(f.key(), stamp);
            }
        }
        for (prefix, answers) in [("intake", &self.intake), ("exit", &self.exit)] {
            for q in answers.keys() {
                self.stamps.insert(format!("{prefix}/{q}"), stamp);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_field_key_reads_back_as_its_field() {
        for f in [
            Field::Rating(3, "a/b".into()),
            Field::Answer(0, "useful".into()),
            Field::Flag(12),
            Field::Span(1, "12-18".into()),
            Field::Span(0, "whole/Accuracy/Omission".into()),
            Field::NoErrors(2),
            Field::Preference,
            Field::Explanation,
            Field::Notes,
        ] {
            assert_eq!(Field::parse(&f.key()), Some(f));
        }
        for bad in ["", "r", "r/x/d", "f/1/2", "z/1/d", "f/-1"] {
            assert_eq!(Field::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn the_clock_moves_on_even_when_the_wall_clock_goes_back() {
        let mut p = Progress {
            annotator: crate::plan::Annotator::slot(1),
            phase: super::super::Phase::Trials,
            current: 0,
            consent_at: None,
            intake: BTreeMap::new(),
            exit: BTreeMap::new(),
            trials: Vec::new(),
            started_at: None,
            finished_at: None,
            clock: 0,
            stamps: BTreeMap::new(),
            file_saved: None,
        };
        assert_eq!(p.tick(1000.0), 1000);
        assert_eq!(p.tick(5.0), 1001, "a clock set back");
        assert_eq!(p.tick(f64::NAN), 1002);
        assert_eq!(p.tick(2000.0), 2000);
    }
}
