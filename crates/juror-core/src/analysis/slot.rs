//! Which file goes where: a file given as the study, the key, the adjudication CSV or a ratings
//! file is recognised by its `format` (or its first line), and one given in the wrong place is
//! said there and then, with the place it belongs, before anything is analysed (UX walkthrough
//! 2026-12-01, finding 24: a study and key swapped were accepted without a word). Words are
//! the page's and the command line's alike.

use serde_json::Value;

use crate::base::json;
use crate::front::compiled;
use crate::publish::KEY_FORMAT_V1;
use crate::session::ratings::RATINGS_FORMAT_V1;
use crate::study::STUDY_FORMAT_V1;

/// Where a file was given.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Slot {
    /// The study the annotators rated (`--study`, "Choose the study file").
    Study,
    /// The key `juror publish` wrote (`--key`, "Choose the key").
    Key,
    /// The adjudication CSV (`--adjudication`).
    Adjudication,
    /// A ratings file or a tidy CSV.
    Ratings,
}

/// What a file is, as far as its first bytes and its `format` say.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// `juror.study/1`.
    Study,
    /// `juror.key/1`.
    Key,
    /// `juror.ratings/1`.
    Ratings,
    /// `juror.compiled/3`: what the annotator's page reads, compiled from a study (read as the
    /// study too: the file a site serves).
    Compiled,
    /// A JSON object of another or no format.
    OtherJson,
    /// Anything else: a CSV, text.
    Text,
}

/// The kind of `text`, from its `format` alone: an object is read only as far as that member
/// and no value is built (a ratings file of megabytes is parsed once, by the analysis); what is
/// not JSON is [`Kind::Text`].
pub fn kind(text: &str) -> Kind {
    let trimmed = text.trim_start_matches('\u{feff}').trim_start();
    if !trimmed.starts_with('{') {
        // Other JSON (a list, a number) is JSON all the same; a CSV fails at its first byte.
        return match serde_json::from_str::<Value>(trimmed) {
            Ok(_) => Kind::OtherJson,
            Err(_) => Kind::Text,
        };
    }
    let format = json::text::member(trimmed, "format")
        .ok()
        .flatten()
        .and_then(|raw| serde_json::from_str::<String>(raw).ok());
    match format.as_deref() {
        Some(STUDY_FORMAT_V1) => Kind::Study,
        Some(KEY_FORMAT_V1) => Kind::Key,
        Some(RATINGS_FORMAT_V1) => Kind::Ratings,
        Some(f) if f.starts_with("juror.compiled") => Kind::Compiled,
        _ => Kind::OtherJson,
    }
}

/// Why the file `text`, given at `slot`, belongs elsewhere, and where; `None` when it may be
/// what the slot wants (whether it is a good one of its kind is checked when it is read).
pub fn misplaced(slot: Slot, text: &str) -> Option<String> {
    let found = kind(text);
    // A study as written or as a site serves it (compiled): both are given as the study.
    let study = match found {
        Kind::Study => Some(format!("a study ({STUDY_FORMAT_V1})")),
        Kind::Compiled => Some(format!("a study (compiled: {})", compiled::FORMAT)),
        _ => None,
    };
    match (slot, found, study) {
        (Slot::Study, Kind::Key, _) => Some(format!(
            "this is a key ({KEY_FORMAT_V1}), not a study: the study and the key seem swapped; \
             give it as the key, and the published study as the study"
        )),
        (Slot::Key, _, Some(study)) => Some(format!(
            "this is {study}, not a key: the study and the key seem swapped; give it as the \
             study, and the key juror publish wrote ({KEY_FORMAT_V1}, in your private keys \
             folder) as the key"
        )),
        (Slot::Study | Slot::Key | Slot::Adjudication, Kind::Ratings, _) => Some(format!(
            "this is a ratings file ({RATINGS_FORMAT_V1}): give it with the ratings files"
        )),
        (Slot::Adjudication | Slot::Ratings, _, Some(study)) => {
            Some(format!("this is {study}: give it as the study"))
        }
        (Slot::Adjudication | Slot::Ratings, Kind::Key, _) => Some(format!(
            "this is a key ({KEY_FORMAT_V1}): give it as the key"
        )),
        (Slot::Study | Slot::Key, Kind::Text, _) => Some(format!(
            "this is not a JSON file: the {} is the .json file juror publish wrote",
            if slot == Slot::Study { "study" } else { "key" }
        )),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::{Kind, Slot, kind, misplaced};

    const STUDY: &str = r#"{"format": "juror.study/1", "id": "s"}"#;
    const KEY: &str = r#"{"format": "juror.key/1", "study_id": "s"}"#;
    const RATINGS: &str = r#"{"format": "juror.ratings/1", "trials": []}"#;
    const CSV: &str = "item_id,system_id,annotator_id,dimension,score\n";

    #[test]
    fn a_file_is_known_by_its_format_or_first_line() {
        assert_eq!(kind(STUDY), Kind::Study);
        assert_eq!(kind(&format!("\u{feff}  {KEY}")), Kind::Key);
        assert_eq!(kind(RATINGS), Kind::Ratings);
        assert_eq!(kind(CSV), Kind::Text);
        assert_eq!(kind("{\"format\": \"other/1\"}"), Kind::OtherJson);
        assert_eq!(kind("{ cut short"), Kind::OtherJson);
        assert_eq!(kind("[]"), Kind::OtherJson);
    }

    /// A study and a key swapped are each said to be swapped, at the place they were given.
    #[test]
    fn a_study_and_key_swapped_are_said_to_be_swapped() {
        let at_study = misplaced(Slot::Study, KEY).unwrap();
        assert!(at_study.starts_with("this is a key (juror.key/1), not a study"));
        assert!(at_study.contains("seem swapped"));
        let at_key = misplaced(Slot::Key, STUDY).unwrap();
        assert!(at_key.starts_with("this is a study (juror.study/1), not a key"));
        assert!(at_key.contains("seem swapped"));
        // In their places, nothing is said.
        assert_eq!(misplaced(Slot::Study, STUDY), None);
        let compiled = format!("{{\"format\": \"{}\"}}", crate::front::compiled::FORMAT);
        assert_eq!(kind(&compiled), Kind::Compiled);
        assert_eq!(
            misplaced(Slot::Study, &compiled),
            None,
            "the file served is a study"
        );
        assert!(misplaced(Slot::Key, &compiled).is_some());
        assert_eq!(misplaced(Slot::Key, KEY), None);
        assert_eq!(misplaced(Slot::Ratings, RATINGS), None);
        assert_eq!(misplaced(Slot::Ratings, CSV), None);
        assert_eq!(misplaced(Slot::Adjudication, CSV), None);
    }

    #[test]
    fn every_other_misplaced_file_names_its_place() {
        for slot in [Slot::Study, Slot::Key, Slot::Adjudication] {
            let said = misplaced(slot, RATINGS).unwrap();
            assert!(said.contains("give it with the ratings files"), "{said}");
        }
        assert!(
            misplaced(Slot::Ratings, STUDY)
                .unwrap()
                .contains("give it as the study")
        );
        assert!(
            misplaced(Slot::Ratings, KEY)
                .unwrap()
                .contains("give it as the key")
        );
        assert!(
            misplaced(Slot::Study, CSV)
                .unwrap()
                .contains("not a JSON file")
        );
    }
}
