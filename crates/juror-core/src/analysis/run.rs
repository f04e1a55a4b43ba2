//! The one entry point of an analysis, shared by `juror analyze` and the Analyse page: the files
//! as the caller read them (a name, and a text or why it could not be read), the options and
//! the plan overrides in; the report, the tidy data and the dimensions' scale labels out, or
//! the reasons nothing can be analysed.
//!
//! What blocks an analysis (nothing is computed): the study, the key or the adjudication file
//! cannot be read or used, an option is out of range, an override names an unknown system or
//! dimension, or ratings files of a published study come without its key
//! ([`published::needs_key`](super::read::published::needs_key): one sentence, before any
//! input is read). An input file that cannot be read does not block: it becomes a problem placed
//! before the report's own, and the report covers the rest.

use std::collections::BTreeMap;

use super::overrides::{AnalysisPlan, Overrides};
use super::plan_reader::open;
use super::read::{base_name, published, read, read_judges};
use super::report::resolve_plan;
use super::slot::{Slot, misplaced};
use super::{Context, Data, Input, Options, Problem, Report, report_of};
use crate::publish::{KEY_FORMAT_V1, SealKey};
use crate::study::Study;

/// A file as the caller read it: its name (a path, or a file name in the browser) and its text,
/// or why it could not be read.
#[derive(Debug, Clone, PartialEq)]
pub struct FileText {
    pub name: String,
    pub text: Result<String, String>,
}

impl FileText {
    /// A file that was read.
    pub fn new(name: impl Into<String>, text: impl Into<String>) -> FileText {
        FileText {
            name: name.into(),
            text: Ok(text.into()),
        }
    }
}

/// Everything an analysis is computed from.
#[derive(Debug, Clone, Default)]
pub struct Request {
    /// Ratings files and tidy CSVs, in order.
    pub inputs: Vec<FileText>,
    /// Automatic judges' verdicts (tidy CSVs, ratings files, JSON Lines), read apart from
    /// `inputs` and never mixed into the human statistics.
    pub judges: Vec<FileText>,
    pub study: Option<FileText>,
    pub key: Option<FileText>,
    pub adjudication: Option<FileText>,
    /// Ratings files of an earlier phase (another study) whose intake answers are joined to
    /// these annotators by id ([`join_intake`]), e.g. for `by_intake`.
    pub intake: Vec<FileText>,
    /// The options; [`Options::default`] is what `juror analyze` uses without flags.
    pub options: Options,
    /// Changes to the plan asked for at analysis time (exploratory).
    pub overrides: Overrides,
    /// A clock (seconds from any start) to time the phases with: `juror analyze --timings`
    /// gives one; the browser, which has no clock in the core, leaves it out.
    pub clock: Option<fn() -> f64>,
}

/// A computed analysis.
#[derive(Debug, Clone)]
pub struct Analysis {
    pub report: Report,
    /// The merged tidy data.
    pub data: Data,
    /// The automatic judges' verdicts, read apart from `data` ([`Request::judges`]): never in
    /// the human statistics.
    pub judges: Data,
    /// Each dimension's labelled scale points (value, label), when a study was given.
    pub labels: BTreeMap<String, Vec<(f64, String)>>,
    /// The study, checked, when one was given.
    pub study: Option<Study>,
    /// The key, when one was given: a published study's outputs are under tokens.
    pub key: Option<SealKey>,
    /// The names the readable inputs were given under (paths, or file names in the browser),
    /// in the order of the report's `inputs`.
    pub given: Vec<String>,
    /// With [`Request::clock`], the seconds each phase took: checking the study and options and
    /// reading the inputs into tidy rows (`read`), then the report (`statistics`).
    pub timings: Vec<(&'static str, f64)>,
}

/// Why nothing was analysed: one sentence per reason, each naming the file or the option.
pub type Blocked = Vec<String>;

/// Runs the analysis; see the module's documentation for what blocks it.
pub fn run(request: &Request) -> Result<Analysis, Blocked> {
    let mut watch = Stopwatch::start(request.clock);
    let mut blocked = check_options(&request.options);
    let study = request.study.as_ref().and_then(|file| {
        let text = readable(file, &mut blocked)?;
        if let Some(why) = misplaced(Slot::Study, text) {
            blocked.push(format!("{}: {why}", file.name));
            return None;
        }
        match open(text) {
            Ok(opened) => Some((opened.study, opened.sha256)),
            Err(problems) => {
                blocked.extend(problems.iter().map(|p| format!("{}: {p}", file.name)));
                blocked.push(format!(
                    "{}: {} problem(s); the study is not valid (juror validate lists them too)",
                    file.name,
                    problems.found()
                ));
                None
            }
        }
    });
    let key = request.key.as_ref().and_then(|file| {
        let text = readable(file, &mut blocked)?;
        if let Some(why) = misplaced(Slot::Key, text) {
            blocked.push(format!("{}: {why}", file.name));
            return None;
        }
        parse_key(&file.name, text)
            .map_err(|reason| blocked.push(reason))
            .ok()
    });
    let adjudication = request.adjudication.as_ref().and_then(|file| {
        let text = readable(file, &mut blocked)?;
        Some(Input::new(base_name(&file.name), text))
    });
    let study_ref = study.as_ref().map(|(s, _)| s);
    let mut options = request.options.clone();
    if blocked.is_empty() && !request.overrides.is_empty() {
        let earlier_intake = !request.intake.is_empty();
        match overridden_plan(
            &request.overrides,
            &options,
            study_ref,
            key.as_ref(),
            earlier_intake,
        ) {
            Ok(plan) => options.plan = Some(plan),
            Err(problems) => blocked.extend(problems),
        }
    }
    if !blocked.is_empty() {
        return Err(blocked);
    }

    let mut unreadable = Vec::new();
    let inputs = readable_inputs(&request.inputs, &mut unreadable);
    let given: Vec<String> = inputs.iter().map(|i| i.name.to_string()).collect();
    let mut judges_unreadable = Vec::new();
    let judge_inputs = readable_inputs(&request.judges, &mut judges_unreadable);
    let context = Context {
        study: study.as_ref().map(|(s, h)| (s, h.as_str())),
        key: key.as_ref(),
        reveal_ids: options.reveal_ids,
    };
    if let Some(refusal) = published::needs_key(&inputs, &context)
        .or_else(|| published::needs_key(&judge_inputs, &context))
    {
        return Err(vec![refusal]);
    }
    let mut data = read(&inputs, &context);
    if !request.intake.is_empty() {
        let intake_inputs = readable_inputs(&request.intake, &mut unreadable);
        // The earlier phase's files belong to another study: read without this one's check or
        // key (only their intake answers are used, which name no system).
        let earlier = read(
            &intake_inputs,
            &Context {
                study: None,
                key: None,
                ..context
            },
        );
        join_intake(&mut data, earlier);
    }
    let judges = read_judges(&judge_inputs, &context);
    watch.lap("read");
    let mut report = report_of(&data, &context, adjudication.as_ref(), &options);
    if !request.judges.is_empty() {
        // The flags' settings, else the plan's (the plan the report used), else the defaults.
        let settings = options.judges.or(report.settings.plan.judges.as_ref());
        let judge_options = super::judges::JudgeOptions::from_settings(settings);
        report.judges = super::judges::report(&data, &judges, study_ref, &judge_options);
        report.problems.extend(judges_unreadable);
        report.problems.extend(judges.problems.iter().cloned());
        report
            .problems
            .extend(judges_named_as_humans(&data, &judges));
    }
    watch.lap("statistics");
    report.problems.splice(0..0, unreadable);
    let labels = study_ref.map(|s| labels(s, &report)).unwrap_or_default();
    Ok(Analysis {
        report,
        data,
        judges,
        labels,
        study: study.map(|(s, _)| s),
        key,
        given,
        timings: watch.laps,
    })
}

impl Analysis {
    /// The name the input the report shows as `shown` was given under, when it differs: a
    /// ratings file's name carries its platform participant's id, which the report (to be
    /// shared) pseudonymises, so that the researcher could not find the file it names.
    pub fn given_name(&self, shown: &str) -> Option<&str> {
        if self.report.inputs.len() != self.given.len() {
            return None;
        }
        let i = self.report.inputs.iter().position(|f| f.file == shown)?;
        let given = self.given[i].as_str();
        (base_name(given) != shown).then_some(given)
    }

    /// The text of `system`'s output of `item` in the study given: under the system's id, or,
    /// in a published study, under the token the key says stands for it there.
    pub fn output_text(&self, item: &str, system: &str) -> Option<&crate::base::rich::Text> {
        let item = self.study.as_ref()?.items().iter().find(|i| i.id == item)?;
        item.outputs.get(system).or_else(|| {
            let key = self.key.as_ref()?;
            item.outputs
                .iter()
                .find(|(token, _)| key.systems.get(*token).is_some_and(|s| s == system))
                .map(|(_, text)| text)
        })
    }
}

/// Joins the intake answers of an earlier phase's ratings files (`earlier`) to the annotators
/// of `data` by annotator id: each annotator who rated something in `data` gets the earlier
/// intake answers to the questions they did not answer in `data` themselves (their own answers
/// win). The earlier files' problems are kept; their ratings and other answers are not used.
pub fn join_intake(data: &mut Data, earlier: Data) {
    use std::collections::BTreeSet;
    let raters: BTreeSet<String> = data
        .ratings
        .iter()
        .map(|r| r.annotator.to_string())
        .chain(data.preferences.iter().map(|p| p.annotator.to_string()))
        .chain(data.choices.iter().map(|c| c.annotator.to_string()))
        .chain(data.spans.iter().map(|s| s.annotator.to_string()))
        .collect();
    let answered: BTreeSet<(String, String)> = data
        .answers
        .iter()
        .filter(|a| a.phase == super::data::Phase::Intake)
        .map(|a| (a.annotator.clone(), a.question.clone()))
        .collect();
    data.answers.extend(earlier.answers.into_iter().filter(|a| {
        a.phase == super::data::Phase::Intake
            && raters.contains(&a.annotator)
            && !answered.contains(&(a.annotator.clone(), a.question.clone()))
    }));
    data.problems.extend(earlier.problems);
}

/// The files that were read, as inputs; a problem in `unreadable` for each that was not.
fn readable_inputs<'a>(files: &'a [FileText], unreadable: &mut Vec<Problem>) -> Vec<Input<'a>> {
    let mut inputs = Vec::new();
    for file in files {
        match &file.text {
            Ok(text) => inputs.push(Input::new(file.name.clone(), text.as_str())),
            Err(message) => unreadable.push(Problem::new(
                &base_name(&file.name),
                None,
                format!("cannot read the file ({message}); it is left out"),
            )),
        }
    }
    inputs
}

/// A problem for each judge whose id is also a human annotator's, placed at the judge's first
/// verdict: the two are kept apart (the judge's verdicts never enter the human statistics), but
/// a report naming both is easy to misread.
fn judges_named_as_humans(humans: &Data, judges: &Data) -> Vec<Problem> {
    use std::collections::BTreeSet;
    let people: BTreeSet<&str> = humans
        .ratings
        .iter()
        .map(|r| r.annotator.as_str())
        .chain(humans.preferences.iter().map(|p| p.annotator.as_str()))
        .chain(humans.choices.iter().map(|c| c.annotator.as_str()))
        .collect();
    let mut said = BTreeSet::new();
    let verdicts = judges
        .ratings
        .iter()
        .map(|r| (r.annotator.as_str(), &r.source))
        .chain(
            judges
                .preferences
                .iter()
                .map(|p| (p.annotator.as_str(), &p.source)),
        );
    let mut problems = Vec::new();
    for (judge, source) in verdicts {
        if people.contains(judge) && said.insert(judge) {
            problems.push(Problem::new(
                &source.file,
                Some(source.at.to_string()),
                format!(
                    "the judge \"{judge}\" has the id of a human annotator of the inputs: its \
                     verdicts are still kept apart from the people's, but the report would name \
                     both alike; give the judge an annotator_id of its own (such as \
                     \"judge-{judge}\")"
                ),
            ));
        }
    }
    problems
}

/// A key written by `juror seal` or `juror publish`, or why `text` is not one.
pub fn parse_key(name: &str, text: &str) -> Result<SealKey, String> {
    match serde_json::from_str::<SealKey>(text) {
        Ok(key) if key.format == KEY_FORMAT_V1 => Ok(key),
        Ok(key) => Err(format!(
            "{name}: format \"{}\" is not a key this Juror reads ({KEY_FORMAT_V1})",
            key.format
        )),
        Err(e) => Err(format!(
            "{name}: not a key written by `juror publish` ({e})"
        )),
    }
}

/// The phases' times, from a caller's clock (none in the browser: nothing is timed).
struct Stopwatch {
    clock: Option<fn() -> f64>,
    last: f64,
    laps: Vec<(&'static str, f64)>,
}

impl Stopwatch {
    fn start(clock: Option<fn() -> f64>) -> Stopwatch {
        Stopwatch {
            clock,
            last: clock.map_or(0.0, |now| now()),
            laps: Vec::new(),
        }
    }

    /// Records the time since the last lap as `phase`'s.
    fn lap(&mut self, phase: &'static str) {
        if let Some(now) = self.clock {
            let t = now();
            self.laps.push((phase, t - self.last));
            self.last = t;
        }
    }
}

/// What the plan's choices are made against: the plan without overrides and where it comes
/// from (`"study"`, `"key"` or `"default"`), the systems an override may name and the study's
/// dimensions (both empty without a study or key). A study or key that cannot be read counts as
/// absent here; [`run`] says why.
#[derive(Debug, Clone, PartialEq)]
pub struct PlanContext {
    pub base: AnalysisPlan,
    pub source: &'static str,
    pub systems: Vec<String>,
    pub dimensions: Vec<String>,
    /// The study's intake questions (ids), which a breakdown may use.
    pub intake: Vec<String>,
}

/// The [`PlanContext`] of a study and a key.
pub fn plan_context(study: Option<&FileText>, key: Option<&FileText>) -> PlanContext {
    let study = study
        .and_then(|f| f.text.as_ref().ok())
        .and_then(|t| open(t).ok())
        .map(|opened| opened.study);
    let key = key
        .and_then(|f| f.text.as_ref().ok())
        .and_then(|t| serde_json::from_str::<SealKey>(t).ok())
        .filter(|k| k.format == KEY_FORMAT_V1);
    let (base, source, _) = resolve_plan(&Options::default(), study.as_ref(), key.as_ref());
    PlanContext {
        base,
        source,
        systems: known_systems(study.as_ref(), key.as_ref()),
        dimensions: study
            .as_ref()
            .map(|s| s.rubric().dimensions.iter().map(|d| d.id.clone()).collect())
            .unwrap_or_default(),
        intake: study
            .map(|s| s.intake().iter().map(|q| q.id.clone()).collect())
            .unwrap_or_default(),
    }
}

/// The systems an override may name: the key's (real names), else the study's.
pub fn known_systems(study: Option<&Study>, key: Option<&SealKey>) -> Vec<String> {
    let mut systems: Vec<String> = match (key, study) {
        (Some(k), _) => k.systems.values().cloned().collect(),
        (None, Some(s)) => s.systems().to_vec(),
        (None, None) => Vec::new(),
    };
    systems.sort();
    systems.dedup();
    systems
}

/// The plan with `overrides` applied, or why not. `by_intake` must name an intake question of
/// the study, unless `earlier_intake`: the answers then come from an earlier phase's ratings
/// files (`--intake`), whose questions the study given (the later phase) need not ask.
fn overridden_plan(
    overrides: &Overrides,
    options: &Options,
    study: Option<&Study>,
    key: Option<&SealKey>,
    earlier_intake: bool,
) -> Result<AnalysisPlan, Blocked> {
    let (base, _, _) = resolve_plan(options, study, key);
    let dimensions: Vec<String> = study
        .map(|s| s.rubric().dimensions.iter().map(|d| d.id.clone()).collect())
        .unwrap_or_default();
    if let (Some(q), Some(study), false) = (&overrides.by_intake, study, earlier_intake) {
        let intake: Vec<&str> = study.intake().iter().map(|x| x.id.as_str()).collect();
        if !intake.contains(&q.as_str()) {
            return Err(vec![format!(
                "plan override by_intake: no intake question \"{q}\"; use one of: {}",
                if intake.is_empty() {
                    "(the study has none)".to_owned()
                } else {
                    intake.join(", ")
                }
            )]);
        }
    }
    overrides
        .apply(&base, &known_systems(study, key), &dimensions)
        .map_err(|problems| {
            problems
                .into_iter()
                .map(|(at, message, fix)| format!("plan override {at}: {message}; {fix}"))
                .collect()
        })
}

/// The text of a file, or its reason added to `blocked`.
fn readable<'a>(file: &'a FileText, blocked: &mut Blocked) -> Option<&'a str> {
    match &file.text {
        Ok(text) => Some(text),
        Err(message) => {
            blocked.push(format!("{}: cannot read the file ({message})", file.name));
            None
        }
    }
}

fn check_options(o: &Options) -> Blocked {
    let mut blocked = Vec::new();
    if !(o.flag_sd.is_finite() && o.flag_sd >= 0.0) {
        blocked.push(format!(
            "--flag-sd {}: give a number of 0 or more, such as 1.5",
            o.flag_sd
        ));
    }
    for (field, value, fix) in o.judges.problems() {
        blocked.push(format!("--{} {value}: {fix}", field.replace('_', "-")));
    }
    if o.resamples == 0 {
        blocked.push(
            "--resamples 0: a bootstrap needs at least one resample; 2000 is usual".to_owned(),
        );
    }
    blocked
}

/// The scale labels of each dimension the report covers (points without a label are left out:
/// they are shown as numbers).
fn labels(study: &Study, report: &Report) -> BTreeMap<String, Vec<(f64, String)>> {
    report
        .dimensions
        .iter()
        .filter_map(|d| study.dimension(&d.dimension))
        .map(|d| {
            let points = d.scale.points.iter();
            let labels =
                points.filter_map(|p| p.label.clone().map(|label| (f64::from(p.value), label)));
            (d.id.clone(), labels.collect())
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn example(name: &str) -> String {
        let path = format!("{}/../../assets/studies/{name}", env!("CARGO_MANIFEST_DIR"));
        std::fs::read_to_string(path).unwrap_or_default()
    }

    /// UX walkthrough 2026-12-01, finding 19: with a published study and its key, an output's
    /// text is found under the token that stands for its system in that item (the Analyse
    /// page's error spans read it, and said there was none).
    #[test]
    fn a_published_studys_output_is_found_under_its_token() {
        let text = example("summeval-esa.json");
        let raw: crate::study::RawStudy = serde_json::from_str(&text).unwrap();
        let study = crate::analysis::plan_reader::validate(&raw).unwrap();
        let (sealed, key) = crate::publish::publish(&raw, &study, &[7; 32], 12, &[]);
        let published = crate::analysis::plan_reader::validate(&sealed).unwrap();
        let first = &published.items()[0];
        let (token, output) = first.outputs.iter().next().unwrap();
        let system = key.systems[token].clone();
        assert_ne!(token, &system);
        let request = Request {
            inputs: vec![FileText::new(
                "t.csv",
                format!(
                    "item_id,system_id,annotator_id,dimension,score\n{},{token},a1,esa,50\n",
                    first.id
                ),
            )],
            study: Some(FileText::new(
                "s.json",
                serde_json::to_string(&sealed).unwrap(),
            )),
            key: Some(FileText::new(
                "k.json",
                serde_json::to_string(&key).unwrap(),
            )),
            ..Request::default()
        };
        let analysis = run(&request).unwrap_or_else(|b| panic!("{b:?}"));
        assert_eq!(analysis.output_text(&first.id, &system), Some(output));
        assert_eq!(analysis.output_text(&first.id, "nobody"), None);
    }

    /// Seed audit 2026-12-01 (001, C16): `--by-intake` on an earlier phase's question is
    /// taken with the later phase's study when the earlier files are given (`--intake`); without
    /// them, a question the study does not ask is refused as before.
    #[test]
    fn by_intake_may_name_an_earlier_phases_question() {
        let hare = format!(
            "{}/tests/fixtures/analysis/hare-slot1.json",
            env!("CARGO_MANIFEST_DIR")
        );
        let earlier = std::fs::read_to_string(hare).unwrap();
        let csv = "item_id,system_id,annotator_id,dimension,score\negg,small,slot1,correct,4\n";
        let overrides = Overrides {
            by_intake: Some("role".to_owned()),
            ..Overrides::default()
        };
        let without = Request {
            inputs: vec![FileText::new("t.csv", csv)],
            study: Some(FileText::new("kitchen-qa.json", example("kitchen-qa.json"))),
            overrides: overrides.clone(),
            ..Request::default()
        };
        let refused = run(&without).err().unwrap_or_default().join("\n");
        assert!(refused.contains("no intake question \"role\""), "{refused}");
        let with = Request {
            intake: vec![FileText::new("hare-slot1.json", earlier)],
            ..without
        };
        if let Err(blocked) = run(&with) {
            panic!("{blocked:?}");
        }
    }

    /// UX walkthrough 2026-12-01, finding 23: the report names a platform participant's file
    /// by their pseudonym; the name it was given under is kept, in the report's order, for the
    /// researcher's own screen (the CLI's problems, the page's files table).
    #[test]
    fn an_input_shown_under_another_name_gives_the_name_it_was_given() {
        let csv = "item_id,system_id,annotator_id,dimension,score\ni1,A,a1,q,3\n";
        let request = Request {
            inputs: vec![FileText::new("inbox/t.csv", csv)],
            ..Request::default()
        };
        let mut analysis = run(&request).unwrap_or_else(|b| panic!("{b:?}"));
        assert_eq!(analysis.given, ["inbox/t.csv"]);
        assert_eq!(analysis.report.inputs[0].file, "t.csv");
        assert_eq!(analysis.given_name("t.csv"), None, "the same file name");
        analysis.report.inputs[0].file = "t-prolific-0c44698ac432.csv".to_owned();
        assert_eq!(
            analysis.given_name("t-prolific-0c44698ac432.csv"),
            Some("inbox/t.csv")
        );
        assert_eq!(analysis.given_name("other.csv"), None);
    }

    #[test]
    fn the_phases_are_timed_only_with_a_clock() {
        fn ticks() -> f64 {
            use std::sync::atomic::{AtomicU32, Ordering};
            static T: AtomicU32 = AtomicU32::new(0);
            f64::from(T.fetch_add(1, Ordering::Relaxed))
        }
        let csv = "item_id,system_id,annotator_id,dimension,score\ni1,A,a1,q,3\n";
        let timed = Request {
            inputs: vec![FileText::new("t.csv", csv)],
            clock: Some(ticks),
            ..Request::default()
        };
        let laps = run(&timed).map(|a| a.timings).unwrap_or_default();
        assert_eq!(laps, [("read", 1.0), ("statistics", 1.0)]);
        let untimed = Request {
            clock: None,
            ..timed
        };
        assert!(run(&untimed).is_ok_and(|a| a.timings.is_empty()));
    }

    #[test]
    fn nothing_blocks_an_analysis_of_no_inputs() {
        let analysis = run(&Request::default()).map_err(|b| b.join("\n"));
        assert!(analysis.is_ok_and(|a| a.report.inputs.is_empty() && a.labels.is_empty()));
    }

    #[test]
    fn every_unusable_file_and_option_is_named_and_nothing_is_computed() {
        let request = Request {
            inputs: vec![FileText::new("a.json", "{}")],
            judges: Vec::new(),
            study: Some(FileText::new("study.json", "{\"id\": 3}")),
            key: Some(FileText::new("key.json", "[]")),
            adjudication: Some(FileText {
                name: "adj.csv".into(),
                text: Err("permission denied".into()),
            }),
            intake: Vec::new(),
            options: Options {
                flag_sd: -1.0,
                resamples: 0,
                ..Options::default()
            },
            overrides: Overrides::default(),
            clock: None,
        };
        let blocked = run(&request).err().unwrap_or_default();
        for needle in [
            "--flag-sd -1",
            "--resamples 0",
            "study.json: ",
            "the study is not valid",
            "key.json: not a key written by `juror publish`",
            "adj.csv: cannot read the file (permission denied)",
        ] {
            assert!(
                blocked.iter().any(|b| b.contains(needle)),
                "{needle} in {blocked:#?}"
            );
        }
    }

    #[test]
    fn an_unreadable_input_is_the_first_problem_and_the_rest_is_analysed() {
        let request = Request {
            inputs: vec![
                FileText {
                    name: "gone.json".into(),
                    text: Err("no such file".into()),
                },
                FileText::new("bad.json", "not json"),
            ],
            ..Request::default()
        };
        let analysis = run(&request).map_err(|b| b.join("\n"));
        let problems = analysis.map(|a| a.report.problems).unwrap_or_default();
        assert_eq!(problems.len(), 2, "{problems:#?}");
        assert_eq!(problems[0].file, "gone.json");
        assert!(problems[0].message.contains("no such file"));
        assert_eq!(problems[1].file, "bad.json");
    }

    #[test]
    fn overrides_change_the_plan_and_unknown_names_block() {
        use crate::analysis::overrides::{Comparisons, Unit};
        let study = example("hare-personalization.json");
        assert!(!study.is_empty(), "the example study is in the repository");
        let with = |overrides: Overrides| Request {
            study: Some(FileText::new("hare-personalization.json", study.clone())),
            overrides,
            ..Request::default()
        };
        let analysis = run(&with(Overrides {
            unit: Some(Unit::Item),
            ..Overrides::default()
        }));
        let settings = analysis
            .map(|a| a.report.settings)
            .map_err(|b| b.join("\n"));
        assert!(
            settings.is_ok_and(|s| s.plan_source == "options" && s.plan.unit == Unit::Item),
            "the override is followed and marked"
        );
        let blocked = run(&with(Overrides {
            comparisons: Some(Comparisons::Anchor("nobody".into())),
            ..Overrides::default()
        }))
        .err()
        .unwrap_or_default();
        assert_eq!(blocked.len(), 1, "{blocked:#?}");
        assert!(
            blocked[0].contains("unknown system \"nobody\""),
            "{blocked:#?}"
        );
    }

    /// The labels the Analyse page's charts use are the study's labelled points only: the
    /// hare-personalization study labels 1, 3 and 5 of each dimension, and 2 and 4 are shown as
    /// numbers.
    #[test]
    fn labels_are_the_labelled_points_of_the_study() {
        let study = example("hare-personalization.json");
        let path = format!(
            "{}/tests/fixtures/analysis/hare-ratings.csv",
            env!("CARGO_MANIFEST_DIR")
        );
        let csv = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(!csv.is_empty() && !study.is_empty(), "{path} and the study");
        let analysis = run(&Request {
            inputs: vec![FileText::new("hare-ratings.csv", csv)],
            study: Some(FileText::new("hare-personalization.json", study)),
            ..Request::default()
        })
        .map_err(|b| b.join("\n"));
        let labels = analysis.map(|a| a.labels).unwrap_or_default();
        assert_eq!(labels.len(), 4, "{labels:?}");
        for (dimension, points) in &labels {
            let values: Vec<f64> = points.iter().map(|(v, _)| *v).collect();
            assert_eq!(values, [1.0, 3.0, 5.0], "{dimension}");
        }
        let quality: Vec<&str> = labels["quality"].iter().map(|(_, l)| l.as_str()).collect();
        assert_eq!(quality, ["Incoherent", "Generic", "Professional"]);
    }

    #[test]
    fn the_plan_context_is_the_studys_plan_and_names() {
        let text = example("hare-personalization.json");
        let context = plan_context(Some(&FileText::new("s.json", text)), None);
        assert_eq!(context.source, "study");
        assert_eq!(
            context.base.comparisons,
            crate::analysis::overrides::Comparisons::Anchor("hare".into())
        );
        assert_eq!(context.systems, ["gpt2", "hare", "rag", "random"]);
        assert!(context.dimensions.iter().any(|d| d == "quality"));
        assert_eq!(context.intake[0], "role");
        let none = plan_context(Some(&FileText::new("s.json", "not json")), None);
        assert_eq!((none.source, none.systems.len()), ("default", 0));
    }

    /// An adjudicated score off its dimension's scale is refused (as the Analyse page's form
    /// refuses it): a problem of the adjudication file, and the cell keeps its ratings.
    #[test]
    fn an_adjudicated_score_off_the_scale_is_refused() {
        let fixture = |name: &str| {
            let path = format!(
                "{}/tests/fixtures/analysis/{name}",
                env!("CARGO_MANIFEST_DIR")
            );
            FileText::new(name, std::fs::read_to_string(path).unwrap_or_default())
        };
        let request = |adjudication: Option<FileText>| Request {
            inputs: (1..=3)
                .map(|s| fixture(&format!("financial-slot{s}.json")))
                .collect(),
            study: Some(FileText::new("s.json", example("financial-analysis.json"))),
            adjudication,
            options: Options {
                resamples: 20,
                ..Options::default()
            },
            ..Request::default()
        };
        let before = run(&request(None)).map_err(|b| b.join("\n"));
        let flags = before
            .map(|a| a.report.dimensions[0].flags.clone())
            .unwrap_or_default();
        assert!(!flags.is_empty());
        let sheet = format!(
            "item_id,system_id,dimension,score\n{},{},quality,9\n",
            flags[0].item, flags[0].system
        );
        let after = run(&request(Some(FileText::new("adj.csv", sheet)))).map_err(|b| b.join("\n"));
        let report = after.map(|a| a.report).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(report.problems.len(), 1, "{:#?}", report.problems);
        assert_eq!(report.problems[0].file, "adj.csv");
        assert!(
            report.problems[0]
                .message
                .contains("9 is not a point of the scale"),
            "{:#?}",
            report.problems
        );
        assert!(
            report.dimensions[0]
                .flags
                .iter()
                .all(|f| f.adjudicated.is_none())
        );
    }
}
