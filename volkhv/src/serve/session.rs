//! The games behind the pages: one [`Slot`] per page, each with its own
//! [`Engine`] (and so its own hash table), at most one search each, a cap on
//! live games, and the live streams (Server-Sent Events) that carry state and
//! search output to the page.
//!
//! ```text
//! request (blocking task) ──lock──▶ Slot { Engine, Settings, Run, subscribers }
//!                          │ go(limits, sink)
//! search thread ──sink──▶ dispatcher ──lock──▶ Slot: info → streams; bestmove → play, next search
//! SSE body (async) ◀──bounded channel── Slot::broadcast   (a closed page drops its body: searches stop)
//! ```
//! The search thread never locks a slot: its sink only sends to the
//! dispatcher, so `Engine::play`'s wait for the worker cannot deadlock.

use super::http::Words;
use super::review;
use engine::{with_game, AnyGame, Engine, Info, Limits, Options, Score, SearchEvent};
use movegen::{Color, Describe, PieceParts, Position, Role, Variant};
use notation::words::outcome_words;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Instant;
use tokio::sync::mpsc as stream_channel;

/// Live games kept at most; creating one more evicts the least recently
/// used game without an open page (or, failing that, the least recent).
pub const MAX_GAMES: usize = 16;
/// Live streams per game (a page normally holds one; a game between two
/// seats has theirs, the host's and the watchers').
pub const MAX_STREAMS_PER_GAME: usize = 12;
/// Events a stream may have waiting to be written; a page that reads none
/// of them meanwhile is dropped (it reconnects and gets the whole state).
pub const STREAM_BACKLOG: usize = 512;

/// The receiving end of a game's stream: whole SSE events as text.
pub type StreamEvents = stream_channel::Receiver<String>;

/// Why a game refuses a request, by kind; the web API gives each its HTTP
/// status (the session knows no protocol).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// The request itself is wrong (bad FEN, move, option).
    Bad(String),
    /// No such game.
    NotFound(String),
    /// Well formed but not now (the engine is to move, the game is over).
    Conflict(String),
    /// Too many of something open at once.
    TooMany(String),
    /// The game library could not store the change (read-only file, full
    /// disk): the change was not made.
    Storage(String),
    /// One of the above with the words a page shows for it.
    Worded(Box<Refusal>, Words),
}

impl Refusal {
    /// The same refusal, worded in the catalogues under `key` with
    /// `values`.
    #[must_use]
    pub fn worded(self, key: &'static str, values: Vec<(&'static str, String)>) -> Refusal {
        Refusal::Worded(Box::new(self), Words::new(key, values))
    }
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refusal::Bad(m)
            | Refusal::NotFound(m)
            | Refusal::Conflict(m)
            | Refusal::TooMany(m)
            | Refusal::Storage(m) => f.write_str(m),
            Refusal::Worded(r, _) => r.fmt(f),
        }
    }
}

/// How a game's state and search lines are written to its streams. The web
/// API provides the format (JSON); the session only says when.
pub trait View: Send + Sync {
    /// The whole state of `slot`, as a stream's `state` event.
    fn state(&self, slot: &Slot) -> String;
    /// One search line of `run`, as an `info` event.
    fn info(&self, run: &Run, info: &Info) -> String;
    /// An engine message worth showing, as a `message` event.
    fn message(&self, text: &str) -> String;
}

/// A game as the library keeps it: enough to rebuild it move for move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Saved {
    /// Its variant.
    pub variant: Variant,
    /// The start position's FEN.
    pub start: String,
    /// The moves played, as move strings.
    pub moves: Vec<String>,
    /// As in PGN: `1-0`, `0-1`, `1/2-1/2`, or `*` while it goes on.
    pub result: String,
    /// Why it ended, in words (empty while it goes on).
    pub reason: String,
    /// Who played and how (the engine's sides and limit).
    pub settings: Settings,
    /// The hints asked for, in the order asked.
    pub hints: Vec<Hint>,
    /// With a clock: the mover's time left after each move, milliseconds
    /// (PGN `[%clk]`); empty without one.
    pub clocks: Vec<u64>,
}

/// A hint a person asked for: the best move shown in the position after
/// `ply` moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hint {
    /// Moves played before the position of the hint.
    pub ply: usize,
    /// The move shown, as a move string.
    pub mv: String,
}

/// Where games are kept as they are played. The session says what to keep
/// and when; the implementation (SQLite, `store.rs`) says how. Each method
/// returns only once the change is durable, so that no reply shows a move
/// the library has not got.
pub trait Library: Send + Sync {
    /// Keeps a new game; returns its id.
    ///
    /// # Errors
    /// The storage's reason, in words.
    fn create(&self, game: &Saved) -> Result<u64, String>;
    /// Replaces game `id` with `game` (a move, a takeback, new settings).
    ///
    /// # Errors
    /// The storage's reason, in words; the kept game is unchanged then.
    fn save(&self, id: u64, game: &Saved) -> Result<(), String>;
    /// Game `id` starts over as `game`; the game it held (if it had moves)
    /// is kept under a new id. All or nothing.
    ///
    /// # Errors
    /// The storage's reason, in words; nothing changed then.
    fn start_over(&self, id: u64, game: &Saved) -> Result<(), String>;
    /// Game `id`, if the library has it.
    ///
    /// # Errors
    /// The storage's reason, in words.
    fn load(&self, id: u64) -> Result<Option<Saved>, String>;
    /// The PGN tags game `id` was imported with (none for a game played here).
    fn tags(&self, id: u64) -> Vec<(String, String)>;
}

/// Locks a mutex, also after a panic elsewhere (a request that panicked is
/// answered 500; the data it guarded is still a consistent game).
pub fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Which sides the engine plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sides {
    /// Human vs human.
    None,
    /// The engine plays white.
    White,
    /// The engine plays black.
    Black,
    /// Engine vs engine.
    Both,
}

impl Sides {
    /// Parses `none|white|black|both`.
    pub fn parse(s: &str) -> Option<Sides> {
        match s {
            "none" | "" => Some(Sides::None),
            "white" => Some(Sides::White),
            "black" => Some(Sides::Black),
            "both" => Some(Sides::Both),
            _ => None,
        }
    }

    /// The name [`Sides::parse`] reads.
    pub const fn name(self) -> &'static str {
        match self {
            Sides::None => "none",
            Sides::White => "white",
            Sides::Black => "black",
            Sides::Both => "both",
        }
    }

    /// `true` if the engine plays `c`.
    pub const fn plays(self, c: Color) -> bool {
        matches!(
            (self, c),
            (Sides::Both, _) | (Sides::White, Color::White) | (Sides::Black, Color::Black)
        )
    }
}

/// How long the engine thinks per move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EngineLimit {
    /// Milliseconds per move.
    Movetime(u64),
    /// Plies.
    Depth(u32),
    /// Nodes.
    Nodes(u64),
    /// A clock per side: base and increment in milliseconds.
    Clock {
        /// Starting time of each side.
        base_ms: u64,
        /// Added after each move.
        inc_ms: u64,
    },
}

/// What the page set: who plays, how long, engine options, analysis.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    /// The engine's sides (ignored while analysing).
    pub sides: Sides,
    /// The engine's limit per move.
    pub limit: EngineLimit,
    /// Threads, Hash and MultiPV.
    pub options: Options,
    /// Infinite analysis of every position shown.
    pub analyse: bool,
    /// The level the engine plays its moves at (`None`: full strength);
    /// analysis and hints are always at full strength.
    pub elo: Option<u32>,
    /// The players' names of a game between two seats (white, black).
    pub players: Option<[String; 2]>,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            sides: Sides::None,
            limit: EngineLimit::Movetime(1000),
            options: Options::default(),
            analyse: false,
            elo: None,
            players: None,
        }
    }
}

/// How a game ended other than by the rules of the position: a
/// resignation, an agreed draw, a flag.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ending {
    /// As in PGN: `1-0`, `0-1`, `1/2-1/2`.
    pub result: &'static str,
    /// Why, in words (the PGN's and the library's).
    pub reason: &'static str,
    /// The same as a key a page finds its words under.
    pub key: &'static str,
}

impl Ending {
    /// `side` resigns.
    pub const fn resigns(side: Color) -> Ending {
        match side {
            Color::White => Ending {
                result: "0-1",
                reason: "White resigns",
                key: "white_resigned",
            },
            Color::Black => Ending {
                result: "1-0",
                reason: "Black resigns",
                key: "black_resigned",
            },
        }
    }

    /// Both sides agreed.
    pub const AGREED: Ending = Ending {
        result: "1/2-1/2",
        reason: "Draw by agreement",
        key: "agreed",
    };

    /// `side`'s time ran out; `opponent_can_mate` decides between a loss
    /// and a draw.
    pub const fn flag(side: Color, opponent_can_mate: bool) -> Ending {
        match (side, opponent_can_mate) {
            (_, false) => Ending {
                result: "1/2-1/2",
                reason: "Draw: time ran out, but the opponent cannot mate",
                key: "flag_draw",
            },
            (Color::White, true) => Ending {
                result: "0-1",
                reason: "White lost on time",
                key: "white_flagged",
            },
            (Color::Black, true) => Ending {
                result: "1-0",
                reason: "Black lost on time",
                key: "black_flagged",
            },
        }
    }

    /// Every ending, to read one back from the library by its reason.
    const ALL: [Ending; 6] = [
        Ending::resigns(Color::White),
        Ending::resigns(Color::Black),
        Ending::AGREED,
        Ending::flag(Color::White, false),
        Ending::flag(Color::White, true),
        Ending::flag(Color::Black, true),
    ];

    /// The ending a library row's result and reason name, if it is one.
    pub fn of_saved(result: &str, reason: &str) -> Option<Ending> {
        Ending::ALL
            .into_iter()
            .find(|e| e.result == result && e.reason == reason)
    }
}

/// What one side has offered the other and waits for an answer to.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Offers {
    /// A draw, offered by this side.
    pub draw: Option<Color>,
    /// A takeback, asked for by this side.
    pub takeback: Option<Color>,
}

/// An answer to an offer, or making one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OfferStep {
    /// Offer (a draw) or ask for (a takeback).
    Offer,
    /// Accept the other side's offer.
    Accept,
    /// Decline it (or take back one's own).
    Decline,
}

impl OfferStep {
    /// `offer` (or `ask`), `accept`, `decline`.
    pub fn parse(s: &str) -> Option<OfferStep> {
        match s {
            "offer" | "ask" => Some(OfferStep::Offer),
            "accept" => Some(OfferStep::Accept),
            "decline" => Some(OfferStep::Decline),
            _ => None,
        }
    }
}

/// The clocks of a game played with [`EngineLimit::Clock`].
#[derive(Clone, Copy, Debug)]
pub struct Clock {
    /// Milliseconds left, white then black.
    pub left_ms: [i64; 2],
    /// Increment per move.
    pub inc_ms: u64,
    /// When the side to move's time began to run.
    pub since: Instant,
}

impl Clock {
    fn for_limit(limit: EngineLimit) -> Option<Clock> {
        match limit {
            EngineLimit::Clock { base_ms, inc_ms } => Some(Clock::new(base_ms, inc_ms)),
            _ => None,
        }
    }

    fn new(base_ms: u64, inc_ms: u64) -> Clock {
        let base = i64::try_from(base_ms).unwrap_or(i64::MAX);
        Clock {
            left_ms: [base, base],
            inc_ms,
            since: Instant::now(),
        }
    }

    /// Charges the time since the turn began to `mover` and adds the increment.
    fn moved(&mut self, mover: Color) {
        let spent = i64::try_from(self.since.elapsed().as_millis()).unwrap_or(i64::MAX);
        let inc = i64::try_from(self.inc_ms).unwrap_or(0);
        let left = &mut self.left_ms[mover.index()];
        *left = left.saturating_sub(spent).saturating_add(inc);
        self.since = Instant::now();
    }

    /// The time left of `c` now (the running side's time keeps falling).
    pub fn now_ms(&self, c: Color, turn: Color) -> i64 {
        let left = self.left_ms[c.index()];
        if c == turn {
            left.saturating_sub(i64::try_from(self.since.elapsed().as_millis()).unwrap_or(0))
        } else {
            left
        }
    }
}

/// Why a search runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// The engine chooses a move and plays it.
    Play,
    /// Infinite analysis; nothing is played.
    Analyse,
}

/// The search in progress.
#[derive(Clone, Debug)]
pub struct Run {
    /// Tags its events: those of an earlier search are dropped.
    pub gen: u64,
    /// Why it runs.
    pub kind: Kind,
    /// The position searched (for the PV in the move list's notation).
    pub root: AnyGame,
    /// Moves played before the root.
    pub ply: usize,
}

/// What the search threads send the dispatcher.
pub struct Dispatch {
    game: u64,
    gen: u64,
    event: SearchEvent,
}

/// One page's game.
pub struct Slot {
    /// Its id in URLs.
    pub id: u64,
    /// The engine, owning the game and its hash table.
    pub engine: Engine,
    /// What the page set.
    pub settings: Settings,
    /// The search in progress.
    pub run: Option<Run>,
    /// Clocks, with [`EngineLimit::Clock`].
    pub clock: Option<Clock>,
    /// Bumped on every change, so that the page can drop stale states. It
    /// starts at the clock (milliseconds since 1970) when the game is made
    /// live, so that the versions of a restarted server follow those the
    /// page saw before the restart.
    pub version: u64,
    /// The last message worth showing (an engine error).
    pub note: Option<String>,
    /// Per ply, the best line's score from white's view (eval graph).
    pub scores: Vec<Option<Score>>,
    /// The hints asked for in this game.
    pub hints: Vec<Hint>,
    /// The game review, running or done (dropped when the game changes).
    pub review: Option<review::Handle>,
    /// A resignation, agreed draw or flag that ended the game.
    pub ending: Option<Ending>,
    /// Offers waiting for an answer (seats).
    pub offers: Offers,
    /// See [`Saved::clocks`].
    pub clocks: Vec<u64>,
    next_gen: u64,
    /// Open streams: id, channel, and the seat whose page it is.
    streams: Vec<(u64, stream_channel::Sender<String>, Option<Color>)>,
    last_used: Instant,
    dispatch: Sender<Dispatch>,
    view: Arc<dyn View>,
    library: Arc<dyn Library>,
}

impl Slot {
    /// The game as the library keeps it, with `settings`.
    fn saved_with(&self, settings: &Settings) -> Saved {
        let mut kept = saved(self.engine.game(), settings, &self.hints);
        if let Some(e) = &self.ending {
            kept.result = e.result.into();
            kept.reason = e.reason.into();
        }
        kept.clocks.clone_from(&self.clocks);
        kept
    }

    /// `true` once the game has ended: by the rules, or by a resignation,
    /// an agreed draw or a flag.
    pub fn over(&self) -> bool {
        self.ending.is_some() || self.engine.status().is_some()
    }

    /// `true` while a seat's page has its stream open.
    pub fn online(&self, side: Color) -> bool {
        self.streams.iter().any(|(_, _, seat)| *seat == Some(side))
    }

    /// Makes the game as it is now durable.
    fn commit(&self) -> Result<(), Refusal> {
        self.library
            .save(self.id, &self.saved_with(&self.settings))
            .map_err(storage_error)
    }

    /// Puts back the moves of `before` after a change the library refused.
    fn restore(&mut self, before: &Saved) {
        let moves: Vec<&str> = before.moves.iter().map(String::as_str).collect();
        // The same game replayed: it was legal a moment ago.
        let _ = self.engine.set_position(Some(&before.start), &moves);
    }

    /// The PGN tags the game was imported with (none if played here).
    pub fn tags(&self) -> Vec<(String, String)> {
        self.library.tags(self.id)
    }

    /// `true` if the side to move is the engine's and it should move.
    pub fn engine_to_move(&self) -> bool {
        !self.settings.analyse
            && self.settings.sides.plays(self.engine.game().turn())
            && !self.over()
    }

    /// Plays a move given by a person.
    ///
    /// # Errors
    /// 409 while it is the engine's turn or after the end; 400 for a bad
    /// or illegal move (the game unchanged).
    pub fn human_move(&mut self, mv: &str) -> Result<(), Refusal> {
        self.going_on()?;
        if self.engine_to_move() {
            return Err(Refusal::Conflict(format!(
                "it is the engine's turn ({} to move)",
                color_word(self.engine.game().turn())
            ))
            .worded("error.engine_turn", Vec::new()));
        }
        let mv = self.move_string(mv);
        self.play(&mv)
    }

    /// A person's move as a move string: move strings are taken as they
    /// are, and SAN (`e4`, `Nxd5`, `O-O`) is read in every variant, as the
    /// move list shows it; what neither reads is left for the engine to
    /// refuse with its reason.
    fn move_string(&self, text: &str) -> String {
        with_game!(self.engine.game(), g => {
            let pos = g.position();
            pos.parse_move(text)
                .ok()
                .or_else(|| notation::san::parse_san(pos, text))
                .map(|m| m.to_string())
        })
        .unwrap_or_else(|| text.to_string())
    }

    fn play(&mut self, mv: &str) -> Result<(), Refusal> {
        let mover = self.engine.game().turn();
        self.run = None;
        if let Err(e) = self.engine.play(mv) {
            // The engine made way for the move (its search ended): an
            // analysis resumes on the unchanged position.
            self.changed();
            return Err(engine_error(e));
        }
        // The mover's clock stops with the move; its time left is kept with it.
        let clock_before = self.clock;
        if let Some(c) = &mut self.clock {
            c.moved(mover);
            self.clocks
                .push(u64::try_from(c.left_ms[mover.index()].max(0)).unwrap_or(0));
        }
        if let Err(e) = self.commit() {
            // Not kept, so not played: the page says why.
            let _ = self.engine.undo();
            if clock_before.is_some() {
                self.clock = clock_before;
                self.clocks.pop();
            }
            self.changed();
            return Err(e);
        }
        self.offers = Offers::default();
        self.changed();
        Ok(())
    }

    /// Ends the game on time if the side to move's clock has run out:
    /// a loss, or a draw where the other side has no mating material.
    /// Returns `true` if it did.
    pub fn flag_fall(&mut self) -> bool {
        let turn = self.engine.game().turn();
        let out = self
            .clock
            .as_ref()
            .is_some_and(|c| c.now_ms(turn, turn) <= 0);
        if !out || self.over() {
            return false;
        }
        let can_mate = can_mate(self.engine.game(), !turn);
        self.end(Ending::flag(turn, can_mate)).is_ok()
    }

    /// Refuses what needs a game that goes on; a flag that fell meanwhile
    /// ends the game first.
    fn going_on(&mut self) -> Result<(), Refusal> {
        self.flag_fall();
        if self.over() {
            return Err(over());
        }
        Ok(())
    }

    /// Ends the game with `e`, kept in the library first.
    ///
    /// # Errors
    /// 409 after the end; 507 if the library cannot keep it (the game goes on).
    pub fn end(&mut self, e: Ending) -> Result<(), Refusal> {
        if self.over() {
            return Err(over());
        }
        self.ending = Some(e);
        if let Err(err) = self.commit() {
            self.ending = None;
            return Err(err);
        }
        self.run = None;
        self.offers = Offers::default();
        self.changed();
        Ok(())
    }

    /// A draw offer by `side`, or its answer.
    ///
    /// # Errors
    /// 409 after the end, or when there is nothing to answer.
    pub fn draw(&mut self, side: Color, answer: OfferStep) -> Result<(), Refusal> {
        self.going_on()?;
        match (answer, self.offers.draw) {
            (OfferStep::Offer, _) => self.offers.draw = Some(side),
            (OfferStep::Accept, Some(by)) if by != side => return self.end(Ending::AGREED),
            (OfferStep::Decline, Some(_)) => self.offers.draw = None,
            _ => {
                return Err(
                    Refusal::Conflict("no draw offer of the other side to answer".into())
                        .worded("error.no_draw_offer", Vec::new()),
                )
            }
        }
        self.changed();
        Ok(())
    }

    /// A takeback asked for by `side`, or its answer: accepted, the
    /// asker's last move is taken back (and the other side's reply to it).
    ///
    /// # Errors
    /// 409 after the end, with no move of the asker to take back, or when
    /// there is nothing to answer; 507 if the library cannot keep it.
    pub fn takeback(&mut self, side: Color, answer: OfferStep) -> Result<(), Refusal> {
        self.going_on()?;
        match (answer, self.offers.takeback) {
            (OfferStep::Offer, _) => {
                if self.asker_plies(side) == 0 {
                    return Err(Refusal::Conflict("you have no move to take back".into())
                        .worded("error.undo.409", Vec::new()));
                }
                self.offers.takeback = Some(side);
            }
            (OfferStep::Accept, Some(by)) if by != side => {
                let n = self.asker_plies(by);
                self.take_back(n)?;
                return Ok(());
            }
            (OfferStep::Decline, Some(_)) => self.offers.takeback = None,
            _ => {
                return Err(Refusal::Conflict(
                    "no takeback request of the other side to answer".into(),
                )
                .worded("error.no_takeback_request", Vec::new()))
            }
        }
        self.changed();
        Ok(())
    }

    /// How many plies a takeback for `side` undoes: its last move, and
    /// the reply to it if the other side has moved since.
    fn asker_plies(&self, side: Color) -> usize {
        let plies = self.engine.game().ply_count();
        let n = if self.engine.game().turn() == side {
            2
        } else {
            1
        };
        if plies >= n {
            n
        } else {
            0
        }
    }

    /// Takes back `n` plies, all or nothing.
    fn take_back(&mut self, n: usize) -> Result<(), Refusal> {
        self.run = None;
        let before = self.saved_with(&self.settings);
        let clocks = self.clocks.clone();
        for _ in 0..n {
            if self.engine.undo().is_err() {
                break;
            }
        }
        self.clocks.truncate(self.engine.game().ply_count());
        self.offers = Offers::default();
        let kept = self.commit();
        if kept.is_err() {
            self.restore(&before);
            self.clocks = clocks;
        }
        self.changed();
        kept
    }

    /// Takes back one move, or two when that gives the turn back to a
    /// person playing the engine.
    ///
    /// # Errors
    /// 409 if no move was played.
    pub fn undo(&mut self) -> Result<(), Refusal> {
        if self.ending.is_some() {
            return Err(over());
        }
        self.run = None;
        let before = self.saved_with(&self.settings);
        if self.engine.undo().is_err() {
            self.changed();
            return Err(Refusal::Conflict("no move to take back".into())
                .worded("error.undo.409", Vec::new()));
        }
        let sides = self.settings.sides;
        if !self.settings.analyse
            && sides != Sides::Both
            && sides.plays(self.engine.game().turn())
            && self.engine.game().ply_count() > 0
        {
            let _ = self.engine.undo();
        }
        self.clocks.truncate(self.engine.game().ply_count());
        let kept = self.commit();
        if kept.is_err() {
            self.restore(&before);
        }
        self.changed();
        kept
    }

    /// A new game (set-up, PGN import): all or nothing.
    ///
    /// # Errors
    /// 400 for a bad FEN or move; the old game stays then.
    pub fn new_game(
        &mut self,
        variant: Variant,
        fen: Option<&str>,
        moves: &[String],
    ) -> Result<(), Refusal> {
        let mut settings = self.settings.clone();
        settings.options.seed = engine::engine::fresh_seed();
        let fresh = build_engine(variant, fen, moves, &settings.options)?;
        self.library
            .start_over(self.id, &saved(fresh.game(), &settings, &[]))
            .map_err(storage_error)?;
        self.run = None;
        self.engine = fresh;
        self.settings = settings;
        self.scores.clear();
        self.hints.clear();
        self.clock = Clock::for_limit(self.settings.limit);
        self.clocks.clear();
        self.ending = None;
        self.offers = Offers::default();
        self.note = None;
        self.changed();
        Ok(())
    }

    /// New settings; the clocks restart when the limit changes.
    ///
    /// # Errors
    /// 400 if the engine refuses the options (a hash table larger than the
    /// machine's memory); nothing changes then.
    pub fn set_settings(&mut self, s: Settings) -> Result<(), Refusal> {
        self.library
            .save(self.id, &self.saved_with(&s))
            .map_err(storage_error)?;
        if s.options != self.settings.options {
            if let Err(e) = self.engine.set_options(s.options.clone()) {
                // The library keeps what the game really has.
                let _ = self.commit();
                return Err(engine_error(e));
            }
        }
        self.run = None;
        if s.limit != self.settings.limit {
            self.clock = Clock::for_limit(s.limit);
        }
        self.settings = s;
        self.changed();
        Ok(())
    }

    /// Stop: an engine to move plays its best move now; analysis ends.
    pub fn stop(&mut self) {
        match self.run.as_ref().map(|r| r.kind) {
            Some(Kind::Play) => self.engine.stop(),
            Some(Kind::Analyse) => {
                self.settings.analyse = false;
                self.engine.stop();
            }
            None => {
                if self.settings.analyse {
                    self.settings.analyse = false;
                    self.changed();
                }
            }
        }
    }

    /// Forgets the scores and hints of positions no longer in the game,
    /// and a review of other moves.
    fn trim_to_game(&mut self) {
        let plies = self.engine.game().ply_count();
        self.scores.truncate(plies + 1);
        self.hints.retain(|h| h.ply <= plies);
        let stale = self.review.as_ref().is_some_and(|r| {
            let now = saved(self.engine.game(), &self.settings, &[]);
            !r.is_of(&now.start, &now.moves)
        });
        if stale {
            self.review = None;
        }
    }

    /// Keeps a hint given in the position after `ply` moves, if the game
    /// is still there.
    ///
    /// # Errors
    /// 409 if the game moved on meanwhile; 507 if the library cannot keep it.
    pub fn add_hint(&mut self, ply: usize, mv: &str) -> Result<(), Refusal> {
        if self.engine.game().ply_count() != ply || !self.human_to_move() {
            return Err(Refusal::Conflict(
                "the game changed while the hint was searched; ask again".into(),
            )
            .worded("error.hint_stale", Vec::new()));
        }
        self.hints.push(Hint {
            ply,
            mv: mv.to_string(),
        });
        if let Err(e) = self.commit() {
            self.hints.pop();
            return Err(e);
        }
        self.changed();
        Ok(())
    }

    /// `true` while the game goes on and it is not the engine's turn.
    pub fn human_to_move(&self) -> bool {
        !self.over() && !self.engine_to_move()
    }

    /// Hints asked for by white and by black.
    pub fn hint_counts(&self) -> [usize; 2] {
        hint_counts(self.engine.game(), &self.hints)
    }

    /// After any change: starts the search the settings ask for and sends
    /// the new state to the streams.
    pub fn changed(&mut self) {
        self.version += 1;
        self.trim_to_game();
        self.last_used = Instant::now();
        if self.run.is_none() {
            if self.over() {
                self.engine.abort();
            } else if self.settings.analyse {
                let limits = Limits {
                    infinite: true,
                    ..Limits::default()
                };
                self.start(Kind::Analyse, limits);
            } else if self.engine_to_move() {
                let limits = self.play_limits();
                self.start(Kind::Play, limits);
            } else {
                self.engine.abort();
            }
        }
        let state = self.view.state(self);
        self.broadcast("state", &state);
    }

    fn play_limits(&self) -> Limits {
        let mut l = Limits::default();
        match self.settings.limit {
            EngineLimit::Movetime(ms) => l.movetime = Some(ms),
            EngineLimit::Depth(d) => l.depth = Some(d),
            EngineLimit::Nodes(n) => l.nodes = Some(n),
            EngineLimit::Clock { inc_ms, .. } => {
                if let Some(c) = &self.clock {
                    let turn = self.engine.game().turn();
                    let left = |side| u64::try_from(c.now_ms(side, turn).max(1)).unwrap_or(1);
                    l.wtime = Some(left(Color::White));
                    l.btime = Some(left(Color::Black));
                    l.winc = Some(inc_ms);
                    l.binc = Some(inc_ms);
                }
            }
        }
        l
    }

    fn start(&mut self, kind: Kind, limits: Limits) {
        self.next_gen += 1;
        let gen = self.next_gen;
        let (game, tx) = (self.id, self.dispatch.clone());
        let sink: engine::engine::EventSink = Arc::new(move |event| {
            let _ = tx.send(Dispatch { game, gen, event });
        });
        // A level weakens the engine's own moves only: analysis is at full
        // strength. The game's own seed (drawn when it began, kept in the
        // library) seeds the level's choices, so a replay is exact; games
        // kept before seeds were drawn use their id.
        let elo = match kind {
            Kind::Play => self.settings.elo,
            Kind::Analyse => None,
        };
        let seed = match self.settings.options.seed {
            0 => self.id,
            s => s,
        };
        if self.engine.options().elo != elo || self.engine.options().seed != seed {
            let options = Options {
                elo,
                seed,
                ..self.engine.options().clone()
            };
            // Only the hash size can be refused, and it is unchanged.
            let _ = self.engine.set_options(options);
        }
        self.run = Some(Run {
            gen,
            kind,
            root: self.engine.game().clone(),
            ply: self.engine.game().ply_count(),
        });
        self.engine.go(limits, sink);
    }

    /// Sends one event to every open stream, dropping the closed ones.
    pub fn broadcast(&mut self, event: &str, data: &str) {
        let text = format!("event: {event}\ndata: {data}\n\n");
        self.streams
            .retain(|(_, tx, _)| tx.try_send(text.clone()).is_ok());
    }

    /// A stream was closed: with the page's last one gone, its searches stop.
    fn stream_closed(&mut self, stream: u64) {
        self.streams.retain(|(id, _, _)| *id != stream);
        if self.streams.is_empty() {
            self.run = None;
            self.settings.analyse = false;
            self.engine.abort();
            self.version += 1;
        }
    }

    /// Handles one search event: info lines go to the streams; the best move
    /// of an engine turn is played (which may start the next search).
    fn on_event(&mut self, gen: u64, event: SearchEvent) {
        let Some(run) = self.run.as_ref().filter(|r| r.gen == gen) else {
            return;
        };
        match event {
            SearchEvent::Info(info) => {
                if info.multipv == 1 {
                    let ply = run.ply;
                    let white = white_view(run, info.score);
                    if self.scores.len() <= ply {
                        self.scores.resize(ply + 1, None);
                    }
                    self.scores[ply] = Some(white);
                }
                let Some(run) = self.run.as_ref() else { return };
                let data = self.view.info(run, &info);
                self.broadcast("info", &data);
            }
            // The board starts no perft or bench.
            SearchEvent::Report(_) | SearchEvent::Done { .. } => {}
            SearchEvent::Message(m) => {
                self.note = Some(m.clone());
                let data = self.view.message(&m);
                self.broadcast("message", &data);
            }
            SearchEvent::BestMove { best, .. } => {
                let kind = run.kind;
                self.run = None;
                match (kind, best) {
                    (Kind::Play, Some(mv)) => {
                        if let Err(e) = self.play(&mv) {
                            if matches!(e, Refusal::Storage(_)) {
                                // Another try would fail the same way:
                                // the engine stops playing until told.
                                self.settings.sides = Sides::None;
                            }
                            let note = format!("engine move {mv}: {e}");
                            let data = self.view.message(&note);
                            self.note = Some(note);
                            self.broadcast("message", &data);
                            self.changed();
                        }
                    }
                    _ => self.changed(),
                }
            }
        }
    }
}

/// An engine at `fen` (or the start) after `moves`, with `options`.
fn build_engine(
    variant: Variant,
    fen: Option<&str>,
    moves: &[String],
    options: &Options,
) -> Result<Engine, Refusal> {
    let mut engine = Engine::new();
    engine.set_variant(variant);
    let refs: Vec<&str> = moves.iter().map(String::as_str).collect();
    engine.set_position(fen, &refs).map_err(engine_error)?;
    engine.set_options(options.clone()).map_err(engine_error)?;
    Ok(engine)
}

/// `game` as the library keeps it.
pub fn saved(game: &AnyGame, settings: &Settings, hints: &[Hint]) -> Saved {
    let (result, reason) = game.status().map_or(("*", ""), outcome_words);
    let plies = game.ply_count();
    Saved {
        clocks: Vec::new(),
        hints: hints.iter().filter(|h| h.ply <= plies).cloned().collect(),
        variant: game.variant(),
        start: with_game!(game, g => g.start().fen()),
        moves: with_game!(game, g => g.moves().iter().map(ToString::to_string).collect()),
        result: result.into(),
        reason: reason.into(),
        settings: settings.clone(),
    }
}

/// `true` unless `side` is left with too little to mate by any sequence of
/// moves (after the other side's flag): a lone king, or a king and one
/// knight or bishop, with no vest. Where material never runs out (Tavreli:
/// nothing leaves its board), a flag always loses.
pub fn can_mate(game: &AnyGame, side: Color) -> bool {
    if !game.variant().material_runs_out() {
        return true;
    }
    let pieces: Vec<PieceParts> = with_game!(game, g => {
        let pos = g.position();
        movegen::Square::all()
            .flat_map(|sq| pos.tokens(sq))
            .map(|t| t.parts)
            .filter(|p| p.color == side)
            .collect()
    });
    let mut minors = 0;
    for p in &pieces {
        match p.role {
            _ if p.vest.is_some() => return true,
            Role::King => {}
            Role::Knight | Role::Bishop => minors += 1,
            _ => return true,
        }
    }
    minors >= 2
}

/// The library's failures become refusals that name the cause.
fn storage_error(e: String) -> Refusal {
    Refusal::Storage(format!(
        "the game library cannot store this ({e}); nothing was changed"
    ))
}

/// A score of the side to move at `run`'s root, from white's view.
pub fn white_view(run: &Run, score: Score) -> Score {
    match (run.root.turn(), score) {
        (Color::White, s) => s,
        (Color::Black, Score::Cp(cp)) => Score::Cp(-cp),
        (Color::Black, Score::Mate(m)) => Score::Mate(-m),
    }
}

/// The refusal of anything but a review once a game is over.
fn over() -> Refusal {
    Refusal::Conflict("the game is over".into()).worded("error.over", Vec::new())
}

/// The one place where the engine facade's errors become replies.
pub fn engine_error(e: engine::Error) -> Refusal {
    Refusal::Worded(
        Box::new(Refusal::Bad(e.to_string())),
        super::wording::engine(&e),
    )
}

/// Hints asked for by white and by black in `game`.
pub fn hint_counts(game: &AnyGame, hints: &[Hint]) -> [usize; 2] {
    let first = with_game!(game, g => g.start().turn());
    let mut n = [0, 0];
    for h in hints {
        let white = (first == Color::White) == (h.ply % 2 == 0);
        n[usize::from(!white)] += 1;
    }
    n
}

/// A level in words: its name among the named levels, and its Elo
/// (`Casual (Elo 1350)`, `Elo 1234`).
pub fn level_words(elo: u32) -> String {
    match engine::levels::NAMED.iter().find(|(_, e)| *e == elo) {
        Some((name, _)) => format!("{name} (Elo {elo})"),
        None => format!("Elo {elo}"),
    }
}

/// `White` / `Black`.
pub const fn color_word(c: Color) -> &'static str {
    match c {
        Color::White => "White",
        Color::Black => "Black",
    }
}

/// All live games.
pub struct Registry {
    games: Mutex<HashMap<u64, Arc<Mutex<Slot>>>>,
    next_stream: AtomicU64,
    dispatch: Sender<Dispatch>,
    view: Arc<dyn View>,
    library: Arc<dyn Library>,
}

impl Registry {
    /// An empty registry whose streams are written by `view` and whose
    /// games are kept in `library`, and its dispatcher thread.
    pub fn start(view: Arc<dyn View>, library: Arc<dyn Library>) -> std::io::Result<Arc<Registry>> {
        let (tx, rx) = mpsc::channel();
        let reg = Arc::new(Registry {
            games: Mutex::new(HashMap::new()),
            next_stream: AtomicU64::new(1),
            dispatch: tx,
            view,
            library,
        });
        let weak = Arc::downgrade(&reg);
        std::thread::Builder::new()
            .name("dispatch".into())
            .spawn(move || dispatcher(&weak, &rx))?;
        let weak = Arc::downgrade(&reg);
        std::thread::Builder::new()
            .name("flags".into())
            .spawn(move || flag_watch(&weak))?;
        Ok(reg)
    }

    /// A new game with `settings`; evicts one if [`MAX_GAMES`] are live.
    ///
    /// # Errors
    /// 400 for a bad FEN or move.
    pub fn create(
        &self,
        variant: Variant,
        fen: Option<&str>,
        moves: &[String],
        settings: Settings,
    ) -> Result<Arc<Mutex<Slot>>, Refusal> {
        let mut settings = settings;
        if settings.options.seed == 0 {
            settings.options.seed = engine::engine::fresh_seed();
        }
        let engine = build_engine(variant, fen, moves, &settings.options)?;
        let id = self
            .library
            .create(&saved(engine.game(), &settings, &[]))
            .map_err(storage_error)?;
        Ok(self.insert(id, engine, settings, Vec::new(), None, Vec::new()))
    }

    /// Makes a game live under `id`, evicting one if [`MAX_GAMES`] are
    /// live; a game already live under `id` wins (two pages loading it at
    /// once).
    fn insert(
        &self,
        id: u64,
        engine: Engine,
        settings: Settings,
        hints: Vec<Hint>,
        ending: Option<Ending>,
        clocks: Vec<u64>,
    ) -> Arc<Mutex<Slot>> {
        let mut clock = Clock::for_limit(settings.limit);
        // Each side's time as it was after its last move (the clock of a
        // game reloaded from the library restarts now).
        if let Some(c) = &mut clock {
            let first = with_game!(engine.game(), g => g.start().turn());
            for (i, &left) in clocks.iter().enumerate() {
                let mover = if i % 2 == 0 { first } else { !first };
                c.left_ms[mover.index()] = i64::try_from(left).unwrap_or(i64::MAX);
            }
        }
        let slot = Arc::new(Mutex::new(Slot {
            id,
            engine,
            settings,
            run: None,
            clock,
            version: std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(0)),
            note: None,
            scores: Vec::new(),
            hints,
            review: None,
            ending,
            offers: Offers::default(),
            clocks,
            next_gen: 0,
            streams: Vec::new(),
            last_used: Instant::now(),
            dispatch: self.dispatch.clone(),
            view: Arc::clone(&self.view),
            library: Arc::clone(&self.library),
        }));
        let (slot, evicted) = {
            let mut games = lock(&self.games);
            if let Some(live) = games.get(&id) {
                return Arc::clone(live);
            }
            let evicted = if games.len() >= MAX_GAMES {
                Self::pick_evictee(&games).and_then(|k| games.remove(&k))
            } else {
                None
            };
            games.insert(id, Arc::clone(&slot));
            (slot, evicted)
        };
        // Dropping an engine joins its search thread: outside the map's lock.
        drop(evicted);
        slot
    }

    fn pick_evictee(games: &HashMap<u64, Arc<Mutex<Slot>>>) -> Option<u64> {
        games
            .iter()
            .filter_map(|(&id, s)| {
                let s = s.try_lock().ok()?;
                Some((s.streams.is_empty(), s.last_used, id))
            })
            .min_by_key(|&(idle, used, _)| (!idle, used))
            .map(|(_, _, id)| id)
    }

    /// The game `id`, made live from the library if it is not.
    ///
    /// # Errors
    /// 404 if the library has none (never created, or deleted).
    pub fn get(&self, id: &str) -> Result<Arc<Mutex<Slot>>, Refusal> {
        let missing = || Refusal::NotFound(format!("no game \"{id}\" (it may have been deleted)"));
        let n: u64 = id.parse().map_err(|_| missing())?;
        if let Some(live) = lock(&self.games).get(&n).cloned() {
            return Ok(live);
        }
        let kept = self
            .library
            .load(n)
            .map_err(storage_error)?
            .ok_or_else(missing)?;
        let moves: Vec<String> = kept.moves;
        let mut settings = kept.settings;
        settings.analyse = false;
        let engine = build_engine(kept.variant, Some(&kept.start), &moves, &settings.options)?;
        // A game that ended by resignation, agreement or a flag stays ended.
        let ending =
            Ending::of_saved(&kept.result, &kept.reason).filter(|_| engine.status().is_none());
        Ok(self.insert(n, engine, settings, kept.hints, ending, kept.clocks))
    }

    /// Forgets the live game `id` (deleted from the library): its page's
    /// next request gets 404.
    pub fn forget(&self, id: u64) {
        let gone = lock(&self.games).remove(&id);
        drop(gone);
    }

    /// Opens a stream on `slot`: the receiver gets the current state first.
    ///
    /// # Errors
    /// 429 when the game has [`MAX_STREAMS_PER_GAME`] streams open.
    pub fn subscribe(
        &self,
        slot: &Mutex<Slot>,
        seat: Option<Color>,
    ) -> Result<(u64, StreamEvents), Refusal> {
        let mut s = lock(slot);
        if s.streams.len() >= MAX_STREAMS_PER_GAME {
            return Err(Refusal::TooMany(
                "too many streams open on this game".into(),
            ));
        }
        let id = self.next_stream.fetch_add(1, Ordering::Relaxed);
        let (tx, rx) = stream_channel::channel(STREAM_BACKLOG);
        let state = s.view.state(&s);
        let _ = tx.try_send(format!("event: state\ndata: {state}\n\n"));
        s.streams.push((id, tx, seat));
        s.last_used = Instant::now();
        // The other seat sees this one come online.
        if seat.is_some() {
            s.version += 1;
            let state = s.view.state(&s);
            s.broadcast("state", &state);
        }
        // A page that comes back (its stream dropped and reconnected) finds
        // its engine thinking again if it is the engine's turn.
        if s.run.is_none() && s.engine_to_move() {
            s.changed();
        }
        Ok((id, rx))
    }

    /// Forgets a stream whose page has gone.
    pub fn unsubscribe(&self, slot: &Mutex<Slot>, stream: u64) {
        lock(slot).stream_closed(stream);
    }

    /// For a shutdown: every search and review stops, every stream ends and
    /// every game is written once more; returns the games that could not be.
    pub fn close_all(&self) -> Vec<String> {
        let slots: Vec<Arc<Mutex<Slot>>> = lock(&self.games).values().cloned().collect();
        let mut failed = Vec::new();
        for slot in slots {
            let mut s = lock(&slot);
            s.run = None;
            s.review = None;
            s.engine.abort();
            s.streams.clear();
            if let Err(e) = s.commit() {
                failed.push(format!("game {}: {e}", s.id));
            }
        }
        failed
    }
}

/// How often the clocks are looked at for a flag.
const FLAG_CHECK: std::time::Duration = std::time::Duration::from_millis(100);

/// Ends on time every live game whose side to move has no time left, even
/// with nobody sending a request; stops with the registry.
fn flag_watch(reg: &std::sync::Weak<Registry>) {
    loop {
        std::thread::sleep(FLAG_CHECK);
        let Some(reg) = reg.upgrade() else { return };
        let clocked: Vec<Arc<Mutex<Slot>>> = lock(&reg.games)
            .values()
            .filter(|s| s.try_lock().is_ok_and(|s| s.clock.is_some()))
            .cloned()
            .collect();
        drop(reg);
        for slot in clocked {
            lock(&slot).flag_fall();
        }
    }
}

fn dispatcher(reg: &std::sync::Weak<Registry>, rx: &Receiver<Dispatch>) {
    while let Ok(d) = rx.recv() {
        let Some(reg) = reg.upgrade() else { return };
        let slot = lock(&reg.games).get(&d.game).cloned();
        if let Some(slot) = slot {
            lock(&slot).on_event(d.gen, d.event);
        }
    }
}
