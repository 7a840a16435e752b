//! Counting results: wins, draws and losses for the first engine, and with
//! `--repeat` the game pairs (pentanomial) as their second halves arrive.

use crate::stats::{elo_pentanomial, elo_trinomial, EloEstimate, Pentanomial, Sprt};
use std::collections::HashMap;

/// Results from the first engine's point of view.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Wins.
    pub wins: u32,
    /// Draws.
    pub draws: u32,
    /// Losses.
    pub losses: u32,
    /// Game pairs `[LL, LD, DD+WL, WD, WW]` (with `--repeat`).
    pub penta: Pentanomial,
    /// The pairs of `penta[2]` that were a win and a loss (fastchess's
    /// `WL/DD Ratio`).
    pub wl_pairs: u32,
}

impl Tally {
    /// Games counted.
    #[must_use]
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// The Elo estimate: pentanomial with pairs, else trinomial.
    #[must_use]
    pub fn elo(&self, pairs: bool) -> Option<EloEstimate> {
        if pairs && self.penta.iter().any(|&c| c > 0) {
            elo_pentanomial(&self.penta)
        } else {
            elo_trinomial(self.wins, self.draws, self.losses)
        }
    }

    /// The LLR: pentanomial with pairs, else trinomial.
    #[must_use]
    pub fn llr(&self, sprt: &Sprt, pairs: bool) -> f64 {
        if pairs {
            sprt.llr_pentanomial(&self.penta)
        } else {
            sprt.llr_trinomial(self.wins, self.draws, self.losses)
        }
    }

    fn count(&mut self, half_points: u32) {
        match half_points {
            2 => self.wins += 1,
            1 => self.draws += 1,
            _ => self.losses += 1,
        }
    }
}

/// The tally, plus the first game of each pair whose second game has not
/// arrived: workers finish games in any order, and a pair counts only once
/// both halves are in.
#[derive(Debug, Default)]
pub(super) struct Scorer {
    tally: Tally,
    pairs: bool,
    waiting: HashMap<usize, u32>,
}

impl Scorer {
    /// With `pairs`, games `2k` and `2k + 1` form pair `k`.
    pub(super) fn new(pairs: bool) -> Scorer {
        Scorer {
            pairs,
            ..Scorer::default()
        }
    }

    /// Counts game `index` (0-based), in which the first engine scored
    /// `half_points`.
    pub(super) fn add(&mut self, index: usize, half_points: u32) {
        self.tally.count(half_points);
        if !self.pairs {
            return;
        }
        if let Some(first) = self.waiting.remove(&(index / 2)) {
            self.tally.penta[(first + half_points) as usize] += 1;
            if first.abs_diff(half_points) == 2 {
                self.tally.wl_pairs += 1;
            }
        } else {
            self.waiting.insert(index / 2, half_points);
        }
    }

    pub(super) fn tally(&self) -> &Tally {
        &self.tally
    }

    pub(super) fn into_tally(self) -> Tally {
        self.tally
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairs_count_once_both_halves_arrive_in_any_order() {
        let mut s = Scorer::new(true);
        // Pair 1 (games 2, 3) finishes before pair 0 (games 0, 1).
        s.add(3, 2);
        s.add(0, 1);
        assert_eq!(s.tally().penta, [0; 5]);
        s.add(2, 2);
        assert_eq!(s.tally().penta, [0, 0, 0, 0, 1]);
        s.add(1, 0);
        let t = s.into_tally();
        assert_eq!((t.wins, t.draws, t.losses), (2, 1, 1));
        assert_eq!(t.penta, [0, 1, 0, 0, 1]);
        assert_eq!(t.wl_pairs, 0);
        let mut s = Scorer::new(true);
        for (i, p) in [2, 0, 1, 1].into_iter().enumerate() {
            s.add(i, p);
        }
        assert_eq!((s.tally().penta, s.tally().wl_pairs), ([0, 0, 2, 0, 0], 1));
    }

    #[test]
    fn single_games_leave_the_pairs_empty() {
        let mut s = Scorer::new(false);
        for (i, p) in [2, 2, 1, 0, 0].into_iter().enumerate() {
            s.add(i, p);
        }
        let t = s.into_tally();
        assert_eq!((t.wins, t.draws, t.losses, t.games()), (2, 1, 2, 5));
        assert_eq!(t.penta, [0; 5]);
    }
}
