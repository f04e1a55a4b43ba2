//! The data of a plan, which a published study carries in `design.plans`: for each slot, the
//! trials in order, each naming its task, its item and the outputs shown under their labels.
//! The planner (`plan::plan`) makes these from a study; a published study stores them, so that
//! the study file owns the type and [`published_plans`] checks the stored ones against the
//! study's tasks, items and outputs.

use std::collections::BTreeMap;

use serde::Serialize;

use super::model::{Presentation, Task, participant_code};
use super::raw::{RawAnnotatorRef, RawPlannedTrial, RawStudy};
use super::validate::Checker;

/// One trial of a plan (researcher-side: it names systems; `plan::view` is what raters see).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Trial {
    /// Index of the task in `design.tasks`.
    pub task: usize,
    /// Index of the item in the study's items.
    pub item: usize,
    /// The outputs in position order (left to right, or top to bottom).
    pub shown: Vec<Shown>,
    /// Whether this trial is an attention check.
    pub check: bool,
}

/// One output shown in a trial.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Shown {
    /// Index of the system in the study's systems.
    pub system: usize,
    /// Its blinded label ("Output A").
    pub label: String,
}

/// The plans of a published study: every trial names a task, an item of that task, and
/// outputs of that item, as many as the task shows, with distinct, non-blank labels; and the
/// study fixes no assignment (the plans do). Returned with indices, as a plan gives them.
pub(super) fn published_plans(
    c: &mut Checker,
    raw: &RawStudy,
    tasks: &[Task],
    plans: &[Vec<RawPlannedTrial>],
) -> Vec<Vec<Trial>> {
    if plans.is_empty() {
        c.error(
            "design.plans",
            "no plan",
            "publish the original study again with juror publish",
        );
    }
    if raw.design.assignment.is_some() {
        c.error(
            "design.assignment",
            "a published study's plans fix who rates what",
            "remove the assignment (juror publish does)",
        );
    }
    plans
        .iter()
        .enumerate()
        .map(|(s, plan)| published_plan(c, raw, tasks, &format!("design.plans[{s}]"), plan))
        .collect()
}

/// The plans of annotators with personal items (`design.personal_plans`), each checked as a
/// slot's plan is, by id as [`participant_code`] keeps it: only in a published study, each for
/// an id that an item's `for` names.
pub(super) fn personal_plans(
    c: &mut Checker,
    raw: &RawStudy,
    tasks: &[Task],
) -> BTreeMap<String, Vec<Trial>> {
    let Some(plans) = &raw.design.personal_plans else {
        return BTreeMap::new();
    };
    if raw.design.plans.is_none() {
        c.error(
            "design.personal_plans",
            "personal plans without the slots' plans",
            "publish the original study again with juror publish",
        );
    }
    let mut out = BTreeMap::new();
    for (id, plan) in plans {
        let at = format!("design.personal_plans.{id}");
        let code = participant_code(id);
        let named = raw.items.iter().any(|item| {
            item.for_annotators
                .iter()
                .any(|a| matches!(a, RawAnnotatorRef::Id(x) if participant_code(x) == code))
        });
        if !named {
            c.error(
                at.clone(),
                format!("no item is for \"{id}\""),
                "publish the original study again with juror publish",
            );
        }
        let trials = published_plan(c, raw, tasks, &at, plan);
        out.insert(code, trials);
    }
    out
}

/// One stored plan, at `at` (`design.plans[2]`), with indices.
fn published_plan(
    c: &mut Checker,
    raw: &RawStudy,
    tasks: &[Task],
    at_plan: &str,
    plan: &[RawPlannedTrial],
) -> Vec<Trial> {
    // Reversed: the first of two equal ids is kept.
    let index: BTreeMap<&str, usize> = crate::base::order::map(
        raw.systems
            .iter()
            .enumerate()
            .map(|(i, id)| (id.as_str(), i))
            .rev(),
    );
    let items: BTreeMap<&str, usize> = crate::base::order::map(
        raw.items
            .iter()
            .enumerate()
            .map(|(i, it)| (it.id.as_str(), i))
            .rev(),
    );
    let mut trials = Vec::with_capacity(plan.len());
    for (t, trial) in plan.iter().enumerate() {
        let at = format!("{at_plan}[{t}]");
        let task = tasks.iter().position(|x| x.id == trial.task);
        let item = items.get(trial.item.as_str()).copied();
        let (Some(task), Some(item)) = (task, item) else {
            c.error(
                at,
                format!("unknown task \"{}\" or item \"{}\"", trial.task, trial.item),
                "publish the original study again with juror publish",
            );
            continue;
        };
        let outputs = &raw.items[item].outputs;
        let width = match tasks[task].presentation {
            Presentation::Single => 1,
            Presentation::Pairs => 2,
            Presentation::SideBySide => tasks[task]
                .tuple_size(outputs.len())
                .unwrap_or(outputs.len()),
        };
        if trial.shown.len() != width {
            c.error(
                format!("{at}.shown"),
                format!("{} outputs where the task shows {width}", trial.shown.len()),
                "publish the original study again with juror publish",
            );
        }
        let mut shown = Vec::with_capacity(trial.shown.len());
        for (p, x) in trial.shown.iter().enumerate() {
            let system = index.get(x.output.as_str()).copied();
            match system.filter(|_| outputs.contains_key(&x.output)) {
                Some(system) => shown.push(Shown {
                    system,
                    label: x.label.clone(),
                }),
                None => c.error(
                    format!("{at}.shown[{p}].output"),
                    format!(
                        "\"{}\" is not an output of item \"{}\"",
                        x.output, trial.item
                    ),
                    "publish the original study again with juror publish",
                ),
            }
            c.not_blank(&format!("{at}.shown[{p}].label"), "label", &x.label);
            if trial.shown[..p].iter().any(|y| y.label == x.label) {
                c.error(
                    format!("{at}.shown[{p}].label"),
                    format!("the label \"{}\" is shown twice", x.label),
                    "give each output of a trial its own label",
                );
            }
        }
        trials.push(Trial {
            task,
            item,
            shown,
            check: false,
        });
    }
    trials
}
