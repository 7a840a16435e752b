//! Runs a Python script of the tests (a browser journey, the load test) in
//! a process group of its own, to its end or a deadline: whatever it started
//! (a server, chromedriver, Chromium) goes with it.
#![allow(dead_code)] // each test file uses a different part of this helper

use std::io::Read;
use std::os::unix::process::CommandExt;
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
