//! Analysis speed: 30 annotators × 1,000 items × 4 systems × 4 dimensions (480,000
//! ratings) as a tidy Likert CSV, read and reported with 1,000 bootstrap resamples (the budget
//! is under 2 s natively). Figures in docs/benchmarks.md.
//!
//! ```sh
//! cargo bench -p juror-core --bench analysis
//! ```
//!
//! The data set is made here, in memory, by a seeded generator (no clock, no dependency whose
//! random stream may change): the same bytes wherever `ln` and `cos` round alike (its SHA-256 on
//! the machine of the figures is in docs/benchmarks.md). `scripts/bench/analysis` runs
//! this binary with `JUROR_BENCH_WRITE_CSV=PATH` to write those bytes to a file (and nothing
//! else), so that `juror analyze`, the page and the Python reference read exactly the same data.

#![expect(
    clippy::disallowed_methods,
    reason = "the generator runs natively only and its data is written out once: the platform's `ln` is fine"
)]
#![expect(clippy::expect_used, reason = "a benchmark stops on a broken setup")]

use std::time::Duration;

use criterion::{Criterion, SamplingMode, criterion_group};
use juror_core::analysis::{Context, Input, Options, read, report};

/// Systems, dimensions, annotators and items of the data set.
const SYSTEMS: [&str; 4] = ["alpha", "beta", "gamma", "delta"];
const DIMENSIONS: [&str; 4] = ["fluency", "coherence", "relevance", "consistency"];
const ANNOTATORS: usize = 30;
const ITEMS: usize = 1_000;
/// The seed of the generator.
const SEED: u64 = 6;

/// System effect on the latent score, per dimension (rows) and system (columns, as
/// [`SYSTEMS`]): large, small and null differences, so that p-values spread from 1e-100 to
/// non-significant.
const SYSTEM_EFFECT: [[f64; 4]; 4] = [
    [0.40, 0.35, 0.00, -0.30], // fluency
    [0.20, 0.20, -0.10, 0.05], // coherence: alpha = beta
    [0.10, 0.00, 0.02, -0.50], // relevance
    [0.60, 0.55, 0.30, 0.58],  // consistency
];

/// SplitMix64 (Steele, Lea & Flood 2014): tiny, fast, and fully specified here.
struct SplitMix(u64);

impl SplitMix {
    fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform on [0, 1), 53 bits.
    fn uniform(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Standard normal by Box–Muller (one value per call; the second is thrown away to keep
    /// the stream simple).
    fn normal(&mut self) -> f64 {
        let u1 = 1.0 - self.uniform(); // (0, 1]
        let u2 = self.uniform();
        (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos()
    }
}

/// The data set as a tidy Likert CSV (`item_id,system_id,annotator_id,dimension,score`),
/// annotator by annotator (as concatenated per-annotator exports would be), then item, system
/// and dimension.
///
/// Score = round(3 + system effect + item difficulty + item × system × dimension interaction
/// + annotator bias + noise), clamped to 1–5, where:
/// - item difficulty ~ N(0, 0.5²) shared by the dimensions, plus N(0, 0.2²) per dimension;
/// - interaction ~ N(0, 0.3²) per (item, system, dimension);
/// - annotator bias ~ N(0, 0.3²) per annotator and dimension; a fifth of the annotators are
///   careless (noise SD 1.2 instead of 0.7);
/// - 1.5% of the (item, system, dimension) cells are ambiguous: each annotator reads them as
///   clearly better or clearly worse (±1.6), which splits the cell and gets it flagged.
pub fn dataset() -> String {
    let mut rng = SplitMix(SEED);
    let (s, d) = (SYSTEMS.len(), DIMENSIONS.len());
    let shared: Vec<f64> = (0..ITEMS).map(|_| 0.5 * rng.normal()).collect();
    let difficulty: Vec<f64> = (0..ITEMS * d)
        .map(|i| shared[i / d] + 0.2 * rng.normal())
        .collect();
    // Index of a cell: (item · s + system) · d + dimension.
    let interaction: Vec<f64> = (0..ITEMS * s * d).map(|_| 0.3 * rng.normal()).collect();
    let ambiguous: Vec<bool> = (0..ITEMS * s * d).map(|_| rng.uniform() < 0.015).collect();
    let bias: Vec<f64> = (0..ANNOTATORS * d).map(|_| 0.3 * rng.normal()).collect();
    let noise: Vec<f64> = (0..ANNOTATORS)
        .map(|a| if a % 5 == 4 { 1.2 } else { 0.7 })
        .collect();

    let mut out = String::with_capacity(ANNOTATORS * ITEMS * s * d * 40);
    out.push_str("item_id,system_id,annotator_id,dimension,score\n");
    for a in 0..ANNOTATORS {
        for item in 0..ITEMS {
            for (si, system) in SYSTEMS.iter().enumerate() {
                for (di, dimension) in DIMENSIONS.iter().enumerate() {
                    let cell = (item * s + si) * d + di;
                    let mut latent = 3.0
                        + SYSTEM_EFFECT[di][si]
                        + difficulty[item * d + di]
                        + interaction[cell]
                        + bias[a * d + di]
                        + noise[a] * rng.normal();
                    if ambiguous[cell] {
                        latent += if rng.uniform() < 0.5 { 1.6 } else { -1.6 };
                    }
                    let score = latent.round().clamp(1.0, 5.0) as u8;
                    out.push_str(&format!(
                        "item-{:04},{system},ann{:02},{dimension},{score}\n",
                        item + 1,
                        a + 1
                    ));
                }
            }
        }
    }
    out
}

fn options() -> Options {
    Options {
        resamples: 1000,
        ..Default::default()
    }
}

fn bench(c: &mut Criterion) {
    let inputs = [Input::new("ratings.csv", dataset())];
    let context = Context::default();
    let data = read(&inputs, &context);
    assert_eq!(data.ratings.len(), 480_000, "{:?}", data.problems.first());
    assert!(data.problems.is_empty());

    let mut group = c.benchmark_group("analysis: 480,000 ratings");
    // Seconds per iteration: flat sampling, ten iterations per benchmark.
    group
        .sampling_mode(SamplingMode::Flat)
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(25));
    group.bench_function("read (parse the CSV, drop duplicates)", |b| {
        b.iter(|| read(&inputs, &context))
    });
    group.bench_function("report (1,000 resamples)", |b| {
        b.iter(|| report(&data, None, None, &options()))
    });
    group.bench_function("read + report (1,000 resamples)", |b| {
        b.iter(|| {
            let data = read(&inputs, &context);
            report(&data, None, None, &options())
        })
    });
    group.finish();
}

criterion_group!(benches, bench);

fn main() {
    // Writing the data set for the other implementations, instead of benchmarking.
    if let Some(path) = std::env::var_os("JUROR_BENCH_WRITE_CSV") {
        let path = std::path::PathBuf::from(path);
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).expect("cannot create the folder of the CSV");
        }
        std::fs::write(&path, dataset()).expect("cannot write the CSV");
        eprintln!("wrote {}", path.display());
        return;
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}
