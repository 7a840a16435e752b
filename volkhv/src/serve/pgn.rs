//! The board's games as PGN and back, through [`notation::pgn`].

use super::http::ApiError;
use super::session::Slot;
use engine::{with_game, AnyGame, Game};
use eval::Evaluate;
use movegen::{Color, Outcome, Position, Variant};
use notation::pgn::{
    today, write_game, write_unfinished_game, GameRecord, GameResult, PgnHeader, Termination,
};
use notation::words::{outcome_words, plies};

/// The game as PGN text. An unfinished game is written with result `*`.
pub fn export(s: &Slot) -> String {
    let name = |c: Color| {
        if s.settings.sides.plays(c) {
            "volkhv"
        } else {
            "Human"
        }
    };
    let players = [name(Color::White), name(Color::Black)];
    write(s.engine.game(), players, today(), 1)
}

/// `game` as PGN text with the players' names, its date (`YYYY.MM.DD`)
/// and round.
pub fn write(game: &AnyGame, players: [&str; 2], date: String, round: usize) -> String {
    let header = PgnHeader {
        event: "volkhv serve".into(),
        site: "volkhv web board".into(),
        date,
        time_control: "-".into(),
        variant: game.variant(),
    };
    let (fen, moves, notation) = with_game!(game, g => record_moves(g));
    let outcome = game.status();
    let record = GameRecord {
        round,
        white: players[0].into(),
        black: players[1].into(),
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
    if outcome.is_some() {
        write_game(&header, &record)
    } else {
        write_unfinished_game(&header, &record)
    }
}

/// The start FEN (only when not the variant's start), move strings and
/// their notation.
fn record_moves<P: Position + Evaluate>(g: &Game<P>) -> (Option<String>, Vec<String>, Vec<String>) {
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
    let first = notation::pgn::import(text, default)
        .map_err(|e| ApiError::bad(format!("PGN: {e}")))?
        .swap_remove(0);
    Ok((first.variant, first.fen, first.moves))
}
