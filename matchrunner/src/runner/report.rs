//! What the match writes while it runs: every game to the PGN file, and a
//! progress line per game on stderr.

use super::summary::fmt_elo;
use super::{tc_tag, MatchConfig, RunError, Tally};
use crate::game::GameRecord;
use crate::stats::Sprt;
use notation::pgn::{today, write_game, PgnHeader};
use std::fmt::Write as _;
use std::fs::File;
use std::io::{IsTerminal, Write};

/// The `--pgn` file (if any) and the tags every game in it shares.
pub(super) struct PgnSink {
    file: Option<File>,
    header: PgnHeader,
}

impl PgnSink {
    /// Creates the `--pgn` file, truncating an old one.
    pub(super) fn create(cfg: &MatchConfig) -> Result<PgnSink, RunError> {
        let file = match &cfg.pgn {
            Some(p) => Some(
                File::create(p)
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
            variant: cfg.game.variant,
        };
        Ok(PgnSink { file, header })
    }

    /// Appends one game (nothing without `--pgn`).
    pub(super) fn write(&mut self, record: &GameRecord) -> std::io::Result<()> {
        match self.file.as_mut() {
            Some(f) => f.write_all(write_game(&self.header, record).as_bytes()),
            None => Ok(()),
        }
    }
}

/// The per-game line on stderr: rewritten in place on a terminal, one line
/// per game otherwise (a log stays readable).
pub(super) struct Progress {
    live: bool,
}

impl Progress {
    pub(super) fn new() -> Progress {
        Progress {
            live: std::io::stderr().is_terminal(),
        }
    }

    pub(super) fn show(&self, line: &str) {
        if self.live {
            eprint!("\r{line}\x1b[K");
        } else {
            eprintln!("{line}");
        }
    }

    /// Ends the line a terminal was rewriting.
    pub(super) fn finish(&self) {
        if self.live {
            eprintln!();
        }
    }
}

/// `Game 8/10: a - b 0-1 {reason} | W 3 D 0 L 5 | Elo …`, with the LLR and
/// its bounds when an SPRT runs.
pub(super) fn progress_line(
    cfg: &MatchConfig,
    tally: &Tally,
    record: &GameRecord,
    sprt: Option<(&Sprt, f64)>,
) -> String {
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
    if let Some((s, llr)) = sprt {
        let _ = write!(line, " | LLR {llr:.2} [{:.2}, {:.2}]", s.lower(), s.upper());
    }
    line
}
