//! Helpers shared by the variants' unit tests: reading FENs, listing move
//! strings and playing lines, for any [`Position`].

use crate::moves::MoveList;
use crate::position::Position;

/// The position of `fen`; panics naming the FEN if it is rejected.
pub(crate) fn pos<P: Position>(fen: &str) -> P {
    P::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// Every legal move string of `p`, sorted.
pub(crate) fn move_strings<P: Position>(p: &P) -> Vec<String> {
    let mut list = MoveList::new();
    p.legal_moves(&mut list);
    let mut v: Vec<String> = list.iter().map(ToString::to_string).collect();
    v.sort();
    v
}

/// The legal move strings of `fen` in generation order, space-separated.
pub(crate) fn moves_in_order<P: Position>(fen: &str) -> String {
    let mut list = MoveList::new();
    pos::<P>(fen).legal_moves(&mut list);
    let strings: Vec<String> = list.iter().map(ToString::to_string).collect();
    strings.join(" ")
}

/// The sorted legal move strings of `fen` that start with `prefix` (a
/// from-square, or from- and to-square).
pub(crate) fn moves_starting<P: Position>(fen: &str, prefix: &str) -> Vec<String> {
    move_strings(&pos::<P>(fen))
        .into_iter()
        .filter(|s| s.starts_with(prefix))
        .collect()
}

/// `v` as owned strings, sorted, to compare with [`move_strings`].
pub(crate) fn sorted(v: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = v.iter().map(ToString::to_string).collect();
    v.sort();
    v
}

/// The FEN after playing the move strings `line` from `fen`, checking the
/// incremental key against the key from scratch after each move.
pub(crate) fn play<P: Position>(fen: &str, line: &[&str]) -> String {
    let mut p = pos::<P>(fen);
    for s in line {
        let m = p
            .parse_move(s)
            .unwrap_or_else(|e| panic!("{s} in {}: {e}", p.fen()));
        p.make(m);
        assert_eq!(p.key(), p.key_from_scratch(), "key after {s}");
    }
    p.fen()
}
