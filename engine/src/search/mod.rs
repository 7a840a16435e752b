//! The search: a controller ([`run`]) that starts `Threads` workers on the
//! same root (Lazy SMP) and reports for the main one, and the worker's
//! parts in submodules:
//!
//! - `thread`: per-thread state, iterative deepening, aspiration windows,
//!   the root move loop and MultiPV;
//! - `node`: the alpha-beta (PVS) node and quiescence;
//! - `picker`: move ordering (TT move, MVV/LVA, killers, counter move,
//!   history);
//! - `history`: killers, counter moves, the history table and the LMR table;
//! - `eval_cache`: static evaluations already computed, by position key;
//! - `shared`: what the threads share ([`Shared`]) and read (`Control`).
//!
//! Threads share only the transposition table, the stop flags and the node
//! counter in [`Shared`]; everything else is per thread and boxed. `Shared`
//! also keeps each thread's histories between the searches of one game,
//! handed back to the same thread id when the next search starts. Scores
//! are encoded as `crate::score` says.

mod eval_cache;
mod history;
mod node;
mod picker;
mod shared;
mod thread;

pub use shared::Shared;

use crate::game::Game;
use crate::levels::{self, Weakening};
use crate::limits::{EventSink, Options};
use crate::limits::{Info, Limits, Score, SearchEvent};
use crate::score::{to_score, MATE_BOUND};
use crate::time;
use eval::Evaluate;
use movegen::{Move, MoveList, Position};
use shared::Control;
use std::sync::atomic::Ordering;
use std::time::Instant;
use thread::{ThreadResult, Worker};

/// Deepest iteration.
pub const MAX_DEPTH: i32 = 100;
/// Stack size of every search thread: the node function keeps its move
/// list on the stack (a few KiB per ply).
pub const STACK_SIZE: usize = 64 << 20;

/// The root moves to search: all legal ones, or those named in
/// `searchmoves` (all again if none of those is legal).
fn root_moves<P: Position>(pos: &P, searchmoves: &[String]) -> Vec<Move> {
    let mut list = MoveList::new();
    pos.legal_moves(&mut list);
    let all: Vec<Move> = list.to_vec();
    if searchmoves.is_empty() {
        return all;
    }
    let chosen: Vec<Move> = all
        .iter()
        .copied()
        .filter(|m| searchmoves.iter().any(|s| *s == m.to_string()))
        .collect();
    if chosen.is_empty() {
        all
    } else {
        chosen
    }
}

/// The deepest iteration a search may start: `depth`, and for `go mate N`
/// a margin past the 2N − 1 plies a mate in N needs (reductions can hide it
/// at the bare depth), so a mate search with no mate still ends by itself.
fn max_depth(limits: &Limits) -> i32 {
    let depth = limits
        .depth
        .map_or(MAX_DEPTH, |d| i32::try_from(d).unwrap_or(MAX_DEPTH));
    let mate = limits.mate.map_or(MAX_DEPTH, |n| {
        i32::try_from(n).map_or(MAX_DEPTH, |n| n.saturating_mul(2).saturating_add(8))
    });
    depth.min(mate).clamp(1, MAX_DEPTH)
}

/// Runs a search to the limits and reports through `sink`: `Info` per
/// iteration (per MultiPV line) and one `BestMove`, unless aborted.
pub fn run<P: Position + Evaluate>(
    game: &Game<P>,
    limits: &Limits,
    options: &Options,
    shared: &Shared,
    sink: &EventSink,
) {
    let start = Instant::now();
    let pos = game.position();
    shared.nodes.store(0, Ordering::Relaxed);
    shared.tt.new_search();

    let roots = root_moves(pos, &limits.searchmoves);
    if roots.is_empty() {
        let score = if pos.is_check() {
            Score::Mate(0)
        } else {
            Score::Cp(0)
        };
        sink(SearchEvent::Info(Info {
            depth: 0,
            seldepth: 0,
            multipv: 1,
            score,
            nodes: 0,
            nps: 0,
            hashfull: shared.tt.hashfull(),
            time_ms: 0,
            pv: Vec::new(),
            wdl: options
                .show_wdl
                .then(|| crate::wdl::of::<P>(score, pos.wdl_stage())),
        }));
        wait_while_held(limits, shared);
        if !shared.abort.load(Ordering::Relaxed) {
            sink(SearchEvent::BestMove {
                best: None,
                ponder: None,
            });
        }
        return;
    }

    let weak = options.elo.and_then(levels::weakening).map(|w| Weakening {
        nodes: options.level_nodes.unwrap_or(w.nodes),
        ..w
    });
    let report_multipv = options.multipv.clamp(1, roots.len());
    let ctl = Control {
        start,
        budget: time::budget(limits, pos.turn(), options.move_overhead_ms),
        max_depth: max_depth(limits),
        node_limit: level_node_limit(limits.nodes, weak),
        mate: limits.mate,
        infinite: limits.infinite,
        multipv: weak.map_or(report_multipv, |w| {
            report_multipv.max(w.candidates).min(roots.len())
        }),
        report_multipv,
        // One thread keeps a level's node budget exact, so a seed replays.
        threads: if weak.is_some() {
            1
        } else {
            options.threads.max(1)
        },
        show_wdl: options.show_wdl,
        wdl_stage: pos.wdl_stage(),
    };

    let results: Vec<ThreadResult> = std::thread::scope(|scope| {
        let mut helpers = Vec::new();
        for id in 1..ctl.threads {
            let (ctl, roots) = (&ctl, roots.clone());
            let spawned = std::thread::Builder::new()
                .name(format!("search-{id}"))
                .stack_size(STACK_SIZE)
                .spawn_scoped(scope, move || {
                    let mut w = Worker::new(id, game, shared, ctl, roots, None);
                    let result = w.iterate();
                    shared.keep_history::<P>(id, w.hist);
                    result
                });
            // A helper that cannot start only costs speed.
            if let Ok(h) = spawned {
                helpers.push(h);
            }
        }
        let mut main = Worker::new(0, game, shared, &ctl, roots.clone(), Some(sink));
        let main_result = main.iterate();
        shared.keep_history::<P>(0, main.hist);
        wait_while_held(limits, shared);
        shared.stop.store(true, Ordering::Relaxed);
        let mut results = vec![main_result];
        for h in helpers {
            if let Ok(r) = h.join() {
                results.push(r);
            }
        }
        results
    });

    if shared.abort.load(Ordering::Relaxed) {
        return;
    }
    let best = pick_result(&results, ctl.multipv);
    if let Some(w) = weak.filter(|w| w.noise_cp > 0.0) {
        report_level_choice(pos, &results[0], w, options.seed, &ctl, shared, sink);
        return;
    }
    if best > 0 {
        // A helper saw further: show its line so the GUI's PV matches.
        let r = &results[best];
        let nodes = shared.nodes.load(Ordering::Relaxed);
        let time_ms = ctl.elapsed_ms();
        sink(SearchEvent::Info(Info {
            depth: u32::try_from(r.depth).unwrap_or(0),
            seldepth: r.seldepth,
            multipv: 1,
            score: to_score(r.score),
            nodes,
            nps: nodes * 1000 / time_ms.max(1),
            hashfull: shared.tt.hashfull(),
            time_ms,
            pv: r.pv.iter().map(ToString::to_string).collect(),
            wdl: ctl
                .show_wdl
                .then(|| crate::wdl::of_internal::<P>(r.score, ctl.wdl_stage)),
        }));
    }
    let r = &results[best];
    let best_move = r.pv.first().copied().unwrap_or(roots[0]);
    // The reported move must be legal whatever happened in the threads.
    let best_move = if roots.contains(&best_move) {
        best_move
    } else {
        roots[0]
    };
    let ponder = ponder_move(pos, best_move, r.pv.get(1).copied(), shared);
    sink(SearchEvent::BestMove {
        best: Some(best_move.to_string()),
        ponder: ponder.map(|m| m.to_string()),
    });
}

/// The node limit of a search: the `go` limit, and a level's budget.
fn level_node_limit(nodes: Option<u64>, weak: Option<Weakening>) -> Option<u64> {
    match (nodes, weak) {
        (Some(n), Some(w)) => Some(n.min(w.nodes)),
        (None, Some(w)) => Some(w.nodes),
        (n, None) => n,
    }
}

/// A level's move: the main thread's last completed lines, one chosen by
/// the seeded noise (see [`levels`]). When it is not the best line, that
/// line is reported too, so the GUI's last PV starts with the move played.
fn report_level_choice<P: Position + Evaluate>(
    pos: &P,
    main: &ThreadResult,
    w: Weakening,
    seed: u64,
    ctl: &Control,
    shared: &Shared,
    sink: &EventSink,
) {
    let scored: Vec<(Move, Option<i32>)> = main.lines.iter().map(|l| (l.0, Some(l.1))).collect();
    let fallback = main.pv.first().copied();
    let noise = levels::noise_for(w.noise_cp, &P::WDL);
    let chosen = levels::choose(&scored, noise, seed, pos.key()).or(fallback);
    let line = main.lines.iter().position(|l| Some(l.0) == chosen);
    if let Some(i) = line.filter(|&i| i > 0) {
        let (_, score, pv) = &main.lines[i];
        let nodes = shared.nodes.load(Ordering::Relaxed);
        let time_ms = ctl.elapsed_ms();
        sink(SearchEvent::Info(Info {
            depth: u32::try_from(main.depth).unwrap_or(0),
            seldepth: main.seldepth.max(1),
            multipv: 1,
            score: to_score(*score),
            nodes,
            nps: nodes * 1000 / time_ms.max(1),
            hashfull: shared.tt.hashfull(),
            time_ms,
            pv: pv.iter().map(ToString::to_string).collect(),
            wdl: ctl
                .show_wdl
                .then(|| crate::wdl::of_internal::<P>(*score, ctl.wdl_stage)),
        }));
    }
    let best = chosen.unwrap_or_else(|| {
        let mut list = MoveList::new();
        pos.legal_moves(&mut list);
        list[0]
    });
    let from_pv = line.and_then(|i| main.lines[i].2.get(1).copied());
    let ponder = ponder_move(pos, best, from_pv, shared);
    sink(SearchEvent::BestMove {
        best: Some(best.to_string()),
        ponder: ponder.map(|m| m.to_string()),
    });
}

/// `go infinite` and `go ponder` hold the best move until `stop` (or, when
/// pondering, `ponderhit`).
fn wait_while_held(limits: &Limits, shared: &Shared) {
    while !shared.stop.load(Ordering::Relaxed)
        && (limits.infinite || shared.pondering.load(Ordering::Relaxed))
    {
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
}

/// The thread whose result is played: the main thread unless a helper
/// finished a deeper iteration (or found a faster mate at the same depth).
/// MultiPV always reports the main thread's lines.
fn pick_result(results: &[ThreadResult], multipv: usize) -> usize {
    let mut best = 0;
    if multipv > 1 {
        return best;
    }
    for (i, r) in results.iter().enumerate().skip(1) {
        let b = &results[best];
        if r.pv.is_empty() {
            continue;
        }
        let deeper = r.depth > b.depth;
        let faster_mate = r.depth == b.depth && r.score >= MATE_BOUND && r.score > b.score;
        if deeper || faster_mate {
            best = i;
        }
    }
    best
}

/// The expected reply: the PV's second move, or the TT's move after the
/// best move; verified legal.
fn ponder_move<P: Position>(
    pos: &P,
    best: Move,
    from_pv: Option<Move>,
    shared: &Shared,
) -> Option<Move> {
    let mut after = pos.clone();
    after.make(best);
    let candidate = from_pv.or_else(|| shared.tt.probe(after.key()).and_then(|e| e.mv))?;
    after.is_legal(candidate).then_some(candidate)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::score::MATE;

    fn result(depth: i32, score: i32) -> ThreadResult {
        ThreadResult {
            depth,
            seldepth: 0,
            score,
            pv: vec![Move::quiet(movegen::Square::E1, movegen::Square::E8)],
            lines: Vec::new(),
        }
    }

    #[test]
    fn picks_the_deepest_thread_main_on_ties() {
        let rs = [result(10, 30), result(11, -20), result(10, 90)];
        assert_eq!(pick_result(&rs, 1), 1);
        assert_eq!(pick_result(&rs[..1], 1), 0);
        assert_eq!(pick_result(&[result(10, 30), result(10, 90)], 1), 0);
        // A faster mate at the same depth wins; MultiPV keeps the main thread.
        assert_eq!(
            pick_result(&[result(10, MATE - 9), result(10, MATE - 5)], 1),
            1
        );
        assert_eq!(pick_result(&rs, 3), 0);
    }
}
