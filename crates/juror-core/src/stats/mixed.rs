//! A linear mixed model with one random intercept, fitted by REML: the primary analysis of the HARE study
//! `rating ~ system + round + system:round + (1 | annotator)`.
//!
//! The types and functions that matter:
//! - [`MixedData`]: responses, a group (the annotator) per response and a row of fixed-effect
//!   covariates; [`MixedData::system_by_round`] builds that study's design from
//!   [`RoundRating`]s;
//! - [`reml`] (and [`reml_with`], [`RemlOptions`]): the fit, a [`MixedFit`] with the fixed
//!   effects ([`FixedEffect`]: estimate, standard error, z, p), the variance components, the
//!   restricted log-likelihood and whether the search converged;
//! - [`MixedFit::contrast`]: a linear combination of the fixed effects, such as one system's
//!   slope over rounds;
//! - [`profile`]: the profiled restricted log-likelihood and its derivative at a given
//!   variance ratio, for plots and checks.
//!
//! # Model
//! For group i (an annotator) with nᵢ responses yᵢ and design rows Xᵢ (nᵢ × p):
//! yᵢ = Xᵢβ + uᵢ1 + eᵢ, with uᵢ ~ N(0, σ²_u) and eᵢ ~ N(0, σ²_e I) independent, so
//! Var(yᵢ) = σ²_e Hᵢ with Hᵢ = I + θ11ᵀ and θ = σ²_u/σ²_e ≥ 0. Everything per group is closed
//! form (Sherman–Morrison): Hᵢ⁻¹ = I − θ/(1 + nᵢθ) 11ᵀ and |Hᵢ| = 1 + nᵢθ, so a fit costs
//! O(N p) per likelihood evaluation plus O(G p² + p³) for G groups; tens of thousands of
//! ratings take milliseconds.
//!
//! Conventions: N is the number of responses, p the number of fixed-effect columns (ddof of
//! the residual variance: N − p, the REML convention); groups are numbered in order of first
//! appearance; every input must be finite; an input that cannot give a fit is a
//! [`MixedError`] saying what to do, never NaN and never a panic. The normal distribution
//! comes from [`super::special`]; the searches in θ are in `mixed/search.rs`, the dense linear
//! algebra in `mixed/linalg.rs`.
//!
//! Tested against statsmodels' `MixedLM` (REML) and `OLS`, and against an independent dense
//! numpy implementation, on seeded data of the HARE study's design (balanced, unbalanced, and with a true
//! group variance of 0): `crates/juror-core/tests/it/mixed.rs` reads
//! `crates/juror-core/tests/reference/mixed/reference.json`, written by `make_reference.py`
//! beside it (library versions in the file). Tolerance 1e-6 relative, as for every iterative
//! fit; the measured differences are at most 3.4e-9 (a p-value; estimates 3e-13, variance
//! components 2.5e-12, standard errors 3e-11), and the profiled likelihood at fixed θ agrees
//! with statsmodels' own `loglike` and `score` to 5e-12.

use std::collections::HashMap;
use std::f64::consts::PI;
use std::fmt;

use super::math::Portable;
use super::special;

mod crossed;
pub(super) mod linalg;
mod search;

pub use crossed::{Criterion, CrossedData, CrossedFit, CrossedOptions, CrossedRating, crossed};

use linalg::{Cholesky, dot, matmul, symmetrise};
use search::{brent_root, golden_max};

/// Relative width to which the root of the restricted score in θ is located (Brent's method).
pub const THETA_TOL: f64 = 1e-12;

/// The coarse search for θ: 0 and the half-decades 10⁻⁸, 10^-7.5, …, 10⁸.
pub const THETA_GRID: (f64, f64, usize) = (1e-8, 1e8, 33);

/// A column whose part not explained by the earlier columns (in the metric of Xᵀ H⁻¹ X,
/// relative to its own length) is below this share is called collinear: 1 − R² < 1e-10.
pub const COLLINEAR_TOL: f64 = 1e-10;

const MAX_ITERATIONS: usize = 200;

// ---------------------------------------------------------------------------------------------
// Errors
// ---------------------------------------------------------------------------------------------

/// Why a mixed model could not be fitted. Each says where and what to do.
#[derive(Debug, Clone, PartialEq)]
pub enum MixedError {
    /// A design row whose length is not the number of columns.
    RowLength {
        /// Position of the observation, from 0.
        index: usize,
        expected: usize,
        got: usize,
    },
    /// A response or covariate is NaN or infinite.
    NotFinite {
        /// Position of the observation, from 0.
        index: usize,
        /// "rating" or the column's name.
        what: String,
        value: f64,
    },
    /// No more observations than fixed effects: nothing is left for the residual variance.
    TooFewObservations { n: usize, p: usize },
    /// Fewer than two groups: a random intercept cannot be told from the fixed intercept.
    TooFewGroups { groups: usize },
    /// The crossed model's factor (`"annotators"` or `"items"`) has fewer than two levels.
    TooFewLevels { factor: &'static str, levels: usize },
    /// A model with no fixed-effect column.
    NoColumns,
    /// A fixed-effect column is (numerically) a linear combination of earlier ones.
    Collinear { column: String },
    /// The fixed effects fit every response exactly.
    NoResidualVariance,
    /// [`MixedData::system_by_round`] was given no systems.
    NoSystems,
    /// A system listed twice in the builder's order.
    DuplicateSystem { system: String },
    /// A rating of a system that is not in the builder's list.
    UnknownSystem { index: usize, system: String },
    /// A system in the builder's list with no rating.
    Unrated { system: String },
    /// A contrast whose length is not the number of fixed effects, or all zero, or not finite.
    BadContrast { expected: usize, got: usize },
    /// statsmodels' standard errors need the joint Hessian in (β, θ) to be negative definite,
    /// which it is not at this fit (possible on the boundary θ = 0). statsmodels only warns
    /// there and reports whatever the inverse gives.
    HessianNotDefinite,
}

impl fmt::Display for MixedError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MixedError::RowLength {
                index,
                expected,
                got,
            } => write!(
                f,
                "observation {index}: the design row has {got} values, expected one per \
                 column ({expected})"
            ),
            MixedError::NotFinite { index, what, value } => write!(
                f,
                "observation {index}: {what} is {value}; remove or fix the value (every input \
                 must be finite)"
            ),
            MixedError::TooFewObservations { n, p } => write!(
                f,
                "{n} observations for {p} fixed effects: a REML fit needs more observations \
                 than fixed effects; collect more ratings or drop terms"
            ),
            MixedError::TooFewGroups { groups } => write!(
                f,
                "{groups} group(s): a random intercept needs ratings from at least 2 annotators"
            ),
            MixedError::TooFewLevels { factor, levels } => write!(
                f,
                "{levels} {factor}: a model with crossed random effects needs at least 2 \
                 annotators and 2 items; collect more ratings or use the annotator-only model"
            ),
            MixedError::NoColumns => write!(f, "the model has no fixed effects; add an intercept"),
            MixedError::Collinear { column } => write!(
                f,
                "column \"{column}\" is a linear combination of earlier columns; drop it or \
                 collect ratings that separate it"
            ),
            MixedError::NoResidualVariance => write!(
                f,
                "the fixed effects reproduce every rating exactly: there is no residual \
                 variance to estimate"
            ),
            MixedError::NoSystems => write!(f, "no systems given; list them, reference first"),
            MixedError::DuplicateSystem { system } => {
                write!(
                    f,
                    "system \"{system}\" is listed twice; list each system once"
                )
            }
            MixedError::UnknownSystem { index, system } => write!(
                f,
                "ratings[{index}]: system \"{system}\" is not in the list of systems; add it \
                 or drop the rating"
            ),
            MixedError::Unrated { system } => write!(
                f,
                "system \"{system}\" has no ratings; drop it from the list of systems"
            ),
            MixedError::BadContrast { expected, got } => write!(
                f,
                "a contrast needs {expected} finite weights, not all zero (got {got} weights)"
            ),
            MixedError::HessianNotDefinite => write!(
                f,
                "the Hessian in (fixed effects, variance ratio) is not negative definite at \
                 this fit, so statsmodels' standard errors are undefined; use \
                 StandardErrors::Model"
            ),
        }
    }
}

impl std::error::Error for MixedError {}

// ---------------------------------------------------------------------------------------------
// Data
// ---------------------------------------------------------------------------------------------

/// Observations for a random-intercept model: a response, a group label and a design row each.
#[derive(Debug, Clone, PartialEq)]
pub struct MixedData {
    columns: Vec<String>,
    groups: Vec<String>,
    group_index: HashMap<String, usize>,
    y: Vec<f64>,
    group: Vec<usize>,
    /// N × p, row-major.
    x: Vec<f64>,
}

/// One rating in the design of the HARE study (`hare-personalization.json`): an annotator rated a system's output in a round.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RoundRating<'a> {
    pub annotator: &'a str,
    pub system: &'a str,
    /// The round, used as a number (1, 2, …; centre it first to make the system effects
    /// the differences at the mean round instead of at round 0).
    pub round: f64,
    pub rating: f64,
}

impl MixedData {
    /// No observations yet, with the names of the fixed-effect columns (the design rows given
    /// to [`MixedData::push`] follow this order; include an intercept column of ones).
    pub fn new(columns: Vec<String>) -> MixedData {
        MixedData {
            columns,
            groups: Vec::new(),
            group_index: HashMap::new(),
            y: Vec::new(),
            group: Vec::new(),
            x: Vec::new(),
        }
    }

    /// Adds one observation: response `y` of group `group` with design row `row`.
    ///
    /// # Errors
    /// `row` does not have one value per column, or a value is not finite. Nothing is added
    /// then.
    pub fn push(&mut self, group: &str, row: &[f64], y: f64) -> Result<(), MixedError> {
        let index = self.y.len();
        if row.len() != self.columns.len() {
            return Err(MixedError::RowLength {
                index,
                expected: self.columns.len(),
                got: row.len(),
            });
        }
        if !y.is_finite() {
            return Err(MixedError::NotFinite {
                index,
                what: "rating".to_string(),
                value: y,
            });
        }
        if let Some(j) = row.iter().position(|v| !v.is_finite()) {
            return Err(MixedError::NotFinite {
                index,
                what: self.columns[j].clone(),
                value: row[j],
            });
        }
        let next = self.groups.len();
        let g = *self.group_index.entry(group.to_string()).or_insert(next);
        if g == next {
            self.groups.push(group.to_string());
        }
        self.y.push(y);
        self.group.push(g);
        self.x.extend_from_slice(row);
        Ok(())
    }

    /// The HARE study's design `rating ~ system + round + system:round + (1 | annotator)`, with
    /// treatment coding against `systems[0]`, the reference system.
    ///
    /// # Formula
    /// With systems s₀ (reference), s₁, …, sₖ₋₁ in the given order, the 2k columns are, as
    /// patsy names them (so that they read like statsmodels' and R's output):
    /// `Intercept` (1), `system[T.sⱼ]` (1 if the rating is of sⱼ, j = 1..k−1), `round`, and
    /// `system[T.sⱼ]:round` (the round if the rating is of sⱼ). So `Intercept` is the
    /// reference system's rating at round 0, `round` its slope per round, `system[T.sⱼ]` the
    /// difference of sⱼ from the reference at round 0 and `system[T.sⱼ]:round` the
    /// difference of their slopes. The groups are the annotators.
    ///
    /// # Errors
    /// No systems or a system listed twice; a rating of a system not listed (with its
    /// position); a listed system with no ratings; a round or rating that is not finite.
    pub fn system_by_round(
        systems: &[&str],
        ratings: &[RoundRating<'_>],
    ) -> Result<MixedData, MixedError> {
        let design = SystemDesign::new(systems, true)?;
        let mut data = MixedData::new(design.columns.clone());
        let mut row = vec![0.0; design.columns.len()];
        let mut rated = vec![false; systems.len()];
        for (index, r) in ratings.iter().enumerate() {
            rated[design.fill(index, r.system, r.round, &mut row)?] = true;
            data.push(r.annotator, &row, r.rating)?;
        }
        design.all_rated(&rated)?;
        Ok(data)
    }

    /// The names of the fixed-effect columns.
    pub fn columns(&self) -> &[String] {
        &self.columns
    }

    /// The group labels, in order of first appearance.
    pub fn groups(&self) -> &[String] {
        &self.groups
    }

    pub fn n_obs(&self) -> usize {
        self.y.len()
    }

    pub fn n_groups(&self) -> usize {
        self.groups.len()
    }

    /// Observation i's design row.
    pub fn row(&self, i: usize) -> &[f64] {
        let p = self.columns.len();
        &self.x[i * p..(i + 1) * p]
    }

    /// Observation i's response.
    pub fn response(&self, i: usize) -> f64 {
        self.y[i]
    }

    /// Observation i's group label.
    pub fn group(&self, i: usize) -> &str {
        &self.groups[self.group[i]]
    }
}

/// The fixed-effect columns of `score ~ system` (with `round`: `score ~ system * round`), with
/// treatment coding against `systems[0]` and patsy's names: `Intercept`, `system[T.sⱼ]`, and
/// with rounds `round` and `system[T.sⱼ]:round`. Shared by [`MixedData::system_by_round`] and
/// the crossed model's builders.
pub(crate) struct SystemDesign<'s> {
    systems: &'s [&'s str],
    position: HashMap<&'s str, usize>,
    rounds: bool,
    pub(crate) columns: Vec<String>,
}

impl<'s> SystemDesign<'s> {
    pub(crate) fn new(systems: &'s [&'s str], rounds: bool) -> Result<Self, MixedError> {
        if systems.is_empty() {
            return Err(MixedError::NoSystems);
        }
        let mut position = HashMap::new();
        for (j, s) in systems.iter().enumerate() {
            if position.insert(*s, j).is_some() {
                return Err(MixedError::DuplicateSystem {
                    system: s.to_string(),
                });
            }
        }
        let mut columns = vec!["Intercept".to_string()];
        columns.extend(systems[1..].iter().map(|s| format!("system[T.{s}]")));
        if rounds {
            columns.push("round".to_string());
            columns.extend(systems[1..].iter().map(|s| format!("system[T.{s}]:round")));
        }
        Ok(SystemDesign {
            systems,
            position,
            rounds,
            columns,
        })
    }

    /// Writes rating `index`'s design row into `row` and returns its system's position.
    pub(crate) fn fill(
        &self,
        index: usize,
        system: &str,
        round: f64,
        row: &mut [f64],
    ) -> Result<usize, MixedError> {
        let k = self.systems.len();
        let j = *self
            .position
            .get(system)
            .ok_or_else(|| MixedError::UnknownSystem {
                index,
                system: system.to_string(),
            })?;
        row.fill(0.0);
        row[0] = 1.0;
        if j > 0 {
            row[j] = 1.0;
        }
        if self.rounds {
            row[k] = round;
            if j > 0 {
                row[k + j] = round;
            }
        }
        Ok(j)
    }

    /// Every listed system has a rating.
    pub(crate) fn all_rated(&self, rated: &[bool]) -> Result<(), MixedError> {
        match rated.iter().position(|r| !r) {
            Some(j) => Err(MixedError::Unrated {
                system: self.systems[j].to_string(),
            }),
            None => Ok(()),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Results
// ---------------------------------------------------------------------------------------------

/// How the standard errors of the fixed effects are computed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum StandardErrors {
    /// Cov(β̂) = σ̂²_e (Xᵀ Ĥ⁻¹ X)⁻¹: the model-based (GLS) covariance of nlme, lme4 and SAS
    /// PROC MIXED, which treats the variance components as known.
    #[default]
    Model,
    /// statsmodels' `MixedLM` convention (its `bse_fe`): the fixed-effect block of the
    /// inverse of the negative Hessian of the σ²_e-profiled restricted log-likelihood in
    /// (β, θ) jointly. The β–θ cross derivatives vanish when every group has the same design
    /// (every annotator rates every system in every round), so both conventions agree there;
    /// otherwise this one is slightly larger (by 6.5e-5 relative in the unbalanced reference,
    /// 3e-3 in the boundary one).
    Statsmodels,
}

/// Options of [`reml_with`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct RemlOptions {
    pub standard_errors: StandardErrors,
}

/// An estimate with its standard error, z = estimate / se and the two-sided normal p-value
/// 2 (1 − Φ(|z|)).
#[derive(Debug, Clone, PartialEq)]
pub struct FixedEffect {
    pub name: String,
    pub estimate: f64,
    pub se: f64,
    pub z: f64,
    pub p_value: f64,
}

/// A linear combination wᵀβ of the fixed effects, tested like a fixed effect.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Contrast {
    pub estimate: f64,
    /// √(wᵀ Cov(β̂) w).
    pub se: f64,
    pub z: f64,
    pub p_value: f64,
}

/// A REML fit of a random-intercept model.
#[derive(Debug, Clone, PartialEq)]
pub struct MixedFit {
    /// In the order of [`MixedData::columns`].
    pub fixed_effects: Vec<FixedEffect>,
    /// Cov(β̂), p × p row-major, by the convention in `standard_errors`.
    pub covariance: Vec<f64>,
    pub standard_errors: StandardErrors,
    /// σ̂²_u, the variance of the random intercepts (statsmodels' `cov_re`, "Group Var").
    pub group_variance: f64,
    /// σ̂²_e, the residual variance (statsmodels' `scale`).
    pub residual_variance: f64,
    /// θ̂ = σ̂²_u / σ̂²_e.
    pub variance_ratio: f64,
    /// The restricted log-likelihood at the estimates, constants included (statsmodels' `llf`).
    pub log_likelihood: f64,
    pub n_obs: usize,
    pub n_groups: usize,
    /// The group variance is estimated as exactly 0: the restricted likelihood decreases from
    /// θ = 0, and the fit is ordinary least squares.
    pub boundary: bool,
    /// The search located the maximum to [`THETA_TOL`]. False when θ̂ ran to the top of the
    /// search (no within-annotator variation left) or the root search ran out of steps.
    pub converged: bool,
    /// Evaluations of the restricted likelihood.
    pub evaluations: usize,
}

impl MixedFit {
    /// The fixed effect called `name`.
    pub fn fixed(&self, name: &str) -> Option<&FixedEffect> {
        self.fixed_effects.iter().find(|f| f.name == name)
    }

    /// The linear combination Σ wⱼβⱼ, e.g. a system's slope over rounds,
    /// `round + system[T.s]:round`, with weights 1 on both columns.
    ///
    /// # Errors
    /// Not one weight per fixed effect, a weight that is not finite, or all weights zero.
    pub fn contrast(&self, weights: &[f64]) -> Result<Contrast, MixedError> {
        contrast(&self.fixed_effects, &self.covariance, weights)
    }
}

/// wᵀβ with its standard error √(wᵀ Cov(β̂) w), z and the two-sided normal p-value.
pub(crate) fn contrast(
    fixed: &[FixedEffect],
    covariance: &[f64],
    weights: &[f64],
) -> Result<Contrast, MixedError> {
    let p = fixed.len();
    if weights.len() != p
        || weights.iter().any(|w| !w.is_finite())
        || weights.iter().all(|w| *w == 0.0)
    {
        return Err(MixedError::BadContrast {
            expected: p,
            got: weights.len(),
        });
    }
    let estimate: f64 = weights.iter().zip(fixed).map(|(w, f)| w * f.estimate).sum();
    let mut var = 0.0;
    for i in 0..p {
        for j in 0..p {
            var += weights[i] * covariance[i * p + j] * weights[j];
        }
    }
    let se = var.max(0.0).sqrt();
    let z = estimate / se;
    Ok(Contrast {
        estimate,
        se,
        z,
        p_value: 2.0 * special::normal_sf(z.abs()),
    })
}

/// A joint Wald test of several fixed effects being 0 together.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Wald {
    /// W = β̂ₛᵀ Cov(β̂ₛ)⁻¹ β̂ₛ over the chosen effects S.
    pub chi2: f64,
    /// The number of effects tested.
    pub df: usize,
    /// P(χ²(df) > W).
    pub p_value: f64,
}

impl MixedFit {
    /// The joint Wald chi-square test that the fixed effects at `columns` (positions in
    /// [`MixedData::columns`]) are all 0, e.g. every `system[T.x]:round` interaction.
    ///
    /// # Formula
    /// W = β̂ₛᵀ Σₛₛ⁻¹ β̂ₛ with Σₛₛ the block of Cov(β̂) on S, referred to χ²(|S|).
    ///
    /// # Errors
    /// No column, a column out of range or listed twice, or a singular block
    /// ([`MixedError::BadContrast`]).
    ///
    /// # Reference
    /// statsmodels `MixedLMResults.wald_test(R, scalar=True)` with R the rows of the identity on
    /// S (its chi-square form).
    pub fn wald(&self, columns: &[usize]) -> Result<Wald, MixedError> {
        let p = self.fixed_effects.len();
        let k = columns.len();
        let bad = MixedError::BadContrast {
            expected: p,
            got: k,
        };
        let mut seen = columns.to_vec();
        seen.sort_unstable();
        seen.dedup();
        if k == 0 || seen.len() != k || columns.iter().any(|&c| c >= p) {
            return Err(bad);
        }
        let block: Vec<f64> = columns
            .iter()
            .flat_map(|&i| columns.iter().map(move |&j| (i, j)))
            .map(|(i, j)| self.covariance[i * p + j])
            .collect();
        let beta: Vec<f64> = columns
            .iter()
            .map(|&c| self.fixed_effects[c].estimate)
            .collect();
        let chol = Cholesky::new(&block, k).map_err(|_| bad)?;
        let chi2 = chol.quad(&beta);
        Ok(Wald {
            chi2,
            df: k,
            p_value: special::chi2_sf(chi2, k as f64),
        })
    }
}

/// The profiled restricted likelihood at one variance ratio θ (see [`profile`]).
#[derive(Debug, Clone, PartialEq)]
pub struct Profile {
    pub theta: f64,
    /// ℓ_R(θ) with β and σ²_e at their maxima given θ.
    pub log_likelihood: f64,
    /// dℓ_R/dθ.
    pub score: f64,
    /// β̂(θ), the GLS estimates.
    pub fixed: Vec<f64>,
    /// σ̂²_e(θ) = q / (N − p).
    pub residual_variance: f64,
}

// ---------------------------------------------------------------------------------------------
// Fitting
// ---------------------------------------------------------------------------------------------

/// [`reml_with`] with model-based standard errors.
pub fn reml(data: &MixedData) -> Result<MixedFit, MixedError> {
    reml_with(data, RemlOptions::default())
}

/// Fits the random-intercept model by restricted maximum likelihood (REML).
///
/// # Formula
/// With H = blockdiag(I + θ11ᵀ) and q(β, θ) = (y − Xβ)ᵀ H⁻¹ (y − Xβ), the restricted
/// log-likelihood profiled over β and σ²_e is (statsmodels' form, constants included)
///
/// ℓ_R(θ) = −½ ln|H| − ½ ln|Xᵀ H⁻¹ X| − (N−p)/2 · ln q̂ − (N−p)/2 · (ln 2π + 1 − ln(N−p)),
///
/// where β̂(θ) = (Xᵀ H⁻¹ X)⁻¹ Xᵀ H⁻¹ y minimises q and σ̂²_e = q̂ / (N − p). Per group,
/// with aᵢ = 1/(1 + nᵢθ), means x̄ᵢ, ȳᵢ and residual means r̄ᵢ:
/// ln|H| = Σ ln(1 + nᵢθ), Xᵀ H⁻¹ X = W + Σ aᵢnᵢ x̄ᵢx̄ᵢᵀ (W: the within-group cross-products)
/// and q = Σ (within-group residual sum of squares) + Σ aᵢnᵢ r̄ᵢ². Written this way no term
/// cancels, even at large θ or with ratings far from 0.
///
/// Its derivative (β̂ drops out because q is minimal in β) is
/// dℓ_R/dθ = −½ Σ nᵢaᵢ + ½ Σ aᵢ²nᵢ² x̄ᵢᵀ (Xᵀ H⁻¹ X)⁻¹ x̄ᵢ + (N−p)/(2q̂) · Σ aᵢ²nᵢ² r̄ᵢ².
///
/// The search: ℓ_R at θ = 0 and on the grid [`THETA_GRID`] (half-decades from 10⁻⁸ to 10⁸);
/// around the best point, Brent's root finder on dℓ_R/dθ between its neighbours, to a
/// relative [`THETA_TOL`] (golden-section search on ℓ_R if the derivative does not change
/// sign there, which takes two maxima within a factor of 10). If the best grid point is 0 or
/// 10⁻⁸ and dℓ_R/dθ ≤ 0 at θ = 0, θ̂ = 0 exactly: the boundary, where the fit is ordinary
/// least squares; and θ = 0 replaces any θ̂ that is not more likely. Then
/// σ̂²_e = q̂/(N − p), σ̂²_u = θ̂ σ̂²_e, and the standard errors follow
/// `options.standard_errors`. About 50 evaluations in all: 50,000 ratings from 500
/// annotators fit in 25 ms (release build).
///
/// # Errors
/// No columns; no more observations than columns; fewer than two groups; a collinear column
/// ([`COLLINEAR_TOL`]); responses fitted exactly; and, for statsmodels' standard errors only,
/// a joint Hessian that is not negative definite.
///
/// # Reference
/// statsmodels `mixedlm(formula, data, groups=...).fit(reml=True)`: `fe_params`, `bse_fe`
/// (the [`StandardErrors::Statsmodels`] convention), `tvalues`, `pvalues`, `cov_re`, `scale`,
/// `llf`; at the boundary, `statsmodels.api.OLS`. See the reference script for how statsmodels
/// was made to converge: from its default start, its default optimizers stop early or fail on
/// data of that design, and `method="lbfgs"` can report a converged fit with llf = +inf.
pub fn reml_with(data: &MixedData, options: RemlOptions) -> Result<MixedFit, MixedError> {
    let model = Model::new(data)?;
    let mut evaluations = 0;
    let mut eval = |theta: f64| {
        evaluations += 1;
        model.evaluate(theta)
    };

    // Coarse search over 0 and the grid.
    let (lo, hi, points) = THETA_GRID;
    let step = (hi / lo).ln_p() / (points - 1) as f64;
    let mut thetas = vec![0.0];
    thetas.extend((0..points).map(|k| lo * (step * k as f64).exp_p()));
    let mut best = (0, f64::NEG_INFINITY);
    for (k, &t) in thetas.iter().enumerate() {
        let ll = eval(t)?.log_likelihood;
        if ll > best.1 {
            best = (k, ll);
        }
    }
    let k = best.0;

    let (theta, converged) = if k == thetas.len() - 1 {
        (thetas[k], false)
    } else {
        let below = if k == 0 { 0.0 } else { thetas[k - 1] };
        let above = thetas[k + 1];
        let score_below = eval(below)?.score;
        if below == 0.0 && score_below <= 0.0 {
            (0.0, true)
        } else {
            let score_above = eval(above)?.score;
            if score_below > 0.0 && score_above < 0.0 {
                brent_root(
                    |t| eval(t).map(|e| e.score),
                    (below, score_below),
                    (above, score_above),
                    THETA_TOL * above,
                )?
            } else {
                golden_max(
                    |t| eval(t).map(|e| e.log_likelihood),
                    below,
                    above,
                    THETA_TOL * above,
                )?
            }
        }
    };
    // The boundary check: θ = 0 wins whenever it is at least as likely.
    let at = model.evaluate(theta)?;
    let zero = model.evaluate(0.0)?;
    let (theta, at) = if zero.log_likelihood >= at.log_likelihood && zero.score <= 0.0 {
        (0.0, zero)
    } else {
        (theta, at)
    };
    evaluations += 2;

    let scale = at.q / model.fac;
    let covariance = match options.standard_errors {
        StandardErrors::Model => {
            let inv = at.chol.inverse();
            inv.iter().map(|v| v * scale).collect()
        }
        StandardErrors::Statsmodels => model.statsmodels_covariance(&at)?,
    };
    let fixed_effects = effects(&model.data.columns, &at.beta, &covariance);
    Ok(MixedFit {
        fixed_effects,
        covariance,
        standard_errors: options.standard_errors,
        group_variance: theta * scale,
        residual_variance: scale,
        variance_ratio: theta,
        log_likelihood: at.log_likelihood,
        n_obs: model.n,
        n_groups: model.g,
        boundary: theta == 0.0,
        converged,
        evaluations,
    })
}

/// Each estimate with its standard error from the diagonal of `covariance`, z and p.
pub(crate) fn effects(columns: &[String], beta: &[f64], covariance: &[f64]) -> Vec<FixedEffect> {
    let p = beta.len();
    (0..p)
        .map(|j| {
            let estimate = beta[j];
            let se = covariance[j * p + j].sqrt();
            let z = estimate / se;
            FixedEffect {
                name: columns[j].clone(),
                estimate,
                se,
                z,
                p_value: 2.0 * special::normal_sf(z.abs()),
            }
        })
        .collect()
}

/// The profiled restricted log-likelihood ℓ_R(θ), its derivative and β̂(θ), σ̂²_e(θ) at a
/// variance ratio θ ≥ 0 (formulas at [`reml_with`]).
///
/// # Errors
/// As [`reml_with`]; a θ that is negative or not finite is a [`MixedError::NotFinite`] with
/// index 0 and what "theta".
pub fn profile(data: &MixedData, theta: f64) -> Result<Profile, MixedError> {
    if !(theta.is_finite() && theta >= 0.0) {
        return Err(MixedError::NotFinite {
            index: 0,
            what: "theta".to_string(),
            value: theta,
        });
    }
    let model = Model::new(data)?;
    let e = model.evaluate(theta)?;
    Ok(Profile {
        theta,
        log_likelihood: e.log_likelihood,
        score: e.score,
        residual_variance: e.q / model.fac,
        fixed: e.beta,
    })
}

/// The data reduced to what every evaluation needs.
struct Model<'a> {
    data: &'a MixedData,
    n: usize,
    p: usize,
    g: usize,
    /// N − p.
    fac: f64,
    /// Group sizes.
    sizes: Vec<f64>,
    /// G × p group means of the design.
    xbar: Vec<f64>,
    ybar: Vec<f64>,
    /// Within-group cross-products Σ (x − x̄)(x − x̄)ᵀ (p × p) and Σ (x − x̄)(y − ȳ).
    wxx: Vec<f64>,
    wxy: Vec<f64>,
}

/// ℓ_R and what it was made of, at one θ.
struct Evaluation {
    log_likelihood: f64,
    score: f64,
    beta: Vec<f64>,
    q: f64,
    chol: Cholesky,
    /// aᵢ = 1 / (1 + nᵢθ).
    a: Vec<f64>,
    /// Residual means r̄ᵢ = ȳᵢ − x̄ᵢᵀβ̂.
    rbar: Vec<f64>,
}

impl<'a> Model<'a> {
    fn new(data: &'a MixedData) -> Result<Model<'a>, MixedError> {
        let (n, p, g) = (data.n_obs(), data.columns.len(), data.n_groups());
        if p == 0 {
            return Err(MixedError::NoColumns);
        }
        if n <= p {
            return Err(MixedError::TooFewObservations { n, p });
        }
        if g < 2 {
            return Err(MixedError::TooFewGroups { groups: g });
        }
        let mut sizes = vec![0.0; g];
        let mut xbar = vec![0.0; g * p];
        let mut ybar = vec![0.0; g];
        for i in 0..n {
            let gi = data.group[i];
            sizes[gi] += 1.0;
            ybar[gi] += data.y[i];
            for (m, x) in xbar[gi * p..(gi + 1) * p].iter_mut().zip(data.row(i)) {
                *m += x;
            }
        }
        for gi in 0..g {
            ybar[gi] /= sizes[gi];
            for m in &mut xbar[gi * p..(gi + 1) * p] {
                *m /= sizes[gi];
            }
        }
        let mut wxx = vec![0.0; p * p];
        let mut wxy = vec![0.0; p];
        let mut centred = vec![0.0; p];
        for i in 0..n {
            let gi = data.group[i];
            for (j, c) in centred.iter_mut().enumerate() {
                *c = data.x[i * p + j] - xbar[gi * p + j];
            }
            let dy = data.y[i] - ybar[gi];
            for j in 0..p {
                wxy[j] += centred[j] * dy;
                for l in 0..=j {
                    wxx[j * p + l] += centred[j] * centred[l];
                }
            }
        }
        symmetrise(&mut wxx, p);
        let model = Model {
            data,
            n,
            p,
            g,
            fac: (n - p) as f64,
            sizes,
            xbar,
            ybar,
            wxx,
            wxy,
        };
        // Collinearity does not depend on θ (H is positive definite); test it at θ = 0.
        model.evaluate(0.0)?;
        Ok(model)
    }

    fn evaluate(&self, theta: f64) -> Result<Evaluation, MixedError> {
        let (p, g) = (self.p, self.g);
        let a: Vec<f64> = self.sizes.iter().map(|n| 1.0 / (1.0 + n * theta)).collect();
        let mut m = self.wxx.clone();
        let mut b = self.wxy.clone();
        for (gi, (ai, ni)) in a.iter().zip(&self.sizes).enumerate() {
            let v = ai * ni;
            let xb = &self.xbar[gi * p..(gi + 1) * p];
            for j in 0..p {
                b[j] += v * xb[j] * self.ybar[gi];
                for l in 0..=j {
                    m[j * p + l] += v * xb[j] * xb[l];
                }
            }
        }
        symmetrise(&mut m, p);
        let chol = Cholesky::new(&m, p).map_err(|j| MixedError::Collinear {
            column: self.data.columns[j].clone(),
        })?;
        let beta = chol.solve(&b);

        // q from the residuals themselves: within-group sums of squares plus the group terms.
        let rbar: Vec<f64> = (0..g)
            .map(|gi| self.ybar[gi] - dot(&self.xbar[gi * p..(gi + 1) * p], &beta))
            .collect();
        let mut within = 0.0;
        for i in 0..self.n {
            let gi = self.data.group[i];
            let r = (self.data.y[i] - self.ybar[gi])
                - (0..p)
                    .map(|j| (self.data.x[i * p + j] - self.xbar[gi * p + j]) * beta[j])
                    .sum::<f64>();
            within += r * r;
        }
        let between: f64 = (0..g)
            .map(|gi| a[gi] * self.sizes[gi] * rbar[gi] * rbar[gi])
            .sum();
        let q = within + between;
        if q <= 0.0 || !q.is_finite() {
            return Err(MixedError::NoResidualVariance);
        }

        let fac = self.fac;
        let ln_det_h: f64 = self.sizes.iter().map(|n| (n * theta).ln_1p_p()).sum();
        let log_likelihood = -0.5 * ln_det_h
            - 0.5 * chol.ln_det()
            - 0.5 * fac * q.ln_p()
            - 0.5 * fac * ((2.0 * PI).ln_p() + 1.0 - fac.ln_p());

        let mut score = 0.0;
        let mut b_sum = 0.0;
        for gi in 0..g {
            let an = a[gi] * self.sizes[gi];
            let xb = &self.xbar[gi * p..(gi + 1) * p];
            score += -0.5 * an + 0.5 * an * an * chol.quad(xb);
            b_sum += an * an * rbar[gi] * rbar[gi];
        }
        score += 0.5 * fac * b_sum / q;

        Ok(Evaluation {
            log_likelihood,
            score,
            beta,
            q,
            chol,
            a,
            rbar,
        })
    }

    /// statsmodels' Cov(β̂): the β block of (−∇²ℓ)⁻¹ over (β, θ), where ℓ(β, θ) is the
    /// σ²_e-profiled restricted log-likelihood at fixed β.
    ///
    /// With M = Xᵀ H⁻¹ X, σ² = q/(N−p), −∂²ℓ/∂β² = M/σ², −∂²ℓ/∂β∂θ = (N−p)/q · c with
    /// c = Σ aᵢ²nᵢ² x̄ᵢ r̄ᵢ, and
    /// ∂²ℓ/∂θ² = ½ Σ nᵢ²aᵢ² + ½ tr((M⁻¹P)²) − ½ tr(M⁻¹Q) − (N−p)/2 · (d/q − B²/q²),
    /// P = Σ aᵢ²nᵢ² x̄ᵢx̄ᵢᵀ, Q = 2 Σ aᵢ³nᵢ³ x̄ᵢx̄ᵢᵀ, B = Σ aᵢ²nᵢ² r̄ᵢ², d = 2 Σ aᵢ³nᵢ³ r̄ᵢ².
    /// By the block inverse, Cov(β̂) = σ²M⁻¹ + u uᵀ / (γ − eᵀu) with e the cross term,
    /// u = σ²M⁻¹e and γ = −∂²ℓ/∂θ²; γ − eᵀu must be positive.
    fn statsmodels_covariance(&self, at: &Evaluation) -> Result<Vec<f64>, MixedError> {
        let (p, g, fac, q) = (self.p, self.g, self.fac, at.q);
        let mut pm = vec![0.0; p * p];
        let mut qm = vec![0.0; p * p];
        let mut c = vec![0.0; p];
        let (mut sum_n2a2, mut b_sum, mut d_sum) = (0.0, 0.0, 0.0);
        for gi in 0..g {
            let an = at.a[gi] * self.sizes[gi];
            let (an2, an3) = (an * an, 2.0 * an * an * an);
            let xb = &self.xbar[gi * p..(gi + 1) * p];
            let r = at.rbar[gi];
            sum_n2a2 += an2;
            b_sum += an2 * r * r;
            d_sum += an3 * r * r;
            for j in 0..p {
                c[j] += an2 * xb[j] * r;
                for l in 0..p {
                    pm[j * p + l] += an2 * xb[j] * xb[l];
                    qm[j * p + l] += an3 * xb[j] * xb[l];
                }
            }
        }
        let inv = at.chol.inverse();
        let m_inv_p = matmul(&inv, &pm, p);
        let tr_mpmp: f64 = (0..p)
            .flat_map(|j| (0..p).map(move |l| (j, l)))
            .map(|(j, l)| m_inv_p[j * p + l] * m_inv_p[l * p + j])
            .sum();
        let tr_mq: f64 = (0..p)
            .map(|j| (0..p).map(|l| inv[j * p + l] * qm[l * p + j]).sum::<f64>())
            .sum();
        let h_tt = 0.5 * sum_n2a2 + 0.5 * tr_mpmp
            - 0.5 * tr_mq
            - 0.5 * fac * (d_sum / q - b_sum * b_sum / (q * q));
        let gamma = -h_tt;
        let scale = q / fac;
        let e: Vec<f64> = c.iter().map(|v| fac / q * v).collect();
        let u: Vec<f64> = (0..p)
            .map(|j| scale * dot(&inv[j * p..(j + 1) * p], &e))
            .collect();
        let schur = gamma - dot(&e, &u);
        if schur.is_nan() || schur <= 0.0 {
            return Err(MixedError::HessianNotDefinite);
        }
        let mut cov: Vec<f64> = inv.iter().map(|v| v * scale).collect();
        for j in 0..p {
            for l in 0..p {
                cov[j * p + l] += u[j] * u[l] / schur;
            }
        }
        Ok(cov)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toy() -> MixedData {
        let mut d = MixedData::new(vec!["Intercept".into(), "x".into()]);
        let ys = [
            ("a", 1.0, 2.1),
            ("a", 2.0, 2.9),
            ("a", 3.0, 4.2),
            ("b", 1.0, 3.5),
            ("b", 2.0, 4.4),
            ("c", 1.0, 0.9),
            ("c", 2.0, 2.2),
            ("c", 3.0, 2.8),
            ("c", 4.0, 4.1),
            ("d", 2.0, 3.9),
        ];
        for (g, x, y) in ys {
            d.push(g, &[1.0, x], y).unwrap();
        }
        d
    }

    #[test]
    fn score_is_the_derivative_of_the_restricted_likelihood() {
        let d = toy();
        for theta in [0.0, 0.05, 0.3, 1.0, 4.0] {
            let h = 1e-6 * (1.0 + theta);
            let up = profile(&d, theta + h).unwrap().log_likelihood;
            let at = profile(&d, theta).unwrap();
            let numeric = if theta == 0.0 {
                (up - at.log_likelihood) / h
            } else {
                (up - profile(&d, theta - h).unwrap().log_likelihood) / (2.0 * h)
            };
            let tol = if theta == 0.0 { 1e-4 } else { 1e-7 };
            assert!(
                (numeric - at.score).abs() <= tol * (1.0 + at.score.abs()),
                "theta {theta}: numeric {numeric}, analytic {}",
                at.score
            );
        }
    }

    #[test]
    fn a_large_variance_ratio_is_found_inside_the_grid() {
        // Group means spread by ~10, within-group noise ~0.01: θ̂ is of order 10⁵–10⁶.
        let mut d = MixedData::new(vec!["Intercept".into(), "x".into()]);
        let wiggle = [0.013, -0.007, 0.002, -0.011, 0.009];
        for g in 0..6 {
            for (i, w) in wiggle.iter().enumerate() {
                let y = 10.0 * ((g * 7) % 5) as f64 + 0.5 * i as f64 + w * (g + 1) as f64;
                d.push(&format!("g{g}"), &[1.0, i as f64], y).unwrap();
            }
        }
        let fit = reml(&d).unwrap();
        assert!(fit.converged && !fit.boundary, "{fit:?}");
        assert!(
            fit.variance_ratio > 1e4 && fit.variance_ratio < 1e8,
            "{fit:?}"
        );
        let at = profile(&d, fit.variance_ratio).unwrap();
        // At the maximum the score is zero up to rounding of its O(N) terms.
        assert!(at.score.abs() * fit.variance_ratio < 1e-6, "{}", at.score);
        for factor in [0.999, 1.001] {
            let near = profile(&d, fit.variance_ratio * factor).unwrap();
            assert!(near.log_likelihood < at.log_likelihood);
        }
    }
}
