//! Game review: every position of a game searched by an engine of its own
//! at a fixed node budget, each move marked by how much of the mover's
//! winning chance it gave away (the win/draw/loss model's expected score),
//! the better move named, and each side's accuracy as lichess computes it.
//!
//! ```text
//! plies 0..=n ──search(nodes)──▶ best move, White's expected score per position
//!              ──classify──▶ per move: drop = mover's chance before − after
//!                            best (the engine's move, or drop ≤ 1 %) · good < 5 %
//!                            · inaccuracy < 10 % · mistake < 15 % · blunder ≥ 15 %
//!              ──accuracy──▶ per side: lichess's game accuracy over the win %
//!                            (100 × White's expected score) of every position
//! ```
//!
//! Reproducible: a search is limited by nodes, not time, runs on one thread
//! and starts from an empty table and empty histories, so what a position
//! gets depends on the position and the budget alone — the same game gets
//! the same marks and accuracies on any machine, whatever was searched
//! before. The API's budget is still named `movetime` (nominal
//! milliseconds): [`nodes_for`] turns it into nodes at a fixed rate.
//!
//! The marks are lichess's on the expected score (win + draw/2) in [0, 1]:
//! its 0.1/0.2/0.3 drops of winning chances in [−1, 1] are 5/10/15 % here,
//! in every variant (each with its own win/draw/loss model). The accuracy is
//! lila's `AccuracyPercent.gameAccuracy` (`modules/analyse/src/main/
//! AccuracyPercent.scala`), see [`game_accuracy`].
//!
//! A review runs on the engine pool ([`super::pool`]), one position a step,
//! and never holds the game's slot; dropping its [`Handle`] (a new review, a
//! changed or deleted game) cancels it within a few milliseconds.
//! [`best_move`] is the same full-strength search for one position: the
//! board's hint, also run on the pool.

use super::http::ApiError;
use super::pool::Pool;
use engine::{with_game, AnyGame, Engine, Game, Limits, Options, Score, SearchEvent};
use eval::Evaluate;
use movegen::{Color, Position, Variant};
use notation::words::{plies, pv_notation};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

/// Default budget per position (nominal ms, see [`nodes_for`]): 100 000
/// nodes, a 60-ply game in about 12 s at 500 000 nodes/s.
pub const DEFAULT_MOVETIME_MS: u64 = 200;
/// The least budget per position a request may ask for (nominal ms).
pub const MIN_MOVETIME_MS: u64 = 10;
/// The most budget per position a request may ask for (nominal ms).
pub const MAX_MOVETIME_MS: u64 = 10_000;

/// Nodes per nominal millisecond: about what one search thread searches in
/// a millisecond on the machine the budgets were chosen on (2 cores, busy:
/// 470 000–550 000 nodes/s in the middlegames of a review, where `volkhv
/// bench` says 390 000 in chess and 280 000 in tavreli). Fixed, so that a
/// budget means the same search everywhere; a slower machine only takes
/// longer.
pub const NODES_PER_MS: u64 = 500;

/// The node budget of `movetime_ms` nominal milliseconds.
#[must_use]
pub const fn nodes_for(movetime_ms: u64) -> u64 {
    movetime_ms.saturating_mul(NODES_PER_MS)
}

/// A move that gives away at most this much of the mover's expected score
/// (one point of win %) counts as best, as the engine's own move does: the
/// two searches around a move are no more precise than that.
pub const BEST_MARGIN: f64 = 0.01;
/// A drop of expected score from here on is an inaccuracy (lichess: 0.1 of
/// winning chances in [−1, 1]).
pub const INACCURACY: f64 = 0.05;
/// ... a mistake (lichess: 0.2).
pub const MISTAKE: f64 = 0.10;
/// ... a blunder (lichess: 0.3).
pub const BLUNDER: f64 = 0.15;

/// How good a played move was.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mark {
    /// The engine's own choice, or as good within [`BEST_MARGIN`].
    Best,
    /// Gave away less than an inaccuracy.
    Good,
    /// Gave away 5–10 % of the expected score.
    Inaccuracy,
    /// 10–15 %.
    Mistake,
    /// 15 % or more.
    Blunder,
}

impl Mark {
    /// The word the page and the API use.
    #[must_use]
    pub const fn word(self) -> &'static str {
        match self {
            Mark::Best => "best",
            Mark::Good => "good",
            Mark::Inaccuracy => "inaccuracy",
            Mark::Mistake => "mistake",
            Mark::Blunder => "blunder",
        }
    }

    /// The PGN numeric annotation glyph (`$6` dubious, `$2` poor, `$4`
    /// very poor), for the marks that have one.
    #[must_use]
    pub const fn nag(self) -> Option<u8> {
        match self {
            Mark::Inaccuracy => Some(6),
            Mark::Mistake => Some(2),
            Mark::Blunder => Some(4),
            Mark::Best | Mark::Good => None,
        }
    }

    /// The mark of a move that lost `drop` of the mover's expected score;
    /// `engines_move` if it is the move the engine chose. The engine's move
    /// is best whatever the drop: a drop there is the two searches'
    /// disagreement, not the player's.
    #[must_use]
    pub fn of_drop(drop: f64, engines_move: bool) -> Mark {
        if engines_move || drop <= BEST_MARGIN {
            Mark::Best
        } else if drop < INACCURACY {
            Mark::Good
        } else if drop < MISTAKE {
            Mark::Inaccuracy
        } else if drop < BLUNDER {
            Mark::Mistake
        } else {
            Mark::Blunder
        }
    }
}

/// One position as the review's engine saw it.
#[derive(Clone, Debug, PartialEq)]
pub struct Analysed {
    /// The engine's move (none where the game is over).
    pub best: Option<String>,
    /// White's expected score (win + draw/2) in [0, 1].
    pub white_win: f64,
}

/// One reviewed move.
#[derive(Clone, Debug, PartialEq)]
pub struct Reviewed {
    /// 1-based ply of the move.
    pub ply: usize,
    /// The move string played.
    pub mv: String,
    /// The move as the move list shows it (SAN for chess).
    pub text: String,
    /// Its mark.
    pub mark: Mark,
    /// The engine's move in the position before.
    pub best: String,
    /// The engine's move as the move list shows it.
    pub best_text: String,
    /// White's expected score before the move.
    pub white_win_before: f64,
    /// White's expected score after it.
    pub white_win_after: f64,
}

/// A review's state, read by the API while it runs.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Review {
    /// Share of positions searched, 0 to 1.
    pub progress: f64,
    /// The marked moves (filled when every position is searched).
    pub moves: Vec<Reviewed>,
    /// Each side's accuracy, 0–100 (`None` for a side without moves).
    pub accuracy: [Option<f64>; 2],
    /// Why the review stopped early.
    pub error: Option<String>,
}

/// The share of side `c` in a chance `white` of White's: White's chance is
/// 1 − Black's (on the 0–1 scale; 100 − Black's on the per cent one).
fn for_side(white: f64, c: Color, whole: f64) -> f64 {
    match c {
        Color::White => white,
        Color::Black => whole - white,
    }
}

/// The drop of `mover`'s expected score from `before` to `after` (White's).
fn drop_for(before: f64, after: f64, mover: Color) -> f64 {
    for_side(before, mover, 1.0) - for_side(after, mover, 1.0)
}

/// Marks the `moves` of a game whose positions (`moves.len() + 1` of them,
/// the start first) were `analysed`; `first_mover` moved first.
#[must_use]
pub fn classify(moves: &[String], first_mover: Color, analysed: &[Analysed]) -> Vec<Reviewed> {
    let mut mover = first_mover;
    let mut out = Vec::with_capacity(moves.len());
    for (i, mv) in moves.iter().enumerate() {
        let (Some(before), Some(after)) = (analysed.get(i), analysed.get(i + 1)) else {
            break;
        };
        let drop = drop_for(before.white_win, after.white_win, mover);
        let best = before.best.clone().unwrap_or_default();
        out.push(Reviewed {
            ply: i + 1,
            mv: mv.clone(),
            text: mv.clone(),
            mark: Mark::of_drop(drop, best == *mv),
            best_text: best.clone(),
            best,
            white_win_before: before.white_win,
            white_win_after: after.white_win,
        });
        mover = !mover;
    }
    out
}

/// lichess's accuracy of one move, 0–100, from the mover's win % (0–100)
/// before and after it: 100 for a move that lost nothing, else lila's
/// fitted curve `103.1668 · e^(−0.04354 · lost) − 3.1669` plus 1 (its
/// "uncertainty bonus" for the analysis's own imprecision).
#[must_use]
pub fn move_accuracy(before: f64, after: f64) -> f64 {
    if after >= before {
        return 100.0;
    }
    let raw = 103.166_810_071_164_9 * (-0.043_544_153_867_539_51 * (before - after)).exp()
        - 3.166_924_740_191_411;
    (raw + 1.0).clamp(0.0, 100.0)
}

/// The population standard deviation of `xs` (not empty).
fn population_sd(xs: &[f64]) -> f64 {
    #[allow(clippy::cast_precision_loss)] // a window has at most 8 values
    let n = xs.len() as f64;
    let mean = xs.iter().sum::<f64>() / n;
    (xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / n).sqrt()
}

/// Each move's weight in its side's accuracy, for a game whose positions
/// have the win % `wins` (the start first): how much the win % swings
/// around it (the standard deviation of a window of positions, 0.5 to 12),
/// so that a slip in a sharp phase counts more than one in a dead position.
/// The windows are lila's: `clamp(moves / 10, 2, 8)` positions sliding one
/// at a time, the first window repeated in front (window size − 2 times)
/// so that there is one window per move.
fn volatility_weights(wins: &[f64]) -> Vec<f64> {
    let moves = wins.len().saturating_sub(1);
    let size = (moves / 10).clamp(2, 8).min(wins.len());
    if size == 0 {
        return Vec::new();
    }
    let padding = std::iter::repeat_n(&wins[..size], size.saturating_sub(2));
    padding
        .chain(wins.windows(size))
        .take(moves)
        .map(|w| population_sd(w).clamp(0.5, 12.0))
        .collect()
}

/// One side's accuracy from its moves' (accuracy, weight): the mean of the
/// volatility-weighted mean and the harmonic mean (which a few bad moves
/// pull down hard); lila counts an accuracy under 1 as 1 there.
fn side_accuracy(moves: &[(f64, f64)]) -> Option<f64> {
    if moves.is_empty() {
        return None;
    }
    let weight: f64 = moves.iter().map(|&(_, w)| w).sum();
    let weighted = moves.iter().map(|&(a, w)| a * w).sum::<f64>() / weight;
    #[allow(clippy::cast_precision_loss)] // a game has far fewer than 2^52 moves
    let n = moves.len() as f64;
    let harmonic = n / moves.iter().map(|&(a, _)| 1.0 / a.max(1.0)).sum::<f64>();
    Some((weighted + harmonic) / 2.0)
}

/// Each side's accuracy (white, black), 0–100, exactly as lila's
/// `AccuracyPercent.gameAccuracy` computes it, for a game whose positions
/// have White's win % (0–100) `wins`, the start first; `first_mover` moved
/// first. `None` for a side without moves.
#[must_use]
pub fn game_accuracy(wins: &[f64], first_mover: Color) -> [Option<f64>; 2] {
    let mut sides: [Vec<(f64, f64)>; 2] = [Vec::new(), Vec::new()];
    let mut mover = first_mover;
    for (pair, weight) in wins.windows(2).zip(volatility_weights(wins)) {
        let before = for_side(pair[0], mover, 100.0);
        let after = for_side(pair[1], mover, 100.0);
        sides[usize::from(mover == Color::Black)].push((move_accuracy(before, after), weight));
        mover = !mover;
    }
    sides.map(|moves| side_accuracy(&moves))
}

/// Each side's accuracy (white, black) of `reviewed` moves, the win % of a
/// position being 100 × the review's expected score for White.
#[must_use]
pub fn accuracy(reviewed: &[Reviewed], first_mover: Color) -> [Option<f64>; 2] {
    let Some(first) = reviewed.first() else {
        return [None, None];
    };
    let wins: Vec<f64> = std::iter::once(first.white_win_before)
        .chain(reviewed.iter().map(|r| r.white_win_after))
        .map(|w| w * 100.0)
        .collect();
    game_accuracy(&wins, first_mover)
}

/// White's expected score (win + draw/2, 0 to 1) for a search's `score` in
/// `game`'s position, from the win/draw/loss model. The score is the side
/// to move's (`Mate(n)`, n > 0: the side to move mates), so the model gives
/// the mover's chance, which is then turned into White's: a mate by White
/// is 1 whoever is to move.
fn white_win(game: &AnyGame, score: Score) -> f64 {
    let stage = with_game!(game, g => engine::wdl::stage_of(g.position()));
    let w = engine::wdl(game.variant(), score, stage);
    let mover = (f64::from(w.win) + f64::from(w.draw) / 2.0) / 1000.0;
    for_side(mover, game.turn(), 1.0)
}

/// What the review of one game searches.
#[derive(Clone, Debug)]
pub struct Job {
    /// The variant.
    pub variant: Variant,
    /// The start FEN.
    pub start: String,
    /// The moves played, as move strings.
    pub moves: Vec<String>,
    /// Budget per position, in nominal ms ([`nodes_for`]).
    pub movetime_ms: u64,
}

impl Job {
    /// The node budget of each position.
    #[must_use]
    pub const fn nodes(&self) -> u64 {
        nodes_for(self.movetime_ms)
    }
}

/// One search's result.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Searched {
    /// The best move (none if the search gave none).
    pub best: Option<String>,
    /// The best line's last score, for the side to move.
    pub score: Option<Score>,
}

/// An engine of its own: one thread, a small table, full strength, so that
/// a review or a hint shares the machine with play and never waits for it
/// (and one thread makes a node budget exact).
fn own_engine(variant: Variant) -> Result<Engine, String> {
    let mut engine = Engine::new();
    engine.set_variant(variant);
    engine
        .set_options(Options {
            hash_mb: 16,
            threads: 1,
            ..Options::default()
        })
        .map_err(|e| e.to_string())?;
    Ok(engine)
}

/// Searches `engine`'s position for `nodes` nodes; `None` when `cancel`
/// was set meanwhile (the search is then abandoned at once).
///
/// The search starts from an empty table and empty histories, so that its
/// result is the position's and the budget's alone. A node limit, unlike a
/// time limit, also keeps the search going where there is one legal move:
/// with a time limit the engine plays it after depth 1, whose score missed
/// the mate after 16.Qb8+ Nxb8 in the Opera game.
pub fn search(engine: &mut Engine, nodes: u64, cancel: &AtomicBool) -> Option<Searched> {
    engine.new_game();
    let last: Arc<Mutex<Searched>> = Arc::default();
    let seen = Arc::clone(&last);
    engine.go(
        Limits {
            nodes: Some(nodes),
            ..Limits::default()
        },
        Arc::new(move |e| {
            let mut l = seen.lock().unwrap_or_else(PoisonError::into_inner);
            match e {
                SearchEvent::Info(info) if info.multipv == 1 => l.score = Some(info.score),
                SearchEvent::BestMove { best, .. } => l.best = best,
                _ => {}
            }
        }),
    );
    while engine.is_searching() {
        if cancel.load(Ordering::Relaxed) {
            engine.abort();
            return None;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    engine.wait();
    let out = last.lock().unwrap_or_else(PoisonError::into_inner).clone();
    Some(out)
}

/// The best move after `moves` from `start`, by a full-strength search of
/// `movetime_ms` nominal milliseconds ([`nodes_for`]; a hint).
///
/// # Errors
/// A bad position, or a search that found no move.
pub fn best_move(
    variant: Variant,
    start: &str,
    moves: &[String],
    movetime_ms: u64,
) -> Result<String, String> {
    let mut engine = own_engine(variant)?;
    let refs: Vec<&str> = moves.iter().map(String::as_str).collect();
    engine
        .set_position(Some(start), &refs)
        .map_err(|e| e.to_string())?;
    search(&mut engine, nodes_for(movetime_ms), &AtomicBool::new(false))
        .and_then(|s| s.best)
        .ok_or_else(|| "the engine found no move".to_string())
}

/// Searches position `i` of `job` (after `i` moves): its best move and
/// White's expected score. `None` when cancelled.
fn analyse(
    engine: &mut Engine,
    job: &Job,
    i: usize,
    cancel: &AtomicBool,
) -> Result<Option<Analysed>, String> {
    let refs: Vec<&str> = job.moves[..i].iter().map(String::as_str).collect();
    engine
        .set_position(Some(&job.start), &refs)
        .map_err(|e| format!("position after {i} moves: {e}"))?;
    // Where the game is over its result is the score, not a search's.
    if let Some(o) = engine.status() {
        return Ok(Some(Analysed {
            best: None,
            white_win: o.white_points(),
        }));
    }
    let Some(found) = search(engine, job.nodes(), cancel) else {
        return Ok(None);
    };
    Ok(Some(Analysed {
        white_win: white_win(engine.game(), found.score.unwrap_or(Score::Cp(0))),
        best: found.best,
    }))
}

/// Fills in the moves' notation (SAN for chess) and the better moves'.
fn name_moves(job: &Job, reviewed: &mut [Reviewed]) {
    let refs: Vec<&str> = job.moves.iter().map(String::as_str).collect();
    if let Ok(game) = AnyGame::from_moves(job.variant, Some(&job.start), &refs) {
        with_game!(&game, g => name_in(g, reviewed));
    }
}

fn name_in<P: Position + Evaluate>(g: &Game<P>, reviewed: &mut [Reviewed]) {
    let mut pos = g.start().clone();
    let named = plies(g.start(), g.moves());
    for (r, (p, &m)) in reviewed.iter_mut().zip(named.into_iter().zip(g.moves())) {
        r.text = p.text;
        if let Some(t) = pv_notation(&pos, std::slice::from_ref(&r.best)).pop() {
            r.best_text = t;
        }
        pos.make(m);
    }
}

/// A review under way: the engine, the positions searched so far and what
/// the API reads. One [`Task::step`] searches one position.
struct Task {
    job: Job,
    engine: Engine,
    analysed: Vec<Analysed>,
    state: Arc<Mutex<Review>>,
    cancel: Arc<AtomicBool>,
    _running: Running,
}

impl Task {
    fn publish(&self, f: impl FnOnce(&mut Review)) {
        f(&mut self.state.lock().unwrap_or_else(PoisonError::into_inner));
    }

    /// Searches the next position; `true` while more remain. A cancelled
    /// or failed review stops (the failure is published).
    fn step(&mut self) -> bool {
        let total = self.job.moves.len() + 1;
        let i = self.analysed.len();
        match analyse(&mut self.engine, &self.job, i, &self.cancel) {
            Ok(Some(a)) => self.analysed.push(a),
            Ok(None) => return false,
            Err(e) => {
                self.publish(|r| r.error = Some(e));
                return false;
            }
        }
        if i + 1 < total {
            #[allow(clippy::cast_precision_loss)] // a game has far fewer than 2^52 plies
            let progress = (i + 1) as f64 / total as f64;
            self.publish(|r| r.progress = progress);
            return true;
        }
        // The last step is published with the marks, so that progress 1
        // always comes with them.
        let job = &self.job;
        let first = AnyGame::new(job.variant, Some(&job.start)).map_or(Color::White, |g| g.turn());
        let mut moves = classify(&job.moves, first, &self.analysed);
        name_moves(job, &mut moves);
        let acc = accuracy(&moves, first);
        self.publish(|r| {
            r.moves = moves;
            r.accuracy = acc;
            r.progress = 1.0;
        });
        false
    }
}

/// Runs the review of `job` on this thread, publishing progress into
/// `state`; stops early when `cancel` is set.
#[cfg(test)]
fn run(job: &Job, state: &Arc<Mutex<Review>>, cancel: &Arc<AtomicBool>) {
    let engine = match own_engine(job.variant) {
        Ok(e) => e,
        Err(e) => {
            state.lock().unwrap().error = Some(e);
            return;
        }
    };
    let mut task = Task {
        job: job.clone(),
        engine,
        analysed: Vec::new(),
        state: Arc::clone(state),
        cancel: Arc::clone(cancel),
        _running: Running::admit().expect("a free review place"),
    };
    while task.step() {}
}

/// Runs the next step of `task` and queues the one after it.
fn chain(mut task: Task, pool: &Pool) {
    if task.step() {
        pool.continue_with(Box::new(move |p| chain(task, p)));
    }
}

/// Reviews running at most; one more is refused (429).
pub const MAX_REVIEWS: usize = 4;

static RUNNING: AtomicUsize = AtomicUsize::new(0);

/// A place among the [`MAX_REVIEWS`], given back on drop.
struct Running;

impl Running {
    fn admit() -> Option<Running> {
        RUNNING
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| {
                (n < MAX_REVIEWS).then_some(n + 1)
            })
            .ok()
            .map(|_| Running)
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        RUNNING.fetch_sub(1, Ordering::AcqRel);
    }
}

/// A review running (or done) on the engine pool, for one game's moves.
/// Dropping it cancels the review.
pub struct Handle {
    state: Arc<Mutex<Review>>,
    cancel: Arc<AtomicBool>,
    start: String,
    moves: Vec<String>,
    /// Budget per position, in nominal ms (what the API reports; the
    /// nodes are [`nodes_for`] it).
    pub movetime_ms: u64,
}

impl Handle {
    /// Starts reviewing `job` on `pool`, one position a step.
    ///
    /// # Errors
    /// 429 when [`MAX_REVIEWS`] reviews are running or the pool's queue is
    /// full; 500 when no engine can be made.
    pub fn start(job: Job, pool: &Pool) -> Result<Handle, ApiError> {
        let running = Running::admit().ok_or_else(|| {
            ApiError::busy(
                format!("{MAX_REVIEWS} reviews are running; try again when one ends"),
                5,
            )
        })?;
        let engine = own_engine(job.variant).map_err(|e| ApiError::new(500, e))?;
        let state: Arc<Mutex<Review>> = Arc::default();
        let cancel = Arc::new(AtomicBool::new(false));
        let handle = Handle {
            state: Arc::clone(&state),
            cancel: Arc::clone(&cancel),
            start: job.start.clone(),
            moves: job.moves.clone(),
            movetime_ms: job.movetime_ms,
        };
        let task = Task {
            job,
            engine,
            analysed: Vec::new(),
            state,
            cancel,
            _running: running,
        };
        pool.submit(Box::new(move |p| chain(task, p)))
            .map_err(|b| super::api::busy_error(&b))?;
        Ok(handle)
    }

    /// `true` if this reviews the game from `start` with `moves`.
    #[must_use]
    pub fn is_of(&self, start: &str, moves: &[String]) -> bool {
        self.start == start && self.moves == moves
    }

    /// The review as it stands.
    #[must_use]
    pub fn snapshot(&self) -> Review {
        self.state
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }
}

impl Drop for Handle {
    fn drop(&mut self) {
        self.cancel.store(true, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

    /// Morphy – Duke Karl / Count Isouard, Paris 1858 (the Opera game):
    /// 1. e4 e5 2. Nf3 d6 3. d4 Bg4 4. dxe5 Bxf3 5. Qxf3 dxe5 6. Bc4 Nf6
    /// 7. Qb3 Qe7 8. Nc3 c6 9. Bg5 b5 10. Nxb5 cxb5 11. Bxb5+ Nbd7
    /// 12. O-O-O Rd8 13. Rxd7 Rxd7 14. Rd1 Qe6 15. Bxd7+ Nxd7 16. Qb8+ Nxb8
    /// 17. Rd8# 1-0.
    pub const OPERA: [&str; 33] = [
        "e2e4", "e7e5", "g1f3", "d7d6", "d2d4", "c8g4", "d4e5", "g4f3", "d1f3", "d6e5", "f1c4",
        "g8f6", "f3b3", "d8e7", "b1c3", "c7c6", "c1g5", "b7b5", "c3b5", "c6b5", "c4b5", "b8d7",
        "e1c1", "a8d8", "d1d7", "d8d7", "h1d1", "e7e6", "b5d7", "f6d7", "b3b8", "d7b8", "d1d8",
    ];

    fn strings(moves: &[&str]) -> Vec<String> {
        moves.iter().map(ToString::to_string).collect()
    }

    fn chess_job(moves: &[&str], movetime_ms: u64) -> Job {
        Job {
            variant: Variant::Chess,
            start: START.into(),
            moves: strings(moves),
            movetime_ms,
        }
    }

    fn review(job: &Job) -> Review {
        let state = Arc::new(Mutex::new(Review::default()));
        run(job, &state, &Arc::new(AtomicBool::new(false)));
        let r = state.lock().unwrap().clone();
        assert_eq!(r.error, None);
        assert!((r.progress - 1.0).abs() < 1e-9);
        r
    }

    fn a(best: &str, white_win: f64) -> Analysed {
        Analysed {
            best: (!best.is_empty()).then(|| best.to_string()),
            white_win,
        }
    }

    fn close(x: f64, y: f64) -> bool {
        (x - y).abs() < 1e-9
    }

    #[test]
    fn marks_follow_the_movers_lost_chance() {
        let moves = strings(&["e2e4", "d8h4", "g2g3", "h4e1"]);
        let analysed = [
            a("e2e4", 0.55),
            a("e7e5", 0.56), // black's d8h4 hangs the queen: white 0.56 -> 0.95
            a("g2g3", 0.95), // white's g2g3 is best
            a("h4e1", 0.93), // black plays the best move
            a("", 0.93),
        ];
        let r = classify(&moves, Color::White, &analysed);
        let marks: Vec<Mark> = r.iter().map(|m| m.mark).collect();
        assert_eq!(marks, [Mark::Best, Mark::Blunder, Mark::Best, Mark::Best]);
        assert_eq!(r[1].best, "e7e5");
        assert_eq!(r[1].ply, 2);
        let acc = accuracy(&r, Color::White);
        assert!(acc[0].unwrap() > 95.0, "{acc:?}");
        assert!(acc[1].unwrap() < 60.0, "{acc:?}");
    }

    #[test]
    fn a_move_as_good_as_the_engines_is_best() {
        // Black moves first here; neither move is the engine's.
        let moves = strings(&["e7e5", "g1f3"]);
        let analysed = [a("c7c5", 0.40), a("d2d4", 0.409), a("d2d4", 0.39)];
        let r = classify(&moves, Color::Black, &analysed);
        // Black lost 0.009 (within the margin), White 0.019 (not).
        assert_eq!((r[0].mark, r[1].mark), (Mark::Best, Mark::Good), "{r:?}");
    }

    #[test]
    fn thresholds_and_nags() {
        assert_eq!(Mark::of_drop(-0.2, false), Mark::Best);
        assert_eq!(Mark::of_drop(0.01, false), Mark::Best);
        assert_eq!(Mark::of_drop(0.011, false), Mark::Good);
        assert_eq!(Mark::of_drop(0.049, false), Mark::Good);
        assert_eq!(Mark::of_drop(0.05, false), Mark::Inaccuracy);
        assert_eq!(Mark::of_drop(0.10, false), Mark::Mistake);
        assert_eq!(Mark::of_drop(0.149, false), Mark::Mistake);
        assert_eq!(Mark::of_drop(0.15, false), Mark::Blunder);
        assert_eq!(Mark::of_drop(0.25, true), Mark::Best);
        assert_eq!(Mark::Blunder.nag(), Some(4));
        assert_eq!(Mark::Mistake.nag(), Some(2));
        assert_eq!(Mark::Inaccuracy.nag(), Some(6));
    }

    #[test]
    fn move_accuracy_is_lichess_curve() {
        // 103.1668100711649 · e^(−0.04354415386753951 · lost) − 3.166924740191411 + 1,
        // by hand (python's math.exp):
        // lost 10: 103.16681 · 0.647036 − 2.16692 = 64.5798.
        assert!(close(move_accuracy(50.0, 40.0), 64.579_828_453_720_67));
        // lost 50: 103.16681 · 0.113348 − 2.16692 = 9.5278.
        assert!(close(move_accuracy(70.0, 20.0), 9.527_819_142_930_593));
        // Nothing lost, or gained: 100 (not 101 with the bonus).
        assert!(close(move_accuracy(50.0, 50.0), 100.0));
        assert!(close(move_accuracy(30.0, 60.0), 100.0));
        // lost 100: 103.16681 · 0.012853 − 2.16692 = −0.84, clamped to 0.
        assert!(close(move_accuracy(100.0, 0.0), 0.0));
    }

    #[test]
    fn there_is_one_volatility_window_per_move() {
        for moves in 1..200 {
            #[allow(clippy::cast_precision_loss)]
            let wins: Vec<f64> = (0..=moves).map(|i| (i * 7 % 100) as f64).collect();
            assert_eq!(volatility_weights(&wins).len(), moves, "{moves} moves");
        }
        assert!(volatility_weights(&[]).is_empty());
        assert!(volatility_weights(&[50.0]).is_empty());
    }

    #[test]
    fn game_accuracy_is_lichess() {
        // 4 moves: windows of 2 positions, no padding. Win % 50 50 30 30 80.
        // Weights (population sd, 0.5..12): [50,50] 0 → 0.5, [50,30] 10,
        // [30,30] 0 → 0.5, [30,80] 25 → 12.
        // White: 50→50, 30→30: 100 and 100 → 100.
        // Black (from its side 50→70, 70→20): 100 (weight 10) and 9.52782
        // (weight 12): weighted (1000 + 114.334) / 22 = 50.6516, harmonic
        // 2 / (1/100 + 1/9.52782) = 17.3979, mean 34.0248.
        let wins = [50.0, 50.0, 30.0, 30.0, 80.0];
        let [w, b] = game_accuracy(&wins, Color::White);
        assert!(close(w.unwrap(), 100.0), "{w:?}");
        assert!(close(b.unwrap(), 34.024_763_521_246_43), "{b:?}");
        // The same positions with Black moving first: Black's moves keep
        // its 50 and 70 (100 each); White's lose 20 (50→30: 41.0168,
        // weight 10) and gain (30→80: 100, weight 12): weighted
        // (410.168 + 1200) / 22 = 73.1895, harmonic 2 / (1/41.0168 +
        // 1/100) = 58.1729, mean 65.6812.
        let [w, b] = game_accuracy(&wins, Color::Black);
        assert!(close(w.unwrap(), 65.681_204_413_527_38), "{w:?}");
        assert!(close(b.unwrap(), 100.0), "{b:?}");
        // No moves: no accuracy; one move: one side only.
        assert_eq!(game_accuracy(&[50.0], Color::White), [None, None]);
        let [w, b] = game_accuracy(&[50.0, 40.0], Color::White);
        assert!(close(w.unwrap(), 64.579_828_453_720_67) && b.is_none());
    }

    #[test]
    fn game_accuracy_pads_the_first_window_and_weighs_by_volatility() {
        // 30 moves: windows of 3 positions, the first repeated once in
        // front. White throws the game away on move 15 (ply 15: 57 → 5).
        let wins = [
            50.0, 52.0, 51.0, 53.0, 52.0, 54.0, 53.0, 55.0, 54.0, 56.0, 55.0, 57.0, 56.0, 58.0,
            57.0, 5.0, 6.0, 5.0, 6.0, 5.0, 6.0, 5.0, 6.0, 5.0, 6.0, 5.0, 6.0, 5.0, 6.0, 5.0, 6.0,
        ];
        let weights = volatility_weights(&wins);
        // [50,52,51] twice: sd sqrt(2/3) = 0.8165; [58,57,5] (plies 14–15,
        // the blunder's): sd 24.75 → 12; the quiet end [6,5,6]: 0.471 → 0.5.
        assert_eq!(weights.len(), 30);
        assert!(close(weights[0], (2.0f64 / 3.0).sqrt()) && close(weights[1], weights[0]));
        assert!(close(weights[14], 12.0) && close(weights[29], 0.5));
        // White: 7 gains (100, weight 0.8165), the blunder (lost 52:
        // 8.55243, weight 12), 7 × 6 → 5 (lost 1: 96.6040, weight 0.5):
        // weighted (571.55 + 102.63 + 338.11) / 21.2155 = 47.7153, harmonic
        // 15 / (7/100 + 1/8.55243 + 7/96.6040) = 57.8282, mean 52.7717.
        // Black: 7 gains (100, weight 0.8165), 8 × 95 → 94 (96.6040; the
        // first, right after the blunder, weight 12, the others 0.5):
        // weighted (571.55 + 1159.25 + 338.11) / 21.2155 = 97.5188,
        // harmonic 15 / (7/100 + 8/96.6040) = 98.1596, mean 97.8392.
        let [w, b] = game_accuracy(&wins, Color::White);
        assert!(close(w.unwrap(), 52.771_736_313_102_565), "{w:?}");
        assert!(close(b.unwrap(), 97.839_245_236_753_53), "{b:?}");
    }

    #[test]
    fn mate_scores_keep_their_sign_for_either_side_to_move() {
        let after = |plies: usize| {
            AnyGame::from_moves(Variant::Chess, Some(START), &OPERA[..plies]).expect("legal")
        };
        // After 16. Qb8+ Black is to move and mated in one: White's 1.
        let checked = after(31);
        assert_eq!(checked.turn(), Color::Black);
        assert!(close(white_win(&checked, Score::Mate(-1)), 1.0));
        // After 16… Nxb8 White is to move and mates in one: White's 1.
        let white_to_move = after(32);
        assert!(close(white_win(&white_to_move, Score::Mate(1)), 1.0));
        // A mate for Black is White's 0 whoever is to move.
        assert!(close(white_win(&checked, Score::Mate(3)), 0.0));
        assert!(close(white_win(&white_to_move, Score::Mate(-2)), 0.0));
        // An even score is about even either way round.
        let even = [
            white_win(&checked, Score::Cp(0)),
            white_win(&white_to_move, Score::Cp(0)),
        ];
        assert!(even.iter().all(|w| (0.3..0.7).contains(w)), "{even:?}");
    }

    #[test]
    fn the_opera_game_is_won_for_white_from_castling_on() {
        // White mates by force from 12. O-O-O (ply 23) on; a search of the
        // review's budget sees it in every position to the end, the
        // checking sacrifices (13. Rxd7, 15. Bxd7+, 16. Qb8+) and the
        // forced replies included; the last position is the mate itself.
        let job = chess_job(&OPERA, DEFAULT_MOVETIME_MS);
        let mut engine = own_engine(Variant::Chess).unwrap();
        let cancel = AtomicBool::new(false);
        for i in 23..=OPERA.len() {
            let seen = analyse(&mut engine, &job, i, &cancel).unwrap().unwrap();
            assert!(seen.white_win >= 0.9, "after ply {i}: {seen:?}");
        }
        let end = analyse(&mut engine, &job, OPERA.len(), &cancel)
            .unwrap()
            .unwrap();
        assert_eq!(end, a("", 1.0));
    }

    #[test]
    fn a_search_ignores_what_was_searched_before() {
        // The same position after other searches (their table and
        // histories) and in a fresh engine: the same result, node for node.
        let refs = &OPERA[..20];
        let mut used = own_engine(Variant::Chess).unwrap();
        let cancel = AtomicBool::new(false);
        for before in [&OPERA[..19], &OPERA[..21], &OPERA[..20]] {
            used.set_position(Some(START), before).unwrap();
            search(&mut used, 20_000, &cancel).unwrap();
        }
        used.set_position(Some(START), refs).unwrap();
        let again = search(&mut used, 20_000, &cancel).unwrap();
        let again_nodes = used.nodes_searched();
        let mut fresh = own_engine(Variant::Chess).unwrap();
        fresh.set_position(Some(START), refs).unwrap();
        let first = search(&mut fresh, 20_000, &cancel).unwrap();
        assert_eq!(again, first);
        assert_eq!(again_nodes, fresh.nodes_searched());
        assert!(first.best.is_some() && first.score.is_some(), "{first:?}");
    }

    #[test]
    fn a_game_reviewed_twice_gets_the_same_marks_and_accuracies() {
        // Two fresh engines, a small budget (the server test runs the
        // default one): every number the same.
        let job = chess_job(&OPERA, 20);
        let (one, two) = (review(&job), review(&job));
        assert_eq!(one, two);
        assert_eq!(one.moves.len(), OPERA.len());
        assert!(one.accuracy.iter().all(Option::is_some), "{one:?}");
    }

    #[test]
    fn a_hanging_queen_is_a_blunder_and_a_better_move_is_named() {
        // 2...Qg5?? hangs the queen to the knight on f3.
        let r = review(&chess_job(&["e2e4", "e7e5", "g1f3", "d8g5", "f3g5"], 100));
        let q = &r.moves[3];
        assert_eq!((q.ply, q.mv.as_str(), q.text.as_str()), (4, "d8g5", "Qg5"));
        assert!(matches!(q.mark, Mark::Blunder | Mark::Mistake), "{q:?}");
        assert_ne!(q.best, "d8g5");
        assert!(q.white_win_after > q.white_win_before + 0.2, "{q:?}");
        assert_eq!(r.moves[4].mv, "f3g5");
        assert!(
            matches!(r.moves[4].mark, Mark::Best | Mark::Good),
            "{:?}",
            r.moves[4]
        );
        assert!(
            r.accuracy[1].unwrap() < r.accuracy[0].unwrap(),
            "{:?}",
            r.accuracy
        );
    }

    #[test]
    fn a_cancelled_review_stops() {
        let job = Job {
            variant: Variant::Tavreli,
            start: AnyGame::start(Variant::Tavreli).fen(),
            moves: Vec::new(),
            movetime_ms: 10_000,
        };
        let state = Arc::new(Mutex::new(Review::default()));
        let cancel = Arc::new(AtomicBool::new(true));
        let t = std::time::Instant::now();
        run(&job, &state, &cancel);
        assert!(t.elapsed() < Duration::from_secs(5));
        assert!(state.lock().unwrap().moves.is_empty());
    }
}
