//! Bounds on what the inputs may name: the statistics grow with the square of the number of
//! systems (a Bradley–Terry fit, refitted for every bootstrap resample, holds a systems ×
//! systems table) and the report has a part per dimension. A study names its systems and
//! dimensions, and ratings files checked against it name no others; without one, a file could
//! name thousands. So the inputs together may name at most [`MAX_SYSTEMS`] systems and
//! [`MAX_DIMENSIONS`] dimensions (or the study's or key's own number, if larger): the input that
//! would push past either is left out whole, with a problem at its first row past the cap, and
//! the others are read.

use std::collections::HashSet;

use super::Context;
use crate::analysis::data::{At, Data, FileSummary, InputKind, Name, Problem};

/// The most distinct systems the inputs may name (without a study or key naming more).
pub const MAX_SYSTEMS: usize = 64;
/// The most distinct dimensions the inputs may name (without a study naming more).
pub const MAX_DIMENSIONS: usize = 64;

/// The systems and dimensions named so far, and the caps.
pub(crate) struct Caps {
    systems: HashSet<Name>,
    dimensions: HashSet<Name>,
    max_systems: usize,
    max_dimensions: usize,
}

/// How many rows of each table there were before an input was read.
#[derive(Clone, Copy)]
pub(crate) struct Marks {
    ratings: usize,
    preferences: usize,
    choices: usize,
    answers: usize,
    trials: usize,
    spans: usize,
}

impl Marks {
    pub(crate) fn of(data: &Data) -> Marks {
        Marks {
            ratings: data.ratings.len(),
            preferences: data.preferences.len(),
            choices: data.choices.len(),
            answers: data.answers.len(),
            trials: data.trials.len(),
            spans: data.spans.len(),
        }
    }

    /// Drops every row read since the marks, and what the summary counted of them.
    fn roll_back(self, data: &mut Data, summary: &mut FileSummary) {
        data.ratings.truncate(self.ratings);
        data.preferences.truncate(self.preferences);
        data.choices.truncate(self.choices);
        data.answers.truncate(self.answers);
        data.trials.truncate(self.trials);
        data.spans.truncate(self.spans);
        summary.kind = InputKind::Unread;
        summary.unfinished_trials = 0;
        summary.check_trials = 0;
    }
}

impl Caps {
    pub(crate) fn new(context: &Context) -> Caps {
        let study_systems = context.study.map_or(0, |(s, _)| s.systems().len());
        let key_systems = context.key.map_or(0, |k| k.systems.len());
        let study_dimensions = context
            .study
            .map_or(0, |(s, _)| s.rubric().dimensions.len());
        Caps {
            systems: HashSet::new(),
            dimensions: HashSet::new(),
            max_systems: MAX_SYSTEMS.max(study_systems).max(key_systems),
            max_dimensions: MAX_DIMENSIONS.max(study_dimensions),
        }
    }

    /// Takes the systems and dimensions of the rows read since `marks`; if they push past a
    /// cap, the rows are dropped and the problem says where and why.
    pub(crate) fn admit(&mut self, marks: Marks, data: &mut Data, summary: &mut FileSummary) {
        let mut systems: HashSet<Name> = HashSet::new();
        let mut dimensions: HashSet<Name> = HashSet::new();
        let mut past: Option<(String, String)> = None;
        {
            let mut system = |name: &str, at: &At| {
                if past.is_none() && !self.systems.contains(name) && !systems.contains(name) {
                    systems.insert(Name::from(name));
                    if self.systems.len() + systems.len() > self.max_systems {
                        past = Some((
                            at.to_string(),
                            format!(
                                "system \"{name}\" is more than the {} distinct systems an \
                                 analysis takes",
                                self.max_systems
                            ),
                        ));
                    }
                }
            };
            for row in &data.ratings[marks.ratings..] {
                system(row.system.as_str(), &row.source.at);
            }
            for row in &data.preferences[marks.preferences..] {
                system(row.system_a.as_str(), &row.source.at);
                system(row.system_b.as_str(), &row.source.at);
            }
            for row in &data.choices[marks.choices..] {
                for s in &row.shown {
                    system(s, &row.source.at);
                }
            }
            for row in &data.spans[marks.spans..] {
                system(row.system.as_str(), &row.source.at);
            }
        }
        if past.is_none() {
            for row in &data.ratings[marks.ratings..] {
                if !self.dimensions.contains(&row.dimension)
                    && dimensions.insert(row.dimension.clone())
                    && self.dimensions.len() + dimensions.len() > self.max_dimensions
                {
                    past = Some((
                        row.source.at.to_string(),
                        format!(
                            "dimension \"{}\" is more than the {} distinct dimensions an \
                             analysis takes",
                            row.dimension, self.max_dimensions
                        ),
                    ));
                    break;
                }
            }
        }
        match past {
            None => {
                self.systems.extend(systems);
                self.dimensions.extend(dimensions);
            }
            Some((at, what)) => {
                marks.roll_back(data, summary);
                data.problems.push(Problem::new(
                    &summary.file,
                    Some(at),
                    format!(
                        "{what} (with the files before it); the file is left out; analyse it \
                         with the study it belongs to, or split the data by system"
                    ),
                ));
            }
        }
    }
}
