//! The session's reducer: [`update`] applies a message to the session and says what the shell
//! must do, through one private helper per step.

use super::stamps::Field;
use super::view::{next_unanswered, survey_missing, survey_questions, trial_missing};
use super::{
    Answer, Cmd, ErrorSpan, Msg, Overlay, Phase, Preference, Progress, Reply, Session, Survey,
    Target, TrialAnswers, place_span, store,
};
use crate::plan::view::shown_text;
use crate::study::{Question, Study};

/// Whether an answer can be stored at all (a number must be finite: JSON has no NaN).
fn storable(answer: &Answer) -> bool {
    !matches!(answer, Answer::Number(x) if !x.is_finite())
}

/// Applies a message. Returns what the shell must do; `Cmd::Save` whenever progress changed.
pub fn update(study: &Study, session: &mut Session, msg: Msg, now: f64) -> Vec<Cmd> {
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
        Msg::Answer {
            target,
            reply,
            advance,
        } if accepts(study, session, &target, reply.as_ref()) => {
            cmds = answer(study, session, target, reply, advance, now);
        }
        Msg::SubmitSurvey(survey) if phase == survey_phase(survey) => {
            submit_survey(study, session, survey, now, &mut cmds);
        }
        Msg::MarkSpan { position, span }
            if phase == Phase::Trials && span_fits(study, session, position, &span) =>
        {
            mark_span(session, position, span, now, &mut cmds);
        }
        Msg::RemoveSpan { position, key } if phase == Phase::Trials => {
            remove_span(session, position, key, now, &mut cmds);
        }
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

/// The survey on screen in `phase`, if any.
fn survey_on(phase: Phase) -> Option<Survey> {
    match phase {
        Phase::Intake => Some(Survey::Intake),
        Phase::Exit => Some(Survey::Exit),
        _ => None,
    }
}

/// Whether `reply` (or clearing, with `None`) fits `target` on the current page: a survey's
/// question in its survey; in the trials, an output the trial shows, a point of the
/// dimension's scale, an answer that fits its question, a preference that fits the trial's.
fn accepts(study: &Study, session: &Session, target: &Target, reply: Option<&Reply>) -> bool {
    let answer = match reply {
        Some(Reply::Answer(a)) if !storable(a) => return false,
        Some(Reply::Answer(a)) => Some(a),
        _ => None,
    };
    let question_reply = reply.is_none() || answer.is_some();
    let phase = session.progress.phase;
    if let Target::Survey { question } = target {
        return question_reply
            && survey_on(phase)
                .is_some_and(|s| asks(survey_questions(study, s), question, answer));
    }
    let on_screen = |position: usize| phase == Phase::Trials && position < session.shown();
    match (target, reply) {
        (
            Target::Rating {
                position,
                dimension,
            },
            Some(Reply::Score(v)),
        ) => on_screen(*position) && on_scale(study, dimension, *v),
        (
            Target::Rating {
                position,
                dimension,
            },
            Some(Reply::CannotJudge),
        ) => on_screen(*position) && study.dimension(dimension).is_some_and(|d| d.allow_skip),
        (Target::Rating { position, .. }, None)
        | (Target::Flag { position }, Some(Reply::Ticked) | None) => on_screen(*position),
        (Target::OutputQuestion { position, question }, _) => {
            question_reply
                && on_screen(*position)
                && asks(&study.rubric().output_questions, question, answer)
        }
        (Target::Spans { position }, Some(Reply::Ticked) | None) => {
            phase == Phase::Trials && no_errors_fits(study, session, *position, reply.is_some())
        }
        (Target::Preference, Some(Reply::Preference(_)) | None) => {
            phase == Phase::Trials && preference_fits(study, session, reply)
        }
        (Target::Explanation | Target::Notes, Some(Reply::Text(_)) | None) => {
            phase == Phase::Trials
        }
        _ => false,
    }
}

/// Gives (or clears) the reply at `target`, which [`accepts`] took.
fn answer(
    study: &Study,
    session: &mut Session,
    target: Target,
    reply: Option<Reply>,
    advance: bool,
    now: f64,
) -> Vec<Cmd> {
    let typed = reply.as_ref().is_some_and(Reply::typed);
    let mut cmds = Vec::new();
    let text = |reply: Option<Reply>| match reply {
        Some(Reply::Text(t)) => t,
        _ => String::new(),
    };
    let answer_of = |reply: Option<Reply>| match reply {
        Some(Reply::Answer(a)) => Some(a),
        _ => None,
    };
    match target {
        Target::Rating {
            position,
            dimension,
        } => {
            return match reply {
                Some(Reply::Score(v)) => {
                    rate(study, session, position, dimension, Some(v), advance, now)
                }
                Some(_) => rate(study, session, position, dimension, None, advance, now),
                None => take_back_cannot_judge(session, position, dimension, now),
            };
        }
        Target::Survey { question } => {
            let survey = survey_on(session.progress.phase).unwrap_or(Survey::Intake);
            answer_survey(session, survey, question, answer_of(reply), now);
        }
        Target::OutputQuestion { position, question } => {
            answer_output(session, position, question, answer_of(reply), now);
        }
        Target::Flag { position } => flag(study, session, position, reply.is_some(), now),
        Target::Spans { position } => no_errors(session, position, reply.is_some(), now),
        Target::Preference => {
            let preference = match reply {
                Some(Reply::Preference(p)) => Some(p),
                _ => None,
            };
            prefer(session, preference, now);
        }
        Target::Explanation => explain(session, text(reply), now),
        Target::Notes => write_notes(session, text(reply), now),
    }
    // Typed text is saved soon; anything else, and a cleared answer, at once.
    cmds.push(if typed { Cmd::SaveSoon } else { Cmd::Save });
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
fn no_errors(session: &mut Session, position: usize, on: bool, now: f64) {
    if let Some((t, _)) = edit_current(session, now, Field::NoErrors(position)) {
        t.outputs[position].no_errors = on;
    }
    session
        .missing
        .retain(|m| m.target != Target::Spans { position });
}

/// Gives or clears the preference.
fn prefer(session: &mut Session, preference: Option<Preference>, now: f64) {
    if let Some((t, _)) = edit_current(session, now, Field::Preference) {
        t.preference = preference;
    }
    session.missing.retain(|m| m.target != Target::Preference);
}

/// The preference's explanation, as typed.
fn explain(session: &mut Session, text: String, now: f64) {
    if let Some((t, _)) = edit_current(session, now, Field::Explanation) {
        t.explanation = text;
    }
    session.missing.retain(|m| m.target != Target::Explanation);
}

/// The notes, as typed.
fn write_notes(session: &mut Session, text: String, now: f64) {
    if let Some((t, _)) = edit_current(session, now, Field::Notes) {
        t.notes = text;
    }
    session.missing.retain(|m| m.target != Target::Notes);
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

/// Takes back "Cannot judge" on `dimension` of the output at `position`, if it was said,
/// leaving the dimension unanswered.
fn take_back_cannot_judge(
    session: &mut Session,
    position: usize,
    dimension: String,
    now: f64,
) -> Vec<Cmd> {
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

/// Answers (or clears) a per-output question.
fn answer_output(
    session: &mut Session,
    position: usize,
    question: String,
    answer: Option<Answer>,
    now: f64,
) {
    let target = Target::OutputQuestion {
        position,
        question: question.clone(),
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

/// Whether `reply` (a preference, or clearing it with `None`) fits the current trial's
/// question ([`Preference::fits`]).
fn preference_fits(study: &Study, session: &Session, reply: Option<&Reply>) -> bool {
    let trial = &session.plan.trials[session.progress.current];
    let Some(asked) = &study.design().tasks[trial.task].preference else {
        return false;
    };
    match reply {
        Some(Reply::Preference(p)) => p.fits(asked, trial.shown.len()),
        _ => true,
    }
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

/// Answers (or clears) a survey question.
fn answer_survey(
    session: &mut Session,
    survey: Survey,
    question: String,
    answer: Option<Answer>,
    now: f64,
) {
    let target = Target::Survey {
        question: question.clone(),
    };
    let stamp = session.progress.tick(now);
    let (answers, prefix) = match survey {
        Survey::Intake => (&mut session.progress.intake, "intake"),
        Survey::Exit => (&mut session.progress.exit, "exit"),
    };
    let key = format!("{prefix}/{question}");
    match answer {
        Some(a) => answers.insert(question, a),
        None => answers.remove(&question),
    };
    session.progress.stamps.insert(key, stamp);
    session.missing.retain(|m| m.target != target);
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
