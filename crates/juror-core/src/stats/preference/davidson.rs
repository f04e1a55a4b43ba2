//! Davidson's (1970) extension of Bradley–Terry for ties, on the same Elo-like scale as
//! [`super::sandwich`], with model-based and sandwich (robust, optionally clustered by
//! annotator) intervals, confidence sets for ranks, and the tie parameter ν.
//!
//! The types and functions that matter:
//! - [`davidson`]: the fit, a [`DavidsonFit`] with one [`Rating`] per system (rating, sandwich
//!   standard error, interval, rank interval, leaderboard rank), the model-based standard
//!   errors, both covariances of the ratings, the tie parameter ([`TieParameter`]) and whether
//!   Newton's method converged;
//! - [`SandwichOptions`]: the same scale, offset, confidence level, ridge and stopping rule as
//!   the Bradley–Terry fit;
//! - [`DavidsonError`]: why there is no fit, saying what to do.
//!
//! # Model
//! With πᵢ = e^θᵢ and ν > 0, a comparison of i and j ends
//! P(i wins) = πᵢ/Dᵢⱼ, P(j wins) = πⱼ/Dᵢⱼ, P(tie) = ν√(πᵢπⱼ)/Dᵢⱼ,
//! Dᵢⱼ = πᵢ + πⱼ + ν√(πᵢπⱼ) (Davidson 1970, "On extending the Bradley–Terry model to
//! accommodate ties in paired comparison experiments", JASA 65). Dividing by √(πᵢπⱼ), with
//! h = (θᵢ − θⱼ)/2 and κ = ln ν, the three probabilities are e^h, e^−h and e^κ over
//! e^h + e^−h + e^κ, so a pair with wᵢ wins of i, wⱼ wins of j and t ties out of n adds
//! ℓ = (wᵢ − wⱼ) h + t κ − n L(h, κ), L = ln(e^h + e^−h + e^κ),
//! to the log-likelihood. L is a log-sum-exp of linear functions, so ℓ is concave in (θ, κ).
//! Given that a comparison is decisive, i wins with probability σ(θᵢ − θⱼ), as in
//! Bradley–Terry: the ratings keep their meaning (400 points are 10:1 odds of winning a
//! decisive comparison) and ν only sets how often comparisons are ties; two systems of equal
//! rating tie with probability ν/(2 + ν), less the further apart they are.
//!
//! # Fit
//! With pᵢ, pⱼ, pₜ the three probabilities, ∂ℓ/∂θᵢ = ½((wᵢ − wⱼ) − n(pᵢ − pⱼ)) = −∂ℓ/∂θⱼ,
//! ∂ℓ/∂κ = t − n pₜ, and H = −∇²ℓ gains n·¼((pᵢ + pⱼ) − (pᵢ − pⱼ)²) on xxᵀ (x = eᵢ − eⱼ),
//! ∓n(pᵢ − pⱼ)pₜ/2 in the rows of θᵢ and θⱼ against κ, and n pₜ(1 − pₜ) for κ. H does not
//! depend on the outcomes, so it is also the expected (Fisher) information. ℓ does not change
//! when every θ moves by the same amount; the fit takes Σθ = 0. Newton's method from θ = 0 and
//! ν = 2T/(N − T) (T ties out of N comparisons: the tie rate of equal systems) solves
//! (H + uuᵀ) δ = ∇ℓ, u = (1, …, 1, 0), halving the step until ℓ does not fall, until no θ and
//! not κ move more than [`SandwichOptions::tolerance`].
//!
//! # Covariances
//! Per comparison r of aᵣ and bᵣ, the score is sᵣ = (uᵣ xᵣ, vᵣ) with
//! uᵣ = ½((2yᵣ − 1) − (p_a − p_b)), vᵣ = [tie] − pₜ (yᵣ = 1, 0, ½ as in the Bradley–Terry fit).
//! A = H + λN on the θ diagonal (λ = [`SandwichOptions::hessian_ridge`], the same ridge as
//! arena-rank's, here on the ratings only; 0 gives the plain estimators) and M = A + uuᵀ.
//! The sandwich covariance is M⁻¹BM⁻¹ with B = Σᵣ sᵣsᵣᵀ (HC0) or, clustered, B = Σ_c (Σ_{r∈c}
//! sᵣ)(Σ_{r∈c} sᵣ)ᵀ (CR0, no small-sample factor), as [`super::sandwich`] computes it (Bu = 0, so
//! it is A⁻¹BA⁻¹ in the plane Σθ = 0). The model-based covariance is the inverse information
//! in that plane, P M⁻¹ P with P the projection that removes the mean of the θ part. The
//! intervals, rank sets and leaderboard ranks come from the sandwich covariance exactly as in
//! [`super::sandwich`] (rating ± z·SE, Bonferroni-simultaneous differences); the model-based SEs
//! are reported beside them ([`DavidsonFit::model_se`]).
//!
//! # Tie parameter
//! ν̂ = e^κ̂ with SE ν̂·SE(κ̂) (delta method); its interval is exp(κ̂ ∓ z SE(κ̂)), so it stays
//! positive. The tie probability of two equal systems, ν/(2 + ν), is increasing in ν: its
//! interval is the image of ν's.
//!
//! # When there is no fit
//! The maximum-likelihood estimate exists iff no direction (δθ, δκ) keeps ℓ from falling. With
//! δκ = 0 that is Ford's condition, as for Bradley–Terry with ties as halves: every system must
//! beat or tie a chain to every other one ([`SandwichError`]'s checks, reused). With δκ < 0
//! it needs at least one tie: without ties ν̂ = 0 and the model is Bradley–Terry, so the fit
//! says so ([`DavidsonError::NoTies`]) rather than returning ν = 0 with an infinite κ. With
//! δκ > 0 it needs at least one decisive comparison ([`DavidsonError::OnlyTies`]) and, beyond
//! that, that the systems cannot be lined up so that every winner stands at least one step above
//! its loser and every tied pair at most one step apart ([`DavidsonError::Separated`], found by
//! Bellman–Ford on these difference constraints): otherwise ℓ grows forever as the steps and κ
//! grow together (e.g. two systems where one never won a decisive comparison).
//!
//! Conventions: the systems and ratings follow the order of the `systems` given; errors are
//! never NaN and never a panic.
//!
//! No maintained Python package fits Davidson's model: arena-rank 0.1.1 counts ties as halves
//! (its `BradleyTerry` and `ContextualBradleyTerry` only), choix 0.4.1 fits Luce-type models
//! without ties, and the implementations that exist are in R (BradleyTerry2's `GenDavidson`).
//! So the reference, `crates/juror-core/tests/reference/davidson/make_reference.py`, maximises
//! the same likelihood, written directly from πᵢ/(πᵢ + πⱼ + ν√(πᵢπⱼ)) comparison by comparison,
//! in sum-to-zero contrasts, with scipy's `minimize` (BFGS with the analytic gradient, gtol
//! 1e-12) polished by `root` on the score (largest gradient component 3e-14), and computes the
//! information as the expected outer product of the per-comparison scores and both sandwiches
//! in numpy, on seeded data drawn from the model (5 systems with uneven pair counts, 8 systems
//! arena-like, 6 systems with 40 annotators as clusters each with their own taste and tie
//! propensity, 4 systems not all of whose pairs met with half of the comparisons ties):
//! `crates/juror-core/tests/it/davidson.rs` reads `reference.json` beside the script (library
//! versions in the file). Tolerance 1e-6 relative to max(1, |value|), as for every iterative
//! fit; measured, relative to max(1, |value|): ratings, ν and ℓ within 2.3e-16 (ratings within
//! 2.3e-13 points), model-based SEs within 4.9e-16, sandwich SEs and bounds (HC0 and clustered)
//! within 2.4e-15, covariances within 5.4e-13; rank intervals and leaderboard ranks are equal.

use std::fmt;

use super::Comparison;
use super::sandwich::{
    self, Cholesky, Pair, Rating, Row, SandwichError, SandwichOptions, add_pair, cholesky,
};
use crate::stats::math::Portable;
use crate::stats::special;

/// ν with its standard errors and interval, and the tie probability of two equal systems.
#[derive(Debug, Clone, PartialEq)]
pub struct TieParameter {
    /// ν̂ = e^κ̂.
    pub nu: f64,
    /// Sandwich (or clustered) standard error of ν̂: ν̂ · SE(κ̂).
    pub se: f64,
    /// Model-based standard error of ν̂ (inverse information).
    pub model_se: f64,
    /// exp(κ̂ ∓ z · SE(κ̂)), with the sandwich SE.
    pub lower: f64,
    pub upper: f64,
    /// ν̂/(2 + ν̂): how often two systems of equal rating tie.
    pub tie_probability: f64,
    /// The tie probability at `lower` and `upper`.
    pub tie_lower: f64,
    pub tie_upper: f64,
}

/// Davidson ratings with their covariances and the tie parameter.
#[derive(Debug, Clone, PartialEq)]
pub struct DavidsonFit {
    /// In the order of the `systems` given; SEs, intervals and ranks from the sandwich.
    pub ratings: Vec<Rating>,
    /// Model-based standard errors (inverse information), in rating points, in the same order.
    pub model_se: Vec<f64>,
    /// K × K, row-major, in rating points squared: the sandwich covariance of the ratings.
    pub covariance: Vec<f64>,
    /// K × K, row-major, in rating points squared: the inverse information.
    pub model_covariance: Vec<f64>,
    pub ties: TieParameter,
    /// The number of clusters when the sandwich is clustered, else `None`.
    pub clusters: Option<usize>,
    /// z of the intervals.
    pub z: f64,
    /// z* of the rank sets (Bonferroni over the K(K − 1)/2 differences).
    pub rank_z: f64,
    pub log_likelihood: f64,
    pub iterations: usize,
    pub converged: bool,
}

impl DavidsonFit {
    /// The rating of `system`, if it was in the list.
    pub fn rating(&self, system: &str) -> Option<&Rating> {
        self.ratings.iter().find(|r| r.system == system)
    }
}

/// Why there is no Davidson fit. Each says what to do.
#[derive(Debug, Clone, PartialEq)]
pub enum DavidsonError {
    /// The input or the fit fails a check shared with the Bradley–Terry fit.
    Data(SandwichError),
    /// No comparison is a tie: ν̂ = 0.
    NoTies { comparisons: usize },
    /// Every comparison is a tie: ν̂ = ∞.
    OnlyTies { comparisons: usize },
    /// The decisive results and ties are perfectly explained by an order of the systems, so
    /// the ratings' gaps and ν grow without bound.
    Separated,
}

impl From<SandwichError> for DavidsonError {
    fn from(e: SandwichError) -> Self {
        DavidsonError::Data(e)
    }
}

impl fmt::Display for DavidsonError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DavidsonError::Data(e) => e.fmt(f),
            DavidsonError::NoTies { comparisons } => write!(
                f,
                "none of the {comparisons} comparisons is a tie, so the estimate of ν is 0 and \
                 Davidson's model is plain Bradley–Terry: fit Bradley–Terry instead, or allow \
                 annotators to answer \"tie\""
            ),
            DavidsonError::OnlyTies { comparisons } => write!(
                f,
                "all {comparisons} comparisons are ties, so the estimate of ν is infinite and \
                 the systems cannot be told apart; collect comparisons with a winner"
            ),
            DavidsonError::Separated => write!(
                f,
                "the systems can be lined up so that every winner stands at least one step \
                 above the system it beat and every tie is between systems at most one step \
                 apart, so the likelihood keeps growing as the steps and ν grow together and \
                 there is no finite fit (e.g. a system that tied but never won a decisive \
                 comparison against the systems it met); collect more comparisons, or fit \
                 Bradley–Terry with ties as halves"
            ),
        }
    }
}

impl std::error::Error for DavidsonError {}

/// Davidson ratings of `systems` from `comparisons`, with the tie parameter ν, model-based and
/// sandwich intervals and rank sets; the sandwich clustered by `clusters` (one label per
/// comparison, e.g. the annotator) when given. The options are those of the Bradley–Terry fit
/// (the ridge goes on the ratings' part of the information only).
///
/// # Errors
/// Everything [`super::sandwich::bradley_terry_sandwich`] rejects (as
/// [`DavidsonError::Data`]), no tie at all, only ties, or comparisons separated by an order of
/// the systems: see [`DavidsonError`].
pub fn davidson(
    systems: &[String],
    comparisons: &[Comparison],
    clusters: Option<&[String]>,
    options: &SandwichOptions,
) -> Result<DavidsonFit, DavidsonError> {
    sandwich::check_options(options)?;
    let k = systems.len();
    if k < 2 {
        return Err(SandwichError::TooFewSystems { found: k }.into());
    }
    let rows = sandwich::index(systems, comparisons)?;
    let cluster_of = match clusters {
        Some(labels) if labels.len() != comparisons.len() => {
            return Err(SandwichError::ClusterCount {
                comparisons: comparisons.len(),
                clusters: labels.len(),
            }
            .into());
        }
        Some(labels) => Some(sandwich::number_clusters(labels)),
        None => None,
    };
    let pairs = sandwich::tally(k, &rows);
    sandwich::check_existence(systems, &pairs)?;
    let ties: f64 = pairs.iter().map(|p| p.ties).sum();
    let n = rows.len() as f64;
    if ties == 0.0 {
        return Err(DavidsonError::NoTies {
            comparisons: rows.len(),
        });
    }
    if ties == n {
        return Err(DavidsonError::OnlyTies {
            comparisons: rows.len(),
        });
    }
    if separated(k, &pairs) {
        return Err(DavidsonError::Separated);
    }

    let kappa0 = (2.0 * ties / (n - ties)).ln_p();
    let fit = newton(k, &pairs, kappa0, options)?;
    let meat = match &cluster_of {
        Some((ids, count)) => clustered_meat(k, &rows, ids, *count, &fit.x),
        None => hc0_meat(k, &pairs, &fit.x),
    };
    let (cov, model) = covariances(k, &pairs, &fit.x, options.hessian_ridge * n, &meat)?;
    let alpha = options.scale / options.base.ln_p();
    let d = k + 1;
    let theta_block = |c: &[f64]| -> Vec<f64> {
        (0..k)
            .flat_map(|i| (0..k).map(move |j| (i, j)))
            .map(|(i, j)| c[i * d + j])
            .collect()
    };
    let cov_theta = theta_block(&cov);
    let model_theta = theta_block(&model);
    let ratings = sandwich::rate(systems, &fit.x[..k], &cov_theta, alpha, options);
    let z = special::normal_quantile(0.5 + options.level / 2.0);
    let ties = tie_parameter(fit.x[k], cov[d * d - 1], model[d * d - 1], z);
    Ok(DavidsonFit {
        ratings,
        model_se: (0..k)
            .map(|i| alpha * model_theta[i * k + i].sqrt())
            .collect(),
        covariance: cov_theta.iter().map(|c| c * alpha * alpha).collect(),
        model_covariance: model_theta.iter().map(|c| c * alpha * alpha).collect(),
        ties,
        clusters: cluster_of.map(|(_, count)| count),
        z,
        rank_z: sandwich::rank_z(k, options.level),
        log_likelihood: fit.log_likelihood,
        iterations: fit.iterations,
        converged: fit.converged,
    })
}

fn tie_parameter(kappa: f64, var: f64, model_var: f64, z: f64) -> TieParameter {
    let nu = kappa.exp_p();
    let (se, model_se) = (var.sqrt(), model_var.sqrt());
    let lower = (kappa - z * se).exp_p();
    let upper = (kappa + z * se).exp_p();
    let tie = |v: f64| v / (2.0 + v);
    TieParameter {
        nu,
        se: nu * se,
        model_se: nu * model_se,
        lower,
        upper,
        tie_probability: tie(nu),
        tie_lower: tie(lower),
        tie_upper: tie(upper),
    }
}

/// True when some (δθ, δκ = ½) keeps ℓ from falling: the constraints δθⱼ − δθᵢ ≤ −1 for a win
/// of i over j and |δθᵢ − δθⱼ| ≤ 1 for a tie are feasible, i.e. their graph (edge i → j of
/// weight −1 for a win of i, of weight 1 both ways for a tie) has no negative cycle.
fn separated(k: usize, pairs: &[Pair]) -> bool {
    let mut edges: Vec<(usize, usize, i64)> = Vec::new();
    for p in pairs {
        if p.wins_i > 0.0 {
            edges.push((p.i, p.j, -1));
        }
        if p.wins_j > 0.0 {
            edges.push((p.j, p.i, -1));
        }
        if p.ties > 0.0 {
            edges.push((p.i, p.j, 1));
            edges.push((p.j, p.i, 1));
        }
    }
    // Bellman–Ford from a virtual source joined to every system by an edge of weight 0: a
    // relaxation still possible after K rounds means a negative cycle.
    let mut dist = vec![0i64; k];
    for _ in 0..k {
        let mut changed = false;
        for &(a, b, w) in &edges {
            if dist[a] + w < dist[b] {
                dist[b] = dist[a] + w;
                changed = true;
            }
        }
        if !changed {
            return true;
        }
    }
    !edges.iter().any(|&(a, b, w)| dist[a] + w < dist[b])
}

/// The three probabilities of a pair at h = (θᵢ − θⱼ)/2 and κ, and L = ln(e^h + e^−h + e^κ).
struct Probabilities {
    win_i: f64,
    win_j: f64,
    tie: f64,
    log_denominator: f64,
}

fn probabilities(h: f64, kappa: f64) -> Probabilities {
    let top = h.abs().max(kappa);
    let (a, b, c) = ((h - top).exp_p(), (-h - top).exp_p(), (kappa - top).exp_p());
    let s = a + b + c;
    Probabilities {
        win_i: a / s,
        win_j: b / s,
        tie: c / s,
        log_denominator: top + s.ln_p(),
    }
}

/// The pair's probabilities at x = (θ, κ).
fn at(p: &Pair, x: &[f64], k: usize) -> Probabilities {
    probabilities(0.5 * (x[p.i] - x[p.j]), x[k])
}

fn log_likelihood(k: usize, pairs: &[Pair], x: &[f64]) -> f64 {
    pairs
        .iter()
        .map(|p| {
            let h = 0.5 * (x[p.i] - x[p.j]);
            let l = probabilities(h, x[k]).log_denominator;
            (p.wins_i - p.wins_j) * h + p.ties * x[k] - p.n() * l
        })
        .sum()
}

/// The gradient of ℓ and H = −∇²ℓ ((K + 1) × (K + 1), row-major, κ last).
fn gradient_hessian(k: usize, pairs: &[Pair], x: &[f64]) -> (Vec<f64>, Vec<f64>) {
    let d = k + 1;
    let mut g = vec![0.0; d];
    let mut h = vec![0.0; d * d];
    for p in pairs {
        let pr = at(p, x, k);
        let n = p.n();
        let diff = pr.win_i - pr.win_j;
        let r = 0.5 * ((p.wins_i - p.wins_j) - n * diff);
        g[p.i] += r;
        g[p.j] -= r;
        g[k] += p.ties - n * pr.tie;
        add_pair(
            &mut h,
            d,
            p.i,
            p.j,
            0.25 * n * (pr.win_i + pr.win_j - diff * diff),
        );
        let cross = -0.5 * n * diff * pr.tie;
        add_cross(&mut h, k, p.i, p.j, cross);
        h[d * d - 1] += n * pr.tie * (1.0 - pr.tie);
    }
    (g, h)
}

/// m[i][κ] += w, m[j][κ] −= w and their mirror images (m is (K + 1) × (K + 1), κ last).
fn add_cross(m: &mut [f64], k: usize, i: usize, j: usize, w: f64) {
    let d = k + 1;
    m[i * d + k] += w;
    m[k * d + i] += w;
    m[j * d + k] -= w;
    m[k * d + j] -= w;
}

struct NewtonFit {
    /// θ (K values, Σθ = 0) then κ.
    x: Vec<f64>,
    log_likelihood: f64,
    iterations: usize,
    converged: bool,
}

/// M = H + uuᵀ, u = (1, …, 1, 0), plus `ridge` on the θ diagonal.
fn shifted(k: usize, mut h: Vec<f64>, ridge: f64) -> Vec<f64> {
    let d = k + 1;
    for i in 0..k {
        for j in 0..k {
            h[i * d + j] += 1.0 + if i == j { ridge } else { 0.0 };
        }
    }
    h
}

/// Newton's method from θ = 0 and κ = `kappa0`, in the plane Σθ = 0, with step halving.
fn newton(
    k: usize,
    pairs: &[Pair],
    kappa0: f64,
    options: &SandwichOptions,
) -> Result<NewtonFit, SandwichError> {
    let mut x = vec![0.0; k + 1];
    x[k] = kappa0;
    let mut ll = log_likelihood(k, pairs, &x);
    let mut iterations = 0;
    let mut converged = false;
    while iterations < options.max_iterations {
        iterations += 1;
        let (g, h) = gradient_hessian(k, pairs, &x);
        let chol = cholesky(k + 1, &shifted(k, h, 0.0))
            .ok_or(SandwichError::NotFinite { what: "Hessian" })?;
        let step = chol.solve(&g);
        let mut t = 1.0;
        let mut next = x.clone();
        let mut next_ll = f64::NEG_INFINITY;
        for _ in 0..60 {
            for (y, (xi, s)) in next.iter_mut().zip(x.iter().zip(&step)) {
                *y = xi + t * s;
            }
            next_ll = log_likelihood(k, pairs, &next);
            // Near the optimum ℓ is flat to rounding: accept a step that loses only that.
            if next_ll >= ll - 1e-12 * ll.abs().max(1.0) {
                break;
            }
            t *= 0.5;
        }
        let mean = next[..k].iter().sum::<f64>() / k as f64;
        next[..k].iter_mut().for_each(|v| *v -= mean);
        if !next_ll.is_finite() || next.iter().any(|v| !v.is_finite()) {
            return Err(SandwichError::NotFinite { what: "rating" });
        }
        let moved = next
            .iter()
            .zip(&x)
            .map(|(a, b)| (a - b).abs())
            .fold(0.0, f64::max);
        x = next;
        ll = next_ll;
        if moved <= options.tolerance {
            converged = true;
            break;
        }
    }
    Ok(NewtonFit {
        x,
        log_likelihood: ll,
        iterations,
        converged,
    })
}

/// B += count · s sᵀ for the score s = (u (eᵢ − eⱼ), v).
fn add_score(b: &mut [f64], k: usize, i: usize, j: usize, u: f64, v: f64, count: f64) {
    add_pair(b, k + 1, i, j, count * u * u);
    add_cross(b, k, i, j, count * u * v);
    b[(k + 1) * (k + 1) - 1] += count * v * v;
}

/// B = Σᵣ sᵣsᵣᵀ, by pair: wins of i, wins of j and ties each have one score.
fn hc0_meat(k: usize, pairs: &[Pair], x: &[f64]) -> Vec<f64> {
    let mut b = vec![0.0; (k + 1) * (k + 1)];
    for p in pairs {
        let pr = at(p, x, k);
        let diff = pr.win_i - pr.win_j;
        for (count, sign, tie) in [
            (p.wins_i, 1.0, 0.0),
            (p.wins_j, -1.0, 0.0),
            (p.ties, 0.0, 1.0),
        ] {
            if count > 0.0 {
                add_score(
                    &mut b,
                    k,
                    p.i,
                    p.j,
                    0.5 * (sign - diff),
                    tie - pr.tie,
                    count,
                );
            }
        }
    }
    b
}

/// B = Σ_c U_c U_cᵀ, U_c = Σ_{r∈c} sᵣ.
fn clustered_meat(k: usize, rows: &[Row], ids: &[usize], count: usize, x: &[f64]) -> Vec<f64> {
    let d = k + 1;
    let mut sums = vec![0.0; count * d];
    for (r, &c) in rows.iter().zip(ids) {
        let pr = probabilities(0.5 * (x[r.a] - x[r.b]), x[k]);
        let u = 0.5 * ((2.0 * r.y - 1.0) - (pr.win_i - pr.win_j));
        let tie = if r.y == 0.5 { 1.0 } else { 0.0 };
        let s = &mut sums[c * d..(c + 1) * d];
        s[r.a] += u;
        s[r.b] -= u;
        s[k] += tie - pr.tie;
    }
    let mut b = vec![0.0; d * d];
    for s in sums.chunks_exact(d) {
        for i in 0..d {
            if s[i] != 0.0 {
                for j in 0..d {
                    b[i * d + j] += s[i] * s[j];
                }
            }
        }
    }
    b
}

/// The sandwich M⁻¹BM⁻¹ and the model-based P M⁻¹ P, (K + 1) × (K + 1) in logits.
fn covariances(
    k: usize,
    pairs: &[Pair],
    x: &[f64],
    ridge: f64,
    meat: &[f64],
) -> Result<(Vec<f64>, Vec<f64>), SandwichError> {
    let d = k + 1;
    let (_, h) = gradient_hessian(k, pairs, x);
    let chol: Cholesky =
        cholesky(d, &shifted(k, h, ridge)).ok_or(SandwichError::NotFinite { what: "Hessian" })?;
    let sandwich = sandwich::sandwich_product(&chol, meat);
    let mut inverse = vec![0.0; d * d];
    for j in 0..d {
        let mut e = vec![0.0; d];
        e[j] = 1.0;
        for (i, v) in chol.solve(&e).into_iter().enumerate() {
            inverse[i * d + j] = v;
        }
    }
    let model = project(k, &inverse);
    let bad = |c: &[f64]| c.iter().any(|v| !v.is_finite()) || (0..d).any(|i| c[i * d + i] < 0.0);
    if bad(&sandwich) || bad(&model) {
        return Err(SandwichError::NotFinite { what: "covariance" });
    }
    Ok((sandwich, model))
}

/// P C P, with P removing the mean of the θ part of a vector and keeping κ.
fn project(k: usize, c: &[f64]) -> Vec<f64> {
    let d = k + 1;
    let kf = k as f64;
    // Column means over the θ rows, then row means over the θ columns.
    let mut out = c.to_vec();
    for j in 0..d {
        let mean = (0..k).map(|i| c[i * d + j]).sum::<f64>() / kf;
        for i in 0..k {
            out[i * d + j] -= mean;
        }
    }
    let tmp = out.clone();
    for i in 0..d {
        let mean = (0..k).map(|j| tmp[i * d + j]).sum::<f64>() / kf;
        for j in 0..k {
            out[i * d + j] -= mean;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::preference::Outcome;

    fn names(n: usize) -> Vec<String> {
        (0..n).map(|i| format!("s{i}")).collect()
    }

    fn repeat(a: &str, b: &str, outcome: Outcome, n: usize) -> Vec<Comparison> {
        vec![Comparison::new(a, b, outcome); n]
    }

    fn no_ridge() -> SandwichOptions {
        SandwichOptions {
            hessian_ridge: 0.0,
            ..SandwichOptions::default()
        }
    }

    /// Two systems: the model is saturated, so θ̂₀ = ½ ln(w₀/w₁), ν̂ = t/√(w₀w₁), the sandwich
    /// equals the inverse information and Var(θ̂₀) = (1/w₀ + 1/w₁)/4.
    #[test]
    fn two_systems_closed_form() {
        let mut c = repeat("s0", "s1", Outcome::A, 30);
        c.extend(repeat("s1", "s0", Outcome::A, 10));
        c.extend(repeat("s0", "s1", Outcome::Tie, 12));
        let fit = davidson(&names(2), &c, None, &no_ridge()).unwrap();
        let alpha = 400.0 / 10f64.ln_p();
        assert!(fit.converged);
        let theta = 0.5 * 3.0f64.ln_p();
        assert!((fit.ratings[0].rating - (1000.0 + alpha * theta)).abs() < 1e-9);
        assert!((fit.ratings[1].rating - (1000.0 - alpha * theta)).abs() < 1e-9);
        let nu = 12.0 / 300.0f64.sqrt();
        assert!((fit.ties.nu - nu).abs() < 1e-12, "{}", fit.ties.nu);
        assert!((fit.ties.tie_probability - nu / (2.0 + nu)).abs() < 1e-12);
        let se = alpha * 0.5 * (1.0 / 30.0 + 1.0 / 10.0f64).sqrt();
        assert!(
            (fit.ratings[0].se - se).abs() < 1e-9,
            "{}",
            fit.ratings[0].se
        );
        assert!((fit.model_se[0] - se).abs() < 1e-9, "{}", fit.model_se[0]);
        // Var(ln ν̂) = Var(ln t − ½ ln w₀ − ½ ln w₁) by the multinomial delta method.
        let n = 52.0;
        let (p0, p1, pt) = (30.0 / n, 10.0 / n, 12.0 / n);
        let grad: [f64; 3] = [-0.5, -0.5, 1.0];
        let probs = [p0, p1, pt];
        let mut var = 0.0;
        for a in 0..3 {
            for b in 0..3 {
                let cov = if a == b {
                    probs[a] * (1.0 - probs[a])
                } else {
                    -probs[a] * probs[b]
                } / (n * probs[a] * probs[b]);
                var += grad[a] * grad[b] * cov;
            }
        }
        assert!((fit.ties.model_se - nu * var.sqrt()).abs() < 1e-9);
        assert!((fit.ties.se - fit.ties.model_se).abs() < 1e-9);
        assert!(fit.ties.lower < nu && nu < fit.ties.upper);
    }

    /// The gradient and Hessian agree with central differences of ℓ.
    #[test]
    fn derivatives_match_differences() {
        let mut c = repeat("s0", "s1", Outcome::A, 7);
        c.extend(repeat("s1", "s2", Outcome::Tie, 4));
        c.extend(repeat("s2", "s0", Outcome::A, 3));
        c.extend(repeat("s1", "s0", Outcome::A, 5));
        c.extend(repeat("s2", "s1", Outcome::B, 6));
        let rows = sandwich::index(&names(3), &c).unwrap();
        let pairs = sandwich::tally(3, &rows);
        let x = [0.3, -0.1, -0.2, -0.4];
        let (g, h) = gradient_hessian(3, &pairs, &x);
        let eps = 1e-5;
        for a in 0..4 {
            let mut up = x;
            let mut down = x;
            up[a] += eps;
            down[a] -= eps;
            let num =
                (log_likelihood(3, &pairs, &up) - log_likelihood(3, &pairs, &down)) / (2.0 * eps);
            assert!((num - g[a]).abs() < 1e-6, "gradient {a}: {num} vs {}", g[a]);
            let (gu, _) = gradient_hessian(3, &pairs, &up);
            let (gd, _) = gradient_hessian(3, &pairs, &down);
            for b in 0..4 {
                let num = -(gu[b] - gd[b]) / (2.0 * eps);
                assert!((num - h[b * 4 + a]).abs() < 1e-6, "H[{b}][{a}]");
            }
        }
    }

    /// One cluster per comparison is the unclustered sandwich; swapping sides changes nothing.
    #[test]
    fn singleton_clusters_and_sides() {
        let mut c = repeat("s0", "s1", Outcome::A, 7);
        c.extend(repeat("s1", "s2", Outcome::Tie, 4));
        c.extend(repeat("s2", "s0", Outcome::A, 3));
        c.extend(repeat("s1", "s0", Outcome::A, 5));
        c.extend(repeat("s0", "s2", Outcome::Tie, 2));
        let labels: Vec<String> = (0..c.len()).map(|i| format!("c{i}")).collect();
        let o = SandwichOptions::default();
        let plain = davidson(&names(3), &c, None, &o).unwrap();
        let cl = davidson(&names(3), &c, Some(&labels), &o).unwrap();
        assert_eq!(cl.clusters, Some(c.len()));
        for (a, b) in plain.covariance.iter().zip(&cl.covariance) {
            assert!((a - b).abs() < 1e-9 * a.abs().max(1.0));
        }
        assert!((plain.ties.se - cl.ties.se).abs() < 1e-12);
        let swapped: Vec<Comparison> = c
            .iter()
            .map(|x| {
                let o = match x.outcome {
                    Outcome::A => Outcome::B,
                    Outcome::B => Outcome::A,
                    Outcome::Tie => Outcome::Tie,
                };
                Comparison::new(x.b.clone(), x.a.clone(), o)
            })
            .collect();
        let two = davidson(&names(3), &swapped, None, &o).unwrap();
        for (a, b) in plain.ratings.iter().zip(&two.ratings) {
            assert!((a.rating - b.rating).abs() < 1e-9);
            assert!((a.se - b.se).abs() < 1e-9);
        }
        let mean: f64 = plain.ratings.iter().map(|r| r.rating).sum::<f64>() / 3.0;
        assert!((mean - 1000.0).abs() < 1e-9);
    }

    #[test]
    fn errors_say_what_to_do() {
        let o = SandwichOptions::default();
        let err = |sys: &[String], c: &[Comparison]| davidson(sys, c, None, &o).unwrap_err();
        let mut decisive = repeat("s0", "s1", Outcome::A, 3);
        decisive.extend(repeat("s1", "s0", Outcome::A, 2));
        assert_eq!(
            err(&names(2), &decisive),
            DavidsonError::NoTies { comparisons: 5 }
        );
        assert!(
            err(&names(2), &decisive)
                .to_string()
                .contains("Bradley–Terry")
        );
        let ties = repeat("s0", "s1", Outcome::Tie, 4);
        assert_eq!(
            err(&names(2), &ties),
            DavidsonError::OnlyTies { comparisons: 4 }
        );
        // s1 tied but never won: ratings and ν run off together.
        let mut one_sided = repeat("s0", "s1", Outcome::A, 5);
        one_sided.extend(repeat("s0", "s1", Outcome::Tie, 3));
        assert_eq!(err(&names(2), &one_sided), DavidsonError::Separated);
        // A chain s0 > s1 > s2 with s2 and s0 tied is not separated (the wins put s0 two
        // steps above s2, the tie at most one), so a fit exists.
        let mut chain = repeat("s0", "s1", Outcome::A, 4);
        chain.extend(repeat("s1", "s2", Outcome::A, 4));
        chain.extend(repeat("s2", "s0", Outcome::Tie, 2));
        let fit = davidson(&names(3), &chain, None, &o).unwrap();
        assert!(fit.converged && fit.ties.nu > 0.0);
        assert!(matches!(
            err(&names(1), &ties),
            DavidsonError::Data(SandwichError::TooFewSystems { found: 1 })
        ));
        let mut unseen = ties.clone();
        unseen.push(Comparison::new("s0", "s1", Outcome::A));
        assert!(matches!(
            err(&names(3), &unseen),
            DavidsonError::Data(SandwichError::Unseen { .. })
        ));
        let labels = vec!["a".to_owned()];
        assert!(matches!(
            davidson(&names(2), &unseen, Some(&labels), &o),
            Err(DavidsonError::Data(SandwichError::ClusterCount { .. }))
        ));
    }
}
