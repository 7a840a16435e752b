//! What vests add to the chess family's move generation: the plunder choices
//! of every capture, the vested pieces' own and vest moves, the king's vest
//! moves, en passant by pawn-vested pieces, and the two move-string
//! collisions of RULES.md §3.4.

use super::{vest_allowed, Plunder, Vests, ALLOWED, VEST_ROLES};
use crate::attacks;
use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::family::{shift, Choices, Ctx, Sink, PROMOTIONS};
use crate::moves::{Move, MoveKind, MoveList};
use crate::position::Position;
use crate::types::Role;
use crate::types::Square;

/// Plunder choices of a mover's captures. A victim offers the vests of its
/// type and of the vest it wears, never one kind twice (a vest adds moves
/// its wearer lacks), and the mover takes only the kinds allowed on its type
/// after the move other than the vest it keeps (RULES.md §3.2: the outcome
/// must be new). The sets need not exclude own pieces or the enemy king:
/// the generator asks only about squares of enemy pieces other than the
/// king (a legal position never lets the king be captured).
#[derive(Clone, Copy, Default)]
pub struct Opts {
    /// By vest kind, the squares whose capture offers it: pushing a
    /// capture's choices then needs no mask test per kind.
    victims: [Bitboard; 5],
    /// Squares whose piece's type, and those whose worn vest, is a choice:
    /// counting takes two popcounts, not one per kind (the bulk counter
    /// reads only these, so `victims` folds away there).
    by_type: Bitboard,
    by_vest: Bitboard,
}

impl Choices for Opts {
    #[inline]
    fn count(&self, caps: Bitboard) -> u64 {
        // Most move sets capture nothing: test that first.
        if caps.is_empty() {
            return 0;
        }
        u64::from((caps & self.by_type).count()) + u64::from((caps & self.by_vest).count())
    }

    #[inline]
    fn push_choices(&self, list: &mut MoveList, m: Move) {
        let to = m.to();
        for (victims, vest) in self.victims.into_iter().zip(VEST_ROLES) {
            if victims.contains(to) {
                list.push(m.with_vest(vest));
            }
        }
    }
}

/// The choices of a mover of type `wearer` that keeps `kept` after the move.
#[inline]
pub(super) fn choices(vests: &Vests, board: &Board, wearer: Role, kept: Option<Role>) -> Opts {
    let mut opts = Opts {
        victims: [Bitboard::EMPTY; 5],
        by_type: Bitboard::FULL,
        by_vest: vests.all,
    };
    let refuse = |opts: &mut Opts, i: usize, role: Role| {
        opts.by_type = opts.by_type - board.by_role(role);
        opts.by_vest = opts.by_vest - vests.by_kind[i];
        opts.victims[i] = Bitboard::EMPTY;
    };
    // `wearer` is a constant at most call sites: this loop folds away.
    let allowed = ALLOWED[wearer.index()];
    for (i, role) in VEST_ROLES.into_iter().enumerate() {
        if allowed >> i & 1 == 0 {
            refuse(&mut opts, i, role);
        } else {
            opts.victims[i] = board.by_role(role) | vests.by_kind[i];
        }
    }
    if let Some(k) = kept {
        refuse(&mut opts, k.index(), k);
    }
    opts
}

/// Pawn pushes of a piece of the side to move on `from`: (single push square
/// if empty, double push square if from the own 2nd rank and both empty).
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
pub(super) fn vested_piece<S: Sink<Opts>>(pos: &Plunder, sink: &mut S, cx: &Ctx, from: Square) {
    let (Some(role), Some(vest)) = (pos.board.role_at(from), pos.vest_at(from)) else {
        return;
    };
    if role == Role::Pawn {
        vested_pawn(pos, sink, cx, from, vest);
        return;
    }
    let mask = cx.mask(from);
    let own = attacks::piece(role, cx.us, from, cx.occ) - cx.ours;
    let own_opts = pos.choices(role, Some(vest));
    sink.moves(from, own & mask, cx.them, &own_opts, false);
    let vest_opts = pos.choices(role, None);
    if vest == Role::Pawn {
        // Rooks and queens reach the double-push square by their own slide
        // (ordinary, no en-passant square); knights and bishops double-push
        // by the vest.
        let (single, double) = pushes(cx, from);
        let caps = attacks::pawn(cx.us, from) & cx.them;
        sink.moves(
            from,
            ((single | caps) - own) & mask,
            cx.them,
            &vest_opts,
            true,
        );
        if matches!(role, Role::Knight | Role::Bishop) {
            if let Some(to) = (double & mask).first() {
                sink.one(Move::new(from, to, MoveKind::DoublePush).with_vest_move());
            }
        }
    } else {
        let reach = attacks::piece(vest, cx.us, from, cx.occ) - cx.ours - own;
        sink.moves(from, reach & mask, cx.them, &vest_opts, true);
    }
}

/// A pawn wearing `vest` (N B R Q): its own pawn moves, promotions
/// included, keep the vest where the new type may wear it; the vest's moves
/// it could not make as a pawn are vest moves, and promote on the last rank.
fn vested_pawn<S: Sink<Opts>>(pos: &Plunder, sink: &mut S, cx: &Ctx, from: Square, vest: Role) {
    let us = cx.us;
    let (single, double) = pushes(cx, from);
    let own_caps = attacks::pawn(us, from) & cx.them;
    let reach = attacks::piece(vest, us, from, cx.occ) - cx.ours;
    let mut vest_targets = reach - (single | double | own_caps);
    if let Some(ep) = pos.ep {
        // §3.4: next to a double-pushed enemy, `e5d6` is the pawn's own
        // en-passant capture; the vest's quiet step to d6 then does not
        // exist.
        let cap_sq = ep.shift(-us.forward());
        if vest_targets.contains(ep)
            && attacks::pawn(us.flip(), ep).contains(from)
            && pos.ep_legal(from, ep, cap_sq)
        {
            vest_targets.remove(ep);
        }
    }
    let last = Bitboard::rank(us.relative_rank(7));
    let own_opts = pos.choices(Role::Pawn, Some(vest));
    let own_promo = PROMOTIONS.map(|r| {
        let kept = Some(vest).filter(|&v| vest_allowed(v, r));
        pos.choices(r, kept)
    });
    let vest_opts = pos.choices(Role::Pawn, None);
    let vest_promo = PROMOTIONS.map(|r| pos.choices(r, None));
    let mask = cx.mask(from);
    let own = (single | own_caps) & mask;
    let vest_targets = vest_targets & mask;
    sink.moves(from, own - last, cx.them, &own_opts, false);
    sink.promotions(from, own & last, cx.them, &own_promo, false);
    if let Some(to) = (double & mask).first() {
        sink.one(Move::new(from, to, MoveKind::DoublePush));
    }
    sink.moves(from, vest_targets - last, cx.them, &vest_opts, true);
    sink.promotions(from, vest_targets & last, cx.them, &vest_promo, true);
}

/// The king's vest moves, and the castling/slide collision (§3.4: `e1g1` is
/// castling whenever castling is legal, so a slide there exists only when
/// castling does not; `castled` holds the castling targets).
pub(super) fn king_vest_moves<S: Sink<Opts>>(
    pos: &Plunder,
    sink: &mut S,
    cx: &Ctx,
    castled: Bitboard,
) {
    let king = cx.king;
    let Some(vest) = pos.vest_at(king) else {
        return;
    };
    let us = cx.us;
    if vest == Role::Pawn {
        // Pushes and diagonal captures are king steps (ordinary); only the
        // double push is a vest move, and only if no enemy pawn or
        // pawn-vested piece stands beside the destination (§3.3).
        let (_, double) = pushes(cx, king);
        if let Some(to) = double.first() {
            let single = to.shift(-us.forward());
            let pawnish = pos.board.by_role(Role::Pawn) | pos.vests(Role::Pawn);
            let beside = attacks::pawn(us, single) & cx.them & pawnish;
            if beside.is_empty() && cx.safe_for_king(Bitboard::from_square(to)).nonempty() {
                sink.one(Move::new(king, to, MoveKind::DoublePush).with_vest_move());
            }
        }
        return;
    }
    let steps = attacks::king(king) - cx.ours;
    let reach = attacks::piece(vest, us, king, cx.occ) - cx.ours - steps;
    let reach = cx.safe_for_king(reach) - castled;
    let vest_opts = pos.choices(Role::King, None);
    sink.moves(king, reach, cx.them, &vest_opts, true);
}

/// A legal en-passant capture `base` from `from` onto `ep`: by a pawn an
/// ordinary move, by a pawn-vested piece a vest move; either may plunder
/// (RULES.md §3.2), and the §3.4 collision decides whether the declined
/// capture exists.
pub(super) fn ep_capture<S: Sink<Opts>>(
    pos: &Plunder,
    sink: &mut S,
    from: Square,
    ep: Square,
    base: Move,
) {
    let Some(role) = pos.board.role_at(from) else {
        return;
    };
    let cap_sq = ep.shift(-pos.turn().forward());
    let pawn = role == Role::Pawn;
    let kept = if pawn { pos.vest_at(from) } else { None };
    let mut base = base;
    let mut with_base = true;
    if !pawn {
        base = base.with_vest_move();
        // §3.4 with §1: a bishop, queen or king through its pawn vest would
        // print the declined capture like its own quiet step to the same
        // square; the ordinary move owns the string, so the declined capture
        // exists only while that quiet step is illegal (say the double-pushed
        // piece gives check). The reference perft suite counts it this way
        // (one node in `rn5r/4np2/8/p1k(p)3pp/… w - - 0 20` at depth 5).
        if matches!(role, Role::Bishop | Role::Queen | Role::King) {
            with_base = !pos.quiet_step_legal(from, ep);
        }
    }
    if with_base {
        sink.one(base);
    }
    let mut allowed = ALLOWED[role.index()];
    if let Some(k) = kept {
        allowed &= !(1 << k.index());
    }
    let mut taken = 0u8;
    let victim = pos.board.role_at(cap_sq);
    for v in [victim, pos.vest_at(cap_sq)].into_iter().flatten() {
        let bit = 1 << v.index();
        if allowed & bit != 0 && taken & bit == 0 {
            taken |= bit;
            sink.one(base.with_vest(v));
        }
    }
}
