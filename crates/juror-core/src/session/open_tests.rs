//! What the page makes of stored answers, natively: resumed, damaged, newer, not fitting the
//! plan, storage full while setting aside, an earlier study file, storage unavailable, another
//! tab's save and a restored file. The sentences are the ones the end-to-end specs read.

use super::open::{
    Absorb, NoticeKind, Stored, Tab, absorb, open, restore, restore_stored, restored,
};
use super::ratings::export;
use super::tests::{answer_trial, example, into_trials, slot};
use super::*;
use crate::study::Study;

const NOW: f64 = 1_795_300_000_000.0;

fn envelope_text(study: &Study, sha: &str, s: &Session, revision: u64) -> String {
    store::write(&store::Envelope {
        schema_version: store::SCHEMA_VERSION,
        study_id: study.id().to_owned(),
        study_sha256: sha.to_owned(),
        saved_at: NOW - 1000.0,
        revision,
        app_version: "test".to_owned(),
        progress: s.progress.clone(),
        plan: Some(s.plan.fingerprint()),
    })
    .unwrap()
}

/// A session half way through the trials of `name`, as saved at `revision`.
fn saved(name: &str, revision: u64) -> (Study, String, Session, String) {
    let (study, sha) = example(name);
    let (_, mut s) = into_trials(name);
    for _ in 0..2 {
        answer_trial(&study, &mut s, 10.0);
        update(&study, &mut s, Msg::Next, 11.0);
    }
    let text = envelope_text(&study, &sha, &s, revision);
    (study, sha, s, text)
}

#[test]
fn saved_answers_that_fit_resume_where_they_were() {
    let (study, sha, s, text) = saved("work-intake", 4);
    let opened = open(&study, &sha, slot(1), Stored::Text(text.clone()), true, NOW);
    assert_eq!(opened.session.progress.current, 2);
    assert_eq!(opened.session.progress.trials[..2], s.progress.trials[..2]);
    assert_eq!((opened.revision, opened.done), (4, 2));
    assert_eq!(opened.loaded, text);
    assert_eq!(
        (opened.notice, opened.quarantine, opened.hold),
        (None, None, false)
    );
    assert_eq!(opened.away_days, None, "saved a second ago");
    // Saved five days ago: the page warns about browsers that delete after seven.
    let (study, sha, s, _) = saved("work-intake", 4);
    let mut old = store::read(&envelope_text(&study, &sha, &s, 4)).unwrap();
    old.saved_at = NOW - 5.0 * 86_400_000.0;
    let text = store::write(&old).unwrap();
    let opened = open(&study, &sha, slot(1), Stored::Text(text), false, NOW);
    assert_eq!(opened.away_days, Some(5));
    assert!(!opened.session.visible);
}

#[test]
fn damaged_saved_answers_are_set_aside_offered_and_the_study_starts_afresh() {
    let (study, sha) = example("work-intake");
    let text = "{\"schema_version\": 2, \"progress\": [tru".to_owned();
    let opened = open(&study, &sha, slot(1), Stored::Text(text.clone()), true, NOW);
    assert_eq!(opened.session, Session::new(&study, slot(1)));
    assert_eq!(opened.quarantine.as_deref(), Some(text.as_str()));
    assert!(!opened.hold);
    assert_eq!((opened.revision, opened.loaded.as_str()), (0, ""));
    let notice = opened.notice.unwrap();
    assert_eq!(
        notice.kind,
        NoticeKind::Unreadable("they are damaged".into())
    );
    assert_eq!(
        notice.text,
        "Your saved answers for this study could not be read (they are damaged). They were set \
         aside, not deleted: download them and send them to the researcher. You start afresh."
    );
    let download = notice.download.unwrap();
    assert_eq!(
        download.name,
        format!("juror-saved-answers-{}.json", study.id())
    );
    assert_eq!(download.text, text);
}

#[test]
fn answers_saved_by_a_newer_version_are_set_aside_with_its_format() {
    let (study, sha, _, text) = saved("pandalm", 2);
    let future = text.replacen("\"schema_version\":2", "\"schema_version\":99", 1);
    assert_ne!(future, text);
    let opened = open(
        &study,
        &sha,
        slot(1),
        Stored::Text(future.clone()),
        true,
        NOW,
    );
    assert_eq!(opened.session.progress.phase, Phase::Welcome);
    assert_eq!(opened.quarantine, Some(future));
    let notice = opened.notice.unwrap();
    assert!(
        notice.text.starts_with(
            "Your saved answers for this study could not be read (they were saved by a newer \
             version of Juror (format 99))."
        ),
        "{}",
        notice.text
    );
}

#[test]
fn answers_that_do_not_fit_the_plan_are_set_aside_and_their_revision_kept() {
    let (study, sha, s, _) = saved("work-intake", 6);
    let mut other_plan = store::read(&envelope_text(&study, &sha, &s, 6)).unwrap();
    other_plan.plan = Some("0123456789abcdef".to_owned());
    let text = store::write(&other_plan).unwrap();
    let opened = open(&study, &sha, slot(1), Stored::Text(text.clone()), true, NOW);
    assert_eq!(opened.session, Session::new(&study, slot(1)));
    assert_eq!(opened.quarantine.as_deref(), Some(text.as_str()));
    // The next save counts on from the stored revision, and the text is known as read.
    assert_eq!(
        (opened.revision, opened.loaded.as_str()),
        (6, text.as_str())
    );
    let notice = opened.notice.unwrap();
    assert!(matches!(notice.kind, NoticeKind::DoesNotFit(_)));
    assert_eq!(
        notice.text,
        "Your saved answers do not fit this study (they follow another plan of this study than \
         this version of Juror makes). They were set aside, not deleted: download them and send \
         them to the researcher. You start afresh."
    );
}

#[test]
fn storage_full_while_setting_aside_holds_every_save_until_the_download() {
    let (study, sha) = example("work-intake");
    let text = "not json".to_owned();
    let mut opened = open(&study, &sha, slot(1), Stored::Text(text.clone()), true, NOW);
    opened.set_aside(&study, false);
    assert!(opened.hold);
    let notice = opened.notice.unwrap();
    assert_eq!(
        notice.text,
        "Your saved answers for this study could not be read (they are damaged). They could not \
         be set aside because this browser's storage is full: download them now. Juror will not \
         overwrite them until you have. You start afresh."
    );
    assert_eq!(notice.download.unwrap().text, text);
    // Set aside: nothing is held.
    let mut opened = open(&study, &sha, slot(1), Stored::Text(text), true, NOW);
    let before = opened.clone();
    opened.set_aside(&study, true);
    assert_eq!(opened, before);
}

#[test]
fn answers_for_an_earlier_study_file_are_offered_never_mixed_in() {
    let (study, sha, _, earlier) = saved("work-intake", 3);
    let stored = Stored::Nothing {
        earlier: Some(earlier.clone()),
    };
    let opened = open(&study, &sha, slot(1), stored, true, NOW);
    assert_eq!(opened.session, Session::new(&study, slot(1)));
    assert_eq!(
        (opened.quarantine, opened.hold, opened.revision),
        (None, false, 0)
    );
    let notice = opened.notice.unwrap();
    assert_eq!(notice.kind, NoticeKind::EarlierVersion);
    assert!(
        notice
            .text
            .starts_with("The study file has changed since you started.")
    );
    assert_eq!(notice.download.unwrap().text, earlier);
    // Nothing stored at all: a fresh start, nothing to say.
    let opened = open(
        &study,
        &sha,
        slot(1),
        Stored::Nothing { earlier: None },
        true,
        NOW,
    );
    assert_eq!(opened.notice, None);
}

#[test]
fn an_envelope_of_another_study_file_under_the_key_is_left_alone() {
    let (study, sha, _, _) = saved("work-intake", 3);
    let (other, other_sha, s, _) = saved("pandalm", 3);
    let text = envelope_text(&other, &other_sha, &s, 3);
    let opened = open(&study, &sha, slot(1), Stored::Text(text), true, NOW);
    assert_eq!(opened.session, Session::new(&study, slot(1)));
    assert_eq!(
        (opened.notice, opened.quarantine, opened.revision),
        (None, None, 0)
    );
}

#[test]
fn storage_that_cannot_be_used_is_a_problem_to_show() {
    let (study, sha) = example("pandalm");
    let stored = Stored::Unavailable("no storage".into());
    let opened = open(&study, &sha, slot(1), stored, true, NOW);
    assert_eq!(opened.problem.as_deref(), Some("no storage"));
    assert_eq!(opened.notice, None);
}

#[test]
fn a_version_1_envelope_is_migrated_and_resumed() {
    let (study, sha, s, _) = saved("pandalm", 0);
    let v1 = serde_json::json!({
        "schema_version": 1,
        "study_id": study.id(),
        "study_sha256": sha,
        "saved_at": NOW - 1000.0,
        "progress": serde_json::to_value(&s.progress).unwrap(),
    })
    .to_string();
    let opened = open(&study, &sha, slot(1), Stored::Text(v1), true, NOW);
    assert_eq!(opened.notice, None);
    assert_eq!(opened.revision, 0);
    assert_eq!(opened.session.progress.trials, s.progress.trials);
}

/// What tab `s` knows: its plan's fingerprint, its revision, the text it last wrote; nothing
/// let go, nothing replied to.
fn tab<'a>(s: &'a Session, plan: &'a str, revision: u64, last_written: &'a str) -> Tab<'a> {
    Tab {
        session: s,
        plan,
        revision,
        last_written,
        let_go: "",
        replied_to: "",
    }
}

/// The decision's `save` and `answers`, when the copy is taken in.
fn taken(decision: Absorb) -> (bool, String) {
    match decision {
        Absorb::Take { save, answers, .. } => (save, answers),
        other => panic!("not taken in: {other:?}"),
    }
}

#[test]
fn this_tabs_own_save_another_study_and_another_person_are_not_taken_in() {
    let (study, sha, s, text) = saved("work-intake", 2);
    let plan = s.plan.fingerprint();
    assert_eq!(
        absorb(&study, &sha, tab(&s, &plan, 2, &text), &text),
        Absorb::Ignore
    );
    let (other, other_sha, o, _) = saved("pandalm", 2);
    let theirs = envelope_text(&other, &other_sha, &o, 9);
    assert_eq!(
        absorb(&study, &sha, tab(&s, &plan, 2, ""), &theirs),
        Absorb::Ignore
    );
    let mut someone = store::read(&text).unwrap();
    someone.progress.annotator = slot(2);
    let someone = store::write(&someone).unwrap();
    assert_eq!(
        absorb(&study, &sha, tab(&s, &plan, 2, ""), &someone),
        Absorb::Ignore
    );
}

#[test]
fn a_copy_that_does_not_fit_is_never_taken_in_and_its_download_lets_it_go() {
    let (study, sha, s, text) = saved("work-intake", 2);
    let plan = s.plan.fingerprint();
    let envelope = store::read(&text).unwrap();
    let changed = |f: &dyn Fn(&mut store::Envelope)| {
        let mut e = envelope.clone();
        f(&mut e);
        store::write(&e).unwrap()
    };
    let cases = [
        (
            // Another app version planned the study otherwise, with the same counts.
            changed(&|e| e.plan = Some("0123456789abcdef".into())),
            "they follow another plan of this study than this tab's".to_owned(),
        ),
        (
            // Another plan with other counts: once the case two tabs saved over each other on.
            changed(&|e| {
                e.progress.trials.pop();
            }),
            format!(
                "the saved progress has {} trials but this study's plan has {}",
                s.plan.trials.len() - 1,
                s.plan.trials.len()
            ),
        ),
        (
            changed(&|e| {
                e.plan = None;
                e.progress.trials[0].preference = Some(Preference::Best { position: 9 });
            }),
            "trial 1's saved preference names an output the trial does not show".to_owned(),
        ),
        (
            text.replacen("\"schema_version\":2", "\"schema_version\":3", 1),
            "they were saved by a newer version of Juror (format 3)".to_owned(),
        ),
        (
            "{\"schema_version\": 2, \"progress\": [tr".to_owned(),
            "they are damaged".to_owned(),
        ),
    ];
    for (incoming, why) in cases {
        let decision = absorb(&study, &sha, tab(&s, &plan, 2, ""), &incoming);
        let Absorb::Unfit(notice) = decision else {
            panic!("taken in ({why}): {decision:?}");
        };
        assert_eq!(notice.kind, NoticeKind::OtherTab(why.clone()));
        assert_eq!(
            notice.text,
            format!(
                "Another tab saved answers for this study that this tab cannot take in ({why}): \
                 it may be running another version of Juror. This tab saves nothing over them \
                 until you have downloaded them. Then reload every tab of this study."
            )
        );
        assert_eq!(notice.download.unwrap().text, incoming);
        // Downloaded: the tab may save over it, and it is not offered again.
        let downloaded = Tab {
            let_go: &incoming,
            ..tab(&s, &plan, 2, "")
        };
        assert_eq!(absorb(&study, &sha, downloaded, &incoming), Absorb::Ignore);
    }
}

#[test]
fn a_copy_at_an_equal_revision_with_nothing_new_changes_nothing() {
    let (study, sha, s, text) = saved("work-intake", 5);
    let plan = s.plan.fingerprint();
    // The same answers, written by another tab at the same revision.
    let same = envelope_text(&study, &sha, &s, 5);
    assert_eq!(same, text);
    let again = same.replacen("\"app_version\":\"test\"", "\"app_version\":\"other\"", 1);
    let decision = absorb(&study, &sha, tab(&s, &plan, 5, ""), &again);
    let Absorb::Take {
        revision,
        merge,
        save,
        ..
    } = decision
    else {
        panic!("not taken in: {decision:?}");
    };
    assert_eq!((revision, merge, save), (5, None, false));
}

#[test]
fn a_second_tabs_newer_answers_are_merged_and_the_union_saved() {
    let (study, sha, base, _) = saved("financial-analysis", 3);
    let plan = base.plan.fingerprint();
    let (mut a, mut b) = (base.clone(), base);
    // Tab A goes on; tab B answers trial 5 through the list and saves at revision 7.
    answer_trial(&study, &mut a, 100.0);
    update(&study, &mut a, Msg::Next, 101.0);
    update(&study, &mut b, Msg::GoTo(4), 102.0);
    answer_trial(&study, &mut b, 103.0);
    let theirs = envelope_text(&study, &sha, &b, 7);
    let decision = absorb(&study, &sha, tab(&a, &plan, 3, ""), &theirs);
    let Absorb::Take {
        revision,
        merge: Some(incoming),
        save,
        ..
    } = decision
    else {
        panic!("not taken in: {decision:?}");
    };
    assert_eq!(revision, 7, "the larger revision");
    assert!(save, "tab A's finished trial is not in B's copy");
    let cmds = update(&study, &mut a, Msg::Absorb(incoming), 104.0);
    assert_eq!(cmds, Vec::new(), "the shell saves, as absorb said");
    assert!(a.progress.trials[2].done, "tab A's answer is kept");
    assert_eq!(
        a.progress.trials[4], b.progress.trials[4],
        "tab B's is taken in"
    );
    assert_eq!(a.progress.current, 3, "the trial on screen stays tab A's");
    // Tab B, hearing of the union, has nothing to add.
    let union = envelope_text(&study, &sha, &a, 8);
    assert!(!taken(absorb(&study, &sha, tab(&b, &plan, 7, ""), &union)).0);
}

#[test]
fn a_tab_replies_once_to_a_copy_that_keeps_lacking_its_answers() {
    // Tab B cannot keep tab A's answer (another version of Juror that merges otherwise): it
    // writes the same answers again and again. Tab A saves its union once, not every time.
    let (study, sha, base, _) = saved("work-intake", 3);
    let plan = base.plan.fingerprint();
    let mut a = base.clone();
    answer_trial(&study, &mut a, 100.0);
    let lacking = envelope_text(&study, &sha, &base, 4);
    let (save, answers) = taken(absorb(&study, &sha, tab(&a, &plan, 3, ""), &lacking));
    assert!(save, "the first time, the union is saved");
    let written = envelope_text(&study, &sha, &a, 5);
    let replied = Tab {
        replied_to: &answers,
        ..tab(&a, &plan, 5, &written)
    };
    let again = envelope_text(&study, &sha, &base, 6);
    assert!(!taken(absorb(&study, &sha, replied, &again)).0, "not again");
    // Tab B's copy changes (a new answer): tab A's union differs from it again, and is saved.
    let mut b = base;
    update(&study, &mut b, Msg::GoTo(0), 101.0);
    answer_trial(&study, &mut b, 102.0);
    let changed = envelope_text(&study, &sha, &b, 7);
    assert!(taken(absorb(&study, &sha, replied, &changed)).0);
    // A union that this tab has not written yet is saved whatever it replied to before.
    let unsaved = Tab {
        replied_to: &answers,
        ..tab(&a, &plan, 5, "")
    };
    assert!(taken(absorb(&study, &sha, unsaved, &again)).0);
}

#[test]
fn a_restored_file_reaches_the_session_as_a_message_and_is_saved() {
    let (study, sha, s, _) = saved("work-intake", 1);
    let file = export(&study, &sha, &s, "test", NOW).to_json();
    let restored = restore(&study, &sha, &file, NOW).unwrap();
    assert_eq!(restored.plan.fingerprint(), s.plan.fingerprint());
    let mut fresh = Session::new(&study, slot(1));
    let cmds = update(&study, &mut fresh, Msg::Restore(Box::new(restored)), NOW);
    assert!(cmds.contains(&Cmd::Save));
    assert_eq!(fresh.progress.current, 2);
    assert_eq!(fresh.progress.phase, Phase::Trials);
    assert!(fresh.progress.trials[1].done);
    // A file of another study is refused, with a reason.
    let (other, other_sha, o, _) = saved("pandalm", 1);
    let theirs = export(&other, &other_sha, &o, "test", NOW).to_json();
    assert!(restore(&study, &sha, &theirs, NOW).is_err());
}

/// The annotator's page reads ratings files in a module of their own, which hands the session
/// back as a stored envelope's text: read back, it is the session [`restore`] gives, on
/// examples of several designs; a refusal says the same.
#[test]
fn a_restore_handed_over_as_stored_text_is_the_same_session() {
    for name in ["work-intake", "pandalm", "summeval-esa", "kitchen-qa"] {
        let (study, sha, session, _) = saved(name, 1);
        let file = export(&study, &sha, &session, "test", NOW).to_json();
        let direct = restore(&study, &sha, &file, NOW).unwrap();
        let text = restore_stored(&study, &sha, &file, NOW, "test").unwrap();
        let back = restored(&study, &text, NOW).unwrap();
        assert_eq!(back.plan.fingerprint(), direct.plan.fingerprint(), "{name}");
        assert_eq!(back.progress, direct.progress, "{name}");
        assert_eq!(back.annotator(), direct.annotator(), "{name}");
    }
    let (study, sha, _, _) = saved("work-intake", 1);
    let (other, other_sha, o, _) = saved("pandalm", 1);
    let theirs = export(&other, &other_sha, &o, "test", NOW).to_json();
    assert_eq!(
        restore_stored(&study, &sha, &theirs, NOW, "test").unwrap_err(),
        restore(&study, &sha, &theirs, NOW).unwrap_err()
    );
    assert!(restored(&study, "{oops", NOW).is_err());
}
