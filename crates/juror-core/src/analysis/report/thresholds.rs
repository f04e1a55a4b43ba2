//! Participant-level success criteria (`analysis.thresholds`, `--threshold DIM:SYSTEM:VALUE`):
//! each participant's mean score of a system on a dimension (over the items they rated, their
//! first rating of each), then over participants the mean with its 95% t interval and a
//! one-sided one-sample test of "the mean is above the threshold": the t-test, and the Wilcoxon
//! signed-rank test of the means minus the threshold when the plan lists it. Not corrected for
//! multiplicity: each criterion is its own pre-registered question.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::analysis::data::{Ci, Data};
use crate::analysis::overrides::{AnalysisPlan, Test};
use crate::stats::paired::{Alternative, WilcoxonMethod, t_test, wilcoxon_p};
use crate::study::analysis_plan::Threshold;

/// One criterion's result.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct ThresholdReport {
    pub dimension: String,
    pub system: String,
    pub at_least: f64,
    /// Participants who rated the system on the dimension.
    pub participants: usize,
    /// The mean over participants of their mean scores.
    pub mean: Option<f64>,
    /// The 95% t interval of that mean.
    pub ci95: Option<Ci>,
    /// One-sided one-sample t-test, H1: the mean is above `at_least`.
    pub t: Option<f64>,
    pub p_t: Option<f64>,
    /// One-sided Wilcoxon signed-rank test of the means minus `at_least` (when the plan's tests
    /// include it).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub p_wilcoxon: Option<f64>,
}

/// Each criterion of the plan, in order.
pub fn thresholds(data: &Data, plan: &AnalysisPlan) -> Vec<ThresholdReport> {
    plan.thresholds
        .iter()
        .map(|t| one(data, t, plan.tests.contains(&Test::Wilcoxon)))
        .collect()
}

fn one(data: &Data, t: &Threshold, wilcoxon: bool) -> ThresholdReport {
    let mut by_participant: BTreeMap<&str, Vec<f64>> = BTreeMap::new();
    for r in data
        .ratings
        .iter()
        .filter(|r| r.dimension.as_str() == t.dimension && r.system.as_str() == t.system)
    {
        by_participant
            .entry(r.annotator.as_str())
            .or_default()
            .push(r.score);
    }
    let means: Vec<f64> = by_participant
        .values()
        .map(|v| v.iter().sum::<f64>() / v.len() as f64)
        .collect();
    let test = t_test(&means, t.at_least, Alternative::Greater).ok();
    let differences: Vec<f64> = means.iter().map(|m| m - t.at_least).collect();
    ThresholdReport {
        dimension: t.dimension.clone(),
        system: t.system.clone(),
        at_least: t.at_least,
        participants: means.len(),
        mean: (!means.is_empty()).then(|| means.iter().sum::<f64>() / means.len() as f64),
        // The test's interval is of the mean of the values tested: the participants' means.
        ci95: test.as_ref().map(|x| Ci {
            low: x.ci95.0,
            high: x.ci95.1,
        }),
        t: test.as_ref().map(|x| x.t),
        p_t: test.as_ref().map(|x| x.p_value),
        p_wilcoxon: wilcoxon
            .then(|| wilcoxon_p(&differences, WilcoxonMethod::Auto, Alternative::Greater).ok())
            .flatten(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::{Context, Input, read};

    /// Four participants whose mean scores of `ours` on quality are 4, 5, 3 and 4.5 (from one
    /// or two ratings each), against 3.5. Reference, scipy 1.17.1:
    /// `ttest_1samp([4, 5, 3, 4.5], 3.5, alternative="greater")` gives t = 1.4638501094227998,
    /// p = 0.11972129931800149; `t.interval(0.95, 3, loc=mean, scale=sem)` gives
    /// (2.7662345581019925, 5.483765441898008); `wilcoxon(x - 3.5, alternative="greater")`
    /// gives p = 0.1875.
    #[test]
    fn a_criterion_is_tested_over_the_participants_means() {
        let csv = "item_id,system_id,annotator_id,dimension,score\n\
                   i1,ours,p1,quality,3\ni2,ours,p1,quality,5\ni1,ours,p2,quality,5\n\
                   i1,ours,p3,quality,2\ni2,ours,p3,quality,4\ni1,ours,p4,quality,4\n\
                   i2,ours,p4,quality,5\ni1,base,p1,quality,1\ni1,ours,p1,clarity,1\n";
        let context = Context {
            study: None,
            key: None,
            reveal_ids: false,
        };
        let data = read(&[Input::new("t.csv", csv)], &context);
        let plan = AnalysisPlan {
            thresholds: vec![Threshold {
                dimension: "quality".into(),
                system: "ours".into(),
                at_least: 3.5,
            }],
            ..AnalysisPlan::default()
        };
        let r = &thresholds(&data, &plan)[0];
        assert_eq!(r.participants, 4);
        let close = |got: Option<f64>, want: f64| {
            let got = got.unwrap_or(f64::NAN);
            assert!(
                (got - want).abs() <= 1e-9 * want.abs().max(1.0),
                "{got} vs {want}"
            );
        };
        close(r.mean, 4.125);
        close(r.t, 1.4638501094227998);
        close(r.p_t, 0.11972129931800149);
        close(r.ci95.map(|c| c.low), 2.7662345581019925);
        close(r.ci95.map(|c| c.high), 5.483765441898008);
        // The default plan lists the Wilcoxon test first.
        close(r.p_wilcoxon, 0.1875);
        let t_only = AnalysisPlan {
            tests: vec![Test::T],
            ..plan
        };
        assert_eq!(thresholds(&data, &t_only)[0].p_wilcoxon, None);
    }
}
