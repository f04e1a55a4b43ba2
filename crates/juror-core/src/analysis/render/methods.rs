//! The methods paragraph of the report: every convention its numbers depend on, the analysis
//! plan in words among them.

use crate::analysis::data::number;
use crate::analysis::overrides::Alternative;
use crate::analysis::overrides::{
    AnalysisPlan, Comparisons, Correction, Family, Standardise, Test, Unit,
};
use crate::analysis::report::Report;
use crate::base::pseudonym;
use crate::study::analysis_plan::HypothesisKind;

/// The methods paragraph: every convention the numbers above depend on.
pub fn methods(report: &Report) -> String {
    let s = &report.settings;
    let mut parts: Vec<String> = Vec::new();
    if !report.dimensions.is_empty() {
        parts.push(ratings_paragraph(report));
    }
    if let Some(scope) = &report.scope {
        parts.push(scope_in_words(scope));
    }
    parts.extend(derived_data(report));
    if let Some(ids) = s.platform_ids {
        parts.push(format!(
            "Participants recruited on a platform (Prolific, MTurk, SONA) are identified by \
             their platform id {}.",
            if ids == pseudonym::SHOWN {
                "as the platform gave it"
            } else if ids == pseudonym::KEYED {
                "under a pseudonym (the first 12 hex digits of a SHA-256 keyed with a secret the \
                 study's key holds)"
            } else {
                "under a pseudonym (the first 12 hex digits of a SHA-256 of the id salted with a \
                 digest of the ratings files analysed, so valid for this report only)"
            }
        ));
    }
    if report
        .choices
        .as_ref()
        .is_some_and(|c| c.best_worst.is_some())
    {
        parts.push(format!(
            "Best–worst judgements were scored per system by counting, (best − worst) / shown, \
             with 95% percentile bootstrap intervals resampling items ({resamples} resamples, \
             seed {seed}), and by the maxdiff model, P(best = i, worst = j | tuple) ∝ \
             exp(uᵢ − uⱼ), fitted by maximum likelihood (Newton's method), utilities centred on \
             mean 0 with Wald 95% intervals from the observed information. Split-half \
             reliability is the mean Spearman correlation of the counting scores of {splits} \
             seeded random halves of the judgements, Spearman–Brown corrected.",
            resamples = s.resamples,
            seed = s.seed,
            splits = crate::analysis::choices::SPLITS,
        ));
    }
    if report.preferences.is_some() {
        parts.push(format!(
            "Pairwise preferences were counted per pair of systems in either position shown. \
             From Juror ratings files, a choice counts as a win of the chosen output over the \
             other, a best choice as a win of the best output over each other output shown, a \
             ranking as a win of each output over every output ranked below it, and a tie as a \
             tie. A win rate is wins / (wins + losses), ties excluded, with Wilson and \
             Clopper–Pearson 95% intervals and the exact two-sided binomial test of ½. \
             Bradley–Terry strengths were fitted by Hunter's (2004) MM algorithm with a tie \
             counting as half a win for each side and no pseudo-count, normalised to sum to 1, \
             with 95% percentile bootstrap intervals resampling judgements ({resamples} \
             resamples, seed {seed}). The leaderboard's ratings are the same model on \
             LMArena's scale (400/ln 10 per logit, mean 1000) fitted by Newton's method, with \
             sandwich (HC0) 95% intervals as arena-rank computes them (Hessian ridge 1e-5 per \
             judgement), with at least 10 annotators the same clustered by annotator (CR0), and rank \
             intervals from Bonferroni-simultaneous intervals of every difference. Agreement on preferences treats each (item, pair of \
             systems) as a unit and its label (tie, first system preferred, second preferred; \
             systems in byte order) as nominal: Fleiss' κ, Krippendorff's α and unweighted \
             Cohen's κ for every pair of annotators.",
            resamples = s.resamples,
            seed = s.seed,
        ));
    }
    if report.graded.is_some() {
        parts.push(super::tables::graded_method());
    }
    if !report.raters.is_empty() {
        parts.push(super::tables::raters_method(&report.raters));
    }
    if let Some(m) = report.crossed.first() {
        parts.push(super::tables::crossed_method(m.method));
    }
    if !report.ordinal.is_empty() {
        parts.push(super::tables::ordinal_method());
    }
    if !report.cannot_judge.is_empty() {
        parts.push(
            "Answers of \"Cannot judge\" were counted per question and system and left out of \
             every mean, test, agreement and win rate."
                .to_owned(),
        );
    }
    let sequences = report
        .dimensions
        .iter()
        .flat_map(|d| &d.comparisons)
        .any(|c| c.anytime_ci95.is_some());
    if sequences {
        parts.push(format!(
            "Each comparison also has an anytime-valid 95% confidence sequence of the mean \
             difference (Waudby-Smith et al. 2021, the asymptotic normal-mixture sequence of \
             Howard et al. 2021, tuned to {} units): unlike the t interval, it stays valid however \
             often the files are analysed as they arrive, so a study may stop once it excludes 0.",
            report.settings.plan.sequential.unwrap_or_default()
        ));
    }
    let shares = report
        .preferences
        .iter()
        .flat_map(|p| &p.pairs)
        .any(|c| c.anytime_ci95.is_some());
    if shares {
        parts.push(
            "Each pair's win rate also has an anytime-valid 95% confidence sequence, from the \
             judgements in the order read (ties left out): the hedged-capital betting sequence of \
             Waudby-Smith and Ramdas (2024), valid at every number of judgements, not only \
             asymptotically."
                .to_owned(),
        );
    }
    if report.dimensions.iter().any(|d| d.rounds.is_some()) {
        parts.push(
            "Change over rounds was estimated on the raw ratings that have a round (one point per \
             rating): per system, the least-squares slope of the rating on the round with its \
             standard error and two-sided t test (n − 2 degrees of freedom), and Spearman's ρ \
             with its t-approximation p-value (as scipy's linregress and spearmanr); and a \
             linear mixed model, rating ~ system + round + system:round + (1 | annotator), with \
             treatment coding against the reference system named, fitted by REML (profiled \
             likelihood maximised over the variance ratio; model-based standard errors of the \
             fixed effects, Wald z tests), as statsmodels' MixedLM and R's lme4."
                .to_owned(),
        );
    }
    if let Some(paragraph) = judges_paragraph(report) {
        parts.push(paragraph);
    }
    parts.push(
        "Only finished trials (done) of ratings files are used, attention-check items are left \
         out of the analysis (their results are listed per annotator), and a second rating of \
         the same (item, system, annotator, dimension), or a second judgement of the same (item, \
         pair, annotator), is left out and reported; the exception is an output an annotator \
         rated again in a later trial of the same session (shown in several pairs), whose first \
         rating is used (given before the repetition could anchor it) and whose repeats are \
         compared with it in the diagnostics. The diagnostics (mean score by position shown, the \
         first-shown output's win rate with its Wilson interval and binomial test, active time \
         per trial, with a warning for a median under 2 s or under a third of the median \
         annotator's, straight-lining, attention checks, consistency of repeated ratings) are \
         reported for the reader to judge; no annotator or rating was excluded on their basis."
            .to_owned(),
    );
    parts.join(" ")
}

/// The paragraph on the ratings: summaries, agreement, the plan's comparisons and tests, and
/// the flagged cells.
fn ratings_paragraph(report: &Report) -> String {
    let s = &report.settings;
    let comparisons: usize = report
        .dimensions
        .iter()
        .map(|d| {
            d.comparisons
                .iter()
                .filter(|c| c.p_value.is_some() && !c.exploratory)
                .count()
        })
        .sum();
    format!(
        "Ratings were analysed separately for each dimension. For each system, the ratings of \
         an item were averaged over annotators{adj}, and the system's mean, SD (n − 1) and \
         median are those of these item means, with a 95% t interval and a 95% percentile \
         bootstrap interval ({resamples} resamples of items, seed {seed}); the distribution \
         counts the ratings used. Inter-annotator agreement was computed on the raw ratings \
         (never adjudicated), with units the (item, system) cells: Fleiss' κ (each unit with \
         its own number of ratings), Krippendorff's α (coincidence matrix, nominal, ordinal \
         and interval distances; Krippendorff 2011), Cohen's κ for every pair of annotators \
         over the cells both rated (unweighted, and with linear and quadratic weights \
         counting steps on the scale{scale}), and percent agreement (the share of agreeing \
         pairs of ratings within a unit, averaged over units). {plan} The Wilcoxon test \
         drops zero differences and gives ties average ranks (the exact null distribution up \
         to 50 differences without ties or zeros, the exact permutation distribution up to 13 \
         with them, otherwise the normal approximation with tie correction and no continuity \
         correction, as scipy 1.15); the effect sizes are d_z (mean difference over its SD) \
         with its 95% interval from the noncentral t (Steiger and Fouladi 1997), \
         Hedges' g_z = (1 − 3/(4(n − 1) − 1)) d_z and the matched-pairs rank-biserial \
         correlation (W+ − W−)/(W+ + W−). Cells whose ratings have a sample SD above \
         {flag_sd}{flag_scaled}{flagged} were flagged for adjudication{aside}.{experts}",
        plan = plan_in_words(&s.plan, s.plan_source, comparisons),
        adj = if s.adjudication.is_some() {
            ", except that an adjudicated score replaced the ratings of its cell"
        } else {
            ""
        },
        resamples = s.resamples,
        seed = s.seed,
        scale = if report.dimensions.iter().all(|d| d.scale.is_some()) {
            " of the study"
        } else {
            " of the values used"
        },
        flag_sd = s.flag_sd,
        flagged = if s.plan.adjudicate.is_empty() {
            String::new()
        } else {
            format!(
                " on the key criteria the plan names ({})",
                s.plan.adjudicate.join(", ")
            )
        },
        flag_scaled = if report
            .dimensions
            .iter()
            .any(|d| (d.flag_above - s.flag_sd).abs() > 1e-12)
        {
            " on a 1–5 scale (on a scale of another range, that times its range over 4)"
        } else {
            ""
        },
        experts = if report
            .dimensions
            .iter()
            .any(|d| d.flags.iter().any(|f| f.experts.len() > 1))
        {
            " Where several experts scored a cell, the score used was the one they all gave, \
             or the resolved score recorded when they disagreed; a cell whose experts \
             disagreed without a resolved score counted as not adjudicated."
        } else {
            ""
        },
        aside = match (s.exclude_unadjudicated, s.plan.exclude_unadjudicated) {
            (true, true) => {
                "; as the analysis plan pre-registers, flagged cells without an adjudicated \
                 score were set aside from the system summaries, the comparisons and the \
                 slopes (agreement keeps every raw rating)"
            }
            (true, false) => {
                "; flagged cells without an adjudicated score were set aside from the system \
                 summaries, the comparisons and the slopes (agreement keeps every raw rating)"
            }
            (false, true) => {
                "; flagged cells without an adjudicated score were kept, although the \
                 analysis plan pre-registers setting them aside (an exploratory choice)"
            }
            (false, false) => "",
        },
    )
}

/// The paragraph on the automatic judges, when there are any: how each was compared with the
/// humans.
fn judges_paragraph(report: &Report) -> Option<String> {
    let first = report.judges.first()?;
    let test = first
        .dimensions
        .first()
        .map(|d| &d.alt_test)
        .or(first.preferences.as_ref().map(|p| &p.alt_test));
    let (epsilon, q) = test.map_or((0.2, 0.05), |t| (t.epsilon, t.q));
    Some(format!(
        "Automatic judges' verdicts ({judges}) were read apart from the human ratings and \
         entered none of the statistics above. Each judge was compared with the humans by \
         the alternative annotator test (Calderon, Reichart and Dror 2025): each human left \
         out in turn, the judge and that human aligned with the remaining humans on each \
         instance (−RMSE for scores, accuracy for pairwise preferences; an instance is an \
         output per dimension, an (item, system, dimension) pooled, an (item, pair) for \
         preferences), a one-sided one-sample t test of the difference of the indicators \
         against ε = {epsilon} per human, Benjamini–Yekutieli correction over the humans at \
         q = {q}, the winning rate (the judge passes at 0.5 or more) and the advantage \
         probability; with item-level Spearman correlation with the humans' mean, \
         system-level Kendall's τ-b, Krippendorff's α (interval) with and without the judge, \
         and, for preferences, accuracy against the humans' strict majority and Cohen's κ; \
         and each system's mean and win rate estimated by prediction-powered inference \
         (PPI++ with power tuning; Angelopoulos et al. 2023). A judge's verdict is its first \
         run's, and a pairwise verdict given in both orders counts where the orders agree \
         (a tie otherwise).",
        judges = report.judges.len(),
    ))
}

/// The paragraphs on data derived before the statistics: standardised scores, error spans'
/// MQM and agreement, output divergence.
fn derived_data(report: &Report) -> Vec<String> {
    let s = &report.settings;
    let mut parts: Vec<String> = Vec::new();
    if s.plan.standardise == Standardise::Annotator {
        parts.push(
            "Scores were standardised per annotator: on each dimension, each annotator's scores \
             became z-scores (minus the annotator's mean over all their scores on the dimension, \
             divided by their sample SD, n − 1), as in WMT's direct assessment. The z-scores of \
             an item were averaged over annotators and the item means over items, giving each \
             system's mean z-score, reported beside its raw mean over the same ratings; the \
             comparisons above were tested on the z-scores. An annotator with a single score on \
             a dimension, or whose scores were all equal (SD 0), could not be standardised and \
             their ratings of that dimension were left out of the z-scores and the tests (listed \
             in the report). Agreement, the flagged cells, the breakdowns by group and the \
             diagnostics use the raw scores; adjudicated scores replace raw cells only."
                .to_owned(),
        );
    }
    if let Some(sp) = &report.spans {
        parts.push(format!(
            "Error spans were read per output and annotator who saw it (an error per row, or a \
             row for \"no errors\"; an output not answered counts as not seen). An output's MQM \
             score by one annotator is the sum of its errors' weights (minor {minor}, major \
             {major}, critical {critical}; errors of the whole output included); these scores \
             form the derived dimension `mqm` (lower is better), summarised and compared like \
             the other dimensions: averaged over annotators per item, then over items. Span \
             agreement counts characters (Unicode code points): the character-level F1 of two \
             annotators on an output is 2|A ∩ B| / (|A| + |B|), A and B the characters inside \
             any span each marked (any severity; errors of the whole output cover none), \
             averaged over every pair of annotators of every output where either marked a \
             span; Krippendorff's α (nominal) takes each character of each output as a unit, \
             labelled by each annotator who saw the output none or the severity of the span \
             covering it, pooled over all outputs into one coincidence matrix.",
            minor = crate::analysis::data::number(sp.weights.minor),
            major = crate::analysis::data::number(sp.weights.major),
            critical = crate::analysis::data::number(sp.weights.critical),
        ));
    }
    if !report.divergence.is_empty() {
        parts.push(
            "Output divergence across annotators was computed from the study's texts alone: \
             every output of every item (each a document, as written) gave the TF-IDF \
             vocabulary and idf, as scikit-learn's TfidfVectorizer with its defaults (lower \
             case, words of two or more word characters, raw counts, idf = ln((1 + n)/(1 + df)) \
             + 1, vectors of unit length). Personal items with the same prompt (trimmed) in the \
             same round form a prompt; each pair of them whose annotators differ gives, per \
             system, the cosine distance (1 − cosine similarity) between the system's two \
             outputs. A system's divergence is the mean over prompts of each prompt's mean over \
             its pairs, with a 95% t interval over prompts."
                .to_owned(),
        );
    }
    if !report.divergence_comparisons.is_empty() {
        let correction = match report.settings.plan.correction {
            Correction::Holm => "Holm's correction",
            Correction::Bonferroni => "the Bonferroni correction",
            Correction::None => "no correction",
        };
        parts.push(format!(
            "Two systems' divergences were compared over the prompts both have: each prompt's \
             divergence of A minus B, with the plan's paired tests (of Wilcoxon's signed-rank \
             test and the paired t-test) for the alternative of the plan's divergence hypothesis (else the \
             plan's), and {correction} over these {} comparison(s), a family apart from the \
             ratings'.",
            report.divergence_comparisons.len()
        ));
    }
    parts
}

/// The plan in words, for the methods paragraph.
fn plan_in_words(plan: &AnalysisPlan, source: &str, comparisons: usize) -> String {
    let unit = match plan.unit {
        Unit::Item => "the items both have, on each system's mean rating of an item",
        Unit::Annotator => {
            "the annotators who rated both, on each annotator's mean rating of a system over \
             the items they rated"
        }
    };
    let which = match &plan.comparisons {
        Comparisons::All => "Every pair of systems was".to_owned(),
        Comparisons::Anchor(anchor) => format!("{anchor} was compared with each other system and"),
        Comparisons::Pairs(pairs) => format!(
            "The pairs {} were",
            pairs
                .iter()
                .map(|(a, b)| format!("{a} – {b}"))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    };
    let tests: Vec<&str> = plan
        .tests
        .iter()
        .map(|t| match t {
            Test::Wilcoxon => "the Wilcoxon signed-rank test",
            Test::T => "the paired t-test",
        })
        .collect();
    let alternative = match plan.alternative {
        Alternative::TwoSided => "two-sided".to_owned(),
        one_sided => format!("one-sided (A {} B)", one_sided.relation()),
    };
    let hypotheses = if plan.hypotheses.is_empty() {
        String::new()
    } else {
        let parts: Vec<String> = plan
            .hypotheses
            .iter()
            .map(|h| {
                let dir = h.alternative.relation();
                let mut text = format!(
                    "{}{} {dir} {}{}",
                    h.name.as_ref().map_or(String::new(), |n| format!("{n}: ")),
                    h.a,
                    h.b,
                    h.dimension
                        .as_ref()
                        .map_or(String::new(), |d| format!(" on {d}"))
                );
                if let Some(m) = h.margin {
                    text.push_str(&format!(" (with a non-inferiority test of A − B > −{m})"));
                }
                text
            })
            .collect();
        format!(
            " The directional hypotheses tested one-sided: {}.",
            parts.join("; ")
        )
    };
    let hypotheses = format!("{hypotheses}{}", planned_in_words(plan));
    let hypotheses = match plan.margin {
        Some(m) => format!(
            "{hypotheses} Every other comparison was also tested for non-inferiority, A − B > −{m}."
        ),
        None => hypotheses,
    };
    let correction = match plan.correction {
        Correction::Holm => {
            "were adjusted by Holm's step-down method (Bonferroni's is also reported)"
        }
        Correction::Bonferroni => "were adjusted by Bonferroni's method (Holm's is also reported)",
        Correction::None => "were not adjusted (Holm's and Bonferroni's are reported)",
    };
    let family = match plan.family {
        Family::Plan => format!(
            "over the {comparisons} comparison(s) of the primary dimensions together{}",
            if plan.primary.is_empty() {
                " (every dimension)".to_owned()
            } else {
                format!(
                    " ({}; the others, exploratory, apart)",
                    plan.primary.join(", ")
                )
            }
        ),
        Family::Dimension => "within each dimension".to_owned(),
    };
    let source = match source {
        "study" => "pre-registered in the study file",
        "key" => "pre-registered in the study file (kept with the key of the published study)",
        "options" => "chosen at analysis time (exploratory)",
        _ => "Juror's default, no plan having been given",
    };
    format!(
        "The analysis plan was {source}. {which} compared on {unit}, by {} ({alternative} unless \
         a hypothesis says otherwise), with the mean difference's 95% t interval.{hypotheses} \
         The first test's p-values {correction}, {family}.",
        tests.join(" and ")
    )
}

/// The plan's hypotheses about slopes and preferences and its success criteria, as it states
/// them (each sentence with a leading space; empty when there are none): the methods name every
/// pre-registered one.
fn planned_in_words(plan: &AnalysisPlan) -> String {
    // The hypotheses about slopes and preferences, and the success criteria, as the plan
    // states them: the methods name every pre-registered one.
    let planned: Vec<String> = plan
        .planned
        .iter()
        .map(|t| {
            let name = t.name.as_ref().map_or(String::new(), |n| format!("{n}: "));
            let on = t
                .dimension
                .as_ref()
                .map_or(String::new(), |d| format!(" on {d}"));
            let relation = t.alternative.relation();
            match (t.kind, &t.b) {
                (HypothesisKind::Slope, Some(b)) => {
                    format!(
                        "{name}the slope over rounds of {} {relation} that of {b}{on}",
                        t.a
                    )
                }
                (HypothesisKind::Slope, None) => {
                    format!("{name}the slope over rounds of {} {relation} 0{on}", t.a)
                }
                (HypothesisKind::Preference, Some(b)) => {
                    format!("{name}{} preferred to {b} (share {relation} one half)", t.a)
                }
                (HypothesisKind::Divergence, Some(b)) => {
                    format!("{name}the divergence of {} {relation} that of {b}", t.a)
                }
                (_, b) => format!(
                    "{name}{} {relation} {}{on}",
                    t.a,
                    b.as_deref().unwrap_or("0")
                ),
            }
        })
        .collect();
    let mut out = String::new();
    if !planned.is_empty() {
        out.push_str(&format!(
            " The planned tests of slopes and preferences: {}.",
            planned.join("; ")
        ));
    }
    if !plan.thresholds.is_empty() {
        let criteria: Vec<String> = plan
            .thresholds
            .iter()
            .map(|c| {
                format!(
                    "the participants' mean of {} on {} at least {}",
                    c.system,
                    c.dimension,
                    number(c.at_least)
                )
            })
            .collect();
        out.push_str(&format!(" The success criteria: {}.", criteria.join("; ")));
    }
    out
}

/// The confirmatory scope and the secondary analyses, for the methods paragraph.
fn scope_in_words(scope: &crate::analysis::report::ScopeReport) -> String {
    let on = format!("{} \"{}\"", scope.grouping, scope.group);
    let others: Vec<String> = scope
        .secondary
        .iter()
        .map(|s| format!("\"{}\", {} item(s)", s.group, s.items))
        .collect();
    let secondary = if others.is_empty() {
        format!(" No item had another value of {}.", scope.grouping)
    } else {
        format!(
            " The items of each other value of {} ({}) were analysed apart in the same way, \
             as a secondary analysis: their comparisons, slopes over rounds, planned tests and \
             criteria are exploratory, not adjusted and outside the corrected family.",
            scope.grouping,
            others.join("; ")
        )
    };
    format!(
        "As the plan says, the confirmatory analysis was restricted to the {} item(s) with {on}: \
         the system summaries, agreement, comparisons, contrasts, slopes over rounds, \
         preferences, planned tests, success criteria and the corrected family use only their \
         judgements (the answers to questions and surveys and the diagnostics cover every \
         item).{secondary}{}",
        scope.items,
        if scope.ungrouped > 0 {
            format!(
                " {} item(s) without a value of {} entered neither.",
                scope.ungrouped, scope.grouping
            )
        } else {
            String::new()
        }
    )
}
