//! `juror recover`: answers downloaded from a browser's storage (the problems page's "Answers
//! saved in this browser", when the study itself cannot be opened) become a ratings file again,
//! with every answer; answers saved for another version of the study are refused with why.

use juror_core::base::digest::sha256_hex;
use juror_core::session::ratings::{parse, restore};
use juror_core::session::store::{Envelope, SCHEMA_VERSION, write};
use juror_core::study::parse_study;

use super::support::{self, root};

#[test]
fn saved_answers_become_the_ratings_file_they_were() {
    let study_path = root().join("assets/studies/financial-analysis.json");
    let study_text = std::fs::read_to_string(&study_path).unwrap();
    let study = parse_study(&study_text).unwrap();
    let sha = sha256_hex(&study_text);
    let fixture =
        root().join("crates/juror-core/tests/fixtures/ratings/financial-analysis-slot1.json");
    let original = parse(&std::fs::read_to_string(fixture).unwrap()).unwrap();
    let progress = restore(&study, &sha, &original).unwrap();
    let plan = juror_core::plan::plan(&study, &progress.annotator).fingerprint();
    let envelope = |sha: &str| Envelope {
        schema_version: SCHEMA_VERSION,
        study_id: study.id().to_owned(),
        study_sha256: sha.to_owned(),
        saved_at: 1_795_302_400_000.0,
        revision: 7,
        app_version: "test".to_owned(),
        progress: progress.clone(),
        plan: Some(plan.clone()),
    };
    let dir = support::scratch("recover");
    let saved = dir.join("juror-saved-financial.json");
    std::fs::write(&saved, write(&envelope(&sha)).unwrap()).unwrap();
    let out = dir.join("recovered.json");
    let run = support::juror()
        .arg("recover")
        .arg(&saved)
        .arg("--study")
        .arg(&study_path)
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let recovered = parse(&std::fs::read_to_string(&out).unwrap()).unwrap();
    assert_eq!(recovered.trials, original.trials);
    assert_eq!(recovered.intake, original.intake);
    assert_eq!(recovered.annotator, original.annotator);
    assert_eq!(recovered.study, original.study);
    assert_eq!(recovered.exported_at, "2026-11-21T23:06:40.000Z");

    // Saved for another version of the study: refused, saying which and what to do.
    std::fs::write(&saved, write(&envelope(&"0".repeat(64))).unwrap()).unwrap();
    let run = support::juror()
        .arg("recover")
        .arg(&saved)
        .arg("--study")
        .arg(&study_path)
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(1));
    let err = String::from_utf8_lossy(&run.stderr);
    assert!(err.contains("another version of study"), "{err}");
    assert!(err.contains("repository's history"), "{err}");
    let _ = std::fs::remove_dir_all(dir);
}
