//! Error spans in the analysis: the report's `spans` section (MQM per system, errors by severity
//! and category, character-level F1 and alpha) against `tests/reference/spans/reference.json`
//! (numpy, scipy and krippendorff, written by `make_reference.py` beside it from `spans.csv`);
//! tolerance 1e-9 (`tol::CLOSED_FORM`), counts exactly. And the rows: from a ratings file of
//! the ESA example ("no errors" is a row, an output not answered is none), through `--format
//! csv` and back, and the study's checks of a table.

use juror_core::analysis::plan_reader::parse_study;
use juror_core::analysis::report::Report;
use juror_core::analysis::{Context, Data, Input, InputKind, Options, analyze, to_csv};
use juror_core::plan::Annotator;
use juror_core::session::answers::ErrorSpan;
use juror_core::session::ratings::export;
use juror_core::session::{Msg, Phase, Reply, Session, Target, update};
use juror_core::study::{Severity, Study};

use crate::support::{check, close, example, f, read as read_file, reference, tol, u};

const TOL: f64 = tol::CLOSED_FORM;

fn fixture_csv() -> String {
    read_file(
        &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/reference/spans/spans.csv"),
    )
}

fn report_of(inputs: &[Input<'_>], context: &Context) -> (Data, Report) {
    analyze(inputs, context, None, &Options::default())
}

#[test]
fn the_spans_section_matches_the_reference_script() {
    let want = reference("spans");
    let (data, report) = report_of(
        &[Input::new("spans.csv", fixture_csv())],
        &Context::default(),
    );
    assert!(report.problems.is_empty(), "{:?}", report.problems);
    assert_eq!(data.files[0].kind, InputKind::SpansCsv);
    assert_eq!(data.spans.len() as u64, u(&want, "rows"));
    let spans = report.spans.as_ref().expect("a spans section");
    assert_eq!(spans.outputs as u64, u(&want, "outputs"));
    assert_eq!(spans.annotations as u64, u(&want, "annotations"));
    assert_eq!(
        (
            spans.weights.minor,
            spans.weights.major,
            spans.weights.critical
        ),
        (1.0, 5.0, 25.0)
    );
    // MQM: per system the mean over items of the annotators' mean, with its t interval.
    let mqm = &want["mqm"];
    assert_eq!(spans.systems.len(), mqm.as_object().unwrap().len());
    for s in &spans.systems {
        let w = &mqm[&s.system];
        let got = s.mqm.expect("an MQM summary");
        check(&format!("mqm {}", s.system), got.mean, f(w, "mean"), TOL);
        assert_eq!(got.n as u64, u(w, "n"));
        let ci = got.ci95.expect("an interval");
        check("ci low", ci.low, w["ci95"][0].as_f64().unwrap(), TOL);
        check("ci high", ci.high, w["ci95"][1].as_f64().unwrap(), TOL);
        // Counts by severity and category, and per annotated output.
        let c = &want["systems"][&s.system];
        assert_eq!(s.annotations as u64, u(c, "annotations"), "{}", s.system);
        assert_eq!(s.errors as u64, u(c, "errors"));
        assert_eq!(s.whole_output as u64, u(c, "whole_output"));
        assert_eq!(s.no_errors as u64, u(c, "no_errors"));
        for (list, key) in [(&s.severities, "severities"), (&s.categories, "categories")] {
            assert_eq!(list.len(), c[key].as_object().unwrap().len(), "{key}");
            for k in list {
                let pair = &c[key][&k.name];
                assert_eq!(k.count as u64, pair[0].as_u64().unwrap(), "{}", k.name);
                check(&k.name, k.per_output, pair[1].as_f64().unwrap(), TOL);
            }
        }
    }
    // The derived dimension: compared as the plan says, lower is better.
    let dim = report
        .dimensions
        .iter()
        .find(|d| d.dimension == "mqm")
        .expect("the mqm dimension");
    assert!(dim.title().contains("lower is better"));
    assert!(dim.flags.is_empty());
    assert_eq!(dim.comparisons.len(), 3, "every pair of three systems");
    for s in &dim.systems {
        let items = want["mqm"][&s.system]["item_means"].as_object().unwrap();
        assert_eq!(s.n, items.len());
    }
    // Agreement.
    let f1 = &want["f1"];
    close("f1", spans.f1.value, f1["value"].as_f64(), TOL);
    assert_eq!(spans.f1.pairs as u64, u(f1, "pairs"));
    assert_eq!(spans.f1.outputs as u64, u(f1, "outputs"));
    let per_output = f1["per_output"].as_object().unwrap();
    assert_eq!(spans.outputs_by_f1.len(), per_output.len());
    for o in &spans.outputs_by_f1 {
        let w = &per_output[&format!("{}/{}", o.item, o.system)];
        close(
            "output f1",
            o.f1,
            w.as_array().map(|p| p[0].as_f64().unwrap()),
            TOL,
        );
    }
    let lowest: Vec<f64> = spans.outputs_by_f1.iter().filter_map(|o| o.f1).collect();
    assert!(lowest.windows(2).all(|w| w[0] <= w[1]), "lowest first");
    let md = juror_core::analysis::markdown::render(&report);
    assert!(md.contains("## Error spans"), "{md}");
    assert!(md.contains("| System | Items | MQM | 95% CI |"), "{md}");
    assert!(md.contains(&format!(
        "character-level F1 {:.3} over {} pair(s)",
        spans.f1.value.unwrap(),
        spans.f1.pairs
    )));
    assert!(md.contains("## MQM score \\(weighted errors; lower is better\\) (mqm)"));
    assert!(juror_core::analysis::markdown::methods(&report).contains("2|A ∩ B| / (|A| + |B|)"));
    let alpha = &want["alpha"];
    close("alpha", spans.alpha.value, alpha["value"].as_f64(), TOL);
    assert_eq!(spans.alpha.characters as u64, u(alpha, "characters"));
    assert_eq!(spans.alpha.outputs as u64, u(alpha, "outputs"));
}

#[test]
fn the_tidy_csv_reads_back_into_the_same_analysis_alone_and_beside_ratings() {
    let esa = "item_id,system_id,annotator_id,dimension,score\n\
               i1,A,a1,esa,70\ni1,B,a1,esa,40\ni2,A,a1,esa,90\ni2,B,a1,esa,20\n";
    let inputs = [
        Input::new("spans.csv", fixture_csv()),
        Input::new("esa.csv", esa),
    ];
    let (data, one) = report_of(&inputs, &Context::default());
    assert!(one.problems.is_empty(), "{:?}", one.problems);
    let csv = to_csv(&data);
    assert!(
        csv.starts_with(
            "item_id,system_id,annotator_id,dimension,score,start,end,severity,category,length,"
        ),
        "{}",
        csv.lines().next().unwrap()
    );
    let (back, two) = report_of(&[Input::new("tidy.csv", csv)], &Context::default());
    assert!(two.problems.is_empty(), "{:?}", two.problems);
    assert_eq!(back.files[0].kind, InputKind::TidyCsv);
    assert_eq!(back.spans.len(), data.spans.len());
    assert_eq!(one.spans, two.spans);
    assert_eq!(one.dimensions, two.dimensions);
    // The spans alone: the span columns only.
    let alone = Data {
        spans: data.spans.clone(),
        ..Data::default()
    };
    let csv = to_csv(&alone);
    assert!(csv.starts_with(
        "item_id,system_id,annotator_id,start,end,severity,category,length,source_file"
    ));
    let (_, three) = report_of(&[Input::new("spans.csv", csv)], &Context::default());
    assert_eq!(one.spans, three.spans);
}

#[test]
fn a_bad_span_row_is_placed_and_the_others_are_read() {
    let text = "item_id,system_id,annotator_id,start,end,severity,category,length\n\
                i1,A,a1,3,9,minor,,20\n\
                i1,A,a2,9,3,minor,,20\n\
                i1,A,a3,3,30,major,,20\n\
                i1,A,a4,3,,major,,20\n\
                i1,A,a5,,,,Style,20\n\
                i1,A,a6,1,2,awful,,20\n\
                i1,A,a7,1,2,minor,,\n\
                i1,A,a8,,,,,20\n";
    let (data, report) = report_of(&[Input::new("s.csv", text)], &Context::default());
    let placed: Vec<String> = report.problems.iter().map(ToString::to_string).collect();
    assert_eq!(placed.len(), 6, "{placed:#?}");
    for (line, words) in [
        (3, "start 9 is not before end 3"),
        (4, "end 30 is past the output's length 20"),
        (5, "start and end go together"),
        (6, "severity is empty"),
        (7, "severity \"awful\" is not minor, major or critical"),
        (8, "length is empty"),
    ] {
        let want = format!("s.csv: line {line}: {words}");
        assert!(
            placed.iter().any(|p| p.starts_with(&want)),
            "{want}\n{placed:#?}"
        );
    }
    assert_eq!(data.spans.len(), 2);
    // The same marks again in another file are duplicates, left out with one problem.
    let again = "item_id,system_id,annotator_id,start,end,severity,category,length\n\
                 i1,A,a1,0,2,major,,20\ni1,A,a1,4,6,major,,20\n";
    let (data, report) = report_of(
        &[Input::new("s.csv", text), Input::new("t.csv", again)],
        &Context::default(),
    );
    assert_eq!(data.spans.len(), 2);
    let dup: Vec<_> = report
        .problems
        .iter()
        .filter(|p| p.file == "t.csv")
        .collect();
    assert_eq!(dup.len(), 1, "{dup:?}");
    assert!(dup[0].message.contains("already marked the errors"));
}

/// The ESA example, its hash, and a session in its trials.
fn esa_session() -> (Study, String, Session) {
    let text = example("summeval-esa");
    let study = parse_study(&text).unwrap();
    let hash = juror_core::base::digest::sha256_hex(&text);
    let mut s = Session::new(&study, Annotator::slot(1));
    let mut now = 1.0;
    while s.progress.phase != Phase::Trials {
        now += 1.0;
        let msg = match s.progress.phase {
            Phase::Welcome => Msg::Start,
            Phase::Consent => Msg::Consent(true),
            Phase::Instructions => Msg::FinishInstructions,
            other => panic!("the ESA example has no {other:?} to pass"),
        };
        update(&study, &mut s, msg, now);
    }
    (study, hash, s)
}

fn rate_and_next(study: &Study, s: &mut Session, score: i32, now: f64) {
    let msg = Msg::answer(
        Target::Rating {
            position: 0,
            dimension: "esa".into(),
        },
        Reply::Score(score),
    );
    update(study, s, msg, now);
    update(study, s, Msg::Next, now + 0.5);
}

#[test]
fn a_ratings_file_gives_a_row_per_error_one_for_no_errors_and_none_for_what_was_not_answered() {
    let (study, hash, mut s) = esa_session();
    let span = |start, end, severity| ErrorSpan {
        start,
        end,
        severity,
        category: None,
    };
    // Trial 1: two spans and an error of the whole output.
    for e in [
        span(Some(0), Some(3), Severity::Minor),
        span(Some(5), Some(9), Severity::Major),
        span(None, None, Severity::Major),
    ] {
        update(
            &study,
            &mut s,
            Msg::MarkSpan {
                position: 0,
                span: e,
            },
            2.0,
        );
    }
    rate_and_next(&study, &mut s, 40, 3.0);
    // Trial 2: no errors.
    update(
        &study,
        &mut s,
        Msg::answer(Target::Spans { position: 0 }, Reply::Ticked),
        4.0,
    );
    rate_and_next(&study, &mut s, 95, 5.0);
    assert_eq!(s.progress.current, 2);
    // Trial 3: a span marked but the trial not finished: not read.
    update(
        &study,
        &mut s,
        Msg::MarkSpan {
            position: 0,
            span: span(Some(0), Some(1), Severity::Minor),
        },
        6.0,
    );
    let file = export(&study, &hash, &s, "test", 7.0).to_json();
    let context = Context {
        study: Some((&study, &hash)),
        ..Context::default()
    };
    let (data, report) = report_of(&[Input::new("juror-esa.json", file)], &context);
    assert!(report.problems.is_empty(), "{:?}", report.problems);
    assert_eq!(data.spans.len(), 4);
    assert_eq!(data.files[0].spans, 4);
    let none: Vec<_> = data.spans.iter().filter(|r| r.severity.is_none()).collect();
    assert_eq!(none.len(), 1, "one row for no errors");
    assert!(none[0].source.at.to_string().ends_with(".no_errors"));
    let spans = report.spans.as_ref().unwrap();
    assert_eq!(spans.annotations, 2, "the unfinished trial is not seen");
    let mqm: Vec<f64> = spans
        .systems
        .iter()
        .filter_map(|s| s.mqm)
        .map(|m| m.mean)
        .collect();
    let mut sorted = mqm.clone();
    sorted.sort_by(f64::total_cmp);
    assert_eq!(sorted, vec![0.0, 11.0], "1 + 5 + 5, and no errors");
    // The ESA score is an ordinary dimension on its 0 to 100 scale.
    let esa = report
        .dimensions
        .iter()
        .find(|d| d.dimension == "esa")
        .expect("the esa dimension");
    assert_eq!(esa.scale.as_ref().map(Vec::len), Some(101));
    let mut means: Vec<f64> = esa.systems.iter().map(|s| s.mean).collect();
    means.sort_by(f64::total_cmp);
    assert_eq!(means, vec![40.0, 95.0]);
    assert!(juror_core::analysis::markdown::render(&report).contains("## Error spans"));
    // The study's checks apply to a table: a length that is not the output's is refused.
    let row = &data.spans[0];
    let table = format!(
        "item_id,system_id,annotator_id,start,end,severity,category,length\n\
         {},{},p9,0,2,critical,,{}\n{},{},p9,,,,,{}\n",
        row.item,
        row.system,
        row.length,
        row.item,
        row.system,
        row.length + 1
    );
    let (_, report) = report_of(&[Input::new("t.csv", table)], &context);
    let messages: Vec<String> = report.problems.iter().map(ToString::to_string).collect();
    assert_eq!(messages.len(), 2, "{messages:#?}");
    assert!(messages[0].contains("severity \"critical\" is not one the study offers"));
    assert!(messages[1].contains("but the study's output"));
}

#[test]
fn the_plan_sets_the_mqm_weights_and_may_test_the_mqm_dimension() {
    let mut raw: serde_json::Value = serde_json::from_str(&example("summeval-esa")).unwrap();
    raw["analysis"] = serde_json::json!({
        "mqm_weights": {"minor": 0.5, "critical": -1},
        "hypotheses": [{"dimension": "nope", "a": "M8", "b": "M22"}]
    });
    let problems = match parse_study(&raw.to_string()) {
        Ok(_) => panic!("negative weight accepted"),
        Err(p) => p.to_string(),
    };
    assert!(
        problems.contains("analysis.mqm_weights.critical") && problems.contains("-1"),
        "{problems}"
    );
    assert!(
        problems.contains("analysis.hypotheses[0].dimension"),
        "{problems}"
    );
    assert!(!problems.contains("mqm_weights.minor"), "{problems}");
    raw["analysis"] = serde_json::json!({
        "mqm_weights": {"major": 10},
        "hypotheses": [{"dimension": "mqm", "a": "M8", "b": "M22", "alternative": "less"}]
    });
    let text = raw.to_string();
    let study = parse_study(&text).unwrap();
    let hash = juror_core::base::digest::sha256_hex(&text);
    let (item, a, b) = {
        let i = &study.items()[0];
        (i.id.clone(), "M8", "M22")
    };
    let length = |s: &str| study.items()[0].outputs[s].plain().chars().count();
    let table = format!(
        "item_id,system_id,annotator_id,start,end,severity,category,length\n\
         {item},{a},p1,0,2,major,,{}\n{item},{a},p1,,,minor,,{}\n{item},{b},p1,,,,,{}\n",
        length(a),
        length(a),
        length(b)
    );
    let context = Context {
        study: Some((&study, &hash)),
        ..Context::default()
    };
    let (_, report) = report_of(&[Input::new("t.csv", table)], &context);
    assert!(report.problems.is_empty(), "{:?}", report.problems);
    let spans = report.spans.unwrap();
    assert_eq!(spans.weights.major, 10.0);
    assert_eq!(spans.weights.minor, 1.0, "the default where none is given");
    let m8 = spans.systems.iter().find(|s| s.system == a).unwrap();
    assert_eq!(m8.mqm.unwrap().mean, 11.0);
    let mqm = report
        .dimensions
        .iter()
        .find(|d| d.dimension == "mqm")
        .unwrap();
    let c = mqm
        .comparisons
        .iter()
        .find(|c| c.system_a == a && c.system_b == b)
        .expect("the hypothesis orients the pair");
    assert_eq!(format!("{:?}", c.alternative), "Less");
}

/// UX walkthrough 2026-12-01, finding 17: on a 0–100 scale the flag's SD is scaled to the
/// range (1.5 on 1–5 is 37.5 on 0–100), so two annotators 3 or 20 points apart are not sent to
/// adjudication and two 60 points apart are; the report says the threshold it used.
#[test]
fn a_wide_scale_flags_disagreements_scaled_to_its_range() {
    let text = example("summeval-esa");
    let study = parse_study(&text).unwrap();
    let hash = juror_core::base::digest::sha256_hex(&text);
    let item = |i: usize| study.items()[i].id.clone();
    let (a, b) = ("M8", "M22");
    let table = format!(
        "item_id,system_id,annotator_id,dimension,score\n\
         {i0},{a},p1,esa,50\n{i0},{a},p2,esa,53\n\
         {i0},{b},p1,esa,40\n{i0},{b},p2,esa,60\n\
         {i1},{a},p1,esa,20\n{i1},{a},p2,esa,80\n\
         {i1},{b},p1,esa,70\n{i1},{b},p2,esa,72\n",
        i0 = item(0),
        i1 = item(1),
    );
    let context = Context {
        study: Some((&study, &hash)),
        ..Context::default()
    };
    let (_, report) = report_of(&[Input::new("t.csv", table)], &context);
    assert!(report.problems.is_empty(), "{:?}", report.problems);
    let esa = report
        .dimensions
        .iter()
        .find(|d| d.dimension == "esa")
        .unwrap();
    assert_eq!(esa.flag_above, 37.5);
    let flagged: Vec<(&str, &str)> = esa
        .flags
        .iter()
        .map(|f| (f.item.as_str(), f.system.as_str()))
        .collect();
    assert_eq!(flagged, vec![(item(1).as_str(), a)]);
    let markdown = juror_core::analysis::render::markdown::render(&report);
    assert!(
        markdown.contains(
            "sample SD above 37.5 (1.5 on a 1–5 scale, times this scale's range of 100 over 4)"
        ),
        "{markdown}"
    );
    assert!(markdown.contains("1.5 on a 1–5 scale (on a scale of another range"));
}
