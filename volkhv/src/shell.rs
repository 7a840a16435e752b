//! The event loop shared by both protocols: one thread reads stdin, the search
//! reports through a channel, and one loop hands both, in arrival order, to the
//! active protocol shim, which is the only code that writes to stdout.
//!
//! ```text
//! stdin reader ──Line──┐
//!                      ├──▶ channel ──▶ Uci | XBoard ──▶ Out (locked, flushed per line)
//! search ─Search(id,ev)┘                    │
//!                                           └──▶ Engine (go/stop/abort return at once)
//! ```
//!
//! Every search gets an id; the shim drops events of searches it has given
//! up (aborted by `new`, `force`, `undo`, …) so a late `BestMove` can never
//! be played into the wrong position.

use engine::engine::EventSink;
use engine::SearchEvent;
use std::io::{BufRead, Write};
use std::sync::mpsc::{Receiver, Sender};
use std::sync::{Arc, Mutex, PoisonError};

/// Lines longer than this (4 MiB) are rejected whole: a line cut short could
/// read as a different valid command (`d4d8:2` → `d4d8`). The longest real
/// command is `position … moves` with the whole game, and Tavreli games can
/// be very long (captures reset the fifty-move count, and towers that trade
/// pieces back and forth need not repeat: a match game of 10,090 plies sent
/// a line of 65 KB), so this leaves room for games of some 600,000 plies.
pub const MAX_LINE: usize = 1 << 22;

/// What the main loop receives.
#[derive(Debug)]
pub enum Input {
    /// A line from stdin, without its line end.
    Line(String),
    /// A line longer than [`MAX_LINE`] bytes (its length), discarded unread.
    TooLong(usize),
    /// stdin is closed.
    Eof,
    /// An event from the search with this id.
    Search(u64, SearchEvent),
}

/// The one writer of protocol output. Clones share the same stream; each
/// line is written and flushed under the lock, so lines never interleave.
#[derive(Clone)]
pub struct Out {
    inner: Arc<Mutex<Box<dyn Write + Send>>>,
}

impl Out {
    /// Output to stdout.
    pub fn stdout() -> Out {
        Out::new(Box::new(std::io::stdout()))
    }

    /// Output to any writer (tests).
    pub fn new(w: Box<dyn Write + Send>) -> Out {
        Out {
            inner: Arc::new(Mutex::new(w)),
        }
    }

    /// Writes one line and flushes it. A closed stdout is ignored: the GUI
    /// has gone and `quit` or EOF will follow.
    pub fn line(&self, s: &str) {
        let mut w = self.inner.lock().unwrap_or_else(PoisonError::into_inner);
        let _ = w.write_all(s.as_bytes());
        let _ = w.write_all(b"\n");
        let _ = w.flush();
    }
}

/// Hands out search ids and builds the sinks that tag events with them.
pub struct Searches {
    tx: Sender<Input>,
    next: u64,
}

impl Searches {
    /// Sinks sending into `tx`.
    pub fn new(tx: Sender<Input>) -> Searches {
        Searches { tx, next: 0 }
    }

    /// A fresh id and the sink for the search that will carry it.
    pub fn sink(&mut self) -> (u64, EventSink) {
        self.next += 1;
        let id = self.next;
        let tx = self.tx.clone();
        let sink: EventSink = Arc::new(move |ev| {
            // The loop is gone only when the process is exiting.
            let _ = tx.send(Input::Search(id, ev));
        });
        (id, sink)
    }
}

/// Whether the loop goes on after a command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Keep reading.
    Continue,
    /// `quit`: end the process.
    Quit,
}

/// A protocol shim as the loop sees it.
pub trait Shim {
    /// One input line (already trimmed of its line end).
    fn line(&mut self, line: &str) -> Flow;
    /// A line longer than [`MAX_LINE`] was skipped: say so, change nothing.
    fn too_long(&mut self, bytes: usize);
    /// One search event.
    fn event(&mut self, id: u64, ev: SearchEvent);
    /// Called after each event: work the event made possible (commands
    /// that waited for a search) may end the session.
    fn flow(&mut self) -> Flow {
        Flow::Continue
    }
    /// stdin closed: stop what must be stopped; `true` once nothing more
    /// will be printed (the loop then ends).
    fn eof(&mut self) -> bool;
}

/// Starts the stdin reader thread. It only reads and forwards; it never
/// waits on the search. Bytes that are not UTF-8 are replaced and over-long
/// lines are reported as such, so every line reaches a shim as text.
pub fn spawn_reader(tx: Sender<Input>) {
    let spawned = std::thread::Builder::new()
        .name("stdin".into())
        .spawn(move || {
            let stdin = std::io::stdin();
            let mut lock = stdin.lock();
            let mut buf = Vec::new();
            loop {
                let input = match read_line_bounded(&mut lock, &mut buf) {
                    Read::Line => Input::Line(to_line(&buf)),
                    Read::TooLong(n) => Input::TooLong(n),
                    Read::Eof => break,
                };
                if tx.send(input).is_err() {
                    return;
                }
            }
            let _ = tx.send(Input::Eof);
        });
    if spawned.is_err() {
        // Without a reader there is no input: report and let main end.
        eprintln!("volkhv: cannot start the stdin reader");
    }
}

/// The result of reading one line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Read {
    /// A line is in the buffer.
    Line,
    /// The line had this many bytes (line end excluded), more than
    /// [`MAX_LINE`]; it was skipped and the buffer holds nothing useful.
    TooLong(usize),
    /// End of input (or a read error) with nothing read.
    Eof,
}

/// Reads one line into `buf` (cleared first), keeping at most [`MAX_LINE`]
/// bytes plus the line end and skipping the rest, so an endless line cannot
/// exhaust memory.
pub fn read_line_bounded(r: &mut impl BufRead, buf: &mut Vec<u8>) -> Read {
    buf.clear();
    let mut any = false;
    let mut total = 0usize;
    // The last two bytes read, to leave the line end out of the length.
    let mut tail = [0u8; 2];
    loop {
        let chunk = match r.fill_buf() {
            Ok(c) => c,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => break,
        };
        if chunk.is_empty() {
            break;
        }
        any = true;
        let (part, done) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (&chunk[..=i], true),
            None => (chunk, false),
        };
        total = total.saturating_add(part.len());
        for &b in part.iter().rev().take(2).rev() {
            tail = [tail[1], b];
        }
        let room = (MAX_LINE + 2).saturating_sub(buf.len());
        buf.extend_from_slice(&part[..part.len().min(room)]);
        let used = part.len();
        r.consume(used);
        if done {
            break;
        }
    }
    if !any {
        return Read::Eof;
    }
    let ending = match tail {
        [b'\r', b'\n'] => 2,
        [_, b'\n'] => 1,
        _ => 0,
    };
    if total - ending.min(total) > MAX_LINE {
        Read::TooLong(total - ending.min(total))
    } else {
        Read::Line
    }
}

/// Raw bytes of one line to text: line end removed, invalid UTF-8 replaced.
pub fn to_line(buf: &[u8]) -> String {
    let mut end = buf.len();
    while end > 0 && (buf[end - 1] == b'\n' || buf[end - 1] == b'\r') {
        end -= 1;
    }
    String::from_utf8_lossy(&buf[..end]).into_owned()
}

/// The error text for an over-long line, the same in both protocols.
pub fn too_long_message(bytes: usize) -> String {
    format!("line of {bytes} bytes is longer than {MAX_LINE}; ignored whole")
}

/// Runs the loop until `quit` or EOF, starting with the lines already read
/// (those that chose the protocol).
pub fn run(shim: &mut dyn Shim, read: &[String], rx: &Receiver<Input>) {
    for line in read {
        if shim.line(line) == Flow::Quit {
            return;
        }
    }
    let mut eof = false;
    while let Ok(input) = rx.recv() {
        match input {
            Input::Line(l) if !eof => {
                if shim.line(&l) == Flow::Quit {
                    return;
                }
            }
            Input::TooLong(bytes) if !eof => shim.too_long(bytes),
            Input::Line(_) | Input::TooLong(_) => {}
            Input::Search(id, ev) => {
                shim.event(id, ev);
                if shim.flow() == Flow::Quit {
                    return;
                }
                if eof && shim.eof() {
                    return;
                }
            }
            Input::Eof => {
                eof = true;
                if shim.eof() {
                    return;
                }
            }
        }
    }
}

/// The name GUIs show: `Volkhv <major>.<minor>`.
pub const NAME: &str = concat!(
    "Volkhv ",
    env!("CARGO_PKG_VERSION_MAJOR"),
    ".",
    env!("CARGO_PKG_VERSION_MINOR")
);

/// Who wrote it (UCI `id author`).
pub const AUTHOR: &str = "the Volkhv developers";

/// Largest `Hash` (MiB) accepted from a GUI.
pub const MAX_HASH_MB: u64 = 65_536;
/// Largest `Threads` accepted.
pub const MAX_THREADS: u64 = 256;
/// Largest `MultiPV` accepted.
pub const MAX_MULTIPV: u64 = 256;
/// Largest `Move Overhead` (ms) accepted.
pub const MAX_OVERHEAD_MS: u64 = 5_000;

/// Parses an unsigned decimal argument, naming the option on failure.
///
/// # Errors
/// The token is not a number in `min..=max`.
pub fn parse_in_range(name: &str, token: &str, min: u64, max: u64) -> Result<u64, String> {
    match token.trim().parse::<u64>() {
        Ok(v) if (min..=max).contains(&v) => Ok(v),
        Ok(v) => Err(format!("{name}: {v} is out of range {min}..{max}")),
        Err(_) => Err(format!("{name}: \"{token}\" is not a number")),
    }
}

/// A piece of input made safe for echoing in an error message: control
/// characters replaced (a GUI reads our output line by line), cut to 200
/// characters.
pub fn echo(s: &str) -> String {
    const MAX: usize = 200;
    let mut out: String = s
        .chars()
        .take(MAX)
        .map(|c| if c.is_control() { '?' } else { c })
        .collect();
    if s.chars().nth(MAX).is_some() {
        out.push_str("...");
    }
    out
}

/// Pseudo-random input lines for the shims' no-panic tests: protocol words,
/// numbers at the edges, move-like and FEN-like tokens, and raw bytes.
#[cfg(test)]
pub(crate) fn fuzz_lines(seed: u64, count: usize, words: &[&str]) -> Vec<String> {
    const EXTRA: [&str; 22] = [
        "0",
        "1",
        "2",
        "-1",
        "3",
        "x",
        "99999999999999999999",
        "1e9",
        "0:30",
        "NaN",
        "e2e4",
        "e7e8q",
        "c3d5p",
        "d4f6:1",
        "a1a1",
        "e2e4:0",
        "N(Q)",
        "(Pr)",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR",
        "w",
        "KQkq",
        "=",
    ];
    let mut state = seed | 1;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut pick = |n: usize| usize::try_from(next() % n as u64).unwrap_or(0);
    (0..count)
        .map(|_| {
            let len = pick(7);
            let mut toks: Vec<String> = Vec::new();
            for i in 0..len {
                let tok = match pick(10) {
                    0 => {
                        let bytes: Vec<u8> = (0..pick(12)).map(|_| (pick(256)) as u8).collect();
                        String::from_utf8_lossy(&bytes).into_owned()
                    }
                    1..=3 => EXTRA[pick(EXTRA.len())].to_string(),
                    _ if i == 0 || pick(2) == 0 => words[pick(words.len())].to_string(),
                    _ => EXTRA[pick(EXTRA.len())].to_string(),
                };
                toks.push(tok);
            }
            toks.join(" ")
        })
        .collect()
}

/// Protocol output captured in memory, for the shims' tests.
#[cfg(test)]
#[derive(Clone, Default)]
pub(crate) struct Capture(Arc<Mutex<Vec<u8>>>);

#[cfg(test)]
impl Write for Capture {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(b);
        Ok(b.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
impl Capture {
    /// An `Out` writing here.
    pub(crate) fn out(&self) -> Out {
        Out::new(Box::new(self.clone()))
    }

    /// The lines written since the last call.
    pub(crate) fn take(&self) -> Vec<String> {
        let bytes = std::mem::take(&mut *self.0.lock().unwrap());
        String::from_utf8(bytes)
            .unwrap()
            .lines()
            .map(String::from)
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_cleaned() {
        assert_eq!(to_line(b"uci\r\n"), "uci");
        assert_eq!(to_line(b"\n"), "");
        assert_eq!(to_line(b"go\xff\xfe"), "go\u{fffd}\u{fffd}");
    }

    /// An over-long line is reported whole, never cut into another command;
    /// the lines around it arrive intact, and a line of exactly the limit is
    /// still a line.
    #[test]
    fn long_lines_are_rejected_whole() {
        let mut input = b"position startpos moves ".to_vec();
        input.extend(std::iter::repeat_n(b'a', 3 * MAX_LINE));
        input.extend_from_slice(b" d4d8:2\r\nisready\r\n");
        input.extend(std::iter::repeat_n(b'b', MAX_LINE));
        input.extend_from_slice(b"\nlast");
        let mut r = std::io::BufReader::with_capacity(1000, input.as_slice());
        let mut buf = Vec::new();
        assert_eq!(
            read_line_bounded(&mut r, &mut buf),
            Read::TooLong(24 + 3 * MAX_LINE + 7)
        );
        assert_eq!(read_line_bounded(&mut r, &mut buf), Read::Line);
        assert_eq!(to_line(&buf), "isready");
        assert_eq!(read_line_bounded(&mut r, &mut buf), Read::Line);
        assert_eq!(to_line(&buf).len(), MAX_LINE);
        assert_eq!(read_line_bounded(&mut r, &mut buf), Read::Line);
        assert_eq!(to_line(&buf), "last");
        assert_eq!(read_line_bounded(&mut r, &mut buf), Read::Eof);
    }

    #[test]
    fn echo_is_one_clean_line() {
        assert_eq!(echo("a\u{0}b\rc\x1b"), "a?b?c?");
        let long = "é".repeat(300);
        assert_eq!(echo(&long), format!("{}...", "é".repeat(200)));
        assert_eq!(echo("go"), "go");
    }

    #[test]
    fn out_writes_whole_lines() {
        let buf = Capture::default();
        let out = buf.out();
        out.line("readyok");
        out.clone().line("pong 1");
        assert_eq!(buf.take(), ["readyok", "pong 1"]);
    }
}
