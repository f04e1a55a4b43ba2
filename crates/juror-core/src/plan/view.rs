//! What a rater is shown for a trial. Built from a plan's [`Trial`] and the study, it holds
//! blinded labels and the texts to show (the page renders them), and by construction no
//! system identifier: there is no field a system id could go into.

use serde::Serialize;

use super::{Plan, Trial};
use crate::base::rich::Text;
use crate::study::{LabelScheme, MediaKind, PreferenceKind, Requirement, Severity, Study};

/// One trial as the rater sees it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TrialView {
    /// 1-based number of the trial in the plan.
    pub number: usize,
    /// Trials in the plan.
    pub total: usize,
    /// The task's id and heading.
    pub task_id: String,
    /// The task's heading, if any.
    pub task_title: Option<String>,
    /// The item's id (study content, not a system).
    pub item_id: String,
    /// The prompt, to render under the trial's heading.
    pub prompt: Text,
    /// Extra context, to render likewise.
    pub context: Option<Text>,
    /// Image or video.
    pub media: Option<MediaView>,
    /// The outputs in position order.
    pub outputs: Vec<OutputView>,
    /// Ids of the dimensions rated for each output.
    pub dimensions: Vec<String>,
    /// Ids of the per-output questions.
    pub output_questions: Vec<String>,
    /// The preference asked for, if any.
    pub preference: Option<PreferenceView>,
    /// Notes.
    pub notes: Requirement,
    /// Flag label.
    pub flag: Option<String>,
    /// What ticking the flag does to the scores, in words, when the study says.
    pub flag_rule: Option<String>,
    /// The error spans asked for in each output, if any: the outputs' `text` is then given.
    pub spans: Option<SpansView>,
}

/// The error spans asked for, as the annotator is asked.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SpansView {
    /// The instruction.
    pub question: String,
    /// The severities offered, in order.
    pub severities: Vec<Severity>,
    /// The categories offered (empty: none asked).
    pub categories: Vec<String>,
    /// Whether an error of the whole output may be marked.
    pub whole_output: bool,
}

/// An output under its label.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct OutputView {
    /// "Output A".
    pub label: String,
    /// What the page shows above the output: its label, or plain "Output" for an output shown
    /// alone whose letter means nothing (per-trial labels). With per-annotator labels the
    /// letter stands for the system throughout the study (the exit survey may ask about it),
    /// so it is always shown.
    pub heading: String,
    /// The output, to render as Markdown; none when the task shows it as plain text (`text`).
    pub body: Option<Text>,
    /// The output's text as the study holds it, when the task shows plain text (`plain_text`,
    /// or error spans asked): the page then shows it as is, whitespace kept, and span offsets
    /// count its characters.
    pub text: Option<String>,
}

/// Media as shown.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MediaView {
    /// Image or video.
    pub kind: MediaKind,
    /// Source URL, relative to the study.
    pub src: String,
    /// Text alternative.
    pub alt: String,
}

/// The preference question as shown.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PreferenceView {
    /// Kind.
    pub kind: PreferenceKind,
    /// The question.
    pub question: String,
    /// The labels to choose from, in position order.
    pub labels: Vec<String>,
    /// Whether "tie" is offered.
    pub allow_tie: bool,
    /// A graded preference's labels, A's strongest first; empty for other kinds.
    pub grades: Vec<String>,
    /// Whether "Cannot judge" is offered.
    pub allow_skip: bool,
    /// The free-text reason.
    pub explanation: Requirement,
}

impl TrialView {
    /// The view of `trial`, the `index`-th of `plan`.
    pub fn new(study: &Study, plan: &Plan, index: usize, trial: &Trial) -> TrialView {
        let task = &study.design().tasks[trial.task];
        let item = &study.items()[trial.item];
        let systems = study.systems();
        let letter_means_nothing = trial.shown.len() == 1 && task.labels == LabelScheme::PerTrial;
        let outputs: Vec<OutputView> = trial
            .shown
            .iter()
            .map(|s| {
                let output = item.outputs.get(&systems[s.system]);
                OutputView {
                    label: s.label.clone(),
                    heading: if letter_means_nothing {
                        "Output".to_owned()
                    } else {
                        s.label.clone()
                    },
                    // Shown as plain text (spans marked, or formatting to be ignored): no
                    // Markdown to render.
                    body: (!task.plain_text)
                        .then(|| output.cloned().unwrap_or_else(|| Text::from(""))),
                    text: task
                        .plain_text
                        .then(|| output.map(|t| t.plain().into_owned()).unwrap_or_default()),
                }
            })
            .collect();
        TrialView {
            number: index + 1,
            total: plan.trials.len(),
            task_id: task.id.clone(),
            task_title: task.title.clone(),
            item_id: item.id.clone(),
            prompt: item.prompt.clone(),
            context: item.context.clone(),
            media: item.media.as_ref().map(|m| MediaView {
                kind: m.kind,
                src: m.src.clone(),
                alt: m.alt.clone(),
            }),
            preference: task.preference.as_ref().map(|p| PreferenceView {
                kind: p.kind,
                question: p.question.clone(),
                labels: outputs.iter().map(|o| o.label.clone()).collect(),
                allow_tie: p.allow_tie,
                grades: p.grades.clone(),
                allow_skip: p.allow_skip,
                explanation: p.explanation,
            }),
            outputs,
            dimensions: task.dimensions.clone(),
            output_questions: task.output_questions.clone(),
            notes: task.notes,
            flag: task.flag.clone(),
            flag_rule: task
                .flag_implies
                .map(|v| format!("Ticking it sets every score of this output to {v}.")),
            spans: task.spans.as_ref().map(|s| SpansView {
                question: s.question.clone(),
                severities: s.severities.clone(),
                categories: s.categories.clone(),
                whole_output: s.whole_output,
            }),
        }
    }
}

/// The text of the output at `position` of `trial`, as the study holds it (empty past the
/// end): what span offsets count.
pub fn shown_text<'a>(study: &'a Study, trial: &Trial, position: usize) -> &'a str {
    trial
        .shown
        .get(position)
        .and_then(|s| {
            study.items()[trial.item]
                .outputs
                .get(study.systems().get(s.system)?)
        })
        .and_then(Text::verbatim)
        .unwrap_or("")
}

impl Plan {
    /// Every trial as the rater sees it.
    pub fn views(&self, study: &Study) -> Vec<TrialView> {
        self.trials
            .iter()
            .enumerate()
            .map(|(i, t)| TrialView::new(study, self, i, t))
            .collect()
    }
}

/// For the researcher's preview only, never part of what a rater is shown: the system (in a
/// published study, the item's own token) at `position` of trial `index` of `plan`.
pub fn preview_system<'a>(
    study: &'a Study,
    plan: &Plan,
    index: usize,
    position: usize,
) -> Option<&'a str> {
    let shown = plan.trials.get(index)?.shown.get(position)?;
    study.systems().get(shown.system).map(String::as_str)
}
