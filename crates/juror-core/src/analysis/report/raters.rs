//! Rater quality, when the plan asks for it (`analysis.raters`, `--raters`): every nominal
//! answer the annotators gave read as categories, and the fits of [`crate::stats::raters`] over
//! the units and the annotators who answered them. What is read:
//!
//! - each rating dimension of up to [`MAX_CATEGORIES`] distinct scores (units: outputs);
//! - each per-output question with one answer an output: a single choice or a Likert question
//!   (or, without a study, any with one answer an output and up to [`MAX_CATEGORIES`] values);
//! - the flag, `0` or `1` on every output shown;
//! - a pair's choice (units: the item and its two systems; categories the first system in name
//!   order better, a tie, the second better), judgements derived from ratings left out.
//!
//! One [`Source`] per answer; [`fit`] is the same for all.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::analysis::data::{AnswerRow, Data, Input, Phase};
use crate::analysis::payments::Payments;
use crate::analysis::read::{Context, base_name};
use crate::session::CANNOT_JUDGE;
use crate::stats::preference::Outcome;
use crate::stats::raters::mace::{MaceOptions, mace};
use crate::stats::raters::{Answer, dawid_skene};
use crate::study::analysis_plan::{AnalysisPlan, RaterModel, RaterModels};
use crate::study::{QuestionKind, Study};

/// The most distinct values an answer may have to be read as categories: a 0–10 scale, not
/// a slider (whose confusion matrices would be 101 × 101 and nearly empty).
pub const MAX_CATEGORIES: usize = 11;

/// How many units whose consensus differs from their majority vote are listed.
pub const CHANGES_LISTED: usize = 20;

/// The categories of a pair's choice.
const CHOICE: [&str; 3] = ["first", "tie", "second"];

/// What a fit reads as categories.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Rated {
    /// A rating dimension's scores.
    Dimension,
    /// A per-output question's answers.
    Question,
    /// The flag on each output.
    Flag,
    /// The choice between the two outputs of a pair.
    Choice,
}

/// The rater-quality fits on one answer.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct RaterQuality {
    pub answer: Rated,
    /// The dimension, the question's id, `flag` or `preference`.
    pub name: String,
    /// The models fitted, in the plan's order: `dawid_skene`, `mace`.
    pub models: Vec<RaterModel>,
    /// The categories, in order: scores ascending, a question's options as the study declares
    /// them, `0` and `1` for the flag, `first`, `tie` and `second` for a pair's choice (its
    /// systems in name order).
    pub categories: Vec<String>,
    /// Units rated: outputs (item, system), or pairs (item, two systems) for a choice.
    pub units: usize,
    /// Answers fitted.
    pub answers: usize,
    /// Rounds of Dawid–Skene's EM (else MACE's), and whether it stopped before the cap.
    pub rounds: usize,
    pub converged: bool,
    /// The estimated share of each category among the units (Dawid–Skene's, else MACE's).
    pub prior: Vec<f64>,
    /// Per annotator, by name.
    pub annotators: Vec<AnnotatorQuality>,
    /// Units whose consensus (Dawid–Skene's, else MACE's) is not their majority vote's.
    pub differs_from_majority: usize,
    /// The first of them ([`CHANGES_LISTED`]), by item and system.
    pub changes: Vec<ConsensusChange>,
}

/// One annotator's estimated quality.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct AnnotatorQuality {
    pub annotator: String,
    pub answers: usize,
    /// Dawid–Skene: Σ_c π_c e[c][c], the chance of giving the true category, the truth drawn
    /// from the prior.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub accuracy: Option<f64>,
    /// MACE: the probability that an answer is not spam (given knowingly, not by a habit).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub competence: Option<f64>,
    /// The share of the annotator's answers equal to the unit's consensus.
    pub agrees_with_consensus: f64,
    /// Dawid–Skene: `confusion[k][c]`, the probability of giving category k when the truth is
    /// c; `null` for a category the annotator never gave.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub confusion: Option<Vec<Option<Vec<f64>>>>,
}

/// A unit whose consensus is not its majority vote.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct ConsensusChange {
    pub item: String,
    /// The system, or for a pair's choice its two systems (`a vs b`).
    pub system: String,
    /// The categories, as [`RaterQuality::categories`] names them (a pair's by its systems:
    /// the system preferred, or `tie`).
    pub majority: String,
    pub consensus: String,
    /// The consensus category's posterior probability.
    pub posterior: f64,
}

/// One answer read as a category.
struct Labelled<'a> {
    item: &'a str,
    /// The system, or a pair's two systems in name order.
    system: (&'a str, Option<&'a str>),
    annotator: &'a str,
    category: usize,
}

/// An answer's categories and the answers given.
struct Source<'a> {
    answer: Rated,
    name: String,
    categories: Vec<String>,
    rows: Vec<Labelled<'a>>,
}

/// The plan's rater-quality fits: the dimensions in `dimensions` order, then the per-output
/// questions, the flag and the pairs' choices; an answer that cannot be read as categories is
/// left out (the methods say which are).
pub fn report(
    data: &Data,
    plan: &AnalysisPlan,
    dimensions: &[String],
    study: Option<&Study>,
) -> Vec<RaterQuality> {
    if plan.raters.is_empty() {
        return Vec::new();
    }
    let mut sources: Vec<Source<'_>> = dimensions
        .iter()
        .filter_map(|d| dimension(data, d))
        .collect();
    sources.extend(questions(data, study));
    sources.extend(flag(data));
    sources.extend(choice(data));
    sources
        .into_iter()
        .filter_map(|s| fit(s, plan.raters.list()))
        .collect()
}

/// A dimension's scores, ascending.
fn dimension<'a>(data: &'a Data, d: &str) -> Option<Source<'a>> {
    let rows: Vec<_> = data.ratings.iter().filter(|r| r.dimension == d).collect();
    let mut scores: Vec<f64> = rows.iter().map(|r| r.score).collect();
    scores.sort_by(f64::total_cmp);
    scores.dedup();
    let rows = rows
        .iter()
        .map(|r| Labelled {
            item: r.item.as_str(),
            system: (r.system.as_str(), None),
            annotator: r.annotator.as_str(),
            category: scores
                .iter()
                .position(|&c| c == r.score)
                .unwrap_or_default(),
        })
        .collect();
    Some(Source {
        answer: Rated::Dimension,
        name: d.to_owned(),
        categories: scores.iter().map(|s| s.to_string()).collect(),
        rows,
    })
}

/// The per-output questions with one answer an output ("Cannot judge" left out), in the
/// study's order, then by id.
fn questions<'a>(data: &'a Data, study: Option<&Study>) -> Vec<Source<'a>> {
    let mut by: BTreeMap<&str, Vec<&AnswerRow>> = BTreeMap::new();
    for r in &data.answers {
        if r.phase == Phase::Output
            && r.question != "flag"
            && r.value != CANNOT_JUDGE
            && r.rank.is_none()
            && r.item.is_some()
            && r.system.is_some()
        {
            by.entry(r.question.as_str()).or_default().push(r);
        }
    }
    let declared = study.map_or(&[][..], |s| s.rubric().output_questions.as_slice());
    let mut ids: Vec<&str> = declared
        .iter()
        .map(|q| q.id.as_str())
        .filter(|id| by.contains_key(id))
        .collect();
    ids.extend(by.keys().filter(|id| !ids.contains(id)).collect::<Vec<_>>());
    ids.into_iter()
        .filter_map(|id| {
            let question = declared.iter().find(|q| q.id == id);
            let categories = match question.map(|q| &q.kind) {
                Some(QuestionKind::SingleChoice(options)) => options.clone(),
                Some(QuestionKind::Likert(scale)) => scale
                    .points
                    .iter()
                    .map(|p| f64::from(p.value).to_string())
                    .collect(),
                Some(_) => return None,
                None => Vec::new(),
            };
            answered(Rated::Question, id, &by[id], categories)
        })
        .collect()
}

/// The flag: `0` or `1` on every output shown.
fn flag(data: &Data) -> Option<Source<'_>> {
    let rows: Vec<&AnswerRow> = data
        .answers
        .iter()
        .filter(|r| r.phase == Phase::Output && r.question == "flag")
        .filter(|r| r.item.is_some() && r.system.is_some())
        .collect();
    answered(
        Rated::Flag,
        "flag",
        &rows,
        vec!["0".to_owned(), "1".to_owned()],
    )
}

/// `rows` read as `categories` (those seen but not declared added, sorted: numerically when
/// every value is a number), when every output has one answer from each annotator.
fn answered<'a>(
    answer: Rated,
    name: &str,
    rows: &[&'a AnswerRow],
    mut categories: Vec<String>,
) -> Option<Source<'a>> {
    let mut extra: Vec<&str> = rows
        .iter()
        .map(|r| r.value.as_str())
        .filter(|v| !categories.iter().any(|c| c == v))
        .collect();
    extra.sort_unstable();
    extra.dedup();
    if extra.iter().all(|v| v.parse::<f64>().is_ok()) {
        extra.sort_by(|a, b| {
            let (a, b) = (a.parse::<f64>(), b.parse::<f64>());
            a.unwrap_or_default().total_cmp(&b.unwrap_or_default())
        });
    }
    categories.extend(extra.into_iter().map(str::to_owned));
    let mut seen: Vec<(&str, &str, &str)> = Vec::with_capacity(rows.len());
    let mut out = Vec::with_capacity(rows.len());
    for r in rows {
        let (Some(item), Some(system)) = (r.item.as_deref(), r.system.as_deref()) else {
            continue;
        };
        seen.push((r.annotator.as_str(), item, system));
        out.push(Labelled {
            item,
            system: (system, None),
            annotator: r.annotator.as_str(),
            category: categories
                .iter()
                .position(|c| *c == r.value)
                .unwrap_or_default(),
        });
    }
    seen.sort_unstable();
    let several = seen.windows(2).any(|w| w[0] == w[1]);
    (!several).then(|| Source {
        answer,
        name: name.to_owned(),
        categories,
        rows: out,
    })
}

/// Each pair's choice, from the first system's side (systems in name order).
fn choice(data: &Data) -> Option<Source<'_>> {
    let rows = data
        .preferences
        .iter()
        .filter(|p| !p.derived)
        .map(|p| {
            let (a, b) = (p.system_a.as_str(), p.system_b.as_str());
            let (first, second, outcome) = if a <= b {
                (a, b, p.outcome)
            } else {
                let flipped = match p.outcome {
                    Outcome::A => Outcome::B,
                    Outcome::B => Outcome::A,
                    Outcome::Tie => Outcome::Tie,
                };
                (b, a, flipped)
            };
            Labelled {
                item: p.item.as_str(),
                system: (first, Some(second)),
                annotator: p.annotator.as_str(),
                category: match outcome {
                    Outcome::A => 0,
                    Outcome::Tie => 1,
                    Outcome::B => 2,
                },
            }
        })
        .collect();
    Some(Source {
        answer: Rated::Choice,
        name: "preference".to_owned(),
        categories: CHOICE.iter().map(|c| (*c).to_owned()).collect(),
        rows,
    })
}

/// The fits of `models` on one source, if it has 2 to [`MAX_CATEGORIES`] categories used; the
/// categories no one gave are left out (as crowd-kit knows only the labels it sees).
fn fit(source: Source<'_>, models: Vec<RaterModel>) -> Option<RaterQuality> {
    let mut used = vec![false; source.categories.len()];
    for r in &source.rows {
        used[r.category] = true;
    }
    let keep: Vec<usize> = (0..used.len()).filter(|&c| used[c]).collect();
    let k = keep.len();
    if !(2..=MAX_CATEGORIES).contains(&k) {
        return None;
    }
    let categories: Vec<String> = keep.iter().map(|&c| source.categories[c].clone()).collect();
    let category = |c: usize| keep.iter().position(|&x| x == c).unwrap_or_default();
    // Indices in name order, so that the fit does not depend on the order read.
    let mut units: BTreeMap<(&str, (&str, Option<&str>)), usize> = BTreeMap::new();
    let mut annotators: BTreeMap<&str, usize> = BTreeMap::new();
    for r in &source.rows {
        units.insert((r.item, r.system), 0);
        annotators.insert(r.annotator, 0);
    }
    for (i, v) in units.values_mut().enumerate() {
        *v = i;
    }
    for (i, v) in annotators.values_mut().enumerate() {
        *v = i;
    }
    let answers: Vec<Answer> = source
        .rows
        .iter()
        .map(|r| Answer {
            unit: units[&(r.item, r.system)],
            rater: annotators[r.annotator],
            category: category(r.category),
        })
        .collect();
    let (n_units, n_raters) = (units.len(), annotators.len());
    let ds = models
        .contains(&RaterModel::DawidSkene)
        .then(|| dawid_skene(&answers, n_units, n_raters, k).ok())
        .flatten();
    let mc = models
        .contains(&RaterModel::Mace)
        .then(|| mace(&answers, n_units, n_raters, k, &MaceOptions::default()).ok())
        .flatten();
    let (posterior, consensus, prior, rounds, converged) = match (&ds, &mc) {
        (Some(d), _) => (
            &d.posterior,
            &d.consensus,
            d.prior.clone(),
            d.rounds,
            d.converged,
        ),
        (None, Some(m)) => (
            &m.posterior,
            &m.consensus,
            mean_rows(&m.posterior, k),
            m.iterations,
            m.converged,
        ),
        (None, None) => return None,
    };
    let majority = majority(&answers, n_units, k);
    let annotators = annotators
        .keys()
        .enumerate()
        .map(|(w, name)| {
            let mine = || answers.iter().filter(move |a| a.rater == w);
            let given = mine().count();
            let agree = mine().filter(|a| consensus[a.unit] == a.category).count();
            AnnotatorQuality {
                annotator: (*name).to_owned(),
                answers: given,
                accuracy: ds.as_ref().map(|d| d.accuracy[w]),
                competence: mc.as_ref().map(|m| m.competence[w]),
                agrees_with_consensus: agree as f64 / given as f64,
                confusion: ds.as_ref().map(|d| d.confusion[w].clone()),
            }
        })
        .collect();
    let name_of = |c: usize, (first, second): (&str, Option<&str>)| -> String {
        let label = categories[c].as_str();
        match second {
            Some(_) if label == CHOICE[0] => first.to_owned(),
            Some(second) if label == CHOICE[2] => second.to_owned(),
            _ => label.to_owned(),
        }
    };
    let changed: Vec<ConsensusChange> = units
        .keys()
        .enumerate()
        .filter(|&(u, _)| consensus[u] != majority[u])
        .map(|(u, (item, system))| ConsensusChange {
            item: (*item).to_owned(),
            system: match system.1 {
                Some(second) => format!("{} vs {second}", system.0),
                None => system.0.to_owned(),
            },
            majority: name_of(majority[u], *system),
            consensus: name_of(consensus[u], *system),
            posterior: posterior[u][consensus[u]],
        })
        .collect();
    Some(RaterQuality {
        answer: source.answer,
        name: source.name,
        models: models
            .into_iter()
            .filter(|m| match m {
                RaterModel::DawidSkene => ds.is_some(),
                RaterModel::Mace => mc.is_some(),
            })
            .collect(),
        units: n_units,
        answers: answers.len(),
        rounds,
        converged,
        prior,
        annotators,
        differs_from_majority: changed.len(),
        changes: changed.into_iter().take(CHANGES_LISTED).collect(),
        categories,
    })
}

/// Each unit's most frequent category, ties to the first.
fn majority(answers: &[Answer], units: usize, k: usize) -> Vec<usize> {
    let mut counts = vec![vec![0usize; k]; units];
    for a in answers {
        counts[a.unit][a.category] += 1;
    }
    counts
        .iter()
        .map(|c| {
            let mut best = 0;
            for (i, &n) in c.iter().enumerate() {
                if n > c[best] {
                    best = i;
                }
            }
            best
        })
        .collect()
}

fn mean_rows(rows: &[Vec<f64>], k: usize) -> Vec<f64> {
    let n = rows.len().max(1) as f64;
    (0..k)
        .map(|c| rows.iter().map(|r| r[c]).sum::<f64>() / n)
        .collect()
}

/// One annotator's quality over every fit: the means of their accuracy and of their
/// competence, each fit weighted by the annotator's answers in it.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct OverallQuality {
    pub accuracy: Option<f64>,
    pub competence: Option<f64>,
    /// Answers over the fits.
    pub answers: usize,
}

/// Each annotator's [`OverallQuality`] over `fits`, by name.
pub fn per_annotator(fits: &[RaterQuality]) -> BTreeMap<String, OverallQuality> {
    let mut sums: BTreeMap<&str, [f64; 5]> = BTreeMap::new();
    for a in fits.iter().flat_map(|f| &f.annotators) {
        let s = sums.entry(a.annotator.as_str()).or_default();
        let n = a.answers as f64;
        s[0] += n;
        if let Some(x) = a.accuracy {
            s[1] += n * x;
            s[2] += n;
        }
        if let Some(x) = a.competence {
            s[3] += n * x;
            s[4] += n;
        }
    }
    sums.into_iter()
        .map(|(name, s)| {
            let mean = |sum: f64, n: f64| (n > 0.0).then(|| sum / n);
            let quality = OverallQuality {
                accuracy: mean(s[1], s[2]),
                competence: mean(s[3], s[4]),
                answers: s[0] as usize,
            };
            (name.to_owned(), quality)
        })
        .collect()
}

/// Adds each participant's estimated rater quality to the payment list: the `raters` models
/// fitted on every nominal answer of `inputs` (as `juror analyze --raters` fits them), read
/// with the ids revealed so that the annotators are the participants of the rows.
pub fn estimate_for_payments(
    list: &mut Payments,
    inputs: &[Input<'_>],
    context: &Context,
    raters: RaterModels,
) {
    if raters.is_empty() {
        return;
    }
    let context = Context {
        reveal_ids: true,
        ..*context
    };
    let inputs: Vec<Input<'_>> = inputs
        .iter()
        .map(|i| Input::new(base_name(&i.name), i.text.as_ref()))
        .collect();
    let data = crate::analysis::read(&inputs, &context);
    let plan = AnalysisPlan {
        raters,
        ..AnalysisPlan::default()
    };
    let mut dimensions: Vec<String> = Vec::new();
    for r in &data.ratings {
        if !dimensions.iter().any(|d| *d == r.dimension) {
            dimensions.push(r.dimension.to_string());
        }
    }
    let fits = report(&data, &plan, &dimensions, context.study.map(|(s, _)| s));
    let quality = per_annotator(&fits);
    for row in &mut list.rows {
        if let Some(q) = quality.get(&row.participant) {
            row.accuracy = q.accuracy;
            row.competence = q.competence;
        }
    }
}
