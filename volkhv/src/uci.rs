//! The UCI shim: lines of text in, [`Engine`] calls and formatted replies out.
//!
//! Commands are tokenised here rather than with `vampirc-uci`: its grammar
//! knows only chess FENs and move strings, and a variant `position` line
//! (`N(Q)`, `(Pr)`, `P=N`, `e7d8qn`, `d4f6:1`) must never be rejected by the
//! transport. FENs and moves are checked by movegen through `Engine`.
//!
//! Extensions (as Stockfish): `go perft N`, `d`, `bench [depth]`.

use crate::shell::{self, Flow, Out, Searches, Shim};
use engine::levels::{self, StrengthSettings, MAX_SEED};

/// The largest `Level Nodes` (0 = the level's own budget).
const MAX_LEVEL_NODES: u64 = 1_000_000_000;
use engine::{AnyGame, Engine, Info, Limits, Options, Score, SearchEvent};
use movegen::Variant;
use std::collections::VecDeque;
use vampirc_uci::{Serializable, UciMessage, UciOptionConfig};

/// Keywords that end a `go searchmoves` list.
const GO_KEYWORDS: [&str; 13] = [
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "movetime",
    "depth",
    "nodes",
    "mate",
    "infinite",
    "ponder",
    "searchmoves",
    "perft",
];

/// The UCI front end.
///
/// Commands take effect in arrival order. A command that needs the running
/// search to be over (`go`, `ucinewgame`, `bench`, a new `Hash`, `Clear
/// Hash`) waits in `pending`, and so does everything after it; a search that
/// would only end on `stop` (`infinite`, `ponder`) is stopped for it and
/// still reports its `bestmove` first. Everything else (`position`,
/// `isready`, `stop`, most options, errors) acts at once: the search works
/// on its own copy of the game.
pub struct Uci {
    engine: Engine,
    out: Out,
    searches: Searches,
    /// The search whose `bestmove` is still owed to the GUI.
    current: Option<u64>,
    /// `go infinite`: the best move waits for `stop`.
    infinite: bool,
    /// `go ponder` before `ponderhit`: the best move waits too.
    pondering: bool,
    /// A finished search's `bestmove` line held back by the two flags above.
    held: Option<String>,
    /// The current search was told to stop: its `bestmove` is on the way,
    /// and an `isready` now is answered after it.
    stopping: bool,
    /// Input waiting for the current search to end, in arrival order.
    pending: VecDeque<Queued>,
    /// `UCI_LimitStrength`, `UCI_Elo`, `Skill Level`: together they set
    /// the engine's level.
    strength: StrengthSettings,
}

/// Input kept in arrival order behind a command that waits.
#[derive(Debug)]
enum Queued {
    Line(String),
    TooLong(usize),
}

/// A `setoption` after parsing and range checks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum OptionChange {
    Variant(Variant),
    Hash(usize),
    Threads(usize),
    MultiPv(usize),
    MoveOverhead(u64),
    Ponder(bool),
    ClearHash,
    LimitStrength(bool),
    Elo(u32),
    Skill(u32),
    Seed(u64),
    ShowWdl(bool),
    LevelNodes(u64),
}

impl OptionChange {
    /// Only a new table needs the search to be over; other options apply
    /// from the next `go`.
    fn needs_idle(self) -> bool {
        matches!(self, OptionChange::Hash(_) | OptionChange::ClearHash)
    }
}

impl Uci {
    /// A shim over a fresh engine.
    pub fn new(out: Out, searches: Searches) -> Uci {
        Uci {
            engine: Engine::new(),
            out,
            searches,
            current: None,
            infinite: false,
            pondering: false,
            held: None,
            stopping: false,
            pending: VecDeque::new(),
            strength: StrengthSettings::default(),
        }
    }

    fn error(&self, msg: &str) {
        self.out.line(&format!("info string error {msg}"));
    }

    /// Whether `line` must wait until no search runs. `isready` waits for
    /// a search already told to stop, so its `bestmove` comes first.
    fn needs_idle(&self, line: &str) -> bool {
        let tokens: Vec<&str> = line.split_whitespace().collect();
        match tokens.split_first() {
            Some((&("go" | "ucinewgame" | "bench"), _)) => true,
            Some((&"isready", _)) => self.stopping,
            Some((&"setoption", rest)) => parse_setoption(rest).is_ok_and(OptionChange::needs_idle),
            _ => false,
        }
    }

    /// A command waits for the search: a search that would run until `stop`
    /// is stopped now (it still reports); a bounded one finishes by itself.
    fn make_way(&mut self) {
        if let Some(line) = self.held.take() {
            self.current = None;
            self.infinite = false;
            self.pondering = false;
            self.out.line(&line);
        } else if self.infinite || self.pondering {
            self.infinite = false;
            self.pondering = false;
            self.stopping = true;
            self.engine.stop();
        }
    }

    /// Runs `line` now, or queues it when it must wait for the search.
    fn dispatch(&mut self, line: &str) -> Flow {
        if self.current.is_some() && self.needs_idle(line) {
            self.make_way();
            if self.current.is_some() {
                self.pending.push_back(Queued::Line(line.to_string()));
                return Flow::Continue;
            }
        }
        self.exec(line)
    }

    /// Runs the queued input that no longer has to wait.
    fn run_pending(&mut self) -> Flow {
        while let Some(front) = self.pending.front() {
            if let Queued::Line(l) = front {
                if self.current.is_some() && self.needs_idle(l) {
                    self.make_way();
                    if self.current.is_some() {
                        break;
                    }
                }
            }
            match self.pending.pop_front() {
                Some(Queued::Line(l)) => {
                    if self.exec(&l) == Flow::Quit {
                        return Flow::Quit;
                    }
                }
                Some(Queued::TooLong(bytes)) => self.error(&shell::too_long_message(bytes)),
                None => break,
            }
        }
        Flow::Continue
    }

    /// The `uci` handshake. The standard messages are serialised by
    /// vampirc-uci, so their grammar is the crate's, not hand-written.
    fn identify(&self) {
        let o = Options::default();
        let spin = |name: &str, default: u64, min: i64, max: u64| {
            UciMessage::Option(UciOptionConfig::Spin {
                name: name.to_string(),
                default: i64::try_from(default).ok(),
                min: Some(min),
                max: i64::try_from(max).ok(),
            })
        };
        let check = |name: &str, default: bool| {
            UciMessage::Option(UciOptionConfig::Check {
                name: name.to_string(),
                default: Some(default),
            })
        };
        let messages = [
            UciMessage::Id {
                name: Some(shell::NAME.to_string()),
                author: None,
            },
            UciMessage::Id {
                name: None,
                author: Some(shell::AUTHOR.to_string()),
            },
            UciMessage::Option(UciOptionConfig::Combo {
                name: "UCI_Variant".to_string(),
                default: Some(self.engine.variant().name().to_string()),
                var: Variant::ALL.iter().map(|v| v.name().to_string()).collect(),
            }),
            spin("Hash", o.hash_mb as u64, 1, shell::MAX_HASH_MB),
            spin("Threads", o.threads as u64, 1, shell::MAX_THREADS),
            spin("MultiPV", o.multipv as u64, 1, shell::MAX_MULTIPV),
            spin(
                "Move Overhead",
                o.move_overhead_ms,
                0,
                shell::MAX_OVERHEAD_MS,
            ),
            UciMessage::Option(UciOptionConfig::Check {
                name: "Ponder".to_string(),
                default: Some(o.ponder),
            }),
            UciMessage::Option(UciOptionConfig::Button {
                name: "Clear Hash".to_string(),
            }),
            spin(
                "Skill Level",
                u64::from(levels::MAX_SKILL),
                0,
                u64::from(levels::MAX_SKILL),
            ),
            check("UCI_LimitStrength", false),
            spin(
                "UCI_Elo",
                u64::from(levels::DEFAULT_UCI_ELO),
                i64::from(levels::ELO_MIN),
                u64::from(levels::ELO_MAX),
            ),
            spin("Seed", o.seed, 0, MAX_SEED),
            check("UCI_ShowWDL", o.show_wdl),
            spin("Level Nodes", 0, 0, MAX_LEVEL_NODES),
            UciMessage::UciOk,
        ];
        for m in &messages {
            self.out.line(&m.serialize());
        }
    }

    fn setoption(&mut self, rest: &[&str]) {
        match parse_setoption(rest) {
            Ok(change) => self.apply_option(change),
            Err(e) => self.error(&format!("setoption: {e}")),
        }
    }

    fn apply_option(&mut self, change: OptionChange) {
        let mut o = self.engine.options().clone();
        match change {
            OptionChange::Variant(v) => {
                self.engine.set_variant(v);
                self.announce_variant(v);
                return;
            }
            OptionChange::ClearHash => {
                self.engine.new_game();
                return;
            }
            OptionChange::Hash(mb) => o.hash_mb = mb,
            OptionChange::Threads(n) => o.threads = n,
            OptionChange::MultiPv(n) => o.multipv = n,
            OptionChange::MoveOverhead(ms) => o.move_overhead_ms = ms,
            OptionChange::Ponder(on) => o.ponder = on,
            OptionChange::LimitStrength(on) => self.strength.limit_strength = on,
            OptionChange::Elo(elo) => self.strength.uci_elo = elo,
            OptionChange::Skill(level) => self.strength.skill_level = level,
            OptionChange::Seed(seed) => o.seed = seed,
            OptionChange::ShowWdl(on) => o.show_wdl = on,
            OptionChange::LevelNodes(n) => o.level_nodes = (n > 0).then_some(n),
        }
        o.elo = self.strength.elo();
        if o == *self.engine.options() {
            return;
        }
        let hash = o.hash_mb;
        match self.engine.set_options(o) {
            Ok(()) => {
                let got = self.engine.hash_allocated_mb();
                if got != hash {
                    self.out.line(&format!(
                        "info string Hash {got} MiB in use: {hash} MiB could not be allocated"
                    ));
                }
            }
            Err(e) => self.error(&format!("setoption: {e}; unchanged")),
        }
    }

    /// Fairy-Stockfish's announcement, from which GUIs learn a variant's board.
    fn announce_variant(&self, v: Variant) {
        let fen = self.engine.game().fen();
        self.out.line(&format!(
            "info string variant {} files 8 ranks 8 pocket 0 template fairy startpos {fen}",
            v.name()
        ));
    }

    fn position(&mut self, rest: &[&str]) {
        let moves_at = rest.iter().position(|&t| t == "moves");
        let (setup, moves) = match moves_at {
            Some(i) => (&rest[..i], &rest[i + 1..]),
            None => (rest, &rest[rest.len()..]),
        };
        let fen = match setup.split_first() {
            Some((&"startpos", [])) => None,
            Some((&"startpos", extra)) => {
                self.error(&format!(
                    "position: unexpected \"{}\" after startpos; position unchanged",
                    shell::echo(&extra.join(" "))
                ));
                return;
            }
            Some((&"fen", [])) => {
                self.error("position: missing FEN; position unchanged");
                return;
            }
            Some((&"fen", fields)) => Some(fields.join(" ")),
            _ => {
                self.error("position: expected startpos or fen; position unchanged");
                return;
            }
        };
        if let Err(e) = self.engine.set_position(fen.as_deref(), moves) {
            self.error(&format!(
                "position: {}; position unchanged",
                shell::echo(&e.to_string())
            ));
        }
    }

    fn go(&mut self, rest: &[&str]) {
        if let Some(i) = rest.iter().position(|&t| t == "perft") {
            let depth = rest.get(i + 1).copied().unwrap_or("");
            match shell::parse_in_range(
                "perft depth",
                depth,
                0,
                u64::from(movegen::MAX_PERFT_DEPTH),
            ) {
                Ok(d) => {
                    let (id, sink) = self.searches.sink();
                    self.start_job(id);
                    self.engine.perft(u32::try_from(d).unwrap_or(0), sink);
                }
                Err(e) => self.error(&format!("go {e}")),
            }
            return;
        }
        let (limits, problems) = parse_go(rest, self.engine.game());
        for p in problems {
            self.error(&format!("go: {p}"));
        }
        let (id, sink) = self.searches.sink();
        self.start_job(id);
        self.infinite = limits.infinite;
        self.pondering = limits.ponder;
        self.engine.go(limits, sink);
    }

    /// Bookkeeping of a job about to start: its events are the ones shown.
    fn start_job(&mut self, id: u64) {
        self.infinite = false;
        self.pondering = false;
        self.held = None;
        self.stopping = false;
        self.current = Some(id);
    }

    fn stop(&mut self) {
        self.infinite = false;
        self.pondering = false;
        if let Some(line) = self.held.take() {
            self.current = None;
            self.out.line(&line);
        } else if self.current.is_some() {
            self.stopping = true;
            self.engine.stop();
        }
    }

    fn ponderhit(&mut self) {
        if !self.pondering {
            return;
        }
        self.pondering = false;
        self.engine.ponderhit();
        if !self.infinite {
            if let Some(line) = self.held.take() {
                self.current = None;
                self.out.line(&line);
            }
        }
    }

    fn display(&self) {
        for l in self.engine.game().display().lines() {
            self.out.line(l);
        }
    }

    fn bench(&mut self, rest: &[&str]) {
        let depth = match rest.first() {
            None => None,
            Some(t) => match shell::parse_in_range("bench depth", t, 1, 64) {
                Ok(d) => u32::try_from(d).ok(),
                Err(e) => {
                    self.error(&e);
                    return;
                }
            },
        };
        let (id, sink) = self.searches.sink();
        self.start_job(id);
        self.engine.bench(depth, sink);
    }

    /// Carries out one command; the callers have made sure it may run now.
    fn exec(&mut self, line: &str) -> Flow {
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let Some((&cmd, rest)) = tokens.split_first() else {
            return Flow::Continue;
        };
        match cmd {
            "uci" => self.identify(),
            "isready" => self.out.line(&UciMessage::ReadyOk.serialize()),
            "ucinewgame" => self.engine.new_game(),
            "setoption" => self.setoption(rest),
            "position" => self.position(rest),
            "go" => self.go(rest),
            "stop" => self.stop(),
            "ponderhit" => self.ponderhit(),
            "quit" => {
                self.engine.abort();
                return Flow::Quit;
            }
            "d" => self.display(),
            "bench" => self.bench(rest),
            // Harmless commands of the standard we have nothing to do for.
            "debug" | "register" => {}
            _ => self.error(&format!("unknown command: {}", shell::echo(line.trim()))),
        }
        Flow::Continue
    }
}

impl Shim for Uci {
    fn line(&mut self, line: &str) -> Flow {
        if line.split_whitespace().next() == Some("quit") {
            return self.exec("quit");
        }
        if !self.pending.is_empty() {
            self.pending.push_back(Queued::Line(line.to_string()));
            return Flow::Continue;
        }
        self.dispatch(line)
    }

    fn too_long(&mut self, bytes: usize) {
        if self.pending.is_empty() {
            self.error(&shell::too_long_message(bytes));
        } else {
            self.pending.push_back(Queued::TooLong(bytes));
        }
    }

    fn event(&mut self, id: u64, ev: SearchEvent) {
        if self.current != Some(id) {
            return;
        }
        match ev {
            SearchEvent::Info(info) => self.out.line(&info_line(&info)),
            SearchEvent::Message(m) => self.out.line(&format!("info string {m}")),
            SearchEvent::Report(l) => self.out.line(&l),
            SearchEvent::Done { stopped } => {
                if stopped {
                    self.out.line("info string stopped before the end");
                }
                self.current = None;
            }
            SearchEvent::BestMove { best, ponder } => {
                let line = bestmove_line(best.as_deref(), ponder.as_deref());
                if self.infinite || self.pondering {
                    self.held = Some(line);
                } else {
                    self.current = None;
                    self.out.line(&line);
                }
            }
        }
    }

    fn flow(&mut self) -> Flow {
        self.run_pending()
    }

    fn eof(&mut self) -> bool {
        // Like `stop`: an open-ended search ends and reports; a bounded one
        // is allowed to finish so `echo "go depth 8" | volkhv` prints its move.
        if self.infinite || self.pondering || self.held.is_some() {
            self.stop();
        }
        self.current.is_none() && self.pending.is_empty()
    }
}

/// Parses `setoption name N [value V]` with every range check, so a bad
/// option is refused before anything (a running search included) is touched.
fn parse_setoption(rest: &[&str]) -> Result<OptionChange, String> {
    if rest.first() != Some(&"name") {
        return Err("expected \"name\"".to_string());
    }
    let value_at = rest.iter().position(|&t| t == "value");
    let name = rest[1..value_at.unwrap_or(rest.len())].join(" ");
    let value = value_at.map(|i| rest[i + 1..].join(" "));
    if name.is_empty() {
        return Err("missing option name".to_string());
    }
    let key = name.to_ascii_lowercase();
    if key == "clear hash" {
        return Ok(OptionChange::ClearHash);
    }
    let value = value.ok_or_else(|| format!("option {} needs a value", shell::echo(&name)))?;
    let spin = |label: &str, min: u64, max: u64| shell::parse_in_range(label, &value, min, max);
    Ok(match key.as_str() {
        "uci_variant" => OptionChange::Variant(parse_variant(&value)?),
        "hash" => OptionChange::Hash(to_usize(spin("Hash", 1, shell::MAX_HASH_MB)?)),
        "threads" => OptionChange::Threads(to_usize(spin("Threads", 1, shell::MAX_THREADS)?)),
        "multipv" => OptionChange::MultiPv(to_usize(spin("MultiPV", 1, shell::MAX_MULTIPV)?)),
        "move overhead" => {
            OptionChange::MoveOverhead(spin("Move Overhead", 0, shell::MAX_OVERHEAD_MS)?)
        }
        "ponder" => OptionChange::Ponder(parse_check("Ponder", &value)?),
        "uci_limitstrength" => {
            OptionChange::LimitStrength(parse_check("UCI_LimitStrength", &value)?)
        }
        "uci_showwdl" => OptionChange::ShowWdl(parse_check("UCI_ShowWDL", &value)?),
        "uci_elo" => OptionChange::Elo(to_u32(spin(
            "UCI_Elo",
            u64::from(levels::ELO_MIN),
            u64::from(levels::ELO_MAX),
        )?)),
        "skill level" => OptionChange::Skill(to_u32(spin(
            "Skill Level",
            0,
            u64::from(levels::MAX_SKILL),
        )?)),
        "seed" => OptionChange::Seed(spin("Seed", 0, MAX_SEED)?),
        "level nodes" => OptionChange::LevelNodes(spin("Level Nodes", 0, MAX_LEVEL_NODES)?),
        _ => return Err(format!("unknown option \"{}\"", shell::echo(&name))),
    })
}

/// A `check` option's value.
fn parse_check(label: &str, value: &str) -> Result<bool, String> {
    match value.trim().to_ascii_lowercase().as_str() {
        "true" => Ok(true),
        "false" => Ok(false),
        _ => Err(format!(
            "{label}: \"{}\" is not true or false",
            shell::echo(value)
        )),
    }
}

fn to_u32(v: u64) -> u32 {
    u32::try_from(v).unwrap_or(u32::MAX)
}

fn parse_variant(value: &str) -> Result<Variant, String> {
    Variant::from_name(value.trim())
        .ok_or_else(|| format!("UCI_Variant: unknown variant \"{}\"", shell::echo(value)))
}

fn to_usize(v: u64) -> usize {
    usize::try_from(v).unwrap_or(usize::MAX)
}

/// Parses the parameters of `go` into limits. Every problem is reported,
/// and a bad value is replaced by the nearest valid one, so a bounded `go`
/// stays bounded (`depth -1` searches depth 1, never without limit).
fn parse_go(rest: &[&str], game: &AnyGame) -> (Limits, Vec<String>) {
    let mut limits = Limits::default();
    let mut problems = Vec::new();
    let mut i = 0;
    while i < rest.len() {
        let key = rest[i];
        i += 1;
        match key {
            "infinite" => limits.infinite = true,
            "ponder" => limits.ponder = true,
            "searchmoves" => {
                while i < rest.len() && !GO_KEYWORDS.contains(&rest[i]) {
                    match game.canonical_move(rest[i]) {
                        Ok(m) => limits.searchmoves.push(m),
                        Err(e) => problems.push(format!("searchmoves: {e}; ignored")),
                    }
                    i += 1;
                }
            }
            "wtime" | "btime" | "winc" | "binc" | "movestogo" | "movetime" | "depth" | "nodes"
            | "mate" => {
                let tok = rest.get(i).copied().filter(|t| !GO_KEYWORDS.contains(t));
                if tok.is_some() {
                    i += 1;
                }
                if let Some(problem) = set_go_value(&mut limits, key, tok) {
                    problems.push(problem);
                }
            }
            other => problems.push(format!(
                "unknown parameter \"{}\"; ignored",
                shell::echo(other)
            )),
        }
    }
    (limits, problems)
}

/// The range of one numeric `go` parameter: values outside it (or not
/// numbers) are reported and replaced by the nearest end.
fn go_range(key: &str) -> (i64, i64) {
    match key {
        "depth" => (1, i64::from(engine::search::MAX_DEPTH)),
        "mate" => (1, i64::from(engine::search::MAX_DEPTH) / 2),
        "nodes" => (1, i64::MAX),
        "movestogo" => (1, i64::from(u32::MAX)),
        _ => (0, i64::MAX),
    }
}

/// Stores one numeric `go` parameter (`None` = the value is missing);
/// returns the problem to report, if any. Clock values may arrive negative
/// from GUIs whose flag has fallen: they count as zero without a word, and
/// `movestogo 0` means no moves-to-go, as some GUIs send it.
fn set_go_value(l: &mut Limits, key: &str, tok: Option<&str>) -> Option<String> {
    let (min, max) = go_range(key);
    let clock = matches!(key, "wtime" | "btime" | "winc" | "binc");
    let (value, problem) = match tok.map(|t| (t, t.parse::<i128>())) {
        Some((_, Ok(v))) if (i128::from(min)..=i128::from(max)).contains(&v) => (v, None),
        Some((_, Ok(v))) if clock && v < 0 => (0, None),
        Some((_, Ok(0))) if key == "movestogo" => {
            l.movestogo = None;
            return None;
        }
        Some((t, Ok(v))) => {
            let near = v.clamp(i128::from(min), i128::from(max));
            let msg = format!(
                "{key} {} is out of range {min}..{max}; using {near}",
                shell::echo(t)
            );
            (near, Some(msg))
        }
        Some((t, Err(_))) => (
            i128::from(min),
            Some(format!(
                "bad value for {key}: \"{}\"; using {min}",
                shell::echo(t)
            )),
        ),
        None => (
            i128::from(min),
            Some(format!("{key} needs a value; using {min}")),
        ),
    };
    let as_u64 = u64::try_from(value).unwrap_or(0);
    let as_u32 = u32::try_from(value).unwrap_or(u32::MAX);
    match key {
        "wtime" => l.wtime = Some(as_u64),
        "btime" => l.btime = Some(as_u64),
        "winc" => l.winc = Some(as_u64),
        "binc" => l.binc = Some(as_u64),
        "movetime" => l.movetime = Some(as_u64),
        "nodes" => l.nodes = Some(as_u64),
        "movestogo" => l.movestogo = Some(as_u32),
        "depth" => l.depth = Some(as_u32),
        _ => l.mate = Some(as_u32),
    }
    problem
}

/// `info depth … pv …` for one iteration.
pub fn info_line(i: &Info) -> String {
    let score = match i.score {
        Score::Cp(cp) => format!("cp {cp}"),
        Score::Mate(n) => format!("mate {n}"),
    };
    let wdl = i
        .wdl
        .map(|w| format!(" wdl {} {} {}", w.win, w.draw, w.loss))
        .unwrap_or_default();
    let mut s = format!(
        "info depth {} seldepth {} multipv {} score {score}{wdl} nodes {} nps {} hashfull {} time {}",
        i.depth, i.seldepth, i.multipv, i.nodes, i.nps, i.hashfull, i.time_ms
    );
    if !i.pv.is_empty() {
        s.push_str(" pv ");
        s.push_str(&i.pv.join(" "));
    }
    s
}

/// `bestmove X [ponder Y]`, or `bestmove (none)` without a legal move.
pub fn bestmove_line(best: Option<&str>, ponder: Option<&str>) -> String {
    match (best, ponder) {
        (None, _) => "bestmove (none)".to_string(),
        (Some(b), None) => format!("bestmove {b}"),
        (Some(b), Some(p)) => format!("bestmove {b} ponder {p}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn info_lines_follow_the_standard() {
        let mut i = Info {
            depth: 7,
            seldepth: 11,
            multipv: 1,
            score: Score::Cp(-35),
            nodes: 12345,
            nps: 600_000,
            hashfull: 12,
            time_ms: 20,
            pv: vec!["e2e4".into(), "e7e5".into()],
            wdl: None,
        };
        assert_eq!(
            info_line(&i),
            "info depth 7 seldepth 11 multipv 1 score cp -35 nodes 12345 nps 600000 \
             hashfull 12 time 20 pv e2e4 e7e5"
        );
        i.score = Score::Mate(-3);
        i.pv.clear();
        assert!(info_line(&i).ends_with("score mate -3 nodes 12345 nps 600000 hashfull 12 time 20"));
        i.wdl = Some(engine::Wdl {
            win: 0,
            draw: 10,
            loss: 990,
        });
        assert!(info_line(&i).contains("score mate -3 wdl 0 10 990 nodes"));
    }

    /// Arbitrary lines never panic and leave a working shim. `perft` is
    /// left out of the words: a random depth could run for hours.
    #[test]
    fn fuzzed_lines_do_not_panic() {
        let words = [
            "uci",
            "isready",
            "ucinewgame",
            "setoption",
            "name",
            "value",
            "Hash",
            "Threads",
            "MultiPV",
            "UCI_Variant",
            "Ponder",
            "UCI_LimitStrength",
            "UCI_Elo",
            "UCI_ShowWDL",
            "Clear",
            "position",
            "startpos",
            "fen",
            "moves",
            "go",
            "depth",
            "nodes",
            "wtime",
            "btime",
            "movestogo",
            "searchmoves",
            "infinite",
            "ponder",
            "stop",
            "ponderhit",
            "d",
            "debug",
            "chess",
            "plunder",
            "tavreli",
        ];
        let (tx, _rx) = std::sync::mpsc::channel();
        let out = Out::new(Box::new(std::io::sink()));
        let mut uci = Uci::new(out, Searches::new(tx));
        for line in shell::fuzz_lines(0x5eed, 3000, &words) {
            let _ = uci.line(&line);
        }
        // The searches' events went nowhere: forget them.
        uci.engine.abort();
        uci.current = None;
        uci.pending.clear();
        let _ = uci.line("setoption name UCI_Variant value chess");
        let _ = uci.line("position startpos moves e2e4");
        assert_eq!(
            uci.engine.game().fen(),
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
        );
    }

    #[test]
    fn bestmove_forms() {
        assert_eq!(bestmove_line(None, None), "bestmove (none)");
        assert_eq!(bestmove_line(Some("e2e4"), None), "bestmove e2e4");
        assert_eq!(
            bestmove_line(Some("d4f6:1"), Some("e7d8qn")),
            "bestmove d4f6:1 ponder e7d8qn"
        );
    }

    #[test]
    fn go_values() {
        let mut l = Limits::default();
        assert_eq!(set_go_value(&mut l, "wtime", Some("-50")), None);
        assert_eq!(set_go_value(&mut l, "movestogo", Some("12")), None);
        assert_eq!((l.wtime, l.movestogo), (Some(0), Some(12)));
        assert_eq!(set_go_value(&mut l, "movestogo", Some("0")), None);
        assert_eq!(l.movestogo, None);
        assert_eq!(
            set_go_value(&mut l, "depth", Some("x")).as_deref(),
            Some("bad value for depth: \"x\"; using 1")
        );
        assert_eq!(l.depth, Some(1));
        assert_eq!(
            set_go_value(&mut l, "depth", Some("-1")).as_deref(),
            Some("depth -1 is out of range 1..100; using 1")
        );
        assert_eq!(
            set_go_value(&mut l, "depth", Some("1000")).as_deref(),
            Some("depth 1000 is out of range 1..100; using 100")
        );
        assert_eq!(l.depth, Some(100));
        assert!(set_go_value(&mut l, "nodes", Some("-1")).is_some());
        assert_eq!(l.nodes, Some(1));
        assert!(set_go_value(&mut l, "mate", Some("-1")).is_some());
        assert_eq!(l.mate, Some(1));
        assert_eq!(
            set_go_value(&mut l, "movetime", None).as_deref(),
            Some("movetime needs a value; using 0")
        );
        assert!(set_go_value(&mut l, "nodes", Some("99999999999999999999")).is_some());
        assert_eq!(l.nodes, Some(u64::try_from(i64::MAX).unwrap()));
    }

    #[test]
    fn searchmoves_take_every_spelling_position_takes() {
        let game = AnyGame::new(Variant::Tavreli, None).unwrap();
        let (l, problems) = parse_go(
            &["searchmoves", "g1f3:1", "e2e4", "zz", "depth", "2"],
            &game,
        );
        assert_eq!(l.searchmoves, ["g1f3", "e2e4"]);
        assert_eq!(l.depth, Some(2));
        assert_eq!(problems.len(), 1, "{problems:?}");
    }

    #[test]
    fn options_are_checked_before_anything_changes() {
        assert_eq!(
            parse_setoption(&["name", "Hash", "value", "0"]),
            Err("Hash: 0 is out of range 1..65536".to_string())
        );
        assert_eq!(
            parse_setoption(&["name", "Hash", "value", "64"]),
            Ok(OptionChange::Hash(64))
        );
        assert!(OptionChange::Hash(64).needs_idle());
        assert!(!OptionChange::MultiPv(2).needs_idle());
        assert_eq!(
            parse_setoption(&["name", "Clear", "Hash"]),
            Ok(OptionChange::ClearHash)
        );
        assert!(parse_setoption(&["name", "Nope", "value", "1"]).is_err());
    }
}
