//! Legal move generation for PlunderChess: chess's checkers-and-pins scheme
//! with vests ORed into the movers, plunder choices on every capture, and
//! the two move-string collisions of RULES.md §3.4.

use super::{Plunder, ALLOWED, VEST_ROLES};
use crate::attacks;
use crate::bitboard::Bitboard;
use crate::chess::{shift, CASTLES, NOT_FILE_A, NOT_FILE_H};
use crate::moves::{Move, MoveKind, MoveList};
use crate::types::{Color, Role, Square};

/// Plunder options of a capture: `opts[i]` holds the destination squares
/// whose capture lets the mover take a **new** vest of `VEST_ROLES[i]`
/// (allowed on the mover's type after the move and not the vest it keeps).
pub(crate) type Opts = [Bitboard; 5];

/// Promotion roles in generation order.
const PROMOTIONS: [Role; 4] = [Role::Queen, Role::Rook, Role::Bishop, Role::Knight];

/// Where moves go: a list, or perft's bulk counter.
pub(crate) trait Out {
    /// Moves of the piece on `from` to `quiets` and captures on `caps`
    /// (each capture once declined and once per plunder option).
    fn piece(&mut self, from: Square, quiets: Bitboard, caps: Bitboard, opts: &Opts, vest: bool);
    /// The same for moves that promote, for each promotion role.
    fn piece_promos(
        &mut self,
        from: Square,
        quiets: Bitboard,
        caps: Bitboard,
        opts: &[Opts; 4],
        vest: bool,
    );
    /// Ordinary pawn moves to `targets` from `target − delta` (no promotion).
    fn pawns(&mut self, targets: Bitboard, delta: i8, kind: MoveKind, caps: bool, opts: &Opts);
    /// Ordinary promotions to `targets` from `target − delta`.
    fn pawn_promos(&mut self, targets: Bitboard, delta: i8, caps: bool, opts: &[Opts; 4]);
    /// One move.
    fn one(&mut self, m: Move);
}

#[inline]
fn push_capture(list: &mut MoveList, m: Move, opts: &Opts) {
    list.push(m);
    let to = m.to();
    for (i, o) in opts.iter().enumerate() {
        if o.contains(to) {
            list.push(m.with_vest(VEST_ROLES[i]));
        }
    }
}

#[inline]
fn mark(m: Move, vest: bool) -> Move {
    if vest {
        m.with_vest_move()
    } else {
        m
    }
}

impl Out for MoveList {
    fn piece(&mut self, from: Square, quiets: Bitboard, caps: Bitboard, opts: &Opts, vest: bool) {
        for to in caps {
            push_capture(self, mark(Move::capture(from, to), vest), opts);
        }
        for to in quiets {
            self.push(mark(Move::quiet(from, to), vest));
        }
    }

    fn piece_promos(
        &mut self,
        from: Square,
        quiets: Bitboard,
        caps: Bitboard,
        opts: &[Opts; 4],
        vest: bool,
    ) {
        for to in caps {
            for (role, o) in PROMOTIONS.iter().zip(opts) {
                let m = mark(Move::capture(from, to), vest).with_promotion(*role);
                push_capture(self, m, o);
            }
        }
        for to in quiets {
            for role in PROMOTIONS {
                self.push(mark(Move::quiet(from, to), vest).with_promotion(role));
            }
        }
    }

    fn pawns(&mut self, targets: Bitboard, delta: i8, kind: MoveKind, caps: bool, opts: &Opts) {
        for to in targets {
            let m = Move::new(to.shift(-delta), to, kind);
            if caps {
                push_capture(self, m.with_capture(), opts);
            } else {
                self.push(m);
            }
        }
    }

    fn pawn_promos(&mut self, targets: Bitboard, delta: i8, caps: bool, opts: &[Opts; 4]) {
        let from_delta = -delta;
        for to in targets {
            let from = to.shift(from_delta);
            if caps {
                self.piece_promos(
                    from,
                    Bitboard::EMPTY,
                    Bitboard::from_square(to),
                    opts,
                    false,
                );
            } else {
                self.piece_promos(
                    from,
                    Bitboard::from_square(to),
                    Bitboard::EMPTY,
                    opts,
                    false,
                );
            }
        }
    }

    #[inline]
    fn one(&mut self, m: Move) {
        self.push(m);
    }
}

/// Bulk counter: popcounts instead of moves.
pub(crate) struct Counter(pub u64);

#[inline]
fn option_count(caps: Bitboard, opts: &Opts) -> u64 {
    if (caps & (opts[0] | opts[1] | opts[2] | opts[3] | opts[4])).is_empty() {
        return 0;
    }
    opts.iter().map(|&o| u64::from((caps & o).count())).sum()
}

impl Out for Counter {
    #[inline]
    fn piece(&mut self, _: Square, quiets: Bitboard, caps: Bitboard, opts: &Opts, _: bool) {
        self.0 += u64::from(quiets.count() + caps.count()) + option_count(caps, opts);
    }

    #[inline]
    fn piece_promos(&mut self, _: Square, q: Bitboard, c: Bitboard, opts: &[Opts; 4], _: bool) {
        self.0 += 4 * u64::from(q.count() + c.count());
        for o in opts {
            self.0 += option_count(c, o);
        }
    }

    #[inline]
    fn pawns(&mut self, targets: Bitboard, _: i8, _: MoveKind, caps: bool, opts: &Opts) {
        self.0 += u64::from(targets.count());
        if caps {
            self.0 += option_count(targets, opts);
        }
    }

    #[inline]
    fn pawn_promos(&mut self, targets: Bitboard, _: i8, caps: bool, opts: &[Opts; 4]) {
        self.0 += 4 * u64::from(targets.count());
        if caps {
            for o in opts {
                self.0 += option_count(targets, o);
            }
        }
    }

    #[inline]
    fn one(&mut self, _: Move) {
        self.0 += 1;
    }
}

/// Plunder options for a mover of type `wearer` that keeps `kept` after the
/// move (RULES.md §3.2: only distinct, new outcomes are moves).
#[inline]
fn opts_for(victims: &Opts, wearer: Role, kept: Option<Role>) -> Opts {
    let mut allowed = ALLOWED[wearer.index()];
    if let Some(v) = kept {
        allowed &= !(1 << v.index());
    }
    let mut o = [Bitboard::EMPTY; 5];
    for (i, slot) in o.iter_mut().enumerate() {
        if allowed & (1 << i) != 0 {
            *slot = victims[i];
        }
    }
    o
}

/// Attacks of a non-pawn movement set (N B R Q K) from `sq`.
#[inline(always)]
fn set_attacks(role: Role, sq: Square, occ: Bitboard) -> Bitboard {
    match role {
        Role::Knight => attacks::knight(sq),
        Role::Bishop => attacks::bishop(sq, occ),
        Role::Rook => attacks::rook(sq, occ),
        Role::Queen => attacks::queen(sq, occ),
        Role::King => attacks::king(sq),
        Role::Pawn | Role::Helgi => Bitboard::EMPTY,
    }
}

/// What every generator step needs about the position.
struct Ctx {
    us: Color,
    ours: Bitboard,
    them: Bitboard,
    occ: Bitboard,
    king: Square,
    victims: Opts,
    /// Enemy pieces attacking like a rook / bishop / knight / pawn, vests
    /// included, and the enemy king's steps.
    e_rooks: Bitboard,
    e_bishops: Bitboard,
    e_knights: Bitboard,
    e_pawns: Bitboard,
    e_king: Bitboard,
}

impl Ctx {
    /// `true` if the enemy attacks `sq` with occupancy `occ` (cheap tests first).
    #[inline]
    fn attacked(&self, sq: Square, occ: Bitboard) -> bool {
        (attacks::knight(sq) & self.e_knights).nonempty()
            || (attacks::pawn(self.us, sq) & self.e_pawns).nonempty()
            || (attacks::king(sq) & self.e_king).nonempty()
            || (attacks::rook(sq, occ) & self.e_rooks).nonempty()
            || (attacks::bishop(sq, occ) & self.e_bishops).nonempty()
    }
}

impl Plunder {
    pub(crate) fn generate<O: Out>(&self, out: &mut O) {
        let us = self.turn;
        let b = &self.board;
        let ours = b.by_color(us);
        let them = b.by_color(us.flip());
        let mut victims = [Bitboard::EMPTY; 5];
        for (i, v) in victims.iter_mut().enumerate() {
            // A capture offers the captured type's vest and the vest it wore.
            *v = them & (b.by_role(VEST_ROLES[i]) | self.vests[i]);
        }
        let v = &self.vests;
        let cx = Ctx {
            us,
            ours,
            them,
            occ: ours | them,
            king: b.king(us),
            victims,
            e_rooks: them & (b.rook_movers() | v[3] | v[4]),
            e_bishops: them & (b.bishop_movers() | v[2] | v[4]),
            e_knights: them & (b.by_role(Role::Knight) | v[1]),
            e_pawns: them & (b.by_role(Role::Pawn) | v[0]),
            e_king: b.pieces(us.flip(), Role::King),
        };

        // Step 1: the king (own steps, vest moves, castling).
        self.king_moves(out, &cx);

        // Step 2: en passant, checked in full (three squares change).
        if let Some(ep) = self.ep {
            self.ep_moves(out, ep);
        }

        let checkers = self.checkers;
        if checkers.more_than_one() {
            return;
        }
        let target = match checkers.first() {
            Some(c) => attacks::between(cx.king, c) | checkers,
            None => !ours,
        };

        // Step 3: pins; vested sliders are snipers too.
        let snipers = (attacks::rook(cx.king, them) & cx.e_rooks)
            | (attacks::bishop(cx.king, them) & cx.e_bishops);
        let mut pinned = Bitboard::EMPTY;
        for s in snipers {
            let blockers = attacks::between(cx.king, s) & cx.occ;
            if !blockers.more_than_one() {
                pinned |= blockers & ours;
            }
        }

        // Step 4: unvested pieces, as in chess.
        let vested = self.vested() & ours;
        let plain = ours - vested;
        let mut plain_pieces =
            |role: Role, pieces: Bitboard, reach: &dyn Fn(Square) -> Bitboard| {
                if pieces.is_empty() {
                    return;
                }
                let opts = opts_for(&cx.victims, role, None);
                for from in pieces {
                    let mut t = reach(from) & target;
                    if pinned.contains(from) {
                        t &= attacks::line(cx.king, from);
                    }
                    out.piece(from, t - them, t & them, &opts, false);
                }
            };
        let occ = cx.occ;
        // A pinned knight never moves.
        plain_pieces(
            Role::Knight,
            b.pieces(us, Role::Knight) & (plain - pinned),
            &attacks::knight,
        );
        plain_pieces(Role::Bishop, b.pieces(us, Role::Bishop) & plain, &|sq| {
            attacks::bishop(sq, occ)
        });
        plain_pieces(Role::Rook, b.pieces(us, Role::Rook) & plain, &|sq| {
            attacks::rook(sq, occ)
        });
        plain_pieces(Role::Queen, b.pieces(us, Role::Queen) & plain, &|sq| {
            attacks::queen(sq, occ)
        });
        let pawns = b.pieces(us, Role::Pawn) & plain;
        self.pawn_set(out, &cx, pawns - pinned, Bitboard::FULL, target);
        for from in pawns & pinned {
            let line = attacks::line(cx.king, from);
            self.pawn_set(out, &cx, Bitboard::from_square(from), line, target);
        }

        // Step 5: vested pieces one by one.
        for from in vested - Bitboard::from_square(cx.king) {
            let mask = if pinned.contains(from) {
                target & attacks::line(cx.king, from)
            } else {
                target
            };
            self.vested_piece(out, &cx, from, mask);
        }
    }

    /// Unvested pawns, set-wise (chess code plus plunder options).
    fn pawn_set<O: Out>(
        &self,
        out: &mut O,
        cx: &Ctx,
        pawns: Bitboard,
        pin_line: Bitboard,
        target: Bitboard,
    ) {
        if pawns.is_empty() {
            return;
        }
        let us = cx.us;
        let fwd = us.forward();
        let last = Bitboard::rank(us.relative_rank(7));
        let third = Bitboard::rank(us.relative_rank(2));
        let empty = !cx.occ;
        let mask = target & pin_line;
        let pawn_opts = opts_for(&cx.victims, Role::Pawn, None);
        // Only pawns on the 7th rank promote: skip building their options
        // otherwise (most nodes).
        let promo_opts = if (pawns & Bitboard::rank(us.relative_rank(6))).nonempty() {
            PROMOTIONS.map(|r| opts_for(&cx.victims, r, None))
        } else {
            [[Bitboard::EMPTY; 5]; 4]
        };

        let single = shift(pawns, fwd) & empty;
        let double = shift(single & third, fwd) & empty & mask;
        let single = single & mask;
        out.pawns(single - last, fwd, MoveKind::Normal, false, &pawn_opts);
        out.pawns(double, 2 * fwd, MoveKind::DoublePush, false, &pawn_opts);
        for (delta, file_mask) in [(fwd - 1, NOT_FILE_H), (fwd + 1, NOT_FILE_A)] {
            // A shift by fwd∓1 wraps a-file pawns to the h-file (and back):
            // masking the destination file drops the wrapped squares.
            let caps = shift(pawns, delta) & file_mask & cx.them & mask;
            out.pawns(caps - last, delta, MoveKind::Normal, true, &pawn_opts);
            if (caps & last).nonempty() {
                out.pawn_promos(caps & last, delta, true, &promo_opts);
            }
        }
        if (single & last).nonempty() {
            out.pawn_promos(single & last, fwd, false, &promo_opts);
        }
    }

    /// Pawn pushes of a piece of `us` on `from`: (single push square if
    /// empty, double push square if from the own 2nd rank and both empty).
    fn pushes(cx: &Ctx, from: Square) -> (Bitboard, Bitboard) {
        let fwd = cx.us.forward();
        let empty = !cx.occ;
        let single = shift(Bitboard::from_square(from), fwd) & empty;
        let double = if from.rank() == cx.us.relative_rank(1) {
            shift(single, fwd) & empty
        } else {
            Bitboard::EMPTY
        };
        (single, double)
    }

    /// A vested piece other than the king (RULES.md §3.3): own moves keep the
    /// vest; vest moves are the vest's moves the piece could not make itself.
    fn vested_piece<O: Out>(&self, out: &mut O, cx: &Ctx, from: Square, mask: Bitboard) {
        let (Some(role), Some(vest)) = (self.board.role_at(from), self.vest_at(from)) else {
            return;
        };
        let us = cx.us;
        let them = cx.them;
        let empty = !cx.occ;
        if role == Role::Pawn {
            let (single, double) = Self::pushes(cx, from);
            let own_q = single | double;
            let own_c = attacks::pawn(us, from) & them;
            let reach = set_attacks(vest, from, cx.occ) - cx.ours;
            let mut vest_q = (reach & empty) - own_q;
            let vest_c = (reach & them) - own_c;
            if let Some(ep) = self.ep {
                // §3.4: next to a double-pushed enemy, `e5d6` is the pawn's
                // own en-passant capture; the vest's quiet step to d6 then
                // does not exist.
                let cap_sq = ep.shift(-us.forward());
                if vest_q.contains(ep)
                    && attacks::pawn(us.flip(), ep).contains(from)
                    && self.ep_legal(from, ep, cap_sq)
                {
                    vest_q.remove(ep);
                }
            }
            let last = Bitboard::rank(us.relative_rank(7));
            let own_opts = opts_for(&cx.victims, Role::Pawn, Some(vest));
            let own_promo = PROMOTIONS.map(|r| {
                let kept = Some(vest).filter(|&v| super::vest_allowed(v, r));
                opts_for(&cx.victims, r, kept)
            });
            let vest_opts = opts_for(&cx.victims, Role::Pawn, None);
            let vest_promo = PROMOTIONS.map(|r| opts_for(&cx.victims, r, None));
            let (single, double, own_c) = (single & mask, double & mask, own_c & mask);
            let (vest_q, vest_c) = (vest_q & mask, vest_c & mask);
            out.piece(from, single - last, own_c - last, &own_opts, false);
            out.piece_promos(from, single & last, own_c & last, &own_promo, false);
            if let Some(to) = double.first() {
                out.one(Move::new(from, to, MoveKind::DoublePush));
            }
            out.piece(from, vest_q - last, vest_c - last, &vest_opts, true);
            out.piece_promos(from, vest_q & last, vest_c & last, &vest_promo, true);
            return;
        }
        let own = set_attacks(role, from, cx.occ) - cx.ours;
        let own_opts = opts_for(&cx.victims, role, Some(vest));
        out.piece(
            from,
            own & empty & mask,
            own & them & mask,
            &own_opts,
            false,
        );
        let vest_opts = opts_for(&cx.victims, role, None);
        if vest == Role::Pawn {
            // Rooks and queens reach the double-push square by their own
            // slide (ordinary, no en-passant square); knights and bishops
            // double-push by the vest.
            let (single, double) = Self::pushes(cx, from);
            let caps = attacks::pawn(us, from) & them;
            out.piece(
                from,
                (single - own) & mask,
                (caps - own) & mask,
                &vest_opts,
                true,
            );
            if matches!(role, Role::Knight | Role::Bishop) {
                if let Some(to) = (double & mask).first() {
                    out.one(Move::new(from, to, MoveKind::DoublePush).with_vest_move());
                }
            }
        } else {
            let reach = set_attacks(vest, from, cx.occ) - cx.ours - own;
            out.piece(
                from,
                reach & empty & mask,
                reach & them & mask,
                &vest_opts,
                true,
            );
        }
    }

    /// King moves: own steps, vest moves, castling, and the castling/slide
    /// collision (§3.4: `e1g1` is castling whenever castling is legal).
    fn king_moves<O: Out>(&self, out: &mut O, cx: &Ctx) {
        let king = cx.king;
        let us = cx.us;
        let occ_nk = cx.occ - Bitboard::from_square(king);
        let safe = |targets: Bitboard| {
            let mut t = targets;
            for to in targets {
                if cx.attacked(to, occ_nk) {
                    t.remove(to);
                }
            }
            t
        };
        let vest = self.vest_at(king);
        let steps = attacks::king(king) - cx.ours;
        let own = safe(steps);
        let own_opts = opts_for(&cx.victims, Role::King, vest);
        out.piece(king, own - cx.them, own & cx.them, &own_opts, false);

        let mut castle_to = Bitboard::EMPTY;
        if self.checkers.is_empty() {
            for cs in CASTLES[us.index()] {
                if self.castling & cs.right != 0
                    && (attacks::between(cs.king_from, cs.rook_from) & cx.occ).is_empty()
                    && !(attacks::between(cs.king_from, cs.king_to)
                        | Bitboard::from_square(cs.king_to))
                    .into_iter()
                    .any(|sq| cx.attacked(sq, cx.occ))
                {
                    castle_to.add(cs.king_to);
                    out.one(Move::new(cs.king_from, cs.king_to, MoveKind::Castle));
                }
            }
        }

        let Some(vest) = vest else {
            return;
        };
        let vest_opts = opts_for(&cx.victims, Role::King, None);
        if vest == Role::Pawn {
            // Pushes and diagonal captures are king steps (ordinary); only
            // the double push is a vest move, and only if no enemy pawn or
            // pawn-vested piece stands beside the destination (§3.3).
            let (_, double) = Self::pushes(cx, king);
            if let Some(to) = double.first() {
                let single = to.shift(-us.forward());
                let pawnish = self.board.by_role(Role::Pawn) | self.vests[0];
                let beside = attacks::pawn(us, single) & cx.them & pawnish;
                if beside.is_empty() && !cx.attacked(to, occ_nk) {
                    out.one(Move::new(king, to, MoveKind::DoublePush).with_vest_move());
                }
            }
            return;
        }
        let reach = safe(set_attacks(vest, king, cx.occ) - cx.ours - steps) - castle_to;
        out.piece(king, reach - cx.them, reach & cx.them, &vest_opts, true);
    }

    /// `true` if the en-passant capture `from` → `ep` (removing the piece on
    /// `cap_sq`) leaves the mover's king unattacked.
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
    fn quiet_step_legal(&self, from: Square, to: Square) -> bool {
        let us = self.turn;
        let occ = (self.board.occupied() - Bitboard::from_square(from)) | Bitboard::from_square(to);
        let king = self.board.king(us);
        let ksq = if king == from { to } else { king };
        (self.attackers(ksq, occ) & self.board.by_color(us.flip())).is_empty()
    }

    /// En-passant captures onto `ep` by pawns (ordinary) and by pawn-vested
    /// pieces (vest moves), with plunder choices and the §3.4 collision.
    pub(crate) fn ep_moves<O: Out>(&self, out: &mut O, ep: Square) {
        let us = self.turn;
        let cap_sq = ep.shift(-us.forward());
        let Some(victim) = self.board.role_at(cap_sq) else {
            return;
        };
        if victim == Role::King || !self.board.by_color(us.flip()).contains(cap_sq) {
            return;
        }
        let victim_vest = self.vest_at(cap_sq);
        let pawnish = self.board.by_role(Role::Pawn) | self.vests[0];
        let capturers = attacks::pawn(us.flip(), ep) & self.board.by_color(us) & pawnish;
        for from in capturers {
            if !self.ep_legal(from, ep, cap_sq) {
                continue;
            }
            let Some(role) = self.board.role_at(from) else {
                continue;
            };
            let pawn = role == Role::Pawn;
            let kept = if pawn { self.vest_at(from) } else { None };
            let mut base = Move::new(from, ep, MoveKind::EnPassant).with_capture();
            let mut with_base = true;
            if !pawn {
                base = base.with_vest_move();
                // §3.4 with §1: a bishop, queen or king through its pawn
                // vest would print the declined capture like its own quiet
                // step to the same square; the ordinary move owns the string,
                // so the declined capture exists only while that quiet step
                // is illegal (say the double-pushed piece gives check). The
                // reference perft suite counts it this way (one node in
                // `rn5r/4np2/8/p1k(p)3pp/… w - - 0 20` at depth 5).
                if matches!(role, Role::Bishop | Role::Queen | Role::King) {
                    with_base = !self.quiet_step_legal(from, ep);
                }
            }
            if with_base {
                out.one(base);
            }
            let mut allowed = ALLOWED[role.index()];
            if let Some(k) = kept {
                allowed &= !(1 << k.index());
            }
            let mut taken = 0u8;
            for v in [Some(victim), victim_vest].into_iter().flatten() {
                let bit = 1 << v.index();
                if allowed & bit != 0 && taken & bit == 0 {
                    taken |= bit;
                    out.one(base.with_vest(v));
                }
            }
        }
    }
}
