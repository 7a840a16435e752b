//! Standard chess: the chess family with no vests.

use crate::board::Board;
use crate::family::{Family, Layer, NoChoices, Order};
use crate::fen::FenError;
use crate::Variant;

/// Tavreli castles and keeps its state with the same helpers.
pub(crate) use crate::family::{clear_ep, pass_turn, set_castling, CASTLES, CASTLE_KEEP};

/// The chess layer: nothing on top of chess. Every hook keeps its default,
/// and being zero-sized it costs the generator nothing.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct NoVests;

impl Layer for NoVests {
    const VARIANT: Variant = Variant::Chess;
    const ORDER: Order = Order::CHESS;
    type Opts = NoChoices;
    const BARE: NoVests = NoVests;

    fn read_board(field: &str) -> Result<(Board, NoVests), FenError> {
        let board = Board::parse(field, None)?;
        board.validate(false)?;
        Ok((board, NoVests))
    }
}

/// A standard chess position.
///
/// ```
/// use movegen::{Chess, Position, perft};
/// let mut pos = Chess::startpos();
/// assert_eq!(perft(&mut pos, 3), 8902);
/// ```
pub type Chess = Family<NoVests>;

impl crate::Describe for Chess {
    fn tokens(&self, sq: crate::Square) -> Vec<crate::Token> {
        use crate::Position;
        self.piece_at(sq)
            .map(crate::describe::plain_token)
            .into_iter()
            .collect()
    }

    fn mover(&self, m: crate::Move) -> String {
        use crate::Position;
        crate::describe::capitalised(crate::describe::role_on(self.piece_at(m.from())).name())
    }

    fn mover_parts(&self, m: crate::Move) -> crate::MoverParts {
        use crate::Position;
        crate::describe::lone_mover(self.piece_at(m.from()), None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fen::{self, FenField};
    use crate::position::{perft, Position};
    use crate::test_util;

    fn fen_perft(fen: &str, depth: u32) -> u64 {
        perft(&mut Chess::from_fen(fen).unwrap(), depth)
    }

    #[test]
    fn shallow_standard_perfts() {
        assert_eq!(fen_perft(fen::STARTPOS, 3), 8902);
        let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
        assert_eq!(fen_perft(kiwipete, 2), 2039);
        assert_eq!(
            fen_perft("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 3),
            2812
        );
    }

    /// The search breaks ties between equal move scores by generation
    /// order, so `Bench:` depends on it. Chess's order: king steps, knights,
    /// bishops and queens (diagonally), rooks and queens (orthogonally),
    /// pawns (pushes, push promotions, double pushes, captures), en passant,
    /// castling. The list is the one the chess generator made before chess
    /// and plunder shared one.
    #[test]
    fn generation_order_is_pinned() {
        let fen = "r3k2r/1P1pqpb1/bn2pnp1/2pPN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq c6 0 2";
        assert_eq!(
            test_util::moves_in_order::<Chess>(fen),
            "e1d1 e1f1 c3b1 c3d1 c3a4 c3b5 e5g6 e5d7 e5f7 e5d3 e5c4 e5g4 e5c6 d2c1 d2e3 d2f4 \
             d2g5 d2h6 e2a6 e2d1 e2f1 e2d3 e2c4 e2b5 f3g4 f3h5 a1b1 a1c1 a1d1 h1f1 h1g1 f3h3 \
             f3f6 f3d3 f3e3 f3g3 f3f4 f3f5 a2a3 b2b3 g2g3 d5d6 b7b8q b7b8r b7b8b b7b8n a2a4 \
             g2g4 b7a8q b7a8r b7a8b b7a8n g2h3 d5e6 d5c6 e1g1 e1c1"
        );
    }

    #[test]
    fn ep_written_only_when_legal() {
        // After e2e4 no black pawn can take: no ep square in the FEN.
        let mut pos = Chess::startpos();
        let m = pos.parse_move("e2e4").unwrap();
        pos.make(m);
        assert_eq!(
            pos.fen(),
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
        );
        // A pinned capturer makes the ep square disappear too.
        let pinned = Chess::from_fen("8/8/8/K2pP2r/8/8/8/7k w - d6 0 1").unwrap();
        assert_eq!(pinned.ep_square(), None);
        let free = Chess::from_fen("8/8/8/3pP3/8/8/8/K6k w - d6 0 1").unwrap();
        assert_eq!(free.fen(), "8/8/8/3pP3/8/8/8/K6k w - d6 0 1");
    }

    #[test]
    fn fen_rejections_name_the_field() {
        let cases = [
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1",
                FenField::Board,
            ),
            (
                "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                FenField::Board,
            ),
            (
                "rnbqkbnr/ppppxppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                FenField::Board,
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQQBNR w KQkq - 0 1",
                FenField::Board,
            ),
            ("4k3/8/8/8/8/8/8/4K2P w - - 0 1", FenField::Board),
            ("4k3/8/8/8/8/8/8/P3K3 w - - 0 1", FenField::Board),
            ("4k3/4R3/8/8/8/8/8/4K3 w - - 0 1", FenField::Side),
            ("4k3/8/8/8/8/8/8/4K3 w - e6 0 1", FenField::EnPassant),
            ("4k3/8/8/4p3/8/8/8/4K3 w - e3 0 1", FenField::EnPassant),
            ("4k3/8/8/8/4p3/8/8/4K3 w - e6 0 1", FenField::EnPassant),
            ("4k3/8/8/4p3/8/8/8/4K3 w - e6 x 1", FenField::Halfmove),
        ];
        for (f, field) in cases {
            let err = Chess::from_fen(f).unwrap_err();
            assert_eq!(err.field, field, "{f}: {err}");
        }
    }

    #[test]
    fn contradicted_castling_rights_are_dropped() {
        let pos = Chess::from_fen("r3k3/8/8/8/8/8/8/4K2R w KQkq - 0 1").unwrap();
        assert_eq!(pos.fen(), "r3k3/8/8/8/8/8/8/4K2R w Kq - 0 1");
    }

    #[test]
    fn insufficient_material_cases() {
        for (f, expected) in [
            ("4k3/8/8/8/8/8/8/4K3 w - - 0 1", true),
            ("4k3/8/8/8/8/8/8/4KN2 w - - 0 1", true),
            ("4k3/8/8/8/8/8/8/4KB2 w - - 0 1", true),
            ("4kb2/8/8/8/8/8/8/2B1K3 w - - 0 1", true),
            ("4k1b1/8/8/8/8/8/8/2B1K3 w - - 0 1", false),
            ("4k3/8/8/8/8/8/8/3NKN2 w - - 0 1", false),
            ("4kn2/8/8/8/8/8/8/4KN2 w - - 0 1", false),
            ("4k3/8/8/8/8/8/8/4K2P w - - 0 1", false),
        ] {
            let f = if f.ends_with("K2P w - - 0 1") {
                "4k3/8/8/8/8/8/7P/4K3 w - - 0 1"
            } else {
                f
            };
            assert_eq!(
                Chess::from_fen(f).unwrap().insufficient_material(),
                expected,
                "{f}"
            );
        }
    }
}
