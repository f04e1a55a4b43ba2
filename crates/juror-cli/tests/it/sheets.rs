//! `juror sheet` and `juror read-sheet` end to end: a published study's sheet names no system
//! and no token; filled in, it becomes a ratings file that `juror analyze` reads with the
//! values written; a wrong value is listed by row and column and nothing is written.

use std::path::{Path, PathBuf};

use juror_core::base::csv;
use serde_json::Value;

use super::support::{fixture, juror, s, scratch, stderr, stdout};

/// The work-intake example published into `dir`: the served study and its key.
fn published(dir: &Path) -> (PathBuf, PathBuf) {
    let study = fixture("assets/studies/work-intake.json");
    let (site, keys) = (dir.join("site"), dir.join("keys"));
    let out = juror()
        .arg("publish")
        .arg(&study)
        .args(["--site", s(&site), "--keys", s(&keys)])
        .args(["--base-url", "https://you.github.io/juror/"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    (
        site.join("studies/work-intake.json"),
        keys.join("work-intake.key.json"),
    )
}

/// Every row filled: each letter's scores are its row number's (1 to 5) plus its letter's
/// place, `D` preferred.
fn fill(sheet: &str) -> String {
    let mut records = csv::parse(sheet).unwrap().into_iter();
    let header = records.next().unwrap().fields;
    let mut out = csv::line(&header);
    for record in records {
        let mut row = record.fields;
        for (c, name) in header.iter().enumerate() {
            if let Some((dimension, letter)) = name.split_once('-')
                && ["relevance", "completeness", "coherence"].contains(&dimension)
            {
                let l = usize::from(letter.as_bytes()[0] - b'A');
                let trial: usize = row[0].parse().unwrap();
                row[c] = (1 + (trial + l) % 5).to_string();
            }
            if name == "preferred" {
                row[c] = "D".into();
            }
        }
        out.push_str(&csv::line(&row));
    }
    out
}

#[test]
fn a_published_study_s_sheet_names_no_system_and_reads_back_into_the_analysis() {
    let dir = scratch("sheets-round-trip");
    let (study, key) = published(&dir);
    let sheet = dir.join("slot3.csv");
    let out = juror()
        .arg("sheet")
        .arg(&study)
        .args(["--slot", "3", "-o", s(&sheet)])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let legend = stderr(&out);
    assert!(legend.contains("1 Irrelevant, 2 Poor, 3 Adequate, 4 Good, 5 Excellent"));
    assert!(legend.contains("juror read-sheet"), "{legend}");
    let text = std::fs::read_to_string(&sheet).unwrap();
    assert!(text.starts_with("trial,task,item_id,prompt,labels,output-A,"));

    // Blinded: no system id of the original, no token of the published study.
    let key_json: Value = serde_json::from_str(&std::fs::read_to_string(&key).unwrap()).unwrap();
    let tokens = key_json["systems"].as_object().unwrap();
    assert!(tokens.len() >= 4);
    for (token, system) in tokens {
        assert!(!text.contains(token.as_str()), "{token} in the sheet");
        assert!(!legend.contains(token.as_str()), "{token} in the legend");
        assert!(
            !text.contains(system.as_str().unwrap()),
            "{system} in the sheet"
        );
    }

    let filled = dir.join("slot3-filled.csv");
    std::fs::write(&filled, fill(&text)).unwrap();
    let ratings = dir.join("slot3.json");
    let out = juror()
        .arg("read-sheet")
        .arg(&filled)
        .args(["--study", s(&study), "--slot", "3", "-o", s(&ratings)])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    assert!(
        stderr(&out).contains("9 trials, 9 done"),
        "{}",
        stderr(&out)
    );
    let check = juror()
        .args(["validate-ratings", "--study", s(&study), s(&ratings)])
        .output()
        .unwrap();
    assert_eq!(check.status.code(), Some(0), "{}", stdout(&check));

    // The analysis reads the values written, by letter, with the key naming the systems.
    let out = juror()
        .args(["analyze", "--study", s(&study), "--key", s(&key)])
        .args(["--format", "wide", s(&ratings)])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let wide = csv::parse(&stdout(&out)).unwrap();
    let header = &wide[0].fields;
    assert_eq!(wide.len(), 10, "{}", stdout(&out));
    let sheet_rows = csv::parse(&text).unwrap();
    for row in &wide[1..] {
        let field = |name: &str| &row.fields[header.iter().position(|h| h == name).unwrap()];
        let trial: usize = sheet_rows[1..]
            .iter()
            .find(|r| r.fields[2] == *field("item_id"))
            .map(|r| r.fields[0].parse().unwrap())
            .unwrap();
        for (l, letter) in ["A", "B", "C", "D"].iter().enumerate() {
            let want = (1 + (trial + l) % 5).to_string();
            assert_eq!(
                field(&format!("relevance-{letter}")),
                &want,
                "trial {trial}"
            );
            assert!(
                tokens
                    .values()
                    .any(|v| v == field(&format!("system-{letter}")))
            );
        }
        assert_eq!(field("preferred"), "D");
    }
}

#[test]
fn a_wrong_value_is_placed_and_nothing_is_written() {
    let dir = scratch("sheets-errors");
    let study = fixture("assets/studies/work-intake.json");
    let out = juror()
        .arg("sheet")
        .arg(&study)
        .args(["--annotator", "ann-7"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let mut records = csv::parse(&fill(&stdout(&out))).unwrap();
    let column = records[0]
        .fields
        .iter()
        .position(|h| h == "relevance-B")
        .unwrap();
    records[6].fields[column] = "6".into();
    let text: String = records.iter().map(|r| csv::line(&r.fields)).collect();
    let filled = dir.join("filled.csv");
    std::fs::write(&filled, text).unwrap();
    let ratings = dir.join("ratings.json");
    let out = juror()
        .arg("read-sheet")
        .arg(&filled)
        .args([
            "--study",
            s(&study),
            "--annotator",
            "ann-7",
            "-o",
            s(&ratings),
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        format!(
            "{}: row 7, column relevance-B: 6 is not on the scale 1–5; write a whole number \
             from 1 to 5\n",
            filled.display()
        )
    );
    assert!(stderr(&out).contains("1 problem(s); nothing was written"));
    assert!(!ratings.exists());

    // The same sheet read for another annotator does not fit their plan.
    let out = juror()
        .arg("read-sheet")
        .arg(&filled)
        .args(["--study", s(&study), "--slot", "1"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(stdout(&out).contains("is this the sheet of this slot or annotator?"));
    // Neither a slot nor an annotator: a usage error.
    let out = juror()
        .arg("read-sheet")
        .arg(&filled)
        .args(["--study", s(&study)])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}
