//! What `juror publish` checks before it writes anything, as values: a study already sealed,
//! text that names a system, a fail code that can never apply, two studies under one file
//! name, a key already where this one's would go, media outside the study's folder or missing,
//! and how many slots' plans to publish; and what keeps a study file from being one `juror
//! publish` wrote ([`not_published`]). The caller reads the file system and passes what it
//! found; nothing here touches it.

use std::path::{Component, Path};

use super::{is_sealed, mentions};
use crate::study::raw::{RawAnnotatorRef, RawStudy};
use crate::study::{Study, participant_code};

/// The folder of the site that published studies and their media go to.
pub const SITE_FOLDER: &str = "studies";

/// One study given to `juror publish`, with what the caller found on the file system.
#[derive(Debug, Clone, Copy)]
pub struct Candidate<'a> {
    /// The study as written (valid).
    pub raw: &'a RawStudy,
    /// The study file's name, which it is published under.
    pub file_name: &'a str,
    /// The file names of the studies given before it in the same run.
    pub earlier: &'a [&'a str],
    /// Whether a file is already where this study's key would be written ([`key_file_name`]).
    pub key_exists: bool,
    /// Whether the site already serves a study under this file name (`SITE/studies/NAME`).
    pub served: bool,
    /// Replace the study the site serves (`--replace`): a warning of what that does instead of
    /// a refusal.
    pub replace: bool,
    /// The media sources inside the study's folder (as [`media`] lists them) that are not files.
    pub missing: &'a [String],
    /// Publish even where the study's text names a system (a warning instead of a refusal).
    pub allow_named: bool,
    /// The annotators listed with `--annotators` (ids as they come), each to get a plan of
    /// their own.
    pub annotators: &'a [String],
}

/// One thing `juror publish` found about a study, in the order it checks them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Problem {
    /// Its systems are tokens already: the original must be published, so that the key is
    /// written. Nothing else is checked for this study.
    AlreadySealed,
    /// Text at the JSON path `at` names `system` as a whole word: sealing cannot hide that.
    /// A warning when `allowed`.
    NamesSystem {
        at: String,
        system: String,
        allowed: bool,
    },
    /// A study given earlier has the same file name: they would overwrite each other.
    SameFileName,
    /// A key is already there: overwriting it would lose the way to unblind the ratings of the
    /// study published with it. Nothing more can be done (exit 2).
    KeyExists,
    /// The site already serves a study under this file name: annotators part-way through work
    /// from it, and the ratings files already returned were made with it. Replacing it sends
    /// them back to the welcome page and ratings of the two versions cannot share a report: a
    /// refusal unless `replace`, then a warning.
    AlreadyServed { replace: bool },
    /// The media of `owner` (`item "ID"` or `worked example N`) leaves the study's folder.
    MediaOutside { owner: String, src: String },
    /// The media of `owner` is not there.
    MediaMissing { owner: String, src: String },
    /// `completion.fail_code` is set: the published study keeps its attention checks in the
    /// key, so the page can never know who failed one, and the code would never be given.
    FailCodeNeverApplies { fail_code: String },
    /// Items are for these annotator ids (`items[].for`), which `--annotators` does not list:
    /// published plans are computed per slot, so their items would never be shown.
    PersonalUnlisted { ids: Vec<String> },
    /// These ids of `--annotators` have no item `for` them: they get no plan of their own and
    /// do a slot's plan like anyone (a warning: a typo, or an annotator with nothing personal).
    ListedWithoutItems { ids: Vec<String> },
    /// Personal items carry a context, which the published study (public to anyone with its
    /// address) serves to every annotator: a warning, so that nothing identifying goes there.
    PersonalContext { items: usize },
    /// A personal item's id, prompt, context or output (at `at`) contains the id of an
    /// annotator it is for, which the published study would then show to anyone (a warning:
    /// lab codes such as `p01` identify no one; a platform's id does).
    NamesParticipant { at: String },
}

/// How much a [`Problem`] stops.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Severity {
    /// Said, and the study is published anyway.
    Warning,
    /// Nothing is published, but the other studies are still checked.
    Refusal,
    /// Nothing is published and nothing more is checked.
    Stop,
}

impl Problem {
    /// How much this problem stops.
    pub fn severity(&self) -> Severity {
        match self {
            Problem::NamesSystem { allowed: true, .. }
            | Problem::ListedWithoutItems { .. }
            | Problem::PersonalContext { .. }
            | Problem::NamesParticipant { .. }
            | Problem::AlreadyServed { replace: true } => Severity::Warning,
            Problem::KeyExists => Severity::Stop,
            _ => Severity::Refusal,
        }
    }
}

/// What the published study would show of the annotators personal items are for: a warning
/// for contexts, and one per place that contains an annotator's id (compared without regard to
/// case or spaces, as ids are kept).
fn personal_text(raw: &RawStudy) -> Vec<Problem> {
    let mut with_context = 0;
    let mut out = Vec::new();
    for (i, item) in raw.items.iter().enumerate() {
        let ids: Vec<String> = item
            .for_annotators
            .iter()
            .filter_map(|a| match a {
                RawAnnotatorRef::Id(id) => Some(participant_code(id)),
                RawAnnotatorRef::Slot(_) => None,
            })
            .filter(|id| !id.is_empty())
            .collect();
        if ids.is_empty() {
            continue;
        }
        with_context += usize::from(item.context.is_some());
        let mut texts: Vec<(String, &str)> = vec![
            (format!("items[{i}].id"), item.id.as_str()),
            (format!("items[{i}].prompt"), item.prompt.as_str()),
        ];
        if let Some(context) = &item.context {
            texts.push((format!("items[{i}].context"), context));
        }
        for (system, output) in &item.outputs {
            texts.push((format!("items[{i}].outputs.{system}"), output));
        }
        for (at, text) in texts {
            let text = participant_code(text);
            if ids.iter().any(|id| text.contains(id.as_str())) {
                out.push(Problem::NamesParticipant { at });
            }
        }
    }
    if with_context > 0 {
        out.insert(
            0,
            Problem::PersonalContext {
                items: with_context,
            },
        );
    }
    out
}

/// Every problem of `study`, in the order `juror publish` reports them (up to the first
/// [`Severity::Stop`]).
pub fn check(study: &Candidate) -> Vec<Problem> {
    let raw = study.raw;
    if is_sealed(&raw.systems) {
        return vec![Problem::AlreadySealed];
    }
    let mut problems: Vec<Problem> = mentions(raw)
        .into_iter()
        .map(|(at, system)| Problem::NamesSystem {
            at,
            system,
            allowed: study.allow_named,
        })
        .collect();
    if let Some(fail_code) = raw.completion.as_ref().and_then(|c| c.fail_code.clone()) {
        problems.push(Problem::FailCodeNeverApplies { fail_code });
    }
    let listed: std::collections::BTreeSet<String> = study
        .annotators
        .iter()
        .map(|a| participant_code(a))
        .collect();
    let mut unlisted: Vec<String> = Vec::new();
    for item in &raw.items {
        for a in &item.for_annotators {
            if let RawAnnotatorRef::Id(id) = a
                && !listed.contains(&participant_code(id))
                && !unlisted.contains(id)
            {
                unlisted.push(id.clone());
            }
        }
    }
    if !unlisted.is_empty() {
        problems.push(Problem::PersonalUnlisted { ids: unlisted });
    }
    let without: Vec<String> = study
        .annotators
        .iter()
        .filter(|a| !super::has_personal_items(raw, a))
        .cloned()
        .collect();
    if !without.is_empty() {
        problems.push(Problem::ListedWithoutItems { ids: without });
    }
    problems.extend(personal_text(raw));
    if study.earlier.contains(&study.file_name) {
        problems.push(Problem::SameFileName);
    }
    if study.served {
        problems.push(Problem::AlreadyServed {
            replace: study.replace,
        });
    }
    if study.key_exists {
        problems.push(Problem::KeyExists);
        return problems;
    }
    for Media { owner, src } in media(raw) {
        if !inside_folder(&src) {
            problems.push(Problem::MediaOutside { owner, src });
        } else if study.missing.contains(&src) {
            problems.push(Problem::MediaMissing { owner, src });
        }
    }
    problems
}

/// Why a study file is not what `juror publish` writes, so that a site must not serve it:
/// what `juror validate --published` and `scripts/check-published-studies` refuse.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NotPublished {
    /// No `design.plans`: annotators would be planned from the study as written.
    NoPlans,
    /// These systems are named rather than tokens (a system id put back, or never sealed).
    NamedSystems(Vec<String>),
    /// `design.attention_checks` is there: their accepted answers belong in the key.
    AttentionChecks,
    /// An `analysis` section is there: the analysis plan names systems and belongs in the key.
    Analysis,
    /// A `metadata` section is there: the researcher's notes may name systems and belong in
    /// the key.
    Metadata,
    /// The output token `token` is used by two items (`items[first]` and `items[second]`,
    /// indices): one system could be followed from item to item.
    SharedToken {
        token: String,
        first: usize,
        second: usize,
    },
}

/// Everything that keeps `raw` from being a study as `juror publish` writes it, blind by
/// construction: plans computed, every system a token, no attention checks and no analysis
/// section (both in the key), and each item's outputs under tokens of their own. Empty for a
/// published study.
pub fn not_published(raw: &RawStudy) -> Vec<NotPublished> {
    let served = [
        (
            !raw.design.attention_checks.is_empty(),
            NotPublished::AttentionChecks,
        ),
        (raw.analysis.is_some(), NotPublished::Analysis),
        (raw.metadata.is_some(), NotPublished::Metadata),
    ];
    not_blind(
        raw.design.plans.is_some(),
        &raw.systems,
        served,
        raw.items.iter().map(|i| i.outputs.keys()),
    )
}

/// [`not_published`] of a compiled study's model (`juror validate --published` on what a
/// site's build compiled): the same checks, in the same order. A compiled study never carries
/// the analysis plan or the metadata section.
pub fn compiled_not_published(study: &Study) -> Vec<NotPublished> {
    let d = &study.design;
    let served = [(
        !d.attention_checks.is_empty(),
        NotPublished::AttentionChecks,
    )];
    not_blind(
        d.plans.is_some(),
        &study.systems,
        served,
        study.items.iter().map(|i| i.outputs.keys()),
    )
}

/// What [`not_published`] finds, from the study's parts: whether it has plans, its systems,
/// what it serves that belongs in the key (each with whether it is there), and each item's
/// output tokens.
fn not_blind<'a, K: Iterator<Item = &'a String>, const N: usize>(
    plans: bool,
    systems: &[String],
    served: [(bool, NotPublished); N],
    items: impl Iterator<Item = K>,
) -> Vec<NotPublished> {
    let mut found = Vec::new();
    if !plans {
        found.push(NotPublished::NoPlans);
    }
    let named: Vec<String> = systems
        .iter()
        .filter(|s| !is_sealed(std::slice::from_ref(*s)))
        .cloned()
        .collect();
    if !named.is_empty() {
        found.push(NotPublished::NamedSystems(named));
    }
    found.extend(
        served
            .into_iter()
            .filter(|(there, _)| *there)
            .map(|(_, why)| why),
    );
    let mut owner: std::collections::BTreeMap<&str, usize> = std::collections::BTreeMap::new();
    for (i, tokens) in items.enumerate() {
        for token in tokens {
            match owner.get(token.as_str()) {
                Some(&first) if first != i => {
                    found.push(NotPublished::SharedToken {
                        token: token.clone(),
                        first,
                        second: i,
                    });
                }
                Some(_) => {}
                None => {
                    owner.insert(token, i);
                }
            }
        }
    }
    found
}

/// One reference to a media file in a study.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Media {
    /// `item "ID"` or `worked example N` (from 1).
    pub owner: String,
    /// The path as the study gives it, relative to the study's folder.
    pub src: String,
}

/// Every media reference of `raw`: the items' first, then the worked examples'.
pub fn media(raw: &RawStudy) -> Vec<Media> {
    let items = raw.items.iter().filter_map(|i| {
        let m = i.media.as_ref()?;
        Some((format!("item \"{}\"", i.id), m))
    });
    let examples = raw.rubric.examples.iter().enumerate().filter_map(|(k, e)| {
        let m = e.media.as_ref()?;
        Some((format!("worked example {}", k + 1), m))
    });
    items
        .chain(examples)
        .map(|(owner, m)| Media {
            owner,
            src: m.src.clone(),
        })
        .collect()
}

/// Each media file of `raw` once, in the order first referenced: what is copied next to the
/// published study.
pub fn media_files(raw: &RawStudy) -> Vec<String> {
    let mut files: Vec<String> = Vec::new();
    for Media { src, .. } in media(raw) {
        if !files.contains(&src) {
            files.push(src);
        }
    }
    files
}

/// Whether `src` stays inside the study's folder: only plain names, no root, no `.` or `..`,
/// so that it can be copied under [`SITE_FOLDER`] at the same relative path.
pub fn inside_folder(src: &str) -> bool {
    Path::new(src)
        .components()
        .all(|c| matches!(c, Component::Normal(_)))
}

/// Why the number of slots asked for cannot be used.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SlotsProblem {
    /// The study's assignment fixes `fixed` slots, and another number was asked for.
    Conflict { asked: u32, fixed: u32 },
    /// Zero slots were asked for.
    Zero,
}

/// How many slots' plans to publish for `study`: the slots its assignment fixes, else the
/// number `asked`, else [`default_slots`] of its counterbalancing period.
pub fn slots(study: &Study, asked: Option<u32>) -> Result<u32, SlotsProblem> {
    match (crate::plan::slots(study), asked) {
        (Some(fixed), Some(asked)) if fixed != asked => {
            Err(SlotsProblem::Conflict { asked, fixed })
        }
        (Some(fixed), _) => Ok(fixed),
        (None, Some(0)) => Err(SlotsProblem::Zero),
        (None, Some(asked)) => Ok(asked),
        (None, None) => Ok(default_slots(crate::plan::period(study))),
    }
}

/// One counterbalancing period at least, and enough plans (12 or more, a whole number of
/// periods) that annotators met by id are spread over varied orders: `period × ⌈12 / period⌉`.
pub fn default_slots(period: u32) -> u32 {
    period.max(1) * 12u32.div_ceil(period.max(1))
}

/// The key file of a study published as `file_name`: `STEM.key.json`.
pub fn key_file_name(file_name: &str) -> String {
    format!("{}.key.json", file_name.trim_end_matches(".json"))
}

/// Where a study published as `file_name` is on the site: `studies/FILE_NAME`.
pub fn site_path(file_name: &str) -> String {
    format!("{SITE_FOLDER}/{file_name}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::study::validate;

    /// An example study of `assets/studies/`, as written.
    fn example(name: &str) -> RawStudy {
        let path = format!(
            "{}/../../assets/studies/{name}.json",
            env!("CARGO_MANIFEST_DIR")
        );
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}"))
    }

    fn candidate<'a>(raw: &'a RawStudy, earlier: &'a [&'a str]) -> Candidate<'a> {
        Candidate {
            raw,
            file_name: "video-trajectories.json",
            earlier,
            key_exists: false,
            served: false,
            replace: false,
            missing: &[],
            allow_named: false,
            annotators: &[],
        }
    }

    #[test]
    fn the_default_is_the_fewest_whole_periods_that_make_12_or_more() {
        let defaults: Vec<u32> = [2, 3, 4, 5, 6, 7, 10, 12, 14]
            .into_iter()
            .map(default_slots)
            .collect();
        assert_eq!(defaults, [12, 12, 12, 15, 12, 14, 20, 12, 14]);
    }

    #[test]
    fn an_assignment_fixes_the_slots_and_otherwise_the_flag_or_the_default_does() {
        let fixed = validate(&example("video-trajectories")).unwrap_or_else(|p| panic!("{p}"));
        assert_eq!(slots(&fixed, None), Ok(3));
        assert_eq!(slots(&fixed, Some(3)), Ok(3));
        assert_eq!(
            slots(&fixed, Some(4)),
            Err(SlotsProblem::Conflict { asked: 4, fixed: 3 })
        );
        // Two systems: a counterbalancing period of 2, so 12 slots.
        let free = validate(&example("financial-analysis")).unwrap_or_else(|p| panic!("{p}"));
        assert_eq!(slots(&free, None), Ok(12));
        assert_eq!(slots(&free, Some(5)), Ok(5));
        assert_eq!(slots(&free, Some(0)), Err(SlotsProblem::Zero));
    }

    #[test]
    fn media_must_stay_inside_the_studys_folder() {
        assert!(inside_folder("media/clip.webm"));
        assert!(inside_folder("clip.webm"));
        for outside in [
            "../clip.webm",
            "media/../../clip.webm",
            "/srv/clip.webm",
            "./clip.webm",
        ] {
            assert!(!inside_folder(outside), "{outside}");
        }
    }

    #[test]
    fn each_media_file_is_listed_once_with_every_owner_checked() {
        let mut raw = example("video-trajectories");
        assert_eq!(
            media_files(&raw),
            ["media/bounce.webm", "media/crossing.webm"]
        );
        assert_eq!(check(&candidate(&raw, &[])), []);

        let missing = ["media/bounce.webm".to_owned()];
        let problems = check(&Candidate {
            missing: &missing,
            ..candidate(&raw, &[])
        });
        let owners: Vec<&str> = problems
            .iter()
            .map(|p| match p {
                Problem::MediaMissing { owner, .. } => owner.as_str(),
                other => panic!("{other:?}"),
            })
            .collect();
        assert_eq!(owners, ["item \"bounce\"", "item \"check-colour\""]);

        if let Some(m) = raw.items[1].media.as_mut() {
            m.src = "../crossing.webm".into();
        }
        assert_eq!(
            check(&candidate(&raw, &[])),
            [Problem::MediaOutside {
                owner: "item \"crossing\"".into(),
                src: "../crossing.webm".into()
            }]
        );
    }

    #[test]
    fn problems_come_in_order_and_a_key_already_there_stops_the_rest() {
        let mut raw = example("video-trajectories");
        raw.title = format!("{} against rft-base", raw.title);
        if let Some(m) = raw.items[1].media.as_mut() {
            m.src = "/srv/crossing.webm".into();
        }
        let named = Problem::NamesSystem {
            at: "title".into(),
            system: "rft-base".into(),
            allowed: false,
        };
        let outside = Problem::MediaOutside {
            owner: "item \"crossing\"".into(),
            src: "/srv/crossing.webm".into(),
        };
        let earlier = ["video-trajectories.json"];
        assert_eq!(
            check(&candidate(&raw, &earlier)),
            [named.clone(), Problem::SameFileName, outside]
        );
        let stopped = check(&Candidate {
            key_exists: true,
            served: false,
            replace: false,
            ..candidate(&raw, &[])
        });
        assert_eq!(stopped, [named.clone(), Problem::KeyExists]);
        assert_eq!(stopped[1].severity(), Severity::Stop);
        assert_eq!(stopped[0].severity(), Severity::Refusal);

        // A study the site already serves is refused, unless replaced on purpose (then said).
        let served = check(&Candidate {
            served: true,
            ..candidate(&raw, &[])
        });
        let refused = Problem::AlreadyServed { replace: false };
        assert!(served.contains(&refused), "{served:?}");
        assert_eq!(refused.severity(), Severity::Refusal);
        let replaced = check(&Candidate {
            served: true,
            replace: true,
            ..candidate(&raw, &[])
        });
        let warned = Problem::AlreadyServed { replace: true };
        assert!(replaced.contains(&warned), "{replaced:?}");
        assert_eq!(warned.severity(), Severity::Warning);

        let allowed = check(&Candidate {
            allow_named: true,
            ..candidate(&raw, &[])
        });
        assert_eq!(allowed[0].severity(), Severity::Warning);
    }

    #[test]
    fn personal_items_warn_of_their_context_and_of_any_id_they_contain() {
        let raw = example("personal-items");
        let annotators = ["p01".to_owned(), "p02".to_owned(), "p03".to_owned()];
        let problems = check(&Candidate {
            annotators: &annotators,
            ..candidate(&raw, &[])
        });
        assert_eq!(problems[0], Problem::PersonalContext { items: 6 });
        // The example's item ids name their lab codes (`p01-r1`): each said, as a warning.
        let named: Vec<&str> = problems
            .iter()
            .filter_map(|p| match p {
                Problem::NamesParticipant { at } => Some(at.as_str()),
                _ => None,
            })
            .collect();
        assert_eq!(named.len(), 6, "{named:?}");
        assert!(named.iter().all(|at| at.ends_with("].id")), "{named:?}");
        assert!(problems.iter().all(|p| p.severity() == Severity::Warning));
        // A platform id in a context, in any case, is found.
        let mut with_pid = raw.clone();
        with_pid.items[1].for_annotators = vec![RawAnnotatorRef::Id("60F1A2B3".into())];
        with_pid.items[1].context = Some("Participant 60f1a2b3 said: testing".into());
        let problems = check(&candidate(&with_pid, &[]));
        assert!(problems.contains(&Problem::NamesParticipant {
            at: "items[1].context".into()
        }));
        // A study without personal items has neither.
        let none = check(&candidate(&example("video-trajectories"), &[]));
        assert!(!none.iter().any(|p| matches!(
            p,
            Problem::PersonalContext { .. } | Problem::NamesParticipant { .. }
        )));
    }

    #[test]
    fn a_sealed_study_is_refused_and_nothing_else_is_checked() {
        let raw = example("video-trajectories");
        let (sealed, _) = super::super::seal(&raw, &[5; 32]);
        let key_there = Candidate {
            key_exists: true,
            served: false,
            replace: false,
            ..candidate(&sealed, &["video-trajectories.json"])
        };
        assert_eq!(check(&key_there), [Problem::AlreadySealed]);
    }

    #[test]
    fn a_fail_code_is_refused_since_the_page_never_scores_a_published_studys_checks() {
        let mut raw = example("video-trajectories");
        raw.completion = Some(crate::study::raw::RawCompletion {
            code: Some("PASS1".into()),
            fail_code: Some("FAIL9".into()),
            redirect: None,
            screened_code: None,
        });
        let problems = check(&candidate(&raw, &[]));
        let fail = Problem::FailCodeNeverApplies {
            fail_code: "FAIL9".into(),
        };
        assert_eq!(problems, [fail]);
        assert_eq!(problems[0].severity(), Severity::Refusal);
        if let Some(c) = raw.completion.as_mut() {
            c.fail_code = None;
        }
        assert_eq!(check(&candidate(&raw, &[])), []);
    }

    /// What `juror publish` writes passes; each thing sealing guarantees, undone, is named.
    #[test]
    fn a_published_study_passes_and_anything_put_back_is_named() {
        let raw = example("video-trajectories");
        let study = validate(&raw).unwrap_or_else(|p| panic!("{p}"));
        let (published, _) = super::super::publish(&raw, &study, &[7; 32], 3, &[]);
        assert_eq!(not_published(&published), []);

        let as_written = not_published(&raw);
        assert_eq!(as_written[0], NotPublished::NoPlans);
        assert_eq!(
            as_written[1],
            NotPublished::NamedSystems(vec!["rft-base".into(), "rft-full".into()])
        );
        assert!(as_written.contains(&NotPublished::AttentionChecks));
        assert!(as_written.contains(&NotPublished::Analysis));
        // A compiled study's model is held to the same checks (it never has an analysis plan).
        let model = validate(&published).unwrap_or_else(|p| panic!("{p}"));
        assert_eq!(compiled_not_published(&model), []);
        let mut without = as_written.clone();
        without.retain(|why| *why != NotPublished::Analysis);
        assert_eq!(compiled_not_published(&study), without);

        // A system id put back in place of one item's token.
        let mut back = published.clone();
        let token = back.items[0]
            .outputs
            .keys()
            .next()
            .cloned()
            .unwrap_or_default();
        let output = back.items[0].outputs.remove(&token).unwrap_or_default();
        back.items[0].outputs.insert("rft-base".into(), output);
        back.systems.retain(|s| *s != token);
        back.systems.push("rft-base".into());
        assert_eq!(
            not_published(&back),
            [NotPublished::NamedSystems(vec!["rft-base".into()])]
        );

        // One token over two items; the checks and the analysis plan left in.
        let mut shared = published.clone();
        let token = shared.items[0]
            .outputs
            .keys()
            .next()
            .cloned()
            .unwrap_or_default();
        let other = shared.items[2]
            .outputs
            .keys()
            .next()
            .cloned()
            .unwrap_or_default();
        let output = shared.items[2].outputs.remove(&other).unwrap_or_default();
        shared.items[2].outputs.insert(token.clone(), output);
        shared.design.attention_checks = raw.design.attention_checks.clone();
        shared.analysis = raw.analysis.clone();
        assert_eq!(
            not_published(&shared),
            [
                NotPublished::AttentionChecks,
                NotPublished::Analysis,
                NotPublished::SharedToken {
                    token,
                    first: 0,
                    second: 2
                }
            ]
        );
    }

    #[test]
    fn a_study_is_served_and_keyed_by_its_file_name() {
        assert_eq!(
            key_file_name("hare-personalization.json"),
            "hare-personalization.key.json"
        );
        assert_eq!(
            site_path("hare-personalization.json"),
            "studies/hare-personalization.json"
        );
    }
}
