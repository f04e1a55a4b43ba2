//! The cumulative logit (proportional odds) model for ratings on an ordered scale, fitted by
//! maximum likelihood: statsmodels' `OrderedModel(endog, exog, distr="logit")`.
//!
//! The types and functions that matter:
//! - [`OrdinalData`]: per observation a design row, a category and a cluster (the annotator);
//!   [`OrdinalData::by_system`] builds the common design `score ~ system` from
//!   [`SystemRating`]s. Identical observations are stored once with a count;
//! - [`fit`]: the fit, an [`OrdinalFit`] with statsmodels' `params`, the cut points, the
//!   log-likelihood, the model covariance and the covariance clustered by annotator;
//! - [`OrdinalFit::estimates`], [`OrdinalFit::coefficients`], [`OrdinalFit::cut_points`] (each
//!   an [`Estimate`]: value, standard error, z, p) and [`OrdinalFit::odds_ratios`] (every pair
//!   of systems, [`OddsRatio`]), each under either [`Covariance`].
//!
//! # Model
//! For an observation with category y ∈ {0, …, K−1} (K ≥ 2) and design row x (no intercept: the
//! cut points play its part), P(y ≤ j | x) = F(c_j − xᵀβ) for j = 0..K−2, with F(t) = 1/(1 + e⁻ᵗ)
//! and cut points c_0 < … < c_{K−2}. A larger xᵀβ moves the ratings up the scale.
//!
//! Parameters, in statsmodels' order and parametrisation: θ = [β_1..β_p, a_0, a_1, …, a_{K−2}]
//! with c_0 = a_0 and c_j = c_{j−1} + exp(a_j), so the cut points stay ordered for any θ. The
//! threshold parameters are named `<category j>/<category j+1>` as statsmodels names them.
//!
//! # Log-likelihood and derivatives
//! With u = c_y − xᵀβ (u = +∞ for y = K−1) and l = c_{y−1} − xᵀβ (l = −∞ for y = 0), an
//! observation contributes ℓ = ln(F(u) − F(l)), computed without cancellation as
//! ℓ = ln F(u) + ln F(−l) + ln(1 − e^{−(u−l)}). In (u, l), with d = u − l and
//! r = e^{−d}/(1 − e^{−d}):
//! - ℓ_u = F(−u) + r, ℓ_l = −F(l) − r;
//! - ℓ_uu = −F(u)F(−u) − s, ℓ_ll = −F(l)F(−l) − s, ℓ_ul = s, with s = e^{−d}/(1 − e^{−d})²;
//!
//! (only the terms of the finite bound remain at the ends). By the chain rule, ∂u/∂β = ∂l/∂β =
//! −x, ∂c_j/∂a_0 = 1 and ∂c_j/∂a_m = e^{a_m} for 1 ≤ m ≤ j (0 otherwise), ∂²c_j/∂a_m² = e^{a_m}
//! for 1 ≤ m ≤ j; so the score is Σ w (ℓ_u ∇u + ℓ_l ∇l) and the Hessian
//! Σ w (ℓ_uu ∇u∇uᵀ + ℓ_ll ∇l∇lᵀ + ℓ_ul (∇u∇lᵀ + ∇l∇uᵀ) + ℓ_u ∇²u + ℓ_l ∇²l), summed over the
//! distinct (design row, category) cells with w their counts: 480,000 ratings of 8 systems on a
//! 5-point scale are 40 cells, and a fit takes milliseconds after the counting.
//!
//! # Fit
//! Newton–Raphson on θ from statsmodels' start (β = 0; c_j = logit of the cumulative share of
//! categories 0..j), with the analytic score and Hessian. The step solves −H δ = g (when −H is
//! not positive definite, a multiple of the identity is added until it is); the step is halved
//! until the log-likelihood does not fall (by more than 1e-12 relative, its rounding), at most
//! 40 times. The fit has converged when a full Newton step is below [`STEP_TOL`] in every
//! parameter (logits and log increments); the step is taken and the fit stops. At most
//! [`MAX_ITERATIONS`] steps; [`OrdinalFit::converged`] says whether the rule was met.
//!
//! The maximum likelihood estimate does not exist under (quasi-)complete separation: a system
//! whose every rating is the top (or bottom) category, or systems whose ratings do not overlap
//! on the scale. Newton's iterates then run off to infinity in that direction; a coefficient or
//! cut point beyond ±[`DIVERGENCE`] on the logit scale stops the fit with
//! [`OrdinalError::Separation`] (a real effect that large means odds of e³⁰). The builder
//! names a system rated only at an end of the scale before fitting.
//!
//! # Covariances
//! - [`Covariance::Model`]: V = (−H)⁻¹ at θ̂, statsmodels' `cov_params()` (it differentiates
//!   numerically; this is the exact Hessian).
//! - [`Covariance::Cluster`]: statsmodels' `fit(cov_type="cluster", cov_kwds={"groups": g})`,
//!   which `GenericLikelihoodModel` hands to `sandwich_covariance.cov_cluster` with
//!   `use_correction=True`: V_c = V (Σ_g s_g s_gᵀ) V · G/(G−1) · (N−1)/(N−k), with s_g the sum
//!   of annotator g's per-observation scores, G annotators, N ratings and k = p + K − 1 all
//!   parameters (coefficients and thresholds). The p-values stay normal (statsmodels' `use_t`
//!   is False for this model).
//! - The cut points' covariance is J V_a Jᵀ (the delta method), V_a the threshold block of V
//!   or V_c and J = ∂c/∂a as above.
//!
//! z = estimate / se and p = 2 (1 − Φ(|z|)) throughout.
//!
//! # Odds ratios
//! Between levels a and b of the factor (systems; the reference has β = 0), the log odds ratio
//! is β_a − β_b with variance V_aa + V_bb − 2V_ab, the 95% interval exp(β_a − β_b ± 1.959964·se).
//! Since P(y ≤ j) = F(c_j − xβ), OR(a vs b) > 1 means a is more likely than b to be rated
//! above any point of the scale: the odds of a higher rating for a are OR times those for b,
//! at every cut point alike (the proportional odds assumption).
//!
//! # Conventions
//! The categories are the values actually used, in ascending order ([`OrdinalData::by_system`]
//! maps the scores used to 0..K−1, so an unused score in the middle of the scale is no
//! category; [`OrdinalData::push`] requires every category to be used); clusters are numbered
//! in order of first appearance; every input must be finite; an input that cannot give a fit
//! is an [`OrdinalError`] saying what to do, never NaN and never a panic.
//!
//! # Reference
//! statsmodels' `OrderedModel` on three seeded data sets (balanced 4 systems × 5-point scale ×
//! 20 annotators; unbalanced, 3 systems on a 7-point scale with an unused score and rare ends;
//! binary): `crates/juror-core/tests/it/ordinal.rs` reads
//! `crates/juror-core/tests/reference/ordinal/reference.json`, written by `make_reference.py`
//! beside it (library versions in the file). statsmodels differentiates numerically (its
//! standard errors are off by up to 4e-6 relative from the exact ones), so the expected values
//! are OrderedModel with its score and Hessian replaced by the analytic ones, run through
//! statsmodels' own optimizers and covariance code. Tolerance 1e-6 relative, as for every
//! iterative fit; the measured differences are at most 1.3e-13 (parameters and cut points
//! 1.3e-13, log-likelihood 1.7e-16, standard errors 1.4e-14, clustered 2.0e-14, cut points'
//! 6.3e-15 and 1.4e-14); from plain OrderedModel they are 1.8e-7 (parameters) and 3.9e-6
//! (standard errors), its numerical derivatives' error, checked within 1e-5.
//!
//! The likelihood and its derivatives are in `ordinal/likelihood.rs`, the dense linear algebra
//! is the mixed model's (`mixed/linalg.rs`).
//!
//! # Speed
//! Building the data from 480,000 ratings (8 systems, 5 categories, 300 annotators) takes
//! about 36 ms natively in release, the fit 0.2 ms (the ignored test `timing_480k_ratings`).

use std::collections::HashMap;
use std::fmt;

use super::describe::Interval;
use super::math::Portable;
use super::mixed::linalg::{Cholesky, matmul};
use super::special;

mod likelihood;
#[cfg(test)]
mod tests;

use likelihood::{Evaluation, Model};

/// The fit has converged when a full Newton step is below this in every parameter.
pub const STEP_TOL: f64 = 1e-10;

/// Newton steps at most.
pub const MAX_ITERATIONS: usize = 100;

/// A coefficient or cut point beyond ± this (logit scale) is taken as running off to infinity:
/// the maximum likelihood estimate does not exist.
pub const DIVERGENCE: f64 = 30.0;

/// Halvings of a Newton step at most.
const MAX_HALVINGS: usize = 40;

/// A step may lower the log-likelihood by this much relative (its rounding) and still count.
const RISE_TOL: f64 = 1e-12;

// ---------------------------------------------------------------------------------------------
// Errors
// ---------------------------------------------------------------------------------------------

/// Why an ordinal model could not be built or fitted. Each says where and what to do.
#[derive(Debug, Clone, PartialEq)]
pub enum OrdinalError {
    /// Fewer than two categories given or used.
    TooFewCategories { used: usize },
    /// A category with no observation (only through [`OrdinalData::push`]).
    EmptyCategory { category: String },
    /// A category index at or past the number of categories.
    CategoryOutOfRange {
        /// Position of the observation, from 0.
        index: usize,
        category: usize,
        categories: usize,
    },
    /// A design row whose length is not the number of columns.
    RowLength {
        index: usize,
        expected: usize,
        got: usize,
    },
    /// A covariate is NaN or infinite.
    NotFinite {
        index: usize,
        column: String,
        value: f64,
    },
    /// [`OrdinalData::by_system`] was given no systems.
    NoSystems,
    /// A system listed twice in the builder's order.
    DuplicateSystem { system: String },
    /// A rating of a system that is not in the builder's list.
    UnknownSystem { index: usize, system: String },
    /// A system in the builder's list with no rating.
    Unrated { system: String },
    /// Every rating of a system is the top (or the bottom) category: its coefficient would be
    /// infinite.
    ExtremeSystem {
        system: String,
        /// The category every rating of it has.
        category: String,
        top: bool,
    },
    /// No more observations than parameters.
    TooFewObservations { n: usize, parameters: usize },
    /// A column is (numerically) a linear combination of earlier ones.
    Collinear { column: String },
    /// The columns contain a constant (an intercept), which the cut points already are.
    ContainsConstant,
    /// Newton's iterates run off to infinity: the maximum likelihood estimate does not exist.
    Separation { parameter: String, value: f64 },
    /// The information matrix is singular at the estimates.
    Singular,
    /// Clustered standard errors need at least two clusters.
    TooFewClusters { clusters: usize },
}

impl fmt::Display for OrdinalError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OrdinalError::TooFewCategories { used } => write!(
                f,
                "{used} category(ies) used: an ordinal model needs ratings in at least 2 \
                 categories of the scale"
            ),
            OrdinalError::EmptyCategory { category } => write!(
                f,
                "category \"{category}\" has no observation: number the categories actually \
                 used from 0 (OrdinalData::by_system does this), or merge it with a neighbour"
            ),
            OrdinalError::CategoryOutOfRange {
                index,
                category,
                categories,
            } => write!(
                f,
                "observation {index}: category {category} is not below the number of \
                 categories ({categories}); number the categories from 0"
            ),
            OrdinalError::RowLength {
                index,
                expected,
                got,
            } => write!(
                f,
                "observation {index}: the design row has {got} values, expected one per \
                 column ({expected})"
            ),
            OrdinalError::NotFinite {
                index,
                column,
                value,
            } => write!(
                f,
                "observation {index}: {column} is {value}; remove or fix the value (every \
                 input must be finite)"
            ),
            OrdinalError::NoSystems => write!(f, "no systems given; list them, reference first"),
            OrdinalError::DuplicateSystem { system } => {
                write!(
                    f,
                    "system \"{system}\" is listed twice; list each system once"
                )
            }
            OrdinalError::UnknownSystem { index, system } => write!(
                f,
                "ratings[{index}]: system \"{system}\" is not in the list of systems; add it \
                 or drop the rating"
            ),
            OrdinalError::Unrated { system } => write!(
                f,
                "system \"{system}\" has no ratings; drop it from the list of systems"
            ),
            OrdinalError::ExtremeSystem {
                system,
                category,
                top,
            } => write!(
                f,
                "every rating of system \"{system}\" is {category}, the {} of the scale used: \
                 its odds ratio is infinite and the model has no estimate; report its ratings \
                 descriptively, or drop the system from the model",
                if *top { "top" } else { "bottom" }
            ),
            OrdinalError::TooFewObservations { n, parameters } => write!(
                f,
                "{n} observations for {parameters} parameters (coefficients and cut points): \
                 collect more ratings or use fewer categories"
            ),
            OrdinalError::Collinear { column } => write!(
                f,
                "column \"{column}\" is a linear combination of earlier columns; drop it or \
                 collect ratings that separate it"
            ),
            OrdinalError::ContainsConstant => write!(
                f,
                "the columns contain a constant (an intercept, or a full set of dummies): the \
                 cut points already play that part; drop the intercept or one dummy"
            ),
            OrdinalError::Separation { parameter, value } => write!(
                f,
                "the maximum likelihood estimate does not exist: {parameter} runs off to \
                 infinity (reached {value:.1}): the ratings are separated (e.g. one system's \
                 ratings all lie above another's, or at an end of the scale); merge \
                 categories, drop the system, or collect more ratings"
            ),
            OrdinalError::Singular => write!(
                f,
                "the information matrix is singular at the estimates: a coefficient or cut \
                 point is not identified by these ratings; merge rare categories or drop a \
                 column"
            ),
            OrdinalError::TooFewClusters { clusters } => write!(
                f,
                "{clusters} cluster(s): clustered standard errors need ratings from at least \
                 2 annotators; use Covariance::Model"
            ),
        }
    }
}

impl std::error::Error for OrdinalError {}

// ---------------------------------------------------------------------------------------------
// Data
// ---------------------------------------------------------------------------------------------

/// Identical observations, counted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Cell {
    /// Index of the distinct design row.
    row: usize,
    category: usize,
    cluster: usize,
    count: usize,
}

/// Observations for an ordinal model: a design row, a category and a cluster each, stored as
/// counts of distinct (design row, category, cluster) triples.
#[derive(Debug, Clone, PartialEq)]
pub struct OrdinalData {
    columns: Vec<String>,
    categories: Vec<String>,
    /// The factor level with every column 0, and the level of each column (for odds ratios).
    baseline: String,
    levels: Vec<String>,
    clusters: Vec<String>,
    cluster_index: HashMap<String, usize>,
    /// The distinct design rows, row-major.
    rows: Vec<f64>,
    row_index: HashMap<Vec<u64>, usize>,
    cells: Vec<Cell>,
    cell_index: HashMap<(usize, usize, usize), usize>,
    n_obs: usize,
}

/// One rating for [`OrdinalData::by_system`]: an annotator gave a system's output a score.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SystemRating<'a> {
    pub system: &'a str,
    /// The score on the scale (e.g. 1..5); the distinct scores used are the categories.
    pub score: i64,
    pub annotator: &'a str,
}

impl OrdinalData {
    /// No observations yet, with the names of the columns (no intercept) and of the K
    /// categories in order. For odds ratios the columns are read as dummies of one factor's
    /// levels, named by the columns, against a baseline level `baseline` (every column 0).
    ///
    /// # Errors
    /// Fewer than 2 categories.
    pub fn new(columns: Vec<String>, categories: Vec<String>) -> Result<Self, OrdinalError> {
        if categories.len() < 2 {
            return Err(OrdinalError::TooFewCategories {
                used: categories.len(),
            });
        }
        Ok(OrdinalData {
            levels: columns.clone(),
            columns,
            categories,
            baseline: "baseline".to_string(),
            clusters: Vec::new(),
            cluster_index: HashMap::new(),
            rows: Vec::new(),
            row_index: HashMap::new(),
            cells: Vec::new(),
            cell_index: HashMap::new(),
            n_obs: 0,
        })
    }

    /// Adds one observation: category `category` (0..K−1) with design row `row`, in cluster
    /// `cluster` (the annotator).
    ///
    /// # Errors
    /// `row` does not have one value per column, a value is not finite, or the category is out
    /// of range. Nothing is added then.
    pub fn push(
        &mut self,
        cluster: &str,
        row: &[f64],
        category: usize,
    ) -> Result<(), OrdinalError> {
        let index = self.n_obs;
        if row.len() != self.columns.len() {
            return Err(OrdinalError::RowLength {
                index,
                expected: self.columns.len(),
                got: row.len(),
            });
        }
        if let Some(j) = row.iter().position(|v| !v.is_finite()) {
            return Err(OrdinalError::NotFinite {
                index,
                column: self.columns[j].clone(),
                value: row[j],
            });
        }
        if category >= self.categories.len() {
            return Err(OrdinalError::CategoryOutOfRange {
                index,
                category,
                categories: self.categories.len(),
            });
        }
        let row = self.row_id(row);
        let cluster = self.cluster_id(cluster);
        self.add(row, category, cluster);
        Ok(())
    }

    /// The index of a design row, added if new (−0 and 0 are one value).
    fn row_id(&mut self, row: &[f64]) -> usize {
        let key: Vec<u64> = row.iter().map(|v| (v + 0.0).to_bits()).collect();
        if let Some(&id) = self.row_index.get(&key) {
            return id;
        }
        let id = self.row_index.len();
        self.row_index.insert(key, id);
        self.rows.extend_from_slice(row);
        id
    }

    fn cluster_id(&mut self, cluster: &str) -> usize {
        if let Some(&id) = self.cluster_index.get(cluster) {
            return id;
        }
        let id = self.clusters.len();
        self.clusters.push(cluster.to_string());
        self.cluster_index.insert(cluster.to_string(), id);
        id
    }

    fn add(&mut self, row: usize, category: usize, cluster: usize) {
        let next = self.cells.len();
        let at = *self
            .cell_index
            .entry((row, category, cluster))
            .or_insert(next);
        if at == next {
            self.cells.push(Cell {
                row,
                category,
                cluster,
                count: 0,
            });
        }
        self.cells[at].count += 1;
        self.n_obs += 1;
    }

    /// The design `score ~ system` with treatment coding against `systems[0]`, the reference:
    /// columns `system[T.s]` for the other systems in the given order, as patsy names them.
    /// The categories are the distinct scores used, ascending (named by the scores, so the
    /// thresholds read `1/2`, `2/3`, … as in statsmodels); the clusters are the annotators.
    ///
    /// # Errors
    /// No systems or a system listed twice; a rating of a system not listed (with its
    /// position); a listed system with no ratings; fewer than 2 distinct scores; a system
    /// whose every rating is the top or the bottom score used ([`OrdinalError::ExtremeSystem`]:
    /// its coefficient would be infinite).
    pub fn by_system(
        systems: &[&str],
        ratings: &[SystemRating<'_>],
    ) -> Result<OrdinalData, OrdinalError> {
        let (first, rest) = systems.split_first().ok_or(OrdinalError::NoSystems)?;
        let mut position: HashMap<&str, usize> = HashMap::new();
        for (j, s) in systems.iter().enumerate() {
            if position.insert(s, j).is_some() {
                return Err(OrdinalError::DuplicateSystem {
                    system: s.to_string(),
                });
            }
        }
        let mut which = Vec::with_capacity(ratings.len());
        for (index, r) in ratings.iter().enumerate() {
            let j = position
                .get(r.system)
                .ok_or_else(|| OrdinalError::UnknownSystem {
                    index,
                    system: r.system.to_string(),
                })?;
            which.push(*j);
        }
        let mut scores: Vec<i64> = ratings.iter().map(|r| r.score).collect();
        scores.sort_unstable();
        scores.dedup();
        let columns = rest.iter().map(|s| format!("system[T.{s}]")).collect();
        let names = scores.iter().map(|s| s.to_string()).collect();
        let mut data = OrdinalData::new(columns, names)?;
        data.baseline = first.to_string();
        data.levels = rest.iter().map(|s| s.to_string()).collect();
        // Row j is system j's design row (zeros for the reference).
        let k = systems.len();
        for j in 0..k {
            let mut row = vec![0.0; k - 1];
            if j > 0 {
                row[j - 1] = 1.0;
            }
            data.row_id(&row);
        }
        let mut range = vec![(usize::MAX, 0usize); k];
        for (r, &j) in ratings.iter().zip(&which) {
            let category = scores.binary_search(&r.score).unwrap_or(0);
            let cluster = data.cluster_id(r.annotator);
            data.add(j, category, cluster);
            range[j] = (range[j].0.min(category), range[j].1.max(category));
        }
        let top = scores.len() - 1;
        for (j, &(low, high)) in range.iter().enumerate() {
            let system = systems[j].to_string();
            if low == usize::MAX {
                return Err(OrdinalError::Unrated { system });
            }
            if low == high && (low == 0 || low == top) {
                return Err(OrdinalError::ExtremeSystem {
                    system,
                    category: data.categories[low].clone(),
                    top: low == top,
                });
            }
        }
        Ok(data)
    }

    /// The names of the columns.
    pub fn columns(&self) -> &[String] {
        &self.columns
    }

    /// The names of the categories, in order.
    pub fn categories(&self) -> &[String] {
        &self.categories
    }

    /// The cluster labels, in order of first appearance.
    pub fn clusters(&self) -> &[String] {
        &self.clusters
    }

    /// The number of observations.
    pub fn n_obs(&self) -> usize {
        self.n_obs
    }

    /// The number of distinct (design row, category, cluster) triples stored.
    pub fn n_cells(&self) -> usize {
        self.cells.len()
    }

    fn row(&self, r: usize) -> &[f64] {
        let p = self.columns.len();
        &self.rows[r * p..(r + 1) * p]
    }
}

// ---------------------------------------------------------------------------------------------
// Results
// ---------------------------------------------------------------------------------------------

/// Which covariance the standard errors come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Covariance {
    /// (−H)⁻¹, the inverse of the observed information.
    #[default]
    Model,
    /// The sandwich clustered by annotator, with statsmodels' small-sample correction
    /// G/(G−1) · (N−1)/(N−k).
    Cluster,
}

/// An estimate with its standard error, z = estimate / se and the two-sided normal p-value.
#[derive(Debug, Clone, PartialEq)]
pub struct Estimate {
    pub name: String,
    pub estimate: f64,
    pub se: f64,
    pub z: f64,
    pub p_value: f64,
}

/// The odds ratio of a higher rating for level `a` against level `b`.
#[derive(Debug, Clone, PartialEq)]
pub struct OddsRatio {
    pub a: String,
    pub b: String,
    /// β_a − β_b.
    pub log_odds_ratio: f64,
    pub se: f64,
    /// exp(β_a − β_b): above 1, a is rated higher than b.
    pub odds_ratio: f64,
    /// The 95% interval of the odds ratio, exp(log OR ± 1.959964·se).
    pub interval: Interval,
    pub z: f64,
    pub p_value: f64,
}

/// A maximum likelihood fit of the cumulative logit model.
#[derive(Debug, Clone, PartialEq)]
pub struct OrdinalFit {
    /// statsmodels' `params.index`: the columns, then the thresholds `<j>/<j+1>`.
    pub names: Vec<String>,
    /// statsmodels' `params`: [β…, c_0, ln(c_1 − c_0), …].
    pub params: Vec<f64>,
    /// The cut points c_0 < … < c_{K−2}.
    pub cut_points: Vec<f64>,
    /// The log-likelihood at the estimates (statsmodels' `llf`).
    pub log_likelihood: f64,
    /// (−H)⁻¹ in `params`' order, k × k row-major (statsmodels' `cov_params()`).
    pub covariance: Vec<f64>,
    /// The covariance clustered by annotator (`cov_type="cluster"`); None with fewer than 2
    /// clusters.
    pub cluster_covariance: Option<Vec<f64>>,
    /// The number of coefficients p (the columns).
    pub n_columns: usize,
    pub n_obs: usize,
    pub n_clusters: usize,
    /// The factor's baseline level (the reference system) and the level of each column.
    pub baseline: String,
    pub levels: Vec<String>,
    /// Newton steps taken.
    pub iterations: usize,
    /// The stopping rule was met (see the module doc).
    pub converged: bool,
    /// max |∂ℓ/∂θ| at the estimates.
    pub max_abs_score: f64,
}

fn estimate(name: String, value: f64, variance: f64) -> Estimate {
    let se = variance.max(0.0).sqrt();
    let z = value / se;
    Estimate {
        name,
        estimate: value,
        se,
        z,
        p_value: 2.0 * special::normal_sf(z.abs()),
    }
}

impl OrdinalFit {
    /// The covariance of `params` of the given kind, k × k row-major.
    ///
    /// # Errors
    /// [`Covariance::Cluster`] with fewer than two clusters.
    pub fn covariance_of(&self, kind: Covariance) -> Result<&[f64], OrdinalError> {
        match kind {
            Covariance::Model => Ok(&self.covariance),
            Covariance::Cluster => {
                self.cluster_covariance
                    .as_deref()
                    .ok_or(OrdinalError::TooFewClusters {
                        clusters: self.n_clusters,
                    })
            }
        }
    }

    /// Every parameter in statsmodels' order and parametrisation (`params`, `bse`, `tvalues`,
    /// `pvalues`).
    ///
    /// # Errors
    /// As [`OrdinalFit::covariance_of`].
    pub fn estimates(&self, kind: Covariance) -> Result<Vec<Estimate>, OrdinalError> {
        let v = self.covariance_of(kind)?;
        let k = self.params.len();
        Ok((0..k)
            .map(|i| estimate(self.names[i].clone(), self.params[i], v[i * k + i]))
            .collect())
    }

    /// The coefficients β, named by the columns.
    ///
    /// # Errors
    /// As [`OrdinalFit::covariance_of`].
    pub fn coefficients(&self, kind: Covariance) -> Result<Vec<Estimate>, OrdinalError> {
        let mut all = self.estimates(kind)?;
        all.truncate(self.n_columns);
        Ok(all)
    }

    /// The cut points c_j, named by their thresholds, with standard errors by the delta method.
    ///
    /// # Errors
    /// As [`OrdinalFit::covariance_of`].
    pub fn cut_points(&self, kind: Covariance) -> Result<Vec<Estimate>, OrdinalError> {
        let v = self.covariance_of(kind)?;
        let (p, k) = (self.n_columns, self.params.len());
        let jac = cut_jacobian(&self.params[p..]);
        let m = k - p;
        Ok((0..m)
            .map(|j| {
                let mut var = 0.0;
                for a in 0..m {
                    for b in 0..m {
                        var += jac[j * m + a] * v[(p + a) * k + p + b] * jac[j * m + b];
                    }
                }
                estimate(self.names[p + j].clone(), self.cut_points[j], var)
            })
            .collect())
    }

    /// The odds ratio of a higher rating for every pair of levels (systems): for levels in the
    /// order baseline, then the columns' levels, each later level a against each earlier b
    /// (so the first are the systems against the reference, exp of their coefficients).
    ///
    /// # Errors
    /// As [`OrdinalFit::covariance_of`].
    pub fn odds_ratios(&self, kind: Covariance) -> Result<Vec<OddsRatio>, OrdinalError> {
        let v = self.covariance_of(kind)?;
        let k = self.params.len();
        let z95 = special::normal_quantile(0.975);
        let names: Vec<&String> = std::iter::once(&self.baseline)
            .chain(&self.levels)
            .collect();
        // Level i's coefficient: none for the baseline, column i − 1 otherwise.
        let beta = |i: usize| if i == 0 { 0.0 } else { self.params[i - 1] };
        let cov = |i: usize, j: usize| {
            if i == 0 || j == 0 {
                0.0
            } else {
                v[(i - 1) * k + (j - 1)]
            }
        };
        let mut out = Vec::new();
        for b in 0..names.len() {
            for a in b + 1..names.len() {
                let d = beta(a) - beta(b);
                let se = (cov(a, a) + cov(b, b) - 2.0 * cov(a, b)).max(0.0).sqrt();
                let z = d / se;
                out.push(OddsRatio {
                    a: names[a].clone(),
                    b: names[b].clone(),
                    log_odds_ratio: d,
                    se,
                    odds_ratio: d.exp_p(),
                    interval: Interval {
                        low: (d - z95 * se).exp_p(),
                        high: (d + z95 * se).exp_p(),
                    },
                    z,
                    p_value: 2.0 * special::normal_sf(z.abs()),
                });
            }
        }
        Ok(out)
    }
}

/// ∂c/∂a for threshold parameters a (m × m row-major): 1 in column 0, e^{a_j} in column j for
/// 1 ≤ j ≤ row.
fn cut_jacobian(a: &[f64]) -> Vec<f64> {
    let m = a.len();
    let mut jac = vec![0.0; m * m];
    for row in 0..m {
        jac[row * m] = 1.0;
        for j in 1..=row {
            jac[row * m + j] = a[j].exp_p();
        }
    }
    jac
}

/// The cut points of threshold parameters a: c_0 = a_0, c_j = c_{j−1} + e^{a_j}.
fn cut_points_of(a: &[f64]) -> Vec<f64> {
    let mut c = Vec::with_capacity(a.len());
    for (j, &aj) in a.iter().enumerate() {
        let next = if j == 0 { aj } else { c[j - 1] + aj.exp_p() };
        c.push(next);
    }
    c
}

// ---------------------------------------------------------------------------------------------
// The fit
// ---------------------------------------------------------------------------------------------

/// Checks what a fit needs of the data: every category used, more observations than
/// parameters, and columns that are neither collinear nor contain a constant.
fn check(data: &OrdinalData, model: &Model<'_>) -> Result<(), OrdinalError> {
    let kk = data.categories.len();
    let mut used = vec![false; kk];
    for c in &model.pooled {
        used[c.category] = true;
    }
    if let Some(j) = used.iter().position(|u| !u) {
        return Err(OrdinalError::EmptyCategory {
            category: data.categories[j].clone(),
        });
    }
    let k = model.k();
    if data.n_obs <= k {
        return Err(OrdinalError::TooFewObservations {
            n: data.n_obs,
            parameters: k,
        });
    }
    // The weighted Gram matrix of [x, 1] over the observations.
    let p = model.p;
    let q = p + 1;
    let mut gram = vec![0.0; q * q];
    for c in &model.pooled {
        let mut z = data.row(c.row).to_vec();
        z.push(1.0);
        for i in 0..q {
            for j in 0..q {
                gram[i * q + j] += c.count * z[i] * z[j];
            }
        }
    }
    match Cholesky::new(&gram, q) {
        Ok(_) => Ok(()),
        Err(j) if j < p => Err(OrdinalError::Collinear {
            column: data.columns[j].clone(),
        }),
        Err(_) => Err(OrdinalError::ContainsConstant),
    }
}

/// statsmodels' start: β = 0, c_j the logit of the cumulative share of categories 0..j.
fn start(model: &Model<'_>) -> Vec<f64> {
    let mut counts = vec![0.0; model.m + 1];
    for c in &model.pooled {
        counts[c.category] += c.count;
    }
    let n: f64 = counts.iter().sum();
    let mut theta = vec![0.0; model.k()];
    let mut cum = 0.0;
    let mut previous = 0.0;
    for j in 0..model.m {
        cum += counts[j];
        let share = cum / n;
        let c = share.ln_p() - (1.0 - share).ln_p();
        theta[model.p + j] = if j == 0 { c } else { (c - previous).ln_p() };
        previous = c;
    }
    theta
}

/// The Newton step δ solving (−H) δ = g, with −H made positive definite by adding a multiple
/// of the identity where it is not.
fn newton_step(at: &Evaluation, k: usize) -> Result<Vec<f64>, OrdinalError> {
    let mut neg: Vec<f64> = at.hessian.iter().map(|h| -h).collect();
    let scale = (0..k).map(|i| neg[i * k + i].abs()).fold(0.0, f64::max);
    let mut added = 0.0;
    for shift in [0.0, 1e-8, 1e-6, 1e-4, 1e-2, 1.0, 1e2] {
        for i in 0..k {
            neg[i * k + i] += (shift - added) * scale;
        }
        added = shift;
        if let Ok(chol) = Cholesky::new(&neg, k) {
            return Ok(chol.solve(&at.score));
        }
    }
    Err(OrdinalError::Singular)
}

/// The parameter furthest beyond ±[`DIVERGENCE`] (coefficients and cut points), if any.
fn divergence(theta: &[f64], p: usize, names: &[String]) -> Option<OrdinalError> {
    let cuts = cut_points_of(&theta[p..]);
    let values = theta[..p].iter().chain(&cuts);
    let (at, value) = values
        .enumerate()
        .max_by(|a, b| a.1.abs().total_cmp(&b.1.abs()))?;
    if value.is_finite() && value.abs() <= DIVERGENCE {
        return None;
    }
    let parameter = if at < p {
        format!("the coefficient of {}", names[at])
    } else {
        format!("the cut point {}", names[at])
    };
    Some(OrdinalError::Separation {
        parameter,
        value: *value,
    })
}

/// Threshold names `<j>/<j+1>` after the columns.
fn names(data: &OrdinalData) -> Vec<String> {
    let c = &data.categories;
    data.columns
        .iter()
        .cloned()
        .chain(c.windows(2).map(|w| format!("{}/{}", w[0], w[1])))
        .collect()
}

/// Fits the cumulative logit model by maximum likelihood (Newton–Raphson; see the module doc
/// for the model, the stopping rule and the covariances).
///
/// # Errors
/// A category with no observation, no more observations than parameters, collinear columns or
/// a constant among them; [`OrdinalError::Separation`] when the estimates run off to infinity
/// (the maximum likelihood estimate does not exist); [`OrdinalError::Singular`] when the
/// information matrix cannot be inverted.
pub fn fit(data: &OrdinalData) -> Result<OrdinalFit, OrdinalError> {
    let model = Model::new(data);
    check(data, &model)?;
    let (p, k) = (model.p, model.k());
    let names = names(data);
    let mut theta = start(&model);
    let mut at = model.evaluate(&theta);
    let mut converged = false;
    let mut iterations = 0;
    while iterations < MAX_ITERATIONS && !converged {
        iterations += 1;
        let step = newton_step(&at, k)?;
        converged = step.iter().all(|s| s.abs() <= STEP_TOL);
        let floor = at.ll - RISE_TOL * at.ll.abs().max(1.0);
        let mut t = 1.0;
        let mut moved = false;
        for _ in 0..MAX_HALVINGS {
            let next: Vec<f64> = theta.iter().zip(&step).map(|(v, s)| v + t * s).collect();
            let ll = model.log_likelihood(&next);
            if ll.is_finite() && ll >= floor {
                theta = next;
                moved = true;
                break;
            }
            t *= 0.5;
        }
        if let Some(e) = divergence(&theta, p, &names) {
            return Err(e);
        }
        if !moved {
            break;
        }
        at = model.evaluate(&theta);
    }
    let neg: Vec<f64> = at.hessian.iter().map(|h| -h).collect();
    let covariance = Cholesky::new(&neg, k)
        .map_err(|_| OrdinalError::Singular)?
        .inverse();
    let g = data.clusters.len();
    let cluster_covariance = (g >= 2).then(|| {
        let meat = model.cluster_meat(&theta);
        let (gf, nf, kf) = (g as f64, data.n_obs as f64, k as f64);
        let factor = gf / (gf - 1.0) * ((nf - 1.0) / (nf - kf));
        let half = matmul(&covariance, &meat, k);
        matmul(&half, &covariance, k)
            .into_iter()
            .map(|v| v * factor)
            .collect()
    });
    Ok(OrdinalFit {
        names,
        cut_points: cut_points_of(&theta[p..]),
        log_likelihood: at.ll,
        covariance,
        cluster_covariance,
        n_columns: p,
        n_obs: data.n_obs,
        n_clusters: g,
        baseline: data.baseline.clone(),
        levels: data.levels.clone(),
        iterations,
        converged,
        max_abs_score: at.score.iter().fold(0.0, |m, s| m.max(s.abs())),
        params: theta,
    })
}
