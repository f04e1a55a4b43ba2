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

/// `--interaction SLOPE` simulates the method × round design of the study (its 10 rounds): the
/// same seed gives the same report, byte for byte; a larger slope difference has more power,
/// and with none the joint test rejects about as often as α says.
#[test]
fn the_interactions_power_is_seeded_and_grows_with_the_slope_difference() {
    let study = path("assets/studies/hare-personalization.json");
    let run = |slope: &str, format: &str| {
        let out = juror(&[
            "--study",
            &study,
            "--interaction",
            slope,
            "--participants",
            "12",
            "--simulations",
            "60",
            "--seed",
            "3",
            "--format",
            format,
        ]);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    };
    let md = run("0.1", "md");
    assert_eq!(md, run("0.1", "md"), "the same seed gives the same report");
    assert!(
        md.contains("# Power of the method × round interaction: personalisation-pilot"),
        "{md}"
    );
    assert!(md.contains("| 12 | 480 |"), "{md}");
    let power = |slope: &str| {
        let r: Value = serde_json::from_str(&run(slope, "json")).unwrap();
        assert_eq!(r["format"], "juror.power-interaction/1");
        assert_eq!(r["rounds"], 10);
        assert_eq!(r["seed"], 3);
        let cell = &r["grid"][0];
        assert_eq!(cell["participants"], 12);
        assert_eq!(cell["fitted"], 60);
        let (joint, contrast) = (
            cell["joint"].as_f64().unwrap(),
            cell["contrast"].as_f64().unwrap(),
        );
        // The Monte Carlo interval holds the share (to rounding: all 60 is 1 to 2e-16).
        let ci = &cell["joint_ci95"];
        assert!(ci["low"].as_f64().unwrap() <= joint, "{ci}");
        assert!(joint <= ci["high"].as_f64().unwrap() + 1e-12, "{ci}");
        (joint, contrast)
    };
    let (none, small, large) = (power("0"), power("0.1"), power("0.3"));
    assert!(none.0 <= 0.15 && none.1 <= 0.15, "no difference: {none:?}");
    assert!(
        none.0 < small.0 && small.0 < large.0,
        "{none:?} {small:?} {large:?}"
    );
    assert!(
        none.1 < small.1 && small.1 < large.1,
        "{none:?} {small:?} {large:?}"
    );
    assert!(large.0 > 0.95, "{large:?}");
}

/// Bad arguments of `--interaction` exit 2 and name the flag (or the study) and the fix; the
/// design's flags are refused without `--interaction` rather than silently ignored.
#[test]
fn the_interactions_bad_arguments_are_placed() {
    let hare = path("assets/studies/hare-personalization.json");
    let minimal = path("crates/juror-core/tests/fixtures/valid/minimal.json");
    for (study, args, says) in [
        (
            &hare,
            vec!["--interaction", "nan"],
            "--interaction: give a slope difference per round",
        ),
        (
            &hare,
            vec!["--interaction", "0.1", "--rounds", "1"],
            "--rounds: give 2 or more rounds",
        ),
        (
            &hare,
            vec!["--interaction", "0.1", "--sd-participant", "-1"],
            "--sd-participant -1: give a standard deviation of 0 or more",
        ),
        (
            &hare,
            vec!["--interaction", "0.1", "--sd-residual", "0"],
            "--sd-residual 0: ratings need some noise",
        ),
        (
            &hare,
            vec!["--effect", "0.3", "--rounds", "3"],
            "--rounds: only with --interaction SLOPE",
        ),
        (
            &hare,
            vec!["--effect", "0.3", "--sd-residual", "2"],
            "--sd-residual: only with --interaction SLOPE",
        ),
        (
            &hare,
            vec!["--interaction", "0.1", "--effect", "0.3"],
            "cannot be used with",
        ),
        (
            &minimal,
            vec!["--interaction", "0.1"],
            "minimal.json: the study's items have fewer than two rounds: give --rounds N",
        ),
    ] {
        let mut all = vec!["--study", study.as_str()];
        all.extend(args.iter().copied());
        let out = juror(&all);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains(says), "{args:?}: {stderr}");
    }
    // The study without rounds is simulated with the rounds given.
    let out = juror(&[
        "--study",
        &minimal,
        "--interaction",
        "0.2",
        "--rounds",
        "4",
        "--participants",
        "6",
        "--simulations",
        "5",
        "--format",
        "json",
    ]);
    assert_eq!(json(&out)["rounds"], 4);
}

/// Without a study: a preference share's exact binomial power (0.7 at n = 49 is 0.810, at 50 it
/// is 0.782: scipy's binom over the rejection region), a pairwise design by simulation, and the
/// human labels of a judge-assisted estimate; a malformed pilot is a usage error.
#[test]
fn preference_designs_and_judge_assisted_estimates_are_sized_without_a_study() {
    let share = json(&juror(&[
        "--share",
        "0.7",
        "--judgements",
        "49,50",
        "--format",
        "json",
    ]));
    assert_eq!(share["format"], "juror.sizing/1");
    assert_eq!(share["kind"], "share");
    let power: Vec<f64> = share["grid"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c[1].as_f64().unwrap())
        .collect();
    assert!(
        (power[0] - 0.810).abs() < 5e-4 && (power[1] - 0.782).abs() < 5e-4,
        "{power:?}"
    );
    assert_eq!(
        (share["first"].as_u64(), share["stable"].as_u64()),
        (Some(49), Some(54))
    );

    let design = json(&juror(&[
        "--strengths",
        "1,1",
        "--per-pair",
        "50",
        "--simulations",
        "400",
        "--format",
        "json",
    ]));
    let pair = &design["pairs"][0];
    // Equal strengths: the rejection rate is the test's exact size, inside the MC interval.
    let (low, high) = (
        pair["interval"][0].as_f64().unwrap(),
        pair["interval"][1].as_f64().unwrap(),
    );
    let exact = pair["exact"].as_f64().unwrap();
    assert!(low <= exact && exact <= high, "{pair}");

    let ppi = json(&juror(&[
        "--ppi-shares",
        "0.7,0.65,0.6",
        "--unlabelled",
        "5000",
        "--half-width",
        "0.03",
        "--format",
        "json",
    ]));
    let (humans, alone) = (
        ppi["humans"].as_u64().unwrap(),
        ppi["humans_only"].as_u64().unwrap(),
    );
    assert!(humans < alone, "{ppi}");

    let bad = juror(&[
        "--ppi-shares",
        "0.7,0.65",
        "--unlabelled",
        "10",
        "--half-width",
        "0.1",
    ]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("give three shares from the pilot"));
}
