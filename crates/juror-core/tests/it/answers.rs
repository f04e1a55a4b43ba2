//! Every answer that is not a rating or a preference reaches the answers table exactly once and
//! is summarised (`analysis::answers`): the HARE study's whole sessions (intake, "useful" per output,
//! reasons, notes, the exit ranking of systems by their letters), and the paired tests and flag
//! shares on small hand-made tables. The tests themselves are checked against scipy and
//! statsmodels in `tests/it/nominal.rs`.

use juror_core::analysis::answers::{AnswerRow, Phase, report, to_csv};
use juror_core::analysis::{Context, Input, Source, read};
use juror_core::session::answers::Answer;
use juror_core::session::ratings::parse;
use juror_core::stats::nominal::{cochrans_q, mcnemar_exact};
use juror_core::study::parse_study;

use crate::support::{self, root};

fn text(relative: &str) -> String {
    support::read(&root().join(relative))
}

const FILES: [&str; 3] = ["hare-slot1.json", "hare-slot2.json", "hare-slot3.json"];

fn fixture(name: &str) -> String {
    support::fixture(&format!("analysis/{name}"))
}

/// Counts the answers a ratings file holds, one per option chosen and per place ranked.
fn answers_in_file(text: &str) -> usize {
    let file = parse(text).unwrap();
    let count = |a: &Answer| match a {
        Answer::Choices(c) | Answer::Rank(c) => c.len(),
        _ => 1,
    };
    let surveys: usize = file
        .intake
        .values()
        .chain(file.exit.values())
        .map(count)
        .sum();
    let trials: usize = file
        .trials
        .iter()
        .filter(|t| t.done && !t.check)
        .map(|t| {
            let outputs: usize = t
                .outputs
                .iter()
                .map(|o| o.answers.values().map(count).sum::<usize>() + 1) // + the flag
                .sum();
            let texts = [&t.notes, &t.explanation]
                .iter()
                .filter(|s| !s.trim().is_empty())
                .count();
            outputs + texts
        })
        .sum();
    surveys + trials
}

#[test]
fn every_answer_of_the_hare_sessions_is_in_the_table_once() {
    let study_text = text("assets/studies/hare-personalization.json");
    let study = parse_study(&study_text).unwrap();
    let hash = juror_core::base::digest::sha256_hex(&study_text);
    let inputs: Vec<Input> = FILES.iter().map(|f| Input::new(*f, fixture(f))).collect();
    let data = read(
        &inputs,
        &Context {
            study: Some((&study, &hash)),
            key: None,
            reveal_ids: false,
        },
    );
    assert!(data.problems.is_empty(), "{:?}", data.problems);
    let expected: usize = FILES.iter().map(|f| answers_in_file(&fixture(f))).sum();
    assert_eq!(data.answers.len(), expected);
    // Every row has its place in its file, and no place is used twice (but a multiple choice
    // or a ranking, one row per option or place).
    let mut places: Vec<(String, String, String, Option<usize>)> = data
        .answers
        .iter()
        .map(|r| {
            (
                r.source.file.to_string(),
                r.source.at.to_string(),
                r.value.clone(),
                r.rank,
            )
        })
        .collect();
    places.sort();
    let n = places.len();
    places.dedup();
    assert_eq!(places.len(), n, "an answer appears twice");
    let csv = to_csv(&data.answers);
    assert_eq!(
        csv.lines().count(),
        expected + 1,
        "a header and one line per answer"
    );
    assert!(csv.starts_with(
        "annotator_id,phase,question_id,item_id,system_id,value,rank,source_file,source_at\n"
    ));

    let r = report(&data.answers, &data.ratings, Some(&study)).unwrap();
    // "Useful" per system, and Cochran's Q on the (annotator, item) cells.
    let useful = &r.output_questions[0];
    assert_eq!(
        (useful.question.as_str(), useful.kind),
        ("useful", "choice")
    );
    let hare = useful
        .options
        .iter()
        .find(|o| o.system.as_deref() == Some("hare") && o.option == "Useful")
        .unwrap();
    assert_eq!((hare.count, hare.of), (30, 30));
    let test = useful.paired_test.as_ref().unwrap();
    assert_eq!((test.test, test.blocks), ("cochran_q", 30));
    let systems = ["gpt2", "hare", "rag", "random"];
    let table: Vec<Vec<bool>> = {
        let mut cells: std::collections::BTreeMap<(String, String), Vec<(String, bool)>> =
            Default::default();
        for a in data.answers.iter().filter(|a| a.question == "useful") {
            cells
                .entry((a.annotator.clone(), a.item.clone().unwrap()))
                .or_default()
                .push((a.system.clone().unwrap(), a.value == "Useful"));
        }
        cells
            .values()
            .map(|c| {
                systems
                    .iter()
                    .map(|s| c.iter().any(|(x, v)| x == s && *v))
                    .collect()
            })
            .collect()
    };
    let q = cochrans_q(&table).unwrap();
    assert_eq!(test.statistic, Some(q.statistic));
    assert_eq!(test.p_value, Some(q.p_value));

    // The exit ranking of the systems, turned back from each annotator's letters.
    let ranking = r
        .exit
        .iter()
        .find(|q| q.question == "system_ranking")
        .and_then(|q| q.ranking.clone())
        .unwrap();
    let order: Vec<(&str, f64)> = ranking
        .systems
        .iter()
        .map(|s| (s.system.as_str(), s.mean_rank))
        .collect();
    assert_eq!(
        order,
        [("gpt2", 2.0), ("hare", 1.0), ("rag", 3.0), ("random", 4.0)]
    );
    assert_eq!(ranking.friedman.map(|f| f.kendall_w), Some(1.0));
    // The intake: three annotators, numbers summarised, the texts counted.
    let years = r
        .intake
        .iter()
        .find(|q| q.question == "experience_years")
        .unwrap();
    assert_eq!(years.numbers[0].mean, 6.0);
    assert_eq!(r.notes, 3, "one note per annotator");
    assert_eq!(
        r.explanations, 27,
        "a reason for each of the nine choices, three annotators"
    );
    let md = r.to_markdown();
    assert!(md.contains("## Exit survey"), "{md}");
}

fn row(annotator: &str, item: &str, system: &str, question: &str, value: &str) -> AnswerRow {
    AnswerRow {
        source: Source {
            file: "f.json".into(),
            at: format!("{annotator}/{item}/{system}").into(),
            input: 0,
        },
        annotator: annotator.into(),
        phase: Phase::Output,
        question: question.into(),
        item: Some(item.into()),
        system: Some(system.into()),
        value: value.into(),
        rank: None,
    }
}

/// Two systems: the exact McNemar test on the discordant cells; flags as shares of the shown.
#[test]
fn two_systems_get_mcnemar_and_flags_their_shares() {
    let mut rows = Vec::new();
    // b = 5 cells where a is "yes" and b "no", c = 1 the other way, 2 concordant.
    let cells = [
        (true, false),
        (true, false),
        (true, false),
        (true, false),
        (true, false),
        (false, true),
        (true, true),
        (false, false),
    ];
    for (i, (a, b)) in cells.iter().enumerate() {
        let item = format!("i{i}");
        rows.push(row("p1", &item, "a", "ok", if *a { "yes" } else { "no" }));
        rows.push(row("p1", &item, "b", "ok", if *b { "yes" } else { "no" }));
        rows.push(row("p1", &item, "a", "flag", if i < 2 { "1" } else { "0" }));
        rows.push(row("p1", &item, "b", "flag", "0"));
    }
    let r = report(&rows, &[], None).unwrap();
    let test = r.output_questions[0].paired_test.as_ref().unwrap();
    assert_eq!(test.test, "mcnemar");
    assert_eq!(test.option, "yes", "the first option seen");
    assert_eq!(test.p_value, mcnemar_exact(5, 1).ok());
    let a = &r.flags[0];
    assert_eq!((a.system.as_str(), a.count, a.of), ("a", 2, 8));
    assert_eq!(r.flags[1].count, 0);
}

/// work-intake's rule: a flagged output ("an error message") must have a 1 on every dimension;
/// any other rating of it is listed, with who gave it.
#[test]
fn ratings_that_break_a_flags_rule_are_listed() {
    use juror_core::analysis::RatingRow;
    let study = parse_study(&text("assets/studies/work-intake.json")).unwrap();
    let task = &study.design().tasks[0];
    assert_eq!(task.flag_implies, Some(1));
    let item = study.items()[task.items[0]].id.clone();
    let system = study.systems()[0].clone();
    let mut flag = row("p1", &item, &system, "flag", "1");
    flag.phase = Phase::Output;
    let rating = |dimension: &str, score: f64| RatingRow {
        source: flag.source.clone(),
        item: item.as_str().into(),
        system: system.as_str().into(),
        annotator: "p1".into(),
        dimension: dimension.into(),
        score,
        round: None,
        position: None,
        run: None,
        confidence: None,
    };
    let ratings: Vec<RatingRow> = task
        .dimensions
        .iter()
        .enumerate()
        .map(|(i, d)| rating(d, if i == 0 { 3.0 } else { 1.0 }))
        .collect();
    let r = report(&[flag.clone()], &ratings, Some(&study)).unwrap();
    assert_eq!(r.flag_rule_violations.len(), 1);
    let v = &r.flag_rule_violations[0];
    assert_eq!(
        (
            v.annotator.as_str(),
            v.dimension.as_str(),
            v.score,
            v.required
        ),
        ("p1", task.dimensions[0].as_str(), 3.0, 1)
    );
    assert!(r.to_markdown().contains("break the flag's rule"));
    // Unflagged: no rule applies.
    flag.value = "0".into();
    let r = report(&[flag], &ratings, Some(&study));
    assert!(r.is_none_or(|r| r.flag_rule_violations.is_empty()));
}
