//! Rater quality: the Dawid–Skene model, which estimates each rater's confusion matrix and each
//! unit's true category together, by EM.
//!
//! # Model
//! Unit t has a true category z_t with prior P(z_t = c) = π_c; rater w, shown a unit whose true
//! category is c, answers k with probability e_w[k][c] (a column of w's confusion matrix sums to
//! 1). Dawid and Skene (1979) fit π, e and the posteriors P(z_t = c | answers) by EM.
//!
//! # Algorithm (as crowd-kit's `DawidSkene(n_iter=100, tol=1e-5)` runs it)
//! - Start: each unit's posterior is its majority vote's shares (the count of each category
//!   over the unit's answers), π the mean posterior.
//! - M-step: e_w[k][c] = Σ over w's answers k of the unit's posterior of c, raised to at least
//!   ε = 10⁻¹⁰, then each column divided by its sum over the categories w used (a category w
//!   never answered has no row, read as 0).
//! - E-step: ln P(z_t = c) = ln max(π_c, ε) + Σ over t's answers (w, k) of ln e_w[k][c] + a
//!   constant, shifted by the row's maximum, exponentiated and normalised (crowd-kit takes base
//!   2 logarithms: the same posteriors up to rounding); π is then the mean posterior
//!   and the M-step runs again.
//! - Stopping rule: after each E- and M-step the evidence lower bound per answer,
//!   (Σ_answers Σ_c p_tc (ln e_w[k][c] + ln max(π_c, ε)) − Σ_t Σ_c p̃_tc ln p̃_tc) / answers with
//!   p̃ = max(p, ε), is computed; the fit stops when it rose by less than 10⁻⁵, or after 100
//!   rounds. The posteriors reported are p̃ (crowd-kit keeps them clipped).
//! - A unit's consensus is its most probable category, ties to the first category (categories
//!   in ascending order, as crowd-kit sorts them); a rater's accuracy is Σ_c π_c e_w[c][c].
//!
//! # Reference
//! crowd-kit 1.4.2 (`crates/juror-core/tests/reference/raters`), within 1e-6.
//!
//! [`mace`] fits MACE (per rater, the probability of answering from knowledge rather than
//! spamming) to the same [`Answer`]s.

use super::math::Portable;

pub mod mace;

/// The smallest probability the fit lets a confusion entry, prior or posterior take.
const EPS: f64 = 1e-10;
/// Rounds of EM at most.
const MAX_ROUNDS: usize = 100;
/// The rise of the bound per answer below which the fit stops.
const TOLERANCE: f64 = 1e-5;

/// One answer: a rater's category for a unit, each as an index (units and raters from 0,
/// categories from 0 in ascending order).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Answer {
    pub unit: usize,
    pub rater: usize,
    pub category: usize,
}

/// A Dawid–Skene fit.
#[derive(Debug, Clone, PartialEq)]
pub struct DawidSkene {
    /// Per unit, the posterior of each category.
    pub posterior: Vec<Vec<f64>>,
    /// Per unit, its most probable category.
    pub consensus: Vec<usize>,
    /// Per unit, the majority vote (ties to the first category): what the fit started from.
    pub majority: Vec<usize>,
    /// The prior of each category.
    pub prior: Vec<f64>,
    /// Per rater, `confusion[k][c]`: the probability of answering k when the truth is c; a
    /// category the rater never answered is a row of `None`.
    pub confusion: Vec<Vec<Option<Vec<f64>>>>,
    /// Per rater, Σ_c π_c e[c][c] (a row never answered counts 0).
    pub accuracy: Vec<f64>,
    /// Rounds of EM run.
    pub rounds: usize,
    /// Whether the bound stopped rising before the last round.
    pub converged: bool,
}

/// Why a fit cannot run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RatersError {
    /// No answers.
    Empty,
    /// An answer names a unit, rater or category at or past the count given.
    OutOfRange,
    /// A unit with no answer.
    Unanswered(usize),
    /// An option of a fit out of its range, by name.
    InvalidOption(&'static str),
}

impl std::fmt::Display for RatersError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RatersError::Empty => write!(f, "no answers to fit"),
            RatersError::OutOfRange => {
                write!(f, "an answer outside the units, raters or categories")
            }
            RatersError::Unanswered(u) => write!(f, "unit {u} has no answer"),
            RatersError::InvalidOption(name) => write!(f, "the option {name} is out of its range"),
        }
    }
}

/// Fits the Dawid–Skene model to `answers` over `units` units, `raters` raters and
/// `categories` categories (see the module's documentation for the algorithm).
///
/// # Errors
/// No answers, an index out of range, or a unit without answers.
pub fn dawid_skene(
    answers: &[Answer],
    units: usize,
    raters: usize,
    categories: usize,
) -> Result<DawidSkene, RatersError> {
    if answers.is_empty() {
        return Err(RatersError::Empty);
    }
    if answers
        .iter()
        .any(|a| a.unit >= units || a.rater >= raters || a.category >= categories)
    {
        return Err(RatersError::OutOfRange);
    }
    let k = categories;
    let mut counts = vec![vec![0.0; k]; units];
    for a in answers {
        counts[a.unit][a.category] += 1.0;
    }
    if let Some(u) = counts.iter().position(|c| c.iter().sum::<f64>() == 0.0) {
        return Err(RatersError::Unanswered(u));
    }
    let majority: Vec<usize> = counts.iter().map(|c| first_max(c)).collect();
    let mut posterior: Vec<Vec<f64>> = counts
        .iter()
        .map(|c| {
            let n: f64 = c.iter().sum();
            c.iter().map(|x| x / n).collect()
        })
        .collect();
    let mut prior = mean_rows(&posterior, k);
    let mut confusion = m_step(answers, &posterior, raters, k);
    let mut bound = f64::NEG_INFINITY;
    let mut rounds = 0;
    let mut converged = false;
    while rounds < MAX_ROUNDS {
        rounds += 1;
        posterior = e_step(answers, &prior, &confusion, units, k);
        prior = mean_rows(&posterior, k);
        confusion = m_step(answers, &posterior, raters, k);
        let next = lower_bound(answers, &posterior, &prior, &confusion) / answers.len() as f64;
        // The bound clips the posteriors it takes the entropy of, and the fit keeps them so.
        for p in posterior.iter_mut().flatten() {
            *p = p.max(EPS);
        }
        if next - bound < TOLERANCE {
            converged = true;
            break;
        }
        bound = next;
    }
    for p in &mut prior {
        *p = p.max(EPS);
    }
    let consensus = posterior.iter().map(|p| first_max(p)).collect();
    let accuracy = confusion
        .iter()
        .map(|rows| {
            (0..k)
                .map(|c| rows[c].as_ref().map_or(0.0, |row| prior[c] * row[c]))
                .sum()
        })
        .collect();
    Ok(DawidSkene {
        posterior,
        consensus,
        majority,
        prior,
        confusion,
        accuracy,
        rounds,
        converged,
    })
}

/// The index of the first largest value.
fn first_max(values: &[f64]) -> usize {
    let mut best = 0;
    for (i, &v) in values.iter().enumerate() {
        if v > values[best] {
            best = i;
        }
    }
    best
}

fn mean_rows(rows: &[Vec<f64>], k: usize) -> Vec<f64> {
    let n = rows.len() as f64;
    (0..k)
        .map(|c| rows.iter().map(|r| r[c]).sum::<f64>() / n)
        .collect()
}

/// Each rater's confusion matrix from the posteriors: rows the categories answered.
fn m_step(
    answers: &[Answer],
    posterior: &[Vec<f64>],
    raters: usize,
    k: usize,
) -> Vec<Vec<Option<Vec<f64>>>> {
    let mut sums: Vec<Vec<Option<Vec<f64>>>> = vec![vec![None; k]; raters];
    for a in answers {
        let row = sums[a.rater][a.category].get_or_insert_with(|| vec![0.0; k]);
        for (x, p) in row.iter_mut().zip(&posterior[a.unit]) {
            *x += p;
        }
    }
    for rows in &mut sums {
        for x in rows.iter_mut().flatten().flatten() {
            *x = x.max(EPS);
        }
        for c in 0..k {
            let total: f64 = rows.iter().flatten().map(|row| row[c]).sum();
            for row in rows.iter_mut().flatten() {
                row[c] /= total;
            }
        }
    }
    sums
}

fn e_step(
    answers: &[Answer],
    prior: &[f64],
    confusion: &[Vec<Option<Vec<f64>>>],
    units: usize,
    k: usize,
) -> Vec<Vec<f64>> {
    let log_prior: Vec<f64> = prior.iter().map(|&p| p.max(EPS).ln_p()).collect();
    let mut logs = vec![log_prior; units];
    for a in answers {
        if let Some(row) = &confusion[a.rater][a.category] {
            for (l, &e) in logs[a.unit].iter_mut().zip(row) {
                *l += e.ln_p();
            }
        }
    }
    logs.into_iter()
        .map(|l| {
            let top = l.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            let scaled: Vec<f64> = l.iter().map(|&x| (x - top).exp_p()).collect();
            let total: f64 = scaled.iter().sum();
            debug_assert_eq!(scaled.len(), k);
            scaled.into_iter().map(|x| x / total).collect()
        })
        .collect()
}

/// The evidence lower bound (crowd-kit's, whose prior term is counted once per answer).
fn lower_bound(
    answers: &[Answer],
    posterior: &[Vec<f64>],
    prior: &[f64],
    confusion: &[Vec<Option<Vec<f64>>>],
) -> f64 {
    let log_prior: Vec<f64> = prior.iter().map(|&p| p.max(EPS).ln_p()).collect();
    let mut joint = 0.0;
    for a in answers {
        if let Some(row) = &confusion[a.rater][a.category] {
            for ((p, &e), lp) in posterior[a.unit].iter().zip(row).zip(&log_prior) {
                joint += p * (e.ln_p() + lp);
            }
        }
    }
    let entropy: f64 = posterior
        .iter()
        .flatten()
        .map(|&p| {
            let p = p.max(EPS);
            -p * p.ln_p()
        })
        .sum();
    joint + entropy
}
