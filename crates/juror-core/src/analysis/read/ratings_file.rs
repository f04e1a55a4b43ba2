//! Ratings files (`juror.ratings/1`): checked against the study and the key, then each finished
//! trial's ratings, pairwise judgements, choices and answers become rows. A file that cannot be
//! trusted as a whole (unreadable, of another study, with a token the key does not have) is left
//! out with one problem; a trial whose preference does not fit its outputs loses only that.

use std::collections::BTreeMap;

use crate::analysis::data::{
    AnswerRow, At, ChoiceRow, Data, FileSummary, Input, InputKind, Name, Names, Phase,
    PreferenceRow, Problem, RatingRow, SkipRow, Source, SpanRow, TrialRow, number, outcome,
};
use crate::base::pseudonym;
use crate::publish::SealKey;
use crate::session::answers::{Answer, CANNOT_JUDGE};
use crate::session::ratings::{self, OutputRecord, PreferenceRecord, RatingsFile, TrialRecord};
use crate::stats::preference::Outcome;
use crate::study::{AttentionCheck, Study};

use super::Context;

/// A ratings file opened: parsed, checked against the study and the key, with the name and
/// the annotator the report shows for it.
pub(crate) struct Opened<'k> {
    pub file: RatingsFile,
    pub rename: Rename<'k>,
    /// The file's base name, the participant's id replaced by their pseudonym.
    pub name: String,
    /// `annotator.id`, else `slot<N>`; a platform's participant under a pseudonym unless the
    /// ids are revealed.
    pub annotator: String,
}

/// Reads one opened ratings file into `data`: its answers, then each finished trial.
pub(crate) fn read(
    opened: Opened<'_>,
    index: usize,
    context: &Context,
    names: &mut Names,
    data: &mut Data,
    summary: &mut FileSummary,
) {
    let Opened {
        file,
        rename,
        name,
        annotator,
    } = opened;
    summary.kind = InputKind::RatingsFile;
    let file_name = names.get(&name);
    let source = |at: String| Source {
        file: file_name.clone(),
        at: At::Path(at.into_boxed_str()),
        input: index,
    };
    data.answers.extend(rows_of_file(
        &file,
        &annotator,
        &|s: &str| rename(s),
        &|at: String| source(at),
        &|t: usize| {
            file.trials
                .get(t)
                .is_none_or(|x| !x.done || is_check(x, context.key))
        },
    ));
    let reader = TrialReader {
        name: &name,
        annotator: &annotator,
        annotator_name: names.get(&annotator),
        context,
        rename: &rename,
        source: &source,
    };
    for (t, trial) in file.trials.iter().enumerate() {
        if !trial.done {
            summary.unfinished_trials += 1;
            continue;
        }
        // A published study does not say which items are checks; its key does.
        let check = is_check(trial, context.key);
        data.trials.push(reader.trial_row(trial, check));
        if check {
            summary.check_trials += 1;
            continue;
        }
        reader.ratings(t, trial, names, data);
        reader.spans(t, trial, names, data);
        reader.judgements(t, trial, names, data);
    }
}

/// Whether a trial is an attention check: the file says so, or (a published study does not)
/// the key does.
pub(crate) fn is_check(trial: &TrialRecord, key: Option<&SealKey>) -> bool {
    trial.check || key.is_some_and(|k| k.attention_check(&trial.item).is_some())
}

/// The file parsed, checked against the study, with the map from its systems to system ids
/// and the name and annotator the report shows; or the one problem that leaves it out, named
/// without the participant's id. `secret` keys platform participants' pseudonyms (ignored
/// when the ids are revealed).
pub(crate) fn open<'k>(
    input: &Input<'_>,
    index: usize,
    context: &Context<'k>,
    secret: &str,
) -> Result<Opened<'k>, Problem> {
    let file = ratings::parse(&input.text).map_err(|e| {
        let name = unparsed_name(&input.name, index, context);
        Problem::new(&name, Some(e.at), e.message)
    })?;
    let (name, annotator) = annotator(&file, &input.name, context, secret);
    let problem = |at: &str, message: String| Problem::new(&name, Some(at.to_owned()), message);
    if file.preview {
        return Err(problem(
            "preview",
            "a researcher's preview run, not an annotator's: left out".to_owned(),
        ));
    }
    if let Some((study, hash)) = context.study
        && let Err(e) = super::studies::belongs(study, hash, &file)
    {
        return Err(problem(
            &e.at,
            format!("{}; the file is left out", e.message),
        ));
    }
    let rename = resolver(&file, context.key).map_err(|(at, message)| problem(&at, message))?;
    Ok(Opened {
        file,
        rename,
        name,
        annotator,
    })
}

/// The name of a file that does not parse, whose annotator is therefore unknown: the app
/// names a ratings file `juror-<study>-<participant>-<date>…`, so the participant's part
/// becomes `file<N>` (N: the input's place, from 1) where the study is known (the study's or
/// the key's), and the whole name `file <N>` otherwise. Other names are kept.
pub(crate) fn unparsed_name(name: &str, index: usize, context: &Context) -> String {
    let Some(rest) = name.strip_prefix("juror-") else {
        return name.to_owned();
    };
    let n = index + 1;
    let studies = context
        .study
        .map(|(s, _)| s.id())
        .into_iter()
        .chain(context.key.map(|k| k.study.as_str()));
    for study in studies {
        let safe = crate::session::ratings::file_name_part(study);
        let Some(after) = rest
            .strip_prefix(safe.as_str())
            .and_then(|r| r.strip_prefix('-'))
        else {
            continue;
        };
        if let Some(date) = date_at(after) {
            return format!("juror-{safe}-file{n}-{}", &after[date..]);
        }
    }
    format!("file {n}")
}

/// Where, in the rest of a file name after `juror-<study>-`, the date part starts
/// (`YYYY-MM-DD` or `undated`, after the participant's part and a `-`).
fn date_at(rest: &str) -> Option<usize> {
    let bytes = rest.as_bytes();
    (1..rest.len()).find(|&i| {
        bytes[i - 1] == b'-'
            && (rest[i..].starts_with("undated")
                || bytes.get(i..i + 10).is_some_and(|d| {
                    d.iter().enumerate().all(|(j, c)| match j {
                        4 | 7 => *c == b'-',
                        _ => c.is_ascii_digit(),
                    })
                }))
    })
}

/// The file's name and annotator as the report shows them: `annotator.id`, else `slot<N>`; a
/// platform's participant under a pseudonym keyed with `secret` (also put in place of the id
/// in the file name) unless the ids are revealed.
fn annotator(file: &RatingsFile, name: &str, context: &Context, secret: &str) -> (String, String) {
    let mut annotator = match &file.annotator.id {
        Some(id) if !id.is_empty() => id.clone(),
        _ => format!("slot{}", file.annotator.slot),
    };
    let mut name = name.to_owned();
    if let Some(platform) = &file.annotator.platform
        && let Some(id) = &file.annotator.id
    {
        if context.reveal_ids {
            annotator = platform_id(id, &platform.name);
        } else {
            let alias = pseudonym::pseudonym(secret, &platform.name, id);
            name = pseudonym::scrub_file_name(&name, id, &alias);
            annotator = alias;
        }
    }
    (name, annotator)
}

/// A participant's id as their platform writes it: Juror keeps ids in lower case
/// (`participant_code`), and MTurk's worker ids are upper case on MTurk (its batch results,
/// its approvals), so they are written upper case again; the other platforms' as kept.
pub(crate) fn platform_id(id: &str, platform: &str) -> String {
    if platform == "mturk" {
        id.to_ascii_uppercase()
    } else {
        id.to_owned()
    }
}

/// What the rows of one file's trials share: its name, annotator, context and renaming.
struct TrialReader<'r, 'k> {
    name: &'r str,
    annotator: &'r str,
    annotator_name: Name,
    context: &'r Context<'k>,
    rename: &'r Rename<'k>,
    source: &'r dyn Fn(String) -> Source,
}

impl TrialReader<'_, '_> {
    /// The trial for the diagnostics, with its attention check evaluated when the study is given.
    fn trial_row(&self, trial: &TrialRecord, check: bool) -> TrialRow {
        let study = self.context.study.map(|(s, _)| s);
        TrialRow {
            file: self.name.to_owned(),
            annotator: self.annotator.to_owned(),
            item: trial.item.clone(),
            task: trial.task.clone(),
            check,
            passed: study
                .filter(|_| check)
                .and_then(|s| check_passed(s, self.context.key, trial, self.rename)),
            active_ms: trial.active_ms,
            outputs: trial.outputs.len(),
        }
    }

    /// Every rating of the trial's outputs, each with its position when two or more were shown;
    /// every "Cannot judge" of a dimension or a per-output question as a skip row (in no mean).
    fn ratings(&self, t: usize, trial: &TrialRecord, names: &mut Names, data: &mut Data) {
        let shown = trial.outputs.len();
        for (o, output) in trial.outputs.iter().enumerate() {
            let skipped_questions = output
                .answers
                .iter()
                .filter(|(_, a)| **a == Answer::CannotJudge)
                .map(|(q, _)| (q, format!("answers.{q}")));
            let skipped = output
                .cannot_judge
                .iter()
                .enumerate()
                // A score wins over a skip of the same dimension, and a dimension listed twice
                // is one skip.
                .filter(|&(i, d)| {
                    !output.ratings.contains_key(d) && !output.cannot_judge[..i].contains(d)
                })
                .map(|(_, d)| (d, format!("cannot_judge.{d}")))
                .chain(skipped_questions);
            for (question, at) in skipped {
                data.skips.push(SkipRow {
                    source: (self.source)(format!("trials[{t}].outputs[{o}].{at}")),
                    item: names.get(&trial.item),
                    annotator: self.annotator_name.clone(),
                    question: names.get(question),
                    systems: vec![names.get(&(self.rename)(&output.system))],
                });
            }
            for (dimension, &score) in &output.ratings {
                data.ratings.push(RatingRow {
                    source: (self.source)(format!("trials[{t}].outputs[{o}].ratings.{dimension}")),
                    item: names.get(&trial.item),
                    system: names.get(&(self.rename)(&output.system)),
                    annotator: self.annotator_name.clone(),
                    dimension: names.get(dimension),
                    score: f64::from(score),
                    round: None,
                    position: (shown >= 2).then(|| u32::try_from(o + 1).unwrap_or(u32::MAX)),
                    run: None,
                    confidence: None,
                });
            }
        }
    }

    /// The errors marked in the trial's outputs: one row per error, or one row without a span
    /// or severity for an output the annotator found without errors; an output with neither
    /// (not asked, or not answered) gives no row. The length is the file's (the output's length
    /// in code points, which the page writes for a task that asks for spans).
    fn spans(&self, t: usize, trial: &TrialRecord, names: &mut Names, data: &mut Data) {
        for (o, output) in trial.outputs.iter().enumerate() {
            if output.spans.is_empty() && !output.no_errors {
                continue;
            }
            let at = format!("trials[{t}].outputs[{o}]");
            let Some(length) = output.length else {
                data.problems.push(Problem::new(
                    self.name,
                    Some(format!("{at}.length")),
                    "errors are marked but the output's length is missing; the marks are left \
                     out (export the file again from the page)",
                ));
                continue;
            };
            let item = names.get(&trial.item);
            let system = names.get(&(self.rename)(&output.system));
            let row = |at: String, span: Option<&crate::session::answers::ErrorSpan>| SpanRow {
                source: (self.source)(at),
                item: item.clone(),
                system: system.clone(),
                annotator: self.annotator_name.clone(),
                start: span.and_then(|s| s.start),
                end: span.and_then(|s| s.end),
                severity: span.map(|s| s.severity),
                category: span.and_then(|s| s.category.clone()),
                length,
            };
            if output.spans.is_empty() {
                data.spans.push(row(format!("{at}.no_errors"), None));
            }
            for (k, span) in output.spans.iter().enumerate() {
                if let Some((start, end)) = span.range()
                    && (start >= end || end > length)
                {
                    data.problems.push(Problem::new(
                        self.name,
                        Some(format!("{at}.spans[{k}]")),
                        format!(
                            "the span {start}-{end} is not inside the output's {length} \
                             characters; it is left out"
                        ),
                    ));
                    continue;
                }
                data.spans.push(row(format!("{at}.spans[{k}]"), Some(span)));
            }
        }
    }

    /// The trial's preference: a best-of-N choice or a ranking as made, and every pairwise
    /// judgement it implies; a preference that does not fit the outputs is a problem.
    fn judgements(&self, t: usize, trial: &TrialRecord, names: &mut Names, data: &mut Data) {
        let at = format!("trials[{t}].preference");
        let judgements = match preference_pairs(trial.preference.as_ref(), &trial.outputs) {
            Ok(j) => j,
            Err(message) => {
                data.problems
                    .push(Problem::new(self.name, Some(at), message));
                return;
            }
        };
        let rename = self.rename;
        let system = |o: &OutputRecord| rename(&o.system);
        let shown = trial.outputs.len();
        let choice = trial
            .preference
            .as_ref()
            .and_then(|p| p.chosen(shown, |s| rename(s)));
        let derived = choice.is_some();
        if let Some(kind) = choice {
            data.choices.push(ChoiceRow {
                source: (self.source)(at.clone()),
                item: trial.item.clone(),
                annotator: self.annotator.to_owned(),
                shown: trial.outputs.iter().map(system).collect(),
                kind,
            });
        }
        if let Some(PreferenceRecord::CannotJudge) = &trial.preference {
            data.skips.push(SkipRow {
                source: (self.source)(at.clone()),
                item: names.get(&trial.item),
                annotator: self.annotator_name.clone(),
                question: Name::from("preference"),
                systems: trial
                    .outputs
                    .iter()
                    .map(|o| names.get(&system(o)))
                    .collect(),
            });
        }
        let grade = trial.preference.as_ref().and_then(PreferenceRecord::grade);
        for (a, b, outcome) in judgements {
            data.preferences.push(PreferenceRow {
                source: (self.source)(at.clone()),
                item: names.get(&trial.item),
                system_a: names.get(&system(&trial.outputs[a])),
                system_b: names.get(&system(&trial.outputs[b])),
                annotator: self.annotator_name.clone(),
                outcome,
                a_first: Some(true),
                derived,
                run: None,
                confidence: None,
                grade,
            });
        }
    }
}

/// Whether an attention-check trial's answer is one the study accepts: the rating of the
/// checked system on the checked dimension, or the preferred system (the best, the chosen, or
/// the first of a ranking; a tie is not a choice). `None` when there is no check for the item,
/// or the check is a rating of a system this trial did not show (another trial of the item
/// shows it), or the study leaves its answers to a key that was not given.
///
/// A check of the study names systems as the file does (both sealed, or both not); a check of
/// the key (a study written by `juror publish` serves none) names the original systems, which
/// the file's tokens are renamed to.
pub(crate) fn check_passed(
    study: &Study,
    key: Option<&SealKey>,
    trial: &TrialRecord,
    rename: &Rename<'_>,
) -> Option<bool> {
    let own = |name: &str| name.to_owned();
    let (check, names): (AttentionCheck, &dyn Fn(&str) -> String) = match (
        study
            .design()
            .attention_checks
            .iter()
            .find(|c| c.item() == trial.item),
        key.and_then(|k| k.attention_check(&trial.item)),
    ) {
        (Some(c), _) if c.has_answers() => (c.clone(), &own),
        (_, Some(kept)) => (AttentionCheck::from(kept), rename),
        _ => return None,
    };
    match check {
        AttentionCheck::Rating {
            system,
            dimension,
            accept,
            ..
        } => {
            let accept = accept?;
            let output = trial.outputs.iter().find(|o| names(&o.system) == system)?;
            Some(
                output
                    .ratings
                    .get(&dimension)
                    .is_some_and(|score| accept.contains(score)),
            )
        }
        AttentionCheck::Preference { accept, .. } => {
            let accept = accept?;
            let chosen = trial
                .preference
                .as_ref()
                .and_then(PreferenceRecord::preferred_system)
                .map(names);
            Some(chosen.is_some_and(|c| accept.contains(&c)))
        }
    }
}

pub(crate) type Rename<'k> = Box<dyn Fn(&str) -> String + 'k>;

/// The map from the file's system names to system ids: the key's, after checking that every
/// system of the file is one of its tokens, else the identity.
fn resolver<'k>(
    file: &RatingsFile,
    key: Option<&'k SealKey>,
) -> Result<Rename<'k>, (String, String)> {
    let Some(key) = key else {
        return Ok(Box::new(str::to_owned));
    };
    if key.study != file.study.id {
        return Err((
            "study.id".into(),
            format!(
                "this file is for the study \"{}\", but the key is for \"{}\"; give the key \
                 written by `juror publish` for this study; the file is left out",
                file.study.id, key.study
            ),
        ));
    }
    for (t, trial) in file.trials.iter().enumerate() {
        for (o, output) in trial.outputs.iter().enumerate() {
            if !key.systems.contains_key(&output.system) {
                return Err((
                    format!("trials[{t}].outputs[{o}].system"),
                    format!(
                        "\"{}\" is not a token of the key (its tokens: {}); the file and the \
                         key do not belong together; the file is left out",
                        output.system,
                        list(key.systems.keys())
                    ),
                ));
            }
        }
    }
    Ok(Box::new(move |token: &str| {
        key.systems
            .get(token)
            .cloned()
            .unwrap_or_else(|| token.to_owned())
    }))
}

fn list<'a>(names: impl Iterator<Item = &'a String>) -> String {
    let names: Vec<String> = names.map(|n| format!("\"{n}\"")).collect();
    names.join(", ")
}

/// The pairwise judgements of a trial's preference ([`PreferenceRecord::pairwise`]).
fn preference_pairs(
    preference: Option<&PreferenceRecord>,
    outputs: &[OutputRecord],
) -> Result<Vec<(usize, usize, Outcome)>, String> {
    let Some(preference) = preference else {
        return Ok(Vec::new());
    };
    let systems: Vec<&str> = outputs.iter().map(|o| o.system.as_str()).collect();
    Ok(preference
        .pairwise(&systems)?
        .into_iter()
        .map(|(a, b, o)| (a, b, outcome(o)))
        .collect())
}

/// The answers of one ratings file: `rename` turns a system (or token) into its id, `annotator`
/// is the file's annotator, `skip` says which trials to leave out (unfinished, attention
/// checks).
pub(crate) fn rows_of_file(
    file: &RatingsFile,
    annotator: &str,
    rename: &dyn Fn(&str) -> String,
    source: &dyn Fn(String) -> Source,
    skip: &dyn Fn(usize) -> bool,
) -> Vec<AnswerRow> {
    let mut out = Vec::new();
    let row = |phase, question: &str, item: Option<&str>, system: Option<String>, value: String| {
        AnswerRow {
            source: source(String::new()),
            annotator: annotator.to_owned(),
            phase,
            question: question.to_owned(),
            item: item.map(str::to_owned),
            system,
            value,
            rank: None,
        }
    };
    // The annotator's letters, to turn an exit ranking of systems back into systems.
    let mut letters: BTreeMap<&str, Option<String>> = BTreeMap::new();
    for trial in &file.trials {
        for o in &trial.outputs {
            let system = rename(&o.system);
            letters
                .entry(o.label.as_str())
                .and_modify(|s| {
                    if s.as_deref() != Some(system.as_str()) {
                        *s = None;
                    }
                })
                .or_insert(Some(system));
        }
    }
    for (phase, answers, at) in [
        (Phase::Intake, &file.intake, "intake"),
        (Phase::Exit, &file.exit, "exit"),
    ] {
        for (question, answer) in answers {
            let here = |mut r: AnswerRow| {
                r.source = source(format!("{at}.{question}"));
                r
            };
            match answer {
                Answer::Rank(order) => {
                    for (i, label) in order.iter().enumerate() {
                        let system = letters.get(label.as_str()).cloned().flatten();
                        let mut r = match system {
                            Some(s) => row(phase, question, None, Some(s), String::new()),
                            None => row(phase, question, None, None, label.clone()),
                        };
                        r.rank = Some(i + 1);
                        out.push(here(r));
                    }
                }
                other => {
                    for value in values(other) {
                        out.push(here(row(phase, question, None, None, value)));
                    }
                }
            }
        }
    }
    for (t, trial) in file.trials.iter().enumerate() {
        if skip(t) {
            continue;
        }
        let item = Some(trial.item.as_str());
        for (o, output) in trial.outputs.iter().enumerate() {
            let system = rename(&output.system);
            for (question, answer) in &output.answers {
                for value in values(answer) {
                    let mut r = row(Phase::Output, question, item, Some(system.clone()), value);
                    r.source = source(format!("trials[{t}].outputs[{o}].answers.{question}"));
                    out.push(r);
                }
            }
            let mut r = row(
                Phase::Output,
                "flag",
                item,
                Some(system.clone()),
                if output.flagged { "1" } else { "0" }.to_owned(),
            );
            r.source = source(format!("trials[{t}].outputs[{o}].flagged"));
            out.push(r);
        }
        for (question, text) in [("notes", &trial.notes), ("explanation", &trial.explanation)] {
            if !text.trim().is_empty() {
                let mut r = row(Phase::Trial, question, item, None, text.clone());
                r.source = source(format!("trials[{t}].{question}"));
                out.push(r);
            }
        }
    }
    out
}

/// The values of an answer, one per row.
fn values(answer: &Answer) -> Vec<String> {
    match answer {
        Answer::Scale(v) => vec![v.to_string()],
        Answer::Choice(c) => vec![c.clone()],
        Answer::Choices(cs) => cs.clone(),
        Answer::Text(t) => vec![t.clone()],
        Answer::Number(x) => vec![number(*x)],
        Answer::Rank(order) => order.clone(),
        Answer::CannotJudge => vec![CANNOT_JUDGE.to_owned()],
    }
}
