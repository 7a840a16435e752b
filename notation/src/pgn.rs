//! PGN in the format `volkhv match` and the web board write (`Variant`,
//! `FEN`, `SetUp`, `Result` tags; SAN where the variant uses it, move
//! strings otherwise), and a reader of the PGN files players have, whose
//! games [`import_game`] replays with movegen.
//!
//! # What the reader accepts
//!
//! [`PgnReader`] reads any `BufRead` a line at a time, keeping one game in
//! memory; [`read_pgn`] and [`import`] read a whole text with it.
//!
//! - Tag pairs `[Name "value"]`, one or several on a line, with `\"` and
//!   `\\` escapes in the value (another backslash is kept as it is).
//!   A line whose first non-blank character is `[` is a tag line.
//! - Movetext: move numbers `12.`, `12...` and glued `12.e4` are dropped;
//!   every other token is a move as written (SAN such as `O-O-O+` or
//!   `exd8=Q#`, `0-0`, move strings such as Tavreli's `d4d8:2` or
//!   PlunderChess's `e7d8qn`), checked only by [`import_game`].
//! - `{ … }` comments, over several lines too, go to
//!   [`PgnGame::comments`] as written (`[%clk 0:01:00]` in one is text).
//!   `;` comments run to the end of the line and are kept there as well,
//!   trimmed.
//! - A line starting with `%` is an escape line and is ignored.
//! - Variations `( … )`, nested to any depth, are read past: their moves,
//!   comments and NAGs are not the game's.
//! - NAGs `$n` (0 to 255; others are dropped) and the suffix glyphs `!`,
//!   `?`, `!!`, `??`, `!?`, `?!` (NAGs 1 to 6, taken off the move) go to
//!   [`PgnGame::nags`].
//! - A game ends at its result token (`1-0`, `0-1`, `1/2-1/2`, `*`), at a
//!   tag line after its movetext, or at the end of the input. Without a
//!   result token its result is its `Result` tag's, else `*`. Text after a
//!   result token on its line is read as if it began a line. Text that
//!   holds no tag and no move at the end of the input is not a game.
//! - CRLF line ends, a UTF-8 byte order mark and blank lines anywhere.
//!
//! # Bad games
//!
//! A game with a malformed tag line, a `)` or `}` with nothing open, a
//! comment or variation still open where it ends, or more than
//! [`MAX_GAME_BYTES`] of text (a longer line is skipped unread) is one
//! [`PgnError`] naming the game's number (bad games are counted) and the
//! line. The next game starts where it would after a good game: the bad
//! game still ends at its result token (outside variations) or at the next
//! tag line after its movetext, but none of it is kept. One exception
//! resynchronises an unclosed `{`: a line inside a comment that is nothing
//! but well-formed tag pairs is taken as the next game's tags, so a
//! forgotten `}` costs one game, not every game up to the next `}`. Input
//! that cannot be read (an I/O error, bytes that are not UTF-8) gives a
//! last error item.

use crate::fault::Fault;
use crate::parse_move_text;
pub use crate::pgn_reader::{PgnError, PgnReader, MAX_GAME_BYTES};
use movegen::{Color, Position, Variant};
use std::fmt::Write;

/// How a game ended, as the PGN `Termination` tag says it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Termination {
    /// By the rules: mate, stalemate, repetition, fifty moves, material.
    Normal,
    /// Decided by the runner from the engines' scores or the move limit.
    Adjudication,
    /// An engine overstepped its time or never answered.
    TimeForfeit,
    /// An engine played an illegal or malformed move.
    RulesInfraction,
    /// An engine crashed or broke the protocol.
    Abandoned,
}

impl Termination {
    /// The PGN tag value.
    #[must_use]
    pub const fn tag(self) -> &'static str {
        match self {
            Termination::Normal => "normal",
            Termination::Adjudication => "adjudication",
            Termination::TimeForfeit => "time forfeit",
            Termination::RulesInfraction => "rules infraction",
            Termination::Abandoned => "abandoned",
        }
    }
}

/// A game result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameResult {
    /// 1-0.
    WhiteWins,
    /// 0-1.
    BlackWins,
    /// ½-½.
    Draw,
}

impl GameResult {
    /// `1-0`, `0-1`, `1/2-1/2`.
    #[must_use]
    pub const fn pgn(self) -> &'static str {
        match self {
            GameResult::WhiteWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
        }
    }

    /// The win for `c`.
    #[must_use]
    pub const fn win_for(c: Color) -> GameResult {
        match c {
            Color::White => GameResult::WhiteWins,
            Color::Black => GameResult::BlackWins,
        }
    }

    /// Points for `c`, in half points (0, 1, 2).
    #[must_use]
    pub const fn half_points(self, c: Color) -> u32 {
        match (self, c) {
            (GameResult::Draw, _) => 1,
            (GameResult::WhiteWins, Color::White) | (GameResult::BlackWins, Color::Black) => 2,
            _ => 0,
        }
    }
}

/// A finished game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// 1-based game number.
    pub round: usize,
    /// White's engine name.
    pub white: String,
    /// Black's engine name.
    pub black: String,
    /// The start FEN, `None` for the variant's start position.
    pub fen: Option<String>,
    /// Every move as a move string (opening moves included).
    pub moves: Vec<String>,
    /// The same moves as the PGN shows them (SAN for chess).
    pub notation: Vec<String>,
    /// The result.
    pub result: GameResult,
    /// How it ended.
    pub termination: Termination,
    /// Why, in words (`White mates`, `Black (x) played illegal move e2e5`).
    pub reason: String,
}

/// Game-independent tag values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PgnHeader {
    /// `Event`.
    pub event: String,
    /// `Site`.
    pub site: String,
    /// `Date`, `YYYY.MM.DD`.
    pub date: String,
    /// `TimeControl` (`10+0.1`, `1/1` for a second a move, `-` for none).
    pub time_control: String,
    /// The variant.
    pub variant: Variant,
}

fn escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

/// Today's date in UTC as `YYYY.MM.DD`.
#[must_use]
pub fn today() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let days = i64::try_from(secs / 86_400).unwrap_or(0);
    let (y, m, d) = civil_from_days(days);
    format!("{y:04}.{m:02}.{d:02}")
}

/// Gregorian date of a day count since 1970-01-01 (H. Hinnant's algorithm).
#[must_use]
pub fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = u32::try_from(doy - (153 * mp + 2) / 5 + 1).unwrap_or(1);
    let m = u32::try_from(if mp < 10 { mp + 3 } else { mp - 9 }).unwrap_or(1);
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

/// What an annotated game adds to its record: tags after the standard
/// ones and notes on single moves.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Annotations {
    /// Extra tags (`Hints`), written after `PlyCount` in this order.
    pub tags: Vec<(String, String)>,
    /// Notes per move: entry `i` follows the move of ply `i + 1`; missing
    /// entries are empty.
    pub moves: Vec<MoveNote>,
}

/// What follows one move: numeric annotation glyphs, then a comment.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MoveNote {
    /// NAGs (`$2`, `$4`, `$6`, …).
    pub nags: Vec<u8>,
    /// A comment (`}` is written as `)`).
    pub comment: Option<String>,
}

/// One game as PGN text, ending in a blank line.
#[must_use]
pub fn write_game(h: &PgnHeader, g: &GameRecord) -> String {
    write_annotated_game(h, g, &Annotations::default())
}

/// [`write_game`] with `notes`: its extra tags and, after each move, its
/// NAGs and comment. Without notes the text is exactly `write_game`'s.
#[must_use]
pub fn write_annotated_game(h: &PgnHeader, g: &GameRecord, notes: &Annotations) -> String {
    let mut s = String::new();
    let mut tag = |k: &str, v: &str| {
        let _ = writeln!(s, "[{k} \"{}\"]", escape(v));
    };
    tag("Event", &h.event);
    tag("Site", &h.site);
    tag("Date", &h.date);
    tag("Round", &g.round.to_string());
    tag("White", &g.white);
    tag("Black", &g.black);
    tag("Result", g.result.pgn());
    tag("Variant", h.variant.name());
    if let Some(fen) = &g.fen {
        tag("FEN", fen);
        tag("SetUp", "1");
    }
    tag("TimeControl", &h.time_control);
    tag("Termination", g.termination.tag());
    tag("PlyCount", &g.moves.len().to_string());
    for (k, v) in &notes.tags {
        tag(k, v);
    }
    s.push('\n');
    // Move numbers follow the start FEN's full-move number and side.
    let (mut number, mut black) = g.fen.as_deref().map_or((1, false), |f| {
        let fields: Vec<&str> = f.split_whitespace().collect();
        let n = fields.get(5).and_then(|x| x.parse().ok()).unwrap_or(1u32);
        (n, fields.get(1) == Some(&"b"))
    });
    let mut tokens = Vec::new();
    let mut after_comment = false;
    for (i, mv) in g.notation.iter().enumerate() {
        if !black {
            tokens.push(format!("{number}. {mv}"));
        } else if i == 0 || after_comment {
            // Black's move after a comment is numbered again, as export
            // format asks.
            tokens.push(format!("{number}... {mv}"));
        } else {
            tokens.push(mv.clone());
        }
        let note = notes.moves.get(i);
        after_comment = false;
        if let Some(n) = note {
            tokens.extend(n.nags.iter().map(|nag| format!("${nag}")));
            if let Some(c) = &n.comment {
                tokens.push(format!("{{{}}}", c.replace('}', ")")));
                after_comment = true;
            }
        }
        if black {
            number += 1;
        }
        black = !black;
    }
    tokens.push(format!("{{{}}}", g.reason.replace('}', ")")));
    tokens.push(g.result.pgn().to_string());
    // Wrap at 80 columns, as export format asks.
    let mut line = String::new();
    for t in tokens {
        if !line.is_empty() && line.len() + 1 + t.len() > 80 {
            s.push_str(&line);
            s.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&t);
    }
    s.push_str(&line);
    s.push_str("\n\n");
    s
}

/// A game read back from PGN text.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct PgnGame {
    /// Tags in file order.
    pub tags: Vec<(String, String)>,
    /// Move tokens of the main line (SAN or move strings), without numbers,
    /// comments, variations and suffix glyphs.
    pub moves: Vec<String>,
    /// Comments of the main line in order, `{ }` and `;` ones alike.
    pub comments: Vec<String>,
    /// Numeric annotation glyphs as `(ply, nag)`: `$4` or `??` after the
    /// third move is `(3, 4)`.
    pub nags: Vec<(usize, u8)>,
    /// The result token after the moves (`1-0`, `0-1`, `1/2-1/2`, `*`); for
    /// a game without one, its `Result` tag or `*`.
    pub result: String,
}

impl PgnGame {
    /// The value of tag `k`.
    #[must_use]
    pub fn tag(&self, k: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(t, _)| t == k)
            .map(|(_, v)| v.as_str())
    }

    /// Replays the moves with movegen from the `FEN` tag (or the start),
    /// reading SAN where the variant uses it and move strings; returns the
    /// final position.
    ///
    /// # Errors
    /// The first move that is not legal.
    pub fn replay<P: Position>(&self) -> Result<P, String> {
        self.replay_with_history().map(|(pos, _)| pos)
    }

    /// As [`PgnGame::replay`], also returning the keys of the positions
    /// before the final one (oldest first), as [`movegen::status`] wants.
    ///
    /// # Errors
    /// The first move that is not legal.
    pub fn replay_with_history<P: Position>(&self) -> Result<(P, Vec<u64>), String> {
        let mut keys = Vec::with_capacity(self.moves.len());
        let mut pos = match self.tag("FEN") {
            Some(f) => P::from_fen(f).map_err(|e| format!("FEN tag: {e}"))?,
            None => P::startpos(),
        };
        for (i, t) in self.moves.iter().enumerate() {
            let m = parse_move_text(&pos, t)
                .ok_or_else(|| format!("ply {}: {t:?} is not legal", i + 1))?;
            keys.push(pos.key());
            pos.make(m);
        }
        Ok((pos, keys))
    }
}

/// Reads all games of a PGN text with [`PgnReader`].
///
/// # Errors
/// The first game that cannot be read, named by its number when the text
/// has several games.
pub fn read_pgn(text: &str) -> Result<Vec<PgnGame>, Fault> {
    let items: Vec<_> = PgnReader::new(text.as_bytes()).collect();
    let many = items.len() > 1;
    items
        .into_iter()
        .map(|item| item.map_err(|e| describe(e, many)))
        .collect()
}

/// An error's fault, inside its game's number when there are several.
fn describe(e: PgnError, many: bool) -> Fault {
    if many {
        e.fault.in_game(e.game)
    } else {
        e.fault
    }
}

/// `write_game` for a game still being played: result `*`, termination
/// `unterminated`.
#[must_use]
pub fn write_unfinished_game(h: &PgnHeader, g: &GameRecord) -> String {
    write_annotated_unfinished_game(h, g, &Annotations::default())
}

/// [`write_unfinished_game`] with notes, as [`write_annotated_game`].
#[must_use]
pub fn write_annotated_unfinished_game(
    h: &PgnHeader,
    g: &GameRecord,
    notes: &Annotations,
) -> String {
    // Written as a draw, then the three places that say so are changed;
    // nothing else in the text can read `1/2-1/2`.
    let draw = GameRecord {
        result: GameResult::Draw,
        termination: Termination::Normal,
        ..g.clone()
    };
    let text = write_annotated_game(h, &draw, notes);
    let body = text.trim_end();
    let body = body.strip_suffix("1/2-1/2").unwrap_or(body);
    format!("{body}*\n\n")
        .replace("[Result \"1/2-1/2\"]", "[Result \"*\"]")
        .replace("[Termination \"normal\"]", "[Termination \"unterminated\"]")
}

/// A game of a PGN text made ready to play on: its variant, start FEN and
/// moves as move strings, each checked legal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Imported {
    /// The `Variant` tag's variant, or the default given.
    pub variant: Variant,
    /// The `FEN` tag.
    pub fen: Option<String>,
    /// The moves as move strings.
    pub moves: Vec<String>,
    /// The result token (`1-0`, `0-1`, `1/2-1/2`, `*`).
    pub result: String,
}

/// Every game of a PGN text, each replayed with movegen.
///
/// # Errors
/// Unreadable PGN, no game, an unknown variant, a bad FEN or a move that is
/// not legal, naming the game (1-based) when there are several.
pub fn import(text: &str, default: Variant) -> Result<Vec<Imported>, Fault> {
    let items: Vec<_> = PgnReader::new(text.as_bytes()).collect();
    if items.is_empty() {
        return Err(Fault::new("pgn.none", Vec::new()));
    }
    let many = items.len() > 1;
    items
        .into_iter()
        .enumerate()
        .map(|(i, item)| {
            item.and_then(|game| {
                import_game(&game, default).map_err(|fault| PgnError { game: i + 1, fault })
            })
            .map_err(|e| describe(e, many))
        })
        .collect()
}

/// One game replayed with movegen: its variant (the `Variant` tag, else
/// `default`), start FEN and moves as move strings, so that a caller
/// reading a file with [`PgnReader`] can import each game on its own.
///
/// # Errors
/// An unknown variant, a bad FEN or the first move that is not legal.
pub fn import_game(game: &PgnGame, default: Variant) -> Result<Imported, Fault> {
    let variant = match game.tag("Variant") {
        None => default,
        Some(v) => Variant::from_name(v)
            .ok_or_else(|| Fault::new("pgn.variant", vec![("variant", v.to_string())]))?,
    };
    let moves = movegen::with_variant!(variant, P => move_strings::<P>(game))?;
    Ok(Imported {
        variant,
        fen: game.tag("FEN").map(String::from),
        moves,
        result: game.result.clone(),
    })
}

/// A game's move tokens as move strings, replayed with the rules `P`.
fn move_strings<P: Position>(game: &PgnGame) -> Result<Vec<String>, Fault> {
    let mut pos = match game.tag("FEN") {
        Some(f) => P::from_fen(f).map_err(|e| Fault::fen_tag(&e))?,
        None => P::startpos(),
    };
    let mut out = Vec::with_capacity(game.moves.len());
    for (i, t) in game.moves.iter().enumerate() {
        let m = parse_move_text(&pos, t).ok_or_else(|| {
            Fault::new(
                "pgn.illegal",
                vec![("ply", (i + 1).to_string()), ("move", t.clone())],
            )
        })?;
        out.push(m.to_string());
        pos.make(m);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use movegen::Chess;

    #[test]
    fn dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
        assert_eq!(civil_from_days(20_786), (2026, 11, 29));
    }

    #[test]
    fn write_then_read_back() {
        let h = PgnHeader {
            event: "volkhv match".into(),
            site: "here".into(),
            date: "2026.11.29".into(),
            time_control: "10+0.1".into(),
            variant: Variant::Chess,
        };
        let g = GameRecord {
            round: 3,
            white: "a \"quoted\" name".into(),
            black: "b".into(),
            fen: Some("4k3/8/8/8/8/8/8/R3K3 b Q - 0 7".into()),
            moves: vec!["e8d7".into(), "e1c1".into()],
            notation: vec!["Kd7".into(), "O-O-O+".into()],
            result: GameResult::BlackWins,
            termination: Termination::RulesInfraction,
            reason: "Black (b) played an illegal move e2e5".into(),
        };
        let text = write_game(&h, &g);
        assert!(text.contains("7... Kd7 8. O-O-O+ {Black (b) played an illegal move e2e5} 0-1"));
        let games = read_pgn(&(text.clone() + &text)).unwrap();
        assert_eq!(games.len(), 2);
        let r = &games[1];
        assert_eq!(r.tag("White"), Some("a \"quoted\" name"));
        assert_eq!(r.tag("SetUp"), Some("1"));
        assert_eq!(r.tag("Termination"), Some("rules infraction"));
        assert_eq!(r.tag("PlyCount"), Some("2"));
        assert_eq!(r.moves, ["Kd7", "O-O-O+"]);
        assert_eq!(r.comments, ["Black (b) played an illegal move e2e5"]);
        assert_eq!(r.result, "0-1");
        let end: Chess = r.replay().unwrap();
        assert_eq!(end.fen(), "8/3k4/8/8/8/8/8/2KR4 b - - 2 8");
        let mut bad = r.clone();
        bad.moves[1] = "O-O".into();
        assert!(bad.replay::<Chess>().unwrap_err().starts_with("ply 2"));
    }

    #[test]
    fn annotations_are_written_and_read_back() {
        let h = PgnHeader {
            event: "e".into(),
            site: "s".into(),
            date: "2026.12.06".into(),
            time_control: "-".into(),
            variant: Variant::Chess,
        };
        let g = GameRecord {
            round: 1,
            white: "w".into(),
            black: "b".into(),
            fen: None,
            moves: ["e2e4", "e7e5", "g1f3", "d8g5", "f3g5"]
                .iter()
                .map(ToString::to_string)
                .collect(),
            notation: ["e4", "e5", "Nf3", "Qg5", "Nxg5"]
                .iter()
                .map(ToString::to_string)
                .collect(),
            result: GameResult::WhiteWins,
            termination: Termination::Normal,
            reason: "Black resigns".into(),
        };
        let none = Annotations::default();
        assert_eq!(write_annotated_game(&h, &g, &none), write_game(&h, &g));
        let notes = Annotations {
            tags: vec![("Hints".into(), "White 1, Black 0".into())],
            moves: vec![
                MoveNote::default(),
                MoveNote {
                    nags: Vec::new(),
                    comment: Some("hint: Nf3".into()),
                },
                MoveNote::default(),
                MoveNote {
                    nags: vec![4],
                    comment: Some("best: Nc6 {x}".into()),
                },
            ],
        };
        let text = write_annotated_game(&h, &g, &notes);
        assert!(
            text.contains("1. e4 e5 {hint: Nf3} 2. Nf3 Qg5 $4 {best: Nc6 {x)} 3. Nxg5"),
            "{text}"
        );
        assert!(text.contains("[PlyCount \"5\"]\n[Hints \"White 1, Black 0\"]\n\n"));
        let back = read_pgn(&text).unwrap();
        assert_eq!(back.len(), 1);
        let r = &back[0];
        assert_eq!(r.tag("Hints"), Some("White 1, Black 0"));
        assert_eq!(r.moves, g.notation);
        assert_eq!(r.nags, [(4, 4)]);
        assert_eq!(r.comments, ["hint: Nf3", "best: Nc6 {x)", "Black resigns"]);
        let end: Chess = r.replay().unwrap();
        assert!(end
            .fen()
            .starts_with("rnb1kbnr/pppp1ppp/8/4p1N1/4P3/8/PPPP1PPP/RNBQKB1R b"));
        let open = write_annotated_unfinished_game(&h, &g, &notes);
        assert!(
            open.contains("$4 {best: Nc6 {x)} 3. Nxg5 {Black resigns}") && open.ends_with("*\n\n"),
            "{open}"
        );
        assert_eq!(read_pgn(&open).unwrap()[0].result, "*");
    }

    #[test]
    fn unfinished_games_get_a_star() {
        let h = PgnHeader {
            event: "e".into(),
            site: "s".into(),
            date: "2026.12.06".into(),
            time_control: "-".into(),
            variant: Variant::Chess,
        };
        let g = GameRecord {
            round: 1,
            white: "w".into(),
            black: "b".into(),
            fen: None,
            moves: vec!["e2e4".into()],
            notation: vec!["e4".into()],
            result: GameResult::WhiteWins,
            termination: Termination::Adjudication,
            reason: "game in progress".into(),
        };
        let text = write_unfinished_game(&h, &g);
        assert!(text.contains("[Result \"*\"]"), "{text}");
        assert!(text.contains("[Termination \"unterminated\"]"), "{text}");
        assert!(text.ends_with("1. e4 {game in progress} *\n\n"), "{text}");
        let back = read_pgn(&text).unwrap();
        assert_eq!(back[0].result, "*");
    }

    #[test]
    fn import_reads_san_and_move_strings() {
        let g = import("1. e4 e5 2. Nf3 *", Variant::Chess).unwrap();
        assert_eq!((g[0].variant, g[0].fen.clone()), (Variant::Chess, None));
        assert_eq!(g[0].moves, ["e2e4", "e7e5", "g1f3"]);
        let g = import("[Variant \"tavreli\"]\n\n1. b1d2 e7e5 *", Variant::Chess).unwrap();
        assert_eq!(g[0].variant, Variant::Tavreli);
        assert_eq!(g[0].moves, ["b1d2", "e7e5"]);
        let e = import("1. e4 e5 2. Kd8 *", Variant::Chess).unwrap_err();
        assert!(e.text.contains("ply 3"), "{e}");
        assert!(import("[Variant \"go\"]\n\n*", Variant::Chess).is_err());
        let two = import("1. e4 1-0\n\n1. d4 d5 2. Kd8 0-1\n", Variant::Chess).unwrap_err();
        assert!(two.text.starts_with("game 2: ply 3"), "{two}");
        assert!(import("", Variant::Chess).is_err());
    }
}
