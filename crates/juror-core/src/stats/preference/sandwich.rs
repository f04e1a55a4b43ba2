//! Bradley–Terry ratings on the Elo-like scale of LMArena's leaderboard, with sandwich
//! (robust) intervals, optionally clustered by annotator, and confidence sets for ranks.
//!
//! The types and functions that matter:
//! - [`bradley_terry_sandwich`]: the fit, a [`SandwichFit`] with one [`Rating`] per system
//!   (rating, standard error, interval, rank interval, leaderboard rank), the covariance of the
//!   ratings, and whether Newton's method converged;
//! - [`SandwichOptions`]: the scale, offset, confidence level and ridge (arena-rank's defaults);
//! - [`SandwichError`]: why there is no fit, saying what to do.
//!
//! # Model
//! Comparison r of systems aᵣ and bᵣ has outcome yᵣ = 1 (aᵣ won), 0 (bᵣ won) or ½ (a tie:
//! half a win to each side, as arena-rank's default outcome map counts "tie" and "both_bad").
//! With θ the ratings in logits, dᵣ = θ_aᵣ − θ_bᵣ and pᵣ = σ(dᵣ) = 1/(1 + e^−dᵣ), the
//! log-likelihood, its gradient and its Hessian are
//! ℓ(θ) = Σᵣ yᵣ dᵣ − ln(1 + e^dᵣ), ∇ℓ = Σᵣ (yᵣ − pᵣ) xᵣ, −∇²ℓ = H = Σᵣ pᵣ(1 − pᵣ) xᵣxᵣᵀ,
//! where xᵣ = e_aᵣ − e_bᵣ. ℓ does not change when every θ moves by the same amount; the fit
//! takes Σθ = 0 (arena-rank starts from 0 and its L-BFGS steps keep the sum at 0). Newton's
//! method solves (H + 11ᵀ) δ = ∇ℓ (the same step as Hδ = ∇ℓ in the plane Σδ = 0, where H is
//! invertible when the comparisons are strongly connected), halving the step until ℓ does not
//! fall, until no θ moves more than [`SandwichOptions::tolerance`].
//!
//! # Sandwich
//! The covariance of θ̂ is A⁻¹BA⁻¹ with A = H + λN·I (λ = [`SandwichOptions::hessian_ridge`],
//! 1e-5, times N comparisons: arena-rank's ridge, which shrinks the variances by a relative
//! ~λK/p(1 − p), about 1e-4) and B = Σᵣ sᵣsᵣᵀ, sᵣ = (yᵣ − pᵣ) xᵣ, each comparison's score
//! (HC0). Clustered (comparisons grouped by annotator, as arena-rank does not offer): B =
//! Σ_c (Σ_{r∈c} sᵣ)(Σ_{r∈c} sᵣ)ᵀ, without small-sample factor (CR0). As H1 = B1 = 0, A⁻¹BA⁻¹
//! equals M⁻¹BM⁻¹ with M = A + 11ᵀ, which is what is computed (by Cholesky): well conditioned
//! even when λ = 0.
//!
//! # Scale
//! Rating = α θ + offset with α = scale / ln(base) = 400 / ln 10 and offset 1000, so the mean
//! rating is 1000 and a 400-point gap is 10:1 odds. SE = α √Cᵢᵢ; the interval is
//! rating ± z·SE with z = Φ⁻¹(½ + level/2), as arena-rank's `compute_ratings_and_cis`.
//!
//! # Ranks
//! arena-rank gives no rank intervals. Here i is significantly above j when
//! θᵢ − θⱼ − z*·√(Cᵢᵢ + Cⱼⱼ − 2Cᵢⱼ) > 0 with z* = Φ⁻¹(1 − (1 − level)/(2m)), m = K(K − 1)/2: the
//! Bonferroni-simultaneous intervals of all differences, so every rank interval
//! [1 + #(systems above i), K − #(systems below i)] holds at once with probability at least
//! `level` asymptotically (the "confidence set for ranks" of Klein, Wright & Wieczorek 2020,
//! with Bonferroni's correction). [`Rating::leaderboard_rank`] is the rank the Chatbot Arena
//! leaderboard shows (Chiang et al. 2024): 1 + the number of systems whose lower bound is
//! above this one's upper bound.
//!
//! Conventions: the systems and ratings follow the order of the `systems` given; every system
//! must win (or tie) and lose (or tie) a chain to every other one, or the maximum-likelihood
//! ratings are infinite: that, and any other input without a fit, is a [`SandwichError`] that
//! says what to do, never NaN and never a panic.
//!
//! Tested against arena-rank 0.1.1 (`BradleyTerry`, `PairDataset.from_pandas`, sandwich
//! intervals) and a dense numpy implementation of the same estimator with the clustered
//! sandwich and the rank intervals, on seeded data (5 systems with ties and uneven pair counts,
//! 8 systems arena-like, 6 systems with 40 annotators as clusters):
//! `crates/juror-core/tests/it/bt_sandwich.rs` reads
//! `crates/juror-core/tests/reference/bt_sandwich/reference.json`, written by
//! `make_reference.py` beside it (library versions in the file). Tolerance 1e-6 relative to
//! max(1, |value|), as for every iterative fit; measured: against arena-rank run to convergence
//! the ratings agree within 2e-10 points, the bounds within 3.4e-8 and the variances within
//! 1e-6 points² (2e-9 relative); against arena-rank with its default stopping rule within
//! 2.9e-4 points (its L-BFGS stops short of the maximum; the requirement is 2e-3); against
//! numpy the SEs within 1.1e-7 points, the bounds within 2.2e-7 (clustered: 4.8e-9 and 9.4e-9)
//! and the covariance within 5.4e-8 relative. A is nearly singular (condition ~1/λ), so any two
//! implementations of A⁻¹BA⁻¹ differ by ~1e-8 relative in the variances. Rank intervals and
//! leaderboard ranks are equal.

use std::fmt;

use super::{Comparison, Outcome};
use crate::stats::math::Portable;
use crate::stats::special;

/// How [`bradley_terry_sandwich`] fits and scales. The defaults are arena-rank's.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SandwichOptions {
    /// Rating points per factor `base` of odds. Default 400.
    pub scale: f64,
    /// Default 10.
    pub base: f64,
    /// The mean rating. Default 1000.
    pub offset: f64,
    /// Confidence level of the intervals and of the rank sets. Default 0.95.
    pub level: f64,
    /// λ: the Hessian's diagonal gains λ · N (N comparisons) in the sandwich. Default 1e-5,
    /// arena-rank's `hessian_reg`; 0 gives the plain sandwich.
    pub hessian_ridge: f64,
    /// Stop when no θ (in logits) moves more than this. Default 1e-10.
    pub tolerance: f64,
    /// Give up after this many Newton steps (then `converged` is false). Default 100.
    pub max_iterations: usize,
}

impl Default for SandwichOptions {
    fn default() -> Self {
        SandwichOptions {
            scale: 400.0,
            base: 10.0,
            offset: 1000.0,
            level: 0.95,
            hessian_ridge: 1e-5,
            tolerance: 1e-10,
            max_iterations: 100,
        }
    }
}

/// One system's rating.
#[derive(Debug, Clone, PartialEq)]
pub struct Rating {
    pub system: String,
    /// α θ + offset.
    pub rating: f64,
    /// Sandwich standard error, in rating points.
    pub se: f64,
    /// rating ∓ z · SE.
    pub lower: f64,
    pub upper: f64,
    /// The confidence set of the rank (1 = best): [`rank_lower`, `rank_upper`].
    pub rank_lower: usize,
    pub rank_upper: usize,
    /// 1 + the number of systems whose lower bound exceeds this one's upper bound.
    pub leaderboard_rank: usize,
}

/// Ratings with their sandwich covariance.
#[derive(Debug, Clone, PartialEq)]
pub struct SandwichFit {
    /// In the order of the `systems` given.
    pub ratings: Vec<Rating>,
    /// K × K, row-major, in rating points squared: α² A⁻¹BA⁻¹.
    pub covariance: Vec<f64>,
    /// The number of clusters when the sandwich is clustered, else `None` (one score per
    /// comparison).
    pub clusters: Option<usize>,
    /// z of the intervals.
    pub z: f64,
    /// z* of the rank sets (Bonferroni over the K(K − 1)/2 differences).
    pub rank_z: f64,
    pub log_likelihood: f64,
    pub iterations: usize,
    pub converged: bool,
}

impl SandwichFit {
    /// The rating of `system`, if it was in the list.
    pub fn rating(&self, system: &str) -> Option<&Rating> {
        self.ratings.iter().find(|r| r.system == system)
    }
}

/// Why there are no ratings. Each says what to do.
#[derive(Debug, Clone, PartialEq)]
pub enum SandwichError {
    /// Fewer than two systems in the list.
    TooFewSystems { found: usize },
    /// A system listed twice.
    DuplicateSystem { system: String },
    /// A comparison names a system not in the list.
    UnknownSystem { index: usize, system: String },
    /// A comparison of a system with itself.
    SelfComparison { index: usize, system: String },
    /// Cluster labels that are not one per comparison.
    ClusterCount { comparisons: usize, clusters: usize },
    /// Systems in the list that no comparison names.
    Unseen { systems: Vec<String> },
    /// Systems with no win and no tie: their rating would be −∞.
    NeverWon { systems: Vec<String> },
    /// Systems with no loss and no tie: their rating would be +∞.
    NeverLost { systems: Vec<String> },
    /// No chain of wins or ties from `from` to `to`: some ratings would be infinite.
    NotConnected { from: String, to: String },
    /// An option out of its range.
    BadOption { name: &'static str, value: f64 },
    /// The fit or the covariance overflowed or lost its positive definiteness.
    NotFinite { what: &'static str },
}

impl fmt::Display for SandwichError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SandwichError::TooFewSystems { found } => write!(
                f,
                "{found} system(s): ratings need at least two systems compared with each other"
            ),
            SandwichError::DuplicateSystem { system } => {
                write!(
                    f,
                    "system \"{system}\" is listed twice; list each system once"
                )
            }
            SandwichError::UnknownSystem { index, system } => write!(
                f,
                "comparisons[{index}]: system \"{system}\" is not in the list of systems; \
                 add it or fix the comparison"
            ),
            SandwichError::SelfComparison { index, system } => write!(
                f,
                "comparisons[{index}]: system \"{system}\" is compared with itself; \
                 remove the comparison or fix one of its systems"
            ),
            SandwichError::ClusterCount {
                comparisons,
                clusters,
            } => write!(
                f,
                "{clusters} cluster labels for {comparisons} comparisons: give one label \
                 (e.g. the annotator) per comparison, or none"
            ),
            SandwichError::Unseen { systems } => write!(
                f,
                "no comparison names {}: collect comparisons for them or leave them out",
                list(systems)
            ),
            SandwichError::NeverWon { systems } => write!(
                f,
                "{} never won nor tied a comparison, so the maximum-likelihood rating is −∞; \
                 collect more comparisons or leave them out",
                list(systems)
            ),
            SandwichError::NeverLost { systems } => write!(
                f,
                "{} never lost nor tied a comparison, so the maximum-likelihood rating is +∞; \
                 collect more comparisons or leave them out",
                list(systems)
            ),
            SandwichError::NotConnected { from, to } => write!(
                f,
                "no chain of comparisons in which each system beat or tied the next leads \
                 from \"{from}\" to \"{to}\": the systems fall into groups that never met or \
                 where one group won every meeting, so the ratings are infinite; collect \
                 comparisons between the groups, or rate each group on its own"
            ),
            SandwichError::BadOption { name, value } => {
                write!(f, "{name} = {value} is not allowed; see SandwichOptions")
            }
            SandwichError::NotFinite { what } => write!(
                f,
                "the {what} is not finite: the comparisons are too lopsided for a fit; \
                 collect more comparisons between the extreme systems"
            ),
        }
    }
}

impl std::error::Error for SandwichError {}

fn list(systems: &[String]) -> String {
    let quoted: Vec<String> = systems.iter().map(|s| format!("\"{s}\"")).collect();
    quoted.join(", ")
}

pub(super) fn check_options(o: &SandwichOptions) -> Result<(), SandwichError> {
    let bad = |name, value| Err(SandwichError::BadOption { name, value });
    if !(o.scale.is_finite() && o.scale > 0.0) {
        return bad("scale", o.scale);
    }
    if !(o.base.is_finite() && o.base > 1.0) {
        return bad("base", o.base);
    }
    if !o.offset.is_finite() {
        return bad("offset", o.offset);
    }
    if !(o.level > 0.0 && o.level < 1.0) {
        return bad("level", o.level);
    }
    if !(o.hessian_ridge.is_finite() && o.hessian_ridge >= 0.0) {
        return bad("hessian_ridge", o.hessian_ridge);
    }
    if !(o.tolerance.is_finite() && o.tolerance > 0.0) {
        return bad("tolerance", o.tolerance);
    }
    Ok(())
}

/// One comparison by indices: y = 1 when `a` won, 0 when `b` won, ½ for a tie.
#[derive(Debug, Clone, Copy)]
pub(super) struct Row {
    pub(super) a: usize,
    pub(super) b: usize,
    pub(super) y: f64,
}

/// The records of the pairs i < j that met: wins of i, wins of j, ties.
#[derive(Debug, Clone, Copy)]
pub(super) struct Pair {
    pub(super) i: usize,
    pub(super) j: usize,
    pub(super) wins_i: f64,
    pub(super) wins_j: f64,
    pub(super) ties: f64,
}

impl Pair {
    pub(super) fn n(&self) -> f64 {
        self.wins_i + self.wins_j + self.ties
    }
    /// Wins of i with ties as halves.
    pub(super) fn score_i(&self) -> f64 {
        self.wins_i + 0.5 * self.ties
    }
}

/// Bradley–Terry ratings of `systems` from `comparisons`, with sandwich intervals and rank
/// sets; clustered by `clusters` (one label per comparison, e.g. the annotator) when given.
///
/// # Errors
/// Fewer than two systems, a system listed twice, a comparison naming an unknown system or a
/// system with itself, cluster labels not one per comparison, a system never compared, never
/// winning or never losing (ties count as both), comparisons not strongly connected, an option
/// out of range, or a fit that overflows: see [`SandwichError`].
pub fn bradley_terry_sandwich(
    systems: &[String],
    comparisons: &[Comparison],
    clusters: Option<&[String]>,
    options: &SandwichOptions,
) -> Result<SandwichFit, SandwichError> {
    check_options(options)?;
    let k = systems.len();
    if k < 2 {
        return Err(SandwichError::TooFewSystems { found: k });
    }
    let rows = index(systems, comparisons)?;
    let cluster_of = match clusters {
        Some(labels) if labels.len() != comparisons.len() => {
            return Err(SandwichError::ClusterCount {
                comparisons: comparisons.len(),
                clusters: labels.len(),
            });
        }
        Some(labels) => Some(number_clusters(labels)),
        None => None,
    };
    let pairs = tally(k, &rows);
    check_existence(systems, &pairs)?;

    let fit = newton(k, &pairs, options)?;
    let n = rows.len() as f64;
    let meat = match &cluster_of {
        Some((ids, count)) => clustered_meat(k, &rows, ids, *count, &fit.theta),
        None => hc0_meat(k, &pairs, &fit.theta),
    };
    let cov = sandwich(k, &pairs, &fit.theta, options.hessian_ridge * n, &meat)?;
    let alpha = options.scale / options.base.ln_p();
    let ratings = rate(systems, &fit.theta, &cov, alpha, options);
    Ok(SandwichFit {
        ratings,
        covariance: cov.iter().map(|c| c * alpha * alpha).collect(),
        clusters: cluster_of.map(|(_, count)| count),
        z: special::normal_quantile(0.5 + options.level / 2.0),
        rank_z: rank_z(k, options.level),
        log_likelihood: fit.log_likelihood,
        iterations: fit.iterations,
        converged: fit.converged,
    })
}

/// The comparisons as rows of indices into `systems`.
pub(super) fn index(
    systems: &[String],
    comparisons: &[Comparison],
) -> Result<Vec<Row>, SandwichError> {
    let mut sorted: Vec<(&str, usize)> = systems
        .iter()
        .enumerate()
        .map(|(i, s)| (s.as_str(), i))
        .collect();
    sorted.sort();
    for w in sorted.windows(2) {
        if w[0].0 == w[1].0 {
            return Err(SandwichError::DuplicateSystem {
                system: w[0].0.to_owned(),
            });
        }
    }
    let find = |index: usize, s: &str| {
        sorted
            .binary_search_by(|(x, _)| (*x).cmp(s))
            .map(|at| sorted[at].1)
            .map_err(|_| SandwichError::UnknownSystem {
                index,
                system: s.to_owned(),
            })
    };
    comparisons
        .iter()
        .enumerate()
        .map(|(index, c)| {
            if c.a == c.b {
                return Err(SandwichError::SelfComparison {
                    index,
                    system: c.a.clone(),
                });
            }
            let y = match c.outcome {
                Outcome::A => 1.0,
                Outcome::B => 0.0,
                Outcome::Tie => 0.5,
            };
            Ok(Row {
                a: find(index, &c.a)?,
                b: find(index, &c.b)?,
                y,
            })
        })
        .collect()
}

/// Cluster numbers (in order of first appearance) and their count.
pub(super) fn number_clusters(labels: &[String]) -> (Vec<usize>, usize) {
    let mut seen: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    let ids = labels
        .iter()
        .map(|l| {
            let next = seen.len();
            *seen.entry(l.as_str()).or_insert(next)
        })
        .collect();
    (ids, seen.len())
}

/// The pairs that met, i < j, in order.
pub(super) fn tally(k: usize, rows: &[Row]) -> Vec<Pair> {
    let mut grid = vec![[0.0f64; 3]; k * k];
    for r in rows {
        let (i, j, y) = if r.a < r.b {
            (r.a, r.b, r.y)
        } else {
            (r.b, r.a, 1.0 - r.y)
        };
        let cell = &mut grid[i * k + j];
        if y == 1.0 {
            cell[0] += 1.0;
        } else if y == 0.0 {
            cell[1] += 1.0;
        } else {
            cell[2] += 1.0;
        }
    }
    let mut pairs = Vec::new();
    for i in 0..k {
        for j in (i + 1)..k {
            let [wins_i, wins_j, ties] = grid[i * k + j];
            if wins_i + wins_j + ties > 0.0 {
                pairs.push(Pair {
                    i,
                    j,
                    wins_i,
                    wins_j,
                    ties,
                });
            }
        }
    }
    pairs
}

/// The maximum-likelihood estimate exists (and is unique up to a shift) iff the digraph
/// i → j, "i beat or tied j", is strongly connected (Ford 1957; Hunter 2004).
pub(super) fn check_existence(systems: &[String], pairs: &[Pair]) -> Result<(), SandwichError> {
    let k = systems.len();
    let mut seen = vec![false; k];
    let mut won = vec![false; k];
    let mut lost = vec![false; k];
    let mut edge = vec![false; k * k];
    for p in pairs {
        seen[p.i] = true;
        seen[p.j] = true;
        won[p.i] |= p.score_i() > 0.0;
        won[p.j] |= p.n() - p.score_i() > 0.0;
        lost[p.i] |= p.n() - p.score_i() > 0.0;
        lost[p.j] |= p.score_i() > 0.0;
        edge[p.i * k + p.j] |= p.score_i() > 0.0;
        edge[p.j * k + p.i] |= p.n() - p.score_i() > 0.0;
    }
    let names = |flags: &[bool]| -> Vec<String> {
        flags
            .iter()
            .zip(systems)
            .filter(|(f, _)| !**f)
            .map(|(_, s)| s.clone())
            .collect()
    };
    let unseen = names(&seen);
    if !unseen.is_empty() {
        return Err(SandwichError::Unseen { systems: unseen });
    }
    let never_won = names(&won);
    if !never_won.is_empty() {
        return Err(SandwichError::NeverWon { systems: never_won });
    }
    let never_lost = names(&lost);
    if !never_lost.is_empty() {
        return Err(SandwichError::NeverLost {
            systems: never_lost,
        });
    }
    for forward in [true, false] {
        let reached = reach(k, &edge, forward);
        if let Some(far) = reached.iter().position(|r| !r) {
            let (from, to) = if forward { (0, far) } else { (far, 0) };
            return Err(SandwichError::NotConnected {
                from: systems[from].clone(),
                to: systems[to].clone(),
            });
        }
    }
    Ok(())
}

/// The systems reached from system 0 along the edges (or against them).
fn reach(k: usize, edge: &[bool], forward: bool) -> Vec<bool> {
    let mut seen = vec![false; k];
    let mut stack = vec![0];
    seen[0] = true;
    while let Some(a) = stack.pop() {
        for b in 0..k {
            let e = if forward {
                edge[a * k + b]
            } else {
                edge[b * k + a]
            };
            if e && !seen[b] {
                seen[b] = true;
                stack.push(b);
            }
        }
    }
    seen
}

/// σ(d) = 1/(1 + e^−d).
fn sigmoid(d: f64) -> f64 {
    1.0 / (1.0 + (-d).exp_p())
}

/// ln(1 + eˣ), without overflow.
fn softplus(x: f64) -> f64 {
    x.max(0.0) + (-x.abs()).exp_p().ln_1p_p()
}

/// ℓ(θ) = Σ (score of i) ln σ(d) + (score of j) ln σ(−d), ln σ(d) = −softplus(−d).
fn log_likelihood(pairs: &[Pair], theta: &[f64]) -> f64 {
    pairs
        .iter()
        .map(|p| {
            let d = theta[p.i] - theta[p.j];
            let (si, sj) = (p.score_i(), p.n() - p.score_i());
            -si * softplus(-d) - sj * softplus(d)
        })
        .sum()
}

/// The gradient of ℓ and H = −∇²ℓ (K × K, row-major).
fn gradient_hessian(k: usize, pairs: &[Pair], theta: &[f64]) -> (Vec<f64>, Vec<f64>) {
    let mut g = vec![0.0; k];
    let mut h = vec![0.0; k * k];
    for p in pairs {
        let prob = sigmoid(theta[p.i] - theta[p.j]);
        let r = p.score_i() - p.n() * prob;
        g[p.i] += r;
        g[p.j] -= r;
        let w = p.n() * prob * (1.0 - prob);
        add_pair(&mut h, k, p.i, p.j, w);
    }
    (g, h)
}

/// m += w (eᵢ − eⱼ)(eᵢ − eⱼ)ᵀ.
pub(super) fn add_pair(m: &mut [f64], k: usize, i: usize, j: usize, w: f64) {
    m[i * k + i] += w;
    m[j * k + j] += w;
    m[i * k + j] -= w;
    m[j * k + i] -= w;
}

struct NewtonFit {
    theta: Vec<f64>,
    log_likelihood: f64,
    iterations: usize,
    converged: bool,
}

/// Newton's method from θ = 0 in the plane Σθ = 0, with step halving.
fn newton(k: usize, pairs: &[Pair], options: &SandwichOptions) -> Result<NewtonFit, SandwichError> {
    let mut theta = vec![0.0; k];
    let mut ll = log_likelihood(pairs, &theta);
    let mut iterations = 0;
    let mut converged = false;
    while iterations < options.max_iterations {
        iterations += 1;
        let (g, mut h) = gradient_hessian(k, pairs, &theta);
        h.iter_mut().for_each(|x| *x += 1.0);
        let chol = cholesky(k, &h).ok_or(SandwichError::NotFinite { what: "Hessian" })?;
        let step = chol.solve(&g);
        let mut t = 1.0;
        let mut next = theta.clone();
        let mut next_ll = f64::NEG_INFINITY;
        for _ in 0..60 {
            for (x, (th, s)) in next.iter_mut().zip(theta.iter().zip(&step)) {
                *x = th + t * s;
            }
            next_ll = log_likelihood(pairs, &next);
            // Near the optimum ℓ is flat to rounding: accept a step that loses only that.
            if next_ll >= ll - 1e-12 * ll.abs().max(1.0) {
                break;
            }
            t *= 0.5;
        }
        let mean = next.iter().sum::<f64>() / k as f64;
        next.iter_mut().for_each(|x| *x -= mean);
        if !next_ll.is_finite() || next.iter().any(|x| !x.is_finite()) {
            return Err(SandwichError::NotFinite { what: "rating" });
        }
        let moved = next
            .iter()
            .zip(&theta)
            .map(|(a, b)| (a - b).abs())
            .fold(0.0, f64::max);
        theta = next;
        ll = next_ll;
        if moved <= options.tolerance {
            converged = true;
            break;
        }
    }
    Ok(NewtonFit {
        theta,
        log_likelihood: ll,
        iterations,
        converged,
    })
}

/// B = Σᵣ (yᵣ − pᵣ)² xᵣxᵣᵀ, by pair: wins of i contribute (1 − p)², wins of j p², ties
/// (½ − p)².
fn hc0_meat(k: usize, pairs: &[Pair], theta: &[f64]) -> Vec<f64> {
    let mut b = vec![0.0; k * k];
    for p in pairs {
        let prob = sigmoid(theta[p.i] - theta[p.j]);
        let w = p.wins_i * (1.0 - prob) * (1.0 - prob)
            + p.wins_j * prob * prob
            + p.ties * (0.5 - prob) * (0.5 - prob);
        add_pair(&mut b, k, p.i, p.j, w);
    }
    b
}

/// B = Σ_c u_c u_cᵀ, u_c = Σ_{r∈c} (yᵣ − pᵣ) xᵣ.
fn clustered_meat(k: usize, rows: &[Row], ids: &[usize], count: usize, theta: &[f64]) -> Vec<f64> {
    let mut u = vec![0.0; count * k];
    for (r, &c) in rows.iter().zip(ids) {
        let s = r.y - sigmoid(theta[r.a] - theta[r.b]);
        u[c * k + r.a] += s;
        u[c * k + r.b] -= s;
    }
    let mut b = vec![0.0; k * k];
    for uc in u.chunks_exact(k) {
        for i in 0..k {
            if uc[i] != 0.0 {
                for j in 0..k {
                    b[i * k + j] += uc[i] * uc[j];
                }
            }
        }
    }
    b
}

/// A⁻¹BA⁻¹ computed as M⁻¹BM⁻¹, M = H + ridge·I + 11ᵀ (in logits²).
fn sandwich(
    k: usize,
    pairs: &[Pair],
    theta: &[f64],
    ridge: f64,
    meat: &[f64],
) -> Result<Vec<f64>, SandwichError> {
    let (_, mut m) = gradient_hessian(k, pairs, theta);
    for i in 0..k {
        for j in 0..k {
            m[i * k + j] += 1.0 + if i == j { ridge } else { 0.0 };
        }
    }
    let chol = cholesky(k, &m).ok_or(SandwichError::NotFinite { what: "Hessian" })?;
    let c = sandwich_product(&chol, meat);
    if c.iter().any(|v| !v.is_finite()) || (0..k).any(|i| c[i * k + i] < 0.0) {
        return Err(SandwichError::NotFinite { what: "covariance" });
    }
    Ok(c)
}

/// M⁻¹BM⁻¹ from the Cholesky factor of M and the symmetric B (`meat`), symmetrised.
pub(super) fn sandwich_product(chol: &Cholesky, meat: &[f64]) -> Vec<f64> {
    let k = chol.k;
    // X = M⁻¹B (column by column; B is symmetric so its rows are its columns), then
    // C = M⁻¹Xᵀ = M⁻¹BM⁻¹.
    let mut x = vec![0.0; k * k];
    for j in 0..k {
        let col = chol.solve(&meat[j * k..(j + 1) * k]);
        for i in 0..k {
            x[i * k + j] = col[i];
        }
    }
    let mut c = vec![0.0; k * k];
    for i in 0..k {
        let col = chol.solve(&x[i * k..(i + 1) * k]);
        for j in 0..k {
            c[j * k + i] = col[j];
        }
    }
    // Symmetrise the rounding.
    for i in 0..k {
        for j in (i + 1)..k {
            let s = 0.5 * (c[i * k + j] + c[j * k + i]);
            c[i * k + j] = s;
            c[j * k + i] = s;
        }
    }
    c
}

/// z* = Φ⁻¹(1 − (1 − level)/(2m)), m = K(K − 1)/2.
pub(super) fn rank_z(k: usize, level: f64) -> f64 {
    let m = (k * (k - 1) / 2) as f64;
    special::normal_quantile(1.0 - (1.0 - level) / (2.0 * m))
}

pub(super) fn rate(
    systems: &[String],
    theta: &[f64],
    cov: &[f64],
    alpha: f64,
    options: &SandwichOptions,
) -> Vec<Rating> {
    let k = systems.len();
    let z = special::normal_quantile(0.5 + options.level / 2.0);
    let zr = rank_z(k, options.level);
    let scale = |x: f64| x * alpha + options.offset;
    let se: Vec<f64> = (0..k).map(|i| cov[i * k + i].sqrt()).collect();
    let above = |i: usize, j: usize| {
        let var = cov[i * k + i] + cov[j * k + j] - 2.0 * cov[i * k + j];
        theta[i] - theta[j] - zr * var.max(0.0).sqrt() > 0.0
    };
    let lower: Vec<f64> = (0..k).map(|i| scale(theta[i] - z * se[i])).collect();
    let upper: Vec<f64> = (0..k).map(|i| scale(theta[i] + z * se[i])).collect();
    (0..k)
        .map(|i| {
            let better = (0..k).filter(|&j| j != i && above(j, i)).count();
            let worse = (0..k).filter(|&j| j != i && above(i, j)).count();
            Rating {
                system: systems[i].clone(),
                rating: scale(theta[i]),
                se: alpha * se[i],
                lower: lower[i],
                upper: upper[i],
                rank_lower: 1 + better,
                rank_upper: k - worse,
                leaderboard_rank: 1 + (0..k).filter(|&j| lower[j] > upper[i]).count(),
            }
        })
        .collect()
}

/// The lower Cholesky factor of a symmetric positive-definite matrix.
pub(super) struct Cholesky {
    k: usize,
    l: Vec<f64>,
}

/// `None` when `m` is not (numerically) positive definite.
pub(super) fn cholesky(k: usize, m: &[f64]) -> Option<Cholesky> {
    let mut l = vec![0.0; k * k];
    for i in 0..k {
        for j in 0..=i {
            let mut s = m[i * k + j];
            for p in 0..j {
                s -= l[i * k + p] * l[j * k + p];
            }
            if i == j {
                if !(s > 0.0 && s.is_finite()) {
                    return None;
                }
                l[i * k + i] = s.sqrt();
            } else {
                l[i * k + j] = s / l[j * k + j];
            }
        }
    }
    Some(Cholesky { k, l })
}

impl Cholesky {
    /// x with L Lᵀ x = b.
    pub(super) fn solve(&self, b: &[f64]) -> Vec<f64> {
        let (k, l) = (self.k, &self.l);
        let mut y = b.to_vec();
        for i in 0..k {
            for p in 0..i {
                y[i] -= l[i * k + p] * y[p];
            }
            y[i] /= l[i * k + i];
        }
        for i in (0..k).rev() {
            for p in (i + 1)..k {
                y[i] -= l[p * k + i] * y[p];
            }
            y[i] /= l[i * k + i];
        }
        y
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(n: usize) -> Vec<String> {
        (0..n).map(|i| format!("s{i}")).collect()
    }

    fn repeat(a: &str, b: &str, outcome: Outcome, n: usize) -> Vec<Comparison> {
        vec![Comparison::new(a, b, outcome); n]
    }

    /// K = 2 without ties and without ridge: d̂ = logit(w/n), Var(d̂) = 1/(n p(1 − p)).
    #[test]
    fn two_systems_closed_form() {
        let mut c = repeat("s0", "s1", Outcome::A, 30);
        c.extend(repeat("s1", "s0", Outcome::A, 10));
        let options = SandwichOptions {
            hessian_ridge: 0.0,
            ..SandwichOptions::default()
        };
        let fit = bradley_terry_sandwich(&names(2), &c, None, &options).unwrap();
        let alpha = 400.0 / 10f64.ln_p();
        let d = 3.0f64.ln_p();
        assert!(fit.converged);
        assert!((fit.ratings[0].rating - (1000.0 + alpha * d / 2.0)).abs() < 1e-9);
        assert!((fit.ratings[1].rating - (1000.0 - alpha * d / 2.0)).abs() < 1e-9);
        let var_d: f64 = 1.0 / (40.0 * 0.75 * 0.25);
        let se = alpha * (var_d / 4.0).sqrt();
        assert!(
            (fit.ratings[0].se - se).abs() < 1e-9,
            "{}",
            fit.ratings[0].se
        );
        assert_eq!(fit.ratings[0].rank_lower, 1);
        assert_eq!(fit.ratings[1].rank_upper, 2);
    }

    /// Swapping the sides of every comparison (and its outcome) changes nothing.
    #[test]
    fn sides_do_not_matter() {
        let mut c = repeat("s0", "s1", Outcome::A, 7);
        c.extend(repeat("s1", "s2", Outcome::Tie, 4));
        c.extend(repeat("s2", "s0", Outcome::A, 3));
        c.extend(repeat("s1", "s0", Outcome::A, 5));
        c.extend(repeat("s2", "s1", Outcome::B, 6));
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
        let o = SandwichOptions::default();
        let one = bradley_terry_sandwich(&names(3), &c, None, &o).unwrap();
        let two = bradley_terry_sandwich(&names(3), &swapped, None, &o).unwrap();
        for (a, b) in one.ratings.iter().zip(&two.ratings) {
            assert!((a.rating - b.rating).abs() < 1e-9);
            assert!((a.se - b.se).abs() < 1e-9);
        }
        let mean: f64 = one.ratings.iter().map(|r| r.rating).sum::<f64>() / 3.0;
        assert!((mean - 1000.0).abs() < 1e-9);
    }

    /// One cluster per comparison is the unclustered sandwich.
    #[test]
    fn singleton_clusters_are_hc0() {
        let mut c = repeat("s0", "s1", Outcome::A, 7);
        c.extend(repeat("s1", "s2", Outcome::Tie, 4));
        c.extend(repeat("s2", "s0", Outcome::A, 3));
        c.extend(repeat("s1", "s0", Outcome::A, 5));
        let labels: Vec<String> = (0..c.len()).map(|i| format!("c{i}")).collect();
        let o = SandwichOptions::default();
        let plain = bradley_terry_sandwich(&names(3), &c, None, &o).unwrap();
        let cl = bradley_terry_sandwich(&names(3), &c, Some(&labels), &o).unwrap();
        assert_eq!(cl.clusters, Some(c.len()));
        for (a, b) in plain.covariance.iter().zip(&cl.covariance) {
            assert!((a - b).abs() < 1e-9 * a.abs().max(1.0));
        }
    }

    #[test]
    fn errors_say_what_is_wrong() {
        let o = SandwichOptions::default();
        let c = repeat("s0", "s1", Outcome::A, 3);
        let err = |sys: &[String], c: &[Comparison]| {
            bradley_terry_sandwich(sys, c, None, &o).unwrap_err()
        };
        assert_eq!(
            err(&names(1), &c),
            SandwichError::TooFewSystems { found: 1 }
        );
        assert!(
            matches!(err(&names(2), &c), SandwichError::NeverWon { systems } if systems == ["s1"])
        );
        let mut d = c.clone();
        d.extend(repeat("s1", "s0", Outcome::A, 2));
        assert!(matches!(err(&names(3), &d), SandwichError::Unseen { .. }));
        let mut e = d.clone();
        e.extend(repeat("s2", "s3", Outcome::Tie, 2));
        let msg = err(&names(4), &e).to_string();
        assert!(msg.contains("no chain"), "{msg}");
        let mut f = d.clone();
        f.push(Comparison::new("s0", "zz", Outcome::A));
        assert!(matches!(
            err(&names(2), &f),
            SandwichError::UnknownSystem { index: 5, .. }
        ));
        let labels = vec!["a".to_owned()];
        assert!(matches!(
            bradley_terry_sandwich(&names(2), &d, Some(&labels), &o),
            Err(SandwichError::ClusterCount { .. })
        ));
        let bad = SandwichOptions { level: 1.0, ..o };
        assert!(bradley_terry_sandwich(&names(2), &d, None, &bad).is_err());
        let dup = vec!["s0".to_owned(), "s0".to_owned()];
        assert!(matches!(
            err(&dup, &d),
            SandwichError::DuplicateSystem { .. }
        ));
        // Only ties: both won and lost (half) every meeting, so the fit exists.
        let ties = repeat("s0", "s1", Outcome::Tie, 4);
        let fit = bradley_terry_sandwich(&names(2), &ties, None, &o).unwrap();
        assert!((fit.ratings[0].rating - 1000.0).abs() < 1e-12);
    }
}
