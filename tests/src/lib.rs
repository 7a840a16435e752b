//! Helpers shared by the integration tests: a seeded generator, random games,
//! the reference perft suites of `tests/data/perft/`, and whole-tree consistency checks.

use movegen::{MoveList, Position, SplitMix};
use std::path::PathBuf;

/// Positions along `games` seeded random games of at most `plies` plies each
/// (a game stops early at mate or stalemate).
pub fn random_positions<P: Position>(seed: u64, games: usize, plies: usize) -> Vec<P> {
    let mut rng = SplitMix::new(seed);
    let mut out = Vec::new();
    for _ in 0..games {
        let mut pos = P::startpos();
        for _ in 0..plies {
            let mut moves = MoveList::new();
            pos.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            let m = moves[rng.below(moves.len())];
            pos.make(m);
            out.push(pos.clone());
        }
    }
    out
}

/// Path of a reference suite in `tests/data/perft/` (byte-for-byte copies of
/// the independent implementation's suites, so a bare clone can run them).
#[must_use]
pub fn suite_path(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("data/perft")
        .join(name)
}

/// Runs every `(fen, depth, expected)` of an EPD suite whose expected count is
/// at most `max_nodes`; returns how many were checked. Panics on a mismatch.
///
/// # Panics
/// On a missing file, a bad line or a wrong count.
#[must_use]
pub fn run_suite<P: Position>(name: &str, max_nodes: u64) -> usize {
    let path = suite_path(name);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let mut checked = 0;
    for line in text.lines() {
        let Some(entry) = perft::parse_epd_line(line).expect("valid EPD line") else {
            continue;
        };
        let mut pos = P::from_fen(&entry.fen).unwrap_or_else(|e| panic!("{}: {e}", entry.fen));
        for &(depth, expected) in &entry.expected {
            if expected <= max_nodes {
                let got = perft::count(&mut pos, depth, false);
                assert_eq!(got, expected, "{} depth {depth}", entry.fen);
                checked += 1;
            }
        }
    }
    checked
}

/// Node budget per suite entry: everything in release builds, a slice in debug.
#[must_use]
pub fn node_budget(release: u64, debug: u64) -> u64 {
    if cfg!(debug_assertions) {
        debug
    } else {
        release
    }
}

/// Walks the whole legal tree to `depth` checking at every node that the
/// incremental key equals the key from scratch, that the FEN reads back to the
/// same position and key, and that unmake restores the position exactly.
/// Returns the number of nodes visited.
///
/// # Panics
/// On any inconsistency.
pub fn check_tree<P: Position + PartialEq>(pos: &mut P, depth: u32) -> u64 {
    assert_eq!(pos.key(), pos.key_from_scratch(), "key of {}", pos.fen());
    let fen = pos.fen();
    let reread = P::from_fen(&fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    assert_eq!(reread.fen(), fen);
    assert_eq!(reread.key(), pos.key(), "key after FEN round trip of {fen}");
    if depth == 0 {
        return 1;
    }
    let mut moves = MoveList::new();
    pos.legal_moves(&mut moves);
    let mut nodes = 1;
    for &m in &moves {
        assert_eq!(
            pos.parse_move(&m.to_string()),
            Ok(m),
            "string of {m} in {fen}"
        );
        let before = pos.clone();
        let undo = pos.make(m);
        nodes += check_tree(pos, depth - 1);
        pos.unmake(m, undo);
        assert!(*pos == before, "unmake of {m} in {fen}");
    }
    nodes
}
