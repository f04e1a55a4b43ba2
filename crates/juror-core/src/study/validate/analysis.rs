//! The `analysis` section: the pre-registered plan, read when the caller gives a reader.

use super::{Checker, PlanReader};
use crate::study::analysis_plan::AnalysisPlan;
use crate::study::raw::*;

impl Checker {
    /// `analysis`: the pre-registered plan, read by the researcher's reader when one is given
    /// (see [`PlanReader`]), else kept as written.
    pub(super) fn analysis(
        &mut self,
        raw: &RawStudy,
        plan: Option<&PlanReader>,
    ) -> Option<AnalysisPlan> {
        let (section, reader) = (raw.analysis.as_ref()?, plan?);
        (reader.read)(section, raw)
            .map_err(|problems| self.problems.extend(problems))
            .ok()
    }
}
