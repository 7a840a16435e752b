//! Legal move generation for the chess family: checkers and pin masks, the
//! king's steps, castling, en passant, unvested pieces and pawns set-wise;
//! the layer adds the vested pieces and the plunder choices.

use super::{Family, Layer, Movers, CASTLES};
use crate::attacks;
use crate::bitboard::Bitboard;
use crate::moves::{Move, MoveKind, MoveList};
use crate::types::{Color, Role, Square};

/// Promotion roles in generation order.
pub(crate) const PROMOTIONS: [Role; 4] = [Role::Queen, Role::Rook, Role::Bishop, Role::Knight];

#[inline]
pub(crate) const fn shift(bb: Bitboard, delta: i8) -> Bitboard {
    if delta >= 0 {
        Bitboard(bb.0 << delta)
    } else {
        Bitboard(bb.0 >> -delta)
    }
}

pub(crate) const NOT_FILE_A: Bitboard = Bitboard(!0x0101_0101_0101_0101);
pub(crate) const NOT_FILE_H: Bitboard = Bitboard(!0x8080_8080_8080_8080);

/// The plunder choices of captures: for each destination, which new vests
/// capturing there lets the mover take (none in chess).
pub trait Choices: Copy + Default {
    /// How many moves the choices add to the captures on `caps` (beyond one
    /// declined capture each).
    fn count(&self, caps: Bitboard) -> u64;
    /// Pushes `m`, a capture, once per choice at its destination.
    fn push_choices(&self, list: &mut MoveList, m: Move);
}

/// Chess: a capture is only itself.
#[derive(Clone, Copy, Default)]
pub struct NoChoices;

impl Choices for NoChoices {
    #[inline]
    fn count(&self, _: Bitboard) -> u64 {
        0
    }
    #[inline]
    fn push_choices(&self, _: &mut MoveList, _: Move) {}
}

/// Where moves go: a list, or perft's bulk counter (popcounts instead of
/// moves).
pub trait Sink<O: Choices> {
    /// `false` for a sink that keeps only captures and queen promotions:
    /// the generator may then skip what can only make quiet moves (castling,
    /// the king's safety tests of its empty neighbours).
    const QUIETS: bool = true;
    /// Moves of the piece on `from` to `targets`, those on `them` captures
    /// (each once declined and once per choice); `vest` marks vest moves.
    fn moves(&mut self, from: Square, targets: Bitboard, them: Bitboard, opts: &O, vest: bool);
    /// The same for moves that promote to `to`, for each promotion role.
    fn promotions(&mut self, from: Square, to: Bitboard, them: Bitboard, opts: &[O; 4], vest: bool);
    /// Ordinary pawn moves to `targets` from `target − delta` (no promotion).
    fn pawns(&mut self, targets: Bitboard, delta: i8, kind: MoveKind, capture: bool, opts: &O);
    /// Ordinary promotions to `targets` from `target − delta`: by default
    /// one pawn at a time through `promotions`.
    #[inline]
    fn pawn_promotions(&mut self, targets: Bitboard, delta: i8, capture: bool, opts: &[O; 4]) {
        let them = if capture { targets } else { Bitboard::EMPTY };
        for to in targets {
            let one = Bitboard::from_square(to);
            self.promotions(to.shift(-delta), one, them & one, opts, false);
        }
    }
    /// One move.
    fn one(&mut self, m: Move);
}

#[inline]
fn mark(m: Move, vest: bool) -> Move {
    if vest {
        m.with_vest_move()
    } else {
        m
    }
}

#[inline]
fn push_capture<O: Choices>(list: &mut MoveList, m: Move, opts: &O) {
    list.push(m);
    opts.push_choices(list, m);
}

impl<O: Choices> Sink<O> for MoveList {
    #[inline]
    fn moves(&mut self, from: Square, targets: Bitboard, them: Bitboard, opts: &O, vest: bool) {
        for to in targets & them {
            push_capture(self, mark(Move::capture(from, to), vest), opts);
        }
        for to in targets - them {
            self.push(mark(Move::quiet(from, to), vest));
        }
    }

    #[inline]
    fn promotions(&mut self, from: Square, to: Bitboard, them: Bitboard, o: &[O; 4], vest: bool) {
        for sq in to & them {
            for (role, opts) in PROMOTIONS.into_iter().zip(o) {
                push_capture(
                    self,
                    mark(Move::capture(from, sq), vest).with_promotion(role),
                    opts,
                );
            }
        }
        for sq in to - them {
            for role in PROMOTIONS {
                self.push(mark(Move::quiet(from, sq), vest).with_promotion(role));
            }
        }
    }

    #[inline]
    fn pawns(&mut self, targets: Bitboard, delta: i8, kind: MoveKind, capture: bool, opts: &O) {
        for to in targets {
            let m = Move::new(to.shift(-delta), to, kind);
            if capture {
                push_capture(self, m.with_capture(), opts);
            } else {
                self.push(m);
            }
        }
    }

    #[inline]
    fn one(&mut self, m: Move) {
        self.push(m);
    }
}

/// The moves quiescence searches, in the order the move-list sink gives
/// them: captures (each with its plunder choices), capturing promotions to
/// any role, and quiet promotions to a queen.
pub(crate) struct Tactical<'a>(pub &'a mut MoveList);

impl<O: Choices> Sink<O> for Tactical<'_> {
    const QUIETS: bool = false;

    #[inline]
    fn moves(&mut self, from: Square, targets: Bitboard, them: Bitboard, opts: &O, vest: bool) {
        self.0.moves(from, targets & them, them, opts, vest);
    }

    #[inline]
    fn promotions(&mut self, from: Square, to: Bitboard, them: Bitboard, o: &[O; 4], vest: bool) {
        for sq in to & them {
            for (role, opts) in PROMOTIONS.into_iter().zip(o) {
                push_capture(
                    self.0,
                    mark(Move::capture(from, sq), vest).with_promotion(role),
                    opts,
                );
            }
        }
        for sq in to - them {
            self.0
                .push(mark(Move::quiet(from, sq), vest).with_promotion(Role::Queen));
        }
    }

    #[inline]
    fn pawns(&mut self, targets: Bitboard, delta: i8, kind: MoveKind, capture: bool, opts: &O) {
        if capture {
            self.0.pawns(targets, delta, kind, capture, opts);
        }
    }

    #[inline]
    fn one(&mut self, m: Move) {
        if m.is_capture() || m.promotion() == Some(Role::Queen) {
            self.0.push(m);
        }
    }
}

/// Bulk counter.
pub(crate) struct Counter(pub u64);

impl<O: Choices> Sink<O> for Counter {
    #[inline]
    fn moves(&mut self, _: Square, targets: Bitboard, them: Bitboard, opts: &O, _: bool) {
        self.0 += u64::from(targets.count()) + opts.count(targets & them);
    }

    #[inline]
    fn promotions(&mut self, _: Square, to: Bitboard, them: Bitboard, opts: &[O; 4], _: bool) {
        self.0 += 4 * u64::from(to.count());
        for o in opts {
            self.0 += o.count(to & them);
        }
    }

    #[inline]
    fn pawns(&mut self, targets: Bitboard, _: i8, _: MoveKind, capture: bool, opts: &O) {
        self.0 += u64::from(targets.count());
        if capture {
            self.0 += opts.count(targets);
        }
    }

    #[inline]
    fn pawn_promotions(&mut self, targets: Bitboard, _: i8, capture: bool, opts: &[O; 4]) {
        self.0 += 4 * u64::from(targets.count());
        if capture {
            for o in opts {
                self.0 += o.count(targets);
            }
        }
    }

    #[inline]
    fn one(&mut self, _: Move) {
        self.0 += 1;
    }
}

/// What every generator step needs about the position.
pub struct Ctx {
    pub(crate) us: Color,
    pub(crate) ours: Bitboard,
    pub(crate) them: Bitboard,
    pub(crate) occ: Bitboard,
    pub(crate) king: Square,
    /// Where a move other than the king's must end: anywhere but on an own
    /// piece, or, in check, on the checker or between it and the king.
    target: Bitboard,
    /// Own pieces alone between the king and an enemy slider.
    pinned: Bitboard,
    /// Enemy pieces by the way they attack, vests included.
    enemy: Movers,
    enemy_king: Bitboard,
}

impl Ctx {
    /// `true` if the enemy attacks `sq` with occupancy `occ` (cheap tests
    /// first).
    #[inline]
    pub(crate) fn attacked(&self, sq: Square, occ: Bitboard) -> bool {
        (attacks::knight(sq) & self.enemy.knights).nonempty()
            || (attacks::pawn(self.us, sq) & self.enemy.pawns).nonempty()
            || (attacks::king(sq) & self.enemy_king).nonempty()
            || (attacks::rook(sq, occ) & self.enemy.rooks).nonempty()
            || (attacks::bishop(sq, occ) & self.enemy.bishops).nonempty()
    }

    /// The squares of `targets` the king may step to: not attacked once it
    /// has left its square (it must not shield the squares behind it).
    #[inline(always)]
    pub(crate) fn safe_for_king(&self, targets: Bitboard) -> Bitboard {
        let occ = self.occ - Bitboard::from_square(self.king);
        let mut safe = targets;
        for to in targets {
            if self.attacked(to, occ) {
                safe.remove(to);
            }
        }
        safe
    }

    /// Where the piece on `from` (not the king) may move: the target,
    /// narrowed to its pin line if it is pinned.
    #[inline]
    pub(crate) fn mask(&self, from: Square) -> Bitboard {
        if self.pinned.contains(from) {
            self.target & attacks::line(self.king, from)
        } else {
            self.target
        }
    }
}

impl<V: Layer> Family<V> {
    /// The choices of a mover of type `wearer` still wearing `kept` after
    /// the move.
    #[inline(always)]
    pub(crate) fn choices(&self, wearer: Role, kept: Option<Role>) -> V::Opts {
        self.layer.choices(&self.board, wearer, kept)
    }

    /// The vest layer, or with `BARE` (the position wears no vest) the
    /// empty one: a constant the compiler folds every vest query of.
    #[inline(always)]
    fn layer_for<const BARE: bool>(&self) -> V {
        if BARE {
            V::BARE
        } else {
            self.layer
        }
    }

    #[inline(always)]
    fn context<const BARE: bool>(&self) -> Ctx {
        let us = self.turn;
        let b = &self.board;
        let ours = b.by_color(us);
        let them = b.by_color(us.flip());
        let king = b.king(us);
        let enemy = self.movers_in(&self.layer_for::<BARE>()).within(them);
        let occ = ours | them;
        Ctx {
            us,
            ours,
            them,
            occ,
            king,
            target: match self.checkers.first() {
                Some(c) => attacks::between(king, c) | self.checkers,
                None => !ours,
            },
            pinned: pinned(king, ours, them, occ, enemy),
            enemy,
            enemy_king: b.pieces(us.flip(), Role::King),
        }
    }

    pub(crate) fn generate<S: Sink<V::Opts>>(&self, sink: &mut S) {
        // Most positions wear no vest at all (every chess one): a copy of
        // the generator that knows it skips the vest queries.
        if self.layer.vested().is_empty() {
            self.generate_with::<S, true>(sink);
        } else {
            self.generate_with::<S, false>(sink);
        }
    }

    #[inline(always)]
    fn generate_with<S: Sink<V::Opts>, const BARE: bool>(&self, sink: &mut S) {
        let cx = self.context::<BARE>();
        self.king_steps::<S, BARE>(sink, &cx);
        if V::ORDER.specials_first {
            let castled = self.castlings(sink, &cx);
            if !BARE {
                V::king_vest_moves(self, sink, &cx, castled);
            }
            if let Some(ep) = self.ep {
                self.en_passant(sink, ep);
            }
        }
        if self.checkers.more_than_one() {
            return;
        }
        self.piece_moves::<S, BARE>(sink, &cx);
        let pawns = self.board.pieces(cx.us, Role::Pawn) - self.layer_for::<BARE>().vested();
        self.pawn_moves::<S, BARE>(sink, &cx, pawns - cx.pinned, Bitboard::FULL);
        for from in pawns & cx.pinned {
            let line = attacks::line(cx.king, from);
            self.pawn_moves::<S, BARE>(sink, &cx, Bitboard::from_square(from), line);
        }
        if !BARE {
            V::vested_pieces(self, sink, &cx);
        }
        if !V::ORDER.specials_first {
            if let Some(ep) = self.ep {
                self.en_passant(sink, ep);
            }
            self.castlings(sink, &cx);
        }
    }

    /// The king's own steps (vest moves are the layer's).
    #[inline]
    fn king_steps<S: Sink<V::Opts>, const BARE: bool>(&self, sink: &mut S, cx: &Ctx) {
        let steps = attacks::king(cx.king) - cx.ours;
        let steps = if S::QUIETS { steps } else { steps & cx.them };
        let safe = cx.safe_for_king(steps);
        let vests = self.layer_for::<BARE>();
        let opts = vests.choices(&self.board, Role::King, vests.vest_at(cx.king));
        sink.moves(cx.king, safe, cx.them, &opts, false);
    }

    /// Castling moves; returns the king's targets of those generated.
    /// Always inlined: with two generator copies (bare or not) the compiler
    /// kept it out of line, and its context then went through memory.
    #[inline(always)]
    fn castlings<S: Sink<V::Opts>>(&self, sink: &mut S, cx: &Ctx) -> Bitboard {
        let mut castled = Bitboard::EMPTY;
        // Castling is never tactical. The targets it returns only remove
        // plunder king vest moves onto them, and a castling target lies
        // between king and rook, so it is empty: those would be quiet moves,
        // which a sink without quiets drops anyway.
        if self.checkers.nonempty() || !S::QUIETS {
            return castled;
        }
        for cs in CASTLES[cx.us.index()] {
            if self.castling & cs.right != 0
                && (attacks::between(cs.king_from, cs.rook_from) & cx.occ).is_empty()
                && !(attacks::between(cs.king_from, cs.king_to) | Bitboard::from_square(cs.king_to))
                    .into_iter()
                    .any(|sq| cx.attacked(sq, cx.occ))
            {
                castled.add(cs.king_to);
                sink.one(Move::new(cs.king_from, cs.king_to, MoveKind::Castle));
            }
        }
        castled
    }

    /// Knights, bishops, rooks and queens without a vest, in the variant's
    /// order.
    #[inline]
    fn piece_moves<S: Sink<V::Opts>, const BARE: bool>(&self, sink: &mut S, cx: &Ctx) {
        let b = &self.board;
        let vests = self.layer_for::<BARE>();
        let plain = cx.ours - vests.vested();
        let occ = cx.occ;
        let opts = |role| vests.choices(b, role, None);
        let (n, bi, r, q) = (
            opts(Role::Knight),
            opts(Role::Bishop),
            opts(Role::Rook),
            opts(Role::Queen),
        );
        let knights = b.by_role(Role::Knight) & (plain - cx.pinned); // a pinned knight never moves
        self.moves_of(sink, cx, knights, attacks::knight, |_| &n);
        let bishop = |sq| attacks::bishop(sq, occ);
        let rook = |sq| attacks::rook(sq, occ);
        if V::ORDER.queens_with_sliders {
            let queens = b.by_role(Role::Queen);
            let diagonal = |sq| if queens.contains(sq) { &q } else { &bi };
            let orthogonal = |sq| if queens.contains(sq) { &q } else { &r };
            self.moves_of(sink, cx, b.bishop_movers() & plain, bishop, diagonal);
            self.moves_of(sink, cx, b.rook_movers() & plain, rook, orthogonal);
        } else {
            let queen = |sq| attacks::queen(sq, occ);
            self.moves_of(sink, cx, b.by_role(Role::Bishop) & plain, bishop, |_| &bi);
            self.moves_of(sink, cx, b.by_role(Role::Rook) & plain, rook, |_| &r);
            self.moves_of(sink, cx, b.by_role(Role::Queen) & plain, queen, |_| &q);
        }
    }

    /// Moves of each of `pieces` (of the side to move) to its `reach` within
    /// its mask, with the choices `opts` gives for its square.
    #[inline]
    fn moves_of<'o, S: Sink<V::Opts>>(
        &self,
        sink: &mut S,
        cx: &Ctx,
        pieces: Bitboard,
        reach: impl Fn(Square) -> Bitboard,
        opts: impl Fn(Square) -> &'o V::Opts,
    ) {
        for from in pieces {
            sink.moves(
                from,
                reach(from) & cx.mask(from),
                cx.them,
                opts(from),
                false,
            );
        }
    }

    /// Unvested pawns, set-wise; `pin_line` narrows their moves (FULL when
    /// none of them is pinned).
    #[inline(always)]
    fn pawn_moves<S: Sink<V::Opts>, const BARE: bool>(
        &self,
        sink: &mut S,
        cx: &Ctx,
        pawns: Bitboard,
        pin_line: Bitboard,
    ) {
        if pawns.is_empty() {
            return;
        }
        let us = cx.us;
        let fwd = us.forward();
        let last = Bitboard::rank(us.relative_rank(7));
        let third = Bitboard::rank(us.relative_rank(2));
        let empty = !cx.occ;
        let mask = cx.target & pin_line;
        let vests = self.layer_for::<BARE>();
        let pawn_opts = vests.choices(&self.board, Role::Pawn, None);
        // Built only where a pawn promotes (few nodes).
        let promo_opts = || PROMOTIONS.map(|r| vests.choices(&self.board, r, None));

        let single = shift(pawns, fwd) & empty;
        let double = shift(single & third, fwd) & empty & mask;
        let single = single & mask;
        sink.pawns(single - last, fwd, MoveKind::Normal, false, &pawn_opts);
        let push_promotions = single & last;
        if V::ORDER.push_promotions_first && push_promotions.nonempty() {
            sink.pawn_promotions(push_promotions, fwd, false, &promo_opts());
        }
        sink.pawns(double, 2 * fwd, MoveKind::DoublePush, false, &pawn_opts);
        for (delta, file_mask) in [(fwd - 1, NOT_FILE_H), (fwd + 1, NOT_FILE_A)] {
            // Shifting by fwd−1 moves one file left for either colour, and a
            // pawn on the a-file wraps to the h-file: masking the destination
            // file drops the wrapped squares (likewise fwd+1 and the a-file).
            let caps = shift(pawns, delta) & file_mask & cx.them & mask;
            sink.pawns(caps - last, delta, MoveKind::Normal, true, &pawn_opts);
            if (caps & last).nonempty() {
                sink.pawn_promotions(caps & last, delta, true, &promo_opts());
            }
        }
        if !V::ORDER.push_promotions_first && push_promotions.nonempty() {
            sink.pawn_promotions(push_promotions, fwd, false, &promo_opts());
        }
    }

    /// `true` if the en-passant capture `from` → `ep` (removing the piece on
    /// `cap_sq`) leaves the mover's king unattacked. Checked in full: three
    /// squares change.
    pub(crate) fn ep_legal(&self, from: Square, ep: Square, cap_sq: Square) -> bool {
        let us = self.turn;
        let occ =
            (self.board.occupied() - Bitboard::from_square(from) - Bitboard::from_square(cap_sq))
                | Bitboard::from_square(ep);
        let king = self.board.king(us);
        let ksq = if king == from { ep } else { king };
        let them = self.board.by_color(us.flip()) - Bitboard::from_square(cap_sq);
        (self.attackers(ksq, occ) & them).is_empty()
    }

    /// `true` if the quiet step `from` → `to` leaves the mover's king safe.
    pub(crate) fn quiet_step_legal(&self, from: Square, to: Square) -> bool {
        let us = self.turn;
        let occ = (self.board.occupied() - Bitboard::from_square(from)) | Bitboard::from_square(to);
        let king = self.board.king(us);
        let ksq = if king == from { to } else { king };
        (self.attackers(ksq, occ) & self.board.by_color(us.flip())).is_empty()
    }

    /// En-passant captures onto `ep` by the pieces that capture like pawns
    /// (pawns; in plunder pawn-vested pieces too).
    pub(crate) fn en_passant<S: Sink<V::Opts>>(&self, sink: &mut S, ep: Square) {
        let us = self.turn;
        let cap_sq = ep.shift(-us.forward());
        // A king never stands in front of a legal en-passant square (§3.3
        // forbids its double step there), but a FEN is only checked for a
        // piece that could have stepped: make sure.
        match self.board.piece_at(cap_sq) {
            Some(p) if p.color != us && p.role != Role::King => {}
            _ => return,
        }
        let pawn_like = self.board.by_role(Role::Pawn) | self.layer.vest_movers().pawns;
        let capturers = attacks::pawn(us.flip(), ep) & self.board.by_color(us) & pawn_like;
        for from in capturers {
            if self.ep_legal(from, ep, cap_sq) {
                let base = Move::new(from, ep, MoveKind::EnPassant).with_capture();
                V::ep_capture(self, sink, from, ep, base);
            }
        }
    }
}

/// Own pieces (`ours`) alone between `king` and an enemy slider of `enemy`.
#[inline]
fn pinned(king: Square, ours: Bitboard, them: Bitboard, occ: Bitboard, enemy: Movers) -> Bitboard {
    let snipers =
        (attacks::rook(king, them) & enemy.rooks) | (attacks::bishop(king, them) & enemy.bishops);
    let mut pinned = Bitboard::EMPTY;
    for s in snipers {
        let blockers = attacks::between(king, s) & occ;
        if !blockers.more_than_one() {
            pinned |= blockers & ours;
        }
    }
    pinned
}
