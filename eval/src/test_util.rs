//! Helpers shared by the evaluation tests.

use movegen::{MoveList, Position};

/// The colour-swapped, rank-mirrored FEN with the other side to move: the
/// same position seen from the other side, so every evaluation must give it
/// the same score.
pub fn mirror(fen: &str) -> String {
    let f: Vec<&str> = fen.split_whitespace().collect();
    let swap = |s: &str| -> String {
        s.chars()
            .map(|c| {
                if c.is_ascii_uppercase() {
                    c.to_ascii_lowercase()
                } else {
                    c.to_ascii_uppercase()
                }
            })
            .collect()
    };
    let board: Vec<String> = f[0].split('/').rev().map(swap).collect();
    let side = if f[1] == "w" { "b" } else { "w" };
    // Castling rights keep the KQkq order.
    let castling: String = if f[2] == "-" {
        "-".to_string()
    } else {
        let s = swap(f[2]);
        "KQkq".chars().filter(|c| s.contains(*c)).collect()
    };
    let ep = if f[3] == "-" {
        "-".to_string()
    } else {
        let b = f[3].as_bytes();
        format!("{}{}", char::from(b[0]), char::from(b'9' - (b[1] - b'0')))
    };
    format!(
        "{} {side} {castling} {ep} {} {}",
        board.join("/"),
        f[4],
        f[5]
    )
}

/// Positions from seeded random games: every position of `games` games of
/// at most `plies` random legal moves from the start.
pub fn random_positions<P: Position>(games: u64, plies: usize) -> Vec<P> {
    let mut out = Vec::new();
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    for _ in 0..games {
        let mut pos = P::startpos();
        for _ in 0..plies {
            let mut list = MoveList::new();
            pos.legal_moves(&mut list);
            if list.is_empty() {
                break;
            }
            // xorshift64*: enough to spread the games.
            state ^= state >> 12;
            state ^= state << 25;
            state ^= state >> 27;
            let r = state.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 32;
            let m = list[(r as usize) % list.len()];
            pos.make(m);
            out.push(pos.clone());
        }
    }
    out
}
