//! A per-thread cache of static evaluations by position key.
//!
//! The transposition table has no room left for an evaluation (see
//! `tt::Entry`), yet the search evaluates the same position again and
//! again: a TT hit that does not cut off, a re-search after a fail, the
//! quiescence stand-pat of a node the main search already scored. The
//! evaluation is a pure function of the position, so a direct-mapped table
//! that verifies the whole key returns exactly what `evaluate` would (the
//! node counts, hence `Bench:`, do not change) and spends the time once.

/// Entries per thread: 2^16 × 16 bytes = 1 MiB, small enough to stay in
/// the second-level cache next to the history tables.
const ENTRIES: usize = 1 << 16;

#[derive(Clone, Copy, Default)]
struct Slot {
    key: u64,
    eval: i32,
    filled: bool,
}

/// A direct-mapped table of `(key, evaluation)`.
pub struct EvalCache {
    slots: Box<[Slot]>,
}

impl EvalCache {
    #[must_use]
    pub fn new() -> EvalCache {
        EvalCache {
            slots: vec![Slot::default(); ENTRIES].into_boxed_slice(),
        }
    }

    /// The evaluation of the position with `key`, computed by `evaluate`
    /// unless this key's slot already holds it.
    #[inline]
    pub fn get_or(&mut self, key: u64, evaluate: impl FnOnce() -> i32) -> i32 {
        // The high bits pick the TT cluster; the low bits pick this slot,
        // so the two tables do not alias on the same bits.
        let slot = &mut self.slots[(key as usize) & (ENTRIES - 1)];
        if slot.filled && slot.key == key {
            return slot.eval;
        }
        let eval = evaluate();
        *slot = Slot {
            key,
            eval,
            filled: true,
        };
        eval
    }
}

impl Default for EvalCache {
    fn default() -> EvalCache {
        EvalCache::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn returns_the_cached_value_only_for_the_same_key() {
        let mut cache = EvalCache::new();
        assert_eq!(cache.get_or(7, || 11), 11);
        assert_eq!(cache.get_or(7, || panic!("evaluated twice")), 11);
        // Same slot, other key: evaluated and replaces the old entry.
        let other = 7 + ENTRIES as u64;
        assert_eq!(cache.get_or(other, || -3), -3);
        assert_eq!(cache.get_or(7, || 5), 5);
    }

    #[test]
    fn key_zero_is_not_a_hit_in_an_empty_slot() {
        let mut cache = EvalCache::new();
        assert_eq!(cache.get_or(0, || 42), 42);
    }
}
