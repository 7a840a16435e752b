//! `bench`: a fixed set of positions searched to a fixed depth with one
//! thread and a fresh hash table each — the speed and regression signature
//! (total nodes change exactly when search behaviour does). Also the
//! time-to-depth measurement of Lazy SMP.

use crate::engine::Engine;
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

/// The bench positions per variant (FEN): twelve chess, six plunder (vests
/// on the board in all but the first), six tavreli (towers in all but the
/// first), most taken from the shared perft suites.
pub const POSITIONS: &[(Variant, &str)] = &[
    (
        Variant::Chess,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    ),
    (
        Variant::Chess,
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 10",
    ),
    (Variant::Chess, "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 11"),
    (
        Variant::Chess,
        "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    ),
    (
        Variant::Chess,
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    ),
    (
        Variant::Chess,
        "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
    ),
    (
        Variant::Chess,
        "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1QBPPP/R3KB1R w KQ - 2 9",
    ),
    (
        Variant::Chess,
        "2r3k1/pp3ppp/4p3/3pP3/3P1P2/P1r5/1P4PP/2R2RK1 w - - 0 24",
    ),
    (Variant::Chess, "6k1/5ppp/8/8/3K4/8/5PPP/8 w - - 0 40"),
    (
        Variant::Chess,
        "r2q1rk1/1b1nbppp/p2ppn2/1p6/3NP3/1BN1BP2/PPPQ2PP/2KR3R w - - 0 12",
    ),
    (Variant::Chess, "8/8/4k3/3r4/8/4K3/3R4/8 b - - 0 60"),
    (
        Variant::Chess,
        "3r1rk1/p4ppp/1qb1p3/2p5/2P1Q3/1P3N2/P2R1PPP/3R2K1 b - - 5 21",
    ),
    (
        Variant::Plunder,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    ),
    (
        Variant::Plunder,
        "r3k2r/pp1n(q)1ppp/2p(n)1b3/3B(P)4/4P(R)3/2N(B)2Q(N)2/PPP2PPP/R3K(P)2R w KQkq - 0 1",
    ),
    (
        Variant::Plunder,
        "rn1q1bn1/5k2/1p1p1pp1/p2P4/P1B2P2/1P5N(R)/8/R1B1K2R w KQ - 0 17",
    ),
    (
        Variant::Plunder,
        "4kbn1/p3ppp1/b7/1r(n)1p4/4P3/P4NP1/3B3R(P)/1R(N)2KB2 b - - 0 15",
    ),
    (
        Variant::Plunder,
        "rnbqk2r/2pp2p1/1p1b(p)4/p3pp2/P1P1P1P(N)1/2NP4/7P/R2QKBNR b KQkq - 0 11",
    ),
    (
        Variant::Plunder,
        "4k1B(P)1/4q3/1P6/4n(p)3/2p5/3b(p)P3/1P3K2/8 b - - 0 24",
    ),
    (
        Variant::Tavreli,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    ),
    (
        Variant::Tavreli,
        "r1b1k2r/pp(PQ~)p1ppp/2n(bn)1n2/3(pN)4/2(BP=Hq)5/5(pN)2/PP1P1PPP/R3K2R w KQkq - 0 1",
    ),
    (
        Variant::Tavreli,
        "rn2kbnr/ppp1pp1p/8/2p=q3p1/1P2P3/N1P2(PP=Q)P(Pb)/P7/R1BQK1N(RqB) b Qkq - 0 10",
    ),
    (
        Variant::Tavreli,
        "rnbqk1nr/ppp2p1p/3p4/6p1/(PbP=N)2P4/N7/2(PBQK)2(P=HP)(PB)P/R5(Np=hR)1 b kq - 1 12",
    ),
    (
        Variant::Tavreli,
        "rn3(bk)nr/p1p1p1p1/3(pPQq)1p1p/1(pB)3(bP=N)2/8/1P2P2P/P1P2P2/RNB1K1NR b KQ - 0 8",
    ),
    (
        Variant::Tavreli,
        "r3k2r/8/8/8/8/4(Pn)3/8/R3K2R w KQkq - 0 1",
    ),
];

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
    pub by_variant: [(u64, u64); 3],
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
        write!(f, "===========================")
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
        by_variant: [(0, 0); 3],
    };
    for (i, &(variant, fen)) in POSITIONS.iter().enumerate() {
        let Ok(game) = AnyGame::new(variant, Some(fen)) else {
            report(format!(
                "position {}: {variant} not available, skipped",
                i + 1
            ));
            continue;
        };
        shared.tt.clear();
        shared.stop.store(false, Ordering::Relaxed);
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
        if let Some(slot) = Variant::ALL.iter().position(|&v| v == variant) {
            result.by_variant[slot].0 += nodes;
            result.by_variant[slot].1 += time_ms;
        }
    }
    result.nps = result.nodes * 1000 / result.time_ms.max(1);
    for line in result.to_string().lines() {
        report(line.to_string());
    }
    Some(result)
}

/// Time to reach a fixed depth with `threads` threads on one position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DepthTiming {
    /// Threads used.
    pub threads: usize,
    /// Depth reached.
    pub depth: u32,
    /// Wall time, milliseconds.
    pub time_ms: u64,
    /// Nodes over all threads.
    pub nodes: u64,
}

/// Searches bench position `index` to `depth` with `threads` threads and a
/// fresh table of `hash_mb` MiB, through the engine facade; `None` if the
/// index is out of range or the table cannot be had.
#[must_use]
pub fn time_to_depth(
    index: usize,
    threads: usize,
    depth: u32,
    hash_mb: usize,
) -> Option<DepthTiming> {
    let &(variant, fen) = POSITIONS.get(index)?;
    let mut engine = Engine::new();
    engine.set_variant(variant);
    engine.set_position(Some(fen), &[]).ok()?;
    engine
        .set_options(Options {
            hash_mb,
            threads: threads.max(1),
            ..Options::default()
        })
        .ok()?;
    let limits = Limits {
        depth: Some(depth.max(1)),
        ..Limits::default()
    };
    let start = Instant::now();
    engine.go(limits, Arc::new(|_| {}));
    engine.wait();
    Some(DepthTiming {
        threads: threads.max(1),
        depth,
        time_ms: u64::try_from(start.elapsed().as_millis()).unwrap_or(u64::MAX),
        nodes: engine.nodes_searched(),
    })
}

/// The total node count of `volkhv bench` at the default depth: the
/// signature every commit touching search, eval or move generation names
/// (`Bench: <nodes>`). A change here is a change in behaviour.
pub const SIGNATURE: u64 = 10_135_547;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bench_positions_parse() {
        for &(variant, fen) in POSITIONS {
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
        assert_eq!(a.positions, POSITIONS.len());
        assert!(a.nodes > 0);
        assert_eq!(
            lines.iter().filter(|l| l.starts_with("position ")).count(),
            POSITIONS.len()
        );
        assert!(lines.contains(&format!("Nodes searched  : {}", a.nodes)));
    }
}
