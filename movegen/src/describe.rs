//! Pieces and moves in words, for boards and choosers: each variant says
//! what stands on a square and what moves, in its own module (`chess.rs`,
//! `plunder/describe.rs`, `tavreli/describe.rs`). The registry checks at
//! compile time that every variant's position type implements it.
//!
//! ```text
//! Tavreli d4 = (PP=QB)  ──tokens──▶  [P, P=Q, B]  ("white pawn (promotes to rook)", …)
//! Plunder c3d5p         ──mover───▶  "Knight"
//! ```

use crate::{Color, Move, Piece, Role, Square};

/// One piece drawn on a square: its FEN token, a plunder vest (letter in the
/// wearer's case) and the piece in words for a tower inspector.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Token {
    /// The FEN token (`Q`, `p`, `H`, `Q~`, `P=N`).
    pub piece: String,
    /// The vest letter, plunder only.
    pub vest: Option<char>,
    /// `white knight wearing a queen vest`, `black pawn (promotes to helgi)`.
    pub name: String,
}

/// What a board shows of a variant's position.
pub trait Describe {
    /// The pieces on `sq`, bottom to top (empty square: none).
    fn tokens(&self, sq: Square) -> Vec<Token>;

    /// The moving piece or group of the legal move `m` in words, capitalised
    /// (`Knight`, `Top 2 of 3 (bishop, rook)`, `Knight using its rook vest`).
    fn mover(&self, m: Move) -> String;
}

/// `Knight` from `knight`.
pub(crate) fn capitalised(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}

/// A piece of a plain board: `N`, "white knight".
pub(crate) fn plain_token(p: Piece) -> Token {
    Token {
        piece: p.role.char_for(p.color).to_string(),
        vest: None,
        name: format!("{} {}", p.color.name(), p.role.name()),
    }
}

/// The role of the piece on `sq` (a pawn where the square is empty, which a
/// legal move's origin never is).
pub(crate) fn role_on(piece: Option<Piece>) -> Role {
    piece.map_or(Role::Pawn, |p| p.role)
}

/// `white` / `black` as a tower inspector writes a foreign piece.
pub(crate) const fn side(c: Color) -> &'static str {
    c.name()
}
