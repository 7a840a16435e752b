//! Starts `volkhv serve --port 0` and talks plain HTTP/1.1 to it over
//! `std::net::TcpStream` (one request per connection).
#![allow(dead_code)] // each test file uses a different part of this helper

use serde_json::Value;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How long one reply may take (debug build, busy machine).
pub const TIMEOUT: Duration = Duration::from_secs(30);

/// A running server, killed on drop.
pub struct Server {
    child: Child,
    /// Where it listens (127.0.0.1 for a server on every address).
    pub addr: SocketAddr,
    /// `http://127.0.0.1:PORT/`: the first line's address without its token.
    pub url: String,
    /// The first line's `?token=`, if any.
    pub token: Option<String>,
    stdout: Arc<Mutex<String>>,
    stderr: Arc<Mutex<String>>,
}

/// Copies a pipe into `into` until it closes, on a thread of its own.
fn collect(mut pipe: impl Read + Send + 'static, into: &Arc<Mutex<String>>, echo: bool) {
    let into = Arc::clone(into);
    std::thread::spawn(move || {
        let mut buf = [0u8; 4096];
        while let Ok(n) = pipe.read(&mut buf) {
            if n == 0 {
                break;
            }
            let text = String::from_utf8_lossy(&buf[..n]);
            if echo {
                eprint!("{text}");
            }
            into.lock().unwrap().push_str(&text);
        }
    });
}

impl Server {
    /// Starts a server with an in-memory library and reads its first line.
    pub fn start() -> Server {
        Server::start_with(&["--db", ":memory:"])
    }

    /// Starts `volkhv serve --port 0 ARGS…` and reads its first stdout line.
    pub fn start_with(args: &[&str]) -> Server {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_volkhv"));
        cmd.args(["serve", "--port", "0"]).args(args);
        Server::start_command(cmd)
    }

    /// Starts a command that runs a server (a shell that limits it, say) and
    /// reads its first stdout line.
    pub fn start_command(mut cmd: Command) -> Server {
        let mut child = cmd
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("volkhv serve starts");
        let stderr = Arc::new(Mutex::new(String::new()));
        collect(child.stderr.take().expect("stderr piped"), &stderr, true);
        let mut out = BufReader::new(child.stdout.take().expect("stdout piped"));
        let mut first = String::new();
        out.read_line(&mut first).expect("first line");
        let stdout = Arc::new(Mutex::new(first.clone()));
        collect(out, &stdout, false);
        let shown = first
            .trim()
            .strip_prefix("listening on ")
            .unwrap_or_else(|| {
                panic!(
                    "first line was {first:?}; stderr: {}",
                    stderr.lock().unwrap()
                )
            })
            .to_string();
        let (url, token) = match shown.split_once("?token=") {
            Some((u, t)) => (u.to_string(), Some(t.to_string())),
            None => (shown, None),
        };
        assert!(url.starts_with("http://") && url.ends_with('/'), "{url}");
        let mut addr: SocketAddr = url["http://".len()..url.len() - 1]
            .parse()
            .expect("address");
        if addr.ip().is_unspecified() {
            addr.set_ip([127, 0, 0, 1].into());
        }
        let url = format!("http://{addr}/");
        Server {
            child,
            addr,
            url,
            token,
            stdout,
            stderr,
        }
    }

    /// What the server wrote on stderr so far.
    pub fn stderr(&self) -> String {
        self.stderr.lock().unwrap().clone()
    }

    /// What the server wrote on stdout so far, the first line included.
    pub fn stdout(&self) -> String {
        self.stdout.lock().unwrap().clone()
    }

    /// `kill -TERM`, then waits for the process to end: its exit code.
    pub fn terminate(mut self) -> (Option<i32>, String) {
        let _ = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status();
        let deadline = Instant::now() + TIMEOUT;
        let status = loop {
            if let Some(st) = self.child.try_wait().expect("try_wait") {
                break st;
            }
            assert!(
                Instant::now() < deadline,
                "no exit after SIGTERM: {}",
                self.stderr()
            );
            std::thread::sleep(Duration::from_millis(20));
        };
        // The stderr pipe's last lines.
        std::thread::sleep(Duration::from_millis(100));
        (status.code(), self.stderr())
    }

    /// `kill -9`: the process ends at once, mid-whatever.
    pub fn kill(mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// The server's process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// `true` while the process runs.
    pub fn alive(&mut self) -> bool {
        self.child.try_wait().expect("try_wait").is_none()
    }

    /// Sends raw bytes; returns the status and body of the reply.
    pub fn raw(&self, bytes: &[u8]) -> (u16, String) {
        let (status, _, body) = self.raw_full(bytes);
        (status, body)
    }

    /// Sends raw bytes; returns the status, head and body of the reply.
    pub fn raw_full(&self, bytes: &[u8]) -> (u16, String, String) {
        let mut s = TcpStream::connect(self.addr).expect("connect");
        s.set_read_timeout(Some(TIMEOUT)).expect("timeout");
        // The server may answer (413) before reading all of a huge body.
        let _ = s.write_all(bytes);
        let mut reply = Vec::new();
        let _ = s.read_to_end(&mut reply);
        let text = String::from_utf8_lossy(&reply).to_string();
        let status = text
            .split(' ')
            .nth(1)
            .and_then(|c| c.parse().ok())
            .unwrap_or(0);
        let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
        (status, head.to_string(), body.to_string())
    }

    /// One request with extra header lines (`"Cookie: a=b"`); returns the
    /// status, head and body.
    pub fn request_with(
        &self,
        method: &str,
        path: &str,
        headers: &[&str],
        body: &str,
    ) -> (u16, String, String) {
        let extra: String = headers.iter().map(|h| format!("{h}\r\n")).collect();
        let req = format!(
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n{extra}Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
            self.addr,
            body.len()
        );
        self.raw_full(req.as_bytes())
    }

    /// One request with an optional body.
    pub fn request(&self, method: &str, path: &str, body: &str) -> (u16, String) {
        let req = format!(
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
            self.addr,
            body.len()
        );
        self.raw(req.as_bytes())
    }

    /// A JSON request; returns the status and the parsed reply.
    pub fn json(&self, method: &str, path: &str, body: &Value) -> (u16, Value) {
        let text = if body.is_null() {
            String::new()
        } else {
            body.to_string()
        };
        let (status, reply) = self.request(method, path, &text);
        let v = serde_json::from_str(&reply)
            .unwrap_or_else(|e| panic!("{method} {path}: {e} in {reply:?}"));
        (status, v)
    }

    /// Creates a game; panics unless 201.
    pub fn create(&self, body: &Value) -> Value {
        let (status, v) = self.json("POST", "/api/games", body);
        assert_eq!(status, 201, "{v}");
        v
    }

    /// `POST /api/games/ID/ACTION`.
    pub fn act(&self, id: &str, action: &str, body: &Value) -> (u16, Value) {
        self.json("POST", &format!("/api/games/{id}/{action}"), body)
    }

    /// `GET /api/games/ID`.
    pub fn state(&self, id: &str) -> Value {
        let (status, v) = self.json("GET", &format!("/api/games/{id}"), &Value::Null);
        assert_eq!(status, 200, "{v}");
        v
    }

    /// Polls the state until `pred` holds; panics after [`TIMEOUT`].
    pub fn wait_for(&self, id: &str, what: &str, pred: impl Fn(&Value) -> bool) -> Value {
        let deadline = Instant::now() + TIMEOUT;
        loop {
            let s = self.state(id);
            if pred(&s) {
                return s;
            }
            assert!(
                Instant::now() < deadline,
                "timed out waiting for {what}: {s}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The game's id as a string.
pub fn id(state: &Value) -> String {
    state["id"].as_str().expect("id").to_string()
}

/// The body of a chunked HTTP/1.1 reply read so far (the head skipped, the
/// chunk sizes taken out; a chunk cut off at the end is kept as far as it
/// came). An event stream's text, as a browser's EventSource sees it.
pub fn dechunk(raw: &str) -> String {
    let Some((_, mut rest)) = raw.split_once("\r\n\r\n") else {
        return String::new();
    };
    let mut out = String::new();
    while let Some((size, after)) = rest.split_once("\r\n") {
        let Ok(n) = usize::from_str_radix(size.trim(), 16) else {
            break;
        };
        if n == 0 {
            break;
        }
        let take = n.min(after.len());
        // A chunk boundary inside a UTF-8 sequence: keep what is whole.
        let mut end = take;
        while !after.is_char_boundary(end) {
            end -= 1;
        }
        out.push_str(&after[..end]);
        if take < n {
            break;
        }
        rest = after[n..].strip_prefix("\r\n").unwrap_or(&after[n..]);
    }
    out
}
