//! Native tests of the charts' geometry: scales, ticks, positions, colours and the charts in words.

use super::*;
use juror_core::analysis::report::{
    BradleyTerryReport, BradleyTerryScore, Ci, NominalAlpha, PreferenceAgreement, PreferencePair,
    ScoreCount,
};
use std::collections::BTreeMap;

fn system(name: &str, counts: &[(f64, usize)]) -> SystemSummary {
    SystemSummary {
        system: name.to_owned(),
        n: 1,
        n_ratings: counts.iter().map(|c| c.1).sum(),
        mean: 0.0,
        sd: None,
        median: 0.0,
        ci95: None,
        bootstrap: None,
        distribution: counts
            .iter()
            .map(|&(score, count)| ScoreCount { score, count })
            .collect(),
        adjudicated: 0,
    }
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-12
}

#[test]
fn an_odd_scale_splits_its_neutral_point_half_each_side() {
    let scale = [1.0, 2.0, 3.0, 4.0, 5.0];
    let s = system("a", &[(1.0, 1), (2.0, 1), (3.0, 4), (4.0, 2), (5.0, 2)]);
    let labels = vec![(3.0, "Fair".to_owned())];
    let chart = likert(Some(&scale), &labels, &[s]);
    assert_eq!(chart.centre, 3.0);
    let row = &chart.rows[0];
    // 10 ratings: 20% below, 40% neutral, 40% above.
    assert!(close(row.below, 0.4) && close(row.above, 0.6));
    assert!(close(row.segments[0].2, -0.4), "{row:?}");
    assert!(
        close(row.segments[2].2, -0.2),
        "the neutral segment straddles 0"
    );
    assert!(close(row.segments[2].1, 0.4));
    assert_eq!(chart.extent, 0.75);
    assert_eq!(chart.categories[2].label, "3 Fair");
    assert_eq!(chart.categories[0].label, "1");
    let text = chart.describe("quality");
    assert!(text.contains("centred on 3 Fair"), "{text}");
    assert!(text.contains("a (10 ratings): 1: 1 (10%)"), "{text}");
    assert!(text.contains("3 Fair: 4 (40%)"), "{text}");
}

#[test]
fn an_even_scale_has_no_neutral_point() {
    let scale = [1.0, 2.0, 3.0, 4.0];
    let chart = likert(Some(&scale), &[], &[system("a", &[(1.0, 1), (4.0, 3)])]);
    assert_eq!(chart.centre, 2.5);
    assert!(close(chart.rows[0].below, 0.25) && close(chart.rows[0].above, 0.75));
    assert!(!chart.describe("d").contains("neutral"));
    // Colours run from orange to purple through grey; text is legible on each.
    let fills: Vec<&str> = chart.categories.iter().map(|c| c.fill.as_str()).collect();
    assert_eq!(fills[0], "#b35806");
    assert_eq!(fills[3], "#542788");
    assert_eq!(chart.categories[0].ink, PAPER);
    assert_eq!(chart.categories[1].ink, INK);
}

#[test]
fn without_a_scale_the_values_seen_make_the_categories() {
    let chart = likert(
        None,
        &[],
        &[
            system("a", &[(2.0, 1), (4.0, 1)]),
            system("b", &[(3.5, 2), (6.0, 0)]),
        ],
    );
    let values: Vec<f64> = chart.categories.iter().map(|c| c.value).collect();
    assert_eq!(values, [2.0, 3.5, 4.0, 6.0]);
    assert_eq!(chart.centre, 4.0);
    // b: both ratings at 3.5, below the centre.
    assert!(close(chart.rows[1].below, 1.0));
    assert_eq!(chart.extent, 1.0);
    assert_eq!(chart.categories[1].label, "3.5");
}

#[test]
fn a_system_without_ratings_has_an_empty_bar() {
    let chart = likert(Some(&[1.0, 2.0, 3.0]), &[], &[system("a", &[])]);
    assert_eq!(chart.rows[0].total, 0);
    assert!(chart.rows[0].segments.iter().all(|s| s.1 == 0.0));
}

fn preferences() -> PreferenceReport {
    let pair = |a: &str, b: &str, wins, losses, ties| PreferencePair {
        system_a: a.to_owned(),
        system_b: b.to_owned(),
        wins,
        losses,
        ties,
        win_rate: None,
        wilson: None,
        clopper_pearson: None,
        p_value: None,
        anytime_ci95: None,
    };
    let score = |score: f64, lo: f64, hi: f64| BradleyTerryScore {
        score,
        ci: Some(Ci { low: lo, high: hi }),
        resamples_used: 10,
    };
    PreferenceReport {
        judgements: 20,
        derived_from_choices: 0,
        systems: vec!["a".into(), "b".into(), "c".into()],
        pairs: vec![pair("a", "b", 2, 6, 2), pair("b", "c", 5, 5, 0)],
        leaderboard: None,
        bradley_terry: Some(BradleyTerryReport {
            scores: BTreeMap::from([
                ("a".to_owned(), score(0.2, 0.1, 0.3)),
                ("b".to_owned(), score(0.5, 0.4, 0.62)),
                ("c".to_owned(), score(0.3, 0.2, 0.4)),
            ]),
            iterations: 3,
            converged: true,
            strongly_connected: true,
            never_won: vec![],
            never_lost: vec![],
            level: 0.95,
            resamples: 10,
            seed: 0,
        }),
        agreement: PreferenceAgreement {
            units: 0,
            annotators: 0,
            fleiss_kappa: None,
            krippendorff_alpha: NominalAlpha { nominal: None },
            cohen_kappa: vec![],
            percent_agreement: None,
        },
    }
}

#[test]
fn the_matrix_counts_ties_as_half_and_orders_by_strength() {
    let (systems, cells) = preference_matrix(&preferences());
    assert_eq!(systems, ["b", "c", "a"]);
    let cell = |r: usize, c: usize| cells.iter().find(|x| x.row == r && x.col == c).unwrap();
    // b over a: 6 wins, 2 losses, 2 ties → (6 + 1) / 10.
    assert_eq!(cell(0, 2).share, Some(0.7));
    assert_eq!((cell(0, 2).wins, cell(0, 2).losses), (6, 2));
    assert_eq!(cell(2, 0).share, Some(0.3));
    assert_eq!(cell(0, 1).share, Some(0.5));
    // c and a never met.
    assert_eq!(cell(1, 2).share, None);
    assert_eq!(cells.len(), 6);
    let text = describe_matrix(&systems, &cells);
    assert!(
        text.contains("b over a: 70% (6 wins, 2 losses, 2 ties)"),
        "{text}"
    );
    assert!(text.contains("c and a: never compared"), "{text}");
}

#[test]
fn strengths_are_sorted_and_described_with_their_intervals() {
    let rows = strengths(&preferences());
    let names: Vec<&str> = rows.iter().map(|r| r.system.as_str()).collect();
    assert_eq!(names, ["b", "c", "a"]);
    let text = describe_strengths(&rows, 0.95);
    assert!(text.contains("1. b 0.500 (0.400 to 0.620)"), "{text}");
    assert!(text.contains("95% bootstrap"), "{text}");
}

#[test]
fn axes_end_on_round_numbers() {
    assert_eq!(nice_axis(0.62), (0.8, vec![0.0, 0.2, 0.4, 0.6, 0.8]));
    let (max, ticks) = nice_axis(0.0394);
    assert!(max >= 0.0394 && ticks.len() <= 6, "{max} {ticks:?}");
    assert_eq!(nice_axis(0.0).0, 1.0);
    assert_eq!(nice_axis(1.0), (1.0, vec![0.0, 0.25, 0.5, 0.75, 1.0]));
}

fn with_ci(name: &str, mean: f64, low: f64, high: f64) -> SystemSummary {
    SystemSummary {
        mean,
        ci95: Some(Ci { low, high }),
        ..system(name, &[])
    }
}

/// The means chart once ticked 1.88, 2.8, 3.72, 4.64, 5.56: the scale widened to an interval
/// past its end. Now the axis is the scale, and the interval is clipped and marked.
#[test]
fn the_means_axis_is_the_scale_with_its_points_as_ticks() {
    let scale = [1.0, 2.0, 3.0, 4.0, 5.0];
    let systems = [with_ci("a", 4.6, 3.9, 5.56), with_ci("b", 2.1, 1.88, 2.4)];
    let axis = means_axis(Some(&scale), &systems);
    assert_eq!((axis.lo, axis.hi), (1.0, 5.0));
    assert_eq!(axis.ticks, scale.to_vec());
    assert!(axis.scale_ends);
    assert_eq!(clip(3.9, 5.56, &axis), ((3.9, 5.0), (false, true)));
    assert_eq!(clip(1.88, 2.4, &axis), ((1.88, 2.4), (false, false)));
    assert_eq!(clip(0.5, 1.5, &axis), ((1.0, 1.5), (true, false)));
}

#[test]
fn a_long_scale_and_no_scale_get_round_ticks() {
    let hundred: Vec<f64> = (0..=100).map(f64::from).collect();
    let axis = means_axis(Some(&hundred), &[with_ci("a", 50.0, 40.0, 60.0)]);
    assert_eq!((axis.lo, axis.hi), (0.0, 100.0));
    assert_eq!(axis.ticks, vec![0.0, 20.0, 40.0, 60.0, 80.0, 100.0]);

    // No scale: the values rounded out; every tick a round number inside the axis.
    let axis = means_axis(
        None,
        &[with_ci("a", 3.1, 1.88, 4.64), with_ci("b", 4.0, 3.2, 5.56)],
    );
    assert!(!axis.scale_ends);
    assert_eq!((axis.lo, axis.hi), (1.0, 6.0));
    assert_eq!(axis.ticks, vec![1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
    for case in [(0.0213, 0.0394), (-1.3, 2.2), (17.0, 1234.0), (0.61, 0.62)] {
        let axis = means_axis(None, &[with_ci("a", case.0, case.0, case.1)]);
        assert!(axis.lo <= case.0 && axis.hi >= case.1, "{case:?}: {axis:?}");
        assert!((2..=8).contains(&axis.ticks.len()), "{case:?}: {axis:?}");
        for t in &axis.ticks {
            assert!(
                *t >= axis.lo - 1e-9 && *t <= axis.hi + 1e-9,
                "{case:?}: {axis:?}"
            );
            assert!(plain(*t).len() <= 6, "{case:?}: tick {t} is not round");
        }
    }
    // Nothing to show: a unit axis, not NaN.
    let axis = means_axis(None, &[]);
    assert_eq!((axis.lo, axis.hi), (0.0, 1.0));
}

#[test]
fn the_means_chart_says_which_intervals_run_past_the_scale() {
    let scale = [1.0, 2.0, 3.0, 4.0, 5.0];
    let systems = [with_ci("a", 4.6, 3.9, 5.56), with_ci("b", 2.1, 1.88, 2.4)];
    let axis = means_axis(Some(&scale), &systems);
    let (description, caption) = describe_means("quality", &systems, &axis);
    assert_eq!(
        description,
        "Chart: mean of item means with 95% confidence interval per system on quality: \
         a 4.600 (3.900 to 5.560, past the end of the scale); b 2.100 (1.880 to 2.400)."
    );
    assert!(caption.contains("An arrow marks an interval"), "{caption}");
    assert_eq!(axis.x(1.0), LEFT);
    assert_eq!(axis.x(5.0), WIDTH - RIGHT);
    assert_eq!(axis.arrow(5.0, 28.0, 1.0), "623,28 616,23 616,33");

    let inside = [with_ci("b", 2.1, 1.88, 2.4)];
    let (_, caption) = describe_means("quality", &inside, &axis);
    assert_eq!(
        caption,
        "Chart: mean of item means with 95% confidence interval per system on quality"
    );
}

/// UX walkthrough 2026-12-01, finding 18: a 0–100 score is shown in five bands, each naming
/// the labelled points it holds, not in 101 categories; the middle band is neutral.
#[test]
fn a_wide_scale_is_shown_in_five_bands() {
    let scale: Vec<f64> = (0..=100).map(f64::from).collect();
    let labels = vec![
        (0.0, "No meaning kept".to_owned()),
        (100.0, "Perfect".to_owned()),
    ];
    let chart = likert(
        Some(&scale),
        &labels,
        &[system(
            "a",
            &[(0.0, 1), (19.0, 1), (20.0, 1), (50.0, 2), (100.0, 5)],
        )],
    );
    let names: Vec<&str> = chart.categories.iter().map(|c| c.label.as_str()).collect();
    assert_eq!(
        names,
        [
            "0–19 (0 No meaning kept)",
            "20–39",
            "40–59",
            "60–79",
            "80–100 (100 Perfect)"
        ]
    );
    let counts: Vec<usize> = chart.rows[0].segments.iter().map(|s| s.0).collect();
    assert_eq!(counts, [2, 1, 2, 0, 5]);
    // Three of ten below the middle band, five above, the middle band's two split half each side.
    assert!(close(chart.rows[0].below, 0.4) && close(chart.rows[0].above, 0.6));
    // A short scale keeps a category per point.
    let short = likert(
        Some(&[1.0, 2.0, 3.0, 4.0, 5.0]),
        &[],
        &[system("a", &[(3.0, 1)])],
    );
    assert_eq!(short.categories.len(), 5);
}
