//! Error spans: agreement between annotators on where the errors of an output are, and the
//! MQM score of an output.
//!
//! The types: [`Annotated`], one output with its length in characters and the spans each
//! annotator who saw it marked (labelled by severity rank: 1 minor, 2 major, 3 critical);
//! [`span_f1`] (character-level F1 between pairs of annotators, [`SpanF1`]), [`char_alpha`]
//! (Krippendorff's nominal alpha over characters, [`CharAlpha`]) and [`mqm`] (an output's
//! weighted error count).
//!
//! Conventions shared by every statistic here:
//! - A *character* is a Unicode code point of the output's text, from 0; a span `(start, end)`
//!   covers `start..end` (end exclusive). Spans are clipped to the output's length.
//! - An annotator who saw an output and marked no span of text (no errors, or only errors of
//!   the whole output) is in [`Annotated::marks`] with an empty list: they said every
//!   character is without error. An annotator who did not see it is not there at all.
//! - Errors of the whole output (omissions) cover no character: they count in the MQM score,
//!   not in the span agreement.
//! - Should one annotator's spans overlap (the page refuses it; a hand-made table may not), a
//!   character takes the most severe label covering it.
//! - An undefined statistic is `None`, never NaN.
//!
//! Tested at 1e-9 against a reference written with numpy and the `krippendorff` package
//! (`krippendorff.alpha` with `level_of_measurement="nominal"`); the script, its input and the
//! library versions are in `crates/juror-core/tests/reference/spans/`.

/// One output as annotated: its length in characters and, for each annotator who saw it, the
/// spans of text they marked as `(start, end, label)` with label 1 (minor), 2 (major) or 3
/// (critical).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Annotated {
    pub length: u32,
    pub marks: Vec<Vec<(u32, u32, u8)>>,
}

impl Annotated {
    /// Each annotator's label of each character: 0 where no span covers it, else the highest
    /// label of the spans covering it.
    fn labels(&self) -> Vec<Vec<u8>> {
        let n = self.length as usize;
        self.marks
            .iter()
            .map(|spans| {
                let mut labels = vec![0u8; n];
                for &(start, end, label) in spans {
                    let (start, end) = (start as usize, (end as usize).min(n));
                    for l in labels.iter_mut().take(end).skip(start) {
                        *l = (*l).max(label);
                    }
                }
                labels
            })
            .collect()
    }
}

/// The MQM score of one output by one annotator: the sum of the weights of the errors marked,
/// Σ weight(severity) (spans of text and errors of the whole output alike); 0 when none.
pub fn mqm(weights: impl IntoIterator<Item = f64>) -> f64 {
    weights.into_iter().fold(0.0, |sum, w| sum + w)
}

/// Character-level F1 of two annotators on one output: 2·|A∩B| / (|A| + |B|), A and B the sets
/// of characters inside any span each marked (any severity). `None` when neither marked a
/// character (the pair is left out of the average).
pub fn char_f1(a: &[u8], b: &[u8]) -> Option<f64> {
    let (mut both, mut na, mut nb) = (0usize, 0usize, 0usize);
    for (x, y) in a.iter().zip(b) {
        let (x, y) = (*x > 0, *y > 0);
        na += usize::from(x);
        nb += usize::from(y);
        both += usize::from(x && y);
    }
    (na + nb > 0).then(|| 2.0 * both as f64 / (na + nb) as f64)
}

/// Character-level F1 over a study.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct SpanF1 {
    /// The mean of [`char_f1`] over every pair of annotators of every output where either of the
    /// two marked a character; `None` when there is no such pair.
    pub value: Option<f64>,
    /// The (output, pair of annotators) instances averaged.
    pub pairs: usize,
    /// The outputs they are of.
    pub outputs: usize,
    /// Per output (in the order given): the mean F1 of its pairs, with the number of pairs;
    /// `None` when no pair of it counts.
    pub per_output: Vec<Option<(f64, usize)>>,
}

/// Character-level F1 averaged over annotator pairs and outputs:
///
/// F1 = (1/P) Σ_outputs Σ_{pairs (i, j) of its annotators, A_i ∪ A_j ≠ ∅} 2·|A_i∩A_j| /
/// (|A_i| + |A_j|),
///
/// P the number of pairs summed. Each (output, pair) weighs the same; a pair where both marked
/// nothing is left out (agreement on "no error" is what α counts, not F1).
pub fn span_f1(outputs: &[Annotated]) -> SpanF1 {
    let mut out = SpanF1::default();
    let mut sum = 0.0;
    for output in outputs {
        let labels = output.labels();
        let (mut s, mut k) = (0.0, 0usize);
        for i in 0..labels.len() {
            for j in i + 1..labels.len() {
                if let Some(f) = char_f1(&labels[i], &labels[j]) {
                    s += f;
                    k += 1;
                }
            }
        }
        if k > 0 {
            sum += s;
            out.pairs += k;
            out.outputs += 1;
            out.per_output.push(Some((s / k as f64, k)));
        } else {
            out.per_output.push(None);
        }
    }
    out.value = (out.pairs > 0).then(|| sum / out.pairs as f64);
    out
}

/// Krippendorff's alpha over characters.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct CharAlpha {
    /// `None` when no character has two annotators, or every label is the same.
    pub value: Option<f64>,
    /// Characters labelled by two or more annotators (the pairable units).
    pub characters: usize,
    /// The outputs they are of.
    pub outputs: usize,
}

/// Krippendorff's nominal alpha with every character of every output as a unit: each annotator
/// who saw the output labels each character none (0) or the severity of the span covering it
/// (1 minor, 2 major, 3 critical). Units of all outputs are pooled into one coincidence matrix
/// (one alpha for the study, not a mean of per-output alphas):
///
/// o_ck = Σ_u n_uc (n_uk − [c = k]) / (m_u − 1),  n_c = Σ_k o_ck,  n = Σ_c n_c,
///
/// α = 1 − (n − 1) Σ_{c≠k} o_ck / Σ_{c≠k} n_c n_k,
///
/// over the units u with m_u ≥ 2 labels (Krippendorff 2011, as
/// [`crate::stats::agreement::krippendorff_alpha`] computes it, written out here for four labels
/// and many units).
pub fn char_alpha(outputs: &[Annotated]) -> CharAlpha {
    const K: usize = 4;
    let mut o = [[0.0f64; K]; K];
    let mut out = CharAlpha::default();
    for output in outputs {
        let m = output.marks.len();
        if m < 2 || output.length == 0 {
            continue;
        }
        out.outputs += 1;
        out.characters += output.length as usize;
        let labels = output.labels();
        let per = 1.0 / (m - 1) as f64;
        for c in 0..output.length as usize {
            let mut counts = [0usize; K];
            for l in &labels {
                counts[usize::from(l[c].min(3))] += 1;
            }
            for x in 0..K {
                if counts[x] == 0 {
                    continue;
                }
                for y in 0..K {
                    let pairs = counts[x] * (counts[y] - usize::from(x == y));
                    o[x][y] += pairs as f64 * per;
                }
            }
        }
    }
    if out.characters == 0 {
        return out;
    }
    let n_c: Vec<f64> = o.iter().map(|row| row.iter().sum()).collect();
    let n: f64 = n_c.iter().sum();
    let (mut observed, mut expected) = (0.0, 0.0);
    for x in 0..K {
        for y in 0..K {
            if x != y {
                observed += o[x][y];
                expected += n_c[x] * n_c[y];
            }
        }
    }
    out.value = (expected > 0.0).then(|| 1.0 - (n - 1.0) * observed / expected);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::agreement::{Metric, Ratings, krippendorff_alpha};

    fn output(length: u32, marks: &[&[(u32, u32, u8)]]) -> Annotated {
        Annotated {
            length,
            marks: marks.iter().map(|m| m.to_vec()).collect(),
        }
    }

    #[test]
    fn f1_counts_shared_characters_and_leaves_out_pairs_that_marked_nothing() {
        // A marks 0..4, B marks 2..6: |A∩B| = 2, F1 = 4/8.
        let a = output(10, &[&[(0, 4, 1)], &[(2, 6, 2)], &[]]);
        let f = span_f1(&[a, output(5, &[&[], &[]])]);
        // Pairs: (A, B) 0.5; (A, none) 0; (B, none) 0; the second output's pair is left out.
        assert_eq!(f.pairs, 3);
        assert_eq!(f.outputs, 1);
        assert!((f.value.unwrap() - 0.5 / 3.0).abs() < 1e-12);
        assert_eq!(f.per_output[1], None);
        assert_eq!(span_f1(&[]).value, None);
    }

    #[test]
    fn alpha_over_characters_is_the_agreement_modules_alpha_on_the_same_units() {
        let outputs = [
            output(6, &[&[(0, 2, 1)], &[(1, 3, 2)], &[(0, 2, 1), (4, 6, 3)]]),
            output(4, &[&[], &[(0, 4, 1)]]),
            output(3, &[&[(0, 1, 2)]]),
        ];
        let mut triples = Vec::new();
        for (o, out) in outputs.iter().enumerate() {
            for (r, labels) in out.labels().iter().enumerate() {
                for (c, l) in labels.iter().enumerate() {
                    triples.push((format!("{o}/{c}"), format!("r{r}"), f64::from(*l)));
                }
            }
        }
        let ratings = Ratings::from_triples(triples).unwrap();
        let want = krippendorff_alpha(&ratings, Metric::Nominal).unwrap();
        let got = char_alpha(&outputs);
        assert!((got.value.unwrap() - want).abs() < 1e-12, "{got:?} {want}");
        assert_eq!((got.characters, got.outputs), (10, 2));
    }

    #[test]
    fn alpha_is_undefined_when_every_character_has_one_label() {
        let none = output(5, &[&[], &[]]);
        let got = char_alpha(&[none]);
        assert_eq!(got.value, None);
        assert_eq!(got.characters, 5);
        assert_eq!(char_alpha(&[]).value, None);
    }

    #[test]
    fn mqm_sums_weights() {
        assert_eq!(mqm([1.0, 5.0, 5.0]), 11.0);
        assert_eq!(mqm([]), 0.0);
    }
}
