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
