//! `juror power`: the plan's comparisons with their power over a grid, from an assumed effect
//! or a pilot; usage errors exit 2 and name the fix.

use std::process::Output;

use serde_json::Value;

use super::support::{self, root};

fn path(relative: &str) -> String {
    root().join(relative).display().to_string()
}

fn juror(args: &[&str]) -> Output {
    support::juror().arg("power").args(args).output().unwrap()
}

fn json(out: &Output) -> Value {
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

/// `hare-personalization.json`'s plan: d ≥ .45, one-sided H1 at Bonferroni over 12: the closed form is statsmodels'
/// (`TTestPower().solve_power(0.45, alpha=0.05/12, power=0.8, alternative="larger")` is 63.3
/// participants), so 64 reach 80% and 60 do not.
#[test]
fn an_assumed_effect_sizes_the_hare_personalization_study() {
    let study = path("assets/studies/hare-personalization.json");
    let r = json(&juror(&[
        "--study",
        &study,
        "--effect",
        "0.45",
        "--participants",
        "60,64",
        "--simulations",
        "50",
        "--format",
        "json",
    ]));
    assert_eq!(r["format"], "juror.power/1");
    assert_eq!(r["source"], "assumed");
    let comparisons = r["comparisons"].as_array().unwrap();
    assert_eq!(comparisons.len(), 12);
    let h1 = comparisons
        .iter()
        .find(|c| c["hypothesis"] == "H1")
        .unwrap();
    assert_eq!(h1["alternative"], "greater");
    let grid = h1["grid"].as_array().unwrap();
    assert!(grid[0]["t_closed_form"].as_f64().unwrap() < 0.8);
    assert!(grid[1]["t_closed_form"].as_f64().unwrap() >= 0.8);
    assert_eq!(h1["participants_for_80"], 64);
}

/// A pilot's ratings estimate each comparison's effect; the Markdown report shows the grid.
#[test]
fn a_pilot_estimates_every_comparison() {
    let study = path("assets/studies/hare-personalization.json");
    let pilot = path("crates/juror-core/tests/fixtures/analysis/hare-ratings.csv");
    let out = juror(&[
        "--study",
        &study,
        &pilot,
        "--participants",
        "5,10",
        "--items",
        "10,20",
        "--simulations",
        "50",
    ]);
    assert_eq!(out.status.code(), Some(0));
    let md = String::from_utf8(out.stdout).unwrap();
    assert!(md.contains("from 12 pilot units"), "{md}");
    assert!(
        md.contains("## personalization: hare vs rag, H2 (A > B)"),
        "{md}"
    );
    assert!(md.contains("| 10 | 20 | 10 |"), "{md}");
    // The plan's flags apply here too: every pair, on items.
    let r = json(&juror(&[
        "--study",
        &study,
        &pilot,
        "--all-pairs",
        "--unit",
        "item",
        "--participants",
        "12",
        "--simulations",
        "20",
        "--format",
        "json",
    ]));
    assert_eq!(r["comparisons"].as_array().unwrap().len(), 24);
    assert_eq!(r["comparisons"][0]["scenario"]["pilot_units"], 10);
}

#[test]
fn usage_errors_exit_2_and_say_what_to_do() {
    let study = path("assets/studies/hare-personalization.json");
    for (args, says) in [
        (
            vec!["--effect", "0.4", "--participants", "1,x"],
            "give whole numbers of 2 or more",
        ),
        (
            vec!["--effect", "0.4", "--alpha", "2"],
            "give a level between 0 and 1",
        ),
        (
            vec!["--effect", "0.4", "--anchor", "gpt9"],
            "unknown system \"gpt9\"",
        ),
        (vec![], "required"),
    ] {
        let mut all = vec!["--study", study.as_str()];
        all.extend(args.iter().copied());
        let out = juror(&all);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains(says), "{args:?}: {stderr}");
    }
}
