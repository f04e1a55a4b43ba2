//! Sending the finished ratings file to a service the researcher names: what to POST, where,
//! under which name and content type, what the page tells the annotator about it before they
//! start, and what an attempt's outcome means for them. The request itself, the queue while
//! offline and the retries are the shell's (`src/services/submit.rs`).
//!
//! # Content type
//! A ratings file for a generic endpoint (`format: "json"`) goes as `text/plain;charset=utf-8`:
//! a CORS "simple" request, with no preflight, which services that cannot answer one (a Google
//! Apps Script web app) still receive. DataPipe's body keeps `application/json` (DataPipe answers
//! preflights).
//!
//! # Names
//! A finished file sent to a service is named with its export time to the second
//! (`juror-<study>-<annotator>-<date>-<hhmmss>.json`), so that a changed answer sent again is a
//! new file (DataPipe refuses a name it already holds). Backups start `juror-backup-` and say
//! after how many trials they were taken.
//!
//! # Delivered
//! A file counts as delivered (the digest recorded so it is not sent again, the completion code
//! and "Remove my answers" unlocked) only on a `2xx` answered by the study's address itself, or
//! on a `2xx` reached through redirects whose body holds the file's checksum (a receipt: Google
//! Apps Script answers every POST with a `302` to `script.googleusercontent.com`, whose page is
//! what `doPost` returned). A redirect is never proof: a sign-in wall answers with one too,
//! before the service has run ([`outcome`]).

use super::ratings::RatingsFile;
use crate::study::Study;

/// One POST.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Request {
    /// Where.
    pub url: String,
    /// The JSON body.
    pub body: String,
    /// Its `Content-Type`: [`SIMPLE_CONTENT_TYPE`], or `application/json` for DataPipe.
    pub content_type: &'static str,
    /// The receipt that proves delivery through a redirect: the file's checksum (`sha256`).
    pub receipt: String,
}

/// The content type of a ratings file sent to a generic endpoint: one a browser sends without a
/// CORS preflight.
pub const SIMPLE_CONTENT_TYPE: &str = "text/plain;charset=utf-8";

/// How long the page waits for a service's answer before it says so and offers to send again.
pub const TIMEOUT_MS: u32 = 30_000;

/// The study's POST of this ratings file, if the study names a service: under
/// [`final_name`].
pub fn request(study: &Study, file: &RatingsFile) -> Option<Request> {
    request_named(study, file, final_name(file))
}

/// The name of a finished file sent to a service: the download's name with the export time
/// (`juror-finance-slot3-2026-11-22-143005.json`), unique per export to the second.
pub fn final_name(file: &RatingsFile) -> String {
    let name = file.file_name("json");
    let stem = name.strip_suffix(".json").unwrap_or(&name);
    format!("{stem}-{}.json", hhmmss(&file.exported_at))
}

/// The name of a backup sent after `done` finished trials:
/// `juror-backup-finance-slot3-2026-11-22-143005-10-trials.json`.
pub fn backup_name(file: &RatingsFile, done: usize) -> String {
    let name = final_name(file);
    let rest = name.strip_prefix("juror-").unwrap_or(&name);
    let stem = rest.strip_suffix(".json").unwrap_or(rest);
    format!("juror-backup-{stem}-{done}-trials.json")
}

/// `143005` of `2026-11-22T14:30:05.123Z`; `000000` when the time cannot be read.
fn hhmmss(exported_at: &str) -> String {
    let digits: String = exported_at
        .get(11..19)
        .unwrap_or("")
        .chars()
        .filter(char::is_ascii_digit)
        .collect();
    if digits.len() == 6 {
        digits
    } else {
        "000000".to_owned()
    }
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
/// finished file's, named by [`backup_name`] (DataPipe keeps each name once).
pub fn backup_request(study: &Study, file: &RatingsFile, done: usize) -> Option<Request> {
    request_named(study, file, backup_name(file, done))
}

fn request_named(study: &Study, file: &RatingsFile, name: String) -> Option<Request> {
    let submit = study.submit()?;
    let json = file.to_json();
    let (body, content_type) = match (submit.format.as_str(), &submit.experiment_id) {
        ("datapipe", Some(id)) => {
            let quoted = |s: &str| serde_json::to_string(s).unwrap_or_default();
            let body = format!(
                "{{\"experimentID\":{},\"filename\":{},\"data\":{}}}",
                quoted(id),
                quoted(&name),
                quoted(&json)
            );
            (body, "application/json")
        }
        _ => (json, SIMPLE_CONTENT_TYPE),
    };
    Some(Request {
        url: submit.url.clone(),
        body,
        content_type,
        receipt: file.sha256.clone(),
    })
}

/// What the browser made of one POST, as the shell saw it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Attempt {
    /// The study's address itself answered with this HTTP status.
    Answered(u16),
    /// The answer came after the browser followed one or more redirects (allowed by the site's
    /// policy and CORS): its status and body.
    Forwarded {
        /// The final answer's HTTP status.
        status: u16,
        /// The final answer's body.
        body: String,
    },
    /// An opaque redirect, not followed (`redirect: "manual"`): nothing says where it led.
    Redirected,
    /// The request failed before any answer, while the browser said it was online (`online`).
    Rejected {
        /// `navigator.onLine`.
        online: bool,
    },
    /// No answer within [`TIMEOUT_MS`].
    TimedOut,
}

/// Why a file did not reach the service, each with what to do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Failure {
    /// The browser is offline: the page sends it when the browser is back online.
    Offline,
    /// Online, but the browser refused the request (the site's policy, CORS, an unknown host, a
    /// blocked network).
    Refused,
    /// The service answered with an error status.
    Status(u16),
    /// No answer in time.
    TimedOut,
    /// The service sent the browser elsewhere (a sign-in page, say) without a receipt for the
    /// file: it may not have arrived.
    Unconfirmed,
}

/// Whether `attempt` delivered the file whose receipt (checksum) is `receipt`: a `2xx` from the
/// study's address did, and a `2xx` reached through redirects did only when its body holds the
/// receipt. A redirect alone never did: a sign-in wall (an Apps Script deployed for "Anyone
/// with a Google account", single sign-on) answers with one before the service has run.
///
/// # Errors
/// Why it did not, or why it is not known to have.
pub fn outcome(attempt: Attempt, receipt: &str) -> Result<(), Failure> {
    let ok = |status: u16| (200..300).contains(&status);
    match attempt {
        Attempt::Answered(status) if ok(status) => Ok(()),
        Attempt::Forwarded { status, body } if ok(status) => {
            if !receipt.is_empty() && body.contains(receipt) {
                Ok(())
            } else {
                Err(Failure::Unconfirmed)
            }
        }
        Attempt::Answered(status) | Attempt::Forwarded { status, .. } => {
            Err(Failure::Status(status))
        }
        Attempt::Redirected => Err(Failure::Unconfirmed),
        Attempt::Rejected { online: false } => Err(Failure::Offline),
        Attempt::Rejected { online: true } => Err(Failure::Refused),
        Attempt::TimedOut => Err(Failure::TimedOut),
    }
}

impl Failure {
    /// What the finish page tells the annotator.
    pub fn message(self) -> String {
        match self {
            Failure::Offline => "It could not be sent: this browser is offline. It will be sent \
                 when you are back online (keep this page open), or download it below and send it \
                 yourself."
                .to_owned(),
            Failure::Refused => "It could not reach the researcher's service: this browser or \
                 network refused the connection, so trying again is unlikely to help. Download it below \
                 and send it to the researcher yourself, and tell them that sending it did not work."
                .to_owned(),
            Failure::Status(status) if status == 429 || status >= 500 => format!(
                "The researcher's service is not taking files just now (HTTP {status}). Try \
                 \u{201c}Send again\u{201d} in a few minutes; if it still fails, download it below \
                 and send it to the researcher yourself."
            ),
            Failure::Status(status) => format!(
                "The researcher's service refused it (HTTP {status}). Download it below and send \
                 it to the researcher yourself, and tell them the service refused it."
            ),
            Failure::TimedOut => format!(
                "The researcher's service did not answer within {} seconds; the file may or may \
                 not have arrived. Try \u{201c}Send again\u{201d}, or download it below and send \
                 it to the researcher yourself.",
                TIMEOUT_MS / 1000
            ),
            Failure::Unconfirmed => "The researcher's service sent this browser to another page \
                 (a sign-in page, perhaps) instead of confirming that it received your file, so it \
                 may not have arrived. Download it below and send it to the researcher yourself, and \
                 tell them that sending it did not work."
                .to_owned(),
        }
    }
}

/// What the welcome page says about sending, when the study names a service: when answers go,
/// and to which host ([`notice_for`] of its cover's host).
pub fn notice(study: &Study) -> Option<String> {
    let submit = study.submit()?;
    Some(notice_for(
        crate::front::cover::host(&submit.url),
        submit.backups,
    ))
}

/// What the welcome page says about sending to `host`, with `backups` or not.
pub fn notice_for(host: &str, backups: bool) -> String {
    let backups = if backups {
        format!(
            ", and every {SERVICE_BACKUP_EVERY} trials as a backup (so what you have answered \
             reaches them even if you stop part way)"
        )
    } else {
        String::new()
    };
    format!("Your answers are sent to the researchers' service ({host}) when you finish{backups}.")
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
    crate::base::digest::sha256_hex(&answers.to_json())
}

/// The storage key of a file waiting to be sent (one per study and annotator: a later file holds
/// every answer of an earlier one).
pub fn outbox_key(study_sha256: &str, slot: u32, id: Option<&str>) -> String {
    format!(
        "{}{}",
        super::store::OUTBOX_PREFIX,
        super::store::key(study_sha256, slot, id)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_body_is_the_ratings_file_or_datapipes_wrapping_of_it() {
        use crate::base::digest::sha256_hex;
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
                body: file.to_json(),
                content_type: "text/plain;charset=utf-8",
                receipt: file.sha256.clone(),
            })
        );
        v["submit"] = serde_json::json!({
            "url": "https://pipe.jspsych.org/api/data/", "format": "datapipe", "experiment_id": "AbC1"
        });
        let (req, file) = with(&v);
        let req = req.unwrap();
        assert_eq!(req.content_type, "application/json");
        let body: serde_json::Value = serde_json::from_str(&req.body).unwrap();
        assert_eq!(body["experimentID"], "AbC1");
        assert_eq!(body["filename"], final_name(&file));
        assert_eq!(body["data"], file.to_json());
    }

    /// `backups: true`: a backup every ten finished trials, retried while it has not gone, each
    /// under a name of its own; none for a study that does not ask.
    #[test]
    fn backups_are_due_every_ten_trials_when_the_study_asks() {
        use crate::base::digest::sha256_hex;
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
        assert_eq!(
            body["filename"],
            "juror-backup-pandalm-bloom-llama-slot1-2001-09-09-014640-20-trials.json"
        );
        assert_eq!(body["data"], file.to_json());
    }

    /// A finished file sent twice with a changed answer in between goes under two names (DataPipe
    /// refuses a name it holds); the download keeps the plain name; a backup's name says so first.
    #[test]
    fn each_export_sent_has_a_name_of_its_own_and_backups_say_they_are() {
        use crate::base::digest::sha256_hex;
        use crate::plan::Annotator;
        use crate::session::Session;
        use crate::session::ratings::export;
        let path = format!(
            "{}/../../assets/studies/pandalm.json",
            env!("CARGO_MANIFEST_DIR")
        );
        let text = std::fs::read_to_string(path).unwrap();
        let study = crate::study::parse_study(&text).unwrap();
        let s = Session::new(&study, Annotator::slot(3));
        // 2026-11-22T14:30:05.123Z and 20 s later.
        let at = 1_795_357_805_123.0;
        let a = export(&study, &sha256_hex(&text), &s, "test", at);
        let b = export(&study, &sha256_hex(&text), &s, "test", at + 20_000.0);
        assert_eq!(
            a.file_name("json"),
            "juror-pandalm-bloom-llama-slot3-2026-11-22.json"
        );
        assert_eq!(
            final_name(&a),
            "juror-pandalm-bloom-llama-slot3-2026-11-22-143005.json"
        );
        assert_eq!(
            final_name(&b),
            "juror-pandalm-bloom-llama-slot3-2026-11-22-143025.json"
        );
        assert_eq!(
            backup_name(&a, 10),
            "juror-backup-pandalm-bloom-llama-slot3-2026-11-22-143005-10-trials.json"
        );
        let mut undated = a.clone();
        undated.exported_at = "yesterday".into();
        assert_eq!(
            final_name(&undated),
            "juror-pandalm-bloom-llama-slot3-undated-000000.json"
        );
    }

    /// Each way a POST can end, and what the finish page then says.
    #[test]
    fn an_attempt_is_delivered_offline_refused_answered_with_an_error_or_timed_out() {
        let sha = "5f".repeat(32);
        let outcome = |a: Attempt| outcome(a, &sha);
        assert_eq!(outcome(Attempt::Answered(200)), Ok(()));
        assert_eq!(outcome(Attempt::Answered(201)), Ok(()));
        // Apps Script: a 302 to its echo page, whose body is what doPost returned.
        let forwarded = |status: u16, body: &str| Attempt::Forwarded {
            status,
            body: body.to_owned(),
        };
        assert_eq!(outcome(forwarded(200, &sha)), Ok(()), "a receipt");
        assert_eq!(
            outcome(forwarded(200, &format!("{{\"received\":\"{sha}\"}}"))),
            Ok(()),
            "a receipt inside JSON"
        );
        // A sign-in page reached through the redirect, or a receipt for another file.
        assert_eq!(
            outcome(forwarded(200, "<html>Sign in</html>")),
            Err(Failure::Unconfirmed)
        );
        assert_eq!(
            outcome(forwarded(200, &"ab".repeat(32))),
            Err(Failure::Unconfirmed)
        );
        assert_eq!(outcome(forwarded(404, &sha)), Err(Failure::Status(404)));
        assert_eq!(
            outcome(Attempt::Redirected),
            Err(Failure::Unconfirmed),
            "a redirect not followed says nothing of where it led"
        );
        assert_eq!(
            super::outcome(forwarded(200, ""), ""),
            Err(Failure::Unconfirmed),
            "no receipt to look for"
        );
        assert_eq!(outcome(Attempt::Answered(400)), Err(Failure::Status(400)));
        assert_eq!(
            outcome(Attempt::Answered(302)),
            Err(Failure::Status(302)),
            "a redirect the browser showed is not one it held back"
        );
        assert_eq!(
            outcome(Attempt::Rejected { online: false }),
            Err(Failure::Offline)
        );
        assert_eq!(
            outcome(Attempt::Rejected { online: true }),
            Err(Failure::Refused)
        );
        assert_eq!(outcome(Attempt::TimedOut), Err(Failure::TimedOut));
        assert!(
            Failure::Unconfirmed
                .message()
                .contains("may not have arrived")
        );
        assert!(
            Failure::Offline
                .message()
                .contains("sent when you are back online")
        );
        let refused = Failure::Refused.message();
        assert!(refused.contains("could not reach the researcher's service"));
        assert!(!refused.contains("offline"), "{refused}");
        assert!(
            Failure::Status(400)
                .message()
                .contains("refused it (HTTP 400)")
        );
        assert!(Failure::Status(503).message().contains("Send again"));
        assert!(Failure::TimedOut.message().contains("within 30 seconds"));
    }

    /// The welcome page's line about sending: the service's host, and the backups when asked.
    #[test]
    fn the_welcome_notice_names_the_host_and_the_backups() {
        let path = format!(
            "{}/../../assets/studies/pandalm.json",
            env!("CARGO_MANIFEST_DIR")
        );
        let mut v: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        // The annotator's welcome page says it from the study's cover: the same words.
        let notice_of = |v: &serde_json::Value| {
            let study = crate::study::parse_study(&v.to_string()).unwrap();
            let cover = crate::front::cover::Cover::of(&study);
            let from_cover = cover
                .submit_host
                .as_deref()
                .map(|host| notice_for(host, cover.submit_backups));
            assert_eq!(from_cover, notice(&study));
            from_cover
        };
        assert_eq!(notice_of(&v), None);
        v["submit"] = serde_json::json!({"url": "https://script.google.com/macros/s/X/exec"});
        assert_eq!(
            notice_of(&v).unwrap(),
            "Your answers are sent to the researchers' service (script.google.com) when you finish."
        );
        v["submit"] = serde_json::json!({
            "url": "https://pipe.jspsych.org/api/data/", "format": "datapipe",
            "experiment_id": "AbC1", "backups": true
        });
        let text = notice_of(&v).unwrap();
        assert!(
            text.contains("(pipe.jspsych.org) when you finish, and every 10 trials as a backup"),
            "{text}"
        );
    }

    #[test]
    fn the_same_answers_exported_twice_have_one_digest() {
        use crate::base::digest::sha256_hex;
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
