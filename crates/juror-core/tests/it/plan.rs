//! Plans: properties over random designs (proptest), golden plans for every example study, and
//! blinding of the rater's view.

use std::path::{Path, PathBuf};

use juror_core::plan::{
    Annotator, Format, Plan, Planner, balance, plan, resolve_annotator, trials_per_slot,
};
use juror_core::publish as seal;
use juror_core::study::raw::*;
use juror_core::study::{Study, parse_study, validate};
use proptest::prelude::*;

use crate::support;

fn scale() -> RawScale {
    RawScale {
        kind: None,
        min: 1,
        max: 3,
        step: None,
        labels: RawScaleLabels::All,
        points: (1..=3)
            .map(|v| RawScalePoint {
                value: v,
                label: format!("p{v}"),
                description: None,
            })
            .collect(),
    }
}

/// Which pairs a `pairs` design compares.
#[derive(Debug, Clone, PartialEq)]
enum Pairs {
    /// No `pairs` field: every pair.
    All,
    /// The last system against each other.
    Anchor,
    /// These pairs of system indices, as written (distinct systems, no pair twice).
    List(Vec<(usize, usize)>),
}

/// A pairs list from arbitrary index pairs: taken modulo `n`, self-pairs and repeats (in either
/// order) dropped; never empty.
fn pair_list(n: usize, raw: &[(usize, usize)]) -> Vec<(usize, usize)> {
    let mut list: Vec<(usize, usize)> = Vec::new();
    for &(a, b) in raw {
        let (a, b) = (a % n, b % n);
        if a != b
            && !list
                .iter()
                .any(|&(x, y)| (x, y) == (a, b) || (x, y) == (b, a))
        {
            list.push((a, b));
        }
    }
    if list.is_empty() {
        list.push((n - 1, 0));
    }
    list
}

#[derive(Debug, Clone)]
struct Design {
    systems: usize,
    items: usize,
    presentation: RawPresentation,
    pairs: Pairs,
    order: RawOrder,
    labels: RawLabels,
    assignment: Option<(u32, u32)>,
    checks: usize,
    seed: u64,
}

fn design() -> impl Strategy<Value = Design> {
    (
        2usize..=6,
        1usize..=24,
        prop_oneof![
            Just(RawPresentation::Single),
            Just(RawPresentation::Pairs),
            Just(RawPresentation::SideBySide)
        ],
        (
            0u8..3,
            proptest::collection::vec((0usize..6, 0usize..6), 1..10),
        ),
        prop_oneof![
            Just(RawOrder::Shuffled),
            Just(RawOrder::Fixed),
            Just(RawOrder::SystemBlocks)
        ],
        prop_oneof![Just(RawLabels::PerTrial), Just(RawLabels::PerAnnotator)],
        proptest::option::of((1u32..=9, 1u32..=9)),
        0usize..=2,
        any::<u64>(),
    )
        .prop_map(
            |(
                systems,
                items,
                presentation,
                (kind, raw_pairs),
                order,
                labels,
                assignment,
                checks,
                seed,
            )| {
                let order =
                    if presentation != RawPresentation::Single && order == RawOrder::SystemBlocks {
                        RawOrder::Shuffled
                    } else {
                        order
                    };
                Design {
                    systems,
                    items,
                    presentation,
                    pairs: match (presentation, kind) {
                        (RawPresentation::Pairs, 1) => Pairs::Anchor,
                        (RawPresentation::Pairs, 2) => Pairs::List(pair_list(systems, &raw_pairs)),
                        _ => Pairs::All,
                    },
                    order,
                    labels,
                    assignment: assignment.map(|(n, k)| (n, k.min(n))),
                    checks: checks.min(items),
                    seed,
                }
            },
        )
}

/// A study for a design; system ids are distinctive tokens so that a leak is easy to spot.
fn study_for(d: &Design) -> Study {
    validate(&raw_for(d)).unwrap_or_else(|p| panic!("{p}"))
}

/// The study file of a design, as written.
fn raw_for(d: &Design) -> RawStudy {
    let systems: Vec<String> = (0..d.systems).map(|s| format!("SYSTEM-ID-{s}-x")).collect();
    RawStudy {
        metadata: None,
        schema: None,
        analysis: None,
        format: STUDY_FORMAT_V1.to_owned(),
        id: "prop".to_owned(),
        title: "Property study".to_owned(),
        description: None,
        instructions: None,
        consent: None,
        estimated_minutes: None,
        contact: None,
        debrief: None,
        completion: None,
        submit: None,
        seed: d.seed,
        systems: systems.clone(),
        rubric: RawRubric {
            dimensions: vec![RawDimension {
                id: "q".to_owned(),
                label: "Quality".to_owned(),
                question: "How good?".to_owned(),
                scale: scale(),
                required: true,
                allow_skip: false,
            }],
            output_questions: Vec::new(),
            examples: Vec::new(),
            look_for: Vec::new(),
            avoid: Vec::new(),
        },
        design: RawDesign {
            labels: d.labels,
            label_format: "Output {}".to_owned(),
            assignment: d.assignment.map(|(slots, k)| RawAssignment {
                slots,
                annotators_per_item: k,
            }),
            attention_checks: (0..d.checks)
                .map(|c| RawAttentionCheck::Rating {
                    item: format!("item-{c}"),
                    // A system the task shows: a pairs list may leave system 0 out.
                    system: match &d.pairs {
                        Pairs::List(list) => systems[list[0].0].clone(),
                        _ => systems[0].clone(),
                    },
                    dimension: "q".to_owned(),
                    accept: Some(vec![1]),
                })
                .collect(),
            plans: None,
            personal_plans: None,
            tasks: vec![RawTask {
                id: "t".to_owned(),
                labels: None,
                label_format: None,
                estimated_minutes: None,
                spans: None,
                plain_text: false,
                title: None,
                instructions: None,
                presentation: d.presentation,
                pairs: match &d.pairs {
                    Pairs::All => None,
                    Pairs::Anchor => Some(RawPairs {
                        anchor: Some(systems[d.systems - 1].clone()),
                        list: None,
                        spread: false,
                    }),
                    Pairs::List(list) => Some(RawPairs {
                        anchor: None,
                        spread: false,
                        list: Some(
                            list.iter()
                                .map(|&(a, b)| [systems[a].clone(), systems[b].clone()])
                                .collect(),
                        ),
                    }),
                },
                dimensions: None,
                output_questions: None,
                preference: None,
                notes: RawRequirement::Optional,
                flag: None,
                order: d.order,
                items: None,
            }],
        },
        surveys: RawSurveys::default(),
        items: (0..d.items)
            .map(|i| RawItem {
                id: format!("item-{i}"),
                group: None,
                groups: Default::default(),
                round: Some((i % 3) as u32),
                prompt: format!("Prompt {i}"),
                context: None,
                media: None,
                outputs: systems
                    .iter()
                    .map(|s| (s.clone(), format!("Output of item {i}")))
                    .collect(),
                for_annotators: Vec::new(),
            })
            .collect(),
    }
}

/// 200 cases by default; `PROPTEST_CASES=5000` for a longer search.
fn cases() -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(200)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases()))]

    #[test]
    fn every_bound_holds(d in design()) {
        let study = study_for(&d);
        let report = balance::check(&study);
        prop_assert!(report.violations.is_empty(), "{d:?}\n{}", report.render(&study));
        // A shuffled task never has more trials of one item back to back than it must.
        if d.order == RawOrder::Shuffled {
            let slots = juror_core::plan::slots(&study).unwrap_or(2).min(4);
            for slot in 1..=slots {
                let plan = plan(&study, &Annotator::slot(slot));
                let items: Vec<usize> =
                    plan.trials.iter().filter(|t| !t.check).map(|t| t.item).collect();
                let repeats = items.windows(2).filter(|w| w[0] == w[1]).count();
                prop_assert!(
                    repeats <= fewest_repeats(&items),
                    "slot {slot}: {repeats} repeats, {} needed: {items:?}",
                    fewest_repeats(&items)
                );
            }
        }
        if let Some((slots, k)) = d.assignment {
            // Every non-check item goes to exactly k slots; loads within one.
            let n_checks = d.checks;
            for (i, &r) in report.raters_per_item.iter().enumerate() {
                let want = if i < n_checks { slots as usize } else { k as usize };
                prop_assert_eq!(r, want);
            }
            let loads: Vec<usize> = report.items_per_slot.iter().map(|l| l - n_checks).collect();
            prop_assert!(loads.iter().max().unwrap() - loads.iter().min().unwrap() <= 1);
            // Pairs of slots share items evenly. Exact evenness is not always possible (10
            // items, 8 slots, 6 per item forces a spread of 3: see docs/counterbalancing.md), and
            // the greedy choice plus local search can leave 4 (15 items, 2 of them checks, 8
            // slots, 6 per item: in plan.proptest-regressions), so the bound is a spread of at
            // most 4. Plans cannot change to tighten it: saved progress is tied to them.
            if let Some((lo, hi)) = report.overlap_range() {
                prop_assert!(hi - lo <= 4, "overlap {lo}..{hi}");
            }
        }
    }

    /// A pairs list: in every slot's plan, each item of the slot shows each listed pair exactly
    /// once and no other pair, and each pair is shown in both orders equally often (within one)
    /// in every slot and over all slots.
    #[test]
    fn listed_pairs_are_each_shown_once_per_item_in_balanced_orders(d in design().prop_map(|mut d| {
        d.presentation = RawPresentation::Pairs;
        if d.order == RawOrder::SystemBlocks {
            d.order = RawOrder::Shuffled;
        }
        if !matches!(d.pairs, Pairs::List(_)) {
            let n = d.systems;
            d.pairs = Pairs::List(pair_list(n, &[(n - 1, 0), (1, n - 1)]));
        }
        d
    })) {
        let Pairs::List(list) = d.pairs.clone() else { unreachable!() };
        let study = study_for(&d);
        let unordered = |a: usize, b: usize| (a.min(b), a.max(b));
        let mut want: Vec<(usize, usize)> = list.iter().map(|&(a, b)| unordered(a, b)).collect();
        want.sort_unstable();
        let slots = juror_core::plan::slots(&study).unwrap_or_else(|| juror_core::plan::period(&study));
        // first_shown[k]: over all slots, how often pair k's first system was shown first.
        let mut total = vec![(0usize, 0usize); list.len()];
        for slot in 1..=slots {
            let p = plan(&study, &Annotator::slot(slot));
            let mut by_item: std::collections::BTreeMap<usize, Vec<(usize, usize)>> = Default::default();
            let mut orders = vec![(0usize, 0usize); list.len()];
            for t in &p.trials {
                prop_assert_eq!(t.shown.len(), 2);
                let (x, y) = (t.shown[0].system, t.shown[1].system);
                by_item.entry(t.item).or_default().push(unordered(x, y));
                let k = list.iter().position(|&(a, b)| unordered(a, b) == unordered(x, y));
                prop_assert!(k.is_some(), "slot {slot}: pair ({x}, {y}) is not listed");
                let k = k.unwrap_or_default();
                if x == list[k].0 { orders[k].0 += 1 } else { orders[k].1 += 1 }
            }
            for (item, mut shown) in by_item {
                shown.sort_unstable();
                prop_assert_eq!(&shown, &want, "slot {} item {}", slot, item);
            }
            for (k, &(first, second)) in orders.iter().enumerate() {
                prop_assert!(first.abs_diff(second) <= 1, "slot {slot}, pair {k}: {first} and {second}");
                total[k].0 += first;
                total[k].1 += second;
            }
        }
        for (k, &(first, second)) in total.iter().enumerate() {
            prop_assert!(first.abs_diff(second) <= 1, "all slots, pair {k}: {first} and {second}");
        }
    }

    #[test]
    fn plans_are_deterministic(d in design(), slot in 1u32..=9) {
        let study = study_for(&d);
        let slot = d.assignment.map_or(slot, |(n, _)| slot.min(n));
        let who = Annotator::slot(slot);
        prop_assert_eq!(plan(&study, &who), plan(&study, &who));
    }

    /// Side by side, the order of the outputs is balanced but not periodic: an annotator who
    /// recognises one system cannot predict where it will be next (it once repeated every n
    /// trials). A period `p` is tested where at least four (n = 3: seven) runs of n trials are
    /// compared, so that a chance repeat of a random order is out of reach (< 1e-5).
    #[test]
    fn side_by_side_orders_are_not_periodic(d in design().prop_map(|mut d| {
        d.presentation = RawPresentation::SideBySide;
        d.systems = d.systems.max(3);
        d.pairs = Pairs::All;
        if d.order == RawOrder::SystemBlocks {
            d.order = RawOrder::Shuffled;
        }
        d
    }), slot in 1u32..=9) {
        let study = study_for(&d);
        let n = d.systems;
        let slot = d.assignment.map_or(slot, |(slots, _)| slot.min(slots));
        let orders: Vec<Vec<usize>> = plan(&study, &Annotator::slot(slot))
            .trials
            .iter()
            .map(|t| t.shown.iter().map(|s| s.system).collect())
            .collect();
        let runs = if n == 3 { 7 } else { 4 };
        for p in 1..orders.len() {
            if orders.len() - p < runs * n {
                break;
            }
            let periodic = (0..orders.len() - p).all(|k| orders[k] == orders[k + p]);
            prop_assert!(!periodic, "period {p}: {orders:?}");
        }
    }

    #[test]
    fn trials_per_slot_counts_each_slots_plan(d in design()) {
        let study = study_for(&d);
        let counts = trials_per_slot(&study);
        prop_assert_eq!(counts.len(), d.assignment.map_or(1, |(n, _)| n as usize));
        for (i, &count) in counts.iter().enumerate() {
            let p = plan(&study, &Annotator::slot(i as u32 + 1));
            prop_assert_eq!(count, p.trials.len(), "slot {}", i + 1);
        }
        if d.assignment.is_none() {
            prop_assert_eq!(counts[0], study.trials_per_annotator());
        }
    }

    #[test]
    fn no_system_id_reaches_the_view(d in design(), slot in 1u32..=9) {
        let study = study_for(&d);
        let slot = d.assignment.map_or(slot, |(n, _)| slot.min(n));
        let p = plan(&study, &Annotator::slot(slot));
        let json = serde_json::to_string(&p.views(&study)).unwrap();
        prop_assert!(!json.contains("SYSTEM-ID"), "{json}");
    }

    #[test]
    fn checks_are_spread_out(d in design().prop_map(|mut d| {
        d.checks = d.items.min(2);
        if d.order == RawOrder::SystemBlocks {
            d.order = RawOrder::Shuffled;
        }
        d
    })) {
        let study = study_for(&d);
        let p = plan(&study, &Annotator::slot(1));
        let at: Vec<usize> = p.trials.iter().enumerate().filter(|(_, t)| t.check).map(|(i, _)| i).collect();
        // With c check trials among T, the i-th sits at floor((2i + 1) T / 2c).
        let (c, total) = (at.len(), p.trials.len());
        prop_assert!(c > 0);
        let targets: Vec<usize> = (0..c).map(|i| (2 * i + 1) * total / (2 * c)).collect();
        prop_assert_eq!(at, targets);
    }
}

fn examples() -> Vec<(String, Study)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets/studies");
    let mut out: Vec<(String, Study)> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .map(|p| {
            let name = p.file_stem().unwrap().to_string_lossy().into_owned();
            let study = parse_study(&std::fs::read_to_string(&p).unwrap()).unwrap();
            (name, study)
        })
        .collect();
    out.sort_by(|a, b| a.0.cmp(&b.0));
    assert!(
        out.len() >= 6,
        "{}: expected the six example studies, found {}",
        dir.display(),
        out.len()
    );
    out
}

fn golden_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/plans")
}

/// The plans of slots 1 to 3 of every example study are frozen, in every plan format
/// (`tests/golden/plans/v1`, `…/v2`): progress saved under a format is continued on its plan, so a
/// format's plans never change. A planner that plans differently is a new [`Format`]; only its
/// own goldens are made with JUROR_BLESS=1.
#[test]
fn golden_plans_of_the_example_studies() {
    let bless = support::bless();
    for format in Format::ALL {
        let dir = golden_dir().join(format!("{format:?}").to_lowercase());
        std::fs::create_dir_all(&dir).unwrap();
        for (name, study) in examples() {
            let planner = Planner::new(&study);
            let mut text = String::new();
            for slot in 1..=3 {
                text.push_str(
                    &planner
                        .plan_as(&Annotator::slot(slot), format)
                        .table(&study),
                );
                text.push('\n');
            }
            let path = dir.join(format!("{name}.txt"));
            if bless && format == Format::CURRENT {
                std::fs::write(&path, &text).unwrap();
            }
            let golden = std::fs::read_to_string(&path).unwrap_or_default();
            assert!(
                golden == text,
                "{name}: the {format:?} plan changed (see {})",
                path.display()
            );
        }
    }
}

#[test]
fn every_example_study_is_balanced() {
    for (name, study) in examples() {
        let report = balance::check(&study);
        assert!(
            report.violations.is_empty(),
            "{name}:\n{}",
            report.render(&study)
        );
    }
}

/// Every trial of every slot of every example, and of every annotator id its personal items are
/// for, rendered to the rater's view, holds no system id. The examples' ids ("rag", "random",
/// ...) could appear in ordinary text, so each study is first sealed: its systems become tokens
/// that appear nowhere else, and then none may appear in any view.
#[test]
fn no_system_id_reaches_the_rater_view_of_any_example() {
    for (name, study) in examples() {
        let path =
            Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("../../assets/studies/{name}.json"));
        let raw: RawStudy = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        let (sealed, key) = seal::seal(&raw, &[7; 32]);
        let sealed = validate(&sealed).unwrap();
        let slots =
            juror_core::plan::slots(&sealed).unwrap_or_else(|| juror_core::plan::period(&sealed));
        let mut ids: Vec<String> = Vec::new();
        for item in &raw.items {
            for a in &item.for_annotators {
                if let RawAnnotatorRef::Id(id) = a
                    && !ids.contains(id)
                {
                    ids.push(id.clone());
                }
            }
        }
        let annotators = (1..=slots)
            .map(Annotator::slot)
            .chain(ids.iter().map(|id| Annotator {
                slot: 1,
                id: Some(id.clone()),
                platform: None,
            }));
        let mut views = 0;
        for annotator in annotators {
            let p = plan(&sealed, &annotator);
            for view in p.views(&sealed) {
                let json = serde_json::to_string(&view).unwrap();
                for token in key.systems.keys() {
                    assert!(!json.contains(token.as_str()), "{name}: {token} in {json}");
                }
                views += 1;
            }
        }
        assert!(views >= study.trials_per_annotator(), "{name}");
    }
}

#[test]
fn hare_blocks_follow_a_williams_design_across_four_participants() {
    let (_, study) = examples()
        .into_iter()
        .find(|(n, _)| n == "hare-personalization")
        .unwrap();
    let orders: Vec<Vec<usize>> = (1..=4)
        .map(|slot| {
            let p = plan(&study, &Annotator::slot(slot));
            let mut blocks: Vec<usize> = Vec::new();
            for t in p.trials.iter().filter(|t| t.task == 0) {
                if blocks.last() != Some(&t.shown[0].system) {
                    blocks.push(t.shown[0].system);
                }
            }
            blocks
        })
        .collect();
    // Each system leads once, and each ordered pair is adjacent exactly once.
    let mut adjacent = [[0; 4]; 4];
    for o in &orders {
        assert_eq!(o.len(), 4);
        for w in o.windows(2) {
            adjacent[w[0]][w[1]] += 1;
        }
    }
    let mut first: Vec<usize> = orders.iter().map(|o| o[0]).collect();
    first.sort_unstable();
    assert_eq!(first, [0, 1, 2, 3]);
    for (a, row) in adjacent.iter().enumerate() {
        for (b, &count) in row.iter().enumerate() {
            assert_eq!(count, usize::from(a != b), "{orders:?}");
        }
    }
}

/// The personalisation study's comparison round is blind to which letter is the focal method: with its own
/// per-trial labels ("Option A/B") the focal system takes each position's letter about as often
/// as the other, in every slot, while the rounds keep each system's per-annotator letter; the
/// exit ranking still names the rounds' letters.
#[test]
fn the_comparison_round_does_not_give_the_focal_system_a_letter() {
    let (_, study) = examples()
        .into_iter()
        .find(|(n, _)| n == "hare-personalization")
        .unwrap();
    let hare = study.systems().iter().position(|s| s == "hare").unwrap();
    for slot in 1..=8 {
        let p = plan(&study, &Annotator::slot(slot));
        let mut letters = std::collections::BTreeMap::<&str, usize>::new();
        let mut rounds = std::collections::BTreeMap::<usize, &str>::new();
        for t in &p.trials {
            for (position, shown) in t.shown.iter().enumerate() {
                if t.task == 1 {
                    assert_eq!(shown.label, ["Option A", "Option B"][position]);
                    if shown.system == hare {
                        *letters.entry(&shown.label).or_default() += 1;
                    }
                } else {
                    let first = rounds.entry(shown.system).or_insert(&shown.label);
                    assert_eq!(*first, shown.label, "slot {slot}: one letter per system");
                    assert!(shown.label.starts_with("System "));
                }
            }
        }
        let (a, b) = (letters["Option A"], letters["Option B"]);
        assert!(
            a.abs_diff(b) <= 1,
            "slot {slot}: hare is Option A {a}, Option B {b} times"
        );
    }
    assert_eq!(study.design().system_label(2), "System C");
}

#[test]
fn annotators_resolve_from_slot_or_id() {
    let (_, study) = examples()
        .into_iter()
        .find(|(n, _)| n == "reasoning-trajectories")
        .unwrap();
    assert_eq!(resolve_annotator(&study, Some("3"), None).unwrap().slot, 3);
    let by_id = resolve_annotator(&study, None, Some("PROLIFIC-xyz")).unwrap();
    assert_eq!(
        by_id,
        resolve_annotator(&study, None, Some("PROLIFIC-xyz")).unwrap()
    );
    assert!((1..=9).contains(&by_id.slot));
    // A code typed with other capitals or spaces is the same annotator, with the same plan and
    // the same saved answers.
    assert_eq!(by_id.id.as_deref(), Some("prolific-xyz"));
    for typed in ["prolific-XYZ", " PROLIFIC - xyz ", "Prolific-xyz\t"] {
        assert_eq!(
            resolve_annotator(&study, None, Some(typed)).unwrap(),
            by_id,
            "{typed:?}"
        );
    }
    assert!(resolve_annotator(&study, None, Some("  ")).is_err());
    let both = resolve_annotator(&study, Some("2"), Some("ann")).unwrap();
    assert_eq!((both.slot, both.id.as_deref()), (2, Some("ann")));
    for bad in ["0", "10", "two", "-1"] {
        let e = resolve_annotator(&study, Some(bad), None).unwrap_err();
        assert_eq!(e.at, "slot");
        assert!(e.fix.contains("1 to 9"), "{e}");
    }
    assert!(resolve_annotator(&study, None, None).is_err());
}

/// With per-annotator labels a letter stands for one system all study long (the HARE study's exit
/// survey asks annotators to rank the letters), so an output shown alone is headed by its
/// letter; with per-trial labels a lone output's letter means nothing and it is headed
/// "Output". Side by side and in pairs, every output is headed by its label.
#[test]
fn outputs_are_headed_by_their_letter_where_the_letter_means_something() {
    use juror_core::study::LabelScheme;
    let mut lone_lettered = 0;
    for (name, study) in examples() {
        for slot in 1..=3 {
            let p = plan(&study, &Annotator::slot(slot));
            for (trial, view) in p.trials.iter().zip(p.views(&study)) {
                for output in &view.outputs {
                    let alone = trial.shown.len() == 1;
                    if alone && study.design().tasks[trial.task].labels == LabelScheme::PerTrial {
                        assert_eq!(output.heading, "Output", "{name}");
                    } else {
                        assert_eq!(output.heading, output.label, "{name}");
                        assert!(output.heading.len() > "Output".len(), "{name}");
                        lone_lettered += usize::from(alone);
                    }
                }
            }
        }
    }
    assert!(
        lone_lettered > 0,
        "the HARE example shows lone outputs with letters"
    );
}

/// A study published by `juror publish` serves each slot the plan the original study gives
/// that slot: the same items in the same order, the same labels at the same positions, each
/// output under its own item's token for the same system, and no trial marked as a check.
#[test]
fn a_published_study_serves_the_original_plans_under_item_tokens() {
    for (name, original) in examples() {
        let text = std::fs::read_to_string(
            Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("../../assets/studies/{name}.json")),
        )
        .unwrap();
        let raw: RawStudy = serde_json::from_str(&text).unwrap();
        let slots = juror_core::plan::slots(&original).unwrap_or(4);
        let (published_raw, key) = seal::publish(&raw, &original, &[3u8; 32], slots, &[]);
        let published = validate(&published_raw).unwrap_or_else(|p| panic!("{name}: {p}"));
        assert_eq!(juror_core::plan::slots(&published), Some(slots), "{name}");
        assert_eq!(published.system_count(), original.systems().len(), "{name}");
        assert_eq!(
            trials_per_slot(&published),
            (1..=slots)
                .map(|slot| plan(&original, &Annotator::slot(slot)).trials.len())
                .collect::<Vec<_>>(),
            "{name}"
        );
        for slot in 1..=slots {
            let who = Annotator::slot(slot);
            let (want, got) = (plan(&original, &who), plan(&published, &who));
            assert_eq!(got.trials.len(), want.trials.len(), "{name} slot {slot}");
            for (w, g) in want.trials.iter().zip(&got.trials) {
                assert_eq!((g.task, g.item, g.check), (w.task, w.item, false), "{name}");
                let item = &published.items()[g.item];
                for (ws, gs) in w.shown.iter().zip(&g.shown) {
                    assert_eq!(gs.label, ws.label, "{name}");
                    let token = &published.systems()[gs.system];
                    assert!(item.outputs.contains_key(token), "{name}: {token}");
                    assert_eq!(key.systems[token], original.systems()[ws.system], "{name}");
                }
            }
        }
        // Nothing of the original's systems is left in what is served.
        let served = serde_json::to_string(&published_raw).unwrap();
        for system in original.systems() {
            assert!(
                !served.contains(&format!("\"{system}\"")),
                "{name}: {system}"
            );
        }
    }
}

/// Sealing renames the systems of a task's pairs, anchor and list alike: the sealed study names
/// each listed pair by its tokens, validates, and compares the same pairs on the same items.
#[test]
fn sealing_renames_the_pairs_of_a_task() {
    let read = |name: &str| -> RawStudy {
        let path =
            Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("../../assets/studies/{name}.json"));
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
    };

    let raw = read("reasoning-trajectories");
    let list = raw.design.tasks[0].pairs.clone().unwrap().list.unwrap();
    assert_eq!(
        list.len(),
        3,
        "reasoning-trajectories lists the three pairs its hypotheses compare"
    );
    let (sealed, key) = seal::seal(&raw, &[9; 32]);
    let sealed_list = sealed.design.tasks[0].pairs.clone().unwrap().list.unwrap();
    let back: Vec<[String; 2]> = sealed_list
        .iter()
        .map(|[a, b]| [key.systems[a].clone(), key.systems[b].clone()])
        .collect();
    assert_eq!(back, list);
    for [a, b] in &sealed_list {
        assert!(seal::is_sealed(&[a.clone(), b.clone()]), "{a} {b}");
    }

    let original = validate(&raw).unwrap();
    let sealed = validate(&sealed).unwrap_or_else(|p| panic!("{p}"));
    let pairs = |study: &Study, rename: &dyn Fn(&str) -> String| {
        let mut out: Vec<(String, Vec<String>)> = (1..=3)
            .flat_map(|slot| plan(study, &Annotator::slot(slot)).trials)
            .map(|t| {
                let mut shown: Vec<String> = t
                    .shown
                    .iter()
                    .map(|s| rename(&study.systems()[s.system]))
                    .collect();
                shown.sort();
                (study.items()[t.item].id.clone(), shown)
            })
            .collect();
        out.sort();
        out
    };
    assert_eq!(
        pairs(&sealed, &|token| key.systems[token].clone()),
        pairs(&original, &|id| id.to_owned())
    );

    let raw = read("hare-personalization");
    let (sealed, key) = seal::seal(&raw, &[9; 32]);
    let anchor = sealed.design.tasks[1]
        .pairs
        .clone()
        .unwrap()
        .anchor
        .unwrap();
    assert_eq!(key.systems[&anchor], "hare");
}

/// A study with personal items (outputs generated per participant, as in the HARE study): two shared
/// items for everyone through the assignment, and items `for` slot 1, slot 2, and the
/// annotator id "p07" (whatever their slot).
fn personal_study() -> Study {
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/valid/minimal.json"),
    )
    .unwrap_or_default();
    let mut raw: RawStudy = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}"));
    raw.design.assignment = Some(RawAssignment {
        slots: 3,
        annotators_per_item: 3,
    });
    let template = raw.items[0].clone();
    let item = |id: &str, for_annotators: Vec<RawAnnotatorRef>| RawItem {
        id: id.to_owned(),
        for_annotators,
        ..template.clone()
    };
    raw.items = vec![
        item("shared-1", vec![]),
        item("shared-2", vec![]),
        item("mine-1", vec![RawAnnotatorRef::Slot(1)]),
        item(
            "mine-2",
            vec![RawAnnotatorRef::Slot(2), RawAnnotatorRef::Slot(1)],
        ),
        item("p07-only", vec![RawAnnotatorRef::Id("p07".into())]),
    ];
    validate(&raw).unwrap_or_else(|p| panic!("{p}"))
}

#[test]
fn personal_items_go_to_their_annotators_only() {
    let study = personal_study();
    let items_of = |slot: u32, id: Option<&str>| -> Vec<String> {
        let p = plan(
            &study,
            &Annotator {
                slot,
                id: id.map(str::to_owned),
                platform: None,
            },
        );
        let mut ids: Vec<String> = p
            .trials
            .iter()
            .map(|t| study.items()[t.item].id.clone())
            .collect();
        ids.sort();
        ids.dedup();
        ids
    };
    assert_eq!(
        items_of(1, None),
        ["mine-1", "mine-2", "shared-1", "shared-2"]
    );
    assert_eq!(items_of(2, None), ["mine-2", "shared-1", "shared-2"]);
    assert_eq!(items_of(3, None), ["shared-1", "shared-2"]);
    assert_eq!(
        items_of(3, Some("p07")),
        ["p07-only", "shared-1", "shared-2"]
    );
    // The same annotator gets the same plan everywhere.
    assert_eq!(
        plan(&study, &Annotator::slot(2)),
        plan(&study, &Annotator::slot(2))
    );
    assert_eq!(trials_per_slot(&study).len(), 3);
}

#[test]
fn personal_items_are_checked() {
    let study = personal_study();
    let text = serde_json::to_string(&{
        let t = std::fs::read_to_string(
            Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/valid/minimal.json"),
        )
        .unwrap_or_default();
        let mut raw: RawStudy = serde_json::from_str(&t).unwrap_or_else(|e| panic!("{e}"));
        raw.design.assignment = Some(RawAssignment {
            slots: 2,
            annotators_per_item: 1,
        });
        let template = raw.items[0].clone();
        raw.items = vec![
            RawItem {
                id: "a".into(),
                for_annotators: vec![RawAnnotatorRef::Slot(1), RawAnnotatorRef::Slot(5)],
                ..template.clone()
            },
            RawItem {
                id: "b".into(),
                for_annotators: vec![RawAnnotatorRef::Id(" ".into())],
                ..template
            },
        ];
        raw
    })
    .unwrap_or_default();
    let problems = parse_study(&text)
        .err()
        .map(|p| p.to_string())
        .unwrap_or_default();
    assert!(
        problems.contains("items[0].for[1]: slot 5, but the study has 2 slots"),
        "{problems}"
    );
    assert!(
        problems.contains("items[1].for[0]: the annotator id is empty"),
        "{problems}"
    );
    // Slot 2 would have nothing: a study whose every item is personal and none is for slot 2.
    let t = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/valid/minimal.json"),
    )
    .unwrap_or_default();
    let mut raw: RawStudy = serde_json::from_str(&t).unwrap_or_else(|e| panic!("{e}"));
    raw.design.assignment = Some(RawAssignment {
        slots: 2,
        annotators_per_item: 1,
    });
    for item in &mut raw.items {
        item.for_annotators = vec![RawAnnotatorRef::Slot(1)];
    }
    let problems = juror_core::front::open::open_raw(&raw, None)
        .err()
        .map(|p| p.to_string())
        .unwrap_or_default();
    assert!(
        problems.contains("design.assignment: slot(s) 2 would have nothing to rate"),
        "{problems}"
    );
    assert!(study.items()[2].is_personal() && !study.items()[0].is_personal());
}

/// `juror plan --check` on personal items: each reaches exactly the slots and ids it is for,
/// and shared-item loads are compared without them. A plan that gives a personal item to
/// someone else is caught.
#[test]
fn the_balance_check_knows_personal_items() {
    let study = personal_study();
    let report = balance::check(&study);
    assert!(report.violations.is_empty(), "{:?}", report.violations);
    assert_eq!(report.named, ["p07"]);
    let text = report.render(&study);
    assert!(
        text.contains("Personal items: 3, each checked against the slots and ids it is for (annotator ids planned: p07)"),
        "{text}"
    );
    let by_id = |id: &str| {
        study
            .items()
            .iter()
            .position(|it| it.id == id)
            .unwrap_or(usize::MAX)
    };
    assert_eq!(report.raters_per_item[by_id("mine-1")], 1);
    assert_eq!(report.raters_per_item[by_id("mine-2")], 2);
    assert_eq!(report.raters_per_item[by_id("p07-only")], 1);

    // Slot 3's plan with slot 1's personal item in it, and p07's plan without theirs.
    let mut plans: Vec<Plan> = (1..=3)
        .map(|slot| plan(&study, &Annotator::slot(slot)))
        .collect();
    let stolen = plans[0]
        .trials
        .iter()
        .find(|t| t.item == by_id("mine-1"))
        .cloned()
        .unwrap_or_else(|| panic!("slot 1 has mine-1"));
    plans[2].trials.push(stolen);
    let mut p07 = plan(
        &study,
        &resolve_annotator(&study, None, Some("p07")).unwrap_or_else(|p| panic!("{p}")),
    );
    p07.trials.retain(|t| t.item != by_id("p07-only"));
    plans.push(p07);
    let report = balance::check_plans(&study, &plans);
    for want in [
        "personal item \"mine-1\" is in the plan of slot 3, which it is not for",
        "personal item \"mine-1\" reaches 2 of its 1 annotator(s)",
        "personal item \"p07-only\" reaches 0 of its 1 annotator(s)",
    ] {
        assert!(
            report.violations.iter().any(|v| v == want),
            "{want}: {:?}",
            report.violations
        );
    }
}

/// `juror links`: one link per slot, with the platform's own placeholders for the participant's
/// id (Prolific's `{{%PROLIFIC_PID%}}`, SONA's `%SURVEY_CODE%`; MTurk adds its parameters itself).
#[test]
fn platform_links_carry_the_platforms_placeholders() {
    use juror_core::plan::{Platform, mturk_preview, platform_links};
    let (_, study) = examples()
        .into_iter()
        .find(|(n, _)| n == "reasoning-trajectories")
        .unwrap();
    let base = "https://you.github.io/juror/";
    let plain = platform_links(&study, base, "studies/r t.json", None);
    assert_eq!(plain.len(), 9);
    assert_eq!(
        plain[2],
        (
            3,
            "https://you.github.io/juror/index.html?study=studies/r%20t.json&slot=3".to_owned()
        )
    );
    let prolific = platform_links(&study, base, "studies/r.json", Platform::parse("Prolific"));
    assert!(prolific[0].1.ends_with(
        "&slot=1&PROLIFIC_PID={{%PROLIFIC_PID%}}&STUDY_ID={{%STUDY_ID%}}&SESSION_ID={{%SESSION_ID%}}"
    ));
    let sona = platform_links(&study, base, "studies/r.json", Platform::parse("sona"));
    assert!(sona[8].1.ends_with("&slot=9&id=%SURVEY_CODE%"));
    let mturk = platform_links(&study, base, "studies/r.json", Platform::parse("mturk"));
    assert!(mturk[0].1.ends_with("&slot=1"));
    assert_eq!(Platform::parse("qualtrics"), None);
    assert!(mturk_preview(Some("ASSIGNMENT_ID_NOT_AVAILABLE")));
    assert!(!mturk_preview(Some("3X4Y")) && !mturk_preview(None));
    use juror_core::plan::mturk_submit_url;
    assert_eq!(
        mturk_submit_url("https://workersandbox.mturk.com").as_deref(),
        Some("https://workersandbox.mturk.com/mturk/externalSubmit")
    );
    assert_eq!(
        mturk_submit_url("https://www.mturk.com/").as_deref(),
        Some("https://www.mturk.com/mturk/externalSubmit")
    );
    for other in [
        "https://evil.org",
        "http://www.mturk.com",
        "https://www.mturk.com.evil.org",
    ] {
        assert_eq!(mturk_submit_url(other), None, "{other}");
    }
}

/// The platform's other link parameters are recorded with the participant: Prolific's study and
/// session, MTurk's assignment and HIT (not `turkSubmitTo`, which is only where to post);
/// Juror's own `annotator=` is no platform.
#[test]
fn platform_visit_records_the_platforms_parameters() {
    use juror_core::plan::platform_visit;
    let link = |pairs: &'static [(&'static str, &'static str)]| {
        move |name: &str| {
            pairs
                .iter()
                .find(|(k, _)| *k == name)
                .map(|(_, v)| (*v).to_owned())
        }
    };
    let prolific = platform_visit(link(&[
        ("PROLIFIC_PID", "5f0c9a"),
        ("STUDY_ID", "s-1"),
        ("SESSION_ID", " x9 "),
        ("slot", "2"),
    ]))
    .unwrap();
    assert_eq!(prolific.name, "prolific");
    assert_eq!(
        (prolific.study_id.as_deref(), prolific.session_id.as_deref()),
        (Some("s-1"), Some("x9"))
    );
    let mturk = platform_visit(link(&[
        ("workerId", "A1B2"),
        ("assignmentId", "3X"),
        ("hitId", "H"),
        ("turkSubmitTo", "https://www.mturk.com"),
    ]))
    .unwrap();
    assert_eq!(mturk.name, "mturk");
    assert_eq!(
        (mturk.assignment_id.as_deref(), mturk.hit_id.as_deref()),
        (Some("3X"), Some("H"))
    );
    assert_eq!(mturk.study_id, None);
    let sona = platform_visit(link(&[("id", "1234"), ("STUDY_ID", "ignored")])).unwrap();
    assert_eq!(
        sona,
        juror_core::plan::PlatformVisit {
            name: "sona".into(),
            ..Default::default()
        }
    );
    assert_eq!(
        platform_visit(link(&[("annotator", "ann-3"), ("id", "9")])),
        None
    );
    assert_eq!(platform_visit(link(&[("slot", "3")])), None);
    assert_eq!(platform_visit(link(&[("PROLIFIC_PID", "  ")])), None);
}

// ---------------------------------------------------------------------------------------------
// Anchor pairs spread over annotators (`pairs.spread`)

/// A design whose anchor's pairs are spread over annotators: 3 to 6 systems (the last is the
/// anchor), 1 to 3 annotators per pair, from just enough slots (`k × (systems − 1)`) to 5 more,
/// up to 20 items of which up to 2 are attention checks.
fn spread_design() -> impl Strategy<Value = Design> {
    (
        3usize..=6,
        1usize..=20,
        1u32..=3,
        0u32..=5,
        0usize..=2,
        prop_oneof![Just(RawOrder::Shuffled), Just(RawOrder::Fixed)],
        prop_oneof![Just(RawLabels::PerTrial), Just(RawLabels::PerAnnotator)],
        any::<u64>(),
    )
        .prop_map(
            |(systems, items, k, extra, checks, order, labels, seed)| Design {
                systems,
                items,
                presentation: RawPresentation::Pairs,
                pairs: Pairs::Anchor,
                order,
                labels,
                assignment: Some((k * (systems as u32 - 1) + extra, k)),
                checks: checks.min(items),
                seed,
            },
        )
}

fn spread_study(d: &Design) -> Study {
    let mut raw = raw_for(d);
    if let Some(pairs) = raw.design.tasks[0].pairs.as_mut() {
        pairs.spread = true;
    }
    validate(&raw).unwrap_or_else(|p| panic!("{p}"))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases()))]

    /// Every bound of the balance report holds (positions within one per slot and over the
    /// study, labels, loads), no annotator sees two pairs of one item (so the anchor never
    /// recurs within an item), and every pair of every item is compared by exactly
    /// `annotators_per_item` annotators; attention-check items keep every pair.
    #[test]
    fn spread_anchor_pairs_give_each_annotator_one_pair_of_an_item(d in spread_design()) {
        let study = spread_study(&d);
        let report = balance::check(&study);
        prop_assert!(report.violations.is_empty(), "{d:?}\n{}", report.render(&study));
        prop_assert!(report.anchor_recurs.is_empty());
        let (slots, k) = d.assignment.unwrap_or_default();
        let anchor = d.systems - 1;
        let mut raters = std::collections::BTreeMap::<(usize, usize), u32>::new();
        for slot in 1..=slots {
            let p = plan(&study, &Annotator::slot(slot));
            let mut seen = std::collections::BTreeMap::<usize, usize>::new();
            for t in &p.trials {
                let mut systems: Vec<usize> = t.shown.iter().map(|s| s.system).collect();
                systems.sort_unstable();
                prop_assert!(systems.contains(&anchor));
                let other = systems[0];
                *raters.entry((t.item, other)).or_default() += 1;
                *seen.entry(t.item).or_default() += 1;
            }
            for (&item, &times) in &seen {
                let want = if item < d.checks { d.systems - 1 } else { 1 };
                prop_assert_eq!(times, want, "slot {} item {}", slot, item);
            }
        }
        for item in d.checks..d.items {
            for other in 0..anchor {
                prop_assert_eq!(raters.get(&(item, other)).copied(), Some(k), "item {} pair with {}", item, other);
            }
        }
    }
}

#[test]
fn a_recurring_anchor_is_reported_and_spreading_needs_enough_slots() {
    // The HARE example compares its anchor with each baseline on every item, for everyone.
    let hare = parse_study(&support::example("hare-personalization")).unwrap();
    let report = balance::check(&hare);
    assert_eq!(report.anchor_recurs, vec![("compare".to_owned(), 4)]);
    assert!(report.violations.is_empty());
    assert!(report.render(&hare).contains(
        "Task \"compare\": the anchor recurs within an item for 4 annotator(s): identifiable"
    ));

    // Spread: 4 systems, 2 annotators per pair: 6 slots at least.
    let d = Design {
        systems: 4,
        items: 6,
        presentation: RawPresentation::Pairs,
        pairs: Pairs::Anchor,
        order: RawOrder::Shuffled,
        labels: RawLabels::PerTrial,
        assignment: Some((6, 2)),
        checks: 0,
        seed: 7,
    };
    let study = spread_study(&d);
    // Every slot gets one pair of each item: 6 items × 3 pairs × 2 annotators over 6 slots.
    assert_eq!(trials_per_slot(&study), vec![6; 6]);
    assert!(balance::check(&study).anchor_recurs.is_empty());
    let mut raw = raw_for(&Design {
        assignment: Some((5, 2)),
        ..d.clone()
    });
    if let Some(pairs) = raw.design.tasks[0].pairs.as_mut() {
        pairs.spread = true;
    }
    let problems = validate(&raw).err().map(|p| p.0).unwrap_or_default();
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert_eq!(problems[0].at, "design.tasks[0].pairs.spread");
    assert_eq!(
        problems[0].message,
        "each item's 3 pairs need 2 annotators each, 6 slots in all, but the study has 5"
    );
    // Without the option the same design shows every pair of an item to its annotators.
    let plain = study_for(&d);
    assert_eq!(balance::check(&plain).anchor_recurs[0].1, 6);
}

/// Trials of one item that follow each other are counted: the kitchen example's slot 1 had one
/// such pair among its ratings and three among its comparisons in format v1 (its golden plan
/// shows them); format v2 keeps them apart.
#[test]
fn back_to_back_trials_of_one_item_are_counted_and_kept_apart() {
    let (_, study) = examples()
        .into_iter()
        .find(|(name, _)| name == "kitchen-qa")
        .unwrap();
    let planner = Planner::new(&study);
    let v1 = planner.plan_as(&Annotator::slot(1), Format::V1);
    assert_eq!(balance::back_to_back(&v1), 4);
    for slot in 1..=6 {
        let plan = planner.plan(&Annotator::slot(slot));
        assert_eq!(balance::back_to_back(&plan), 0, "slot {slot}");
    }
}

/// The fewest repeats any order of `trials` can have: with `c` trials of the most frequent item
/// among `t`, `c − (t − c) − 1` when that is positive.
fn fewest_repeats(items: &[usize]) -> usize {
    let mut counts = std::collections::BTreeMap::new();
    for &i in items {
        *counts.entry(i).or_insert(0usize) += 1;
    }
    let most = counts.values().copied().max().unwrap_or(0);
    (2 * most).saturating_sub(items.len() + 1)
}

/// Over 10 annotators of a 75-item, 4-system study shown side by side, every one of the 24
/// orders of the systems occurs (the slots' runs walk through the 6 classes of symbol
/// mappings), while each annotator has each system at each position equally often (within one).
#[test]
fn side_by_side_orders_cover_every_order_over_ten_annotators() {
    let d = Design {
        systems: 4,
        items: 75,
        presentation: RawPresentation::SideBySide,
        pairs: Pairs::All,
        order: RawOrder::Shuffled,
        labels: RawLabels::PerTrial,
        assignment: None,
        checks: 0,
        seed: 7,
    };
    let study = study_for(&d);
    let planner = Planner::new(&study);
    let mut orders = std::collections::BTreeSet::new();
    for slot in 1..=10 {
        let plan = planner.plan(&Annotator::slot(slot));
        let mut counts = [[0usize; 4]; 4];
        for t in &plan.trials {
            let order: Vec<usize> = t.shown.iter().map(|s| s.system).collect();
            for (p, &s) in order.iter().enumerate() {
                counts[s][p] += 1;
            }
            orders.insert(order);
        }
        for row in counts {
            let (lo, hi) = (row.iter().min().unwrap(), row.iter().max().unwrap());
            assert!(hi - lo <= 1, "slot {slot}: {counts:?}");
        }
    }
    assert_eq!(orders.len(), 24);
    // Format v1 gave every annotator the same 4 orders.
    let v1: std::collections::BTreeSet<Vec<usize>> = (1..=10)
        .flat_map(|slot| planner.plan_as(&Annotator::slot(slot), Format::V1).trials)
        .map(|t| t.shown.iter().map(|s| s.system).collect())
        .collect();
    assert_eq!(v1.len(), 4);
    let report = balance::check(&study);
    assert!(
        report.render(&study).contains("24 of the 24 orders"),
        "{}",
        report.render(&study)
    );
}

/// Progress saved with a plan's fingerprint is continued on the plan of the format that made it;
/// a fingerprint no format makes finds nothing.
#[test]
fn a_fingerprint_finds_the_plan_of_its_format() {
    let (_, study) = examples()
        .into_iter()
        .find(|(name, _)| name == "kitchen-qa")
        .unwrap();
    let who = Annotator::slot(2);
    let planner = Planner::new(&study);
    for format in Format::ALL {
        let plan = planner.plan_as(&who, format);
        let found = juror_core::plan::following(&study, &who, &plan.fingerprint());
        assert_eq!(found.as_ref(), Some(&plan), "{format:?}");
    }
    assert_ne!(
        planner.plan_as(&who, Format::V1).fingerprint(),
        planner.plan_as(&who, Format::V2).fingerprint()
    );
    assert_eq!(
        juror_core::plan::following(&study, &who, "0123456789abcdef"),
        None
    );
}

/// A best–worst study of `systems` systems, tuples of `k`, on a side-by-side task.
fn best_worst_study(d: &Design, k: usize) -> Study {
    let mut raw = raw_for(d);
    raw.design.tasks[0].preference = Some(RawPreference {
        kind: RawPreferenceKind::BestWorst,
        question: None,
        allow_tie: false,
        points: None,
        labels: None,
        allow_skip: false,
        explanation: RawRequirement::Off,
        tuple_size: Some(k),
    });
    validate(&raw).unwrap_or_else(|p| panic!("{p}"))
}

proptest! {
    // A fixed search: the bound of 2 on the pairs' counts is measured, not proven, and one
    // design outside it is known (`a_best_worst_design_outside_the_bound_is_reported`), so a
    // fresh random search could fail the suite on a design nobody chose. `PROPTEST_CASES`
    // widens the search.
    #![proptest_config(ProptestConfig {
        cases: cases() / 4,
        rng_seed: proptest::test_runner::RngSeed::Fixed(20_261_202),
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    /// Best–worst tuples with 5–12 systems and tuples of 3–5: every system in equally many
    /// tuples, pairs sharing tuples at most two apart, each system at each position of a
    /// tuple equally often in every slot, every trial a tuple of distinct systems.
    #[test]
    fn best_worst_tuples_are_balanced(
        systems in 5usize..=12,
        k in 3usize..=5,
        items in 1usize..=12,
        assignment in proptest::option::of((1u32..=6, 1u32..=3)),
        seed in any::<u64>(),
    ) {
        let d = Design {
            systems,
            items,
            presentation: RawPresentation::SideBySide,
            pairs: Pairs::All,
            order: RawOrder::Shuffled,
            labels: RawLabels::PerTrial,
            assignment: assignment.map(|(n, a)| (n, a.min(n))),
            checks: 0,
            seed,
        };
        let k = k.min(systems - 1);
        let study = best_worst_study(&d, k);
        let report = juror_core::plan::balance::check(&study);
        prop_assert!(report.violations.is_empty(), "{:?}", report.violations);
        let tb = &report.tuples[0];
        prop_assert_eq!(tb.tuple_size, k);
        prop_assert!(tb.appearances.iter().all(|&a| a == tb.appearances[0]));
        prop_assert!(tb.pairs.1 - tb.pairs.0 <= 2);
        let plan = juror_core::plan::plan(&study, &juror_core::plan::Annotator::slot(1));
        for t in &plan.trials {
            prop_assert_eq!(t.shown.len(), k);
            let mut s: Vec<usize> = t.shown.iter().map(|s| s.system).collect();
            s.sort_unstable();
            s.dedup();
            prop_assert_eq!(s.len(), k);
        }
    }
}

/// The one known design whose pairs share tuples more unevenly than the documented bound (12
/// systems, tuples of 3, 8 items, this seed: 3 to 6 shared tuples): `juror plan --check`
/// reports it, so the researcher changes the seed before publishing.
#[test]
fn a_best_worst_design_outside_the_bound_is_reported() {
    let d = Design {
        systems: 12,
        items: 8,
        presentation: RawPresentation::SideBySide,
        pairs: Pairs::All,
        order: RawOrder::Shuffled,
        labels: RawLabels::PerTrial,
        assignment: None,
        checks: 0,
        seed: 11_476_820_213_921_170_208,
    };
    let study = best_worst_study(&d, 3);
    let report = juror_core::plan::balance::check(&study);
    assert_eq!(report.tuples[0].pairs, (3, 6));
    assert!(
        report
            .violations
            .iter()
            .any(|v| v.contains("more uneven than 2 apart")),
        "{:?}",
        report.violations
    );
}

#[test]
fn a_best_worst_tuple_size_is_checked_where_it_is_written() {
    let d = Design {
        systems: 5,
        items: 2,
        presentation: RawPresentation::Single,
        pairs: Pairs::All,
        order: RawOrder::Shuffled,
        labels: RawLabels::PerTrial,
        assignment: None,
        checks: 0,
        seed: 1,
    };
    let mut raw = raw_for(&d);
    raw.design.tasks[0].preference = Some(RawPreference {
        kind: RawPreferenceKind::BestWorst,
        question: None,
        allow_tie: false,
        points: None,
        labels: None,
        allow_skip: false,
        explanation: RawRequirement::Off,
        tuple_size: Some(6),
    });
    let problems = validate(&raw).unwrap_err().to_string();
    assert!(
        problems.contains("design.tasks[0].preference.type"),
        "{problems}"
    );
    assert!(
        problems.contains("design.tasks[0].preference.tuple_size"),
        "{problems}"
    );
    assert!(
        problems.contains("set tuple_size from 3 to 5"),
        "{problems}"
    );
}
