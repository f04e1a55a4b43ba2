//! A task's preference: a kind its presentation allows, ties, best–worst tuples and graded
//! labels.

use super::Checker;
use crate::study::model::*;
use crate::study::raw::*;

/// A task's preference: a kind its presentation allows, a tie only in a pair choice, a tuple
/// size only with best–worst (3 to the number of systems).
pub(super) fn task_preference(
    c: &mut Checker,
    at: &str,
    t: &RawTask,
    systems: usize,
) -> Option<Preference> {
    t.preference.as_ref().map(|p| {
        let here = format!("{at}.preference");
        match (p.kind, t.presentation) {
            (RawPreferenceKind::Choice, RawPresentation::Pairs)
            | (RawPreferenceKind::Best, RawPresentation::Pairs | RawPresentation::SideBySide)
            | (RawPreferenceKind::Rank | RawPreferenceKind::BestWorst, RawPresentation::SideBySide)
            | (RawPreferenceKind::Graded, RawPresentation::Pairs) => {}
            (kind, presentation) => c.error(
                format!("{here}.type"),
                format!(
                    "a \"{}\" preference cannot be asked with \"{}\" presentation",
                    kind_name(kind),
                    presentation_name(presentation)
                ),
                "use \"choice\" or \"graded\" with pairs, \"best\" with pairs or side_by_side, \"rank\" or \"best_worst\" with side_by_side",
            ),
        }
        if p.allow_tie && p.kind != RawPreferenceKind::Choice {
            c.error(
                format!("{here}.allow_tie"),
                "a tie is only offered in a pair choice",
                "remove allow_tie or use \"type\": \"choice\"",
            );
        }
        let tuple_size = best_worst_size(c, &here, p, systems);
        Preference {
            tuple_size,
            kind: p.kind,
            question: p
                .question
                .clone()
                .unwrap_or_else(|| "Which output do you prefer overall?".to_owned()),
            allow_tie: p.allow_tie,
            grades: graded_labels(c, &here, p),
            allow_skip: p.allow_skip,
            explanation: p.explanation,
        }
    })
}

/// The tuple size of a best–worst preference (0 for other kinds): `tuple_size`, by default 4 or
/// every system when there are fewer.
fn best_worst_size(c: &mut Checker, here: &str, p: &RawPreference, systems: usize) -> usize {
    if p.kind != RawPreferenceKind::BestWorst {
        if p.tuple_size.is_some() {
            c.error(
                format!("{here}.tuple_size"),
                "a tuple size is only used by a best–worst preference",
                "remove tuple_size or use \"type\": \"best_worst\"",
            );
        }
        return 0;
    }
    let size = p.tuple_size.unwrap_or(4.min(systems));
    if size < 3 || size > systems {
        c.error(
            format!("{here}.tuple_size"),
            format!("a tuple of {size} outputs cannot be shown from {systems} systems"),
            format!("best–worst needs at least 3 systems; set tuple_size from 3 to {systems}"),
        );
    }
    size
}

fn kind_name(kind: RawPreferenceKind) -> &'static str {
    match kind {
        RawPreferenceKind::BestWorst => "best_worst",
        RawPreferenceKind::Best => "best",
        RawPreferenceKind::Choice => "choice",
        RawPreferenceKind::Rank => "rank",
        RawPreferenceKind::Graded => "graded",
    }
}

/// A graded preference's labels: `points` odd from 3 to 9 (default 7), `labels` one per point
/// (default [`crate::study::default_grades`]); `points` and `labels` only with `graded`.
fn graded_labels(c: &mut Checker, here: &str, p: &RawPreference) -> Vec<String> {
    if p.kind != RawPreferenceKind::Graded {
        for (field, given) in [
            ("points", p.points.is_some()),
            ("labels", p.labels.is_some()),
        ] {
            if given {
                c.error(
                    format!("{here}.{field}"),
                    format!("{field} is only for a graded preference"),
                    format!("remove {field} or use \"type\": \"graded\""),
                );
            }
        }
        return Vec::new();
    }
    let points = p.points.unwrap_or(7);
    if !(3..=9).contains(&points) || points.is_multiple_of(2) {
        c.error(
            format!("{here}.points"),
            format!("a graded preference has an odd number of points from 3 to 9, not {points}"),
            "use 3, 5, 7 or 9 (\"Same\" is the middle point)",
        );
        return crate::study::default_grades(7);
    }
    match &p.labels {
        None => crate::study::default_grades(points),
        Some(labels) => {
            if labels.len() != points as usize {
                c.error(
                    format!("{here}.labels"),
                    format!("{} labels for {points} points", labels.len()),
                    "give one label per point, A's strongest first, \"Same\" in the middle",
                );
            }
            for (j, label) in labels.iter().enumerate() {
                if label.trim().is_empty() {
                    c.error(
                        format!("{here}.labels[{j}]"),
                        "the label is empty",
                        "write what the point means, like \"A slightly better\"",
                    );
                }
            }
            if labels.len() == points as usize {
                labels.clone()
            } else {
                crate::study::default_grades(points)
            }
        }
    }
}

fn presentation_name(p: RawPresentation) -> &'static str {
    match p {
        RawPresentation::Single => "single",
        RawPresentation::Pairs => "pairs",
        RawPresentation::SideBySide => "side_by_side",
    }
}
