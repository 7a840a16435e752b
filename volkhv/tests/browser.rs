//! The web board in a real browser: `tests/web/browser.py` drives headless
//! Chromium (Selenium, system chromedriver) against `volkhv serve`, playing
//! by clicks; `tests/web/library.py` keeps a game across a reload and a
//! server killed and restarted, finds it in the library page, plays the
//! rules pages' lessons and opens a shared board by its token;
//! `tests/web/review.py` chooses a level, asks a hint, reads win/draw/loss
//! and reviews a game with a hanging queen. Every move
//! they saw is checked here with movegen. It needs
//! python3+selenium, chromium and chromedriver, so it is ignored by a plain
//! `cargo test` and run by CI (`-- --include-ignored`), where a missing tool
//! fails it.

mod script;
mod server;

use script::{check_moves, run_script, screenshot_dir};
use serde_json::Value;
use server::Server;
use std::path::Path;

const SCRIPT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/web/browser.py");
const LIBRARY_SCRIPT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/web/library.py");
const REVIEW_SCRIPT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/web/review.py");

#[test]
#[ignore = "needs chromium, chromedriver and python3 with selenium; CI runs it with --include-ignored"]
fn the_board_plays_by_clicks_in_a_real_browser() {
    let server = Server::start();
    let shots = screenshot_dir();
    let stdout = run_script(
        SCRIPT,
        &[server.url.as_ref(), shots.as_os_str()],
        "browser ok",
        &shots,
    );
    let checked = check_moves(&stdout);
    // Chess: the single moves; plunder and tavreli also a whole game each.
    let [chess, plunder, tavreli] = checked;
    assert!(
        chess >= 5 && plunder >= 10 && tavreli >= 10,
        "moves checked (chess, plunder, tavreli): {checked:?}"
    );
}

#[test]
#[ignore = "needs chromium, chromedriver and python3 with selenium; CI runs it with --include-ignored"]
fn the_library_rules_and_token_in_a_real_browser() {
    let shots = screenshot_dir();
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("browser-library");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("tmp dir");
    let db = dir.join("games.db");
    let stdout = run_script(
        LIBRARY_SCRIPT,
        &[
            env!("CARGO_BIN_EXE_volkhv").as_ref(),
            db.as_os_str(),
            shots.as_os_str(),
        ],
        "library ok",
        &shots,
    );
    let checked = check_moves(&stdout);
    // Chess: the kept game, its continuation and the branch; plunder: two
    // lesson moves; tavreli: a lesson split and the shared board's move.
    assert_eq!(
        checked,
        [5, 2, 2],
        "moves checked (chess, plunder, tavreli)"
    );
}

/// The `SAW {"what": …}` lines of the review script, by `what`.
fn saw(stdout: &str, what: &str) -> Value {
    stdout
        .lines()
        .filter_map(|l| l.strip_prefix("SAW "))
        .map(|j| serde_json::from_str::<Value>(j).expect("SAW line"))
        .find(|v| v["what"] == what)
        .unwrap_or_else(|| panic!("the script saw no {what}:\n{stdout}"))
}

#[test]
#[ignore = "needs chromium, chromedriver and python3 with selenium; CI runs it with --include-ignored"]
fn level_hint_and_review_in_a_real_browser() {
    let server = Server::start();
    let shots = screenshot_dir();
    let stdout = run_script(
        REVIEW_SCRIPT,
        &[server.url.as_ref(), shots.as_os_str()],
        "review ok",
        &shots,
    );
    assert_eq!(saw(&stdout, "level")["elo"], 1350);
    assert_eq!(
        saw(&stdout, "hint")["arrow"],
        serde_json::json!(["a1", "a8"])
    );
    let wdl = saw(&stdout, "wdl");
    let permille: u64 = wdl["permille"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_u64().unwrap())
        .sum();
    assert_eq!(permille, 1000, "{wdl}");
    let review = saw(&stdout, "review");
    let mark = review["marks"]["4"].as_str().unwrap();
    assert!(["mistake", "blunder"].contains(&mark), "{review}");
    assert_ne!(
        review["better"],
        serde_json::json!(["d8", "g5"]),
        "{review}"
    );
    // The page's marks are the API's.
    let (status, api) = server.json(
        "GET",
        &format!("/api/games/{}/review", review["game"].as_str().unwrap()),
        &Value::Null,
    );
    assert_eq!(status, 200, "{api}");
    for m in api["moves"].as_array().unwrap() {
        let ply = m["ply"].to_string();
        assert_eq!(
            review["marks"][&ply], m["mark"],
            "ply {ply}: {review} vs {api}"
        );
    }
}
