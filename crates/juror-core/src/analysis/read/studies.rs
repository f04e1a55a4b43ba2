//! Which study ratings files belong to, said to a researcher.
//!
//! - One study at a time ([`mixed`]): every ratings file names its study (`study.id`). With a
//!   study file or a key, files of another study are left out one by one (the study or the
//!   key says which study is analysed). Without either, nothing says which study is meant, so
//!   when the files name more than one study every ratings file is left out, each with a
//!   problem that lists the studies and how many files name each, and says what to do (analyse
//!   one study at a time, or give the study file). Files of two studies are never merged.
//! - The study's version ([`belongs`]): a file made with another version of the study file
//!   (its `study.sha256`) is refused with what a researcher can do. The one case told apart is
//!   the study file the researcher wrote, given for ratings made with the copy `juror publish`
//!   wrote from it: same id, but the file's systems are the published copy's tokens and the
//!   study given names its systems.

use std::collections::BTreeMap;

use crate::publish::is_sealed;
use crate::session::Progress;
use crate::session::ratings::{ImportError, RatingsFile, restore};
use crate::study::Study;

/// For each ratings file (its study id; `None` for an input that is not a ratings file or
/// could not be read), why it is left out when the files name more than one study: `None`
/// for every file when they name one study (or none).
pub fn mixed(studies: &[Option<&str>]) -> Vec<Option<String>> {
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    for id in studies.iter().flatten() {
        *counts.entry(id).or_default() += 1;
    }
    if counts.len() < 2 {
        return vec![None; studies.len()];
    }
    let listed: Vec<String> = counts
        .iter()
        .map(|(id, n)| format!("\"{id}\" ({n} file{})", if *n == 1 { "" } else { "s" }))
        .collect();
    studies
        .iter()
        .map(|id| {
            id.map(|id| {
                format!(
                    "this file is for the study \"{id}\", but the ratings files given are for {} \
                     studies: {}; files of different studies are never analysed together, so \
                     none of them is read; analyse one study at a time (give only its files), \
                     or give the study file (`--study`, or the study file on the Analyse page) \
                     to read its files and leave the others out",
                    counts.len(),
                    listed.join(", ")
                )
            })
        })
        .collect()
}

/// [`restore`], with a researcher's reading of a study file of another version: the checks
/// `juror validate-ratings --study` and the analysis make.
///
/// # Errors
/// When the file belongs to another study or another version of it, or does not fit the plan.
pub fn belongs(study: &Study, hash: &str, file: &RatingsFile) -> Result<Progress, ImportError> {
    restore(study, hash, file).map_err(|e| {
        if e.at == "study.sha256" {
            ImportError {
                at: e.at,
                message: other_version(study, file),
            }
        } else {
            e
        }
    })
}

/// Why a file of this study's id but another version of its file is refused, and what to do.
fn other_version(study: &Study, file: &RatingsFile) -> String {
    let systems: Vec<String> = file
        .trials
        .iter()
        .flat_map(|t| t.outputs.iter().map(|o| o.system.clone()))
        .collect();
    let file_tokens = !systems.is_empty() && is_sealed(&systems);
    let study_tokens = study.design().plans.is_some() || is_sealed(study.systems());
    if file_tokens && !study_tokens {
        return "this study file is the original you wrote (it names its systems), but the \
                ratings were made with its published copy (their systems are tokens); check \
                them against the published copy, the file `juror publish` wrote into the site \
                (`<site>/studies/` and this file's name), and analyse them with it and the key \
                (`juror analyze --study <site>/studies/… --key <keys>/….key.json`)"
            .to_owned();
    }
    if study_tokens && !file_tokens && !systems.is_empty() {
        return "this study file is a published copy (its systems are tokens), but the ratings \
                were made with a study file that names its systems (the original, served \
                unpublished); check them against that original"
            .to_owned();
    }
    format!(
        "the ratings were made with another version of the study file \"{}\": the ratings \
         file records its SHA-256 as {}, and this study file's differs; the study file was \
         changed after the annotator opened it, or this is not the file that was served; check \
         them against the study file exactly as served to annotators (for a published study, \
         the copy `juror publish` wrote into the site); ratings made before a study was \
         published again are read with the copy and key of their version, in a report of \
         their own (`juror analyze --study OLD-COPY --key OLD-KEY`), or with the old key \
         alone (`juror analyze --key OLD-KEY`)",
        study.id(),
        short(&file.study.sha256)
    )
}

/// The first 12 hex digits of a SHA-256, enough to tell two versions apart.
fn short(hash: &str) -> String {
    let head: String = hash.chars().take(12).collect();
    if head.len() < hash.len() {
        format!("{head}…")
    } else {
        head
    }
}

#[cfg(test)]
mod tests {
    use super::mixed;

    #[test]
    fn one_study_or_none_leaves_every_file_in() {
        assert_eq!(mixed(&[Some("a"), None, Some("a")]), vec![None, None, None]);
        assert_eq!(mixed(&[None, None]), vec![None, None]);
        assert!(mixed(&[]).is_empty());
    }

    #[test]
    fn two_studies_leave_every_ratings_file_out_with_the_counts() {
        let got = mixed(&[Some("kitchen"), None, Some("finance"), Some("kitchen")]);
        assert!(got[1].is_none(), "a CSV names no study");
        for (i, id) in [(0, "kitchen"), (2, "finance"), (3, "kitchen")] {
            let m = got[i].as_deref().unwrap();
            assert!(
                m.starts_with(&format!("this file is for the study \"{id}\"")),
                "{m}"
            );
            assert!(
                m.contains("2 studies: \"finance\" (1 file), \"kitchen\" (2 files)"),
                "{m}"
            );
            assert!(m.contains("analyse one study at a time") && m.contains("`--study`"));
        }
    }
}
