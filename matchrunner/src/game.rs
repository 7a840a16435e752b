//! The arbiter: plays one game between two engines, validating every move
//! with movegen, keeping the clocks, and ending the game by the rules,
//! by adjudication, or by forfeit (illegal move, crash, no reply, time).

use crate::engine::{Engine, EngineError, Limit, Reply, TimeControl};
use crate::openings::{start_of, Opening};
use movegen::{status, Color, Position, Variant};
pub use notation::pgn::{GameRecord, GameResult, Termination};
use std::time::{Duration, Instant};

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

/// How a game ended, before it is written into the record.
struct Ending {
    result: GameResult,
    termination: Termination,
    reason: String,
}

impl Ending {
    /// `loser` loses by `termination`.
    fn forfeit(loser: Color, termination: Termination, reason: String) -> Ending {
        Ending {
            result: GameResult::win_for(loser.flip()),
            termination,
            reason,
        }
    }

    /// The opening cannot be set up: nobody is to blame, so nobody wins.
    fn unplayable(reason: String) -> Ending {
        Ending {
            result: GameResult::Draw,
            termination: Termination::Abandoned,
            reason,
        }
    }

    /// The end `movegen::status` sees (mate, stalemate, repetition, …).
    fn by_rules<P: Position>(board: &Board<P>) -> Option<Ending> {
        let outcome = status(&board.pos, &board.keys)?;
        Some(Ending {
            result: outcome
                .winner()
                .map_or(GameResult::Draw, GameResult::win_for),
            termination: Termination::Normal,
            reason: outcome.reason().to_string(),
        })
    }

    /// The end the engines' agreed scores decide.
    fn by_scores(adj: &Adjudication, scores: &[Option<i32>], fullmoves: u32) -> Option<Ending> {
        let result = adjudicate(adj, scores, fullmoves)?;
        let reason = match result {
            GameResult::Draw => "Draw by adjudication: both engines report a level score",
            GameResult::WhiteWins => "White wins by adjudication: both engines agree",
            GameResult::BlackWins => "Black wins by adjudication: both engines agree",
        };
        Some(Ending {
            result,
            termination: Termination::Adjudication,
            reason: reason.to_string(),
        })
    }

    /// The draw `--maxmoves` calls after `plies` plies.
    fn by_length(adj: &Adjudication, plies: usize) -> Option<Ending> {
        let max = adj.maxmoves.filter(|&max| plies >= 2 * max as usize)?;
        Some(Ending {
            result: GameResult::Draw,
            termination: Termination::Adjudication,
            reason: format!("Draw by adjudication: {max} moves played"),
        })
    }

    /// What an engine's failure to answer `go` costs it.
    fn engine_failure(e: EngineError, side: Color, who: &str, allowed: Duration) -> Ending {
        match e {
            EngineError::Timeout(_) => {
                let why = format!(
                    "{who} did not reply within {:.3} s and was killed",
                    allowed.as_secs_f64()
                );
                Ending::forfeit(side, Termination::TimeForfeit, why)
            }
            EngineError::Resigned => {
                Ending::forfeit(side, Termination::Normal, format!("{who} resigns"))
            }
            e @ (EngineError::Crashed(_) | EngineError::Protocol(_)) => {
                Ending::forfeit(side, Termination::Abandoned, format!("{who} {e}"))
            }
        }
    }
}

/// A record with no moves yet; its result is only a placeholder until
/// [`end_record`].
fn new_record(white: &Engine, black: &Engine, opening: &Opening, round: usize) -> GameRecord {
    GameRecord {
        round,
        white: white.name().to_string(),
        black: black.name().to_string(),
        fen: opening.fen.clone(),
        moves: Vec::new(),
        notation: Vec::new(),
        result: GameResult::Draw,
        termination: Termination::Abandoned,
        reason: String::new(),
    }
}

fn end_record(mut rec: GameRecord, ending: Ending) -> GameRecord {
    rec.result = ending.result;
    rec.termination = ending.termination;
    rec.reason = ending.reason;
    rec
}

/// The arbiter's position and key history, kept in step with the record's
/// move lists.
struct Board<P> {
    pos: P,
    keys: Vec<u64>,
}

impl<P: Position> Board<P> {
    /// The opening's position, its moves already written into `rec`.
    fn set_up(opening: &Opening, rec: &mut GameRecord) -> Result<Board<P>, Ending> {
        let pos = match &opening.fen {
            Some(f) => {
                P::from_fen(f).map_err(|e| Ending::unplayable(format!("bad start FEN: {e}")))?
            }
            None => P::startpos(),
        };
        start_of::<P>(opening).map_err(|e| Ending::unplayable(format!("bad opening: {e}")))?;
        let mut board = Board {
            pos,
            keys: Vec::new(),
        };
        for s in &opening.moves {
            let m = board
                .pos
                .parse_move(s)
                .map_err(|_| Ending::unplayable(format!("bad opening move {s}")))?;
            board.play(rec, m);
        }
        Ok(board)
    }

    fn play(&mut self, rec: &mut GameRecord, m: movegen::Move) {
        rec.notation.push(notation::move_text(&self.pos, m));
        rec.moves.push(m.to_string());
        self.keys.push(self.pos.key());
        self.pos.make(m);
    }

    /// The end of the game by the rules, else by adjudication, if it is over.
    fn ending(&self, adj: &Adjudication, scores: &[Option<i32>], plies: usize) -> Option<Ending> {
        Ending::by_rules(self)
            .or_else(|| Ending::by_scores(adj, scores, self.pos.fullmoves()))
            .or_else(|| Ending::by_length(adj, plies))
    }

    /// The legal move `reply` names, or the forfeit a bad one costs.
    fn accept(&self, reply: &str, side: Color, who: &str) -> Result<movegen::Move, Ending> {
        self.pos.parse_move(reply).map_err(|e| {
            let shown = if reply.is_empty() { "(none)" } else { reply };
            let why = match e {
                movegen::MoveError::Syntax(_) => format!("{who} sent a malformed move {shown}"),
                movegen::MoveError::Illegal(_) => format!("{who} played an illegal move {shown}"),
            };
            Ending::forfeit(side, Termination::RulesInfraction, why)
        })
    }
}

/// The runner's own clocks, and how long each reply may take.
struct Clock {
    tc: TimeControl,
    /// Milliseconds left, by colour (used only with [`TimeControl::Clock`]).
    left: [u64; 2],
    inc: u64,
    margin: Duration,
    move_timeout: Duration,
}

impl Clock {
    fn new(settings: &GameSettings) -> Clock {
        let (base, inc) = match settings.tc {
            TimeControl::Clock { base_ms, inc_ms } => (base_ms, inc_ms),
            _ => (0, 0),
        };
        Clock {
            tc: settings.tc,
            left: [base, base],
            inc,
            margin: Duration::from_millis(settings.margin_ms),
            move_timeout: settings.move_timeout,
        }
    }

    /// What `side` is told for its move, and how long its reply may take.
    fn limit(&self, side: Color) -> (Limit, Duration) {
        match self.tc {
            TimeControl::Clock { .. } => (
                Limit::Clock {
                    wtime: self.left[0],
                    btime: self.left[1],
                    winc: self.inc,
                    binc: self.inc,
                },
                Duration::from_millis(self.left[side.index()]) + self.margin,
            ),
            TimeControl::MoveTime(ms) => {
                (Limit::MoveTime(ms), Duration::from_millis(ms) + self.margin)
            }
            TimeControl::Nodes(n) => (Limit::Nodes(n), self.move_timeout),
            TimeControl::Depth(d) => (Limit::Depth(d), self.move_timeout),
        }
    }

    /// Takes `used` off `side`'s clock and adds the increment.
    fn charge(&mut self, side: Color, used: Duration) {
        if let TimeControl::Clock { .. } = self.tc {
            let used = u64::try_from(used.as_millis()).unwrap_or(u64::MAX);
            let left = &mut self.left[side.index()];
            *left = left.saturating_sub(used) + self.inc;
        }
    }
}

/// `White (name)`, as the reasons name an engine.
fn who(side: Color, engine: &Engine) -> String {
    format!("{} ({})", side_name(side), engine.name())
}

/// Tells both engines about the new game; the first that fails forfeits.
fn start_engines(
    settings: &GameSettings,
    seats: &mut [&mut Engine; 2],
    fen: Option<&str>,
) -> Result<(), Ending> {
    for (color, engine) in [Color::White, Color::Black]
        .into_iter()
        .zip(seats.iter_mut())
    {
        if let Err(e) = engine.new_game(settings.variant, fen, settings.tc) {
            let t = match e {
                EngineError::Timeout(_) => Termination::TimeForfeit,
                _ => Termination::Abandoned,
            };
            let why = format!("{} failed to start the game: {e}", who(color, engine));
            return Err(Ending::forfeit(color, t, why));
        }
    }
    Ok(())
}

/// Asks `engine` for `side`'s move and charges its clock; a reply that
/// comes too late, or none, is the forfeit it causes.
fn request_move(
    engine: &mut Engine,
    clock: &mut Clock,
    side: Color,
    fen: Option<&str>,
    moves: &[String],
) -> Result<Reply, Ending> {
    let (limit, allowed) = clock.limit(side);
    let started = Instant::now();
    let reply = engine.go(fen, moves, limit, side == Color::White, started + allowed);
    let elapsed = started.elapsed();
    let who = who(side, engine);
    let reply = reply.map_err(|e| Ending::engine_failure(e, side, &who, allowed))?;
    if elapsed > allowed {
        let why = format!("{who} lost on time ({:.3} s used)", elapsed.as_secs_f64());
        return Err(Ending::forfeit(side, Termination::TimeForfeit, why));
    }
    clock.charge(side, elapsed);
    Ok(reply)
}

/// A game in progress: the board, the clocks and every move's score from
/// white's view (for adjudication).
struct Game<'a, P> {
    settings: &'a GameSettings,
    fen: Option<&'a str>,
    board: Board<P>,
    clock: Clock,
    scores: Vec<Option<i32>>,
}

impl<P: Position> Game<'_, P> {
    /// One ply: the game's end if it is over, else the mover's move played.
    fn turn(&mut self, seats: &mut [&mut Engine; 2], rec: &mut GameRecord) -> Result<(), Ending> {
        let adj = &self.settings.adjudication;
        if let Some(ending) = self.board.ending(adj, &self.scores, rec.moves.len()) {
            return Err(ending);
        }
        let side = self.board.pos.turn();
        let engine = &mut *seats[side.index()];
        let reply = request_move(engine, &mut self.clock, side, self.fen, &rec.moves)?;
        let m = self.board.accept(&reply.mv, side, &who(side, engine))?;
        self.board.play(rec, m);
        let white_view = |s: i32| if side == Color::White { s } else { -s };
        self.scores.push(reply.score.map(white_view));
        Ok(())
    }
}

/// Sets the game up and plays it to its end.
fn play<P: Position>(
    settings: &GameSettings,
    seats: &mut [&mut Engine; 2],
    opening: &Opening,
    rec: &mut GameRecord,
) -> Ending {
    let board = match Board::<P>::set_up(opening, rec) {
        Ok(board) => board,
        Err(ending) => return ending,
    };
    let fen = opening.fen.as_deref();
    if let Err(ending) = start_engines(settings, seats, fen) {
        return ending;
    }
    let mut game = Game {
        settings,
        fen,
        board,
        clock: Clock::new(settings),
        scores: Vec::new(),
    };
    loop {
        if let Err(ending) = game.turn(seats, rec) {
            return ending;
        }
    }
}

/// Plays one game. `white` and `black` must have been started for this
/// variant; either may be dead afterwards (hung or crashed), and the caller
/// restarts it.
pub fn play_game<P: Position>(
    settings: &GameSettings,
    white: &mut Engine,
    black: &mut Engine,
    opening: &Opening,
    round: usize,
) -> GameRecord {
    let mut rec = new_record(white, black, opening, round);
    let ending = play::<P>(settings, &mut [white, black], opening, &mut rec);
    end_record(rec, ending)
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

    fn settings(tc: TimeControl) -> GameSettings {
        GameSettings {
            variant: Variant::Chess,
            tc,
            margin_ms: 50,
            move_timeout: Duration::from_secs(7),
            adjudication: Adjudication::default(),
        }
    }

    #[test]
    fn clocks_run_down_refill_and_never_go_negative() {
        let tc = TimeControl::Clock {
            base_ms: 1000,
            inc_ms: 100,
        };
        let mut clock = Clock::new(&settings(tc));
        let told = |wtime, btime| Limit::Clock {
            wtime,
            btime,
            winc: 100,
            binc: 100,
        };
        assert_eq!(
            clock.limit(Color::White),
            (told(1000, 1000), Duration::from_millis(1050))
        );
        clock.charge(Color::White, Duration::from_millis(300));
        assert_eq!(
            clock.limit(Color::Black),
            (told(800, 1000), Duration::from_millis(1050))
        );
        clock.charge(Color::Black, Duration::from_secs(5));
        assert_eq!(
            clock.limit(Color::White),
            (told(800, 100), Duration::from_millis(850))
        );
    }

    #[test]
    fn fixed_limits_keep_no_clock() {
        let mut clock = Clock::new(&settings(TimeControl::Nodes(5)));
        clock.charge(Color::White, Duration::from_secs(3));
        assert_eq!(
            clock.limit(Color::White),
            (Limit::Nodes(5), Duration::from_secs(7))
        );
        let clock = Clock::new(&settings(TimeControl::MoveTime(200)));
        assert_eq!(
            clock.limit(Color::Black),
            (Limit::MoveTime(200), Duration::from_millis(250))
        );
    }

    #[test]
    fn maxmoves_counts_full_moves() {
        let adj = Adjudication {
            maxmoves: Some(3),
            ..Adjudication::default()
        };
        assert!(Ending::by_length(&adj, 5).is_none());
        let end = Ending::by_length(&adj, 6).expect("three moves each");
        assert_eq!(end.result, GameResult::Draw);
        assert_eq!(end.termination, Termination::Adjudication);
        assert_eq!(end.reason, "Draw by adjudication: 3 moves played");
        assert!(Ending::by_length(&Adjudication::default(), 1000).is_none());
    }

    #[test]
    fn engine_failures_map_to_their_terminations() {
        let allowed = Duration::from_millis(1500);
        let end = |e| Ending::engine_failure(e, Color::Black, "Black (x)", allowed);
        let timeout = end(EngineError::Timeout("slow".into()));
        assert_eq!(
            (timeout.result, timeout.termination, timeout.reason.as_str()),
            (
                GameResult::WhiteWins,
                Termination::TimeForfeit,
                "Black (x) did not reply within 1.500 s and was killed"
            )
        );
        let resigned = end(EngineError::Resigned);
        assert_eq!(resigned.termination, Termination::Normal);
        assert_eq!(resigned.reason, "Black (x) resigns");
        let crashed = end(EngineError::Crashed("its output ended".into()));
        assert_eq!(crashed.termination, Termination::Abandoned);
        assert_eq!(crashed.reason, "Black (x) crashed: its output ended");
    }

    #[test]
    fn half_points() {
        assert_eq!(GameResult::WhiteWins.half_points(Color::White), 2);
        assert_eq!(GameResult::WhiteWins.half_points(Color::Black), 0);
        assert_eq!(GameResult::Draw.half_points(Color::Black), 1);
        assert_eq!(GameResult::BlackWins.half_points(Color::Black), 2);
    }
}
