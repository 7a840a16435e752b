//! PGN export and import in the format `volkhv match` writes (`Variant`,
//! `FEN`, `SetUp`, `Result` tags; SAN for chess, move strings otherwise),
//! through `matchrunner::pgn`.

use super::http::ApiError;
use super::notation::{outcome_words, plies, Show};
use super::session::Slot;
use engine::{with_game, Game};
use eval::Evaluate;
use matchrunner::game::{GameRecord, GameResult, Termination};
use matchrunner::pgn::{read_pgn, today, write_game, PgnGame, PgnHeader};
use matchrunner::san::parse_san;
use movegen::{Color, Outcome, Position, Variant};

/// The game as PGN text. An unfinished game is written with result `*`.
pub fn export(s: &Slot) -> String {
    let name = |c: Color| {
        if s.settings.sides.plays(c) {
            "volkhv"
        } else {
            "Human"
        }
    };
    let header = PgnHeader {
        event: "volkhv serve".into(),
        site: "volkhv web board".into(),
        date: today(),
        time_control: "-".into(),
        variant: s.engine.variant(),
    };
    let game = s.engine.game();
    let (fen, moves, notation) = with_game!(game, g => record_moves(g));
    let outcome = game.status();
    let record = GameRecord {
        round: 1,
        white: name(Color::White).into(),
        black: name(Color::Black).into(),
        fen,
        moves,
        notation,
        result: outcome.map_or(GameResult::Draw, |o| match o {
            Outcome::Checkmate { winner } => GameResult::win_for(winner),
            _ => GameResult::Draw,
        }),
        termination: Termination::Normal,
        reason: outcome.map_or_else(|| "game in progress".into(), |o| outcome_words(o).1.into()),
    };
    let text = write_game(&header, &record);
    if outcome.is_some() {
        text
    } else {
        unfinished(&text)
    }
}

/// `write_game` knows only finished games: an unfinished one is written as
/// a draw and its result then changed to `*` (the tag, the termination and
/// the last token; nothing else in the text can read `1/2-1/2`).
fn unfinished(text: &str) -> String {
    let body = text.trim_end();
    let body = body.strip_suffix("1/2-1/2").unwrap_or(body);
    format!("{body}*\n\n")
        .replace("[Result \"1/2-1/2\"]", "[Result \"*\"]")
        .replace("[Termination \"normal\"]", "[Termination \"unterminated\"]")
}

/// The start FEN (only when not the variant's start), move strings and
/// their notation.
fn record_moves<P: Show + Evaluate>(g: &Game<P>) -> (Option<String>, Vec<String>, Vec<String>) {
    let start = g.start().fen();
    let fen = (start != P::startpos().fen()).then_some(start);
    let (moves, notation) = plies(g.start(), g.moves())
        .into_iter()
        .map(|p| (p.mv, p.text))
        .unzip();
    (fen, moves, notation)
}

/// The first game of a PGN text: its variant (`Variant` tag, else
/// `default`), start FEN and moves as move strings.
///
/// # Errors
/// 400 for unreadable PGN, an unknown variant, a bad FEN or a move that is
/// not legal.
pub fn import(
    text: &str,
    default: Variant,
) -> Result<(Variant, Option<String>, Vec<String>), ApiError> {
    let games = read_pgn(text).map_err(|e| ApiError::bad(format!("PGN: {e}")))?;
    let game = games
        .into_iter()
        .next()
        .ok_or_else(|| ApiError::bad("PGN: no game found (a game ends with its result)"))?;
    let variant = match game.tag("Variant") {
        None => default,
        Some(v) => Variant::from_name(v)
            .ok_or_else(|| ApiError::bad(format!("PGN: unknown variant \"{v}\"")))?,
    };
    let moves = movegen::with_variant!(variant, P => move_strings::<P>(&game))
        .map_err(|e| ApiError::bad(format!("PGN: {e}")))?;
    Ok((variant, game.tag("FEN").map(String::from), moves))
}

/// Converts a game's move tokens to move strings with the rules `P`.
fn move_strings<P: Position>(game: &PgnGame) -> Result<Vec<String>, String> {
    let mut pos = match game.tag("FEN") {
        Some(f) => P::from_fen(f).map_err(|e| format!("FEN tag: {e}"))?,
        None => P::startpos(),
    };
    let mut out = Vec::with_capacity(game.moves.len());
    for (i, t) in game.moves.iter().enumerate() {
        let m = if P::VARIANT == Variant::Chess {
            parse_san(&pos, t).or_else(|| pos.parse_move(t).ok())
        } else {
            pos.parse_move(t).ok()
        };
        let m = m.ok_or_else(|| format!("ply {}: \"{t}\" is not legal", i + 1))?;
        out.push(m.to_string());
        pos.make(m);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unfinished_games_get_a_star() {
        let text = "[Event \"e\"]\n[Result \"1/2-1/2\"]\n[Termination \"normal\"]\n\n1. e4 {game in progress} 1/2-1/2\n\n";
        assert_eq!(
            unfinished(text),
            "[Event \"e\"]\n[Result \"*\"]\n[Termination \"unterminated\"]\n\n1. e4 {game in progress} *\n\n"
        );
    }

    #[test]
    fn import_reads_san_and_move_strings() {
        let (v, fen, moves) = import("1. e4 e5 2. Nf3 *", Variant::Chess).unwrap();
        assert_eq!((v, fen), (Variant::Chess, None));
        assert_eq!(moves, ["e2e4", "e7e5", "g1f3"]);
        let (v, _, moves) =
            import("[Variant \"tavreli\"]\n\n1. b1d2 e7e5 *", Variant::Chess).unwrap();
        assert_eq!(v, Variant::Tavreli);
        assert_eq!(moves, ["b1d2", "e7e5"]);
        let e = import("1. e4 e5 2. Kd8 *", Variant::Chess).unwrap_err();
        assert!(e.message.contains("ply 3"), "{}", e.message);
        assert!(import("[Variant \"go\"]\n\n*", Variant::Chess).is_err());
    }
}
