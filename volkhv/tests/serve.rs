//! `volkhv serve` over plain HTTP: every variant, illegal input, splits,
//! vests, promotions, takeback, engine replies checked by movegen,
//! independent concurrent games, hostile requests, and a closed stream that
//! stops its search.

mod server;

use movegen::{Chess, MoveList, Plunder, Position, Tavreli};
use serde_json::{json, Value};
use server::{id, Server};
use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

/// The FEN movegen gives after `moves` from `fen`.
fn after<P: Position>(fen: &str, moves: &[&str]) -> String {
    let mut pos = P::from_fen(fen).expect("test FEN");
    for m in moves {
        let m = pos.parse_move(m).expect("test move is legal");
        pos.make(m);
    }
    pos.fen()
}

/// Every legal move string of `fen`, by movegen.
fn legal<P: Position>(fen: &str) -> Vec<String> {
    let pos = P::from_fen(fen).expect("FEN");
    let mut list = MoveList::new();
    pos.legal_moves(&mut list);
    list.iter().map(ToString::to_string).collect()
}

fn moves_between(state: &Value, from: &str, to: &str) -> Vec<(String, String)> {
    state["legal"]
        .as_array()
        .expect("legal")
        .iter()
        .filter(|m| m["from"] == from && m["to"] == to)
        .map(|m| {
            (
                m["move"].as_str().unwrap().to_string(),
                m["text"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

fn error_of(v: &Value) -> &str {
    v["error"].as_str().unwrap_or("")
}

#[test]
fn first_line_and_page() {
    let s = Server::start();
    let (status, page) = s.request("GET", "/?variant=tavreli&fen=startpos", "");
    assert_eq!(status, 200);
    assert!(page.contains("id=\"board\""), "{page}");
    let (status, js) = s.request("GET", "/input.js", "");
    assert_eq!(status, 200);
    assert!(js.contains("dataset.move"), "the chooser's buttons");
}

#[test]
fn tavreli_split_takeback_and_illegal_input() {
    let s = Server::start();
    let fen = "4k3/8/8/8/3(PBR)4/8/8/4K3 w - - 0 1";
    let st = s.create(&json!({ "variant": "tavreli", "fen": fen }));
    let g = id(&st);
    assert_eq!(st["fen"], fen);
    assert_eq!(st["variant"], "tavreli");
    // d4 holds the tower bottom to top, as FEN tokens.
    let d4: Vec<&str> = st["board"][27]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["piece"].as_str().unwrap())
        .collect();
    assert_eq!(d4, ["P", "B", "R"]);
    // Three moves join d4 and d8: the chooser gets all three, in words.
    let choices = moves_between(&st, "d4", "d8");
    let mut strings: Vec<&str> = choices.iter().map(|(m, _)| m.as_str()).collect();
    strings.sort_unstable();
    assert_eq!(strings, ["d4d8", "d4d8:1", "d4d8:2"]);
    assert!(choices
        .iter()
        .any(|(m, t)| m == "d4d8:2" && t == "Top 2 of 3 (bishop, rook) to d8"));
    // The server's legal moves are exactly movegen's.
    let mut ours: Vec<String> = st["legal"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["move"].as_str().unwrap().to_string())
        .collect();
    let mut want = legal::<Tavreli>(fen);
    ours.sort();
    want.sort();
    assert_eq!(ours, want);

    for (bad, why) in [
        ("d4d9", "malformed"),
        ("d4e6", "illegal"),
        ("d4d8:4", "illegal"),
        ("", "malformed"),
    ] {
        let (status, v) = s.act(&g, "move", &json!({ "move": bad }));
        assert_eq!(status, 400, "{bad}: {v}");
        assert!(error_of(&v).contains(why), "{bad}: {v}");
        assert_eq!(s.state(&g)["fen"], fen, "a refused move leaves the game");
    }
    let (status, v) = s.act(&g, "move", &json!({ "move": "d4d8:2" }));
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["fen"], after::<Tavreli>(fen, &["d4d8:2"]));
    assert_eq!(v["history"][0]["text"], "d4d8:2");
    assert_eq!(v["last"], json!({ "from": "d4", "to": "d8" }));
    let (status, v) = s.act(&g, "undo", &Value::Null);
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["fen"], fen);
    let (status, v) = s.act(&g, "undo", &Value::Null);
    assert_eq!(status, 409, "{v}");
    let (status, v) = s.act(&g, "undo", &json!({ "move": "e1e2" }));
    assert_eq!(status, 400, "{v}");
    assert_eq!(s.state(&g)["fen"], fen);
}

#[test]
fn bad_fens_and_options_are_refused_and_change_nothing() {
    let s = Server::start();
    for (variant, fen) in [
        ("chess", "8/8/8/8/8/8/8/8 w - - 0 1"),
        (
            "chess",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
        ),
        ("plunder", "4k3/8/8/8/8/8/8/Q(R)3K3 w - - 0 1"),
        ("tavreli", "4k3/8/8/8/3(PK)4/8/8/4K3 w - - 0 1"),
        ("tavreli", "4()k3/8/8/8/8/8/8/4K3 w - - 0 1"),
    ] {
        let (status, v) = s.json(
            "POST",
            "/api/games",
            &json!({ "variant": variant, "fen": fen }),
        );
        assert_eq!(status, 400, "{variant} {fen}: {v}");
        assert!(!error_of(&v).is_empty());
    }
    let (status, v) = s.json("POST", "/api/games", &json!({ "variant": "go" }));
    assert_eq!(status, 400);
    assert!(error_of(&v).contains("unknown variant"), "{v}");

    let st = s.create(&json!({ "variant": "plunder" }));
    let g = id(&st);
    let start = st["fen"].clone();
    for body in [
        json!({ "variant": "plunder", "fen": "bad" }),
        json!({ "variant": "plunder", "moves": ["e2e4", "e2e4"] }),
    ] {
        let (status, v) = s.act(&g, "new", &body);
        assert_eq!(status, 400, "{body}: {v}");
    }
    for body in [
        json!({ "multipv": 6 }),
        json!({ "threads": 0 }),
        json!({ "hash": 100_000 }),
        json!({ "movetime": 5, }),
        json!({ "engine": "martian" }),
        json!({ "movetime": 100, "depth": 3 }),
        json!({ "inc": 100 }),
        json!({ "unknown": 1 }),
        json!({ "move": "e2e4" }),
    ] {
        let (status, v) = s.act(&g, "settings", &body);
        assert_eq!(status, 400, "{body}: {v}");
    }
    let after_all = s.state(&g);
    assert_eq!(after_all["fen"], start);
    assert_eq!(after_all["settings"]["multipv"], 1);
    assert_eq!(after_all["settings"]["engine"], "none");
}

#[test]
fn plunder_vests_and_promotions() {
    let s = Server::start();
    let fen = "3nk3/4P3/8/3p4/8/2N5/8/4K3 w - - 0 1";
    let st = s.create(&json!({ "variant": "plunder", "fen": fen }));
    let g = id(&st);
    let mut knight = moves_between(&st, "c3", "d5");
    knight.sort();
    assert_eq!(
        knight,
        [
            (
                "c3d5".to_string(),
                "Knight takes on d5, declines the vest".to_string()
            ),
            (
                "c3d5p".to_string(),
                "Knight takes on d5 and takes a pawn vest".to_string()
            ),
        ]
    );
    // Promotion and vest combined: every choice at once.
    let promos: Vec<String> = moves_between(&st, "e7", "d8")
        .into_iter()
        .map(|(m, _)| m)
        .collect();
    assert!(promos.contains(&"e7d8qn".to_string()), "{promos:?}");
    assert!(promos.contains(&"e7d8q".to_string()), "{promos:?}");
    assert!(promos.contains(&"e7d8n".to_string()), "{promos:?}");
    let (status, v) = s.act(&g, "move", &json!({ "move": "c3d5p" }));
    assert_eq!(status, 200, "{v}");
    let want = after::<Plunder>(fen, &["c3d5p"]);
    assert_eq!(v["fen"], want);
    let d5 = &v["board"][35][0];
    assert_eq!((&d5["piece"], &d5["vest"]), (&json!("N"), &json!("P")));
    let (_, v) = s.act(&g, "move", &json!({ "move": "e8f7" }));
    assert_eq!(v["fen"], after::<Plunder>(fen, &["c3d5p", "e8f7"]));
    let (status, v) = s.act(&g, "move", &json!({ "move": "e7d8qn" }));
    assert_eq!(status, 200, "{v}");
    assert_eq!(
        v["fen"],
        after::<Plunder>(fen, &["c3d5p", "e8f7", "e7d8qn"])
    );
    let d8 = &v["board"][59][0];
    assert_eq!((&d8["piece"], &d8["vest"]), (&json!("Q"), &json!("N")));
}

#[test]
fn chess_san_mate_status_and_pgn_round_trip() {
    let s = Server::start();
    let st = s.create(&json!({ "variant": "chess" }));
    let g = id(&st);
    for m in ["f2f3", "e7e5", "g2g4", "d8h4"] {
        let (status, v) = s.act(&g, "move", &json!({ "move": m }));
        assert_eq!(status, 200, "{m}: {v}");
    }
    let st = s.state(&g);
    let texts: Vec<&str> = st["history"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["text"].as_str().unwrap())
        .collect();
    assert_eq!(texts, ["f3", "e5", "g4", "Qh4#"]);
    assert_eq!(st["status"]["text"], "0-1 \u{2014} White is mated");
    assert_eq!(st["check"], "e1");
    let (status, v) = s.act(&g, "move", &json!({ "move": "a2a3" }));
    assert_eq!(status, 409, "{v}");
    let (status, pgn) = s.request("GET", &format!("/api/games/{g}/pgn"), "");
    assert_eq!(status, 200);
    assert!(pgn.contains("[Variant \"chess\"]"), "{pgn}");
    assert!(pgn.contains("[Result \"0-1\"]"), "{pgn}");
    assert!(pgn.contains("1. f3 e5 2. g4 Qh4#"), "{pgn}");
    let other = id(&s.create(&json!({ "variant": "tavreli" })));
    let (status, v) = s.act(&other, "pgn", &json!({ "pgn": pgn }));
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["variant"], "chess");
    assert_eq!(v["fen"], st["fen"]);
    // An unfinished tavreli game with a set-up position.
    let fen = "4k3/8/8/8/3(PBR)4/8/8/4K3 w - - 0 1";
    let t = id(&s.create(&json!({ "variant": "tavreli", "fen": fen, "moves": ["d4d8:2"] })));
    let (_, pgn) = s.request("GET", &format!("/api/games/{t}/pgn"), "");
    assert!(pgn.contains("[Result \"*\"]"), "{pgn}");
    assert!(pgn.contains(&format!("[FEN \"{fen}\"]")), "{pgn}");
    assert!(pgn.contains("[SetUp \"1\"]"), "{pgn}");
    assert!(pgn.contains("1. d4d8:2"), "{pgn}");
    let (status, v) = s.act(&other, "pgn", &json!({ "pgn": pgn }));
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["fen"], after::<Tavreli>(fen, &["d4d8:2"]));
    let (status, v) = s.act(&other, "pgn", &json!({ "pgn": "1. e4 e5 2. Ke3 *" }));
    assert_eq!(status, 400, "{v}");
    assert_eq!(s.state(&other)["fen"], after::<Tavreli>(fen, &["d4d8:2"]));
}

type LegalFn = fn(&str) -> Vec<String>;
type AfterFn = fn(&str, &[&str]) -> String;

/// The engine (black, 100 ms) answers a human move in each variant with a
/// move movegen finds legal.
#[test]
fn engine_replies_are_legal_in_every_variant() {
    let s = Server::start();
    let cases: [(&str, &str, LegalFn, AfterFn); 3] = [
        ("chess", "e2e4", legal::<Chess>, after::<Chess>),
        ("plunder", "e2e4", legal::<Plunder>, after::<Plunder>),
        ("tavreli", "b1d2", legal::<Tavreli>, after::<Tavreli>),
    ];
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    for (variant, first, legal_in, after_in) in cases {
        let st = s.create(&json!({ "variant": variant, "engine": "black", "movetime": 100 }));
        let g = id(&st);
        let (status, v) = s.act(&g, "move", &json!({ "move": first }));
        assert_eq!(status, 200, "{variant}: {v}");
        let mid = after_in(start, &[first]);
        assert_eq!(v["fen"], mid);
        // Not the human's turn while the engine thinks.
        if v["history"].as_array().unwrap().len() == 1 {
            // 409 while the engine thinks; 400 (illegal for white) after.
            let (status, _) = s.act(&g, "move", &json!({ "move": "a7a6" }));
            assert!(status == 409 || status == 400, "{status}");
        }
        let done = s.wait_for(&g, "the engine's reply", |st| {
            st["history"].as_array().is_some_and(|h| h.len() == 2)
        });
        let reply = done["history"][1]["move"].as_str().unwrap();
        assert!(
            legal_in(&mid).contains(&reply.to_string()),
            "{variant}: {reply} is not legal in {mid}"
        );
        assert_eq!(done["fen"], after_in(start, &[first, reply]));
        assert_eq!(done["human_to_move"], true);
    }
}

#[test]
fn two_clients_play_two_independent_games() {
    let s = Server::start();
    let a = id(&s.create(&json!({ "variant": "tavreli" })));
    let b = id(&s.create(&json!({ "variant": "tavreli" })));
    assert_ne!(a, b);
    std::thread::scope(|scope| {
        for (g, line) in [
            (&a, ["e2e4", "e7e5", "g1f3"]),
            (&b, ["d2d4", "d7d5", "c1f4"]),
        ] {
            let s = &s;
            scope.spawn(move || {
                for m in line {
                    let (status, v) = s.act(g, "move", &json!({ "move": m }));
                    assert_eq!(status, 200, "{m}: {v}");
                }
            });
        }
    });
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    assert_eq!(
        s.state(&a)["fen"],
        after::<Tavreli>(start, &["e2e4", "e7e5", "g1f3"])
    );
    assert_eq!(
        s.state(&b)["fen"],
        after::<Tavreli>(start, &["d2d4", "d7d5", "c1f4"])
    );
}

#[test]
fn hostile_requests_get_errors_and_the_server_lives_on() {
    let mut s = Server::start();
    let host = s.addr;
    let g = id(&s.create(&json!({ "variant": "chess" })));
    // Another name for 127.0.0.1 (DNS rebinding) is refused.
    let evil = format!(
        "GET /api/games/{g} HTTP/1.1\r\nHost: evil.example:{}\r\nConnection: close\r\n\r\n",
        host.port()
    );
    let (status, body) = s.raw(evil.as_bytes());
    assert_eq!(status, 403, "{body}");
    let local = format!(
        "GET /api/games/{g} HTTP/1.1\r\nHost: localhost:{}\r\nConnection: close\r\n\r\n",
        host.port()
    );
    assert_eq!(s.raw(local.as_bytes()).0, 200);
    let huge = format!(
        "POST /api/games/{g}/move HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: 50000000\r\n\r\n{}",
        "x".repeat(300_000)
    );
    assert_eq!(s.raw(huge.as_bytes()).0, 413);
    let (status, v) = s.request("POST", &format!("/api/games/{g}/move"), "{\"move\": ");
    assert_eq!(status, 400);
    assert!(v.contains("bad JSON"), "{v}");
    assert_eq!(
        s.request("POST", &format!("/api/games/{g}/move"), "[1,2]")
            .0,
        400
    );
    assert_eq!(
        s.request("POST", &format!("/api/games/{g}/move"), "{\"move\": 7}")
            .0,
        400
    );
    assert_eq!(s.request("GET", "/nope/../../etc/passwd", "").0, 404);
    assert_eq!(
        s.request("GET", "/api/games/99999999999999999999999", "").0,
        404
    );
    assert_eq!(s.request("GET", "/api/games/1/../../x", "").0, 404);
    assert_eq!(s.request("GET", "/%zz", "").0, 400);
    assert_eq!(s.request("GET", "/api/games/%C3%28", "").0, 400);
    assert_eq!(s.request("DELETE", &format!("/api/games/{g}"), "").0, 405);
    assert_eq!(
        s.request("POST", &format!("/api/games/{g}/explode"), "").0,
        404
    );
    let (status, _) = s.request("GET", &format!("/api/games/{g}/position?ply=99"), "");
    assert_eq!(status, 400);
    let _ = s.raw(b"\x00\xff\xfe garbage\r\n\r\n");
    let _ = s.raw(b"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: -5\r\n\r\n");
    let mut body = vec![b'{'; 1];
    body.extend_from_slice(b"\"move\": \"\xff\xfe\"}");
    let mut req = format!(
        "POST /api/games/{g}/move HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n",
        body.len()
    )
    .into_bytes();
    req.extend_from_slice(&body);
    assert_eq!(s.raw(&req).0, 400);
    // Many games: the oldest idle ones are evicted, the server stays up.
    for _ in 0..20 {
        s.create(&json!({ "variant": "plunder" }));
    }
    assert!(s.alive());
    let (status, v) = s.act(
        &id(&s.create(&json!({}))),
        "move",
        &json!({ "move": "e2e4" }),
    );
    assert_eq!(status, 200, "{v}");
}

/// Reads an SSE stream until `needle` appears (or panics after a while).
fn read_until(stream: &mut TcpStream, seen: &mut String, needle: &str) {
    let deadline = Instant::now() + server::TIMEOUT;
    let mut buf = [0u8; 4096];
    while !server::dechunk(seen).contains(needle) {
        assert!(Instant::now() < deadline, "no {needle:?} in {seen}");
        match stream.read(&mut buf) {
            Ok(0) => panic!("stream closed before {needle:?}: {seen}"),
            Ok(n) => seen.push_str(&String::from_utf8_lossy(&buf[..n])),
            Err(_) => {}
        }
    }
}

#[test]
fn a_closed_stream_stops_its_search() {
    let s = Server::start();
    let g = id(&s.create(&json!({ "variant": "tavreli" })));
    let host = s.addr;
    let mut es = TcpStream::connect(s.addr).expect("connect");
    es.set_read_timeout(Some(Duration::from_millis(200)))
        .unwrap();
    write!(
        es,
        "GET /api/games/{g}/events HTTP/1.1\r\nHost: {host}\r\nAccept: text/event-stream\r\n\r\n"
    )
    .unwrap();
    let mut seen = String::new();
    read_until(&mut es, &mut seen, "event: state");
    let (status, v) = s.act(&g, "settings", &json!({ "analyse": true, "multipv": 2 }));
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["searching"]["kind"], "analyse");
    read_until(&mut es, &mut seen, "event: info");
    read_until(&mut es, &mut seen, "\"multipv\":2");
    read_until(&mut es, &mut seen, ": heartbeat");
    // An illegal move leaves the analysis running.
    let (status, _) = s.act(&g, "move", &json!({ "move": "e2e5" }));
    assert_eq!(status, 400);
    assert_eq!(s.state(&g)["searching"]["kind"], "analyse");
    // The best line's score is kept for the eval graph.
    let scored = s.state(&g);
    assert!(
        scored["scores"][0]["cp"].is_i64() || scored["scores"][0]["mate"].is_i64(),
        "{}",
        scored["scores"]
    );
    drop(es);
    let st = s.wait_for(&g, "the search to stop", |st| st["searching"].is_null());
    assert_eq!(st["settings"]["analyse"], false);
}

#[test]
fn the_move_box_reads_san_in_every_variant() {
    let s = Server::start();
    let chess = id(&s.create(&json!({ "variant": "chess" })));
    let (status, v) = s.act(&chess, "move", &json!({ "move": "Nf3" }));
    assert_eq!(
        (status, v["history"][0]["move"].as_str()),
        (200, Some("g1f3")),
        "{v}"
    );
    // PlunderChess: SAN names the capture that declines the vest.
    let plunder = id(&s.create(&json!({
        "variant": "plunder",
        "fen": "4k3/8/8/3b4/8/2N5/8/4K3 w - - 0 1"
    })));
    let (status, v) = s.act(&plunder, "move", &json!({ "move": "Nxd5" }));
    assert_eq!(
        (status, v["history"][0]["move"].as_str()),
        (200, Some("c3d5")),
        "{v}"
    );
    // Tavreli: SAN names the top piece alone.
    let tavreli = id(&s.create(&json!({
        "variant": "tavreli",
        "fen": "4k3/8/8/8/3(NBR)4/8/8/4K3 w - - 0 1"
    })));
    let (status, v) = s.act(&tavreli, "move", &json!({ "move": "Rd8" }));
    assert_eq!(
        (status, v["history"][0]["move"].as_str()),
        (200, Some("d4d8:1")),
        "{v}"
    );
    let (status, v) = s.act(&tavreli, "move", &json!({ "move": "Qz9" }));
    assert_eq!(status, 400, "{v}");
    assert_eq!(
        s.state(&tavreli)["history"].as_array().unwrap().len(),
        1,
        "unchanged"
    );
}
