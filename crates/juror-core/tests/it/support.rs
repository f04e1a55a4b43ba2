//! What the test modules share: the repository's paths, committed fixtures and reference
//! values, the tolerances of the statistics' policy, and blessing of generated files.
//!
//! Every reader fails with the path it wanted, so a missing or renamed file says which.

use std::path::{Path, PathBuf};

use juror_core::analysis::Input;
use serde_json::Value;

/// The tolerances of the policy in `juror_core::stats` (its module doc), read as
/// |got − want| ≤ tol · max(1, |want|) by [`check`] and [`close`]: absolute for p-values and
/// other values in [−1, 1], relative for larger ones.
pub mod tol {
    /// A closed form (a statistic, a p-value, a distribution function) against the library
    /// that computes the same formula.
    pub const CLOSED_FORM: f64 = 1e-9;
    /// An iterative fit (REML, Bradley–Terry by MM) against another implementation that stops
    /// by its own rule.
    pub const ITERATIVE: f64 = 1e-6;
    /// The same function on the same data by two routes (the report against direct calls of
    /// the statistics): equal up to the order of summation.
    pub const SUMMATION_ORDER: f64 = 1e-12;
}

/// The repository's root.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// `crates/juror-core/tests/fixtures`, or the folder `sub` in it.
pub fn fixtures(sub: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(sub)
}

/// The text of a file, failing with its path.
pub fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The text of `tests/fixtures/{relative}`.
pub fn fixture(relative: &str) -> String {
    read(&fixtures(relative))
}

/// The committed analysis fixture `tests/fixtures/analysis/{name}` as an input of the analysis.
pub fn input(name: &str) -> Input<'static> {
    Input::new(name, fixture(&format!("analysis/{name}")))
}

/// The example study `assets/studies/{name}.json`.
pub fn example(name: &str) -> String {
    read(&root().join(format!("assets/studies/{name}.json")))
}

/// `tests/reference/{name}/reference.json`, the values a Python library computed.
pub fn reference(name: &str) -> Value {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/reference")
        .join(name)
        .join("reference.json");
    serde_json::from_str(&read(&path))
        .unwrap_or_else(|e| panic!("{}: not JSON: {e}", path.display()))
}

/// The number `v[key]`.
pub fn f(v: &Value, key: &str) -> f64 {
    v[key]
        .as_f64()
        .unwrap_or_else(|| panic!("{key} is not a number in {v}"))
}

/// The count `v[key]`.
pub fn u(v: &Value, key: &str) -> u64 {
    v[key]
        .as_u64()
        .unwrap_or_else(|| panic!("{key} is not a count in {v}"))
}

/// Asserts |got − want| ≤ tol · max(1, |want|).
pub fn check(what: &str, got: f64, want: f64, tol: f64) {
    let bound = tol * want.abs().max(1.0);
    assert!(
        (got - want).abs() <= bound,
        "{what}: got {got:e}, want {want:e} (difference {:e} > {bound:e})",
        (got - want).abs()
    );
}

/// [`check`] for values that may be undefined: both `None`, or both numbers within `tol`.
pub fn close(what: &str, got: Option<f64>, want: Option<f64>, tol: f64) {
    match (got, want) {
        (Some(g), Some(w)) => check(what, g, w, tol),
        (None, None) => {}
        _ => panic!("{what}: got {got:?}, want {want:?}"),
    }
}

/// Whether to rewrite committed snapshots instead of comparing with them (`JUROR_BLESS=1`).
pub fn bless() -> bool {
    std::env::var_os("JUROR_BLESS").is_some()
}

/// Compares `generated` with the committed file at `path`, after writing it there when
/// blessing. `module` names the test module that generates it, for the command to rerun.
pub fn assert_committed(path: &Path, generated: &str, what: &str, module: &str) {
    if bless() {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
        }
        std::fs::write(path, generated).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    }
    let committed = std::fs::read_to_string(path).unwrap_or_default();
    assert!(
        committed == generated,
        "{} is out of date with {what}; regenerate it with \
         `JUROR_BLESS=1 cargo test -p juror-core --test it {module}::` and read the diff",
        path.display()
    );
}
