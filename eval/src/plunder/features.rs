//! PlunderChess's network inputs (`docs/networks.md`): chess's 768 piece
//! inputs, the same numbers, and the vest each piece wears; the embedded
//! `eval/params/plunder.nnue`.

use crate::nets::{self, differing, oriented, theirs, Features};
use crate::nnue::{colour_and_role, input_index, input_piece, piece_boards, piece_code};
use movegen::{Bitboard, Color, Plunder, Role, Square};

/// Piece inputs: own or enemy × six roles × 64 squares (as chess).
pub const PIECES: usize = crate::nnue::INPUTS;
/// Vest inputs: own or enemy × five vests (`P N B R Q`) × 64 squares,
/// the vest worn by the piece on that square.
pub const VESTS: usize = 640;

/// The vests by index.
const VEST_ROLES: [Role; 5] = [
    Role::Pawn,
    Role::Knight,
    Role::Bishop,
    Role::Rook,
    Role::Queen,
];

nets::embedded_network!(Plunder, include_bytes!("../../params/plunder.nnue"));

impl Features for Plunder {
    /// Chess's code plus `12 ×` (vest index + 1), 0 when empty.
    type Content = u8;
    const EMPTY: u8 = 0;
    const INPUTS: usize = PIECES + VESTS;
    const MAGIC: &'static [u8; 8] = b"VOLKPL01";

    fn occupied(&self) -> Bitboard {
        self.board().occupied()
    }

    /// The squares of each colour and role, then of each vest kind.
    type Summary = [u64; 17];

    fn summary(&self) -> [u64; 17] {
        let mut out = [0; 17];
        out[..12].copy_from_slice(&piece_boards(self.board()));
        for (i, vest) in VEST_ROLES.into_iter().enumerate() {
            out[12 + i] = self.vests(vest).0;
        }
        out
    }

    fn changed(a: &[u64; 17], b: &[u64; 17]) -> Option<Bitboard> {
        Some(differing(a, b))
    }

    fn content(&self, sq: Square) -> u8 {
        let vest = self.vest_at(sq).map_or(0, |v| v.index() + 1);
        match piece_code(self.board(), sq) {
            0 => 0,
            piece => piece + (12 * vest) as u8,
        }
    }

    fn inputs(content: u8, sq: Square, view: Color, push: &mut impl FnMut(usize)) {
        let Some((color, role)) = colour_and_role(content) else {
            return;
        };
        push(input_index(view, color, role, sq));
        if let Some(vest) = usize::from((content - 1) / 12).checked_sub(1) {
            push(PIECES + theirs(color, view) * 320 + vest * 64 + oriented(sq, view));
        }
    }

    fn hand_written(&self) -> i32 {
        super::hand_written(self)
    }

    fn input_piece(input: usize) -> Option<(bool, Role)> {
        input_piece(input)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nets::testing::inputs_of;
    use movegen::Position;

    #[test]
    fn inputs_see_the_vest() {
        let pos = Plunder::from_fen("k7/8/8/8/3N(B)4/8/8/7K w - - 0 1").unwrap();
        let d4 = Square::parse("d4").unwrap();
        let white = inputs_of(&pos, Color::White);
        // Own knight on d4 and its bishop vest (vest index 2).
        assert!(white.contains(&(64 + d4.index())));
        assert!(white.contains(&(PIECES + 2 * 64 + d4.index())));
        // From Black's view the same facts are the enemy's, on d5.
        let black = inputs_of(&pos, Color::Black);
        assert!(black.contains(&(PIECES + 320 + 2 * 64 + (d4.index() ^ 56))));
        let bare = Plunder::from_fen("k7/8/8/8/3N4/8/8/7K w - - 0 1").unwrap();
        assert_eq!(inputs_of(&bare, Color::White).len() + 1, white.len());
    }
}
