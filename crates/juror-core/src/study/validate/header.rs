//! The study's own fields: format, id, title, consent, debrief, completion, submission, and
//! the systems it compares.

use std::collections::BTreeSet;

use super::Checker;
use crate::study::raw::*;

impl Checker {
    /// The study's own fields: format, id, title, consent, debrief, completion, submission.
    pub(super) fn header(&mut self, raw: &RawStudy) {
        if raw.format != STUDY_FORMAT_V1 {
            self.error(
                "format",
                format!("unknown format version \"{}\"", raw.format),
                format!("this version of Juror reads \"{STUDY_FORMAT_V1}\" only"),
            );
        }
        self.id("id", "study", &raw.id);
        self.not_blank("title", "title", &raw.title);
        if let Some(consent) = &raw.consent {
            self.not_blank("consent.text", "consent text", &consent.text);
            self.not_blank("consent.agree_label", "agree label", &consent.agree_label);
            self.not_blank(
                "consent.decline_label",
                "decline label",
                &consent.decline_label,
            );
        }

        if raw.debrief.as_ref().is_some_and(|t| t.trim().is_empty()) {
            self.error(
                "debrief",
                "the debrief is empty",
                "write what participants should learn once their ratings are saved, or remove \"debrief\"",
            );
        }
        if let Some(done) = &raw.completion {
            self.completion(done);
        }
        if let Some(submit) = &raw.submit {
            self.submit(submit);
        }
    }

    /// `completion`: a code or an address to return to, and codes that are not blank.
    fn completion(&mut self, done: &RawCompletion) {
        let blank = |code: &Option<String>| code.as_ref().is_some_and(|t| t.trim().is_empty());
        if done.code.is_none() && done.redirect.is_none() {
            self.error(
                "completion",
                "the completion section gives neither a code nor an address to return to",
                "add \"code\" (the platform's completion code) or \"redirect\", or remove \"completion\"",
            );
        }
        for (at, code) in [
            ("completion.code", &done.code),
            ("completion.fail_code", &done.fail_code),
        ] {
            if blank(code) {
                self.error(
                    at,
                    "the code is empty",
                    "write the code the platform gave you",
                );
            }
        }
        if done.fail_code.is_some() && done.code.is_none() {
            self.error(
                "completion.fail_code",
                "a code for failed attention checks, but none for the others",
                "add \"code\", the code of participants who passed",
            );
        }
        if let Some(url) = &done.redirect {
            if !url.starts_with("https://") {
                self.error(
                    "completion.redirect",
                    format!("{url:?} is not an https:// address"),
                    "give the platform's completion address, starting with https://",
                );
            }
            if url.contains("{code}") && done.code.is_none() {
                self.error(
                    "completion.redirect",
                    "the address uses {code} but the study gives no code",
                    "add \"code\", or take {code} out of the address",
                );
            }
        }
    }

    /// `submit`: an address Juror may send to, and a format it knows.
    fn submit(&mut self, submit: &RawSubmit) {
        if crate::base::url::origin(&submit.url).is_none() {
            self.error(
                "submit.url",
                format!("{:?} is not an https:// address", submit.url),
                "give the address of the service that receives the files (https://…)",
            );
        }
        match (submit.format.as_str(), &submit.experiment_id) {
            ("json", _) | ("datapipe", Some(_)) => {}
            ("datapipe", None) => self.error(
                "submit.experiment_id",
                "DataPipe needs the experiment's id",
                "copy the experiment id from DataPipe's dashboard into \"experiment_id\"",
            ),
            (other, _) => self.error(
                "submit.format",
                format!("unknown format {other:?}"),
                "use \"json\" (the ratings file as the body) or \"datapipe\"",
            ),
        }
    }

    /// `systems`: at least one, each id once.
    pub(super) fn systems<'a>(&mut self, raw: &'a RawStudy) -> BTreeSet<&'a str> {
        if raw.systems.is_empty() {
            self.error(
                "systems",
                "no systems are listed",
                "list the ids of the systems whose outputs are judged, e.g. [\"baseline\", \"ours\"]",
            );
        }
        self.unique(
            "system",
            raw.systems
                .iter()
                .enumerate()
                .map(|(i, s)| (format!("systems[{i}]"), s.as_str())),
        )
    }
}
