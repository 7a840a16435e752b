//! `Engine`: owns the game, the options and the search threads. Every method
//! returns at once; a search runs on its own thread and reports through the
//! callback given to [`Engine::go`].

use crate::error::Error;
use crate::game::AnyGame;
use crate::limits::{Limits, SearchEvent};
use crate::search::{self, Shared};
use crate::tt::Tt;
use crate::with_game;
use movegen::{Outcome, Variant};
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::thread::JoinHandle;

/// Callback receiving search events (called from the search thread).
pub type EventSink = Arc<dyn Fn(SearchEvent) + Send + Sync>;

/// Engine options (UCI `setoption`, XBoard `memory`/`cores`/`option`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// Transposition table size in MiB.
    pub hash_mb: usize,
    /// Search threads.
    pub threads: usize,
    /// Number of principal variations reported.
    pub multipv: usize,
    /// Milliseconds kept in reserve per move for GUI/transport lag.
    pub move_overhead_ms: u64,
    /// Whether the GUI may ask us to ponder.
    pub ponder: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            hash_mb: 16,
            threads: 1,
            multipv: 1,
            move_overhead_ms: 30,
            ponder: false,
        }
    }
}

/// The engine.
pub struct Engine {
    game: AnyGame,
    options: Options,
    shared: Arc<Shared>,
    worker: Option<JoinHandle<()>>,
}

impl Default for Engine {
    fn default() -> Engine {
        Engine::new()
    }
}

impl Engine {
    /// A chess engine at the start position with default options.
    #[must_use]
    pub fn new() -> Engine {
        let options = Options::default();
        Engine {
            game: AnyGame::start(Variant::Chess),
            shared: Arc::new(Shared::new(options.hash_mb)),
            options,
            worker: None,
        }
    }

    /// The game being played.
    #[must_use]
    pub fn game(&self) -> &AnyGame {
        &self.game
    }

    /// The selected variant.
    #[must_use]
    pub fn variant(&self) -> Variant {
        self.game.variant()
    }

    /// Options in force.
    #[must_use]
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// Switches variant and resets to its start position. A running search
    /// goes on with the game it was given.
    pub fn set_variant(&mut self, variant: Variant) {
        self.game = AnyGame::start(variant);
    }

    /// Sets the position from a FEN (`None` = start) and moves, all or
    /// nothing: on error the previous position stays. A running search goes
    /// on with the game it was given.
    ///
    /// # Errors
    /// The first problem found (bad FEN, malformed or illegal move).
    pub fn set_position(&mut self, fen: Option<&str>, moves: &[&str]) -> Result<(), Error> {
        self.game = AnyGame::from_moves(self.variant(), fen, moves)?;
        Ok(())
    }

    /// Plays one move on the current game (XBoard `usermove`).
    ///
    /// # Errors
    /// Malformed or illegal; the game is unchanged then.
    pub fn play(&mut self, mv: &str) -> Result<(), Error> {
        Ok(self.game.play(mv)?)
    }

    /// Takes back one move.
    ///
    /// # Errors
    /// [`Error::NothingToUndo`] at the start of the game.
    pub fn undo(&mut self) -> Result<(), Error> {
        if self.game.undo() {
            Ok(())
        } else {
            Err(Error::NothingToUndo)
        }
    }

    /// The result if the game is over.
    #[must_use]
    pub fn status(&self) -> Option<Outcome> {
        self.game.status()
    }

    /// A new game: clears the transposition table and histories (a running
    /// search is aborted first).
    pub fn new_game(&mut self) {
        self.settle();
        self.shared.tt.clear();
    }

    /// Changes options. A new `Hash` size replaces the table (a running search
    /// is aborted first); everything else applies from the next search.
    ///
    /// # Errors
    /// [`Error::HashTooBig`] for more than the machine's memory; nothing
    /// changes then.
    pub fn set_options(&mut self, options: Options) -> Result<(), Error> {
        if options.hash_mb != self.options.hash_mb {
            if let Some(physical) = Tt::physical_memory_mb() {
                if options.hash_mb > physical {
                    return Err(Error::HashTooBig {
                        requested: options.hash_mb,
                        physical,
                    });
                }
            }
            self.settle();
            self.shared = Arc::new(Shared::new(options.hash_mb));
        }
        self.options = options;
        Ok(())
    }

    /// The hash table's real size in MiB: less than `Hash` when the memory
    /// could not be had.
    #[must_use]
    pub fn hash_allocated_mb(&self) -> usize {
        self.shared.tt.size_mb()
    }

    /// Starts a search; events arrive through `sink`, ending with exactly one
    /// `BestMove` unless the search is aborted.
    pub fn go(&mut self, limits: Limits, sink: EventSink) {
        self.settle();
        self.shared.stop.store(false, Ordering::Relaxed);
        self.shared.abort.store(false, Ordering::Relaxed);
        self.shared
            .pondering
            .store(limits.ponder, Ordering::Relaxed);
        let shared = Arc::clone(&self.shared);
        let options = self.options.clone();
        let game = self.game.clone();
        let thread_sink = Arc::clone(&sink);
        let spawned = std::thread::Builder::new()
            .name("search".into())
            .stack_size(search::STACK_SIZE)
            .spawn(move || {
                with_game!(&game, g => search::run(g, &limits, &options, &shared, &thread_sink));
            });
        match spawned {
            Ok(handle) => self.worker = Some(handle),
            Err(e) => (sink)(SearchEvent::Message(format!(
                "error cannot start search: {e}"
            ))),
        }
    }

    /// `true` while a search runs.
    #[must_use]
    pub fn is_searching(&self) -> bool {
        self.worker.as_ref().is_some_and(|h| !h.is_finished())
    }

    /// Ends the search soon; it still reports its best move.
    pub fn stop(&self) {
        self.shared.stop.store(true, Ordering::Relaxed);
    }

    /// The GUI's ponder move was played: the clock now applies.
    pub fn ponderhit(&self) {
        self.shared.pondering.store(false, Ordering::Relaxed);
    }

    /// Makes way for a state change: a search that was told to stop (or
    /// has stopped by itself) is waited for, so it still reports its best
    /// move — UCI owes one `bestmove` per `go`, even when `stop` is followed
    /// at once by `position`/`go`; a search still running is aborted.
    fn settle(&mut self) {
        if self.shared.stop.load(Ordering::Relaxed) {
            self.wait();
        } else {
            self.abort();
        }
    }

    /// Ends the search and waits for it; no best move is reported.
    pub fn abort(&mut self) {
        if let Some(h) = self.worker.take() {
            self.shared.abort.store(true, Ordering::Relaxed);
            self.shared.stop.store(true, Ordering::Relaxed);
            let _ = h.join();
        }
    }

    /// Waits for the running search to finish by itself.
    pub fn wait(&mut self) {
        if let Some(h) = self.worker.take() {
            let _ = h.join();
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.abort();
    }
}
