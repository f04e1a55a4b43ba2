//! The report's charts, drawn as plain SVG from the core's `Report`: means with intervals,
//! diverging stacked bars of the rating distributions, the preference matrix and the
//! Bradley–Terry ranking.
//!
//! The geometry is computed by pure functions (tested natively below); the components only lay
//! it out. Every chart is a `role="img"` whose accessible name states every number it shows, so
//! a screen reader gets the data, not a picture; colours come from ColorBrewer's PuOr, a
//! diverging palette safe for the common colour-vision deficiencies, and every number is also
//! written as text. Charts scale with their container (`viewBox`, CSS width 100%), and fills
//! are attributes, not inline styles, which the page's Content-Security-Policy forbids.

use juror_core::analysis::report::{PreferenceReport, SystemSummary};
use leptos::prelude::*;

use super::num;

// ---------------------------------------------------------------------------------------------
// Colours
// ---------------------------------------------------------------------------------------------

/// ColorBrewer's PuOr with 11 classes (Cynthia Brewer, colorbrewer2.org), orange (low) to
/// purple (high); the middle is a light grey a touch darker than ColorBrewer's, so the neutral
/// segment stands out from a white page.
const PUOR: [(u8, u8, u8); 11] = [
    (0x7f, 0x3b, 0x08),
    (0xb3, 0x58, 0x06),
    (0xe0, 0x82, 0x14),
    (0xfd, 0xb8, 0x63),
    (0xfe, 0xe0, 0xb6),
    (0xdd, 0xdd, 0xdd),
    (0xd8, 0xda, 0xeb),
    (0xb2, 0xab, 0xd2),
    (0x80, 0x73, 0xac),
    (0x54, 0x27, 0x88),
    (0x2d, 0x00, 0x4b),
];

/// The palette's colour at `t` in [-1, 1] (−1 lowest, 0 neutral, 1 highest), as `#rrggbb`. The
/// darkest ends are left out, so text stays legible on every colour.
pub fn diverging(t: f64) -> String {
    let t = if t.is_finite() {
        t.clamp(-1.0, 1.0)
    } else {
        0.0
    };
    let position = (0.5 + 0.4 * t) * (PUOR.len() - 1) as f64;
    let lower = (position.floor() as usize).min(PUOR.len() - 2);
    let f = position - lower as f64;
    let (a, b) = (PUOR[lower], PUOR[lower + 1]);
    let mix = |x: u8, y: u8| (f64::from(x) + (f64::from(y) - f64::from(x)) * f).round() as u8;
    format!(
        "#{:02x}{:02x}{:02x}",
        mix(a.0, b.0),
        mix(a.1, b.1),
        mix(a.2, b.2)
    )
}

/// WCAG relative luminance of `#rrggbb`.
fn luminance(hex: &str) -> f64 {
    let channel = |i: usize| {
        let v = f64::from(u8::from_str_radix(hex.get(i..i + 2).unwrap_or("00"), 16).unwrap_or(0))
            / 255.0;
        if v <= 0.03928 {
            v / 12.92
        } else {
            ((v + 0.055) / 1.055).powf(2.4)
        }
    };
    0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5)
}

/// Dark text.
pub const INK: &str = "#1d2127";
/// Light text.
pub const PAPER: &str = "#ffffff";

/// The text colour (dark or white) with the higher contrast on `fill`.
pub fn ink_on(fill: &str) -> &'static str {
    let l = luminance(fill);
    let contrast = |other: f64| (l.max(other) + 0.05) / (l.min(other) + 0.05);
    if contrast(luminance(INK)) >= contrast(1.0) {
        INK
    } else {
        PAPER
    }
}

/// A number as people write it: `4`, not `4.0`; `3.5`.
pub fn plain(x: f64) -> String {
    if x.fract() == 0.0 && x.abs() < 1e15 {
        format!("{}", x as i64)
    } else {
        format!("{x}")
    }
}

/// A share in [0, 1] as a whole percentage.
fn percent(share: f64) -> String {
    format!("{:.0}%", share * 100.0)
}

// ---------------------------------------------------------------------------------------------
// Diverging stacked bars of the rating distributions
// ---------------------------------------------------------------------------------------------

/// One category of the scale (a point, or a value seen without a study).
#[derive(Debug, Clone, PartialEq)]
pub struct Category {
    pub value: f64,
    /// `3 Acceptable` with the study's label, else `3`.
    pub label: String,
    pub fill: String,
    pub ink: &'static str,
}

/// One system's bar: shares in [0, 1] of its ratings per category, placed so that the centre of
/// the scale is at 0 (`start` is where the segment begins, negative left of the centre).
#[derive(Debug, Clone, PartialEq)]
pub struct LikertRow {
    pub system: String,
    pub total: usize,
    /// Per category (same order as [`LikertChart::categories`]): count, share, start.
    pub segments: Vec<(usize, f64, f64)>,
    /// Share below the centre (with half the neutral category), and above.
    pub below: f64,
    pub above: f64,
}

/// The geometry of a diverging stacked bar chart.
#[derive(Debug, Clone, PartialEq)]
pub struct LikertChart {
    pub categories: Vec<Category>,
    /// The midpoint of the scale's range: a category equal to it is neutral.
    pub centre: f64,
    pub rows: Vec<LikertRow>,
    /// The axis runs from −extent to +extent (a share: 0.25, 0.5, 0.75 or 1).
    pub extent: f64,
}

/// Lays out the distributions of `systems` (from the report) as diverging stacked bars.
///
/// The categories are the scale's points (`scale`, from the study) and any other value seen;
/// they are centred on the midpoint of the scale's range (of the values seen without a scale).
/// A category at the midpoint (the neutral point of an odd scale) is split half each side.
/// `labels` are the study's labels of the points, if any.
pub fn likert(
    scale: Option<&[f64]>,
    labels: &[(f64, String)],
    systems: &[SystemSummary],
) -> LikertChart {
    let mut values: Vec<f64> = scale.map(<[f64]>::to_vec).unwrap_or_default();
    for s in systems {
        values.extend(s.distribution.iter().map(|c| c.score));
    }
    values.retain(|v| v.is_finite());
    values.sort_by(f64::total_cmp);
    values.dedup();
    let range_of = |v: &[f64]| {
        v.first()
            .zip(v.last())
            .map_or((0.0, 0.0), |(lo, hi)| (*lo, *hi))
    };
    let (lo, hi) = match scale {
        Some(s) if !s.is_empty() => range_of(s),
        _ => range_of(&values),
    };
    let centre = (lo + hi) / 2.0;
    let half = (hi - lo) / 2.0;
    let neutral = |v: f64| (v - centre).abs() < 1e-9;
    let categories = values
        .iter()
        .map(|&value| {
            let fill = diverging(if half > 0.0 {
                (value - centre) / half
            } else {
                0.0
            });
            let label = match labels.iter().find(|(v, _)| *v == value) {
                Some((_, l)) if !l.trim().is_empty() => format!("{} {}", plain(value), l.trim()),
                _ => plain(value),
            };
            Category {
                value,
                label,
                ink: ink_on(&fill),
                fill,
            }
        })
        .collect::<Vec<_>>();
    let rows: Vec<LikertRow> = systems
        .iter()
        .map(|s| {
            let counts: Vec<usize> = values
                .iter()
                .map(|v| {
                    s.distribution
                        .iter()
                        .filter(|c| c.score == *v)
                        .map(|c| c.count)
                        .sum()
                })
                .collect();
            let total: usize = counts.iter().sum();
            let share = |c: usize| {
                if total == 0 {
                    0.0
                } else {
                    c as f64 / total as f64
                }
            };
            let mut below = 0.0;
            let mut above = 0.0;
            for (v, &c) in values.iter().zip(&counts) {
                if neutral(*v) {
                    below += share(c) / 2.0;
                    above += share(c) / 2.0;
                } else if *v < centre {
                    below += share(c);
                } else {
                    above += share(c);
                }
            }
            let mut cursor = -below;
            let segments = counts
                .iter()
                .map(|&c| {
                    let start = cursor;
                    cursor += share(c);
                    (c, share(c), start)
                })
                .collect();
            LikertRow {
                system: s.system.clone(),
                total,
                segments,
                below,
                above,
            }
        })
        .collect();
    let widest = rows
        .iter()
        .map(|r| r.below.max(r.above))
        .fold(0.0_f64, f64::max);
    let extent = [0.25, 0.5, 0.75, 1.0]
        .into_iter()
        .find(|e| widest <= e + 1e-9)
        .unwrap_or(1.0);
    LikertChart {
        categories,
        centre,
        rows,
        extent,
    }
}

impl LikertChart {
    /// The chart in words: what is centred where, then each system's counts and shares.
    pub fn describe(&self, dimension: &str) -> String {
        let centre = self
            .categories
            .iter()
            .find(|c| (c.value - self.centre).abs() < 1e-9)
            .map_or_else(|| plain(self.centre), |c| c.label.clone());
        let neutral = if self
            .categories
            .iter()
            .any(|c| (c.value - self.centre).abs() < 1e-9)
        {
            ", the neutral point split half each side"
        } else {
            ""
        };
        let rows: Vec<String> = self
            .rows
            .iter()
            .map(|r| {
                let parts: Vec<String> = self
                    .categories
                    .iter()
                    .zip(&r.segments)
                    .map(|(c, (count, share, _))| {
                        format!("{}: {count} ({})", c.label, percent(*share))
                    })
                    .collect();
                format!("{} ({} ratings): {}", r.system, r.total, parts.join(", "))
            })
            .collect();
        format!(
            "Distribution of the ratings on {dimension} per system, as bars centred on {centre}{neutral}. {}.",
            rows.join("; ")
        )
    }
}

// ---------------------------------------------------------------------------------------------
// Preference matrix
// ---------------------------------------------------------------------------------------------

/// One cell: the row system against the column system.
#[derive(Debug, Clone, PartialEq)]
pub struct MatrixCell {
    pub row: usize,
    pub col: usize,
    /// (wins + ties / 2) / judgements of the row over the column; `None` when they never met.
    pub share: Option<f64>,
    pub wins: u64,
    pub losses: u64,
    pub ties: u64,
}

/// The preference matrix: systems in order (strongest first by Bradley–Terry when it was fitted,
/// else the report's byte order) and every off-diagonal cell.
pub fn preference_matrix(p: &PreferenceReport) -> (Vec<String>, Vec<MatrixCell>) {
    let mut systems = p.systems.clone();
    if let Some(bt) = &p.bradley_terry {
        let strength = |s: &String| bt.scores.get(s).map_or(f64::NEG_INFINITY, |v| v.score);
        systems.sort_by(|a, b| strength(b).total_cmp(&strength(a)));
    }
    let mut cells = Vec::new();
    for (row, a) in systems.iter().enumerate() {
        for (col, b) in systems.iter().enumerate() {
            if row == col {
                continue;
            }
            let record = p.pairs.iter().find_map(|pair| {
                if pair.system_a == *a && pair.system_b == *b {
                    Some((pair.wins, pair.losses, pair.ties))
                } else if pair.system_a == *b && pair.system_b == *a {
                    Some((pair.losses, pair.wins, pair.ties))
                } else {
                    None
                }
            });
            let (wins, losses, ties) = record.unwrap_or((0, 0, 0));
            let n = wins + losses + ties;
            let share = (n > 0).then(|| (wins as f64 + ties as f64 / 2.0) / n as f64);
            cells.push(MatrixCell {
                row,
                col,
                share,
                wins,
                losses,
                ties,
            });
        }
    }
    (systems, cells)
}

/// The matrix in words, each pair once (the upper triangle: the stronger system first).
pub fn describe_matrix(systems: &[String], cells: &[MatrixCell]) -> String {
    let pairs: Vec<String> = cells
        .iter()
        .filter(|c| c.row < c.col)
        .map(|c| match c.share {
            Some(s) => format!(
                "{} over {}: {} ({} wins, {} losses, {} ties)",
                systems[c.row],
                systems[c.col],
                percent(s),
                c.wins,
                c.losses,
                c.ties
            ),
            None => format!("{} and {}: never compared", systems[c.row], systems[c.col]),
        })
        .collect();
    format!(
        "Preference matrix: the share of judgements the row system won against the column \
         system, a tie counted as half a win. {}.",
        pairs.join("; ")
    )
}

// ---------------------------------------------------------------------------------------------
// Bradley–Terry ranking
// ---------------------------------------------------------------------------------------------

/// One system's strength and its bootstrap interval.
#[derive(Debug, Clone, PartialEq)]
pub struct Strength {
    pub system: String,
    pub score: f64,
    pub ci: Option<(f64, f64)>,
}

/// The strengths, strongest first (ties in byte order of the id).
pub fn strengths(p: &PreferenceReport) -> Vec<Strength> {
    let mut rows: Vec<Strength> = p
        .bradley_terry
        .iter()
        .flat_map(|bt| bt.scores.iter())
        .map(|(system, s)| Strength {
            system: system.clone(),
            score: s.score,
            ci: s.ci.map(|ci| (ci.low, ci.high)),
        })
        .collect();
    rows.sort_by(|a, b| b.score.total_cmp(&a.score).then(a.system.cmp(&b.system)));
    rows
}

/// A round upper end for an axis from 0 that shows `max`, and ticks at round steps.
pub fn nice_axis(max: f64) -> (f64, Vec<f64>) {
    let max = if max.is_finite() && max > 0.0 {
        max
    } else {
        1.0
    };
    let raw = max / 4.0;
    let magnitude = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 2.5, 5.0, 10.0]
        .into_iter()
        .map(|m| m * magnitude)
        .find(|s| *s >= raw - 1e-12)
        .unwrap_or(10.0 * magnitude);
    let steps = (max / step - 1e-9).ceil().max(1.0) as usize;
    // Rounded to 12 significant digits, so 3 × 0.2 is 0.6.
    let ticks = (0..=steps)
        .map(|i| (i as f64 * step * 1e12).round() / 1e12)
        .collect();
    (steps as f64 * step, ticks)
}

/// The ranking in words.
pub fn describe_strengths(rows: &[Strength], level: f64) -> String {
    let parts: Vec<String> = rows
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let ci = r.ci.map_or_else(
                || "no interval".to_owned(),
                |(lo, hi)| format!("{} to {}", num(Some(lo)), num(Some(hi))),
            );
            format!("{}. {} {} ({ci})", i + 1, r.system, num(Some(r.score)))
        })
        .collect();
    format!(
        "Bradley–Terry strengths (summing to 1), strongest first, with {:.0}% bootstrap intervals: {}.",
        level * 100.0,
        parts.join("; ")
    )
}

// ---------------------------------------------------------------------------------------------
// Components
// ---------------------------------------------------------------------------------------------

const WIDTH: f64 = 640.0;
const LEFT: f64 = 180.0;
const RIGHT: f64 = 24.0;
const ROW: f64 = 32.0;
const TOP: f64 = 12.0;

/// A system id short enough for the label column (the full id is in the chart's description).
fn short(id: &str) -> String {
    const MAX: usize = 21;
    if id.chars().count() <= MAX {
        id.to_owned()
    } else {
        let cut: String = id.chars().take(MAX - 1).collect();
        format!("{cut}…")
    }
}

/// A round step (1, 2, 2.5 or 5 times a power of ten) that cuts `span` into at most `most`
/// parts.
fn round_step(span: f64, most: f64) -> f64 {
    let raw = span / most;
    let magnitude = 10f64.powf(raw.log10().floor());
    [1.0, 2.0, 2.5, 5.0, 10.0]
        .into_iter()
        .map(|m| m * magnitude)
        .find(|s| *s >= raw - 1e-12)
        .unwrap_or(10.0 * magnitude)
}

/// The horizontal axis of the means chart: its ends and ticks.
#[derive(Debug, Clone, PartialEq)]
pub struct MeansAxis {
    /// The left end.
    pub lo: f64,
    /// The right end.
    pub hi: f64,
    /// Where the ticks go, each a round number or a scale point.
    pub ticks: Vec<f64>,
    /// Whether the ends are the rating scale's (an interval past them is clipped and marked).
    pub scale_ends: bool,
}

/// The means chart's axis. With the study's scale, exactly the scale's range (a mean cannot
/// leave it; an interval that does is clipped and marked), ticked at its points, or at round
/// numbers when it has more than 11. Without a scale, the means and intervals rounded out to
/// round numbers.
pub fn means_axis(scale: Option<&[f64]>, systems: &[SystemSummary]) -> MeansAxis {
    let points: Vec<f64> = scale
        .unwrap_or_default()
        .iter()
        .copied()
        .filter(|v| v.is_finite())
        .collect();
    let round_ticks = |lo: f64, hi: f64| -> Vec<f64> {
        let step = round_step(hi - lo, 5.0);
        let first = (lo / step - 1e-9).ceil() as i64;
        (first..)
            .map(|k| (k as f64 * step * 1e12).round() / 1e12)
            .take_while(|t| *t <= hi + 1e-9 * step)
            .collect()
    };
    if points.len() >= 2 {
        let lo = points.iter().copied().fold(f64::INFINITY, f64::min);
        let hi = points.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        if hi > lo {
            let ticks = if points.len() <= 11 {
                points
            } else {
                round_ticks(lo, hi)
            };
            return MeansAxis {
                lo,
                hi,
                ticks,
                scale_ends: true,
            };
        }
    }
    let mut values = Vec::new();
    for s in systems {
        values.push(s.mean);
        if let Some(ci) = s.ci95 {
            values.extend([ci.low, ci.high]);
        }
    }
    let (lo, hi) = values
        .into_iter()
        .filter(|v| v.is_finite())
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
            (lo.min(v), hi.max(v))
        });
    let (lo, hi) = if !lo.is_finite() {
        (0.0, 1.0)
    } else if hi - lo < 1e-9 {
        (lo - 0.5, hi + 0.5)
    } else {
        (lo, hi)
    };
    let step = round_step(hi - lo, 5.0);
    let (lo, hi) = (
        (lo / step + 1e-9).floor() * step,
        (hi / step - 1e-9).ceil() * step,
    );
    MeansAxis {
        lo,
        hi,
        ticks: round_ticks(lo, hi),
        scale_ends: false,
    }
}

/// An interval as drawn on `axis`: its ends cut to the axis, and whether each end was cut.
pub fn clip(low: f64, high: f64, axis: &MeansAxis) -> ((f64, f64), (bool, bool)) {
    let (cut_low, cut_high) = (low < axis.lo, high > axis.hi);
    ((low.max(axis.lo), high.min(axis.hi)), (cut_low, cut_high))
}

/// Means with their 95% t intervals, one row per system: plain SVG, styled by classes.
#[component]
pub fn MeansChart(
    name: String,
    scale: Option<Vec<f64>>,
    systems: Vec<SystemSummary>,
) -> impl IntoView {
    let axis = means_axis(scale.as_deref(), &systems);
    let (lo, hi) = (axis.lo, axis.hi);
    let x = move |v: f64| LEFT + (v - lo) / (hi - lo) * (WIDTH - LEFT - RIGHT);
    let axis_y = TOP + ROW * systems.len() as f64;
    let height = axis_y + 32.0;
    let label =
        format!("Chart: mean of item means with 95% confidence interval per system on {name}");
    let clipped_any = systems.iter().any(|s| {
        s.ci95
            .is_some_and(|ci| clip(ci.low, ci.high, &axis).1 != (false, false))
    });
    let numbers: Vec<String> = systems
        .iter()
        .map(|s| {
            let ci = s.ci95.map_or_else(
                || "no interval".to_owned(),
                |ci| {
                    let past = match clip(ci.low, ci.high, &axis).1 {
                        (false, false) => "",
                        _ => ", past the end of the scale",
                    };
                    format!("{} to {}{past}", num(Some(ci.low)), num(Some(ci.high)))
                },
            );
            format!("{} {} ({ci})", s.system, num(Some(s.mean)))
        })
        .collect();
    let description = format!("{label}: {}.", numbers.join("; "));
    // An arrowhead pointing out of the plot, at `at` on row `y`: the interval goes on.
    let arrow = move |at: f64, y: f64, outward: f64| {
        let tip = x(at) + 7.0 * outward;
        let base = x(at);
        format!("{tip},{y} {base},{} {base},{}", y - 5.0, y + 5.0)
    };
    let caption = if clipped_any {
        format!(
            "{label}. An arrow marks an interval that runs past the end of the rating scale \
             (a t interval is not bounded by the scale); the chart's description gives its ends."
        )
    } else {
        label.clone()
    };
    view! {
        <figure class="chart">
            <svg
                class="means-chart"
                viewBox=format!("0 0 {WIDTH} {height}")
                role="img"
                aria-label=description
            >
                <title>{description.clone()}</title>
                {axis
                    .ticks
                    .iter()
                    .map(|&t| {
                        view! {
                            <line class="chart-grid" x1=x(t) x2=x(t) y1=TOP y2=axis_y />
                            <text class="chart-tick" x=x(t) y=axis_y + 20.0>{plain(t)}</text>
                        }
                    })
                    .collect_view()}
                <line class="chart-axis" x1=LEFT x2=WIDTH - RIGHT y1=axis_y y2=axis_y />
                {systems
                    .iter()
                    .enumerate()
                    .map(|(i, s)| {
                        let y = TOP + ROW * (i as f64 + 0.5);
                        let ci = s.ci95.map(|ci| {
                            let ((low, high), (cut_low, cut_high)) = clip(ci.low, ci.high, &axis);
                            view! {
                                <line class="chart-ci" x1=x(low) x2=x(high) y1=y y2=y />
                                {cut_low.then(|| view! { <polygon class="chart-ci-clipped" points=arrow(low, y, -1.0) /> })}
                                {cut_high.then(|| view! { <polygon class="chart-ci-clipped" points=arrow(high, y, 1.0) /> })}
                            }
                        });
                        view! {
                            <text class="chart-label" x=LEFT - 10.0 y=y + 5.0>{short(&s.system)}</text>
                            {ci}
                            <circle class="chart-mean" cx=x(s.mean) cy=y r="5" />
                        }
                    })
                    .collect_view()}
            </svg>
            <figcaption>{caption}</figcaption>
        </figure>
    }
}

/// A colour swatch for a legend.
#[component]
fn Swatch(fill: String) -> impl IntoView {
    view! {
        <svg class="swatch" viewBox="0 0 12 12" width="12" height="12" aria-hidden="true" focusable="false">
            <rect width="12" height="12" fill=fill />
        </svg>
    }
}

/// Diverging stacked bars of the distribution of the ratings, one bar per system.
#[component]
pub fn LikertBars(
    name: String,
    scale: Option<Vec<f64>>,
    labels: Vec<(f64, String)>,
    systems: Vec<SystemSummary>,
) -> impl IntoView {
    let chart = likert(scale.as_deref(), &labels, &systems);
    let description = chart.describe(&name);
    let extent = chart.extent;
    let plot = WIDTH - LEFT - RIGHT;
    let centre_x = LEFT + plot / 2.0;
    let x = move |share: f64| centre_x + share / extent * plot / 2.0;
    let axis_y = TOP + ROW * chart.rows.len() as f64;
    let height = axis_y + 32.0;
    let ticks: Vec<f64> = [-1.0, -0.5, 0.0, 0.5, 1.0]
        .into_iter()
        .map(|f| f * extent)
        .collect();
    let categories = chart.categories.clone();
    let bars = chart
        .rows
        .iter()
        .enumerate()
        .map(|(i, row)| {
            let y = TOP + ROW * i as f64 + 6.0;
            let segments = categories
                .iter()
                .zip(&row.segments)
                .filter(|(_, (count, _, _))| *count > 0)
                .map(|(c, &(count, share, start))| {
                    let (x0, x1) = (x(start), x(start + share));
                    // Room for "100%" at the larger size used on phones.
                    let text = (x1 - x0 >= 38.0).then(|| {
                        view! {
                            <text class="likert-value" x=(x0 + x1) / 2.0 y=y + 14.5 fill=c.ink>
                                {percent(share)}
                            </text>
                        }
                    });
                    let tip = format!(
                        "{}: {}, {count} of {} ({})",
                        row.system,
                        c.label,
                        row.total,
                        percent(share)
                    );
                    view! {
                        <g>
                            <rect class="likert-seg" x=x0 y=y width=x1 - x0 height="20" fill=c.fill.clone()>
                                <title>{tip}</title>
                            </rect>
                            {text}
                        </g>
                    }
                })
                .collect_view();
            view! {
                <g>
                    <text class="chart-label" x=LEFT - 10.0 y=y + 15.0>{short(&row.system)}</text>
                    {segments}
                </g>
            }
        })
        .collect_view();
    let tick_marks = ticks
        .into_iter()
        .map(|t| {
            view! {
                <g>
                    <line class="chart-grid" x1=x(t) x2=x(t) y1=TOP y2=axis_y />
                    <text class="chart-tick" x=x(t) y=axis_y + 20.0>{percent(t.abs())}</text>
                </g>
            }
        })
        .collect_view();
    let legend = categories
        .into_iter()
        .map(|c| view! { <li><Swatch fill=c.fill />{c.label}</li> })
        .collect_view();
    view! {
        <figure class="chart">
            <svg
                class="likert-chart"
                viewBox=format!("0 0 {WIDTH} {height}")
                role="img"
                aria-label=description
            >
                <title>{description.clone()}</title>
                {tick_marks}
                {bars}
                <line class="chart-centre" x1=centre_x x2=centre_x y1=TOP - 4.0 y2=axis_y />
                <line class="chart-axis" x1=LEFT x2=WIDTH - RIGHT y1=axis_y y2=axis_y />
            </svg>
            <ul class="chart-legend" aria-label=format!("Scale points of {name}")>{legend}</ul>
            <figcaption>
                {format!(
                    "Ratings of {name} per system: the share of each scale point, bars centred on the scale's midpoint (a neutral point is split half each side); lower scores to the left."
                )}
            </figcaption>
        </figure>
    }
}

/// More systems than this and the matrix is left to the pairs table: its cells would be too
/// small to hold their numbers.
pub const MATRIX_MAX: usize = 16;

/// The preference matrix as a shaded grid with the shares written in the cells.
#[component]
pub fn PreferenceMatrix(preferences: PreferenceReport) -> impl IntoView {
    const CELL: f64 = 56.0;
    let (systems, cells) = preference_matrix(&preferences);
    if systems.len() > MATRIX_MAX {
        return view! {
            <p class="hint">
                {format!(
                    "{} systems: too many for a preference matrix; the pairs table has every pair.",
                    systems.len()
                )}
            </p>
        }
        .into_any();
    }
    let description = describe_matrix(&systems, &cells);
    // Room for the column labels, slanted at 40°: about 7.5 units per character at 13px.
    let longest = systems
        .iter()
        .map(|s| short(s).chars().count())
        .max()
        .unwrap_or(0) as f64;
    let head = (16.0 + 7.5 * longest * 0.643).max(40.0);
    let right = (7.5 * longest * 0.766 - CELL / 2.0).max(RIGHT);
    let n = systems.len() as f64;
    let width = LEFT + n * CELL + right;
    let height = head + n * CELL + 8.0;
    let columns = systems
        .iter()
        .enumerate()
        .map(|(j, s)| {
            let (cx, cy) = (LEFT + CELL * (j as f64 + 0.5), head - 8.0);
            view! {
                <text class="matrix-column" x=cx y=cy transform=format!("rotate(-40 {cx} {cy})")>
                    {short(s)}
                </text>
            }
        })
        .collect_view();
    let rows = systems
        .iter()
        .enumerate()
        .map(|(i, s)| {
            view! {
                <text class="chart-label" x=LEFT - 10.0 y=head + CELL * (i as f64 + 0.5) + 5.0>
                    {short(s)}
                </text>
            }
        })
        .collect_view();
    let grid = cells
        .iter()
        .map(|c| {
            let (x0, y0) = (LEFT + CELL * c.col as f64, head + CELL * c.row as f64);
            let fill = c
                .share
                .map_or_else(|| "#ffffff".to_owned(), |s| diverging(2.0 * s - 1.0));
            let text = c.share.map_or_else(|| "–".to_owned(), percent);
            let tip = match c.share {
                Some(s) => format!(
                    "{} over {}: {} ({} wins, {} losses, {} ties)",
                    systems[c.row],
                    systems[c.col],
                    percent(s),
                    c.wins,
                    c.losses,
                    c.ties
                ),
                None => format!("{} and {}: never compared", systems[c.row], systems[c.col]),
            };
            view! {
                <g>
                    <rect class="matrix-cell" x=x0 y=y0 width=CELL height=CELL fill=fill.clone()>
                        <title>{tip}</title>
                    </rect>
                    <text class="matrix-value" x=x0 + CELL / 2.0 y=y0 + CELL / 2.0 + 5.0 fill=ink_on(&fill)>
                        {text}
                    </text>
                </g>
            }
        })
        .collect_view();
    let diagonal = (0..systems.len())
        .map(|i| {
            let o = CELL * i as f64;
            view! { <rect class="matrix-diagonal" x=LEFT + o y=head + o width=CELL height=CELL /> }
        })
        .collect_view();
    view! {
        <figure class="chart">
            <svg
                class="matrix-chart"
                viewBox=format!("0 0 {width} {height}")
                width=width
                height=height
                role="img"
                aria-label=description
            >
                <title>{description.clone()}</title>
                {columns}
                {rows}
                {grid}
                {diagonal}
            </svg>
            <figcaption>
                "Preference matrix: each cell is the share of judgements the row's system won against the column's, a tie counted as half a win (so it differs from the pairs table's win rate, which leaves ties out). Strongest system first; purple: the row wins more often, orange: less often."
            </figcaption>
        </figure>
    }
    .into_any()
}

/// The Bradley–Terry strengths as horizontal bars, strongest first, with bootstrap intervals as
/// whiskers.
#[component]
pub fn StrengthChart(preferences: PreferenceReport) -> impl IntoView {
    const VALUES: f64 = 64.0;
    let rows = strengths(&preferences);
    let level = preferences
        .bradley_terry
        .as_ref()
        .map_or(0.95, |bt| bt.level);
    let description = describe_strengths(&rows, level);
    let top = rows
        .iter()
        .map(|r| r.ci.map_or(r.score, |(_, hi)| hi.max(r.score)))
        .fold(0.0_f64, f64::max);
    let (max, ticks) = nice_axis(top);
    let right = WIDTH - VALUES;
    let x = move |v: f64| LEFT + v.max(0.0) / max * (right - LEFT);
    let axis_y = TOP + ROW * rows.len() as f64;
    let height = axis_y + 32.0;
    let tick_marks = ticks
        .into_iter()
        .map(|t| {
            view! {
                <g>
                    <line class="chart-grid" x1=x(t) x2=x(t) y1=TOP y2=axis_y />
                    <text class="chart-tick" x=x(t) y=axis_y + 20.0>{format!("{}", (t * 1000.0).round() / 1000.0)}</text>
                </g>
            }
        })
        .collect_view();
    let bars = rows
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let y = TOP + ROW * i as f64 + 6.0;
            let mid = y + 10.0;
            let whisker = r.ci.map(|(lo, hi)| {
                view! {
                    <g>
                        <line class="chart-whisker" x1=x(lo) x2=x(hi) y1=mid y2=mid />
                        <line class="chart-whisker" x1=x(lo) x2=x(lo) y1=mid - 6.0 y2=mid + 6.0 />
                        <line class="chart-whisker" x1=x(hi) x2=x(hi) y1=mid - 6.0 y2=mid + 6.0 />
                    </g>
                }
            });
            view! {
                <g>
                    <text class="chart-label" x=LEFT - 10.0 y=y + 15.0>{short(&r.system)}</text>
                    <rect class="chart-bar" x=LEFT y=y width=x(r.score) - LEFT height="20" />
                    {whisker}
                    <text class="chart-value" x=WIDTH - 4.0 y=y + 15.0>{num(Some(r.score))}</text>
                </g>
            }
        })
        .collect_view();
    view! {
        <figure class="chart">
            <svg
                class="strength-chart"
                viewBox=format!("0 0 {WIDTH} {height}")
                role="img"
                aria-label=description
            >
                <title>{description.clone()}</title>
                {tick_marks}
                {bars}
                <line class="chart-axis" x1=LEFT x2=right y1=axis_y y2=axis_y />
            </svg>
            <figcaption>
                {format!(
                    "Bradley–Terry strengths, strongest first: bars are the strengths (summing to 1), whiskers the {:.0}% bootstrap intervals.",
                    level * 100.0
                )}
            </figcaption>
        </figure>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use juror_core::analysis::report::{
        BradleyTerryReport, BradleyTerryScore, Ci, NominalAlpha, PreferenceAgreement,
        PreferencePair, ScoreCount,
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
}
