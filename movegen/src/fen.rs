//! FEN syntax shared by the three variants: splitting into fields and reading
//! the side, castling, en-passant and clock fields. Each variant reads its own
//! board field and checks the semantics against its rules.

use crate::bitboard::Bitboard;
use crate::types::{Color, Square};
use std::fmt;

/// The FEN field an error is about.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum FenField {
    /// The whole string (wrong number of fields).
    Fields,
    /// Field 1: piece placement.
    Board,
    /// Field 2: side to move.
    Side,
    /// Field 3: castling rights.
    Castling,
    /// Field 4: en-passant square.
    EnPassant,
    /// Field 5: half-move clock.
    Halfmove,
    /// Field 6: full-move number.
    Fullmove,
}

impl FenField {
    /// Human name including the field number.
    #[must_use]
    pub const fn describe(self) -> &'static str {
        match self {
            FenField::Fields => "fields",
            FenField::Board => "field 1 (board)",
            FenField::Side => "field 2 (side to move)",
            FenField::Castling => "field 3 (castling)",
            FenField::EnPassant => "field 4 (en passant)",
            FenField::Halfmove => "field 5 (half-move clock)",
            FenField::Fullmove => "field 6 (full-move number)",
        }
    }
}

/// Why a FEN was rejected: the field and a reason quoting the bad token.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct FenError {
    /// The offending field.
    pub field: FenField,
    /// What is wrong, quoting the token.
    pub reason: String,
}

impl FenError {
    /// Builds an error.
    #[must_use]
    pub fn new(field: FenField, reason: impl Into<String>) -> FenError {
        FenError {
            field,
            reason: reason.into(),
        }
    }
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid FEN, {}: {}", self.field.describe(), self.reason)
    }
}

impl std::error::Error for FenError {}

/// The six fields of a FEN after syntax checks (board still raw text).
#[derive(Clone, Debug)]
pub struct FenParts<'a> {
    /// Raw piece placement.
    pub board: &'a str,
    /// Side to move.
    pub turn: Color,
    /// Castling rights as 4 bits: 1 = K, 2 = Q, 4 = k, 8 = q.
    pub castling: u8,
    /// En-passant square, if given.
    pub ep: Option<Square>,
    /// Half-move clock.
    pub halfmoves: u32,
    /// Full-move number (at least 1).
    pub fullmoves: u32,
}

/// White short castling right.
pub const WHITE_KING_SIDE: u8 = 1;
/// White long castling right.
pub const WHITE_QUEEN_SIDE: u8 = 2;
/// Black short castling right.
pub const BLACK_KING_SIDE: u8 = 4;
/// Black long castling right.
pub const BLACK_QUEEN_SIDE: u8 = 8;

/// Splits a FEN into fields and parses all but the board.
///
/// # Errors
/// A [`FenError`] naming the first bad field.
pub fn split(fen: &str) -> Result<FenParts<'_>, FenError> {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    if !(4..=6).contains(&fields.len()) {
        return Err(FenError::new(
            FenField::Fields,
            format!(
                "expected 4 to 6 space-separated fields, found {}",
                fields.len()
            ),
        ));
    }
    let turn = match fields[1] {
        "w" => Color::White,
        "b" => Color::Black,
        other => {
            return Err(FenError::new(
                FenField::Side,
                format!("expected w or b, got \"{other}\""),
            ))
        }
    };
    let castling = parse_castling(fields[2])?;
    let ep = match fields[3] {
        "-" => None,
        s => Some(Square::parse(s).ok_or_else(|| {
            FenError::new(
                FenField::EnPassant,
                format!("expected a square or -, got \"{s}\""),
            )
        })?),
    };
    let halfmoves = match fields.get(4) {
        None => 0,
        Some(s) => s
            .parse::<u32>()
            .ok()
            .filter(|&n| n <= 10_000)
            .ok_or_else(|| {
                FenError::new(
                    FenField::Halfmove,
                    format!("expected a number, got \"{s}\""),
                )
            })?,
    };
    let fullmoves = match fields.get(5) {
        None => 1,
        Some(s) => s
            .parse::<u32>()
            .ok()
            .filter(|&n| (1..=100_000).contains(&n))
            .ok_or_else(|| {
                FenError::new(
                    FenField::Fullmove,
                    format!("expected a number ≥ 1, got \"{s}\""),
                )
            })?,
    };
    Ok(FenParts {
        board: fields[0],
        turn,
        castling,
        ep,
        halfmoves,
        fullmoves,
    })
}

fn parse_castling(s: &str) -> Result<u8, FenError> {
    if s == "-" {
        return Ok(0);
    }
    let mut rights = 0u8;
    for c in s.chars() {
        let bit = match c {
            'K' => WHITE_KING_SIDE,
            'Q' => WHITE_QUEEN_SIDE,
            'k' => BLACK_KING_SIDE,
            'q' => BLACK_QUEEN_SIDE,
            _ => {
                return Err(FenError::new(
                    FenField::Castling,
                    format!("expected KQkq letters or -, got \"{s}\""),
                ))
            }
        };
        if rights & bit != 0 {
            return Err(FenError::new(
                FenField::Castling,
                format!("repeated letter in \"{s}\""),
            ));
        }
        rights |= bit;
    }
    Ok(rights)
}

/// Writes castling rights (4 bits) as `KQkq` or `-`.
#[must_use]
pub fn castling_string(rights: u8) -> String {
    let mut s = String::new();
    for (bit, c) in [
        (WHITE_KING_SIDE, 'K'),
        (WHITE_QUEEN_SIDE, 'Q'),
        (BLACK_KING_SIDE, 'k'),
        (BLACK_QUEEN_SIDE, 'q'),
    ] {
        if rights & bit != 0 {
            s.push(c);
        }
    }
    if s.is_empty() {
        s.push('-');
    }
    s
}

/// A FEN from its placement field and the five fields every variant writes
/// alike.
pub(crate) fn write(
    board: &str,
    turn: Color,
    castling: u8,
    ep: Option<Square>,
    halfmoves: u32,
    fullmoves: u32,
) -> String {
    format!(
        "{board} {} {} {} {halfmoves} {fullmoves}",
        turn.char(),
        castling_string(castling),
        ep.map_or_else(|| "-".to_string(), |s| s.to_string()),
    )
}

/// An en-passant-field error quoting the square.
pub(crate) fn ep_error(ep: Square, why: &str) -> FenError {
    FenError::new(FenField::EnPassant, format!("\"{ep}\": {why}"))
}

/// The checks RULES.md §1 makes of an en-passant square in every variant:
/// on the rank a double step of the opponent skips, and empty (`occupied`
/// holds the occupied squares). Who could have made the step is the
/// variant's question.
///
/// # Errors
/// An en-passant-field [`FenError`] quoting the square.
pub(crate) fn check_ep_rank_and_emptiness(
    ep: Square,
    turn: Color,
    occupied: Bitboard,
) -> Result<(), FenError> {
    if ep.rank() != turn.relative_rank(5) {
        return Err(ep_error(ep, "not on the rank a double step skips"));
    }
    if occupied.contains(ep) {
        return Err(ep_error(ep, "the square is occupied"));
    }
    Ok(())
}

/// Splits a board field into 8 rank strings, rank 8 first.
///
/// # Errors
/// If there are not exactly 8 ranks.
pub fn ranks(board: &str) -> Result<Vec<&str>, FenError> {
    let ranks: Vec<&str> = board.split('/').collect();
    if ranks.len() != 8 {
        return Err(FenError::new(
            FenField::Board,
            format!("expected 8 ranks, found {}", ranks.len()),
        ));
    }
    // `k16` adds up to eight squares but is not a FEN: a run of empty
    // squares is one digit.
    if let Some(rank) = ranks.iter().find(|r| {
        r.as_bytes()
            .windows(2)
            .any(|w| w.iter().all(u8::is_ascii_digit))
    }) {
        return Err(FenError::new(
            FenField::Board,
            format!("rank \"{rank}\": two digits in a row"),
        ));
    }
    Ok(ranks)
}

/// The standard start position, shared by all three variants.
pub const STARTPOS: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_runs_are_single_digits() {
        assert!(ranks("k16/8/8/8/8/8/8/K7").is_err());
        assert!(ranks("8/8/8/8/8/8/8/11K5").is_err());
        assert!(ranks("k7/8/8/8/8/8/8/K7").is_ok());
    }

    #[test]
    fn errors_name_the_field() {
        let cases = [
            ("8/8 w", FenField::Fields),
            ("8/8/8/8/8/8/8/8 x - - 0 1", FenField::Side),
            ("8/8/8/8/8/8/8/8 w KX - 0 1", FenField::Castling),
            ("8/8/8/8/8/8/8/8 w KK - 0 1", FenField::Castling),
            ("8/8/8/8/8/8/8/8 w - e9 0 1", FenField::EnPassant),
            ("8/8/8/8/8/8/8/8 w - - x 1", FenField::Halfmove),
            ("8/8/8/8/8/8/8/8 w - - 0 0", FenField::Fullmove),
            ("8/8/8/8/8/8/8/8 w - - 0 -3", FenField::Fullmove),
        ];
        for (fen, field) in cases {
            assert_eq!(split(fen).unwrap_err().field, field, "{fen}");
        }
        let e = split("8/8/8/8/8/8/8/8 x - - 0 1").unwrap_err();
        assert!(e.to_string().contains("side to move") && e.to_string().contains("\"x\""));
    }

    #[test]
    fn four_fields_default_clocks() {
        let p = split("8/8/8/8/8/8/8/8 b Kq e3").unwrap();
        assert_eq!(
            (p.turn, p.castling, p.halfmoves, p.fullmoves),
            (Color::Black, 9, 0, 1)
        );
        assert_eq!(p.ep, Square::parse("e3"));
    }
}
