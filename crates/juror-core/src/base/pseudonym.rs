//! Platform ids in reports: a Prolific PID or an MTurk worker id names a person, and a report
//! or merged CSV travels (to co-authors, reviewers, a paper's supplement). So the analysis shows
//! each platform participant under a pseudonym, `prolific-` + 12 hex digits of
//! `SHA-256("juror/pseudonym/v1" ‖ 0 ‖ secret ‖ 0 ‖ platform ‖ 0 ‖ id)`, while the ratings files keep the
//! id for payment.
//!
//! The secret is the key's `ids_secret` (written by `juror publish` and `juror seal`), so only
//! the key's holder can recompute a pseudonym from an id: with the key and the ratings files,
//! `juror analyze --reveal-ids` shows the ids again. Without a key the secret is a [`salt`]
//! drawn from the ratings files themselves: a short id (a SONA code of five digits) could
//! otherwise be found again by trying every id, and the same participant would carry the same
//! pseudonym in every researcher's report. The pseudonyms then hold for one set of files only,
//! and the report says so (`settings.platform_ids`).

use sha2::{Digest, Sha256};

/// How the report shows platform participants, as `settings.platform_ids` says it.
pub const KEYED: &str = "pseudonymised with the key's secret";
/// See [`KEYED`].
pub const UNKEYED: &str = "pseudonymised with a salt drawn from the ratings files (no key from \
                           juror publish): the pseudonyms hold for this set of files only, and \
                           no one without the files can recompute one from an id; give the key \
                           for pseudonyms that hold across reports";
/// See [`KEYED`].
pub const SHOWN: &str = "shown as the platform gave them (--reveal-ids)";

/// The pseudonym of `id` on `platform`, keyed by `secret` (empty: no secret).
pub fn pseudonym(secret: &str, platform: &str, id: &str) -> String {
    let mut h = Sha256::new();
    h.update(b"juror/pseudonym/v1\0");
    h.update(secret.as_bytes());
    h.update(b"\0");
    h.update(platform.as_bytes());
    h.update(b"\0");
    h.update(id.as_bytes());
    let digest = h.finalize();
    let hex: String = digest[..6].iter().map(|b| format!("{b:02x}")).collect();
    let safe: String = platform
        .chars()
        .filter(|c| c.is_ascii_alphanumeric())
        .collect();
    format!("{safe}-{hex}")
}

/// A secret for pseudonyms without a key, drawn from the ratings files' texts (in any order):
/// SHA-256 over the sorted SHA-256 of each, hex. The same files give the same report; anyone
/// without them cannot recompute a participant's pseudonym from their id.
pub fn salt(texts: &[&str]) -> String {
    let mut digests: Vec<[u8; 32]> = texts.iter().map(|t| Sha256::digest(t).into()).collect();
    digests.sort_unstable();
    let mut h = Sha256::new();
    h.update(b"juror/salt/v1\0");
    for d in &digests {
        h.update(d);
    }
    h.finalize().iter().map(|b| format!("{b:02x}")).collect()
}

/// The secret a key keeps for pseudonyms, derived from the secret its tokens were made with
/// (which is then thrown away): `SHA-256("juror/ids/v1" ‖ secret)`, hex.
pub fn ids_secret(secret: &[u8; 32]) -> String {
    let mut h = Sha256::new();
    h.update(b"juror/ids/v1\0");
    h.update(secret);
    h.finalize().iter().map(|b| format!("{b:02x}")).collect()
}

/// `name` with the participant's id (as it is, and as ratings file names write it: other
/// characters than letters, digits, `-` and `_` as `-`) replaced by `pseudonym`: the app names
/// a downloaded ratings file after the participant.
pub fn scrub_file_name(name: &str, id: &str, pseudonym: &str) -> String {
    if id.is_empty() {
        return name.to_owned();
    }
    let as_named: String = id
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '-'
            }
        })
        .collect();
    name.replace(id, pseudonym).replace(&as_named, pseudonym)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pseudonym_depends_on_the_secret_the_platform_and_the_id() {
        let p = pseudonym("s3cret", "prolific", "5f0c9a");
        assert!(
            p.starts_with("prolific-") && p.len() == "prolific-".len() + 12,
            "{p}"
        );
        assert_eq!(p, pseudonym("s3cret", "prolific", "5f0c9a"), "stable");
        assert_ne!(p, pseudonym("other", "prolific", "5f0c9a"));
        assert_ne!(p, pseudonym("s3cret", "mturk", "5f0c9a"));
        assert_ne!(p, pseudonym("s3cret", "prolific", "5f0c9b"));
        // Fixed, so that a report made today can be matched tomorrow.
        assert_eq!(
            pseudonym("", "prolific", "5f0c9a"),
            "prolific-".to_owned()
                + &{
                    let mut h = Sha256::new();
                    h.update(b"juror/pseudonym/v1\0\0prolific\x005f0c9a");
                    h.finalize()[..6]
                        .iter()
                        .map(|b| format!("{b:02x}"))
                        .collect::<String>()
                }
        );
    }

    #[test]
    fn file_names_lose_the_id() {
        assert_eq!(
            scrub_file_name(
                "in/juror-fin-5f0c-9a-2026-11-24.json",
                "5f0c/9a",
                "prolific-abc"
            ),
            "in/juror-fin-prolific-abc-2026-11-24.json"
        );
        assert_eq!(
            scrub_file_name("a-5f0c9a.json", "5f0c9a", "p-1"),
            "a-p-1.json"
        );
        assert_eq!(scrub_file_name("a.json", "", "p-1"), "a.json");
    }

    #[test]
    fn a_salt_depends_on_the_texts_not_their_order() {
        let s = salt(&["a", "b"]);
        assert_eq!(s.len(), 64);
        assert_eq!(s, salt(&["b", "a"]));
        assert_ne!(s, salt(&["a", "c"]));
        assert_ne!(s, salt(&["a"]));
    }

    #[test]
    fn the_ids_secret_is_not_the_token_secret() {
        let s = ids_secret(&[7; 32]);
        assert_eq!(s.len(), 64);
        assert_ne!(s, ids_secret(&[8; 32]));
    }
}
