//! Fuzzing on stable Rust, with proptest: every reader of untrusted text (the study parser and
//! validator, the ratings-file parser and `restore`, the stored envelope and `resume`, the tidy
//! CSV reader, the Markdown renderer) gets arbitrary bytes and structure-aware mutations of
//! valid files. The invariant: no panic, and every rejection says where (a JSON path, a line and
//! column, or a named field) and what to do.
//!
//! Inputs are bounded (a few hundred KB at most), so each case runs in bounded time and memory.
//! `scripts/test` runs the default number of cases (a few seconds); a longer run:
//!
//! ```sh
//! JUROR_FUZZ_CASES=20000 cargo test --release -p juror-core --test it fuzz::
//! ```
//!
//! A failure prints the smallest input proptest found; add it as a regression case below.

use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use serde_json::{Value, json};

use juror_core::analysis::{Context, Input, read};
use juror_core::base::digest::sha256_hex;
use juror_core::base::markdown::to_rich;
use juror_core::base::rich;
use juror_core::plan::{Annotator, plan, view::TrialView};
use juror_core::session::ratings::{export, parse, restore};
use juror_core::session::store::{self, Envelope, SCHEMA_VERSION};
use juror_core::session::{self, Msg, Reply, Session, Target, update};
use juror_core::study::{Study, parse_study};

use crate::support::example;

fn cases() -> u32 {
    std::env::var("JUROR_FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(200)
}

fn runner() -> TestRunner {
    TestRunner::new(Config {
        cases: cases(),
        failure_persistence: None,
        ..Config::default()
    })
}

const STUDIES: [&str; 4] = [
    "pandalm",
    "work-intake",
    "reasoning-trajectories",
    "hare-personalization",
];

// ---------------------------------------------------------------------------------------------
// Mutations

/// A value that has broken parsers before: out of range, wrong type, huge, hostile.
fn nasty() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        Just(json!(true)),
        Just(json!(-1)),
        Just(json!(0)),
        // The counts that drive the planner's allocations: slots, annotators per item,
        // items and systems from just past the caps to past u32.
        Just(json!(2_001)),
        Just(json!(10_000)),
        Just(json!(65_536)),
        Just(json!(200_000)),
        Just(json!(1_000_000_000)),
        Just(json!(4_294_967_295u64)),
        (10_000u64..=4_000_000_000).prop_map(|n| json!(n)),
        Just(json!(4_294_967_296u64)),
        Just(json!(u64::MAX)),
        Just(json!(-9.0e18)),
        Just(json!(1.0e308)),
        Just(json!(0.5)),
        Just(json!("")),
        Just(json!(" ")),
        Just(json!("javascript:alert(1)")),
        Just(json!("//evil.example/x.png")),
        Just(json!("/\\evil.example/x")),
        Just(json!("<script>alert(1)</script>")),
        Just(json!("=HYPERLINK(\"x\")")),
        Just(json!("\u{0}\u{1b}[2J\u{202e}")),
        Just(json!("x".repeat(20_000))),
        Just(json!([])),
        Just(json!({})),
        Just(json!([1, 2, 3, 2, 1])),
        Just(json!({"kind": "rank", "order": [9, 9, 1_000_000]})),
        Just(nested(150)),
        Just(Value::Array(vec![json!(1); 2_000])),
        any::<i64>().prop_map(|n| json!(n)),
        any::<f64>()
            .prop_filter("finite", |x| x.is_finite())
            .prop_map(|x| json!(x)),
        "[a-zA-Z0-9_ /.:-]{0,12}".prop_map(Value::String),
    ]
}

fn nested(depth: usize) -> Value {
    (0..depth).fold(json!(1), |v, _| json!([v]))
}

/// One structural edit at the `at`-th node (in document order, wrapping).
#[derive(Debug, Clone)]
enum Edit {
    Replace(usize, Value),
    Remove(usize),
    Duplicate(usize),
    /// Put a copy of another node here (a valid piece in the wrong place).
    Transplant(usize, usize),
    /// Change a node within its type (another number, string, order, length), which gets past
    /// the parser to the checks and the code after them.
    Tweak(usize, u8),
}

fn tweak(node: &mut Value, how: u8) {
    const NUMBERS: [f64; 13] = [
        -1.0,
        0.0,
        1.0,
        2.0,
        3.0,
        7.0,
        1000.0,
        10_000.0,
        200_000.0,
        1_000_000_000.0,
        4_294_967_296.0,
        0.5,
        -0.0,
    ];
    const STRINGS: [&str; 6] = ["", "x", "A", "a/b", "javascript:x", "s1"];
    let i = usize::from(how);
    match node {
        Value::Number(_) => {
            let x = NUMBERS[i % NUMBERS.len()];
            *node = if x.fract() == 0.0 && x.abs() < 1e15 {
                json!(x as i64)
            } else {
                json!(x)
            };
        }
        Value::String(_) => *node = json!(STRINGS[i % STRINGS.len()]),
        Value::Bool(b) => *b = !*b,
        Value::Array(a) => match i % 3 {
            0 => a.reverse(),
            1 => a.truncate(a.len() / 2),
            _ => {
                let by = usize::from(!a.is_empty());
                a.rotate_left(by);
            }
        },
        Value::Object(o) => {
            let keys: Vec<String> = o.keys().cloned().collect();
            if !keys.is_empty() {
                o.remove(&keys[i % keys.len()]);
            }
        }
        Value::Null => *node = json!(i),
    }
}

fn edits() -> impl Strategy<Value = Vec<Edit>> {
    let edit = prop_oneof![
        4 => (any::<usize>(), nasty()).prop_map(|(a, v)| Edit::Replace(a, v)),
        2 => any::<usize>().prop_map(Edit::Remove),
        1 => any::<usize>().prop_map(Edit::Duplicate),
        2 => (any::<usize>(), any::<usize>()).prop_map(|(a, b)| Edit::Transplant(a, b)),
        8 => (any::<usize>(), any::<u8>()).prop_map(|(a, b)| Edit::Tweak(a, b)),
    ];
    proptest::collection::vec(edit, 1..4)
}

/// Every node's JSON pointer, in document order.
fn pointers(v: &Value, here: String, out: &mut Vec<String>) {
    out.push(here.clone());
    match v {
        Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                pointers(x, format!("{here}/{i}"), out);
            }
        }
        Value::Object(o) => {
            for (k, x) in o {
                let k = k.replace('~', "~0").replace('/', "~1");
                pointers(x, format!("{here}/{k}"), out);
            }
        }
        _ => {}
    }
}

fn apply(value: &mut Value, edits: &[Edit]) {
    for edit in edits {
        let mut all = Vec::new();
        pointers(value, String::new(), &mut all);
        let at = |i: usize| all[i % all.len()].clone();
        match edit {
            Edit::Replace(i, v) => {
                if let Some(node) = value.pointer_mut(&at(*i)) {
                    *node = v.clone();
                }
            }
            Edit::Remove(i) => {
                let p = at(*i);
                if let Some((parent, last)) = p.rsplit_once('/')
                    && let Some(node) = value.pointer_mut(parent)
                {
                    let last = last.replace("~1", "/").replace("~0", "~");
                    match node {
                        Value::Object(o) => {
                            o.remove(&last);
                        }
                        Value::Array(a) => {
                            if let Ok(i) = last.parse::<usize>()
                                && i < a.len()
                            {
                                a.remove(i);
                            }
                        }
                        _ => {}
                    }
                }
            }
            Edit::Duplicate(i) => {
                if let Some(Value::Array(a)) = value.pointer_mut(&at(*i))
                    && let Some(first) = a.first().cloned()
                {
                    a.push(first);
                }
            }
            Edit::Tweak(i, how) => {
                if let Some(node) = value.pointer_mut(&at(*i)) {
                    tweak(node, *how);
                }
            }
            Edit::Transplant(to, from) => {
                let piece = value.pointer(&at(*from)).cloned();
                if let (Some(piece), Some(node)) = (piece, value.pointer_mut(&at(*to))) {
                    *node = piece;
                }
            }
        }
    }
}

/// Byte-level damage to a text: cut short, bytes replaced, bytes inserted.
fn damage() -> impl Strategy<Value = Vec<(u8, usize, u8)>> {
    proptest::collection::vec((0u8..3, any::<usize>(), any::<u8>()), 1..8)
}

fn damaged(text: &str, edits: &[(u8, usize, u8)]) -> String {
    let mut bytes = text.as_bytes().to_vec();
    for &(kind, at, byte) in edits {
        if bytes.is_empty() {
            break;
        }
        let at = at % bytes.len();
        match kind {
            0 => bytes.truncate(at),
            1 => bytes[at] = byte,
            _ => bytes.insert(at, byte),
        }
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

// ---------------------------------------------------------------------------------------------
// What each reader must do

/// A study: parsed, or refused with every problem placed and a fix; a parsed study plans and
/// shows every trial of the first slots without panicking.
fn check_study(text: &str) -> Option<Study> {
    match parse_study(text) {
        Ok(study) => {
            for slot in 1..=3 {
                let annotator = Annotator::slot(slot);
                let p = plan(&study, &annotator);
                let session = Session::new(&study, annotator);
                assert_eq!(p.trials.len(), session.plan.trials.len());
                for (i, trial) in p.trials.iter().enumerate().take(50) {
                    let _ = TrialView::new(&study, &p, i, trial);
                }
            }
            Some(study)
        }
        Err(problems) => {
            assert!(!problems.is_empty(), "a refusal without a problem");
            for p in problems.iter() {
                assert!(!p.at.trim().is_empty(), "a problem without a place: {p:?}");
                assert!(
                    !p.message.trim().is_empty(),
                    "a problem without a message: {p:?}"
                );
                assert!(!p.fix.trim().is_empty(), "a problem without a fix: {p:?}");
            }
            None
        }
    }
}

/// A ratings file: parsed and restored against its study, or refused with a place.
fn check_ratings(study: &Study, sha: &str, text: &str) {
    match parse(text) {
        Ok(file) => {
            if let Err(e) = restore(study, sha, &file) {
                assert!(
                    !e.at.trim().is_empty(),
                    "restore refused without a place: {e:?}"
                );
            }
            let _ = file.to_csv();
        }
        Err(e) => {
            assert!(!e.at.trim().is_empty(), "refused without a place: {e:?}");
            assert!(!e.message.trim().is_empty());
        }
    }
}

/// A stored envelope: read and resumed, or set aside with a reason; a resumed session renders
/// every trial and takes every message without panicking.
fn check_envelope(study: &Study, text: &str) {
    let Ok(envelope) = store::read(text) else {
        return;
    };
    let Ok(mut session) = store::resume(study, envelope, 1.0e12) else {
        return;
    };
    let _ = session::view(study, &session);
    let _ = session::progress(&session);
    for i in 0..session.plan.trials.len().min(50) {
        let _ = session::trial_targets(study, &session, i);
        let _ = session::trial_missing(study, &session, i);
    }
    for msg in [
        Msg::Next,
        Msg::Previous,
        Msg::GoTo(usize::MAX),
        Msg::answer(Target::Notes, Reply::Text("x".into())),
        Msg::clear(Target::Preference),
        Msg::Visibility(false),
        Msg::Visibility(true),
    ] {
        update(study, &mut session, msg, 1.0e12 + 1.0);
        let _ = session::current_view(study, &session);
    }
}

/// A tidy CSV or ratings file given to the analysis: read, every problem naming its file.
fn check_analysis_input(name: &str, text: &str) {
    let data = read(
        &[Input::new(name, text)],
        &Context {
            study: None,
            key: None,
            reveal_ids: false,
        },
    );
    for p in &data.problems {
        assert_eq!(p.file, name);
        assert!(!p.message.trim().is_empty());
    }
}

/// Markdown: rendered into a tree the page's reader accepts (nothing that runs, nothing from
/// another site), which reads back from its JSON as it was written.
fn check_markdown(text: &str) {
    let tree = to_rich(text, 1);
    assert_eq!(rich::check(&tree), Ok(()), "{text:?}");
    let json = serde_json::to_string(&tree).unwrap();
    let back = rich::read_text(&serde_json::from_str::<serde_json::Value>(&json).unwrap()).unwrap();
    assert_eq!(back, rich::Text::Rich(tree), "{text:?}");
}

// ---------------------------------------------------------------------------------------------
// The targets

#[test]
fn study_files_mutated_in_structure() {
    let originals: Vec<Value> = STUDIES
        .iter()
        .map(|n| serde_json::from_str(&example(n)).unwrap())
        .collect();
    runner()
        .run(&(0..originals.len(), edits()), |(which, edits)| {
            let mut v = originals[which].clone();
            apply(&mut v, &edits);
            check_study(&v.to_string());
            Ok(())
        })
        .unwrap();
}

#[test]
fn study_files_damaged_byte_by_byte() {
    let originals: Vec<String> = STUDIES.iter().map(|n| example(n)).collect();
    runner()
        .run(&(0..originals.len(), damage()), |(which, edits)| {
            check_study(&damaged(&originals[which], &edits));
            Ok(())
        })
        .unwrap();
}

#[test]
fn arbitrary_text_as_a_study_a_ratings_file_an_envelope_a_csv_and_markdown() {
    let text = example("pandalm");
    let study = parse_study(&text).unwrap();
    let sha = sha256_hex(&text);
    runner()
        .run(&".{0,400}", |s| {
            check_study(&s);
            check_ratings(&study, &sha, &s);
            check_envelope(&study, &s);
            check_analysis_input("x.csv", &s);
            check_analysis_input("x.json", &s);
            check_markdown(&s);
            Ok(())
        })
        .unwrap();
}

/// A finished session of `name`'s slot 1, with every answer given, as a ratings file and as the
/// envelope storage holds.
fn finished(name: &str) -> (Study, String, Value, Value) {
    let text = example(name);
    let study = parse_study(&text).unwrap();
    let sha = sha256_hex(&text);
    let mut s = Session::new(&study, Annotator::slot(1));
    let mut now = 1.0e12;
    for _ in 0..2_000 {
        now += 1_000.0;
        let msg = match s.progress.phase {
            session::Phase::Welcome => Msg::Start,
            session::Phase::Consent => Msg::Consent(true),
            session::Phase::Instructions => Msg::FinishInstructions,
            session::Phase::Trials => {
                for (target, _) in session::trial_targets(&study, &s, s.progress.current) {
                    if let session::Target::Rating {
                        position,
                        dimension,
                    } = target
                    {
                        let value = study.dimension(&dimension).unwrap().scale.max();
                        update(
                            &study,
                            &mut s,
                            Msg::answer(
                                Target::Rating {
                                    position,
                                    dimension,
                                },
                                Reply::Score(value),
                            ),
                            now,
                        );
                    }
                }
                Msg::answer(Target::Notes, Reply::Text("a note".into()))
            }
            _ => break,
        };
        update(&study, &mut s, msg, now);
        if s.progress.phase == session::Phase::Trials {
            update(&study, &mut s, Msg::Next, now);
        }
    }
    let file = export(&study, &sha, &s, "fuzz", now);
    let ratings: Value = serde_json::from_str(&file.to_json()).unwrap();
    let envelope: Value = serde_json::from_str(
        &store::write(&Envelope {
            schema_version: SCHEMA_VERSION,
            study_id: study.id().to_owned(),
            study_sha256: sha.clone(),
            saved_at: now,
            revision: 3,
            app_version: "fuzz".to_owned(),
            progress: s.progress.clone(),
            plan: Some(s.plan.fingerprint()),
        })
        .unwrap(),
    )
    .unwrap();
    (study, sha, ratings, envelope)
}

#[test]
fn ratings_files_mutated_in_structure() {
    let (study, sha, ratings, _) = finished("work-intake");
    runner()
        .run(&(edits(), any::<bool>()), |(edits, reseal)| {
            let mut v = ratings.clone();
            apply(&mut v, &edits);
            // Half the cases carry a checksum recomputed after the edit (as a forger or a buggy
            // tool would write), so they get past it to the checks and the code behind them.
            if reseal && let Some(o) = v.as_object_mut() {
                o.remove("sha256");
                let sum = sha256_hex(&serde_json::to_string(&v).unwrap());
                v["sha256"] = json!(sum);
            }
            check_ratings(&study, &sha, &v.to_string());
            check_analysis_input("r.json", &v.to_string());
            Ok(())
        })
        .unwrap();
}

#[test]
fn stored_envelopes_mutated_in_structure_and_damaged() {
    let (study, _, _, envelope) = finished("work-intake");
    let text = envelope.to_string();
    runner()
        .run(
            &(edits(), damage(), any::<bool>()),
            |(edits, bytes, structural)| {
                if structural {
                    let mut v = envelope.clone();
                    apply(&mut v, &edits);
                    check_envelope(&study, &v.to_string());
                } else {
                    check_envelope(&study, &damaged(&text, &bytes));
                }
                Ok(())
            },
        )
        .unwrap();
}

#[test]
fn tidy_csv_damaged_and_with_hostile_cells() {
    let header = "item_id,system_id,annotator_id,dimension,score\n";
    let row = prop_oneof![
        Just("i1,s1,a1,q,3".to_owned()),
        Just("i1,s2,a1,q,3".to_owned()),
        Just("i1,s1,a2,q,1e400".to_owned()),
        Just("\"i,1\",s1,a1,q,NaN".to_owned()),
        Just("=cmd,s1,a1,q,2".to_owned()),
        Just("i2,s1,a1".to_owned()),
        Just("i2,s1,a1,q,3,extra".to_owned()),
        Just("\"unterminated,s1,a1,q,3".to_owned()),
        "[a-z0-9,\"\r\n\t=+-]{0,30}",
    ];
    runner()
        .run(
            &(proptest::collection::vec(row, 0..40), damage()),
            |(rows, bytes)| {
                let text = format!("{header}{}", rows.join("\n"));
                check_analysis_input("t.csv", &text);
                check_analysis_input("t.csv", &damaged(&text, &bytes));
                Ok(())
            },
        )
        .unwrap();
}

#[test]
fn markdown_with_hostile_markup() {
    let piece = prop_oneof![
        Just("<script>alert(1)</script>".to_owned()),
        Just("<img src=x onerror=alert(1)>".to_owned()),
        Just("[a](javascript:alert(1))".to_owned()),
        Just("[a](JaVaScRiPt:alert(1))".to_owned()),
        Just("![i](//evil.example/x.png)".to_owned()),
        Just("![i](/\\evil.example/x.png)".to_owned()),
        Just("<iframe src=x>".to_owned()),
        Just("`code`".to_owned()),
        Just("\n\n| a | b |\n|---|---|\n| 1 | 2 |\n".to_owned()),
        Just("*".repeat(500)),
        Just("[".repeat(500)),
        Just("> ".repeat(200)),
        "[ -~\n]{0,40}",
    ];
    runner()
        .run(&proptest::collection::vec(piece, 0..12), |pieces| {
            check_markdown(&pieces.concat());
            Ok(())
        })
        .unwrap();
}
