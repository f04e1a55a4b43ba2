//! A judge against the humans on one dimension: a scatter plot of the judge's score (up)
//! against the humans' mean score (across), one point per output both scored
//! (`JudgeScores.points` of the report), with the diagonal where the two agree.
//!
//! Outputs at the same place are one point whose area grows with their number (a Likert judge
//! gives whole points, so many outputs share a place); the description says how many outputs
//! the judge scored higher than the humans' mean, the same and lower, so nothing is told by
//! colour or position alone.

use juror_core::analysis::judges::{Correlation, ScorePoint};
use juror_core::analysis::render::fmt;
use leptos::prelude::*;

use super::geometry::{plain, round_step};
use super::svg::ChartFrame;

/// The viewBox's side: the chart is square, and scales with its container.
pub const SIZE: f64 = 360.0;
/// The margin left of and under the plot, which holds the ticks and the axes' names.
pub const MARGIN: f64 = 56.0;
/// The margin above and right of the plot.
pub const PAD: f64 = 14.0;

/// Both axes (the same range, so the diagonal is where the judge gives the humans' mean).
#[derive(Debug, Clone, PartialEq)]
pub struct ScatterAxis {
    pub lo: f64,
    pub hi: f64,
    pub ticks: Vec<f64>,
}

impl ScatterAxis {
    /// Where the humans' mean `v` falls across the plot.
    pub fn x(&self, v: f64) -> f64 {
        MARGIN + (v - self.lo) / (self.hi - self.lo) * (SIZE - MARGIN - PAD)
    }

    /// Where the judge's score `v` falls up the plot.
    pub fn y(&self, v: f64) -> f64 {
        PAD + (self.hi - v) / (self.hi - self.lo) * (SIZE - MARGIN - PAD)
    }
}

/// The axes: the study's scale (ticked at its points, or at round numbers past 11 points),
/// widened to any score outside it; without a scale, the scores rounded out to whole numbers.
pub fn scatter_axis(scale: Option<&[f64]>, points: &[ScorePoint]) -> ScatterAxis {
    let scale: Vec<f64> = scale
        .unwrap_or_default()
        .iter()
        .copied()
        .filter(|v| v.is_finite())
        .collect();
    let seen = points
        .iter()
        .flat_map(|p| [p.judge, p.human_mean])
        .filter(|v| v.is_finite());
    let (lo, hi) = scale
        .iter()
        .copied()
        .chain(seen)
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
            (lo.min(v), hi.max(v))
        });
    if !lo.is_finite() {
        return ScatterAxis {
            lo: 0.0,
            hi: 1.0,
            ticks: vec![0.0, 1.0],
        };
    }
    let on_scale =
        scale.len() >= 2 && scale.len() <= 11 && scale.contains(&lo) && scale.contains(&hi);
    if on_scale {
        let mut ticks = scale;
        ticks.sort_by(f64::total_cmp);
        ticks.dedup();
        return ScatterAxis { lo, hi, ticks };
    }
    let (lo, hi) = (lo.floor(), hi.ceil());
    let hi = if hi > lo { hi } else { lo + 1.0 };
    let step = round_step(hi - lo, 5.0).max(1.0);
    let first = (lo / step).ceil() as i64;
    let ticks = (first..)
        .map(|k| k as f64 * step)
        .take_while(|t| *t <= hi + 1e-9)
        .collect();
    ScatterAxis { lo, hi, ticks }
}

/// The outputs at one place of the plot.
#[derive(Debug, Clone, PartialEq)]
pub struct Mark {
    pub human_mean: f64,
    pub judge: f64,
    pub outputs: usize,
}

/// The points grouped by place, lowest humans' mean first.
pub fn marks(points: &[ScorePoint]) -> Vec<Mark> {
    let mut places: Vec<(f64, f64)> = points.iter().map(|p| (p.human_mean, p.judge)).collect();
    places.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.total_cmp(&b.1)));
    let mut marks: Vec<Mark> = Vec::new();
    for (human_mean, judge) in places {
        match marks.last_mut() {
            Some(m) if m.human_mean == human_mean && m.judge == judge => m.outputs += 1,
            _ => marks.push(Mark {
                human_mean,
                judge,
                outputs: 1,
            }),
        }
    }
    marks
}

/// A mark's radius: its area grows with its outputs, up to four times the side of one.
pub fn radius(outputs: usize) -> f64 {
    (3.5 * (outputs.max(1) as f64).sqrt()).min(14.0)
}

/// How many outputs the judge scored higher than the humans' mean, the same, and lower.
pub fn sides(points: &[ScorePoint]) -> (usize, usize, usize) {
    points.iter().fold((0, 0, 0), |(up, same, down), p| {
        let d = p.judge - p.human_mean;
        if d.abs() < 1e-9 {
            (up, same + 1, down)
        } else if d > 0.0 {
            (up + 1, same, down)
        } else {
            (up, same, down + 1)
        }
    })
}

/// The chart in words: its description (the accessible name: n, Spearman's ρ, and the outputs
/// above, on and under the diagonal) and its caption.
pub fn describe(
    judge: &str,
    dimension: &str,
    points: &[ScorePoint],
    spearman: Option<Correlation>,
) -> (String, String) {
    let rho = spearman.map_or_else(
        || "Spearman's ρ not defined".to_owned(),
        |c| {
            format!(
                "Spearman's ρ {} (p {})",
                fmt::num(Some(c.value), 3),
                fmt::p_value(Some(c.p_value))
            )
        },
    );
    let (up, same, down) = sides(points);
    let description = format!(
        "Chart: the judge {judge}'s score against the humans' mean score on {dimension}, one \
         point per output: {} outputs, {rho}; the judge scored {up} higher than the humans' \
         mean, {same} the same, {down} lower.",
        points.len()
    );
    let caption = format!(
        "The judge {judge} against the humans on {dimension}: each point is an output (across: \
         the humans' mean score; up: the judge's score), a larger point holding more outputs; on \
         the dashed diagonal the judge gives the humans' mean."
    );
    (description, caption)
}

/// The scatter plot of one judge on one dimension.
#[component]
pub fn JudgeScatter(
    judge: String,
    dimension: String,
    /// The dimension's scale, when the study gives it.
    scale: Option<Vec<f64>>,
    points: Vec<ScorePoint>,
    spearman: Option<Correlation>,
) -> impl IntoView {
    let axis = scatter_axis(scale.as_deref(), &points);
    let (description, caption) = describe(&judge, &dimension, &points, spearman);
    let (left, right) = (axis.x(axis.lo), axis.x(axis.hi));
    let (top, bottom) = (axis.y(axis.hi), axis.y(axis.lo));
    let grid = axis
        .ticks
        .iter()
        .map(|&t| {
            let (x, y) = (axis.x(t), axis.y(t));
            view! {
                <line class="chart-grid" x1=x x2=x y1=top y2=bottom />
                <line class="chart-grid" x1=left x2=right y1=y y2=y />
                <text class="chart-tick" x=x y=bottom + 18.0>{plain(t)}</text>
                <text class="chart-tick rounds-y" x=left - 8.0 y=y + 4.0>{plain(t)}</text>
            }
        })
        .collect_view();
    let middle = (top + bottom) / 2.0;
    let dots = marks(&points)
        .into_iter()
        .map(|m| {
            let tip = format!(
                "Humans' mean {}, judge {}: {} output(s)",
                fmt::num(Some(m.human_mean), 3),
                plain(m.judge),
                m.outputs
            );
            view! {
                <circle
                    class="chart-mean"
                    cx=axis.x(m.human_mean)
                    cy=axis.y(m.judge)
                    r=radius(m.outputs)
                    fill-opacity="0.7"
                >
                    <title>{tip}</title>
                </circle>
            }
        })
        .collect_view();
    view! {
        <ChartFrame class="judge-chart" description size=(SIZE, SIZE) caption>
            {grid}
            <line class="chart-axis" x1=left x2=right y1=bottom y2=bottom />
            <line class="chart-axis" x1=left x2=left y1=top y2=bottom />
            <line class="chart-axis" x1=left x2=right y1=bottom y2=top stroke-dasharray="6 4" />
            <text class="chart-tick" x=(left + right) / 2.0 y=SIZE - 10.0>"Humans' mean"</text>
            <text
                class="chart-tick"
                x="16"
                y=middle
                transform=format!("rotate(-90 16 {middle})")
            >
                "Judge"
            </text>
            {dots}
        </ChartFrame>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn point(human_mean: f64, judge: f64) -> ScorePoint {
        ScorePoint {
            item: "i".to_owned(),
            system: "s".to_owned(),
            dimension: None,
            judge,
            human_mean,
            humans: 3,
        }
    }

    #[test]
    fn the_axes_are_the_scale_and_the_diagonal_runs_corner_to_corner() {
        let points = [point(1.5, 2.0), point(4.0, 5.0)];
        let axis = scatter_axis(Some(&[1.0, 2.0, 3.0, 4.0, 5.0]), &points);
        assert_eq!((axis.lo, axis.hi), (1.0, 5.0));
        assert_eq!(axis.ticks, [1.0, 2.0, 3.0, 4.0, 5.0]);
        // The lowest point at the bottom left, the highest at the top right, the plot square.
        assert_eq!((axis.x(1.0), axis.y(1.0)), (MARGIN, SIZE - MARGIN));
        assert_eq!((axis.x(5.0), axis.y(5.0)), (SIZE - PAD, PAD));
        assert_eq!(axis.x(3.0) - MARGIN, SIZE - MARGIN - axis.y(3.0));
    }

    #[test]
    fn a_score_off_the_scale_or_no_scale_widens_to_whole_numbers() {
        let axis = scatter_axis(Some(&[1.0, 2.0, 3.0]), &[point(2.5, 4.0)]);
        assert_eq!((axis.lo, axis.hi), (1.0, 4.0));
        assert_eq!(axis.ticks, [1.0, 2.0, 3.0, 4.0]);
        let axis = scatter_axis(None, &[point(0.2, 0.7)]);
        assert_eq!(
            (axis.lo, axis.hi, axis.ticks.clone()),
            (0.0, 1.0, vec![0.0, 1.0])
        );
        let axis = scatter_axis(None, &[point(3.0, 3.0)]);
        assert_eq!((axis.lo, axis.hi), (3.0, 4.0));
        let axis = scatter_axis(None, &[point(0.0, 100.0)]);
        assert_eq!(axis.ticks, [0.0, 20.0, 40.0, 60.0, 80.0, 100.0]);
        let empty = scatter_axis(None, &[]);
        assert_eq!((empty.lo, empty.hi), (0.0, 1.0));
    }

    #[test]
    fn outputs_at_one_place_are_one_larger_mark() {
        let points = [
            point(3.0, 4.0),
            point(2.0, 2.0),
            point(3.0, 4.0),
            point(3.0, 3.0),
        ];
        let m = marks(&points);
        assert_eq!(
            m.iter()
                .map(|m| (m.human_mean, m.judge, m.outputs))
                .collect::<Vec<_>>(),
            [(2.0, 2.0, 1), (3.0, 3.0, 1), (3.0, 4.0, 2)]
        );
        assert!(radius(2) > radius(1));
        assert_eq!(radius(1000), radius(100));
        assert_eq!(sides(&points), (2, 2, 0));
    }

    #[test]
    fn the_description_gives_n_rho_and_the_sides_of_the_diagonal() {
        let points = [point(3.0, 4.0), point(2.0, 1.0), point(3.0, 3.0)];
        let rho = Correlation {
            value: 0.8125,
            p_value: 0.0123,
            n: 3,
        };
        let (description, caption) = describe("gpt", "quality", &points, Some(rho));
        assert_eq!(
            description,
            "Chart: the judge gpt's score against the humans' mean score on quality, one point \
             per output: 3 outputs, Spearman's ρ 0.812 (p 0.012); the judge scored 1 higher than \
             the humans' mean, 1 the same, 1 lower."
        );
        assert!(caption.contains("dashed diagonal"), "{caption}");
        let (none, _) = describe("gpt", "quality", &[], None);
        assert!(
            none.contains("0 outputs, Spearman's ρ not defined"),
            "{none}"
        );
    }
}
