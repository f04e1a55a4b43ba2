//! MACE, Multi-Annotator Competence Estimation (Hovy, Berg-Kirkpatrick, Vaswani and Hovy 2013,
//! "Learning Whom to Trust with MACE"): each rater's competence, the probability that they
//! answer from knowledge rather than spam, and each unit's true category, fitted together.
//!
//! # Model
//! Unit t has a true category z_t, uniform over the K categories. Rater w, answering t, is
//! spamming with probability 1 − θ_w: if not, the answer is z_t; if so, it is drawn from w's
//! strategy ξ_w, a distribution over the categories. θ_w is w's competence. Given z_t = c, an
//! answer k of w has probability s_w ξ_w[k] + θ_w [k = c], with s_w = 1 − θ_w the weight of
//! spamming; the fit keeps s_w apart from θ_w, as MACE does, and under variational Bayes the
//! two sum to a little below 1 (below). Every answer counts, a rater's repeated answers to a
//! unit too.
//!
//! # Algorithm (as crowd-kit's `MACE()` runs it, apart from the start and the stopping rule)
//! - E-step: ln g_t(c) = −ln K + Σ over t's answers (w, k) of ln(s_w ξ_w[k] + θ_w [k = c]); the
//!   posterior is g_t(c) / Σ_c g_t(c) and the log-likelihood Σ_t ln Σ_c g_t(c), both by
//!   log-sum-exp (crowd-kit multiplies the probabilities out and takes ln(Σ_c g_t(c) + 10⁻⁸)).
//!   Each answer's probability of knowing is p_t(k) θ_w / (s_w ξ_w[k] + θ_w) and of spamming
//!   one minus that; summed per rater they give the expected knowing count n⁺_w and spamming
//!   count n⁻_w, and per rater and category k the spamming count c_w[k] of w's answers k.
//! - M-step, variational Bayes (crowd-kit's default, `method="vb"`): with ψ the digamma
//!   function, s_w = exp(ψ(n⁻_w + α) − ψ(n_w + α + β)), θ_w = exp(ψ(n⁺_w + β) − ψ(n_w + α + β))
//!   (n_w = n⁻_w + n⁺_w; α goes with spamming and β with knowing, as crowd-kit pairs them),
//!   and ξ_w[k] = exp(ψ(c_w[k] + γ) − ψ(Σ_k c_w[k] + Kγ)), with α = β = ½ and γ = 10. These are
//!   exp E[ln ·] under the Beta and Dirichlet posteriors, which sum to a little below 1; the
//!   E-step uses them as they are, as MACE and crowd-kit do, and they are what the fit reports.
//! - M-step, EM (`method="em"`): s_w = (n⁻_w + ε) / (n_w + 2ε), θ_w = (n⁺_w + ε) / (n_w + 2ε),
//!   ξ_w[k] = (c_w[k] + ε) / (Σ_k c_w[k] + Kε), with ε = 0.01 / K (crowd-kit's `smoothing_`;
//!   its `smoothing` attribute is not used).
//! - Starting points, each followed by an E-step, in this order: flat (s = θ = ½, ξ uniform);
//!   majority (with p_t the shares of t's answers, θ_w = (Σ over w's answers k of p_t(k) + ½) /
//!   (w's answers + 1), s_w = 1 − θ_w, ξ_w[k] = (w's answers k + 1) / (w's answers + K));
//!   trusting (θ = 0.9, s = 0.1, ξ uniform); wary (θ = 0.1, s = 0.9, ξ uniform).
//! - Stopping rule: a start runs rounds of M-step then E-step until no s_w, θ_w or ξ_w[k]
//!   moved by 10⁻⁹ or more in the last round, or after 1,000 rounds.
//! - The fit kept is the start with the highest log-likelihood; a later start replaces it
//!   only when higher by more than 10⁻⁶, so starts that reach the same optimum (they agree to
//!   about 10⁻⁹) keep the first. A unit's consensus is its most probable category, ties to
//!   the first.
//!
//! crowd-kit starts from a random point drawn with its fixed `random_state` at every one of its
//! `n_restarts` (so the restarts are one run) and runs exactly `n_iter = 50` rounds. It knows
//! only the labels it sees, where this fit takes `categories` as given: an unused category
//! keeps some posterior mass from the spammers' strategies. It also reads its strategy counts,
//! ordered by sorted worker and label names, against parameters ordered by first appearance,
//! so its reference data name both in order of first appearance.
//!
//! # Reference
//! crowd-kit 1.4.2 (`crates/juror-core/tests/reference/mace`) on five seeded data sets: run to
//! its fixed point (`n_iter=1000`), within 1e-6 (measured ≤ 2.3·10⁻⁸); with its defaults,
//! the same consensus everywhere and competences within 1e-4 (measured ≤ 7.6·10⁻⁶) except on
//! a binary set where its 50 rounds stop 3.7·10⁻³ short of the fixed point (posteriors
//! 1.3·10⁻²; checked within 5e-3 and 2e-2 there); and a NumPy transcription of this fit,
//! within 1e-9 (measured ≤ 1.4·10⁻¹⁵), with the same rounds and start. On every set all four
//! starts reach the same optimum, the one crowd-kit's random start reaches.

use super::{Answer, RatersError, first_max};
use crate::stats::math::Portable;
use crate::stats::special::digamma;

/// The largest change of a parameter in a round below which a start has converged.
const TOLERANCE: f64 = 1e-9;
/// Rounds at most, per start.
const MAX_ROUNDS: usize = 1000;
/// How much higher a later start's log-likelihood must be to replace the one kept.
const START_MARGIN: f64 = 1e-6;

/// How the M-step turns expected counts into parameters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum MaceMethod {
    /// Variational Bayes with Beta priors on competence and Dirichlet priors on strategies
    /// (crowd-kit's `method="vb"`, its default).
    #[default]
    VariationalBayes,
    /// Smoothed maximum likelihood (crowd-kit's `method="em"`).
    ExpectationMaximization,
}

/// The settings of a fit; the default is crowd-kit's.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MaceOptions {
    pub method: MaceMethod,
    /// The prior count of spamming per rater (variational Bayes), ½.
    pub alpha: f64,
    /// The prior count of knowing per rater (variational Bayes), ½.
    pub beta: f64,
    /// The prior count of each category in a strategy (variational Bayes), 10.
    pub strategy_prior: f64,
    /// The count added to each expected count (EM); `None` for 0.01 / categories.
    pub smoothing: Option<f64>,
    /// Rounds at most, per start.
    pub max_iterations: usize,
    /// The change of every parameter in a round below which a start has converged.
    pub tolerance: f64,
}

impl Default for MaceOptions {
    fn default() -> Self {
        MaceOptions {
            method: MaceMethod::VariationalBayes,
            alpha: 0.5,
            beta: 0.5,
            strategy_prior: 10.0,
            smoothing: None,
            max_iterations: MAX_ROUNDS,
            tolerance: TOLERANCE,
        }
    }
}

impl MaceOptions {
    fn check(&self) -> Result<(), RatersError> {
        let positive = |x: f64| x.is_finite() && x > 0.0;
        if !positive(self.alpha) {
            return Err(RatersError::InvalidOption("alpha"));
        }
        if !positive(self.beta) {
            return Err(RatersError::InvalidOption("beta"));
        }
        if !positive(self.strategy_prior) {
            return Err(RatersError::InvalidOption("strategy_prior"));
        }
        if self.smoothing.is_some_and(|s| !positive(s)) {
            return Err(RatersError::InvalidOption("smoothing"));
        }
        if self.max_iterations == 0 {
            return Err(RatersError::InvalidOption("max_iterations"));
        }
        if !(self.tolerance.is_finite() && self.tolerance >= 0.0) {
            return Err(RatersError::InvalidOption("tolerance"));
        }
        Ok(())
    }
}

/// Where the kept fit started (see the module's documentation).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MaceStart {
    /// Spamming and knowing even, strategies uniform.
    Flat,
    /// Competence from agreement with the majority, strategies from the answers.
    Majority,
    /// Competence 0.9.
    Trusting,
    /// Competence 0.1.
    Wary,
}

/// A MACE fit.
#[derive(Debug, Clone, PartialEq)]
pub struct Mace {
    /// Per rater, the competence θ: the weight of answering from knowledge (for variational
    /// Bayes exp E[ln θ], which with `spam` sums to a little below 1).
    pub competence: Vec<f64>,
    /// Per rater, the weight of spamming s.
    pub spam: Vec<f64>,
    /// Per rater, the strategy ξ: the probability of each category when spamming.
    pub spamming: Vec<Vec<f64>>,
    /// Per unit, the posterior of each category.
    pub posterior: Vec<Vec<f64>>,
    /// Per unit, its most probable category (ties to the first).
    pub consensus: Vec<usize>,
    /// Σ over units of ln P(the unit's answers), at the fitted parameters.
    pub log_likelihood: f64,
    /// Rounds run from the kept start.
    pub iterations: usize,
    /// Whether the kept start stopped by the tolerance rather than the round limit.
    pub converged: bool,
    /// Where the kept fit started.
    pub start: MaceStart,
}

/// Fits MACE to `answers` over `units` units, `raters` raters and `categories` categories
/// (see the module's documentation for the model and the algorithm).
///
/// # Errors
/// No answers, an index out of range, a unit without answers, or an option out of its range
/// (priors and smoothing must be positive, the tolerance at least 0, the rounds at least 1).
pub fn mace(
    answers: &[Answer],
    units: usize,
    raters: usize,
    categories: usize,
    options: &MaceOptions,
) -> Result<Mace, RatersError> {
    options.check()?;
    if answers.is_empty() {
        return Err(RatersError::Empty);
    }
    if answers
        .iter()
        .any(|a| a.unit >= units || a.rater >= raters || a.category >= categories)
    {
        return Err(RatersError::OutOfRange);
    }
    let mut answered = vec![false; units];
    for a in answers {
        answered[a.unit] = true;
    }
    if let Some(u) = answered.iter().position(|&seen| !seen) {
        return Err(RatersError::Unanswered(u));
    }
    let shape = Shape {
        units,
        raters,
        categories,
    };
    let mut best: Option<(MaceStart, Run)> = None;
    for (start, params) in starts(answers, shape) {
        let run = run(answers, shape, params, options);
        let better = best.as_ref().is_none_or(|(_, kept)| {
            run.expected.log_likelihood > kept.expected.log_likelihood + START_MARGIN
        });
        if better {
            best = Some((start, run));
        }
    }
    let Some((start, run)) = best else {
        return Err(RatersError::Empty);
    };
    let consensus = run
        .expected
        .posterior
        .iter()
        .map(|p| first_max(p))
        .collect();
    Ok(Mace {
        competence: run.params.know,
        spam: run.params.spam,
        spamming: run.params.strategy,
        posterior: run.expected.posterior,
        consensus,
        log_likelihood: run.expected.log_likelihood,
        iterations: run.iterations,
        converged: run.converged,
        start,
    })
}

/// The sizes of a fit.
#[derive(Debug, Clone, Copy)]
struct Shape {
    units: usize,
    raters: usize,
    categories: usize,
}

/// Per rater, the weights of spamming and knowing and the strategy.
#[derive(Debug, Clone)]
struct Params {
    spam: Vec<f64>,
    know: Vec<f64>,
    strategy: Vec<Vec<f64>>,
}

/// What an E-step gives: the posteriors, the log-likelihood and the expected counts.
struct Expected {
    posterior: Vec<Vec<f64>>,
    log_likelihood: f64,
    /// Per rater, the expected number of answers spammed.
    spam: Vec<f64>,
    /// Per rater, the expected number of answers known.
    know: Vec<f64>,
    /// Per rater and category, the expected number of answers of it spammed.
    strategy: Vec<Vec<f64>>,
}

/// One start run to its end.
struct Run {
    params: Params,
    expected: Expected,
    iterations: usize,
    converged: bool,
}

/// The starting points, in the order they are tried.
fn starts(answers: &[Answer], shape: Shape) -> Vec<(MaceStart, Params)> {
    let Shape {
        units,
        raters,
        categories: k,
    } = shape;
    let even = |spam: f64, know: f64| Params {
        spam: vec![spam; raters],
        know: vec![know; raters],
        strategy: vec![vec![1.0 / k as f64; k]; raters],
    };
    let mut counts = vec![vec![0.0; k]; units];
    for a in answers {
        counts[a.unit][a.category] += 1.0;
    }
    let mut given = vec![0.0; raters];
    let mut agree = vec![0.0; raters];
    let mut chosen = vec![vec![0.0; k]; raters];
    for a in answers {
        let total: f64 = counts[a.unit].iter().sum();
        given[a.rater] += 1.0;
        agree[a.rater] += counts[a.unit][a.category] / total;
        chosen[a.rater][a.category] += 1.0;
    }
    let know: Vec<f64> = agree
        .iter()
        .zip(&given)
        .map(|(a, n)| (a + 0.5) / (n + 1.0))
        .collect();
    let majority = Params {
        spam: know.iter().map(|x| 1.0 - x).collect(),
        know,
        strategy: chosen
            .iter()
            .zip(&given)
            .map(|(row, n)| row.iter().map(|c| (c + 1.0) / (n + k as f64)).collect())
            .collect(),
    };
    vec![
        (MaceStart::Flat, even(0.5, 0.5)),
        (MaceStart::Majority, majority),
        (MaceStart::Trusting, even(0.1, 0.9)),
        (MaceStart::Wary, even(0.9, 0.1)),
    ]
}

/// Runs rounds of M-step then E-step from `params` until the stopping rule.
fn run(answers: &[Answer], shape: Shape, mut params: Params, options: &MaceOptions) -> Run {
    let mut expected = e_step(answers, shape, &params);
    let mut iterations = 0;
    let mut converged = false;
    while iterations < options.max_iterations {
        iterations += 1;
        let next = m_step(&expected, shape.categories, options);
        expected = e_step(answers, shape, &next);
        let change = largest_change(&params, &next);
        params = next;
        if change < options.tolerance {
            converged = true;
            break;
        }
    }
    Run {
        params,
        expected,
        iterations,
        converged,
    }
}

/// The largest absolute change of a parameter between two rounds.
fn largest_change(old: &Params, new: &Params) -> f64 {
    let pairs = old
        .spam
        .iter()
        .zip(&new.spam)
        .chain(old.know.iter().zip(&new.know))
        .chain(
            old.strategy
                .iter()
                .flatten()
                .zip(new.strategy.iter().flatten()),
        );
    pairs.fold(0.0, |m, (a, b)| m.max((a - b).abs()))
}

/// The posteriors, log-likelihood and expected counts under `params`.
fn e_step(answers: &[Answer], shape: Shape, params: &Params) -> Expected {
    let k = shape.categories;
    let mut logs = vec![vec![-(k as f64).ln_p(); k]; shape.units];
    for a in answers {
        let spammed = params.spam[a.rater] * params.strategy[a.rater][a.category];
        let other = spammed.ln_p();
        let same = (spammed + params.know[a.rater]).ln_p();
        for (c, l) in logs[a.unit].iter_mut().enumerate() {
            *l += if c == a.category { same } else { other };
        }
    }
    let mut log_likelihood = 0.0;
    let posterior: Vec<Vec<f64>> = logs
        .into_iter()
        .map(|l| {
            let top = l.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            let total: f64 = l.iter().map(|&x| (x - top).exp_p()).sum();
            let log_marginal = top + total.ln_p();
            log_likelihood += log_marginal;
            l.iter().map(|&x| (x - log_marginal).exp_p()).collect()
        })
        .collect();
    let mut spam = vec![0.0; shape.raters];
    let mut know = vec![0.0; shape.raters];
    let mut strategy = vec![vec![0.0; k]; shape.raters];
    for a in answers {
        let w = a.rater;
        let spammed = params.spam[w] * params.strategy[w][a.category];
        let knowing = posterior[a.unit][a.category] * params.know[w] / (spammed + params.know[w]);
        know[w] += knowing;
        spam[w] += 1.0 - knowing;
        strategy[w][a.category] += 1.0 - knowing;
    }
    Expected {
        posterior,
        log_likelihood,
        spam,
        know,
        strategy,
    }
}

/// The parameters from the expected counts, by `options.method`.
fn m_step(expected: &Expected, k: usize, options: &MaceOptions) -> Params {
    let kf = k as f64;
    match options.method {
        MaceMethod::VariationalBayes => {
            let (alpha, beta, gamma) = (options.alpha, options.beta, options.strategy_prior);
            let mut spam = Vec::with_capacity(expected.spam.len());
            let mut know = Vec::with_capacity(expected.know.len());
            for (s, n) in expected.spam.iter().zip(&expected.know) {
                let total = digamma(s + n + alpha + beta);
                spam.push((digamma(s + alpha) - total).exp_p());
                know.push((digamma(n + beta) - total).exp_p());
            }
            let strategy = expected
                .strategy
                .iter()
                .map(|row| {
                    let total = digamma(row.iter().sum::<f64>() + gamma * kf);
                    row.iter()
                        .map(|c| (digamma(c + gamma) - total).exp_p())
                        .collect()
                })
                .collect();
            Params {
                spam,
                know,
                strategy,
            }
        }
        MaceMethod::ExpectationMaximization => {
            let eps = options.smoothing.unwrap_or(0.01 / kf);
            let (spam, know) = expected
                .spam
                .iter()
                .zip(&expected.know)
                .map(|(s, n)| {
                    let total = s + n + 2.0 * eps;
                    ((s + eps) / total, (n + eps) / total)
                })
                .unzip();
            let strategy = expected
                .strategy
                .iter()
                .map(|row| {
                    let total = row.iter().sum::<f64>() + kf * eps;
                    row.iter().map(|c| (c + eps) / total).collect()
                })
                .collect();
            Params {
                spam,
                know,
                strategy,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Answer, Mace, MaceMethod, MaceOptions, MaceStart, RatersError, mace};
    use crate::stats::math::Portable;
    use crate::stats::special::digamma;

    fn a(unit: usize, rater: usize, category: usize) -> Answer {
        Answer {
            unit,
            rater,
            category,
        }
    }

    /// 30 units with truth u mod 3; raters 0–3 always right, rater 4 answers by a fixed
    /// scramble unrelated to the truth, rater 5 always says 0.
    fn crowd() -> Vec<Answer> {
        let mut answers = Vec::new();
        for u in 0..30 {
            for w in 0..4 {
                answers.push(a(u, w, u % 3));
            }
            answers.push(a(u, 4, (u * 7 / 3 + u / 5) % 3));
            answers.push(a(u, 5, 0));
        }
        answers
    }

    fn fit(answers: &[Answer], method: MaceMethod) -> Mace {
        let options = MaceOptions {
            method,
            ..MaceOptions::default()
        };
        mace(answers, 30, 6, 3, &options).expect("a fit")
    }

    #[test]
    fn spammers_get_low_competence_and_perfect_raters_high() {
        for method in [
            MaceMethod::VariationalBayes,
            MaceMethod::ExpectationMaximization,
        ] {
            let fit = fit(&crowd(), method);
            assert!(fit.converged, "{method:?}");
            for w in 0..4 {
                assert!(fit.competence[w] > 0.95, "{method:?} rater {w}: {fit:?}");
            }
            for w in 4..6 {
                assert!(fit.competence[w] < 0.3, "{method:?} rater {w}: {fit:?}");
            }
            // The constant spammer's strategy leans on 0 (under variational Bayes, against a
            // prior of 10 per category).
            let s = &fit.spamming[5];
            assert!(
                s[0] > 0.6 && s[0] > 3.0 * s[1].max(s[2]),
                "{method:?}: {s:?}"
            );
            let truth: Vec<usize> = (0..30).map(|u| u % 3).collect();
            assert_eq!(fit.consensus, truth, "{method:?}");
        }
    }

    #[test]
    fn probabilities_are_probabilities() {
        let fit_vb = fit(&crowd(), MaceMethod::VariationalBayes);
        let fit_em = fit(&crowd(), MaceMethod::ExpectationMaximization);
        for f in [&fit_vb, &fit_em] {
            for p in &f.posterior {
                assert!((p.iter().sum::<f64>() - 1.0).abs() < 1e-12, "{p:?}");
                assert!(p.iter().all(|x| (0.0..=1.0).contains(x)));
            }
            assert!(f.log_likelihood < 0.0 && f.log_likelihood.is_finite());
        }
        // EM's parameters are normalised; variational Bayes's are exp E[ln ·], a little less.
        for w in 0..6 {
            let em = fit_em.spam[w] + fit_em.competence[w];
            assert!((em - 1.0).abs() < 1e-12, "{em}");
            let em: f64 = fit_em.spamming[w].iter().sum();
            assert!((em - 1.0).abs() < 1e-12, "{em}");
            let vb = fit_vb.spam[w] + fit_vb.competence[w];
            assert!(vb < 1.0 && vb > 0.95, "{vb}");
            let vb: f64 = fit_vb.spamming[w].iter().sum();
            assert!(vb < 1.0 && vb > 0.9, "{vb}");
        }
    }

    #[test]
    fn the_fit_is_deterministic_and_ignores_the_order_of_answers() {
        let answers = crowd();
        let first = fit(&answers, MaceMethod::VariationalBayes);
        assert_eq!(first, fit(&answers, MaceMethod::VariationalBayes));
        let reversed: Vec<Answer> = answers.iter().rev().copied().collect();
        let other = fit(&reversed, MaceMethod::VariationalBayes);
        assert_eq!(first.consensus, other.consensus);
        for (x, y) in first.competence.iter().zip(&other.competence) {
            assert!((x - y).abs() < 1e-9, "{x} {y}");
        }
    }

    #[test]
    fn equal_optima_keep_the_flat_start() {
        assert_eq!(
            fit(&crowd(), MaceMethod::VariationalBayes).start,
            MaceStart::Flat
        );
    }

    #[test]
    fn a_silent_rater_keeps_the_prior_and_an_unused_category_little_mass() {
        let answers = crowd();
        let fit = mace(&answers, 30, 7, 4, &MaceOptions::default()).expect("a fit");
        // No answers: the counts are 0 and the weights are the prior's exp E[ln ·].
        let prior = (digamma(0.5) - digamma(1.0)).exp_p();
        assert!((fit.competence[6] - prior).abs() < 1e-15);
        assert!((fit.spam[6] - prior).abs() < 1e-15);
        for p in &fit.posterior {
            assert!(p[3] < 0.01, "{p:?}");
        }
        let truth: Vec<usize> = (0..30).map(|u| u % 3).collect();
        assert_eq!(fit.consensus, truth);
    }

    #[test]
    fn unusable_answers_and_options_are_refused() {
        let d = MaceOptions::default();
        assert_eq!(mace(&[], 1, 1, 2, &d), Err(RatersError::Empty));
        assert_eq!(
            mace(&[a(0, 0, 2)], 1, 1, 2, &d),
            Err(RatersError::OutOfRange)
        );
        assert_eq!(
            mace(&[a(0, 1, 0)], 1, 1, 2, &d),
            Err(RatersError::OutOfRange)
        );
        assert_eq!(
            mace(&[a(0, 0, 1)], 2, 1, 2, &d),
            Err(RatersError::Unanswered(1))
        );
        let one = [a(0, 0, 1)];
        for (options, name) in [
            (MaceOptions { alpha: 0.0, ..d }, "alpha"),
            (
                MaceOptions {
                    beta: f64::NAN,
                    ..d
                },
                "beta",
            ),
            (
                MaceOptions {
                    strategy_prior: -1.0,
                    ..d
                },
                "strategy_prior",
            ),
            (
                MaceOptions {
                    smoothing: Some(0.0),
                    ..d
                },
                "smoothing",
            ),
            (
                MaceOptions {
                    max_iterations: 0,
                    ..d
                },
                "max_iterations",
            ),
            (
                MaceOptions {
                    tolerance: f64::INFINITY,
                    ..d
                },
                "tolerance",
            ),
        ] {
            assert_eq!(
                mace(&one, 1, 1, 2, &options),
                Err(RatersError::InvalidOption(name))
            );
        }
        // A single answer, and a single category, still fit.
        let fit = mace(&one, 1, 1, 2, &d).expect("a fit");
        assert_eq!(fit.consensus, vec![1]);
        let fit = mace(&[a(0, 0, 0), a(0, 1, 0)], 1, 2, 1, &d).expect("a fit");
        assert_eq!(fit.posterior, vec![vec![1.0]]);
    }

    #[test]
    fn the_round_limit_is_reported() {
        let options = MaceOptions {
            max_iterations: 2,
            ..MaceOptions::default()
        };
        let fit = mace(&crowd(), 30, 6, 3, &options).expect("a fit");
        assert_eq!(fit.iterations, 2);
        assert!(!fit.converged);
    }
}
