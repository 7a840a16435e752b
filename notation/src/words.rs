//! Moves in words for a board: every legal move with the sentence a
//! chooser shows, a game's moves in the move list's notation, and results
//! in words. Pieces in words come from each variant's
//! [`Describe`](movegen::Describe).
//!
//! ```text
//! Plunder c3d5p  ──sentence──▶  "Knight takes on d5 and takes a pawn vest"
//! ```

use crate::move_text;
use movegen::{
    Color, Describe, Move, MoveKind, MoveList, MoverParts, Outcome, Piece, Position, Role, Square,
};

/// A legal move for the page: its string, squares and sentence.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveWords {
    /// The move string.
    pub mv: String,
    /// Origin square.
    pub from: Square,
    /// Destination square.
    pub to: Square,
    /// The sentence the chooser shows.
    pub text: String,
    /// The sentence as parts, for words in another language.
    pub parts: MoveParts,
}

/// What a legal move does, as parts of a sentence.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveParts {
    /// Castling, en passant, another capture, or a plain move.
    pub shape: Shape,
    /// The piece or group that moves.
    pub mover: MoverParts,
    /// The piece a pawn promotes to by choice (a suffix of the move).
    pub promotion: Option<Role>,
    /// The vest this capture takes.
    pub vest: Option<Role>,
    /// A capture that could have taken a vest and does not.
    pub declines_vest: bool,
}

/// The kind of sentence a move needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// Castling towards the h-file.
    CastleKingside,
    /// Castling towards the a-file.
    CastleQueenside,
    /// An en-passant capture.
    EnPassant,
    /// Any other capture.
    Capture,
    /// A move that takes nothing.
    Quiet,
}

impl Shape {
    /// The key a page finds its words under.
    #[must_use]
    pub const fn key(self) -> &'static str {
        match self {
            Shape::CastleKingside => "castle_kingside",
            Shape::CastleQueenside => "castle_queenside",
            Shape::EnPassant => "en_passant",
            Shape::Capture => "capture",
            Shape::Quiet => "move",
        }
    }
}

/// Every legal move of `pos` with its sentence, in movegen's order.
pub fn legal_words<P: Position + Describe>(pos: &P) -> Vec<MoveWords> {
    let mut list = MoveList::new();
    pos.legal_moves(&mut list);
    list.iter()
        .map(|&m| MoveWords {
            mv: m.to_string(),
            from: m.from(),
            to: m.to(),
            text: sentence(pos, m, &list),
            parts: parts(pos, m, &list),
        })
        .collect()
}

fn parts<P: Position + Describe>(pos: &P, m: Move, all: &[Move]) -> MoveParts {
    let shape = match (m.kind(), m.is_capture()) {
        (MoveKind::Castle, _) if m.to().file() > m.from().file() => Shape::CastleKingside,
        (MoveKind::Castle, _) => Shape::CastleQueenside,
        (MoveKind::EnPassant, _) => Shape::EnPassant,
        (_, true) => Shape::Capture,
        _ => Shape::Quiet,
    };
    MoveParts {
        shape,
        mover: pos.mover_parts(m),
        promotion: m.promotion(),
        vest: m.vest(),
        declines_vest: m.vest().is_none() && m.is_capture() && could_plunder(m, all),
    }
}

/// One move in words. `all` are the legal moves, so that a capture that
/// could have taken a vest says it declines it.
fn sentence<P: Position + Describe>(pos: &P, m: Move, all: &[Move]) -> String {
    if m.kind() == MoveKind::Castle {
        let side = if m.to().file() > m.from().file() {
            "kingside"
        } else {
            "queenside"
        };
        return format!("Castles {side} (king to {})", m.to());
    }
    let mover = pos.mover(m);
    let mut s = match (m.kind(), m.is_capture()) {
        (MoveKind::EnPassant, _) => format!("{mover} takes en passant on {}", m.to()),
        (_, true) => format!("{mover} takes on {}", m.to()),
        _ => format!("{mover} to {}", m.to()),
    };
    let mut extras = Vec::new();
    if let Some(p) = m.promotion() {
        extras.push(format!("promotes to {}", Role::name(p)));
    }
    if let Some(v) = m.vest() {
        extras.push(format!("takes a {} vest", Role::name(v)));
    } else if m.is_capture() && could_plunder(m, all) {
        extras.push("declines the vest".to_string());
    }
    match extras.as_slice() {
        [] => {}
        [one] if m.vest().is_some() => {
            s.push_str(" and ");
            s.push_str(one);
        }
        more => {
            for e in more {
                s.push_str(", ");
                s.push_str(e);
            }
        }
    }
    s
}

/// `true` if another legal move is `m` with a vest taken.
fn could_plunder(m: Move, all: &[Move]) -> bool {
    all.iter().any(|o| {
        o.vest().is_some()
            && o.from() == m.from()
            && o.to() == m.to()
            && o.promotion() == m.promotion()
    })
}

/// One played move as the move list shows it, with the FEN after it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ply {
    /// The move string.
    pub mv: String,
    /// SAN for chess, the move string otherwise.
    pub text: String,
    /// The position after the move.
    pub fen: String,
}

/// The moves of a game replayed from `start`.
pub fn plies<P: Position>(start: &P, moves: &[Move]) -> Vec<Ply> {
    let mut pos = start.clone();
    moves
        .iter()
        .map(|&m| {
            let text = move_text(&pos, m);
            pos.make(m);
            Ply {
                mv: m.to_string(),
                text,
                fen: pos.fen(),
            }
        })
        .collect()
}

/// A principal variation (move strings from `root`) in the move list's
/// notation; stops at the first move that is not legal.
pub fn pv_notation<P: Position>(root: &P, pv: &[String]) -> Vec<String> {
    let mut pos = root.clone();
    let mut out = Vec::with_capacity(pv.len());
    for s in pv {
        let Ok(m) = pos.parse_move(s) else { break };
        out.push(move_text(&pos, m));
        pos.make(m);
    }
    out
}

/// The square of the side to move's king when it is in check.
pub fn checked_king<P: Position>(pos: &P) -> Option<Square> {
    if !pos.is_check() {
        return None;
    }
    let king = Piece {
        color: pos.turn(),
        role: Role::King,
    };
    Square::all().find(|&sq| pos.piece_at(sq) == Some(king))
}

/// The result as PGN writes it and the reason in words
/// (`("0-1", "White is mated")`).
#[must_use]
pub fn outcome_words(o: Outcome) -> (&'static str, &'static str) {
    let reason = match o {
        Outcome::Checkmate {
            winner: Color::White,
        } => "Black is mated",
        Outcome::Checkmate {
            winner: Color::Black,
        } => "White is mated",
        Outcome::Stalemate => "Draw by stalemate",
        Outcome::InsufficientMaterial => "Draw by insufficient material",
        Outcome::FiftyMoves => "Draw by the fifty-move rule",
        Outcome::Repetition => "Draw by threefold repetition",
    };
    (o.result(), reason)
}

/// Every outcome a game can end with.
pub const OUTCOMES: [Outcome; 6] = [
    Outcome::Checkmate {
        winner: Color::White,
    },
    Outcome::Checkmate {
        winner: Color::Black,
    },
    Outcome::Stalemate,
    Outcome::InsufficientMaterial,
    Outcome::FiftyMoves,
    Outcome::Repetition,
];

/// The key of a reason [`outcome_words`] wrote (as a library keeps it);
/// `None` for other words (an imported game's own).
#[must_use]
pub fn reason_key(reason: &str) -> Option<&'static str> {
    OUTCOMES
        .into_iter()
        .find(|&o| outcome_words(o).1 == reason)
        .map(outcome_key)
}

/// The reason of [`outcome_words`] as a key a page finds its words under.
#[must_use]
pub const fn outcome_key(o: Outcome) -> &'static str {
    match o {
        Outcome::Checkmate {
            winner: Color::White,
        } => "black_mated",
        Outcome::Checkmate {
            winner: Color::Black,
        } => "white_mated",
        Outcome::Stalemate => "stalemate",
        Outcome::InsufficientMaterial => "insufficient_material",
        Outcome::FiftyMoves => "fifty_moves",
        Outcome::Repetition => "repetition",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use movegen::{Chess, Plunder, Tavreli};

    fn words<P: Position + Describe>(fen: &str, from_to: &str) -> Vec<(String, String)> {
        let pos = P::from_fen(fen).unwrap();
        legal_words(&pos)
            .into_iter()
            .filter(|w| w.mv.starts_with(from_to))
            .map(|w| (w.mv, w.text))
            .collect()
    }

    #[test]
    fn every_reason_has_its_key_back() {
        for o in OUTCOMES {
            assert_eq!(reason_key(outcome_words(o).1), Some(outcome_key(o)));
        }
        assert_eq!(reason_key("White resigns"), None);
    }

    #[test]
    fn plunder_captures_name_the_vest_choice() {
        let got = words::<Plunder>("4k3/8/8/3p4/8/2N5/8/4K3 w - - 0 1", "c3d5");
        assert_eq!(
            got,
            [
                (
                    "c3d5".into(),
                    "Knight takes on d5, declines the vest".into()
                ),
                (
                    "c3d5p".into(),
                    "Knight takes on d5 and takes a pawn vest".into()
                ),
            ]
        );
        let got = words::<Plunder>("3nk3/4P3/8/8/8/8/8/4K3 w - - 0 1", "e7d8q");
        assert!(got.contains(&(
            "e7d8qn".into(),
            "Pawn takes on d8, promotes to queen, takes a knight vest".into()
        )));
        assert!(got.contains(&(
            "e7d8q".into(),
            "Pawn takes on d8, promotes to queen, declines the vest".into()
        )));
    }

    #[test]
    fn tavreli_groups_and_tokens() {
        let mixed = Tavreli::from_fen("4k3/8/8/8/3(PbR)4/8/8/4K3 w - - 0 1").unwrap();
        let m = mixed.parse_move("d4d8:2").unwrap();
        assert_eq!(mixed.mover(m), "Top 2 of 3 (black bishop, rook)");
        let parts = mixed.mover_parts(m);
        assert_eq!((parts.k, parts.height, parts.by_vest), (2, 3, None));
        let group: Vec<_> = parts.pieces.iter().map(|p| (p.color, p.role)).collect();
        assert_eq!(
            group,
            [(Color::Black, Role::Bishop), (Color::White, Role::Rook)]
        );
        let pos = Tavreli::from_fen("4k3/8/8/8/3(PBR)4/8/8/4K3 w - - 0 1").unwrap();
        let d4 = Square::parse("d4").unwrap();
        let tokens: Vec<String> = pos.tokens(d4).into_iter().map(|t| t.piece).collect();
        assert_eq!(tokens, ["P", "B", "R"]);
        let w: Vec<_> = legal_words(&pos)
            .into_iter()
            .filter(|w| w.mv.starts_with("d4d8"))
            .map(|w| (w.mv, w.text))
            .collect();
        assert_eq!(
            w,
            [
                ("d4d8:1".into(), "Top 1 of 3 (rook) to d8".into()),
                ("d4d8:2".into(), "Top 2 of 3 (bishop, rook) to d8".into()),
                (
                    "d4d8".into(),
                    "Whole tower of 3 (pawn (promotes to queen), bishop, rook) to d8".into()
                ),
            ]
        );
    }

    #[test]
    fn chess_castles_and_results() {
        let got = words::<Chess>("4k3/8/8/8/8/8/8/4K2R w K - 0 1", "e1g1");
        assert_eq!(
            got,
            [("e1g1".into(), "Castles kingside (king to g1)".into())]
        );
        assert_eq!(
            outcome_words(Outcome::Checkmate {
                winner: Color::Black
            }),
            ("0-1", "White is mated")
        );
    }
}
