//! python-chess as a GUI: `chess.engine` drives volkhv over UCI and over
//! XBoard in standard chess. Skipped (with a note) where python-chess is
//! not installed; CI installs it.

mod common;

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const SCRIPT: &str = r#"
import sys
import chess
import chess.engine

path = sys.argv[1]
for name, popen in (("uci", chess.engine.SimpleEngine.popen_uci),
                    ("xboard", chess.engine.SimpleEngine.popen_xboard)):
    engine = popen(path, timeout=20)
    assert engine.id.get("name") == "Volkhv 0.1", engine.id
    board = chess.Board()
    for ply in range(8):
        limit = chess.engine.Limit(time=0.05) if ply % 2 else chess.engine.Limit(depth=2)
        result = engine.play(board, limit)
        assert result.move in board.legal_moves, (name, board.fen(), result.move)
        board.push(result.move)
    info = engine.analyse(board, chess.engine.Limit(time=0.3))
    assert "score" in info, (name, info)
    mated = chess.Board("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3")
    if name == "uci":
        result = engine.play(mated, chess.engine.Limit(depth=1))
        assert result.move is None, result
    engine.quit()
    print(name, "ok", board.fen())
"#;

fn python_chess() -> bool {
    Command::new("python3")
        .args(["-c", "import chess.engine"])
        .output()
        .is_ok_and(|o| o.status.success())
}

#[test]
#[ignore = "needs python3 with python-chess (pip install chess); CI runs it with --include-ignored"]
fn python_chess_plays_over_uci_and_xboard() {
    assert!(
        python_chess(),
        "python3 with python-chess is missing (pip install chess)"
    );
    let mut child = Command::new("python3")
        .args(["-c", SCRIPT, env!("CARGO_BIN_EXE_volkhv")])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("python3 runs");
    // A hung engine must fail the test, not the CI job's clock.
    let deadline = Instant::now() + Duration::from_secs(120);
    while child.try_wait().expect("wait on python3").is_none() {
        if Instant::now() > deadline {
            let _ = child.kill();
            break;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let out = child.wait_with_output().expect("python3 output");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "python-chess session failed:\n{stdout}\n{stderr}"
    );
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 2, "{stdout}");
    assert!(lines[0].starts_with("uci ok "), "{stdout}");
    assert!(lines[1].starts_with("xboard ok "), "{stdout}");
}
