//! Engine clients: a child process per engine, a reader thread that turns
//! its stdout into lines on a channel, and the UCI and XBoard (CECP v2)
//! dialogues the arbiter needs. Every wait has a deadline, so a hung engine
//! is noticed by the clock and killed; EOF on its stdout means it crashed.

use crate::spec::{EngineSpec, Protocol};
use movegen::Variant;
use std::collections::{HashMap, VecDeque};
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread;
use std::time::{Duration, Instant};

/// How long start-up and `isready`/`ping` may take.
const HANDSHAKE: Duration = Duration::from_secs(10);
/// How long a CECP v1 engine gets to show it knows `protover 2`.
const PROTOVER_GRACE: Duration = Duration::from_secs(2);
/// Engine output is kept to this many characters per line: it reaches the
/// PGN and the terminal, and a runaway engine must not flood either.
pub const MAX_LINE_CHARS: usize = 500;
/// Bytes of one output line read at most (the rest of the line is skipped).
const MAX_LINE_BYTES: usize = 1 << 16;
/// Lines of an engine's stderr kept for the report when it dies.
const STDERR_LINES: usize = 6;
/// How long a dead engine's exit status is waited for.
const EXIT_GRACE: Duration = Duration::from_millis(300);

/// Why an engine stopped cooperating.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineError {
    /// Its output ended (it exited or closed stdout) or its stdin broke.
    Crashed(String),
    /// No answer before the deadline; the process has been killed.
    Timeout(String),
    /// It could not be started or broke the protocol.
    Protocol(String),
    /// It resigned (XBoard `resign`).
    Resigned,
}

impl std::fmt::Display for EngineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EngineError::Crashed(s) => write!(f, "crashed: {s}"),
            EngineError::Timeout(s) => write!(f, "timed out: {s}"),
            EngineError::Protocol(s) => write!(f, "protocol error: {s}"),
            EngineError::Resigned => write!(f, "resigned"),
        }
    }
}

impl std::error::Error for EngineError {}

/// The search limit of one move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Limit {
    /// Clock times and increments in milliseconds.
    Clock {
        /// White's remaining time.
        wtime: u64,
        /// Black's remaining time.
        btime: u64,
        /// White's increment.
        winc: u64,
        /// Black's increment.
        binc: u64,
    },
    /// Fixed time per move in milliseconds.
    MoveTime(u64),
    /// Fixed node count.
    Nodes(u64),
    /// Fixed depth.
    Depth(u32),
}

/// The time control of a whole game, as the engines are told it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TimeControl {
    /// Base time and increment, milliseconds.
    Clock {
        /// Base time per side.
        base_ms: u64,
        /// Increment per move.
        inc_ms: u64,
    },
    /// Fixed time per move, milliseconds.
    MoveTime(u64),
    /// Fixed nodes per move.
    Nodes(u64),
    /// Fixed depth per move.
    Depth(u32),
}

/// An engine's answer to `go`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reply {
    /// The move string as sent.
    pub mv: String,
    /// The last score it reported, centipawns from its own side's view
    /// (mates as ±(100000 − plies)).
    pub score: Option<i32>,
}

enum Msg {
    Line(String),
    Eof,
}

/// Engine output made safe to store and show: invalid UTF-8 and control
/// characters become `?`, and the text is cut to [`MAX_LINE_CHARS`].
#[must_use]
pub fn sanitize(raw: &[u8]) -> String {
    let text = String::from_utf8_lossy(raw);
    let mut out: String = text
        .trim_end_matches(['\r', '\n'])
        .chars()
        .take(MAX_LINE_CHARS)
        .map(|c| {
            if c.is_control() || c == char::REPLACEMENT_CHARACTER {
                '?'
            } else {
                c
            }
        })
        .collect();
    if text.chars().nth(MAX_LINE_CHARS).is_some() {
        out.push_str("...");
    }
    out
}

/// Reads one line of at most [`MAX_LINE_BYTES`] into `buf` (the rest of an
/// over-long line is skipped); `false` at end of output.
fn read_bounded_line(r: &mut impl BufRead, buf: &mut Vec<u8>) -> bool {
    buf.clear();
    let mut any = false;
    loop {
        let chunk = match r.fill_buf() {
            Ok(c) if !c.is_empty() => c,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            _ => return any,
        };
        any = true;
        let (part, done) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (&chunk[..=i], true),
            None => (chunk, false),
        };
        let room = MAX_LINE_BYTES.saturating_sub(buf.len());
        buf.extend_from_slice(&part[..part.len().min(room)]);
        let used = part.len();
        r.consume(used);
        if done {
            return true;
        }
    }
}

/// The last lines an engine wrote to stderr, for the report when it dies.
#[derive(Clone, Default)]
struct StderrTail(Arc<Mutex<VecDeque<String>>>);

impl StderrTail {
    /// Keeps the tail of `stderr` until it closes.
    fn follow(stderr: impl Read + Send + 'static) -> StderrTail {
        let tail = StderrTail::default();
        let keep = tail.clone();
        thread::spawn(move || {
            let mut reader = BufReader::new(stderr);
            let mut buf = Vec::new();
            while read_bounded_line(&mut reader, &mut buf) {
                let mut lines = keep.0.lock().unwrap_or_else(PoisonError::into_inner);
                if lines.len() == STDERR_LINES {
                    lines.pop_front();
                }
                lines.push_back(sanitize(&buf));
            }
        });
        tail
    }

    fn text(&self) -> String {
        let lines = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        lines.iter().cloned().collect::<Vec<_>>().join(" | ")
    }
}

/// A running engine.
pub struct Engine {
    /// What the user asked for.
    pub spec: EngineSpec,
    child: Child,
    stdin: Option<ChildStdin>,
    rx: Receiver<Msg>,
    /// XBoard features the engine announced.
    features: HashMap<String, String>,
    /// XBoard: how many of the game's moves the engine has been told.
    synced: usize,
    ping: u32,
    dead: bool,
    /// The options the engine offers (UCI `option name`, XBoard
    /// `feature option=`), lower case.
    offered_options: Vec<String>,
    stderr: StderrTail,
}

impl Engine {
    /// Starts the process and completes the protocol handshake
    /// (`uci`…`uciok` plus options, or `xboard`/`protover 2`/features).
    ///
    /// # Errors
    /// [`EngineError`] if it cannot be started or does not answer.
    pub fn start(spec: &EngineSpec, variant: Variant) -> Result<Engine, EngineError> {
        let Some((program, args)) = spec.cmd.split_first() else {
            return Err(EngineError::Protocol("empty cmd".into()));
        };
        let mut command = Command::new(program);
        command
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        if let Some(dir) = &spec.dir {
            command.current_dir(dir);
        }
        let mut child = command
            .spawn()
            .map_err(|e| EngineError::Protocol(format!("cannot start {program:?}: {e}")))?;
        let stdin = child.stdin.take();
        let Some(stdout) = child.stdout.take() else {
            return Err(EngineError::Protocol("no stdout pipe".into()));
        };
        let stderr = child
            .stderr
            .take()
            .map(StderrTail::follow)
            .unwrap_or_default();
        let (tx, rx) = mpsc::channel();
        // The reader owns stdout; it ends at EOF, or lingers until the
        // process exits if the engine is killed while its children keep
        // the pipe open — harmless, it only ever blocks on read.
        thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut buf = Vec::new();
            while read_bounded_line(&mut reader, &mut buf) {
                let line = sanitize(&buf).trim_end().to_string();
                if tx.send(Msg::Line(line)).is_err() {
                    return;
                }
            }
            let _ = tx.send(Msg::Eof);
        });
        let mut engine = Engine {
            spec: spec.clone(),
            child,
            stdin,
            rx,
            features: HashMap::new(),
            synced: 0,
            ping: 0,
            dead: false,
            offered_options: Vec::new(),
            stderr,
        };
        match spec.protocol {
            Protocol::Uci => engine.start_uci(variant)?,
            Protocol::Xboard => engine.start_xboard(variant)?,
        }
        Ok(engine)
    }

    /// `false` once the engine crashed, hung or was killed.
    #[must_use]
    pub fn is_alive(&self) -> bool {
        !self.dead
    }

    /// The engine's name for the PGN.
    #[must_use]
    pub fn name(&self) -> &str {
        &self.spec.name
    }

    fn send(&mut self, line: &str) -> Result<(), EngineError> {
        let Some(stdin) = self.stdin.as_mut() else {
            return Err(EngineError::Crashed("stdin closed".into()));
        };
        let res = stdin
            .write_all(line.as_bytes())
            .and_then(|()| stdin.write_all(b"\n"))
            .and_then(|()| stdin.flush());
        res.map_err(|e| self.crashed(&format!("cannot write to it ({e})")))
    }

    /// The engine is gone: reports how it ended (exit status, the last lines
    /// of its stderr) with `what` happened.
    fn crashed(&mut self, what: &str) -> EngineError {
        self.dead = true;
        self.stdin = None;
        let until = Instant::now() + EXIT_GRACE;
        let status = loop {
            match self.child.try_wait() {
                Ok(Some(s)) => break Some(s),
                Ok(None) if Instant::now() < until => thread::sleep(Duration::from_millis(10)),
                _ => break None,
            }
        };
        // Its stderr reader may still be taking the last lines in.
        thread::sleep(Duration::from_millis(20));
        let mut msg = what.to_string();
        match status {
            Some(s) => msg.push_str(&format!("; it exited with {s}")),
            None => msg.push_str("; it is still running"),
        }
        let tail = self.stderr.text();
        if !tail.is_empty() {
            msg.push_str(&format!("; its stderr ended with: {tail}"));
        }
        EngineError::Crashed(msg)
    }

    /// The next line before `deadline`. On timeout the engine is killed.
    fn recv(&mut self, deadline: Instant) -> Result<String, EngineError> {
        match self.recv_or_none(deadline)? {
            Some(l) => Ok(l),
            None => {
                self.kill();
                Err(EngineError::Timeout("no reply in time".into()))
            }
        }
    }

    /// The next line before `deadline`, `None` on timeout (engine left alone).
    fn recv_or_none(&mut self, deadline: Instant) -> Result<Option<String>, EngineError> {
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.rx.recv_timeout(wait) {
            Ok(Msg::Line(l)) => Ok(Some(l)),
            Ok(Msg::Eof) | Err(RecvTimeoutError::Disconnected) => {
                Err(self.crashed("its output ended"))
            }
            Err(RecvTimeoutError::Timeout) => Ok(None),
        }
    }

    /// Kills the process (a hung or misbehaving engine).
    pub fn kill(&mut self) {
        self.dead = true;
        self.stdin = None;
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    fn start_uci(&mut self, variant: Variant) -> Result<(), EngineError> {
        self.send("uci")?;
        let deadline = Instant::now() + HANDSHAKE;
        loop {
            let line = self.recv(deadline)?;
            if line == "uciok" {
                break;
            }
            if let Some(name) = uci_option_name(&line) {
                self.offered_options.push(name.to_ascii_lowercase());
            }
        }
        if !variant.gui_native() {
            self.send(&format!(
                "setoption name UCI_Variant value {}",
                variant.name()
            ))?;
        }
        let options = self.spec.options.clone();
        for (name, value) in &options {
            self.check_offered(name)?;
            self.send(&format!("setoption name {name} value {value}"))?;
        }
        self.sync_checking_options()
    }

    /// An option the engine never offered is a configuration error, not
    /// something to send and hope.
    fn check_offered(&self, name: &str) -> Result<(), EngineError> {
        if self.offered_options.contains(&name.to_ascii_lowercase()) {
            return Ok(());
        }
        Err(EngineError::Protocol(format!(
            "it has no option \"{name}\" (it offers: {})",
            if self.offered_options.is_empty() {
                "none".to_string()
            } else {
                self.offered_options.join(", ")
            }
        )))
    }

    /// [`Engine::sync`] after options were sent: an error line the engine
    /// printed about them (`No such option`, `info string error …`,
    /// XBoard `Error (…)`) fails the start.
    fn sync_checking_options(&mut self) -> Result<(), EngineError> {
        let lines = self.sync()?;
        match lines.iter().find(|l| is_option_error(l)) {
            Some(l) => Err(EngineError::Protocol(format!("refused an option: {l}"))),
            None => Ok(()),
        }
    }

    fn start_xboard(&mut self, variant: Variant) -> Result<(), EngineError> {
        self.send("xboard")?;
        self.send("protover 2")?;
        // v2 engines announce features and end with done=1; done=0 asks
        // for more time. Without done=0, silence for two seconds means the
        // engine has said all it will (v1 engines say nothing): go on with
        // the defaults, as the protocol prescribes.
        let mut deadline = Instant::now() + PROTOVER_GRACE;
        loop {
            let line = if self.features.get("done").map(String::as_str) == Some("0") {
                self.recv(deadline)?
            } else {
                match self.recv_or_none(deadline)? {
                    Some(l) => l,
                    None => break,
                }
            };
            let Some(rest) = line.strip_prefix("feature ") else {
                continue;
            };
            let mut done = None;
            for (k, v) in parse_features(rest) {
                self.send(&format!("accepted {k}"))?;
                if k == "done" {
                    done = Some(v.clone());
                }
                if k == "option" {
                    // `NAME -type …`: the name is everything before " -".
                    let name = v.split(" -").next().unwrap_or("").trim();
                    self.offered_options.push(name.to_ascii_lowercase());
                }
                self.features.insert(k, v);
            }
            match done.as_deref() {
                Some("1") => break,
                Some("0") => deadline = Instant::now() + HANDSHAKE,
                _ => {}
            }
        }
        if !variant.gui_native() {
            let offered = self.features.get("variants").cloned().unwrap_or_default();
            if !offered
                .split(',')
                .any(|v| v.trim() == variant.xboard_name())
            {
                return Err(EngineError::Protocol(format!(
                    "it does not offer variant {} (variants=\"{offered}\")",
                    variant.name()
                )));
            }
        }
        for (name, value) in self.spec.options.clone() {
            self.check_offered(&name)?;
            self.send(&format!("option {name}={value}"))?;
        }
        self.sync_checking_options()
    }

    /// Waits until the engine has processed everything sent
    /// (`isready`/`readyok` or `ping N`/`pong N`); returns what it printed
    /// meanwhile.
    fn sync(&mut self) -> Result<Vec<String>, EngineError> {
        let deadline = Instant::now() + HANDSHAKE;
        let want = match self.spec.protocol {
            Protocol::Uci => {
                self.send("isready")?;
                "readyok".to_string()
            }
            Protocol::Xboard => {
                if self.features.get("ping").map(String::as_str) != Some("1") {
                    return Ok(Vec::new());
                }
                self.ping += 1;
                self.send(&format!("ping {}", self.ping))?;
                format!("pong {}", self.ping)
            }
        };
        let mut before = Vec::new();
        loop {
            let line = self.recv(deadline)?;
            if line.trim() == want {
                return Ok(before);
            }
            before.push(line);
        }
    }

    /// Prepares a new game from `fen` (`None`: the start position).
    ///
    /// # Errors
    /// [`EngineError`] if the engine does not answer.
    pub fn new_game(
        &mut self,
        variant: Variant,
        fen: Option<&str>,
        tc: TimeControl,
    ) -> Result<(), EngineError> {
        match self.spec.protocol {
            Protocol::Uci => {
                self.send("ucinewgame")?;
            }
            Protocol::Xboard => {
                self.send("new")?;
                if !variant.gui_native() {
                    self.send(&format!("variant {}", variant.xboard_name()))?;
                }
                match tc {
                    TimeControl::Clock { base_ms, inc_ms } => {
                        let secs = base_ms / 1000;
                        self.send(&format!(
                            "level 0 {}:{:02} {}",
                            secs / 60,
                            secs % 60,
                            fmt_seconds(inc_ms)
                        ))?;
                    }
                    // `st` takes whole seconds: round up so the engine
                    // never thinks it has less than it has.
                    TimeControl::MoveTime(ms) => self.send(&format!("st {}", ms.div_ceil(1000)))?,
                    TimeControl::Depth(d) => self.send(&format!("sd {d}"))?,
                    TimeControl::Nodes(_) => {
                        return Err(EngineError::Protocol(
                            "node limits are not supported for xboard engines".into(),
                        ))
                    }
                }
                self.send("post")?;
                self.send("easy")?;
                self.send("force")?;
                if let Some(fen) = fen {
                    if self.features.get("setboard").map(String::as_str) != Some("1") {
                        return Err(EngineError::Protocol(
                            "it cannot start from a FEN (no feature setboard=1)".into(),
                        ));
                    }
                    self.send(&format!("setboard {fen}"))?;
                }
                self.synced = 0;
            }
        }
        self.sync().map(|_| ())
    }

    /// Asks for a move in the game `moves` (move strings from `fen`, or from
    /// the start position) and waits until `deadline`.
    ///
    /// # Errors
    /// [`EngineError::Timeout`] (engine killed), [`EngineError::Crashed`].
    pub fn go(
        &mut self,
        fen: Option<&str>,
        moves: &[String],
        limit: Limit,
        white_to_move: bool,
        deadline: Instant,
    ) -> Result<Reply, EngineError> {
        match self.spec.protocol {
            Protocol::Uci => self.go_uci(fen, moves, limit, deadline),
            Protocol::Xboard => self.go_xboard(moves, limit, white_to_move, deadline),
        }
    }

    fn go_uci(
        &mut self,
        fen: Option<&str>,
        moves: &[String],
        limit: Limit,
        deadline: Instant,
    ) -> Result<Reply, EngineError> {
        let mut position = match fen {
            Some(f) => format!("position fen {f}"),
            None => "position startpos".to_string(),
        };
        if !moves.is_empty() {
            position.push_str(" moves");
            for m in moves {
                position.push(' ');
                position.push_str(m);
            }
        }
        self.send(&position)?;
        let go = match limit {
            Limit::Clock {
                wtime,
                btime,
                winc,
                binc,
            } => format!("go wtime {wtime} btime {btime} winc {winc} binc {binc}"),
            Limit::MoveTime(ms) => format!("go movetime {ms}"),
            Limit::Nodes(n) => format!("go nodes {n}"),
            Limit::Depth(d) => format!("go depth {d}"),
        };
        self.send(&go)?;
        let mut score = None;
        loop {
            let line = self.recv(deadline)?;
            let mut words = line.split_whitespace();
            match words.next() {
                Some("info") => {
                    if let Some(s) = parse_uci_score(&line) {
                        score = Some(s);
                    }
                }
                Some("bestmove") => {
                    let mv = words.next().unwrap_or("").to_string();
                    return Ok(Reply { mv, score });
                }
                _ => {}
            }
        }
    }

    fn go_xboard(
        &mut self,
        moves: &[String],
        limit: Limit,
        white_to_move: bool,
        deadline: Instant,
    ) -> Result<Reply, EngineError> {
        let usermove = self.features.get("usermove").map(String::as_str) == Some("1");
        for m in &moves[self.synced.min(moves.len())..] {
            if usermove {
                self.send(&format!("usermove {m}"))?;
            } else {
                self.send(m)?;
            }
        }
        self.synced = moves.len();
        if let Limit::Clock { wtime, btime, .. } = limit {
            let (own, opp) = if white_to_move {
                (wtime, btime)
            } else {
                (btime, wtime)
            };
            self.send(&format!("time {}", own / 10))?;
            self.send(&format!("otim {}", opp / 10))?;
        }
        self.send("go")?;
        let mut score = None;
        loop {
            let line = self.recv(deadline)?;
            let mut words = line.split_whitespace();
            match words.next() {
                Some("resign") => return Err(EngineError::Resigned),
                Some(w) if w.starts_with("Illegal") => {
                    // It refused a move the arbiter found legal: its rules
                    // differ, so nothing it plays from here can be trusted.
                    self.kill();
                    return Err(EngineError::Protocol(format!(
                        "rejected a legal move: {line}"
                    )));
                }
                Some("1-0" | "0-1" | "1/2-1/2") => {
                    self.kill();
                    return Err(EngineError::Protocol(format!(
                        "claimed a result the arbiter does not see: {line}"
                    )));
                }
                Some("move") => {
                    let mv = words.next().unwrap_or("").to_string();
                    // Back to force mode so it neither plays on nor ponders.
                    self.send("force")?;
                    self.synced += 1;
                    return Ok(Reply { mv, score });
                }
                Some(w) if w.bytes().all(|b| b.is_ascii_digit()) => {
                    // Thinking output: `ply score time nodes pv`.
                    if let Some(s) = words.next().and_then(|s| s.parse::<i32>().ok()) {
                        score = Some(s);
                    }
                }
                _ => {}
            }
        }
    }

    /// Asks the engine to quit, then makes sure it is gone.
    pub fn quit(&mut self) {
        if self.dead {
            // Reap it (a crashed engine may not have been waited for).
            let _ = self.child.kill();
            let _ = self.child.wait();
            return;
        }
        let _ = self.send("quit");
        self.stdin = None;
        let until = Instant::now() + Duration::from_millis(500);
        while Instant::now() < until {
            if let Ok(Some(_)) = self.child.try_wait() {
                self.dead = true;
                return;
            }
            thread::sleep(Duration::from_millis(10));
        }
        self.kill();
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.quit();
    }
}

/// Seconds with at most three decimals, without trailing zeros (`0.1`, `2`).
#[must_use]
pub fn fmt_seconds(ms: u64) -> String {
    let s = format!("{}.{:03}", ms / 1000, ms % 1000);
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// Parses the `score cp N` / `score mate N` of a UCI `info` line.
#[must_use]
pub fn parse_uci_score(line: &str) -> Option<i32> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let i = words.iter().position(|&w| w == "score")?;
    let value: i32 = words.get(i + 2)?.parse().ok()?;
    match *words.get(i + 1)? {
        "cp" => Some(value),
        "mate" if value > 0 => Some(100_000 - (2 * value - 1)),
        "mate" => Some(-100_000 - 2 * value),
        _ => None,
    }
}

/// The name in a UCI `option name NAME type …` line.
fn uci_option_name(line: &str) -> Option<&str> {
    let rest = line.strip_prefix("option name ")?;
    let end = rest.find(" type ").unwrap_or(rest.len());
    Some(rest[..end].trim())
}

/// Whether an engine's line complains about an option (the forms Stockfish,
/// Fairy-Stockfish, volkhv and XBoard engines use).
fn is_option_error(line: &str) -> bool {
    let lower = line.to_ascii_lowercase();
    lower.starts_with("no such option")
        || lower.starts_with("unknown option")
        || lower.starts_with("info string error")
        || lower.starts_with("error")
        || lower.starts_with("tellusererror")
}

/// Splits the rest of a `feature` line into `name=value` pairs; values may
/// be quoted (`myname="Fairy-Max 5.0b"`).
#[must_use]
pub fn parse_features(s: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut rest = s.trim_start();
    while let Some(eq) = rest.find('=') {
        let name = rest[..eq].trim().to_string();
        let after = &rest[eq + 1..];
        let (value, tail) = if let Some(q) = after.strip_prefix('"') {
            match q.find('"') {
                Some(end) => (q[..end].to_string(), &q[end + 1..]),
                None => (q.to_string(), ""),
            }
        } else {
            let end = after.find(char::is_whitespace).unwrap_or(after.len());
            (after[..end].to_string(), &after[end..])
        };
        if name.is_empty() || name.contains(char::is_whitespace) {
            break;
        }
        out.push((name, value));
        rest = tail.trim_start();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn features_with_quotes() {
        let f = parse_features(
            r#"myname="Fairy-Max 5.0b" usermove=1 variants="normal,plunder"  done=0"#,
        );
        let want = [
            ("myname", "Fairy-Max 5.0b"),
            ("usermove", "1"),
            ("variants", "normal,plunder"),
            ("done", "0"),
        ];
        assert_eq!(f.len(), want.len());
        for ((k, v), (wk, wv)) in f.iter().zip(want) {
            assert_eq!((k.as_str(), v.as_str()), (wk, wv));
        }
        assert!(parse_features("").is_empty());
        assert_eq!(
            parse_features(r#"x="unterminated"#),
            vec![("x".into(), "unterminated".into())]
        );
    }

    #[test]
    fn uci_scores() {
        assert_eq!(
            parse_uci_score("info depth 3 score cp -35 nodes 100 pv e2e4"),
            Some(-35)
        );
        assert_eq!(
            parse_uci_score("info depth 3 score mate 2 pv e2e4"),
            Some(99_997)
        );
        assert_eq!(
            parse_uci_score("info depth 3 score mate -1 pv e2e4"),
            Some(-99_998)
        );
        assert_eq!(parse_uci_score("info string hello"), None);
        assert_eq!(parse_uci_score("info score cp"), None);
    }

    #[test]
    fn engine_output_is_made_printable_and_short() {
        assert_eq!(sanitize(b"bestmove e2e4\r\n"), "bestmove e2e4");
        assert_eq!(sanitize(b"a\x00b\xffc\x1b[2J"), "a?b?c?[2J");
        let long = vec![b'x'; 2000];
        let s = sanitize(&long);
        assert_eq!(s.len(), MAX_LINE_CHARS + 3);
        assert!(s.ends_with("..."));
    }

    #[test]
    fn option_lines() {
        assert_eq!(
            uci_option_name("option name Move Overhead type spin default 30 min 0 max 5000"),
            Some("Move Overhead")
        );
        assert_eq!(uci_option_name("id name x"), None);
        assert!(is_option_error("No such option: Frob"));
        assert!(is_option_error(
            "info string error setoption: Hash: 0 is out of range"
        ));
        assert!(is_option_error("Error (bad option): option Frob=1"));
        assert!(!is_option_error("info string variant chess"));
    }

    #[test]
    fn seconds_format() {
        assert_eq!(fmt_seconds(100), "0.1");
        assert_eq!(fmt_seconds(2000), "2");
        assert_eq!(fmt_seconds(1250), "1.25");
        assert_eq!(fmt_seconds(0), "0");
    }
}
