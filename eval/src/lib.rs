//! Static evaluation per variant. Scores are centipawns from the point of view
//! of the side to move. Each variant implements [`Evaluate`] in its own module;
//! the shared machinery (score pairs, phase, table indexing) is in [`pst`],
//! every weight in one table per variant, declared in the variant's module
//! with its numbers in `eval/params/<variant>.txt` (see [`weights`], which
//! also turns an evaluation into the linear [`weights::Trace`] the tuner
//! fits). A new variant is one more module here: its `Evaluate` impl, its
//! table and its `traceable!` line.

/// `Traceable` for a variant: its table type, the table in use, the text
/// it was read from and its trace (a function of the position; each
/// variant module calls it).
macro_rules! traceable {
    ($pos:ty, $table:ty, $value:expr, $source:expr, $trace:expr) => {
        impl $crate::Traceable for $pos {
            type Table = $table;
            const SOURCE: &'static str = $source;

            fn table() -> &'static $table {
                &$value
            }

            fn trace(&self) -> $crate::weights::Trace {
                $trace(self)
            }
        }
    };
}
pub(crate) use traceable;

pub mod chess;
pub mod endgame;
pub mod margins;
pub mod nets;
pub mod nnue;
pub mod plunder;
pub mod pst;
pub mod tavreli;
#[cfg(test)]
mod test_util;
pub mod wdl;
pub mod weights;

use movegen::{attacks, Bitboard, Color, Move, Position, Role, Square};
use weights::{Table, Trace};

/// A position the search can score.
pub trait Evaluate: Position {
    /// The variant's win/draw/loss model, fitted on its self-play games.
    const WDL: wdl::WdlModel;

    /// Static evaluation in centipawns, positive when the side to move is better.
    fn evaluate(&self) -> i32;

    /// The material left on the board for the win/draw/loss model
    /// ([`wdl::material_value`], both sides, kings not counted). By default
    /// the pieces that stand on the squares; PlunderChess's vests are
    /// one-use and not counted.
    fn material(&self) -> u32 {
        (0..64)
            .filter_map(Square::from_index)
            .filter_map(|sq| self.piece_at(sq))
            .map(|p| wdl::material_value(p.role))
            .sum()
    }

    /// What the win/draw/loss model reads of the position besides the
    /// score: its material and its ply (from the move counter and the side
    /// to move; a game that began from a FEN counts from that FEN's).
    fn wdl_stage(&self) -> wdl::Stage {
        let black = u32::from(self.turn() == Color::Black);
        wdl::Stage {
            material: self.material(),
            ply: self.fullmoves().saturating_sub(1).saturating_mul(2) + black,
        }
    }

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
        top_piece_value(self, m)
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

    /// A hash of the part of the position whose evaluation errors persist
    /// (chess: the pawn structure), for the search's correction history:
    /// what searches found about positions with this key corrects the
    /// static evaluation of the next ones. `None` (the default): the
    /// evaluation is used as it is.
    fn correction_key(&self) -> Option<u64> {
        None
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

    /// The search's pruning margins in this variant's centipawns
    /// ([`margins::Margins`]); chess's by default.
    const MARGINS: margins::Margins = margins::Margins::CHESS;

    /// Late-move reductions grow as `ln(depth) · ln(moves) / LMR_DIVISOR`:
    /// smaller reduces more, for a variant whose late moves are seldom the
    /// best (chess's, tuned with the search, by default).
    const LMR_DIVISOR: f64 = 2.3;

    /// `true` where the search extends a TT move that is much better than
    /// every other move (singular extensions). Off by default: it is kept
    /// only for the variants whose matches measured a gain.
    const SINGULAR_EXTENSIONS: bool = false;

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

    /// The weights file the table was read from.
    const SOURCE: &'static str;

    /// The table the evaluation uses.
    fn table() -> &'static Self::Table;

    /// The hand-written evaluation as a linear function of the weights; its
    /// `eval` is [`Evaluate::evaluate`] without a network's correction
    /// (chess's [`nnue`], a variant's embedded [`nets`] network):
    /// `chess::evaluate_board`, `plunder::hand_written`,
    /// `tavreli::hand_written`.
    fn trace(&self) -> Trace;
}

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

/// The value of the piece on `m`'s target square (a pawn when there is
/// none: en passant), the default bound of what a capture wins.
#[must_use]
pub fn top_piece_value<P: Position>(pos: &P, m: Move) -> i32 {
    pos.piece_at(m.to()).map_or(100, |p| role_value(p.role))
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
    use movegen::{Chess, Plunder, Tavreli};
    use volkhv_tests::random_positions;

    /// The trace, replayed in integers with the table's weights, is the
    /// evaluation, on positions from random games.
    fn trace_replays<P: Traceable>(games: u64, hand_written: fn(&P) -> i32) {
        let weights = P::table().weights();
        let positions = random_positions::<P>(games, games as usize, 150);
        assert!(positions.len() > 1000);
        for pos in positions {
            let t = pos.trace();
            assert_eq!(t.eval, hand_written(&pos), "{}", pos.fen());
            assert_eq!(t.replay(&weights), t.eval, "{}", pos.fen());
        }
    }

    #[test]
    fn traces_replay_to_the_evaluation() {
        trace_replays::<Chess>(60, |p| chess::evaluate_board(p.board(), p.turn()));
        trace_replays::<Plunder>(60, plunder::hand_written);
        trace_replays::<Tavreli>(30, tavreli::hand_written);
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

#[cfg(test)]
mod table_tests {
    use super::*;
    use crate::chess::{ChessWeights, CHESS};
    use crate::pst::S;
    use crate::tavreli::{TavreliWeights, TAVRELI};
    use crate::weights::Reader;
    use crate::weights::{Kind, Table};
    use movegen::{with_variant, Variant};

    /// The files are exactly what the tuner writes, so a tuned table drops
    /// in as a whole-file replacement and a hand edit that misplaces a
    /// number shows up here.
    fn canonical<T: Table + PartialEq>(table: &T, file: &str) {
        assert_eq!(
            table.to_text(),
            file,
            "{} file is not canonical",
            T::VARIANT
        );
        assert_eq!(&T::from_text(file).unwrap(), table);
        assert_eq!(T::names().len(), T::slots().len());
        assert_eq!(table.weights().len(), T::slots().len());
    }

    #[test]
    fn table_files_are_canonical() {
        for v in Variant::ALL {
            with_variant!(v, P => canonical(P::table(), P::SOURCE));
        }
    }

    #[test]
    fn weights_round_trip_and_fixed_fields_stay() {
        let w: Vec<S> = CHESS.weights().iter().map(|&s| s + S(1, -1)).collect();
        let t = CHESS.with_weights(&w);
        let flat_as_written: Vec<S> = ChessWeights::slots()
            .iter()
            .zip(&w)
            .map(|(slot, &s)| {
                if slot.kind == Kind::Flat {
                    S(s.0, s.0)
                } else {
                    s
                }
            })
            .collect();
        assert_eq!(t.weights(), flat_as_written);
        let base = Reader::<_, S>::new(&t);
        assert_eq!(
            base.mobility_base(2),
            Reader::<_, S>::new(&CHESS).mobility_base(2)
        );
        assert_eq!(base.tempo(), Reader::<_, S>::new(&CHESS).tempo() + S(1, -1));
        // A flat weight takes the pair's first value.
        let w: Vec<S> = TAVRELI.weights().iter().map(|&s| s + S(3, 7)).collect();
        let t = TAVRELI.with_weights(&w);
        assert_eq!(
            Reader::<_, S>::new(&t).stack_bonus(),
            Reader::<_, S>::new(&TAVRELI).stack_bonus() + S(3, 3)
        );
    }

    #[test]
    fn names_and_kinds() {
        let names = ChessWeights::names();
        assert_eq!(names[0], "material[0]");
        assert_eq!(names[6 + 64 + 28], "pst.knight[28]");
        assert!(names.contains(&"tempo".to_string()));
        assert!(!names.iter().any(|n| n.starts_with("mobility_base")));
        let slots = ChessWeights::slots();
        assert!(slots.iter().all(|s| s.kind != Kind::Fixed));
        assert_eq!(slots.last().map(|s| s.kind), Some(Kind::Flat));
        assert_eq!(TavreliWeights::WEIGHTS, TavreliWeights::NUMBERS);
    }

    #[test]
    fn bad_files_are_errors() {
        let text = CHESS.to_text();
        // The chess file with its middlegame material line replaced (line 8).
        let with_material = |numbers: &str| {
            text.lines()
                .map(|l| {
                    if l.starts_with("material.mg") {
                        format!("material.mg {numbers}")
                    } else {
                        l.to_string()
                    }
                })
                .collect::<Vec<_>>()
                .join("\n")
        };
        let short = with_material("82 330 350 470 0");
        assert!(ChessWeights::from_text(&short)
            .unwrap_err()
            .contains("numbers, the layout has"));
        let bad = with_material("82 330 350 470 10x0 0");
        let e = ChessWeights::from_text(&bad).unwrap_err();
        assert!(e.starts_with("line 8: \"10x0\""), "{e}");
        let huge = with_material("82 330 350 470 99999999999 0");
        assert!(ChessWeights::from_text(&huge).is_err());
        assert!(ChessWeights::from_text(&with_material("82 330 350 470 1000 0")).is_ok());
    }
}
