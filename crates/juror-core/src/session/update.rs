//! The session's reducer: [`update`] applies a message to the session and says what the shell
//! must do, through one private helper per step.

use super::stamps::Field;
use super::view::{next_unanswered, survey_missing, survey_questions, trial_missing};
use super::{
    Answer, Cmd, ErrorSpan, Msg, Overlay, Phase, Preference, Progress, Session, Survey, Target,
    TrialAnswers, place_span, store,
};
use crate::plan::view::shown_text;
use crate::study::{PreferenceKind, Question, Study};

/// Whether an answer is typed (text or a number: a message per keystroke, saved soon rather
/// than at once). A cleared answer is saved at once.
fn typed(answer: Option<&Answer>) -> bool {
    matches!(answer, Some(Answer::Text(_) | Answer::Number(_)))
}

/// Whether an answer can be stored at all (a number must be finite: JSON has no NaN).
fn storable(answer: &Option<Answer>) -> bool {
    !matches!(answer, Some(Answer::Number(x)) if !x.is_finite())
}

/// Applies a message. Returns what the shell must do; `Cmd::Save` whenever progress changed.
pub fn update(study: &Study, session: &mut Session, msg: Msg, now: f64) -> Vec<Cmd> {
    if let Msg::SurveyAnswer { answer, .. } | Msg::OutputAnswer { answer, .. } = &msg
        && !storable(answer)
    {
        return Vec::new();
    }
    let mut cmds = Vec::new();
    let phase = session.progress.phase;
    let changed = |cmds: &mut Vec<Cmd>| cmds.push(Cmd::Save);
    match msg {
        Msg::Start if phase == Phase::Welcome => start(study, session, now, &mut cmds),
        Msg::Consent(true) if phase == Phase::Consent => consent(session, now, &mut cmds),
        Msg::Consent(false) if phase == Phase::Consent => decline(session, &mut cmds),
        Msg::FinishInstructions if phase == Phase::Instructions => {
            finish_instructions(study, session, now, &mut cmds);
        }
        Msg::BackToInstructions if matches!(phase, Phase::Intake | Phase::Trials) => {
            back_to_instructions(session, now, &mut cmds);
        }
        Msg::SurveyAnswer {
            survey,
            question,
            answer,
        } if phase == survey_phase(survey)
            && asks(survey_questions(study, survey), &question, answer.as_ref()) =>
        {
            cmds.push(answer_survey(session, survey, question, answer, now));
        }
        Msg::SubmitSurvey(survey) if phase == survey_phase(survey) => {
            submit_survey(study, session, survey, now, &mut cmds);
        }
        Msg::Rate {
            position,
            dimension,
            value,
            advance,
        } if phase == Phase::Trials
            && position < session.shown()
            && on_scale(study, &dimension, value) =>
        {
            cmds = rate(
                study,
                session,
                position,
                dimension,
                Some(value),
                advance,
                now,
            );
        }
        Msg::CannotRate {
            position,
            dimension,
            on,
            advance,
        } if phase == Phase::Trials && position < session.shown() => {
            cmds = cannot_rate(study, session, (position, dimension), on, advance, now);
        }
        Msg::OutputAnswer {
            position,
            question,
            answer,
        } if phase == Phase::Trials
            && position < session.shown()
            && asks(&study.rubric().output_questions, &question, answer.as_ref()) =>
        {
            cmds.push(answer_output(session, position, question, answer, now));
        }
        Msg::Flag { position, on } if phase == Phase::Trials && position < session.shown() => {
            flag(study, session, position, on, now);
            changed(&mut cmds);
        }
        Msg::MarkSpan { position, span }
            if phase == Phase::Trials && span_fits(study, session, position, &span) =>
        {
            mark_span(session, position, span, now, &mut cmds);
        }
        Msg::RemoveSpan { position, key } if phase == Phase::Trials => {
            remove_span(session, position, key, now, &mut cmds);
        }
        Msg::NoErrors { position, on }
            if phase == Phase::Trials && no_errors_fits(study, session, position, on) =>
        {
            no_errors(session, position, on, now, &mut cmds);
        }
        Msg::Prefer(preference)
            if phase == Phase::Trials && preference_fits(study, session, preference.as_ref()) =>
        {
            prefer(session, preference, now, &mut cmds);
        }
        Msg::Explain(text) if phase == Phase::Trials => explain(session, text, now, &mut cmds),
        Msg::Notes(text) if phase == Phase::Trials => write_notes(session, text, now, &mut cmds),
        Msg::Next if phase == Phase::Trials => next_trial(study, session, now, &mut cmds),
        Msg::Previous if phase == Phase::Trials => previous_trial(study, session, now, &mut cmds),
        Msg::Previous if phase == Phase::Exit => back_to_trials(study, session, now, &mut cmds),
        Msg::GoTo(index)
            if matches!(phase, Phase::Trials | Phase::Exit | Phase::Done)
                && index < session.plan.trials.len() =>
        {
            go_to(session, index, now, &mut cmds);
        }
        Msg::Overlay(Overlay::Rubric) if study.rubric().is_empty() => {}
        Msg::Overlay(overlay) => session.overlay = overlay,
        Msg::Visibility(visible) if visible != session.visible => {
            visibility(session, phase, visible, now, &mut cmds);
        }
        Msg::Absorb(theirs) => session.progress = store::merge(&session.progress, &theirs),
        Msg::Restore(restored) => restore_session(session, restored, &mut cmds),
        Msg::FileSaved if phase == Phase::Done && !session.file_saved() => {
            session.progress.file_saved = Some(session.progress.clock);
            changed(&mut cmds);
        }
        // A message that does not belong to the current phase is ignored: it can only come
        // from a stale page or a double click, and must never corrupt the session.
        _ => {}
    }
    cmds
}

/// Consent declined: nothing is recorded.
fn decline(session: &mut Session, cmds: &mut Vec<Cmd>) {
    // Nothing is recorded for a declined consent.
    session.progress.phase = Phase::Declined;
    cmds.push(Cmd::ScrollTop);
}

/// Consent given: on to the instructions.
fn consent(session: &mut Session, now: f64, cmds: &mut Vec<Cmd>) {
    session.progress.consent_at = Some(now);
    session.progress.started_at.get_or_insert(now);
    session.progress.phase = Phase::Instructions;
    cmds.push(Cmd::Save);
    cmds.push(Cmd::ScrollTop);
}

/// Leaves the instructions: to the intake survey, or (without one) to the trials.
fn finish_instructions(study: &Study, session: &mut Session, now: f64, cmds: &mut Vec<Cmd>) {
    if study.intake().is_empty() {
        enter_trials(study, session, now, cmds);
    } else {
        session.progress.phase = Phase::Intake;
        cmds.push(Cmd::ScrollTop);
    }
    cmds.push(Cmd::Save);
}

/// Back to the instructions from the intake survey or the trials.
fn back_to_instructions(session: &mut Session, now: f64, cmds: &mut Vec<Cmd>) {
    session.bank_time(now);
    session.progress.phase = Phase::Instructions;
    session.missing.clear();
    cmds.push(Cmd::Save);
    cmds.push(Cmd::ScrollTop);
}

/// Removes the error marked with `key` in the output at `position`, if there is one.
fn remove_span(session: &mut Session, position: usize, key: String, now: f64, cmds: &mut Vec<Cmd>) {
    let marked = session
        .answers(session.progress.current)
        .and_then(|t| t.outputs.get(position))
        .is_some_and(|o| o.spans.iter().any(|s| s.key() == key));
    if marked {
        if let Some((t, _)) = edit_current(session, now, Field::Span(position, key.clone())) {
            t.outputs[position].spans.retain(|s| s.key() != key);
        }
        cmds.push(Cmd::Save);
    }
}

/// Whether "No errors" can be said (`on`) or taken back for the output at `position` of the
/// current trial: its task asks for error spans, and none is marked in it when it is said.
fn no_errors_fits(study: &Study, session: &Session, position: usize, on: bool) -> bool {
    position < session.shown()
        && asks_spans(study, session)
        && !(on
            && session
                .answers(session.progress.current)
                .is_some_and(|t| !t.outputs[position].spans.is_empty()))
}

/// Says the output at `position` has no errors, or takes it back.
fn no_errors(session: &mut Session, position: usize, on: bool, now: f64, cmds: &mut Vec<Cmd>) {
    if let Some((t, _)) = edit_current(session, now, Field::NoErrors(position)) {
        t.outputs[position].no_errors = on;
    }
    session
        .missing
        .retain(|m| m.target != Target::Spans { position });
    cmds.push(Cmd::Save);
}

/// Gives or clears the preference.
fn prefer(session: &mut Session, preference: Option<Preference>, now: f64, cmds: &mut Vec<Cmd>) {
    if let Some((t, _)) = edit_current(session, now, Field::Preference) {
        t.preference = preference;
    }
    session.missing.retain(|m| m.target != Target::Preference);
    cmds.push(Cmd::Save);
}

/// The preference's explanation, as typed: saved soon.
fn explain(session: &mut Session, text: String, now: f64, cmds: &mut Vec<Cmd>) {
    if let Some((t, _)) = edit_current(session, now, Field::Explanation) {
        t.explanation = text;
    }
    session.missing.retain(|m| m.target != Target::Explanation);
    cmds.push(Cmd::SaveSoon);
}

/// The notes, as typed: saved soon.
fn write_notes(session: &mut Session, text: String, now: f64, cmds: &mut Vec<Cmd>) {
    if let Some((t, _)) = edit_current(session, now, Field::Notes) {
        t.notes = text;
    }
    session.missing.retain(|m| m.target != Target::Notes);
    cmds.push(Cmd::SaveSoon);
}

/// Back from the exit survey to the last trial.
fn back_to_trials(study: &Study, session: &mut Session, now: f64, cmds: &mut Vec<Cmd>) {
    enter_trials(study, session, now, cmds);
    let last = session.plan.trials.len().saturating_sub(1);
    session.show_trial(last, now);
    cmds.push(Cmd::Save);
}

/// Jumps to trial `index` (from the list of trials), closing the list.
fn go_to(session: &mut Session, index: usize, now: f64, cmds: &mut Vec<Cmd>) {
    session.progress.phase = Phase::Trials;
    session.show_trial(index, now);
    session.overlay = Overlay::None;
    cmds.push(Cmd::ScrollTop);
    cmds.push(Cmd::Save);
}

/// Continues from the session restored from a ratings file, which is saved.
fn restore_session(session: &mut Session, restored: Box<Session>, cmds: &mut Vec<Cmd>) {
    *session = *restored;
    cmds.push(Cmd::Save);
}

/// The tab became visible or hidden: in the trials, the time on screen starts or is banked.
fn visibility(session: &mut Session, phase: Phase, visible: bool, now: f64, cmds: &mut Vec<Cmd>) {
    session.visible = visible;
    match (phase, visible) {
        (Phase::Trials, true) => session.shown_since = Some(now),
        (Phase::Trials, false) => {
            session.bank_time(now);
            cmds.push(Cmd::Save);
        }
        _ => {}
    }
}

/// The current trial's answers, to edit: `field` is stamped as edited now (so that the merge of
/// two tabs keeps this edit over older ones) and the trial records the change time. Returns the
/// answers and the stamp, for any other field the edit changes.
fn edit_current(session: &mut Session, now: f64, field: Field) -> Option<(&mut TrialAnswers, u64)> {
    let stamp = session.progress.tick(now);
    let t = session.trial_answers()?;
    t.stamps.insert(field.key(), stamp);
    t.last_changed = Some(now);
    Some((t, stamp))
}

/// Whether the current trial's task asks for error spans.
fn asks_spans(study: &Study, session: &Session) -> bool {
    session
        .plan
        .trials
        .get(session.progress.current)
        .is_some_and(|t| study.design().tasks[t.task].spans.is_some())
}

/// Whether `span` can be marked in the output at `position` of the current trial: the task asks
/// for spans, and the span fits them and the output's text ([`ErrorSpan::check`]). Overlaps are
/// [`mark_span`]'s to refuse.
fn span_fits(study: &Study, session: &Session, position: usize, span: &ErrorSpan) -> bool {
    let Some(trial) = session.plan.trials.get(session.progress.current) else {
        return false;
    };
    let Some(spans) = &study.design().tasks[trial.task].spans else {
        return false;
    };
    position < trial.shown.len()
        && span
            .check(spans, shown_text(study, trial, position).chars().count())
            .is_ok()
}

/// Marks `span` in the output at `position`, unless it overlaps another: "No errors" is taken
/// back, and the missing answer about the output's errors is met.
fn mark_span(
    session: &mut Session,
    position: usize,
    span: ErrorSpan,
    now: f64,
    cmds: &mut Vec<Cmd>,
) {
    let overlaps = session
        .answers(session.progress.current)
        .and_then(|t| t.outputs.get(position))
        .is_none_or(|o| {
            o.spans
                .iter()
                .any(|s| s.key() != span.key() && s.overlaps(&span))
        });
    if overlaps {
        return;
    }
    let no_errors = session
        .answers(session.progress.current)
        .is_some_and(|t| t.outputs[position].no_errors);
    if no_errors && let Some((t, _)) = edit_current(session, now, Field::NoErrors(position)) {
        t.outputs[position].no_errors = false;
    }
    if let Some((t, _)) = edit_current(session, now, Field::Span(position, span.key())) {
        place_span(&mut t.outputs[position].spans, span);
    }
    session
        .missing
        .retain(|m| m.target != Target::Spans { position });
    cmds.push(Cmd::Save);
}

/// Whether `value` is a point of the scale of dimension `dimension`.
fn on_scale(study: &Study, dimension: &str, value: i32) -> bool {
    study
        .dimension(dimension)
        .is_some_and(|d| d.scale.contains(value))
}

/// Whether `questions` has `question`, and offers "Cannot judge" when that is the answer.
pub(super) fn asks(questions: &[Question], question: &str, answer: Option<&Answer>) -> bool {
    questions
        .iter()
        .any(|q| q.id == question && (q.allow_skip || answer != Some(&Answer::CannotJudge)))
}

/// Scores the output at `position` on `dimension` (`None`: "Cannot judge"); with `advance`,
/// focus moves to the next unanswered question.
fn rate(
    study: &Study,
    session: &mut Session,
    position: usize,
    dimension: String,
    value: Option<i32>,
    advance: bool,
    now: f64,
) -> Vec<Cmd> {
    let target = Target::Rating {
        position,
        dimension: dimension.clone(),
    };
    let field = Field::Rating(position, dimension.clone());
    if let Some((t, _)) = edit_current(session, now, field) {
        t.outputs[position].rate(&dimension, value);
    }
    let mut cmds = Vec::new();
    after_answer(study, session, &target, advance, &mut cmds);
    cmds.push(Cmd::Save);
    cmds
}

/// "Cannot judge" on `dimension` of the output at `position`, where the dimension offers it;
/// or (`on` false) takes it back, leaving the dimension unanswered.
fn cannot_rate(
    study: &Study,
    session: &mut Session,
    (position, dimension): (usize, String),
    on: bool,
    advance: bool,
    now: f64,
) -> Vec<Cmd> {
    if on {
        if !study.dimension(&dimension).is_some_and(|d| d.allow_skip) {
            return Vec::new();
        }
        return rate(study, session, position, dimension, None, advance, now);
    }
    let said = session
        .answers(session.progress.current)
        .and_then(|t| t.outputs.get(position))
        .is_some_and(|o| o.cannot_judge.contains(&dimension));
    if !said {
        return Vec::new();
    }
    let field = Field::Rating(position, dimension.clone());
    if let Some((t, _)) = edit_current(session, now, field) {
        t.outputs[position].cannot_judge.retain(|d| d != &dimension);
    }
    vec![Cmd::Save]
}

/// Answers (or clears) a per-output question; typed text is saved soon, anything else at once.
fn answer_output(
    session: &mut Session,
    position: usize,
    question: String,
    answer: Option<Answer>,
    now: f64,
) -> Cmd {
    let target = Target::OutputQuestion {
        position,
        question: question.clone(),
    };
    let save = if typed(answer.as_ref()) {
        Cmd::SaveSoon
    } else {
        Cmd::Save
    };
    let field = Field::Answer(position, question.clone());
    if let Some((t, _)) = edit_current(session, now, field) {
        let answers = &mut t.outputs[position].answers;
        match answer {
            Some(a) => answers.insert(question, a),
            None => answers.remove(&question),
        };
    }
    session.missing.retain(|m| m.target != target);
    save
}

/// Flags or unflags the output at `position`. A flag that implies scores sets them (the
/// annotator sees the rule by the box); unflagging leaves the scores as they are.
fn flag(study: &Study, session: &mut Session, position: usize, on: bool, now: f64) {
    let implied = flag_implies(study, session, on);
    if let Some((t, stamp)) = edit_current(session, now, Field::Flag(position)) {
        for (d, _) in &implied {
            t.stamps
                .insert(Field::Rating(position, d.clone()).key(), stamp);
        }
        t.outputs[position].flagged = on;
        for (d, v) in &implied {
            t.outputs[position].rate(d, Some(*v));
        }
    }
}

/// Whether `preference` (or clearing it, with `None`) fits the current trial's question: its
/// kind, positions the trial shows, a tie only where allowed.
fn preference_fits(study: &Study, session: &Session, preference: Option<&Preference>) -> bool {
    let trial = &session.plan.trials[session.progress.current];
    let task = &study.design().tasks[trial.task];
    let n = trial.shown.len();
    match (preference, task.preference.as_ref()) {
        (None, Some(_)) => true,
        (Some(Preference::Best { position }), Some(p)) => {
            p.kind == PreferenceKind::Best && *position < n
        }
        (Some(Preference::Choice { position }), Some(p)) => {
            p.kind == PreferenceKind::Choice && *position < n
        }
        (Some(Preference::Tie), Some(p)) => p.kind == PreferenceKind::Choice && p.allow_tie,
        (Some(Preference::Graded { grade }), Some(p)) => {
            p.kind == PreferenceKind::Graded && grade.unsigned_abs() as usize <= p.grades.len() / 2
        }
        (Some(Preference::CannotJudge), Some(p)) => p.allow_skip,
        (Some(Preference::Rank { order }), Some(p)) => {
            p.kind == PreferenceKind::Rank && order.iter().all(|&i| i < n)
        }
        (Some(Preference::BestWorst { best, worst }), Some(p)) => {
            p.kind == PreferenceKind::BestWorst && best_worst_fits(*best, *worst, n)
        }
        _ => false,
    }
}

/// Whether a best–worst answer names outputs of a trial of `n`, never one as both.
pub(super) fn best_worst_fits(best: Option<usize>, worst: Option<usize>, n: usize) -> bool {
    best.is_none_or(|b| b < n) && worst.is_none_or(|w| w < n) && (best.is_none() || best != worst)
}

/// Leaves the welcome page: to the consent form, or (without one) to the instructions.
fn start(study: &Study, session: &mut Session, now: f64, cmds: &mut Vec<Cmd>) {
    session.progress.phase = if study.consent().is_some() {
        Phase::Consent
    } else {
        session.progress.started_at.get_or_insert(now);
        Phase::Instructions
    };
    if session.progress.phase == Phase::Instructions {
        cmds.push(Cmd::Save);
    }
    cmds.push(Cmd::ScrollTop);
}

/// Leaves a survey when every required answer is given and fits (else says which are
/// missing and focuses the first).
fn submit_survey(
    study: &Study,
    session: &mut Session,
    survey: Survey,
    now: f64,
    cmds: &mut Vec<Cmd>,
) {
    let missing = survey_missing(study, session, survey);
    if let Some(first) = missing.first() {
        cmds.push(Cmd::Focus(first.target.dom_id()));
        session.missing = missing;
    } else {
        session.missing.clear();
        match survey {
            Survey::Intake if screened(study, &session.progress) => {
                session.progress.phase = Phase::Screened;
                session.progress.finished_at = Some(now);
                cmds.push(Cmd::ScrollTop);
            }
            Survey::Intake => enter_trials(study, session, now, cmds),
            Survey::Exit => finish(session, now, cmds),
        }
        cmds.push(Cmd::Save);
    }
}

/// Whether an intake answer screens the participant out: a choice the question's
/// `screen_out` lists.
pub fn screened(study: &Study, progress: &Progress) -> bool {
    study.intake().iter().any(|q| {
        progress.intake.get(&q.id).is_some_and(|a| match a {
            Answer::Choice(c) => q.screen_out.contains(c),
            Answer::Choices(cs) => cs.iter().any(|c| q.screen_out.contains(c)),
            _ => false,
        })
    })
}

/// Back one trial, or from the first trial to the intake survey (when there is one).
fn previous_trial(study: &Study, session: &mut Session, now: f64, cmds: &mut Vec<Cmd>) {
    let current = session.progress.current;
    if current > 0 {
        session.show_trial(current - 1, now);
    } else if !study.intake().is_empty() {
        session.bank_time(now);
        session.progress.phase = Phase::Intake;
        session.missing.clear();
    } else {
        return;
    }
    cmds.push(Cmd::ScrollTop);
    cmds.push(Cmd::Save);
}

/// Answers (or clears) a survey question; typed text is saved soon, anything else at once.
fn answer_survey(
    session: &mut Session,
    survey: Survey,
    question: String,
    answer: Option<Answer>,
    now: f64,
) -> Cmd {
    let target = Target::Survey {
        question: question.clone(),
    };
    let stamp = session.progress.tick(now);
    let (answers, prefix) = match survey {
        Survey::Intake => (&mut session.progress.intake, "intake"),
        Survey::Exit => (&mut session.progress.exit, "exit"),
    };
    let key = format!("{prefix}/{question}");
    let typed = typed(answer.as_ref());
    match answer {
        Some(a) => answers.insert(question, a),
        None => answers.remove(&question),
    };
    session.progress.stamps.insert(key, stamp);
    session.missing.retain(|m| m.target != target);
    if typed { Cmd::SaveSoon } else { Cmd::Save }
}

/// The scores a flag sets: every dimension of the task at its `flag_implies` value, when the
/// task has one and the flag is set.
fn flag_implies(study: &Study, session: &Session, on: bool) -> Vec<(String, i32)> {
    let task = &study.design().tasks[session.plan.trials[session.progress.current].task];
    match (on, task.flag_implies) {
        (true, Some(v)) => task.dimensions.iter().map(|d| (d.clone(), v)).collect(),
        _ => Vec::new(),
    }
}

/// Leaves the current trial when every required answer is given (else says which are missing
/// and focuses the first).
fn next_trial(study: &Study, session: &mut Session, now: f64, cmds: &mut Vec<Cmd>) {
    let current = session.progress.current;
    let missing = trial_missing(study, session, current);
    if let Some(first) = missing.first() {
        cmds.push(Cmd::Focus(first.target.dom_id()));
        session.missing = missing;
    } else {
        session.progress.trials[current].done = true;
        // On to the first trial not done after this one, or any before it (after a jump
        // back), or out of the trials.
        let total = session.plan.trials.len();
        let next = (current + 1..total)
            .chain(0..current)
            .find(|&i| !session.progress.trials[i].done);
        // After revising an earlier trial this returns to the first one still to do.
        match next {
            Some(i) => session.show_trial(i, now),
            None => leave_trials(study, session, now, cmds),
        }
        cmds.push(Cmd::ScrollTop);
        cmds.push(Cmd::Save);
    }
}

fn survey_phase(survey: Survey) -> Phase {
    match survey {
        Survey::Intake => Phase::Intake,
        Survey::Exit => Phase::Exit,
    }
}

fn after_answer(
    study: &Study,
    session: &mut Session,
    target: &Target,
    advance: bool,
    cmds: &mut Vec<Cmd>,
) {
    session.missing.retain(|m| &m.target != target);
    if advance && let Some(next) = next_unanswered(study, session, target) {
        cmds.push(Cmd::Focus(next.dom_id()));
    }
}

fn enter_trials(study: &Study, session: &mut Session, now: f64, cmds: &mut Vec<Cmd>) {
    if session.plan.trials.is_empty() {
        leave_trials(study, session, now, cmds);
        return;
    }
    session.progress.phase = Phase::Trials;
    let current = session.progress.current.min(session.plan.trials.len() - 1);
    session.show_trial(current, now);
    cmds.push(Cmd::ScrollTop);
}

fn leave_trials(study: &Study, session: &mut Session, now: f64, cmds: &mut Vec<Cmd>) {
    session.bank_time(now);
    session.missing.clear();
    if study.exit().is_empty() {
        finish(session, now, cmds);
    } else {
        session.progress.phase = Phase::Exit;
        cmds.push(Cmd::ScrollTop);
    }
}

fn finish(session: &mut Session, now: f64, cmds: &mut Vec<Cmd>) {
    session.progress.phase = Phase::Done;
    session.progress.finished_at.get_or_insert(now);
    cmds.push(Cmd::ScrollTop);
}
