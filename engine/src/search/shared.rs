//! What the threads of one search share ([`Shared`]: the transposition
//! table, the stop flags, the node counter, the histories kept between
//! searches) and read ([`Control`]: limits, clock, options). Its own
//! module so that the controller and the workers both import it and not
//! each other.

use super::history::History;
use crate::time::Budget;
use crate::tt::Tt;
use std::any::TypeId;
use std::sync::atomic::{AtomicBool, AtomicU64};
use std::sync::{Mutex, PoisonError};
use std::time::Instant;

/// State shared by all search threads and the engine.
pub struct Shared {
    /// Finish soon and report the best move.
    pub stop: AtomicBool,
    /// Finish soon and report nothing.
    pub abort: AtomicBool,
    /// Searching on the opponent's time until `ponderhit`.
    pub pondering: AtomicBool,
    /// Nodes searched by all threads in the current search (flushed in
    /// batches by each thread).
    pub nodes: AtomicU64,
    /// The transposition table.
    pub tt: Tt,
    /// What each thread's histories learnt in earlier searches of this
    /// game, by thread id, and for which position type.
    memory: Mutex<Memory>,
}

/// Histories kept between the searches of one game: move-ordering and
/// correction statistics stay good from one move to the next, and a fresh
/// search should not relearn them. Tagged by position type so that a
/// search of another variant starts empty.
#[derive(Default)]
struct Memory {
    variant: Option<TypeId>,
    histories: Vec<Option<Box<History>>>,
}

impl Shared {
    /// Shared state with a hash table of `hash_mb` MiB.
    #[must_use]
    pub fn new(hash_mb: usize) -> Shared {
        Shared {
            stop: AtomicBool::new(false),
            abort: AtomicBool::new(false),
            pondering: AtomicBool::new(false),
            nodes: AtomicU64::new(0),
            tt: Tt::new(hash_mb),
            memory: Mutex::new(Memory::default()),
        }
    }

    /// Forgets everything learnt (new game).
    pub fn clear(&self) {
        self.tt.clear();
        *self.lock_memory() = Memory::default();
    }

    fn lock_memory(&self) -> std::sync::MutexGuard<'_, Memory> {
        // The memory is only ever replaced whole, so a panic elsewhere
        // cannot leave it half-written.
        self.memory.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Thread `id`'s histories from the last search of `P`, killers
    /// cleared (they belong to the plies of another root), or empty ones.
    pub(super) fn take_history<P: 'static>(&self, id: usize) -> Box<History> {
        let mut memory = self.lock_memory();
        if memory.variant != Some(TypeId::of::<P>()) {
            return History::new();
        }
        match memory.histories.get_mut(id).and_then(Option::take) {
            Some(mut h) => {
                h.clear_all_killers();
                h
            }
            None => History::new(),
        }
    }

    /// Keeps thread `id`'s histories for the next search of `P`.
    pub(super) fn keep_history<P: 'static>(&self, id: usize, history: Box<History>) {
        let mut memory = self.lock_memory();
        let variant = Some(TypeId::of::<P>());
        if memory.variant != variant {
            *memory = Memory {
                variant,
                histories: Vec::new(),
            };
        }
        if memory.histories.len() <= id {
            memory.histories.resize_with(id + 1, || None);
        }
        memory.histories[id] = Some(history);
    }
}

/// What every thread of one search reads: limits, clock, options.
pub(crate) struct Control {
    pub start: Instant,
    pub budget: Option<Budget>,
    pub max_depth: i32,
    pub node_limit: Option<u64>,
    pub mate: Option<u32>,
    pub infinite: bool,
    /// Lines searched: MultiPV, or more for a level's choice.
    pub multipv: usize,
    /// Lines reported (MultiPV as the GUI asked).
    pub report_multipv: usize,
    pub threads: usize,
    /// Report win/draw/loss with each line.
    pub show_wdl: bool,
    /// The root's stage, for the win/draw/loss model.
    pub wdl_stage: eval::wdl::Stage,
}

impl Control {
    pub fn elapsed_ms(&self) -> u64 {
        u64::try_from(self.start.elapsed().as_millis()).unwrap_or(u64::MAX)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use movegen::Move;

    /// A history that has learnt something: one butterfly entry, one killer.
    fn learnt() -> Box<History> {
        let mut h = History::new();
        let m = Move::quiet(movegen::Square::E1, movegen::Square::E8);
        h.update(movegen::Color::White, m, 500);
        h.add_killer(3, m);
        h
    }

    fn butterfly_e1e8(h: &History) -> i32 {
        h.butterfly[0][movegen::Square::E1.index()][movegen::Square::E8.index()]
    }

    #[test]
    fn histories_carry_to_the_next_search_of_the_same_variant_only() {
        let shared = Shared::new(1);
        // Nothing kept yet: empty.
        assert_eq!(butterfly_e1e8(&shared.take_history::<u8>(0)), 0);

        shared.keep_history::<u8>(1, learnt());
        let again = shared.take_history::<u8>(1);
        assert_eq!(butterfly_e1e8(&again), 500);
        assert_eq!(
            again.killers[3],
            [None, None],
            "killers belong to the old root"
        );
        // Taken: a second thread with the same id does not share it.
        assert_eq!(butterfly_e1e8(&shared.take_history::<u8>(1)), 0);

        shared.keep_history::<u8>(0, learnt());
        assert_eq!(
            butterfly_e1e8(&shared.take_history::<u16>(0)),
            0,
            "other variant"
        );
        shared.keep_history::<u16>(0, learnt());
        assert_eq!(
            butterfly_e1e8(&shared.take_history::<u8>(0)),
            0,
            "replaced whole"
        );

        shared.keep_history::<u16>(0, learnt());
        shared.clear();
        assert_eq!(
            butterfly_e1e8(&shared.take_history::<u16>(0)),
            0,
            "a new game"
        );
    }
}
