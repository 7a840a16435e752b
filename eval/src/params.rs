//! Every evaluation weight, one table per variant, each with its own single
//! material scale: the table types (which fields exist and what they mean)
//! are declared here, their numbers live in `eval/params/<variant>.txt`,
//! read at compile time (a malformed file is a compile error) and written
//! back by the tuner (`volkhv-tune`). See [`crate::weights`] for the
//! machinery and `docs/tuning.md` for the workflow.
//!
//! Chess weights are tapered `(middlegame, endgame)` pairs; PlunderChess
//! uses the same phase (its weights start with equal halves, so the blend
//! changes nothing until they are tuned apart); Tavreli's are flat (towers
//! keep every piece on the board, so material says nothing about the phase).
//! Tables are drawn from White's side with rank 8 on top, so they read like
//! a board; a piece of `color` on `sq` reads entry
//! [`crate::pst::table_index`]`(color, sq)`.

use crate::weights::weight_table;
#[cfg(test)]
use crate::weights::Reader;

weight_table! {
    /// The chess evaluation weights.
    pub struct ChessWeights("chess");
    /// Material by role (pawn knight bishop rook queen king).
    material: list tapered [6];
    /// Piece-square bonus by role and square, on top of material.
    pst: grid tapered [6 x 64: "pawn", "knight", "bishop", "rook", "queen", "king"];
    /// Bonus for the side to move.
    tempo: scalar tapered [];
    /// Bonus for owning both bishops.
    bishop_pair: scalar tapered [];
    /// Mobility of knight, bishop, rook, queen: per reachable square (not
    /// own-occupied, not attacked by enemy pawns) beyond mobility_base.
    mobility: list tapered [4];
    /// Typical reachable-square counts of knight, bishop, rook, queen.
    mobility_base: list fixed [4];
    /// Rook on a file without pawns.
    rook_open_file: scalar tapered [];
    /// Rook on a file without own pawns but with enemy ones.
    rook_semi_open_file: scalar tapered [];
    /// Per pawn with another own pawn ahead of it on its file.
    doubled_pawn: scalar tapered [];
    /// Pawn with no own pawn on the adjacent files.
    isolated_pawn: scalar tapered [];
    /// Passed pawn by relative rank (rank 1 first).
    passed_pawn: list tapered [8];
    /// Passed pawn on relative rank 4 or beyond whose stop square is empty,
    /// times (relative rank - 3).
    passed_free_path: scalar tapered [];
    /// Passed pawn on relative rank 4 or beyond: per square of (enemy king
    /// distance - own king distance) to its stop square, times (relative
    /// rank - 3).
    passed_king_proximity: scalar tapered [];
    /// Own pawn one rank and two ranks in front of the king, on its file
    /// and the adjacent ones, per pawn.
    pawn_shield: list tapered [2];
    /// Per file (the king's and the adjacent ones) without an own pawn.
    king_open_file: scalar tapered [];
    /// King-zone attack units per attacked zone square: knight, bishop,
    /// rook, queen.
    king_attack_weight: list fixed [4];
    /// Bonus by attack units (capped at 31) into the enemy king zone, with
    /// two attackers or more and a queen.
    king_danger: list tapered [32];
    /// Mop-up (one side up a rook's worth or more, the other without
    /// pawns), added after the phase blend: per step of the losing king's
    /// distance from the centre...
    mop_up_edge: scalar flat [];
    /// ...and per step the kings are closer than the maximum of 7.
    mop_up_kings: scalar flat [];
}

weight_table! {
    /// The PlunderChess evaluation weights.
    pub struct PlunderWeights("plunder");
    /// Material by role (pawn knight bishop rook queen king).
    material: list tapered [6];
    /// Piece-square bonus by role and square.
    pst: grid tapered [6 x 64: "pawn", "knight", "bishop", "rook", "queen", "king"];
    /// Added to the king's square bonus while the enemy has a queen.
    king_vs_queen: list tapered [64];
    /// Worth of a worn vest (pawn knight bishop rook queen) by wearer: a
    /// share of the movement it adds; zero where RULES.md 3.2 forbids it.
    vest: grid tapered [6 x 5: "pawn", "knight", "bishop", "rook", "queen", "king"];
    /// By role: per square the piece attacks (own pieces excluded), by its
    /// own movement (not pawns and kings) or its vest's.
    mobility: list tapered [6];
}

weight_table! {
    /// The Tavreli evaluation weights.
    pub struct TavreliWeights("tavreli");
    /// Material by role (pawn knight bishop rook queen king helgi) of the
    /// top of a tower and of the pieces a capture can win.
    material: list flat [7];
    /// Worth of an own piece under an own top, by role.
    own_below: list flat [7];
    /// Worth of a prisoner (enemy piece under an own top) to the top's
    /// owner, by the prisoner's role.
    prisoner: list flat [7];
    /// Worth of a buried piece (under an enemy top) to its own side, by role.
    buried: list flat [7];
    /// Per piece beneath the top of a tower, to the top's owner.
    stack_bonus: scalar flat [];
    /// Per square the top reaches (kings excluded), by tower height 1, 2,
    /// 3, 4 or more.
    mobility: list flat [4];
    /// Square bonus of the top by role and square.
    pst: grid flat [7 x 64: "pawn", "knight", "bishop", "rook", "queen", "king", "helgi"];
}

/// The chess weights in use.
pub const CHESS: ChessWeights = ChessWeights::parse(include_str!("../params/chess.txt"));
/// The PlunderChess weights in use.
pub const PLUNDER: PlunderWeights = PlunderWeights::parse(include_str!("../params/plunder.txt"));
/// The Tavreli weights in use.
pub const TAVRELI: TavreliWeights = TavreliWeights::parse(include_str!("../params/tavreli.txt"));

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pst::S;
    use crate::weights::{Kind, Table};

    /// The files are exactly what the tuner writes, so a tuned table drops
    /// in as a whole-file replacement and a hand edit that misplaces a
    /// number shows up here.
    fn canonical<T: Table + PartialEq>(table: &T, file: &str) {
        assert_eq!(
            table.to_text(),
            file,
            "{} file is not canonical",
            T::VARIANT
        );
        assert_eq!(&T::from_text(file).unwrap(), table);
        assert_eq!(T::names().len(), T::slots().len());
        assert_eq!(table.weights().len(), T::slots().len());
    }

    #[test]
    fn table_files_are_canonical() {
        canonical(&CHESS, include_str!("../params/chess.txt"));
        canonical(&PLUNDER, include_str!("../params/plunder.txt"));
        canonical(&TAVRELI, include_str!("../params/tavreli.txt"));
    }

    #[test]
    fn weights_round_trip_and_fixed_fields_stay() {
        let w: Vec<S> = CHESS.weights().iter().map(|&s| s + S(1, -1)).collect();
        let t = CHESS.with_weights(&w);
        let flat_as_written: Vec<S> = ChessWeights::slots()
            .iter()
            .zip(&w)
            .map(|(slot, &s)| {
                if slot.kind == Kind::Flat {
                    S(s.0, s.0)
                } else {
                    s
                }
            })
            .collect();
        assert_eq!(t.weights(), flat_as_written);
        let base = Reader::<_, S>::new(&t);
        assert_eq!(
            base.mobility_base(2),
            Reader::<_, S>::new(&CHESS).mobility_base(2)
        );
        assert_eq!(base.tempo(), Reader::<_, S>::new(&CHESS).tempo() + S(1, -1));
        // A flat weight takes the pair's first value.
        let w: Vec<S> = TAVRELI.weights().iter().map(|&s| s + S(3, 7)).collect();
        let t = TAVRELI.with_weights(&w);
        assert_eq!(
            Reader::<_, S>::new(&t).stack_bonus(),
            Reader::<_, S>::new(&TAVRELI).stack_bonus() + S(3, 3)
        );
    }

    #[test]
    fn names_and_kinds() {
        let names = ChessWeights::names();
        assert_eq!(names[0], "material[0]");
        assert_eq!(names[6 + 64 + 28], "pst.knight[28]");
        assert!(names.contains(&"tempo".to_string()));
        assert!(!names.iter().any(|n| n.starts_with("mobility_base")));
        let slots = ChessWeights::slots();
        assert!(slots.iter().all(|s| s.kind != Kind::Fixed));
        assert_eq!(slots.last().map(|s| s.kind), Some(Kind::Flat));
        assert_eq!(TavreliWeights::WEIGHTS, TavreliWeights::NUMBERS);
    }

    #[test]
    fn bad_files_are_errors() {
        let text = CHESS.to_text();
        let short = text.replacen("  1000 ", "  ", 1);
        assert!(ChessWeights::from_text(&short)
            .unwrap_err()
            .contains("numbers, the layout has"));
        let bad = text.replacen("  1000 ", "  10x0 ", 1);
        let e = ChessWeights::from_text(&bad).unwrap_err();
        assert!(e.starts_with("line 8: \"10x0\""), "{e}");
        let huge = text.replacen("  1000 ", "  99999999999 ", 1);
        assert!(ChessWeights::from_text(&huge).is_err());
    }
}
