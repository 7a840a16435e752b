//! Tavreli move generation: pseudo-legal targets from the tower tops (the
//! chess bitboard code), legality from facts computed once per node, and a
//! `Plan` per move (the towers it leaves behind) for `make` and for the few
//! moves still tested by trial.
//!
//! A move is legal if afterwards the mover's king is not attacked (RULES.md
//! §4.5). A move of the top k pieces from `from` to `to` changes the attack
//! picture in three ways only: `to` gets an own top (it covers an enemy top
//! there, and blocks any line through it); `from` is emptied when the whole
//! tower goes (a line through it may open) or else shows the bottom part's
//! new top R (promoted if it is a pawn on its last rank), still occupying
//! `from`; and the king's square changes when the group is the king's.
//! Hence, with the checkers, the evasion mask (checker plus the squares
//! between it and the king; nothing in double check) and the own tops pinned
//! to the king computed once per node:
//!
//! 1. whole tower, not the king's: legal iff `to` is in the evasion mask and,
//!    if `from` is pinned, on the line through the king and `from`;
//! 2. top k < height, not the king's: `from` stays occupied, so no line opens
//!    and pins do not matter; legal iff `to` is in the evasion mask and R is
//!    own or does not attack the king — or R is a slider whose line to the
//!    king `to` blocks;
//! 3. the king's group: legal iff no enemy top other than the one on `to`
//!    attacks `to` with `from` vacated (whole tower) or still occupied and,
//!    if R is an enemy, R does not attack `to` (top k < height).
//!
//! En passant (a third square is emptied) and castling (two towers move)
//! keep the trial: `plan`, then "king attacked?" on the new tops. The proof
//! sketch is in `docs/tavreli.md`; the unit test
//! `fast_generator_equals_the_trial_reference` checks the generator against
//! the trial of every pseudo-legal move (`generate_by_trial`) over random
//! games from tower-rich positions, in order.

use super::tower::{home_piece, Tower, TowerPiece, TOWER_CAPACITY};
use super::Tavreli;
use crate::attacks;
use crate::bitboard::Bitboard;
use crate::chess::{CASTLES, CASTLE_KEEP};
use crate::moves::{Move, MoveKind};
use crate::types::{Color, Role, Square};

/// Bitboards of tower tops: by colour and by the role the top moves as (a
/// promoted pawn counts as its promotion piece).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub(super) struct Tops {
    pub color: [Bitboard; 2],
    pub role: [Bitboard; 7],
}

impl Tops {
    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.color[0] | self.color[1]
    }

    #[inline]
    pub fn pieces(&self, color: Color, role: Role) -> Bitboard {
        self.color[color.index()] & self.role[role.index()]
    }

    /// Replaces the top on `sq` (`old` must be what is there now).
    #[inline]
    pub fn set(&mut self, sq: Square, old: Option<TowerPiece>, new: Option<TowerPiece>) {
        if let Some(p) = old {
            self.color[p.color().index()].remove(sq);
            self.role[p.role().index()].remove(sq);
        }
        if let Some(p) = new {
            self.color[p.color().index()].add(sq);
            self.role[p.role().index()].add(sq);
        }
    }

    /// The king of `color` (the FEN reader guarantees exactly one).
    #[inline]
    pub fn king(&self, color: Color) -> Square {
        self.pieces(color, Role::King).lsb()
    }

    /// The tops of `by` that could move their piece onto `sq` when `occ` is
    /// occupied (RULES.md §4.5: kings count as targets here; pawns attack
    /// diagonally forward only).
    #[inline]
    pub fn attackers(&self, sq: Square, by: Color, occ: Bitboard) -> Bitboard {
        let r = &self.role;
        let helgi = r[Role::Helgi.index()];
        let queens = r[Role::Queen.index()] | helgi;
        ((attacks::knight(sq) & (r[Role::Knight.index()] | helgi))
            | (attacks::king(sq) & r[Role::King.index()])
            | (attacks::pawn(by.flip(), sq) & r[Role::Pawn.index()])
            | (attacks::bishop(sq, occ) & (r[Role::Bishop.index()] | queens))
            | (attacks::rook(sq, occ) & (r[Role::Rook.index()] | queens)))
            & self.color[by.index()]
    }

    /// `true` if a top of `by` could move its piece onto `sq`.
    #[inline]
    pub fn attacked(&self, sq: Square, by: Color) -> bool {
        self.attackers(sq, by, self.occupied()).nonempty()
    }

    /// Every square a top of `by` could move its piece onto when `occ` is
    /// occupied (a top never attacks its own square).
    #[inline]
    pub fn attack_map(&self, by: Color, occ: Bitboard) -> Bitboard {
        let theirs = self.color[by.index()];
        let r = &self.role;
        let helgi = r[Role::Helgi.index()];
        let queens = r[Role::Queen.index()] | helgi;
        let pawns = (r[Role::Pawn.index()] & theirs).0;
        // Diagonally forward, not across the a/h edge.
        let (not_a, not_h) = (!0x0101_0101_0101_0101u64, !0x8080_8080_8080_8080u64);
        let mut map = Bitboard(match by {
            Color::White => ((pawns & not_a) << 7) | ((pawns & not_h) << 9),
            Color::Black => ((pawns & not_a) >> 9) | ((pawns & not_h) >> 7),
        });
        for sq in (r[Role::Knight.index()] | helgi) & theirs {
            map |= attacks::knight(sq);
        }
        for sq in (r[Role::Bishop.index()] | queens) & theirs {
            map |= attacks::bishop(sq, occ);
        }
        for sq in (r[Role::Rook.index()] | queens) & theirs {
            map |= attacks::rook(sq, occ);
        }
        for sq in r[Role::King.index()] & theirs {
            map |= attacks::king(sq);
        }
        map
    }
}

/// The squares `p` on `sq` attacks (moves to, ignoring what stands there).
#[inline]
fn piece_attacks(p: TowerPiece, sq: Square, occ: Bitboard) -> Bitboard {
    match p.role() {
        Role::King => attacks::king(sq),
        Role::Knight => attacks::knight(sq),
        Role::Bishop => attacks::bishop(sq, occ),
        Role::Rook => attacks::rook(sq, occ),
        Role::Queen => attacks::queen(sq, occ),
        Role::Helgi => attacks::queen(sq, occ) | attacks::knight(sq),
        Role::Pawn => attacks::pawn(p.color(), sq),
    }
}

/// The top the bottom part shows when the top `k` pieces leave `t` on
/// `from`, promoted if it is a pawn on its last rank (RULES.md §4.3).
#[inline]
fn revealed(t: Tower, k: usize, from: Square) -> Option<TowerPiece> {
    let p = t.get(t.len().checked_sub(k + 1)?)?;
    Some(if p.must_promote_on(from.rank()) {
        p.promote()
    } else {
        p
    })
}

/// `base` moving the top `k` of `h` pieces (`k = h` is the whole tower).
#[inline]
fn with_k(base: Move, k: usize, h: usize) -> Move {
    if k == h {
        base
    } else {
        base.with_split(k as u8)
    }
}

/// Facts of the side to move that decide legality (module docs).
pub(super) struct Guard {
    king: Square,
    occ: Bitboard,
    /// Destinations that answer every check: all squares out of check; the
    /// checker and the squares between it and the king in single check;
    /// none in double check.
    pub evasions: Bitboard,
    /// Own tops that are the only occupied square between the king and an
    /// enemy slider moving along that line.
    pub pinned: Bitboard,
}

/// Where generated moves go: a move list (in generation order) or a count.
trait Sink {
    /// The moves of the tower on `from` to each of `targets` (ascending):
    /// for k = 1 .. height − 1 where `splits[k - 1]` holds the target, then
    /// the whole tower where `whole` does.
    fn tower(
        &mut self,
        from: Square,
        targets: Bitboard,
        kind: MoveKind,
        captures: Bitboard,
        splits: &[Bitboard],
        whole: Bitboard,
    );

    /// One move already known to be legal.
    fn one(&mut self, m: Move);
}

/// A sink that hands every move to a closure.
struct Emit<'a, F>(&'a mut F);

impl<F: FnMut(Move)> Sink for Emit<'_, F> {
    #[inline]
    fn tower(
        &mut self,
        from: Square,
        targets: Bitboard,
        kind: MoveKind,
        captures: Bitboard,
        splits: &[Bitboard],
        whole: Bitboard,
    ) {
        let base = |to| {
            let m = Move::new(from, to, kind);
            if captures.contains(to) {
                m.with_capture()
            } else {
                m
            }
        };
        // The usual case: every k may go wherever the whole tower may.
        if splits.iter().all(|&mask| mask == whole) {
            for to in targets & whole {
                let m = base(to);
                for k in 1..=splits.len() {
                    (self.0)(m.with_split(k as u8));
                }
                (self.0)(m);
            }
            return;
        }
        for to in targets {
            let m = base(to);
            for (i, mask) in splits.iter().enumerate() {
                if mask.contains(to) {
                    (self.0)(m.with_split(i as u8 + 1));
                }
            }
            if whole.contains(to) {
                (self.0)(m);
            }
        }
    }

    #[inline]
    fn one(&mut self, m: Move) {
        (self.0)(m);
    }
}

/// A sink that only counts (perft's bulk count at the last ply).
struct Count(u64);

impl Sink for Count {
    #[inline]
    fn tower(
        &mut self,
        _: Square,
        targets: Bitboard,
        _: MoveKind,
        _: Bitboard,
        splits: &[Bitboard],
        whole: Bitboard,
    ) {
        let mut n = (targets & whole).count();
        for &mask in splits {
            n += (targets & mask).count();
        }
        self.0 += u64::from(n);
    }

    #[inline]
    fn one(&mut self, _: Move) {
        self.0 += 1;
    }
}

/// The towers a move leaves on the squares it changes (at most four: castling).
#[derive(Clone, Copy, Debug)]
pub(super) struct Plan {
    pub squares: [Square; 4],
    pub towers: [Tower; 4],
    pub len: usize,
    /// A group placed on an enemy tower, or en passant.
    pub capture: bool,
    /// The moved group is topped by an unpromoted pawn.
    pub pawn: bool,
}

impl Plan {
    #[inline]
    fn push(&mut self, sq: Square, t: Tower) {
        self.squares[self.len] = sq;
        self.towers[self.len] = t;
        self.len += 1;
    }
}

impl Tavreli {
    /// The towers `m` leaves behind (RULES.md §4.1–4.4): the bottom part
    /// (its top promoted if it is a pawn on its last rank), the group stacked
    /// on the destination (a covered promoted pawn demoted, the group's top
    /// promoted on its last rank), the en-passant tower moved under the
    /// capturer, or king and rook for castling.
    #[inline]
    pub(super) fn plan(&self, m: Move) -> Plan {
        let (from, to) = (m.from(), m.to());
        let source = self.towers[from.index()];
        let mut plan = Plan {
            squares: [from; 4],
            towers: [Tower::EMPTY; 4],
            len: 0,
            capture: false,
            pawn: false,
        };
        if m.kind() == MoveKind::Castle {
            let cs = CASTLES[self.turn.index()][usize::from(to.file() < from.file())];
            plan.push(from, Tower::EMPTY);
            plan.push(to, source);
            plan.push(cs.rook_from, Tower::EMPTY);
            plan.push(cs.rook_to, self.towers[cs.rook_from.index()]);
            return plan;
        }
        let k = match m.split() {
            0 => source.len(),
            k => usize::from(k),
        };
        let (mut bottom, group) = source.split(k);
        bottom.promote_top_on(from);
        plan.pawn = group.top().is_some_and(TowerPiece::is_pawn);
        plan.push(from, bottom);
        let mut dest = self.towers[to.index()];
        if m.kind() == MoveKind::EnPassant {
            let pushed = to.shift(-self.turn.forward());
            dest = self.towers[pushed.index()];
            plan.push(pushed, Tower::EMPTY);
            plan.capture = true;
        } else {
            plan.capture = dest.top().is_some_and(|p| p.color() != self.turn);
        }
        dest.place(group);
        dest.promote_top_on(to);
        plan.push(to, dest);
        plan
    }

    /// `true` if playing `plan` leaves the mover's king unattacked.
    #[inline]
    pub(super) fn plan_is_safe(&self, plan: &Plan) -> bool {
        let mut tops = self.tops;
        for i in 0..plan.len {
            let sq = plan.squares[i];
            tops.set(sq, self.towers[sq.index()].top(), plan.towers[i].top());
        }
        !tops.attacked(tops.king(self.turn), self.turn.flip())
    }

    /// `true` if the pseudo-legal `m` is legal.
    #[inline]
    pub(super) fn is_safe(&self, m: Move) -> bool {
        self.plan_is_safe(&self.plan(m))
    }

    /// What legality needs, computed once per node (see the module docs).
    #[inline]
    pub(super) fn guard(&self) -> Guard {
        let us = self.turn;
        let them = us.flip();
        let king = self.tops.king(us);
        let occ = self.tops.occupied();
        let checkers = self.checkers();
        let evasions = if checkers.is_empty() {
            Bitboard::FULL
        } else if checkers.more_than_one() {
            // No single destination both covers one checker and blocks the
            // other: a checker on the other's line would block it.
            Bitboard::EMPTY
        } else {
            checkers | attacks::between(checkers.lsb(), king)
        };
        let theirs = self.tops.color[them.index()];
        let r = &self.tops.role;
        let queens = r[Role::Queen.index()] | r[Role::Helgi.index()];
        let diagonal = (r[Role::Bishop.index()] | queens) & theirs;
        let straight = (r[Role::Rook.index()] | queens) & theirs;
        let snipers =
            (attacks::bishop(king, theirs) & diagonal) | (attacks::rook(king, theirs) & straight);
        let ours = self.tops.color[us.index()];
        let mut pinned = Bitboard::EMPTY;
        for s in snipers {
            let blockers = attacks::between(s, king) & occ;
            if blockers.nonempty() && !blockers.more_than_one() && (blockers & ours) == blockers {
                pinned |= blockers;
            }
        }
        Guard {
            king,
            occ,
            evasions,
            pinned,
        }
    }

    /// The legal destinations of the whole tower on `from` (not the king's)
    /// and, in `splits[k - 1]`, of its top `k` pieces (module docs, cases
    /// 1 and 2).
    #[inline]
    fn tower_masks(&self, g: &Guard, from: Square, t: Tower, splits: &mut [Bitboard]) -> Bitboard {
        for (i, slot) in splits.iter_mut().enumerate() {
            *slot = match revealed(t, i + 1, from) {
                Some(p)
                    if p.color() != self.turn && piece_attacks(p, from, g.occ).contains(g.king) =>
                {
                    g.evasions & attacks::between(from, g.king)
                }
                _ => g.evasions,
            };
        }
        if g.pinned.contains(from) {
            g.evasions & attacks::line(g.king, from)
        } else {
            g.evasions
        }
    }

    /// The legal destinations among the king's `targets` of the whole king
    /// tower and, in `splits[k - 1]`, of its top `k` pieces (module docs,
    /// case 3).
    #[inline]
    fn king_masks(
        &self,
        g: &Guard,
        from: Square,
        t: Tower,
        targets: Bitboard,
        splits: &mut [Bitboard],
    ) -> Bitboard {
        let them = self.turn.flip();
        // The top on `to` gets covered, but it never attacked `to` anyway.
        let whole = targets - self.tops.attack_map(them, g.occ.without(from));
        if splits.is_empty() {
            return whole;
        }
        let stay = targets - self.tops.attack_map(them, g.occ);
        for (i, slot) in splits.iter_mut().enumerate() {
            *slot = match revealed(t, i + 1, from) {
                Some(p) if p.color() == them => stay - piece_attacks(p, from, g.occ),
                _ => stay,
            };
        }
        whole
    }

    /// Pseudo-legal destinations of the top on `from` other than en passant
    /// and castling (RULES.md §4.2), as `(normal, double step)` targets.
    #[inline]
    pub(super) fn targets(&self, from: Square, top: TowerPiece) -> (Bitboard, Bitboard) {
        let occ = self.tops.occupied();
        let kings = self.tops.role[Role::King.index()];
        if top.role() != Role::Pawn {
            return (piece_attacks(top, from, occ) - kings, Bitboard::EMPTY);
        }
        let us = top.color();
        let them = self.tops.color[us.flip().index()];
        let mut t = attacks::pawn(us, from) & them;
        let mut double = Bitboard::EMPTY;
        if let Some(one) = from.offset(us.forward()) {
            if !them.contains(one) {
                t.add(one);
            }
            let home = top.promotion() == Some(home_piece(from.file()));
            if home && from.rank() == us.relative_rank(1) && !occ.contains(one) {
                let two = one.shift(us.forward());
                if !them.contains(two) {
                    double.add(two);
                }
            }
        }
        (t - kings, double - kings)
    }

    /// Calls `out` with every legal move.
    #[inline]
    pub(super) fn generate<F: FnMut(Move)>(&self, out: &mut F) {
        self.generate_into::<_, false>(&mut Emit(out));
    }

    /// Calls `out` with every legal capture, in the order of [`generate`]
    /// (Tavreli has no promotion moves: tops promote by themselves).
    ///
    /// [`generate`]: Tavreli::generate
    #[inline]
    pub(super) fn generate_captures<F: FnMut(Move)>(&self, out: &mut F) {
        self.generate_into::<_, true>(&mut Emit(out));
    }

    /// The number of legal moves, without listing them.
    #[inline]
    pub(super) fn count(&self) -> u64 {
        let mut n = Count(0);
        self.generate_into::<_, false>(&mut n);
        n.0
    }

    /// Every legal move into `sink` (only the captures if `CAPTURES`), in
    /// the order: own towers by square, then for each destination k = 1,
    /// 2, … and the whole tower last (double steps after a pawn's other
    /// moves), en passant, castling.
    fn generate_into<S: Sink, const CAPTURES: bool>(&self, sink: &mut S) {
        let g = self.guard();
        let us = self.turn;
        let captures = self.tops.color[us.flip().index()];
        let mut splits = [Bitboard::EMPTY; TOWER_CAPACITY];
        for from in self.tops.color[us.index()] {
            if g.evasions.is_empty() && from != g.king {
                continue;
            }
            let t = self.towers[from.index()];
            let Some(top) = t.top() else {
                continue;
            };
            let (mut normal, mut double) = self.targets(from, top);
            if CAPTURES {
                // A capture lands on an enemy top; a double step never does.
                // The masks below depend on the targets only as a filter.
                normal &= captures;
                double = Bitboard::EMPTY;
            }
            if (normal | double).is_empty() {
                continue;
            }
            let splits = &mut splits[..t.len() - 1];
            let whole = if from == g.king {
                self.king_masks(&g, from, t, normal, splits)
            } else {
                self.tower_masks(&g, from, t, splits)
            };
            sink.tower(from, normal, MoveKind::Normal, captures, splits, whole);
            if double.nonempty() {
                sink.tower(from, double, MoveKind::DoublePush, captures, splits, whole);
            }
        }
        if let Some(ep) = self.ep {
            for m in self.ep_moves(ep) {
                if self.is_safe(m) {
                    sink.one(m);
                }
            }
        }
        if !CAPTURES {
            self.castling_moves(sink);
        }
    }

    /// Every pseudo-legal move, each kept only if the trial `plan_is_safe`
    /// passes: the reference the fast generator is tested against.
    pub(super) fn generate_by_trial<F: FnMut(Move)>(&self, out: &mut F) {
        let them = self.tops.color[self.turn.flip().index()];
        for from in self.tops.color[self.turn.index()] {
            let t = self.towers[from.index()];
            let Some(top) = t.top() else {
                continue;
            };
            let (normal, double) = self.targets(from, top);
            for (targets, kind) in [(normal, MoveKind::Normal), (double, MoveKind::DoublePush)] {
                for to in targets {
                    let mut base = Move::new(from, to, kind);
                    if them.contains(to) {
                        base = base.with_capture();
                    }
                    for k in 1..=t.len() {
                        let m = with_k(base, k, t.len());
                        if self.is_safe(m) {
                            out(m);
                        }
                    }
                }
            }
        }
        if let Some(ep) = self.ep {
            for m in self.ep_moves(ep) {
                if self.is_safe(m) {
                    out(m);
                }
            }
        }
        self.castling_moves(&mut Emit(out));
    }

    /// The pseudo-legal en-passant captures onto `ep`: every capturer topped
    /// by an unpromoted pawn, k = 1, 2, … and the whole tower.
    fn ep_moves(&self, ep: Square) -> impl Iterator<Item = Move> + '_ {
        let us = self.turn;
        let capturers = attacks::pawn(us.flip(), ep) & self.tops.pieces(us, Role::Pawn);
        capturers.flat_map(move |from| {
            let h = self.towers[from.index()].len();
            let base = Move::new(from, ep, MoveKind::EnPassant).with_capture();
            (1..=h).map(move |k| with_k(base, k, h))
        })
    }

    /// Castling is rare enough to keep the trial: the king's end square is
    /// tested on the board after the move.
    fn castling_moves<S: Sink>(&self, sink: &mut S) {
        let us = self.turn;
        let occ = self.tops.occupied();
        let them = us.flip();
        for cs in CASTLES[us.index()] {
            if self.castling & cs.right == 0
                || (attacks::between(cs.king_from, cs.rook_from) & occ).nonempty()
                || self.tops.attacked(cs.king_from, them)
                || self.tops.attacked(
                    cs.king_from
                        .shift(if cs.king_to > cs.king_from { 1 } else { -1 }),
                    them,
                )
            {
                continue;
            }
            let m = Move::new(cs.king_from, cs.king_to, MoveKind::Castle);
            if self.is_safe(m) {
                sink.one(m);
            }
        }
    }

    /// `true` if the side to move has a legal en-passant capture onto `ep`
    /// (a capturer topped by an unpromoted pawn beside the double-stepped
    /// tower; any k).
    pub(super) fn ep_capture_exists(&self, ep: Square) -> bool {
        self.ep_moves(ep).any(|m| self.is_safe(m))
    }

    /// Castling rights kept after a move between `from` and `to`.
    #[inline]
    pub(super) fn rights_after(&self, from: Square, to: Square) -> u8 {
        self.castling & CASTLE_KEEP[from.index()] & CASTLE_KEEP[to.index()]
    }
}
