//! Property tests of both shims: random interleavings of commands (valid,
//! invalid and garbage) go through the real event loop with real searches,
//! in one burst. Whatever the timing: nothing panics, every `go` gets one
//! best move, legal in the position that `go` was given, and `d` shows the
//! last valid position. A model of the game state, kept with movegen from
//! the script alone, says what each answer must be.

use crate::shell::{self, Input, Out, Searches, Shim};
use crate::uci::Uci;
use crate::xboard::XBoard;
use engine::AnyGame;
use movegen::Variant;
use proptest::prelude::*;
use std::sync::mpsc;

/// Runs `lines` through the event loop as one burst followed by end of
/// input, and returns everything printed.
fn run(make: impl FnOnce(Out, Searches) -> Box<dyn Shim>, lines: &[String]) -> Vec<String> {
    let buf = shell::Capture::default();
    let (tx, rx) = mpsc::channel();
    let mut shim = make(buf.out(), Searches::new(tx.clone()));
    for l in lines {
        tx.send(Input::Line(l.clone())).unwrap();
    }
    tx.send(Input::Eof).unwrap();
    shell::run(shim.as_mut(), &[], &rx);
    buf.take()
}

/// One step of a script, before it is written out against the model.
#[derive(Clone, Debug)]
enum Step {
    /// A legal line of `n` plies from the start (chosen by `seed`).
    Position(usize, u64),
    /// A position line the engine must refuse.
    BadPosition(usize),
    Variant(usize),
    Go(usize),
    Stop,
    IsReady,
    PonderHit,
    NewGame,
    SetOption(usize),
    Display,
    Garbage(String),
}

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        3 => (0usize..6, any::<u64>()).prop_map(|(n, s)| Step::Position(n, s)),
        1 => (0usize..4).prop_map(Step::BadPosition),
        1 => (0usize..3).prop_map(Step::Variant),
        4 => (0usize..9).prop_map(Step::Go),
        3 => Just(Step::Stop),
        2 => Just(Step::IsReady),
        1 => Just(Step::PonderHit),
        1 => Just(Step::NewGame),
        1 => (0usize..9).prop_map(Step::SetOption),
        1 => Just(Step::Display),
        1 => "[a-z0-9 =:()/-]{0,24}".prop_map(Step::Garbage),
    ]
}

/// A few plies chosen from the legal moves by a seed.
fn some_moves(variant: Variant, plies: usize, mut seed: u64) -> (Vec<String>, AnyGame) {
    let mut g = AnyGame::new(variant, None).unwrap();
    let mut moves = Vec::new();
    for _ in 0..plies {
        let legal = g.legal_strings();
        if legal.is_empty() {
            break;
        }
        seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
        let m = legal[usize::try_from(seed >> 33).unwrap() % legal.len()].clone();
        g.play(&m).unwrap();
        moves.push(m);
    }
    (moves, g)
}

/// Words a garbage line must not start with: they would be real commands.
const COMMANDS: [&str; 14] = [
    "uci",
    "isready",
    "ucinewgame",
    "setoption",
    "position",
    "go",
    "stop",
    "ponderhit",
    "quit",
    "d",
    "bench",
    "debug",
    "register",
    "eval",
];

/// The UCI script for `steps` and, per `go`, the position it was given,
/// and per `d`, the FEN it must show.
fn uci_script(steps: &[Step]) -> (Vec<String>, Vec<AnyGame>, Vec<String>) {
    let mut variant = Variant::Chess;
    let mut game = AnyGame::new(variant, None).unwrap();
    let (mut lines, mut gos, mut fens) = (Vec::new(), Vec::new(), Vec::new());
    for s in steps {
        match s {
            Step::Position(n, seed) => {
                let (moves, g) = some_moves(variant, *n, *seed);
                lines.push(format!("position startpos moves {}", moves.join(" ")));
                game = g;
            }
            Step::BadPosition(k) => lines.push(
                [
                    "position startpos moves a1a1",
                    "position fen 8/8 w - - 0 1",
                    "position startpos moves e2e4 e2e4",
                    "position fen k16/8/8/8/8/8/8/K7 w - - 0 1",
                ][*k]
                    .to_string(),
            ),
            Step::Variant(v) => {
                variant = Variant::ALL[*v];
                game = AnyGame::new(variant, None).unwrap();
                lines.push(format!(
                    "setoption name UCI_Variant value {}",
                    variant.name()
                ));
            }
            Step::Go(k) => {
                let legal = game.legal_strings();
                let first = legal.first().cloned().unwrap_or_default();
                lines.push(match k {
                    0 => "go depth 2".to_string(),
                    1 => "go nodes 300".to_string(),
                    2 => "go movetime 5".to_string(),
                    3 => "go infinite".to_string(),
                    4 => "go ponder movetime 5".to_string(),
                    5 => "go depth -1".to_string(),
                    6 => "go nodes x".to_string(),
                    7 => "go wtime 40 btime 40 movestogo 0".to_string(),
                    _ => format!("go searchmoves {first} a1a1 depth 2"),
                });
                gos.push(game.clone());
            }
            Step::Stop => lines.push("stop".into()),
            Step::IsReady => lines.push("isready".into()),
            Step::PonderHit => lines.push("ponderhit".into()),
            Step::NewGame => lines.push("ucinewgame".into()),
            Step::SetOption(k) => lines.push(
                [
                    "setoption name Hash value 2",
                    "setoption name Hash value 0",
                    "setoption name Threads value 2",
                    "setoption name Threads value 1",
                    "setoption name MultiPV value 2",
                    "setoption name MultiPV value 1",
                    "setoption name Clear Hash",
                    "setoption name UCI_Variant value shogi",
                    "setoption name Frob value 1",
                ][*k]
                    .to_string(),
            ),
            Step::Display => {
                lines.push("d".into());
                fens.push(game.fen());
            }
            Step::Garbage(g) => {
                let first = g.split_whitespace().next().unwrap_or("");
                if !COMMANDS.contains(&first) {
                    lines.push(g.clone());
                }
            }
        }
    }
    (lines, gos, fens)
}

fn assert_legal(game: &AnyGame, mv: &str) {
    let legal = game.legal_strings();
    assert!(
        legal.iter().any(|l| l == mv),
        "{mv} is not legal in {}",
        game.fen()
    );
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, .. ProptestConfig::default() })]

    #[test]
    fn uci_answers_every_go_in_order(steps in prop::collection::vec(step(), 1..40)) {
        let (lines, gos, fens) = uci_script(&steps);
        let out = run(|o, s| Box::new(Uci::new(o, s)), &lines);
        let best: Vec<&str> = out
            .iter()
            .filter_map(|l| l.strip_prefix("bestmove "))
            .map(|l| l.split_whitespace().next().unwrap_or(""))
            .collect();
        prop_assert_eq!(best.len(), gos.len(), "{:?}\n{:?}", lines, out);
        for (m, g) in best.iter().zip(&gos) {
            assert_legal(g, m);
        }
        let shown: Vec<&str> = out.iter().filter_map(|l| l.strip_prefix("Fen: ")).collect();
        prop_assert_eq!(shown, fens.iter().map(String::as_str).collect::<Vec<_>>());
        let ready = lines.iter().filter(|l| *l == "isready").count();
        prop_assert_eq!(out.iter().filter(|l| *l == "readyok").count(), ready);
    }
}

/// One step of an XBoard script (the engine is in force mode unless asked
/// to move).
#[derive(Clone, Debug)]
enum XStep {
    /// A legal move, chosen by the seed.
    Move(u64),
    IllegalMove(usize),
    SetBoard(usize),
    Undo,
    Remove,
    Analyze,
    Exit,
    /// `go`, `?`, then `force`: the engine moves once.
    MoveNow,
    Option(usize),
    Display,
    Garbage(String),
}

fn xstep() -> impl Strategy<Value = XStep> {
    prop_oneof![
        4 => any::<u64>().prop_map(XStep::Move),
        1 => (0usize..3).prop_map(XStep::IllegalMove),
        1 => (0usize..4).prop_map(XStep::SetBoard),
        1 => Just(XStep::Undo),
        1 => Just(XStep::Remove),
        1 => Just(XStep::Analyze),
        1 => Just(XStep::Exit),
        2 => Just(XStep::MoveNow),
        1 => (0usize..6).prop_map(XStep::Option),
        1 => Just(XStep::Display),
        1 => "[a-z0-9 =:()/-]{0,24}".prop_map(XStep::Garbage),
    ]
}

/// A board every variant reads (no vests, no towers).
const BOARDS: [&str; 2] = [
    "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
    "4k3/8/8/8/8/8/4P3/4K3 b - - 0 1",
];

/// Replays an XBoard script against the engine's output: the model applies
/// each valid command and, for each `go`, the engine's reply, which must be
/// legal where it was played. Returns how many `d` FENs were checked.
fn check_xboard(variant: Variant, steps: &[XStep]) -> usize {
    let mut lines = vec![
        "new".to_string(),
        format!("variant {}", variant.name()),
        "force".to_string(),
        "st 1".to_string(),
    ];
    if variant == Variant::Chess {
        lines[1] = "variant normal".into();
    }
    let script = build_xboard(variant, steps);
    for (l, _) in &script {
        lines.push(l.clone());
    }
    lines.push("ping 999999".into());
    let out = run(|o, s| Box::new(XBoard::new(o, s)), &lines);
    assert!(out.iter().any(|l| l == "pong 999999"), "{out:?}");
    let mut moves = out.iter().filter_map(|l| l.strip_prefix("move "));
    let mut shown = out.iter().filter_map(|l| l.strip_prefix("# Fen: "));
    let mut game = AnyGame::new(variant, None).unwrap();
    let mut checked = 0;
    for (line, effect) in &script {
        match effect {
            Effect::None => {}
            Effect::Play(m) => game.play(m).unwrap(),
            Effect::Set(fen) => game = AnyGame::new(variant, Some(fen)).unwrap(),
            Effect::Undo(n) => {
                for _ in 0..*n {
                    assert!(game.undo());
                }
            }
            Effect::EngineMoves => {
                if game.status().is_none() {
                    let m = moves
                        .next()
                        .unwrap_or_else(|| panic!("no move for {line}: {out:?}"));
                    assert_legal(&game, m);
                    game.play(m).unwrap();
                }
            }
            Effect::Shows => {
                let fen = shown
                    .next()
                    .unwrap_or_else(|| panic!("no FEN shown: {out:?}"));
                assert_eq!(fen, game.fen(), "{lines:?}\n{out:?}");
                checked += 1;
            }
        }
    }
    assert!(moves.next().is_none(), "a move nobody asked for: {out:?}");
    checked
}

/// What a script line does to the game, for the model.
#[derive(Clone, Debug)]
enum Effect {
    None,
    Play(String),
    Set(String),
    Undo(usize),
    EngineMoves,
    Shows,
}

/// The script lines with their effects. The model's game is only needed to
/// choose legal moves and valid undos; engine moves are not known until
/// the output is read, so after a `go` the script chooses its moves from
/// the position before it and marks them as tries (they may be illegal).
fn build_xboard(variant: Variant, steps: &[XStep]) -> Vec<(String, Effect)> {
    let mut out = Vec::new();
    let mut analyzing = false;
    // Plies played since the last setboard, when every one is known.
    let mut known: Option<AnyGame> = Some(AnyGame::new(variant, None).unwrap());
    for s in steps {
        match s {
            XStep::Move(seed) => {
                if let Some(g) = &mut known {
                    let legal = g.legal_strings();
                    if legal.is_empty() {
                        continue;
                    }
                    let m = legal[usize::try_from(seed % legal.len() as u64).unwrap()].clone();
                    g.play(&m).unwrap();
                    out.push((format!("usermove {m}"), Effect::Play(m)));
                }
            }
            XStep::IllegalMove(k) => {
                out.push((
                    ["usermove a1a1", "usermove zz", "a1a1"][*k].to_string(),
                    Effect::None,
                ));
            }
            XStep::SetBoard(k) => {
                if *k < BOARDS.len() {
                    known = Some(AnyGame::new(variant, Some(BOARDS[*k])).unwrap());
                    out.push((
                        format!("setboard {}", BOARDS[*k]),
                        Effect::Set(BOARDS[*k].into()),
                    ));
                } else {
                    out.push(("setboard 8/8/8 w - - 0 1".into(), Effect::None));
                }
            }
            XStep::Undo | XStep::Remove => {
                let n = if matches!(s, XStep::Undo) { 1 } else { 2 };
                let Some(g) = &mut known else { continue };
                let cmd = if n == 1 { "undo" } else { "remove" };
                if g.ply_count() >= n {
                    for _ in 0..n {
                        g.undo();
                    }
                    out.push((cmd.into(), Effect::Undo(n)));
                } else {
                    out.push((cmd.into(), Effect::None));
                }
            }
            XStep::Analyze => {
                analyzing = true;
                out.push(("analyze".into(), Effect::None));
            }
            XStep::Exit => {
                analyzing = false;
                out.push(("exit".into(), Effect::None));
            }
            XStep::MoveNow => {
                if analyzing {
                    analyzing = false;
                    out.push(("exit".into(), Effect::None));
                }
                out.push(("go".into(), Effect::None));
                out.push(("?".into(), Effect::EngineMoves));
                out.push(("force".into(), Effect::None));
                // The engine's move is not known here: later moves and
                // undos wait for the next setboard.
                known = None;
            }
            XStep::Option(k) => out.push((
                [
                    "memory 2",
                    "memory 0",
                    "cores 2",
                    "cores lots",
                    "option MultiPV=2",
                    "option Frob=1",
                ][*k]
                    .to_string(),
                Effect::None,
            )),
            XStep::Display => out.push(("d".into(), Effect::Shows)),
            XStep::Garbage(g) => {
                let first = g.split_whitespace().next().unwrap_or("");
                let movelike = first.len() >= 4
                    && movegen::Square::parse(first.get(..2).unwrap_or("")).is_some()
                    && movegen::Square::parse(first.get(2..4).unwrap_or("")).is_some();
                if !crate::xboard::COMMANDS.contains(&first) && !movelike {
                    out.push((g.clone(), Effect::None));
                }
            }
        }
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 16, .. ProptestConfig::default() })]

    #[test]
    fn xboard_keeps_the_game_the_gui_sees(
        v in 0usize..3,
        steps in prop::collection::vec(xstep(), 1..40),
    ) {
        check_xboard(Variant::ALL[v], &steps);
    }
}
