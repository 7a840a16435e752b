//! The workers: each owns one pair of engine processes, takes jobs (a game,
//! or with `--repeat` a pair of games on one opening) until none are left
//! or the match is stopped, and restarts an engine that died.

use super::book::OpeningBook;
use super::MatchConfig;
use crate::engine::Engine;
use crate::game::{play_game, GameRecord};
use crate::openings::Opening;
use crate::spec::EngineSpec;
use movegen::{Color, Position};
use std::ops::Range;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::Sender;

/// What a worker tells the main thread.
pub(super) enum Msg {
    /// Game `index` (0-based) is over; the first engine had `a_color`.
    Game {
        index: usize,
        a_color: Color,
        record: GameRecord,
    },
    /// Game `index` (0-based) is about to start.
    Started(usize),
    /// An engine could not be started: the match cannot go on.
    Fatal(String),
}

/// The job list the workers share, and the flag that stops them.
pub(super) struct Jobs {
    next: AtomicUsize,
    stop: AtomicBool,
    count: usize,
    per_job: usize,
    games: usize,
}

impl Jobs {
    /// `games` games, two to a job with `repeat`.
    pub(super) fn new(games: usize, repeat: bool) -> Jobs {
        let per_job = if repeat { 2 } else { 1 };
        Jobs {
            next: AtomicUsize::new(0),
            stop: AtomicBool::new(false),
            count: games.div_ceil(per_job),
            per_job,
            games,
        }
    }

    /// How many workers to run: no more than there are jobs.
    pub(super) fn workers(&self, concurrency: usize) -> usize {
        concurrency.max(1).min(self.count.max(1))
    }

    /// The next job, or `None` once all are taken or the match is stopped.
    fn take(&self) -> Option<usize> {
        let job = self.next.fetch_add(1, Ordering::Relaxed);
        (job < self.count && !self.stopped()).then_some(job)
    }

    /// The 0-based game indices of `job`.
    fn games_of(&self, job: usize) -> Range<usize> {
        job * self.per_job..((job + 1) * self.per_job).min(self.games)
    }

    /// Asks every worker to stop after its current game.
    pub(super) fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }
}

/// Colours alternate by game: in a pair the first engine has white, then
/// black, on one opening.
pub(super) fn a_color(index: usize) -> Color {
    if index.is_multiple_of(2) {
        Color::White
    } else {
        Color::Black
    }
}

/// A worker's two engines, in the order of the match's `engines`.
struct EnginePair([Engine; 2]);

impl EnginePair {
    fn start(cfg: &MatchConfig) -> Result<EnginePair, String> {
        let v = cfg.game.variant;
        let start = |spec: &EngineSpec| {
            Engine::start(spec, v).map_err(|e| format!("engine {}: {e}", spec.name))
        };
        // In parallel: start-up (table building, network loading) can be slow.
        let (a, b) = std::thread::scope(|s| {
            let b = s.spawn(|| start(&cfg.engines[1]));
            let a = start(&cfg.engines[0]);
            (a, b.join())
        });
        let b = b.map_err(|_| "engine start-up thread panicked".to_string())?;
        Ok(EnginePair([a?, b?]))
    }

    /// Plays game `index` with the first engine as `a_color`.
    fn play<P: Position>(&mut self, cfg: &MatchConfig, opening: &Opening, index: usize) -> Msg {
        let a_color = a_color(index);
        let [a, b] = &mut self.0;
        let (white, black) = match a_color {
            Color::White => (a, b),
            Color::Black => (b, a),
        };
        let record = play_game::<P>(&cfg.game, white, black, opening, index + 1);
        Msg::Game {
            index,
            a_color,
            record,
        }
    }

    /// Restarts whichever engine hung or crashed in the last game.
    fn revive(&mut self, cfg: &MatchConfig) -> Result<(), String> {
        for (slot, spec) in self.0.iter_mut().zip(&cfg.engines) {
            if !slot.is_alive() {
                *slot = Engine::start(spec, cfg.game.variant)
                    .map_err(|e| format!("engine {} could not be restarted: {e}", spec.name))?;
            }
        }
        Ok(())
    }
}

/// One worker: plays jobs until none are left; an engine that cannot be
/// (re)started ends the match through [`Msg::Fatal`].
pub(super) fn work<P: Position>(
    cfg: &MatchConfig,
    jobs: &Jobs,
    book: &OpeningBook<'_, P>,
    tx: &Sender<Msg>,
) {
    if let Err(e) = serve(cfg, jobs, book, tx) {
        let _ = tx.send(Msg::Fatal(e));
    }
}

fn serve<P: Position>(
    cfg: &MatchConfig,
    jobs: &Jobs,
    book: &OpeningBook<'_, P>,
    tx: &Sender<Msg>,
) -> Result<(), String> {
    let mut pair = EnginePair::start(cfg)?;
    while let Some(job) = jobs.take() {
        let opening = book.get(job);
        for index in jobs.games_of(job) {
            if jobs.stopped() {
                break;
            }
            let _ = tx.send(Msg::Started(index));
            if tx.send(pair.play::<P>(cfg, &opening, index)).is_err() {
                // The main thread has gone: nobody is left to report to.
                return Ok(());
            }
            pair.revive(cfg)?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jobs_cover_every_game_once_and_stop_on_request() {
        let jobs = Jobs::new(5, true);
        assert_eq!(jobs.workers(8), 3);
        assert_eq!(jobs.workers(0), 1);
        let mut games = Vec::new();
        while let Some(job) = jobs.take() {
            games.extend(jobs.games_of(job));
        }
        assert_eq!(games, [0, 1, 2, 3, 4]);
        let single = Jobs::new(3, false);
        assert_eq!(single.take().map(|j| single.games_of(j)), Some(0..1));
        single.stop();
        assert_eq!(single.take(), None);
        assert_eq!(Jobs::new(0, false).workers(4), 1);
    }

    #[test]
    fn the_first_engine_alternates_colours() {
        let colors: Vec<Color> = (0..4).map(a_color).collect();
        assert_eq!(
            colors,
            [Color::White, Color::Black, Color::White, Color::Black]
        );
    }
}
