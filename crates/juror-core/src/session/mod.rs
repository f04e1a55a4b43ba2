//! The annotator's session: one reducer owns it.
//!
//! `update(study, session, msg, now)` is the only way the session changes; it returns the
//! commands the shell must carry out (save, save soon, move focus, scroll). `view(study,
//! session)` gathers what the page renders in one value: the trial as the rater sees it, what is
//! given in it (`trial_state`), progress, every trial's status, what is missing. The pages read
//! the same through `current_view`, `progress`, `trial_statuses` and the `Session` accessors
//! (`phase`, `answers`, `missing`, ...), never its fields. Clocks and storage stay in the shell, but
//! the decisions about storage do not: `open` says what to make of stored answers (resume, set
//! aside, hold saves, take in another tab's save, restore a file) and its results reach the
//! session as messages ([`Msg::Absorb`], [`Msg::Restore`]); `keys` turns a key into its message.
//! Every message comes with `now` (milliseconds since the Unix epoch), so every journey can be
//! replayed natively.
//!
//! Phases run welcome → consent (when the study has one; declining ends it) → instructions →
//! intake survey (when there is one) → trials → exit survey (when there is one) → done.

pub mod answers;
pub mod completion;
pub mod durability;
pub mod from_json;
pub mod keys;
pub mod open;
pub mod ratings;
pub mod sheet;
pub mod span_text;
pub mod stamps;
pub mod store;
pub mod submit;
pub mod time;

use std::collections::BTreeMap;

use serde::Serialize;

pub use answers::{
    Answer, CANNOT_JUDGE, ErrorSpan, OutputAnswers, Preference, TrialAnswers, grade_name,
    parse_grade, place_span,
};
use stamps::Field;

use crate::plan::view::{TrialView, shown_text};
use crate::plan::{Annotator, Plan, plan};
use crate::study::{PreferenceKind, Question, Requirement, Study};

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

/// A question on screen that can be answered, focused, or missing.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum Target {
    /// A dimension of the output at a position.
    Rating {
        /// Position.
        position: usize,
        /// Dimension id.
        dimension: String,
    },
    /// A per-output question.
    OutputQuestion {
        /// Position.
        position: usize,
        /// Question id.
        question: String,
    },
    /// The errors of the output at a position (a span marked, or "No errors").
    Spans {
        /// Position.
        position: usize,
    },
    /// The preference.
    Preference,
    /// The preference's explanation.
    Explanation,
    /// The notes.
    Notes,
    /// A survey question.
    Survey {
        /// Question id.
        question: String,
    },
}

impl Target {
    /// The id of the element to focus for this target (stable, free of system ids).
    pub fn dom_id(&self) -> String {
        let clean = |s: &str| -> String {
            s.chars()
                .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
                .collect()
        };
        match self {
            Target::Rating {
                position,
                dimension,
            } => format!("q-rate-{position}-{}", clean(dimension)),
            Target::OutputQuestion { position, question } => {
                format!("q-out-{position}-{}", clean(question))
            }
            Target::Spans { position } => format!("q-spans-{position}"),
            Target::Preference => "q-preference".to_owned(),
            Target::Explanation => "q-explanation".to_owned(),
            Target::Notes => "q-notes".to_owned(),
            Target::Survey { question } => format!("q-survey-{}", clean(question)),
        }
    }
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

/// What the shell must do after an update.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Cmd {
    /// Persist the progress now.
    Save,
    /// Persist the progress soon: text being typed, one message per keystroke. The shell may
    /// wait a moment (so that a long session is not rewritten on every key), but
    /// must save before any other save, and when the page is hidden or closed.
    SaveSoon,
    /// Move focus to the element with this id.
    Focus(String),
    /// Scroll to the top (a new page or trial).
    ScrollTop,
}

/// A message from the page.
#[derive(Debug, Clone, PartialEq)]
pub enum Msg {
    /// Leave the welcome page.
    Start,
    /// Answer the consent form.
    Consent(bool),
    /// Leave the instructions.
    FinishInstructions,
    /// Back to the instructions from the intake survey or the first trial.
    BackToInstructions,
    /// Answer (or clear, with `None`) a survey question.
    SurveyAnswer {
        /// Which survey.
        survey: Survey,
        /// Question id.
        question: String,
        /// The answer.
        answer: Option<Answer>,
    },
    /// Leave a survey.
    SubmitSurvey(Survey),
    /// Rate an output on a dimension; with `advance`, focus moves to the next unanswered one.
    Rate {
        /// Position.
        position: usize,
        /// Dimension id.
        dimension: String,
        /// Score.
        value: i32,
        /// Move focus on (keyboard answers).
        advance: bool,
    },
    /// Answer "Cannot judge" on a dimension that offers it (`allow_skip`), or (`on` false)
    /// take it back, leaving the dimension unanswered; a score given later replaces it, as it
    /// replaces a score. With `advance`, focus moves on as after a score.
    CannotRate {
        /// Position.
        position: usize,
        /// Dimension id.
        dimension: String,
        /// "Cannot judge" (true), or taken back.
        on: bool,
        /// Move focus on (keyboard answers).
        advance: bool,
    },
    /// Answer a per-output question.
    OutputAnswer {
        /// Position.
        position: usize,
        /// Question id.
        question: String,
        /// Answer.
        answer: Option<Answer>,
    },
    /// Flag or unflag an output.
    Flag {
        /// Position.
        position: usize,
        /// Flagged.
        on: bool,
    },
    /// Mark an error in the output at a position, or change the severity or category of the
    /// error marked over the same text. Refused when it overlaps another span or does not fit
    /// the task ([`ErrorSpan::check`]).
    MarkSpan {
        /// Position.
        position: usize,
        /// The error.
        span: ErrorSpan,
    },
    /// Remove a marked error, by its key ([`ErrorSpan::key`]).
    RemoveSpan {
        /// Position.
        position: usize,
        /// The span's key.
        key: String,
    },
    /// Say the output at a position has no errors, or take it back. Refused while errors are
    /// marked in it.
    NoErrors {
        /// Position.
        position: usize,
        /// No errors.
        on: bool,
    },
    /// Give or clear the preference.
    Prefer(Option<Preference>),
    /// The preference's explanation.
    Explain(String),
    /// Notes.
    Notes(String),
    /// Next trial (refused while required answers are missing).
    Next,
    /// Previous trial.
    Previous,
    /// Jump to a trial (from the list).
    GoTo(usize),
    /// Open or close an overlay.
    Overlay(Overlay),
    /// The tab became visible or hidden.
    Visibility(bool),
    /// Another tab saved these answers ([`open::absorb`]): they are merged into this tab's,
    /// answer by answer ([`store::merge`]). Nothing is saved: the shell saves when
    /// [`open::absorb`] says this tab has answers the stored copy lacks.
    Absorb(Box<Progress>),
    /// Continue from a ratings file: the session [`open::restore`] made of it (checked against
    /// the study's plan) replaces this one, and is saved.
    Restore(Box<Session>),
    /// On the finish page, the ratings file was saved (downloaded, copied, shared) or sent to
    /// the study's service: recorded with the answers, so that the debriefing, the completion
    /// code and the rest that wait for it are there again when the annotator comes back.
    FileSaved,
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
    fn on(plan: Plan) -> Session {
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
    fn bank_time(&mut self, now: f64) {
        if let Some(since) = self.shown_since.take() {
            let ms = (now - since).max(0.0);
            if let Some(t) = self.progress.trials.get_mut(self.progress.current) {
                t.active_ms = t.active_ms.saturating_add(ms as u64);
            }
        }
    }

    fn show_trial(&mut self, index: usize, now: f64) {
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
            .map(|l| study.design().label(l))
            .collect()
    }

    /// How many outputs the current trial shows.
    fn shown(&self) -> usize {
        self.plan.trials[self.progress.current].shown.len()
    }

    fn trial_answers(&mut self) -> Option<&mut TrialAnswers> {
        self.progress.trials.get_mut(self.progress.current)
    }
}

fn survey_questions(study: &Study, survey: Survey) -> &[Question] {
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
            let task = &study.design().tasks[trial.task];
            let n = trial.shown.len();
            match (
                &answers.preference,
                task.preference.as_ref().map(|p| p.kind),
            ) {
                (None, Some(PreferenceKind::Graded)) => {
                    Some("say how much better one output is, or “Same”".to_owned())
                }
                (None, Some(PreferenceKind::BestWorst)) => {
                    Some("choose the best and the worst output".to_owned())
                }
                (None, _) => Some("choose an output".to_owned()),
                (Some(Preference::Rank { order }), Some(PreferenceKind::Rank)) => {
                    let mut sorted = order.clone();
                    crate::order::sort(&mut sorted);
                    (sorted != (0..n).collect::<Vec<_>>()).then(|| "rank every output".to_owned())
                }
                (Some(Preference::BestWorst { best, worst }), _) => match (best, worst) {
                    (None, None) => Some("choose the best and the worst output".to_owned()),
                    (None, Some(_)) => Some("choose the best output".to_owned()),
                    (Some(_), None) => Some("choose the worst output".to_owned()),
                    (Some(_), Some(_)) => None,
                },
                _ => None,
            }
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
        Target::Survey { .. } => None,
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

/// Whether an answer is typed (text or a number: a message per keystroke, saved soon rather
/// than at once). A cleared answer is saved at once.
fn typed(answer: Option<&Answer>) -> bool {
    matches!(answer, Some(Answer::Text(_) | Answer::Number(_)))
}

/// Whether an answer can be stored at all (a number must be finite: JSON has no NaN).
fn storable(answer: &Option<Answer>) -> bool {
    !matches!(answer, Some(Answer::Number(x)) if !x.is_finite())
}

/// Applies a message. Returns what the shell must do; `Cmd::Save` whenever progress changed.
pub fn update(study: &Study, session: &mut Session, msg: Msg, now: f64) -> Vec<Cmd> {
    if let Msg::SurveyAnswer { answer, .. } | Msg::OutputAnswer { answer, .. } = &msg
        && !storable(answer)
    {
        return Vec::new();
    }
    let mut cmds = Vec::new();
    let phase = session.progress.phase;
    let changed = |cmds: &mut Vec<Cmd>| cmds.push(Cmd::Save);
    match msg {
        Msg::Start if phase == Phase::Welcome => start(study, session, now, &mut cmds),
        Msg::Consent(true) if phase == Phase::Consent => {
            session.progress.consent_at = Some(now);
            session.progress.started_at.get_or_insert(now);
            session.progress.phase = Phase::Instructions;
            changed(&mut cmds);
            cmds.push(Cmd::ScrollTop);
        }
        Msg::Consent(false) if phase == Phase::Consent => {
            // Nothing is recorded for a declined consent.
            session.progress.phase = Phase::Declined;
            cmds.push(Cmd::ScrollTop);
        }
        Msg::FinishInstructions if phase == Phase::Instructions => {
            if study.intake().is_empty() {
                enter_trials(study, session, now, &mut cmds);
            } else {
                session.progress.phase = Phase::Intake;
                cmds.push(Cmd::ScrollTop);
            }
            changed(&mut cmds);
        }
        Msg::BackToInstructions if matches!(phase, Phase::Intake | Phase::Trials) => {
            session.bank_time(now);
            session.progress.phase = Phase::Instructions;
            session.missing.clear();
            changed(&mut cmds);
            cmds.push(Cmd::ScrollTop);
        }
        Msg::SurveyAnswer {
            survey,
            question,
            answer,
        } if phase == survey_phase(survey)
            && asks(survey_questions(study, survey), &question, answer.as_ref()) =>
        {
            cmds.push(answer_survey(session, survey, question, answer, now));
        }
        Msg::SubmitSurvey(survey) if phase == survey_phase(survey) => {
            submit_survey(study, session, survey, now, &mut cmds);
        }
        Msg::Rate {
            position,
            dimension,
            value,
            advance,
        } if phase == Phase::Trials
            && position < session.shown()
            && on_scale(study, &dimension, value) =>
        {
            cmds = rate(
                study,
                session,
                position,
                dimension,
                Some(value),
                advance,
                now,
            );
        }
        Msg::CannotRate {
            position,
            dimension,
            on,
            advance,
        } if phase == Phase::Trials && position < session.shown() => {
            cmds = cannot_rate(study, session, (position, dimension), on, advance, now);
        }
        Msg::OutputAnswer {
            position,
            question,
            answer,
        } if phase == Phase::Trials
            && position < session.shown()
            && asks(&study.rubric().output_questions, &question, answer.as_ref()) =>
        {
            cmds.push(answer_output(session, position, question, answer, now));
        }
        Msg::Flag { position, on } if phase == Phase::Trials && position < session.shown() => {
            flag(study, session, position, on, now);
            changed(&mut cmds);
        }
        Msg::MarkSpan { position, span }
            if phase == Phase::Trials && span_fits(study, session, position, &span) =>
        {
            mark_span(session, position, span, now, &mut cmds);
        }
        Msg::RemoveSpan { position, key } if phase == Phase::Trials => {
            let marked = session
                .answers(session.progress.current)
                .and_then(|t| t.outputs.get(position))
                .is_some_and(|o| o.spans.iter().any(|s| s.key() == key));
            if marked {
                if let Some((t, _)) = edit_current(session, now, Field::Span(position, key.clone()))
                {
                    t.outputs[position].spans.retain(|s| s.key() != key);
                }
                changed(&mut cmds);
            }
        }
        Msg::NoErrors { position, on }
            if phase == Phase::Trials
                && position < session.shown()
                && asks_spans(study, session)
                && !(on
                    && session
                        .answers(session.progress.current)
                        .is_some_and(|t| !t.outputs[position].spans.is_empty())) =>
        {
            if let Some((t, _)) = edit_current(session, now, Field::NoErrors(position)) {
                t.outputs[position].no_errors = on;
            }
            session
                .missing
                .retain(|m| m.target != Target::Spans { position });
            changed(&mut cmds);
        }
        Msg::Prefer(preference)
            if phase == Phase::Trials && preference_fits(study, session, preference.as_ref()) =>
        {
            if let Some((t, _)) = edit_current(session, now, Field::Preference) {
                t.preference = preference;
            }
            session.missing.retain(|m| m.target != Target::Preference);
            changed(&mut cmds);
        }
        Msg::Explain(text) if phase == Phase::Trials => {
            if let Some((t, _)) = edit_current(session, now, Field::Explanation) {
                t.explanation = text;
            }
            session.missing.retain(|m| m.target != Target::Explanation);
            cmds.push(Cmd::SaveSoon);
        }
        Msg::Notes(text) if phase == Phase::Trials => {
            if let Some((t, _)) = edit_current(session, now, Field::Notes) {
                t.notes = text;
            }
            session.missing.retain(|m| m.target != Target::Notes);
            cmds.push(Cmd::SaveSoon);
        }
        Msg::Next if phase == Phase::Trials => next_trial(study, session, now, &mut cmds),
        Msg::Previous if phase == Phase::Trials => previous_trial(study, session, now, &mut cmds),
        Msg::Previous if phase == Phase::Exit => {
            enter_trials(study, session, now, &mut cmds);
            let last = session.plan.trials.len().saturating_sub(1);
            session.show_trial(last, now);
            changed(&mut cmds);
        }
        Msg::GoTo(index)
            if matches!(phase, Phase::Trials | Phase::Exit | Phase::Done)
                && index < session.plan.trials.len() =>
        {
            session.progress.phase = Phase::Trials;
            session.show_trial(index, now);
            session.overlay = Overlay::None;
            cmds.push(Cmd::ScrollTop);
            changed(&mut cmds);
        }
        Msg::Overlay(Overlay::Rubric) if study.rubric().is_empty() => {}
        Msg::Overlay(overlay) => {
            session.overlay = overlay;
        }
        Msg::Visibility(visible) if visible != session.visible => {
            session.visible = visible;
            match (phase, visible) {
                (Phase::Trials, true) => session.shown_since = Some(now),
                (Phase::Trials, false) => {
                    session.bank_time(now);
                    changed(&mut cmds);
                }
                _ => {}
            }
        }
        Msg::Absorb(theirs) => {
            session.progress = store::merge(&session.progress, &theirs);
        }
        Msg::Restore(restored) => {
            *session = *restored;
            changed(&mut cmds);
        }
        Msg::FileSaved if phase == Phase::Done && !session.file_saved() => {
            session.progress.file_saved = Some(session.progress.clock);
            changed(&mut cmds);
        }
        // A message that does not belong to the current phase is ignored: it can only come
        // from a stale page or a double click, and must never corrupt the session.
        _ => {}
    }
    cmds
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
        // A preference names positions: each must be one of the trial's (a stored
        // rank past the end would index past the outputs).
        let n = trial.shown.len();
        let fits = match &saved.preference {
            None | Some(Preference::Tie | Preference::CannotJudge) => true,
            Some(Preference::Graded { grade }) => n == 2 && grade.unsigned_abs() <= 4,
            Some(Preference::Best { position } | Preference::Choice { position }) => *position < n,
            Some(Preference::Rank { order }) => {
                let mut sorted = order.clone();
                crate::order::sort(&mut sorted);
                sorted.dedup();
                sorted.len() == order.len() && order.iter().all(|&p| p < n)
            }
            Some(Preference::BestWorst { best, worst }) => best_worst_fits(*best, *worst, n),
        };
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

/// The current trial's answers, to edit: `field` is stamped as edited now (so that the merge of
/// two tabs keeps this edit over older ones) and the trial records the change time. Returns the
/// answers and the stamp, for any other field the edit changes.
fn edit_current(session: &mut Session, now: f64, field: Field) -> Option<(&mut TrialAnswers, u64)> {
    let stamp = session.progress.tick(now);
    let t = session.trial_answers()?;
    t.stamps.insert(field.key(), stamp);
    t.last_changed = Some(now);
    Some((t, stamp))
}

/// Whether the current trial's task asks for error spans.
fn asks_spans(study: &Study, session: &Session) -> bool {
    session
        .plan
        .trials
        .get(session.progress.current)
        .is_some_and(|t| study.design().tasks[t.task].spans.is_some())
}

/// Whether `span` can be marked in the output at `position` of the current trial: the task asks
/// for spans, and the span fits them and the output's text ([`ErrorSpan::check`]). Overlaps are
/// [`mark_span`]'s to refuse.
fn span_fits(study: &Study, session: &Session, position: usize, span: &ErrorSpan) -> bool {
    let Some(trial) = session.plan.trials.get(session.progress.current) else {
        return false;
    };
    let Some(spans) = &study.design().tasks[trial.task].spans else {
        return false;
    };
    position < trial.shown.len()
        && span
            .check(spans, shown_text(study, trial, position).chars().count())
            .is_ok()
}

/// Marks `span` in the output at `position`, unless it overlaps another: "No errors" is taken
/// back, and the missing answer about the output's errors is met.
fn mark_span(
    session: &mut Session,
    position: usize,
    span: ErrorSpan,
    now: f64,
    cmds: &mut Vec<Cmd>,
) {
    let overlaps = session
        .answers(session.progress.current)
        .and_then(|t| t.outputs.get(position))
        .is_none_or(|o| {
            o.spans
                .iter()
                .any(|s| s.key() != span.key() && s.overlaps(&span))
        });
    if overlaps {
        return;
    }
    let no_errors = session
        .answers(session.progress.current)
        .is_some_and(|t| t.outputs[position].no_errors);
    if no_errors && let Some((t, _)) = edit_current(session, now, Field::NoErrors(position)) {
        t.outputs[position].no_errors = false;
    }
    if let Some((t, _)) = edit_current(session, now, Field::Span(position, span.key())) {
        place_span(&mut t.outputs[position].spans, span);
    }
    session
        .missing
        .retain(|m| m.target != Target::Spans { position });
    cmds.push(Cmd::Save);
}

/// Whether `value` is a point of the scale of dimension `dimension`.
fn on_scale(study: &Study, dimension: &str, value: i32) -> bool {
    study
        .dimension(dimension)
        .is_some_and(|d| d.scale.contains(value))
}

/// Whether `questions` has `question`, and offers "Cannot judge" when that is the answer.
fn asks(questions: &[Question], question: &str, answer: Option<&Answer>) -> bool {
    questions
        .iter()
        .any(|q| q.id == question && (q.allow_skip || answer != Some(&Answer::CannotJudge)))
}

/// Scores the output at `position` on `dimension` (`None`: "Cannot judge"); with `advance`,
/// focus moves to the next unanswered question.
fn rate(
    study: &Study,
    session: &mut Session,
    position: usize,
    dimension: String,
    value: Option<i32>,
    advance: bool,
    now: f64,
) -> Vec<Cmd> {
    let target = Target::Rating {
        position,
        dimension: dimension.clone(),
    };
    let field = Field::Rating(position, dimension.clone());
    if let Some((t, _)) = edit_current(session, now, field) {
        t.outputs[position].rate(&dimension, value);
    }
    let mut cmds = Vec::new();
    after_answer(study, session, &target, advance, &mut cmds);
    cmds.push(Cmd::Save);
    cmds
}

/// "Cannot judge" on `dimension` of the output at `position`, where the dimension offers it;
/// or (`on` false) takes it back, leaving the dimension unanswered.
fn cannot_rate(
    study: &Study,
    session: &mut Session,
    (position, dimension): (usize, String),
    on: bool,
    advance: bool,
    now: f64,
) -> Vec<Cmd> {
    if on {
        if !study.dimension(&dimension).is_some_and(|d| d.allow_skip) {
            return Vec::new();
        }
        return rate(study, session, position, dimension, None, advance, now);
    }
    let said = session
        .answers(session.progress.current)
        .and_then(|t| t.outputs.get(position))
        .is_some_and(|o| o.cannot_judge.contains(&dimension));
    if !said {
        return Vec::new();
    }
    let field = Field::Rating(position, dimension.clone());
    if let Some((t, _)) = edit_current(session, now, field) {
        t.outputs[position].cannot_judge.retain(|d| d != &dimension);
    }
    vec![Cmd::Save]
}

/// Answers (or clears) a per-output question; typed text is saved soon, anything else at once.
fn answer_output(
    session: &mut Session,
    position: usize,
    question: String,
    answer: Option<Answer>,
    now: f64,
) -> Cmd {
    let target = Target::OutputQuestion {
        position,
        question: question.clone(),
    };
    let save = if typed(answer.as_ref()) {
        Cmd::SaveSoon
    } else {
        Cmd::Save
    };
    let field = Field::Answer(position, question.clone());
    if let Some((t, _)) = edit_current(session, now, field) {
        let answers = &mut t.outputs[position].answers;
        match answer {
            Some(a) => answers.insert(question, a),
            None => answers.remove(&question),
        };
    }
    session.missing.retain(|m| m.target != target);
    save
}

/// Flags or unflags the output at `position`. A flag that implies scores sets them (the
/// annotator sees the rule by the box); unflagging leaves the scores as they are.
fn flag(study: &Study, session: &mut Session, position: usize, on: bool, now: f64) {
    let implied = flag_implies(study, session, on);
    if let Some((t, stamp)) = edit_current(session, now, Field::Flag(position)) {
        for (d, _) in &implied {
            t.stamps
                .insert(Field::Rating(position, d.clone()).key(), stamp);
        }
        t.outputs[position].flagged = on;
        for (d, v) in &implied {
            t.outputs[position].rate(d, Some(*v));
        }
    }
}

/// Whether `preference` (or clearing it, with `None`) fits the current trial's question: its
/// kind, positions the trial shows, a tie only where allowed.
fn preference_fits(study: &Study, session: &Session, preference: Option<&Preference>) -> bool {
    let trial = &session.plan.trials[session.progress.current];
    let task = &study.design().tasks[trial.task];
    let n = trial.shown.len();
    match (preference, task.preference.as_ref()) {
        (None, Some(_)) => true,
        (Some(Preference::Best { position }), Some(p)) => {
            p.kind == PreferenceKind::Best && *position < n
        }
        (Some(Preference::Choice { position }), Some(p)) => {
            p.kind == PreferenceKind::Choice && *position < n
        }
        (Some(Preference::Tie), Some(p)) => p.kind == PreferenceKind::Choice && p.allow_tie,
        (Some(Preference::Graded { grade }), Some(p)) => {
            p.kind == PreferenceKind::Graded && grade.unsigned_abs() as usize <= p.grades.len() / 2
        }
        (Some(Preference::CannotJudge), Some(p)) => p.allow_skip,
        (Some(Preference::Rank { order }), Some(p)) => {
            p.kind == PreferenceKind::Rank && order.iter().all(|&i| i < n)
        }
        (Some(Preference::BestWorst { best, worst }), Some(p)) => {
            p.kind == PreferenceKind::BestWorst && best_worst_fits(*best, *worst, n)
        }
        _ => false,
    }
}

/// Whether a best–worst answer names outputs of a trial of `n`, never one as both.
fn best_worst_fits(best: Option<usize>, worst: Option<usize>, n: usize) -> bool {
    best.is_none_or(|b| b < n) && worst.is_none_or(|w| w < n) && (best.is_none() || best != worst)
}

/// Leaves the welcome page: to the consent form, or (without one) to the instructions.
fn start(study: &Study, session: &mut Session, now: f64, cmds: &mut Vec<Cmd>) {
    session.progress.phase = if study.consent().is_some() {
        Phase::Consent
    } else {
        session.progress.started_at.get_or_insert(now);
        Phase::Instructions
    };
    if session.progress.phase == Phase::Instructions {
        cmds.push(Cmd::Save);
    }
    cmds.push(Cmd::ScrollTop);
}

/// Leaves a survey when every required answer is given and fits (else says which are
/// missing and focuses the first).
fn submit_survey(
    study: &Study,
    session: &mut Session,
    survey: Survey,
    now: f64,
    cmds: &mut Vec<Cmd>,
) {
    let missing = survey_missing(study, session, survey);
    if let Some(first) = missing.first() {
        cmds.push(Cmd::Focus(first.target.dom_id()));
        session.missing = missing;
    } else {
        session.missing.clear();
        match survey {
            Survey::Intake if screened(study, &session.progress) => {
                session.progress.phase = Phase::Screened;
                session.progress.finished_at = Some(now);
                cmds.push(Cmd::ScrollTop);
            }
            Survey::Intake => enter_trials(study, session, now, cmds),
            Survey::Exit => finish(session, now, cmds),
        }
        cmds.push(Cmd::Save);
    }
}

/// Whether an intake answer screens the participant out: a choice the question's
/// `screen_out` lists.
pub fn screened(study: &Study, progress: &Progress) -> bool {
    study.intake().iter().any(|q| {
        progress.intake.get(&q.id).is_some_and(|a| match a {
            Answer::Choice(c) => q.screen_out.contains(c),
            Answer::Choices(cs) => cs.iter().any(|c| q.screen_out.contains(c)),
            _ => false,
        })
    })
}

/// Back one trial, or from the first trial to the intake survey (when there is one).
fn previous_trial(study: &Study, session: &mut Session, now: f64, cmds: &mut Vec<Cmd>) {
    let current = session.progress.current;
    if current > 0 {
        session.show_trial(current - 1, now);
    } else if !study.intake().is_empty() {
        session.bank_time(now);
        session.progress.phase = Phase::Intake;
        session.missing.clear();
    } else {
        return;
    }
    cmds.push(Cmd::ScrollTop);
    cmds.push(Cmd::Save);
}

/// Answers (or clears) a survey question; typed text is saved soon, anything else at once.
fn answer_survey(
    session: &mut Session,
    survey: Survey,
    question: String,
    answer: Option<Answer>,
    now: f64,
) -> Cmd {
    let target = Target::Survey {
        question: question.clone(),
    };
    let stamp = session.progress.tick(now);
    let (answers, prefix) = match survey {
        Survey::Intake => (&mut session.progress.intake, "intake"),
        Survey::Exit => (&mut session.progress.exit, "exit"),
    };
    let key = format!("{prefix}/{question}");
    let typed = typed(answer.as_ref());
    match answer {
        Some(a) => answers.insert(question, a),
        None => answers.remove(&question),
    };
    session.progress.stamps.insert(key, stamp);
    session.missing.retain(|m| m.target != target);
    if typed { Cmd::SaveSoon } else { Cmd::Save }
}

/// The scores a flag sets: every dimension of the task at its `flag_implies` value, when the
/// task has one and the flag is set.
fn flag_implies(study: &Study, session: &Session, on: bool) -> Vec<(String, i32)> {
    let task = &study.design().tasks[session.plan.trials[session.progress.current].task];
    match (on, task.flag_implies) {
        (true, Some(v)) => task.dimensions.iter().map(|d| (d.clone(), v)).collect(),
        _ => Vec::new(),
    }
}

/// Leaves the current trial when every required answer is given (else says which are missing
/// and focuses the first).
fn next_trial(study: &Study, session: &mut Session, now: f64, cmds: &mut Vec<Cmd>) {
    let current = session.progress.current;
    let missing = trial_missing(study, session, current);
    if let Some(first) = missing.first() {
        cmds.push(Cmd::Focus(first.target.dom_id()));
        session.missing = missing;
    } else {
        session.progress.trials[current].done = true;
        // On to the first trial not done after this one, or any before it (after a jump
        // back), or out of the trials.
        let total = session.plan.trials.len();
        let next = (current + 1..total)
            .chain(0..current)
            .find(|&i| !session.progress.trials[i].done);
        // After revising an earlier trial this returns to the first one still to do.
        match next {
            Some(i) => session.show_trial(i, now),
            None => leave_trials(study, session, now, cmds),
        }
        cmds.push(Cmd::ScrollTop);
        cmds.push(Cmd::Save);
    }
}

fn survey_phase(survey: Survey) -> Phase {
    match survey {
        Survey::Intake => Phase::Intake,
        Survey::Exit => Phase::Exit,
    }
}

fn after_answer(
    study: &Study,
    session: &mut Session,
    target: &Target,
    advance: bool,
    cmds: &mut Vec<Cmd>,
) {
    session.missing.retain(|m| &m.target != target);
    if advance && let Some(next) = next_unanswered(study, session, target) {
        cmds.push(Cmd::Focus(next.dom_id()));
    }
}

fn enter_trials(study: &Study, session: &mut Session, now: f64, cmds: &mut Vec<Cmd>) {
    if session.plan.trials.is_empty() {
        leave_trials(study, session, now, cmds);
        return;
    }
    session.progress.phase = Phase::Trials;
    let current = session.progress.current.min(session.plan.trials.len() - 1);
    session.show_trial(current, now);
    cmds.push(Cmd::ScrollTop);
}

fn leave_trials(study: &Study, session: &mut Session, now: f64, cmds: &mut Vec<Cmd>) {
    session.bank_time(now);
    session.missing.clear();
    if study.exit().is_empty() {
        finish(session, now, cmds);
    } else {
        session.progress.phase = Phase::Exit;
        cmds.push(Cmd::ScrollTop);
    }
}

fn finish(session: &mut Session, now: f64, cmds: &mut Vec<Cmd>) {
    session.progress.phase = Phase::Done;
    session.progress.finished_at.get_or_insert(now);
    cmds.push(Cmd::ScrollTop);
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
    crate::order::sort(&mut times);
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
            letter: keys::output_letter(study, &shown.label),
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

#[cfg(test)]
mod merge_tests;
#[cfg(test)]
mod open_tests;
#[cfg(test)]
mod sheet_tests;
#[cfg(test)]
mod skip_tests;
#[cfg(test)]
mod span_tests;
#[cfg(test)]
mod tests;
