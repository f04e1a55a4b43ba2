//! Power of the paired tests, to size a study before paying annotators (`juror power`).
//!
//! - [`t_power`]: the closed-form power of the paired (one-sample) t-test from the noncentral t,
//!   as statsmodels' `TTestPower().power`.
//! - [`simulate`]: the power of the t-test and of the Wilcoxon signed-rank test (scipy's
//!   conventions, as the report computes them) by simulating the units' mean differences under
//!   a [`Scenario`].
//! - [`Scenario::estimate`]: a scenario from a pilot's paired differences.
//!
//! # The model
//! A unit's (a participant's, or an item's) mean difference between two systems over the `m`
//! ratings it averages is Δ + b + ē, with b ~ N(0, σ_b²) the unit's own lasting difference and
//! ē the mean of `m` independent N(0, σ_w²) rating-level differences: N(Δ, σ_b² + σ_w²/m).
//! Every unit rates every one of its `m` counterparts (participants × items fully crossed);
//! ratings are not rounded to the scale, so the Wilcoxon power is that of continuous data.

pub mod preference;

use crate::base::rng::Stream;
use crate::stats::describe::mean;
use crate::stats::math::Portable;
use crate::stats::paired::{self, Alternative, WilcoxonMethod};
use crate::stats::special;

/// The power of the paired t-test of `n` units at level `alpha` when the units' differences have
/// standardised mean `effect` (d_z = Δ / SD): with δ = d_z √n, df = n − 1 and T the noncentral
/// t(df, δ), P(T > t₁₋α) one-sided (greater), P(T < t_α) one-sided (less), and
/// P(T > t₁₋α/₂) + P(T < −t₁₋α/₂) two-sided. NaN for n < 2.
///
/// # Reference
/// statsmodels `TTestPower().power(effect_size, nobs, alpha, alternative)`
/// (`tests/reference/paired/make_plan_reference.py`).
pub fn t_power(effect: f64, n: usize, alpha: f64, alternative: Alternative) -> f64 {
    if n < 2 || !(alpha > 0.0 && alpha < 1.0) || !effect.is_finite() {
        return f64::NAN;
    }
    let df = (n - 1) as f64;
    let ncp = effect * (n as f64).sqrt();
    match alternative {
        Alternative::Greater => {
            1.0 - special::nct_cdf(special::t_quantile(1.0 - alpha, df), df, ncp)
        }
        Alternative::Less => special::nct_cdf(special::t_quantile(alpha, df), df, ncp),
        Alternative::TwoSided => {
            let crit = special::t_quantile(1.0 - alpha / 2.0, df);
            1.0 - special::nct_cdf(crit, df, ncp) + special::nct_cdf(-crit, df, ncp)
        }
    }
}

/// What a comparison's rating differences look like, on the rating scale.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Scenario {
    /// Δ: the mean difference A − B.
    pub mean_diff: f64,
    /// σ_b: the SD of the units' own lasting differences.
    pub sd_between: f64,
    /// σ_w: the SD of one rating-level difference around its unit's mean.
    pub sd_within: f64,
}

impl Scenario {
    /// The SD of a unit's mean difference over `m` ratings: √(σ_b² + σ_w²/m).
    pub fn unit_sd(&self, m: usize) -> f64 {
        (self.sd_between * self.sd_between + self.sd_within * self.sd_within / m.max(1) as f64)
            .sqrt()
    }

    /// d_z of the units' mean differences over `m` ratings.
    pub fn effect(&self, m: usize) -> f64 {
        self.mean_diff / self.unit_sd(m)
    }

    /// Method-of-moments estimates (one-way random effects) from a pilot: `units[u]` holds unit
    /// u's rating-level differences (for each of its counterparts, A − B). Δ is the mean of the
    /// units' means; σ_w² the pooled within-unit variance (ddof = 1 per unit); σ_b² the variance
    /// of the units' means (ddof = 1) minus σ_w² times the mean of 1/mᵤ, floored at 0. `None`
    /// with fewer than two units, or when no unit has two differences and the units' means do
    /// not vary.
    pub fn estimate(units: &[Vec<f64>]) -> Option<Scenario> {
        let units: Vec<&Vec<f64>> = units.iter().filter(|u| !u.is_empty()).collect();
        if units.len() < 2 {
            return None;
        }
        let means: Vec<f64> = units.iter().map(|u| mean(u)).collect();
        let grand = mean(&means);
        let (mut ss, mut dfw) = (0.0, 0usize);
        for u in &units {
            let m = mean(u);
            ss += u.iter().map(|x| (x - m) * (x - m)).sum::<f64>();
            dfw += u.len() - 1;
        }
        let within = if dfw > 0 { ss / dfw as f64 } else { 0.0 };
        let k = means.len() as f64;
        let var_means = means.iter().map(|x| (x - grand) * (x - grand)).sum::<f64>() / (k - 1.0);
        let inv_m = units.iter().map(|u| 1.0 / u.len() as f64).sum::<f64>() / k;
        let between = (var_means - within * inv_m).max(0.0);
        if within == 0.0 && between == 0.0 {
            return None;
        }
        Some(Scenario {
            mean_diff: grand,
            sd_between: between.sqrt(),
            sd_within: within.sqrt(),
        })
    }
}

/// Simulated power, each a share of the simulations in which the test rejected.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Simulated {
    pub t: f64,
    pub wilcoxon: f64,
    pub simulations: usize,
}

/// Simulates `simulations` studies of `n` units, each unit's mean difference drawn from
/// N(Δ, σ_b² + σ_w²/m) (Box–Muller on [`Stream::unit`] draws of the stream
/// `Stream::new(seed, "power", n, m)`), and counts how often the t-test and the Wilcoxon test
/// (method auto, as the report) reject at `alpha` for `alternative`. Its standard error is
/// √(p(1 − p)/simulations): 0.009 at p = 0.8 with 2000 simulations.
pub fn simulate(
    scenario: &Scenario,
    n: usize,
    m: usize,
    alpha: f64,
    alternative: Alternative,
    simulations: usize,
    seed: u64,
) -> Simulated {
    let mut stream = Stream::new(seed, "power", n as u64, m as u64);
    let sd = scenario.unit_sd(m);
    let (mut t_hits, mut w_hits) = (0usize, 0usize);
    let mut diffs = vec![0.0; n];
    for _ in 0..simulations {
        for pair in diffs.chunks_mut(2) {
            let (z0, z1) = normal_pair(&mut stream);
            pair[0] = scenario.mean_diff + sd * z0;
            if let Some(second) = pair.get_mut(1) {
                *second = scenario.mean_diff + sd * z1;
            }
        }
        if paired::t_test(&diffs, 0.0, alternative).is_ok_and(|t| t.p_value < alpha) {
            t_hits += 1;
        }
        if paired::wilcoxon_p(&diffs, WilcoxonMethod::Auto, alternative).is_ok_and(|p| p < alpha) {
            w_hits += 1;
        }
    }
    let share = |hits: usize| hits as f64 / simulations.max(1) as f64;
    Simulated {
        t: share(t_hits),
        wilcoxon: share(w_hits),
        simulations,
    }
}

/// The design of a rounds study for [`simulate_interaction`]: every participant rates every
/// system once in each round 1..=`rounds`; a rating is uᵢ + βₛ · round + e with uᵢ ~ N(0,
/// σ_u²) the participant's own level and e ~ N(0, σ_e²); the first system's slope β₀ is
/// `slope_difference`, the others' 0.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RoundsDesign {
    /// Systems (2 or more); the first is the one whose slope differs.
    pub systems: usize,
    /// Rounds (2 or more).
    pub rounds: usize,
    /// The first system's slope minus each other's, per round.
    pub slope_difference: f64,
    /// σ_u: SD of the participants' random intercepts.
    pub sd_participant: f64,
    /// σ_e: SD of a rating around its expectation.
    pub sd_residual: f64,
}

/// Simulated power of the method × round interaction.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct InteractionPower {
    /// Share of the studies in which the joint Wald test of every `system[T.x]:round` term
    /// (df = systems − 1) rejected at `alpha`.
    pub joint: f64,
    /// Share in which the one-sided Wald z test of the first system's slope above the second's
    /// rejected at `alpha`.
    pub contrast: f64,
    /// Studies simulated; those whose model could not be fitted count as not rejecting.
    pub simulations: usize,
    /// Of which fitted.
    pub fitted: usize,
}

/// Simulates `simulations` studies of `participants` participants under `design`, fits
/// `rating ~ system + round + system:round + (1 | participant)` by REML to each
/// ([`super::mixed::reml`]), and counts how often the joint interaction test and the
/// one-sided slope contrast reject at `alpha`. Normal draws by Box–Muller on the stream
/// `Stream::new(seed, "power-interaction", participants, rounds)`: seeded and deterministic.
pub fn simulate_interaction(
    design: &RoundsDesign,
    participants: usize,
    alpha: f64,
    simulations: usize,
    seed: u64,
) -> InteractionPower {
    use super::mixed::{MixedData, RoundRating, reml};
    let k = design.systems.max(2);
    let mut stream = Stream::new(
        seed,
        "power-interaction",
        participants as u64,
        design.rounds as u64,
    );
    let systems: Vec<String> = (0..k).map(|s| format!("s{s}")).collect();
    let order: Vec<&str> = systems.iter().map(String::as_str).collect();
    let people: Vec<String> = (0..participants).map(|i| format!("p{i}")).collect();
    let (mut joint, mut contrast, mut fitted) = (0usize, 0usize, 0usize);
    let mut normals: Vec<f64> = Vec::new();
    let mut draw = |stream: &mut Stream| -> f64 {
        if normals.is_empty() {
            let (a, b) = normal_pair(stream);
            normals.push(a);
            normals.push(b);
        }
        normals.pop().unwrap_or_default()
    };
    for _ in 0..simulations {
        let mut ratings = Vec::with_capacity(participants * k * design.rounds);
        for person in &people {
            let u = design.sd_participant * draw(&mut stream);
            for (s, system) in order.iter().enumerate() {
                let slope = if s == 0 { design.slope_difference } else { 0.0 };
                for r in 1..=design.rounds {
                    let round = r as f64;
                    ratings.push(RoundRating {
                        annotator: person,
                        system,
                        round,
                        rating: u + slope * round + design.sd_residual * draw(&mut stream),
                    });
                }
            }
        }
        let Ok(fit) = MixedData::system_by_round(&order, &ratings).and_then(|d| reml(&d)) else {
            continue;
        };
        fitted += 1;
        let interactions: Vec<usize> = (k + 1..2 * k).collect();
        if fit.wald(&interactions).is_ok_and(|w| w.p_value < alpha) {
            joint += 1;
        }
        // The first system is the reference: its slope above the second's is
        // −system[T.s1]:round.
        let mut weights = vec![0.0; 2 * k];
        weights[k + 1] = -1.0;
        if fit
            .contrast(&weights)
            .is_ok_and(|c| special::normal_sf(c.z) < alpha)
        {
            contrast += 1;
        }
    }
    let share = |hits: usize| hits as f64 / simulations.max(1) as f64;
    InteractionPower {
        joint: share(joint),
        contrast: share(contrast),
        simulations,
        fitted,
    }
}

/// Two independent standard normal draws (Box–Muller).
fn normal_pair(stream: &mut Stream) -> (f64, f64) {
    let (u1, u2) = (stream.unit(), stream.unit());
    let r = (-2.0 * u1.ln_p()).sqrt();
    let theta = 2.0 * std::f64::consts::PI * u2;
    (r * libm::cos(theta), r * libm::sin(theta))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn estimates_recover_a_known_scenario() {
        // Two units' differences: means 1 and 3 (Δ = 2); within variance 1 (each unit ±1).
        let units = vec![vec![0.0, 2.0], vec![2.0, 4.0]];
        let s = Scenario::estimate(&units).map(|s| (s.mean_diff, s.sd_within, s.sd_between));
        // var of means = 2, minus 2 · ½ = 1 → σ_b = 1; σ_w² = (2 + 2)/2 = 2.
        assert_eq!(s, Some((2.0, 2f64.sqrt(), 1.0)));
        assert_eq!(Scenario::estimate(&[vec![1.0, 2.0]]), None, "one unit");
        assert_eq!(
            Scenario::estimate(&[vec![1.0], vec![1.0]]),
            None,
            "no spread"
        );
    }

    #[test]
    fn no_effect_rejects_at_about_alpha_and_power_grows_with_units() {
        let null = Scenario {
            mean_diff: 0.0,
            sd_between: 0.5,
            sd_within: 1.0,
        };
        let s = simulate(&null, 20, 10, 0.05, Alternative::TwoSided, 4000, 1);
        // Type I error within 4 SE (0.0034) of 0.05, for both tests.
        assert!((s.t - 0.05).abs() < 0.014, "{s:?}");
        assert!((s.wilcoxon - 0.05).abs() < 0.014, "{s:?}");
        let effect = Scenario {
            mean_diff: 0.3,
            ..null
        };
        let small = simulate(&effect, 10, 10, 0.05, Alternative::Greater, 1000, 1);
        let large = simulate(&effect, 60, 10, 0.05, Alternative::Greater, 1000, 1);
        assert!(large.t > small.t + 0.3, "{small:?} {large:?}");
        assert!(
            t_power(0.45, 10, 0.05, Alternative::Greater)
                < t_power(0.45, 41, 0.05, Alternative::Greater)
        );
        assert!(t_power(0.45, 1, 0.05, Alternative::Greater).is_nan());
    }

    #[test]
    fn no_interaction_rejects_at_about_alpha_and_a_large_one_nearly_always() {
        let design = RoundsDesign {
            systems: 4,
            rounds: 5,
            slope_difference: 0.0,
            sd_participant: 0.5,
            sd_residual: 1.0,
        };
        let null = simulate_interaction(&design, 8, 0.05, 400, 3);
        assert_eq!(null.fitted, 400);
        // Within about 3 SE (0.011 at 400 studies) of 0.05.
        assert!((null.joint - 0.05).abs() < 0.035, "{null:?}");
        assert!((null.contrast - 0.05).abs() < 0.035, "{null:?}");
        let large = simulate_interaction(
            &RoundsDesign {
                // z ≈ 1 / √(2 / (8 · 10)) ≈ 6.3: power ≈ 1.
                slope_difference: 1.0,
                ..design
            },
            8,
            0.05,
            100,
            3,
        );
        assert!(large.joint > 0.97 && large.contrast > 0.97, "{large:?}");
        // Seeded: the same call gives the same shares.
        assert_eq!(simulate_interaction(&design, 8, 0.05, 400, 3), null);
    }
}
