//! Who the annotator is and how they arrived: the slot and id a link names ([`Annotator`],
//! [`resolve_annotator`]), the recruitment platform's parameters kept for payment
//! ([`PlatformVisit`], [`platform_visit`], MTurk's preview and submit address), and the links a
//! researcher hands out, one per slot, with a platform's placeholders ([`slot_links`],
//! [`platform_links`]), and the parameters a link may have ([`LINK_PARAMETERS`]): a misspelt
//! one is named with the nearest known name ([`unknown_parameters`], [`broken_link`]).
//! Separate from planning: a plan needs only the slot.

use serde::Serialize;

use super::{period, slots};
use crate::base::rng;
use crate::base::url::percent_encode;
use crate::study::{Problem, Study, participant_code};

/// Who is annotating: a slot (1-based), and the id they came with, if any.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
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
    Debug, Clone, Default, PartialEq, Eq, PartialOrd, Ord, Serialize, schemars::JsonSchema,
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
    resolve(slots(study), period(study), slot, id)
}

/// [`resolve_annotator`] for a study of `slots` slots (`None`: unbounded) and counterbalancing
/// `period` ([`crate::front::cover::Cover`] carries both).
///
/// # Errors
/// As [`resolve_annotator`].
pub fn resolve(
    slots: Option<u32>,
    period: u32,
    slot: Option<&str>,
    id: Option<&str>,
) -> Result<Annotator, Problem> {
    let id = id.map(participant_code).filter(|s| !s.is_empty());
    let range = match slots {
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
            if let Some(max) = slots
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
                let modulus = u64::from(slots.unwrap_or(period).max(1));
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

    /// What a study recruited on this platform lacks that its participants need to be paid,
    /// said with what to add; `None` when nothing is missing. Prolific pays on a completion code
    /// (shown, or sent back in `redirect`): without either, a participant who finishes has no
    /// way back.
    pub fn missing(self, study: &Study) -> Option<&'static str> {
        let completion = study.completion();
        let no_code = completion.is_none_or(|c| c.code.is_none() && c.redirect.is_none());
        (self == Platform::Prolific && no_code).then_some(
            "the study has no completion code: Prolific participants who finish get no code and \
             no way back to Prolific, so they cannot be paid. Add \"completion\": {\"code\": \
             \"…\", \"redirect\": \"https://app.prolific.com/submissions/complete?cc={code}\"} \
             with your study's code from Prolific (docs/hosting.md, \"Recruiting on a platform\")",
        )
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

/// Every query parameter the annotator's page reads: the study and slot, the preview, the old
/// address of the Analyse page, and the platforms' ids ([`ID_PARAMETERS`]) and other parameters
/// ([`platform_visit`], MTurk's `turkSubmitTo`).
pub const LINK_PARAMETERS: [&str; 13] = [
    "study",
    "slot",
    "annotator",
    "preview",
    "analyse",
    "PROLIFIC_PID",
    "STUDY_ID",
    "SESSION_ID",
    "workerId",
    "assignmentId",
    "hitId",
    "turkSubmitTo",
    "id",
];

/// A parameter of a link that the page does not read, with the known name it is nearest to
/// (at most two edits away, ignoring case), if any.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownParameter {
    /// The name as the link has it.
    pub name: String,
    /// The known name it was probably meant to be.
    pub nearest: Option<&'static str>,
}

/// The parameters among `names` (a link's query parameter names, in order) that are not in
/// [`LINK_PARAMETERS`], each once, with the nearest known name: the fewest insertions,
/// deletions, substitutions and swaps of two neighbouring letters, ignoring case, at most two
/// and fewer than the name's length (`sutdy` → `study`, `Slot` → `slot`).
pub fn unknown_parameters<'a>(names: impl IntoIterator<Item = &'a str>) -> Vec<UnknownParameter> {
    let mut out: Vec<UnknownParameter> = Vec::new();
    for name in names {
        if LINK_PARAMETERS.contains(&name) || out.iter().any(|u| u.name == name) {
            continue;
        }
        // The known names are ASCII: ASCII case is all there is to ignore.
        let lower = name.to_ascii_lowercase();
        let nearest = LINK_PARAMETERS
            .iter()
            .map(|known| (edit_distance(&lower, &known.to_ascii_lowercase()), *known))
            .filter(|&(d, _)| d <= 2 && d < lower.chars().count())
            .min_by_key(|&(d, _)| d)
            .map(|(_, known)| known);
        out.push(UnknownParameter {
            name: name.to_owned(),
            nearest,
        });
    }
    out
}

/// The page's sentence for a link with parameters it does not know, or `None` when `unknown` is
/// empty: "The link has a parameter Juror does not know: sutdy (did you mean study?). Ask the
/// researcher for the link again."
pub fn broken_link(unknown: &[UnknownParameter]) -> Option<String> {
    let names: Vec<String> = unknown
        .iter()
        .map(|u| match u.nearest {
            Some(known) => format!("{} (did you mean {known}?)", u.name),
            None => u.name.clone(),
        })
        .collect();
    let what = match names.len() {
        0 => return None,
        1 => "a parameter",
        _ => "parameters",
    };
    Some(format!(
        "The link has {what} Juror does not know: {}. Ask the researcher for the link again.",
        names.join(", ")
    ))
}

/// The optimal string alignment distance between `a` and `b`: insertions, deletions,
/// substitutions and swaps of two neighbouring characters, each counting one.
fn edit_distance(a: &str, b: &str) -> usize {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    d[0] = (0..=b.len()).collect();
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut best = (d[i - 1][j] + 1)
                .min(d[i][j - 1] + 1)
                .min(d[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(d[i - 2][j - 2] + 1);
            }
            d[i][j] = best;
        }
    }
    d[a.len()][b.len()]
}

#[cfg(test)]
mod tests {
    use super::{
        LINK_PARAMETERS, UnknownParameter, broken_link, edit_distance, unknown_parameters,
    };

    #[test]
    fn a_misspelt_parameter_is_named_with_the_nearest_known_one() {
        let unknown = unknown_parameters(["sutdy", "slot"]);
        assert_eq!(
            unknown,
            [UnknownParameter {
                name: "sutdy".to_owned(),
                nearest: Some("study")
            }]
        );
        assert_eq!(
            broken_link(&unknown).as_deref(),
            Some(
                "The link has a parameter Juror does not know: sutdy (did you mean study?). \
                 Ask the researcher for the link again."
            )
        );
        let nearest = |name: &str| unknown_parameters([name])[0].nearest;
        assert_eq!(nearest("Slot"), Some("slot"));
        assert_eq!(nearest("prolific_pid"), Some("PROLIFIC_PID"));
        assert_eq!(nearest("annotater"), Some("annotator"));
        assert_eq!(nearest("prevew"), Some("preview"));
        assert_eq!(nearest("utm_source"), None);
        assert_eq!(nearest("x"), None, "one letter is no evidence of a typo");
    }

    #[test]
    fn a_link_with_only_known_parameters_is_not_broken() {
        assert_eq!(unknown_parameters(LINK_PARAMETERS), []);
        assert_eq!(broken_link(&[]), None);
        let two = unknown_parameters(["stdy", "stdy", "fbclid"]);
        assert_eq!(two.len(), 2, "each unknown name once");
        assert_eq!(
            broken_link(&two).as_deref(),
            Some(
                "The link has parameters Juror does not know: stdy (did you mean study?), \
                 fbclid. Ask the researcher for the link again."
            )
        );
    }

    #[test]
    fn edits_are_counted_one_each() {
        assert_eq!(edit_distance("sutdy", "study"), 1);
        assert_eq!(edit_distance("", "id"), 2);
        assert_eq!(edit_distance("slto", "slot"), 1);
        assert_eq!(edit_distance("kitten", "sitting"), 3);
    }
}
