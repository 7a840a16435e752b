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

    /// Its key in the board's catalogues (`fen.field.*`).
    #[must_use]
    pub const fn key(self) -> &'static str {
        match self {
            FenField::Fields => "fen.field.fields",
            FenField::Board => "fen.field.board",
            FenField::Side => "fen.field.side",
            FenField::Castling => "fen.field.castling",
            FenField::EnPassant => "fen.field.en_passant",
            FenField::Halfmove => "fen.field.halfmove",
            FenField::Fullmove => "fen.field.fullmove",
        }
    }
}

/// Why a FEN was rejected: the field, what is wrong as a key of
/// [`REASONS`] with the values it quotes (the bad token, a count…), and the
/// same in English. The key and values let the board's pages word it in
/// their reader's language (`fen.*` in its catalogues); the protocols and
/// the command line print the English.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct FenError {
    /// The offending field.
    pub field: FenField,
    /// What is wrong, in English, quoting the token.
    pub reason: String,
    /// The reason's key in [`REASONS`].
    pub key: &'static str,
    /// The values its template names.
    pub values: Vec<(&'static str, String)>,
}

/// Every reason a FEN is refused for: its key and its English template,
/// whose `{name}`s are the error's values. The board's catalogues
/// (`volkhv/web/lang-*.json`) hold the same keys in each language, and a
/// test there checks the English is this.
pub const REASONS: &[(&str, &str)] = &[
    (
        "fen.fields",
        "expected 4 to 6 space-separated fields, found {found}",
    ),
    ("fen.side", "expected w or b, got \"{text}\""),
    ("fen.ep_square", "expected a square or -, got \"{text}\""),
    ("fen.halfmove", "expected a number, got \"{text}\""),
    ("fen.fullmove", "expected a number ≥ 1, got \"{text}\""),
    ("fen.castling", "expected KQkq letters or -, got \"{text}\""),
    ("fen.castling_twice", "repeated letter in \"{text}\""),
    (
        "fen.ep_rank",
        "\"{square}\": not on the rank a double step skips",
    ),
    ("fen.ep_occupied", "\"{square}\": the square is occupied"),
    (
        "fen.ep_no_pawn",
        "\"{square}\": no enemy pawn in front of it",
    ),
    (
        "fen.ep_no_piece",
        "\"{square}\": no enemy piece in front of it could have double-stepped",
    ),
    (
        "fen.ep_no_tower",
        "\"{square}\": no enemy pawn in front of it that could have double-stepped",
    ),
    (
        "fen.ep_start_occupied",
        "\"{square}\": the double step's start square is occupied",
    ),
    ("fen.ranks", "expected 8 ranks, found {found}"),
    ("fen.two_digits", "rank \"{text}\": two digits in a row"),
    (
        "fen.empty_count",
        "rank {rank} \"{text}\": bad empty-square count '{char}'",
    ),
    (
        "fen.rank_long",
        "rank {rank} \"{text}\": more than 8 squares",
    ),
    (
        "fen.rank_short",
        "rank {rank} \"{text}\": describes {found} squares, expected 8",
    ),
    (
        "fen.piece_letter",
        "rank {rank} \"{text}\": unknown piece letter '{char}'",
    ),
    ("fen.unclosed", "rank {rank} \"{text}\": unclosed '('"),
    (
        "fen.paren",
        "rank {rank} \"{text}\": unexpected '(' after '{char}'",
    ),
    (
        "fen.white_kings",
        "expected exactly one white king, found {found}",
    ),
    (
        "fen.black_kings",
        "expected exactly one black king, found {found}",
    ),
    ("fen.pawn_last_rank", "pawn on its last rank"),
    ("fen.pawn_first_rank", "pawn on its first rank"),
    ("fen.side_in_check", "the side not to move is in check"),
    (
        "fen.white_too_many",
        "{found} white pieces, at most {most} allowed",
    ),
    (
        "fen.black_too_many",
        "{found} black pieces, at most {most} allowed",
    ),
    (
        "fen.vest_one",
        "vest \"{token}\": expected one vest letter (p n b r q)",
    ),
    (
        "fen.vest_letter",
        "vest \"{token}\": '{char}' is not a vest letter (p n b r q)",
    ),
    (
        "fen.vest_forbidden",
        "vest \"{token}\": a {piece} may not wear a {vest} vest (RULES.md 3.2)",
    ),
    ("fen.tower_letter", "unknown piece letter \"{token}\""),
    (
        "fen.tower_not_pawn",
        "\"{token}\": only a pawn has a promotion piece",
    ),
    (
        "fen.tower_promotion",
        "\"{token}\": a pawn promotes to R, N, B, Q or H",
    ),
    (
        "fen.tower_promoted",
        "\"{token}\": only Q, R, B, N, H can be promoted pawns",
    ),
    (
        "fen.tower_king",
        "\"{token}\" on {square}: a king must be the top of its tower",
    ),
    (
        "fen.tower_promoted_under",
        "\"{token}\" on {square}: a promoted pawn must be the top of its tower",
    ),
    (
        "fen.tower_pawn_top",
        "\"{token}\" on {square}: an unpromoted pawn cannot be the top on its last rank",
    ),
    (
        "fen.tower_rank_long",
        "rank \"{text}\" has more than 8 squares",
    ),
    (
        "fen.tower_rank_short",
        "rank \"{text}\" has {found} squares, not 8",
    ),
    (
        "fen.tower_parens",
        "unbalanced parentheses in rank \"{text}\"",
    ),
    ("fen.tower_nested", "unbalanced parentheses in \"{token}\""),
    ("fen.tower_empty", "empty tower \"()\" in rank \"{text}\""),
    (
        "fen.tower_high",
        "tower \"{token}\" has more than {most} pieces",
    ),
    (
        "fen.tower_pieces",
        "{found} pieces on the board, at most {most}",
    ),
    (
        "fen.tower_white_kings",
        "expected one white king, found {found} in \"{text}\"",
    ),
    (
        "fen.tower_black_kings",
        "expected one black king, found {found} in \"{text}\"",
    ),
];

/// `template` with each `{name}` replaced by its value.
#[must_use]
pub fn fill(template: &str, values: &[(&'static str, String)]) -> String {
    let mut out = template.to_string();
    for (name, value) in values {
        out = out.replace(&format!("{{{name}}}"), value);
    }
    out
}

impl FenError {
    /// The error `key` (one of [`REASONS`]) with `values`.
    #[must_use]
    pub fn keyed<const N: usize>(
        field: FenField,
        key: &'static str,
        values: [(&'static str, String); N],
    ) -> FenError {
        let template = REASONS
            .iter()
            .find(|(k, _)| *k == key)
            .map_or(key, |(_, t)| t);
        let values = values.to_vec();
        FenError {
            field,
            reason: fill(template, &values),
            key,
            values,
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
        return Err(FenError::keyed(
            FenField::Fields,
            "fen.fields",
            [("found", fields.len().to_string())],
        ));
    }
    let turn = match fields[1] {
        "w" => Color::White,
        "b" => Color::Black,
        other => {
            return Err(FenError::keyed(
                FenField::Side,
                "fen.side",
                [("text", other.to_string())],
            ))
        }
    };
    let castling = parse_castling(fields[2])?;
    let ep = match fields[3] {
        "-" => None,
        s => Some(Square::parse(s).ok_or_else(|| {
            FenError::keyed(
                FenField::EnPassant,
                "fen.ep_square",
                [("text", s.to_string())],
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
                FenError::keyed(
                    FenField::Halfmove,
                    "fen.halfmove",
                    [("text", s.to_string())],
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
                FenError::keyed(
                    FenField::Fullmove,
                    "fen.fullmove",
                    [("text", s.to_string())],
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
                return Err(FenError::keyed(
                    FenField::Castling,
                    "fen.castling",
                    [("text", s.to_string())],
                ))
            }
        };
        if rights & bit != 0 {
            return Err(FenError::keyed(
                FenField::Castling,
                "fen.castling_twice",
                [("text", s.to_string())],
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

/// An en-passant-field error quoting the square: `key` is one of the
/// `fen.ep_*` [`REASONS`].
pub(crate) fn ep_error(ep: Square, key: &'static str) -> FenError {
    FenError::keyed(FenField::EnPassant, key, [("square", ep.to_string())])
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
        return Err(ep_error(ep, "fen.ep_rank"));
    }
    if occupied.contains(ep) {
        return Err(ep_error(ep, "fen.ep_occupied"));
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
        return Err(FenError::keyed(
            FenField::Board,
            "fen.ranks",
            [("found", ranks.len().to_string())],
        ));
    }
    // `k16` adds up to eight squares but is not a FEN: a run of empty
    // squares is one digit.
    if let Some(rank) = ranks.iter().find(|r| {
        r.as_bytes()
            .windows(2)
            .any(|w| w.iter().all(u8::is_ascii_digit))
    }) {
        return Err(FenError::keyed(
            FenField::Board,
            "fen.two_digits",
            [("text", (*rank).to_string())],
        ));
    }
    Ok(ranks)
}

/// The standard start position, shared by all three variants.
pub const STARTPOS: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Chess, Plunder, Position, Tavreli};

    /// Each refusal names a reason of the table, every value its template
    /// names is given, and the English is the template filled in.
    #[test]
    fn every_refusal_is_a_reason_of_the_table_filled_in() {
        let bad = [
            "8/8/8 w - - 0 1",
            "8/8/8/8/8/8/8/8 x - - 0 1",
            "4k3/8/8/8/8/8/8/4K3 w KK - 0 1",
            "4k3/8/8/8/8/8/8/4K3 w X - 0 1",
            "4k3/8/8/8/8/8/8/4K3 w - e9 0 1",
            "4k3/8/8/8/8/8/8/4K3 w - e3 0 1",
            "4k3/8/8/8/8/8/8/4K3 w - - x 1",
            "4k3/8/8/8/8/8/8/4K3 w - - 0 0",
            "4k3/8/8/8/8/8/4K3 w - - 0 1",
            "4k3/8/8/8/8/8/8/4K4 w - - 0 1",
            "4k3/8/8/8/8/8/8/4K2 w - - 0 1",
            "4k3/8/8/8/8/8/8/4X3 w - - 0 1",
            "4k3/8/8/8/8/8/8/4K(3 w - - 0 1",
            "4k3/8/8/8/8/8/8/8 w - - 0 1",
            "4k3/8/8/8/8/8/8/P3K3 w - - 0 1",
            "4k3/8/8/8/8/8/8/4K2r w - - 0 1",
            "4k3/8/8/8/8/8/8/4KN(x)2 w - - 0 1",
            "4k3/8/8/8/8/8/8/4KN(pp)2 w - - 0 1",
            "4k3/8/8/8/8/8/8/4KP(q)2 w - - 0 1",
            "4k3/8/8/3()4/8/8/8/4K3 w - - 0 1",
            "4k3/8/8/3(Kp)4/8/8/8/4K3 w - - 0 1",
            "4k3/8/8/3(Q=N)4/8/8/8/4K3 w - - 0 1",
            "4k3/8/8/3(P=K)4/8/8/8/4K3 w - - 0 1",
            "4k3/8/8/3(K~)4/8/8/8/4K3 w - - 0 1",
            "4k3/8/8/3(Q~p)4/8/8/8/4K3 w - - 0 1",
            "3Pk3/8/8/8/8/8/8/4K3 w - - 0 1",
            "4k3/8/8/3(P(p))4/8/8/8/4K3 w - - 0 1",
            "4k3/8/8/3)4/8/8/8/4K3 w - - 0 1",
            "4k3/8/8/3(P4/8/8/8/4K3 w - - 0 1",
            "4k3/8/8/3Z4/8/8/8/4K3 w - - 0 1",
            "4k3/8/8/8/8/8/8/4K3 w - e6 0 1",
        ];
        let mut keys = std::collections::BTreeSet::new();
        for fen in bad {
            let errors = [
                Chess::from_fen(fen).err(),
                Plunder::from_fen(fen).err(),
                Tavreli::from_fen(fen).err(),
            ];
            for e in errors.into_iter().flatten() {
                let template = REASONS.iter().find(|(k, _)| *k == e.key).map(|(_, t)| *t);
                assert!(template.is_some(), "{fen}: {} is not in REASONS", e.key);
                assert_eq!(e.reason, fill(template.unwrap_or(""), &e.values));
                assert!(!e.reason.contains('{'), "{fen}: {e}");
                keys.insert(e.key);
            }
        }
        assert!(keys.len() > 25, "{keys:?}");
        let unique: std::collections::BTreeSet<_> = REASONS.iter().map(|(k, _)| k).collect();
        assert_eq!(unique.len(), REASONS.len(), "a key twice");
    }

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
