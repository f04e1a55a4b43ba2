//! `stats::paired` against scipy, statsmodels and numpy.
//!
//! Every expected value comes from `tests/reference/paired/reference.json`, written by
//! `make_reference.py` beside it (library versions in its `versions` object). Tolerances:
//! - closed forms and p-values (normal, t, exact and permutation distributions): 1e-9, read as
//!   |got − want| ≤ 1e-9 · max(1, |want|), i.e. absolute for p-values and relative for large
//!   statistics;
//! - the special functions themselves, against `scipy.special`, by relative error (see
//!   `SPECIAL_RELATIVE` for the figure and why it holds).

use std::path::PathBuf;

use juror_core::stats::paired::{
    self, Alternative, PairedError, WilcoxonDistribution, WilcoxonMethod,
};
use juror_core::stats::{special, trend};
use serde_json::Value;

use crate::support::{check, f, reference, tol};

/// Largest relative difference allowed between `special` and `scipy.special`. Both are
/// accurate to about 1e-15 in most of the ranges tested; the measured worst cases are printed
/// by `special_functions_match_scipy` (run with `--nocapture`): about 1e-14 or better, except
/// the t distribution with huge df (see `t_tolerance`).
const SPECIAL_RELATIVE: f64 = 1e-13;

/// The t distribution's tail is ½ I_x(df/2, ½) with x = df/(df + t²) close to 1 when df ≫ t²;
/// there the continued fraction's terms cancel and its relative error grows like
/// ε · df/2 (documented in `special`): 6e-11 measured at df = 10⁶, 1e-13 or better up to
/// df = 10³. Every p-value elsewhere in these tests has df below 300.
fn t_tolerance(df: f64) -> f64 {
    SPECIAL_RELATIVE + 2e-16 * df
}

fn floats(v: &Value) -> Vec<f64> {
    v.as_array()
        .unwrap_or_else(|| panic!("not an array: {v}"))
        .iter()
        .map(|x| x.as_f64().expect("a number"))
        .collect()
}

fn diffs(sample: &Value) -> Vec<f64> {
    if sample["d"].is_array() {
        floats(&sample["d"])
    } else {
        paired::differences(&floats(&sample["x"]), &floats(&sample["y"])).expect("paired")
    }
}

/// |got − want| / max(|want|, floor): relative error, or absolute error below `floor`.
fn relative(got: f64, want: f64, floor: f64) -> f64 {
    if got == want {
        0.0
    } else {
        (got - want).abs() / want.abs().max(floor)
    }
}

/// Probabilities are compared relatively down to 1e-300 (a p-value of 1e-30 must be right to
/// 12 digits, not merely below 1e-9).
const PROBABILITY: f64 = 1e-300;
/// ln Γ and quantiles cross zero, where only the absolute error means anything.
const CROSSES_ZERO: f64 = 1.0;

#[test]
fn special_functions_match_scipy() {
    let r = reference("paired");
    let sp = &r["special"];
    let mut worst: Vec<(String, f64)> = Vec::new();
    let mut run =
        |name: &str, floor: f64, cases: &Value, arg: &dyn Fn(&Value) -> (f64, String, f64)| {
            let mut max = 0.0_f64;
            let mut at = String::new();
            for c in cases.as_array().expect("cases") {
                let (got, label, tolerance) = arg(c);
                let want = f(c, "value");
                let err = relative(got, want, floor);
                assert!(
                    err <= tolerance,
                    "{name}({label}): got {got:e}, scipy {want:e}, relative error {err:e}"
                );
                if err >= max {
                    max = err;
                    at = label;
                }
            }
            worst.push((format!("{name}({at})"), max));
        };
    let one = |x: f64| format!("{x}");
    run("ln_gamma", CROSSES_ZERO, &sp["ln_gamma"], &|c| {
        let x = f(c, "x");
        (special::ln_gamma(x), one(x), SPECIAL_RELATIVE)
    });
    run("erfc", PROBABILITY, &sp["erfc"], &|c| {
        let x = f(c, "x");
        (special::erfc(x), one(x), SPECIAL_RELATIVE)
    });
    run("normal_cdf", PROBABILITY, &sp["normal_cdf"], &|c| {
        let z = f(c, "z");
        (special::normal_cdf(z), one(z), SPECIAL_RELATIVE)
    });
    run("normal_sf", PROBABILITY, &sp["normal_sf"], &|c| {
        let z = f(c, "z");
        (special::normal_sf(z), one(z), SPECIAL_RELATIVE)
    });
    run(
        "normal_quantile",
        CROSSES_ZERO,
        &sp["normal_quantile"],
        &|c| {
            let p = f(c, "p");
            (special::normal_quantile(p), one(p), SPECIAL_RELATIVE)
        },
    );
    run("t_cdf", PROBABILITY, &sp["t_cdf"], &|c| {
        let (df, t) = (f(c, "df"), f(c, "t"));
        (
            special::t_cdf(t, df),
            format!("t={t}, df={df}"),
            t_tolerance(df),
        )
    });
    run("t_sf", PROBABILITY, &sp["t_sf"], &|c| {
        let (df, t) = (f(c, "df"), f(c, "t"));
        (
            special::t_sf(t, df),
            format!("t={t}, df={df}"),
            t_tolerance(df),
        )
    });
    run("t_quantile", CROSSES_ZERO, &sp["t_quantile"], &|c| {
        let (df, p) = (f(c, "df"), f(c, "p"));
        let label = format!("p={p}, df={df}");
        (special::t_quantile(p, df), label, t_tolerance(df))
    });
    run("beta_inc", PROBABILITY, &sp["beta_inc"], &|c| {
        let (a, b, x) = (f(c, "a"), f(c, "b"), f(c, "x"));
        let label = format!("a={a}, b={b}, x={x}");
        (special::beta_inc(a, b, x), label, SPECIAL_RELATIVE)
    });
    run("beta_inc_inv", PROBABILITY, &sp["beta_inc_inv"], &|c| {
        let (a, b, p) = (f(c, "a"), f(c, "b"), f(c, "p"));
        let label = format!("a={a}, b={b}, p={p}");
        (special::beta_inc_inv(a, b, p), label, SPECIAL_RELATIVE)
    });
    for (name, max) in worst {
        println!("{name:>40}: largest relative difference from scipy {max:.2e}");
    }
}

#[test]
fn descriptives_match_numpy_and_scipy() {
    for s in reference("paired")["samples"].as_array().expect("samples") {
        let name = s["name"].as_str().expect("name");
        let want = &s["describe"];
        let got = paired::describe(&diffs(s)).expect("describe");
        assert_eq!(got.n as f64, f(want, "n"), "{name}");
        check(
            &format!("{name} mean"),
            got.mean,
            f(want, "mean"),
            tol::CLOSED_FORM,
        );
        check(
            &format!("{name} sd"),
            got.sd,
            f(want, "sd"),
            tol::CLOSED_FORM,
        );
        check(
            &format!("{name} median"),
            got.median,
            f(want, "median"),
            tol::CLOSED_FORM,
        );
        check(
            &format!("{name} ci low"),
            got.ci95.low,
            f(want, "ci95_low"),
            tol::CLOSED_FORM,
        );
        check(
            &format!("{name} ci high"),
            got.ci95.high,
            f(want, "ci95_high"),
            tol::CLOSED_FORM,
        );
    }
}

#[test]
fn bootstrap_reproduces_the_python_stream() {
    let mut checked = 0;
    for s in reference("paired")["samples"].as_array().expect("samples") {
        let want = &s["bootstrap"];
        if want.is_null() {
            continue;
        }
        let name = s["name"].as_str().expect("name");
        let got = paired::bootstrap_mean(
            &diffs(s),
            f(want, "level"),
            f(want, "resamples") as usize,
            f(want, "seed") as u64,
        )
        .expect("bootstrap");
        check(
            &format!("{name} mean"),
            got.mean,
            f(want, "mean"),
            tol::CLOSED_FORM,
        );
        check(
            &format!("{name} low"),
            got.interval.low,
            f(want, "low"),
            tol::CLOSED_FORM,
        );
        check(
            &format!("{name} high"),
            got.interval.high,
            f(want, "high"),
            tol::CLOSED_FORM,
        );
        checked += 1;
    }
    assert!(checked >= 10, "only {checked} bootstrap cases");
}

fn distribution(name: &str) -> WilcoxonDistribution {
    match name {
        "exact" => WilcoxonDistribution::Exact,
        "permutation" => WilcoxonDistribution::Permutation,
        "normal" => WilcoxonDistribution::Normal,
        other => panic!("unknown distribution {other}"),
    }
}

#[test]
fn wilcoxon_matches_scipy() {
    for s in reference("paired")["samples"].as_array().expect("samples") {
        let name = s["name"].as_str().expect("name");
        let want = &s["wilcoxon"];
        let d = diffs(s);
        let got = paired::wilcoxon(&d).expect("wilcoxon");
        assert_eq!(
            got.distribution,
            distribution(want["distribution"].as_str().expect("distribution")),
            "{name}"
        );
        assert_eq!(got.n as f64, f(want, "n"), "{name} n");
        assert_eq!(got.zeros as f64, f(want, "zeros"), "{name} zeros");
        assert_eq!(
            got.ties,
            want["ties"].as_bool().expect("ties"),
            "{name} ties"
        );
        check(
            &format!("{name} statistic"),
            got.statistic,
            f(want, "statistic"),
            tol::CLOSED_FORM,
        );
        check(
            &format!("{name} W+"),
            got.w_plus,
            f(want, "w_plus"),
            tol::CLOSED_FORM,
        );
        check(
            &format!("{name} W-"),
            got.w_minus,
            f(want, "w_minus"),
            tol::CLOSED_FORM,
        );
        check(
            &format!("{name} p"),
            got.p_value,
            f(want, "pvalue"),
            tol::CLOSED_FORM,
        );

        let normal = paired::wilcoxon_with(&d, WilcoxonMethod::Normal).expect("normal");
        assert_eq!(normal.distribution, WilcoxonDistribution::Normal);
        check(
            &format!("{name} asymptotic p"),
            normal.p_value,
            f(want, "asymptotic_pvalue"),
            tol::CLOSED_FORM,
        );
        let z = normal.z.expect("z of the normal approximation");
        check(
            &format!("{name} |z|"),
            z.abs(),
            f(want, "asymptotic_z_abs"),
            tol::CLOSED_FORM,
        );

        if want["exact_pvalue"].is_number() {
            let exact = paired::wilcoxon_with(&d, WilcoxonMethod::Exact).expect("exact");
            assert_eq!(exact.distribution, WilcoxonDistribution::Exact, "{name}");
            check(
                &format!("{name} exact p"),
                exact.p_value,
                f(want, "exact_pvalue"),
                tol::CLOSED_FORM,
            );
        }
        if want["exact_permutation_pvalue"].is_number() {
            let exact = paired::wilcoxon_with(&d, WilcoxonMethod::Exact).expect("exact");
            assert_eq!(
                exact.distribution,
                WilcoxonDistribution::Permutation,
                "{name}"
            );
            check(
                &format!("{name} exact permutation p"),
                exact.p_value,
                f(want, "exact_permutation_pvalue"),
                tol::CLOSED_FORM,
            );
        }
        if let Some(doc) = s.get("documented") {
            // The published numbers, not only today's scipy.
            check(
                "documented statistic",
                got.statistic,
                f(doc, "statistic"),
                tol::CLOSED_FORM,
            );
            check(
                "documented p",
                got.p_value,
                f(doc, "pvalue"),
                tol::CLOSED_FORM,
            );
            check(
                "documented asymptotic p",
                normal.p_value,
                f(doc, "asymptotic_pvalue"),
                tol::CLOSED_FORM,
            );
        }
    }
}

#[test]
fn wilcoxon_x_minus_y_is_not_rounded_into_ties() {
    // scipy's documentation: 0.825 − 0.775 and 0.55 − 0.5 differ in binary, so there are no
    // ties and the exact distribution applies.
    let w = paired::wilcoxon_paired(&[0.5, 0.825, 0.375, 0.5], &[0.525, 0.775, 0.325, 0.55])
        .expect("wilcoxon");
    assert_eq!(w.distribution, WilcoxonDistribution::Exact);
    assert!(!w.ties);
}

#[test]
fn wilcoxon_refuses_what_it_cannot_test() {
    assert_eq!(
        paired::wilcoxon(&[0.0, 0.0, 0.0]),
        Err(PairedError::AllZero { n: 3 })
    );
    assert!(matches!(
        paired::wilcoxon(&[]),
        Err(PairedError::TooFew { .. })
    ));
    assert!(matches!(
        paired::wilcoxon(&[1.0, f64::NAN]),
        Err(PairedError::NotFinite { index: 1, .. })
    ));
    assert!(matches!(
        paired::wilcoxon_paired(&[1.0, 2.0], &[1.0]),
        Err(PairedError::LengthMismatch { x: 2, y: 1 })
    ));
}

#[test]
fn effect_sizes_match_the_formulas() {
    let mut checked = 0;
    for s in reference("paired")["samples"].as_array().expect("samples") {
        let want = &s["effect"];
        if want.is_null() {
            continue;
        }
        let name = s["name"].as_str().expect("name");
        let got = paired::paired_effect(&diffs(s)).expect("effect");
        check(
            &format!("{name} mean"),
            got.mean_diff,
            f(want, "mean_diff"),
            tol::CLOSED_FORM,
        );
        check(
            &format!("{name} sd"),
            got.sd_diff,
            f(want, "sd_diff"),
            tol::CLOSED_FORM,
        );
        check(
            &format!("{name} d_z"),
            got.d_z,
            f(want, "d_z"),
            tol::CLOSED_FORM,
        );
        check(&format!("{name} J"), got.j, f(want, "j"), tol::CLOSED_FORM);
        check(
            &format!("{name} g_z"),
            got.g_z,
            f(want, "g_z"),
            tol::CLOSED_FORM,
        );
        check(
            &format!("{name} rank-biserial"),
            got.rank_biserial.expect("some non-zero difference"),
            f(want, "rank_biserial"),
            tol::CLOSED_FORM,
        );
        checked += 1;
    }
    assert!(checked >= 20, "only {checked} effect-size cases");
    // J by hand at n = 10: 1 − 3/35.
    let e = paired::paired_effect(&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, -1.0])
        .expect("effect");
    assert_eq!(e.j, 1.0 - 3.0 / 35.0);
}

#[test]
fn holm_and_bonferroni_match_statsmodels() {
    for c in reference("paired")["adjust"].as_array().expect("adjust") {
        let name = c["name"].as_str().expect("name");
        let p = floats(&c["p"]);
        for (got, want) in paired::holm(&p)
            .expect("holm")
            .iter()
            .zip(floats(&c["holm"]))
        {
            check(&format!("{name} holm"), *got, want, tol::CLOSED_FORM);
        }
        for (got, want) in paired::bonferroni(&p)
            .expect("bonferroni")
            .iter()
            .zip(floats(&c["bonferroni"]))
        {
            check(&format!("{name} bonferroni"), *got, want, tol::CLOSED_FORM);
        }
    }
    assert_eq!(paired::holm(&[]), Ok(vec![]));
    assert!(matches!(
        paired::holm(&[0.1, 1.5]),
        Err(PairedError::BadProbability { index: 1, .. })
    ));
}

#[test]
fn trend_matches_linregress_and_spearmanr() {
    for c in reference("paired")["trend"].as_array().expect("trend") {
        let name = c["name"].as_str().expect("name");
        let got = trend::trend(&floats(&c["x"]), &floats(&c["y"])).expect("trend");
        check(
            &format!("{name} slope"),
            got.fit.slope,
            f(c, "slope"),
            tol::CLOSED_FORM,
        );
        check(
            &format!("{name} intercept"),
            got.fit.intercept,
            f(c, "intercept"),
            tol::CLOSED_FORM,
        );
        check(&format!("{name} r"), got.fit.r, f(c, "r"), tol::CLOSED_FORM);
        check(
            &format!("{name} slope se"),
            got.fit.slope_se,
            f(c, "slope_se"),
            tol::CLOSED_FORM,
        );
        check(
            &format!("{name} p"),
            got.fit.p_value,
            f(c, "pvalue"),
            tol::CLOSED_FORM,
        );
        match (got.spearman, c["spearman_rho"].as_f64()) {
            (Some(s), Some(rho)) => {
                check(&format!("{name} rho"), s.rho, rho, tol::CLOSED_FORM);
                check(
                    &format!("{name} rho p"),
                    s.p_value,
                    f(c, "spearman_pvalue"),
                    tol::CLOSED_FORM,
                );
            }
            (got, want) => panic!("{name}: spearman {got:?}, scipy {want:?}"),
        }
    }
    assert!(matches!(
        trend::linregress(&[1.0, 1.0, 1.0], &[1.0, 2.0, 3.0]),
        Err(PairedError::NoSpread { what: "x" })
    ));
    assert_eq!(
        trend::spearman(&[1.0, 2.0, 3.0], &[4.0, 4.0, 4.0]),
        Ok(None)
    );
}

/// One-sided signed-rank tests and the paired t-test (with a null mean, for non-inferiority),
/// against `tests/reference/paired/alternatives.json` (`make_alternatives.py`: scipy's
/// `wilcoxon(d, alternative, method)`, `ttest_1samp(d, popmean, alternative)` and
/// `t.interval`), at the tolerances above.
#[test]
fn one_sided_tests_match_scipy() {
    let path =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/reference/paired/alternatives.json");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let r: Value = serde_json::from_str(&text).unwrap();
    let alternative = |v: &Value| match v.as_str() {
        Some("two-sided") => Alternative::TwoSided,
        Some("greater") => Alternative::Greater,
        Some("less") => Alternative::Less,
        other => panic!("alternative {other:?}"),
    };
    let wilcoxon = r["wilcoxon"].as_array().unwrap();
    let t_cases = r["t_test"].as_array().unwrap();
    assert!(wilcoxon.len() >= 40 && t_cases.len() >= 30);
    for case in wilcoxon {
        let name = case["sample"].as_str().unwrap();
        let d = floats(&r["samples"][name]);
        let method = match case["method"].as_str() {
            Some("auto") => WilcoxonMethod::Auto,
            Some("asymptotic") => WilcoxonMethod::Normal,
            Some("exact") => WilcoxonMethod::Exact,
            other => panic!("method {other:?}"),
        };
        let alt = alternative(&case["alternative"]);
        let what = format!("{name} {alt:?} {method:?}");
        let w = paired::wilcoxon_with(&d, method).unwrap();
        // scipy's statistic: min(W+, W-) two-sided, W+ one-sided.
        let statistic = if alt == Alternative::TwoSided {
            w.statistic
        } else {
            w.w_plus
        };
        check(
            &format!("{what} statistic"),
            statistic,
            f(case, "statistic"),
            tol::CLOSED_FORM,
        );
        let p = paired::wilcoxon_p(&d, method, alt).unwrap();
        check(
            &format!("{what} p"),
            p,
            f(case, "p_value"),
            tol::CLOSED_FORM,
        );
    }
    for case in t_cases {
        let name = case["sample"].as_str().unwrap();
        let d = floats(&r["samples"][name]);
        let alt = alternative(&case["alternative"]);
        let mu0 = f(case, "mu0");
        let what = format!("{name} mu0 {mu0} {alt:?}");
        let t = paired::t_test(&d, mu0, alt).unwrap();
        let tol = t_tolerance(t.df).max(tol::CLOSED_FORM);
        check(&format!("{what} t"), t.t, f(case, "t"), tol::CLOSED_FORM);
        assert_eq!(t.df, f(case, "df"), "{what} df");
        check(&format!("{what} p"), t.p_value, f(case, "p_value"), tol);
        check(
            &format!("{what} mean"),
            t.mean,
            f(case, "mean"),
            tol::CLOSED_FORM,
        );
        check(&format!("{what} se"), t.se, f(case, "se"), tol::CLOSED_FORM);
        let ci = floats(&case["ci95"]);
        check(&format!("{what} ci low"), t.ci95.0, ci[0], tol::CLOSED_FORM);
        check(
            &format!("{what} ci high"),
            t.ci95.1,
            ci[1],
            tol::CLOSED_FORM,
        );
    }
    // A one-sided p is half the two-sided one on the side of the data, and the other side's
    // complement (continuous t; exact here to rounding).
    let d = floats(&r["samples"]["small_untied"]);
    let two = paired::t_test(&d, 0.0, Alternative::TwoSided)
        .unwrap()
        .p_value;
    let greater = paired::t_test(&d, 0.0, Alternative::Greater)
        .unwrap()
        .p_value;
    let less = paired::t_test(&d, 0.0, Alternative::Less).unwrap().p_value;
    check("half", greater, two / 2.0, 1e-15);
    check("complement", greater + less, 1.0, 1e-15);
    // No spread, too few: errors, never NaN.
    assert!(matches!(
        paired::t_test(&[0.5, 0.5, 0.5], 0.0, Alternative::TwoSided),
        Err(PairedError::NoSpread { .. })
    ));
    assert!(matches!(
        paired::t_test(&[0.5], 0.0, Alternative::TwoSided),
        Err(PairedError::TooFew { .. })
    ));
}

/// The analysis plan's statistics against `tests/reference/paired/plan_reference.json`
/// (`make_plan_reference.py`): the noncentral t against `scipy.stats.nct.cdf` (relative 1e-9:
/// the series stops at 10⁻¹² absolute, and both sides lose digits far in the tails), the
/// interval of d_z against brentq on it (1e-9), the non-inferiority tests against statsmodels'
/// `ttost_paired` and scipy's `wilcoxon` (1e-9), and the t-test's power against statsmodels'
/// `TTestPower` (1e-9).
#[test]
fn plan_statistics_match_scipy_and_statsmodels() {
    use juror_core::stats::power;
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/reference/paired/plan_reference.json");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let r: Value = serde_json::from_str(&text).unwrap();
    let cases = r["nct_cdf"].as_array().unwrap();
    assert!(cases.len() > 150);
    let mut worst: f64 = 0.0;
    for c in cases {
        let (t, df, ncp) = (f(c, "t"), f(c, "df"), f(c, "ncp"));
        let got = special::nct_cdf(t, df, ncp);
        let want = f(c, "cdf");
        worst = worst.max((got - want).abs());
        check(&format!("nct_cdf({t}, {df}, {ncp})"), got, want, 1e-9);
    }
    println!("nct_cdf: largest absolute difference {worst:e}");
    let intervals = r["d_z_ci95"].as_object().unwrap();
    assert_eq!(intervals.len(), 5);
    for (name, want) in intervals {
        let d = floats(&r["samples"][name]);
        let (low, high) = paired::d_z_interval(&d).unwrap();
        let want = floats(want);
        check(&format!("{name} d_z low"), low, want[0], 1e-9);
        check(&format!("{name} d_z high"), high, want[1], 1e-9);
        let d_z = paired::paired_effect(&d).unwrap().d_z;
        assert!(low < d_z && d_z < high, "{name}: {low} < {d_z} < {high}");
    }
    for c in r["non_inferiority"].as_array().unwrap() {
        let name = c["sample"].as_str().unwrap();
        let d = floats(&r["samples"][name]);
        let margin = f(c, "margin");
        let what = format!("{name} margin {margin}");
        let t = paired::t_test(&d, -margin, Alternative::Greater).unwrap();
        check(&format!("{what} t"), t.t, f(c, "t"), tol::CLOSED_FORM);
        check(&format!("{what} df"), t.df, f(c, "df"), tol::CLOSED_FORM);
        check(
            &format!("{what} p_t"),
            t.p_value,
            f(c, "p_t"),
            tol::CLOSED_FORM,
        );
        let shifted: Vec<f64> = d.iter().map(|x| x + margin).collect();
        let p = paired::wilcoxon_p(&shifted, WilcoxonMethod::Auto, Alternative::Greater).unwrap();
        check(
            &format!("{what} p_wilcoxon"),
            p,
            f(c, "p_wilcoxon"),
            tol::CLOSED_FORM,
        );
    }
    let power_cases = r["t_power"].as_array().unwrap();
    assert!(power_cases.len() >= 60);
    for c in power_cases {
        let alt = match c["alternative"].as_str() {
            Some("greater") => Alternative::Greater,
            _ => Alternative::TwoSided,
        };
        let n = c["n"].as_u64().unwrap() as usize;
        let got = power::t_power(f(c, "effect"), n, f(c, "alpha"), alt);
        check(&format!("power {c}"), got, f(c, "power"), 1e-9);
    }
}

/// The simulated power of the t-test agrees with statsmodels' closed form within four standard
/// errors of the simulation (2000 simulations: SE ≤ 0.0112), at the HARE study's d_z = 0.45 and
/// Bonferroni over 12, and at two other points of the reference grid.
#[test]
fn simulated_power_matches_the_closed_form_within_simulation_error() {
    use juror_core::stats::power::{Scenario, simulate};
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/reference/paired/plan_reference.json");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let r: Value = serde_json::from_str(&text).unwrap();
    let wanted = [(0.45, 41, 0.05), (0.45, 80, 0.05 / 12.0), (0.8, 10, 0.05)];
    for (effect, n, alpha) in wanted {
        for alt in [Alternative::Greater, Alternative::TwoSided] {
            let name = if alt == Alternative::Greater {
                "greater"
            } else {
                "two-sided"
            };
            let case = r["t_power"]
                .as_array()
                .unwrap()
                .iter()
                .find(|c| {
                    f(c, "effect") == effect
                        && c["n"].as_u64() == Some(n as u64)
                        && (f(c, "alpha") - alpha).abs() < 1e-15
                        && c["alternative"].as_str() == Some(name)
                })
                .unwrap_or_else(|| panic!("{effect} {n} {alpha} {name} in the reference"));
            let want = f(case, "power");
            // d_z = effect: Δ = effect with a unit SD of 1 (σ_b² + σ_w²/m = 0.36 + 0.64/1).
            let scenario = Scenario {
                mean_diff: effect,
                sd_between: 0.6,
                sd_within: 0.8,
            };
            let sims = 2000;
            let got = simulate(&scenario, n, 1, alpha, alt, sims, 7);
            let se = (want * (1.0 - want) / sims as f64).sqrt();
            assert!(
                (got.t - want).abs() <= 4.0 * se.max(0.002),
                "{effect} {n} {alpha} {name}: simulated {} vs {want} (SE {se})",
                got.t
            );
            // The signed-rank test is nearly as efficient (3/π ≈ 0.955 asymptotically).
            assert!(got.wilcoxon <= got.t + 4.0 * se.max(0.002) && got.wilcoxon > 0.5 * got.t);
        }
    }
}
