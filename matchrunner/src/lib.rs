//! `volkhv match`: engine-vs-engine matches refereed by movegen.
//!
//! General tools (cutechess-cli, fastchess) cannot referee PlunderChess or
//! Tavreli, so the runner validates every move with movegen's
//! [`Position`] implementations, keeps the clocks, ends
//! games by the rules of RULES.md, and computes Elo/SPRT statistics as
//! fastchess and OpenBench do.
//!
//! ```text
//! volkhv match --variant chess --engine "cmd=./volkhv name=new" \
//!     --engine "cmd=/usr/games/fairymax name=fairymax proto=xboard" \
//!     --tc 10+0.1 --games 20 --repeat --random-plies 8 --pgn out.pgn
//! ```
#![deny(missing_docs)]

pub mod cli;
pub mod engine;
pub mod fastchess;
pub mod game;
pub use notation::openings;
pub mod runner;
pub mod spec;
pub mod stats;

use runner::{run_match, MatchConfig, RunError, Summary};
use std::process::ExitCode;

/// Runs the match for the configured variant.
///
/// # Errors
/// [`RunError`] as [`run_match`] reports it.
pub fn run(cfg: &MatchConfig) -> Result<Summary, RunError> {
    movegen::with_variant!(cfg.game.variant, P => run_match::<P>(cfg))
}

/// `volkhv match ARGS…` (the arguments after the word `match`): exit code
/// 0 after a match, 2 for bad options (with a one-line reason on stderr),
/// 1 if an engine fails to start or a file cannot be written. Arguments in
/// fastchess's form (`-engine …`) get fastchess's output ([`fastchess`]).
#[must_use]
pub fn run_cli(args: &[String]) -> ExitCode {
    let parsed = if fastchess::is_fastchess_style(args) {
        fastchess::parse(args)
    } else {
        cli::parse(args)
    };
    let cfg = match parsed {
        Ok(c) => c,
        Err(cli::CliError::Help(text)) => {
            print!("{text}");
            return ExitCode::SUCCESS;
        }
        Err(cli::CliError::Bad(reason)) => {
            eprintln!("volkhv match: {reason}");
            return ExitCode::from(2);
        }
    };
    match run(&cfg) {
        Ok(summary) => {
            print!("{}", summary.text);
            ExitCode::SUCCESS
        }
        Err(RunError::Config(reason)) => {
            eprintln!("volkhv match: {reason}");
            ExitCode::from(2)
        }
        Err(RunError::Runtime(reason)) => {
            eprintln!("volkhv match: {reason}");
            ExitCode::from(1)
        }
    }
}
