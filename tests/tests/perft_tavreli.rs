//! Tavreli perft: every line and depth of `tests/data/perft/tavreli.epd`
//! (counts from an independent implementation of RULES.md). Debug builds
//! skip the depths above a node budget so `cargo test` stays quick;
//! `cargo test --release` runs them all.

use movegen::{perft, Position, Tavreli};

/// Largest expected count checked in debug builds.
const DEBUG_NODE_LIMIT: u64 = 700_000;

/// `(fen, [(depth, nodes)])` from the suite; panics on a malformed line.
fn suite() -> Vec<(String, Vec<(u32, u64)>)> {
    let path = volkhv_tests::suite_path("tavreli.epd");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let mut out = Vec::new();
    for line in text.lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut parts = line.split(';');
        let fen = parts.next().unwrap_or_default().trim().to_string();
        let counts = parts
            .map(|p| {
                let (d, n) = p
                    .trim()
                    .strip_prefix('D')
                    .and_then(|r| r.split_once(' '))
                    .unwrap_or_else(|| panic!("bad entry \"{p}\""));
                (d.parse().unwrap(), n.trim().parse().unwrap())
            })
            .collect();
        out.push((fen, counts));
    }
    out
}

#[test]
fn shared_tavreli_suite() {
    let limit = if cfg!(debug_assertions) {
        DEBUG_NODE_LIMIT
    } else {
        u64::MAX
    };
    let entries = suite();
    assert_eq!(entries.len(), 25);
    let mut checked = 0;
    for (fen, counts) in &entries {
        let mut pos = Tavreli::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        assert_eq!(
            &pos.fen(),
            fen,
            "the suite's FENs are written as our writer does"
        );
        for &(depth, expected) in counts {
            if expected <= limit {
                assert_eq!(perft(&mut pos, depth), expected, "{fen} depth {depth}");
                checked += 1;
            }
        }
    }
    let total: usize = entries.iter().map(|(_, c)| c.len()).sum();
    assert_eq!(total, 86);
    if limit == u64::MAX {
        assert_eq!(checked, total);
    } else {
        assert!(checked >= 80, "only {checked} depths checked");
    }
}
