//! The win/draw/loss model: how often a position with a given search score
//! ends in a win, a draw or a loss, fitted per variant on the engine's own
//! self-play games (`volkhv datagen` data, `volkhv-tune wdl`; the numbers
//! and their quality are in `docs/tuning.md`).
//!
//! As Stockfish's since 2023: with the score `s` in centipawns from the
//! side to move's view, `P(win) = σ((s − a)/b)` and `P(loss) = σ((−s −
//! a)/b)`, the rest a draw. `a ≥ 0` is how far ahead a side must be to be
//! as likely to win as not; `b` is how spread out that is. Both depend on
//! the game's [`Stage`]: quadratically on the material left on the board
//! ([`material_value`] summed over the pieces, kings not counted: each
//! variant says how in [`Evaluate::material`](crate::Evaluate::material)),
//! since the same score converts more surely with a queen against a bare
//! king than with every piece still on the board; and linearly on the ply
//! (capped), since the engine's own games show that a score holds up less
//! the longer a game has gone on. With both, the held-out log-loss is lower
//! than with either alone in every variant (`docs/tuning.md`). Each variant
//! declares its own model as [`Evaluate::WDL`](crate::Evaluate::WDL).

use movegen::Role;

/// A fitted model: `a` and `b` each `c0 + c1·x + c2·x² + p·y`, with
/// `x = material / MATERIAL_SCALE` (the material clamped to
/// `material_min..=MATERIAL_MAX`) and `y = ply / PLY_SCALE` (the ply capped
/// at `PLY_CAP`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WdlModel {
    /// Less material than this counts as this: the least the fit's data
    /// holds in any number (its first percentile), so that an ending the
    /// self-play games rarely reach is never extrapolated to.
    pub material_min: u32,
    /// `a`'s material coefficients.
    pub a: [f64; 3],
    /// `b`'s material coefficients.
    pub b: [f64; 3],
    /// `a`'s change per `PLY_SCALE` plies.
    pub a_ply: f64,
    /// `b`'s change per `PLY_SCALE` plies.
    pub b_ply: f64,
}

/// What the model reads of a position besides the score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stage {
    /// The material left ([`Evaluate::material`](crate::Evaluate::material)).
    pub material: u32,
    /// Half-moves since the game's start (from a FEN: its move counter and
    /// side to move).
    pub ply: u32,
}

/// More material than this counts as this (a full chess set is 78; vests
/// and helgi can add some).
pub const MATERIAL_MAX: u32 = 80;
/// The unit of material in the polynomials.
pub const MATERIAL_SCALE: f64 = 58.0;
/// Plies past this count as this (long games are rare in the data).
pub const PLY_CAP: u32 = 240;
/// The unit of ply in `a_ply` and `b_ply`.
pub const PLY_SCALE: f64 = 100.0;
/// The smallest spread `b` used, in centipawns: a fit gone wrong never
/// turns the model into a step.
pub const MIN_SPREAD: f64 = 10.0;

/// A piece's worth in the model's material count, in pawns (the usual
/// 1-3-3-5-9; the helgi, queen and knight in one, 12; kings 0).
#[must_use]
pub const fn material_value(role: Role) -> u32 {
    match role {
        Role::Pawn => 1,
        Role::Knight | Role::Bishop => 3,
        Role::Rook => 5,
        Role::Queen => 9,
        Role::Helgi => 12,
        Role::King => 0,
    }
}

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

fn polynomial(c: &[f64; 3], x: f64) -> f64 {
    (c[2] * x + c[1]) * x + c[0]
}

/// `(win, draw, loss)` probabilities of a score `cp` for a side to move
/// given `a` and `b`.
#[must_use]
pub fn probabilities_of(cp: f64, a: f64, b: f64) -> (f64, f64, f64) {
    let win = sigmoid((cp - a) / b);
    let loss = sigmoid((-cp - a) / b);
    (win, (1.0 - win - loss).max(0.0), loss)
}

impl WdlModel {
    /// `(a, b)` before the clamps (what a fit must keep inside them).
    #[must_use]
    pub fn raw_params(&self, stage: Stage) -> (f64, f64) {
        let material = stage.material.clamp(self.material_min, MATERIAL_MAX);
        let x = f64::from(material) / MATERIAL_SCALE;
        let y = f64::from(stage.ply.min(PLY_CAP)) / PLY_SCALE;
        (
            polynomial(&self.a, x) + self.a_ply * y,
            polynomial(&self.b, x) + self.b_ply * y,
        )
    }

    /// `(a, b)` at `stage`.
    #[must_use]
    pub fn params(&self, stage: Stage) -> (f64, f64) {
        let (a, b) = self.raw_params(stage);
        (a.max(0.0), b.max(MIN_SPREAD))
    }

    /// `(win, draw, loss)` probabilities of a score in centipawns (side to
    /// move's view) at `stage`; `a ≥ 0` keeps the draw's share
    /// non-negative.
    #[must_use]
    pub fn probabilities(&self, cp: f64, stage: Stage) -> (f64, f64, f64) {
        let (a, b) = self.params(stage);
        probabilities_of(cp, a, b)
    }

    /// Per mille, rounded so the three sum to 1000: win and loss are
    /// rounded on their own (each monotone in the score) and the draw takes
    /// the rest.
    #[must_use]
    pub fn per_mille(&self, cp: i32, stage: Stage) -> Wdl {
        let (w, _, l) = self.probabilities(f64::from(cp), stage);
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
        material_min: 10,
        a: [100.0, 100.0, 0.0],
        b: [40.0, 30.0, 10.0],
        a_ply: 50.0,
        b_ply: 10.0,
    };

    fn at(material: u32, ply: u32) -> Stage {
        Stage { material, ply }
    }

    #[test]
    fn sums_to_1000_and_is_monotone_in_the_score() {
        for (material, ply) in [(0, 0), (9, 300), (40, 60), (78, 10), (100, 0)] {
            let mut last: Option<Wdl> = None;
            for cp in (-3000..=3000).step_by(7) {
                let w = M.per_mille(cp, at(material, ply));
                assert_eq!(w.win + w.draw + w.loss, 1000, "{cp} {material}");
                if let Some(p) = last {
                    assert!(
                        w.win >= p.win && w.loss <= p.loss,
                        "{cp} {material}: {p:?} {w:?}"
                    );
                }
                last = Some(w);
            }
        }
        assert_eq!(M.per_mille(5000, at(60, 30)), Wdl::WON);
        assert_eq!(M.per_mille(-5000, at(60, 30)).loss, 1000);
    }

    #[test]
    fn even_score_is_symmetric_and_mostly_drawn_for_a_wide_draw_band() {
        let w = M.per_mille(0, at(0, 0));
        assert_eq!(w.win, w.loss);
        assert!(w.draw > 800, "{w:?}");
        assert!((M.per_mille(0, at(0, 0)).expectation() - 0.5).abs() < 1e-9);
    }

    #[test]
    fn a_full_set_is_78_and_the_clamps_hold() {
        let set = 8 * material_value(Role::Pawn)
            + 2 * (material_value(Role::Knight) + material_value(Role::Bishop))
            + 2 * material_value(Role::Rook)
            + material_value(Role::Queen);
        assert_eq!(2 * set, 78);
        assert_eq!(M.params(at(0, 0)), M.params(at(M.material_min, 0)));
        assert_eq!(M.params(at(90, 500)), M.params(at(MATERIAL_MAX, PLY_CAP)));
        assert!(M.params(at(60, 100)).0 > M.params(at(60, 0)).0);
    }

    #[test]
    fn a_broken_fit_still_gives_probabilities() {
        let bad = WdlModel {
            material_min: 0,
            a: [-50.0, 0.0, 0.0],
            b: [-3.0, 0.0, 0.0],
            a_ply: 0.0,
            b_ply: 0.0,
        };
        let (w, d, l) = bad.probabilities(0.0, at(10, 5));
        assert!((w + d + l - 1.0).abs() < 1e-12 && d >= 0.0);
        assert_eq!(
            bad.per_mille(1, at(10, 5)).win
                + bad.per_mille(1, at(10, 5)).draw
                + bad.per_mille(1, at(10, 5)).loss,
            1000
        );
    }
}
