//! Tests of the preference's shape: its reader against serde's, its sheet cells, its keys.

use super::*;

/// The tagged enum as serde derives it, to hold [`Preference`]'s own reader to.
#[derive(Debug, PartialEq, serde::Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
enum Derived {
    Best {
        position: usize,
    },
    Choice {
        position: usize,
    },
    Tie,
    Rank {
        order: Vec<usize>,
    },
    Graded {
        grade: i32,
    },
    CannotJudge,
    BestWorst {
        #[serde(default)]
        best: Option<usize>,
        #[serde(default)]
        worst: Option<usize>,
    },
}

/// Reads a preference as a stored session's reader does.
fn read(text: &str) -> Result<Preference, String> {
    let value: serde_json::Value = serde_json::from_str(text).map_err(|e| e.to_string())?;
    super::read(&value).map_err(|e| e.to_string())
}

/// The flat reader reads what the derived tagged reader reads, refuses what it refuses,
/// and reads back what the writer writes.
#[test]
fn preferences_read_as_the_tagged_enum_reads_them() {
    let texts = [
        r#"{"kind":"best","position":2}"#,
        r#"{"position":1,"kind":"choice"}"#,
        r#"{"kind":"tie"}"#,
        r#"{"kind":"rank","order":[2,0,1]}"#,
        r#"{"kind":"graded","grade":-2}"#,
        r#"{"kind":"cannot_judge"}"#,
        r#"{"kind":"best_worst"}"#,
        r#"{"kind":"best_worst","best":0,"worst":3}"#,
        r#"{"kind":"best_worst","worst":1}"#,
        r#"{"kind":"choice","position":1,"note":"ignored"}"#,
        r#"{"kind":"choice"}"#,
        r#"{"kind":"rank"}"#,
        r#"{"kind":"graded","grade":"2"}"#,
        r#"{"kind":"choice","position":-1}"#,
        r#"{"kind":"favourite","position":1}"#,
        r#"{"position":1}"#,
        r#"[1]"#,
        r#""tie""#,
    ];
    for text in texts {
        let ours = read(text);
        let derived = serde_json::from_str::<Derived>(text);
        assert_eq!(
            ours.is_ok(),
            derived.is_ok(),
            "{text}: {ours:?} / {derived:?}"
        );
        if let Ok(p) = ours {
            let written = serde_json::to_string(&p).unwrap();
            assert_eq!(read(&written).unwrap(), p, "{text}");
            assert_eq!(
                serde_json::from_str::<Derived>(&written).unwrap(),
                derived.unwrap(),
                "{text}"
            );
        }
    }
}

fn asked(kind: PreferenceKind, allow_tie: bool) -> Asked {
    Asked {
        kind,
        question: "Which is better?".to_owned(),
        allow_tie,
        grades: if kind == PreferenceKind::Graded {
            crate::study::model::default_grades(7)
        } else {
            Vec::new()
        },
        allow_skip: false,
        explanation: crate::study::Requirement::Off,
        tuple_size: if kind == PreferenceKind::BestWorst {
            4
        } else {
            0
        },
    }
}

/// Each kind's sheet words describe a cell its reader takes, and its reader's answer fits
/// the question.
#[test]
fn a_sheet_cell_reads_as_its_words_say() {
    let find = |t: &str| {
        ["A", "B", "C", "D"]
            .iter()
            .position(|l| l.eq_ignore_ascii_case(t))
    };
    let cases = [
        (
            asked(PreferenceKind::Best, false),
            "C",
            Preference::Best { position: 2 },
        ),
        (asked(PreferenceKind::Choice, true), "tie", Preference::Tie),
        (
            asked(PreferenceKind::Choice, false),
            "b",
            Preference::Choice { position: 1 },
        ),
        (
            asked(PreferenceKind::Graded, false),
            "a3",
            Preference::Graded { grade: -3 },
        ),
        (
            asked(PreferenceKind::BestWorst, false),
            "B > D",
            Preference::BestWorst {
                best: Some(1),
                worst: Some(3),
            },
        ),
        (
            asked(PreferenceKind::Rank, false),
            "B > A > D > C",
            Preference::Rank {
                order: vec![1, 0, 3, 2],
            },
        ),
    ];
    for (q, cell, want) in cases {
        assert_eq!(
            q.parse_cell(cell, 4, find),
            Some(want.clone()),
            "{:?}",
            q.kind
        );
        assert!(want.fits(&q, 4), "{:?}", q.kind);
        assert!(!q.cell_words("A, B, C, D").is_empty());
    }
    // Best–worst's legend asks for two letters, as its reader does.
    assert!(
        asked(PreferenceKind::BestWorst, false)
            .legend()
            .starts_with("two letters")
    );
    assert_eq!(
        asked(PreferenceKind::Choice, false).parse_cell("tie", 4, find),
        None
    );
    assert_eq!(
        asked(PreferenceKind::Graded, false).parse_cell("b4", 4, find),
        None
    );
    assert_eq!(
        asked(PreferenceKind::BestWorst, false).parse_cell("B > B", 4, find),
        None
    );
}

/// The keys give what the control would: letters for a choice, best and (with Shift) worst,
/// digits for a grade, the tie key for a tie or "Same".
#[test]
fn keys_give_the_preference_of_the_question() {
    let best_worst = asked(PreferenceKind::BestWorst, false);
    let best = best_worst.by_letter(None, 1, false);
    assert_eq!(
        best,
        Some(Preference::BestWorst {
            best: Some(1),
            worst: None
        })
    );
    let both = best_worst.by_letter(best.as_ref(), 1, true);
    assert_eq!(
        both,
        Some(Preference::BestWorst {
            best: None,
            worst: Some(1)
        })
    );
    assert_eq!(
        asked(PreferenceKind::Rank, false).by_letter(None, 0, false),
        None
    );
    let graded = asked(PreferenceKind::Graded, false);
    assert_eq!(graded.by_digit(1), Some(Preference::Graded { grade: -3 }));
    assert_eq!(graded.by_digit(4), Some(Preference::Graded { grade: 0 }));
    assert_eq!(graded.by_digit(8), None);
    assert_eq!(graded.by_tie_key(), Some(Preference::Graded { grade: 0 }));
    assert_eq!(asked(PreferenceKind::Choice, false).by_tie_key(), None);
    assert_eq!(
        best_worst.missing(
            Some(&Preference::BestWorst {
                best: Some(0),
                worst: None
            }),
            4
        ),
        Some("choose the worst output".to_owned())
    );
    assert_eq!(
        graded.missing(Some(&Preference::Graded { grade: 1 }), 2),
        None
    );
}

/// A compiled study's preference question reads back as the model's `Serialize` wrote it, for
/// every kind (the list names every variant: a new one fails to compile here until added).
#[test]
fn every_kind_of_question_reads_back_as_written() {
    let kinds = [
        PreferenceKind::Best,
        PreferenceKind::Choice,
        PreferenceKind::Rank,
        PreferenceKind::Graded,
        PreferenceKind::BestWorst,
    ];
    for kind in kinds {
        match kind {
            PreferenceKind::Best
            | PreferenceKind::Choice
            | PreferenceKind::Rank
            | PreferenceKind::Graded
            | PreferenceKind::BestWorst => {}
        }
        let p = Asked {
            kind,
            question: "Which?".to_owned(),
            allow_tie: true,
            grades: vec!["A".to_owned()],
            allow_skip: false,
            explanation: crate::study::Requirement::Required,
            tuple_size: 3,
        };
        let written = serde_json::to_value(&p).unwrap();
        assert_eq!(read_asked(&written).as_ref(), Ok(&p), "{written}");
    }
}

fn picked(position: usize, system: &str) -> Picked {
    Picked {
        position,
        label: format!("L{position}"),
        system: system.to_owned(),
    }
}

#[test]
fn each_record_reads_as_its_pairwise_judgements() {
    use PairOutcome::{First, Second, Tie};
    let three = ["x", "y", "z"];
    let best = PreferenceRecord::Best {
        position: 2,
        label: "B".into(),
        system: "y".into(),
    };
    assert_eq!(
        best.pairwise(&three),
        Ok(vec![(0, 1, Second), (1, 2, First)])
    );
    let rank = PreferenceRecord::Rank {
        systems: vec!["z".into(), "x".into(), "y".into()],
        labels: vec![],
    };
    assert_eq!(
        rank.pairwise(&three),
        Ok(vec![(0, 1, First), (0, 2, Second), (1, 2, Second)])
    );
    assert_eq!(
        PreferenceRecord::Tie.pairwise(&three),
        Ok(vec![(0, 1, Tie), (0, 2, Tie), (1, 2, Tie)])
    );
    let graded = PreferenceRecord::Graded {
        grade: -2,
        label: "A better".into(),
    };
    assert_eq!(graded.pairwise(&["x", "y"]), Ok(vec![(0, 1, First)]));
    assert_eq!(graded.grade(), Some(-2));
    assert!(
        graded
            .pairwise(&three)
            .unwrap_err()
            .contains("needs a pair")
    );
    let bw = PreferenceRecord::BestWorst {
        best: Some(picked(1, "x")),
        worst: Some(picked(3, "z")),
    };
    assert_eq!(bw.pairwise(&three), Ok(vec![]));
    // A record that does not fit the trial is refused, saying why.
    let wrong = PreferenceRecord::Choice {
        position: 1,
        label: "A".into(),
        system: "y".into(),
    };
    assert!(
        wrong
            .pairwise(&["x", "y"])
            .unwrap_err()
            .contains("shows \"x\"")
    );
    let same = PreferenceRecord::BestWorst {
        best: Some(picked(2, "y")),
        worst: Some(picked(2, "y")),
    };
    assert!(
        same.pairwise(&three)
            .unwrap_err()
            .contains("both the best and the worst")
    );
    assert!(
        PreferenceRecord::Tie
            .pairwise(&["x", "x"])
            .unwrap_err()
            .contains("compared with itself")
    );
}

#[test]
fn what_a_tuple_chose_reads_back_from_its_tidy_columns() {
    let shown: Vec<String> = ["x", "y", "z"].map(String::from).to_vec();
    let upper = |s: &str| s.to_uppercase();
    let records = [
        PreferenceRecord::Best {
            position: 2,
            label: "B".into(),
            system: "y".into(),
        },
        PreferenceRecord::Rank {
            systems: vec!["z".into(), "x".into(), "y".into()],
            labels: vec![],
        },
        PreferenceRecord::BestWorst {
            best: Some(picked(1, "x")),
            worst: Some(picked(3, "z")),
        },
    ];
    for record in &records {
        let chosen = record.chosen(3, |s| s.to_owned()).unwrap();
        let (choice, value) = chosen.encode();
        assert_eq!(Chosen::decode(choice, &value, &shown), Ok(chosen.clone()));
        assert!(
            !record
                .chosen(3, upper)
                .unwrap()
                .describe(|s| s.to_owned())
                .is_empty()
        );
    }
    assert_eq!(
        records[2]
            .chosen(3, |s| s.to_owned())
            .unwrap()
            .describe(|s| format!("<{s}>")),
        "best <x>, worst <z>"
    );
    // A pair's best, an unfinished best–worst: no choice of the whole tuple.
    assert_eq!(records[0].chosen(2, |s| s.to_owned()), None);
    let unfinished = PreferenceRecord::BestWorst {
        best: Some(picked(1, "x")),
        worst: None,
    };
    assert_eq!(unfinished.chosen(3, |s| s.to_owned()), None);
    for (choice, value, says) in [
        ("best", "w", "not one of the systems shown"),
        ("rank", "x|y", "does not rank exactly"),
        ("best_worst", "x|x", "two different systems"),
        ("worst", "x", "not best, rank or best_worst"),
    ] {
        let e = Chosen::decode(choice, value, &shown).unwrap_err();
        assert!(e.contains(says), "{choice}: {e}");
    }
}
