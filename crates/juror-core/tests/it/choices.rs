//! Best-of-N choices and rankings as made (`analysis::choices`): each choice counted once, the
//! shares, the test against equal shares and the agreement on the chosen system built from the
//! right table; mean ranks and Friedman over complete rankings. The statistics themselves are
//! checked against scipy and statsmodels in `tests/it/nominal.rs`, `tests/it/agreement.rs` and
//! `tests/it/preference.rs`; here, that the report feeds them the right numbers.

use juror_core::analysis::choices::{ChoiceRow, Chosen, report};
use juror_core::analysis::{Context, Source, read};
use juror_core::stats::agreement::{Metric, Ratings, fleiss_kappa, krippendorff_alpha};
use juror_core::stats::nominal::{chi_square_equal, friedman, multinomial_exact_equal};

use crate::support::input;

fn row(item: &str, annotator: &str, shown: &[&str], kind: Chosen) -> ChoiceRow {
    ChoiceRow {
        source: Source {
            file: "f.json".into(),
            at: String::new().into(),
            input: 0,
        },
        item: item.into(),
        annotator: annotator.into(),
        shown: shown.iter().map(|s| (*s).to_owned()).collect(),
        kind,
    }
}

/// work-intake's best of four: 18 choices are 18 judgements, not 54 pairwise wins; the shares,
/// the test and the agreement are those of the chosen systems.
#[test]
fn best_of_four_counts_each_choice_once() {
    let data = read(
        &[
            input("work-intake-slot1.json"),
            input("work-intake-slot2.json"),
        ],
        &Context::default(),
    );
    assert!(data.problems.is_empty(), "{:?}", data.problems);
    assert_eq!(data.choices.len(), 18, "one choice per finished trial");
    let derived = data.preferences.iter().filter(|p| p.derived).count();
    assert_eq!(
        derived,
        18 * 3,
        "each choice also gives three derived pairwise wins"
    );

    let r = report(&data.choices, 1, 200).and_then(|c| c.best);
    let Some(best) = r else {
        panic!("a best-of-N report");
    };
    assert_eq!(best.choices, 18);
    let chosen: Vec<u64> = best.systems.iter().map(|s| s.chosen).collect();
    assert_eq!(chosen.iter().sum::<u64>(), 18);
    assert!(best.systems.iter().all(|s| s.offered == 18));
    // The same counts, straight from the rows.
    for s in &best.systems {
        let n = data
            .choices
            .iter()
            .filter(|c| c.kind == Chosen::Best(s.system.clone()))
            .count() as u64;
        assert_eq!(s.chosen, n, "{}", s.system);
        assert_eq!(s.share, Some(n as f64 / 18.0));
    }
    let chi = chi_square_equal(&chosen).unwrap();
    assert_eq!(best.chi_square.map(|c| c.p_value), Some(chi.p_value));
    assert_eq!(best.exact_p, multinomial_exact_equal(&chosen).ok());

    // Agreement: items × annotators, the value the chosen system.
    let systems: Vec<&str> = best.systems.iter().map(|s| s.system.as_str()).collect();
    let triples = data.choices.iter().map(|c| {
        let Chosen::Best(s) = &c.kind else {
            panic!("best only")
        };
        let i = systems.iter().position(|x| x == s).unwrap();
        (c.item.clone(), c.annotator.clone(), i as f64)
    });
    let ratings = Ratings::from_triples(triples).unwrap();
    assert_eq!(best.agreement.fleiss_kappa, fleiss_kappa(&ratings));
    assert_eq!(
        best.agreement.krippendorff_alpha_nominal,
        krippendorff_alpha(&ratings, Metric::Nominal)
    );
    assert_eq!(
        best.agreement.units, 9,
        "nine items chosen on by both annotators"
    );
}

/// Rankings: mean ranks by hand, Friedman on the complete rankings only.
#[test]
fn rankings_give_mean_ranks_and_friedman() {
    let rank = |order: &[&str]| Chosen::Rank(order.iter().map(|s| (*s).to_owned()).collect());
    let abc = ["a", "b", "c"];
    let rows = vec![
        row("i1", "p1", &abc, rank(&["a", "b", "c"])),
        row("i1", "p2", &abc, rank(&["a", "c", "b"])),
        row("i2", "p1", &abc, rank(&["b", "a", "c"])),
        row("i2", "p2", &abc, rank(&["a", "b", "c"])),
        // Only two systems shown: in the mean ranks, not in Friedman.
        row("i3", "p1", &["a", "c"], rank(&["c", "a"])),
    ];
    let Some(r) = report(&rows, 1, 200).and_then(|c| c.ranks) else {
        panic!("a rank report");
    };
    assert_eq!(r.rankings, 5);
    let means: Vec<(String, f64, usize)> = r
        .systems
        .iter()
        .map(|s| (s.system.clone(), s.mean_rank, s.n))
        .collect();
    assert_eq!(
        means,
        [
            ("a".to_owned(), (1.0 + 1.0 + 2.0 + 1.0 + 2.0) / 5.0, 5),
            ("b".to_owned(), (2.0 + 3.0 + 1.0 + 2.0) / 4.0, 4),
            ("c".to_owned(), (3.0 + 2.0 + 3.0 + 3.0 + 1.0) / 5.0, 5),
        ]
    );
    let blocks = vec![
        vec![1.0, 2.0, 3.0],
        vec![1.0, 3.0, 2.0],
        vec![2.0, 1.0, 3.0],
        vec![1.0, 2.0, 3.0],
    ];
    let f = friedman(&blocks).unwrap();
    let got = r.friedman.unwrap();
    assert_eq!(
        (got.blocks, got.statistic, got.p_value),
        (4, f.statistic, f.p_value)
    );
    assert_eq!(got.kendall_w, f.kendall_w);
    assert_eq!(r.notes.len(), 1, "{:?}", r.notes);
    // Identical rankings: perfect concordance.
    let same: Vec<ChoiceRow> = (0..4)
        .map(|p| row("i", &format!("p{p}"), &abc, rank(&abc)))
        .collect();
    let w = report(&same, 1, 200)
        .and_then(|c| c.ranks)
        .and_then(|r| r.friedman);
    assert!(
        w.is_some_and(|f| (f.kendall_w - 1.0).abs() < 1e-12),
        "{w:?}"
    );
    assert_eq!(report(&[], 1, 200), None);
}

/// Different sets offered: shares still, no test against equal shares, and the report says why.
#[test]
fn choices_among_different_sets_are_not_tested_for_equal_shares() {
    let rows = vec![
        row("i1", "p1", &["a", "b", "c"], Chosen::Best("a".into())),
        row("i2", "p1", &["a", "b", "d"], Chosen::Best("d".into())),
    ];
    let Some(best) = report(&rows, 1, 200).and_then(|c| c.best) else {
        panic!("a best-of-N report");
    };
    assert_eq!(best.chi_square, None);
    assert_eq!(best.notes.len(), 1);
    let d = best.systems.iter().find(|s| s.system == "d").unwrap();
    assert_eq!((d.offered, d.chosen), (1, 1));
}
