//! The study file as it is written: `juror.study/1`.
//!
//! These are permissive serde DTOs. They say what a field may hold, not whether the whole makes
//! sense: that is [`crate::study::validate()`]'s job, which turns a [`RawStudy`] into a
//! [`crate::study::Study`] or a list of every problem. The JSON Schema published at
//! `assets/schema/study.v1.json` is generated from these types (see [`crate::study::schema`]).
//!
//! Unknown fields are rejected everywhere: a typo such as `"sytems"` must not silently drop the
//! researcher's intent.

use std::collections::BTreeMap;

pub use super::ask::RawPreferenceKind;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The `format` value of every study file this version of Juror reads.
pub const STUDY_FORMAT_V1: &str = "juror.study/1";

/// A whole study file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(
    title = "Juror study",
    description = "A Juror study file, format juror.study/1."
)]
pub struct RawStudy {
    /// Optional address of the JSON Schema, for editors; ignored by Juror.
    #[serde(rename = "$schema", default, skip_serializing_if = "Option::is_none")]
    pub schema: Option<String>,
    /// Always `"juror.study/1"` for this version of the format.
    pub format: String,
    /// A stable identifier for the study, copied into every ratings file. Not empty, no
    /// leading or trailing spaces, at most 200 characters (as for every id in the file).
    pub id: String,
    /// The title shown to annotators on the welcome page.
    pub title: String,
    /// A short description shown on the welcome page (Markdown).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The annotator's guidelines, shown before the first trial and at any time after (Markdown).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub instructions: Option<String>,
    /// Informed consent; when present the annotator must agree before anything is recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub consent: Option<RawConsent>,
    /// How long the study takes, in minutes, as shown on the welcome page.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub estimated_minutes: Option<u32>,
    /// Who to contact with questions (free text, e.g. a name and an e-mail address).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub contact: Option<String>,
    /// The debriefing (Markdown): shown on the finish page once the annotator has saved their
    /// ratings file, e.g. which methods were compared and why they were hidden.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub debrief: Option<String>,
    /// What a participant from a recruitment platform gets once their ratings file is saved: a
    /// completion code, and a link back to the platform.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub completion: Option<RawCompletion>,
    /// Where the finished ratings file is sent (POST), besides the download: a service of the
    /// researcher's choosing (DataPipe, an Apps Script web app). Its origin must be allowed when
    /// the site is built (`JUROR_SUBMIT_ORIGINS`), or the browser refuses the request.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub submit: Option<RawSubmit>,
    /// Seed of the counterbalancing: the plan is a pure function of the study and the annotator.
    pub seed: u64,
    /// Identifiers of the systems compared. Never shown to annotators.
    pub systems: Vec<String>,
    /// What annotators judge and how.
    pub rubric: RawRubric,
    /// How outputs are presented, blinded, ordered and assigned.
    pub design: RawDesign,
    /// Questions asked once, before the first trial (intake) and after the last (exit).
    #[serde(default, skip_serializing_if = "RawSurveys::is_empty")]
    pub surveys: RawSurveys,
    /// The items: one prompt and one output per system each.
    pub items: Vec<RawItem>,
    /// The pre-registered analysis plan (`docs/study-format.md`, "Analysis"); absent: every
    /// pair of systems on item means, two-sided, Holm over the whole report.
    // Kept as written: the study's own reader never reads it, so that the annotator's page,
    // which has no use for the plan, carries no reader of it. The researcher's code reads and
    // checks it (`analysis::plan_reader::READER`); the schema is the plan's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Option<super::analysis_plan::RawAnalysis>")]
    pub analysis: Option<serde_json::Value>,
    /// Free-form notes for the researcher, in any shape: model checkpoints, dates, data
    /// sources (`{"systems": {"hare": {"checkpoint": "…"}}}`). Kept in the file, never shown to
    /// annotators; `juror publish` and `juror seal` move it to the key (it may name systems).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<BTreeMap<String, serde_json::Value>>,
}

/// The completion code and the way back to the platform (Prolific, SONA, …).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawCompletion {
    /// The code a participant pastes into the platform to be paid, shown once their ratings file
    /// is saved.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub code: Option<String>,
    /// The code instead, for a participant who failed an attention check scored in the browser
    /// (an unpublished study's checks; a study written by `juror publish` keeps its checks in the
    /// key, and its checks are scored by `juror analyze --key`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fail_code: Option<String>,
    /// The code instead, for a participant an intake answer screened out (`screen_out`): the
    /// platform's "screened out" code. Given at once, with the address back.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub screened_code: Option<String>,
    /// The address to return to (`https://`), where `{code}` becomes the code and `{pid}` the
    /// participant's id: for Prolific, `https://app.prolific.com/submissions/complete?cc={code}`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub redirect: Option<String>,
}

/// Where and how the finished ratings file is sent.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawSubmit {
    /// The address to POST to: `https://` (or `http://127.0.0.1:PORT` for a local test).
    pub url: String,
    /// `json`: the ratings file itself as the body; `datapipe`: DataPipe's body
    /// (`{"experimentID", "filename", "data"}`), which needs `experiment_id`.
    #[serde(default = "default_submit_format")]
    pub format: String,
    /// DataPipe's experiment id (from its dashboard).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub experiment_id: Option<String>,
    /// Also send a backup of the answers so far every 10 finished trials (a file with
    /// `complete: false`), so that the answers of someone who stops part way, or whose device
    /// fails, still arrive.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub backups: bool,
}

fn default_submit_format() -> String {
    "json".to_owned()
}

/// Consent text and the label of the button that gives it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawConsent {
    /// The consent form (Markdown).
    pub text: String,
    /// Label of the agree button.
    #[serde(default = "default_agree_label")]
    pub agree_label: String,
    /// Label of the decline button.
    #[serde(default = "default_decline_label")]
    pub decline_label: String,
}

fn default_agree_label() -> String {
    "I agree".to_owned()
}

fn default_decline_label() -> String {
    "I do not agree".to_owned()
}

/// The rubric: rated dimensions, extra per-output questions, worked examples and guidance.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawRubric {
    /// Likert dimensions each output is rated on. May be empty for a preference-only study.
    #[serde(default)]
    pub dimensions: Vec<RawDimension>,
    /// Extra questions asked about each output (e.g. useful / not useful).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub output_questions: Vec<RawQuestion>,
    /// Worked examples with their scores and why.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub examples: Vec<RawExample>,
    /// Qualities to look for (rate higher).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub look_for: Vec<String>,
    /// Qualities to avoid (rate lower).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub avoid: Vec<String>,
}

/// One Likert dimension.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawDimension {
    /// Identifier used in ratings files and analyses.
    pub id: String,
    /// Short name shown to annotators ("Relevance").
    pub label: String,
    /// The question the dimension answers ("Does the output address the query?").
    pub question: String,
    /// The scale with a label (and ideally a description) for every point.
    pub scale: RawScale,
    /// Whether an answer is needed before going on.
    #[serde(default = "yes")]
    pub required: bool,
    /// Offer "Cannot judge" after the scale: an answer of its own, never a score.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub allow_skip: bool,
}

fn off() -> RawRequirement {
    RawRequirement::Off
}

fn yes() -> bool {
    true
}

/// An integer rating scale from `min` to `max`, with every point labelled, or (with
/// `labels: "anchors"`) at least its two ends; or (with `type: "slider"`) a continuous slider
/// in whole steps of `step`, its two ends labelled and optionally points between.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawScale {
    /// `"likert"` (default): one choice per point (a slider past 11 points); `"slider"`: a
    /// slider from `min` to `max` in steps of `step` (a 0–100 direct assessment), only its
    /// labelled points (`min`, `max` and any between, such as a middle) shown beneath.
    // Read as text and checked by the validator, which keeps a second enum deserialiser out of
    // the annotator's page; the schema lists the two words.
    #[serde(rename = "type", default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Option<RawScaleType>")]
    pub kind: Option<String>,
    /// Lowest score.
    pub min: i32,
    /// Highest score.
    pub max: i32,
    /// A slider's step (a whole number ≥ 1 that divides `max − min`); default 1. Only for
    /// `type: "slider"`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub step: Option<i32>,
    /// Which points are labelled: `"all"` (default), every point from `min` to `max` is listed;
    /// `"anchors"`, `min` and `max` are listed and the points between may be left out (they are
    /// shown as numbers only).
    #[serde(default, skip_serializing_if = "RawScaleLabels::is_all")]
    pub labels: RawScaleLabels,
    /// The labelled points, in any order: one per score from `min` to `max`, or with
    /// `labels: "anchors"` at least `min` and `max`.
    pub points: Vec<RawScalePoint>,
}

/// How a scale is answered.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum RawScaleType {
    /// One choice per point.
    #[default]
    Likert,
    /// A continuous slider in whole steps.
    Slider,
}

impl RawScale {
    /// Whether the scale is written `"type": "slider"`.
    pub fn is_slider(&self) -> bool {
        self.kind.as_deref() == Some("slider")
    }
}

/// Which points of a scale are labelled.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum RawScaleLabels {
    /// Every point is listed with its label.
    #[default]
    All,
    /// The two ends are listed with their labels; points between may be left out.
    Anchors,
}

impl RawScaleLabels {
    /// True for the default, `"all"`.
    pub fn is_all(&self) -> bool {
        *self == RawScaleLabels::All
    }
}

/// One point of a scale.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawScalePoint {
    /// The score.
    pub value: i32,
    /// Short label ("Excellent").
    pub label: String,
    /// What the point means, shown on hover and focus and in the rubric table.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
}

/// A worked example: an output with the scores it deserves and why.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawExample {
    /// A heading ("Example 1: an excellent analysis").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// The prompt the example answers (Markdown).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prompt: Option<String>,
    /// The example output (Markdown).
    pub output: String,
    /// Scores by dimension id.
    pub scores: BTreeMap<String, i32>,
    /// Why it deserves these scores.
    pub why: String,
    /// An image or video the example is about (a screenshot, a chart), shown with it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub media: Option<RawMedia>,
}

/// A question asked per output or in a survey.
///
/// Unlike every other type here it does not reject unknown fields: serde cannot combine that
/// with the flattened `type`-tagged kind. Validation checks the keys instead.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct RawQuestion {
    /// Identifier used in ratings files.
    pub id: String,
    /// The question as shown.
    pub prompt: String,
    /// Extra help shown under the question.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub help: Option<String>,
    /// Whether an answer is needed before going on.
    #[serde(default = "yes")]
    pub required: bool,
    /// For a choice in the intake survey: the options that end the study (an inclusion
    /// criterion the participant does not meet). The participant is thanked
    /// (`surveys.screened_message`) and given `completion.screened_code`; no trial is shown.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub screen_out: Vec<String>,
    /// For a `likert`, `single_choice` or `multiple_choice` question: offer "Cannot judge", an
    /// answer of its own, never a score or an option.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub allow_skip: bool,
    /// What kind of answer is asked for.
    #[serde(flatten)]
    pub kind: RawQuestionKind,
}

pub use super::ask::RawQuestionKind;

/// The design of the study.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawDesign {
    /// How blinded labels are given to outputs.
    #[serde(default)]
    pub labels: RawLabels,
    /// How the labels read; `{}` is replaced by the letter. Default `"Output {}"`.
    #[serde(default = "default_label_format")]
    pub label_format: String,
    /// Who rates what. Absent: every annotator rates every item.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub assignment: Option<RawAssignment>,
    /// Items that check attention, with the answers expected.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub attention_checks: Vec<RawAttentionCheck>,
    /// The tasks, done one after another (most studies have one).
    pub tasks: Vec<RawTask>,
    /// Every slot's plan, computed before publishing: written by `juror publish`, never by
    /// hand. With plans, each item's outputs have their own tokens (`systems` lists them all),
    /// so nothing served links the outputs of one system across items; the plans were
    /// counterbalanced on the original study. Slot N does `plans[N - 1]`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub plans: Option<Vec<Vec<RawPlannedTrial>>>,
    /// The plans of annotators who have personal items (`items[].for` naming their id),
    /// computed before publishing (`juror publish --annotators FILE`), by their id: an
    /// annotator who comes with that id does this plan instead of their slot's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub personal_plans: Option<BTreeMap<String, Vec<RawPlannedTrial>>>,
}

/// One trial of a published plan.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawPlannedTrial {
    /// The task's id.
    pub task: String,
    /// The item's id.
    pub item: String,
    /// The outputs shown, in position order.
    pub shown: Vec<RawShown>,
}

/// One output of a published plan's trial.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawShown {
    /// The output's token: a key of the item's `outputs`.
    pub output: String,
    /// Its blinded label ("Output A").
    pub label: String,
}

impl RawDesign {
    /// Per-annotator when some task keeps a system's letter for the whole study (the design's
    /// default or a task's own `labels`): what a `rank` of systems by label needs.
    pub fn steadiest_labels(&self) -> RawLabels {
        let mut tasks = self.tasks.iter().map(|t| t.labels.unwrap_or(self.labels));
        let none = self.tasks.is_empty() && self.labels == RawLabels::PerAnnotator;
        if none || tasks.any(|l| l == RawLabels::PerAnnotator) {
            RawLabels::PerAnnotator
        } else {
            RawLabels::PerTrial
        }
    }
}

fn default_label_format() -> String {
    "Output {}".to_owned()
}

/// How blinded labels are assigned.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum RawLabels {
    /// A fresh random mapping from labels to systems on every trial.
    #[default]
    PerTrial,
    /// One mapping per annotator, kept for the whole study (a system keeps its letter).
    PerAnnotator,
}

/// How items are spread over annotator slots.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawAssignment {
    /// How many annotator slots the study has (`?slot=1` .. `?slot=N`).
    pub slots: u32,
    /// How many different annotators rate each item.
    pub annotators_per_item: u32,
}

/// An attention check: an item with a known answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum RawAttentionCheck {
    /// The score given to one system's output on one dimension must be one of `accept`.
    Rating {
        /// The check item's id.
        item: String,
        /// The system whose output is checked.
        system: String,
        /// The dimension checked.
        dimension: String,
        /// The scores that pass. Absent in a study written by `juror publish`: the answers are
        /// kept in the researcher's key, never served to annotators.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        accept: Option<Vec<i32>>,
    },
    /// The preferred output must be one of `accept` (system ids).
    Preference {
        /// The check item's id.
        item: String,
        /// The systems whose choice passes. Absent in a study written by `juror publish`: the
        /// answers are kept in the researcher's key, never served to annotators.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        accept: Option<Vec<String>>,
    },
}

/// One task: a pass over the items with one way of presenting and judging them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawTask {
    /// Identifier used in ratings files.
    pub id: String,
    /// Heading shown to annotators when the task starts.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// Instructions specific to this task (Markdown).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub instructions: Option<String>,
    /// How outputs are shown.
    pub presentation: RawPresentation,
    /// With `pairs`: which pairs, `{"anchor": SYSTEM}` (with `"spread": true`, one pair of an
    /// item per annotator) or `{"list": [[A, B], ...]}`. Absent: all pairs of systems.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pairs: Option<RawPairs>,
    /// Dimension ids rated in this task. Absent: all of the rubric's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dimensions: Option<Vec<String>>,
    /// Per-output question ids asked in this task. Absent: all of the rubric's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub output_questions: Option<Vec<String>>,
    /// The preference asked for. Absent: none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub preference: Option<RawPreference>,
    /// Free-text notes per trial.
    #[serde(default)]
    pub notes: RawRequirement,
    /// Lets the annotator flag an output (e.g. "this output is an error message").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub flag: Option<RawFlag>,
    /// Asks the annotator to mark each error in every output (error span annotation, MQM):
    /// outputs are then shown as plain text. Absent: no spans.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spans: Option<RawSpans>,
    /// Show outputs as plain text, whitespace kept, rather than rendered Markdown: for
    /// protocols that ask raters to ignore formatting. Tasks with `spans` always do.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub plain_text: bool,
    /// In what order trials come.
    #[serde(default)]
    pub order: RawOrder,
    /// How this task's outputs are labelled, if not as `design.labels` says: e.g. per-trial
    /// letters for a comparison round, so that the focal system's per-annotator letter does not
    /// show in every pair. A task whose scheme differs from another's needs its own
    /// `label_format`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub labels: Option<RawLabels>,
    /// How this task's labels read, if not as `design.label_format` says (`"Option {}"`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label_format: Option<String>,
    /// Only these items (ids or groups). Absent: all items.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub items: Option<RawItemFilter>,
    /// How long the task takes an annotator, in minutes: shown with the task, and summed on the
    /// welcome page when the study gives no `estimated_minutes` of its own.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub estimated_minutes: Option<u32>,
}

/// Error spans a task asks for: the annotator selects the text of each error in an output and
/// gives its severity (and category), or says the output has no errors.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawSpans {
    /// The severities offered, in order (keys 1, 2, 3 choose them). Default:
    /// `["minor", "major"]`.
    #[serde(default = "default_severities")]
    pub severities: Vec<Severity>,
    /// The error categories offered (an MQM-style typology); `"Accuracy/Mistranslation"` is a
    /// two-level category. Absent: no category is asked.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub categories: Vec<String>,
    /// Whether an error of the whole output, with no span (an omission), may be marked.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub whole_output: bool,
    /// The instruction shown with each output. Default: "Mark each error: select its text,
    /// then choose how severe it is."
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub question: Option<String>,
}

fn default_severities() -> Vec<Severity> {
    vec![Severity::Minor, Severity::Major]
}

/// How severe a marked error is. MQM weights them 1, 5 and 25 unless the study's analysis
/// says otherwise.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum Severity {
    /// A minor error.
    Minor,
    /// A major error.
    Major,
    /// A critical error.
    Critical,
}

impl Severity {
    /// The severity as written in files (`minor`, `major`, `critical`).
    pub fn name(self) -> &'static str {
        match self {
            Severity::Minor => "minor",
            Severity::Major => "major",
            Severity::Critical => "critical",
        }
    }

    /// The severity a file's word names.
    pub fn parse(word: &str) -> Option<Severity> {
        match word {
            "minor" => Some(Severity::Minor),
            "major" => Some(Severity::Major),
            "critical" => Some(Severity::Critical),
            _ => None,
        }
    }
}

/// How outputs are shown in a trial.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum RawPresentation {
    /// One output per trial.
    Single,
    /// Two outputs side by side.
    Pairs,
    /// All of an item's outputs side by side.
    SideBySide,
}

/// Which pairs of systems a `pairs` task compares: give exactly one of `anchor` and `list`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(extend("oneOf" = [{ "required": ["anchor"] }, { "required": ["list"] }]))]
pub struct RawPairs {
    /// Compare this system against each of the others, instead of all pairs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "String")]
    pub anchor: Option<String>,
    /// Compare exactly these pairs `[A, B]` of system ids, instead of all pairs. Each pair is
    /// shown in both orders equally often, so which system is written first does not matter.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Vec<[String; 2]>")]
    pub list: Option<Vec<[String; 2]>>,
    /// With `anchor`: give each annotator at most one pair of an item, so that nobody sees an
    /// item's anchor output recur in its pairs (which would pick out the anchor system). Needs
    /// `design.assignment` with `slots` at least `annotators_per_item` × (systems − 1): each
    /// pair of an item is then compared by `annotators_per_item` annotators, and the item goes
    /// to that many slots per pair. Attention-check items still show every pair.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub spread: bool,
}

/// The preference question of a task.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawPreference {
    /// Which kind of preference.
    #[serde(rename = "type")]
    pub kind: RawPreferenceKind,
    /// The question as shown. Default: "Which output do you prefer overall?"
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub question: Option<String>,
    /// With `choice`: whether "tie" is offered.
    #[serde(default)]
    pub allow_tie: bool,
    /// With `graded`: how many points the scale has, odd, from 3 to 9 ("Same" in the middle).
    /// Default: 7.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub points: Option<u32>,
    /// With `graded`: a label for every point, from "A much better" to "B much better".
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub labels: Option<Vec<String>>,
    /// Offer "Cannot judge": an answer of its own, never counted as a preference.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub allow_skip: bool,
    /// A free-text reason for the preference. Default: off.
    #[serde(default = "off")]
    pub explanation: RawRequirement,
    /// With `best_worst`: how many outputs each trial shows (at least 3, at most the number of
    /// systems). Default: 4, or every system when there are fewer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 3))]
    pub tuple_size: Option<usize>,
}

/// Whether something is asked, and whether it must be answered.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum RawRequirement {
    /// Not asked.
    Off,
    /// Asked; may be left empty.
    #[default]
    Optional,
    /// Asked; must be answered.
    Required,
}

/// The flag control.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawFlag {
    /// Label of the check box ("This output is an error message").
    pub label: String,
    /// What a flag means for the scores: ticking it sets them, and the report lists ratings of
    /// flagged outputs that break it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub implies: Option<RawFlagImplies>,
}

/// The scores a flagged output must have.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawFlagImplies {
    /// The score of every dimension the task rates (e.g. an error message is a 1).
    pub all_dimensions: i32,
}

/// Order of the trials within a task.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum RawOrder {
    /// Shuffled per annotator.
    #[default]
    Shuffled,
    /// As in the file.
    Fixed,
    /// One block per system, block order counterbalanced across annotators (Williams design),
    /// items inside a block by `round` then file order. Only with `presentation: "single"`.
    SystemBlocks,
}

/// A subset of items.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawItemFilter {
    /// Items with one of these ids.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ids: Vec<String>,
    /// Items in one of these groups.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub groups: Vec<String>,
}

/// Intake and exit surveys.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawSurveys {
    /// Asked after the instructions, before the first trial.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub intake: Vec<RawQuestion>,
    /// Asked after the last trial.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub exit: Vec<RawQuestion>,
    /// How long the intake survey takes, in minutes: shown on it, and counted in the welcome
    /// page's estimate when the study gives no `estimated_minutes` of its own.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub intake_minutes: Option<u32>,
    /// How long the exit survey takes, in minutes (as `intake_minutes`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exit_minutes: Option<u32>,
    /// What a participant screened out by an intake answer (`screen_out`) reads (Markdown).
    /// Default: thanks, and that the study ends here.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub screened_message: Option<String>,
}

impl RawSurveys {
    /// True when neither survey has a question.
    pub fn is_empty(&self) -> bool {
        self.intake.is_empty()
            && self.exit.is_empty()
            && self.intake_minutes.is_none()
            && self.exit_minutes.is_none()
            && self.screened_message.is_none()
    }
}

/// One item: a prompt and the output of each system.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawItem {
    /// Identifier, unique in the study.
    pub id: String,
    /// A group, e.g. a task type ("taxonomy", "routing").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group: Option<String>,
    /// More groupings, each with a name: `{"task_type": "routing", "repository": "airflow"}`.
    /// Each can break the report down (`analysis.by_group`) and stratify `juror prepare`
    /// (`--stratify task_type`), like `group`. Never shown to annotators.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub groups: BTreeMap<String, String>,
    /// The round this item belongs to (for studies with repeated rounds).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub round: Option<u32>,
    /// The query or instruction the systems answered (Markdown).
    pub prompt: String,
    /// Extra material shown under the prompt, e.g. a reference answer (Markdown).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub context: Option<String>,
    /// An image or video shown with the prompt.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub media: Option<RawMedia>,
    /// Output by system id (Markdown).
    pub outputs: BTreeMap<String, String>,
    /// A personal item: only these annotators rate it, each a slot number (`3`) or an annotator
    /// id from the link (`"p07"`). Absent: the item is for everyone (or the `assignment`).
    #[serde(default, rename = "for", skip_serializing_if = "Vec::is_empty")]
    pub for_annotators: Vec<RawAnnotatorRef>,
}

/// An annotator an item is for: a slot number or an annotator id.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum RawAnnotatorRef {
    Slot(u32),
    Id(String),
}

/// An image or a video.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawMedia {
    /// Image or video.
    #[serde(rename = "type")]
    pub kind: RawMediaKind,
    /// URL, relative to the study file.
    pub src: String,
    /// Text alternative, read by screen readers and shown if the media fails to load.
    pub alt: String,
}

/// Kinds of media.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum RawMediaKind {
    /// An image.
    Image,
    /// A video.
    Video,
}
