//! The analysis plan: what the report compares, on which unit, with which tests and which
//! correction, as a study pre-registers it in its `analysis` section (or the default, which is
//! what Juror did before plans: every pair of systems on item means, two-sided Wilcoxon, Holm
//! and Bonferroni over the whole report).
//!
//! [`RawAnalysis`] is the section as written (serde, JSON Schema); [`AnalysisPlan::from_raw`]
//! checks it against the study's systems and dimensions and gives the plan the report follows.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::base::number::Num;

mod models;

pub use models::{AnalysisModel, AnalysisModels, BtIntervals, RaterModel, RaterModels, Ties};

/// The study file's `analysis` section: the pre-registered analysis plan.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawAnalysis {
    /// What one observation of a comparison is: `"item"` (each system's mean rating of an
    /// item, paired on the items both systems have) or `"annotator"` (each participant's mean
    /// over the items they rated, paired on participants; the unit when participants rate
    /// different items, as with personal items). Default `"item"`.
    #[serde(default)]
    pub unit: Unit,
    /// `"annotator"`: each annotator's scores on a dimension are turned into z-scores (minus
    /// their mean, over their sample SD) before item and system means, reported beside the
    /// raw means, and the comparisons are tested on them (a slider's direct assessment).
    /// Default `"none"`: raw scores.
    // Read as text and checked with the plan (a second enum deserialiser would weigh on the
    // annotator's page); the schema lists the two words.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Option<Standardise>")]
    pub standardise: Option<String>,
    /// Which pairs of systems are compared. Default `"all"`.
    #[serde(default)]
    pub comparisons: RawComparisons,
    /// The alternative hypothesis about A − B for every comparison without its own. Default
    /// `"two-sided"`.
    #[serde(default)]
    pub alternative: RawAlternative,
    /// The tests reported; the first gives the p-value that is corrected. Default
    /// `["wilcoxon", "t"]`.
    #[serde(default = "default_tests")]
    pub tests: Vec<Test>,
    /// How p-values are adjusted for multiple comparisons. Default `"holm"`.
    #[serde(default)]
    pub correction: Correction,
    /// Over which comparisons: `"dimension"` (each dimension's own) or `"plan"` (every
    /// comparison of the primary dimensions together; the exploratory ones together apart).
    /// Default `"plan"`.
    #[serde(default)]
    pub family: Family,
    /// The primary dimensions (ids); the others are reported as exploratory. Default: all.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub primary: Vec<String>,
    /// Directional or non-inferiority hypotheses about particular comparisons.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub hypotheses: Vec<RawHypothesis>,
    /// Named comparisons of groups of systems: per unit, the mean over group `a` minus the
    /// mean over group `b`, tested like a pair and corrected with the comparisons.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub contrasts: Vec<RawContrast>,
    /// Also report each dimension per item group (the items' `group`): the systems and the
    /// comparisons within each group, uncorrected (a breakdown, not more tests of the plan).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub by_group: bool,
    /// Also report each dimension per answer to this intake question (a choice question's id,
    /// e.g. `"role"`): the annotators who gave each answer, uncorrected (a breakdown).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub by_intake: Option<String>,
    /// `true`: the flagged cells (sample SD above the flagging threshold) that have no
    /// adjudicated score yet are set aside from the system summaries, the comparisons and the
    /// slopes, as an adjudication protocol may pre-register (`juror analyze
    /// --exclude-unadjudicated` without the flag; agreement keeps every rating). Default
    /// `false`.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub exclude_unadjudicated: bool,
    /// The dimensions (ids) whose disagreements are flagged for adjudication: a protocol's
    /// key criteria, e.g. not a sanity check. Default (empty): every dimension.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub adjudicate: Vec<String>,
    /// How automatic judges' verdicts are compared with the human ratings (`juror analyze
    /// --judges`; `docs/judges.md`), fixed before the data like the rest of the plan; the
    /// command's flags override it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub judges: Option<JudgeSettings>,
    /// Participant-level success criteria: each participant's mean score of a system on a
    /// dimension, averaged over participants, against a value (a one-sided one-sample test).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub thresholds: Vec<Threshold>,
    /// The weight of each severity in an output's MQM score (the sum of its errors' weights).
    /// Default: minor 1, major 5, critical 25.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mqm_weights: Option<MqmWeights>,
    /// Also report each system's output divergence across annotators: for the personal items
    /// that share a prompt, the mean cosine distance between the TF-IDF vectors of the system's
    /// outputs for different annotators (`docs/analysis.md`, "Output divergence").
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub divergence: bool,
    /// Models of rater quality to fit on every nominal answer read as categories (each rating
    /// dimension of up to 11 points, each single-choice or Likert output question, the flag, a
    /// pair's choice): `"dawid_skene"` gives each annotator's confusion matrix and accuracy and
    /// each unit's consensus, `"mace"` each annotator's competence (`docs/analysis.md`, "Rater
    /// quality").
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub raters: Vec<RaterModel>,
    /// Models of each rating dimension beside the paired tests: `"crossed"` (a linear mixed
    /// model with crossed random intercepts for annotators and items, by REML;
    /// `"crossed_ml"` by maximum likelihood) and `"ordinal"` (a proportional-odds model of
    /// the scores). `docs/analysis.md`, "Models of the ratings".
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub models: Vec<AnalysisModel>,
    /// The intervals of the Bradley–Terry ratings of the preferences: `"sandwich"` (the
    /// leaderboard's, as arena-rank computes them), `"bootstrap"` (the strengths' percentile
    /// intervals) or `"both"`. Default `"both"`.
    // Read as text and checked with the plan, as `standardise`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Option<BtIntervals>")]
    pub bt_intervals: Option<String>,
    /// How the leaderboard counts a tie: `"halves"` (half a win to each side, arena-rank's
    /// default) or `"davidson"` (Davidson's model, with a fitted tie parameter). Default
    /// `"halves"`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Option<Ties>")]
    pub ties: Option<String>,
    /// Scopes the confirmatory analysis to the items of one value of one item grouping, as
    /// the items write it: `{"groups": {"domain": "skills"}}` (a named grouping of
    /// `items[].groups`) or `{"group": "skills"}` (the items' `group`). The comparisons,
    /// hypotheses, thresholds and the corrected family use only those items; the grouping's
    /// other values are reported apart, each as a secondary analysis (exploratory, with its
    /// rounds, not corrected). Absent: every item.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub confirmatory: Option<RawConfirmatory>,
}

/// The items the confirmatory analysis is on: one value of one grouping, written as an item
/// writes it.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawConfirmatory {
    /// The items whose `group` is this.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group: Option<String>,
    /// The items whose named grouping has this value: one entry, `{"domain": "skills"}`.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub groups: BTreeMap<String, String>,
}

impl RawConfirmatory {
    /// The (grouping, value) written: `group` for the items' `group`; `None` unless exactly
    /// one is.
    pub fn scope(&self) -> Option<Scope> {
        let mut all = self
            .group
            .iter()
            .map(|v| (crate::study::GROUP.to_owned(), v.clone()))
            .chain(self.groups.iter().map(|(k, v)| (k.clone(), v.clone())));
        let (grouping, group) = all.next()?;
        all.next().is_none().then_some(Scope { grouping, group })
    }

    /// Where it is written: `confirmatory.group` or `confirmatory.groups.NAME`.
    fn at(&self) -> String {
        match self.groups.keys().next() {
            Some(name) if self.group.is_none() => format!("confirmatory.groups.{name}"),
            _ if self.group.is_some() && self.groups.is_empty() => "confirmatory.group".to_owned(),
            _ => "confirmatory".to_owned(),
        }
    }

    /// The problems of the scope against the study's items, each given as (its `group`, its
    /// named groupings): a grouping no item has, a value no item has.
    pub fn item_problems<'a>(
        &self,
        items: impl Iterator<Item = (Option<&'a str>, &'a BTreeMap<String, String>)> + Clone,
    ) -> Vec<PlanProblem> {
        // A blank value or a scope that is not one grouping has its own message.
        let Some(scope) = self.scope().filter(|s| !s.group.trim().is_empty()) else {
            return Vec::new();
        };
        let value_of = |(group, groups): (Option<&'a str>, &'a BTreeMap<String, String>)| {
            if scope.grouping == crate::study::GROUP {
                group
            } else {
                groups.get(&scope.grouping).map(String::as_str)
            }
        };
        let mut values: Vec<&str> = Vec::new();
        for v in items.clone().filter_map(value_of) {
            if !values.contains(&v) {
                values.push(v);
            }
        }
        if values.is_empty() {
            let mut names: Vec<&str> = Vec::new();
            for (group, groups) in items {
                if group.is_some() && !names.contains(&crate::study::GROUP) {
                    names.push(crate::study::GROUP);
                }
                for k in groups.keys() {
                    if !names.contains(&k.as_str()) {
                        names.push(k);
                    }
                }
            }
            let what = if scope.grouping == crate::study::GROUP {
                "no item has a `group`".to_owned()
            } else {
                format!("no item has the grouping \"{}\"", scope.grouping)
            };
            let fix = if names.is_empty() {
                format!(
                    "tag the items with their value, e.g. \"groups\": {{\"{}\": \"{}\"}}, or \
                     remove confirmatory",
                    scope.grouping, scope.group
                )
            } else {
                format!(
                    "use a grouping the items have ({}), or tag the items with \"{}\"",
                    names.join(", "),
                    scope.grouping
                )
            };
            return vec![(self.at(), what, fix)];
        }
        if !values.contains(&scope.group.as_str()) {
            return vec![(
                self.at(),
                format!("no item has {} \"{}\"", scope.grouping, scope.group),
                format!("use one of: {}", values.join(", ")),
            )];
        }
        Vec::new()
    }
}

/// The confirmatory analysis's items, checked: those whose `grouping` (`group` for the items'
/// `group`) is `group`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct Scope {
    pub grouping: String,
    pub group: String,
}

/// The weights of the severities of marked errors in the MQM score; each absent one takes its
/// default (minor 1, major 5, critical 25).
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MqmWeights {
    /// The weight of a minor error. Default 1.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub minor: Option<f64>,
    /// The weight of a major error. Default 5.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub major: Option<f64>,
    /// The weight of a critical error. Default 25.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub critical: Option<f64>,
}

impl MqmWeights {
    /// The weight of a severity: the one given, else its default.
    pub fn weight(&self, severity: super::Severity) -> f64 {
        use super::Severity::{Critical, Major, Minor};
        match severity {
            Minor => self.minor.unwrap_or(1.0),
            Major => self.major.unwrap_or(5.0),
            Critical => self.critical.unwrap_or(25.0),
        }
    }

    /// What is wrong with the weights given: one (field, value) per weight that is not a
    /// finite number of 0 or more.
    pub fn problems(&self) -> Vec<(&'static str, f64)> {
        [
            ("minor", self.minor),
            ("major", self.major),
            ("critical", self.critical),
        ]
        .into_iter()
        .filter_map(|(field, w)| {
            w.filter(|w| !(w.is_finite() && *w >= 0.0))
                .map(|w| (field, w))
        })
        .collect()
    }
}

/// A participant-level success criterion: the participants' mean score of `system` on
/// `dimension` is at least `at_least`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Threshold {
    pub dimension: String,
    pub system: String,
    /// The value on the dimension's scale the mean must reach.
    pub at_least: f64,
}

/// The settings of the comparison of automatic judges with the humans; each absent one takes
/// its default.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct JudgeSettings {
    /// The alternative annotator test's allowance ε, from 0 up to (not including) 1: 0.2 for
    /// expert annotators, 0.15 for skilled ones, 0.1 for crowd workers. Default 0.2.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub epsilon: Option<f64>,
    /// The false discovery rate of the Benjamini–Yekutieli correction over the humans, between
    /// 0 and 1. Default 0.05.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fdr: Option<f64>,
    /// The fewest humans an instance needs (2 or more). Default 2.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_humans: Option<usize>,
    /// The fewest instances a human needs to be tested (2 or more). Default 30.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_instances: Option<usize>,
}

impl JudgeSettings {
    /// These settings, each absent one taken from `fallback`.
    pub fn or(self, fallback: Option<&JudgeSettings>) -> JudgeSettings {
        let f = fallback.copied().unwrap_or_default();
        JudgeSettings {
            epsilon: self.epsilon.or(f.epsilon),
            fdr: self.fdr.or(f.fdr),
            min_humans: self.min_humans.or(f.min_humans),
            min_instances: self.min_instances.or(f.min_instances),
        }
    }

    /// What is wrong with the settings given: one (field, value, fix) per problem.
    pub fn problems(&self) -> Vec<(&'static str, String, &'static str)> {
        let mut out = Vec::new();
        if let Some(e) = self.epsilon
            && !(e.is_finite() && (0.0..1.0).contains(&e))
        {
            out.push((
                "epsilon",
                Num(e).to_string(),
                "give a number from 0 up to (not including) 1, such as 0.2 (expert annotators), \
                 0.15 (skilled) or 0.1 (crowd workers)",
            ));
        }
        if let Some(q) = self.fdr
            && !(q.is_finite() && q > 0.0 && q < 1.0)
        {
            out.push((
                "fdr",
                Num(q).to_string(),
                "give a false discovery rate between 0 and 1, such as 0.05",
            ));
        }
        if let Some(n) = self.min_humans
            && n < 2
        {
            out.push((
                "min_humans",
                n.to_string(),
                "the alternative annotator test leaves one human out and compares with the \
                 others, so an instance needs at least 2; 2 is the default",
            ));
        }
        if let Some(n) = self.min_instances
            && n < 2
        {
            out.push((
                "min_instances",
                n.to_string(),
                "a t-test needs at least 2 instances per human; 30 is the default",
            ));
        }
        out
    }
}

/// A contrast of two groups of systems.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawContrast {
    /// Its name in the report ("H1: with coherence vs base").
    pub name: String,
    /// The dimension it is about; absent: every dimension.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dimension: Option<String>,
    /// Group A: the systems whose mean is taken.
    pub a: Vec<String>,
    /// Group B.
    pub b: Vec<String>,
    /// The alternative about A − B. Default: the plan's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub alternative: Option<RawAlternative>,
}

/// A contrast, checked.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct Contrast {
    pub name: String,
    pub dimension: Option<String>,
    pub a: Vec<String>,
    pub b: Vec<String>,
    pub alternative: Alternative,
}

fn default_tests() -> Vec<Test> {
    vec![Test::Wilcoxon, Test::T]
}

/// The unit of analysis.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Unit {
    /// Per-item means of each system.
    #[default]
    Item,
    /// Per-annotator means of each system.
    Annotator,
}

/// Whether scores are standardised before they are compared.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Standardise {
    /// Raw scores.
    #[default]
    None,
    /// Per-annotator z-scores on each dimension (sample SD).
    Annotator,
}

impl Standardise {
    /// True for the default, `"none"`.
    pub fn is_none(&self) -> bool {
        *self == Standardise::None
    }
}

/// `"all"`, `{"anchor": SYSTEM}` or `{"pairs": [[A, B], ...]}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum RawComparisons {
    /// `"all"`: every pair of systems (A before B in byte order).
    Every(All),
    /// The anchor against each other system (the anchor is A).
    Anchor {
        /// The anchor system.
        anchor: String,
    },
    /// These pairs, A against B.
    Pairs {
        /// `[A, B]` pairs of system ids.
        pairs: Vec<[String; 2]>,
    },
}

impl Default for RawComparisons {
    fn default() -> Self {
        RawComparisons::Every(All::All)
    }
}

/// The word `"all"`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum All {
    /// Every pair.
    All,
}

/// An alternative as written.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum RawAlternative {
    /// A ≠ B.
    #[default]
    TwoSided,
    /// A > B.
    Greater,
    /// A < B.
    Less,
}

/// The alternative hypothesis of a paired test, about the differences a − b (scipy's
/// `alternative`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Alternative {
    /// The differences are not centred on the null value.
    #[default]
    TwoSided,
    /// They are centred above it (a > b).
    Greater,
    /// They are centred below it (a < b).
    Less,
}

impl Alternative {
    /// The relation of A to B it asserts: `≠`, `>` or `<`.
    pub fn relation(self) -> &'static str {
        match self {
            Alternative::TwoSided => "≠",
            Alternative::Greater => ">",
            Alternative::Less => "<",
        }
    }
}

impl From<RawAlternative> for Alternative {
    fn from(a: RawAlternative) -> Alternative {
        match a {
            RawAlternative::TwoSided => Alternative::TwoSided,
            RawAlternative::Greater => Alternative::Greater,
            RawAlternative::Less => Alternative::Less,
        }
    }
}

/// A paired test.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Test {
    /// The Wilcoxon signed-rank test (scipy's conventions).
    Wilcoxon,
    /// The paired t-test.
    T,
}

/// A correction for multiple comparisons.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Correction {
    /// Holm's step-down method.
    #[default]
    Holm,
    /// Bonferroni's.
    Bonferroni,
    /// None.
    None,
}

/// The family a correction runs over.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Family {
    /// Each dimension's comparisons.
    Dimension,
    /// Every comparison of the primary dimensions (and, apart, of the exploratory ones).
    #[default]
    Plan,
}

/// A hypothesis about some comparisons: its alternative, and a non-inferiority margin; or,
/// with `kind`, about slopes over rounds, about preferences or about output divergence.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawHypothesis {
    /// A name to report it under ("H2").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// What is compared: `"difference"` (the systems' ratings, as the comparisons; the
    /// default), `"slope"` (the slopes of the ratings over rounds: A's slope against each B's
    /// in the mixed model, or with no `b` A's own slope against 0 in a linear regression),
    /// `"preference"` (A's share of the pairwise preferences against B, binomial test over the
    /// plan's unit) or `"divergence"` (A's output divergence across annotators against B's,
    /// paired over the prompts; it asks for the divergence, and orients and sets the
    /// alternative of that comparison of the divergences).
    #[serde(default, skip_serializing_if = "HypothesisKind::is_difference")]
    pub kind: HypothesisKind,
    /// The dimension it is about; absent: every dimension.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dimension: Option<String>,
    /// System A.
    pub a: String,
    /// System B, or several (one comparison each). Only a `"slope"` hypothesis may leave it
    /// out (A's own slope is tested against 0).
    #[serde(default = "OneOrMany::none")]
    pub b: OneOrMany,
    /// The alternative about A − B. Default: the plan's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub alternative: Option<RawAlternative>,
    /// Non-inferiority: A is no worse than B by more than this (on the rating scale); the
    /// report adds the tests of A − B > −margin.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub margin: Option<f64>,
    /// A `"slope"` or `"preference"` hypothesis: whether its p-values join the plan's corrected
    /// family (`true`, the default) or stand as their own pre-registered question
    /// (`false`: reported uncorrected, and the family keeps only the comparisons).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub corrected: Option<bool>,
}

/// A system id or a list of them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum OneOrMany {
    /// One.
    One(String),
    /// Several.
    Many(Vec<String>),
}

/// What a hypothesis compares.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum HypothesisKind {
    /// The systems' ratings (a comparison of the plan).
    #[default]
    Difference,
    /// The slopes of the ratings over rounds.
    Slope,
    /// The pairwise preferences.
    Preference,
    /// The output divergence across annotators (per prompt, from the study's texts).
    Divergence,
}

impl HypothesisKind {
    /// Whether this is the default kind.
    pub fn is_difference(&self) -> bool {
        *self == HypothesisKind::Difference
    }
}

/// A hypothesis about slopes or preferences, checked: one per B (or one with no B, a slope).
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct PlannedTest {
    pub name: Option<String>,
    pub kind: HypothesisKind,
    /// The dimension (slopes); absent: every dimension with rounds.
    pub dimension: Option<String>,
    pub a: String,
    /// Absent: A's own slope against 0.
    pub b: Option<String>,
    pub alternative: Alternative,
    /// In the plan's corrected family.
    pub corrected: bool,
}

impl OneOrMany {
    fn none() -> OneOrMany {
        OneOrMany::Many(Vec::new())
    }

    fn all(&self) -> Vec<&str> {
        match self {
            OneOrMany::One(s) => vec![s.as_str()],
            OneOrMany::Many(v) => v.iter().map(String::as_str).collect(),
        }
    }
}

/// Which comparisons, checked.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Comparisons {
    /// Every pair.
    All,
    /// The anchor against each other system.
    Anchor(String),
    /// These (A, B) pairs.
    Pairs(Vec<(String, String)>),
}

/// A hypothesis, checked: (dimension or every, A, B) with its alternative and margin.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct Hypothesis {
    pub name: Option<String>,
    pub dimension: Option<String>,
    pub a: String,
    pub b: String,
    pub alternative: Alternative,
    pub margin: Option<f64>,
}

/// The analysis plan the report follows.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct AnalysisPlan {
    pub unit: Unit,
    /// Per-annotator z-scores before means and tests.
    #[serde(skip_serializing_if = "Standardise::is_none")]
    pub standardise: Standardise,
    pub comparisons: Comparisons,
    pub alternative: Alternative,
    pub tests: Vec<Test>,
    pub correction: Correction,
    pub family: Family,
    /// Empty: every dimension is primary.
    pub primary: Vec<String>,
    pub hypotheses: Vec<Hypothesis>,
    /// The hypotheses about slopes over rounds and about preferences.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub planned: Vec<PlannedTest>,
    pub contrasts: Vec<Contrast>,
    /// Also report each dimension per item group.
    pub by_group: bool,
    /// Also report each dimension per answer to this intake question.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub by_intake: Option<String>,
    /// Set aside the flagged cells not yet adjudicated, as the study pre-registers.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub exclude_unadjudicated: bool,
    /// The dimensions whose disagreements are flagged; empty: every dimension.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub adjudicate: Vec<String>,
    /// A non-inferiority margin for every comparison without a hypothesis of its own (set at
    /// analysis time: `--margin`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub margin: Option<f64>,
    /// Also give each comparison's anytime-valid 95% confidence sequence, tuned to this planned
    /// number of units (set at analysis time: `--sequential`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sequential: Option<u32>,
    /// How judges are compared with the humans, as the study fixes it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub judges: Option<JudgeSettings>,
    /// Participant-level success criteria.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub thresholds: Vec<Threshold>,
    /// The weights of the MQM score, when the study sets any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mqm_weights: Option<MqmWeights>,
    /// Also report the systems' output divergence across annotators.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub divergence: bool,
    /// The models of rater quality to fit.
    #[serde(skip_serializing_if = "RaterModels::is_empty")]
    #[schemars(with = "Vec<RaterModel>")]
    pub raters: RaterModels,
    /// The models of each dimension to fit.
    #[serde(skip_serializing_if = "AnalysisModels::is_empty")]
    #[schemars(with = "Vec<AnalysisModel>")]
    pub models: AnalysisModels,
    /// The intervals of the Bradley–Terry ratings.
    #[serde(skip_serializing_if = "models::is_default")]
    pub bt_intervals: BtIntervals,
    /// How the leaderboard counts a tie.
    #[serde(skip_serializing_if = "models::is_default")]
    pub ties: Ties,
    /// The items the confirmatory analysis is on; absent: every item.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub confirmatory: Option<Scope>,
}

impl Default for AnalysisPlan {
    /// Every pair on item means, Wilcoxon then t, Holm over the whole report, all primary.
    fn default() -> Self {
        AnalysisPlan {
            unit: Unit::Item,
            standardise: Standardise::None,
            comparisons: Comparisons::All,
            alternative: Alternative::TwoSided,
            tests: default_tests(),
            correction: Correction::Holm,
            family: Family::Plan,
            primary: Vec::new(),
            hypotheses: Vec::new(),
            planned: Vec::new(),
            contrasts: Vec::new(),
            by_group: false,
            by_intake: None,
            exclude_unadjudicated: false,
            adjudicate: Vec::new(),
            margin: None,
            sequential: None,
            judges: None,
            thresholds: Vec::new(),
            mqm_weights: None,
            divergence: false,
            raters: RaterModels::default(),
            models: AnalysisModels::default(),
            bt_intervals: BtIntervals::Both,
            ties: Ties::Halves,
            confirmatory: None,
        }
    }
}

/// A problem of an `analysis` section: where (a path inside it) and what, and the fix.
pub type PlanProblem = (String, String, String);

impl AnalysisPlan {
    /// Checks `raw` against the study's `systems` and `dimensions`; every problem is returned
    /// with its path below `analysis` and a fix.
    pub(crate) fn from_raw(
        raw: &RawAnalysis,
        systems: &[String],
        dimensions: &[String],
    ) -> Result<AnalysisPlan, Vec<PlanProblem>> {
        let mut problems = Vec::new();
        let mut system = |at: String, id: &str| {
            if !systems.iter().any(|s| s == id) {
                problems.push((
                    at,
                    format!("unknown system \"{id}\""),
                    format!("use one of: {}", systems.join(", ")),
                ));
            }
        };
        let comparisons = match &raw.comparisons {
            RawComparisons::Every(_) => Comparisons::All,
            RawComparisons::Anchor { anchor } => {
                system("comparisons.anchor".to_owned(), anchor);
                Comparisons::Anchor(anchor.clone())
            }
            RawComparisons::Pairs { pairs } => {
                for (i, [a, b]) in pairs.iter().enumerate() {
                    system(format!("comparisons.pairs[{i}][0]"), a);
                    system(format!("comparisons.pairs[{i}][1]"), b);
                }
                Comparisons::Pairs(pairs.iter().map(|[a, b]| (a.clone(), b.clone())).collect())
            }
        };
        let mut hypotheses = Vec::new();
        let mut planned = Vec::new();
        for (i, h) in raw.hypotheses.iter().enumerate() {
            system(format!("hypotheses[{i}].a"), &h.a);
            let alternative: Alternative = h.alternative.unwrap_or(raw.alternative).into();
            if h.kind != HypothesisKind::Difference {
                let bs = h.b.all();
                for (j, b) in bs.iter().enumerate() {
                    system(format!("hypotheses[{i}].b[{j}]"), b);
                }
                let bs: Vec<Option<String>> = if bs.is_empty() {
                    vec![None]
                } else {
                    bs.into_iter().map(|b| Some(b.to_owned())).collect()
                };
                planned.extend(bs.into_iter().map(|b| PlannedTest {
                    name: h.name.clone(),
                    kind: h.kind,
                    dimension: h.dimension.clone(),
                    a: h.a.clone(),
                    b,
                    alternative,
                    // Divergence comparisons are corrected among themselves, not in the family.
                    corrected: h.kind != HypothesisKind::Divergence && h.corrected.unwrap_or(true),
                }));
                continue;
            }
            for (j, b) in h.b.all().into_iter().enumerate() {
                system(format!("hypotheses[{i}].b[{j}]"), b);
                hypotheses.push(Hypothesis {
                    name: h.name.clone(),
                    dimension: h.dimension.clone(),
                    a: h.a.clone(),
                    b: b.to_owned(),
                    alternative: h.alternative.unwrap_or(raw.alternative).into(),
                    margin: h.margin,
                });
            }
        }
        let mut contrasts = Vec::new();
        for (i, c) in raw.contrasts.iter().enumerate() {
            for (j, s) in c.a.iter().enumerate() {
                system(format!("contrasts[{i}].a[{j}]"), s);
            }
            for (j, s) in c.b.iter().enumerate() {
                system(format!("contrasts[{i}].b[{j}]"), s);
            }
            contrasts.push(Contrast {
                name: c.name.clone(),
                dimension: c.dimension.clone(),
                a: c.a.clone(),
                b: c.b.clone(),
                alternative: c.alternative.unwrap_or(raw.alternative).into(),
            });
        }
        for (i, t) in raw.thresholds.iter().enumerate() {
            system(format!("thresholds[{i}].system"), &t.system);
        }
        let standardise = match raw.standardise.as_deref() {
            None | Some("none") => Standardise::None,
            Some("annotator") => Standardise::Annotator,
            Some(other) => {
                problems.push((
                    "standardise".to_owned(),
                    format!("unknown standardisation \"{other}\""),
                    "use \"annotator\" (z-scores per annotator) or \"none\"".to_owned(),
                ));
                Standardise::None
            }
        };
        let (bt_intervals, ties) = models::rankings(
            raw.bt_intervals.as_deref(),
            raw.ties.as_deref(),
            &mut problems,
        );
        problems.extend(meaning_problems(raw, dimensions));
        if !problems.is_empty() {
            return Err(problems);
        }
        Ok(AnalysisPlan {
            unit: raw.unit,
            standardise,
            comparisons,
            alternative: raw.alternative.into(),
            tests: raw.tests.clone(),
            correction: raw.correction,
            family: raw.family,
            primary: raw.primary.clone(),
            hypotheses,
            planned,
            contrasts,
            by_group: raw.by_group,
            by_intake: raw.by_intake.clone(),
            exclude_unadjudicated: raw.exclude_unadjudicated,
            adjudicate: raw.adjudicate.clone(),
            margin: None,
            sequential: None,
            judges: raw.judges,
            thresholds: raw.thresholds.clone(),
            mqm_weights: raw.mqm_weights,
            divergence: raw.divergence,
            raters: RaterModels::of(&raw.raters),
            models: AnalysisModels::of(&raw.models),
            bt_intervals,
            ties,
            confirmatory: raw.confirmatory.as_ref().and_then(RawConfirmatory::scope),
        })
    }

    /// The (A, B) pairs to compare among `systems` (those with ratings on the dimension, in
    /// byte order).
    pub fn pairs(&self, systems: &[&str]) -> Vec<(String, String)> {
        let has = |s: &str| systems.contains(&s);
        match &self.comparisons {
            Comparisons::All => systems
                .iter()
                .enumerate()
                .flat_map(|(i, a)| {
                    systems[i + 1..]
                        .iter()
                        .map(move |b| ((*a).to_owned(), (*b).to_owned()))
                })
                .collect(),
            Comparisons::Anchor(anchor) => systems
                .iter()
                .filter(|s| **s != anchor && has(anchor))
                .map(|s| (anchor.clone(), (*s).to_owned()))
                .collect(),
            Comparisons::Pairs(pairs) => pairs
                .iter()
                .filter(|(a, b)| has(a) && has(b))
                .cloned()
                .collect(),
        }
    }

    /// The hypothesis about (dimension, A, B), if any.
    pub fn hypothesis(&self, dimension: &str, a: &str, b: &str) -> Option<&Hypothesis> {
        self.hypotheses
            .iter()
            .find(|h| h.a == a && h.b == b && h.dimension.as_deref().is_none_or(|d| d == dimension))
    }

    /// Whether `dimension` is primary.
    pub fn is_primary(&self, dimension: &str) -> bool {
        self.primary.is_empty() || self.primary.iter().any(|d| d == dimension)
    }

    /// Whether `dimension`'s disagreements are flagged for adjudication.
    pub fn flags(&self, dimension: &str) -> bool {
        self.adjudicate.is_empty() || self.adjudicate.iter().any(|d| d == dimension)
    }

    /// Whether the report computes the output divergence: `divergence` is set, or a
    /// hypothesis is about divergence.
    pub fn wants_divergence(&self) -> bool {
        self.divergence || self.divergence_hypotheses().next().is_some()
    }

    /// The hypotheses about output divergence (`"kind": "divergence"`), one per B.
    pub fn divergence_hypotheses(&self) -> impl Iterator<Item = &PlannedTest> {
        self.planned
            .iter()
            .filter(|t| t.kind == HypothesisKind::Divergence)
    }
}

fn kind_name(kind: HypothesisKind) -> &'static str {
    match kind {
        HypothesisKind::Difference => "difference",
        HypothesisKind::Slope => "slope",
        HypothesisKind::Preference => "preference",
        HypothesisKind::Divergence => "divergence",
    }
}

/// The problems of `raw` besides unknown systems: unknown dimensions, margins that are not
/// positive, a system compared with itself, empty or overlapping groups, no test.
fn meaning_problems(raw: &RawAnalysis, dimensions: &[String]) -> Vec<PlanProblem> {
    let mut problems = Vec::new();
    for (i, t) in raw.thresholds.iter().enumerate() {
        if !dimensions.contains(&t.dimension) {
            problems.push((
                format!("thresholds[{i}].dimension"),
                format!("unknown dimension \"{}\"", t.dimension),
                format!("use one of: {}", dimensions.join(", ")),
            ));
        }
        if !t.at_least.is_finite() {
            problems.push((
                format!("thresholds[{i}].at_least"),
                "not a number".to_owned(),
                "give a value on the dimension's scale, such as 4".to_owned(),
            ));
        }
    }
    for (field, value) in raw.mqm_weights.map(|w| w.problems()).unwrap_or_default() {
        problems.push((
            format!("mqm_weights.{field}"),
            format!("{} is not a weight", Num(value)),
            "give a number of 0 or more, such as 1 (minor), 5 (major) or 25 (critical)".to_owned(),
        ));
    }
    for (field, value, fix) in raw.judges.map(|j| j.problems()).unwrap_or_default() {
        problems.push((
            format!("judges.{field}"),
            format!("{value} is out of range"),
            fix.to_owned(),
        ));
    }
    hypotheses_problems(&raw.hypotheses, dimensions, &mut problems);
    for (i, c) in raw.contrasts.iter().enumerate() {
        if c.a.is_empty() || c.b.is_empty() {
            problems.push((
                format!("contrasts[{i}]"),
                "a group is empty".to_owned(),
                "list at least one system in a and in b".to_owned(),
            ));
        }
        if let Some(s) = c.a.iter().find(|s| c.b.contains(s)) {
            problems.push((
                format!("contrasts[{i}].b"),
                format!("\"{s}\" is in both groups"),
                "put each system in one group".to_owned(),
            ));
        }
        if let Some(d) = &c.dimension
            && !dimensions.contains(d)
        {
            problems.push((
                format!("contrasts[{i}].dimension"),
                format!("unknown dimension \"{d}\""),
                format!("use one of: {}", dimensions.join(", ")),
            ));
        }
    }
    let named = [("primary", &raw.primary), ("adjudicate", &raw.adjudicate)];
    for (field, ids) in named {
        for (i, d) in ids
            .iter()
            .enumerate()
            .filter(|(_, d)| !dimensions.contains(d))
        {
            problems.push((
                format!("{field}[{i}]"),
                format!("unknown dimension \"{d}\""),
                format!("use one of: {}", dimensions.join(", ")),
            ));
        }
    }
    if let Some(c) = &raw.confirmatory {
        match c.scope() {
            None => problems.push((
                "confirmatory".to_owned(),
                if c.group.is_none() && c.groups.is_empty() {
                    "no grouping named".to_owned()
                } else {
                    "more than one grouping named".to_owned()
                },
                "name one value of one grouping, as the items write it: \"groups\": \
                 {\"domain\": \"skills\"} (or \"group\": \"skills\" for the items' group)"
                    .to_owned(),
            )),
            Some(scope) if scope.group.trim().is_empty() => problems.push((
                c.at(),
                "a blank value".to_owned(),
                "give the value whose items are confirmatory, e.g. \"skills\"".to_owned(),
            )),
            Some(_) => {}
        }
    }
    if raw.tests.is_empty() {
        problems.push((
            "tests".to_owned(),
            "no test".to_owned(),
            "list \"wilcoxon\", \"t\" or both".to_owned(),
        ));
    }
    if let RawComparisons::Pairs { pairs } = &raw.comparisons {
        for (i, [a, b]) in pairs.iter().enumerate() {
            if a == b {
                problems.push((
                    format!("comparisons.pairs[{i}]"),
                    format!("\"{a}\" is compared with itself"),
                    "name two different systems".to_owned(),
                ));
            }
        }
    }
    problems
}

/// The hypotheses' problems, each placed at `hypotheses[i]`: known dimensions, a margin only
/// on a difference, a system B but for a slope, no system compared with itself.
fn hypotheses_problems(
    hypotheses: &[RawHypothesis],
    dimensions: &[String],
    problems: &mut Vec<PlanProblem>,
) {
    for (i, h) in hypotheses.iter().enumerate() {
        if let Some(d) = &h.dimension
            && !dimensions.contains(d)
        {
            problems.push((
                format!("hypotheses[{i}].dimension"),
                format!("unknown dimension \"{d}\""),
                format!("use one of: {}", dimensions.join(", ")),
            ));
        }
        if let Some(m) = h.margin
            && !(m.is_finite() && m > 0.0)
        {
            problems.push((
                format!("hypotheses[{i}].margin"),
                format!("{} is not a margin", Num(m)),
                "give a positive number on the rating scale, such as 0.5".to_owned(),
            ));
        }
        if h.b.all().is_empty() && h.kind != HypothesisKind::Slope {
            problems.push((
                format!("hypotheses[{i}].b"),
                "no system B".to_owned(),
                "name the system (or list the systems) A is compared with; only a \"slope\" \
                 hypothesis may leave b out, to test A's own slope against 0"
                    .to_owned(),
            ));
        }
        if h.kind != HypothesisKind::Difference && h.margin.is_some() {
            problems.push((
                format!("hypotheses[{i}].margin"),
                format!("a margin on a \"{}\" hypothesis", kind_name(h.kind)),
                "remove the margin: a non-inferiority margin is for differences of ratings"
                    .to_owned(),
            ));
        }
        // A comparison of divergences is corrected with its own, as a rating comparison is.
        if matches!(
            h.kind,
            HypothesisKind::Difference | HypothesisKind::Divergence
        ) && h.corrected.is_some()
        {
            problems.push((
                format!("hypotheses[{i}].corrected"),
                "\"corrected\" on a comparison".to_owned(),
                "remove it: the plan's comparisons are always corrected (its `correction` says \
                 how); only a \"slope\" or \"preference\" hypothesis may stand apart"
                    .to_owned(),
            ));
        }
        if matches!(
            h.kind,
            HypothesisKind::Preference | HypothesisKind::Divergence
        ) && h.dimension.is_some()
        {
            problems.push((
                format!("hypotheses[{i}].dimension"),
                format!("a {} hypothesis has no dimension", kind_name(h.kind)),
                "remove the dimension: preferences are the pairs tasks' choices, divergence is the outputs' texts"
                    .to_owned(),
            ));
        }
        if h.b.all().contains(&h.a.as_str()) {
            problems.push((
                format!("hypotheses[{i}].b"),
                format!("\"{}\" is compared with itself", h.a),
                "name another system as b".to_owned(),
            ));
        }
    }
}
