//! `go perft` as an engine job: the divide report of the current position,
//! counted on the job's thread and cut short by `stop`.

use movegen::{perft, MoveList, Position};
use std::sync::atomic::{AtomicBool, Ordering};

/// Below this depth a subtree is counted by movegen's bulk perft without
/// looking at the stop flag (milliseconds even for Tavreli); above it the
/// flag is read at every node, so `stop` is answered at once.
const UNCHECKED_DEPTH: u32 = 3;

/// Leaf count of `pos` to `depth`; `None` once `stop` is set.
fn count<P: Position>(pos: &mut P, depth: u32, stop: &AtomicBool) -> Option<u64> {
    if depth <= UNCHECKED_DEPTH {
        return Some(perft(pos, depth));
    }
    if stop.load(Ordering::Relaxed) {
        return None;
    }
    let mut moves = MoveList::new();
    pos.legal_moves(&mut moves);
    let mut total = 0;
    for &m in &moves {
        let undo = pos.make(m);
        let n = count(pos, depth - 1, stop);
        pos.unmake(m, undo);
        total += n?;
    }
    Some(total)
}

/// The divide lines (`move: nodes` per root move, a blank line, then
/// `Nodes searched: N`) handed to `report` as they are counted; `false` if
/// `stop` cut the count short (the lines so far were reported, the total
/// was not).
pub fn divide<P: Position>(
    pos: &P,
    depth: u32,
    stop: &AtomicBool,
    report: &mut dyn FnMut(String),
) -> bool {
    let mut pos = pos.clone();
    let mut total = 0;
    if depth == 0 {
        total = 1;
    } else {
        let mut moves = MoveList::new();
        pos.legal_moves(&mut moves);
        for &m in &moves {
            let undo = pos.make(m);
            let n = count(&mut pos, depth - 1, stop);
            pos.unmake(m, undo);
            let Some(n) = n else {
                return false;
            };
            report(format!("{m}: {n}"));
            total += n;
        }
    }
    report(String::new());
    report(format!("Nodes searched: {total}"));
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use movegen::{Chess, Tavreli};

    fn lines<P: Position>(depth: u32) -> Vec<String> {
        let mut out = Vec::new();
        assert!(divide(
            &P::startpos(),
            depth,
            &AtomicBool::new(false),
            &mut |l| out.push(l)
        ));
        out
    }

    #[test]
    fn divides_and_totals() {
        let l = lines::<Chess>(5);
        assert_eq!(l.len(), 22);
        assert!(l.contains(&"e2e4: 405385".to_string()), "{l:?}");
        assert_eq!(l.last().unwrap(), "Nodes searched: 4865609");
        assert_eq!(lines::<Chess>(0), ["", "Nodes searched: 1"]);
        assert_eq!(lines::<Tavreli>(3).last().unwrap(), "Nodes searched: 68299");
    }

    #[test]
    fn stop_cuts_it_short() {
        let mut out = Vec::new();
        let done = divide(&Chess::startpos(), 6, &AtomicBool::new(true), &mut |l| {
            out.push(l)
        });
        assert!(!done);
        assert!(out.is_empty());
    }
}
