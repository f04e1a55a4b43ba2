//! Sending the finished ratings file to a service the researcher names: what to POST,
//! where, and the origin the site's policy must allow. The request itself, the queue while
//! offline and the retries are the shell's (`src/services/submit.rs`).

use super::ratings::RatingsFile;
use crate::study::Study;

/// One POST.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Request {
    /// Where.
    pub url: String,
    /// The JSON body.
    pub body: String,
}

/// The study's POST of this ratings file, if the study names a service.
pub fn request(study: &Study, file: &RatingsFile) -> Option<Request> {
    request_named(study, file, file.file_name("json"))
}

/// Finished trials between two backups sent to a study's service that asks for them
/// (`submit.backups`).
pub const SERVICE_BACKUP_EVERY: usize = 10;

/// Whether a backup is due: the study's service asks for backups, and `done` finished trials
/// are at least [`SERVICE_BACKUP_EVERY`] more than at the last backup sent (`last_sent`, 0 for none).
/// A backup that could not be sent stays due, so the next answer tries again.
pub fn backup_due(study: &Study, done: usize, last_sent: usize) -> bool {
    study.submit().is_some_and(|s| s.backups) && done >= last_sent + SERVICE_BACKUP_EVERY
}

/// The backup to send after a save, if one is due ([`backup_due`]) and the answers are not
/// finished (the finish page sends the finished file): `last_sent` reads the count of the last
/// backup sent, as the shell stored it, and `file` exports the answers so far; each is called
/// only when needed.
pub fn backup_to_send(
    study: &Study,
    done: usize,
    last_sent: impl FnOnce() -> Option<String>,
    file: impl FnOnce() -> RatingsFile,
) -> Option<Request> {
    if !study.submit().is_some_and(|s| s.backups) {
        return None;
    }
    let last = last_sent().and_then(|n| n.parse().ok()).unwrap_or(0);
    if !backup_due(study, done, last) {
        return None;
    }
    let file = file();
    if file.complete {
        return None;
    }
    backup_request(study, &file, done)
}

/// The POST of a backup of `file` taken after `done` finished trials: the same body as the
/// finished file's, named `…-backup-DONE.json` (DataPipe keeps each name once).
pub fn backup_request(study: &Study, file: &RatingsFile, done: usize) -> Option<Request> {
    let name = file.file_name("json");
    let stem = name.strip_suffix(".json").unwrap_or(&name);
    request_named(study, file, format!("{stem}-backup-{done}.json"))
}

fn request_named(study: &Study, file: &RatingsFile, name: String) -> Option<Request> {
    let submit = study.submit()?;
    let json = file.to_json();
    let body = match (submit.format.as_str(), &submit.experiment_id) {
        ("datapipe", Some(id)) => {
            let quoted = |s: &str| serde_json::to_string(s).unwrap_or_default();
            format!(
                "{{\"experimentID\":{},\"filename\":{},\"data\":{}}}",
                quoted(id),
                quoted(&name),
                quoted(&json)
            )
        }
        _ => json,
    };
    Some(Request {
        url: submit.url.clone(),
        body,
    })
}

/// What identifies the answers of a ratings file, whenever it was exported: the checksum of the
/// file without what changes while nothing is answered (the export time and the checksum over
/// it, the time spent on each trial, which trial was on screen). The finish page records it once
/// the file is sent, so that coming back, even after the page kept counting time, does not send
/// the same answers twice, and a changed answer is sent again.
pub fn answers_digest(mut answers: RatingsFile) -> String {
    answers.exported_at.clear();
    answers.sha256.clear();
    answers.current_trial = 0;
    for t in &mut answers.trials {
        t.active_ms = 0;
        t.first_shown = None;
        t.last_changed = None;
    }
    crate::digest::sha256_hex(&answers.to_json())
}

/// The storage key of a file waiting to be sent (one per study and annotator: a later file holds
/// every answer of an earlier one).
pub fn outbox_key(study_sha256: &str, slot: u32, id: Option<&str>) -> String {
    format!("juror-outbox/{}", super::store::key(study_sha256, slot, id))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_body_is_the_ratings_file_or_datapipes_wrapping_of_it() {
        use crate::digest::sha256_hex;
        use crate::plan::Annotator;
        use crate::session::Session;
        use crate::session::ratings::export;
        let path = format!(
            "{}/../../assets/studies/pandalm.json",
            env!("CARGO_MANIFEST_DIR")
        );
        let mut v: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        let with = |v: &serde_json::Value| {
            let text = v.to_string();
            let study = crate::study::parse_study(&text).unwrap();
            let s = Session::new(&study, Annotator::slot(1));
            let file = export(&study, &sha256_hex(&text), &s, "test", 1.0e12);
            (request(&study, &file), file)
        };
        assert_eq!(with(&v).0, None);
        v["submit"] = serde_json::json!({"url": "https://x.org/in"});
        let (req, file) = with(&v);
        assert_eq!(
            req,
            Some(Request {
                url: "https://x.org/in".into(),
                body: file.to_json()
            })
        );
        v["submit"] = serde_json::json!({
            "url": "https://pipe.jspsych.org/api/data/", "format": "datapipe", "experiment_id": "AbC1"
        });
        let (req, file) = with(&v);
        let body: serde_json::Value = serde_json::from_str(&req.unwrap().body).unwrap();
        assert_eq!(body["experimentID"], "AbC1");
        assert_eq!(body["filename"], file.file_name("json"));
        assert_eq!(body["data"], file.to_json());
    }

    /// `backups: true`: a backup every ten finished trials, retried while it has not gone, each
    /// under a name of its own; none for a study that does not ask.
    #[test]
    fn backups_are_due_every_ten_trials_when_the_study_asks() {
        use crate::digest::sha256_hex;
        use crate::plan::Annotator;
        use crate::session::Session;
        use crate::session::ratings::export;
        let path = format!(
            "{}/../../assets/studies/pandalm.json",
            env!("CARGO_MANIFEST_DIR")
        );
        let mut v: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        let study_of = |v: &serde_json::Value| crate::study::parse_study(&v.to_string()).unwrap();
        v["submit"] = serde_json::json!({"url": "https://x.org/in"});
        assert!(!backup_due(&study_of(&v), 10, 0), "not asked");
        v["submit"] = serde_json::json!({
            "url": "https://pipe.jspsych.org/api/data/", "format": "datapipe",
            "experiment_id": "AbC1", "backups": true
        });
        let study = study_of(&v);
        assert!(!backup_due(&study, 9, 0));
        assert!(backup_due(&study, 10, 0));
        assert!(!backup_due(&study, 10, 10), "sent");
        assert!(backup_due(&study, 21, 10), "not sent at 20: still due");
        let text = v.to_string();
        let s = Session::new(&study, Annotator::slot(1));
        let file = export(&study, &sha256_hex(&text), &s, "test", 1.0e12);
        let body: serde_json::Value =
            serde_json::from_str(&backup_request(&study, &file, 20).unwrap().body).unwrap();
        let name = file.file_name("json");
        assert_eq!(
            body["filename"],
            format!("{}-backup-20.json", name.strip_suffix(".json").unwrap())
        );
        assert_eq!(body["data"], file.to_json());
    }

    #[test]
    fn the_same_answers_exported_twice_have_one_digest() {
        use crate::digest::sha256_hex;
        use crate::plan::Annotator;
        use crate::session::ratings::export;
        use crate::session::{Msg, Session, update};
        let path = format!(
            "{}/../../assets/studies/pandalm.json",
            env!("CARGO_MANIFEST_DIR")
        );
        let text = std::fs::read_to_string(path).unwrap();
        let study = crate::study::parse_study(&text).unwrap();
        let sha = sha256_hex(&text);
        let mut s = Session::new(&study, Annotator::slot(1));
        let a = export(&study, &sha, &s, "test", 1.0e12);
        let b = export(&study, &sha, &s, "test", 2.0e12);
        assert_ne!(a.sha256, b.sha256);
        assert_eq!(answers_digest(a.clone()), answers_digest(b.clone()));
        // Time spent on a trial, and which trial is on screen, are not answers.
        let mut timed = b.clone();
        timed.trials[0].active_ms += 5_000;
        timed.trials[0].first_shown = Some("2026-11-24T23:59:05.847Z".to_owned());
        timed.current_trial = 3;
        assert_eq!(answers_digest(a.clone()), answers_digest(timed));
        update(&study, &mut s, Msg::Start, 3.0e12);
        let c = export(&study, &sha, &s, "test", 3.0e12);
        assert_ne!(answers_digest(a), answers_digest(c));
    }
}
