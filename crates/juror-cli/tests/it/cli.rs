//! `juror validate` end to end: the binary accepts every example study and rejects every broken
//! fixture, printing exactly the core's problem report and exiting 1.

use std::path::Path;

use super::support::{self, json_files, root};

fn juror(args: &[&Path]) -> std::process::Output {
    support::juror()
        .arg("validate")
        .args(args)
        .output()
        .unwrap()
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

/// The trial count of `juror plan STUDY --slot N`'s header ("... for slot N: 18 trials").
fn plan_trials(study: &Path, slot: u32) -> usize {
    let out = support::juror()
        .args(["plan".as_ref(), study.as_os_str()])
        .args(["--slot", &slot.to_string()])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    let header = stdout.lines().next().unwrap();
    let count = header.rsplit(": ").next().unwrap();
    count.trim_end_matches(" trials").parse().unwrap()
}

/// With an `assignment`, each slot rates only its own items: `juror validate` states the
/// trials of the slots' plans (it once stated every item's, 42 here instead of 30 to 36).
#[test]
fn validate_states_the_trials_each_slot_really_has() {
    let example = root().join("assets/studies/reasoning-trajectories.json");
    let mut study: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&example).unwrap()).unwrap();
    // 6 items and a check, 3 raters per item over 4 slots: 4 or 5 items (with the check) each.
    study["design"]["assignment"]["slots"] = 4.into();
    let path = std::env::temp_dir().join(format!("juror-cli-slots-{}.json", std::process::id()));
    std::fs::write(&path, serde_json::to_string(&study).unwrap()).unwrap();

    let counts: Vec<usize> = (1..=4).map(|slot| plan_trials(&path, slot)).collect();
    let (lo, hi) = (*counts.iter().min().unwrap(), *counts.iter().max().unwrap());
    assert!(lo < hi, "the slots' plans should differ here: {counts:?}");
    let out = juror(&[&path]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    assert!(
        stdout.contains(&format!("{lo} to {hi} trials per annotator (4 slots)")),
        "{stdout} (plans: {counts:?})"
    );

    // The example itself gives every slot the same number, said once.
    let n = plan_trials(&example, 1);
    assert!((2..=9).all(|slot| plan_trials(&example, slot) == n));
    let stdout = String::from_utf8_lossy(&juror(&[&example]).stdout).into_owned();
    assert!(
        stdout.contains(&format!(", {n} trials per annotator (9 slots)")),
        "{stdout}"
    );
}

/// A study that sends files to a service, with a consent text that does not say so, is valid
/// and warned about (the backups too); saying it in the consent text ends the warning.
#[test]
fn a_consent_silent_on_sending_answers_is_warned_about() {
    let dir = support::scratch("cli-consent");
    let mut raw: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(root().join("assets/studies/hare-personalization.json")).unwrap(),
    )
    .unwrap();
    raw["submit"] = serde_json::json!({
        "url": "https://pipe.jspsych.org/api/data/",
        "format": "datapipe",
        "experiment_id": "abc123",
        "backups": true
    });
    let study = dir.join("hare.json");
    let run = |raw: &serde_json::Value| {
        std::fs::write(&study, raw.to_string()).unwrap();
        let out = juror(&[&study]);
        assert_eq!(out.status.code(), Some(0), "{out:?}");
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    let said = run(&raw);
    assert!(
        said.contains("nothing in its consent text says so")
            && said.contains("every 10 trials and at the end"),
        "{said}"
    );
    let consent = raw["consent"]["text"].as_str().unwrap().to_owned();
    raw["consent"]["text"] =
        format!("{consent}\n\nYour answers are sent to the researchers when you finish.").into();
    let said = run(&raw);
    assert!(
        said.contains("the consent text does not say so (no word starting with backup"),
        "{said}"
    );
    raw["consent"]["text"] = format!(
        "{consent}\n\nYour answers are sent to the researchers when you finish, and a backup \
         of your answers so far every 10 trials."
    )
    .into();
    let said = run(&raw);
    assert!(!said.contains("consent text"), "{said}");
}

/// On a terminal (a pseudo-terminal made by `script`), a bidirectional control in a study's id
/// is shown as its escape; written to a pipe, the bytes are kept.
#[test]
fn a_bidi_control_from_a_file_reaches_a_terminal_escaped() {
    let dir = support::scratch("cli-bidi");
    let mut raw: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(root().join("assets/studies/pandalm.json")).unwrap(),
    )
    .unwrap();
    raw["id"] = "pandalm-\u{202e}txt.exe".into();
    let study = dir.join("bidi.json");
    std::fs::write(&study, raw.to_string()).unwrap();

    let piped = juror(&[&study]);
    assert!(piped.status.success(), "{piped:?}");
    assert!(String::from_utf8_lossy(&piped.stdout).contains("pandalm-\u{202e}txt.exe"));

    let command = format!(
        "{} validate {}",
        env!("CARGO_BIN_EXE_juror"),
        study.display()
    );
    let tty = std::process::Command::new("script")
        .args(["-qec", &command, "/dev/null"])
        .output()
        .expect("`script` (util-linux) runs the command on a pseudo-terminal");
    let shown = String::from_utf8_lossy(&tty.stdout);
    assert!(tty.status.success(), "{shown}");
    assert!(shown.contains("pandalm-\\u{202e}txt.exe"), "{shown}");
    assert!(!shown.contains('\u{202e}'), "{shown}");
}

/// `juror plan --check` on an anchor design says that the anchor recurs within items (and how
/// often), without failing the check: it is a property of the design, not a broken bound.
#[test]
fn plan_check_reports_a_recurring_anchor() {
    let study = root().join("assets/studies/hare-personalization.json");
    let out = support::juror()
        .args(["plan".as_ref(), study.as_os_str(), "--check".as_ref()])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    assert!(
        stdout.contains(
            "Task \"compare\": the anchor recurs within an item for 4 annotator(s): identifiable"
        ),
        "{stdout}"
    );
    assert!(stdout.contains("All bounds hold."), "{stdout}");
}

/// `juror validate` and `juror plan` warn about a pairs task that rates each output in every
/// pair it is in (how many times), and `plan --check` counts trials of one item back to back.
#[test]
fn pairs_that_rate_are_warned_about_and_repeats_counted() {
    let dir = support::scratch("pairs-rating");
    let example = root().join("assets/studies/kitchen-qa.json");
    let mut study: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(example).unwrap()).unwrap();
    // One task: pairs that rate and ask the preference, as the README's example does not.
    let compare = study["design"]["tasks"][1].clone();
    study["design"]["tasks"] = serde_json::json!([compare]);
    study["design"]["tasks"][0]
        .as_object_mut()
        .unwrap()
        .remove("dimensions");
    let file = dir.join("pairs.json");
    std::fs::write(&file, study.to_string()).unwrap();
    for command in [&["validate"][..], &["plan", "--check"][..]] {
        let out = support::juror()
            .args(&command[..1])
            .arg(&file)
            .args(&command[1..])
            .output()
            .unwrap();
        let stderr = support::stderr(&out);
        assert!(out.status.success(), "{command:?}: {stderr}");
        assert!(
            stderr.contains("task \"compare\" shows outputs in pairs and rates each output shown")
                && stderr.contains("up to 2 times per item (9 trials per annotator"),
            "{command:?}: {stderr}"
        );
    }
    let out = support::juror()
        .args(["plan".as_ref(), file.as_os_str(), "--check".as_ref()])
        .output()
        .unwrap();
    assert!(support::stdout(&out).contains("Back-to-back trials of one item: "));
}

/// `juror validate --annotators N --rate R`: the whole study's annotator-hours and cost from the
/// study's estimate; without an estimate, a warning that says what to add; a bad rate exits 2.
#[test]
fn validate_prints_the_budget_of_the_whole_study() {
    let validate = |study: &Path, more: &[&str]| {
        support::juror()
            .arg("validate")
            .arg(study)
            .args(more)
            .output()
            .unwrap()
    };
    let example = root().join("assets/studies/financial-analysis.json");
    let out = validate(&example, &["--annotators", "9", "--rate", "12"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    // 9 annotators × 50 minutes = 7.5 hours; at 12 an hour, 90.
    assert!(
        stdout.contains("Budget: 9 annotators × 50 minutes = 7.5 annotator-hours; at the rate given, 90.00 in all"),
        "{stdout}"
    );
    let mut study: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&example).unwrap()).unwrap();
    study.as_object_mut().unwrap().remove("estimated_minutes");
    let path = std::env::temp_dir().join(format!("juror-cli-budget-{}.json", std::process::id()));
    std::fs::write(&path, serde_json::to_string(&study).unwrap()).unwrap();
    let out = validate(&path, &["--annotators", "9"]);
    assert!(out.status.success());
    assert!(!String::from_utf8_lossy(&out.stdout).contains("Budget"));
    assert!(
        String::from_utf8_lossy(&out.stderr)
            .contains("no time estimate, so no hours or cost for 9 annotators"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = validate(&example, &["--annotators", "9", "--rate=-3"]);
    assert_eq!(out.status.code(), Some(2));
    let _ = std::fs::remove_file(path);
}

/// A plan's slope hypothesis in a study whose items have no round is valid, with a warning that
/// names it and says what to give.
#[test]
fn a_slope_hypothesis_without_rounds_is_warned_about() {
    let text = std::fs::read_to_string(root().join("assets/studies/kitchen-qa.json")).unwrap();
    let mut raw: serde_json::Value = serde_json::from_str(&text).unwrap();
    raw["analysis"] =
        serde_json::json!({"hypotheses": [{"name": "H3", "kind": "slope", "a": "large"}]});
    let path = support::scratch("cli-slope-without-rounds").join("study.json");
    std::fs::write(&path, raw.to_string()).unwrap();
    let out = juror(&[&path]);
    assert!(out.status.success(), "{out:?}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains(
            "analysis.hypotheses: H3 is about slopes over rounds, and no item has a \"round\""
        ) && stderr.contains("give each item its \"round\""),
        "{stderr}"
    );
}

/// UX walkthrough 2026-12-01, finding 3: a study whose form is wrong says that its other
/// checks wait on the problems listed, and counts only the problems.
#[test]
fn problems_of_form_say_that_more_checks_follow() {
    let path =
        root().join("crates/juror-core/tests/fixtures/invalid/wrong-types-in-two-items.json");
    let out = juror(&[&path]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains(
            "2 problem(s); the study is not valid (its other checks run once these are fixed)"
        ),
        "{stderr}"
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("(not yet checked): the study's other checks"),
        "{stdout}"
    );
}
