//! PGN output (and a small reader that replays games with movegen, used by
//! the tests and handy for checking files).

use crate::game::GameRecord;
use crate::san::parse_san;
use movegen::{Position, Variant};
use std::fmt::Write;

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

/// One game as PGN text, ending in a blank line.
#[must_use]
pub fn write_game(h: &PgnHeader, g: &GameRecord) -> String {
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
    s.push('\n');
    // Move numbers follow the start FEN's full-move number and side.
    let (mut number, mut black) = g.fen.as_deref().map_or((1, false), |f| {
        let fields: Vec<&str> = f.split_whitespace().collect();
        let n = fields.get(5).and_then(|x| x.parse().ok()).unwrap_or(1u32);
        (n, fields.get(1) == Some(&"b"))
    });
    let mut tokens = Vec::new();
    for (i, mv) in g.notation.iter().enumerate() {
        if !black {
            tokens.push(format!("{number}. {mv}"));
        } else if i == 0 {
            tokens.push(format!("{number}... {mv}"));
        } else {
            tokens.push(mv.clone());
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
    /// Move tokens (SAN or move strings), without numbers and comments.
    pub moves: Vec<String>,
    /// Comments in order.
    pub comments: Vec<String>,
    /// The result token after the moves.
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
    /// reading SAN for chess and move strings otherwise; returns the final
    /// position.
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
            let m = if P::VARIANT == Variant::Chess {
                parse_san(&pos, t)
            } else {
                pos.parse_move(t).ok()
            };
            let m = m.ok_or_else(|| format!("ply {}: {t:?} is not legal", i + 1))?;
            keys.push(pos.key());
            pos.make(m);
        }
        Ok((pos, keys))
    }
}

/// Reads all games of a PGN text.
///
/// # Errors
/// A reason if a tag line or comment is malformed.
pub fn read_pgn(text: &str) -> Result<Vec<PgnGame>, String> {
    let mut games = Vec::new();
    let mut game = PgnGame::default();
    let mut in_moves = false;
    let mut chars = text.chars().peekable();
    let mut token = String::new();
    let flush = |token: &mut String, game: &mut PgnGame, games: &mut Vec<PgnGame>| {
        if token.is_empty() {
            return false;
        }
        let t = std::mem::take(token);
        if ["1-0", "0-1", "1/2-1/2", "*"].contains(&t.as_str()) {
            game.result = t;
            games.push(std::mem::take(game));
            return true;
        }
        // Drop move numbers: `12.`, `12...`, or `12.e4` glued forms.
        let t = t.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.');
        if !t.is_empty() {
            game.moves.push(t.to_string());
        }
        false
    };
    while let Some(c) = chars.next() {
        match c {
            '[' if !in_moves || token.is_empty() => {
                let mut line = String::new();
                for c in chars.by_ref() {
                    if c == '\n' {
                        break;
                    }
                    line.push(c);
                }
                let line = line.trim_end().trim_end_matches(']');
                let (k, v) = line
                    .split_once(' ')
                    .ok_or_else(|| format!("bad tag line [{line}"))?;
                let v = v.trim();
                let v = v
                    .strip_prefix('"')
                    .and_then(|v| v.strip_suffix('"'))
                    .ok_or_else(|| format!("unquoted tag value in [{line}"))?;
                game.tags
                    .push((k.to_string(), v.replace("\\\"", "\"").replace("\\\\", "\\")));
                in_moves = false;
            }
            '{' => {
                flush(&mut token, &mut game, &mut games);
                let mut comment = String::new();
                loop {
                    match chars.next() {
                        Some('}') => break,
                        Some(c) => comment.push(c),
                        None => return Err("unclosed comment".into()),
                    }
                }
                game.comments.push(comment);
                in_moves = true;
            }
            c if c.is_whitespace() => {
                if flush(&mut token, &mut game, &mut games) {
                    in_moves = false;
                }
            }
            c => {
                in_moves = true;
                token.push(c);
            }
        }
    }
    flush(&mut token, &mut game, &mut games);
    Ok(games)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{GameResult, Termination};
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
}
