//! `juror validate-ratings` end to end, on the ratings fixtures committed by juror-core's
//! `tests/ratings.rs`: a genuine file is ok, a tampered one is refused at `sha256`, a file
//! checked against another study is refused at `study.id`, and the exit code says which.

use std::path::{Path, PathBuf};
use std::process::Output;

use super::support::{self, root, stdout};

/// A ratings fixture committed by the core's tests.
fn fixture(name: &str) -> PathBuf {
    support::fixture(&format!("crates/juror-core/tests/fixtures/ratings/{name}"))
}

/// A fresh, empty folder for one test.
fn scratch(name: &str) -> PathBuf {
    support::scratch(&format!("validate-ratings-{name}"))
}

fn study(name: &str) -> PathBuf {
    root().join("assets/studies").join(format!("{name}.json"))
}

fn juror(args: &[&Path]) -> Output {
    support::juror()
        .arg("validate-ratings")
        .args(args)
        .output()
        .unwrap()
}

const OK: &str =
    "ok: study \"financial-analysis-2024w10\", annotator slot 1, 50 trials (3 done), incomplete";

#[test]
fn a_genuine_file_is_ok_with_or_without_its_study() {
    let file = fixture("financial-analysis-slot1.json");
    for out in [
        juror(&[&file]),
        juror(&[&file, Path::new("--study"), &study("financial-analysis")]),
    ] {
        assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
        assert_eq!(stdout(&out), format!("{}: {OK}\n", file.display()));
        assert!(out.stderr.is_empty());
    }
}

#[test]
fn a_tampered_file_is_refused_at_its_checksum() {
    let file = fixture("financial-analysis-slot1-tampered.json");
    let out = juror(&[&file]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        stdout(&out),
        format!(
            "{}: sha256: the checksum does not match: the file was changed or damaged after it \
             was written. Ask the annotator for the file as downloaded\n",
            file.display()
        )
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("1 of 1 ratings file(s) refused"));
}

#[test]
fn a_file_of_another_study_or_study_version_is_refused() {
    let file = fixture("financial-analysis-slot1.json");
    let out = juror(&[&file, Path::new("--study"), &study("summeval")]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        stdout(&out),
        format!(
            "{}: study.id: this file is for the study \"financial-analysis-2024w10\", not \
             \"summeval-cnndm-sample\"\n",
            file.display()
        )
    );
    // The same study with one more newline is another version of it.
    let dir = scratch("version");
    let edited = dir.join("financial-analysis.json");
    let text = std::fs::read_to_string(study("financial-analysis")).unwrap();
    std::fs::write(&edited, format!("{text}\n")).unwrap();
    let out = juror(&[&file, Path::new("--study"), &edited]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stdout(&out).starts_with(&format!("{}: study.sha256: ", file.display())),
        "{}",
        stdout(&out)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn every_file_gets_one_line_and_any_refusal_fails() {
    let ok = fixture("financial-analysis-slot1.json");
    let tampered = fixture("financial-analysis-slot1-tampered.json");
    let out = juror(&[&ok, &tampered, &ok]);
    assert_eq!(out.status.code(), Some(1));
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3, "{text}");
    assert!(lines[0].ends_with(OK) && lines[2].ends_with(OK), "{text}");
    assert!(lines[1].contains(": sha256: "), "{text}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("1 of 3 ratings file(s) refused"));
}

#[test]
fn a_cut_or_foreign_file_is_refused_where_it_breaks() {
    let dir = scratch("cut");
    let text = std::fs::read_to_string(fixture("financial-analysis-slot1.json")).unwrap();
    let cut = dir.join("cut.json");
    std::fs::write(&cut, &text[..text.len() / 2]).unwrap();
    let out = juror(&[&cut]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stdout(&out).contains(": line "), "{}", stdout(&out));
    assert!(stdout(&out).contains("cut short"), "{}", stdout(&out));
    // A study file is not a ratings file.
    let out = juror(&[&study("financial-analysis")]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stdout(&out).contains(": format: \"juror.study/1\" is not a ratings format"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_preference_position_outside_the_trial_is_refused_not_a_crash() {
    // A file with a correct checksum whose preference names position 0 (positions count from
    // 1): `restore` would subtract 1 from it.
    let text = std::fs::read_to_string(fixture("financial-analysis-slot1.json")).unwrap();
    let mut value: serde_json::Value = serde_json::from_str(&text).unwrap();
    value["trials"][0]["preference"] = serde_json::json!({
        "kind": "best", "position": 0, "label": "Analysis A", "system": "base-llm"
    });
    let body = value.as_object_mut().unwrap();
    body.remove("sha256");
    let sum = juror_core::digest::sha256_hex(&serde_json::to_string(&body).unwrap());
    body.insert("sha256".into(), sum.into());
    let dir = scratch("position");
    let file = dir.join("position-0.json");
    std::fs::write(&file, serde_json::to_string_pretty(&value).unwrap()).unwrap();
    let out = juror(&[&file, Path::new("--study"), &study("financial-analysis")]);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    assert!(
        stdout(&out).contains(": trials[0].preference.position: 0 is not the position"),
        "{}",
        stdout(&out)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn unreadable_files_exit_2_after_the_others_are_checked() {
    let ok = fixture("financial-analysis-slot1.json");
    let out = juror(&[&ok, Path::new("/nonexistent/ratings.json")]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(stdout(&out), format!("{}: {OK}\n", ok.display()));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("/nonexistent/ratings.json: cannot read the file"),
        "{stderr}"
    );
    // A study that cannot be read or is not valid checks nothing.
    for bad in [
        PathBuf::from("/nonexistent/study.json"),
        root().join("crates/juror-core/tests/fixtures/invalid/empty-items.json"),
    ] {
        let out = juror(&[&ok, Path::new("--study"), &bad]);
        assert_eq!(out.status.code(), Some(2), "{}", bad.display());
        assert!(!stdout(&out).contains(": ok: "));
    }
}

#[test]
fn at_least_one_file_is_required() {
    let out = juror(&[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("<FILES>"));
}

#[test]
fn the_ratings_schema_is_printed_and_the_study_schema_still_by_default() {
    let run = |args: &[&str]| {
        let out = support::juror().args(args).output().unwrap();
        assert!(out.status.success());
        String::from_utf8(out.stdout).unwrap()
    };
    assert_eq!(
        run(&["schema", "--ratings"]),
        std::fs::read_to_string(root().join("assets/schema/ratings.v1.json")).unwrap()
    );
    assert_eq!(
        run(&["schema"]),
        std::fs::read_to_string(root().join("assets/schema/study.v1.json")).unwrap()
    );
}
