//! Rating sheets (`juror sheet`, `juror read-sheet`): one annotator's plan as a blinded CSV
//! for someone who cannot use the browser, and the filled sheet read back into the same
//! `juror.ratings/1` file the page exports.
//!
//! # The sheet
//! One row per trial of the plan, in plan order. First the trial as the page shows it:
//! `trial` (its number in the plan, from 1), `task`, `item_id`, `prompt`, `context` and `media`
//! when an item has them, `labels` (the letters of the outputs the row shows, in the order
//! shown: `A B C D`), and each output's text under its letter (`output-A`). Then the columns to
//! fill, named as `juror analyze --format wide` names its own: one per dimension and letter
//! (`relevance-A`), per per-output question and letter (`useful-A`), per letter for the flag
//! (`flagged-A`), then `preferred`, `explanation` and `notes` when a task asks for them. A
//! column only has the letters its questions are asked about. No system id, token or
//! position-to-system map is written anywhere: a sheet shows what the page shows.
//!
//! # Reading it back
//! The rows are matched to the plan by `trial` (a spreadsheet may sort them), and each must
//! name the plan's task, item and letters. Every value is checked: scores are whole numbers on
//! the dimension's scale, answers fit their question, the preference is one of the row's
//! letters (or `tie` where a tie is allowed), `cannot_judge` only where a dimension or question
//! offers "Cannot judge" (`allow_skip`), a cell for a question the row does not ask is
//! blank, and a required answer is given, unless the sheet is read as partial: then a trial
//! with a required answer blank is kept, not done. Every problem is collected with its row
//! (as a spreadsheet numbers it, the header being row 1) and column; with any problem, nothing
//! is made. A trial is done by the page's own rule ([`super::trial_missing`]); the surveys are
//! not on a sheet, and no time is measured.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use super::answers::{Answer, CANNOT_JUDGE, OutputAnswers, TrialAnswers};
use super::ratings::{RatingsFile, export};
use super::{Phase, Session, trial_missing};
use crate::base::csv;
use crate::plan::{Plan, Trial};
use crate::study::{Requirement, Study, Task, letter};

/// A column of a sheet.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Column {
    Trial,
    Task,
    Item,
    Prompt,
    Context,
    Media,
    Labels,
    /// An output's text, by letter.
    Output(String),
    /// A dimension's score, by dimension id and letter.
    Rating(String, String),
    /// A per-output question's answer, by question id and letter.
    Question(String, String),
    /// The flag, by letter.
    Flag(String),
    Preferred,
    Explanation,
    Notes,
}

impl Column {
    fn name(&self) -> String {
        match self {
            Column::Trial => "trial".to_owned(),
            Column::Task => "task".to_owned(),
            Column::Item => "item_id".to_owned(),
            Column::Prompt => "prompt".to_owned(),
            Column::Context => "context".to_owned(),
            Column::Media => "media".to_owned(),
            Column::Labels => "labels".to_owned(),
            Column::Output(l) => format!("output-{l}"),
            Column::Rating(d, l) | Column::Question(d, l) => format!("{d}-{l}"),
            Column::Flag(l) => format!("flagged-{l}"),
            Column::Preferred => "preferred".to_owned(),
            Column::Explanation => "explanation".to_owned(),
            Column::Notes => "notes".to_owned(),
        }
    }

    /// Whether the annotator fills it.
    fn to_fill(&self) -> bool {
        matches!(
            self,
            Column::Rating(..)
                | Column::Question(..)
                | Column::Flag(_)
                | Column::Preferred
                | Column::Explanation
                | Column::Notes
        )
    }

    /// Whether reading needs it: the trial's identity and every column to fill.
    fn needed(&self) -> bool {
        self.to_fill()
            || matches!(
                self,
                Column::Trial | Column::Task | Column::Item | Column::Labels
            )
    }
}

/// The letter of an output's label (`B` for "System B"), by the study's label format; the
/// position's letter for a label the format does not make.
fn letter_of(study: &Study, task: &Task, label: &str, position: usize) -> String {
    (0..study.system_count().max(1))
        .find(|&l| task.label(l) == label)
        .map_or_else(|| letter(position), letter)
}

/// The letters of a trial's outputs, in the order shown.
fn letters(study: &Study, trial: &Trial) -> Vec<String> {
    trial
        .shown
        .iter()
        .enumerate()
        .map(|(p, s)| letter_of(study, &study.design().tasks[trial.task], &s.label, p))
        .collect()
}

/// Letters in alphabetical order (`Z` before `AA`).
fn sorted(letters: BTreeSet<String>) -> Vec<String> {
    let mut out: Vec<String> = letters.into_iter().collect();
    out.sort_by(|a, b| (a.len(), a).cmp(&(b.len(), b)));
    out
}

/// The columns of the sheet of `plan`: only what its trials show and ask.
fn columns(study: &Study, plan: &Plan) -> Vec<Column> {
    let tasks = &study.design().tasks;
    let mut all = BTreeSet::new();
    let mut by_dimension: BTreeMap<&str, BTreeSet<String>> = BTreeMap::new();
    let mut by_question: BTreeMap<&str, BTreeSet<String>> = BTreeMap::new();
    let mut flagged = BTreeSet::new();
    let (mut context, mut media) = (false, false);
    for trial in &plan.trials {
        let task = &tasks[trial.task];
        let item = &study.items()[trial.item];
        context |= item.context.is_some();
        media |= item.media.is_some();
        let letters = letters(study, trial);
        all.extend(letters.iter().cloned());
        for d in &task.dimensions {
            by_dimension
                .entry(d)
                .or_default()
                .extend(letters.iter().cloned());
        }
        for q in &task.output_questions {
            by_question
                .entry(q)
                .or_default()
                .extend(letters.iter().cloned());
        }
        if task.flag.is_some() {
            flagged.extend(letters.iter().cloned());
        }
    }
    let mut out = vec![Column::Trial, Column::Task, Column::Item, Column::Prompt];
    if context {
        out.push(Column::Context);
    }
    if media {
        out.push(Column::Media);
    }
    out.push(Column::Labels);
    out.extend(sorted(all).into_iter().map(Column::Output));
    for d in &study.rubric().dimensions {
        if let Some(letters) = by_dimension.remove(d.id.as_str()) {
            out.extend(
                sorted(letters)
                    .into_iter()
                    .map(|l| Column::Rating(d.id.clone(), l)),
            );
        }
    }
    for q in &study.rubric().output_questions {
        if let Some(letters) = by_question.remove(q.id.as_str()) {
            out.extend(
                sorted(letters)
                    .into_iter()
                    .map(|l| Column::Question(q.id.clone(), l)),
            );
        }
    }
    out.extend(sorted(flagged).into_iter().map(Column::Flag));
    let asked = |f: &dyn Fn(&Task) -> bool| plan.trials.iter().any(|t| f(&tasks[t.task]));
    if asked(&|t| t.preference.is_some()) {
        out.push(Column::Preferred);
    }
    if asked(&|t| {
        t.preference
            .as_ref()
            .is_some_and(|p| p.explanation != Requirement::Off)
    }) {
        out.push(Column::Explanation);
    }
    if asked(&|t| t.notes != Requirement::Off) {
        out.push(Column::Notes);
    }
    out
}

/// The blinded rating sheet of `plan` as CSV: a header, then one row per trial (see the
/// module's documentation). Every field goes through [`csv::field`].
pub fn write(study: &Study, plan: &Plan) -> String {
    let columns = columns(study, plan);
    let header: Vec<String> = columns.iter().map(Column::name).collect();
    let mut out = csv::line(&header);
    let systems = study.systems();
    for (i, trial) in plan.trials.iter().enumerate() {
        let item = &study.items()[trial.item];
        let letters = letters(study, trial);
        let fields: Vec<String> = columns
            .iter()
            .map(|column| match column {
                Column::Trial => (i + 1).to_string(),
                Column::Task => study.design().tasks[trial.task].id.clone(),
                Column::Item => item.id.clone(),
                Column::Prompt => item.prompt.plain().into_owned(),
                Column::Context => item
                    .context
                    .as_ref()
                    .map(|c| c.plain().into_owned())
                    .unwrap_or_default(),
                Column::Media => item
                    .media
                    .as_ref()
                    .map(|m| format!("{} ({})", m.src, m.alt))
                    .unwrap_or_default(),
                Column::Labels => letters.join(" "),
                Column::Output(l) => letters
                    .iter()
                    .position(|x| x == l)
                    .and_then(|p| systems.get(trial.shown[p].system))
                    .and_then(|s| item.outputs.get(s))
                    .map(|o| o.plain().into_owned())
                    .unwrap_or_default(),
                _ => String::new(),
            })
            .collect();
        out.push_str(&csv::line(&fields));
    }
    out
}

/// `relevance-A … relevance-D`, or the one name.
fn span(columns: &[&Column]) -> String {
    match (columns.first(), columns.last()) {
        (Some(a), Some(b)) if a != b => format!("{} … {}", a.name(), b.name()),
        (Some(a), _) => a.name(),
        _ => String::new(),
    }
}

fn required_word(required: bool) -> &'static str {
    if required { "required" } else { "optional" }
}

/// What to write instead of an answer where "Cannot judge" is offered (`allow_skip`).
fn skip_words(allowed: bool) -> &'static str {
    if allowed {
        ", or cannot_judge when you cannot judge it"
    } else {
        ""
    }
}

/// What to write in each column of the sheet of `plan`, for the annotator (the scales in
/// full): `juror sheet` prints it beside the sheet, since a CSV has no room for it.
pub fn legend(study: &Study, plan: &Plan) -> String {
    use std::fmt::Write;
    let columns = columns(study, plan);
    let tasks = &study.design().tasks;
    let mut out = format!(
        "Rating sheet of \"{}\": {} rows, one per trial. On each row, fill in the columns of \
         the outputs it shows (its `labels`); leave the other columns as they are, and keep \
         every row.\n",
        study.title(),
        plan.trials.len()
    );
    for d in &study.rubric().dimensions {
        let of: Vec<&Column> = columns
            .iter()
            .filter(|c| matches!(c, Column::Rating(x, _) if *x == d.id))
            .collect();
        if !of.is_empty() {
            let _ = writeln!(
                out,
                "  {}: {} ({}), {}{}; {}",
                span(&of),
                d.label,
                d.question,
                d.scale.words(),
                skip_words(d.allow_skip),
                required_word(d.required)
            );
        }
    }
    for q in &study.rubric().output_questions {
        let of: Vec<&Column> = columns
            .iter()
            .filter(|c| matches!(c, Column::Question(x, _) if *x == q.id))
            .collect();
        if !of.is_empty() {
            let _ = writeln!(
                out,
                "  {}: {}, {}{}; {}",
                span(&of),
                q.prompt,
                q.kind.words(),
                skip_words(q.allow_skip),
                required_word(q.required)
            );
        }
    }
    let flags: Vec<&Column> = columns
        .iter()
        .filter(|c| matches!(c, Column::Flag(_)))
        .collect();
    let mut seen = BTreeSet::new();
    for task in tasks {
        if let Some(label) = &task.flag
            && seen.insert(label)
        {
            let implied = task
                .flag_implies
                .map(|v| format!(" (then its scores are {v}: leave them blank or write {v})"))
                .unwrap_or_default();
            let _ = writeln!(out, "  {}: x if \"{label}\"{implied}", span(&flags));
        }
    }
    let used: BTreeSet<usize> = plan.trials.iter().map(|t| t.task).collect();
    for task in used.iter().map(|&t| &tasks[t]) {
        if let Some(p) = &task.preference {
            let how = p.legend();
            let _ = writeln!(
                out,
                "  preferred (task {}): {} Write {how}; required",
                task.id, p.question
            );
            if p.explanation != Requirement::Off {
                let _ = writeln!(
                    out,
                    "  explanation (task {}): why; {}",
                    task.id,
                    required_word(p.explanation == Requirement::Required)
                );
            }
        }
        if task.notes != Requirement::Off {
            let _ = writeln!(
                out,
                "  notes (task {}): anything to tell the researcher; {}",
                task.id,
                required_word(task.notes == Requirement::Required)
            );
        }
    }
    out
}

/// A problem of a filled sheet: where (the row as a spreadsheet numbers it, the header being
/// row 1; the column's name), what is wrong and what to write.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SheetError {
    pub row: Option<usize>,
    pub column: Option<String>,
    pub message: String,
}

impl fmt::Display for SheetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.row, &self.column) {
            (Some(r), Some(c)) => write!(f, "row {r}, column {c}: ")?,
            (Some(r), None) => write!(f, "row {r}: ")?,
            (None, Some(c)) => write!(f, "column {c}: ")?,
            (None, None) => {}
        }
        f.write_str(&self.message)
    }
}

/// How a filled sheet is read.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ReadOptions {
    /// Blank required answers leave their trial not done, instead of being problems.
    pub partial: bool,
}

/// The session a filled sheet makes: on `plan`, the answers of each trial, each trial marked
/// done by the page's rule, finished when every trial is done; or every problem, placed.
///
/// # Errors
/// Every problem of the sheet (see the module's documentation).
pub fn read(
    study: &Study,
    plan: &Plan,
    text: &str,
    options: ReadOptions,
) -> Result<Session, Vec<SheetError>> {
    let records = csv::parse(text).map_err(|e| {
        vec![SheetError {
            row: None,
            column: None,
            message: format!(
                "line {}, column {} of the file: {}",
                e.line, e.column, e.message
            ),
        }]
    })?;
    let Some((header, rows)) = records.split_first() else {
        return Err(vec![SheetError {
            row: None,
            column: None,
            message: "the sheet is empty; give the sheet `juror sheet` wrote, filled in".into(),
        }]);
    };
    let columns = columns(study, plan);
    let at = header_places(&columns, &header.fields)?;
    let mut errors = Vec::new();
    let mut answers: Vec<Option<TrialAnswers>> = vec![None; plan.trials.len()];
    let mut rows_of: Vec<Option<usize>> = vec![None; plan.trials.len()];
    for (i, record) in rows.iter().enumerate() {
        let row = Row {
            number: i + 2,
            fields: &record.fields,
            header: &header.fields,
            at: &at,
        };
        let Some(t) = row.trial(study, plan, &rows_of, &mut errors) else {
            continue;
        };
        rows_of[t] = Some(row.number);
        let mut reader = RowReader {
            study,
            trial: &plan.trials[t],
            row: &row,
            letters: letters(study, &plan.trials[t]),
            partial: options.partial,
            errors: &mut errors,
        };
        answers[t] = Some(reader.answers(&columns));
    }
    for (t, trial) in plan.trials.iter().enumerate() {
        if rows_of[t].is_none() {
            errors.push(SheetError {
                row: None,
                column: Some("trial".into()),
                message: format!(
                    "no row for trial {} (item {}); every row of the sheet must stay, filled \
                     or not",
                    t + 1,
                    study.items()[trial.item].id
                ),
            });
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    let mut session = Session::on(plan.clone());
    session.progress.trials = answers.into_iter().map(Option::unwrap_or_default).collect();
    for i in 0..plan.trials.len() {
        let done = trial_missing(study, &session, i).is_empty();
        session.progress.trials[i].done = done;
    }
    let first_open = session.progress.trials.iter().position(|t| !t.done);
    session.progress.current = first_open.unwrap_or(0);
    session.progress.phase = if first_open.is_some() {
        Phase::Trials
    } else {
        Phase::Done
    };
    Ok(session)
}

/// The ratings file of a filled sheet, as the page exports it (checksum included): for
/// `study`, whose text hashes to `study_sha256`, written by `app_version` at `now`.
///
/// # Errors
/// Every problem of the sheet ([`read`]).
pub fn ratings(
    study: &Study,
    study_sha256: &str,
    plan: &Plan,
    text: &str,
    options: ReadOptions,
    app_version: &str,
    now: f64,
) -> Result<RatingsFile, Vec<SheetError>> {
    let session = read(study, plan, text, options)?;
    Ok(export(study, study_sha256, &session, app_version, now))
}

/// Where each column of the sheet is in the header; or the header's problems (a column
/// missing, unknown or twice).
fn header_places(
    columns: &[Column],
    header: &[String],
) -> Result<BTreeMap<String, usize>, Vec<SheetError>> {
    let mut errors = Vec::new();
    let mut at = BTreeMap::new();
    let names: Vec<String> = columns.iter().map(Column::name).collect();
    for (i, name) in header.iter().enumerate() {
        let name = csv::undefuse(name.trim()).to_owned();
        if name.is_empty() {
            continue;
        }
        let problem = if !names.contains(&name) {
            format!(
                "not a column of this sheet; give the sheet `juror sheet` wrote for this \
                 annotator, with its header row as written (its columns: {})",
                names.join(", ")
            )
        } else if let std::collections::btree_map::Entry::Vacant(place) = at.entry(name.clone()) {
            place.insert(i);
            continue;
        } else {
            "this column is in the sheet twice; keep one".to_owned()
        };
        errors.push(SheetError {
            row: Some(1),
            column: Some(name),
            message: problem,
        });
    }
    for (column, name) in columns.iter().zip(&names) {
        if column.needed() && !at.contains_key(name) {
            errors.push(SheetError {
                row: Some(1),
                column: Some(name.clone()),
                message: "missing from the header; give the sheet `juror sheet` wrote for this \
                          annotator, with its header row as written"
                    .into(),
            });
        }
    }
    if errors.is_empty() {
        Ok(at)
    } else {
        Err(errors)
    }
}

/// One row of a filled sheet.
struct Row<'a> {
    /// As a spreadsheet numbers it: the header is row 1.
    number: usize,
    fields: &'a [String],
    header: &'a [String],
    at: &'a BTreeMap<String, usize>,
}

impl Row<'_> {
    /// The cell of `column`, trimmed and with [`csv::field`]'s formula defusing undone; empty
    /// when the row is short.
    fn cell(&self, column: &Column) -> &str {
        self.at
            .get(&column.name())
            .and_then(|&i| self.fields.get(i))
            .map_or("", |f| csv::undefuse(f.trim()))
    }

    fn error(&self, column: &Column, message: String) -> SheetError {
        SheetError {
            row: Some(self.number),
            column: Some(column.name()),
            message,
        }
    }

    /// The index in the plan of the trial this row is, checked against the plan (its task,
    /// item and letters) and the rows before it; `None` (and the problems) when it cannot be
    /// used.
    fn trial(
        &self,
        study: &Study,
        plan: &Plan,
        rows_of: &[Option<usize>],
        errors: &mut Vec<SheetError>,
    ) -> Option<usize> {
        let before = errors.len();
        for (i, value) in self.fields.iter().enumerate().skip(self.header.len()) {
            if !value.trim().is_empty() {
                errors.push(SheetError {
                    row: Some(self.number),
                    column: None,
                    message: format!(
                        "\"{}\" in column {}, past the last column; move it into its column",
                        value.trim(),
                        i + 1
                    ),
                });
            }
        }
        let text = self.cell(&Column::Trial);
        let n = plan.trials.len();
        let t = match text.parse::<usize>() {
            Ok(k) if (1..=n).contains(&k) => k - 1,
            _ => {
                errors.push(self.error(
                    &Column::Trial,
                    format!(
                        "\"{text}\" is not a trial of this sheet; keep the number written \
                         there (1 to {n})"
                    ),
                ));
                return None;
            }
        };
        if let Some(other) = rows_of[t] {
            errors.push(self.error(
                &Column::Trial,
                format!(
                    "trial {} is on row {other} too; keep one of the two rows",
                    t + 1
                ),
            ));
            return None;
        }
        let trial = &plan.trials[t];
        let expected = [
            (Column::Task, study.design().tasks[trial.task].id.clone()),
            (Column::Item, study.items()[trial.item].id.clone()),
            (Column::Labels, letters(study, trial).join(" ")),
        ];
        for (column, want) in expected {
            let got = self.cell(&column);
            let same = if column == Column::Labels {
                got.split_whitespace().collect::<Vec<_>>().join(" ") == want
            } else {
                got == want
            };
            if !same {
                errors.push(self.error(
                    &column,
                    format!(
                        "trial {} is \"{want}\" in this annotator's plan, not \"{got}\"; is \
                         this the sheet of this slot or annotator? Keep the column as written",
                        t + 1
                    ),
                ));
            }
        }
        (errors.len() == before).then_some(t)
    }
}

/// Reads the answers of one row that names its trial rightly.
struct RowReader<'a, 'r> {
    study: &'a Study,
    trial: &'a Trial,
    row: &'a Row<'r>,
    letters: Vec<String>,
    partial: bool,
    errors: &'a mut Vec<SheetError>,
}

impl RowReader<'_, '_> {
    fn task(&self) -> &Task {
        &self.study.design().tasks[self.trial.task]
    }

    fn position(&self, letter: &str) -> Option<usize> {
        self.letters.iter().position(|l| l == letter)
    }

    fn fail(&mut self, column: &Column, message: String) {
        let e = self.row.error(column, message);
        self.errors.push(e);
    }

    /// A required answer left blank: a problem, unless the sheet is read as partial.
    fn blank(&mut self, column: &Column, required: bool, what: &str) {
        if required && !self.partial {
            self.fail(
                column,
                format!("blank, but it must be answered; write {what}"),
            );
        }
    }

    /// A value in a cell of a question this row does not ask.
    fn not_asked(&mut self, column: &Column, value: &str) {
        let shows = self.letters.join(", ");
        self.fail(
            column,
            format!(
                "\"{value}\", but this trial does not ask it (it shows {shows}); leave it blank"
            ),
        );
    }

    fn answers(&mut self, columns: &[Column]) -> TrialAnswers {
        let n = self.trial.shown.len();
        let mut answers = TrialAnswers {
            outputs: vec![OutputAnswers::default(); n],
            ..TrialAnswers::default()
        };
        // Flags first: a flag can imply the scores of its output.
        for column in columns {
            if let Column::Flag(l) = column {
                let value = self.row.cell(column);
                match (self.position(l), self.task().flag.is_some()) {
                    (Some(p), true) => match flag_value(value) {
                        Some(on) => answers.outputs[p].flagged = on,
                        None => self.fail(
                            column,
                            format!("\"{value}\" is not a flag; write x, or leave it blank"),
                        ),
                    },
                    _ if value.is_empty() => {}
                    _ => self.not_asked(column, value),
                }
            }
        }
        for column in columns {
            let value = self.row.cell(column);
            match column {
                Column::Rating(d, l) => self.rating(column, d, l, value, &mut answers),
                Column::Question(q, l) => self.question(column, q, l, value, &mut answers),
                Column::Preferred => self.preferred(column, value, &mut answers),
                Column::Explanation => {
                    let asked = self.task().preference.as_ref().map(|p| p.explanation);
                    answers.explanation = self.text(column, value, asked);
                }
                Column::Notes => {
                    let asked = Some(self.task().notes);
                    answers.notes = self.text(column, value, asked);
                }
                _ => {}
            }
        }
        answers
    }

    fn rating(&mut self, column: &Column, d: &str, l: &str, value: &str, a: &mut TrialAnswers) {
        let position = self
            .position(l)
            .filter(|_| self.task().dimensions.iter().any(|x| x == d));
        let (Some(p), Some(dimension)) = (position, self.study.dimension(d)) else {
            if !value.is_empty() {
                self.not_asked(column, value);
            }
            return;
        };
        let implied = self.task().flag_implies.filter(|_| a.outputs[p].flagged);
        let range = format!(
            "a whole number from {} to {}",
            dimension.scale.min(),
            dimension.scale.max()
        );
        if value.is_empty() {
            match implied {
                Some(v) => {
                    a.outputs[p].ratings.insert(d.to_owned(), v);
                }
                None => self.blank(column, dimension.required, &range),
            }
            return;
        }
        if dimension.allow_skip && value.eq_ignore_ascii_case(CANNOT_JUDGE) && implied.is_none() {
            a.outputs[p].rate(d, None);
            return;
        }
        match dimension.scale.parse_cell(value) {
            Ok(v) if implied.is_some_and(|i| i != v) => {
                let i = implied.unwrap_or(v);
                self.fail(
                    column,
                    format!(
                        "{v}, but the output is flagged, which makes every score {i}; write \
                         {i} or leave it blank, or unflag the output"
                    ),
                );
            }
            Ok(v) => {
                a.outputs[p].ratings.insert(d.to_owned(), v);
            }
            Err(why) => self.fail(column, why),
        }
    }

    fn question(&mut self, column: &Column, q: &str, l: &str, value: &str, a: &mut TrialAnswers) {
        let position = self
            .position(l)
            .filter(|_| self.task().output_questions.iter().any(|x| x == q));
        let question = self
            .study
            .rubric()
            .output_questions
            .iter()
            .find(|x| x.id == q);
        let (Some(p), Some(question)) = (position, question) else {
            if !value.is_empty() {
                self.not_asked(column, value);
            }
            return;
        };
        if value.is_empty() {
            self.blank(column, question.required, &question.kind.words());
            return;
        }
        let task = self.task();
        let labels: Vec<String> = (0..self.study.system_count())
            .map(|i| task.label(i))
            .collect();
        let system = |v: &str| {
            labels
                .iter()
                .enumerate()
                .find(|(i, l)| *l == v || letter(*i).eq_ignore_ascii_case(v))
                .map(|(i, _)| task.label(i))
                .ok_or_else(|| format!("\"{v}\" is not a letter of an output"))
        };
        let answer = match question.kind.parse_cell(value, system) {
            _ if question.allow_skip && value.eq_ignore_ascii_case(CANNOT_JUDGE) => {
                Answer::CannotJudge
            }
            Ok(answer) => answer,
            Err(why) => return self.fail(column, why),
        };
        match answer.check(question, &labels) {
            Ok(()) => {
                a.outputs[p].answers.insert(q.to_owned(), answer);
            }
            Err(why) => self.fail(column, format!("\"{value}\": {why}")),
        }
    }

    fn preferred(&mut self, column: &Column, value: &str, a: &mut TrialAnswers) {
        let Some(p) = self.task().preference.clone() else {
            if !value.is_empty() {
                self.not_asked(column, value);
            }
            return;
        };
        let what = p.cell_words(&self.letters.join(", "));
        if value.is_empty() {
            return self.blank(column, true, &what);
        }
        let chosen = p.parse_cell(value, self.letters.len(), |token| {
            self.letters
                .iter()
                .zip(&self.trial.shown)
                .position(|(l, s)| l.eq_ignore_ascii_case(token) || s.label == token)
        });
        match chosen {
            Some(c) => a.preference = Some(c),
            None => self.fail(
                column,
                format!("\"{value}\" is not an answer here; write {what}"),
            ),
        }
    }

    fn text(&mut self, column: &Column, value: &str, asked: Option<Requirement>) -> String {
        match asked {
            None | Some(Requirement::Off) => {
                if !value.is_empty() {
                    self.not_asked(column, value);
                }
                String::new()
            }
            Some(r) => {
                if value.is_empty() {
                    self.blank(column, r == Requirement::Required, "a few words");
                }
                value.to_owned()
            }
        }
    }
}

/// A flag cell: blank, `no`, `0` or `false` is off; `x`, `yes`, `1` or `true` is on.
fn flag_value(value: &str) -> Option<bool> {
    match value.to_ascii_lowercase().as_str() {
        "" | "no" | "n" | "0" | "false" => Some(false),
        "x" | "yes" | "y" | "1" | "true" => Some(true),
        _ => None,
    }
}
