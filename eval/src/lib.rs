//! Static evaluation per variant. Scores are centipawns from the point of view
//! of the side to move. Each variant implements [`Evaluate`] in its own module;
//! the shared machinery (score pairs, phase, piece-square tables) is in
//! [`pst`] and every weight in [`params`].

pub mod chess;
pub mod params;
pub mod pst;

use movegen::{Move, Position, Role};

mod tavreli;

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

/// Rough material value of a role in centipawns (ordering, not evaluation).
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

mod plunder;
