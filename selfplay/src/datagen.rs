//! `volkhv datagen`: self-play games at a fixed node budget per move that
//! label quiet positions with the game's result and the search's score,
//! the training data of the tuner (`volkhv-tune`).
//!
//! Each game starts with a few random legal plies (so the games differ),
//! then both sides search `--nodes` nodes per move with one thread and the
//! game's own hash table. A position is written when the side to move is
//! not in check, the best move is not a capture and the score is not a
//! mate score (positions whose value the static evaluation can be expected
//! to know).
//!
//! Game `i`'s random numbers come from its own seed, derived from `--seed`
//! and `i`, and finished games are written in game order, so the same
//! arguments give the same file whatever `--concurrency` is. Output is
//! appended; each run starts with a `#` line naming its arguments.
//!
//! The text format is [`records::Record`]'s lines; the binary format
//! (`--format binary`, or an `--out` name ending in `.bin`) is
//! [`records::binary`]'s 64-byte records behind a header naming the run. A
//! binary run resumes: rerun with the same arguments (any `--games`) and it
//! goes on after the last whole game in the file (a game cut short is
//! dropped and played again), so the file is the one an uninterrupted run
//! writes.

use engine::game::Game;
use engine::limits::{EventSink, Options};
use engine::limits::{Limits, Score, SearchEvent};
use engine::search::{self, Shared, STACK_SIZE};
use eval::Evaluate;
use movegen::{with_variant, Color, Move, MoveList, Position, SplitMix, Variant};
use records::binary::{self, Grammar, Header, RECORD_BYTES};
pub use records::Record;
use std::collections::BTreeMap;
use std::io::Write as _;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::time::Instant;

/// Hash table of each game (MiB).
pub const HASH_MB: usize = 16;
/// A game still running after this many plies is scored a draw.
pub const MAX_PLIES: usize = 600;
/// Most random opening plies.
pub const MAX_RANDOM_PLIES: u64 = 100;
/// Random openings tried before a game starts from its start position as
/// it is.
const OPENING_TRIES: usize = 1000;
/// Most games generated in parallel.
pub const MAX_CONCURRENCY: u64 = 256;

/// The usage text of `volkhv datagen`.
pub const USAGE: &str = "\
usage: volkhv datagen --variant V --games N --nodes K --out FILE
                      [--random-plies P] [--seed S] [--concurrency T]
                      [--format text|binary] [--starts FILE]
  --variant V        chess, plunder or tavreli
  --games N          games to play (1..)
  --nodes K          nodes searched per move (1..)
  --random-plies P   random legal plies opening each game (0..100, default 8)
  --seed S           seed of the whole run (default 0): game i uses its own
                     seed derived from S and i
  --concurrency T    games played at once (1..256, default 1); the file
                     does not depend on it
  --out FILE         appended to: `FEN | score | result` lines (White's view)
  --format F         text (the default) or binary (the default for a FILE
                     ending in .bin): 64-byte records; a rerun with the same
                     arguments resumes the run in the file
  --starts FILE      FEN lines (EPD: the first four fields) game i starts from
                     (line i mod their number; then the random plies), for
                     data from positions the start position rarely reaches
                     (endings: scripts/endgame_starts.py)";

/// How the positions are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// `FEN | score | result` lines, appended run after run.
    Text,
    /// [`records::binary`] records; one run per file, resumable.
    Binary,
}

/// What `volkhv datagen` is asked to do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Config {
    /// The variant played.
    pub variant: Variant,
    /// Games to play.
    pub games: u64,
    /// Nodes per move.
    pub nodes: u64,
    /// Random plies opening each game.
    pub random_plies: u64,
    /// Seed of the whole run.
    pub seed: u64,
    /// Games played at once.
    pub concurrency: u64,
    /// The file appended to.
    pub out: PathBuf,
    /// Text or binary.
    pub format: Format,
    /// Positions games start from instead of the variant's start position
    /// (`--starts`): the file's name and its FENs.
    pub starts: Option<Starts>,
}

/// The positions of a `--starts` file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Starts {
    /// The file's name as given (in the run's header).
    pub name: String,
    /// Its FENs that are legal positions of the variant still to be played.
    pub fens: Vec<String>,
}

impl Starts {
    /// Reads and checks `path`'s positions for `variant`.
    ///
    /// # Errors
    /// An unreadable file, no position to play, or a line that is not a
    /// position of the variant (its number named).
    pub fn read(path: &str, variant: Variant) -> Result<Starts, String> {
        let text = std::fs::read_to_string(path).map_err(|e| format!("--starts {path}: {e}"))?;
        let fens = with_variant!(variant, P => start_fens::<P>(&text))
            .map_err(|e| format!("--starts {path}: {e}"))?;
        if fens.is_empty() {
            return Err(format!("--starts {path}: no position"));
        }
        Ok(Starts {
            name: path.to_string(),
            fens,
        })
    }
}

/// The FENs of a starts file (EPD lines keep their first four fields) that
/// are positions of `P` still to be played.
fn start_fens<P: Position + Evaluate>(text: &str) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = line.split_whitespace().collect();
        let fen = if fields.len() >= 6 && fields[4].parse::<u32>().is_ok() {
            fields[..6].join(" ")
        } else {
            fields[..fields.len().min(4)].join(" ")
        };
        let game = Game::<P>::new(Some(&fen)).map_err(|e| format!("line {}: {e}", i + 1))?;
        // A generated ending may be mate or stalemate already: nothing to
        // play, so it is left out (the header counts the positions kept).
        if game.status().is_none() {
            out.push(game.position().fen());
        }
    }
    Ok(out)
}

fn number(flag: &str, token: &str, min: u64, max: u64) -> Result<u64, String> {
    match token.parse::<u64>() {
        Ok(v) if (min..=max).contains(&v) => Ok(v),
        Ok(v) => Err(format!("{flag} {v} is out of range {min}..{max}")),
        Err(_) => Err(format!("{flag} expects a whole number, got \"{token}\"")),
    }
}

impl Config {
    /// Reads the arguments after `datagen`.
    ///
    /// # Errors
    /// A one-line reason: an unknown or repeated flag, a missing or bad
    /// value, a missing required flag.
    pub fn parse(args: &[String]) -> Result<Config, String> {
        let mut values: BTreeMap<&str, &str> = BTreeMap::new();
        let mut it = args.iter();
        while let Some(flag) = it.next() {
            let known = [
                "--variant",
                "--games",
                "--nodes",
                "--random-plies",
                "--seed",
                "--concurrency",
                "--out",
                "--format",
                "--starts",
            ];
            let Some(&name) = known.iter().find(|&&k| k == flag) else {
                return Err(format!("unknown argument \"{flag}\""));
            };
            let Some(value) = it.next() else {
                return Err(format!("{name} needs a value"));
            };
            if values.insert(name, value).is_some() {
                return Err(format!("{name} given twice"));
            }
        }
        let required = |name: &str| {
            values
                .get(name)
                .copied()
                .ok_or_else(|| format!("{name} is required"))
        };
        let optional =
            |name: &str, default: &'static str| values.get(name).copied().unwrap_or(default);
        let variant = required("--variant")?;
        let variant = Variant::from_name(variant)
            .ok_or_else(|| format!("--variant \"{variant}\" is not one of {}", Variant::list()))?;
        let out = required("--out")?;
        if out.is_empty() {
            return Err("--out needs a file name".to_string());
        }
        let format = match values.get("--format").copied() {
            Some("text") => Format::Text,
            Some("binary") => Format::Binary,
            Some(f) => return Err(format!("--format \"{f}\" is not text or binary")),
            None if out.ends_with(".bin") => Format::Binary,
            None => Format::Text,
        };
        Ok(Config {
            variant,
            games: number("--games", required("--games")?, 1, u64::MAX)?,
            nodes: number("--nodes", required("--nodes")?, 1, u64::MAX)?,
            random_plies: number(
                "--random-plies",
                optional("--random-plies", "8"),
                0,
                MAX_RANDOM_PLIES,
            )?,
            seed: number("--seed", optional("--seed", "0"), 0, u64::MAX)?,
            concurrency: number(
                "--concurrency",
                optional("--concurrency", "1"),
                1,
                MAX_CONCURRENCY,
            )?,
            out: PathBuf::from(out),
            format,
            starts: values
                .get("--starts")
                .map(|path| Starts::read(path, variant))
                .transpose()?,
        })
    }

    /// The comment line a run starts with: everything the file's content
    /// depends on (not the concurrency, not the file name).
    #[must_use]
    pub fn header(&self) -> String {
        format!(
            "# volkhv datagen --variant {} --games {} --nodes {} --random-plies {} --seed {}{}",
            self.variant,
            self.games,
            self.nodes,
            self.random_plies,
            self.seed,
            self.starts_words()
        )
    }

    /// ` --starts NAME` with the number of its positions, or nothing.
    fn starts_words(&self) -> String {
        self.starts.as_ref().map_or_else(String::new, |s| {
            format!(" --starts {} ({} positions)", s.name, s.fens.len())
        })
    }

    /// The position game `index` starts from before its random plies
    /// (`None`: the variant's start position).
    #[must_use]
    pub fn start_of(&self, index: u64) -> Option<&str> {
        let s = self.starts.as_ref()?;
        let n = s.fens.len() as u64;
        Some(&s.fens[usize::try_from(index % n).unwrap_or(0)])
    }

    /// The header of a binary file: [`Config::header`] without the number
    /// of games, which a resumed run may raise (the file holds games
    /// `0..n` of the run).
    #[must_use]
    pub fn run_header(&self) -> String {
        format!(
            "# volkhv datagen --variant {} --nodes {} --random-plies {} --seed {}{}",
            self.variant,
            self.nodes,
            self.random_plies,
            self.seed,
            self.starts_words()
        )
    }
}

/// The seed of game `index` of a run seeded `seed`.
#[must_use]
pub fn game_seed(seed: u64, index: u64) -> u64 {
    let mut r = SplitMix::new(seed ^ SplitMix::new(index).next_u64());
    r.next_u64()
}

/// A finished game: its labelled positions and result.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRecord {
    /// The positions written, in game order.
    pub records: Vec<Record>,
    /// Result for White.
    pub result: f64,
    /// Plies played (random opening included).
    pub plies: usize,
    /// The moves of the game from the start position (not written; for
    /// checking the records against the game).
    pub moves: Vec<String>,
}

/// Tries opening a game with `plies` random legal moves from `from` (the
/// start position when `None`) until one does not end the game early; from
/// an ending where every try does, the start itself (never over: starts
/// are checked when read).
fn opening<P: Position + Evaluate>(rng: &mut SplitMix, plies: u64, from: Option<&str>) -> Game<P> {
    let fresh = || match Game::<P>::new(from) {
        Ok(g) => g,
        Err(e) => unreachable!("start positions are checked when read: {e}"),
    };
    for _ in 0..OPENING_TRIES {
        let mut game = fresh();
        let mut list = MoveList::new();
        for _ in 0..plies {
            list.clear();
            game.position().legal_moves(&mut list);
            if list.is_empty() {
                break;
            }
            game.play_move(list[rng.below(list.len())]);
        }
        if game.status().is_none() {
            return game;
        }
    }
    fresh()
}

/// A one-thread search at a fixed node budget with its own hash table: what
/// each datagen game, each rescored game and genfens's level check use.
pub(crate) struct NodeSearch {
    shared: Shared,
    options: Options,
    limits: Limits,
}

impl NodeSearch {
    pub(crate) fn new(nodes: u64, hash_mb: usize) -> NodeSearch {
        NodeSearch {
            shared: Shared::new(hash_mb),
            options: Options {
                hash_mb,
                threads: 1,
                ..Options::default()
            },
            limits: Limits {
                nodes: Some(nodes),
                ..Limits::default()
            },
        }
    }

    /// Empties the hash table (a score of the position alone).
    pub(crate) fn clear(&self) {
        self.shared.clear();
    }

    /// Searches the current position to the node limit; the best move and
    /// the last reported score (none when the first iteration was cut
    /// short, see `Worker::over_node_limit`).
    pub(crate) fn best<P: Position + Evaluate>(
        &self,
        game: &Game<P>,
    ) -> Option<(String, Option<Score>)> {
        let seen: Arc<Mutex<(Option<String>, Option<Score>)>> = Arc::new(Mutex::new((None, None)));
        let seen_in = Arc::clone(&seen);
        let sink: EventSink = Arc::new(move |e| {
            if let Ok(mut s) = seen_in.lock() {
                match e {
                    SearchEvent::Info(info) if info.multipv == 1 => s.1 = Some(info.score),
                    SearchEvent::BestMove { best, .. } => s.0 = best,
                    _ => {}
                }
            }
        });
        self.shared.stop.store(false, Ordering::Relaxed);
        self.shared.abort.store(false, Ordering::Relaxed);
        search::run(game, &self.limits, &self.options, &self.shared, &sink);
        let (best, score) = seen.lock().ok()?.clone();
        Some((best?, score))
    }
}

fn white_view(v: i32, turn: Color) -> i32 {
    match turn {
        Color::White => v,
        Color::Black => -v,
    }
}

/// The label of `pos` (White's view) when its search chose `best` with
/// `score`, or `None` for a position the data leaves out: in check, a
/// capture to play, or a mate score (values the static evaluation cannot be
/// expected to know).
pub(crate) fn label<P: Position>(pos: &P, best: Move, score: Option<Score>) -> Option<i32> {
    match score {
        Some(Score::Cp(cp)) if !pos.is_check() && !best.is_capture() => {
            Some(white_view(cp, pos.turn()))
        }
        _ => None,
    }
}

/// Plays game `index` of the run (on a thread with the search's stack size).
#[must_use]
pub fn play_game<P: Position + Evaluate>(cfg: &Config, index: u64) -> GameRecord {
    let mut rng = SplitMix::new(game_seed(cfg.seed, index));
    let mut game = opening::<P>(&mut rng, cfg.random_plies, cfg.start_of(index));
    let search = NodeSearch::new(cfg.nodes, HASH_MB);
    let mut records = Vec::new();
    let result = loop {
        if let Some(outcome) = game.status() {
            break outcome.white_points();
        }
        if game.moves().len() >= MAX_PLIES {
            break 0.5;
        }
        let Some((best, score)) = search.best(&game) else {
            break 0.5;
        };
        let pos = game.position();
        let Ok(m) = pos.parse_move(&best) else {
            unreachable!("the search reports a legal move, got {best}");
        };
        if let Some(score) = label(pos, m, score) {
            records.push(Record {
                fen: pos.fen(),
                score,
                result: 0.0,
            });
        }
        game.play_move(m);
    };
    for r in &mut records {
        r.result = result;
    }
    GameRecord {
        records,
        result,
        plies: game.moves().len(),
        moves: game.moves().iter().map(ToString::to_string).collect(),
    }
}

/// Plays game `index` of a run in its variant.
#[must_use]
pub fn play_any(cfg: &Config, index: u64) -> GameRecord {
    with_variant!(cfg.variant, P => play_game::<P>(cfg, index))
}

/// What a run produced.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Games played.
    pub games: u64,
    /// Positions written.
    pub positions: u64,
    /// White wins, draws, black wins.
    pub wdl: [u64; 3],
    /// Plies played in all games.
    pub plies: u64,
    /// Wall time, milliseconds.
    pub time_ms: u64,
    /// The game this run started at (a resumed binary run: the games
    /// before it were in the file already).
    pub first_game: u64,
}

impl std::fmt::Display for Summary {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let [w, d, b] = self.wdl;
        write!(
            f,
            "{} games (+{w} ={d} -{b}, {:.0} plies each), {} positions in {:.1} s",
            self.games,
            self.plies as f64 / self.games.max(1) as f64,
            self.positions,
            self.time_ms as f64 / 1000.0
        )?;
        if self.first_game > 0 {
            write!(f, ", resumed at game {}", self.first_game)?;
        }
        Ok(())
    }
}

fn progress_bar(games: u64, show: bool) -> indicatif::ProgressBar {
    if !show {
        return indicatif::ProgressBar::hidden();
    }
    let bar = indicatif::ProgressBar::new(games);
    if let Ok(style) = indicatif::ProgressStyle::with_template(
        "{elapsed_precise} [{bar:30}] {pos}/{len} games, {msg} (ETA {eta})",
    ) {
        bar.set_style(style.progress_chars("=> "));
    }
    bar
}

/// The file a run writes to.
struct Output {
    file: std::io::BufWriter<std::fs::File>,
    path: PathBuf,
    /// `Some` for binary records of that grammar.
    binary: Option<Grammar>,
}

impl Output {
    /// Opens `cfg.out` for the run: text is appended to after a header
    /// line; a binary file is created with its header, or, if it holds
    /// this run already, cut back to the start of its last game. Returns
    /// the output and the first game to play.
    fn open(cfg: &Config) -> Result<(Output, u64), String> {
        let path = cfg.out.clone();
        let open_err = |e: std::io::Error| format!("cannot open {}: {e}", path.display());
        let mut append = std::fs::OpenOptions::new();
        append.create(true).append(true);
        if cfg.format == Format::Text {
            let file = append.open(&path).map_err(open_err)?;
            let mut out = Output {
                file: std::io::BufWriter::new(file),
                path: path.clone(),
                binary: None,
            };
            out.write(format!("{}\n", cfg.header()).as_bytes())?;
            return Ok((out, 0));
        }
        let existing = match std::fs::read(&path) {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Vec::new(),
            Err(e) => return Err(open_err(e)),
        };
        let (keep, first) = resume_point(cfg, &existing)?;
        let file = append.open(&path).map_err(open_err)?;
        file.set_len(keep as u64).map_err(open_err)?;
        let mut out = Output {
            file: std::io::BufWriter::new(file),
            path: path.clone(),
            binary: Some(Grammar::of(cfg.variant)),
        };
        if keep == 0 {
            let header = Header {
                variant: cfg.variant,
                text: cfg.run_header(),
            };
            out.write(&header.bytes())?;
        }
        Ok((out, first))
    }

    fn write(&mut self, bytes: &[u8]) -> Result<(), String> {
        let path = &self.path;
        let err = |e: std::io::Error| format!("cannot write {}: {e}", path.display());
        self.file.write_all(bytes).map_err(err)?;
        self.file.flush().map_err(err)
    }

    /// Writes game `index`'s records at once, so a run stopped between
    /// games leaves whole games.
    fn write_game(&mut self, index: u64, game: &GameRecord) -> Result<(), String> {
        let mut bytes = Vec::new();
        for (i, r) in game.records.iter().enumerate() {
            match self.binary {
                None => bytes.extend_from_slice(format!("{}\n", r.line()).as_bytes()),
                Some(grammar) => {
                    let game_index =
                        u32::try_from(index).map_err(|_| "over 2^32 games".to_string())?;
                    let mut record = binary::pack(r, game_index, grammar)?;
                    if i + 1 == game.records.len() {
                        binary::mark_last(&mut record);
                    }
                    bytes.extend_from_slice(&record);
                }
            }
        }
        self.write(&bytes)
    }
}

/// Where a binary run resumes in the file `existing`: the bytes to keep
/// and the first game to play (after the last game, or that game again
/// when its last record is missing).
fn resume_point(cfg: &Config, existing: &[u8]) -> Result<(usize, u64), String> {
    if existing.is_empty() {
        return Ok((0, 0));
    }
    let name = cfg.out.display();
    let (header, start) =
        Header::read(existing).map_err(|e| format!("{name} is not this run's file: {e}"))?;
    if header.variant != cfg.variant || header.text != cfg.run_header() {
        return Err(format!(
            "{name} holds another run (\"{}\"); resume with its arguments or use another --out",
            header.text
        ));
    }
    // A record cut short by a stop is dropped with its game.
    let whole = (existing.len() - start) / RECORD_BYTES;
    let record = |i: usize| -> &[u8; RECORD_BYTES] {
        let at = start + i * RECORD_BYTES;
        existing[at..at + RECORD_BYTES]
            .try_into()
            .unwrap_or(&[0; RECORD_BYTES])
    };
    let game_at = |i: usize| binary::game_of(record(i));
    let Some(last) = whole.checked_sub(1).map(game_at) else {
        return Ok((start, 0));
    };
    if last == binary::UNKNOWN_GAME {
        return Err(format!(
            "{name} was converted from text: it cannot be resumed"
        ));
    }
    if binary::is_last(record(whole - 1)) {
        return Ok((start + whole * RECORD_BYTES, u64::from(last) + 1));
    }
    let mut keep = whole;
    while keep > 0 && game_at(keep - 1) == last {
        keep -= 1;
    }
    Ok((start + keep * RECORD_BYTES, u64::from(last)))
}

/// Runs the whole generation: `concurrency` worker threads play the games,
/// this thread appends them to the file in game order. `progress` shows a
/// bar with the ETA on stderr (indicatif draws only on a terminal).
///
/// # Errors
/// The file cannot be opened or written, or a worker cannot start.
pub fn run(cfg: &Config, progress: bool) -> Result<Summary, String> {
    let start = Instant::now();
    let (mut out, first) = Output::open(cfg)?;
    let bar = progress_bar(cfg.games, progress);
    bar.set_position(first);
    let next = AtomicUsize::new(first as usize);
    let (tx, rx) = mpsc::channel::<(u64, GameRecord)>();
    let mut summary = Summary {
        first_game: first,
        ..Summary::default()
    };
    std::thread::scope(|scope| -> Result<(), String> {
        for id in 0..cfg.concurrency {
            let (tx, next) = (tx.clone(), &next);
            let spawned = std::thread::Builder::new()
                .name(format!("datagen-{id}"))
                .stack_size(STACK_SIZE)
                .spawn_scoped(scope, move || loop {
                    let i = next.fetch_add(1, Ordering::Relaxed) as u64;
                    if i >= cfg.games || tx.send((i, play_any(cfg, i))).is_err() {
                        break;
                    }
                });
            if let Err(e) = spawned {
                // The workers already running take no new game.
                next.store(usize::MAX / 2, Ordering::Relaxed);
                return Err(format!("cannot start a worker: {e}"));
            }
        }
        drop(tx);
        let mut pending = BTreeMap::new();
        let mut written = first;
        for (i, game) in rx {
            pending.insert(i, game);
            while let Some(game) = pending.remove(&written) {
                out.write_game(written, &game)?;
                summary.games += 1;
                summary.positions += game.records.len() as u64;
                summary.plies += game.plies as u64;
                summary.wdl[2 - (game.result * 2.0) as usize] += 1;
                written += 1;
                bar.inc(1);
                bar.set_message(format!("{} positions", summary.positions));
            }
        }
        Ok(())
    })?;
    bar.finish_and_clear();
    summary.time_ms = u64::try_from(start.elapsed().as_millis()).unwrap_or(u64::MAX);
    Ok(summary)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    /// `--starts`: bad FENs are refused by line, positions already over are
    /// left out, game i starts from position i mod their number, and the
    /// header names the file; a game played from one starts there.
    #[test]
    fn games_start_from_the_starts_file() {
        let dir = std::env::temp_dir().join(format!("volkhv-starts-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("starts.fen");
        let path = file.display().to_string();
        let run = |text: &str| {
            std::fs::write(&file, text).unwrap();
            Config::parse(&args(&format!(
                "--variant chess --games 2 --nodes 200 --out x.txt --starts {path}"
            )))
        };
        let bad = run("8/8/8/4k3/8/8/8/3QK3 w - - 0 1\n8/8/8 w - -\n").unwrap_err();
        assert!(
            bad.contains("line 2") && bad.contains("invalid FEN"),
            "{bad}"
        );
        assert!(run("# nothing\n").unwrap_err().contains("no position"));
        // The second line is mate already (a back-rank mate), so it is left out.
        let c =
            run("8/8/8/4k3/8/8/8/3QK3 w - - 0 1\nR5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1\n\n").unwrap();
        assert_eq!(c.starts.as_ref().unwrap().fens.len(), 1);
        assert_eq!(c.start_of(0), c.start_of(5));
        assert!(c
            .header()
            .ends_with(&format!("--starts {path} (1 positions)")));
        let game = play_game::<movegen::Chess>(
            &Config {
                random_plies: 0,
                ..c
            },
            0,
        );
        assert_eq!(game.records[0].fen, "8/8/8/4k3/8/8/8/3QK3 w - - 0 1");
        assert!(run_missing(&dir).contains("--starts"));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    fn run_missing(dir: &std::path::Path) -> String {
        let missing = dir.join("missing.fen").display().to_string();
        Config::parse(&args(&format!(
            "--variant chess --games 1 --nodes 1 --out x --starts {missing}"
        )))
        .unwrap_err()
    }

    #[test]
    fn arguments() {
        let c =
            Config::parse(&args("--variant plunder --games 3 --nodes 500 --out x.txt")).unwrap();
        assert_eq!(
            (
                c.variant,
                c.games,
                c.nodes,
                c.random_plies,
                c.seed,
                c.concurrency
            ),
            (Variant::Plunder, 3, 500, 8, 0, 1)
        );
        assert_eq!(c.format, Format::Text);
        let binary = |a: &str| Config::parse(&args(a)).map(|c| c.format);
        assert_eq!(
            binary("--variant chess --games 1 --nodes 1 --out x.bin"),
            Ok(Format::Binary)
        );
        assert_eq!(
            binary("--variant chess --games 1 --nodes 1 --out x --format binary"),
            Ok(Format::Binary)
        );
        assert_eq!(
            binary("--variant chess --games 1 --nodes 1 --out x.bin --format text"),
            Ok(Format::Text)
        );
        for (bad, reason) in [
            (
                "--variant go --games 1 --nodes 1 --out x",
                "--variant \"go\" is not one of",
            ),
            ("--variant chess --nodes 1 --out x", "--games is required"),
            (
                "--variant chess --games 0 --nodes 1 --out x",
                "--games 0 is out of range",
            ),
            (
                "--variant chess --games x --nodes 1 --out x",
                "--games expects a whole number",
            ),
            (
                "--variant chess --games 1 --nodes 1 --out",
                "--out needs a value",
            ),
            (
                "--variant chess --games 1 --games 2 --nodes 1 --out x",
                "--games given twice",
            ),
            (
                "--variant chess --games 1 --nodes 1 --out x --hash 4",
                "unknown argument \"--hash\"",
            ),
            (
                "--variant chess --games 1 --nodes 1 --out x --random-plies 101",
                "--random-plies 101 is out of range",
            ),
            (
                "--variant chess --games 1 --nodes 1 --out x --format xml",
                "--format \"xml\" is not text or binary",
            ),
            (
                "--variant chess --games 1 --nodes 1 --out x --concurrency 0",
                "--concurrency 0 is out of range",
            ),
        ] {
            let e = Config::parse(&args(bad)).unwrap_err();
            assert!(e.starts_with(reason), "{bad}: {e}");
            assert!(!e.contains('\n'));
        }
    }

    #[test]
    fn seeds_differ_per_game_and_rng_is_uniformish() {
        let seeds: std::collections::HashSet<u64> = (0..1000).map(|i| game_seed(7, i)).collect();
        assert_eq!(seeds.len(), 1000);
        assert_ne!(game_seed(7, 0), game_seed(8, 0));
        let mut r = SplitMix::new(1);
        let mut counts = [0u32; 4];
        for _ in 0..4000 {
            counts[r.below(4)] += 1;
        }
        assert!(
            counts.iter().all(|&c| (900..1100).contains(&c)),
            "{counts:?}"
        );
    }
}
