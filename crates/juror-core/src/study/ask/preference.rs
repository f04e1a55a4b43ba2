//! The preference given in a trial ([`Preference`]), and whether it fits the trial's question.
//! Persisted (in the storage envelope and in ratings files): change it only with a format
//! version and a migration.

use schemars::JsonSchema;
use serde::Serialize;

use crate::study::PreferenceKind;

/// The preference given in a trial, by position (0 is the first output shown).
///
/// Written as an object tagged by `kind` (`{"kind": "choice", "position": 1}`); read by hand
/// (`session::from_json::preference`), not by serde's internally tagged enums, which buffer
/// every object into a generic tree first and bring that code into the page.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Preference {
    /// The best output.
    Best {
        /// Its position.
        position: usize,
    },
    /// The chosen output of a pair.
    Choice {
        /// Its position.
        position: usize,
    },
    /// Neither of a pair.
    Tie,
    /// All outputs, best first.
    Rank {
        /// Positions, best first.
        order: Vec<usize>,
    },
    /// How much better one output of a pair is, by position: from −k (the first output shown
    /// much better) through 0 ("Same") to +k (the second much better), k half the points.
    Graded {
        /// The grade, negative towards the first output shown.
        grade: i32,
    },
    /// "Cannot judge": an answer of its own, never a preference.
    CannotJudge,
    /// The best and the worst of a tuple (best–worst scaling); each `None` until chosen, never
    /// the same position.
    BestWorst {
        /// The best output's position.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        best: Option<usize>,
        /// The worst output's position.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        worst: Option<usize>,
    },
}

impl Preference {
    /// A best–worst answer after choosing `position` as the best (`worst` false) or the worst
    /// from `current`: the other end moves off `position`, so best and worst always differ.
    pub fn best_worst(current: Option<&Preference>, position: usize, worst: bool) -> Preference {
        let (b, w) = match current {
            Some(Preference::BestWorst { best, worst }) => (*best, *worst),
            _ => (None, None),
        };
        let other = |o: Option<usize>| o.filter(|&o| o != position);
        if worst {
            Preference::BestWorst {
                best: other(b),
                worst: Some(position),
            }
        } else {
            Preference::BestWorst {
                best: Some(position),
                worst: other(w),
            }
        }
    }

    /// Whether the preference fits a trial of `shown` outputs whose question is `asked`: its
    /// kind, positions the trial shows, a tie or "Cannot judge" only where allowed.
    pub fn fits(&self, asked: &crate::study::Preference, shown: usize) -> bool {
        let kind = asked.kind;
        match self {
            Preference::Best { position } => kind == PreferenceKind::Best && *position < shown,
            Preference::Choice { position } => kind == PreferenceKind::Choice && *position < shown,
            Preference::Tie => kind == PreferenceKind::Choice && asked.allow_tie,
            Preference::Graded { grade } => {
                kind == PreferenceKind::Graded
                    && grade.unsigned_abs() as usize <= asked.grades.len() / 2
            }
            Preference::CannotJudge => asked.allow_skip,
            Preference::Rank { order } => {
                kind == PreferenceKind::Rank && order.iter().all(|&i| i < shown)
            }
            Preference::BestWorst { best, worst } => {
                kind == PreferenceKind::BestWorst && best_worst_fits(*best, *worst, shown)
            }
        }
    }
}

/// Whether a best–worst answer names outputs of a trial of `n`, never one as both.
pub fn best_worst_fits(best: Option<usize>, worst: Option<usize>, n: usize) -> bool {
    best.is_none_or(|b| b < n) && worst.is_none_or(|w| w < n) && (best.is_none() || best != worst)
}
