//! Whole-tree consistency of PlunderChess from every position of
//! `plunder.epd`: at every node the incremental key equals the key from
//! scratch, the FEN reads back to the same position, move strings are unique
//! and parse back to their move, and unmake restores the exact position.

use movegen::{MoveList, Plunder, Position};
use std::collections::HashSet;

fn check_tree(pos: &mut Plunder, depth: u32, vested_nodes: &mut u64) -> u64 {
    assert_eq!(pos.key(), pos.key_from_scratch(), "key of {}", pos.fen());
    let fen = pos.fen();
    let reread = Plunder::from_fen(&fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    assert_eq!(reread, *pos, "FEN round trip of {fen}");
    if pos.vested().nonempty() {
        *vested_nodes += 1;
    }
    if depth == 0 {
        return 1;
    }
    let mut moves = MoveList::new();
    pos.legal_moves(&mut moves);
    assert_eq!(moves.len() as u64, pos.count_legal(), "count in {fen}");
    let mut seen = HashSet::new();
    let mut nodes = 1;
    for &m in &moves {
        let s = m.to_string();
        assert!(seen.insert(s.clone()), "two moves print {s} in {fen}");
        assert_eq!(pos.parse_move(&s), Ok(m), "string of {m} in {fen}");
        let before = *pos;
        let undo = pos.make(m);
        nodes += check_tree(pos, depth - 1, vested_nodes);
        pos.unmake(m, undo);
        assert_eq!(*pos, before, "unmake of {m} in {fen}");
    }
    nodes
}

#[test]
fn every_suite_position_to_depth_two() {
    let path = volkhv_tests::suite_path("plunder.epd");
    let text = std::fs::read_to_string(&path).expect("plunder.epd");
    let (mut nodes, mut vested) = (0, 0);
    for line in text.lines() {
        let Some(entry) = perft::parse_epd_line(line).expect("valid EPD line") else {
            continue;
        };
        let mut pos = Plunder::from_fen(&entry.fen).expect("valid FEN");
        nodes += check_tree(&mut pos, 2, &mut vested);
    }
    assert!(nodes > 10_000, "{nodes} nodes");
    assert!(vested * 2 > nodes, "vests in {vested} of {nodes} nodes");
}
