//! `cargo run --release -p engine --example bench -- [depth]`: the bench
//! signature (what `volkhv bench` prints).
//!
//! `-- ttd <threads> <depth|suite> [variant|all] [rounds]` measures the Lazy
//! SMP speed-up: every chosen bench position is searched to the depth with
//! one thread and with `threads` threads, alternately (so a noisy moment
//! hits both), `rounds` times (default 1), each search with a fresh table
//! of `TTD_HASH` MiB (default 256: at these depths a Tavreli search stores
//! millions of entries, and two threads twice as many; a full table would
//! measure its replacement scheme, not the threads). `suite` picks a depth
//! per variant at which a search lasts about a second (chess 18, plunder
//! 15, tavreli 13). It prints each search, then per variant and overall the
//! speed-up as the ratio of total times and as the geometric mean of the
//! per-search ratios, and the node overhead.
//!
//! `-- one <position 1-24> <threads> <depth>` times a single search.

use engine::bench::positions;
use engine::ttd::time_to_depth;
use movegen::Variant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let number = |i: usize| args.get(i).and_then(|s| s.parse::<u32>().ok());
    match args.first().map(String::as_str) {
        Some("ttd") => {
            let threads = number(1).unwrap_or(2) as usize;
            let fixed = number(2);
            let variant = args.get(3).and_then(|s| Variant::from_name(s));
            let rounds = args
                .iter()
                .skip(3)
                .find_map(|s| s.parse::<u32>().ok())
                .unwrap_or(1);
            let depth = |v: Variant| fixed.unwrap_or_else(|| v.suite_depth());
            speed_up(threads, &depth, variant, rounds);
        }
        Some("one") => {
            let (index, threads, depth) = (
                number(1).unwrap_or(1) as usize,
                number(2).unwrap_or(1) as usize,
                number(3).unwrap_or(13),
            );
            if let Some(t) = time_to_depth(index.saturating_sub(1), threads, depth, hash_mb()) {
                println!(
                    "position {index} threads {threads} depth {depth} time_ms {} nodes {}",
                    t.time_ms, t.nodes
                );
            }
        }
        _ => {
            let mut engine = engine::Engine::new();
            engine.bench(
                number(0),
                std::sync::Arc::new(|e| {
                    if let engine::SearchEvent::Report(l) = e {
                        println!("{l}");
                    }
                }),
            );
            engine.wait();
        }
    }
}

fn hash_mb() -> usize {
    std::env::var("TTD_HASH")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(256)
}

/// Sums over a set of searches: times and nodes with one and N threads.
#[derive(Default)]
struct Tally {
    one_ms: u64,
    many_ms: u64,
    one_nodes: u64,
    many_nodes: u64,
    log_ratio_sum: f64,
    searches: u32,
}

impl Tally {
    fn add(&mut self, one: (u64, u64), many: (u64, u64)) -> f64 {
        let ratio = one.0.max(1) as f64 / many.0.max(1) as f64;
        self.one_ms += one.0;
        self.many_ms += many.0;
        self.one_nodes += one.1;
        self.many_nodes += many.1;
        self.log_ratio_sum += ratio.ln();
        self.searches += 1;
        ratio
    }

    fn line(&self, what: &str, threads: usize) -> String {
        format!(
            "{what:8} threads 1 vs {threads}: {} ms vs {} ms = {:.2}x, geometric mean {:.2}x \
             over {} searches; nodes x{:.2}",
            self.one_ms,
            self.many_ms,
            self.one_ms as f64 / self.many_ms.max(1) as f64,
            (self.log_ratio_sum / f64::from(self.searches.max(1))).exp(),
            self.searches,
            self.many_nodes as f64 / self.one_nodes.max(1) as f64
        )
    }
}

fn speed_up(threads: usize, depth: &dyn Fn(Variant) -> u32, only: Option<Variant>, rounds: u32) {
    let hash = hash_mb();
    let mut per_variant: Vec<(Variant, Tally)> = Variant::ALL
        .iter()
        .map(|&v| (v, Tally::default()))
        .collect();
    let mut all = Tally::default();
    for round in 1..=rounds {
        for (i, &(v, _)) in positions().iter().enumerate() {
            if only.is_some_and(|w| w != v) {
                continue;
            }
            let d = depth(v);
            let (Some(a), Some(b)) = (
                time_to_depth(i, 1, d, hash),
                time_to_depth(i, threads, d, hash),
            ) else {
                continue;
            };
            let (one, many) = ((a.time_ms, a.nodes), (b.time_ms, b.nodes));
            let ratio = all.add(one, many);
            if let Some((_, t)) = per_variant.iter_mut().find(|(w, _)| *w == v) {
                t.add(one, many);
            }
            println!(
                "round {round} position {:2} {:8} depth {d} 1T {:6} ms {:9} nodes | {threads}T {:6} ms {:9} nodes | {ratio:.2}x",
                i + 1,
                v.name(),
                a.time_ms,
                a.nodes,
                b.time_ms,
                b.nodes
            );
        }
    }
    for (v, t) in &per_variant {
        if t.searches > 0 {
            println!("{}", t.line(v.name(), threads));
        }
    }
    println!("{}", all.line("all", threads));
}
