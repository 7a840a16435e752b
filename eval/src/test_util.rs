//! Helpers shared by the evaluation tests.

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
