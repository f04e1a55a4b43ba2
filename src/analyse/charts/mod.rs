//! The report's charts, drawn as plain SVG from the core's `Report`: means with intervals,
//! diverging stacked bars of the rating distributions, the preference matrix, the
//! Bradley–Terry ranking, and each judge's scores against the humans' mean (`scatter`).
//!
//! The geometry is computed by pure functions (`geometry`, tested natively); the components
//! (`svg`) only lay it out. Every chart is a `role="img"` whose accessible name states every
//! number it shows, so a screen reader gets the data, not a picture; colours come from
//! ColorBrewer's PuOr, a diverging palette safe for the common colour-vision deficiencies, and
//! every number is also written as text. Charts scale with their container (`viewBox`, CSS width
//! 100%), and fills are attributes, not inline styles, which the page's Content-Security-Policy
//! forbids.

mod geometry;
mod scatter;
mod svg;

pub use geometry::plain;
pub use scatter::JudgeScatter;
pub use svg::{LikertBars, MeansChart, PreferenceMatrix, StrengthChart};

use super::num;
