//! What a participant from a recruitment platform gets at the end: the completion code
//! (or the failing code, when an attention check the study scores was failed) and the address
//! back to the platform, shown only once the ratings file is saved.

use super::ratings::{PreferenceRecord, RatingsFile, TrialRecord};
use crate::study::{AttentionCheck, Study};

/// The end of the study for the platform.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Completion {
    /// The code to give the platform.
    pub code: Option<String>,
    /// The address back to the platform, with the code and the participant's id filled in.
    pub link: Option<String>,
}

/// The study's completion for this ratings file, if the study has one.
pub fn completion(study: &Study, file: &RatingsFile) -> Option<Completion> {
    let done = study.completion()?;
    let failed = file
        .trials
        .iter()
        .filter(|t| t.check && t.done)
        .any(|t| fails(study, t));
    let code = match (&done.fail_code, failed) {
        _ if file.phase == super::Phase::Screened => done.screened_code.clone(),
        (Some(fail), true) => Some(fail.clone()),
        _ => done.code.clone(),
    };
    let pid = file.annotator.id.clone().unwrap_or_default();
    let link = done.redirect.as_ref().map(|url| {
        let encode = |t: &str| crate::base::url::percent_encode(t, b"");
        url.replace("{code}", &encode(code.as_deref().unwrap_or("")))
            .replace("{pid}", &encode(&pid))
    });
    Some(Completion { code, link })
}

/// Whether a finished trial fails an attention check the study scores itself (with its answers:
/// a published study keeps them in the key, and scores nothing here). The same rule as the
/// analysis's diagnostics: the checked system's score, or the preferred system (the best, the
/// chosen or the first of a ranking; a tie is not a choice).
fn fails(study: &Study, trial: &TrialRecord) -> bool {
    let Some(check) = study
        .design()
        .attention_checks
        .iter()
        .find(|c| c.item() == trial.item)
    else {
        return false;
    };
    match check {
        AttentionCheck::Rating {
            system,
            dimension,
            accept: Some(accept),
            ..
        } => trial
            .outputs
            .iter()
            .find(|o| &o.system == system)
            .is_some_and(|o| !o.ratings.get(dimension).is_some_and(|s| accept.contains(s))),
        AttentionCheck::Preference {
            accept: Some(accept),
            ..
        } => {
            let chosen = trial
                .preference
                .as_ref()
                .and_then(PreferenceRecord::preferred_system);
            !chosen.is_some_and(|c| accept.iter().any(|a| a == c))
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::digest::sha256_hex;
    use crate::plan::Annotator;
    use crate::session::ratings::export;
    use crate::session::{Msg, Phase, Reply, Session, Target, update};
    use crate::study::parse_study;

    /// The pandalm example (a pair choice per item) with an attention check on its first item
    /// and a completion section.
    fn study(completion: serde_json::Value) -> (Study, String) {
        let path = format!(
            "{}/../../assets/studies/pandalm.json",
            env!("CARGO_MANIFEST_DIR")
        );
        let mut v: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        let item = v["items"][0]["id"].clone();
        let system = v["systems"][0].clone();
        v["design"]["attention_checks"] =
            serde_json::json!([{"kind": "preference", "item": item, "accept": [system]}]);
        v["completion"] = completion;
        let text = v.to_string();
        let study = parse_study(&text).unwrap_or_else(|p| panic!("{p}"));
        (study, sha256_hex(&text))
    }

    /// A finished session of `who` that prefers the output at `position` everywhere.
    fn finished(study: &Study, sha: &str, who: Annotator, position: usize) -> RatingsFile {
        let mut s = Session::new(study, who);
        let mut now = 1.0e12;
        while s.progress.phase != Phase::Done {
            now += 1000.0;
            let msg = match s.progress.phase {
                Phase::Welcome => Msg::Start,
                Phase::Consent => Msg::Consent(true),
                Phase::Instructions => Msg::FinishInstructions,
                Phase::Trials => {
                    update(
                        study,
                        &mut s,
                        Msg::answer(
                            Target::Preference,
                            Reply::Preference(crate::session::Preference::Choice { position }),
                        ),
                        now,
                    );
                    Msg::Next
                }
                other => panic!("{other:?}"),
            };
            update(study, &mut s, msg, now);
        }
        export(study, sha, &s, "test", now)
    }

    #[test]
    fn the_code_and_the_way_back_with_the_participants_id() {
        let (study, sha) = study(serde_json::json!({
            "code": "C0DE 1",
            "redirect": "https://app.prolific.com/submissions/complete?cc={code}&p={pid}"
        }));
        let who = Annotator {
            slot: 1,
            id: Some("5f0c/1".into()),
            platform: None,
        };
        let file = finished(&study, &sha, who, 0);
        let done = completion(&study, &file).unwrap();
        assert_eq!(done.code.as_deref(), Some("C0DE 1"));
        assert_eq!(
            done.link.as_deref(),
            Some("https://app.prolific.com/submissions/complete?cc=C0DE%201&p=5f0c%2F1")
        );
    }

    #[test]
    fn a_failed_attention_check_gives_the_failing_code() {
        let (study, sha) = study(serde_json::json!({"code": "PASS", "fail_code": "FAIL"}));
        let who = |slot| Annotator::slot(slot);
        // Whichever side the checked system is shown on, one of the two positions passes.
        let codes: Vec<Option<String>> = [0, 1]
            .iter()
            .map(|&p| {
                completion(&study, &finished(&study, &sha, who(1), p))
                    .unwrap()
                    .code
            })
            .collect();
        assert!(codes.contains(&Some("PASS".into())), "{codes:?}");
        assert!(codes.contains(&Some("FAIL".into())), "{codes:?}");
        let (plain, sha) = self::study(serde_json::json!({"code": "PASS"}));
        let file = finished(&plain, &sha, who(2), 1);
        assert_eq!(
            completion(&plain, &file).unwrap().code.as_deref(),
            Some("PASS")
        );
    }
}
