//! `juror validate` end to end: the binary accepts every example study and rejects every broken
//! fixture, printing exactly the core's problem report and exiting 1.

use std::path::{Path, PathBuf};
use std::process::Command;

fn juror(args: &[&Path]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_juror"))
        .arg("validate")
        .args(args)
        .output()
        .unwrap()
}

fn json_files(dir: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    out.sort();
    out
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

#[test]
fn accepts_every_example_with_a_one_line_summary() {
    let examples = json_files(&root().join("assets/studies"));
    assert!(examples.len() >= 6);
    for path in examples {
        let out = juror(&[&path]);
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{}: {stdout}", path.display());
        assert_eq!(stdout.lines().count(), 1, "{stdout}");
        assert!(stdout.contains("valid juror.study/1 study"), "{stdout}");
    }
}

#[test]
fn rejects_every_broken_fixture_with_its_report() {
    let dir = root().join("crates/juror-core/tests/fixtures/invalid");
    let fixtures = json_files(&dir);
    assert!(fixtures.len() >= 15);
    for path in fixtures {
        let out = juror(&[&path]);
        assert_eq!(out.status.code(), Some(1), "{}", path.display());
        let expected = std::fs::read_to_string(path.with_extension("expected")).unwrap();
        assert_eq!(
            String::from_utf8_lossy(&out.stdout),
            expected,
            "{}",
            path.display()
        );
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains("not valid"), "{stderr}");
    }
}

#[test]
fn a_missing_file_is_a_clear_error() {
    let out = juror(&[Path::new("/nonexistent/study.json")]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot read the file"));
}
