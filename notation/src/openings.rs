//! Where games start: FEN/EPD lines, lines of move strings played from the
//! start position, or seeded random plies. Every opening is validated with
//! movegen before any game is played.
//!
//! ```
//! use notation::openings::parse_openings;
//! use movegen::Chess;
//! let ops = parse_openings::<Chess>("e2e4 e7e5\n# comment\n4k3/8/8/8/8/8/8/4K2R w K - bm O-O;\n").unwrap();
//! assert_eq!(ops.len(), 2);
//! assert_eq!(ops[0].moves, ["e2e4", "e7e5"]);
//! assert_eq!(ops[1].fen.as_deref(), Some("4k3/8/8/8/8/8/8/4K2R w K - 0 1"));
//! ```

use movegen::{status, MoveList, Position, SplitMix};

/// A start: an optional FEN (else the start position) and moves after it.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Opening {
    /// The FEN as movegen writes it, `None` for the start position.
    pub fen: Option<String>,
    /// Move strings played from there (part of the game record).
    pub moves: Vec<String>,
}

/// The openings' generator for `seed`. Starting one increment into the
/// stream keeps every published `--seed` drawing the openings it drew before
/// the workspace had one generator.
#[must_use]
pub const fn seeded(seed: u64) -> SplitMix {
    SplitMix::new(seed.wrapping_add(0x9E37_79B9_7F4A_7C15))
}

/// Plays `moves` from `start`, returning the position and the keys of the
/// positions before the current one.
///
/// # Errors
/// The 1-based index and text of the first illegal move.
pub fn replay<P: Position>(start: &P, moves: &[String]) -> Result<(P, Vec<u64>), String> {
    let mut pos = start.clone();
    let mut keys = Vec::with_capacity(moves.len());
    for (i, s) in moves.iter().enumerate() {
        let m = pos
            .parse_move(s)
            .map_err(|e| format!("move {}: {e}", i + 1))?;
        keys.push(pos.key());
        pos.make(m);
    }
    Ok((pos, keys))
}

/// Parses an openings file: one opening per line; blank lines and lines
/// starting with `#` are skipped. A line with `/` is a FEN or EPD (the first
/// four fields, plus the counters if the next two fields are numbers);
/// otherwise it is move strings from the start position (move numbers like
/// `1.` are ignored).
///
/// # Errors
/// `line N: reason` for the first bad line, or if there is no opening.
pub fn parse_openings<P: Position>(text: &str) -> Result<Vec<Opening>, String> {
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let err = |e: String| format!("line {}: {e}", i + 1);
        let opening = if line.contains('/') {
            let fields: Vec<&str> = line.split_whitespace().collect();
            let mut n = 4.min(fields.len());
            if fields.len() >= 6
                && fields[4].parse::<u32>().is_ok()
                && fields[5].parse::<u32>().is_ok()
            {
                n = 6;
            }
            let mut fen = fields[..n].join(" ");
            if n == 4 {
                if let Some(counters) = epd_counters(&fields[4..]) {
                    fen.push_str(&counters);
                }
            }
            let pos = P::from_fen(&fen).map_err(|e| err(format!("bad FEN {fen:?}: {e}")))?;
            Opening {
                fen: Some(pos.fen()),
                moves: Vec::new(),
            }
        } else {
            let moves: Vec<String> = line
                .split_whitespace()
                .filter(|w| !w.ends_with('.'))
                .map(str::to_string)
                .collect();
            replay(&P::startpos(), &moves).map_err(err)?;
            Opening { fen: None, moves }
        };
        let (pos, keys) = start_of::<P>(&opening).map_err(err)?;
        if status(&pos, &keys).is_some() {
            return Err(err("the game is already over there".into()));
        }
        out.push(opening);
    }
    if out.is_empty() {
        return Err("no openings in the file".into());
    }
    Ok(out)
}

/// The counters of EPD's `hmvc N;` and `fmvn N;` operations (as OpenBench
/// writes its genfens books) as FEN's last two fields, ` N M`; `None`
/// without them.
fn epd_counters(ops: &[&str]) -> Option<String> {
    let op = |name: &str| {
        ops.windows(2)
            .find(|w| w[0] == name)
            .and_then(|w| w[1].trim_end_matches(';').parse::<u32>().ok())
    };
    match (op("hmvc"), op("fmvn")) {
        (None, None) => None,
        (h, f) => Some(format!(" {} {}", h.unwrap_or(0), f.unwrap_or(1))),
    }
}

/// The position an opening reaches, with its key history.
///
/// # Errors
/// A reason if the FEN or a move is bad.
pub fn start_of<P: Position>(opening: &Opening) -> Result<(P, Vec<u64>), String> {
    let start = match &opening.fen {
        Some(f) => P::from_fen(f).map_err(|e| format!("bad FEN {f:?}: {e}"))?,
        None => P::startpos(),
    };
    replay(&start, &opening.moves)
}

/// `plies` random legal plies from the start position, seeded; stops early
/// rather than reach a finished game.
#[must_use]
pub fn random_opening<P: Position>(plies: u32, seed: u64) -> Opening {
    let mut rng = seeded(seed);
    let mut pos = P::startpos();
    let mut keys = Vec::new();
    let mut moves = Vec::new();
    for _ in 0..plies {
        let mut legal = MoveList::new();
        pos.legal_moves(&mut legal);
        // Try moves in a random order until one keeps the game going.
        let mut found = false;
        while !legal.is_empty() {
            let i = rng.below(legal.len());
            let m = legal.swap_remove(i);
            let mut next = pos.clone();
            next.make(m);
            keys.push(pos.key());
            if status(&next, &keys).is_none() {
                moves.push(m.to_string());
                pos = next;
                found = true;
                break;
            }
            keys.pop();
        }
        if !found {
            break;
        }
    }
    Opening { fen: None, moves }
}

#[cfg(test)]
mod tests {
    use super::*;
    use movegen::Chess;

    #[test]
    fn files_with_fens_epds_and_moves() {
        let text = "\n# openings\n1. e2e4 e7e5 2. g1f3\n\
                    rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1\n\
                    4k3/8/8/8/8/8/8/4K2R w K - c0 \"x\"; id \"y\";\n\
                    4k3/8/8/8/8/8/8/4K2R w K - 7 40\n\
                    4k3/8/8/8/8/8/8/4K2R w K - hmvc 3; fmvn 12;\n";
        let ops = parse_openings::<Chess>(text).unwrap();
        assert_eq!(ops.len(), 5);
        assert_eq!(ops[0].fen, None);
        assert_eq!(ops[0].moves, ["e2e4", "e7e5", "g1f3"]);
        // The writer drops an en-passant square no capture can use.
        assert_eq!(
            ops[1].fen.as_deref(),
            Some("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1")
        );
        assert_eq!(
            ops[2].fen.as_deref(),
            Some("4k3/8/8/8/8/8/8/4K2R w K - 0 1")
        );
        assert_eq!(
            ops[3].fen.as_deref(),
            Some("4k3/8/8/8/8/8/8/4K2R w K - 7 40")
        );
        // OpenBench's genfens books carry the counters as EPD operations.
        assert_eq!(
            ops[4].fen.as_deref(),
            Some("4k3/8/8/8/8/8/8/4K2R w K - 3 12")
        );
    }

    #[test]
    fn bad_lines_are_named() {
        let e = parse_openings::<Chess>("e2e4\ne2e4 e2e4\n").unwrap_err();
        assert!(e.starts_with("line 2: move 2"), "{e}");
        let e = parse_openings::<Chess>("8/8/8 w - -\n").unwrap_err();
        assert!(e.starts_with("line 1: bad FEN"), "{e}");
        let e = parse_openings::<Chess>("# nothing\n\n").unwrap_err();
        assert_eq!(e, "no openings in the file");
        // Fool's mate: the game is over.
        let e = parse_openings::<Chess>("f2f3 e7e5 g2g4 d8h4").unwrap_err();
        assert!(e.contains("already over"), "{e}");
    }

    #[test]
    fn random_openings_are_seeded_and_legal() {
        let a = random_opening::<Chess>(8, 42);
        let b = random_opening::<Chess>(8, 42);
        let c = random_opening::<Chess>(8, 43);
        assert_eq!(a, b);
        assert_ne!(a.moves, c.moves);
        assert_eq!(a.moves.len(), 8);
        assert!(replay(&Chess::startpos(), &a.moves).is_ok());
    }

    #[test]
    fn rng_below_stays_in_range() {
        let mut r = seeded(1);
        let mut seen = [false; 5];
        for _ in 0..200 {
            seen[r.below(5)] = true;
        }
        assert!(seen.iter().all(|&s| s));
    }
}
