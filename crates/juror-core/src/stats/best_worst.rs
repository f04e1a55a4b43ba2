//! Best–worst scaling: an annotator sees a tuple of outputs and picks the best and the worst.
//!
//! Per system (indices `0..m`): how often it was shown, chosen best and chosen worst; the
//! **counting score** (best − worst) / shown, with a percentile bootstrap interval that resamples
//! items; the **maxdiff utilities**, the maximum-likelihood fit of
//! P(best = i, worst = j | tuple T) = exp(u_i − u_j) / Σ_{k ≠ l ∈ T} exp(u_k − u_l),
//! centred on mean 0, with Wald intervals from the observed information; and the split-half
//! reliability of the counting scores.
//!
//! # Reference
//! `crates/juror-core/tests/reference/best_worst/make_reference.py` (numpy, scipy): counts and
//! counting scores to 1e-9, utilities (the likelihood maximised by `scipy.optimize` to a
//! gradient of 1e-10) to 1e-6.

use super::describe::quantile_sorted;
use super::math::Portable;
use super::trend::spearman;
use crate::base::rng::Stream;

/// One best–worst judgement.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tuple {
    /// The item it was about (an index), the unit the bootstrap resamples.
    pub item: usize,
    /// The systems shown (indices), each once.
    pub shown: Vec<usize>,
    /// The system chosen best.
    pub best: usize,
    /// The system chosen worst (not the best).
    pub worst: usize,
}

/// Per-system counts.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Counts {
    pub shown: u64,
    pub best: u64,
    pub worst: u64,
}

impl Counts {
    /// (best − worst) / shown; `None` when never shown.
    pub fn score(&self) -> Option<f64> {
        (self.shown > 0).then(|| (self.best as f64 - self.worst as f64) / self.shown as f64)
    }
}

/// The counts of each of `m` systems over `tuples`.
pub fn counts(m: usize, tuples: &[Tuple]) -> Vec<Counts> {
    let mut out = vec![Counts::default(); m];
    for t in tuples {
        for &s in &t.shown {
            if let Some(c) = out.get_mut(s) {
                c.shown += 1;
            }
        }
        if let Some(c) = out.get_mut(t.best) {
            c.best += 1;
        }
        if let Some(c) = out.get_mut(t.worst) {
            c.worst += 1;
        }
    }
    out
}

/// The percentile bootstrap interval (level `level`) of each system's counting score, over
/// `resamples` resamples of the items with replacement (stream `("best-worst bootstrap", r, 0)`
/// of `seed`). `None` for a system never shown in some resample's data at all (then never
/// shown) or when there are no items.
pub fn bootstrap_scores(
    m: usize,
    tuples: &[Tuple],
    level: f64,
    resamples: usize,
    seed: u64,
) -> Vec<Option<(f64, f64)>> {
    let mut items: Vec<usize> = tuples.iter().map(|t| t.item).collect();
    items.sort_unstable();
    items.dedup();
    if items.is_empty() || resamples == 0 {
        return vec![None; m];
    }
    // The counts of each item, so that a resample sums counts.
    let per_item: Vec<Vec<Counts>> = items
        .iter()
        .map(|&i| {
            let mine: Vec<Tuple> = tuples.iter().filter(|t| t.item == i).cloned().collect();
            counts(m, &mine)
        })
        .collect();
    let n = items.len();
    let mut scores: Vec<Vec<f64>> = vec![Vec::with_capacity(resamples); m];
    for r in 0..resamples {
        let mut stream = Stream::new(seed, "best-worst bootstrap", r as u64, 0);
        let mut total = vec![Counts::default(); m];
        for _ in 0..n {
            for (t, c) in total.iter_mut().zip(&per_item[stream.below(n)]) {
                t.shown += c.shown;
                t.best += c.best;
                t.worst += c.worst;
            }
        }
        for (s, c) in scores.iter_mut().zip(&total) {
            if let Some(x) = c.score() {
                s.push(x);
            }
        }
    }
    let alpha = 1.0 - level;
    scores
        .into_iter()
        .map(|mut s| {
            if s.len() < resamples {
                return None;
            }
            s.sort_by(f64::total_cmp);
            Some((
                quantile_sorted(&s, alpha / 2.0),
                quantile_sorted(&s, 1.0 - alpha / 2.0),
            ))
        })
        .collect()
}

/// The fitted maxdiff model.
#[derive(Debug, Clone, PartialEq)]
pub struct Maxdiff {
    /// Utilities, centred on mean 0.
    pub utilities: Vec<f64>,
    /// Their standard errors, from the inverse of the observed information (with the first
    /// utility fixed), carried to the centred utilities.
    pub se: Vec<f64>,
    pub log_likelihood: f64,
    pub iterations: usize,
}

/// Why the maxdiff model has no fit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MaxdiffError {
    /// Fewer than two systems, or a tuple of fewer than two.
    TooFew,
    /// The likelihood has no maximum: some systems are never chosen best, or never worst, or
    /// the systems fall into groups that are never compared (the utilities would run off to
    /// infinity).
    NoMaximum,
}

/// The log-likelihood, gradient and observed information (negative Hessian) at `u`.
fn evaluate(m: usize, tuples: &[Tuple], u: &[f64]) -> (f64, Vec<f64>, Vec<f64>) {
    let mut ll = 0.0;
    let mut grad = vec![0.0; m];
    let mut info = vec![0.0; m * m];
    for t in tuples {
        let k = &t.shown;
        // The largest |u_i − u_j| keeps the exponentials in range.
        let hi = k.iter().map(|&i| u[i]).fold(f64::NEG_INFINITY, f64::max);
        let lo = k.iter().map(|&i| u[i]).fold(f64::INFINITY, f64::min);
        let shift = hi - lo;
        let mut z = 0.0;
        let mut pairs: Vec<(usize, usize, f64)> = Vec::with_capacity(k.len() * k.len());
        for &i in k {
            for &j in k {
                if i != j {
                    let w = (u[i] - u[j] - shift).exp_p();
                    z += w;
                    pairs.push((i, j, w));
                }
            }
        }
        ll += u[t.best] - u[t.worst] - shift - z.ln_p();
        grad[t.best] += 1.0;
        grad[t.worst] -= 1.0;
        // E[x] and E[x xᵀ] of x = e_i − e_j.
        let mut ex = vec![0.0; m];
        for &(i, j, w) in &pairs {
            let p = w / z;
            ex[i] += p;
            ex[j] -= p;
            info[i * m + i] += p;
            info[j * m + j] += p;
            info[i * m + j] -= p;
            info[j * m + i] -= p;
        }
        for &a in k {
            grad[a] -= ex[a];
            for &b in k {
                info[a * m + b] -= ex[a] * ex[b];
            }
        }
    }
    (ll, grad, info)
}

/// The inverse of the symmetric positive definite `a` (n × n, row-major) by Gauss–Jordan
/// elimination with partial pivoting; `None` when it is singular.
fn invert(a: &[f64], n: usize) -> Option<Vec<f64>> {
    let mut a = a.to_vec();
    let mut inv = vec![0.0; n * n];
    for i in 0..n {
        inv[i * n + i] = 1.0;
    }
    for c in 0..n {
        let p = (c..n).max_by(|&x, &y| a[x * n + c].abs().total_cmp(&a[y * n + c].abs()))?;
        if a[p * n + c].abs() < 1e-12 {
            return None;
        }
        for k in 0..n {
            a.swap(c * n + k, p * n + k);
            inv.swap(c * n + k, p * n + k);
        }
        let d = a[c * n + c];
        for k in 0..n {
            a[c * n + k] /= d;
            inv[c * n + k] /= d;
        }
        for r in (0..n).filter(|&r| r != c) {
            let f = a[r * n + c];
            if f != 0.0 {
                for k in 0..n {
                    a[r * n + k] -= f * a[c * n + k];
                    inv[r * n + k] -= f * inv[c * n + k];
                }
            }
        }
    }
    Some(inv)
}

/// The maximum-likelihood maxdiff utilities of `m` systems.
///
/// # Method
/// Newton's method on u_1 … u_{m−1} with u_0 = 0 (the likelihood depends on differences
/// only), from 0, halving a step that lowers the likelihood, until the largest gradient
/// component is below 1e-10 (at most 200 steps); then centred. Standard errors: the inverse
/// of the observed information of the free utilities is Σ; the centred utilities are C u with
/// C = I − 11ᵀ/m, so their covariance is C Σ₀ Cᵀ, Σ₀ being Σ with a zero row and column for u_0.
///
/// # Errors
/// [`MaxdiffError`].
pub fn maxdiff(m: usize, tuples: &[Tuple]) -> Result<Maxdiff, MaxdiffError> {
    if m < 2 || tuples.iter().any(|t| t.shown.len() < 2) || tuples.is_empty() {
        return Err(MaxdiffError::TooFew);
    }
    // A system never shown has no utility; one always chosen best (or always worst) has none
    // that is finite. Other failures show as utilities running off (below).
    let c = counts(m, tuples);
    if c.iter()
        .any(|c| c.shown == 0 || c.best == c.shown || c.worst == c.shown)
    {
        return Err(MaxdiffError::NoMaximum);
    }
    let free = m - 1;
    let mut u = vec![0.0; m];
    let (mut ll, mut grad, mut info) = evaluate(m, tuples, &u);
    let mut iterations = 0;
    loop {
        let g: Vec<f64> = grad[1..].to_vec();
        if g.iter().all(|x| x.abs() < 1e-10) {
            break;
        }
        if iterations >= 200 {
            return Err(MaxdiffError::NoMaximum);
        }
        iterations += 1;
        let sub: Vec<f64> = (1..m)
            .flat_map(|i| (1..m).map(move |j| (i, j)))
            .map(|(i, j)| info[i * m + j])
            .collect();
        let inv = invert(&sub, free).ok_or(MaxdiffError::NoMaximum)?;
        let step: Vec<f64> = (0..free)
            .map(|i| (0..free).map(|j| inv[i * free + j] * g[j]).sum())
            .collect();
        let mut scale = 1.0;
        loop {
            let mut next = u.clone();
            for (x, s) in next[1..].iter_mut().zip(&step) {
                *x += scale * s;
            }
            let (l2, g2, i2) = evaluate(m, tuples, &next);
            if l2 >= ll - 1e-12 || scale < 1e-8 {
                (u, ll, grad, info) = (next, l2, g2, i2);
                break;
            }
            scale /= 2.0;
        }
        if u.iter().any(|x| x.abs() > 50.0) {
            return Err(MaxdiffError::NoMaximum);
        }
    }
    let sub: Vec<f64> = (1..m)
        .flat_map(|i| (1..m).map(move |j| (i, j)))
        .map(|(i, j)| info[i * m + j])
        .collect();
    let inv = invert(&sub, free).ok_or(MaxdiffError::NoMaximum)?;
    let mut sigma = vec![0.0; m * m];
    for i in 1..m {
        for j in 1..m {
            sigma[i * m + j] = inv[(i - 1) * free + (j - 1)];
        }
    }
    // (C Σ₀ Cᵀ)_ii = Σ_ii − 2 mean_j Σ_ij + mean_jk Σ_jk.
    let mf = m as f64;
    let row_mean: Vec<f64> = (0..m)
        .map(|i| (0..m).map(|j| sigma[i * m + j]).sum::<f64>() / mf)
        .collect();
    let all_mean = row_mean.iter().sum::<f64>() / mf;
    let se = (0..m)
        .map(|i| {
            (sigma[i * m + i] - 2.0 * row_mean[i] + all_mean)
                .max(0.0)
                .sqrt()
        })
        .collect();
    let mean = u.iter().sum::<f64>() / mf;
    Ok(Maxdiff {
        utilities: u.iter().map(|x| x - mean).collect(),
        se,
        log_likelihood: ll,
        iterations,
    })
}

/// Split-half reliability of the counting scores.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SplitHalf {
    /// Splits whose two halves gave a correlation (both halves show at least 3 systems that
    /// are not all scored alike).
    pub splits: usize,
    /// The mean Spearman correlation between the halves' counting scores.
    pub mean_rho: f64,
    /// The Spearman–Brown correction of the mean: 2ρ / (1 + ρ).
    pub spearman_brown: f64,
}

/// Split-half reliability: `splits` times, the tuples are shuffled (stream
/// `("best-worst split-half", s, 0)` of `seed`) and cut in two halves (the first ⌊n/2⌋ and the
/// rest); each half's counting scores are correlated by Spearman's ρ over the systems both
/// halves show; the mean ρ is corrected by Spearman–Brown. `None` when no split gives a
/// correlation.
pub fn split_half(m: usize, tuples: &[Tuple], splits: usize, seed: u64) -> Option<SplitHalf> {
    let mut rhos = Vec::new();
    for s in 0..splits {
        let order =
            Stream::new(seed, "best-worst split-half", s as u64, 0).permutation(tuples.len());
        let half = tuples.len() / 2;
        let pick =
            |range: &[usize]| -> Vec<Tuple> { range.iter().map(|&i| tuples[i].clone()).collect() };
        let (a, b) = (
            counts(m, &pick(&order[..half])),
            counts(m, &pick(&order[half..])),
        );
        let (x, y): (Vec<f64>, Vec<f64>) = a
            .iter()
            .zip(&b)
            .filter_map(|(a, b)| Some((a.score()?, b.score()?)))
            .unzip();
        if let Ok(Some(r)) = spearman(&x, &y) {
            rhos.push(r.rho);
        }
    }
    if rhos.is_empty() {
        return None;
    }
    let mean_rho = rhos.iter().sum::<f64>() / rhos.len() as f64;
    Some(SplitHalf {
        splits: rhos.len(),
        mean_rho,
        spearman_brown: 2.0 * mean_rho / (1.0 + mean_rho),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(item: usize, shown: &[usize], best: usize, worst: usize) -> Tuple {
        Tuple {
            item,
            shown: shown.to_vec(),
            best,
            worst,
        }
    }

    #[test]
    fn counts_and_scores_count_each_tuple_once() {
        let tuples = [t(0, &[0, 1, 2], 0, 2), t(1, &[0, 1, 2], 1, 2)];
        let c = counts(3, &tuples);
        assert_eq!(
            c[0],
            Counts {
                shown: 2,
                best: 1,
                worst: 0
            }
        );
        assert_eq!(c[2].score(), Some(-1.0));
    }

    #[test]
    fn a_system_never_chosen_worst_has_no_maximum() {
        let tuples = [t(0, &[0, 1, 2], 0, 2), t(1, &[0, 1, 2], 0, 1)];
        assert_eq!(maxdiff(3, &tuples), Err(MaxdiffError::NoMaximum));
    }

    #[test]
    fn symmetric_choices_give_equal_utilities_centred_on_zero() {
        let mut tuples = Vec::new();
        for b in 0..3 {
            for w in (0..3).filter(|&w| w != b) {
                tuples.push(t(b, &[0, 1, 2], b, w));
            }
        }
        let fit = maxdiff(3, &tuples).unwrap();
        for u in &fit.utilities {
            assert!(u.abs() < 1e-12);
        }
        assert!(fit.se.iter().all(|s| *s > 0.0));
    }

    #[test]
    fn the_bootstrap_interval_holds_the_score() {
        let tuples: Vec<Tuple> = (0..20)
            .map(|i| t(i, &[0, 1, 2], i % 3, (i + 1) % 3))
            .collect();
        let c = counts(3, &tuples);
        let ci = bootstrap_scores(3, &tuples, 0.95, 200, 7);
        for (c, ci) in c.iter().zip(&ci) {
            let (lo, hi) = ci.unwrap();
            let s = c.score().unwrap();
            assert!(lo <= s && s <= hi, "{lo} {s} {hi}");
        }
    }
}
