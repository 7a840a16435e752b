//! Playing a friend in real browsers: `tests/web/friends.py` runs a host,
//! two seats (White in Russian, Black on a phone in Kazakh) and a watcher
//! in four headless Chromium pages through a whole short game, a draw by
//! agreement and a resignation (see the script). Every move the pages
//! showed is checked here with movegen. It needs python3 with selenium,
//! chromium and chromedriver: ignored by a plain `cargo test`, run by CI
//! (`-- --include-ignored`), where a missing tool fails it.
#![cfg(feature = "web")]

mod script;

use script::{check_moves, run_script, screenshot_dir};

const SCRIPT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/web/friends.py");

#[test]
#[ignore = "needs chromium, chromedriver and python3 with selenium; CI runs it with --include-ignored"]
fn two_seats_and_a_watcher_play_a_whole_game_in_real_browsers() {
    let shots = screenshot_dir();
    let stdout = run_script(
        SCRIPT,
        &[env!("CARGO_BIN_EXE_volkhv").as_ref(), shots.as_os_str()],
        "friends ok",
        &shots,
    );
    let [chess, _, _] = check_moves(&stdout);
    assert!(chess >= 5, "{chess} moves checked");
}
