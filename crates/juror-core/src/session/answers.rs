//! What an annotator has given: answers, preferences, notes and timings. These types are
//! persisted (in the browser's storage envelope and in ratings files), so they are versioned
//! DTOs: change them only with a schema or format version bump and a migration.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::Serialize;

use crate::study::Severity;
pub use crate::study::ask::{Answer, CANNOT_JUDGE, Preference, grade_name, parse_grade};

/// Answers about one shown output. Stored with what was given only (empty fields are left
/// out), so that a long plan's untouched trials cost a few bytes each in storage.
#[derive(Debug, Clone, Default, PartialEq, Serialize, JsonSchema)]
pub struct OutputAnswers {
    /// Score by dimension id.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub ratings: BTreeMap<String, i32>,
    /// The dimensions answered "Cannot judge", in id order (never also in `ratings`). Absent from
    /// sessions saved before it existed, which read as none. A list rather than a set: the
    /// annotator's wasm already has a list of strings, and not a set's code.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cannot_judge: Vec<String>,
    /// Answer by per-output question id.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub answers: BTreeMap<String, Answer>,
    /// Whether the annotator flagged the output.
    #[serde(default, skip_serializing_if = "is_false")]
    pub flagged: bool,
    /// The errors marked, in text order (errors of the whole output last); never two
    /// overlapping spans.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub spans: Vec<ErrorSpan>,
    /// Whether the annotator said the output has no errors (only counts while `spans` is
    /// empty).
    #[serde(default, skip_serializing_if = "is_false")]
    pub no_errors: bool,
}

impl OutputAnswers {
    /// Whether the dimension is answered: a score, or "Cannot judge".
    pub fn rated(&self, dimension: &str) -> bool {
        self.ratings.contains_key(dimension) || self.skipped(dimension)
    }

    /// Whether the dimension is answered "Cannot judge".
    pub fn skipped(&self, dimension: &str) -> bool {
        self.cannot_judge.iter().any(|d| d == dimension)
    }

    /// Gives the dimension a score (`Some`), "Cannot judge" (`None`): either clears the other.
    pub fn rate(&mut self, dimension: &str, score: Option<i32>) {
        match score {
            Some(v) => {
                self.cannot_judge.retain(|d| d != dimension);
                self.ratings.insert(dimension.to_owned(), v);
            }
            None => {
                self.ratings.remove(dimension);
                if !self.skipped(dimension) {
                    self.cannot_judge.push(dimension.to_owned());
                    crate::base::order::sort(&mut self.cannot_judge);
                }
            }
        }
    }

    /// Whether the errors of the output are answered: a span marked, or "No errors" ticked.
    pub fn spans_answered(&self) -> bool {
        !self.spans.is_empty() || self.no_errors
    }
}

/// An error marked in an output: the span of text, or (without `start` and `end`) the whole
/// output, with its severity and category.
///
/// Offsets count Unicode code points of the output's text as the study holds it, from 0;
/// `end` is one past the last character, so the span's text is `chars().skip(start).take(end -
/// start)`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ErrorSpan {
    /// The first character, counted from 0; absent for an error of the whole output.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start: Option<u32>,
    /// One past the last character; absent for an error of the whole output.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub end: Option<u32>,
    /// How severe.
    pub severity: Severity,
    /// The category, when the study asks for one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub category: Option<String>,
}

impl ErrorSpan {
    /// What identifies the span among an output's: its offsets (`12-18`), or for an error of
    /// the whole output its category (`whole/Accuracy`). Two tabs' copies are merged span by
    /// span by this key; marking the same text again changes the span's severity or category.
    pub fn key(&self) -> String {
        match (self.start, self.end) {
            (Some(s), Some(e)) => format!("{s}-{e}"),
            _ => format!("whole/{}", self.category.as_deref().unwrap_or_default()),
        }
    }

    /// The offsets, for a span of text.
    pub fn range(&self) -> Option<(u32, u32)> {
        self.start.zip(self.end)
    }

    /// Whether the span shares a character with `other` (errors of the whole output overlap
    /// nothing).
    pub fn overlaps(&self, other: &ErrorSpan) -> bool {
        match (self.range(), other.range()) {
            (Some((a, b)), Some((c, d))) => a < d && c < b,
            _ => false,
        }
    }

    /// Why the span cannot be marked in an output of `length` characters under `spans`, if it
    /// cannot: offsets in order and inside the text, a severity and category the task offers,
    /// an error of the whole output only where the task allows it.
    pub fn check(&self, spans: &crate::study::Spans, length: usize) -> Result<(), String> {
        match (self.start, self.end) {
            (Some(s), Some(e)) if s < e && e as usize <= length => {}
            (Some(_), Some(_)) => return Err("the span is not inside the output".to_owned()),
            (None, None) if spans.whole_output => {}
            (None, None) => {
                return Err("this task asks for the errors' text; select it".to_owned());
            }
            _ => return Err("a span needs both its start and its end".to_owned()),
        }
        if !spans.severities.contains(&self.severity) {
            return Err(format!(
                "this task does not offer \"{}\"",
                self.severity.name()
            ));
        }
        match &self.category {
            None if spans.categories.is_empty() => Ok(()),
            None => Err("choose a category".to_owned()),
            Some(c) if spans.categories.contains(c) => Ok(()),
            Some(c) => Err(format!("\"{c}\" is not one of this task's categories")),
        }
    }
}

/// Puts `span` among `spans`, replacing the one with its key, in text order (errors of the
/// whole output last). Returns false, changing nothing, when it overlaps another span.
pub fn place_span(spans: &mut Vec<ErrorSpan>, span: ErrorSpan) -> bool {
    let key = span.key();
    if spans.iter().any(|s| s.key() != key && s.overlaps(&span)) {
        return false;
    }
    spans.retain(|s| s.key() != key);
    spans.push(span);
    sort_spans(spans);
    true
}

/// Text order: spans by start, then errors of the whole output by category.
pub fn sort_spans(spans: &mut [ErrorSpan]) {
    crate::base::order::sort_by(spans, |a, b| {
        (a.start.is_none(), a.start, &a.category).cmp(&(b.start.is_none(), b.start, &b.category))
    });
}

/// Everything given in one trial, with its timing. Stored with what was given only: an
/// untouched trial is `{"outputs":[{},{}]}`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, JsonSchema)]
pub struct TrialAnswers {
    /// Per shown output, in position order.
    #[serde(default)]
    pub outputs: Vec<OutputAnswers>,
    /// The preference, if given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub preference: Option<Preference>,
    /// The reason for the preference.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub explanation: String,
    /// Notes.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub notes: String,
    /// Active time on the trial (visible tab), in milliseconds.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub active_ms: u64,
    /// When the trial was first shown (ms since the Unix epoch).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first_shown: Option<f64>,
    /// When an answer in it last changed (ms since the Unix epoch).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_changed: Option<f64>,
    /// Whether the annotator went past it with every required answer.
    #[serde(default, skip_serializing_if = "is_false")]
    pub done: bool,
    /// When each answer was last given or cleared, by [`super::stamps::Field`] key (a stamp of
    /// the hybrid logical clock, [`super::Progress::tick`]): what two tabs' copies are merged
    /// by, answer by answer.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub stamps: BTreeMap<String, u64>,
}

fn is_false(b: &bool) -> bool {
    !*b
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Storage holds what was given only: an untouched trial of a pair is 19 characters (a
    /// 10,000-trial plan stored about 2 MB before, 200 KB now), and it reads back as it was.
    #[test]
    fn untouched_trials_are_stored_in_a_few_bytes() {
        let untouched = TrialAnswers {
            outputs: vec![OutputAnswers::default(); 2],
            ..TrialAnswers::default()
        };
        let text = serde_json::to_string(&untouched).unwrap_or_default();
        assert_eq!(text, r#"{"outputs":[{},{}]}"#);
        let back =
            super::super::from_json::trial_answers(&serde_json::from_str(&text).unwrap()).unwrap();
        assert_eq!(back, untouched);

        let mut given = untouched.clone();
        given.outputs[1].ratings.insert("quality".to_owned(), 4);
        given.outputs[0].flagged = true;
        given.preference = Some(Preference::Tie);
        given.notes = "n".to_owned();
        given.active_ms = 1500;
        given.first_shown = Some(1.0);
        given.done = true;
        let text = serde_json::to_string(&given).unwrap_or_default();
        assert_eq!(
            text,
            r#"{"outputs":[{"flagged":true},{"ratings":{"quality":4}}],"preference":{"kind":"tie"},"notes":"n","active_ms":1500,"first_shown":1.0,"done":true}"#
        );
        let back =
            super::super::from_json::trial_answers(&serde_json::from_str(&text).unwrap()).unwrap();
        assert_eq!(back, given);
    }
}
