//! One focused test per rule sentence of RULES.md §4 (quoted in each doc
//! comment), FEN errors, and property tests over seeded random games.

use super::*;
use crate::position::{perft, status, Outcome};
use crate::test_util::{self, move_strings as moves, sorted};

fn pos(fen: &str) -> Tavreli {
    test_util::pos(fen)
}

fn sq(s: &str) -> Square {
    Square::parse(s).unwrap()
}

/// The sorted legal move strings starting on `from`.
fn moves_from(fen: &str, from: &str) -> Vec<String> {
    test_util::moves_starting::<Tavreli>(fen, from)
}

/// Plays the move strings and returns the FEN.
fn play(fen: &str, line: &[&str]) -> String {
    test_util::play::<Tavreli>(fen, line)
}

/// "Worked count: from the start position there are 39 legal moves (16 pawn
/// moves; each knight 3 — e.g. `b1d2` onto its own pawn; each rook 2; each
/// bishop 2; the queen 4 — `d1c1 d1c2 d1d2 d1e2`; the king 5)."
#[test]
fn worked_count_from_the_start() {
    let start = fenfmt::STARTPOS;
    assert_eq!(moves(&pos(start)).len(), 39);
    assert_eq!(moves_from(start, "b1"), sorted(&["b1a3", "b1c3", "b1d2"]));
    assert_eq!(moves_from(start, "a1"), sorted(&["a1a2", "a1b1"]));
    assert_eq!(moves_from(start, "c1"), sorted(&["c1b2", "c1d2"]));
    assert_eq!(
        moves_from(start, "d1"),
        sorted(&["d1c1", "d1c2", "d1d2", "d1e2"])
    );
    assert_eq!(
        moves_from(start, "e1"),
        sorted(&["e1d1", "e1d2", "e1e2", "e1f1", "e1f2"])
    );
    assert_eq!(moves_from(start, "e2"), sorted(&["e2e3", "e2e4"]));
}

/// "helgi (`H`, moves as queen + knight)".
#[test]
fn helgi_moves_as_queen_and_knight() {
    let got = moves_from("4k3/8/8/8/3H4/8/8/4K3 w - - 0 1", "d4");
    let expected = sorted(&[
        // rank 4, file d
        "d4a4", "d4b4", "d4c4", "d4e4", "d4f4", "d4g4", "d4h4", "d4d1", "d4d2", "d4d3", "d4d5",
        "d4d6", "d4d7", "d4d8", // diagonals
        "d4c3", "d4b2", "d4a1", "d4e5", "d4f6", "d4g7", "d4h8", "d4c5", "d4b6", "d4a7", "d4e3",
        "d4f2", "d4g1", // knight leaps
        "d4b3", "d4b5", "d4c2", "d4c6", "d4e2", "d4e6", "d4f3", "d4f5",
    ]);
    assert_eq!(got, expected);
}

/// "A tower belongs to the colour of its **top** piece and moves as that
/// piece moves."
#[test]
fn tower_belongs_to_its_top() {
    let white = "4k3/8/8/3(Pr)4/8/8/8/4K3 w - - 0 1";
    assert_eq!(moves_from(white, "d5"), Vec::<String>::new());
    let black = "4k3/8/8/3(Pr)4/8/8/8/4K3 b - - 0 1";
    let mut expected = Vec::new();
    for to in [
        "d6", "d7", "d8", "d4", "d3", "d2", "d1", "a5", "b5", "c5", "e5", "f5", "g5", "h5",
    ] {
        expected.push(format!("d5{to}"));
        expected.push(format!("d5{to}:1"));
    }
    expected.sort();
    assert_eq!(moves_from(black, "d5"), expected);
}

/// "The side to move picks a tower it owns and a number k, 1 ≤ k ≤ height,
/// and moves the **top k pieces** as one group (their order unchanged)."
#[test]
fn top_k_pieces_move_as_a_group() {
    let fen = "7k/8/8/8/3(NBR)4/8/8/7K w - - 0 1";
    let from_d4 = moves_from(fen, "d4");
    assert_eq!(from_d4.len(), 14 * 3);
    assert!(["d4d8", "d4d8:1", "d4d8:2"]
        .iter()
        .all(|m| from_d4.contains(&m.to_string())));
    assert_eq!(play(fen, &["d4d8:2"]), "3(BR)3k/8/8/8/3N4/8/8/7K b - - 1 1");
    assert_eq!(play(fen, &["d4d8:1"]), "3R3k/8/8/8/3(NB)4/8/8/7K b - - 1 1");
    assert_eq!(play(fen, &["d4d8"]), "3(NBR)3k/8/8/8/8/8/8/7K b - - 1 1");
}

/// "If the destination holds a tower, the group is placed on top of it: on
/// an enemy tower this is a **capture** (the pieces under the group are
/// prisoners)".
#[test]
fn landing_on_an_enemy_tower_captures() {
    let fen = "4k3/8/8/3(Pr)4/8/8/3R4/4K3 w - - 5 1";
    let p = pos(fen);
    let m = p.parse_move("d2d5").unwrap();
    assert!(m.is_capture());
    assert_eq!(play(fen, &["d2d5"]), "4k3/8/8/3(PrR)4/8/8/8/4K3 b - - 0 1");
}

/// "on an own tower it reinforces it."
#[test]
fn landing_on_an_own_tower_reinforces() {
    let p = Tavreli::startpos();
    assert!(!p.parse_move("b1d2").unwrap().is_capture());
    assert_eq!(
        play(fenfmt::STARTPOS, &["b1d2"]),
        "rnbqkbnr/pppppppp/8/8/8/8/PPP(PN)PPPP/R1BQKBNR b KQkq - 1 1"
    );
}

/// "The bottom part (height − k pieces) stays; its new top — of either
/// colour — is active at once (it attacks, it can give check, it can
/// promote, 4.3)." Here: an own freed rook gives check, an enemy freed pawn
/// promotes.
#[test]
fn freed_bottom_is_active_at_once() {
    let fen = "4k3/8/8/8/8/8/4(RN)3/K7 w - - 0 1";
    let mut p = pos(fen);
    p.make(p.parse_move("e2c3:1").unwrap());
    assert_eq!(p.fen(), "4k3/8/8/8/8/2N5/4R3/K7 b - - 1 1");
    assert!(p.is_check());
    // Black lifts its knight off a white b-pawn on b8: the pawn promotes.
    assert_eq!(
        play("1(Pn)2k3/8/8/8/8/8/8/4K3 b - - 0 1", &["b8c6:1"]),
        "1N~2k3/8/2n5/8/8/8/8/4K3 w - - 1 2"
    );
}

/// "No piece is ever placed on a tower whose top is a king (of either
/// colour)."
#[test]
fn nothing_lands_on_a_king() {
    let fen = "4k3/8/8/8/8/2N5/4K3/R3P3 w - - 0 1";
    assert_eq!(
        moves_from(fen, "c3"),
        sorted(&["c3a2", "c3a4", "c3b1", "c3b5", "c3d1", "c3d5", "c3e4"])
    );
    assert_eq!(moves_from(fen, "e1"), Vec::<String>::new());
    let rook = moves_from(fen, "a1");
    assert!(rook.contains(&"a1e1".to_string()) && rook.len() == 11);
}

/// "King: one step in any direction …  It may step onto an own or enemy
/// tower (not a king) like any piece, never onto an attacked square."
#[test]
fn king_steps_onto_towers_but_not_attacked_squares() {
    let fen = "4k3/8/8/8/8/6n1/3(Nb)1(pR)2/4K3 w - - 0 1";
    assert_eq!(moves_from(fen, "e1"), sorted(&["e1d1", "e1d2", "e1f2"]));
    assert_eq!(
        play(fen, &["e1d2"]),
        "4k3/8/8/8/8/6n1/3(NbK)1(pR)2/8 b - - 0 1"
    );
}

/// "Queen, rook, bishop …: slide along their lines; they cannot pass any
/// occupied square; the slide may stop on any empty square, or on the first
/// occupied square if placing the group there is allowed".
#[test]
fn slides_stop_at_the_first_occupied_square() {
    let fen = "4k3/8/8/8/8/8/1p1R2P1/4K3 w - - 0 1";
    assert_eq!(
        moves_from(fen, "d2"),
        sorted(&[
            "d2b2", "d2c2", "d2e2", "d2f2", "d2g2", "d2d1", "d2d3", "d2d4", "d2d5", "d2d6", "d2d7",
            "d2d8"
        ])
    );
}

/// "Knight (and the helgi's leaps): leap; pieces between do not matter."
#[test]
fn knights_leap() {
    let fen = "4k3/8/8/8/8/2PPP3/2PNP3/4K3 w - - 0 1";
    assert_eq!(
        moves_from(fen, "d2"),
        sorted(&["d2b1", "d2b3", "d2c4", "d2e4", "d2f1", "d2f3"])
    );
}

/// "one step forward onto an empty square or onto an own tower (not a
/// king); never onto an enemy tower straight ahead" and "double step …: the
/// skipped square must be empty, the destination empty or an own tower".
#[test]
fn pawn_forward_steps() {
    let fen = "4k3/8/8/8/3p2Bp/3P1N2/5PPP/4K3 w - - 0 1";
    assert_eq!(moves_from(fen, "d3"), Vec::<String>::new());
    assert_eq!(moves_from(fen, "f2"), sorted(&["f2f3"]));
    assert_eq!(moves_from(fen, "g2"), sorted(&["g2g3", "g2g4"]));
    assert_eq!(moves_from(fen, "h2"), sorted(&["h2h3"]));
    assert_eq!(
        play(fen, &["g2g4"]),
        "4k3/8/8/8/3p2(BP)p/3P1N2/5P1P/4K3 b - - 0 1"
    );
}

/// "*Decision* (state-free rule): a pawn may double step when it stands on
/// its own 2nd rank on a file whose home piece is its promotion piece".
#[test]
fn double_step_by_the_home_file_rule() {
    let fen = "4k3/p=q7/8/8/8/8/P=NP4P=B1/4K3 w - - 0 1";
    assert_eq!(moves_from(fen, "a2"), sorted(&["a2a3"]));
    assert_eq!(moves_from(fen, "b2"), sorted(&["b2b3", "b2b4"]));
    assert_eq!(moves_from(fen, "g2"), sorted(&["g2g3"]));
    let black = "4k3/p=qp6/8/8/8/8/8/4K3 b - - 0 1";
    assert_eq!(moves_from(black, "a7"), sorted(&["a7a6"]));
    assert_eq!(moves_from(black, "b7"), sorted(&["b7b5", "b7b6"]));
}

/// "one step diagonally forward onto an enemy tower (not a king) — a
/// capture".
#[test]
fn pawn_captures_diagonally_onto_enemy_towers() {
    let fen = "4k3/8/8/8/8/2r1(Rn)3/3P4/4K3 w - - 0 1";
    assert_eq!(
        moves_from(fen, "d2"),
        sorted(&["d2c3", "d2d3", "d2d4", "d2e3"])
    );
    assert_eq!(
        play(fen, &["d2e3"]),
        "4k3/8/8/8/8/2r1(RnP=Q)3/8/4K3 b - - 0 1"
    );
}

/// "Whenever a move ends with a pawn on top of a tower on that pawn's last
/// rank, the pawn is promoted to its promotion piece at once … This holds
/// for the moved group's top and for the top of the bottom part left behind,
/// of either colour."
#[test]
fn promotion_of_moved_and_freed_tops() {
    let fen = "4k3/2(rP)5/8/8/8/8/8/4K3 w - - 0 1";
    assert_eq!(play(fen, &["c7c8"]), "2(rB~)1k3/8/8/8/8/8/8/4K3 b - - 0 1");
    assert_eq!(play(fen, &["c7c8:1"]), "2B~1k3/2r5/8/8/8/8/8/4K3 b - - 0 1");
    // An own pawn freed on its last rank.
    assert_eq!(
        play("(PQ)7/8/7k/8/8/8/8/4K3 w - - 0 1", &["a8a7:1"]),
        "R~7/Q7/7k/8/8/8/8/4K3 b - - 1 1"
    );
    // Promotion is automatic: no suffix exists.
    assert!(pos(fen).parse_move("c7c8q").is_err());
}

/// "When any piece (own or enemy) is placed on a promoted pawn, it turns
/// back into a pawn with the same promotion piece. … It promotes again only
/// by once more being a tower's top on its last rank after a move."
#[test]
fn demotion_when_covered_and_promotion_again() {
    assert_eq!(
        play("r3k3/8/8/8/8/8/8/Q~3K3 b - - 0 1", &["a8a1"]),
        "4k3/8/8/8/8/8/8/(P=Qr)3K3 w - - 0 2"
    );
    assert_eq!(
        play("3(Pr)4/7k/8/8/8/8/8/4K3 b - - 0 1", &["d8a8:1"]),
        "r2Q~4/7k/8/8/8/8/8/4K3 w - - 1 2"
    );
}

/// "A double step that ends on an **empty** square makes the skipped square
/// the en-passant square for one move. (*Decision*: a double step that ends
/// on an own tower creates no en-passant square.)"
#[test]
fn en_passant_square_only_after_landing_on_empty() {
    assert_eq!(
        play("k7/3p4/8/4P3/8/8/8/4K3 b - - 0 1", &["d7d5"]),
        "k7/8/8/3pP3/8/8/8/4K3 w - d6 0 2"
    );
    assert_eq!(
        play("k7/3p4/8/3nP3/8/8/8/4K3 b - - 0 1", &["d7d5"]),
        "k7/8/8/3(np)P3/8/8/8/4K3 w - - 0 2"
    );
    // For one move only.
    assert_eq!(
        play(
            "k7/3p4/8/4P3/8/8/8/4K3 b - - 0 1",
            &["d7d5", "e1e2", "a8b8"]
        ),
        "1k6/8/8/3pP3/8/8/4K3/8 w - - 2 3"
    );
}

/// "An enemy group topped by a pawn, standing beside the double-step
/// destination on the same rank, may move diagonally forward onto the
/// en-passant square. The whole tower at the double-step destination is
/// moved to the en-passant square, and the capturing group is placed on top
/// of it. Any k (4.1) may capture this way."
#[test]
fn en_passant_carries_the_whole_tower() {
    let fen = play("k7/3(Np)4/8/4(RP)3/8/8/8/4K3 b - - 0 1", &["d7d5"]);
    assert_eq!(fen, "k7/8/8/3(Np)(RP)3/8/8/8/4K3 w - d6 0 2");
    assert_eq!(
        moves_from(&fen, "e5"),
        sorted(&["e5d6", "e5d6:1", "e5e6", "e5e6:1"])
    );
    let m = pos(&fen).parse_move("e5d6:1").unwrap();
    assert_eq!((m.kind(), m.is_capture()), (MoveKind::EnPassant, true));
    assert_eq!(
        play(&fen, &["e5d6:1"]),
        "k7/8/3(NpP=H)4/4R3/8/8/8/4K3 b - - 0 2"
    );
    assert_eq!(
        play(&fen, &["e5d6"]),
        "k7/8/3(NpRP=H)4/8/8/8/8/4K3 b - - 0 2"
    );
}

/// "A promoted pawn (`Q~` …) is not a pawn here, nor for en passant (4.4):
/// it moves as its promotion piece."
#[test]
fn promoted_pawn_is_not_a_pawn() {
    // No en-passant square: the only piece beside d5 is a promoted pawn.
    let fen = play("k7/3p4/8/4Q~3/8/8/8/4K3 b - - 0 1", &["d7d5"]);
    assert_eq!(fen, "k7/8/8/3pQ~3/8/8/8/4K3 w - - 0 2");
    // e5d6 is an ordinary queen move that leaves d5 alone.
    assert_eq!(play(&fen, &["e5d6"]), "k7/8/3Q~4/3p4/8/8/8/4K3 b - - 1 2");
    // And its moves do not reset the fifty-move counter.
    assert_eq!(
        play("6k1/8/8/8/8/8/8/Q~3K3 w - - 7 1", &["a1a2"]),
        "6k1/8/8/8/8/8/Q~7/4K3 b - - 8 1"
    );
}

/// "Castling as in chess: king and rook on their starting squares, each
/// alone on its square and never moved; the squares between empty; the king
/// not in check and not passing or landing on an attacked square."
#[test]
fn castling_conditions() {
    let fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
    assert_eq!(
        moves_from(fen, "e1"),
        sorted(&["e1c1", "e1d1", "e1d2", "e1e2", "e1f1", "e1f2", "e1g1"])
    );
    assert_eq!(play(fen, &["e1g1"]), "r3k2r/8/8/8/8/8/8/R4RK1 b kq - 1 1");
    // A bishop on a6 sees e2 and f1: no king-side castling.
    assert_eq!(
        moves_from("r3k2r/8/b7/8/8/8/8/R3K2R w KQkq - 0 1", "e1"),
        sorted(&["e1c1", "e1d1", "e1d2", "e1f2"])
    );
    // A rook under a pawn is not alone: the right is dropped on reading.
    assert_eq!(
        pos("r3k2r/8/8/8/8/8/8/R3K2(PR) w KQkq - 0 1").fen(),
        "r3k2r/8/8/8/8/8/8/R3K2(PR) w Qkq - 0 1"
    );
    // In check: no castling.
    let checked = moves_from("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1");
    assert!(checked.contains(&"e1g1".to_string()));
    assert!(!moves_from("r3k2r/8/8/8/4r3/8/8/R3K2R w KQq - 0 1", "e1")
        .iter()
        .any(|m| m == "e1g1" || m == "e1c1"));
}

/// "Rights are lost, as in chess, when the king moves, or when a piece
/// moves from or onto the rook's starting square."
#[test]
fn castling_rights_lost() {
    let fen = "r3k2r/8/8/8/8/6N1/8/R3K2R w KQkq - 0 1";
    assert_eq!(
        play(fen, &["g3h1"]),
        "r3k2r/8/8/8/8/8/8/R3K2(RN) b Qkq - 1 1"
    );
    assert_eq!(
        play("r3k2r/8/8/8/8/8/6b1/R3K2R b KQkq - 0 1", &["g2h1"]),
        "r3k2r/8/8/8/8/8/8/R3K2(Rb) w Qkq - 0 2"
    );
    assert_eq!(play(fen, &["e1e2"]), "r3k2r/8/8/8/8/6N1/4K3/R6R b kq - 1 1");
    assert_eq!(
        play(fen, &["a1a2"]),
        "r3k2r/8/8/8/8/6N1/R7/4K2R b Kkq - 1 1"
    );
}

/// "A square is attacked by a side if a tower it owns could move its top
/// piece there, ignoring the rule that nothing may be placed on a king
/// (pawns attack only diagonally forward)."
#[test]
fn attack_definition() {
    let p = pos("4k3/8/8/8/8/3p4/8/r3K3 w - - 0 1");
    assert!(p.is_check());
    assert!(p.is_attacked(sq("e2"), Color::Black));
    assert!(p.is_attacked(sq("c2"), Color::Black));
    assert!(!p.is_attacked(sq("d2"), Color::Black));
    // The white king may not step next to the black king, nor take a piece
    // the black king guards.
    let q = pos("8/8/8/8/8/4k3/4n3/4K3 w - - 0 1");
    assert_eq!(moves(&q), sorted(&["e1f1", "e1d1"]));
}

/// "A move is illegal if afterwards the mover's king is attacked — also by
/// an enemy piece freed by that move."
#[test]
fn freed_enemy_piece_makes_moves_illegal() {
    let fen = "4k3/8/8/8/8/8/4(rN)3/4K3 w - - 0 1";
    assert_eq!(
        moves(&pos(fen)),
        sorted(&[
            "e2c1", "e2c3", "e2d4", "e2f4", "e2g1", "e2g3", "e1d1", "e1d2", "e1e2", "e1f1", "e1f2"
        ])
    );
    // Lifting the black rook off a white queen pawn on d8 frees it there: it
    // promotes and would check the black king, so only whole-tower moves.
    let from_d8 = moves_from("3(Pr)k3/8/8/8/8/8/8/4K3 b - - 0 1", "d8");
    let mut expected: Vec<String> = ["a8", "b8", "c8", "d7", "d6", "d5", "d4", "d3", "d2", "d1"]
        .iter()
        .map(|to| format!("d8{to}"))
        .collect();
    expected.sort();
    assert_eq!(from_d8, expected);
}

/// "The fifty-move counter resets on a capture (a group placed on an enemy
/// tower, or en passant) and on any move of a group topped by a pawn."
#[test]
fn fifty_move_counter() {
    let fen = "4k3/8/8/3(Pr)4/8/8/3R3P/4K3 w - - 40 30";
    assert_eq!(
        play(fen, &["d2d5"]),
        "4k3/8/8/3(PrR)4/8/8/7P/4K3 b - - 0 30"
    );
    assert_eq!(
        play(fen, &["h2h3"]),
        "4k3/8/8/3(Pr)4/8/7P/3R4/4K3 b - - 0 30"
    );
    assert_eq!(
        play(fen, &["d2d4"]),
        "4k3/8/8/3(Pr)4/3R4/8/7P/4K3 b - - 41 30"
    );
    // A group topped by a pawn resets it even when it carries other pieces.
    assert_eq!(
        play("4k3/8/8/8/8/8/4(RP)3/4K3 w - - 9 1", &["e2e3"]),
        "4k3/8/8/8/8/4(RP)3/8/4K3 b - - 0 1"
    );
    let drawn = pos("4k3/8/8/8/8/8/8/4K3 w - - 100 80");
    assert_eq!(status(&drawn, &[]), Some(Outcome::FiftyMoves));
}

/// "`tavreli` has no insufficient-material rule (nothing ever leaves the
/// board)."
#[test]
fn no_insufficient_material() {
    let p = pos("4k3/8/8/8/8/8/8/4K3 w - - 0 1");
    assert!(!p.insufficient_material());
    assert_eq!(status(&p, &[]), None);
}

/// Checkmate and stalemate with towers: a king boxed in by a tower it may
/// not take because the tower's rook is guarded.
#[test]
fn mate_and_stalemate() {
    let mate = pos("k7/1Q6/2K5/8/8/8/8/8 b - - 0 1");
    assert_eq!(
        status(&mate, &[]),
        Some(Outcome::Checkmate {
            winner: Color::White
        })
    );
    let stale = pos("k7/8/1Q6/8/8/8/8/7K b - - 0 1");
    assert_eq!(status(&stale, &[]), Some(Outcome::Stalemate));
}

/// "FEN readers also reject: a king not on top of its tower, a promoted pawn
/// that is not a tower's top, an unpromoted pawn on top of a tower on its
/// last rank, towers over 32, `()`, `K~`, `P~`." plus §1's rejections and
/// §4.6's token syntax; each error names the field and quotes the token.
#[test]
fn fen_errors_name_the_token() {
    let tall = format!("4k3/8/8/3({}K)4/8/8/8/8 w - - 0 1", "P".repeat(32));
    let cases: Vec<(String, FenField, &str)> = vec![
        (
            "4k3/8/8/3(Kp)4/8/8/8/4K3 w - - 0 1".into(),
            FenField::Board,
            "(Kp)",
        ),
        (
            "4k3/8/8/3(Q~p)4/8/8/8/4K3 w - - 0 1".into(),
            FenField::Board,
            "(Q~p)",
        ),
        (
            "1P2k3/8/8/8/8/8/8/4K3 w - - 0 1".into(),
            FenField::Board,
            "\"P\" on b8",
        ),
        (
            "1(rP)2k3/8/8/8/8/8/8/4K3 w - - 0 1".into(),
            FenField::Board,
            "(rP)",
        ),
        (tall, FenField::Board, "more than 32"),
        (
            "4k3/8/8/3()4/8/8/8/4K3 w - - 0 1".into(),
            FenField::Board,
            "()",
        ),
        (
            "4k3/8/8/3K~4/8/8/8/4K3 w - - 0 1".into(),
            FenField::Board,
            "K~",
        ),
        (
            "4k3/8/8/3P~4/8/8/8/4K3 w - - 0 1".into(),
            FenField::Board,
            "P~",
        ),
        (
            "4k3/8/8/3P=K4/8/8/8/4K3 w - - 0 1".into(),
            FenField::Board,
            "P=K",
        ),
        (
            "4k3/8/8/3P=P4/8/8/8/4K3 w - - 0 1".into(),
            FenField::Board,
            "P=P",
        ),
        (
            "4k3/8/8/3R=Q4/8/8/8/4K3 w - - 0 1".into(),
            FenField::Board,
            "R=Q",
        ),
        (
            "4k3/8/8/3(PQ4/8/8/8/4K3 w - - 0 1".into(),
            FenField::Board,
            "unbalanced",
        ),
        (
            "4k3/8/8/3PQ)4/8/8/8/4K3 w - - 0 1".into(),
            FenField::Board,
            "unbalanced",
        ),
        (
            "4k3/8/8/3((PQ))4/8/8/8/4K3 w - - 0 1".into(),
            FenField::Board,
            "unbalanced",
        ),
        (
            "4k3/8/8/3X4/8/8/8/4K3 w - - 0 1".into(),
            FenField::Board,
            "\"X\"",
        ),
        (
            "4k3/8/8/9/8/8/8/4K3 w - - 0 1".into(),
            FenField::Board,
            "\"9\"",
        ),
        (
            "4k3/8/8/3Q5/8/8/8/4K3 w - - 0 1".into(),
            FenField::Board,
            "more than 8",
        ),
        (
            "4k3/8/8/3Q3/8/8/8/4K3 w - - 0 1".into(),
            FenField::Board,
            "7 squares",
        ),
        (
            "4k3/8/8/8/8/8/4K3 w - - 0 1".into(),
            FenField::Board,
            "8 ranks",
        ),
        (
            "4k3/8/8/8/8/8/8/4Q3 w - - 0 1".into(),
            FenField::Board,
            "white king",
        ),
        (
            "4k3/8/8/8/8/8/8/(KK)7 w - - 0 1".into(),
            FenField::Board,
            "(KK)",
        ),
        (
            "4k3/8/8/8/8/8/8/3KK3 w - - 0 1".into(),
            FenField::Board,
            "found 2",
        ),
        (
            "4k3/4R3/8/8/8/8/8/4K3 w - - 0 1".into(),
            FenField::Side,
            "in check",
        ),
        (
            "4k3/8/8/8/8/8/8/4K3 w - e6 0 1".into(),
            FenField::EnPassant,
            "e6",
        ),
        (
            "4k3/8/8/4p3/8/8/8/4K3 w - e3 0 1".into(),
            FenField::EnPassant,
            "e3",
        ),
        (
            "4k3/8/8/4q~3/8/8/8/K7 w - e6 0 1".into(),
            FenField::EnPassant,
            "e6",
        ),
        (
            "4k3/8/8/4p=r3/8/8/8/4K3 w - e6 0 1".into(),
            FenField::EnPassant,
            "e6",
        ),
        (
            "4k3/8/8/8/8/8/8/4K3 w - - 0 1 7".into(),
            FenField::Fields,
            "7",
        ),
    ];
    for (fen, field, token) in cases {
        match Tavreli::from_fen(&fen) {
            Ok(p) => panic!("accepted {fen} as {}", p.fen()),
            Err(e) => {
                assert_eq!(e.field, field, "{fen}: {e}");
                assert!(e.to_string().contains(token), "{fen}: {e} lacks {token}");
            }
        }
    }
    // Too many pieces in all: no position with more than 32 arises.
    let crowded = format!(
        "4k3/8/({})7/8/8/({})7/8/4K3 w - - 0 1",
        "P".repeat(16),
        "p".repeat(16)
    );
    assert!(Tavreli::from_fen(&crowded).is_err());
}

/// "Without `=X` the promotion piece is the home piece of the file of the
/// square the tower stands on. Writers emit `=X` only when it differs from
/// that default"; "X ∈ R N B Q H, either case on input, the pawn's case on
/// output"; "parentheses are allowed around a single piece too";
/// "Writers write a single piece without parentheses."
#[test]
fn fen_tokens_round_trip() {
    let cases = [
        (
            "4k3/8/8/8/8/8/P=R7/4K3 w - - 0 1",
            "4k3/8/8/8/8/8/P7/4K3 w - - 0 1",
        ),
        (
            "4k3/8/8/8/8/8/P=n7/4K3 w - - 0 1",
            "4k3/8/8/8/8/8/P=N7/4K3 w - - 0 1",
        ),
        (
            "4k3/p=Q7/8/8/8/8/8/4K3 w - - 0 1",
            "4k3/p=q7/8/8/8/8/8/4K3 w - - 0 1",
        ),
        (
            "4k3/8/8/(P)7/8/8/8/4K3 w - - 0 1",
            "4k3/8/8/P7/8/8/8/4K3 w - - 0 1",
        ),
        (
            "4k3/8/8/(P=H)7/8/8/8/4K3 w - -",
            "4k3/8/8/P=H7/8/8/8/4K3 w - - 0 1",
        ),
        (
            "4k3/8/8/3(P=Np)4/8/8/8/4K3 b - -",
            "4k3/8/8/3(P=Np)4/8/8/8/4K3 b - - 0 1",
        ),
        (
            "4k3/8/8/3(PQ~)4/8/8/8/4K3 w - - 3 9",
            "4k3/8/8/3(PQ~)4/8/8/8/4K3 w - - 3 9",
        ),
        (
            "4k3/8/8/3h~4/8/8/8/4K3 w - - 0 1",
            "4k3/8/8/3h~4/8/8/8/4K3 w - - 0 1",
        ),
    ];
    for (input, output) in cases {
        assert_eq!(pos(input).fen(), output, "{input}");
        assert_eq!(pos(output).fen(), output);
    }
    // The d5 tower: a white queen pawn under a black rook, owned by black.
    let p = pos("4k3/8/8/3(Pr)4/8/8/8/4K3 w - - 0 1");
    let t = p.tower(sq("d5"));
    assert_eq!(t.get(0), Some(TowerPiece::pawn(Color::White, Role::Queen)));
    assert_eq!(t.top(), Some(TowerPiece::new(Color::Black, Role::Rook)));
    assert_eq!(
        p.piece_at(sq("d5")),
        Some(Piece::new(Color::Black, Role::Rook))
    );
}

/// "`<from><to>` moves the **whole** tower; `<from><to>:<k>` moves the top k
/// pieces (1 ≤ k < height) … `:<height>` is not written (it is the same move
/// as no suffix) but readers accept it."
#[test]
fn move_strings() {
    let p = pos("7k/8/8/8/3(NBR)4/8/8/7K w - - 0 1");
    let whole = p.parse_move("d4d8").unwrap();
    assert_eq!(whole.split(), 0);
    assert_eq!(p.parse_move("d4d8:3"), Ok(whole));
    assert_eq!(p.parse_move("d4d8:2").unwrap().to_string(), "d4d8:2");
    for bad in ["d4d8:0", "d4d8:4", "d4d8:99", "d4e5"] {
        assert_eq!(
            p.parse_move(bad),
            Err(MoveError::Illegal(bad.into())),
            "{bad}"
        );
    }
    for bad in [
        "d4d8:", "d4d8:x", "d4d8q", "d4d8:123", "d4", "z4d8", "d4d8:1:1", "d4d8é",
    ] {
        assert_eq!(
            p.parse_move(bad),
            Err(MoveError::Syntax(bad.into())),
            "{bad}"
        );
    }
}

/// The start position's perft to depth 3 matches the suite.
#[test]
fn start_perft() {
    let mut p = Tavreli::startpos();
    assert_eq!(perft(&mut p, 1), 39);
    assert_eq!(perft(&mut p, 2), 1519);
    assert_eq!(perft(&mut p, 3), 68299);
}

/// `MAX_MOVES` suffices: a helgi on top of a 30-piece tower in the open has
/// 35 destinations × 30 splits, plus the white king's three steps — 1053
/// moves, within the bound 1085 ≤ 1152 of the module docs.
#[test]
fn move_list_capacity_worst_case() {
    let fen = format!("K7/8/8/8/3({}H)4/8/7k/8 w - - 0 1", "P".repeat(29));
    let p = pos(&fen);
    assert_eq!(p.tower(sq("d4")).len(), 30);
    let list = moves(&p);
    assert_eq!(list.len(), 35 * 30 + 3);
    assert!(list.len() <= crate::moves::MAX_MOVES);
    assert_eq!(list.iter().filter(|m| m.starts_with("d4")).count(), 35 * 30);
}

/// Every move the pseudo-legal generator knows (no king-safety filter).
fn pseudo_legal(p: &Tavreli) -> Vec<Move> {
    let mut v = Vec::new();
    for from in p.owned(p.turn) {
        let t = p.tower(from);
        let top = t.top().unwrap();
        let (normal, double) = p.targets(from, top);
        for (targets, kind) in [(normal, MoveKind::Normal), (double, MoveKind::DoublePush)] {
            for to in targets {
                for k in 1..=t.len() {
                    let mut m = Move::new(from, to, kind);
                    if p.owned(p.turn.flip()).contains(to) {
                        m = m.with_capture();
                    }
                    v.push(if k == t.len() {
                        m
                    } else {
                        m.with_split(k as u8)
                    });
                }
            }
        }
    }
    v
}

/// Over thousands of positions of seeded random games that build towers:
/// FEN round trips, the incremental key equals the key from scratch, unmake
/// restores the position exactly, and the legality shortcut (new tops
/// only) accepts exactly the pseudo-legal moves after which a full `make`
/// leaves the own king unattacked.
#[test]
fn random_games_keep_invariants() {
    let mut rng = crate::SplitMix::new(0x007A_7E11);
    let mut positions = 0;
    let mut tallest = 0;
    for _game in 0..40 {
        let mut p = Tavreli::startpos();
        for _ply in 0..120 {
            positions += 1;
            let fen = p.fen();
            let again = pos(&fen);
            assert_eq!(again, p, "{fen}");
            assert_eq!(p.key(), p.key_from_scratch(), "{fen}");
            let mut list = MoveList::new();
            p.legal_moves(&mut list);
            if list.is_empty() {
                break;
            }
            let legal: Vec<Move> = list.to_vec();
            for m in pseudo_legal(&p) {
                if matches!(m.kind(), MoveKind::Normal | MoveKind::DoublePush) {
                    let before = p.clone();
                    let undo = p.make(m);
                    let safe = !p.is_attacked(p.tops.king(before.turn), p.turn);
                    assert_eq!(p.key(), p.key_from_scratch(), "{fen} {m}");
                    p.unmake(m, undo);
                    assert_eq!(p, before, "{fen} {m}");
                    assert_eq!(safe, legal.contains(&m), "{fen} {m}");
                }
            }
            for &m in &legal {
                let before = p.clone();
                let undo = p.make(m);
                assert_eq!(p.key(), p.key_from_scratch(), "{fen} {m}");
                p.unmake(m, undo);
                assert_eq!(p, before, "{fen} {m}");
            }
            // Favour moves onto towers so that tall towers appear.
            let stacking: Vec<Move> = legal
                .iter()
                .copied()
                .filter(|m| !p.tower(m.to()).is_empty())
                .collect();
            let m = if !stacking.is_empty() && rng.below(3) > 0 {
                stacking[rng.below(stacking.len())]
            } else {
                legal[rng.below(legal.len())]
            };
            p.make(m);
            tallest = Square::all()
                .map(|s| p.tower(s).len())
                .max()
                .unwrap()
                .max(tallest);
        }
    }
    assert!(positions >= 2000, "{positions}");
    assert!(tallest >= 3, "{tallest}");
}

/// What the positions of `fast_generator_equals_the_trial_reference`
/// exercised; each case must occur often enough for the test to mean
/// something.
#[derive(Default, Debug)]
struct Coverage {
    nodes: usize,
    in_check: usize,
    double_check: usize,
    pinned: usize,
    /// Pseudo-legal splits the trial rejects (the revealed piece matters).
    rejected_splits: usize,
    /// Legal splits whose revealed top promotes.
    revealing_promotions: usize,
    king_splits: usize,
    en_passant: usize,
    castling: usize,
    tallest: usize,
}

impl Coverage {
    /// Compares the fast generator with the trial of every pseudo-legal
    /// move on `p` (the same moves in the same order, and the same count),
    /// and records which cases `p` exercised.
    fn check(&mut self, p: &Tavreli) {
        let mut fast = MoveList::new();
        p.legal_moves(&mut fast);
        let mut reference = Vec::new();
        p.generate_by_trial(&mut |m| reference.push(m));
        assert_eq!(fast.as_slice(), reference.as_slice(), "{}", p.fen());
        assert_eq!(p.count_legal(), reference.len() as u64, "{}", p.fen());
        let g = p.guard();
        let king = p.tops.king(p.turn);
        self.nodes += 1;
        self.in_check += usize::from(g.evasions != Bitboard::FULL);
        self.double_check += usize::from(g.evasions.is_empty());
        self.pinned += usize::from(g.pinned.nonempty());
        self.rejected_splits += pseudo_legal(p)
            .iter()
            .filter(|m| m.split() > 0 && !fast.contains(m))
            .count();
        for m in &fast {
            let t = p.tower(m.from());
            let k = usize::from(m.split());
            if k > 0 {
                let shown = t.get(t.len() - k - 1).unwrap();
                self.revealing_promotions += usize::from(shown.must_promote_on(m.from().rank()));
                self.king_splits += usize::from(m.from() == king);
            }
            self.en_passant += usize::from(m.kind() == MoveKind::EnPassant);
            self.castling += usize::from(m.kind() == MoveKind::Castle);
        }
        let tallest = Square::all().map(|s| p.tower(s).len()).max().unwrap_or(0);
        self.tallest = self.tallest.max(tallest);
    }
}

/// Seeds for the generator comparison: the bench and suite positions with
/// tall mixed towers, and small positions made for one case each.
const GENERATOR_SEEDS: &[&str] = &[
    fenfmt::STARTPOS,
    "r1b1k2r/pp(PQ~)p1ppp/2n(bn)1n2/3(pN)4/2(BP=Hq)5/5(pN)2/PP1P1PPP/R3K2R w KQkq - 0 1",
    "rn2kbnr/ppp1pp1p/8/2p=q3p1/1P2P3/N1P2(PP=Q)P(Pb)/P7/R1BQK1N(RqB) b Qkq - 0 10",
    "rnbqk1nr/ppp2p1p/3p4/6p1/(PbP=N)2P4/N7/2(PBQK)2(P=HP)(PB)P/R5(Np=hR)1 b kq - 1 12",
    "rn3(bk)nr/p1p1p1p1/3(pPQq)1p1p/1(pB)3(bP=N)2/8/1P2P2P/P1P2P2/RNB1K1NR b KQ - 0 8",
    "r3k2r/8/8/8/8/4(Pn)3/8/R3K2R w KQkq - 0 1",
    "6(nrp=bP=RRk)1/3(pQRP=Bn)3p/2(pP=Nbp=nP=H)5/6p1/1(p=rrp=hqB)P=Q3P1/8/2(P=Rb)5/1N3(BNPK)2 b - - 0 35",
    "2b5/2(pRp=q)(Qk)3(prP=Qn)/1(pP=B)6/8/(NP=Nq)3p3/(Pr)3P1(P=RpPRbp=bBP=Bn)N/p2K4/5B2 w - - 1 32",
    "1(rP=Hbp=rBqp=b)3b2/1(p=rQ)1(p=hRnP=RnBN~)1k2/(RNr)P=B1p4/3P4/6(Pp=b)1/6(pN)1/(Pp=n)4(PK)2/8 b - - 0 37",
    "rn2k1n1/(P=Bb)7/2(pN~)2q2/3(pp=np=bR)p3/p(P=Rp)3P2/5B2/8/4(Prp=rP=QNP=RNbK)(BQRP=N)2 w q - 0 29",
    // Pinned towers on a file and a diagonal, with pieces of both colours beneath.
    "4r1k1/8/8/q7/4(pB)3/8/3(RN)4/4K3 w - - 0 1",
    // Lifting the knight frees a rook beside the king / a queen down the file.
    "4k3/8/8/8/8/8/4(rN)3/4K3 w - - 0 1",
    "4k3/8/8/4(qN)3/8/8/8/4K3 w - - 0 1",
    // A queen over a bishop that sees the king once uncovered: only blocks.
    "k7/8/8/4(bQ)3/8/8/8/K7 w - - 0 1",
    // A black pawn freed on rank 1 promotes at once and checks.
    "4k3/8/8/8/8/8/3K4/1(pN)6 w - - 0 1",
    // Double check; a king standing on an enemy rook.
    "4k3/8/8/8/8/5n2/8/r3K3 w - - 0 1",
    "4k3/8/8/8/8/8/8/3(rK)4 w - - 0 1",
    // En passant, by a tower, and with the capturer pinned.
    "k7/8/8/3(Np)(RP)3/8/8/8/4K3 w - d6 0 2",
    "4r2k/8/8/3p(PP)3/8/8/8/4K3 w - d6 0 2",
    "k7/3(Np)4/8/4(RP)3/8/8/8/4K3 b - - 0 1",
];

/// Tiny seeded random playouts from every seed, and every node of the
/// depth-2 trees of the suite positions: the fast generator (pins, check
/// masks, revealed tops) lists exactly the moves — in the same order — that
/// the trial of every pseudo-legal move accepts (`generate_by_trial`), and
/// counts them. The coverage counts make sure the tricky cases came up.
#[test]
fn fast_generator_equals_the_trial_reference() {
    let mut cov = Coverage::default();
    let mut rng = crate::SplitMix::new(0x0051_EE7E);
    for (i, fen) in GENERATOR_SEEDS.iter().enumerate() {
        for _game in 0..12 {
            let mut p = pos(fen);
            for _ply in 0..60 {
                cov.check(&p);
                let mut list = MoveList::new();
                p.legal_moves(&mut list);
                if list.is_empty() {
                    break;
                }
                // Favour stacking (tall towers) and captures; sometimes a
                // move that gives check.
                let stacking: Vec<Move> = list
                    .iter()
                    .copied()
                    .filter(|m| !p.tower(m.to()).is_empty())
                    .collect();
                let m = match rng.below(4) {
                    0 | 1 if !stacking.is_empty() => stacking[rng.below(stacking.len())],
                    2 => {
                        let checks: Vec<Move> = list
                            .iter()
                            .copied()
                            .filter(|&m| {
                                let mut q = p.clone();
                                q.make(m);
                                q.is_check()
                            })
                            .collect();
                        if checks.is_empty() {
                            list[rng.below(list.len())]
                        } else {
                            checks[rng.below(checks.len())]
                        }
                    }
                    _ => list[rng.below(list.len())],
                };
                p.make(m);
            }
        }
        // Exhaustively, the first plies of the small and the tower-rich seeds.
        let mut root = pos(fen);
        let depth = if i == 0 { 3 } else { 2 };
        tree(&mut root, depth, &mut cov);
    }
    eprintln!("{cov:?}");
    assert!(cov.nodes > 20_000, "{cov:?}");
    assert!(cov.in_check > 1_000, "{cov:?}");
    assert!(cov.double_check > 20, "{cov:?}");
    assert!(cov.pinned > 1_000, "{cov:?}");
    assert!(cov.rejected_splits > 1_000, "{cov:?}");
    assert!(cov.revealing_promotions > 50, "{cov:?}");
    assert!(cov.king_splits > 1_000, "{cov:?}");
    assert!(cov.en_passant > 50, "{cov:?}");
    assert!(cov.castling > 200, "{cov:?}");
    assert!(cov.tallest >= 10, "{cov:?}");
}

/// Checks every node of the tree below `p` to `depth` plies, and that the
/// incremental key is right and unmake restores each node exactly.
fn tree(p: &mut Tavreli, depth: u32, cov: &mut Coverage) {
    cov.check(p);
    assert_eq!(p.key(), p.key_from_scratch(), "{}", p.fen());
    if depth == 0 {
        return;
    }
    let mut list = MoveList::new();
    p.legal_moves(&mut list);
    for &m in &list {
        let before = p.clone();
        let undo = p.make(m);
        tree(p, depth - 1, cov);
        p.unmake(m, undo);
        assert_eq!(*p, before, "{m}");
    }
}

/// Null moves flip the side and come back exactly.
#[test]
fn null_move_round_trip() {
    let mut p = pos("k7/8/8/3pP3/8/8/8/4K3 w - d6 0 2");
    let before = p.clone();
    let undo = p.make_null();
    assert_eq!(p.fen(), "k7/8/8/3pP3/8/8/8/4K3 b - - 1 2");
    assert_eq!(p.key(), p.key_from_scratch());
    p.unmake_null(undo);
    assert_eq!(p, before);
}

/// Arbitrary edits of valid FENs never make the reader panic, and whatever
/// it accepts it writes back as a FEN that reads to the same position.
#[test]
fn fen_reader_survives_garbage() {
    let seeds = [
        fenfmt::STARTPOS,
        "r1b1k2r/pp(PQ~)p1ppp/2n(bn)1n2/3(pN)4/2(BP=Hq)5/5(pN)2/PP1P1PPP/R3K2R w KQkq - 0 1",
        "k7/8/8/3(Np)(RP)3/8/8/8/4K3 w - d6 0 2",
        "1(nP=RqbQnr)6/8/1(prBp=bN)6/1(bP=BP)1(pp=rP)1(pP=HP=Nk)2/5B1(pp=nK)/7P/5(PRh~)2/R5N1 w - - 0 38",
    ];
    let alphabet = b"()=~/12345678KQRBNHPkqrbnhpwx- ed36";
    let mut rng = crate::SplitMix::new(0x00F0_22ED);
    let mut accepted = 0;
    for i in 0..20_000 {
        let mut bytes = seeds[i % seeds.len()].as_bytes().to_vec();
        for _ in 0..=rng.below(3) {
            let at = rng.below(bytes.len() + 1);
            let c = alphabet[rng.below(alphabet.len())];
            match rng.below(3) {
                0 if at < bytes.len() => bytes[at] = c,
                1 if at < bytes.len() => {
                    bytes.remove(at);
                }
                _ => bytes.insert(at, c),
            }
        }
        let text = String::from_utf8_lossy(&bytes);
        if let Ok(p) = Tavreli::from_fen(&text) {
            accepted += 1;
            assert_eq!(pos(&p.fen()), p, "{text}");
            let _ = p.parse_move(&text);
        }
    }
    assert!(accepted > 100, "{accepted}");
}

/// RULES.md §1: "the third occurrence of the same position (same board
/// including … towers …) is a draw" — keys cover whole towers, so positions
/// that differ only below the tops differ, and a repeated cycle is a draw.
#[test]
fn keys_cover_whole_towers_and_repetition() {
    let a = pos("4k3/8/8/3(Pr)4/8/8/8/4K3 w - - 0 1");
    let b = pos("4k3/8/8/3(Nr)4/8/8/8/4K3 w - - 0 1");
    let c = pos("4k3/8/8/3(pr)4/8/8/8/4K3 w - - 0 1");
    assert_eq!(a.piece_at(sq("d5")), b.piece_at(sq("d5")));
    assert!(a.key() != b.key() && a.key() != c.key() && b.key() != c.key());
    let mut p = a.clone();
    let mut history = Vec::new();
    for (i, s) in [
        "e1e2", "e8e7", "e2e1", "e7e8", "e1e2", "e8e7", "e2e1", "e7e8",
    ]
    .iter()
    .enumerate()
    {
        history.push(p.key());
        p.make(p.parse_move(s).unwrap());
        let expected = (i == 7).then_some(Outcome::Repetition);
        assert_eq!(status(&p, &history), expected, "after {s}");
    }
    assert_eq!(p.key(), a.key());
}

/// RULES.md §1: "Writers emit the en-passant square only when an
/// en-passant capture is legal in the position" — with towers, legal for
/// some k is enough.
#[test]
fn ep_square_written_only_when_a_capture_is_legal() {
    // A lone pawn pinned on the e-file: no legal capture, no square.
    assert_eq!(
        pos("4r2k/8/8/3pP3/8/8/8/4K3 w - d6 0 2").fen(),
        "4r2k/8/8/3pP3/8/8/8/4K3 w - - 0 2"
    );
    // With a second pawn beneath, the top one alone may take (k = 1).
    let fen = "4r2k/8/8/3p(PP)3/8/8/8/4K3 w - d6 0 2";
    assert_eq!(pos(fen).fen(), fen);
    assert_eq!(moves_from(fen, "e5"), sorted(&["e5d6:1", "e5e6", "e5e6:1"]));
}

/// "Every pawn has a **promotion piece**: the piece that started on its
/// file … A pawn keeps its promotion piece wherever it goes."
#[test]
fn pawns_keep_their_promotion_piece() {
    // A queen pawn that went to the e-file still promotes to a queen.
    assert_eq!(
        play("k7/4P=Q3/8/8/8/8/8/4K3 w - - 0 1", &["e7e8"]),
        "k3Q~3/8/8/8/8/8/8/4K3 b - - 0 1"
    );
    // A default pawn of the e-file is a helgi pawn.
    assert_eq!(
        play("k7/4P3/8/8/8/8/8/K7 w - - 0 1", &["e7e8"]),
        "k3H~3/8/8/8/8/8/8/K7 b - - 0 1"
    );
}

/// "A king is therefore always the top of its tower, and always moves with
/// any group from its tower."
#[test]
fn king_moves_with_any_group_from_its_tower() {
    let fen = "4k3/8/8/8/8/8/8/3(RK)4 w - - 0 1";
    assert_eq!(
        moves_from(fen, "d1"),
        sorted(&[
            "d1c1", "d1c1:1", "d1c2", "d1c2:1", "d1d2", "d1d2:1", "d1e1", "d1e1:1", "d1e2",
            "d1e2:1"
        ])
    );
    assert_eq!(play(fen, &["d1d2:1"]), "4k3/8/8/8/8/8/3K4/3R4 b - - 1 1");
    assert_eq!(play(fen, &["d1d2"]), "4k3/8/8/8/8/8/3(RK)4/8 b - - 1 1");
}

/// The captures-only generator (`tactical_moves`) lists exactly the legal
/// moves that capture, in their order, along random games from the
/// generator's seeds (pins, checks, double checks, tall towers, en passant).
#[test]
fn capture_generator_equals_the_filtered_legal_moves() {
    let mut rng = crate::SplitMix::new(0x00CA_97E5);
    let (mut nodes, mut with_captures, mut in_check) = (0, 0, 0);
    for fen in GENERATOR_SEEDS {
        for _game in 0..6 {
            let mut p = pos(fen);
            for _ply in 0..60 {
                let mut list = MoveList::new();
                p.legal_moves(&mut list);
                let expected: Vec<Move> = list.iter().copied().filter(|m| m.is_capture()).collect();
                let mut got = MoveList::new();
                p.tactical_moves(&mut got);
                assert_eq!(got[..], expected[..], "{}", p.fen());
                nodes += 1;
                with_captures += usize::from(!got.is_empty());
                in_check += usize::from(p.is_check());
                if list.is_empty() {
                    break;
                }
                let m = if !got.is_empty() && rng.below(2) == 0 {
                    got[rng.below(got.len())]
                } else {
                    list[rng.below(list.len())]
                };
                p.make(m);
            }
        }
    }
    assert!(
        nodes > 2_000 && with_captures > 1_000 && in_check > 100,
        "{nodes} {with_captures} {in_check}"
    );
}
