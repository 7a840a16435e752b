//! Perft suites: reading EPD lines (`FEN ;D1 n ;D2 n …`) and counting nodes,
//! optionally in parallel over the root moves.

use movegen::{perft, FenError, MoveList, Position, MAX_PERFT_DEPTH};
use rayon::prelude::*;

/// One EPD line: a FEN and the expected node counts per depth.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EpdLine {
    /// The position.
    pub fen: String,
    /// `(depth, nodes)` pairs in file order.
    pub expected: Vec<(u32, u64)>,
}

/// Parses one EPD line; `Ok(None)` for blank lines and `#` comments.
///
/// # Errors
/// A message naming the malformed part.
pub fn parse_epd_line(line: &str) -> Result<Option<EpdLine>, String> {
    let line = line.trim();
    if line.is_empty() || line.starts_with('#') {
        return Ok(None);
    }
    let mut parts = line.split(';');
    let fen = parts.next().unwrap_or_default().trim().to_string();
    let mut expected = Vec::new();
    for part in parts {
        let part = part.trim();
        let (d, n) = part
            .strip_prefix('D')
            .and_then(|rest| rest.split_once(' '))
            .ok_or_else(|| format!("expected \"D<depth> <nodes>\", got \"{part}\""))?;
        let depth: u32 = d.parse().map_err(|_| format!("bad depth in \"{part}\""))?;
        if depth > MAX_PERFT_DEPTH {
            return Err(format!(
                "depth {depth} in \"{part}\" is above the limit {MAX_PERFT_DEPTH}"
            ));
        }
        let nodes = n
            .trim()
            .parse()
            .map_err(|_| format!("bad node count in \"{part}\""))?;
        expected.push((depth, nodes));
    }
    Ok(Some(EpdLine { fen, expected }))
}

/// Perft from a FEN of variant `P`, with `threads` > 1 splitting the root
/// moves over a rayon pool.
///
/// # Errors
/// The FEN error.
pub fn perft_fen<P: Position>(fen: &str, depth: u32, parallel: bool) -> Result<u64, FenError> {
    let mut pos = P::from_fen(fen)?;
    Ok(count::<P>(&mut pos, depth, parallel))
}

/// Perft of a position, optionally parallel over the root moves.
pub fn count<P: Position>(pos: &mut P, depth: u32, parallel: bool) -> u64 {
    if !parallel || depth < 3 {
        return perft(pos, depth);
    }
    let mut moves = MoveList::new();
    pos.legal_moves(&mut moves);
    moves
        .par_iter()
        .map(|&m| {
            let mut child = pos.clone();
            child.make(m);
            perft(&mut child, depth - 1)
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn epd_lines() {
        let l = parse_epd_line("8/8/8/8/8/8/8/K6k w - - 0 1 ;D1 3 ;D2 9")
            .unwrap()
            .unwrap();
        assert_eq!(l.fen, "8/8/8/8/8/8/8/K6k w - - 0 1");
        assert_eq!(l.expected, vec![(1, 3), (2, 9)]);
        assert_eq!(parse_epd_line("  # note").unwrap(), None);
        assert!(parse_epd_line("x ;D1").is_err());
        assert!(parse_epd_line("x ;Dx 4").is_err());
        assert!(parse_epd_line("x ;D21 4").is_err());
        assert!(parse_epd_line("x ;D20 4").is_ok());
    }
}
