//! Rater quality: per dimension, the annotators' estimated accuracy, and the outputs whose
//! consensus score is not their majority vote's. The confusion matrices are in the JSON.

use super::super::fmt::{num, percent};
use super::{Doc, Table, Text, numbers, text};
use crate::analysis::report::raters::RaterQuality;

/// Below this many ratings per output a fit is said to be a description only.
const FEW_PER_OUTPUT: f64 = 5.0;

/// The "Rater quality" section, one part per dimension fitted.
pub(super) fn raters(doc: &mut Doc, fits: &[RaterQuality]) {
    doc.section(2, "Rater quality (Dawid–Skene)");
    doc.paragraph(
        "Each dimension's scores read as categories: the Dawid–Skene model estimates each \
         annotator's confusion matrix (how often they give each score when the truth is each \
         score) and each output's most probable true score, its consensus. Accuracy is the \
         chance of giving the true score, the truth drawn from the estimated shares; an \
         annotator who answers at random or always gives one score has a low accuracy whatever \
         their agreement. The confusion matrices are in the JSON report.",
    );
    for fit in fits {
        doc.section(3, Text::input(&fit.dimension));
        let shares: Vec<String> = fit
            .categories
            .iter()
            .zip(&fit.prior)
            .map(|(c, p)| format!("{} {}", num(Some(*c), 0), percent(Some(*p))))
            .collect();
        doc.paragraph(Text::plain(format!(
            "{} rating(s) of {} output(s) by {} annotator(s); {} round(s) of EM{}. \
                 Estimated share of each true score: {}. The consensus differs from the \
                 majority vote on {} output(s).",
            fit.ratings,
            fit.outputs,
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
        let per_output = fit.ratings as f64 / fit.outputs as f64;
        if per_output < FEW_PER_OUTPUT {
            doc.paragraph(format!(
                "With {per_output:.1} rating(s) per output, the fit leans on the annotator it \
                 trusts most and its posteriors are near 0 or 1: read it as a description of \
                 the annotators, not as corrected scores."
            ));
        }
        let mut table = Table::new(
            format!("Annotators on {}, by estimated accuracy", fit.dimension),
            vec![
                text("Annotator"),
                numbers("Ratings"),
                numbers("Accuracy"),
                numbers("Agrees with consensus"),
            ],
        );
        let mut annotators: Vec<_> = fit.annotators.iter().collect();
        annotators.sort_by(|a, b| {
            a.accuracy
                .total_cmp(&b.accuracy)
                .then(a.annotator.cmp(&b.annotator))
        });
        for a in annotators {
            table.rows.push(vec![
                Text::input(&a.annotator),
                a.ratings.to_string().into(),
                num(Some(a.accuracy), 3).into(),
                percent(Some(a.agrees_with_consensus)).into(),
            ]);
        }
        doc.table(table);
        if !fit.changes.is_empty() {
            let mut table = Table::new(
                format!(
                    "Outputs on {} whose consensus is not their majority vote",
                    fit.dimension
                ),
                vec![
                    text("Item"),
                    text("System"),
                    numbers("Majority"),
                    numbers("Consensus"),
                    numbers("Posterior"),
                ],
            );
            for c in &fit.changes {
                table.rows.push(vec![
                    Text::input(&c.item),
                    Text::input(&c.system),
                    num(Some(c.majority), 0).into(),
                    num(Some(c.consensus), 0).into(),
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
    }
}

/// The methods paragraph of rater quality.
pub(in crate::analysis::render) fn method() -> String {
    "Rater quality was estimated per dimension of at most 11 points, its scores read as \
     categories, with the Dawid–Skene model (Dawid and Skene 1979) fitted by EM from the \
     majority vote as crowd-kit's DawidSkene fits it (confusion entries at least 1e-10; stopped \
     when the evidence lower bound per rating rose by less than 1e-5, or after 100 rounds); an \
     annotator's accuracy is the diagonal of their confusion matrix weighted by the estimated \
     shares of the true scores. It describes the annotators and does not change any mean or \
     test above."
        .to_owned()
}
