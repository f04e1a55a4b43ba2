//! `juror validate-ratings` end to end, on the ratings fixtures committed by juror-core's
//! `tests/it/ratings.rs`: a genuine file is ok, a tampered one is refused at `sha256`, a file
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
    let sum = juror_core::base::digest::sha256_hex(&serde_json::to_string(&body).unwrap());
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

/// A ratings fixture of the core's analysis tests.
fn analysis_fixture(name: &str) -> PathBuf {
    support::fixture(&format!("crates/juror-core/tests/fixtures/analysis/{name}"))
}

#[test]
fn files_of_two_studies_are_refused_without_the_study_and_never_merged() {
    let financial = analysis_fixture("financial-slot1.json");
    let pandalm = analysis_fixture("pandalm-slot1.json");
    let out = juror(&[&financial, &pandalm]);
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2, "{text}");
    for (line, (file, id)) in lines.iter().zip([
        (&financial, "financial-analysis-2024w10"),
        (&pandalm, "pandalm-bloom-llama"),
    ]) {
        assert!(
            line.starts_with(&format!(
                "{}: study.id: this file is for the study \"{id}\", but the ratings files given \
                 are for 2 studies: \"financial-analysis-2024w10\" (1 file), \
                 \"pandalm-bloom-llama\" (1 file);",
                file.display()
            )),
            "{line}"
        );
        assert!(line.contains("analyse one study at a time"), "{line}");
    }
    // With the study, only the other study's file is refused.
    let out = juror(&[
        &financial,
        &pandalm,
        Path::new("--study"),
        &study("financial-analysis"),
    ]);
    assert_eq!(out.status.code(), Some(1));
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert!(
        lines[0].contains(": ok: study \"financial-analysis-2024w10\""),
        "{text}"
    );
    assert!(
        lines[1].contains(": study.id: this file is for the study \"pandalm-bloom-llama\", not"),
        "{text}"
    );
}

/// The study file the researcher wrote, given for ratings made with the copy `juror publish`
/// wrote from it: said as such, with what to check them against, in `validate-ratings` and in
/// `analyze`; the published copy passes.
#[test]
fn the_unpublished_original_is_told_apart_and_the_published_copy_passes() {
    use juror_core::base::digest::sha256_hex;
    use juror_core::plan::Annotator;
    use juror_core::session::{Session, ratings::export};

    let dir = scratch("published");
    let (site, keys) = (dir.join("site"), dir.join("keys"));
    let original = study("financial-analysis");
    let out = support::juror()
        .arg("publish")
        .args([original.as_path(), Path::new("--site"), site.as_path()])
        .args([Path::new("--keys"), keys.as_path()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", support::stderr(&out));
    let published = site.join("studies/financial-analysis.json");
    let text = std::fs::read_to_string(&published).unwrap();
    let served = juror_core::study::parse_study(&text).unwrap();
    let session = Session::new(&served, Annotator::slot(1));
    let ratings = dir.join("slot1.json");
    let file = export(&served, &sha256_hex(&text), &session, "0.1.0", 1.8e12);
    std::fs::write(&ratings, file.to_json()).unwrap();

    let out = juror(&[&ratings, Path::new("--study"), &original]);
    assert_eq!(out.status.code(), Some(1));
    let line = stdout(&out);
    assert!(
        line.starts_with(&format!(
            "{}: study.sha256: this study file is the original you wrote (it names its systems), \
             but the ratings were made with its published copy",
            ratings.display()
        )),
        "{line}"
    );
    assert!(
        line.contains("`juror publish` wrote into the site"),
        "{line}"
    );
    assert!(!line.contains("ask the researcher"), "{line}");

    let out = juror(&[&ratings, Path::new("--study"), &published]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));

    // `juror analyze` says the same.
    let key = keys.join("financial-analysis.key.json");
    let out = support::juror()
        .arg("analyze")
        .args([
            ratings.as_path(),
            Path::new("--study"),
            original.as_path(),
            Path::new("--key"),
            key.as_path(),
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(
        support::stderr(&out).contains("study.sha256: this study file is the original you wrote"),
        "{}",
        support::stderr(&out)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The CSV copy the finish page also offers is refused with the file to ask for, not as broken
/// JSON.
#[test]
fn the_csv_copy_of_a_ratings_file_is_refused_with_the_file_to_ask_for() {
    let json = std::fs::read_to_string(fixture("financial-analysis-slot1.json")).unwrap();
    let ratings = juror_core::session::ratings::parse(&json).unwrap();
    let dir = scratch("csv-copy");
    let file = dir.join("juror-financial-analysis-slot1.csv");
    std::fs::write(&file, ratings.to_csv()).unwrap();
    let out = juror(&[&file]);
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    let said = stdout(&out);
    assert!(
        said.contains("this is the CSV copy of a ratings file"),
        "{said}"
    );
    assert!(said.contains("Download ratings (JSON)"), "{said}");
    assert!(!said.contains("not valid JSON"), "{said}");
}
