//! The preference asked in a trial ([`RawPreferenceKind`], its checks in `task_preference`, its
//! compiled reader) and the one given ([`Preference`]): whether an answer fits the question, what
//! is still missing, the keys that give one, the stored session's reader, the rating sheet's
//! cell, the ratings file's [`PreferenceRecord`] with its CSV rows, and what the analysis reads
//! of a record: its pairwise judgements ([`PreferenceRecord::pairwise`]) and what a tuple chose
//! ([`Chosen`], with its tidy codec). A new preference kind is a variant here, its control on
//! the page, and its statistics.
//!
//! [`Preference`] is persisted (in the storage envelope and in ratings files): change it only
//! with a format version and a migration.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::cell::split_list;
use crate::base::json::{
    Read, Value, boolean, fields, index, integer, list, string, unknown_variant, word,
};
use crate::study::from_json::{requirement, strings};
use crate::study::model::Preference as Asked;
use crate::study::raw::{RawPreference, RawPresentation, RawTask};
use crate::study::validate::Checker;

/// The kinds of preference, as the study file and the validated study both name them.
pub type PreferenceKind = RawPreferenceKind;

/// The preference given in a trial, by position (0 is the first output shown).
///
/// Written as an object tagged by `kind` (`{"kind": "choice", "position": 1}`); read by hand
/// ([`read`]), not by serde's internally tagged enums, which buffer
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

    /// Whether every position a stored preference names is one of a trial of `n` outputs (a
    /// rank past the end would index past the outputs), whatever the question.
    pub fn names_shown(&self, n: usize) -> bool {
        match self {
            Preference::Tie | Preference::CannotJudge => true,
            Preference::Graded { grade } => n == 2 && grade.unsigned_abs() <= 4,
            Preference::Best { position } | Preference::Choice { position } => *position < n,
            Preference::Rank { order } => {
                let mut sorted = order.clone();
                crate::base::order::sort(&mut sorted);
                sorted.dedup();
                sorted.len() == order.len() && order.iter().all(|&p| p < n)
            }
            Preference::BestWorst { best, worst } => best_worst_fits(*best, *worst, n),
        }
    }
}

/// A grade's name in a tidy file: `a3` … `a1`, `tie`, `b1` … `b3` (negative grades favour
/// `a`, the first system).
pub fn grade_name(grade: i32) -> String {
    match grade {
        0 => "tie".to_owned(),
        g if g < 0 => format!("a{}", g.unsigned_abs()),
        g => format!("b{g}"),
    }
}

/// The grade a tidy file's `a2`, `tie`, `b1` names (any case), from −9 to 9; `None` for
/// anything else.
pub fn parse_grade(text: &str) -> Option<i32> {
    let lower = text.to_ascii_lowercase();
    if lower == "tie" {
        return Some(0);
    }
    let (side, digits) = lower.split_at_checked(1)?;
    let n: i32 = match digits.as_bytes() {
        [d @ b'1'..=b'9'] => i32::from(d - b'0'),
        _ => return None,
    };
    match side {
        "a" => Some(-n),
        "b" => Some(n),
        _ => None,
    }
}

/// The kinds a stored preference may have, as `kind` writes them.
const KINDS: [&str; 7] = [
    "best",
    "choice",
    "tie",
    "rank",
    "graded",
    "cannot_judge",
    "best_worst",
];

/// A stored preference, an object tagged by `kind` (`{"kind": "choice", "position": 1}`).
///
/// # Errors
/// An unknown kind, or a field the kind needs missing or wrong.
pub fn read(value: &Value) -> Read<Preference> {
    let mut f = fields(value)?;
    let kind = f.take("kind", string);
    let preference = match kind.as_str() {
        "best" => Preference::Best {
            position: f.take("position", index),
        },
        "choice" => Preference::Choice {
            position: f.take("position", index),
        },
        "tie" => Preference::Tie,
        "rank" => Preference::Rank {
            order: f.take("order", |v| list(v, index)),
        },
        "graded" => Preference::Graded {
            grade: f.take("grade", integer),
        },
        "cannot_judge" => Preference::CannotJudge,
        "best_worst" => Preference::BestWorst {
            best: f.maybe("best", index),
            worst: f.maybe("worst", index),
        },
        _ => {
            // A kind that is not a string is placed by `take` (and refused by `done`).
            let wrong = unknown_variant(&kind, &KINDS).in_key("kind");
            return f.done(()).and(Err(wrong));
        }
    };
    f.done(preference)
}

impl Asked {
    /// Whether the question's `tuple_size` is one a study of `systems` systems can have: 3 to
    /// all of them for best–worst, 0 (no tuple) for every other kind.
    pub fn tuple_size_fits(&self, systems: usize) -> bool {
        match self.kind {
            PreferenceKind::BestWorst => (3..=systems).contains(&self.tuple_size),
            _ => self.tuple_size == 0,
        }
    }

    /// What the annotator still has to do for this question of a trial of `n` outputs, given
    /// `given`; `None` when it is answered.
    pub fn missing(&self, given: Option<&Preference>, n: usize) -> Option<String> {
        let both = || "choose the best and the worst output".to_owned();
        match (given, self.kind) {
            (None, PreferenceKind::Graded) => {
                Some("say how much better one output is, or “Same”".to_owned())
            }
            (None, PreferenceKind::BestWorst) => Some(both()),
            (None, _) => Some("choose an output".to_owned()),
            (Some(Preference::Rank { order }), PreferenceKind::Rank) => {
                let mut sorted = order.clone();
                crate::base::order::sort(&mut sorted);
                (sorted != (0..n).collect::<Vec<_>>()).then(|| "rank every output".to_owned())
            }
            (Some(Preference::BestWorst { best, worst }), _) => match (best, worst) {
                (None, None) => Some(both()),
                (None, Some(_)) => Some("choose the best output".to_owned()),
                (Some(_), None) => Some("choose the worst output".to_owned()),
                (Some(_), Some(_)) => None,
            },
            _ => None,
        }
    }

    /// The preference an output's letter key gives (`shift` held: best–worst's worst), after
    /// `current`; `None` where a letter gives none (ranks, grades).
    pub fn by_letter(
        &self,
        current: Option<&Preference>,
        position: usize,
        shift: bool,
    ) -> Option<Preference> {
        match self.kind {
            PreferenceKind::Best => Some(Preference::Best { position }),
            PreferenceKind::Choice => Some(Preference::Choice { position }),
            PreferenceKind::BestWorst => Some(Preference::best_worst(current, position, shift)),
            PreferenceKind::Rank | PreferenceKind::Graded => None,
        }
    }

    /// The preference the tie key gives: a grade's "Same", or a tie where one is offered.
    pub fn by_tie_key(&self) -> Option<Preference> {
        if self.kind == PreferenceKind::Graded {
            return Some(Preference::Graded { grade: 0 });
        }
        self.allow_tie.then_some(Preference::Tie)
    }

    /// The preference the n-th digit gives on a graded question (1 is A's strongest, the
    /// middle "Same"); `None` for other kinds or past the last point.
    pub fn by_digit(&self, n: u8) -> Option<Preference> {
        let points = self.grades.len();
        if self.kind != PreferenceKind::Graded || usize::from(n) > points {
            return None;
        }
        let grade = i32::from(n) - 1 - i32::try_from(points / 2).ok()?;
        Some(Preference::Graded { grade })
    }

    /// What the rating sheet's legend says a preference cell takes.
    pub fn legend(&self) -> &'static str {
        match self.kind {
            PreferenceKind::Rank => "every letter of the row once, best first, like B > A > C",
            PreferenceKind::Choice if self.allow_tie => "one letter of the row, or tie",
            PreferenceKind::Graded => "a grade: a1 (A slightly better) to a3, tie, or b1 to b3",
            PreferenceKind::BestWorst => "two letters of the row, the best then the worst",
            _ => "one letter of the row",
        }
    }

    /// What a preference cell of a row whose outputs are lettered `letters` ("A, B") takes, for
    /// the sheet reader's messages.
    pub fn cell_words(&self, letters: &str) -> String {
        match self.kind {
            PreferenceKind::Rank => format!("every one of {letters} once, best first, like B > A"),
            PreferenceKind::Graded => {
                let k = self.grades.len() / 2;
                format!("a grade: a{k} (A much better) to a1, tie, b1 to b{k}")
            }
            PreferenceKind::BestWorst => {
                format!("two of {letters}, the best then the worst, like B > A")
            }
            PreferenceKind::Choice if self.allow_tie => format!("one of {letters} or tie"),
            _ => format!("one of {letters}"),
        }
    }

    /// A rating sheet's preference cell (not blank) in a row of `n` outputs, `find` giving the
    /// position a letter or label names; `None` when it is not one [`Asked::cell_words`] allows.
    pub fn parse_cell(
        &self,
        value: &str,
        n: usize,
        find: impl Fn(&str) -> Option<usize>,
    ) -> Option<Preference> {
        match self.kind {
            PreferenceKind::Choice if value.eq_ignore_ascii_case("tie") && self.allow_tie => {
                Some(Preference::Tie)
            }
            PreferenceKind::Choice => find(value).map(|position| Preference::Choice { position }),
            PreferenceKind::Best => find(value).map(|position| Preference::Best { position }),
            PreferenceKind::Graded => parse_grade(value)
                .filter(|g| g.unsigned_abs() as usize <= self.grades.len() / 2)
                .map(|grade| Preference::Graded { grade }),
            PreferenceKind::BestWorst => {
                let two: Option<Vec<usize>> = split_list(value, true).map(&find).collect();
                match two.as_deref() {
                    Some(&[b, w]) if b != w => Some(Preference::BestWorst {
                        best: Some(b),
                        worst: Some(w),
                    }),
                    _ => None,
                }
            }
            PreferenceKind::Rank => {
                let order: Option<Vec<usize>> = split_list(value, true).map(&find).collect();
                order
                    .filter(|o| {
                        let mut s = o.clone();
                        s.sort_unstable();
                        s == (0..n).collect::<Vec<_>>()
                    })
                    .map(|order| Preference::Rank { order })
            }
        }
    }
}

/// Whether a best–worst answer names outputs of a trial of `n`, never one as both.
fn best_worst_fits(best: Option<usize>, worst: Option<usize>, n: usize) -> bool {
    best.is_none_or(|b| b < n) && worst.is_none_or(|w| w < n) && (best.is_none() || best != worst)
}

/// A preference, resolved to labels and systems.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum PreferenceRecord {
    /// The best output.
    Best {
        /// Its 1-based position.
        position: usize,
        /// Its label.
        label: String,
        /// Its system.
        system: String,
    },
    /// The chosen output of a pair.
    Choice {
        /// Its 1-based position.
        position: usize,
        /// Its label.
        label: String,
        /// Its system.
        system: String,
    },
    /// Neither of a pair.
    Tie,
    /// All outputs best first, by system.
    Rank {
        /// Systems, best first.
        systems: Vec<String>,
        /// Their labels, best first.
        labels: Vec<String>,
    },
    /// A graded preference of a pair: the grade from −k (the first output much better)
    /// through 0 to +k (the second much better), and the point's label as shown.
    Graded {
        /// The grade, negative towards the first output.
        grade: i32,
        /// The point's label ("A slightly better").
        label: String,
    },
    /// "Cannot judge".
    CannotJudge,
    /// The best and the worst of a tuple (best–worst scaling); either may be missing in an
    /// unfinished trial.
    BestWorst {
        /// The best output.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        best: Option<Picked>,
        /// The worst output.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        worst: Option<Picked>,
    },
}

/// One output picked in a best–worst trial.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Picked {
    /// Its 1-based position.
    pub position: usize,
    /// Its label.
    pub label: String,
    /// Its system.
    pub system: String,
}

/// One row of a ratings CSV that a preference writes: the system, the 1-based position (empty
/// where none), the label, the `question` column and the value.
#[derive(Debug, PartialEq, Eq)]
pub struct RecordRow<'a> {
    /// The system (empty for a tie, a grade or "Cannot judge").
    pub system: &'a str,
    /// The 1-based position, or empty.
    pub position: String,
    /// The label shown.
    pub label: &'a str,
    /// `preference`, or `preference_rank` for a ranking's rows.
    pub column: &'static str,
    /// What was given: `best`, `chosen`, `tie`, a grade's name, a rank.
    pub value: String,
}

impl PreferenceRecord {
    /// The record of `given` in a ratings file: `shown` gives a position's label and system,
    /// `grade_label` a grade's label as shown.
    pub fn of(
        given: &Preference,
        shown: impl Fn(usize) -> (String, String),
        grade_label: impl Fn(i32) -> String,
    ) -> PreferenceRecord {
        let picked = |position: usize| {
            let (label, system) = shown(position);
            Picked {
                position: position + 1,
                label,
                system,
            }
        };
        match given {
            Preference::Best { position } => {
                let Picked {
                    position,
                    label,
                    system,
                } = picked(*position);
                PreferenceRecord::Best {
                    position,
                    label,
                    system,
                }
            }
            Preference::Choice { position } => {
                let Picked {
                    position,
                    label,
                    system,
                } = picked(*position);
                PreferenceRecord::Choice {
                    position,
                    label,
                    system,
                }
            }
            Preference::Tie => PreferenceRecord::Tie,
            Preference::Graded { grade } => PreferenceRecord::Graded {
                grade: *grade,
                label: grade_label(*grade),
            },
            Preference::CannotJudge => PreferenceRecord::CannotJudge,
            Preference::Rank { order } => {
                let (labels, systems) = order.iter().map(|&o| shown(o)).unzip();
                PreferenceRecord::Rank { systems, labels }
            }
            Preference::BestWorst { best, worst } => PreferenceRecord::BestWorst {
                best: best.map(picked),
                worst: worst.map(picked),
            },
        }
    }

    /// The preference on the positions of a trial of `n` outputs (`position_of` finds a system's);
    /// why the record does not fit the trial.
    ///
    /// # Errors
    /// A position not shown, an unknown system, a grade off the scale, one output as both best
    /// and worst.
    pub fn on_trial(
        &self,
        n: usize,
        position_of: impl Fn(&str) -> Option<usize>,
    ) -> Result<Preference, &'static str> {
        // 1-based positions from the file, checked against the trial before use.
        let position = |p: usize| {
            p.checked_sub(1)
                .filter(|&p| p < n)
                .ok_or("a position that is not shown")
        };
        Ok(match self {
            PreferenceRecord::Best { position: p, .. } => Preference::Best {
                position: position(*p)?,
            },
            PreferenceRecord::Choice { position: p, .. } => Preference::Choice {
                position: position(*p)?,
            },
            PreferenceRecord::Tie => Preference::Tie,
            PreferenceRecord::Graded { grade, .. } => {
                if n != 2 || grade.unsigned_abs() > 4 {
                    return Err("a grade off the scale");
                }
                Preference::Graded { grade: *grade }
            }
            PreferenceRecord::CannotJudge => Preference::CannotJudge,
            PreferenceRecord::BestWorst { best, worst } => {
                let at = |p: &Option<Picked>| p.as_ref().map(|p| position(p.position)).transpose();
                let (best, worst) = (at(best)?, at(worst)?);
                if best.is_some() && best == worst {
                    return Err("the same output as the best and the worst");
                }
                Preference::BestWorst { best, worst }
            }
            PreferenceRecord::Rank { systems, .. } => Preference::Rank {
                order: systems
                    .iter()
                    .map(|s| position_of(s).ok_or("an unknown system in a ranking"))
                    .collect::<Result<_, _>>()?,
            },
        })
    }

    /// The system preferred: the best, the chosen, the first ranked; `None` for a tie, a grade,
    /// "Cannot judge" or no best yet. What an attention check on a preference accepts or not.
    pub fn preferred_system(&self) -> Option<&str> {
        match self {
            PreferenceRecord::Best { system, .. } | PreferenceRecord::Choice { system, .. } => {
                Some(system)
            }
            PreferenceRecord::Rank { systems, .. } => systems.first().map(String::as_str),
            PreferenceRecord::BestWorst { best, .. } => best.as_ref().map(|b| b.system.as_str()),
            PreferenceRecord::Tie
            | PreferenceRecord::Graded { .. }
            | PreferenceRecord::CannotJudge => None,
        }
    }

    /// The rows the record writes in a ratings CSV.
    pub fn rows(&self) -> Vec<RecordRow<'_>> {
        let row = |system, position: String, label, column, value: String| RecordRow {
            system,
            position,
            label,
            column,
            value,
        };
        let empty = String::new;
        match self {
            PreferenceRecord::Best {
                position,
                label,
                system,
            } => {
                vec![row(
                    system,
                    position.to_string(),
                    label,
                    "preference",
                    "best".into(),
                )]
            }
            PreferenceRecord::Choice {
                position,
                label,
                system,
            } => {
                vec![row(
                    system,
                    position.to_string(),
                    label,
                    "preference",
                    "chosen".into(),
                )]
            }
            PreferenceRecord::Tie => vec![row("", empty(), "", "preference", "tie".into())],
            PreferenceRecord::Graded { grade, label } => {
                vec![row("", empty(), label, "preference", grade_name(*grade))]
            }
            PreferenceRecord::CannotJudge => {
                vec![row(
                    "",
                    empty(),
                    "",
                    "preference",
                    super::CANNOT_JUDGE.into(),
                )]
            }
            PreferenceRecord::BestWorst { best, worst } => [(best, "best"), (worst, "worst")]
                .into_iter()
                .filter_map(|(p, what)| {
                    let p = p.as_ref()?;
                    Some(row(
                        &p.system,
                        p.position.to_string(),
                        &p.label,
                        "preference",
                        what.into(),
                    ))
                })
                .collect(),
            PreferenceRecord::Rank { systems, labels } => systems
                .iter()
                .zip(labels)
                .enumerate()
                .map(|(rank, (s, l))| row(s, empty(), l, "preference_rank", (rank + 1).to_string()))
                .collect(),
        }
    }
}

/// How one pair of a trial's outputs came out, the pair in the order shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PairOutcome {
    /// The output shown first won.
    First,
    /// The output shown second won.
    Second,
    /// Neither.
    Tie,
}

impl PairOutcome {
    /// What a grade collapses to: negative the first, positive the second, 0 a tie.
    pub fn of_grade(grade: i32) -> PairOutcome {
        match grade.signum() {
            -1 => PairOutcome::First,
            1 => PairOutcome::Second,
            _ => PairOutcome::Tie,
        }
    }
}

impl PreferenceRecord {
    /// The grade, for a graded preference.
    pub fn grade(&self) -> Option<i32> {
        match self {
            PreferenceRecord::Graded { grade, .. } => Some(*grade),
            _ => None,
        }
    }

    /// The pairwise judgements of the preference in a trial that showed `systems` in order, as
    /// (position of a, position of b, outcome), positions from 0 and a shown before b:
    /// - a pair's choice: the chosen output against the other; a grade: its sign;
    /// - a tie: every pair of outputs shown (with a pair, the pair), tied;
    /// - the best: the best output against each other output shown, which it beats; the
    ///   others are not compared among themselves;
    /// - a ranking: every pair of outputs, the one ranked higher winning;
    /// - best–worst and "Cannot judge": none (best–worst has its own analysis).
    ///
    /// # Errors
    /// A position or system that does not match the trial, a pair's answer on more outputs,
    /// one output as both best and worst, a system shown twice.
    pub fn pairwise(&self, systems: &[&str]) -> Result<Vec<(usize, usize, PairOutcome)>, String> {
        let n = systems.len();
        let at = |position: usize, system: &str| -> Result<usize, String> {
            let index = position.checked_sub(1).filter(|&i| i < n).ok_or_else(|| {
                format!("position {position} is not one of the trial's {n} output(s)")
            })?;
            if systems[index] != system {
                return Err(format!(
                    "position {position} shows \"{}\", not \"{system}\" as the preference says",
                    systems[index]
                ));
            }
            Ok(index)
        };
        let beats = |w: usize, other: usize| {
            if w < other {
                (w, other, PairOutcome::First)
            } else {
                (other, w, PairOutcome::Second)
            }
        };
        let pair = |what: &str| {
            if n == 2 {
                Ok(())
            } else {
                Err(format!(
                    "{what} needs a pair of outputs, this trial shows {n}"
                ))
            }
        };
        let pairs = match self {
            PreferenceRecord::BestWorst { best, worst } => {
                let b = best
                    .as_ref()
                    .map(|p| at(p.position, &p.system))
                    .transpose()?;
                let w = worst
                    .as_ref()
                    .map(|p| at(p.position, &p.system))
                    .transpose()?;
                if b.is_some() && b == w {
                    return Err("the same output is both the best and the worst".to_owned());
                }
                Vec::new()
            }
            PreferenceRecord::Choice {
                position, system, ..
            } => {
                let w = at(*position, system)?;
                pair("a choice")?;
                vec![beats(w, 1 - w)]
            }
            PreferenceRecord::Best {
                position, system, ..
            } => {
                let w = at(*position, system)?;
                (0..n).filter(|&o| o != w).map(|o| beats(w, o)).collect()
            }
            PreferenceRecord::Graded { grade, .. } => {
                pair("a graded preference")?;
                vec![(0, 1, PairOutcome::of_grade(*grade))]
            }
            PreferenceRecord::CannotJudge => Vec::new(),
            PreferenceRecord::Tie => (0..n)
                .flat_map(|a| (a + 1..n).map(move |b| (a, b, PairOutcome::Tie)))
                .collect(),
            PreferenceRecord::Rank {
                systems: ranked, ..
            } => {
                let rank: Vec<usize> = systems
                    .iter()
                    .map(|o| {
                        ranked.iter().position(|s| s == o).ok_or_else(|| {
                            format!("the ranking does not list \"{o}\", which was shown")
                        })
                    })
                    .collect::<Result<_, _>>()?;
                (0..n)
                    .flat_map(|a| (a + 1..n).map(move |b| (a, b)))
                    .map(|(a, b)| {
                        let won = if rank[a] < rank[b] {
                            PairOutcome::First
                        } else {
                            PairOutcome::Second
                        };
                        (a, b, won)
                    })
                    .collect()
            }
        };
        if let Some(&(a, b, _)) = pairs.iter().find(|(a, b, _)| systems[*a] == systems[*b]) {
            return Err(format!(
                "outputs {} and {} are both \"{}\": a system cannot be compared with itself",
                a + 1,
                b + 1,
                systems[a]
            ));
        }
        Ok(pairs)
    }

    /// What a preference on the whole tuple chose, by system (`rename` gives a system's id):
    /// the best of three or more, a ranking, a finished best–worst; `None` for a pair's answers
    /// and unfinished ones.
    pub fn chosen(&self, shown: usize, rename: impl Fn(&str) -> String) -> Option<Chosen> {
        match self {
            PreferenceRecord::Best { system, .. } if shown >= 3 => {
                Some(Chosen::Best(rename(system)))
            }
            PreferenceRecord::Rank { systems, .. } => {
                Some(Chosen::Rank(systems.iter().map(|s| rename(s)).collect()))
            }
            PreferenceRecord::BestWorst {
                best: Some(best),
                worst: Some(worst),
            } => Some(Chosen::BestWorst {
                best: rename(&best.system),
                worst: rename(&worst.system),
            }),
            _ => None,
        }
    }
}

/// Between the systems of a tidy file's `shown` and `chosen` columns.
pub const CHOICE_SEPARATOR: &str = "|";

/// What a preference on a whole tuple chose, by system: the analysis's view of the best of
/// three or more, a ranking and best–worst, with its one tidy encoding (a `choice` name and a
/// `chosen` value).
#[derive(Debug, Clone, PartialEq)]
pub enum Chosen {
    /// The best of the outputs shown.
    Best(String),
    /// Every output shown, best first.
    Rank(Vec<String>),
    /// The best and the worst of a tuple (best–worst scaling).
    BestWorst { best: String, worst: String },
}

impl Chosen {
    /// The tidy CSV's `choice` and `chosen` columns: `best` and the system; `rank` and the
    /// systems best first; `best_worst` and `BEST|WORST`.
    pub fn encode(&self) -> (&'static str, String) {
        match self {
            Chosen::Best(s) => ("best", s.clone()),
            Chosen::Rank(order) => ("rank", order.join(CHOICE_SEPARATOR)),
            Chosen::BestWorst { best, worst } => {
                ("best_worst", format!("{best}{CHOICE_SEPARATOR}{worst}"))
            }
        }
    }

    /// Reads [`Chosen::encode`]'s columns back, checked against the systems `shown`.
    ///
    /// # Errors
    /// An unknown `choice`, or a `chosen` that does not fit the systems shown; the message says
    /// what was expected.
    pub fn decode(choice: &str, chosen: &str, shown: &[String]) -> Result<Chosen, String> {
        let split = |text: &str| -> Vec<String> {
            text.split(CHOICE_SEPARATOR)
                .map(|s| s.trim().to_owned())
                .filter(|s| !s.is_empty())
                .collect()
        };
        let listed = || shown.join(", ");
        match choice {
            "best" if shown.iter().any(|s| s == chosen) => Ok(Chosen::Best(chosen.to_owned())),
            "best" => Err(format!(
                "chosen \"{chosen}\" is not one of the systems shown ({})",
                listed()
            )),
            "rank" => {
                let order = split(chosen);
                let (mut a, mut b) = (order.clone(), shown.to_vec());
                a.sort();
                b.sort();
                if a != b {
                    return Err(format!(
                        "the ranking {} does not rank exactly the systems shown ({})",
                        order.join(", "),
                        listed()
                    ));
                }
                Ok(Chosen::Rank(order))
            }
            "best_worst" => match split(chosen).as_slice() {
                [best, worst] if best != worst && shown.contains(best) && shown.contains(worst) => {
                    Ok(Chosen::BestWorst {
                        best: best.clone(),
                        worst: worst.clone(),
                    })
                }
                _ => Err(format!(
                    "chosen \"{chosen}\" is not two different systems shown ({}) as BEST|WORST",
                    listed()
                )),
            },
            other => Err(format!(
                "choice \"{other}\" is not best, rank or best_worst"
            )),
        }
    }

    /// In words, each system as `name` gives it: `x`, `x > y > z`, `best x, worst z`.
    pub fn describe(&self, name: impl Fn(&str) -> String) -> String {
        match self {
            Chosen::Best(system) => name(system),
            Chosen::Rank(order) => order
                .iter()
                .map(|s| name(s))
                .collect::<Vec<_>>()
                .join(" > "),
            Chosen::BestWorst { best, worst } => {
                format!("best {}, worst {}", name(best), name(worst))
            }
        }
    }
}

/// Any stored preference, for property tests of the readers that hold one.
#[cfg(test)]
pub fn strategy() -> impl proptest::strategy::Strategy<Value = Preference> {
    use proptest::prelude::*;
    let at = 0usize..6;
    prop_oneof![
        at.clone()
            .prop_map(|position| Preference::Best { position }),
        at.clone()
            .prop_map(|position| Preference::Choice { position }),
        Just(Preference::Tie),
        prop::collection::vec(at.clone(), 0..4).prop_map(|order| Preference::Rank { order }),
        (-3i32..4).prop_map(|grade| Preference::Graded { grade }),
        Just(Preference::CannotJudge),
        (prop::option::of(at.clone()), prop::option::of(at))
            .prop_map(|(best, worst)| Preference::BestWorst { best, worst }),
    ]
}

/// Kinds of preference.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum RawPreferenceKind {
    /// The single best of the outputs shown.
    Best,
    /// A forced choice between the two outputs of a pair.
    Choice,
    /// A full ranking of the outputs shown, best first.
    Rank,
    /// How much better one output of a pair is than the other, on a scale with "Same" in the
    /// middle.
    Graded,
    /// The best and the worst of a tuple of the outputs (best–worst scaling).
    BestWorst,
}

/// The question of a compiled study's task (the validated [`Asked`]).
pub(in crate::study) fn read_asked(value: &Value) -> Read<Asked> {
    let mut f = fields(value)?;
    let value = Asked {
        kind: f.take("kind", |v| {
            word(
                v,
                &[
                    ("best", RawPreferenceKind::Best),
                    ("choice", RawPreferenceKind::Choice),
                    ("rank", RawPreferenceKind::Rank),
                    ("graded", RawPreferenceKind::Graded),
                    ("best_worst", RawPreferenceKind::BestWorst),
                ],
            )
        }),
        question: f.take("question", string),
        allow_tie: f.take("allow_tie", boolean),
        grades: f.take("grades", strings),
        allow_skip: f.take("allow_skip", boolean),
        explanation: f.take("explanation", requirement),
        tuple_size: f.take("tuple_size", index),
    };
    f.done(value)
}

/// A task's preference: a kind its presentation allows, a tie only in a pair choice, a tuple
/// size only with best–worst (3 to the number of systems).
pub(in crate::study) fn task_preference(
    c: &mut Checker,
    at: &str,
    t: &RawTask,
    systems: usize,
) -> Option<Asked> {
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
        Asked {
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

#[cfg(test)]
#[path = "preference_tests.rs"]
mod tests;
