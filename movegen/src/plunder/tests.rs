//! One focused test per rule sentence of RULES.md §3 (named in each doc
//! comment), plus notation, FEN errors and random-game consistency.

use super::*;
use crate::moves::MoveList;
use crate::position::{perft, status, Outcome, Position};
use crate::test_util::{self, sorted};
use crate::zobrist::splitmix;

fn pos(fen: &str) -> Plunder {
    test_util::pos(fen)
}

/// Sorted move strings of the piece on `from`.
fn moves_from(fen: &str, from: &str) -> Vec<String> {
    test_util::moves_starting::<Plunder>(fen, from)
}

/// Sorted move strings from `from` to `to` (any suffix).
fn moves_between(fen: &str, from_to: &str) -> Vec<String> {
    test_util::moves_starting::<Plunder>(fen, from_to)
}

/// The FEN after playing `moves` (move strings) from `fen`.
fn play(fen: &str, moves: &[&str]) -> String {
    test_util::play::<Plunder>(fen, moves)
}

/// §3.2 "When a piece captures …, the mover may plunder. The choices are:
/// (a) a vest of the captured piece's type, or (b) the vest the captured
/// piece was wearing, if any. Or decline." Also the §3.4 examples `c3d5p`
/// and `c3d5`.
#[test]
fn capture_offers_type_vest_worn_vest_or_decline() {
    let fen = "4k3/8/8/3p(b)4/8/2N5/8/4K3 w - - 0 1";
    assert_eq!(
        moves_from(fen, "c3"),
        sorted(&["c3a2", "c3a4", "c3b1", "c3b5", "c3d1", "c3d5", "c3d5b", "c3d5p", "c3e2", "c3e4"])
    );
    assert_eq!(play(fen, &["c3d5p"]), "4k3/8/8/3N(P)4/8/8/8/4K3 b - - 0 1");
    assert_eq!(play(fen, &["c3d5b"]), "4k3/8/8/3N(B)4/8/8/8/4K3 b - - 0 1");
    assert_eq!(play(fen, &["c3d5"]), "4k3/8/8/3N4/8/8/8/4K3 b - - 0 1");
}

/// §3.2 "A vest may be taken only if it adds moves the wearer cannot
/// already make" — the allow table, and a queen taking a rook-vested pawn
/// may plunder only the pawn vest.
#[test]
fn allow_table() {
    let table = [
        (Role::Pawn, "NBRQ"),
        (Role::Knight, "PBRQ"),
        (Role::Bishop, "PNRQ"),
        (Role::Rook, "PNBQ"),
        (Role::Queen, "PN"),
        (Role::King, "PNBRQ"),
    ];
    for (wearer, may) in table {
        for vest in VEST_ROLES {
            let expected = may.contains(vest.char().to_ascii_uppercase());
            assert_eq!(
                vest_allowed(vest, wearer),
                expected,
                "{vest:?} on {wearer:?}"
            );
        }
        assert!(!vest_allowed(Role::King, wearer));
    }
    let fen = "4k3/8/8/3p(r)4/8/8/8/3QK3 w - - 0 1";
    assert_eq!(moves_between(fen, "d1d5"), sorted(&["d1d5", "d1d5p"]));
}

/// §3.2 "Taking a vest replaces the vest the capturer still wears …
/// Declining keeps the current vest."
#[test]
fn plunder_replaces_decline_keeps() {
    let fen = "4k3/8/8/3r4/8/2N(B)5/8/4K3 w - - 0 1";
    assert_eq!(moves_between(fen, "c3d5"), sorted(&["c3d5", "c3d5r"]));
    assert_eq!(play(fen, &["c3d5r"]), "4k3/8/8/3N(R)4/8/8/8/4K3 b - - 0 1");
    assert_eq!(play(fen, &["c3d5"]), "4k3/8/8/3N(B)4/8/8/8/4K3 b - - 0 1");
}

/// §3.2 "Only distinct outcomes are distinct moves: choosing the vest the
/// capturer already wears … is the same move as declining."
#[test]
fn only_distinct_outcomes() {
    // The knight wears R; the victim is a rook wearing B: R is no new vest.
    let fen = "4k3/8/8/3r(b)4/8/2N(R)5/8/4K3 w - - 0 1";
    assert_eq!(moves_between(fen, "c3d5"), sorted(&["c3d5", "c3d5b"]));
}

/// §3.2 "The plundered vest is chosen after promotion: a pawn that promotes
/// while capturing plunders for its new type." Also the §3.4 example `e7d8qn`.
#[test]
fn plunder_after_promotion() {
    let fen = "3n(r)k3/4P3/8/8/8/8/8/K7 w - - 0 1";
    assert_eq!(
        moves_between(fen, "e7d8"),
        sorted(&[
            "e7d8q", "e7d8qn", "e7d8r", "e7d8rn", "e7d8b", "e7d8bn", "e7d8br", "e7d8n", "e7d8nr"
        ])
    );
    assert_eq!(play(fen, &["e7d8qn"]), "3Q(N)k3/8/8/8/8/8/8/K7 b - - 0 1");
}

/// §3.3 "A vested piece may make, in addition to its own moves, any move of
/// its vest's type. … A move the piece can make on its own is an ordinary
/// move even if the vest could make it too, and the vest stays."
#[test]
fn vest_moves_and_ordinary_moves() {
    let fen = "4k3/8/8/8/8/8/8/R(Q)3K3 w - - 0 1";
    assert_eq!(
        moves_from(fen, "a1"),
        sorted(&[
            "a1a2", "a1a3", "a1a4", "a1a5", "a1a6", "a1a7", "a1a8", "a1b1", "a1c1", "a1d1", "a1b2",
            "a1c3", "a1d4", "a1e5", "a1f6", "a1g7", "a1h8"
        ])
    );
    assert_eq!(play(fen, &["a1a5"]), "4k3/8/8/R(Q)7/8/8/8/4K3 b - - 1 1");
    assert_eq!(play(fen, &["a1d4"]), "4k3/8/8/8/3R4/8/8/4K3 b - - 1 1");
}

/// §3.3 "After a vest move the vest is gone … If that move captured, the
/// piece may then plunder again" — with the §3.4 note that the vest just
/// used up is a new vest (suffix).
#[test]
fn vest_move_consumes_then_plunders_again() {
    let fen = "4k3/6b1/8/8/3N(B)4/8/8/4K3 w - - 0 1";
    assert_eq!(moves_between(fen, "d4g7"), sorted(&["d4g7", "d4g7b"]));
    assert_eq!(play(fen, &["d4g7"]), "4k3/6N1/8/8/8/8/8/4K3 b - - 0 1");
    assert_eq!(play(fen, &["d4g7b"]), "4k3/6N(B)1/8/8/8/8/8/4K3 b - - 0 1");
}

/// §3.3 "A knight, bishop or king wearing a pawn vest may double-push from
/// its own 2nd rank … This creates an en-passant square exactly like a
/// pawn's double push, and the piece can be captured en passant."
#[test]
fn pawn_vested_knight_double_push_and_ep() {
    let fen = "4k3/8/8/8/2p5/8/1N(P)6/4K3 w - - 0 1";
    assert_eq!(
        moves_from(fen, "b2"),
        sorted(&["b2a4", "b2b3", "b2b4", "b2c4", "b2d1", "b2d3"])
    );
    let after = play(fen, &["b2b4"]);
    assert_eq!(after, "4k3/8/8/8/1Np5/8/8/4K3 b - b3 1 1");
    assert_eq!(moves_from(&after, "c4"), sorted(&["c4b3", "c4b3n", "c4c3"]));
    assert_eq!(
        play(&after, &["c4b3n"]),
        "4k3/8/8/8/8/1p(n)6/8/4K3 w - - 0 2"
    );
}

/// §3.3 "A rook or queen wearing a pawn vest makes no double push as a vest
/// move (its own slide already reaches that square; such a slide is
/// ordinary and creates no en-passant square)."
#[test]
fn pawn_vested_rook_slides_ordinarily() {
    let fen = "4k3/8/8/8/1p6/8/R(P)7/4K3 w - - 0 1";
    assert_eq!(play(fen, &["a2a4"]), "4k3/8/8/8/R(P)p6/8/8/4K3 b - - 1 1");
    // A rook cannot capture diagonally, so the pawn vest's capture is a
    // vest move for it (§3.3's definition; the reference perft agrees).
    let rook = "k7/8/8/8/8/3p4/4R(P)3/4K3 w - - 0 1";
    assert_eq!(moves_between(rook, "e2d3"), sorted(&["e2d3", "e2d3p"]));
    assert_eq!(play(rook, &["e2d3"]), "k7/8/8/8/8/3R4/8/4K3 b - - 0 1");
    assert_eq!(play(rook, &["e2d3p"]), "k7/8/8/8/8/3R(P)4/8/4K3 b - - 0 1");
    // "For them the pawn vest adds only the en-passant capture": a queen's
    // diagonal capture is its own; the en-passant capture is a vest move.
    let ep = "k7/8/8/3pQ(P)3/8/8/8/4K3 w - d6 0 1";
    assert_eq!(moves_between(ep, "e5d6"), sorted(&["e5d6", "e5d6p"]));
    assert_eq!(play(ep, &["e5d6"]), "k7/8/3Q(P)4/3p4/8/8/8/4K3 b - - 1 1");
    assert_eq!(play(ep, &["e5d6p"]), "k7/8/3Q(P)4/8/8/8/8/4K3 b - - 0 1");
}

/// §3.3 "A king wearing a pawn vest may not double-push if an enemy pawn or
/// an enemy piece wearing a pawn vest stands on a square beside its
/// destination on the same rank … even if that piece is pinned."
#[test]
fn king_double_push_restriction() {
    // The d4 pawn is pinned by the d1 rook and still forbids e2e4.
    let fen = "3k4/8/8/8/3p4/8/4K(P)3/3R4 w - - 0 1";
    assert_eq!(
        moves_from(fen, "e2"),
        sorted(&["e2d2", "e2d3", "e2e1", "e2f1", "e2f2", "e2f3"])
    );
    let free = "3k4/8/8/8/p7/8/4K(P)3/R7 w - - 0 1";
    assert!(moves_from(free, "e2").contains(&"e2e4".to_string()));
    assert_eq!(play(free, &["e2e4"]), "3k4/8/8/8/p3K3/8/8/R7 b - - 1 1");
    let vested = "3k4/8/8/8/3b(p)4/8/4K(P)3/R7 w - - 0 1";
    assert!(!moves_from(vested, "e2").contains(&"e2e4".to_string()));
}

/// §3.3 "En passant: after a double push …, an enemy pawn or an enemy piece
/// wearing a pawn vest … may capture en passant … For a non-pawn it is a
/// vest move." (The bishop's declined capture collides with its quiet step,
/// §3.4.)
#[test]
fn en_passant_by_pawn_vested_bishop() {
    let fen = "4k3/8/8/8/3b(p)P3/8/8/4K3 b - e3 0 1";
    assert_eq!(
        moves_from(fen, "d4"),
        sorted(&[
            "d4a1", "d4a7", "d4b2", "d4b6", "d4c3", "d4c5", "d4d3", "d4e3", "d4e3p", "d4e5",
            "d4f2", "d4f6", "d4g1", "d4g7", "d4h8"
        ])
    );
    assert_eq!(play(fen, &["d4e3p"]), "4k3/8/8/8/8/4b(p)3/8/4K3 w - - 0 2");
    assert_eq!(play(fen, &["d4e3"]), "4k3/8/8/8/4P3/4b(p)3/8/4K3 w - - 1 2");
}

/// §3.3 "Pieces wearing a pawn vest never promote, and a vest is never
/// promoted."
#[test]
fn pawn_vested_pieces_never_promote() {
    let fen = "k7/6N(P)1/8/8/8/8/8/4K3 w - - 0 1";
    assert_eq!(
        moves_from(fen, "g7"),
        sorted(&["g7e6", "g7e8", "g7f5", "g7g8", "g7h5"])
    );
    assert_eq!(play(fen, &["g7g8"]), "k5N1/8/8/8/8/8/8/4K3 b - - 1 1");
}

/// §3.3 "A pawn promotes (to Q, R, B or N) whenever it reaches its last
/// rank, by an ordinary move or by a vest move."
#[test]
fn promotion_by_vest_move() {
    let fen = "k7/8/5P(N)2/8/8/8/8/7K w - - 0 1";
    assert_eq!(
        moves_from(fen, "f6"),
        sorted(&[
            "f6f7", "f6d5", "f6d7", "f6e4", "f6g4", "f6h5", "f6h7", "f6e8q", "f6e8r", "f6e8b",
            "f6e8n", "f6g8q", "f6g8r", "f6g8b", "f6g8n"
        ])
    );
    assert_eq!(play(fen, &["f6e8q"]), "k3Q3/8/8/8/8/8/8/7K b - - 0 1");
    assert_eq!(play(fen, &["f6f7"]), "k7/5P(N)2/8/8/8/8/8/7K b - - 0 1");
}

/// §3.3 "when a vested pawn promotes by an ordinary move, the promoted
/// piece keeps the vest if that vest is allowed on its new type …;
/// otherwise the vest is gone."
#[test]
fn promotion_keeps_allowed_vest() {
    let fen = "k7/4P(N)3/8/8/8/8/8/7K w - - 0 1";
    assert_eq!(play(fen, &["e7e8q"]), "k3Q(N)3/8/8/8/8/8/8/7K b - - 0 1");
    assert_eq!(play(fen, &["e7e8n"]), "k3N3/8/8/8/8/8/8/7K b - - 0 1");
    let queen_vest = "k7/4P(Q)3/8/8/8/8/8/7K w - - 0 1";
    assert_eq!(
        play(queen_vest, &["e7e8r"]),
        "k3R(Q)3/8/8/8/8/8/8/7K b - - 0 1"
    );
    assert_eq!(
        play(queen_vest, &["e7e8q"]),
        "k3Q3/8/8/8/8/8/8/7K b - - 0 1"
    );
}

/// §3.4 "after an ordinary capture, taking the vest it already wears is the
/// same as declining (no suffix; a vested pawn's kept vest after promotion
/// counts as already worn)."
#[test]
fn kept_vest_after_promotion_counts_as_worn() {
    let fen = "3n3k/4P(N)3/8/8/8/8/8/K7 w - - 0 1";
    assert_eq!(
        moves_between(fen, "e7d8"),
        sorted(&["e7d8b", "e7d8n", "e7d8q", "e7d8r"])
    );
    assert_eq!(play(fen, &["e7d8q"]), "3Q(N)3k/8/8/8/8/8/8/K7 b - - 0 1");
    assert_eq!(play(fen, &["e7d8n"]), "3N3k/8/8/8/8/8/8/K7 b - - 0 1");
}

/// §3.3 "A pawn may reach its own first rank by a vest move. A pawn on its
/// own 2nd rank may double-push (it does not matter how it got there); from
/// the 1st rank it only pushes one square."
#[test]
fn pawn_on_first_rank() {
    let fen = "4k3/8/8/8/8/2P(N)5/8/4K3 w - - 0 1";
    let on_first = play(fen, &["c3b1", "e8d8"]);
    assert_eq!(on_first, "3k4/8/8/8/8/8/8/1P2K3 w - - 1 2");
    assert_eq!(moves_from(&on_first, "b1"), sorted(&["b1b2"]));
    let on_second = play(&on_first, &["b1b2", "d8e8"]);
    assert_eq!(moves_from(&on_second, "b2"), sorted(&["b2b3", "b2b4"]));
}

/// §3.3 "A piece attacks every square it could capture on by an ordinary or
/// a vest move. A vested piece gives check (and mate) with its vest's power."
#[test]
fn check_and_mate_by_vest() {
    let err = Plunder::from_fen("N(R)3k3/8/8/8/8/8/8/4K3 w - - 0 1").unwrap_err();
    assert_eq!(err.field, FenField::Side);
    let checked = pos("N(R)3k3/8/8/8/8/8/8/4K3 b - - 0 1");
    assert!(checked.is_check());
    let mut p = pos("k7/8/1K4N(R)1/8/8/8/8/8 w - - 0 1");
    let m = p.parse_move("g6f8").unwrap();
    p.make(m);
    assert_eq!(p.fen(), "k4N(R)2/8/1K6/8/8/8/8/8 b - - 1 1");
    assert_eq!(
        status(&p, &[]),
        Some(Outcome::Checkmate {
            winner: Color::White
        })
    );
}

/// §3.3 "Castling may not start in, pass through or end on an attacked
/// square, vests included."
#[test]
fn castling_respects_vest_attacks() {
    let attacked = "4k3/8/8/1n(b)6/8/8/8/4K2R w K - 0 1";
    assert_eq!(
        moves_from(attacked, "e1"),
        sorted(&["e1d1", "e1d2", "e1f2"])
    );
    let plain = "4k3/8/8/1n6/8/8/8/4K2R w K - 0 1";
    assert!(moves_from(plain, "e1").contains(&"e1g1".to_string()));
}

/// §3.3 "A vested king or rook castles normally and keeps its vest."
#[test]
fn vested_king_and_rook_castle() {
    let fen = "4k3/8/8/8/8/8/8/4K(N)2R(B) w K - 0 1";
    assert_eq!(play(fen, &["e1g1"]), "4k3/8/8/8/8/8/8/5R(B)K(N)1 b - - 1 1");
}

/// §3.3 "the fifty-move counter resets on captures and on moves by pawns
/// (the piece type, not pawn-vested pieces)".
#[test]
fn fifty_move_counter() {
    let fen = "4k3/8/8/8/8/2P(N)5/1N(P)6/4K3 w - - 7 1";
    assert_eq!(play(fen, &["b2b3"]), "4k3/8/8/8/8/1NP(N)5/8/4K3 b - - 8 1");
    assert_eq!(play(fen, &["c3a4"]), "4k3/8/8/8/P7/8/1N(P)6/4K3 b - - 0 1");
    assert_eq!(
        play(fen, &["b2d3"]),
        "4k3/8/8/8/8/2P(N)N(P)4/8/4K3 b - - 8 1"
    );
}

/// §3.4 "FEN: a vested piece is its letter followed by the vest letter in
/// parentheses, the vest letter in the same case as the piece …. Readers
/// accept either case inside the parentheses and reject vests that rule 3.2
/// forbids."
#[test]
fn fen_vest_notation() {
    let p = pos("4k(P)3/8/8/8/8/8/8/2N(q)1K(p)3 w - - 0 1");
    assert_eq!(p.fen(), "4k(p)3/8/8/8/8/8/8/2N(Q)1K(P)3 w - - 0 1");
    assert_eq!(p.vest_at(Square::parse("c1").unwrap()), Some(Role::Queen));
    assert_eq!(p.vest_at(Square::parse("e8").unwrap()), Some(Role::Pawn));
    for (fen, token) in [
        ("4k3/8/8/8/8/8/8/Q(R)3K3 w - - 0 1", "\"Q(R)\""),
        ("4k3/8/8/8/8/8/P(P)7/4K3 w - - 0 1", "\"P(P)\""),
        ("4k3/8/8/8/8/8/8/N(K)3K3 w - - 0 1", "\"N(K)\""),
        ("4k3/8/8/8/8/8/8/N()3K3 w - - 0 1", "\"N()\""),
        ("4k3/8/8/8/8/8/8/N(QB)3K3 w - - 0 1", "\"N(QB)\""),
        ("4k3/8/8/8/8/8/8/N(x)3K3 w - - 0 1", "\"N(x)\""),
        ("4k3/8/8/8/8/8/8/q(q)3K3 w - - 0 1", "\"q(q)\""),
    ] {
        let err = Plunder::from_fen(fen).unwrap_err();
        assert_eq!(err.field, FenField::Board, "{fen}");
        assert!(err.reason.contains(token), "{fen}: {err}");
    }
}

/// FEN rejections of RULES.md §1 for plunder, each naming its field.
#[test]
fn fen_errors() {
    for (fen, field) in [
        ("4k3/8/8/8/8/8/8/N(Q3K3 w - - 0 1", FenField::Board),
        ("4k3/8/8/8/8/8/8/N(Q)3K3K w - - 0 1", FenField::Board),
        ("8/8/8/8/8/8/8/3K4 w - - 0 1", FenField::Board),
        ("4k2P/8/8/8/8/8/8/4K3 w - - 0 1", FenField::Board),
        ("4k3/8/8/8/8/8/8/4K3 x - - 0 1", FenField::Side),
        ("4k3/8/8/8/8/8/8/4K3 w X - 0 1", FenField::Castling),
        ("4k3/8/8/8/8/8/8/4K3 w - e6 0 1", FenField::EnPassant),
        ("4k3/8/8/4r3/8/8/8/4K3 w - e6 0 1", FenField::EnPassant),
        ("4k3/8/8/4n(p)3/8/8/8/4K3 w - e6 0 1", FenField::EnPassant),
        ("4k3/8/8/8/8/8/8/4K3 w - - x 1", FenField::Halfmove),
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 0", FenField::Fullmove),
        ("4k3/8/8/8/8/8/8/4K3", FenField::Fields),
        (
            "QQQQQQQQ/QQQQQQQQ/QQ6/8/8/8/8/k6K w - - 0 1",
            FenField::Board,
        ),
    ] {
        let err = Plunder::from_fen(fen).unwrap_err();
        assert_eq!(err.field, field, "{fen}: {err}");
    }
    // A first-rank pawn is fine in plunder (it got there by a vest move).
    assert!(Plunder::from_fen("4k3/8/8/8/8/8/8/P3K3 w - - 0 1").is_ok());
    // A pawn-vested piece's double step is a valid en-passant origin.
    let knight = pos("4k3/8/8/8/1Np5/8/8/4K3 b - b3 1 1");
    assert_eq!(knight.ep_square(), Square::parse("b3"));
}

/// §3.4 collision, en passant by a pawn wearing a B or Q vest: "`e5d6` is
/// the pawn's own en-passant capture (vest kept); the vest's quiet step to
/// d6 does not exist."
#[test]
fn ep_collision_pawn_with_bishop_vest() {
    let fen = "4k3/8/8/3pP(B)3/8/8/8/4K3 w - d6 0 1";
    assert_eq!(
        moves_from(fen, "e5"),
        sorted(&[
            "e5e6", "e5d6", "e5c7", "e5b8q", "e5b8r", "e5b8b", "e5b8n", "e5f6", "e5g7", "e5h8q",
            "e5h8r", "e5h8b", "e5h8n", "e5d4", "e5c3", "e5b2", "e5a1", "e5f4", "e5g3", "e5h2"
        ])
    );
    assert_eq!(play(fen, &["e5d6"]), "4k3/8/3P(B)4/8/8/8/8/4K3 b - - 0 1");
}

/// §3.4 collision, en passant by a B, Q or K wearing a P vest: "`e5d6` is
/// its own quiet step (pawn vest kept); its en-passant capture through the
/// vest exists only with a plunder suffix" — as long as the quiet step is
/// legal (§1: only two *legal* moves collide). Here the double-pushed pawn
/// gives check, the quiet step is illegal and the declined capture exists.
#[test]
fn ep_collision_pawn_vested_bishop_in_check() {
    let fen = "4k3/8/8/2B(P)p4/4K3/8/8/8 w - d6 0 1";
    assert_eq!(moves_from(fen, "c5"), sorted(&["c5d6", "c5d6p"]));
    assert_eq!(play(fen, &["c5d6"]), "4k3/8/3B4/8/4K3/8/8/8 b - - 0 1");
    assert_eq!(play(fen, &["c5d6p"]), "4k3/8/3B(P)4/8/4K3/8/8/8 b - - 0 1");
}

/// §3.4 "The en-passant field of a FEN is written only if an en-passant
/// capture is among the legal moves after this rule."
#[test]
fn ep_field_only_after_collision_rule() {
    // The only capturer is a P-vested bishop taking a bishop: no vest to
    // plunder, and the declined capture is its own quiet step.
    let fen = "4k3/3b(p)4/8/4B(P)3/8/8/8/4K3 b - - 0 1";
    assert_eq!(play(fen, &["d7d5"]), "4k3/8/8/3bB(P)3/8/8/8/4K3 w - - 1 2");
    // A P-vested knight beside it may capture (and plunder the bishop vest).
    let knight = "4k3/3b(p)4/8/2N(P)1B(P)3/8/8/8/4K3 b - - 0 1";
    let after = play(knight, &["d7d5"]);
    assert_eq!(after, "4k3/8/8/2N(P)bB(P)3/8/8/8/4K3 w - d6 1 2");
    assert_eq!(moves_between(&after, "c5d6"), sorted(&["c5d6", "c5d6b"]));
}

/// §3.4 castling collision: "`e1g1` … is castling when castling is legal;
/// otherwise, for a king wearing an R or Q vest, it is the vest slide (king
/// loses the vest and the castling rights; the rook stays; only the end
/// square must be unattacked)."
#[test]
fn castling_collision() {
    let fen = "k7/8/8/8/8/8/8/4K(R)2R w K - 0 1";
    assert_eq!(play(fen, &["e1g1"]), "k7/8/8/8/8/8/8/5RK(R)1 b - - 1 1");
    let through_check = "k7/8/b7/8/8/8/8/4K(R)2R w K - 0 1";
    assert_eq!(
        moves_from(through_check, "e1"),
        sorted(&[
            "e1a1", "e1b1", "e1c1", "e1d1", "e1d2", "e1e3", "e1e4", "e1e5", "e1e6", "e1e7", "e1e8",
            "e1f2", "e1g1"
        ])
    );
    assert_eq!(
        play(through_check, &["e1g1"]),
        "k7/8/b7/8/8/8/8/6KR b - - 1 1"
    );
}

/// RULES.md §1: insufficient material only with no vest on the board.
#[test]
fn insufficient_material_needs_no_vests() {
    assert!(pos("4k3/8/8/8/8/8/8/4KN2 w - - 0 1").insufficient_material());
    assert!(!pos("4k3/8/8/8/8/8/8/4KN(R)2 w - - 0 1").insufficient_material());
    assert!(!pos("4k(p)3/8/8/8/8/8/8/4K3 w - - 0 1").insufficient_material());
}

/// §3.4 "Move string: `<from><to>[promotion][vest]`": `parse_move` accepts
/// exactly the generated strings.
#[test]
fn parse_move_matches_exact_strings() {
    let p = pos("3n(r)k3/4P3/8/8/8/8/8/K7 w - - 0 1");
    assert!(p.parse_move("e7d8qn").is_ok());
    for bad in ["e7d8nn", "e7d8", "e7d8qr", "e7d8QN", "e7d8q n", "e7e8"] {
        assert!(p.parse_move(bad).is_err(), "{bad}");
    }
}

/// The [`Plunder`] bound: a position rich in vests, captures and
/// promotions stays below the per-side bound of 1120 (and `MAX_MOVES`).
#[test]
fn rich_position_within_move_bound() {
    // White: vested pawns on the 7th facing vested black pieces on the 8th,
    // queens and knights wearing each other's vests in the centre.
    let fen = [
        "r(q)n(q)b(q)q(n)r(q)b(q)n(q)k",
        "P(Q)P(N)P(Q)P(N)P(Q)P(Q)pp",
        "n(q)1n(q)1n(q)3",
        "1Q(N)1N(Q)1Q(N)1N(Q)",
        "Q(N)1N(Q)1Q(N)1N(Q)1",
        "8",
        "8",
        "K(Q)7 w - - 0 1",
    ]
    .join("/");
    let p = pos(&fen);
    let n = p.count_legal();
    let mut list = MoveList::new();
    p.legal_moves(&mut list);
    assert_eq!(list.len() as u64, n);
    assert!(n > 300, "only {n} moves: the position is not rich");
    assert!(n <= 1120, "{n} moves break the documented bound");
}

/// Random games: FEN round trips, incremental key == key from scratch,
/// unmake restores the exact position, move strings are unique and parse
/// back, the mover's king is never left attacked — and vests do appear.
#[test]
fn random_games_consistency() {
    let mut seed = 0x5EED_1234_u64;
    let mut positions = 0;
    let mut vested_positions = 0;
    let mut vest_moves = 0;
    for _ in 0..40 {
        let mut p = Plunder::startpos();
        for _ in 0..120 {
            positions += 1;
            let fen = p.fen();
            let back = Plunder::from_fen(&fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
            assert_eq!(back, p, "{fen}");
            assert_eq!(p.key(), p.key_from_scratch(), "{fen}");
            if p.vested().nonempty() {
                vested_positions += 1;
            }
            let mut list = MoveList::new();
            p.legal_moves(&mut list);
            assert_eq!(list.len() as u64, p.count_legal(), "{fen}");
            let mut seen: Vec<String> = list.iter().map(ToString::to_string).collect();
            seen.sort();
            seen.dedup();
            assert_eq!(seen.len(), list.len(), "duplicate move strings in {fen}");
            for &m in &list {
                assert_eq!(p.parse_move(&m.to_string()), Ok(m), "{fen}");
                let before = p;
                let undo = p.make(m);
                let mover = p.turn().flip();
                let king = p.board().king(mover);
                assert!(
                    !p.attacked(king, p.turn(), p.board().occupied()),
                    "{m} leaves the king attacked in {fen}"
                );
                assert_eq!(p.key(), p.key_from_scratch(), "{m} in {fen}");
                p.unmake(m, undo);
                assert_eq!(p, before, "unmake {m} in {fen}");
            }
            if list.is_empty() || p.halfmoves() >= 100 {
                break;
            }
            seed = splitmix(seed);
            let m = list[(seed % list.len() as u64) as usize];
            if m.is_vest_move() {
                vest_moves += 1;
            }
            p.make(m);
        }
    }
    assert!(positions > 2000, "{positions} positions");
    assert!(
        vested_positions > 500,
        "vests in {vested_positions} positions only"
    );
    assert!(vest_moves > 20, "{vest_moves} vest moves played");
}

/// The start position differs from chess only once captures plunder.
#[test]
fn start_position_perft() {
    let mut p = Plunder::startpos();
    assert_eq!(perft(&mut p, 1), 20);
    assert_eq!(perft(&mut p, 2), 400);
    assert_eq!(perft(&mut p, 3), 8922);
}

/// §3.1 "Each piece type has a movement set" — the chess ones: without
/// vests, plunder's moves are chess's plus plunder suffixes on captures.
#[test]
fn without_vests_moves_are_chess_moves() {
    use crate::chess::Chess;
    for fen in [
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "8/8/8/K2pP2r/8/8/8/7k w - d6 0 1",
    ] {
        let chess = Chess::from_fen(fen).unwrap();
        let mut list = MoveList::new();
        chess.legal_moves(&mut list);
        let mut expected: Vec<String> = list.iter().map(ToString::to_string).collect();
        expected.sort();
        let plunder = pos(fen);
        let mut list = MoveList::new();
        plunder.legal_moves(&mut list);
        // Every capture also comes with plunder suffixes; the declined
        // versions are exactly the chess moves.
        let mut plain: Vec<String> = list
            .iter()
            .filter(|m| m.vest().is_none())
            .map(ToString::to_string)
            .collect();
        plain.sort();
        assert!(list.iter().any(|m| m.vest().is_some()) || !list.iter().any(|m| m.is_capture()));
        assert_eq!(plain, expected, "{fen}");
        assert_eq!(plunder.ep_square(), chess.ep_square(), "{fen}");
    }
}

/// §3.3 "Check: … A vested piece gives check …" — and pins: a knight
/// wearing a rook vest pins along the file.
#[test]
fn vested_sniper_pins() {
    let fen = "4k3/8/8/8/4n(r)3/8/4N3/4K3 w - - 0 1";
    assert_eq!(moves_from(fen, "e2"), Vec::<String>::new());
    let unvested = "4k3/8/8/8/4n3/8/4N3/4K3 w - - 0 1";
    assert_eq!(moves_from(unvested, "e2").len(), 6);
}

/// §3.2 "(any capture: ordinary, en passant, by a vest move, by a king, by a
/// promoting pawn)" — the king plunders too.
#[test]
fn king_plunders() {
    let fen = "4k3/8/8/8/8/8/3n4/4K3 w - - 0 1";
    assert_eq!(moves_between(fen, "e1d2"), sorted(&["e1d2", "e1d2n"]));
    assert_eq!(play(fen, &["e1d2n"]), "4k3/8/8/8/8/8/3K(N)4/8 b - - 0 1");
}

/// Nothing reachable from user input panics: mutated FENs and move strings
/// are rejected or read; whatever reads back writes a stable FEN.
#[test]
fn mutated_input_never_panics() {
    const ALPHABET: &[u8] = b"pnbrqkPNBRQK()12345678/ wb-KQkqabcdefgh0x";
    let seeds = [
        "r3k2r/pp1n(q)1ppp/2p(n)1b3/3B(P)4/4P(R)3/2N(B)2Q(N)2/PPP2PPP/R3K(P)2R w KQkq - 0 1",
        "4k3/8/8/8/3b(p)P3/8/8/4K3 b - e3 0 1",
        "4k3/8/8/8/1Np5/8/8/4K3 b - b3 1 1",
    ];
    let mut rng = 0xF022_u64;
    let mut accepted = 0;
    for i in 0..6000 {
        let mut bytes = seeds[i % seeds.len()].as_bytes().to_vec();
        for _ in 0..1 + i % 3 {
            rng = splitmix(rng);
            let at = (rng % bytes.len() as u64) as usize;
            let c = ALPHABET[((rng >> 20) % ALPHABET.len() as u64) as usize];
            match (rng >> 40) % 3 {
                0 => bytes[at] = c,
                1 => bytes.insert(at, c),
                _ => {
                    bytes.remove(at);
                }
            }
        }
        let text = String::from_utf8_lossy(&bytes).into_owned();
        if let Ok(p) = Plunder::from_fen(&text) {
            accepted += 1;
            let fen = p.fen();
            let again = Plunder::from_fen(&fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
            assert_eq!(again.fen(), fen);
            let _ = p.count_legal();
            for s in [
                "", "e2", "e2e4", "e7d8qn", "a1a1", "h8h9", "é2e4", "e2e4pppp",
            ] {
                let _ = p.parse_move(s);
            }
        }
    }
    assert!(accepted > 100, "only {accepted} mutated FENs read");
}

/// The search breaks ties between equal move scores by generation order, so
/// `Bench:` depends on it. PlunderChess's order: king steps, castling, king
/// vest moves, en passant, knights, bishops, rooks, queens, pawns (pushes,
/// double pushes, captures, push promotions), vested pieces; each capture
/// declined first, then its plunder choices. The lists are the ones the
/// plunder generator made before chess and plunder shared one.
#[test]
fn generation_order_is_pinned() {
    let vest_rich =
        "r3k2r/pp1n(q)1ppp/2p(n)1b3/3B(P)4/4P(R)3/2N(B)2Q(N)2/PPP2PPP/R3K(P)2R w KQkq - 0 1";
    assert_eq!(
        test_util::moves_in_order::<Plunder>(vest_rich),
        "e1d1 e1f1 e1d2 e1e2 e1g1 e1c1 a1b1 a1c1 a1d1 h1f1 h1g1 a2a3 b2b3 g2g3 h2h3 a2a4 b2b4 \
         g2g4 h2h4 c3b1 c3d1 c3e2 c3a4 c3b5 c3g7 c3g7p c3d2 c3b4 c3d4 c3a5 c3e5 c3f6 f3f7 \
         f3f7p f3d1 f3e2 f3d3 f3e3 f3g3 f3h3 f3f4 f3g4 f3f5 f3h5 f3f6 f3g1 f3d2 f3d4 f3h4 \
         f3e5 f3g5 e4e5 e4e6 e4e6b e4e2 e4e3 e4a4 e4b4 e4c4 e4d4 e4f4 e4g4 e4h4 d5c6 d5c6n \
         d5e6 d5b3 d5c4 d5d6"
    );
    let ep_and_promotions = "r3k3/1P6/8/3pP3/8/8/8/R2QK2R w KQq d6 0 1";
    assert_eq!(
        test_util::moves_in_order::<Plunder>(ep_and_promotions),
        "e1f1 e1d2 e1e2 e1f2 e1g1 e5d6 a1a8 a1b1 a1c1 a1a2 a1a3 a1a4 a1a5 a1a6 a1a7 h1f1 h1g1 \
         h1h2 h1h3 h1h4 h1h5 h1h6 h1h7 h1h8 d1d5 d1d5p d1b1 d1c1 d1c2 d1d2 d1e2 d1b3 d1d3 \
         d1f3 d1a4 d1d4 d1g4 d1h5 e5e6 b7a8q b7a8r b7a8b b7a8br b7a8n b7a8nr b7b8q b7b8r \
         b7b8b b7b8n"
    );
}
