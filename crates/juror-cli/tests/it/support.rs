//! What every module of this test binary needs once: the repository's root, the `juror`
//! binary, committed files that fail the test with the path they wanted, scratch folders of
//! this run, and the text of a run's output.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The repository's root (canonical, so that paths in messages are plain).
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .unwrap()
}

/// A `juror` command of the binary under test.
pub fn juror() -> Command {
    Command::new(env!("CARGO_BIN_EXE_juror"))
}

/// A committed file, `relative` to the root; missing, the test fails with the path it wanted
/// (a test never passes on input it did not read).
pub fn fixture(relative: &str) -> PathBuf {
    let path = root().join(relative);
    assert!(
        path.is_file(),
        "{}: missing; the test needs this committed file (data sets: see data/README.md)",
        path.display()
    );
    path
}

/// A fresh, empty folder of this run, `name` unique in the binary (prefix it with the module).
pub fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("juror-it-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A folder of this run shared by the tests of one module, never emptied (they write files of
/// different names in it, at the same time).
pub fn shared_dir(module: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("juror-it-{}-{module}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A path as the `&str` argument a command takes.
pub fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// A run's standard output, as text.
pub fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// A run's standard error, as text.
pub fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// The `.json` files directly in `dir`, sorted.
pub fn json_files(dir: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    out.sort();
    out
}
