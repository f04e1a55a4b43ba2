//! Adjudication: an expert's score for cells (item, system, dimension) whose annotators
//! disagree.
//!
//! The file is a CSV with the columns `item_id,system_id,dimension,score` (others, such as the
//! `n`, `mean`, `sd` and `ratings` of the sheet [`super::Report::adjudication_sheet`] writes, are
//! ignored). A row with an empty score is a cell not yet adjudicated and is skipped. With the
//! study's scales, a score must be a point of its dimension's scale ([`on_scale`], the one rule
//! the Analyse page's form also applies). An adjudicated score replaces the cell's raw ratings in the system summaries and the comparisons,
//! never in agreement (agreement is about the annotators, not the expert).

use std::collections::BTreeMap;

use super::data::{Input, Problem, number, score};
use crate::csv;

/// (dimension, item, system).
pub type Cell = (String, String, String);

/// The points of each dimension's scale, by dimension id (empty without a study: any number is
/// taken).
pub type Scales = BTreeMap<String, Vec<f64>>;

/// `value` when it is a point of `scale` (or there is no scale), else why not, naming the
/// points.
///
/// # Errors
/// A sentence: `2.5 is not a point of the scale (1, 2, 3)`.
pub fn on_scale(value: f64, scale: Option<&[f64]>) -> Result<f64, String> {
    match scale {
        Some(points) if !points.is_empty() && !points.contains(&value) => {
            let names: Vec<String> = points.iter().map(|p| number(*p)).collect();
            Err(format!(
                "{} is not a point of the scale ({})",
                number(value),
                names.join(", ")
            ))
        }
        _ => Ok(value),
    }
}

/// A score as an adjudicator enters it: empty is "not adjudicated yet", else a finite number,
/// on the scale when there is one ([`on_scale`]).
///
/// # Errors
/// A sentence saying what is wrong.
pub fn parse_score(text: &str, scale: Option<&[f64]>) -> Result<Option<f64>, String> {
    let text = text.trim();
    if text.is_empty() {
        return Ok(None);
    }
    let value = match text.parse::<f64>() {
        Ok(v) if v.is_finite() => v + 0.0,
        _ => return Err(format!("\"{text}\" is not a number")),
    };
    on_scale(value, scale).map(Some)
}

/// One adjudicated score and the line it came from.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    pub score: f64,
    /// `line N`.
    pub at: String,
}

/// The scores of an adjudication file, by cell.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Adjudication {
    file: String,
    cells: BTreeMap<Cell, Entry>,
    unfilled: usize,
    problems: Vec<Problem>,
}

const COLUMNS: [&str; 4] = ["item_id", "system_id", "dimension", "score"];

impl Adjudication {
    /// Reads an adjudication file. Rows with a problem (a missing id, a score that is not a
    /// number or not a point of its dimension's scale in `scales`, a second score for the same
    /// cell) are left out and listed in [`Adjudication::problems`]; an unreadable file or header
    /// gives no cells and one problem.
    pub fn read(input: &Input<'_>, scales: &Scales) -> Adjudication {
        let mut out = Adjudication {
            file: input.name.clone(),
            ..Adjudication::default()
        };
        let name = input.name.as_str();
        let records = match csv::parse(&input.text) {
            Ok(r) => r,
            Err(e) => {
                out.problems.push(Problem::new(
                    name,
                    Some(format!("line {}, column {}", e.line, e.column)),
                    format!("{}; no adjudicated score is used", e.message),
                ));
                return out;
            }
        };
        let Some((header, rows)) = records.split_first() else {
            out.problems.push(Problem::new(
                name,
                None,
                format!(
                    "the file is empty: expected the header {}",
                    COLUMNS.join(",")
                ),
            ));
            return out;
        };
        let index = |c: &str| header.fields.iter().position(|h| h.trim() == c);
        let Some(cols) = COLUMNS
            .iter()
            .map(|c| index(c))
            .collect::<Option<Vec<usize>>>()
        else {
            let missing: Vec<&str> = COLUMNS
                .iter()
                .copied()
                .filter(|c| index(c).is_none())
                .collect();
            out.problems.push(Problem::new(
                name,
                Some(format!("line {}", header.line)),
                format!(
                    "the header lacks {}; an adjudication file has the columns {} (write one \
                     with --adjudication-sheet)",
                    missing.join(", "),
                    COLUMNS.join(",")
                ),
            ));
            return out;
        };
        for record in rows {
            let at = format!("line {}", record.line);
            if record.fields.len() != header.fields.len() {
                out.problems.push(Problem::new(
                    name,
                    Some(at),
                    format!(
                        "{} field(s), but the header has {}; quote fields that hold commas",
                        record.fields.len(),
                        header.fields.len()
                    ),
                ));
                continue;
            }
            let get = |i: usize| csv::undefuse(record.fields[cols[i]].trim()).to_owned();
            let (item, system, dimension, text) = (get(0), get(1), get(2), get(3));
            if text.is_empty() {
                out.unfilled += 1;
                continue;
            }
            if let Some(column) = [
                (&item, "item_id"),
                (&system, "system_id"),
                (&dimension, "dimension"),
            ]
            .iter()
            .find(|(v, _)| v.is_empty())
            .map(|(_, c)| c)
            {
                out.problems
                    .push(Problem::new(name, Some(at), format!("{column} is empty")));
                continue;
            }
            let scale = scales.get(&dimension).map(Vec::as_slice);
            let value = match score(&text).and_then(|v| on_scale(v, scale)) {
                Ok(v) => v,
                Err(message) => {
                    out.problems.push(Problem::new(name, Some(at), message));
                    continue;
                }
            };
            let cell = (dimension, item, system);
            if let Some(first) = out.cells.get(&cell) {
                out.problems.push(Problem::new(
                    name,
                    Some(at),
                    format!(
                        "item \"{}\", system \"{}\" on \"{}\" already has a score ({} at {}); \
                         this one is left out",
                        cell.1,
                        cell.2,
                        cell.0,
                        number(first.score),
                        first.at
                    ),
                ));
                continue;
            }
            out.cells.insert(cell, Entry { score: value, at });
        }
        out
    }

    /// The file's name.
    pub fn file(&self) -> &str {
        &self.file
    }

    /// Every adjudicated cell, by (dimension, item, system).
    pub fn cells(&self) -> &BTreeMap<Cell, Entry> {
        &self.cells
    }

    /// The adjudicated score of a cell, if any.
    pub fn score(&self, dimension: &str, item: &str, system: &str) -> Option<f64> {
        self.cells
            .get(&(dimension.to_owned(), item.to_owned(), system.to_owned()))
            .map(|e| e.score)
    }

    /// Rows with an empty score.
    pub fn unfilled(&self) -> usize {
        self.unfilled
    }

    /// Rows left out, with where and why.
    pub fn problems(&self) -> &[Problem] {
        &self.problems
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One rule for the command line and the page: a score off its dimension's scale is left
    /// out with the page's sentence; without scales any number is taken.
    #[test]
    fn a_score_off_the_scale_is_refused() {
        let text = "item_id,system_id,dimension,score\n\
                    i1,A,quality,2\n\
                    i2,A,quality,2.5\n\
                    i3,A,other,2.5\n";
        let input = Input::new("adj.csv", text);
        let scales = Scales::from([("quality".to_owned(), vec![1.0, 2.0, 3.0])]);
        let read = Adjudication::read(&input, &scales);
        assert_eq!(read.cells().len(), 2, "{:?}", read.problems());
        assert_eq!(read.score("quality", "i1", "A"), Some(2.0));
        assert_eq!(read.score("other", "i3", "A"), Some(2.5));
        assert_eq!(read.problems().len(), 1);
        let problem = &read.problems()[0];
        assert_eq!(problem.at.as_deref(), Some("line 3"));
        assert_eq!(problem.message, "2.5 is not a point of the scale (1, 2, 3)");
        assert_eq!(Adjudication::read(&input, &Scales::new()).cells().len(), 3);
    }

    #[test]
    fn an_entered_score_is_empty_a_number_or_refused() {
        let scale = [1.0, 2.0, 3.0];
        assert_eq!(parse_score("", Some(&scale)), Ok(None));
        assert_eq!(parse_score(" 2 ", Some(&scale)), Ok(Some(2.0)));
        assert_eq!(
            parse_score("2.5", Some(&scale)),
            Err("2.5 is not a point of the scale (1, 2, 3)".to_owned())
        );
        assert_eq!(parse_score("2.5", None), Ok(Some(2.5)));
        assert_eq!(
            parse_score("high", None),
            Err("\"high\" is not a number".to_owned())
        );
        assert!(parse_score("NaN", None).is_err());
    }
}
