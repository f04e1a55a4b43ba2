//! The cover of a study: what its welcome page shows and what finding out who the annotator
//! is needs, and nothing else. A compiled study carries it beside the study
//! ([`crate::front::compiled`]), so that the annotator's page can show the welcome page after
//! reading a few fields, and read the whole study (items, rubric, plans) while the annotator
//! reads that page. The researcher's page and the session make it from the study with
//! [`Cover::of`], so every page shows the same.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::base::json::{Read, Value, count, fields, index, list, map, string, whole};
use crate::base::rich::Text;
use crate::plan::{Annotator, period, resolve, slots};
use crate::study::{Problem, Study, participant_code, personal_key};

/// What the welcome page and the link's annotator need of a study.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Cover {
    /// The study's title.
    pub title: String,
    /// Its description, as the study has it (rendered, in a compiled study).
    pub description: Option<Text>,
    /// Who to ask.
    pub contact: Option<String>,
    /// The researcher's estimate of the whole study's minutes (the study's own, else its tasks'
    /// and surveys' added up: `Study::estimated_minutes`).
    pub estimated_minutes: Option<u32>,
    /// Whether consent is asked before anything is recorded.
    pub consent: bool,
    /// The host finished answers are sent to, when the study names a service.
    pub submit_host: Option<String>,
    /// Whether answers also go there as backups while the annotator works.
    pub submit_backups: bool,
    /// Trials per annotator when every item goes to everyone (slot 1's, when published).
    pub trials: usize,
    /// The study's slots, `None` when unbounded ([`crate::plan::slots`]).
    pub slots: Option<u32>,
    /// One counterbalancing period ([`crate::plan::period`]): the slots an id is hashed into
    /// when the study fixes none.
    pub period: u32,
    /// The length of each published plan, by slot (empty when the study publishes none).
    pub plans: Vec<usize>,
    /// The length of each personal plan, by its key in the study's `personal_plans`
    /// ([`personal_key`], or the participant code in a study published before keys).
    pub personal: BTreeMap<String, usize>,
    /// What personal plans' keys are made with, the study's id: present only when the study
    /// has personal plans (so that every other cover is as before).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub personal_salt: Option<String>,
}

impl Cover {
    /// The cover of `study`.
    pub fn of(study: &Study) -> Cover {
        let design = study.design();
        let submit = study.submit();
        Cover {
            title: study.title().to_owned(),
            description: study.description().cloned(),
            contact: study.contact().map(ToOwned::to_owned),
            estimated_minutes: study.estimated_minutes(),
            consent: study.consent().is_some(),
            submit_host: submit.map(|s| host(&s.url).to_owned()),
            submit_backups: submit.is_some_and(|s| s.backups),
            trials: study.trials_per_annotator(),
            slots: slots(study),
            period: period(study),
            plans: design.plans.iter().flatten().map(Vec::len).collect(),
            personal: design
                .personal_plans
                .iter()
                .map(|(code, plan)| (code.clone(), plan.len()))
                .collect(),
            personal_salt: (!design.personal_plans.is_empty()).then(|| study.id().to_owned()),
        }
    }

    /// How many trials `annotator` does: their published plan's (a personal one for their id
    /// first), else [`Cover::trials`], as the session's plan will have.
    pub fn trials_for(&self, annotator: &Annotator) -> usize {
        let personal = annotator.id.as_deref().and_then(|id| {
            let code = participant_code(id);
            let keyed = self
                .personal_salt
                .as_deref()
                .map(|s| personal_key(s, &code));
            keyed
                .and_then(|k| self.personal.get(&k))
                .or_else(|| self.personal.get(&code))
        });
        personal
            .copied()
            .unwrap_or_else(|| self.shared_trials_for(annotator))
    }

    /// How many trials `annotator` does in a study without personal plans: their slot's
    /// published plan's, else [`Cover::trials`] ([`Cover::trials_for`] without the personal
    /// plans, for the page's first module, which does not carry their hashing).
    pub fn shared_trials_for(&self, annotator: &Annotator) -> usize {
        let slot = annotator.slot.max(1) as usize;
        self.plans
            .get((slot - 1) % self.plans.len().max(1))
            .copied()
            .unwrap_or(self.trials)
    }

    /// The annotator a link's `slot` and id name ([`crate::plan::resolve_annotator`], from the
    /// cover alone).
    ///
    /// # Errors
    /// As [`crate::plan::resolve_annotator`].
    pub fn annotator(&self, slot: Option<&str>, id: Option<&str>) -> Result<Annotator, Problem> {
        resolve(self.slots, self.period, slot, id)
    }
}

/// The host of a service's URL (`https://host:443/path` → `host:443`).
pub fn host(url: &str) -> &str {
    url.split_once("://")
        .map_or(url, |(_, rest)| rest)
        .split(['/', '?', '#'])
        .next()
        .unwrap_or("")
}

/// A cover as its `Serialize` writes it (the compiled study's `cover`).
///
/// # Errors
/// The first thing found wrong, placed from the cover down.
pub fn read(value: &Value) -> Read<Cover> {
    let mut f = fields(value)?;
    let value = Cover {
        title: f.take("title", string),
        description: f.maybe("description", crate::base::rich::read_text),
        contact: f.maybe("contact", string),
        estimated_minutes: f.maybe("estimated_minutes", count),
        consent: f.take("consent", crate::base::json::boolean),
        submit_host: f.maybe("submit_host", string),
        submit_backups: f.take("submit_backups", crate::base::json::boolean),
        trials: f.take("trials", index),
        slots: f.maybe("slots", count),
        period: f.take("period", |v| {
            whole(v).map(|n| u32::try_from(n).unwrap_or(u32::MAX))
        }),
        plans: f.take("plans", |v| list(v, index)),
        personal: f.take("personal", |v| map(v, index)),
        personal_salt: f.maybe("personal_salt", string),
    };
    f.done(value)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::resolve_annotator;

    fn study(name: &str) -> Study {
        let path = format!(
            "{}/../../assets/studies/{name}.json",
            env!("CARGO_MANIFEST_DIR")
        );
        let text = std::fs::read_to_string(path).unwrap_or_default();
        crate::study::parse_study(&text).unwrap_or_else(|p| panic!("{p}"))
    }

    #[test]
    fn a_cover_reads_back_as_written() {
        for name in [
            "pandalm",
            "financial-analysis",
            "personal-items",
            "work-intake",
        ] {
            let cover = Cover::of(&study(name));
            let text = serde_json::to_string(&cover).unwrap_or_default();
            let value: Value = serde_json::from_str(&text).unwrap_or(Value::Null);
            assert_eq!(read(&value).ok(), Some(cover), "{name}");
        }
    }

    #[test]
    fn the_cover_finds_the_annotator_and_their_trials_as_the_study_does() {
        for name in [
            "pandalm",
            "financial-analysis",
            "personal-items",
            "two-domains",
        ] {
            let study = study(name);
            let cover = Cover::of(&study);
            for (slot, id) in [
                (Some("1"), None),
                (Some("3"), None),
                (Some("0"), None),
                (Some("x"), None),
                (Some("999"), None),
                (None, Some("P-01")),
                (None, Some("someone")),
                (None, None),
            ] {
                let ours = cover.annotator(slot, id);
                assert_eq!(
                    ours,
                    resolve_annotator(&study, slot, id),
                    "{name} {slot:?} {id:?}"
                );
                if let Ok(a) = ours {
                    let published = crate::plan::published(&study, &a)
                        .map_or_else(|| study.trials_per_annotator(), Vec::len);
                    assert_eq!(cover.trials_for(&a), published, "{name} {a:?}");
                }
            }
        }
    }

    #[test]
    fn the_cover_says_what_the_welcome_page_said() {
        for name in [
            "pandalm",
            "financial-analysis",
            "work-intake",
            "video-trajectories",
        ] {
            let study = study(name);
            let cover = Cover::of(&study);
            assert_eq!(cover.title, study.title(), "{name}");
            assert_eq!(cover.description.as_ref(), study.description(), "{name}");
            assert_eq!(cover.contact.as_deref(), study.contact(), "{name}");
            assert_eq!(cover.estimated_minutes, study.estimated_minutes(), "{name}");
            assert_eq!(cover.consent, study.consent().is_some(), "{name}");
            assert_eq!(cover.trials, study.trials_per_annotator(), "{name}");
        }
        // A study whose minutes are its tasks' added up says so on its cover too.
        let mut study = study("pandalm");
        study.estimated_minutes = None;
        study.design.tasks[0].estimated_minutes = Some(25);
        assert_eq!(Cover::of(&study).estimated_minutes, Some(25));
    }

    #[test]
    fn a_wrong_cover_is_placed() {
        let value: Value = serde_json::from_str(r#"{"title": 3}"#).unwrap_or(Value::Null);
        let wrong = read(&value).err().map(|e| e.place("cover"));
        assert_eq!(wrong.as_deref(), Some("cover.title"));
    }

    #[test]
    fn a_service_is_named_by_its_host() {
        assert_eq!(
            host("https://example.org:8443/juror?x=1"),
            "example.org:8443"
        );
        assert_eq!(host("example.org/path"), "example.org");
    }
}
