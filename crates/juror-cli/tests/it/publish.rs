//! `juror publish` end to end: what it writes to the site names no system and holds no
//! attention-check answer; the keys go only to the keys folder and are never overwritten; a
//! study whose text names a system is refused unless allowed; links for every slot.

use std::path::{Path, PathBuf};
use std::process::Output;

use juror_core::publish::{SealKey, is_sealed};
use juror_core::study::raw::RawStudy;

use super::support::{self, root, s};

fn example(name: &str) -> PathBuf {
    root().join(format!("assets/studies/{name}.json"))
}

/// A fresh, empty folder for one test.
fn scratch(name: &str) -> PathBuf {
    support::scratch(&format!("publish-{name}"))
}

fn juror(args: &[&str]) -> Output {
    support::juror().arg("publish").args(args).output().unwrap()
}

fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// Every file under `dir`, relative to it.
fn files_under(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in entries {
            let path = e.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else {
                out.push(
                    path.strip_prefix(dir)
                        .unwrap()
                        .to_string_lossy()
                        .into_owned(),
                );
            }
        }
    }
    out.sort();
    out
}

#[test]
fn publishes_sealed_studies_with_media_keys_apart_and_a_link_per_slot() {
    let dir = scratch("ok");
    let (site, keys) = (dir.join("site"), dir.join("keys"));
    let studies = [
        example("reasoning-trajectories"),
        example("financial-analysis"),
    ];
    let out = juror(&[
        s(&studies[0]),
        s(&studies[1]),
        "--site",
        s(&site),
        "--keys",
        s(&keys),
        "--base-url",
        "https://you.github.io/juror/",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));

    // The site has the sealed studies and the media they show, nothing else.
    let published = files_under(&site);
    assert!(published.contains(&"studies/reasoning-trajectories.json".to_owned()));
    assert!(published.contains(&"studies/financial-analysis.json".to_owned()));
    assert!(
        published.iter().all(|f| f.starts_with("studies/")),
        "{published:?}"
    );
    assert!(
        !published.iter().any(|f| f.contains("key")),
        "{published:?}"
    );
    for study in &studies {
        let original: RawStudy =
            serde_json::from_str(&std::fs::read_to_string(study).unwrap()).unwrap();
        let name = study.file_name().unwrap().to_string_lossy().into_owned();
        let served = std::fs::read_to_string(site.join("studies").join(&name)).unwrap();
        for system in &original.systems {
            assert!(!served.contains(system.as_str()), "{name} names {system}");
        }
        assert!(
            !served.contains("\"accept\""),
            "{name}: check answers served"
        );
        let sealed: RawStudy = serde_json::from_str(&served).unwrap();
        assert!(is_sealed(&sealed.systems));
        juror_core::study::validate(&sealed).unwrap();
        for item in original.items.iter().filter_map(|i| i.media.as_ref()) {
            let copied = std::fs::read(site.join("studies").join(&item.src)).unwrap();
            let source = std::fs::read(study.parent().unwrap().join(&item.src)).unwrap();
            assert_eq!(copied, source, "{}", item.src);
        }

        // Each item's outputs have tokens of their own: none is shared by two items.
        let mut owner = std::collections::BTreeMap::new();
        for item in &sealed.items {
            for token in item.outputs.keys() {
                assert_eq!(*owner.entry(token.clone()).or_insert(&item.id), &item.id);
            }
        }
        assert!(
            !served.contains("attention_checks"),
            "{name}: checks served"
        );
        assert!(
            sealed.design.plans.is_some(),
            "{name}: the plans are published"
        );

        // The key maps every token back to its system and keeps the checks, answers and all.
        let stem = name.trim_end_matches(".json");
        let key: SealKey = serde_json::from_str(
            &std::fs::read_to_string(keys.join(format!("{stem}.key.json"))).unwrap(),
        )
        .unwrap();
        assert_eq!(
            key.systems.len(),
            original.items.len() * original.systems.len()
        );
        for item in &sealed.items {
            let mut ids: Vec<&String> = item.outputs.keys().map(|t| &key.systems[t]).collect();
            ids.sort();
            let mut want: Vec<&String> = original.systems.iter().collect();
            want.sort();
            assert_eq!(ids, want, "{name}: {}", item.id);
        }
        assert_eq!(key.attention_checks, original.design.attention_checks);
    }
    assert!(
        files_under(&site)
            .iter()
            .any(|f| f.starts_with("studies/media/")),
        "the trajectories' media are copied"
    );

    // One link per slot: the trajectories' 9; 12 for a study without an assignment (the
    // smallest whole number of counterbalancing periods that is 12 or more).
    let links = std::fs::read_to_string(keys.join("links.csv")).unwrap();
    let lines: Vec<&str> = links.lines().collect();
    assert_eq!(lines[0], "study,slot,url");
    assert_eq!(
        lines[1],
        "pixelis-reasoning-trajectories,1,https://you.github.io/juror/index.html?study=studies/reasoning-trajectories.json&slot=1"
    );
    let trajectories = lines
        .iter()
        .filter(|l| l.starts_with("pixelis-reasoning-trajectories,"))
        .count();
    assert_eq!(trajectories, 9);
    let financial = lines
        .iter()
        .filter(|l| l.starts_with("financial-analysis-2024w10,"))
        .count();
    assert_eq!(financial, 12, "{links}");
    assert!(text(&out).contains("slot 9: https://you.github.io/juror/"));

    // Again: the keys are there, so nothing is written and the keys are untouched.
    let key_before = std::fs::read(keys.join("financial-analysis.key.json")).unwrap();
    let again = juror(&[s(&studies[1]), "--site", s(&site), "--keys", s(&keys)]);
    assert_eq!(again.status.code(), Some(2), "{}", text(&again));
    assert!(text(&again).contains("a key is already there"));
    assert_eq!(
        std::fs::read(keys.join("financial-analysis.key.json")).unwrap(),
        key_before
    );
}

#[test]
fn a_study_that_names_a_system_is_refused_unless_allowed() {
    let dir = scratch("named");
    let (site, keys) = (dir.join("site"), dir.join("keys"));
    // The example `hare-personalization.json`: its id names the system "hare".
    let study = example("hare-personalization");
    let out = juror(&[s(&study), "--site", s(&site), "--keys", s(&keys)]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(
        text(&out).contains("names system \"hare\""),
        "{}",
        text(&out)
    );
    assert!(text(&out).contains("nothing was published"));
    assert!(files_under(&dir).is_empty(), "{:?}", files_under(&dir));

    let out = juror(&[
        s(&study),
        "--site",
        s(&site),
        "--keys",
        s(&keys),
        "--allow-named",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    assert!(text(&out).contains("warning:"));
    assert!(site.join("studies/hare-personalization.json").is_file());
}

#[test]
fn a_sealed_study_or_a_missing_media_file_publishes_nothing() {
    let dir = scratch("refused");
    let (site, keys) = (dir.join("site"), dir.join("keys"));
    let sealed = root().join("crates/juror-core/tests/fixtures/analysis/pandalm-sealed-study.json");
    let out = juror(&[s(&sealed), "--site", s(&site), "--keys", s(&keys)]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(text(&out).contains("already sealed"), "{}", text(&out));

    // The trajectories without their media folder.
    let lonely = dir.join("lonely");
    std::fs::create_dir_all(&lonely).unwrap();
    let copy = lonely.join("reasoning-trajectories.json");
    std::fs::copy(example("reasoning-trajectories"), &copy).unwrap();
    let out = juror(&[
        s(&copy),
        s(&example("financial-analysis")),
        "--site",
        s(&site),
        "--keys",
        s(&keys),
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(text(&out).contains("is missing"), "{}", text(&out));
    assert!(!site.exists() && !keys.exists(), "nothing is written");
}
