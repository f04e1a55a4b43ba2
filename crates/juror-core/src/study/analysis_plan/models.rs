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
    /// MACE (Hovy et al. 2013): each annotator's competence, the chance an answer is not spam.
    Mace,
}

/// The models of rater quality a plan asks for: a set, written as the list of its models. A
/// `Copy` set, not a `Vec`: the validated study holds its plan, and the annotator's page, which
/// carries the study but never a plan, would carry a `Vec`'s clone and drop for nothing.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RaterModels {
    dawid_skene: bool,
    mace: bool,
}

impl RaterModels {
    /// The set of `models`.
    pub fn of(models: &[RaterModel]) -> RaterModels {
        RaterModels {
            dawid_skene: models.contains(&RaterModel::DawidSkene),
            mace: models.contains(&RaterModel::Mace),
        }
    }

    /// Whether `model` is asked for.
    pub fn contains(&self, model: RaterModel) -> bool {
        match model {
            RaterModel::DawidSkene => self.dawid_skene,
            RaterModel::Mace => self.mace,
        }
    }

    /// Whether no model is asked for.
    pub fn is_empty(&self) -> bool {
        !self.dawid_skene && !self.mace
    }

    /// The models asked for, in a fixed order.
    pub fn list(&self) -> Vec<RaterModel> {
        [RaterModel::DawidSkene, RaterModel::Mace]
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

/// Which intervals the Bradley–Terry ratings get (`analysis.bt_intervals`, `--bt-intervals`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum BtIntervals {
    /// The leaderboard's sandwich intervals and the strengths' bootstrap intervals.
    #[default]
    Both,
    /// The leaderboard only (no resampling: the fastest).
    Sandwich,
    /// The strengths' bootstrap intervals only (no leaderboard).
    Bootstrap,
}

impl BtIntervals {
    /// The word the study file and the command line use.
    pub fn word(self) -> &'static str {
        match self {
            BtIntervals::Both => "both",
            BtIntervals::Sandwich => "sandwich",
            BtIntervals::Bootstrap => "bootstrap",
        }
    }

    /// The setting `word` names.
    pub fn from_word(word: &str) -> Option<BtIntervals> {
        [
            BtIntervals::Both,
            BtIntervals::Sandwich,
            BtIntervals::Bootstrap,
        ]
        .into_iter()
        .find(|b| b.word() == word)
    }

    /// Whether the leaderboard (sandwich intervals) is reported.
    pub fn sandwich(self) -> bool {
        self != BtIntervals::Bootstrap
    }

    /// Whether the strengths get bootstrap intervals.
    pub fn bootstrap(self) -> bool {
        self != BtIntervals::Sandwich
    }
}

/// How the leaderboard counts a tie (`analysis.ties`, `--ties`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Ties {
    /// Half a win to each side, as arena-rank counts it.
    #[default]
    Halves,
    /// Davidson's (1970) model: a tie is an outcome of its own, with a fitted tie parameter.
    Davidson,
}

impl Ties {
    /// The word the study file and the command line use.
    pub fn word(self) -> &'static str {
        match self {
            Ties::Halves => "halves",
            Ties::Davidson => "davidson",
        }
    }

    /// The setting `word` names.
    pub fn from_word(word: &str) -> Option<Ties> {
        [Ties::Halves, Ties::Davidson]
            .into_iter()
            .find(|t| t.word() == word)
    }
}

/// The rankings' settings the study file writes as words, each unknown word a problem (field,
/// what is wrong, what to do) and the default in its place.
pub(super) fn rankings(
    bt_intervals: Option<&str>,
    ties: Option<&str>,
    problems: &mut Vec<(String, String, String)>,
) -> (BtIntervals, Ties) {
    let intervals = match bt_intervals {
        None => BtIntervals::default(),
        Some(word) => BtIntervals::from_word(word).unwrap_or_else(|| {
            problems.push((
                "bt_intervals".to_owned(),
                format!("unknown intervals \"{word}\""),
                "use \"sandwich\", \"bootstrap\" or \"both\"".to_owned(),
            ));
            BtIntervals::default()
        }),
    };
    let ties = match ties {
        None => Ties::default(),
        Some(word) => Ties::from_word(word).unwrap_or_else(|| {
            problems.push((
                "ties".to_owned(),
                format!("unknown treatment of ties \"{word}\""),
                "use \"halves\" (half a win each) or \"davidson\" (Davidson's model)".to_owned(),
            ));
            Ties::default()
        }),
    };
    (intervals, ties)
}

/// Whether `value` is its type's default (a setting left out of the serialised plan).
pub(super) fn is_default<T: Default + PartialEq>(value: &T) -> bool {
    *value == T::default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rankings_words_are_read_and_an_unknown_one_is_placed() {
        let mut problems = Vec::new();
        assert_eq!(
            rankings(None, None, &mut problems),
            (BtIntervals::Both, Ties::Halves)
        );
        assert_eq!(
            rankings(Some("sandwich"), Some("davidson"), &mut problems),
            (BtIntervals::Sandwich, Ties::Davidson)
        );
        assert!(problems.is_empty());
        assert_eq!(
            rankings(Some("robust"), Some("thirds"), &mut problems),
            (BtIntervals::Both, Ties::Halves)
        );
        let fields: Vec<&str> = problems.iter().map(|p| p.0.as_str()).collect();
        assert_eq!(fields, ["bt_intervals", "ties"]);
        assert!(problems[1].2.contains("\"davidson\""));
        for b in [
            BtIntervals::Both,
            BtIntervals::Sandwich,
            BtIntervals::Bootstrap,
        ] {
            assert_eq!(BtIntervals::from_word(b.word()), Some(b));
        }
        assert!(BtIntervals::Both.sandwich() && BtIntervals::Both.bootstrap());
        assert!(!BtIntervals::Sandwich.bootstrap() && !BtIntervals::Bootstrap.sandwich());
    }
}
