//! Every answer that is not a rating or a preference: per-output questions, flags, notes and
//! reasons, intake and exit surveys. One tidy table (`answers.csv`:
//! `annotator_id,phase,question_id,item_id,system_id,value,rank,source_file,source_at`) holds
//! them all, one row per answer (a multiple choice one row per option chosen, a ranking one row
//! per place), and the report's `answers` summarises them:
//!
//! - per output question, per system: a choice question's counts and shares of each option
//!   with Wilson intervals and, for a two-option question, the paired test across systems on
//!   the (annotator, item) cells that answered it for every system (exact McNemar for two
//!   systems, Cochran's Q for more); a Likert or number question's mean, SD and median; a text
//!   question's count of answers (the texts are in the CSV);
//! - flags: per system, the share of the outputs shown that were flagged, with Wilson intervals;
//! - surveys: per question, the distribution of a choice, the mean, median and SD of a number or
//!   a scale, the count of texts; an exit ranking of the systems (by their blinded letters) is
//!   turned back into systems through the annotator's own letters and reported as rankings
//!   (mean rank, Friedman, Kendall's W).

use std::collections::BTreeMap;

use serde::Serialize;

use super::choices::{RankReport, rank_report};
pub use super::data::{AnswerRow, Phase};
use super::data::{ChoiceRow, Chosen, Ci, RatingRow, share_of};
use crate::session::CANNOT_JUDGE;
use crate::stats::nominal::{cochrans_q, mcnemar_exact};
use crate::stats::paired::describe;
use crate::study::{Question, Study};

/// The answers as a tidy CSV.
pub fn to_csv(rows: &[AnswerRow]) -> String {
    let mut out = crate::base::csv::line(&[
        "annotator_id",
        "phase",
        "question_id",
        "item_id",
        "system_id",
        "value",
        "rank",
        "source_file",
        "source_at",
    ]);
    for r in rows {
        out.push_str(&crate::base::csv::line(&[
            r.annotator.clone(),
            r.phase.name().to_owned(),
            r.question.clone(),
            r.item.clone().unwrap_or_default(),
            r.system.clone().unwrap_or_default(),
            r.value.clone(),
            r.rank.map(|k| k.to_string()).unwrap_or_default(),
            r.source.file.to_string(),
            r.source.at.to_string(),
        ]));
    }
    out
}

// ---------------------------------------------------------------------------------------------
// The report
// ---------------------------------------------------------------------------------------------

/// The answers' summaries.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct AnswersReport {
    /// Per-output questions, in the study's order (else by id).
    pub output_questions: Vec<QuestionSummary>,
    /// Flags per system, when any output was flagged.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub flags: Vec<Share>,
    /// Ratings of flagged outputs that break the flag's rule (`flag.implies`), per annotator.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub flag_rule_violations: Vec<FlagViolation>,
    pub intake: Vec<QuestionSummary>,
    pub exit: Vec<QuestionSummary>,
    /// Notes and reasons written (texts in the answers CSV).
    pub notes: usize,
    pub explanations: usize,
}

/// One question's answers.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct QuestionSummary {
    pub question: String,
    /// The question as the study asks it (its `prompt`), when a study was given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub prompt: Option<String>,
    /// `choice`, `number`, `text` or `rank`.
    pub kind: &'static str,
    /// Annotators (surveys) or answers (output questions) given, "Cannot judge" apart.
    pub answers: usize,
    /// Answers of "Cannot judge" (a question with `allow_skip`): in no count, share or mean
    /// above, never missing. Per system for an output question in the report's `cannot_judge`.
    #[serde(skip_serializing_if = "is_zero")]
    pub cannot_judge: usize,
    /// A choice: each option's count and share, per system for an output question (`system`
    /// empty in a survey).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub options: Vec<OptionShare>,
    /// A number or a scale: per system for an output question.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub numbers: Vec<NumberSummary>,
    /// A two-option output question: the paired test of the first option's share across
    /// systems.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub paired_test: Option<PairedProportions>,
    /// A ranking of the systems (exit survey), turned back into systems.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ranking: Option<RankReport>,
    /// A survey's written answers (a text question of the intake or exit survey), by
    /// annotator; an output question's texts stay in the answers CSV only.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub written: Vec<WrittenAnswer>,
}

/// One annotator's written answer to a survey question.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct WrittenAnswer {
    pub annotator: String,
    pub text: String,
}

/// An option's count among the answers (of a system).
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct OptionShare {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub system: Option<String>,
    pub option: String,
    pub count: u64,
    pub of: u64,
    pub share: Option<f64>,
    pub wilson: Option<Ci>,
}

/// A share of a system's outputs (flags).
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct Share {
    pub system: String,
    pub count: u64,
    pub of: u64,
    pub share: Option<f64>,
    pub wilson: Option<Ci>,
}

/// A rating of a flagged output that is not the score the flag implies.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct FlagViolation {
    pub annotator: String,
    pub item: String,
    pub system: String,
    pub dimension: String,
    pub score: f64,
    pub required: i32,
}

/// A number's summary (of a system).
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct NumberSummary {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub system: Option<String>,
    pub n: usize,
    pub mean: f64,
    pub sd: Option<f64>,
    pub median: f64,
}

/// The paired test of a two-option question's first option across systems.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct PairedProportions {
    /// `mcnemar` (two systems, exact) or `cochran_q`.
    pub test: &'static str,
    /// The option whose share is tested.
    pub option: String,
    /// (annotator, item) cells answered for every system.
    pub blocks: usize,
    pub statistic: Option<f64>,
    pub p_value: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// The report of the answers (with `ratings`, to check the flags' rules); `None` when there
/// are none.
pub fn report(
    rows: &[AnswerRow],
    ratings: &[RatingRow],
    study: Option<&Study>,
) -> Option<AnswersReport> {
    if rows.is_empty() {
        return None;
    }
    let ids_of = |phase: Phase, declared: Option<&[Question]>| -> Vec<String> {
        let mut ids: Vec<String> = declared
            .map(|qs| qs.iter().map(|q| q.id.clone()).collect())
            .unwrap_or_default();
        let mut seen: Vec<String> = rows
            .iter()
            .filter(|r| r.phase == phase && !matches!(r.question.as_str(), "flag"))
            .map(|r| r.question.clone())
            .collect();
        seen.sort();
        seen.dedup();
        for id in seen {
            if !ids.contains(&id) {
                ids.push(id);
            }
        }
        ids
    };
    let question = |phase: Phase, id: &str| -> Option<&Question> {
        let list = match phase {
            Phase::Intake => study.map(Study::intake),
            Phase::Exit => study.map(Study::exit),
            _ => study.map(|s| s.rubric().output_questions.as_slice()),
        };
        list.and_then(|l| l.iter().find(|q| q.id == id))
    };
    let summarise = |phase: Phase, declared: Option<&[Question]>| -> Vec<QuestionSummary> {
        ids_of(phase, declared)
            .into_iter()
            .filter_map(|id| {
                let of: Vec<&AnswerRow> = rows
                    .iter()
                    .filter(|r| r.phase == phase && r.question == id)
                    .collect();
                (!of.is_empty()).then(|| summary(&id, question(phase, &id), &of, phase))
            })
            .collect()
    };
    let flags = flag_shares(rows);
    let count = |q: &str| {
        rows.iter()
            .filter(|r| r.phase == Phase::Trial && r.question == q)
            .count()
    };
    let flag_rule_violations = study.map_or_else(Vec::new, |s| flag_violations(rows, ratings, s));
    let out = AnswersReport {
        flag_rule_violations,
        output_questions: summarise(
            Phase::Output,
            study.map(|s| s.rubric().output_questions.as_slice()),
        ),
        flags,
        intake: summarise(Phase::Intake, study.map(Study::intake)),
        exit: summarise(Phase::Exit, study.map(Study::exit)),
        notes: count("notes"),
        explanations: count("explanation"),
    };
    // Only unflagged outputs: nothing to report (the rows are still in the answers CSV).
    let empty = out.output_questions.is_empty()
        && out.flags.is_empty()
        && out.flag_rule_violations.is_empty()
        && out.intake.is_empty()
        && out.exit.is_empty()
        && out.notes + out.explanations == 0;
    (!empty).then_some(out)
}

/// Every rating of a flagged output that is not the score its task's flag implies.
fn flag_violations(rows: &[AnswerRow], ratings: &[RatingRow], study: &Study) -> Vec<FlagViolation> {
    // (item, dimension) → the score a flag implies, from the tasks that have a rule.
    let mut rule: BTreeMap<(&str, &str), i32> = BTreeMap::new();
    for task in &study.design().tasks {
        let Some(v) = task.flag_implies else { continue };
        for &i in &task.items {
            if let Some(item) = study.items().get(i) {
                for d in &task.dimensions {
                    rule.insert((item.id.as_str(), d.as_str()), v);
                }
            }
        }
    }
    if rule.is_empty() {
        return Vec::new();
    }
    let flagged: std::collections::BTreeSet<(&str, &str, &str)> = rows
        .iter()
        .filter(|r| r.phase == Phase::Output && r.question == "flag" && r.value == "1")
        .filter_map(|r| {
            Some((
                r.annotator.as_str(),
                r.item.as_deref()?,
                r.system.as_deref()?,
            ))
        })
        .collect();
    ratings
        .iter()
        .filter(|r| flagged.contains(&(r.annotator.as_str(), r.item.as_str(), r.system.as_str())))
        .filter_map(|r| {
            let required = *rule.get(&(r.item.as_str(), r.dimension.as_str()))?;
            (r.score != f64::from(required)).then(|| FlagViolation {
                annotator: r.annotator.to_string(),
                item: r.item.to_string(),
                system: r.system.to_string(),
                dimension: r.dimension.to_string(),
                score: r.score,
                required,
            })
        })
        .collect()
}

fn flag_shares(rows: &[AnswerRow]) -> Vec<Share> {
    let mut by: BTreeMap<&str, (u64, u64)> = BTreeMap::new();
    for r in rows
        .iter()
        .filter(|r| r.phase == Phase::Output && r.question == "flag")
    {
        let e = by.entry(r.system.as_deref().unwrap_or("")).or_default();
        e.1 += 1;
        if r.value == "1" {
            e.0 += 1;
        }
    }
    if by.values().all(|(k, _)| *k == 0) {
        return Vec::new();
    }
    by.into_iter()
        .map(|(system, (k, n))| {
            let (share, wilson) = share_of(k, n);
            Share {
                system: system.to_owned(),
                count: k,
                of: n,
                share,
                wilson,
            }
        })
        .collect()
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

fn summary(
    id: &str,
    question: Option<&Question>,
    rows: &[&AnswerRow],
    phase: Phase,
) -> QuestionSummary {
    let per_system = phase == Phase::Output;
    // "Cannot judge" is an answer of its own: counted, in no option, share or mean.
    let (skips, given): (Vec<&AnswerRow>, Vec<&AnswerRow>) =
        rows.iter().partition(|r| r.value == CANNOT_JUDGE);
    let rows = &given[..];
    let kind = match question.map(|q| q.kind.family()) {
        Some(family) => family,
        None if rows.iter().any(|r| r.rank.is_some()) => "rank",
        None if rows.iter().all(|r| r.value.parse::<f64>().is_ok()) => "number",
        None => "choice",
    };
    let mut out = QuestionSummary {
        question: id.to_owned(),
        prompt: question.map(|q| q.prompt.clone()),
        kind,
        answers: 0,
        cannot_judge: skips.len(),
        options: Vec::new(),
        numbers: Vec::new(),
        paired_test: None,
        ranking: None,
        written: Vec::new(),
    };
    // Answers: distinct (annotator, item, system) answering.
    let mut who: Vec<(&str, Option<&str>, Option<&str>)> = rows
        .iter()
        .map(|r| (r.annotator.as_str(), r.item.as_deref(), r.system.as_deref()))
        .collect();
    who.sort_unstable();
    who.dedup();
    out.answers = who.len();
    let groups: BTreeMap<Option<&str>, Vec<&&AnswerRow>> = {
        let mut g: BTreeMap<Option<&str>, Vec<&&AnswerRow>> = BTreeMap::new();
        for r in rows {
            g.entry(if per_system {
                r.system.as_deref()
            } else {
                None
            })
            .or_default()
            .push(r);
        }
        g
    };
    match kind {
        "choice" => {
            let declared: Vec<String> = question
                .and_then(|q| q.kind.choice_options())
                .map_or_else(Vec::new, <[String]>::to_vec);
            let mut options = declared.clone();
            for r in rows {
                if !options.contains(&r.value) {
                    options.push(r.value.clone());
                }
            }
            for (system, list) in &groups {
                let mut answered: Vec<(&str, Option<&str>)> = list
                    .iter()
                    .map(|r| (r.annotator.as_str(), r.item.as_deref()))
                    .collect();
                answered.sort_unstable();
                answered.dedup();
                let n = answered.len() as u64;
                for option in &options {
                    let k = list.iter().filter(|r| &r.value == option).count() as u64;
                    let (share, wilson) = share_of(k, n);
                    out.options.push(OptionShare {
                        system: system.map(str::to_owned),
                        option: option.clone(),
                        count: k,
                        of: n,
                        share,
                        wilson,
                    });
                }
            }
            let single = !question.is_some_and(|q| q.kind.multiple());
            if per_system && single && options.len() == 2 {
                out.paired_test = Some(paired_proportions(rows, &options[0]));
            }
        }
        "number" => {
            for (system, list) in &groups {
                let xs: Vec<f64> = list.iter().filter_map(|r| r.value.parse().ok()).collect();
                if xs.is_empty() {
                    continue;
                }
                let d = describe(&xs).ok();
                out.numbers.push(NumberSummary {
                    system: system.map(str::to_owned),
                    n: xs.len(),
                    mean: xs.iter().sum::<f64>() / xs.len() as f64,
                    sd: d.map(|d| d.sd),
                    median: d.map_or(xs[0], |d| d.median),
                });
            }
        }
        "rank" => {
            let systems = question.is_some_and(|q| q.kind.ranks_systems())
                || rows.iter().all(|r| r.system.is_some());
            // One ranking per annotator (and item, for an output question).
            let mut rankings: BTreeMap<Block<'_>, Vec<(usize, String)>> = BTreeMap::new();
            for r in rows {
                let name = if systems {
                    r.system.clone().unwrap_or_else(|| r.value.clone())
                } else {
                    r.value.clone()
                };
                rankings
                    .entry((r.annotator.as_str(), r.item.as_deref()))
                    .or_default()
                    .push((r.rank.unwrap_or(0), name));
            }
            let choice_rows: Vec<ChoiceRow> = rankings
                .into_iter()
                .map(|((annotator, item), mut places)| {
                    places.sort();
                    let order: Vec<String> = places.into_iter().map(|(_, s)| s).collect();
                    ChoiceRow {
                        source: rows[0].source.clone(),
                        item: item.unwrap_or(id).to_owned(),
                        annotator: annotator.to_owned(),
                        shown: order.clone(),
                        kind: Chosen::Rank(order),
                    }
                })
                .collect();
            let refs: Vec<&ChoiceRow> = choice_rows.iter().collect();
            out.ranking = Some(rank_report(&refs));
        }
        "text" if !per_system => {
            out.written = rows
                .iter()
                .filter(|r| !r.value.trim().is_empty())
                .map(|r| WrittenAnswer {
                    annotator: r.annotator.clone(),
                    text: r.value.clone(),
                })
                .collect();
        }
        _ => {}
    }
    out
}

/// A block of answers: (annotator, item).
type Block<'a> = (&'a str, Option<&'a str>);

/// The paired test of `option`'s share across systems, blocks = (annotator, item).
fn paired_proportions(rows: &[&AnswerRow], option: &str) -> PairedProportions {
    let mut systems: Vec<&str> = rows.iter().filter_map(|r| r.system.as_deref()).collect();
    systems.sort_unstable();
    systems.dedup();
    let mut cells: BTreeMap<(&str, Option<&str>), BTreeMap<&str, bool>> = BTreeMap::new();
    for r in rows {
        if let Some(s) = r.system.as_deref() {
            cells
                .entry((r.annotator.as_str(), r.item.as_deref()))
                .or_default()
                .insert(s, r.value == option);
        }
    }
    let table: Vec<Vec<bool>> = cells
        .values()
        .filter(|c| c.len() == systems.len())
        .map(|c| {
            systems
                .iter()
                .map(|s| c.get(s).copied().unwrap_or(false))
                .collect()
        })
        .collect();
    let mut out = PairedProportions {
        test: if systems.len() == 2 {
            "mcnemar"
        } else {
            "cochran_q"
        },
        option: option.to_owned(),
        blocks: table.len(),
        statistic: None,
        p_value: None,
        note: None,
    };
    if systems.len() < 2 {
        out.note = Some("one system answered: nothing to compare".to_owned());
        return out;
    }
    if systems.len() == 2 {
        let b = table.iter().filter(|r| r[0] && !r[1]).count() as u64;
        let c = table.iter().filter(|r| !r[0] && r[1]).count() as u64;
        out.statistic = Some(b.min(c) as f64);
        match mcnemar_exact(b, c) {
            Ok(p) => out.p_value = Some(p),
            Err(e) => out.note = Some(e.to_string()),
        }
    } else {
        match cochrans_q(&table) {
            Ok(q) => {
                out.statistic = Some(q.statistic);
                out.p_value = Some(q.p_value);
            }
            Err(e) => out.note = Some(e.to_string()),
        }
    }
    out
}
