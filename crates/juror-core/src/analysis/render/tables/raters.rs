//! Rater quality: per answer read as categories, the annotators' estimated accuracy
//! (Dawid–Skene) and competence (MACE), and the units whose consensus is not their majority
//! vote. The confusion matrices are in the JSON.

use super::super::fmt::{num, percent};
use super::{Doc, Table, Text, numbers, text};
use crate::analysis::report::raters::{Rated, RaterQuality};
use crate::study::analysis_plan::RaterModel;

/// Below this many answers per unit a fit is said to be a description only.
const FEW_PER_UNIT: f64 = 5.0;

/// The models' names, for the section's title and the methods.
fn models_named(fits: &[RaterQuality]) -> &'static str {
    let has = |m: RaterModel| fits.iter().any(|f| f.models.contains(&m));
    match (has(RaterModel::DawidSkene), has(RaterModel::Mace)) {
        (true, true) => "Dawid–Skene and MACE",
        (false, true) => "MACE",
        _ => "Dawid–Skene",
    }
}

/// What a fit read, as a heading.
fn heading(fit: &RaterQuality) -> Text {
    match fit.answer {
        Rated::Dimension => Text::input(&fit.name),
        Rated::Question => Text::plain(format!("Question {}", fit.name)),
        Rated::Flag => Text::plain("The flag".to_owned()),
        Rated::Choice => Text::plain("The choice of each pair".to_owned()),
    }
}

/// The "Rater quality" section, one part per answer fitted.
pub(super) fn raters(doc: &mut Doc, fits: &[RaterQuality]) {
    doc.section(2, format!("Rater quality ({})", models_named(fits)));
    doc.paragraph(
        "Each nominal answer read as categories (a dimension's scores, a question's options, the \
         flag, a pair's choice). The Dawid–Skene model estimates each annotator's confusion \
         matrix (how often they give each category when the truth is each category) and each \
         unit's most probable true category, its consensus; accuracy is the chance of giving \
         the true category, the truth drawn from the estimated shares. MACE estimates each \
         annotator's competence, the chance that an answer was given knowingly rather than by \
         habit or at random. An annotator who answers at random or always gives one category \
         scores low on both whatever their agreement. The confusion matrices are in the JSON \
         report.",
    );
    for fit in fits {
        doc.section(3, heading(fit));
        one(doc, fit);
    }
}

fn one(doc: &mut Doc, fit: &RaterQuality) {
    let shares: Vec<String> = fit
        .categories
        .iter()
        .zip(&fit.prior)
        .map(|(c, p)| format!("{c} {}", percent(Some(*p))))
        .collect();
    let unit = if fit.answer == Rated::Choice {
        "pair(s)"
    } else {
        "output(s)"
    };
    doc.paragraph(Text::plain(format!(
        "{} answer(s) on {} {unit} by {} annotator(s); {} round(s){}. Estimated share of each \
         true category: {}. The consensus differs from the majority vote on {} {unit}.",
        fit.answers,
        fit.units,
        fit.annotators.len(),
        fit.rounds,
        if fit.converged {
            ""
        } else {
            " (stopped at the cap)"
        },
        shares.join(", "),
        fit.differs_from_majority,
    )));
    let per_unit = fit.answers as f64 / fit.units as f64;
    if per_unit < FEW_PER_UNIT {
        doc.paragraph(format!(
            "With {per_unit:.1} answer(s) per unit, the fit leans on the annotator it trusts \
             most and its posteriors are near 0 or 1: read it as a description of the \
             annotators, not as corrected answers."
        ));
    }
    let ds = fit.models.contains(&RaterModel::DawidSkene);
    let mc = fit.models.contains(&RaterModel::Mace);
    let mut columns = vec![text("Annotator"), numbers("Answers")];
    if ds {
        columns.push(numbers("Accuracy"));
    }
    if mc {
        columns.push(numbers("Competence"));
    }
    columns.push(numbers("Agrees with consensus"));
    let by = if ds { "accuracy" } else { "competence" };
    let mut table = Table::new(
        format!("Annotators on {}, by estimated {by}", fit.name),
        columns,
    );
    let mut annotators: Vec<_> = fit.annotators.iter().collect();
    let key = |a: &&crate::analysis::report::raters::AnnotatorQuality| {
        a.accuracy.or(a.competence).unwrap_or(0.0)
    };
    annotators.sort_by(|a, b| {
        key(a)
            .total_cmp(&key(b))
            .then(a.annotator.cmp(&b.annotator))
    });
    for a in annotators {
        let mut row = vec![Text::input(&a.annotator), a.answers.to_string().into()];
        if ds {
            row.push(num(a.accuracy, 3).into());
        }
        if mc {
            row.push(num(a.competence, 3).into());
        }
        row.push(percent(Some(a.agrees_with_consensus)).into());
        table.rows.push(row);
    }
    doc.table(table);
    if fit.changes.is_empty() {
        return;
    }
    let mut table = Table::new(
        format!(
            "{} on {} whose consensus is not their majority vote",
            if fit.answer == Rated::Choice {
                "Pairs"
            } else {
                "Outputs"
            },
            fit.name
        ),
        vec![
            text("Item"),
            text(if fit.answer == Rated::Choice {
                "Systems"
            } else {
                "System"
            }),
            text("Majority"),
            text("Consensus"),
            numbers("Posterior"),
        ],
    );
    for c in &fit.changes {
        table.rows.push(vec![
            Text::input(&c.item),
            Text::input(&c.system),
            Text::input(&c.majority),
            Text::input(&c.consensus),
            num(Some(c.posterior), 3).into(),
        ]);
    }
    doc.table(table);
    if fit.differs_from_majority > fit.changes.len() {
        doc.paragraph(format!(
            "The first {} of {} are shown.",
            fit.changes.len(),
            fit.differs_from_majority
        ));
    }
}

/// The methods paragraph of rater quality.
pub(in crate::analysis::render) fn method(fits: &[RaterQuality]) -> String {
    let mut out = String::from(
        "Rater quality was estimated on each nominal answer read as categories (each dimension \
         of at most 11 points, each single-choice or Likert output question, the flag, and the \
         choice of each pair of systems, as the first system better, a tie or the second \
         better).",
    );
    let has = |m: RaterModel| fits.iter().any(|f| f.models.contains(&m));
    if has(RaterModel::DawidSkene) {
        out.push_str(
            " The Dawid–Skene model (Dawid and Skene 1979) was fitted by EM from the majority \
             vote as crowd-kit's DawidSkene fits it (confusion entries at least 1e-10; stopped \
             when the evidence lower bound per answer rose by less than 1e-5, or after 100 \
             rounds); an annotator's accuracy is the diagonal of their confusion matrix \
             weighted by the estimated shares of the true categories.",
        );
    }
    if has(RaterModel::Mace) {
        out.push_str(MACE_METHOD);
    }
    out.push_str(" It describes the annotators and does not change any mean or test above.");
    out
}

/// The methods' sentence on MACE.
const MACE_METHOD: &str = " MACE (Hovy et al. 2013) was fitted by variational Bayes as \
     crowd-kit's MACE fits it (Beta(½, ½) priors on spamming and knowing, Dirichlet(10) on each \
     annotator's strategy), from four fixed starting points run until no parameter moved by \
     1e-9 (at most 1,000 rounds), keeping the highest likelihood; an annotator's competence is \
     the estimated chance that an answer was given knowingly rather than by their strategy.";
