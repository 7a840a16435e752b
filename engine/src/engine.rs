//! `Engine`: owns the game, the options and the engine's one running job —
//! a search, a `perft` or a `bench`. Every method returns at once; the job
//! runs on its own thread and reports through the callback it was given:
//! a search ends with one `BestMove`, `perft` and `bench` with `Done`.

use crate::error::Error;
use crate::game::AnyGame;
pub use crate::limits::{EventSink, Options};
use crate::limits::{Limits, SearchEvent};
use crate::search::{self, Shared};
use crate::tt::Tt;
use crate::with_game;
use movegen::{Outcome, Variant};
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::thread::JoinHandle;

/// The engine.
pub struct Engine {
    game: AnyGame,
    options: Options,
    /// The level's seed while `options.seed` is 0: drawn anew for every
    /// engine and every new game, so that a level does not replay the same
    /// game (Stockfish seeds its skill noise from the clock likewise).
    game_seed: u64,
    shared: Arc<Shared>,
    job: Option<Job>,
}

/// A seed no other engine or game is likely to draw: the standard
/// library's hasher keys (random per process, from the operating system)
/// over the clock.
#[must_use]
pub fn fresh_seed() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    h.write_u128(now);
    // Never 0: 0 means "draw one".
    h.finish() | 1
}

/// What the engine's thread is doing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum JobKind {
    Search,
    Perft,
    Bench,
}

/// The running job: its thread and the state it watches for `stop`.
struct Job {
    kind: JobKind,
    handle: JoinHandle<()>,
    shared: Arc<Shared>,
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
            game: AnyGame::start(Variant::DEFAULT),
            shared: Arc::new(Shared::new(options.hash_mb)),
            options,
            game_seed: fresh_seed(),
            job: None,
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
        self.shared.clear();
        self.game_seed = fresh_seed();
    }

    /// The seed a level's choices use now: the `Seed` option, or while it
    /// is 0 the one drawn for this game.
    #[must_use]
    pub fn level_seed(&self) -> u64 {
        if self.options.seed == 0 {
            self.game_seed
        } else {
            self.options.seed
        }
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
        self.shared
            .pondering
            .store(limits.ponder, Ordering::Relaxed);
        let options = Options {
            seed: self.level_seed(),
            ..self.options.clone()
        };
        let game = self.game.clone();
        self.spawn(
            JobKind::Search,
            Arc::clone(&self.shared),
            sink,
            move |shared, sink| {
                with_game!(&game, g => search::run(g, &limits, &options, shared, sink));
            },
        );
    }

    /// Starts `perft` to `depth` of the current position (divide lines as
    /// `Report`s, then `Done`); `stop` cuts it short.
    pub fn perft(&mut self, depth: u32, sink: EventSink) {
        self.settle();
        let game = self.game.clone();
        self.spawn(JobKind::Perft, Arc::clone(&self.shared), sink, move |shared, sink| {
            let mut report = |l: String| sink(SearchEvent::Report(l));
            let done = with_game!(&game, g => crate::perft::divide(g.position(), depth, &shared.stop, &mut report));
            sink(SearchEvent::Done { stopped: !done });
        });
    }

    /// Starts the bench (report lines as `Report`s, then `Done`), in its own
    /// table of [`bench::HASH_MB`](crate::bench::HASH_MB) whatever `Hash`
    /// is; `stop` ends it after the current position's search is abandoned.
    pub fn bench(&mut self, depth: Option<u32>, sink: EventSink) {
        self.settle();
        let shared = Arc::new(Shared::new(crate::bench::HASH_MB));
        self.spawn(JobKind::Bench, shared, sink, move |shared, sink| {
            let mut report = |l: String| sink(SearchEvent::Report(l));
            let done = crate::bench::run(depth, shared, &mut report).is_some();
            sink(SearchEvent::Done { stopped: !done });
        });
    }

    /// Runs `work` on the engine's job thread (the search's stack size).
    fn spawn(
        &mut self,
        kind: JobKind,
        shared: Arc<Shared>,
        sink: EventSink,
        work: impl FnOnce(&Shared, &EventSink) + Send + 'static,
    ) {
        shared.stop.store(false, Ordering::Relaxed);
        shared.abort.store(false, Ordering::Relaxed);
        let (job_shared, job_sink) = (Arc::clone(&shared), Arc::clone(&sink));
        let spawned = std::thread::Builder::new()
            .name("search".into())
            .stack_size(search::STACK_SIZE)
            .spawn(move || work(&job_shared, &job_sink));
        match spawned {
            Ok(handle) => {
                self.job = Some(Job {
                    kind,
                    handle,
                    shared,
                })
            }
            Err(e) => (sink)(SearchEvent::Message(format!(
                "error cannot start the engine's thread: {e}"
            ))),
        }
    }

    /// `true` while a job runs.
    #[must_use]
    pub fn is_searching(&self) -> bool {
        self.job.as_ref().is_some_and(|j| !j.handle.is_finished())
    }

    /// Nodes the last (or running) search counted, over all threads.
    #[must_use]
    pub fn nodes_searched(&self) -> u64 {
        self.shared.nodes.load(Ordering::Relaxed)
    }

    /// Ends the job soon: a search still reports its best move, `perft`
    /// and `bench` report `Done { stopped: true }`.
    pub fn stop(&self) {
        if let Some(job) = &self.job {
            // A bench is a series of searches: abandoning the current one
            // is the only way to keep the next from starting.
            if job.kind == JobKind::Bench {
                job.shared.abort.store(true, Ordering::Relaxed);
            }
            job.shared.stop.store(true, Ordering::Relaxed);
        }
    }

    /// The GUI's ponder move was played: the clock now applies.
    pub fn ponderhit(&self) {
        self.shared.pondering.store(false, Ordering::Relaxed);
    }

    /// Makes way for a state change: a job that was told to stop (or has
    /// stopped by itself) is waited for, so it still reports — UCI owes one
    /// `bestmove` per `go`; a job still running is aborted.
    fn settle(&mut self) {
        let told = self
            .job
            .as_ref()
            .is_some_and(|j| j.shared.stop.load(Ordering::Relaxed));
        if told {
            self.wait();
        } else {
            self.abort();
        }
    }

    /// Ends the job and waits for it; a search reports no best move.
    pub fn abort(&mut self) {
        if let Some(job) = self.job.take() {
            job.shared.abort.store(true, Ordering::Relaxed);
            job.shared.stop.store(true, Ordering::Relaxed);
            let _ = job.handle.join();
        }
    }

    /// Waits for the running job to finish by itself.
    pub fn wait(&mut self) {
        if let Some(job) = self.job.take() {
            let _ = job.handle.join();
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.abort();
    }
}
