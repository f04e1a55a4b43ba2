//! `juror analyze` end to end: the report on the core's fixtures in every format, problems on
//! standard error with exit 1, the seal key, adjudication; and on real data, PandaLM's published
//! Cohen's kappas and SummEval's expert means and agreement.
//!
//! The real data are the copies committed in `data/` (see `data/README.md` for sources and
//! licences); a test whose file is missing fails and names the path it wanted. Few bootstrap resamples keep the
//! debug binary fast: the bootstrap itself is tested in juror-core.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::Output;

use serde_json::Value;

use super::support::{self, fixture as committed, root, shared_dir, stderr};

fn juror(args: &[&str]) -> Output {
    support::juror()
        .arg("analyze")
        .args(["--resamples", "20"])
        .args(args)
        .output()
        .unwrap()
}

fn json(out: &Output) -> Value {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "not JSON ({e}): {}\n{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    })
}

/// A ratings fixture of the core's analysis tests, as a path argument.
fn fixture(name: &str) -> String {
    committed(&format!("crates/juror-core/tests/fixtures/analysis/{name}"))
        .display()
        .to_string()
}

/// A file in this module's scratch folder.
fn tmp(name: &str) -> PathBuf {
    shared_dir("analyze").join(name)
}

/// A committed data file, `data/<name>`; missing, the test fails with the path it wanted.
fn dataset(name: &str) -> String {
    committed(&format!("data/{name}")).display().to_string()
}

fn financial() -> Vec<String> {
    (1..=3)
        .map(|s| fixture(&format!("financial-slot{s}.json")))
        .collect()
}

fn args<'a>(head: &[&'a str], files: &'a [String]) -> Vec<&'a str> {
    let mut v = head.to_vec();
    v.extend(files.iter().map(String::as_str));
    v
}

#[test]
fn the_json_report_of_good_files_exits_0() {
    let files = financial();
    let study = root().join("assets/studies/financial-analysis.json");
    let study = study.display().to_string();
    let out = juror(&args(&["--study", &study, "--seed", "3"], &files));
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(stderr(&out), "");
    let r = json(&out);
    assert_eq!(r["format"], "juror.report/1");
    assert_eq!(r["settings"]["seed"], 3);
    assert_eq!(r["settings"]["resamples"], 20);
    assert_eq!(r["settings"]["study"], "financial-analysis-2024w10");
    let d = &r["dimensions"][0];
    assert_eq!(d["dimension"], "quality");
    assert_eq!(d["systems"].as_array().unwrap().len(), 2);
    assert_eq!(d["comparisons"].as_array().unwrap().len(), 1);
    assert_eq!(d["flags"].as_array().unwrap().len(), 4);
    assert!(d["agreement"]["krippendorff_alpha"]["ordinal"].is_f64());
    assert!(r["preferences"].is_null());
}

#[test]
fn timings_are_one_line_on_stderr_and_change_nothing_else() {
    let files = financial();
    let plain = juror(&args(&[], &files));
    let timed = juror(&args(&["--timings"], &files));
    assert_eq!(timed.status.code(), Some(0), "{}", stderr(&timed));
    assert_eq!(timed.stdout, plain.stdout, "the report is the same");
    let err = stderr(&timed);
    let line = err.trim_end();
    assert!(!line.contains('\n'), "one line: {err}");
    let phases: Vec<(&str, f64)> = line
        .strip_prefix("timings: ")
        .unwrap_or_else(|| panic!("{err}"))
        .split(", ")
        .map(|lap| {
            let (phase, rest) = lap.split_once(' ').unwrap();
            let seconds = rest.strip_suffix(" s").unwrap().parse::<f64>().unwrap();
            (phase, seconds)
        })
        .collect();
    let names: Vec<&str> = phases.iter().map(|p| p.0).collect();
    assert_eq!(names, ["files", "read", "statistics", "written"]);
    assert!(phases.iter().all(|p| p.1 >= 0.0 && p.1 < 60.0), "{err}");
}

#[test]
fn bad_inputs_are_named_on_stderr_with_exit_1_and_the_rest_is_reported() {
    let mut files = financial();
    files.push(fixture("tampered.json"));
    files.push(fixture("bad-header.csv"));
    files.push(tmp("does-not-exist.csv").display().to_string());
    let out = juror(&args(&[], &files));
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 4, "{err}");
    // Files are named by their base names: where they were on this computer is not said.
    assert!(
        lines[0].starts_with("does-not-exist.csv: cannot read the file"),
        "{err}"
    );
    assert!(
        lines[1].starts_with("tampered.json: sha256: the checksum"),
        "{err}"
    );
    assert!(
        lines[2].starts_with("bad-header.csv: line 1: the header"),
        "{err}"
    );
    assert_eq!(
        lines[3],
        "3 problem(s) in the inputs; the report covers the rest"
    );
    // The report is still printed, for the good files.
    let r = json(&out);
    assert_eq!(r["dimensions"][0]["annotators"], 3);
    assert_eq!(r["problems"].as_array().unwrap().len(), 3);
    assert_eq!(r["inputs"].as_array().unwrap().len(), 5);
}

#[test]
fn the_seal_key_turns_tokens_into_system_ids() {
    let files: Vec<String> = (1..=3)
        .map(|s| fixture(&format!("pandalm-slot{s}.json")))
        .collect();
    let study = fixture("pandalm-sealed-study.json");
    let key = fixture("pandalm-key.json");
    let out = juror(&args(&["--study", &study, "--key", &key], &files));
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let r = json(&out);
    assert_eq!(
        r["preferences"]["systems"],
        serde_json::json!(["bloom-7b", "llama-7b"])
    );
    assert!(r["preferences"]["bradley_terry"]["scores"]["llama-7b"]["score"].is_f64());

    // Without the key the tokens stay.
    let sealed = json(&juror(&args(&[], &files)));
    let systems = sealed["preferences"]["systems"].as_array().unwrap();
    assert!(
        systems
            .iter()
            .all(|s| s.as_str().unwrap().starts_with("s-"))
    );

    // A key that is not a key stops everything: here the study, said to be swapped.
    let out = juror(&args(&["--key", &study], &files));
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains(
            "this is a study (juror.study/1), not a key: the study and the key seem swapped"
        ),
        "{}",
        stderr(&out)
    );
    assert!(out.stdout.is_empty());
}

#[test]
fn the_adjudication_sheet_filled_in_changes_comparisons_not_agreement() {
    let files = financial();
    let sheet = tmp("sheet.csv");
    let sheet_arg = sheet.display().to_string();
    let before = juror(&args(&["--adjudication-sheet", &sheet_arg], &files));
    assert_eq!(before.status.code(), Some(0), "{}", stderr(&before));
    let text = std::fs::read_to_string(&sheet).unwrap();
    let mut lines = text.lines();
    let header =
        "item_id,system_id,dimension,score,expert,n,mean,sd,ratings,prompt,context,media,output";
    assert_eq!(lines.next(), Some(header));
    let rows: Vec<&str> = lines.collect();
    assert_eq!(rows.len(), 4);
    assert!(rows.iter().all(|r| r.split(',').nth(3) == Some("")));
    // The expert gives 4 to each.
    let mut filled = format!("{header}\n");
    for r in &rows {
        let mut f: Vec<&str> = r.splitn(5, ',').collect();
        f[3] = "4";
        filled.push_str(&f.join(","));
        filled.push('\n');
    }
    let adjudicated = tmp("adjudicated.csv");
    std::fs::write(&adjudicated, filled).unwrap();
    let adjudicated = adjudicated.display().to_string();
    let after = juror(&args(&["--adjudication", &adjudicated], &files));
    assert_eq!(after.status.code(), Some(0), "{}", stderr(&after));
    let (b, a) = (json(&before), json(&after));
    let (b, a) = (&b["dimensions"][0], &a["dimensions"][0]);
    assert_eq!(b["agreement"], a["agreement"]);
    assert_ne!(b["comparisons"], a["comparisons"]);
    assert_eq!(json(&after)["adjudication"]["applied"], 4);
}

#[test]
fn markdown_and_csv() {
    let files = financial();
    let out = juror(&args(&["--format", "md"], &files));
    assert_eq!(out.status.code(), Some(0));
    let md = String::from_utf8(out.stdout).unwrap();
    assert!(md.starts_with("# Analysis report\n"));
    assert!(md.contains("| base-llm | fin-agent | A ≠ B | 25 |"), "{md}");
    assert!(md.contains("## Methods"));

    // The tidy CSV reads back to the same report.
    let csv = tmp("tidy.csv");
    let csv_arg = csv.display().to_string();
    let out = juror(&args(&["--format", "csv", "--out", &csv_arg], &files));
    assert_eq!(out.status.code(), Some(0));
    assert!(out.stdout.is_empty());
    let text = std::fs::read_to_string(&csv).unwrap();
    assert!(
        text.starts_with("item_id,system_id,annotator_id,dimension,score,source_file,source_at\n")
    );
    assert_eq!(text.lines().count(), 1 + 149);
    let again = json(&juror(&[&csv_arg]));
    let first = json(&juror(&args(&[], &files)));
    assert_eq!(again["dimensions"], first["dimensions"]);
}

#[test]
fn usage_errors_exit_2() {
    let files = financial();
    for bad in [
        vec!["--flag-sd", "-1"],
        vec!["--resamples", "0"],
        vec!["--study", "/nonexistent/study.json"],
        vec!["--adjudication", "/nonexistent/adjudication.csv"],
    ] {
        let out = juror(&args(&bad, &files));
        assert_eq!(out.status.code(), Some(2), "{bad:?}: {}", stderr(&out));
        assert!(out.stdout.is_empty(), "{bad:?}");
    }
}

// ---------------------------------------------------------------------------------------------
// Real data
// ---------------------------------------------------------------------------------------------

/// The reference values of `crates/juror-core/tests/reference/agreement/reference.json`
/// (statsmodels, krippendorff and scikit-learn on the same data).
fn reference_case(name: &str) -> Value {
    let path = root().join("crates/juror-core/tests/reference/agreement/reference.json");
    let reference: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    reference["cases"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == name)
        .unwrap()
        .clone()
}

fn close(what: &str, got: &Value, want: &Value, tolerance: f64) {
    let (g, w) = (got.as_f64().unwrap(), want.as_f64().unwrap());
    assert!((g - w).abs() <= tolerance, "{what}: {g} != {w}");
}

/// PandaLM's README reports Cohen's kappa 0.85, 0.88 and 0.86 between its three annotators.
#[test]
fn pandalm_reproduces_the_published_kappas() {
    let path = dataset("pandalm/pandalm_pairwise_long.csv");
    let out = juror(&[&path]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let r = json(&out);
    let a = &r["preferences"]["agreement"];
    assert_eq!(a["units"], 999);
    let reference = reference_case("pandalm_pairwise");
    let pairs = a["cohen_kappa"].as_array().unwrap();
    for (i, (x, y, published, helper)) in [
        ("annotator1", "annotator2", 0.85, 0.8520),
        ("annotator1", "annotator3", 0.88, 0.8789),
        ("annotator2", "annotator3", 0.86, 0.8617),
    ]
    .into_iter()
    .enumerate()
    {
        let p = &pairs[i];
        assert_eq!(
            (p["annotator_a"].as_str(), p["annotator_b"].as_str()),
            (Some(x), Some(y))
        );
        let kappa = p["unweighted"].as_f64().unwrap();
        assert_eq!(format!("{kappa:.2}"), format!("{published:.2}"), "{x}/{y}");
        assert_eq!(format!("{kappa:.4}"), format!("{helper:.4}"), "{x}/{y}");
        close(
            "kappa",
            &p["unweighted"],
            &reference["pairs"][i]["unweighted"],
            1e-9,
        );
    }
    close(
        "fleiss",
        &a["fleiss_kappa"],
        &reference["fleiss_kappa"],
        1e-9,
    );
    close(
        "alpha",
        &a["krippendorff_alpha"]["nominal"],
        &reference["alpha"]["nominal"],
        1e-9,
    );
}

/// SummEval's expert ratings: per-system means (as in the paper's Table 3) and agreement.
#[test]
fn summeval_expert_means_and_agreement() {
    let path = dataset("summeval/summeval_expert_long.csv");
    let out = juror(&[&path]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let r = json(&out);

    // The means, computed here from the CSV with a plain split (it has no quoted field).
    let text = std::fs::read_to_string(&path).unwrap();
    let mut sums: BTreeMap<(String, String), (f64, f64)> = BTreeMap::new();
    for line in text.lines().skip(1) {
        let f: Vec<&str> = line.split(',').collect();
        let e = sums.entry((f[3].to_owned(), f[1].to_owned())).or_default();
        e.0 += f[4].parse::<f64>().unwrap();
        e.1 += 1.0;
    }
    let mut table = String::new();
    for d in r["dimensions"].as_array().unwrap() {
        let dimension = d["dimension"].as_str().unwrap();
        assert_eq!(d["items"], 100);
        let systems = d["systems"].as_array().unwrap();
        assert_eq!(systems.len(), 12);
        for s in systems {
            let system = s["system"].as_str().unwrap();
            let (sum, n) = sums[&(dimension.to_owned(), system.to_owned())];
            assert_eq!(n, 300.0);
            close("mean", &s["mean"], &Value::from(sum / n), 1e-12);
            table.push_str(&format!("{dimension} {system} {:.2}\n", sum / n));
        }
        // 12 systems: 66 comparisons per dimension, adjusted over all 264.
        assert_eq!(d["comparisons"].as_array().unwrap().len(), 66);
        let reference = reference_case(&format!("summeval_expert_{dimension}"));
        let a = &d["agreement"];
        close(
            "fleiss",
            &a["fleiss_kappa"],
            &reference["fleiss_kappa"],
            1e-9,
        );
        for metric in ["nominal", "ordinal", "interval"] {
            close(
                metric,
                &a["krippendorff_alpha"][metric],
                &reference["alpha"][metric],
                1e-9,
            );
        }
        for (i, p) in a["cohen_kappa"].as_array().unwrap().iter().enumerate() {
            for w in ["unweighted", "linear", "quadratic"] {
                close(w, &p[w], &reference["pairs"][i][w], 1e-9);
            }
        }
    }
    eprintln!("SummEval expert means:\n{table}");
}

/// Ratings over rounds from a CSV with a `round` column, the mixed model's reference chosen
/// with `--reference`, and the Markdown's section.
#[test]
fn rounds_with_a_chosen_reference() {
    let mut csv = String::from("item_id,system_id,annotator_id,dimension,score,round\n");
    for (a, annotator) in ["p1", "p2", "p3", "p4"].iter().enumerate() {
        for round in 1..=5 {
            for (s, system) in ["base", "new"].iter().enumerate() {
                // "new" improves by a point every other round; annotators differ by a constant.
                let score = 2 + a % 2 + s * round / 2 + (round + a) % 2;
                csv.push_str(&format!(
                    "r{round},{system},{annotator},quality,{score},{round}\n"
                ));
            }
        }
    }
    let path = tmp("rounds.csv");
    std::fs::write(&path, csv).unwrap();
    let path = path.to_str().unwrap();
    let out = juror(&["--reference", "new", path]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let report = json(&out);
    assert_eq!(report["settings"]["reference"], "new");
    let rounds = &report["dimensions"][0]["rounds"];
    assert_eq!(rounds["mixed_model"]["reference"], "new");
    assert_eq!(rounds["mixed_model"]["n_groups"], 4);
    let names: Vec<&str> = rounds["mixed_model"]["fixed_effects"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "Intercept",
            "system[T.base]",
            "round",
            "system[T.base]:round"
        ]
    );
    let new = &rounds["trends"][1];
    assert_eq!(new["system"], "new");
    assert!(new["slope"].as_f64().unwrap() > 0.4, "{new}");

    let md = juror(&["--format", "md", path]);
    let md = String::from_utf8(md.stdout).unwrap();
    assert!(md.contains("### Over rounds"), "{md}");
    assert!(md.contains("reference system base"), "{md}");
}

/// Flags override the study's analysis plan, and the report says so (exploratory); a bad flag
/// is a usage error that names the choices.
#[test]
fn plan_flags_override_the_study_and_are_recorded() {
    let study = root().join("assets/studies/reasoning-trajectories.json");
    let study = study.display().to_string();
    let files: Vec<String> = (1..=3)
        .map(|s| fixture(&format!("trajectories-slot{s}.json")))
        .collect();
    let r = json(&juror(&args(&["--study", &study], &files)));
    assert_eq!(r["settings"]["plan_source"], "study");
    assert_eq!(
        r["settings"]["plan"]["comparisons"]["pairs"][0][0],
        "rft-coherence"
    );

    let out = juror(&args(
        &[
            "--study",
            &study,
            "--unit",
            "annotator",
            "--anchor",
            "rft-base",
            "--tests",
            "t",
            "--correction",
            "bonferroni",
            "--family",
            "dimension",
        ],
        &files,
    ));
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let r = json(&out);
    let plan = &r["settings"]["plan"];
    assert_eq!(r["settings"]["plan_source"], "options");
    assert_eq!(plan["unit"], "annotator");
    assert_eq!(plan["comparisons"]["anchor"], "rft-base");
    assert_eq!(plan["tests"], serde_json::json!(["t"]));
    assert_eq!(
        (plan["correction"].as_str(), plan["family"].as_str()),
        (Some("bonferroni"), Some("dimension"))
    );
    for d in r["dimensions"].as_array().unwrap() {
        let comparisons = d["comparisons"].as_array().unwrap();
        assert_eq!(comparisons.len(), 3, "rft-base against each other system");
        for c in comparisons {
            assert!(
                c["system_a"] == "rft-base" || c["system_b"] == "rft-base",
                "{c}"
            );
            assert_eq!(c["n"], 3, "paired over the three annotators");
            assert!(c["wilcoxon"].is_null(), "not asked for: {c}");
            if c["t_test"].is_object() {
                assert_eq!(c["p_value"], c["t_test"]["p_value"]);
                assert_eq!(c["p_adjusted"], c["p_bonferroni"]);
            } else {
                // Equal means for every annotator: no t, and the note says why.
                assert!(
                    c["notes"][0].as_str().unwrap().starts_with("t-test:"),
                    "{c}"
                );
            }
        }
    }
    let md = String::from_utf8(
        juror(&args(
            &["--study", &study, "--anchor", "rft-base", "--format", "md"],
            &files,
        ))
        .stdout,
    )
    .unwrap();
    assert!(md.contains("chosen at analysis time (exploratory)"), "{md}");

    // A margin gives every comparison a non-inferiority test; --by-group adds the groups.
    let r = json(&juror(&args(
        &["--study", &study, "--margin", "0.5", "--by-group"],
        &files,
    )));
    assert_eq!(r["settings"]["plan"]["margin"], 0.5);
    assert_eq!(r["settings"]["plan"]["by_group"], true);
    for d in r["dimensions"].as_array().unwrap() {
        for c in d["comparisons"].as_array().unwrap() {
            assert_eq!(c["non_inferiority"]["margin"], 0.5, "{c}");
        }
    }

    for (flag, value, says) in [
        ("--margin", "-1", "is not a positive number"),
        ("--unit", "participant", "give one of item, annotator"),
        ("--anchor", "gpt9", "unknown system \"gpt9\""),
        ("--pairs", "online", "write pairs as A:B,C:D"),
        ("--tests", "anova", "give one of wilcoxon, t"),
    ] {
        let out = juror(&args(&["--study", &study, flag, value], &files));
        assert_eq!(out.status.code(), Some(2), "{flag} {value}");
        assert!(
            stderr(&out).contains(says),
            "{flag} {value}: {}",
            stderr(&out)
        );
        assert!(out.stdout.is_empty());
    }
}

/// The plan `assets/studies/hare-personalization.json` pre-registers: per
/// dimension, HARE against each of the three baselines over participants (each participant's
/// mean over the ten rounds), one-sided where a hypothesis is directional, t and Wilcoxon, the
/// mean difference's interval, d_z with its interval, Bonferroni over the 12 comparisons, and
/// H1's non-inferiority test.
#[test]
fn the_hare_personalization_study_is_analysed_as_its_protocol_says() {
    let study = root().join("assets/studies/hare-personalization.json");
    let study = study.display().to_string();
    let files = [fixture("hare-ratings.csv")];
    let out = juror(&args(&["--study", &study], &files));
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let r = json(&out);
    assert_eq!(r["settings"]["plan_source"], "study");
    let dimensions = r["dimensions"].as_array().unwrap();
    assert_eq!(dimensions.len(), 4);
    let mut all = Vec::new();
    for d in dimensions {
        let comparisons = d["comparisons"].as_array().unwrap();
        let against: Vec<&str> = comparisons
            .iter()
            .map(|c| {
                assert_eq!(c["system_a"], "hare", "{c}");
                c["system_b"].as_str().unwrap()
            })
            .collect();
        assert_eq!(against, ["gpt2", "rag", "random"]);
        all.extend(
            comparisons
                .iter()
                .map(|c| (d["dimension"].clone(), c.clone())),
        );
    }
    assert_eq!(all.len(), 12);
    for (dimension, c) in &all {
        assert_eq!(c["n"], 12, "twelve participants: {c}");
        assert!(c["t_test"]["df"] == 11.0, "{c}");
        assert!(c["wilcoxon"].is_object(), "{c}");
        assert!(c["mean_diff_ci95"]["low"].is_number(), "{c}");
        let (low, high) = (
            c["d_z_ci95"]["low"].as_f64().unwrap(),
            c["d_z_ci95"]["high"].as_f64().unwrap(),
        );
        let d_z = c["d_z"].as_f64().unwrap();
        assert!(low < d_z && d_z < high, "{c}");
        // Wilcoxon first, as the protocol says: the p corrected is the signed-rank test's, times
        // 12 (Bonferroni over the plan).
        let p = c["wilcoxon"]["p_value"].as_f64().unwrap();
        let adjusted = c["p_adjusted"].as_f64().unwrap();
        assert!((adjusted - (12.0 * p).min(1.0)).abs() < 1e-12, "{c}");
        let directional = match (dimension.as_str().unwrap(), c["system_b"].as_str().unwrap()) {
            ("quality", "rag") => Some("H1"),
            ("personalization", _) => Some("H2"),
            ("novelty", "rag" | "gpt2") => Some("H5"),
            _ => None,
        };
        assert_eq!(c["hypothesis"].as_str(), directional, "{dimension} {c}");
        let alternative = if directional.is_some() {
            "greater"
        } else {
            "two-sided"
        };
        assert_eq!(c["alternative"], alternative, "{dimension} {c}");
        assert_eq!(
            c["non_inferiority"]["margin"].as_f64(),
            (directional == Some("H1")).then_some(0.5),
            "{c}"
        );
    }
}

/// An intake question breaks the report down (`--by-intake role`, or `analysis.by_intake`):
/// per dimension, each answer's annotators apart, uncorrected; an unknown question is a usage
/// error naming the study's questions.
#[test]
fn an_intake_answer_breaks_the_report_down() {
    let study = root().join("assets/studies/hare-personalization.json");
    let study = study.display().to_string();
    let files: Vec<String> = (1..=3)
        .map(|s| fixture(&format!("hare-slot{s}.json")))
        .collect();
    let r = json(&juror(&args(
        &["--study", &study, "--by-intake", "role"],
        &files,
    )));
    assert_eq!(r["settings"]["plan"]["by_intake"], "role");
    let groups = r["dimensions"][0]["intake_groups"].as_array().unwrap();
    let names: Vec<&str> = groups
        .iter()
        .map(|g| g["group"].as_str().unwrap())
        .collect();
    // Slots 1 and 3 are students, slot 2 a researcher (the fixtures' intake answers).
    assert_eq!(
        names,
        [
            "Student (undergraduate or graduate)",
            "Researcher or academic"
        ]
    );
    for g in groups {
        for c in g["comparisons"].as_array().unwrap() {
            assert!(
                c["p_adjusted"].is_null(),
                "a breakdown is not corrected: {c}"
            );
        }
    }
    let students = &groups[0]["systems"][0];
    assert_eq!(
        students["n_ratings"], 20,
        "two annotators, ten rounds: {students}"
    );
    let out = juror(&args(&["--study", &study, "--by-intake", "nope"], &files));
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("no intake question \"nope\"; use one of: role"));
}

/// A copy of `fixture` as a participant from Prolific would send it: their PID as the
/// annotator's id, the platform's study and session recorded, the checksum made again, and the
/// file named as the app names it (after the participant).
fn from_prolific(fixture_name: &str, pid: &str) -> String {
    let mut file: Value =
        serde_json::from_str(&std::fs::read_to_string(fixture(fixture_name)).unwrap()).unwrap();
    file["annotator"]["id"] = pid.into();
    file["annotator"]["platform"] = serde_json::json!({
        "name": "prolific",
        "STUDY_ID": "65a1",
        "SESSION_ID": format!("sess-{pid}")
    });
    let object = file.as_object_mut().unwrap();
    object.remove("sha256");
    let sum = juror_core::base::digest::sha256_hex(&serde_json::to_string(&file).unwrap());
    file["sha256"] = sum.into();
    let path = tmp(&format!("juror-study-{pid}-2026-11-24.json"));
    std::fs::write(&path, serde_json::to_string_pretty(&file).unwrap()).unwrap();
    path.display().to_string()
}

/// Participants' platform ids (which name people) are pseudonymised in the report and
/// the merged CSV by default, keyed with the key's secret when there is one; `--reveal-ids`
/// shows them (the ratings files keep them, for payment).
#[test]
fn platform_ids_are_pseudonymised_unless_revealed() {
    let pids = ["5f0c9a11aa", "5f0c9a22bb", "5f0c9a33cc"];
    let files: Vec<String> = (1..=3)
        .map(|s| from_prolific(&format!("pandalm-slot{s}.json"), pids[s - 1]))
        .collect();
    let study = fixture("pandalm-sealed-study.json");
    let contains_a_pid = |text: &str| pids.iter().any(|p| text.contains(p));

    let out = juror(&args(&["--study", &study], &files));
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(!contains_a_pid(&text), "{text}");
    let r = json(&out);
    let unkeyed: Vec<String> = r["inputs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| {
            assert_eq!(i["platform"], "prolific");
            assert!(
                i["file"]
                    .as_str()
                    .unwrap()
                    .contains("juror-study-prolific-")
            );
            i["annotator"].as_str().unwrap().to_owned()
        })
        .collect();
    assert!(
        unkeyed
            .iter()
            .all(|a| a.starts_with("prolific-") && a.len() == 21)
    );
    assert!(
        r["settings"]["platform_ids"]
            .as_str()
            .unwrap()
            .contains("salt drawn from the ratings files")
    );
    let csv = juror(&args(&["--format", "csv"], &files));
    assert!(!contains_a_pid(&String::from_utf8_lossy(&csv.stdout)));

    // With a key from `juror publish` (which keeps a secret for this), the pseudonyms are
    // keyed: others than without it, and the same on every run.
    let mut key: Value =
        serde_json::from_str(&std::fs::read_to_string(fixture("pandalm-key.json")).unwrap())
            .unwrap();
    key["ids_secret"] = "7f".repeat(32).into();
    let key_path = tmp("pandalm-key-with-secret.json");
    std::fs::write(&key_path, key.to_string()).unwrap();
    let key_path = key_path.display().to_string();
    let keyed_run = || {
        json(&juror(&args(
            &["--study", &study, "--key", &key_path],
            &files,
        )))
    };
    let keyed = keyed_run();
    assert_eq!(keyed["inputs"], keyed_run()["inputs"]);
    assert_ne!(
        keyed["inputs"][0]["annotator"].as_str().unwrap(),
        unkeyed[0]
    );
    assert_eq!(
        keyed["settings"]["platform_ids"],
        "pseudonymised with the key's secret"
    );

    let shown = juror(&args(&["--study", &study, "--reveal-ids"], &files));
    let r = json(&shown);
    assert_eq!(r["inputs"][0]["annotator"], pids[0]);
    assert!(
        r["settings"]["platform_ids"]
            .as_str()
            .unwrap()
            .contains("shown")
    );

    // Files without a platform are shown as before, and say nothing about it.
    let plain = json(&juror(&args(&[], &financial())));
    assert!(plain["settings"].get("platform_ids").is_none());
    assert!(plain["inputs"][0].get("platform").is_none());
}

/// `juror payments`: an MTurk worker's id as MTurk writes it (Juror keeps ids in lower case;
/// MTurk's are upper case), the assignment as the session; a researcher's preview run and a
/// CSV are not evidence: named on stderr (base names only), exit 1; no study: exit 2.
#[test]
fn payments_list_mturk_workers_as_mturk_writes_them() {
    let mut file: Value =
        serde_json::from_str(&std::fs::read_to_string(fixture("pandalm-slot1.json")).unwrap())
            .unwrap();
    file["annotator"]["id"] = "a1b2c3d4e5".into();
    file["annotator"]["platform"] = serde_json::json!({
        "name": "mturk",
        "assignmentId": "3ASSIGN",
        "hitId": "3HIT"
    });
    let resign = |file: &mut Value| {
        file.as_object_mut().unwrap().remove("sha256");
        let sum = juror_core::base::digest::sha256_hex(&serde_json::to_string(&*file).unwrap());
        file["sha256"] = sum.into();
        serde_json::to_string_pretty(&*file).unwrap()
    };
    let worker = tmp("juror-pandalm-a1b2c3d4e5-2026-11-25.json");
    std::fs::write(&worker, resign(&mut file)).unwrap();
    file["preview"] = true.into();
    file["annotator"]["id"] = "researcher".into();
    let preview = tmp("juror-pandalm-researcher-2026-11-25.json");
    std::fs::write(&preview, resign(&mut file)).unwrap();
    let study = fixture("pandalm-sealed-study.json");
    let key = fixture("pandalm-key.json");
    let paths = [
        worker.display().to_string(),
        preview.display().to_string(),
        dataset("summeval/summeval_expert_long.csv"),
    ];
    let mut args = vec![
        "payments",
        study.as_str(),
        "--key",
        key.as_str(),
        "--format",
        "csv",
    ];
    args.extend(paths.iter().map(String::as_str));
    let out = support::juror().args(&args).output().unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let csv = String::from_utf8_lossy(&out.stdout).into_owned();
    let rows: Vec<&str> = csv.lines().collect();
    assert_eq!(rows.len(), 2, "{csv}");
    assert!(
        rows[1].starts_with("A1B2C3D4E5,mturk,3HIT,3ASSIGN,1,true,"),
        "{csv}"
    );
    let err = stderr(&out);
    assert!(
        err.contains(
            "juror-pandalm-researcher-2026-11-25.json: preview: a researcher's preview run"
        ),
        "{err}"
    );
    assert!(
        err.contains("summeval_expert_long.csv: not a ratings file"),
        "{err}"
    );
    assert!(
        !err.contains(&*shared_dir("analyze").display().to_string()),
        "{err}"
    );
    // `analyze --reveal-ids` writes the worker's id as MTurk does too.
    let revealed = json(&juror(&["--study", &study, "--reveal-ids", &paths[0]]));
    assert_eq!(revealed["inputs"][0]["annotator"], "A1B2C3D4E5");
    let out = support::juror()
        .args(["payments", "missing-study.json", &paths[0]])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

/// Ratings files of two studies without `--study` or `--key`: none is read, each is named on
/// standard error with the studies and what to do, and nothing is called a duplicate (both
/// files are slot 1's); the report covers nothing of theirs.
#[test]
fn ratings_files_of_two_studies_are_refused_not_merged() {
    let files = [
        fixture("financial-slot1.json"),
        fixture("pandalm-slot1.json"),
    ];
    let out = juror(&args(&[], &files));
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert_eq!(
        err.matches("study.id: this file is for the study").count(),
        2,
        "{err}"
    );
    assert!(
        err.contains(
            "2 studies: \"financial-analysis-2024w10\" (1 file), \"pandalm-bloom-llama\" (1 file)"
        ),
        "{err}"
    );
    assert!(err.contains("or give the study file (`--study`"), "{err}");
    assert!(!err.contains("duplicate"), "{err}");
    let report = json(&out);
    assert_eq!(report["settings"]["ratings"], 0);
    assert_eq!(report["settings"]["preferences"], 0);
}

/// `--format wide`: one row per annotator and item, the outputs seen side by side by letter with
/// the system each letter was, in the study's order of dimensions, then the preferred letter.
#[test]
fn the_wide_table_has_a_row_per_annotator_and_item() {
    let files = [
        fixture("work-intake-slot1.json"),
        fixture("work-intake-slot2.json"),
    ];
    let study = root()
        .join("assets/studies/work-intake.json")
        .display()
        .to_string();
    let out = juror(&args(&["--study", &study, "--format", "wide"], &files));
    assert!(out.status.success(), "{}", stderr(&out));
    let text = String::from_utf8(out.stdout).unwrap();
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    assert_eq!(
        &header[..6],
        &[
            "annotator_id",
            "item_id",
            "system-A",
            "system-B",
            "system-C",
            "system-D"
        ]
    );
    assert_eq!(&header[6..8], &["relevance-A", "relevance-B"]);
    assert_eq!(&header[header.len() - 2..], &["preferred", "notes"]);
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
    // Two annotators, nine items each.
    assert_eq!(rows.len(), 18);
    for row in &rows {
        let mut systems = row[2..6].to_vec();
        systems.sort_unstable();
        assert_eq!(
            systems,
            [
                "full-pipeline",
                "no-evidence",
                "retrieval-only",
                "zero-shot"
            ]
        );
        assert!(
            ["A", "B", "C", "D"].contains(&row[row.len() - 2]),
            "{row:?}"
        );
    }
}

/// A success criterion from the study's plan (`analysis.thresholds`) and one from the command
/// line are both reported over participants; a criterion naming an unknown system, or not
/// written DIM:SYSTEM:VALUE, stops the analysis with a sentence.
#[test]
fn success_criteria_come_from_the_plan_and_the_command_line() {
    let study_text = std::fs::read_to_string(root().join("assets/studies/hare-personalization.json"))
        .unwrap()
        .replacen(
            "\"analysis\": {",
            "\"analysis\": {\n    \"thresholds\": [{\"dimension\": \"quality\", \"system\": \"hare\", \"at_least\": 3.5}],",
            1,
        );
    let study = tmp("thresholds-study.json");
    std::fs::create_dir_all(study.parent().unwrap()).unwrap();
    std::fs::write(&study, study_text).unwrap();
    let study = study.display().to_string();
    let ratings = fixture("hare-ratings.csv");
    let out = juror(&[
        "--study",
        &study,
        "--threshold",
        "relevance:rag:3",
        &ratings,
    ]);
    let report = json(&out);
    let criteria = report["thresholds"].as_array().expect("thresholds");
    assert_eq!(criteria.len(), 2);
    assert_eq!(criteria[0]["system"], "hare");
    assert_eq!(criteria[1]["dimension"], "relevance");
    assert_eq!(criteria[0]["participants"], 12);
    assert!(criteria[0]["p_t"].as_f64().unwrap() < 0.05);
    for bad in ["quality:nobody:3", "quality-hare-3", "quality:hare:high"] {
        let out = juror(&["--study", &study, "--threshold", bad, &ratings]);
        assert_eq!(out.status.code(), Some(2), "{bad}");
        assert!(
            stderr(&out).contains("nobody") || stderr(&out).contains("DIMENSION:SYSTEM:VALUE"),
            "{}",
            stderr(&out)
        );
    }
}

/// `juror analyze SPANS.csv ESA.csv --format json`: per system the MQM score and the ESA mean,
/// and over the study the character-level F1 and alpha, as the reference script computes them
/// (`crates/juror-core/tests/reference/spans/`: numpy, scipy, krippendorff) on the same table.
#[test]
fn error_spans_and_esa_scores_give_mqm_esa_f1_and_alpha() {
    let spans = committed("crates/juror-core/tests/reference/spans/spans.csv");
    let spans = spans.display().to_string();
    let esa = fixture("esa-scores.csv");
    let out = juror(&[&spans, &esa, "--format", "json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let r = json(&out);
    let want: Value = serde_json::from_str(
        &std::fs::read_to_string(committed(
            "crates/juror-core/tests/reference/spans/reference.json",
        ))
        .unwrap(),
    )
    .unwrap();
    let s = &r["spans"];
    for system in s["systems"].as_array().unwrap() {
        let name = system["system"].as_str().unwrap();
        close(
            &format!("mqm {name}"),
            &system["mqm"]["mean"],
            &want["mqm"][name]["mean"],
            1e-9,
        );
        assert_eq!(system["mqm"]["n"], want["mqm"][name]["n"]);
    }
    close("f1", &s["f1"]["value"], &want["f1"]["value"], 1e-9);
    assert_eq!(s["f1"]["pairs"], want["f1"]["pairs"]);
    close("alpha", &s["alpha"]["value"], &want["alpha"]["value"], 1e-9);
    assert_eq!(s["alpha"]["characters"], want["alpha"]["characters"]);
    // The ESA mean: per item the annotators' mean, then the mean over items.
    let text = std::fs::read_to_string(&esa).unwrap();
    let mut cells: BTreeMap<(String, String), Vec<f64>> = BTreeMap::new();
    for line in text.lines().skip(1) {
        let f: Vec<&str> = line.split(',').collect();
        cells
            .entry((f[1].to_owned(), f[0].to_owned()))
            .or_default()
            .push(f[4].parse().unwrap());
    }
    let dims = r["dimensions"].as_array().unwrap();
    let esa = dims.iter().find(|d| d["dimension"] == "esa").unwrap();
    let mqm = dims.iter().find(|d| d["dimension"] == "mqm").unwrap();
    assert!(mqm["label"].as_str().unwrap().contains("lower is better"));
    for system in esa["systems"].as_array().unwrap() {
        let name = system["system"].as_str().unwrap();
        let items: Vec<f64> = cells
            .iter()
            .filter(|((s, _), _)| s == name)
            .map(|(_, v)| v.iter().sum::<f64>() / v.len() as f64)
            .collect();
        let mean = items.iter().sum::<f64>() / items.len() as f64;
        close(
            &format!("esa {name}"),
            &system["mean"],
            &serde_json::json!(mean),
            1e-12,
        );
    }
}

/// A second phase's ratings (here a tidy table by the same annotator ids) are broken down by the
/// first phase's intake answers with `--intake FILES`: only intake answers are joined, by
/// annotator id, and only for annotators who rated something in this phase.
#[test]
fn an_earlier_phases_intake_answers_join_this_phases_ratings() {
    let mut csv = String::from("item_id,system_id,annotator_id,dimension,score\n");
    for (annotator, base) in [("slot1", 4), ("slot2", 2), ("slot3", 5), ("stranger", 3)] {
        for item in ["i1", "i2", "i3"] {
            csv.push_str(&format!("{item},a,{annotator},quality,{base}\n"));
            csv.push_str(&format!("{item},b,{annotator},quality,{}\n", base - 1));
        }
    }
    let table = tmp("second-phase.csv");
    std::fs::write(&table, csv).unwrap();
    let table = table.display().to_string();
    let earlier: Vec<String> = (1..=3)
        .map(|s| fixture(&format!("hare-slot{s}.json")))
        .collect();
    let mut head = vec!["--by-intake", "role", "--intake"];
    head.extend(earlier.iter().map(String::as_str));
    head.extend(["--format", "answers", "--"]);
    let out = juror(&[head.as_slice(), &[table.as_str()]].concat());
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let answers = String::from_utf8_lossy(&out.stdout);
    assert!(
        answers.contains("slot2,intake,role,,,Researcher or academic"),
        "{answers}"
    );
    assert!(
        !answers.contains(",output,"),
        "only intake answers are joined: {answers}"
    );

    head.truncate(head.len() - 3);
    head.push("--");
    let r = json(&juror(&[head.as_slice(), &[table.as_str()]].concat()));
    let groups = r["dimensions"][0]["intake_groups"].as_array().unwrap();
    let of = |name: &str| {
        groups
            .iter()
            .find(|g| g["group"] == name)
            .unwrap_or_else(|| panic!("no group {name}: {groups:?}"))
    };
    // Slots 1 and 3 are students (a scores 4 and 5), slot 2 a researcher (2); the stranger
    // answered no intake and is in no group.
    let students = of("Student (undergraduate or graduate)");
    let a = students["systems"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["system"] == "a")
        .unwrap();
    assert_eq!(a["mean"].as_f64(), Some(4.5));
    let researcher = of("Researcher or academic");
    let a = researcher["systems"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["system"] == "a")
        .unwrap();
    assert_eq!(a["mean"].as_f64(), Some(2.0));
    assert_eq!(groups.len(), 2);
}

/// `juror analyze --standardise annotator --format json` on a tidy CSV of 0–100 slider scores:
/// each system's mean z-score beside its raw mean, and the comparisons on the z-scores, as
/// numpy and scipy give them (`crates/juror-core/tests/reference/standardise/`); the two
/// annotators who cannot be standardised are named. Without the flag, no z-scores.
#[test]
fn standardised_scores_sit_beside_the_raw_means() {
    let dir = root().join("crates/juror-core/tests/reference/standardise");
    let want: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("reference.json")).unwrap())
            .unwrap();
    let csv = dir.join("sliders.csv").display().to_string();
    let out = juror(&["--standardise", "annotator", "--format", "json", &csv]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let r = json(&out);
    assert_eq!(r["settings"]["plan"]["standardise"], "annotator");
    let d = &r["dimensions"][0];
    let z = &d["standardised"];
    assert_eq!(z["left_out"][0]["annotator"], "ann-once");
    assert_eq!(z["left_out"][1]["annotator"], "ann-flat");
    for s in z["systems"].as_array().unwrap() {
        let name = s["system"].as_str().unwrap();
        let w = &want["systems"][name];
        close(&format!("{name} mean z"), &s["mean_z"], &w["mean_z"], 1e-9);
        close(
            &format!("{name} raw mean"),
            &s["raw_mean"],
            &w["raw_mean"],
            1e-9,
        );
    }
    for (c, w) in d["comparisons"]
        .as_array()
        .unwrap()
        .iter()
        .zip(want["pairs"].as_array().unwrap())
    {
        close("mean difference", &c["mean_diff"], &w["mean_diff"], 1e-9);
        close("t p", &c["t_test"]["p_value"], &w["t_p"], 1e-9);
        close(
            "Wilcoxon p",
            &c["wilcoxon"]["p_value"],
            &w["wilcoxon_p"],
            1e-9,
        );
    }
    let md = juror(&["--standardise", "annotator", "--format", "md", &csv]);
    assert!(support::stdout(&md).contains("Scores were standardised per annotator"));

    let raw = json(&juror(&["--format", "json", &csv]));
    assert!(raw["dimensions"][0].get("standardised").is_none());
    let bad = juror(&["--standardise", "rater", &csv]);
    assert_eq!(bad.status.code(), Some(2), "{}", stderr(&bad));
    assert!(
        stderr(&bad).contains("--standardise rater: give one of annotator, none"),
        "{}",
        stderr(&bad)
    );
}

/// `juror analyze GRADED.csv --format json`: per graded pair the mean grade over item means, its
/// interval, the Wilcoxon p and the share of each grade, as the reference script computes them
/// (`crates/juror-core/tests/reference/graded/`: numpy, scipy) on the same table; its
/// `cannot_judge` rows counted per system and in no judgement.
#[test]
fn graded_preferences_give_mean_grades_wilcoxon_and_shares() {
    let graded = committed("crates/juror-core/tests/reference/graded/graded.csv");
    let out = juror(&[&graded.display().to_string(), "--format", "json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let r = json(&out);
    let want: Value = serde_json::from_str(
        &std::fs::read_to_string(committed(
            "crates/juror-core/tests/reference/graded/reference.json",
        ))
        .unwrap(),
    )
    .unwrap();
    let pairs = r["graded"]["pairs"].as_array().unwrap();
    assert_eq!(pairs.len(), want["pairs"].as_object().unwrap().len());
    for p in pairs {
        let key = format!(
            "{}|{}",
            p["system_a"].as_str().unwrap(),
            p["system_b"].as_str().unwrap()
        );
        let w = &want["pairs"][&key];
        close(&key, &p["mean_grade"], &w["mean_grade"], 1e-9);
        close(&key, &p["wilcoxon_p"], &w["wilcoxon_p"], 1e-9);
        close(&key, &p["ci"]["low"], &w["ci"][0], 1e-9);
        close(&key, &p["ci"]["high"], &w["ci"][1], 1e-9);
        for share in p["shares"].as_array().unwrap() {
            let grade = share["grade"].as_str().unwrap();
            close(grade, &share["share"], &w["shares"][grade], 1e-9);
        }
    }
    // Collapsed: the win rates count the same judgements, "Cannot judge" in none.
    let judged: u64 = want["pairs"]
        .as_object()
        .unwrap()
        .values()
        .map(|w| w["judgements"].as_u64().unwrap())
        .sum();
    assert_eq!(r["preferences"]["judgements"].as_u64(), Some(judged));
    for c in r["cannot_judge"].as_array().unwrap() {
        assert_eq!(c["question"], "preference");
        assert_eq!(
            c["count"],
            want["cannot_judge"][c["system"].as_str().unwrap()]
        );
    }
}

/// "Cannot judge" in a Likert table's score column: counted per system and dimension, left out
/// of the mean, the tests and the agreement.
#[test]
fn cannot_judge_ratings_are_counted_and_left_out_of_means() {
    let dir = support::scratch("analyze-cannot-judge");
    let table = dir.join("ratings.csv");
    std::fs::write(
        &table,
        "item_id,system_id,annotator_id,dimension,score\n\
         i1,x,p1,quality,4\ni1,x,p2,quality,cannot_judge\ni1,y,p1,quality,2\n\
         i1,y,p2,quality,3\ni2,x,p1,quality,5\ni2,x,p2,quality,3\ni2,y,p1,quality,cannot_judge\n\
         i2,y,p2,quality,1\n",
    )
    .unwrap();
    let out = juror(&[support::s(&table), "--format", "json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let r = json(&out);
    assert_eq!(r["settings"]["ratings"], 6);
    let systems = r["dimensions"][0]["systems"].as_array().unwrap();
    let mean = |name: &str| {
        systems
            .iter()
            .find(|s| s["system"] == name)
            .map(|s| s["mean"].as_f64().unwrap())
            .unwrap()
    };
    // x: item means 4 and 4; y: 2.5 and 1. A cannot_judge is no midpoint.
    assert_eq!((mean("x"), mean("y")), (4.0, 1.75));
    let counts = r["cannot_judge"].as_array().unwrap();
    assert_eq!(counts.len(), 2);
    for c in counts {
        assert_eq!(
            (c["question"].as_str(), c["count"].as_u64()),
            (Some("quality"), Some(1))
        );
    }
}

/// `juror analyze BEST_WORST.csv --format json`: per system the best, worst and shown counts,
/// the counting score and the centred maxdiff utility (with its standard error), as the
/// reference script computes them (`crates/juror-core/tests/reference/best_worst/`: numpy,
/// scipy) on the same tidy rows; and `--format csv` writes the rows back in the choice format,
/// which read again give the same analysis.
#[test]
fn best_worst_judgements_give_counts_counting_scores_and_maxdiff_utilities() {
    let csv = committed("crates/juror-core/tests/reference/best_worst/best_worst.csv");
    let csv = csv.display().to_string();
    let out = juror(&[&csv, "--format", "json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let r = json(&out);
    let want: Value = serde_json::from_str(
        &std::fs::read_to_string(committed(
            "crates/juror-core/tests/reference/best_worst/reference.json",
        ))
        .unwrap(),
    )
    .unwrap();
    let b = &r["choices"]["best_worst"];
    assert_eq!(b["judgements"], want["judgements"]);
    let systems = b["systems"].as_array().unwrap();
    assert_eq!(systems.len(), 6);
    for (i, s) in systems.iter().enumerate() {
        assert_eq!(s["system"], want["systems"][i]);
        for key in ["shown", "best", "worst"] {
            assert_eq!(s[key].as_f64(), want[key][i].as_f64(), "{key} {i}");
        }
        close(
            "counting score",
            &s["counting_score"],
            &want["counting_score"][i],
            1e-9,
        );
        close("utility", &s["utility"], &want["utility"][i], 1e-6);
        close("utility se", &s["utility_se"], &want["utility_se"][i], 1e-6);
        let ci = &s["counting_ci"];
        let score = s["counting_score"].as_f64().unwrap();
        assert!(ci["low"].as_f64().unwrap() <= score && score <= ci["high"].as_f64().unwrap());
    }
    close(
        "log-likelihood",
        &b["maxdiff_log_likelihood"],
        &want["log_likelihood"],
        1e-6,
    );
    let half = b["split_half"]["spearman_brown"].as_f64().unwrap();
    assert!(half > 0.5 && half <= 1.0, "{half}");
    assert_eq!(b["positions"].as_array().unwrap().len(), 4);
    // Both ways: the tidy CSV written has the choice rows, and reading it gives the same report.
    let tidy = juror(&[&csv, "--format", "csv"]);
    assert_eq!(tidy.status.code(), Some(0), "{}", stderr(&tidy));
    let text = String::from_utf8(tidy.stdout).unwrap();
    assert!(
        text.contains(",best_worst,sys-a|sys-b|sys-f|sys-d,sys-a|sys-f,"),
        "{text}"
    );
    let again = support::scratch("best-worst").join("again.csv");
    std::fs::write(&again, text).unwrap();
    let back = json(&juror(&[&again.display().to_string(), "--format", "json"]));
    assert_eq!(back["choices"]["best_worst"]["systems"], b["systems"]);
}

/// `--divergence` asks for the systems' output divergence across annotators on a study whose
/// plan does not: the numbers are those of the core's reference script (scikit-learn); without
/// the flag there is no section, and without the study the report says why.
#[test]
fn divergence_across_annotators_comes_with_the_flag() {
    let dir = "crates/juror-core/tests/reference/divergence";
    let want: Value = serde_json::from_str(
        &std::fs::read_to_string(committed(&format!("{dir}/reference.json"))).unwrap(),
    )
    .unwrap();
    let text = std::fs::read_to_string(committed(&format!("{dir}/study.json"))).unwrap();
    let unplanned = text.replace("\"analysis\": {\"divergence\": true},", "");
    assert_ne!(unplanned, text, "the fixture's plan asks for divergence");
    let study = tmp("divergence-study.json");
    std::fs::create_dir_all(study.parent().unwrap()).unwrap();
    std::fs::write(&study, unplanned).unwrap();
    let study = study.display().to_string();
    let ratings = committed(&format!("{dir}/ratings.csv"))
        .display()
        .to_string();

    let out = juror(&[
        "--study",
        &study,
        "--divergence",
        "--format",
        "json",
        &ratings,
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let report = json(&out);
    let rows = report["divergence"].as_array().expect("divergence");
    assert_eq!(rows.len(), 3);
    for row in rows {
        let system = row["system"].as_str().unwrap();
        let w = &want["systems"][system];
        let close = |got: &Value, want: &Value| {
            let (got, want) = (got.as_f64().unwrap(), want.as_f64().unwrap());
            assert!((got - want).abs() <= 1e-9, "{system}: {got} vs {want}");
        };
        close(&row["mean"], &w["mean"]);
        close(&row["ci95"]["low"], &w["ci95"][0]);
        close(&row["ci95"]["high"], &w["ci95"][1]);
        assert_eq!(row["prompts"], w["prompts"]);
        assert_eq!(row["pairs"], w["pairs"]);
    }

    let out = juror(&["--study", &study, "--format", "json", &ratings]);
    assert!(json(&out).get("divergence").is_none(), "not asked for");

    let out = juror(&["--divergence", "--format", "json", &ratings]);
    assert_eq!(out.status.code(), Some(1), "a problem: {}", stderr(&out));
    assert!(stderr(&out).contains("give the study"), "{}", stderr(&out));
}

/// `--exclude-unadjudicated` sets the flagged cells without an expert's score aside from the
/// systems and comparisons (agreement unchanged), and the report's settings and methods say so.
#[test]
fn flagged_cells_without_a_score_can_be_set_aside() {
    let files = financial();
    let plain = json(&juror(&args(&["--seed", "3"], &files)));
    let aside = json(&juror(&args(
        &["--seed", "3", "--exclude-unadjudicated"],
        &files,
    )));
    let flagged = plain["dimensions"][0]["flags"].as_array().unwrap().len();
    assert!(flagged > 0);
    assert_eq!(
        aside["dimensions"][0]["set_aside"].as_u64(),
        Some(flagged as u64)
    );
    assert_eq!(aside["settings"]["exclude_unadjudicated"], true);
    assert!(plain["dimensions"][0].get("set_aside").is_none());
    assert_eq!(
        plain["dimensions"][0]["agreement"],
        aside["dimensions"][0]["agreement"]
    );
    assert_ne!(
        plain["dimensions"][0]["systems"],
        aside["dimensions"][0]["systems"]
    );
    let md = juror(&args(
        &["--seed", "3", "--exclude-unadjudicated", "--format", "md"],
        &files,
    ));
    assert!(String::from_utf8_lossy(&md.stdout).contains("were set aside"));
}

/// Several experts per cell: two who disagree leave the cell unresolved (set aside with
/// `--exclude-unadjudicated`, counted and said in the report), two who agree give their score,
/// and a `resolved` row settles a disagreement; every expert's score is in the report and the
/// sheet written back, which shows the item's prompt and the system's output with the study.
#[test]
fn several_experts_disagree_agree_or_are_resolved() {
    let files = financial();
    let study = root().join("assets/studies/financial-analysis.json");
    let study = study.display().to_string();
    let plain = json(&juror(&args(&["--study", &study], &files)));
    let flags = plain["dimensions"][0]["flags"].as_array().unwrap().clone();
    assert!(flags.len() >= 3, "{flags:?}");
    let cell = |k: usize| {
        format!(
            "{},{},quality",
            flags[k]["item"].as_str().unwrap(),
            flags[k]["system"].as_str().unwrap()
        )
    };
    let write = |name: &str, rows: &[String]| {
        let path = tmp(name);
        let text = format!(
            "item_id,system_id,dimension,expert,score\n{}\n",
            rows.join("\n")
        );
        std::fs::write(&path, text).unwrap();
        path.display().to_string()
    };
    let (a, b, c) = (cell(0), cell(1), cell(2));
    let file = write(
        "experts.csv",
        &[
            format!("{a},ana,1"),
            format!("{a},ben,5"),
            format!("{b},ana,4"),
            format!("{b},ben,4"),
            format!("{c},ana,1"),
            format!("{c},ben,5"),
            format!("{c},resolved,3"),
        ],
    );
    let sheet = tmp("experts-sheet.csv");
    let sheet_arg = sheet.display().to_string();
    let head = [
        "--study",
        &study,
        "--adjudication",
        &file,
        "--exclude-unadjudicated",
        "--adjudication-sheet",
        &sheet_arg,
    ];
    let out = juror(&args(&head, &files));
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let report = json(&out);
    let got = &report["dimensions"][0]["flags"];
    let experts = |k: usize| got[k]["experts"].clone();
    assert_eq!(
        experts(0),
        serde_json::json!([{"expert": "ana", "score": 1.0}, {"expert": "ben", "score": 5.0}])
    );
    assert_eq!(got[0]["adjudicated"], Value::Null, "they disagree");
    assert_eq!(got[1]["adjudicated"], 4.0, "they agree");
    assert_eq!(got[2]["adjudicated"], 3.0, "resolved");
    assert_eq!(report["adjudication"]["unresolved"], 1);
    assert_eq!(report["adjudication"]["cells"], 2);
    assert_eq!(
        report["dimensions"][0]["set_aside"].as_u64(),
        Some(flags.len() as u64 - 2),
        "the disagreeing cell is set aside with the cells nobody scored"
    );
    // The Markdown lists each expert and says the cell is not adjudicated.
    let md = juror(&args(&[&head[..5], &["--format", "md"]].concat(), &files));
    let md = String::from_utf8_lossy(&md.stdout);
    assert!(md.contains(r"| 1 \(ana\), 5 \(ben\) | – |"), "{md}");
    assert!(
        md.contains("1 cell(s) whose experts disagree have no resolved score"),
        "{md}"
    );
    assert!(md.contains("Where several experts scored a cell"), "{md}");
    // The sheet keeps every expert's row and the resolved one, with the item beside them.
    let text = std::fs::read_to_string(&sheet).unwrap();
    assert!(text.contains(&format!("{a},1,ana,")), "{text}");
    assert!(text.contains(&format!("{c},3,resolved,")), "{text}");
    assert!(
        !text.contains(&format!("{b},4,resolved,")),
        "agreement needs no resolved row"
    );
    assert!(text.contains("Analyse **"), "the prompt: {text}");
    // Read back, the sheet gives the same cells.
    let again = json(&juror(&args(
        &["--study", &study, "--adjudication", &sheet_arg],
        &files,
    )));
    assert_eq!(
        again["dimensions"][0]["flags"],
        report["dimensions"][0]["flags"]
    );
}

/// `juror analyze --study kitchen-qa.json` on ratings files whose annotators said "Cannot judge"
/// on the Correctness dimension (which offers it): each counted per system in `cannot_judge`, and
/// every mean the one computed here from the files' scores alone (the mean over items of the item
/// means), never with a skip as a midpoint.
#[test]
fn a_ratings_files_cannot_judge_is_counted_and_left_out_of_means() {
    use juror_core::plan::Annotator;
    use juror_core::session::ratings::export;
    use juror_core::session::{
        Answer, Msg, Phase, Preference, Reply, Session, Survey, Target, update,
    };
    let study_path = root().join("assets/studies/kitchen-qa.json");
    let text = std::fs::read_to_string(&study_path).unwrap();
    let study = juror_core::study::parse_study(&text).unwrap();
    let hash = juror_core::base::digest::sha256_hex(&text);
    let mut files = Vec::new();
    let mut skips: BTreeMap<String, u64> = BTreeMap::new();
    let mut scores: BTreeMap<String, BTreeMap<String, Vec<f64>>> = BTreeMap::new();
    for slot in 1..=3usize {
        let mut s = Session::new(&study, Annotator::slot(slot as u32));
        let mut now = 1.0;
        while s.progress.phase != Phase::Done {
            now += 1.0;
            let msgs = match s.progress.phase {
                Phase::Welcome => vec![Msg::Start],
                Phase::Consent => vec![Msg::Consent(true)],
                Phase::Instructions => vec![Msg::FinishInstructions],
                Phase::Intake => vec![
                    Msg::answer(
                        Target::Survey {
                            question: "cook_freq".into(),
                        },
                        Reply::Answer(Answer::Choice("Weekly".into())),
                    ),
                    Msg::SubmitSurvey(Survey::Intake),
                ],
                Phase::Trials => {
                    let i = s.progress.current;
                    let task = &study.design().tasks[s.plan.trials[i].task];
                    let mut msgs = Vec::new();
                    for position in 0..s.plan.trials[i].shown.len() {
                        for d in &task.dimensions {
                            let k = (i + slot) % 3;
                            msgs.push(if d == "correct" && k == 0 {
                                Msg::answer(
                                    Target::Rating {
                                        position,
                                        dimension: d.clone(),
                                    },
                                    Reply::CannotJudge,
                                )
                            } else {
                                Msg::answer(
                                    Target::Rating {
                                        position,
                                        dimension: d.clone(),
                                    },
                                    Reply::Score(if d == "correct" { 1 + k as i32 } else { 3 }),
                                )
                            });
                        }
                    }
                    if task.preference.is_some() {
                        msgs.push(Msg::answer(
                            Target::Preference,
                            Reply::Preference(Preference::Choice { position: 0 }),
                        ));
                    }
                    msgs.push(Msg::Next);
                    msgs
                }
                other => panic!("the kitchen example has no {other:?} to pass"),
            };
            for msg in msgs {
                update(&study, &mut s, msg, now);
            }
        }
        let file = export(&study, &hash, &s, "test", 1.8e12);
        for t in file.trials.iter().filter(|t| t.done && !t.check) {
            for o in &t.outputs {
                if let Some(v) = o.ratings.get("correct") {
                    let item = scores.entry(o.system.clone()).or_default();
                    item.entry(t.item.clone()).or_default().push(f64::from(*v));
                }
                if o.cannot_judge.contains(&"correct".to_owned()) {
                    *skips.entry(o.system.clone()).or_default() += 1;
                }
            }
        }
        let path = tmp(&format!("juror-kitchen-qa-slot{slot}-2026-11-26.json"));
        std::fs::write(&path, file.to_json()).unwrap();
        files.push(path.display().to_string());
    }
    let study_arg = study_path.display().to_string();
    let out = juror(&args(&["--study", &study_arg, "--format", "json"], &files));
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let r = json(&out);
    let counts: BTreeMap<String, u64> = r["cannot_judge"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["question"] == "correct")
        .map(|c| {
            (
                c["system"].as_str().unwrap().to_owned(),
                c["count"].as_u64().unwrap(),
            )
        })
        .collect();
    assert!(skips.values().sum::<u64>() > 0);
    assert_eq!(counts, skips);
    let correct = r["dimensions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["dimension"] == "correct")
        .unwrap();
    let mean = |xs: &[f64]| xs.iter().sum::<f64>() / xs.len() as f64;
    for system in correct["systems"].as_array().unwrap() {
        let name = system["system"].as_str().unwrap();
        let items: Vec<f64> = scores[name].values().map(|xs| mean(xs)).collect();
        close(
            &format!("mean {name}"),
            &system["mean"],
            &Value::from(mean(&items)),
            1e-12,
        );
    }
    let scored: usize = scores.values().flat_map(|i| i.values()).map(Vec::len).sum();
    assert_eq!(correct["ratings"].as_u64(), Some(scored as u64));
}

/// The two-domains example's plan scopes its confirmatory analysis to the items with domain
/// claude-skills: `juror analyze --study` reports the scope, tests and corrects only those
/// items (Bonferroni over the 4 comparisons and H3), and reports the study-plans items apart,
/// each comparison exploratory with no adjusted p-value, with their slopes over rounds; the
/// Markdown says so. A scope naming a value no item has is refused, placed, before anything
/// is read.
#[test]
fn a_confirmatory_scope_reports_the_other_domain_apart() {
    let study = root().join("assets/studies/two-domains.json");
    let study_arg = study.display().to_string();
    let files = vec![fixture("two-domains-ratings.csv")];
    let out = juror(&args(&["--study", &study_arg, "--format", "json"], &files));
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let r = json(&out);
    assert_eq!(
        r["settings"]["plan"]["confirmatory"],
        serde_json::json!({"grouping": "domain", "group": "claude-skills"})
    );
    let scope = &r["scope"];
    assert_eq!(scope["items"], 3);
    assert_eq!(scope["ratings"], 108);
    let personalization = |dimensions: &Value| {
        dimensions
            .as_array()
            .unwrap()
            .iter()
            .find(|d| d["dimension"] == "personalization")
            .unwrap()
            .clone()
    };
    let confirmatory = personalization(&r["dimensions"]);
    assert_eq!(confirmatory["items"], 3);
    for c in confirmatory["comparisons"].as_array().unwrap() {
        assert_eq!(c["exploratory"], false);
        let (p, adjusted) = (c["p_value"].as_f64().unwrap(), c["p_adjusted"].as_f64());
        assert_eq!(adjusted, Some((5.0 * p).min(1.0)), "{c}");
    }
    let secondary = &scope["secondary"][0];
    assert_eq!(secondary["group"], "study-plans");
    assert_eq!(secondary["items"], 3);
    let other = personalization(&secondary["dimensions"]);
    assert_eq!(other["items"], 3);
    for c in other["comparisons"].as_array().unwrap() {
        assert_eq!(c["exploratory"], true);
        assert!(c["p_value"].is_f64());
        assert!(
            c["p_adjusted"].is_null() && c["p_bonferroni"].is_null(),
            "{c}"
        );
    }
    assert_eq!(
        other["rounds"]["rounds"],
        serde_json::json!([1.0, 2.0, 3.0])
    );
    let h3 = &secondary["hypotheses"][0];
    assert_eq!(
        (&h3["corrected"], &h3["exploratory"]),
        (&Value::from(false), &Value::from(true))
    );
    assert_eq!(h3["p_adjusted"], h3["p_value"]);

    let out = juror(&args(&["--study", &study_arg, "--format", "md"], &files));
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let md = String::from_utf8(out.stdout).unwrap();
    assert!(md.contains("The confirmatory analysis is on the 3 item(s) with domain claude-skills"));
    assert!(md.contains("## Secondary analysis: items with domain study-plans"));
    assert!(md.contains("### Personalization, secondary: domain study-plans"));

    let text = std::fs::read_to_string(&study).unwrap();
    let wrong = tmp("two-domains-wrong-scope.json");
    std::fs::write(
        &wrong,
        text.replace(
            "\"domain\": \"claude-skills\"\n      }\n    },",
            "\"domain\": \"skills\"\n      }\n    },",
        ),
    )
    .unwrap();
    let wrong_arg = wrong.display().to_string();
    let out = juror(&args(&["--study", &wrong_arg, "--format", "json"], &files));
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(
        err.contains("analysis.confirmatory.groups.domain: no item has domain \"skills\"")
            && err.contains("use one of: claude-skills, study-plans"),
        "{err}"
    );
}

/// Whether one system's outputs diverge more than another's, as the plan's divergence
/// hypotheses say: the JSON's `divergence_comparisons` are the reference's (scipy's paired
/// tests of the per-prompt divergences), the Markdown has their table; flags that change the
/// plan's comparisons and alternative change them (exploratory), the hypotheses still orient
/// their pairs; asked for without the study there is no comparison and a problem says why.
#[test]
fn divergence_comparisons_follow_the_plan_and_its_overrides() {
    let dir = "crates/juror-core/tests/reference/divergence";
    let want: Value = serde_json::from_str(
        &std::fs::read_to_string(committed(&format!("{dir}/reference.json"))).unwrap(),
    )
    .unwrap();
    let want = want["comparisons"]["comparisons-study.json"]
        .as_array()
        .unwrap();
    let study = committed(&format!("{dir}/comparisons-study.json"))
        .display()
        .to_string();
    let ratings = committed(&format!("{dir}/comparisons-ratings.csv"))
        .display()
        .to_string();

    let out = juror(&["--study", &study, "--format", "json", &ratings]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let report = json(&out);
    assert_eq!(report["settings"]["plan_source"], "study");
    let got = report["divergence_comparisons"]
        .as_array()
        .expect("compared");
    assert_eq!(got.len(), want.len());
    for (c, w) in got.iter().zip(want) {
        let at = format!("{} vs {}", c["system_a"], c["system_b"]);
        assert_eq!((&c["system_a"], &c["system_b"]), (&w["a"], &w["b"]), "{at}");
        assert_eq!(c["alternative"], w["alternative"], "{at}");
        assert_eq!(
            c.get("hypothesis").unwrap_or(&Value::Null),
            &w["hypothesis"]
        );
        assert_eq!(c["n"], w["n"], "{at}");
        for (got, key) in [
            (&c["mean_diff"], "mean_diff"),
            (&c["mean_diff_ci95"]["low"], "ci95"),
            (&c["wilcoxon"]["p_value"], "p_wilcoxon"),
            (&c["t_test"]["p_value"], "p_t"),
            (&c["p_adjusted"], "p_adjusted"),
            (&c["d_z"], "d_z"),
        ] {
            let w = if key == "ci95" { &w[key][0] } else { &w[key] };
            close(&format!("{at} {key}"), got, w, 1e-9);
        }
    }
    let hare_rag = &got[1];
    assert_eq!(hare_rag["hypothesis"], "Divergence above RAG");
    assert!(hare_rag["p_adjusted"].as_f64().unwrap() < 0.05);

    let md = juror(&["--study", &study, "--format", "md", &ratings]);
    let md = String::from_utf8_lossy(&md.stdout);
    assert!(md.contains("### Comparisons of divergence"), "{md}");
    assert!(
        md.contains("| hare | rag | Divergence above RAG (A > B) | 9 | 0.897 | 0.062 | 0.836 |"),
        "{md}"
    );

    // Another anchor and alternative at analysis time: RAG against each other system, both
    // pairs turned round by the hypotheses that name them the other way; no pair left
    // without a hypothesis, so the alternative asked for shows nowhere.
    let out = juror(&[
        "--study",
        &study,
        "--anchor",
        "rag",
        "--alternative",
        "less",
        "--format",
        "json",
        &ratings,
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let report = json(&out);
    assert_eq!(report["settings"]["plan_source"], "options");
    let pairs: Vec<(String, String, String)> = report["divergence_comparisons"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["system_a"].as_str().unwrap().to_owned(),
                c["system_b"].as_str().unwrap().to_owned(),
                c["alternative"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    assert_eq!(
        pairs,
        [
            ("gpt2".into(), "rag".into(), "greater".into()),
            ("hare".into(), "rag".into(), "greater".into())
        ]
    );
    // Every pair, one-sided where no hypothesis says otherwise: HARE against GPT-2 "less".
    let out = juror(&[
        "--study",
        &study,
        "--all-pairs",
        "--alternative",
        "less",
        "--format",
        "json",
        &ratings,
    ]);
    let report = json(&out);
    let list = report["divergence_comparisons"].as_array().unwrap();
    assert_eq!(list.len(), 3);
    let gpt2_hare = list
        .iter()
        .find(|c| c["system_a"] == "gpt2" && c["system_b"] == "hare")
        .expect("every pair, in byte order");
    assert_eq!(gpt2_hare["alternative"], "less");

    let out = juror(&["--divergence", "--format", "json", &ratings]);
    assert_eq!(out.status.code(), Some(1), "a problem: {}", stderr(&out));
    let report = json(&out);
    assert!(report.get("divergence_comparisons").is_none());
    assert!(stderr(&out).contains("give the study"), "{}", stderr(&out));
}

/// The reasoning-trajectories study's plan pre-registers setting aside the flagged cells not yet
/// adjudicated (`analysis.exclude_unadjudicated`, as its disagreement-resolution protocol asks):
/// `--study` alone sets them aside, the report records where the choice came from, and the
/// methods paragraph says it; without the study (the default plan) nothing is set aside.
#[test]
fn the_plan_pre_registers_setting_unadjudicated_cells_aside() {
    let files: Vec<String> = (1..=3)
        .map(|s| fixture(&format!("trajectories-slot{s}.json")))
        .collect();
    let study = root().join("assets/studies/reasoning-trajectories.json");
    let study = study.display().to_string();
    let head = ["--flag-sd", "0.5"];
    let planned = json(&juror(&args(
        &[&head[..], &["--study", &study]].concat(),
        &files,
    )));
    assert_eq!(planned["settings"]["plan_source"], "study");
    assert_eq!(planned["settings"]["exclude_unadjudicated"], true);
    assert_eq!(planned["settings"]["plan"]["exclude_unadjudicated"], true);
    let mut flagged = 0;
    for d in planned["dimensions"].as_array().unwrap() {
        let flags = d["flags"].as_array().unwrap().len();
        flagged += flags;
        assert_eq!(
            d["set_aside"].as_u64().unwrap_or(0),
            flags as u64,
            "{}",
            d["dimension"]
        );
    }
    assert!(flagged > 0, "the fixture has flagged cells at SD 0.5");
    let md = juror(&args(
        &[&head[..], &["--study", &study, "--format", "md"]].concat(),
        &files,
    ));
    let md = String::from_utf8_lossy(&md.stdout);
    assert!(
        md.contains("as the analysis plan pre-registers, flagged cells without an adjudicated score were set aside"),
        "{md}"
    );

    let default = json(&juror(&args(&head, &files)));
    assert_eq!(default["settings"].get("exclude_unadjudicated"), None);
    for d in default["dimensions"].as_array().unwrap() {
        assert!(d.get("set_aside").is_none(), "{}", d["dimension"]);
    }
}

/// `--ties davidson --bt-intervals sandwich`: the leaderboard by Davidson's model and no
/// bootstrap; `--raters dawid-skene,mace`: one fit per nominal answer, both models; a word not
/// known is a usage error that lists the words.
#[test]
fn rankings_and_rater_models_are_chosen_by_flags() {
    let files: Vec<String> = (1..=3)
        .map(|s| fixture(&format!("pandalm-slot{s}.json")))
        .collect();
    let out = juror(&args(
        &[
            "--ties",
            "davidson",
            "--bt-intervals",
            "sandwich",
            "--raters",
            "dawid-skene,mace",
        ],
        &files,
    ));
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let r = json(&out);
    let p = &r["preferences"];
    assert_eq!(p["leaderboard"]["ties"], "davidson");
    assert!(p["leaderboard"]["tie_parameter"]["nu"].as_f64().unwrap() > 0.0);
    let scores = p["bradley_terry"]["scores"].as_object().unwrap();
    assert!(scores.values().all(|s| s["ci"].is_null()), "no bootstrap");
    assert_eq!(r["settings"]["plan"]["ties"], "davidson");
    let choice = r["raters"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["answer"] == "choice")
        .expect("a fit of the choices");
    assert_eq!(choice["models"], serde_json::json!(["dawid_skene", "mace"]));
    let annotator = &choice["annotators"][0];
    assert!(annotator["accuracy"].is_f64() && annotator["competence"].is_f64());

    let out = juror(&args(&["--ties", "thirds"], &files));
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("invalid value 'thirds' for '--ties <MODEL>'"),
        "{}",
        stderr(&out)
    );
}
