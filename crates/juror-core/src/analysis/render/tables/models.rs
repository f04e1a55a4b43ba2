//! Models of each dimension beside the paired tests: the crossed mixed model's fixed effects
//! and variance components; the proportional-odds model's odds ratios and cut points.

use super::super::fmt::{ci, p_value};
use super::dimension::fixed_effects_table;
use super::{Doc, Table, Text, numbers, text};
use crate::analysis::report::models::{CrossedModel, OrdinalModel, OrdinalTerm};

/// The "Crossed random effects" section, one part per dimension.
pub(super) fn crossed(doc: &mut Doc, fits: &[CrossedModel]) {
    doc.section(2, "Crossed random effects: annotators and items");
    doc.paragraph(
        "A linear mixed model of the raw scores with a random intercept for each annotator and \
         for each item, crossed: a system's effect is its difference from the reference with \
         the annotators' leniency and the items' difficulty both taken out, and the variance \
         components say how much of the spread of the scores is between annotators, between \
         items and left over. Standard errors are model-based (as lme4 gives them); z and p \
         are Wald's, on the normal distribution.",
    );
    for m in fits {
        doc.section(3, Text::input(&m.dimension));
        let Some(f) = &m.fit else {
            doc.paragraph(
                Text::plain(format!("{}: not fitted: ", m.formula))
                    .and_input(m.note.clone().unwrap_or_default()),
            );
            continue;
        };
        doc.paragraph(
            Text::plain(format!(
                "{} by {}: {} rating(s) by {} annotator(s) of {} item(s); reference system ",
                m.formula, m.method, f.n_obs, f.n_annotators, f.n_items
            ))
            .and_input(&m.reference)
            .and(format!(
                "; log-likelihood {:.3}{}.",
                f.log_likelihood,
                if f.converged {
                    ""
                } else {
                    " (the search stopped before its tolerance: read with care)"
                }
            )),
        );
        doc.table(fixed_effects_table(
            format!("Fixed effects of the crossed model on {}", m.dimension),
            &f.fixed_effects,
        ));
        let mut table = Table::new(
            format!(
                "Variance components of the crossed model on {}",
                m.dimension
            ),
            vec![
                text("Component"),
                numbers("Variance"),
                numbers("SD"),
                numbers("Share (ICC)"),
            ],
        );
        let total = f.annotator_variance + f.item_variance + f.residual_variance;
        for (name, v) in [
            ("Annotator", f.annotator_variance),
            ("Item", f.item_variance),
            ("Residual", f.residual_variance),
        ] {
            table.rows.push(vec![
                name.into(),
                format!("{v:.4}").into(),
                format!("{:.4}", v.sqrt()).into(),
                format!("{:.3}", v / total).into(),
            ]);
        }
        doc.table(table);
    }
}

/// The methods paragraph of the crossed model.
pub(in crate::analysis::render) fn crossed_method(method: &str) -> String {
    format!(
        "The crossed mixed model, score ~ system + (1 | annotator) + (1 | item) (with rounds, \
         system * round), was fitted to the raw scores by {method} in lme4's formulation \
         (Bates et al. 2015), the variance ratios by Newton's method on their square roots \
         from the best point of a grid, with central-difference derivatives, until every step \
         was below 1e-9 of its parameter; a variance below 1e-10 of the residual one was \
         compared with 0. Fixed effects have model-based standard errors, σ²(Xᵀ H⁻¹ X)⁻¹, and \
         Wald z tests; the intra-class correlations are each component's share of the total \
         variance. Reference: statsmodels' MixedLM with variance components (within 1e-4)."
    )
}

/// The "Ordinal model" section, one part per dimension.
pub(super) fn ordinal(doc: &mut Doc, fits: &[OrdinalModel]) {
    doc.section(2, "Ordinal model: proportional odds");
    doc.paragraph(
        "Each dimension's scores read as ordered categories, not as numbers: the cumulative \
         logit model gives each system a shift on the log-odds scale, the same at every cut \
         between consecutive scores. An odds ratio above 1 means the first system is more \
         likely than the second to get a higher score; its interval and p-value use standard \
         errors clustered by annotator, so an annotator's many ratings count as one source of \
         evidence.",
    );
    for m in fits {
        doc.section(3, Text::input(&m.dimension));
        let Some(f) = &m.fit else {
            doc.paragraph(
                Text::plain("Not fitted: ").and_input(m.note.clone().unwrap_or_default()),
            );
            continue;
        };
        let scores: Vec<String> = f.categories.iter().map(|c| format!("{c}")).collect();
        doc.paragraph(
            Text::plain(format!(
                "{} rating(s) by {} annotator(s) on the scores {}; reference system ",
                f.n_obs,
                f.n_annotators,
                scores.join(", ")
            ))
            .and_input(&m.reference)
            .and(format!(
                "; standard errors {}; log-likelihood {:.3}{}.",
                if f.standard_errors == "cluster" {
                    "clustered by annotator"
                } else {
                    "model-based (one annotator)"
                },
                f.log_likelihood,
                if f.converged {
                    ""
                } else {
                    " (the fit stopped before its tolerance: read with care)"
                }
            )),
        );
        let mut table = Table::new(
            format!("Odds ratios of a higher score on {}", m.dimension),
            vec![
                text("System"),
                text("Versus"),
                numbers("Odds ratio"),
                numbers("95% CI"),
                numbers("z"),
                numbers("p"),
            ],
        );
        for o in &f.odds_ratios {
            table.rows.push(vec![
                Text::input(&o.a),
                Text::input(&o.b),
                format!("{:.3}", o.odds_ratio).into(),
                ci(Some(o.ci95), 3).into(),
                format!("{:.2}", o.z).into(),
                p_value(Some(o.p_value)).into(),
            ]);
        }
        doc.table(table);
        doc.table(terms_table(
            format!(
                "Coefficients and cut points of the ordinal model on {}",
                m.dimension
            ),
            f.coefficients.iter().chain(&f.cut_points),
        ));
    }
}

fn terms_table<'a>(caption: String, terms: impl Iterator<Item = &'a OrdinalTerm>) -> Table {
    let mut table = Table::new(
        caption,
        vec![
            text("Term"),
            numbers("Estimate"),
            numbers("SE"),
            numbers("SE (model)"),
            numbers("z"),
            numbers("p"),
        ],
    );
    for t in terms {
        table.rows.push(vec![
            Text::input(&t.name),
            format!("{:.4}", t.estimate).into(),
            format!("{:.4}", t.se).into(),
            format!("{:.4}", t.se_model).into(),
            format!("{:.2}", t.z).into(),
            p_value(Some(t.p_value)).into(),
        ]);
    }
    table
}

/// The methods paragraph of the ordinal model.
pub(in crate::analysis::render) fn ordinal_method() -> String {
    "The proportional-odds (cumulative logit) model, P(score ≤ c_j) = logistic(c_j − β_system), \
     was fitted to each dimension of at most 11 whole-number points by maximum likelihood \
     (Newton–Raphson with the analytic score and Hessian, step halving, until every step was \
     below 1e-10), the scores used as the categories; standard errors are clustered by \
     annotator as statsmodels' cov_type=\"cluster\" computes them, with the correction \
     G/(G − 1) · (N − 1)/(N − k), and the cut points' by the delta method. An odds ratio \
     exp(β_a − β_b) compares two systems with a 95% Wald interval. Reference: statsmodels' \
     OrderedModel (within 1e-6)."
        .to_owned()
}
