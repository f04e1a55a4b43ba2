//! The figure of a dimension's ratings over rounds: a chart of each system's mean per round
//! (the slopes and the mixed model are the tables of the report's "Over rounds" section).

use juror_core::analysis::render::fmt;
use juror_core::analysis::rounds::{Rounds, SystemTrend};
use leptos::prelude::*;

use super::charts::plain;

/// Okabe and Ito's colour-blind-safe qualitative palette, without its yellow (too light on
/// white) and with grey for its black (invisible in the dark theme); lines also differ by dash pattern, so colour is never the only cue.
const LINES: [&str; 7] = [
    "#0072b2", "#d55e00", "#009e73", "#cc79a7", "#56b4e9", "#e69f00", "#888888",
];
const DASHES: [&str; 4] = ["", "6 3", "2 3", "8 3 2 3"];

/// One system's polyline in the chart's coordinates.
#[derive(Debug, Clone, PartialEq)]
pub struct Line {
    pub system: String,
    pub points: Vec<(f64, f64)>,
    pub colour: &'static str,
    pub dash: &'static str,
}

/// Chart geometry: width, height and the plot's margins.
const W: f64 = 640.0;
const H: f64 = 300.0;
const LEFT: f64 = 48.0;
const RIGHT: f64 = 130.0;
const TOP: f64 = 16.0;
const BOTTOM: f64 = 40.0;

/// The y range: the study's scale when known, else the means' range (padded to whole numbers).
pub fn y_range(scale: Option<&[f64]>, trends: &[SystemTrend]) -> (f64, f64) {
    if let Some(s) = scale.filter(|s| s.len() >= 2) {
        return (s[0], s[s.len() - 1]);
    }
    let means = trends.iter().flat_map(|t| t.means.iter().map(|m| m.mean));
    let (lo, hi) = means.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), m| {
        (lo.min(m), hi.max(m))
    });
    if !lo.is_finite() {
        return (0.0, 1.0);
    }
    let (lo, hi) = (lo.floor(), hi.ceil());
    if hi > lo { (lo, hi) } else { (lo, lo + 1.0) }
}

/// Each system's means per round as a polyline: x from the first to the last round, y from the
/// range's low (bottom) to high (top).
pub fn lines(rounds: &Rounds, range: (f64, f64)) -> Vec<Line> {
    let first = rounds.rounds.first().copied().unwrap_or(0.0);
    let last = rounds.rounds.last().copied().unwrap_or(1.0);
    let span = if last > first { last - first } else { 1.0 };
    let (lo, hi) = range;
    let x = |r: f64| LEFT + (r - first) / span * (W - LEFT - RIGHT);
    let y = |v: f64| TOP + (hi - v) / (hi - lo) * (H - TOP - BOTTOM);
    rounds
        .trends
        .iter()
        .enumerate()
        .map(|(i, t)| Line {
            system: t.system.clone(),
            points: t.means.iter().map(|m| (x(m.round), y(m.mean))).collect(),
            colour: LINES[i % LINES.len()],
            dash: DASHES[i % DASHES.len()],
        })
        .collect()
}

/// What the chart shows, in words: every system's slope and its means per round.
pub fn describe_rounds(dimension: &str, rounds: &Rounds) -> String {
    let systems: Vec<String> = rounds
        .trends
        .iter()
        .map(|t| {
            let means: Vec<String> = t
                .means
                .iter()
                .map(|m| format!("round {} {}", plain(m.round), fmt::num(Some(m.mean), 3)))
                .collect();
            format!(
                "{}: slope {} per round (p {}); {}",
                t.system,
                fmt::num(t.slope, 3),
                fmt::p_value(t.p_value),
                means.join(", ")
            )
        })
        .collect();
    format!(
        "Mean rating of {dimension} per round, by system. {}.",
        systems.join(". ")
    )
}

/// A dimension's means per round, one line per system; the tables of the "Over rounds"
/// section follow it.
#[component]
pub fn RoundsChart(name: String, scale: Option<Vec<f64>>, rounds: Rounds) -> impl IntoView {
    let range = y_range(scale.as_deref(), &rounds.trends);
    let lines = lines(&rounds, range);
    let label = describe_rounds(&name, &rounds);
    let title = label.clone();
    let (lo, hi) = range;
    let y = move |v: f64| TOP + (hi - v) / (hi - lo) * (H - TOP - BOTTOM);
    let step = if hi - lo > 10.0 {
        ((hi - lo) / 5.0).ceil()
    } else {
        1.0
    };
    let ticks: Vec<f64> = (0..)
        .map(|k| lo + k as f64 * step)
        .take_while(|v| *v <= hi + 1e-9)
        .collect();
    let first = rounds.rounds.first().copied().unwrap_or(0.0);
    let last = rounds.rounds.last().copied().unwrap_or(1.0);
    let span = if last > first { last - first } else { 1.0 };
    let x = move |r: f64| LEFT + (r - first) / span * (W - LEFT - RIGHT);
    let every = (rounds.rounds.len() / 10).max(1);
    let x_ticks: Vec<f64> = rounds.rounds.iter().copied().step_by(every).collect();
    view! {
        <figure class="chart rounds-chart">
            <svg
                viewBox=format!("0 0 {W} {H}")
                role="img"
                aria-label=label
                preserveAspectRatio="xMidYMid meet"
            >
                <title>{title}</title>
                {ticks
                    .into_iter()
                    .map(|t| {
                        view! {
                            <line class="chart-grid" x1=LEFT x2=W - RIGHT y1=y(t) y2=y(t) />
                            <text class="chart-tick rounds-y" x=LEFT - 6.0 y=y(t) + 4.0>
                                {plain(t)}
                            </text>
                        }
                    })
                    .collect_view()}
                {x_ticks
                    .into_iter()
                    .map(|r| {
                        view! {
                            <text class="chart-tick" x=x(r) y=H - BOTTOM + 16.0>
                                {plain(r)}
                            </text>
                        }
                    })
                    .collect_view()}
                <text class="chart-tick" x=(LEFT + W - RIGHT) / 2.0 y=H - 6.0>
                    "Round"
                </text>
                {lines
                    .into_iter()
                    .map(|l| {
                        let points: Vec<String> = l
                            .points
                            .iter()
                            .map(|(px, py)| format!("{px:.1},{py:.1}"))
                            .collect();
                        let end = l.points.last().copied();
                        view! {
                            <polyline
                                points=points.join(" ")
                                fill="none"
                                stroke=l.colour
                                stroke-width="2"
                                stroke-dasharray=l.dash
                            />
                            {l
                                .points
                                .iter()
                                .map(|(px, py)| {
                                    view! { <circle cx=*px cy=*py r="3" fill=l.colour /> }
                                })
                                .collect_view()}
                            {end.map(|(ex, ey)| view! {
                                <text class="rounds-series" x=ex + 8.0 y=ey + 4.0 fill=l.colour>
                                    {l.system.clone()}
                                </text>
                            })}
                        }
                    })
                    .collect_view()}
            </svg>
            <figcaption>
                {format!("Mean rating of {name} per round, one line per system (labels at the right end).")}
            </figcaption>
        </figure>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use juror_core::analysis::rounds::RoundMean;

    fn trend(system: &str, means: &[(f64, f64)]) -> SystemTrend {
        SystemTrend {
            system: system.to_owned(),
            n: means.len(),
            slope: Some(0.5),
            intercept: Some(1.0),
            slope_se: Some(0.1),
            slope_ci95: None,
            p_value: Some(0.01),
            r: Some(0.9),
            spearman_rho: Some(0.8),
            spearman_p: Some(0.02),
            means: means
                .iter()
                .map(|&(round, mean)| RoundMean { round, n: 1, mean })
                .collect(),
            notes: Vec::new(),
        }
    }

    fn rounds() -> Rounds {
        Rounds {
            rounds: vec![1.0, 2.0, 3.0],
            ratings: 6,
            trends: vec![
                trend("a", &[(1.0, 1.0), (2.0, 3.0), (3.0, 5.0)]),
                trend("b", &[(1.0, 2.0), (3.0, 2.5)]),
            ],
            mixed_model: None,
            notes: Vec::new(),
        }
    }

    #[test]
    fn lines_span_the_plot_and_follow_the_scale() {
        let r = rounds();
        let range = y_range(Some(&[1.0, 2.0, 3.0, 4.0, 5.0]), &r.trends);
        assert_eq!(range, (1.0, 5.0));
        let l = lines(&r, range);
        assert_eq!(l.len(), 2);
        // Round 1 at the left edge, round 3 at the right; 1 at the bottom, 5 at the top.
        assert_eq!(l[0].points[0], (LEFT, H - BOTTOM));
        assert_eq!(l[0].points[2], (W - RIGHT, TOP));
        assert_eq!(l[0].points[1].0, (LEFT + W - RIGHT) / 2.0);
        // A system missing a round has no point there.
        assert_eq!(l[1].points.len(), 2);
        assert_ne!((l[0].colour, l[0].dash), (l[1].colour, l[1].dash));
    }

    #[test]
    fn without_a_scale_the_range_is_the_means_rounded_out() {
        let r = rounds();
        assert_eq!(y_range(None, &r.trends), (1.0, 5.0));
        let flat = vec![trend("a", &[(1.0, 2.0), (2.0, 2.0)])];
        assert_eq!(y_range(None, &flat), (2.0, 3.0));
        assert_eq!(y_range(None, &[]), (0.0, 1.0));
    }

    #[test]
    fn the_description_has_every_number() {
        let text = describe_rounds("quality", &rounds());
        assert_eq!(
            text,
            "Mean rating of quality per round, by system. a: slope 0.500 per round (p 0.010); \
             round 1 1.000, round 2 3.000, round 3 5.000. b: slope 0.500 per round (p 0.010); \
             round 1 2.000, round 3 2.500."
        );
    }
}
