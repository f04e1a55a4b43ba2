//! JSON Lines inputs (`.jsonl`): one verdict object per line, the way an automatic judge's
//! verdicts are usually written. Three kinds of line, told apart by their fields:
//!
//! - a rating, with the Likert CSV's column names as fields: `item_id`, `system_id`,
//!   `annotator_id`, `dimension`, `score`, optional `round`, `position`, `run`, `confidence`;
//! - a pairwise judgement, with the pairwise CSV's: `item_id`, `system_a`, `system_b`,
//!   `annotator_id`, `preference` (`a`, `b` or `tie`), optional `shown_first` (`a` or `b`),
//!   `run`, `confidence`;
//! - a verdict on a trial written by `juror trials` ([`crate::plan::trials`]): `trial` (its id,
//!   `3-12` or `3-12-swapped`), `annotator_id`, and `scores` (by output label, then by dimension
//!   id: `{"A": {"quality": 4}}`) and/or `preference` (a label, or `tie`), optional `run` and
//!   `confidence`. Labels are resolved to systems through the study's plan (the study must be
//!   given); a label is the trial's (`Output A`) or its letter alone (`A`).
//!
//! Ids and numbers may be written as JSON strings or numbers. Blank lines are skipped; other
//! fields are ignored. Every problem is placed at `line N` and the line is left out.

use std::collections::HashMap;

use serde_json::{Map, Value};

use super::Context;
use super::tidy_csv::{optional_confidence, optional_run};
use crate::analysis::data::{
    At, Data, FileSummary, Input, InputKind, Name, Names, PreferenceRow, Problem, RatingRow,
    Source, score, shown_first,
};
use crate::plan::trials::{TrialId, resolve};
use crate::plan::{Annotator, Plan, Planner};
use crate::stats::preference::Outcome;
use crate::study::PreferenceKind;

/// Whether an input is JSON Lines rather than a ratings file or a CSV: its name ends in
/// `.jsonl` or `.ndjson`, or its first line is a whole JSON object that is not a ratings file.
pub(crate) fn is_jsonl(input: &Input<'_>) -> bool {
    let name = input.name.to_ascii_lowercase();
    if name.ends_with(".jsonl") || name.ends_with(".ndjson") {
        return true;
    }
    let text = input.text.trim_start();
    let first = text.lines().next().unwrap_or("").trim();
    first.starts_with('{') && first.ends_with('}') && !first.contains("\"juror.ratings/")
}

/// Everything a line is read with.
struct Reader<'c, 'n> {
    file: Name,
    index: usize,
    context: &'c Context<'c>,
    names: &'n mut Names,
    planner: Option<Planner<'c>>,
    plans: HashMap<u32, Plan>,
}

/// Reads one JSON Lines input into `data`.
pub(crate) fn read(
    input: &Input<'_>,
    index: usize,
    context: &Context<'_>,
    names: &mut Names,
    data: &mut Data,
    summary: &mut FileSummary,
) {
    let name = input.name.clone();
    let mut reader = Reader {
        file: names.get(&name),
        index,
        context,
        names,
        planner: context.study.map(|(s, _)| Planner::new(s)),
        plans: HashMap::new(),
    };
    let mut lines = 0;
    for (n, line) in input.text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        lines += 1;
        if let Err(message) = reader.line(n + 1, line, data) {
            data.problems.push(Problem::new(
                &name,
                Some(format!("line {}", n + 1)),
                message,
            ));
        }
    }
    if lines == 0 {
        data.problems.push(Problem::new(
            &name,
            None,
            "the file is empty: expected one verdict (a JSON object) per line",
        ));
        return;
    }
    summary.kind = InputKind::JsonLines;
}

impl Reader<'_, '_> {
    fn source(&self, line: usize) -> Source {
        Source {
            file: self.file.clone(),
            at: At::Line(line),
            input: self.index,
        }
    }

    fn line(&mut self, n: usize, line: &str, data: &mut Data) -> Result<(), String> {
        let value: Value = serde_json::from_str(line).map_err(|e| {
            format!("not a JSON object ({e}); write one verdict object per line, nothing else")
        })?;
        let Value::Object(fields) = value else {
            return Err(
                "not a JSON object: write one verdict object per line ({\"item_id\": ...})"
                    .to_owned(),
            );
        };
        let source = self.source(n);
        if fields.contains_key("trial") {
            self.trial(&fields, source, data)
        } else if fields.contains_key("system_id") || fields.contains_key("dimension") {
            let row = self.rating(&fields, source)?;
            data.ratings.push(row);
            Ok(())
        } else if fields.contains_key("system_a") || fields.contains_key("system_b") {
            let row = self.pairwise(&fields, source)?;
            data.preferences.push(row);
            Ok(())
        } else {
            Err(
                "neither a rating (item_id, system_id, annotator_id, dimension, score), a \
                 pairwise judgement (item_id, system_a, system_b, annotator_id, preference) nor \
                 a verdict on a trial of `juror trials` (trial, annotator_id, scores or \
                 preference)"
                    .to_owned(),
            )
        }
    }

    fn rating(&mut self, fields: &Map<String, Value>, source: Source) -> Result<RatingRow, String> {
        let item = required(fields, "item_id")?;
        let system = required(fields, "system_id")?;
        let annotator = required(fields, "annotator_id")?;
        let dimension = required(fields, "dimension")?;
        let score = score(&text(fields, "score")?)?;
        let round = match text(fields, "round")?.as_str() {
            "" => None,
            r => Some(
                r.parse::<f64>()
                    .ok()
                    .filter(|v| v.is_finite())
                    .ok_or_else(|| {
                        format!("round \"{r}\" is not a number; leave it out or give one")
                    })?,
            ),
        };
        let position = match text(fields, "position")?.as_str() {
            "" => None,
            p => Some(p.parse::<u32>().ok().filter(|&p| p >= 1).ok_or_else(|| {
                format!("position \"{p}\" is not a whole number from 1; leave it out or give one")
            })?),
        };
        Ok(RatingRow {
            source,
            item: self.names.get(&item),
            system: self.names.get(&system),
            annotator: self.names.get(&annotator),
            dimension: self.names.get(&dimension),
            score,
            round,
            position,
            run: optional_run(&text(fields, "run")?)?,
            confidence: optional_confidence(&text(fields, "confidence")?)?,
        })
    }

    fn pairwise(
        &mut self,
        fields: &Map<String, Value>,
        source: Source,
    ) -> Result<PreferenceRow, String> {
        let item = required(fields, "item_id")?;
        let a = required(fields, "system_a")?;
        let b = required(fields, "system_b")?;
        let annotator = required(fields, "annotator_id")?;
        if a == b {
            return Err(format!(
                "system_a and system_b are both \"{a}\": a system cannot be compared with itself"
            ));
        }
        let outcome = match text(fields, "preference")?.to_ascii_lowercase().as_str() {
            "a" => Outcome::A,
            "b" => Outcome::B,
            "tie" => Outcome::Tie,
            other => return Err(format!("preference \"{other}\" is not a, b or tie")),
        };
        let a_first = shown_first(&text(fields, "shown_first")?, "leave it out")?;
        Ok(PreferenceRow {
            source,
            item: self.names.get(&item),
            system_a: self.names.get(&a),
            system_b: self.names.get(&b),
            annotator: self.names.get(&annotator),
            outcome,
            a_first,
            derived: false,
            run: optional_run(&text(fields, "run")?)?,
            confidence: optional_confidence(&text(fields, "confidence")?)?,
            grade: None,
        })
    }

    /// A verdict on a trial of `juror trials`: its scores and preference, by label.
    fn trial(
        &mut self,
        fields: &Map<String, Value>,
        source: Source,
        data: &mut Data,
    ) -> Result<(), String> {
        let id = required(fields, "trial")?;
        let annotator = required(fields, "annotator_id")?;
        let run = optional_run(&text(fields, "run")?)?;
        let confidence = optional_confidence(&text(fields, "confidence")?)?;
        let (Some((study, _)), Some(planner)) = (self.context.study, self.planner.as_ref()) else {
            return Err(format!(
                "a verdict on the trial \"{id}\" needs the study its trials came from: give it \
                 (juror analyze --study STUDY, or the study on the Analyse page)"
            ));
        };
        let trial_id = TrialId::parse(&id).ok_or_else(|| {
            format!(
                "trial \"{id}\" is not a trial id of `juror trials` (slot-number, like \"3-12\", \
                 or \"3-12-swapped\")"
            )
        })?;
        let plan = self
            .plans
            .entry(trial_id.slot)
            .or_insert_with(|| planner.plan(&Annotator::slot(trial_id.slot)));
        let trial = resolve(study, plan, &trial_id)?;
        let key = self.context.key;
        let system_name = |index: usize| -> String {
            let token = study.systems().get(index).map_or("", String::as_str);
            key.and_then(|k| k.systems.get(token))
                .cloned()
                .unwrap_or_else(|| token.to_owned())
        };
        let label_of = |given: &str| -> Result<usize, String> {
            trial.position(given).ok_or_else(|| {
                format!(
                    "\"{given}\" is not a label of trial \"{id}\" (its labels: {})",
                    trial.labels().join(", ")
                )
            })
        };
        let scores = fields.get("scores");
        let preference = fields.get("preference");
        if scores.is_none() && preference.is_none() {
            return Err(
                "a verdict on a trial needs \"scores\" ({\"A\": {\"dimension\": 4}}) or \
                 \"preference\" (a label or \"tie\"), or both"
                    .to_owned(),
            );
        }
        let mut ratings = Vec::new();
        if let Some(scores) = scores {
            let Value::Object(by_label) = scores else {
                return Err(
                    "scores is not an object of labels ({\"A\": {\"dimension\": 4}})".to_owned(),
                );
            };
            for (label, by_dimension) in by_label {
                let position = label_of(label)?;
                let Value::Object(by_dimension) = by_dimension else {
                    return Err(format!(
                        "scores.{label} is not an object of dimensions ({{\"quality\": 4}})"
                    ));
                };
                for (dimension, value) in by_dimension {
                    if !trial.dimensions.iter().any(|d| d == dimension) {
                        return Err(format!(
                            "scores.{label}.{dimension}: the trial's task does not rate \
                             \"{dimension}\" (it rates: {})",
                            if trial.dimensions.is_empty() {
                                "nothing".to_owned()
                            } else {
                                trial.dimensions.join(", ")
                            }
                        ));
                    }
                    let score =
                        score(&scalar(value).ok_or_else(|| {
                            format!("scores.{label}.{dimension} is not a number")
                        })?)
                        .map_err(|e| format!("scores.{label}.{dimension}: {e}"))?;
                    ratings.push(RatingRow {
                        source: source.clone(),
                        item: self.names.get(&trial.item),
                        system: self.names.get(&system_name(trial.systems[position])),
                        annotator: self.names.get(&annotator),
                        dimension: self.names.get(dimension),
                        score,
                        round: None,
                        position: (trial.systems.len() >= 2)
                            .then(|| u32::try_from(trial.shown_at(position) + 1).unwrap_or(0)),
                        run,
                        confidence,
                    });
                }
            }
        }
        let mut judgement = None;
        if let Some(preference) = preference {
            let given = scalar(preference)
                .ok_or_else(|| "preference is not a label or \"tie\"".to_owned())?;
            if trial.systems.len() != 2 || trial.kind == Some(PreferenceKind::Rank) {
                return Err(format!(
                    "trial \"{id}\" does not ask to choose between two outputs; Juror reads a \
                     judge's preference on a pair only (leave \"preference\" out)"
                ));
            }
            if trial.kind.is_none() {
                return Err(format!(
                    "trial \"{id}\" asks for no preference; leave \"preference\" out"
                ));
            }
            // Rows name the pair in the plan's order: system_a is the output the plan shows
            // first, and `a_first` says whether the judge saw it first (not when swapped).
            let outcome = if given.eq_ignore_ascii_case("tie") {
                Outcome::Tie
            } else if label_of(&given)? == 0 {
                Outcome::A
            } else {
                Outcome::B
            };
            judgement = Some(PreferenceRow {
                source: source.clone(),
                item: self.names.get(&trial.item),
                system_a: self.names.get(&system_name(trial.systems[0])),
                system_b: self.names.get(&system_name(trial.systems[1])),
                annotator: self.names.get(&annotator),
                outcome,
                a_first: Some(!trial.swapped),
                derived: false,
                run,
                confidence,
                grade: None,
            });
        }
        data.ratings.extend(ratings);
        data.preferences.extend(judgement);
        Ok(())
    }
}

/// A field as text: a string as it is (trimmed), a number as written, absent or null as empty.
fn text(fields: &Map<String, Value>, name: &str) -> Result<String, String> {
    match fields.get(name) {
        None | Some(Value::Null) => Ok(String::new()),
        Some(value) => scalar(value).ok_or_else(|| {
            format!("{name} is not a string or a number; give one, like \"{name}\": \"x1\"")
        }),
    }
}

/// A field that must be there and not empty.
fn required(fields: &Map<String, Value>, name: &str) -> Result<String, String> {
    let value = text(fields, name)?;
    if value.is_empty() {
        Err(format!("{name} is missing or empty"))
    } else {
        Ok(value)
    }
}

fn scalar(value: &Value) -> Option<String> {
    match value {
        Value::String(s) => Some(s.trim().to_owned()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_lines_are_told_from_ratings_files_by_name_or_first_line() {
        let is = |name: &str, text: &str| is_jsonl(&Input::new(name, text));
        assert!(is("judge.jsonl", "whatever"));
        assert!(is("judge.NDJSON", ""));
        assert!(is(
            "judge.txt",
            "{\"item_id\": \"i1\"}\n{\"item_id\": \"i2\"}\n"
        ));
        assert!(is("judge.json", "  {\"trial\": \"1-1\"}"));
        // A ratings file, pretty or compact, and a CSV are not.
        assert!(!is("r.json", "{\n  \"format\": \"juror.ratings/1\"\n}"));
        assert!(!is(
            "r.json",
            "{\"format\":\"juror.ratings/1\",\"trials\":[]}"
        ));
        assert!(!is("t.csv", "item_id,system_id\n"));
    }
}
