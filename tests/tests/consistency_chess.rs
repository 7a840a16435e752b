//! Chess: incremental keys, FEN round trips, move strings and unmake, at every
//! node of small trees from thousands of random-game positions.

use movegen::{status, Chess, Outcome, Position};
use volkhv_tests::{check_tree, random_positions};

#[test]
fn whole_trees_are_consistent() {
    let mut nodes = 0;
    let positions = random_positions::<Chess>(0xC4E55, 40, 120);
    assert!(positions.len() > 2_000, "{}", positions.len());
    for mut pos in positions {
        nodes += check_tree(&mut pos, 1);
    }
    let mut start = Chess::startpos();
    nodes += check_tree(&mut start, 3);
    let mut kiwipete =
        Chess::from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
            .unwrap();
    nodes += check_tree(&mut kiwipete, 2);
    assert!(nodes > 50_000, "{nodes}");
}

#[test]
fn game_status_precedence() {
    // Fool's mate.
    let mut pos = Chess::startpos();
    for m in ["f2f3", "e7e5", "g2g4", "d8h4"] {
        let mv = pos.parse_move(m).unwrap();
        pos.make(mv);
    }
    assert_eq!(
        status(&pos, &[]),
        Some(Outcome::Checkmate {
            winner: movegen::Color::Black
        })
    );
    let stalemate = Chess::from_fen("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1").unwrap();
    assert_eq!(status(&stalemate, &[]), Some(Outcome::Stalemate));
    // Mate on the 100th ply wins.
    let mate50 = Chess::from_fen("7k/5Q2/5K2/8/8/8/8/8 w - - 99 80").unwrap();
    let mut p = mate50;
    let m = p.parse_move("f7g7").unwrap();
    p.make(m);
    assert_eq!(
        status(&p, &[]),
        Some(Outcome::Checkmate {
            winner: movegen::Color::White
        })
    );
    let fifty = Chess::from_fen("7k/8/5K2/8/8/8/8/R7 b - - 100 80").unwrap();
    assert_eq!(status(&fifty, &[]), Some(Outcome::FiftyMoves));
    let bare = Chess::from_fen("7k/8/5K2/8/8/8/8/8 b - - 100 80").unwrap();
    assert_eq!(status(&bare, &[]), Some(Outcome::InsufficientMaterial));
}

#[test]
fn threefold_repetition() {
    let mut pos = Chess::startpos();
    let mut history = Vec::new();
    for _ in 0..2 {
        for m in ["g1f3", "g8f6", "f3g1", "f6g8"] {
            assert_eq!(status(&pos, &history), None);
            history.push(pos.key());
            let mv = pos.parse_move(m).unwrap();
            pos.make(mv);
        }
    }
    assert_eq!(status(&pos, &history), Some(Outcome::Repetition));
}

#[test]
fn bad_move_strings() {
    let pos = Chess::startpos();
    for s in ["", "e2", "e2e5", "e2e4q", "i2i4", "e2e4e4e4e4", "é2e4"] {
        assert!(pos.parse_move(s).is_err(), "{s}");
    }
    let promo = Chess::from_fen("8/4P3/8/8/8/8/8/k6K w - - 0 1").unwrap();
    assert!(promo.parse_move("e7e8").is_err());
    assert!(promo.parse_move("e7e8k").is_err());
    assert!(promo.parse_move("e7e8n").is_ok());
}

#[test]
fn fen_parser_never_panics_on_garbage() {
    let mut rng = movegen::SplitMix::new(7);
    let alphabet: Vec<char> = "rnbqkpRNBQKP12345678/ -wbKQkq0123456789e3()=~"
        .chars()
        .collect();
    for _ in 0..20_000 {
        let len = rng.below(70);
        let s: String = (0..len)
            .map(|_| alphabet[rng.below(alphabet.len())])
            .collect();
        let _ = Chess::from_fen(&s);
    }
    let _ = Chess::from_fen(
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 99999999999999999999 1",
    );
}
