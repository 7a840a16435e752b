//! The alpha-beta node (principal variation search) and quiescence.
//!
//! Scores are from the side to move's view (negamax). Mate scores count
//! plies from the root, the TT stores them relative to the node
//! (`crate::score`).

use super::history::{bonus, context};
use super::picker::{is_quiet, is_refutation};
use super::thread::Worker;
use crate::score::{from_tt, is_mate, mate_at, mated_at, to_tt, INFINITE, MATE_BOUND, MAX_PLY};
use crate::tt::{Bound, Entry};
use arrayvec::ArrayVec;
use eval::Evaluate;
use movegen::{Move, Position};

/// Quiet moves remembered per node for the history malus.
const MAX_QUIETS: usize = 64;
/// Shallowest node that tests its TT move for singularity.
const SINGULAR_DEPTH: i32 = 6;

/// What the singularity test of a TT move decided.
enum Singular {
    /// The node's result, without searching its moves.
    Cut(i32),
    /// Plies added to the TT move's depth (negative: taken away).
    Extend(i32),
}

impl<P: Position + Evaluate> Worker<'_, P> {
    /// Draw by the fifty-move rule, insufficient material or repetition
    /// (one earlier occurrence within the reversible moves suffices inside
    /// the search).
    fn is_draw(&self, in_check: bool) -> bool {
        let halfmoves = self.pos.halfmoves() as usize;
        if halfmoves >= 100 {
            // Mate on the hundredth ply still counts as mate.
            return !in_check || self.pos.count_legal() > 0;
        }
        if self.pos.insufficient_material() {
            return true;
        }
        let key = self.pos.key();
        let n = self.keys.len();
        let window = halfmoves.min(n);
        let mut i = 4;
        while i <= window {
            if self.keys[n - i] == key {
                return true;
            }
            i += 2;
        }
        false
    }

    fn store(&self, key: u64, mv: Option<Move>, score: i32, depth: i32, bound: Bound, ply: usize) {
        self.shared.tt.store(
            key,
            Entry {
                mv,
                score: to_tt(score, ply),
                depth,
                bound,
                age: 0,
            },
        );
    }

    /// Plays `m` and pushes the position's key on the path.
    #[inline]
    fn push(&mut self, m: Option<Move>, ply: usize) -> P::Undo {
        self.keys.push(self.pos.key());
        self.played[ply] = m;
        self.contexts[ply] =
            m.and_then(|m| self.pos.piece_at(m.from()).map(|p| context(p, m.to())));
        match m {
            Some(m) => self.pos.make(m),
            None => self.pos.make_null(),
        }
    }

    #[inline]
    fn pop(&mut self, m: Option<Move>, undo: P::Undo) {
        self.keys.pop();
        match m {
            Some(m) => self.pos.unmake(m, undo),
            None => self.pos.unmake_null(undo),
        }
    }

    /// Updates the butterfly and continuation histories of a quiet move.
    fn reward(&mut self, turn: movegen::Color, m: Move, bonus: i32, conts: [Option<usize>; 2]) {
        self.hist.update(turn, m, bonus);
        if let Some(piece) = self.pos.piece_at(m.from()) {
            let cur = context(piece, m.to());
            self.hist.update_cont(conts[0], cur, bonus);
            self.hist.update_cont(conts[1], cur, bonus);
        }
    }

    /// The position's static evaluation, from the cache when this key was
    /// evaluated before in this search.
    fn static_eval(&mut self) -> i32 {
        let pos = &self.pos;
        self.eval_cache.get_or(pos.key(), || pos.evaluate())
    }

    /// Copies `m` followed by the child's PV into this ply's PV.
    fn update_pv(&mut self, ply: usize, m: Move) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        let line = &mut head[ply];
        line.clear();
        line.push(m);
        for &c in &tail[0] {
            if line.try_push(c).is_err() {
                break;
            }
        }
    }

    /// The alpha-beta search of a non-root node (steps numbered).
    pub fn search(
        &mut self,
        mut alpha: i32,
        mut beta: i32,
        mut depth: i32,
        ply: usize,
        cut_node: bool,
    ) -> i32 {
        // 1. Leaves go to quiescence.
        if depth <= 0 {
            return self.qsearch(alpha, beta, ply, 0);
        }
        let pv_node = beta - alpha > 1;
        self.pv[ply].clear();
        if self.tick() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        let in_check = self.pos.is_check();

        // 2. Draws, the ply cap, mate distance pruning.
        if self.is_draw(in_check) {
            return 0;
        }
        if ply >= MAX_PLY - 1 {
            return if in_check { 0 } else { self.pos.evaluate() };
        }
        alpha = alpha.max(mated_at(ply));
        beta = beta.min(mate_at(ply + 1));
        if alpha >= beta {
            return alpha;
        }

        // 3. Transposition table. A singular-extension search leaves it
        // alone: its entry is the node's own, whose move it excludes.
        let excluded = self.excluded[ply];
        let key = self.pos.key();
        let entry = if excluded.is_some() {
            None
        } else {
            self.shared.tt.probe(key)
        };
        let tt_move = entry.and_then(|e| e.mv);
        if let Some(e) = entry {
            let s = from_tt(e.score, ply);
            if !pv_node
                && e.depth >= depth
                && match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => s >= beta,
                    Bound::Upper => s <= alpha,
                }
            {
                return s;
            }
        }

        // 4. Static evaluation, corrected by what earlier searches found
        // for this correction key, then refined by a TT bound that agrees.
        let turn = self.pos.turn();
        let correction_key = self.pos.correction_key();
        let (raw_eval, static_eval) = if in_check {
            (-INFINITE, -INFINITE)
        } else {
            let raw = self.static_eval();
            (raw, raw + self.hist.correction(turn, correction_key))
        };
        let eval = if in_check {
            -INFINITE
        } else {
            let raw = static_eval;
            match entry {
                Some(e)
                    if !is_mate(e.score)
                        && match e.bound {
                            Bound::Exact => true,
                            Bound::Lower => e.score > raw,
                            Bound::Upper => e.score < raw,
                        } =>
                {
                    e.score
                }
                _ => raw,
            }
        };
        self.evals[ply] = eval;
        let improving = !in_check && ply >= 2 && eval > self.evals[ply - 2];
        self.hist.clear_killers(ply + 1);

        if !pv_node && !in_check && excluded.is_none() {
            // 5. Reverse futility: far above beta at low depth.
            if depth <= 7
                && eval - P::MARGINS.reverse_futility * depth
                    + P::MARGINS.reverse_futility_improving * i32::from(improving)
                    >= beta
                && eval < MATE_BOUND
            {
                return eval;
            }

            // 6. Null move: pass; if still above beta, cut.
            if depth >= 3
                && eval >= beta
                && self.played[ply - 1].is_some()
                && beta > -MATE_BOUND
                && self.pos.null_move_safe()
            {
                let r = 3 + depth / 4 + ((eval - beta) / P::MARGINS.null_move_excess).min(3);
                let undo = self.push(None, ply);
                let s = -self.search(-beta, -beta + 1, depth - r, ply + 1, !cut_node);
                self.pop(None, undo);
                if self.stopped {
                    return 0;
                }
                if s >= beta {
                    return if s >= MATE_BOUND { beta } else { s };
                }
            }

            // 7. Razoring: hopeless at low depth unless a capture saves it.
            if depth <= 3 && eval + P::MARGINS.razoring * depth < alpha {
                let s = self.qsearch(alpha, alpha + 1, ply, 0);
                if s <= alpha {
                    return s;
                }
            }
        }

        // 8. Internal iterative reduction: no TT move to guide a deep node.
        if tt_move.is_none() && depth >= 4 && (pv_node || cut_node) && excluded.is_none() {
            depth -= 1;
        }
        let singular_ext = match self.singular_extension(entry, depth, ply, beta, cut_node) {
            Singular::Cut(s) => return s,
            Singular::Extend(ext) => ext,
        };
        if self.stopped {
            return 0;
        }

        // 9. Moves. A TT move is only used if it is in the legal list.
        // This ply's picker: the razoring quiescence above, the only other
        // user of it, has returned; children use the next ones.
        let prev = self.played[ply - 1];
        let conts = [
            self.contexts[ply - 1],
            ply.checked_sub(2).and_then(|p| self.contexts[p]),
        ];
        self.pickers[ply].fill_main(&self.pos, tt_move, &self.hist, ply, prev, conts);
        if self.pickers[ply].len() == 0 {
            return if in_check { mated_at(ply) } else { 0 };
        }

        let mut best_score = -INFINITE;
        let mut best_move = None;
        let mut move_count = 0usize;
        let mut quiets: ArrayVec<Move, MAX_QUIETS> = ArrayVec::new();
        let mut skip_quiets = false;
        let lmp_limit = (3 + depth * depth) as usize / if improving { 1 } else { 2 };

        while let Some((m, order)) = self.pickers[ply].next(&self.pos) {
            if Some(m) == excluded {
                continue;
            }
            let quiet = is_quiet(m);
            // 10. Shallow pruning of late quiet moves (checking moves are
            // kept: they are found out by playing them).
            let mut prune = false;
            if best_score > -MATE_BOUND && !in_check {
                if !quiet {
                    // Captures losing too much by exchange.
                    prune = depth <= 6 && !self.pos.see_ge(m, -100 * depth);
                } else if skip_quiets {
                    prune = true;
                } else if (depth <= 8 && move_count >= lmp_limit)
                    || (depth <= 6
                        && eval + P::MARGINS.futility_base + P::MARGINS.futility * depth <= alpha)
                {
                    skip_quiets = true;
                    prune = true;
                } else if depth <= 3 && self.hist.score(turn, m) < -3000 * depth {
                    prune = true;
                } else if depth <= 8 && !self.pos.see_ge(m, -20 * depth * depth) {
                    // Quiet moves that hang the piece.
                    prune = true;
                }
            }

            let undo = self.push(Some(m), ply);
            let gives_check = self.pos.is_check();
            if prune && !gives_check {
                self.pop(Some(m), undo);
                continue;
            }
            move_count += 1;
            // 11. Check extension, or the TT move's singular extension
            // (which already covers a check; a negative one does not).
            let check_ext = i32::from(gives_check && self.may_extend(ply));
            let ext = if Some(m) != tt_move {
                check_ext
            } else if singular_ext > 0 {
                singular_ext
            } else {
                singular_ext + check_ext
            };
            let new_depth = depth - 1 + ext;

            // 12. PVS with late-move reductions.
            let score = if move_count == 1 {
                -self.search(-beta, -alpha, new_depth, ply + 1, !pv_node && !cut_node)
            } else {
                let mut r = 0;
                if depth >= 3 && move_count > 1 + usize::from(pv_node) && quiet {
                    r = self.lmr.get(depth, move_count);
                    r -= i32::from(pv_node);
                    r += i32::from(!improving);
                    r += i32::from(cut_node);
                    r -= i32::from(gives_check);
                    r -= i32::from(is_refutation(order));
                    r -= self.hist.score(turn, m) / 6000;
                    r = r.clamp(0, new_depth - 1);
                }
                let mut s = -self.search(-alpha - 1, -alpha, new_depth - r, ply + 1, true);
                if s > alpha && r > 0 {
                    s = -self.search(-alpha - 1, -alpha, new_depth, ply + 1, !cut_node);
                }
                if pv_node && s > alpha && s < beta {
                    s = -self.search(-beta, -alpha, new_depth, ply + 1, false);
                }
                s
            };
            self.pop(Some(m), undo);
            if self.stopped {
                return 0;
            }

            // 13. Best move so far.
            if score > best_score {
                best_score = score;
                if score > alpha {
                    best_move = Some(m);
                    if pv_node {
                        self.update_pv(ply, m);
                    }
                    if score >= beta {
                        break;
                    }
                    alpha = score;
                }
            }
            if quiet && Some(m) != best_move {
                let _ = quiets.try_push(m);
            }
        }

        // 14. A quiet cutoff teaches killers, counter move and history.
        if best_score >= beta {
            if let Some(m) = best_move.filter(|&m| is_quiet(m)) {
                let b = bonus(depth);
                self.hist.add_killer(ply, m);
                if let Some(p) = prev {
                    self.hist.set_counter(p, m);
                }
                self.reward(turn, m, b, conts);
                for &q in &quiets {
                    self.reward(turn, q, -b, conts);
                }
            }
        }

        // A singular-extension search stores nothing and teaches no
        // correction (the table keeps the node's real result); with no other
        // move searched it fails low.
        if excluded.is_some() {
            return if move_count == 0 { alpha } else { best_score };
        }

        // 15. Store.
        let bound = if best_score >= beta {
            Bound::Lower
        } else if pv_node && best_move.is_some() {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.store(key, best_move, best_score, depth, bound, ply);

        // 16. The correction history learns from a score whose bound
        // still says which way the static evaluation erred (a fail-high
        // that is not above it, or a fail-low that is not below it, says
        // nothing), and only when no capture decided the score.
        if !in_check
            && best_move.is_none_or(is_quiet)
            && best_score.abs() < MATE_BOUND
            && !(bound == Bound::Lower && best_score <= static_eval)
            && !(bound == Bound::Upper && best_score >= static_eval)
        {
            self.hist
                .update_correction(turn, correction_key, best_score - raw_eval, depth);
        }
        best_score
    }

    /// Extensions stop at twice the root depth, so that checks and
    /// singular moves cannot run away.
    #[inline]
    fn may_extend(&self, ply: usize) -> bool {
        ply < 2 * self.root_depth as usize
    }

    /// Singular extensions: the TT move, stored as a lower bound from a
    /// search not much shallower, is searched one ply deeper when every
    /// other move, searched to half depth, fails below its score by a
    /// margin. When even the others reach β the node cuts (multi-cut);
    /// when only the TT move's score says β, it is searched one ply less.
    fn singular_extension(
        &mut self,
        entry: Option<Entry>,
        depth: i32,
        ply: usize,
        beta: i32,
        cut_node: bool,
    ) -> Singular {
        let Some(e) = entry else {
            return Singular::Extend(0);
        };
        let Some(tt_move) = e.mv else {
            return Singular::Extend(0);
        };
        if !P::SINGULAR_EXTENSIONS
            || depth < SINGULAR_DEPTH
            || !self.may_extend(ply)
            || e.depth < depth - 3
            || e.bound == Bound::Upper
            || is_mate(e.score)
        {
            return Singular::Extend(0);
        }
        let tt_score = e.score;
        let singular_beta = tt_score - 2 * depth;
        // The test's node is this ply's: it overwrites the ply's evaluation,
        // which the node's own moves still need (improving, two plies down).
        let eval = self.evals[ply];
        self.excluded[ply] = Some(tt_move);
        let s = self.search(
            singular_beta - 1,
            singular_beta,
            (depth - 1) / 2,
            ply,
            cut_node,
        );
        self.excluded[ply] = None;
        self.evals[ply] = eval;
        if self.stopped {
            return Singular::Extend(0);
        }
        if s < singular_beta {
            Singular::Extend(1)
        } else if singular_beta >= beta {
            Singular::Cut(singular_beta)
        } else if tt_score >= beta {
            Singular::Extend(-1)
        } else {
            Singular::Extend(0)
        }
    }

    /// Quiescence: captures and promotions until the position is quiet
    /// (stand pat), or every evasion when in check.
    pub fn qsearch(&mut self, mut alpha: i32, beta: i32, ply: usize, qply: usize) -> i32 {
        self.pv[ply].clear();
        if self.tick() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        let in_check = self.pos.is_check();
        if self.is_draw(in_check) {
            return 0;
        }
        if ply >= MAX_PLY - 1 || qply >= P::QSEARCH_PLIES {
            return if in_check && ply >= MAX_PLY - 1 {
                0
            } else {
                self.pos.evaluate()
            };
        }
        let pv_node = beta - alpha > 1;

        let key = self.pos.key();
        let entry = self.shared.tt.probe(key);
        if let Some(e) = entry {
            let s = from_tt(e.score, ply);
            if !pv_node
                && match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => s >= beta,
                    Bound::Upper => s <= alpha,
                }
            {
                return s;
            }
        }

        let mut best_score = -INFINITE;
        let stand_pat = if in_check {
            -INFINITE
        } else {
            let correction = self
                .hist
                .correction(self.pos.turn(), self.pos.correction_key());
            let s = self.static_eval() + correction;
            if s >= beta {
                return s;
            }
            alpha = alpha.max(s);
            best_score = s;
            s
        };

        let tt_move = entry.and_then(|e| e.mv);
        self.pickers[ply].fill_quiescence(&self.pos, in_check, tt_move);
        if in_check && self.pickers[ply].len() == 0 {
            return mated_at(ply);
        }
        let mut best_move = None;
        while let Some((m, _)) = self.pickers[ply].next(&self.pos) {
            // Delta pruning: even winning the victim for free cannot reach alpha.
            if !in_check
                && m.promotion().is_none()
                && stand_pat + self.pos.capture_value(m) + P::MARGINS.delta <= alpha
            {
                continue;
            }
            // Captures that lose material by exchange.
            if !in_check && !self.pos.see_ge(m, 0) {
                continue;
            }
            let undo = self.push(Some(m), ply);
            let score = -self.qsearch(-beta, -alpha, ply + 1, qply + 1);
            self.pop(Some(m), undo);
            if self.stopped {
                return 0;
            }
            if score > best_score {
                best_score = score;
                if score > alpha {
                    best_move = Some(m);
                    if pv_node {
                        self.update_pv(ply, m);
                    }
                    if score >= beta {
                        break;
                    }
                    alpha = score;
                }
            }
        }
        let bound = if best_score >= beta {
            Bound::Lower
        } else {
            Bound::Upper
        };
        self.store(key, best_move, best_score, 0, bound, ply);
        best_score
    }
}

#[cfg(test)]
mod tests {
    use super::super::shared::{Control, Shared};
    use super::*;
    use crate::game::Game;
    use movegen::{Chess, MoveList};
    use std::time::Instant;

    /// The singularity test of `tt_move` stored as a lower bound of
    /// `tt_score` at depth 8, in a depth-8 node at ply 1 with `beta`.
    fn singular(fen: &str, tt_move: &str, tt_score: i32, beta: i32) -> Singular {
        let game = Game::<Chess>::new(Some(fen)).expect("valid FEN");
        let mut list = MoveList::new();
        game.position().legal_moves(&mut list);
        let mv = list.iter().copied().find(|m| m.to_string() == tt_move);
        assert!(mv.is_some(), "{tt_move} is legal in {fen}");
        let shared = Shared::new(1);
        let ctl = Control {
            start: Instant::now(),
            budget: None,
            max_depth: 20,
            node_limit: None,
            mate: None,
            infinite: false,
            multipv: 1,
            report_multipv: 1,
            threads: 1,
            show_wdl: false,
            wdl_stage: eval::wdl::Stage {
                material: 78,
                ply: 0,
            },
        };
        let mut w = Worker::new(0, &game, &shared, &ctl, list.to_vec(), None);
        w.root_depth = 8;
        let entry = Entry {
            mv,
            score: tt_score,
            depth: 8,
            bound: Bound::Lower,
            age: 0,
        };
        w.singular_extension(Some(entry), 8, 1, beta, false)
    }

    const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

    #[test]
    fn a_tt_move_far_above_the_others_is_extended() {
        assert!(matches!(
            singular(START, "e2e4", 900, 100),
            Singular::Extend(1)
        ));
        // The only legal move (Kh2 out of check) is singular by itself.
        let forced = "7k/8/8/8/4b3/8/8/r6K w - - 0 1";
        assert!(matches!(
            singular(forced, "h1h2", 0, 10),
            Singular::Extend(1)
        ));
    }

    #[test]
    fn other_moves_reaching_beta_cut_or_shorten_the_tt_move() {
        // Every other opening move also reaches -216 >= beta: multi-cut.
        assert!(matches!(
            singular(START, "e2e4", -200, -300),
            Singular::Cut(-216)
        ));
        // They reach -216, below beta; only the TT move's score says beta.
        assert!(matches!(
            singular(START, "e2e4", -200, -205),
            Singular::Extend(-1)
        ));
        // Neither: no extension.
        assert!(matches!(
            singular(START, "e2e4", -200, 0),
            Singular::Extend(0)
        ));
    }
}
