//! Static evaluation per variant. Scores are centipawns from the point of view
//! of the side to move. Each variant implements [`Evaluate`] in its own module;
//! the shared machinery (score pairs, phase, table indexing) is in [`pst`],
//! every weight in [`params`] (one table per variant, numbers in
//! `eval/params/*.txt`), and [`weights`] turns an evaluation into the
//! linear [`weights::Trace`] the tuner fits.

pub mod chess;
pub mod params;
pub mod plunder;
pub mod pst;
pub mod tavreli;
#[cfg(test)]
mod test_util;
pub mod weights;

use movegen::{attacks, Bitboard, Chess, Color, Move, Plunder, Position, Role, Square, Tavreli};
use weights::{Table, Trace};

/// A position the search can score.
pub trait Evaluate: Position {
    /// Static evaluation in centipawns, positive when the side to move is better.
    fn evaluate(&self) -> i32;

    /// A cheap ordering hint for a capture (higher first): by default
    /// [`Evaluate::capture_value`] ten times over, minus a tenth of the
    /// moving piece's value (MVV/LVA).
    fn capture_order(&self, m: Move) -> i32 {
        let attacker = self.piece_at(m.from()).map_or(0, |p| role_value(p.role));
        self.capture_value(m) * 10 - attacker / 10
    }

    /// The most material the capture `m` can win outright, for ordering and
    /// delta pruning: by default the captured top piece (a pawn for en
    /// passant).
    fn capture_value(&self, m: Move) -> i32 {
        self.piece_at(m.to()).map_or(100, |p| role_value(p.role))
    }

    /// Static exchange evaluation: `true` if playing `m` and then trading
    /// off on its target square (least valuable attacker first, either side
    /// free to stop) wins at least `threshold` centipawns for the mover.
    /// The default, for variants without an exchange model, claims every
    /// move is good enough, which disables SEE-based pruning there.
    fn see_ge(&self, m: Move, threshold: i32) -> bool {
        let _ = (m, threshold);
        true
    }

    /// `false` where passing the turn would mislead the search (the side to
    /// move has only pawns: zugzwang). Null-move pruning is skipped then.
    fn null_move_safe(&self) -> bool {
        true
    }

    /// Most quiescence plies below the horizon. Chess-like captures remove
    /// material, so capture sequences end by themselves; where they do not
    /// (Tavreli keeps every piece, a tower can be taken back and forth), the
    /// search needs this bound or depth 1 never finishes.
    const QSEARCH_PLIES: usize = usize::MAX;

    /// `true` if quiescence should try this capture. Tavreli offers one
    /// capture per split of the moving tower; quiescence keeps the whole
    /// tower and the top piece alone, the two that decide most exchanges.
    fn quiescence_candidate(&self, m: Move) -> bool {
        let _ = m;
        true
    }
}

/// A variant whose evaluation can be written as a [`Trace`]: what the tuner
/// needs of it.
pub trait Traceable: Evaluate {
    /// Its weight table type.
    type Table: Table;

    /// The table the evaluation uses.
    fn table() -> &'static Self::Table;

    /// The evaluation as a linear function of the weights; its `eval` is
    /// [`Evaluate::evaluate`].
    fn trace(&self) -> Trace;
}

/// `Traceable` for a variant from its table type, table and trace function.
macro_rules! traceable {
    ($pos:ty, $table:ty, $value:expr, $trace:path) => {
        impl Traceable for $pos {
            type Table = $table;

            fn table() -> &'static $table {
                &$value
            }

            fn trace(&self) -> Trace {
                $trace(self)
            }
        }
    };
}

traceable!(Chess, params::ChessWeights, params::CHESS, chess::trace);
traceable!(
    Plunder,
    params::PlunderWeights,
    params::PLUNDER,
    plunder::trace
);
traceable!(
    Tavreli,
    params::TavreliWeights,
    params::TAVRELI,
    tavreli::trace
);

/// Squares a piece of `role` and `color` on `sq` attacks through `occ` (a
/// pawn: its two capture squares; a helgi: queen and knight).
#[must_use]
pub fn attacks_of(role: Role, color: Color, sq: Square, occ: Bitboard) -> Bitboard {
    match role {
        Role::Pawn => attacks::pawn(color, sq),
        Role::Knight => attacks::knight(sq),
        Role::Bishop => attacks::bishop(sq, occ),
        Role::Rook => attacks::rook(sq, occ),
        Role::Queen => attacks::queen(sq, occ),
        Role::King => attacks::king(sq),
        Role::Helgi => attacks::queen(sq, occ) | attacks::knight(sq),
    }
}

/// Rough material value of a role in centipawns: the search's ordering
/// and chess exchange scale, not an evaluation weight.
#[must_use]
pub const fn role_value(role: Role) -> i32 {
    match role {
        Role::Pawn => 100,
        Role::Knight => 320,
        Role::Bishop => 330,
        Role::Rook => 500,
        Role::Queen => 950,
        Role::Helgi => 1250,
        Role::King => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use volkhv_tests::random_positions;

    /// The trace, replayed in integers with the table's weights, is the
    /// evaluation, on positions from random games.
    fn trace_replays<P: Traceable>(games: u64) {
        let weights = P::table().weights();
        let positions = random_positions::<P>(games, games as usize, 150);
        assert!(positions.len() > 1000);
        for pos in positions {
            let t = pos.trace();
            assert_eq!(t.eval, pos.evaluate(), "{}", pos.fen());
            assert_eq!(t.replay(&weights), t.eval, "{}", pos.fen());
        }
    }

    #[test]
    fn traces_replay_to_the_evaluation() {
        trace_replays::<Chess>(60);
        trace_replays::<Plunder>(60);
        trace_replays::<Tavreli>(30);
    }

    #[test]
    fn traces_are_linear_in_the_weights() {
        // Doubling every weight doubles the blended sums; with the
        // drawish divisor and rounding the evaluation stays within 2.
        for pos in random_positions::<Chess>(3, 10, 100) {
            let t = pos.trace();
            let double: Vec<_> = Chess::table().weights().iter().map(|&w| w * 2).collect();
            assert!((t.replay(&double) - 2 * t.eval).abs() <= 2, "{}", pos.fen());
        }
    }
}
