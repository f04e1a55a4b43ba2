//! The rubric: its dimensions and their scales, its output questions and worked examples.

use std::collections::{BTreeMap, BTreeSet};

use super::media::media;
use super::{Checker, known};
use crate::study::model::*;
use crate::study::raw::*;

impl Checker {
    /// `rubric`: dimensions with their scales, output questions and worked examples. Returns
    /// the rubric with the dimensions' and the output questions' ids.
    pub(super) fn rubric<'a>(
        &mut self,
        raw: &'a RawStudy,
    ) -> (Rubric, BTreeSet<&'a str>, BTreeSet<&'a str>) {
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
            crate::base::order::set(raw.rubric.output_questions.iter().map(|q| q.id.as_str()));

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

    pub(in crate::study) fn scale(&mut self, at: &str, raw: &RawScale) -> Scale {
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
        let step = match self.scale_step(at, raw, slider, range) {
            Ok(step) => step,
            Err(step) => return empty(step),
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
        let by_value = self.scale_points(at, raw, step);
        self.scale_labels(at, raw, slider, &by_value);
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

    /// A scale's step: 1 but for a slider's own, which must divide its range. `Err` holds the
    /// step of the empty scale returned when the step is wrong.
    fn scale_step(
        &mut self,
        at: &str,
        raw: &RawScale,
        slider: bool,
        range: i64,
    ) -> Result<i32, i32> {
        let step = match (raw.step, slider) {
            (None, _) => 1,
            (Some(_), false) => {
                self.error(
                    format!("{at}.step"),
                    "a step is for a slider",
                    "add \"type\": \"slider\" to the scale, or remove \"step\"",
                );
                return Err(1);
            }
            (Some(step), true) if step < 1 => {
                self.error(
                    format!("{at}.step"),
                    format!("the step {step} is not a whole number of at least 1"),
                    "give a step such as 1 or 5",
                );
                return Err(1);
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
                return Err(step);
            }
            (Some(step), true) => step,
        };
        Ok(step)
    }

    /// A scale's labelled points, by value: each on the scale (and on a slider's steps), given
    /// once and labelled.
    fn scale_points<'a>(
        &mut self,
        at: &str,
        raw: &'a RawScale,
        step: i32,
    ) -> BTreeMap<i32, &'a RawScalePoint> {
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
        by_value
    }

    /// Every point a scale needs labelled (all, or its ends) has its label.
    fn scale_labels(
        &mut self,
        at: &str,
        raw: &RawScale,
        slider: bool,
        by_value: &BTreeMap<i32, &RawScalePoint>,
    ) {
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
    }
}
