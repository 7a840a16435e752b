//! The arbiter: plays one game between two engines, validating every move
//! with movegen, keeping the clocks, and ending the game by the rules,
//! by adjudication, or by forfeit (illegal move, crash, no reply, time).

use crate::engine::{Engine, EngineError, Limit, TimeControl};
use crate::openings::{start_of, Opening};
use crate::san::san;
use movegen::{status, Color, Position, Variant};
use std::time::{Duration, Instant};

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

/// Score-based adjudication settings (centipawns, both engines must agree).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Adjudication {
    /// `(movecount, score)`: a side wins once both engines have scored it
    /// at least `score` ahead for `movecount` moves each in a row.
    pub resign: Option<(u32, i32)>,
    /// `(movenumber, movecount, score)`: a draw from move `movenumber` on,
    /// once both engines have reported |score| ≤ `score` for `movecount`
    /// moves each in a row.
    pub draw: Option<(u32, u32, i32)>,
    /// A draw once this many full moves have been played.
    pub maxmoves: Option<u32>,
}

/// What every game of a match shares.
#[derive(Clone, Debug, PartialEq)]
pub struct GameSettings {
    /// The variant.
    pub variant: Variant,
    /// The time control.
    pub tc: TimeControl,
    /// How far past its time an engine may answer (milliseconds).
    pub margin_ms: u64,
    /// How long a `--nodes`/`--depth` move may take before the engine is
    /// declared hung.
    pub move_timeout: Duration,
    /// Adjudication.
    pub adjudication: Adjudication,
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

fn side_name(c: Color) -> &'static str {
    match c {
        Color::White => "White",
        Color::Black => "Black",
    }
}

/// The adjudicated result from white-view scores of the moves so far.
fn adjudicate(adj: &Adjudication, scores: &[Option<i32>], fullmoves: u32) -> Option<GameResult> {
    let recent = |count: u32| -> Option<Vec<i32>> {
        let n = 2 * count as usize;
        if n == 0 || scores.len() < n {
            return None;
        }
        scores[scores.len() - n..].iter().copied().collect()
    };
    if let Some((count, score)) = adj.resign {
        if let Some(s) = recent(count) {
            if s.iter().all(|&x| x >= score) {
                return Some(GameResult::WhiteWins);
            }
            if s.iter().all(|&x| x <= -score) {
                return Some(GameResult::BlackWins);
            }
        }
    }
    if let Some((number, count, score)) = adj.draw {
        if fullmoves >= number {
            if let Some(s) = recent(count) {
                if s.iter().all(|&x| x.abs() <= score) {
                    return Some(GameResult::Draw);
                }
            }
        }
    }
    None
}

/// Plays one game. `white` and `black` must have been started for this
/// variant; either may be dead afterwards (hung or crashed), and the caller
/// restarts it.
#[expect(
    clippy::too_many_lines,
    reason = "one linear game loop reads best whole"
)]
pub fn play_game<P: Position>(
    settings: &GameSettings,
    white: &mut Engine,
    black: &mut Engine,
    opening: &Opening,
    round: usize,
) -> GameRecord {
    let mut rec = GameRecord {
        round,
        white: white.name().to_string(),
        black: black.name().to_string(),
        fen: opening.fen.clone(),
        moves: Vec::new(),
        notation: Vec::new(),
        result: GameResult::Draw,
        termination: Termination::Abandoned,
        reason: String::new(),
    };
    let start: P = match &opening.fen {
        Some(f) => match P::from_fen(f) {
            Ok(p) => p,
            Err(e) => {
                rec.reason = format!("bad start FEN: {e}");
                return rec;
            }
        },
        None => P::startpos(),
    };
    let (mut pos, mut keys) = (start.clone(), Vec::new());
    if let Err(e) = start_of::<P>(opening) {
        rec.reason = format!("bad opening: {e}");
        return rec;
    }
    for s in &opening.moves {
        let Ok(m) = pos.parse_move(s) else {
            rec.reason = format!("bad opening move {s}");
            return rec;
        };
        rec.notation.push(notation(&pos, m));
        rec.moves.push(m.to_string());
        keys.push(pos.key());
        pos.make(m);
    }
    let forfeit = |rec: &mut GameRecord, loser: Color, t: Termination, why: String| {
        rec.result = GameResult::win_for(loser.flip());
        rec.termination = t;
        rec.reason = why;
    };
    for (color, engine) in [(Color::White, &mut *white), (Color::Black, &mut *black)] {
        if let Err(e) = engine.new_game(settings.variant, opening.fen.as_deref(), settings.tc) {
            let t = match e {
                EngineError::Timeout(_) => Termination::TimeForfeit,
                _ => Termination::Abandoned,
            };
            let why = format!(
                "{} ({}) failed to start the game: {e}",
                side_name(color),
                engine.name()
            );
            forfeit(&mut rec, color, t, why);
            return rec;
        }
    }
    let (base, inc) = match settings.tc {
        TimeControl::Clock { base_ms, inc_ms } => (base_ms, inc_ms),
        _ => (0, 0),
    };
    let mut clock = [base, base];
    let mut scores: Vec<Option<i32>> = Vec::new();
    let margin = Duration::from_millis(settings.margin_ms);
    let game_plies = |rec: &GameRecord| rec.moves.len();
    loop {
        if let Some(outcome) = status(&pos, &keys) {
            rec.result = match outcome.winner() {
                Some(c) => GameResult::win_for(c),
                None => GameResult::Draw,
            };
            rec.termination = Termination::Normal;
            rec.reason = outcome.reason().to_string();
            return rec;
        }
        let adj = &settings.adjudication;
        if let Some(r) = adjudicate(adj, &scores, pos.fullmoves()) {
            rec.result = r;
            rec.termination = Termination::Adjudication;
            rec.reason = match r {
                GameResult::Draw => "Draw by adjudication: both engines report a level score",
                GameResult::WhiteWins => "White wins by adjudication: both engines agree",
                GameResult::BlackWins => "Black wins by adjudication: both engines agree",
            }
            .to_string();
            return rec;
        }
        if let Some(max) = adj.maxmoves {
            if game_plies(&rec) >= 2 * max as usize {
                rec.result = GameResult::Draw;
                rec.termination = Termination::Adjudication;
                rec.reason = format!("Draw by adjudication: {max} moves played");
                return rec;
            }
        }
        let side = pos.turn();
        let engine: &mut Engine = match side {
            Color::White => white,
            Color::Black => black,
        };
        let own = clock[side.index()];
        let (limit, allowed) = match settings.tc {
            TimeControl::Clock { .. } => (
                Limit::Clock {
                    wtime: clock[0],
                    btime: clock[1],
                    winc: inc,
                    binc: inc,
                },
                Duration::from_millis(own) + margin,
            ),
            TimeControl::MoveTime(ms) => (Limit::MoveTime(ms), Duration::from_millis(ms) + margin),
            TimeControl::Nodes(n) => (Limit::Nodes(n), settings.move_timeout),
            TimeControl::Depth(d) => (Limit::Depth(d), settings.move_timeout),
        };
        let started = Instant::now();
        let reply = engine.go(
            opening.fen.as_deref(),
            &rec.moves,
            limit,
            side == Color::White,
            started + allowed,
        );
        let elapsed = started.elapsed();
        let who = format!("{} ({})", side_name(side), engine.name());
        let reply = match reply {
            Ok(r) => r,
            Err(EngineError::Timeout(_)) => {
                let why = format!(
                    "{who} did not reply within {:.3} s and was killed",
                    allowed.as_secs_f64()
                );
                forfeit(&mut rec, side, Termination::TimeForfeit, why);
                return rec;
            }
            Err(EngineError::Resigned) => {
                forfeit(
                    &mut rec,
                    side,
                    Termination::Normal,
                    format!("{who} resigns"),
                );
                return rec;
            }
            Err(e @ (EngineError::Crashed(_) | EngineError::Protocol(_))) => {
                forfeit(&mut rec, side, Termination::Abandoned, format!("{who} {e}"));
                return rec;
            }
        };
        if elapsed > allowed {
            let why = format!("{who} lost on time ({:.3} s used)", elapsed.as_secs_f64());
            forfeit(&mut rec, side, Termination::TimeForfeit, why);
            return rec;
        }
        if let TimeControl::Clock { .. } = settings.tc {
            let used = u64::try_from(elapsed.as_millis()).unwrap_or(u64::MAX);
            clock[side.index()] = own.saturating_sub(used) + inc;
        }
        let m = match pos.parse_move(&reply.mv) {
            Ok(m) => m,
            Err(e) => {
                let shown = if reply.mv.is_empty() {
                    "(none)"
                } else {
                    &reply.mv
                };
                let why = match e {
                    movegen::MoveError::Syntax(_) => format!("{who} sent a malformed move {shown}"),
                    movegen::MoveError::Illegal(_) => {
                        format!("{who} played an illegal move {shown}")
                    }
                };
                forfeit(&mut rec, side, Termination::RulesInfraction, why);
                return rec;
            }
        };
        rec.notation.push(notation(&pos, m));
        rec.moves.push(m.to_string());
        keys.push(pos.key());
        pos.make(m);
        scores.push(
            reply
                .score
                .map(|s| if side == Color::White { s } else { -s }),
        );
    }
}

/// SAN for chess, the RULES.md move string for the other variants.
fn notation<P: Position>(pos: &P, m: movegen::Move) -> String {
    if P::VARIANT == Variant::Chess {
        san(pos, m)
    } else {
        m.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adjudication_needs_agreement_for_long_enough() {
        let adj = Adjudication {
            resign: Some((2, 600)),
            draw: Some((40, 3, 10)),
            maxmoves: None,
        };
        let s = |v: &[i32]| v.iter().map(|&x| Some(x)).collect::<Vec<_>>();
        assert_eq!(
            adjudicate(&adj, &s(&[700, 650, 601, 900]), 10),
            Some(GameResult::WhiteWins)
        );
        assert_eq!(
            adjudicate(&adj, &s(&[0, -700, -650, -601, -900]), 10),
            Some(GameResult::BlackWins)
        );
        // One engine disagrees in the window.
        assert_eq!(adjudicate(&adj, &s(&[700, 650, 599, 900]), 10), None);
        assert_eq!(adjudicate(&adj, &s(&[700, 650, 900]), 10), None);
        let mut missing = s(&[700, 650, 700, 900]);
        missing[2] = None;
        assert_eq!(adjudicate(&adj, &missing, 10), None);
        let level = s(&[5, -3, 0, 10, -10, 2]);
        assert_eq!(adjudicate(&adj, &level, 39), None);
        assert_eq!(adjudicate(&adj, &level, 40), Some(GameResult::Draw));
        assert_eq!(adjudicate(&adj, &s(&[5, -3, 0, 11, -10, 2]), 40), None);
    }

    #[test]
    fn half_points() {
        assert_eq!(GameResult::WhiteWins.half_points(Color::White), 2);
        assert_eq!(GameResult::WhiteWins.half_points(Color::Black), 0);
        assert_eq!(GameResult::Draw.half_points(Color::Black), 1);
        assert_eq!(GameResult::BlackWins.half_points(Color::Black), 2);
    }
}
