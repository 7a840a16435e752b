//! The rules pages' lessons in a real browser: `tests/web/lessons.py`
//! drives headless Chromium (Selenium, system chromedriver) against its own
//! `volkhv serve` and plays every step of every lesson of the three
//! variants by clicks — each wrong and illegal try a step lists, then a right
//! move and the engine's reply — until every lesson is done. Every move the
//! boards showed is checked here with movegen. It needs python3+selenium,
//! chromium and chromedriver, so it is ignored by a plain `cargo test` and
//! run by CI (`-- --include-ignored`), where a missing tool fails it.
#![cfg(feature = "web")]

mod script;

use script::{check_moves, run_script, screenshot_dir};
use serde_json::Value;

const SCRIPT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/web/lessons.py");
const VARIANTS: [&str; 3] = ["chess", "plunder", "tavreli"];

/// How many steps the lessons of each variant have: each is one right move
/// at least.
fn steps_per_variant() -> [usize; 3] {
    let lessons: Value =
        serde_json::from_str(include_str!("../web/lessons.json")).expect("lessons.json");
    VARIANTS.map(|v| {
        lessons[v]["lessons"]
            .as_array()
            .expect("lessons")
            .iter()
            .map(|l| l["steps"].as_array().expect("steps").len())
            .sum()
    })
}

#[test]
#[ignore = "needs chromium, chromedriver and python3 with selenium; CI runs it with --include-ignored"]
fn every_lesson_is_played_to_its_end_by_clicks() {
    let shots = screenshot_dir();
    let stdout = run_script(
        SCRIPT,
        &[env!("CARGO_BIN_EXE_volkhv").as_ref(), shots.as_os_str()],
        "lessons ok",
        &shots,
    );
    let checked = check_moves(&stdout);
    let steps = steps_per_variant();
    for (i, variant) in VARIANTS.iter().enumerate() {
        assert!(
            checked[i] >= steps[i],
            "{variant}: {} moves checked for {} steps",
            checked[i],
            steps[i]
        );
    }
}
