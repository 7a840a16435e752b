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
    /// The same piece as parts, for words in another language.
    pub parts: PieceParts,
}

/// What a piece is, as parts a page puts into its own language's words:
/// the English [`Token::name`] is one rendering of these.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PieceParts {
    /// Its side.
    pub color: Color,
    /// How it moves now (a promoted Tavreli pawn: its new role).
    pub role: Role,
    /// A Tavreli pawn: the piece it promotes to.
    pub promotes_to: Option<Role>,
    /// A Tavreli pawn that has promoted (it turns back into a pawn when
    /// a piece is put on it).
    pub promoted: bool,
    /// A PlunderChess vest it wears.
    pub vest: Option<Role>,
}

impl PieceParts {
    /// A plain piece: no promotion, no vest.
    #[must_use]
    pub const fn plain(p: Piece) -> PieceParts {
        PieceParts {
            color: p.color,
            role: p.role,
            promotes_to: None,
            promoted: false,
            vest: None,
        }
    }
}

/// The moving piece or group of a legal move, as parts: the top `k` pieces
/// of a stack `height` high (a lone piece: 1 of 1), bottom to top, and the
/// vest a PlunderChess piece moves by.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoverParts {
    /// How many pieces move.
    pub k: usize,
    /// How many pieces stand on the origin.
    pub height: usize,
    /// The moving pieces, bottom to top.
    pub pieces: Vec<PieceParts>,
    /// A vest move: the vest whose powers make it.
    pub by_vest: Option<Role>,
}

/// What a board shows of a variant's position.
pub trait Describe {
    /// The pieces on `sq`, bottom to top (empty square: none).
    fn tokens(&self, sq: Square) -> Vec<Token>;

    /// The moving piece or group of the legal move `m` in words, capitalised
    /// (`Knight`, `Top 2 of 3 (bishop, rook)`, `Knight using its rook vest`).
    fn mover(&self, m: Move) -> String;

    /// The same mover as parts, for words in another language.
    fn mover_parts(&self, m: Move) -> MoverParts;
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
        parts: PieceParts::plain(p),
    }
}

/// The mover of a board with one piece a square (chess, PlunderChess).
pub(crate) fn lone_mover(piece: Option<Piece>, by_vest: Option<Role>) -> MoverParts {
    let p = piece.unwrap_or(Piece {
        color: Color::White,
        role: Role::Pawn,
    });
    MoverParts {
        k: 1,
        height: 1,
        pieces: vec![PieceParts::plain(p)],
        by_vest,
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
