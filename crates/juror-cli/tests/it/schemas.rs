//! The committed JSON Schemas (`assets/schema/*.v1.json`) accept the real files Juror reads and
//! writes, checked with an independent validator (the `jsonschema` crate, draft 2020-12), not
//! only against drift from the Rust types: every example study, every ratings file the core's
//! export wrote (the fixtures), and the report `juror analyze` writes for every example's
//! fixtures and for the real data sets in `data/`. The end-to-end test `complete-study.spec.ts`
//! does the same in the browser for the ratings files the app downloads and the page's report.

use std::path::{Path, PathBuf};

use serde_json::Value;

use super::support::{self, json_files, root};

fn read_json(path: &Path) -> Value {
    let text = std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("{}: cannot read ({e})", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: not JSON ({e})", path.display()))
}

/// The validator of the committed schema `assets/schema/<name>.v1.json`, as draft 2020-12 (the
/// draft the schema names) with formats asserted.
fn validator(name: &str) -> jsonschema::Validator {
    let schema = read_json(&root().join(format!("assets/schema/{name}.v1.json")));
    assert_eq!(
        schema["$schema"], "https://json-schema.org/draft/2020-12/schema",
        "{name}: the schema should declare draft 2020-12"
    );
    jsonschema::draft202012::options()
        .should_validate_formats(true)
        .build(&schema)
        .unwrap_or_else(|e| panic!("{name}.v1.json is not a valid schema: {e}"))
}

/// Every error of `instance` under `validator`, one per line with its place.
fn errors(validator: &jsonschema::Validator, instance: &Value) -> Vec<String> {
    validator
        .iter_errors(instance)
        .map(|e| format!("at {}: {e}", e.instance_path()))
        .collect()
}

fn assert_valid(validator: &jsonschema::Validator, what: &str, instance: &Value) {
    let errors = errors(validator, instance);
    assert!(
        errors.is_empty(),
        "{what}: {} schema errors\n{}",
        errors.len(),
        errors.join("\n")
    );
}

#[test]
fn every_example_study_is_valid_under_the_study_schema() {
    let v = validator("study");
    let mut files = json_files(&root().join("assets/studies"));
    files.extend(json_files(
        &root().join("crates/juror-core/tests/fixtures/valid"),
    ));
    files.push(root().join("crates/juror-core/tests/fixtures/analysis/pandalm-sealed-study.json"));
    assert!(files.len() >= 8, "{files:?}");
    for path in files {
        assert_valid(&v, &path.display().to_string(), &read_json(&path));
    }
}

/// The ratings files under the fixtures, written by the core's export (the function the app's
/// download calls); the tampered ones differ in content, not in shape.
fn ratings_fixtures() -> Vec<PathBuf> {
    let fixtures = root().join("crates/juror-core/tests/fixtures");
    let mut files: Vec<PathBuf> = json_files(&fixtures.join("ratings"));
    files.extend(
        json_files(&fixtures.join("analysis"))
            .into_iter()
            .filter(|p| read_json(p)["format"] == "juror.ratings/1"),
    );
    files
}

#[test]
fn every_ratings_file_is_valid_under_the_ratings_schema() {
    let v = validator("ratings");
    let files = ratings_fixtures();
    assert!(files.len() >= 12, "{files:?}");
    for path in files {
        assert_valid(&v, &path.display().to_string(), &read_json(&path));
    }
}

/// The report `juror analyze ARGS` writes; it exits 1 when an input has problems (the report
/// lists them) and 0 otherwise.
fn analyze(args: &[&str], code: i32) -> Value {
    let out = support::juror()
        .args(["analyze", "--resamples", "20"])
        .args(args)
        .current_dir(root())
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(code),
        "juror analyze {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    // Negative zero is written as zero (it once appeared as `"w_plus": -0.0`).
    assert!(
        !text.contains("-0.0,") && !text.contains("-0.0\n"),
        "juror analyze {args:?} wrote a negative zero"
    );
    serde_json::from_str(&text).unwrap()
}

const FIXTURES: &str = "crates/juror-core/tests/fixtures/analysis";

/// `juror analyze` on every example's fixtures (with and without the study, the key), and on
/// the real data: the reports the writer really writes, sparse fields and all.
fn reports() -> Vec<(String, Value)> {
    let f = |name: &str| format!("{FIXTURES}/{name}");
    let slots = |prefix: &str, n: usize| -> Vec<String> {
        (1..=n)
            .map(|s| f(&format!("{prefix}-slot{s}.json")))
            .collect()
    };
    let runs: Vec<(&str, Vec<String>)> = vec![
        (
            "financial-analysis with its study",
            [
                vec![
                    "--study".into(),
                    "assets/studies/financial-analysis.json".into(),
                ],
                slots("financial", 3),
            ]
            .concat(),
        ),
        ("financial-analysis alone", slots("financial", 3)),
        (
            "pixelis trajectories with their study",
            [
                vec![
                    "--study".into(),
                    "assets/studies/reasoning-trajectories.json".into(),
                ],
                slots("trajectories", 3),
            ]
            .concat(),
        ),
        (
            "work-intake with its study",
            [
                vec!["--study".into(), "assets/studies/work-intake.json".into()],
                slots("work-intake", 2),
            ]
            .concat(),
        ),
        (
            "sealed pandalm with the key",
            [
                vec![
                    "--study".into(),
                    f("pandalm-sealed-study.json"),
                    "--key".into(),
                    f("pandalm-key.json"),
                ],
                slots("pandalm", 3),
            ]
            .concat(),
        ),
        (
            "a file with bad rows among good ones",
            [slots("financial", 3), vec![f("bad-rows.csv")]].concat(),
        ),
        (
            "PandaLM's real labels",
            vec!["data/pandalm/pandalm_pairwise_long.csv".into()],
        ),
        (
            "SummEval's expert ratings",
            vec!["data/summeval/summeval_expert_long.csv".into()],
        ),
    ];
    runs.into_iter()
        .map(|(what, args)| {
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            let code = i32::from(what.contains("bad rows"));
            (what.to_owned(), analyze(&args, code))
        })
        .collect()
}

#[test]
fn every_report_juror_analyze_writes_is_valid_under_the_report_schema() {
    let v = validator("report");
    for (what, report) in reports() {
        assert_eq!(report["format"], "juror.report/1", "{what}");
        assert_valid(&v, &what, &report);
    }
}

/// The validator is not a rubber stamp: a required field removed, a wrong type and an unknown
/// format are each refused, for each schema.
#[test]
fn the_schemas_refuse_what_they_should() {
    let study = read_json(&root().join("assets/studies/financial-analysis.json"));
    let v = validator("study");
    let mut no_items = study.clone();
    no_items.as_object_mut().unwrap().remove("items");
    assert!(!errors(&v, &no_items).is_empty());
    let mut bad_seed = study.clone();
    bad_seed["seed"] = "forty-two".into();
    assert!(!errors(&v, &bad_seed).is_empty());

    let ratings = read_json(&ratings_fixtures()[0]);
    let v = validator("ratings");
    let mut no_checksum = ratings.clone();
    no_checksum.as_object_mut().unwrap().remove("sha256");
    assert!(!errors(&v, &no_checksum).is_empty());

    let (_, report) = reports().swap_remove(0);
    let v = validator("report");
    let mut no_dimensions = report.clone();
    no_dimensions.as_object_mut().unwrap().remove("dimensions");
    assert!(!errors(&v, &no_dimensions).is_empty());
    let mut bad_n = report.clone();
    bad_n["dimensions"][0]["systems"][0]["n"] = "many".into();
    assert!(
        !errors(&v, &bad_n).is_empty(),
        "{:#}",
        report["dimensions"][0]
    );
}
