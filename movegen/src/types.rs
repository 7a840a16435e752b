//! Small exact value types: colours, roles, pieces, squares, files and ranks.

use std::fmt;

/// The side a piece belongs to. White moves up the board (rank 1 → 8).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
#[repr(u8)]
pub enum Color {
    /// The side that starts on ranks 1 and 2.
    White = 0,
    /// The side that starts on ranks 7 and 8.
    Black = 1,
}

impl Color {
    /// Both colours, white first.
    pub const ALL: [Color; 2] = [Color::White, Color::Black];

    /// The other side.
    #[must_use]
    #[inline]
    pub const fn flip(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// 0 for white, 1 for black.
    #[must_use]
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// `w` or `b`, as in FEN.
    #[must_use]
    pub const fn char(self) -> char {
        match self {
            Color::White => 'w',
            Color::Black => 'b',
        }
    }

    /// `white` or `black`, for messages.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Color::White => "white",
            Color::Black => "black",
        }
    }

    /// The rank this side's pieces start on (1 for white, 8 for black).
    #[must_use]
    #[inline]
    pub const fn back_rank(self) -> Rank {
        match self {
            Color::White => Rank(0),
            Color::Black => Rank(7),
        }
    }

    /// The relative rank `n` (0-based) seen from this side: `relative_rank(1)` is
    /// the own second rank.
    #[must_use]
    #[inline]
    pub const fn relative_rank(self, n: u8) -> Rank {
        match self {
            Color::White => Rank(n),
            Color::Black => Rank(7 - n),
        }
    }

    /// +8 for white, −8 for black: one step forward in square indices.
    #[must_use]
    #[inline]
    pub const fn forward(self) -> i8 {
        match self {
            Color::White => 8,
            Color::Black => -8,
        }
    }
}

impl std::ops::Not for Color {
    type Output = Color;
    #[inline]
    fn not(self) -> Color {
        self.flip()
    }
}

/// A piece type. `Helgi` (queen + knight) exists only in Tavreli.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
#[repr(u8)]
pub enum Role {
    /// Pawn (Tavreli: Ratnik).
    Pawn = 0,
    /// Knight (Vsadnik).
    Knight = 1,
    /// Bishop (Luchnik).
    Bishop = 2,
    /// Rook (Ratoborets).
    Rook = 3,
    /// Queen (Knyaz).
    Queen = 4,
    /// King (Volkhv).
    King = 5,
    /// Helgi: queen + knight (Tavreli only).
    Helgi = 6,
}

impl Role {
    /// The lower-case name, for messages: `pawn` … `helgi`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Role::Pawn => "pawn",
            Role::Knight => "knight",
            Role::Bishop => "bishop",
            Role::Rook => "rook",
            Role::Queen => "queen",
            Role::King => "king",
            Role::Helgi => "helgi",
        }
    }

    /// The six roles of chess, cheapest first (the order exchanges try
    /// attackers in).
    pub const CHESS: [Role; 6] = [
        Role::Pawn,
        Role::Knight,
        Role::Bishop,
        Role::Rook,
        Role::Queen,
        Role::King,
    ];

    /// All roles, helgi last.
    pub const ALL: [Role; 7] = {
        let c = Role::CHESS;
        [c[0], c[1], c[2], c[3], c[4], c[5], Role::Helgi]
    };

    /// Index for tables sized 7.
    #[must_use]
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Inverse of [`Role::index`]; `None` for values above 6.
    #[must_use]
    #[inline]
    pub const fn from_index(i: u8) -> Option<Role> {
        match i {
            0 => Some(Role::Pawn),
            1 => Some(Role::Knight),
            2 => Some(Role::Bishop),
            3 => Some(Role::Rook),
            4 => Some(Role::Queen),
            5 => Some(Role::King),
            6 => Some(Role::Helgi),
            _ => None,
        }
    }

    /// Lower-case letter: `p n b r q k h`.
    #[must_use]
    pub const fn char(self) -> char {
        match self {
            Role::Pawn => 'p',
            Role::Knight => 'n',
            Role::Bishop => 'b',
            Role::Rook => 'r',
            Role::Queen => 'q',
            Role::King => 'k',
            Role::Helgi => 'h',
        }
    }

    /// Parses a letter of either case.
    #[must_use]
    pub const fn from_char(c: char) -> Option<Role> {
        match c.to_ascii_lowercase() {
            'p' => Some(Role::Pawn),
            'n' => Some(Role::Knight),
            'b' => Some(Role::Bishop),
            'r' => Some(Role::Rook),
            'q' => Some(Role::Queen),
            'k' => Some(Role::King),
            'h' => Some(Role::Helgi),
            _ => None,
        }
    }

    /// Upper-case for white, lower-case for black.
    #[must_use]
    pub const fn char_for(self, color: Color) -> char {
        let c = self.char();
        match color {
            Color::White => c.to_ascii_uppercase(),
            Color::Black => c,
        }
    }
}

/// A coloured piece.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Piece {
    /// Its side.
    pub color: Color,
    /// Its type.
    pub role: Role,
}

impl Piece {
    /// Builds a piece.
    #[must_use]
    #[inline]
    pub const fn new(color: Color, role: Role) -> Piece {
        Piece { color, role }
    }

    /// FEN letter: upper case white, lower case black.
    #[must_use]
    pub const fn char(self) -> char {
        self.role.char_for(self.color)
    }

    /// Parses a FEN letter; the case gives the colour.
    #[must_use]
    pub fn from_char(c: char) -> Option<Piece> {
        let role = Role::from_char(c)?;
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        Some(Piece { color, role })
    }
}

/// A file `a`..`h`, 0-based.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct File(pub u8);

/// A rank `1`..`8`, 0-based.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Rank(pub u8);

/// One of the 64 squares, `a1` = 0 … `h8` = 63.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(transparent)]
pub struct Square(u8);

const _: () = assert!(std::mem::size_of::<Square>() == 1);

impl Square {
    /// `a1`.
    pub const A1: Square = Square(0);
    /// `b1`.
    pub const B1: Square = Square(1);
    /// `c1`.
    pub const C1: Square = Square(2);
    /// `d1`.
    pub const D1: Square = Square(3);
    /// `e1`.
    pub const E1: Square = Square(4);
    /// `f1`.
    pub const F1: Square = Square(5);
    /// `g1`.
    pub const G1: Square = Square(6);
    /// `h1`.
    pub const H1: Square = Square(7);
    /// `a8`.
    pub const A8: Square = Square(56);
    /// `b8`.
    pub const B8: Square = Square(57);
    /// `c8`.
    pub const C8: Square = Square(58);
    /// `d8`.
    pub const D8: Square = Square(59);
    /// `e8`.
    pub const E8: Square = Square(60);
    /// `f8`.
    pub const F8: Square = Square(61);
    /// `g8`.
    pub const G8: Square = Square(62);
    /// `h8`.
    pub const H8: Square = Square(63);

    /// Square from an index 0..64; `None` outside.
    #[must_use]
    #[inline]
    pub const fn new(index: u8) -> Option<Square> {
        if index < 64 {
            Some(Square(index))
        } else {
            None
        }
    }

    /// Square from an index 0..64; `None` outside.
    #[must_use]
    #[inline]
    pub const fn from_index(index: u32) -> Option<Square> {
        if index < 64 {
            Some(Square(index as u8))
        } else {
            None
        }
    }

    /// The square of the low six bits of `bits`, the rest ignored: for packed
    /// fields and bit scans, whose value is in range by construction and
    /// which should not pay for a check.
    #[must_use]
    #[inline]
    pub const fn from_low_bits(bits: u32) -> Square {
        Square((bits & 63) as u8)
    }

    /// Square of a file and rank.
    #[must_use]
    #[inline]
    pub const fn from_coords(file: File, rank: Rank) -> Square {
        Square((rank.0 << 3) | file.0)
    }

    /// 0..64.
    #[must_use]
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The file.
    #[must_use]
    #[inline]
    pub const fn file(self) -> File {
        File(self.0 & 7)
    }

    /// The rank.
    #[must_use]
    #[inline]
    pub const fn rank(self) -> Rank {
        Rank(self.0 >> 3)
    }

    /// Moves by `delta` indices; `None` if off the board (no wrap check: callers
    /// use it for vertical steps only).
    #[must_use]
    #[inline]
    pub const fn offset(self, delta: i8) -> Option<Square> {
        let i = self.0 as i16 + delta as i16;
        if i >= 0 && i < 64 {
            Some(Square(i as u8))
        } else {
            None
        }
    }

    /// Moves by `delta` indices where the result is known to be on the board.
    #[must_use]
    #[inline]
    pub const fn shift(self, delta: i8) -> Square {
        Square(((self.0 as i16 + delta as i16) & 63) as u8)
    }

    /// Same square seen from the other side (rank mirrored).
    #[must_use]
    #[inline]
    pub const fn flip_vertical(self) -> Square {
        Square(self.0 ^ 56)
    }

    /// `true` for light squares (`h1`, `a8`, …).
    #[must_use]
    #[inline]
    pub const fn is_light(self) -> bool {
        (self.0 >> 3) % 2 != self.0 % 2
    }

    /// Every square, `a1` first.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..64).map(Square)
    }

    /// Parses `a1`..`h8` (lower case).
    #[must_use]
    pub fn parse(s: &str) -> Option<Square> {
        let b = s.as_bytes();
        if b.len() != 2 {
            return None;
        }
        Square::from_bytes(b[0], b[1])
    }

    /// Parses a file letter and rank digit.
    #[must_use]
    pub const fn from_bytes(file: u8, rank: u8) -> Option<Square> {
        if file >= b'a' && file <= b'h' && rank >= b'1' && rank <= b'8' {
            Some(Square(((rank - b'1') << 3) | (file - b'a')))
        } else {
            None
        }
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use fmt::Write;
        f.write_char((b'a' + (self.0 & 7)) as char)?;
        f.write_char((b'1' + (self.0 >> 3)) as char)
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn square_from_index_is_checked() {
        assert_eq!(Square::from_index(0), Some(Square::A1));
        assert_eq!(Square::from_index(63), Some(Square::H8));
        assert_eq!(Square::from_index(64), None);
        assert_eq!(Square::from_index(u32::MAX), None);
        assert_eq!(Square::from_low_bits(64 + 5), Square::F1);
    }
}
