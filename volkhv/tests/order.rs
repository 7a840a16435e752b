//! Commands are handled in arrival order, whatever the timing: bursts
//! written to the engine in one write, in UCI and in XBoard. Every `go` gets
//! exactly one `bestmove`, legal in the position that `go` was given, and a
//! barrier (`readyok`, `pong`) comes after everything sent before it.

mod common;

use common::{assert_legal, bestmove_of, game, Session};
use engine::AnyGame;
use movegen::Variant;

fn uci() -> Session {
    let mut s = Session::start();
    s.send("uci");
    s.expect_line("uciok");
    s
}

/// The `bestmove` lines among `lines`, as moves.
fn bestmoves(lines: &[String]) -> Vec<String> {
    lines.iter().filter_map(|l| bestmove_of(l)).collect()
}

/// The sequence of the issue report: during `go infinite`, one write of
/// `stop`, a new position, `go infinite`, `stop`, another position, `go
/// infinite`. Each search reports from its own position.
#[test]
fn stop_never_overtakes_queued_commands() {
    let mut s = uci();
    let after_e4 = game(Variant::Chess, None, &["e2e4".into()]);
    let after_e5 = game(Variant::Chess, None, &["e2e4".into(), "e7e5".into()]);
    let start = game(Variant::Chess, None, &[]);
    for _ in 0..6 {
        s.send("position startpos");
        s.send("go infinite");
        s.expect_prefix("info depth");
        s.send_bytes(
            b"stop\nposition startpos moves e2e4\ngo infinite\nstop\n\
              position startpos moves e2e4 e7e5\ngo infinite\n",
        );
        let first = s.expect_prefix("bestmove");
        let second = s.expect_prefix("bestmove");
        // The third search is still analysing after e2e4 e7e5.
        s.expect_prefix("info depth");
        s.send("stop");
        let third = s.expect_prefix("bestmove");
        assert_legal(&start, &bestmove_of(&first).unwrap());
        assert_legal(&after_e4, &bestmove_of(&second).unwrap());
        assert_legal(&after_e5, &bestmove_of(&third).unwrap());
        assert!(s.sync_uci().is_empty());
    }
}

/// 200 `go`/`stop` pairs in one write give 200 legal best moves, all before
/// the `readyok` that follows them.
fn go_stop_pairs(threads: u32) {
    let mut s = uci();
    s.send(&format!("setoption name Threads value {threads}"));
    s.send("setoption name Hash value 8");
    let moves = common::some_moves(Variant::Chess, None, 4);
    s.send(&format!("position startpos moves {}", moves.join(" ")));
    let g = game(Variant::Chess, None, &moves);
    let mut burst = String::new();
    for i in 0..200 {
        burst.push_str(if i % 2 == 0 {
            "go infinite\nstop\n"
        } else {
            "go depth 30\nstop\n"
        });
    }
    burst.push_str("isready\n");
    s.send_bytes(burst.as_bytes());
    let before = s.expect_line("readyok");
    let best = bestmoves(&before);
    assert_eq!(best.len(), 200, "threads {threads}");
    for m in &best {
        assert_legal(&g, m);
    }
    assert!(s.sync_uci().is_empty());
}

#[test]
fn two_hundred_go_stop_pairs_one_thread() {
    go_stop_pairs(1);
}

#[test]
fn two_hundred_go_stop_pairs_two_threads() {
    go_stop_pairs(2);
}

#[test]
fn two_hundred_go_stop_pairs_four_threads() {
    go_stop_pairs(4);
}

/// `readyok` comes after everything sent before it has taken effect: the
/// first search has reported (the second `go` waited for it) and the new
/// options and position are in force.
#[test]
fn readyok_follows_every_earlier_command() {
    let mut s = uci();
    s.send_bytes(
        b"position startpos\ngo depth 5\nsetoption name Hash value 2\n\
          setoption name UCI_Variant value tavreli\nposition startpos moves b1d2\n\
          go depth 1\nisready\nd\n",
    );
    let before = s.expect_line("readyok");
    let best = bestmoves(&before);
    assert!(!best.is_empty(), "{before:?}");
    assert_legal(&game(Variant::Chess, None, &[]), &best[0]);
    let fen = s.expect_prefix("Fen: ");
    let tavreli = game(Variant::Tavreli, None, &["b1d2".into()]);
    assert_eq!(fen, format!("Fen: {}", tavreli.fen()));
    // The second search may still be running; its best move comes from
    // the Tavreli position.
    let second = if best.len() > 1 {
        best[1].clone()
    } else {
        bestmove_of(&s.expect_prefix("bestmove")).unwrap()
    };
    assert_legal(&tavreli, &second);
    assert!(
        s.sync_uci().iter().all(|l| !l.starts_with("bestmove")),
        "{:?}",
        s.log
    );
}

/// Random interleavings of `position`, `go` (bounded and infinite), `stop`,
/// `ucinewgame`, `setoption` and `isready` in every variant, written in
/// bursts: the best moves come in `go` order, one per `go`, each legal in the
/// position that `go` was given.
#[test]
fn interleaved_commands_keep_their_order() {
    let mut rng = movegen::SplitMix::new(0x0dde_0dde);
    let mut s = uci();
    let mut variant = Variant::Chess;
    let mut position = AnyGame::new(variant, None).unwrap();
    let mut expected: Vec<AnyGame> = Vec::new();
    let mut script = String::new();
    for round in 0..120 {
        match rng.below(9) {
            0 => {
                variant = Variant::ALL[rng.below(Variant::ALL.len())];
                script.push_str(&format!(
                    "setoption name UCI_Variant value {}\n",
                    variant.name()
                ));
                position = AnyGame::new(variant, None).unwrap();
            }
            1 | 2 => {
                let moves = common::some_moves(variant, None, rng.below(5));
                script.push_str(&format!("position startpos moves {}\n", moves.join(" ")));
                position = game(variant, None, &moves);
            }
            3 => script.push_str(&format!("setoption name Hash value {}\n", 1 + rng.below(4))),
            4 => script.push_str("ucinewgame\n"),
            5 => script.push_str(&format!(
                "setoption name Threads value {}\n",
                1 + rng.below(2)
            )),
            6 => script.push_str("stop\n"),
            _ => {
                script.push_str(match rng.below(3) {
                    0 => "go infinite\n",
                    1 => "go depth 2\n",
                    _ => "go nodes 500\n",
                });
                expected.push(position.clone());
                if rng.below(2) == 0 {
                    script.push_str("stop\n");
                }
            }
        }
        if round % 20 == 19 {
            s.send_bytes(script.as_bytes());
            script.clear();
        }
    }
    script.push_str("stop\nisready\n");
    s.send_bytes(script.as_bytes());
    let before = s.expect_line("readyok");
    // A search started by the last `go` may still be waiting for `stop`.
    let mut best = bestmoves(&before);
    if best.len() < expected.len() {
        s.send("stop");
        best.extend(bestmoves(&s.sync_uci()));
    }
    assert_eq!(best.len(), expected.len(), "{:?}", s.log);
    for (m, g) in best.iter().zip(&expected) {
        assert_legal(g, m);
    }
}

fn xboard() -> Session {
    let mut s = Session::start();
    s.send("xboard");
    s.send("protover 2");
    s.expect_line("feature done=1");
    s
}

/// XBoard: `?` then `ping` in one write: the move comes before the pong,
/// and it is legal where the engine was asked to move.
#[test]
fn xboard_ping_after_move_now_waits_for_the_move() {
    let mut s = xboard();
    let fen = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3";
    let g = game(Variant::Chess, Some(fen), &[]);
    for n in 1..=20 {
        s.send_bytes(
            format!("new\nforce\nsetboard {fen}\nlevel 0 10 0\ngo\n?\nping {n}\n").as_bytes(),
        );
        let before = s.expect_line(&format!("pong {n}"));
        let moves: Vec<&String> = before.iter().filter(|l| l.starts_with("move ")).collect();
        assert_eq!(moves.len(), 1, "{before:?}");
        assert_legal(&g, &moves[0]["move ".len()..]);
    }
}

/// XBoard: a burst of force-mode moves, errors and pings: every pong in
/// order, errors in place, and the board as the valid commands left it.
#[test]
fn xboard_bursts_keep_their_order() {
    let mut s = xboard();
    s.send_bytes(
        b"new\nforce\nusermove e2e4\nping 1\nusermove e2e4\nping 2\nusermove e7e5\n\
          setboard 8/8 w - - 0 1\nping 3\nundo\nundo\nundo\nping 4\nusermove d2d4\nd\nping 5\n",
    );
    let one = s.expect_line("pong 1");
    assert_eq!(one.len(), 1, "{one:?}");
    let two = s.expect_line("pong 2");
    assert_eq!(two, ["Illegal move: e2e4", "pong 2"]);
    let three = s.expect_line("pong 3");
    assert_eq!(three.len(), 2);
    assert!(three[0].starts_with("Error (bad FEN): "), "{three:?}");
    let four = s.expect_line("pong 4");
    assert_eq!(four, ["Error (no move to undo): undo", "pong 4"]);
    let five = s.expect_line("pong 5");
    let fen = five
        .iter()
        .find_map(|l| l.strip_prefix("# Fen: "))
        .expect("d prints the FEN");
    assert_eq!(fen, game(Variant::Chess, None, &["d2d4".into()]).fen());
}

/// XBoard: errors during analysis change nothing: the analysis goes on
/// (thinking lines keep coming) and the board is the one analysed.
#[test]
fn xboard_errors_keep_the_analysis_running() {
    let mut s = xboard();
    s.send_bytes(b"new\nforce\nusermove e2e4\npost\nanalyze\n");
    s.expect("a thinking line", |l| {
        l.split_whitespace().count() > 4 && l.starts_with('1')
    });
    s.send_bytes(b"setboard 8/8 w - - 0 1\nusermove e2e4\nusermove zz\nremove\nping 7\n");
    let lines = s.expect_line("pong 7");
    assert!(
        lines.iter().any(|l| l.starts_with("Error (bad FEN): ")),
        "{lines:?}"
    );
    assert!(lines.contains(&"Illegal move: e2e4".to_string()));
    assert!(lines.contains(&"Illegal move (malformed): zz".to_string()));
    assert!(lines.contains(&"Error (no move to undo): remove".to_string()));
    // Later iterations of the same analysis still arrive (any depth: a
    // fast machine may have passed depth 7 before the errors were read).
    let after = s.expect("a later thinking line", |l| {
        let t: Vec<&str> = l.split_whitespace().collect();
        t.len() >= 5 && t[0].parse::<u32>().is_ok()
    });
    let last = after.last().unwrap();
    let pv: Vec<&str> = last.split_whitespace().skip(4).collect();
    let g = game(Variant::Chess, None, &["e2e4".into()]);
    assert_legal(&g, pv[0]);
    s.send("exit");
    s.sync_xboard(8);
}
