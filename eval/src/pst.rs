//! Shared evaluation machinery for every variant: the `(middlegame,
//! endgame)` score pair [`S`], game phase and tapering, and piece-square
//! table lookup.
//!
//! ```
//! use eval::pst::{pst, taper, S, PHASE_MAX};
//! use movegen::{Color, Role, Square};
//! // A white knight on e4 and a black knight on e5 score the same.
//! let w = pst(Role::Knight, Color::White, Square::parse("e4").unwrap());
//! let b = pst(Role::Knight, Color::Black, Square::parse("e5").unwrap());
//! assert_eq!(w, b);
//! assert_eq!(taper(S(100, 0), PHASE_MAX), 100);
//! ```

use crate::params;
use movegen::{Color, Role, Square};
use std::ops::{Add, AddAssign, Mul, Neg, Sub, SubAssign};

/// A score as a `(middlegame, endgame)` pair, blended by [`taper`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct S(pub i32, pub i32);

impl Add for S {
    type Output = S;
    #[inline]
    fn add(self, o: S) -> S {
        S(self.0 + o.0, self.1 + o.1)
    }
}

impl Sub for S {
    type Output = S;
    #[inline]
    fn sub(self, o: S) -> S {
        S(self.0 - o.0, self.1 - o.1)
    }
}

impl AddAssign for S {
    #[inline]
    fn add_assign(&mut self, o: S) {
        *self = *self + o;
    }
}

impl SubAssign for S {
    #[inline]
    fn sub_assign(&mut self, o: S) {
        *self = *self - o;
    }
}

impl Mul<i32> for S {
    type Output = S;
    #[inline]
    fn mul(self, k: i32) -> S {
        S(self.0 * k, self.1 * k)
    }
}

impl Neg for S {
    type Output = S;
    #[inline]
    fn neg(self) -> S {
        S(-self.0, -self.1)
    }
}

/// Phase of a full set of chess pieces (4 minors·1 + 4 rooks·2 + 2 queens·4
/// = 24); more material (plunder vests, tavreli helgi) is capped to it.
pub const PHASE_MAX: i32 = 24;

/// Phase weight of one piece of `role`.
#[must_use]
#[inline]
pub const fn phase_weight(role: Role) -> i32 {
    params::PHASE_WEIGHT[role.index()]
}

/// Blends a pair by phase: `PHASE_MAX` is pure middlegame, 0 pure endgame.
/// The phase is clamped to `0..=PHASE_MAX`.
#[must_use]
#[inline]
pub fn taper(s: S, phase: i32) -> i32 {
    let p = phase.clamp(0, PHASE_MAX);
    (s.0 * p + s.1 * (PHASE_MAX - p)) / PHASE_MAX
}

/// Material of one piece.
#[must_use]
#[inline]
pub const fn material(role: Role) -> S {
    params::MATERIAL[role.index()]
}

/// Index into a rank-8-first table for a piece of `color` on `sq`: White
/// reads the table flipped, Black reads it as written (its own view).
#[must_use]
#[inline]
pub const fn table_index(color: Color, sq: Square) -> usize {
    match color {
        Color::White => sq.index() ^ 56,
        Color::Black => sq.index(),
    }
}

/// The piece-square bonus (without material) of a piece of `role` and
/// `color` on `sq`, from that piece's side's view. Helgi (tavreli) uses the
/// queen's table.
#[must_use]
#[inline]
pub fn pst(role: Role, color: Color, sq: Square) -> S {
    let i = table_index(color, sq);
    let (mg, eg) = match role {
        Role::Pawn => (&params::PAWN_MG, &params::PAWN_EG),
        Role::Knight => (&params::KNIGHT_MG, &params::KNIGHT_EG),
        Role::Bishop => (&params::BISHOP_MG, &params::BISHOP_EG),
        Role::Rook => (&params::ROOK_MG, &params::ROOK_EG),
        Role::Queen | Role::Helgi => (&params::QUEEN_MG, &params::QUEEN_EG),
        Role::King => (&params::KING_MG, &params::KING_EG),
    };
    S(mg[i], eg[i])
}

/// Material plus piece-square bonus of a piece, from its side's view.
#[must_use]
#[inline]
pub fn piece_value(role: Role, color: Color, sq: Square) -> S {
    material(role) + pst(role, color, sq)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_are_mirrored_between_colours() {
        for role in Role::ALL {
            for sq in Square::all() {
                assert_eq!(
                    pst(role, Color::White, sq),
                    pst(role, Color::Black, sq.flip_vertical()),
                    "{role:?} {sq}"
                );
            }
        }
    }

    #[test]
    fn taper_ends() {
        let s = S(40, -20);
        assert_eq!(taper(s, PHASE_MAX), 40);
        assert_eq!(taper(s, 0), -20);
        assert_eq!(taper(s, PHASE_MAX / 2), 10);
        assert_eq!(taper(s, 99), 40);
    }

    #[test]
    fn white_pawn_advances_are_rewarded() {
        let e2 = Square::parse("e2").unwrap_or(Square::A1);
        let e4 = Square::parse("e4").unwrap_or(Square::A1);
        assert!(pst(Role::Pawn, Color::White, e4).0 > pst(Role::Pawn, Color::White, e2).0);
    }
}
