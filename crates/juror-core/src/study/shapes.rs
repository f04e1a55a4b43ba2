//! serde's messages about a value of the wrong shape, said in the study file's own words: what
//! was expected (an object with its fields and an example, a whole number, a list, one of the
//! values allowed) and what was found, never the name of a Rust type.

/// The object types of the study file: the type's name in serde's messages, an example, the
/// fields it needs and the fields it may have. `crate::study::schema()`'s definitions are
/// checked against this list by a test, so that the two cannot drift.
const OBJECTS: &[(&str, &str, &str, &str)] = &[
    (
        "RawConsent",
        r#"{"text": "…", "agree_label": "I agree"}"#,
        "text",
        "agree_label, decline_label",
    ),
    (
        "RawCompletion",
        r#"{"code": "C0DE", "redirect": "https://…?cc={code}"}"#,
        "",
        "code, fail_code, screened_code, redirect",
    ),
    (
        "RawSubmit",
        r#"{"url": "https://…"}"#,
        "url",
        "format, experiment_id, backups",
    ),
    (
        "RawRubric",
        r#"{"dimensions": [{"id": "clear", …}]}"#,
        "",
        "dimensions, output_questions, examples, look_for, avoid",
    ),
    (
        "RawDimension",
        r#"{"id": "clear", "label": "Clarity", "question": "…", "scale": {…}}"#,
        "id, label, question, scale",
        "required, allow_skip",
    ),
    (
        "RawScale",
        r#"{"min": 1, "max": 3, "points": [{"value": 1, "label": "Poor"}, …]}"#,
        "min, max, points",
        "type, step, labels",
    ),
    (
        "RawScalePoint",
        r#"{"value": 1, "label": "Poor", "description": "…"}"#,
        "value, label",
        "description",
    ),
    (
        "RawExample",
        r#"{"output": "…", "scores": {"clear": 3}, "why": "…"}"#,
        "output, scores, why",
        "title, prompt, media",
    ),
    (
        "RawQuestion",
        super::ask::question::EXAMPLE,
        "id, prompt, type, and what the type needs (options, scale)",
        "help, required, allow_skip",
    ),
    (
        "RawDesign",
        r#"{"tasks": [{"id": "rate", "presentation": "single"}]}"#,
        "tasks",
        "labels, label_format, assignment, attention_checks, plans, personal_plans",
    ),
    (
        "RawPlannedTrial",
        r#"{"task": "…", "item": "…", "shown": […]} (written by juror publish)"#,
        "task, item, shown",
        "",
    ),
    (
        "RawShown",
        r#"{"output": "…", "label": "Output A"} (written by juror publish)"#,
        "output, label",
        "",
    ),
    (
        "RawAssignment",
        r#"{"slots": 12, "annotators_per_item": 3}"#,
        "slots, annotators_per_item",
        "",
    ),
    (
        "RawAttentionCheck",
        r#"{"kind": "rating", "item": "…", "system": "…", "dimension": "…", "accept": [1]}"#,
        "kind, item, and what the kind needs",
        "system, dimension, accept",
    ),
    (
        "RawTask",
        r#"{"id": "rate", "presentation": "pairs"}"#,
        "id, presentation",
        "title, instructions, pairs, dimensions, output_questions, preference, notes, flag, spans, plain_text, order, labels, label_format, items, estimated_minutes",
    ),
    (
        "RawSpans",
        r#"{"severities": ["minor", "major"], "categories": ["Accuracy", "Fluency"]}"#,
        "",
        "severities, categories, whole_output, question",
    ),
    (
        "RawPairs",
        r#"{"anchor": "base"} or {"list": [["a", "b"]]}"#,
        "",
        "anchor, list, spread",
    ),
    (
        "RawPreference",
        r#"{"type": "choice", "allow_tie": true}"#,
        "type",
        "question, allow_tie, points, labels, allow_skip, explanation, tuple_size",
    ),
    (
        "RawFlag",
        r#"{"label": "This output is an error message"}"#,
        "label",
        "implies",
    ),
    (
        "RawFlagImplies",
        r#"{"all_dimensions": 1}"#,
        "all_dimensions",
        "",
    ),
    ("RawItemFilter", r#"{"groups": ["…"]}"#, "", "ids, groups"),
    (
        "RawSurveys",
        r#"{"intake": [{"id": "often", "prompt": "…", "type": "short_text"}]}"#,
        "",
        "intake, exit, intake_minutes, exit_minutes, screened_message",
    ),
    (
        "RawItem",
        r#"{"id": "q1", "prompt": "…", "outputs": {"base": "…", "ours": "…"}}"#,
        "id, prompt, outputs",
        "group, groups, round, context, media, for",
    ),
    (
        "RawMedia",
        r#"{"type": "image", "src": "media/…", "alt": "…"}"#,
        "type, src, alt",
        "",
    ),
    (
        "RawAnalysis",
        r#"{"unit": "item", "comparisons": "all"}"#,
        "",
        "unit, standardise, comparisons, alternative, tests, correction, family, primary, hypotheses, contrasts, by_group, by_intake, exclude_unadjudicated, adjudicate, judges, thresholds, mqm_weights, divergence, raters, models, bt_intervals, ties, confirmatory",
    ),
    (
        "RawConfirmatory",
        r#"{"groups": {"domain": "skills"}}"#,
        "",
        "group, groups",
    ),
    (
        "Threshold",
        r#"{"dimension": "…", "system": "…", "at_least": 4}"#,
        "dimension, system, at_least",
        "",
    ),
    (
        "MqmWeights",
        r#"{"minor": 1, "major": 5, "critical": 25}"#,
        "",
        "minor, major, critical",
    ),
    (
        "JudgeSettings",
        r#"{"epsilon": 0.2}"#,
        "",
        "epsilon, fdr, min_humans, min_instances",
    ),
    (
        "RawContrast",
        r#"{"name": "…", "a": ["…"], "b": ["…"]}"#,
        "name, a, b",
        "dimension, alternative",
    ),
    (
        "RawHypothesis",
        r#"{"a": "ours", "b": "base", "alternative": "greater"}"#,
        "a",
        "name, kind, dimension, b, alternative, margin, corrected",
    ),
];

/// The values that are one of several shapes.
const EITHER: &[(&str, &str)] = &[
    (
        "RawAnnotatorRef",
        r#"a slot number like 3, or an annotator id in quotes like "p07""#,
    ),
    (
        "RawComparisons",
        r#""all", {"anchor": "base"} or {"pairs": [["a", "b"]]}"#,
    ),
    (
        "OneOrMany",
        r#"a system id in quotes, or a list of them like ["a", "b"]"#,
    ),
];

/// What serde's `expected` part (`struct RawConsent`, `u64`, `a sequence`) asks for, in words.
/// `variants` gives the values an enum allows, when serde's message does not say them.
pub(super) fn expected(serde: &str, variants: Option<&str>) -> String {
    let name = serde
        .trim_start_matches("struct ")
        .trim_start_matches("internally tagged enum ")
        .split(' ')
        .next()
        .unwrap_or_default();
    if let Some((_, example, needs, may)) = OBJECTS.iter().find(|o| o.0 == name) {
        let fields = match (needs.is_empty(), may.is_empty()) {
            (false, false) => format!("fields: {needs}, and optionally {may}"),
            (false, true) => format!("fields: {needs}"),
            _ => format!("optional fields: {may}"),
        };
        return format!("an object like {example} ({fields})");
    }
    if let Some((_, words)) = EITHER.iter().find(|o| o.0 == name) {
        return (*words).to_owned();
    }
    let number = |kind: &str, like: &str| format!("{kind}, like {like} (without quotes)");
    match serde {
        "u64" => number("a whole number ≥ 0", "2024"),
        "u8" | "u16" | "u32" | "usize" => number("a whole number ≥ 0", "10"),
        "i8" | "i16" | "i32" | "i64" | "isize" => number("a whole number", "3"),
        "f32" | "f64" => number("a number", "0.5"),
        "a string" => "text in quotes, like \"…\"".to_owned(),
        "a boolean" => "true or false (without quotes)".to_owned(),
        "a sequence" => "a list in square brackets, like [\"…\", \"…\"]".to_owned(),
        "a map" => "an object in braces, like {\"name\": \"…\"}".to_owned(),
        "an array of length 2" => "a list of two, like [\"a\", \"b\"]".to_owned(),
        _ => match variants {
            Some(list) => format!("{list} (in quotes)"),
            None => "a value of the kind docs/study-format.md gives for this field".to_owned(),
        },
    }
}

/// What serde's `invalid type: …` part found (`string "x"`, `integer `7``, `map`), in words.
pub(super) fn found(serde: &str) -> String {
    let number = |rest: &str| format!("the number {}", rest.trim_matches('`'));
    if let Some(rest) = serde.strip_prefix("string ") {
        format!("the text {rest}")
    } else if let Some(rest) = serde.strip_prefix("integer ") {
        number(rest)
    } else if let Some(rest) = serde.strip_prefix("floating point ") {
        number(rest)
    } else if let Some(rest) = serde.strip_prefix("boolean ") {
        rest.trim_matches('`').to_owned()
    } else {
        match serde {
            "map" => "an object".to_owned(),
            "sequence" => "a list".to_owned(),
            "unit value" | "null" => "null".to_owned(),
            other => other.to_owned(),
        }
    }
}

/// A value of the document, in words: `the text "x"`, `the number 7`, `an object`.
pub(super) fn found_value(value: &serde_json::Value) -> String {
    use serde_json::Value;
    match value {
        Value::String(s) => format!("the text {s:?}"),
        Value::Number(n) => format!("the number {n}"),
        Value::Bool(b) => b.to_string(),
        Value::Null => "null".to_owned(),
        Value::Array(_) => "a list".to_owned(),
        Value::Object(_) => "an object".to_owned(),
    }
}

/// serde's message about a value's shape, said plainly; other messages unchanged. `variants`
/// gives the values an enum allows (`one of "a", "b"`), asked for only when needed.
pub(super) fn plain(message: &str, variants: impl FnOnce() -> Option<String>) -> String {
    let enum_expected = |variants: Option<String>| expected("", variants.as_deref());
    if message == "expected value" {
        return format!("expected {}", enum_expected(variants()));
    }
    if let Some(name) = message.strip_prefix("data did not match any variant of untagged enum ") {
        return format!("expected {}", expected(name, None));
    }
    let rest = message
        .strip_prefix("invalid type: ")
        .or_else(|| message.strip_prefix("invalid value: "));
    if let Some((what, wanted)) = rest.and_then(|r| r.split_once(", expected ")) {
        let wanted = if wanted == "variant identifier" {
            enum_expected(variants())
        } else {
            expected(wanted, None)
        };
        return format!("expected {wanted}, found {}", found(what));
    }
    if let Some((len, wanted)) = message
        .strip_prefix("invalid length ")
        .and_then(|r| r.split_once(", expected "))
    {
        return format!("expected {}, found a list of {len}", expected(wanted, None));
    }
    message.replacen("unknown variant", "unknown value", 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every object type of the schema is in [`OBJECTS`] or [`EITHER`], with the fields the
    /// schema gives it, required ones as required.
    #[test]
    fn the_shapes_match_the_schema() {
        let schema: serde_json::Value =
            serde_json::from_str(&crate::study::schema()).unwrap_or_default();
        let defs = schema["$defs"].as_object().cloned().unwrap_or_default();
        for (name, def) in &defs {
            let props: Vec<&str> = def["properties"]
                .as_object()
                .map(|p| p.keys().map(String::as_str).collect())
                .unwrap_or_default();
            let is_either = EITHER.iter().any(|e| e.0 == name);
            let Some((_, _, needs, may)) = OBJECTS.iter().find(|o| o.0 == name) else {
                assert!(
                    props.is_empty() || is_either,
                    "{name} has fields {props:?} and no shape in OBJECTS"
                );
                continue;
            };
            if matches!(name.as_str(), "RawQuestion" | "RawAttentionCheck") {
                continue; // their fields depend on their type, said in words
            }
            let listed = |s: &'static str| s.split(", ").filter(|f| !f.is_empty());
            let mut ours: Vec<&str> = listed(needs).chain(listed(may)).collect();
            let mut theirs = props.clone();
            ours.sort_unstable();
            theirs.sort_unstable();
            assert_eq!(ours, theirs, "{name}'s fields");
            let mut required: Vec<&str> = def["required"]
                .as_array()
                .map(|r| r.iter().filter_map(|v| v.as_str()).collect())
                .unwrap_or_default();
            let mut needed: Vec<&str> = listed(needs).collect();
            required.sort_unstable();
            needed.sort_unstable();
            assert_eq!(needed, required, "{name}'s required fields");
        }
        for (name, _, _, _) in OBJECTS {
            assert!(defs.contains_key(*name), "{name} is not in the schema");
        }
    }

    #[test]
    fn serde_words_become_the_file_s_words() {
        assert_eq!(
            plain(r#"invalid type: string "2024", expected u64"#, || None),
            r#"expected a whole number ≥ 0, like 2024 (without quotes), found the text "2024""#
        );
        assert_eq!(
            plain(
                r#"invalid type: string "x", expected struct RawConsent"#,
                || None
            ),
            r#"expected an object like {"text": "…", "agree_label": "I agree"} (fields: text, and optionally agree_label, decline_label), found the text "x""#
        );
        assert_eq!(
            plain("invalid type: map, expected variant identifier", || Some(
                r#"one of "single", "pairs""#.into()
            )),
            r#"expected one of "single", "pairs" (in quotes), found an object"#
        );
        assert_eq!(
            plain(
                "invalid length 1, expected struct RawScale with 4 elements",
                || None
            ),
            r#"expected an object like {"min": 1, "max": 3, "points": [{"value": 1, "label": "Poor"}, …]} (fields: min, max, points, and optionally type, step, labels), found a list of 1"#
        );
        assert_eq!(plain("missing field `id`", || None), "missing field `id`");
    }
}
