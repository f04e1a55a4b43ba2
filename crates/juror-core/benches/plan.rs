//! Planning speed: a study of 10,000 items for 30 slots, 3 annotators per item, 4 systems side
//! by side (the budget is well under 100 ms per plan). Run with
//! `cargo bench -p juror-core --bench plan`; figures in docs/benchmarks.md.

#![expect(clippy::unwrap_used, reason = "a benchmark stops on a broken setup")]

use criterion::{Criterion, criterion_group, criterion_main};
use juror_core::plan::{Annotator, assign::Assignment, plan};
use juror_core::study::parse_study;
use serde_json::json;

fn big_study(items: usize, presentation: &str) -> juror_core::study::Study {
    let systems = ["alpha", "beta", "gamma", "delta"];
    let items: Vec<_> = (0..items)
        .map(|i| {
            let outputs: serde_json::Map<String, serde_json::Value> = systems
                .iter()
                .map(|s| (s.to_string(), json!(format!("Output of {s} for item {i}"))))
                .collect();
            json!({ "id": format!("item-{i}"), "prompt": format!("Prompt {i}"), "outputs": outputs })
        })
        .collect();
    let scale = json!({ "min": 1, "max": 2, "points": [
        { "value": 1, "label": "Bad" }, { "value": 2, "label": "Good" } ] });
    let study = json!({
        "format": "juror.study/1", "id": "bench", "title": "Bench", "seed": 1,
        "systems": systems,
        "rubric": { "dimensions": [ { "id": "q", "label": "Q", "question": "Q?", "scale": scale } ] },
        "design": {
            "assignment": { "slots": 30, "annotators_per_item": 3 },
            "tasks": [ { "id": "t", "presentation": presentation } ]
        },
        "items": items
    });
    parse_study(&study.to_string()).unwrap()
}

fn bench(c: &mut Criterion) {
    let side = big_study(10_000, "side_by_side");
    let pairs = big_study(10_000, "pairs");
    c.bench_function("assignment: 10,000 items, 30 slots, 3 per item", |b| {
        b.iter(|| Assignment::new(&side))
    });
    c.bench_function("plan: side by side, 10,000 items, 30 slots, slot 30", |b| {
        b.iter(|| plan(&side, &Annotator::slot(30)))
    });
    c.bench_function("plan: all pairs, 10,000 items, 30 slots, slot 30", |b| {
        b.iter(|| plan(&pairs, &Annotator::slot(30)))
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20);
    targets = bench
}
criterion_main!(benches);
