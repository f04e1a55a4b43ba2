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
    assert_eq!(lines[0], "study_id,slot,url", "as juror links writes it");
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

    // UX walkthrough 2026-12-01, finding 26: with the key moved away, the copy the site
    // serves is still not overwritten without --replace; the refusal says what replacing does.
    let served = site.join("studies/financial-analysis.json");
    let copy_before = std::fs::read(&served).unwrap();
    let old_keys = scratch("old-keys");
    std::fs::rename(
        keys.join("financial-analysis.key.json"),
        old_keys.join("financial-analysis.key.json"),
    )
    .unwrap();
    let over = juror(&[s(&studies[1]), "--site", s(&site), "--keys", s(&keys)]);
    assert_eq!(over.status.code(), Some(1), "{}", text(&over));
    assert!(
        text(&over).contains("is already served to annotators")
            && text(&over).contains("give --replace to replace it"),
        "{}",
        text(&over)
    );
    assert_eq!(std::fs::read(&served).unwrap(), copy_before);
    assert!(!keys.join("financial-analysis.key.json").exists());
    let replaced = juror(&[
        s(&studies[1]),
        "--site",
        s(&site),
        "--keys",
        s(&keys),
        "--replace",
    ]);
    assert!(replaced.status.success(), "{}", text(&replaced));
    assert!(text(&replaced).contains("warning: ") && text(&replaced).contains("replacing "));
    assert_ne!(std::fs::read(&served).unwrap(), copy_before);
}

#[test]
fn a_study_that_names_a_system_is_refused_unless_allowed() {
    let dir = scratch("named");
    let (site, keys) = (dir.join("site"), dir.join("keys"));
    // The HARE example, which publishes blind as it is (checked first), with an id that
    // names the system "hare".
    let original = example("hare-personalization");
    let out = juror(&[s(&original), "--site", s(&site), "--keys", s(&keys)]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let named = std::fs::read_to_string(&original).unwrap().replace(
        "\"id\": \"personalisation-pilot\"",
        "\"id\": \"hare-personalization-pilot\"",
    );
    let study = dir.join("in").join("hare-personalization.json");
    std::fs::create_dir_all(study.parent().unwrap()).unwrap();
    std::fs::write(&study, named).unwrap();
    let (site, keys) = (dir.join("site"), dir.join("keys"));
    let out = juror(&[s(&study), "--site", s(&site), "--keys", s(&keys)]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(
        text(&out).contains("names system \"hare\""),
        "{}",
        text(&out)
    );
    assert!(text(&out).contains("nothing was published"));
    assert!(
        files_under(&dir.join("site")).is_empty() && files_under(&dir.join("keys")).is_empty(),
        "{:?}",
        files_under(&dir)
    );

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

/// `juror validate --published` on `study`.
fn validate_published(study: &Path) -> Output {
    support::juror()
        .args(["validate", "--published", s(study)])
        .output()
        .unwrap()
}

/// What `juror publish` wrote passes `validate --published`; the same file with one system's
/// id put back in place of an item's token is refused, naming the system.
#[test]
fn a_published_study_with_a_system_id_put_back_is_refused() {
    let dir = scratch("put-back");
    let (site, keys) = (dir.join("site"), dir.join("keys"));
    let study = example("financial-analysis");
    let out = juror(&[s(&study), "--site", s(&site), "--keys", s(&keys)]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let served = site.join("studies/financial-analysis.json");
    let out = validate_published(&served);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));

    let key: SealKey = serde_json::from_str(
        &std::fs::read_to_string(keys.join("financial-analysis.key.json")).unwrap(),
    )
    .unwrap();
    let (token, system) = key.systems.iter().next().unwrap();
    let put_back = dir.join("put-back.json");
    std::fs::write(
        &put_back,
        std::fs::read_to_string(&served)
            .unwrap()
            .replace(token.as_str(), system),
    )
    .unwrap();
    // Still a valid study: only the publication check sees it.
    let plain = support::juror()
        .args(["validate", s(&put_back)])
        .output()
        .unwrap();
    assert_eq!(plain.status.code(), Some(0), "{}", text(&plain));
    let out = validate_published(&put_back);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(
        text(&out).contains(&format!("not published: systems {system} are named")),
        "{}",
        text(&out)
    );
}

/// The keys folder inside the site folder (even spelt with `..`) is refused before anything is
/// written; outside it, a folder git does not ignore is warned about, an ignored one is not.
#[test]
fn keys_inside_the_site_are_refused_and_keys_git_does_not_ignore_warned_about() {
    let dir = scratch("keys-place");
    let site = dir.join("site");
    let study = example("financial-analysis");
    for keys in [
        site.join("keys"),
        dir.join("elsewhere/../site/studies/keys"),
    ] {
        let out = juror(&[s(&study), "--site", s(&site), "--keys", s(&keys)]);
        assert_eq!(out.status.code(), Some(2), "{}", text(&out));
        assert!(
            text(&out).contains("inside the site folder"),
            "{}",
            text(&out)
        );
        assert!(files_under(&dir).is_empty(), "{:?}", files_under(&dir));
    }

    let git = |args: &[&str]| {
        let status = std::process::Command::new("git")
            .args(args)
            .current_dir(&dir)
            .output()
            .unwrap();
        assert!(status.status.success(), "git {args:?}: {status:?}");
    };
    git(&["init", "-q"]);
    std::fs::write(dir.join(".gitignore"), "/private/\n").unwrap();
    let out = juror(&[
        s(&study),
        "--site",
        s(&site),
        "--keys",
        s(&dir.join("keys")),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    assert!(
        text(&out).contains("git does not ignore it"),
        "{}",
        text(&out)
    );
    std::fs::remove_dir_all(&site).unwrap();
    let out = juror(&[
        s(&study),
        "--site",
        s(&site),
        "--keys",
        s(&dir.join("private/keys")),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    assert!(!text(&out).contains("--keys"), "{}", text(&out));
}

/// A `fail_code` is refused: in a published study the page cannot score the attention checks.
#[test]
fn a_fail_code_that_can_never_apply_is_refused() {
    let dir = scratch("fail-code");
    let (site, keys) = (dir.join("site"), dir.join("keys"));
    let mut raw: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(example("financial-analysis")).unwrap())
            .unwrap();
    raw["completion"] = serde_json::json!({"code": "PASS1", "fail_code": "FAIL9"});
    let study = dir.join("financial.json");
    std::fs::write(&study, raw.to_string()).unwrap();
    let out = juror(&[s(&study), "--site", s(&site), "--keys", s(&keys)]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(
        text(&out).contains("completion.fail_code \"FAIL9\" would never be given"),
        "{}",
        text(&out)
    );
    assert!(text(&out).contains("juror analyze --key"), "{}", text(&out));
    assert!(!site.exists() && !keys.exists(), "nothing is written");
}

/// Links for MTurk warn about a study without `submit` (MTurk gets only the assignment and a
/// checksum) and about a build that does not allow MTurk's hosts; not once both are there.
#[test]
fn mturk_links_warn_without_submit_or_mturks_hosts() {
    let dir = scratch("mturk");
    let study = example("financial-analysis");
    let publish = |study: &Path, site: &str, origins: &str| {
        support::juror()
            .arg("publish")
            .arg(study)
            .args([
                "--site",
                s(&dir.join(site)),
                "--keys",
                s(&dir.join(site).with_extension("keys")),
            ])
            .args([
                "--base-url",
                "https://you.github.io/juror/",
                "--platform",
                "mturk",
            ])
            .env("JUROR_SUBMIT_ORIGINS", origins)
            .output()
            .unwrap()
    };
    let out = publish(&study, "bare", "");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let said = text(&out);
    assert!(said.contains("has no submit section"), "{said}");
    assert!(
        said.contains("JUROR_SUBMIT_ORIGINS including https://www.mturk.com and https://workersandbox.mturk.com"),
        "{said}"
    );

    let mut raw: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&study).unwrap()).unwrap();
    raw["submit"] = serde_json::json!({"url": "https://receiver.example/in"});
    let with_submit = dir.join("financial.json");
    std::fs::write(&with_submit, raw.to_string()).unwrap();
    let out = publish(
        &with_submit,
        "ready",
        "https://receiver.example https://www.mturk.com https://workersandbox.mturk.com",
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    assert!(!text(&out).contains("submit section"), "{}", text(&out));
    assert!(!text(&out).contains("mturk.com"), "{}", text(&out));

    // Prolific's links need neither (only a completion code, which this study lacks).
    let out = support::juror()
        .args([
            "links",
            s(&study),
            "--base-url",
            "https://x.org/",
            "--platform",
            "prolific",
        ])
        .env("JUROR_SUBMIT_ORIGINS", "")
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(!said.contains("submit section"), "{}", text(&out));
    assert!(!said.contains("mturk.com"), "{}", text(&out));
    assert!(said.contains("no completion code"), "{}", text(&out));
    let out = support::juror()
        .args([
            "links",
            s(&study),
            "--base-url",
            "https://x.org/",
            "--platform",
            "mturk",
        ])
        .env("JUROR_SUBMIT_ORIGINS", "https://www.mturk.com")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(said.contains("has no submit section"), "{said}");
    assert!(
        said.contains("including https://workersandbox.mturk.com ("),
        "{said}"
    );
}

/// Items `for` annotator ids survive publishing only with `--annotators`: without it the study
/// is refused, naming the ids; with it each listed annotator gets a plan of their own, with
/// their items, that the page (`plan::plan` of the published study) gives to that id, while
/// an annotator without an id does a slot's plan without them.
#[test]
fn personal_items_for_annotator_ids_are_published_for_the_listed_annotators() {
    use juror_core::plan::{Annotator, plan};
    let dir = scratch("personal");
    let (site, keys) = (dir.join("site"), dir.join("keys"));
    std::fs::create_dir_all(&dir).unwrap();
    let mut raw: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(example("kitchen-qa")).unwrap()).unwrap();
    let mut personal = raw["items"][0].clone();
    personal["id"] = "p07-own-question".into();
    personal["prompt"] = "My own question about my kitchen.".into();
    personal["for"] = serde_json::json!(["P07"]);
    raw["items"].as_array_mut().unwrap().push(personal);
    let study = dir.join("personal.json");
    std::fs::write(&study, serde_json::to_string_pretty(&raw).unwrap()).unwrap();

    let refused = juror(&[s(&study), "--site", s(&site), "--keys", s(&keys)]);
    assert_eq!(refused.status.code(), Some(1), "{}", text(&refused));
    assert!(
        text(&refused)
            .contains("items are for annotator id (P07), whom --annotators does not list"),
        "{}",
        text(&refused)
    );
    assert!(!site.exists(), "nothing is written");

    let list = dir.join("annotators.txt");
    std::fs::write(&list, "# phase two\np07\n\nq11\n").unwrap();
    let out = juror(&[
        s(&study),
        "--site",
        s(&site),
        "--keys",
        s(&keys),
        "--annotators",
        s(&list),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    assert!(
        text(&out).contains("no item is for the annotator (q11) of --annotators"),
        "{}",
        text(&out)
    );
    let served = std::fs::read_to_string(site.join("studies/personal.json")).unwrap();
    let published = juror_core::front::open::open(&served).unwrap().study;
    let items_of = |annotator: &Annotator| -> Vec<String> {
        plan(&published, annotator)
            .trials
            .iter()
            .map(|t| published.items()[t.item].id.clone())
            .collect()
    };
    let p07 = Annotator {
        slot: 5,
        id: Some("P07".into()),
        platform: None,
    };
    assert!(items_of(&p07).contains(&"p07-own-question".to_owned()));
    for other in [
        Annotator::slot(1),
        Annotator {
            slot: 1,
            id: Some("q11".into()),
            platform: None,
        },
    ] {
        assert!(!items_of(&other).contains(&"p07-own-question".to_owned()));
        assert!(!items_of(&other).is_empty());
    }
    // The personal plan is the original study's plan for that annotator, slot 1 being the
    // first listed.
    let original = juror_core::front::open::open(&std::fs::read_to_string(&study).unwrap())
        .unwrap()
        .study;
    let want: Vec<String> = plan(
        &original,
        &Annotator {
            slot: 1,
            id: Some("p07".into()),
            platform: None,
        },
    )
    .trials
    .iter()
    .map(|t| original.items()[t.item].id.clone())
    .collect();
    assert_eq!(items_of(&p07), want);
}
