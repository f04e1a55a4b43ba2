//! Tidy CSV inputs: a Likert table, a pairwise table, or both (what `juror analyze --format
//! csv` writes), told apart by the header; see [`super`] for the columns. A row with a problem
//! is left out and named by its line; the other rows are read.

use std::borrow::Cow;
use std::collections::HashMap;

use crate::analysis::data::{
    At, CHOICE_SEPARATOR, ChoiceRow, Chosen, Data, FileSummary, Input, InputKind, Name, Names,
    PreferenceRow, Problem, RatingRow, SkipRow, Source, SpanRow, outcome_of_grade, score,
    shown_first,
};
use crate::base::csv;
use crate::session::{CANNOT_JUDGE, parse_grade};
use crate::stats::preference::Outcome;
use crate::study::Severity;

pub(crate) const LIKERT: [&str; 5] = ["item_id", "system_id", "annotator_id", "dimension", "score"];
pub(crate) const PAIRWISE: [&str; 5] = [
    "item_id",
    "system_a",
    "system_b",
    "annotator_id",
    "preference",
];

/// The columns of a table of error spans (`category` may be empty).
pub(crate) const SPANS: [&str; 8] = [
    "item_id",
    "system_id",
    "annotator_id",
    "start",
    "end",
    "severity",
    "category",
    "length",
];

/// The columns of the tidy tables that rows are read from, in [`COLUMNS`]' order.
#[derive(Debug, Clone, Copy)]
enum Col {
    Item,
    System,
    Annotator,
    Dimension,
    Score,
    Round,
    Position,
    SystemA,
    SystemB,
    Preference,
    ShownFirst,
    Derived,
    Choice,
    Shown,
    Chosen,
    Run,
    Confidence,
    Start,
    End,
    Severity,
    Category,
    Length,
}

const COLUMNS: [&str; 22] = [
    "item_id",
    "system_id",
    "annotator_id",
    "dimension",
    "score",
    "round",
    "position",
    "system_a",
    "system_b",
    "preference",
    "shown_first",
    "derived",
    "choice",
    "shown",
    "chosen",
    "run",
    "confidence",
    "start",
    "end",
    "severity",
    "category",
    "length",
];

impl Col {
    fn name(self) -> &'static str {
        COLUMNS[self as usize]
    }
}

/// The columns of a header: name → index (first occurrence; names compared after trimming).
fn columns<'h>(header: &[Cow<'h, str>]) -> HashMap<&'h str, usize> {
    let mut map = HashMap::new();
    for (i, name) in header.iter().enumerate() {
        let name: &'h str = match name {
            Cow::Borrowed(b) => b.trim(),
            // A quoted header name with a doubled quote is never one of ours.
            Cow::Owned(_) => continue,
        };
        map.entry(name).or_insert(i);
    }
    map
}

/// One record of a tidy table, read by column.
struct Row<'r, 't> {
    fields: &'r [Cow<'t, str>],
    /// Where each of [`COLUMNS`] is in the record, if the header has it.
    at: &'r [Option<usize>; COLUMNS.len()],
}

impl Row<'_, '_> {
    /// The field, trimmed and without a spreadsheet's formula guard; empty when the table has
    /// no such column.
    fn get(&self, column: Col) -> &str {
        self.at[column as usize].map_or("", |i| csv::undefuse(trim(&self.fields[i])))
    }

    fn required(&self, column: Col) -> Result<&str, String> {
        let value = self.get(column);
        if value.is_empty() {
            Err(format!("{} is empty", column.name()))
        } else {
            Ok(value)
        }
    }
}

/// `text` without surrounding whitespace; a field that starts and ends with a printable ASCII
/// character (nearly every one) is returned as it is, without a scan for Unicode spaces.
fn trim(text: &str) -> &str {
    match text.as_bytes() {
        [first, .., last] if first.is_ascii_graphic() && last.is_ascii_graphic() => text,
        [only] if only.is_ascii_graphic() => text,
        _ => text.trim(),
    }
}

/// The shared names of a table's fields, remembering each column's last few: a table sorted by
/// item, or grouped by annotator, repeats them row after row (a dimension cycles through a few
/// values), and a repeat then costs a comparison or two, not a lookup.
struct ColumnNames<'n> {
    names: &'n mut Names,
    recent: [Recent; COLUMNS.len()],
}

/// A column's last [`RECENT`] names, which one the next new name replaces, and the last one
/// used: the search starts there, so that a repeated name (an item's rows) and the next of a
/// cycle (the dimensions of an output, in order) are found first.
#[derive(Default)]
struct Recent {
    names: Vec<Name>,
    next: usize,
    hit: usize,
}

const RECENT: usize = 8;

impl ColumnNames<'_> {
    fn get(&mut self, column: Col, text: &str) -> Name {
        let recent = &mut self.recent[column as usize];
        let n = recent.names.len();
        for k in 0..n {
            let i = recent.hit + k;
            let i = if i >= n { i - n } else { i };
            if recent.names[i].as_str() == text {
                recent.hit = i;
                return recent.names[i].clone();
            }
        }
        let name = self.names.get(text);
        if n < RECENT {
            recent.hit = n;
            recent.names.push(name.clone());
        } else {
            recent.hit = recent.next;
            recent.names[recent.next] = name.clone();
            recent.next = (recent.next + 1) % RECENT;
        }
        name
    }
}

/// What a table's header says it holds.
struct Header {
    likert: bool,
    pairwise: bool,
    spans: bool,
    width: usize,
    at: [Option<usize>; COLUMNS.len()],
}

/// Reads one CSV input into `data`: its header says which rows it holds.
pub(crate) fn read(
    input: &Input<'_>,
    index: usize,
    names: &mut Names,
    data: &mut Data,
    summary: &mut FileSummary,
) {
    let name = input.name.as_str();
    let file = names.get(name);
    // A problem with the text as CSV drops the whole file: what was read before it is taken
    // back out.
    let before = (
        data.ratings.len(),
        data.preferences.len(),
        data.choices.len(),
        data.problems.len(),
        data.spans.len(),
    );
    let mut header: Option<Header> = None;
    let mut unreadable: Option<Problem> = None;
    let mut names = ColumnNames {
        names,
        recent: Default::default(),
    };
    let read = csv::for_each_record(&input.text, |line, fields| {
        if unreadable.is_some() {
            return;
        }
        let Some(h) = &header else {
            match read_header(fields) {
                Ok(h) => header = Some(h),
                Err(message) => {
                    unreadable = Some(Problem::new(name, Some(format!("line {line}")), message));
                }
            }
            return;
        };
        if fields.len() != h.width {
            data.problems.push(Problem::new(
                name,
                Some(format!("line {line}")),
                format!(
                    "{} field(s), but the header has {}; quote fields that hold commas",
                    fields.len(),
                    h.width
                ),
            ));
            return;
        }
        let row = Row { fields, at: &h.at };
        let source = Source {
            file: file.clone(),
            at: At::Line(line),
            input: index,
        };
        let is_rating =
            h.likert && (!(h.pairwise || h.spans) || !row.get(Col::Dimension).is_empty());
        let is_span = h.spans && (!h.pairwise || row.get(Col::Preference).is_empty());
        let skip = if is_span && !is_rating {
            None
        } else {
            skip_row(&row, &mut names, &source, is_rating)
        };
        let result = if let Some(skip) = skip {
            skip.map(|r| data.skips.push(r))
        } else if !row.get(Col::Choice).is_empty() {
            choice_row(&row, source).map(|r| data.choices.push(r))
        } else if is_rating {
            likert_row(&row, &mut names, source).map(|r| data.ratings.push(r))
        } else if is_span {
            span_row(&row, &mut names, source).map(|r| data.spans.push(r))
        } else {
            pairwise_row(&row, &mut names, source).map(|r| data.preferences.push(r))
        };
        if let Err(message) = result {
            data.problems
                .push(Problem::new(name, Some(format!("line {line}")), message));
        }
    });
    if let Err(e) = read {
        data.ratings.truncate(before.0);
        data.preferences.truncate(before.1);
        data.choices.truncate(before.2);
        data.problems.truncate(before.3);
        data.spans.truncate(before.4);
        data.problems.push(Problem::new(
            name,
            Some(format!("line {}, column {}", e.line, e.column)),
            format!("{}; nothing is read from this file", e.message),
        ));
        return;
    }
    if let Some(problem) = unreadable {
        data.problems.push(problem);
        return;
    }
    summary.kind = match header {
        None => {
            data.problems.push(Problem::new(
                name,
                None,
                "the file is empty: expected a ratings file or a CSV with a header",
            ));
            return;
        }
        Some(h) => match (h.likert, h.pairwise, h.spans) {
            (true, false, false) => InputKind::LikertCsv,
            (false, true, false) => InputKind::PairwiseCsv,
            (false, false, true) => InputKind::SpansCsv,
            _ => InputKind::TidyCsv,
        },
    };
}

/// The header of a tidy table, or why it is not one.
fn read_header(fields: &[Cow<'_, str>]) -> Result<Header, String> {
    let cols = columns(fields);
    let has = |set: &[&str]| set.iter().all(|c| cols.contains_key(c));
    let (likert, pairwise, spans) = (has(&LIKERT), has(&PAIRWISE), has(&SPANS));
    if !likert && !pairwise && !spans {
        return Err(
            if cols.contains_key("question") && cols.contains_key("value") {
                crate::session::ratings::CSV_COPY.to_owned()
            } else {
                format!(
                    "the header is not a Likert table ({}), a pairwise table ({}) or a table of \
                     error spans ({}); missing: {}",
                    LIKERT.join(","),
                    PAIRWISE.join(","),
                    SPANS.join(","),
                    nearest_missing(&cols)
                )
            },
        );
    }
    let mut at = [None; COLUMNS.len()];
    for (slot, column) in at.iter_mut().zip(COLUMNS) {
        *slot = cols.get(column).copied();
    }
    Ok(Header {
        likert,
        pairwise,
        spans,
        width: fields.len(),
        at,
    })
}

/// The columns of the table the header is closest to that it lacks.
fn nearest_missing(cols: &HashMap<&str, usize>) -> String {
    let missing = |set: &[&'static str]| -> Vec<&'static str> {
        set.iter()
            .copied()
            .filter(|c| !cols.contains_key(c))
            .collect()
    };
    let (l, p, s) = (missing(&LIKERT), missing(&PAIRWISE), missing(&SPANS));
    let closest = [l, p, s]
        .into_iter()
        .min_by_key(Vec::len)
        .unwrap_or_default();
    closest.join(", ")
}

/// A Likert row: item, system, annotator, dimension and score.
fn likert_row(row: &Row, names: &mut ColumnNames, source: Source) -> Result<RatingRow, String> {
    let item = row.required(Col::Item)?;
    let system = row.required(Col::System)?;
    let annotator = row.required(Col::Annotator)?;
    let dimension = row.required(Col::Dimension)?;
    let score = score(row.get(Col::Score))?;
    Ok(RatingRow {
        source,
        item: names.get(Col::Item, item),
        system: names.get(Col::System, system),
        annotator: names.get(Col::Annotator, annotator),
        dimension: names.get(Col::Dimension, dimension),
        score,
        round: optional_number(row.get(Col::Round), Col::Round.name())?,
        position: optional_position(row.get(Col::Position))?,
        run: optional_run(row.get(Col::Run))?,
        confidence: optional_confidence(row.get(Col::Confidence))?,
    })
}

/// A row of a table of error spans: an error (`severity`, with `start` and `end`, or without
/// them for an error of the whole output), or an output found without errors (`start`, `end`
/// and `severity` empty). `length` is the output's length in code points.
fn span_row(row: &Row, names: &mut ColumnNames, source: Source) -> Result<SpanRow, String> {
    let item = row.required(Col::Item)?;
    let system = row.required(Col::System)?;
    let annotator = row.required(Col::Annotator)?;
    let whole = |column: Col| -> Result<Option<u32>, String> {
        let text = row.get(column);
        if text.is_empty() {
            return Ok(None);
        }
        text.parse::<u32>().map(Some).map_err(|_| {
            format!(
                "{} \"{text}\" is not a whole number from 0 (characters are counted in Unicode \
                 code points)",
                column.name()
            )
        })
    };
    let length = whole(Col::Length)?.ok_or_else(|| {
        "length is empty: give the output's length in Unicode code points".to_owned()
    })?;
    let (start, end) = (whole(Col::Start)?, whole(Col::End)?);
    let severity = match row.get(Col::Severity) {
        "" => None,
        word => Some(
            Severity::parse(&word.to_ascii_lowercase())
                .ok_or_else(|| format!("severity \"{word}\" is not minor, major or critical"))?,
        ),
    };
    let category = Some(row.get(Col::Category))
        .filter(|c| !c.is_empty())
        .map(str::to_owned);
    match (start, end) {
        (Some(s), Some(e)) if s >= e => {
            return Err(format!(
                "start {s} is not before end {e} (end is one past the last character)"
            ));
        }
        (Some(_), Some(e)) if e > length => {
            return Err(format!(
                "end {e} is past the output's length {length}; check the offsets (Unicode code \
                 points) and the length"
            ));
        }
        (Some(_), None) | (None, Some(_)) => {
            return Err(
                "start and end go together: give both for a span of text, neither for an \
                 error of the whole output or an output without errors"
                    .to_owned(),
            );
        }
        _ => {}
    }
    if severity.is_none() && (start.is_some() || category.is_some()) {
        return Err(
            "severity is empty: give minor, major or critical for an error; leave start, end, \
             severity and category all empty for an output without errors"
                .to_owned(),
        );
    }
    Ok(SpanRow {
        source,
        item: names.get(Col::Item, item),
        system: names.get(Col::System, system),
        annotator: names.get(Col::Annotator, annotator),
        start,
        end,
        severity,
        category,
        length,
    })
}

/// An optional number column: empty is `None`.
fn optional_number(text: &str, column: &str) -> Result<Option<f64>, String> {
    if text.is_empty() {
        return Ok(None);
    }
    match text.parse::<f64>() {
        Ok(v) if v.is_finite() => Ok(Some(v + 0.0)),
        _ => Err(format!(
            "{column} \"{text}\" is not a number; leave it empty or give one"
        )),
    }
}

/// An optional `position` column: empty, or a whole number from 1.
fn optional_position(text: &str) -> Result<Option<u32>, String> {
    if text.is_empty() {
        return Ok(None);
    }
    match text.parse::<u32>() {
        Ok(p) if p >= 1 => Ok(Some(p)),
        _ => Err(format!(
            "position \"{text}\" is not a whole number from 1 (the place the output was shown); \
             leave it empty or give one"
        )),
    }
}

/// An optional `run` (the repeat a judge's verdict is of): empty, or a whole number from 1.
pub(crate) fn optional_run(text: &str) -> Result<Option<u32>, String> {
    if text.is_empty() {
        return Ok(None);
    }
    match text.parse::<u32>() {
        Ok(r) if r >= 1 => Ok(Some(r)),
        _ => Err(format!(
            "run \"{text}\" is not a whole number from 1 (the repeat the verdict is of: 1, 2, \
             ...); leave it empty or give one"
        )),
    }
}

/// An optional `confidence`: empty, or a number from 0 to 1.
pub(crate) fn optional_confidence(text: &str) -> Result<Option<f64>, String> {
    if text.is_empty() {
        return Ok(None);
    }
    match text.parse::<f64>() {
        Ok(c) if (0.0..=1.0).contains(&c) => Ok(Some(c + 0.0)),
        _ => Err(format!(
            "confidence \"{text}\" is not a number from 0 to 1; leave it empty or give one \
             (a percentage divided by 100)"
        )),
    }
}

/// A pairwise row: item, the two systems, annotator and preference.
fn pairwise_row(
    row: &Row,
    names: &mut ColumnNames,
    source: Source,
) -> Result<PreferenceRow, String> {
    let item = row.required(Col::Item)?;
    let system_a = row.required(Col::SystemA)?;
    let system_b = row.required(Col::SystemB)?;
    let annotator = row.required(Col::Annotator)?;
    if system_a == system_b {
        return Err(format!(
            "system_a and system_b are both \"{system_a}\": a system cannot be compared with \
             itself"
        ));
    }
    let given = row.get(Col::Preference).to_ascii_lowercase();
    let (outcome, grade) = match given.as_str() {
        "a" => (Outcome::A, None),
        "b" => (Outcome::B, None),
        "tie" => (Outcome::Tie, None),
        other => match parse_grade(other) {
            Some(g) => (outcome_of_grade(g), Some(g)),
            None => {
                return Err(format!(
                    "preference \"{other}\" is not a, b or tie, a graded a1–a9 or b1–b9, or \
                     {CANNOT_JUDGE}"
                ));
            }
        },
    };
    let a_first = shown_first(row.get(Col::ShownFirst), "leave it empty")?;
    Ok(PreferenceRow {
        source,
        item: names.get(Col::Item, item),
        system_a: names.get(Col::SystemA, system_a),
        system_b: names.get(Col::SystemB, system_b),
        annotator: names.get(Col::Annotator, annotator),
        outcome,
        a_first,
        derived: !row.get(Col::Derived).is_empty(),
        run: optional_run(row.get(Col::Run))?,
        confidence: optional_confidence(row.get(Col::Confidence))?,
        grade,
    })
}

/// A "Cannot judge" row: a rating row whose score, or a pairwise row whose preference, is
/// `cannot_judge`; `None` for any other row.
fn skip_row(
    row: &Row,
    names: &mut ColumnNames,
    source: &Source,
    rating: bool,
) -> Option<Result<SkipRow, String>> {
    let column = if rating { Col::Score } else { Col::Preference };
    if !row.get(column).eq_ignore_ascii_case(CANNOT_JUDGE) {
        return None;
    }
    let mut read = || -> Result<SkipRow, String> {
        let item = row.required(Col::Item)?;
        let annotator = row.required(Col::Annotator)?;
        let (question, systems) = if rating {
            (
                names.get(Col::Dimension, row.required(Col::Dimension)?),
                vec![names.get(Col::System, row.required(Col::System)?)],
            )
        } else {
            (
                Name::from("preference"),
                vec![
                    names.get(Col::SystemA, row.required(Col::SystemA)?),
                    names.get(Col::SystemB, row.required(Col::SystemB)?),
                ],
            )
        };
        Ok(SkipRow {
            source: source.clone(),
            item: names.get(Col::Item, item),
            annotator: names.get(Col::Annotator, annotator),
            question,
            systems,
        })
    };
    Some(read())
}

/// A choice row of the tidy CSV: `choice` (best, rank or best_worst), `shown` (the systems
/// shown, in order, separated by `|`) and `chosen` (the best system, the ranking best first, or
/// for best_worst the best and the worst, `BEST|WORST`).
fn choice_row(row: &Row, source: Source) -> Result<ChoiceRow, String> {
    let item = row.required(Col::Item)?.to_owned();
    let annotator = row.required(Col::Annotator)?.to_owned();
    let split = |text: &str| -> Vec<String> {
        text.split(CHOICE_SEPARATOR)
            .map(|s| s.trim().to_owned())
            .filter(|s| !s.is_empty())
            .collect()
    };
    let shown = split(row.required(Col::Shown)?);
    let kind = Chosen::decode(row.get(Col::Choice), row.required(Col::Chosen)?, &shown)?;
    Ok(ChoiceRow {
        source,
        item,
        annotator,
        shown,
        kind,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_field_is_trimmed_of_any_whitespace_and_left_alone_without() {
        for (field, want) in [
            ("item-1", "item-1"),
            ("x", "x"),
            (" x", "x"),
            ("x\t", "x"),
            ("\u{a0}x\u{2003}", "x"),
            ("", ""),
            ("  ", ""),
        ] {
            assert_eq!(trim(field), want, "{field:?}");
        }
    }

    #[test]
    fn a_column_cycling_through_more_names_than_it_remembers_still_shares_them() {
        let mut names = Names::default();
        let mut column = ColumnNames {
            names: &mut names,
            recent: Default::default(),
        };
        let texts: Vec<String> = (0..RECENT + 3).map(|i| format!("d{i}")).collect();
        let mut seen: Vec<Name> = Vec::new();
        for round in 0..3 {
            for text in &texts {
                let name = column.get(Col::Dimension, text);
                assert_eq!(name, text.as_str());
                if round == 0 {
                    seen.push(name);
                } else if let Some(first) = seen.iter().find(|n| n.as_str() == text) {
                    assert!(
                        std::ptr::eq(first.as_ptr(), name.as_ptr()),
                        "one copy of {text}"
                    );
                }
            }
        }
    }
}
