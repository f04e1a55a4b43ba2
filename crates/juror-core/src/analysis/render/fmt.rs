//! How the report writes numbers: a fixed number of decimals, p-values (`< 0.001`), intervals
//! (`[low, high]`), shares as percentages, and the dash for what is undefined. Every table of
//! [`super::tables`] formats through here, so the Markdown and the page agree.

use crate::analysis::data::Ci;
pub use crate::analysis::data::number;

/// What an undefined statistic is written as.
pub const DASH: &str = "–";

/// `x` to `decimals` places (negative zero written as zero), or the dash.
pub fn num(x: Option<f64>, decimals: usize) -> String {
    match x {
        // `+ 0.0` turns negative zero into zero.
        Some(v) => format!("{:.decimals$}", v + 0.0),
        None => DASH.to_owned(),
    }
}

/// A p-value: three decimals, or `< 0.001`; the dash when undefined.
pub fn p_value(p: Option<f64>) -> String {
    match p {
        Some(p) if p < 0.001 => "< 0.001".to_owned(),
        Some(p) => format!("{p:.3}"),
        None => DASH.to_owned(),
    }
}

/// An interval as `[low, high]` to `decimals` places, or the dash.
pub fn ci(c: Option<Ci>, decimals: usize) -> String {
    match c {
        Some(c) => format!("[{:.decimals$}, {:.decimals$}]", c.low + 0.0, c.high + 0.0),
        None => DASH.to_owned(),
    }
}

/// A share in [0, 1] as a percentage to one decimal, or the dash.
pub fn percent(x: Option<f64>) -> String {
    x.map_or(DASH.to_owned(), |x| format!("{:.1}%", 100.0 * x))
}

/// An interval of shares as percentages, `[12.5%, 40.0%]`, or the dash.
pub fn percent_ci(c: Option<Ci>) -> String {
    c.map_or(DASH.to_owned(), |c| {
        format!("[{:.1}%, {:.1}%]", 100.0 * c.low, 100.0 * c.high)
    })
}

/// `x` to `decimals` places as Rust writes it (negative zero keeps its sign), or the dash.
pub fn fixed(x: Option<f64>, decimals: usize) -> String {
    x.map_or(DASH.to_owned(), |x| format!("{x:.decimals$}"))
}
