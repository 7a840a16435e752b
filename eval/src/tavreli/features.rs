//! Tavreli's network inputs (`docs/networks.md`): the top of each tower,
//! what lies beneath it, and the same facts wherever the tower stands; the
//! embedded `eval/params/tavreli.nnue`.

use crate::nets::{self, oriented, theirs, Features};
use movegen::{Bitboard, Color, Role, Square, Tavreli, Tower, TowerPiece};

/// Kinds of tower piece (`TowerPiece::code() & 15`): K Q R B N H, a
/// pawn promoting to N B R Q H, a promoted pawn moving as N B R Q H.
pub const KINDS: usize = 16;
/// Top inputs: own or enemy × 16 kinds × 64 squares: the piece that
/// owns and moves the tower.
pub const TOPS: usize = 2 * KINDS * 64;
/// How many of one colour and kind below the top are told apart:
/// at least one, at least two.
pub const COUNT_CAP: usize = 2;
/// Beneath inputs: own or enemy × 16 kinds × (at least 1, at least 2)
/// × 64 squares: what lies under the top of that square's tower.
pub const BENEATH: usize = 2 * KINDS * COUNT_CAP * 64;
/// The same facts wherever the tower stands: own or enemy × 16 kinds
/// × (at least 1, at least 2), one count per tower (two towers each
/// holding an enemy rook switch the input on twice). They learn what a
/// prisoner is worth from every square's data, which the per-square
/// inputs alone learn slowly.
pub const ANYWHERE: usize = 2 * KINDS * COUNT_CAP;

/// The role a kind moves as (a pawn, promoted or not, is a pawn while
/// unpromoted; a promoted pawn moves as its piece).
#[must_use]
pub fn kind_role(kind: usize) -> Role {
    TowerPiece::role_of_kind(kind % KINDS)
}

nets::embedded_network!(Tavreli, include_bytes!("../../params/tavreli.nnue"));

impl Features for Tavreli {
    type Content = Tower;
    const EMPTY: Tower = Tower::EMPTY;
    const INPUTS: usize = TOPS + BENEATH + ANYWHERE;
    const MAGIC: &'static [u8; 8] = b"VOLKTV01";

    fn occupied(&self) -> Bitboard {
        self.owned(Color::White) | self.owned(Color::Black)
    }

    type Summary = ();

    fn summary(&self) {}

    fn changed((): &(), (): &()) -> Option<Bitboard> {
        None
    }

    fn content(&self, sq: Square) -> Tower {
        self.tower(sq)
    }

    fn inputs(tower: Tower, sq: Square, view: Color, push: &mut impl FnMut(usize)) {
        let Some(top) = tower.top() else {
            return;
        };
        let square = oriented(sq, view);
        let code = |p: TowerPiece| theirs(p.color(), view) * KINDS + usize::from(p.code() & 15);
        push(code(top) * 64 + square);
        // Bit `c` of `levels[l]`: more than `l` pieces of colour-kind `c`
        // lie beneath the top.
        let mut levels = [0u32; COUNT_CAP];
        for p in tower.iter().take(tower.len() - 1) {
            let bit = 1u32 << code(p);
            levels[1] |= levels[0] & bit;
            levels[0] |= bit;
        }
        for (level, &bits) in levels.iter().enumerate() {
            let mut bits = bits;
            while bits != 0 {
                let c = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                push(TOPS + (c * COUNT_CAP + level) * 64 + square);
                push(TOPS + BENEATH + c * COUNT_CAP + level);
            }
        }
    }

    fn hand_written(&self) -> i32 {
        super::hand_written(self)
    }

    fn mirror(input: usize) -> usize {
        if input < TOPS + BENEATH {
            input ^ 7
        } else {
            input
        }
    }

    fn input_piece(input: usize) -> Option<(bool, Role)> {
        if input >= TOPS {
            return None;
        }
        let (side, kind) = (input / 64 / KINDS, input / 64 % KINDS);
        Some((side == 0, kind_role(kind)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nets::testing::inputs_of;
    use movegen::Position;

    #[test]
    fn inputs_see_the_tower_and_the_pawns() {
        let d5 = Square::parse("d5").unwrap().index();
        let kind = |p: TowerPiece| usize::from(p.code() & 15);
        // A black rook on two white pawns (promoting to R and H) on d5.
        let pos = Tavreli::from_fen("4k3/8/8/3(P=RP=Hr)4/8/8/8/4K3 w - - 0 1").unwrap();
        let white = inputs_of(&pos, Color::White);
        let rook = KINDS + kind(TowerPiece::new(Color::Black, Role::Rook));
        assert!(white.contains(&(rook * 64 + d5)));
        let below = |c: usize, level: usize| TOPS + (c * 2 + level) * 64 + d5;
        let pawn_r = kind(TowerPiece::pawn(Color::White, Role::Rook));
        let pawn_h = kind(TowerPiece::pawn(Color::White, Role::Helgi));
        assert_ne!(pawn_r, pawn_h);
        assert!(white.contains(&below(pawn_r, 0)) && white.contains(&below(pawn_h, 0)));
        assert!(!white.contains(&below(pawn_r, 1)));
        let anywhere = |c: usize, level: usize| TOPS + BENEATH + c * 2 + level;
        assert!(white.contains(&anywhere(pawn_r, 0)) && !white.contains(&anywhere(pawn_r, 1)));
        assert_eq!(
            white.len(),
            1 + 2 * 2 + 2,
            "the rook, two pawns beneath (on d5 and anywhere), two kings"
        );
        // Two of a kind beneath switch on the second count.
        let two = Tavreli::from_fen("4k3/8/8/3(PPr)4/8/8/8/4K3 w - - 0 1").unwrap();
        let home = kind(TowerPiece::pawn(Color::White, Role::Queen));
        let white = inputs_of(&two, Color::White);
        assert!(white.contains(&below(home, 0)) && white.contains(&below(home, 1)));
        // A promoted pawn is not the piece it moves as.
        let promoted = Tavreli::from_fen("4k3/8/8/3Q~4/8/8/8/4K3 w - - 0 1").unwrap();
        let queen = Tavreli::from_fen("4k3/8/8/3Q4/8/8/8/4K3 w - - 0 1").unwrap();
        assert_ne!(
            inputs_of(&promoted, Color::White),
            inputs_of(&queen, Color::White)
        );
    }
}
