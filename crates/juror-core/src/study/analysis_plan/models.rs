//! The extra models a plan may ask for, as `Copy` sets written as lists: rater quality
//! (`analysis.raters`) and models of each dimension (`analysis.models`).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// A model of rater quality.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum RaterModel {
    /// Dawid and Skene's (1979) confusion matrices, fitted by EM as crowd-kit fits them.
    DawidSkene,
}

/// The models of rater quality a plan asks for: a set, written as the list of its models. A
/// `Copy` set, not a `Vec`: the validated study holds its plan, and the annotator's page, which
/// carries the study but never a plan, would carry a `Vec`'s clone and drop for nothing.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RaterModels {
    dawid_skene: bool,
}

impl RaterModels {
    /// The set of `models`.
    pub fn of(models: &[RaterModel]) -> RaterModels {
        RaterModels {
            dawid_skene: models.contains(&RaterModel::DawidSkene),
        }
    }

    /// Whether `model` is asked for.
    pub fn contains(&self, model: RaterModel) -> bool {
        match model {
            RaterModel::DawidSkene => self.dawid_skene,
        }
    }

    /// Whether no model is asked for.
    pub fn is_empty(&self) -> bool {
        !self.dawid_skene
    }

    /// The models asked for, in a fixed order.
    pub fn list(&self) -> Vec<RaterModel> {
        [RaterModel::DawidSkene]
            .into_iter()
            .filter(|m| self.contains(*m))
            .collect()
    }
}

impl Serialize for RaterModels {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.list().serialize(serializer)
    }
}

/// A model of a rating dimension beside the paired tests (`analysis.models`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum AnalysisModel {
    /// `score ~ system + (1 | annotator) + (1 | item)` (with rounds, `system * round`), REML.
    Crossed,
    /// The same model fitted by maximum likelihood.
    CrossedMl,
    /// The proportional-odds (cumulative logit) model `score ~ system`.
    Ordinal,
}

/// The models a plan asks for: a `Copy` set, written as the list (see [`RaterModels`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct AnalysisModels {
    crossed: bool,
    crossed_ml: bool,
    ordinal: bool,
}

impl AnalysisModels {
    const ALL: [AnalysisModel; 3] = [
        AnalysisModel::Crossed,
        AnalysisModel::CrossedMl,
        AnalysisModel::Ordinal,
    ];

    /// The set of `models`.
    pub fn of(models: &[AnalysisModel]) -> AnalysisModels {
        AnalysisModels {
            crossed: models.contains(&AnalysisModel::Crossed),
            crossed_ml: models.contains(&AnalysisModel::CrossedMl),
            ordinal: models.contains(&AnalysisModel::Ordinal),
        }
    }

    /// Whether `model` is asked for.
    pub fn contains(&self, model: AnalysisModel) -> bool {
        match model {
            AnalysisModel::Crossed => self.crossed,
            AnalysisModel::CrossedMl => self.crossed_ml,
            AnalysisModel::Ordinal => self.ordinal,
        }
    }

    /// Whether no model is asked for.
    pub fn is_empty(&self) -> bool {
        !(self.crossed || self.crossed_ml || self.ordinal)
    }

    /// The models asked for, in a fixed order.
    pub fn list(&self) -> Vec<AnalysisModel> {
        Self::ALL
            .into_iter()
            .filter(|m| self.contains(*m))
            .collect()
    }
}

impl Serialize for AnalysisModels {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.list().serialize(serializer)
    }
}
