//! What a valid study may still get wrong, said as warnings before it is served (`juror
//! validate` prints them; nothing refuses the study).
//!
//! A study with `submit` sends each finished ratings file to a service, and with `backups` the
//! answers so far every 10 trials, whether or not the participant finishes: participants must
//! be told, and a consent form that says nothing of it tells them otherwise. The rule is
//! deliberately simple, so that a researcher can predict it: the consent text, ignoring case,
//! must have a word that starts with `send`, `upload` or `transmit`, the word `sent`, or the
//! service's host name (`pipe.jspsych.org`); with `backups`, also a word that starts with
//! `backup` or `partial`, or the words `back up`. A study without a consent form is not
//! warned about: its welcome page is what says when answers are sent.
//!
//! A task that shows outputs in pairs and also rates them (dimensions or output questions) asks
//! for each output's ratings in every pair it is in: with three systems compared in all pairs,
//! each output is rated twice per item by the same annotator. Rating outputs one at a time
//! (`"presentation": "single"`) or all side by side, and comparing pairs for the preference
//! only (a second task with `"dimensions": []`), asks for each rating once.

use super::Study;

/// The starts of words that say answers are sent.
pub const SENDING_WORDS: &[&str] = &["send", "upload", "transmit"];

/// The starts of words that say answers are sent before the end.
pub const BACKUP_WORDS: &[&str] = &["backup", "back up", "partial"];

/// One thing to tell the researcher about a valid study.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Warning {
    /// The study sends answers to `host`, and its consent text does not say answers are sent.
    /// `backups`: answers are also sent before the end.
    SendingUnsaid { host: String, backups: bool },
    /// The consent text says answers are sent to `host`, but not that with `backups` the
    /// answers so far go every 10 trials, even if the participant stops.
    BackupsUnsaid { host: String },
    /// Task `task` shows outputs in pairs and rates them: an output of an item is rated in each
    /// of its pairs, up to `times` times by the same annotator; `trials` is the task's trials
    /// per annotator who rates every item (items × pairs).
    RatedInPairs {
        task: String,
        times: usize,
        trials: usize,
    },
    /// Neither the study nor its tasks give `estimated_minutes`: the welcome page cannot say how
    /// long the study takes (it never guesses), which a consent form and payment usually need.
    NoTimeEstimate,
    /// The analysis plan asks for output divergence across annotators, and no prompt is shared
    /// by personal items for different annotators: there is nothing to compute it on.
    DivergenceWithoutSharedPrompts,
    /// The analysis plan has slope hypotheses (`"kind": "slope"`, named here by their name or
    /// system A), and no item has a `round`: unless the ratings bring their own rounds (a CSV's
    /// `round` column), the report will have no slope to test them on.
    SlopeWithoutRounds { hypotheses: Vec<String> },
}

/// Every warning about `study`, in a fixed order.
pub fn warnings(study: &Study) -> Vec<Warning> {
    let mut found = Vec::new();
    if let (Some(submit), Some(consent)) = (study.submit(), study.consent()) {
        let host = host(&submit.url);
        let text = consent.text.plain().to_lowercase();
        let sending = SENDING_WORDS.iter().any(|w| has_word_starting(&text, w))
            || has_word(&text, "sent")
            || (!host.is_empty() && text.contains(&host));
        if !sending {
            found.push(Warning::SendingUnsaid {
                host,
                backups: submit.backups,
            });
        } else if submit.backups && !BACKUP_WORDS.iter().any(|w| has_word_starting(&text, w)) {
            found.push(Warning::BackupsUnsaid { host });
        }
    }
    let systems = study.systems().len();
    for (index, task) in study.design().tasks.iter().enumerate() {
        let rated = !task.dimensions.is_empty() || !task.output_questions.is_empty();
        if task.presentation != super::Presentation::Pairs || !rated {
            continue;
        }
        let (times, trials) = match &study.design().plans {
            // A published study's systems are every item's own tokens: its plans say how often
            // an output is shown, not the pairs of all its tokens.
            Some(plans) => rated_in_published_plans(plans, index),
            None => {
                let pairs = task.pairs.pairs(systems);
                // With `spread`, an annotator compares one pair of an item.
                let times = if task.spread {
                    1
                } else {
                    (0..systems)
                        .map(|s| pairs.iter().filter(|&&(a, b)| a == s || b == s).count())
                        .max()
                        .unwrap_or(0)
                };
                (times, task.items.len() * pairs.len())
            }
        };
        if times > 1 {
            found.push(Warning::RatedInPairs {
                task: task.id.clone(),
                times,
                trials,
            });
        }
    }
    if study.estimated_minutes().is_none() {
        found.push(Warning::NoTimeEstimate);
    }
    if study.analysis().is_some_and(|plan| plan.wants_divergence())
        && super::shared_prompts(study.items()).is_empty()
    {
        found.push(Warning::DivergenceWithoutSharedPrompts);
    }
    if study.items().iter().all(|i| i.round.is_none()) {
        let mut hypotheses: Vec<String> = Vec::new();
        let slopes = study
            .analysis()
            .map(|plan| plan.planned.as_slice())
            .unwrap_or_default();
        for t in slopes
            .iter()
            .filter(|t| t.kind == super::analysis_plan::HypothesisKind::Slope)
        {
            let name = t
                .name
                .clone()
                .unwrap_or_else(|| format!("the slope of \"{}\"", t.a));
            if !hypotheses.contains(&name) {
                hypotheses.push(name);
            }
        }
        if !hypotheses.is_empty() {
            found.push(Warning::SlopeWithoutRounds { hypotheses });
        }
    }
    found
}

/// The host of an address (`https://pipe.jspsych.org/api/data/` → `pipe.jspsych.org`), lower
/// case; empty when there is none.
fn host(url: &str) -> String {
    let origin = crate::base::url::origin(url).unwrap_or_default();
    let host = origin.split_once("://").map_or("", |(_, rest)| rest);
    // No port: `127.0.0.1:8080` is written `127.0.0.1` in a consent text.
    host.split(':').next().unwrap_or_default().to_lowercase()
}

/// Whether `text` has a word that starts with `start` (nothing alphanumeric before it).
fn has_word_starting(text: &str, start: &str) -> bool {
    text.match_indices(start).any(|(i, _)| {
        !text[..i]
            .chars()
            .next_back()
            .is_some_and(char::is_alphanumeric)
    })
}

/// Whether `text` has `word` as a whole word.
fn has_word(text: &str, word: &str) -> bool {
    text.match_indices(word).any(|(i, _)| {
        !text[..i]
            .chars()
            .next_back()
            .is_some_and(char::is_alphanumeric)
            && !text[i + word.len()..]
                .chars()
                .next()
                .is_some_and(char::is_alphanumeric)
    })
}

/// In a published study's plans, for the task at `task`: the most times one slot is shown the
/// same output of an item, and the most trials of the task one slot has.
fn rated_in_published_plans(plans: &[Vec<super::published::Trial>], task: usize) -> (usize, usize) {
    let mut times = 0;
    let mut trials = 0;
    for plan in plans {
        let mut shown: std::collections::HashMap<(usize, usize), usize> =
            std::collections::HashMap::new();
        let mut in_task = 0;
        for trial in plan.iter().filter(|t| t.task == task) {
            in_task += 1;
            for s in &trial.shown {
                *shown.entry((trial.item, s.system)).or_default() += 1;
            }
        }
        times = times.max(shown.values().copied().max().unwrap_or(0));
        trials = trials.max(in_task);
    }
    (times, trials)
}

#[cfg(test)]
mod tests {
    use super::{Warning, has_word, has_word_starting, host, warnings};

    /// Pairs of three systems with a rating scale rate each output twice per item; two
    /// systems, a spread anchor, or a preference-only pairs task rate each output at most once.
    #[test]
    fn outputs_rated_in_several_pairs_are_warned_about() {
        let study = |systems: &str, task: &str| {
            let text = format!(
                r#"{{"format": "juror.study/1", "id": "s", "title": "t", "seed": 1,
                "estimated_minutes": 5, "systems": {systems},
                "rubric": {{"dimensions": [{{"id": "d", "label": "D", "question": "?",
                  "scale": {{"min": 1, "max": 2, "points": [{{"value": 1, "label": "No"}},
                  {{"value": 2, "label": "Yes"}}]}}}}]}},
                "design": {{"tasks": [{task}]}},
                "items": [{{"id": "a", "prompt": "?", "outputs": {{"x": "1", "y": "2", "z": "3"}}}},
                          {{"id": "b", "prompt": "?", "outputs": {{"x": "1", "y": "2", "z": "3"}}}}]}}"#
            );
            crate::study::parse_study(&text).unwrap_or_else(|p| panic!("{p}"))
        };
        let three = r#"["x", "y", "z"]"#;
        let pairs = r#"{"id": "p", "presentation": "pairs"}"#;
        assert_eq!(
            warnings(&study(three, pairs)),
            [Warning::RatedInPairs {
                task: "p".into(),
                times: 2,
                trials: 6
            }]
        );
        let anchor = r#"{"id": "p", "presentation": "pairs", "pairs": {"anchor": "x"}}"#;
        assert_eq!(
            warnings(&study(three, anchor)),
            [Warning::RatedInPairs {
                task: "p".into(),
                times: 2,
                trials: 4
            }]
        );
        let preference_only = r#"{"id": "p", "presentation": "pairs", "dimensions": [],
            "preference": {"type": "choice"}}"#;
        assert_eq!(warnings(&study(three, preference_only)), []);
        let single = r#"{"id": "p", "presentation": "single"}"#;
        assert_eq!(warnings(&study(three, single)), []);
        let list = r#"{"id": "p", "presentation": "pairs", "pairs": {"list": [["x", "y"]]}}"#;
        assert_eq!(warnings(&study(three, list)), []);
    }

    #[test]
    fn words_are_matched_at_their_start() {
        assert!(has_word("answers are sent.", "sent"));
        assert!(!has_word("i give my consent", "sent"));
        assert!(has_word_starting("we upload them", "upload"));
        assert!(has_word_starting("uploaded", "upload"));
        assert!(!has_word_starting("reupload", "upload"));
        assert_eq!(
            host("https://pipe.jspsych.org/api/data/"),
            "pipe.jspsych.org"
        );
        assert_eq!(host("http://127.0.0.1:8080/in"), "127.0.0.1");
        assert_eq!(host("not an address"), "");
    }

    /// The bundled example study `name`, as written.
    fn example(name: &str) -> crate::study::RawStudy {
        let path = format!("{}/../../assets/studies/{name}", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(path).unwrap_or_default();
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{name}: {e}"))
    }

    /// The warnings of `raw`, which must be valid.
    fn warn(raw: &crate::study::RawStudy) -> Vec<Warning> {
        warnings(&crate::study::validate(raw).unwrap_or_else(|p| panic!("{p}")))
    }

    /// The example `hare-personalization.json` has a consent form that says nothing of sending:
    /// with `submit` it is warned about, with `backups` for the backups too, and a consent that
    /// says so is not.
    #[test]
    fn a_consent_silent_on_sending_is_warned_about() {
        let mut raw = example("hare-personalization.json");
        assert_eq!(warn(&raw), []);
        raw.submit = serde_json::from_value(serde_json::json!({
            "url": "https://pipe.jspsych.org/api/data/",
            "format": "datapipe",
            "experiment_id": "abc123",
            "backups": true
        }))
        .unwrap_or_else(|e| panic!("{e}"));
        let sending = Warning::SendingUnsaid {
            host: "pipe.jspsych.org".into(),
            backups: true,
        };
        assert_eq!(warn(&raw), [sending]);

        let consent = raw.consent.as_mut().map(|c| &mut c.text);
        let Some(consent) = consent else {
            panic!("the example has a consent form")
        };
        consent.push_str("\n\nYour answers are sent to the researchers when you finish.");
        let backups = Warning::BackupsUnsaid {
            host: "pipe.jspsych.org".into(),
        };
        assert_eq!(warn(&raw), [backups]);
        if let Some(c) = raw.consent.as_mut() {
            c.text
                .push_str(" A backup of your answers so far goes every 10 trials.");
        }
        assert_eq!(warn(&raw), []);

        // Naming the service is enough for the finished file; without a consent form, the
        // welcome page is what tells.
        if let Some(s) = raw.submit.as_mut() {
            s.backups = false;
        }
        if let Some(c) = raw.consent.as_mut() {
            c.text = "Files go to pipe.jspsych.org, then to our OSF project.".into();
        }
        assert_eq!(warn(&raw), []);
        if let Some(c) = raw.consent.as_mut() {
            c.text = "I agree to take part.".into();
        }
        assert_eq!(
            warn(&raw),
            [Warning::SendingUnsaid {
                host: "pipe.jspsych.org".into(),
                backups: false,
            }]
        );
        raw.consent = None;
        assert_eq!(warn(&raw), []);
    }

    /// A study that says nowhere how long it takes is told to; the example studies all do.
    #[test]
    fn a_study_without_a_time_estimate_is_warned_about() {
        let mut raw = example("pandalm.json");
        assert_eq!(warn(&raw), []);
        raw.estimated_minutes = None;
        for task in &mut raw.design.tasks {
            task.estimated_minutes = None;
        }
        assert_eq!(warn(&raw), [Warning::NoTimeEstimate]);
    }
}
