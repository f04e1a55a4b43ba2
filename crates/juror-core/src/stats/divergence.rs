//! How far apart texts are: TF-IDF vectors as scikit-learn's `TfidfVectorizer` makes them with
//! its defaults, the cosine distance between two of them, and the mean of groups of distances
//! with its interval (the output divergence of a system across annotators).
//!
//! # TF-IDF
//! Each text is a document. Its words ([`words`]) are the text in lower case
//! ([`str::to_lowercase`], as Python's `str.lower`), cut into the longest runs of word
//! characters, keeping the runs of two characters or more: scikit-learn's default
//! `token_pattern`, `(?u)\b\w\w+\b`. The term frequency tf(t, d) is the count of t in d
//! (`sublinear_tf=False`); the inverse document frequency over n documents, df(t) of which
//! hold t, is idf(t) = ln((1 + n) / (1 + df(t))) + 1 (`smooth_idf=True`); a document's vector
//! is tf · idf, divided by its Euclidean norm (`norm="l2"`); a document without words is the
//! zero vector. The vocabulary and the idf are fitted on the documents given to [`Tfidf::fit`],
//! duplicates counted as documents.
//!
//! A word character is one for which [`char::is_alphanumeric`] holds, or `_`. Python's `\w`
//! is a character whose general category is a letter (L*) or a number (N*), or `_`. The two
//! differ only on characters with the Unicode property Other_Alphabetic that are not letters:
//! combining vowel signs of Brahmic scripts (Devanagari `ा`, U+093E), some combining marks of
//! Arabic and Hebrew vowels, and circled letters (`Ⓐ`): Rust counts them as word characters,
//! Python cuts words there. Latin, Greek, Cyrillic, CJK, Arabic and Hebrew letters, digits and
//! precomposed accented letters (`é`) are read alike; a decomposed accent (`e` + U+0301) cuts a
//! word in both.
//!
//! # Cosine distance
//! 1 − a·b / (‖a‖ ‖b‖), clipped to [0, 2]; a zero vector has similarity 0 with every vector
//! (distance 1), as `sklearn.metrics.pairwise.cosine_distances` gives for two different rows.
//!
//! # Reference
//! `tests/reference/divergence/make_reference.py` (scikit-learn `TfidfVectorizer()` and
//! `cosine_distances`, versions in the `reference.json` it writes), matched to 1e-9.

use std::collections::HashMap;

use super::describe::Interval;
use super::math::Portable;
use super::paired::describe;

/// Whether `c` is a word character (see the module's documentation for how this differs from
/// Python's `\w`).
fn is_word(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// The words of `text` as scikit-learn's default analyzer finds them: lower case, the longest
/// runs of word characters, those of two characters or more, in order.
pub fn words(text: &str) -> Vec<String> {
    let lower = text.to_lowercase();
    let mut out = Vec::new();
    let mut run = String::new();
    let mut length = 0;
    for c in lower.chars().chain(std::iter::once(' ')) {
        if is_word(c) {
            run.push(c);
            length += 1;
        } else {
            if length >= 2 {
                out.push(std::mem::take(&mut run));
            }
            run.clear();
            length = 0;
        }
    }
    out
}

/// A document's TF-IDF vector: (term index, weight) by term index, unit length (or empty).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Vector(Vec<(usize, f64)>);

impl Vector {
    /// The (term index, weight) entries, by term index.
    pub fn entries(&self) -> &[(usize, f64)] {
        &self.0
    }
}

/// A vocabulary and its idf, fitted on documents.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Tfidf {
    vocabulary: HashMap<String, usize>,
    idf: Vec<f64>,
}

impl Tfidf {
    /// The vocabulary of `documents` (terms numbered in order of first appearance; the order
    /// changes no distance) and each term's smoothed idf.
    pub fn fit<'a>(documents: impl IntoIterator<Item = &'a str>) -> Tfidf {
        let mut vocabulary: HashMap<String, usize> = HashMap::new();
        let mut df: Vec<u64> = Vec::new();
        let mut n: u64 = 0;
        for document in documents {
            n += 1;
            let mut seen: Vec<usize> = Vec::new();
            for word in words(document) {
                let next = vocabulary.len();
                let index = *vocabulary.entry(word).or_insert(next);
                if index == df.len() {
                    df.push(0);
                }
                seen.push(index);
            }
            seen.sort_unstable();
            seen.dedup();
            for index in seen {
                df[index] += 1;
            }
        }
        let idf = df
            .iter()
            .map(|&d| ((n + 1) as f64 / (d + 1) as f64).ln_p() + 1.0)
            .collect();
        Tfidf { vocabulary, idf }
    }

    /// The number of terms.
    pub fn terms(&self) -> usize {
        self.idf.len()
    }

    /// The idf of `term` (a word as [`words`] gives it), if it is in the vocabulary.
    pub fn idf(&self, term: &str) -> Option<f64> {
        self.vocabulary.get(term).map(|&i| self.idf[i])
    }

    /// The unit TF-IDF vector of `text`; words outside the vocabulary are left out.
    pub fn vector(&self, text: &str) -> Vector {
        let mut counts: HashMap<usize, f64> = HashMap::new();
        for word in words(text) {
            if let Some(&index) = self.vocabulary.get(&word) {
                *counts.entry(index).or_insert(0.0) += 1.0;
            }
        }
        let mut entries: Vec<(usize, f64)> = counts
            .into_iter()
            .map(|(i, tf)| (i, tf * self.idf[i]))
            .collect();
        entries.sort_unstable_by_key(|&(i, _)| i);
        let norm = entries.iter().map(|(_, w)| w * w).sum::<f64>().sqrt();
        if norm > 0.0 {
            for (_, w) in &mut entries {
                *w /= norm;
            }
        }
        Vector(entries)
    }
}

/// The cosine distance between two vectors: 1 − the cosine of their angle, clipped to [0, 2];
/// 1 when either is the zero vector.
pub fn cosine_distance(a: &Vector, b: &Vector) -> f64 {
    let norm = |v: &Vector| v.0.iter().map(|(_, w)| w * w).sum::<f64>().sqrt();
    let (na, nb) = (norm(a), norm(b));
    if na == 0.0 || nb == 0.0 {
        return 1.0;
    }
    let mut dot = 0.0;
    let (mut i, mut j) = (0, 0);
    while i < a.0.len() && j < b.0.len() {
        let (ti, wi) = a.0[i];
        let (tj, wj) = b.0[j];
        match ti.cmp(&tj) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                dot += (wi / na) * (wj / nb);
                i += 1;
                j += 1;
            }
        }
    }
    (1.0 - dot).clamp(0.0, 2.0)
}

/// The mean of groups of values, each group weighing one.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GroupMean {
    /// The mean over groups of each group's mean.
    pub mean: f64,
    /// The 95% t interval of that mean over the groups' means (`None` with fewer than two
    /// groups).
    pub ci95: Option<Interval>,
    /// Groups with at least one value.
    pub groups: usize,
    /// Values in all.
    pub values: usize,
}

/// Each group's mean, then their mean with its 95% t interval
/// (mean ± t₀.₉₇₅,ₖ₋₁ · SD / √k over the k group means, [`describe`]). Empty groups are left
/// out; `None` when no group has a value or a value is not finite.
///
/// # Reference
/// `numpy.mean` of the group means and `scipy.stats.t.interval(0.95, k - 1, mean, sem)`.
pub fn mean_of_groups(groups: &[Vec<f64>]) -> Option<GroupMean> {
    let filled: Vec<&Vec<f64>> = groups.iter().filter(|g| !g.is_empty()).collect();
    if filled.is_empty() || filled.iter().any(|g| g.iter().any(|v| !v.is_finite())) {
        return None;
    }
    let means: Vec<f64> = filled
        .iter()
        .map(|g| g.iter().sum::<f64>() / g.len() as f64)
        .collect();
    let mean = means.iter().sum::<f64>() / means.len() as f64;
    Some(GroupMean {
        mean,
        ci95: describe(&means).ok().map(|d| d.ci95),
        groups: means.len(),
        values: filled.iter().map(|g| g.len()).sum(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_are_runs_of_two_word_characters_or_more_in_lower_case() {
        assert_eq!(
            words("A cat's 2 NEW_ideas, x2 and é-tude!"),
            ["cat", "new_ideas", "x2", "and", "tude"]
        );
        assert_eq!(
            words("Ελληνικά και 日本語 Привет"),
            ["ελληνικά", "και", "日本語", "привет"]
        );
        // A decomposed accent cuts the word, as in Python.
        assert_eq!(words("cafe\u{301}s"), ["cafe"]);
        assert!(words("a b c").is_empty());
    }

    #[test]
    fn the_idf_is_smoothed_and_vectors_have_unit_length() {
        let tfidf = Tfidf::fit(["the cat", "the dog", "the the"]);
        assert_eq!(tfidf.terms(), 3);
        let close = |a: f64, b: f64| assert!((a - b).abs() < 1e-15, "{a} vs {b}");
        close(tfidf.idf("the").unwrap_or_default(), 1.0);
        close(tfidf.idf("cat").unwrap_or_default(), 2f64.ln_p() + 1.0);
        let v = tfidf.vector("the cat cat");
        close(v.entries().iter().map(|(_, w)| w * w).sum::<f64>(), 1.0);
        assert!(tfidf.vector("a").entries().is_empty());
    }

    #[test]
    fn distances_are_zero_for_the_same_words_and_one_without_any_shared() {
        let tfidf = Tfidf::fit(["red apples", "green pears", "apples red", ""]);
        let v = |t: &str| tfidf.vector(t);
        assert!(cosine_distance(&v("red apples"), &v("apples red")).abs() < 1e-15);
        assert_eq!(cosine_distance(&v("red apples"), &v("green pears")), 1.0);
        assert_eq!(cosine_distance(&v(""), &v("")), 1.0);
    }

    #[test]
    fn groups_weigh_one_each() {
        let g = mean_of_groups(&[vec![0.0, 1.0], vec![1.0], vec![]]).unwrap();
        assert_eq!((g.mean, g.groups, g.values), (0.75, 2, 3));
        assert!(g.ci95.is_some());
        let one = mean_of_groups(&[vec![0.25]]).unwrap();
        assert_eq!((one.mean, one.ci95), (0.25, None));
        assert_eq!(mean_of_groups(&[vec![]]), None);
    }
}
