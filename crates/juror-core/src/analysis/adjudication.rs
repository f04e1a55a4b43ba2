//! Adjudication: experts' scores for cells (item, system, dimension) whose annotators disagree.
//!
//! The file is a CSV with the columns `item_id,system_id,dimension,score` and, optionally,
//! `expert` (others, such as the `n`, `mean`, `sd`, `ratings`, `prompt`, `media` and `output` of
//! the sheet [`super::Report::adjudication_sheet`] writes, are ignored). A row with an empty score
//! is a cell not yet adjudicated and is skipped. With the study's scales, a score must be a point
//! of its dimension's scale ([`on_scale`], the one rule the Analyse page's form also applies).
//!
//! Several experts may score one cell, a row each, named in `expert`; every expert's score is
//! kept ([`Adjudication::experts`]). The cell's resolved score, the one the analysis uses, is
//! the score of the row whose expert is `resolved` ([`RESOLVED`]) when there is one; else the
//! experts' score when they all agree (one expert, named or not, as in a file without the
//! `expert` column, agrees with themself); else the cell has no resolved score and stays not
//! adjudicated ([`Adjudication::unresolved`]). A resolved score replaces the cell's raw ratings
//! in the system summaries and the comparisons, never in agreement (agreement is about the
//! annotators, not the experts).

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;

use super::data::{Input, Problem, number, score};
use crate::base::csv;

/// (dimension, item, system).
pub type Cell = (String, String, String);

/// The points of each dimension's scale, by dimension id (empty without a study: any number is
/// taken).
pub type Scales = BTreeMap<String, Vec<f64>>;

/// The `expert` of the row that records a cell's resolved score (any case).
pub const RESOLVED: &str = "resolved";

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

/// A cell's resolved score and the line it came from (the `resolved` row, else the first
/// expert's).
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    pub score: f64,
    /// `line N`.
    pub at: String,
}

/// One expert's score of a cell; `expert` is empty for a row without a name (a file without
/// the `expert` column).
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct ExpertScore {
    pub expert: String,
    pub score: f64,
}

/// Each expert's score of a cell, as `4 (ana), 2 (ben)`; an unnamed expert's score alone.
pub fn experts_in_words(experts: &[ExpertScore]) -> String {
    experts
        .iter()
        .map(|e| match e.expert.as_str() {
            "" => number(e.score),
            name => format!("{} ({name})", number(e.score)),
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// The scores of an adjudication file, by cell.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Adjudication {
    file: String,
    cells: BTreeMap<Cell, Entry>,
    experts: BTreeMap<Cell, Vec<ExpertScore>>,
    unresolved: BTreeSet<Cell>,
    unfilled: usize,
    problems: Vec<Problem>,
}

const COLUMNS: [&str; 4] = ["item_id", "system_id", "dimension", "score"];

/// What one cell's rows said while the file is read: each expert's score with its line, and
/// the resolved row's.
#[derive(Default)]
struct Rows {
    experts: Vec<(ExpertScore, String)>,
    resolved: Option<(f64, String)>,
}

/// Where the columns of an adjudication file are: the header's width, the index of each of
/// [`COLUMNS`], and of `expert` when there is one.
struct Layout {
    width: usize,
    columns: Vec<usize>,
    expert: Option<usize>,
}

impl Layout {
    /// The layout of `header`.
    ///
    /// # Errors
    /// A sentence naming the columns the header lacks.
    fn of(header: &csv::Record) -> Result<Layout, String> {
        let index = |c: &str| header.fields.iter().position(|h| h.trim() == c);
        let Some(columns) = COLUMNS
            .iter()
            .map(|c| index(c))
            .collect::<Option<Vec<usize>>>()
        else {
            let missing: Vec<&str> = COLUMNS
                .iter()
                .copied()
                .filter(|c| index(c).is_none())
                .collect();
            return Err(format!(
                "the header lacks {}; an adjudication file has the columns {} (write one \
                 with --adjudication-sheet)",
                missing.join(", "),
                COLUMNS.join(",")
            ));
        };
        Ok(Layout {
            width: header.fields.len(),
            columns,
            expert: index("expert"),
        })
    }
}

/// One row of the file that gives a score: its cell, its expert (empty when unnamed), the
/// score and its line.
struct Scored {
    cell: Cell,
    expert: String,
    value: f64,
    at: String,
}

impl Adjudication {
    /// Reads an adjudication file. Rows with a problem (a missing id, a score that is not a
    /// number or not a point of its dimension's scale in `scales`, a second score from the same
    /// expert, or a second resolved score, for the same cell) are left out and listed in
    /// [`Adjudication::problems`]; an unreadable file or header gives no cells and one problem.
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
        let layout = match Layout::of(header) {
            Ok(layout) => layout,
            Err(message) => {
                let at = format!("line {}", header.line);
                out.problems.push(Problem::new(name, Some(at), message));
                return out;
            }
        };
        let mut by_cell: BTreeMap<Cell, Rows> = BTreeMap::new();
        for record in rows {
            if let Some(row) = out.scored(record, &layout, scales) {
                out.add(&mut by_cell, row);
            }
        }
        out.resolve(by_cell);
        out
    }

    /// One row of the file: its cell, expert and score, or `None` when it gives none (an empty
    /// score, counted as unfilled; a problem, listed).
    fn scored(&mut self, record: &csv::Record, layout: &Layout, scales: &Scales) -> Option<Scored> {
        let name = self.file.as_str();
        let at = format!("line {}", record.line);
        if record.fields.len() != layout.width {
            self.problems.push(Problem::new(
                name,
                Some(at),
                format!(
                    "{} field(s), but the header has {}; quote fields that hold commas",
                    record.fields.len(),
                    layout.width
                ),
            ));
            return None;
        }
        let cols = &layout.columns;
        let get = |i: usize| csv::undefuse(record.fields[i].trim()).to_owned();
        let (item, system, dimension, text) =
            (get(cols[0]), get(cols[1]), get(cols[2]), get(cols[3]));
        let expert = layout.expert.map(get).unwrap_or_default();
        if text.is_empty() {
            self.unfilled += 1;
            return None;
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
            self.problems
                .push(Problem::new(name, Some(at), format!("{column} is empty")));
            return None;
        }
        let scale = scales.get(&dimension).map(Vec::as_slice);
        let value = match score(&text).and_then(|v| on_scale(v, scale)) {
            Ok(v) => v,
            Err(message) => {
                self.problems.push(Problem::new(name, Some(at), message));
                return None;
            }
        };
        Some(Scored {
            cell: (dimension, item, system),
            expert,
            value,
            at,
        })
    }

    /// Adds a row's score to its cell's rows, unless its expert (or the resolved row) already
    /// scored the cell: then it is left out and listed.
    fn add(&mut self, by_cell: &mut BTreeMap<Cell, Rows>, row: Scored) {
        let Scored {
            cell,
            expert,
            value,
            at,
        } = row;
        let rows = by_cell.entry(cell.clone()).or_default();
        let first = if expert.eq_ignore_ascii_case(RESOLVED) {
            rows.resolved
                .as_ref()
                .map(|(s, a)| ("a resolved score".to_owned(), *s, a.clone()))
        } else {
            rows.experts
                .iter()
                .find(|(e, _)| e.expert == expert)
                .map(|(e, a)| {
                    let whose = if expert.is_empty() {
                        "a score".to_owned()
                    } else {
                        format!("a score from expert \"{expert}\"")
                    };
                    (whose, e.score, a.clone())
                })
        };
        if let Some((what, score, first_at)) = first {
            self.problems.push(Problem::new(
                &self.file,
                Some(at),
                format!(
                    "item \"{}\", system \"{}\" on \"{}\" already has {what} ({} at \
                     {first_at}); this one is left out",
                    cell.1,
                    cell.2,
                    cell.0,
                    number(score),
                ),
            ));
            return;
        }
        if expert.eq_ignore_ascii_case(RESOLVED) {
            rows.resolved = Some((value, at));
        } else {
            rows.experts.push((
                ExpertScore {
                    expert,
                    score: value,
                },
                at,
            ));
        }
    }

    /// Each cell's resolved score from its rows (the resolved row's, else the score all its
    /// experts gave; else the cell is unresolved), and its experts' scores.
    fn resolve(&mut self, by_cell: BTreeMap<Cell, Rows>) {
        for (cell, rows) in by_cell {
            let agreed = rows.experts.first().and_then(|(first, at)| {
                rows.experts
                    .iter()
                    .all(|(e, _)| e.score == first.score)
                    .then(|| (first.score, at.clone()))
            });
            match rows.resolved.or(agreed) {
                Some((score, at)) => {
                    self.cells.insert(cell.clone(), Entry { score, at });
                }
                None => {
                    self.unresolved.insert(cell.clone());
                }
            }
            if !rows.experts.is_empty() {
                let scores = rows.experts.into_iter().map(|(e, _)| e).collect();
                self.experts.insert(cell, scores);
            }
        }
    }

    /// The file's name.
    pub fn file(&self) -> &str {
        &self.file
    }

    /// Every cell with a resolved score, by (dimension, item, system).
    pub fn cells(&self) -> &BTreeMap<Cell, Entry> {
        &self.cells
    }

    /// The resolved score of a cell, if any.
    pub fn score(&self, dimension: &str, item: &str, system: &str) -> Option<f64> {
        self.cells
            .get(&(dimension.to_owned(), item.to_owned(), system.to_owned()))
            .map(|e| e.score)
    }

    /// Every expert's score of a cell, in the file's order (the resolved row is not one).
    pub fn experts(&self, dimension: &str, item: &str, system: &str) -> &[ExpertScore] {
        self.experts
            .get(&(dimension.to_owned(), item.to_owned(), system.to_owned()))
            .map_or(&[], Vec::as_slice)
    }

    /// Cells whose experts disagree and that have no resolved score: not adjudicated.
    pub fn unresolved(&self) -> &BTreeSet<Cell> {
        &self.unresolved
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

    fn read(text: &str) -> Adjudication {
        Adjudication::read(&Input::new("adj.csv", text), &Scales::new())
    }

    /// A file without the `expert` column reads as it always did: one score per cell, the
    /// cell's, and a second score for the cell is left out.
    #[test]
    fn a_file_without_experts_reads_as_before() {
        let read = read(
            "item_id,system_id,dimension,score\n\
             i1,A,q,2\n\
             i1,A,q,4\n\
             i2,A,q,\n",
        );
        assert_eq!(read.score("q", "i1", "A"), Some(2.0));
        assert_eq!(
            read.cells()[&("q".into(), "i1".into(), "A".into())].at,
            "line 2"
        );
        assert_eq!(read.unfilled(), 1);
        assert!(read.unresolved().is_empty());
        assert_eq!(
            read.experts("q", "i1", "A"),
            [ExpertScore {
                expert: String::new(),
                score: 2.0
            }]
        );
        assert_eq!(read.problems().len(), 1);
        assert_eq!(
            read.problems()[0].message,
            "item \"i1\", system \"A\" on \"q\" already has a score (2 at line 2); this one \
             is left out"
        );
    }

    /// Several experts: every score is kept; agreeing experts give the cell their score,
    /// disagreeing ones leave it unresolved unless a `resolved` row settles it, which wins.
    #[test]
    fn several_experts_agree_disagree_or_are_resolved() {
        let read = read(
            "item_id,system_id,dimension,score,expert\n\
             agree,A,q,4,ana\n\
             agree,A,q,4,ben\n\
             split,A,q,2,ana\n\
             split,A,q,5,ben\n\
             settled,A,q,2,ana\n\
             settled,A,q,5,ben\n\
             settled,A,q,3,Resolved\n\
             alone,A,q,1,ana\n\
             ruled,A,q,5,resolved\n\
             split,A,q,3,ana\n\
             settled,A,q,4,resolved\n",
        );
        assert_eq!(read.score("q", "agree", "A"), Some(4.0));
        assert_eq!(read.score("q", "split", "A"), None);
        assert_eq!(read.score("q", "settled", "A"), Some(3.0));
        assert_eq!(
            read.cells()[&("q".into(), "settled".into(), "A".into())].at,
            "line 8"
        );
        assert_eq!(read.score("q", "alone", "A"), Some(1.0));
        assert_eq!(read.score("q", "ruled", "A"), Some(5.0));
        let split: Cell = ("q".into(), "split".into(), "A".into());
        assert_eq!(read.unresolved(), &BTreeSet::from([split]));
        let scores = |cell: &str| -> Vec<(String, f64)> {
            read.experts("q", cell, "A")
                .iter()
                .map(|e| (e.expert.clone(), e.score))
                .collect()
        };
        assert_eq!(scores("split"), [("ana".into(), 2.0), ("ben".into(), 5.0)]);
        assert_eq!(
            scores("settled"),
            [("ana".into(), 2.0), ("ben".into(), 5.0)]
        );
        assert!(scores("ruled").is_empty());
        let problems: Vec<(&str, &str)> = read
            .problems()
            .iter()
            .map(|p| (p.at.as_deref().unwrap_or_default(), p.message.as_str()))
            .collect();
        assert_eq!(
            problems,
            [
                (
                    "line 11",
                    "item \"split\", system \"A\" on \"q\" already has a score from expert \
                     \"ana\" (2 at line 4); this one is left out"
                ),
                (
                    "line 12",
                    "item \"settled\", system \"A\" on \"q\" already has a resolved score (3 \
                     at line 8); this one is left out"
                ),
            ]
        );
    }
}
