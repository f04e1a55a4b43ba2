//! The compiled study: every example compiles and reads back as it was written; a changed,
//! foreign or broken file is refused with placed codes and never a panic; a published study
//! compiles without naming a system; the lean reader needs neither the validator, the Markdown
//! renderer nor the planner.

use std::path::Path;

use juror_core::base::digest::{sha256_hex, sha256_hex_of};
use juror_core::base::rich::{Element, Node, Tag, Text};
use juror_core::front::compiled::{self, CODES, Problems, compile, explain, read};
use juror_core::front::cover::Cover;
use juror_core::front::open::{Opened, open};
use juror_core::plan::Annotator;
use juror_core::plan::view::TrialView;
use juror_core::study::RawStudy;
use proptest::prelude::*;
use serde_json::{Value, json};

use crate::support::{example, root};

/// A stand-in for the Markdown renderer: one paragraph holding `shift:markdown`, so that a
/// test sees which shift each field was rendered with.
fn render(md: &str, shift: usize) -> Vec<Node> {
    vec![Node::Element(Element::new(
        Tag::P,
        vec![Node::Text(format!("{shift}:{md}"))],
    ))]
}

fn examples() -> Vec<(String, String)> {
    let dir = root().join("assets/studies");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| {
            let name = e.unwrap().file_name().to_string_lossy().into_owned();
            name.strip_suffix(".json").map(str::to_owned)
        })
        .collect();
    names.sort();
    assert!(names.len() >= 10, "{names:?}");
    names
        .into_iter()
        .map(|n| {
            let text = example(&n);
            (n, text)
        })
        .collect()
}

fn opened(text: &str) -> Opened {
    open(text).unwrap_or_else(|p| panic!("{p}"))
}

/// `text` with its study replaced by `edit(study)` and the checksum made right again: what a
/// hand edit that also recomputed the checksum gives.
fn edited(text: &str, edit: impl FnOnce(&mut Value)) -> String {
    let mut whole: Value = serde_json::from_str(text).unwrap();
    edit(&mut whole["study"]);
    resealed(whole)
}

/// A compiled study's text with its checksum made right again for its cover and study.
fn resealed(mut whole: Value) -> String {
    let cover = serde_json::to_string(&whole["cover"]).unwrap();
    let payload = serde_json::to_string(&whole["study"]).unwrap();
    whole["checksum"] = json!(sha256_hex_of(&[&cover, &payload]));
    serde_json::to_string(&whole).unwrap()
}

fn codes(problems: &Problems) -> Vec<(&str, &str)> {
    problems.0.iter().map(|p| (p.at.as_str(), p.code)).collect()
}

fn plain(text: &Text) -> String {
    text.plain().into_owned()
}

#[test]
fn every_example_compiles_and_reads_back_as_it_was_written() {
    for (name, text) in examples() {
        let opened = opened(&text);
        let compiled = compile(&opened, render);
        assert!(compiled.starts_with(r#"{"format":"juror.compiled/3","source_sha256":""#));
        assert!(compiled.ends_with("}\n"), "{name}");
        let back = read(&compiled).unwrap_or_else(|p| panic!("{name}: {p}"));
        assert_eq!(back.sha256, sha256_hex(&text), "{name}");
        // The model read is the model written: compiled again, it gives the same text.
        let again = Opened {
            study: back.study.clone(),
            sha256: back.sha256.clone(),
        };
        assert_eq!(
            compile(&again, |_, _| panic!("nothing left to render")),
            compiled,
            "{name}"
        );
        // Every field kept its text, rendered at its shift.
        let (want, got) = (&opened.study, &back.study);
        assert_eq!(got.id(), want.id());
        assert_eq!(got.systems(), want.systems());
        assert_eq!(got.seed(), want.seed());
        assert_eq!(got.design().plans, want.design().plans);
        assert_eq!(got.design().assignment, want.design().assignment);
        assert_eq!(got.intake(), want.intake());
        assert!(got.analysis().is_none());
        let rendered = |t: Option<&Text>, shift: usize| t.map(|t| format!("{shift}:{}", plain(t)));
        assert_eq!(
            got.description().map(plain),
            rendered(want.description(), 1)
        );
        assert_eq!(
            got.instructions().map(plain),
            rendered(want.instructions(), 1)
        );
        assert_eq!(got.debrief().map(plain), rendered(want.debrief(), 1));
        assert_eq!(
            plain(got.screened_message()),
            format!("1:{}", plain(want.screened_message()))
        );
        for (a, b) in got.design().tasks.iter().zip(&want.design().tasks) {
            assert_eq!(
                a.instructions.as_ref().map(plain),
                rendered(b.instructions.as_ref(), 1)
            );
            assert_eq!(a.items, b.items);
        }
        let plain_items: Vec<usize> = want
            .design()
            .tasks
            .iter()
            .filter(|t| t.plain_text)
            .flat_map(|t| t.items.clone())
            .collect();
        for (i, (a, b)) in got.items().iter().zip(want.items()).enumerate() {
            assert_eq!(a.id, b.id);
            assert_eq!(plain(&a.prompt), format!("2:{}", plain(&b.prompt)));
            assert_eq!(
                a.context.as_ref().map(plain),
                rendered(b.context.as_ref(), 2)
            );
            for (system, output) in &b.outputs {
                let source = output.source().unwrap();
                if plain_items.contains(&i) {
                    assert_eq!(
                        a.outputs[system],
                        Text::Rich(vec![Node::Text(source.to_owned())]),
                        "{name}: a plain-text output is one text node"
                    );
                    assert_eq!(a.outputs[system].verbatim(), Some(source));
                } else {
                    assert_eq!(plain(&a.outputs[system]), format!("2:{source}"));
                }
            }
        }
        let (rg, rw) = (got.rubric(), want.rubric());
        assert_eq!(rg.dimensions, rw.dimensions);
        for (a, b) in rg
            .look_for
            .iter()
            .chain(&rg.avoid)
            .zip(rw.look_for.iter().chain(&rw.avoid))
        {
            assert_eq!(plain(a), format!("1:{}", plain(b)));
        }
        for (a, b) in rg.examples.iter().zip(&rw.examples) {
            assert_eq!(plain(&a.output), format!("1:{}", plain(&b.output)));
            assert_eq!(a.prompt.as_ref().map(plain), rendered(b.prompt.as_ref(), 1));
            assert_eq!(a.why, b.why);
        }
        assert_eq!(
            got.consent().map(|c| plain(&c.text)),
            rendered(want.consent().map(|c| &c.text), 1)
        );
    }
}

#[test]
fn compiling_is_deterministic() {
    for (name, text) in examples() {
        let a = compile(&opened(&text), render);
        let b = compile(&opened(&text), render);
        assert_eq!(a, b, "{name}");
    }
}

#[test]
fn a_changed_study_is_refused_by_its_checksum() {
    let compiled = compile(&opened(&example("kitchen-qa")), render);
    let tampered = compiled.replacen("\"seed\":", "\"seed\": ", 1);
    assert_ne!(tampered, compiled);
    let problems = read(&tampered).unwrap_err();
    assert_eq!(codes(&problems), [("study", "compiled.checksum")]);
    // A study that changed its systems' order is refused the same way.
    let swapped = compiled.replacen("\"seed\":", "\"seed\" :", 1);
    assert_eq!(read(&swapped).unwrap_err().0[0].code, compiled::CHECKSUM);
}

#[test]
fn the_cover_alone_reads_as_the_whole_study_gives_it() {
    for (name, text) in examples() {
        let compiled = compile(&opened(&text), render);
        let covered = compiled::read_cover(&compiled).unwrap_or_else(|p| panic!("{name}: {p}"));
        let whole = read(&compiled).unwrap_or_else(|p| panic!("{name}: {p}"));
        assert_eq!(covered.cover, Cover::of(&whole.study), "{name}");
        assert_eq!(covered.sha256, whole.sha256, "{name}");
    }
}

#[test]
fn the_cover_read_ahead_is_the_checked_covers_without_the_checksum() {
    for (name, text) in examples() {
        let compiled = compile(&opened(&text), render);
        let ahead = compiled::peek_cover(&compiled).unwrap_or_else(|p| panic!("{name}: {p}"));
        assert_eq!(ahead, compiled::read_cover(&compiled).unwrap(), "{name}");
        // The envelope is read whole (so that a member given twice is seen), the checksum not
        // computed: a text cut short is refused by both readers alike.
        let cut = &compiled[..compiled.find("\"study\":").unwrap() + 12];
        for problems in [
            compiled::peek_cover(cut).unwrap_err(),
            compiled::read_cover(cut).unwrap_err(),
        ] {
            assert_eq!(
                codes(&problems),
                [("(top level)", "compiled.envelope")],
                "{name}"
            );
        }
    }
    // A study changed after compiling (a wrong checksum) is not seen ahead; the check refuses
    // it.
    let kitchen = compile(&opened(&example("kitchen-qa")), render);
    let tampered = kitchen.replacen("\"consent\":", "\"consent\": ", 1);
    assert!(compiled::peek_cover(&tampered).is_ok());
    assert_eq!(
        codes(&compiled::read_cover(&tampered).unwrap_err()),
        [("study", "compiled.checksum")]
    );
    // What it does check, it places and codes as the full reading does.
    let later = kitchen.replacen("juror.compiled/3", "juror.compiled/4", 1);
    assert_eq!(
        codes(&compiled::peek_cover(&later).unwrap_err()),
        [("format", "compiled.format")]
    );
    let no_sum = kitchen.replacen("\"source_sha256\"", "\"source\"", 1);
    assert_eq!(
        codes(&compiled::peek_cover(&no_sum).unwrap_err()),
        [("(top level)", "compiled.envelope")]
    );
    let mut whole: Value = serde_json::from_str(&kitchen).unwrap();
    whole["cover"]["slots"] = json!("three");
    assert_eq!(
        codes(&compiled::peek_cover(&resealed(whole)).unwrap_err()),
        [("cover.slots", "compiled.cover")]
    );
    for broken in ["", "[]", "{", "not json", "{\"format\": 3}"] {
        let code = compiled::peek_cover(broken).unwrap_err().0[0].code;
        assert!(
            [compiled::ENVELOPE, compiled::FORMAT_CODE].contains(&code),
            "{broken}: {code}"
        );
    }
}

#[test]
fn a_cover_that_is_not_the_studys_is_refused() {
    let compiled = compile(&opened(&example("kitchen-qa")), render);
    // Edited by hand: the checksum refuses it, from the cover alone too.
    let tampered = compiled.replacen("\"consent\":", "\"consent\": ", 1);
    assert_ne!(tampered, compiled);
    assert_eq!(
        codes(&compiled::read_cover(&tampered).unwrap_err()),
        [("study", "compiled.checksum")]
    );
    // Edited with the checksum made right again: the cover reads (nothing says otherwise
    // without the study), the whole study does not.
    let mut whole: Value = serde_json::from_str(&compiled).unwrap();
    whole["cover"]["trials"] = json!(1);
    let lying = resealed(whole);
    assert_eq!(compiled::read_cover(&lying).unwrap().cover.trials, 1);
    assert_eq!(
        codes(&read(&lying).unwrap_err()),
        [("cover", "compiled.cover")]
    );
    let mut whole: Value = serde_json::from_str(&compiled).unwrap();
    whole["cover"]["slots"] = json!("three");
    let wrong = resealed(whole);
    assert_eq!(
        codes(&compiled::read_cover(&wrong).unwrap_err()),
        [("cover.slots", "compiled.cover")]
    );
    assert_eq!(read(&wrong).unwrap_err().0[0].code, compiled::COVER);
}

#[test]
fn a_file_that_is_not_a_compiled_study_of_this_format_is_refused() {
    let text = example("kitchen-qa");
    let problems = read(&text).unwrap_err();
    assert_eq!(codes(&problems), [("format", "compiled.format")]);
    assert!(problems.0[0].detail.contains("juror.study/1"), "{problems}");
    let compiled = compile(&opened(&text), render);
    let later = compiled.replacen("juror.compiled/3", "juror.compiled/4", 1);
    let earlier = compiled.replacen("juror.compiled/3", "juror.compiled/1", 1);
    // Labels moved from the design to each task in /3: a /2 file is refused by its format.
    let second = compiled.replacen("juror.compiled/3", "juror.compiled/2", 1);
    assert_eq!(
        codes(&read(&second).unwrap_err()),
        [("format", "compiled.format")]
    );
    assert_eq!(
        codes(&read(&earlier).unwrap_err()),
        [("format", "compiled.format")]
    );
    assert_eq!(
        codes(&read(&later).unwrap_err()),
        [("format", "compiled.format")]
    );
    for broken in ["", "[]", "{", "not json", "{\"format\": 3}"] {
        let code = read(broken).unwrap_err().0[0].code;
        assert!(
            code == compiled::ENVELOPE || code == compiled::FORMAT_CODE,
            "{broken}: {code}"
        );
    }
    let no_study = r#"{"format":"juror.compiled/3","source_sha256":"a","checksum":"b"}"#;
    assert_eq!(
        codes(&read(no_study).unwrap_err()),
        [("(top level)", "compiled.envelope")]
    );
    assert!(compiled::is_compiled(&compiled));
    assert!(compiled::is_compiled(&later));
    assert!(!compiled::is_compiled(&text));
    assert!(!compiled::is_compiled("not json"));
}

#[test]
fn indices_out_of_range_are_placed_and_never_panic() {
    let compiled = compile(&opened(&example("kitchen-qa")), render);
    let bad = edited(&compiled, |s| {
        s["design"]["tasks"][0]["items"][1] = json!(99);
        s["design"]["tasks"][0]["pairs"] = json!({"Anchor": 7});
    });
    let problems = read(&bad).unwrap_err();
    assert_eq!(
        codes(&problems),
        [
            ("study.design.tasks[0].items[1]", "compiled.index"),
            ("study.design.tasks[0].pairs", "compiled.index"),
        ],
        "{problems}"
    );
    let bad = edited(&compiled, |s| {
        s["design"]["tasks"][0]["dimensions"] = json!(["nowhere"]);
        let first = s["items"][0]["outputs"].as_object_mut().unwrap();
        let system = first.keys().next().unwrap().clone();
        first.remove(&system);
        s["description"] = json!("**Markdown**");
    });
    let problems = read(&bad).unwrap_err();
    assert_eq!(
        codes(&problems),
        [
            ("study.design.tasks[0].dimensions", "compiled.unknown"),
            ("study.items[0].outputs", "compiled.output"),
            ("study.description", "compiled.source"),
        ],
        "{problems}"
    );
}

/// A published study: its plans carry task, item and system indices.
fn published(name: &str) -> (String, Vec<String>) {
    let text = example(name);
    let raw: RawStudy = serde_json::from_str(&text).unwrap();
    let study = opened(&text).study;
    let systems = study.systems().to_vec();
    let (published, _key) = juror_core::publish::publish(&raw, &study, &[5; 32], 3, &[]);
    (serde_json::to_string_pretty(&published).unwrap(), systems)
}

/// Every string of a JSON value, keys included.
fn strings_of(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::String(s) => out.push(s.clone()),
        Value::Array(a) => a.iter().for_each(|x| strings_of(x, out)),
        Value::Object(o) => {
            for (k, x) in o {
                out.push(k.clone());
                strings_of(x, out);
            }
        }
        _ => {}
    }
}

#[test]
fn a_compiled_published_study_names_no_system_and_its_plans_are_checked() {
    for name in ["kitchen-qa", "pandalm", "summeval-esa"] {
        let (text, systems) = published(name);
        let compiled = compile(&opened(&text), render);
        let named = |text: &str| {
            let mut strings = Vec::new();
            strings_of(&serde_json::from_str(text).unwrap(), &mut strings);
            systems
                .iter()
                .filter(|s| strings.iter().any(|x| x.eq_ignore_ascii_case(s)))
                .cloned()
                .collect::<Vec<_>>()
        };
        assert_eq!(named(&compiled), Vec::<String>::new(), "{name}");
        // The original study, compiled, names them all (as keys of the outputs).
        let original = compile(&opened(&example(name)), render);
        assert_eq!(named(&original), systems, "{name}");
        let back = read(&compiled).unwrap_or_else(|p| panic!("{name}: {p}"));
        assert_eq!(back.study.design().plans.as_ref().map(Vec::len), Some(3));
    }
    let (text, _) = published("pandalm");
    let compiled = compile(&opened(&text), render);
    let bad = edited(&compiled, |s| {
        let trial = &mut s["design"]["plans"][1][0];
        trial["shown"][0]["system"] = json!(500);
        trial["shown"][0]["label"] = trial["shown"][1]["label"].clone();
        s["design"]["plans"][2][0]["item"] = json!(1000);
        s["design"]["plans"][2][1]["shown"] = json!([]);
    });
    let problems = read(&bad).unwrap_err();
    assert_eq!(
        codes(&problems),
        [
            ("study.design.plans[1][0].shown[0].system", "compiled.index"),
            ("study.design.plans[1][0].shown[1].label", "compiled.shown"),
            ("study.design.plans[2][0]", "compiled.index"),
            ("study.design.plans[2][1].shown", "compiled.shown"),
        ],
        "{problems}"
    );
}

#[test]
fn a_rendered_text_with_an_element_not_allowed_is_refused() {
    let compiled = compile(&opened(&example("kitchen-qa")), render);
    let bad = edited(&compiled, |s| {
        s["description"] = json!([["script", "alert(1)"]]);
    });
    let problems = read(&bad).unwrap_err();
    assert_eq!(
        codes(&problems),
        [("study.description[0]", "compiled.study")]
    );
    assert!(problems.0[0].detail.contains("`script`"), "{problems}");
}

#[test]
fn every_code_has_its_full_explanation() {
    let mut seen = Vec::new();
    for (code, text) in CODES {
        assert!(code.starts_with("compiled."), "{code}");
        assert!(!seen.contains(code), "{code} twice");
        seen.push(*code);
        assert_eq!(explain(code), *text);
        assert!(text.len() > 60, "{code}: {text}");
    }
    for code in [
        compiled::ENVELOPE,
        compiled::FORMAT_CODE,
        compiled::CHECKSUM,
        compiled::SHAPE,
        compiled::INDEX,
        compiled::UNKNOWN,
        compiled::OUTPUT,
        compiled::SHOWN,
        compiled::SOURCE,
        compiled::COUNT,
        compiled::COVER,
    ] {
        assert!(seen.contains(&code), "{code} has no explanation");
    }
    assert!(explain("compiled.nothing").contains("does not know"));
    // docs/compiled.md's table says each code's explanation word for word.
    let docs = crate::support::read(&root().join("docs/compiled.md"));
    for (code, text) in CODES {
        let row = format!("| `{code}` | {text} |");
        assert!(docs.contains(&row), "docs/compiled.md lacks the row\n{row}");
    }
}

/// A compiled study's envelope as its members, each key with its value's exact text.
fn members(text: &str) -> Vec<(String, String)> {
    let members = juror_core::base::json::text::members(text).unwrap();
    members
        .into_iter()
        .map(|(k, v)| (k, v.to_owned()))
        .collect()
}

/// The envelope of `members`, written back.
fn envelope(members: &[(String, String)]) -> String {
    let each: Vec<String> = members
        .iter()
        .map(|(k, v)| format!("\"{k}\":{v}"))
        .collect();
    format!("{{{}}}", each.join(","))
}

/// `cover`'s text with another title.
fn retitled(cover: &str, title: &str) -> String {
    let mut cover: Value = serde_json::from_str(cover).unwrap();
    cover["title"] = json!(title);
    serde_json::to_string(&cover).unwrap()
}

/// A member of the envelope given twice (a second cover, whose checksum no one computed,
/// before or after the real one; a second study, format or checksum) is refused by every
/// reader, the cover read ahead included, naming the member: the welcome page is never shown
/// from a cover that the checks do not read.
#[test]
fn a_member_given_twice_is_refused_by_every_reader_naming_it() {
    let kitchen = compile(&opened(&example("kitchen-qa")), render);
    let written = members(&kitchen);
    let keys: Vec<&str> = written.iter().map(|(k, _)| k.as_str()).collect();
    assert_eq!(
        keys,
        ["format", "source_sha256", "checksum", "cover", "study"]
    );
    let fake = retitled(&written[3].1, "A DIFFERENT TITLE");
    for (at, key, value) in [
        (3, "cover", fake.clone()),
        (4, "cover", fake.clone()),
        (5, "cover", fake.clone()),
        (5, "cover", written[3].1.clone()),
        (5, "study", written[4].1.clone()),
        (0, "format", written[0].1.clone()),
        (3, "checksum", written[2].1.clone()),
        (5, "source_sha256", "null".to_owned()),
    ] {
        let mut twice = written.clone();
        twice.insert(at, (key.to_owned(), value));
        let text = envelope(&twice);
        for problems in [
            compiled::peek_cover(&text).unwrap_err(),
            compiled::read_cover(&text).unwrap_err(),
            read(&text).unwrap_err(),
        ] {
            assert_eq!(
                codes(&problems),
                [("(top level)", "compiled.envelope")],
                "{key}"
            );
            assert_eq!(problems.0[0].detail, format!("{key} given twice"));
        }
    }
    // Written back once each, the same members read as before.
    assert_eq!(read(&envelope(&written)), read(&kitchen));
}

/// A study's counts past the caps a study as written is held to (`study::limits`: slots from
/// 2,001 to a million, the assignment's steps, trials per annotator, tasks, plans and a plan's
/// trials) are refused as validation refuses them, placed under `study`, before anything is
/// planned: the page and the CLI never allocate for them.
#[test]
fn counts_past_the_caps_of_a_study_as_written_are_refused_before_anything_is_planned() {
    let trajectories = compile(&opened(&example("reasoning-trajectories")), render);
    let refused = |text: &str, at: &str| {
        let problems = read(text).unwrap_err();
        assert_eq!(codes(&problems), [(at, compiled::COUNT)], "{problems}");
        problems.0[0].detail.clone()
    };
    for slots in [2_001u64, 20_000, 40_000, 200_000, 1_000_000] {
        let bad = edited(&trajectories, |s| {
            s["design"]["assignment"]["slots"] = json!(slots);
        });
        assert_eq!(
            refused(&bad, "study.design.assignment.slots"),
            format!("{slots} slots, more than Juror plans (2000)")
        );
    }
    let bad = edited(&trajectories, |s| {
        s["design"]["assignment"] = json!({"slots": 2000, "annotators_per_item": 2000});
    });
    let detail = refused(&bad, "study.design.assignment");
    assert!(detail.contains("steps of assignment"), "{detail}");
    let mut within: Value = serde_json::from_str(&trajectories).unwrap();
    within["study"]["design"]["assignment"] = json!({"slots": 2000, "annotators_per_item": 1});
    within["cover"]["slots"] = json!(2000);
    let within = read(&resealed(within)).unwrap_or_else(|p| panic!("{p}"));
    let plan = juror_core::plan::plan(&within.study, &Annotator::slot(2000));
    assert!(!plan.trials.is_empty());

    let kitchen = compile(&opened(&example("kitchen-qa")), render);
    let bad = edited(&kitchen, |s| {
        let items = s["design"]["tasks"][0]["items"].as_array().unwrap().clone();
        let again: Vec<Value> = items
            .iter()
            .cycle()
            .take(10_000 * items.len())
            .cloned()
            .collect();
        s["design"]["tasks"][0]["items"] = json!(again);
    });
    let detail = refused(&bad, "study.design.tasks");
    assert!(detail.contains("more than Juror plans (20000)"), "{detail}");
    let bad = edited(&kitchen, |s| {
        let task = s["design"]["tasks"][0].clone();
        s["design"]["tasks"] = json!(vec![task; 101]);
    });
    assert_eq!(
        refused(&bad, "study.design.tasks"),
        "101 tasks, more than 100"
    );

    let (text, _) = published("pandalm");
    let pandalm = compile(&opened(&text), render);
    let bad = edited(&pandalm, |s| {
        s["design"]["plans"] = json!(vec![json!([]); 2_001]);
    });
    assert_eq!(
        refused(&bad, "study.design.plans"),
        "2001 plans, more than Juror plans (2000)"
    );
    let bad = edited(&pandalm, |s| {
        let trial = s["design"]["plans"][1][0].clone();
        s["design"]["plans"][1] = json!(vec![trial; 20_001]);
    });
    assert_eq!(
        refused(&bad, "study.design.plans[1]"),
        "20001 trials in one plan, more than 20000"
    );
}

/// The lean reader is what the annotator's page carries: it must not reach the full validator,
/// the Markdown renderer or the planner (comments aside).
#[test]
fn the_compiled_module_needs_no_validator_renderer_or_planner() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/front/compiled.rs");
    let text = std::fs::read_to_string(&path).unwrap();
    let code: Vec<&str> = text
        .lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .collect();
    assert!(code.len() > 100, "only {} lines of code", code.len());
    for word in ["validate", "markdown", "Planner", "plan::", "pulldown"] {
        let found: Vec<&&str> = code.iter().filter(|l| l.contains(word)).collect();
        assert!(found.is_empty(), "compiled.rs names {word}: {found:?}");
    }
}

/// Every number of a compiled study, a published one with plans, set to a value proptest picks
/// (the checksum made right again): reading never panics, and what it accepts it can compile
/// again.
fn numbers(v: &Value, here: &str, out: &mut Vec<String>) {
    match v {
        Value::Number(_) => out.push(here.to_owned()),
        Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                numbers(x, &format!("{here}/{i}"), out);
            }
        }
        Value::Object(o) => {
            for (k, x) in o {
                numbers(
                    x,
                    &format!("{here}/{}", k.replace('~', "~0").replace('/', "~1")),
                    out,
                );
            }
        }
        _ => {}
    }
}

/// A value proptest puts in place of a number: the ends, the wrong kinds, small counts.
fn number() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(json!(0)),
        Just(json!(1)),
        Just(json!(2)),
        Just(json!(-1)),
        Just(json!(u64::MAX)),
        Just(json!(1e300)),
        Just(json!(0.5)),
        (0u64..50).prop_map(|n| json!(n)),
        // Past the caps a study as written is held to (2,000 slots, 20,000 trials, …).
        (2_001u64..=1_000_000).prop_map(|n| json!(n)),
    ]
}

/// `compiled` with the numbers at `picks` replaced, its checksum made right again.
fn with_numbers(compiled: &str, picks: &[(prop::sample::Index, Value)]) -> String {
    let mut whole: Value = serde_json::from_str(compiled).unwrap();
    let mut paths = Vec::new();
    numbers(&whole["study"], "", &mut paths);
    for (at, value) in picks {
        let path = &paths[at.index(paths.len())];
        *whole["study"].pointer_mut(path).unwrap() = value.clone();
    }
    resealed(whole)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    /// A study compiled as written (the page plans it): what the reader accepts, the planner
    /// plans and every trial is viewed, for the first slots, without a panic.
    #[test]
    fn planning_a_compiled_study_with_numbers_changed_never_panics(
        which in 0usize..3,
        picks in proptest::collection::vec((any::<prop::sample::Index>(), number()), 1..6)
    ) {
        let name = ["summeval-best-worst", "reasoning-trajectories", "kitchen-qa"][which];
        let compiled = compile(&opened(&example(name)), render);
        if let Ok(back) = read(&with_numbers(&compiled, &picks)) {
            for slot in 1..=3 {
                let plan = juror_core::plan::plan(&back.study, &Annotator::slot(slot));
                for (i, trial) in plan.trials.iter().enumerate() {
                    let _ = TrialView::new(&back.study, &plan, i, trial);
                }
            }
        }
    }

    #[test]
    fn reading_the_cover_ahead_of_any_cut_or_edit_never_panics_and_agrees_when_both_read(
        cut in any::<prop::sample::Index>(),
        at in any::<prop::sample::Index>(),
        byte in 0x20u8..0x7f,
    ) {
        let compiled = compile(&opened(&example("pandalm")), render);
        let mut edited = compiled.into_bytes();
        let i = at.index(edited.len());
        edited[i] = byte;
        let edited = String::from_utf8(edited).unwrap();
        let end = cut.index(edited.len() + 1);
        for text in [&edited[..end], edited.as_str()] {
            let ahead = compiled::peek_cover(text);
            if let Ok(checked) = compiled::read_cover(text) {
                prop_assert_eq!(ahead.ok(), Some(checked));
            }
        }
    }

    /// A member of the envelope given again anywhere among the members, as it is or (a
    /// cover) retitled: what single-byte edits cannot make. Neither the cover read ahead nor
    /// the checked one is given, so that the two never disagree.
    #[test]
    fn a_member_given_again_anywhere_is_neither_read_ahead_nor_checked(
        which in 0usize..5,
        place in any::<prop::sample::Index>(),
        title in "[A-Za-z ]{0,12}",
    ) {
        let compiled = compile(&opened(&example("pandalm")), render);
        let mut twice = members(&compiled);
        let (key, mut value) = twice[which].clone();
        if key == "cover" && !title.is_empty() {
            value = retitled(&value, &title);
        }
        twice.insert(place.index(twice.len() + 1), (key, value));
        let text = envelope(&twice);
        let ahead = compiled::peek_cover(&text);
        let checked = compiled::read_cover(&text);
        prop_assert!(ahead.is_err() && checked.is_err() && read(&text).is_err());
        prop_assert_eq!(ahead.unwrap_err().0[0].code, compiled::ENVELOPE);
    }

    #[test]
    fn reading_a_compiled_study_with_numbers_changed_never_panics(
        picks in proptest::collection::vec((any::<prop::sample::Index>(), number()), 1..6)
    ) {
        let (text, _) = published("summeval-esa");
        let compiled = compile(&opened(&text), render);
        let mut whole: Value = serde_json::from_str(&compiled).unwrap();
        let mut paths = Vec::new();
        numbers(&whole["study"], "", &mut paths);
        for (at, value) in &picks {
            let path = &paths[at.index(paths.len())];
            *whole["study"].pointer_mut(path).unwrap() = value.clone();
        }
        let edited = resealed(whole);
        if let Ok(back) = read(&edited) {
            // What the page does with it: each slot's plan, each trial's view.
            let slots = back.study.design().plans.as_ref().map_or(0, Vec::len);
            for slot in 1..=slots as u32 {
                let plan = juror_core::plan::plan(&back.study, &Annotator::slot(slot));
                for (i, trial) in plan.trials.iter().enumerate() {
                    let _ = TrialView::new(&back.study, &plan, i, trial);
                }
            }
            let again = Opened { study: back.study, sha256: back.sha256 };
            prop_assert!(read(&compile(&again, render)).is_ok());
        }
    }
}

/// The researcher's reader (`analysis::plan_reader::open`, which the analysis, the CLI and the
/// Analyse page use) reads a compiled study as the page does: the same study, under its
/// source's SHA-256 (so that its ratings files match); a damaged one has each code explained.
/// A study as written rendered in place (`render_texts`, the researcher's page) is the study
/// compiled.
#[test]
fn the_researchers_reader_reads_compiled_studies_under_their_sources_hash() {
    use juror_core::analysis::plan_reader;
    for name in ["hare-personalization", "kitchen-qa", "summeval-esa"] {
        let text = example(name);
        let compiled_text = compile(&opened(&text), render);
        let by_page = read(&compiled_text).unwrap().opened();
        let by_researcher = plan_reader::open(&compiled_text).unwrap_or_else(|p| panic!("{p}"));
        assert_eq!(by_researcher.sha256, sha256_hex(&text), "{name}");
        assert_eq!(by_researcher.study, by_page.study, "{name}");
        assert!(by_researcher.study.analysis().is_none(), "{name}");

        let mut rendered = opened(&text).study;
        compiled::render_texts(&mut rendered, render);
        let mut without_plan: Value = serde_json::to_value(&rendered).unwrap();
        let page: Value = serde_json::to_value(&by_page.study).unwrap();
        without_plan.as_object_mut().unwrap().remove("analysis");
        assert_eq!(without_plan, page, "{name}");
    }
    let damaged =
        compile(&opened(&example("kitchen-qa")), render).replacen("\"seed\":", "\"seed\": ", 1);
    let problems = plan_reader::open(&damaged).unwrap_err();
    assert_eq!(problems.0[0].at, "study");
    assert!(
        problems.0[0].message.ends_with("[compiled.checksum]"),
        "{problems:?}"
    );
    assert_eq!(problems.0[0].fix, explain(compiled::CHECKSUM));
    let short = read(&damaged).unwrap_err().short();
    assert!(
        short.0[0].fix.contains("the code compiled.checksum"),
        "{short:?}"
    );
}
