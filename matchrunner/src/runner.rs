//! The match loop: worker threads (one engine pair each) play games or game
//! pairs; the main thread tallies results, writes the PGN, prints progress
//! and stops early when the SPRT decides.

use crate::engine::{fmt_seconds, Engine, TimeControl};
use crate::game::{play_game, GameRecord, GameSettings};
use crate::openings::{parse_openings, random_opening, Opening};
use crate::pgn::{today, write_game, PgnHeader};
use crate::spec::EngineSpec;
use crate::stats::{
    draw_ratio, elo_pentanomial, elo_trinomial, los, EloEstimate, Pentanomial, Sprt, Verdict,
};
use movegen::{Color, Position};
use std::fmt::Write as _;
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;

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
}

/// Why a match could not run.
#[derive(Debug, PartialEq, Eq)]
pub enum RunError {
    /// The configuration is unusable (exit code 2).
    Config(String),
    /// Something failed while running (exit code 1).
    Runtime(String),
}

/// Results from the first engine's point of view.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Wins.
    pub wins: u32,
    /// Draws.
    pub draws: u32,
    /// Losses.
    pub losses: u32,
    /// Game pairs `[LL, LD, DD+WL, WD, WW]` (with `--repeat`).
    pub penta: Pentanomial,
}

impl Tally {
    /// Games counted.
    #[must_use]
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// The Elo estimate: pentanomial with pairs, else trinomial.
    #[must_use]
    pub fn elo(&self, pairs: bool) -> Option<EloEstimate> {
        if pairs && self.penta.iter().any(|&c| c > 0) {
            elo_pentanomial(&self.penta)
        } else {
            elo_trinomial(self.wins, self.draws, self.losses)
        }
    }

    /// The LLR: pentanomial with pairs, else trinomial.
    #[must_use]
    pub fn llr(&self, sprt: &Sprt, pairs: bool) -> f64 {
        if pairs {
            sprt.llr_pentanomial(&self.penta)
        } else {
            sprt.llr_trinomial(self.wins, self.draws, self.losses)
        }
    }
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

enum Msg {
    Game {
        index: usize,
        a_color: Color,
        record: GameRecord,
    },
    Fatal(String),
}

/// `x` without the sign of a negative zero (`-0.00` reads as a loss).
fn z(x: f64) -> f64 {
    x + 0.0
}

fn fmt_elo(e: Option<EloEstimate>) -> String {
    e.map_or_else(
        || "-".to_string(),
        |e| format!("{:.2} +/- {:.2}", z(e.elo), e.error),
    )
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

fn start_pair(cfg: &MatchConfig) -> Result<[Engine; 2], String> {
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
    Ok([a?, b?])
}

/// Runs the match for the rules `P`.
///
/// # Errors
/// [`RunError::Config`] for bad openings or files, [`RunError::Runtime`]
/// when an engine cannot be started (or restarted after a forfeit).
#[expect(
    clippy::too_many_lines,
    reason = "setup, workers and tally in one place"
)]
pub fn run_match<P: Position>(cfg: &MatchConfig) -> Result<Summary, RunError> {
    let variant = P::VARIANT;
    if cfg.game.variant != variant {
        return Err(RunError::Config("variant mismatch".into()));
    }
    let openings: Vec<Opening> = match &cfg.openings {
        OpeningSource::StartPos => vec![Opening::default()],
        OpeningSource::File(path) => {
            let text = std::fs::read_to_string(path)
                .map_err(|e| RunError::Config(format!("--openings {}: {e}", path.display())))?;
            parse_openings::<P>(&text)
                .map_err(|e| RunError::Config(format!("--openings {}: {e}", path.display())))?
        }
        OpeningSource::Random { .. } => Vec::new(),
    };
    let opening_for = |j: usize| -> Opening {
        match &cfg.openings {
            OpeningSource::Random { plies, seed } => {
                let s = seed.wrapping_add((j as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15));
                random_opening::<P>(*plies, s)
            }
            _ => openings[j % openings.len()].clone(),
        }
    };
    let per_job = if cfg.repeat { 2 } else { 1 };
    let jobs = cfg.games.div_ceil(per_job);
    let mut pgn_file = match &cfg.pgn {
        Some(p) => Some(
            std::fs::File::create(p)
                .map_err(|e| RunError::Config(format!("--pgn {}: {e}", p.display())))?,
        ),
        None => None,
    };
    let header = PgnHeader {
        event: format!(
            "volkhv match {} vs {}",
            cfg.engines[0].name, cfg.engines[1].name
        ),
        site: "volkhv".into(),
        date: today(),
        time_control: tc_tag(cfg.game.tc),
        variant,
    };
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let (tx, rx) = mpsc::channel::<Msg>();
    let mut tally = Tally::default();
    let mut verdict = None;
    let mut fatal: Option<String> = None;
    let live = std::io::stderr().is_terminal();
    let mut first_of_pair: std::collections::HashMap<usize, u32> = std::collections::HashMap::new();
    std::thread::scope(|scope| {
        for _ in 0..cfg.concurrency.max(1).min(jobs.max(1)) {
            let tx = tx.clone();
            let (next, stop, opening_for) = (&next, &stop, &opening_for);
            scope.spawn(move || {
                let mut pair = match start_pair(cfg) {
                    Ok(p) => p,
                    Err(e) => {
                        let _ = tx.send(Msg::Fatal(e));
                        return;
                    }
                };
                loop {
                    let job = next.fetch_add(1, Ordering::Relaxed);
                    if job >= jobs || stop.load(Ordering::Relaxed) {
                        return;
                    }
                    let opening = opening_for(job);
                    for k in 0..per_job {
                        let index = job * per_job + k;
                        if index >= cfg.games || stop.load(Ordering::Relaxed) {
                            break;
                        }
                        // Colours alternate by game: in a pair the first
                        // engine has white, then black, on one opening.
                        let a_color = if index % 2 == 0 {
                            Color::White
                        } else {
                            Color::Black
                        };
                        let [a, b] = &mut pair;
                        let (w, bl) = if a_color == Color::White {
                            (a, b)
                        } else {
                            (b, a)
                        };
                        let record = play_game::<P>(&cfg.game, w, bl, &opening, index + 1);
                        if tx
                            .send(Msg::Game {
                                index,
                                a_color,
                                record,
                            })
                            .is_err()
                        {
                            return;
                        }
                        for (slot, spec) in pair.iter_mut().zip(&cfg.engines) {
                            if !slot.is_alive() {
                                match Engine::start(spec, cfg.game.variant) {
                                    Ok(e) => *slot = e,
                                    Err(e) => {
                                        let _ = tx.send(Msg::Fatal(format!(
                                            "engine {} could not be restarted: {e}",
                                            spec.name
                                        )));
                                        return;
                                    }
                                }
                            }
                        }
                    }
                }
            });
        }
        drop(tx);
        for msg in rx {
            match msg {
                Msg::Fatal(e) => {
                    stop.store(true, Ordering::Relaxed);
                    fatal.get_or_insert(e);
                }
                Msg::Game {
                    index,
                    a_color,
                    record,
                } => {
                    if verdict.is_some() || fatal.is_some() {
                        continue;
                    }
                    match record.result.half_points(a_color) {
                        2 => tally.wins += 1,
                        1 => tally.draws += 1,
                        _ => tally.losses += 1,
                    }
                    if cfg.repeat {
                        let pts = record.result.half_points(a_color);
                        if let Some(first) = first_of_pair.remove(&(index / 2)) {
                            tally.penta[(first + pts) as usize] += 1;
                        } else {
                            first_of_pair.insert(index / 2, pts);
                        }
                    }
                    if let Some(f) = pgn_file.as_mut() {
                        if let Err(e) = f.write_all(write_game(&header, &record).as_bytes()) {
                            fatal.get_or_insert(format!("--pgn: {e}"));
                            stop.store(true, Ordering::Relaxed);
                        }
                    }
                    let mut line = format!(
                        "Game {}/{}: {} - {} {} {{{}}} | W {} D {} L {} | Elo {}",
                        tally.games(),
                        cfg.games,
                        record.white,
                        record.black,
                        record.result.pgn(),
                        record.reason,
                        tally.wins,
                        tally.draws,
                        tally.losses,
                        fmt_elo(tally.elo(cfg.repeat)),
                    );
                    if let Some(s) = &cfg.sprt {
                        let llr = z(tally.llr(s, cfg.repeat));
                        let _ =
                            write!(line, " | LLR {llr:.2} [{:.2}, {:.2}]", s.lower(), s.upper());
                        if let Some(v) = s.verdict(llr) {
                            verdict = Some(v);
                            stop.store(true, Ordering::Relaxed);
                        }
                    }
                    if live {
                        eprint!("\r{line}\x1b[K");
                    } else {
                        eprintln!("{line}");
                    }
                }
            }
        }
    });
    if live {
        eprintln!();
    }
    if let Some(e) = fatal {
        return Err(RunError::Runtime(e));
    }
    let text = summary_text(cfg, &tally, verdict);
    Ok(Summary {
        tally,
        verdict,
        text,
    })
}

fn summary_text(cfg: &MatchConfig, t: &Tally, verdict: Option<Verdict>) -> String {
    let mut s = String::new();
    let n = t.games();
    let points = f64::from(2 * t.wins + t.draws) / 2.0;
    let _ = writeln!(
        s,
        "Results of {} vs {} ({}, {}, {} games{}):",
        cfg.engines[0].name,
        cfg.engines[1].name,
        cfg.game.variant,
        tc_tag(cfg.game.tc),
        n,
        if cfg.repeat {
            ", openings repeated"
        } else {
            ""
        }
    );
    let pct = if n == 0 {
        0.0
    } else {
        100.0 * points / f64::from(n)
    };
    let _ = writeln!(
        s,
        "Games: {n}, Wins: {}, Draws: {}, Losses: {}, Points: {points:.1} ({pct:.2}%)",
        t.wins, t.draws, t.losses
    );
    if let Some(e) = t.elo(cfg.repeat) {
        let _ = writeln!(
            s,
            "Elo: {:.2} +/- {:.2}, 95% interval [{:.2}, {:.2}], LOS: {:.2}%, DrawRatio: {:.2}%",
            z(e.elo),
            e.error,
            z(e.lower),
            z(e.upper),
            100.0 * los(t.wins, t.losses),
            100.0 * draw_ratio(t.wins, t.draws, t.losses)
        );
    }
    if cfg.repeat {
        let p = t.penta;
        let _ = writeln!(
            s,
            "Ptnml(0-2): [{}, {}, {}, {}, {}]",
            p[0], p[1], p[2], p[3], p[4]
        );
    }
    if let Some(sp) = &cfg.sprt {
        let llr = z(t.llr(sp, cfg.repeat));
        let _ = writeln!(
            s,
            "SPRT ({}Elo [{}, {}], alpha {}, beta {}): LLR {llr:.2}, bounds [{:.2}, {:.2}] - {}",
            match sp.model {
                crate::stats::SprtModel::Normalized => "normalized ",
                crate::stats::SprtModel::Logistic => "logistic ",
            },
            sp.elo0,
            sp.elo1,
            sp.alpha,
            sp.beta,
            sp.lower(),
            sp.upper(),
            verdict.map_or("no decision".to_string(), |v| v.to_string())
        );
    }
    s
}
