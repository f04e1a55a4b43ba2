//! Per-annotator standardisation (`standardise: "annotator"`) against numpy and scipy.
//!
//! The data are `tests/reference/standardise/sliders.csv`: 0–100 slider scores of three systems
//! by annotators who use the slider differently, one annotator with a single score and one whose
//! scores are all equal. Expected values are `reference.json` beside it (`make_reference.py`;
//! numpy 2.4.6, scipy 1.17.1): z-scores per annotator with the sample SD, item means, system
//! means beside the raw means, and the paired t and Wilcoxon tests on the z item means; tolerance
//! 1e-9 (closed forms, the Wilcoxon's exact distribution).

use std::path::Path;

use juror_core::analysis::overrides::{AnalysisPlan, Standardise};
use juror_core::analysis::report::{Options, Report, report, z_scores};
use juror_core::analysis::{Context, Input, markdown, read};

use crate::support::{f, reference};

fn close(what: &str, got: f64, want: f64) {
    assert!(
        (got - want).abs() <= 1e-9 * want.abs().max(1.0),
        "{what}: {got} != {want}"
    );
}

fn csv() -> String {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/reference/standardise/sliders.csv");
    std::fs::read_to_string(path).expect("sliders.csv")
}

fn report_with(standardise: Standardise) -> Report {
    let data = read(&[Input::new("sliders.csv", csv())], &Context::default());
    assert!(data.problems.is_empty(), "{:?}", data.problems);
    let options = Options {
        resamples: 10,
        plan: Some(AnalysisPlan {
            standardise,
            ..AnalysisPlan::default()
        }),
        ..Options::default()
    };
    report(&data, None, None, &options)
}

#[test]
fn z_scores_system_means_and_tests_match_numpy_and_scipy() {
    let want = reference("standardise");
    let r = report_with(Standardise::Annotator);
    let d = &r.dimensions[0];
    let z = d.standardised.as_ref().expect("a standardised block");
    assert_eq!(z.annotators, 6);
    let left: Vec<&str> = z.left_out.iter().map(|l| l.annotator.as_str()).collect();
    assert_eq!(left, ["ann-once", "ann-flat"]);
    assert!(z.left_out[0].reason.contains("one score"));
    assert!(z.left_out[1].reason.contains("SD 0"));
    for s in &z.systems {
        let w = &want["systems"][&s.system];
        close(&format!("{} mean z", s.system), s.mean_z, f(w, "mean_z"));
        close(
            &format!("{} sd z", s.system),
            s.sd_z.expect("sd"),
            f(w, "sd_z"),
        );
        close(
            &format!("{} raw mean", s.system),
            s.raw_mean,
            f(w, "raw_mean"),
        );
        assert_eq!(s.n as u64, w["n"].as_u64().expect("n"));
    }
    let pairs = want["pairs"].as_array().expect("pairs");
    assert_eq!(d.comparisons.len(), pairs.len());
    for (c, w) in d.comparisons.iter().zip(pairs) {
        let what = format!("{} – {}", c.system_a, c.system_b);
        assert_eq!(
            (c.system_a.as_str(), c.system_b.as_str()),
            (w["a"].as_str().unwrap(), w["b"].as_str().unwrap())
        );
        close(&format!("{what} mean a"), c.mean_a.unwrap(), f(w, "mean_a"));
        close(&format!("{what} mean b"), c.mean_b.unwrap(), f(w, "mean_b"));
        close(
            &format!("{what} diff"),
            c.mean_diff.unwrap(),
            f(w, "mean_diff"),
        );
        let t = c.t_test.expect("t");
        close(&format!("{what} t"), t.t, f(w, "t"));
        close(&format!("{what} t p"), t.p_value, f(w, "t_p"));
        let wx = c.wilcoxon.expect("wilcoxon");
        close(
            &format!("{what} W"),
            wx.statistic,
            f(w, "wilcoxon_statistic"),
        );
        close(&format!("{what} W p"), wx.p_value, f(w, "wilcoxon_p"));
    }
    // The Markdown shows both means and the methods say what was done.
    let md = markdown::render(&r);
    assert!(md.contains("### Standardised per annotator"), "{md}");
    assert!(md.contains("| sys-a | 10 |"), "{md}");
    assert!(md.contains("ann-once (1 rating(s)): one score"), "{md}");
    assert!(
        md.contains("Scores were standardised per annotator"),
        "{md}"
    );
}

#[test]
fn without_standardising_the_comparisons_are_on_raw_scores() {
    let want = reference("standardise");
    let raw = report_with(Standardise::None);
    let d = &raw.dimensions[0];
    assert!(d.standardised.is_none());
    // Raw item means: every annotator counts, so the raw means differ from the reference's
    // (which leave out the two annotators that cannot be standardised).
    let a = &d.comparisons[0];
    assert!((a.mean_diff.unwrap() - f(&want["pairs"][0], "mean_diff")).abs() > 1.0);
    let md = markdown::render(&raw);
    assert!(!md.contains("Standardised per annotator"));
    assert!(!md.contains("Scores were standardised"));
}

#[test]
fn an_annotator_who_cannot_be_standardised_is_left_out_with_the_reason() {
    let data = read(
        &[Input::new(
            "x.csv",
            "item_id,system_id,annotator_id,dimension,score\n\
             i1,a,one,q,40\ni1,a,two,q,70\ni2,a,two,q,70\ni1,a,three,q,10\ni2,a,three,q,30\n"
                .to_owned(),
        )],
        &Context::default(),
    );
    let rows: Vec<_> = data.ratings.iter().collect();
    let (z, left_out) = z_scores(&rows);
    // "three": mean 20, SD √200; both scores ±1/√2.
    assert_eq!(z.len(), 2);
    close("z1", z[0].score, -std::f64::consts::FRAC_1_SQRT_2);
    close("z2", z[1].score, std::f64::consts::FRAC_1_SQRT_2);
    let who: Vec<(&str, usize)> = left_out
        .iter()
        .map(|l| (l.annotator.as_str(), l.ratings))
        .collect();
    assert_eq!(who, [("one", 1), ("two", 2)]);
}
