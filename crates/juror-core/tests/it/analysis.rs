//! The analysis report against direct calls of the statistics, on ratings files written by the
//! core's own sessions.
//!
//! The fixtures in `tests/fixtures/analysis/` are generated here from replayed sessions of the
//! example studies (financial-analysis: three annotators rating 1 to 5; pandalm, sealed: three
//! annotators choosing between two responses, with ties; work-intake: two annotators scoring
//! four plans and picking the best), plus a few broken inputs. Regenerate them with
//! `JUROR_BLESS=1 cargo test -p juror-core --test it analysis::` and read the diff.
//!
//! Every number of the report is checked against the `stats` function it comes from, called on
//! data rebuilt here from the ratings files independently of `analysis::input`.

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

use juror_core::analysis::plan_reader::parse_study;
use juror_core::analysis::report::{UNIT_SEPARATOR, item_means};
use juror_core::analysis::{
    Adjudication, Context, Input, InputKind, Options, Report, analyze, markdown, read, report,
    to_csv,
};
use juror_core::base::digest::sha256_hex;
use juror_core::plan::Annotator;
use juror_core::publish::{SealKey, seal};
use juror_core::session::ratings::{PreferenceRecord, RatingsFile, export, parse};
use juror_core::session::{Msg, Phase, Preference, Reply, Session, Target, update};
use juror_core::stats::agreement::{
    Metric, Ratings, fleiss_kappa, krippendorff_alpha, pairwise, percent_agreement,
};
use juror_core::stats::paired::{
    bonferroni, bootstrap_mean, describe, differences, holm, paired_effect, wilcoxon,
};
use juror_core::stats::preference::{
    BradleyTerryOptions, Comparison, Outcome, Tally, bradley_terry, bradley_terry_bootstrap,
};
use juror_core::study::raw::RawStudy;
use juror_core::study::{PreferenceKind, Study};

use crate::support::{self, bless, check, example, tol};

fn fixtures() -> PathBuf {
    support::fixtures("analysis")
}

fn close(what: &str, got: Option<f64>, want: Option<f64>) {
    support::close(what, got, want, tol::SUMMATION_ORDER);
}

// ---------------------------------------------------------------------------------------------
// Fixtures: replayed sessions
// ---------------------------------------------------------------------------------------------

/// 2026-11-21T23:00:00.000Z.
const T0: f64 = 1_795_302_000_000.0;
const APP_VERSION: &str = "0.1.0";

/// The secret the pandalm fixture is sealed with (a real study uses a random one).
const SECRET: [u8; 32] = [42; 32];

/// What an annotator answers in a trial: a score per (position, dimension), and a preference.
struct Answers {
    scores: Vec<(usize, String, i32)>,
    preference: Option<Preference>,
}

/// Replays a session from the welcome page to the end, answering each trial with `answer`
/// (given the trial's index, item id and shown system names); `unfinished` trials at the end are
/// answered but never left.
fn replay(
    study: &Study,
    annotator: Annotator,
    unfinished: usize,
    answer: impl Fn(usize, &str, &[String]) -> Answers,
) -> Session {
    replay_timed(study, annotator, unfinished, 1000.0, answer)
}

/// [`replay`] with `step` milliseconds between two actions of the annotator.
fn replay_timed(
    study: &Study,
    annotator: Annotator,
    unfinished: usize,
    step: f64,
    answer: impl Fn(usize, &str, &[String]) -> Answers,
) -> Session {
    let mut s = Session::new(study, annotator);
    let mut now = T0;
    let mut tick = || {
        now += step;
        now
    };
    update(study, &mut s, Msg::Start, tick());
    update(study, &mut s, Msg::FinishInstructions, tick());
    assert_eq!(s.progress.phase, Phase::Trials);
    let total = s.plan.trials.len();
    for index in 0..total {
        let trial = s.plan.trials[index].clone();
        let item = study.items()[trial.item].id.clone();
        let shown: Vec<String> = trial
            .shown
            .iter()
            .map(|x| study.systems()[x.system].clone())
            .collect();
        let a = answer(index, &item, &shown);
        for (position, dimension, value) in a.scores {
            update(
                study,
                &mut s,
                Msg::answer(
                    Target::Rating {
                        position,
                        dimension,
                    },
                    Reply::Score(value),
                ),
                tick(),
            );
        }
        if a.preference.is_some() {
            update(
                study,
                &mut s,
                Msg::Answer {
                    target: Target::Preference,
                    reply: a.preference.map(Reply::Preference),
                    advance: false,
                },
                tick(),
            );
        }
        if index + unfinished >= total {
            break;
        }
        update(study, &mut s, Msg::Next, tick());
        assert!(s.missing.is_empty(), "trial {index}: {:?}", s.missing);
    }
    s
}

fn export_json(study: &Study, hash: &str, s: &Session) -> String {
    export(study, hash, s, APP_VERSION, T0 + 3_600_000.0).to_json()
}

/// A small deterministic "noise" in -1..=1 from three numbers.
fn jitter(a: usize, b: usize, c: usize) -> i32 {
    match (a * 7 + b * 3 + c * 5) % 5 {
        0 => 1,
        1 => -1,
        _ => 0,
    }
}

/// Items of financial-analysis on which annotators disagree strongly about one system.
const DISPUTED: [(&str, &str); 4] = [
    ("msft", "base-llm"),
    ("jnj", "base-llm"),
    ("xom", "fin-agent"),
    ("tsla", "base-llm"),
];

/// financial-analysis, slots 1 to 3 (slot 2 with an id): fin-agent rated about one point above
/// base-llm, item and annotator effects, strong disagreements on the `DISPUTED` cells, and slot
/// 3's last trial left unfinished.
fn financial_files() -> Vec<(String, String)> {
    let text = example("financial-analysis");
    let (study, hash) = (parse_study(&text).unwrap(), sha256_hex(&text));
    let items: Vec<String> = study.items().iter().map(|i| i.id.clone()).collect();
    let mut out = Vec::new();
    for slot in 1..=3u32 {
        let id = (slot == 2).then(|| "ann-b".to_owned());
        let annotator = Annotator {
            slot,
            id,
            platform: None,
        };
        let unfinished = usize::from(slot == 3);
        let s = replay(&study, annotator, unfinished, |_, item, shown| {
            let i = items.iter().position(|x| x == item).unwrap();
            let system = &shown[0];
            let base = if system == "fin-agent" { 4 } else { 3 };
            let mut score = base + (i % 3) as i32 - 1 + jitter(i, slot as usize, system.len());
            if DISPUTED.contains(&(item, system.as_str())) {
                score = [1, 3, 5][slot as usize - 1];
            }
            Answers {
                scores: vec![(0, "quality".into(), score.clamp(1, 5))],
                preference: None,
            }
        });
        out.push((
            format!("financial-slot{slot}.json"),
            export_json(&study, &hash, &s),
        ));
    }
    out
}

/// pandalm, sealed with [`SECRET`]: the sealed study, its key, and slots 1 to 3 choosing
/// llama-7b mostly, a tie on every fourth item, and disagreements.
fn pandalm_files() -> Vec<(String, String)> {
    let raw: RawStudy = serde_json::from_str(&example("pandalm")).unwrap();
    let (sealed, key) = seal(&raw, &SECRET);
    let mut text = serde_json::to_string_pretty(&sealed).unwrap();
    text.push('\n');
    let (study, hash) = (parse_study(&text).unwrap(), sha256_hex(&text));
    let id_of = |token: &str| key.systems[token].clone();
    let items: Vec<String> = study.items().iter().map(|i| i.id.clone()).collect();
    let mut out = vec![
        ("pandalm-sealed-study.json".to_owned(), text.clone()),
        (
            "pandalm-key.json".to_owned(),
            format!("{}\n", serde_json::to_string_pretty(&key).unwrap()),
        ),
    ];
    for slot in 1..=3u32 {
        let annotator = Annotator::slot(slot);
        let s = replay(&study, annotator, 0, |_, item, shown| {
            let i = items.iter().position(|x| x == item).unwrap();
            let llama = shown.iter().position(|t| id_of(t) == "llama-7b").unwrap();
            let preference = if i % 4 == 0 && !(slot == 2 && i == 4) {
                Preference::Tie
            } else if (slot == 3 && (i == 1 || i == 5)) || i == 7 {
                Preference::Choice {
                    position: 1 - llama,
                }
            } else {
                Preference::Choice { position: llama }
            };
            Answers {
                scores: Vec::new(),
                preference: Some(preference),
            }
        });
        out.push((
            format!("pandalm-slot{slot}.json"),
            export_json(&study, &hash, &s),
        ));
    }
    out
}

/// work-intake, slots 1 and 2: four plans scored on three dimensions, the best picked.
fn work_intake_files() -> Vec<(String, String)> {
    let text = example("work-intake");
    let (study, hash) = (parse_study(&text).unwrap(), sha256_hex(&text));
    let task = &study.design().tasks[0];
    assert_eq!(
        task.preference.as_ref().map(|p| p.kind),
        Some(PreferenceKind::Best)
    );
    let dimensions = task.dimensions.clone();
    let strength = |system: &str| match system {
        "full-pipeline" => 4,
        "retrieval-only" => 3,
        "no-evidence" => 3,
        _ => 2,
    };
    let mut out = Vec::new();
    for slot in 1..=2u32 {
        let s = replay(&study, Annotator::slot(slot), 0, |index, _, shown| {
            let mut scores = Vec::new();
            for (p, system) in shown.iter().enumerate() {
                for (d, dimension) in dimensions.iter().enumerate() {
                    let v = strength(system) + jitter(index, p + slot as usize, d);
                    scores.push((p, dimension.clone(), v.clamp(1, 5)));
                }
            }
            let best = if index % 3 == 2 && slot == 2 {
                shown.iter().position(|s| s == "retrieval-only")
            } else {
                shown.iter().position(|s| s == "full-pipeline")
            };
            Answers {
                scores,
                preference: Some(Preference::Best {
                    position: best.unwrap(),
                }),
            }
        });
        out.push((
            format!("work-intake-slot{slot}.json"),
            export_json(&study, &hash, &s),
        ));
    }
    out
}

/// Broken inputs: a ratings file whose checksum no longer matches, a CSV with bad rows, and a
/// CSV whose header is neither table.
fn broken_files(financial: &[(String, String)]) -> Vec<(String, String)> {
    let slot1 = &financial[0].1;
    let stated = parse(slot1).unwrap().sha256;
    let tampered = slot1.replace(&stated, &"0".repeat(64));
    let csv = "item_id,system_id,annotator_id,dimension,score,comment\n\
               aapl,fin-agent,extra,quality,4,\"fine, really\"\n\
               aapl,fin-agent,extra,quality,5,second rating of the same cell\n\
               \"msft, inc\",fin-agent,extra,quality,3,\"two\nlines\"\n\
               nvda,fin-agent,extra,quality,high,not a number\n\
               nvda,fin-agent,extra,quality\n\
               nvda,,extra,quality,2,no system\n";
    let header = "item,model,rater,score\nx,y,z,1\n";
    vec![
        ("tampered.json".to_owned(), tampered),
        ("bad-rows.csv".to_owned(), csv.to_owned()),
        ("bad-header.csv".to_owned(), header.to_owned()),
    ]
}

/// reasoning-trajectories, slots 1 to 3, for the diagnostics: pairs rated on three dimensions
/// with an attention check (rft-base's correctness must be 1 on `check-circles`). Slot 1 rates
/// the output shown first a point higher (position bias) and passes the check; slot 2 answers
/// five times faster than the others and passes; slot 3 gives 3 to everything (straight-lining)
/// and so fails the check.
fn trajectories_files() -> Vec<(String, String)> {
    let text = example("reasoning-trajectories");
    let (study, hash) = (parse_study(&text).unwrap(), sha256_hex(&text));
    let task = &study.design().tasks[0];
    let dimensions: Vec<String> = if task.dimensions.is_empty() {
        study
            .rubric()
            .dimensions
            .iter()
            .map(|d| d.id.clone())
            .collect()
    } else {
        task.dimensions.clone()
    };
    let strength = |system: &str| match system {
        "rft-full" => 4,
        "rft-coherence" => 3,
        "online" => 3,
        _ => 2,
    };
    let mut out = Vec::new();
    for slot in 1..=3u32 {
        let step = if slot == 2 { 200.0 } else { 1000.0 };
        let dimensions = &dimensions;
        let s = replay_timed(
            &study,
            Annotator::slot(slot),
            0,
            step,
            |index, item, shown| {
                let mut scores = Vec::new();
                for (p, system) in shown.iter().enumerate() {
                    for (d, dimension) in dimensions.iter().enumerate() {
                        let v = if slot == 3 {
                            3
                        } else if item == "check-circles" && system == "rft-base" {
                            1
                        } else {
                            let bias = i32::from(slot == 1 && p == 0);
                            strength(system) + bias + jitter(index, p + slot as usize, d)
                        };
                        scores.push((p, dimension.clone(), v.clamp(1, 5)));
                    }
                }
                Answers {
                    scores,
                    preference: None,
                }
            },
        );
        out.push((
            format!("trajectories-slot{slot}.json"),
            export_json(&study, &hash, &s),
        ));
    }
    out
}

/// hare-personalization as its protocol runs it: twelve participants, each rating every system's
/// skill in all ten rounds on four dimensions, as one tidy CSV. HARE is a point above the
/// baselines on personalization and novelty, level with rag on quality (non-inferior), and
/// participants differ in how they use the scale and how much they like HARE.
fn hare_files() -> Vec<(String, String)> {
    let text = example("hare-personalization");
    let study = parse_study(&text).unwrap();
    let mut csv = String::from("item_id,system_id,annotator_id,dimension,score\n");
    let level = |system: &str, dimension: &str| match (system, dimension) {
        ("hare", "quality" | "relevance") => 4,
        ("hare", _) => 4,
        ("rag", "quality" | "relevance") => 4,
        ("rag", _) => 3,
        ("gpt2", "quality") => 3,
        ("gpt2", _) => 3,
        _ => 2,
    };
    for p in 1..=12usize {
        let lean = [0, 1, -1, 0][p % 4];
        for (i, item) in study.items().iter().enumerate() {
            for (k, system) in study.systems().iter().enumerate() {
                for (d, dimension) in study.rubric().dimensions.iter().enumerate() {
                    let fan = i32::from(system == "hare" && p % 3 == 0 && d >= 2);
                    // Noise in -1..=1, uneven across participants, rounds and systems.
                    let mix = (p * 7919 + i * 104_729 + k * 1_299_709 + d * 15_485_863) as u64;
                    let noise = (mix.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 61) as i32;
                    let noise = [-1, -1, 0, 0, 0, 0, 1, 1][noise as usize];
                    let v = level(system, &dimension.id) + lean + fan + noise;
                    csv.push_str(&format!(
                        "{},{system},p{p:02},{},{}\n",
                        item.id,
                        dimension.id,
                        v.clamp(1, 5)
                    ));
                }
            }
        }
    }
    vec![("hare-ratings.csv".to_owned(), csv)]
}

/// hare-personalization's whole session for slots 1 to 3, every kind of answer given: consent,
/// the intake (role, years, familiarity, three topics), the ten rounds of four systems rated on
/// four dimensions with "useful / not useful" (HARE useful, the others mostly not; slot 2 flags
/// random's skills), the forced choices between HARE and each baseline with a reason, notes on
/// one trial, and the exit survey (the systems ranked by their letters, a text, a choice).
fn hare_sessions() -> Vec<(String, String)> {
    use juror_core::session::Survey;
    use juror_core::session::answers::Answer;
    let text = example("hare-personalization");
    let (study, hash) = (parse_study(&text).unwrap(), sha256_hex(&text));
    let strength = |system: &str| match system {
        "hare" => 4,
        "rag" => 3,
        "gpt2" => 3,
        _ => 2,
    };
    let mut out = Vec::new();
    for slot in 1..=3u32 {
        let mut s = Session::new(&study, Annotator::slot(slot));
        let mut now = T0;
        let mut step = |study: &Study, s: &mut Session, msg: Msg| {
            now += 1000.0;
            update(study, s, msg, now);
        };
        let survey = |_: Survey, id: &str, answer: Answer| {
            Msg::answer(
                Target::Survey {
                    question: id.to_owned(),
                },
                Reply::Answer(answer),
            )
        };
        for _ in 0..200 {
            match s.progress.phase {
                Phase::Welcome => step(&study, &mut s, Msg::Start),
                Phase::Consent => step(&study, &mut s, Msg::Consent(true)),
                Phase::Instructions => step(&study, &mut s, Msg::FinishInstructions),
                Phase::Intake => {
                    let role = [
                        "Researcher or academic",
                        "Student (undergraduate or graduate)",
                    ][slot as usize % 2];
                    for msg in [
                        survey(Survey::Intake, "role", Answer::Choice(role.into())),
                        survey(
                            Survey::Intake,
                            "experience_years",
                            Answer::Number(f64::from(slot * 3)),
                        ),
                        survey(
                            Survey::Intake,
                            "llm_familiarity",
                            Answer::Scale(3 + slot as i32 % 3),
                        ),
                        survey(
                            Survey::Intake,
                            "topics",
                            Answer::Choices(vec![
                                "Python testing".into(),
                                "API security".into(),
                                "data pipelines".into(),
                            ]),
                        ),
                        Msg::SubmitSurvey(Survey::Intake),
                    ] {
                        step(&study, &mut s, msg);
                    }
                }
                Phase::Trials => {
                    let index = s.progress.current;
                    let trial = s.plan.trials[index].clone();
                    let task = &study.design().tasks[trial.task];
                    let systems: Vec<String> = trial
                        .shown
                        .iter()
                        .map(|x| study.systems()[x.system].clone())
                        .collect();
                    for (p, system) in systems.iter().enumerate() {
                        for (d, dimension) in task.dimensions.iter().enumerate() {
                            let v = strength(system) + jitter(index, p + slot as usize, d);
                            step(
                                &study,
                                &mut s,
                                Msg::answer(
                                    Target::Rating {
                                        position: p,
                                        dimension: dimension.clone(),
                                    },
                                    Reply::Score(v.clamp(1, 5)),
                                ),
                            );
                        }
                        for question in &task.output_questions {
                            let useful = system == "hare"
                                || (system == "rag" && index % 3 == slot as usize % 3);
                            step(
                                &study,
                                &mut s,
                                Msg::answer(
                                    Target::OutputQuestion {
                                        position: p,
                                        question: question.clone(),
                                    },
                                    Reply::Answer(Answer::Choice(
                                        if useful { "Useful" } else { "Not useful" }.into(),
                                    )),
                                ),
                            );
                        }
                        if task.flag.is_some() && slot == 2 && system == "random" {
                            step(
                                &study,
                                &mut s,
                                Msg::answer(Target::Flag { position: p }, Reply::Ticked),
                            );
                        }
                    }
                    if task.preference.is_some() {
                        let hare = systems.iter().position(|x| x == "hare").unwrap_or(0);
                        step(
                            &study,
                            &mut s,
                            Msg::answer(
                                Target::Preference,
                                Reply::Preference(Preference::Choice { position: hare }),
                            ),
                        );
                        step(
                            &study,
                            &mut s,
                            Msg::answer(
                                Target::Explanation,
                                Reply::Text("more specific to my topics".into()),
                            ),
                        );
                    }
                    if index == 1 {
                        step(
                            &study,
                            &mut s,
                            Msg::answer(
                                Target::Notes,
                                Reply::Text("this one took a while to read".into()),
                            ),
                        );
                    }
                    step(&study, &mut s, Msg::Next);
                }
                Phase::Exit => {
                    // The annotator's letters of the systems (the rounds', which stay),
                    // best (HARE) first.
                    let mut letters: Vec<(i32, String)> = Vec::new();
                    for t in s.plan.trials.iter().filter(|t| t.task == 0) {
                        for x in &t.shown {
                            let system = &study.systems()[x.system];
                            if !letters.iter().any(|(_, l)| *l == x.label) {
                                letters.push((
                                    -strength(system) * 10 - x.system as i32,
                                    x.label.clone(),
                                ));
                            }
                        }
                    }
                    letters.sort();
                    let order = letters.into_iter().map(|(_, l)| l).collect();
                    for msg in [
                        survey(Survey::Exit, "system_ranking", Answer::Rank(order)),
                        survey(
                            Survey::Exit,
                            "personalisation_feedback",
                            Answer::Text(format!("slot {slot}: topical outputs felt personal")),
                        ),
                        survey(
                            Survey::Exit,
                            "improved_over_time",
                            Answer::Choice("Somewhat".into()),
                        ),
                        Msg::SubmitSurvey(Survey::Exit),
                    ] {
                        step(&study, &mut s, msg);
                    }
                }
                Phase::Done | Phase::Declined | Phase::Screened => break,
            }
        }
        assert_eq!(
            s.progress.phase,
            Phase::Done,
            "slot {slot}: {:?}",
            s.missing
        );
        out.push((
            format!("hare-slot{slot}.json"),
            export_json(&study, &hash, &s),
        ));
    }
    out
}

fn generated() -> Vec<(String, String)> {
    let financial = financial_files();
    let mut all = financial.clone();
    all.extend(pandalm_files());
    all.extend(work_intake_files());
    all.extend(trajectories_files());
    all.extend(hare_files());
    all.extend(hare_sessions());
    all.extend(broken_files(&financial));
    all
}

#[test]
fn fixtures_are_what_the_sessions_export() {
    for (name, text) in generated() {
        let path = fixtures().join(&name);
        if bless() {
            std::fs::create_dir_all(fixtures()).unwrap();
            std::fs::write(&path, &text).unwrap();
        }
        let committed = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            committed == text,
            "{} is out of date; regenerate it with \
             `JUROR_BLESS=1 cargo test -p juror-core --test it analysis::` and read the diff",
            path.display()
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Reading the committed fixtures
// ---------------------------------------------------------------------------------------------

fn fixture(name: &str) -> Input<'static> {
    support::input(name)
}

fn inputs(names: &[&str]) -> Vec<Input<'static>> {
    names.iter().map(|n| fixture(n)).collect()
}

const FINANCIAL: [&str; 3] = [
    "financial-slot1.json",
    "financial-slot2.json",
    "financial-slot3.json",
];
const PANDALM: [&str; 3] = [
    "pandalm-slot1.json",
    "pandalm-slot2.json",
    "pandalm-slot3.json",
];
const WORK_INTAKE: [&str; 2] = ["work-intake-slot1.json", "work-intake-slot2.json"];

/// Few resamples: the tests check that the report passes the same data and seed to the
/// bootstrap, not the bootstrap itself.
const OPTIONS: Options = Options {
    flag_sd: 1.5,
    seed: 7,
    resamples: 50,
    reference: None,
    plan: None,
    reveal_ids: false,
    judges: juror_core::analysis::judges::JudgeSettings {
        epsilon: None,
        fdr: None,
        min_humans: None,
        min_instances: None,
    },
    exclude_unadjudicated: None,
};

fn key() -> SealKey {
    serde_json::from_str(&fixture("pandalm-key.json").text).unwrap()
}

/// (file, annotator, item, system, dimension, score) of every finished, non-check trial,
/// straight from the parsed files.
type Rating = (String, String, String, String, String, f64);

fn ratings_of(files: &[Input]) -> Vec<Rating> {
    let mut out = Vec::new();
    for input in files {
        let file: RatingsFile = parse(&input.text).unwrap();
        let who = file
            .annotator
            .id
            .clone()
            .unwrap_or(format!("slot{}", file.annotator.slot));
        for t in file.trials.iter().filter(|t| t.done && !t.check) {
            for o in &t.outputs {
                for (d, v) in &o.ratings {
                    out.push((
                        input.name.clone(),
                        who.clone(),
                        t.item.clone(),
                        o.system.clone(),
                        d.clone(),
                        f64::from(*v),
                    ));
                }
            }
        }
    }
    out
}

/// Per system, item → mean over annotators (items in byte order), for one dimension.
fn means_by_hand(
    ratings: &[Rating],
    dimension: &str,
    adjudicated: &BTreeMap<(String, String), f64>,
) -> BTreeMap<String, BTreeMap<String, f64>> {
    let mut cells: BTreeMap<(String, String), Vec<f64>> = BTreeMap::new();
    for (_, _, item, system, d, v) in ratings {
        if d == dimension {
            cells
                .entry((system.clone(), item.clone()))
                .or_default()
                .push(*v);
        }
    }
    let mut out: BTreeMap<String, BTreeMap<String, f64>> = BTreeMap::new();
    for ((system, item), vs) in cells {
        let v = adjudicated
            .get(&(item.clone(), system.clone()))
            .copied()
            .unwrap_or(vs.iter().sum::<f64>() / vs.len() as f64);
        out.entry(system).or_default().insert(item, v);
    }
    out
}

/// Checks every number of one dimension's systems and comparisons against direct calls.
fn check_dimension(
    report: &Report,
    dimension: &str,
    means: &BTreeMap<String, BTreeMap<String, f64>>,
) {
    let d = report
        .dimensions
        .iter()
        .find(|d| d.dimension == dimension)
        .unwrap();
    assert_eq!(
        d.systems.iter().map(|s| &s.system).collect::<Vec<_>>(),
        means.keys().collect::<Vec<_>>()
    );
    for s in &d.systems {
        let xs: Vec<f64> = means[&s.system].values().copied().collect();
        let want = describe(&xs).unwrap();
        assert_eq!(s.n, want.n);
        close("mean", Some(s.mean), Some(want.mean));
        close("sd", s.sd, Some(want.sd));
        close("median", Some(s.median), Some(want.median));
        close("ci low", s.ci95.map(|c| c.low), Some(want.ci95.low));
        close("ci high", s.ci95.map(|c| c.high), Some(want.ci95.high));
        let boot = bootstrap_mean(&xs, 0.95, OPTIONS.resamples, OPTIONS.seed).unwrap();
        let b = s.bootstrap.unwrap();
        close("bootstrap low", Some(b.low), Some(boot.interval.low));
        close("bootstrap high", Some(b.high), Some(boot.interval.high));
    }
    let systems: Vec<&String> = means.keys().collect();
    let mut k = 0;
    for (i, a) in systems.iter().enumerate() {
        for b in &systems[i + 1..] {
            let c = &d.comparisons[k];
            k += 1;
            assert_eq!((&c.system_a, &c.system_b), (*a, *b));
            let (x, y): (Vec<f64>, Vec<f64>) = means[*a]
                .iter()
                .filter_map(|(item, va)| means[*b].get(item).map(|vb| (*va, *vb)))
                .unzip();
            assert_eq!(c.n, x.len());
            let diffs = differences(&x, &y).unwrap();
            let w = wilcoxon(&diffs).unwrap();
            close("p", c.p_value, Some(w.p_value));
            close("W", c.wilcoxon.map(|w| w.statistic), Some(w.statistic));
            let e = paired_effect(&diffs).unwrap();
            close("d_z", c.d_z, Some(e.d_z));
            close("g_z", c.g_z, Some(e.g_z));
            close("rank-biserial", c.rank_biserial, e.rank_biserial);
        }
    }
    assert_eq!(k, d.comparisons.len());
}

/// The agreement matrix of one dimension, built by hand: units "item␟system", raters in order of
/// first appearance.
fn matrix_by_hand(ratings: &[Rating], dimension: &str, scale: &[f64]) -> Ratings {
    let triples =
        ratings
            .iter()
            .filter(|r| r.4 == dimension)
            .map(|(_, who, item, system, _, v)| {
                (format!("{item}{UNIT_SEPARATOR}{system}"), who.clone(), *v)
            });
    Ratings::from_triples(triples)
        .unwrap()
        .with_scale(scale)
        .unwrap()
}

fn check_agreement(report: &Report, dimension: &str, m: &Ratings) {
    let a = &report
        .dimensions
        .iter()
        .find(|d| d.dimension == dimension)
        .unwrap()
        .agreement;
    close("fleiss", a.fleiss_kappa, fleiss_kappa(m));
    close("percent", a.percent_agreement, percent_agreement(m));
    close(
        "alpha nominal",
        a.krippendorff_alpha.nominal,
        krippendorff_alpha(m, Metric::Nominal),
    );
    close(
        "alpha ordinal",
        a.krippendorff_alpha.ordinal,
        krippendorff_alpha(m, Metric::Ordinal),
    );
    close(
        "alpha interval",
        a.krippendorff_alpha.interval,
        krippendorff_alpha(m, Metric::Interval),
    );
    let pairs = pairwise(m);
    assert_eq!(a.cohen_kappa.len(), pairs.len());
    for (got, want) in a.cohen_kappa.iter().zip(&pairs) {
        assert_eq!(
            (&got.annotator_a, &got.annotator_b, got.units),
            (&want.rater_a, &want.rater_b, want.units)
        );
        close("cohen", got.unweighted, want.unweighted);
        close("cohen linear", got.linear, want.linear);
        close("cohen quadratic", got.quadratic, want.quadratic);
        close("pair agreement", got.agreement, want.agreement);
    }
}

fn financial_study() -> (Study, String) {
    let text = example("financial-analysis");
    (parse_study(&text).unwrap(), sha256_hex(&text))
}

const FIVE: [f64; 5] = [1.0, 2.0, 3.0, 4.0, 5.0];

// ---------------------------------------------------------------------------------------------
// The report's numbers
// ---------------------------------------------------------------------------------------------

#[test]
fn ratings_numbers_equal_direct_calls_of_the_statistics() {
    let files = inputs(&FINANCIAL);
    let (study, hash) = financial_study();
    let context = Context {
        study: Some((&study, &hash)),
        key: None,
        reveal_ids: false,
    };
    let (data, report) = analyze(&files, &context, None, &OPTIONS);
    assert!(report.problems.is_empty(), "{:?}", report.problems);
    let ratings = ratings_of(&files);
    assert_eq!(data.ratings.len(), ratings.len());
    // Slot 3 left its last trial unfinished: 3 × 50 − 1 ratings.
    assert_eq!(ratings.len(), 149);
    assert_eq!(report.inputs[2].unfinished_trials, 1);
    assert_eq!(
        report
            .inputs
            .iter()
            .map(|f| f.annotator.clone().unwrap())
            .collect::<Vec<_>>(),
        ["slot1", "ann-b", "slot3"]
    );

    let means = means_by_hand(&ratings, "quality", &BTreeMap::new());
    check_dimension(&report, "quality", &means);
    check_agreement(
        &report,
        "quality",
        &matrix_by_hand(&ratings, "quality", &FIVE),
    );

    // The distribution counts every rating, every point of the scale listed.
    let d = &report.dimensions[0];
    assert_eq!(d.scale.as_deref(), Some(&FIVE[..]));
    for s in &d.systems {
        let scores: Vec<f64> = ratings
            .iter()
            .filter(|r| r.3 == s.system)
            .map(|r| r.5)
            .collect();
        assert_eq!(s.n_ratings, scores.len());
        for c in &s.distribution {
            assert_eq!(c.count, scores.iter().filter(|v| **v == c.score).count());
        }
        assert_eq!(s.distribution.len(), 5);
    }

    // Flags: the cells whose ratings have a sample SD above 1.5 are exactly the disputed ones.
    let flagged: Vec<(&str, &str)> = d
        .flags
        .iter()
        .map(|f| (f.item.as_str(), f.system.as_str()))
        .collect();
    let mut disputed = DISPUTED.to_vec();
    disputed.sort();
    // tsla is slot 3's unfinished last trial for one system or not: either way SD(1, 3) ≤ 1.5.
    for f in &d.flags {
        let scores: Vec<f64> = f.ratings.iter().map(|r| r.score).collect();
        let sd = describe(&scores).unwrap().sd;
        close("flag sd", Some(f.sd), Some(sd));
        assert!(f.sd > 1.5);
    }
    assert!(flagged.iter().all(|c| disputed.contains(c)), "{flagged:?}");
    assert!(flagged.len() >= 3, "{flagged:?}");
}

#[test]
fn p_values_are_adjusted_over_every_comparison_of_the_report() {
    let files = inputs(&WORK_INTAKE);
    let (data, report) = analyze(&files, &Context::default(), None, &OPTIONS);
    assert!(report.problems.is_empty(), "{:?}", report.problems);
    assert_eq!(report.dimensions.len(), 3);
    let ratings = ratings_of(&files);
    assert_eq!(data.ratings.len(), ratings.len());
    for d in &report.dimensions {
        let means = means_by_hand(&ratings, &d.dimension, &BTreeMap::new());
        check_dimension(&report, &d.dimension, &means);
    }
    let ps: Vec<f64> = report
        .dimensions
        .iter()
        .flat_map(|d| d.comparisons.iter().filter_map(|c| c.p_value))
        .collect();
    assert_eq!(ps.len(), 3 * 6, "4 systems: 6 pairs per dimension");
    let (h, b) = (holm(&ps).unwrap(), bonferroni(&ps).unwrap());
    let got: Vec<(f64, f64)> = report
        .dimensions
        .iter()
        .flat_map(|d| d.comparisons.iter())
        .map(|c| (c.p_holm.unwrap(), c.p_bonferroni.unwrap()))
        .collect();
    for (i, (gh, gb)) in got.into_iter().enumerate() {
        close("holm", Some(gh), Some(h[i]));
        close("bonferroni", Some(gb), Some(b[i]));
    }
}

/// (annotator, item, a, b, outcome) of every preference in the files, by the documented
/// conventions: choice → chosen beats the other; best → best beats each other output; tie.
fn preferences_of(files: &[Input], rename: &dyn Fn(&str) -> String) -> Vec<Comparison> {
    let mut out = Vec::new();
    for input in files {
        let file = parse(&input.text).unwrap();
        for t in file.trials.iter().filter(|t| t.done && !t.check) {
            let systems: Vec<String> = t.outputs.iter().map(|o| rename(&o.system)).collect();
            match &t.preference {
                Some(PreferenceRecord::Choice { position, .. }) => {
                    let w = position - 1;
                    let outcome = if w == 0 { Outcome::A } else { Outcome::B };
                    out.push(Comparison::new(&*systems[0], &*systems[1], outcome));
                }
                Some(PreferenceRecord::Tie) => {
                    out.push(Comparison::new(&*systems[0], &*systems[1], Outcome::Tie));
                }
                Some(PreferenceRecord::Best { position, .. }) => {
                    let w = position - 1;
                    for o in (0..systems.len()).filter(|&o| o != w) {
                        let (a, b, outcome) = if w < o {
                            (w, o, Outcome::A)
                        } else {
                            (o, w, Outcome::B)
                        };
                        out.push(Comparison::new(&*systems[a], &*systems[b], outcome));
                    }
                }
                other => assert!(other.is_none(), "{other:?}"),
            }
        }
    }
    out
}

fn check_preferences(
    report: &Report,
    comparisons: &[Comparison],
    labels: &[(String, String, String, f64)],
) {
    let p = report.preferences.as_ref().unwrap();
    assert_eq!(p.judgements, comparisons.len());
    let tally = Tally::from_comparisons(comparisons).unwrap();
    assert_eq!(p.systems, tally.systems());
    let mut shown = 0;
    for (i, a) in tally.systems().iter().enumerate() {
        for b in &tally.systems()[i + 1..] {
            let record = tally.record(a, b).unwrap();
            if record.wins + record.losses + record.ties == 0 {
                continue;
            }
            let pair = &p.pairs[shown];
            shown += 1;
            assert_eq!((&pair.system_a, &pair.system_b), (a, b));
            assert_eq!(
                (pair.wins, pair.losses, pair.ties),
                (record.wins, record.losses, record.ties)
            );
            let rate = record.win_rate(0.95).ok();
            close("win rate", pair.win_rate, rate.map(|r| r.rate));
            close(
                "wilson low",
                pair.wilson.map(|c| c.low),
                rate.map(|r| r.wilson.low),
            );
            close(
                "clopper-pearson high",
                pair.clopper_pearson.map(|c| c.high),
                rate.map(|r| r.clopper_pearson.high),
            );
            close("binomial p", pair.p_value, rate.map(|r| r.p_value));
        }
    }
    assert_eq!(shown, p.pairs.len());

    let options = BradleyTerryOptions::default();
    let fit = bradley_terry(&tally, &options).unwrap();
    let boot =
        bradley_terry_bootstrap(comparisons, &options, 0.95, OPTIONS.resamples, OPTIONS.seed)
            .unwrap();
    let bt = p.bradley_terry.as_ref().unwrap();
    for (s, want) in fit.systems.iter().zip(&fit.strengths) {
        close("bradley-terry", Some(bt.scores[s].score), Some(*want));
    }
    for b in &boot {
        let got = bt.scores[&b.system].ci;
        if !fit.strongly_connected {
            // No maximum-likelihood strengths, so no interval around them.
            assert!(got.is_none(), "{}: {got:?}", b.system);
            continue;
        }
        close("bt low", got.map(|c| c.low), b.interval.map(|i| i.low));
        close("bt high", got.map(|c| c.high), b.interval.map(|i| i.high));
    }

    // Agreement: units (item, pair in byte order), labels 0 tie, 1 first preferred, 2 second.
    let m =
        Ratings::from_triples(labels.iter().map(|(who, item, pair, v)| {
            (format!("{item}{UNIT_SEPARATOR}{pair}"), who.clone(), *v)
        }))
        .unwrap()
        .with_scale(&[0.0, 1.0, 2.0])
        .unwrap();
    let a = &p.agreement;
    close("pref fleiss", a.fleiss_kappa, fleiss_kappa(&m));
    close(
        "pref alpha",
        a.krippendorff_alpha.nominal,
        krippendorff_alpha(&m, Metric::Nominal),
    );
    close("pref percent", a.percent_agreement, percent_agreement(&m));
    let pairs = pairwise(&m);
    assert_eq!(a.cohen_kappa.len(), pairs.len());
    for (got, want) in a.cohen_kappa.iter().zip(&pairs) {
        assert_eq!(
            (&got.annotator_a, &got.annotator_b),
            (&want.rater_a, &want.rater_b)
        );
        close("pref cohen", got.unweighted, want.unweighted);
    }
}

/// The labels of `comparisons` made by `annotators[i]` (same order), coded from the pair in
/// byte order.
fn labels_of(
    files: &[Input],
    rename: &dyn Fn(&str) -> String,
) -> Vec<(String, String, String, f64)> {
    let mut out = Vec::new();
    for input in files {
        let file = parse(&input.text).unwrap();
        let who = format!("slot{}", file.annotator.slot);
        let single = Input::new(input.name.clone(), input.text.clone());
        let comparisons = preferences_of(&[single], rename);
        let items: Vec<&str> = file
            .trials
            .iter()
            .filter(|t| t.done && !t.check)
            .flat_map(|t| {
                let n = match &t.preference {
                    Some(PreferenceRecord::Best { .. }) => t.outputs.len() - 1,
                    Some(_) => 1,
                    None => 0,
                };
                std::iter::repeat_n(t.item.as_str(), n)
            })
            .collect();
        for (c, item) in comparisons.iter().zip(items) {
            let (x, y) = if c.a <= c.b {
                (&c.a, &c.b)
            } else {
                (&c.b, &c.a)
            };
            let first_wins = (c.outcome == Outcome::A) == (c.a == *x);
            let code = match c.outcome {
                Outcome::Tie => 0.0,
                _ if first_wins => 1.0,
                _ => 2.0,
            };
            out.push((
                who.clone(),
                item.to_owned(),
                format!("{x}{UNIT_SEPARATOR}{y}"),
                code,
            ));
        }
    }
    out
}

#[test]
fn preference_numbers_equal_direct_calls_through_the_seal_key() {
    let files = inputs(&PANDALM);
    let key = key();
    let study_text = fixture("pandalm-sealed-study.json").text;
    let study = parse_study(&study_text).unwrap();
    let hash = sha256_hex(&study_text);
    let context = Context {
        study: Some((&study, &hash)),
        key: Some(&key),
        reveal_ids: false,
    };
    let (_, report) = analyze(&files, &context, None, &OPTIONS);
    assert!(report.problems.is_empty(), "{:?}", report.problems);
    let rename = |t: &str| key.systems[t].clone();
    let comparisons = preferences_of(&files, &rename);
    assert_eq!(comparisons.len(), 30);
    // The key turned every token into a system id.
    let p = report.preferences.as_ref().unwrap();
    assert_eq!(p.systems, ["bloom-7b", "llama-7b"]);
    check_preferences(&report, &comparisons, &labels_of(&files, &rename));
    assert!(p.pairs[0].ties > 0 && p.pairs[0].losses > p.pairs[0].wins);
    assert!(report.dimensions.is_empty());
}

#[test]
fn rater_quality_is_the_dawid_skene_fit_of_each_dimension() {
    use juror_core::analysis::report::raters::Rated;
    use juror_core::stats::raters::{Answer, dawid_skene};
    use juror_core::study::analysis_plan::{AnalysisPlan, RaterModel, RaterModels};
    let files = inputs(&FINANCIAL);
    let (_, without) = analyze(&files, &Context::default(), None, &OPTIONS);
    assert!(without.raters.is_empty(), "only when the plan asks");
    let options = Options {
        plan: Some(AnalysisPlan {
            raters: RaterModels::of(&[RaterModel::DawidSkene]),
            ..AnalysisPlan::default()
        }),
        ..OPTIONS
    };
    let (_, report) = analyze(&files, &Context::default(), None, &options);
    let dimensions: Vec<&str> = report
        .dimensions
        .iter()
        .map(|d| d.dimension.as_str())
        .collect();
    let fitted: Vec<&str> = report
        .raters
        .iter()
        .filter(|r| r.answer == Rated::Dimension)
        .map(|r| r.name.as_str())
        .collect();
    assert_eq!(fitted, dimensions);
    let ratings = ratings_of(&files);
    for fit in report
        .raters
        .iter()
        .filter(|r| r.answer == Rated::Dimension)
    {
        // By hand: outputs (item, system) and annotators in byte order, scores ascending.
        let mine: Vec<&Rating> = ratings.iter().filter(|r| r.4 == fit.name).collect();
        let outputs: BTreeSet<(&str, &str)> =
            mine.iter().map(|r| (r.2.as_str(), r.3.as_str())).collect();
        let outputs: Vec<_> = outputs.into_iter().collect();
        let annotators: BTreeSet<&str> = mine.iter().map(|r| r.1.as_str()).collect();
        let annotators: Vec<_> = annotators.into_iter().collect();
        let mut categories: Vec<f64> = mine.iter().map(|r| r.5).collect();
        categories.sort_by(f64::total_cmp);
        categories.dedup();
        let names: Vec<String> = categories.iter().map(f64::to_string).collect();
        assert_eq!(fit.categories, names);
        let answers: Vec<Answer> = mine
            .iter()
            .map(|r| Answer {
                unit: outputs
                    .iter()
                    .position(|o| *o == (r.2.as_str(), r.3.as_str()))
                    .unwrap(),
                rater: annotators.iter().position(|a| *a == r.1).unwrap(),
                category: categories.iter().position(|c| *c == r.5).unwrap(),
            })
            .collect();
        let want =
            dawid_skene(&answers, outputs.len(), annotators.len(), categories.len()).unwrap();
        assert_eq!(fit.answers, mine.len());
        assert_eq!(fit.units, outputs.len());
        assert_eq!(fit.rounds, want.rounds);
        assert_eq!(fit.prior, want.prior);
        for (w, a) in fit.annotators.iter().enumerate() {
            assert_eq!(a.annotator, annotators[w]);
            assert_eq!(a.accuracy, Some(want.accuracy[w]));
            assert_eq!(a.competence, None, "MACE only when asked");
            assert_eq!(a.confusion.as_ref(), Some(&want.confusion[w]));
        }
        let changed = (0..outputs.len())
            .filter(|&u| want.consensus[u] != want.majority[u])
            .count();
        assert_eq!(fit.differs_from_majority, changed);
        assert_eq!(fit.changes.len(), changed.min(20));
    }
    let md = markdown::render(&report);
    assert!(md.contains("## Rater quality (Dawid–Skene)"), "{md}");
    assert!(md.contains("Dawid–Skene model (Dawid and Skene 1979)"));
    // Three annotators an output: a description, said so.
    assert!(
        md.contains("With 3.0 answer(s) per unit, the fit leans on"),
        "{md}"
    );
    assert!(!markdown::render(&without).contains("Rater quality"));
}

#[test]
fn the_crossed_and_ordinal_models_are_fitted_when_the_plan_asks() {
    use juror_core::stats::mixed::{CrossedData, CrossedOptions, CrossedRating, crossed};
    use juror_core::stats::ordinal::{self, Covariance, OrdinalData, SystemRating};
    use juror_core::study::analysis_plan::{AnalysisModel, AnalysisModels, AnalysisPlan};
    let files = inputs(&FINANCIAL);
    let (_, without) = analyze(&files, &Context::default(), None, &OPTIONS);
    assert!(without.crossed.is_empty(), "only when the plan asks");
    let options = Options {
        plan: Some(AnalysisPlan {
            models: AnalysisModels::of(&[AnalysisModel::Crossed, AnalysisModel::Ordinal]),
            ..AnalysisPlan::default()
        }),
        ..OPTIONS
    };
    let (_, report) = analyze(&files, &Context::default(), None, &options);
    let dimensions: Vec<&str> = report
        .dimensions
        .iter()
        .map(|d| d.dimension.as_str())
        .collect();
    let fitted: Vec<&str> = report
        .crossed
        .iter()
        .map(|m| m.dimension.as_str())
        .collect();
    assert_eq!(fitted, dimensions);
    let ratings = ratings_of(&files);
    for m in &report.crossed {
        let mine: Vec<CrossedRating<'_>> = ratings
            .iter()
            .filter(|r| r.4 == m.dimension)
            .map(|r| CrossedRating {
                annotator: &r.1,
                item: &r.2,
                system: &r.3,
                round: 0.0,
                rating: r.5,
            })
            .collect();
        let systems: BTreeSet<&str> = mine.iter().map(|r| r.system).collect();
        let systems: Vec<&str> = systems.into_iter().collect();
        assert_eq!(m.reference, systems[0], "no study: the first in byte order");
        assert_eq!(m.method, "REML");
        let data = CrossedData::by_system(&systems, &mine).unwrap();
        let want = crossed(&data, CrossedOptions::default()).unwrap();
        let got = m.fit.as_ref().expect("a fit");
        assert!(got.converged);
        assert_eq!(got.n_obs, want.n_obs);
        assert_eq!(
            (got.n_annotators, got.n_items),
            (want.n_annotators, want.n_items)
        );
        for (g, w) in got.fixed_effects.iter().zip(&want.fixed_effects) {
            assert_eq!(g.name, w.name);
            check(&g.name, g.estimate, w.estimate, 1e-9);
            check(&g.name, g.se, w.se, 1e-9);
        }
        check(
            "annotator",
            got.annotator_variance,
            want.annotator_variance,
            1e-9,
        );
        check("item", got.item_variance, want.item_variance, 1e-9);
        check("icc", got.item_icc, want.item_icc(), 1e-9);

        let o = report
            .ordinal
            .iter()
            .find(|o| o.dimension == m.dimension)
            .unwrap();
        let scored: Vec<SystemRating<'_>> = mine
            .iter()
            .map(|r| SystemRating {
                system: r.system,
                score: r.rating as i64,
                annotator: r.annotator,
            })
            .collect();
        let want = ordinal::fit(&OrdinalData::by_system(&systems, &scored).unwrap()).unwrap();
        let got = o.fit.as_ref().expect("an ordinal fit");
        assert_eq!(got.standard_errors, "cluster");
        let ors = want.odds_ratios(Covariance::Cluster).unwrap();
        assert_eq!(
            got.odds_ratios.len(),
            systems.len() * (systems.len() - 1) / 2
        );
        for (g, w) in got.odds_ratios.iter().zip(&ors) {
            assert_eq!((g.a.as_str(), g.b.as_str()), (w.a.as_str(), w.b.as_str()));
            check("odds ratio", g.odds_ratio, w.odds_ratio, 1e-9);
            check("p", g.p_value, w.p_value, 1e-9);
        }
    }
    let md = markdown::render(&report);
    assert!(
        md.contains("## Crossed random effects: annotators and items"),
        "{md}"
    );
    assert!(md.contains("score ~ system + (1 | annotator) + (1 | item) by REML"));
    assert!(md.contains("| Annotator |"), "{md}");
    assert!(md.contains("in lme4's formulation"));
    assert!(md.contains("## Ordinal model: proportional odds"), "{md}");
    assert!(md.contains("clustered by annotator as statsmodels"));
    let plain = markdown::render(&without);
    assert!(!plain.contains("Crossed random effects") && !plain.contains("Ordinal model"));
}

#[test]
fn anytime_valid_sequences_cover_each_comparison_when_asked() {
    use juror_core::study::analysis_plan::AnalysisPlan;
    let files = inputs(&FINANCIAL);
    let options = Options {
        plan: Some(AnalysisPlan {
            sequential: Some(30),
            ..AnalysisPlan::default()
        }),
        ..OPTIONS
    };
    let (_, report) = analyze(&files, &Context::default(), None, &options);
    let mut seen = 0;
    for c in report.dimensions.iter().flat_map(|d| &d.comparisons) {
        let (Some(s), Some(t), Some(m)) = (c.anytime_ci95, c.mean_diff_ci95, c.mean_diff) else {
            continue;
        };
        seen += 1;
        // Centred on the mean difference, and wider than the fixed-n t interval.
        check("centre", (s.low + s.high) / 2.0, m, 1e-12);
        assert!(s.low < t.low && s.high > t.high, "{s:?} {t:?}");
    }
    assert!(seen > 0);
    let md = markdown::render(&report);
    assert!(
        md.contains(": anytime-valid 95% confidence sequence of A − B ["),
        "{md}"
    );
    assert!(md.contains("tuned to 30 units"));
    let (_, plain) = analyze(&files, &Context::default(), None, &OPTIONS);
    assert!(
        plain
            .dimensions
            .iter()
            .flat_map(|d| &d.comparisons)
            .all(|c| c.anytime_ci95.is_none())
    );
}

#[test]
fn best_of_four_counts_a_win_over_each_other_output() {
    let files = inputs(&WORK_INTAKE);
    let (_, report) = analyze(&files, &Context::default(), None, &OPTIONS);
    let same = |s: &str| s.to_owned();
    let comparisons = preferences_of(&files, &same);
    // 9 trials × 2 annotators, each best beating the 3 others.
    assert_eq!(comparisons.len(), 9 * 2 * 3);
    check_preferences(&report, &comparisons, &labels_of(&files, &same));
}

// ---------------------------------------------------------------------------------------------
// Adjudication
// ---------------------------------------------------------------------------------------------

#[test]
fn adjudication_changes_comparisons_and_summaries_but_not_agreement() {
    let files = inputs(&FINANCIAL);
    let (data, before) = analyze(&files, &Context::default(), None, &OPTIONS);
    let flags = &before.dimensions[0].flags;
    assert!(!flags.is_empty());

    // The sheet lists the flagged cells with an empty score; fill it with 5s.
    let sheet = before.adjudication_sheet();
    let mut lines = sheet.lines();
    let header =
        "item_id,system_id,dimension,score,expert,n,mean,sd,ratings,prompt,context,media,output";
    assert_eq!(lines.next(), Some(header));
    let filled: String = std::iter::once(header)
        .chain(lines.clone())
        .map(|l| {
            let mut f: Vec<&str> = l.splitn(5, ',').collect();
            if f[3].is_empty() {
                f[3] = "5";
            }
            f.join(",")
        })
        .collect::<Vec<_>>()
        .join("\n");
    assert_eq!(lines.count(), flags.len());
    let adjudication = Input::new("adjudication.csv", filled);
    let (_, after) = analyze(&files, &Context::default(), Some(&adjudication), &OPTIONS);
    assert!(after.problems.is_empty(), "{:?}", after.problems);
    let summary = after.adjudication.as_ref().unwrap();
    assert_eq!(
        (summary.cells, summary.applied, summary.not_flagged),
        (flags.len(), flags.len(), 0)
    );

    // Agreement is computed on the raw ratings: unchanged, to the bit.
    assert_eq!(
        before.dimensions[0].agreement,
        after.dimensions[0].agreement
    );
    // The comparison and the summaries use the expert's score in place of the cell's mean.
    assert_ne!(
        before.dimensions[0].comparisons,
        after.dimensions[0].comparisons
    );
    assert_ne!(before.dimensions[0].systems, after.dimensions[0].systems);
    let adjudicated: BTreeMap<(String, String), f64> = flags
        .iter()
        .map(|f| ((f.item.clone(), f.system.clone()), 5.0))
        .collect();
    let ratings = ratings_of(&files);
    let means = means_by_hand(&ratings, "quality", &adjudicated);
    check_dimension(&after, "quality", &means);
    let rows: Vec<_> = data.ratings.iter().collect();
    let read_back = Adjudication::read(&adjudication, &Default::default());
    assert_eq!(item_means(&rows, Some(&read_back)), means);
    // Each flag shows the score that replaced it.
    assert!(
        after.dimensions[0]
            .flags
            .iter()
            .all(|f| f.adjudicated == Some(5.0))
    );
    let replaced: usize = after.dimensions[0]
        .systems
        .iter()
        .map(|s| s.adjudicated)
        .sum();
    assert_eq!(replaced, flags.len());
}

/// With `exclude_unadjudicated`, a flagged cell without an expert's score is set aside from the
/// systems and comparisons (agreement keeps every raw rating), an adjudicated one uses its score,
/// and the methods paragraph says so.
#[test]
fn unadjudicated_flagged_cells_can_be_set_aside() {
    let files = inputs(&FINANCIAL);
    let (_, before) = analyze(&files, &Context::default(), None, &OPTIONS);
    let flags = &before.dimensions[0].flags;
    assert!(flags.len() >= 2, "the fixture has flagged cells");
    let first = &flags[0];
    let adjudication = Input::new(
        "adjudication.csv",
        format!(
            "item_id,system_id,dimension,score\n{},{},quality,5\n",
            first.item, first.system
        ),
    );
    let options = Options {
        exclude_unadjudicated: Some(true),
        ..OPTIONS
    };
    let (_, after) = analyze(&files, &Context::default(), Some(&adjudication), &options);
    assert!(after.problems.is_empty(), "{:?}", after.problems);
    let d = &after.dimensions[0];
    assert_eq!(d.set_aside, flags.len() - 1);
    assert_eq!(d.agreement, before.dimensions[0].agreement);
    assert_eq!(
        d.ratings, before.dimensions[0].ratings,
        "every raw rating counted"
    );

    let pending: Vec<(String, String)> = flags[1..]
        .iter()
        .map(|f| (f.item.clone(), f.system.clone()))
        .collect();
    let ratings: Vec<Rating> = ratings_of(&files)
        .into_iter()
        .filter(|(_, _, item, system, _, _)| !pending.contains(&(item.clone(), system.clone())))
        .collect();
    let adjudicated: BTreeMap<(String, String), f64> =
        [((first.item.clone(), first.system.clone()), 5.0)].into();
    check_dimension(
        &after,
        "quality",
        &means_by_hand(&ratings, "quality", &adjudicated),
    );
    let methods = juror_core::analysis::render::methods::methods(&after);
    assert!(methods.contains("set aside"), "{methods}");

    // Off (the default), nothing is set aside.
    let (_, kept) = analyze(&files, &Context::default(), Some(&adjudication), &OPTIONS);
    assert_eq!(kept.dimensions[0].set_aside, 0);
    assert_ne!(kept.dimensions[0].systems, d.systems);

    // Pre-registered in the plan, the same cells are set aside without the option, and the
    // methods paragraph says where the choice came from; the option asked off keeps them.
    let planned = Options {
        plan: Some(juror_core::analysis::overrides::AnalysisPlan {
            exclude_unadjudicated: true,
            ..Default::default()
        }),
        ..OPTIONS
    };
    let (_, by_plan) = analyze(&files, &Context::default(), Some(&adjudication), &planned);
    assert_eq!(by_plan.dimensions[0].set_aside, flags.len() - 1);
    assert_eq!(by_plan.dimensions[0].systems, d.systems);
    assert!(by_plan.settings.exclude_unadjudicated);
    let methods = juror_core::analysis::render::methods::methods(&by_plan);
    assert!(
        methods.contains("as the analysis plan pre-registers, flagged cells"),
        "{methods}"
    );
    let off = Options {
        exclude_unadjudicated: Some(false),
        ..planned
    };
    let (_, kept) = analyze(&files, &Context::default(), Some(&adjudication), &off);
    assert_eq!(kept.dimensions[0].set_aside, 0);
    assert!(!kept.settings.exclude_unadjudicated);
    let methods = juror_core::analysis::render::methods::methods(&kept);
    assert!(
        methods.contains("although the analysis plan pre-registers"),
        "{methods}"
    );
}

#[test]
fn adjudication_rows_with_problems_are_named_and_left_out() {
    let files = inputs(&FINANCIAL);
    let text = "item_id,system_id,dimension,score\n\
                msft,base-llm,quality,4\n\
                msft,base-llm,quality,2\n\
                jnj,base-llm,quality,\n\
                nowhere,base-llm,quality,3\n\
                xom,fin-agent,quality,lots\n";
    let adjudication = Input::new("adj.csv", text);
    let (_, report) = analyze(&files, &Context::default(), Some(&adjudication), &OPTIONS);
    let problems: Vec<String> = report.problems.iter().map(|p| p.to_string()).collect();
    assert_eq!(
        problems,
        [
            "adj.csv: line 5: no ratings of item \"nowhere\", system \"base-llm\" on \"quality\" \
             in the inputs; check the ids (the score is not used)",
            "adj.csv: line 3: item \"msft\", system \"base-llm\" on \"quality\" already has a \
             score (4 at line 2); this one is left out",
            "adj.csv: line 6: score \"lots\" is not a number",
        ]
    );
    let summary = report.adjudication.unwrap();
    assert_eq!(
        (summary.cells, summary.applied, summary.unfilled),
        (2, 1, 1)
    );
}

// ---------------------------------------------------------------------------------------------
// Bad inputs
// ---------------------------------------------------------------------------------------------

#[test]
fn bad_files_are_named_and_the_rest_is_analysed() {
    let mut files = inputs(&FINANCIAL);
    files.extend(inputs(&["tampered.json", "bad-rows.csv", "bad-header.csv"]));
    files.push(Input::new(
        "cut.json",
        "{\"format\": \"juror.ratings/1\", \"trials\": [",
    ));
    let (data, report) = analyze(&files, &Context::default(), None, &OPTIONS);
    let problems: Vec<String> = report.problems.iter().map(|p| p.to_string()).collect();
    assert_eq!(
        problems,
        [
            "tampered.json: sha256: the checksum does not match: the file was changed or damaged \
             after it was written. Ask the annotator for the file as downloaded",
            "bad-rows.csv: line 6: score \"high\" is not a number",
            "bad-rows.csv: line 7: 4 field(s), but the header has 6; quote fields that hold commas",
            "bad-rows.csv: line 8: system_id is empty",
            "bad-header.csv: line 1: the header is not a Likert table \
             (item_id,system_id,annotator_id,dimension,score), a pairwise table \
             (item_id,system_a,system_b,annotator_id,preference) or a table of error spans \
             (item_id,system_id,annotator_id,start,end,severity,category,length); missing: \
             item_id, system_id, annotator_id, dimension",
            "cut.json: line 1, column 41: not valid JSON (EOF while parsing a list at line 1 \
             column 41); the file may be cut short or edited",
            "bad-rows.csv: line 3: annotator \"extra\" already rated item \"aapl\", system \
             \"fin-agent\" on \"quality\" (4 at bad-rows.csv: line 2); this duplicate (5) is left \
             out",
        ]
    );
    // The good files and the good rows are all there.
    let good = ratings_of(&inputs(&FINANCIAL)).len();
    assert_eq!(data.ratings.len(), good + 2);
    assert!(data.ratings.iter().any(|r| r.item == "msft, inc"
        && r.annotator == "extra"
        && r.source.at.to_string() == "line 4"));
    let kinds: Vec<(InputKind, usize, usize)> = report
        .inputs
        .iter()
        .map(|f| (f.kind, f.ratings, f.problems))
        .collect();
    assert_eq!(
        kinds[3..],
        [
            (InputKind::Unread, 0, 1),
            (InputKind::LikertCsv, 2, 4),
            (InputKind::Unread, 0, 1),
            (InputKind::Unread, 0, 1),
        ]
    );
    assert_eq!(report.dimensions[0].annotators, 4);
}

#[test]
fn a_token_missing_from_the_key_names_the_file_and_the_token() {
    let files = inputs(&PANDALM);
    let mut key = key();
    let (token, _) = key
        .systems
        .iter()
        .find(|(_, id)| *id == "llama-7b")
        .map(|(t, i)| (t.clone(), i.clone()))
        .unwrap();
    key.systems.remove(&token);
    let context = Context {
        study: None,
        key: Some(&key),
        reveal_ids: false,
    };
    let data = read(&files, &context);
    assert_eq!(data.problems.len(), 3);
    let p = &data.problems[0];
    assert_eq!(p.file, "pandalm-slot1.json");
    assert!(p.at.as_deref().unwrap().starts_with("trials["), "{p}");
    assert!(
        p.message
            .contains(&format!("\"{token}\" is not a token of the key")),
        "{p}"
    );
    assert!(data.preferences.is_empty());

    // A key for another study.
    let mut other = self::key();
    other.study = "another-study".into();
    let data = read(
        &files[..1],
        &Context {
            study: None,
            key: Some(&other),
            reveal_ids: false,
        },
    );
    assert_eq!(data.problems[0].at.as_deref(), Some("study.id"));
}

#[test]
fn files_of_another_study_are_refused_with_the_study() {
    let (study, hash) = financial_study();
    let files = inputs(&["financial-slot1.json", "pandalm-slot1.json"]);
    let data = read(
        &files,
        &Context {
            study: Some((&study, &hash)),
            key: None,
            reveal_ids: false,
        },
    );
    assert_eq!(data.problems.len(), 1);
    assert_eq!(data.problems[0].file, "pandalm-slot1.json");
    assert_eq!(data.problems[0].at.as_deref(), Some("study.id"));
    assert_eq!(data.ratings.len(), 50);
}

/// The same ratings file given twice is read once: the second is superseded by the first.
#[test]
fn the_same_file_twice_is_read_once() {
    let files = inputs(&["financial-slot1.json", "financial-slot1.json"]);
    let data = read(&files, &Context::default());
    assert_eq!(data.ratings.len(), 50);
    assert!(data.problems.is_empty(), "{:#?}", data.problems);
    assert_eq!(data.files[0].kind, InputKind::RatingsFile);
    assert_eq!(data.files[1].kind, InputKind::SupersededBackup);
    assert_eq!(
        data.files[1].superseded_by.as_deref(),
        Some("financial-slot1.json")
    );
    assert_eq!(data.files[1].ratings, 0);
}

/// Two annotators' files are not one annotator's: no problem.
#[test]
fn different_annotators_are_not_overlapping() {
    let data = read(&inputs(&FINANCIAL), &Context::default());
    assert!(data.problems.is_empty(), "{:?}", data.problems);
}

// ---------------------------------------------------------------------------------------------
// Tidy CSV in and out
// ---------------------------------------------------------------------------------------------

#[test]
fn the_tidy_csv_reads_back_to_the_same_report() {
    let mut files = inputs(&WORK_INTAKE);
    files.extend(inputs(&PANDALM));
    let key = key();
    let context = Context {
        study: None,
        key: Some(&key),
        reveal_ids: false,
    };
    // The key only knows pandalm's tokens: the work-intake files are refused by it, so read
    // them apart and merge.
    let a = read(&files[..2], &Context::default());
    let b = read(&files[2..], &context);
    let merged = juror_core::analysis::Data {
        ratings: [a.ratings, b.ratings].concat(),
        preferences: [a.preferences, b.preferences].concat(),
        choices: [a.choices, b.choices].concat(),
        answers: [a.answers, b.answers].concat(),
        files: [a.files, b.files].concat(),
        trials: [a.trials, b.trials].concat(),
        repeats: [a.repeats, b.repeats].concat(),
        spans: Vec::new(),
        skips: Vec::new(),
        problems: Vec::new(),
        platform_ids: None,
    };
    let csv = to_csv(&merged);
    let header = csv.lines().next().unwrap_or_default();
    assert_eq!(
        header,
        "item_id,system_id,annotator_id,dimension,score,system_a,system_b,preference,position,\
         shown_first,derived,choice,shown,chosen,source_file,source_at"
    );
    let back = read(&[Input::new("tidy.csv", csv)], &Context::default());
    assert!(back.problems.is_empty(), "{:?}", back.problems);
    assert_eq!(back.files[0].kind, InputKind::TidyCsv);
    assert_eq!(back.ratings.len(), merged.ratings.len());
    assert_eq!(back.preferences.len(), merged.preferences.len());
    let one = report(&merged, None, None, &OPTIONS);
    let two = report(&back, None, None, &OPTIONS);
    assert_eq!(one.dimensions, two.dimensions);
    assert_eq!(one.preferences, two.preferences);
    // The positions travel with the rows; the trials (times, checks) are in ratings files only.
    assert_eq!(
        one.diagnostics.position_scores,
        two.diagnostics.position_scores
    );
    assert!(!one.diagnostics.position_scores.is_empty());
    assert_eq!(
        one.diagnostics.preference_position,
        two.diagnostics.preference_position
    );
    assert!(one.diagnostics.preference_position.is_some());
}

#[test]
fn pairwise_csv_rows_are_checked() {
    let text = "item_id,system_a,system_b,annotator_id,preference\n\
                1,x,y,ann,a\n\
                1,x,y,bob,B\n\
                2,y,x,ann,tie\n\
                3,x,x,ann,a\n\
                4,x,y,ann,maybe\n\
                2,x,y,ann,a\n";
    let data = read(&[Input::new("p.csv", text)], &Context::default());
    let problems: Vec<String> = data.problems.iter().map(|p| p.to_string()).collect();
    assert_eq!(
        problems,
        [
            "p.csv: line 5: system_a and system_b are both \"x\": a system cannot be compared \
             with itself",
            "p.csv: line 6: preference \"maybe\" is not a, b or tie, a graded a1–a9 or b1–b9, \
             or cannot_judge",
            "p.csv: line 7: annotator \"ann\" already judged \"x\" against \"y\" on item \"2\" \
             (at p.csv: line 4); this duplicate is left out",
        ]
    );
    assert_eq!(data.preferences.len(), 3);
    assert_eq!(data.preferences[1].outcome, Outcome::B);
}

// ---------------------------------------------------------------------------------------------
// Markdown
// ---------------------------------------------------------------------------------------------

#[test]
fn the_markdown_has_every_table_and_states_the_conventions() {
    let mut files = inputs(&WORK_INTAKE);
    files.push(fixture("bad-header.csv"));
    let (_, report) = analyze(&files, &Context::default(), None, &OPTIONS);
    let md = markdown::render(&report);
    for heading in [
        "## relevance",
        "### Systems",
        "### Agreement",
        "### Comparisons",
        "## Preferences",
        "### Pairs",
        "### Bradley–Terry",
        "### Agreement on preferences",
        "## Methods",
        "## Problems with the inputs",
    ] {
        assert!(md.contains(heading), "{heading} missing:\n{md}");
    }
    for convention in [
        "averaged over annotators",
        "50 resamples",
        "seed 7",
        "(item, system) cells",
        "Holm",
        "Bonferroni",
        "18 comparison(s)",
        "half a win",
        "ties excluded",
        "above 1.5",
        "best choice as a win of the best output over each other output shown",
    ] {
        assert!(md.contains(convention), "{convention} missing:\n{md}");
    }
    // Every table row has as many cells as its header.
    let mut columns = 0;
    for line in md.lines() {
        if line.starts_with('|') {
            let cells = line.replace("\\|", "").matches('|').count();
            if columns == 0 {
                columns = cells;
            }
            assert_eq!(cells, columns, "{line}");
        } else {
            columns = 0;
        }
    }
    assert!(md.contains("bad-header.csv: line 1: the header is not a Likert table"));
}

#[test]
fn the_report_is_deterministic_and_json_has_no_nan() {
    let files = inputs(&FINANCIAL);
    let (_, one) = analyze(&files, &Context::default(), None, &OPTIONS);
    let (_, two) = analyze(&files, &Context::default(), None, &OPTIONS);
    let json = one.to_json();
    assert_eq!(json, two.to_json());
    let value: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(value["format"], "juror.report/1");
    for key in [
        "settings",
        "inputs",
        "problems",
        "dimensions",
        "preferences",
        "adjudication",
    ] {
        assert!(value.get(key).is_some(), "{key}");
    }
    let d = &value["dimensions"][0];
    for key in ["systems", "agreement", "comparisons", "flags"] {
        assert!(d.get(key).is_some(), "{key}");
    }
    assert!(!json.contains("NaN"));
}

/// The committed report schema is what the types say (regenerate with
/// `cargo run -p juror-cli -- schema --report > assets/schema/report.v1.json`).
#[test]
fn committed_report_schema_matches_the_types() {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets/schema/report.v1.json");
    let generated = juror_core::analysis::schema();
    if bless() {
        std::fs::write(&path, &generated).unwrap();
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == generated,
        "assets/schema/report.v1.json is out of date with crates/juror-core/src/analysis/"
    );
    assert!(generated.contains("\"fleiss_kappa\"") && generated.contains("\"bradley_terry\""));
}

// ---------------------------------------------------------------------------------------------
// Diagnostics
// ---------------------------------------------------------------------------------------------

const TRAJECTORIES: [&str; 3] = [
    "trajectories-slot1.json",
    "trajectories-slot2.json",
    "trajectories-slot3.json",
];

fn median_of(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    let n = xs.len();
    if n % 2 == 1 {
        xs[n / 2]
    } else {
        (xs[n / 2 - 1] + xs[n / 2]) / 2.0
    }
}

/// Every diagnostic recomputed from the parsed ratings files, without `analysis::input`: the
/// trials and their times, the check (rft-base's correctness on `check-circles` must be 1), the
/// positions of every rating (repeats included), and the repeats against the first rating.
#[test]
fn diagnostics_are_what_the_files_say() {
    let files = inputs(&TRAJECTORIES);
    let text = example("reasoning-trajectories");
    let (study, hash) = (parse_study(&text).unwrap(), sha256_hex(&text));
    let context = Context {
        study: Some((&study, &hash)),
        key: None,
        reveal_ids: false,
    };
    let (data, report) = analyze(&files, &context, None, &OPTIONS);
    assert!(report.problems.is_empty(), "{:?}", report.problems);
    let d = &report.diagnostics;
    assert_eq!(d.annotators.len(), 3);
    assert!(d.preference_position.is_none());

    let mut by_position: BTreeMap<(String, u32), Vec<f64>> = BTreeMap::new();
    // The three pairs listed show rft-base and rft-full twice per item, the others once: one
    // repeat per dimension of each of those two outputs of every (non-check) item rated.
    let mut repeats_designed = 0;
    for (input, a) in files.iter().zip(&d.annotators) {
        let file: RatingsFile = parse(&input.text).unwrap();
        let done: Vec<_> = file.trials.iter().filter(|t| t.done).collect();
        assert_eq!(a.trials, done.len());
        let seconds: Vec<f64> = done.iter().map(|t| t.active_ms as f64 / 1000.0).collect();
        close(
            "median seconds",
            a.median_seconds_per_trial,
            Some(median_of(seconds.clone())),
        );
        close(
            "minutes",
            a.active_minutes,
            Some(seconds.iter().sum::<f64>() / 60.0),
        );

        let (mut passed, mut failed, mut not_evaluated) = (0, 0, 0);
        let mut first: BTreeMap<(String, String, String), i32> = BTreeMap::new();
        let (mut repeats, mut same, mut within) = (0, 0, 0);
        for t in &done {
            if t.check {
                match t.outputs.iter().find(|o| o.system == "rft-base") {
                    Some(o) if o.ratings["correctness"] == 1 => passed += 1,
                    Some(_) => failed += 1,
                    None => not_evaluated += 1,
                }
                continue;
            }
            for o in &t.outputs {
                for (dimension, &score) in &o.ratings {
                    by_position
                        .entry((dimension.clone(), o.position as u32))
                        .or_default()
                        .push(f64::from(score));
                    let key = (t.item.clone(), o.system.clone(), dimension.clone());
                    match first.get(&key) {
                        Some(&f) => {
                            repeats += 1;
                            same += usize::from(f == score);
                            within += usize::from((f - score).abs() <= 1);
                        }
                        None => {
                            first.insert(key, score);
                        }
                    }
                }
            }
        }
        let c = a.attention_checks;
        assert_eq!(
            (c.passed, c.failed, c.not_evaluated),
            (passed, failed, not_evaluated),
            "{}",
            a.annotator
        );
        assert_eq!(
            (a.repeats.ratings, a.repeats.same, a.repeats.within_one),
            (repeats, same, within)
        );
        assert_eq!(a.ratings, first.len());
        let items: BTreeSet<&str> = done
            .iter()
            .filter(|t| !t.check)
            .map(|t| t.item.as_str())
            .collect();
        repeats_designed += items.len() * 2 * 3;
    }
    assert_eq!(data.repeats.len(), repeats_designed);
    assert!(repeats_designed > 0);
    assert_eq!(d.repeats.repeats, repeats_designed);
    assert_eq!(
        report
            .inputs
            .iter()
            .map(|f| f.repeated_ratings)
            .sum::<usize>(),
        data.repeats.len()
    );

    // Positions, every rating included.
    for p in &d.position_scores {
        for m in &p.positions {
            let scores = &by_position[&(p.dimension.clone(), m.position)];
            assert_eq!(m.n, scores.len());
            close(
                "position mean",
                Some(m.mean),
                Some(describe(scores).unwrap().mean),
            );
        }
    }
    // Slot 1 favours the output shown first: the means say so.
    let correctness = &d.position_scores[0];
    assert!(correctness.positions[0].mean > correctness.positions[1].mean);

    // What the fixture was made to show.
    let warnings: Vec<&Vec<String>> = d.annotators.iter().map(|a| &a.warnings).collect();
    assert!(!warnings[0].iter().any(|w| w.contains("per trial")));
    assert!(
        warnings[1]
            .iter()
            .any(|w| w.starts_with("median 1.4 s per trial"))
    );
    // The check item shows rft-base, the output checked, in two of its three pairs.
    assert!(warnings[2].contains(&"failed 2 of 2 attention checks".to_owned()));
    assert!(warnings[2].contains(
        &"gave one score to every rating of \"correctness\" (3, 8 ratings), \"coherence\" (3, 8 \
          ratings) and \"efficiency\" (3, 8 ratings)"
            .to_owned()
    ));
    let sl = &d.annotators[2].straight_lining[0];
    assert_eq!((sl.distinct, sl.most_common, sl.share), (1, 3.0, 1.0));

    // The Markdown shows them, and says nothing was excluded.
    let md = markdown::render(&report);
    assert!(md.contains("## Diagnostics"));
    assert!(md.contains("| slot3 | 24 | 0 | 9 | 7.0 | 1.1 | 0 of 2 | 12 of 12 (12 within one) |"));
    assert!(md.contains("no annotator or rating was excluded on their basis"));
}

/// Without the study the checks cannot be evaluated: they are counted, not guessed.
#[test]
fn attention_checks_need_the_study() {
    let files = inputs(&TRAJECTORIES);
    let (_, report) = analyze(&files, &Context::default(), None, &OPTIONS);
    for a in &report.diagnostics.annotators {
        let c = a.attention_checks;
        assert_eq!(
            (c.trials, c.passed, c.failed, c.not_evaluated),
            (3, 0, 0, 3)
        );
    }
}

/// The first-shown output's record in the pandalm files, counted from the choices' positions.
#[test]
fn preference_position_counts_the_first_shown() {
    let files = inputs(&PANDALM);
    let key = key();
    let context = Context {
        study: None,
        key: Some(&key),
        reveal_ids: false,
    };
    let (_, report) = analyze(&files, &context, None, &OPTIONS);
    let (mut first, mut second, mut ties) = (0u64, 0u64, 0u64);
    for input in &files {
        let file: RatingsFile = parse(&input.text).unwrap();
        for t in file.trials.iter().filter(|t| t.done && !t.check) {
            match &t.preference {
                Some(PreferenceRecord::Choice { position: 1, .. }) => first += 1,
                Some(PreferenceRecord::Choice { .. }) => second += 1,
                Some(PreferenceRecord::Tie) => ties += 1,
                other => panic!("unexpected {other:?}"),
            }
        }
    }
    let p = report.diagnostics.preference_position.as_ref().unwrap();
    assert_eq!((p.first_wins, p.second_wins, p.ties), (first, second, ties));
    let rate = juror_core::stats::preference::win_rate(first, second, ties, 0.95).unwrap();
    close("first-shown win rate", p.first_win_rate, Some(rate.rate));
    close("binomial p", p.p_value, Some(rate.p_value));
}

/// A study published by `juror publish` (plans computed beforehand, tokens of their own for
/// each item's outputs, attention checks in the key only) and completed by annotators who
/// answer alike, analysed with the key, gives the report of the original study: the same
/// systems, numbers, agreement, flags and attention checks (which the key's answers evaluate,
/// though the served study names none).
#[test]
fn a_published_study_analysed_with_its_key_equals_the_original() {
    use juror_core::publish::publish;
    let text = example("reasoning-trajectories");
    let raw: RawStudy = serde_json::from_str(&text).unwrap();
    let original = parse_study(&text).unwrap();
    let (published_raw, key) = publish(&raw, &original, &[7u8; 32], 9, &[]);
    let published_text = serde_json::to_string_pretty(&published_raw).unwrap();
    assert!(!published_text.contains("accept"), "answers stay out");
    assert!(
        !published_text.contains("attention_checks"),
        "checks stay out"
    );
    // No token is shared by two items: outputs of one system cannot be followed across items.
    let mut owner: BTreeMap<&str, &str> = BTreeMap::new();
    for item in &published_raw.items {
        for token in item.outputs.keys() {
            assert_eq!(
                *owner.entry(token.as_str()).or_insert(&item.id),
                item.id.as_str()
            );
        }
    }
    assert_eq!(owner.len(), raw.items.len() * raw.systems.len());
    for system in original.systems() {
        assert!(!published_text.contains(system.as_str()), "{system} named");
    }
    let published = parse_study(&published_text).unwrap();
    let id = |name: &str| key.systems.get(name).cloned().unwrap_or(name.to_owned());

    // Every annotator scores an output from its item and true system alone, so the two runs
    // give the same ratings though their plans differ. Slot 3 fails the check.
    let dimensions: Vec<String> = original
        .rubric()
        .dimensions
        .iter()
        .map(|d| d.id.clone())
        .collect();
    let files = |study: &Study, text: &str| -> Vec<Input> {
        let hash = sha256_hex(text);
        (1..=3u32)
            .map(|slot| {
                let s = replay(study, Annotator::slot(slot), 0, |_, item, shown| {
                    let mut scores = Vec::new();
                    for (p, name) in shown.iter().enumerate() {
                        let system = id(name);
                        for (d, dimension) in dimensions.iter().enumerate() {
                            let v = if item == "check-circles" && system == "rft-base" {
                                if slot == 3 { 4 } else { 1 }
                            } else {
                                let base = 2 + (system.len() % 3) as i32;
                                base + jitter(item.len(), system.len() + slot as usize, d)
                            };
                            scores.push((p, dimension.clone(), v.clamp(1, 5)));
                        }
                    }
                    Answers {
                        scores,
                        preference: None,
                    }
                });
                Input::new(format!("slot{slot}.json"), export_json(study, &hash, &s))
            })
            .collect()
    };
    let original_files = files(&original, &text);
    let published_files = files(&published, &published_text);
    for f in &published_files {
        for system in original.systems() {
            assert!(
                !f.text.contains(system.as_str()),
                "the ratings file names {system}"
            );
        }
    }
    let hash = sha256_hex(&text);
    let (_, want) = analyze(
        &original_files,
        &Context {
            study: Some((&original, &hash)),
            key: None,
            reveal_ids: false,
        },
        None,
        &OPTIONS,
    );
    let published_hash = sha256_hex(&published_text);
    let (_, got) = analyze(
        &published_files,
        &Context {
            study: Some((&published, &published_hash)),
            key: Some(&key),
            reveal_ids: false,
        },
        None,
        &OPTIONS,
    );
    assert!(got.problems.is_empty(), "{:?}", got.problems);
    assert_eq!(
        serde_json::to_value(&got.dimensions).unwrap(),
        serde_json::to_value(&want.dimensions).unwrap()
    );
    let checks = |r: &Report| -> Vec<_> {
        r.diagnostics
            .annotators
            .iter()
            .map(|a| {
                let c = a.attention_checks;
                (
                    a.annotator.clone(),
                    c.trials,
                    c.passed,
                    c.failed,
                    c.not_evaluated,
                )
            })
            .collect()
    };
    assert_eq!(checks(&got), checks(&want));
    assert_eq!(
        checks(&got).iter().map(|c| (c.2, c.3)).collect::<Vec<_>>(),
        vec![(2, 0), (2, 0), (0, 2)],
        "the key's answers evaluate the checks"
    );
    // Without the key, the published study's checks are counted, not guessed.
    let (_, blind) = analyze(
        &published_files,
        &Context {
            study: Some((&published, &published_hash)),
            key: None,
            reveal_ids: false,
        },
        None,
        &OPTIONS,
    );
    assert!(
        checks(&blind)
            .iter()
            .all(|c| c.2 == 0 && c.3 == 0 && c.4 == c.1)
    );
}

/// hare-personalization as its protocol plans it (the example's `analysis` section): per dimension HARE
/// against each of the three baselines, paired over participants (each one's mean over the
/// rounds they rated), t-test first then Wilcoxon, one-sided where the hypotheses are
/// directional (H2 on personalization, H5 on novelty), non-inferiority on quality against RAG
/// (H1), Bonferroni over the 12 comparisons. Every number is recomputed here from the CSV with
/// direct calls of the statistics.
#[test]
fn the_hare_study_is_analysed_as_its_plan_says() {
    use juror_core::analysis::overrides::Unit;
    use juror_core::stats::paired::{Alternative, WilcoxonMethod, t_test, wilcoxon_p};
    let text = example("hare-personalization");
    let study = parse_study(&text).unwrap();
    let plan = study
        .analysis()
        .expect("the example carries its plan")
        .clone();
    assert_eq!(plan.unit, Unit::Annotator);

    // Six participants, ten rounds, four systems, four dimensions; HARE about half a point
    // better, more so on personalization, with participant and round noise.
    let systems = ["hare", "rag", "gpt2", "random"];
    let dimensions = ["quality", "relevance", "personalization", "novelty"];
    let mut csv = String::from("item_id,system_id,annotator_id,dimension,score\n");
    let mut rows: Vec<(String, String, String, f64)> = Vec::new();
    for p in 0..6usize {
        for round in 0..10usize {
            for (s, system) in systems.iter().enumerate() {
                for (d, dimension) in dimensions.iter().enumerate() {
                    let boost = match (*system, *dimension) {
                        ("hare", "personalization") => 2,
                        ("hare", _) => 1,
                        _ => 0,
                    };
                    // A participant's own leaning on each system, and round-to-round noise.
                    let leaning = i32::from((p * 5 + s * 3 + d + round / 4) % 4 == 0);
                    let score = (2 + boost + leaning + jitter(p + round, s, d)).clamp(1, 5);
                    let item = format!("r{:02}", round + 1);
                    let annotator = format!("P{p}");
                    csv.push_str(&format!(
                        "{item},{system},{annotator},{dimension},{score}\n"
                    ));
                    rows.push((
                        annotator,
                        (*system).to_owned(),
                        (*dimension).to_owned(),
                        f64::from(score),
                    ));
                }
            }
        }
    }
    let hash = sha256_hex(&text);
    let (_, report) = analyze(
        &[Input::new("pilot.csv", csv)],
        &Context {
            study: Some((&study, &hash)),
            key: None,
            reveal_ids: false,
        },
        None,
        &OPTIONS,
    );
    assert!(report.problems.is_empty(), "{:?}", report.problems);
    assert_eq!(report.settings.plan_source, "study");
    assert_eq!(report.settings.plan, plan);

    // Per participant means, by hand.
    let mean_of = |annotator: &str, system: &str, dimension: &str| -> f64 {
        let xs: Vec<f64> = rows
            .iter()
            .filter(|r| r.0 == annotator && r.1 == system && r.2 == dimension)
            .map(|r| r.3)
            .collect();
        xs.iter().sum::<f64>() / xs.len() as f64
    };
    let mut all = Vec::new();
    for d in &report.dimensions {
        assert_eq!(
            d.comparisons.len(),
            3,
            "{}: HARE against each baseline",
            d.dimension
        );
        for c in &d.comparisons {
            assert_eq!(c.system_a, "hare");
            assert_eq!(c.n, 6, "paired over the six participants");
            let diffs: Vec<f64> = (0..6)
                .map(|p| {
                    let who = format!("P{p}");
                    mean_of(&who, "hare", &d.dimension) - mean_of(&who, &c.system_b, &d.dimension)
                })
                .collect();
            let directional = match (d.dimension.as_str(), c.system_b.as_str()) {
                ("personalization", _) => Some("H2"),
                ("novelty", "rag" | "gpt2") => Some("H5"),
                ("quality", "rag") => Some("H1"),
                _ => None,
            };
            assert_eq!(
                c.hypothesis.as_deref(),
                directional,
                "{} {}",
                d.dimension,
                c.system_b
            );
            let alternative = if directional.is_some() {
                Alternative::Greater
            } else {
                Alternative::TwoSided
            };
            assert_eq!(Alternative::from(c.alternative), alternative);
            let t = t_test(&diffs, 0.0, alternative).unwrap();
            let tt = c.t_test.unwrap();
            close("t", Some(tt.t), Some(t.t));
            close("t p", Some(tt.p_value), Some(t.p_value));
            let ci = c.mean_diff_ci95.unwrap();
            close("ci low", Some(ci.low), Some(t.ci95.0));
            close("ci high", Some(ci.high), Some(t.ci95.1));
            // The bootstrap interval: the same function, seed and resamples as the summaries.
            let boot = bootstrap_mean(&diffs, 0.95, OPTIONS.resamples, OPTIONS.seed).unwrap();
            let got = c.mean_diff_bootstrap.unwrap();
            close("bootstrap low", Some(got.low), Some(boot.interval.low));
            close("bootstrap high", Some(got.high), Some(boot.interval.high));
            assert_eq!((got.resamples, got.seed), (OPTIONS.resamples, OPTIONS.seed));
            let w = wilcoxon_p(&diffs, WilcoxonMethod::Auto, alternative).unwrap();
            close("wilcoxon p", c.wilcoxon.map(|w| w.p_value), Some(w));
            // The Wilcoxon test comes first in the plan, as the protocol says: its p is the one
            // corrected.
            close("p", c.p_value, Some(w));
            assert!(c.d_z.is_some());
            if directional == Some("H1") {
                let ni = c.non_inferiority.unwrap();
                assert_eq!(ni.margin, 0.5);
                let want = t_test(&diffs, -0.5, Alternative::Greater).unwrap().p_value;
                close("non-inferiority t", ni.p_t, Some(want));
            } else {
                assert!(c.non_inferiority.is_none());
            }
            all.push((
                c.p_value.unwrap(),
                c.p_bonferroni.unwrap(),
                c.p_adjusted.unwrap(),
            ));
        }
    }
    // Bonferroni over the 12 comparisons, and that is the plan's correction.
    assert_eq!(all.len(), 12);
    for (p, bonferroni, adjusted) in all {
        close("bonferroni", Some(bonferroni), Some((12.0 * p).min(1.0)));
        assert_eq!(bonferroni, adjusted);
    }
}

/// Without a plan (here: without the study, which pre-registers one), every pair on item means,
/// two-sided, Holm over the report: as before plans.
#[test]
fn without_a_plan_every_pair_is_compared_two_sided() {
    let files = inputs(&[
        "financial-slot1.json",
        "financial-slot2.json",
        "financial-slot3.json",
    ]);
    let (_, report) = analyze(
        &files,
        &Context {
            study: None,
            key: None,
            reveal_ids: false,
        },
        None,
        &OPTIONS,
    );
    assert_eq!(report.settings.plan_source, "default");
    let c = &report.dimensions[0].comparisons[0];
    assert_eq!(
        c.alternative,
        juror_core::analysis::overrides::Alternative::TwoSided
    );
    assert_eq!(c.p_value, c.wilcoxon.map(|w| w.p_value));
    assert_eq!(c.p_adjusted, c.p_holm);
    assert!(c.t_test.is_some() && c.mean_diff_ci95.is_some() && !c.exploratory);
}

/// reasoning-trajectories' group contrast ({Coherence, Full} against Base on coherence, one-sided): per
/// item, the mean of the two groups' item means, tested like a pair and corrected with the
/// comparisons (Holm over the primary dimensions).
#[test]
fn a_contrast_compares_the_means_of_groups() {
    use juror_core::stats::paired::{Alternative, WilcoxonMethod, t_test, wilcoxon_p};
    let text = example("reasoning-trajectories");
    let study = parse_study(&text).unwrap();
    let hash = sha256_hex(&text);
    let files = inputs(&TRAJECTORIES);
    let (data, report) = analyze(
        &files,
        &Context {
            study: Some((&study, &hash)),
            key: None,
            reveal_ids: false,
        },
        None,
        &OPTIONS,
    );
    assert!(report.problems.is_empty(), "{:?}", report.problems);
    let coherence = report
        .dimensions
        .iter()
        .find(|d| d.dimension == "coherence")
        .unwrap();
    assert_eq!(coherence.contrasts.len(), 1);
    let c = &coherence.contrasts[0];
    assert_eq!(
        (
            c.system_a.as_str(),
            c.system_b.as_str(),
            c.hypothesis.as_deref()
        ),
        ("rft-coherence+rft-full", "rft-base", Some("H1 (groups)"))
    );
    assert_eq!(Alternative::from(c.alternative), Alternative::Greater);
    // By hand: the item means of the three systems, items that have all three.
    let rows: Vec<_> = data
        .ratings
        .iter()
        .filter(|r| r.dimension == "coherence")
        .collect();
    let means = item_means(&rows, None);
    let diffs: Vec<f64> = means["rft-base"]
        .iter()
        .filter_map(|(item, base)| {
            let a = means["rft-coherence"].get(item)?;
            let b = means["rft-full"].get(item)?;
            Some((a + b) / 2.0 - base)
        })
        .collect();
    assert_eq!(c.n, diffs.len());
    let t = t_test(&diffs, 0.0, Alternative::Greater).unwrap();
    close("t", c.t_test.map(|x| x.t), Some(t.t));
    close("t p", c.t_test.map(|x| x.p_value), Some(t.p_value));
    let w = wilcoxon_p(&diffs, WilcoxonMethod::Auto, Alternative::Greater).unwrap();
    close("wilcoxon p", c.wilcoxon.map(|x| x.p_value), Some(w));
    // In the family: the primary comparisons of coherence and efficiency, and this contrast.
    let family: Vec<f64> = report
        .dimensions
        .iter()
        .flat_map(|d| d.comparisons.iter().chain(&d.contrasts))
        .filter(|x| !x.exploratory)
        .filter_map(|x| x.p_value)
        .collect();
    assert_eq!(family.len(), 7, "3 + 3 comparisons and the contrast");
    let holm = juror_core::stats::paired::holm(&family).unwrap();
    let at = family.iter().position(|p| Some(*p) == c.p_value).unwrap();
    close("holm", c.p_holm, Some(holm[at]));
}

/// work-intake asks for tables per task type: with `by_group`, each dimension is also reported per
/// item group (the study's `items[].group`), systems and comparisons on the group's items
/// only, and not corrected (a breakdown, not more tests of the plan).
#[test]
fn by_group_reports_each_item_group() {
    let text = example("work-intake");
    let study = parse_study(&text).unwrap();
    assert!(study.analysis().is_some_and(|p| p.by_group));
    let hash = sha256_hex(&text);
    let files = inputs(&["work-intake-slot1.json", "work-intake-slot2.json"]);
    let (data, report) = analyze(
        &files,
        &Context {
            study: Some((&study, &hash)),
            key: None,
            reveal_ids: false,
        },
        None,
        &OPTIONS,
    );
    assert!(report.problems.is_empty(), "{:?}", report.problems);
    for d in &report.dimensions {
        let names: Vec<String> = d.groups.iter().map(|g| g.label()).collect();
        assert_eq!(
            names,
            [
                "taxonomy",
                "routing",
                "dependency",
                "repository apache/airflow",
                "repository kubernetes/kubernetes",
                "repository home-assistant/core",
                "repository microsoft/vscode",
                "repository microsoft/vscode-remote-release"
            ],
            "{}: the items' group, then the named grouping",
            d.dimension
        );
        for g in &d.groups {
            let grouping = g.grouping.as_deref().unwrap_or("group");
            let rows: Vec<_> = data
                .ratings
                .iter()
                .filter(|r| {
                    r.dimension == d.dimension
                        && study.item(&r.item).and_then(|i| i.grouping(grouping))
                            == Some(g.group.as_str())
                })
                .collect();
            let means = item_means(&rows, None);
            let expected = study
                .items()
                .iter()
                .filter(|i| i.grouping(grouping) == Some(g.group.as_str()))
                .count();
            assert_eq!(g.items, expected);
            for s in &g.systems {
                let m: Vec<f64> = means[&s.system].values().copied().collect();
                close(
                    "group mean",
                    Some(s.mean),
                    Some(m.iter().sum::<f64>() / m.len() as f64),
                );
            }
            assert_eq!(g.comparisons.len(), 6, "every pair of four systems");
            for c in &g.comparisons {
                assert!(c.p_holm.is_none() && c.p_adjusted.is_none() && c.exploratory);
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Golden reports
// ---------------------------------------------------------------------------------------------
//
// What `juror analyze` writes for each fixture set, through the same core calls (`run::run`,
// then `Report::to_json`, `markdown::render`, `to_csv`, `answers::to_csv`), committed under
// `tests/golden/reports/`. They hold the report fixed, byte for byte, while its code is
// reorganised. Regenerate with `JUROR_BLESS=1 cargo test -p juror-core --test it golden`
// and read the diff: a changed golden is a changed report.

mod golden_reports {
    use super::{bless, fixtures};
    use crate::support::root;
    use juror_core::analysis::overrides::{Comparisons, Overrides, Unit};
    use juror_core::analysis::run::{FileText, Request, run};
    use juror_core::analysis::{Options, answers, markdown, to_csv};
    use std::path::PathBuf;

    fn golden_dir() -> PathBuf {
        root().join("crates/juror-core/tests/golden/reports")
    }

    /// A fixture file under its bare name (so the report does not depend on where the
    /// repository is).
    fn fixture(name: &str) -> FileText {
        let path = fixtures().join(name);
        let text =
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        FileText::new(name, text)
    }

    fn repository_file(path: &str) -> FileText {
        let full = root().join(path);
        let text =
            std::fs::read_to_string(&full).unwrap_or_else(|e| panic!("{}: {e}", full.display()));
        FileText::new(path, text)
    }

    fn study(name: &str) -> Option<FileText> {
        Some(repository_file(&format!("assets/studies/{name}.json")))
    }

    fn slots(prefix: &str, n: usize) -> Vec<FileText> {
        (1..=n)
            .map(|s| fixture(&format!("{prefix}-slot{s}.json")))
            .collect()
    }

    /// The options of the goldens: the defaults, with fewer resamples to keep the debug test
    /// fast (the bootstrap itself is tested elsewhere).
    fn options() -> Options {
        Options {
            resamples: 200,
            ..Options::default()
        }
    }

    fn request(inputs: Vec<FileText>) -> Request {
        Request {
            inputs,
            options: options(),
            ..Request::default()
        }
    }

    /// The financial fixtures' adjudication sheet with every flagged cell scored 5.
    fn filled_sheet() -> FileText {
        let analysis = run(&request(slots("financial", 3))).unwrap();
        let sheet = analysis.report.adjudication_sheet();
        let filled: Vec<String> = sheet
            .lines()
            .enumerate()
            .map(|(i, l)| {
                let mut f: Vec<&str> = l.splitn(5, ',').collect();
                if i > 0 && f[3].is_empty() {
                    f[3] = "5";
                }
                f.join(",")
            })
            .collect();
        FileText::new("adjudication.csv", filled.join("\n") + "\n")
    }

    /// Four annotators rating two systems over five rounds (`juror analyze`'s rounds test).
    fn rounds_csv() -> FileText {
        let mut csv = String::from("item_id,system_id,annotator_id,dimension,score,round\n");
        for (a, annotator) in ["p1", "p2", "p3", "p4"].iter().enumerate() {
            for round in 1..=5 {
                for (s, system) in ["base", "new"].iter().enumerate() {
                    let score = 2 + a % 2 + s * round / 2 + (round + a) % 2;
                    csv.push_str(&format!(
                        "r{round},{system},{annotator},quality,{score},{round}\n"
                    ));
                }
            }
        }
        FileText::new("rounds.csv", csv)
    }

    /// Every golden set: its name and the request `juror analyze` would make of it.
    fn sets() -> Vec<(&'static str, Request)> {
        let mut broken = slots("financial", 3);
        broken.extend(["tampered.json", "bad-header.csv", "bad-rows.csv"].map(fixture));
        broken.push(FileText {
            name: "does-not-exist.csv".into(),
            text: Err("No such file or directory (os error 2)".into()),
        });
        let mut work_intake = slots("work-intake", 2);
        work_intake.push(fixture("bad-header.csv"));
        let adjudication_problems = FileText::new(
            "adj.csv",
            "item_id,system_id,dimension,score\n\
             msft,base-llm,quality,4\n\
             msft,base-llm,quality,2\n\
             jnj,base-llm,quality,\n\
             nowhere,base-llm,quality,3\n\
             xom,fin-agent,quality,lots\n",
        );
        vec![
            ("financial", request(slots("financial", 3))),
            (
                "financial-study",
                Request {
                    study: study("financial-analysis"),
                    ..request(slots("financial", 3))
                },
            ),
            (
                "financial-adjudicated",
                Request {
                    study: study("financial-analysis"),
                    adjudication: Some(filled_sheet()),
                    ..request(slots("financial", 3))
                },
            ),
            (
                "financial-adjudication-problems",
                Request {
                    adjudication: Some(adjudication_problems),
                    ..request(slots("financial", 3))
                },
            ),
            ("financial-broken", request(broken)),
            (
                "pandalm-sealed",
                Request {
                    study: Some(fixture("pandalm-sealed-study.json")),
                    key: Some(fixture("pandalm-key.json")),
                    ..request(slots("pandalm", 3))
                },
            ),
            ("pandalm-tokens", request(slots("pandalm", 3))),
            ("work-intake", request(work_intake)),
            (
                "work-intake-study",
                Request {
                    study: study("work-intake"),
                    ..request(slots("work-intake", 2))
                },
            ),
            (
                "trajectories-study",
                Request {
                    study: study("reasoning-trajectories"),
                    ..request(slots("trajectories", 3))
                },
            ),
            (
                "trajectories-overrides",
                Request {
                    study: study("reasoning-trajectories"),
                    overrides: Overrides {
                        unit: Some(Unit::Annotator),
                        comparisons: Some(Comparisons::Anchor("rft-base".into())),
                        margin: Some(0.5),
                        by_group: Some(true),
                        ..Overrides::default()
                    },
                    ..request(slots("trajectories", 3))
                },
            ),
            (
                "hare-ratings-study",
                Request {
                    study: study("hare-personalization"),
                    ..request(vec![fixture("hare-ratings.csv")])
                },
            ),
            (
                "hare-sessions-by-intake",
                Request {
                    study: study("hare-personalization"),
                    overrides: Overrides {
                        by_intake: Some("role".into()),
                        ..Overrides::default()
                    },
                    ..request(slots("hare", 3))
                },
            ),
            ("hare-sessions", request(slots("hare", 3))),
            (
                "two-domains-study",
                Request {
                    study: study("two-domains"),
                    ..request(vec![fixture("two-domains-ratings.csv")])
                },
            ),
            (
                "rounds-reference",
                Request {
                    options: Options {
                        reference: Some("new".into()),
                        ..options()
                    },
                    ..request(vec![rounds_csv()])
                },
            ),
            (
                "pandalm-pairwise-csv",
                request(vec![repository_file(
                    "data/pandalm/pandalm_pairwise_long.csv",
                )]),
            ),
        ]
    }

    fn check(path: PathBuf, text: &str, stale: &mut Vec<String>) {
        if bless() {
            std::fs::create_dir_all(golden_dir()).unwrap();
            std::fs::write(&path, text).unwrap();
        }
        let committed = std::fs::read_to_string(&path).unwrap_or_default();
        if committed != text {
            stale.push(path.display().to_string());
        }
    }

    #[test]
    fn golden_reports_are_what_the_analysis_writes() {
        let mut stale = Vec::new();
        for (name, request) in sets() {
            let analysis = run(&request).unwrap_or_else(|b| panic!("{name}: {b:#?}"));
            let at = |ext: &str| golden_dir().join(format!("{name}.{ext}"));
            check(at("report.json"), &analysis.report.to_json(), &mut stale);
            check(
                at("report.md"),
                &markdown::render(&analysis.report),
                &mut stale,
            );
            // The tidy CSV of ratings files (a CSV input's is the input again); the answers and
            // the sheet when they have rows.
            if request.inputs.iter().all(|f| f.name.ends_with(".json")) {
                check(at("tidy.csv"), &to_csv(&analysis.data), &mut stale);
            }
            if !analysis.data.answers.is_empty() {
                let text = answers::to_csv(&analysis.data.answers);
                check(at("answers.csv"), &text, &mut stale);
            }
            if analysis
                .report
                .dimensions
                .iter()
                .any(|d| !d.flags.is_empty())
            {
                let text = analysis.report.adjudication_sheet();
                check(at("sheet.csv"), &text, &mut stale);
            }
        }
        assert!(
            stale.is_empty(),
            "out of date (a changed golden is a changed report; regenerate with \
             `JUROR_BLESS=1 cargo test -p juror-core --test it golden` only if the change \
             is meant): {stale:#?}"
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Backups, preview runs, names and caps
// ---------------------------------------------------------------------------------------------

/// One financial-analysis participant (a Prolific PID), as the page sends them: a backup after
/// `backup_after` trials, the final file, and, after they changed their first trial's score on
/// the finish page, the final file again. Every score is 3, the changed one 5.
fn backup_final_revised(backup_after: usize) -> [(String, String); 3] {
    use juror_core::plan::PlatformVisit;
    let (study, hash) = financial_study();
    let annotator = Annotator {
        slot: 1,
        id: Some("5f0c9a".to_owned()),
        platform: Some(PlatformVisit {
            name: "prolific".to_owned(),
            session_id: Some("sess-1".to_owned()),
            ..PlatformVisit::default()
        }),
    };
    let mut s = Session::new(&study, annotator);
    let mut now = T0;
    let mut step = |s: &mut Session, msg: Msg| {
        now += 1000.0;
        update(&study, s, msg, now);
        now
    };
    step(&mut s, Msg::Start);
    step(&mut s, Msg::FinishInstructions);
    let rate = |value| {
        Msg::answer(
            Target::Rating {
                position: 0,
                dimension: "quality".into(),
            },
            Reply::Score(value),
        )
    };
    let mut backup = None;
    let mut end = T0;
    for index in 0..s.plan.trials.len() {
        step(&mut s, rate(3));
        let at = step(&mut s, Msg::Next);
        end = at;
        if index + 1 == backup_after {
            backup = Some(export(&study, &hash, &s, APP_VERSION, at));
        }
    }
    assert_eq!(s.progress.phase, Phase::Done);
    let last = export(&study, &hash, &s, APP_VERSION, end);
    // "Review or change an answer", then back to the finish page.
    let total = s.plan.trials.len();
    step(&mut s, Msg::GoTo(0));
    step(&mut s, rate(5));
    step(&mut s, Msg::GoTo(total - 1));
    let at = step(&mut s, Msg::Next);
    assert_eq!(s.progress.phase, Phase::Done);
    let revised = export(&study, &hash, &s, APP_VERSION, at + 60_000.0);
    let backup = backup.unwrap();
    assert!(!backup.complete && last.complete && revised.complete);
    let stem = last.file_name("json").replace(".json", "");
    [
        (
            format!("{stem}-backup-{backup_after}.json"),
            backup.to_json(),
        ),
        (format!("{stem}.json"), last.to_json()),
        (format!("{stem}-2.json"), revised.to_json()),
    ]
}

/// A backup, the final file and a revised final file of one participant give the revised
/// answers, whatever the order the files come in; the other two are superseded (not
/// duplicates, not problems) and each trial is counted once.
#[test]
fn backups_never_displace_the_final_answers_in_either_order() {
    let (study, hash) = financial_study();
    let context = Context {
        study: Some((&study, &hash)),
        ..Context::default()
    };
    let files = backup_final_revised(4);
    let first = parse(&files[2].1).unwrap().trials[0].clone();
    let (first_item, first_system) = (first.item, first.outputs[0].system.clone());
    let orders: [[usize; 3]; 3] = [[0, 1, 2], [2, 1, 0], [1, 2, 0]];
    let mut seen = Vec::new();
    for order in orders {
        let given: Vec<Input> = order
            .iter()
            .map(|&i| Input::new(files[i].0.clone(), files[i].1.as_str()))
            .collect();
        let data = read(&given, &context);
        assert!(data.problems.is_empty(), "{order:?}: {:#?}", data.problems);
        let changed: Vec<f64> = data
            .ratings
            .iter()
            .filter(|r| *r.item == *first_item && *r.system == *first_system)
            .map(|r| r.score)
            .collect();
        assert_eq!(changed, [5.0], "{order:?}: the revised score is read");
        let kinds: Vec<InputKind> = data.files.iter().map(|f| f.kind).collect();
        let read_at = order.iter().position(|&i| i == 2).unwrap();
        for (at, kind) in kinds.iter().enumerate() {
            let want = if at == read_at {
                InputKind::RatingsFile
            } else {
                InputKind::SupersededBackup
            };
            assert_eq!(*kind, want, "{order:?}: {:#?}", data.files);
        }
        let trials = parse(&files[2].1).unwrap().trials.len();
        assert_eq!(data.trials.len(), trials, "each trial once");
        assert_eq!(data.ratings.len(), trials);
        let revised = data.files[read_at].file.clone();
        assert!(
            data.files
                .iter()
                .filter(|f| f.kind == InputKind::SupersededBackup)
                .all(|f| f.superseded_by.as_deref() == Some(revised.as_str()))
        );
        let mut ratings: Vec<(String, f64)> = data
            .ratings
            .iter()
            .map(|r| (r.item.to_string(), r.score))
            .collect();
        ratings.sort_by(|a, b| a.0.cmp(&b.0));
        seen.push(ratings);
    }
    assert!(seen.windows(2).all(|w| w[0] == w[1]));
    // The Markdown says so in one sentence.
    let (_, report) = analyze(
        &[
            Input::new(files[0].0.clone(), files[0].1.as_str()),
            Input::new(files[2].0.clone(), files[2].1.as_str()),
        ],
        &context,
        None,
        &OPTIONS,
    );
    let md = markdown::render(&report);
    assert!(md.contains("1 of them superseded"), "{md}");
    assert!(!md.contains("duplicate"), "{md}");
}

/// Without a complete file, the latest file is read; a file of another session of the same
/// annotator (started at another time) is superseded too, but said, as it is not a backup.
#[test]
fn without_a_complete_file_the_latest_is_read_and_another_session_is_said() {
    let files = backup_final_revised(4);
    let backup = &files[0];
    let mut earlier = parse(&backup.1).unwrap();
    earlier.exported_at = "2026-01-01T00:00:00.000Z".to_owned();
    earlier.trials.truncate(2);
    earlier.sha256 = String::new();
    let earlier = resigned(&earlier);
    let given = [
        Input::new(backup.0.clone(), backup.1.as_str()),
        Input::new("juror-early.json", earlier.as_str()),
    ];
    let data = read(&given, &Context::default());
    assert_eq!(data.files[0].kind, InputKind::RatingsFile);
    assert_eq!(data.files[1].kind, InputKind::SupersededBackup);
    assert!(data.problems.is_empty(), "{:#?}", data.problems);

    let mut other = parse(&files[2].1).unwrap();
    other.started_at = Some("2026-01-01T00:00:00.000Z".to_owned());
    let other = resigned(&other);
    let given = [
        Input::new(files[2].0.clone(), files[2].1.as_str()),
        Input::new("juror-other-session.json", other.as_str()),
    ];
    let data = read(&given, &Context::default());
    assert_eq!(data.problems.len(), 1, "{:#?}", data.problems);
    assert!(
        data.problems[0].message.contains("of another session"),
        "{:#?}",
        data.problems
    );
}

/// The file with its checksum made again.
fn resigned(file: &RatingsFile) -> String {
    let mut value = serde_json::to_value(file).unwrap();
    value.as_object_mut().unwrap().remove("sha256");
    let sum = sha256_hex(&serde_json::to_string(&value).unwrap());
    value["sha256"] = sum.into();
    serde_json::to_string_pretty(&value).unwrap()
}

/// A researcher's preview run is refused with a clear problem; the annotators' files are read.
#[test]
fn a_preview_run_is_refused() {
    let mut preview = parse(&fixture("financial-slot1.json").text).unwrap();
    preview.preview = true;
    let mut given = inputs(&["financial-slot2.json"]);
    given.push(Input::new("juror-preview.json", resigned(&preview)));
    let data = read(&given, &Context::default());
    assert_eq!(data.problems.len(), 1, "{:#?}", data.problems);
    assert_eq!(data.problems[0].at.as_deref(), Some("preview"));
    assert!(
        data.problems[0]
            .message
            .contains("a researcher's preview run, not an annotator's: left out")
    );
    assert_eq!(data.files[1].kind, InputKind::Unread);
    assert!(data.ratings.iter().all(|r| &*r.annotator == "ann-b"));
}

/// Names in the report are base names, never paths; a platform participant's id never
/// reaches a file name or a problem, whether the file is read, refused after parsing (its
/// pseudonym replaces the id) or refused unparsed (`file N` replaces it).
#[test]
fn refused_files_and_paths_do_not_name_the_participant() {
    let (study, hash) = financial_study();
    let files = backup_final_revised(4);
    let mut other_study = parse(&files[2].1).unwrap();
    other_study.study.sha256 = "0".repeat(64);
    let given = [
        Input::new(
            format!("/srv/researcher/Downloads/{}", files[2].0),
            files[2].1.as_str(),
        ),
        Input::new(
            format!("C:\\Users\\r\\inbox\\{}", files[1].0),
            resigned(&other_study),
        ),
        Input::new(
            "/srv/researcher/juror-financial-analysis-2024w10-5f0c9a-2026-11-25.json",
            "{\"format\": \"juror.ratings/1\", cut short",
        ),
        Input::new("/tmp/juror-x-5f0c9a-2026-11-25.json", "{ nope"),
    ];
    let context = Context {
        study: Some((&study, &hash)),
        ..Context::default()
    };
    let (data, report) = analyze(&given, &context, None, &OPTIONS);
    let json = report.to_json();
    let md = markdown::render(&report);
    for text in [&json, &md] {
        assert!(!text.contains("5f0c9a"), "{text}");
        assert!(
            !text.contains("researcher/") && !text.contains("Users"),
            "{text}"
        );
    }
    assert!(
        data.files[0]
            .file
            .starts_with("juror-financial-analysis-2024w10-prolific-")
    );
    assert_eq!(data.problems.len(), 3, "{:#?}", data.problems);
    assert!(
        data.problems[0]
            .file
            .starts_with("juror-financial-analysis-2024w10-prolific-")
    );
    assert_eq!(
        data.problems[1].file,
        "juror-financial-analysis-2024w10-file3-2026-11-25.json"
    );
    assert_eq!(data.problems[2].file, "file 4");
    assert!(
        report
            .settings
            .platform_ids
            .unwrap()
            .contains("salt drawn from the ratings files"),
        "unkeyed pseudonyms are salted per report"
    );
}

/// Without a key, pseudonyms are salted with the ratings files: the same files give the same
/// pseudonym, other files another, and none is the unsalted hash anyone could recompute.
#[test]
fn unkeyed_pseudonyms_hold_for_one_set_of_files() {
    let files = backup_final_revised(4);
    let alias = |given: &[&(String, String)]| {
        let inputs: Vec<Input> = given
            .iter()
            .map(|(n, t)| Input::new(n.clone(), t.as_str()))
            .collect();
        let data = read(&inputs, &Context::default());
        data.files
            .iter()
            .find(|f| f.kind == InputKind::RatingsFile)
            .and_then(|f| f.annotator.clone())
            .unwrap()
    };
    let one = alias(&[&files[2]]);
    assert_eq!(one, alias(&[&files[2]]));
    assert_ne!(one, alias(&[&files[2], &files[0]]));
    assert_ne!(
        one,
        juror_core::base::pseudonym::pseudonym("", "prolific", "5f0c9a")
    );
    assert!(one.starts_with("prolific-"));
}

/// Without a study, the inputs may name at most 64 systems and 64 dimensions: a tidy CSV
/// naming 3,000 systems is left out with one problem at its 65th system, in time linear in
/// its size, and the other inputs are analysed (the preference statistics never see more than
/// the cap).
#[test]
fn a_csv_naming_thousands_of_systems_is_refused_at_the_cap() {
    use juror_core::analysis::read::caps::{MAX_DIMENSIONS, MAX_SYSTEMS};
    let mut wide = String::from("item_id,system_a,system_b,annotator_id,preference\n");
    for s in 0..3000 {
        wide.push_str(&format!("i{},s{s},s{},a{},a\n", s % 7, s + 1, s % 5));
    }
    let mut given = inputs(&PANDALM);
    given.push(Input::new("wide.csv", wide));
    let (data, report) = analyze(&given, &Context::default(), None, &OPTIONS);
    assert_eq!(data.problems.len(), 1, "{:#?}", data.problems);
    let p = &data.problems[0];
    assert_eq!(p.file, "wide.csv");
    assert!(
        p.message.contains("more than the 64 distinct systems"),
        "{p}"
    );
    assert!(
        p.at.as_deref().is_some_and(|at| at.starts_with("line ")),
        "{p}"
    );
    assert_eq!(data.files[3].ratings + data.files[3].preferences, 0);
    assert!(report.preferences.is_some(), "the other files are analysed");
    let systems: BTreeSet<&str> = data
        .preferences
        .iter()
        .flat_map(|r| [&*r.system_a, &*r.system_b])
        .collect();
    assert!(systems.len() <= MAX_SYSTEMS);

    let mut dims = String::from("item_id,system_id,annotator_id,dimension,score\n");
    for d in 0..=MAX_DIMENSIONS {
        dims.push_str(&format!("i1,A,a1,d{d},3\n"));
    }
    let data = read(&[Input::new("dims.csv", dims)], &Context::default());
    assert_eq!(data.problems.len(), 1, "{:#?}", data.problems);
    assert!(data.problems[0].message.contains("64 distinct dimensions"));
    assert_eq!(data.problems[0].at.as_deref(), Some("line 66"));
    assert!(data.ratings.is_empty());
}

// ---------------------------------------------------------------------------------------------
// One study at a time, the published copy, repeated ratings, speed, dimension labels
// ---------------------------------------------------------------------------------------------

/// Ratings files of two studies, without a study or a key to say which one is analysed: every
/// ratings file is left out, each naming the studies and their counts; a CSV is still read.
/// Never merged, and never called duplicates (both files below are slot 1's).
#[test]
fn ratings_files_of_two_studies_are_never_merged() {
    let mut files = inputs(&[
        "financial-slot1.json",
        "pandalm-slot1.json",
        "financial-slot2.json",
    ]);
    files.push(Input::new(
        "extra.csv",
        "item_id,system_id,annotator_id,dimension,score\nq1,a,csv-1,quality,3\n",
    ));
    let data = read(&files, &Context::default());
    assert_eq!(data.problems.len(), 3, "{:#?}", data.problems);
    let pandalm = "pandalm-bloom-llama";
    for p in &data.problems {
        assert_eq!(p.at.as_deref(), Some("study.id"), "{p}");
        assert!(
            p.message.contains(&format!(
                "2 studies: \"financial-analysis-2024w10\" (2 files), \"{pandalm}\" (1 file)"
            )),
            "{p}"
        );
        assert!(p.message.contains("analyse one study at a time"), "{p}");
        assert!(
            !p.message.contains("duplicate") && !p.message.contains("merged"),
            "{p}"
        );
    }
    assert!(
        data.problems[1]
            .message
            .starts_with(&format!("this file is for the study \"{pandalm}\""))
    );
    // Only the CSV's rating is read.
    assert_eq!(data.ratings.len(), 1);
    assert!(data.preferences.is_empty());

    // With the study, the other study's file alone is left out, as of another study.
    let (study, hash) = financial_study();
    let context = Context {
        study: Some((&study, &hash)),
        key: None,
        reveal_ids: false,
    };
    let data = read(&files[..2], &context);
    assert_eq!(data.problems.len(), 1, "{:#?}", data.problems);
    let p = &data.problems[0];
    assert_eq!(
        (p.file.as_str(), p.at.as_deref()),
        ("pandalm-slot1.json", Some("study.id"))
    );
    assert!(!p.message.contains("duplicate"), "{p}");
    assert_eq!(data.ratings.len(), 50);
}

/// A small study of pairs with rating scales: each of an item's three outputs is shown in two
/// of its three pairs, so every annotator rates each output twice on each dimension.
fn pairs_study() -> String {
    serde_json::json!({
        "format": "juror.study/1",
        "id": "kitchen-pairs",
        "title": "Which answer is better?",
        "seed": 11,
        "systems": ["small", "big", "retrieval"],
        "rubric": { "dimensions": [
            { "id": "correct", "label": "Correctness", "question": "Would it work?",
              "scale": { "min": 1, "max": 5, "points": [
                  { "value": 1, "label": "Wrong", "description": "Would fail" },
                  { "value": 2, "label": "Mostly wrong", "description": "A key step is wrong" },
                  { "value": 3, "label": "Partly right", "description": "A noticeable mistake" },
                  { "value": 4, "label": "Mostly right", "description": "A minor detail is off" },
                  { "value": 5, "label": "Right", "description": "Fully correct" } ] } },
            { "id": "clarity", "label": "Clarity", "question": "Is it easy to follow?",
              "scale": { "min": 1, "max": 3, "points": [
                  { "value": 1, "label": "Confusing", "description": "Could not act on it" },
                  { "value": 2, "label": "Followable", "description": "After re-reading" },
                  { "value": 3, "label": "Clear", "description": "At once" } ] } }
        ] },
        "design": { "tasks": [{ "id": "compare", "presentation": "pairs",
                                "preference": { "type": "choice", "allow_tie": true } }] },
        "items": (1..=4).map(|i| serde_json::json!({
            "id": format!("q{i}"), "prompt": format!("Question {i}?"),
            "outputs": { "small": format!("Small {i}."), "big": format!("Big {i}."),
                         "retrieval": format!("Found {i}.") } })).collect::<Vec<_>>()
    })
    .to_string()
}

/// The first rating of an output on a dimension: fixed by the item, the system and the
/// dimension; a repeat is `first + drift(slot, n)` on its n-th repeat, kept on the scale.
fn first_score(item: &str, system: &str, dimension: &str) -> i32 {
    let digit = item.bytes().last().map_or(0, |b| usize::from(b - b'0'));
    let base = 1 + (digit + system.len() + dimension.len()) as i32 % 3;
    if dimension == "correct" {
        base + 1
    } else {
        base
    }
}

/// Replays `slot` on the pairs study, `step` ms between actions, rating repeats with `drift`.
fn pairs_session(study: &Study, slot: u32, step: f64, drift: impl Fn(usize) -> i32) -> Session {
    let seen = std::cell::RefCell::new(BTreeMap::<(String, String, String), usize>::new());
    replay_timed(study, Annotator::slot(slot), 0, step, |_, item, shown| {
        let mut scores = Vec::new();
        for (p, system) in shown.iter().enumerate() {
            for dimension in ["correct", "clarity"] {
                let key = (item.to_owned(), system.clone(), dimension.to_owned());
                let mut seen = seen.borrow_mut();
                let n = seen.entry(key).and_modify(|n| *n += 1).or_insert(0);
                let top = if dimension == "correct" { 5 } else { 3 };
                let first = first_score(item, system, dimension);
                let v = if *n == 0 { first } else { first + drift(*n) };
                scores.push((p, dimension.to_owned(), v.clamp(1, top)));
            }
        }
        Answers {
            scores,
            preference: Some(Preference::Tie),
        }
    })
}

/// Repeated ratings: the first rating of each (annotator, item, system, dimension) is the one
/// analysed; the repeats are counted and compared with it (identical, within one point) in the
/// diagnostics, JSON and Markdown, and per annotator.
#[test]
fn repeated_ratings_are_counted_and_compared_never_dropped_silently() {
    let text = pairs_study();
    let (study, hash) = (parse_study(&text).unwrap(), sha256_hex(&text));
    // Slot 1 repeats every score; slot 2 moves each repeat by two points, up (kept on the scale).
    let files = [
        pairs_session(&study, 1, 1000.0, |_| 0),
        pairs_session(&study, 2, 1000.0, |_| 2),
    ]
    .iter()
    .enumerate()
    .map(|(i, s)| Input::new(format!("slot{}.json", i + 1), export_json(&study, &hash, s)))
    .collect::<Vec<_>>();
    let context = Context {
        study: Some((&study, &hash)),
        key: None,
        reveal_ids: false,
    };
    let (data, report) = analyze(&files, &context, None, &OPTIONS);
    assert!(report.problems.is_empty(), "{:?}", report.problems);
    // 4 items × 3 pairs × 2 outputs × 2 dimensions = 48 ratings given per annotator, half of
    // them repeats.
    let r = report.diagnostics.repeats;
    assert_eq!((r.ratings_given, r.repeats), (96, 48));
    assert_eq!(data.ratings.len(), 48);
    // The first ratings are the ones analysed: every cell holds the designed first score.
    for row in &data.ratings {
        let want = first_score(&row.item, &row.system, &row.dimension);
        assert_eq!(row.score, f64::from(want), "{row:?}");
    }
    let by = |name: &str| {
        let a = report
            .diagnostics
            .annotators
            .iter()
            .find(|a| a.annotator == name)
            .unwrap();
        (a.repeats.ratings, a.repeats.same, a.repeats.within_one)
    };
    assert_eq!(by("slot1"), (24, 24, 24));
    // Slot 2's repeats moved by two points, except where the scale's top stopped them.
    let capped = data
        .repeats
        .iter()
        .filter(|r| r.annotator == "slot2")
        .filter(|r| {
            let top = if r.dimension == "correct" { 5.0 } else { 3.0 };
            let first = f64::from(first_score(&r.item, &r.system, &r.dimension));
            top - first < 2.0
        })
        .count();
    let (n, same, within) = by("slot2");
    assert_eq!(n, 24);
    assert!(capped > 0 && capped < 24, "the data show both kinds");
    assert_eq!(
        (r.same, r.within_one),
        (24 + same, 24 + within),
        "the summary adds the annotators up"
    );
    assert!(within >= same && within > 0 && within < 24);

    let json: serde_json::Value = serde_json::from_str(&report.to_json()).unwrap();
    assert_eq!(json["diagnostics"]["repeats"]["repeats"], 48);
    assert_eq!(json["diagnostics"]["repeats"]["within_one"], 24 + within);
    let md = markdown::render(&report);
    assert!(md.contains("### Repeated ratings"), "{md}");
    assert!(
        md.contains(
            "48 of the 96 rating(s) given were repeats: an output shown again in a later trial"
        ),
        "{md}"
    );
    assert!(md.contains(&format!(
        "they were {} ({:.0}%) identical and {} ({:.0}%) within one scale point",
        24 + same,
        100.0 * (24 + same) as f64 / 48.0,
        24 + within,
        100.0 * (24 + within) as f64 / 48.0
    )));
    assert!(md.contains("| 24 of 24 (24 within one) |"), "{md}");
    assert!(
        md.contains(&format!("| {same} of 24 ({within} within one) |")),
        "{md}"
    );
}

/// Annotators who click through: both take a fraction of a second per trial, so the relative
/// rule (against the median annotator) sees nothing; the absolute floor warns about both.
#[test]
fn annotators_under_the_speed_floor_are_warned_whatever_the_others_took() {
    use juror_core::analysis::diagnostics::FAST_FLOOR_SECONDS;
    let text = pairs_study();
    let (study, hash) = (parse_study(&text).unwrap(), sha256_hex(&text));
    let run = |step: f64| {
        let files: Vec<Input> = (1..=2u32)
            .map(|slot| {
                let s = pairs_session(&study, slot, step, |_| 0);
                Input::new(format!("slot{slot}.json"), export_json(&study, &hash, &s))
            })
            .collect();
        let context = Context {
            study: Some((&study, &hash)),
            key: None,
            reveal_ids: false,
        };
        analyze(&files, &context, None, &OPTIONS).1
    };
    let fast = run(60.0);
    let d = &fast.diagnostics;
    assert_eq!(d.speed.floor_seconds, FAST_FLOOR_SECONDS);
    for a in &d.annotators {
        let m = a.median_seconds_per_trial.unwrap();
        assert!(m < 1.0, "{m}");
        let speed: Vec<&String> = a
            .warnings
            .iter()
            .filter(|w| w.contains("per trial"))
            .collect();
        assert_eq!(speed.len(), 1, "{:?}", a.warnings);
        assert!(
            speed[0].starts_with(&format!(
                "median {m:.1} s per trial, under the floor of 2 s"
            )),
            "{:?}",
            a.warnings
        );
    }
    let md = markdown::render(&fast);
    assert!(
        md.contains("under the floor of 2 s: too fast to have read the outputs"),
        "{md}"
    );
    assert!(md.contains("Speed is warned about for a median active time per trial under 2 s"));

    // At a human pace, no warning.
    let human = run(2500.0);
    for a in &human.diagnostics.annotators {
        assert!(a.median_seconds_per_trial.unwrap() >= FAST_FLOOR_SECONDS);
        assert!(a.warnings.is_empty(), "{:?}", a.warnings);
    }
}

/// With the study, the report names a dimension by its label, with the id the data use; without
/// it, by its id. The Analyse page writes the same Markdown (one renderer).
#[test]
fn dimensions_are_named_by_their_label_with_the_study() {
    let text = pairs_study();
    let (study, hash) = (parse_study(&text).unwrap(), sha256_hex(&text));
    let s = pairs_session(&study, 1, 1000.0, |_| 0);
    let files = [Input::new("slot1.json", export_json(&study, &hash, &s))];
    let context = Context {
        study: Some((&study, &hash)),
        key: None,
        reveal_ids: false,
    };
    let (_, with) = analyze(&files, &context, None, &OPTIONS);
    assert_eq!(with.dimensions[0].label.as_deref(), Some("Correctness"));
    assert_eq!(with.dimensions[0].title(), "Correctness (correct)");
    let md = markdown::render(&with);
    assert!(md.contains("\n## Correctness (correct)\n"), "{md}");
    // A label that is its id but for case is not followed by it.
    assert!(md.contains("\n## Clarity\n"), "{md}");
    assert!(md.contains("| Correctness (correct) | 1 |"), "{md}");
    let (_, without) = analyze(&files, &Context::default(), None, &OPTIONS);
    assert_eq!(without.dimensions[0].label, None);
    let md = markdown::render(&without);
    assert!(
        md.contains("\n## correct\n") && !md.contains("Correctness"),
        "{md}"
    );
}

/// The study file the researcher wrote, given for ratings made with the copy `juror publish`
/// wrote: told apart from an edited study, with what to do.
#[test]
fn the_unpublished_original_is_told_apart_from_another_version() {
    use juror_core::publish::publish;
    let text = pairs_study();
    let raw: RawStudy = serde_json::from_str(&text).unwrap();
    let original = parse_study(&text).unwrap();
    let (published_raw, key) = publish(&raw, &original, &[9u8; 32], 4, &[]);
    let published_text = serde_json::to_string_pretty(&published_raw).unwrap();
    let published = parse_study(&published_text).unwrap();
    let published_hash = sha256_hex(&published_text);
    let s = pairs_session(&published, 1, 1000.0, |_| 0);
    let files = [Input::new(
        "slot1.json",
        export_json(&published, &published_hash, &s),
    )];
    let hash = sha256_hex(&text);
    for key in [None, Some(&key)] {
        let context = Context {
            study: Some((&original, &hash)),
            key,
            reveal_ids: false,
        };
        let data = read(&files, &context);
        assert_eq!(data.problems.len(), 1, "{:?}", data.problems);
        let p = &data.problems[0];
        assert_eq!(p.at.as_deref(), Some("study.sha256"));
        assert!(p.message.contains("is the original you wrote"), "{p}");
        assert!(
            p.message.contains("check them against the published copy"),
            "{p}"
        );
        assert!(!p.message.contains("ask the researcher"), "{p}");
    }
    // With the published copy and the key, the file is read.
    let context = Context {
        study: Some((&published, &published_hash)),
        key: Some(&key),
        reveal_ids: false,
    };
    assert!(read(&files, &context).problems.is_empty());

    // Another version of the original (edited after the annotators began): said as such.
    let s = pairs_session(&original, 1, 1000.0, |_| 0);
    let files = [Input::new("slot1.json", export_json(&original, &hash, &s))];
    let edited = format!("{text}\n");
    let edited_hash = sha256_hex(&edited);
    let context = Context {
        study: Some((&original, &edited_hash)),
        key: None,
        reveal_ids: false,
    };
    let data = read(&files, &context);
    let p = &data.problems[0];
    assert_eq!(p.at.as_deref(), Some("study.sha256"));
    assert!(
        p.message.starts_with(
            "the ratings were made with another version of the study file \"kitchen-pairs\""
        ),
        "{p}"
    );
    assert!(p.message.contains(&hash[..12]), "{p}");
    assert!(!p.message.contains("ask the researcher"), "{p}");
}

/// The two-domains example's plan scopes its confirmatory analysis to the items with domain
/// claude-skills: its comparisons, hypotheses, threshold and Bonferroni family use only those
/// items, and the study-plans items are reported apart, exploratory, with their own rounds and
/// no adjusted p-value. Reference values, scipy 1.17.1, on the fixture's personalisation
/// ratings (each participant's mean of a system over a domain's three items):
/// skills, hare − rag `wilcoxon(..., alternative="greater")` p = 0.03125, hare's slope over
/// rounds `linregress` 0.5, one-sided p = 0.017299838364124305; study plans, p = 0.1875, slope
/// 0.3333333333333333, one-sided p = 0.04193450383891261. Pooling both domains (what the
/// plan without its scope does) gives p = 0.015625 for hare − rag.
#[test]
fn a_confirmatory_scope_keeps_the_other_domain_apart() {
    let text = example("two-domains");
    let study = parse_study(&text).unwrap();
    let hash = sha256_hex(&text);
    let csv = std::fs::read_to_string(fixtures().join("two-domains-ratings.csv")).unwrap();
    let run = |study: &Study| {
        analyze(
            &[Input::new("two-domains-ratings.csv", csv.clone())],
            &Context {
                study: Some((study, &hash)),
                key: None,
                reveal_ids: false,
            },
            None,
            &OPTIONS,
        )
        .1
    };
    let report = run(&study);
    assert!(report.problems.is_empty(), "{:?}", report.problems);
    let near = |got: Option<f64>, want: f64| {
        let got = got.unwrap_or(f64::NAN);
        assert!((got - want).abs() <= 1e-9, "{got} vs {want}");
    };
    let personalization = |dims: &[juror_core::analysis::report::DimensionReport]| {
        dims.iter()
            .find(|d| d.dimension == "personalization")
            .unwrap()
            .clone()
    };
    let pair = |d: &juror_core::analysis::report::DimensionReport, b: &str| {
        d.comparisons
            .iter()
            .find(|c| c.system_a == "hare" && c.system_b == b)
            .unwrap()
            .clone()
    };

    // Confirmatory: the skills items only; Bonferroni over 2 × 2 comparisons and H3.
    let scope = report.scope.as_ref().expect("the plan's scope");
    assert_eq!(
        (scope.grouping.as_str(), scope.group.as_str(), scope.items),
        ("domain", "claude-skills", 3)
    );
    assert_eq!((scope.ratings, scope.ungrouped), (108, 0));
    let d = personalization(&report.dimensions);
    assert_eq!(d.items, 3);
    let c = pair(&d, "rag");
    assert!(!c.exploratory);
    near(c.p_value, 0.03125);
    near(c.p_adjusted, 5.0 * 0.03125);
    let h3 = &report.hypotheses[0];
    near(h3.estimate, 0.5);
    near(h3.p_value, 0.017299838364124305);
    near(h3.p_adjusted, 5.0 * 0.017299838364124305);
    assert_eq!(report.thresholds[0].participants, 6);

    // Secondary: the study-plans items, exploratory, uncorrected, with their rounds.
    assert_eq!(scope.secondary.len(), 1);
    let s = &scope.secondary[0];
    assert_eq!(
        (s.group.as_str(), s.items, s.ratings),
        ("study-plans", 3, 108)
    );
    let d = personalization(&s.dimensions);
    let c = pair(&d, "rag");
    assert!(c.exploratory);
    near(c.p_value, 0.1875);
    assert_eq!((c.p_holm, c.p_bonferroni, c.p_adjusted), (None, None, None));
    let hare = d
        .rounds
        .as_ref()
        .and_then(|r| r.trends.iter().find(|t| t.system == "hare"))
        .unwrap();
    near(hare.slope, 1.0 / 3.0);
    let h3 = &s.hypotheses[0];
    assert!(!h3.corrected && h3.exploratory);
    near(h3.p_value, 0.04193450383891261);
    near(h3.p_adjusted, 0.04193450383891261);
    let markdown = juror_core::analysis::render::markdown::render(&report);
    assert!(
        markdown.contains("## Secondary analysis: items with domain study-plans"),
        "{markdown}"
    );
    assert!(
        markdown.contains("the confirmatory analysis was restricted to the 3 item(s) with domain"),
        "{markdown}"
    );

    // Without the study, the items' domains are unknown: every item, and a problem saying why.
    let data = juror_core::analysis::read(
        &[Input::new("two-domains-ratings.csv", csv.clone())],
        &Context {
            study: None,
            key: None,
            reveal_ids: false,
        },
    );
    let options = Options {
        plan: study.analysis().cloned(),
        ..OPTIONS
    };
    let blind = juror_core::analysis::report(&data, None, None, &options);
    assert!(blind.scope.is_none());
    assert_eq!(personalization(&blind.dimensions).items, 6);
    assert!(
        blind.problems.iter().any(|p| p.message.contains(
            "the items' groups are in the study: give the study (--study); every item was \
             analysed together"
        )),
        "{:?}",
        blind.problems
    );

    // Without the scope, the same plan pools both domains.
    let mut raw: serde_json::Value = serde_json::from_str(&text).unwrap();
    raw["analysis"]
        .as_object_mut()
        .unwrap()
        .remove("confirmatory");
    let pooled = run(&parse_study(&raw.to_string()).unwrap());
    assert!(pooled.scope.is_none());
    let d = personalization(&pooled.dimensions);
    assert_eq!(d.items, 6);
    near(pair(&d, "rag").p_value, 0.015625);
}

/// The Analyse page shows the scope and the secondary analyses from the same table model as the
/// Markdown: the scope's sentence is the end of the report's first paragraph, and each secondary
/// analysis is the Markdown's sections from its heading to the next of the top level.
#[test]
fn the_page_shows_the_scope_and_secondary_sections_of_the_markdown() {
    use juror_core::analysis::render::tables::{Block, scope_summary, secondary_tables, tables};
    let text = example("two-domains");
    let study = parse_study(&text).unwrap();
    let hash = sha256_hex(&text);
    let csv = std::fs::read_to_string(fixtures().join("two-domains-ratings.csv")).unwrap();
    let report = analyze(
        &[Input::new("two-domains-ratings.csv", csv)],
        &Context {
            study: Some((&study, &hash)),
            key: None,
            reveal_ids: false,
        },
        None,
        &OPTIONS,
    )
    .1;
    let scope = report.scope.as_ref().expect("the plan's scope");
    let sentence = scope_summary(scope).as_string();
    assert!(
        sentence
            .starts_with("The confirmatory analysis is on the 3 item(s) with domain claude-skills")
            && sentence.contains("(study-plans) are reported apart"),
        "{sentence}"
    );
    let all = tables(&report);
    let Some(Block::Paragraph(first)) = all[0].blocks.first() else {
        panic!("{:?}", all[0]);
    };
    assert!(
        first.as_string().ends_with(&format!(" {sentence}")),
        "{first:?}"
    );

    let page = secondary_tables(&report);
    assert_eq!(page.len(), 1);
    let heading = page[0][0].heading.as_string();
    assert_eq!(heading, "Secondary analysis: items with domain study-plans");
    let start = all
        .iter()
        .position(|s| s.heading.as_string() == heading)
        .expect("the Markdown's secondary section");
    assert_eq!(page[0].as_slice(), &all[start..start + page[0].len()]);
    // Everything up to the next section of the Markdown's top level.
    let next = &all[start + page[0].len()];
    assert!(next.level <= 2, "{:?}", next.heading);
    assert!(page[0][1..].iter().all(|s| s.level > 2));
}

/// A plan that names its key criteria (`adjudicate`) flags disagreements on those dimensions
/// only (a sanity-check dimension is not sent to the experts, nor set aside), and the methods
/// paragraph names them.
#[test]
fn only_the_plans_key_criteria_are_flagged() {
    let files = inputs(&WORK_INTAKE);
    let low = Options {
        flag_sd: 0.1,
        ..OPTIONS
    };
    let (_, every) = analyze(&files, &Context::default(), None, &low);
    let flagged: Vec<&str> = every
        .dimensions
        .iter()
        .filter(|d| !d.flags.is_empty())
        .map(|d| d.dimension.as_str())
        .collect();
    assert!(flagged.len() >= 2, "the fixture flags {flagged:?}");
    let key = flagged[0].to_owned();
    let planned = Options {
        plan: Some(juror_core::analysis::overrides::AnalysisPlan {
            adjudicate: vec![key.clone()],
            exclude_unadjudicated: true,
            ..Default::default()
        }),
        ..low
    };
    let (_, keyed) = analyze(&files, &Context::default(), None, &planned);
    for d in &keyed.dimensions {
        if d.dimension == key {
            assert!(!d.flags.is_empty() && d.set_aside == d.flags.len());
        } else {
            assert!(d.flags.is_empty() && d.set_aside == 0, "{}", d.dimension);
            let before = every.dimensions.iter().find(|b| b.dimension == d.dimension);
            assert_eq!(Some(&d.systems), before.map(|b| &b.systems));
        }
    }
    let methods = juror_core::analysis::render::methods::methods(&keyed);
    assert!(
        methods.contains(&format!("on the key criteria the plan names ({key})")),
        "{methods}"
    );
    let markdown = juror_core::analysis::render::markdown::render(&keyed);
    assert!(
        markdown.contains("set aside from the systems"),
        "{markdown}"
    );
}

/// The leaderboard follows the plan: ties as halves with both kinds of interval by default;
/// Davidson's model (its fit, ν and all) with the sandwich only; no leaderboard with the
/// bootstrap only; and with `sequential`, each pair's betting sequence of its win rate, from
/// the judgements in the order read.
#[test]
fn the_leaderboard_follows_the_plans_ties_and_intervals() {
    use juror_core::analysis::report::comparisons;
    use juror_core::stats::preference::Outcome;
    use juror_core::stats::preference::davidson::davidson;
    use juror_core::stats::preference::sandwich::SandwichOptions;
    use juror_core::stats::sequential::share_sequence;
    use juror_core::study::analysis_plan::{AnalysisPlan, BtIntervals, Ties};

    let files = inputs(&PANDALM);
    let with = |plan: AnalysisPlan| {
        let options = Options {
            plan: Some(plan),
            ..OPTIONS
        };
        analyze(&files, &Context::default(), None, &options).1
    };
    let default = with(AnalysisPlan::default());
    let p = default.preferences.as_ref().unwrap();
    let board = p.leaderboard.as_ref().expect("a leaderboard by default");
    assert_eq!(board.ties, Ties::Halves);
    assert!(board.tie_parameter.is_none());
    let bt = p.bradley_terry.as_ref().unwrap();
    assert!(bt.scores.values().all(|s| s.ci.is_some()), "bootstrap too");
    assert!(p.pairs.iter().all(|r| r.anytime_ci95.is_none()));

    let report = with(AnalysisPlan {
        bt_intervals: BtIntervals::Sandwich,
        ties: Ties::Davidson,
        sequential: Some(30),
        ..AnalysisPlan::default()
    });
    let p = report.preferences.as_ref().unwrap();
    let rows = read(&files, &Context::default()).preferences;
    let judged = comparisons(&rows);
    assert!(
        judged.iter().any(|c| c.outcome == Outcome::Tie),
        "PandaLM has ties"
    );
    let fit = davidson(&p.systems, &judged, None, &SandwichOptions::default()).unwrap();
    let board = p.leaderboard.as_ref().unwrap();
    assert_eq!(board.ties, Ties::Davidson);
    assert!(board.note.is_none());
    let tie = board.tie_parameter.as_ref().unwrap();
    assert_eq!(tie.nu, fit.ties.nu);
    assert_eq!(
        (tie.ci95.low, tie.ci95.high),
        (fit.ties.lower, fit.ties.upper)
    );
    assert_eq!(tie.tie_probability, fit.ties.nu / (2.0 + fit.ties.nu));
    for row in &board.systems {
        let want = fit.rating(&row.system).unwrap();
        assert_eq!(row.rating, want.rating, "{}", row.system);
        assert_eq!(row.ci95.low, want.lower);
        assert_eq!(row.rank_interval, [want.rank_lower, want.rank_upper]);
    }
    let bt = p.bradley_terry.as_ref().unwrap();
    assert!(bt.scores.values().all(|s| s.ci.is_none()), "no bootstrap");
    for pair in &p.pairs {
        let wins: Vec<f64> = judged
            .iter()
            .filter_map(|c| {
                let forward = c.a == pair.system_a && c.b == pair.system_b;
                let backward = c.a == pair.system_b && c.b == pair.system_a;
                match c.outcome {
                    _ if !(forward || backward) => None,
                    Outcome::Tie => None,
                    Outcome::A => Some(if forward { 1.0 } else { 0.0 }),
                    Outcome::B => Some(if forward { 0.0 } else { 1.0 }),
                }
            })
            .collect();
        let want = share_sequence(&wins, 0.05).unwrap();
        let got = pair.anytime_ci95.expect("a sequence per pair");
        assert_eq!((got.low, got.high), (want.low, want.high));
        let rate = pair.win_rate.unwrap();
        assert!(got.low <= rate && rate <= got.high);
    }
    let md = markdown::render(&report);
    assert!(md.contains("Davidson's extension of Bradley–Terry"), "{md}");
    assert!(md.contains("Tie parameter ν = "));
    assert!(md.contains("anytime-valid 95% confidence sequence of the win rate of A"));
    assert!(md.contains("hedged-capital betting sequence of Waudby-Smith and Ramdas"));

    let report = with(AnalysisPlan {
        bt_intervals: BtIntervals::Bootstrap,
        ..AnalysisPlan::default()
    });
    assert!(report.preferences.unwrap().leaderboard.is_none());
}
