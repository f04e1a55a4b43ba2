//! `juror compile` and `juror validate` on a compiled study: a valid study is written compiled
//! beside it (or where `--out` says) and reads back with the page's reader; an invalid one has
//! its problems listed and nothing written; a changed compiled study is refused with its code
//! and the code's full explanation; a published study compiles without naming a system; a
//! compiled study is held to the checks of a published one and to the caps of a study as
//! written.

use std::path::{Path, PathBuf};
use std::process::Output;

use juror_core::base::digest::{sha256_hex, sha256_hex_of};
use juror_core::front::compiled::{self, explain, read};
use juror_core::study::raw::RawStudy;
use serde_json::{Value, json};

use super::support::{self, root, s, stdout};

fn example(name: &str) -> PathBuf {
    root().join(format!("assets/studies/{name}.json"))
}

fn run(args: &[&str]) -> Output {
    support::juror().args(args).output().unwrap()
}

fn text(out: &Output) -> String {
    format!("{}{}", stdout(out), support::stderr(out))
}

/// A copy of the example `name` in a fresh folder.
fn copied(test: &str, name: &str) -> (PathBuf, PathBuf) {
    let dir = support::scratch(&format!("compile-{test}"));
    let study = dir.join(format!("{name}.json"));
    std::fs::copy(example(name), &study).unwrap();
    (dir, study)
}

#[test]
fn a_study_compiles_beside_itself_and_validates_as_compiled() {
    let (dir, study) = copied("beside", "summeval-esa");
    let out = run(&["compile", s(&study)]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let written = dir.join("summeval-esa.compiled.json");
    assert!(stdout(&out).contains(s(&written)), "{}", text(&out));
    let compiled_text = std::fs::read_to_string(&written).unwrap();
    let back = read(&compiled_text).unwrap_or_else(|p| panic!("{p}"));
    assert_eq!(
        back.sha256,
        sha256_hex(&std::fs::read_to_string(&study).unwrap())
    );
    assert!(back.study.analysis().is_none());

    let out = run(&["validate", s(&written)]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    assert!(
        stdout(&out).contains("valid juror.compiled/3 study \"summeval-esa\""),
        "{}",
        text(&out)
    );
    assert!(stdout(&out).contains(&back.sha256), "{}", text(&out));
    // Compiled from a study as written, it is not what a site serves.
    let out = run(&["validate", "--published", s(&written)]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(stdout(&out).contains("not published"), "{}", text(&out));

    // --out writes where it says, the same text.
    let elsewhere = dir.join("served.json");
    let out = run(&["compile", s(&study), "--out", s(&elsewhere)]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    assert_eq!(std::fs::read_to_string(&elsewhere).unwrap(), compiled_text);
    let out = run(&["compile", s(&study), "--out", s(&study)]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
}

#[test]
fn an_invalid_study_has_every_problem_listed_and_nothing_written() {
    let (dir, study) = copied("invalid", "kitchen-qa");
    let mut raw: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&study).unwrap()).unwrap();
    raw["systems"] = serde_json::json!([]);
    raw["title"] = serde_json::json!(" ");
    std::fs::write(&study, raw.to_string()).unwrap();
    let out = run(&["compile", s(&study)]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(stdout(&out).contains("systems"), "{}", text(&out));
    assert!(stdout(&out).contains("title"), "{}", text(&out));
    assert!(!dir.join("kitchen-qa.compiled.json").exists());
}

#[test]
fn a_changed_compiled_study_is_refused_with_its_code_and_explanation() {
    let (dir, study) = copied("changed", "kitchen-qa");
    let out = run(&["compile", s(&study)]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let written = dir.join("kitchen-qa.compiled.json");
    let compiled_text = std::fs::read_to_string(&written).unwrap();
    std::fs::write(
        &written,
        compiled_text.replacen("Kitchen questions", "Kitchen question", 1),
    )
    .unwrap();
    let out = run(&["validate", s(&written)]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    let said = stdout(&out);
    assert!(said.contains("[compiled.checksum]"), "{said}");
    assert!(said.contains(explain(compiled::CHECKSUM)), "{said}");
}

/// The reasoning-trajectories example published (`juror publish`) into a fresh folder's
/// `site` (a built site, its `index.html` there, with `built`): the command's output and the
/// path of the study it serves.
fn publish_trajectories(test: &str, built: bool) -> (PathBuf, Output, PathBuf) {
    let dir = support::scratch(test);
    let (site, keys) = (dir.join("site"), dir.join("keys"));
    if built {
        std::fs::create_dir_all(&site).unwrap();
        std::fs::write(site.join("index.html"), "<!doctype html>").unwrap();
    }
    let original = example("reasoning-trajectories");
    let out = run(&[
        "publish",
        s(&original),
        "--site",
        s(&site),
        "--keys",
        s(&keys),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    (dir, out, site.join("studies/reasoning-trajectories.json"))
}

/// A compiled study's text that names none of the example's systems as an id, read back with
/// its plans, and passing `juror validate --published` at `path`.
fn published_blind(compiled_text: &str, path: &Path) {
    let original = std::fs::read_to_string(example("reasoning-trajectories")).unwrap();
    let raw: RawStudy = serde_json::from_str(&original).unwrap();
    for system in &raw.systems {
        assert!(
            !compiled_text.contains(&format!("\"{system}\"")),
            "names {system}"
        );
    }
    let back = read(compiled_text).unwrap_or_else(|p| panic!("{p}"));
    assert!(back.study.design().plans.is_some());
    let out = run(&["validate", "--published", s(path)]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
}

#[test]
fn a_published_study_compiles_without_naming_a_system() {
    let (dir, _, served) = publish_trajectories("compile-published", false);
    let compiled_path: &Path = &dir.join("reasoning-trajectories.compiled.json");
    let out = run(&["compile", s(&served), "--out", s(compiled_path)]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    published_blind(
        &std::fs::read_to_string(compiled_path).unwrap(),
        compiled_path,
    );
}

/// `--in-place` compiles each study over itself, as a site's build does to the studies it
/// serves: a file already compiled is checked and kept; a broken one is listed and left, the
/// others compiled all the same, and the exit code is the worst.
#[test]
fn in_place_compiles_every_study_over_itself_and_keeps_compiled_ones() {
    let (dir, kitchen) = copied("in-place", "kitchen-qa");
    let pandalm = dir.join("pandalm.json");
    std::fs::copy(example("pandalm"), &pandalm).unwrap();
    let source = std::fs::read_to_string(&kitchen).unwrap();
    let out = run(&["compile", "--in-place", s(&kitchen), s(&pandalm)]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let compiled_text = std::fs::read_to_string(&kitchen).unwrap();
    let back = read(&compiled_text).unwrap_or_else(|p| panic!("{p}"));
    assert_eq!(back.sha256, sha256_hex(&source));
    assert!(read(&std::fs::read_to_string(&pandalm).unwrap()).is_ok());

    // Again: both are compiled already, and kept byte for byte.
    let out = run(&["compile", "--in-place", s(&kitchen), s(&pandalm)]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    assert!(stdout(&out).contains("already compiled"), "{}", text(&out));
    assert_eq!(std::fs::read_to_string(&kitchen).unwrap(), compiled_text);

    // A changed compiled study and a broken study: each listed, neither rewritten.
    let changed = compiled_text.replacen("Kitchen questions", "Kitchen question", 1);
    std::fs::write(&kitchen, &changed).unwrap();
    let broken = dir.join("broken.json");
    std::fs::write(&broken, "{\"format\": \"juror.study/1\"}").unwrap();
    let out = run(&["compile", "--in-place", s(&kitchen), s(&broken)]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(
        stdout(&out).contains("[compiled.checksum]"),
        "{}",
        text(&out)
    );
    assert_eq!(std::fs::read_to_string(&kitchen).unwrap(), changed);
    assert_eq!(
        std::fs::read_to_string(&broken).unwrap(),
        "{\"format\": \"juror.study/1\"}"
    );

    // --out and --in-place do not go together; several files need --in-place.
    let out = run(&["compile", "--in-place", s(&pandalm), "--out", s(&broken)]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    let out = run(&["compile", s(&pandalm), s(&kitchen)]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
}

/// Publishing into a built site (one with its index.html) writes the study compiled, as the
/// site's build would have: it reads back with the page's reader, names no system, passes
/// `juror validate --published`, and its analysis reads it (`juror links` reads it too).
#[test]
fn a_study_published_into_a_built_site_is_served_compiled() {
    let (_, out, served) = publish_trajectories("compile-built-site", true);
    assert!(
        stdout(&out).contains("compiled for the built site"),
        "{}",
        text(&out)
    );
    published_blind(&std::fs::read_to_string(&served).unwrap(), &served);
    let out = run(&["links", s(&served), "--base-url", "https://x.org/j/"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    assert!(stdout(&out).contains("slot=1"), "{}", text(&out));
}

/// A compiled study's text edited by `edit` (the whole envelope) with its checksum made right
/// again: a hand edit by someone who knows how the checksum is made.
fn edited_compiled(compiled_text: &str, edit: impl FnOnce(&mut Value)) -> String {
    let mut whole: Value = serde_json::from_str(compiled_text).unwrap();
    edit(&mut whole);
    let cover = serde_json::to_string(&whole["cover"]).unwrap();
    let study = serde_json::to_string(&whole["study"]).unwrap();
    whole["checksum"] = json!(sha256_hex_of(&[&cover, &study]));
    serde_json::to_string(&whole).unwrap()
}

/// A site's build serves its studies compiled (`juror compile --in-place`), and the check
/// before deploying runs `juror validate --published` on them: a compiled study is held to the
/// checks of a published one, so that attention checks put back with their accepted answers,
/// or one output token over two items, are refused as in a study as written.
#[test]
fn a_compiled_study_is_held_to_the_checks_of_a_published_one() {
    let (dir, _, served) = publish_trajectories("compile-not-published", false);
    let blind_path = dir.join("blind.json");
    let out = run(&["compile", s(&served), "--out", s(&blind_path)]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let blind = std::fs::read_to_string(&blind_path).unwrap();
    let out = run(&["validate", "--published", s(&blind_path)]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));

    // The original's attention checks, accepted answers and all, as compiling it gives them.
    let original = dir.join("original.compiled.json");
    let out = run(&[
        "compile",
        s(&example("reasoning-trajectories")),
        "--out",
        s(&original),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let original: Value =
        serde_json::from_str(&std::fs::read_to_string(&original).unwrap()).unwrap();
    let checks = original["study"]["design"]["attention_checks"].clone();
    assert!(checks.to_string().contains("\"accept\":[1]"), "{checks}");
    let with_checks = edited_compiled(&blind, |w| {
        w["study"]["design"]["attention_checks"] = checks;
    });

    // One item's output put under another item's token as well.
    let shared = edited_compiled(&blind, |w| {
        let items = &mut w["study"]["items"];
        let (token, output) = items[0]["outputs"]
            .as_object()
            .and_then(|o| o.iter().next())
            .map(|(k, v)| (k.clone(), v.clone()))
            .unwrap();
        items[2]["outputs"][token] = output;
    });
    for (name, edited, why) in [
        (
            "checks.json",
            with_checks,
            "not published: design.attention_checks is served with their accepted answers",
        ),
        (
            "shared.json",
            shared,
            "items[0] and items[2] share the output token",
        ),
    ] {
        let path = dir.join(name);
        std::fs::write(&path, edited).unwrap();
        // A valid compiled study, and a blind one no longer.
        let out = run(&["validate", s(&path)]);
        assert_eq!(out.status.code(), Some(0), "{name}: {}", text(&out));
        let out = run(&["validate", "--published", s(&path)]);
        assert_eq!(out.status.code(), Some(1), "{name}: {}", text(&out));
        assert!(stdout(&out).contains(why), "{name}: {}", text(&out));
        assert!(
            !stdout(&out).contains("valid juror.compiled"),
            "{}",
            text(&out)
        );
    }
}

/// A compiled study whose counts are past the caps of a study as written (200,000 slots, the
/// checksum made right again) is refused by `juror plan` and `juror validate` with the
/// validator's message, placed, instead of aborting on the memory planning it would ask for.
#[test]
fn a_compiled_study_past_the_caps_is_refused_not_planned() {
    let (dir, study) = copied("caps", "reasoning-trajectories");
    let out = run(&["compile", s(&study)]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let written = dir.join("reasoning-trajectories.compiled.json");
    let compiled_text = std::fs::read_to_string(&written).unwrap();
    let edited = edited_compiled(&compiled_text, |w| {
        w["study"]["design"]["assignment"]["slots"] = json!(200_000);
        w["cover"]["slots"] = json!(200_000);
    });
    std::fs::write(&written, edited).unwrap();
    for args in [
        ["plan", s(&written), "--slot", "1"].as_slice(),
        ["validate", s(&written)].as_slice(),
    ] {
        let out = run(args);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {}", text(&out));
        assert!(
            stdout(&out).contains(
                "study.design.assignment.slots: 200000 slots, more than Juror plans (2000)"
            ),
            "{args:?}: {}",
            text(&out)
        );
    }
}
