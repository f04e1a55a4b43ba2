//! A crowd study from start to finish, as a researcher would run it: the financial analysis
//! study (`assets/studies/financial-analysis.json`) run on Prolific with 50 participants.
//!
//! 1. The study gets a `completion` section (Prolific's code and the address back) and a
//!    `submit` section (DataPipe, which stores each file in an OSF project); `juror validate`
//!    warns until the site's build allows DataPipe's origin.
//! 2. `juror publish --base-url --platform prolific --slots 2` seals it and writes one link per
//!    slot with Prolific's placeholders: two Prolific studies of 25 places, one link each.
//! 3. Fifty participants arrive through those links (the page's own core functions: the
//!    annotator and platform from the link, the session reducer, the export); 48 finish and
//!    see the completion code, two stop part way and see none.
//! 4. `juror analyze --key` reads the files that came back: every participant under a keyed
//!    pseudonym, the study's pre-registered comparison, the two unfinished files' trials left
//!    out; `--reveal-ids --format csv` gives the PIDs to pay.
//!
//! What the page does with the same session (the code only after the file is saved, the
//! DataPipe POST and its retry) is in tests/e2e/platforms.spec.ts and submission.spec.ts.

use std::process::Output;

use juror_core::digest::sha256_hex;
use juror_core::plan::{Annotator, platform_visit, resolve_annotator};
use juror_core::session::completion::completion;
use juror_core::session::ratings::{RatingsFile, export};
use juror_core::session::{Msg, Phase, Session, update};
use juror_core::study::{Study, parse_study};
use serde_json::{Value, json};

use super::support::{self, root, shared_dir};

const CODE: &str = "C7Q2M4XZ";
const BASE: &str = "https://you.github.io/juror/";
const T0: f64 = 1_795_302_000_000.0;

fn juror(args: &[&str], submit_origins: &str) -> Output {
    support::juror()
        .args(args)
        .env("JUROR_SUBMIT_ORIGINS", submit_origins)
        .output()
        .unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// `financial-analysis.json` with what a Prolific run adds.
fn study_for_prolific() -> Value {
    let path = root().join("assets/studies/financial-analysis.json");
    let mut study: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    study["completion"] = json!({
        "code": CODE,
        "redirect": "https://app.prolific.com/submissions/complete?cc={code}"
    });
    study["submit"] = json!({
        "url": "https://pipe.jspsych.org/api/data/",
        "format": "datapipe",
        "experiment_id": "aBcD3fGh"
    });
    study
}

/// A Prolific PID: 24 hex digits.
fn pid(n: usize) -> String {
    format!("{:024x}", 0x5f0c_0000_0000_0000_u64 + (n as u64) * 7_919)
}

/// One participant, from their slot's link as Prolific fills it in, to the ratings file the
/// page would let them download: scores that favour the outputs for which `better` is true (it
/// reads the key: each item's outputs have tokens of their own) by about a point, with some
/// noise; `stop_after` trials only, if given.
fn participant(
    study: &Study,
    study_sha: &str,
    link_slot: &str,
    n: usize,
    better: &dyn Fn(&str) -> bool,
    stop_after: Option<usize>,
) -> (Session, RatingsFile) {
    let pid = pid(n);
    let session_id = format!("sess{n:04}");
    let link = |name: &str| match name {
        "slot" => Some(link_slot.to_owned()),
        "PROLIFIC_PID" => Some(pid.clone()),
        "STUDY_ID" => Some(format!("65a1b2c3d4e5f6a7b8c9d0e{link_slot}")),
        "SESSION_ID" => Some(session_id.clone()),
        _ => None,
    };
    let who = resolve_annotator(
        study,
        link("slot").as_deref(),
        link("PROLIFIC_PID").as_deref(),
    )
    .unwrap();
    let who = Annotator {
        platform: platform_visit(link),
        ..who
    };
    let mut s = Session::new(study, who);
    let mut now = T0;
    let mut step = |s: &mut Session, msg: Msg| {
        now += 20_000.0;
        update(study, s, msg, now);
    };
    step(&mut s, Msg::Start);
    step(&mut s, Msg::FinishInstructions);
    assert_eq!(s.progress.phase, Phase::Trials);
    let total = s.plan.trials.len();
    for index in 0..stop_after.unwrap_or(total) {
        let shown = &s.plan.trials[index].shown[0];
        let token = &study.systems()[shown.system];
        let base = if better(token) { 4 } else { 3 };
        let noise = [0, 1, -1, 0, 0, 1, -1][(n * 3 + index * 5) % 7];
        step(
            &mut s,
            Msg::Rate {
                position: 0,
                dimension: "quality".into(),
                value: base + noise,
                advance: false,
            },
        );
        step(&mut s, Msg::Next);
    }
    let file = export(study, study_sha, &s, "0.1.0", now);
    (s, file)
}

#[test]
fn the_financial_analysis_study_runs_on_prolific_with_50_participants() {
    let dir = shared_dir("crowd");
    let private = dir.join("private");
    std::fs::create_dir_all(&private).unwrap();
    let original = private.join("financial-prolific.json");
    std::fs::write(&original, study_for_prolific().to_string()).unwrap();
    let original_arg = original.display().to_string();

    // 1. The study is valid; the build must allow DataPipe, and `validate` says so until it does.
    let out = juror(&["validate", &original_arg], "");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let warning = text(&out.stderr);
    assert!(
        warning.contains(
            "the study sends ratings files to https://pipe.jspsych.org, which the site's build \
             must allow: build with JUROR_SUBMIT_ORIGINS=\"https://pipe.jspsych.org\" (README, \
             \"Sending files to a service\")"
        ),
        "{warning}"
    );
    let out = juror(&["validate", &original_arg], "https://pipe.jspsych.org");
    assert!(!text(&out.stderr).contains("pipe.jspsych.org"));

    // 2. Published sealed, two slots, one Prolific link each.
    let site = dir.join("site");
    let keys = dir.join("keys");
    let out = juror(
        &[
            "publish",
            &original_arg,
            "--site",
            &site.display().to_string(),
            "--keys",
            &keys.display().to_string(),
            "--base-url",
            BASE,
            "--platform",
            "prolific",
            "--slots",
            "2",
        ],
        "https://pipe.jspsych.org",
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let links = std::fs::read_to_string(keys.join("links.csv")).unwrap();
    let rows: Vec<&str> = links.lines().collect();
    assert_eq!(rows.len(), 3, "{links}");
    for (slot, row) in (1..=2).zip(&rows[1..]) {
        assert_eq!(
            *row,
            format!(
                "financial-analysis-2024w10,{slot},{BASE}index.html?study=studies/financial-prolific.json\
                 &slot={slot}&PROLIFIC_PID={{{{%PROLIFIC_PID%}}}}&STUDY_ID={{{{%STUDY_ID%}}}}\
                 &SESSION_ID={{{{%SESSION_ID%}}}}"
            )
        );
    }
    let published_path = site.join("studies/financial-prolific.json");
    let published_text = std::fs::read_to_string(&published_path).unwrap();
    assert!(!published_text.contains("fin-agent") && !published_text.contains("base-llm"));
    let study = parse_study(&published_text).unwrap();
    assert_eq!(study.completion().unwrap().code.as_deref(), Some(CODE));
    assert!(
        study.submit().is_some(),
        "the published study still sends files to DataPipe"
    );
    let key_path = keys.join("financial-prolific.key.json");
    let key: Value = serde_json::from_str(&std::fs::read_to_string(&key_path).unwrap()).unwrap();
    assert_eq!(key["ids_secret"].as_str().unwrap().len(), 64);

    // 3. Fifty participants, 25 per link; two stop part way (their backups come in too).
    let sha = sha256_hex(&published_text);
    let inbox = dir.join("inbox");
    std::fs::create_dir_all(&inbox).unwrap();
    let mut paid = Vec::new();
    let mut unfinished = Vec::new();
    for n in 0..50 {
        let slot = if n % 2 == 0 { "1" } else { "2" };
        let better = |token: &str| key["systems"][token] == "fin-agent";
        let stop = (n >= 48).then_some(10);
        let (session, file) = participant(&study, &sha, slot, n, &better, stop);
        assert_eq!(file.annotator.id.as_deref(), Some(pid(n).as_str()));
        let visit = file.annotator.platform.clone().unwrap();
        assert_eq!(
            (visit.name.as_str(), visit.session_id),
            ("prolific", Some(format!("sess{n:04}")))
        );
        assert_eq!(
            file.annotator.slot.to_string(),
            slot,
            "the link's slot is kept"
        );
        if session.progress.phase == Phase::Done {
            // What the finish page shows once the file is saved.
            let done = completion(&study, &file).unwrap();
            assert_eq!(done.code.as_deref(), Some(CODE));
            assert_eq!(
                done.link.as_deref(),
                Some(format!("https://app.prolific.com/submissions/complete?cc={CODE}").as_str())
            );
            paid.push(pid(n));
        } else {
            assert!(!file.complete);
            unfinished.push(pid(n));
        }
        std::fs::write(inbox.join(file.file_name("json")), file.to_json()).unwrap();
    }
    assert_eq!((paid.len(), unfinished.len()), (48, 2));

    // 4. The analysis, pseudonymised with the key's secret, as the study pre-registered it.
    let mut files: Vec<String> = std::fs::read_dir(&inbox)
        .unwrap()
        .map(|e| e.unwrap().path().display().to_string())
        .collect();
    files.sort();
    let study_arg = published_path.display().to_string();
    let key_arg = key_path.display().to_string();
    let mut args = vec![
        "analyze",
        "--study",
        &study_arg,
        "--key",
        &key_arg,
        "--resamples",
        "200",
    ];
    args.extend(files.iter().map(String::as_str));
    let out = juror(&args, "");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let report_text = text(&out.stdout);
    for p in paid.iter().chain(&unfinished) {
        assert!(!report_text.contains(p.as_str()), "{p} is in the report");
    }
    let report: Value = serde_json::from_str(&report_text).unwrap();
    assert_eq!(
        report["settings"]["platform_ids"],
        "pseudonymised with the key's secret"
    );
    assert_eq!(report["settings"]["plan_source"], "key");
    let inputs = report["inputs"].as_array().unwrap();
    assert_eq!(inputs.len(), 50);
    let mut pseudonyms: Vec<&str> = inputs
        .iter()
        .map(|i| i["annotator"].as_str().unwrap())
        .collect();
    assert!(pseudonyms.iter().all(|a| a.starts_with("prolific-")));
    pseudonyms.sort();
    pseudonyms.dedup();
    assert_eq!(pseudonyms.len(), 50, "one pseudonym per participant");
    let left_out: usize = inputs
        .iter()
        .map(|i| i["unfinished_trials"].as_u64().unwrap_or(0) as usize)
        .sum();
    assert!(
        left_out > 0,
        "the unfinished files' open trials are left out"
    );
    let quality = &report["dimensions"][0];
    assert_eq!(quality["dimension"], "quality");
    let comparison = &quality["comparisons"][0];
    assert_eq!(
        (
            comparison["system_a"].as_str(),
            comparison["system_b"].as_str()
        ),
        (Some("base-llm"), Some("fin-agent")),
        "{comparison}"
    );
    assert!(
        comparison["p_value"].as_f64().unwrap() < 0.001,
        "{comparison}"
    );

    // Paying: the same files with --reveal-ids give the PIDs of those who finished.
    args.extend(["--reveal-ids", "--format", "csv"]);
    let out = juror(&args, "");
    let csv = text(&out.stdout);
    for p in &paid {
        assert!(
            csv.contains(p.as_str()),
            "{p} is missing from the revealed CSV"
        );
    }
    std::fs::remove_dir_all(&dir).ok();
}
