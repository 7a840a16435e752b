//! A player's path in a real browser, desktop and phone sizes:
//! `tests/web/journeys.py` (headless Chromium) plays the computer at
//! Beginner through New game and a variant switch in all three variants,
//! goes to the library and back, keeps a Tavreli page open through a server
//! killed and restarted, and measures every page against a phone's width
//! (desktop in English, phones in Russian and Kazakh).
//! Every move it saw is checked here with movegen. It needs python3 with
//! selenium, chromium and chromedriver: ignored by a plain `cargo test`, run
//! by CI (`-- --include-ignored`), where a missing tool fails it.
#![cfg(feature = "web")]

mod script;

use script::{check_moves, run_script, screenshot_dir};

const SCRIPT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/web/journeys.py");

#[test]
#[ignore = "needs chromium, chromedriver and python3 with selenium; CI runs it with --include-ignored"]
fn a_players_path_never_breaks_at_desktop_and_phone_size() {
    let work = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("journeys");
    std::fs::create_dir_all(&work).expect("work dir");
    let shots = screenshot_dir();
    let stdout = run_script(
        SCRIPT,
        &[
            env!("CARGO_BIN_EXE_volkhv").as_ref(),
            work.as_os_str(),
            shots.as_os_str(),
        ],
        "journeys ok",
        &shots,
    );
    let [chess, plunder, tavreli] = check_moves(&stdout);
    // Three sizes: each variant's e2e4 and reply, and the restart's three
    // Tavreli moves at two of them.
    assert!(
        chess >= 6 && plunder >= 6 && tavreli >= 12,
        "{chess} {plunder} {tavreli}"
    );
}
