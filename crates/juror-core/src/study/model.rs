//! The validated study: what the rest of Juror works with.
//!
//! A [`Study`] can only be made by [`crate::study::parse_study`] (or
//! [`crate::study::validate()`]), so every invariant checked there holds for the study's whole
//! life: ids are unique, every item has one output per system, every scale has a point per
//! value with both ends labelled, every id a task or check names exists. Defaults are resolved
//! here, so later code never asks "was this field given?".
//!
//! The other way in is a compiled study's reader (`compiled::read`): the model is serialisable
//! both ways (its analysis plan left out), and that reader checks again what the page relies
//! on. Markdown fields are [`Text`]: the source as written (as validation makes them), or the
//! rendered tree (as a compiled study holds them); the researcher's code reads them with
//! [`Text::plain`].

use std::collections::BTreeMap;

use serde::Serialize;

pub use super::ask::{QuestionKind, RankOptions};
pub use crate::base::rich::Text;

pub use super::raw::{
    RawLabels as LabelScheme, RawMediaKind as MediaKind, RawOrder as Order,
    RawPreferenceKind as PreferenceKind, RawPresentation as Presentation,
    RawRequirement as Requirement, Severity,
};

/// What a participant screened out by an intake answer reads when the study gives no
/// `surveys.screened_message`.
pub const SCREENED_MESSAGE: &str = "Thank you for your time. From your answers, this study is not \
     a fit for you, so it ends here: nothing more is asked.";

/// A validated study.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Study {
    pub(crate) id: String,
    pub(crate) title: String,
    pub(crate) description: Option<Text>,
    pub(crate) instructions: Option<Text>,
    pub(crate) consent: Option<Consent>,
    pub(crate) estimated_minutes: Option<u32>,
    pub(crate) contact: Option<String>,
    pub(crate) debrief: Option<Text>,
    pub(crate) completion: Option<super::raw::RawCompletion>,
    pub(crate) submit: Option<super::raw::RawSubmit>,
    pub(crate) seed: u64,
    pub(crate) systems: Vec<String>,
    pub(crate) rubric: Rubric,
    pub(crate) design: Design,
    pub(crate) intake: Vec<Question>,
    pub(crate) exit: Vec<Question>,
    pub(crate) intake_minutes: Option<u32>,
    pub(crate) exit_minutes: Option<u32>,
    pub(crate) screened_message: Text,
    pub(crate) items: Vec<Item>,
    /// Never carried by a compiled study.
    #[serde(skip)]
    pub(crate) analysis: Option<super::analysis_plan::AnalysisPlan>,
}

impl Study {
    /// The study's stable identifier.
    pub fn id(&self) -> &str {
        &self.id
    }
    /// The title shown to annotators.
    pub fn title(&self) -> &str {
        &self.title
    }
    /// The welcome page's description (Markdown).
    pub fn description(&self) -> Option<&Text> {
        self.description.as_ref()
    }
    /// The annotator guidelines (Markdown).
    pub fn instructions(&self) -> Option<&Text> {
        self.instructions.as_ref()
    }
    /// The consent form, when the study has one.
    pub fn consent(&self) -> Option<&Consent> {
        self.consent.as_ref()
    }
    /// The researcher's estimate of the study's length: the study's own, else the sum of its
    /// tasks' (`tasks[].estimated_minutes`) and its surveys' (`surveys.intake_minutes`,
    /// `surveys.exit_minutes`).
    pub fn estimated_minutes(&self) -> Option<u32> {
        self.estimated_minutes.or_else(|| {
            let tasks = self.design.tasks.iter().filter_map(|t| t.estimated_minutes);
            tasks
                .chain(self.intake_minutes)
                .chain(self.exit_minutes)
                .reduce(u32::saturating_add)
        })
    }
    /// What a participant screened out by an intake answer reads (Markdown): the study's own
    /// message, else [`SCREENED_MESSAGE`].
    pub fn screened_message(&self) -> &Text {
        &self.screened_message
    }
    /// How long the intake survey takes, in minutes, if the study says.
    pub fn intake_minutes(&self) -> Option<u32> {
        self.intake_minutes
    }
    /// How long the exit survey takes, in minutes, if the study says.
    pub fn exit_minutes(&self) -> Option<u32> {
        self.exit_minutes
    }
    /// What `annotators` annotators cost, from the study's estimate of one annotator's minutes
    /// ([`Study::estimated_minutes`]) and an hourly `rate` (any currency): `None` when the study
    /// gives no estimate.
    pub fn budget(&self, annotators: u32, rate: Option<f64>) -> Option<Budget> {
        let minutes = self.estimated_minutes()?;
        let hours = f64::from(annotators) * f64::from(minutes) / 60.0;
        Some(Budget {
            annotators,
            minutes,
            hours,
            cost: rate.map(|r| hours * r),
        })
    }
    /// Who to contact.
    pub fn contact(&self) -> Option<&str> {
        self.contact.as_deref()
    }
    /// Where the finished ratings file is sent, if anywhere.
    pub fn submit(&self) -> Option<&super::raw::RawSubmit> {
        self.submit.as_ref()
    }

    /// The completion code and the way back to the platform, if the study gives them.
    pub fn completion(&self) -> Option<&super::raw::RawCompletion> {
        self.completion.as_ref()
    }

    /// The debriefing (Markdown), shown once the annotator has saved their ratings file.
    pub fn debrief(&self) -> Option<&Text> {
        self.debrief.as_ref()
    }
    /// The counterbalancing seed.
    pub fn seed(&self) -> u64 {
        self.seed
    }
    /// The system ids, in file order. Never to be shown to annotators.
    pub fn systems(&self) -> &[String] {
        &self.systems
    }
    /// The rubric.
    pub fn rubric(&self) -> &Rubric {
        &self.rubric
    }
    /// The design.
    pub fn design(&self) -> &Design {
        &self.design
    }
    /// The intake survey.
    pub fn intake(&self) -> &[Question] {
        &self.intake
    }
    /// The exit survey.
    pub fn exit(&self) -> &[Question] {
        &self.exit
    }
    /// The items, in file order.
    pub fn items(&self) -> &[Item] {
        &self.items
    }

    /// The groupings the items have, in order: `"group"` when some item has a `group`, then the
    /// names of `groups` in order of first appearance.
    pub fn groupings(&self) -> Vec<&str> {
        let mut names: Vec<&str> = Vec::new();
        if self.items.iter().any(|i| i.group.is_some()) {
            names.push(GROUP);
        }
        for item in &self.items {
            for name in item.groups.keys() {
                if !names.contains(&name.as_str()) {
                    names.push(name);
                }
            }
        }
        names
    }
    /// The item with this id.
    pub fn item(&self, id: &str) -> Option<&Item> {
        self.items.iter().find(|item| item.id == id)
    }
    /// How many systems each item compares: the number of systems, or, in a published study
    /// (whose `systems` are every item's own tokens), the number of outputs of an item.
    pub fn system_count(&self) -> usize {
        match (&self.design.plans, self.items.first()) {
            (Some(_), Some(item)) => item.outputs.len(),
            _ => self.systems.len(),
        }
    }
    /// The pre-registered analysis plan, when the study has one and was read with it (by the
    /// researcher's code, `analysis::plan_reader::parse_study`); a study read to be played
    /// ([`crate::study::parse_study`], the annotator's page) has none: its `analysis` section is
    /// kept as written and never read.
    pub fn analysis(&self) -> Option<&super::analysis_plan::AnalysisPlan> {
        self.analysis.as_ref()
    }
    /// The dimension with this id.
    pub fn dimension(&self, id: &str) -> Option<&Dimension> {
        self.rubric.dimensions.iter().find(|d| d.id == id)
    }
    /// How many trials one annotator does when every item goes to every annotator (in a
    /// published study, slot 1's plan). With an `assignment` each slot does fewer:
    /// `plan::trials_per_slot` gives the count of each.
    pub fn trials_per_annotator(&self) -> usize {
        if let Some(plans) = &self.design.plans {
            return plans.first().map_or(0, Vec::len);
        }
        self.design
            .tasks
            .iter()
            .map(|task| task.items.len() * task.trials_per_item(self.systems.len()))
            .sum()
    }
}

/// Consent text and button labels.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Consent {
    /// The form (Markdown).
    pub text: Text,
    /// Agree button label.
    pub agree_label: String,
    /// Decline button label.
    pub decline_label: String,
}

/// The rubric.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Rubric {
    /// Rated dimensions.
    pub dimensions: Vec<Dimension>,
    /// Extra per-output questions.
    pub output_questions: Vec<Question>,
    /// Worked examples.
    pub examples: Vec<Example>,
    /// What to look for (Markdown, each).
    pub look_for: Vec<Text>,
    /// What to avoid (Markdown, each).
    pub avoid: Vec<Text>,
}

impl Rubric {
    /// Nothing to show an annotator as the rubric: no dimension, worked example, or what to look
    /// for or avoid (a study that asks only for preferences). Its per-output questions are asked
    /// on each trial, not shown with the rubric. The page then shows no rubric heading, button or
    /// shortcut, and the session opens no rubric overlay.
    pub fn is_empty(&self) -> bool {
        self.dimensions.is_empty()
            && self.examples.is_empty()
            && self.look_for.is_empty()
            && self.avoid.is_empty()
    }
}

/// A Likert dimension.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Dimension {
    /// Identifier.
    pub id: String,
    /// Short name.
    pub label: String,
    /// The question it answers.
    pub question: String,
    /// The scale.
    pub scale: Scale,
    /// Whether it must be answered.
    pub required: bool,
    /// Whether "Cannot judge" is offered.
    pub allow_skip: bool,
}

/// A scale whose points run from `min` to `max`; its two ends are labelled, and every point
/// between unless the study wrote `labels: "anchors"`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Scale {
    /// Points in ascending order of value, one per integer from min to max (labelled or not);
    /// a slider's, one per step.
    pub points: Vec<ScalePoint>,
    /// How it is answered: one choice per point, or a slider.
    pub kind: ScaleKind,
    /// The distance between two points (1 but for a slider's own step).
    pub step: i32,
}

/// How a scale is answered.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum ScaleKind {
    /// One choice per point (shown as a slider past 11 points).
    Likert,
    /// A continuous slider in whole steps (`type: "slider"`), only its labelled points shown.
    Slider,
}

impl Scale {
    /// Lowest value.
    pub fn min(&self) -> i32 {
        self.points.first().map_or(0, |p| p.value)
    }
    /// Highest value.
    pub fn max(&self) -> i32 {
        self.points.last().map_or(0, |p| p.value)
    }
    /// Whether `value` is a point of the scale (for a slider, one of its steps).
    pub fn contains(&self, value: i32) -> bool {
        (self.min()..=self.max()).contains(&value)
            && (i64::from(value) - i64::from(self.min())) % i64::from(self.step.max(1)) == 0
    }
    /// Whether the page shows the scale as a slider (`type: "slider"`, or more than 11 points,
    /// such as a 0–100 score) rather than one radio button per point; digit keys then give no
    /// score.
    pub fn slider(&self) -> bool {
        self.kind == ScaleKind::Slider || self.points.len() > 11
    }
    /// The points the rubric lists: every point of a scale answered by choosing one, only the
    /// labelled ones (its anchors, the two ends always among them) of a slider, as the slider
    /// itself shows them; a 0–100 score is not a 101-row table.
    pub fn rubric_points(&self) -> impl Iterator<Item = &ScalePoint> {
        let slider = self.slider();
        self.points
            .iter()
            .filter(move |p| !slider || p.label.is_some())
    }
    /// Whether any point the rubric lists has a description (else it has no "Meaning" column).
    pub fn described(&self) -> bool {
        self.rubric_points().any(|p| p.description.is_some())
    }
}

/// A point of a scale.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ScalePoint {
    /// The score.
    pub value: i32,
    /// Short label; `None` for a point a `labels: "anchors"` scale leaves out, shown as its
    /// number only. The two ends of a scale always have one.
    pub label: Option<String>,
    /// Longer description (`None` for an unlabelled point).
    pub description: Option<String>,
}

/// A worked example.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Example {
    /// Heading.
    pub title: Option<String>,
    /// The prompt (Markdown).
    pub prompt: Option<Text>,
    /// The output (Markdown).
    pub output: Text,
    /// Scores by dimension id.
    pub scores: BTreeMap<String, i32>,
    /// Why.
    pub why: String,
    /// Image or video.
    pub media: Option<Media>,
}

/// A survey or per-output question.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Question {
    /// Identifier.
    pub id: String,
    /// The question.
    pub prompt: String,
    /// Help text.
    pub help: Option<String>,
    /// Whether it must be answered.
    pub required: bool,
    /// The kind of answer.
    pub kind: QuestionKind,
    /// The options that end the study (intake choices only; empty for every other question).
    pub screen_out: Vec<String>,
    /// Whether "Cannot judge" is offered (scale and choice questions only).
    pub allow_skip: bool,
}

/// The design.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Design {
    /// Assignment of items to slots; `None`: everyone rates everything.
    pub assignment: Option<Assignment>,
    /// Attention checks.
    pub attention_checks: Vec<AttentionCheck>,
    /// Tasks in order.
    pub tasks: Vec<Task>,
    /// A published study's plans, one per slot (system indices are the per-item tokens').
    pub plans: Option<Vec<Vec<super::published::Trial>>>,
    /// A published study's plans of annotators with personal items, by their id as
    /// [`participant_code`] keeps it (empty when none).
    pub personal_plans: BTreeMap<String, Vec<super::published::Trial>>,
}

impl Design {
    /// The labels of a `rank` question over systems, the `index`-th letter's: as the first task
    /// with per-annotator labels reads them (validation requires one).
    pub fn system_label(&self, index: usize) -> String {
        let per_annotator = self
            .tasks
            .iter()
            .find(|t| t.labels == LabelScheme::PerAnnotator);
        per_annotator
            .or(self.tasks.first())
            .map_or_else(|| letter(index), |t| t.label(index))
    }
}

/// A, B, ..., Z, AA, AB, ... for 0, 1, ...
pub fn letter(index: usize) -> String {
    let mut n = index;
    let mut out = Vec::new();
    loop {
        out.push(b'A' + (n % 26) as u8);
        if n < 26 {
            break;
        }
        n = n / 26 - 1;
    }
    out.reverse();
    String::from_utf8(out).unwrap_or_default()
}

/// Slots and annotators per item.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Assignment {
    /// Number of annotator slots.
    pub slots: u32,
    /// Annotators per item.
    pub annotators_per_item: u32,
}

/// An attention check.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub enum AttentionCheck {
    /// A rating must be one of `accept`.
    Rating {
        /// Item id.
        item: String,
        /// System id.
        system: String,
        /// Dimension id.
        dimension: String,
        /// Passing scores; `None` when the published study leaves them to the key.
        accept: Option<Vec<i32>>,
    },
    /// The preferred output must be one of `accept`.
    Preference {
        /// Item id.
        item: String,
        /// Passing system ids; `None` when the published study leaves them to the key.
        accept: Option<Vec<String>>,
    },
}

impl From<&super::raw::RawAttentionCheck> for AttentionCheck {
    /// The check as written (validation checks its ids against the study).
    fn from(raw: &super::raw::RawAttentionCheck) -> AttentionCheck {
        use super::raw::RawAttentionCheck;
        match raw {
            RawAttentionCheck::Rating {
                item,
                system,
                dimension,
                accept,
            } => AttentionCheck::Rating {
                item: item.clone(),
                system: system.clone(),
                dimension: dimension.clone(),
                accept: accept.clone(),
            },
            RawAttentionCheck::Preference { item, accept } => AttentionCheck::Preference {
                item: item.clone(),
                accept: accept.clone(),
            },
        }
    }
}

impl AttentionCheck {
    /// Whether the study holds the accepted answers (a published study leaves them to the key).
    pub fn has_answers(&self) -> bool {
        match self {
            AttentionCheck::Rating { accept, .. } => accept.is_some(),
            AttentionCheck::Preference { accept, .. } => accept.is_some(),
        }
    }

    /// The checked item's id.
    pub fn item(&self) -> &str {
        match self {
            AttentionCheck::Rating { item, .. } | AttentionCheck::Preference { item, .. } => item,
        }
    }
}

/// A task.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Task {
    /// Identifier.
    pub id: String,
    /// Heading.
    pub title: Option<String>,
    /// Task instructions (Markdown).
    pub instructions: Option<Text>,
    /// Presentation.
    pub presentation: Presentation,
    /// With pairs, which pairs are compared; [`PairSet::All`] for other presentations.
    pub pairs: PairSet,
    /// Whether an item's pairs are spread over annotators, one pair of an item per annotator
    /// (`pairs.spread`, with an anchor and an assignment).
    pub spread: bool,
    /// Dimension ids rated.
    pub dimensions: Vec<String>,
    /// Per-output question ids asked.
    pub output_questions: Vec<String>,
    /// Preference asked for.
    pub preference: Option<Preference>,
    /// Notes.
    pub notes: Requirement,
    /// Flag label, when outputs can be flagged.
    pub flag: Option<String>,
    /// The score every dimension of a flagged output must have (`flag.implies.all_dimensions`).
    pub flag_implies: Option<i32>,
    /// Trial order.
    pub order: Order,
    /// How outputs are labelled (the task's `labels`, else the design's).
    pub labels: LabelScheme,
    /// How a label reads, with `{}` for the letter (the task's, else the design's).
    pub label_format: String,
    /// Indices into [`Study::items`] of the items in this task, in file order.
    pub items: Vec<usize>,
    /// How long the task takes, in minutes, if the study says.
    pub estimated_minutes: Option<u32>,
    /// The error spans asked for in each output, if any.
    pub spans: Option<Spans>,
    /// Whether outputs are shown as plain text (`plain_text`, or spans asked).
    pub plain_text: bool,
}

impl Task {
    /// The label for the `index`-th letter (0 → "Output A").
    pub fn label(&self, index: usize) -> String {
        self.label_format.replacen("{}", &letter(index), 1)
    }
}

/// The error spans a task asks for (`spans`), with defaults resolved.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Spans {
    /// The severities offered, in order, at least one, none twice.
    pub severities: Vec<Severity>,
    /// The categories offered, none twice; empty when none is asked.
    pub categories: Vec<String>,
    /// Whether an error of the whole output (no span) may be marked.
    pub whole_output: bool,
    /// The instruction shown with each output.
    pub question: String,
}

impl Task {
    /// Trials per item for a study with `systems` systems.
    pub fn trials_per_item(&self, systems: usize) -> usize {
        match self.presentation {
            Presentation::Single => systems,
            Presentation::SideBySide => match self.tuple_size(systems) {
                Some(_) => systems,
                None => 1,
            },
            Presentation::Pairs => self.pairs.count(systems),
        }
    }

    /// The outputs each trial of a task shows when it shows a tuple, fewer than there are
    /// systems ([`crate::plan`]'s tuple design: best–worst); `None` when it shows them all.
    pub fn tuple_size(&self, systems: usize) -> Option<usize> {
        self.preference
            .as_ref()
            .map(|p| p.tuple_size)
            .filter(|&k| k > 0 && k < systems)
    }

    /// Whether the task ever shows `system` (an index into [`Study::systems`]): always, unless
    /// it compares pairs that leave the system out.
    pub fn shows(&self, system: usize, systems: usize) -> bool {
        match self.presentation {
            Presentation::Single | Presentation::SideBySide => system < systems,
            Presentation::Pairs => self
                .pairs
                .pairs(systems)
                .iter()
                .any(|&(a, b)| a == system || b == system),
        }
    }
}

/// Which pairs of systems a `pairs` task compares. Systems are indices into
/// [`Study::systems`]; validation has checked that they exist, that no pair pairs a system with
/// itself and that no pair is listed twice (in either order).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub enum PairSet {
    /// Every pair of systems (`pairs` absent).
    #[default]
    All,
    /// The anchor against each other system (`{"anchor": SYSTEM}`).
    Anchor(usize),
    /// These pairs, as written (`{"list": [[A, B], ...]}`).
    List(Vec<(usize, usize)>),
}

impl PairSet {
    /// The pairs for a study with `systems` systems, each as `(a, b)`: every pair with `a < b`
    /// in system order, the anchor as `a` with each other system in system order, or the
    /// listed pairs in the order written.
    pub fn pairs(&self, systems: usize) -> Vec<(usize, usize)> {
        match self {
            PairSet::All => (0..systems)
                .flat_map(|a| (a + 1..systems).map(move |b| (a, b)))
                .collect(),
            PairSet::Anchor(anchor) => (0..systems)
                .filter(|&b| b != *anchor)
                .map(|b| (*anchor, b))
                .collect(),
            PairSet::List(list) => list.clone(),
        }
    }

    /// How many pairs [`PairSet::pairs`] gives, without listing them.
    pub fn count(&self, systems: usize) -> usize {
        match self {
            PairSet::All => systems * systems.saturating_sub(1) / 2,
            PairSet::Anchor(_) => systems.saturating_sub(1),
            PairSet::List(list) => list.len(),
        }
    }
}

/// A preference question.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Preference {
    /// Kind.
    pub kind: PreferenceKind,
    /// The question.
    pub question: String,
    /// Whether a tie is offered (choice only).
    pub allow_tie: bool,
    /// A graded preference's labels, one per point, A's side first ("Same" in the middle);
    /// empty for other kinds.
    pub grades: Vec<String>,
    /// Whether "Cannot judge" is offered.
    pub allow_skip: bool,
    /// The free-text reason.
    pub explanation: Requirement,
    /// With best–worst: the outputs each trial shows (0 for other kinds).
    pub tuple_size: usize,
}

/// The labels of a graded preference of `points` points (odd, 3 to 9), A's strongest first:
/// "A much better" … "Same" … "B much better".
pub fn default_grades(points: u32) -> Vec<String> {
    let half = (points / 2) as usize;
    let words: &[&str] = match half {
        1 => &["better"],
        2 => &["much better", "slightly better"],
        3 => &["much better", "better", "slightly better"],
        _ => &[
            "much better",
            "better",
            "somewhat better",
            "slightly better",
        ],
    };
    let mut out: Vec<String> = words.iter().map(|w| format!("A {w}")).collect();
    out.push("Same".to_owned());
    out.extend(words.iter().rev().map(|w| format!("B {w}")));
    out
}

/// An item.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Item {
    /// Identifier.
    pub id: String,
    /// Group.
    pub group: Option<String>,
    /// Named groupings (`groups`): value by grouping name.
    pub groups: BTreeMap<String, String>,
    /// Round.
    pub round: Option<u32>,
    /// Prompt (Markdown).
    pub prompt: Text,
    /// Extra context (Markdown).
    pub context: Option<Text>,
    /// Media.
    pub media: Option<Media>,
    /// Output by system id; exactly the study's systems (Markdown, unless the tasks show
    /// outputs as plain text).
    pub outputs: BTreeMap<String, Text>,
    /// A personal item's slots (`for`); empty with `for_ids` empty: for everyone.
    pub for_slots: Vec<u32>,
    /// A personal item's annotator ids (`for`).
    pub for_ids: Vec<String>,
}

/// The time and cost of a whole study ([`Study::budget`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Budget {
    pub annotators: u32,
    /// One annotator's estimate.
    pub minutes: u32,
    /// Annotator-hours in all.
    pub hours: f64,
    /// `hours` × the hourly rate, when one was given.
    pub cost: Option<f64>,
}

/// An annotator id as Juror keeps it: without spaces and in lower case, so that a code typed
/// `AB 12` on one visit and `ab12` on the next selects the same plan and finds the same saved
/// answers. Prolific's ids are lower case already.
pub fn participant_code(raw: &str) -> String {
    raw.chars()
        .filter(|c| !c.is_whitespace())
        .flat_map(char::to_lowercase)
        .collect()
}

/// The key under which a published study keeps the personal plan of the participant whose code
/// ([`participant_code`]) is `code`, and names them in its items' `for`: `h-` and the SHA-256 of
/// the study's id and the code. A published study is public to anyone with its address: its
/// participants' platform ids are not in it, and the same participant has unrelated keys in two
/// studies. (A short code such as `p07` is easily guessed from its key; a platform's id is not.)
pub fn personal_key(study_id: &str, code: &str) -> String {
    let mut key = String::from("h-");
    key.push_str(&crate::base::digest::sha256_hex_of(&[
        "juror.personal/1\u{0}",
        study_id,
        "\u{0}",
        code,
    ]));
    key
}

/// The name of the grouping an item's `group` makes.
pub const GROUP: &str = "group";

impl Item {
    /// The item's value in a grouping: `"group"` is the item's `group`, any other name one of
    /// its named `groups`.
    pub fn grouping(&self, name: &str) -> Option<&str> {
        if name == GROUP {
            self.group.as_deref()
        } else {
            self.groups.get(name).map(String::as_str)
        }
    }

    /// Whether the item is personal (`for`).
    pub fn is_personal(&self) -> bool {
        !self.for_slots.is_empty() || !self.for_ids.is_empty()
    }

    /// Whether a personal item is for this annotator (ids compared as
    /// [`participant_code`] keeps them).
    pub fn is_for(&self, slot: u32, id: Option<&str>) -> bool {
        let id = id.map(participant_code);
        self.for_slots.contains(&slot)
            || id.is_some_and(|id| self.for_ids.iter().any(|x| participant_code(x) == id))
    }

    /// The annotators a personal item is for, each written `slot N` or `id X` (X as
    /// [`participant_code`] keeps it): a slot and an id are different annotators.
    fn annotators(&self) -> Vec<String> {
        let slots = self.for_slots.iter().map(|s| format!("slot {s}"));
        let ids = self
            .for_ids
            .iter()
            .map(|i| format!("id {}", participant_code(i)));
        slots.chain(ids).collect()
    }
}

/// The prompts personal items share across annotators, each with its pairs of items for
/// different annotators (the output divergence's pairs): personal items whose prompts are equal
/// once leading and trailing white space is trimmed, in the same round (items without a round
/// together), paired when their `for` lists name no annotator in common. Only prompts with a
/// pair, in the order of their text then round.
pub fn shared_prompts(items: &[Item]) -> Vec<Vec<(&Item, &Item)>> {
    /// A prompt: its trimmed text and its round.
    type Prompt = (String, Option<u32>);
    let mut by_prompt: BTreeMap<Prompt, Vec<(&Item, Vec<String>)>> = BTreeMap::new();
    for item in items.iter().filter(|i| i.is_personal()) {
        by_prompt
            .entry((item.prompt.plain().trim().to_owned(), item.round))
            .or_default()
            .push((item, item.annotators()));
    }
    by_prompt
        .values()
        .map(|items| {
            let mut pairs = Vec::new();
            for (i, (a, who_a)) in items.iter().enumerate() {
                for (b, who_b) in &items[i + 1..] {
                    if !who_a.iter().any(|x| who_b.contains(x)) {
                        pairs.push((*a, *b));
                    }
                }
            }
            pairs
        })
        .filter(|pairs| !pairs.is_empty())
        .collect()
}

/// Image or video.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Media {
    /// Kind.
    pub kind: MediaKind,
    /// URL relative to the study file.
    pub src: String,
    /// Text alternative.
    pub alt: String,
}

#[cfg(test)]
mod tests {
    use super::{Scale, ScaleKind, ScalePoint, letter};

    fn scale(points: std::ops::RangeInclusive<i32>, labelled: &[i32]) -> Scale {
        Scale {
            points: points
                .map(|value| ScalePoint {
                    value,
                    label: labelled.contains(&value).then(|| format!("p{value}")),
                    description: None,
                })
                .collect(),
            kind: ScaleKind::Likert,
            step: 1,
        }
    }

    /// UX walkthrough 2026-12-01, finding 8: the rubric of a 0–100 score lists its anchors.
    #[test]
    fn a_sliders_rubric_lists_its_anchors_and_a_short_scale_every_point() {
        let wide = scale(0..=100, &[0, 33, 66, 100]);
        let shown: Vec<i32> = wide.rubric_points().map(|p| p.value).collect();
        assert_eq!(shown, [0, 33, 66, 100]);
        assert!(!wide.described());
        let short = scale(1..=5, &[1, 5]);
        assert_eq!(short.rubric_points().count(), 5);
        let mut described = short.clone();
        described.points[2].description = Some("middling".into());
        assert!(described.described());
    }

    #[test]
    fn letters_run_like_spreadsheet_columns() {
        let got: Vec<String> = [0, 1, 25, 26, 27, 51, 52, 701, 702].map(letter).to_vec();
        assert_eq!(got, ["A", "B", "Z", "AA", "AB", "AZ", "BA", "ZZ", "AAA"]);
    }
}
