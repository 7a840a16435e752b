//! Shared evaluation machinery for every variant: the `(middlegame,
//! endgame)` score pair [`S`], game phase and tapering, and the index of a
//! piece-square table entry.
//!
//! ```
//! use eval::pst::{table_index, taper, S, PHASE_MAX};
//! use movegen::{Color, Square};
//! // A white piece on e4 and a black one on e5 read the same entry.
//! let w = table_index(Color::White, Square::parse("e4").unwrap());
//! let b = table_index(Color::Black, Square::parse("e5").unwrap());
//! assert_eq!(w, b);
//! assert_eq!(taper(S(100, 0), PHASE_MAX), 100);
//! ```

use movegen::board::Board;
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

/// Game-phase weight of a role (P N B R Q K Helgi): structure, not a
/// tuned weight.
pub const PHASE_WEIGHT: [i32; 7] = [0, 1, 1, 2, 4, 0, 4];

/// The game phase of a chess-like board, `0..=PHASE_MAX`: [`PHASE_WEIGHT`]
/// summed over the pieces.
#[must_use]
#[inline]
pub fn phase(board: &Board) -> i32 {
    let mut phase = 0;
    for role in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen] {
        phase += board.by_role(role).count() as i32 * PHASE_WEIGHT[role.index()];
    }
    phase.min(PHASE_MAX)
}

/// Blends a pair by phase: `PHASE_MAX` is pure middlegame, 0 pure endgame.
/// The phase is clamped to `0..=PHASE_MAX`.
#[must_use]
#[inline]
pub fn taper(s: S, phase: i32) -> i32 {
    let p = phase.clamp(0, PHASE_MAX);
    (s.0 * p + s.1 * (PHASE_MAX - p)) / PHASE_MAX
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_are_mirrored_between_colours() {
        for sq in Square::all() {
            assert_eq!(
                table_index(Color::White, sq),
                table_index(Color::Black, sq.flip_vertical())
            );
        }
        // White's a1 is the bottom left of the drawn table.
        assert_eq!(table_index(Color::White, Square::A1), 56);
    }

    #[test]
    fn taper_ends() {
        let s = S(40, -20);
        assert_eq!(taper(s, PHASE_MAX), 40);
        assert_eq!(taper(s, 0), -20);
        assert_eq!(taper(s, PHASE_MAX / 2), 10);
        assert_eq!(taper(s, 99), 40);
    }
}
