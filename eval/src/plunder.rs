//! PlunderChess evaluation: material, simple piece-square terms, the worth of
//! each worn vest by its wearer, and a light mobility term that counts vest
//! power too. Centipawns from the side to move.
//!
//! A vest is worth a fraction of the movement it **adds** to its wearer
//! (RULES.md §3.2 forbids vests that add nothing): a queen vest on a knight
//! adds a whole queen's lines, a pawn vest on a queen adds only en passant.
//! The fraction is small because a vest move uses the vest up; its lasting
//! worth is the extra threat (attacks and checks keep the vest).

use crate::Evaluate;
use movegen::{attacks, Bitboard, Color, Plunder, Position, Role, Square};

/// Material of a piece type (king 0: it is never captured).
const MATERIAL: [i32; 6] = [100, 320, 330, 500, 950, 0];

/// What vest `v` (P N B R Q) adds to wearer `w` (P N B R Q K), in the
/// material scale: the vest type's movement minus the part the wearer
/// already has (a rook wearing a queen vest gains only the bishop lines).
/// Zero where the allow table forbids the vest.
const ADDS: [[i32; 5]; 6] = [
    // P    N    B    R    Q
    [0, 320, 330, 500, 950],  // pawn
    [100, 0, 330, 500, 950],  // knight
    [60, 320, 0, 500, 620],   // bishop: pawn vest adds pushes, queen adds rook lines
    [60, 320, 330, 0, 450],   // rook: pawn vest adds diagonal captures, queen adds bishop lines
    [30, 320, 0, 0, 0],       // queen: pawn vest adds en passant only
    [30, 320, 330, 500, 950], // king
];

/// A vest is worth `ADDS / VEST_DIVISOR` on a piece, and half that on the
/// king (which rarely dares to use it).
const VEST_DIVISOR: i32 = 4;

/// Centipawns per square a piece attacks (own pieces excluded).
const MOBILITY: i32 = 3;

/// Pawn advance bonus by relative rank (1st rank: a pawn put back by a vest move).
const PAWN_ADVANCE: [i32; 8] = [0, 0, 5, 10, 20, 35, 60, 0];

/// 3 on the four centre squares down to 0 on the rim.
fn centrality(sq: Square) -> i32 {
    let f = i32::from(sq.file().0);
    let r = i32::from(sq.rank().0);
    let d = (2 * f - 7).abs().max((2 * r - 7).abs()) / 2;
    3 - d
}

/// Attacks of a movement set from `sq` (pawn: the capture squares).
fn reach(role: Role, color: Color, sq: Square, occ: Bitboard) -> Bitboard {
    match role {
        Role::Pawn => attacks::pawn(color, sq),
        Role::Knight => attacks::knight(sq),
        Role::Bishop => attacks::bishop(sq, occ),
        Role::Rook => attacks::rook(sq, occ),
        Role::Queen => attacks::queen(sq, occ),
        Role::King | Role::Helgi => attacks::king(sq),
    }
}

/// The worth of vest `vest` worn by a piece of type `wearer`.
#[must_use]
pub fn vest_value(vest: Role, wearer: Role) -> i32 {
    let (v, w) = (vest.index(), wearer.index());
    if v >= 5 || w >= 6 {
        return 0;
    }
    let divisor = if wearer == Role::King {
        2 * VEST_DIVISOR
    } else {
        VEST_DIVISOR
    };
    ADDS[w][v] / divisor
}

/// White-minus-black score of one side's pieces.
fn side_score(pos: &Plunder, color: Color) -> i32 {
    let board = pos.board();
    let occ = board.occupied();
    let own = board.by_color(color);
    let enemy_queens = board.pieces(color.flip(), Role::Queen).nonempty();
    let mut score = 0;
    for sq in own {
        let Some(piece) = board.piece_at(sq) else {
            continue;
        };
        let role = piece.role;
        score += MATERIAL[role.index()];
        let rel_rank = usize::from(if color == Color::White {
            sq.rank().0
        } else {
            7 - sq.rank().0
        });
        score += match role {
            Role::Pawn => PAWN_ADVANCE[rel_rank],
            Role::Knight => 10 * centrality(sq),
            Role::Bishop => 5 * centrality(sq),
            Role::Rook => {
                if rel_rank == 6 {
                    15
                } else {
                    0
                }
            }
            Role::Queen => 2 * centrality(sq),
            // Shelter while the enemy queen lives, activity after.
            Role::King if enemy_queens => -10 * centrality(sq),
            _ => 5 * centrality(sq),
        };
        let mut reach_bb = if matches!(role, Role::Pawn | Role::King) {
            Bitboard::EMPTY
        } else {
            reach(role, color, sq, occ)
        };
        if let Some(vest) = pos.vest_at(sq) {
            score += vest_value(vest, role);
            reach_bb |= reach(vest, color, sq, occ);
        }
        score += MOBILITY * (reach_bb - own).count() as i32;
    }
    score
}

impl Evaluate for Plunder {
    fn evaluate(&self) -> i32 {
        let white = side_score(self, Color::White) - side_score(self, Color::Black);
        if self.turn() == Color::White {
            white
        } else {
            -white
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn eval(fen: &str) -> i32 {
        Plunder::from_fen(fen)
            .unwrap_or_else(|e| panic!("{fen}: {e}"))
            .evaluate()
    }

    /// The same position with colours swapped and ranks mirrored, the side
    /// to move kept (castling and en passant are not used here).
    fn mirror(fen: &str) -> String {
        let mut fields = fen.split(' ');
        let board = fields.next().unwrap_or_default();
        let rest: Vec<&str> = fields.collect();
        let ranks: Vec<String> = board
            .split('/')
            .rev()
            .map(|r| {
                r.chars()
                    .map(|c| {
                        if c.is_ascii_uppercase() {
                            c.to_ascii_lowercase()
                        } else {
                            c.to_ascii_uppercase()
                        }
                    })
                    .collect()
            })
            .collect();
        format!("{} {}", ranks.join("/"), rest.join(" "))
    }

    #[test]
    fn mirrored_position_negates() {
        for fen in [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1",
            "r3k2r/pp1n(q)1ppp/2p(n)1b3/3B(P)4/4P(R)3/2N(B)2Q(N)2/PPP2PPP/R3K(P)2R w - - 0 1",
            "4kbn1/p3ppp1/b7/1r(n)1p4/4P3/P4NP1/3B3R(P)/1R(N)2KB2 b - - 0 15",
            "1n6/4k(b)3/7n(p)/8/8/5K(P)2/3b(r)4/8 b - - 5 36",
        ] {
            let m = mirror(fen);
            assert_eq!(eval(&m), -eval(fen), "{fen} vs {m}");
        }
        assert_eq!(
            mirror("4k3/8/8/8/8/8/8/2N(q)1K(P)2 w - - 0 1"),
            "2n(Q)1k(p)2/8/8/8/8/8/8/4K3 w - - 0 1"
        );
    }

    #[test]
    fn start_position_is_balanced() {
        assert_eq!(
            eval("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
            0
        );
    }

    #[test]
    fn side_to_move_view() {
        let white = eval("4k3/8/8/8/8/8/8/3QK3 w - - 0 1");
        let black = eval("4k3/8/8/8/8/8/8/3QK3 b - - 0 1");
        assert!(white > 900, "{white}");
        assert_eq!(black, -white);
    }

    #[test]
    fn a_vest_is_worth_something() {
        let plain = eval("4k3/8/8/8/3N4/8/8/4K3 w - - 0 1");
        let vested = eval("4k3/8/8/8/3N(Q)4/8/8/4K3 w - - 0 1");
        // The queen vest's value plus the queen lines' mobility.
        assert!(vested - plain >= vest_value(Role::Queen, Role::Knight));
        assert!(vest_value(Role::Queen, Role::Knight) >= 200);
        // A pawn vest on a king is small but positive; on a knight larger.
        let king_pawn = vest_value(Role::Pawn, Role::King);
        assert!(king_pawn > 0 && king_pawn < vest_value(Role::Pawn, Role::Knight));
        assert!(king_pawn < 10);
        // Forbidden vests are worth nothing.
        assert_eq!(vest_value(Role::Rook, Role::Queen), 0);
        assert_eq!(vest_value(Role::Knight, Role::Knight), 0);
        // Black's vest counts for black.
        let black_vest = eval("4k3/8/8/8/3n(q)4/8/8/4K3 w - - 0 1");
        let black_plain = eval("4k3/8/8/8/3n4/8/8/4K3 w - - 0 1");
        assert!(black_vest < black_plain);
    }
}
