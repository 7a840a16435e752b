//! XBoard / CECP v2 sessions with the real binary.

mod common;

use common::{assert_legal, game, some_moves, Session};
use engine::AnyGame;
use movegen::Variant;

const PLUNDER_FEN: &str = "4k3/8/8/3p4/8/2N(Q)5/8/4K3 w - - 0 1";
const TAVRELI_FEN: &str = "4k3/8/8/3(pR)4/8/8/8/4K3 w - - 0 1";

/// After `xboard` / `protover 2`, features read.
fn xboard() -> Session {
    let mut s = Session::start();
    s.send("xboard");
    s.send("protover 2");
    s.expect_line("feature done=1");
    s
}

/// The FEN as the `d` extension prints it (`# Fen: ...`).
fn fen_of(s: &mut Session) -> String {
    s.send("d");
    let fen = s
        .expect_prefix("# Fen: ")
        .trim_start_matches("# Fen: ")
        .to_string();
    s.expect_prefix("# Checked: ");
    fen
}

/// The move of the next `move X` line.
fn next_move(s: &mut Session) -> String {
    s.expect_prefix("move ")
        .trim_start_matches("move ")
        .to_string()
}

#[test]
fn features_are_announced() {
    let mut s = Session::start();
    s.send("xboard");
    s.send("protover 2");
    let got = s.expect_line("feature done=1");
    let variants: Vec<&str> = Variant::ALL
        .into_iter()
        .filter(|&v| AnyGame::new(v, None).is_ok())
        .map(|v| {
            if v == Variant::Chess {
                "normal"
            } else {
                v.name()
            }
        })
        .collect();
    let main = format!(
        "feature ping=1 setboard=1 usermove=1 playother=1 san=0 time=1 draw=0 sigint=0 \
         sigterm=0 reuse=1 analyze=1 colors=0 memory=1 smp=1 name=1 highlight=1 myname=\"Volkhv 0.1\" \
         variants=\"{}\"",
        variants.join(",")
    );
    let expected = [
        "feature done=0",
        main.as_str(),
        "feature option=\"MultiPV -spin 1 1 256\"",
        "feature option=\"Move Overhead -spin 30 0 5000\"",
        "feature option=\"Clear Hash -button\"",
        "feature option=\"Skill Level -spin 20 0 20\"",
        "feature option=\"UCI_LimitStrength -check 0\"",
        "feature option=\"UCI_Elo -spin 2400 500 2400\"",
        "feature option=\"Seed -spin 0 0 9223372036854775807\"",
        "feature done=1",
    ];
    assert_eq!(got, expected);
    s.send("accepted ping");
    s.send("rejected usermove");
    assert!(s.sync_xboard(1).is_empty());
    s.send("quit");
    assert!(s.wait_exit());
}

#[test]
fn a_game_as_xboard_plays_it() {
    let mut s = xboard();
    for l in [
        "memory 32",
        "cores 1",
        "new",
        "random",
        "level 0 0:30 0",
        "post",
        "hard",
        "easy",
    ] {
        s.send(l);
    }
    assert!(s.sync_xboard(1).is_empty(), "{:?}", s.log);
    s.send("force");
    s.send("computer");
    s.send("time 3000");
    s.send("otim 3000");
    s.send("go");
    let mut moves = Vec::new();
    let m = next_move(&mut s);
    assert_legal(&game(Variant::Chess, None, &moves), &m);
    // Thinking output: ply score time nodes pv.
    let think = s
        .log
        .iter()
        .find(|l| l.chars().next().is_some_and(|c| c.is_ascii_digit()));
    let think = think.expect("post prints thinking lines");
    let f: Vec<&str> = think.split_whitespace().collect();
    assert!(
        f.len() >= 5 && f[..4].iter().all(|x| x.parse::<i64>().is_ok()),
        "{think}"
    );
    moves.push(m);
    for _ in 0..3 {
        let reply = game(Variant::Chess, None, &moves).legal_strings()[0].clone();
        s.send("time 2900");
        s.send("otim 2900");
        s.send(&format!("usermove {reply}"));
        moves.push(reply);
        let m = next_move(&mut s);
        assert_legal(&game(Variant::Chess, None, &moves), &m);
        moves.push(m);
    }
    assert_eq!(fen_of(&mut s), game(Variant::Chess, None, &moves).fen());
    s.send("result 1/2-1/2 {Adjudicated}");
    s.send("usermove a7a6");
    // After a result the engine does not move, but records moves.
    let quiet = s.sync_xboard(2);
    assert!(quiet.iter().all(|l| !l.starts_with("move")), "{quiet:?}");
    s.send("quit");
    assert!(s.wait_exit());
}

#[test]
fn force_mode_never_moves_and_bare_moves_work() {
    let mut s = xboard();
    s.send("new");
    s.send("st 1");
    s.send("force");
    s.send("e2e4");
    s.send("usermove e7e5");
    s.send("g1f3");
    let quiet = s.sync_xboard(7);
    assert!(quiet.is_empty(), "{quiet:?}");
    let moves: Vec<String> = ["e2e4", "e7e5", "g1f3"]
        .iter()
        .map(|m| m.to_string())
        .collect();
    assert_eq!(fen_of(&mut s), game(Variant::Chess, None, &moves).fen());
    // `go` hands the side to move (black) to the engine.
    s.send("go");
    let m = next_move(&mut s);
    assert_legal(&game(Variant::Chess, None, &moves), &m);
}

#[test]
fn bad_input_gets_the_protocol_error_and_keeps_the_state() {
    let mut s = xboard();
    s.send("new");
    s.send("force");
    s.send("usermove e2e4");
    let before = fen_of(&mut s);
    let cases = [
        ("usermove e2e4", "Illegal move: e2e4"),
        ("usermove e7e9", "Illegal move (malformed): e7e9"),
        ("e7e4", "Illegal move: e7e4"),
        ("frobnicate 3", "Error (unknown command): frobnicate 3"),
        (
            "variant xiangqi",
            "Error (unsupported variant): variant xiangqi",
        ),
        ("level 40 x 0", "Error (bad level): level 40 x 0"),
        ("level 40", "Error (bad level): level 40"),
        ("st -1", "Error (bad st): st -1"),
        ("sd zero", "Error (bad sd): sd zero"),
        ("nps many", "Error (bad nps): nps many"),
        ("time soon", "Error (bad time): time soon"),
        ("memory 0", "Error (bad memory): memory 0"),
        ("cores lots", "Error (bad cores): cores lots"),
        ("option Frob=1", "Error (bad option): option Frob=1"),
        ("option MultiPV=0", "Error (bad option): option MultiPV=0"),
        ("usermove", "Error (usermove needs one move): usermove"),
        ("setboard", "Error (bad FEN): setboard"),
    ];
    for (line, reply) in cases {
        s.exchange(line, reply);
        assert_eq!(fen_of(&mut s), before, "after {line}");
    }
    // The FEN reader's wording belongs to movegen.
    s.send("setboard 8/8/8 w - - 0 1");
    let got = s.expect_prefix("Error (bad FEN): ");
    assert!(got.contains("board"), "{got}");
    assert_eq!(fen_of(&mut s), before);
    // Junk bytes and a long line are errors too, never a crash.
    s.send_bytes(b"\xc3\x28\x00\n");
    s.expect_prefix("Error (unknown command): ");
    s.send(&"y".repeat(5_000_000));
    s.expect_line(
        "Error (line too long): line of 5000000 bytes is longer than 4194304; ignored whole",
    );
    s.send(&"y".repeat(1000));
    s.expect_prefix("Error (unknown command): yyy");
    assert!(s.sync_xboard(3).is_empty());
    assert_eq!(fen_of(&mut s), before);
}

#[test]
fn undo_and_remove() {
    let mut s = xboard();
    s.send("new");
    s.send("force");
    s.exchange("undo", "Error (no move to undo): undo");
    for m in ["e2e4", "e7e5", "g1f3"] {
        s.send(&format!("usermove {m}"));
    }
    s.send("undo");
    assert_eq!(
        fen_of(&mut s),
        game(Variant::Chess, None, &["e2e4".into(), "e7e5".into()]).fen()
    );
    s.send("remove");
    assert_eq!(fen_of(&mut s), movegen::fen::STARTPOS);
    s.exchange("remove", "Error (no move to undo): remove");
}

#[test]
fn results_are_announced() {
    let mut s = xboard();
    s.send("new");
    s.send("force");
    for m in ["f2f3", "e7e5", "g2g4"] {
        s.send(&format!("usermove {m}"));
    }
    // The engine takes white; the user mates with black.
    s.send("playother");
    s.send("usermove d8h4");
    let got = s.sync_xboard(4);
    assert_eq!(got, ["0-1 {Black mates}"]);
    // `go` on a finished game repeats the result instead of searching.
    s.exchange("go", "0-1 {Black mates}");
    s.send("new");
    s.send("setboard k7/8/1Q6/8/8/8/8/7K w - - 0 1");
    s.send("usermove b6c7");
    assert_eq!(s.sync_xboard(5), ["1/2-1/2 {Stalemate}"]);
    s.send("setboard 8/8/8/4k3/8/8/3K4/4N3 b - - 0 1");
    s.exchange("go", "1/2-1/2 {Insufficient material}");
}

#[test]
fn ping_is_answered_during_analysis_and_search() {
    let mut s = xboard();
    s.send("new");
    s.send("force");
    s.send("usermove e2e4");
    s.send("analyze");
    s.sync_xboard(1);
    s.send("usermove e7e5");
    s.sync_xboard(2);
    s.send(".");
    s.send("undo");
    s.sync_xboard(3);
    s.send("exit");
    assert_eq!(
        fen_of(&mut s),
        game(Variant::Chess, None, &["e2e4".into()]).fen()
    );
    // `?` while thinking: the move comes at once.
    s.send("st 30");
    s.send("go");
    s.send("?");
    let m = next_move(&mut s);
    // The engine moved within the 20 s timeout though `st 30` allowed 30 s.
    assert_legal(&game(Variant::Chess, None, &["e2e4".into()]), &m);
}

#[test]
fn options_memory_and_cores_are_silent() {
    let mut s = xboard();
    for l in [
        "memory 8",
        "cores 2",
        "option MultiPV=2",
        "option Move Overhead=50",
        "option Clear Hash",
        "sd 4",
        "st 1",
        "nps 0",
        "level 40 5 0",
        "level 0 2:30 1.5",
        "time -20",
        "otim 100",
        "name Opponent",
        "rating 2000 1900",
        "computer",
        "random",
        "post",
        "nopost",
        "hard",
        "easy",
    ] {
        s.send(l);
    }
    assert!(s.sync_xboard(9).is_empty(), "{:?}", s.log);
    // Two threads, repeated go / ? cycles.
    s.send("new");
    s.send("st 1");
    s.send("force");
    let mut moves = Vec::new();
    for i in 0..6 {
        s.send("go");
        if i % 2 == 0 {
            s.send("?");
        }
        let m = next_move(&mut s);
        assert_legal(&game(Variant::Chess, None, &moves), &m);
        moves.push(m);
        s.send("force");
    }
    s.send("quit");
    assert!(s.wait_exit());
}

/// One engine-defined variant: `setup` before the pong, then a game and a
/// variant FEN with a suffixed move.
fn variant_session(v: Variant, pieces: &str, fen: &str, suffix: impl Fn(&str) -> bool) {
    let mut s = xboard();
    s.send("new");
    s.send("random");
    s.send(&format!("variant {v}"));
    s.send("level 0 0:30 0");
    let got = s.sync_xboard(1);
    let start = AnyGame::new(v, None).unwrap().fen();
    assert_eq!(got[0], format!("setup ({pieces}) 8x8+0_fairy {start}"));
    let pieces_lines: Vec<&String> = got[1..]
        .iter()
        .filter(|l| l.starts_with("piece "))
        .collect();
    if v == Variant::Tavreli {
        assert_eq!(pieces_lines, ["piece H& QN"]);
    } else {
        assert!(pieces_lines.is_empty(), "{got:?}");
    }
    s.send("force");
    let mut moves = some_moves(v, None, 3);
    for m in &moves {
        s.send(&format!("usermove {m}"));
    }
    s.send("go");
    let m = next_move(&mut s);
    assert_legal(&game(v, None, &moves), &m);
    moves.push(m);
    assert_eq!(fen_of(&mut s), game(v, None, &moves).fen());

    s.send("force");
    s.send(&format!("setboard {fen}"));
    let legal = AnyGame::new(v, Some(fen)).unwrap().legal_strings();
    let special = legal
        .iter()
        .find(|m| suffix(m))
        .expect("a suffixed move")
        .clone();
    s.send(&format!("usermove {special}"));
    let after = game(v, Some(fen), &[special]);
    assert_eq!(fen_of(&mut s), after.fen());
    s.exchange("usermove a1a1", "Illegal move: a1a1");
    assert_eq!(fen_of(&mut s), after.fen());
    s.send("go");
    let m = next_move(&mut s);
    assert_legal(&after, &m);
}

#[test]
fn plunder_session() {
    variant_session(
        Variant::Plunder,
        "PNBRQ................Kpnbrq................k",
        PLUNDER_FEN,
        |m| m.len() == 5,
    );
}

#[test]
fn tavreli_session() {
    variant_session(
        Variant::Tavreli,
        "PNBRQ.......H........Kpnbrq.......h........k",
        TAVRELI_FEN,
        |m| m.contains(':'),
    );
}

#[test]
fn normal_variant_sends_no_setup() {
    let mut s = xboard();
    s.send("new");
    s.send("variant normal");
    assert!(s.sync_xboard(1).is_empty());
    for v in [Variant::Plunder, Variant::Tavreli] {
        if AnyGame::new(v, None).is_err() {
            s.exchange(
                &format!("variant {v}"),
                &format!("Error (unsupported variant): variant {v}"),
            );
            assert_eq!(fen_of(&mut s), movegen::fen::STARTPOS);
        }
    }
}

/// `lift SQ` is answered with the piece's legal targets (`feature
/// highlight=1`), so XBoard lets a Tavreli player drop onto an own tower;
/// a square without a piece of the side to move marks nothing.
#[test]
fn lift_highlights_the_legal_targets() {
    let mut s = xboard();
    s.send("new");
    s.send("force");
    s.exchange("lift e2", "highlight 8/8/8/8/4Y3/4Y3/8/8");
    s.exchange("lift g1", "highlight 8/8/8/8/8/5Y1Y/8/8");
    s.exchange("lift e7", "highlight 8/8/8/8/8/8/8/8");
    s.exchange("lift z9", "Error (bad square): lift z9");
    s.send("variant tavreli");
    s.expect_line("piece H& QN");
    // The knight may land on its own d2 pawn; the queen on c1, c2, d2, e2.
    s.exchange("lift b1", "highlight 8/8/8/8/8/Y1Y5/3Y4/8");
    s.exchange("lift d1", "highlight 8/8/8/8/8/8/2YYY3/2Y5");
}
