//! `cargo run --release -p engine --example bench -- [depth]`: the bench
//! signature.
//!
//! `-- ttd <threads> <depth> [variant] [rounds]` measures the Lazy SMP
//! speed-up: every chosen bench position is searched to `depth` with one
//! thread and with `threads` threads, alternately (so a noisy moment hits
//! both), `rounds` times (default 1). It prints each position's times and
//! the speed-up as the ratio of total times and as the geometric mean of the
//! per-position ratios.

use engine::bench::{time_to_depth, POSITIONS};
use movegen::Variant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("ttd") {
        let threads = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(2);
        let depth = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(13);
        let variant = args.get(3).and_then(|s| Variant::from_name(s));
        let rounds = args
            .iter()
            .skip(3)
            .find_map(|s| s.parse::<u32>().ok())
            .unwrap_or(1);
        speed_up(threads, depth, variant, rounds);
        return;
    }
    if args.first().map(String::as_str) == Some("one") {
        let arg = |i: usize| args.get(i).and_then(|s| s.parse::<usize>().ok());
        let (index, threads, depth) = (
            arg(1).unwrap_or(1),
            arg(2).unwrap_or(1),
            arg(3).unwrap_or(13),
        );
        if let Some(t) = time_to_depth(
            index.saturating_sub(1),
            threads,
            u32::try_from(depth).unwrap_or(13),
            hash_mb(),
        ) {
            println!(
                "position {index} threads {threads} depth {depth} time_ms {} nodes {}",
                t.time_ms, t.nodes
            );
        }
        return;
    }
    let depth = args.first().and_then(|s| s.parse().ok());
    engine::bench::run(depth);
}

fn speed_up(threads: usize, depth: u32, variant: Option<Variant>, rounds: u32) {
    let hash_mb = hash_mb();
    let (mut one_ms, mut many_ms, mut one_nodes, mut many_nodes) = (0u64, 0u64, 0u64, 0u64);
    let (mut log_sum, mut samples) = (0.0f64, 0u32);
    for round in 1..=rounds {
        for (i, &(v, _)) in POSITIONS.iter().enumerate() {
            if variant.is_some_and(|w| w != v) {
                continue;
            }
            let (Some(a), Some(b)) = (
                time_to_depth(i, 1, depth, hash_mb),
                time_to_depth(i, threads, depth, hash_mb),
            ) else {
                continue;
            };
            let ratio = a.time_ms.max(1) as f64 / b.time_ms.max(1) as f64;
            println!(
                "round {round} position {:2} {:8} 1T {:7} ms {:10} nodes | {threads}T {:7} ms {:10} nodes | {ratio:.2}x",
                i + 1,
                v.name(),
                a.time_ms,
                a.nodes,
                b.time_ms,
                b.nodes
            );
            one_ms += a.time_ms;
            many_ms += b.time_ms;
            one_nodes += a.nodes;
            many_nodes += b.nodes;
            log_sum += ratio.ln();
            samples += 1;
        }
    }
    println!(
        "depth {depth} threads 1 vs {threads}: total {one_ms} ms vs {many_ms} ms = {:.2}x, \
         geometric mean {:.2}x over {samples} searches; nodes {one_nodes} vs {many_nodes} ({:.2}x)",
        one_ms as f64 / many_ms.max(1) as f64,
        (log_sum / f64::from(samples.max(1))).exp(),
        many_nodes as f64 / one_nodes.max(1) as f64
    );
}

fn hash_mb() -> usize {
    std::env::var("TTD_HASH")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(64)
}
