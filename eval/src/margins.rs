//! The search's pruning margins: how far an evaluation must be from α or β
//! before a node or a move is given up unsearched. They are centipawns of
//! the variant's own evaluation, and the variants' scales differ (a Texel
//! fit of the results needs K 1.68 for chess, 1.86 for PlunderChess and
//! 0.54 for Tavreli: a Tavreli centipawn is worth about a third of a chess
//! one), so each variant names its own ([`crate::Evaluate::MARGINS`]).

/// Margins in centipawns; the search multiplies the per-depth ones by the
/// remaining depth.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Margins {
    /// Reverse futility: a node this much per ply of depth above β
    /// returns its evaluation...
    pub reverse_futility: i32,
    /// ...less this much when the evaluation is improving.
    pub reverse_futility_improving: i32,
    /// The null move is reduced one ply more for each this much its node's
    /// evaluation stands above β (at most three).
    pub null_move_excess: i32,
    /// Razoring: a node this much per ply below α is searched by
    /// quiescence alone.
    pub razoring: i32,
    /// Futility: late quiet moves are skipped where the evaluation plus
    /// this much...
    pub futility_base: i32,
    /// ...plus this much per ply stays at or below α.
    pub futility: i32,
    /// Quiescence skips a capture whose victim, won for free, still leaves
    /// the stand-pat score this much short of α.
    pub delta: i32,
}

impl Margins {
    /// Chess's, tuned with the search: the default.
    pub const CHESS: Margins = Margins {
        reverse_futility: 80,
        reverse_futility_improving: 60,
        null_move_excess: 200,
        razoring: 250,
        futility_base: 100,
        futility: 90,
        delta: 200,
    };

    /// Every margin times `percent` / 100 (for a variant whose centipawns
    /// are worth less or more than chess's), none below 1.
    ///
    /// # Panics
    /// `percent` below 1 (at compile time where a variant's constant is
    /// made): the null move divides by its margin.
    #[must_use]
    pub const fn scaled(self, percent: i32) -> Margins {
        assert!(percent >= 1, "a margin scaled to nothing");
        const fn s(x: i32, percent: i32) -> i32 {
            let scaled = x * percent / 100;
            if scaled < 1 {
                1
            } else {
                scaled
            }
        }
        Margins {
            reverse_futility: s(self.reverse_futility, percent),
            reverse_futility_improving: s(self.reverse_futility_improving, percent),
            null_move_excess: s(self.null_move_excess, percent),
            razoring: s(self.razoring, percent),
            futility_base: s(self.futility_base, percent),
            futility: s(self.futility, percent),
            delta: s(self.delta, percent),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Margins;

    #[test]
    fn scaling_multiplies_every_margin() {
        assert_eq!(Margins::CHESS.scaled(100), Margins::CHESS);
        let double = Margins::CHESS.scaled(200);
        assert_eq!(double.reverse_futility, 160);
        assert_eq!(double.reverse_futility_improving, 120);
        assert_eq!(double.null_move_excess, 400);
        assert_eq!(double.razoring, 500);
        assert_eq!(double.futility_base, 200);
        assert_eq!(double.futility, 180);
        assert_eq!(double.delta, 400);
        // However small the scale, no margin is 0 (the null move divides
        // by its own).
        let tiny = Margins::CHESS.scaled(1);
        assert_eq!((tiny.null_move_excess, tiny.reverse_futility), (2, 1));
    }
}
