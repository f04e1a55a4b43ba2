//! The model read back from the JSON its `Serialize` writes: how a compiled study's `study`
//! is read (`compiled::read`, the annotator's page among others).
//!
//! Written by hand over [`crate::base::json`] rather than derived, for the size of the annotator's
//! wasm (that module says why). The format is serde's, as the model's derived `Serialize`
//! writes it: every field by its name, `null` for an absent option, enums by their variant's
//! name (`"All"`, `{"Anchor": 0}`), the study-file enums by their snake-case words. A test
//! holds [`study`] to that writer: every study written and read back is the same study.

use crate::base::json::{
    Blank, Read, Value, Wrong, boolean, count, fields, index, integer, list, map, string,
    unknown_variant, variant, whole, word,
};
use crate::base::rich::Text;

use super::model::{
    Assignment, AttentionCheck, Consent, Design, Dimension, Example, Item, LabelScheme, Media,
    MediaKind, Order, PairSet, PreferenceKind, Presentation, Question, Requirement, Rubric, Scale,
    ScaleKind, ScalePoint, Severity, Spans, Study, Task,
};
use super::published::{Shown, Trial};
use super::raw::{RawCompletion, RawSubmit};

/// A study as the model's `Serialize` writes it (its analysis plan, never written, is `None`).
///
/// # Errors
/// The first thing found wrong, placed from the study down (`items[3].prompt`).
pub fn study(value: &Value) -> Read<Study> {
    let mut f = fields(value)?;
    let value = Study {
        id: f.take("id", string),
        title: f.take("title", string),
        description: f.maybe("description", text),
        instructions: f.maybe("instructions", text),
        consent: f.maybe("consent", consent),
        estimated_minutes: f.maybe("estimated_minutes", count),
        contact: f.maybe("contact", string),
        debrief: f.maybe("debrief", text),
        completion: f.maybe("completion", completion),
        submit: f.maybe("submit", submit),
        seed: f.take("seed", whole),
        systems: f.take("systems", strings),
        rubric: f.take("rubric", rubric),
        design: f.take("design", design),
        intake: f.take("intake", questions),
        exit: f.take("exit", questions),
        intake_minutes: f.maybe("intake_minutes", count),
        exit_minutes: f.maybe("exit_minutes", count),
        screened_message: f.take("screened_message", text),
        items: f.take("items", |v| list(v, item)),
        analysis: None,
    };
    f.done(value)
}

fn text(value: &Value) -> Read<Text> {
    crate::base::rich::read_text(value)
}

pub(super) fn strings(value: &Value) -> Read<Vec<String>> {
    list(value, string)
}

fn texts(value: &Value) -> Read<Vec<Text>> {
    list(value, text)
}

fn consent(value: &Value) -> Read<Consent> {
    let mut f = fields(value)?;
    let value = Consent {
        text: f.take("text", text),
        agree_label: f.take("agree_label", string),
        decline_label: f.take("decline_label", string),
    };
    f.done(value)
}

fn completion(value: &Value) -> Read<RawCompletion> {
    let mut f = fields(value)?;
    let value = RawCompletion {
        code: f.maybe("code", string),
        fail_code: f.maybe("fail_code", string),
        screened_code: f.maybe("screened_code", string),
        redirect: f.maybe("redirect", string),
    };
    f.done(value)
}

fn submit(value: &Value) -> Read<RawSubmit> {
    let mut f = fields(value)?;
    let value = RawSubmit {
        url: f.take("url", string),
        format: f
            .maybe("format", string)
            .unwrap_or_else(|| "json".to_owned()),
        experiment_id: f.maybe("experiment_id", string),
        backups: f.maybe("backups", boolean).unwrap_or(false),
    };
    f.done(value)
}

fn rubric(value: &Value) -> Read<Rubric> {
    let mut f = fields(value)?;
    let value = Rubric {
        dimensions: f.take("dimensions", |v| list(v, dimension)),
        output_questions: f.take("output_questions", questions),
        examples: f.take("examples", |v| list(v, example)),
        look_for: f.take("look_for", texts),
        avoid: f.take("avoid", texts),
    };
    f.done(value)
}

fn dimension(value: &Value) -> Read<Dimension> {
    let mut f = fields(value)?;
    let value = Dimension {
        id: f.take("id", string),
        label: f.take("label", string),
        question: f.take("question", string),
        scale: f.take("scale", scale),
        required: f.take("required", boolean),
        allow_skip: f.take("allow_skip", boolean),
    };
    f.done(value)
}

pub(super) fn scale(value: &Value) -> Read<Scale> {
    let mut f = fields(value)?;
    let value = Scale {
        points: f.take("points", |v| list(v, scale_point)),
        kind: f.take("kind", |v| {
            word(
                v,
                &[("Likert", ScaleKind::Likert), ("Slider", ScaleKind::Slider)],
            )
        }),
        step: f.take("step", integer),
    };
    f.done(value)
}

fn scale_point(value: &Value) -> Read<ScalePoint> {
    let mut f = fields(value)?;
    let value = ScalePoint {
        value: f.take("value", integer),
        label: f.maybe("label", string),
        description: f.maybe("description", string),
    };
    f.done(value)
}

fn example(value: &Value) -> Read<Example> {
    let mut f = fields(value)?;
    let value = Example {
        title: f.maybe("title", string),
        prompt: f.maybe("prompt", text),
        output: f.take("output", text),
        scores: f.take("scores", |v| map(v, integer)),
        why: f.take("why", string),
        media: f.maybe("media", media),
    };
    f.done(value)
}

fn media(value: &Value) -> Read<Media> {
    let mut f = fields(value)?;
    let value = Media {
        kind: f.take("kind", |v| {
            word(
                v,
                &[("image", MediaKind::Image), ("video", MediaKind::Video)],
            )
        }),
        src: f.take("src", string),
        alt: f.take("alt", string),
    };
    f.done(value)
}

fn questions(value: &Value) -> Read<Vec<Question>> {
    list(value, question)
}

fn question(value: &Value) -> Read<Question> {
    let mut f = fields(value)?;
    let value = Question {
        id: f.take("id", string),
        prompt: f.take("prompt", string),
        help: f.maybe("help", string),
        required: f.take("required", boolean),
        kind: f.take("kind", super::ask::question::read),
        screen_out: f.take("screen_out", strings),
        allow_skip: f.take("allow_skip", boolean),
    };
    f.done(value)
}

fn design(value: &Value) -> Read<Design> {
    let mut f = fields(value)?;
    let value = Design {
        assignment: f.maybe("assignment", assignment),
        attention_checks: f.take("attention_checks", |v| list(v, attention_check)),
        tasks: f.take("tasks", |v| list(v, task)),
        plans: f.maybe("plans", |v| list(v, trials)),
        personal_plans: f.take("personal_plans", |v| map(v, trials)),
    };
    f.done(value)
}

fn assignment(value: &Value) -> Read<Assignment> {
    let mut f = fields(value)?;
    let value = Assignment {
        slots: f.take("slots", count),
        annotators_per_item: f.take("annotators_per_item", count),
    };
    f.done(value)
}

fn attention_check(value: &Value) -> Read<AttentionCheck> {
    let (name, content) = variant(value)?;
    let check = match name {
        "Rating" => fields(content).and_then(|mut f| {
            let value = AttentionCheck::Rating {
                item: f.take("item", string),
                system: f.take("system", string),
                dimension: f.take("dimension", string),
                accept: f.maybe("accept", |v| list(v, integer)),
            };
            f.done(value)
        }),
        "Preference" => fields(content).and_then(|mut f| {
            let value = AttentionCheck::Preference {
                item: f.take("item", string),
                accept: f.maybe("accept", strings),
            };
            f.done(value)
        }),
        _ => return Err(unknown_variant(name, &["Rating", "Preference"])),
    };
    check.map_err(|e| e.in_key(name))
}

fn trials(value: &Value) -> Read<Vec<Trial>> {
    list(value, trial)
}

fn trial(value: &Value) -> Read<Trial> {
    let mut f = fields(value)?;
    let value = Trial {
        task: f.take("task", index),
        item: f.take("item", index),
        shown: f.take("shown", |v| list(v, shown)),
        check: f.take("check", boolean),
    };
    f.done(value)
}

fn shown(value: &Value) -> Read<Shown> {
    let mut f = fields(value)?;
    let value = Shown {
        system: f.take("system", index),
        label: f.take("label", string),
    };
    f.done(value)
}

pub(super) fn requirement(value: &Value) -> Read<Requirement> {
    word(
        value,
        &[
            ("off", Requirement::Off),
            ("optional", Requirement::Optional),
            ("required", Requirement::Required),
        ],
    )
}

fn task(value: &Value) -> Read<Task> {
    let mut f = fields(value)?;
    let value = Task {
        id: f.take("id", string),
        title: f.maybe("title", string),
        instructions: f.maybe("instructions", text),
        presentation: f.take("presentation", |v| {
            word(
                v,
                &[
                    ("single", Presentation::Single),
                    ("pairs", Presentation::Pairs),
                    ("side_by_side", Presentation::SideBySide),
                ],
            )
        }),
        pairs: f.take("pairs", pair_set),
        spread: f.take("spread", boolean),
        dimensions: f.take("dimensions", strings),
        output_questions: f.take("output_questions", strings),
        preference: f.maybe("preference", super::ask::read_asked),
        notes: f.take("notes", requirement),
        flag: f.maybe("flag", string),
        flag_implies: f.maybe("flag_implies", integer),
        order: f.take("order", |v| {
            word(
                v,
                &[
                    ("shuffled", Order::Shuffled),
                    ("fixed", Order::Fixed),
                    ("system_blocks", Order::SystemBlocks),
                ],
            )
        }),
        labels: f.take("labels", |v| {
            word(
                v,
                &[
                    ("per_trial", LabelScheme::PerTrial),
                    ("per_annotator", LabelScheme::PerAnnotator),
                ],
            )
        }),
        label_format: f.take("label_format", string),
        items: f.take("items", |v| list(v, index)),
        estimated_minutes: f.maybe("estimated_minutes", count),
        spans: f.maybe("spans", spans),
        plain_text: f.take("plain_text", boolean),
    };
    f.done(value)
}

fn spans(value: &Value) -> Read<Spans> {
    let mut f = fields(value)?;
    let value = Spans {
        severities: f.take("severities", |v| list(v, severity)),
        categories: f.take("categories", strings),
        whole_output: f.take("whole_output", boolean),
        question: f.take("question", string),
    };
    f.done(value)
}

/// A severity by its word (`minor`, `major`, `critical`).
///
/// # Errors
/// Anything else.
pub fn severity(value: &Value) -> Read<Severity> {
    let word = string(value)?;
    Severity::parse(&word).ok_or_else(|| unknown_variant(&word, &["minor", "major", "critical"]))
}

fn pair_set(value: &Value) -> Read<PairSet> {
    let (name, content) = variant(value)?;
    match name {
        "All" => Ok(PairSet::All),
        "Anchor" => index(content).map(PairSet::Anchor),
        "List" => list(content, pair).map(PairSet::List),
        _ => return Err(unknown_variant(name, &["All", "Anchor", "List"])),
    }
    .map_err(|e| e.in_key(name))
}

fn pair(value: &Value) -> Read<(usize, usize)> {
    match list(value, index)?.as_slice() {
        &[a, b] => Ok((a, b)),
        other => Err(Wrong::new(format!(
            "expected a pair, found {} numbers",
            other.len()
        ))),
    }
}

fn item(value: &Value) -> Read<Item> {
    let mut f = fields(value)?;
    let value = Item {
        id: f.take("id", string),
        group: f.maybe("group", string),
        groups: f.take("groups", |v| map(v, string)),
        round: f.maybe("round", count),
        prompt: f.take("prompt", text),
        context: f.maybe("context", text),
        media: f.maybe("media", media),
        outputs: f.take("outputs", |v| map(v, text)),
        for_slots: f.take("for_slots", |v| list(v, count)),
        for_ids: f.take("for_ids", strings),
    };
    f.done(value)
}

// Placeholders for fields that could not be read (`json::Blank`): never seen, since the value
// they stand in is refused.
macro_rules! blank {
    ($($ty:ty => $value:expr,)*) => {
        $(impl Blank for $ty {
            fn blank() -> $ty {
                $value
            }
        })*
    };
}

blank! {
    Text => Text::Source(String::new()),
    Severity => Severity::Minor,
    ScaleKind => ScaleKind::Likert,
    MediaKind => MediaKind::Image,
    Presentation => Presentation::Single,
    PreferenceKind => PreferenceKind::Best,
    Scale => Scale { points: Vec::new(), kind: ScaleKind::Likert, step: 1 },
    Rubric => Rubric {
        dimensions: Vec::new(),
        output_questions: Vec::new(),
        examples: Vec::new(),
        look_for: Vec::new(),
        avoid: Vec::new(),
    },
    Design => Design {
        assignment: None,
        attention_checks: Vec::new(),
        tasks: Vec::new(),
        plans: None,
        personal_plans: std::collections::BTreeMap::new(),
    },
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Serialize;

    /// `read` gives back what the model's `Serialize` wrote.
    fn same<T: Serialize + PartialEq + std::fmt::Debug>(value: &T, read: fn(&Value) -> Read<T>) {
        let written = serde_json::to_value(value).unwrap();
        assert_eq!(read(&written).as_ref(), Ok(value), "{written}");
    }

    #[test]
    fn every_variant_reads_back_as_written() {
        // Each list names every variant: a new one fails to compile here until it is added.
        for p in [
            Presentation::Single,
            Presentation::Pairs,
            Presentation::SideBySide,
        ] {
            match p {
                Presentation::Single | Presentation::Pairs | Presentation::SideBySide => {}
            }
            same(&Task::blank_with(p), task);
        }
        for r in [
            Requirement::Off,
            Requirement::Optional,
            Requirement::Required,
        ] {
            same(&r, requirement);
        }
        for order in [Order::Shuffled, Order::Fixed, Order::SystemBlocks] {
            let mut t = Task::blank_with(Presentation::Pairs);
            t.order = order;
            same(&t, task);
        }
        for pairs in [
            PairSet::All,
            PairSet::Anchor(2),
            PairSet::List(vec![(0, 1), (2, 0)]),
        ] {
            same(&pairs, pair_set);
        }
        let scale = Scale {
            points: vec![ScalePoint {
                value: -1,
                label: Some("Low".to_owned()),
                description: None,
            }],
            kind: ScaleKind::Slider,
            step: 2,
        };
        same(&scale, super::scale);
        for check in [
            AttentionCheck::Rating {
                item: "i".to_owned(),
                system: "s".to_owned(),
                dimension: "d".to_owned(),
                accept: Some(vec![4, 5]),
            },
            AttentionCheck::Preference {
                item: "i".to_owned(),
                accept: None,
            },
        ] {
            same(&check, attention_check);
        }
        for kind in [MediaKind::Image, MediaKind::Video] {
            let m = Media {
                kind,
                src: "a.png".to_owned(),
                alt: "A".to_owned(),
            };
            same(&m, media);
        }
        let spans = Spans {
            severities: vec![Severity::Minor, Severity::Major, Severity::Critical],
            categories: vec!["Accuracy".to_owned()],
            whole_output: true,
            question: "Mark".to_owned(),
        };
        same(&spans, super::spans);
    }

    #[test]
    fn a_wrong_field_is_placed_and_named() {
        let mut t = serde_json::to_value(Task::blank_with(Presentation::Pairs)).unwrap();
        t["pairs"] = serde_json::json!({"List": [[0, 1], [2]]});
        let wrong = task(&t).unwrap_err();
        assert_eq!(wrong.place("task"), "task.pairs.List[1]");
        assert_eq!(wrong.what(), "expected a pair, found 1 numbers");
        t["pairs"] = serde_json::json!("Some");
        let wrong = task(&t).unwrap_err();
        assert_eq!(wrong.what(), "\"Some\" is not one of All, Anchor, List");
        t.as_object_mut().unwrap().remove("presentation");
        t["order"] = serde_json::json!("random");
        let wrong = task(&t).unwrap_err();
        // The first field the reader takes that is wrong.
        assert_eq!(wrong.place(""), "presentation");
        assert_eq!(wrong.what(), "missing");
    }

    impl Task {
        fn blank_with(presentation: Presentation) -> Task {
            Task {
                id: "t".to_owned(),
                title: Some("T".to_owned()),
                instructions: Some(Text::Source("Read".to_owned())),
                presentation,
                pairs: PairSet::All,
                spread: true,
                dimensions: vec!["d".to_owned()],
                output_questions: Vec::new(),
                preference: None,
                notes: Requirement::Optional,
                flag: None,
                flag_implies: Some(1),
                order: Order::Fixed,
                labels: LabelScheme::PerAnnotator,
                label_format: "System {}".to_owned(),
                items: vec![0, 3],
                estimated_minutes: None,
                spans: None,
                plain_text: false,
            }
        }
    }
}
