//! Whole matches through the public API: real child processes (the
//! `volkhv-random` test engine, deliberately broken scripts, Fairy-Max),
//! with every PGN read back and replayed by movegen.

use matchrunner::cli;
use matchrunner::runner::{RunError, Summary};
use movegen::{status, Chess, Position};
use notation::pgn::{read_pgn, PgnGame};
use std::path::{Path, PathBuf};
use std::process::Command;

const RANDOM: &str = env!("CARGO_BIN_EXE_volkhv-random");
const MATCH: &str = env!("CARGO_BIN_EXE_volkhv-match");

fn tmp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("volkhv-match-tests-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

fn script(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/engines")
        .join(name)
        .display()
        .to_string()
}

fn run(args: &[&str]) -> Summary {
    let args: Vec<String> = args.iter().map(|s| (*s).to_string()).collect();
    let cfg = cli::parse(&args).expect("valid arguments");
    matchrunner::run(&cfg).expect("the match runs")
}

/// Replays a game from its PGN with key history and checks that the final
/// position really ends the game as the tags say.
fn check_game<P: Position>(g: &PgnGame) {
    if g.tag("FEN").is_some() {
        assert_eq!(g.tag("SetUp"), Some("1"));
    }
    let (pos, keys) = g
        .replay_with_history::<P>()
        .unwrap_or_else(|e| panic!("{e} in {g:?}"));
    assert_eq!(g.tag("PlyCount"), Some(g.moves.len().to_string().as_str()));
    assert_eq!(g.tag("Result"), Some(g.result.as_str()));
    assert_eq!(g.tag("Variant"), Some(P::VARIANT.name()));
    for t in [
        "Event",
        "Site",
        "Date",
        "Round",
        "White",
        "Black",
        "TimeControl",
        "Termination",
    ] {
        assert!(g.tag(t).is_some(), "missing tag {t}");
    }
    let resigned = g.comments.last().is_some_and(|c| c.ends_with(" resigns"));
    if g.tag("Termination") == Some("normal") && !resigned {
        let outcome = status(&pos, &keys).expect("a normal ending is a finished game");
        assert_eq!(outcome.result(), g.result);
        assert_eq!(
            g.comments.last().map(String::as_str),
            Some(outcome.reason())
        );
    }
}

fn check_chess_game(g: &PgnGame) {
    check_game::<Chess>(g);
}

/// Checks every game with the rules `P`.
fn check_all<P: Position>(games: &[PgnGame]) {
    for g in games {
        check_game::<P>(g);
    }
}

fn read_games(path: &Path) -> Vec<PgnGame> {
    let text = std::fs::read_to_string(path).unwrap();
    read_pgn(&text).unwrap()
}

#[test]
fn random_vs_random_chess_with_repeated_random_openings() {
    let pgn = tmp("random.pgn");
    let e1 = format!("cmd={RANDOM} name=r1 option.Seed=1");
    let e2 = format!("cmd={RANDOM} name=r2 option.Seed=2");
    let s = run(&[
        "--variant",
        "chess",
        "--engine",
        &e1,
        "--engine",
        &e2,
        "--nodes",
        "1",
        "--games",
        "6",
        "--repeat",
        "--random-plies",
        "6",
        "--seed",
        "7",
        "--concurrency",
        "2",
        "--pgn",
        pgn.to_str().unwrap(),
    ]);
    assert_eq!(s.tally.games(), 6);
    assert_eq!(s.tally.penta.iter().sum::<u32>(), 3);
    assert!(s.text.contains("Games: 6"), "{}", s.text);
    assert!(s.text.contains("Ptnml(0-2): ["), "{}", s.text);
    let games = read_games(&pgn);
    assert_eq!(games.len(), 6);
    let mut by_round: Vec<&PgnGame> = games.iter().collect();
    by_round.sort_by_key(|g| g.tag("Round").unwrap().parse::<u32>().unwrap());
    for g in &by_round {
        check_chess_game(g);
        assert!(g.moves.len() >= 6);
    }
    // Each pair shares its opening with colours swapped; pairs differ.
    for pair in by_round.chunks(2) {
        assert_eq!(pair[0].moves[..6], pair[1].moves[..6]);
        assert_eq!(pair[0].tag("White"), pair[1].tag("Black"));
    }
    assert_ne!(by_round[0].moves[..6], by_round[2].moves[..6]);
    // Points in the PGN agree with the tally (r1's view).
    let r1_points: u32 = games
        .iter()
        .map(
            |g| match (g.result.as_str(), g.tag("White") == Some("r1")) {
                ("1-0", true) | ("0-1", false) => 2,
                ("1/2-1/2", _) => 1,
                _ => 0,
            },
        )
        .sum();
    assert_eq!(r1_points, 2 * s.tally.wins + s.tally.draws);
}

/// volkhv-random against itself at one node in every variant this build
/// has rules for (the others are skipped with a note).
#[test]
fn random_self_play_in_every_variant() {
    for variant in movegen::Variant::ALL {
        let pgn = tmp(&format!("self-{variant}.pgn"));
        let e = format!("cmd={RANDOM} name=r option.Seed=3");
        let args: Vec<String> = [
            "--variant",
            variant.name(),
            "--engine",
            &e,
            "--engine",
            &e,
            "--nodes",
            "1",
            "--games",
            "2",
            "--repeat",
            "--random-plies",
            "4",
            "--maxmoves",
            "80",
            "--pgn",
            pgn.to_str().unwrap(),
        ]
        .iter()
        .map(|s| (*s).to_string())
        .collect();
        let cfg = cli::parse(&args).unwrap();
        match matchrunner::run(&cfg) {
            Err(RunError::Config(m)) if m.contains("not available in this build") => {
                assert_ne!(variant, movegen::Variant::Chess);
                eprintln!("note: {variant} skipped: {m}");
            }
            Err(e) => panic!("{variant}: {e:?}"),
            Ok(s) => {
                assert_eq!(s.tally.games(), 2);
                let games = read_games(&pgn);
                assert_eq!(games.len(), 2);
                movegen::with_variant!(variant, P => check_all::<P>(&games));
                for g in &games {
                    let t = g.tag("Termination").unwrap();
                    assert!(
                        t == "normal" || t == "adjudication",
                        "{variant}: {t} {:?}",
                        g.comments
                    );
                }
            }
        }
    }
}

#[test]
fn fen_and_move_list_openings() {
    let book = tmp("book.epd");
    std::fs::write(
        &book,
        "# two FENs and a move list\n\
         4k3/8/8/8/8/8/8/R3K3 w Q - 0 30\n\
         r3k3/8/8/8/8/8/8/4K3 b q - bm Kd7; id \"rook\";\n\
         e2e4 e7e5 g1f3\n",
    )
    .unwrap();
    let pgn = tmp("book.pgn");
    let e = format!("cmd={RANDOM} name=r option.Seed=5");
    let s = run(&[
        "--engine",
        &e,
        "--engine",
        &e,
        "--st",
        "1",
        "--games",
        "3",
        "--openings",
        book.to_str().unwrap(),
        "--pgn",
        pgn.to_str().unwrap(),
        "--maxmoves",
        "60",
    ]);
    assert_eq!(s.tally.games(), 3);
    let games = read_games(&pgn);
    assert_eq!(games.len(), 3);
    for g in &games {
        check_chess_game(g);
        match g.tag("Round") {
            Some("1") => {
                assert_eq!(g.tag("FEN"), Some("4k3/8/8/8/8/8/8/R3K3 w Q - 0 30"));
            }
            Some("2") => {
                assert_eq!(g.tag("FEN"), Some("r3k3/8/8/8/8/8/8/4K3 b q - 0 1"));
            }
            Some("3") => {
                assert_eq!(g.tag("FEN"), None);
                assert_eq!(g.moves[..3], ["e4", "e5", "Nf3"]);
            }
            r => panic!("unexpected round {r:?}"),
        }
        assert_eq!(g.tag("TimeControl"), Some("1/1"));
        if g.tag("Termination") == Some("adjudication") {
            assert_eq!(g.result, "1/2-1/2");
            assert!(g.comments.last().unwrap().contains("60 moves"));
        }
    }
}

/// The broken engine plays both colours against volkhv-random and must
/// lose both games with `termination` and `reason` in the PGN — which also
/// shows the engine was restarted after being killed.
fn forfeits(script_name: &str, limit: &[&str], termination: &str, reason: &str) {
    let pgn = tmp(&format!("{script_name}.pgn"));
    let good = format!("cmd={RANDOM} name=good");
    let bad = format!("cmd=sh {} name=broken", script(script_name));
    let mut args = vec!["--engine", &good, "--engine", &bad, "--games", "2"];
    args.extend_from_slice(limit);
    args.extend_from_slice(&["--pgn", pgn.to_str().unwrap()]);
    let s = run(&args);
    assert_eq!((s.tally.wins, s.tally.draws, s.tally.losses), (2, 0, 0));
    let games = read_games(&pgn);
    assert_eq!(games.len(), 2);
    for g in &games {
        check_chess_game(g);
        assert_eq!(g.tag("Termination"), Some(termination));
        let broken_white = g.tag("White") == Some("broken");
        assert_eq!(g.result, if broken_white { "0-1" } else { "1-0" });
        let comment = g.comments.last().expect("a reason comment");
        let side = if broken_white {
            "White (broken)"
        } else {
            "Black (broken)"
        };
        assert!(comment.starts_with(side), "{comment}");
        assert!(comment.contains(reason), "{comment}");
        // It failed on its first move.
        assert_eq!(g.moves.len(), usize::from(!broken_white));
    }
}

#[test]
fn illegal_move_forfeits() {
    forfeits(
        "illegal.sh",
        &["--nodes", "1"],
        "rules infraction",
        "played an illegal move e2e5",
    );
}

#[test]
fn hung_engine_forfeits_on_time_and_is_killed() {
    let started = std::time::Instant::now();
    forfeits(
        "hang.sh",
        &["--tc", "0.5+0", "--timemargin", "200"],
        "time forfeit",
        "did not reply within 0.700 s and was killed",
    );
    // Two hung moves of 0.7 s plus start-ups; a missed deadline would wait
    // for the 60 s move timeout or the 10 s handshake of a stuck restart.
    assert!(started.elapsed().as_secs() < 20, "{:?}", started.elapsed());
}

/// A slow engine (300 ms a move) at 1 s + 0: its fourth move finds under
/// 0.1 s left (plus the 0.1 s margin), so it loses on time there; with a
/// 0.3 s increment the same engine never runs short.
#[test]
fn clocks_count_down_and_increments_refill_them() {
    let pgn = tmp("clock.pgn");
    let fast = format!("cmd={RANDOM} name=fast");
    let slow = format!("cmd={RANDOM} name=slow option.Delay=300");
    let s = run(&[
        "--engine",
        &fast,
        "--engine",
        &slow,
        "--tc",
        "1+0",
        "--games",
        "2",
        "--pgn",
        pgn.to_str().unwrap(),
    ]);
    assert_eq!((s.tally.wins, s.tally.losses), (2, 0), "{}", s.text);
    for g in &read_games(&pgn) {
        check_chess_game(g);
        assert_eq!(g.tag("Termination"), Some("time forfeit"));
        let slow_white = g.tag("White") == Some("slow");
        // Three moves of the slow engine were on time, the fourth was not.
        assert_eq!(g.moves.len(), if slow_white { 6 } else { 7 }, "{g:?}");
        // What was left: 1 s − 3 × (≥ 0.3 s), plus the 0.1 s margin.
        let c = g.comments.last().unwrap();
        let secs: f64 = c
            .strip_prefix(if slow_white { "White" } else { "Black" })
            .and_then(|r| r.strip_prefix(" (slow) did not reply within "))
            .and_then(|r| r.split(' ').next())
            .and_then(|x| x.parse().ok())
            .unwrap_or_else(|| panic!("{c}"));
        assert!(secs > 0.1 && secs <= 0.2, "{c}");
    }
    let s = run(&[
        "--engine",
        &fast,
        "--engine",
        &slow,
        "--tc",
        "1+0.3",
        "--games",
        "2",
        "--maxmoves",
        "8",
    ]);
    assert_eq!(
        (s.tally.wins, s.tally.draws, s.tally.losses),
        (0, 2, 0),
        "{}",
        s.text
    );
}

#[test]
fn crashed_engine_forfeits() {
    forfeits(
        "crash.sh",
        &["--st", "1"],
        "abandoned",
        "crashed: its output ended; it exited with exit status: 3",
    );
}

/// Raw bytes from an engine never reach the PGN: its bad move is quoted
/// as printable text and the file holds no control bytes.
#[test]
fn engine_output_is_sanitised_in_the_pgn() {
    forfeits(
        "garbage.sh",
        &["--nodes", "1"],
        "rules infraction",
        "sent a malformed move e2??)x",
    );
    let bytes = std::fs::read(tmp("garbage.sh.pgn")).unwrap();
    let text = String::from_utf8(bytes).expect("the PGN is UTF-8");
    assert!(
        text.chars().all(|c| c == '\n' || !c.is_control()) && !text.contains('\u{fffd}'),
        "{text:?}"
    );
}

/// An engine that dies at start (a wrapper that cannot find its program)
/// is reported with its exit status and the end of its stderr.
#[test]
fn engine_dying_at_start_reports_status_and_stderr() {
    let e = format!("cmd={RANDOM}");
    let bad = format!("cmd=sh {} name=wrapper", script("missing.sh"));
    let (code, err) = exit(&["--engine", &e, "--engine", &bad, "--nodes", "1"]);
    assert_eq!(code, 1, "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("engine wrapper: crashed"), "{err}");
    assert!(err.contains("exit status: 127"), "{err}");
    assert!(err.contains("/nonexistent/volkhv-engine"), "{err}");
}

/// Options an engine does not offer, or refuses, stop the match at once.
#[test]
fn engine_option_errors_are_reported() {
    let e = format!("cmd={RANDOM}");
    let unknown = format!("cmd={RANDOM} name=r option.Frob=1");
    let (code, err) = exit(&["--engine", &e, "--engine", &unknown, "--nodes", "1"]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("it has no option \"Frob\" (it offers: uci_variant, seed, delay)"),
        "{err}"
    );
    let refused = format!("cmd={RANDOM} name=r option.Delay=soon");
    let (code, err) = exit(&["--engine", &e, "--engine", &refused, "--nodes", "1"]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("refused an option: info string error bad delay soon"),
        "{err}"
    );
}

/// Two games of a random mover against the XBoard script `script_name`,
/// which must lose both (checked); returns the games.
fn beats_broken_xboard_engine(script_name: &str) -> Vec<PgnGame> {
    let pgn = tmp(&format!("{script_name}.pgn"));
    let good = format!("cmd={RANDOM} name=good");
    let bad = format!("cmd=sh {} name=broken proto=xboard", script(script_name));
    let s = run(&[
        "--engine",
        &good,
        "--engine",
        &bad,
        "--st",
        "1",
        "--games",
        "2",
        "--pgn",
        pgn.to_str().unwrap(),
    ]);
    assert_eq!((s.tally.wins, s.tally.losses), (2, 0));
    let games = read_games(&pgn);
    assert_eq!(games.len(), 2);
    for g in &games {
        check_chess_game(g);
    }
    games
}

#[test]
fn xboard_engine_without_done_that_resigns() {
    for g in &beats_broken_xboard_engine("xboard-resign.sh") {
        assert_eq!(g.tag("Termination"), Some("normal"));
        assert!(
            g.comments.last().unwrap().ends_with("(broken) resigns"),
            "{g:?}"
        );
    }
}

#[test]
fn xboard_engine_rejecting_legal_moves_forfeits() {
    for g in &beats_broken_xboard_engine("xboard-reject.sh") {
        assert_eq!(g.tag("Termination"), Some("abandoned"));
        let c = g.comments.last().unwrap();
        assert!(
            c.contains("(broken) protocol error: rejected a legal move: Illegal move: "),
            "{c}"
        );
        // As white it played e4 and failed on its second move.
        let broken_white = g.tag("White") == Some("broken");
        assert_eq!(g.moves.len(), if broken_white { 2 } else { 1 }, "{g:?}");
    }
}

#[test]
fn xboard_dialogue_and_illegal_move() {
    let log = tmp("xboard.log");
    let _ = std::fs::remove_file(&log);
    let book = tmp("xb-book.epd");
    std::fs::write(&book, "4k3/8/8/8/8/8/4P3/4K3 b - - 0 1\n").unwrap();
    let pgn = tmp("xboard.pgn");
    let good = format!("cmd={RANDOM} name=good");
    let bad = format!(
        "cmd=sh {} {} name=broken proto=xboard",
        script("xboard-illegal.sh"),
        log.display()
    );
    let s = run(&[
        "--engine",
        &good,
        "--engine",
        &bad,
        "--tc",
        "3+0.5",
        "--games",
        "2",
        "--openings",
        book.to_str().unwrap(),
        "--pgn",
        pgn.to_str().unwrap(),
    ]);
    assert_eq!((s.tally.wins, s.tally.losses), (2, 0));
    let games = read_games(&pgn);
    for g in &games {
        check_chess_game(g);
        assert_eq!(g.tag("Termination"), Some("rules infraction"));
        assert!(g
            .comments
            .last()
            .unwrap()
            .ends_with("(broken) played an illegal move e2e5"));
    }
    let log = std::fs::read_to_string(&log).unwrap();
    let lines: Vec<&str> = log.lines().collect();
    // Handshake, then per game: new, level, force, setboard, ping.
    assert_eq!(lines[..2], ["xboard ", "protover 2"]);
    for want in [
        "accepted myname",
        "accepted usermove",
        "accepted done",
        "new ",
        "level 0 0:03 0.5",
        "post ",
        "force ",
        "setboard 4k3/8/8/8/8/8/4P3/4K3 b - - 0 1",
        "time 300",
        "otim 300",
        "go ",
    ] {
        assert!(lines.contains(&want), "{want:?} not sent: {lines:?}");
    }
    // In the game where the broken engine is white, black's first move
    // reaches it as `usermove` before its `go`.
    let user = lines
        .iter()
        .position(|l| l.starts_with("usermove "))
        .expect("a usermove");
    assert_eq!(lines[user + 1], "time 300");
    assert!(lines.iter().all(|l| !l.starts_with("variant")));
}

#[test]
#[ignore = "needs fairymax (apt-get install fairymax); CI runs it with --include-ignored"]
fn fairymax_over_xboard() {
    let fairymax = "/usr/games/fairymax";
    assert!(
        Path::new(fairymax).exists(),
        "{fairymax} is not installed (apt-get install fairymax)"
    );
    let pgn = tmp("fairymax.pgn");
    let e1 = format!("cmd={RANDOM} name=random");
    let e2 = format!("cmd={fairymax} name=fairymax proto=xboard");
    let s = run(&[
        "--engine",
        &e1,
        "--engine",
        &e2,
        "--tc",
        "2+0.05",
        "--timemargin",
        "500",
        "--games",
        "2",
        "--repeat",
        "--maxmoves",
        "120",
        "--pgn",
        pgn.to_str().unwrap(),
    ]);
    assert_eq!(s.tally.games(), 2);
    // Fair-Max does not lose to random moves.
    assert_eq!(s.tally.wins, 0, "{}", s.text);
    let games = read_games(&pgn);
    assert_eq!(games.len(), 2);
    for g in &games {
        check_chess_game(g);
        let t = g.tag("Termination").unwrap();
        assert!(
            t == "normal" || t == "adjudication",
            "{t}: {:?}",
            g.comments
        );
    }
}

#[test]
fn sprt_stops_the_match_with_a_verdict() {
    // The broken engine loses every game, so H1 (the first engine is
    // stronger) must be accepted long before 200 games.
    let good = format!("cmd={RANDOM} name=good");
    let bad = format!("cmd=sh {} name=broken", script("illegal.sh"));
    let s = run(&[
        "--engine",
        &good,
        "--engine",
        &bad,
        "--nodes",
        "1",
        "--games",
        "200",
        "--repeat",
        "--sprt",
        "elo0=0,elo1=10,alpha=0.05,beta=0.05",
    ]);
    assert_eq!(s.verdict, Some(matchrunner::stats::Verdict::H1));
    assert!(
        s.tally.games() < 200 && s.tally.losses == 0,
        "{:?}",
        s.tally
    );
    assert!(s.text.contains("H1 accepted"), "{}", s.text);
}

fn exit(args: &[&str]) -> (i32, String) {
    let out = Command::new(MATCH).args(args).output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn bad_options_exit_2_with_one_line() {
    let e = format!("cmd={RANDOM}");
    for (args, needle) in [
        (
            vec!["--engine", &e, "--engine", &e, "--nodes", "1", "--bogus"],
            "--bogus",
        ),
        (vec!["--engine", &e, "--engine", &e], "exactly one of"),
        (
            vec!["--engine", &e, "--engine", "name=x", "--nodes", "1"],
            "no cmd=",
        ),
        (
            vec![
                "--variant",
                "shogi",
                "--engine",
                &e,
                "--engine",
                &e,
                "--nodes",
                "1",
            ],
            "\"shogi\": expected chess, plunder or tavreli",
        ),
    ] {
        let (code, err) = exit(&args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains(needle), "{err}");
    }
    let (code, err) = exit(&[
        "--engine",
        "cmd=/nonexistent/engine",
        "--engine",
        &e,
        "--nodes",
        "1",
    ]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("cannot start"), "{err}");
}
