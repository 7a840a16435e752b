//! PlunderChess perft: every line of `tests/data/perft/plunder.epd` (computed
//! by an independent implementation of RULES.md). Debug builds check the
//! depths up to a node limit so `cargo test` stays fast; `cargo test
//! --release` checks every depth.

use movegen::{perft, Plunder, Position};

/// Expected counts above this are skipped in debug builds.
const DEBUG_NODE_LIMIT: u64 = 600_000;

fn suite() -> String {
    let path = volkhv_tests::suite_path("plunder.epd");
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

#[test]
fn shared_plunder_suite() {
    let limit = if cfg!(debug_assertions) {
        DEBUG_NODE_LIMIT
    } else {
        u64::MAX
    };
    let (mut checked, mut skipped, mut lines) = (0, 0, 0);
    for line in suite().lines() {
        let Some(entry) = perft::parse_epd_line(line).expect("valid EPD line") else {
            continue;
        };
        lines += 1;
        let mut pos =
            Plunder::from_fen(&entry.fen).unwrap_or_else(|e| panic!("{}: {e}", entry.fen));
        assert_eq!(pos.fen(), entry.fen, "FEN round trip");
        for &(depth, expected) in &entry.expected {
            if expected > limit {
                skipped += 1;
                continue;
            }
            assert_eq!(
                perft(&mut pos, depth),
                expected,
                "{} depth {depth}",
                entry.fen
            );
            checked += 1;
        }
    }
    assert_eq!(lines, 25, "plunder.epd has 25 positions");
    assert!(checked >= 80, "only {checked} depths checked");
    if !cfg!(debug_assertions) {
        assert_eq!(skipped, 0);
    }
}
