//! What the page renders from a session: [`view`] gathers it in one value (the trial on screen,
//! what is given in it, progress, every trial's status); and what is missing, target by target.

use std::collections::BTreeMap;

use super::{Answer, Missing, Overlay, Phase, Preference, Session, Survey, Target, keys};
use crate::plan::view::TrialView;
use crate::study::{Question, Requirement, Study};

pub(super) fn survey_questions(study: &Study, survey: Survey) -> &[Question] {
    match survey {
        Survey::Intake => study.intake(),
        Survey::Exit => study.exit(),
    }
}

/// The required answers of a survey that are missing or do not fit.
pub fn survey_missing(study: &Study, session: &Session, survey: Survey) -> Vec<Missing> {
    let given = match survey {
        Survey::Intake => &session.progress.intake,
        Survey::Exit => &session.progress.exit,
    };
    let labels = session.system_labels(study);
    survey_questions(study, survey)
        .iter()
        .filter_map(|q| {
            let target = Target::Survey {
                question: q.id.clone(),
            };
            let reason = match given.get(&q.id) {
                None if q.required => "answer the question".to_owned(),
                None => return None,
                Some(a) => a.check(q, &labels).err()?,
            };
            Some(Missing {
                target,
                label: q.prompt.clone(),
                reason,
            })
        })
        .collect()
}

/// Every answerable target of trial `index`, in page order.
pub fn trial_targets(study: &Study, session: &Session, index: usize) -> Vec<(Target, bool)> {
    let Some(trial) = session.plan.trials.get(index) else {
        return Vec::new();
    };
    let task = &study.design().tasks[trial.task];
    let mut out = Vec::new();
    for position in 0..trial.shown.len() {
        // The errors first: an ESA score is given after them.
        if task.spans.is_some() {
            out.push((Target::Spans { position }, true));
        }
        for d in &task.dimensions {
            let required = study.dimension(d).is_some_and(|d| d.required);
            out.push((
                Target::Rating {
                    position,
                    dimension: d.clone(),
                },
                required,
            ));
        }
        for q in &task.output_questions {
            let required = study
                .rubric()
                .output_questions
                .iter()
                .any(|x| &x.id == q && x.required);
            out.push((
                Target::OutputQuestion {
                    position,
                    question: q.clone(),
                },
                required,
            ));
        }
    }
    if let Some(p) = &task.preference {
        out.push((Target::Preference, true));
        if p.explanation != Requirement::Off {
            out.push((Target::Explanation, p.explanation == Requirement::Required));
        }
    }
    if task.notes != Requirement::Off {
        out.push((Target::Notes, task.notes == Requirement::Required));
    }
    out
}

/// Whether `target` is answered in trial `index`, and if not (or wrongly), why.
fn target_state(study: &Study, session: &Session, index: usize, target: &Target) -> Option<String> {
    let answers = &session.progress.trials[index];
    let trial = &session.plan.trials[index];
    match target {
        Target::Rating {
            position,
            dimension,
        } => {
            if answers.outputs[*position].rated(dimension) {
                None
            } else if study.dimension(dimension).is_some_and(|d| d.scale.slider()) {
                // An untouched slider shows a thumb but holds no score.
                Some("move the slider to give a score".to_owned())
            } else {
                Some("choose a score".to_owned())
            }
        }
        Target::OutputQuestion { position, question } => {
            let q = study
                .rubric()
                .output_questions
                .iter()
                .find(|q| &q.id == question)?;
            match answers.outputs[*position].answers.get(question) {
                None => Some("answer the question".to_owned()),
                Some(a) => a.check(q, &session.system_labels(study)).err(),
            }
        }
        Target::Spans { position } => (!answers.outputs[*position].spans_answered())
            .then(|| "mark the errors, or tick “No errors”".to_owned()),
        Target::Preference => {
            let asked = study.design().tasks[trial.task].preference.as_ref()?;
            asked.missing(answers.preference.as_ref(), trial.shown.len())
        }
        Target::Explanation => answers
            .explanation
            .trim()
            .is_empty()
            .then(|| "explain your choice".to_owned()),
        Target::Notes => answers
            .notes
            .trim()
            .is_empty()
            .then(|| "write a note".to_owned()),
        Target::Flag { .. } | Target::Survey { .. } => None,
    }
}

/// How the page names a target.
pub fn target_label(study: &Study, session: &Session, index: usize, target: &Target) -> String {
    let trial = &session.plan.trials[index];
    let label_at = |p: usize| {
        trial
            .shown
            .get(p)
            .map_or(String::new(), |s| s.label.clone())
    };
    match target {
        Target::Rating {
            position,
            dimension,
        } => {
            let name = study
                .dimension(dimension)
                .map_or(dimension.as_str(), |d| d.label.as_str());
            with_label(name, &label_at(*position))
        }
        Target::OutputQuestion { position, question } => {
            let name = study
                .rubric()
                .output_questions
                .iter()
                .find(|q| &q.id == question)
                .map_or(question.as_str(), |q| q.prompt.as_str());
            with_label(name, &label_at(*position))
        }
        Target::Flag { position } => with_label(
            study.design().tasks[trial.task]
                .flag
                .as_deref()
                .unwrap_or("Flag"),
            &label_at(*position),
        ),
        Target::Spans { position } => with_label("Errors", &label_at(*position)),
        Target::Preference => study.design().tasks[trial.task]
            .preference
            .as_ref()
            .map_or("Preference".to_owned(), |p| p.question.clone()),
        Target::Explanation => "Why this choice?".to_owned(),
        Target::Notes => "Notes".to_owned(),
        Target::Survey { question } => question.clone(),
    }
}

/// "Relevance — Output B", or just "Relevance" for an unlabelled single output.
pub fn with_label(name: &str, label: &str) -> String {
    if label.is_empty() {
        name.to_owned()
    } else {
        format!("{name} — {label}")
    }
}

/// The required answers of trial `index` that are missing.
pub fn trial_missing(study: &Study, session: &Session, index: usize) -> Vec<Missing> {
    trial_targets(study, session, index)
        .into_iter()
        .filter_map(|(target, required)| {
            let reason = target_state(study, session, index, &target)?;
            // An optional question only counts when answered badly, which cannot happen for
            // the ones whose only fault is being empty.
            if !required {
                return None;
            }
            Some(Missing {
                label: target_label(study, session, index, &target),
                target,
                reason,
            })
        })
        .collect()
}

/// The first unanswered target of the current trial after `after` (wrapping to the start), for
/// keyboard answering.
pub fn next_unanswered(study: &Study, session: &Session, after: &Target) -> Option<Target> {
    let index = session.progress.current;
    let targets = trial_targets(study, session, index);
    let start = targets
        .iter()
        .position(|(t, _)| t == after)
        .map_or(0, |i| i + 1);
    let n = targets.len();
    (0..n)
        .map(|k| &targets[(start + k) % n].0)
        .find(|t| {
            matches!(
                t,
                Target::Rating { .. } | Target::OutputQuestion { .. } | Target::Preference
            ) && target_state(study, session, index, t).is_some()
        })
        .cloned()
}

/// Progress as shown: "37 of 75", and the time left.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProgressView {
    /// Trials done.
    pub done: usize,
    /// Trials in the plan.
    pub total: usize,
    /// 1-based number of the trial shown.
    pub current: usize,
    /// Estimated minutes left: the median active time of the trials done, times the trials
    /// left; `None` until a trial is done.
    pub minutes_left: Option<u64>,
}

/// The progress figures.
pub fn progress(session: &Session) -> ProgressView {
    let trials = &session.progress.trials;
    let mut times: Vec<u64> = trials
        .iter()
        .filter(|t| t.done)
        .map(|t| t.active_ms)
        .collect();
    let done = times.len();
    crate::base::order::sort(&mut times);
    let median = match times.len() {
        0 => None,
        n if n % 2 == 1 => Some(times[n / 2] as f64),
        n => Some((times[n / 2 - 1] + times[n / 2]) as f64 / 2.0),
    };
    let left = trials.len() - done;
    ProgressView {
        done,
        total: trials.len(),
        current: session.progress.current + 1,
        minutes_left: median.map(|m| ((m * left as f64) / 60_000.0).ceil() as u64),
    }
}

/// What the annotator has given for one output of a trial.
#[derive(Debug, Clone, PartialEq)]
pub struct OutputState {
    /// The letter key that chooses this output as the preference ("Output B" → 'B'), if a
    /// single key can ([`keys::output_letter`]).
    pub letter: Option<char>,
    /// Scores by dimension id.
    pub ratings: BTreeMap<String, i32>,
    /// The dimensions answered "Cannot judge".
    pub cannot_judge: Vec<String>,
    /// Answers to per-output questions by question id.
    pub answers: BTreeMap<String, Answer>,
    /// Flagged.
    pub flagged: bool,
}

/// What the annotator has given in one trial, as its page shows it.
#[derive(Debug, Clone, PartialEq)]
pub struct TrialState {
    /// Which trial (0-based index into the plan).
    pub index: usize,
    /// Per output, in the order shown.
    pub outputs: Vec<OutputState>,
    /// The preference given.
    pub preference: Option<Preference>,
    /// The preference's explanation.
    pub explanation: String,
    /// The notes.
    pub notes: String,
    /// The first trial, or one whose task differs from the previous trial's: the task's
    /// introduction opens.
    pub task_changed: bool,
}

/// What the given answers of trial `index` look like on its page; `None` past the plan.
pub fn trial_state(study: &Study, session: &Session, index: usize) -> Option<TrialState> {
    let trial = session.plan.trials.get(index)?;
    let answers = session.progress.trials.get(index)?;
    let outputs = trial
        .shown
        .iter()
        .zip(&answers.outputs)
        .map(|(shown, given)| OutputState {
            letter: keys::output_letter(&study.design().tasks[trial.task], &shown.label),
            ratings: given.ratings.clone(),
            cannot_judge: given.cannot_judge.clone(),
            answers: given.answers.clone(),
            flagged: given.flagged,
        })
        .collect();
    Some(TrialState {
        index,
        outputs,
        preference: answers.preference.clone(),
        explanation: answers.explanation.clone(),
        notes: answers.notes.clone(),
        task_changed: session.task_changed(index),
    })
}

/// One line of the list of trials.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TrialStatus {
    /// Not shown yet.
    ToDo,
    /// Shown, not finished.
    Started,
    /// Finished.
    Done,
}

/// Every trial's status, in plan order.
pub fn trial_statuses(session: &Session) -> impl Iterator<Item = TrialStatus> + '_ {
    session
        .progress
        .trials
        .iter()
        .map(|t| match (t.done, t.first_shown) {
            (true, _) => TrialStatus::Done,
            (false, Some(_)) => TrialStatus::Started,
            (false, None) => TrialStatus::ToDo,
        })
}

/// Everything the page renders of a session, in one value.
#[derive(Debug, Clone, PartialEq)]
pub struct SessionView {
    /// The phase.
    pub phase: Phase,
    /// Progress figures.
    pub progress: ProgressView,
    /// The trial on screen, in the trials phase.
    pub trial: Option<TrialView>,
    /// What is given in the trial on screen, in the trials phase.
    pub answers: Option<TrialState>,
    /// Every trial's status, for the list of trials.
    pub trials: Vec<TrialStatus>,
    /// Required answers found missing by the last refused step.
    pub missing: Vec<Missing>,
    /// The open overlay.
    pub overlay: Overlay,
}

/// The view of a session: what the page shows, with no system id anywhere in it.
pub fn view(study: &Study, session: &Session) -> SessionView {
    let in_trials = session.progress.phase == Phase::Trials;
    SessionView {
        phase: session.progress.phase,
        progress: progress(session),
        trial: in_trials.then(|| current_view(study, session)).flatten(),
        answers: in_trials
            .then(|| trial_state(study, session, session.progress.current))
            .flatten(),
        trials: trial_statuses(session).collect(),
        missing: session.missing.clone(),
        overlay: session.overlay,
    }
}

/// The trial on screen, as the rater sees it.
pub fn current_view(study: &Study, session: &Session) -> Option<TrialView> {
    let index = session.progress.current;
    let trial = session.plan.trials.get(index)?;
    Some(TrialView::new(study, &session.plan, index, trial))
}
