//! Strength levels and win/draw/loss output: a level replays its moves for
//! a seed, plays worse moves than full strength on tactical positions (a
//! rate over positions found by the test itself), and the protocols take
//! and refuse the options in their own error forms.

mod common;

use common::Session;
use engine::engine::EventSink;
use engine::{Engine, Limits, Options, Score, SearchEvent};
use movegen::{Chess, MoveList, Position, SplitMix};
use std::sync::{Arc, Mutex};

/// Full strength's budget in these tests (depth 7 or so in the middlegame).
const FULL_NODES: u64 = 20_000;

/// The moves and last score one search reported.
struct Found {
    best: String,
    lines: Vec<(u32, Score)>,
}

fn search(fen: &str, options: Options, limits: Limits) -> Found {
    let mut e = Engine::new();
    e.set_options(options).expect("options in range");
    e.set_position(Some(fen), &[]).expect("test FEN is valid");
    let events = Arc::new(Mutex::new(Vec::new()));
    let inner = Arc::clone(&events);
    let sink: EventSink = Arc::new(move |ev| inner.lock().expect("lock").push(ev));
    e.go(limits, sink);
    e.wait();
    let events = events.lock().expect("lock");
    let mut found = Found {
        best: String::new(),
        lines: Vec::new(),
    };
    for ev in events.iter() {
        match ev {
            SearchEvent::Info(i) => found.lines.push((i.multipv, i.score)),
            SearchEvent::BestMove { best, .. } => found.best = best.clone().expect("a legal move"),
            _ => {}
        }
    }
    found
}

/// The move a level plays (its own node budget, no clock).
fn level_move(fen: &str, elo: u32, seed: u64) -> String {
    let options = Options {
        elo: Some(elo),
        seed,
        ..Options::default()
    };
    search(fen, options, Limits::default()).best
}

fn full_strength(fen: &str, multipv: usize) -> Found {
    let options = Options {
        multipv,
        ..Options::default()
    };
    let limits = Limits {
        nodes: Some(FULL_NODES),
        ..Limits::default()
    };
    search(fen, options, limits)
}

fn cp(s: Score) -> i32 {
    match s {
        Score::Cp(c) => c,
        Score::Mate(n) if n > 0 => 30_000,
        Score::Mate(_) => -30_000,
    }
}

/// Positions from seeded random games where full strength's best move is
/// at least 150 cp better than any other (one move wins material or
/// saves it): what a weaker player gets wrong.
fn tactical_positions(count: usize) -> Vec<(String, String)> {
    let mut rng = SplitMix::new(39);
    let mut out = Vec::new();
    for _ in 0..400 {
        if out.len() == count {
            break;
        }
        let mut pos = Chess::startpos();
        let plies = 8 + rng.below(24);
        let mut list = MoveList::new();
        for _ in 0..plies {
            list.clear();
            pos.legal_moves(&mut list);
            if list.is_empty() {
                break;
            }
            pos.make(list[rng.below(list.len())]);
        }
        list.clear();
        pos.legal_moves(&mut list);
        if list.len() < 2 {
            continue;
        }
        let fen = pos.fen();
        let f = full_strength(&fen, 2);
        let last = |pv: u32| f.lines.iter().rev().find(|l| l.0 == pv).map(|l| cp(l.1));
        if let (Some(a), Some(b)) = (last(1), last(2)) {
            if a - b >= 150 && a.abs() < 2000 {
                out.push((fen, f.best));
            }
        }
    }
    assert_eq!(out.len(), count, "enough tactical positions found");
    out
}

/// Share of the positions where the level does not play full strength's
/// move (every other move is at least 150 cp worse there).
fn miss_rate(positions: &[(String, String)], elo: u32) -> f64 {
    let misses = positions
        .iter()
        .enumerate()
        .filter(|(i, (fen, best))| level_move(fen, elo, *i as u64) != *best)
        .count();
    misses as f64 / positions.len() as f64
}

#[test]
fn lower_levels_miss_more_tactics() {
    let positions = tactical_positions(40);
    let rates: Vec<(u32, f64)> = [600, 1200, 2000]
        .into_iter()
        .map(|elo| (elo, miss_rate(&positions, elo)))
        .collect();
    eprintln!("miss rates over {} positions: {rates:?}", positions.len());
    let (low, mid, high) = (rates[0].1, rates[1].1, rates[2].1);
    // Order and spacing, not an absolute rate: a new network moves every
    // level's rate, and the calibration matches (scripts/calibrate_levels.sh)
    // say what each level is worth. Measured (seeded, so exact; the chess
    // network of session 28): 600 misses 9 of 40, 1200 3, 2000 1 (with the
    // first network 13, 4, 0).
    assert!(low >= mid && mid >= high, "ordered: {rates:?}");
    assert!(
        low >= high + 0.1,
        "spaced: 600 misses at least 4 more of 40 than 2000: {rates:?}"
    );
}

#[test]
fn a_level_replays_its_moves_for_a_seed() {
    let positions = tactical_positions(8);
    let mut differ = false;
    for (fen, _) in &positions {
        let a = level_move(fen, 900, 7);
        assert_eq!(a, level_move(fen, 900, 7), "{fen}");
        let seeds: Vec<String> = (0..8).map(|s| level_move(fen, 900, s)).collect();
        differ |= seeds.iter().any(|m| *m != seeds[0]);
    }
    assert!(differ, "the seed changes some choice");
}

#[test]
fn a_level_reports_the_move_it_plays_last() {
    let (fen, _) = &tactical_positions(1)[0];
    for seed in 0..6 {
        let options = Options {
            elo: Some(600),
            seed,
            show_wdl: true,
            ..Options::default()
        };
        let mut e = Engine::new();
        e.set_options(options).expect("in range");
        e.set_position(Some(fen), &[]).expect("valid");
        let events = Arc::new(Mutex::new(Vec::new()));
        let inner = Arc::clone(&events);
        e.go(
            Limits::default(),
            Arc::new(move |ev| inner.lock().expect("lock").push(ev)),
        );
        e.wait();
        let events = events.lock().expect("lock");
        let last_pv = events.iter().rev().find_map(|ev| match ev {
            SearchEvent::Info(i) => Some((i.pv.clone(), i.multipv, i.wdl)),
            _ => None,
        });
        let best = events.iter().find_map(|ev| match ev {
            SearchEvent::BestMove { best, .. } => best.clone(),
            _ => None,
        });
        let (pv, multipv, wdl) = last_pv.expect("an info line");
        assert_eq!(pv.first(), best.as_ref(), "seed {seed}");
        assert_eq!(multipv, 1, "only the asked-for lines are reported");
        let wdl = wdl.expect("UCI_ShowWDL");
        assert_eq!(wdl.win + wdl.draw + wdl.loss, 1000);
    }
}

fn uci() -> Session {
    let mut s = Session::start();
    s.send("uci");
    s.expect_line("uciok");
    s
}

#[test]
fn uci_levels_and_wdl() {
    let mut s = uci();
    s.exchange(
        "setoption name UCI_Elo value 100",
        "info string error setoption: UCI_Elo: 100 is out of range 500..2400",
    );
    // Above what full strength measured: refused, not taken for a claim.
    s.exchange(
        "setoption name UCI_Elo value 2500",
        "info string error setoption: UCI_Elo: 2500 is out of range 500..2400",
    );
    s.exchange(
        "setoption name Skill Level value 21",
        "info string error setoption: Skill Level: 21 is out of range 0..20",
    );
    s.exchange(
        "setoption name UCI_LimitStrength value yes",
        "info string error setoption: UCI_LimitStrength: \"yes\" is not true or false",
    );
    s.exchange(
        "setoption name UCI_ShowWDL value 1",
        "info string error setoption: UCI_ShowWDL: \"1\" is not true or false",
    );
    s.exchange(
        "setoption name Seed value -1",
        "info string error setoption: Seed: \"-1\" is not a number",
    );
    for line in [
        "setoption name UCI_ShowWDL value true",
        "setoption name UCI_LimitStrength value true",
        "setoption name UCI_Elo value 800",
        "setoption name Seed value 3",
        "position startpos moves e2e4 e7e5",
        "go depth 30",
    ] {
        s.send(line);
    }
    let lines = s.expect("bestmove", |l| l.starts_with("bestmove"));
    let infos: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info depth"))
        .collect();
    assert!(!infos.is_empty());
    for l in &infos {
        let t: Vec<&str> = l.split_whitespace().collect();
        let at = t
            .iter()
            .position(|&w| w == "wdl")
            .expect("wdl in every info line");
        let n: Vec<u32> = t[at + 1..at + 4]
            .iter()
            .map(|x| x.parse().expect("number"))
            .collect();
        assert_eq!(n.iter().sum::<u32>(), 1000, "{l}");
        let nodes_at = t.iter().position(|&w| w == "nodes").expect("nodes");
        let nodes: u64 = t[nodes_at + 1].parse().expect("number");
        assert!(nodes < 10_000, "the level's budget stops depth 30: {l}");
    }
    s.send("quit");
    assert!(s.wait_exit());
}

/// The last `wdl W D L` of a search's info lines.
fn last_wdl(lines: &[String]) -> [u32; 3] {
    let line = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth") && l.contains(" wdl "))
        .expect("an info line with wdl");
    let t: Vec<&str> = line.split_whitespace().collect();
    let at = t.iter().position(|&w| w == "wdl").expect("wdl");
    std::array::from_fn(|i| t[at + 1 + i].parse().expect("a number"))
}

/// A queen against a bare king is a win in every variant, for either side
/// to move, early or late in a game, searched shallowly (no mate found:
/// the evaluation's known win and the model must say so) or deeper.
#[test]
fn king_and_queen_against_king_shows_a_win_in_every_variant() {
    let mut s = uci();
    s.send("setoption name UCI_ShowWDL value true");
    for variant in ["chess", "plunder", "tavreli"] {
        s.send(&format!("setoption name UCI_Variant value {variant}"));
        for (fen, queen_to_move) in [
            ("8/8/8/4k3/8/8/8/3QK3 w - - 0 1", true),
            ("8/8/8/4k3/8/8/8/3QK3 b - - 0 1", false),
            ("8/2k5/8/8/8/5Q2/8/6K1 w - - 0 60", true),
            ("6k1/8/8/8/2q5/8/8/4K3 w - - 0 45", false),
        ] {
            for depth in [3, 9] {
                s.send("ucinewgame");
                s.send(&format!("position fen {fen}"));
                s.send(&format!("go depth {depth}"));
                let lines = s.expect("bestmove", |l| l.starts_with("bestmove"));
                let [win, _, loss] = last_wdl(&lines);
                let queen_side = if queen_to_move { win } else { loss };
                assert!(
                    queen_side >= 900,
                    "{variant} {fen} depth {depth}: {:?}",
                    lines.iter().rev().find(|l| l.contains(" wdl "))
                );
            }
        }
    }
    s.send("quit");
    assert!(s.wait_exit());
}

#[test]
fn xboard_level_options() {
    let mut s = Session::start();
    s.send("xboard");
    s.send("protover 2");
    s.expect_line("feature done=1");
    s.exchange(
        "option UCI_Elo=4000",
        "Error (bad option): option UCI_Elo=4000",
    );
    s.exchange(
        "option UCI_LimitStrength=2",
        "Error (bad option): option UCI_LimitStrength=2",
    );
    s.exchange(
        "option Skill Level=-3",
        "Error (bad option): option Skill Level=-3",
    );
    for line in [
        "option UCI_LimitStrength=1",
        "option UCI_Elo=700",
        "option Seed=11",
        "new",
        "force",
        "usermove e2e4",
        "sd 30",
        "go",
    ] {
        s.send(line);
    }
    let mv = s.expect_prefix("move ");
    assert!(mv.len() > 5, "{mv}");
    s.send("quit");
    assert!(s.wait_exit());
}

/// The moves a fresh `volkhv` plays at `UCI_Elo 800` in the positions after
/// `openings` (Seed `seed`, 0 for the default).
fn fresh_process_moves(openings: &[&str], seed: u64) -> Vec<String> {
    let mut s = uci();
    for line in [
        "setoption name UCI_LimitStrength value true",
        "setoption name UCI_Elo value 800",
        &format!("setoption name Seed value {seed}"),
    ] {
        s.send(line);
    }
    let moves = openings
        .iter()
        .map(|moves| {
            s.send(&format!("position startpos moves {moves}"));
            s.send("go depth 30");
            let lines = s.expect("bestmove", |l| l.starts_with("bestmove"));
            common::bestmove_of(lines.last().expect("a bestmove line")).expect("a move")
        })
        .collect();
    s.send("quit");
    assert!(s.wait_exit());
    moves
}

#[test]
fn levels_vary_from_process_to_process_unless_seeded() {
    // Quiet positions with many playable moves, where a level's noise decides.
    let openings = [
        "e2e4",
        "d2d4",
        "e2e4 e7e5",
        "d2d4 d7d5",
        "c2c4",
        "g1f3",
        "e2e4 c7c5",
        "d2d4 g8f6",
    ];
    let a = fresh_process_moves(&openings, 0);
    let b = fresh_process_moves(&openings, 0);
    let differ = a.iter().zip(&b).filter(|(x, y)| x != y).count();
    assert!(
        differ >= 3,
        "Seed 0 draws a seed per process: {a:?} vs {b:?}"
    );
    let c = fresh_process_moves(&openings, 4242);
    let d = fresh_process_moves(&openings, 4242);
    assert_eq!(c, d, "the same Seed replays the same moves");
}
