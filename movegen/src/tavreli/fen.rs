//! The Tavreli FEN board field (RULES.md §4.6): towers `( … )` bottom to top,
//! pawns with an optional `=X`, promoted pawns `X~`; reading with errors that
//! quote the offending token, and writing.
//!
//! ```
//! use movegen::{Position, Tavreli};
//! let pos = Tavreli::from_fen("4k3/8/8/3(Pr)4/8/8/8/4K3 w - - 0 1").unwrap();
//! assert_eq!(pos.tower(movegen::Square::parse("d5").unwrap()).len(), 2);
//! assert!(Tavreli::from_fen("4k3/8/8/3()4/8/8/8/4K3 w - - 0 1").is_err());
//! ```

use super::tower::{home_piece, Tower, TowerPiece, TOWER_CAPACITY};
use crate::fen::{self, FenError, FenField};
use crate::types::{Color, File, Rank, Role, Square};

fn bad<const N: usize>(key: &'static str, values: [(&'static str, String); N]) -> FenError {
    FenError::keyed(FenField::Board, key, values)
}

/// Reads one piece token at `bytes[i..]` on a square of `file`: returns the
/// piece and the bytes consumed.
fn piece_token(bytes: &[u8], i: usize, file: File) -> Result<(TowerPiece, usize), FenError> {
    let quote = |end: usize| String::from_utf8_lossy(&bytes[i..end.min(bytes.len())]).into_owned();
    let c = char::from(bytes[i]);
    let Some(role) = c
        .is_ascii_alphabetic()
        .then(|| Role::from_char(c))
        .flatten()
    else {
        return Err(bad("fen.tower_letter", [("token", quote(i + 1))]));
    };
    let color = if c.is_ascii_uppercase() {
        Color::White
    } else {
        Color::Black
    };
    match bytes.get(i + 1) {
        Some(b'=') => {
            if role != Role::Pawn {
                return Err(bad("fen.tower_not_pawn", [("token", quote(i + 3))]));
            }
            let target = bytes.get(i + 2).map(|&b| char::from(b));
            match target.and_then(Role::from_char) {
                Some(
                    p @ (Role::Knight | Role::Bishop | Role::Rook | Role::Queen | Role::Helgi),
                ) => Ok((TowerPiece::pawn(color, p), 3)),
                _ => Err(bad("fen.tower_promotion", [("token", quote(i + 3))])),
            }
        }
        Some(b'~') => match role {
            Role::Knight | Role::Bishop | Role::Rook | Role::Queen | Role::Helgi => {
                Ok((TowerPiece::promoted(color, role), 2))
            }
            _ => Err(bad("fen.tower_promoted", [("token", quote(i + 2))])),
        },
        _ if role == Role::Pawn => Ok((TowerPiece::pawn(color, home_piece(file)), 1)),
        _ => Ok((TowerPiece::new(color, role), 1)),
    }
}

/// Checks what RULES.md §4.5 says about one tower on `sq`; `token` is the
/// text it was read from.
fn check_tower(t: Tower, sq: Square, token: &str) -> Result<(), FenError> {
    let bad = |key| {
        bad(
            key,
            [("token", token.to_string()), ("square", sq.to_string())],
        )
    };
    let h = t.len();
    for (d, p) in t.iter().enumerate() {
        if d + 1 < h && p.role() == Role::King {
            return Err(bad("fen.tower_king"));
        }
        if d + 1 < h && p.is_promoted() {
            return Err(bad("fen.tower_promoted_under"));
        }
    }
    if t.top().is_some_and(|p| p.must_promote_on(sq.rank())) {
        return Err(bad("fen.tower_pawn_top"));
    }
    Ok(())
}

/// Parses the board field into 64 towers (index = square).
///
/// # Errors
/// A [`FenError`] for the board field quoting the bad rank or token.
pub(super) fn parse_board(board: &str) -> Result<[Tower; 64], FenError> {
    let mut towers = [Tower::EMPTY; 64];
    for (ri, rank_str) in fen::ranks(board)?.into_iter().enumerate() {
        let rank = Rank(7 - ri as u8);
        let bytes = rank_str.as_bytes();
        let mut file = 0u8;
        let mut i = 0;
        while i < bytes.len() {
            if file >= 8 {
                return Err(bad("fen.tower_rank_long", [("text", rank_str.to_string())]));
            }
            let sq = Square::from_coords(File(file), rank);
            match bytes[i] {
                d @ b'1'..=b'8' => {
                    file += d - b'0';
                    i += 1;
                    if file > 8 {
                        return Err(bad("fen.tower_rank_long", [("text", rank_str.to_string())]));
                    }
                    continue;
                }
                b'(' => {
                    let Some(len) = bytes[i + 1..].iter().position(|&b| b == b')') else {
                        return Err(bad("fen.tower_parens", [("text", rank_str.to_string())]));
                    };
                    let inner = &bytes[i + 1..i + 1 + len];
                    let token = String::from_utf8_lossy(&bytes[i..i + len + 2]).into_owned();
                    if inner.contains(&b'(') {
                        return Err(bad("fen.tower_nested", [("token", token)]));
                    }
                    if inner.is_empty() {
                        return Err(bad("fen.tower_empty", [("text", rank_str.to_string())]));
                    }
                    let mut t = Tower::EMPTY;
                    let mut j = 0;
                    while j < inner.len() {
                        let (p, used) = piece_token(inner, j, File(file))?;
                        if !t.push(p) {
                            return Err(bad(
                                "fen.tower_high",
                                [("token", token), ("most", TOWER_CAPACITY.to_string())],
                            ));
                        }
                        j += used;
                    }
                    check_tower(t, sq, &token)?;
                    towers[sq.index()] = t;
                    i += len + 2;
                }
                b')' => {
                    return Err(bad("fen.tower_parens", [("text", rank_str.to_string())]));
                }
                _ => {
                    let (p, used) = piece_token(bytes, i, File(file))?;
                    let t = Tower::single(p);
                    check_tower(t, sq, &String::from_utf8_lossy(&bytes[i..i + used]))?;
                    towers[sq.index()] = t;
                    i += used;
                }
            }
            file += 1;
        }
        if file != 8 {
            return Err(bad(
                "fen.tower_rank_short",
                [("text", rank_str.to_string()), ("found", file.to_string())],
            ));
        }
    }
    Ok(towers)
}

/// Writes the board field.
pub(super) fn write_board(towers: &[Tower; 64]) -> String {
    let mut s = String::new();
    for rank in (0..8).rev() {
        let mut empty = 0;
        for file in 0..8 {
            let sq = Square::from_coords(File(file), Rank(rank));
            let t = towers[sq.index()];
            if t.is_empty() {
                empty += 1;
                continue;
            }
            if empty > 0 {
                s.push(char::from(b'0' + empty));
                empty = 0;
            }
            s.push_str(&t.token(File(file)));
        }
        if empty > 0 {
            s.push(char::from(b'0' + empty));
        }
        if rank > 0 {
            s.push('/');
        }
    }
    s
}
