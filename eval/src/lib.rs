//! Static evaluation per variant. Scores are centipawns from the point of view
//! of the side to move. Each variant implements [`Evaluate`] in its own module.

mod chess;

use movegen::{Move, Position};

mod tavreli;

/// A position the search can score.
pub trait Evaluate: Position {
    /// Static evaluation in centipawns, positive when the side to move is better.
    fn evaluate(&self) -> i32;

    /// A cheap ordering hint for a capture (higher first): by default the
    /// value of the captured top piece minus a tenth of the mover's.
    fn capture_order(&self, m: Move) -> i32 {
        let victim = self.piece_at(m.to()).map_or(100, |p| role_value(p.role));
        let attacker = self.piece_at(m.from()).map_or(0, |p| role_value(p.role));
        victim * 10 - attacker / 10
    }
}

/// Rough material value of a role in centipawns (ordering, not evaluation).
#[must_use]
pub const fn role_value(role: movegen::Role) -> i32 {
    match role {
        movegen::Role::Pawn => 100,
        movegen::Role::Knight => 320,
        movegen::Role::Bishop => 330,
        movegen::Role::Rook => 500,
        movegen::Role::Queen => 950,
        movegen::Role::Helgi => 1250,
        movegen::Role::King => 0,
    }
}

mod plunder;
