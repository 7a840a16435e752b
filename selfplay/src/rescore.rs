//! `volkhv rescore`: a binary data file labelled again by this build's
//! search. Self-play data keeps the scores of the build that played it; a
//! newer network searches the same positions better, and training on its
//! scores is a cheap step up (issue 51: engines report +50 from rescoring
//! old data with a new net). The games' results and the positions stay; each
//! position gets the score of a `--nodes` search with one thread and its
//! game's own hash table (the game's positions in order, as datagen searched
//! them), and the records whose search now finds a mate or a capture, or that
//! stand in check, are left out, as datagen leaves them out.
//!
//! The file written is a new run: its header names the rescore and keeps the
//! source's header lines after it, and records keep their game's index and
//! the last-of-game mark. The same file and arguments give the same output
//! whatever `--concurrency` is.

use crate::datagen::{label, NodeSearch, HASH_MB};
use engine::game::Game;
use engine::search::STACK_SIZE;
use eval::Evaluate;
use movegen::{with_variant, Position, Variant};
use records::binary::{self, Grammar, Header};
use records::Record;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

/// The usage text of `volkhv rescore`.
pub const USAGE: &str = "\
usage: volkhv rescore --in FILE --out FILE --nodes K [--concurrency T]
  --in FILE          a binary `volkhv datagen` file (any variant)
  --out FILE         the rescored file, written new (refused if it exists)
  --nodes K          nodes searched per position (1..)
  --concurrency T    games rescored at once (1..256, default 1); the file
                     does not depend on it";

/// What `volkhv rescore` is asked to do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Config {
    /// The data read.
    pub input: PathBuf,
    /// The file written.
    pub out: PathBuf,
    /// Nodes per position.
    pub nodes: u64,
    /// Games rescored at once.
    pub concurrency: usize,
}

impl Config {
    /// Reads the command line after `rescore`.
    ///
    /// # Errors
    /// A missing or unknown argument, or a value out of range.
    pub fn parse(args: &[String]) -> Result<Config, String> {
        let (mut input, mut out, mut nodes, mut concurrency) = (None, None, None, 1);
        let mut it = args.iter();
        while let Some(flag) = it.next() {
            let value = it
                .next()
                .ok_or_else(|| format!("{flag} needs a value"))?
                .as_str();
            let number = |max: u64| {
                value
                    .parse::<u64>()
                    .ok()
                    .filter(|n| (1..=max).contains(n))
                    .ok_or_else(|| format!("{flag}: {value:?} is not a number from 1 to {max}"))
            };
            match flag.as_str() {
                "--in" => input = Some(PathBuf::from(value)),
                "--out" => out = Some(PathBuf::from(value)),
                "--nodes" => nodes = Some(number(u64::MAX)?),
                "--concurrency" => concurrency = number(256)? as usize,
                other => return Err(format!("unknown argument {other:?}")),
            }
        }
        let (Some(input), Some(out), Some(nodes)) = (input, out, nodes) else {
            return Err("--in, --out and --nodes are required".to_string());
        };
        Ok(Config {
            input,
            out,
            nodes,
            concurrency,
        })
    }
}

/// What a rescore did.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Summary {
    /// Positions read.
    pub read: usize,
    /// Positions written.
    pub written: usize,
    /// Mean absolute change of the written positions' scores, centipawns.
    pub mean_change: f64,
    /// Wall time, seconds.
    pub seconds: f64,
}

impl std::fmt::Display for Summary {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} of {} positions rescored ({} left out: now a mate, a capture or in check), \
             mean change {:.1} cp, in {:.1} s",
            self.written,
            self.read,
            self.read - self.written,
            self.mean_change,
            self.seconds
        )
    }
}

/// Rescores `cfg.input` into `cfg.out`.
///
/// # Errors
/// An unreadable or damaged input, an output that exists, or a worker that
/// cannot start.
pub fn run(cfg: &Config) -> Result<Summary, String> {
    let start = Instant::now();
    let name = cfg.input.display();
    let bytes = std::fs::read(&cfg.input).map_err(|e| format!("cannot read {name}: {e}"))?;
    if !binary::is_binary(&bytes) {
        return Err(format!(
            "{name} is not binary data (volkhv-nnue convert IN OUT makes it)"
        ));
    }
    let (header, records) = binary::read_all(&bytes).map_err(|e| format!("{name}: {e}"))?;
    if cfg.out.exists() {
        return Err(format!(
            "{} exists: rescore writes a new file",
            cfg.out.display()
        ));
    }
    let games = by_game(records);
    let rescored = rescore_all(header.variant, &games, cfg)?;
    let mut out = Header {
        variant: header.variant,
        text: format!("# volkhv rescore --nodes {}\n{}", cfg.nodes, header.text),
    }
    .bytes();
    let grammar = Grammar::of(header.variant);
    let mut summary = Summary {
        read: games.iter().map(|(_, g)| g.len()).sum(),
        ..Summary::default()
    };
    let mut change = 0.0;
    for ((index, _), new) in games.iter().zip(&rescored) {
        for (i, (record, before)) in new.iter().enumerate() {
            let mut packed = binary::pack(record, *index, grammar)?;
            if i + 1 == new.len() {
                binary::mark_last(&mut packed);
            }
            out.extend_from_slice(&packed);
            change += f64::from((record.score - before).abs());
        }
        summary.written += new.len();
    }
    std::fs::write(&cfg.out, out)
        .map_err(|e| format!("cannot write {}: {e}", cfg.out.display()))?;
    summary.mean_change = change / summary.written.max(1) as f64;
    summary.seconds = start.elapsed().as_secs_f64();
    Ok(summary)
}

/// The records in runs of one game each, in file order.
fn by_game(records: Vec<(Record, u32)>) -> Vec<(u32, Vec<Record>)> {
    let mut games: Vec<(u32, Vec<Record>)> = Vec::new();
    for (record, game) in records {
        match games.last_mut() {
            Some((g, list)) if *g == game => list.push(record),
            _ => games.push((game, vec![record])),
        }
    }
    games
}

/// A game's kept records with their new scores, each beside its old score.
type Rescored = Vec<(Record, i32)>;

/// Every game rescored, in game order; `concurrency` threads take the games
/// in turn (a file converted from text, whose games are unknown, is one
/// game).
fn rescore_all(
    variant: Variant,
    games: &[(u32, Vec<Record>)],
    cfg: &Config,
) -> Result<Vec<Rescored>, String> {
    let next = AtomicUsize::new(0);
    let done: Mutex<Vec<Option<Rescored>>> = Mutex::new(vec![None; games.len()]);
    std::thread::scope(|scope| -> Result<(), String> {
        for id in 0..cfg.concurrency {
            let (next, done) = (&next, &done);
            std::thread::Builder::new()
                .name(format!("rescore-{id}"))
                .stack_size(STACK_SIZE)
                .spawn_scoped(scope, move || loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some((_, records)) = games.get(i) else {
                        break;
                    };
                    let new = with_variant!(variant, P => rescore_game::<P>(records, cfg.nodes));
                    if let Ok(mut d) = done.lock() {
                        d[i] = Some(new);
                    }
                })
                .map_err(|e| format!("cannot start a worker: {e}"))?;
        }
        Ok(())
    })?;
    done.into_inner()
        .map_err(|_| "a worker failed".to_string())?
        .into_iter()
        .map(|g| g.ok_or_else(|| "a game was not rescored".to_string()))
        .collect()
}

/// One game's records searched again, in order, with one hash table.
fn rescore_game<P: Position + Evaluate>(records: &[Record], nodes: u64) -> Rescored {
    let search = NodeSearch::new(nodes, HASH_MB);
    let mut out = Vec::new();
    for record in records {
        // A record the engine wrote is a position of its variant; one that
        // is not (a damaged or foreign file) is left out, not guessed at.
        let Ok(game) = Game::<P>::new(Some(&record.fen)) else {
            continue;
        };
        let pos = game.position();
        let Some((best, score)) = search.best(&game) else {
            continue;
        };
        let labelled = pos
            .parse_move(&best)
            .ok()
            .and_then(|m| label(pos, m, score));
        if let Some(score) = labelled {
            out.push((
                Record {
                    score,
                    ..record.clone()
                },
                record.score,
            ));
        }
    }
    out
}
