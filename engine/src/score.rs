//! The search's score encoding: centipawns, and mates as distances from
//! the root. It has a module of its own because both the search and the
//! win/draw/loss model (`wdl`) read it, and neither should import the
//! other for it.
//!
//! Being mated at ply `n` scores `-MATE + n`, so a shorter mate scores
//! higher; the transposition table stores mate scores relative to the
//! node (`to_tt`, `from_tt`), because the same position recurs at
//! other plies.

use crate::limits::Score;

/// Deepest ply a search path may reach (extensions included). Mate scores
/// are told from centipawns by it: no path is longer.
pub const MAX_PLY: usize = 128;
/// Larger than any score.
pub const INFINITE: i32 = 32_001;
/// Score of being mated at the root; mated in `n` plies is `-MATE + n`.
pub const MATE: i32 = 32_000;
/// Scores beyond this (in absolute value) are mate scores.
pub const MATE_BOUND: i32 = MATE - MAX_PLY as i32;

/// The score of being mated at `ply`.
#[inline]
#[must_use]
pub const fn mated_at(ply: usize) -> i32 {
    -MATE + ply as i32
}

/// The score of mating at `ply`.
#[inline]
#[must_use]
pub const fn mate_at(ply: usize) -> i32 {
    MATE - ply as i32
}

/// Whether `score` is a mate (either side's), not centipawns.
#[inline]
#[must_use]
pub const fn is_mate(score: i32) -> bool {
    score.abs() >= MATE_BOUND
}

/// Converts an internal score to what GUIs are told.
#[must_use]
pub fn to_score(s: i32) -> Score {
    if s >= MATE_BOUND {
        Score::Mate((MATE - s + 1) / 2)
    } else if s <= -MATE_BOUND {
        Score::Mate(-(MATE + s) / 2)
    } else {
        Score::Cp(s)
    }
}

/// A mate score made relative to the node at `ply` for storing.
#[inline]
#[must_use]
pub(crate) fn to_tt(score: i32, ply: usize) -> i32 {
    let ply = ply as i32;
    if score >= MATE_BOUND {
        score + ply
    } else if score <= -MATE_BOUND {
        score - ply
    } else {
        score
    }
}

/// A stored score made relative to the root again.
#[inline]
#[must_use]
pub(crate) fn from_tt(score: i32, ply: usize) -> i32 {
    let ply = ply as i32;
    if score >= MATE_BOUND {
        score - ply
    } else if score <= -MATE_BOUND {
        score + ply
    } else {
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mate_scores_convert_to_moves() {
        assert_eq!(to_score(MATE - 1), Score::Mate(1));
        assert_eq!(to_score(MATE - 3), Score::Mate(2));
        assert_eq!(to_score(-MATE + 2), Score::Mate(-1));
        assert_eq!(to_score(-MATE + 4), Score::Mate(-2));
        assert_eq!(to_score(57), Score::Cp(57));
    }

    #[test]
    fn tt_mate_scores_round_trip() {
        for ply in [0usize, 1, 7, 60] {
            for s in [MATE - 3, -MATE + 9, 0, 250, -MATE_BOUND + 1] {
                assert_eq!(from_tt(to_tt(s, ply), ply), s);
            }
        }
    }

    #[test]
    fn mates_at_a_ply_are_mates_within_the_longest_path() {
        assert_eq!(mated_at(3), -MATE + 3);
        assert_eq!(mate_at(4), MATE - 4);
        assert!(is_mate(mated_at(MAX_PLY)) && is_mate(mate_at(MAX_PLY)));
        assert!(!is_mate(mate_at(MAX_PLY + 1)) && !is_mate(-MATE_BOUND + 1));
    }
}
