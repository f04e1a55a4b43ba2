//! The second pass, shape: where a document that does not read as a [`RawStudy`] goes wrong,
//! each mistake placed at its value and said without Rust's type names, one section and one
//! item at a time so that one mistake does not hide the next.

use crate::study::ask::question::TYPES;
use serde::de::DeserializeOwned;
use serde_json::Value;

use super::Problem;
use crate::study::raw::*;

fn join_path(prefix: &str, inner: &str) -> String {
    match (prefix.is_empty(), inner.is_empty() || inner == ".") {
        (true, true) => "(top level)".to_owned(),
        (true, false) => inner.to_owned(),
        (false, true) => prefix.to_owned(),
        (false, false) if inner.starts_with('[') => format!("{prefix}{inner}"),
        (false, false) => format!("{prefix}.{inner}"),
    }
}

pub(super) fn deserialize<T: DeserializeOwned>(value: &Value, prefix: &str) -> Result<T, Problem> {
    crate::base::json_path::read(value).map_err(|e| {
        let (path, message) = match list_for_object::<T>(value, &e.path) {
            Some(placed) => placed,
            None => {
                let path = inner_path(value, &e.path, &e.message);
                let (path, message) = enum_given_object(value, path, &e.message);
                let message = crate::study::shapes::plain(&message, || variants::<T>(value, &path));
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
        let Err(e) = crate::base::json_path::read::<T>(&probe) else {
            continue;
        };
        let wanted = e.message.split_once(", expected ").map(|(_, w)| w);
        if let Some(name) = wanted.filter(|w| e.path == list && !w.starts_with('a')) {
            let shape = crate::study::shapes::expected(name, None);
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
    let e = crate::base::json_path::read::<T>(&probe).err()?;
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
pub(super) fn section_problems(object: &serde_json::Map<String, Value>) -> Vec<Problem> {
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
pub(super) fn question_key_problems(study: &Value) -> Vec<Problem> {
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
                            "expected one of {} (in quotes), found {}",
                            TYPES
                                .iter()
                                .map(|(name, _)| format!("\"{name}\""))
                                .collect::<Vec<_>>()
                                .join(", "),
                            crate::study::shapes::found_value(other)
                        ),
                        fix: "write the value in the shape expected".to_owned(),
                    });
                    continue;
                }
                None => continue,
            };
            let Some(&(_, specific)) = TYPES.iter().find(|(name, _)| *name == kind) else {
                continue;
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
