//! The game library through the HTTP API: games survive `kill -9` and a
//! restart move for move, list/filter/page/export/import/delete, one server
//! per file, a damaged, newer, read-only or full file; the token of a shared
//! board; the rules pages' legal moves.

mod server;

use serde_json::{json, Value};
use server::{id, Server};
use std::path::{Path, PathBuf};
use std::process::Command;

/// A fresh folder under the target's temporary directory.
fn tmp(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("library")
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("tmp dir");
    dir
}

fn db_arg(path: &Path) -> String {
    path.to_str().expect("UTF-8 path").to_string()
}

fn get(s: &Server, path: &str) -> (u16, Value) {
    s.json("GET", path, &Value::Null)
}

fn library(s: &Server, query: &str) -> Vec<Value> {
    let (status, v) = get(s, &format!("/api/library{query}"));
    assert_eq!(status, 200, "{v}");
    v["games"].as_array().expect("a page of games").clone()
}

/// The id of the imported game of `1. e4 e5 *`.
fn mate_copy(s: &Server) -> String {
    library(s, "")
        .iter()
        .find(|e| e["plies"] == 2 && e["origin"] == "imported")
        .and_then(|e| e["id"].as_str())
        .expect("the imported two-move game")
        .to_string()
}

fn play(s: &Server, g: &str, moves: &[&str]) -> Value {
    let mut last = Value::Null;
    for m in moves {
        let (status, v) = s.act(g, "move", &json!({ "move": m }));
        assert_eq!(status, 200, "{m}: {v}");
        last = v;
    }
    last
}

/// `volkhv serve` that must refuse to start: its exit code and stderr.
fn refused(db: &Path) -> (Option<i32>, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_volkhv"))
        .args(["serve", "--port", "0", "--db", &db_arg(db)])
        .output()
        .expect("volkhv runs");
    assert!(
        out.stdout.is_empty(),
        "nothing listens: {}",
        String::from_utf8_lossy(&out.stdout)
    );
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn games_survive_kill_and_restart_move_for_move() {
    let dir = tmp("restart");
    let db = dir.join("games.db");
    let s = Server::start_with(&["--db", &db_arg(&db)]);
    let chess = id(&s.create(&json!({ "variant": "chess" })));
    let before = play(&s, &chess, &["e2e4", "e7e5", "g1f3"]);
    // The engine's moves are kept too: a Tavreli game against it.
    let tav = s.create(&json!({ "variant": "tavreli", "engine": "black", "depth": 1 }));
    let tav = id(&tav);
    play(&s, &tav, &["e2e4"]);
    let tav_before = s.wait_for(&tav, "the engine's reply", |v| {
        v["history"].as_array().is_some_and(|h| h.len() == 2)
    });
    let setup = "4k3/8/8/8/3(PBR)4/8/8/4K3 w - - 0 1";
    let set = id(&s.create(&json!({ "variant": "tavreli", "fen": setup, "moves": ["d4d8:2"] })));
    s.kill();

    let s = Server::start_with(&["--db", &db_arg(&db)]);
    let after = s.state(&chess);
    assert_eq!(after["history"], before["history"]);
    assert_eq!(after["fen"], before["fen"]);
    assert_eq!(s.state(&tav)["history"], tav_before["history"]);
    assert_eq!(s.state(&set)["start"], setup);
    let list = library(&s, "");
    let ids: Vec<&str> = list.iter().map(|e| e["id"].as_str().unwrap()).collect();
    assert_eq!(
        ids,
        [set.as_str(), tav.as_str(), chess.as_str()],
        "newest first"
    );
    let first = &list[2];
    assert_eq!(
        (&first["variant"], &first["result"], &first["plies"]),
        (&json!("chess"), &json!("*"), &json!(3))
    );
    assert!(first["started"].as_str().unwrap().ends_with('Z'), "{first}");
    assert_eq!(list[1]["black"], "volkhv depth 1");
    assert_eq!(list[1]["white"], "Human");
    assert_eq!(library(&s, "?variant=tavreli").len(), 2);
    assert_eq!(library(&s, "?variant=chess&result=*").len(), 1);
    assert_eq!(library(&s, "?result=1-0").len(), 0);
    // The game goes on where it stopped, and a takeback is kept as well.
    play(&s, &chess, &["b8c6"]);
    let (status, v) = s.act(&chess, "undo", &Value::Null);
    assert_eq!(status, 200, "{v}");
    s.kill();
    let s = Server::start_with(&["--db", &db_arg(&db)]);
    assert_eq!(s.state(&chess)["history"], before["history"]);
}

#[test]
fn library_filters_exports_imports_and_deletes() {
    let s = Server::start();
    // A mate: the result is kept.
    let mate = id(&s.create(&json!({ "variant": "chess" })));
    play(&s, &mate, &["f2f3", "e7e5", "g2g4", "d8h4"]);
    let plunder = id(&s.create(&json!({ "variant": "plunder" })));
    play(&s, &plunder, &["e2e4"]);
    assert_eq!(library(&s, "?result=0-1").len(), 1);
    assert_eq!(library(&s, "?result=0-1")[0]["reason"], "White is mated");
    for bad in ["?variant=go", "?result=2-0"] {
        let (status, v) = get(&s, &format!("/api/library{bad}"));
        assert_eq!(status, 400, "{bad}: {v}");
    }
    let (status, all) = s.request("GET", "/api/library/pgn", "");
    assert_eq!(status, 200);
    assert_eq!(all.matches("[Event ").count(), 2, "{all}");
    assert!(
        all.contains("[Result \"0-1\"]") && all.contains("[Variant \"plunder\"]"),
        "{all}"
    );
    // Importing the export doubles the library, game for game.
    let (status, v) = s.json("POST", "/api/library/import", &json!({ "pgn": all }));
    assert_eq!(status, 201, "{v}");
    let imported: Vec<String> = v["imported"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i.as_str().unwrap().to_string())
        .collect();
    assert_eq!(imported.len(), 2);
    let list = library(&s, "");
    assert_eq!(list.len(), 4);
    assert_eq!(library(&s, "?result=0-1").len(), 2);
    let copy = list
        .iter()
        .find(|e| e["id"] == imported[0].as_str())
        .unwrap();
    assert_eq!(copy["origin"], "imported");
    assert_eq!(
        s.state(&imported[1])["history"].as_array().unwrap().len(),
        1
    );
    // The same games again: skipped and counted, not kept twice.
    let (status, v) = s.json("POST", "/api/library/import", &json!({ "pgn": all }));
    assert_eq!(status, 200, "{v}");
    assert_eq!(
        (
            v["skipped"].as_u64(),
            v["imported"].as_array().unwrap().len()
        ),
        (Some(2), 0)
    );
    assert_eq!(library(&s, "").len(), 4);
    // A bad game among good ones: the good ones are kept, the bad one named.
    let bad = "[Variant \"chess\"]\n\n1. e4 e5 *\n\n[Variant \"chess\"]\n\n1. e4 e5 2. Ke3 *\n";
    let (status, v) = s.json("POST", "/api/library/import", &json!({ "pgn": bad }));
    assert_eq!(status, 201, "{v}");
    assert_eq!(v["imported"].as_array().unwrap().len(), 1, "{v}");
    assert_eq!(v["errors"][0]["game"], 2, "{v}");
    assert!(
        v["errors"][0]["error"].as_str().unwrap().contains("ply 3"),
        "{v}"
    );
    assert_eq!(library(&s, "").len(), 5);
    let (status, v) = s.json("POST", "/api/library/import", &json!({ "pgn": "  " }));
    assert_eq!(status, 400, "{v}");
    let (status, v) = s.json(
        "DELETE",
        &format!("/api/library/{}", mate_copy(&s)),
        &Value::Null,
    );
    assert_eq!(status, 200, "{v}");
    assert_eq!(library(&s, "").len(), 4);
    // Delete: gone from the list and from the API.
    let (status, v) = s.json("DELETE", &format!("/api/library/{plunder}"), &Value::Null);
    assert_eq!(status, 200, "{v}");
    assert_eq!(library(&s, "").len(), 3);
    let (status, _) = get(&s, &format!("/api/games/{plunder}"));
    assert_eq!(status, 404);
    let (status, _) = s.json("DELETE", &format!("/api/library/{plunder}"), &Value::Null);
    assert_eq!(status, 404);
    // "New game" on a game keeps the old one under a new id; the new one
    // enters the library with its first move.
    let (status, v) = s.act(&mate, "new", &json!({ "variant": "tavreli" }));
    assert_eq!(status, 200, "{v}");
    assert_eq!(
        library(&s, "").len(),
        3,
        "a game without moves is not listed"
    );
    assert_eq!(library(&s, "?result=0-1").len(), 2);
    play(&s, &mate, &["e2e4"]);
    assert_eq!(library(&s, "").len(), 4);
}

#[test]
fn a_damaged_library_is_refused_and_left_as_it_is() {
    let dir = tmp("damaged");
    let db = dir.join("games.db");
    let junk: Vec<u8> = (0..8192u32).map(|i| (i * 7 % 251) as u8).collect();
    std::fs::write(&db, &junk).unwrap();
    let (code, err) = refused(&db);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("games.db") && err.contains("left as it is"),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "one line: {err}");
    assert_eq!(std::fs::read(&db).unwrap(), junk, "untouched");
    let names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n != "games.db.lock")
        .collect();
    assert_eq!(
        names,
        ["games.db"],
        "no journal beside it (only the lock file)"
    );
    // A real library whose table pages were overwritten: the integrity
    // check finds it.
    let broken = dir.join("broken.db");
    let s = Server::start_with(&["--db", &db_arg(&broken)]);
    let g = id(&s.create(&json!({})));
    play(&s, &g, &["e2e4"]);
    s.kill();
    // Folds the journal into the file, so that its pages are the file's.
    let conn = rusqlite::Connection::open(&broken).unwrap();
    conn.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(()))
        .unwrap();
    drop(conn);
    let mut bytes = std::fs::read(&broken).unwrap();
    assert!(bytes.len() >= 3 * 4096, "{} bytes", bytes.len());
    bytes[4096 + 8..3 * 4096].fill(0xA5);
    std::fs::write(&broken, &bytes).unwrap();
    let (code, err) = refused(&broken);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("broken.db") && err.contains("left as it is"),
        "{err}"
    );
    assert_eq!(std::fs::read(&broken).unwrap(), bytes, "untouched");
    // Another program's SQLite file is not taken over either.
    let other = dir.join("other.db");
    let conn = rusqlite::Connection::open(&other).unwrap();
    conn.execute_batch("CREATE TABLE t (x); INSERT INTO t VALUES (1);")
        .unwrap();
    drop(conn);
    let bytes = std::fs::read(&other).unwrap();
    let (code, err) = refused(&other);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("not a volkhv game library"), "{err}");
    assert_eq!(std::fs::read(&other).unwrap(), bytes);
}

#[test]
fn a_newer_library_is_refused_and_left_as_it_is() {
    let dir = tmp("newer");
    let db = dir.join("games.db");
    let s = Server::start_with(&["--db", &db_arg(&db)]);
    let g = id(&s.create(&json!({})));
    play(&s, &g, &["d2d4"]);
    s.kill();
    let conn = rusqlite::Connection::open(&db).unwrap();
    conn.pragma_update(None, "user_version", 99).unwrap();
    drop(conn);
    let bytes = std::fs::read(&db).unwrap();
    let (code, err) = refused(&db);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("newer volkhv") && err.contains("99"), "{err}");
    assert_eq!(std::fs::read(&db).unwrap(), bytes, "untouched");
}

#[test]
fn a_read_only_library_answers_with_its_reason_and_plays_nothing() {
    let dir = tmp("readonly");
    let db = dir.join("games.db");
    let s = Server::start_with(&["--db", &db_arg(&db)]);
    let g = id(&s.create(&json!({})));
    let before = play(&s, &g, &["e2e4"]);
    s.kill();
    // SQLite opens a file it may not write read-only; `mode=ro` does the
    // same for every user (root writes a 0444 file all the same).
    let uri = format!("file:{}?mode=ro", db_arg(&db));
    let s = Server::start_with(&["--db", &uri]);
    assert_eq!(s.state(&g)["history"], before["history"]);
    let (status, v) = s.act(&g, "move", &json!({ "move": "e7e5" }));
    assert_eq!(status, 507, "{v}");
    let why = v["error"].as_str().unwrap();
    assert!(
        why.contains("readonly") && why.contains("nothing was changed"),
        "{v}"
    );
    assert_eq!(s.state(&g)["history"], before["history"], "not played");
    let (status, v) = s.json("POST", "/api/games", &json!({}));
    assert_eq!(status, 507, "{v}");
    let (status, v) = s.act(&g, "undo", &Value::Null);
    assert_eq!(status, 507, "{v}");
    assert_eq!(s.state(&g)["history"], before["history"], "not taken back");
    assert_eq!(library(&s, "").len(), 1, "still readable");
}

#[test]
fn a_second_server_on_one_library_refuses_to_start() {
    let dir = tmp("two");
    let db = dir.join("games.db");
    let mut a = Server::start_with(&["--db", &db_arg(&db)]);
    let ga = id(&a.create(&json!({})));
    play(&a, &ga, &["e2e4"]);
    let (code, err) = refused(&db);
    assert_eq!(code, Some(2), "{err}");
    let pid = a.pid().to_string();
    assert!(
        err.contains(&format!(
            "the game library {} is in use by volkhv serve (pid {pid})",
            db_arg(&db)
        )),
        "{err}"
    );
    assert!(a.alive());
    play(&a, &ga, &["e7e5"]);
    // Once the first is gone (even by kill -9), the file is free.
    a.kill();
    let b = Server::start_with(&["--db", &db_arg(&db)]);
    assert_eq!(b.state(&ga)["history"].as_array().unwrap().len(), 2);
}

#[test]
fn servers_started_together_on_a_fresh_library_never_fail_on_sql() {
    for round in 0..5 {
        let dir = tmp(&format!("together-{round}"));
        let db = dir.join("games.db");
        let start = || {
            Command::new(env!("CARGO_BIN_EXE_volkhv"))
                .args(["serve", "--port", "0", "--db", &db_arg(&db)])
                .stdin(std::process::Stdio::null())
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .expect("volkhv runs")
        };
        let mut both = [start(), start()];
        // One of them serves; the other says why it does not, and nothing
        // else (no SQL error).
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
        let loser = loop {
            if let Some(i) = both
                .iter_mut()
                .position(|c| c.try_wait().unwrap().is_some())
            {
                break i;
            }
            assert!(
                std::time::Instant::now() < deadline,
                "neither server stopped"
            );
            std::thread::sleep(std::time::Duration::from_millis(20));
        };
        let out = both[loser].wait_with_output_ref();
        let winner = &mut both[1 - loser];
        assert!(
            winner.try_wait().unwrap().is_none(),
            "round {round}: the other one serves"
        );
        let _ = winner.kill();
        let _ = winner.wait();
        assert_eq!(out.0, Some(2), "round {round}: {}", out.1);
        assert!(
            out.1.contains("is in use by volkhv serve (pid "),
            "round {round}: {}",
            out.1
        );
        assert!(
            !out.1.to_lowercase().contains("sql"),
            "round {round}: {}",
            out.1
        );
    }
}

/// Exit code and stderr of a child that has exited.
trait Exited {
    fn wait_with_output_ref(&mut self) -> (Option<i32>, String);
}

impl Exited for std::process::Child {
    fn wait_with_output_ref(&mut self) -> (Option<i32>, String) {
        let status = self.wait().expect("wait");
        let mut err = String::new();
        if let Some(mut e) = self.stderr.take() {
            let _ = std::io::Read::read_to_string(&mut e, &mut err);
        }
        (status.code(), err)
    }
}

#[test]
fn a_shared_board_needs_its_token() {
    let s = Server::start_with(&["--host", "0.0.0.0", "--db", ":memory:"]);
    let token = s.token.clone().expect("a token on the first line");
    assert_eq!(token.len(), 32);
    assert!(token.bytes().all(|b| b.is_ascii_hexdigit()));
    // Without it, or with a wrong one: 403 everywhere.
    let wrong = "0".repeat(32);
    for (path, headers) in [
        ("/", vec![]),
        ("/api/library", vec![]),
        (&*format!("/?token={wrong}"), vec![]),
        (
            "/api/library",
            vec![format!("Authorization: Bearer {wrong}")],
        ),
        (
            "/main.js",
            vec![format!("Cookie: volkhv_token_{}={wrong}", s.addr.port())],
        ),
    ] {
        let headers: Vec<&str> = headers.iter().map(String::as_str).collect();
        let (status, _, body) = s.request_with("GET", path, &headers, "");
        assert_eq!(status, 403, "{path} {headers:?}: {body}");
        assert!(!body.contains(&token));
    }
    let (status, _, _) = s.request_with("POST", "/api/games", &[], "{}");
    assert_eq!(status, 403);
    // With it: as a Bearer header or in the query.
    let bearer = format!("Authorization: Bearer {token}");
    let (status, _, _) = s.request_with("GET", "/api/library", &[&bearer], "");
    assert_eq!(status, 200);
    let (status, _, _) = s.request_with("GET", &format!("/api/library?token={token}"), &[], "");
    assert_eq!(status, 200);
    // The page's first visit: a cookie, and the address without the token.
    let (status, head, _) =
        s.request_with("GET", &format!("/?variant=plunder&token={token}"), &[], "");
    assert_eq!(status, 303, "{head}");
    let name = format!("volkhv_token_{}", s.addr.port());
    let set = head
        .lines()
        .find(|l| l.to_ascii_lowercase().starts_with("set-cookie:"))
        .unwrap_or_else(|| panic!("no cookie: {head}"));
    assert!(set.contains(&format!("{name}={token}")), "{set}");
    assert!(
        set.contains("HttpOnly") && set.contains("SameSite=Strict"),
        "{set}"
    );
    assert!(
        head.lines()
            .any(|l| l.trim().eq_ignore_ascii_case("location: /?variant=plunder")),
        "{head}"
    );
    let cookie = format!("Cookie: {name}={token}");
    let (status, _, page) = s.request_with("GET", "/?variant=plunder", &[&cookie], "");
    assert_eq!(status, 200);
    assert!(
        page.contains("id=\"board\"") && !page.contains(&token),
        "the page holds no token"
    );
    // A page of another site may not change anything, even with the cookie.
    let evil = "Origin: http://evil.example";
    let (status, _, body) = s.request_with("POST", "/api/games", &[&cookie, evil], "{}");
    assert_eq!(status, 403, "{body}");
    let own = format!("Origin: http://{}", s.addr);
    let (status, _, body) = s.request_with("POST", "/api/games", &[&cookie, &own], "{}");
    assert_eq!(status, 201, "{body}");
    assert!(!body.contains(&token));
    // Printed once, on the first line, and nowhere else.
    std::thread::sleep(std::time::Duration::from_millis(200));
    assert_eq!(s.stdout().matches(&token).count(), 1, "{}", s.stdout());
    assert!(s.stdout().starts_with("listening on http://0.0.0.0:"));
    assert!(!s.stderr().contains(&token), "{}", s.stderr());
}

#[test]
fn on_loopback_no_token_is_asked() {
    let s = Server::start();
    assert!(s.token.is_none());
    let (status, _) = get(&s, "/api/library");
    assert_eq!(status, 200);
}

#[test]
fn the_rules_pages_positions_come_from_the_engine() {
    let s = Server::start();
    // A knight takes a bishop in PlunderChess: with or without its vest.
    let fen = "4k3/8/8/3b4/8/2N5/8/4K3 w - - 0 1";
    let (status, v) = get(&s, &format!("/api/legal?variant=plunder&fen={}", enc(fen)));
    assert_eq!(status, 200, "{v}");
    let takes: Vec<&str> = v["legal"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["from"] == "c3" && m["to"] == "d5")
        .map(|m| m["move"].as_str().unwrap())
        .collect();
    assert_eq!(takes.len(), 2, "{takes:?}");
    assert!(takes.contains(&"c3d5b"), "{takes:?}");
    // Step by step: the moves so far are replayed.
    let (status, v) = get(
        &s,
        &format!("/api/legal?variant=plunder&fen={}&moves=c3d5b", enc(fen)),
    );
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["history"].as_array().unwrap().len(), 1);
    assert_eq!(v["turn"], "black");
    for bad in [
        "/api/legal?variant=plunder&fen=nonsense",
        "/api/legal?variant=xiangqi",
        "/api/legal?variant=chess&moves=e2e5",
    ] {
        let (status, v) = get(&s, bad);
        assert_eq!(status, 400, "{bad}: {v}");
    }
    // Nothing of it is kept.
    assert!(library(&s, "").is_empty());
}

fn enc(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// Every lesson of the rules pages, step by step, by the engine's rules:
/// each position is one the engine accepts (a FEN written back as given),
/// the square a step lights has moves, every right and wrong move a step
/// names is legal and every illegal try is not, the result a step promises
/// holds, and the next step is checked after every right move and every
/// reply the engine could give, so that no way through a lesson leaves it.
#[test]
fn every_lesson_of_the_rules_pages_is_a_legal_position() {
    let s = Server::start();
    let lessons: Value =
        serde_json::from_str(include_str!("../web/lessons.json")).expect("lessons.json");
    let legal = |variant: &str, fen: &str, moves: &[String]| -> Value {
        let path = format!(
            "/api/legal?variant={variant}&fen={}&moves={}",
            enc(fen),
            enc(&moves.join(","))
        );
        let (status, st) = get(&s, &path);
        assert_eq!(status, 200, "{variant} {fen} {moves:?}: {st}");
        st
    };
    let no_map = serde_json::Map::new();
    let mut steps = 0;
    for variant in ["chess", "plunder", "tavreli"] {
        let v = &lessons[variant];
        assert!(v["title"].is_string(), "{variant}");
        assert!(!v["intro"].as_array().unwrap().is_empty(), "{variant}");
        for lesson in v["lessons"].as_array().unwrap() {
            let title = lesson["title"].as_str().unwrap();
            assert!(
                lesson["text"].is_string() && lesson["done"].is_string(),
                "{title}"
            );
            let all = lesson["steps"].as_array().unwrap();
            assert!(!all.is_empty(), "{title}");
            let fen = lesson["fen"].as_str().unwrap();
            assert_eq!(
                legal(variant, fen, &[])["fen"],
                fen,
                "{title}: written back as given"
            );
            // Every way the lesson can have gone so far: the FEN its step
            // started from and the moves since.
            let mut ways = vec![(fen.to_string(), Vec::<String>::new())];
            for (k, step) in all.iter().enumerate() {
                let at = format!("{variant} \"{title}\" step {k}");
                assert!(step["say"].is_string(), "{at}");
                if let Some(fen) = step["fen"].as_str() {
                    assert_eq!(legal(variant, fen, &[])["fen"], fen, "{at}: written back");
                    ways = vec![(fen.to_string(), Vec::new())];
                }
                let right = step["right"].as_object().expect("right moves");
                let wrong = step["wrong"].as_object().unwrap_or(&no_map);
                let illegal = step["illegal"].as_object().unwrap_or(&no_map);
                assert!(!right.is_empty(), "{at}");
                let mut next = Vec::new();
                for (fen, moves) in &ways {
                    let st = legal(variant, fen, moves);
                    let at = format!("{at} after {moves:?}");
                    assert!(st["status"].is_null(), "{at}: the game is over: {st}");
                    let list = st["legal"].as_array().unwrap();
                    let has = |mv: &str| list.iter().any(|m| m["move"] == mv);
                    if let Some(sq) = step["select"].as_str() {
                        assert!(list.iter().any(|m| m["from"] == sq), "{at}: {sq} lit");
                    }
                    for mv in wrong.keys() {
                        assert!(has(mv) && !right.contains_key(mv), "{at}: wrong {mv}");
                    }
                    for key in illegal.keys() {
                        assert_eq!(key.len(), 4, "{at}: illegal {key} is two squares");
                        let (from, to) = key.split_at(2);
                        let joined = list.iter().any(|m| m["from"] == from && m["to"] == to);
                        assert!(!joined, "{at}: {key} is legal in {}", st["fen"]);
                    }
                    let played: Vec<String> = if right.contains_key("*") {
                        let all = list.iter().map(|m| m["move"].as_str().unwrap().to_string());
                        all.filter(|m| !wrong.contains_key(m)).collect()
                    } else {
                        for mv in right.keys() {
                            assert!(has(mv), "{at}: right {mv} is not legal in {}", st["fen"]);
                        }
                        right.keys().cloned().collect()
                    };
                    for mv in played {
                        let mut after = moves.clone();
                        after.push(mv);
                        let st = legal(variant, fen, &after);
                        if step["reply"] == true && st["status"].is_null() {
                            for reply in st["legal"].as_array().unwrap() {
                                let mut then = after.clone();
                                then.push(reply["move"].as_str().unwrap().to_string());
                                next.push((fen.clone(), then));
                            }
                        } else {
                            next.push((fen.clone(), after));
                        }
                    }
                }
                if let Some(want) = step["result"].as_str() {
                    for (fen, moves) in &next {
                        let st = legal(variant, fen, moves);
                        let got = st["status"]["result"].as_str().unwrap_or("*");
                        assert_eq!(got, want, "{at}: the result after {moves:?}");
                    }
                }
                assert!(next.len() <= 2000, "{at}: {} ways", next.len());
                ways = next;
                steps += 1;
            }
        }
        let (status, page) = s.request("GET", &format!("/rules.html?variant={variant}"), "");
        assert_eq!(status, 200);
        assert!(page.contains("rules.js"));
    }
    assert!(steps >= 60, "{steps} steps");
    let (status, page) = s.request("GET", "/library.html", "");
    assert_eq!(status, 200);
    assert!(page.contains("library-table"));
    let (_, board) = s.request("GET", "/", "");
    assert!(board.contains("href=\"/rules.html\"") && board.contains("href=\"/library.html\""));
}

/// A PGN file as players have them: `n` games with variations, comments of
/// both kinds, NAGs, clock and eval comments, one illegal game (number
/// `bad`), and no result token after the last game.
fn players_file(n: usize, bad: usize) -> String {
    let mut out = String::new();
    for i in 1..=n {
        out.push_str(&format!(
            "[Event \"club {i}\"]\n[White \"Ann {i}\"]\n[Black \"Ivan\"]\n[Result \"1-0\"]\n\n"
        ));
        if i == bad {
            out.push_str("1. e4 e5 2. Ke3 1-0\n\n");
        } else {
            out.push_str(
                "1. e4 {[%clk 0:05:00]} e5 (1... c5 2. Nf3 (2. c3) d6) 2. Nf3 $1 ; a plan\n\
                 Nc6?! {[%eval 0.31]} 3. Bb5 a6 $6 4. Ba4",
            );
            out.push_str(if i == n { "\n" } else { " 1-0\n\n" });
        }
    }
    out
}

#[test]
fn a_players_file_of_10001_games_is_imported_in_one_request_and_paged() {
    let dir = tmp("big");
    let db = dir.join("games.db");
    let s = Server::start_with(&["--db", &db_arg(&db)]);
    let text = players_file(10_001, 5_000);
    let (status, v) = s.json("POST", "/api/library/import", &json!({ "pgn": text }));
    assert_eq!(
        status,
        201,
        "{}",
        &v.to_string()[..400.min(v.to_string().len())]
    );
    assert_eq!(v["imported"].as_array().unwrap().len(), 10_000);
    assert_eq!(
        v["errors"],
        json!([{
            "game": 5000,
            "error": v["errors"][0]["error"],
            "key": "pgn.illegal",
            "values": { "ply": "3", "move": "Ke3" },
        }])
    );
    assert!(
        v["errors"][0]["error"].as_str().unwrap().contains("ply 3"),
        "{}",
        v["errors"]
    );
    // The last game, without a result token, is there with its moves.
    let last = v["imported"][9_999].as_str().unwrap();
    let st = s.state(last);
    assert_eq!(st["history"].as_array().unwrap().len(), 7);
    // The first page, then the next, newest first, never the whole library.
    let t = std::time::Instant::now();
    let (status, page) = get(&s, "/api/library");
    let took = t.elapsed();
    assert_eq!(status, 200);
    assert!(took < std::time::Duration::from_secs(1), "{took:?}");
    eprintln!("the library's first page of 10,000 games: {took:?}");
    assert_eq!(page["total"], 10_000);
    assert_eq!(page["games"].as_array().unwrap().len(), 50);
    let (_, next) = get(&s, "/api/library?limit=20&offset=50");
    let ids = |p: &Value| -> Vec<String> {
        p["games"]
            .as_array()
            .unwrap()
            .iter()
            .map(|g| g["id"].as_str().unwrap().to_string())
            .collect()
    };
    let first = ids(&page);
    let second = ids(&next);
    assert_eq!(second.len(), 20);
    assert!(
        first.iter().all(|i| !second.contains(i)),
        "pages do not overlap"
    );
    assert_eq!(
        page["games"][0]["white"], "Ann 10001",
        "newest (last imported) first"
    );
    assert_eq!(page["games"][0]["tags"][0], json!(["Event", "club 10001"]));
    for bad in ["?limit=-1", "?limit=501", "?offset=x"] {
        let (status, v) = get(&s, &format!("/api/library{bad}"));
        assert_eq!(status, 400, "{bad}: {v}");
    }
    // The same file as a PGN body: every game is already there.
    let (status, _, body) = {
        let req = format!(
            "POST /api/library/import HTTP/1.1\r\nHost: {}\r\nConnection: close\r\nContent-Type: application/x-chess-pgn\r\nContent-Length: {}\r\n\r\n{}",
            s.addr,
            text.len(),
            text
        );
        s.raw_full(req.as_bytes())
    };
    assert_eq!(status, 200, "{}", &body[..300.min(body.len())]);
    let v: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(v["skipped"], 10_000);
    assert_eq!(v["error_count"], 1);
}

#[test]
fn a_full_library_refuses_the_move_and_keeps_the_game_as_it_was() {
    let dir = tmp("full");
    let db = dir.join("games.db");
    {
        // A library with a game, made without a limit.
        let s = Server::start_with(&["--db", &db_arg(&db)]);
        let g = id(&s.create(&json!({})));
        play(&s, &g, &["e2e4"]);
        s.kill();
    }
    // The same file on a disk that fills up: the process may not grow any
    // file past 256 KiB (SIGXFSZ ignored, so a write fails as on a full
    // disk instead of killing the process).
    let mut cmd = Command::new("bash");
    cmd.args([
        "-c",
        "trap '' XFSZ; ulimit -f 256; exec \"$0\" serve --port 0 --db \"$1\"",
        env!("CARGO_BIN_EXE_volkhv"),
        &db_arg(&db),
    ]);
    let s = Server::start_command(cmd);
    let g = library(&s, "")[0]["id"].as_str().unwrap().to_string();
    // A move and its takeback, again and again: each is written.
    let mut refused = None;
    for i in 0..5000 {
        let before = s.state(&g);
        let (status, v) = if i % 2 == 0 {
            s.act(&g, "move", &json!({ "move": "e7e5" }))
        } else {
            s.act(&g, "undo", &Value::Null)
        };
        if status != 200 {
            refused = Some((status, v, before));
            break;
        }
    }
    let (status, v, before) = refused.expect("the disk fills up");
    assert_eq!(status, 507, "{v}");
    let why = v["error"].as_str().unwrap();
    assert!(
        why.contains("cannot store") && why.contains("nothing was changed"),
        "{why}"
    );
    let now = s.state(&g);
    assert_eq!(now["history"], before["history"], "not played in memory");
    assert!(s.request("GET", "/", "").0 == 200, "still serving");
    s.kill();
    // On disk: the game as the page last saw it.
    let again = Server::start_with(&["--db", &db_arg(&db)]);
    assert_eq!(
        again.state(&g)["history"],
        before["history"],
        "on disk as it was"
    );
}
