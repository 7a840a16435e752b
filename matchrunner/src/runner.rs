//! The match loop: worker threads (one engine pair each) play games or game
//! pairs; the main thread tallies results, writes the PGN, prints progress
//! and stops early when the SPRT decides.

mod book;
mod fastchess_out;
mod pool;
mod report;
mod summary;
mod tally;

pub use tally::Tally;

use crate::engine::{fmt_seconds, TimeControl};
use crate::game::{GameRecord, GameSettings};
use crate::spec::EngineSpec;
use crate::stats::{Sprt, Verdict};
use book::OpeningBook;
pub use book::{BookFormat, BookSpec};
use fastchess_out::FastchessOut;
use movegen::{Color, Position};
use pool::{Jobs, Msg};
use report::{progress_line, PgnSink, Progress};
use std::path::PathBuf;
use std::sync::mpsc;
use summary::{summary_text, z};
use tally::Scorer;

/// Where the games start.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OpeningSource {
    /// Every game from the start position.
    StartPos,
    /// Lines of a file (FEN/EPD or move strings), in order, cycled.
    File(PathBuf),
    /// `plies` random plies, seeded per opening from `seed`.
    Random {
        /// Plies per opening.
        plies: u32,
        /// The seed.
        seed: u64,
    },
    /// A book as fastchess's `-openings` reads it: EPD or PGN, shuffled or
    /// in order, from a start index.
    Book(BookSpec),
}

/// What the match prints while it runs and at the end.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OutputStyle {
    /// Volkhv's own: a progress line per game on stderr, the summary on
    /// stdout.
    Native,
    /// fastchess's, all on stdout: `Started game`, `Finished game`, the
    /// results block every `rating_interval` rounds and at the end (what
    /// OpenBench's client parses).
    Fastchess {
        /// Rounds between results blocks (0: only at the end).
        rating_interval: usize,
        /// The book's file name for the results title, if any.
        book: Option<String>,
    },
}

/// A whole match as the command line describes it.
#[derive(Clone, Debug, PartialEq)]
pub struct MatchConfig {
    /// The two engines; results are reported for the first.
    pub engines: [EngineSpec; 2],
    /// Total games.
    pub games: usize,
    /// Parallel games.
    pub concurrency: usize,
    /// Openings.
    pub openings: OpeningSource,
    /// Each opening twice, colours swapped (pentanomial statistics).
    pub repeat: bool,
    /// Where to write the PGN.
    pub pgn: Option<PathBuf>,
    /// The SPRT, if any.
    pub sprt: Option<Sprt>,
    /// Everything a single game needs.
    pub game: GameSettings,
    /// Volkhv's output or fastchess's.
    pub output: OutputStyle,
}

/// Why a match could not run.
#[derive(Debug, PartialEq, Eq)]
pub enum RunError {
    /// The configuration is unusable (exit code 2).
    Config(String),
    /// Something failed while running (exit code 1).
    Runtime(String),
}

/// What the match produced.
#[derive(Clone, Debug, PartialEq)]
pub struct Summary {
    /// The tally.
    pub tally: Tally,
    /// The SPRT verdict, if one was reached.
    pub verdict: Option<Verdict>,
    /// The summary text printed on stdout.
    pub text: String,
}

/// The PGN `TimeControl` value.
#[must_use]
pub fn tc_tag(tc: TimeControl) -> String {
    match tc {
        TimeControl::Clock { base_ms, inc_ms } => {
            format!("{}+{}", fmt_seconds(base_ms), fmt_seconds(inc_ms))
        }
        TimeControl::MoveTime(ms) => format!("1/{}", fmt_seconds(ms)),
        TimeControl::Nodes(_) | TimeControl::Depth(_) => "-".into(),
    }
}

/// The main thread's side of the match: counts, writes and reports each
/// game as it arrives, and stops the workers on an SPRT verdict or a fatal
/// error (games still arriving after that are not counted).
struct Collector<'a> {
    cfg: &'a MatchConfig,
    jobs: &'a Jobs,
    scorer: Scorer,
    pgn: PgnSink,
    progress: Progress,
    fastchess: Option<FastchessOut>,
    verdict: Option<Verdict>,
    fatal: Option<String>,
}

impl<'a> Collector<'a> {
    fn new(cfg: &'a MatchConfig, jobs: &'a Jobs, pgn: PgnSink) -> Collector<'a> {
        Collector {
            cfg,
            jobs,
            scorer: Scorer::new(cfg.repeat),
            pgn,
            progress: Progress::new(),
            fastchess: FastchessOut::new(cfg),
            verdict: None,
            fatal: None,
        }
    }

    fn take(&mut self, msg: Msg) {
        match msg {
            Msg::Fatal(e) => self.fail(e),
            Msg::Started(index) => {
                if let Some(out) = &self.fastchess {
                    out.started(self.cfg, index);
                }
            }
            Msg::Game {
                index,
                a_color,
                record,
            } => self.game(index, a_color, &record),
        }
    }

    /// Keeps the first error, the one that stopped the match.
    fn fail(&mut self, e: String) {
        self.jobs.stop();
        self.fatal.get_or_insert(e);
    }

    fn game(&mut self, index: usize, a_color: Color, record: &GameRecord) {
        if self.verdict.is_some() || self.fatal.is_some() {
            return;
        }
        self.scorer.add(index, record.result.half_points(a_color));
        if let Err(e) = self.pgn.write(record) {
            self.fail(format!("--pgn: {e}"));
        }
        let sprt = self.cfg.sprt.as_ref().map(|s| (s, self.llr(s)));
        if let Some(v) = sprt.and_then(|(s, llr)| s.verdict(llr)) {
            self.verdict = Some(v);
            self.jobs.stop();
        }
        match &mut self.fastchess {
            Some(out) => out.finished(self.cfg, self.scorer.tally(), index, record),
            None => {
                let line = progress_line(self.cfg, self.scorer.tally(), record, sprt);
                self.progress.show(&line);
            }
        }
    }

    fn llr(&self, s: &Sprt) -> f64 {
        z(self.scorer.tally().llr(s, self.cfg.repeat))
    }

    fn finish(self) -> Result<Summary, RunError> {
        if self.fastchess.is_none() {
            self.progress.finish();
        }
        if let Some(e) = self.fatal {
            return Err(RunError::Runtime(e));
        }
        let tally = self.scorer.into_tally();
        let text = match &self.fastchess {
            Some(out) => out.summary(self.cfg, &tally, self.verdict),
            None => summary_text(self.cfg, &tally, self.verdict),
        };
        Ok(Summary {
            tally,
            verdict: self.verdict,
            text,
        })
    }
}

/// Runs the match for the rules `P`.
///
/// # Errors
/// [`RunError::Config`] for bad openings or files, [`RunError::Runtime`]
/// when an engine cannot be started (or restarted after a forfeit).
pub fn run_match<P: Position>(cfg: &MatchConfig) -> Result<Summary, RunError> {
    if cfg.game.variant != P::VARIANT {
        return Err(RunError::Config("variant mismatch".into()));
    }
    let book = OpeningBook::<P>::load(&cfg.openings)?;
    let jobs = Jobs::new(cfg.games, cfg.repeat);
    let mut collector = Collector::new(cfg, &jobs, PgnSink::create(cfg)?);
    let (tx, rx) = mpsc::channel::<Msg>();
    std::thread::scope(|scope| {
        for _ in 0..jobs.workers(cfg.concurrency) {
            let tx = tx.clone();
            let (jobs, book) = (&jobs, &book);
            scope.spawn(move || pool::work(cfg, jobs, book, &tx));
        }
        drop(tx);
        for msg in rx {
            collector.take(msg);
        }
    });
    collector.finish()
}
