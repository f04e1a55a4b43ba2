//! SHA-256 as lowercase hex: the one digest Juror writes into files and storage keys (a study
//! file's hash names its saved answers, a ratings file carries its checksum, a plan its
//! fingerprint). Kept at the base so that every layer hashes the same way.

use sha2::{Digest, Sha256};

/// SHA-256 of any text, lowercase hex (used for the study file as loaded).
pub fn sha256_hex(text: &str) -> String {
    sha256_hex_of(&[text])
}

/// SHA-256 of texts one after the other (as of their concatenation), lowercase hex.
pub fn sha256_hex_of(texts: &[&str]) -> String {
    let mut hasher = Sha256::new();
    for text in texts {
        hasher.update(text.as_bytes());
    }
    hasher
        .finalize()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}
