//! The page's keyboard shortcuts: a key pressed, as the page describes it, becomes the message
//! it stands for. `?` the shortcut list, `R` the rubric, `L` the trial list, Escape closes what
//! is open; in a trial, Enter goes on (Shift+Enter back), a digit gives the n-th point of the
//! focused (or first unanswered) score (not a slider's), else the n-th point of a graded
//! preference, a label's letter chooses that output (best–worst: the best; Shift and the letter
//! the worst), `T` a tie (a graded preference's "Same"), `0` "Cannot judge": on the score a digit
//! would answer (the focused one, else the first unanswered) when its dimension offers it, and
//! when no score is waiting (every score given, or the focus elsewhere) on the preference where
//! the study offers it.

use super::{Msg, Overlay, Phase, Preference, Reply, Session, Target, next_unanswered};
use crate::study::{Study, Task};

/// A key pressed, as the page describes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Key<'a> {
    /// The key's value (`KeyboardEvent.key`: "Enter", "3", "b", "?").
    pub key: &'a str,
    /// Shift held.
    pub shift: bool,
    /// Control, Meta or Alt held, or the event already handled: never a shortcut.
    pub modified: bool,
    /// Pressed in a field where keys are text (a text box, a select): only Escape counts.
    pub typing: bool,
    /// Focus is on a button, link or summary: Enter does what the control says.
    pub on_control: bool,
}

/// The letter that chooses the output labelled `label` ("Output B" → 'B'), if a single key can.
pub fn output_letter(task: &Task, label: &str) -> Option<char> {
    (0..26u8)
        .find(|&i| task.label(usize::from(i)) == label)
        .map(|i| char::from(b'A' + i))
}

/// The message `key` stands for, if any (then the page keeps the browser from acting on it,
/// Escape apart). `focused` is the score whose control has focus, if any.
pub fn to_msg(
    study: &Study,
    session: &Session,
    key: Key<'_>,
    focused: Option<&Target>,
) -> Option<Msg> {
    if key.modified {
        return None;
    }
    if key.key == "Escape" {
        return Some(Msg::Overlay(Overlay::None));
    }
    if key.typing {
        return None;
    }
    let phase = session.progress.phase;
    match key.key {
        "?" => Some(Msg::Overlay(Overlay::Shortcuts)),
        "r" | "R" if !study.rubric().is_empty() => Some(Msg::Overlay(Overlay::Rubric)),
        "l" | "L" if phase == Phase::Trials => Some(Msg::Overlay(Overlay::TrialList)),
        _ if session.overlay != Overlay::None || phase != Phase::Trials => None,
        // Enter on a button or link does what the button says.
        "Enter" if key.on_control => None,
        "Enter" if key.shift => Some(Msg::Previous),
        "Enter" => Some(Msg::Next),
        d if d.len() == 1 && d.as_bytes()[0].is_ascii_digit() && d != "0" => {
            digit(study, session, d.as_bytes()[0] - b'0', focused)
        }
        "0" => cannot_judge(study, session, focused),
        "t" | "T" => tie(study, session),
        k if k.len() == 1 && k.as_bytes()[0].is_ascii_alphabetic() => prefer_letter(
            study,
            session,
            char::from(k.as_bytes()[0].to_ascii_uppercase()),
            key.shift,
        ),
        _ => None,
    }
}

/// The score a digit (or `0`) answers: the focused one, else the first unanswered question
/// (searched from the last target, wrapping to the start).
fn keyed_target(study: &Study, session: &Session, focused: Option<&Target>) -> Option<Target> {
    focused
        .cloned()
        .or_else(|| next_unanswered(study, session, &Target::Notes))
}

/// A digit answers the focused score (or the first unanswered one) with the n-th point.
fn digit(study: &Study, session: &Session, n: u8, focused: Option<&Target>) -> Option<Msg> {
    let target = keyed_target(study, session, focused);
    let Some(Target::Rating {
        position,
        dimension,
    }) = target
    else {
        return graded(study, session, n);
    };
    let scale = &study.dimension(&dimension)?.scale;
    // A slider's digit would give a score of a few points out of a hundred: none.
    if scale.slider() {
        return None;
    }
    let point = scale.points.get(usize::from(n) - 1)?;
    Some(Msg::Answer {
        target: Target::Rating {
            position,
            dimension,
        },
        reply: Some(Reply::Score(point.value)),
        advance: true,
    })
}

/// The letter of a label ("Output B" → B) chooses the preference; in a best–worst trial the
/// letter chooses the best, Shift and the letter the worst.
fn prefer_letter(study: &Study, session: &Session, key: char, shift: bool) -> Option<Msg> {
    let trial = session.plan.trials.get(session.progress.current)?;
    let task = &study.design().tasks[trial.task];
    let asked = task.preference.as_ref()?;
    let position = trial
        .shown
        .iter()
        .position(|shown| output_letter(task, &shown.label) == Some(key))?;
    let current = session.progress.trials.get(session.progress.current)?;
    let preference = asked.by_letter(current.preference.as_ref(), position, shift)?;
    Some(Msg::answer(
        Target::Preference,
        Reply::Preference(preference),
    ))
}

fn tie(study: &Study, session: &Session) -> Option<Msg> {
    let preference = current_preference(study, session)?.by_tie_key()?;
    Some(Msg::answer(
        Target::Preference,
        Reply::Preference(preference),
    ))
}

/// The preference question of the current trial, if it asks one.
fn current_preference<'s>(
    study: &'s Study,
    session: &Session,
) -> Option<&'s crate::study::Preference> {
    let trial = session.plan.trials.get(session.progress.current)?;
    study.design().tasks[trial.task].preference.as_ref()
}

/// The n-th point of a graded preference (1 is A's strongest, the middle "Same").
fn graded(study: &Study, session: &Session, n: u8) -> Option<Msg> {
    let preference = current_preference(study, session)?.by_digit(n)?;
    Some(Msg::answer(
        Target::Preference,
        Reply::Preference(preference),
    ))
}

/// "Cannot judge" the score a digit would answer, where its dimension offers it (a dimension
/// that does not: nothing); with no score to answer, the preference, where the study offers it.
fn cannot_judge(study: &Study, session: &Session, focused: Option<&Target>) -> Option<Msg> {
    if let Some(Target::Rating {
        position,
        dimension,
    }) = keyed_target(study, session, focused)
    {
        return study
            .dimension(&dimension)?
            .allow_skip
            .then_some(Msg::Answer {
                target: Target::Rating {
                    position,
                    dimension,
                },
                reply: Some(Reply::CannotJudge),
                advance: true,
            });
    }
    current_preference(study, session)?
        .allow_skip
        .then_some(Msg::answer(
            Target::Preference,
            Reply::Preference(Preference::CannotJudge),
        ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::tests::{example, into_trials, slot};
    use crate::session::{update, view};

    fn key(k: &str) -> Key<'_> {
        Key {
            key: k,
            shift: false,
            modified: false,
            typing: false,
            on_control: false,
        }
    }

    #[test]
    fn overlays_open_anywhere_and_escape_closes_them_even_in_a_text_field() {
        let (study, _) = example("work-intake");
        let s = Session::new(&study, slot(1));
        let on = |k| to_msg(&study, &s, key(k), None);
        assert_eq!(on("?"), Some(Msg::Overlay(Overlay::Shortcuts)));
        assert_eq!(on("R"), Some(Msg::Overlay(Overlay::Rubric)));
        assert_eq!(on("l"), None, "the trial list only in the trials");
        assert_eq!(on("Enter"), None, "Enter only goes on in a trial");
        let typing = Key {
            typing: true,
            ..key("Escape")
        };
        assert_eq!(
            to_msg(&study, &s, typing, None),
            Some(Msg::Overlay(Overlay::None))
        );
        let typing = Key {
            typing: true,
            ..key("?")
        };
        assert_eq!(to_msg(&study, &s, typing, None), None);
        let modified = Key {
            modified: true,
            ..key("?")
        };
        assert_eq!(to_msg(&study, &s, modified, None), None);
    }

    #[test]
    fn a_study_with_no_rubric_opens_none() {
        let (study, mut s) = into_trials("pandalm");
        assert!(study.rubric().is_empty(), "preferences only");
        assert_eq!(to_msg(&study, &s, key("r"), None), None);
        assert_eq!(
            to_msg(&study, &s, key("?"), None),
            Some(Msg::Overlay(Overlay::Shortcuts))
        );
        // Nor does the message, however it comes.
        update(&study, &mut s, Msg::Overlay(Overlay::Rubric), 1.0);
        assert_eq!(s.overlay, Overlay::None);
        let (study, _) = example("work-intake");
        assert!(!study.rubric().is_empty());
    }

    #[test]
    fn in_a_trial_enter_goes_on_and_a_digit_scores_the_first_unanswered_question() {
        let (study, mut s) = into_trials("work-intake");
        assert_eq!(to_msg(&study, &s, key("Enter"), None), Some(Msg::Next));
        let back = Key {
            shift: true,
            ..key("Enter")
        };
        assert_eq!(to_msg(&study, &s, back, None), Some(Msg::Previous));
        let on_button = Key {
            on_control: true,
            ..key("Enter")
        };
        assert_eq!(to_msg(&study, &s, on_button, None), None);
        let Some(Msg::Answer {
            target:
                Target::Rating {
                    position,
                    dimension,
                },
            advance,
            ..
        }) = to_msg(&study, &s, key("2"), None)
        else {
            panic!("a digit scores");
        };
        assert_eq!((position, advance), (0, true));
        let focused = Target::Rating {
            position: 1,
            dimension: dimension.clone(),
        };
        let Some(Msg::Answer {
            target: Target::Rating { position, .. },
            ..
        }) = to_msg(&study, &s, key("1"), Some(&focused))
        else {
            panic!("a digit scores the focused question");
        };
        assert_eq!(position, 1);
        assert_eq!(to_msg(&study, &s, key("0"), None), None);
        assert_eq!(to_msg(&study, &s, key("9"), None), None, "past the scale");
        // With an overlay open, the trial's shortcuts rest.
        update(&study, &mut s, Msg::Overlay(Overlay::Rubric), 1.0);
        assert_eq!(to_msg(&study, &s, key("Enter"), None), None);
        assert_eq!(
            to_msg(&study, &s, key("L"), None),
            Some(Msg::Overlay(Overlay::TrialList))
        );
    }

    #[test]
    fn a_digit_scores_no_slider_and_nothing_while_errors_are_asked_first() {
        let (study, mut s) = into_trials("summeval-esa");
        // The errors come first: a digit has no score to give.
        assert_eq!(to_msg(&study, &s, key("3"), None), None);
        let esa = Target::Rating {
            position: 0,
            dimension: "esa".to_owned(),
        };
        assert_eq!(to_msg(&study, &s, key("3"), Some(&esa)), None, "a slider");
        update(
            &study,
            &mut s,
            Msg::answer(Target::Spans { position: 0 }, Reply::Ticked),
            1.0,
        );
        assert_eq!(to_msg(&study, &s, key("3"), None), None);
        assert_eq!(to_msg(&study, &s, key("Enter"), None), Some(Msg::Next));
    }

    #[test]
    fn a_labels_letter_chooses_that_output_and_t_a_tie() {
        let (study, s) = into_trials("pandalm");
        let v = view(&study, &s);
        let trial = v.trial.unwrap();
        assert_eq!(trial.outputs[0].label, "Response A");
        assert_eq!(
            output_letter(&study.design().tasks[0], "Response B"),
            Some('B')
        );
        assert_eq!(output_letter(&study.design().tasks[0], "Output B"), None);
        assert_eq!(
            output_letter(&study.design().tasks[0], "Response Z"),
            Some('Z')
        );
        assert_eq!(
            output_letter(&study.design().tasks[0], "Response AB"),
            None,
            "no single key"
        );
        assert_eq!(output_letter(&study.design().tasks[0], "Response b"), None);
        assert_eq!(
            to_msg(&study, &s, key("b"), None),
            Some(Msg::answer(
                Target::Preference,
                Reply::Preference(Preference::Choice { position: 1 })
            ))
        );
        assert_eq!(to_msg(&study, &s, key("z"), None), None, "no such output");
        assert_eq!(
            to_msg(&study, &s, key("T"), None),
            Some(Msg::answer(
                Target::Preference,
                Reply::Preference(Preference::Tie)
            ))
        );
    }
}
