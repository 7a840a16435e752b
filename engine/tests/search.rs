//! Search behaviour through the library API: mates with exact scores,
//! tactics, draw avoidance, reproducibility, Lazy SMP robustness, MultiPV,
//! `searchmoves`, `go mate`, pondering.

use engine::engine::EventSink;
use engine::{Engine, Info, Limits, Options, Score, SearchEvent};
use movegen::{Chess, MoveList, Outcome, Position};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// What one search reported.
struct Report {
    infos: Vec<Info>,
    best: Option<String>,
    ponder: Option<String>,
    bestmoves: usize,
}

fn collector() -> (EventSink, Arc<Mutex<Vec<SearchEvent>>>) {
    let events = Arc::new(Mutex::new(Vec::new()));
    let inner = Arc::clone(&events);
    let sink: EventSink = Arc::new(move |e| inner.lock().expect("events lock").push(e));
    (sink, events)
}

fn report(events: &Mutex<Vec<SearchEvent>>) -> Report {
    let events = events.lock().expect("events lock");
    let mut r = Report {
        infos: Vec::new(),
        best: None,
        ponder: None,
        bestmoves: 0,
    };
    for e in events.iter() {
        match e {
            SearchEvent::Info(i) => r.infos.push(i.clone()),
            SearchEvent::BestMove { best, ponder } => {
                r.best.clone_from(best);
                r.ponder.clone_from(ponder);
                r.bestmoves += 1;
            }
            SearchEvent::Message(_) | SearchEvent::Report(_) | SearchEvent::Done { .. } => {}
        }
    }
    r
}

fn search_with(engine: &mut Engine, fen: Option<&str>, moves: &[&str], limits: Limits) -> Report {
    engine
        .set_position(fen, moves)
        .expect("test position is valid");
    let (sink, events) = collector();
    engine.go(limits, sink);
    engine.wait();
    report(&events)
}

fn depth(d: u32) -> Limits {
    Limits {
        depth: Some(d),
        ..Limits::default()
    }
}

fn search(fen: &str, limits: Limits) -> Report {
    let mut e = Engine::new();
    search_with(&mut e, Some(fen), &[], limits)
}

fn last_score(r: &Report) -> Score {
    r.infos.last().expect("at least one info").score
}

fn is_legal(fen: &str, moves: &[&str], mv: &str) -> bool {
    let mut pos = Chess::from_fen(fen).expect("valid fen");
    for m in moves {
        let parsed = pos.parse_move(m).expect("legal history move");
        pos.make(parsed);
    }
    pos.parse_move(mv).is_ok()
}

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

#[test]
fn mate_in_one() {
    let r = search("6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1", depth(4));
    assert_eq!(r.best.as_deref(), Some("a1a8"));
    assert_eq!(last_score(&r), Score::Mate(1));
    assert_eq!(r.bestmoves, 1);
}

#[test]
fn mate_in_two() {
    let r = search(
        "r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 10",
        depth(5),
    );
    assert_eq!(r.best.as_deref(), Some("d5f6"));
    assert_eq!(last_score(&r), Score::Mate(2));
}

#[test]
fn mate_in_three() {
    let r = search("r5rk/5p1p/5R2/4B3/8/8/7P/7K w - - 0 1", depth(7));
    assert_eq!(r.best.as_deref(), Some("f6a6"));
    assert_eq!(last_score(&r), Score::Mate(3));
    let r = search(
        "r1b1kb1r/pppp1ppp/5q2/4n3/3KP3/2N3PN/PPP4P/R1BQ1B1R b kq - 0 1",
        depth(7),
    );
    assert_eq!(r.best.as_deref(), Some("f8c5"));
    assert_eq!(last_score(&r), Score::Mate(3));
}

#[test]
fn being_mated_is_reported_negative() {
    // Black's only move Kb8 walks into Rh8 mate.
    let r = search("k7/8/1K6/8/8/8/8/7R b - - 0 1", depth(4));
    assert_eq!(last_score(&r), Score::Mate(-1));
}

#[test]
fn no_legal_move_reports_none() {
    // Black is checkmated: no move, mate 0.
    let r = search("R5k1/5ppp/8/8/8/8/5PPP/6K1 b - - 0 1", depth(3));
    assert_eq!(r.best, None);
    assert_eq!(r.bestmoves, 1);
    assert_eq!(last_score(&r), Score::Mate(0));
}

#[test]
fn knight_fork_wins_the_queen() {
    let r = search("2q3k1/8/8/3N4/8/8/P7/4K3 w - - 0 1", depth(6));
    assert_eq!(r.best.as_deref(), Some("d5e7"));
    assert!(matches!(last_score(&r), Score::Cp(c) if c > 200));
}

#[test]
fn takes_the_hanging_queen() {
    let r = search("4k3/8/8/3q4/8/8/8/3RK3 w - - 0 1", depth(4));
    assert_eq!(r.best.as_deref(), Some("d1d5"));
}

#[test]
fn winning_side_avoids_stalemate() {
    // Black has no move now: every white move that keeps b7, a7 and b8
    // covered without checking stalemates (Kb2, Qc6...).
    let fen = "k7/8/1Q6/8/8/8/8/K7 w - - 0 1";
    let r = search(fen, depth(8));
    let best = r.best.clone().expect("a move");
    let mut pos = Chess::from_fen(fen).expect("valid fen");
    let m = pos.parse_move(&best).expect("legal");
    pos.make(m);
    assert_ne!(
        movegen::status(&pos, &[]),
        Some(Outcome::Stalemate),
        "{best}"
    );
    let score = last_score(&r);
    assert!(
        matches!(score, Score::Mate(n) if n > 0) || matches!(score, Score::Cp(c) if c > 500),
        "{score:?}"
    );
}

#[test]
fn winning_side_avoids_repetition() {
    // The queen shuffled c1-d1 while the king shuffled h8-g8: going back to
    // c1 now would repeat a position, which the search scores as a draw.
    let fen = "7k/8/8/8/8/8/8/2Q4K w - - 0 1";
    let moves = ["c1d1", "h8g8", "d1c1", "g8h8", "c1d1", "h8g8"];
    let mut e = Engine::new();
    let r = search_with(&mut e, Some(fen), &moves, depth(6));
    let best = r.best.clone().expect("a move");
    assert_ne!(best, "d1c1");
    assert!(
        matches!(last_score(&r), Score::Cp(c) if c > 500)
            || matches!(last_score(&r), Score::Mate(n) if n > 0)
    );
}

#[test]
fn losing_side_takes_the_repetition() {
    // Black is a queen down; the game history makes Kg8-h8 a repetition
    // (a draw), which beats any other move for Black.
    let fen = "6k1/8/8/8/8/8/8/2Q4K b - - 0 1";
    let moves = ["g8h8", "c1d1", "h8g8", "d1c1"];
    let mut e = Engine::new();
    let r = search_with(&mut e, Some(fen), &moves, depth(5));
    assert_eq!(r.best.as_deref(), Some("g8h8"));
    assert_eq!(last_score(&r), Score::Cp(0));
}

#[test]
fn fifty_move_rule_is_a_draw() {
    // A queen up, but the next quiet move ends the game drawn by the
    // fifty-move rule unless it mates, which it cannot: the score is 0.
    let r = search("7k/8/8/8/8/8/8/2Q4K w - - 99 80", depth(4));
    assert_eq!(last_score(&r), Score::Cp(0));
}

#[test]
fn go_nodes_is_reproducible_across_new_game() {
    let limits = Limits {
        nodes: Some(20_000),
        ..Limits::default()
    };
    let fen = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4";
    let mut e = Engine::new();
    let a = search_with(&mut e, Some(fen), &[], limits.clone());
    e.new_game();
    let b = search_with(&mut e, Some(fen), &[], limits);
    assert_eq!(a.best, b.best);
    assert_eq!(a.infos, {
        // Times differ; compare everything else.
        let mut bi = b.infos.clone();
        for (x, y) in bi.iter_mut().zip(&a.infos) {
            x.time_ms = y.time_ms;
            x.nps = y.nps;
        }
        bi
    });
    assert!(a.infos.last().is_some_and(|i| i.nodes <= 20_000 + 2));
}

#[test]
fn threads_two_survive_rapid_start_stop() {
    let mut e = Engine::new();
    e.set_options(Options {
        threads: 2,
        ..Options::default()
    })
    .expect("options in range");
    let history = ["e2e4", "e7e5", "g1f3"];
    e.set_position(None, &history).expect("valid moves");
    for i in 0..50 {
        let (sink, events) = collector();
        e.go(
            Limits {
                infinite: true,
                ..Limits::default()
            },
            sink,
        );
        std::thread::sleep(Duration::from_millis(i % 3));
        e.stop();
        e.wait();
        let r = report(&events);
        assert_eq!(r.bestmoves, 1, "iteration {i}");
        let best = r.best.clone().expect("a move");
        assert!(is_legal(START, &history, &best), "{best}");
    }
    // Aborts report nothing and leave the engine usable.
    for _ in 0..10 {
        let (sink, events) = collector();
        e.go(Limits::default(), sink);
        e.abort();
        assert_eq!(report(&events).bestmoves, 0);
    }
    let r = search_with(&mut e, None, &history, depth(6));
    assert!(is_legal(START, &history, r.best.as_deref().unwrap_or("")));
}

#[test]
fn stop_then_go_still_reports_the_stopped_search() {
    // UCI owes a bestmove per go even when stop is followed at once by
    // position and go; only abort (XBoard new/force) discards.
    let mut e = Engine::new();
    e.set_options(Options {
        threads: 2,
        ..Options::default()
    })
    .expect("options in range");
    let (sink, events) = collector();
    for _ in 0..20 {
        e.go(
            Limits {
                infinite: true,
                ..Limits::default()
            },
            Arc::clone(&sink),
        );
        e.stop();
        e.set_position(None, &["e2e4"]).expect("legal");
    }
    e.go(depth(1), Arc::clone(&sink));
    e.wait();
    assert_eq!(report(&events).bestmoves, 21);
    e.go(
        Limits {
            infinite: true,
            ..Limits::default()
        },
        Arc::clone(&sink),
    );
    e.abort();
    assert_eq!(report(&events).bestmoves, 21);
}

#[test]
fn threads_two_finds_the_mate() {
    let mut e = Engine::new();
    e.set_options(Options {
        threads: 2,
        ..Options::default()
    })
    .expect("options in range");
    let r = search_with(
        &mut e,
        Some("r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 10"),
        &[],
        depth(5),
    );
    assert_eq!(r.best.as_deref(), Some("d5f6"));
}

#[test]
fn multipv_reports_distinct_lines() {
    let mut e = Engine::new();
    e.set_options(Options {
        multipv: 3,
        ..Options::default()
    })
    .expect("options in range");
    let r = search_with(&mut e, None, &[], depth(5));
    let last: Vec<&Info> = r.infos.iter().filter(|i| i.depth == 5).collect();
    assert_eq!(last.len(), 3);
    assert_eq!(
        last.iter().map(|i| i.multipv).collect::<Vec<_>>(),
        vec![1, 2, 3]
    );
    let firsts: Vec<&String> = last.iter().map(|i| &i.pv[0]).collect();
    assert!(firsts[0] != firsts[1] && firsts[1] != firsts[2] && firsts[0] != firsts[2]);
    assert_eq!(r.best.as_ref(), Some(firsts[0]));
}

#[test]
fn searchmoves_restricts_the_root() {
    let r = search(
        START,
        Limits {
            depth: Some(4),
            searchmoves: vec!["a2a3".into(), "h2h3".into()],
            ..Limits::default()
        },
    );
    let best = r.best.clone().expect("a move");
    assert!(best == "a2a3" || best == "h2h3", "{best}");
}

#[test]
fn go_mate_stops_at_the_mate() {
    let r = search(
        "r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 10",
        Limits {
            mate: Some(2),
            ..Limits::default()
        },
    );
    assert_eq!(r.best.as_deref(), Some("d5f6"));
    assert_eq!(last_score(&r), Score::Mate(2));
}

#[test]
fn ponder_holds_the_move_until_ponderhit() {
    let mut e = Engine::new();
    e.set_position(None, &["e2e4"]).expect("legal");
    let (sink, events) = collector();
    e.go(
        Limits {
            ponder: true,
            depth: Some(2),
            ..Limits::default()
        },
        sink,
    );
    std::thread::sleep(Duration::from_millis(100));
    assert_eq!(report(&events).bestmoves, 0, "held while pondering");
    e.ponderhit();
    e.wait();
    let r = report(&events);
    assert_eq!(r.bestmoves, 1);
    assert!(is_legal(START, &["e2e4"], r.best.as_deref().unwrap_or("")));
}

#[test]
fn movetime_is_respected_and_ponder_move_is_legal() {
    let started = std::time::Instant::now();
    let r = search(
        START,
        Limits {
            movetime: Some(200),
            ..Limits::default()
        },
    );
    assert!(started.elapsed() < Duration::from_millis(1_500));
    let best = r.best.clone().expect("a move");
    assert!(is_legal(START, &[], &best));
    if let Some(p) = r.ponder {
        assert!(is_legal(START, &[&best], &p), "{p}");
    }
}

#[test]
fn tiny_clock_still_returns_a_legal_move() {
    let r = search(
        START,
        Limits {
            wtime: Some(5),
            btime: Some(5),
            ..Limits::default()
        },
    );
    assert!(is_legal(START, &[], r.best.as_deref().unwrap_or("")));
    let mut list = MoveList::new();
    Chess::startpos().legal_moves(&mut list);
    assert_eq!(list.len(), 20);
}
