//! `juror prepare` and `juror seal` end to end, on the real SummEval data (the 20-document slice
//! in `data/summeval/`) and the examples.

use std::path::{Path, PathBuf};
use std::process::Output;

use juror_core::publish::mentions;
use juror_core::study::raw::RawStudy;

use super::support::{self, fixture, root, s, shared_dir};

fn juror(args: &[&str]) -> Output {
    support::juror().args(args).output().unwrap()
}

/// A file in this module's scratch folder.
fn tmp(name: &str) -> PathBuf {
    shared_dir("prepare-seal").join(name)
}

/// The SummEval summaries committed in `data/summeval/`: 20 documents × 12 systems.
fn summaries() -> PathBuf {
    fixture("data/summeval/summeval_summaries.jsonl")
}

fn prepare_summeval(out: &Path, seed: &str, n: &str) -> Output {
    let template = root().join("assets/studies/summeval.json");
    let data = summaries();
    juror(&[
        "prepare",
        "--template",
        s(&template),
        "--outputs",
        s(&data),
        "--n",
        n,
        "--seed",
        seed,
        "--text-field",
        "summary",
        "--context-field",
        "reference",
        "--prompt",
        "Summarise the news article.",
        "--out",
        s(out),
    ])
}

#[test]
fn prepare_builds_a_summeval_study_of_every_document_reproducibly() {
    let (a, b, c) = (tmp("a.json"), tmp("b.json"), tmp("c.json"));
    for (out, seed) in [(&a, "11"), (&b, "11"), (&c, "12")] {
        // More than the 20 documents there are: every document is taken.
        let o = prepare_summeval(out, seed, "100");
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    }
    let (a, b, c) = (
        std::fs::read(&a).unwrap(),
        std::fs::read(&b).unwrap(),
        std::fs::read(&c).unwrap(),
    );
    assert_eq!(a, b, "same inputs and seed must give the same bytes");
    let study = juror_core::study::parse_study(std::str::from_utf8(&a).unwrap()).unwrap();
    assert_eq!(study.items().len(), 20);
    // The template's four systems, each with its summary of every document.
    assert_eq!(study.systems().len(), 4);
    assert!(study.items().iter().all(|item| item.outputs.len() == 4));
    let other = juror_core::study::parse_study(std::str::from_utf8(&c).unwrap()).unwrap();
    // The slice has 20 documents, so both seeds take all of them; the order is the input's.
    assert_eq!(study.items().len(), other.items().len());
}

#[test]
fn prepare_samples_fewer_items_by_seed_and_writes_nothing_on_bad_lines() {
    let template = root().join("assets/studies/summeval.json");
    let data = summaries();
    let out = tmp("ten.json");
    let args = |seed: &'static str| -> Vec<String> {
        [
            "prepare",
            "--template",
            s(&template),
            "--outputs",
            s(&data),
            "--n",
            "10",
            "--seed",
            seed,
            "--text-field",
            "summary",
            "--prompt",
            "Summarise.",
            "--out",
            s(&out),
        ]
        .iter()
        .map(|x| x.to_string())
        .collect()
    };
    let run = |seed| {
        let a = args(seed);
        let o = juror(&a.iter().map(String::as_str).collect::<Vec<_>>());
        assert!(o.status.success());
        std::fs::read_to_string(&out).unwrap()
    };
    let (x, y) = (run("1"), run("2"));
    assert_ne!(x, y, "different seeds should sample different items");

    let bad = tmp("bad.jsonl");
    std::fs::write(
        &bad,
        "{\"id\": \"q\", \"prompt\": \"p\", \"outputs\": {}}\n{oops\n",
    )
    .unwrap();
    let out2 = tmp("never.json");
    let o = juror(&[
        "prepare",
        "--template",
        s(&template),
        "--outputs",
        s(&bad),
        "--n",
        "1",
        "--out",
        s(&out2),
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stdout).contains("line 2: not JSON"));
    assert!(!out2.exists(), "nothing may be written when a line is bad");
}

#[test]
fn sealed_examples_validate_and_hold_no_system_id() {
    let mut clean = 0;
    for name in [
        "work-intake",
        "hare-personalization",
        "reasoning-trajectories",
        "financial-analysis",
        "summeval",
        "pandalm",
    ] {
        let study = root().join(format!("assets/studies/{name}.json"));
        let (out, key) = (
            tmp(&format!("{name}.sealed.json")),
            tmp(&format!("{name}.key.json")),
        );
        let _ = std::fs::remove_file(&key);
        let o = juror(&["seal", s(&study), "--out", s(&out), "--key", s(&key)]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let v = juror(&["validate", s(&out)]);
        assert!(
            v.status.success(),
            "{name}: {}",
            String::from_utf8_lossy(&v.stdout)
        );

        let raw: RawStudy =
            serde_json::from_str(&std::fs::read_to_string(&study).unwrap()).unwrap();
        let sealed_text = std::fs::read_to_string(&out).unwrap();
        let sealed: serde_json::Value = serde_json::from_str(&sealed_text).unwrap();
        // No key and no string value is a system id, anywhere.
        let mut strings = Vec::new();
        collect(&sealed, &mut strings);
        for id in &raw.systems {
            assert!(
                !strings.contains(id),
                "{name}: \"{id}\" is still in the sealed file"
            );
        }
        // Where the text never mentions a system, the id is nowhere in the file at all.
        if mentions(&raw).is_empty() {
            clean += 1;
            let lower = sealed_text.to_lowercase();
            for id in &raw.systems {
                assert!(
                    !lower.contains(&format!("\"{}\"", id.to_lowercase())),
                    "{name}: {id}"
                );
            }
        }
        // The key maps every token back.
        let key: juror_core::publish::SealKey =
            serde_json::from_str(&std::fs::read_to_string(&key).unwrap()).unwrap();
        let mut back: Vec<&String> = key.systems.values().collect();
        back.sort();
        let mut want: Vec<&String> = raw.systems.iter().collect();
        want.sort();
        assert_eq!(back, want);
        // Sealing again refuses to overwrite the key.
        let again = juror(&[
            "seal",
            s(&study),
            "--out",
            s(&out),
            "--key",
            s(&tmp(&format!("{name}.key.json"))),
        ]);
        assert_eq!(again.status.code(), Some(2));
    }
    assert!(
        clean >= 2,
        "too few examples free of system names in their text"
    );
}

fn collect(v: &serde_json::Value, out: &mut Vec<String>) {
    match v {
        serde_json::Value::String(s) => out.push(s.clone()),
        serde_json::Value::Array(a) => a.iter().for_each(|x| collect(x, out)),
        serde_json::Value::Object(o) => {
            for (k, x) in o {
                out.push(k.clone());
                collect(x, out);
            }
        }
        _ => {}
    }
}

/// `--stratify` alone stratifies by the items' `group`; `--stratify a,b` by named groupings,
/// every combination a stratum, and the summary names them.
#[test]
fn prepare_stratifies_by_named_groupings() {
    let template = root().join("assets/studies/work-intake.json");
    let systems = [
        "full-pipeline",
        "no-evidence",
        "retrieval-only",
        "zero-shot",
    ];
    let mut lines = String::new();
    for i in 0..16 {
        let outputs: Vec<String> = systems
            .iter()
            .map(|s| format!("\"{s}\": \"out {i}\""))
            .collect();
        lines.push_str(&format!(
            "{{\"id\": \"i{i}\", \"prompt\": \"p\", \"group\": \"{}\", \"groups\": {{\"repository\": \"{}\"}}, \"outputs\": {{{}}}}}\n",
            if i % 2 == 0 { "routing" } else { "taxonomy" },
            if i < 8 { "airflow" } else { "vscode" },
            outputs.join(", ")
        ));
    }
    let data = tmp("grouped.jsonl");
    std::fs::write(&data, lines).unwrap();
    for (stratify, said) in [
        (vec!["--stratify"], "stratified by group"),
        (
            vec!["--stratify", "group,repository"],
            "stratified by group and repository",
        ),
    ] {
        let out = tmp("grouped.json");
        let mut args = vec!["prepare", "--template", s(&template), "--outputs", s(&data)];
        args.extend(stratify);
        args.extend(["--n", "8", "--out", s(&out)]);
        let o = juror(&args);
        let stdout = String::from_utf8_lossy(&o.stdout);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        assert!(stdout.contains(said), "{stdout}");
        let study: RawStudy = serde_json::from_slice(&std::fs::read(&out).unwrap()).unwrap();
        let count = |group: &str, repo: &str| {
            study
                .items
                .iter()
                .filter(|i| i.group.as_deref() == Some(group) && i.groups["repository"] == repo)
                .count()
        };
        let (ra, ta) = (count("routing", "airflow"), count("taxonomy", "airflow"));
        assert_eq!(study.items.len(), 8);
        assert_eq!(count("routing", "airflow") + count("routing", "vscode"), 4);
        if said.contains("repository") {
            assert_eq!((ra, ta), (2, 2), "each of the four strata gets two");
        }
    }
}
