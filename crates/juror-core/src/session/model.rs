//! The session's model: where the annotator is, what has been given ([`Progress`]), and the
//! [`Session`] that holds both with its plan and what is on screen, read through its accessors.

use std::collections::BTreeMap;

use serde::Serialize;

use super::update::asks;
use super::{Answer, OutputAnswers, Target, TrialAnswers};
use crate::plan::view::shown_text;
use crate::plan::{Annotator, Plan, plan};
use crate::study::Study;

/// Where the annotator is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// The study's welcome page.
    Welcome,
    /// The consent form.
    Consent,
    /// Consent was declined: nothing is recorded.
    Declined,
    /// The guidelines and rubric.
    Instructions,
    /// The intake survey.
    Intake,
    /// The trials.
    Trials,
    /// The exit survey.
    Exit,
    /// Finished: download the ratings.
    Done,
    /// An intake answer screened the participant out (`screen_out`): the study ends before
    /// the trials, with thanks and the platform's screened-out code.
    Screened,
}

/// Which survey.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Survey {
    /// Before the trials.
    Intake,
    /// After the trials.
    Exit,
}

/// The persisted part of a session: everything given, nothing derivable.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Progress {
    /// Who.
    pub annotator: Annotator,
    /// Where.
    pub phase: Phase,
    /// The trial shown (index into the plan).
    pub current: usize,
    /// When consent was given.
    #[serde(default)]
    pub consent_at: Option<f64>,
    /// Intake answers by question id.
    #[serde(default)]
    pub intake: BTreeMap<String, Answer>,
    /// Exit answers by question id.
    #[serde(default)]
    pub exit: BTreeMap<String, Answer>,
    /// One entry per trial of the plan.
    pub trials: Vec<TrialAnswers>,
    /// When the annotator started.
    #[serde(default)]
    pub started_at: Option<f64>,
    /// When the annotator finished.
    #[serde(default)]
    pub finished_at: Option<f64>,
    /// The hybrid logical clock: the latest stamp given or seen ([`Progress::tick`]).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub clock: u64,
    /// When each survey answer was last given or cleared, keyed `intake/<question>` or
    /// `exit/<question>`.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub stamps: BTreeMap<String, u64>,
    /// The clock ([`Progress::clock`]) when the finished ratings file was last saved (downloaded,
    /// copied or shared) or sent to the study's service ([`Msg::FileSaved`]): the file holds
    /// every answer while no edit has moved the clock since ([`Session::file_saved`]).
    ///
    /// [`Msg::FileSaved`]: super::Msg::FileSaved
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file_saved: Option<u64>,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// Overlays that can be open over any phase.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Overlay {
    /// Nothing open.
    #[default]
    None,
    /// The rubric.
    Rubric,
    /// Keyboard shortcuts.
    Shortcuts,
    /// The list of trials.
    TrialList,
}

/// A required answer not given yet.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Missing {
    /// What.
    pub target: Target,
    /// How the page names it ("Relevance — Output B").
    pub label: String,
    /// Why it does not count yet ("choose exactly 3").
    pub reason: String,
}

/// A session: the plan, the progress, and what is on screen.
#[derive(Debug, Clone, PartialEq)]
pub struct Session {
    /// The annotator's plan (recomputed from the study, never stored).
    pub plan: Plan,
    /// What has been given.
    pub progress: Progress,
    /// Whether the tab is visible.
    pub visible: bool,
    /// Since when the current trial has been on screen and visible.
    pub shown_since: Option<f64>,
    /// Required answers found missing by the last refused step.
    pub missing: Vec<Missing>,
    /// The open overlay.
    pub overlay: Overlay,
}

impl Session {
    /// A fresh session, on the plan of the current format.
    pub fn new(study: &Study, annotator: Annotator) -> Session {
        let plan = plan(study, &annotator);
        Session::on(plan)
    }

    /// A fresh session on `plan` (its annotator's).
    pub(super) fn on(plan: Plan) -> Session {
        let annotator = plan.annotator.clone();
        let trials = plan
            .trials
            .iter()
            .map(|t| TrialAnswers {
                outputs: vec![OutputAnswers::default(); t.shown.len()],
                ..TrialAnswers::default()
            })
            .collect();
        Session {
            progress: Progress {
                annotator,
                phase: Phase::Welcome,
                current: 0,
                consent_at: None,
                intake: BTreeMap::new(),
                exit: BTreeMap::new(),
                trials,
                started_at: None,
                finished_at: None,
                clock: 0,
                stamps: BTreeMap::new(),
                file_saved: None,
            },
            plan,
            visible: true,
            shown_since: None,
            missing: Vec::new(),
            overlay: Overlay::None,
        }
    }

    /// A session continued from saved progress.
    ///
    /// # Errors
    /// When the progress does not fit the study's plan for its annotator (a different study or
    /// plan version): the progress is then not used.
    pub fn resume(study: &Study, progress: Progress, now: f64) -> Result<Session, String> {
        let plan = plan(study, &progress.annotator);
        Session::resume_on(study, plan, progress, now)
    }

    /// A session continued from saved progress on a given plan of its annotator (one of an
    /// older plan format, [`crate::plan::following`]).
    ///
    /// # Errors
    /// When the progress does not fit the plan.
    pub fn resume_on(
        study: &Study,
        plan: Plan,
        progress: Progress,
        now: f64,
    ) -> Result<Session, String> {
        let mut session = Session::on(plan);
        fits(study, &session.plan, &progress)?;
        session.progress = progress;
        if session.progress.phase == Phase::Trials {
            session.shown_since = Some(now);
            session.mark_shown(now);
        }
        Ok(session)
    }

    fn mark_shown(&mut self, now: f64) {
        if let Some(t) = self.progress.trials.get_mut(self.progress.current)
            && t.first_shown.is_none()
        {
            t.first_shown = Some(now);
        }
    }

    /// Adds the time since the trial was last shown to its active time.
    pub(super) fn bank_time(&mut self, now: f64) {
        if let Some(since) = self.shown_since.take() {
            let ms = (now - since).max(0.0);
            if let Some(t) = self.progress.trials.get_mut(self.progress.current) {
                t.active_ms = t.active_ms.saturating_add(ms as u64);
            }
        }
    }

    pub(super) fn show_trial(&mut self, index: usize, now: f64) {
        self.bank_time(now);
        self.progress.current = index;
        self.missing.clear();
        if self.visible {
            self.shown_since = Some(now);
        }
        self.mark_shown(now);
    }

    /// Where the annotator is.
    pub fn phase(&self) -> Phase {
        self.progress.phase
    }

    /// The index (0-based, into the plan) of the trial on screen, or last on screen.
    pub fn current(&self) -> usize {
        self.progress.current
    }

    /// Who.
    pub fn annotator(&self) -> &Annotator {
        &self.progress.annotator
    }

    /// The annotator's plan (blinded in what the page shows: see [`TrialView`]).
    ///
    /// [`TrialView`]: crate::plan::view::TrialView
    pub fn plan(&self) -> &Plan {
        &self.plan
    }

    /// The open overlay.
    pub fn overlay(&self) -> Overlay {
        self.overlay
    }

    /// Required answers found missing by the last refused step.
    pub fn missing(&self) -> &[Missing] {
        &self.missing
    }

    /// Whether the finished ratings file has been saved or sent with every answer given
    /// ([`Msg::FileSaved`], and no answer changed since): what the finish page's debriefing,
    /// completion code and "Remove my answers" wait for.
    ///
    /// [`Msg::FileSaved`]: super::Msg::FileSaved
    pub fn file_saved(&self) -> bool {
        self.progress.phase == Phase::Done && self.progress.file_saved == Some(self.progress.clock)
    }

    /// Trials done.
    pub fn done(&self) -> usize {
        self.progress.trials.iter().filter(|t| t.done).count()
    }

    /// What is given in trial `index` (0-based), if the plan has it.
    pub fn answers(&self, index: usize) -> Option<&TrialAnswers> {
        self.progress.trials.get(index)
    }

    /// Whether trial `index` is the first, or its task differs from the previous trial's (its
    /// introduction then opens).
    pub fn task_changed(&self, index: usize) -> bool {
        let task = |i: usize| self.plan.trials.get(i).map(|t| t.task);
        index == 0 || task(index - 1) != task(index)
    }

    /// The answer given to a survey question, if any.
    pub fn survey_answer(&self, survey: Survey, question: &str) -> Option<&Answer> {
        match survey {
            Survey::Intake => self.progress.intake.get(question),
            Survey::Exit => self.progress.exit.get(question),
        }
    }

    /// Labels of the systems for a `rank` question over systems (per-annotator labels, in letter
    /// order).
    pub fn system_labels(&self, study: &Study) -> Vec<String> {
        // Each system has one letter, and the letters are the first n: in letter order, they
        // are "A" to the n-th, whichever system has which.
        (0..study.system_count())
            .map(|l| study.design().system_label(l))
            .collect()
    }

    /// How many outputs the current trial shows.
    pub(super) fn shown(&self) -> usize {
        self.plan.trials[self.progress.current].shown.len()
    }

    pub(super) fn trial_answers(&mut self) -> Option<&mut TrialAnswers> {
        self.progress.trials.get_mut(self.progress.current)
    }
}

/// Whether saved `progress` fits `plan`, the study's plan for its annotator, trial by trial: as
/// many trials, each with as many outputs; every preference names one of the trial's outputs,
/// every score is on one of the task's dimensions and scales and every answer for one of its
/// questions; the trial on screen is in the plan. What [`Session::resume`] and the taking in of
/// another tab's save (`open::absorb`) check, so that no answer lands where it does not fit.
///
/// # Errors
/// Why it does not fit.
pub fn fits(study: &Study, plan: &Plan, progress: &Progress) -> Result<(), String> {
    if progress.trials.len() != plan.trials.len() {
        return Err(format!(
            "the saved progress has {} trials but this study's plan has {}",
            progress.trials.len(),
            plan.trials.len()
        ));
    }
    for (i, (saved, trial)) in progress.trials.iter().zip(&plan.trials).enumerate() {
        if saved.outputs.len() != trial.shown.len() {
            return Err(format!("trial {} does not match this study's plan", i + 1));
        }
        // A preference names positions: each must be one of the trial's.
        let fits = saved
            .preference
            .as_ref()
            .is_none_or(|p| p.names_shown(trial.shown.len()));
        if !fits {
            return Err(format!(
                "trial {}'s saved preference names an output the trial does not show",
                i + 1
            ));
        }
        // Every score is for one of the task's dimensions, on its scale, and every answer
        // for one of its questions: nothing is attached where it does not fit.
        let task = &study.design().tasks[trial.task];
        for (position, o) in saved.outputs.iter().enumerate() {
            let length = shown_text(study, trial, position).chars().count();
            let spans_fit = match &task.spans {
                None => o.spans.is_empty() && !o.no_errors,
                Some(spans) => {
                    o.spans.iter().all(|s| s.check(spans, length).is_ok())
                        && o.spans.iter().enumerate().all(|(j, s)| {
                            o.spans[..j]
                                .iter()
                                .all(|t| !t.overlaps(s) && t.key() != s.key())
                        })
                }
            };
            if !spans_fit {
                return Err(format!(
                    "trial {} holds an error span this study's task does not ask for or that does not fit its output",
                    i + 1
                ));
            }
            let scores_fit = o.ratings.iter().all(|(d, v)| {
                task.dimensions.contains(d)
                    && study.dimension(d).is_some_and(|dim| dim.scale.contains(*v))
            });
            let skips_fit = o.cannot_judge.iter().all(|d| {
                task.dimensions.contains(d)
                    && study.dimension(d).is_some_and(|dim| dim.allow_skip)
                    && !o.ratings.contains_key(d)
            });
            let answers_fit = o.answers.iter().all(|(q, a)| {
                task.output_questions.contains(q)
                    && asks(&study.rubric().output_questions, q, Some(a))
            }) && skips_fit;
            if !scores_fit || !answers_fit {
                return Err(format!(
                    "trial {} holds a score or an answer this study's task does not ask for",
                    i + 1
                ));
            }
        }
    }
    if progress.current >= plan.trials.len().max(1) {
        return Err("the saved trial is past the end of the plan".to_owned());
    }
    Ok(())
}
