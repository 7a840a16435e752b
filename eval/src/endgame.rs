//! A bare king against mating material: a won ending whatever the tuned
//! terms say. Self-play rarely reaches it, so the networks and the tuned
//! weights know little of it (chess's tuned mop-up weights came out
//! negative, and the engine let K+Q against K go to the fifty-move rule at
//! 5000 nodes a move). As Stockfish's KXK, the evaluation is then replaced:
//! a known win, the strong side's material, and what converts it — the
//! bare king pushed to the edge and the strong king brought close. With a
//! bishop and a knight (and no heavier piece) only a corner of the bishop's
//! colour mates, so the push is to those two corners instead.

use crate::role_value;
use movegen::{Bitboard, Color, Position, Role, Square};

/// What a bare king against mating material is worth before the terms
/// below (centipawns): far above any middlegame score, far below a mate.
pub const KNOWN_WIN: i32 = 2000;
/// Per step the bare king stands from the centre.
const PUSH_TO_EDGE: i32 = 100;
/// Per step the kings are closer than the farthest apart (7).
const PUSH_CLOSE: i32 = 40;
/// Per step the bare king stands nearer a mating corner than the farthest
/// square from both (7 steps); twice the edge's weight, since the bare king
/// must be led along the edge from the wrong corner to the right one.
const PUSH_TO_CORNER: i32 = 200;

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
    let (mut knights, mut heavy) = (0, false);
    // Bishops by the colour of their squares: [dark, light].
    let mut bishops = [0; 2];
    let mut strong_king = None;
    for sq in owned[strong.index()] {
        let role = pos.piece_at(sq)?.role;
        material += role_value(role);
        match role {
            Role::Queen | Role::Rook | Role::Helgi => heavy = true,
            Role::Bishop => {
                bishops[usize::from(!Bitboard::DARK.contains(sq))] += 1;
            }
            Role::Knight => knights += 1,
            Role::King => strong_king = Some(sq),
            Role::Pawn => {}
        }
    }
    // Two knights cannot force mate, nor bishops of one colour; a bishop
    // and a knight, or bishops of both colours, can.
    let mates = heavy || (bishops[0] > 0 && bishops[1] > 0) || (knights > 0 && bishops != [0, 0]);
    let weak_king = owned[weak.index()].into_iter().next()?;
    if !mates {
        return None;
    }
    let strong_king = strong_king?;
    // Bishops of one colour only, and no heavy piece: the corners of that
    // colour.
    let push = match bishops {
        [_, 0] | [0, _] if !heavy => PUSH_TO_CORNER * to_corner(weak_king, bishops[0] > 0),
        _ => PUSH_TO_EDGE * from_centre(weak_king),
    };
    let score = KNOWN_WIN + material + push + PUSH_CLOSE * (7 - distance(weak_king, strong_king));
    Some(if pos.turn() == strong { score } else { -score })
}

/// Steps from the centre, 0 (d4…e5) to 6 (a corner).
fn from_centre(sq: Square) -> i32 {
    let f = i32::from(sq.file().0);
    let r = i32::from(sq.rank().0);
    (2 * f - 7).abs() / 2 + (2 * r - 7).abs() / 2
}

/// How near `sq` stands to a corner of the given colour: 7 in the corner
/// (a1 and h8 are dark, a8 and h1 light), 0 on the diagonal farthest from
/// both; it rises by one per step along the edge towards such a corner.
fn to_corner(sq: Square, dark: bool) -> i32 {
    let f = i32::from(sq.file().0);
    let r = i32::from(sq.rank().0);
    if dark {
        (f + r - 7).abs()
    } else {
        (f - r).abs()
    }
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
    fn a_bishop_and_a_knight_drive_the_king_to_their_bishops_corners() {
        // The dark-squared bishop (c1) mates in a1 or h8, not in a8 or h1;
        // with a light-squared bishop (f1) it is the other way round.
        for v in ["chess", "plunder", "tavreli"] {
            let dark = |top: &str| eval_of(v, &format!("{top}/8/8/8/8/4K3/2B1N3 w - - 0 1"));
            let (a8, h8) = (dark("k7/8"), dark("7k/8"));
            assert!(h8 > a8 + 1000, "{v}: h8 {h8}, a8 {a8}");
            let light = |top: &str| eval_of(v, &format!("{top}/8/8/8/8/4K3/4NB2 w - - 0 1"));
            let (a8, h8) = (light("k7/8"), light("7k/8"));
            assert!(a8 > h8 + 1000, "{v}: a8 {a8}, h8 {h8}");
            // Along the edge towards the right corner, step by step.
            let steps: Vec<i32> = ["k7/8", "8/k7"].iter().map(|top| light(top)).collect();
            assert!(steps[0] > steps[1], "{v}: {steps:?}");
        }
    }

    #[test]
    fn no_known_win_without_mating_material() {
        // Two knights, or pawns alone, are evaluated as usual.
        for fen in [
            "8/8/8/4k3/8/8/8/1NN1K3 w - - 0 1",
            "8/8/8/4k3/8/4B3/8/2B1K3 w - - 0 1",
            "8/8/8/4k3/8/8/4P3/4K3 w - - 0 1",
        ] {
            let e = eval_of("chess", fen);
            assert!(e < super::KNOWN_WIN, "{fen}: {e}");
        }
    }
}
