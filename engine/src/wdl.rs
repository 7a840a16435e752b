//! Win/draw/loss estimates from a search score: each variant's fitted
//! model ([`eval::Evaluate::WDL`], see `eval::wdl`), for the UCI
//! `UCI_ShowWDL` output and for callers such as a game review that turn
//! scores into winning chances.

use crate::limits::{Score, Wdl};
use crate::score::{is_mate, to_score};
use eval::Evaluate;
use movegen::{with_variant, Color, Position, Variant};

/// Win/draw/loss per mille, from the side to move's view, of `score` in a
/// game of `variant` at `ply` (half-moves since the start: the model knows
/// that a score converts more surely late in a game). A mate is a certain
/// win or loss.
#[must_use]
pub fn wdl(variant: Variant, score: Score, ply: u32) -> Wdl {
    with_variant!(variant, P => of::<P>(score, ply))
}

/// [`wdl`] for a position type.
#[must_use]
pub fn of<P: Evaluate>(score: Score, ply: u32) -> Wdl {
    match score {
        Score::Mate(n) if n > 0 => Wdl::WON,
        Score::Mate(_) => Wdl::LOST,
        Score::Cp(cp) => P::WDL.per_mille(cp, ply),
    }
}

/// [`of`] for an internal search score.
pub(crate) fn of_internal<P: Evaluate>(score: i32, ply: u32) -> Wdl {
    if is_mate(score) {
        return of::<P>(to_score(score), ply);
    }
    of::<P>(Score::Cp(score), ply)
}

/// The ply of a position from its move counter and side to move (what a
/// FEN tells; a game's own history may be shorter when it began from one).
#[must_use]
pub fn ply_of<P: Position>(pos: &P) -> u32 {
    let black = u32::from(pos.turn() == Color::Black);
    pos.fullmoves().saturating_sub(1).saturating_mul(2) + black
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_variant_sums_to_1000_and_rises_with_the_score() {
        for v in Variant::ALL {
            for ply in [0, 30, 90, 200] {
                let mut last = wdl(v, Score::Cp(-5000), ply);
                for cp in -2000..=2000 {
                    let w = wdl(v, Score::Cp(cp), ply);
                    assert_eq!(w.win + w.draw + w.loss, 1000, "{v:?} {cp} {ply}");
                    assert!(w.win >= last.win && w.loss <= last.loss, "{v:?} {cp} {ply}");
                    last = w;
                }
                assert!(wdl(v, Score::Cp(2000), ply).win > wdl(v, Score::Cp(0), ply).win);
            }
        }
    }

    #[test]
    fn mates_are_certain() {
        assert_eq!(wdl(Variant::Chess, Score::Mate(3), 50), Wdl::WON);
        assert_eq!(wdl(Variant::Tavreli, Score::Mate(-1), 50), Wdl::LOST);
        assert_eq!(wdl(Variant::Plunder, Score::Mate(0), 50), Wdl::LOST);
    }
}
