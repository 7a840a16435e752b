//! Per-thread move-ordering memory: killers, counter moves, the butterfly
//! history, continuation histories, and the late-move-reduction table.

use crate::score::MAX_PLY;
use movegen::{Color, Move, Piece, Square};

/// Number of (piece, destination) contexts: 2 colours × 7 roles × 64.
pub const CONTEXTS: usize = 2 * 7 * 64;

/// The continuation-history context of a move: which piece went where.
#[inline]
pub fn context(piece: Piece, to: Square) -> usize {
    ((piece.color.index() * 7) + piece.role.index()) * 64 + to.index()
}

/// History values stay within ±`HISTORY_MAX` (the gravity update below
/// converges there).
pub const HISTORY_MAX: i32 = 16_384;

/// Ordering memory of one thread.
pub struct History {
    /// Two quiet moves per ply that recently caused a beta cutoff.
    pub killers: [[Option<Move>; 2]; MAX_PLY + 2],
    /// The quiet reply that refuted a move, by that move's from and to.
    pub counter: [[Option<Move>; 64]; 64],
    /// Butterfly history by side, from, to.
    pub butterfly: [[[i32; 64]; 64]; 2],
    /// Continuation history: how good a (piece, to) reply was after an
    /// earlier (piece, to) move, indexed `earlier * CONTEXTS + reply`.
    pub continuation: Vec<i32>,
    /// Correction history by side to move and correction key: the
    /// running average of (search score − static evaluation), in
    /// `1/CORRECTION_GRAIN` centipawns.
    pub correction: [[i32; CORRECTION_SIZE]; 2],
}

/// Entries per side in the correction history (a power of two).
pub const CORRECTION_SIZE: usize = 16_384;
/// Fixed-point scale of a correction entry.
const CORRECTION_GRAIN: i32 = 256;
/// The largest correction, in centipawns: a hint, never a verdict.
const CORRECTION_MAX_CP: i32 = 32;

impl History {
    /// Empty tables, boxed (they are too big for a stack frame).
    pub fn new() -> Box<History> {
        Box::new(History {
            killers: [[None; 2]; MAX_PLY + 2],
            counter: [[None; 64]; 64],
            butterfly: [[[0; 64]; 64]; 2],
            continuation: vec![0; CONTEXTS * CONTEXTS],
            correction: [[0; CORRECTION_SIZE]; 2],
        })
    }

    /// The correction of a static evaluation, in centipawns.
    #[inline]
    pub fn correction(&self, color: Color, key: Option<u64>) -> i32 {
        key.map_or(0, |k| {
            self.correction[color.index()][correction_index(k)] / CORRECTION_GRAIN
        })
    }

    /// Moves the correction for `key` towards `error` (search score minus
    /// the uncorrected static evaluation), the more the deeper the search
    /// that measured it.
    pub fn update_correction(&mut self, color: Color, key: Option<u64>, error: i32, depth: i32) {
        let Some(k) = key else { return };
        let weight = (depth * depth + 2 * depth + 1).min(128);
        let e = &mut self.correction[color.index()][correction_index(k)];
        let target = error.clamp(-CORRECTION_MAX_CP, CORRECTION_MAX_CP) * CORRECTION_GRAIN;
        *e = (*e * (256 - weight) + target * weight) / 256;
    }

    /// The continuation score of the reply `cur` after the earlier move
    /// `prev` (0 without one).
    #[inline]
    pub fn cont(&self, prev: Option<usize>, cur: usize) -> i32 {
        prev.map_or(0, |p| self.continuation[p * CONTEXTS + cur])
    }

    /// Rewards or punishes the reply `cur` after `prev`, with gravity.
    pub fn update_cont(&mut self, prev: Option<usize>, cur: usize, bonus: i32) {
        if let Some(p) = prev {
            let e = &mut self.continuation[p * CONTEXTS + cur];
            let b = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
            *e += b - *e * b.abs() / HISTORY_MAX;
        }
    }

    /// The history score of a quiet move.
    #[inline]
    pub fn score(&self, color: Color, m: Move) -> i32 {
        self.butterfly[color.index()][m.from().index()][m.to().index()]
    }

    /// Rewards (positive `bonus`) or punishes a quiet move; entries decay
    /// towards zero as they approach the bounds ("gravity").
    pub fn update(&mut self, color: Color, m: Move, bonus: i32) {
        let e = &mut self.butterfly[color.index()][m.from().index()][m.to().index()];
        let b = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
        *e += b - *e * b.abs() / HISTORY_MAX;
    }

    /// Records a quiet cutoff move at `ply` as a killer.
    pub fn add_killer(&mut self, ply: usize, m: Move) {
        let k = &mut self.killers[ply];
        if k[0] != Some(m) {
            k[1] = k[0];
            k[0] = Some(m);
        }
    }

    /// Forgets every killer (a new root: they belonged to other plies).
    pub fn clear_all_killers(&mut self) {
        self.killers = [[None; 2]; MAX_PLY + 2];
    }

    /// Clears the killers of the ply below (the children of a new node).
    pub fn clear_killers(&mut self, ply: usize) {
        self.killers[ply] = [None; 2];
    }

    /// Records `reply` as the refutation of `prev`.
    pub fn set_counter(&mut self, prev: Move, reply: Move) {
        self.counter[prev.from().index()][prev.to().index()] = Some(reply);
    }

    /// The refutation recorded for `prev`.
    pub fn counter_of(&self, prev: Move) -> Option<Move> {
        self.counter[prev.from().index()][prev.to().index()]
    }
}

/// The high bits of a key pick the correction slot (the low bits also
/// pick TT clusters).
#[inline]
fn correction_index(key: u64) -> usize {
    (key >> 50) as usize & (CORRECTION_SIZE - 1)
}

/// The history bonus for a cutoff at `depth`.
pub fn bonus(depth: i32) -> i32 {
    (16 * depth * depth + 32 * depth).min(1_600)
}

/// Late-move reductions by depth and move number (both capped at 63):
/// `0.8 + ln(depth)·ln(moves) / divisor`, a common shape (the divisor is
/// the variant's, `Evaluate::LMR_DIVISOR`).
pub struct Reductions([[u8; 64]; 64]);

impl Reductions {
    /// Builds the table for `divisor`.
    pub fn new(divisor: f64) -> Box<Reductions> {
        let mut t = [[0u8; 64]; 64];
        for (d, row) in t.iter_mut().enumerate().skip(1) {
            for (m, r) in row.iter_mut().enumerate().skip(1) {
                let v = 0.8 + (d as f64).ln() * (m as f64).ln() / divisor;
                *r = v.clamp(0.0, 60.0) as u8;
            }
        }
        Box::new(Reductions(t))
    }

    /// Base reduction for the `moves`-th move at `depth`.
    #[inline]
    pub fn get(&self, depth: i32, moves: usize) -> i32 {
        let d = depth.clamp(0, 63) as usize;
        i32::from(self.0[d][moves.min(63)])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use movegen::Square;

    #[test]
    fn history_stays_bounded() {
        let mut h = History::new();
        let m = Move::quiet(Square::E1, Square::E8);
        for _ in 0..10_000 {
            h.update(Color::White, m, bonus(40));
        }
        let s = h.score(Color::White, m);
        assert!(s > 0 && s <= HISTORY_MAX, "{s}");
        for _ in 0..10_000 {
            h.update(Color::White, m, -bonus(40));
        }
        let s = h.score(Color::White, m);
        assert!((-HISTORY_MAX..0).contains(&s), "{s}");
        assert_eq!(h.score(Color::Black, m), 0);
    }

    #[test]
    fn continuation_history_is_per_pair_and_bounded() {
        let mut h = History::new();
        let knight = Piece::new(Color::White, movegen::Role::Knight);
        let pawn = Piece::new(Color::Black, movegen::Role::Pawn);
        let a = context(knight, Square::E1);
        let b = context(pawn, Square::E8);
        assert_ne!(a, b);
        assert!(a < CONTEXTS && b < CONTEXTS);
        for _ in 0..1_000 {
            h.update_cont(Some(a), b, bonus(30));
        }
        let s = h.cont(Some(a), b);
        assert!(s > 0 && s <= HISTORY_MAX, "{s}");
        assert_eq!(h.cont(Some(b), a), 0);
        assert_eq!(h.cont(None, b), 0);
        h.update_cont(None, b, bonus(30));
        assert_eq!(h.cont(Some(b), b), 0);
    }

    #[test]
    fn correction_moves_towards_the_error_and_stays_bounded() {
        let mut h = History::new();
        let key = Some(0x1234_5678_9abc_def0);
        assert_eq!(h.correction(Color::White, key), 0);
        h.update_correction(Color::White, key, 20, 6);
        let once = h.correction(Color::White, key);
        assert!(once > 0 && once < 20, "{once}");
        for _ in 0..100 {
            h.update_correction(Color::White, key, 20, 12);
        }
        let settled = h.correction(Color::White, key);
        assert!((18..=20).contains(&settled), "{settled}");
        for _ in 0..100 {
            h.update_correction(Color::White, key, 5_000, 12);
        }
        let high = h.correction(Color::White, key);
        assert!(
            (CORRECTION_MAX_CP - 2..=CORRECTION_MAX_CP).contains(&high),
            "{high}"
        );
        assert_eq!(h.correction(Color::Black, key), 0);
        assert_eq!(h.correction(Color::White, None), 0);
        h.update_correction(Color::White, None, 100, 12);
        for _ in 0..100 {
            h.update_correction(Color::White, key, -5_000, 12);
        }
        let low = h.correction(Color::White, key);
        assert!(
            (-CORRECTION_MAX_CP..=2 - CORRECTION_MAX_CP).contains(&low),
            "{low}"
        );
    }

    #[test]
    fn reductions_grow_with_depth_and_move_number() {
        let r = Reductions::new(2.3);
        assert_eq!(r.get(1, 1), 0);
        assert!(r.get(20, 30) > r.get(3, 4));
        assert!(r.get(63, 63) <= 60);
        // A smaller divisor reduces as much or more, and more somewhere.
        let deeper = Reductions::new(1.8);
        let pairs = (1..64).flat_map(|d| (1..64).map(move |m| (d, m)));
        assert!(pairs.clone().all(|(d, m)| deeper.get(d, m) >= r.get(d, m)));
        assert!(pairs.clone().any(|(d, m)| deeper.get(d, m) > r.get(d, m)));
    }
}
