//! Move ordering: every legal move gets a score, then the best remaining
//! one is picked each time (selection sort — most nodes cut off after a
//! move or two, so sorting the whole list would be wasted).
//!
//! Order: the TT move, captures and queen promotions that do not lose
//! material by static exchange (by MVV/LVA, `Evaluate::capture_order`),
//! killers, the counter move, quiet moves by butterfly plus continuation
//! history (after the moves one and two plies up), losing captures,
//! under-promotions last.
//!
//! A picker lives in the worker, one per ply, and is refilled in place:
//! returning a list of ~1 100 scored moves by value cost a 9 KiB copy per
//! node, about a third of all search instructions.
//!
//! Scores that depend only on the position (exchange evaluation and
//! MVV/LVA) are computed when the first move after the TT move is asked
//! for, so a node the TT move cuts off never pays for them. History-based
//! scores are taken at once: the TT move's subtree changes the histories,
//! and the order must be exactly what scoring everything up front gives.

use super::history::{context, History};
use eval::Evaluate;
use movegen::{Move, MoveList, Position, Role, MAX_MOVES};

const TT_MOVE: i32 = 1 << 30;
const CAPTURE: i32 = 1 << 28;
const KILLER: i32 = 1 << 27;
const COUNTER: i32 = (1 << 27) - 2;
const BAD_CAPTURE: i32 = -(1 << 26);
const UNDER_PROMOTION: i32 = -(1 << 28);

/// Which scores [`Picker::next`] still has to compute before selecting.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Pending {
    /// Every score is known.
    Nothing,
    /// Main search: captures and queen promotions.
    Captures,
    /// Quiescence: every move (all of them are scored by MVV/LVA).
    Quiescence,
}

/// The moves of one node with their ordering scores (`scores[i]` belongs
/// to `moves[i]`; both are permuted together).
pub struct Picker {
    moves: MoveList,
    scores: [i32; MAX_MOVES],
    next: usize,
    /// `moves[0]` is the TT move and has not been returned yet.
    tt_first: bool,
    pending: Pending,
}

/// `true` for moves the quiet-move heuristics apply to.
#[inline]
pub fn is_quiet(m: Move) -> bool {
    !m.is_capture() && m.promotion().is_none()
}

/// A promotion to anything but a queen.
#[inline]
fn under_promotion(m: Move) -> Option<Role> {
    m.promotion().filter(|&r| r != Role::Queen)
}

/// The main search's score of a capture or queen promotion: by exchange
/// first (losing ones after the quiet moves), then MVV/LVA.
#[inline]
fn capture_score<P: Evaluate>(pos: &P, m: Move) -> i32 {
    let promo = m.promotion().map_or(0, eval::role_value);
    let base = if pos.see_ge(m, 0) {
        CAPTURE
    } else {
        BAD_CAPTURE
    };
    base + pos.capture_order(m) + promo * 10
}

/// Quiescence's score: MVV/LVA only.
#[inline]
fn quiescence_score<P: Evaluate>(pos: &P, m: Move) -> i32 {
    let promo = m.promotion().map_or(0, eval::role_value);
    let cap = if m.is_capture() {
        pos.capture_order(m)
    } else {
        0
    };
    cap + promo * 10
}

impl Picker {
    /// An empty picker (the worker keeps one per ply).
    pub fn new() -> Picker {
        Picker {
            moves: MoveList::new(),
            scores: [0; MAX_MOVES],
            next: 0,
            tt_first: false,
            pending: Pending::Nothing,
        }
    }

    /// The number of moves held (legal moves, or quiescence's selection).
    #[inline]
    pub fn len(&self) -> usize {
        self.moves.len()
    }

    /// Moves the TT move, if it is among the moves, to the front, as the
    /// first selection would: the rest keep the order that selection leaves.
    fn tt_to_front(&mut self, tt_move: Option<Move>) {
        self.tt_first = false;
        if let Some(t) = tt_move.and_then(|tt| self.moves.iter().position(|&m| m == tt)) {
            self.moves.swap(0, t);
            self.scores.swap(0, t);
            self.scores[0] = TT_MOVE;
            self.tt_first = true;
        }
    }

    /// Generates and scores the legal moves for the main search.
    pub fn fill_main<P: Position + Evaluate>(
        &mut self,
        pos: &P,
        tt_move: Option<Move>,
        hist: &History,
        ply: usize,
        prev: Option<Move>,
        conts: [Option<usize>; 2],
    ) {
        self.moves.clear();
        self.next = 0;
        pos.legal_moves(&mut self.moves);
        let killers = hist.killers[ply];
        let counter = prev.and_then(|p| hist.counter_of(p));
        let turn = pos.turn();
        for (&m, s) in self.moves.iter().zip(self.scores.iter_mut()) {
            *s = if let Some(promo) = under_promotion(m) {
                UNDER_PROMOTION + eval::role_value(promo)
            } else if !is_quiet(m) {
                // Filled in by `next` (the TT move's score is set below).
                0
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
        }
        self.tt_to_front(tt_move);
        self.pending = Pending::Captures;
    }

    /// Generates the moves quiescence searches: every legal move in check,
    /// otherwise the captures and queen promotions the variant wants tried.
    pub fn fill_quiescence<P: Position + Evaluate>(
        &mut self,
        pos: &P,
        in_check: bool,
        tt_move: Option<Move>,
    ) {
        self.moves.clear();
        self.next = 0;
        if in_check {
            pos.legal_moves(&mut self.moves);
        } else {
            pos.tactical_moves(&mut self.moves);
            self.moves.retain(|m| pos.quiescence_candidate(*m));
        }
        self.tt_to_front(tt_move);
        self.pending = Pending::Quiescence;
    }

    /// Computes the scores that wait for the first selection after the TT
    /// move (they depend only on the position, which is the node's again).
    fn score_pending<P: Evaluate>(&mut self, pos: &P) {
        let from = usize::from(self.tt_first);
        let moves = &self.moves[from..];
        let scores = &mut self.scores[from..moves.len() + from];
        match self.pending {
            Pending::Nothing => {}
            Pending::Captures => {
                for (&m, s) in moves.iter().zip(scores) {
                    if !is_quiet(m) && under_promotion(m).is_none() {
                        *s = capture_score(pos, m);
                    }
                }
            }
            Pending::Quiescence => {
                for (&m, s) in moves.iter().zip(scores) {
                    *s = quiescence_score(pos, m);
                }
            }
        }
        self.pending = Pending::Nothing;
    }

    /// The best remaining move and its ordering score; `pos` must be the
    /// position the picker was filled in.
    pub fn next<P: Evaluate>(&mut self, pos: &P) -> Option<(Move, i32)> {
        if self.tt_first && self.next == 0 {
            self.next = 1;
            return Some((self.moves[0], TT_MOVE));
        }
        if self.pending != Pending::Nothing {
            self.score_pending(pos);
        }
        let n = self.moves.len();
        let rest = self.scores.get(self.next..n)?;
        // The first of the highest scores (ties keep their list order), in
        // two passes: the maximum alone is a branch-free vector loop.
        let top = rest.iter().fold(i32::MIN, |a, &b| a.max(b));
        let best = rest.iter().position(|&s| s == top)?;
        let i = self.next + best;
        self.moves.swap(self.next, i);
        self.scores.swap(self.next, i);
        let picked = (self.moves[self.next], self.scores[self.next]);
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
    use movegen::{Chess, Plunder, Tavreli, Variant};

    /// The ordering as it was first written, kept as the reference: every
    /// move scored up front, then selection with the lowest index winning
    /// ties.
    fn reference_order(mut moves: Vec<(Move, i32)>) -> Vec<(Move, i32)> {
        let mut out = Vec::new();
        for next in 0..moves.len() {
            let (i, _) = moves[next..]
                .iter()
                .enumerate()
                .max_by_key(|(i, (_, s))| (*s, -(*i as i64)))
                .unwrap_or((0, &moves[next]));
            moves.swap(next, next + i);
            out.push(moves[next]);
        }
        out
    }

    fn reference_main<P: Position + Evaluate>(
        pos: &P,
        tt_move: Option<Move>,
        hist: &History,
        ply: usize,
        prev: Option<Move>,
        conts: [Option<usize>; 2],
    ) -> Vec<(Move, i32)> {
        let mut list = MoveList::new();
        pos.legal_moves(&mut list);
        let killers = hist.killers[ply];
        let counter = prev.and_then(|p| hist.counter_of(p));
        let scored = list
            .iter()
            .map(|&m| {
                let s = if Some(m) == tt_move {
                    TT_MOVE
                } else if let Some(promo) = m.promotion().filter(|&r| r != Role::Queen) {
                    UNDER_PROMOTION + eval::role_value(promo)
                } else if m.is_capture() || m.promotion().is_some() {
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
                    hist.score(pos.turn(), m)
                        + cur.map_or(0, |c| hist.cont(conts[0], c) + hist.cont(conts[1], c))
                };
                (m, s)
            })
            .collect();
        reference_order(scored)
    }

    fn reference_quiescence<P: Position + Evaluate>(
        pos: &P,
        in_check: bool,
        tt_move: Option<Move>,
    ) -> Vec<(Move, i32)> {
        let mut list = MoveList::new();
        pos.legal_moves(&mut list);
        if !in_check {
            list.retain(|m| {
                (m.is_capture() || m.promotion() == Some(Role::Queen))
                    && pos.quiescence_candidate(*m)
            });
        }
        let scored = list
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
        reference_order(scored)
    }

    fn drain<P: Evaluate>(picker: &mut Picker, pos: &P) -> Vec<(Move, i32)> {
        std::iter::from_fn(|| picker.next(pos)).collect()
    }

    /// Random games from every bench position of the variant: at each node
    /// the picker returns exactly the reference order and scores, with
    /// histories, killers and counter moves that differ from zero, the TT
    /// move absent, legal, or a move of another position.
    fn picker_matches_reference<P: Position + Evaluate>(variant: Variant) {
        let mut rng = movegen::SplitMix::new(0x9E37_79B9_7F4A_7C15);
        let mut hist = History::new();
        let mut picker = Picker::new();
        let mut stale = None;
        let mut nodes = 0;
        let mut checked_tt_first = 0;
        assert_eq!(variant, P::VARIANT);
        for &fen in variant.bench_positions() {
            let mut pos = P::from_fen(fen).expect("bench FEN");
            let mut prev = None;
            for ply in 0..40 {
                let mut list = MoveList::new();
                pos.legal_moves(&mut list);
                if list.is_empty() {
                    break;
                }
                for _ in 0..4 {
                    let m = list[rng.below(list.len())];
                    let bonus = i32::try_from(rng.below(4000)).unwrap_or(0) - 2000;
                    hist.update(pos.turn(), m, bonus);
                    let piece = pos.piece_at(m.from()).map(|p| context(p, m.to()));
                    if let Some(c) = piece {
                        hist.update_cont(Some(c), c, bonus);
                    }
                }
                hist.add_killer(ply, list[rng.below(list.len())]);
                if let Some(p) = prev {
                    hist.set_counter(p, list[rng.below(list.len())]);
                }
                let cur = pos
                    .piece_at(list[0].from())
                    .map(|p| context(p, list[0].to()));
                let conts = [cur, None];
                let in_check = pos.is_check();
                for tt in [None, Some(list[rng.below(list.len())]), stale] {
                    picker.fill_main(&pos, tt, &hist, ply, prev, conts);
                    let got = drain(&mut picker, &pos);
                    assert_eq!(got, reference_main(&pos, tt, &hist, ply, prev, conts));
                    assert_eq!(got.len(), list.len());
                    checked_tt_first += usize::from(tt.is_some() && got[0].0 == tt.unwrap());
                    picker.fill_quiescence(&pos, in_check, tt);
                    let got = drain(&mut picker, &pos);
                    assert_eq!(got, reference_quiescence(&pos, in_check, tt));
                    nodes += 1;
                }
                stale = Some(list[rng.below(list.len())]);
                // Prefer captures now and then so exchanges get tested.
                let captures: Vec<Move> = list.iter().copied().filter(|m| m.is_capture()).collect();
                let m = if !captures.is_empty() && rng.below(2) == 0 {
                    captures[rng.below(captures.len())]
                } else {
                    list[rng.below(list.len())]
                };
                pos.make(m);
                prev = Some(m);
            }
        }
        assert!(nodes > 100, "{nodes}");
        assert!(checked_tt_first > 50, "{checked_tt_first}");
    }

    #[test]
    fn picker_matches_reference_chess() {
        picker_matches_reference::<Chess>(Variant::Chess);
    }

    #[test]
    fn picker_matches_reference_plunder() {
        picker_matches_reference::<Plunder>(Variant::Plunder);
    }

    #[test]
    fn picker_matches_reference_tavreli() {
        picker_matches_reference::<Tavreli>(Variant::Tavreli);
    }

    /// Lazily scored captures are computed after the TT move's subtree; the
    /// histories it changed must not leak into the order (they only affect
    /// quiet moves, which were scored before).
    #[test]
    fn history_changes_after_the_tt_move_do_not_change_the_order() {
        let pos =
            Chess::from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
                .unwrap_or_else(|_| Chess::startpos());
        let mut list = MoveList::new();
        pos.legal_moves(&mut list);
        let tt = list[list.len() - 1];
        let mut hist = History::new();
        let expected = reference_main(&pos, Some(tt), &hist, 0, None, [None; 2]);
        let mut picker = Picker::new();
        picker.fill_main(&pos, Some(tt), &hist, 0, None, [None; 2]);
        assert_eq!(picker.next(&pos), Some((tt, TT_MOVE)));
        for &m in &list {
            hist.update(pos.turn(), m, 1_000);
            hist.add_killer(0, m);
        }
        let mut got = vec![(tt, TT_MOVE)];
        got.extend(drain(&mut picker, &pos));
        assert_eq!(got, expected);
    }

    #[test]
    fn picker_visits_every_move_once_tt_move_first() {
        let pos =
            Chess::from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
                .unwrap_or_else(|_| Chess::startpos());
        let mut list = MoveList::new();
        pos.legal_moves(&mut list);
        let tt = list[list.len() - 1];
        let hist = History::new();
        let mut p = Picker::new();
        p.fill_main(&pos, Some(tt), &hist, 0, None, [None; 2]);
        let seen: Vec<Move> = drain(&mut p, &pos).into_iter().map(|(m, _)| m).collect();
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
