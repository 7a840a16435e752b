//! The web board under load: `scripts/loadtest.py` starts `volkhv serve` on
//! a fresh library file and runs 8 clients (games, moves, hints, engine
//! replies, reviews, library pages and imports, bad input) for 10 s beside
//! idle connections, slowloris clients and open event streams. Its last line
//! is `LOADTEST {json}`; this test asks that nothing answered 5xx, no
//! ordinary request took over 1 s and the server still answered at the end.
//! It needs python3, so a plain `cargo test` lists it as ignored and CI runs
//! it with `--include-ignored`, where a missing python3 fails it.
#![cfg(feature = "web")]

mod script;

use serde_json::Value;
use std::time::Duration;

const SCRIPT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../scripts/loadtest.py");

/// The script runs 10 s and then waits at most 15 s for requests begun
/// before its deadline; anything past this bound is a hang.
const WALL_CLOCK: Duration = Duration::from_secs(150);

#[test]
#[ignore = "needs python3; CI runs it with --include-ignored"]
fn the_server_stays_responsive_under_load() {
    let python = std::process::Command::new("python3")
        .arg("--version")
        .output();
    assert!(
        python.as_ref().is_ok_and(|o| o.status.success()),
        "the load test needs python3 on the PATH: {python:?}"
    );
    let args = [
        "--binary",
        env!("CARGO_BIN_EXE_volkhv"),
        "--seconds",
        "10",
        "--clients",
        "8",
        "--idle",
        "20",
        "--slow",
        "4",
    ];
    let args: Vec<&std::ffi::OsStr> = args.iter().map(std::ffi::OsStr::new).collect();
    let ran = script::run_python(SCRIPT, &args, WALL_CLOCK);
    let status = ran.status;
    let output = format!("{}\n{}", ran.stdout, ran.stderr);
    assert!(
        !ran.timed_out,
        "the load test ran over {WALL_CLOCK:?}:\n{output}"
    );
    let line = output
        .lines()
        .rev()
        .find_map(|l| l.strip_prefix("LOADTEST "))
        .unwrap_or_else(|| panic!("no LOADTEST line ({status}):\n{output}"));
    let totals: Value = serde_json::from_str(line)
        .unwrap_or_else(|e| panic!("LOADTEST line is not JSON ({e}):\n{output}"));
    let count = |key: &str| {
        totals[key]
            .as_u64()
            .unwrap_or_else(|| panic!("LOADTEST has no count \"{key}\":\n{output}"))
    };
    assert_eq!(count("5xx"), 0, "answers with 5xx:\n{output}");
    assert_eq!(count("stalls"), 0, "requests over 1 s:\n{output}");
    assert_eq!(count("errors"), 0, "requests without an answer:\n{output}");
    assert_eq!(
        totals["alive"],
        Value::Bool(true),
        "the server did not answer at the end:\n{output}"
    );
    assert!(count("requests") > 100, "too few requests:\n{output}");
    assert!(
        status.success(),
        "the load test failed ({status}):\n{output}"
    );
}
