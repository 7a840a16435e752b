//! Game review: every position of a game searched at a fixed budget by an
//! engine of its own, each move marked by how much of the mover's winning
//! chance it gave away (the win/draw/loss model's expected score), the
//! better move named, and each side's accuracy.
//!
//! ```text
//! plies 0..=n ──search(movetime)──▶ best move, white's expected score per position
//!              ──classify──▶ per move: drop = mover's chance before − after
//!                            best (the engine's move) · good < 5 % · inaccuracy < 10 %
//!                            · mistake < 20 % · blunder ≥ 20 %
//! ```
//!
//! The thresholds are on the expected score (win + draw/2) in [0, 1], the
//! scale lichess's marks use (its 0.1/0.2/0.3 on [−1, 1] winning chances
//! are 5/10/15 % here; a blunder is kept at 20 % so that a lost piece in a
//! won position still reads as a blunder only when it matters). Accuracy per
//! move is lichess's curve, `103.1668 · e^(−0.04354 · drop%) − 3.1669`,
//! averaged over the side's moves.
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

/// Default search time per position (ms): a 60-ply game takes about 12 s.
pub const DEFAULT_MOVETIME_MS: u64 = 200;
/// The least time per position a request may ask for (ms).
pub const MIN_MOVETIME_MS: u64 = 10;
/// The most time per position a request may ask for (ms).
pub const MAX_MOVETIME_MS: u64 = 10_000;

/// How good a played move was.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mark {
    /// The engine's own choice.
    Best,
    /// Gave away less than an inaccuracy.
    Good,
    /// Gave away 5–10 % of the expected score.
    Inaccuracy,
    /// 10–20 %.
    Mistake,
    /// 20 % or more.
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

    /// The mark of a move that lost `drop` of the mover's expected score.
    #[must_use]
    pub fn of_drop(drop: f64, is_best: bool) -> Mark {
        if is_best {
            Mark::Best
        } else if drop < 0.05 {
            Mark::Good
        } else if drop < 0.10 {
            Mark::Inaccuracy
        } else if drop < 0.20 {
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

/// The mover's share of `white_win`.
fn for_side(white_win: f64, c: Color) -> f64 {
    match c {
        Color::White => white_win,
        Color::Black => 1.0 - white_win,
    }
}

/// lichess's accuracy of one move from the mover's lost expected score.
#[must_use]
pub fn move_accuracy(drop: f64) -> f64 {
    let pct = (drop.max(0.0)) * 100.0;
    (103.166_8 * (-0.043_54 * pct).exp() - 3.166_9).clamp(0.0, 100.0)
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
        let drop = for_side(before.white_win, mover) - for_side(after.white_win, mover);
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

/// Each side's mean move accuracy (white, black).
#[must_use]
pub fn accuracy(reviewed: &[Reviewed], first_mover: Color) -> [Option<f64>; 2] {
    let mut sums = [(0.0, 0u32); 2];
    let mut mover = first_mover;
    for r in reviewed {
        let drop = for_side(r.white_win_before, mover) - for_side(r.white_win_after, mover);
        let side = usize::from(mover == Color::Black);
        sums[side].0 += move_accuracy(drop);
        sums[side].1 += 1;
        mover = !mover;
    }
    sums.map(|(sum, n)| (n > 0).then(|| sum / f64::from(n)))
}

/// The expected score (win + draw/2, 0 to 1) of the side to move for a
/// search's `score` in `game`'s position: the win/draw/loss model's.
fn mover_win(game: &AnyGame, score: Score) -> f64 {
    let ply = with_game!(game, g => engine::wdl::ply_of(g.position()));
    let w = engine::wdl(game.variant(), score, ply);
    (f64::from(w.win) + f64::from(w.draw) / 2.0) / 1000.0
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
    /// Search time per position (ms).
    pub movetime_ms: u64,
}

/// One search's result.
#[derive(Clone, Debug, Default)]
pub struct Searched {
    /// The best move (none if the search gave none).
    pub best: Option<String>,
    /// The best line's last score, for the side to move.
    pub score: Option<Score>,
}

/// An engine of its own: one thread, a small table, full strength, so that
/// a review or a hint shares the machine with play and never waits for it.
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

/// Searches `engine`'s position for `movetime_ms`; `None` when `cancel`
/// was set meanwhile (the search is then abandoned at once).
pub fn search(engine: &mut Engine, movetime_ms: u64, cancel: &AtomicBool) -> Option<Searched> {
    let last: Arc<Mutex<Searched>> = Arc::default();
    let seen = Arc::clone(&last);
    engine.go(
        Limits {
            movetime: Some(movetime_ms),
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
/// `movetime_ms` (a hint).
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
    search(&mut engine, movetime_ms, &AtomicBool::new(false))
        .and_then(|s| s.best)
        .ok_or_else(|| "the engine found no move".to_string())
}

/// Searches position `i` of `job` (after `i` moves): its best move and
/// white's expected score. `None` when cancelled.
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
    let turn = engine.game().turn();
    if let Some(o) = engine.status() {
        return Ok(Some(Analysed {
            best: None,
            white_win: o.white_points(),
        }));
    }
    let Some(found) = search(engine, job.movetime_ms, cancel) else {
        return Ok(None);
    };
    let win = mover_win(engine.game(), found.score.unwrap_or(Score::Cp(0)));
    Ok(Some(Analysed {
        best: found.best,
        white_win: for_side(win, turn),
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
    /// Search time per position (ms).
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

    fn a(best: &str, white_win: f64) -> Analysed {
        Analysed {
            best: (!best.is_empty()).then(|| best.to_string()),
            white_win,
        }
    }

    #[test]
    fn marks_follow_the_movers_lost_chance() {
        let moves: Vec<String> = ["e2e4", "d8h4", "g2g3", "h4e1"]
            .iter()
            .map(|s| s.to_string())
            .collect();
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
    fn a_hanging_queen_is_a_blunder_and_a_better_move_is_named() {
        // 2...Qg5?? hangs the queen to the knight on f3.
        let job = Job {
            variant: Variant::Chess,
            start: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1".into(),
            moves: ["e2e4", "e7e5", "g1f3", "d8g5", "f3g5"]
                .iter()
                .map(ToString::to_string)
                .collect(),
            movetime_ms: 100,
        };
        let state = Arc::new(Mutex::new(Review::default()));
        run(&job, &state, &Arc::new(AtomicBool::new(false)));
        let r = state.lock().unwrap().clone();
        assert_eq!(r.error, None);
        assert!((r.progress - 1.0).abs() < 1e-9);
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

    #[test]
    fn thresholds_and_nags() {
        assert_eq!(Mark::of_drop(0.049, false), Mark::Good);
        assert_eq!(Mark::of_drop(0.05, false), Mark::Inaccuracy);
        assert_eq!(Mark::of_drop(0.10, false), Mark::Mistake);
        assert_eq!(Mark::of_drop(0.25, false), Mark::Blunder);
        assert_eq!(Mark::of_drop(0.25, true), Mark::Best);
        assert_eq!(Mark::Blunder.nag(), Some(4));
        assert_eq!(Mark::Mistake.nag(), Some(2));
        assert_eq!(Mark::Inaccuracy.nag(), Some(6));
        assert!((move_accuracy(0.0) - 100.0).abs() < 0.01);
        assert!(move_accuracy(0.5) < 15.0);
    }
}
