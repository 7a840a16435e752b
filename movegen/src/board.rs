//! `Board`: piece placement for chess and PlunderChess (one piece a square):
//! bitboards by colour and role plus a role mailbox, and the shared placement
//! parser/writer.

use crate::attacks;
use crate::bitboard::Bitboard;
use crate::fen::{self, FenError, FenField};
use crate::types::{Color, File, Piece, Rank, Role, Square};
use crate::zobrist;

/// Reads a `(...)` suffix after a piece (vests in PlunderChess).
pub type SuffixReader<'a> = &'a mut dyn FnMut(Square, Piece, &str) -> Result<(), FenError>;

/// Piece placement with one piece per square.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Board {
    by_color: [Bitboard; 2],
    /// One set per [`Role`], helgi included (always empty in the chess
    /// family), so every role indexes it.
    by_role: [Bitboard; 7],
    roles: [Option<Role>; 64],
}

impl Default for Board {
    fn default() -> Board {
        Board {
            by_color: [Bitboard::EMPTY; 2],
            by_role: [Bitboard::EMPTY; 7],
            roles: [None; 64],
        }
    }
}

impl Board {
    /// All occupied squares.
    #[must_use]
    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.by_color[0] | self.by_color[1]
    }

    /// Squares of one side.
    #[must_use]
    #[inline]
    pub fn by_color(&self, color: Color) -> Bitboard {
        self.by_color[color.index()]
    }

    /// Squares of one role (both sides).
    #[must_use]
    #[inline]
    pub fn by_role(&self, role: Role) -> Bitboard {
        self.by_role[role.index()]
    }

    /// Squares of one piece.
    #[must_use]
    #[inline]
    pub fn pieces(&self, color: Color, role: Role) -> Bitboard {
        self.by_color[color.index()] & self.by_role[role.index()]
    }

    /// Queens and rooks.
    #[must_use]
    #[inline]
    pub fn rook_movers(&self) -> Bitboard {
        self.by_role[Role::Rook.index()] | self.by_role[Role::Queen.index()]
    }

    /// Queens and bishops.
    #[must_use]
    #[inline]
    pub fn bishop_movers(&self) -> Bitboard {
        self.by_role[Role::Bishop.index()] | self.by_role[Role::Queen.index()]
    }

    /// The role on a square.
    #[must_use]
    #[inline]
    pub fn role_at(&self, sq: Square) -> Option<Role> {
        self.roles[sq.index()]
    }

    /// The piece on a square.
    #[must_use]
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        let role = self.roles[sq.index()]?;
        let color = if self.by_color[0].contains(sq) {
            Color::White
        } else {
            Color::Black
        };
        Some(Piece::new(color, role))
    }

    /// The king square of `color` (the board always has exactly one).
    #[must_use]
    #[inline]
    pub fn king(&self, color: Color) -> Square {
        self.pieces(color, Role::King).lsb()
    }

    /// Puts a piece on an empty square.
    #[inline]
    pub fn put(&mut self, sq: Square, piece: Piece) {
        debug_assert!(self.roles[sq.index()].is_none());
        self.by_color[piece.color.index()].add(sq);
        self.by_role[piece.role.index()].add(sq);
        self.roles[sq.index()] = Some(piece.role);
    }

    /// Removes the piece `piece` standing on `sq`.
    #[inline]
    pub fn remove(&mut self, sq: Square, piece: Piece) {
        debug_assert_eq!(self.piece_at(sq), Some(piece));
        self.by_color[piece.color.index()].remove(sq);
        self.by_role[piece.role.index()].remove(sq);
        self.roles[sq.index()] = None;
    }

    /// Moves `piece` from `from` to the empty square `to`.
    #[inline]
    pub fn shift(&mut self, from: Square, to: Square, piece: Piece) {
        let mask = Bitboard::from_square(from) | Bitboard::from_square(to);
        self.by_color[piece.color.index()] ^= mask;
        self.by_role[piece.role.index()] ^= mask;
        self.roles[from.index()] = None;
        self.roles[to.index()] = Some(piece.role);
    }

    /// Pieces of any colour attacking `sq` by ordinary chess moves, given the
    /// occupancy `occupied`.
    #[must_use]
    #[inline]
    pub fn attackers(&self, sq: Square, occupied: Bitboard) -> Bitboard {
        (attacks::rook(sq, occupied) & self.rook_movers())
            | (attacks::bishop(sq, occupied) & self.bishop_movers())
            | (attacks::knight(sq) & self.by_role(Role::Knight))
            | (attacks::king(sq) & self.by_role(Role::King))
            | (attacks::pawn(Color::White, sq) & self.pieces(Color::Black, Role::Pawn))
            | (attacks::pawn(Color::Black, sq) & self.pieces(Color::White, Role::Pawn))
    }

    /// Zobrist key of the placement alone.
    #[must_use]
    pub fn key(&self) -> u64 {
        let mut key = 0;
        for sq in self.occupied() {
            if let Some(p) = self.piece_at(sq) {
                key ^= zobrist::piece(p.color, p.role, sq);
            }
        }
        key
    }

    /// Parses a placement field of single-letter pieces `PNBRQK`. A piece may
    /// be followed by a `(...)` suffix, which is handed to `suffix` (vests in
    /// PlunderChess); with `None`, parentheses are an error.
    ///
    /// # Errors
    /// A board-field [`FenError`] quoting the bad rank or character.
    pub fn parse(field: &str, mut suffix: Option<SuffixReader<'_>>) -> Result<Board, FenError> {
        let mut board = Board::default();
        for (i, rank_str) in fen::ranks(field)?.into_iter().enumerate() {
            let rank = Rank(7 - i as u8);
            let rank_values = || {
                [
                    ("rank", (rank.0 + 1).to_string()),
                    ("text", rank_str.to_string()),
                ]
            };
            let bad = |key: &'static str| FenError::keyed(FenField::Board, key, rank_values());
            let bad_char = |key: &'static str, c: char| {
                let [r, t] = rank_values();
                FenError::keyed(FenField::Board, key, [r, t, ("char", c.to_string())])
            };
            let mut file = 0u8;
            let mut chars = rank_str.char_indices().peekable();
            while let Some((pos, c)) = chars.next() {
                if let Some(d) = c.to_digit(10) {
                    if d == 0 || d > 8 {
                        return Err(bad_char("fen.empty_count", c));
                    }
                    file += d as u8;
                    if file > 8 {
                        return Err(bad("fen.rank_long"));
                    }
                    continue;
                }
                let piece = match Piece::from_char(c) {
                    Some(p) if p.role != Role::Helgi => p,
                    _ => return Err(bad_char("fen.piece_letter", c)),
                };
                if file >= 8 {
                    return Err(bad("fen.rank_long"));
                }
                let sq = Square::from_coords(File(file), rank);
                board.put(sq, piece);
                file += 1;
                if let Some(&(open, '(')) = chars.peek() {
                    let close = rank_str[open..]
                        .find(')')
                        .map(|off| open + off)
                        .ok_or_else(|| bad("fen.unclosed"))?;
                    let inner = &rank_str[open + 1..close];
                    match suffix.as_mut() {
                        Some(f) => f(sq, piece, inner)?,
                        None => return Err(bad_char("fen.paren", c)),
                    }
                    while chars.peek().is_some_and(|&(p, _)| p <= close) {
                        chars.next();
                    }
                }
                let _ = pos;
            }
            if file != 8 {
                let [r, t] = rank_values();
                return Err(FenError::keyed(
                    FenField::Board,
                    "fen.rank_short",
                    [r, t, ("found", file.to_string())],
                ));
            }
        }
        Ok(board)
    }

    /// Writes the placement field; `suffix` may add text after a piece (vests).
    #[must_use]
    pub fn write(&self, suffix: &dyn Fn(Square) -> Option<String>) -> String {
        let mut s = String::with_capacity(80);
        for rank in (0..8).rev() {
            let mut empty = 0;
            for file in 0..8 {
                let sq = Square::from_coords(File(file), Rank(rank));
                if let Some(p) = self.piece_at(sq) {
                    if empty > 0 {
                        s.push(char::from(b'0' + empty));
                        empty = 0;
                    }
                    s.push(p.char());
                    if let Some(x) = suffix(sq) {
                        s.push_str(&x);
                    }
                } else {
                    empty += 1;
                }
            }
            if empty > 0 {
                s.push(char::from(b'0' + empty));
            }
            if rank > 0 {
                s.push('/');
            }
        }
        s
    }

    /// Checks the rules §1 shares between chess and plunder: one king per
    /// side, no pawn on its last rank (nor, in chess, its first).
    ///
    /// # Errors
    /// A board-field [`FenError`].
    pub fn validate(&self, pawns_on_first_rank_ok: bool) -> Result<(), FenError> {
        for color in Color::ALL {
            let kings = self.pieces(color, Role::King).count();
            if kings != 1 {
                let key = match color {
                    Color::White => "fen.white_kings",
                    Color::Black => "fen.black_kings",
                };
                return Err(FenError::keyed(
                    FenField::Board,
                    key,
                    [("found", kings.to_string())],
                ));
            }
        }
        for color in Color::ALL {
            let pawns = self.pieces(color, Role::Pawn);
            let last = Bitboard::rank(color.flip().back_rank());
            if (pawns & last).nonempty() {
                return Err(FenError::keyed(FenField::Board, "fen.pawn_last_rank", []));
            }
            if !pawns_on_first_rank_ok && (pawns & Bitboard::rank(color.back_rank())).nonempty() {
                return Err(FenError::keyed(FenField::Board, "fen.pawn_first_rank", []));
            }
        }
        Ok(())
    }

    /// Text diagram, rank 8 on top; `suffix` marks extras after a piece.
    #[must_use]
    pub fn diagram(&self, suffix: &dyn Fn(Square) -> Option<String>) -> String {
        let mut s = String::new();
        for rank in (0..8).rev() {
            s.push_str(&format!(" {} |", rank + 1));
            for file in 0..8 {
                let sq = Square::from_coords(File(file), Rank(rank));
                let cell = match self.piece_at(sq) {
                    Some(p) => format!("{}{}", p.char(), suffix(sq).unwrap_or_default()),
                    None => ".".to_string(),
                };
                s.push_str(&format!(" {cell:<4}"));
            }
            s.push('\n');
        }
        s.push_str("   +----------------------------------------\n");
        s.push_str("     a    b    c    d    e    f    g    h\n");
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_role_indexes_the_board() {
        let board = Board::parse("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR", None).unwrap();
        let counts = Role::ALL.map(|role| board.by_role(role).count());
        assert_eq!(counts, [16, 4, 4, 4, 2, 2, 0]);
        for color in Color::ALL {
            assert_eq!(board.pieces(color, Role::Helgi), Bitboard::EMPTY);
        }
    }
}
