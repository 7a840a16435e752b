//! Chess perft: the six standard positions and `tests/data/perft/chess.epd`.

use movegen::{perft, Chess, Position};
use volkhv_tests::{node_budget, run_suite};

fn nodes(fen: &str, depth: u32) -> u64 {
    perft(&mut Chess::from_fen(fen).unwrap(), depth)
}

/// The six positions of the Chess Programming Wiki's perft page, to depths
/// that take seconds in release mode.
#[test]
fn standard_positions() {
    let deep = !cfg!(debug_assertions);
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    assert_eq!(nodes(start, 4), 197_281);
    let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    assert_eq!(nodes(kiwipete, 3), 97_862);
    let pos3 = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1";
    assert_eq!(nodes(pos3, 5), 674_624);
    let pos4 = "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1";
    assert_eq!(nodes(pos4, 4), 422_333);
    let pos5 = "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8";
    assert_eq!(nodes(pos5, 3), 62_379);
    let pos6 = "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10";
    assert_eq!(nodes(pos6, 3), 89_890);
    if deep {
        assert_eq!(nodes(start, 6), 119_060_324);
        assert_eq!(nodes(kiwipete, 5), 193_690_690);
        assert_eq!(nodes(pos3, 7), 178_633_661);
        assert_eq!(nodes(pos4, 5), 15_833_292);
        assert_eq!(nodes(pos5, 5), 89_941_194);
        assert_eq!(nodes(pos6, 5), 164_075_551);
    }
}

/// Every line of the shared chess suite (all depths in release builds).
#[test]
fn shared_suite() {
    let checked = run_suite::<Chess>("chess.epd", node_budget(u64::MAX, 200_000));
    assert!(checked >= 20, "only {checked} entries checked");
}
