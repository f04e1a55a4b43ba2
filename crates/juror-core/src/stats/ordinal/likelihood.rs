//! The log-likelihood of the cumulative logit model with its analytic score and Hessian, over
//! the data pooled into (design row, category) cells, and the clusters' summed scores (the
//! formulas are in the parent module's doc).

use super::{OrdinalData, cut_points_of};
use crate::stats::math::Portable;
use crate::stats::mixed::linalg::dot;

/// F(t) = 1 / (1 + e⁻ᵗ).
fn logistic(t: f64) -> f64 {
    if t >= 0.0 {
        1.0 / (1.0 + (-t).exp_p())
    } else {
        let e = t.exp_p();
        e / (1.0 + e)
    }
}

/// ln F(t) = −ln(1 + e⁻ᵗ).
fn ln_logistic(t: f64) -> f64 {
    if t >= 0.0 {
        -(-t).exp_p().ln_1p_p()
    } else {
        t - t.exp_p().ln_1p_p()
    }
}

/// An observation's log-likelihood and its derivatives in its bounds u (upper) and l (lower),
/// `None` for +∞ and −∞.
#[derive(Debug, Clone, Copy, Default)]
struct Terms {
    log_p: f64,
    d_u: f64,
    d_l: f64,
    d_uu: f64,
    d_ll: f64,
    d_ul: f64,
}

fn terms(u: Option<f64>, l: Option<f64>) -> Terms {
    match (u, l) {
        (Some(u), Some(l)) => {
            let d = u - l;
            let t = (-d).exp_p();
            let m = -(-d).exp_m1_p();
            let r = t / m;
            let s = r / m;
            Terms {
                log_p: ln_logistic(u) + ln_logistic(-l) + m.ln_p(),
                d_u: logistic(-u) + r,
                d_l: -logistic(l) - r,
                d_uu: -logistic(u) * logistic(-u) - s,
                d_ll: -logistic(l) * logistic(-l) - s,
                d_ul: s,
            }
        }
        (Some(u), None) => Terms {
            log_p: ln_logistic(u),
            d_u: logistic(-u),
            d_uu: -logistic(u) * logistic(-u),
            ..Terms::default()
        },
        (None, Some(l)) => Terms {
            log_p: ln_logistic(-l),
            d_l: -logistic(l),
            d_ll: -logistic(l) * logistic(-l),
            ..Terms::default()
        },
        // K ≥ 2: an observation always has a finite bound.
        (None, None) => Terms::default(),
    }
}

/// The log-likelihood with its score and Hessian at θ.
pub(super) struct Evaluation {
    pub(super) ll: f64,
    pub(super) score: Vec<f64>,
    /// k × k row-major.
    pub(super) hessian: Vec<f64>,
}

/// A (design row, category) cell with its count, pooled over clusters.
pub(super) struct Pooled {
    pub(super) row: usize,
    pub(super) category: usize,
    pub(super) count: f64,
}

/// The data pooled over clusters, for the likelihood.
pub(super) struct Model<'a> {
    data: &'a OrdinalData,
    pub(super) p: usize,
    /// K − 1 threshold parameters.
    pub(super) m: usize,
    pub(super) pooled: Vec<Pooled>,
    /// Per (row, category), its position in `pooled`.
    pooled_at: Vec<usize>,
}

impl<'a> Model<'a> {
    pub(super) fn new(data: &'a OrdinalData) -> Model<'a> {
        let kk = data.categories.len();
        let n_rows = data.row_index.len();
        let mut pooled = Vec::new();
        let mut pooled_at = vec![usize::MAX; n_rows * kk];
        for c in &data.cells {
            let at = &mut pooled_at[c.row * kk + c.category];
            if *at == usize::MAX {
                *at = pooled.len();
                pooled.push(Pooled {
                    row: c.row,
                    category: c.category,
                    count: 0.0,
                });
            }
            pooled[*at].count += c.count as f64;
        }
        Model {
            data,
            p: data.columns.len(),
            m: kk - 1,
            pooled,
            pooled_at,
        }
    }

    pub(super) fn k(&self) -> usize {
        self.p + self.m
    }

    /// Per distinct design row, xᵀβ.
    fn linear(&self, theta: &[f64]) -> Vec<f64> {
        let n_rows = self.data.row_index.len();
        (0..n_rows)
            .map(|r| dot(self.data.row(r), &theta[..self.p]))
            .collect()
    }

    /// A cell's bounds (u, l).
    fn bounds(&self, category: usize, eta: f64, cuts: &[f64]) -> (Option<f64>, Option<f64>) {
        let u = (category < self.m).then(|| cuts[category] - eta);
        let l = (category > 0).then(|| cuts[category - 1] - eta);
        (u, l)
    }

    pub(super) fn log_likelihood(&self, theta: &[f64]) -> f64 {
        let cuts = cut_points_of(&theta[self.p..]);
        let eta = self.linear(theta);
        self.pooled
            .iter()
            .map(|c| {
                let (u, l) = self.bounds(c.category, eta[c.row], &cuts);
                c.count * terms(u, l).log_p
            })
            .sum()
    }

    /// ∇u and ∇l of a cell (k-vectors; zero for an infinite bound).
    fn gradients(&self, row: usize, category: usize, exps: &[f64], du: &mut [f64], dl: &mut [f64]) {
        let p = self.p;
        du.fill(0.0);
        dl.fill(0.0);
        for (j, &x) in self.data.row(row).iter().enumerate() {
            du[j] = -x;
            dl[j] = -x;
        }
        let fill = |d: &mut [f64], cut: usize| {
            d[p] = 1.0;
            d[p + 1..=p + cut].copy_from_slice(&exps[1..=cut]);
        };
        if category < self.m {
            fill(du, category);
        } else {
            du[..p].fill(0.0);
        }
        if category > 0 {
            fill(dl, category - 1);
        } else {
            dl[..p].fill(0.0);
        }
    }

    /// One observation's score in a cell.
    fn cell_score(&self, c: &Pooled, eta: &[f64], cuts: &[f64], exps: &[f64]) -> Vec<f64> {
        let k = self.k();
        let (mut du, mut dl) = (vec![0.0; k], vec![0.0; k]);
        self.gradients(c.row, c.category, exps, &mut du, &mut dl);
        let (u, l) = self.bounds(c.category, eta[c.row], cuts);
        let t = terms(u, l);
        du.iter()
            .zip(&dl)
            .map(|(a, b)| t.d_u * a + t.d_l * b)
            .collect()
    }

    pub(super) fn evaluate(&self, theta: &[f64]) -> Evaluation {
        let (p, k) = (self.p, self.k());
        let a = &theta[p..];
        let cuts = cut_points_of(a);
        let exps: Vec<f64> = a.iter().map(|v| v.exp_p()).collect();
        let eta = self.linear(theta);
        let mut out = Evaluation {
            ll: 0.0,
            score: vec![0.0; k],
            hessian: vec![0.0; k * k],
        };
        let (mut du, mut dl) = (vec![0.0; k], vec![0.0; k]);
        for c in &self.pooled {
            self.gradients(c.row, c.category, &exps, &mut du, &mut dl);
            let (u, l) = self.bounds(c.category, eta[c.row], &cuts);
            let t = terms(u, l);
            let w = c.count;
            out.ll += w * t.log_p;
            for i in 0..k {
                out.score[i] += w * (t.d_u * du[i] + t.d_l * dl[i]);
                for j in 0..=i {
                    out.hessian[i * k + j] += w
                        * (t.d_uu * du[i] * du[j]
                            + t.d_ll * dl[i] * dl[j]
                            + t.d_ul * (du[i] * dl[j] + dl[i] * du[j]));
                }
            }
            // ∂²c_j/∂a_m² = e^{a_m} for 1 ≤ m ≤ j.
            for (bound, weight) in [(c.category, t.d_u), (c.category.wrapping_sub(1), t.d_l)] {
                if bound < self.m {
                    for (mm, e) in exps.iter().enumerate().take(bound + 1).skip(1) {
                        out.hessian[(p + mm) * k + p + mm] += w * weight * e;
                    }
                }
            }
        }
        for i in 0..k {
            for j in 0..i {
                out.hessian[j * k + i] = out.hessian[i * k + j];
            }
        }
        out
    }

    /// Σ_g s_g s_gᵀ, the clusters' summed scores.
    pub(super) fn cluster_meat(&self, theta: &[f64]) -> Vec<f64> {
        let (p, k) = (self.p, self.k());
        let a = &theta[p..];
        let cuts = cut_points_of(a);
        let exps: Vec<f64> = a.iter().map(|v| v.exp_p()).collect();
        let eta = self.linear(theta);
        let scores: Vec<Vec<f64>> = self
            .pooled
            .iter()
            .map(|c| self.cell_score(c, &eta, &cuts, &exps))
            .collect();
        let kk = self.data.categories.len();
        let mut sums = vec![0.0; self.data.clusters.len() * k];
        for c in &self.data.cells {
            let s = &scores[self.pooled_at[c.row * kk + c.category]];
            let n = c.count as f64;
            for (acc, v) in sums[c.cluster * k..(c.cluster + 1) * k].iter_mut().zip(s) {
                *acc += n * v;
            }
        }
        let mut meat = vec![0.0; k * k];
        for g in sums.chunks_exact(k) {
            for i in 0..k {
                for j in 0..k {
                    meat[i * k + j] += g[i] * g[j];
                }
            }
        }
        meat
    }
}
