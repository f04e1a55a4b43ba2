//! The compiled study: a validated study with its Markdown already rendered, written once on
//! the researcher's machine ([`compile`], `juror compile`) so that the annotator's page can
//! play it with a lean reader ([`read`]) and no Markdown parser, full validator or planner.
//!
//! A compiled study is one JSON object, written compactly:
//!
//! ```json
//! {"format":"juror.compiled/3","source_sha256":"…","checksum":"…","cover":{…},"study":{…}}
//! ```
//!
//! `source_sha256` is the SHA-256 of the study file it was compiled from (the one every ratings
//! file carries, so that the analysis of the original study matches them); `study` is the
//! validated model ([`crate::study::Study`], without its analysis plan), every Markdown field a
//! [`rich::Text::Rich`] tree (outputs shown as plain text a tree of one text node); `cover` is
//! what its welcome page needs ([`Cover::of`] the study); `checksum` is the SHA-256 of the exact
//! text of `cover` followed by the exact text of `study`.
//!
//! [`read`] checks the format, the checksum, the model's shape (rich trees are checked again as
//! they are read: [`crate::base::rich`]), every count within the caps a study as written is held to
//! ([`crate::study::limits`]), then the structure the page relies on: every index in range,
//! every output a plan shows present, no Markdown left unrendered, the cover the study's.
//! [`read_cover`] checks the format and the checksum and reads the cover only; the annotator's
//! page shows the welcome page from [`peek_cover`] (the envelope and the cover, neither the
//! checksum computed nor the study read), checks with [`read_cover`] once that page is painted,
//! and reads the study with [`read`] while the annotator reads that page. Each problem is
//! placed and has a stable code; [`explain`] gives the full text of each code, for the
//! researcher (`juror validate`, the researcher's page): the page shows the code and place
//! only.

use std::fmt;

use crate::base::digest::sha256_hex_of;
use crate::base::json;
use crate::base::problem;
use crate::base::rich::{Node, Text};
use crate::front::cover::{self, Cover};
use crate::front::open::Opened;
use crate::study::published::Trial;
use crate::study::{AttentionCheck, PairSet, Presentation, Study, from_json};

/// The `format` of compiled studies.
pub const FORMAT: &str = "juror.compiled/3";

/// A compiled study's cover, read and checked against the checksum ([`read_cover`]).
#[derive(Debug, Clone, PartialEq)]
pub struct Covered {
    /// What the welcome page needs.
    pub cover: Cover,
    /// The SHA-256 of the study file it was compiled from, lowercase hex (what ratings files
    /// carry, and what names the saved answers).
    pub sha256: String,
}

/// A compiled study, read and checked.
#[derive(Debug, Clone, PartialEq)]
pub struct Compiled {
    /// The study, every Markdown field rendered.
    pub study: Study,
    /// The SHA-256 of the study file it was compiled from, lowercase hex (what ratings files
    /// carry).
    pub sha256: String,
}

/// One thing wrong with a compiled study: where, a stable code ([`CODES`]) and a short detail.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// Where: a JSON path (`study.items[3].outputs`), or `(top level)`.
    pub at: String,
    /// What is wrong, as a stable code (`compiled.index`); [`explain`] gives its full text.
    pub code: &'static str,
    /// The particulars (`4 of 3 items`).
    pub detail: String,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {} [{}]", self.at, self.detail, self.code)
    }
}

impl Problem {
    /// The problem as the annotator's page lists it: the place, the detail and the code, and
    /// what to do (the code's full text is the researcher's: [`explain`]).
    pub fn short(&self) -> problem::Problem {
        problem::Problem {
            at: self.at.clone(),
            message: format!("{} [{}]", self.detail, self.code),
            fix: format!(
                "tell the researcher who sent the link, with the code {} (their checker says \
                 what it means)",
                self.code
            ),
        }
    }

    /// The problem with its code's full text as the fix, for the researcher ([`explain`]).
    pub fn explained(&self) -> problem::Problem {
        problem::Problem {
            at: self.at.clone(),
            message: format!("{} [{}]", self.detail, self.code),
            fix: explain(self.code).to_owned(),
        }
    }
}

/// Every problem found in a compiled study, written one per line as a study's are.
pub type Problems = problem::Problems<Problem>;

impl Problems {
    /// Each problem as the annotator's page lists it ([`Problem::short`]).
    pub fn short(&self) -> problem::Problems {
        problem::Problems(self.0.iter().map(Problem::short).collect())
    }

    /// Each problem with its code's full text ([`Problem::explained`]).
    pub fn explained(&self) -> problem::Problems {
        problem::Problems(self.0.iter().map(Problem::explained).collect())
    }
}

impl Compiled {
    /// The study as every reader of a study file gives it: the model, and the SHA-256 that
    /// names its saved answers and ratings files (the source's).
    pub fn opened(self) -> Opened {
        Opened {
            study: self.study,
            sha256: self.sha256,
        }
    }
}

/// The file is not JSON, or lacks `source_sha256`, `checksum`, `cover` or `study`.
pub const ENVELOPE: &str = "compiled.envelope";
/// The `format` is not [`FORMAT`].
pub const FORMAT_CODE: &str = "compiled.format";
/// The cover's and the study's text do not match their checksum.
pub const CHECKSUM: &str = "compiled.checksum";
/// The study does not read as a study (a missing field, a wrong type, a refused rich tree).
pub const SHAPE: &str = "compiled.study";
/// An index points past the end of what it indexes.
pub const INDEX: &str = "compiled.index";
/// An id names nothing in the study.
pub const UNKNOWN: &str = "compiled.unknown";
/// An output the page would show is missing.
pub const OUTPUT: &str = "compiled.output";
/// A trial shows a number of outputs its task does not, or one label twice.
pub const SHOWN: &str = "compiled.shown";
/// A Markdown field was left as written, unrendered.
pub const SOURCE: &str = "compiled.source";
/// A count the page plans with is outside what a study allows.
pub const COUNT: &str = "compiled.count";
/// The cover does not read as a cover, or is not the study's.
pub const COVER: &str = "compiled.cover";

/// Every code [`read`] can give, with its full explanation (what [`explain`] returns).
pub const CODES: &[(&str, &str)] = &[
    (
        ENVELOPE,
        "The file is not a compiled study: it is not JSON, or it lacks one of the fields \
         `source_sha256`, `checksum`, `cover` and `study`. Compile the study again with \
         `juror compile STUDY` (or `juror publish`) and serve the file it writes.",
    ),
    (
        FORMAT_CODE,
        "The file's `format` is not `juror.compiled/3`: it is a study file as written (which the \
         annotator's page does not play: compile it with `juror compile STUDY`), or a compiled \
         study from another version of Juror (`juror.compiled/1` had no cover; `/2` labelled outputs per design, not per task). Compile the \
         study again with this version.",
    ),
    (
        CHECKSUM,
        "The study's text has changed since it was compiled: the SHA-256 of its `cover` and \
         `study` is not the `checksum` written beside them. A compiled study is never edited by \
         hand (an edit could unbalance the plans or unblind the study): edit the study file and \
         compile it again.",
    ),
    (
        SHAPE,
        "The compiled study does not read as a study: a field is missing or of the wrong type, \
         or a rendered text holds an element, attribute, link or image that is not allowed. \
         Compile the study again with this version of Juror.",
    ),
    (
        INDEX,
        "A number that points into a list of the study (a task's items, a plan's task, item or \
         output, a pair of systems) is past the end of that list. Compile the study again.",
    ),
    (
        UNKNOWN,
        "An id (an attention check's item or dimension, a task's dimension or question) names \
         nothing in the study. Compile the study again.",
    ),
    (
        OUTPUT,
        "An item has no output for a system that a task or plan shows with it. Compile the \
         study again.",
    ),
    (
        SHOWN,
        "A trial of a plan shows a number of outputs that its task does not show (one for \
         `single`, two for `pairs`, every output or the best–worst tuple for `side_by_side`), \
         or one label twice. Compile the study again.",
    ),
    (
        SOURCE,
        "A text the page shows as formatted (a description, instructions, a prompt, an output) \
         is Markdown as written, not rendered: the annotator's page has no Markdown renderer. \
         Compile the study again.",
    ),
    (
        COUNT,
        "A count the page plans with is outside what a study allows: a best–worst tuple size \
         from 3 to the number of systems, an assignment's slots (1 or more) with 1 to that many \
         annotators per item, a personal item's slots within them. Compile the study again.",
    ),
    (
        COVER,
        "The compiled study's `cover` (what its welcome page shows: title, description, counts, \
         slots) does not read as a cover, or is not what the study itself says. Compile the \
         study again with this version of Juror.",
    ),
];

/// The full explanation of a code from [`CODES`] (for the researcher: `juror validate`, the
/// researcher's page); a line saying the code is unknown otherwise.
pub fn explain(code: &str) -> &'static str {
    CODES.iter().find(|(c, _)| *c == code).map_or(
        "A code this version of Juror does not know.",
        |(_, text)| text,
    )
}

/// Whether `text` claims to be a compiled study (its `format` starts with `juror.compiled`),
/// whatever else is wrong with it: for tools that accept a study file or a compiled study.
pub fn is_compiled(text: &str) -> bool {
    // Read only as far as `format`, the first member of a compiled study (and of most studies
    // as written): a study of 20 MB is not read through twice before its welcome page.
    json::text::member(text, "format")
        .ok()
        .flatten()
        .and_then(|raw| string_of("format", Some(raw)).ok().flatten())
        .is_some_and(|f| f.starts_with("juror.compiled"))
}

/// The compiled study of `opened`, as text (compact JSON with a trailing newline): every
/// Markdown field rendered by `render(markdown, shift)`, `shift` the number of levels its
/// headings move down (2 for an item's prompt, context and outputs, which the page shows
/// under a heading of its own, 1 for the rest), except the outputs of items that a task shows
/// as plain text (`plain_text`, or spans asked), which become one text node each, as written.
///
/// An item shown by a plain-text task and by another task is shown as plain text by both.
/// The study's analysis plan is left out. The same study and renderer give the same text.
pub fn compile(opened: &Opened, render: impl Fn(&str, usize) -> Vec<Node>) -> String {
    let mut study = opened.study.clone();
    study.analysis = None;
    render_texts(&mut study, render);
    let cover = serde_json::to_string(&Cover::of(&study)).unwrap_or_default();
    let payload = serde_json::to_string(&study).unwrap_or_default();
    // Cover and study exactly as hashed (both hashes are hex: nothing to escape).
    format!(
        "{{\"format\":\"{FORMAT}\",\"source_sha256\":\"{}\",\"checksum\":\"{}\",\"cover\":{cover},\"study\":{payload}}}\n",
        opened.sha256,
        checksum(&cover, &payload)
    )
}

/// Renders every Markdown field of `study` that is still as written, as [`compile`] does: by
/// `render(markdown, shift)`, the outputs of items a task shows as plain text as one text node
/// each. The researcher's page plays a study as written this way, so that what it shows is what
/// the compiled study shows.
pub fn render_texts(study: &mut Study, render: impl Fn(&str, usize) -> Vec<Node>) {
    for item in plain_items(study) {
        if let Some(item) = study.items.get_mut(item) {
            for text in item.outputs.values_mut() {
                if let Text::Source(s) = text {
                    *text = Text::Rich(vec![Node::Text(std::mem::take(s))]);
                }
            }
        }
    }
    each_text(study, &mut |text, shift, _| {
        if let Text::Source(s) = text {
            *text = Text::Rich(render(s, shift));
        }
    });
}

/// The items whose outputs a task shows as plain text, by index.
fn plain_items(study: &Study) -> Vec<usize> {
    let tasks = &study.design.tasks;
    let mut items: Vec<usize> = tasks
        .iter()
        .filter(|t| t.plain_text)
        .flat_map(|t| t.items.iter().copied())
        .collect();
    let plans = study.design.plans.iter().flatten();
    for trial in plans.chain(study.design.personal_plans.values()).flatten() {
        if tasks.get(trial.task).is_some_and(|t| t.plain_text) {
            items.push(trial.item);
        }
    }
    items.sort_unstable();
    items.dedup();
    items
}

/// What [`each_text`] calls on each Markdown field: the field, its heading shift, and its place
/// (made only when asked).
type OnText<'a> = dyn FnMut(&mut Text, usize, &dyn Fn() -> String) + 'a;

/// Calls `f` on every Markdown field of `study` with its heading shift and its place.
fn each_text(study: &mut Study, f: &mut OnText<'_>) {
    if let Some(t) = &mut study.description {
        f(t, 1, &|| "study.description".to_owned());
    }
    if let Some(t) = &mut study.instructions {
        f(t, 1, &|| "study.instructions".to_owned());
    }
    if let Some(t) = &mut study.debrief {
        f(t, 1, &|| "study.debrief".to_owned());
    }
    f(&mut study.screened_message, 1, &|| {
        "study.screened_message".to_owned()
    });
    if let Some(c) = &mut study.consent {
        f(&mut c.text, 1, &|| "study.consent.text".to_owned());
    }
    let rubric = &mut study.rubric;
    for (i, t) in rubric.look_for.iter_mut().enumerate() {
        f(t, 1, &|| format!("study.rubric.look_for[{i}]"));
    }
    for (i, t) in rubric.avoid.iter_mut().enumerate() {
        f(t, 1, &|| format!("study.rubric.avoid[{i}]"));
    }
    for (i, e) in rubric.examples.iter_mut().enumerate() {
        if let Some(t) = &mut e.prompt {
            f(t, 1, &|| format!("study.rubric.examples[{i}].prompt"));
        }
        f(&mut e.output, 1, &|| {
            format!("study.rubric.examples[{i}].output")
        });
    }
    for (i, task) in study.design.tasks.iter_mut().enumerate() {
        if let Some(t) = &mut task.instructions {
            f(t, 1, &|| format!("study.design.tasks[{i}].instructions"));
        }
    }
    for (i, item) in study.items.iter_mut().enumerate() {
        f(&mut item.prompt, 2, &|| format!("study.items[{i}].prompt"));
        if let Some(t) = &mut item.context {
            f(t, 2, &|| format!("study.items[{i}].context"));
        }
        for (system, t) in &mut item.outputs {
            f(t, 2, &|| format!("study.items[{i}].outputs.{system}"));
        }
    }
}

/// The parts of a compiled study whose format and checksum hold: the cover's and the study's
/// exact text.
struct Parts<'a> {
    sha256: String,
    cover: &'a str,
    study: &'a str,
}

/// One problem.
fn one(at: &str, code: &'static str, detail: String) -> Problems {
    problem::Problems(vec![Problem {
        at: at.to_owned(),
        code,
        detail,
    }])
}

/// The checksum of a compiled study: the SHA-256 of its cover's text, then its study's.
fn checksum(cover: &str, study: &str) -> String {
    sha256_hex_of(&[cover, study])
}

/// A compiled study's envelope: each member's exact text (`None` if absent or `null`; a member
/// given twice is refused, so that every reader reads the same cover and study). Read by
/// `json::text`, so that the annotator's first download carries no other JSON parser: the
/// study itself is parsed only by [`read`].
#[derive(Default)]
struct Envelope<'a> {
    format: Option<&'a str>,
    source_sha256: Option<&'a str>,
    checksum: Option<&'a str>,
    cover: Option<&'a str>,
    study: Option<&'a str>,
}

fn envelope(text: &str) -> Result<Envelope<'_>, String> {
    let mut e = Envelope::default();
    let mut seen = 0u8;
    for (key, raw) in json::text::members(text).map_err(|e| e.to_string())? {
        let (bit, member) = match key.as_str() {
            "format" => (1, &mut e.format),
            "source_sha256" => (2, &mut e.source_sha256),
            "checksum" => (4, &mut e.checksum),
            "cover" => (8, &mut e.cover),
            "study" => (16, &mut e.study),
            _ => continue,
        };
        if seen & bit != 0 {
            return Err(format!("{key} given twice"));
        }
        seen |= bit;
        *member = (raw != "null").then_some(raw);
    }
    Ok(e)
}

/// The string a member's text is.
fn string_of(name: &str, raw: Option<&str>) -> Result<Option<String>, String> {
    let Some(raw) = raw else { return Ok(None) };
    match json::text::value(raw).map_err(|e| e.to_string())? {
        json::Value::String(s) => Ok(Some(s)),
        _ => Err(format!("{name}: expected a string")),
    }
}

/// The envelope of a compiled study: its format checked, and its checksum when `sum`.
fn parts(text: &str, sum: bool) -> Result<Parts<'_>, Problems> {
    let top = "(top level)";
    let shape = |detail: String| one(top, ENVELOPE, detail);
    let envelope = envelope(text).map_err(shape)?;
    format_is_ours(envelope.format)?;
    let (Some(sha256), Some(written), Some(cover), Some(study)) = (
        string_of("source_sha256", envelope.source_sha256).map_err(shape)?,
        string_of("checksum", envelope.checksum).map_err(shape)?,
        envelope.cover,
        envelope.study,
    ) else {
        return Err(shape(
            "source_sha256, checksum, cover or study missing".to_owned(),
        ));
    };
    if sum && checksum(cover, study) != written {
        return Err(one(
            "study",
            CHECKSUM,
            "the SHA-256 of the cover and the study is not their checksum".to_owned(),
        ));
    }
    Ok(Parts {
        sha256,
        cover,
        study,
    })
}

/// Checks the `format` member's exact text names [`FORMAT`].
fn format_is_ours(raw: Option<&str>) -> Result<(), Problems> {
    let format = string_of("format", raw).map_err(|detail| one("(top level)", ENVELOPE, detail))?;
    if format.as_deref() == Some(FORMAT) {
        return Ok(());
    }
    let found = format.unwrap_or_else(|| "none".to_owned());
    Err(one("format", FORMAT_CODE, format!("{found}, not {FORMAT}")))
}

/// The cover of a compiled study's parts.
fn parse_cover(cover: &str) -> Result<Cover, Problems> {
    let value = json::text::value(cover).map_err(|e| one("cover", COVER, e.to_string()))?;
    cover::read(&value).map_err(|e| one(&e.place("cover"), COVER, e.what().to_owned()))
}

/// Reads a compiled study's cover: the format, the checksum over the cover's and the study's
/// exact text, then the cover (the study itself is not read: [`read`] does, and checks the
/// cover is the study's). Never panics, whatever the text.
///
/// # Errors
/// The first problem found, placed and coded.
pub fn read_cover(text: &str) -> Result<Covered, Problems> {
    covered(parts(text, true)?)
}

/// Reads a compiled study's cover ahead of [`read_cover`]: the envelope and the cover as
/// [`read_cover`] reads them (a member given twice refused alike, so that both give the same
/// cover), but neither the checksum computed nor the study read, so that the welcome page waits
/// for neither. What it gives is provisional: nothing may be answered before [`read_cover`] (or
/// [`read`]) has read the same text and agreed (the annotator's page shows the welcome page
/// from it, then checks while the rest of its code downloads). Never panics, whatever the text.
///
/// # Errors
/// The first problem found in the envelope or the cover, placed and coded.
pub fn peek_cover(text: &str) -> Result<Covered, Problems> {
    covered(parts(text, false)?)
}

/// The cover of a compiled study's parts, and its source's SHA-256.
fn covered(parts: Parts<'_>) -> Result<Covered, Problems> {
    Ok(Covered {
        cover: parse_cover(parts.cover)?,
        sha256: parts.sha256,
    })
}

/// Reads a compiled study: the format, the checksum over the cover's and the study's exact
/// text, the study itself, then its structure and its cover (see the module's documentation).
/// Never panics, whatever the text.
///
/// # Errors
/// Every problem found, each placed and coded; the first stage that fails stops the reading
/// (a study that does not read is not checked further).
pub fn read(text: &str) -> Result<Compiled, Problems> {
    let parts = parts(text, true)?;
    let cover = parse_cover(parts.cover)?;
    let value: serde_json::Value =
        serde_json::from_str(parts.study).map_err(|e| one("study", SHAPE, e.to_string()))?;
    let study = from_json::study(&value);
    // The parsed tree is freed in one piece here, before anything else is allocated.
    drop(value);
    let mut study = study.map_err(|e| one(&e.place("study"), SHAPE, e.what().to_owned()))?;
    // First the caps a study as written is held to, alone, as validation gives them.
    let over = crate::study::limits::check_model(&study);
    if !over.is_empty() {
        let placed = over.into_iter().map(|p| Problem {
            at: format!("study.{}", p.at),
            code: COUNT,
            detail: p.message,
        });
        return Err(problem::Problems(placed.collect()));
    }
    let mut problems = structure(&mut study);
    if problems.is_empty() && Cover::of(&study) != cover {
        problems.push(Problem {
            at: "cover".to_owned(),
            code: COVER,
            detail: "not the study's cover".to_owned(),
        });
    }
    if problems.is_empty() {
        Ok(Compiled {
            study,
            sha256: parts.sha256,
        })
    } else {
        Err(problem::Problems(problems))
    }
}

/// What the page relies on, beyond the study's shape.
fn structure(study: &mut Study) -> Vec<Problem> {
    let mut out = Vec::new();
    let mut push = |at: String, code, detail: String| out.push(Problem { at, code, detail });
    let (items, systems) = (study.items.len(), study.systems.len());
    let tasks = &study.design.tasks;
    for (t, task) in tasks.iter().enumerate() {
        for (k, &item) in task.items.iter().enumerate() {
            if item >= items {
                push(
                    format!("study.design.tasks[{t}].items[{k}]"),
                    INDEX,
                    format!("item {item} of {items}"),
                );
            }
        }
        let pairs = match &task.pairs {
            PairSet::All => Vec::new(),
            PairSet::Anchor(a) => vec![*a],
            PairSet::List(list) => list.iter().flat_map(|&(a, b)| [a, b]).collect(),
        };
        if let Some(s) = pairs.iter().find(|&&s| s >= systems) {
            push(
                format!("study.design.tasks[{t}].pairs"),
                INDEX,
                format!("system {s} of {systems}"),
            );
        }
        let named = task.dimensions.iter().map(|d| (d, "dimensions"));
        let asked = task
            .output_questions
            .iter()
            .map(|q| (q, "output_questions"));
        for (id, field) in named.chain(asked) {
            let known = match field {
                "dimensions" => study.rubric.dimensions.iter().any(|d| &d.id == id),
                _ => study.rubric.output_questions.iter().any(|q| &q.id == id),
            };
            if !known {
                push(
                    format!("study.design.tasks[{t}].{field}"),
                    UNKNOWN,
                    format!("\"{id}\""),
                );
            }
        }
    }
    counts(study, &mut push);
    for (c, check) in study.design.attention_checks.iter().enumerate() {
        if study.item(check.item()).is_none() {
            push(
                format!("study.design.attention_checks[{c}].item"),
                UNKNOWN,
                format!("\"{}\"", check.item()),
            );
        }
        if let AttentionCheck::Rating { dimension, .. } = check
            && study.dimension(dimension).is_none()
        {
            push(
                format!("study.design.attention_checks[{c}].dimension"),
                UNKNOWN,
                format!("\"{dimension}\""),
            );
        }
    }
    match &study.design.plans {
        None => {
            // The page plans the study itself: any item of a task with any system.
            let mut shown: Vec<usize> = tasks.iter().flat_map(|t| t.items.clone()).collect();
            shown.sort_unstable();
            shown.dedup();
            for i in shown {
                let Some(item) = study.items.get(i) else {
                    continue;
                };
                if let Some(s) = study
                    .systems
                    .iter()
                    .find(|s| !item.outputs.contains_key(*s))
                {
                    push(
                        format!("study.items[{i}].outputs"),
                        OUTPUT,
                        format!("no output of \"{s}\""),
                    );
                }
            }
        }
        Some(plans) => {
            for (s, plan) in plans.iter().enumerate() {
                trials(study, &format!("study.design.plans[{s}]"), plan, &mut push);
            }
        }
    }
    for (id, plan) in &study.design.personal_plans {
        trials(
            study,
            &format!("study.design.personal_plans.{id}"),
            plan,
            &mut push,
        );
    }
    each_text(study, &mut |text, _, at| {
        if matches!(text, Text::Source(_)) {
            push(at(), SOURCE, "Markdown not rendered".to_owned());
        }
    });
    out
}

/// The counts the planner relies on, as validation bounds them.
fn counts(study: &Study, push: &mut dyn FnMut(String, &'static str, String)) {
    let systems = study.systems.len();
    for (t, task) in study.design.tasks.iter().enumerate() {
        let Some(p) = &task.preference else {
            continue;
        };
        let size = p.tuple_size;
        if !p.tuple_size_fits(systems) {
            push(
                format!("study.design.tasks[{t}].preference.tuple_size"),
                COUNT,
                format!("{size} of {systems} systems"),
            );
        }
    }
    let Some(a) = study.design.assignment else {
        return;
    };
    if a.slots == 0 || a.annotators_per_item == 0 || a.annotators_per_item > a.slots {
        push(
            "study.design.assignment".to_owned(),
            COUNT,
            format!(
                "{} annotators per item of {} slots",
                a.annotators_per_item, a.slots
            ),
        );
    }
    for (i, item) in study.items.iter().enumerate() {
        if item.for_slots.iter().any(|&s| s == 0 || s > a.slots) {
            push(
                format!("study.items[{i}].for_slots"),
                COUNT,
                format!("a slot outside 1 to {}", a.slots),
            );
        }
    }
}

/// Checks a stored plan's trials at `at`.
fn trials(
    study: &Study,
    at: &str,
    plan: &[Trial],
    push: &mut dyn FnMut(String, &'static str, String),
) {
    let (tasks, items, systems) = (&study.design.tasks, &study.items, &study.systems);
    for (n, trial) in plan.iter().enumerate() {
        let at = format!("{at}[{n}]");
        let (Some(task), Some(item)) = (tasks.get(trial.task), items.get(trial.item)) else {
            push(
                at,
                INDEX,
                format!(
                    "task {} of {}, item {} of {}",
                    trial.task,
                    tasks.len(),
                    trial.item,
                    items.len()
                ),
            );
            continue;
        };
        let outputs = item.outputs.len();
        let width = match task.presentation {
            Presentation::Single => 1,
            Presentation::Pairs => 2,
            Presentation::SideBySide => task.tuple_size(outputs).unwrap_or(outputs),
        };
        if trial.shown.len() != width || width == 0 {
            push(
                format!("{at}.shown"),
                SHOWN,
                format!("{} outputs where the task shows {width}", trial.shown.len()),
            );
        }
        for (p, shown) in trial.shown.iter().enumerate() {
            match systems.get(shown.system) {
                None => push(
                    format!("{at}.shown[{p}].system"),
                    INDEX,
                    format!("system {} of {}", shown.system, systems.len()),
                ),
                Some(system) if !item.outputs.contains_key(system) => push(
                    format!("{at}.shown[{p}].system"),
                    OUTPUT,
                    format!("item \"{}\" has no output \"{system}\"", item.id),
                ),
                Some(_) => {}
            }
            if trial.shown[..p].iter().any(|x| x.label == shown.label) {
                push(
                    format!("{at}.shown[{p}].label"),
                    SHOWN,
                    format!("the label \"{}\" twice", shown.label),
                );
            }
        }
    }
}
