//! `bench`: a fixed set of positions searched to a fixed depth with one
//! thread and a fresh hash table each — the speed and regression signature
//! (total nodes change exactly when search behaviour does). The Lazy SMP
//! time-to-depth measurement on the same positions is [`crate::ttd`].

use crate::game::AnyGame;
use crate::limits::{EventSink, Limits, Options, SearchEvent};
use crate::search::{self, Shared};
use crate::with_game;
use movegen::Variant;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Instant;

/// Depth searched when none is given.
pub const DEFAULT_DEPTH: u32 = 13;
/// Hash size of every bench search (MiB).
pub const HASH_MB: usize = 16;

/// The bench positions, every variant's in registry order (`Variant::
/// bench_positions`: twelve chess, six plunder with vests on the board in
/// all but the first, six tavreli with towers in all but the first).
#[must_use]
pub fn positions() -> Vec<(Variant, &'static str)> {
    Variant::ALL
        .into_iter()
        .flat_map(|v| v.bench_positions().iter().map(move |&fen| (v, fen)))
        .collect()
}

/// What a bench run measured.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BenchResult {
    /// Nodes searched over all positions (the signature).
    pub nodes: u64,
    /// Nodes per second over the search time.
    pub nps: u64,
    /// Search time in milliseconds (table allocation excluded).
    pub time_ms: u64,
    /// Number of positions searched.
    pub positions: usize,
    /// Depth searched.
    pub depth: u32,
    /// Nodes and milliseconds per variant, in `Variant::ALL` order.
    pub by_variant: [(u64, u64); Variant::COUNT],
}

impl std::fmt::Display for BenchResult {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(f, "===========================")?;
        writeln!(f, "Positions       : {}", self.positions)?;
        writeln!(f, "Depth           : {}", self.depth)?;
        writeln!(f, "Total time (ms) : {}", self.time_ms)?;
        writeln!(f, "Nodes searched  : {}", self.nodes)?;
        writeln!(f, "Nodes/second    : {}", self.nps)?;
        for (v, (nodes, ms)) in Variant::ALL.iter().zip(self.by_variant) {
            if nodes > 0 {
                let name = v.name();
                writeln!(
                    f,
                    "  {name:<14}: {nodes} nodes, {} nps",
                    nodes * 1000 / ms.max(1)
                )?;
            }
        }
        writeln!(f, "===========================")?;
        // Last, so OpenBench (which reads the output bottom-up for the
        // first `<n> nodes` and `<n> nps`) takes the totals, not a
        // variant's line.
        write!(f, "{} nodes {} nps", self.nodes, self.nps)
    }
}

/// Searches every bench position to `depth` (default [`DEFAULT_DEPTH`])
/// with one thread, on `shared` (a [`HASH_MB`] table, cleared before each
/// position, so each search starts as from a fresh table), on the calling
/// thread (which needs the search's stack size: `Engine::bench` runs it).
/// Hands one line per position and the totals to `report`; `None` if
/// `shared.abort` stopped it.
pub fn run(
    depth: Option<u32>,
    shared: &Shared,
    report: &mut dyn FnMut(String),
) -> Option<BenchResult> {
    let depth = depth.unwrap_or(DEFAULT_DEPTH).max(1);
    let options = Options {
        hash_mb: HASH_MB,
        threads: 1,
        ..Options::default()
    };
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let mut result = BenchResult {
        nodes: 0,
        nps: 0,
        time_ms: 0,
        positions: 0,
        depth,
        by_variant: [(0, 0); Variant::COUNT],
    };
    for (i, &(variant, fen)) in positions().iter().enumerate() {
        // The registry's own test parses every bench position.
        let game = AnyGame::new(variant, Some(fen)).expect("bench positions are valid");
        shared.clear();
        shared.stop.store(false, Ordering::Relaxed);
        // A `stop` that came while the last position was being reported
        // (its stop flag just cleared) still ends the bench here.
        if shared.abort.load(Ordering::Relaxed) {
            return None;
        }
        let best: Arc<Mutex<Option<String>>> = Arc::default();
        let best_in = Arc::clone(&best);
        let sink: EventSink = Arc::new(move |e| {
            if let SearchEvent::BestMove { best, .. } = e {
                *best_in.lock().unwrap_or_else(PoisonError::into_inner) = best;
            }
        });
        let start = Instant::now();
        with_game!(&game, g => search::run(g, &limits, &options, shared, &sink));
        if shared.abort.load(Ordering::Relaxed) {
            return None;
        }
        let time_ms = u64::try_from(start.elapsed().as_millis()).unwrap_or(u64::MAX);
        let nodes = shared.nodes.load(Ordering::Relaxed);
        let best = best.lock().unwrap_or_else(PoisonError::into_inner).clone();
        report(format!(
            "position {:2} {variant:8} nodes {nodes:10} bestmove {}",
            i + 1,
            best.as_deref().unwrap_or("(none)")
        ));
        result.nodes += nodes;
        result.time_ms += time_ms;
        result.positions += 1;
        result.by_variant[variant.index()].0 += nodes;
        result.by_variant[variant.index()].1 += time_ms;
    }
    result.nps = result.nodes * 1000 / result.time_ms.max(1);
    for line in result.to_string().lines() {
        report(line.to_string());
    }
    Some(result)
}

/// The total node count of `volkhv bench` at the default depth: the
/// signature every commit touching search, eval or move generation names
/// (`Bench: <nodes>`). A change here is a change in behaviour.
pub const SIGNATURE: u64 = 4_335_919;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bench_positions_parse() {
        for (variant, fen) in positions() {
            assert!(AnyGame::new(variant, Some(fen)).is_ok(), "{fen}");
        }
    }

    fn bench(depth: u32) -> (Option<BenchResult>, Vec<String>) {
        let shared = Shared::new(HASH_MB);
        let mut lines = Vec::new();
        std::thread::Builder::new()
            .stack_size(search::STACK_SIZE)
            .spawn(move || {
                let r = run(Some(depth), &shared, &mut |l| lines.push(l));
                (r, lines)
            })
            .unwrap()
            .join()
            .unwrap()
    }

    #[test]
    fn bench_is_deterministic_and_reports_every_position() {
        let (a, lines) = bench(3);
        let (b, _) = bench(3);
        let (a, b) = (a.unwrap(), b.unwrap());
        assert_eq!(
            (a.nodes, a.by_variant.map(|v| v.0)),
            (b.nodes, b.by_variant.map(|v| v.0))
        );
        assert_eq!(a.positions, positions().len());
        assert!(a.nodes > 0);
        assert_eq!(
            lines.iter().filter(|l| l.starts_with("position ")).count(),
            positions().len()
        );
        assert!(lines.contains(&format!("Nodes searched  : {}", a.nodes)));
        assert_eq!(
            lines.last(),
            Some(&format!("{} nodes {} nps", a.nodes, a.nps))
        );
    }
}
