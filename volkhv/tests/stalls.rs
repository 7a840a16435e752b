//! `volkhv serve` as strangers and slow clients meet it: other sites' pages
//! cannot write, idle and slow connections and engine work never hold up a
//! page's requests, a header that never ends is cut off, and SIGTERM saves
//! every game and exits 0.
//!
//! The time bounds here catch hangs (a stalled request took seconds or
//! forever before the server moved to hyper on tokio), with room for a busy
//! machine; the latencies themselves are measured by `scripts/loadtest.py`
//! (docs/results/ledger.md).

mod server;

use serde_json::{json, Value};
use server::{id, Server};
use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

/// A request that stalls for this long is a defect, not a slow machine.
const STALL: Duration = Duration::from_secs(1);

fn timed<T>(what: &str, f: impl FnOnce() -> T) -> T {
    let t = Instant::now();
    let out = f();
    let took = t.elapsed();
    assert!(took < STALL, "{what} took {took:?}");
    out
}

#[test]
fn other_sites_pages_cannot_write() {
    let s = Server::start();
    let own = format!("Origin: http://{}", s.addr);
    let (status, _, body) = s.request_with("POST", "/api/games", &[&own], "{}");
    assert_eq!(status, 201, "the page's own request: {body}");
    let (status, _, body) = s.request_with("POST", "/api/games", &[], "{}");
    assert_eq!(status, 201, "a script's request (no Origin): {body}");
    let g = id(&serde_json::from_str::<Value>(&body).unwrap());
    for (what, extra) in [
        ("a foreign Origin", "Origin: http://evil.example"),
        ("another port", "Origin: http://127.0.0.1:1"),
        ("a null Origin", "Origin: null"),
        ("Sec-Fetch-Site", "Sec-Fetch-Site: cross-site"),
    ] {
        let (status, _, body) = s.request_with("POST", "/api/games", &[extra], "{}");
        assert_eq!(status, 403, "{what}: {body}");
        assert!(body.contains("another site"), "{what}: {body}");
    }
    // A body another site's page can send without asking the browser first.
    for ctype in [
        "text/plain",
        "application/x-www-form-urlencoded",
        "multipart/form-data; boundary=x",
    ] {
        for path in [
            "/api/games".to_string(),
            "/api/library/import".to_string(),
            format!("/api/games/{g}/settings"),
        ] {
            let req = format!(
                "POST {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\nContent-Type: {ctype}\r\nContent-Length: 2\r\n\r\n{{}}",
                s.addr
            );
            let (status, body) = s.raw(req.as_bytes());
            assert_eq!(status, 415, "{ctype} to {path}: {body}");
        }
    }
    let untyped = format!(
        "DELETE /api/library/{g} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\r\n",
        s.addr
    );
    assert_eq!(s.raw(untyped.as_bytes()).0, 415);
    // Nothing of that reached a game: it is still there, untouched.
    assert_eq!(s.state(&g)["history"], json!([]));
    assert_eq!(s.state(&g)["settings"]["engine"], "none");
}

/// Opens `n` connections that send nothing, and `slow` that send half a
/// request head.
fn idle_connections(s: &Server, n: usize, slow: usize) -> Vec<TcpStream> {
    let mut held = Vec::new();
    for i in 0..n + slow {
        let mut c = TcpStream::connect(s.addr).expect("connect");
        if i >= n {
            c.write_all(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
                .unwrap();
        }
        held.push(c);
    }
    held
}

#[test]
fn idle_and_slow_connections_hold_up_no_request() {
    let s = Server::start();
    let g = id(&s.create(&json!({ "variant": "tavreli" })));
    let _held = idle_connections(&s, 20, 4);
    for i in 0..60 {
        let path = match i % 3 {
            0 => "/".to_string(),
            1 => "/main.js".to_string(),
            _ => format!("/api/games/{g}"),
        };
        let (status, _) = timed(&path, || s.request("GET", &path, ""));
        assert_eq!(status, 200, "{path}");
    }
}

#[test]
fn a_request_head_that_never_ends_is_cut_off() {
    let s = Server::start();
    let mut c = TcpStream::connect(s.addr).expect("connect");
    c.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    c.write_all(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        .unwrap();
    let t = Instant::now();
    let mut buf = Vec::new();
    let _ = c.read_to_end(&mut buf);
    let took = t.elapsed();
    assert!(
        took >= Duration::from_secs(5) && took < Duration::from_secs(25),
        "closed after {took:?}"
    );
    // A head too large is refused at once.
    let big = format!(
        "GET / HTTP/1.1\r\nHost: {}\r\nX-Big: {}\r\nConnection: close\r\n\r\n",
        s.addr,
        "x".repeat(64 * 1024)
    );
    let (status, _) = s.raw(big.as_bytes());
    assert!(status == 431 || status == 400 || status == 0, "{status}");
    assert_eq!(s.request("GET", "/", "").0, 200);
}

#[test]
fn hints_and_streams_hold_up_no_plain_request() {
    let s = Server::start();
    let games: Vec<String> = (0..8)
        .map(|i| {
            let variant = ["chess", "plunder", "tavreli"][i % 3];
            id(&s.create(&json!({ "variant": variant })))
        })
        .collect();
    // A stream on every game, read as a page reads it.
    let streams: Vec<TcpStream> = games
        .iter()
        .map(|g| {
            let mut c = TcpStream::connect(s.addr).expect("connect");
            write!(
                c,
                "GET /api/games/{g}/events HTTP/1.1\r\nHost: {}\r\nAccept: text/event-stream\r\n\r\n",
                s.addr
            )
            .unwrap();
            let mut r = c.try_clone().unwrap();
            std::thread::spawn(move || {
                let mut buf = [0u8; 4096];
                while matches!(r.read(&mut buf), Ok(n) if n > 0) {}
            });
            c
        })
        .collect();
    let addr = s.addr;
    let hints: Vec<_> = games
        .iter()
        .map(|g| {
            let g = g.clone();
            std::thread::spawn(move || {
                let req = format!(
                    "POST /api/games/{g}/hint HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{{}}"
                );
                let mut c = TcpStream::connect(addr).unwrap();
                c.write_all(req.as_bytes()).unwrap();
                let mut out = String::new();
                let _ = c.read_to_string(&mut out);
                out
            })
        })
        .collect();
    let mut slowest = Duration::ZERO;
    let started = Instant::now();
    while started.elapsed() < Duration::from_secs(3) {
        let t = Instant::now();
        let (status, _) = timed("a plain request beside 8 hints", || {
            s.request("GET", &format!("/api/games/{}", games[0]), "")
        });
        assert_eq!(status, 200);
        slowest = slowest.max(t.elapsed());
        std::thread::sleep(Duration::from_millis(50));
    }
    eprintln!("slowest plain request beside 8 hints and 8 streams: {slowest:?}");
    for h in hints {
        let reply = h.join().unwrap();
        let status = reply.split(' ').nth(1).unwrap_or("");
        match status {
            "200" => assert!(reply.contains("\"move\""), "{reply}"),
            "429" => assert!(reply.to_lowercase().contains("retry-after:"), "{reply}"),
            _ => panic!("a hint answered {reply}"),
        }
    }
    drop(streams);
}

#[test]
fn sigterm_ends_searches_saves_every_game_and_exits_0() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("sigterm");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let db = dir.join("games.db");
    let db = db.to_str().unwrap();
    let s = Server::start_with(&["--db", db]);
    // Engine against engine, a stream open, an analysis elsewhere.
    let g = id(&s.create(&json!({ "engine": "both", "movetime": 30 })));
    let a = id(&s.create(&json!({ "variant": "tavreli", "analyse": true })));
    let mut es = TcpStream::connect(s.addr).unwrap();
    write!(
        es,
        "GET /api/games/{g}/events HTTP/1.1\r\nHost: {}\r\n\r\n",
        s.addr
    )
    .unwrap();
    let played = s.wait_for(&g, "a few engine moves", |st| {
        st["history"].as_array().is_some_and(|h| h.len() >= 4)
    });
    assert!(played["searching"].is_object() || played["status"].is_object());
    let t = Instant::now();
    let (code, err) = s.terminate();
    assert_eq!(code, Some(0), "{err}");
    assert!(t.elapsed() < Duration::from_secs(10), "{:?}", t.elapsed());
    assert!(err.contains("every game is saved"), "{err}");
    // The stream was ended, not cut.
    es.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
    let mut rest = Vec::new();
    let _ = es.read_to_end(&mut rest);
    let again = Server::start_with(&["--db", db]);
    let kept = again.state(&g)["history"].as_array().unwrap().len();
    assert!(kept >= 4, "{kept} moves kept");
    assert_eq!(again.state(&a)["variant"], "tavreli");
}
