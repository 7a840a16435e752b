//! Chess's network: its feature set (768 piece-square inputs per view:
//! own or enemy × six roles × 64 squares, each side seeing the board from
//! its own first rank) and the embedded file, `eval/params/chess.nnue` or
//! the file `VOLKHV_EVALFILE` names at build time (`make EVALFILE=...`,
//! see `build.rs`). The network is a correction added to the hand-written
//! evaluation (`chess::evaluate_board`), trained by `volkhv-nnue` on the
//! difference between the search's scores in `volkhv datagen` self-play and
//! that evaluation (see `docs/tuning.md`); its type, file layout and
//! accumulators are every variant's ([`crate::nets`]). PlunderChess's
//! inputs begin with these 768, so its feature set reads them from here.

use crate::nets::{self, differing, oriented, theirs, Features};
use movegen::board::Board;
use movegen::{Bitboard, Chess, Color, Position, Role, Square};

/// Inputs per view: (ours or theirs) × six roles × 64 squares.
pub const INPUTS: usize = 768;
/// The file's first bytes, with the layout's version.
pub const MAGIC: &[u8; 8] = b"VOLKNN02";

/// The embedded network file (chosen by `build.rs`).
const EMBEDDED: &[u8] = include_bytes!(env!("VOLKHV_NET"));

// A network given with `EVALFILE=` is checked here, so a file of another
// layout stops the build rather than the first evaluation.
const _: () = assert!(
    nets::check_file(EMBEDDED, MAGIC, INPUTS).is_ok(),
    "the network file (EVALFILE) does not have this build's layout"
);

nets::embedded_network!(Chess, EMBEDDED);

/// The input of `piece` (`color`, `role`) on `sq` as seen by `view`: each
/// side sees the board from its own first rank, its own pieces first.
#[must_use]
#[inline]
pub fn input_index(view: Color, color: Color, role: Role, sq: Square) -> usize {
    theirs(color, view) * 384 + role.index() * 64 + oriented(sq, view)
}

/// The viewer's side and the role of one of the 768 piece inputs (`None`
/// beyond them).
#[must_use]
pub fn input_piece(input: usize) -> Option<(bool, Role)> {
    (input < INPUTS)
        .then(|| Role::from_index((input % 384 / 64) as u8).map(|r| (input < 384, r)))
        .flatten()
}

/// A square's content code: `1 + colour·6 + role`, 0 when empty.
#[must_use]
pub fn piece_code(board: &Board, sq: Square) -> u8 {
    board
        .piece_at(sq)
        .map_or(0, |p| 1 + (p.color.index() * 6 + p.role.index()) as u8)
}

/// The colour and role of a content code (PlunderChess adds multiples of
/// 12 for the vest, which this ignores); `None` when empty.
#[must_use]
pub fn colour_and_role(content: u8) -> Option<(Color, Role)> {
    let code = content.checked_sub(1)? % 12;
    let color = if code < 6 { Color::White } else { Color::Black };
    Some((color, Role::from_index(code % 6)?))
}

/// The squares of each colour and role, White's first: the summary whose
/// difference finds the squares that changed.
#[must_use]
pub fn piece_boards(board: &Board) -> [u64; 12] {
    let mut out = [0; 12];
    for color in Color::ALL {
        for role in Role::CHESS {
            out[color.index() * 6 + role.index()] = board.pieces(color, role).0;
        }
    }
    out
}

impl Features for Chess {
    /// [`piece_code`].
    type Content = u8;
    const EMPTY: u8 = 0;
    const INPUTS: usize = INPUTS;
    const MAGIC: &'static [u8; 8] = MAGIC;

    fn occupied(&self) -> Bitboard {
        self.board().occupied()
    }

    /// [`piece_boards`].
    type Summary = [u64; 12];

    fn summary(&self) -> [u64; 12] {
        piece_boards(self.board())
    }

    fn changed(a: &[u64; 12], b: &[u64; 12]) -> Option<Bitboard> {
        Some(differing(a, b))
    }

    fn content(&self, sq: Square) -> u8 {
        piece_code(self.board(), sq)
    }

    fn inputs(content: u8, sq: Square, view: Color, push: &mut impl FnMut(usize)) {
        if let Some((color, role)) = colour_and_role(content) {
            push(input_index(view, color, role, sq));
        }
    }

    fn hand_written(&self) -> i32 {
        crate::chess::evaluate_board(self.board(), self.turn())
    }

    fn input_piece(input: usize) -> Option<(bool, Role)> {
        input_piece(input)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nets::testing;
    use crate::nets::{Embedded, FileError, Network};

    #[test]
    fn the_embedded_network_reads() {
        let read = |b: &[u8]| Network::from_bytes(b, MAGIC, INPUTS);
        let file = include_bytes!("../params/chess.nnue");
        assert!(read(file).is_ok() && Chess::network().is_some());
        assert!(read(b"VOLKNN02\x80\0\0\0").is_err());
        assert!(read(b"nonsense").is_err());
        assert!(nets::check_file(file, MAGIC, INPUTS).is_ok());
        // An output weight out of range: refused at compile time and when read.
        let mut bad = file.to_vec();
        let width = Chess::network().expect("chess has a network").width();
        let at = MAGIC.len() + 4 + (INPUTS + 1) * width * 2;
        bad[at..at + 2].copy_from_slice(&200i16.to_le_bytes());
        assert_eq!(
            nets::check_file(&bad, MAGIC, INPUTS),
            Err(FileError::OutputWeight)
        );
        assert!(read(&bad).is_err());
    }

    #[test]
    fn updating_the_last_board_equals_building_from_empty() {
        // Positions along random games (parents, children and unrelated
        // boards in turn), each evaluated after the one before, with the
        // embedded network and with random weights.
        let positions = volkhv_tests::random_positions::<Chess>(5, 40, 120);
        assert!(positions.len() > 500);
        let embedded = Chess::network().expect("chess has a network");
        testing::incremental_equals_scratch(&positions, embedded);
        testing::random_incremental_equals_scratch(&positions, 6, 64);
    }

    #[test]
    fn colour_flip_negates_and_corrections_are_small() {
        let correction = |fen: &str| nets::correction(&Chess::from_fen(fen).unwrap());
        let start = correction("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        assert!(start.abs() < 40, "{start}");
        let pairs = [(
            "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
            "rnbqkb1r/pppp1ppp/5n2/4p3/4P3/2N5/PPPP1PPP/R1BQKBNR b KQkq - 2 3",
        )];
        for (a, b) in pairs {
            assert_eq!(correction(a), correction(b));
        }
        // A correction, not an evaluation: an extra queen is the
        // hand-written evaluation's to see.
        let up_a_queen = correction("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        assert!(up_a_queen.abs() < 200, "{up_a_queen}");
    }
}
