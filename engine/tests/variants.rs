//! Search in PlunderChess and Tavreli through the library API: legal best
//! moves within the time given, tactics that need the variant's rules, and
//! the positions whose quiescence once never finished.

use engine::engine::EventSink;
use engine::{Engine, Limits, SearchEvent};
use movegen::{Plunder, Position, Tavreli, Variant};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Searches `fen` of `variant` and returns (best move, elapsed).
fn best_move(variant: Variant, fen: &str, limits: Limits) -> (Option<String>, Duration) {
    let mut engine = Engine::new();
    engine.set_variant(variant);
    engine.set_position(Some(fen), &[]).expect("valid test FEN");
    let best = Arc::new(Mutex::new(None));
    let inner = Arc::clone(&best);
    let sink: EventSink = Arc::new(move |e| {
        if let SearchEvent::BestMove { best, .. } = e {
            *inner.lock().expect("lock") = best;
        }
    });
    let started = Instant::now();
    engine.go(limits, sink);
    engine.wait();
    let elapsed = started.elapsed();
    let b = best.lock().expect("lock").clone();
    (b, elapsed)
}

fn movetime(ms: u64) -> Limits {
    Limits {
        movetime: Some(ms),
        ..Limits::default()
    }
}

fn depth(d: u32) -> Limits {
    Limits {
        depth: Some(d),
        ..Limits::default()
    }
}

const TAVRELI: [&str; 4] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r1b1k2r/pp(PQ~)p1ppp/2n(bn)1n2/3(pN)4/2(BP=Hq)5/5(pN)2/PP1P1PPP/R3K2R w KQkq - 0 1",
    "rnbqk1nr/ppp2p1p/3p4/6p1/(PbP=N)2P4/N7/2(PBQK)2(P=HP)(PB)P/R5(Np=hR)1 b kq - 1 12",
    "6(nr)1/3(pnp=bBQk)4/(PqBR)4P1p/2(PNb)4(p=nP=NP)/5(pP=QrK)2/5N2/4(pPRb)3/1(pPr~)6 w - - 0 39",
];

const PLUNDER: [&str; 3] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/pp1n(q)1ppp/2p(n)1b3/3B(P)4/4P(R)3/2N(B)2Q(N)2/PPP2PPP/R3K(P)2R w KQkq - 0 1",
    "1N6/4b3/6k(r)1/2p5/1pn(p)5/8/5K(P)2/2r(b)2B2 w - - 0 28",
];

/// Every tower-rich position finishes shallow depths and honours movetime
/// (quiescence is bounded: Tavreli captures remove nothing).
#[test]
fn tavreli_searches_end_and_play_legal_moves() {
    for fen in TAVRELI {
        let pos = Tavreli::from_fen(fen).unwrap();
        let (best, _) = best_move(Variant::Tavreli, fen, depth(3));
        assert!(
            pos.parse_move(best.as_deref().unwrap_or("-")).is_ok(),
            "{fen}: {best:?}"
        );
        let (best, elapsed) = best_move(Variant::Tavreli, fen, movetime(300));
        assert!(elapsed < Duration::from_millis(2_000), "{fen}: {elapsed:?}");
        assert!(
            pos.parse_move(best.as_deref().unwrap_or("-")).is_ok(),
            "{fen}: {best:?}"
        );
    }
}

#[test]
fn plunder_searches_play_legal_moves_in_time() {
    for fen in PLUNDER {
        let pos = Plunder::from_fen(fen).unwrap();
        let (best, elapsed) = best_move(Variant::Plunder, fen, movetime(300));
        assert!(elapsed < Duration::from_millis(2_000), "{fen}: {elapsed:?}");
        assert!(
            pos.parse_move(best.as_deref().unwrap_or("-")).is_ok(),
            "{fen}: {best:?}"
        );
    }
}

/// Taking a free queen, the knight also plunders the queen's powers: the
/// vest is worth having, so the plain capture `c3d5` is not the choice.
#[test]
fn plunder_takes_the_queen_and_its_vest() {
    let fen = "4k3/8/8/3q4/8/2N5/8/4K3 w - - 0 1";
    let (best, _) = best_move(Variant::Plunder, fen, depth(4));
    assert_eq!(best.as_deref(), Some("c3d5q"));
}

/// Capturing a tower takes every piece in it prisoner: the free capture of
/// the queen's tower is found.
#[test]
fn tavreli_takes_the_hanging_tower() {
    let fen = "4k3/8/8/3(Pq)4/8/8/8/3RK3 w - - 0 1";
    let (best, _) = best_move(Variant::Tavreli, fen, depth(4));
    assert_eq!(best.as_deref(), Some("d1d5"));
}

/// Lazy SMP with helpers of both kinds (odd ones skip odd depths): in every
/// variant a four-thread search completes the depth asked for (the last
/// line reports it) and plays a legal move.
#[test]
fn four_threads_reach_the_depth_in_every_variant() {
    let cases = [
        (Variant::Chess, movegen::fen::STARTPOS, 9),
        (Variant::Plunder, PLUNDER[1], 7),
        (Variant::Tavreli, TAVRELI[1], 6),
    ];
    for (variant, fen, d) in cases {
        for round in 0..3 {
            let mut engine = Engine::new();
            engine.set_variant(variant);
            engine
                .set_options(engine::Options {
                    threads: 4,
                    ..engine::Options::default()
                })
                .expect("options in range");
            engine.set_position(Some(fen), &[]).expect("valid test FEN");
            let events = Arc::new(Mutex::new(Vec::new()));
            let inner = Arc::clone(&events);
            let sink: EventSink = Arc::new(move |e| inner.lock().expect("lock").push(e));
            engine.go(depth(d), sink);
            engine.wait();
            let events = events.lock().expect("lock");
            let last_depth = events.iter().rev().find_map(|e| match e {
                SearchEvent::Info(i) => Some(i.depth),
                _ => None,
            });
            assert_eq!(last_depth, Some(d), "{variant:?} round {round}");
            let best = events.iter().find_map(|e| match e {
                SearchEvent::BestMove { best, .. } => best.clone(),
                _ => None,
            });
            let mut game = engine::AnyGame::new(variant, Some(fen)).expect("valid");
            assert!(
                game.play(best.as_deref().unwrap_or("-")).is_ok(),
                "{variant:?}: {best:?}"
            );
        }
    }
}
