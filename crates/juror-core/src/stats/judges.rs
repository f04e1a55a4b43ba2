//! Judges beside people: the statistics that compare an automatic judge (an LLM rating the
//! same outputs) with the humans who rated them.
//!
//! The functions that matter:
//! - [`alt_test`]: the alternative annotator test (Calderon, Reichart & Dror, ACL 2025): per
//!   human, left out in turn, does the judge represent the remaining humans at least as well as
//!   that human does? It returns each human's [`HumanTest`], the humans skipped, the
//!   **winning rate** and the **advantage probability**;
//! - [`benjamini_yekutieli`] (and [`by_rejected`]): the false-discovery-rate adjustment the test
//!   applies over the humans;
//! - [`kendall_tau_b`]: Kendall's tau-b with scipy's p-value, for the judge's and the humans'
//!   system rankings (the item-level Spearman correlation is [`super::trend::spearman`]);
//! - [`ppi_mean`]: prediction-powered inference for a mean (PPI++, Angelopoulos et al. 2023):
//!   a few human labels correct many judge labels, beside the human-only interval.
//!
//! Conventions: labels are `f64` codes (scores as they are; categories and preferences as
//! codes compared for equality); every input must be finite. An input that cannot give a
//! statistic is `None` (or, for [`alt_test`], an instance listed in [`AltTest::ignored`]),
//! never NaN and never a panic. `docs/judges.md` ("The statistics") explains the procedures
//! and what they do not say.
//!
//! Every function is tested at 1e-9 against values computed by
//! `crates/juror-core/tests/reference/judges/make_reference.py` (the alternative annotator test
//! written out with numpy and scipy's `ttest_1samp` following the reference code
//! nitaytech/AltTest; statsmodels' `multipletests(method="fdr_by")`; `scipy.stats.kendalltau`
//! and `spearmanr`; ppi_py's `ppi_mean_pointestimate`, `ppi_mean_ci` and `classical_mean_ci`;
//! versions in the reference file), on SummEval's expert ratings with a made-up judge and on
//! synthetic cases: `crates/juror-core/tests/it/judges.rs` reads
//! `crates/juror-core/tests/reference/judges/reference.json`.

use std::collections::BTreeMap;
use std::fmt;

use super::describe::{average_ranks, mean};
use super::paired::{Alternative, t_test};
use super::special;

// ---------------------------------------------------------------------------------------------
// The alternative annotator test
// ---------------------------------------------------------------------------------------------

/// How a label is compared with the other humans' labels of an instance.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Alignment {
    /// For scores: S(x, R) = −√(mean over r in R of (x − r)²), the negative RMSE.
    NegativeRmse,
    /// For categories and preferences: S(x, R) = mean over r in R of [x = r], the accuracy.
    Accuracy,
}

impl Alignment {
    /// S(`x`, `others`): how well `x` agrees with the labels `others` (higher is better). The
    /// sum runs left to right over `others`; with integer-coded labels every sum is exact, so
    /// ties between the judge and a human are found exactly. NaN when `others` is empty.
    pub fn score(self, x: f64, others: &[f64]) -> f64 {
        let n = others.len() as f64;
        match self {
            Alignment::NegativeRmse => {
                let ss: f64 = others.iter().map(|r| (x - r) * (x - r)).sum();
                -(ss / n).sqrt()
            }
            Alignment::Accuracy => others.iter().filter(|r| **r == x).count() as f64 / n,
        }
    }
}

/// One instance (an item; or (item, system, dimension) pooled over dimensions; or (item, pair)
/// for preferences): each human's label and the judge's.
#[derive(Debug, Clone, PartialEq)]
pub struct Instance {
    /// (human index, label); a human at most once per instance.
    pub humans: Vec<(usize, f64)>,
    pub judge: f64,
}

/// The settings of the alternative annotator test.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AltTestOptions {
    /// ε, the cost–benefit allowance: the test asks whether mean(W_h − W_J) < ε. The paper's
    /// guidance: 0.2 for experts, 0.15 for skilled annotators, 0.1 for crowd workers.
    pub epsilon: f64,
    /// The false discovery rate of the Benjamini–Yekutieli procedure over the tested humans.
    pub q: f64,
    /// The fewest humans an instance needs (the left-out human included) to be used; at least
    /// 2 is used whatever is asked, so that someone is left to compare with.
    pub min_humans: usize,
    /// The fewest instances a human needs to be tested; at least 2 is used whatever is asked
    /// (a t-test needs two values). Humans with fewer are [`AltTest::skipped`].
    pub min_instances: usize,
}

impl AltTestOptions {
    /// The reference code's defaults: ε 0.2, q 0.05, 2 humans per instance, 30 instances per
    /// human.
    pub const DEFAULT: AltTestOptions = AltTestOptions {
        epsilon: 0.2,
        q: 0.05,
        min_humans: 2,
        min_instances: 30,
    };

    /// Whether the options can be used: ε finite, q in (0, 1]. [`alt_test`] tests nothing with
    /// options that fail this; call it first to tell the researcher.
    pub fn check(&self) -> Result<(), JudgesError> {
        if !self.epsilon.is_finite() {
            return Err(JudgesError::BadEpsilon {
                epsilon: self.epsilon,
            });
        }
        if !(self.q > 0.0 && self.q <= 1.0) {
            return Err(JudgesError::BadQ { q: self.q });
        }
        Ok(())
    }
}

impl Default for AltTestOptions {
    fn default() -> Self {
        AltTestOptions::DEFAULT
    }
}

/// Why the alternative annotator test's options cannot be used. Each says what to do.
#[derive(Debug, Clone, PartialEq)]
pub enum JudgesError {
    /// ε is NaN or infinite.
    BadEpsilon { epsilon: f64 },
    /// q is not in (0, 1].
    BadQ { q: f64 },
}

impl fmt::Display for JudgesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            JudgesError::BadEpsilon { epsilon } => write!(
                f,
                "epsilon {epsilon} is not a number; use e.g. 0.2 for experts, 0.15 for skilled \
                 annotators, 0.1 for crowd workers"
            ),
            JudgesError::BadQ { q } => write!(
                f,
                "the false discovery rate q = {q} is not in (0, 1]; use e.g. 0.05"
            ),
        }
    }
}

impl std::error::Error for JudgesError {}

/// One human's comparison with the judge.
#[derive(Debug, Clone, PartialEq)]
pub struct HumanTest {
    pub human: usize,
    /// The instances used: this human labelled them and they have enough humans.
    pub instances: usize,
    /// Mean over instances of W_J (the judge aligned at least as well as this human): the
    /// human's advantage probability ρ_h.
    pub judge_advantage: f64,
    /// Mean of W_h (this human aligned at least as well as the judge).
    pub human_advantage: f64,
    /// The one-sided one-sample t statistic of d = W_h − W_J against ε (H1: mean(d) < ε);
    /// ±∞ (or 0) when every d is the same (see [`alt_test`]).
    pub t: f64,
    /// Its p-value.
    pub p: f64,
    /// The Benjamini–Yekutieli adjusted p-value over the tested humans.
    pub p_adjusted: f64,
    /// H0 rejected at q: the judge wins against this human.
    pub rejected: bool,
}

/// The alternative annotator test's result for one judge.
#[derive(Debug, Clone, PartialEq)]
pub struct AltTest {
    /// The tested humans, in human index order.
    pub tested: Vec<HumanTest>,
    /// (human, instances) of the humans with fewer instances than the test needs, in human
    /// index order.
    pub skipped: Vec<(usize, usize)>,
    /// ω, the share of tested humans rejected; `None` when no human was tested. The judge passes
    /// when ω ≥ 0.5.
    pub winning_rate: Option<f64>,
    /// ρ, the mean of `judge_advantage` over the tested humans; `None` when none was tested.
    pub advantage_probability: Option<f64>,
    /// Positions (from 0) of the instances left out because a label is not finite or a human
    /// appears twice in them.
    pub ignored: Vec<usize>,
}

impl AltTest {
    /// Whether the judge passes: ω ≥ 0.5 (false when no human was tested).
    pub fn passes(&self) -> bool {
        self.winning_rate.is_some_and(|w| w >= 0.5)
    }
}

/// Whether an instance can be used: every label finite, no human twice.
fn valid(instance: &Instance) -> bool {
    if !instance.judge.is_finite() || instance.humans.iter().any(|(_, x)| !x.is_finite()) {
        return false;
    }
    let mut ids: Vec<usize> = instance.humans.iter().map(|(h, _)| *h).collect();
    ids.sort_unstable();
    ids.windows(2).all(|w| w[0] != w[1])
}

/// The W indicators of each human over the instances it can be tested on: (W_J, W_h) per
/// instance, in input order.
type Indicators = BTreeMap<usize, Vec<(f64, f64)>>;

fn indicators(
    instances: &[Instance],
    alignment: Alignment,
    min_humans: usize,
) -> (Indicators, Vec<usize>) {
    let mut by_human: Indicators = BTreeMap::new();
    let mut ignored = Vec::new();
    for (index, instance) in instances.iter().enumerate() {
        if !valid(instance) {
            ignored.push(index);
            continue;
        }
        for &(h, _) in &instance.humans {
            by_human.entry(h).or_default();
        }
        if instance.humans.len() < min_humans {
            continue;
        }
        for &(h, label) in &instance.humans {
            let others: Vec<f64> = instance
                .humans
                .iter()
                .filter(|(k, _)| *k != h)
                .map(|(_, x)| *x)
                .collect();
            let s_human = alignment.score(label, &others);
            let s_judge = alignment.score(instance.judge, &others);
            let w_judge = if s_judge >= s_human { 1.0 } else { 0.0 };
            let w_human = if s_human >= s_judge { 1.0 } else { 0.0 };
            by_human.entry(h).or_default().push((w_judge, w_human));
        }
    }
    (by_human, ignored)
}

/// The one-sided t-test of `d` against ε (H1: mean < ε), with the convention for no spread.
fn one_sided(d: &[f64], epsilon: f64) -> (f64, f64) {
    match t_test(d, epsilon, Alternative::Less) {
        Ok(t) => (t.t, t.p_value),
        // Every d the same (n ≥ 2 and finite values are guaranteed by the caller).
        Err(_) => {
            let m = mean(d);
            if m < epsilon {
                (f64::NEG_INFINITY, 0.0)
            } else if m > epsilon {
                (f64::INFINITY, 1.0)
            } else {
                (0.0, 1.0)
            }
        }
    }
}

/// The alternative annotator test of a judge against the humans.
///
/// # Formula
/// For each human h (left out in turn) and each instance i that h labelled and that at least
/// `min_humans` humans labelled in all (h included): R = the other humans' labels on i,
/// S = `alignment`, W_J(i) = [S(judge, R) ≥ S(h, R)], W_h(i) = [S(h, R) ≥ S(judge, R)] (both 1
/// on a tie), d_i = W_h(i) − W_J(i). With n_h such instances, if n_h < `min_instances` the
/// human is skipped; otherwise a one-sided one-sample t-test of d against ε, H0 mean(d) ≥ ε,
/// H1 mean(d) < ε: t = (d̄ − ε) / (s / √n_h), p = P(T ≤ t), T ~ t(n_h − 1). The p-values of
/// the tested humans are adjusted by Benjamini–Yekutieli ([`benjamini_yekutieli`]) and a human
/// is rejected (the judge wins against them) by the step-up rule at q ([`by_rejected`]).
/// ω (winning rate) = rejected / tested; ρ (advantage probability) = mean over tested humans
/// of mean_i W_J(i).
///
/// # Conventions
/// - The t-test is used whatever the number of instances (the paper suggests a Wilcoxon test
///   below 30; with the default `min_instances` of 30 no human gets there);
/// - every d the same (the t-test has no spread): p = 0 and t = −∞ when that d is below ε,
///   p = 1 and t = +∞ when above (what scipy computes), p = 1 and t = 0 when it equals ε
///   (scipy gives NaN there, which the reference code never rejects);
/// - `min_humans` below 2 is taken as 2 and `min_instances` below 2 as 2;
/// - an instance with a non-finite label or a human twice is left out, its position listed in
///   [`AltTest::ignored`]; a human seen only in instances with too few humans is skipped with 0
///   instances;
/// - options failing [`AltTestOptions::check`] test nothing: an empty result.
///
/// # Reference
/// The authors' reference code, nitaytech/AltTest (`alt_test_example.ipynb`), re-written in
/// `tests/reference/judges/make_reference.py` with `scipy.stats.ttest_1samp(d, epsilon,
/// alternative="less")` and statsmodels' `multipletests(method="fdr_by")`; matched at 1e-9 on
/// SummEval per dimension and pooled, a pairwise case, skipped humans, ties in RMSE and every
/// d equal.
pub fn alt_test(instances: &[Instance], alignment: Alignment, options: &AltTestOptions) -> AltTest {
    if options.check().is_err() {
        return AltTest {
            tested: Vec::new(),
            skipped: Vec::new(),
            winning_rate: None,
            advantage_probability: None,
            ignored: Vec::new(),
        };
    }
    let min_humans = options.min_humans.max(2);
    let min_instances = options.min_instances.max(2);
    let (by_human, ignored) = indicators(instances, alignment, min_humans);
    let mut tested = Vec::new();
    let mut skipped = Vec::new();
    for (human, w) in by_human {
        if w.len() < min_instances {
            skipped.push((human, w.len()));
            continue;
        }
        let w_judge: Vec<f64> = w.iter().map(|(j, _)| *j).collect();
        let w_human: Vec<f64> = w.iter().map(|(_, h)| *h).collect();
        let d: Vec<f64> = w.iter().map(|(j, h)| h - j).collect();
        let (t, p) = one_sided(&d, options.epsilon);
        tested.push(HumanTest {
            human,
            instances: w.len(),
            judge_advantage: mean(&w_judge),
            human_advantage: mean(&w_human),
            t,
            p,
            p_adjusted: p,
            rejected: false,
        });
    }
    let ps: Vec<f64> = tested.iter().map(|t| t.p).collect();
    let adjusted = benjamini_yekutieli(&ps);
    let rejected = by_rejected(&ps, options.q);
    for ((test, a), r) in tested.iter_mut().zip(adjusted).zip(rejected) {
        test.p_adjusted = a;
        test.rejected = r;
    }
    let (winning_rate, advantage_probability) = if tested.is_empty() {
        (None, None)
    } else {
        let n = tested.len() as f64;
        let wins = tested.iter().filter(|t| t.rejected).count() as f64;
        let rho: Vec<f64> = tested.iter().map(|t| t.judge_advantage).collect();
        (Some(wins / n), Some(mean(&rho)))
    };
    AltTest {
        tested,
        skipped,
        winning_rate,
        advantage_probability,
        ignored,
    }
}

// ---------------------------------------------------------------------------------------------
// Benjamini–Yekutieli
// ---------------------------------------------------------------------------------------------

/// p-values made usable: NaN as 1, the rest clamped to [0, 1].
fn clean(p: &[f64]) -> Vec<f64> {
    p.iter()
        .map(|x| if x.is_nan() { 1.0 } else { x.clamp(0.0, 1.0) })
        .collect()
}

/// The order of `p` from smallest, and the step-up factors (k / m) / H_m of ranks k = 1..m.
fn by_factors(p: &[f64]) -> (Vec<usize>, Vec<f64>) {
    let m = p.len();
    let mut order: Vec<usize> = (0..m).collect();
    order.sort_by(|&i, &j| p[i].total_cmp(&p[j]));
    let harmonic: f64 = (1..=m).map(|k| 1.0 / k as f64).sum();
    let factors = (1..=m).map(|k| (k as f64 / m as f64) / harmonic).collect();
    (order, factors)
}

/// Benjamini–Yekutieli adjusted p-values, in the order given.
///
/// # Formula
/// With p₍₁₎ ≤ … ≤ p₍ₘ₎ sorted and H_m = Σₖ₌₁ᵐ 1/k, p̃₍ᵢ₎ = min(1, minⱼ≥ᵢ p₍ⱼ₎ · m · H_m / j):
/// monotone in the sorted order, capped at 1; tied p-values get the same adjusted value.
///
/// # Conventions
/// A NaN p-value is taken as 1 and the others are clamped to [0, 1]; an empty slice gives an
/// empty vector.
///
/// # Reference
/// `statsmodels.stats.multitest.multipletests(p, method="fdr_by")[1]`, at 1e-9
/// (`tests/reference/judges/reference.json`).
pub fn benjamini_yekutieli(p: &[f64]) -> Vec<f64> {
    let p = clean(p);
    let (order, factors) = by_factors(&p);
    let mut adjusted = vec![0.0; p.len()];
    let mut running = f64::INFINITY;
    for (rank, &i) in order.iter().enumerate().rev() {
        running = running.min(p[i] / factors[rank]);
        adjusted[i] = running.min(1.0);
    }
    adjusted
}

/// The hypotheses Benjamini–Yekutieli rejects at false discovery rate `q`, in the order given.
///
/// # Formula
/// The step-up rule: with k the largest rank such that p₍ₖ₎ ≤ k / (m H_m) · q, reject the k
/// smallest p-values (none if there is no such k). Equivalent to p̃ ≤ q up to rounding; the
/// rule itself is what the reference code and statsmodels decide by.
///
/// # Conventions
/// As [`benjamini_yekutieli`]: NaN as 1, clamped to [0, 1].
///
/// # Reference
/// `statsmodels.stats.multitest.multipletests(p, alpha=q, method="fdr_by")[0]`, and the
/// reference code's `by_procedure` (the same decisions; checked in the reference script).
pub fn by_rejected(p: &[f64], q: f64) -> Vec<bool> {
    let p = clean(p);
    let (order, factors) = by_factors(&p);
    let largest = order
        .iter()
        .enumerate()
        .filter(|(rank, i)| p[**i] <= factors[*rank] * q)
        .map(|(rank, _)| rank)
        .max();
    let mut rejected = vec![false; p.len()];
    if let Some(k) = largest {
        for &i in &order[..=k] {
            rejected[i] = true;
        }
    }
    rejected
}

// ---------------------------------------------------------------------------------------------
// Kendall's tau-b
// ---------------------------------------------------------------------------------------------

/// Kendall's tau-b and its two-sided p-value.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct KendallTau {
    pub tau: f64,
    pub p_value: f64,
}

/// Kendall's tau-b with its two-sided p-value, as scipy computes them; `None` when undefined.
///
/// # Formula
/// Over the n(n − 1)/2 pairs: C concordant, D discordant, T_x pairs tied in x, T_y tied in y
/// (pairs tied in both counted in each); τ_b = (C − D) / √(n₀ − T_x) / √(n₀ − T_y), n₀ =
/// n(n − 1)/2, clamped to [−1, 1]. The p-value:
/// - exact (no ties, and n ≤ 33 or min(D, n₀ − D) ≤ 1): the permutation distribution of the
///   number of concordant pairs (Kendall 1970), as scipy's `_kendall_p_exact`: 2·P(C ≤ c) for
///   c = min(C, n₀ − C), 1 when 4c = n(n − 1);
/// - otherwise asymptotic: z = (C − D) / √v with v = (m(2n + 5) − x₁ − y₁)/18 +
///   2 T_x T_y / m + x₀ y₀ / (9 m (n − 2)), m = n(n − 1), x₀ = Σ t(t − 1)(t − 2),
///   x₁ = Σ t(t − 1)(2t + 5) over the groups of ties t in x (likewise y); p = 2(1 − Φ(|z|)).
///
/// # Conventions
/// `None` when the lengths differ, a value is not finite, there are fewer than 2 points, or x
/// or y is constant (scipy's NaN).
///
/// # Reference
/// `scipy.stats.kendalltau(x, y)` (variant "b", method "auto"), at 1e-9: exact and asymptotic
/// p-values, with and without ties (`tests/reference/judges/reference.json`).
pub fn kendall_tau_b(x: &[f64], y: &[f64]) -> Option<KendallTau> {
    let n = x.len();
    if n != y.len() || n < 2 || x.iter().chain(y).any(|v| !v.is_finite()) {
        return None;
    }
    let (mut con, mut dis, mut x_tie, mut y_tie) = (0_u64, 0_u64, 0_u64, 0_u64);
    for i in 0..n {
        for j in i + 1..n {
            let sx = (x[i] - x[j]).partial_cmp(&0.0)?;
            let sy = (y[i] - y[j]).partial_cmp(&0.0)?;
            use std::cmp::Ordering::Equal;
            match (sx, sy) {
                (Equal, Equal) => {
                    x_tie += 1;
                    y_tie += 1;
                }
                (Equal, _) => x_tie += 1,
                (_, Equal) => y_tie += 1,
                (a, b) if a == b => con += 1,
                _ => dis += 1,
            }
        }
    }
    let total = (n * (n - 1) / 2) as u64;
    if x_tie == total || y_tie == total {
        return None;
    }
    let con_minus_dis = con as f64 - dis as f64;
    let tau = (con_minus_dis / ((total - x_tie) as f64).sqrt() / ((total - y_tie) as f64).sqrt())
        .clamp(-1.0, 1.0);
    let exact = x_tie == 0 && y_tie == 0 && (n <= 33 || dis.min(total - dis) <= 1);
    let p_value = if exact {
        kendall_exact_p(n, total - dis)
    } else {
        let (x0, x1) = tie_sums(x);
        let (y0, y1) = tie_sums(y);
        let nf = n as f64;
        let m = nf * (nf - 1.0);
        let var = (m * (2.0 * nf + 5.0) - x1 - y1) / 18.0
            + (2.0 * x_tie as f64 * y_tie as f64) / m
            + x0 * y0 / (9.0 * m * (nf - 2.0));
        let z = con_minus_dis / var.sqrt();
        2.0 * special::normal_sf(z.abs())
    };
    Some(KendallTau { tau, p_value })
}

/// Σ t(t − 1)(t − 2) and Σ t(t − 1)(2t + 5) over the groups of tied values of `v`.
fn tie_sums(v: &[f64]) -> (f64, f64) {
    let (_, groups) = average_ranks(v);
    groups
        .iter()
        .filter(|t| **t > 1)
        .map(|&t| {
            let t = t as f64;
            (t * (t - 1.0) * (t - 2.0), t * (t - 1.0) * (2.0 * t + 5.0))
        })
        .fold((0.0, 0.0), |(a, b), (c, d)| (a + c, b + d))
}

/// n! in floating point (∞ beyond 170).
fn factorial(n: usize) -> f64 {
    (2..=n).fold(1.0, |acc, k| acc * k as f64)
}

/// The exact two-sided p-value of `concordant` concordant pairs among n untied points, as
/// scipy's `_kendall_p_exact`.
fn kendall_exact_p(n: usize, concordant: u64) -> f64 {
    let total = (n * (n - 1) / 2) as u64;
    let c = concordant.min(total - concordant) as usize;
    let prob = if n <= 2 {
        1.0
    } else if c == 0 {
        if n < 171 { 2.0 / factorial(n) } else { 0.0 }
    } else if c == 1 {
        if n < 172 { 2.0 / factorial(n - 1) } else { 0.0 }
    } else if 4 * c == n * (n - 1) {
        1.0
    } else {
        // new[k] = the number of permutations of j elements with k inversions (k ≤ c), built
        // one element at a time: a running sum, minus the terms that fall out of the window.
        let scaled = n >= 171;
        let mut counts = vec![0.0; c + 1];
        counts[0] = 1.0;
        counts[1] = 1.0;
        for j in 3..=n {
            let mut running = 0.0;
            for v in counts.iter_mut() {
                running += *v;
                *v = if scaled { running / j as f64 } else { running };
            }
            if j <= c {
                let before = counts.clone();
                for k in j..=c {
                    counts[k] -= before[k - j];
                }
            }
        }
        let sum: f64 = counts.iter().sum();
        if scaled {
            sum
        } else {
            2.0 * sum / factorial(n)
        }
    };
    prob.clamp(0.0, 1.0)
}

// ---------------------------------------------------------------------------------------------
// Prediction-powered inference
// ---------------------------------------------------------------------------------------------

/// A prediction-powered estimate of a mean, beside the human-only one.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Ppi {
    /// The PPI++ estimate: mean(λ f̃) + mean(y − λ f).
    pub estimate: f64,
    /// Its interval at the level asked.
    pub ci: (f64, f64),
    /// The power-tuning weight λ in [0, 1] (0: the human-only estimate; 1: plain PPI).
    pub lambda: f64,
    /// The human-only estimate, mean(y).
    pub human_only: f64,
    /// Its interval at the same level (a z interval with the population SD, as ppi_py's
    /// classical interval).
    pub human_only_ci: (f64, f64),
    /// (human-only interval width / PPI width)²: how many times the human sample the judge's
    /// labels are worth.
    pub effective_gain: f64,
    /// Human-labelled instances.
    pub n: usize,
    /// Judge-only instances.
    pub n_unlabeled: usize,
}

/// Population SD (ddof = 0), two passes.
fn sd0(xs: &[f64]) -> f64 {
    let m = mean(xs);
    let ss: f64 = xs.iter().map(|x| (x - m) * (x - m)).sum();
    (ss / xs.len() as f64).sqrt()
}

/// Prediction-powered inference for a mean with power tuning (PPI++): `y` = human labels and
/// `f` = the judge's labels on the same n instances, `f_unlabeled` = the judge's labels on N
/// other instances; `level` the interval's coverage (e.g. 0.95).
///
/// # Formula
/// θ₁ = mean(f̃) + mean(y − f) (plain PPI); with g = y − θ₁, ĝ = f − θ₁, g̃ = f̃ − θ₁ and c the
/// centring, λ = clip( (2/n) Σ c(g)·c(ĝ) / (2 (1 + n/N) Var(ĝ ∪ g̃)), 0, 1) (the sample variance,
/// ddof = 1, of the n + N judge labels pooled); θ̂ = mean(λ f̃) + mean(y − λ f);
/// se = √(SD₀(λ f̃)²/N + SD₀(y − λ f)²/n) (ddof = 0); interval θ̂ ± z se with z = Φ⁻¹(1 − α/2),
/// α = 1 − level. Human-only: mean(y) ± z SD₀(y)/√n. Effective gain = (human-only width / PPI
/// width)².
///
/// # Conventions
/// - A judge constant over all n + N instances carries nothing: λ = 0 (ppi_py gives NaN);
/// - both intervals of zero width: effective gain 1; the PPI interval alone of zero width: `None`;
/// - `None` when y and f differ in length, n < 2, N < 1, a value is not finite, or the level is
///   not in (0, 1).
///
/// # Reference
/// ppi_py (Angelopoulos et al.) `ppi_mean_pointestimate(y, f, f̃, lam=None)`,
/// `ppi_mean_ci(y, f, f̃, alpha=1 − level, lam=None)` and `classical_mean_ci(y, alpha)`, at 1e-9
/// on synthetic scores, binary wins, an uninformative judge (λ clipped to 0) and a SummEval
/// system (`tests/reference/judges/reference.json`).
pub fn ppi_mean(y: &[f64], f: &[f64], f_unlabeled: &[f64], level: f64) -> Option<Ppi> {
    let (n, big_n) = (y.len(), f_unlabeled.len());
    if n != f.len() || n < 2 || big_n < 1 || !(level > 0.0 && level < 1.0) {
        return None;
    }
    if y.iter().chain(f).chain(f_unlabeled).any(|v| !v.is_finite()) {
        return None;
    }
    let (nf, big_nf) = (n as f64, big_n as f64);
    let residual: Vec<f64> = y.iter().zip(f).map(|(a, b)| a - b).collect();
    let first = mean(f_unlabeled) + mean(&residual);
    let g: Vec<f64> = y.iter().map(|v| v - first).collect();
    let g_hat: Vec<f64> = f.iter().map(|v| v - first).collect();
    let (mg, mh) = (mean(&g), mean(&g_hat));
    let cross: f64 = g.iter().zip(&g_hat).map(|(a, b)| (a - mg) * (b - mh)).sum();
    let cov = (1.0 / nf) * (2.0 * cross);
    let pooled: Vec<f64> = g_hat
        .iter()
        .copied()
        .chain(f_unlabeled.iter().map(|v| v - first))
        .collect();
    let mp = mean(&pooled);
    let var = pooled.iter().map(|v| (v - mp) * (v - mp)).sum::<f64>() / (pooled.len() - 1) as f64;
    let lambda = if var > 0.0 {
        (cov / (2.0 * (1.0 + nf / big_nf) * var)).clamp(0.0, 1.0)
    } else {
        0.0
    };
    let imputed: Vec<f64> = f_unlabeled.iter().map(|v| lambda * v).collect();
    let rectifier: Vec<f64> = y.iter().zip(f).map(|(a, b)| a - lambda * b).collect();
    let estimate = mean(&imputed) + mean(&rectifier);
    let imputed_se = sd0(&imputed) / big_nf.sqrt();
    let rectifier_se = sd0(&rectifier) / nf.sqrt();
    let se = (imputed_se * imputed_se + rectifier_se * rectifier_se).sqrt();
    let alpha = 1.0 - level;
    let z = special::normal_quantile(1.0 - alpha / 2.0);
    let ci = (estimate - z * se, estimate + z * se);
    let human_only = mean(y);
    let human_se = sd0(y) / nf.sqrt();
    let human_only_ci = (human_only - z * human_se, human_only + z * human_se);
    let (ppi_width, human_width) = (ci.1 - ci.0, human_only_ci.1 - human_only_ci.0);
    let effective_gain = if ppi_width > 0.0 {
        let r = human_width / ppi_width;
        r * r
    } else if human_width == 0.0 {
        1.0
    } else {
        return None;
    };
    Some(Ppi {
        estimate,
        ci,
        lambda,
        human_only,
        human_only_ci,
        effective_gain,
        n,
        n_unlabeled: big_n,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn inst(humans: &[(usize, f64)], judge: f64) -> Instance {
        Instance {
            humans: humans.to_vec(),
            judge,
        }
    }

    fn options(min_instances: usize) -> AltTestOptions {
        AltTestOptions {
            min_instances,
            ..AltTestOptions::DEFAULT
        }
    }

    #[test]
    fn alignment_scores() {
        assert_eq!(Alignment::NegativeRmse.score(3.0, &[1.0, 5.0]), -2.0);
        assert_eq!(Alignment::NegativeRmse.score(3.0, &[3.0]), 0.0);
        assert_eq!(Alignment::Accuracy.score(1.0, &[1.0, 2.0, 1.0, 0.0]), 0.5);
    }

    #[test]
    fn every_d_below_epsilon_rejects_with_p_zero() {
        // Human 2 is 2 away from the others, the judge 0: d = −1 for human 2 everywhere.
        let xs: Vec<Instance> = (0..5)
            .map(|_| inst(&[(0, 3.0), (1, 3.0), (2, 1.0)], 3.0))
            .collect();
        let r = alt_test(&xs, Alignment::NegativeRmse, &options(5));
        let h2 = &r.tested[2];
        assert_eq!((h2.t, h2.p), (f64::NEG_INFINITY, 0.0));
        assert!(h2.rejected);
        assert_eq!(h2.judge_advantage, 1.0);
        assert_eq!(h2.human_advantage, 0.0);
    }

    #[test]
    fn every_d_above_epsilon_never_rejects() {
        let xs: Vec<Instance> = (0..4).map(|_| inst(&[(0, 1.0), (1, 1.0)], 5.0)).collect();
        let r = alt_test(&xs, Alignment::NegativeRmse, &options(3));
        for h in &r.tested {
            assert_eq!((h.t, h.p, h.rejected), (f64::INFINITY, 1.0, false));
        }
        assert_eq!(r.winning_rate, Some(0.0));
        assert_eq!(r.advantage_probability, Some(0.0));
        assert!(!r.passes());
    }

    #[test]
    fn every_d_equal_to_epsilon_is_not_rejected() {
        // All ties (d = 0) against ε = 0: scipy's t is 0/0.
        let xs: Vec<Instance> = (0..4).map(|_| inst(&[(0, 2.0), (1, 2.0)], 2.0)).collect();
        let o = AltTestOptions {
            epsilon: 0.0,
            ..options(2)
        };
        let r = alt_test(&xs, Alignment::Accuracy, &o);
        assert_eq!(r.tested.len(), 2);
        for h in &r.tested {
            assert_eq!((h.t, h.p, h.rejected), (0.0, 1.0, false));
            assert_eq!((h.judge_advantage, h.human_advantage), (1.0, 1.0));
        }
    }

    #[test]
    fn few_instances_and_lone_humans_are_skipped() {
        let mut xs: Vec<Instance> = (0..6)
            .map(|i| inst(&[(0, 1.0), (1, (i % 2) as f64)], 1.0))
            .collect();
        // Human 2 only with one other (1 instance), human 3 alone (used nowhere).
        xs.push(inst(&[(0, 1.0), (2, 0.0)], 1.0));
        xs.push(inst(&[(3, 1.0)], 1.0));
        let r = alt_test(&xs, Alignment::Accuracy, &options(5));
        let tested: Vec<usize> = r.tested.iter().map(|t| t.human).collect();
        assert_eq!(tested, vec![0, 1]);
        assert_eq!(r.tested[0].instances, 7);
        assert_eq!(r.skipped, vec![(2, 1), (3, 0)]);
        // min_instances below 2 is taken as 2: human 2 is still skipped.
        let r = alt_test(&xs, Alignment::Accuracy, &options(0));
        assert_eq!(r.skipped, vec![(2, 1), (3, 0)]);
    }

    #[test]
    fn nothing_tested_gives_no_rates() {
        let r = alt_test(&[], Alignment::Accuracy, &AltTestOptions::DEFAULT);
        assert!(r.tested.is_empty() && r.skipped.is_empty());
        assert_eq!((r.winning_rate, r.advantage_probability), (None, None));
        assert!(!r.passes());
    }

    #[test]
    fn bad_instances_are_ignored_and_bad_options_test_nothing() {
        let mut xs: Vec<Instance> = (0..4).map(|_| inst(&[(0, 1.0), (1, 2.0)], 1.0)).collect();
        xs.push(inst(&[(0, f64::NAN), (1, 2.0)], 1.0));
        xs.push(inst(&[(0, 1.0), (1, 2.0)], f64::INFINITY));
        xs.push(inst(&[(0, 1.0), (0, 2.0)], 1.0));
        let r = alt_test(&xs, Alignment::NegativeRmse, &options(2));
        assert_eq!(r.ignored, vec![4, 5, 6]);
        assert!(r.tested.iter().all(|t| t.instances == 4));
        for bad in [
            AltTestOptions {
                epsilon: f64::NAN,
                ..options(2)
            },
            AltTestOptions {
                q: 0.0,
                ..options(2)
            },
            AltTestOptions {
                q: f64::NAN,
                ..options(2)
            },
        ] {
            assert!(bad.check().is_err());
            assert!(!bad.check().unwrap_err().to_string().is_empty());
            let r = alt_test(&xs, Alignment::NegativeRmse, &bad);
            assert!(r.tested.is_empty() && r.winning_rate.is_none());
        }
    }

    #[test]
    fn benjamini_yekutieli_edges() {
        assert!(benjamini_yekutieli(&[]).is_empty());
        assert!(by_rejected(&[], 0.05).is_empty());
        assert_eq!(benjamini_yekutieli(&[0.03]), vec![0.03]);
        // Ties share their value; NaN counts as 1; out-of-range values are clamped.
        let a = benjamini_yekutieli(&[0.01, 0.01, f64::NAN, -0.5]);
        assert_eq!(a[0], a[1]);
        assert_eq!(a[2], 1.0);
        assert_eq!(a[3], 0.0);
        let h: f64 = 1.0 + 0.5 + 1.0 / 3.0;
        let want = 0.02 * 3.0 * h / 2.0;
        let got = benjamini_yekutieli(&[0.02, 0.5, 0.02]);
        assert!((got[0] - want).abs() < 1e-15 && got[0] == got[2]);
        assert_eq!(
            by_rejected(&[0.001, 0.5, 0.2], 0.05),
            vec![true, false, false]
        );
    }

    #[test]
    fn kendall_undefined_and_exact_edges() {
        assert!(kendall_tau_b(&[1.0], &[2.0]).is_none());
        assert!(kendall_tau_b(&[1.0, 2.0], &[2.0]).is_none());
        assert!(kendall_tau_b(&[1.0, 1.0, 1.0], &[1.0, 2.0, 3.0]).is_none());
        assert!(kendall_tau_b(&[1.0, f64::NAN, 3.0], &[1.0, 2.0, 3.0]).is_none());
        let k = kendall_tau_b(&[1.0, 2.0, 3.0], &[1.0, 2.0, 3.0]).unwrap();
        assert_eq!(k.tau, 1.0);
        // 2 / 3! of the permutations are as extreme.
        assert!((k.p_value - 1.0 / 3.0).abs() < 1e-15);
        assert_eq!(
            kendall_tau_b(&[1.0, 2.0], &[2.0, 1.0]).unwrap().p_value,
            1.0
        );
    }

    #[test]
    fn ppi_edges() {
        let y = [1.0, 0.0, 1.0, 1.0];
        let f = [1.0, 0.0, 1.0, 0.0];
        let fu = [1.0, 1.0, 0.0, 1.0, 0.0, 1.0];
        assert!(ppi_mean(&y, &f[..3], &fu, 0.95).is_none());
        assert!(ppi_mean(&y[..1], &f[..1], &fu, 0.95).is_none());
        assert!(ppi_mean(&y, &f, &[], 0.95).is_none());
        assert!(ppi_mean(&y, &f, &fu, 1.0).is_none());
        assert!(ppi_mean(&y, &f, &[f64::NAN], 0.95).is_none());
        // A constant judge: λ = 0, the human-only estimate and interval.
        let p = ppi_mean(&y, &[1.0; 4], &[1.0; 6], 0.95).unwrap();
        assert_eq!(p.lambda, 0.0);
        assert_eq!(p.estimate, p.human_only);
        assert_eq!(p.ci, p.human_only_ci);
        assert_eq!(p.effective_gain, 1.0);
        // Constant humans and judge: both intervals have zero width.
        let p = ppi_mean(&[1.0; 3], &[1.0; 3], &[1.0; 5], 0.95).unwrap();
        assert_eq!((p.effective_gain, p.n, p.n_unlabeled), (1.0, 3, 5));
    }
}
