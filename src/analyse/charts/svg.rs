//! The components that draw the charts as SVG from the `geometry`: every chart sits in one
//! [`ChartFrame`] (a figure holding an image named by its description, then its caption), and the
//! row charts share their tick marks, axis and row labels.
//!
//! Elements are styled by class and filled by attribute, never by inline style, which the page's
//! Content-Security-Policy forbids.

use juror_core::analysis::report::{PreferenceReport, SystemSummary};
use leptos::prelude::*;

use super::geometry::{
    CELL, Frame, LEFT, LikertChart, MATRIX_MAX, RIGHT, ROW, StrengthAxis, TOP, WIDTH, clip,
    describe_matrix, describe_means, describe_strengths, ink_on, likert, matrix_layout, means_axis,
    percent, plain, preference_matrix, short, strengths,
};
use super::num;

// ---------------------------------------------------------------------------------------------
// Shared pieces
// ---------------------------------------------------------------------------------------------

/// What every chart shares: a figure holding an SVG `role="img"` whose accessible name (and
/// `<title>`, the tooltip) is `description`, so a screen reader gets the numbers, not a picture;
/// then the legend, if any, and the caption. The `children` are the SVG's marks.
#[component]
pub(super) fn ChartFrame(
    /// The SVG's class, by which the stylesheet sizes it.
    class: &'static str,
    /// The chart in words: every number it shows.
    description: String,
    /// The viewBox's width and height.
    size: (f64, f64),
    /// Whether the SVG also takes `size` as its own width and height, so it keeps its natural
    /// size (shrinking only to fit) instead of filling its container.
    #[prop(optional)]
    natural_size: bool,
    caption: String,
    /// Shown between the chart and its caption.
    #[prop(optional)]
    legend: Option<AnyView>,
    children: Children,
) -> impl IntoView {
    let (width, height) = size;
    // Either the legend and the caption, or the caption: an `Option` in the view would leave an
    // empty placeholder in the figure.
    let below = match legend {
        Some(legend) => view! { {legend} <figcaption>{caption}</figcaption> }.into_any(),
        None => view! { <figcaption>{caption}</figcaption> }.into_any(),
    };
    view! {
        <figure class="chart">
            <svg
                class=class
                viewBox=format!("0 0 {width} {height}")
                width=natural_size.then_some(width)
                height=natural_size.then_some(height)
                role="img"
                aria-label=description
            >
                <title>{description.clone()}</title>
                {children()}
            </svg>
            {below}
        </figure>
    }
}

/// A grid line across the rows at `x`, and its label under the axis.
#[component]
fn Tick(frame: Frame, x: f64, label: String) -> impl IntoView {
    view! {
        <line class="chart-grid" x1=x x2=x y1=TOP y2=frame.axis_y />
        <text class="chart-tick" x=x y=frame.tick_y()>{label}</text>
    }
}

/// The horizontal axis under the rows, from the left margin to `right`.
#[component]
fn Axis(frame: Frame, right: f64) -> impl IntoView {
    view! { <line class="chart-axis" x1=LEFT x2=right y1=frame.axis_y y2=frame.axis_y /> }
}

/// A system's label in the left margin, its baseline at `y`, shortened to fit.
#[component]
fn RowLabel(system: String, y: f64) -> impl IntoView {
    view! { <text class="chart-label" x=LEFT - 10.0 y=y>{short(&system)}</text> }
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

// ---------------------------------------------------------------------------------------------
// The charts
// ---------------------------------------------------------------------------------------------

/// Means with their 95% t intervals, one row per system; an interval past the end of the scale
/// is clipped and marked with an arrow.
#[component]
pub fn MeansChart(
    name: String,
    scale: Option<Vec<f64>>,
    systems: Vec<SystemSummary>,
) -> impl IntoView {
    let axis = means_axis(scale.as_deref(), &systems);
    let frame = Frame::rows(systems.len());
    let (description, caption) = describe_means(&name, &systems, &axis);
    let ticks = axis
        .ticks
        .iter()
        .map(|&t| view! { <Tick frame x=axis.x(t) label=plain(t) /> })
        .collect_view();
    let rows = systems
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let y = TOP + ROW * (i as f64 + 0.5);
            let ci = s.ci95.map(|ci| {
                let ((low, high), (cut_low, cut_high)) = clip(ci.low, ci.high, &axis);
                view! {
                    <line class="chart-ci" x1=axis.x(low) x2=axis.x(high) y1=y y2=y />
                    {cut_low.then(|| view! { <polygon class="chart-ci-clipped" points=axis.arrow(low, y, -1.0) /> })}
                    {cut_high.then(|| view! { <polygon class="chart-ci-clipped" points=axis.arrow(high, y, 1.0) /> })}
                }
            });
            view! {
                <RowLabel system=s.system.clone() y=y + 5.0 />
                {ci}
                <circle class="chart-mean" cx=axis.x(s.mean) cy=y r="5" />
            }
        })
        .collect_view();
    view! {
        <ChartFrame class="means-chart" description size=(WIDTH, frame.height) caption>
            {ticks}
            <Axis frame right=WIDTH - RIGHT />
            {rows}
        </ChartFrame>
    }
}

/// Diverging stacked bars of the distribution of the ratings, one bar per system, with a legend
/// of the scale's points.
#[component]
pub fn LikertBars(
    name: String,
    scale: Option<Vec<f64>>,
    labels: Vec<(f64, String)>,
    systems: Vec<SystemSummary>,
) -> impl IntoView {
    let chart = likert(scale.as_deref(), &labels, &systems);
    let description = chart.describe(&name);
    let frame = Frame::rows(chart.rows.len());
    let centre_x = LikertChart::centre_x();
    let ticks = chart
        .ticks()
        .into_iter()
        .map(|t| view! { <g><Tick frame x=chart.x(t) label=percent(t.abs()) /></g> })
        .collect_view();
    let bars = chart
        .rows
        .iter()
        .enumerate()
        .map(|(i, row)| {
            let y = TOP + ROW * i as f64 + 6.0;
            let segments = chart
                .categories
                .iter()
                .zip(&row.segments)
                .filter(|(_, (count, _, _))| *count > 0)
                .map(|(c, &(count, share, start))| {
                    let (x0, x1) = (chart.x(start), chart.x(start + share));
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
                    <RowLabel system=row.system.clone() y=y + 15.0 />
                    {segments}
                </g>
            }
        })
        .collect_view();
    let legend = chart
        .categories
        .into_iter()
        .map(|c| view! { <li><Swatch fill=c.fill />{c.label}</li> })
        .collect_view();
    let legend = view! {
        <ul class="chart-legend" aria-label=format!("Scale points of {name}")>{legend}</ul>
    };
    let caption = format!(
        "Ratings of {name} per system: the share of each scale point, bars centred on the scale's midpoint (a neutral point is split half each side); lower scores to the left."
    );
    view! {
        <ChartFrame class="likert-chart" description size=(WIDTH, frame.height) legend=legend.into_any() caption>
            {ticks}
            {bars}
            <line class="chart-centre" x1=centre_x x2=centre_x y1=TOP - 4.0 y2=frame.axis_y />
            <Axis frame right=WIDTH - RIGHT />
        </ChartFrame>
    }
}

/// The preference matrix as a shaded grid with the shares written in the cells (with more than
/// [`MATRIX_MAX`] systems, a note that the pairs table has them).
#[component]
pub fn PreferenceMatrix(preferences: PreferenceReport) -> impl IntoView {
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
    let layout = matrix_layout(&systems);
    let head = layout.head;
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
        .map(
            |(i, s)| view! { <RowLabel system=s.clone() y=head + CELL * (i as f64 + 0.5) + 5.0 /> },
        )
        .collect_view();
    let grid = cells
        .iter()
        .map(|c| {
            let (x0, y0) = layout.cell(c.row, c.col);
            let fill = c.fill();
            let text = c.share.map_or_else(|| "–".to_owned(), percent);
            view! {
                <g>
                    <rect class="matrix-cell" x=x0 y=y0 width=CELL height=CELL fill=fill.clone()>
                        <title>{c.describe(&systems)}</title>
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
            let (x, y) = layout.cell(i, i);
            view! { <rect class="matrix-diagonal" x=x y=y width=CELL height=CELL /> }
        })
        .collect_view();
    let caption = "Preference matrix: each cell is the share of judgements the row's system won against the column's, a tie counted as half a win (so it differs from the pairs table's win rate, which leaves ties out). Strongest system first; purple: the row wins more often, orange: less often.";
    view! {
        <ChartFrame
            class="matrix-chart"
            description
            size=(layout.width, layout.height)
            natural_size=true
            caption=caption.to_owned()
        >
            {columns}
            {rows}
            {grid}
            {diagonal}
        </ChartFrame>
    }
    .into_any()
}

/// The Bradley–Terry strengths as horizontal bars, strongest first, with bootstrap intervals as
/// whiskers.
#[component]
pub fn StrengthChart(preferences: PreferenceReport) -> impl IntoView {
    let rows = strengths(&preferences);
    let level = preferences
        .bradley_terry
        .as_ref()
        .map_or(0.95, |bt| bt.level);
    let description = describe_strengths(&rows, level);
    let axis = StrengthAxis::of(&rows);
    let frame = Frame::rows(rows.len());
    let ticks = axis
        .ticks
        .iter()
        .map(|&t| view! { <g><Tick frame x=axis.x(t) label=StrengthAxis::label(t) /></g> })
        .collect_view();
    let bars = rows
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let y = TOP + ROW * i as f64 + 6.0;
            let mid = y + 10.0;
            let whisker = r.ci.map(|(lo, hi)| {
                let (lo, hi) = (axis.x(lo), axis.x(hi));
                view! {
                    <g>
                        <line class="chart-whisker" x1=lo x2=hi y1=mid y2=mid />
                        <line class="chart-whisker" x1=lo x2=lo y1=mid - 6.0 y2=mid + 6.0 />
                        <line class="chart-whisker" x1=hi x2=hi y1=mid - 6.0 y2=mid + 6.0 />
                    </g>
                }
            });
            view! {
                <g>
                    <RowLabel system=r.system.clone() y=y + 15.0 />
                    <rect class="chart-bar" x=LEFT y=y width=axis.x(r.score) - LEFT height="20" />
                    {whisker}
                    <text class="chart-value" x=WIDTH - 4.0 y=y + 15.0>{num(Some(r.score))}</text>
                </g>
            }
        })
        .collect_view();
    let caption = format!(
        "Bradley–Terry strengths, strongest first: bars are the strengths (summing to 1), whiskers the {:.0}% bootstrap intervals.",
        level * 100.0
    );
    view! {
        <ChartFrame class="strength-chart" description size=(WIDTH, frame.height) caption>
            {ticks}
            {bars}
            <Axis frame right=StrengthAxis::RIGHT />
        </ChartFrame>
    }
}
