//! `juror power`: the power of the plan's tests for a grid of participant and item counts,
//! from a pilot's ratings or an assumed effect size, so that a study can be sized before
//! annotators are paid.
//!
//! For every comparison the plan makes (its pairs on each dimension, oriented and one- or
//! two-sided as its hypotheses say), a [`Scenario`] is estimated from the pilot (or assumed:
//! d_z = `effect` whatever the number of ratings per unit), and for each grid cell the power of
//! the t-test is computed in closed form ([`t_power`]) and the powers of the t-test and the
//! Wilcoxon test are simulated ([`simulate`]). The level of each comparison is the plan's
//! correction at its first step: α divided by the size of the comparison's family for Holm
//! and Bonferroni (Holm's later steps are less strict, so its power is at least this), α
//! without correction. Contrasts of groups are not simulated.
//!
//! The unit decides which count is the sample size: with `unit: "annotator"` the participants
//! are the units and each averages over the items; with `unit: "item"` the items are the units
//! and each averages over the participants. Every participant is assumed to rate every item.

use serde::Serialize;

use super::data::{Ci, Data, LEVEL, RatingRow, oriented};
use super::overrides::{AnalysisPlan, Correction, Family, Unit};
use crate::stats::paired::Alternative;
use crate::stats::power::{RoundsDesign, Scenario, simulate, simulate_interaction, t_power};
use crate::stats::preference::wilson;
use crate::study::Study;
use std::collections::BTreeMap;

/// Always `"juror.power/1"`.
pub const POWER_FORMAT_V1: &str = "juror.power/1";

/// What `juror power` is asked.
#[derive(Debug, Clone, PartialEq)]
pub struct PowerOptions {
    /// The family-wise level. Default 0.05.
    pub alpha: f64,
    /// Participant counts of the grid.
    pub participants: Vec<usize>,
    /// Item counts of the grid; empty: the study's number of items.
    pub items: Vec<usize>,
    /// Simulations per grid cell. Default 1000.
    pub simulations: usize,
    pub seed: u64,
    /// An assumed d_z for every comparison, instead of a pilot's estimates.
    pub effect: Option<f64>,
}

impl Default for PowerOptions {
    fn default() -> Self {
        PowerOptions {
            alpha: 0.05,
            participants: vec![5, 10, 20, 30, 40, 60],
            items: Vec::new(),
            simulations: 1000,
            seed: 0,
            effect: None,
        }
    }
}

/// The power report.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PowerReport {
    pub format: &'static str,
    pub study: String,
    pub plan: AnalysisPlan,
    pub alpha: f64,
    pub simulations: usize,
    pub seed: u64,
    /// `"pilot"` (estimated from ratings files) or `"assumed"` (`--effect`).
    pub source: &'static str,
    pub comparisons: Vec<ComparisonPower>,
}

/// One comparison's power over the grid.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ComparisonPower {
    pub dimension: String,
    pub system_a: String,
    pub system_b: String,
    pub hypothesis: Option<String>,
    pub alternative: Alternative,
    /// Comparisons in its family, and the level each is tested at.
    pub family_size: usize,
    pub level: f64,
    /// Δ, σ_b and σ_w, with the pilot's units; `None` when the pilot cannot estimate them.
    pub scenario: Option<ScenarioReport>,
    pub grid: Vec<GridCell>,
    /// The fewest participants of the grid (at the first item count) with a closed-form t
    /// power of 0.8 or more.
    pub participants_for_80: Option<usize>,
    pub notes: Vec<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct ScenarioReport {
    pub mean_diff: f64,
    pub sd_between: f64,
    pub sd_within: f64,
    /// The pilot's units behind the estimate (0 when assumed).
    pub pilot_units: usize,
}

#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct GridCell {
    pub participants: usize,
    pub items: usize,
    /// The sample size of the tests (participants or items, as the unit).
    pub units: usize,
    /// d_z of the units' mean differences.
    pub d_z: f64,
    pub t_closed_form: f64,
    pub t_simulated: f64,
    pub wilcoxon_simulated: f64,
    /// With a non-inferiority margin: the closed-form power of the one-sided t-test of
    /// a − b > −margin, d = (Δ + margin) / SD at the same level.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub non_inferiority_t: Option<f64>,
}

/// The power of `plan`'s comparisons on `study`, from `pilot` (or `options.effect`).
pub fn power(
    study: &Study,
    plan: &AnalysisPlan,
    pilot: Option<&Data>,
    options: &PowerOptions,
) -> PowerReport {
    let mut systems: Vec<&str> = study.systems().iter().map(String::as_str).collect();
    systems.sort_unstable();
    // (dimension, a, b) of every planned comparison, in the report's order.
    let mut planned: Vec<(String, String, String)> = Vec::new();
    for d in &study.rubric().dimensions {
        for (a, b) in plan.pairs(&systems) {
            let (a, b) = oriented(plan, &d.id, a, b);
            planned.push((d.id.clone(), a, b));
        }
    }
    let family_of = |dimension: &str| -> usize {
        planned
            .iter()
            .filter(|(d, _, _)| match plan.family {
                Family::Dimension => d == dimension,
                Family::Plan => plan.is_primary(d) == plan.is_primary(dimension),
            })
            .count()
            + plan
                .contrasts
                .iter()
                .filter(|c| {
                    c.dimension.as_deref().is_none_or(|d| match plan.family {
                        Family::Dimension => d == dimension,
                        Family::Plan => plan.is_primary(d) == plan.is_primary(dimension),
                    })
                })
                .count()
    };
    let items = if options.items.is_empty() {
        vec![study.items().len()]
    } else {
        options.items.clone()
    };
    let comparisons = planned
        .iter()
        .map(|(dimension, a, b)| {
            let hypothesis = plan.hypothesis(dimension, a, b);
            let alternative: Alternative = hypothesis.map_or(plan.alternative, |h| h.alternative).into();
            let family_size = family_of(dimension).max(1);
            let level = match plan.correction {
                Correction::None => options.alpha,
                Correction::Holm | Correction::Bonferroni => options.alpha / family_size as f64,
            };
            let mut notes = Vec::new();
            let scenario = match (options.effect, pilot) {
                (Some(effect), _) => Some(ScenarioReport {
                    mean_diff: effect,
                    sd_between: 1.0,
                    sd_within: 0.0,
                    pilot_units: 0,
                }),
                (None, Some(data)) => {
                    let units = pilot_units(plan.unit, &data.ratings, dimension, a, b);
                    let estimate = Scenario::estimate(&units);
                    if estimate.is_none() {
                        notes.push(format!(
                            "the pilot has too few {}s rating both systems, or no spread, to estimate the effect",
                            unit_word(plan.unit)
                        ));
                    }
                    estimate.map(|s| ScenarioReport {
                        mean_diff: s.mean_diff,
                        sd_between: s.sd_between,
                        sd_within: s.sd_within,
                        pilot_units: units.iter().filter(|u| !u.is_empty()).count(),
                    })
                }
                (None, None) => None,
            };
            let margin = hypothesis.and_then(|h| h.margin).or(plan.margin);
            let testing = Testing {
                level,
                alternative,
                margin,
            };
            let grid = scenario.map_or_else(Vec::new, |s| {
                grid(&s, plan.unit, &options.participants, &items, testing, options)
            });
            let first_items = items.first().copied().unwrap_or_default();
            let participants_for_80 = grid
                .iter()
                .filter(|c| c.items == first_items && c.t_closed_form >= 0.8)
                .map(|c| c.participants)
                .min();
            ComparisonPower {
                dimension: dimension.clone(),
                system_a: a.clone(),
                system_b: b.clone(),
                hypothesis: hypothesis.and_then(|h| h.name.clone()),
                alternative,
                family_size,
                level,
                scenario,
                grid,
                participants_for_80,
                notes,
            }
        })
        .collect();
    PowerReport {
        format: POWER_FORMAT_V1,
        study: study.id().to_owned(),
        plan: plan.clone(),
        alpha: options.alpha,
        simulations: options.simulations,
        seed: options.seed,
        source: if options.effect.is_some() {
            "assumed"
        } else {
            "pilot"
        },
        comparisons,
    }
}

/// How a comparison is tested: its level, alternative and non-inferiority margin.
#[derive(Clone, Copy)]
struct Testing {
    level: f64,
    alternative: Alternative,
    margin: Option<f64>,
}

fn grid(
    s: &ScenarioReport,
    unit: Unit,
    participants: &[usize],
    items: &[usize],
    testing: Testing,
    options: &PowerOptions,
) -> Vec<GridCell> {
    let Testing {
        level,
        alternative,
        margin,
    } = testing;
    let scenario = Scenario {
        mean_diff: s.mean_diff,
        sd_between: s.sd_between,
        sd_within: s.sd_within,
    };
    let mut out = Vec::new();
    for &i in items {
        for &p in participants {
            let (n, m) = match unit {
                Unit::Annotator => (p, i),
                Unit::Item => (i, p),
            };
            let sim = simulate(
                &scenario,
                n,
                m,
                level,
                alternative,
                options.simulations,
                options.seed,
            );
            out.push(GridCell {
                participants: p,
                items: i,
                units: n,
                d_z: scenario.effect(m),
                t_closed_form: t_power(scenario.effect(m), n, level, alternative),
                t_simulated: sim.t,
                wilcoxon_simulated: sim.wilcoxon,
                non_inferiority_t: margin.map(|margin| {
                    let d = (scenario.mean_diff + margin) / scenario.unit_sd(m);
                    t_power(d, n, level, Alternative::Greater)
                }),
            });
        }
    }
    out
}

/// Each unit's rating-level differences a − b on `dimension`: per (annotator, item) the mean
/// of a's ratings minus the mean of b's, grouped by annotator (unit annotator) or by item.
fn pilot_units(unit: Unit, rows: &[RatingRow], dimension: &str, a: &str, b: &str) -> Vec<Vec<f64>> {
    // (annotator, item) → (sum, count) of a's and of b's ratings.
    let mut cells: BTreeMap<(&str, &str), [(f64, usize); 2]> = BTreeMap::new();
    for r in rows.iter().filter(|r| r.dimension == dimension) {
        let side = if r.system == a {
            0
        } else if r.system == b {
            1
        } else {
            continue;
        };
        let cell = cells.entry((&r.annotator, &r.item)).or_default();
        cell[side].0 += r.score;
        cell[side].1 += 1;
    }
    let mut units: BTreeMap<&str, Vec<f64>> = BTreeMap::new();
    for ((annotator, item), [(sa, na), (sb, nb)]) in cells {
        if na == 0 || nb == 0 {
            continue;
        }
        let key = match unit {
            Unit::Annotator => annotator,
            Unit::Item => item,
        };
        units
            .entry(key)
            .or_default()
            .push(sa / na as f64 - sb / nb as f64);
    }
    units.into_values().collect()
}

fn unit_word(unit: Unit) -> &'static str {
    match unit {
        Unit::Annotator => "participant",
        Unit::Item => "item",
    }
}

impl PowerReport {
    /// The report as pretty JSON, with a final newline.
    pub fn to_json(&self) -> String {
        let mut text = serde_json::to_string_pretty(self).unwrap_or_default();
        text.push('\n');
        text
    }

    /// The report as Markdown.
    pub fn to_markdown(&self) -> String {
        use std::fmt::Write as _;
        let mut out = String::new();
        let _ = writeln!(out, "# Power of the analysis plan: {}\n", self.study);
        let source = match self.source {
            "assumed" => "an assumed effect size (d_z) for every comparison".to_owned(),
            _ => "effects and variances estimated from the pilot's ratings (one-way random effects, method of moments)".to_owned(),
        };
        let _ = writeln!(
            out,
            "From {source}. Family-wise α = {}; each comparison is tested at the plan's correction's \
             first step. Power of the paired t-test in closed form (noncentral t) and, for the \
             t-test and the Wilcoxon signed-rank test, by simulation ({} studies per cell, seed {}; \
             standard error at most {:.3}). Every participant is assumed to rate every item.\n",
            self.alpha,
            self.simulations,
            self.seed,
            0.5 / (self.simulations.max(1) as f64).sqrt()
        );
        for c in &self.comparisons {
            let relation = c.alternative.relation();
            let _ = writeln!(
                out,
                "## {}: {} vs {}{} (A {relation} B)\n",
                c.dimension,
                c.system_a,
                c.system_b,
                c.hypothesis
                    .as_ref()
                    .map_or(String::new(), |h| format!(", {h}"))
            );
            if let Some(s) = c.scenario {
                let from = if s.pilot_units > 0 {
                    format!(" from {} pilot units", s.pilot_units)
                } else {
                    String::new()
                };
                let _ = writeln!(
                    out,
                    "Δ = {:.3}, σ between units = {:.3}, σ within = {:.3}{from}; level {:.4} ({} comparison(s) in the family).\n",
                    s.mean_diff, s.sd_between, s.sd_within, c.level, c.family_size
                );
            }
            for note in &c.notes {
                let _ = writeln!(out, "- {note}\n");
            }
            if c.grid.is_empty() {
                continue;
            }
            let ni = c.grid.iter().any(|g| g.non_inferiority_t.is_some());
            let _ = writeln!(
                out,
                "| Participants | Items | Units | d_z | Power t (closed form) | Power t (simulated) | Power Wilcoxon (simulated) |{}\n\
                 |---:|---:|---:|---:|---:|---:|---:|{}",
                if ni {
                    " Power non-inferiority t (closed form) |"
                } else {
                    ""
                },
                if ni { "---:|" } else { "" }
            );
            for g in &c.grid {
                let _ = writeln!(
                    out,
                    "| {} | {} | {} | {:.3} | {:.3} | {:.3} | {:.3} |{}",
                    g.participants,
                    g.items,
                    g.units,
                    g.d_z,
                    g.t_closed_form,
                    g.t_simulated,
                    g.wilcoxon_simulated,
                    g.non_inferiority_t
                        .map_or(String::new(), |p| format!(" {p:.3} |"))
                );
            }
            let _ = writeln!(
                out,
                "\n{}\n",
                match c.participants_for_80 {
                    Some(p) => format!("80% power (t, closed form) from {p} participants."),
                    None => "80% power (t, closed form) is not reached on this grid.".to_owned(),
                }
            );
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::plan_reader::parse_study;

    fn hare() -> Study {
        let path = format!(
            "{}/../../assets/studies/hare-personalization.json",
            env!("CARGO_MANIFEST_DIR")
        );
        let text = std::fs::read_to_string(path).unwrap_or_default();
        parse_study(&text).unwrap_or_else(|p| panic!("{p}"))
    }

    #[test]
    fn the_hare_studys_assumed_effect_follows_its_plan() {
        let study = hare();
        let plan = study.analysis().cloned().unwrap_or_default();
        let options = PowerOptions {
            effect: Some(0.45),
            participants: vec![10, 41, 80],
            simulations: 200,
            ..PowerOptions::default()
        };
        let r = power(&study, &plan, None, &options);
        assert_eq!(r.source, "assumed");
        assert_eq!(
            r.comparisons.len(),
            12,
            "HARE against three baselines on four dimensions"
        );
        for c in &r.comparisons {
            assert_eq!(c.system_a, "hare");
            assert_eq!(c.family_size, 12);
            assert!((c.level - 0.05 / 12.0).abs() < 1e-15);
            assert_eq!(c.grid.len(), 3);
            // d_z is the assumed one whatever the items.
            assert!(c.grid.iter().all(|g| (g.d_z - 0.45).abs() < 1e-12));
            // More participants, more power.
            assert!(c.grid[0].t_closed_form < c.grid[2].t_closed_form);
        }
        let h1 = &r.comparisons[1];
        assert_eq!(
            (h1.dimension.as_str(), h1.system_b.as_str()),
            ("quality", "rag")
        );
        assert_eq!(h1.alternative, Alternative::Greater);
        // One-sided at 0.05/12 with d = 0.45 and n = 41: statsmodels 0.15.0's
        // `TTestPower().power(0.45, 41, 0.05/12, alternative="larger")` is 0.5468977924038408.
        let power_41 = h1.grid[1].t_closed_form;
        assert!(
            (power_41 - 0.546_897_792_403_840_8).abs() < 1e-9,
            "{power_41}"
        );
        // H1 is also a non-inferiority hypothesis with margin 0.5: d = (0.45 + 0.5) / 1.
        let ni = h1.grid[1].non_inferiority_t;
        let want = t_power(0.95, 41, 0.05 / 12.0, Alternative::Greater);
        assert!(
            ni.is_some_and(|p| (p - want).abs() < 1e-15 && p > power_41),
            "{ni:?}"
        );
        assert!(r.comparisons[0].grid[0].non_inferiority_t.is_none());
        let md = r.to_markdown();
        assert!(md.contains("## quality: hare vs rag, H1 (A > B)"), "{md}");
        assert!(md.contains("Power non-inferiority t (closed form)"), "{md}");
    }

    #[test]
    fn a_pilot_gives_each_comparison_its_own_scenario() {
        let study = hare();
        let plan = study.analysis().cloned().unwrap_or_default();
        let mut rows = Vec::new();
        for p in 0..6 {
            for (i, item) in study.items().iter().enumerate() {
                let systems = [("hare", 4.0), ("rag", 3.0), ("gpt2", 3.0), ("random", 2.0)];
                for (k, (system, base)) in systems.into_iter().enumerate() {
                    rows.push(RatingRow {
                        source: crate::analysis::Source {
                            file: "pilot.csv".into(),
                            at: String::new().into(),
                            input: 0,
                        },
                        item: item.id.as_str().into(),
                        system: system.into(),
                        annotator: format!("p{p}").into(),
                        dimension: "quality".into(),
                        score: base
                            + [-1.0, 0.0, 0.0, 0.0, 1.0][(p * 7 + i * 3 + k * 11 + i * k) % 5],
                        round: None,
                        position: None,
                        run: None,
                        confidence: None,
                    });
                }
            }
        }
        let data = Data {
            ratings: rows,
            ..Data::default()
        };
        let options = PowerOptions {
            simulations: 100,
            ..PowerOptions::default()
        };
        let r = power(&study, &plan, Some(&data), &options);
        let quality: Vec<&ComparisonPower> = r
            .comparisons
            .iter()
            .filter(|c| c.dimension == "quality")
            .collect();
        assert_eq!(quality.len(), 3);
        for c in &quality {
            let s = c.scenario.unwrap_or_else(|| panic!("{c:?}"));
            assert_eq!(s.pilot_units, 6);
        }
        // No ratings on novelty: nothing to estimate, and the report says so.
        let novelty = r.comparisons.iter().find(|c| c.dimension == "novelty");
        assert!(novelty.is_some_and(|c| c.scenario.is_none() && !c.notes.is_empty()));
    }
}

/// Always `"juror.power-interaction/1"`.
pub const INTERACTION_FORMAT_V1: &str = "juror.power-interaction/1";

/// The simulated power of the method × round interaction over participant counts
/// (`juror power --interaction SLOPE`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct InteractionReport {
    pub format: &'static str,
    pub study: String,
    /// The systems of the model (the first's slope differs by `slope_difference`).
    pub systems: Vec<String>,
    pub rounds: usize,
    pub slope_difference: f64,
    pub sd_participant: f64,
    pub sd_residual: f64,
    pub alpha: f64,
    pub simulations: usize,
    pub seed: u64,
    pub grid: Vec<InteractionCell>,
}

/// The power at one participant count, with 95% Wilson (Monte Carlo) intervals.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct InteractionCell {
    pub participants: usize,
    /// Ratings per simulated study: participants × systems × rounds.
    pub ratings: usize,
    /// The joint Wald test of every `system[T.x]:round` term.
    pub joint: f64,
    pub joint_ci95: Option<Ci>,
    /// The one-sided Wald z test of the first system's slope above the second's.
    pub contrast: f64,
    pub contrast_ci95: Option<Ci>,
    /// Simulated studies whose model was fitted (the others count as not rejecting).
    pub fitted: usize,
}

/// What `juror power --interaction` is asked.
#[derive(Debug, Clone, PartialEq)]
pub struct InteractionOptions {
    pub slope_difference: f64,
    /// Rounds; `None`: the study's distinct item rounds (at least 2).
    pub rounds: Option<usize>,
    pub sd_participant: f64,
    pub sd_residual: f64,
}

/// The simulated power of the interaction for `study`'s systems (its first system is the one
/// whose slope differs) and rounds, over `options.participants`.
///
/// # Errors
/// Fewer than two systems, or fewer than two rounds (none given and the study's items have
/// fewer than two distinct rounds): a message saying what to give.
pub fn interaction_power(
    study: &Study,
    options: &PowerOptions,
    interaction: &InteractionOptions,
) -> Result<InteractionReport, String> {
    let systems: Vec<String> = study.systems().to_vec();
    if systems.len() < 2 {
        return Err("the study has fewer than two systems: no interaction to test".to_owned());
    }
    let mut seen: Vec<u32> = study.items().iter().filter_map(|i| i.round).collect();
    seen.sort_unstable();
    seen.dedup();
    let rounds = interaction.rounds.unwrap_or(seen.len());
    if rounds < 2 {
        return Err(
            "the study's items have fewer than two rounds: give --rounds N (2 or more)".to_owned(),
        );
    }
    let design = RoundsDesign {
        systems: systems.len(),
        rounds,
        slope_difference: interaction.slope_difference,
        sd_participant: interaction.sd_participant,
        sd_residual: interaction.sd_residual,
    };
    let grid = options
        .participants
        .iter()
        .map(|&n| {
            let sim =
                simulate_interaction(&design, n, options.alpha, options.simulations, options.seed);
            let ci = |share: f64| {
                let hits = (share * sim.simulations as f64).round() as u64;
                wilson(hits, sim.simulations as u64, LEVEL)
                    .ok()
                    .map(Ci::from)
            };
            InteractionCell {
                participants: n,
                ratings: n * systems.len() * rounds,
                joint: sim.joint,
                joint_ci95: ci(sim.joint),
                contrast: sim.contrast,
                contrast_ci95: ci(sim.contrast),
                fitted: sim.fitted,
            }
        })
        .collect();
    Ok(InteractionReport {
        format: INTERACTION_FORMAT_V1,
        study: study.id().to_owned(),
        systems,
        rounds,
        slope_difference: interaction.slope_difference,
        sd_participant: interaction.sd_participant,
        sd_residual: interaction.sd_residual,
        alpha: options.alpha,
        simulations: options.simulations,
        seed: options.seed,
        grid,
    })
}

impl InteractionReport {
    /// The report as pretty JSON, with a final newline.
    pub fn to_json(&self) -> String {
        let mut text = serde_json::to_string_pretty(self).unwrap_or_default();
        text.push('\n');
        text
    }

    /// The report as Markdown.
    pub fn to_markdown(&self) -> String {
        use std::fmt::Write as _;
        let mut out = String::new();
        let _ = writeln!(
            out,
            "# Power of the method × round interaction: {}\n",
            self.study
        );
        let _ = writeln!(
            out,
            "Simulated studies ({} per row, seed {}): every participant rates each of the {} \
             systems ({}) once in each of {} rounds; a rating is the participant's own level \
             (SD {}) + the system's slope × round + noise (SD {}), the slope of {} being {} per \
             round above the others' (0). Each study is fitted with `rating ~ system + round + \
             system:round + (1 | annotator)` by REML. Power is the share of studies in which \
             the test rejected at α = {}, with its 95% Wilson (Monte Carlo) interval: the joint \
             Wald χ² test of the {} interaction terms, and the one-sided Wald z test of {}'s \
             slope above {}'s.\n",
            self.simulations,
            self.seed,
            self.systems.len(),
            self.systems.join(", "),
            self.rounds,
            self.sd_participant,
            self.sd_residual,
            self.systems[0],
            self.slope_difference,
            self.alpha,
            self.systems.len() - 1,
            self.systems[0],
            self.systems[1],
        );
        let _ = writeln!(
            out,
            "| Participants | Ratings | Power, joint test | 95% CI | Power, {} > {} | 95% CI |\n\
             |---:|---:|---:|---:|---:|---:|",
            self.systems[0], self.systems[1]
        );
        let ci = |c: Option<Ci>| {
            c.map_or("—".to_owned(), |c| {
                format!("{:.3} to {:.3}", c.low, c.high)
            })
        };
        for g in &self.grid {
            let _ = writeln!(
                out,
                "| {} | {} | {:.3} | {} | {:.3} | {} |",
                g.participants,
                g.ratings,
                g.joint,
                ci(g.joint_ci95),
                g.contrast,
                ci(g.contrast_ci95)
            );
        }
        out
    }
}
