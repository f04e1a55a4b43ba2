//! Statistics for the analysis of ratings: agreement, paired comparisons, preferences, tests on
//! categories and ranks.
//!
//! Every statistic documents its formula, its conventions (ties, zeros, ddof, weights) and the
//! reference it is tested against, with the tolerance (1e-9 for closed forms, 1e-6 for
//! iterative fits). Reference values are committed beside their scripts in
//! `crates/juror-core/tests/reference/`, with the library versions that produced them.
//!
//! The modules, bottom up: [`math`] (portable `exp`/`ln`/`pow`), [`special`] (the distribution
//! functions), [`describe`] (mean, SD, median, ranks, quantiles and the [`describe::Interval`]
//! type); on those, [`paired`] (Wilcoxon, the t-test, Holm and Bonferroni, effect sizes, the
//! one-sample summary and bootstrap), [`trend`] (slope and Spearman over rounds), [`preference`]
//! (win rates, binomial tests, Bradley–Terry; its `sandwich`: arena-scale ratings with sandwich
//! intervals and rank sets; its `davidson`: the same with ties as Davidson models them), [`nominal`] (tests on counts and ranks),
//! [`agreement`] (kappas and Krippendorff's alpha), [`spans`] (error spans: character-level F1
//! and alpha between annotators, the MQM score), [`mixed`] (linear mixed models: one random intercept, or
//! annotators and items crossed), [`ordinal`]
//! (the proportional odds model of ratings on a scale), [`divergence`] (TF-IDF as scikit-learn
//! makes it, cosine distances between texts, the mean of groups with its interval),
//! [`raters`] (rater quality: Dawid–Skene, MACE), [`sequential`] (anytime-valid confidence sequences: normal mixture for means, betting for shares), [`power`] (the power of the paired tests; its `preference`:
//! sizing of preference designs and of a judge beside humans) and
//! [`judges`] (an automatic judge beside the
//! humans: the alternative annotator test, Benjamini–Yekutieli, Kendall's tau-b, PPI++).

pub mod agreement;
pub mod best_worst;
pub mod describe;
pub mod divergence;
pub mod judges;
pub mod math;
pub mod mixed;
pub mod nominal;
pub mod ordinal;
pub mod paired;
pub mod power;
pub mod preference;
pub mod raters;
pub mod sequential;
pub mod spans;
pub mod special;
pub mod trend;
