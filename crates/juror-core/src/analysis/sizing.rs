//! Sizing for preference designs and for a judge beside humans (`juror power --share`,
//! `--strengths`, `--ppi-shares`): the figures of [`crate::stats::power::preference`] as a
//! report, in Markdown and JSON, so that the command line and any page say the same.

use serde::Serialize;

use crate::stats::power::preference::{
    Allocation, PpiPilot, PreferenceDesign, SizingError, Tuning, binomial_power_with_ties,
    binomial_sample_size, ppi_sample_size, simulate_design,
};

/// The judgements counts a preference sizing shows when none are given.
pub const JUDGEMENTS: [u64; 6] = [25, 50, 100, 200, 400, 800];
/// How far the smallest stable n is searched for.
pub const HORIZON: u64 = 100_000;

/// The format version of the JSON.
pub const SIZING_FORMAT: &str = "juror.sizing/1";

/// A sizing report: one of the three kinds.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Sizing {
    /// The exact binomial test of one pair's share against ½.
    Share {
        share: f64,
        ties: f64,
        alpha: f64,
        target: f64,
        /// (judgements, power), ties included in the judgements.
        grid: Vec<(u64, f64)>,
        /// The smallest count of decisive judgements reaching the target, and the smallest from
        /// which every larger count does (exact power is not monotone in n).
        first: u64,
        stable: u64,
    },
    /// Each pair of a Bradley–Terry design by simulation.
    Design {
        strengths: Vec<f64>,
        judgements_per_pair: usize,
        ties: f64,
        alpha: f64,
        simulations: usize,
        seed: u64,
        /// Per pair: systems (1-based positions), win probability, power with its Monte Carlo
        /// 95% interval, and the exact binomial power.
        pairs: Vec<DesignPair>,
    },
    /// Human labels a prediction-powered estimate of a share needs.
    Ppi {
        human_share: f64,
        judge_share: f64,
        both_share: f64,
        unlabelled: u64,
        half_width: f64,
        humans: u64,
        humans_plain: u64,
        humans_only: u64,
        lambda: f64,
    },
}

/// One pair of a simulated design.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DesignPair {
    pub a: usize,
    pub b: usize,
    pub win_probability: f64,
    pub power: f64,
    pub interval: (f64, f64),
    pub exact: f64,
}

/// The exact binomial power of a preference share over `judgements` (default [`JUDGEMENTS`])
/// and the counts reaching `target`.
///
/// # Errors
/// A share, tie rate, level or target out of range, or a target not reached by [`HORIZON`].
pub fn share(
    share: f64,
    ties: f64,
    alpha: f64,
    target: f64,
    judgements: &[u64],
) -> Result<Sizing, SizingError> {
    let counts = if judgements.is_empty() {
        &JUDGEMENTS[..]
    } else {
        judgements
    };
    let grid = counts
        .iter()
        .map(|&n| binomial_power_with_ties(n, share, ties, alpha).map(|p| (n, p)))
        .collect::<Result<Vec<_>, _>>()?;
    let size = binomial_sample_size(share, alpha, target, HORIZON)?;
    Ok(Sizing::Share {
        share,
        ties,
        alpha,
        target,
        grid,
        first: size.first,
        stable: size.stable,
    })
}

/// The simulated power of every pair of a design with `per_pair` judgements each.
///
/// # Errors
/// As [`simulate_design`].
pub fn design(
    strengths: &[f64],
    per_pair: usize,
    ties: f64,
    alpha: f64,
    simulations: usize,
    seed: u64,
) -> Result<Sizing, SizingError> {
    let spec = PreferenceDesign {
        strengths: strengths.to_vec(),
        allocation: Allocation::PerPair(per_pair),
        ties,
    };
    let power = simulate_design(&spec, alpha, simulations, seed)?;
    Ok(Sizing::Design {
        strengths: strengths.to_vec(),
        judgements_per_pair: per_pair,
        ties,
        alpha,
        simulations,
        seed,
        pairs: power
            .pairs
            .iter()
            .map(|p| DesignPair {
                a: p.a + 1,
                b: p.b + 1,
                win_probability: p.win_probability,
                power: p.power,
                interval: (p.interval.low, p.interval.high),
                exact: p.exact,
            })
            .collect(),
    })
}

/// The human labels a PPI++ estimate of a share needs for a 95% interval of `half_width`, with
/// `unlabelled` items the judge labels alone; the pilot's shares: humans saying yes, the judge
/// saying yes, and both.
///
/// # Errors
/// As [`ppi_sample_size`]: among them a width the judge cannot reach with any number of humans.
pub fn ppi(
    shares: (f64, f64, f64),
    unlabelled: u64,
    half_width: f64,
) -> Result<Sizing, SizingError> {
    let pilot = PpiPilot::binary(shares.0, shares.1, shares.2);
    let tuned = ppi_sample_size(&pilot, unlabelled, half_width, 0.95, Tuning::PowerTuned)?;
    let plain = ppi_sample_size(&pilot, unlabelled, half_width, 0.95, Tuning::Plain);
    Ok(Sizing::Ppi {
        human_share: shares.0,
        judge_share: shares.1,
        both_share: shares.2,
        unlabelled,
        half_width,
        humans: tuned.humans,
        humans_plain: plain.map_or(0, |p| p.humans),
        humans_only: tuned.humans_only,
        lambda: tuned.lambda,
    })
}

impl Sizing {
    /// `juror.sizing/1`: the report with its format.
    pub fn to_json(&self) -> String {
        #[derive(Serialize)]
        struct Out<'a> {
            format: &'static str,
            #[serde(flatten)]
            sizing: &'a Sizing,
        }
        let out = Out {
            format: SIZING_FORMAT,
            sizing: self,
        };
        serde_json::to_string_pretty(&out).unwrap_or_default() + "\n"
    }

    /// The report as Markdown: what was assumed, a table, and what it means.
    pub fn to_markdown(&self) -> String {
        match self {
            Sizing::Share {
                share,
                ties,
                alpha,
                target,
                grid,
                first,
                stable,
            } => {
                let mut md = format!(
                    "# Power of a preference share\n\nThe exact two-sided binomial test of the \
                     share preferring the first system against ½ (ties left out, as the report \
                     tests each pair), at α = {alpha}, if the true share is {share} and {:.0}% of \
                     judgements are ties.\n\n| Judgements | Power |\n|---:|---:|\n",
                    ties * 100.0
                );
                for (n, p) in grid {
                    md.push_str(&format!("| {n} | {p:.3} |\n"));
                }
                md.push_str(&format!(
                    "\n{target} power needs {first} decisive judgements at the first count that \
                     reaches it, and {stable} for every larger count too (exact power rises in a \
                     saw-tooth); with ties, divide by {:.2}.\n",
                    1.0 - ties
                ));
                md
            }
            Sizing::Design {
                judgements_per_pair,
                alpha,
                simulations,
                seed,
                pairs,
                ..
            } => {
                let mut md = format!(
                    "# Power of a pairwise design\n\n{judgements_per_pair} judgement(s) per pair, \
                     each pair tested by the exact binomial test at α = {alpha}; {simulations} \
                     simulated studies (seed {seed}), with the Monte Carlo 95% interval of each \
                     power and the exact power beside it.\n\n| Pair | P(first wins) | Power | \
                     95% MC interval | Exact |\n|---|---:|---:|---|---:|\n"
                );
                for p in pairs {
                    md.push_str(&format!(
                        "| {} vs {} | {:.3} | {:.3} | [{:.3}, {:.3}] | {:.3} |\n",
                        p.a, p.b, p.win_probability, p.power, p.interval.0, p.interval.1, p.exact
                    ));
                }
                md
            }
            Sizing::Ppi {
                unlabelled,
                half_width,
                humans,
                humans_plain,
                humans_only,
                lambda,
                ..
            } => format!(
                "# Human labels for a judge-assisted estimate\n\nA share estimated by \
                 prediction-powered inference (PPI++, λ = {lambda:.3}) from {unlabelled} items \
                 the judge labels and n items humans also label, for a 95% interval of ± \
                 {half_width}: **n = {humans}** (plain PPI: {humans_plain}; humans alone: \
                 {humans_only}).\n"
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_share_grid_is_the_exact_power_and_its_sizes() {
        let s = share(0.7, 0.0, 0.05, 0.8, &[49, 50]).unwrap();
        let Sizing::Share {
            grid,
            first,
            stable,
            ..
        } = &s
        else {
            unreachable!()
        };
        // The saw-tooth: 49 reaches 80% and 50 does not.
        assert!(grid[0].1 > 0.8 && grid[1].1 < 0.8, "{grid:?}");
        assert_eq!((*first, *stable), (49, 54));
        assert!(s.to_markdown().contains("| 49 | 0.810 |"));
        assert!(s.to_json().contains("\"format\": \"juror.sizing/1\""));
    }

    #[test]
    fn a_good_judge_saves_human_labels() {
        assert!(ppi((1.5, 0.5, 0.25), 100, 0.01).is_err(), "a share above 1");
        let Sizing::Ppi {
            humans,
            humans_only,
            ..
        } = ppi((0.7, 0.65, 0.6), 5_000, 0.03).unwrap()
        else {
            unreachable!()
        };
        assert!(humans < humans_only, "{humans} {humans_only}");
    }
}
