//! From text to a [`Study`], reporting every problem at once.
//!
//! Three passes, each reporting all it finds before giving up:
//! 1. syntax: `serde_json` gives the line and column of the first syntax error (the JSON cannot
//!    be read past it, so this pass reports one);
//! 2. shape: the document is deserialized into [`RawStudy`]; when that fails, each section and
//!    each item is tried on its own so that one bad item does not hide the next;
//! 3. meaning: [`validate`] checks every rule that types cannot say (unique ids, one output per
//!    system, known dimensions, labelled scale points, ...).
//!
//! Every [`Problem`] names where (a JSON path such as `items[3].outputs`, or a line and column)
//! and what to do about it.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fmt;

use serde::de::DeserializeOwned;
use serde_json::Value;

use super::analysis_plan::AnalysisPlan;
use super::model::*;
use super::raw::*;
use crate::number::Num;

/// One thing wrong with a study file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// Where: a JSON path (`items[3].outputs`), `line 4, column 7`, or `(top level)`.
    pub at: String,
    /// What is wrong.
    pub message: String,
    /// What to do about it.
    pub fix: String,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {} ({})", self.at, self.message, self.fix)
    }
}

/// Every problem found in a study file, in document order as far as possible.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problems(pub Vec<Problem>);

impl Problems {
    /// The problems.
    pub fn iter(&self) -> impl Iterator<Item = &Problem> {
        self.0.iter()
    }
    /// How many.
    pub fn len(&self) -> usize {
        self.0.len()
    }
    /// True when there are none (never the case for an `Err`).
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl fmt::Display for Problems {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, p) in self.0.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{p}")?;
        }
        Ok(())
    }
}

impl std::error::Error for Problems {}

/// What reads a study's `analysis` section into its plan. The study's own reader keeps the
/// section as written (a JSON value) and never reads it, so that the annotator's page, which
/// plays a study and has no use for its plan, carries no reader of it: the researcher's code
/// (`juror validate`, `juror analyze`, the Analyse page, `juror publish`) passes the analysis
/// floor's reader (`analysis::plan_reader::READER`) to [`parse_study_with`] and [`validate_with`],
/// which report the plan's problems where and in the order [`parse_study`] reports the rest.
#[derive(Debug, Clone, Copy)]
pub struct PlanReader {
    /// The section's first mistake of shape (a wrong type, an unknown field), placed as the
    /// rest of the file's are (`analysis.tests[0]`).
    pub shape: fn(&Value) -> Option<Problem>,
    /// The plan, checked against the study's systems, dimensions and intake questions; or
    /// every problem, each placed below `analysis`.
    pub read: fn(&Value, &RawStudy) -> Result<AnalysisPlan, Vec<Problem>>,
}

/// Reads and validates a study file to be played: everything but its `analysis` section, which
/// is kept as written and not read (see [`PlanReader`]; a study whose plan is wrong is still
/// played, and `juror validate` and the Analyse page say what is wrong with the plan).
///
/// # Errors
/// Every problem found, each with where it is and what to do.
pub fn parse_study(text: &str) -> Result<Study, Problems> {
    parse_study_with(text, None)
}

/// [`parse_study`], and the `analysis` section read into the study's plan by `plan`, when given.
///
/// # Errors
/// Every problem found, the plan's included, each with where it is and what to do.
pub fn parse_study_with(text: &str, plan: Option<&PlanReader>) -> Result<Study, Problems> {
    let value: Value = serde_json::from_str(text).map_err(|e| Problems(vec![syntax(&e)]))?;
    let Some(object) = value.as_object() else {
        return Err(one(
            "(top level)",
            "the study must be a JSON object",
            "start the file with { and give the fields described in docs/study-format.md",
        ));
    };
    match object.get("format") {
        Some(Value::String(f)) if f == STUDY_FORMAT_V1 => {}
        Some(Value::String(f)) => {
            return Err(one(
                "format",
                &format!("unknown format version \"{f}\""),
                &format!(
                    "this version of Juror reads \"{STUDY_FORMAT_V1}\" only; set \"format\": \"{STUDY_FORMAT_V1}\" or use the Juror that wrote this file"
                ),
            ));
        }
        Some(_) => {
            return Err(one(
                "format",
                "the format must be a string",
                &format!("set \"format\": \"{STUDY_FORMAT_V1}\""),
            ));
        }
        None => {
            return Err(one(
                "(top level)",
                "missing field \"format\"",
                &format!("add \"format\": \"{STUDY_FORMAT_V1}\" as the first field"),
            ));
        }
    }

    let mut problems = question_key_problems(&value);
    // The plan's mistake of shape, which serde would meet first (fields are read in the order
    // of their names, and `analysis` comes first but for `$schema`).
    let plan_shape = plan.and_then(|r| (r.shape)(object.get("analysis")?));
    match deserialize::<RawStudy>(&value, "") {
        Ok(raw) => {
            problems.extend(plan_shape);
            if !problems.is_empty() {
                return Err(Problems(problems));
            }
            validate_with(&raw, plan)
        }
        Err(first) => {
            let mut found = vec![plan_shape.unwrap_or(first)];
            found.extend(section_problems(object));
            // A question's `type` of the wrong kind is said at it, more precisely than serde can.
            found.retain(|p| !problems.iter().any(|q| q.at == format!("{}.type", p.at)));
            problems.extend(found);
            let mut seen = BTreeSet::new();
            problems.retain(|p| seen.insert((p.at.clone(), p.message.clone())));
            Err(Problems(problems))
        }
    }
}

fn one(at: &str, message: &str, fix: &str) -> Problems {
    Problems(vec![Problem {
        at: at.to_owned(),
        message: message.to_owned(),
        fix: fix.to_owned(),
    }])
}

fn syntax(e: &serde_json::Error) -> Problem {
    // serde_json's message ends with " at line L column C"; the position goes in `at`.
    let full = e.to_string();
    let message = full
        .rfind(" at line ")
        .map_or(full.as_str(), |i| &full[..i])
        .to_owned();
    let fix = if e.is_eof() {
        "the file ends too early: a closing } or ] or a closing quote is missing"
    } else {
        "fix the JSON syntax there; a missing comma or quote, or a trailing comma, is the usual cause"
    };
    Problem {
        at: format!("line {}, column {}", e.line(), e.column()),
        message: format!("JSON syntax error: {message}"),
        fix: fix.to_owned(),
    }
}

fn join_path(prefix: &str, inner: &str) -> String {
    match (prefix.is_empty(), inner.is_empty() || inner == ".") {
        (true, true) => "(top level)".to_owned(),
        (true, false) => inner.to_owned(),
        (false, true) => prefix.to_owned(),
        (false, false) if inner.starts_with('[') => format!("{prefix}{inner}"),
        (false, false) => format!("{prefix}.{inner}"),
    }
}

/// Reads `value` as a `T`, or gives its first mistake of shape placed below `prefix` and said
/// without Rust's type names, as every mistake of shape in a study file is.
///
/// # Errors
/// The first value that does not fit, with its place and a fix.
pub fn read_placed<T: DeserializeOwned>(value: &Value, prefix: &str) -> Result<T, Problem> {
    deserialize(value, prefix)
}

fn deserialize<T: DeserializeOwned>(value: &Value, prefix: &str) -> Result<T, Problem> {
    crate::json_path::read(value).map_err(|e| {
        let (path, message) = match list_for_object::<T>(value, &e.path) {
            Some(placed) => placed,
            None => {
                let path = inner_path(value, &e.path, &e.message);
                let (path, message) = enum_given_object(value, path, &e.message);
                let message = super::shapes::plain(&message, || variants::<T>(value, &path));
                (path, message)
            }
        };
        Problem {
            at: join_path(prefix, &path),
            fix: shape_fix(&message),
            message: message.replace('`', "\""),
        }
    })
}

/// serde reads an object's fields from a list in order (`"rubric": ["…"]` as if its first
/// field were `"…"`), and then complains about a field: the mistake is the list, where an object
/// belongs. Found by reading again with text at each list on the way, which serde says it
/// expects an object for.
fn list_for_object<T: DeserializeOwned>(value: &Value, path: &str) -> Option<(String, String)> {
    let lists = path.match_indices('[').map(|(i, _)| &path[..i]);
    for list in lists {
        let mut probe = value.clone();
        *probe.pointer_mut(&pointer(list))? = Value::String("\u{1}".to_owned());
        let Err(e) = crate::json_path::read::<T>(&probe) else {
            continue;
        };
        let wanted = e.message.split_once(", expected ").map(|(_, w)| w);
        if let Some(name) = wanted.filter(|w| e.path == list && !w.starts_with('a')) {
            let shape = super::shapes::expected(name, None);
            return Some((list.to_owned(), format!("expected {shape}, found a list")));
        }
    }
    None
}

/// serde reads a value with an object as a named variant (`"presentation": {"a": 1}` as the
/// variant `a`): the mistake is the object, where one of the values belongs.
fn enum_given_object(document: &Value, path: String, message: &str) -> (String, String) {
    let variant = message
        .strip_prefix("unknown variant `")
        .and_then(|r| r.split_once('`'));
    if let Some((name, rest)) = variant
        && let Some(parent) = path.strip_suffix(name).and_then(|p| p.strip_suffix('.'))
        && document
            .pointer(&pointer(parent))
            .is_some_and(Value::is_object)
    {
        let list = rest.trim_start_matches(", expected ");
        return (
            parent.to_owned(),
            format!("expected {list} (in quotes), found an object"),
        );
    }
    (path, message.to_owned())
}

/// `items[0].for` as a JSON pointer, `/items/0/for`.
fn pointer(path: &str) -> String {
    let mut out = String::new();
    for part in path.split(['.', '[']).filter(|p| !p.is_empty()) {
        out.push('/');
        out.push_str(
            &part
                .trim_end_matches(']')
                .replace('~', "~0")
                .replace('/', "~1"),
        );
    }
    out
}

/// The values the enum at `path` allows (`one of "single", "pairs"`), found by reading the
/// document again with a value no enum has there.
fn variants<T: DeserializeOwned>(value: &Value, path: &str) -> Option<String> {
    let mut probe = value.clone();
    *probe.pointer_mut(&pointer(path))? = Value::String("\u{1}".to_owned());
    let e = crate::json_path::read::<T>(&probe).err()?;
    let list = e
        .message
        .strip_prefix("unknown variant")?
        .split_once(", expected ")?
        .1;
    Some(list.replace('`', "\""))
}

/// serde reads some objects whole before their fields (a question, whose kind depends on its
/// `type`): a mistake inside one is reported at the object. This places it at the one value
/// inside that the message names (`"type": "choice"`), when exactly one matches.
fn inner_path(document: &Value, path: &str, message: &str) -> String {
    let found = message
        .strip_prefix("invalid type: ")
        .or_else(|| message.strip_prefix("invalid value: "))
        .and_then(|r| r.split(", expected ").next());
    let variant = message
        .strip_prefix("unknown variant `")
        .and_then(|r| r.split('`').next());
    // A kind given as an object or a list: the kind's own key, `type` or `kind`.
    let tag_only = message.ends_with("expected variant identifier");
    let is_it = |v: &Value| match (variant, found) {
        (Some(name), _) => v.as_str() == Some(name),
        (None, Some("map")) => v.is_object(),
        (None, Some("sequence")) => v.is_array(),
        (None, Some(what)) => match v {
            Value::String(s) => what == format!("string {s:?}"),
            Value::Number(n) => what.ends_with(&format!(" `{n}`")),
            Value::Bool(b) => what == format!("boolean `{b}`"),
            _ => false,
        },
        (None, None) => false,
    };
    let Some(node) = document.pointer(&pointer(path)) else {
        return path.to_owned();
    };
    if is_it(node) {
        return path.to_owned();
    }
    let mut hits = Vec::new();
    let base = if path == "." { "" } else { path };
    find_inside(node, base, &is_it, &mut hits);
    if tag_only {
        hits.retain(|h| h.ends_with(".type") || h.ends_with(".kind"));
    }
    match hits.as_slice() {
        [one] => one.clone(),
        _ => path.to_owned(),
    }
}

fn find_inside(node: &Value, path: &str, is_it: &dyn Fn(&Value) -> bool, hits: &mut Vec<String>) {
    let children: Vec<(String, &Value)> = match node {
        Value::Object(map) => map
            .iter()
            .map(|(k, v)| {
                (
                    if path.is_empty() {
                        k.clone()
                    } else {
                        format!("{path}.{k}")
                    },
                    v,
                )
            })
            .collect(),
        Value::Array(list) => list
            .iter()
            .enumerate()
            .map(|(i, v)| (format!("{path}[{i}]"), v))
            .collect(),
        _ => return,
    };
    for (here, v) in children {
        if is_it(v) {
            hits.push(here.clone());
        }
        find_inside(v, &here, is_it, hits);
    }
}

fn shape_fix(message: &str) -> String {
    if message.starts_with("expected ") {
        "write the value in the shape expected".to_owned()
    } else if message.starts_with("missing field") {
        "add the field; docs/study-format.md says what it holds".to_owned()
    } else if message.starts_with("unknown field `prompt`") && message.contains("`question`") {
        "rename it \"question\": a dimension asks its question in \"question\" (survey questions take \"prompt\")".to_owned()
    } else if message.starts_with("unknown field `intake`")
        || message.starts_with("unknown field `exit`")
    {
        "move it into \"surveys\": {\"intake\": [...], \"exit\": [...]}".to_owned()
    } else if message.starts_with("unknown field") {
        "remove the field or correct its spelling".to_owned()
    } else if message.starts_with("unknown variant") || message.starts_with("unknown value") {
        "use one of the values listed".to_owned()
    } else if message.starts_with("invalid") {
        "change the value to the expected type".to_owned()
    } else {
        "see docs/study-format.md for what this field holds".to_owned()
    }
}

/// When the whole document does not deserialize, tries each part alone so that one mistake does
/// not hide the others.
fn section_problems(object: &serde_json::Map<String, Value>) -> Vec<Problem> {
    let mut out = Vec::new();
    let mut push = |r: Result<(), Problem>| {
        if let Err(p) = r {
            out.push(p);
        }
    };
    if let Some(v) = object.get("rubric") {
        push(deserialize::<RawRubric>(v, "rubric").map(drop));
    }
    if let Some(v) = object.get("design") {
        push(deserialize::<RawDesign>(v, "design").map(drop));
    }
    if let Some(v) = object.get("surveys") {
        push(deserialize::<RawSurveys>(v, "surveys").map(drop));
    }
    if let Some(Value::Array(items)) = object.get("items") {
        for (i, v) in items.iter().enumerate() {
            push(deserialize::<RawItem>(v, &format!("items[{i}]")).map(drop));
        }
    }
    out
}

/// Unknown keys in questions (serde cannot deny them there, see [`RawQuestion`]).
fn question_key_problems(study: &Value) -> Vec<Problem> {
    let mut out = Vec::new();
    let lists = [
        ("rubric", "output_questions"),
        ("surveys", "intake"),
        ("surveys", "exit"),
    ];
    for (section, list) in lists {
        let Some(Value::Array(questions)) = study.get(section).and_then(|s| s.get(list)) else {
            continue;
        };
        for (i, q) in questions.iter().enumerate() {
            let Some(obj) = q.as_object() else { continue };
            let kind = match obj.get("type") {
                Some(Value::String(kind)) => kind.as_str(),
                // serde would take a number as the kind's index, and reports an object or a
                // list at the question, not at its `type`.
                Some(other) => {
                    out.push(Problem {
                        at: format!("{section}.{list}[{i}].type"),
                        message: format!(
                            "expected one of \"likert\", \"single_choice\", \"multiple_choice\", \"short_text\", \"long_text\", \"number\", \"rank\" (in quotes), found {}",
                            super::shapes::found_value(other)
                        ),
                        fix: "write the value in the shape expected".to_owned(),
                    });
                    continue;
                }
                None => continue,
            };
            let specific: &[&str] = match kind {
                "likert" => &["scale"],
                "single_choice" => &["options"],
                "multiple_choice" => &["options", "min_selected", "max_selected"],
                "short_text" | "long_text" => &["max_length"],
                "number" => &["min", "max", "integer"],
                "rank" => &["options", "systems"],
                _ => continue,
            };
            let common = [
                "id",
                "prompt",
                "help",
                "required",
                "screen_out",
                "allow_skip",
                "type",
            ];
            for key in obj.keys() {
                if !common.contains(&key.as_str()) && !specific.contains(&key.as_str()) {
                    let allowed: Vec<&str> = common.iter().chain(specific).copied().collect();
                    out.push(Problem {
                        at: format!("{section}.{list}[{i}].{key}"),
                        message: format!(
                            "unknown field \"{key}\" for a {kind} question, expected one of {}",
                            allowed.join(", ")
                        ),
                        fix: if key == "question" {
                            "rename it \"prompt\": survey and output questions take \"prompt\" (dimensions take \"question\")"
                        } else {
                            "remove the field or correct its spelling"
                        }
                        .to_owned(),
                    });
                }
            }
        }
    }
    out
}

/// Collects problems with their paths.
#[derive(Default)]
pub(super) struct Checker {
    problems: Vec<Problem>,
}

impl Checker {
    pub(super) fn error(
        &mut self,
        at: impl Into<String>,
        message: impl Into<String>,
        fix: impl Into<String>,
    ) {
        self.problems.push(Problem {
            at: at.into(),
            message: message.into(),
            fix: fix.into(),
        });
    }

    fn id(&mut self, at: &str, what: &str, id: &str) {
        if id.trim().is_empty() {
            self.error(
                at,
                format!("the {what} id is empty"),
                "give it a short name such as \"relevance\"",
            );
        } else if id.trim() != id || id.chars().any(char::is_control) {
            self.error(
                at,
                format!(
                    "the {what} id \"{id}\" has leading or trailing spaces or control characters"
                ),
                "remove them",
            );
        } else if id.len() > 200 {
            self.error(
                at,
                format!("the {what} id is {} characters long", id.len()),
                "use at most 200 characters",
            );
        }
    }

    pub(super) fn not_blank(&mut self, at: &str, what: &str, text: &str) {
        if text.trim().is_empty() {
            self.error(at, format!("{what} is empty"), format!("write the {what}"));
        }
    }

    /// Reports duplicates among `ids` (each with its own path) and returns the set of ids.
    fn unique<'a>(
        &mut self,
        what: &str,
        ids: impl IntoIterator<Item = (String, &'a str)>,
    ) -> BTreeSet<&'a str> {
        let mut first: HashMap<&str, String> = HashMap::new();
        for (at, id) in ids {
            self.id(&at, what, id);
            if let Some(prev) = first.get(id) {
                self.error(
                    at,
                    format!("duplicate {what} id \"{id}\", first used at {prev}"),
                    "give each one its own id",
                );
            } else {
                first.insert(id, at);
            }
        }
        crate::order::set(first.into_keys())
    }

    fn scale(&mut self, at: &str, raw: &RawScale) -> Scale {
        let slider = raw.is_slider();
        if let Some(kind) = raw
            .kind
            .as_deref()
            .filter(|k| !matches!(*k, "likert" | "slider"))
        {
            self.error(
                format!("{at}.type"),
                format!("unknown scale type \"{kind}\""),
                "use \"likert\" (the default) or \"slider\"",
            );
        }
        let empty = |step| Scale {
            points: Vec::new(),
            kind: if slider {
                ScaleKind::Slider
            } else {
                ScaleKind::Likert
            },
            step,
        };
        if raw.min >= raw.max {
            self.error(
                format!("{at}.min"),
                format!(
                    "the scale's min ({}) is not below its max ({})",
                    raw.min, raw.max
                ),
                "make min smaller than max, e.g. \"min\": 1, \"max\": 5",
            );
            return empty(1);
        }
        let range = i64::from(raw.max) - i64::from(raw.min);
        let step = match (raw.step, slider) {
            (None, _) => 1,
            (Some(_), false) => {
                self.error(
                    format!("{at}.step"),
                    "a step is for a slider",
                    "add \"type\": \"slider\" to the scale, or remove \"step\"",
                );
                return empty(1);
            }
            (Some(step), true) if step < 1 => {
                self.error(
                    format!("{at}.step"),
                    format!("the step {step} is not a whole number of at least 1"),
                    "give a step such as 1 or 5",
                );
                return empty(1);
            }
            (Some(step), true) if range % i64::from(step) != 0 => {
                self.error(
                    format!("{at}.step"),
                    format!(
                        "the step {step} does not divide the range {}..{} ({range})",
                        raw.min, raw.max
                    ),
                    "choose a step that divides max − min, such as 1, 5 or 10 for 0..100",
                );
                return empty(step);
            }
            (Some(step), true) => step,
        };
        if range / i64::from(step) > 100 {
            self.error(
                format!("{at}.max"),
                format!("the scale has {} points", range / i64::from(step) + 1),
                if slider {
                    "use at most 101 positions: a larger step, or a smaller range"
                } else {
                    "use at most 101 points; for a wider range use a number question"
                },
            );
            return empty(step);
        }
        let on_grid = |v: i32| (i64::from(v) - i64::from(raw.min)) % i64::from(step) == 0;
        let mut by_value: BTreeMap<i32, &RawScalePoint> = BTreeMap::new();
        for (i, p) in raw.points.iter().enumerate() {
            let here = format!("{at}.points[{i}]");
            if !(raw.min..=raw.max).contains(&p.value) {
                self.error(
                    format!("{here}.value"),
                    format!("{} is outside the scale {}..{}", p.value, raw.min, raw.max),
                    "remove the point or widen min and max",
                );
            } else if !on_grid(p.value) {
                self.error(
                    format!("{here}.value"),
                    format!(
                        "{} is not a step of the slider ({} and every {step} after it)",
                        p.value, raw.min
                    ),
                    "label a value the slider can take, or change the step",
                );
            } else if by_value.insert(p.value, p).is_some() {
                self.error(
                    format!("{here}.value"),
                    format!("the point {} is given twice", p.value),
                    "keep one entry per value",
                );
            }
            if p.label.trim().is_empty() {
                self.error(
                    format!("{here}.label"),
                    format!("the point {} has an empty label", p.value),
                    "give every point a short label such as \"Good\"",
                );
            }
        }
        let labels = if slider {
            RawScaleLabels::Anchors
        } else {
            raw.labels
        };
        let needed: Vec<i32> = match labels {
            RawScaleLabels::All => (raw.min..=raw.max).collect(),
            RawScaleLabels::Anchors => vec![raw.min, raw.max],
        };
        let missing: Vec<String> = needed
            .into_iter()
            .filter(|v| !by_value.contains_key(v))
            .map(|v| v.to_string())
            .collect();
        if !missing.is_empty() {
            match (labels, slider) {
                (RawScaleLabels::All, _) => self.error(
                    format!("{at}.points"),
                    format!("no label for point {}", missing.join(", ")),
                    "add { \"value\": N, \"label\": \"...\", \"description\": \"...\" } for each; annotators need every point labelled, unless you set \"labels\": \"anchors\" to label only the ends and the points you choose",
                ),
                (RawScaleLabels::Anchors, false) => self.error(
                    format!("{at}.points"),
                    format!("no label for the end point {}", missing.join(" and ")),
                    "add { \"value\": N, \"label\": \"...\", \"description\": \"...\" } for it; with \"labels\": \"anchors\" the points between may be left out, but min and max need their labels",
                ),
                (RawScaleLabels::Anchors, true) => self.error(
                    format!("{at}.points"),
                    format!("no label for the slider's end {}", missing.join(" and ")),
                    "add { \"value\": N, \"label\": \"...\" } for it: a slider's two ends need their labels (a middle one is optional)",
                ),
            }
        }
        let mut scale = empty(step);
        scale.points = (0..=range / i64::from(step))
            .filter_map(|k| i32::try_from(i64::from(raw.min) + k * i64::from(step)).ok())
            .map(|value| match by_value.get(&value) {
                Some(p) => ScalePoint {
                    value,
                    label: Some(p.label.clone()),
                    description: p.description.clone(),
                },
                None => ScalePoint {
                    value,
                    label: None,
                    description: None,
                },
            })
            .collect();
        scale
    }

    fn questions(&mut self, at: &str, raw: &[RawQuestion], labels: LabelScheme) -> Vec<Question> {
        self.unique(
            "question",
            raw.iter()
                .enumerate()
                .map(|(i, q)| (format!("{at}[{i}].id"), q.id.as_str())),
        );
        raw.iter()
            .enumerate()
            .map(|(i, q)| self.question(&format!("{at}[{i}]"), q, labels))
            .collect()
    }

    fn options(&mut self, at: &str, options: &[String], fewest: usize) {
        if options.len() < fewest {
            self.error(
                at.to_owned(),
                format!("{} option(s) given", options.len()),
                format!("give at least {fewest}"),
            );
        }
        let mut seen = BTreeSet::new();
        for (i, o) in options.iter().enumerate() {
            if o.trim().is_empty() {
                self.error(
                    format!("{at}[{i}]"),
                    "the option is empty",
                    "write the option",
                );
            } else if !seen.insert(o.as_str()) {
                self.error(
                    format!("{at}[{i}]"),
                    format!("the option \"{o}\" is given twice"),
                    "keep one",
                );
            }
        }
    }

    fn question(&mut self, at: &str, q: &RawQuestion, labels: LabelScheme) -> Question {
        self.not_blank(&format!("{at}.prompt"), "question prompt", &q.prompt);
        let kind = match &q.kind {
            RawQuestionKind::Likert { scale } => {
                if scale.is_slider() {
                    self.error(
                        format!("{at}.scale.type"),
                        "a slider is for the rubric's dimensions, not a question",
                        "remove \"type\": \"slider\" (a scale of up to 11 points), or use a number question",
                    );
                }
                QuestionKind::Likert(self.scale(&format!("{at}.scale"), scale))
            }
            RawQuestionKind::SingleChoice { options } => {
                self.options(&format!("{at}.options"), options, 2);
                QuestionKind::SingleChoice(options.clone())
            }
            RawQuestionKind::MultipleChoice {
                options,
                min_selected,
                max_selected,
            } => {
                self.options(&format!("{at}.options"), options, 2);
                let n = u32::try_from(options.len()).unwrap_or(u32::MAX);
                let lo = min_selected.unwrap_or(0);
                let hi = max_selected.unwrap_or(n);
                if hi > n {
                    self.error(
                        format!("{at}.max_selected"),
                        format!("max_selected is {hi} but there are {n} options"),
                        "lower max_selected or add options",
                    );
                }
                if lo > hi {
                    self.error(
                        format!("{at}.min_selected"),
                        format!("min_selected ({lo}) is above max_selected ({hi})"),
                        "make min_selected at most max_selected",
                    );
                }
                QuestionKind::MultipleChoice {
                    options: options.clone(),
                    min_selected: lo,
                    max_selected: hi.min(n),
                }
            }
            RawQuestionKind::ShortText { max_length } => QuestionKind::ShortText {
                max_length: *max_length,
            },
            RawQuestionKind::LongText { max_length } => QuestionKind::LongText {
                max_length: *max_length,
            },
            RawQuestionKind::Number { min, max, integer } => {
                if let (Some(lo), Some(hi)) = (min, max)
                    && lo > hi
                {
                    self.error(
                        format!("{at}.min"),
                        format!("min ({}) is above max ({})", Num(*lo), Num(*hi)),
                        "make min at most max",
                    );
                }
                QuestionKind::Number {
                    min: *min,
                    max: *max,
                    integer: *integer,
                }
            }
            RawQuestionKind::Rank { options, systems } => {
                if *systems {
                    if !options.is_empty() {
                        self.error(
                            format!("{at}.options"),
                            "a rank of systems takes no options",
                            "remove \"options\" or set \"systems\": false",
                        );
                    }
                    if labels != LabelScheme::PerAnnotator {
                        self.error(
                            format!("{at}.systems"),
                            "ranking systems by label needs labels that stay the same for an annotator",
                            "set design.labels to \"per_annotator\", or rank fixed options",
                        );
                    }
                    QuestionKind::Rank(RankOptions::Systems)
                } else {
                    self.options(&format!("{at}.options"), options, 2);
                    QuestionKind::Rank(RankOptions::Fixed(options.clone()))
                }
            }
        };
        self.screen_out(at, q, &kind);
        let skippable = matches!(
            kind,
            QuestionKind::Likert(_)
                | QuestionKind::SingleChoice(_)
                | QuestionKind::MultipleChoice { .. }
        );
        if q.allow_skip && !skippable {
            self.error(
                format!("{at}.allow_skip"),
                "\"Cannot judge\" is for scale and choice questions: a text, number or ranking \
                 question has no point to leave out",
                "remove \"allow_skip\", or make the question optional (\"required\": false)",
            );
        }
        Question {
            id: q.id.clone(),
            prompt: q.prompt.clone(),
            help: q.help.clone(),
            required: q.required,
            kind,
            screen_out: q.screen_out.clone(),
            allow_skip: q.allow_skip && skippable,
        }
    }

    /// `screen_out`: only on a choice of the intake survey, each value one of its options, and
    /// not all of them (nobody could take part).
    fn screen_out(&mut self, at: &str, q: &RawQuestion, kind: &QuestionKind) {
        if q.screen_out.is_empty() {
            return;
        }
        let here = format!("{at}.screen_out");
        if !at.starts_with("surveys.intake") {
            self.error(
                here,
                "only intake questions can screen participants out",
                "move the question to surveys.intake, or remove \"screen_out\"",
            );
            return;
        }
        let options = match kind {
            QuestionKind::SingleChoice(o) | QuestionKind::MultipleChoice { options: o, .. } => o,
            _ => {
                self.error(
                    here,
                    "only a choice can screen participants out",
                    "ask a single_choice or multiple_choice question, or remove \"screen_out\"",
                );
                return;
            }
        };
        for (j, value) in q.screen_out.iter().enumerate() {
            if !options.contains(value) {
                self.error(
                    format!("{here}[{j}]"),
                    format!("\"{value}\" is not one of the question's options"),
                    format!("use one of: {}", options.join(", ")),
                );
            }
        }
        if options.iter().all(|o| q.screen_out.contains(o)) {
            self.error(
                here,
                "every option screens participants out: nobody could take part",
                "keep at least one option that lets participants in",
            );
        }
    }
}

/// Checks the meaning of a [`RawStudy`] and builds the [`Study`]: first the caps on its counts
/// ([`super::limits`]; a study over one is refused with those problems alone), then one
/// [`Checker`] method per section of the file, in the file's order, so that problems are
/// reported in that order.
///
/// # Errors
/// Every rule broken, each with its JSON path and a fix.
pub fn validate(raw: &RawStudy) -> Result<Study, Problems> {
    validate_with(raw, None)
}

/// [`validate`], and the `analysis` section read into the study's plan by `plan`, when given
/// (its problems between the surveys' and the published plans', in the file's order).
///
/// # Errors
/// Every rule broken, the plan's included, each with its JSON path and a fix.
pub fn validate_with(raw: &RawStudy, plan: Option<&PlanReader>) -> Result<Study, Problems> {
    // First the counts that drive planning: a study over a cap gets that one message, at once.
    let over = super::limits::check(raw);
    if !over.is_empty() {
        return Err(Problems(over));
    }
    let mut c = Checker::default();
    c.header(raw);
    let systems = c.systems(raw);
    let (rubric, dims, question_ids) = c.rubric(raw);
    let (items, item_ids, groups) = c.items(raw, &systems);
    let known = Known {
        systems,
        dimensions: dims,
        questions: question_ids,
        items: item_ids,
        groups,
    };
    let mut design = c.design(raw, &known, &rubric.dimensions);
    let (intake, exit) = c.surveys(raw);
    let analysis = c.analysis(raw, plan);
    design.plans = raw
        .design
        .plans
        .as_ref()
        .map(|plans| super::published::published_plans(&mut c, raw, &design.tasks, plans));
    design.personal_plans = super::published::personal_plans(&mut c, raw, &design.tasks);

    if !c.problems.is_empty() {
        return Err(Problems(c.problems));
    }
    Ok(Study {
        id: raw.id.clone(),
        title: raw.title.clone(),
        description: raw.description.clone().map(Text::Source),
        instructions: raw.instructions.clone().map(Text::Source),
        consent: raw.consent.as_ref().map(|k| Consent {
            text: Text::Source(k.text.clone()),
            agree_label: k.agree_label.clone(),
            decline_label: k.decline_label.clone(),
        }),
        estimated_minutes: raw.estimated_minutes,
        contact: raw.contact.clone(),
        debrief: raw.debrief.clone().map(Text::Source),
        completion: raw.completion.clone(),
        submit: raw.submit.clone(),
        seed: raw.seed,
        systems: raw.systems.clone(),
        rubric,
        design,
        intake,
        exit,
        intake_minutes: raw.surveys.intake_minutes,
        exit_minutes: raw.surveys.exit_minutes,
        screened_message: Text::Source(
            raw.surveys
                .screened_message
                .clone()
                .unwrap_or_else(|| super::model::SCREENED_MESSAGE.to_owned()),
        ),
        items,
        analysis,
    })
}

/// The ids a study defines, for the checks that refer to them.
struct Known<'a> {
    systems: BTreeSet<&'a str>,
    dimensions: BTreeSet<&'a str>,
    /// The output questions' ids.
    questions: BTreeSet<&'a str>,
    items: BTreeSet<&'a str>,
    groups: BTreeSet<&'a str>,
}

impl Checker {
    /// The study's own fields: format, id, title, consent, debrief, completion, submission.
    fn header(&mut self, raw: &RawStudy) {
        if raw.format != STUDY_FORMAT_V1 {
            self.error(
                "format",
                format!("unknown format version \"{}\"", raw.format),
                format!("this version of Juror reads \"{STUDY_FORMAT_V1}\" only"),
            );
        }
        self.id("id", "study", &raw.id);
        self.not_blank("title", "title", &raw.title);
        if let Some(consent) = &raw.consent {
            self.not_blank("consent.text", "consent text", &consent.text);
            self.not_blank("consent.agree_label", "agree label", &consent.agree_label);
            self.not_blank(
                "consent.decline_label",
                "decline label",
                &consent.decline_label,
            );
        }

        if raw.debrief.as_ref().is_some_and(|t| t.trim().is_empty()) {
            self.error(
                "debrief",
                "the debrief is empty",
                "write what participants should learn once their ratings are saved, or remove \"debrief\"",
            );
        }
        if let Some(done) = &raw.completion {
            self.completion(done);
        }
        if let Some(submit) = &raw.submit {
            self.submit(submit);
        }
    }

    /// `completion`: a code or an address to return to, and codes that are not blank.
    fn completion(&mut self, done: &RawCompletion) {
        let blank = |code: &Option<String>| code.as_ref().is_some_and(|t| t.trim().is_empty());
        if done.code.is_none() && done.redirect.is_none() {
            self.error(
                "completion",
                "the completion section gives neither a code nor an address to return to",
                "add \"code\" (the platform's completion code) or \"redirect\", or remove \"completion\"",
            );
        }
        for (at, code) in [
            ("completion.code", &done.code),
            ("completion.fail_code", &done.fail_code),
        ] {
            if blank(code) {
                self.error(
                    at,
                    "the code is empty",
                    "write the code the platform gave you",
                );
            }
        }
        if done.fail_code.is_some() && done.code.is_none() {
            self.error(
                "completion.fail_code",
                "a code for failed attention checks, but none for the others",
                "add \"code\", the code of participants who passed",
            );
        }
        if let Some(url) = &done.redirect {
            if !url.starts_with("https://") {
                self.error(
                    "completion.redirect",
                    format!("{url:?} is not an https:// address"),
                    "give the platform's completion address, starting with https://",
                );
            }
            if url.contains("{code}") && done.code.is_none() {
                self.error(
                    "completion.redirect",
                    "the address uses {code} but the study gives no code",
                    "add \"code\", or take {code} out of the address",
                );
            }
        }
    }

    /// `submit`: an address Juror may send to, and a format it knows.
    fn submit(&mut self, submit: &RawSubmit) {
        if crate::url::origin(&submit.url).is_none() {
            self.error(
                "submit.url",
                format!("{:?} is not an https:// address", submit.url),
                "give the address of the service that receives the files (https://…)",
            );
        }
        match (submit.format.as_str(), &submit.experiment_id) {
            ("json", _) | ("datapipe", Some(_)) => {}
            ("datapipe", None) => self.error(
                "submit.experiment_id",
                "DataPipe needs the experiment's id",
                "copy the experiment id from DataPipe's dashboard into \"experiment_id\"",
            ),
            (other, _) => self.error(
                "submit.format",
                format!("unknown format {other:?}"),
                "use \"json\" (the ratings file as the body) or \"datapipe\"",
            ),
        }
    }

    /// `systems`: at least one, each id once.
    fn systems<'a>(&mut self, raw: &'a RawStudy) -> BTreeSet<&'a str> {
        if raw.systems.is_empty() {
            self.error(
                "systems",
                "no systems are listed",
                "list the ids of the systems whose outputs are judged, e.g. [\"baseline\", \"ours\"]",
            );
        }
        self.unique(
            "system",
            raw.systems
                .iter()
                .enumerate()
                .map(|(i, s)| (format!("systems[{i}]"), s.as_str())),
        )
    }

    /// `rubric`: dimensions with their scales, output questions and worked examples. Returns
    /// the rubric with the dimensions' and the output questions' ids.
    fn rubric<'a>(&mut self, raw: &'a RawStudy) -> (Rubric, BTreeSet<&'a str>, BTreeSet<&'a str>) {
        let dims = self.unique(
            "dimension",
            raw.rubric
                .dimensions
                .iter()
                .enumerate()
                .map(|(i, d)| (format!("rubric.dimensions[{i}].id"), d.id.as_str())),
        );
        let dimensions: Vec<Dimension> = raw
            .rubric
            .dimensions
            .iter()
            .enumerate()
            .map(|(i, d)| {
                let at = format!("rubric.dimensions[{i}]");
                self.not_blank(&format!("{at}.label"), "dimension label", &d.label);
                self.not_blank(&format!("{at}.question"), "dimension question", &d.question);
                Dimension {
                    id: d.id.clone(),
                    label: d.label.clone(),
                    question: d.question.clone(),
                    scale: self.scale(&format!("{at}.scale"), &d.scale),
                    required: d.required,
                    allow_skip: d.allow_skip,
                }
            })
            .collect();
        let scale_of = |id: &str| dimensions.iter().find(|d| d.id == id).map(|d| &d.scale);

        let output_questions = self.questions(
            "rubric.output_questions",
            &raw.rubric.output_questions,
            raw.design.labels,
        );
        for (i, q) in output_questions.iter().enumerate() {
            if matches!(q.kind, QuestionKind::Rank(RankOptions::Systems)) {
                self.error(
                    format!("rubric.output_questions[{i}].systems"),
                    "a question about one output cannot rank the systems",
                    "move the question to surveys.exit",
                );
            }
        }
        let question_ids: BTreeSet<&str> =
            crate::order::set(raw.rubric.output_questions.iter().map(|q| q.id.as_str()));

        for (i, ex) in raw.rubric.examples.iter().enumerate() {
            let at = format!("rubric.examples[{i}]");
            if let Some(m) = &ex.media {
                media(self, &at, m);
            }
            self.not_blank(&format!("{at}.output"), "example output", &ex.output);
            self.not_blank(&format!("{at}.why"), "example's why", &ex.why);
            for (dim, score) in &ex.scores {
                match scale_of(dim) {
                    None => self.error(
                        format!("{at}.scores.{dim}"),
                        format!("unknown dimension \"{dim}\""),
                        known("dimension", &dims),
                    ),
                    Some(scale) if !scale.points.is_empty() && !scale.contains(*score) => self
                        .error(
                            format!("{at}.scores.{dim}"),
                            format!(
                                "the score {score} is outside {}..{}",
                                scale.min(),
                                scale.max()
                            ),
                            "use a point of the dimension's scale",
                        ),
                    Some(_) => {}
                }
            }
        }
        let rubric = Rubric {
            dimensions,
            output_questions,
            examples: raw
                .rubric
                .examples
                .iter()
                .map(|e| Example {
                    title: e.title.clone(),
                    prompt: e.prompt.clone().map(Text::Source),
                    output: Text::Source(e.output.clone()),
                    scores: e.scores.clone(),
                    why: e.why.clone(),
                    media: e.media.as_ref().map(|m| Media {
                        kind: m.kind,
                        src: m.src.clone(),
                        alt: m.alt.clone(),
                    }),
                })
                .collect(),
            look_for: raw
                .rubric
                .look_for
                .iter()
                .map(|x| Text::from(x.as_str()))
                .collect(),
            avoid: raw
                .rubric
                .avoid
                .iter()
                .map(|x| Text::from(x.as_str()))
                .collect(),
        };
        (rubric, dims, question_ids)
    }

    /// `items`: at least one, each id once, an output for every system and none for another.
    /// Returns the items with their ids and groups.
    fn items<'a>(
        &mut self,
        raw: &'a RawStudy,
        systems: &BTreeSet<&str>,
    ) -> (Vec<Item>, BTreeSet<&'a str>, BTreeSet<&'a str>) {
        if raw.items.is_empty() {
            self.error(
                "items",
                "the study has no items",
                "add at least one item with a prompt and one output per system",
            );
        }
        let item_ids = self.unique(
            "item",
            raw.items
                .iter()
                .enumerate()
                .map(|(i, it)| (format!("items[{i}].id"), it.id.as_str())),
        );
        let groups: BTreeSet<&str> =
            crate::order::set(raw.items.iter().filter_map(|it| it.group.as_deref()));
        let items: Vec<Item> = raw
            .items
            .iter()
            .enumerate()
            .map(|(i, it)| {
                let at = format!("items[{i}]");
                self.not_blank(&format!("{at}.prompt"), "prompt", &it.prompt);
                // A published study's items each have their own tokens (checked with the plans).
                for s in raw.systems.iter().filter(|_| raw.design.plans.is_none()) {
                    if !it.outputs.contains_key(s) {
                        self.error(
                            format!("{at}.outputs"),
                            format!("no output for system \"{s}\""),
                            format!("add \"{s}\": \"...\" to the item's outputs"),
                        );
                    }
                }
                for s in it.outputs.keys() {
                    if !systems.contains(s.as_str()) {
                        self.error(
                            format!("{at}.outputs.{s}"),
                            format!("output for unknown system \"{s}\""),
                            format!("add \"{s}\" to \"systems\" or correct the key; {}", known("system", systems)),
                        );
                    }
                }
                let media = it.media.as_ref().map(|m| media(self, &at, m));
                for (name, value) in &it.groups {
                    if name == super::model::GROUP || name.trim().is_empty() {
                        self.error(
                            format!("{at}.groups"),
                            format!("a grouping may not be named \"{name}\""),
                            "name it by what it groups (\"task_type\", \"repository\"), or give a single group as \"group\"",
                        );
                    } else if value.trim().is_empty() {
                        self.error(
                            format!("{at}.groups.{name}"),
                            "the group is empty",
                            "give the item's group in this grouping, or remove the entry",
                        );
                    }
                }
                Item {
                    id: it.id.clone(),
                    group: it.group.clone(),
                    groups: it.groups.clone(),
                    round: it.round,
                    prompt: Text::Source(it.prompt.clone()),
                    context: it.context.clone().map(Text::Source),
                    media,
                    outputs: it
                        .outputs
                        .iter()
                        .map(|(k, v)| (k.clone(), Text::from(v.as_str())))
                        .collect(),
                    for_slots: it
                        .for_annotators
                        .iter()
                        .enumerate()
                        .filter_map(|(j, a)| match a {
                            RawAnnotatorRef::Slot(0) => {
                                self.error(
                                    format!("{at}.for[{j}]"),
                                    "slot 0 does not exist",
                                    "slots count from 1, as in a link's ?slot=N",
                                );
                                None
                            }
                            RawAnnotatorRef::Slot(s) => Some(*s),
                            RawAnnotatorRef::Id(_) => None,
                        })
                        .collect(),
                    for_ids: it
                        .for_annotators
                        .iter()
                        .enumerate()
                        .filter_map(|(j, a)| match a {
                            RawAnnotatorRef::Id(id) if id.trim().is_empty() => {
                                self.error(
                                    format!("{at}.for[{j}]"),
                                    "the annotator id is empty",
                                    "give the id used in the annotator's link (?annotator=ID), or a slot number",
                                );
                                None
                            }
                            RawAnnotatorRef::Id(id) => Some(id.clone()),
                            RawAnnotatorRef::Slot(_) => None,
                        })
                        .collect(),
                }
            })
            .collect();
        (items, item_ids, groups)
    }

    /// `design`: labels, the assignment, personal items, the tasks and the attention checks.
    /// The published plans are checked last ([`validate`]); here they are `None`.
    fn design(&mut self, raw: &RawStudy, known: &Known<'_>, dimensions: &[Dimension]) -> Design {
        let d = &raw.design;
        if !d.label_format.contains("{}") {
            self.error(
                "design.label_format",
                format!("\"{}\" has no {{}} for the letter", d.label_format),
                "write it like \"System {}\"",
            );
        }
        let assignment = d.assignment.as_ref().map(|a| {
            if a.slots == 0 {
                self.error(
                    "design.assignment.slots",
                    "the study has 0 annotator slots",
                    "set slots to the number of annotators you will recruit",
                );
            }
            if a.annotators_per_item == 0 {
                self.error(
                    "design.assignment.annotators_per_item",
                    "no annotator would rate any item",
                    "set annotators_per_item to 1 or more",
                );
            } else if a.annotators_per_item > a.slots {
                self.error(
                    "design.assignment.annotators_per_item",
                    format!(
                        "{} annotators per item but only {} slots",
                        a.annotators_per_item, a.slots
                    ),
                    "raise slots or lower annotators_per_item",
                );
            }
            Assignment {
                slots: a.slots,
                annotators_per_item: a.annotators_per_item,
            }
        });
        self.personal_items(raw, assignment.as_ref());
        if d.tasks.is_empty() {
            self.error(
                "design.tasks",
                "the design has no tasks",
                "add a task, e.g. { \"id\": \"rate\", \"presentation\": \"single\" }",
            );
        }
        self.unique(
            "task",
            d.tasks
                .iter()
                .enumerate()
                .map(|(i, t)| (format!("design.tasks[{i}].id"), t.id.as_str())),
        );
        let tasks: Vec<Task> = d
            .tasks
            .iter()
            .enumerate()
            .map(|(i, t)| task(self, &format!("design.tasks[{i}]"), t, raw, known))
            .collect();
        let attention_checks = self.attention_checks(raw, known, &tasks, dimensions);
        Design {
            labels: d.labels,
            label_format: d.label_format.clone(),
            assignment,
            attention_checks,
            plans: None,
            personal_plans: BTreeMap::new(),
            tasks,
        }
    }

    /// Personal items: slots the study has; never an attention check (checks go to everyone).
    fn personal_items(&mut self, raw: &RawStudy, assignment: Option<&Assignment>) {
        let d = &raw.design;
        let checked: BTreeSet<&str> =
            crate::order::set(d.attention_checks.iter().map(|ch| match ch {
                RawAttentionCheck::Rating { item, .. }
                | RawAttentionCheck::Preference { item, .. } => item.as_str(),
            }));
        for (i, it) in raw.items.iter().enumerate() {
            for (j, a) in it.for_annotators.iter().enumerate() {
                if let (RawAnnotatorRef::Slot(s), Some(a)) = (a, assignment)
                    && *s > a.slots
                {
                    self.error(
                        format!("items[{i}].for[{j}]"),
                        format!("slot {s}, but the study has {} slots", a.slots),
                        format!(
                            "give a slot from 1 to {}, or raise design.assignment.slots",
                            a.slots
                        ),
                    );
                }
            }
            if !it.for_annotators.is_empty() && checked.contains(it.id.as_str()) {
                self.error(
                    format!("items[{i}].for"),
                    format!(
                        "item \"{}\" is an attention check, which every annotator gets",
                        it.id
                    ),
                    "remove \"for\" from the item, or use another item as the check",
                );
            }
        }
    }

    /// `design.attention_checks`: each names an item, a system and a dimension the study has,
    /// and answers the scale or the systems allow.
    fn attention_checks(
        &mut self,
        raw: &RawStudy,
        ids: &Known<'_>,
        tasks: &[Task],
        dimensions: &[Dimension],
    ) -> Vec<AttentionCheck> {
        let d = &raw.design;
        let (systems, dims, item_ids) = (&ids.systems, &ids.dimensions, &ids.items);
        let scale_of = |id: &str| dimensions.iter().find(|d| d.id == id).map(|d| &d.scale);
        let mut attention_checks = Vec::new();
        for (i, check) in d.attention_checks.iter().enumerate() {
            let at = format!("design.attention_checks[{i}]");
            match check {
                RawAttentionCheck::Rating {
                    item,
                    system,
                    dimension,
                    accept,
                } => {
                    if !item_ids.contains(item.as_str()) {
                        self.error(
                            format!("{at}.item"),
                            format!("unknown item \"{item}\""),
                            "name an item of the study",
                        );
                    }
                    if !systems.contains(system.as_str()) {
                        self.error(
                            format!("{at}.system"),
                            format!("unknown system \"{system}\""),
                            known("system", systems),
                        );
                    }
                    // A task's pairs list may leave the checked system out: then the check could
                    // never be answered.
                    if let Some(s) = raw.systems.iter().position(|x| x == system)
                        && let Some(k) = raw.items.iter().position(|x| &x.id == item)
                    {
                        let n = raw.systems.len();
                        let mut with_item = tasks
                            .iter()
                            .filter(|t| t.items.binary_search(&k).is_ok())
                            .peekable();
                        if with_item.peek().is_some() && !with_item.any(|t| t.shows(s, n)) {
                            self.error(
                                format!("{at}.system"),
                                format!(
                                    "no task shows system \"{system}\" with item \"{item}\": the pairs listed leave it out"
                                ),
                                format!(
                                    "add a pair with \"{system}\" to the pairs.list of a task that has the item, or check another system"
                                ),
                            );
                        }
                    }
                    match scale_of(dimension) {
                        None => self.error(
                            format!("{at}.dimension"),
                            format!("unknown dimension \"{dimension}\""),
                            known("dimension", dims),
                        ),
                        Some(scale) => {
                            for (j, v) in accept.iter().flatten().enumerate() {
                                if !scale.points.is_empty() && !scale.contains(*v) {
                                    self.error(
                                        format!("{at}.accept[{j}]"),
                                        format!("{v} is not a point of the scale"),
                                        format!(
                                            "use values from {} to {}",
                                            scale.min(),
                                            scale.max()
                                        ),
                                    );
                                }
                            }
                        }
                    }
                    if accept.as_ref().is_some_and(Vec::is_empty) {
                        self.error(
                            format!("{at}.accept"),
                            "no accepted answer",
                            "list the scores that pass the check",
                        );
                    }
                    attention_checks.push(AttentionCheck::from(check));
                }
                RawAttentionCheck::Preference { item, accept } => {
                    if !item_ids.contains(item.as_str()) {
                        self.error(
                            format!("{at}.item"),
                            format!("unknown item \"{item}\""),
                            "name an item of the study",
                        );
                    }
                    if accept.as_ref().is_some_and(Vec::is_empty) {
                        self.error(
                            format!("{at}.accept"),
                            "no accepted answer",
                            "list the system ids whose choice passes",
                        );
                    }
                    for (j, s) in accept.iter().flatten().enumerate() {
                        if !systems.contains(s.as_str()) {
                            self.error(
                                format!("{at}.accept[{j}]"),
                                format!("unknown system \"{s}\""),
                                known("system", systems),
                            );
                        }
                    }
                    if !d.tasks.iter().any(|t| t.preference.is_some()) {
                        self.error(
                            format!("{at}.kind"),
                            "a preference check, but no task asks for a preference",
                            "add a preference to a task or check a rating instead",
                        );
                    }
                    attention_checks.push(AttentionCheck::from(check));
                }
            }
        }
        attention_checks
    }

    /// `surveys`: the intake and exit questions, no id used in both. Returns both lists.
    fn surveys(&mut self, raw: &RawStudy) -> (Vec<Question>, Vec<Question>) {
        let d = &raw.design;
        for (field, minutes, questions) in [
            ("intake", raw.surveys.intake_minutes, &raw.surveys.intake),
            ("exit", raw.surveys.exit_minutes, &raw.surveys.exit),
        ] {
            if minutes == Some(0) {
                self.error(
                    format!("surveys.{field}_minutes"),
                    "a survey that takes 0 minutes",
                    format!(
                        "give the minutes the {field} survey takes, or remove \"{field}_minutes\""
                    ),
                );
            } else if minutes.is_some() && questions.is_empty() {
                self.error(
                    format!("surveys.{field}_minutes"),
                    format!("a time for an {field} survey with no question"),
                    format!("add questions to surveys.{field}, or remove \"{field}_minutes\""),
                );
            }
        }
        let intake = self.questions("surveys.intake", &raw.surveys.intake, d.labels);
        let exit = self.questions("surveys.exit", &raw.surveys.exit, d.labels);
        let intake_ids: BTreeMap<&str, usize> = crate::order::map(
            raw.surveys
                .intake
                .iter()
                .enumerate()
                .map(|(i, q)| (q.id.as_str(), i)),
        );
        for (j, q) in raw.surveys.exit.iter().enumerate() {
            if let Some(i) = intake_ids.get(q.id.as_str()) {
                self.error(
                    format!("surveys.exit[{j}].id"),
                    format!("the id \"{}\" is also used at surveys.intake[{i}].id", q.id),
                    "give each survey question its own id: both end up in the same ratings file",
                );
            }
        }
        (intake, exit)
    }

    /// `analysis`: the pre-registered plan, read by the researcher's reader when one is given
    /// (see [`PlanReader`]), else kept as written.
    fn analysis(&mut self, raw: &RawStudy, plan: Option<&PlanReader>) -> Option<AnalysisPlan> {
        let (section, reader) = (raw.analysis.as_ref()?, plan?);
        (reader.read)(section, raw)
            .map_err(|problems| self.problems.extend(problems))
            .ok()
    }
}

fn task(c: &mut Checker, at: &str, t: &RawTask, raw: &RawStudy, ids: &Known<'_>) -> Task {
    let pairs = task_pairs(c, at, t, raw, &ids.systems);
    let (dimensions, output_questions) = task_questions(c, at, t, raw, ids);
    let preference = task_preference(c, at, t, raw.systems.len());
    if t.order == RawOrder::SystemBlocks && t.presentation != RawPresentation::Single {
        c.error(
            format!("{at}.order"),
            "blocks by system need one output per trial",
            "set \"presentation\": \"single\" or choose another order",
        );
    }
    let items = task_items(c, at, t, raw, ids);
    flag_implies(c, at, t, raw, &dimensions);
    let spans = t
        .spans
        .as_ref()
        .map(|s| task_spans(c, &format!("{at}.spans"), s));

    if dimensions.is_empty()
        && output_questions.is_empty()
        && preference.is_none()
        && spans.is_none()
        && t.notes == RawRequirement::Off
    {
        c.error(
            at.to_owned(),
            "the task asks nothing",
            "rate dimensions, ask output questions, mark error spans, ask a preference or ask for notes",
        );
    }

    if t.estimated_minutes == Some(0) {
        c.error(
            format!("{at}.estimated_minutes"),
            "a task that takes 0 minutes",
            "give the minutes an annotator needs for the task, or remove \"estimated_minutes\"",
        );
    }

    let spread = spread(c, at, t, raw, &pairs);
    Task {
        id: t.id.clone(),
        title: t.title.clone(),
        instructions: t.instructions.clone().map(Text::Source),
        presentation: t.presentation,
        pairs,
        spread,
        dimensions,
        output_questions,
        preference,
        notes: t.notes,
        flag: t.flag.as_ref().map(|f| f.label.clone()),
        flag_implies: t
            .flag
            .as_ref()
            .and_then(|f| f.implies.as_ref())
            .map(|i| i.all_dimensions),
        order: t.order,
        items,
        estimated_minutes: t.estimated_minutes,
        plain_text: t.plain_text || spans.is_some(),
        spans,
    }
}

/// A task's error spans: at least one severity, none twice; categories named, none twice, a
/// two-level category as `Parent/Child` with both parts given.
fn task_spans(c: &mut Checker, at: &str, s: &RawSpans) -> Spans {
    if s.severities.is_empty() {
        c.error(
            format!("{at}.severities"),
            "no severity to choose",
            "list at least one of \"minor\", \"major\" and \"critical\", or remove \"severities\" for minor and major",
        );
    }
    for (j, severity) in s.severities.iter().enumerate() {
        if s.severities[..j].contains(severity) {
            c.error(
                format!("{at}.severities[{j}]"),
                format!("\"{}\" is listed twice", severity.name()),
                "list each severity once",
            );
        }
    }
    for (j, category) in s.categories.iter().enumerate() {
        let here = format!("{at}.categories[{j}]");
        if category.split('/').any(|part| part.trim().is_empty()) || category.split('/').count() > 2
        {
            c.error(
                here,
                format!("\"{category}\" is not a category"),
                "name a category like \"Fluency\", or a category and its kind like \"Accuracy/Mistranslation\"",
            );
        } else if s.categories[..j].contains(category) {
            c.error(
                here,
                format!("\"{category}\" is listed twice"),
                "list each category once",
            );
        }
    }
    Spans {
        severities: s.severities.clone(),
        categories: s.categories.clone(),
        whole_output: s.whole_output,
        question: s.question.clone().unwrap_or_else(|| {
            "Mark each error: select its text, then choose how severe it is.".to_owned()
        }),
    }
}

/// A task's presentation: enough systems to compare, and `pairs` only with pairs.
fn task_pairs(
    c: &mut Checker,
    at: &str,
    t: &RawTask,
    raw: &RawStudy,
    systems: &BTreeSet<&str>,
) -> PairSet {
    let n_systems = raw.systems.len();
    let compares = t.presentation != RawPresentation::Single || t.preference.is_some();
    if compares && n_systems < 2 {
        c.error(
            format!("{at}.presentation"),
            format!("a comparison needs at least two systems, the study has {n_systems}"),
            "add a system or present outputs \"single\" without a preference",
        );
    }
    match (&t.pairs, t.presentation) {
        (Some(p), RawPresentation::Pairs) => pair_set(c, &format!("{at}.pairs"), p, raw, systems),
        (Some(_), _) => {
            c.error(
                format!("{at}.pairs"),
                "\"pairs\" is only used with \"presentation\": \"pairs\"",
                "remove it or present pairs",
            );
            PairSet::All
        }
        (None, _) => PairSet::All,
    }
}

/// `pairs.spread`: an anchor to spread, an assignment with enough slots for every pair of an
/// item to go to annotators of its own, and no personal items (which are outside the
/// assignment). Returns whether the task spreads its pairs.
fn spread(c: &mut Checker, at: &str, t: &RawTask, raw: &RawStudy, pairs: &PairSet) -> bool {
    if !t.pairs.as_ref().is_some_and(|p| p.spread) {
        return false;
    }
    let here = format!("{at}.pairs.spread");
    let PairSet::Anchor(_) = pairs else {
        if t.pairs.as_ref().is_some_and(|p| p.anchor.is_some()) {
            return false; // an unknown anchor, already reported
        }
        c.error(
            here,
            "only an anchor's pairs can be spread over annotators",
            "give \"anchor\": SYSTEM with \"spread\": true, or remove \"spread\"",
        );
        return false;
    };
    let others = raw.systems.len().saturating_sub(1);
    match &raw.design.assignment {
        None => c.error(
            here.clone(),
            "spreading an item's pairs over annotators needs an assignment of items to slots",
            format!(
                "add design.assignment with \"slots\" at least annotators_per_item × {others} (the anchor's pairs per item), or remove \"spread\""
            ),
        ),
        Some(a) => {
            let needed = u64::from(a.annotators_per_item) * others as u64;
            if needed > u64::from(a.slots) {
                c.error(
                    here.clone(),
                    format!(
                        "each item's {others} pairs need {} annotators each, {needed} slots in all, but the study has {}",
                        a.annotators_per_item, a.slots
                    ),
                    format!(
                        "raise design.assignment.slots to {needed} or more, or lower annotators_per_item"
                    ),
                );
            }
        }
    }
    if let Some(i) = raw
        .items
        .iter()
        .position(|it| !it.for_annotators.is_empty())
    {
        c.error(
            here,
            format!(
                "item \"{}\" is personal (items[{i}].for): personal items are outside the assignment, so their pairs cannot be spread",
                raw.items[i].id
            ),
            "remove \"spread\", or make the items shared",
        );
    }
    true
}

/// The dimensions and output questions a task asks (all of the rubric's when it names none),
/// each one the rubric has.
fn task_questions(
    c: &mut Checker,
    at: &str,
    t: &RawTask,
    raw: &RawStudy,
    ids: &Known<'_>,
) -> (Vec<String>, Vec<String>) {
    let (dims, questions) = (&ids.dimensions, &ids.questions);
    let dimensions: Vec<String> = match &t.dimensions {
        None => raw.rubric.dimensions.iter().map(|d| d.id.clone()).collect(),
        Some(list) => {
            for (j, id) in list.iter().enumerate() {
                if !dims.contains(id.as_str()) {
                    c.error(
                        format!("{at}.dimensions[{j}]"),
                        format!("unknown dimension \"{id}\""),
                        known("dimension", dims),
                    );
                }
            }
            list.clone()
        }
    };
    let output_questions: Vec<String> = match &t.output_questions {
        None => raw
            .rubric
            .output_questions
            .iter()
            .map(|q| q.id.clone())
            .collect(),
        Some(list) => {
            for (j, id) in list.iter().enumerate() {
                if !questions.contains(id.as_str()) {
                    c.error(
                        format!("{at}.output_questions[{j}]"),
                        format!("unknown output question \"{id}\""),
                        known("output question", questions),
                    );
                }
            }
            list.clone()
        }
    };
    (dimensions, output_questions)
}

/// A task's preference: a kind its presentation allows, a tie only in a pair choice, a tuple
/// size only with best–worst (3 to the number of systems).
fn task_preference(c: &mut Checker, at: &str, t: &RawTask, systems: usize) -> Option<Preference> {
    t.preference.as_ref().map(|p| {
        let here = format!("{at}.preference");
        match (p.kind, t.presentation) {
            (RawPreferenceKind::Choice, RawPresentation::Pairs)
            | (RawPreferenceKind::Best, RawPresentation::Pairs | RawPresentation::SideBySide)
            | (RawPreferenceKind::Rank | RawPreferenceKind::BestWorst, RawPresentation::SideBySide)
            | (RawPreferenceKind::Graded, RawPresentation::Pairs) => {}
            (kind, presentation) => c.error(
                format!("{here}.type"),
                format!(
                    "a \"{}\" preference cannot be asked with \"{}\" presentation",
                    kind_name(kind),
                    presentation_name(presentation)
                ),
                "use \"choice\" or \"graded\" with pairs, \"best\" with pairs or side_by_side, \"rank\" or \"best_worst\" with side_by_side",
            ),
        }
        if p.allow_tie && p.kind != RawPreferenceKind::Choice {
            c.error(
                format!("{here}.allow_tie"),
                "a tie is only offered in a pair choice",
                "remove allow_tie or use \"type\": \"choice\"",
            );
        }
        let tuple_size = best_worst_size(c, &here, p, systems);
        Preference {
            tuple_size,
            kind: p.kind,
            question: p
                .question
                .clone()
                .unwrap_or_else(|| "Which output do you prefer overall?".to_owned()),
            allow_tie: p.allow_tie,
            grades: graded_labels(c, &here, p),
            allow_skip: p.allow_skip,
            explanation: p.explanation,
        }
    })
}

/// The items a task's filter selects (all items without one): known ids and groups, and at
/// least one item.
fn task_items(
    c: &mut Checker,
    at: &str,
    t: &RawTask,
    raw: &RawStudy,
    ids: &Known<'_>,
) -> Vec<usize> {
    let (item_ids, groups) = (&ids.items, &ids.groups);
    match &t.items {
        None => (0..raw.items.len()).collect(),
        Some(filter) => {
            for (j, id) in filter.ids.iter().enumerate() {
                if !item_ids.contains(id.as_str()) {
                    c.error(
                        format!("{at}.items.ids[{j}]"),
                        format!("unknown item \"{id}\""),
                        "name an item of the study",
                    );
                }
            }
            for (j, g) in filter.groups.iter().enumerate() {
                if !groups.contains(g.as_str()) {
                    c.error(
                        format!("{at}.items.groups[{j}]"),
                        format!("no item is in group \"{g}\""),
                        known("group", groups),
                    );
                }
            }
            let wanted: BTreeSet<&str> = crate::order::set(filter.ids.iter().map(String::as_str));
            let wanted_groups: BTreeSet<&str> =
                crate::order::set(filter.groups.iter().map(String::as_str));
            let chosen: Vec<usize> = raw
                .items
                .iter()
                .enumerate()
                .filter(|(_, it)| {
                    wanted.contains(it.id.as_str())
                        || it
                            .group
                            .as_deref()
                            .is_some_and(|g| wanted_groups.contains(g))
                })
                .map(|(k, _)| k)
                .collect();
            if chosen.is_empty() && !raw.items.is_empty() {
                c.error(
                    format!("{at}.items"),
                    "the filter selects no item",
                    "list item ids or groups, or remove \"items\" to use all",
                );
            }
            chosen
        }
    }
}

/// A flag that implies scores: the task rates dimensions, and the score is on each one's scale.
fn flag_implies(c: &mut Checker, at: &str, t: &RawTask, raw: &RawStudy, dimensions: &[String]) {
    if let Some(implies) = t.flag.as_ref().and_then(|f| f.implies.as_ref()) {
        let v = implies.all_dimensions;
        if dimensions.is_empty() {
            c.error(
                format!("{at}.flag.implies"),
                "the task rates no dimension, so the flag cannot imply scores",
                "remove \"implies\" or rate dimensions in this task",
            );
        }
        for id in dimensions {
            let scale = raw
                .rubric
                .dimensions
                .iter()
                .find(|d| &d.id == id)
                .map(|d| (d.scale.min, d.scale.max));
            if let Some((min, max)) = scale
                && !(min..=max).contains(&v)
            {
                c.error(
                    format!("{at}.flag.implies.all_dimensions"),
                    format!("{v} is not on the scale of \"{id}\" ({min} to {max})"),
                    format!("give a score from {min} to {max}"),
                );
            }
        }
    }
}

/// An item's or worked example's media at `at`: a path on the site and a text alternative.
fn media(c: &mut Checker, at: &str, m: &RawMedia) -> Media {
    c.not_blank(&format!("{at}.media.src"), "media src", &m.src);
    if let Some(scheme) = blocked_scheme(&m.src, m.kind) {
        c.error(
            format!("{at}.media.src"),
            format!(
                "\"{}\" is loaded from {scheme}: the app loads nothing from outside its own site (its Content-Security-Policy blocks it, so annotators would see a broken image)",
                m.src
            ),
            "put the file next to the study file and give its path relative to the study, such as \"media/figure.png\"",
        );
    }
    if m.alt.trim().is_empty() {
        c.error(
            format!("{at}.media.alt"),
            "the media has no text alternative",
            "describe the image or video in a sentence, for annotators who use a screen reader or whose download failed",
        );
    }
    Media {
        kind: m.kind,
        src: m.src.clone(),
        alt: m.alt.clone(),
    }
}

/// A task's `pairs`: exactly one of `anchor` and `list`; every system named exists; no pair
/// pairs a system with itself; no pair is listed twice, in either order.
fn pair_set(
    c: &mut Checker,
    at: &str,
    p: &RawPairs,
    raw: &RawStudy,
    systems: &BTreeSet<&str>,
) -> PairSet {
    let index = |id: &str| raw.systems.iter().position(|s| s == id);
    match (&p.anchor, &p.list) {
        (Some(_), Some(_)) => {
            c.error(
                at,
                "both \"anchor\" and \"list\" are given",
                "keep one: \"anchor\" compares one system with each of the others, \"list\" compares the pairs named",
            );
            PairSet::All
        }
        (None, None) => {
            c.error(
                at,
                "neither \"anchor\" nor \"list\" is given",
                "give \"anchor\": SYSTEM or \"list\": [[A, B], ...], or remove \"pairs\" to compare every pair",
            );
            PairSet::All
        }
        (Some(anchor), None) => match index(anchor) {
            Some(a) => PairSet::Anchor(a),
            None => {
                c.error(
                    format!("{at}.anchor"),
                    format!("unknown system \"{anchor}\""),
                    known("system", systems),
                );
                PairSet::All
            }
        },
        (None, Some(list)) => {
            if list.is_empty() {
                c.error(
                    format!("{at}.list"),
                    "the list has no pair",
                    "list at least one pair [A, B] of system ids, or remove \"pairs\" to compare every pair",
                );
            }
            let mut pairs: Vec<(usize, usize)> = Vec::with_capacity(list.len());
            let mut first_at: BTreeMap<(usize, usize), usize> = BTreeMap::new();
            for (j, [a, b]) in list.iter().enumerate() {
                let here = format!("{at}.list[{j}]");
                let unknown: Vec<&str> = [a, b]
                    .into_iter()
                    .filter(|id| index(id).is_none())
                    .map(String::as_str)
                    .collect();
                if !unknown.is_empty() {
                    let names: Vec<String> = unknown.iter().map(|id| format!("\"{id}\"")).collect();
                    c.error(
                        here,
                        format!("unknown system {}", names.join(" and ")),
                        known("system", systems),
                    );
                    continue;
                }
                let (Some(x), Some(y)) = (index(a), index(b)) else {
                    continue;
                };
                if x == y {
                    c.error(
                        here,
                        format!("\"{a}\" is paired with itself"),
                        "name two different systems",
                    );
                    continue;
                }
                if let Some(k) = first_at.get(&(x.min(y), x.max(y))) {
                    c.error(
                        here,
                        format!(
                            "the pair of \"{a}\" and \"{b}\" is already listed at {at}.list[{k}]"
                        ),
                        "list each pair once: each is shown in both orders anyway",
                    );
                    continue;
                }
                first_at.insert((x.min(y), x.max(y)), j);
                pairs.push((x, y));
            }
            PairSet::List(pairs)
        }
    }
}

/// The tuple size of a best–worst preference (0 for other kinds): `tuple_size`, by default 4 or
/// every system when there are fewer.
fn best_worst_size(c: &mut Checker, here: &str, p: &RawPreference, systems: usize) -> usize {
    if p.kind != RawPreferenceKind::BestWorst {
        if p.tuple_size.is_some() {
            c.error(
                format!("{here}.tuple_size"),
                "a tuple size is only used by a best–worst preference",
                "remove tuple_size or use \"type\": \"best_worst\"",
            );
        }
        return 0;
    }
    let size = p.tuple_size.unwrap_or(4.min(systems));
    if size < 3 || size > systems {
        c.error(
            format!("{here}.tuple_size"),
            format!("a tuple of {size} outputs cannot be shown from {systems} systems"),
            format!("best–worst needs at least 3 systems; set tuple_size from 3 to {systems}"),
        );
    }
    size
}

fn kind_name(kind: RawPreferenceKind) -> &'static str {
    match kind {
        RawPreferenceKind::BestWorst => "best_worst",
        RawPreferenceKind::Best => "best",
        RawPreferenceKind::Choice => "choice",
        RawPreferenceKind::Rank => "rank",
        RawPreferenceKind::Graded => "graded",
    }
}

/// A graded preference's labels: `points` odd from 3 to 9 (default 7), `labels` one per point
/// (default [`crate::study::default_grades`]); `points` and `labels` only with `graded`.
fn graded_labels(c: &mut Checker, here: &str, p: &RawPreference) -> Vec<String> {
    if p.kind != RawPreferenceKind::Graded {
        for (field, given) in [
            ("points", p.points.is_some()),
            ("labels", p.labels.is_some()),
        ] {
            if given {
                c.error(
                    format!("{here}.{field}"),
                    format!("{field} is only for a graded preference"),
                    format!("remove {field} or use \"type\": \"graded\""),
                );
            }
        }
        return Vec::new();
    }
    let points = p.points.unwrap_or(7);
    if !(3..=9).contains(&points) || points.is_multiple_of(2) {
        c.error(
            format!("{here}.points"),
            format!("a graded preference has an odd number of points from 3 to 9, not {points}"),
            "use 3, 5, 7 or 9 (\"Same\" is the middle point)",
        );
        return crate::study::default_grades(7);
    }
    match &p.labels {
        None => crate::study::default_grades(points),
        Some(labels) => {
            if labels.len() != points as usize {
                c.error(
                    format!("{here}.labels"),
                    format!("{} labels for {points} points", labels.len()),
                    "give one label per point, A's strongest first, \"Same\" in the middle",
                );
            }
            for (j, label) in labels.iter().enumerate() {
                if label.trim().is_empty() {
                    c.error(
                        format!("{here}.labels[{j}]"),
                        "the label is empty",
                        "write what the point means, like \"A slightly better\"",
                    );
                }
            }
            if labels.len() == points as usize {
                labels.clone()
            } else {
                crate::study::default_grades(points)
            }
        }
    }
}

fn presentation_name(p: RawPresentation) -> &'static str {
    match p {
        RawPresentation::Single => "single",
        RawPresentation::Pairs => "pairs",
        RawPresentation::SideBySide => "side_by_side",
    }
}

fn known(what: &str, ids: &BTreeSet<&str>) -> String {
    if ids.is_empty() {
        return format!("the study defines no {what}");
    }
    let list: Vec<String> = ids.iter().take(12).map(|s| format!("\"{s}\"")).collect();
    let more = if ids.len() > 12 { ", ..." } else { "" };
    format!("known {what} ids: {}{more}", list.join(", "))
}

/// How a media `src` would be fetched from outside the app's own site, if it would: another
/// site (`https://…`, `//host/…`) or any other scheme; `None` for a relative path, and for a
/// `data:` image (the page allows those). The page's CSP allows images from `'self' data:
/// blob:` and videos from `'self' blob:`, and a path in the study file cannot be a `blob:`.
fn blocked_scheme(src: &str, kind: RawMediaKind) -> Option<String> {
    // As the browser's URL parser reads it: ASCII tabs and line breaks dropped, and `\` is `/`
    // in http(s) URLs, so `/\host/x` and `/<TAB>/host/x` are `//host/x`.
    let parsed: String = src
        .trim()
        .chars()
        .filter(|c| !matches!(c, '\t' | '\n' | '\r'))
        .map(|c| if c == '\\' { '/' } else { c })
        .collect();
    if parsed.starts_with("//") {
        return Some("another site".to_owned());
    }
    let src = parsed.as_str();
    let (scheme, _) = src.split_once(':')?;
    let is_scheme = scheme
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic())
        && scheme
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'));
    if !is_scheme {
        return None;
    }
    match scheme.to_ascii_lowercase().as_str() {
        "data" if kind == RawMediaKind::Image => None,
        "http" | "https" => Some("another site".to_owned()),
        other => Some(format!("a \"{other}:\" address")),
    }
}

#[cfg(test)]
mod tests {
    use super::{RawMediaKind, blocked_scheme};

    #[test]
    fn only_the_apps_own_files_and_data_images_are_allowed() {
        let image = RawMediaKind::Image;
        let video = RawMediaKind::Video;
        for ok in [
            "media/clock.svg",
            "./media/clock.svg",
            "../shared/figure.png",
            "/juror/studies/media/x.png",
            "figure 1: sales.png",
            "data:image/png;base64,iVBORw0KGgo=",
        ] {
            assert_eq!(blocked_scheme(ok, image), None, "{ok}");
        }
        assert_eq!(blocked_scheme("media/clip.mp4", video), None);
        let another = Some("another site".to_owned());
        assert_eq!(blocked_scheme("https://example.org/a.png", image), another);
        assert_eq!(blocked_scheme("HTTP://example.org/a.png", image), another);
        assert_eq!(blocked_scheme("//cdn.example.org/a.png", image), another);
        // Spellings the browser's URL parser reads as another host.
        for src in [
            "/\\evil.example/x.png",
            "\\\\evil.example/x.png",
            "/\t/evil.example/x.png",
            " /\n/evil.example/x.mp4",
        ] {
            assert_eq!(blocked_scheme(src, image), another, "{src:?}");
            assert_eq!(blocked_scheme(src, video), another, "{src:?}");
        }
        assert_eq!(
            blocked_scheme("ht\ttps://evil.example/x.png", image),
            another
        );
        assert_eq!(
            blocked_scheme("data:video/mp4;base64,AAAA", video),
            Some("a \"data:\" address".to_owned())
        );
        assert_eq!(
            blocked_scheme("file:///home/me/a.png", image),
            Some("a \"file:\" address".to_owned())
        );
    }
}
