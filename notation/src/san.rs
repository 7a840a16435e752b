//! Standard algebraic notation for chess moves, written from movegen's legal
//! moves: piece letter, the least disambiguation (file, then rank, then
//! both), `x`, `=Q`, `+`/`#`, `O-O`/`O-O-O`.
//!
//! ```
//! use notation::san::san;
//! use movegen::{Chess, Position};
//! let pos = Chess::startpos();
//! let m = pos.parse_move("g1f3").unwrap();
//! assert_eq!(san(&pos, m), "Nf3");
//! ```

use movegen::{MoveKind, MoveList, Position, Role};

/// The SAN of the legal move `m` in `pos`.
#[must_use]
pub fn san<P: Position>(pos: &P, m: movegen::Move) -> String {
    let mut out = String::new();
    if m.kind() == MoveKind::Castle {
        out.push_str(if m.to().file() > m.from().file() {
            "O-O"
        } else {
            "O-O-O"
        });
    } else {
        let role = pos.piece_at(m.from()).map_or(Role::Pawn, |p| p.role);
        if role == Role::Pawn {
            if m.is_capture() {
                out.push((b'a' + m.from().file().0) as char);
            }
        } else {
            out.push(role.char().to_ascii_uppercase());
            let mut moves = MoveList::new();
            pos.legal_moves(&mut moves);
            let rivals: Vec<_> = moves
                .iter()
                .filter(|o| {
                    o.to() == m.to()
                        && o.from() != m.from()
                        && pos.piece_at(o.from()).map(|p| p.role) == Some(role)
                })
                .collect();
            if !rivals.is_empty() {
                let file_unique = rivals.iter().all(|o| o.from().file() != m.from().file());
                let rank_unique = rivals.iter().all(|o| o.from().rank() != m.from().rank());
                if file_unique {
                    out.push((b'a' + m.from().file().0) as char);
                } else if rank_unique {
                    out.push((b'1' + m.from().rank().0) as char);
                } else {
                    out.push_str(&m.from().to_string());
                }
            }
        }
        if m.is_capture() {
            out.push('x');
        }
        out.push_str(&m.to().to_string());
        if let Some(p) = m.promotion() {
            out.push('=');
            out.push(p.char().to_ascii_uppercase());
        }
    }
    let mut after = pos.clone();
    after.make(m);
    if after.is_check() {
        out.push(if after.count_legal() == 0 { '#' } else { '+' });
    }
    out
}

/// Finds the legal move whose SAN is `s` (check marks and `!?` optional).
#[must_use]
pub fn parse_san<P: Position>(pos: &P, s: &str) -> Option<movegen::Move> {
    let bare = |x: &str| x.trim_end_matches(['+', '#', '!', '?']).replace('0', "O");
    let want = bare(s);
    let mut moves = MoveList::new();
    pos.legal_moves(&mut moves);
    moves.iter().copied().find(|&m| bare(&san(pos, m)) == want)
}

#[cfg(test)]
mod tests {
    use super::*;
    use movegen::Chess;

    fn sans(fen: &str, moves: &[&str]) -> Vec<String> {
        let pos = Chess::from_fen(fen).unwrap();
        moves
            .iter()
            .map(|s| san(&pos, pos.parse_move(s).unwrap()))
            .collect()
    }

    #[test]
    fn pieces_pawns_captures_promotions() {
        // Knights on b1 and f3 can both reach d2; rooks a1/a3 share a file.
        let got = sans(
            "4k3/1P6/8/8/8/R4N2/4P3/RN2K3 w - - 0 1",
            &[
                "b1d2", "f3d2", "a1a2", "a3a2", "e2e4", "b7b8q", "b7b8n", "f3g5",
            ],
        );
        assert_eq!(
            got,
            ["Nbd2", "Nfd2", "R1a2", "R3a2", "e4", "b8=Q+", "b8=N", "Ng5"]
        );
        let got = sans(
            "r3k2r/8/8/3pP3/8/8/8/R3K2R w KQkq d6 0 1",
            &["e5d6", "e1g1", "e1c1", "a1a8"],
        );
        assert_eq!(got, ["exd6", "O-O", "O-O-O", "Rxa8+"]);
        // Queens a1, e1, e5 all reach c3: the file suffices for a1, the
        // rank for e5, and e1 shares its file with e5 and rank with a1.
        let got = sans(
            "8/8/7k/4Q3/8/8/8/Q3Q2K w - - 0 1",
            &["a1c3", "e1c3", "e5c3"],
        );
        assert_eq!(got, ["Qac3", "Qe1c3", "Q5c3"]);
    }

    #[test]
    fn mate_sign_and_parse() {
        let pos = Chess::from_fen("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1").unwrap();
        let m = pos.parse_move("a1a8").unwrap();
        assert_eq!(san(&pos, m), "Ra8#");
        assert_eq!(parse_san(&pos, "Ra8#"), Some(m));
        assert_eq!(parse_san(&pos, "Ra8"), Some(m));
        assert_eq!(parse_san(&pos, "Ra9"), None);
        let start = Chess::startpos();
        assert_eq!(parse_san(&start, "e4"), start.parse_move("e2e4").ok());
    }
}
