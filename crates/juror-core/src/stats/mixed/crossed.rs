//! A linear mixed model with crossed random intercepts for annotators and items, fitted by
//! REML (or ML): `score ~ system + (1 | annotator) + (1 | item)`, and with rounds
//! `score ~ system * round + (1 | annotator) + (1 | item)`.
//!
//! # Model
//! y = Xβ + Z_a u_a + Z_i u_i + e with u_a ~ N(0, σ²_a I), u_i ~ N(0, σ²_i I), e ~ N(0, σ²_e I),
//! so Var(y) = σ²_e H with H = I + θ_a Z_a Z_aᵀ + θ_i Z_i Z_iᵀ and θ_k = σ²_k / σ²_e.
//!
//! # Evaluation (lme4's formulation, Bates et al. 2015, §3)
//! With Ż = [√θ_b Z_b, √θ_s Z_s] (b the factor with more levels, s the other), the matrix
//! K = [Ż X y]ᵀ[Ż X y] + diag(I, 0, 0) is reduced by eliminating the b block, which is
//! diagonal (1 + θ_b n_j for level j), then the s block by a dense Cholesky factor L_s. What is
//! left is R = [X y]ᵀ H⁻¹ [X y], and
//! ln|H| = Σ_j ln(1 + θ_b n_j) + 2 Σ ln diag(L_s), Xᵀ H⁻¹ X = R_xx, β̂ = R_xx⁻¹ R_xy,
//! q̂ = R_yy − R_xyᵀ β̂. The profiled log-likelihoods (statsmodels' form, constants included) are
//! ℓ_R(θ) = −½ ln|H| − ½ ln|R_xx| − (N−p)/2 · (ln 2π + 1 + ln(q̂/(N−p))) and
//! ℓ_ML(θ) = −½ ln|H| − N/2 · (ln 2π + 1 + ln(q̂/N)). One evaluation costs
//! O(Σ_j a_j² + L_s³), a_j the levels of s met in level j of b: the per-level sums are made once,
//! so the cost does not grow with the ratings.
//!
//! # Optimiser and convergence check
//! ℓ is maximised over s = (√θ_b, √θ_s) (θ = s², so ℓ is even in each s_k and smooth at 0,
//! as in lme4): the best of a 4 × 4 grid θ_k ∈ {0.01, 0.1, 1, 10} starts Newton's method with
//! central-difference gradient and Hessian (steps 10⁻⁴ · max(|s_k|, 10⁻²)), a step halved until
//! ℓ increases, and a gradient step where the Hessian is not negative definite. It stops when
//! every step component is below [`STEP_TOL`] · max(|s_k|, 10⁻²) (converged) or after
//! [`MAX_NEWTON`] steps (not converged). A component whose θ̂ is below 10⁻¹⁰ is compared with
//! exactly 0 and set to 0 when that is at least as likely: the boundary, as lme4 reports it.
//!
//! # Standard errors
//! [`StandardErrors::Model`]: σ̂²_e R_xx⁻¹ (lme4, nlme, SAS). [`StandardErrors::Statsmodels`]:
//! the β block of the inverse of the negative Hessian of the σ²_e-profiled log-likelihood
//! ℓ(β, θ) jointly (statsmodels' `bse_fe`), with −∂²ℓ/∂β² = R_xx/σ̂², and the θ block and the
//! β–θ cross derivatives by central differences in θ (components on the boundary left out);
//! the β block is the Schur complement (−ℓ_ββ − ℓ_βθ ℓ_θθ⁻¹ ℓ_θβ)⁻¹.
//!
//! Tested against statsmodels' `MixedLM` with variance components (one group holding every
//! rating, `vc_formula` for annotators and items) and an independent dense numpy fit, on five
//! seeded data sets (balanced, unbalanced, rounds, ML, and an annotator variance of exactly 0):
//! `crates/juror-core/tests/it/crossed.rs` reads `tests/reference/crossed/reference.json`,
//! written by `make_reference.py` beside it. Tolerance 1e-6 relative against the dense fit
//! (measured up to 1.2e-7, an item variance, where the dense optimiser stops) and 1e-4 against
//! statsmodels, the bound set for its fits (measured up to 1.1e-7, statsmodels' own standard
//! errors included).

use std::collections::HashMap;
use std::f64::consts::PI;

use super::linalg::{Cholesky, dot, symmetrise};
use super::{Contrast, FixedEffect, MixedError, StandardErrors, SystemDesign, contrast, effects};
use crate::stats::math::Portable;

/// The Newton search stops when every step is below this share of its parameter.
pub const STEP_TOL: f64 = 1e-9;
/// The most Newton steps.
pub const MAX_NEWTON: usize = 100;
/// A variance ratio below this is compared with exactly 0.
const BOUNDARY: f64 = 1e-10;
const GRID: [f64; 4] = [0.01, 0.1, 1.0, 10.0];

/// Restricted (REML, the default) or full maximum likelihood.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Criterion {
    #[default]
    Reml,
    Ml,
}

/// Options of [`crossed`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct CrossedOptions {
    pub criterion: Criterion,
    pub standard_errors: StandardErrors,
}

/// One rating for the builders: an annotator rated a system's output of an item in a round.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CrossedRating<'a> {
    pub annotator: &'a str,
    pub item: &'a str,
    pub system: &'a str,
    /// Used only by [`CrossedData::system_by_round`].
    pub round: f64,
    pub rating: f64,
}

/// Labels in order of first appearance, and each observation's level.
#[derive(Debug, Clone, PartialEq, Default)]
struct Factor {
    names: Vec<String>,
    index: HashMap<String, usize>,
    of: Vec<usize>,
}

impl Factor {
    fn push(&mut self, label: &str) {
        let next = self.names.len();
        let k = *self.index.entry(label.to_string()).or_insert(next);
        if k == next {
            self.names.push(label.to_string());
        }
        self.of.push(k);
    }
}

/// Observations for the crossed model: a response, an annotator, an item and a design row each.
#[derive(Debug, Clone, PartialEq)]
pub struct CrossedData {
    columns: Vec<String>,
    annotators: Factor,
    items: Factor,
    y: Vec<f64>,
    /// N × p, row-major.
    x: Vec<f64>,
}

impl CrossedData {
    /// No observations yet, with the names of the fixed-effect columns (include an intercept).
    pub fn new(columns: Vec<String>) -> CrossedData {
        CrossedData {
            columns,
            annotators: Factor::default(),
            items: Factor::default(),
            y: Vec::new(),
            x: Vec::new(),
        }
    }

    /// Adds one observation.
    ///
    /// # Errors
    /// `row` does not have one value per column, or a value is not finite; nothing is added.
    pub fn push(
        &mut self,
        annotator: &str,
        item: &str,
        row: &[f64],
        y: f64,
    ) -> Result<(), MixedError> {
        let index = self.y.len();
        if row.len() != self.columns.len() {
            return Err(MixedError::RowLength {
                index,
                expected: self.columns.len(),
                got: row.len(),
            });
        }
        let bad = std::iter::once(("rating", y))
            .chain(
                self.columns
                    .iter()
                    .map(String::as_str)
                    .zip(row.iter().copied()),
            )
            .find(|(_, v)| !v.is_finite());
        if let Some((what, value)) = bad {
            return Err(MixedError::NotFinite {
                index,
                what: what.to_string(),
                value,
            });
        }
        self.annotators.push(annotator);
        self.items.push(item);
        self.y.push(y);
        self.x.extend_from_slice(row);
        Ok(())
    }

    /// `score ~ system + (1 | annotator) + (1 | item)` with treatment coding against
    /// `systems[0]` (columns `Intercept`, `system[T.sⱼ]`).
    ///
    /// # Errors
    /// As [`super::MixedData::system_by_round`].
    pub fn by_system(
        systems: &[&str],
        ratings: &[CrossedRating<'_>],
    ) -> Result<CrossedData, MixedError> {
        Self::build(systems, ratings, false)
    }

    /// `score ~ system * round + (1 | annotator) + (1 | item)`, columns named as
    /// [`super::MixedData::system_by_round`] names them.
    ///
    /// # Errors
    /// As [`super::MixedData::system_by_round`].
    pub fn system_by_round(
        systems: &[&str],
        ratings: &[CrossedRating<'_>],
    ) -> Result<CrossedData, MixedError> {
        Self::build(systems, ratings, true)
    }

    fn build(
        systems: &[&str],
        ratings: &[CrossedRating<'_>],
        rounds: bool,
    ) -> Result<CrossedData, MixedError> {
        let design = SystemDesign::new(systems, rounds)?;
        let mut data = CrossedData::new(design.columns.clone());
        let mut row = vec![0.0; design.columns.len()];
        let mut rated = vec![false; systems.len()];
        for (index, r) in ratings.iter().enumerate() {
            rated[design.fill(index, r.system, r.round, &mut row)?] = true;
            data.push(r.annotator, r.item, &row, r.rating)?;
        }
        design.all_rated(&rated)?;
        Ok(data)
    }

    /// The names of the fixed-effect columns.
    pub fn columns(&self) -> &[String] {
        &self.columns
    }

    pub fn n_obs(&self) -> usize {
        self.y.len()
    }

    pub fn n_annotators(&self) -> usize {
        self.annotators.names.len()
    }

    pub fn n_items(&self) -> usize {
        self.items.names.len()
    }
}

/// A fit of the crossed model.
#[derive(Debug, Clone, PartialEq)]
pub struct CrossedFit {
    /// In the order of [`CrossedData::columns`].
    pub fixed_effects: Vec<FixedEffect>,
    /// Cov(β̂), p × p row-major, by the convention in `standard_errors`.
    pub covariance: Vec<f64>,
    pub standard_errors: StandardErrors,
    pub criterion: Criterion,
    /// σ̂²_a (statsmodels' `vcomp` for the annotator).
    pub annotator_variance: f64,
    /// σ̂²_i.
    pub item_variance: f64,
    /// σ̂²_e (statsmodels' `scale`).
    pub residual_variance: f64,
    /// ℓ at the estimates, constants included (statsmodels' `llf`).
    pub log_likelihood: f64,
    pub n_obs: usize,
    pub n_annotators: usize,
    pub n_items: usize,
    /// The Newton search met [`STEP_TOL`] within [`MAX_NEWTON`] steps.
    pub converged: bool,
    /// Newton steps taken.
    pub iterations: usize,
    /// Evaluations of the likelihood.
    pub evaluations: usize,
}

impl CrossedFit {
    /// The fixed effect called `name`.
    pub fn fixed(&self, name: &str) -> Option<&FixedEffect> {
        self.fixed_effects.iter().find(|f| f.name == name)
    }

    /// σ̂²_a + σ̂²_i + σ̂²_e.
    pub fn total_variance(&self) -> f64 {
        self.annotator_variance + self.item_variance + self.residual_variance
    }

    /// The share of the variance between annotators: σ̂²_a / (σ̂²_a + σ̂²_i + σ̂²_e).
    pub fn annotator_icc(&self) -> f64 {
        self.annotator_variance / self.total_variance()
    }

    /// The share of the variance between items: σ̂²_i / (σ̂²_a + σ̂²_i + σ̂²_e).
    pub fn item_icc(&self) -> f64 {
        self.item_variance / self.total_variance()
    }

    /// The linear combination Σ wⱼβⱼ with its standard error, z and p.
    ///
    /// # Errors
    /// Not one finite weight per fixed effect, or all weights zero.
    pub fn contrast(&self, weights: &[f64]) -> Result<Contrast, MixedError> {
        contrast(&self.fixed_effects, &self.covariance, weights)
    }
}

/// Fits the crossed model (formulas, optimiser and conventions in the module doc).
///
/// # Errors
/// No columns; no more observations than columns; fewer than 2 annotators or 2 items; a
/// collinear column; responses fitted exactly; for statsmodels' standard errors, a joint
/// Hessian that is not negative definite.
pub fn crossed(data: &CrossedData, options: CrossedOptions) -> Result<CrossedFit, MixedError> {
    let model = Model::new(data, options.criterion)?;
    let mut search = Search {
        model: &model,
        evaluations: 0,
    };
    let (theta, iterations, converged) = search.maximise()?;
    let at = model.evaluate(theta)?;
    let scale = at.q / model.fac;
    let covariance = match options.standard_errors {
        StandardErrors::Model => at.chol.inverse().iter().map(|v| v * scale).collect(),
        StandardErrors::Statsmodels => model.joint_covariance(theta, &at)?,
    };
    let (annotator, item) = model.by_factor(theta);
    Ok(CrossedFit {
        fixed_effects: effects(&data.columns, &at.beta, &covariance),
        covariance,
        standard_errors: options.standard_errors,
        criterion: options.criterion,
        annotator_variance: annotator * scale,
        item_variance: item * scale,
        residual_variance: scale,
        log_likelihood: at.log_likelihood,
        n_obs: model.n,
        n_annotators: data.n_annotators(),
        n_items: data.n_items(),
        converged,
        iterations,
        evaluations: search.evaluations + 1,
    })
}

/// The data reduced to per-level sums. `b` is the factor with more levels (eliminated first,
/// its block is diagonal), `s` the other.
struct Model<'a> {
    data: &'a CrossedData,
    criterion: Criterion,
    n: usize,
    p: usize,
    /// N − p (REML) or N (ML).
    fac: f64,
    b_is_items: bool,
    b_counts: Vec<f64>,
    s_counts: Vec<f64>,
    /// Per level, Σ [x y] over its ratings (m = p + 1 values each).
    b_sums: Vec<f64>,
    s_sums: Vec<f64>,
    /// Per level of b, the levels of s among its ratings with their counts.
    pairs: Vec<Vec<(usize, f64)>>,
    /// [X y]ᵀ[X y], m × m.
    gram: Vec<f64>,
}

/// One evaluation: ℓ and what it was made of.
struct Evaluation {
    log_likelihood: f64,
    beta: Vec<f64>,
    q: f64,
    chol: Cholesky,
}

impl<'a> Model<'a> {
    fn new(data: &'a CrossedData, criterion: Criterion) -> Result<Model<'a>, MixedError> {
        let (n, p) = (data.n_obs(), data.columns.len());
        if p == 0 {
            return Err(MixedError::NoColumns);
        }
        if n <= p {
            return Err(MixedError::TooFewObservations { n, p });
        }
        for (factor, levels) in [
            ("annotators", data.n_annotators()),
            ("items", data.n_items()),
        ] {
            if levels < 2 {
                return Err(MixedError::TooFewLevels { factor, levels });
            }
        }
        let b_is_items = data.n_items() >= data.n_annotators();
        let (b, s) = if b_is_items {
            (&data.items, &data.annotators)
        } else {
            (&data.annotators, &data.items)
        };
        let m = p + 1;
        let (nb, ns) = (b.names.len(), s.names.len());
        let mut b_counts = vec![0.0; nb];
        let mut s_counts = vec![0.0; ns];
        let mut b_sums = vec![0.0; nb * m];
        let mut s_sums = vec![0.0; ns * m];
        let mut pair_counts: Vec<HashMap<usize, f64>> = vec![HashMap::new(); nb];
        let mut gram = vec![0.0; m * m];
        let mut row = vec![0.0; m];
        for i in 0..n {
            row[..p].copy_from_slice(&data.x[i * p..(i + 1) * p]);
            row[p] = data.y[i];
            let (jb, js) = (b.of[i], s.of[i]);
            b_counts[jb] += 1.0;
            s_counts[js] += 1.0;
            *pair_counts[jb].entry(js).or_insert(0.0) += 1.0;
            for c in 0..m {
                b_sums[jb * m + c] += row[c];
                s_sums[js * m + c] += row[c];
                for d in 0..=c {
                    gram[c * m + d] += row[c] * row[d];
                }
            }
        }
        symmetrise(&mut gram, m);
        let pairs = pair_counts
            .into_iter()
            .map(|h| {
                let mut v: Vec<(usize, f64)> = h.into_iter().collect();
                v.sort_unstable_by_key(|(k, _)| *k);
                v
            })
            .collect();
        let fac = match criterion {
            Criterion::Reml => (n - p) as f64,
            Criterion::Ml => n as f64,
        };
        let model = Model {
            data,
            criterion,
            n,
            p,
            fac,
            b_is_items,
            b_counts,
            s_counts,
            b_sums,
            s_sums,
            pairs,
            gram,
        };
        // Collinearity and an exact fit do not depend on θ; test them at 0.
        model.evaluate([0.0, 0.0])?;
        Ok(model)
    }

    /// (θ_annotator, θ_item) from θ in the model's (b, s) order.
    fn by_factor(&self, theta: [f64; 2]) -> (f64, f64) {
        if self.b_is_items {
            (theta[1], theta[0])
        } else {
            (theta[0], theta[1])
        }
    }

    /// R = [X y]ᵀ H⁻¹ [X y] and ln|H| at θ = (θ_b, θ_s).
    fn reduce(&self, theta: [f64; 2]) -> (Vec<f64>, f64) {
        let (tb, ts) = (theta[0], theta[1]);
        let m = self.p + 1;
        let ns = self.s_counts.len();
        // Eliminate the b block: S_ss, T_sr = S_sr / √θ_s and S_rr.
        let mut s_ss: Vec<f64> = vec![0.0; ns * ns];
        for (k, c) in self.s_counts.iter().enumerate() {
            s_ss[k * ns + k] = 1.0 + ts * c;
        }
        let mut t_sr = self.s_sums.clone();
        let mut rr = self.gram.clone();
        let mut ln_det_h = 0.0;
        for (j, pairs) in self.pairs.iter().enumerate() {
            let w = tb / (1.0 + tb * self.b_counts[j]);
            ln_det_h += (tb * self.b_counts[j]).ln_1p_p();
            let sums = &self.b_sums[j * m..(j + 1) * m];
            for c in 0..m {
                for d in 0..=c {
                    rr[c * m + d] -= w * sums[c] * sums[d];
                }
            }
            for &(k, nk) in pairs {
                for (c, v) in sums.iter().enumerate() {
                    t_sr[k * m + c] -= w * nk * v;
                }
                for &(l, nl) in pairs.iter().filter(|(l, _)| *l <= k) {
                    s_ss[k * ns + l] -= ts * w * nk * nl;
                }
            }
        }
        symmetrise(&mut rr, m);
        if ts > 0.0 {
            // Then the s block: R = S_rr − θ_s T_srᵀ S_ss⁻¹ T_sr by the factor L of S_ss.
            let l = cholesky_lower(&mut s_ss, ns);
            for k in 0..ns {
                ln_det_h += 2.0 * l[k * ns + k].ln_p();
            }
            let mut w = vec![0.0; ns * m];
            for c in 0..m {
                for k in 0..ns {
                    let s =
                        t_sr[k * m + c] - (0..k).map(|i| l[k * ns + i] * w[i * m + c]).sum::<f64>();
                    w[k * m + c] = s / l[k * ns + k];
                }
            }
            for c in 0..m {
                for d in 0..=c {
                    rr[c * m + d] -= ts * (0..ns).map(|k| w[k * m + c] * w[k * m + d]).sum::<f64>();
                }
            }
            symmetrise(&mut rr, m);
        }
        (rr, ln_det_h)
    }

    fn evaluate(&self, theta: [f64; 2]) -> Result<Evaluation, MixedError> {
        let (p, m) = (self.p, self.p + 1);
        let (r, ln_det_h) = self.reduce(theta);
        let rxx: Vec<f64> = (0..p)
            .flat_map(|c| (0..p).map(move |d| (c, d)))
            .map(|(c, d)| r[c * m + d])
            .collect();
        let rxy: Vec<f64> = (0..p).map(|c| r[c * m + p]).collect();
        let chol = Cholesky::new(&rxx, p).map_err(|j| MixedError::Collinear {
            column: self.data.columns[j].clone(),
        })?;
        let beta = chol.solve(&rxy);
        let q = r[p * m + p] - dot(&rxy, &beta);
        if !(q.is_finite() && q > 1e-12 * r[p * m + p].abs()) {
            return Err(MixedError::NoResidualVariance);
        }
        let log_likelihood = self.profiled(ln_det_h, chol.ln_det(), q);
        Ok(Evaluation {
            log_likelihood,
            beta,
            q,
            chol,
        })
    }

    /// ℓ from ln|H|, ln|Xᵀ H⁻¹ X| and the quadratic form q.
    fn profiled(&self, ln_det_h: f64, ln_det_xhx: f64, q: f64) -> f64 {
        let fac = self.fac;
        let reml = match self.criterion {
            Criterion::Reml => -0.5 * ln_det_xhx,
            Criterion::Ml => 0.0,
        };
        -0.5 * ln_det_h + reml - 0.5 * fac * ((2.0 * PI).ln_p() + 1.0 + (q / fac).ln_p())
    }

    /// ℓ(β, θ) at a fixed β (σ²_e profiled), and its gradient in β: fac/q · Xᵀ H⁻¹ (y − Xβ).
    fn at_fixed_beta(&self, beta: &[f64], theta: [f64; 2]) -> Result<(f64, Vec<f64>), MixedError> {
        let (p, m) = (self.p, self.p + 1);
        let (r, ln_det_h) = self.reduce(theta);
        let rxx: Vec<f64> = (0..p)
            .flat_map(|c| (0..p).map(move |d| (c, d)))
            .map(|(c, d)| r[c * m + d])
            .collect();
        let chol = Cholesky::new(&rxx, p).map_err(|j| MixedError::Collinear {
            column: self.data.columns[j].clone(),
        })?;
        // X'H⁻¹r = R_xy − R_xx β and q = R_yy − 2 βᵀR_xy + βᵀR_xx β.
        let xhr: Vec<f64> = (0..p)
            .map(|c| r[c * m + p] - dot(&rxx[c * p..(c + 1) * p], beta))
            .collect();
        let q = r[p * m + p]
            - dot(beta, &(0..p).map(|c| r[c * m + p]).collect::<Vec<_>>())
            - dot(beta, &xhr);
        let ll = self.profiled(ln_det_h, chol.ln_det(), q);
        let grad = xhr.iter().map(|v| self.fac / q * v).collect();
        Ok((ll, grad))
    }

    /// statsmodels' Cov(β̂): the β block of (−∇²ℓ)⁻¹ over (β, θ), θ derivatives by central
    /// differences; components of θ at 0 are left out.
    fn joint_covariance(&self, theta: [f64; 2], at: &Evaluation) -> Result<Vec<f64>, MixedError> {
        let p = self.p;
        let scale = at.q / self.fac;
        let inside: Vec<usize> = (0..2).filter(|&k| theta[k] > 0.0).collect();
        let mut cov: Vec<f64> = at.chol.inverse().iter().map(|v| v * scale).collect();
        if inside.is_empty() {
            return Ok(cov);
        }
        let t = inside.len();
        let step: Vec<f64> = inside.iter().map(|&k| 1e-4 * theta[k].max(1e-3)).collect();
        let shifted = |deltas: &[(usize, f64)]| -> Result<(f64, Vec<f64>), MixedError> {
            let mut th = theta;
            for &(a, h) in deltas {
                th[inside[a]] += h;
            }
            self.at_fixed_beta(&at.beta, th)
        };
        // −ℓ_θθ (t × t) and −ℓ_βθ (p × t).
        let (f0, _) = self.at_fixed_beta(&at.beta, theta)?;
        let mut c = vec![0.0; t * t];
        let mut b = vec![0.0; p * t];
        for a in 0..t {
            let (fp, gp) = shifted(&[(a, step[a])])?;
            let (fm, gm) = shifted(&[(a, -step[a])])?;
            c[a * t + a] = -(fp - 2.0 * f0 + fm) / (step[a] * step[a]);
            for j in 0..p {
                b[j * t + a] = -(gp[j] - gm[j]) / (2.0 * step[a]);
            }
            for e in 0..a {
                let f = |sa: f64, se: f64| shifted(&[(a, sa * step[a]), (e, se * step[e])]);
                let cross = f(1.0, 1.0)?.0 - f(1.0, -1.0)?.0 - f(-1.0, 1.0)?.0 + f(-1.0, -1.0)?.0;
                c[a * t + e] = -cross / (4.0 * step[a] * step[e]);
                c[e * t + a] = c[a * t + e];
            }
        }
        // Cov = (A − B C⁻¹ Bᵀ)⁻¹ with A⁻¹ = σ̂² R_xx⁻¹; by Woodbury,
        // Cov = A⁻¹ + A⁻¹B (C − BᵀA⁻¹B)⁻¹ BᵀA⁻¹.
        let u: Vec<f64> = (0..p * t)
            .map(|idx| {
                let (j, a) = (idx / t, idx % t);
                (0..p).map(|l| cov[j * p + l] * b[l * t + a]).sum::<f64>()
            })
            .collect();
        let mut schur = c.clone();
        for a in 0..t {
            for e in 0..t {
                schur[a * t + e] -= (0..p).map(|j| b[j * t + a] * u[j * t + e]).sum::<f64>();
            }
        }
        let chol = Cholesky::new(&schur, t).map_err(|_| MixedError::HessianNotDefinite)?;
        let mut col = vec![0.0; t];
        let mut add = vec![0.0; p * p];
        for j in 0..p {
            for (a, v) in col.iter_mut().enumerate() {
                *v = u[j * t + a];
            }
            let solved = chol.solve(&col);
            for l in 0..p {
                add[j * p + l] = (0..t).map(|a| solved[a] * u[l * t + a]).sum::<f64>();
            }
        }
        for (v, a) in cov.iter_mut().zip(&add) {
            *v += a;
        }
        Ok(cov)
    }
}

/// The lower Cholesky factor of a symmetric positive definite n × n matrix (row-major, the
/// lower triangle is read), in place. S_ss = I + … is positive definite for every θ ≥ 0.
fn cholesky_lower(a: &mut [f64], n: usize) -> Vec<f64> {
    for j in 0..n {
        let d = a[j * n + j] - (0..j).map(|k| a[j * n + k] * a[j * n + k]).sum::<f64>();
        let d = d.max(f64::MIN_POSITIVE).sqrt();
        a[j * n + j] = d;
        for i in j + 1..n {
            let s = a[i * n + j] - (0..j).map(|k| a[i * n + k] * a[j * n + k]).sum::<f64>();
            a[i * n + j] = s / d;
        }
    }
    a.to_vec()
}

/// The Newton search over s = √θ.
struct Search<'m, 'a> {
    model: &'m Model<'a>,
    evaluations: usize,
}

impl Search<'_, '_> {
    fn ll(&mut self, s: [f64; 2]) -> Result<f64, MixedError> {
        self.evaluations += 1;
        Ok(self
            .model
            .evaluate([s[0] * s[0], s[1] * s[1]])?
            .log_likelihood)
    }

    /// (θ̂ in (b, s) order, Newton steps, converged).
    fn maximise(&mut self) -> Result<([f64; 2], usize, bool), MixedError> {
        let mut best = ([0.0, 0.0], f64::NEG_INFINITY);
        for tb in GRID {
            for ts in GRID {
                let s = [tb.sqrt(), ts.sqrt()];
                let ll = self.ll(s)?;
                if ll > best.1 {
                    best = (s, ll);
                }
            }
        }
        let (mut s, mut f0) = best;
        let mut converged = false;
        let mut iterations = 0;
        while iterations < MAX_NEWTON {
            iterations += 1;
            let (g, h) = self.derivatives(s, f0)?;
            let step = newton_step(g, h);
            let mut t = 1.0;
            let mut moved = false;
            for _ in 0..40 {
                let next = [s[0] + t * step[0], s[1] + t * step[1]];
                let f = self.ll(next)?;
                if f >= f0 {
                    moved = f > f0 || t == 1.0;
                    s = next;
                    f0 = f;
                    break;
                }
                t *= 0.5;
            }
            let small = (0..2).all(|k| (t * step[k]).abs() <= STEP_TOL * s[k].abs().max(1e-2));
            if small || !moved {
                converged = small;
                break;
            }
        }
        let mut theta = [s[0] * s[0], s[1] * s[1]];
        for k in 0..2 {
            if theta[k] < BOUNDARY && theta[k] > 0.0 {
                let mut zero = theta;
                zero[k] = 0.0;
                let at_zero = self.model.evaluate(zero)?.log_likelihood;
                self.evaluations += 1;
                if at_zero >= self.model.evaluate(theta)?.log_likelihood {
                    theta = zero;
                }
            }
        }
        Ok((theta, iterations, converged))
    }

    /// The central-difference gradient and Hessian of ℓ in s.
    fn derivatives(&mut self, s: [f64; 2], f0: f64) -> Result<([f64; 2], [f64; 4]), MixedError> {
        let h = [1e-4 * s[0].abs().max(1e-2), 1e-4 * s[1].abs().max(1e-2)];
        let mut g = [0.0; 2];
        let mut hess = [0.0; 4];
        for k in 0..2 {
            let mut up = s;
            up[k] += h[k];
            let mut down = s;
            down[k] -= h[k];
            let (fp, fm) = (self.ll(up)?, self.ll(down)?);
            g[k] = (fp - fm) / (2.0 * h[k]);
            hess[k * 2 + k] = (fp - 2.0 * f0 + fm) / (h[k] * h[k]);
        }
        let mut corner = |a: f64, b: f64| self.ll([s[0] + a * h[0], s[1] + b * h[1]]);
        let cross =
            corner(1.0, 1.0)? - corner(1.0, -1.0)? - corner(-1.0, 1.0)? + corner(-1.0, -1.0)?;
        hess[1] = cross / (4.0 * h[0] * h[1]);
        hess[2] = hess[1];
        Ok((g, hess))
    }
}

/// Newton's step −H⁻¹g for a maximum when H is negative definite; otherwise a gradient step
/// scaled by the Hessian's size.
fn newton_step(g: [f64; 2], h: [f64; 4]) -> [f64; 2] {
    let det = h[0] * h[3] - h[1] * h[2];
    if h[0] < 0.0 && det > 0.0 {
        [
            -(h[3] * g[0] - h[1] * g[1]) / det,
            -(-h[2] * g[0] + h[0] * g[1]) / det,
        ]
    } else {
        let size = h.iter().map(|v| v.abs()).fold(1.0, f64::max);
        [g[0] / size, g[1] / size]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toy() -> CrossedData {
        let mut d = CrossedData::new(vec!["Intercept".into(), "x".into()]);
        let noise = [
            0.3, -0.2, 0.5, -0.4, 0.1, 0.0, -0.3, 0.2, 0.4, -0.1, 0.25, -0.35,
        ];
        let mut k = 0;
        for a in 0..4 {
            for i in 0..6 {
                let x = (i % 2) as f64;
                let y = 3.0 + 0.5 * x + 0.4 * a as f64 - 0.3 * i as f64 + noise[k % 12];
                d.push(&format!("a{a}"), &format!("i{i}"), &[1.0, x], y)
                    .unwrap();
                k += 1;
            }
        }
        d
    }

    #[test]
    fn the_reduction_matches_a_dense_inverse() {
        let d = toy();
        let model = Model::new(&d, Criterion::Reml).unwrap();
        let theta = [0.7, 1.3];
        let (r, ln_det) = model.reduce(theta);
        // Dense H = I + θ_b Z_b Z_bᵀ + θ_s Z_s Z_sᵀ, inverted by Gauss–Jordan.
        let n = d.n_obs();
        let (b, s) = if model.b_is_items {
            (&d.items, &d.annotators)
        } else {
            (&d.annotators, &d.items)
        };
        let mut h = vec![0.0; n * n];
        for i in 0..n {
            for j in 0..n {
                h[i * n + j] = f64::from(u8::from(i == j))
                    + theta[0] * f64::from(u8::from(b.of[i] == b.of[j]))
                    + theta[1] * f64::from(u8::from(s.of[i] == s.of[j]));
            }
        }
        let chol = Cholesky::new(&h, n).unwrap();
        assert!(
            (chol.ln_det() - ln_det).abs() < 1e-10,
            "{} {ln_det}",
            chol.ln_det()
        );
        let cols: Vec<Vec<f64>> = (0..3)
            .map(|c| {
                (0..n)
                    .map(|i| if c < 2 { d.x[i * 2 + c] } else { d.y[i] })
                    .collect()
            })
            .collect();
        for c in 0..3 {
            let hc = chol.solve(&cols[c]);
            for e in 0..3 {
                let want = dot(&cols[e], &hc);
                assert!((r[e * 3 + c] - want).abs() < 1e-9 * want.abs().max(1.0));
            }
        }
    }

    #[test]
    fn the_fit_is_a_stationary_maximum() {
        let d = toy();
        let fit = crossed(&d, CrossedOptions::default()).unwrap();
        assert!(fit.converged, "{fit:?}");
        let model = Model::new(&d, Criterion::Reml).unwrap();
        let (ta, ti) = (
            fit.annotator_variance / fit.residual_variance,
            fit.item_variance / fit.residual_variance,
        );
        let at = |a: f64, i: f64| {
            let th = if model.b_is_items { [i, a] } else { [a, i] };
            model.evaluate(th).unwrap().log_likelihood
        };
        let best = at(ta, ti);
        for (da, di) in [(1.01, 1.0), (0.99, 1.0), (1.0, 1.01), (1.0, 0.99)] {
            assert!(at(ta * da, ti * di) < best);
        }
    }

    #[test]
    fn too_few_levels_say_which() {
        let mut d = CrossedData::new(vec!["Intercept".into()]);
        for i in 0..5 {
            d.push("only", &format!("i{i}"), &[1.0], f64::from(i))
                .unwrap();
        }
        let err = crossed(&d, CrossedOptions::default()).unwrap_err();
        assert_eq!(
            err,
            MixedError::TooFewLevels {
                factor: "annotators",
                levels: 1
            }
        );
        assert!(
            err.to_string()
                .contains("at least 2 annotators and 2 items")
        );
    }
}
