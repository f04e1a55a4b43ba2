//! Building a study from a file of model outputs and a template (`juror prepare`). It stands
//! above the plan because the study it builds must pass the whole check of [`crate::front::open`],
//! including every slot having something to rate.
//!
//! The outputs come as JSON Lines in one of two shapes, detected per file:
//! - one line per item: `{"id", "prompt", "group"?, "groups"?, "round"?, "context"?, "media"?,
//!   "outputs": {"system": "text", ...}}` (the fields of a study item);
//! - one line per output ("long"): `{"item_id", "system_id", <text field>, ...}`, as in many
//!   published datasets; the text field is named by [`Options::text_field`], an optional
//!   context field by [`Options::context_field`], the prompt by `prompt` in the line or
//!   [`Options::prompt`], and `group`, `groups`, `round` and `media` as in a study item (the first line
//!   of an item gives them); other fields are ignored.
//!
//! Items are sampled with Juror's specified random stream ([`crate::base::rng`]), so the same inputs, options and
//! seed give the same study, byte for byte.

use std::collections::BTreeMap;

use serde_json::Value;

use crate::base::problem::{Problem, Problems};
use crate::base::rng::Stream;
use crate::front::open::open_raw;
use crate::study::raw::{RawAnnotatorRef, RawItem, RawMedia, RawStudy};

/// How to build the study.
#[derive(Debug, Clone)]
pub struct Options {
    /// How many items to sample (all eligible items if fewer).
    pub n: usize,
    /// The sampling seed.
    pub seed: u64,
    /// Sample each stratum in proportion to its size (largest remainders round): the strata
    /// are the combinations of the items' groups in these groupings (`"group"` for the item's
    /// `group`, any other name one of its `groups`). Empty: a simple random sample.
    pub stratify: Vec<String>,
    /// With `stratify`: the same number of items from every stratum (25/25/25 for 75 over
    /// three), a stratum too small giving all it has and the rest shared among the others,
    /// instead of numbers in proportion to the strata's sizes.
    pub equal: bool,
    /// Long shape: the field holding an output's text.
    pub text_field: String,
    /// Long shape: a field shown as the item's context (e.g. a reference), if any.
    pub context_field: Option<String>,
    /// Long shape: the prompt when lines carry none.
    pub prompt: Option<String>,
    /// Long shape: a field naming the participant an output was generated for (outputs
    /// personalised to each participant). Each (item, participant) becomes a personal item `ITEM-PARTICIPANT`
    /// with `for: [PARTICIPANT]` (a whole number is a slot, anything else an annotator id).
    pub participant_field: Option<String>,
}

/// What happened, for the command's summary.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Summary {
    /// Items read.
    pub read: usize,
    /// Items with an output for every system of the study.
    pub eligible: usize,
    /// Items in the study.
    pub sampled: usize,
}

fn problem(line: usize, message: impl Into<String>, fix: impl Into<String>) -> Problem {
    Problem {
        at: format!("line {line}"),
        message: message.into(),
        fix: fix.into(),
    }
}

/// Reads the JSON Lines of outputs into items, in first-seen order.
///
/// # Errors
/// Every bad line, with its number.
pub fn read_items(jsonl: &str, options: &Options) -> Result<Vec<RawItem>, Problems> {
    let mut problems = Vec::new();
    let mut items: Vec<RawItem> = Vec::new();
    let mut index: BTreeMap<String, usize> = BTreeMap::new();
    for (i, line) in jsonl.lines().enumerate() {
        let number = i + 1;
        if line.trim().is_empty() {
            continue;
        }
        let value: Value = match serde_json::from_str(line) {
            Ok(v) => v,
            Err(e) => {
                problems.push(problem(
                    number,
                    format!("not JSON: {e}"),
                    "each line must be one JSON object",
                ));
                continue;
            }
        };
        let long = value.get("item_id").is_some() && value.get("system_id").is_some();
        if !long {
            match serde_json::from_value::<RawItem>(value) {
                Ok(item) => {
                    if index.insert(item.id.clone(), items.len()).is_some() {
                        problems.push(problem(
                            number,
                            format!("item \"{}\" appears twice", item.id),
                            "give each line its own id",
                        ));
                    } else {
                        items.push(item);
                    }
                }
                Err(e) => problems.push(problem(
                    number,
                    format!("not an item: {e}"),
                    "give id, prompt and outputs, or item_id, system_id and the text field",
                )),
            }
            continue;
        }
        let LongLine { item, system, text } = match long_line(number, &value, options) {
            Ok(line) => line,
            Err(p) => {
                problems.push(p);
                continue;
            }
        };
        let item_id = item.id.clone();
        let k = *index.entry(item_id.clone()).or_insert_with(|| {
            items.push(item);
            items.len() - 1
        });
        if items[k].outputs.insert(system.clone(), text).is_some() {
            problems.push(problem(
                number,
                format!("a second output of system \"{system}\" for item \"{item_id}\""),
                "keep one line per item and system",
            ));
        }
    }
    if problems.is_empty() {
        Ok(items)
    } else {
        Err(Problems(problems))
    }
}

/// A long line's output: the item it belongs to (its outputs left empty; the first line of an
/// item gives its fields), the system and the text.
struct LongLine {
    item: RawItem,
    system: String,
    text: String,
}

/// Reads a long line (`item_id`, `system_id`, the text field, ...), or says its first problem.
fn long_line(number: usize, value: &Value, options: &Options) -> Result<LongLine, Problem> {
    let text_of = |v: &Value| match v {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    };
    let (Some(item_id), Some(system)) = (text_of(&value["item_id"]), text_of(&value["system_id"]))
    else {
        return Err(problem(
            number,
            "item_id and system_id must be strings or numbers",
            "fix the line",
        ));
    };
    let Some(text) = value.get(&options.text_field).and_then(Value::as_str) else {
        return Err(problem(
            number,
            format!("no text field \"{}\"", options.text_field),
            "name the field holding the output with --text-field",
        ));
    };
    let prompt = value
        .get("prompt")
        .and_then(Value::as_str)
        .map(str::to_owned)
        .or_else(|| options.prompt.clone());
    let Some(prompt) = prompt else {
        return Err(problem(
            number,
            "no prompt in the line",
            "add a \"prompt\" field or give one for all items with --prompt",
        ));
    };
    let context = options
        .context_field
        .as_ref()
        .and_then(|f| value.get(f))
        .and_then(Value::as_str)
        .map(str::to_owned);
    let group = value.get("group").and_then(text_of);
    let groups: BTreeMap<String, String> = match value.get("groups") {
        None | Some(Value::Null) => BTreeMap::new(),
        Some(v) => match serde_json::from_value(v.clone()) {
            Ok(g) => g,
            Err(_) => {
                return Err(problem(
                    number,
                    "\"groups\" is not an object of names and groups",
                    "give groups as {\"task_type\": \"routing\", \"repository\": \"airflow\"}",
                ));
            }
        },
    };
    // The item fields a long line may carry too: its round and its image or video.
    let round = match value.get("round") {
        None | Some(Value::Null) => None,
        Some(v) => match v.as_u64().and_then(|r| u32::try_from(r).ok()) {
            Some(r) => Some(r),
            None => {
                return Err(problem(
                    number,
                    format!("round {v} is not a whole number ≥ 0"),
                    "give the round as a number like 2",
                ));
            }
        },
    };
    let media = match value.get("media") {
        None | Some(Value::Null) => None,
        Some(v) => match serde_json::from_value::<RawMedia>(v.clone()) {
            Ok(m) => Some(m),
            Err(e) => {
                return Err(problem(
                    number,
                    format!("not a media object: {e}"),
                    "give media as {\"type\": \"image\", \"src\": \"media/x.png\", \"alt\": \"…\"}",
                ));
            }
        },
    };
    let participant = match &options.participant_field {
        None => None,
        Some(field) => match value.get(field).and_then(text_of) {
            Some(p) if !p.trim().is_empty() => Some(p),
            _ => {
                return Err(problem(
                    number,
                    format!("no participant in field \"{field}\""),
                    "give every line the participant its output was generated for",
                ));
            }
        },
    };
    let for_annotators: Vec<RawAnnotatorRef> = participant
        .iter()
        .map(|p| match p.parse::<u32>() {
            Ok(slot) => RawAnnotatorRef::Slot(slot),
            Err(_) => RawAnnotatorRef::Id(p.clone()),
        })
        .collect();
    let item_id = match &participant {
        Some(p) => format!("{item_id}-{p}"),
        None => item_id,
    };
    Ok(LongLine {
        item: RawItem {
            id: item_id,
            group,
            groups,
            round,
            prompt,
            context,
            media,
            outputs: BTreeMap::new(),
            for_annotators,
        },
        system,
        text: text.to_owned(),
    })
}

/// Builds a study: the template's text, rubric and design, with `n` items sampled from `items`
/// among those that have an output for every one of the template's systems (or, when the
/// template lists none, of every system seen in the outputs). The built study is validated, its
/// `analysis` section read by `plan` when given (the researcher's `analysis::plan_reader::READER`).
///
/// # Errors
/// No eligible item, or the built study does not validate (with the template's paths).
pub fn build(
    template: &RawStudy,
    items: Vec<RawItem>,
    options: &Options,
    plan: Option<&crate::study::PlanReader>,
) -> Result<(RawStudy, Summary), Problems> {
    let mut study = template.clone();
    if study.systems.is_empty() {
        let mut seen: Vec<String> = items
            .iter()
            .flat_map(|i| i.outputs.keys().cloned())
            .collect();
        seen.sort();
        seen.dedup();
        study.systems = seen;
    }
    let read = items.len();
    let eligible: Vec<RawItem> = items
        .into_iter()
        .filter(|item| study.systems.iter().all(|s| item.outputs.contains_key(s)))
        .map(|mut item| {
            item.outputs.retain(|s, _| study.systems.contains(s));
            item
        })
        .collect();
    if eligible.is_empty() {
        return Err(Problems(vec![Problem {
            at: "outputs".to_owned(),
            message: format!(
                "none of the {read} items has an output for every system ({})",
                study.systems.join(", ")
            ),
            fix: "check the template's systems against the system ids in the outputs".to_owned(),
        }]));
    }
    let chosen = sample(&eligible, options);
    let summary = Summary {
        read,
        eligible: eligible.len(),
        sampled: chosen.len(),
    };
    study.items = chosen.into_iter().map(|i| eligible[i].clone()).collect();
    // How the items were drawn, to draw them again: kept with the study (and moved to the key
    // when it is published), since the study's own `seed` is the counterbalancing's.
    let sampling = serde_json::json!({
        "seed": options.seed,
        "n": options.n,
        "stratify": options.stratify,
        "equal": options.equal,
        "read": summary.read,
        "eligible": summary.eligible,
    });
    study
        .metadata
        .get_or_insert_with(BTreeMap::new)
        .insert("sampling".to_owned(), sampling);
    open_raw(&study, plan)?;
    Ok((study, summary))
}

/// Largest-remainder apportionment of `n` over strata of these sizes (which sum to `n` or more).
fn proportional_quotas(sizes: &[usize], n: usize) -> Vec<usize> {
    let total: usize = sizes.iter().sum();
    let exact: Vec<(usize, usize)> = sizes
        .iter()
        .map(|size| (size * n / total, size * n % total))
        .collect();
    let mut quotas: Vec<usize> = exact.iter().map(|q| q.0).collect();
    let given: usize = quotas.iter().sum();
    let mut by_remainder: Vec<usize> = (0..sizes.len()).collect();
    by_remainder.sort_by_key(|&g| (std::cmp::Reverse(exact[g].1), g));
    for &g in by_remainder.iter().take(n - given) {
        quotas[g] += 1;
    }
    quotas
}

/// `n` shared as evenly as the strata allow: each stratum's share is an equal part of what is
/// left, at most its size, the smallest strata served first; the last units go to the first
/// strata (in stratum order) with items to spare.
fn equal_quotas(sizes: &[usize], n: usize) -> Vec<usize> {
    let mut quotas = vec![0; sizes.len()];
    let mut order: Vec<usize> = (0..sizes.len()).collect();
    order.sort_by_key(|&g| (sizes[g], g));
    let mut left = n;
    for (k, &g) in order.iter().enumerate() {
        let share = left / (order.len() - k);
        quotas[g] = share.min(sizes[g]);
        left -= quotas[g];
    }
    for g in 0..sizes.len() {
        if left == 0 {
            break;
        }
        if quotas[g] < sizes[g] {
            quotas[g] += 1;
            left -= 1;
        }
    }
    quotas
}

/// Indices of the sampled items, in input order.
fn sample(items: &[RawItem], options: &Options) -> Vec<usize> {
    let n = options.n.min(items.len());
    let mut stream = Stream::new(options.seed, "prepare", 0, 0);
    let mut chosen: Vec<usize> = if !options.stratify.is_empty() {
        let mut groups: BTreeMap<Vec<Option<&str>>, Vec<usize>> = BTreeMap::new();
        for (i, item) in items.iter().enumerate() {
            let stratum = options
                .stratify
                .iter()
                .map(|name| {
                    if name == crate::study::GROUP {
                        item.group.as_deref()
                    } else {
                        item.groups.get(name).map(String::as_str)
                    }
                })
                .collect();
            groups.entry(stratum).or_default().push(i);
        }
        let sizes: Vec<usize> = groups.values().map(Vec::len).collect();
        let quotas = if options.equal {
            equal_quotas(&sizes, n)
        } else {
            proportional_quotas(&sizes, n)
        };
        groups
            .values()
            .zip(&quotas)
            .flat_map(|(members, &quota)| {
                let mut m = members.clone();
                stream.shuffle(&mut m);
                m.truncate(quota);
                m
            })
            .collect()
    } else {
        let mut all: Vec<usize> = (0..items.len()).collect();
        stream.shuffle(&mut all);
        all.truncate(n);
        all
    };
    chosen.sort_unstable();
    chosen
}

#[cfg(test)]
mod tests {
    use super::*;

    fn options(n: usize, stratify: bool) -> Options {
        Options {
            n,
            seed: 5,
            stratify: if stratify {
                vec![crate::study::GROUP.to_owned()]
            } else {
                Vec::new()
            },
            equal: false,
            text_field: "summary".to_owned(),
            context_field: Some("reference".to_owned()),
            prompt: Some("Summarise.".to_owned()),
            participant_field: None,
        }
    }

    /// Outputs generated per participant (as in the HARE study): one personal item per (item, participant), for that
    /// participant only; a line without its participant is a problem.
    #[test]
    fn a_participant_field_makes_personal_items() {
        let jsonl = "{\"item_id\":\"r01\",\"system_id\":\"a\",\"summary\":\"x\",\"who\":\"p07\"}\n\
                     {\"item_id\":\"r01\",\"system_id\":\"b\",\"summary\":\"y\",\"who\":\"p07\"}\n\
                     {\"item_id\":\"r01\",\"system_id\":\"a\",\"summary\":\"z\",\"who\":3}\n";
        let o = Options {
            participant_field: Some("who".to_owned()),
            ..options(10, false)
        };
        let items = read_items(jsonl, &o).unwrap_or_default();
        let got: Vec<(String, Vec<RawAnnotatorRef>, usize)> = items
            .into_iter()
            .map(|i| (i.id, i.for_annotators, i.outputs.len()))
            .collect();
        assert_eq!(
            got,
            [
                (
                    "r01-p07".to_owned(),
                    vec![RawAnnotatorRef::Id("p07".into())],
                    2
                ),
                ("r01-3".to_owned(), vec![RawAnnotatorRef::Slot(3)], 1),
            ]
        );
        let missing = "{\"item_id\":\"r01\",\"system_id\":\"a\",\"summary\":\"x\"}\n";
        let problems = read_items(missing, &o)
            .err()
            .map(|p| p.to_string())
            .unwrap_or_default();
        assert!(
            problems.contains("line 1: no participant in field \"who\""),
            "{problems}"
        );
    }

    /// A long line keeps the item's round and media (a personalised study's rounds and images),
    /// and a bad one is a problem on its line.
    #[test]
    fn long_lines_keep_round_and_media() {
        let jsonl = "{\"item_id\":\"r01\",\"system_id\":\"a\",\"summary\":\"x\",\"who\":\"p07\",\"round\":2,\"media\":{\"type\":\"image\",\"src\":\"media/r01.png\",\"alt\":\"A chart\"}}\n\
                     {\"item_id\":\"r02\",\"system_id\":\"a\",\"summary\":\"y\",\"who\":\"p07\",\"round\":\"two\"}\n\
                     {\"item_id\":\"r03\",\"system_id\":\"a\",\"summary\":\"y\",\"who\":\"p07\",\"media\":{\"src\":1}}\n";
        let o = Options {
            participant_field: Some("who".to_owned()),
            ..options(10, false)
        };
        let problems = read_items(jsonl, &o).unwrap_err();
        let at: Vec<&str> = problems.iter().map(|p| p.at.as_str()).collect();
        assert_eq!(at, ["line 2", "line 3"]);
        let first = jsonl.lines().next().unwrap_or_default();
        let items = read_items(first, &o).unwrap();
        assert_eq!(items[0].round, Some(2));
        let media = items[0].media.as_ref().unwrap();
        assert_eq!(
            (media.src.as_str(), media.alt.as_str()),
            ("media/r01.png", "A chart")
        );
    }

    #[test]
    fn reads_both_shapes_and_reports_bad_lines_by_number() {
        let long = "{\"item_id\": 1, \"system_id\": \"a\", \"summary\": \"x\", \"reference\": \"r\"}\n\
                    {\"item_id\": 1, \"system_id\": \"b\", \"summary\": \"y\"}\n";
        let items = read_items(long, &options(1, false)).unwrap();
        assert_eq!(items.len(), 1);
        assert_eq!(items[0].outputs.len(), 2);
        assert_eq!(items[0].context.as_deref(), Some("r"));

        let wide = "{\"id\": \"q\", \"prompt\": \"p\", \"outputs\": {\"a\": \"1\"}}\n";
        assert_eq!(read_items(wide, &options(1, false)).unwrap()[0].id, "q");

        let bad = "{\"id\": \"q\", \"prompt\": \"p\", \"outputs\": {}}\nnot json\n\n{\"item_id\": 2, \"system_id\": \"a\"}\n";
        let problems = read_items(bad, &options(1, false)).unwrap_err();
        let at: Vec<&str> = problems.iter().map(|p| p.at.as_str()).collect();
        assert_eq!(at, ["line 2", "line 4"]);
    }

    /// Item `i{i}` of `group`, with nothing else.
    fn grouped(i: usize, group: &str) -> RawItem {
        RawItem {
            id: format!("i{i}"),
            group: Some(group.to_owned()),
            groups: BTreeMap::new(),
            round: None,
            prompt: "p".to_owned(),
            context: None,
            media: None,
            outputs: BTreeMap::new(),
            for_annotators: Vec::new(),
        }
    }

    #[test]
    fn stratified_sampling_is_proportional() {
        let items: Vec<RawItem> = (0..30)
            .map(|i| grouped(i, if i < 20 { "big" } else { "small" }))
            .collect();
        let chosen = sample(&items, &options(9, true));
        let big = chosen.iter().filter(|&&i| i < 20).count();
        assert_eq!((chosen.len(), big), (9, 6));
        assert_eq!(chosen, sample(&items, &options(9, true)));
        assert_ne!(
            chosen,
            sample(
                &items,
                &Options {
                    seed: 6,
                    ..options(9, true)
                }
            )
        );
    }

    /// Seed audit 2026-12-01 (000): the work-intake protocol draws 25 of each task type; from
    /// a 50/40/30 pool, `equal` gives 25/25/25 where proportions give 31/25/19, and a stratum
    /// too small gives all it has, the rest shared among the others.
    #[test]
    fn equal_strata_take_the_same_number_from_each() {
        assert_eq!(proportional_quotas(&[50, 40, 30], 75), [31, 25, 19]);
        assert_eq!(equal_quotas(&[50, 40, 30], 75), [25, 25, 25]);
        assert_eq!(equal_quotas(&[50, 40, 10], 75), [33, 32, 10]);
        assert_eq!(equal_quotas(&[50, 40, 30], 76), [26, 25, 25]);
        assert_eq!(equal_quotas(&[3, 3], 10), [3, 3]);
        let items: Vec<RawItem> = (0..120)
            .map(|i| {
                let group = match i {
                    0..50 => "taxonomy",
                    50..90 => "routing",
                    _ => "dependency",
                };
                grouped(i, group)
            })
            .collect();
        let chosen = sample(
            &items,
            &Options {
                equal: true,
                ..options(75, true)
            },
        );
        let count =
            |range: std::ops::Range<usize>| chosen.iter().filter(|i| range.contains(i)).count();
        assert_eq!((count(0..50), count(50..90), count(90..120)), (25, 25, 25));
    }

    /// Two named groupings stratify together: every combination of task type and repository is
    /// a stratum, sampled in proportion; a line's `groups` is read, and one that is not an object
    /// is placed.
    #[test]
    fn named_groupings_stratify_together() {
        let mut lines = String::new();
        for i in 0..40 {
            let task = if i % 2 == 0 { "routing" } else { "taxonomy" };
            let repo = if i < 30 { "airflow" } else { "vscode" };
            lines.push_str(&format!(
                "{{\"id\": \"i{i}\", \"prompt\": \"p\", \"groups\": {{\"task_type\": \"{task}\", \"repository\": \"{repo}\"}}, \"outputs\": {{\"a\": \"1\"}}}}\n"
            ));
        }
        let items = read_items(&lines, &options(1, false)).unwrap();
        assert_eq!(items[3].groups["task_type"], "taxonomy");
        let by = Options {
            stratify: vec!["task_type".to_owned(), "repository".to_owned()],
            ..options(20, false)
        };
        let chosen = sample(&items, &by);
        let count = |task: &str, repo: &str| {
            chosen
                .iter()
                .filter(|&&i| {
                    items[i].groups["task_type"] == task && items[i].groups["repository"] == repo
                })
                .count()
        };
        // 15/15/5/5 of 40, halved.
        assert_eq!(
            [
                count("routing", "airflow"),
                count("taxonomy", "airflow"),
                count("routing", "vscode"),
                count("taxonomy", "vscode")
            ],
            [8, 7, 3, 2]
        );
        let bad =
            "{\"id\": \"q\", \"prompt\": \"p\", \"groups\": [1], \"outputs\": {\"a\": \"1\"}}\n";
        let problems = read_items(bad, &options(1, false)).unwrap_err();
        assert_eq!(problems.iter().next().unwrap().at, "line 1");
    }
}
