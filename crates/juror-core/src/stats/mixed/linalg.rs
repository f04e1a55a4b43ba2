//! Dense linear algebra for the small p × p matrices of the REML fit (and of the ordinal model
//! in `stats::ordinal`): products and an equilibrated Cholesky factor with its solves, inverse
//! and log-determinant.

use super::COLLINEAR_TOL;
use crate::stats::math::Portable;

pub(in crate::stats) fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// Copies the lower triangle of a p × p row-major matrix to the upper.
pub(in crate::stats) fn symmetrise(m: &mut [f64], p: usize) {
    for j in 0..p {
        for l in 0..j {
            m[l * p + j] = m[j * p + l];
        }
    }
}

pub(in crate::stats) fn matmul(a: &[f64], b: &[f64], p: usize) -> Vec<f64> {
    let mut out = vec![0.0; p * p];
    for i in 0..p {
        for k in 0..p {
            let aik = a[i * p + k];
            for j in 0..p {
                out[i * p + j] += aik * b[k * p + j];
            }
        }
    }
    out
}

/// The Cholesky factor of a symmetric positive definite matrix, equilibrated: with
/// D = diag(M)^(−1/2), D M D = L Lᵀ. Scaling first makes the pivots scale-free, so that the
/// collinearity test compares each column with its own length.
pub(in crate::stats) struct Cholesky {
    p: usize,
    /// Lower triangle, row-major.
    l: Vec<f64>,
    /// The diagonal of D.
    d: Vec<f64>,
}

impl Cholesky {
    /// Err(j): column j is collinear with columns 0..j (or zero).
    pub(in crate::stats) fn new(m: &[f64], p: usize) -> Result<Cholesky, usize> {
        let mut d = vec![0.0; p];
        for j in 0..p {
            let mjj = m[j * p + j];
            if mjj.is_nan() || mjj <= 0.0 {
                return Err(j);
            }
            d[j] = 1.0 / mjj.sqrt();
        }
        let mut l = vec![0.0; p * p];
        for j in 0..p {
            for i in j..p {
                let mut s = m[i * p + j] * d[i] * d[j];
                for k in 0..j {
                    s -= l[i * p + k] * l[j * p + k];
                }
                if i == j {
                    if s.is_nan() || s <= COLLINEAR_TOL {
                        return Err(j);
                    }
                    l[j * p + j] = s.sqrt();
                } else {
                    l[i * p + j] = s / l[j * p + j];
                }
            }
        }
        Ok(Cholesky { p, l, d })
    }

    /// z = L⁻¹ D v, so that vᵀ M⁻¹ v = |z|².
    fn forward(&self, v: &[f64]) -> Vec<f64> {
        let p = self.p;
        let mut z = vec![0.0; p];
        for i in 0..p {
            let s = v[i] * self.d[i] - dot(&self.l[i * p..i * p + i], &z[..i]);
            z[i] = s / self.l[i * p + i];
        }
        z
    }

    /// M⁻¹ b = D L⁻ᵀ L⁻¹ D b.
    pub(in crate::stats) fn solve(&self, b: &[f64]) -> Vec<f64> {
        let p = self.p;
        let mut x = self.forward(b);
        for i in (0..p).rev() {
            let s = x[i] - (i + 1..p).map(|k| self.l[k * p + i] * x[k]).sum::<f64>();
            x[i] = s / self.l[i * p + i];
        }
        for (xi, di) in x.iter_mut().zip(&self.d) {
            *xi *= di;
        }
        x
    }

    /// vᵀ M⁻¹ v.
    pub(in crate::stats) fn quad(&self, v: &[f64]) -> f64 {
        self.forward(v).iter().map(|z| z * z).sum()
    }

    /// ln |M| = 2 Σ ln Lⱼⱼ − 2 Σ ln Dⱼⱼ.
    pub(in crate::stats) fn ln_det(&self) -> f64 {
        let p = self.p;
        (0..p)
            .map(|j| 2.0 * self.l[j * p + j].ln_p() - 2.0 * self.d[j].ln_p())
            .sum()
    }

    /// M⁻¹, p × p row-major (column by column).
    pub(in crate::stats) fn inverse(&self) -> Vec<f64> {
        let p = self.p;
        let mut inv = vec![0.0; p * p];
        let mut unit = vec![0.0; p];
        for j in 0..p {
            unit.fill(0.0);
            unit[j] = 1.0;
            for (i, v) in self.solve(&unit).into_iter().enumerate() {
                inv[i * p + j] = v;
            }
        }
        symmetrise_mean(&mut inv, p);
        inv
    }
}

/// Makes a numerically almost symmetric matrix exactly symmetric.
fn symmetrise_mean(m: &mut [f64], p: usize) {
    for j in 0..p {
        for l in 0..j {
            let v = 0.5 * (m[j * p + l] + m[l * p + j]);
            m[j * p + l] = v;
            m[l * p + j] = v;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cholesky_solves_and_inverts() {
        let m = [4.0, 2.0, 0.6, 2.0, 2.0, 0.5, 0.6, 0.5, 3.0];
        let c = Cholesky::new(&m, 3).unwrap();
        let x = c.solve(&[1.0, 2.0, 3.0]);
        for i in 0..3 {
            let back: f64 = (0..3).map(|j| m[i * 3 + j] * x[j]).sum();
            assert!((back - [1.0, 2.0, 3.0][i]).abs() < 1e-14);
        }
        let inv = c.inverse();
        let id = matmul(&m, &inv, 3);
        for i in 0..3 {
            for j in 0..3 {
                let want = if i == j { 1.0 } else { 0.0 };
                assert!((id[i * 3 + j] - want).abs() < 1e-14);
            }
        }
        // det = 4(6 − 0.25) − 2(6 − 0.3) + 0.6(1 − 1.2) = 23 − 11.4 − 0.12
        assert!((c.ln_det() - 11.48f64.ln_p()).abs() < 1e-14);
        assert_eq!(
            Cholesky::new(&[1.0, 2.0, 2.0, 4.0], 2).err(),
            Some(1),
            "a multiple of the first column"
        );
    }
}
