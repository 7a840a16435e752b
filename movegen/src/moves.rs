//! `Move`: one legal move of any variant packed in 32 bits, and `MoveList`.

use crate::types::{Role, Square};
use arrayvec::ArrayVec;
use std::fmt;
use std::num::NonZeroU32;

/// Upper bound on the legal moves of any position of any variant.
///
/// Tavreli dominates: a move is (own tower, k, destination); a top piece reaches
/// at most 35 destinations (a helgi: 27 queen + 8 knight) and the heights of all
/// towers sum to at most 32, so Σ k·destinations ≤ 32 · 35 = 1120. PlunderChess
/// stays far below it (see the plunder module's bound). Rounded up to 1152.
pub const MAX_MOVES: usize = 1152;

/// A move list that never touches the heap.
pub type MoveList = ArrayVec<Move, MAX_MOVES>;

/// How a move changes the board beyond "from → to".
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[repr(u8)]
pub enum MoveKind {
    /// Any plain move or capture.
    Normal = 0,
    /// A double step that may create an en-passant square.
    DoublePush = 1,
    /// An en-passant capture.
    EnPassant = 2,
    /// Castling, written as the king's two-square move.
    Castle = 3,
}

/// A move, packed:
///
/// ```text
/// bits  0..6   from square
/// bits  6..12  to square
/// bits 12..14  kind (MoveKind)
/// bit  14      capture
/// bits 15..18  promotion role (0 = none; N B R Q by Role index)
/// bits 18..21  plunder vest newly taken (0 = none, else Role index + 1)
/// bit  21      vest move (plunder: made with the vest's power, consumes it)
/// bits 22..28  tower split: top k pieces moved (0 = the whole tower)
/// ```
/// `from != to` for every real move, so the value is never zero and
/// `Option<Move>` costs nothing.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
#[repr(transparent)]
pub struct Move(NonZeroU32);

const _: () = assert!(std::mem::size_of::<Option<Move>>() == 4);

const CAPTURE: u32 = 1 << 14;
const VEST_MOVE: u32 = 1 << 21;

impl Move {
    /// A move of `kind` from `from` to `to`; `None` if `from == to` (no move
    /// stays on its square).
    #[must_use]
    #[inline]
    pub const fn try_new(from: Square, to: Square, kind: MoveKind) -> Option<Move> {
        if from.index() == to.index() {
            return None;
        }
        let bits = from.index() as u32 | (to.index() as u32) << 6 | (kind as u32) << 12;
        match NonZeroU32::new(bits) {
            Some(nz) => Some(Move(nz)),
            None => None,
        }
    }

    /// A move of `kind` from `from` to `to`, for callers that know the
    /// squares differ (move generators: a piece never targets its own square).
    ///
    /// # Panics
    /// If `from == to`: that is a bug in the caller, and a silent stand-in
    /// move would be worse than stopping.
    #[must_use]
    #[inline]
    pub const fn new(from: Square, to: Square, kind: MoveKind) -> Move {
        match Move::try_new(from, to, kind) {
            Some(m) => m,
            None => panic!("Move::new: from and to are the same square"),
        }
    }

    /// A plain (non-capturing) move.
    #[must_use]
    #[inline]
    pub const fn quiet(from: Square, to: Square) -> Move {
        Move::new(from, to, MoveKind::Normal)
    }

    /// A plain capture.
    #[must_use]
    #[inline]
    pub const fn capture(from: Square, to: Square) -> Move {
        Move::new(from, to, MoveKind::Normal).with_capture()
    }

    /// The raw 32 bits (for the transposition table).
    #[must_use]
    #[inline]
    pub const fn bits(self) -> u32 {
        self.0.get()
    }

    /// Rebuilds a move from [`Move::bits`]; `None` for 0.
    #[must_use]
    #[inline]
    pub const fn from_bits(bits: u32) -> Option<Move> {
        match NonZeroU32::new(bits) {
            Some(nz) => Some(Move(nz)),
            None => None,
        }
    }

    #[inline]
    const fn set(self, bits: u32) -> Move {
        match NonZeroU32::new(self.0.get() | bits) {
            Some(nz) => Move(nz),
            None => self,
        }
    }

    /// The same move marked as a capture.
    #[must_use]
    #[inline]
    pub const fn with_capture(self) -> Move {
        self.set(CAPTURE)
    }

    /// The same move promoting to `role` (N, B, R, Q).
    #[must_use]
    #[inline]
    pub const fn with_promotion(self, role: Role) -> Move {
        self.set((role as u32 & 7) << 15)
    }

    /// The same move taking a plunder vest of `role` (P, N, B, R, Q).
    #[must_use]
    #[inline]
    pub const fn with_vest(self, role: Role) -> Move {
        self.set(((role as u32 + 1) & 7) << 18)
    }

    /// The same move marked as made by the vest's power.
    #[must_use]
    #[inline]
    pub const fn with_vest_move(self) -> Move {
        self.set(VEST_MOVE)
    }

    /// The same move taking only the top `k` pieces of the tower (1..=63).
    #[must_use]
    #[inline]
    pub const fn with_split(self, k: u8) -> Move {
        self.set(((k as u32) & 63) << 22)
    }

    /// Origin square.
    #[must_use]
    #[inline]
    pub const fn from(self) -> Square {
        Square::from_low_bits(self.0.get())
    }

    /// Destination square.
    #[must_use]
    #[inline]
    pub const fn to(self) -> Square {
        Square::from_low_bits(self.0.get() >> 6)
    }

    /// The kind.
    #[must_use]
    #[inline]
    pub const fn kind(self) -> MoveKind {
        match (self.0.get() >> 12) & 3 {
            0 => MoveKind::Normal,
            1 => MoveKind::DoublePush,
            2 => MoveKind::EnPassant,
            _ => MoveKind::Castle,
        }
    }

    /// `true` if the move captures (en passant included).
    #[must_use]
    #[inline]
    pub const fn is_capture(self) -> bool {
        self.0.get() & CAPTURE != 0
    }

    /// The promotion role, if any.
    #[must_use]
    #[inline]
    pub const fn promotion(self) -> Option<Role> {
        match (self.0.get() >> 15) & 7 {
            0 => None,
            r => Role::from_index(r as u8),
        }
    }

    /// The plunder vest newly taken by this move, if any.
    #[must_use]
    #[inline]
    pub const fn vest(self) -> Option<Role> {
        match (self.0.get() >> 18) & 7 {
            0 => None,
            r => Role::from_index(r as u8 - 1),
        }
    }

    /// `true` if this plunder move uses (and so consumes) the mover's vest.
    #[must_use]
    #[inline]
    pub const fn is_vest_move(self) -> bool {
        self.0.get() & VEST_MOVE != 0
    }

    /// Number of pieces taken from the top of the tower; 0 = the whole tower.
    #[must_use]
    #[inline]
    pub const fn split(self) -> u8 {
        ((self.0.get() >> 22) & 63) as u8
    }
}

impl fmt::Display for Move {
    /// The move string of RULES.md: `<from><to>[promotion][vest][:k]`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from(), self.to())?;
        if let Some(p) = self.promotion() {
            write!(f, "{}", p.char())?;
        }
        if let Some(v) = self.vest() {
            write!(f, "{}", v.char())?;
        }
        if self.split() != 0 {
            write!(f, ":{}", self.split())?;
        }
        Ok(())
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_move_must_leave_its_square() {
        for sq in [Square::A1, Square::parse("e4").unwrap()] {
            assert_eq!(Move::try_new(sq, sq, MoveKind::Normal), None);
            assert!(std::panic::catch_unwind(|| Move::new(sq, sq, MoveKind::Normal)).is_err());
        }
        let m = Move::try_new(Square::B1, Square::A1, MoveKind::Normal).unwrap();
        assert_eq!(
            (m.from(), m.to(), m.to_string().as_str()),
            (Square::B1, Square::A1, "b1a1")
        );
        let a1h8 = Move::new(Square::A1, Square::H8, MoveKind::Normal);
        assert_eq!(a1h8.to_string(), "a1h8");
    }

    #[test]
    fn fields_round_trip() {
        let (a, b) = (Square::parse("e7").unwrap(), Square::parse("d8").unwrap());
        let m = Move::capture(a, b)
            .with_promotion(Role::Queen)
            .with_vest(Role::Knight);
        assert_eq!((m.from(), m.to(), m.kind()), (a, b, MoveKind::Normal));
        assert!(m.is_capture() && !m.is_vest_move());
        assert_eq!(m.promotion(), Some(Role::Queen));
        assert_eq!(m.vest(), Some(Role::Knight));
        assert_eq!(m.to_string(), "e7d8qn");
        assert_eq!(Move::from_bits(m.bits()), Some(m));
        let p = Move::quiet(a, b).with_vest(Role::Pawn).with_vest_move();
        assert_eq!(p.vest(), Some(Role::Pawn));
        assert!(p.is_vest_move());
        assert_eq!(p.to_string(), "e7d8p");
        let t = Move::quiet(a, b).with_split(31);
        assert_eq!(t.split(), 31);
        assert_eq!(t.to_string(), "e7d8:31");
    }
}
