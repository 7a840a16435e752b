//! Move ordering: every legal move gets a score once, then the best
//! remaining one is picked each time (selection sort — most nodes cut off
//! after a move or two, so sorting the whole list would be wasted).
//!
//! Order: the TT move, captures and queen promotions that do not lose
//! material by static exchange (by MVV/LVA, `Evaluate::capture_order`),
//! killers, the counter move, quiet moves by butterfly plus continuation
//! history (after the moves one and two plies up), losing captures,
//! under-promotions last.

use super::history::{context, History};
use arrayvec::ArrayVec;
use eval::Evaluate;
use movegen::{Move, MoveList, Role, MAX_MOVES};

const TT_MOVE: i32 = 1 << 30;
const CAPTURE: i32 = 1 << 28;
const KILLER: i32 = 1 << 27;
const COUNTER: i32 = (1 << 27) - 2;
const BAD_CAPTURE: i32 = -(1 << 26);
const UNDER_PROMOTION: i32 = -(1 << 28);

/// Scored moves of one node.
pub struct Picker {
    moves: ArrayVec<(Move, i32), MAX_MOVES>,
    next: usize,
}

/// `true` for moves the quiet-move heuristics apply to.
#[inline]
pub fn is_quiet(m: Move) -> bool {
    !m.is_capture() && m.promotion().is_none()
}

impl Picker {
    /// Scores `list` for the main search.
    pub fn new<P: Evaluate>(
        pos: &P,
        list: &MoveList,
        tt_move: Option<Move>,
        hist: &History,
        ply: usize,
        prev: Option<Move>,
        conts: [Option<usize>; 2],
    ) -> Picker {
        let killers = hist.killers[ply];
        let counter = prev.and_then(|p| hist.counter_of(p));
        let turn = pos.turn();
        let moves = list
            .iter()
            .map(|&m| {
                let s = if Some(m) == tt_move {
                    TT_MOVE
                } else if let Some(promo) = m.promotion().filter(|&r| r != Role::Queen) {
                    UNDER_PROMOTION + eval::role_value(promo)
                } else if m.is_capture() || m.promotion().is_some() {
                    // Captures that lose material by exchange go after
                    // the quiet moves.
                    let promo = m.promotion().map_or(0, eval::role_value);
                    let base = if pos.see_ge(m, 0) {
                        CAPTURE
                    } else {
                        BAD_CAPTURE
                    };
                    base + pos.capture_order(m) + promo * 10
                } else if Some(m) == killers[0] {
                    KILLER
                } else if Some(m) == killers[1] {
                    KILLER - 1
                } else if Some(m) == counter {
                    COUNTER
                } else {
                    let cur = pos.piece_at(m.from()).map(|p| context(p, m.to()));
                    hist.score(turn, m)
                        + cur.map_or(0, |c| hist.cont(conts[0], c) + hist.cont(conts[1], c))
                };
                (m, s)
            })
            .collect();
        Picker { moves, next: 0 }
    }

    /// Scores `list` for quiescence: MVV/LVA only (and the TT move first).
    pub fn captures<P: Evaluate>(pos: &P, list: &MoveList, tt_move: Option<Move>) -> Picker {
        let moves = list
            .iter()
            .map(|&m| {
                let s = if Some(m) == tt_move {
                    TT_MOVE
                } else {
                    let promo = m.promotion().map_or(0, eval::role_value);
                    let cap = if m.is_capture() {
                        pos.capture_order(m)
                    } else {
                        0
                    };
                    cap + promo * 10
                };
                (m, s)
            })
            .collect();
        Picker { moves, next: 0 }
    }

    /// The best remaining move and its ordering score.
    pub fn next(&mut self) -> Option<(Move, i32)> {
        let rest = self.moves.get(self.next..)?;
        let (i, _) = rest
            .iter()
            .enumerate()
            .max_by_key(|(i, (_, s))| (*s, -(*i as i64)))?;
        let i = self.next + i;
        self.moves.swap(self.next, i);
        let picked = self.moves[self.next];
        self.next += 1;
        Some(picked)
    }
}

/// `true` if an ordering score is a killer or the counter move.
#[inline]
pub fn is_refutation(score: i32) -> bool {
    (COUNTER..=KILLER).contains(&score)
}

#[cfg(test)]
mod tests {
    use super::*;
    use movegen::{Chess, Position};

    #[test]
    fn picker_visits_every_move_once_tt_move_first() {
        let pos =
            Chess::from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
                .unwrap_or_else(|_| Chess::startpos());
        let mut list = MoveList::new();
        pos.legal_moves(&mut list);
        let tt = list[list.len() - 1];
        let hist = History::new();
        let mut p = Picker::new(&pos, &list, Some(tt), &hist, 0, None, [None; 2]);
        let mut seen = Vec::new();
        while let Some((m, _)) = p.next() {
            seen.push(m);
        }
        assert_eq!(seen.len(), list.len());
        assert_eq!(seen[0], tt);
        let mut a: Vec<u32> = seen.iter().map(|m| m.bits()).collect();
        let mut b: Vec<u32> = list.iter().map(|m| m.bits()).collect();
        a.sort_unstable();
        b.sort_unstable();
        assert_eq!(a, b);
        // Captures that hold by exchange come before quiet moves, losing
        // ones after them.
        let first_quiet = seen.iter().skip(1).position(|m| is_quiet(*m)).unwrap_or(0) + 1;
        assert!(seen[first_quiet..]
            .iter()
            .all(|m| is_quiet(*m) || !pos.see_ge(*m, 0)));
        assert!(seen[1..first_quiet].iter().all(|m| !is_quiet(*m)));
        assert!(seen[first_quiet..].iter().any(|m| !is_quiet(*m)));
    }
}
