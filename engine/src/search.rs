//! Search (placeholder: plays the first legal move; the real search replaces it).

use crate::engine::{EventSink, Options};
use crate::game::Game;
use crate::limits::{Info, Limits, Score, SearchEvent};
use eval::Evaluate;
use movegen::{MoveList, Position};
use std::sync::atomic::{AtomicBool, Ordering};

/// State shared by all search threads and the engine.
pub struct Shared {
    /// Finish soon and report the best move.
    pub stop: AtomicBool,
    /// Finish soon and report nothing.
    pub abort: AtomicBool,
    /// Searching on the opponent's time until `ponderhit`.
    pub pondering: AtomicBool,
}

impl Shared {
    /// Shared state with a hash table of `hash_mb` MiB.
    #[must_use]
    pub fn new(hash_mb: usize) -> Shared {
        let _ = hash_mb;
        Shared {
            stop: AtomicBool::new(false),
            abort: AtomicBool::new(false),
            pondering: AtomicBool::new(false),
        }
    }

    /// Forgets everything learnt (new game).
    pub fn clear(&self) {}
}

/// Runs a search to the limits and reports through `sink`.
pub fn run<P: Position + Evaluate>(
    game: &Game<P>,
    limits: &Limits,
    options: &Options,
    shared: &Shared,
    sink: &EventSink,
) {
    let _ = (limits, options);
    let pos = game.position();
    let mut moves = MoveList::new();
    pos.legal_moves(&mut moves);
    let best = moves.first().map(ToString::to_string);
    if let Some(b) = &best {
        sink(SearchEvent::Info(Info {
            depth: 1,
            seldepth: 1,
            multipv: 1,
            score: Score::Cp(pos.evaluate()),
            nodes: moves.len() as u64,
            nps: 0,
            hashfull: 0,
            time_ms: 0,
            pv: vec![b.clone()],
        }));
    }
    if !shared.abort.load(Ordering::Relaxed) {
        sink(SearchEvent::BestMove { best, ponder: None });
    }
}
