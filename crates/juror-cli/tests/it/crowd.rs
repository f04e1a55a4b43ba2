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
//!    see the completion code, two stop part way and see none. DataPipe receives what the
//!    page sends: a backup every ten trials (`…-backup-N.json`, the page's own request) and
//!    the final file; some participants change an answer on the finish page after a backup,
//!    and one edits the slot in the link.
//! 4. `juror analyze --key` reads the whole inbox: every participant under a keyed pseudonym,
//!    their backups superseded by their final file (the changed answers win), the study's
//!    pre-registered comparison, the two unfinished files' trials left out; `--reveal-ids
//!    --format csv` gives the PIDs.
//! 5. `juror payments --key` lists each participant with what to check before paying: the
//!    file complete, the attention check passed, the time on task, Prolific's session, the
//!    slot (the edited one noted).
//!
//! What the page does with the same session (the code only after the file is saved, the
//! DataPipe POST and its retry) is in tests/e2e/platforms.spec.ts and submission.spec.ts.

use std::collections::BTreeMap;
use std::process::Output;

use juror_core::base::digest::sha256_hex;
use juror_core::plan::{Annotator, platform_visit, resolve_annotator};
use juror_core::session::completion::completion;
use juror_core::session::ratings::{RatingsFile, export};
use juror_core::session::submit::backup_request;
use juror_core::session::{Msg, Phase, Reply, Session, Target, update};
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
    study["design"]["attention_checks"] = json!([{
        "kind": "rating",
        "item": CHECK_ITEM,
        "system": "fin-agent",
        "dimension": "quality",
        "accept": [4, 5]
    }]);
    study
}

/// The attention check's item: fin-agent's analysis of it must be rated 4 or 5.
const CHECK_ITEM: &str = "aapl";

/// What one participant sent, and what the test expects of it.
struct Sent {
    session: Session,
    /// The last file (final or stopped).
    file: RatingsFile,
    /// The backups, as DataPipe stores them: (file name, text).
    backups: Vec<(String, String)>,
    /// The score changed on the finish page after the backups: (item, new score).
    changed: Option<(String, i32)>,
    /// The score given to fin-agent's output of the check item.
    check_score: Option<i32>,
}

/// A Prolific PID: 24 hex digits.
fn pid(n: usize) -> String {
    format!("{:024x}", 0x5f0c_0000_0000_0000_u64 + (n as u64) * 7_919)
}

/// One participant, from their slot's link as Prolific fills it in (the link of Prolific study
/// `prolific_study`, its `slot=` possibly edited to `link_slot`), to the ratings file the page
/// would let them download and the backups it sent every ten trials: scores that favour the
/// outputs for which `better` is true (it reads the key: each item's outputs have tokens of
/// their own) by about a point, with some noise; `stop_after` trials only, if given; with
/// `change`, the first trial's score changed on the finish page after the backups.
#[allow(clippy::too_many_arguments)]
fn participant(
    study: &Study,
    study_sha: &str,
    prolific_study: &str,
    link_slot: &str,
    n: usize,
    better: &dyn Fn(&str) -> bool,
    stop_after: Option<usize>,
    change: bool,
) -> Sent {
    let pid = pid(n);
    let session_id = format!("sess{n:04}");
    let link = |name: &str| match name {
        "slot" => Some(link_slot.to_owned()),
        "PROLIFIC_PID" => Some(pid.clone()),
        "STUDY_ID" => Some(format!("65a1b2c3d4e5f6a7b8c9d0e{prolific_study}")),
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
        now
    };
    step(&mut s, Msg::Start);
    step(&mut s, Msg::FinishInstructions);
    assert_eq!(s.progress.phase, Phase::Trials);
    let rate = |value| {
        Msg::answer(
            Target::Rating {
                position: 0,
                dimension: "quality".into(),
            },
            Reply::Score(value),
        )
    };
    let total = s.plan.trials.len();
    let mut backups = Vec::new();
    let mut check_score = None;
    for index in 0..stop_after.unwrap_or(total) {
        let shown = &s.plan.trials[index].shown[0];
        let token = &study.systems()[shown.system];
        let base = if better(token) { 4 } else { 3 };
        let noise = [0, 1, -1, 0, 0, 1, -1][(n * 3 + index * 5) % 7];
        let item = &study.items()[s.plan.trials[index].item].id;
        if item == CHECK_ITEM && better(token) {
            check_score = Some(base + noise);
        }
        step(&mut s, rate(base + noise));
        let at = step(&mut s, Msg::Next);
        let done = index + 1;
        if done.is_multiple_of(10) && done < total {
            // What the page POSTs to DataPipe: the file under its backup name.
            let file = export(study, study_sha, &s, "0.1.0", at);
            let request = backup_request(study, &file, done).unwrap();
            let body: Value = serde_json::from_str(&request.body).unwrap();
            backups.push((
                body["filename"].as_str().unwrap().to_owned(),
                body["data"].as_str().unwrap().to_owned(),
            ));
        }
    }
    let mut changed = None;
    if change && s.progress.phase == Phase::Done {
        // "Review or change an answer": back to the first trial, another score, and the
        // final file sent again.
        let first = s.plan.trials[0].clone();
        let item = study.items()[first.item].id.clone();
        let token = &study.systems()[first.shown[0].system];
        let value = if better(token) { 1 } else { 5 };
        step(&mut s, Msg::GoTo(0));
        step(&mut s, rate(value));
        step(&mut s, Msg::GoTo(total - 1));
        step(&mut s, Msg::Next);
        assert_eq!(s.progress.phase, Phase::Done);
        changed = Some((item, value));
    }
    let file = export(study, study_sha, &s, "0.1.0", now + 1_000.0);
    Sent {
        session: s,
        file,
        backups,
        changed,
        check_score,
    }
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
             must allow: build with JUROR_SUBMIT_ORIGINS=\"https://pipe.jspsych.org\" \
             (docs/hosting.md, \"Sending files to a service\")"
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

    // 3. Fifty participants, 25 per link; two stop part way. DataPipe stores what the page
    // sends: the backups and the final file.
    let sha = sha256_hex(&published_text);
    let inbox = dir.join("inbox");
    std::fs::create_dir_all(&inbox).unwrap();
    let better = |token: &str| key["systems"][token] == "fin-agent";
    let sent: Vec<Sent> = (0..50)
        .map(|n| arrive(&study, &sha, n, &better, &inbox))
        .collect();
    let paid: Vec<String> = (0..50)
        .filter(|&n| sent[n].session.progress.phase == Phase::Done)
        .map(pid)
        .collect();
    assert_eq!(paid.len(), 48);
    let backups: usize = sent.iter().map(|s| s.backups.len()).sum();
    assert!(backups >= 50, "{backups} backups");
    assert!(sent.iter().filter(|s| s.changed.is_some()).count() >= 5);

    // 4. The analysis, pseudonymised with the key's secret, as the study pre-registered it.
    let mut files: Vec<String> = std::fs::read_dir(&inbox)
        .unwrap()
        .map(|e| e.unwrap().path().display().to_string())
        .collect();
    // As a shell's `files/*.json` gives them: each participant's backups before the final.
    files.sort();
    assert_eq!(files.len(), 50 + backups);
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
    assert!(
        text(&out.stderr).contains(&format!("{backups} earlier ratings file(s)")),
        "one line for the backups: {}",
        text(&out.stderr)
    );
    let report_text = text(&out.stdout);
    for n in 0..50 {
        assert!(
            !report_text.contains(&pid(n)),
            "{} is in the report",
            pid(n)
        );
    }
    assert!(!report_text.contains("duplicate"));
    let report: Value = serde_json::from_str(&report_text).unwrap();
    let trials: usize = sent
        .iter()
        .map(|s| s.file.trials.iter().filter(|t| t.done).count())
        .sum();
    check_report(&report, backups, trials);

    // The same files with --reveal-ids: the changed answers are the final file's, not the
    // backups'.
    args.extend(["--reveal-ids", "--format", "csv"]);
    let out = juror(&args, "");
    let csv = text(&out.stdout);
    for p in &paid {
        assert!(
            csv.contains(p.as_str()),
            "{p} is missing from the revealed CSV"
        );
    }
    for (n, s) in sent.iter().enumerate() {
        if let Some((item, score)) = s.changed.as_ref().filter(|(i, _)| i != CHECK_ITEM) {
            let rows: Vec<&str> = csv
                .lines()
                .filter(|l| l.starts_with(&format!("{item},")) && l.contains(&pid(n)))
                .collect();
            assert!(
                rows.iter()
                    .any(|r| r.contains(&format!(",quality,{score}"))),
                "{}'s changed score of {item} is {score}: {rows:?}",
                pid(n)
            );
        }
    }

    // 5. Before paying: the payment list of the same inbox.
    check_payments(&study_arg, &key_arg, &files, &sent);
    std::fs::remove_dir_all(&dir).ok();
}

/// Participant `n` arrives through their Prolific study's link (even: slot 1, odd: slot 2;
/// participant 9 edits `slot=2` to `slot=1`), rates, and the inbox receives their backups and
/// their last file; every fifth participant who finishes changes a score after the backups.
fn arrive(
    study: &Study,
    sha: &str,
    n: usize,
    better: &dyn Fn(&str) -> bool,
    inbox: &std::path::Path,
) -> Sent {
    let prolific_study = if n.is_multiple_of(2) { "1" } else { "2" };
    let slot = if n == 9 { "1" } else { prolific_study };
    let stop = (n >= 48).then_some(10);
    let sent = participant(
        study,
        sha,
        prolific_study,
        slot,
        n,
        better,
        stop,
        n.is_multiple_of(5),
    );
    let file = &sent.file;
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
    if sent.session.progress.phase == Phase::Done {
        // What the finish page shows once the file is saved.
        let done = completion(study, file).unwrap();
        assert_eq!(done.code.as_deref(), Some(CODE));
        assert_eq!(
            done.link.as_deref(),
            Some(format!("https://app.prolific.com/submissions/complete?cc={CODE}").as_str())
        );
    } else {
        assert!(!file.complete);
    }
    for (name, body) in &sent.backups {
        std::fs::write(inbox.join(name), body).unwrap();
    }
    std::fs::write(inbox.join(file.file_name("json")), file.to_json()).unwrap();
    sent
}

/// The report of the whole inbox: one file read per participant under a keyed pseudonym, the
/// backups superseded, the unfinished trials left out, fin-agent ahead.
fn check_report(report: &Value, backups: usize, trials: usize) {
    assert_eq!(
        report["settings"]["platform_ids"],
        "pseudonymised with the key's secret"
    );
    assert_eq!(report["settings"]["plan_source"], "key");
    let inputs = report["inputs"].as_array().unwrap();
    assert_eq!(inputs.len(), 50 + backups);
    let read: Vec<&Value> = inputs
        .iter()
        .filter(|i| i["kind"] == "ratings_file")
        .collect();
    assert_eq!(read.len(), 50, "one file read per participant");
    let superseded = inputs
        .iter()
        .filter(|i| i["kind"] == "superseded_backup")
        .count();
    assert_eq!(superseded, backups);
    let mut pseudonyms: Vec<&str> = read
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
    // Each trial counted once: the annotators' trials are those of their last files.
    let counted: u64 = report["diagnostics"]["annotators"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["trials"].as_u64().unwrap())
        .sum();
    assert_eq!(counted, trials as u64);
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
}

/// `juror payments --key` on the inbox: one row per participant, with the platform's original
/// PID, Prolific's session, the file complete, the attention check as the key scores it, the
/// time on task, the participant's files counted, and the edited slot noted.
fn check_payments(study: &str, key: &str, files: &[String], sent: &[Sent]) {
    let mut args = vec!["payments", study, "--key", key, "--format", "csv"];
    args.extend(files.iter().map(String::as_str));
    let out = juror(&args, "");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let csv = text(&out.stdout);
    let mut lines = csv.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let col = |name: &str| header.iter().position(|h| *h == name).unwrap();
    let rows: BTreeMap<String, Vec<String>> = lines
        .map(|l| {
            let cells: Vec<String> = l.split(',').map(str::to_owned).collect();
            (cells[0].clone(), cells)
        })
        .collect();
    assert_eq!(rows.len(), 50, "{csv}");
    for (n, s) in sent.iter().enumerate() {
        let row = &rows[&pid(n)];
        let finished = s.session.progress.phase == Phase::Done;
        assert_eq!(row[col("session")], format!("sess{n:04}"));
        assert_eq!(row[col("complete")], finished.to_string());
        assert_eq!(row[col("files")], (s.backups.len() + 1).to_string());
        let minutes: f64 = row[col("active_minutes")].parse().unwrap();
        assert!(minutes > 0.0, "{row:?}");
        if let Some(score) = s.check_score {
            let passed = [4, 5].contains(&score);
            assert_eq!(row[col("checks")], "1", "{row:?}");
            assert_eq!(
                row[col("checks_passed")],
                if passed { "1" } else { "0" },
                "{row:?}"
            );
            let notes = &row[col("notes")];
            assert_eq!(
                notes.contains("attention check(s) failed"),
                !passed,
                "{row:?}"
            );
        }
        let slot_noted = row[col("notes")].contains("check the link was not edited");
        assert_eq!(slot_noted, n == 9, "{row:?}");
    }
    assert!(
        sent.iter()
            .filter_map(|s| s.check_score)
            .any(|c| ![4, 5].contains(&c)),
        "some participant fails the check"
    );
    let table = juror(&args[..args.len() - files.len() - 2], "");
    assert_eq!(table.status.code(), Some(2), "no files: a usage error");
    let mut args = vec!["payments", study, "--key", key];
    args.extend(files.iter().map(String::as_str));
    let table = text(&juror(&args, "").stdout);
    assert!(table.starts_with("participant"), "{table}");
    assert!(
        table.contains(&pid(0)) && table.contains("sess0000"),
        "{table}"
    );
}
