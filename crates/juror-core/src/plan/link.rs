//! Who the annotator is and how they arrived: the slot and id a link names ([`Annotator`],
//! [`resolve_annotator`]), the recruitment platform's parameters kept for payment
//! ([`PlatformVisit`], [`platform_visit`], MTurk's preview and submit address), and the links a
//! researcher hands out, one per slot, with a platform's placeholders ([`slot_links`],
//! [`platform_links`]). Separate from planning: a plan needs only the slot.

use serde::Serialize;

use super::{period, slots};
use crate::rng;
use crate::study::{Problem, Study, participant_code};
use crate::url::percent_encode;

/// Who is annotating: a slot (1-based), and the id they came with, if any.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, serde::Deserialize)]
pub struct Annotator {
    /// The slot, from 1.
    pub slot: u32,
    /// The id from the link (`?annotator=`, `PROLIFIC_PID`), if any.
    pub id: Option<String>,
    /// The recruitment platform the link came from, with its other parameters (kept in the
    /// ratings file for payment; not part of who the annotator is: [`Annotator::same_person`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub platform: Option<PlatformVisit>,
}

impl Annotator {
    /// An annotator known by slot only.
    pub fn slot(slot: u32) -> Annotator {
        Annotator {
            slot,
            ..Annotator::default()
        }
    }

    /// Whether two records name the same annotator: the same slot and id (the platform's
    /// session parameters may differ between two visits of one person).
    pub fn same_person(&self, other: &Annotator) -> bool {
        self.slot == other.slot && self.id == other.id
    }
}

/// What a recruitment platform's link said besides the participant's id: Prolific's
/// `STUDY_ID` and `SESSION_ID`, MTurk's `assignmentId` and `hitId` (each under its name on the
/// platform). Recorded in the ratings file so that the researcher can match a file to a
/// submission and pay it.
#[derive(
    Debug,
    Clone,
    Default,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Serialize,
    serde::Deserialize,
    schemars::JsonSchema,
)]
#[serde(deny_unknown_fields)]
pub struct PlatformVisit {
    /// `prolific`, `mturk` or `sona`.
    pub name: String,
    /// Prolific's study.
    #[serde(rename = "STUDY_ID", default, skip_serializing_if = "Option::is_none")]
    pub study_id: Option<String>,
    /// Prolific's session: one participant's one attempt.
    #[serde(
        rename = "SESSION_ID",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub session_id: Option<String>,
    /// MTurk's assignment (what is approved and paid).
    #[serde(
        rename = "assignmentId",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub assignment_id: Option<String>,
    /// MTurk's HIT.
    #[serde(rename = "hitId", default, skip_serializing_if = "Option::is_none")]
    pub hit_id: Option<String>,
}

/// The platform a link came from, read with `param` (the link's query parameters): the one
/// whose id parameter is present ([`ID_PARAMETERS`]), with its other parameters that are
/// present and not empty (trimmed, at most 200 characters). `None` for Juror's own
/// `annotator=` or no id.
pub fn platform_visit(param: impl Fn(&str) -> Option<String>) -> Option<PlatformVisit> {
    let given = |key: &str| {
        let value: String = param(key)?.trim().chars().take(200).collect();
        (!value.is_empty()).then_some(value)
    };
    if given("annotator").is_some() {
        return None;
    }
    let visit = if given("PROLIFIC_PID").is_some() {
        PlatformVisit {
            name: "prolific".to_owned(),
            study_id: given("STUDY_ID"),
            session_id: given("SESSION_ID"),
            ..PlatformVisit::default()
        }
    } else if given("workerId").is_some() {
        PlatformVisit {
            name: "mturk".to_owned(),
            assignment_id: given("assignmentId"),
            hit_id: given("hitId"),
            ..PlatformVisit::default()
        }
    } else if given("id").is_some() {
        PlatformVisit {
            name: "sona".to_owned(),
            ..PlatformVisit::default()
        }
    } else {
        return None;
    };
    Some(visit)
}

/// Works out the annotator from a link's `slot` and `annotator` parameters. The id is
/// kept as [`participant_code`](crate::study::participant_code) makes it.
///
/// A slot wins when given. An id alone is mapped to a slot by a stable hash: modulo the study's
/// slots, or modulo [`period`] when the study does not fix them.
///
/// # Errors
/// A slot that is not a whole number within the study's slots, or neither parameter.
pub fn resolve_annotator(
    study: &Study,
    slot: Option<&str>,
    id: Option<&str>,
) -> Result<Annotator, Problem> {
    let id = id.map(participant_code).filter(|s| !s.is_empty());
    let range = match slots(study) {
        Some(n) => format!("1 to {n}"),
        None => "1 or more".to_owned(),
    };
    let slot = match slot.map(str::trim).filter(|s| !s.is_empty()) {
        Some(text) => {
            let n: u32 = text
                .parse()
                .ok()
                .filter(|&n| n >= 1)
                .ok_or_else(|| Problem {
                    at: "slot".to_owned(),
                    message: format!("\"{text}\" is not a slot number"),
                    fix: format!("use a link with slot={range}"),
                })?;
            if let Some(max) = slots(study)
                && n > max
            {
                return Err(Problem {
                    at: "slot".to_owned(),
                    message: format!("slot {n} does not exist: the study has {max} slots"),
                    fix: format!("use a link with slot={range}"),
                });
            }
            n
        }
        None => match &id {
            Some(id) => {
                let modulus = u64::from(slots(study).unwrap_or_else(|| period(study)).max(1));
                u32::try_from(rng::hash_id(id) % modulus).unwrap_or(0) + 1
            }
            None => {
                return Err(Problem {
                    at: "annotator".to_owned(),
                    message: "the link names no annotator".to_owned(),
                    fix: format!("add slot={range} or annotator=YOUR-ID to the link"),
                });
            }
        },
    };
    Ok(Annotator {
        slot,
        id,
        platform: None,
    })
}

/// One link per annotator slot: `BASE/index.html?study=STUDY&slot=N` for the study's slots (or
/// one counterbalancing [`period`] when it fixes none), where `study` is the study file's path
/// on the site (such as `studies/mine.json`), percent-encoded where a URL needs it.
pub fn slot_links(study: &Study, base_url: &str, study_path: &str) -> Vec<(u32, String)> {
    let base = base_url.trim_end_matches('/');
    let path = percent_encode(study_path, b"/");
    let n = slots(study).unwrap_or_else(|| period(study));
    (1..=n)
        .map(|slot| (slot, format!("{base}/index.html?study={path}&slot={slot}")))
        .collect()
}

/// A recruitment platform whose links carry the participant's id.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Platform {
    /// Prolific: `PROLIFIC_PID`, `STUDY_ID`, `SESSION_ID`, filled in by Prolific.
    Prolific,
    /// Amazon Mechanical Turk (an external question): MTurk adds `assignmentId`, `hitId`,
    /// `turkSubmitTo` and `workerId` to the link itself.
    Mturk,
    /// SONA Systems: `id`, filled in from `%SURVEY_CODE%`.
    Sona,
}

impl Platform {
    /// `prolific`, `mturk` or `sona`.
    pub fn parse(name: &str) -> Option<Platform> {
        match name.to_ascii_lowercase().as_str() {
            "prolific" => Some(Platform::Prolific),
            "mturk" => Some(Platform::Mturk),
            "sona" => Some(Platform::Sona),
            _ => None,
        }
    }

    /// What the platform's link adds to a slot's link: its placeholders for the participant's id.
    fn placeholders(self) -> &'static str {
        match self {
            Platform::Prolific => {
                "&PROLIFIC_PID={{%PROLIFIC_PID%}}&STUDY_ID={{%STUDY_ID%}}&SESSION_ID={{%SESSION_ID%}}"
            }
            Platform::Mturk => "",
            Platform::Sona => "&id=%SURVEY_CODE%",
        }
    }
}

/// The link parameters that name an annotator by id, in the order they are looked at: Juror's
/// own `annotator`, then Prolific's, MTurk's and SONA's.
pub const ID_PARAMETERS: [&str; 4] = ["annotator", "PROLIFIC_PID", "workerId", "id"];

/// MTurk shows a task before it is accepted with `assignmentId=ASSIGNMENT_ID_NOT_AVAILABLE`:
/// the page then shows the welcome page only, and records nothing.
pub fn mturk_preview(assignment_id: Option<&str>) -> bool {
    assignment_id == Some("ASSIGNMENT_ID_NOT_AVAILABLE")
}

/// Where an MTurk external question posts the finished assignment: `turkSubmitTo` (from the
/// link) and `/mturk/externalSubmit`, for MTurk's own two hosts only (the live site and the
/// worker sandbox); `None` for anything else, so that a link cannot send the page elsewhere.
pub fn mturk_submit_url(turk_submit_to: &str) -> Option<String> {
    let origin = turk_submit_to.trim_end_matches('/');
    matches!(
        origin,
        "https://www.mturk.com" | "https://workersandbox.mturk.com"
    )
    .then(|| format!("{origin}/mturk/externalSubmit"))
}

/// [`slot_links`] with a platform's placeholders for the participant's id added, so that the
/// platform fills them in: each participant keeps the slot of their link (the balance) and is
/// recorded under their platform id (for payment).
pub fn platform_links(
    study: &Study,
    base_url: &str,
    study_path: &str,
    platform: Option<Platform>,
) -> Vec<(u32, String)> {
    let extra = platform.map_or("", Platform::placeholders);
    slot_links(study, base_url, study_path)
        .into_iter()
        .map(|(slot, url)| (slot, format!("{url}{extra}")))
        .collect()
}
