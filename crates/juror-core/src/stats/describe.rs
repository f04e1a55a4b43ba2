//! Descriptive statistics of a sample: mean, standard deviation, median, average ranks and
//! quantiles, written once for every statistic in `stats` that needs them, and the two-sided
//! [`Interval`] the statistics report.
//!
//! Results must be the same to the bit wherever a number is computed (the page and the CLI
//! compare reports exactly), so the arithmetic here is fixed: sums run left to right over the
//! slice as given, and the SD takes two passes (the mean, then the squared deviations). A copy
//! elsewhere may be replaced by one of these only if it sums in the same order.
//!
//! The callers check their input (length, finiteness) first: these functions assume it.

/// A two-sided interval `[low, high]`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Interval {
    pub low: f64,
    pub high: f64,
}

/// The arithmetic mean, Σx / n, summed left to right (NaN for an empty slice).
pub(crate) fn mean(xs: &[f64]) -> f64 {
    xs.iter().sum::<f64>() / xs.len() as f64
}

/// Sample standard deviation with ddof = 1 (two passes: mean, then squared deviations); needs at
/// least 2 values.
pub(crate) fn sd(xs: &[f64]) -> f64 {
    let m = mean(xs);
    let ss: f64 = xs.iter().map(|x| (x - m) * (x - m)).sum();
    (ss / (xs.len() - 1) as f64).sqrt()
}

/// The middle value, or the mean of the two middle values when n is even; needs at least 1 value.
pub(crate) fn median(xs: &[f64]) -> f64 {
    let mut v = xs.to_vec();
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

/// Average ranks (1-based; tied values share the mean of their ranks), as
/// `scipy.stats.rankdata(method="average")`, and the sizes of the groups of ties.
pub(crate) fn average_ranks(xs: &[f64]) -> (Vec<f64>, Vec<usize>) {
    let mut order: Vec<usize> = (0..xs.len()).collect();
    order.sort_by(|&i, &j| xs[i].total_cmp(&xs[j]));
    let mut ranks = vec![0.0; xs.len()];
    let mut groups = Vec::new();
    let mut start = 0;
    while start < order.len() {
        let mut end = start + 1;
        while end < order.len() && xs[order[end]] == xs[order[start]] {
            end += 1;
        }
        // Ranks start..end (0-based) → mean of (start+1)..=end.
        let rank = (start + 1 + end) as f64 / 2.0;
        for &i in &order[start..end] {
            ranks[i] = rank;
        }
        groups.push(end - start);
        start = end;
    }
    (ranks, groups)
}

/// Linear interpolation between order statistics (numpy's default `method="linear"`,
/// Hyndman & Fan type 7): the quantile `q` of sorted `v` is at position `q (n - 1)`.
pub(crate) fn quantile_sorted(v: &[f64], q: f64) -> f64 {
    let h = q * (v.len() - 1) as f64;
    let lo = h.floor() as usize;
    let hi = (lo + 1).min(v.len() - 1);
    v[lo] + (h - lo as f64) * (v[hi] - v[lo])
}
