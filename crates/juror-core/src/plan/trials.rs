//! The trials of a study as an automatic judge is given them (`juror trials`): each trial
//! exactly as a person sees it (the prompt, the outputs in the order shown under their blinded
//! labels, the dimensions with their scales, the preference asked), one JSON object per line,
//! with a stable id by which the judge's verdict is read back ([`TrialId`], [`resolve`]). Like
//! [`super::view`], nothing here has a field a system id could go into.
//!
//! A trial's id is `SLOT-NUMBER` (`3-12`: slot 3, its 12th trial, as the plan numbers them).
//! With both orders, a trial of two outputs is given a second time with the outputs the other
//! way round, as `3-12-swapped`: with per-trial labels the labels follow the positions (the
//! output shown first is "A"), with per-annotator labels each output keeps its letter.
//! Attention-check trials are left out: they are written for people.

use serde::Serialize;

use super::{Plan, Planner, Trial};
use crate::study::{LabelScheme, MediaKind, PreferenceKind, Study};

/// A trial's id: its slot, its number in the slot's plan (from 1), and whether its two outputs
/// are shown the other way round.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TrialId {
    pub slot: u32,
    pub number: usize,
    pub swapped: bool,
}

impl TrialId {
    /// `3-12` or `3-12-swapped`; `None` for anything else.
    pub fn parse(text: &str) -> Option<TrialId> {
        let text = text.trim();
        let (rest, swapped) = match text.strip_suffix("-swapped") {
            Some(rest) => (rest, true),
            None => (text, false),
        };
        let (slot, number) = rest.split_once('-')?;
        let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
        if !digits(slot) || !digits(number) {
            return None;
        }
        Some(TrialId {
            slot: slot.parse().ok().filter(|&s| s >= 1)?,
            number: number.parse().ok().filter(|&n| n >= 1)?,
            swapped,
        })
    }
}

impl std::fmt::Display for TrialId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}-{}", self.slot, self.number)?;
        if self.swapped {
            f.write_str("-swapped")?;
        }
        Ok(())
    }
}

/// A trial as the analysis reads a verdict on it: the item, the systems in the plan's order,
/// the labels in the order shown, and what it asks.
#[derive(Debug, Clone, PartialEq)]
pub struct Resolved {
    /// The item's id.
    pub item: String,
    /// The systems (indices into the study's systems) in the order the plan shows them.
    pub systems: Vec<usize>,
    /// The outputs shown the other way round (two outputs only).
    pub swapped: bool,
    /// The labels, in the order shown.
    shown_labels: Vec<String>,
    /// The dimensions the task rates.
    pub dimensions: Vec<String>,
    /// The preference the task asks for, if any.
    pub kind: Option<PreferenceKind>,
    label_format: String,
}

impl Resolved {
    /// Where an output was shown (from 0), given its place in the plan's order.
    pub fn shown_at(&self, plan_position: usize) -> usize {
        if self.swapped {
            1 - plan_position.min(1)
        } else {
            plan_position
        }
    }

    /// The labels, in the order shown.
    pub fn labels(&self) -> Vec<String> {
        self.shown_labels.clone()
    }

    /// The place in the plan's order of the output labelled `given`: the label as the trial
    /// gives it (`Output A`), or its letter (`A`, written into the study's label format).
    pub fn position(&self, given: &str) -> Option<usize> {
        let given = given.trim();
        let full = self.label_format.replacen("{}", given, 1);
        let shown = self
            .shown_labels
            .iter()
            .position(|l| l == given)
            .or_else(|| self.shown_labels.iter().position(|l| *l == full))?;
        Some(self.shown_at(shown))
    }
}

/// The trial `id` names in `plan` (the plan of its slot), or why there is none.
pub fn resolve(study: &Study, plan: &Plan, id: &TrialId) -> Result<Resolved, String> {
    if let Some(slots) = super::slots(study)
        && id.slot > slots
    {
        return Err(format!(
            "trial \"{id}\": the study has {slots} slot(s), not {}; give a trial of `juror \
             trials` for this study",
            id.slot
        ));
    }
    let trial = plan
        .trials
        .get(id.number - 1)
        .filter(|t| !t.check)
        .ok_or_else(|| {
            format!(
                "trial \"{id}\": slot {} has no trial {} for a judge ({} trial(s), attention \
                 checks left out); give a trial of `juror trials` for this study",
                id.slot,
                id.number,
                plan.trials.len()
            )
        })?;
    if id.swapped && trial.shown.len() != 2 {
        return Err(format!(
            "trial \"{id}\": only a trial of two outputs has a swapped order"
        ));
    }
    let task = &study.design().tasks[trial.task];
    Ok(Resolved {
        item: study.items()[trial.item].id.clone(),
        systems: trial.shown.iter().map(|s| s.system).collect(),
        swapped: id.swapped,
        shown_labels: labels_shown(study, trial, id.swapped),
        dimensions: task.dimensions.clone(),
        kind: task.preference.as_ref().map(|p| p.kind),
        label_format: task.label_format.clone(),
    })
}

/// The labels in the order shown: the plan's, or for the swapped order, by position with
/// per-trial labels and each output's own with per-annotator labels.
fn labels_shown(study: &Study, trial: &Trial, swapped: bool) -> Vec<String> {
    let labels: Vec<String> = trial.shown.iter().map(|s| s.label.clone()).collect();
    if !swapped {
        return labels;
    }
    match study.design().tasks[trial.task].labels {
        LabelScheme::PerTrial => labels,
        LabelScheme::PerAnnotator => labels.into_iter().rev().collect(),
    }
}

/// One trial as a judge is given it: one line of `juror trials`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct JudgeTrial {
    /// The id a verdict names (`3-12`, `3-12-swapped`).
    pub trial: String,
    pub slot: u32,
    /// The trial's number in the slot's plan, from 1.
    pub number: usize,
    /// The two outputs are shown the other way round from the plan.
    pub swapped: bool,
    pub task_id: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub task_title: Option<String>,
    /// The task's instructions (Markdown).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub instructions: Option<String>,
    pub item_id: String,
    /// The prompt (Markdown, as the study gives it).
    pub prompt: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub context: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub media: Option<JudgeMedia>,
    /// The outputs in the order shown.
    pub outputs: Vec<JudgeOutput>,
    /// The dimensions each output is rated on.
    pub dimensions: Vec<JudgeDimension>,
    /// The preference asked for, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub preference: Option<JudgePreference>,
}

/// An output under its label.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct JudgeOutput {
    pub label: String,
    /// The output (Markdown, as the study gives it).
    pub text: String,
}

/// Media as the study gives it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct JudgeMedia {
    pub kind: MediaKind,
    /// Relative to the study file.
    pub src: String,
    pub alt: String,
}

/// A dimension and its scale.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct JudgeDimension {
    pub id: String,
    pub label: String,
    pub question: String,
    pub scale: Vec<JudgePoint>,
}

/// A point of a scale.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct JudgePoint {
    pub value: i32,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
}

/// The preference question.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct JudgePreference {
    /// `choice` (one of two), `best` (the best of those shown) or `rank` (all, best first).
    pub kind: PreferenceKind,
    pub question: String,
    /// The labels to choose from, in the order shown.
    pub labels: Vec<String>,
    /// Whether `tie` may be answered.
    pub allow_tie: bool,
}

/// The slots `juror trials` writes: every slot of the study, or one counterbalancing period
/// ([`super::period`]) when it has no fixed number.
pub fn all_slots(study: &Study) -> Vec<u32> {
    (1..=super::slots(study).unwrap_or_else(|| super::period(study))).collect()
}

/// Every trial of `slots` for a judge, in plan order, attention checks left out, and each
/// judgement once: a trial that shows the same outputs of the same item in the same task as one
/// already written (another slot's, in another order) is left out, so that a judge's verdicts
/// are never duplicates of each other. With `both_orders`, each trial of two outputs is
/// followed by its swapped twin.
pub fn judge_trials(study: &Study, slots: &[u32], both_orders: bool) -> Vec<JudgeTrial> {
    let planner = Planner::new(study);
    let mut out = Vec::new();
    let mut written = std::collections::BTreeSet::new();
    for &slot in slots {
        let plan = planner.plan(&super::Annotator::slot(slot));
        for (index, trial) in plan.trials.iter().enumerate() {
            let mut shown: Vec<usize> = trial.shown.iter().map(|s| s.system).collect();
            shown.sort_unstable();
            if trial.check || !written.insert((trial.task, trial.item, shown)) {
                continue;
            }
            let id = TrialId {
                slot,
                number: index + 1,
                swapped: false,
            };
            out.push(judge_trial(study, trial, id));
            if both_orders && trial.shown.len() == 2 {
                out.push(judge_trial(
                    study,
                    trial,
                    TrialId {
                        swapped: true,
                        ..id
                    },
                ));
            }
        }
    }
    out
}

/// One trial for a judge.
fn judge_trial(study: &Study, trial: &Trial, id: TrialId) -> JudgeTrial {
    let task = &study.design().tasks[trial.task];
    let item = &study.items()[trial.item];
    let labels = labels_shown(study, trial, id.swapped);
    let mut systems: Vec<usize> = trial.shown.iter().map(|s| s.system).collect();
    if id.swapped {
        systems.reverse();
    }
    let outputs: Vec<JudgeOutput> = systems
        .iter()
        .zip(&labels)
        .map(|(&s, label)| JudgeOutput {
            label: label.clone(),
            text: study
                .systems()
                .get(s)
                .and_then(|system| item.outputs.get(system))
                .map(|t| t.plain().into_owned())
                .unwrap_or_default(),
        })
        .collect();
    JudgeTrial {
        trial: id.to_string(),
        slot: id.slot,
        number: id.number,
        swapped: id.swapped,
        task_id: task.id.clone(),
        task_title: task.title.clone(),
        instructions: task.instructions.as_ref().map(|t| t.plain().into_owned()),
        item_id: item.id.clone(),
        prompt: item.prompt.plain().into_owned(),
        context: item.context.as_ref().map(|t| t.plain().into_owned()),
        media: item.media.as_ref().map(|m| JudgeMedia {
            kind: m.kind,
            src: m.src.clone(),
            alt: m.alt.clone(),
        }),
        outputs,
        dimensions: task
            .dimensions
            .iter()
            .filter_map(|d| study.dimension(d))
            .map(|d| JudgeDimension {
                id: d.id.clone(),
                label: d.label.clone(),
                question: d.question.clone(),
                scale: d
                    .scale
                    .points
                    .iter()
                    .map(|p| JudgePoint {
                        value: p.value,
                        label: p.label.clone(),
                        description: p.description.clone(),
                    })
                    .collect(),
            })
            .collect(),
        preference: task.preference.as_ref().map(|p| JudgePreference {
            kind: p.kind,
            question: p.question.clone(),
            labels,
            allow_tie: p.allow_tie,
        }),
    }
}

/// The trials as JSON Lines: one object per line, each line ending in a newline.
pub fn to_jsonl(trials: &[JudgeTrial]) -> String {
    let mut out = String::new();
    for trial in trials {
        if let Ok(line) = serde_json::to_string(trial) {
            out.push_str(&line);
            out.push('\n');
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trial_ids_read_back_as_written() {
        for text in ["3-12", "1-1-swapped", "10-200"] {
            let id = TrialId::parse(text);
            assert_eq!(id.map(|i| i.to_string()).as_deref(), Some(text));
        }
        for bad in [
            "",
            "3",
            "3-",
            "-12",
            "0-1",
            "1-0",
            "a-1",
            "1-2-3",
            "1-2-Swapped",
            "+1-2",
        ] {
            assert_eq!(TrialId::parse(bad), None, "{bad}");
        }
    }
}
