//! The charts' geometry: where every mark goes, which colour it takes and what the chart says
//! in words, computed from the core's `Report` by pure functions.
//!
//! Nothing here touches the DOM or Leptos, so every scale, tick, position and description is
//! tested natively (`cargo test -p juror --lib`) rather than in a browser; the components in
//! `svg` only lay out what these functions return.

use juror_core::analysis::report::{PreferenceReport, SystemSummary};

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
pub fn percent(share: f64) -> String {
    format!("{:.0}%", share * 100.0)
}

// ---------------------------------------------------------------------------------------------
// Layout shared by the charts
// ---------------------------------------------------------------------------------------------

/// The width of a chart's viewBox; the SVG scales to its container.
pub const WIDTH: f64 = 640.0;
/// The left margin, which holds the systems' labels.
pub const LEFT: f64 = 180.0;
/// The right margin.
pub const RIGHT: f64 = 24.0;
/// The height of one system's row.
pub const ROW: f64 = 32.0;
/// The top margin.
pub const TOP: f64 = 12.0;

/// The vertical layout of a chart with one row per system: the horizontal axis runs under the
/// last row, with room for the tick labels below it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Frame {
    /// Where the axis runs (and the grid lines end).
    pub axis_y: f64,
    /// The height of the viewBox.
    pub height: f64,
}

impl Frame {
    /// The frame of a chart with `rows` rows.
    pub fn rows(rows: usize) -> Frame {
        let axis_y = TOP + ROW * rows as f64;
        Frame {
            axis_y,
            height: axis_y + 32.0,
        }
    }

    /// The baseline of the tick labels, under the axis.
    pub fn tick_y(&self) -> f64 {
        self.axis_y + 20.0
    }
}

/// A system id short enough for the label column (the full id is in the chart's description).
pub fn short(id: &str) -> String {
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
pub fn round_step(span: f64, most: f64) -> f64 {
    let raw = span / most;
    let magnitude = 10f64.powf(raw.log10().floor());
    [1.0, 2.0, 2.5, 5.0, 10.0]
        .into_iter()
        .map(|m| m * magnitude)
        .find(|s| *s >= raw - 1e-12)
        .unwrap_or(10.0 * magnitude)
}

// ---------------------------------------------------------------------------------------------
// Means with their intervals
// ---------------------------------------------------------------------------------------------

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

impl MeansAxis {
    /// Where `v` falls across the plot.
    pub fn x(&self, v: f64) -> f64 {
        LEFT + (v - self.lo) / (self.hi - self.lo) * (WIDTH - LEFT - RIGHT)
    }

    /// The points of an arrowhead at `at`, on the row whose middle is at `y`, pointing out of
    /// the plot (`outward` −1 to the left, 1 to the right): the interval goes on.
    pub fn arrow(&self, at: f64, y: f64, outward: f64) -> String {
        let tip = self.x(at) + 7.0 * outward;
        let base = self.x(at);
        format!("{tip},{y} {base},{} {base},{}", y - 5.0, y + 5.0)
    }
}

/// The means chart in words: its description (every mean and interval, and which intervals run
/// past the end of the scale) and its caption (which explains the arrows when one is drawn).
pub fn describe_means(name: &str, systems: &[SystemSummary], axis: &MeansAxis) -> (String, String) {
    let label =
        format!("Chart: mean of item means with 95% confidence interval per system on {name}");
    let clipped_any = systems.iter().any(|s| {
        s.ci95
            .is_some_and(|ci| clip(ci.low, ci.high, axis).1 != (false, false))
    });
    let numbers: Vec<String> = systems
        .iter()
        .map(|s| {
            let ci = s.ci95.map_or_else(
                || "no interval".to_owned(),
                |ci| {
                    let past = match clip(ci.low, ci.high, axis).1 {
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
    let caption = if clipped_any {
        format!(
            "{label}. An arrow marks an interval that runs past the end of the rating scale \
             (a t interval is not bounded by the scale); the chart's description gives its ends."
        )
    } else {
        label
    };
    (description, caption)
}

// ---------------------------------------------------------------------------------------------
// Diverging stacked bars of the rating distributions
// ---------------------------------------------------------------------------------------------

/// One category of the scale (a point, or a value seen without a study).
#[derive(Debug, Clone, PartialEq)]
pub struct Category {
    /// The value, or a band's midpoint (which places and colours it).
    pub value: f64,
    /// `3 Acceptable` with the study's label, else `3`; a band `0–19 (0 No meaning kept)`.
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

/// Whether the `k`-th category of `bands` counts the value `v` (a band holds its start, not
/// its end, but for the last).
fn band_holds(bands: &[(f64, f64)], k: usize, v: f64) -> bool {
    let (from, to) = bands[k];
    if from == to {
        v == from
    } else {
        v >= from && (v < to || (k + 1 == bands.len() && v <= to))
    }
}

/// The legend's words for the `k`-th category: `3 Acceptable` (or `3`), or a band
/// `0–19 (0 No meaning kept)` naming the labelled points it holds.
fn category_label(bands: &[(f64, f64)], k: usize, labels: &[(f64, String)]) -> String {
    let (from, to) = bands[k];
    if from == to {
        return match labels.iter().find(|(v, _)| *v == from) {
            Some((_, l)) if !l.trim().is_empty() => format!("{} {}", plain(from), l.trim()),
            _ => plain(from),
        };
    }
    // Whole scores: a band ends just before the next one starts.
    let end = if k + 1 < bands.len() && to.fract() == 0.0 && from.fract() == 0.0 {
        to - 1.0
    } else {
        to
    };
    let named: Vec<String> = labels
        .iter()
        .filter(|(v, l)| band_holds(bands, k, *v) && !l.trim().is_empty())
        .map(|(v, l)| format!("{} {}", plain(*v), l.trim()))
        .collect();
    if named.is_empty() {
        format!("{}–{}", plain(from), plain(end))
    } else {
        format!("{}–{} ({})", plain(from), plain(end), named.join("; "))
    }
}

/// The most values a distribution chart shows one category each; a wider scale (a 0–100 score)
/// is shown in [`LIKERT_BANDS`] bands.
pub const LIKERT_MAX: usize = 11;
/// The bands of equal width a wide scale is shown in (the middle one neutral).
pub const LIKERT_BANDS: usize = 5;

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
    // Each category counts the values from its first to its last: one value each, or on a
    // scale of more than [`LIKERT_MAX`] values (a 0–100 score) [`LIKERT_BANDS`] bands of equal
    // width, so that the chart and its legend stay readable.
    let bands: Vec<(f64, f64)> = if values.len() > LIKERT_MAX && hi > lo {
        let width = (hi - lo) / LIKERT_BANDS as f64;
        (0..LIKERT_BANDS)
            .map(|k| (lo + width * k as f64, lo + width * (k + 1) as f64))
            .collect()
    } else {
        values.iter().map(|&v| (v, v)).collect()
    };
    let holds = |k: usize, v: f64| band_holds(&bands, k, v);
    let categories = bands
        .iter()
        .enumerate()
        .map(|(k, &(from, to))| {
            let value = (from + to) / 2.0;
            let fill = diverging(if half > 0.0 {
                (value - centre) / half
            } else {
                0.0
            });
            let label = category_label(&bands, k, labels);
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
            let counts: Vec<usize> = (0..bands.len())
                .map(|k| {
                    s.distribution
                        .iter()
                        .filter(|c| holds(k, c.score))
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
            for (v, &c) in categories.iter().map(|c| c.value).zip(&counts) {
                if neutral(v) {
                    below += share(c) / 2.0;
                    above += share(c) / 2.0;
                } else if v < centre {
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
    /// The middle of the plot, where the scale's midpoint sits.
    pub fn centre_x() -> f64 {
        LEFT + (WIDTH - LEFT - RIGHT) / 2.0
    }

    /// Where a share from the centre falls (a negative share: left of the centre).
    pub fn x(&self, share: f64) -> f64 {
        let plot = WIDTH - LEFT - RIGHT;
        Self::centre_x() + share / self.extent * plot / 2.0
    }

    /// The axis's ticks: the centre, the ends and halfway between.
    pub fn ticks(&self) -> Vec<f64> {
        [-1.0, -0.5, 0.0, 0.5, 1.0]
            .into_iter()
            .map(|f| f * self.extent)
            .collect()
    }

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

impl MatrixCell {
    /// The cell in words; `systems` are the matrix's, in its order.
    pub fn describe(&self, systems: &[String]) -> String {
        match self.share {
            Some(s) => format!(
                "{} over {}: {} ({} wins, {} losses, {} ties)",
                systems[self.row],
                systems[self.col],
                percent(s),
                self.wins,
                self.losses,
                self.ties
            ),
            None => format!(
                "{} and {}: never compared",
                systems[self.row], systems[self.col]
            ),
        }
    }

    /// The cell's colour: purple when the row wins more often, orange when less, white when the
    /// two never met.
    pub fn fill(&self) -> String {
        self.share
            .map_or_else(|| "#ffffff".to_owned(), |s| diverging(2.0 * s - 1.0))
    }
}

/// The matrix in words, each pair once (the upper triangle: the stronger system first).
pub fn describe_matrix(systems: &[String], cells: &[MatrixCell]) -> String {
    let pairs: Vec<String> = cells
        .iter()
        .filter(|c| c.row < c.col)
        .map(|c| c.describe(systems))
        .collect();
    format!(
        "Preference matrix: the share of judgements the row system won against the column \
         system, a tie counted as half a win. {}.",
        pairs.join("; ")
    )
}

/// More systems than this and the matrix is left to the pairs table: its cells would be too
/// small to hold their numbers.
pub const MATRIX_MAX: usize = 16;

/// The side of a cell of the matrix.
pub const CELL: f64 = 56.0;

/// The matrix's layout: a square grid right of the row labels, under the column labels slanted
/// at 40°.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MatrixLayout {
    /// Where the grid begins: room above it for the column labels.
    pub head: f64,
    /// Room right of the grid for the last column's label.
    pub right: f64,
    pub width: f64,
    pub height: f64,
}

/// The layout of a matrix of `systems`.
pub fn matrix_layout(systems: &[String]) -> MatrixLayout {
    // Room for the column labels, slanted at 40°: about 7.5 units per character at 13px.
    let longest = systems
        .iter()
        .map(|s| short(s).chars().count())
        .max()
        .unwrap_or(0) as f64;
    let head = (16.0 + 7.5 * longest * 0.643).max(40.0);
    let right = (7.5 * longest * 0.766 - CELL / 2.0).max(RIGHT);
    let n = systems.len() as f64;
    MatrixLayout {
        head,
        right,
        width: LEFT + n * CELL + right,
        height: head + n * CELL + 8.0,
    }
}

impl MatrixLayout {
    /// The top-left corner of the cell at `row`, `col`.
    pub fn cell(&self, row: usize, col: usize) -> (f64, f64) {
        (LEFT + CELL * col as f64, self.head + CELL * row as f64)
    }
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

/// The strength chart's horizontal scale: from 0 at the left margin to a round `max`, leaving
/// room on the right for the values written there.
#[derive(Debug, Clone, PartialEq)]
pub struct StrengthAxis {
    pub max: f64,
    pub ticks: Vec<f64>,
}

impl StrengthAxis {
    /// Where the plot ends, left of the values.
    pub const RIGHT: f64 = WIDTH - 64.0;

    /// The axis that shows every strength and every interval's upper end.
    pub fn of(rows: &[Strength]) -> StrengthAxis {
        let top = rows
            .iter()
            .map(|r| r.ci.map_or(r.score, |(_, hi)| hi.max(r.score)))
            .fold(0.0_f64, f64::max);
        let (max, ticks) = nice_axis(top);
        StrengthAxis { max, ticks }
    }

    /// Where `v` falls across the plot (a negative value at 0).
    pub fn x(&self, v: f64) -> f64 {
        LEFT + v.max(0.0) / self.max * (Self::RIGHT - LEFT)
    }

    /// A tick's label, to three decimals at most.
    pub fn label(t: f64) -> String {
        format!("{}", (t * 1000.0).round() / 1000.0)
    }
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

#[cfg(test)]
mod tests;
