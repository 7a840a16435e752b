//! The win/draw/loss model: how often a position with a given search score
//! ends in a win, a draw or a loss, fitted per variant on the engine's own
//! self-play games (`volkhv datagen` data, `volkhv-tune wdl`; the numbers
//! and their quality are in `docs/tuning.md`).
//!
//! As Stockfish's: with the score `s` in centipawns from the side to move's
//! view, `P(win) = σ((s − a)/b)` and `P(loss) = σ((−s − a)/b)`, the rest a
//! draw. `a ≥ 0` is how far ahead a side must be to be as likely to win as
//! not; `b` is how spread out that is. Both move linearly with the game's
//! ply (capped), since the same score converts differently in an opening
//! and an ending. Each variant declares its own model as
//! [`Evaluate::WDL`](crate::Evaluate::WDL).

/// A fitted model's four numbers.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WdlModel {
    /// `a` at ply 0.
    pub a0: f64,
    /// Change of `a` per [`PLY_SCALE`] plies.
    pub a1: f64,
    /// `b` at ply 0.
    pub b0: f64,
    /// Change of `b` per [`PLY_SCALE`] plies.
    pub b1: f64,
}

/// Plies past this count as this (long games are rare in the data).
pub const PLY_CAP: u32 = 240;
/// The unit of ply in `a1` and `b1`.
pub const PLY_SCALE: f64 = 100.0;
/// The smallest spread `b` used, in centipawns: a fit gone wrong never
/// turns the model into a step.
pub const MIN_SPREAD: f64 = 10.0;

/// Win, draw and loss per mille from the side to move's view; they sum to
/// 1000.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Wdl {
    /// Wins per mille.
    pub win: u32,
    /// Draws per mille.
    pub draw: u32,
    /// Losses per mille.
    pub loss: u32,
}

impl Wdl {
    /// A won position (a mate for the side to move).
    pub const WON: Wdl = Wdl {
        win: 1000,
        draw: 0,
        loss: 0,
    };
    /// A lost position.
    pub const LOST: Wdl = Wdl {
        win: 0,
        draw: 0,
        loss: 1000,
    };

    /// The expected points (win 1, draw ½) in `0.0..=1.0`.
    #[must_use]
    pub fn expectation(self) -> f64 {
        (f64::from(self.win) + f64::from(self.draw) / 2.0) / 1000.0
    }
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

impl WdlModel {
    /// `(a, b)` at `ply`.
    #[must_use]
    pub fn params(&self, ply: u32) -> (f64, f64) {
        let x = f64::from(ply.min(PLY_CAP)) / PLY_SCALE;
        let a = (self.a0 + self.a1 * x).max(0.0);
        let b = (self.b0 + self.b1 * x).max(MIN_SPREAD);
        (a, b)
    }

    /// `(win, draw, loss)` probabilities of a score in centipawns (side to
    /// move's view) at `ply`; `a ≥ 0` keeps the draw's share non-negative.
    #[must_use]
    pub fn probabilities(&self, cp: f64, ply: u32) -> (f64, f64, f64) {
        let (a, b) = self.params(ply);
        let win = sigmoid((cp - a) / b);
        let loss = sigmoid((-cp - a) / b);
        (win, (1.0 - win - loss).max(0.0), loss)
    }

    /// Per mille, rounded so the three sum to 1000: win and loss are
    /// rounded on their own (each monotone in the score) and the draw takes
    /// the rest.
    #[must_use]
    pub fn per_mille(&self, cp: i32, ply: u32) -> Wdl {
        let (w, _, l) = self.probabilities(f64::from(cp), ply);
        // Both are in 0..=1000 and w + l <= 1 (a >= 0), so only rounding
        // can push the sum one past 1000.
        let win = (w * 1000.0).round() as u32;
        let loss = ((l * 1000.0).round() as u32).min(1000 - win);
        Wdl {
            win,
            draw: 1000 - win - loss,
            loss,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const M: WdlModel = WdlModel {
        a0: 150.0,
        a1: -20.0,
        b0: 60.0,
        b1: 10.0,
    };

    #[test]
    fn sums_to_1000_and_is_monotone_in_the_score() {
        for ply in [0, 40, 120, 400] {
            let mut last: Option<Wdl> = None;
            for cp in (-3000..=3000).step_by(7) {
                let w = M.per_mille(cp, ply);
                assert_eq!(w.win + w.draw + w.loss, 1000, "{cp} {ply}");
                if let Some(p) = last {
                    assert!(
                        w.win >= p.win && w.loss <= p.loss,
                        "{cp} {ply}: {p:?} {w:?}"
                    );
                }
                last = Some(w);
            }
        }
        assert_eq!(M.per_mille(5000, 60), Wdl::WON);
        assert_eq!(M.per_mille(-5000, 60).loss, 1000);
    }

    #[test]
    fn even_score_is_symmetric_and_mostly_drawn_for_a_wide_draw_band() {
        let w = M.per_mille(0, 0);
        assert_eq!(w.win, w.loss);
        assert!(w.draw > 800, "{w:?}");
        assert!((M.per_mille(0, 0).expectation() - 0.5).abs() < 1e-9);
    }

    #[test]
    fn a_broken_fit_still_gives_probabilities() {
        let bad = WdlModel {
            a0: -50.0,
            a1: 0.0,
            b0: -3.0,
            b1: 0.0,
        };
        let (w, d, l) = bad.probabilities(0.0, 10);
        assert!((w + d + l - 1.0).abs() < 1e-12 && d >= 0.0);
        assert_eq!(
            bad.per_mille(1, 10).win + bad.per_mille(1, 10).draw + bad.per_mille(1, 10).loss,
            1000
        );
    }
}
