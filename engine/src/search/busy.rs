//! Moves other threads are searching right now (Simplified ABDADA, after
//! Tom Kerrigan): with more than one thread, a node defers a late move
//! that another thread is already searching from the same position and
//! comes back to it after its other moves, by when that thread's result is
//! usually in the transposition table. Plain Lazy SMP has every thread
//! walk the same tree in the same order; deferring spreads them over it.
//!
//! The table is lossy and racy by design: a missed or stale mark only
//! costs duplicated work or a needless deferral, never a wrong result.

use movegen::Move;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// Marks kept per bucket.
const WAYS: usize = 4;
/// Buckets (a power of two).
const BUCKETS: usize = 1 << 15;
/// Shallower nodes are not worth the bookkeeping.
pub const MIN_DEPTH: i32 = 3;

/// The shared marks, `(position key, move)` hashed to one word.
pub struct BusyMoves {
    marks: Box<[[AtomicU64; WAYS]]>,
}

impl Default for BusyMoves {
    fn default() -> Self {
        BusyMoves {
            marks: (0..BUCKETS).map(|_| Default::default()).collect(),
        }
    }
}

/// The word that stands for searching `m` from the position with `key`;
/// never zero (zero marks a free way).
#[inline]
#[must_use]
pub fn mark(key: u64, m: Move) -> u64 {
    let mixed = key ^ u64::from(m.bits()).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    mixed | 1
}

impl BusyMoves {
    fn bucket(&self, mark: u64) -> &[AtomicU64; WAYS] {
        &self.marks[(mark >> 1) as usize & (BUCKETS - 1)]
    }

    /// Whether another thread has announced searching `mark`.
    #[inline]
    #[must_use]
    pub fn is_busy(&self, mark: u64) -> bool {
        self.bucket(mark).iter().any(|w| w.load(Relaxed) == mark)
    }

    /// Announces searching `mark` (in a free way, else over the first).
    pub fn enter(&self, mark: u64) {
        let bucket = self.bucket(mark);
        for w in bucket {
            let v = w.load(Relaxed);
            if v == mark {
                return;
            }
            if v == 0 {
                w.store(mark, Relaxed);
                return;
            }
        }
        bucket[0].store(mark, Relaxed);
    }

    /// Withdraws the announcement of `mark`.
    pub fn leave(&self, mark: u64) {
        for w in self.bucket(mark) {
            if w.load(Relaxed) == mark {
                w.store(0, Relaxed);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use movegen::Square;

    #[test]
    fn enter_and_leave() {
        let busy = BusyMoves::default();
        let a = mark(0x1234, Move::quiet(Square::E1, Square::A8));
        let b = mark(0x1234, Move::quiet(Square::D1, Square::A8));
        assert_ne!(a, b);
        assert!(!busy.is_busy(a));
        busy.enter(a);
        assert!(busy.is_busy(a));
        assert!(!busy.is_busy(b));
        busy.leave(a);
        assert!(!busy.is_busy(a));
    }

    #[test]
    fn a_full_bucket_still_takes_new_marks() {
        let busy = BusyMoves::default();
        // Marks that differ only above the bucket bits share a bucket.
        let marks: Vec<u64> = (1..=WAYS as u64 + 1).map(|i| (i << 40) | 1).collect();
        for &m in &marks {
            busy.enter(m);
        }
        assert!(busy.is_busy(marks[WAYS]));
    }
}
