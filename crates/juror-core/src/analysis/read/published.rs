//! Ratings of a published study given without its key, refused before anything is read.
//!
//! `juror publish` gives each item's outputs tokens of their own, so a ratings file of a
//! published study names no system: every output is `s-` and 12 hex digits, and no token is
//! seen on two items. Read without the key, each token would become a "system" rated on one
//! item, and the report would be long, slow and meaningless. So such files are refused with
//! one sentence that says what to give: the key `juror publish` wrote, and the published study.
//!
//! A study sealed by `juror seal` keeps one token per system across items: its files are still
//! analysed blind (the systems under their tokens), as before.

use std::collections::HashMap;

use serde::Deserialize;

use super::Context;
use crate::analysis::data::Input;
use crate::publish::is_sealed;

/// What a ratings file says about its outputs; the rest of the file is read later, if at all.
#[derive(Deserialize)]
struct Probe {
    study: ProbeStudy,
    #[serde(default)]
    trials: Vec<ProbeTrial>,
}

#[derive(Deserialize)]
struct ProbeStudy {
    id: String,
}

#[derive(Deserialize)]
struct ProbeTrial {
    item: String,
    #[serde(default)]
    outputs: Vec<ProbeOutput>,
}

#[derive(Deserialize)]
struct ProbeOutput {
    system: String,
}

/// The one sentence that refuses ratings files of a published study given without the key
/// (naming the first such file by its base name, and the study), or `None` when the inputs can be read.
///
/// A ratings file is of a published study when every output it shows is a token and either
/// the study given is a published one (it carries its plans) or no token of these files is
/// seen on two items (a study sealed by `juror seal` reuses each token on every item).
/// Files that cannot be parsed are left to the reader, which names their problems.
pub fn needs_key(inputs: &[Input<'_>], context: &Context) -> Option<String> {
    if context.key.is_some() {
        return None;
    }
    let mut sealed: Vec<(String, String)> = Vec::new();
    let mut items_of: HashMap<String, String> = HashMap::new();
    let mut shared = false;
    for input in inputs {
        if !input.text.trim_start().starts_with('{') {
            continue;
        }
        let Ok(probe) = serde_json::from_str::<Probe>(&input.text) else {
            continue;
        };
        let systems: Vec<String> = probe
            .trials
            .iter()
            .flat_map(|t| t.outputs.iter().map(|o| o.system.clone()))
            .collect();
        if systems.is_empty() || !is_sealed(&systems) {
            continue;
        }
        for trial in &probe.trials {
            for output in &trial.outputs {
                let item = items_of
                    .entry(output.system.clone())
                    .or_insert_with(|| trial.item.clone());
                shared |= *item != trial.item;
            }
        }
        sealed.push((super::base_name(&input.name), probe.study.id));
    }
    let published_study = context
        .study
        .is_some_and(|(study, _)| study.design().plans.is_some());
    let (first, study) = sealed.first()?;
    if shared && !published_study {
        return None;
    }
    // Files of several published studies: each study named with its files, to analyse apart.
    let mut by_study: Vec<(&str, Vec<&str>)> = Vec::new();
    for (name, id) in &sealed {
        match by_study.iter_mut().find(|(s, _)| s == id) {
            Some((_, names)) => names.push(name),
            None => by_study.push((id, vec![name])),
        }
    }
    if by_study.len() > 1 {
        let listed: Vec<String> = by_study
            .iter()
            .map(|(id, names)| format!("\"{id}\" ({})", names.join(", ")))
            .collect();
        return Some(format!(
            "these ratings are of {} published studies: {}; each names its outputs by tokens \
             of its own, so analyse each study apart, with its files, its key and its published \
             study",
            by_study.len(),
            listed.join("; ")
        ));
    }
    let others = match sealed.len() {
        1 => String::new(),
        2 => " (and 1 other ratings file)".to_owned(),
        n => format!(" (and {} other ratings files)", n - 1),
    };
    Some(format!(
        "{first}{others}: these ratings are of the published study \"{study}\", which names \
         each output by a token of its own, so nothing can be analysed without its key: give \
         the key that `juror publish` wrote (--key private/keys/<study file>.key.json; on the \
         Analyse page, \"Choose the key\") and the published study (--study; \"Choose the \
         study file\")."
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(study: &str, trials: &[(&str, &[&str])]) -> String {
        let trials: Vec<serde_json::Value> = trials
            .iter()
            .map(|(item, systems)| {
                let outputs: Vec<serde_json::Value> = systems
                    .iter()
                    .map(|s| serde_json::json!({ "system": s }))
                    .collect();
                serde_json::json!({ "item": item, "outputs": outputs })
            })
            .collect();
        serde_json::json!({ "study": { "id": study }, "trials": trials }).to_string()
    }

    /// UX walkthrough 2026-12-01, finding 27: files of two published studies are said to be
    /// of two studies, each with its files, not all of the first one's.
    #[test]
    fn files_of_two_published_studies_are_named_by_study() {
        let one = |study: &str| file(study, &[("egg", &["s-0123456789ab", "s-0123456789ac"])]);
        let inputs = [
            Input::new("a1.json", one("shop")),
            Input::new("b1.json", one("support")),
            Input::new("a2.json", one("shop")),
        ];
        let said = needs_key(&inputs, &Context::default()).unwrap();
        assert!(
            said.starts_with(
                "these ratings are of 2 published studies: \"shop\" (a1.json, a2.json); \"support\" (b1.json)"
            ),
            "{said}"
        );
    }

    #[test]
    fn tokens_of_their_own_per_item_need_the_key() {
        let text = file(
            "kitchen-qa",
            &[
                ("egg", &["s-0123456789ab", "s-0123456789ac"]),
                ("rice", &["s-0123456789ad", "s-0123456789ae"]),
            ],
        );
        let inputs = [
            Input::new("a.json", text.as_str()),
            Input::new("b.json", text.as_str()),
        ];
        let refusal = needs_key(&inputs, &Context::default()).unwrap_or_default();
        assert!(
            refusal.starts_with("a.json (and 1 other ratings file): "),
            "{refusal}"
        );
        assert!(refusal.contains("\"kitchen-qa\""), "{refusal}");
        assert!(refusal.contains("`juror publish`") && refusal.contains("--key"));
        assert_eq!(refusal.matches(". ").count(), 0, "one sentence: {refusal}");
    }

    #[test]
    fn named_systems_shared_tokens_and_unreadable_files_are_read() {
        let named = file("s", &[("egg", &["small-lm", "big-lm"])]);
        let shared = file(
            "s",
            &[
                ("egg", &["s-0123456789ab", "s-0123456789ac"]),
                ("rice", &["s-0123456789ab", "s-0123456789ac"]),
            ],
        );
        for text in [named.as_str(), shared.as_str(), "{ not json", "a,b\n1,2\n"] {
            assert_eq!(
                needs_key(&[Input::new("f", text)], &Context::default()),
                None,
                "{text}"
            );
        }
    }
}
