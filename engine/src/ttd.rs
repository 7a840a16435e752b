//! Lazy SMP time to depth: one bench position searched to a fixed depth
//! through the engine facade, timed (`examples/bench.rs ttd` compares
//! thread counts with it).

use crate::bench::positions;
use crate::engine::Engine;
use crate::limits::{Limits, Options};
use std::sync::Arc;
use std::time::Instant;

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
    let &(variant, fen) = positions().get(index)?;
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
