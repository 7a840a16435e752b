//! Drives the real `volkhv` binary through stdin/stdout: send lines, wait for
//! an expected reply with a timeout, and check moves against movegen.
#![allow(dead_code)] // each test file uses a different part of this helper

use engine::AnyGame;
use movegen::Variant;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// How long any single expected reply may take (debug build, busy machine).
pub const TIMEOUT: Duration = Duration::from_secs(20);

/// A running `volkhv` with a transcript of what it printed.
pub struct Session {
    child: Child,
    stdin: Option<ChildStdin>,
    rx: Receiver<String>,
    /// Every line received so far.
    pub log: Vec<String>,
}

impl Session {
    /// Starts `volkhv` with no arguments.
    pub fn start() -> Session {
        let mut child = Command::new(env!("CARGO_BIN_EXE_volkhv"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("volkhv starts");
        let stdout = child.stdout.take().expect("stdout piped");
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let stdin = child.stdin.take();
        Session {
            child,
            stdin,
            rx,
            log: Vec::new(),
        }
    }

    /// Sends one line.
    pub fn send(&mut self, line: &str) {
        self.send_bytes(format!("{line}\n").as_bytes());
    }

    /// Sends raw bytes.
    pub fn send_bytes(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(bytes).expect("write to volkhv");
        stdin.flush().expect("flush to volkhv");
    }

    /// Closes stdin (EOF).
    pub fn close(&mut self) {
        self.stdin = None;
    }

    /// Reads lines until one satisfies `pred`; returns the lines read, the
    /// matching one last. Panics with the transcript on timeout or EOF.
    pub fn expect(&mut self, what: &str, pred: impl Fn(&str) -> bool) -> Vec<String> {
        let deadline = Instant::now() + TIMEOUT;
        let mut got = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.rx.recv_timeout(left) {
                Ok(line) => {
                    self.log.push(line.clone());
                    let done = pred(&line);
                    got.push(line);
                    if done {
                        return got;
                    }
                }
                Err(RecvTimeoutError::Timeout) => {
                    panic!(
                        "timed out waiting for {what}; transcript:\n{}",
                        self.log.join("\n")
                    )
                }
                Err(RecvTimeoutError::Disconnected) => {
                    panic!(
                        "volkhv closed stdout waiting for {what}; transcript:\n{}",
                        self.log.join("\n")
                    )
                }
            }
        }
    }

    /// Waits for a line equal to `line`.
    pub fn expect_line(&mut self, line: &str) -> Vec<String> {
        self.expect(&format!("\"{line}\""), |l| l == line)
    }

    /// Waits for a line starting with `prefix` and returns that line.
    pub fn expect_prefix(&mut self, prefix: &str) -> String {
        let got = self.expect(&format!("a line starting \"{prefix}\""), |l| {
            l.starts_with(prefix)
        });
        got.last().cloned().unwrap_or_default()
    }

    /// Sends `line` and asserts that the very next output line is `reply`.
    pub fn exchange(&mut self, line: &str, reply: &str) {
        self.send(line);
        let got = self.expect("any line", |_| true);
        assert_eq!(
            got[0],
            reply,
            "reply to \"{line}\"; transcript:\n{}",
            self.log.join("\n")
        );
    }

    /// UCI barrier: everything before `isready` has been handled once
    /// `readyok` arrives; returns the lines printed before it.
    pub fn sync_uci(&mut self) -> Vec<String> {
        self.send("isready");
        let mut got = self.expect_line("readyok");
        got.pop();
        got
    }

    /// XBoard barrier with `ping`/`pong`; returns the lines before the pong.
    pub fn sync_xboard(&mut self, n: u32) -> Vec<String> {
        self.send(&format!("ping {n}"));
        let mut got = self.expect_line(&format!("pong {n}"));
        got.pop();
        got
    }

    /// Waits for the process to exit and returns whether it exited cleanly.
    pub fn wait_exit(&mut self) -> bool {
        let deadline = Instant::now() + TIMEOUT;
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => return status.success(),
                Ok(None) if Instant::now() < deadline => {
                    std::thread::sleep(Duration::from_millis(20));
                }
                _ => panic!("volkhv did not exit; transcript:\n{}", self.log.join("\n")),
            }
        }
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The game after `moves` from `fen` (start if `None`), for legality checks.
pub fn game(variant: Variant, fen: Option<&str>, moves: &[String]) -> AnyGame {
    let mut g = AnyGame::new(variant, fen).expect("test position is valid");
    for m in moves {
        g.play(m).expect("test moves are legal");
    }
    g
}

/// Asserts that `mv` is legal in `game`.
pub fn assert_legal(game: &AnyGame, mv: &str) {
    let legal = game.legal_strings();
    assert!(
        legal.iter().any(|l| l == mv),
        "{mv} is not legal in {} (legal: {legal:?})",
        game.fen()
    );
}

/// A few plies chosen from the legal moves (the last one each time, so the
/// line differs from what the placeholder search plays), for `position ...
/// moves` lines.
pub fn some_moves(variant: Variant, fen: Option<&str>, plies: usize) -> Vec<String> {
    let mut g = AnyGame::new(variant, fen).expect("valid");
    let mut moves = Vec::new();
    for _ in 0..plies {
        let legal = g.legal_strings();
        let Some(m) = legal.last() else { break };
        g.play(m).expect("legal");
        moves.push(m.clone());
    }
    moves
}

/// The move of a `bestmove X [ponder Y]` line.
pub fn bestmove_of(line: &str) -> Option<String> {
    let mut t = line.split_whitespace();
    (t.next() == Some("bestmove")).then(|| t.next().unwrap_or("").to_string())
}
