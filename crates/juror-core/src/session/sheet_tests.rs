//! Rating sheets: written blinded, filled in, read back into the page's ratings file; every
//! kind of mistake placed by row and column.

use super::ratings::{PreferenceRecord, parse, restore};
use super::sheet::{ReadOptions, SheetError, legend, ratings, read, write};
use super::tests::example;
use crate::base::csv;
use crate::plan::{Annotator, Plan, plan};
use crate::study::{Study, parse_study};

/// A sheet as a table, to fill cell by cell.
struct Table {
    header: Vec<String>,
    rows: Vec<Vec<String>>,
}

impl Table {
    fn of(text: &str) -> Table {
        let mut records = csv::parse(text).unwrap().into_iter();
        let header = records.next().unwrap().fields;
        let rows = records.map(|r| r.fields).collect();
        Table { header, rows }
    }

    fn column(&self, name: &str) -> usize {
        self.header
            .iter()
            .position(|h| h == name)
            .unwrap_or_else(|| panic!("no column {name} in {:?}", self.header))
    }

    fn get(&self, row: usize, name: &str) -> &str {
        &self.rows[row][self.column(name)]
    }

    fn set(&mut self, row: usize, name: &str, value: &str) {
        let c = self.column(name);
        self.rows[row][c] = value.to_owned();
    }

    fn text(&self) -> String {
        let mut out = csv::line(&self.header);
        for row in &self.rows {
            out.push_str(&csv::line(row));
        }
        out
    }
}

fn work_intake(slot: u32) -> (Study, String, Plan) {
    let (study, hash) = example("work-intake");
    let p = plan(&study, &Annotator::slot(slot));
    (study, hash, p)
}

/// The score a test writes for trial `row` (from 0) at letter `l`: every value of the scale.
fn score_for(row: usize, l: usize) -> i32 {
    1 + ((row + 2 * l) % 5) as i32
}

/// Every row of a work-intake sheet filled in: scores by row and letter, the last letter
/// preferred, a note on even rows.
fn filled(study: &Study, p: &Plan) -> Table {
    let mut table = Table::of(&write(study, p));
    for row in 0..table.rows.len() {
        let letters: Vec<String> = table
            .get(row, "labels")
            .split(' ')
            .map(str::to_owned)
            .collect();
        for (l, letter) in letters.iter().enumerate() {
            for d in ["relevance", "completeness", "coherence"] {
                table.set(
                    row,
                    &format!("{d}-{letter}"),
                    &score_for(row, l).to_string(),
                );
            }
        }
        table.set(row, "preferred", letters.last().unwrap());
        if row % 2 == 0 {
            table.set(row, "notes", &format!("note {row}"));
        }
    }
    table
}

fn errors(study: &Study, p: &Plan, text: &str) -> Vec<String> {
    match read(study, p, text, ReadOptions::default()) {
        Ok(_) => panic!("the sheet was read:\n{text}"),
        Err(e) => e.iter().map(SheetError::to_string).collect(),
    }
}

#[test]
fn a_sheet_has_a_row_per_trial_and_the_wide_table_s_columns() {
    let (study, _, p) = work_intake(2);
    let table = Table::of(&write(&study, &p));
    assert_eq!(table.rows.len(), p.trials.len());
    let header = table.header.join(",");
    assert_eq!(
        header,
        "trial,task,item_id,prompt,labels,output-A,output-B,output-C,output-D,\
         relevance-A,relevance-B,relevance-C,relevance-D,completeness-A,completeness-B,\
         completeness-C,completeness-D,coherence-A,coherence-B,coherence-C,coherence-D,\
         flagged-A,flagged-B,flagged-C,flagged-D,preferred,notes"
    );
    for (i, trial) in p.trials.iter().enumerate() {
        let item = &study.items()[trial.item];
        assert_eq!(table.get(i, "trial"), (i + 1).to_string());
        assert_eq!(table.get(i, "item_id"), item.id);
        assert_eq!(table.get(i, "prompt"), item.prompt.plain());
        assert_eq!(table.get(i, "labels"), "A B C D");
        // Each letter's text is the output the page shows under that letter.
        for (pos, shown) in trial.shown.iter().enumerate() {
            let letter = ["A", "B", "C", "D"][pos];
            assert_eq!(shown.label, format!("System {letter}"));
            let text = &item.outputs[&study.systems()[shown.system]];
            assert_eq!(table.get(i, &format!("output-{letter}")), text.plain());
        }
        assert_eq!(table.get(i, "relevance-A"), "");
    }
    let legend = legend(&study, &p);
    assert!(
        legend.contains("relevance-A … relevance-D: Relevance"),
        "{legend}"
    );
    assert!(legend.contains("1 Irrelevant, 2 Poor, 3 Adequate, 4 Good, 5 Excellent"));
    assert!(legend.contains("flagged-A … flagged-D: x if"), "{legend}");
}

#[test]
fn a_filled_sheet_becomes_the_ratings_file_the_page_would_export() {
    let (study, hash, p) = work_intake(3);
    let table = filled(&study, &p);
    let file = ratings(
        &study,
        &hash,
        &p,
        &table.text(),
        ReadOptions::default(),
        "9.9.9",
        1.8e12,
    )
    .unwrap_or_else(|e| panic!("{e:?}"));
    // Checksummed as the page's export: it parses, and restores onto the same plan.
    let back = parse(&file.to_json()).unwrap();
    assert_eq!(back, file);
    restore(&study, &hash, &back).unwrap();
    assert!(file.complete);
    assert_eq!(file.annotator.slot, 3);
    assert_eq!(file.trials.len(), p.trials.len());
    for (row, record) in file.trials.iter().enumerate() {
        assert!(record.done, "trial {}", row + 1);
        for (l, output) in record.outputs.iter().enumerate() {
            assert_eq!(
                output.label,
                ["System A", "System B", "System C", "System D"][l]
            );
            let shown = &p.trials[row].shown[l];
            assert_eq!(output.system, study.systems()[shown.system]);
            for d in ["relevance", "completeness", "coherence"] {
                assert_eq!(
                    output.ratings[d],
                    score_for(row, l),
                    "trial {} {d}",
                    row + 1
                );
            }
        }
        match &record.preference {
            Some(PreferenceRecord::Best {
                position, label, ..
            }) => {
                assert_eq!((*position, label.as_str()), (4, "System D"));
            }
            other => panic!("{other:?}"),
        }
        let note = if row % 2 == 0 {
            format!("note {row}")
        } else {
            String::new()
        };
        assert_eq!(record.notes, note);
    }
}

#[test]
fn rows_sorted_otherwise_and_formulas_read_back_as_written() {
    let (study, hash, p) = work_intake(1);
    let mut table = filled(&study, &p);
    table.set(0, "notes", "=SUM(A1:A3) looked wrong");
    table.rows.reverse();
    let text = table.text();
    assert!(
        text.contains("'=SUM(A1:A3)"),
        "the note is defused in the sheet"
    );
    let file = ratings(&study, &hash, &p, &text, ReadOptions::default(), "v", 0.0).unwrap();
    assert_eq!(file.trials[0].notes, "=SUM(A1:A3) looked wrong");
    assert!(file.complete);
}

#[test]
fn each_mistake_is_placed_by_row_and_column() {
    let (study, _, p) = work_intake(1);
    let mut table = filled(&study, &p);
    // Row numbers as a spreadsheet gives them: the header is row 1, trial 1 row 2.
    table.set(5, "relevance-B", "6");
    table.set(1, "completeness-A", "4.5");
    table.set(2, "coherence-C", "good");
    table.set(3, "relevance-D", "");
    table.set(4, "preferred", "E");
    table.set(6, "flagged-A", "x");
    table.set(6, "relevance-A", "3");
    table.set(6, "completeness-A", "1");
    table.set(6, "coherence-A", "");
    table.set(7, "flagged-B", "maybe");
    let text = table.text();
    assert_eq!(
        errors(&study, &p, &text),
        [
            "row 3, column completeness-A: 4.5 is not a whole number; write a whole number \
             from 1 to 5",
            "row 4, column coherence-C: \"good\" is not a number; write a whole number from 1 \
             to 5",
            "row 5, column relevance-D: blank, but it must be answered; write a whole number \
             from 1 to 5",
            "row 6, column preferred: \"E\" is not an answer here; write one of A, B, C, D",
            "row 7, column relevance-B: 6 is not on the scale 1–5; write a whole number from 1 \
             to 5",
            "row 8, column relevance-A: 3, but the output is flagged, which makes every score \
             1; write 1 or leave it blank, or unflag the output",
            "row 9, column flagged-B: \"maybe\" is not a flag; write x, or leave it blank",
        ]
    );
}

#[test]
fn a_flagged_output_s_blank_scores_are_the_flag_s() {
    let (study, hash, p) = work_intake(1);
    let mut table = filled(&study, &p);
    table.set(0, "flagged-C", "x");
    for d in ["relevance", "completeness", "coherence"] {
        table.set(0, &format!("{d}-C"), "");
    }
    let file = ratings(
        &study,
        &hash,
        &p,
        &table.text(),
        ReadOptions::default(),
        "v",
        0.0,
    )
    .unwrap();
    let output = &file.trials[0].outputs[2];
    assert!(output.flagged);
    assert!(output.ratings.values().all(|&v| v == 1), "{output:?}");
}

#[test]
fn rows_that_do_not_fit_the_plan_are_refused() {
    let (study, _, p) = work_intake(1);
    let good = filled(&study, &p);
    // Another slot's sheet: the items are in another order.
    let (_, _, other) = work_intake(2);
    let theirs = filled(&study, &other);
    let e = errors(&study, &p, &theirs.text());
    assert!(
        e.iter()
            .any(|m| m.contains("column item_id: trial") && m.contains("is this the sheet")),
        "{e:?}"
    );
    // A row twice, a row gone.
    let mut table = Table::of(&good.text());
    let second = table.rows[1].clone();
    table.rows[2] = second;
    let e = errors(&study, &p, &table.text());
    assert_eq!(
        e,
        [
            "row 4, column trial: trial 2 is on row 3 too; keep one of the two rows".to_owned(),
            format!(
                "column trial: no row for trial 3 (item {}); every row of the sheet must stay, \
                 filled or not",
                study.items()[p.trials[2].item].id
            ),
        ]
    );
    // A trial number that is not one, labels changed, a value past the last column.
    let mut table = Table::of(&good.text());
    table.set(0, "trial", "x");
    table.set(1, "labels", "B A C D");
    table.rows[2].push("stray".into());
    let e = errors(&study, &p, &table.text());
    assert!(
        e[0].starts_with("row 2, column trial: \"x\" is not a trial"),
        "{e:?}"
    );
    assert!(
        e[1].starts_with("row 3, column labels: trial 2 is \"A B C D\""),
        "{e:?}"
    );
    assert!(
        e[2].starts_with("row 4: \"stray\" in column 28, past the last column"),
        "{e:?}"
    );
}

#[test]
fn a_header_that_is_not_the_sheet_s_is_refused_before_any_row() {
    let (study, _, p) = work_intake(1);
    let mut table = filled(&study, &p);
    let c = table.column("relevance-B");
    table.header[c] = "relevence-B".into();
    let e = errors(&study, &p, &table.text());
    assert_eq!(e.len(), 2, "{e:?}");
    assert!(e[0].starts_with("row 1, column relevence-B: not a column of this sheet"));
    assert!(e[1].starts_with("row 1, column relevance-B: missing from the header"));
    // The texts may go: reading needs only the trial's identity and the answers.
    let mut table = filled(&study, &p);
    let keep: Vec<usize> = (0..table.header.len())
        .filter(|&c| !table.header[c].starts_with("output-") && table.header[c] != "prompt")
        .collect();
    table.header = keep.iter().map(|&c| table.header[c].clone()).collect();
    table.rows = table
        .rows
        .iter()
        .map(|r| keep.iter().map(|&c| r[c].clone()).collect())
        .collect();
    assert!(read(&study, &p, &table.text(), ReadOptions::default()).is_ok());
    assert_eq!(
        errors(&study, &p, ""),
        ["the sheet is empty; give the sheet `juror sheet` wrote, filled in"]
    );
}

#[test]
fn a_partial_sheet_keeps_what_is_given_and_leaves_the_rest_not_done() {
    let (study, hash, p) = work_intake(1);
    let mut table = filled(&study, &p);
    table.set(2, "relevance-A", "");
    table.set(3, "preferred", "");
    let text = table.text();
    assert_eq!(errors(&study, &p, &text).len(), 2);
    let partial = ReadOptions { partial: true };
    let file = ratings(&study, &hash, &p, &text, partial, "v", 0.0).unwrap();
    assert!(!file.complete);
    let done: Vec<bool> = file.trials.iter().map(|t| t.done).collect();
    assert_eq!(&done[..5], [true, true, false, false, true]);
    assert_eq!(
        file.trials[2].outputs[1].ratings["relevance"],
        score_for(2, 1)
    );
    assert_eq!(file.current_trial, 2);
    // Partial does not excuse a wrong value.
    table.set(4, "relevance-A", "0");
    assert!(read(&study, &p, &table.text(), partial).is_err());
}

/// Per-annotator labels: a single output's row shows its own letter, and only that letter's
/// cells may be filled; a tie is refused where the task does not allow one.
#[test]
fn cells_of_outputs_a_row_does_not_show_stay_blank() {
    let (study, hash) = example("hare-personalization");
    let p = plan(&study, &Annotator::slot(2));
    let mut table = Table::of(&write(&study, &p));
    let single = (0..table.rows.len())
        .find(|&r| table.get(r, "task") == "rounds")
        .unwrap();
    let pair = (0..table.rows.len())
        .find(|&r| table.get(r, "task") == "compare")
        .unwrap();
    let mine = table.get(single, "labels").to_owned();
    let other = if mine == "A" { "B" } else { "A" };
    table.set(single, &format!("quality-{other}"), "3");
    table.set(single, "preferred", "A");
    table.set(pair, "preferred", "tie");
    let e = errors(&study, &p, &table.text());
    let (r1, r2) = (single + 2, pair + 2);
    assert!(
        e.contains(&format!(
            "row {r1}, column quality-{other}: \"3\", but this trial does not ask it (it shows \
         {mine}); leave it blank"
        )),
        "{e:?}"
    );
    assert!(
        e.contains(&format!(
            "row {r1}, column preferred: \"A\", but this trial does not ask it (it shows {mine}); \
         leave it blank"
        )),
        "{e:?}"
    );
    assert!(
        e.iter().any(|m| m.starts_with(&format!(
            "row {r2}, column preferred: \"tie\" is not an answer here; write one of"
        ))),
        "{e:?}"
    );
    // Filled rightly, the single-choice question and the letters read back.
    let mut table = Table::of(&write(&study, &p));
    for r in 0..table.rows.len() {
        let letters = table.get(r, "labels").to_owned();
        if table.get(r, "task") == "rounds" {
            for d in ["quality", "relevance", "personalization", "novelty"] {
                table.set(r, &format!("{d}-{letters}"), "4");
            }
            table.set(r, &format!("useful-{letters}"), "not useful");
        } else {
            table.set(r, "preferred", letters.split(' ').nth(1).unwrap());
        }
    }
    let file = ratings(
        &study,
        &hash,
        &p,
        &table.text(),
        ReadOptions::default(),
        "v",
        0.0,
    )
    .unwrap_or_else(|e| panic!("{e:?}"));
    assert!(file.complete);
    let first = &file.trials[single].outputs[0];
    assert_eq!(
        first.answers["useful"],
        super::Answer::Choice("Not useful".into())
    );
    assert_eq!(first.label, format!("System {mine}"));
}

/// Nothing in a sheet or its legend names a system, in any example, any slot: each study's
/// systems are renamed to tokens that appear nowhere else, and none may appear.
#[test]
fn no_system_id_is_in_a_sheet() {
    let dir = format!("{}/../../assets/studies", env!("CARGO_MANIFEST_DIR"));
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| {
            let name = e.unwrap().file_name().into_string().unwrap();
            Some(name.strip_suffix(".json")?.to_owned())
        })
        .collect();
    names.sort();
    assert!(names.len() >= 8, "{names:?}");
    for name in &names {
        let mut text = std::fs::read_to_string(format!("{dir}/{name}.json")).unwrap();
        let (original, _) = example(name);
        let mut tokens = Vec::new();
        for (i, system) in original.systems().iter().enumerate() {
            let token = format!("zq{i}x7system");
            text = text.replace(&format!("\"{system}\""), &format!("\"{token}\""));
            tokens.push(token);
        }
        let study = parse_study(&text).unwrap_or_else(|p| panic!("{name}: {p}"));
        let slots = crate::plan::slots(&study).unwrap_or_else(|| crate::plan::period(&study));
        for slot in 1..=slots {
            let p = plan(&study, &Annotator::slot(slot));
            let sheet = write(&study, &p) + &legend(&study, &p);
            for token in &tokens {
                assert!(
                    !sheet.contains(token.as_str()),
                    "{name} slot {slot}: {token}"
                );
            }
        }
    }
}

/// A pair's preference: a letter, its full label, or a tie where the task allows one; the
/// explanation is kept.
#[test]
fn a_pair_s_preference_reads_as_a_letter_a_label_or_a_tie() {
    let (study, hash) = example("pandalm");
    let p = plan(&study, &Annotator::slot(1));
    let mut table = Table::of(&write(&study, &p));
    assert!(
        table
            .header
            .ends_with(&["preferred".into(), "explanation".into()])
    );
    for r in 0..table.rows.len() {
        let value = ["tie", "b", "Response A"][r % 3];
        table.set(r, "preferred", value);
    }
    table.set(0, "explanation", "both miss the point");
    let file = ratings(
        &study,
        &hash,
        &p,
        &table.text(),
        ReadOptions::default(),
        "v",
        0.0,
    )
    .unwrap_or_else(|e| panic!("{e:?}"));
    assert_eq!(file.trials[0].preference, Some(PreferenceRecord::Tie));
    assert_eq!(file.trials[0].explanation, "both miss the point");
    match (&file.trials[1].preference, &file.trials[2].preference) {
        (
            Some(PreferenceRecord::Choice { position: 2, .. }),
            Some(PreferenceRecord::Choice { position: 1, .. }),
        ) => {}
        other => panic!("{other:?}"),
    }
    // A column twice is refused.
    let mut table = Table::of(&write(&study, &p));
    table.header.push("preferred".into());
    for row in &mut table.rows {
        row.push(String::new());
    }
    assert_eq!(
        errors(&study, &p, &table.text()),
        ["row 1, column preferred: this column is in the sheet twice; keep one"]
    );
}

/// Where a dimension offers "Cannot judge", the legend says `cannot_judge` may be written, and a
/// sheet that says so reads back as the page's skip: counted as answered, no score.
#[test]
fn cannot_judge_is_offered_in_the_legend_and_read_back_as_a_skip() {
    let (study, _) = example("kitchen-qa");
    let p = plan(&study, &Annotator::slot(1));
    let legend = legend(&study, &p);
    let correct = legend.lines().find(|l| l.contains("correct-A")).unwrap();
    assert!(
        correct.contains("3 Right), or cannot_judge when you cannot judge it; required"),
        "{legend}"
    );
    let clarity = legend.lines().find(|l| l.contains("clarity-A")).unwrap();
    assert!(!clarity.contains("cannot_judge"), "{legend}");

    let mut table = Table::of(&write(&study, &p));
    for row in 0..table.rows.len() {
        let labels = table.get(row, "labels").to_owned();
        if labels == "A" {
            table.set(
                row,
                "correct-A",
                if row == 0 { "Cannot_Judge" } else { "3" },
            );
            table.set(row, "clarity-A", "2");
        } else {
            table.set(row, "preferred", "A");
        }
    }
    let session = read(&study, &p, &table.text(), ReadOptions::default()).unwrap();
    let first = &session.progress.trials[0];
    assert!(first.done);
    assert_eq!(first.outputs[0].cannot_judge, vec!["correct".to_owned()]);
    assert_eq!(first.outputs[0].ratings.get("correct"), None);
    assert_eq!(first.outputs[0].ratings.get("clarity"), Some(&2));

    // Where it is not offered, the same word is a placed problem.
    table.set(0, "clarity-A", "cannot_judge");
    let problems = read(&study, &p, &table.text(), ReadOptions::default()).unwrap_err();
    assert!(
        problems
            .iter()
            .any(|e| e.row == Some(2) && e.column.as_deref() == Some("clarity-A")),
        "{problems:?}"
    );
}
