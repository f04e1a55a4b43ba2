//! Backups and final files: with `submit.backups` the page sends a copy of the ratings file
//! every few trials (`…-backup-N.json`) beside the final file, and a participant who changes an
//! answer on the finish page exports again. Of the ratings files of one annotator of one study
//! (the study's id; the annotator's id, else their slot), the one read is the complete file
//! exported last, or the file exported last when none is complete; the others are superseded
//! and not read. The choice depends on the files only, never on the order they are given in,
//! so that a revised answer is never displaced by a backup's and no trial is counted twice.

use std::collections::BTreeMap;

use crate::session::ratings::RatingsFile;

/// Who a file is from: the study's id, the platform's name and the annotator (id, else slot).
type Group<'f> = (&'f str, Option<&'f str>, String);

/// Which annotator of which study a file is from.
fn group(file: &RatingsFile) -> Group<'_> {
    let who = match &file.annotator.id {
        Some(id) if !id.is_empty() => format!("id {id}"),
        _ => format!("slot {}", file.annotator.slot),
    };
    let platform = file.annotator.platform.as_ref().map(|p| p.name.as_str());
    (file.study.id.as_str(), platform, who)
}

/// For each file (`None`: not a ratings file, or one that could not be used), the index of
/// the file of the same annotator that supersedes it, or `None` for the file to read.
pub(crate) fn superseded_by(files: &[Option<&RatingsFile>]) -> Vec<Option<usize>> {
    let mut groups: BTreeMap<Group<'_>, usize> = BTreeMap::new();
    for (index, file) in files.iter().enumerate() {
        let Some(file) = file else { continue };
        groups
            .entry(group(file))
            .and_modify(|best| {
                if files[*best].is_some_and(|b| later(file, b)) {
                    *best = index;
                }
            })
            .or_insert(index);
    }
    files
        .iter()
        .enumerate()
        .map(|(index, file)| {
            let best = *groups.get(&group(file.as_ref()?))?;
            (best != index).then_some(best)
        })
        .collect()
}

/// Whether `a` is to be read rather than `b`: complete first, then exported later, then more
/// trials finished, then (two exports of one instant) the larger checksum, so that the choice
/// never depends on the order of the files. A file given twice keeps its first place.
fn later(a: &RatingsFile, b: &RatingsFile) -> bool {
    let rank = |f: &RatingsFile| {
        let done = f.trials.iter().filter(|t| t.done).count();
        (f.complete, f.exported_at.clone(), done, f.sha256.clone())
    };
    rank(a) > rank(b)
}

/// Whether two files of one annotator come from one session (a backup and its final file
/// share when the session started), rather than from two sessions of the same id or slot.
pub(crate) fn same_session(a: &RatingsFile, b: &RatingsFile) -> bool {
    a.started_at == b.started_at
}
