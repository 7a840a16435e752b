//! Win/draw/loss estimates from a search score: each variant's fitted
//! model ([`eval::Evaluate::WDL`], see `eval::wdl`), for the UCI
//! `UCI_ShowWDL` output and for callers such as a game review that turn
//! scores into winning chances.

use crate::limits::{Score, Wdl};
use crate::score::{is_mate, to_score};
use eval::wdl::Stage;
use eval::Evaluate;
use movegen::{with_variant, Variant};

/// Win/draw/loss per mille, from the side to move's view, of `score` in a
/// game of `variant` at `stage` ([`stage_of`]: the material left and the
/// ply). A mate is a certain win or loss.
#[must_use]
pub fn wdl(variant: Variant, score: Score, stage: Stage) -> Wdl {
    with_variant!(variant, P => of::<P>(score, stage))
}

/// [`wdl`] for a position type.
#[must_use]
pub fn of<P: Evaluate>(score: Score, stage: Stage) -> Wdl {
    match score {
        Score::Mate(n) if n > 0 => Wdl::WON,
        Score::Mate(_) => Wdl::LOST,
        Score::Cp(cp) => P::WDL.per_mille(cp, stage),
    }
}

/// [`of`] for an internal search score.
pub(crate) fn of_internal<P: Evaluate>(score: i32, stage: Stage) -> Wdl {
    if is_mate(score) {
        return of::<P>(to_score(score), stage);
    }
    of::<P>(Score::Cp(score), stage)
}

/// What the model reads of a position (its variant's
/// [`Evaluate::wdl_stage`]).
#[must_use]
pub fn stage_of<P: Evaluate>(pos: &P) -> Stage {
    pos.wdl_stage()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_variant_sums_to_1000_and_rises_with_the_score() {
        for v in Variant::ALL {
            for stage in [(0, 0), (9, 90), (30, 200), (60, 30), (78, 0)]
                .map(|(material, ply)| Stage { material, ply })
            {
                let mut last = wdl(v, Score::Cp(-5000), stage);
                for cp in -2000..=2000 {
                    let w = wdl(v, Score::Cp(cp), stage);
                    assert_eq!(w.win + w.draw + w.loss, 1000, "{v:?} {cp} {stage:?}");
                    assert!(
                        w.win >= last.win && w.loss <= last.loss,
                        "{v:?} {cp} {stage:?}"
                    );
                    last = w;
                }
                assert!(wdl(v, Score::Cp(2000), stage).win > wdl(v, Score::Cp(0), stage).win);
            }
        }
    }

    const MIDDLEGAME: Stage = Stage {
        material: 50,
        ply: 50,
    };

    #[test]
    fn mates_are_certain() {
        assert_eq!(wdl(Variant::Chess, Score::Mate(3), MIDDLEGAME), Wdl::WON);
        assert_eq!(
            wdl(Variant::Tavreli, Score::Mate(-1), MIDDLEGAME),
            Wdl::LOST
        );
        assert_eq!(wdl(Variant::Plunder, Score::Mate(0), MIDDLEGAME), Wdl::LOST);
    }
}
