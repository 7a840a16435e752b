//! A bare king against mating material: a won ending whatever the tuned
//! terms say. Self-play rarely reaches it, so the networks and the tuned
//! weights know little of it (chess's tuned mop-up weights came out
//! negative, and the engine let K+Q against K go to the fifty-move rule at
//! 5000 nodes a move). As Stockfish's KXK, the evaluation is then replaced:
//! a known win, the strong side's material, and what converts it — the
//! bare king pushed to the edge and the strong king brought close.

use crate::role_value;
use movegen::{Bitboard, Color, Position, Role, Square};

/// What a bare king against mating material is worth before the terms
/// below (centipawns): far above any middlegame score, far below a mate.
pub const KNOWN_WIN: i32 = 2000;
/// Per step the bare king stands from the centre.
const PUSH_TO_EDGE: i32 = 100;
/// Per step the kings are closer than the farthest apart (7).
const PUSH_CLOSE: i32 = 40;

/// The evaluation (side to move's view) of `pos` if one side has a bare
/// king and the other mating material, else `None`. `owned` holds each
/// side's pieces by colour index (in Tavreli, the towers it owns; their
/// tops are what [`Position::piece_at`] gives).
#[must_use]
pub fn bare_king<P: Position>(pos: &P, owned: [Bitboard; 2]) -> Option<i32> {
    let weak = Color::ALL
        .into_iter()
        .find(|c| owned[c.index()].count() == 1)?;
    let strong = weak.flip();
    let mut material = 0;
    let (mut minors, mut bishops, mut heavy) = (0, 0, false);
    let mut strong_king = None;
    for sq in owned[strong.index()] {
        let role = pos.piece_at(sq)?.role;
        material += role_value(role);
        match role {
            Role::Queen | Role::Rook | Role::Helgi => heavy = true,
            Role::Bishop => {
                bishops += 1;
                minors += 1;
            }
            Role::Knight => minors += 1,
            Role::King => strong_king = Some(sq),
            Role::Pawn => {}
        }
    }
    // Two knights cannot force mate; a bishop and a knight, or two
    // bishops, can.
    let mates = heavy || (minors >= 2 && bishops >= 1);
    let weak_king = owned[weak.index()].into_iter().next()?;
    if !mates {
        return None;
    }
    let strong_king = strong_king?;
    let score = KNOWN_WIN
        + material
        + PUSH_TO_EDGE * from_centre(weak_king)
        + PUSH_CLOSE * (7 - distance(weak_king, strong_king));
    Some(if pos.turn() == strong { score } else { -score })
}

/// Steps from the centre, 0 (d4…e5) to 6 (a corner).
fn from_centre(sq: Square) -> i32 {
    let f = i32::from(sq.file().0);
    let r = i32::from(sq.rank().0);
    (2 * f - 7).abs() / 2 + (2 * r - 7).abs() / 2
}

/// King steps between two squares.
fn distance(a: Square, b: Square) -> i32 {
    let df = (i32::from(a.file().0) - i32::from(b.file().0)).abs();
    let dr = (i32::from(a.rank().0) - i32::from(b.rank().0)).abs();
    df.max(dr)
}

#[cfg(test)]
mod tests {
    use crate::Evaluate;
    use movegen::{Chess, Plunder, Position, Tavreli};

    fn eval_of(variant: &str, fen: &str) -> i32 {
        match variant {
            "chess" => Chess::from_fen(fen).unwrap().evaluate(),
            "plunder" => Plunder::from_fen(fen).unwrap().evaluate(),
            _ => Tavreli::from_fen(fen).unwrap().evaluate(),
        }
    }

    #[test]
    fn a_bare_king_against_a_queen_is_a_known_win_in_every_variant() {
        for v in ["chess", "plunder", "tavreli"] {
            let white = eval_of(v, "8/8/8/4k3/8/8/8/3QK3 w - - 0 1");
            assert!(white > super::KNOWN_WIN, "{v}: {white}");
            assert_eq!(eval_of(v, "8/8/8/4k3/8/8/8/3QK3 b - - 0 1"), -white, "{v}");
            // Nearer the edge, and kings closer, is better for the winner.
            let edge = eval_of(v, "k7/8/8/8/8/8/8/3QK3 w - - 0 1");
            let close = eval_of(v, "8/8/8/4k3/8/4K3/8/3Q4 w - - 0 1");
            assert!(edge > white && close > white, "{v}: {white} {edge} {close}");
        }
    }

    #[test]
    fn no_known_win_without_mating_material() {
        // Two knights, or pawns alone, are evaluated as usual.
        for fen in [
            "8/8/8/4k3/8/8/8/1NN1K3 w - - 0 1",
            "8/8/8/4k3/8/8/4P3/4K3 w - - 0 1",
        ] {
            let e = eval_of("chess", fen);
            assert!(e < super::KNOWN_WIN, "{fen}: {e}");
        }
    }
}
