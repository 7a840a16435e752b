//! Runs a Python script of the tests (a browser journey, the load test) in
//! a process group of its own, to its end or a deadline: whatever it started
//! (a server, chromedriver, Chromium) goes with it.
#![allow(dead_code)] // each test file uses a different part of this helper

use movegen::{Chess, Plunder, Position, Tavreli};
use serde_json::Value;
use std::io::Read;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

/// What a script did.
pub struct Ran {
    /// Its exit status (after a kill at the deadline, the kill's).
    pub status: ExitStatus,
    /// Everything it printed on stdout.
    pub stdout: String,
    /// Everything it printed on stderr.
    pub stderr: String,
    /// `true` if the deadline ended it.
    pub timed_out: bool,
    /// How long it ran.
    pub took: Duration,
}

/// Reads a pipe to its end on a thread of its own: a child that writes more
/// than a pipe holds must not block while this side waits for it to exit.
fn drain(mut pipe: impl Read + Send + 'static) -> Receiver<String> {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut bytes = Vec::new();
        let _ = pipe.read_to_end(&mut bytes);
        let _ = tx.send(String::from_utf8_lossy(&bytes).into_owned());
    });
    rx
}

/// What a drained pipe held; a grandchild left behind may still hold the
/// pipe open, so the wait is bounded.
fn drained(rx: &Receiver<String>) -> String {
    rx.recv_timeout(Duration::from_secs(10))
        .unwrap_or_else(|_| "(the pipe stayed open)".to_string())
}

/// Kills a process group.
fn kill_group(leader: u32) {
    let _ = Command::new("kill")
        .args(["-s", "KILL", "--", &format!("-{leader}")])
        .stderr(Stdio::null())
        .status();
}

/// `python3 -u SCRIPT ARGS…`, killed with its group after `wall`.
pub fn run_python(script: &str, args: &[&std::ffi::OsStr], wall: Duration) -> Ran {
    let mut child = Command::new("python3")
        .arg("-u")
        .arg(script)
        .args(args)
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
        if started.elapsed() > wall {
            timed_out = true;
            break;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    kill_group(child.id());
    let status = child.wait().expect("wait on python3");
    Ran {
        status,
        stdout: drained(&stdout),
        stderr: drained(&stderr),
        timed_out,
        took: started.elapsed(),
    }
}

// ---- browser scripts: tools, running, and the moves they saw ----------------

/// Why the browser scripts cannot run here, if they cannot.
pub fn missing_tools() -> Option<String> {
    for bin in ["/usr/bin/chromium", "/usr/bin/chromedriver"] {
        if !Path::new(bin).exists() {
            return Some(format!("{bin} is not installed"));
        }
    }
    let selenium = Command::new("python3")
        .args(["-c", "import selenium"])
        .output()
        .is_ok_and(|o| o.status.success());
    (!selenium).then(|| "python3 with selenium is not installed".to_string())
}

/// `true` if `mv` is legal in `before` and leads to `after`, by movegen.
pub fn check<P: Position>(before: &str, mv: &str, after: &str) -> Result<(), String> {
    let mut pos = P::from_fen(before).map_err(|e| format!("{before}: {e}"))?;
    let m = pos.parse_move(mv).map_err(|e| format!("{before}: {e}"))?;
    pos.make(m);
    if pos.fen() == after {
        Ok(())
    } else {
        Err(format!(
            "{before} + {mv} gives {}, the page showed {after}",
            pos.fen()
        ))
    }
}

/// The last lines of the script's chromedriver log (`webdriver_setup.py`
/// names it after the script), for a failure's message.
pub fn driver_log_tail(shots: &Path, script: &str) -> String {
    let stem = Path::new(script)
        .file_stem()
        .map_or_else(String::new, |s| s.to_string_lossy().into_owned());
    let log =
        std::fs::read_to_string(shots.join(format!("chromedriver-{stem}.log"))).unwrap_or_default();
    let lines: Vec<&str> = log.lines().collect();
    lines[lines.len().saturating_sub(30)..].join("\n")
}

pub fn screenshot_dir() -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("web-screenshots");
    std::fs::create_dir_all(&dir).expect("screenshot dir");
    dir
}

/// Runs a browser script (`python3 -u SCRIPT ARGS…`) to its end or its
/// deadline; panics unless it succeeds and prints `done`. Returns stdout.
pub fn run_script(script: &str, args: &[&std::ffi::OsStr], done: &str, shots: &Path) -> String {
    if let Some(why) = missing_tools() {
        panic!("the browser test cannot run: {why}");
    }
    // The script's own watchdog (240 s) fires first and prints its stacks.
    let ran = run_python(script, args, Duration::from_secs(300));
    let (status, stdout, stderr) = (ran.status, ran.stdout, ran.stderr);
    assert!(
        status.success() && stdout.contains(done),
        "browser script failed ({status}) after {:.0?}:\n{stdout}\n{stderr}\n\
         chromedriver's log ends:\n{}\nscreenshots in {}",
        ran.took,
        driver_log_tail(shots, script),
        shots.display()
    );
    stdout
}

/// Checks every `CHECK` line's move with movegen; the moves checked per
/// variant (chess, plunder, tavreli).
pub fn check_moves(stdout: &str) -> [usize; 3] {
    let mut checked = [0usize; 3];
    for line in stdout.lines() {
        let Some(json) = line.strip_prefix("CHECK ") else {
            continue;
        };
        let v: Value = serde_json::from_str(json).expect("CHECK line");
        let field = |k: &str| v[k].as_str().unwrap_or_default().to_string();
        let (before, mv, after) = (field("before"), field("move"), field("after"));
        let (result, i) = match field("variant").as_str() {
            "chess" => (check::<Chess>(&before, &mv, &after), 0),
            "plunder" => (check::<Plunder>(&before, &mv, &after), 1),
            "tavreli" => (check::<Tavreli>(&before, &mv, &after), 2),
            other => panic!("unknown variant {other}"),
        };
        if let Err(e) = result {
            panic!("{e}");
        }
        checked[i] += 1;
    }
    checked
}
