//! The web board under load: `scripts/loadtest.py` starts `volkhv serve` on
//! a fresh library file and runs 8 clients (games, moves, hints, engine
//! replies, reviews, library pages and imports, bad input) for 10 s beside
//! idle connections, slowloris clients and open event streams. Its last line
//! is `LOADTEST {json}`; this test asks that nothing answered 5xx, no
//! ordinary request took over 1 s and the server still answered at the end.
//! It needs python3, so a plain `cargo test` lists it as ignored and CI runs
//! it with `--include-ignored`, where a missing python3 fails it.
#![cfg(feature = "web")]

use serde_json::Value;
use std::io::Read;
use std::os::unix::process::CommandExt;
use std::process::{Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

const SCRIPT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../scripts/loadtest.py");

/// The script runs 10 s and then waits at most 15 s for requests begun
/// before its deadline; anything past this bound is a hang.
const WALL_CLOCK: Duration = Duration::from_secs(150);

/// Reads a pipe to its end on a thread of its own, so that a chatty child
/// never blocks on a full pipe while this side waits for it.
fn drain(mut pipe: impl Read + Send + 'static) -> Receiver<String> {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut bytes = Vec::new();
        let _ = pipe.read_to_end(&mut bytes);
        let _ = tx.send(String::from_utf8_lossy(&bytes).into_owned());
    });
    rx
}

/// Kills the script's process group: the server it started goes with it.
fn kill_group(leader: u32) {
    let _ = Command::new("kill")
        .args(["-s", "KILL", "--", &format!("-{leader}")])
        .stderr(Stdio::null())
        .status();
}

#[test]
#[ignore = "needs python3; CI runs it with --include-ignored"]
fn the_server_stays_responsive_under_load() {
    let python = Command::new("python3").arg("--version").output();
    assert!(
        python.as_ref().is_ok_and(|o| o.status.success()),
        "the load test needs python3 on the PATH: {python:?}"
    );
    let mut child = Command::new("python3")
        .args(["-u", SCRIPT, "--binary", env!("CARGO_BIN_EXE_volkhv")])
        .args([
            "--seconds",
            "10",
            "--clients",
            "8",
            "--idle",
            "20",
            "--slow",
            "4",
        ])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0)
        .spawn()
        .expect("python3 runs");
    let stdout = drain(child.stdout.take().expect("stdout piped"));
    let stderr = drain(child.stderr.take().expect("stderr piped"));
    let started = Instant::now();
    let mut timed_out = false;
    while child.try_wait().expect("wait on python3").is_none() {
        if started.elapsed() > WALL_CLOCK {
            timed_out = true;
            break;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    kill_group(child.id());
    let status = child.wait().expect("wait on python3");
    let read = |rx: &Receiver<String>| rx.recv_timeout(Duration::from_secs(10)).unwrap_or_default();
    let output = format!("{}\n{}", read(&stdout), read(&stderr));
    assert!(
        !timed_out,
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
