//! `volkhv serve`'s play-at-your-level features over HTTP: the engine's
//! level as a setting of the game, win/draw/loss in the live search lines,
//! hints counted in the game record, and the game review (marks, better
//! moves, accuracy, NAGs in the PGN).

mod server;

use serde_json::{json, Value};
use server::{id, Server};
use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

/// 2...Qg5?? hangs the queen to the knight on f3 (Stockfish 15.1: -0.20
/// before, +6.92 after; its best move there is Nc6).
const HANGING_QUEEN: [&str; 5] = ["e2e4", "e7e5", "g1f3", "d8g5", "f3g5"];

fn error_of(v: &Value) -> &str {
    v["error"].as_str().unwrap_or("")
}

/// A game's live stream, read as parsed `info` events.
struct Stream {
    tcp: TcpStream,
    seen: String,
}

impl Stream {
    fn open(s: &Server, game: &str) -> Stream {
        let mut tcp = TcpStream::connect(s.addr).expect("connect");
        tcp.set_read_timeout(Some(Duration::from_millis(100)))
            .unwrap();
        write!(
            tcp,
            "GET /api/games/{game}/events HTTP/1.1\r\nHost: {}\r\nAccept: text/event-stream\r\n\r\n",
            s.addr
        )
        .unwrap();
        let mut st = Stream {
            tcp,
            seen: String::new(),
        };
        st.until("the first state", |seen, _| seen.contains("event: state"));
        st
    }

    /// Every `info` event so far.
    fn infos(&self) -> Vec<Value> {
        server::dechunk(&self.seen)
            .split("\n\n")
            .filter_map(|block| block.strip_prefix("event: info\ndata: "))
            .filter_map(|data| serde_json::from_str(data).ok())
            .collect()
    }

    /// Reads until `done(text, infos)` holds; panics after a while.
    fn until(&mut self, what: &str, done: impl Fn(&str, &[Value]) -> bool) {
        let deadline = Instant::now() + server::TIMEOUT;
        let mut buf = [0u8; 8192];
        while !done(&self.seen, &self.infos()) {
            assert!(Instant::now() < deadline, "no {what} in {}", self.seen);
            match self.tcp.read(&mut buf) {
                Ok(0) => panic!("stream closed before {what}: {}", self.seen),
                Ok(n) => self.seen.push_str(&String::from_utf8_lossy(&buf[..n])),
                Err(_) => {}
            }
        }
    }
}

fn kind_infos<'a>(infos: &'a [Value], kind: &str) -> Vec<&'a Value> {
    infos.iter().filter(|i| i["kind"] == kind).collect()
}

#[test]
fn the_level_is_a_setting_of_the_game_and_checked() {
    let s = Server::start();
    let st = s.create(&json!({ "variant": "chess", "elo": 1350 }));
    let g = id(&st);
    assert_eq!(st["settings"]["elo"], 1350);
    let named = st["levels"]["named"].as_array().expect("named levels");
    assert!(named.len() >= 5, "{named:?}");
    assert!(named
        .iter()
        .any(|l| l["name"] == "Casual" && l["elo"] == 1350));
    assert_eq!(
        (st["levels"]["min"].as_u64(), st["levels"]["max"].as_u64()),
        (Some(500), Some(2400))
    );
    // Out of range or not a number: 400, with the reason, nothing changed.
    for bad in [json!(100), json!(3000), json!("strong"), json!(-5)] {
        let (status, v) = s.act(&g, "settings", &json!({ "elo": bad }));
        assert_eq!(status, 400, "{bad}: {v}");
        assert!(!error_of(&v).is_empty(), "{v}");
    }
    let (_, v) = s.act(&g, "settings", &json!({ "elo": 3000 }));
    assert_eq!(error_of(&v), "elo must be between 500 and 2400, got 3000");
    assert_eq!(s.state(&g)["settings"]["elo"], 1350);
    let (status, v) = s.json("POST", "/api/games", &json!({ "elo": 499 }));
    assert_eq!(status, 400, "{v}");
    // Another level, then full strength (null); other settings stay.
    let (status, v) = s.act(&g, "settings", &json!({ "elo": 600, "engine": "black" }));
    assert_eq!(status, 200, "{v}");
    assert_eq!(
        (
            v["settings"]["elo"].as_u64(),
            v["settings"]["engine"].as_str()
        ),
        (Some(600), Some("black"))
    );
    // The library keeps it, from its first move, and names the level.
    let (status, v) = s.act(&g, "settings", &json!({ "engine": "none" }));
    assert_eq!(status, 200, "{v}");
    let (status, v) = s.act(&g, "move", &json!({ "move": "e2e4" }));
    assert_eq!(status, 200, "{v}");
    let (status, v) = s.act(&g, "settings", &json!({ "engine": "black" }));
    assert_eq!(status, 200, "{v}");
    let (_, lib) = s.json("GET", "/api/library", &Value::Null);
    let row = lib["games"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["id"] == g.as_str())
        .expect("the game is in the library");
    assert_eq!(row["settings"]["elo"], 600);
    assert_eq!(row["black"], "volkhv Beginner (Elo 600), 1000 ms/move");
    assert_eq!(row["white"], "Human");
    let (status, v) = s.act(&g, "settings", &json!({ "elo": null }));
    assert_eq!(status, 200, "{v}");
    assert!(v["settings"]["elo"].is_null(), "{v}");
    assert_eq!(v["settings"]["engine"], "black");
    let (_, lib) = s.json("GET", "/api/library", &Value::Null);
    let row = lib["games"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["id"] == g.as_str())
        .unwrap();
    assert!(row["settings"]["elo"].is_null());
    assert_eq!(row["black"], "volkhv 1000 ms/move");
}

#[test]
fn the_level_weakens_play_but_not_analysis() {
    let s = Server::start();
    // Elo 600 searches about 80 nodes a move whatever the time; full
    // strength fills the same half second with many thousands.
    let g = id(&s.create(&json!({ "variant": "chess", "elo": 600 })));
    let mut es = Stream::open(&s, &g);
    let (status, v) = s.act(
        &g,
        "settings",
        &json!({ "engine": "white", "movetime": 500 }),
    );
    assert_eq!(status, 200, "{v}");
    let st = s.wait_for(&g, "the engine's move", |st| {
        st["history"].as_array().is_some_and(|h| h.len() == 1)
    });
    es.until("the level's search lines", |_, infos| {
        !kind_infos(infos, "play").is_empty()
    });
    let played_nodes = kind_infos(&es.infos(), "play")
        .iter()
        .map(|i| i["nodes"].as_u64().unwrap())
        .max()
        .unwrap();
    assert!(
        played_nodes < 2_000,
        "a level-600 move searched {played_nodes} nodes"
    );
    assert_eq!(st["settings"]["elo"], 600);
    // Analysis of the same game at the same setting is at full strength.
    let (status, v) = s.act(
        &g,
        "settings",
        &json!({ "engine": "none", "analyse": true }),
    );
    assert_eq!(status, 200, "{v}");
    es.until("a full-strength analysis", |_, infos| {
        kind_infos(infos, "analyse")
            .iter()
            .any(|i| i["nodes"].as_u64().unwrap_or(0) > 20_000)
    });
}

#[test]
fn every_search_line_has_win_draw_loss_from_whites_view() {
    let s = Server::start();
    // White is a queen up; Black is to move.
    let fen = "4k3/8/8/8/8/8/3Q4/4K3 b - - 0 40";
    let g = id(&s.create(&json!({ "variant": "chess", "fen": fen })));
    let mut es = Stream::open(&s, &g);
    let (status, v) = s.act(&g, "settings", &json!({ "analyse": true, "multipv": 2 }));
    assert_eq!(status, 200, "{v}");
    es.until("ten search lines", |_, infos| infos.len() >= 10);
    for i in es.infos() {
        let w = &i["wdl"];
        let (win, draw, loss) = (
            w["win"].as_u64().unwrap(),
            w["draw"].as_u64().unwrap(),
            w["loss"].as_u64().unwrap(),
        );
        assert_eq!(win + draw + loss, 1000, "{i}");
        if i["multipv"] == 1 && i["depth"].as_u64().unwrap() >= 4 {
            assert!(win > 900 && loss < 20, "white's view: {i}");
        }
    }
    s.act(&g, "stop", &Value::Null);
    // The variants have models of their own.
    for variant in ["plunder", "tavreli"] {
        let g = id(&s.create(&json!({ "variant": variant })));
        let mut es = Stream::open(&s, &g);
        s.act(&g, "settings", &json!({ "analyse": true }));
        es.until("a search line", |_, infos| !infos.is_empty());
        let w = &es.infos()[0]["wdl"];
        let sum: u64 = ["win", "draw", "loss"]
            .iter()
            .map(|k| w[*k].as_u64().unwrap())
            .sum();
        assert_eq!(sum, 1000, "{variant}: {w}");
        s.act(&g, "stop", &Value::Null);
    }
}

#[test]
fn a_hint_is_a_legal_best_move_and_is_counted_in_the_pgn() {
    let s = Server::start();
    // Back-rank mate in one: the hint must find it.
    let fen = "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1";
    let g = id(&s.create(&json!({ "variant": "chess", "fen": fen })));
    let (status, h) = s.act(&g, "hint", &Value::Null);
    assert_eq!(status, 200, "{h}");
    assert_eq!(
        (h["move"].as_str(), h["text"].as_str()),
        (Some("a1a8"), Some("Ra8#"))
    );
    assert_eq!(h["ply"], 0);
    assert_eq!(
        (h["hints"]["white"].as_u64(), h["hints"]["black"].as_u64()),
        (Some(1), Some(0))
    );
    // Asking changes nothing on the board; the game's state counts it.
    let st = s.state(&g);
    assert_eq!(st["fen"], fen);
    assert_eq!(st["hints"]["white"], 1);
    // Played, the game enters the library with its hint.
    let (status, v) = s.act(&g, "move", &json!({ "move": "a1a8" }));
    assert_eq!(status, 200, "{v}");
    // Black's hint in a normal game: a legal move of the position.
    let g2 = id(&s.create(&json!({ "variant": "chess", "moves": ["e2e4"] })));
    let (status, h2) = s.act(&g2, "hint", &Value::Null);
    assert_eq!(status, 200, "{h2}");
    let st2 = s.state(&g2);
    let legal: Vec<&str> = st2["legal"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["move"].as_str().unwrap())
        .collect();
    assert!(
        legal.contains(&h2["move"].as_str().unwrap()),
        "{h2} not in {legal:?}"
    );
    let (status, v) = s.act(&g2, "move", &json!({ "move": h2["move"] }));
    assert_eq!(status, 200, "{v}");
    let (_, pgn) = s.request("GET", &format!("/api/games/{g2}/pgn"), "");
    assert!(pgn.contains("[Hints \"White 0, Black 1\"]"), "{pgn}");
    assert!(
        pgn.contains(&format!("{{hint: {}}}", h2["text"].as_str().unwrap())),
        "{pgn}"
    );
    // The library keeps it: its export has it too.
    let (_, all) = s.request("GET", "/api/library/pgn", "");
    assert!(all.contains("[Hints \"White 0, Black 1\"]"), "{all}");
    assert!(all.contains("[Hints \"White 1, Black 0\"]"), "{all}");
    // A takeback to the hint's position keeps it; one past it forgets it.
    let (status, v) = s.act(&g2, "undo", &Value::Null);
    assert_eq!(
        (status, v["hints"]["black"].as_u64()),
        (200, Some(1)),
        "{v}"
    );
    let (status, v) = s.act(&g2, "undo", &Value::Null);
    assert_eq!(
        (status, v["hints"]["black"].as_u64()),
        (200, Some(0)),
        "{v}"
    );
    // Not on the engine's turn, not after the end, no body.
    // From the start, where the engine thinks its whole 5 s (in the mate in
    // one it could mate before the request and the game would be over).
    let thinking = id(&s.create(&json!({ "variant": "chess" })));
    let (status, v) = s.act(
        &thinking,
        "settings",
        &json!({ "engine": "white", "movetime": 5000 }),
    );
    assert_eq!(status, 200, "{v}");
    let (status, v) = s.act(&thinking, "hint", &Value::Null);
    assert_eq!(status, 409, "{v}");
    assert!(error_of(&v).contains("engine's turn"), "{v}");
    let mate = id(&s.create(&json!({ "variant": "chess", "fen": fen, "moves": ["a1a8"] })));
    let (status, v) = s.act(&mate, "hint", &Value::Null);
    assert_eq!(status, 409, "{v}");
    assert!(error_of(&v).contains("over"), "{v}");
    let (status, v) = s.act(&g2, "hint", &json!({ "movetime": 5 }));
    assert_eq!(status, 400, "{v}");
}

/// Polls the review until it is done.
fn review_done(s: &Server, g: &str) -> Value {
    review_done_within(s, g, server::TIMEOUT * 2)
}

/// Polls the review until it is done, for at most `wait`.
fn review_done_within(s: &Server, g: &str, wait: Duration) -> Value {
    let deadline = Instant::now() + wait;
    loop {
        let (status, r) = s.json("GET", &format!("/api/games/{g}/review"), &Value::Null);
        assert_eq!(status, 200, "{r}");
        let p = r["progress"].as_f64().unwrap();
        assert!((0.0..=1.0).contains(&p), "{r}");
        if r["done"] == true {
            assert!((p - 1.0).abs() < 1e-9);
            return r;
        }
        assert!(r["error"].is_null(), "{r}");
        assert!(Instant::now() < deadline, "the review did not end: {r}");
        std::thread::sleep(Duration::from_millis(100));
    }
}

#[test]
fn a_review_marks_the_hanging_queen_and_the_pgn_carries_it() {
    let s = Server::start();
    let g = id(&s.create(&json!({ "variant": "chess", "moves": HANGING_QUEEN })));
    let review = format!("/api/games/{g}/review");
    let (status, v) = s.json("GET", &review, &Value::Null);
    assert_eq!(status, 409, "{v}");
    assert!(error_of(&v).contains("no review"), "{v}");
    for bad in [
        json!({ "movetime": 5 }),
        json!({ "movetime": 20_000 }),
        json!({ "depth": 3 }),
    ] {
        let (status, v) = s.json("POST", &review, &bad);
        assert_eq!(status, 400, "{bad}: {v}");
    }
    let (status, v) = s.json("POST", &review, &json!({ "movetime": 100 }));
    assert_eq!(status, 202, "{v}");
    assert_eq!(v["movetime"], 100);
    let r = review_done(&s, &g);
    let moves = r["moves"].as_array().unwrap();
    assert_eq!(moves.len(), HANGING_QUEEN.len(), "{r}");
    for (i, m) in moves.iter().enumerate() {
        assert_eq!(
            (m["ply"].as_u64(), m["move"].as_str()),
            (Some(i as u64 + 1), Some(HANGING_QUEEN[i]))
        );
        assert!(
            ["best", "good", "inaccuracy", "mistake", "blunder"]
                .contains(&m["mark"].as_str().unwrap()),
            "{m}"
        );
    }
    let queen = &moves[3];
    assert!(
        ["mistake", "blunder"].contains(&queen["mark"].as_str().unwrap()),
        "{queen}"
    );
    assert_ne!(queen["best"], "d8g5", "{queen}");
    assert!(!queen["best"].as_str().unwrap().is_empty(), "{queen}");
    let (before, after) = (
        queen["white_win_before"].as_f64().unwrap(),
        queen["white_win_after"].as_f64().unwrap(),
    );
    assert!(after - before > 0.2, "white's chance rises: {queen}");
    // Taking the queen is right.
    assert!(
        ["best", "good"].contains(&moves[4]["mark"].as_str().unwrap()),
        "{}",
        moves[4]
    );
    let (wa, ba) = (
        r["accuracy"]["white"].as_f64().unwrap(),
        r["accuracy"]["black"].as_f64().unwrap(),
    );
    assert!((0.0..=100.0).contains(&wa) && (0.0..=100.0).contains(&ba));
    assert!(wa > ba, "{r}");
    // The PGN: the mark as a NAG and the better move in a comment.
    let (_, pgn) = s.request("GET", &format!("/api/games/{g}/pgn"), "");
    let nag = if queen["mark"] == "blunder" {
        "$4"
    } else {
        "$2"
    };
    let best = format!("{{best: {}}}", queen["best_text"].as_str().unwrap());
    assert!(pgn.contains(&format!("Qg5 {nag} {best}")), "{pgn}");
    let (status, back) = s.json("POST", "/api/library/import", &json!({ "pgn": pgn }));
    assert_eq!(status, 201, "the annotated PGN reads back: {back}");
    // Other settings leave it; a move makes it stale: it is dropped.
    let (status, v) = s.act(&g, "settings", &json!({ "multipv": 2, "elo": 1000 }));
    assert_eq!(status, 200, "{v}");
    let (status, v) = s.json("GET", &review, &Value::Null);
    assert_eq!((status, &v["done"]), (200, &json!(true)), "{v}");
    let (status, v) = s.act(&g, "move", &json!({ "move": "b8c6" }));
    assert_eq!(status, 200, "{v}");
    let (status, v) = s.json("GET", &review, &Value::Null);
    assert_eq!(status, 409, "{v}");
    let (_, pgn) = s.request("GET", &format!("/api/games/{g}/pgn"), "");
    assert!(!pgn.contains(nag), "{pgn}");
}

#[test]
fn imported_games_are_reviewed_and_a_second_post_restarts() {
    let s = Server::start();
    let pgn = "[Variant \"chess\"]\n\n1. e4 e5 2. Nf3 Qg5 3. Nxg5 1-0\n";
    let (status, v) = s.json("POST", "/api/library/import", &json!({ "pgn": pgn }));
    assert_eq!(status, 201, "{v}");
    let g = v["imported"][0].as_str().unwrap().to_string();
    let review = format!("/api/games/{g}/review");
    let (status, v) = s.json("POST", &review, &json!({ "movetime": 10_000 }));
    assert_eq!(status, 202, "{v}");
    std::thread::sleep(Duration::from_millis(300));
    let (_, slow) = s.json("GET", &review, &Value::Null);
    assert_eq!(slow["done"], false, "{slow}");
    // Restarted with a short budget: done long before the slow one could be.
    let t = Instant::now();
    let (status, v) = s.json("POST", &review, &Value::Null);
    assert_eq!(status, 202, "{v}");
    assert_eq!(v["movetime"], 200);
    let r = review_done(&s, &g);
    assert!(t.elapsed() < Duration::from_secs(20), "{:?}", t.elapsed());
    assert_eq!(r["movetime"], 200);
    assert!(
        ["mistake", "blunder"].contains(&r["moves"][3]["mark"].as_str().unwrap()),
        "{r}"
    );
    // A deleted game's review is gone with it.
    let (status, _) = s.request("DELETE", &format!("/api/library/{g}"), "");
    assert_eq!(status, 200);
    let (status, _) = s.json("GET", &review, &Value::Null);
    assert_eq!(status, 404);
}

/// Morphy – Duke Karl / Count Isouard, Paris 1858: White mates by force
/// from 12. O-O-O on, through the sacrifices 13. Rxd7, 15. Bxd7+ and
/// 16. Qb8+.
const OPERA: &str = "[Event \"Paris\"]\n[White \"Paul Morphy\"]\n\
[Black \"Duke Karl / Count Isouard\"]\n[Result \"1-0\"]\n[Variant \"chess\"]\n\n\
1. e4 e5 2. Nf3 d6 3. d4 Bg4 4. dxe5 Bxf3 5. Qxf3 dxe5 6. Bc4 Nf6 7. Qb3 Qe7 \
8. Nc3 c6 9. Bg5 b5 10. Nxb5 cxb5 11. Bxb5+ Nbd7 12. O-O-O Rd8 13. Rxd7 Rxd7 \
14. Rd1 Qe6 15. Bxd7+ Nxd7 16. Qb8+ Nxb8 17. Rd8# 1-0\n";

/// Imports the Opera game on `s` and starts its review at the default
/// budget; the game's id.
fn start_opera_review(s: &Server) -> String {
    let (status, v) = s.json("POST", "/api/library/import", &json!({ "pgn": OPERA }));
    assert_eq!(status, 201, "{v}");
    let g = v["imported"][0]
        .as_str()
        .expect("an imported game")
        .to_string();
    let (status, v) = s.json("POST", &format!("/api/games/{g}/review"), &Value::Null);
    assert_eq!(status, 202, "{v}");
    g
}

/// lichess's game accuracy (lila, `AccuracyPercent.gameAccuracy`) of each
/// side, White moving first, from White's win % of every position — written
/// apart from the server's, to check it.
fn lichess_accuracy(wins: &[f64]) -> [f64; 2] {
    let moves = wins.len() - 1;
    let size = (moves / 10).clamp(2, 8);
    // One window per move: the first window `size - 2` times, then every
    // run of `size` positions.
    let mut starts = vec![0; size - 2];
    starts.extend(0..=wins.len() - size);
    let mut sums = [(0.0, 0.0, 0.0, 0.0); 2]; // Σ a·w, Σ w, Σ 1/max(a, 1), n
    for (i, &start) in starts.iter().enumerate() {
        let window = &wins[start..start + size];
        let mean = window.iter().sum::<f64>() / size as f64;
        let var = window.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / size as f64;
        let weight = var.sqrt().clamp(0.5, 12.0);
        let side = i % 2;
        let sign = if side == 0 { 1.0 } else { -1.0 };
        let lost = sign * (wins[i] - wins[i + 1]);
        let acc = if lost <= 0.0 {
            100.0
        } else {
            (103.1668100711649 * (-0.04354415386753951 * lost).exp() - 3.166924740191411 + 1.0)
                .clamp(0.0, 100.0)
        };
        let s = &mut sums[side];
        s.0 += acc * weight;
        s.1 += weight;
        s.2 += 1.0 / acc.max(1.0);
        s.3 += 1.0;
    }
    sums.map(|(aw, w, inv, n)| (aw / w + n / inv) / 2.0)
}

#[test]
fn the_opera_game_gets_the_same_review_on_any_server_and_lichess_accuracy() {
    // Two fresh servers review it at once, each with its own engines.
    let (one, two) = (Server::start(), Server::start());
    let (g1, g2) = (start_opera_review(&one), start_opera_review(&two));
    let t = Instant::now();
    let wait = server::TIMEOUT * 6; // a debug build on a busy machine
    let r1 = review_done_within(&one, &g1, wait);
    let r2 = review_done_within(&two, &g2, wait);
    eprintln!("two Opera reviews side by side: {:?}", t.elapsed());
    assert_eq!(r1["movetime"], 200, "{r1}");
    // Node budgets, fresh tables: every mark, move and number the same.
    assert_eq!(r1["moves"], r2["moves"]);
    assert_eq!(r1["accuracy"], r2["accuracy"]);
    let moves = r1["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 33, "{r1}");
    let win = |m: &Value, k: &str| m[k].as_f64().unwrap();
    // White wins by force from 12. O-O-O (ply 23) on, whoever is to move.
    for m in &moves[22..] {
        assert!(win(m, "white_win_after") >= 0.9, "{m}");
    }
    for m in &moves[23..] {
        assert!(win(m, "white_win_before") >= 0.9, "{m}");
    }
    // 16. Qb8+ is no mistake and 16… Nxb8, the only move, is best.
    assert!(
        ["best", "good"].contains(&moves[30]["mark"].as_str().unwrap()),
        "{}",
        moves[30]
    );
    assert_eq!(moves[31]["mark"], "best", "{}", moves[31]);
    // The accuracies are lichess's formula on the review's own win %.
    let mut wins = vec![100.0 * win(&moves[0], "white_win_before")];
    wins.extend(moves.iter().map(|m| 100.0 * win(m, "white_win_after")));
    let expected = lichess_accuracy(&wins);
    for (side, want) in ["white", "black"].into_iter().zip(expected) {
        let got = r1["accuracy"][side].as_f64().unwrap();
        assert!((got - want).abs() <= 1.0, "{side}: {got} vs lichess {want}");
    }
}
