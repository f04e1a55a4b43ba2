//! The ratings file, `juror.ratings/1`, from the outside: the committed JSON Schema matches the
//! types, a file written natively parses, restores and survives nothing but a byte-identical
//! copy, and the committed fixtures (used by `juror validate-ratings`'s tests and by
//! docs/ratings-format.md) are still what `export` writes. Regenerate the schema and fixtures
//! with `JUROR_BLESS=1 cargo test -p juror-core --test it ratings::`, then read the diff.

use std::path::{Path, PathBuf};

use juror_core::base::digest::sha256_hex;
use juror_core::plan::Annotator;
use juror_core::session::ratings::{RatingsFile, export, parse, restore};
use juror_core::session::{Msg, Phase, Reply, Session, Target, update};
use juror_core::study::{Study, parse_study};

use crate::support::{self, bless, root};

fn fixtures() -> PathBuf {
    support::fixtures("ratings")
}

/// The example study and the SHA-256 of its text, as the app computes it.
fn financial_analysis() -> (Study, String) {
    let text =
        std::fs::read_to_string(root().join("assets/studies/financial-analysis.json")).unwrap();
    (parse_study(&text).unwrap(), sha256_hex(&text))
}

/// 2026-11-21T23:00:00.000Z: every clock in the fixture counts from here.
const T0: f64 = 1_795_302_000_000.0;

/// The app version written into the fixture (fixed, so the fixture does not change with the
/// crate's version).
const APP_VERSION: &str = "0.1.0";

/// Annotator slot 1 of the financial-analysis example, part way through: three trials rated and
/// done (one with notes, one flagged), the fourth rated but not left, and the tab hidden for a
/// while on it. Exported at a fixed time, so the file is reproducible byte for byte.
fn slot1_session() -> (Study, String, Session, f64) {
    let (study, hash) = financial_analysis();
    let mut s = Session::new(&study, Annotator::slot(1));
    let at = |seconds: u32| T0 + f64::from(seconds) * 1000.0;
    update(&study, &mut s, Msg::Start, at(0));
    update(&study, &mut s, Msg::FinishInstructions, at(90));
    assert_eq!(s.progress.phase, Phase::Trials);
    let rate = |s: &mut Session, value: i32, when: f64| {
        update(
            &study,
            s,
            Msg::answer(
                Target::Rating {
                    position: 0,
                    dimension: "quality".into(),
                },
                Reply::Score(value),
            ),
            when,
        );
    };
    // Trial 1: a 4, with a note.
    rate(&mut s, 4, at(130));
    update(
        &study,
        &mut s,
        Msg::answer(
            Target::Notes,
            Reply::Text("Clear call, but the 8% figure has no source.".into()),
        ),
        at(150),
    );
    update(&study, &mut s, Msg::Next, at(155));
    // Trial 2: a 2, flagged.
    rate(&mut s, 2, at(200));
    update(
        &study,
        &mut s,
        Msg::answer(Target::Flag { position: 0 }, Reply::Ticked),
        at(205),
    );
    update(&study, &mut s, Msg::Next, at(210));
    // Trial 3: a 5.
    rate(&mut s, 5, at(250));
    update(&study, &mut s, Msg::Next, at(260));
    // Trial 4: the tab is hidden for a minute, then a 3, not yet left.
    update(&study, &mut s, Msg::Visibility(false), at(270));
    update(&study, &mut s, Msg::Visibility(true), at(330));
    rate(&mut s, 3, at(345));
    update(&study, &mut s, Msg::Visibility(false), at(350));
    assert!(s.missing.is_empty(), "{:?}", s.missing);
    assert_eq!(s.progress.current, 3);
    (study, hash, s, at(360))
}

fn slot1_file() -> RatingsFile {
    let (study, hash, s, now) = slot1_session();
    export(&study, &hash, &s, APP_VERSION, now)
}

/// The tampered fixture: the fixture with trial 1's score changed from 4 to 5, and its
/// checksum left as it was.
fn tampered(text: &str) -> String {
    let from = "\"quality\": 4";
    assert_eq!(
        text.matches(from).count(),
        1,
        "the fixture must rate 4 once"
    );
    text.replacen(from, "\"quality\": 5", 1)
}

/// Compares `generated` with the committed file at `path` (after writing it there when
/// blessing).
fn assert_committed(path: &Path, generated: &str, what: &str) {
    support::assert_committed(path, generated, what, "ratings");
}

#[test]
fn committed_schema_matches_the_types() {
    let path = root().join("assets/schema/ratings.v1.json");
    let generated = juror_core::session::ratings::schema();
    if bless() {
        std::fs::write(&path, &generated).unwrap();
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == generated,
        "assets/schema/ratings.v1.json is out of date with crates/juror-core/src/session/ratings.rs; \
         regenerate it with `cargo run -p juror-cli -- schema --ratings > assets/schema/ratings.v1.json`"
    );
}

#[test]
fn the_schema_describes_the_format() {
    let schema: serde_json::Value =
        serde_json::from_str(&juror_core::session::ratings::schema()).unwrap();
    assert_eq!(schema["title"], "Juror ratings");
    assert_eq!(schema["additionalProperties"], false);
    let required: Vec<&str> = schema["required"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    // Every top-level member the export writes is in the schema.
    let file: serde_json::Value = serde_json::to_value(slot1_file()).unwrap();
    for key in file.as_object().unwrap().keys() {
        assert!(
            schema["properties"].get(key).is_some(),
            "{key} is not in the schema"
        );
    }
    for key in ["format", "study", "annotator", "trials", "sha256"] {
        assert!(required.contains(&key), "{key} is not required");
    }
}

#[test]
fn a_native_export_parses_restores_and_round_trips() {
    let (study, hash, s, _) = slot1_session();
    let file = slot1_file();
    assert_eq!(file.format, "juror.ratings/1");
    assert_eq!(file.study.id, "financial-analysis-2024w10");
    assert_eq!(file.study.sha256, hash);
    assert_eq!(
        (file.annotator.slot, file.annotator.id.as_deref()),
        (1, None)
    );
    assert_eq!(file.phase, Phase::Trials);
    assert!(!file.complete);
    assert_eq!(file.current_trial, 3);
    assert_eq!(file.trials.len(), study.trials_per_annotator());
    assert_eq!(file.trials.iter().filter(|t| t.done).count(), 3);
    assert_eq!(
        file.trials[0].notes,
        "Clear call, but the 8% figure has no source."
    );
    assert!(file.trials[1].outputs[0].flagged);
    assert_eq!(file.trials[3].outputs[0].ratings["quality"], 3);
    // Trial 4 was on screen from 260 s to 350 s, hidden from 270 s to 330 s: 30 s active.
    assert_eq!(file.trials[3].active_ms, 30_000);
    assert_eq!(file.exported_at, "2026-11-21T23:06:00.000Z");
    assert_eq!(file.sha256.len(), 64);

    let text = file.to_json();
    let back = parse(&text).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(back, file);
    assert_eq!(back.to_json(), text, "parse then write is the identity");
    let progress = restore(&study, &hash, &back).unwrap();
    // Every answer comes back; the stamps the two-tab merge uses stay in the browser.
    let mut answers = s.progress.trials.clone();
    answers.iter_mut().for_each(|t| t.stamps.clear());
    assert_eq!(progress.trials, answers);
    assert_eq!(progress.current, s.progress.current);
    assert_eq!(progress.phase, Phase::Trials);
    // The same content written compactly, or with the members in another order, is the same
    // file: the checksum is over the content, not the layout.
    let compact = serde_json::to_string(&file).unwrap();
    assert_eq!(parse(&compact).unwrap(), file);
}

/// A participant from Prolific: the file records their id and the platform's study and session
/// (for payment), restoring it gives them back, and a file without them (every file written
/// before platforms were recorded) has no `platform` member at all, so its checksum is unchanged.
#[test]
fn the_platform_is_recorded_and_restored() {
    let (study, hash) = financial_analysis();
    let visit = juror_core::plan::platform_visit(|name| match name {
        "PROLIFIC_PID" => Some("5f0c9a".to_owned()),
        "STUDY_ID" => Some("s-1".to_owned()),
        "SESSION_ID" => Some("x9".to_owned()),
        _ => None,
    });
    let who = Annotator {
        slot: 2,
        id: Some("5f0c9a".into()),
        platform: visit.clone(),
    };
    let s = Session::new(&study, who.clone());
    let file = export(&study, &hash, &s, APP_VERSION, T0);
    assert_eq!(file.annotator.platform, visit);
    let text = file.to_json();
    assert!(text.contains("\"STUDY_ID\": \"s-1\""), "{text}");
    let back = parse(&text).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(restore(&study, &hash, &back).unwrap().annotator, who);
    assert!(!slot1_file().to_json().contains("platform"));
}

#[test]
fn one_byte_changed_at_the_checksum_is_refused() {
    let text = slot1_file().to_json();
    // The file's checksum is its last member (the study's `sha256` comes first).
    let at = text.rfind("\"sha256\": \"").unwrap() + "\"sha256\": \"".len();
    let mut bytes = text.clone().into_bytes();
    bytes[at] = if bytes[at] == b'0' { b'1' } else { b'0' };
    let changed = String::from_utf8(bytes).unwrap();
    assert_ne!(changed, text);
    let e = parse(&changed).unwrap_err();
    assert_eq!(e.at, "sha256", "{e}");
    assert!(e.message.contains("checksum does not match"), "{e}");
}

#[test]
fn one_byte_changed_anywhere_is_refused_or_changes_nothing() {
    // Every 3rd byte of the first 6000 (the header and the answered trials) and every 41st after,
    // each replaced by two different bytes: the file is either refused or, when only layout
    // changed (a space turned into a newline), parses to exactly the same content.
    let file = slot1_file();
    let text = file.to_json();
    let mut refused = 0;
    let positions = (0..text.len()).filter(|&i| if i < 6000 { i % 3 == 0 } else { i % 41 == 0 });
    for i in positions {
        for replacement in [b'1', b'\n'] {
            let mut bytes = text.clone().into_bytes();
            if bytes[i] == replacement {
                continue;
            }
            bytes[i] = replacement;
            let Ok(changed) = String::from_utf8(bytes) else {
                continue;
            };
            match parse(&changed) {
                Ok(back) => assert_eq!(back, file, "byte {i} changed to {replacement}"),
                Err(_) => refused += 1,
            }
        }
    }
    assert!(refused > 1000, "only {refused} changes refused");
}

#[test]
fn a_truncated_copy_is_refused() {
    let file = slot1_file();
    let text = file.to_json();
    let body = text.trim_end().len();
    for cut in (1..body).step_by(37).chain([body - 1, text.len() / 2]) {
        let e = parse(&text[..cut]).expect_err(&format!("cut at {cut} accepted"));
        assert!(e.at.starts_with("line "), "cut at {cut}: {e}");
        assert!(e.message.contains("cut short"), "{e}");
    }
    // Only the final newline can go: the JSON is whole without it.
    assert_eq!(parse(&text[..body]).unwrap(), file);
    assert_eq!(parse("").unwrap_err().at, "line 1, column 0");
}

#[test]
fn the_committed_fixture_is_what_export_writes() {
    let text = slot1_file().to_json();
    assert_committed(
        &fixtures().join("financial-analysis-slot1.json"),
        &text,
        "the export of crates/juror-core/src/session/ratings.rs (or the example study)",
    );
    let (study, hash) = financial_analysis();
    let committed =
        std::fs::read_to_string(fixtures().join("financial-analysis-slot1.json")).unwrap();
    let file = parse(&committed).unwrap_or_else(|e| panic!("{e}"));
    restore(&study, &hash, &file).unwrap();
}

#[test]
fn the_tampered_fixture_is_refused_at_the_checksum() {
    let path = fixtures().join("financial-analysis-slot1.json");
    let text = if bless() {
        slot1_file().to_json()
    } else {
        std::fs::read_to_string(&path).unwrap()
    };
    let edited = tampered(&text);
    assert_committed(
        &fixtures().join("financial-analysis-slot1-tampered.json"),
        &edited,
        "financial-analysis-slot1.json",
    );
    // Still valid JSON of the right shape: only the checksum gives it away.
    let value: serde_json::Value = serde_json::from_str(&edited).unwrap();
    serde_json::from_value::<RatingsFile>(value).unwrap();
    let e = parse(&edited).unwrap_err();
    assert_eq!(e.at, "sha256", "{e}");
}

#[test]
fn a_file_for_another_study_or_version_is_refused_on_restore() {
    let file = parse(&slot1_file().to_json()).unwrap();
    let (study, _) = financial_analysis();
    assert_eq!(
        restore(&study, &sha256_hex("another version"), &file)
            .unwrap_err()
            .at,
        "study.sha256"
    );
    let text = std::fs::read_to_string(root().join("assets/studies/summeval.json")).unwrap();
    let other = parse_study(&text).unwrap();
    assert_eq!(
        restore(&other, &sha256_hex(&text), &file).unwrap_err().at,
        "study.id"
    );
}

#[test]
fn the_csv_has_one_row_per_answer() {
    let csv = slot1_file().to_csv();
    let mut lines = csv.lines();
    assert_eq!(
        lines.next(),
        Some(
            "study_id,annotator_slot,annotator_id,trial,task,item_id,check,system_id,position,label,question,value"
        )
    );
    let rows: Vec<&str> = lines.collect();
    // Four scores, one flag, one note.
    assert_eq!(rows.len(), 6, "{csv}");
    assert_eq!(rows.iter().filter(|r| r.contains(",quality,")).count(), 4);
    assert!(rows.iter().any(|r| r.ends_with(",flagged,true")));
    assert!(rows.iter().any(|r| r.contains(",notes,")));
}

/// A forged slot is refused before any planning (slot 4,294,967,295 would cost minutes of CPU
/// per file): past the study's slots, and 0.
#[test]
fn a_slot_outside_the_study_is_refused_before_planning() {
    let text = std::fs::read_to_string(root().join("assets/studies/reasoning-trajectories.json"))
        .unwrap_or_default();
    let (study, hash) = (parse_study(&text).unwrap(), sha256_hex(&text));
    assert_eq!(juror_core::plan::slots(&study), Some(9));
    let ratings = std::fs::read_to_string(fixtures().join("../analysis/trajectories-slot1.json"))
        .unwrap_or_default();
    let mut file = parse(&ratings).unwrap_or_else(|e| panic!("{e:?}"));
    // Planning is counted (in debug builds, the tests'): a restore that is accepted plans the
    // annotator's trials, one that is refused for its slot must not have planned anything.
    let planned = juror_core::plan::plans_made;
    let before = planned();
    assert!(restore(&study, &hash, &file).is_ok());
    if cfg!(debug_assertions) {
        assert!(planned() > before, "the planning counter does not count");
    }
    let before = planned();
    for (slot, want) in [
        (u32::MAX, "slot 4294967295, but the study has slots 1 to 9"),
        (10, "slot 10, but the study has slots 1 to 9"),
        (0, "slot 0, but the study has slots 1 to 9"),
    ] {
        file.annotator.slot = slot;
        let err = restore(&study, &hash, &file)
            .err()
            .unwrap_or_else(|| panic!("slot {slot} accepted"));
        assert_eq!(
            (err.at.as_str(), err.message.as_str()),
            ("annotator.slot", want)
        );
        assert_eq!(
            planned(),
            before,
            "slot {slot} was planned before it was refused"
        );
    }
    // Without fixed slots, 0 is still refused.
    let (study, hash) = financial_analysis();
    let mut file = slot1_file();
    file.annotator.slot = 0;
    let err = restore(&study, &hash, &file).err().map(|e| e.message);
    assert_eq!(err.as_deref(), Some("slot 0: slots start at 1"));
}

/// A researcher's preview run writes `"preview": true`, under a checksum that covers it (taking
/// the mark out is refused like any edit); an annotator's file never carries the member.
#[test]
fn a_preview_file_says_so_under_its_checksum() {
    let file = slot1_file();
    assert!(!file.to_json().contains("\"preview\""));
    let preview = file.clone().into_preview();
    assert!(preview.preview);
    let text = preview.to_json();
    assert!(text.contains("\"preview\": true"), "{text}");
    assert!(parse(&text).unwrap().preview);
    assert_ne!(preview.sha256, file.sha256);
    let unmarked = text.replace("  \"preview\": true,\n", "");
    assert_ne!(unmarked, text);
    assert!(parse(&unmarked).is_err(), "the mark removed is an edit");
}
