//! The `Position` trait every variant implements, game status, and perft.

use crate::fen::FenError;
use crate::moves::{Move, MoveList};
use crate::types::{Color, Piece, Role, Square};
use crate::Variant;
use std::fmt;

/// Why a move string was not accepted in a position.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum MoveError {
    /// Not of the form `<from><to>[suffix]`.
    Syntax(String),
    /// Well formed, but no legal move has this string here.
    Illegal(String),
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::Syntax(s) => write!(f, "malformed move \"{s}\""),
            MoveError::Illegal(s) => write!(f, "illegal move \"{s}\""),
        }
    }
}

impl std::error::Error for MoveError {}

/// How a game ended.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Outcome {
    /// The side to move is mated; `winner` gave the mate.
    Checkmate {
        /// The side that won.
        winner: Color,
    },
    /// The side to move has no legal move and is not in check.
    Stalemate,
    /// Neither side can mate (chess, plunder without vests).
    InsufficientMaterial,
    /// 100 plies without capture or pawn move.
    FiftyMoves,
    /// The same position for the third time.
    Repetition,
}

impl Outcome {
    /// `1-0`, `0-1` or `1/2-1/2`.
    #[must_use]
    pub const fn result(self) -> &'static str {
        match self {
            Outcome::Checkmate {
                winner: Color::White,
            } => "1-0",
            Outcome::Checkmate {
                winner: Color::Black,
            } => "0-1",
            _ => "1/2-1/2",
        }
    }

    /// White's points: 1, ½ or 0.
    #[must_use]
    pub const fn white_points(self) -> f64 {
        match self.winner() {
            Some(Color::White) => 1.0,
            Some(Color::Black) => 0.0,
            None => 0.5,
        }
    }

    /// The winner, if any.
    #[must_use]
    pub const fn winner(self) -> Option<Color> {
        match self {
            Outcome::Checkmate { winner } => Some(winner),
            _ => None,
        }
    }

    /// A short reason as GUIs print it (`White mates`, `Stalemate`, …).
    #[must_use]
    pub const fn reason(self) -> &'static str {
        match self {
            Outcome::Checkmate {
                winner: Color::White,
            } => "White mates",
            Outcome::Checkmate {
                winner: Color::Black,
            } => "Black mates",
            Outcome::Stalemate => "Stalemate",
            Outcome::InsufficientMaterial => "Insufficient material",
            Outcome::FiftyMoves => "Fifty-move rule",
            Outcome::Repetition => "Threefold repetition",
        }
    }
}

/// A position of one variant: the rules behind FEN, move generation and
/// make/unmake. Search, perft and the arbiter are generic over it.
pub trait Position: Clone + Send + Sync + fmt::Debug + 'static {
    /// The variant these rules are.
    const VARIANT: Variant;

    /// What `make` returns so `unmake` can restore the position exactly.
    type Undo: Send;

    /// The start position.
    fn startpos() -> Self;

    /// Reads a FEN (4 to 6 fields).
    ///
    /// # Errors
    /// A [`FenError`] naming the offending field and token.
    fn from_fen(fen: &str) -> Result<Self, FenError>;

    /// Writes the FEN (6 fields; en passant only when a capture there is legal).
    fn fen(&self) -> String;

    /// The side to move.
    fn turn(&self) -> Color;

    /// Plies since the last capture or pawn move.
    fn halfmoves(&self) -> u32;

    /// The full-move number.
    fn fullmoves(&self) -> u32;

    /// The Zobrist key, maintained incrementally.
    fn key(&self) -> u64;

    /// The key computed from scratch (for tests of the incremental key).
    fn key_from_scratch(&self) -> u64;

    /// `true` if the side to move is in check.
    fn is_check(&self) -> bool;

    /// Appends every legal move.
    fn legal_moves(&self, moves: &mut MoveList);

    /// Appends the legal moves quiescence searches: those of
    /// [`Position::legal_moves`] that capture (en passant and capturing
    /// promotions to any role included) or promote to a queen, in the same
    /// order. Variants generate them without the quiet moves.
    fn tactical_moves(&self, moves: &mut MoveList) {
        let mut all = MoveList::new();
        self.legal_moves(&mut all);
        moves.extend(all.into_iter().filter(|m| is_tactical(*m)));
    }

    /// The number of legal moves (perft's bulk count; variants may count
    /// without listing).
    fn count_legal(&self) -> u64 {
        let mut moves = MoveList::new();
        self.legal_moves(&mut moves);
        moves.len() as u64
    }

    /// Plays a legal move.
    fn make(&mut self, m: Move) -> Self::Undo;

    /// Takes back the move `make` played.
    fn unmake(&mut self, m: Move, undo: Self::Undo);

    /// Passes the turn (for null-move pruning; never called in check).
    fn make_null(&mut self) -> Self::Undo;

    /// Takes back `make_null`.
    fn unmake_null(&mut self, undo: Self::Undo);

    /// The (top) piece on a square.
    fn piece_at(&self, sq: Square) -> Option<Piece>;

    /// `true` if no side can ever mate (variant rules decide; Tavreli: never).
    fn insufficient_material(&self) -> bool;

    /// A human-readable board for the `d` command: ranks, pieces and the
    /// variant's extras (vests, towers).
    fn pretty(&self) -> String;

    /// Finds the legal move written `s` (RULES.md move strings).
    ///
    /// # Errors
    /// [`MoveError`] if malformed or not legal here.
    fn parse_move(&self, s: &str) -> Result<Move, MoveError> {
        if s.len() < 4 || s.len() > 8 || !s.is_ascii() {
            return Err(MoveError::Syntax(s.to_string()));
        }
        if Square::parse(&s[0..2]).is_none() || Square::parse(&s[2..4]).is_none() {
            return Err(MoveError::Syntax(s.to_string()));
        }
        let mut moves = MoveList::new();
        self.legal_moves(&mut moves);
        moves
            .iter()
            .copied()
            .find(|m| m.to_string() == s)
            .ok_or_else(|| MoveError::Illegal(s.to_string()))
    }

    /// `true` if `m` is one of the legal moves (for moves from the TT or a GUI).
    fn is_legal(&self, m: Move) -> bool {
        let mut moves = MoveList::new();
        self.legal_moves(&mut moves);
        moves.contains(&m)
    }
}

/// The moves [`Position::tactical_moves`] keeps.
#[inline]
fn is_tactical(m: Move) -> bool {
    m.is_capture() || m.promotion() == Some(Role::Queen)
}

/// The deepest perft any front end accepts: far beyond what finishes in a
/// day, and shallow enough that the recursion (a move list per ply on the
/// stack) stays small.
pub const MAX_PERFT_DEPTH: u32 = 20;

/// The game status given the keys of the earlier positions of the game
/// (oldest first, current excluded): `None` while the game goes on.
/// Precedence as RULES.md §1: mate/stalemate, insufficient material,
/// fifty moves, repetition.
#[must_use]
pub fn status<P: Position>(pos: &P, history: &[u64]) -> Option<Outcome> {
    if pos.count_legal() == 0 {
        return Some(if pos.is_check() {
            Outcome::Checkmate {
                winner: pos.turn().flip(),
            }
        } else {
            Outcome::Stalemate
        });
    }
    if pos.insufficient_material() {
        return Some(Outcome::InsufficientMaterial);
    }
    if pos.halfmoves() >= 100 {
        return Some(Outcome::FiftyMoves);
    }
    let key = pos.key();
    let window = (pos.halfmoves() as usize).min(history.len());
    let earlier = history[history.len() - window..]
        .iter()
        .filter(|&&k| k == key)
        .count();
    if earlier >= 2 {
        return Some(Outcome::Repetition);
    }
    None
}

/// Counts the leaf nodes of the legal move tree to `depth` (bulk counting at
/// the last ply).
pub fn perft<P: Position>(pos: &mut P, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_legal(),
        _ => {
            let mut moves = MoveList::new();
            pos.legal_moves(&mut moves);
            let mut nodes = 0;
            for &m in &moves {
                let undo = pos.make(m);
                nodes += perft(pos, depth - 1);
                pos.unmake(m, undo);
            }
            nodes
        }
    }
}

/// Perft per root move: `(move, nodes)` in generation order.
pub fn divide<P: Position>(pos: &mut P, depth: u32) -> Vec<(Move, u64)> {
    let mut moves = MoveList::new();
    pos.legal_moves(&mut moves);
    moves
        .iter()
        .map(|&m| {
            let undo = pos.make(m);
            let n = if depth <= 1 { 1 } else { perft(pos, depth - 1) };
            pos.unmake(m, undo);
            (m, n)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Chess, Plunder, Tavreli};

    #[test]
    fn white_points_follow_the_result() {
        for (o, points) in [
            (
                Outcome::Checkmate {
                    winner: Color::White,
                },
                1.0,
            ),
            (
                Outcome::Checkmate {
                    winner: Color::Black,
                },
                0.0,
            ),
            (Outcome::Stalemate, 0.5),
            (Outcome::Repetition, 0.5),
        ] {
            assert_eq!(o.white_points(), points, "{}", o.result());
        }
    }

    /// The reference: every legal move, filtered.
    fn filtered<P: Position>(p: &P) -> Vec<Move> {
        let mut all = MoveList::new();
        p.legal_moves(&mut all);
        all.into_iter().filter(|m| is_tactical(*m)).collect()
    }

    /// Counts of what came up, so the test proves it saw the cases.
    #[derive(Default, Debug)]
    struct Seen {
        nodes: usize,
        with_tactical: usize,
        in_check: usize,
        en_passant: usize,
        promotions: usize,
        /// Captures that take a vest (plunder).
        vest_choices: usize,
    }

    fn check<P: Position>(p: &P, seen: &mut Seen) {
        let mut got = MoveList::new();
        // Appends: whatever is in the list already stays.
        let marker = Move::quiet(Square::A1, Square::H8);
        got.push(marker);
        p.tactical_moves(&mut got);
        assert_eq!(got[0], marker);
        assert_eq!(got[1..], filtered(p)[..], "{}", p.fen());
        seen.nodes += 1;
        seen.with_tactical += usize::from(got.len() > 1);
        seen.in_check += usize::from(p.is_check());
        seen.en_passant += usize::from(
            got.iter()
                .any(|m| m.kind() == crate::moves::MoveKind::EnPassant),
        );
        seen.promotions += usize::from(got.iter().any(|m| m.promotion().is_some()));
        seen.vest_choices += usize::from(got.iter().any(|m| m.vest().is_some()));
    }

    /// `tactical_moves` equals the filtered `legal_moves` (same moves, same
    /// order) at every node of the depth-2 trees of the variant's perft
    /// suite and along random games from its positions that prefer
    /// captures, checks and promotions.
    fn tactical_equals_filtered_legal<P: Position>(epd: &str) -> Seen {
        let mut seen = Seen::default();
        let mut rng = crate::SplitMix::new(0x7AC7_1CA1);
        for line in epd.lines().filter(|l| !l.trim().is_empty()) {
            let fen = line.split(';').next().unwrap_or(line).trim();
            let root = P::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
            let mut first = MoveList::new();
            root.legal_moves(&mut first);
            check(&root, &mut seen);
            for &m in &first {
                let mut child = root.clone();
                child.make(m);
                check(&child, &mut seen);
                let mut second = MoveList::new();
                child.legal_moves(&mut second);
                for &r in &second {
                    let mut grandchild = child.clone();
                    grandchild.make(r);
                    check(&grandchild, &mut seen);
                }
            }
            for _game in 0..8 {
                let mut p = root.clone();
                for _ply in 0..80 {
                    check(&p, &mut seen);
                    let mut list = MoveList::new();
                    p.legal_moves(&mut list);
                    if list.is_empty() {
                        break;
                    }
                    let tactical = filtered(&p);
                    let m = if !tactical.is_empty() && rng.below(3) == 0 {
                        tactical[rng.below(tactical.len())]
                    } else {
                        list[rng.below(list.len())]
                    };
                    p.make(m);
                }
            }
        }
        eprintln!("{seen:?}");
        assert!(seen.with_tactical > 1_000, "{seen:?}");
        assert!(seen.in_check > 100, "{seen:?}");
        seen
    }

    #[test]
    fn tactical_moves_are_the_filtered_legal_moves_chess() {
        let seen = tactical_equals_filtered_legal::<Chess>(include_str!(
            "../../tests/data/perft/chess.epd"
        ));
        assert!(seen.en_passant > 10 && seen.promotions > 100, "{seen:?}");
    }

    #[test]
    fn tactical_moves_are_the_filtered_legal_moves_plunder() {
        let seen = tactical_equals_filtered_legal::<Plunder>(include_str!(
            "../../tests/data/perft/plunder.epd"
        ));
        assert!(seen.en_passant > 10 && seen.promotions > 100, "{seen:?}");
        assert!(seen.vest_choices > 1_000, "{seen:?}");
    }

    #[test]
    fn tactical_moves_are_the_filtered_legal_moves_tavreli() {
        let seen = tactical_equals_filtered_legal::<Tavreli>(include_str!(
            "../../tests/data/perft/tavreli.epd"
        ));
        assert!(seen.en_passant > 10, "{seen:?}");
    }
}
