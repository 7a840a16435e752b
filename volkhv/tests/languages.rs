//! The board in Russian, Kazakh and English in a real browser:
//! `tests/web/languages.py` drives headless Chromium set to each language
//! through the Tavreli board, the library and the Tavreli rules page, and
//! checks what a person reads there (see the script). It needs python3 with
//! selenium, chromium and chromedriver, so it is ignored by a plain
//! `cargo test` and run by CI (`-- --include-ignored`), where a missing
//! tool fails it.
#![cfg(feature = "web")]

mod script;

use script::{run_script, screenshot_dir};

const SCRIPT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/web/languages.py");

#[test]
#[ignore = "needs chromium, chromedriver and python3 with selenium; CI runs it with --include-ignored"]
fn the_board_library_and_rules_read_in_russian_kazakh_and_english() {
    let shots = screenshot_dir();
    run_script(
        SCRIPT,
        &[env!("CARGO_BIN_EXE_volkhv").as_ref(), shots.as_os_str()],
        "languages ok",
        &shots,
    );
}
