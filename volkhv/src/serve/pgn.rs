//! The board's games as PGN and back, through [`notation::pgn`].

use super::http::ApiError;
use super::session::{hint_counts, saved, EngineLimit, Hint, Slot};
use engine::{with_game, AnyGame, Game};
use eval::Evaluate;
use movegen::{Color, Outcome, Position, Variant};
use notation::pgn::{
    today, write_annotated_game, write_annotated_unfinished_game, Annotations, GameRecord,
    GameResult, MoveNote, PgnHeader, Termination,
};
use notation::words::{outcome_words, plies, pv_notation};

/// The game as PGN text. An unfinished game is written with result `*`.
/// Hints are counted in a `Hints` tag and shown as comments after the move
/// played where they were asked; a finished review adds its marks as NAGs
/// and the better move as a comment.
pub fn export(s: &Slot) -> String {
    let name = |c: Color| {
        if let Some(names) = &s.settings.players {
            names[c.index()].clone()
        } else if s.settings.sides.plays(c) {
            super::store::engine_name(s.settings.elo)
        } else {
            "Human".to_string()
        }
    };
    let players = [name(Color::White), name(Color::Black)];
    let mut notes = notes(s);
    let mut header = Header::of(
        &s.tags(),
        [&players[0], &players[1]],
        today(),
        1,
        &mut notes,
    );
    if let EngineLimit::Clock { base_ms, inc_ms } = s.settings.limit {
        header.time_control = format!("{}+{}", base_ms / 1000, inc_ms / 1000);
        add_clocks(&mut notes, &s.clocks);
    }
    if let Some(e) = &s.ending {
        header.result = result_of(e.result);
        let flag = e.key.ends_with("flagged") || e.key == "flag_draw";
        header.ending = Some((
            e.reason.to_string(),
            if flag {
                Termination::TimeForfeit
            } else {
                Termination::Normal
            },
        ));
    }
    write_with(s.engine.game(), &header, &notes)
}

/// `[%clk h:mm:ss]` before each move's comment: the mover's time left.
fn add_clocks(notes: &mut Annotations, clocks: &[u64]) {
    for (i, &ms) in clocks.iter().enumerate() {
        let secs = ms / 1000;
        let clk = format!(
            "[%clk {}:{:02}:{:02}]",
            secs / 3600,
            secs / 60 % 60,
            secs % 60
        );
        if let Some(note) = notes.moves.get_mut(i) {
            note.comment = Some(match note.comment.take() {
                Some(c) => format!("{clk} {c}"),
                None => clk,
            });
        }
    }
}

/// A result as PGN writes it (`1-0`, `0-1`, `1/2-1/2`); `None` for `*`.
fn result_of(text: &str) -> Option<GameResult> {
    match text {
        "1-0" => Some(GameResult::WhiteWins),
        "0-1" => Some(GameResult::BlackWins),
        "1/2-1/2" => Some(GameResult::Draw),
        _ => None,
    }
}

/// The tags the writer writes itself.
const WRITTEN: [&str; 13] = [
    "Event",
    "Site",
    "Date",
    "Round",
    "White",
    "Black",
    "Result",
    "Variant",
    "FEN",
    "SetUp",
    "TimeControl",
    "Termination",
    "PlyCount",
];

/// What a game's PGN says of it beside its moves.
pub struct Header {
    event: String,
    site: String,
    date: String,
    round: usize,
    players: [String; 2],
    /// The result a PGN gave, where the board shows none (a resignation).
    result: Option<GameResult>,
    /// `TimeControl`: `300+2` (seconds), `-` without a clock.
    time_control: String,
    /// Why a game ended other than by the rules of its position, and how.
    ending: Option<(String, Termination)>,
}

impl Header {
    /// The header of a game: an imported game keeps its own players, event,
    /// site, date, round and result, and its other tags go into `notes`;
    /// a game played here gets `players`, `date` and `round`.
    pub fn of(
        tags: &[(String, String)],
        players: [&str; 2],
        date: String,
        round: usize,
        notes: &mut Annotations,
    ) -> Header {
        let tag = |k: &str| tags.iter().find(|(t, _)| t == k).map(|(_, v)| v.clone());
        notes.tags.extend(
            tags.iter()
                .filter(|(k, _)| !WRITTEN.contains(&k.as_str()))
                .cloned(),
        );
        Header {
            event: tag("Event").unwrap_or_else(|| "volkhv serve".into()),
            site: tag("Site").unwrap_or_else(|| "volkhv web board".into()),
            date: tag("Date").unwrap_or(date),
            round: tag("Round").and_then(|r| r.parse().ok()).unwrap_or(round),
            players: [
                tag("White").unwrap_or_else(|| players[0].to_string()),
                tag("Black").unwrap_or_else(|| players[1].to_string()),
            ],
            result: tag("Result").as_deref().and_then(result_of),
            time_control: "-".into(),
            ending: None,
        }
    }
}

/// The slot's hints and finished review as PGN annotations.
fn notes(s: &Slot) -> Annotations {
    let game = s.engine.game();
    let (mut notes, mut comments) = hint_notes(game, &s.hints);
    let now = saved(game, &s.settings, &[]);
    if let Some(r) = s
        .review
        .as_ref()
        .filter(|r| r.is_of(&now.start, &now.moves))
    {
        let review = r.snapshot();
        if review.progress >= 1.0 {
            for m in &review.moves {
                let i = m.ply - 1;
                if let (Some(note), Some(nag)) = (notes.moves.get_mut(i), m.mark.nag()) {
                    note.nags.push(nag);
                    comments[i].push(format!("best: {}", m.best_text));
                }
            }
        }
    }
    join_comments(&mut notes, comments);
    notes
}

/// The `Hints` tag (when any was asked) and, per move, the comments that
/// name the hints asked before it.
fn hint_notes(game: &AnyGame, hints: &[Hint]) -> (Annotations, Vec<Vec<String>>) {
    let plies = game.ply_count();
    let mut notes = Annotations {
        tags: Vec::new(),
        moves: vec![MoveNote::default(); plies],
    };
    let mut comments: Vec<Vec<String>> = vec![Vec::new(); plies];
    if !hints.is_empty() {
        let [w, b] = hint_counts(game, hints);
        notes
            .tags
            .push(("Hints".into(), format!("White {w}, Black {b}")));
    }
    for h in hints {
        let text = with_game!(game, g => hint_text(g, h.ply, &h.mv));
        if let Some(c) = comments.get_mut(h.ply) {
            c.push(format!("hint: {text}"));
        }
    }
    (notes, comments)
}

fn join_comments(notes: &mut Annotations, comments: Vec<Vec<String>>) {
    for (note, c) in notes.moves.iter_mut().zip(comments) {
        if !c.is_empty() {
            note.comment = Some(c.join("; "));
        }
    }
}

/// A hint's move in the move list's notation, in the position after `ply`
/// moves.
fn hint_text<P: Position + Evaluate>(g: &Game<P>, ply: usize, mv: &str) -> String {
    let mut pos = g.start().clone();
    for &m in g.moves().iter().take(ply) {
        pos.make(m);
    }
    pv_notation(&pos, &[mv.to_string()])
        .pop()
        .unwrap_or_else(|| mv.to_string())
}

/// `game` as PGN text with its header and the hints asked in it.
pub fn write(game: &AnyGame, header: &Header, hints: &[Hint], mut notes: Annotations) -> String {
    let (hint_notes, comments) = hint_notes(game, hints);
    notes.tags.extend(hint_notes.tags);
    notes.moves = hint_notes.moves;
    join_comments(&mut notes, comments);
    write_with(game, header, &notes)
}

/// [`write`] with annotations.
fn write_with(game: &AnyGame, h: &Header, notes: &Annotations) -> String {
    let header = PgnHeader {
        event: h.event.clone(),
        site: h.site.clone(),
        date: h.date.clone(),
        time_control: h.time_control.clone(),
        variant: game.variant(),
    };
    let (fen, moves, notation) = with_game!(game, g => record_moves(g));
    let outcome = game.status();
    let result = match (outcome, h.result) {
        (Some(Outcome::Checkmate { winner }), _) => Some(GameResult::win_for(winner)),
        (Some(_), _) => Some(GameResult::Draw),
        (None, given) => given,
    };
    let record = GameRecord {
        round: h.round,
        white: h.players[0].clone(),
        black: h.players[1].clone(),
        fen,
        moves,
        notation,
        result: result.unwrap_or(GameResult::Draw),
        termination: h.ending.as_ref().map_or(Termination::Normal, |e| e.1),
        reason: match (outcome, &h.ending) {
            (Some(o), _) => outcome_words(o).1.into(),
            (None, Some((why, _))) => why.clone(),
            (None, None) if result.is_some() => "as the game's PGN gives it".into(),
            (None, None) => "game in progress".into(),
        },
    };
    if result.is_some() {
        write_annotated_game(&header, &record, notes)
    } else {
        write_annotated_unfinished_game(&header, &record, notes)
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
        .map_err(|e| ApiError::bad(format!("PGN: {e}")).worded(super::wording::pgn_text(&e)))?
        .swap_remove(0);
    Ok((first.variant, first.fen, first.moves))
}
