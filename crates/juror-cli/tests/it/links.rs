//! `juror links`: one link per slot as CSV, with a platform's placeholders; a platform it does
//! not know is refused with the ones it does.

use super::support::{self, root};

fn juror(args: &[&str]) -> std::process::Output {
    support::juror()
        .current_dir(root())
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn one_link_per_slot_with_the_platforms_placeholders() {
    let out = juror(&[
        "links",
        "assets/studies/reasoning-trajectories.json",
        "--base-url",
        "https://you.github.io/juror",
        "--platform",
        "prolific",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // UX walkthrough 2026-12-01, finding 6: links of a study that names its systems say that
    // they are for the study as written, not a published copy, and how many there are.
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(
        stderr.contains("this is a study that names its systems (not a copy juror publish wrote)")
            && stderr.contains("these 9 links open it as written"),
        "{stderr}"
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "study_id,slot,url");
    assert_eq!(lines.len(), 1 + 9, "{text}");
    assert_eq!(
        lines[4],
        "pixelis-reasoning-trajectories,4,https://you.github.io/juror/index.html?study=studies/reasoning-trajectories.json&slot=4&PROLIFIC_PID={{%PROLIFIC_PID%}}&STUDY_ID={{%STUDY_ID%}}&SESSION_ID={{%SESSION_ID%}}"
    );
    let out = juror(&[
        "links",
        "assets/studies/reasoning-trajectories.json",
        "--base-url",
        "https://x.org/",
        "--platform",
        "qualtrics",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("use prolific, mturk or sona"));
}

/// Prolific links for a study with no completion code are still made, with a warning that says
/// what to add; with the code, no warning.
#[test]
fn prolific_links_for_a_study_without_a_completion_code_warn() {
    let without = "assets/studies/reasoning-trajectories.json";
    let text = std::fs::read_to_string(root().join(without)).unwrap();
    let mut study: serde_json::Value = serde_json::from_str(&text).unwrap();
    study["completion"] = serde_json::json!({
        "code": "C0DE",
        "redirect": "https://app.prolific.com/submissions/complete?cc={code}"
    });
    let dir = support::scratch("links-completion");
    let with = dir.join("with-completion.json");
    std::fs::write(&with, serde_json::to_string(&study).unwrap()).unwrap();
    let with = with.to_string_lossy().into_owned();
    let args = |study: &str, platform: &str| {
        juror(&[
            "links",
            study,
            "--base-url",
            "https://x.org/",
            "--platform",
            platform,
        ])
    };
    let out = args(without, "prolific");
    assert!(out.status.success());
    let warned = String::from_utf8_lossy(&out.stderr);
    assert!(
        warned.contains("the study has no completion code"),
        "{warned}"
    );
    assert!(warned.contains("\"completion\""), "{warned}");
    for quiet in [args(without, "sona"), args(&with, "prolific")] {
        assert!(quiet.status.success());
        // Nothing about the completion path (the study as written is said to be one).
        let said = String::from_utf8_lossy(&quiet.stderr);
        assert!(!said.contains("completion code"), "{said}");
    }
}
