//! The UCI shim: lines of text in, [`Engine`] calls and formatted replies out.
//!
//! Commands are tokenised here rather than with `vampirc-uci`: its grammar
//! knows only chess FENs and move strings, and a variant `position` line
//! (`N(Q)`, `(Pr)`, `P=N`, `e7d8qn`, `d4f6:1`) must never be rejected by the
//! transport. FENs and moves are checked by movegen through `Engine`.
//!
//! Extensions (as Stockfish): `go perft N`, `d`, `bench [depth]`.

use crate::shell::{self, Flow, Out, Searches, Shim};
use engine::{Engine, Info, Limits, Options, Score, SearchEvent};
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
    /// Commands that arrived while a search ran, in order; they run once it
    /// has reported (as Stockfish's `go` waits for the previous search), so
    /// a script of several `position`/`go` pairs gets every `bestmove`.
    pending: VecDeque<String>,
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
            pending: VecDeque::new(),
        }
    }

    /// Aborts a running search before a state change (GUIs send `stop`
    /// first; one that does not gets no `bestmove` for it).
    fn drop_search(&mut self) {
        if self.current.take().is_some() {
            self.engine.abort();
        }
        self.held = None;
        self.infinite = false;
        self.pondering = false;
    }

    fn error(&self, msg: &str) {
        self.out.line(&format!("info string error {msg}"));
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
                var: shell::available_variants()
                    .iter()
                    .map(|v| v.name().to_string())
                    .collect(),
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
            UciMessage::UciOk,
        ];
        for m in &messages {
            self.out.line(&m.serialize());
        }
    }

    fn setoption(&mut self, rest: &[&str]) {
        if rest.first() != Some(&"name") {
            self.error("setoption: expected \"name\"");
            return;
        }
        let value_at = rest.iter().position(|&t| t == "value");
        let name_tokens = &rest[1..value_at.unwrap_or(rest.len())];
        let name = name_tokens.join(" ");
        let value = value_at.map(|i| rest[i + 1..].join(" "));
        if name.is_empty() {
            self.error("setoption: missing option name");
            return;
        }
        if let Err(e) = self.apply_option(&name, value.as_deref()) {
            self.error(&format!("setoption: {e}"));
        }
    }

    fn apply_option(&mut self, name: &str, value: Option<&str>) -> Result<(), String> {
        let key = name.to_ascii_lowercase();
        if key == "clear hash" {
            self.engine.new_game();
            return Ok(());
        }
        let value = value.ok_or_else(|| format!("option {name} needs a value"))?;
        let mut o = self.engine.options().clone();
        match key.as_str() {
            "uci_variant" => {
                let v = parse_variant(value)?;
                self.engine.set_variant(v)?;
                self.announce_variant(v);
                return Ok(());
            }
            "hash" => {
                o.hash_mb = to_usize(shell::parse_in_range("Hash", value, 1, shell::MAX_HASH_MB)?);
            }
            "threads" => {
                o.threads = to_usize(shell::parse_in_range(
                    "Threads",
                    value,
                    1,
                    shell::MAX_THREADS,
                )?);
            }
            "multipv" => {
                o.multipv = to_usize(shell::parse_in_range(
                    "MultiPV",
                    value,
                    1,
                    shell::MAX_MULTIPV,
                )?);
            }
            "move overhead" => {
                o.move_overhead_ms =
                    shell::parse_in_range("Move Overhead", value, 0, shell::MAX_OVERHEAD_MS)?;
            }
            "ponder" => {
                o.ponder = match value.to_ascii_lowercase().as_str() {
                    "true" => true,
                    "false" => false,
                    _ => return Err(format!("Ponder: \"{value}\" is not true or false")),
                };
            }
            _ => return Err(format!("unknown option \"{name}\"")),
        }
        if o != *self.engine.options() {
            self.engine.set_options(o);
        }
        Ok(())
    }

    /// Fairy-Stockfish's announcement, from which GUIs learn a variant's board.
    fn announce_variant(&self, v: Variant) {
        if let Some(fen) = shell::start_fen(v) {
            self.out.line(&format!(
                "info string variant {} files 8 ranks 8 pocket 0 template fairy startpos {fen}",
                v.name()
            ));
        }
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
                shell::echo(&e)
            ));
        }
    }

    fn go(&mut self, rest: &[&str]) {
        if let Some(i) = rest.iter().position(|&t| t == "perft") {
            let depth = rest.get(i + 1).copied().unwrap_or("");
            match shell::parse_in_range("perft depth", depth, 0, 64) {
                Ok(d) => {
                    let d = u32::try_from(d).unwrap_or(0);
                    for l in shell::perft_lines(self.engine.game(), d) {
                        self.out.line(&l);
                    }
                }
                Err(e) => self.error(&format!("go {e}")),
            }
            return;
        }
        let mut limits = Limits::default();
        let legal = self.engine.game().legal_strings();
        let mut i = 0;
        while i < rest.len() {
            let key = rest[i];
            i += 1;
            match key {
                "infinite" => limits.infinite = true,
                "ponder" => limits.ponder = true,
                "searchmoves" => {
                    while i < rest.len() && !GO_KEYWORDS.contains(&rest[i]) {
                        let m = rest[i];
                        if legal.iter().any(|l| l == m) {
                            limits.searchmoves.push(m.to_string());
                        } else {
                            self.error(&format!(
                                "go searchmoves: \"{}\" is not a legal move here; ignored",
                                shell::echo(m)
                            ));
                        }
                        i += 1;
                    }
                }
                "wtime" | "btime" | "winc" | "binc" | "movestogo" | "movetime" | "depth"
                | "nodes" | "mate" => {
                    let Some(&tok) = rest.get(i) else {
                        self.error(&format!("go: {key} needs a value; ignored"));
                        continue;
                    };
                    i += 1;
                    if let Err(e) = set_go_value(&mut limits, key, tok) {
                        self.error(&format!("go: {e}; ignored"));
                    }
                }
                other => self.error(&format!(
                    "go: unknown parameter \"{}\"; ignored",
                    shell::echo(other)
                )),
            }
        }
        self.infinite = limits.infinite;
        self.pondering = limits.ponder;
        self.held = None;
        let (id, sink) = self.searches.sink();
        self.current = Some(id);
        self.engine.go(limits, sink);
    }

    fn stop(&mut self) -> Flow {
        self.infinite = false;
        self.pondering = false;
        if let Some(line) = self.held.take() {
            self.current = None;
            self.out.line(&line);
            return self.run_pending();
        } else if self.current.is_some() {
            self.engine.stop();
        }
        Flow::Continue
    }

    fn ponderhit(&mut self) -> Flow {
        if !self.pondering {
            return Flow::Continue;
        }
        self.pondering = false;
        self.engine.ponderhit();
        if !self.infinite {
            if let Some(line) = self.held.take() {
                self.current = None;
                self.out.line(&line);
                return self.run_pending();
            }
        }
        Flow::Continue
    }

    fn display(&self) {
        for l in self.engine.game().display().lines() {
            self.out.line(l);
        }
    }

    fn bench(&self, rest: &[&str]) {
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
        match shell::bench(depth) {
            Ok(lines) => {
                for l in lines {
                    self.out.line(&l);
                }
            }
            Err(e) => self.error(&e),
        }
    }
}

impl Uci {
    /// Runs the commands that waited for the last search, until one starts
    /// a new search.
    fn run_pending(&mut self) -> Flow {
        while self.current.is_none() {
            let Some(l) = self.pending.pop_front() else {
                break;
            };
            if self.exec(&l) == Flow::Quit {
                return Flow::Quit;
            }
        }
        Flow::Continue
    }

    fn exec(&mut self, line: &str) -> Flow {
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let Some((&cmd, rest)) = tokens.split_first() else {
            return Flow::Continue;
        };
        match cmd {
            "uci" => self.identify(),
            "isready" => self.out.line(&UciMessage::ReadyOk.serialize()),
            "ucinewgame" => {
                self.drop_search();
                self.engine.new_game();
            }
            "setoption" => {
                self.drop_search();
                self.setoption(rest);
            }
            "position" => {
                self.drop_search();
                self.position(rest);
            }
            "go" => self.go(rest),
            "stop" => return self.stop(),
            "ponderhit" => return self.ponderhit(),
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
        let cmd = line.split_whitespace().next().unwrap_or("");
        let immediate = matches!(cmd, "" | "isready" | "stop" | "ponderhit" | "quit");
        if immediate || (self.current.is_none() && self.pending.is_empty()) {
            return self.exec(line);
        }
        self.pending.push_back(line.to_string());
        Flow::Continue
    }

    fn event(&mut self, id: u64, ev: SearchEvent) {
        if self.current != Some(id) {
            return;
        }
        match ev {
            SearchEvent::Info(info) => self.out.line(&info_line(&info)),
            SearchEvent::Message(m) => self.out.line(&format!("info string {m}")),
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
        if (self.infinite || self.pondering || self.held.is_some()) && self.stop() == Flow::Quit {
            return true;
        }
        self.current.is_none() && self.pending.is_empty()
    }
}

fn parse_variant(value: &str) -> Result<Variant, String> {
    let v = Variant::from_name(value.trim())
        .ok_or_else(|| format!("UCI_Variant: unknown variant \"{}\"", shell::echo(value)))?;
    if shell::available_variants().contains(&v) {
        Ok(v)
    } else {
        Err(format!("UCI_Variant: {v} is not available in this build"))
    }
}

fn to_usize(v: u64) -> usize {
    usize::try_from(v).unwrap_or(usize::MAX)
}

/// Stores one numeric `go` parameter. Clock values may arrive negative from
/// GUIs whose flag has fallen; they count as zero.
fn set_go_value(l: &mut Limits, key: &str, tok: &str) -> Result<(), String> {
    let bad = || format!("bad value for {key}: \"{}\"", shell::echo(tok));
    let ms = || -> Result<u64, String> {
        tok.parse::<i64>()
            .map(|v| u64::try_from(v).unwrap_or(0))
            .map_err(|_| bad())
    };
    let small = || -> Result<u32, String> { tok.parse::<u32>().map_err(|_| bad()) };
    match key {
        "wtime" => l.wtime = Some(ms()?),
        "btime" => l.btime = Some(ms()?),
        "winc" => l.winc = Some(ms()?),
        "binc" => l.binc = Some(ms()?),
        "movetime" => l.movetime = Some(ms()?),
        "nodes" => l.nodes = Some(tok.parse::<u64>().map_err(|_| bad())?),
        "movestogo" => l.movestogo = Some(small()?),
        "depth" => l.depth = Some(small()?),
        "mate" => l.mate = Some(small()?),
        _ => return Err(bad()),
    }
    Ok(())
}

/// `info depth … pv …` for one iteration.
pub fn info_line(i: &Info) -> String {
    let score = match i.score {
        Score::Cp(cp) => format!("cp {cp}"),
        Score::Mate(n) => format!("mate {n}"),
    };
    let mut s = format!(
        "info depth {} seldepth {} multipv {} score {score} nodes {} nps {} hashfull {} time {}",
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
        };
        assert_eq!(
            info_line(&i),
            "info depth 7 seldepth 11 multipv 1 score cp -35 nodes 12345 nps 600000 \
             hashfull 12 time 20 pv e2e4 e7e5"
        );
        i.score = Score::Mate(-3);
        i.pv.clear();
        assert!(info_line(&i).ends_with("score mate -3 nodes 12345 nps 600000 hashfull 12 time 20"));
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
            let _ = uci.exec(&line);
        }
        uci.drop_search();
        uci.pending.clear();
        let _ = uci.exec("setoption name UCI_Variant value chess");
        let _ = uci.exec("position startpos moves e2e4");
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
        set_go_value(&mut l, "wtime", "-50").unwrap();
        set_go_value(&mut l, "movestogo", "12").unwrap();
        assert_eq!((l.wtime, l.movestogo), (Some(0), Some(12)));
        assert_eq!(
            set_go_value(&mut l, "depth", "x"),
            Err("bad value for depth: \"x\"".to_string())
        );
        assert_eq!(l.depth, None);
    }
}
